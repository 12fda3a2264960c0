# A `multi.disclosure` object from a request of several targets (R/request.R) and its
# counts (run_request()): each target's `disclosure`, the summary table, and with
# `control` the holdout tables.
as_multi_disclosure <- function(request, counted) {
  targets <- request$targets
  keys <- request$keys
  m <- length(request$syn)
  limits <- request$limits
  output <- request$output
  enc <- counted$enc
  n_control <- enc$records[length(enc$records)]
  build <- function(raw, tv) {
    build_disclosure(raw[[tv]], tv, keys, enc$labels, m, limits$thresh_1way, limits$thresh_2way, output$digits,
                     "short", NULL)
  }
  outputs <- lapply(targets, function(tv) {
    d <- build(counted$raw$train, tv)
    d$grouping <- (enc$grouping %||% list())[intersect(c(keys, tv), names(enc$grouping))]
    d$notes <- disclosure_notes(d, enc, m)
    d$input <- counted$input
    d$database <- counted$fetch
    if (!is.null(request$control)) {
      d$to.print <- c(d$to.print, "holdout")
      d <- add_holdout(d, build(counted$raw$control, tv), n_control, enc$control)
    }
    d
  })
  names(outputs) <- targets
  x <- build_multi_disclosure(outputs, request)
  x$grouping <- enc$grouping %||% list()
  x$notes <- multi_notes(x, enc, given_exclusions = request$given_exclusions, grouping_named = request$grouping_named)
  warn_label_gaps(x$notes, request$env)
  x$input <- counted$input
  x$database <- counted$fetch
  if (!is.null(request$control)) x <- add_multi_holdout(x, n_control, enc$control)
  if (output$print.flag) {
    cat(wrap_lines(c(multi_preparation_lines(x, enc, timing = TRUE), x$holdout_notes)), sep = "\n")
  }
  x
}

per_target_flags <- function(x, targets, call) {
  if (check_target_names(x, targets, "usetargetsNA", call)) {
    named <- x
    x <- stats::setNames(rep(TRUE, length(targets)), targets)
    x[names(named)] <- named
  }
  check_flags_along(unname(x), targets, "usetargetsNA", call, what = "target")
}

# A per-target option given as a list (one element per target, or named by target)
# or a plain vector: one element per target, as synthpop indexes it with [[i]].
per_target_list <- function(x, targets, arg, call) {
  n <- length(targets)
  if (is.null(x)) return(rep(list(NULL), n))
  if (check_target_names(x, targets, arg, call)) {
    out <- rep(list(NULL), n)
    out[match(names(x), targets)] <- if (is.list(x)) x else as.list(x)
    return(out)
  }
  if (!is.list(x)) {
    if (n == 1) return(list(x))
    if (length(x) == n) return(as.list(x))
    cli::cli_abort(c("{.arg {arg}} must be a list with one element per target ({n}), or named by target.",
                     x = "It is {.code {describe_value(x)}} (length {length(x)})."), call = call)
  }
  if (length(x) != n) {
    cli::cli_abort("{.arg {arg}} must have one element per target ({n}), not {length(x)}.", call = call)
  }
  x
}

per_target_levels <- function(x, targets, call) {
  if (is.null(x)) return(rep(list(NULL), length(targets)))
  if (is.list(x) || !is.null(names(x))) return(per_target_list(x, targets, "not.targetslev", call))
  if (length(x) != length(targets)) {
    cli::cli_abort(c("{.arg not.targetslev} must have one element per target ({length(targets)}), or be a list named by target.",
                     x = "It is {.code {describe_value(x)}} (length {length(x)})."), call = call)
  }
  as.list(as.character(x))
}

build_multi_disclosure <- function(outputs, request) {
  output <- request$output
  ident.meas <- output$ident.meas
  attrib.meas <- output$attrib.meas
  cols <- attrib_meas_columns[[attrib.meas]]
  target_mean <- function(col) vapply(outputs, function(d) mean(.subset2(d$measures, col)), numeric(1))
  orig <- target_mean(cols[1])
  syn <- target_mean(cols[2])
  check1 <- vapply(outputs, function(d) d$check1, character(1))
  check2 <- vapply(outputs, function(d) d$check2, character(1))
  ord <- order(syn)
  flags <- ifelse(nzchar(check1) & nzchar(check2), " 1&2way checks",
                  ifelse(nzchar(check1), " 1way checks", ifelse(nzchar(check2), " 2way checks", "")))
  rank <- sprintf("%0*d", nchar(length(ord)), seq_along(ord))
  table <- vctrs::new_data_frame(list(attrib.orig = unname(orig[ord]), attrib.syn = unname(syn[ord]),
                                      check1 = unname(check1[ord]), Npairs = as.numeric(nzchar(check2[ord])),
                                      check2 = unname(check2[ord])),
                                 row.names = paste0(rank, " ", names(outputs)[ord], flags[ord]))
  attr(table, "targets") <- names(outputs)[ord]
  x <- structure(
    list(
      attrib.table = table,
      attrib.plot = NULL,
      keys = request$keys,
      ident.orig = unname(target_mean(ident_orig_measure)),
      ident.syn = unname(target_mean(ident_meas_columns[[ident.meas]])),
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
    ),
    class = c("synthrisk_multi.disclosure", "multi.disclosure")
  )
  # attrib.plot is drawn on first access (R/lazy-plot.R), not here: a third of a
  # small call's time went to a ggplot that plot = FALSE never shows.
  x
}
