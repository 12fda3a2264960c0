# `attrib.plot` of a multi.disclosure is built when first read, so that a call with
# plot = FALSE (or one whose plot is never looked at) does not pay for a ggplot.
# Objects made by synthpop hold their own plot, which is returned as it is.

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
