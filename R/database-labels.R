# Labels as the database compares them. A text column is grouped by the database's
# collation; one that ignores case or trailing spaces (MySQL's and MariaDB's default
# collations, even utf8mb4_bin's padding; SQLite's NOCASE and RTRIM; Spark's
# UTF8_LCASE) would count "MALE", "male" and "male " as one label where R keeps three,
# and every number would change without a word. So before counting, each text key and
# target is counted both ways: its distinct byte strings (GROUP BY the column and its
# bytes) and, among those, its distinct values under the collation. A column where
# they differ stops the call, named, with the reason. GROUP BY, rather than COUNT
# (DISTINCT) over the table, lets a sharded database group on its shards and send only
# the distinct labels on (postgres_fdw does not push COUNT(DISTINCT) down). The scan
# is skipped where the database's catalog shows every column compares byte by byte
# (db_collations_bytewise()).

# The column's bytes as an SQL expression the database can also run on its shards, per
# dialect: hex() in SQLite, MySQL, MariaDB, Spark SQL and DuckDB; in PostgreSQL md5()
# of the text (immutable, so postgres_fdw ships it; the byte conversions are not), whose
# collisions are out of reach. NULL stays NULL (SQLite's hex(NULL) is '').
db_bytes_sql <- function(con, quoted) {
  bytes <- if (inherits(con, c("PqConnection", "PostgreSQLConnection", "RedshiftConnection"))) {
    paste0("md5(CAST(", quoted, " AS TEXT))")
  } else {
    paste0("hex(", quoted, ")")
  }
  paste0("CASE WHEN ", quoted, " IS NOT NULL THEN ", bytes, " END")
}

# Stops when the database would merge labels of a text column among `vars` of `tbl`
# that R keeps apart. `where`: cli markup naming the dataset. Returns the check's row
# of the query log (query "labels"), or NULL when no column is text.
db_check_labels <- function(tbl, vars, where, call) {
  con <- dbplyr::remote_con(tbl)
  shape <- dplyr::collect(utils::head(tbl, 0L))
  text <- vars[vapply(vars, function(v) is.character(shape[[v]]), logical(1))]
  if (length(text) == 0) return(NULL)
  started <- Sys.time()
  if (db_collations_bytewise(tbl, con, text)) {
    return(data.frame(query = "labels", targets = paste(text, collapse = ", "), rows = 0L,
                      seconds = as.numeric(Sys.time() - started, units = "secs"), stringsAsFactors = FALSE))
  }
  got <- db_label_counts(tbl, con, text)
  if (inherits(got, "error") && !db_connection_valid(con)) {
    # Lost (a server gone in the middle of a call): the driver's message, not a column's.
    cli::cli_abort(c(paste0("The database failed to check the labels of ", escape_braces(cli::format_inline(where)), ": ",
                            escape_braces(conditionMessage(got))),
                     i = "The query: the distinct labels of {.val {text}} (query {.val labels}).",
                     i = "The connection is closed or lost ({.code DBI::dbIsValid()} is {.code FALSE}): reconnect and make the tables again; no column is at fault."),
                   call = call)
  }
  if (inherits(got, "error")) {
    # One column at a time: a column the database cannot count distinct values of is
    # one it cannot group either, which the counting reports by name; any other is said.
    got <- lapply(text, function(v) db_label_counts(tbl, con, v))
    failed <- vapply(got, inherits, logical(1), "error")
    groupable <- vapply(text[failed], function(v) {
      !inherits(tryCatch(fetch_in_chunks(con, grouped_sql(tbl, v, "COUNT(*) AS synthrisk_n"), 1L, all = FALSE),
                         error = function(e) e), "error")
    }, logical(1))
    if (any(groupable)) {
      cli::cli_warn(c("Could not check that the database compares the labels of {.val {text[failed][groupable]}} in {cli::format_inline(where)} as R does.",
                      x = "{conditionMessage(got[failed][groupable][[1]])}",
                      i = "A collation that ignores case or trailing spaces would count labels R keeps apart as one."))
    }
    got <- do.call(rbind, got[!failed])
    text <- text[!failed]
    if (length(text) == 0) return(NULL)
  }
  checked <- data.frame(query = "labels", targets = paste(text, collapse = ", "), rows = length(text),
                        seconds = as.numeric(Sys.time() - started, units = "secs"), stringsAsFactors = FALSE)
  labels <- got$labels
  bytes <- got$bytes
  merged <- which(bytes != labels)
  if (length(merged) > 0) {
    i <- merged[1]
    counted <- paste0(format_count(labels[i]), " distinct label", if (labels[i] == 1) "" else "s", " among ",
                      format_count(bytes[i]), " distinct texts")
    cli::cli_abort(c(paste0("The database compares the labels of {.val {text[i]}} in ", where,
                            " differently from R: it counts {counted}."),
                     i = "Its collation ignores case or trailing spaces (as MySQL's and MariaDB's default collations do, and SQLite's NOCASE and RTRIM), so labels that R keeps apart would be counted as one.",
                     i = "Give the column a binary collation that does not pad spaces (MySQL 8: {.code utf8mb4_0900_bin}; MariaDB: a {.code _nopad_bin} collation; SQLite: {.code COLLATE BINARY}), or {.code dplyr::collect()} the table."),
                   call = call)
  }
  checked
}

# Whether the database's catalog shows that every column of `text` compares text byte
# by byte, so that no scan is needed: PostgreSQL when it has no nondeterministic
# collation at all (its deterministic collations tell apart any two different
# strings; postgres_fdw assumes the shards collate as the coordinator does); engines
# with a collation() function (Spark SQL, MySQL, MariaDB) when each column's
# collation is binary and does not pad (UTF8_BINARY, *_nopad_bin, *_0900_bin,
# binary). FALSE whenever the catalog cannot say, and the columns are then scanned.
db_collations_bytewise <- function(tbl, con, text) {
  if (inherits(con, c("PqConnection", "PostgreSQLConnection"))) {
    got <- tryCatch(suppress_driver_output(DBI::dbGetQuery(
      con, "SELECT COUNT(*) AS n FROM pg_collation WHERE NOT collisdeterministic")), error = function(e) NULL)
    return(!is.null(got) && isTRUE(as.numeric(got[[1]]) == 0))
  }
  if (inherits(con, c("SQLiteConnection", "duckdb_connection"))) return(FALSE)
  q <- function(x) as.character(DBI::dbQuoteIdentifier(con, x))
  sql <- paste0("SELECT ", paste0("collation(", q(text), ") AS ", q(paste0("synthrisk_collation_", seq_along(text))),
                                  collapse = ", "),
                "\nFROM (", dbplyr::sql_render(tbl), ") ", q("synthrisk_table"), " LIMIT 1")
  got <- tryCatch(suppress_driver_output(DBI::dbGetQuery(con, sql)), error = function(e) NULL)
  if (is.null(got) || ncol(got) != length(text)) return(FALSE)
  if (nrow(got) == 0) return(TRUE)
  names <- tolower(vapply(got, function(x) as.character(x[1]), character(1)))
  all(!is.na(names) & grepl("(^|\\.)utf8_binary$|nopad_bin$|_0900_bin$|^binary$", names))
}

# Per text column of `text`, its distinct values under the collation and its distinct
# byte strings, from one grouped scan per column, all in one query: data.frame(labels,
# bytes), or the error.
db_label_counts <- function(tbl, con, text) {
  got <- tryCatch(suppress_driver_output(DBI::dbGetQuery(con, db_label_sql(tbl, con, text))), error = function(e) e)
  if (inherits(got, "error")) return(got)
  got <- got[order(as.integer(got$synthrisk_column)), , drop = FALSE]
  data.frame(labels = as.double(got$synthrisk_labels), bytes = as.double(got$synthrisk_texts))
}

db_label_sql <- function(tbl, con, text) {
  q <- function(x) as.character(DBI::dbQuoteIdentifier(con, x))
  label <- q("synthrisk_label")
  bytes <- q("synthrisk_bytes")
  per_column <- vapply(seq_along(text), function(k) {
    paste0("SELECT ", k, " AS ", q("synthrisk_column"), ", COUNT(DISTINCT ", label, ") AS ", q("synthrisk_labels"),
           ", COUNT(", bytes, ") AS ", q("synthrisk_texts"),
           "\nFROM (SELECT ", label, ", ", bytes, " FROM (SELECT ", q(text[k]), " AS ", label, ", ",
           db_bytes_sql(con, q(text[k])), " AS ", bytes, "\nFROM (", dbplyr::sql_render(tbl), ") ", q("synthrisk_table"),
           ") ", q("synthrisk_values"), " GROUP BY ", label, ", ", bytes, ") ", q("synthrisk_distinct"))
  }, character(1))
  paste(per_column, collapse = "\nUNION ALL\n")
}

# Some drivers (RPostgreSQL) print a failed query's error before raising it; the error
# itself is handled by the caller.
suppress_driver_output <- function(code) {
  utils::capture.output(value <- code, type = "message")
  value
}
