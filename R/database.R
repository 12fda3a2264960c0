# Data in a database (dbplyr tables, class `tbl_lazy`): the database counts the cells
# of each target, one `SELECT keys, target, COUNT(*) ... GROUP BY keys, target` per
# table (NULL a group of its own), and only those counts come back, fetched in chunks
# of getOption("synthrisk.fetch_rows", 1e5) rows. The cells then enter the counting
# as counted cells (R/cell-counts.R), so every number is that of the collected table.

db_packages <- c("DBI", "dplyr", "dbplyr")

is_db_table <- function(x) inherits(x, "tbl_lazy")

check_db_packages <- function(call) {
  missing <- db_packages[!vapply(db_packages, requireNamespace, logical(1), quietly = TRUE)]
  if (length(missing) > 0) {
    cli::cli_abort(c("Database tables need the {.pkg {missing}} package{?s}.",
                     i = "Install {?it/them} to count in the database, or pass data frames."), call = call)
  }
}

# The column names of a dataset: a data frame or a database table.
dataset_names <- function(x) {
  if (is_db_table(x)) colnames(x) else names(x)
}

fetch_rows <- function() {
  n <- getOption("synthrisk.fetch_rows", 1e5)
  if (!is.numeric(n) || length(n) != 1 || is.na(n) || n < 1) {
    cli::cli_abort("Option {.code synthrisk.fetch_rows} must be a positive number of rows, not {.code {describe_value(n)}}.")
  }
  as.integer(min(n, .Machine$integer.max))
}

# The cells of `vars` in database table `tbl`, counted by the database, as counted
# cells; attribute "fetch": the cells and the seconds the query and fetch took.
# `where`: cli markup naming the dataset.
db_count_cells <- function(tbl, vars, where, call) {
  count_name <- "synthrisk_n"
  while (count_name %in% vars) count_name <- paste0(count_name, "_")
  query <- dplyr::count(dplyr::ungroup(tbl), !!!rlang::syms(vars), name = count_name)
  sql <- dbplyr::sql_render(query)
  con <- dbplyr::remote_con(tbl)
  started <- Sys.time()
  cells <- tryCatch(fetch_in_chunks(con, sql, fetch_rows()),
                    error = function(e) db_count_error(e, tbl, vars, where, call))
  seconds <- as.numeric(Sys.time() - started, units = "secs")
  counts <- cells[[count_name]]
  if (is.null(counts) || !all(vars %in% names(cells))) {
    cli::cli_abort(c(paste0("The database returned columns ", paste0("'", names(cells), "'", collapse = ", "),
                            " when asked to count ", where, "."),
                     i = "Expected {.val {c(vars, count_name)}}."), call = call)
  }
  counts <- as.double(counts)
  check_counts(counts, "COUNT(*)", where, allow_zero = FALSE, call = call)
  cells <- new_data_frame(c(lapply(vars, function(v) plain_fetched(cells[[v]])), list(as.integer(counts))),
                          n = length(counts))
  names(cells) <- c(vars, count_name)
  cells <- new_cell_counts(cells, count_name)
  attr(cells, "fetch") <- list(cells = length(counts), records = sum(counts), seconds = seconds)
  cells
}

# A fetched column without the classes of data frames' helpers (e.g. a blob stays a
# list, which the column check refuses by name).
plain_fetched <- function(x) {
  if (inherits(x, "integer64") && !requireNamespace("bit64", quietly = TRUE)) x <- as.double(x)
  x
}

# The rows of `sql` as one data frame, fetched `n` rows at a time.
fetch_in_chunks <- function(con, sql, n) {
  res <- DBI::dbSendQuery(con, sql)
  on.exit(DBI::dbClearResult(res), add = TRUE)
  chunks <- list()
  repeat {
    chunk <- DBI::dbFetch(res, n = n)
    if (length(chunks) == 0 || nrow(chunk) > 0) chunks[[length(chunks) + 1L]] <- as.data.frame(chunk)
    if (nrow(chunk) == 0 || DBI::dbHasCompleted(res)) break
  }
  if (length(chunks) == 1) chunks[[1]] else do.call(rbind, chunks)
}

# A failed count: the first variable the database cannot group alone is named, else
# the query's variables.
db_count_error <- function(e, tbl, vars, where, call) {
  where <- cli::format_inline(where)
  con <- dbplyr::remote_con(tbl)
  for (v in vars) {
    alone <- dbplyr::sql_render(utils::head(dplyr::count(dplyr::ungroup(tbl), !!rlang::sym(v)), 0))
    failed <- tryCatch({
      fetch_in_chunks(con, alone, 1L)
      NULL
    }, error = function(e2) e2)
    if (!is.null(failed)) {
      cli::cli_abort(c("The database cannot count variable {.val {v}} of {where} (GROUP BY {v}).",
                       x = "{conditionMessage(failed)}",
                       i = "Keys and targets must be columns the database can group: numbers, text, booleans, dates and times; convert others in the query (e.g. with {.fn dplyr::mutate})."),
                     call = call, parent = NULL)
    }
  }
  cli::cli_abort(c("The database could not count the cells of {.val {vars}} in {where}.",
                   x = "{conditionMessage(e)}"), call = call)
}

# The groups of targets counted together: all at once for data held in R, one target
# at a time when a dataset is a database table (its cells per target are what the
# database returns; the identity measures depend on the keys only).
target_groups <- function(targets, datasets) {
  if (any(vapply(datasets, is_db_table, logical(1)))) as.list(targets) else list(targets)
}

# The datasets of one group of targets, database tables replaced by the counted cells
# of the keys and those targets.
group_datasets <- function(vars, data, syn, control, call) {
  m <- length(syn)
  fetch <- function(x, j, where) {
    if (!is_db_table(x)) return(x)
    cells <- db_count_cells(x, vars, where, call)
    if (nrow(cells) == 0) {
      cli::cli_abort(paste0(if (j == 0) "{.arg data}" else if (j > m) "{.arg control}" else
                            if (m == 1) "The synthetic data ({.arg object})" else paste("Synthesis", j, "of {.arg object}"),
                            " has no records (a database table counted none)."), call = call)
    }
    cells
  }
  list(data = fetch(data, 0, dataset_name(0, m)),
       syn = lapply(seq_len(m), function(j) fetch(syn[[j]], j, dataset_name(j, m))),
       control = if (!is.null(control)) fetch(control, m + 1, "{.arg control}"))
}

# What the database counted: one row per dataset and group of targets.
fetch_log <- function(datasets, targets, m) {
  rows <- list()
  for (j in seq_along(datasets)) {
    f <- attr(datasets[[j]], "fetch")
    if (is.null(f)) next
    rows[[length(rows) + 1L]] <- data.frame(dataset = dataset_label(j - 1L, m), target = paste(targets, collapse = ", "),
                                            records = f$records, cells = f$cells, seconds = f$seconds,
                                            stringsAsFactors = FALSE)
  }
  if (length(rows) == 0) NULL else do.call(rbind, rows)
}

# "original", "synthesis j" or "control" for dataset j (0 = the original, m + 1 = control).
dataset_label <- function(j, m) {
  if (j == 0) "original" else if (j > m) "control" else paste("synthesis", j)
}
