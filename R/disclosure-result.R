# A `disclosure` object from a request of one target (R/request.R) and its counts
# (run_request()): the measures of `data`, and with `control` the holdout table.
as_disclosure <- function(request, counted) {
  target <- request$targets
  keys <- request$keys
  m <- length(request$syn)
  limits <- request$limits
  output <- request$output
  enc <- counted$enc
  build <- function(raw) {
    build_disclosure(raw[[1]], target, keys, enc$labels, m, limits$thresh_1way, limits$thresh_2way,
                     output$digits, output$to.print, request$call)
  }
  x <- build(counted$raw$train)
  x$grouping <- enc$grouping %||% list()
  x$notes <- disclosure_notes(x, enc, m)
  warn_label_gaps(x$notes, request$env)
  x$input <- counted$input
  x$database <- counted$fetch
  if (!is.null(request$control)) {
    x <- add_holdout(x, build(counted$raw$control), enc$records[length(enc$records)], enc$control)
  }
  if (output$print.flag) cat(wrap_lines(c(preparation_lines(x, enc, timing = TRUE), x$holdout_notes)), sep = "\n")
  x
}
