# The `disclosure` class: made from a request of one target (R/request.R) and its
# counts (run_request()), its components from the core's raw counts, print() and
# format(), tidy(), glance() and as.data.frame(), autoplot() and plot().
as_disclosure <- function(request, counted) {
  target <- request$targets
  keys <- request$keys
  m <- length(request$syn)
  limits <- request$limits
  output <- request$output
  enc <- counted$enc
  build <- function(raw, two, extra = list()) {
    build_disclosures(raw[1], target, keys, enc$labels, m, limits$thresh_1way, two, output$digits, output$to.print,
                      request$call, extra)[[1]]
  }
  raw <- counted$raw$train[1]
  notes <- c(targets_notes(raw, target, keys, enc, m, output$digits)[[1]],
             first_synthesis = synorig_cut_note(request$synorig_adjusted, m))
  extra <- list(grouping = list(enc$grouping %||% list()), notes = list(notes), input = list(counted$input),
                database = list(counted$fetch))
  x <- build(raw, two_way_checks(raw, m, target, keys, enc$labels, limits$thresh_2way), extra)
  warn_label_gaps(x$notes, request$env)
  if (!is.null(request$control)) {
    # The holdout records' result gives only its measures (add_holdout()): no 2-way checks.
    x <- add_holdout(x, build(counted$raw$control, NULL), enc$records[length(enc$records)], enc$control)
  }
  x <- add_intervals(x, request, counted, target)
  if (!is.null(counted$pooled)) {
    x <- add_release(x, counted, target, as_disclosure(counted$pooled$request, counted$pooled$counted))
  }
  class(x) <- disclosure_class
  if (output$print.flag) {
    cat(wrap_lines(c(preparation_lines(x, enc, timing = TRUE), x$holdout_notes,
                     counted_line(target, keys, x$Norig, x$Nsyn))), sep = "\n")
  }
  x
}

# The core names every number: `stats` holds, per measure, its value in each synthesis.
stats_matrix <- function(raw) {
  do.call(cbind, raw$stats)
}

# The same as columns, each a double vector without names: as the glue makes them
# (and merge_raw() joins them), so they are taken as they are.
stats_columns <- function(raw) {
  raw$stats
}

# Each target's components (`targets`, their raw counts `raws` in the same order), named
# by target, made by the glue for all targets in one call (rust_disclosure_parts(),
# src/rust/src/disclosure_parts.rs): the measure frames, exclusion matrices and 1-way
# checks from the counts, the 2-way tables of `two` (two_way_checks(), named by target,
# or NULL for none), and the values the result holds as given. `extra`: components
# added after synthpop's, each a list of one value per target (a NULL adds nothing, as
# `$<-` does); `class`: the class of each, or NULL to leave them unclassed for callers
# that add more (disclosure_class).
build_disclosures <- function(raws, targets, keys, labels, m, thresh_1way, two, digits, to.print, call,
                              extra = list(), class = NULL) {
  # A target named by the user keeps its name in `target` (disclosure()'s request keeps
  # it; multi.disclosure() passes its targets unnamed).
  target_values <- if (!is.null(names(targets))) lapply(seq_along(targets), function(i) targets[i])
  targets <- unname(targets)
  handle <- list(raws = raws, two = if (!is.null(two)) two[targets], target_labels = labels[targets],
                 targets = targets, target_values = target_values, keys = keys, digits = digits,
                 to.print = to.print, call = call,
                 component_names = frame_component_names, component_core_names = frame_component_core_names,
                 exclusion_dimnames = exclusion_matrix_attributes$dimnames, extra = extra, class = class)
  rust_result(rust_disclosure_parts(handle, m, thresh_1way))
}

# The class of a target's result, set by its callers once they have added their
# components (as_disclosure(), as_multi_disclosure()): `$<-` on a classed list looks
# for a method at every assignment.
disclosure_class <- c("synthrisk_disclosure", "disclosure")

# "<n> pairs need checks". With m > 1 the count is that of the last synthesis with any
# pairs, as synthpop 1.9-3 reports the last synthesis; check_2way has them all.
two_way_message <- function(n_pairs, m) {
  if (all(n_pairs == 0)) return("")
  paste(n_pairs[max(which(n_pairs > 0))], "pairs need checks")
}

# "checks" is both checks, as multi.disclosure()'s printout names them.
print_choices <- c("short", "ident", "attrib", "allCAPs", "check_1way", "check_2way", "checks", "exclusions", "holdout",
                   "all")

#' Print or format disclosure measures
#'
#' `print()` writes everything to standard output (headings and check warnings
#' included), so knitted reports with `message = FALSE`, `sink()` and logs keep
#' them; `format()` returns the same lines as a character vector. Works on objects
#' made by synthpop 1.9-3 too.
#'
#' @param x A `disclosure` object.
#' @param to.print What to show, any of `"short"` (the UiO/repU and Dorig/DiSCO
#'   table with the check warnings), `"ident"`, `"attrib"`, `"allCAPs"`,
#'   `"check_1way"`, `"check_2way"`, `"checks"` (both checks, as for
#'   [multi.disclosure()]), `"exclusions"`, `"holdout"` (the holdout
#'   baseline: each measure with the training and the control records as the
#'   original, and R; see [disclosure()]'s `control`), `"all"`. `NULL` (default):
#'   the object's own `to.print`, as synthpop does; it includes `"holdout"` when
#'   `control` was given and `to.print` was not.
#' @param digits Digits for the measures; `NULL`: the object's `digits`.
#' @param ... Unused.
#' @return `print()`: `x`, invisibly. `format()`: a character vector of lines.
#' @rdname print.disclosure
#' @aliases print.disclosure format.disclosure
#' @export
#' @examples
#' d <- disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region", "placesize"),
#'                 target = "workab", print.flag = FALSE)
#' d
#' print(d, to.print = c("allCAPs", "check_1way"), digits = 1)
#' lines <- format(d, to.print = "ident")
print.synthrisk_disclosure <- function(x, to.print = NULL, digits = NULL, ...) {
  cat(format.synthrisk_disclosure(x, to.print = to.print, digits = digits, ...), sep = "\n")
  invisible(x)
}

#' @rdname print.disclosure
#' @export
format.synthrisk_disclosure <- function(x, to.print = NULL, digits = NULL, ...) {
  to.print <- check_choices(to.print %||% x$to.print %||% "short", print_choices, "to.print", rlang::current_env())
  digits <- digits %||% x$digits %||% 2
  check_digits(digits, rlang::current_env())
  show_call <- "all" %in% to.print
  if (show_call) to.print <- setdiff(print_choices, c("all", "checks", if (is.null(x$holdout)) "holdout"))
  if ("checks" %in% to.print) to.print <- union(setdiff(to.print, "checks"), c("check_1way", "check_2way"))
  cli::cli_format_method(disclosure_cli(x, to.print, digits, show_call))
}

disclosure_cli <- function(x, to.print, digits, show_call = FALSE) {
  m <- nrow(x$ident) %||% 1L
  cli::cli_h1("Disclosure risk for {.val {x$target}}")
  cli::cli_text("Keys: {.val {x$keys}}; {format_count(x$Norig)}{cli::qty(x$Norig)} record{?s} in the original data; {cli::qty(m)}{m} synthes{?is/es}.")
  if ("short" %in% to.print) {
    cli::cli_h2("Identity (UiO/repU) and attribute (Dorig/DiSCO) disclosure, % of records")
    orig <- c(x$ident$UiO[1], x$attrib$Dorig[1])
    short <- rbind(orig, cbind(x$ident$repU, x$attrib$DiSCO))
    dimnames(short) <- list(c("Original", paste("Synthesis", seq_len(m))),
                            c("Identity (UiO/repU)", "Attrib (Dorig/DiSCO)"))
    if (m > 1) short <- rbind(short, "Mean of syntheses" = colMeans(short[-1, , drop = FALSE]))
    cli_table(with_intervals(short, headline_measures, x$intervals, digits))
  }
  if ("ident" %in% to.print) {
    cli::cli_h2("Identity disclosure measures, % of records")
    cli_table(measure_table(x$ident, digits, x$intervals))
  }
  if ("attrib" %in% to.print) {
    cli::cli_h2("Attribute disclosure measures for {.val {x$target}}, % of records")
    cli_table(measure_table(x$attrib, digits, x$intervals))
    cli::cli_text("{.field max_denom} and {.field mean_denom} are counts of records (largest and mean DiSCO cell).")
  }
  if ("allCAPs" %in% to.print) {
    cli::cli_h2("CAP measures for {.val {x$target}}, %")
    cli_table(measure_table(x$allCAPs, digits, x$intervals))
  }
  if ("check_1way" %in% to.print) check_1way_cli(x, digits)
  if ("check_2way" %in% to.print) check_2way_cli(x, digits)
  if ("exclusions" %in% to.print) exclusions_cli(x)
  if ("holdout" %in% to.print) holdout_cli(x, digits)
  # Preparation, notes and check warnings belong to the summary ("short"); any other
  # choice shows only what it names (the TCAP note goes with the CAP table).
  summary <- "short" %in% to.print
  # The check warnings follow the tables whose numbers they qualify.
  if (summary) check_warnings_cli(x, to.print)
  prep <- if (summary) preparation_lines(x) else character(0)
  prep <- prep[!prep %in% (note_of(x, "adjusted") %||% character(0))]
  if (length(prep) > 0) {
    cli::cli_h2("Data preparation")
    for (line in prep) cli::cli_bullets(c("*" = escape_braces(line)))
  }
  notes <- x$notes %||% character(0)
  tcap <- two_definition_measure
  notes <- notes[if (summary) names(notes) != tcap | "allCAPs" %in% to.print else names(notes) == tcap &
                   "allCAPs" %in% to.print]
  if (length(notes) > 0) {
    cli::cli_h2("Notes")
    note_bullets(notes)
  }
  if (summary && !is.null(x$release)) {
    cli::cli_h2("Released together")
    cli::cli_text(escape_braces(release_lines(x$release, m, digits, mean(x$attrib$DiSCO), mean(x$ident$repU))))
  }
  # Shown with every table that shows intervals, so that a "*" there is explained.
  shown <- c(if ("short" %in% to.print) headline_measures, if ("ident" %in% to.print) names(x$ident),
             if ("attrib" %in% to.print) names(x$attrib), if ("allCAPs" %in% to.print) names(x$allCAPs))
  lines <- interval_lines(x$uncertainty, m, shown_intervals(x$intervals, shown))
  if ((summary || any(c("ident", "attrib", "allCAPs") %in% to.print)) && length(lines) > 0) {
    cli::cli_h2("Intervals")
    for (line in lines) cli::cli_bullets(c("*" = escape_braces(line)))
  }
  if (show_call) {
    if (!is.null(x$call)) {
      cli::cli_h2("Call")
      cutoff <- max(20L, min(70L, cli::console_width() - 25L))
      cli::cli_verbatim(paste(deparse(x$call, width.cutoff = cutoff), collapse = "\n"))
    }
  }
}

# The check messages verbatim (synthpop's wording, double spaces kept), then advice.
check_warnings_cli <- function(x, to.print) {
  if (has_check(x$check1) && !"check_1way" %in% to.print) {
    msg <- shorten_words(paste(x$check1[nzchar(x$check1)], collapse = "; "))
    cli::cli_alert_warning("{msg}", wrap = nchar(msg) + 2 > cli::console_width())
    cli::cli_bullets(c(" " = paste(
      "1-way check: one target level makes up most disclosive records. Decide from the original data",
      "whether background knowledge explains it (see {.code print(x, to.print = \"check_1way\")});",
      "if so, exclude it with {.arg not.targetlev}.")))
  }
  if (has_check(x$check2) && !"check_2way" %in% to.print) {
    msg <- shorten_words(paste(unique(x$check2[nzchar(x$check2)]), collapse = "; "))
    cli::cli_alert_warning("{msg}", wrap = nchar(msg) + 2 > cli::console_width())
    cli::cli_bullets(c(" " = paste(
      "2-way check: key levels that almost always have one target level (see",
      "{.code print(x, to.print = \"check_2way\")}); consider {.arg exclude.keys}, {.arg exclude.keylevs},",
      "{.arg exclude.targetlevs} or {.code exclude_ov_denom_lim = TRUE}.")))
  }
}

# check_1way / check_2way: one table (m = 1), "" or list("") when nothing is flagged,
# or a list with one element per synthesis.
check_tables <- function(check) {
  if (is.data.frame(check)) return(list(check))
  if (is.list(check)) return(check)
  list(check)
}

check_1way_cli <- function(x, digits) {
  cli::cli_h2("1-way check: target level with most disclosive records")
  tabs <- check_tables(x$check_1way)
  flagged <- vapply(tabs, is.data.frame, logical(1))
  if (!any(flagged)) {
    cli::cli_text("No 1-way check is flagged at the thresholds used ({.arg thresh_1way}).")
    return(invisible())
  }
  for (j in seq_along(tabs)) {
    if (length(tabs) > 1) cli::cli_h3("Synthesis {j}")
    if (is.data.frame(tabs[[j]])) cli_table(round_frame(tabs[[j]], digits)) else cli::cli_text("Nothing flagged.")
  }
}

check_2way_cli <- function(x, digits) {
  cli::cli_h2("2-way check: target-key level pairs contributing most to disclosure")
  tabs <- check_tables(x$check_2way)
  flagged <- vapply(tabs, is.data.frame, logical(1))
  if (!any(flagged)) {
    cli::cli_text("No 2-way check is flagged at the thresholds used ({.arg thresh_2way}).")
    return(invisible())
  }
  for (j in seq_along(tabs)) {
    if (length(tabs) > 1) cli::cli_h3("Synthesis {j}")
    if (is.data.frame(tabs[[j]])) {
      cli::cli_text("{nrow(tabs[[j]])} pair{?s} need{?s/} checks.")
      cli_table(round_frame(tabs[[j]], digits), row.names = FALSE)
    } else {
      cli::cli_text("Nothing flagged.")
    }
  }
}

exclusions_cli <- function(x) {
  cli::cli_h2("Records excluded from the measures (counts of records)")
  nex <- x$Nexclusions
  if (is.matrix(nex)) nex <- list(nex)
  for (j in seq_along(nex)) {
    if (length(nex) > 1) cli::cli_h3("Synthesis {j}")
    if (sum(nex[[j]][, -6, drop = FALSE]) == 0) {
      cli::cli_text("No records excluded.")
    } else {
      cli_table(nex[[j]])
    }
  }
}

# One row per synthesis and measure of a `disclosure` object, in the order of ident,
# attrib and allCAPs; a measure held twice (DCAPd) appears once. Measures the object
# does not have (synthpop's objects have fewer) are absent.
measure_rows <- function(x) {
  wide <- do.call(cbind, Filter(Negate(is.null), list(x$ident, x$attrib, x$allCAPs)))
  wide <- wide[, !duplicated(names(wide)) & names(wide) %in% names(measure_group), drop = FALSE]
  m <- nrow(wide)
  measure <- rep(names(wide), each = m)
  data.frame(target = rep(x$target, length(measure)), synthesis = rep(seq_len(m), times = ncol(wide)),
             group = unname(measure_group[measure]), measure = measure, value = unlist(wide, use.names = FALSE),
             unit = unname(measure_unit[measure]),
             definition = ifelse(measure == two_definition_measure, tcap_definition(x), NA_character_), stringsAsFactors = FALSE)
}

# TCAP means the vignette's DiSCO / DiS in synthrisk's results and DiSCO / iS in
# synthpop 1.9-3's (definitions vignette, section 9), so tables mixing both say which.
tcap_definitions <- c(synthrisk = "DiSCO/DiS (Raab, Nowok & Dibben)", synthpop = "DiSCO/iS (synthpop 1.9-3)")

tcap_definition <- function(x) {
  ours <- inherits(x, "synthrisk_disclosure") || !is.null(x$measures)
  unname(tcap_definitions[if (ours) "synthrisk" else "synthpop"])
}

glance_row <- function(x) {
  long <- measure_rows(x)
  # synthpop 1.9-3's objects hold DCAPd only under its alias (definitions vignette, section 6).
  for (alias in names(measure_aliases)) {
    if (!(measure_aliases[[alias]] %in% long$measure)) long$measure[long$measure == alias] <- measure_aliases[[alias]]
  }
  present <- intersect(glance_measures, long$measure)
  means <- lapply(present, function(measure) mean(long$value[long$measure == measure]))
  names(means) <- present
  check1 <- flag_message(x$check1)
  check2 <- flag_message(x$check2)
  data.frame(target = x$target, Norig = x$Norig, m = x$m %||% nrow(x$ident), keys = paste(x$keys, collapse = ", "),
             means, check_1way = nzchar(check1), check_2way = nzchar(check2), check1 = check1, check2 = check2,
             TCAP_definition = tcap_definition(x), stringsAsFactors = FALSE)
}

# A check message as one string, "" when nothing is flagged.
flag_message <- function(message) {
  message <- unlist(message)
  message <- unique(message[!is.na(message) & nzchar(message)])
  paste(message, collapse = "; ")
}

#' Disclosure measures as data frames
#'
#' `tidy()` gives one row per target, synthesis and measure, with the measure's group
#' and unit; `glance()` one row per target with the headline numbers; `as.data.frame()`
#' the columns of `tidy()` without `unit` (kept for scripts written before `tidy()`).
#' They work on objects made by synthpop 1.9-3 too: measures those objects do not
#' have are absent.
#'
#' @param x A `disclosure` or `multi.disclosure` object (from synthrisk or synthpop).
#' @param type For `tidy()`: `"measures"` (default), `"holdout"` for the holdout
#'   baseline of an object made with `control` (see [disclosure()]), or `"intervals"`
#'   for every interval of an object made with `conf.level` or `resynthesize`, or `"release"`
#'   for an object made with `release = TRUE`: per target `measure`, `value` and `of`
#'   (`"any synthesis"` for `DiSCO_any` and `repU_any`, `"pooled"` for every measure of
#'   the stacked syntheses).
#' @param row.names,optional Unused, for the generic.
#' @param ... Unused.
#' @return Data frames.
#'
#'   `tidy()`: `target`, `synthesis` (1 to m), `group` (`"identity"`, `"attribute"`,
#'   `"CAP"`), `measure` (the column names of `ident`, `attrib` and `allCAPs`; `DCAPd`,
#'   held in both `attrib` and `allCAPs`, once), `value`, `unit` (`"%"`, or
#'   `"count"` for `max_denom` and `mean_denom`) and `definition` (see below). See [synthrisk-package] for the
#'   definitions. With intervals (`conf.level` or `resynthesize`), broom's `conf.low` and
#'   `conf.high`: the interval of the measure's expected value over syntheses
#'   (resynthesis's when there are both), the same on every synthesis's row,
#'   `conf.method` and `conf.caveat` (`NA`, or why the interval may cover less often
#'   than its level: `"all equal"`, `"at a bound"`, `"few values"`); with `type =
#'   "holdout"` the same for `R`.
#'
#'   `tidy(type = "intervals")`: `target`, `measure`, `quantity` (`"measure"` or
#'   `"R"`, the holdout's), `estimate`, `conf.low`, `conf.high`, `method` (`"across
#'   syntheses"` or `"resynthesized"`), `caveat`.
#'
#'   `glance()`: `target`, `Norig` (original records), `m` (syntheses), `keys`
#'   (comma-separated), the means over syntheses of `UiO`, `repU`, `Dorig`, `DiSCO`,
#'   `DCAPd` (synthpop's `DCAP`, the same quantity) and `TCAP` (%), `check_1way` and
#'   `check_2way` (`TRUE` when the target needs that check), the check messages
#'   `check1` and `check2` (`""` when none) and `TCAP_definition`.
#'
#'   `TCAP` is defined differently by synthpop 1.9-3 (DiSCO over the records whose
#'   key occurs in the synthetic data, `"DiSCO/iS (synthpop 1.9-3)"`) and by Raab, Nowok
#'   and Dibben's *Practical privacy metrics for synthetic data*, which synthrisk follows (DiSCO over DiS,
#'   `"DiSCO/DiS (Raab, Nowok & Dibben)"`): `tidy()`'s `definition` column (on
#'   the TCAP rows, `NA` on the others) and `glance()`'s `TCAP_definition` say which,
#'   so tables that mix objects of both packages cannot be misread.
#'
#'   `tidy(type = "holdout")`: `target`, `synthesis`, `group`, `measure`, `unit`,
#'   `train` (the measure with `data` as the original), `control` (with `control` as
#'   the original) and `R` (`(r_train - r_control) / (1 - r_control)`, r the measure
#'   as a proportion; `NA` for counts and where r_control is 1).
#'
#'   `as.data.frame()`: `target`, `synthesis`, `group`, `measure`, `value`.
#' @seealso [autoplot.disclosure()] for pictures of the same numbers.
#' @name tidy.disclosure
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' d <- disclosure(sd2011_synds5, sd2011, keys = keys, target = "depress", print.flag = FALSE)
#' head(tidy(d))
#' glance(d)
#'
#' md <- multi.disclosure(sd2011_synds, sd2011, keys = keys, print.flag = FALSE, plot = FALSE)
#' glance(md)
#' subset(tidy(md), measure == "DiSCO")
#' head(as.data.frame(md))
#'
#' # Holdout baseline: sd2011_train_synds5 was made from parts$train only
#' parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
#' dh <- disclosure(sd2011_train_synds5, parts$train, keys = keys, target = "depress",
#'                  print.flag = FALSE, control = parts$control)
#' subset(tidy(dh, type = "holdout"), measure %in% c("repU", "DiSCO"))
NULL

#' @rdname tidy.disclosure
#' @export
tidy.disclosure <- function(x, type = "measures", ...) {
  rlang::check_dots_empty()
  type <- tidy_type(type)
  if (type == "release") return(release_rows(x))
  if (type == "intervals") return(interval_rows(x, "intervals"))
  if (type == "holdout") return(with_conf(holdout_rows(x), x$holdout_intervals))
  with_conf(measure_rows(x), x$intervals)
}

#' @rdname tidy.disclosure
#' @export
glance.disclosure <- function(x, ...) {
  rlang::check_dots_empty()
  glance_row(x)
}

#' @rdname tidy.disclosure
#' @export
as.data.frame.disclosure <- function(x, row.names = NULL, optional = FALSE, ...) {
  measure_rows(x)[c("target", "synthesis", "group", "measure", "value")]
}

#' @importFrom generics tidy
#' @export
generics::tidy

#' @importFrom generics glance
#' @export
generics::glance

#' Plot disclosure measures with ggplot2
#'
#' For a `multi.disclosure`, one row per target (ordered as `attrib.table`, flagged
#' when checks are needed): the attribute measure in the original data, the mean of
#' the synthetic measure over syntheses and an arrow from one to the other (the synthpop
#' vignette's Figure 1; the measures are those of `attrib.meas`). For a `disclosure`,
#' the same picture for each pair of original and synthetic measures that
#' `multi.disclosure()` can summarise (`UiO` to `repU` and `UiOiS`; `Dorig` to `DiSCO`,
#' `DiSDiO` and `TCAP`; `CAPd` to `DCAPd`), with a tick for each synthesis; all
#' measures are in [tidy.disclosure()].
#'
#' The original is a blue ring, the synthetic a smaller vermillion dot (Okabe-Ito
#' colours, told apart by colour-blind readers and in grey print), so a dot inside a
#' ring shows two equal measures. The x axis runs from 0 to 100 % with room for whole
#' points at both ends, and the plots fit figures from 5 x 3 inches up. They are built
#' from the object alone, so they work for objects made by synthpop 1.9-3 too
#' (measures synthpop left `NA`, such as the original `DiSDiO`, are not drawn).
#'
#' With `type = "holdout"` (objects made with `control`, see [disclosure()]): the
#' holdout baseline. For a `disclosure`, each measure of the synthetic data above with
#' the control records as the original (blue ring) and with the records used for
#' synthesis (vermillion dot), an arrow from control to train, and R in the row's
#' label; for a `multi.disclosure`, the same for the synthetic measure of
#' `attrib.meas`, one row per target. With m > 1 the points are means over the
#' syntheses and R is that of the means.
#'
#' @param object,x A `disclosure` or `multi.disclosure` object (from synthrisk or
#'   synthpop).
#' @param type `"measures"` (default) or `"holdout"`.
#' @param ... Unused.
#' @return A ggplot (`autoplot()`); `plot()` draws it and returns `x` invisibly.
#' @seealso [tidy.disclosure()] for the numbers behind the plots.
#' @name autoplot.disclosure
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' d <- disclosure(sd2011_synds5, sd2011, keys = keys, target = "depress", print.flag = FALSE)
#' autoplot(d)
#'
#' md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys, ngroups_targets = c(income = 20),
#'                        print.flag = FALSE, plot = FALSE)
#' autoplot(md)
#' plot(md)
#'
#' # Holdout baseline: sd2011_train_synds5 was made from parts$train only
#' parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
#' dh <- disclosure(sd2011_train_synds5, parts$train, keys = keys, target = "depress",
#'                  print.flag = FALSE, control = parts$control)
#' autoplot(dh, type = "holdout")
NULL

#' @rdname autoplot.disclosure
#' @export
autoplot.disclosure <- function(object, type = "measures", ...) {
  rlang::check_dots_empty()
  if (check_plot_type(type, rlang::current_env()) == "holdout") {
    require_holdout(object, rlang::current_env())
    return(holdout_plot_disclosure(object))
  }
  values <- disclosure_plot_data(object)
  m <- max(values$synthesis)
  legend_labels <- c("original", if (m > 1) c("synthetic: mean", "synthetic: each") else "synthetic")
  means <- stats::aggregate(syn ~ label + group + orig, data = values, FUN = mean)
  means <- means[order(means$label), , drop = FALSE]
  levels <- legend_labels[1:2]
  points <- data.frame(label = c(means$label, means$label), group = c(means$group, means$group),
                       value = c(means$orig, means$syn),
                       kind = factor(rep(levels, each = nrow(means)), levels = legend_labels))
  # Ticks of the single syntheses go under the points.
  each <- if (m > 1) data.frame(label = values$label, group = values$group, value = values$syn,
                                kind = factor("synthetic: each", levels = legend_labels))
  points <- points[is.finite(points$value), , drop = FALSE]
  arrows <- arrow_segments(means$label, means$orig, means$syn)
  arrows$group <- means$group[match(arrows$target, means$label)]
  subtitle <- keys_subtitle(object$keys, if (m > 1) paste0("; means over ", m, " syntheses") else "")
  draw_disclosure_plot(points, each, arrows, legend_labels, object$target, subtitle)
}

# The pairs autoplot() shows for one target: the original measure and the synthetic
# measure that multi.disclosure() can summarise (its ident.meas and attrib.meas).
disclosure_plot_pairs <- function() {
  pairs <- rbind(data.frame(original = ident_orig_measure, synthetic = unname(ident_meas_columns[1:2]), component = "ident"),
                 data.frame(original = vapply(attrib_meas_columns, `[`, "", 1),
                            synthetic = vapply(attrib_meas_columns, `[`, "", 2), component = "attrib"))
  # The group is the one the registry gives the synthetic measure (DCAPd: CAP).
  cap <- pairs$synthetic %in% measure_registry$measure[measure_registry$component == "allCAPs"]
  pairs$component[cap] <- "allCAPs"
  info <- measure_registry[match(paste(pairs$component, pairs$synthetic),
                                 paste(measure_registry$component, measure_registry$measure)), ]
  pairs$group <- info$group
  rownames(pairs) <- NULL
  pairs
}

# A measure's values (one per synthesis) from whichever component holds it, else
# under its alias (synthpop 1.9-3's objects name DCAPd "DCAP"). NULL when the object
# has neither.
measure_values <- function(x, measure) {
  for (component in c("ident", "attrib", "allCAPs")) {
    if (measure %in% names(x[[component]])) return(x[[component]][[measure]])
  }
  other <- alias_of(measure)
  for (component in c("ident", "attrib", "allCAPs")) {
    if (!is.na(other) && other %in% names(x[[component]])) return(x[[component]][[other]])
  }
  NULL
}

# Per pair: the original measure, the synthetic measure of each synthesis and their mean.
disclosure_plot_data <- function(x) {
  pairs <- disclosure_plot_pairs()
  rows <- lapply(seq_len(nrow(pairs)), function(i) {
    orig <- measure_values(x, pairs$original[i])
    syn <- measure_values(x, pairs$synthetic[i])
    if (is.null(orig) || is.null(syn)) return(NULL)
    data.frame(group = pairs$group[i], label = paste(pairs$original[i], "->", pairs$synthetic[i]),
               synthesis = seq_along(syn), orig = mean(orig), syn = syn, stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, rows)
  out$label <- factor(out$label, levels = rev(unique(out$label)))
  out$group <- factor(out$group, levels = unique(out$group))
  out
}

draw_disclosure_plot <- function(points, each, arrows, legend_labels, target, subtitle) {
  point <- ggplot2::aes(x = .data$value, y = .data$label, colour = .data$kind, shape = .data$kind,
                        size = .data$kind)
  ticks <- if (!is.null(each)) ggplot2::geom_point(data = each, stroke = 1)
  ggplot2::ggplot(points, point) +
    ggplot2::geom_blank() +
    ggplot2::geom_segment(data = arrows, ggplot2::aes(x = .data$from, xend = .data$to, y = .data$target,
                                                      yend = .data$target),
                          colour = "grey50", linewidth = 0.5, inherit.aes = FALSE,
                          arrow = grid::arrow(length = grid::unit(0.14, "cm"), type = "closed")) +
    ticks +
    ggplot2::geom_point(stroke = 1) +
    ggplot2::facet_grid(rows = ggplot2::vars(.data$group), scales = "free_y", space = "free_y") +
    point_scales(legend_labels, point_styles[seq_along(legend_labels), ]) +
    percent_axis("Measure (%)") +
    ggplot2::labs(y = NULL, title = paste0("Disclosure measures for ", target), subtitle = subtitle) +
    plot_theme("bottom") +
    ggplot2::theme(strip.text.y = ggplot2::element_text(angle = 0, hjust = 0, face = "bold"),
                   panel.spacing.y = grid::unit(6, "pt"))
}

#' @rdname autoplot.disclosure
#' @export
plot.synthrisk_disclosure <- function(x, ...) {
  print(autoplot.disclosure(x, ...))
  invisible(x)
}

#' @importFrom ggplot2 autoplot
#' @export
ggplot2::autoplot

#' @importFrom rlang .data %||%
NULL
