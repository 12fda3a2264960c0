# The `multi.disclosure` class: made from a request of several targets (R/request.R)
# and its counts (run_request()) as each target's `disclosure`, the summary table and,
# with `control`, the holdout tables; print() and format(), tidy(), glance() and
# as.data.frame(), autoplot() and plot(), and `attrib.plot` drawn when first read.
as_multi_disclosure <- function(request, counted) {
  targets <- request$targets
  keys <- request$keys
  m <- length(request$syn)
  limits <- request$limits
  output <- request$output
  enc <- counted$enc
  n_control <- enc$records[length(enc$records)]
  # Every target's 2-way checks at once; the holdout records' result gives only its
  # measures (add_holdout()), so it is built without them.
  raws <- counted$raw$train[targets]
  two_train <- two_way_checks(raws, m, targets, keys, enc$labels, limits$thresh_2way)
  n <- length(targets)
  grouping <- enc$grouping %||% list()
  # Each target's grouping: its keys' and its own (without grouping, the same empty list).
  target_grouping <- if (length(grouping) == 0) {
    rep(list(grouping[intersect(keys, names(enc$grouping))]), n)
  } else {
    lapply(targets, function(tv) grouping[intersect(c(keys, tv), names(enc$grouping))])
  }
  extra <- list(grouping = target_grouping, notes = targets_notes(raws, unname(targets), keys, enc, m, output$digits),
                input = rep(list(counted$input), n), database = rep(list(counted$fetch), n))
  # Each target's result names its target without the names `targets` may carry. A
  # target's result is complete unless a holdout, intervals or a release add to it:
  # then it is classed once they have.
  with_intervals <- wants_intervals(request$uncertainty)
  more <- !is.null(request$control) || with_intervals || !is.null(counted$pooled)
  build <- function(raw, two, extra = list(), class = NULL) {
    build_disclosures(raw[targets], unname(targets), keys, enc$labels, m, limits$thresh_1way, two, output$digits,
                      "short", NULL, extra, class)
  }
  pooled <- if (!is.null(counted$pooled)) as_multi_disclosure(counted$pooled$request, counted$pooled$counted)
  outputs <- build(counted$raw$train, two_train, extra, if (!more) disclosure_class)
  if (more) {
    built_control <- if (!is.null(request$control)) build(counted$raw$control, NULL)
    outputs <- lapply(targets, function(tv) {
      d <- outputs[[tv]]
      if (!is.null(request$control)) {
        d$to.print <- c(d$to.print, "holdout")
        d <- add_holdout(d, built_control[[tv]], n_control, enc$control)
      }
      if (with_intervals) d <- add_intervals(d, request, counted, tv)
      if (!is.null(counted$pooled)) d <- add_release(d, counted, tv, pooled$output.list[[tv]])
      class(d) <- disclosure_class
      d
    })
  }
  names(outputs) <- targets
  x <- build_multi_disclosure(outputs, request)
  x$grouping <- enc$grouping %||% list()
  x$notes <- c(multi_notes(x, enc, given_exclusions = request$given_exclusions, grouping_named = request$grouping_named),
               first_synthesis = synorig_cut_note(request$synorig_adjusted, m))
  warn_label_gaps(x$notes, request$env)
  x$input <- counted$input
  x$database <- counted$fetch
  if (!is.null(request$control)) x <- add_multi_holdout(x, n_control, enc$control)
  # (.subset2(): the targets' results are classed, and `[[` would look for a method.)
  with_target <- function(part) {
    bind_frames(lapply(outputs, function(d) {
      value <- .subset2(d, part)
      if (!is.null(value)) cbind(target = .subset2(d, "target"), value)
    }))
  }
  # (Only add_intervals() gives a target's result intervals.)
  if (with_intervals) {
    x$intervals <- with_target("intervals")
    x$holdout_intervals <- with_target("holdout_intervals")
  }
  x$uncertainty <- .subset2(outputs[[1]], "uncertainty")
  if (!is.null(pooled)) {
    x$release <- bind_frames(lapply(outputs, .subset2, "release"))
    x$pooled <- pooled
  }
  class(x) <- multi_disclosure_class
  if (output$print.flag) {
    cat(wrap_lines(c(multi_preparation_lines(x, enc, timing = TRUE), x$holdout_notes,
                     counted_line(targets, keys, x$Norig, outputs[[1]]$Nsyn))), sep = "\n")
  }
  x
}

build_multi_disclosure <- function(outputs, request) {
  output <- request$output
  ident.meas <- output$ident.meas
  attrib.meas <- output$attrib.meas
  cols <- attrib_meas_columns[[attrib.meas]]
  # Per target (columns), the mean over the syntheses of the four measures the summary
  # shows (rows), in one pass over the targets; with one synthesis, each value (what
  # the mean of one number is, exactly).
  shown <- c(cols, ident_orig_measure, ident_meas_columns[[ident.meas]])
  one <- length(request$syn) == 1
  means <- vapply(outputs, function(d) {
    measures <- .subset2(d, "measures")
    if (one) unlist(.subset(measures, shown), use.names = FALSE) else {
      c(mean.default(.subset2(measures, shown[1])), mean.default(.subset2(measures, shown[2])),
        mean.default(.subset2(measures, shown[3])), mean.default(.subset2(measures, shown[4])))
    }
  }, numeric(4))
  orig <- means[1, ]
  syn <- means[2, ]
  check1 <- vapply(outputs, .subset2, character(1), "check1")
  check2 <- vapply(outputs, .subset2, character(1), "check2")
  ord <- order(syn)
  flags <- c("", " 1way checks", " 2way checks", " 1&2way checks")[1L + nzchar(check1) + 2L * nzchar(check2)]
  rank <- sprintf("%0*d", nchar(length(ord)), seq_along(ord))
  table <- vctrs::new_data_frame(list(attrib.orig = unname(orig[ord]), attrib.syn = unname(syn[ord]),
                                      check1 = unname(check1[ord]), Npairs = as.numeric(nzchar(check2[ord])),
                                      check2 = unname(check2[ord])),
                                 row.names = paste0(rank, " ", names(outputs)[ord], flags[ord]))
  attr(table, "targets") <- names(outputs)[ord]
  x <- list(
    attrib.table = table,
    attrib.plot = NULL,
    keys = request$keys,
    ident.orig = unname(means[3, ]),
    ident.syn = unname(means[4, ]),
    Norig = outputs[[1]]$Norig,
    denom_lim = request$limits$denom_lim,
    exclude_ov_denom_lim = request$limits$exclude_ov_denom_lim,
    digits = output$digits,
    usetargetsNA = request$usetargetsNA,
    usekeysNA = request$usekeysNA,
    ident.meas = ident.meas,
    attrib.meas = attrib.meas,
    m = length(request$syn),
    plot = output$plot,
    output.list = outputs,
    call = request$call
  )
  # attrib.plot is drawn on first access (`$.synthrisk_multi.disclosure` below), not here: a third of a
  # small call's time went to a ggplot that plot = FALSE never shows. The class is set
  # by as_multi_disclosure() once it has added its components (as disclosure_class).
  x
}

multi_disclosure_class <- c("synthrisk_multi.disclosure", "multi.disclosure")

multi_print_choices <- c("ident", "attrib", "checks", "holdout", "all")

#' Print or format a multi-target disclosure summary
#'
#' Everything goes to standard output (see [print.disclosure()]). Arguments are in
#' synthpop 1.9-3's order; `NULL` takes the object's stored value.
#'
#' @param x A `multi.disclosure` object (from synthrisk or synthpop).
#' @param digits Digits for the measures; `NULL`: the object's `digits`.
#' @param plot Whether to draw `attrib.plot`; `NULL`: the object's `plot`.
#' @param to.print Any of `"ident"` (identity measures), `"attrib"` (the attribute
#'   table), `"checks"` (the 1-way and 2-way check tables of the flagged targets),
#'   `"holdout"` (per target, the summary's identity and attribute measures with the
#'   training and the control records as the original, and R) or `"all"`. The
#'   default shows `"holdout"` too when the object has a holdout baseline.
#' @param ... Unused.
#' @return `print()`: `x`, invisibly. `format()`: a character vector of lines.
#' @rdname print.multi.disclosure
#' @aliases print.multi.disclosure format.multi.disclosure
#' @export
#' @examples
#' md <- multi.disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region", "placesize"),
#'                        targets = c("depress", "workab"), print.flag = FALSE, plot = FALSE)
#' md
#' print(md, to.print = "all", digits = 1)
print.synthrisk_multi.disclosure <- function(x, digits = NULL, plot = NULL, to.print = c("ident", "attrib"), ...) {
  if (missing(to.print)) to.print <- multi_default_to_print(x)
  cat(format.synthrisk_multi.disclosure(x, digits = digits, to.print = to.print, ...), sep = "\n")
  plot <- plot %||% x$plot %||% FALSE
  check_flag(plot, "plot", rlang::current_env())
  if (plot) {
    p <- tryCatch(autoplot.multi.disclosure(x), error = function(e) NULL)
    if (!is.null(p)) print(p)
  }
  invisible(x)
}

#' @rdname print.multi.disclosure
#' @export
format.synthrisk_multi.disclosure <- function(x, digits = NULL, to.print = c("ident", "attrib"), ...) {
  env <- rlang::current_env()
  if (missing(to.print)) to.print <- multi_default_to_print(x)
  to.print <- check_choices(to.print, multi_print_choices, "to.print", env)
  digits <- digits %||% x$digits %||% 2
  check_digits(digits, env)
  if ("all" %in% to.print) to.print <- setdiff(multi_print_choices, c("all", if (is.null(x$holdout)) "holdout"))
  cli::cli_format_method(multi_disclosure_cli(x, to.print, digits))
}

multi_default_to_print <- function(x) {
  c("ident", "attrib", if (!is.null(x$holdout)) "holdout")
}

multi_targets <- function(x) {
  names(x$output.list) %||% table_targets(x)
}

multi_disclosure_cli <- function(x, to.print, digits) {
  m <- x$m %||% 1
  tab <- x$attrib.table
  attrib.meas <- x$attrib.meas %||% default_attrib_meas
  cols <- attrib_meas_columns[[attrib.meas]] %||% c("original", attrib.meas)
  ident.meas <- x$ident.meas %||% default_ident_meas
  ident_col <- ident_meas_columns[[ident.meas]] %||% ident.meas
  cli::cli_h1("Disclosure risk for {nrow(tab)} target{?s}")
  cli::cli_text("Keys: {.val {x$keys}}; {format_count(x$Norig)}{cli::qty(x$Norig)} record{?s} in the original data; {cli::qty(m)}{m} synthes{?is/es}",
                if (m > 1) " (measures of the synthetic data are means over them)." else ".")
  if ("ident" %in% to.print) {
    # baseCAPd, which synthpop offers as ident.meas, is read off the original's target
    # distribution: no measure of the synthetic data, nor of identity.
    ident_where <- if (identical(ident_col, "baseCAPd")) {
      "from the original's target distribution (a baseline)"
    } else {
      "in the synthetic data"
    }
    cli::cli_h2("Identity disclosure, % of records: UiO in the original, {ident_col} {ident_where}")
    ident <- data.frame(UiO = x$ident.orig, x$ident.syn)
    names(ident)[2] <- ident_col
    if (nrow(unique(ident)) == 1) {
      cli::cli_text("For original (UiO): {round(ident$UiO[1], digits)} %; for synthetic ({ident_col}):",
                    " {round(ident[[2]][1], digits)} % (the same for all targets).")
    } else {
      rownames(ident) <- multi_targets(x)
      cli_table(round_frame(ident, digits))
    }
  }
  if ("attrib" %in% to.print) {
    cli::cli_h2("Attribute disclosure, % of records: {cols[1]} in the original, {cols[2]} in the synthetic data")
    cli::cli_text("Targets ordered by the synthetic measure.")
    shown <- round_frame(tab, digits)
    # The synthetic measure with its interval where there is one.
    found <- lapply(table_targets(x), function(tv) {
      interval_of(x$intervals[x$intervals$target == tv, , drop = FALSE], cols[2])
    })
    if (!all(vapply(found, is.null, logical(1)))) {
      shown$attrib.syn <- vapply(seq_along(found), function(i) {
        iv <- found[[i]]
        if (is.null(iv)) format_interval(tab$attrib.syn[i], NA, NA, digits) else
          format_interval(tab$attrib.syn[i], iv$conf.low, iv$conf.high, digits, iv$caveat)
      }, character(1))
    }
    names(shown)[1:2] <- c(cols[1], cols[2])
    cli_table(shown)
    if (any(tab$Npairs > 0)) {
      # synthpop's column is a flag, beside check2's count of pairs.
      cli::cli_text("{.field Npairs} is 1 where some 2-way pairs need checks; {.field check2} gives how many.")
    }
  }
  # The warning follows the table whose flags it explains.
  summary <- all(c("ident", "attrib") %in% to.print)
  if (summary && !"checks" %in% to.print && (any(nzchar(tab$check1)) || any(nzchar(tab$check2)))) {
    with_checks <- table_targets(x)[nzchar(tab$check1) | nzchar(tab$check2)]
    cli::cli_alert_warning("Targets that need checks: {.val {with_checks}}.", wrap = TRUE)
    cli::cli_bullets(c(" " = paste0(
      "Some of their disclosive records may be explained by background",
      " knowledge (1-way: one target level makes up most disclosive records; 2-way: a key level almost always",
      " has one target level). See {.code print(x, to.print = \"checks\")}.")))
  }
  if ("checks" %in% to.print) {
    flagged <- Filter(function(d) has_check(d$check1) || has_check(d$check2), x$output.list %||% list())
    cli::cli_h2("Checks for disclosure that background knowledge may explain")
    if (is.null(x$output.list)) {
      cli::cli_text("This object has no per-target results ({.field output.list}).")
    } else if (length(flagged) == 0) {
      cli::cli_text("No target needs checks.")
    }
    for (d in flagged) {
      cli::cli_h3("Target {.val {d$target}}")
      if (has_check(d$check1)) check_1way_cli(d, digits)
      if (has_check(d$check2)) check_2way_cli(d, digits)
    }
  }
  if ("holdout" %in% to.print) multi_holdout_cli(x, digits)
  # Preparation, notes and the check warning belong to the summary (identity and
  # attribute tables together, as by default); a narrower choice shows what it names.
  prep <- if (summary) x$notes %||% character(0) else character(0)
  prep_lines <- if (summary) multi_preparation_lines(x) else character(0)
  prep_lines <- prep_lines[!prep_lines %in% (note_of(x, "adjusted") %||% character(0))]
  if (length(prep_lines) > 0) {
    cli::cli_h2("Data preparation")
    for (line in prep_lines) cli::cli_bullets(c("*" = escape_braces(line)))
  }
  notes <- c(prep, if (summary) synthpop_object_notes(x))
  if (length(notes) > 0) {
    cli::cli_h2("Notes")
    note_bullets(notes)
  }
  if (summary && !is.null(x$release)) {
    cli::cli_h2("Released together")
    cli::cli_text(escape_braces(release_lines(x$release, m, digits, NA, NA)))
  }
  # Shown with the attribute table, which shows intervals, so that a "*" is explained.
  lines <- interval_lines(x$uncertainty, m,
                          if ("attrib" %in% to.print) shown_intervals(x$intervals, cols[2]))
  if ((summary || "attrib" %in% to.print) && length(lines) > 0) {
    cli::cli_h2("Intervals")
    for (line in lines) cli::cli_bullets(c("*" = escape_braces(line)))
  }
}

# An object made by synthpop 1.9-3 shows NA where it read a column that does not exist.
synthpop_object_notes <- function(x) {
  if (!is.null(x$notes)) return(character(0))
  out <- character(0)
  if (all(is.na(x$ident.syn))) {
    out <- c(out, paste0("The synthetic identity measure is NA: synthpop 1.9-3 computes nothing for ident.meas = \"",
                         x$ident.meas, "\"; synthrisk's multi.disclosure() reports it."))
  }
  if (all(is.na(x$attrib.table$attrib.orig))) {
    out <- c(out, paste("The original measure is NA: synthpop 1.9-3 reads a column that does not exist for",
                        "attrib.meas = \"DiSDiO\"; synthrisk reports Dorig."))
  }
  out
}

# The disclosure objects of a multi.disclosure, one per target.
target_results <- function(x) {
  if (is.null(x$output.list)) {
    cli::cli_abort("{.arg x} has no per-target results ({.field output.list}).", call = rlang::caller_env())
  }
  x$output.list
}

bind_rows_of <- function(results, f) {
  bind_frames(lapply(results, f))
}

#' @rdname tidy.disclosure
#' @export
tidy.multi.disclosure <- function(x, type = "measures", ...) {
  rlang::check_dots_empty()
  type <- tidy_type(type)
  if (type == "release") return(bind_rows_of(target_results(x), release_rows))
  if (type == "intervals") return(bind_frames(lapply(target_results(x), interval_rows, part = "intervals")))
  if (type == "holdout") {
    return(bind_rows_of(target_results(x), function(d) with_conf(holdout_rows(d), d$holdout_intervals)))
  }
  bind_rows_of(target_results(x), function(d) with_conf(measure_rows(d), d$intervals))
}

#' @rdname tidy.disclosure
#' @export
glance.multi.disclosure <- function(x, ...) {
  rlang::check_dots_empty()
  bind_rows_of(target_results(x), glance_row)
}

#' @rdname tidy.disclosure
#' @export
as.data.frame.multi.disclosure <- function(x, row.names = NULL, optional = FALSE, ...) {
  tidy.multi.disclosure(x)[c("target", "synthesis", "group", "measure", "value")]
}

#' @rdname autoplot.disclosure
#' @export
autoplot.multi.disclosure <- function(object, type = "measures", ...) {
  rlang::check_dots_empty()
  if (check_plot_type(type, rlang::current_env()) == "holdout") {
    require_holdout(object, rlang::current_env())
    return(holdout_plot_multi(object))
  }
  attrib_plot(object)
}

#' @rdname autoplot.disclosure
#' @export
plot.synthrisk_multi.disclosure <- function(x, ...) {
  print(autoplot.multi.disclosure(x, ...))
  invisible(x)
}

# Targets of a multi.disclosure in the order of its attrib.table (synthpop's objects
# have only the row names "<rank> <target>[ <flags>]").
table_targets <- function(x) {
  known <- attr(x$attrib.table, "targets")
  if (!is.null(known)) return(known)
  rn <- rownames(x$attrib.table)
  rn <- sub("^[0-9]+ ", "", rn)
  sub(" (1way|2way|1&2way) checks$", "", rn)
}

# The attribute plot of a multi.disclosure: per target, the original measure (ring),
# the synthetic one (dot, the mean over syntheses) and an arrow from one to the other.
attrib_plot <- function(x) {
  tab <- x$attrib.table
  cols <- attrib_meas_columns[[x$attrib.meas %||% default_attrib_meas]]
  m <- x$m %||% 1
  labels <- target_labels(table_targets(x), tab$check1, tab$check2)
  legend_labels <- c(paste0("original (", cols[1], ")"),
                     paste0("synthetic (", cols[2], if (m > 1) ", mean" else "", ")"))
  target <- factor(labels, levels = labels)
  values <- c(tab$attrib.orig, tab$attrib.syn)
  styles <- point_styles[1:2, ]
  # Released together (release = TRUE): DiSCO_any, or the stacked syntheses' measure.
  released <- attrib_released(x, cols[2])
  if (!is.null(released)) {
    legend_labels <- c(legend_labels, released$label)
    values <- c(values, released$values)
    styles <- point_styles[c(1, 2, 4), ]
  }
  points <- data.frame(target = rep(target, length(legend_labels)), value = values,
                       data = factor(rep(legend_labels, each = nrow(tab)), levels = legend_labels))
  # synthpop's objects hold NA for measures it could not compute (e.g. DiSDiO).
  points <- points[is.finite(points$value), , drop = FALSE]
  arrows <- arrow_segments(target, tab$attrib.orig, tab$attrib.syn)
  bars <- attrib_bars(x, cols[2], target)
  note <- if (m > 1) paste0("; means over ", m, " syntheses") else ""
  if (!is.null(bars)) {
    note <- paste0(note, "; bars: ", interval_label(x$uncertainty, bars$method[1]), bars_caveat_note(bars))
  }
  subtitle <- keys_subtitle(x$keys, note)
  if (!any(is.finite(tab$attrib.orig))) subtitle <- paste0(subtitle, "\nNo original ", cols[1], " in this object")
  draw_attrib_plot(points, arrows, legend_labels, subtitle, styles, bars)
}

# Per target in table order, the interval of the synthetic measure `measure`, or NULL.
attrib_bars <- function(x, measure, target) {
  if (is.null(x$intervals)) return(NULL)
  found <- lapply(table_targets(x), function(tv) interval_of(x$intervals[x$intervals$target == tv, ], measure))
  keep <- !vapply(found, is.null, logical(1))
  if (!any(keep)) return(NULL)
  data.frame(target = target[keep], low = vapply(found[keep], `[[`, 0, "conf.low"),
             high = vapply(found[keep], `[[`, 0, "conf.high"),
             method = vapply(found[keep], `[[`, "", "method"),
             caveat = vapply(found[keep], function(iv) iv$caveat %||% NA_character_, ""), stringsAsFactors = FALSE)
}

# The released-together marker: DiSCO_any for DiSCO, else the pooled synthesis's measure.
attrib_released <- function(x, measure) {
  if (is.null(x$release)) return(NULL)
  targets <- table_targets(x)
  if (measure == headline_measures[["attribute"]]) {
    return(list(label = "any released (DiSCO_any)",
                values = x$release$DiSCO_any[match(targets, x$release$target)]))
  }
  pooled <- x$pooled$attrib.table
  list(label = paste0("syntheses stacked (", measure, ")"),
       values = pooled$attrib.syn[match(targets, table_targets(x$pooled))])
}

# Kept apart from attrib_plot() so that the plot's environment holds only its data.
draw_attrib_plot <- function(points, arrows, legend_labels, subtitle, styles = point_styles[1:2, ], bars = NULL) {
  # geom_blank() first: the rows take the order of the targets, not of the first layer.
  ggplot2::ggplot(points, ggplot2::aes(x = .data$value, y = .data$target)) +
    ggplot2::geom_blank() +
    ggplot2::geom_segment(data = arrows, ggplot2::aes(x = .data$from, xend = .data$to, y = .data$target,
                                                      yend = .data$target),
                          colour = "grey50", linewidth = 0.5,
                          arrow = grid::arrow(length = grid::unit(0.14, "cm"), type = "closed")) +
    interval_bars(bars) +
    ggplot2::geom_point(ggplot2::aes(colour = .data$data, shape = .data$data, size = .data$data), stroke = 1) +
    point_scales(legend_labels, styles) +
    percent_axis("Attribute disclosure (%)") +
    ggplot2::labs(y = NULL, title = "Attribute disclosure by target", subtitle = subtitle) +
    plot_theme("bottom") +
    # Three entries fit one row at 7 inches; more take two.
    if (length(legend_labels) > 3) legend_rows(2)
}

#' @export
`$.synthrisk_multi.disclosure` <- function(x, name) {
  value <- .subset2(x, name)
  if (identical(name, "attrib.plot") && is.null(value)) cached_attrib_plot(x) else value
}

#' @export
`[[.synthrisk_multi.disclosure` <- function(x, i, ...) {
  value <- .subset2(x, i, ...)
  if (identical(i, "attrib.plot") && is.null(value)) cached_attrib_plot(x) else value
}

# The plots drawn last, by a hash of the object they were drawn from: reading
# `x$attrib.plot` twice draws once, while the object itself stays a plain list (so
# identical() and serialisation see no cache). A changed object hashes differently.
plot_cache <- new.env(parent = emptyenv())
plot_cache_size <- 8L

cached_attrib_plot <- function(x) {
  key <- rlang::hash(x)
  hit <- plot_cache[[key]]
  if (!is.null(hit)) return(hit)
  plot <- attrib_plot(x)
  keys <- ls(plot_cache, sorted = FALSE)
  if (length(keys) >= plot_cache_size) rm(list = keys, envir = plot_cache)
  assign(key, plot, envir = plot_cache)
  plot
}
