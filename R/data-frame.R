# Data frames of results built directly from their columns. data.frame() and
# as.data.frame() convert, name and check every column; for the small tables of one
# call that cost more than computing them.

# What data.frame(..., stringsAsFactors = FALSE) makes of `columns`, a named list of
# unnamed vectors (or factors) of length `n`. `row_names`: NULL for 1, 2, ..., n, else
# `n` distinct labels.
new_data_frame <- function(columns, n = length(columns[[1L]]), row_names = NULL) {
  # `n` before the class: columns[[1L]] of a data frame is the slow `[[.data.frame`.
  row_names <- if (is.null(row_names)) .set_row_names(n) else row_names
  class(columns) <- "data.frame"
  attr(columns, "row.names") <- row_names
  columns
}
