# What the preparation (prepare_variables()) asks of every column of its variables, read
# by the glue in one call: in R each question costs a call per column and dataset,
# about 50 thousand instructions a variable of six datasets, and most columns are the
# usual ones. Facts only; R decides with them which columns its checks look at
# (check_variable_columns()) and which variables take the usual paths (factors on
# every side with the same levels, or plain numbers on every side).
#
# `datasets`: the original, the syntheses and control (a list of data frames). Returns
# list(n_rows, usual, length, kind, fast, columns, plain_levels):
# - n_rows: per dataset, its rows (nrow());
# - usual: a logical matrix, a row per dataset and a column per variable: the column
#   has the shape check_variable_columns() lets through without asking more (its
#   classes none, "factor" or c("ordered", "factor")); `length`, its length;
# - kind: the same shape, 1 for a factor whose class is "factor", 2 for integers and
#   3 for doubles without a class, 0 otherwise;
# - fast: per variable, factors on every side or plain numbers on every side (what
#   comparable_columns() returns as given), with `columns` the columns;
# - plain_levels: per variable, factors on every side whose levels are the same R
#   strings, ASCII or NA, without attributes (what factor_spec() cleans to themselves).
column_facts <- function(vars, datasets, call) {
  facts <- rust_result(rust_column_facts(datasets, vars), call = call)
  shape <- c(length(datasets), length(vars))
  kind <- facts$kind
  usual <- facts$usual
  length <- facts$length
  dim(kind) <- dim(usual) <- dim(length) <- shape
  n_factor <- .colSums(kind == 1L, shape[1], shape[2])
  fast <- n_factor == shape[1] | .colSums(kind >= 2L, shape[1], shape[2]) == shape[1]
  # nrow() is the row names' count for a data.frame; other classes may say otherwise.
  n_rows <- facts$rows
  for (j in which(!facts$plain_frame)) n_rows[j] <- nrow(datasets[[j]])
  list(n_rows = n_rows, usual = usual, length = length, kind = kind, fast = fast, columns = facts$columns,
       plain_levels = facts$plain_levels)
}
