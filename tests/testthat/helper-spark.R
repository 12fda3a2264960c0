# Spark for the tests: a standalone cluster (a master, two workers and the Thrift JDBC
# server; tools/spark-cluster.sh) started once for the test run and stopped by the
# PIDs of its processes when the run ends (tools/run-tests.R starts it in the background
# as the run begins and names its directory in SYNTHRISK_SPARK_STARTING). Spark itself is installed by `make setup`
# (tools/setup.sh all), from the shell: a test never downloads it, and fails naming
# `make setup` when it is missing. R reaches the Thrift server through Spark's
# own Hive JDBC driver with rJava, behind the small DBI connection below: test code,
# not package code. dbplyr writes Spark SQL through its Hive translation, as it does
# for a Spark connection made with odbc.
#
# Bulk fetching: reading a JDBC result value by value from R costs a Java call per
# value (about a minute for SD2011). So the shim asks Spark for each result's column
# names and types (the query with LIMIT 0), then for the whole result as one text
# (every value CAST AS STRING, joined by ASCII's unit separator; JSON when a value
# holds a separator), and converts the columns by their types in R. Doubles travel as Java's decimal
# strings, which read back to the same doubles. Tables are written the same way round:
# rows as a JSON literal that Spark parses and casts (doubles written with 17 digits).

spark_cluster <- local({
  cluster <- NULL
  function() {
    if (!is.null(cluster)) return(cluster)
    testthat::skip_on_cran()
    skip_without_packages(c("DBI", "dplyr", "dbplyr", "rJava", "jsonlite"))
    script <- testthat::test_path("..", "..", "tools", "spark-cluster.sh")
    if (!file.exists(script)) testthat::skip("tools/spark-cluster.sh is not beside the tests")
    if (!nzchar(Sys.which("java"))) testthat::skip("java is not installed (openjdk-17-jre-headless)")
    starting <- Sys.getenv("SYNTHRISK_SPARK_STARTING")
    if (nzchar(starting)) {
      # tools/run-tests.R started the cluster when the run began, and stops it.
      dir <- starting
      status_file <- paste0(dir, ".status")
      waited <- 0
      while (!file.exists(status_file) && waited < 600) {
        Sys.sleep(0.5)
        waited <- waited + 0.5
      }
      status <- if (file.exists(status_file)) readLines(status_file) else "no status after 600 s"
      if (!identical(status, "0")) {
        stop("the Spark cluster did not start (", status, "):\n",
             paste(readLines(paste0(dir, ".log")), collapse = "\n"))
      }
    } else {
      dir <- tempfile("synthrisk-spark-", tmpdir = "/tmp")
      # A failed start is reported below with the script's own message.
      started <- suppressWarnings(system2("bash", c(shQuote(script), "start", shQuote(dir)), stdout = TRUE, stderr = TRUE))
      stop_cluster <- function() {
        system2("bash", c(shQuote(script), "stop", shQuote(dir)), stdout = FALSE, stderr = FALSE)
        unlink(dir, recursive = TRUE)
      }
      if (!is.null(attr(started, "status"))) {
        stop_cluster()
        stop("the Spark cluster did not start:\n", paste(started, collapse = "\n"))
      }
      withr::defer(stop_cluster(), envir = testthat::teardown_env())
    }
    cluster <<- list(dir = dir, home = readLines(file.path(dir, "spark-home")),
                     thrift_port = as.integer(readLines(file.path(dir, "thrift-port"))),
                     master_port = as.integer(readLines(file.path(dir, "master-port"))),
                     master_ui_port = as.integer(readLines(file.path(dir, "master-ui-port"))))
    cluster
  }
})

# A DBI connection to the cluster's Thrift server (database `database`, created when
# missing), holding `tables`; closed when the calling test ends.
local_spark <- function(tables, env = parent.frame(), database = "synthrisk") {
  cluster <- spark_cluster()
  con <- spark_connect_thrift(cluster, database)
  withr::defer(DBI::dbDisconnect(con), envir = env)
  write_tables(con, tables)
  con
}

spark_connect_thrift <- function(cluster, database = "default") {
  define_spark_thrift_classes()
  rJava::.jinit(classpath = list.files(file.path(cluster$home, "jars"), pattern = "\\.jar$", full.names = TRUE))
  driver <- rJava::.jnew("org/apache/hive/jdbc/HiveDriver")
  url <- sprintf("jdbc:hive2://127.0.0.1:%d/default", cluster$thrift_port)
  jconn <- rJava::.jcall(driver, "Ljava/sql/Connection;", "connect", url, rJava::.jnew("java/util/Properties"))
  con <- methods::new("SparkThriftConnection", jconn = jconn)
  if (database != "default") {
    DBI::dbExecute(con, paste("CREATE DATABASE IF NOT EXISTS", database))
    DBI::dbExecute(con, paste("USE", database))
  }
  con
}

# The master's account of the cluster (its web UI's JSON): workers and applications.
spark_master_state <- function(cluster = spark_cluster()) {
  jsonlite::fromJSON(sprintf("http://127.0.0.1:%d/json/", cluster$master_ui_port))
}

spark_execute <- function(con, sql) {
  statement <- rJava::.jcall(con@jconn, "Ljava/sql/Statement;", "createStatement")
  on.exit(rJava::.jcall(statement, "V", "close"))
  rJava::.jcall(statement, "Z", "execute", sql, check = FALSE)
  thrown <- rJava::.jgetEx(clear = TRUE)
  if (!is.null(thrown)) stop("Spark: ", rJava::.jcall(thrown, "S", "getMessage"), call. = FALSE)
  invisible(0L)
}

# The rows of a query as a data frame, in two Spark queries (see above).
spark_fetch <- function(con, sql) {
  statement <- rJava::.jcall(con@jconn, "Ljava/sql/Statement;", "createStatement")
  on.exit(rJava::.jcall(statement, "V", "close"))
  run <- function(query) {
    rs <- rJava::.jcall(statement, "Ljava/sql/ResultSet;", "executeQuery", query, check = FALSE)
    thrown <- rJava::.jgetEx(clear = TRUE)
    if (!is.null(thrown)) stop("Spark: ", rJava::.jcall(thrown, "S", "getMessage"), call. = FALSE)
    rs
  }
  shape <- run(paste0("SELECT * FROM (", sql, ") synthrisk_shape LIMIT 0"))
  meta <- rJava::.jcall(shape, "Ljava/sql/ResultSetMetaData;", "getMetaData")
  k <- seq_len(rJava::.jcall(meta, "I", "getColumnCount"))
  names <- vapply(k, function(i) rJava::.jcall(meta, "S", "getColumnLabel", i), "")
  names <- sub("^synthrisk_shape\\.", "", names)
  types <- vapply(k, function(i) tolower(rJava::.jcall(meta, "S", "getColumnTypeName", i)), "")
  text <- paste0("CAST(", as.character(DBI::dbQuoteIdentifier(con, names)), " AS STRING)")
  # Every value as text, joined by the unit separator (NULL as the group separator);
  # JSON instead when a value holds either control character.
  joined <- paste0("coalesce(", text, ", chr(29))", collapse = ", chr(31), ")
  unsafe <- paste0("coalesce(", text, " RLIKE '[\\\\x1d\\\\x1f]', false)", collapse = " OR ")
  rs <- run(paste0("SELECT count(*), max(", unsafe, "), concat_ws(chr(31), collect_list(concat(", joined, "))) ",
                   "FROM (", sql, ") synthrisk_rows"))
  rJava::.jcall(rs, "Z", "next")
  n <- as.integer(rJava::.jcall(rs, "S", "getString", 1L))
  if (identical(rJava::.jcall(rs, "S", "getString", 2L), "true")) {
    rs <- run(paste0("SELECT to_json(collect_list(array(", paste(text, collapse = ", "), "))) FROM (", sql,
                     ") synthrisk_rows"))
    rJava::.jcall(rs, "Z", "next")
    values <- as.character(t(jsonlite::fromJSON(rJava::.jcall(rs, "S", "getString", 1L))))
  } else {
    values <- if (n == 0) character() else strsplit(paste0(rJava::.jcall(rs, "S", "getString", 3L), "\x1f"), "\x1f",
                                                    fixed = TRUE)[[1]]
    values[values == "\x1d"] <- NA
  }
  rows <- matrix(values, ncol = length(k), byrow = TRUE)
  out <- lapply(k, function(i) spark_column(rows[, i], types[i]))
  stats::setNames(as.data.frame(out, col.names = paste0("V", k), stringsAsFactors = FALSE), names)
}

spark_column <- function(x, type) {
  switch(sub("\\(.*", "", type),
         string = , varchar = , char = x,
         int = , integer = , smallint = , tinyint = as.integer(x),
         bigint = , long = , double = , float = , decimal = as.numeric(x),
         boolean = as.logical(x),
         date = as.Date(x),
         timestamp = as.POSIXct(x, tz = "UTC"),
         x)
}

spark_sql_type <- function(x) {
  if (is.logical(x)) return("BOOLEAN")
  if (is.integer(x) && !is.factor(x)) return("INT")
  if (is.numeric(x)) return("DOUBLE")
  "STRING"
}

spark_text <- function(x) {
  if (is.factor(x)) x <- as.character(x)
  if (is.double(x)) {
    out <- sprintf("%.17g", x)
    out[is.nan(x)] <- "NaN"
    out[x %in% Inf] <- "Infinity"
    out[x %in% -Inf] <- "-Infinity"
    out[is.na(x) & !is.nan(x)] <- NA
    return(out)
  }
  if (is.logical(x)) return(ifelse(x, "true", "false"))
  as.character(x)
}

# A Spark SQL string literal: backslash escapes (Spark reads '' as two adjacent
# literals, not as a quote).
spark_literal <- function(x) {
  out <- paste0("'", gsub("'", "\\\\'", gsub("\\\\", "\\\\\\\\", x)), "'")
  out[is.na(x)] <- "NULL"
  out
}

spark_write_table <- function(con, name, value, rows_per_insert = 20000L) {
  value <- as.data.frame(value)
  quoted <- as.character(DBI::dbQuoteIdentifier(con, names(value)))
  types <- vapply(value, spark_sql_type, "")
  spark_execute(con, sprintf("DROP TABLE IF EXISTS %s", DBI::dbQuoteIdentifier(con, name)))
  spark_execute(con, sprintf("CREATE TABLE %s (%s) USING parquet", DBI::dbQuoteIdentifier(con, name),
                             paste(quoted, types, collapse = ", ")))
  if (nrow(value) == 0) return(invisible(TRUE))
  text <- do.call(cbind, lapply(value, spark_text))
  casts <- paste0("CAST(r[", seq_along(quoted) - 1L, "] AS ", types, ")", collapse = ", ")
  for (first in seq(1L, nrow(value), by = rows_per_insert)) {
    rows <- text[first:min(nrow(value), first + rows_per_insert - 1L), , drop = FALSE]
    json <- jsonlite::toJSON(unname(rows), matrix = "rowmajor", na = "null")
    spark_execute(con, sprintf("INSERT INTO %s SELECT %s FROM (SELECT explode(from_json(%s, 'array<array<string>>')) AS r)",
                               DBI::dbQuoteIdentifier(con, name), casts, spark_literal(as.character(json))))
  }
  invisible(TRUE)
}

# The DBI classes and methods of the shim, and dbplyr's Hive translation for them;
# defined once per R session.
define_spark_thrift_classes <- function() {
  if (methods::isClass("SparkThriftConnection")) return(invisible())
  where <- globalenv()
  methods::setClass("SparkThriftConnection", contains = "DBIConnection", slots = c(jconn = "ANY"), where = where)
  methods::setClass("SparkThriftResult", contains = "DBIResult", slots = c(state = "environment"), where = where)
  methods::setMethod(DBI::dbQuoteIdentifier, c("SparkThriftConnection", "character"), function(conn, x, ...) {
    DBI::SQL(paste0("`", gsub("`", "``", x), "`"), names = names(x))
  }, where = where)
  methods::setMethod(DBI::dbQuoteIdentifier, c("SparkThriftConnection", "SQL"), function(conn, x, ...) x, where = where)
  methods::setMethod(DBI::dbQuoteString, c("SparkThriftConnection", "character"), function(conn, x, ...) {
    DBI::SQL(spark_literal(x), names = names(x))
  }, where = where)
  methods::setMethod(DBI::dbQuoteString, c("SparkThriftConnection", "SQL"), function(conn, x, ...) x, where = where)
  methods::setMethod(DBI::dbQuoteLiteral, c("SparkThriftConnection", "ANY"), function(conn, x, ...) {
    if (is.character(x) || is.factor(x)) return(DBI::dbQuoteString(conn, as.character(x)))
    DBI::SQL(ifelse(is.na(x), "NULL", spark_text(x)))
  }, where = where)
  methods::setMethod(DBI::dbExecute, c("SparkThriftConnection", "character"), function(conn, statement, ...) {
    spark_execute(conn, statement)
  }, where = where)
  methods::setMethod(DBI::dbSendQuery, c("SparkThriftConnection", "character"), function(conn, statement, ...) {
    state <- new.env()
    state$rows <- spark_fetch(conn, statement)
    state$next_row <- 1L
    state$valid <- TRUE
    methods::new("SparkThriftResult", state = state)
  }, where = where)
  methods::setMethod(DBI::dbFetch, "SparkThriftResult", function(res, n = -1, ...) {
    s <- res@state
    total <- nrow(s$rows)
    last <- if (n < 0 || is.infinite(n)) total else min(total, s$next_row + n - 1L)
    out <- s$rows[seq.int(s$next_row, length.out = max(0L, last - s$next_row + 1L)), , drop = FALSE]
    rownames(out) <- NULL
    s$next_row <- last + 1L
    out
  }, where = where)
  methods::setMethod(DBI::dbHasCompleted, "SparkThriftResult", function(res, ...) {
    res@state$next_row > nrow(res@state$rows)
  }, where = where)
  methods::setMethod(DBI::dbGetRowCount, "SparkThriftResult", function(res, ...) res@state$next_row - 1L, where = where)
  methods::setMethod(DBI::dbColumnInfo, "SparkThriftResult", function(res, ...) {
    data.frame(name = names(res@state$rows), type = vapply(res@state$rows, function(x) class(x)[1], ""))
  }, where = where)
  methods::setMethod(DBI::dbClearResult, "SparkThriftResult", function(res, ...) {
    res@state$valid <- FALSE
    invisible(TRUE)
  }, where = where)
  methods::setMethod(DBI::dbIsValid, "SparkThriftResult", function(dbObj, ...) isTRUE(dbObj@state$valid), where = where)
  methods::setMethod(DBI::dbIsValid, "SparkThriftConnection", function(dbObj, ...) {
    !rJava::.jcall(dbObj@jconn, "Z", "isClosed")
  }, where = where)
  methods::setMethod(DBI::dbDisconnect, "SparkThriftConnection", function(conn, ...) {
    rJava::.jcall(conn@jconn, "V", "close")
    invisible(TRUE)
  }, where = where)
  methods::setMethod(DBI::dbGetInfo, "SparkThriftConnection", function(dbObj, ...) {
    list(dbname = "Spark SQL", db.version = "Thrift JDBC server")
  }, where = where)
  methods::setMethod(DBI::dbExistsTable, c("SparkThriftConnection", "character"), function(conn, name, ...) {
    !inherits(try(spark_execute(conn, paste("DESCRIBE TABLE", DBI::dbQuoteIdentifier(conn, name))), silent = TRUE),
              "try-error")
  }, where = where)
  methods::setMethod(DBI::dbRemoveTable, c("SparkThriftConnection", "character"), function(conn, name, ...) {
    spark_execute(conn, paste("DROP TABLE IF EXISTS", DBI::dbQuoteIdentifier(conn, name)))
    invisible(TRUE)
  }, where = where)
  methods::setMethod(DBI::dbWriteTable, c("SparkThriftConnection", "character", "data.frame"),
                     function(conn, name, value, ..., row.names = FALSE) spark_write_table(conn, name, value),
                     where = where)
  methods::setMethod(DBI::dbListFields, c("SparkThriftConnection", "character"), function(conn, name, ...) {
    names(spark_fetch(conn, paste("SELECT * FROM", DBI::dbQuoteIdentifier(conn, name))))
  }, where = where)
  dbplyr_ns <- asNamespace("dbplyr")
  for (generic in c("dbplyr_edition", "sql_translation", "sql_query_set_op", "sql_table_analyze",
                    "supports_window_clause", "last_value_sql")) {
    registerS3method(generic, "SparkThriftConnection", get(paste0(generic, ".Hive"), envir = dbplyr_ns),
                     envir = dbplyr_ns)
  }
  invisible()
}
