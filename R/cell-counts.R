#' Counted cells: a frequency table as input
#'
#' Marks a data frame whose rows are cells, each standing for the number of records
#' in its count column, so that [disclosure()], [multi.disclosure()] and
#' [tau_curve()] take it for `data`, for `object` (or an element of a list of
#' syntheses) and for `control`. Some custodians hold only such aggregates; a
#' frequency table made with `as.data.frame(table(...))` or `dplyr::count()` is one.
#'
#' Every measure depends on the data only through the numbers of records in each
#' (key tuple, target level) cell, so the results on counted cells are those on the
#' records they stand for (each row repeated as often as its count): the numbers of
#' records (`Norig`, `Nsyn`), the quantile breaks of `ngroups_target` /
#' `ngroups_keys` (weighted quantiles equal to those of the repeated values), the
#' exclusions and the checks count records, not rows. A cell may hold any columns;
#' those that are not keys or targets are ignored, and a row may repeat another's
#' values (their counts add up). The results' printout says how many records are in
#' how many cells; printing the cells themselves gives that line, the number of
#' columns and the first cells, as a tibble does.
#'
#' The analyses that need the records themselves refuse counted cells with an
#' error: [record_risk()], [identification_risk()], [replicated.uniques()],
#' [remove_replicated_uniques()], [holdout_split()] and [size_curve()] (which
#' subsamples records). Expand the cells first if the records may be used:
#' `x[rep(seq_len(nrow(x)), x$n), ]`.
#'
#' @param x A data frame (tibbles and data.tables are taken as data frames), one row
#'   per cell.
#' @param n The name of the count column: whole numbers from 0; cells of count 0 are
#'   dropped (tables of all combinations list them). At most 2^31 - 1 records.
#' @return `x` as a plain data frame of class `synthrisk_cell_counts` (the count column kept,
#'   as integers, and named by the attribute `"counts"`), without its cells of count 0.
#' @seealso [disclosure()], and `vignette("database", package = "synthrisk")` for
#'   data in a database, counted there.
#' @export
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' # The same data as records and as counted cells give the same numbers.
#' count_cells <- function(d) {
#'   d <- d[c(keys, "depress")]
#'   d[] <- lapply(d, function(x) addNA(factor(x), ifany = TRUE))
#'   cell <- interaction(d, drop = TRUE)
#'   first <- !duplicated(cell)
#'   cell_counts(cbind(d[first, , drop = FALSE], n = tabulate(cell)[cell[first]]))
#' }
#' syn_cells <- count_cells(sd2011_synds$syn)
#' orig_cells <- count_cells(sd2011)
#' orig_cells
#' d <- disclosure(syn_cells, orig_cells, keys = keys, target = "depress", print.flag = FALSE)
#' d
#' records <- disclosure(sd2011_synds, sd2011, keys = keys, target = "depress", print.flag = FALSE)
#' all.equal(d$allCAPs, records$allCAPs)
cell_counts <- function(x, n = "n") {
  env <- rlang::current_env()
  check_data_frame(x, "x", env)
  if (!is.character(n) || length(n) != 1 || is.na(n) || !nzchar(n)) {
    cli::cli_abort("{.arg n} must be the name of the count column of {.arg x}, not {.code {describe_value(n)}}.",
                   call = env)
  }
  if (!n %in% names(x)) {
    cli::cli_abort(c("{.arg n} names {.val {n}}, not a column of {.arg x}.", did_you_mean(n, names(x))), call = env)
  }
  counts <- .subset2(x, n)
  check_counts(counts, n, "{.arg x}", allow_zero = TRUE, call = env)
  x <- as.data.frame(x, stringsAsFactors = FALSE)
  keep <- counts > 0
  if (!all(keep)) x <- x[keep, , drop = FALSE]
  x[[n]] <- as.integer(counts[keep])
  rownames(x) <- NULL
  new_cell_counts(x, n)
}

new_cell_counts <- function(x, n) {
  attr(x, "counts") <- n
  class(x) <- c("synthrisk_cell_counts", "data.frame")
  x
}

#' @rdname cell_counts
#' @param rows For `print()`: how many cells to show. Up to 20 cells are shown whole;
#'   more show the first `rows` (default 10) and say how many are left, as a tibble
#'   does. `Inf` shows every cell.
#' @param ... Passed to the data frame's print method.
#' @export
print.synthrisk_cell_counts <- function(x, rows = NULL, ...) {
  if (!is.null(rows) && (!is.numeric(rows) || length(rows) != 1 || is.na(rows) || rows < 0 || rows != round(rows))) {
    cli::cli_abort("{.arg rows} must be one whole number from 0 (or {.code Inf}), not {.code {describe_value(rows)}}.")
  }
  n <- attr(x, "counts")
  counts <- .subset2(x, n)
  cells <- nrow(x)
  cat(sprintf("# A cell_counts table: %s cell%s, %s record%s, %s column%s (counts in '%s')\n",
              format_count(cells), if (cells == 1) "" else "s", format_count(sum(as.double(counts))),
              if (sum(as.double(counts)) == 1) "" else "s", format_count(ncol(x)), if (ncol(x) == 1) "" else "s", n))
  # A tibble's rule: a short table whole, a long one by its head.
  shown <- if (!is.null(rows)) min(rows, cells) else if (cells <= 20) cells else 10
  if (shown > 0) {
    print(structure(x, class = "data.frame", counts = NULL)[seq_len(shown), , drop = FALSE], ...)
  }
  if (shown < cells) {
    cat(sprintf("# ... %s more cell%s\n", format_count(cells - shown), if (cells - shown == 1) "" else "s"))
    cat("# Use print(x, rows = Inf) to see every cell.\n")
  }
  invisible(x)
}

# Counts of a count column: whole numbers >= 1 (>= 0 with `allow_zero`), at most
# max_rows records in all. `where`: cli markup naming the dataset.
check_counts <- function(counts, n, where, allow_zero, call) {
  where <- cli::format_inline(where)
  ok_type <- (is.integer(counts) || is.double(counts)) && is.null(attr(counts, "class")) && is.null(dim(counts))
  if (!ok_type) {
    cli::cli_abort(c("The count column {.val {n}} of {where} must hold whole numbers of records.",
                     x = "It is {.obj_type_friendly {counts}}."), call = call)
  }
  lowest <- if (allow_zero) 0 else 1
  # Integers from the lowest count up need no more checks than their total.
  fine <- is.integer(counts) && length(counts) > 0 && !anyNA(counts) && min(counts) >= lowest
  bad <- if (fine) integer(0) else which(is.na(counts) | !is.finite(counts) | counts < lowest | counts != round(counts))
  if (length(bad) > 0) {
    cli::cli_abort(c(paste0("The count column {.val {n}} of {where} must hold whole numbers of records",
                            if (allow_zero) " (0 or more)." else " (1 or more)."),
                     x = paste0(if (length(bad) == 1) "Row " else "Rows ", paste(show_values(bad), collapse = ", "),
                                if (length(bad) == 1) " has " else " have ", "{.code {describe_value(counts[bad])}}.")),
                   call = call)
  }
  total <- sum(as.double(counts))
  if (total > max_rows) {
    cli::cli_abort(c("{where} counts {format_count(total)} records, more than synthrisk can count.",
                     i = "At most {format_count(max_rows)} records (2^31 - 1) per dataset."), call = call)
  }
  invisible(counts)
}

is_cell_counts <- function(x) inherits(x, "synthrisk_cell_counts")

# The count column of counted cells, or NULL for records.
count_column <- function(x) {
  if (is_cell_counts(x)) attr(x, "counts") else NULL
}

# The records each row of dataset `x` stands for (integers >= 1), or NULL when every
# row is one record. `where`: cli markup naming the dataset.
dataset_weights <- function(x, where, call) {
  n <- count_column(x)
  if (is.null(n)) return(NULL)
  if (!is.character(n) || length(n) != 1 || !n %in% names(x)) {
    where <- cli::format_inline(where)
    cli::cli_abort(c("{where} is counted cells ({.cls cell_counts}) without its count column{if (is.character(n) && length(n) == 1) paste0(' ', encodeString(n, quote = '\"')) else ''}.",
                     i = "Make it again with {.fn cell_counts}."), call = call)
  }
  counts <- .subset2(x, n)
  check_counts(counts, n, where, allow_zero = FALSE, call = call)
  as.integer(counts)
}

# Analyses that need the records themselves refuse counted cells and database tables.
refuse_counted <- function(x, arg, fn, call) {
  if (is_cell_counts(x) || (is.list(x) && !is.data.frame(x) && !is_db_table(x) &&
                              any(vapply(x, is_cell_counts, logical(1))))) {
    cli::cli_abort(c("{.fn {fn}} needs the records themselves; {.arg {arg}} is counted cells ({.cls cell_counts}).",
                     i = "Expand the cells into records first, e.g. {.code x[rep(seq_len(nrow(x)), x$n), ]}."),
                   call = call)
  }
  if (is_db_table(x) || (is.list(x) && !is.data.frame(x) && !is_db_table(x) &&
                           any(vapply(x, is_db_table, logical(1))))) {
    cli::cli_abort(c("{.fn {fn}} needs the records themselves; {.arg {arg}} is a database table, whose records stay in the database.",
                     i = "Bring the table into R with {.code dplyr::collect()} where it may leave the database."),
                   call = call)
  }
  invisible()
}
