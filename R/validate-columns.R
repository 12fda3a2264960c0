# Columns that can be keys or targets (definitions vignette, section 1): one value per row, of a type
# whose values have labels. Anything else is an error naming the column, where it is
# and its type, raised before the Rust core sees it.

# Largest number of rows of one dataset: the core codes rows with 32-bit integers.
max_rows <- .Machine$integer.max

# `where`: cli markup naming the dataset, formatted only for the error.
check_row_count <- function(n, where, call) {
  if (n > max_rows) {
    where <- cli::format_inline(where)
    cli::cli_abort(c("{where} has {format_count(n)} rows, more than synthrisk can count.",
                     i = "At most {format_count(max_rows)} rows (2^31 - 1) per dataset."),
                   call = call)
  }
}

# Where dataset `j` (0 = the original) comes from, for messages.
dataset_name <- function(j, m) {
  if (j == 0) return("{.arg data}")
  if (m == 1) "the synthetic data ({.arg object})" else paste0("synthesis ", j, " of {.arg object}")
}

# NULL when `x` can be a key or target, else what is wrong with it.
# (check_variable_columns() lets the usual columns through before asking.)
unusable_column_type <- function(x) {
  if (is.data.frame(x)) {
    return(sprintf("a data-frame column (%d columns)", ncol(x)))
  }
  if (length(dim(x)) >= 2) {
    return(sprintf("a matrix column (%s)", paste(dim(x), collapse = " x ")))
  }
  if (inherits(x, "POSIXlt")) return(NULL)
  if (is.list(x)) return("a list column")
  if (is.complex(x)) return("a complex column")
  if (!is.atomic(x) || is.null(x)) return(sprintf("a column of type %s", typeof(x)))
  # Without bit64 its numbers would be read as the bits of doubles.
  if (inherits(x, "integer64") && !requireNamespace("bit64", quietly = TRUE)) {
    return("an integer64 column, and the bit64 package that reads it is not installed")
  }
  NULL
}

# Every key and target in the original, each synthesis (and `control`): a usable type, one value per
# row, and a row count the core can hold.
check_variable_columns <- function(vars, data, syn, call, control = NULL, facts = NULL) {
  # With column_facts(): when every column is of the usual shape and length, and every
  # dataset within the core's rows, nothing more to look at.
  if (!is.null(facts) && all(facts$n_rows <= max_rows) && all(facts$usual & facts$length == facts$n_rows)) {
    return(invisible())
  }
  datasets <- c(list(data), syn, if (!is.null(control)) list(control))
  m <- length(syn)
  for (j in seq_along(datasets)) {
    where <- if (j > m + 1) "{.arg control}" else dataset_name(j - 1, m)
    n_rows <- nrow(datasets[[j]])
    check_row_count(n_rows, where, call)
    # With column_facts(): only the columns that are not of the usual shape and length
    # are looked at here.
    ask <- if (is.null(facts)) vars else vars[!(facts$usual[j, ] & facts$length[j, ] == n_rows)]
    for (v in ask) {
      # .subset2(): the column itself, without `[[.data.frame`'s checks, for every
      # data-frame class (the names were checked before).
      x <- .subset2(datasets[[j]], v)
      # A plain vector or a factor of the right length, as most columns are, passes
      # with primitives alone: no call per column (`any(oldClass(x) == "factor")` is
      # inherits(x, "factor") for the S3 classes columns have; dimensions are an
      # attribute, read without dim()'s dispatch).
      if (is.atomic(x) && !is.null(x) && !is.complex(x) && is.null(attr(x, "dim", exact = TRUE)) &&
          (!is.object(x) || any(oldClass(x) == "factor")) && length(x) == n_rows) {
        next
      }
      problem <- unusable_column_type(x)
      if (!is.null(problem)) {
        cli::cli_abort(c(paste0("Variable {.val {v}} in ", where, " is {problem}."),
                         i = "Keys and targets must be vectors: numbers, factors, characters, logicals, dates or times."),
                       call = call)
      }
      n <- if (inherits(x, "POSIXlt")) length(unclass(as.POSIXct(x))) else length(x)
      if (n != n_rows) {
        cli::cli_abort(paste0("Variable {.val {v}} in ", where, " has {format_count(n)}{cli::qty(n)} value{?s} for {format_count(n_rows)} rows."),
                       call = call)
      }
    }
  }
}
