# Data in a database (dbplyr tables, class `tbl_lazy`): the database counts the cells
# of each target (keys, target level) and only those counts come back, fetched in
# chunks of getOption("synthrisk.fetch_rows", 1e5) rows (db_target_cells() says which
# queries). The cells then enter the counting as counted cells (R/cell-counts.R), so
# every number is that of the collected table.

db_packages <- c("DBI", "dplyr", "dbplyr")

is_db_table <- function(x) inherits(x, "tbl_lazy")

check_db_packages <- function(call) {
  missing <- db_packages[!vapply(db_packages, requireNamespace, logical(1), quietly = TRUE)]
  if (length(missing) > 0) {
    cli::cli_abort(c("Database tables need the {.pkg {missing}} package{?s}.",
                     i = "Install {?it/them} to count in the database, or pass data frames."), call = call)
  }
}

# A database table whose connection is closed (DBI::dbIsValid() FALSE) is said before
# any query, naming where it was given (`where`: cli markup).
check_db_connection <- function(x, where, call) {
  if (db_connection_valid(dbplyr::remote_con(x))) return(invisible())
  where <- paste0(toupper(substr(where, 1, 1)), substring(where, 2))
  cli::cli_abort(c(paste0(where, " is a database table whose connection is closed ({.code DBI::dbIsValid()} is {.code FALSE})."),
                   i = "Reconnect and make the table again, e.g. {.code dplyr::tbl(con, \"name\")}."),
                 call = call)
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

# Targets with at most `pivot_levels` levels (NULL included) of types whose values can be
# written as exact SQL literals are counted together, `pivot_columns` counts per query.
pivot_levels <- 64L
pivot_columns <- 256L

# Every target's cells (keys, target, count) in database table `tbl`, counted by the
# database, as counted cells. First the targets' levels and their records (from the
# combinations of their values, db_levels_together(), or each target alone: `SELECT
# target, COUNT(*) ... GROUP BY target`); then the targets of few levels in one query
# per `pivot_columns` levels, one count per level (`SELECT keys, COUNT(CASE WHEN
# target = level THEN 1 END), ... GROUP BY keys`), which scans and hashes the table
# once for them all; each of those counts is checked against the level's records, and
# a target that does not add up, or has many levels, is counted on its own (`SELECT
# keys, target, COUNT(*) ... GROUP BY keys, target`). `where`: cli markup naming the
# dataset. Returns list(cells = per target, log = one row per query: query (the label
# check, R/database-labels.R, then levels, pivot, cells), targets, rows, seconds).
db_target_cells <- function(tbl, keys, targets, where, call) {
  tbl <- dplyr::ungroup(tbl)
  con <- dbplyr::remote_con(tbl)
  log <- list(db_check_labels(tbl, unique(c(keys, targets)), where, call))
  note <- function(query, vars, rows, seconds) {
    log[[length(log) + 1L]] <<- data.frame(query = query, targets = paste(vars, collapse = ", "), rows = rows,
                                           seconds = seconds, stringsAsFactors = FALSE)
  }
  # A table partitioned (sharded) by a key: the levels are grouped by that key too, so
  # that each partition's rows are grouped where they are (see db_partition_keys()).
  spread <- intersect(db_partition_keys(tbl, con), keys)
  levels <- if (length(targets) > 1 || length(spread) > 0) db_levels_together(tbl, con, targets, spread)
  if (!is.null(levels)) note("levels", targets, levels$rows, levels$seconds)
  levels <- levels$levels
  for (t in setdiff(targets, names(levels))) {
    got <- db_count(tbl, t, where, call, first = pivot_levels + 1L)
    note("levels", t, length(got$counts), got$seconds)
    levels[[t]] <- got
  }
  levels <- levels[targets]
  totals <- vapply(levels[vapply(levels, `[[`, logical(1), "complete")], function(l) sum(l$counts), numeric(1))
  if (length(unique(totals)) > 1) {
    cli::cli_abort(c(paste0("The database counted different numbers of records in ", cli::format_inline(where),
                            " for different targets: ", paste(unique(totals), collapse = ", "), "."),
                     i = "The table changed while it was counted, or its query does not return the same rows each time."),
                   call = call)
  }
  cells <- list()
  pivoted <- targets[vapply(levels, pivotable, logical(1))]
  key_tuples <- NA_real_
  for (batch in pivot_batches(pivoted, levels)) {
    got <- tryCatch(db_pivot(tbl, con, keys, batch, levels), error = function(e) NULL)
    if (is.null(got)) next
    note("pivot", batch, length(got$keys[[1]]), got$seconds)
    key_tuples <- length(got$keys[[1]])
    for (t in batch) {
      one <- pivot_cells(got, keys, t, levels[[t]])
      if (!is.null(one)) cells[[t]] <- one
    }
  }
  # When a target's cells would be more than half its records (few records per key
  # tuple, the pivot says, and a target of many levels), grouping them costs the
  # database more than sending the rows, about as many (bench/db-gap.R). Then the rows
  # are read as they are, each a cell of one.
  records <- if (length(totals) > 0) totals[[1]] else NA_real_
  for (t in setdiff(targets, names(cells))) {
    if (many_cells(key_tuples, records, levels[[t]]$counts)) {
      got <- db_rows(tbl, c(keys, t), where, call)
      note("rows", t, length(got$columns[[1]]), got$seconds)
      cells[[t]] <- counted_cells(got$columns, rep.int(1L, length(got$columns[[1]])))
      next
    }
    got <- db_count(tbl, c(keys, t), where, call)
    note("cells", t, length(got$counts), got$seconds)
    cells[[t]] <- counted_cells(got$columns, got$counts)
  }
  list(cells = cells[targets], log = do.call(rbind, log))
}

# `SELECT vars, COUNT(*) ... GROUP BY vars` on `tbl`: list(columns = the columns of
# `vars`, counts, seconds, complete). With `first`, only that many rows are fetched
# (`complete` says whether they were all).
db_count <- function(tbl, vars, where, call, first = NULL) {
  count_name <- "synthrisk_n"
  while (count_name %in% vars) count_name <- paste0(count_name, "_")
  sql <- grouped_sql(tbl, vars, paste("COUNT(*) AS", DBI::dbQuoteIdentifier(dbplyr::remote_con(tbl), count_name)))
  started <- Sys.time()
  fetched <- tryCatch(fetch_in_chunks(dbplyr::remote_con(tbl), sql, first %||% fetch_rows(), all = is.null(first)),
                      error = function(e) db_count_error(e, tbl, vars, where, call))
  seconds <- as.numeric(Sys.time() - started, units = "secs")
  counts <- fetched$columns[[count_name]]
  if (is.null(counts) || !all(vars %in% names(fetched$columns))) {
    cli::cli_abort(c(paste0("The database returned columns ", paste0("'", names(fetched$columns), "'", collapse = ", "),
                            " when asked to count ", where, "."),
                     i = "Expected {.val {c(vars, count_name)}}."), call = call)
  }
  if (!is.integer(counts)) counts <- as.double(counts)
  check_counts(counts, "COUNT(*)", where, allow_zero = FALSE, call = call)
  list(columns = lapply(fetched$columns[vars], plain_fetched), counts = as.integer(counts), seconds = seconds,
       complete = fetched$complete)
}

# Whether a target's cells are expected to be more than half its `records`, from the
# number of key tuples (`key_tuples`, NA when unknown) and its levels' records
# (`level_counts`, complete or not): each tuple holding records / key_tuples records
# drawn from the levels in their proportions.
many_cells <- function(key_tuples, records, level_counts) {
  if (is.na(key_tuples) || is.na(records) || key_tuples < 1 || length(level_counts) == 0) return(FALSE)
  p <- level_counts / sum(level_counts)
  expected <- key_tuples * sum(1 - (1 - p)^(records / key_tuples))
  expected > records / 2
}

# `SELECT vars FROM (the table's query)`: every row as it is, list(columns, seconds).
db_rows <- function(tbl, vars, where, call) {
  con <- dbplyr::remote_con(tbl)
  sql <- paste0("SELECT ", paste(DBI::dbQuoteIdentifier(con, vars), collapse = ", "), "\nFROM (",
                dbplyr::sql_render(tbl), ") ", DBI::dbQuoteIdentifier(con, "synthrisk_table"))
  started <- Sys.time()
  fetched <- tryCatch(fetch_in_chunks(con, sql, fetch_rows()), error = function(e) db_count_error(e, tbl, vars, where, call))
  seconds <- as.numeric(Sys.time() - started, units = "secs")
  list(columns = lapply(fetched$columns[vars], plain_fetched), seconds = seconds)
}

# Every target's levels and their records from one scan: the records of each
# combination of the targets' values (`SELECT targets, COUNT(*) ... GROUP BY targets`),
# summed per target; list(levels = per target as db_count() of it alone, rows,
# seconds), or NULL when there are more than `joint_rows` combinations (then each
# target is asked alone). Grouped by the columns `spread` too (a partitioned table's
# keys), whose values are then summed over.
joint_rows <- 10000L

db_levels_together <- function(tbl, con, targets, spread = character(0)) {
  sql <- grouped_sql(tbl, c(spread, targets), "COUNT(*) AS synthrisk_n")
  started <- Sys.time()
  fetched <- tryCatch(fetch_in_chunks(con, sql, joint_rows + 1L, all = FALSE), error = function(e) NULL)
  if (is.null(fetched) || !fetched$complete || !all(c(targets, "synthrisk_n") %in% names(fetched$columns))) {
    return(NULL)
  }
  seconds <- as.numeric(Sys.time() - started, units = "secs")
  counts <- as.double(fetched$columns$synthrisk_n)
  if (length(counts) == 0 || anyNA(counts) || any(counts < 1)) return(NULL)
  levels <- list()
  for (t in targets) {
    x <- plain_fetched(fetched$columns[[t]])
    values <- unique(x)
    per_value <- as.vector(rowsum(counts, match(x, values), reorder = TRUE))
    levels[[t]] <- list(columns = stats::setNames(list(values), t), counts = as.integer(per_value),
                        seconds = seconds, complete = TRUE)
  }
  list(levels = levels, rows = length(counts), seconds = seconds)
}

# The columns by which a PostgreSQL table is partitioned (plain columns of its
# partition key; character(0) for any other table, a query, or another database).
# PostgreSQL sends an aggregate to a partition that is a foreign table (a shard behind
# postgres_fdw) only when the GROUP BY holds the partition key: otherwise every row
# travels to the coordinator, which groups them alone. The cells and the pivot group
# by the keys; grouping the levels by a partitioning key as well lets each shard group
# its own rows (rows returned: the key's levels times the targets' combinations).
db_partition_keys <- function(tbl, con) {
  if (!inherits(con, c("PqConnection", "PostgreSQLConnection"))) return(character(0))
  # A plain table has a name; a query (filters, mutations) has none.
  name <- tryCatch(dbplyr::remote_name(tbl), error = function(e) NULL)
  if (is.null(name) || length(name) != 1) return(character(0))
  table <- as.character(DBI::dbQuoteIdentifier(con, as.character(name)))
  sql <- paste0("SELECT a.attname FROM pg_partitioned_table p JOIN pg_attribute a ON a.attrelid = p.partrelid ",
                "AND a.attnum = ANY (p.partattrs::int2[]) WHERE p.partrelid = to_regclass(",
                as.character(DBI::dbQuoteString(con, table)), ")")
  found <- tryCatch(DBI::dbGetQuery(con, sql)$attname, error = function(e) NULL)
  as.character(found %||% character(0))
}

# Counted cells from fetched columns and their counts.
counted_cells <- function(columns, counts) {
  count_name <- "synthrisk_n"
  while (count_name %in% names(columns)) count_name <- paste0(count_name, "_")
  cells <- vctrs::new_data_frame(stats::setNames(c(unname(columns), list(counts)), c(names(columns), count_name)),
                                 n = length(counts))
  new_cell_counts(cells, count_name)
}

# Whether a target's levels (db_count() of the target alone) can be counted in a pivot:
# few, and each written exactly as an SQL literal (texts, integers, logicals, finite
# doubles; NULL is tested with IS NULL).
pivotable <- function(levels) {
  values <- levels$columns[[1]]
  levels$complete && length(values) <= pivot_levels && is.null(attr(values, "class")) &&
    (is.character(values) || is.integer(values) || is.logical(values) ||
       (is.double(values) && all(is.finite(values) | (is.na(values) & !is.nan(values)))))
}

# Targets in groups of at most pivot_columns levels.
pivot_batches <- function(targets, levels) {
  batches <- list()
  current <- character(0)
  used <- 0L
  for (t in targets) {
    n <- length(levels[[t]]$counts)
    if (length(current) > 0 && used + n > pivot_columns) {
      batches[[length(batches) + 1L]] <- current
      current <- character(0)
      used <- 0L
    }
    current <- c(current, t)
    used <- used + n
  }
  if (length(current) > 0) batches[[length(batches) + 1L]] <- current
  batches
}

# One query counting, per key tuple, the records of each level of each target of
# `batch`: list(keys = the key columns, counts = per target, per level, the counts
# over the key tuples, seconds).
db_pivot <- function(tbl, con, keys, batch, levels) {
  exprs <- character(0)
  for (t in batch) {
    column <- DBI::dbQuoteIdentifier(con, t)
    values <- levels[[t]]$columns[[1]]
    for (i in seq_along(values)) {
      test <- if (is.na(values[i])) paste(column, "IS NULL") else paste(column, "=", sql_literal(values[i], con))
      exprs <- c(exprs, paste0("COUNT(CASE WHEN ", test, " THEN 1 END) AS ",
                               DBI::dbQuoteIdentifier(con, paste0("synthrisk_", length(exprs) + 1L))))
    }
  }
  sql <- grouped_sql(tbl, keys, exprs)
  started <- Sys.time()
  fetched <- fetch_in_chunks(con, sql, fetch_rows())
  seconds <- as.numeric(Sys.time() - started, units = "secs")
  count_columns <- lapply(fetched$columns[paste0("synthrisk_", seq_along(exprs))], as.double)
  at <- 0L
  counts <- list()
  for (t in batch) {
    n <- length(levels[[t]]$counts)
    counts[[t]] <- count_columns[at + seq_len(n)]
    at <- at + n
  }
  list(keys = lapply(fetched$columns[keys], function(x) coded_text(plain_fetched(x))), counts = counts,
       seconds = seconds)
}

# Texts as a factor of class "synthrisk_text": levels in the order label_factor() gives
# texts (so the numbers are those of the texts), found once for the few distinct texts
# of a pivot instead of for every cell made from it. Other columns are returned as they are.
coded_text <- function(x) {
  if (!is.character(x) || !is.null(attr(x, "class"))) return(x)
  x <- enc2utf8(x)
  values <- unique(x)
  lev <- values[order(values)]
  lev <- lev[!is.na(lev)]
  structure(match(x, lev), levels = lev, class = c("synthrisk_text", "factor"))
}

# `SELECT vars, counts FROM (the table's query) GROUP BY vars`: `counts`, SQL
# expressions with their names.
grouped_sql <- function(tbl, vars, counts) {
  con <- dbplyr::remote_con(tbl)
  columns <- paste(DBI::dbQuoteIdentifier(con, vars), collapse = ", ")
  paste0("SELECT ", columns, ", ", paste(counts, collapse = ", "), "\nFROM (", dbplyr::sql_render(tbl), ") ",
         DBI::dbQuoteIdentifier(con, "synthrisk_table"), "\nGROUP BY ", columns)
}

# An R value as an SQL literal that the database reads as the same value: texts and
# logicals quoted by the connection, numbers in the fewest digits that read back exactly.
sql_literal <- function(x, con) {
  if (is.character(x)) return(as.character(DBI::dbQuoteString(con, x)))
  if (is.logical(x)) return(as.character(dbplyr::escape(x, con = con)))
  if (is.integer(x)) return(as.character(x))
  for (digits in 15:17) {
    text <- formatC(x, digits = digits, format = "g")
    if (as.double(text) == x) break
  }
  text
}

# The counted cells of target `t` from a pivot, or NULL when its counts do not add up
# to its levels' records (then it is counted on its own).
pivot_cells <- function(pivot, keys, t, levels) {
  counts <- pivot$counts[[t]]
  if (!identical(unname(vapply(counts, sum, numeric(1))), as.double(levels$counts))) return(NULL)
  nonzero <- lapply(counts, function(n) which(n > 0))
  q <- unlist(nonzero, use.names = FALSE)
  level <- rep(seq_along(counts), lengths(nonzero))
  n <- unlist(Map(function(x, at) x[at], counts, nonzero), use.names = FALSE)
  columns <- lapply(pivot$keys, function(x) x[q])
  columns[[t]] <- coded_text(levels$columns[[1]])[level]
  counted_cells(columns[c(keys, t)], as.integer(n))
}

# A fetched column without the classes of data frames' helpers (e.g. a blob stays a
# list, which the column check refuses by name).
plain_fetched <- function(x) {
  if (inherits(x, "integer64") && !requireNamespace("bit64", quietly = TRUE)) x <- as.double(x)
  x
}

# The rows of `sql`, fetched `n` rows at a time: list(columns = each column's chunks
# joined with c(), which keeps dates and times; complete = whether every row came).
# Without `all`, only the first `n` rows are fetched.
fetch_in_chunks <- function(con, sql, n, all = TRUE) {
  res <- DBI::dbSendQuery(con, sql)
  on.exit(DBI::dbClearResult(res), add = TRUE)
  chunks <- list()
  complete <- FALSE
  repeat {
    chunk <- DBI::dbFetch(res, n = n)
    if (length(chunks) == 0 || nrow(chunk) > 0) chunks[[length(chunks) + 1L]] <- chunk
    complete <- nrow(chunk) < n || DBI::dbHasCompleted(res)
    if (complete || !all) break
  }
  columns <- names(chunks[[1]])
  out <- lapply(columns, function(v) {
    parts <- lapply(chunks, function(chunk) .subset2(chunk, v))
    if (length(parts) == 1) parts[[1]] else do.call(c, unname(parts))
  })
  names(out) <- columns
  list(columns = out, complete = complete)
}

# A failed count (`e`, of GROUP BY `vars` in `tbl`). The driver's own message comes
# first. A column is blamed only when the failure is plausibly about its type: the
# connection still valid, the table itself still readable (COUNT(*) without grouping),
# and that column failing alone. A connection closed or lost (a server gone in the
# middle of a call) or a table that no longer reads is said as such, naming the query.
db_count_error <- function(e, tbl, vars, where, call) {
  where <- cli::format_inline(where)
  con <- dbplyr::remote_con(tbl)
  query <- paste0("SELECT ", paste(vars, collapse = ", "), ", COUNT(*) ... GROUP BY ", paste(vars, collapse = ", "))
  driver <- escape_braces(conditionMessage(e))
  abort_not_the_column <- function(why) {
    cli::cli_abort(c(paste0("The database failed to count ", escape_braces(where), ": ", driver),
                     i = paste0("The query: ", escape_braces(query), "."),
                     i = why),
                   call = call, parent = NULL)
  }
  lost <- "The connection is closed or lost ({.code DBI::dbIsValid()} is {.code FALSE}): reconnect and make the tables again; no column is at fault."
  if (!db_connection_valid(con)) abort_not_the_column(lost)
  whole <- paste0("SELECT COUNT(*) AS synthrisk_n\nFROM (", dbplyr::sql_render(tbl), ") ",
                  DBI::dbQuoteIdentifier(con, "synthrisk_table"))
  unreadable <- tryCatch({
    fetch_in_chunks(con, whole, 1L, all = FALSE)
    NULL
  }, error = function(e2) e2)
  if (!is.null(unreadable)) {
    abort_not_the_column(if (!db_connection_valid(con)) lost else
      "Counting the table's rows without grouping failed too, so no column is at fault: check the connection, the table and its query.")
  }
  for (v in vars) {
    alone <- grouped_sql(tbl, v, "COUNT(*) AS synthrisk_n")
    failed <- tryCatch({
      fetch_in_chunks(con, alone, 1L, all = FALSE)
      NULL
    }, error = function(e2) e2)
    if (is.null(failed)) next
    # Lost while asking: not the column's fault either.
    if (!db_connection_valid(con)) abort_not_the_column(lost)
    cli::cli_abort(c("The database cannot count variable {.val {v}} of {where} (GROUP BY {v}).",
                     x = escape_braces(conditionMessage(failed)),
                     i = "Keys and targets must be columns the database can group: numbers, text, booleans, dates and times; convert others in the query (e.g. with {.fn dplyr::mutate})."),
                   call = call, parent = NULL)
  }
  abort_not_the_column("Each variable can be counted alone, so the failure is not one column's type; it may be the server's resources or the connection.")
}

# Whether a connection is still usable as DBI says; a driver that cannot say counts as valid.
db_connection_valid <- function(con) {
  isTRUE(tryCatch(DBI::dbIsValid(con), error = function(e) TRUE))
}

# The groups of targets counted together: all at once for data held in R, one target
# at a time when a dataset is a database table (its cells per target are what the
# database returns; the identity measures depend on the keys only).
target_groups <- function(targets, datasets) {
  if (any(vapply(datasets, is_db_table, logical(1)))) as.list(targets) else list(targets)
}

# The cells of every target in each database table among `datasets` (original,
# syntheses, control): per dataset NULL (held in R) or the result of db_target_cells().
db_counts <- function(keys, targets, datasets, m, call) {
  lapply(seq_along(datasets), function(j) {
    x <- datasets[[j]]
    if (!is_db_table(x)) return(NULL)
    where <- dataset_where(j - 1L, m)
    counted <- db_target_cells(x, keys, targets, where, call)
    if (nrow(counted$cells[[1]]) == 0) {
      what <- if (j == 1) "{.arg data}" else if (j > m + 1) "{.arg control}" else
        if (m == 1) "The synthetic data ({.arg object})" else paste("Synthesis", j - 1, "of {.arg object}")
      cli::cli_abort(paste0(what, " has no records (a database table counted none)."), call = call)
    }
    counted
  })
}

# The datasets of one group of targets: database tables replaced by the counted cells
# of the keys and that target (`counts`: from db_counts()).
group_datasets <- function(group, datasets, counts) {
  lapply(seq_along(datasets), function(j) {
    if (is.null(counts[[j]])) datasets[[j]] else counts[[j]]$cells[[group]]
  })
}

# What the database counted: one row per query (dataset, query, targets, rows, seconds).
fetch_log <- function(counts, m) {
  rows <- lapply(seq_along(counts), function(j) {
    if (is.null(counts[[j]])) return(NULL)
    cbind(dataset = dataset_label(j - 1L, m), counts[[j]]$log, stringsAsFactors = FALSE)
  })
  rows <- rows[!vapply(rows, is.null, logical(1))]
  if (length(rows) == 0) NULL else do.call(rbind, rows)
}

# "original", "synthesis j" or "control" for dataset j (0 = the original, m + 1 = control).
dataset_label <- function(j, m) {
  if (j == 0) "original" else if (j > m) "control" else paste("synthesis", j)
}
