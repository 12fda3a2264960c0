# `attrib.plot` of a multi.disclosure is built when first read, so that a call with
# plot = FALSE (or one whose plot is never looked at) does not pay for a ggplot.
# Objects made by synthpop hold their own plot, which is returned as it is.

#' @export
`$.synthrisk_multi.disclosure` <- function(x, name) {
  value <- .subset2(x, name)
  if (identical(name, "attrib.plot") && is.null(value)) attrib_plot(x) else value
}

#' @export
`[[.synthrisk_multi.disclosure` <- function(x, i, ...) {
  value <- .subset2(x, i, ...)
  if (identical(i, "attrib.plot") && is.null(value)) attrib_plot(x) else value
}
