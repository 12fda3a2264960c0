# Tidy tables of the measures: one row per target x synthesis x measure.

#' Disclosure measures as a tidy data frame
#'
#' One row per target, synthesis and measure, for people who build their own reports
#' and plots. Works on objects made by synthpop too (with the measures they have).
#'
#' @param x A `disclosure` or `multi.disclosure` object.
#' @param row.names,optional Unused, for the generic.
#' @param ... Unused.
#' @return A data frame with columns `target`, `synthesis`, `group` (`"identity"`,
#'   `"attribute"`, `"CAP"`), `measure` and `value` (percent, but `max_denom` and
#'   `mean_denom` are counts).
#' @export
#' @examples
#' d <- disclosure(sd2011_synds5, sd2011, keys = c("sex", "age", "region", "placesize"),
#'                 target = "depress")
#' head(as.data.frame(d))
as.data.frame.disclosure <- function(x, row.names = NULL, optional = FALSE, ...) {
  frames <- list(x$ident, x$attrib, x$allCAPs)
  wide <- do.call(cbind, frames)
  wide <- wide[, !duplicated(names(wide)) & names(wide) %in% names(measure_group), drop = FALSE]
  m <- nrow(wide)
  data.frame(target = x$target, synthesis = rep(seq_len(m), times = ncol(wide)),
             group = rep(unname(measure_group[names(wide)]), each = m),
             measure = rep(names(wide), each = m), value = unlist(wide, use.names = FALSE),
             stringsAsFactors = FALSE)
}

#' @rdname as.data.frame.disclosure
#' @export
as.data.frame.multi.disclosure <- function(x, row.names = NULL, optional = FALSE, ...) {
  if (is.null(x$output.list)) {
    cli::cli_abort("{.arg x} has no per-target results ({.field output.list}).")
  }
  out <- do.call(rbind, lapply(x$output.list, as.data.frame.disclosure))
  rownames(out) <- NULL
  out
}
