# Databases for the tests: SQLite in memory, and a PostgreSQL server started in a
# temporary directory on first use and stopped when the test run ends. The checks
# shared by both: every result on database tables equals the result on the tables
# collected into R (dplyr::collect()), and the fixtures give synthpop's numbers.

skip_without_packages <- function(packages) {
  for (p in packages) {
    if (!requireNamespace(p, quietly = TRUE)) testthat::skip(paste("the", p, "package is not installed"))
  }
}

# An in-memory SQLite database holding `tables` (named data frames); closed when the
# calling test ends.
local_sqlite <- function(tables, env = parent.frame()) {
  skip_without_packages(c("DBI", "dplyr", "dbplyr", "RSQLite"))
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  withr::defer(DBI::dbDisconnect(con), envir = env)
  write_tables(con, tables)
  con
}

write_tables <- function(con, tables) {
  for (name in names(tables)) {
    if (DBI::dbExistsTable(con, name)) DBI::dbRemoveTable(con, name)
    DBI::dbWriteTable(con, name, as.data.frame(tables[[name]]), row.names = FALSE)
  }
}

# The directory of the PostgreSQL server programs (initdb, pg_ctl), or NULL.
postgres_bin <- function() {
  found <- Sys.glob("/usr/lib/postgresql/*/bin/initdb")
  if (length(found) > 0) {
    version <- suppressWarnings(as.numeric(basename(dirname(dirname(found)))))
    return(dirname(found[order(version, decreasing = TRUE)][1]))
  }
  on_path <- Sys.which("initdb")
  if (nzchar(on_path)) dirname(on_path) else NULL
}

# A PostgreSQL server for this test run, started once: initdb and pg_ctl in a fresh
# directory, listening on a unix socket there only. PostgreSQL refuses to run as root,
# so as root its programs run as the user "postgres", who owns the directory.
postgres_server <- local({
  server <- NULL
  function() {
    if (is.null(server)) server <<- start_postgres_server()
    server
  }
})

# Starts a PostgreSQL server (stopped when the test run ends): list(host (its socket
# directory), port, user).
start_postgres_server <- function() {
  skip_without_packages(c("DBI", "dplyr", "dbplyr", "RPostgreSQL"))
  bin <- postgres_bin()
  if (is.null(bin)) testthat::skip("PostgreSQL's server programs (initdb, pg_ctl) are not installed")
  as_root <- identical(unname(Sys.info()[["effective_user"]]), "root")
  if (as_root && system2("id", "postgres", stdout = FALSE, stderr = FALSE) != 0) {
    testthat::skip("running as root and there is no user 'postgres' to run the PostgreSQL server")
  }
  # Not tempdir(): the server's user must reach the directory.
  dir <- tempfile("synthrisk-pg-", tmpdir = "/tmp")
  dir.create(dir, mode = "0700")
  if (as_root) system2("chown", c("postgres:postgres", shQuote(dir)))
  run <- function(program, args) {
    cmd <- file.path(bin, program)
    out <- if (as_root) {
      suppressWarnings(system2("runuser", c("-u", "postgres", "--", cmd, args), stdout = TRUE, stderr = TRUE))
    } else {
      suppressWarnings(system2(cmd, args, stdout = TRUE, stderr = TRUE))
    }
    status <- attr(out, "status") %||% 0L
    if (status != 0) {
      log <- file.path(dir, "log")
      stop(program, " failed (status ", status, "):\n", paste(out, collapse = "\n"),
           if (file.exists(log)) paste(c("", readLines(log)), collapse = "\n"))
    }
    out
  }
  data_dir <- file.path(dir, "data")
  port <- sample(20000:60000, 1)
  run("initdb", c("-D", shQuote(data_dir), "-A", "trust", "-U", "synthrisk", "-E", "UTF8", "--locale=C",
                  "--no-sync"))
  options <- sprintf("-k %s -p %d -c listen_addresses='' -c fsync=off", dir, port)
  run("pg_ctl", c("-D", shQuote(data_dir), "-l", shQuote(file.path(dir, "log")), "-w", "-o", shQuote(options),
                  "start"))
  stop_server <- function() {
    try(run("pg_ctl", c("-D", shQuote(data_dir), "-m", "fast", "-w", "stop")), silent = TRUE)
    unlink(dir, recursive = TRUE)
  }
  withr::defer(stop_server(), envir = testthat::teardown_env())
  list(host = dir, port = port, user = "synthrisk")
}

# PostgreSQL sharded with postgres_fdw, started once for the test run: a coordinator and
# two shard servers; the coordinator reaches the shards through foreign servers on their
# sockets. list(coordinator, shards).
sharded_postgres <- local({
  cluster <- NULL
  function() {
    if (!is.null(cluster)) return(cluster)
    coordinator <- postgres_server()
    shards <- list(start_postgres_server(), start_postgres_server())
    con <- postgres_connect(coordinator)
    on.exit(DBI::dbDisconnect(con))
    DBI::dbExecute(con, "CREATE EXTENSION IF NOT EXISTS postgres_fdw")
    for (k in seq_along(shards)) {
      DBI::dbExecute(con, sprintf("CREATE SERVER shard%d FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '%s', port '%d', dbname 'postgres', async_capable 'true')",
                                  k, shards[[k]]$host, shards[[k]]$port))
      DBI::dbExecute(con, sprintf("CREATE USER MAPPING FOR synthrisk SERVER shard%d OPTIONS (user 'synthrisk')", k))
    }
    cluster <<- list(coordinator = coordinator, shards = shards)
    cluster
  }
})

postgres_connect <- function(s, dbname = "postgres") {
  DBI::dbConnect(RPostgreSQL::PostgreSQL(), host = s$host, port = s$port, user = s$user, dbname = dbname)
}

# A connection to the coordinator where each of `tables` is a table partitioned by hash
# of its first column over the two shards (foreign tables), with partition-wise
# aggregation on, so the shards run the GROUP BY counts; closed when the calling test
# ends.
local_sharded_postgres <- function(tables, env = parent.frame()) {
  testthat::skip_on_cran()
  cluster <- sharded_postgres()
  con <- postgres_connect(cluster$coordinator)
  withr::defer(DBI::dbDisconnect(con), envir = env)
  suppressWarnings(dbplyr::sql_render(dplyr::tbl(con, dbplyr::sql("SELECT 1 AS x"))))
  DBI::dbExecute(con, "SET enable_partitionwise_aggregate = on")
  DBI::dbExecute(con, "SET client_min_messages = warning")
  write_sharded_tables(con, tables)
  con
}

# A connection to the test run's PostgreSQL server, holding `tables`; closed when the
# calling test ends.
local_postgres <- function(tables, env = parent.frame()) {
  # A server of our own is started for make test; not on CRAN's machines.
  testthat::skip_on_cran()
  s <- postgres_server()
  con <- DBI::dbConnect(RPostgreSQL::PostgreSQL(), host = s$host, port = s$port, user = s$user, dbname = "postgres")
  withr::defer(DBI::dbDisconnect(con), envir = env)
  # dbplyr warns (at most every 8 hours) that RPostgreSQL uses its older interface.
  suppressWarnings(dbplyr::sql_render(dplyr::tbl(con, dbplyr::sql("SELECT 1 AS x"))))
  write_tables(con, tables)
  con
}

db_tables <- function(con, names) lapply(names, function(n) dplyr::tbl(con, n))

collected <- function(x) {
  if (inherits(x, "tbl_lazy")) return(dplyr::collect(x))
  if (is.list(x) && !is.data.frame(x)) return(lapply(x, collected))
  x
}

# fn() on database tables equals fn() on the same tables collected; returns the result.
expect_same_as_collected <- function(fn, object, data, ..., parts = result_parts, label = "") {
  got <- with_label_warnings(fn(object, data, ...))
  want <- with_label_warnings(fn(collected(object), collected(data), ...))
  expect_equal(parts(got$value), parts(want$value), tolerance = 1e-9, label = label)
  # Labels that do not meet are told alike from a table and from its collected data.
  expect_identical(got$warnings, want$warnings, label = paste(label, "warnings"))
  invisible(got$value)
}

# The SD2011 data and syntheses of the fixtures as tables.
sd2011_tables <- function() {
  c(list(sd2011 = sd2011, s1 = sd2011_synds$syn),
    stats::setNames(sd2011_synds5$syn, paste0("s5_", 1:5)))
}

# Every golden case (synthpop 1.9-3's outputs) on database tables: equal to the
# collected tables, and to synthpop's numbers.
check_golden_cases_on <- function(con) {
  golden <- golden_cases()
  data <- dplyr::tbl(con, "sd2011")
  for (name in names(golden)) {
    case <- golden[[name]]
    object <- golden_object(case$object)
    tables <- if (case$object %in% c("s1", "s1_df")) dplyr::tbl(con, "s1") else db_tables(con, paste0("s5_", 1:5))
    args <- case$args
    if (inherits(object, "synds")) args$cont.na <- object$cont.na
    fn <- switch(case$fn, disclosure = disclosure, multi.disclosure = multi.disclosure)
    parts <- if (case$fn == "disclosure") result_parts else multi_parts
    got <- do.call(expect_same_as_collected, c(list(fn, tables, data), args,
                                               list(print.flag = FALSE, parts = parts, label = name)))
    want <- case$expected
    if (case$fn == "disclosure") {
      expect_golden_numbers(got, want, name)
    } else {
      cols <- c("attrib.orig", "attrib.syn", "Npairs")
      expect_numbers(got$attrib.table[cols], want$attrib.table[cols], label = paste(name, "attrib.table"))
      expect_identical(rownames(got$attrib.table), rownames(want$attrib.table), label = name)
      expect_identical(got$attrib.table$check2, want$attrib.table$check2, label = name)
    }
  }
}

# Random small cases (helper-random-case.R) with holdout records, as tables: equal to
# the collected tables.
check_random_cases_on <- function(con, seeds) {
  local_quiet_labels()
  for (seed in seeds) {
    case <- random_holdout_case(seed)
    m <- length(case$syn)
    write_tables(con, c(list(orig = case$data, control = case$control),
                        stats::setNames(case$syn, paste0("syn", seq_len(m)))))
    syn <- db_tables(con, paste0("syn", seq_len(m)))
    do.call(expect_same_as_collected,
            c(list(disclosure, if (m == 1) syn[[1]] else syn, dplyr::tbl(con, "orig")), case$args,
              list(print.flag = FALSE, control = dplyr::tbl(con, "control"), label = paste("seed", seed))))
  }
}

# A MariaDB server for this test run, started once like PostgreSQL's: mariadb-install-db
# and mariadbd in a fresh directory, on a unix socket there only (no network), with
# MariaDB's usual utf8mb4_general_ci collation (case-insensitive, padding spaces), run
# as the user "mysql" when root; stopped by its PID when the test run ends.
mariadb_server <- local({
  server <- NULL
  function() {
    if (!is.null(server)) return(server)
    server <<- start_mariadb_server()
    server
  }
})

# Starts a MariaDB server (stopped by its PID when the test run ends) with database
# "synthrisk": list(socket). `plugins`: plugin libraries to load (e.g. "ha_spider").
start_mariadb_server <- function(plugins = character()) {
  skip_without_packages(c("DBI", "dplyr", "dbplyr", "RMySQL"))
  install_db <- Sys.which("mariadb-install-db")
  daemon <- if (file.exists("/usr/sbin/mariadbd")) "/usr/sbin/mariadbd" else Sys.which("mariadbd")
  if (!nzchar(install_db) || !nzchar(daemon)) testthat::skip("MariaDB's server programs are not installed")
  as_root <- identical(unname(Sys.info()[["effective_user"]]), "root")
  if (as_root && system2("id", "mysql", stdout = FALSE, stderr = FALSE) != 0) {
    testthat::skip("running as root and there is no user 'mysql' to run the MariaDB server")
  }
  dir <- tempfile("synthrisk-mariadb-", tmpdir = "/tmp")
  dir.create(dir, mode = "0700")
  if (as_root) system2("chown", c("mysql:mysql", shQuote(dir)))
  as_server_user <- function(cmd, args, wait = TRUE) {
    if (as_root) {
      suppressWarnings(system2("runuser", c("-u", "mysql", "--", cmd, args), stdout = TRUE, stderr = TRUE, wait = wait))
    } else {
      suppressWarnings(system2(cmd, args, stdout = TRUE, stderr = TRUE, wait = wait))
    }
  }
  data_dir <- file.path(dir, "data")
  out <- as_server_user(install_db, c("--no-defaults", paste0("--datadir=", data_dir), "--skip-test-db",
                                      "--auth-root-authentication-method=normal"))
  if (!is.null(attr(out, "status"))) stop("mariadb-install-db failed:\n", paste(out, collapse = "\n"))
  socket <- file.path(dir, "sock")
  pid_file <- file.path(dir, "pid")
  args <- c("--no-defaults", paste0("--datadir=", data_dir), paste0("--socket=", socket), "--skip-networking",
            "--skip-grant-tables", paste0("--pid-file=", pid_file), paste0("--log-error=", file.path(dir, "log")),
            "--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci",
            paste0("--plugin-load-add=", plugins))
  console <- file.path(dir, "console")
  if (as_root) {
    system2("runuser", c("-u", "mysql", "--", daemon, args), stdout = console, stderr = console, wait = FALSE)
  } else {
    system2(daemon, args, stdout = console, stderr = console, wait = FALSE)
  }
  for (i in 1:100) {
    if (file.exists(pid_file) && file.exists(socket)) break
    Sys.sleep(0.2)
  }
  if (!file.exists(pid_file)) stop("mariadbd did not start:\n", paste(readLines(file.path(dir, "log")), collapse = "\n"))
  stop_server <- function() {
    pid <- suppressWarnings(as.integer(readLines(pid_file, warn = FALSE)))
    if (length(pid) == 1 && !is.na(pid)) {
      tools::pskill(pid)
      for (i in 1:50) {
        if (!file.exists(pid_file)) break
        Sys.sleep(0.2)
      }
    }
    unlink(dir, recursive = TRUE)
  }
  withr::defer(stop_server(), envir = testthat::teardown_env())
  con <- DBI::dbConnect(RMySQL::MySQL(), unix.socket = socket, user = "root", dbname = "mysql")
  DBI::dbExecute(con, "CREATE DATABASE synthrisk CHARACTER SET utf8mb4")
  DBI::dbDisconnect(con)
  list(socket = socket)
}

# MariaDB with its Spider engine, started once for the test run: a head server and two
# backend servers; the head reaches the backends through foreign servers on their
# sockets. list(head, backends).
spider_mariadb <- local({
  cluster <- NULL
  function() {
    if (!is.null(cluster)) return(cluster)
    if (!length(Sys.glob("/usr/lib/*/mariadb*/plugin/ha_spider.so")) && !length(Sys.glob("/usr/lib/mysql/plugin/ha_spider.so"))) {
      testthat::skip("MariaDB's Spider engine is not installed (mariadb-plugin-spider)")
    }
    head <- start_mariadb_server(plugins = "ha_spider")
    backends <- list(start_mariadb_server(), start_mariadb_server())
    con <- DBI::dbConnect(RMySQL::MySQL(), unix.socket = head$socket, user = "root", dbname = "synthrisk")
    on.exit(DBI::dbDisconnect(con))
    for (k in seq_along(backends)) {
      DBI::dbExecute(con, sprintf("CREATE SERVER backend%d FOREIGN DATA WRAPPER mysql OPTIONS (SOCKET '%s', DATABASE 'synthrisk', USER 'root')",
                                  k, backends[[k]]$socket))
    }
    cluster <<- list(head = head, backends = backends)
    cluster
  }
})

# A connection to the Spider head server where each of `tables` is a Spider table
# partitioned by key over the two backends, its text columns
# VARCHAR with `collation`; closed when the calling test ends.
local_spider <- function(tables, collation = "utf8mb4_general_ci", env = parent.frame()) {
  testthat::skip_on_cran()
  cluster <- spider_mariadb()
  con <- DBI::dbConnect(RMySQL::MySQL(), unix.socket = cluster$head$socket, user = "root", dbname = "synthrisk")
  withr::defer(DBI::dbDisconnect(con), envir = env)
  DBI::dbExecute(con, "SET NAMES utf8mb4")
  write_spider_tables(con, tables, collation)
  con
}

# `tables` written to the Spider head `con`: the records on the backends, the head's
# table partitioned by key, one partition per backend.
write_spider_tables <- function(con, tables, collation = "utf8mb4_general_ci") {
  cluster <- spider_mariadb()
  backend_cons <- lapply(cluster$backends, function(b) {
    DBI::dbConnect(RMySQL::MySQL(), unix.socket = b$socket, user = "root", dbname = "synthrisk")
  })
  on.exit(lapply(backend_cons, DBI::dbDisconnect), add = TRUE)
  for (x in backend_cons) DBI::dbExecute(x, "SET NAMES utf8mb4")
  for (name in names(tables)) {
    staging <- paste0(name, "_staging")
    write_tables(con, stats::setNames(list(tables[[name]]), staging))
    columns <- DBI::dbGetQuery(con, sprintf(paste("SELECT column_name AS name, column_type AS type FROM information_schema.columns",
                                                  "WHERE table_schema = 'synthrisk' AND table_name = '%s' ORDER BY ordinal_position"),
                                            staging))
    # Text as VARCHAR (labels here are short): KEY partitioning takes no TEXT column.
    type <- ifelse(grepl("text", columns$type), sprintf("VARCHAR(100) CHARACTER SET utf8mb4 COLLATE %s", collation), columns$type)
    ddl <- paste(DBI::dbQuoteIdentifier(con, columns$name), type, collapse = ", ")
    quoted <- DBI::dbQuoteIdentifier(con, name)
    for (x in backend_cons) {
      DBI::dbExecute(x, sprintf("DROP TABLE IF EXISTS %s", quoted))
      DBI::dbExecute(x, sprintf("CREATE TABLE %s (%s)", quoted, ddl))
    }
    # The partitioning key: the first number column (few text labels may all hash to
    # one partition), else the first column.
    key <- utils::head(columns$name[!grepl("char|text", type, ignore.case = TRUE)], 1)
    if (length(key) == 0) key <- columns$name[1]
    partitions <- sprintf("PARTITION p%d COMMENT = 'srv \"backend%d\"'", seq_along(backend_cons), seq_along(backend_cons))
    DBI::dbExecute(con, sprintf("DROP TABLE IF EXISTS %s", quoted))
    DBI::dbExecute(con, sprintf("CREATE TABLE %s (%s) ENGINE = SPIDER COMMENT = 'wrapper \"mysql\", table \"%s\"' PARTITION BY KEY (%s) (%s)",
                                quoted, ddl, name, paste(DBI::dbQuoteIdentifier(con, key), collapse = ", "),
                                paste(partitions, collapse = ", ")))
    DBI::dbExecute(con, sprintf("DROP TABLE %s", DBI::dbQuoteIdentifier(con, staging)))
    # Rows as INSERT ... VALUES through the head, which sends each to its partition's
    # backend (an INSERT ... SELECT from a local table put every row in the first
    # partition here).
    value <- as.data.frame(tables[[name]])
    for (first in seq(1L, nrow(value), by = 1000L)) {
      rows <- value[first:min(nrow(value), first + 999L), , drop = FALSE]
      DBI::dbExecute(con, DBI::sqlAppendTable(con, name, rows, row.names = FALSE))
    }
  }
}

# A connection to the test run's MariaDB server holding `tables`; closed when the
# calling test ends.
local_mariadb <- function(tables, env = parent.frame()) {
  testthat::skip_on_cran()
  s <- mariadb_server()
  con <- DBI::dbConnect(RMySQL::MySQL(), unix.socket = s$socket, user = "root", dbname = "synthrisk")
  withr::defer(DBI::dbDisconnect(con), envir = env)
  DBI::dbExecute(con, "SET NAMES utf8mb4")
  write_tables(con, tables)
  con
}

# `tables` written to the coordinator `con` as tables partitioned by hash of their first
# column over the shards' foreign tables.
write_sharded_tables <- function(con, tables) {
  cluster <- sharded_postgres()
  shard_cons <- lapply(cluster$shards, postgres_connect)
  on.exit(lapply(shard_cons, DBI::dbDisconnect), add = TRUE)
  for (x in shard_cons) DBI::dbExecute(x, "SET client_min_messages = warning")
  for (name in names(tables)) {
    staging <- paste0(name, "_staging")
    write_tables(con, stats::setNames(list(tables[[name]]), staging))
    columns <- DBI::dbGetQuery(con, sprintf(paste("SELECT column_name, data_type FROM information_schema.columns",
                                                  "WHERE table_name = '%s' ORDER BY ordinal_position"), staging))
    ddl <- paste(DBI::dbQuoteIdentifier(con, columns$column_name), columns$data_type, collapse = ", ")
    DBI::dbExecute(con, sprintf("DROP TABLE IF EXISTS %s CASCADE", DBI::dbQuoteIdentifier(con, name)))
    DBI::dbExecute(con, sprintf("CREATE TABLE %s (%s) PARTITION BY HASH (%s)", DBI::dbQuoteIdentifier(con, name), ddl,
                                DBI::dbQuoteIdentifier(con, columns$column_name[1])))
    for (k in seq_along(shard_cons)) {
      part <- paste0(name, "_shard", k)
      DBI::dbExecute(shard_cons[[k]], sprintf("DROP TABLE IF EXISTS %s", DBI::dbQuoteIdentifier(con, part)))
      DBI::dbExecute(shard_cons[[k]], sprintf("CREATE TABLE %s (%s)", DBI::dbQuoteIdentifier(con, part), ddl))
      DBI::dbExecute(con, sprintf(paste("CREATE FOREIGN TABLE %s PARTITION OF %s FOR VALUES WITH (MODULUS %d, REMAINDER %d)",
                                        "SERVER shard%d OPTIONS (table_name '%s')"),
                                  DBI::dbQuoteIdentifier(con, part), DBI::dbQuoteIdentifier(con, name),
                                  length(shard_cons), k - 1L, k, part))
    }
    DBI::dbExecute(con, sprintf("INSERT INTO %s SELECT * FROM %s", DBI::dbQuoteIdentifier(con, name),
                                DBI::dbQuoteIdentifier(con, staging)))
    DBI::dbExecute(con, sprintf("DROP TABLE %s", DBI::dbQuoteIdentifier(con, staging)))
    # The coordinator's planner pushes aggregates to the shards when it knows their sizes.
    DBI::dbExecute(con, sprintf("ANALYZE %s", DBI::dbQuoteIdentifier(con, name)))
  }
}

# Labels a database may compare differently from R: case, trailing spaces, NA against
# "Missing" and against the empty string, quote characters; as tables in `con`, written by `write` (text columns then
# given `collation`, SQL, when not NULL), counted by multi.disclosure(), disclosure() with exclusions naming such
# labels, and the holdout: every number equal to the collected tables'.
check_tricky_labels_on <- function(con, collation = NULL, write = write_tables) {
  local_quiet_labels()
  set.seed(31)
  labels <- c("MALE", "male", "male ", NA, "", "Missing", "O'Brien", "say \"hi\"", "back\\slash")
  make <- function(n) {
    data.frame(sex = sample(labels, n, TRUE), age = sample(1:4, n, TRUE),
               t = sample(c("a", "A", "a ", "it's", NA), n, TRUE), u = sample(c("x", "X", "y"), n, TRUE),
               stringsAsFactors = FALSE)
  }
  tables <- list(tricky_d = make(300), tricky_c = make(100), tricky_s1 = make(250), tricky_s2 = make(280))
  write(con, tables)
  if (!is.null(collation)) {
    for (name in names(tables)) {
      for (v in c("sex", "t", "u")) DBI::dbExecute(con, sprintf(collation, name, v))
    }
  }
  syn <- db_tables(con, c("tricky_s1", "tricky_s2"))
  data <- dplyr::tbl(con, "tricky_d")
  # The database holds the labels as written.
  for (v in c("sex", "t", "u")) {
    expect_identical(sort(dplyr::pull(data, !!v), na.last = TRUE), sort(tables$tricky_d[[v]], na.last = TRUE),
                     label = paste("labels of", v, "as held"))
  }
  expect_same_as_collected(multi.disclosure, syn, data, keys = c("sex", "age"), print.flag = FALSE, plot = FALSE,
                           parts = multi_parts, label = "tricky multi")
  expect_same_as_collected(disclosure, syn[[1]], data, keys = c("sex", "age"), target = "t",
                           exclude.keys = "sex", exclude.keylevs = "O'Brien", exclude.targetlevs = "it's",
                           not.targetlev = "A", print.flag = FALSE, label = "tricky exclusions")
  expect_same_as_collected(disclosure, syn[[2]], data, keys = c("sex", "age"), target = "u",
                           control = dplyr::tbl(con, "tricky_c"), print.flag = FALSE, label = "tricky holdout")
}

# The tables of the key sweep's database tests: SD2011 with three candidate keys and
# three targets (one numeric, with a cont.na code), and two syntheses.
key_sweep_tables <- function() {
  cols <- c("sex", "age", "region", "depress", "marital", "income")
  list(ks_d = sd2011[cols], ks_s1 = sd2011_synds5$syn[[1]][cols], ks_s2 = sd2011_synds5$syn[[2]][cols])
}

key_sweep_parts <- function(x) x[c("estimate", "worst", "shares", "Norig", "Nsyn")]

# key_sweep() on the tables of key_sweep_tables() (written to `con`): every subset's
# measures equal to the collected tables', from the queries of one multi.disclosure()
# with every candidate key and a constant one (the empty set), whatever the subsets.
check_key_sweep_on <- function(con) {
  keys <- c("sex", "age", "region")
  syn <- db_tables(con, c("ks_s1", "ks_s2"))
  data <- dplyr::tbl(con, "ks_d")
  args <- list(cont.na = list(income = -8), ngroups_targets = c(income = 5))
  ks <- do.call(expect_same_as_collected, c(list(key_sweep, syn, data, keys = keys, sizes = 0:3), args,
                                            list(parts = key_sweep_parts, label = "key_sweep")))
  expect_identical(length(ks$subsets), 8L)
  md <- do.call(multi.disclosure, c(list(lapply(syn, function(s) dplyr::mutate(s, synthrisk_no_key = 1L)),
                                         dplyr::mutate(data, synthrisk_no_key = 1L),
                                         keys = c(keys, "synthrisk_no_key")), args,
                                    list(print.flag = FALSE, plot = FALSE)))
  expect_identical(ks$database[c("dataset", "query", "targets")], md$database[c("dataset", "query", "targets")])
  expect_true(any(grepl("GROUP BY quer", format(ks), fixed = TRUE)))
  invisible(ks)
}
