# Database tables on SQLite (in memory): the database counts the cells, and every
# number equals that of the same tables collected into R.

keys4 <- c("sex", "age", "region", "placesize")

test_that("the SD2011 fixtures on SQLite tables equal the collected tables and synthpop's numbers", {
  skip_on_cran()
  con <- local_sqlite(sd2011_tables())
  check_golden_cases_on(con)
})

test_that("random cases on SQLite tables equal the collected tables (holdout, grouping, exclusions)", {
  con <- local_sqlite(list())
  check_random_cases_on(con, random_cases(60, cran = 5))
})

test_that("multi.disclosure() and tau_curve() on SQLite SD2011 (m = 5) equal the collected tables", {
  con <- local_sqlite(sd2011_tables())
  syn <- db_tables(con, paste0("s5_", 1:5))
  data <- dplyr::tbl(con, "sd2011")
  md <- expect_same_as_collected(multi.disclosure, syn, data, keys = keys4, cont.na = list(income = -8),
                                 ngroups_targets = c(income = 10, depress = 4), ngroups_keys = c(0, 5, 0, 0),
                                 not.targetslev = list(workab = "NO"), usetargetsNA = c(TRUE, FALSE, TRUE, TRUE, TRUE),
                                 usekeysNA = c(TRUE, TRUE, FALSE, TRUE), exclude.keys = list(marital = "sex"),
                                 exclude.keylevs = list(marital = "MALE"), exclude.targetlevs = list(marital = "SINGLE"),
                                 exclude_ov_denom_lim = TRUE, denom_lim = 3, print.flag = FALSE, plot = FALSE,
                                 parts = multi_parts)
  # Per table: each target's levels; one pivot counting the
  # levels of the targets with few (per key tuple); income (many levels) on its own.
  db <- md$database
  expect_identical(nrow(db), 6L * 4L)
  # First the label check of the text columns, one row per column.
  labels <- db[db$query == "labels", ]
  text <- names(Filter(is.character, dplyr::collect(utils::head(dplyr::tbl(con, "sd2011"), 0))))
  expect_identical(labels$targets, rep(paste(intersect(c(keys4, "depress", "income", "ls", "marital", "workab"), text),
                                             collapse = ", "), 6))
  expect_identical(labels$rows, rep(length(intersect(c(keys4, "depress", "income", "ls", "marital", "workab"), text)), 6))
  expect_equal(md$input$rows[1], sum(db$rows[db$dataset == "original"]))
  original <- db[db$dataset == "original" & db$query != "labels", ]
  # income has 407 levels over 3,459 key tuples of 5,000 records: its cells would be
  # nearly one per record (4,799), so its rows are read as they are.
  expect_identical(original$query, c("levels", "pivot", "rows"))
  targets <- c("depress", "income", "ls", "marital", "workab")
  expect_identical(original$targets, c(paste(targets, collapse = ", "), "depress, ls, marital, workab", "income"))
  distinct_rows <- function(d, vars) nrow(unique(as.data.frame(d)[vars]))
  expect_identical(original$rows[1], distinct_rows(sd2011, targets))
  expect_identical(original$rows[2], distinct_rows(sd2011, keys4))
  expect_identical(original$rows[3], nrow(sd2011))
  expect_gt(distinct_rows(sd2011, c(keys4, "income")), nrow(sd2011) / 2)
  expect_identical(md$input$source, rep("database", 6))
  expect_identical(md$input$records, rep(5000, 6))
  expect_match(gsub("\\s+", " ", paste(capture.output(print(md, plot = FALSE)), collapse = " ")),
               "Counted in the database: original \\(5,000 records\\), synthesis 1 \\(5,000 records\\)")

  tc <- expect_same_as_collected(tau_curve, syn, data, keys = keys4, targets = c("depress", "income"),
                                 cont.na = list(income = -8), ngroups_targets = c(income = 10),
                                 tau = c(0, 0.5, 1), parts = function(x) list(as.data.frame(x), attributes(x)))
  expect_identical(attr(tc, "n_orig"), 5000L)
})

test_that("counts arrive in chunks of any size with the same numbers", {
  con <- local_sqlite(sd2011_tables())
  run <- function() {
    disclosure(dplyr::tbl(con, "s1"), dplyr::tbl(con, "sd2011"), keys = keys4, target = "income",
               cont.na = list(income = -8), ngroups_target = 7, print.flag = FALSE)
  }
  whole <- run()
  small <- withr::with_options(list(synthrisk.fetch_rows = 37), run())
  expect_equal(result_parts(small), result_parts(whole), tolerance = 0)
  expect_error(withr::with_options(list(synthrisk.fetch_rows = 0), run()), "synthrisk.fetch_rows")
})

test_that("lazy queries, mixed sources and counted cells combine with database tables", {
  con <- local_sqlite(sd2011_tables())
  data <- dplyr::filter(dplyr::tbl(con, "sd2011"), age >= 30)
  syn <- dplyr::tbl(con, "s1")
  d <- expect_same_as_collected(disclosure, syn, data, keys = keys4, target = "marital", print.flag = FALSE)
  expect_identical(d$Norig, sum(sd2011$age >= 30))
  # The original in the database, the synthesis as records or as counted cells.
  d_rec <- expect_same_as_collected(disclosure, sd2011_synds$syn, dplyr::tbl(con, "sd2011"), keys = keys4,
                                    target = "depress", print.flag = FALSE)
  expect_identical(d_rec$input$source, c("database", "records"))
  cells <- as_cells(sd2011_synds$syn, c(keys4, "depress"), split = TRUE)
  d_cells <- disclosure(cells, dplyr::tbl(con, "sd2011"), keys = keys4, target = "depress", print.flag = FALSE)
  expect_equal(result_parts(d_cells), result_parts(d_rec), tolerance = 1e-9)
  expect_identical(d_cells$input$source, c("database", "counted cells"))
})

test_that("database tables name a missing or ungroupable column and refuse record-level analyses", {
  con <- local_sqlite(c(sd2011_tables(), list(blobs = data.frame(sex = "MALE", age = 1, region = "A", placesize = "B"))))
  DBI::dbExecute(con, "ALTER TABLE blobs ADD COLUMN depress BLOB")
  DBI::dbExecute(con, "UPDATE blobs SET depress = x'0102'")
  data <- dplyr::tbl(con, "sd2011")
  expect_error(disclosure(dplyr::tbl(con, "s1"), data, keys = keys4, target = "incme", print.flag = FALSE),
               "`target` names variables not in `data`: \"incme\"")
  expect_error(disclosure(dplyr::select(dplyr::tbl(con, "s1"), -region), data, keys = keys4, target = "depress",
                          print.flag = FALSE),
               "The synthetic data must have every key and target; \"region\" is missing")
  expect_error(disclosure(dplyr::tbl(con, "blobs"), data, keys = keys4, target = "depress", print.flag = FALSE),
               "Variable \"depress\" in the synthetic data \\(`object`\\) is a list column")
  expect_error(record_risk(dplyr::tbl(con, "s1"), data, keys4, target = "depress"),
               "`record_risk\\(\\)` needs the records themselves; `object` is a database table")
  expect_error(record_risk(sd2011_synds, data, keys4), "`data` is a database table")
  expect_error(size_curve(list(dplyr::tbl(con, "s1")), sd2011, keys4), "`size_curve\\(\\)` needs the records")
  expect_error(identification_risk(dplyr::tbl(con, "s1"), sd2011, "sex", "depress"), "database table")
  expect_error(replicated.uniques(dplyr::tbl(con, "s1"), sd2011, keys4), "database table")
  empty <- dplyr::filter(dplyr::tbl(con, "s1"), age > 1000)
  expect_error(disclosure(empty, data, keys = keys4, target = "depress", print.flag = FALSE),
               "The synthetic data \\(`object`\\) has no records")
})

test_that("targets of many value combinations have their levels counted one by one, with the same numbers", {
  set.seed(5)
  n <- 30000
  make <- function() {
    data.frame(k1 = sample(letters[1:4], n, TRUE), k2 = sample(1:3, n, TRUE), a = sample(1:150, n, TRUE),
               b = sample(sprintf("v%03d", 1:150), n, TRUE), c = sample(c(TRUE, FALSE, NA), n, TRUE))
  }
  con <- local_sqlite(list(orig = make(), syn = make()))
  md <- expect_same_as_collected(multi.disclosure, dplyr::tbl(con, "syn"), dplyr::tbl(con, "orig"),
                                 keys = c("k1", "k2"), print.flag = FALSE, plot = FALSE, parts = multi_parts)
  original <- md$database[md$database$dataset == "original", ]
  expect_identical(original$query[1], "labels")
  expect_identical(original$targets[1], "k1, b")
  original <- original[-1, ]
  # More than 10,000 combinations of a, b and c: each target's levels alone; a and b
  # have more than 64 levels (counted on their own), c few (a pivot).
  expect_identical(original$query, c("levels", "levels", "levels", "pivot", "cells", "cells"))
  expect_identical(original$targets, c("a", "b", "c", "c", "a", "b"))
})

test_that("a collation that merges labels R keeps apart stops the call, naming the column and why", {
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con), add = TRUE)
  rows <- "('MALE', 1, 'a'), ('male', 1, 'b'), ('male ', 2, 'a'), ('female', 2, 'b')"
  for (collation in c("NOCASE", "RTRIM", "BINARY")) {
    DBI::dbExecute(con, sprintf("CREATE TABLE d_%s (sex TEXT COLLATE %s, age INTEGER, t TEXT)", collation, collation))
    DBI::dbExecute(con, sprintf("INSERT INTO d_%s VALUES %s", collation, rows))
  }
  DBI::dbExecute(con, "CREATE TABLE s (sex TEXT, age INTEGER, t TEXT)")
  DBI::dbExecute(con, "INSERT INTO s VALUES ('male', 1, 'a'), ('MALE', 1, 'a'), ('female', 2, 'b')")
  syn <- dplyr::tbl(con, "s")
  for (collation in c("NOCASE", "RTRIM")) {
    expect_error(disclosure(syn, dplyr::tbl(con, paste0("d_", collation)), keys = c("sex", "age"), target = "t",
                            print.flag = FALSE),
                 "labels of \"sex\" in `data` differently from R: it counts . distinct labels among 4 distinct texts")
  }
  expect_error(multi.disclosure(syn, dplyr::tbl(con, "d_NOCASE"), keys = c("sex", "age"), print.flag = FALSE,
                                plot = FALSE), "collation ignores case or trailing spaces")
  # The binary collation compares as R does: the same numbers as the collected tables.
  d <- disclosure(syn, dplyr::tbl(con, "d_BINARY"), keys = c("sex", "age"), target = "t", print.flag = FALSE)
  collected <- disclosure(dplyr::collect(syn), dplyr::collect(dplyr::tbl(con, "d_BINARY")), keys = c("sex", "age"),
                          target = "t", print.flag = FALSE)
  expect_equal(d$ident, collected$ident)
  expect_equal(d$attrib, collected$attrib)
})

test_that("labels differing in case or trailing spaces, NA and Missing, and quotes count as collected", {
  con <- local_sqlite(list())
  check_tricky_labels_on(con)
})

# `fn` of the package traced so that `tracer` (an expression in its frame) runs first;
# untraced when the calling test ends. Simulates a server lost in the middle of a call.
local_trace <- function(fn, tracer, env = parent.frame()) {
  ns <- asNamespace("synthrisk")
  suppressMessages(trace(fn, tracer = tracer, where = ns, print = FALSE))
  withr::defer(suppressMessages(untrace(fn, where = ns)), envir = env)
}

# An SQLite database of `tables` that a test may close; closed at the end if still open.
local_sqlite_to_lose <- function(tables, env = parent.frame()) {
  skip_without_packages(c("DBI", "dplyr", "dbplyr", "RSQLite"))
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  withr::defer(if (DBI::dbIsValid(con)) DBI::dbDisconnect(con), envir = env)
  write_tables(con, tables)
  con
}

plain_message <- function(cnd) gsub("\\s+", " ", cli::ansi_strip(conditionMessage(cnd)))

small_tables <- function() {
  list(o = data.frame(a = c(1, 2, 2, 3), b = c("x", "y", "x", "y")),
       s = data.frame(a = c(1, 2, 3, 3), b = c("x", "y", "y", "y")))
}

test_that("a connection closed before the call is said before any query, naming the argument (issue 37)", {
  con <- local_sqlite_to_lose(small_tables())
  o <- dplyr::tbl(con, "o")
  s <- dplyr::tbl(con, "s")
  DBI::dbDisconnect(con)
  cnd <- expect_error(disclosure(s, o, keys = "a", target = "b", print.flag = FALSE), class = "rlang_error")
  expect_match(plain_message(cnd), "`data` is a database table whose connection is closed (`DBI::dbIsValid()` is `FALSE`)",
               fixed = TRUE)
  con2 <- local_sqlite(small_tables())
  cnd <- expect_error(multi.disclosure(s, dplyr::tbl(con2, "o"), keys = "a", print.flag = FALSE, plot = FALSE))
  expect_match(plain_message(cnd), "The synthetic data (`object`) is a database table whose connection is closed",
               fixed = TRUE)
})

test_that("a connection lost in the middle of a call gives the driver's message and the query, blaming no column (issue 37)", {
  con <- local_sqlite_to_lose(small_tables())
  o <- dplyr::tbl(con, "o")
  s <- dplyr::tbl(con, "s")
  # Lost at the first counting query, after the checks before counting have passed.
  local_trace("fetch_in_chunks", quote(if (grepl("GROUP BY", sql) && DBI::dbIsValid(con)) DBI::dbDisconnect(con)))
  cnd <- expect_error(disclosure(s, o, keys = "a", target = "b", print.flag = FALSE), class = "rlang_error")
  msg <- plain_message(cnd)
  expect_match(msg, "^The database failed to count `data`: Invalid or closed connection")
  expect_match(msg, "The query: SELECT b, COUNT(*) ... GROUP BY b.", fixed = TRUE)
  expect_match(msg, "The connection is closed or lost", fixed = TRUE)
  expect_no_match(msg, "cannot count variable", fixed = TRUE)
  expect_no_match(msg, "Keys and targets must be columns", fixed = TRUE)
})

test_that("a connection lost during the label check is said so, naming the query (issue 37)", {
  con <- local_sqlite_to_lose(small_tables())
  local_trace("db_label_counts", quote(if (DBI::dbIsValid(con)) DBI::dbDisconnect(con)))
  cnd <- expect_error(disclosure(dplyr::tbl(con, "s"), dplyr::tbl(con, "o"), keys = "a", target = "b",
                                 print.flag = FALSE), class = "rlang_error")
  msg <- plain_message(cnd)
  expect_match(msg, "^The database failed to check the labels of `data`: Invalid or closed connection")
  expect_match(msg, "(query \"labels\")", fixed = TRUE)
  expect_no_match(msg, "Keys and targets must be columns", fixed = TRUE)
})

test_that("a table that no longer reads blames no column; a column that fails alone is named with the hint (issue 37)", {
  con <- local_sqlite(small_tables())
  o <- dplyr::tbl(con, "o")
  local_trace("fetch_in_chunks", quote(if (grepl("GROUP BY", sql) && DBI::dbExistsTable(con, "o")) {
    DBI::dbRemoveTable(con, "o")
  }))
  cnd <- expect_error(disclosure(dplyr::tbl(con, "s"), o, keys = "a", target = "b", print.flag = FALSE))
  msg <- plain_message(cnd)
  expect_match(msg, "^The database failed to count `data`: no such table: o")
  expect_match(msg, "Counting the table's rows without grouping failed too, so no column is at fault", fixed = TRUE)
  expect_no_match(msg, "Keys and targets must be columns", fixed = TRUE)
  # A column whose values fail only when grouped (malformed JSON read in the query) is
  # the column's fault: named, with the hint.
  DBI::dbWriteTable(con, "j", data.frame(a = c(1, 2, 2, 3), b = c("[1]", "{bad", "[2]", "[1]")))
  j <- dplyr::tbl(con, dplyr::sql("SELECT a, json_extract(b, '$[0]') AS b FROM j"))
  cnd <- expect_error(multi.disclosure(j, j, keys = "a", targets = "b", print.flag = FALSE, plot = FALSE))
  msg <- plain_message(cnd)
  expect_match(msg, "The database cannot count variable \"b\" of `data` \\(GROUP BY b\\)\\. . malformed JSON")
  expect_match(msg, "Keys and targets must be columns the database can group", fixed = TRUE)
})

test_that("integer64 columns from the database (BIGINT as bit64) group and count as the collected numbers (issue 37)", {
  skip_without_packages(c("DBI", "dplyr", "dbplyr", "RSQLite", "bit64"))
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:", bigint = "integer64")
  withr::defer(DBI::dbDisconnect(con))
  set.seed(64)
  draw <- function() data.frame(k = sample(1:4, 300, TRUE), big = sample(c(3e9, 4e9, 5e9, 6e9), 300, TRUE),
                                t = sample(1:3, 300, TRUE))
  d <- draw()
  s <- draw()
  as64 <- function(x) transform(x, big = bit64::as.integer64(big))
  write_tables(con, list(d = as64(d), s = as64(s)))
  o <- dplyr::tbl(con, "d")
  expect_true(inherits(dplyr::collect(o)$big, "integer64"))
  got <- multi.disclosure(dplyr::tbl(con, "s"), o, keys = c("k", "big"), ngroups_keys = c(0, 2), print.flag = FALSE,
                          plot = FALSE)
  want <- multi.disclosure(s, d, keys = c("k", "big"), ngroups_keys = c(0, 2), print.flag = FALSE, plot = FALSE)
  expect_true(got$grouping$big$grouped)
  expect_equal(got$ident.table, want$ident.table)
  expect_equal(got$attrib.table, want$attrib.table)
})

test_that("key_sweep() on SQLite tables equals the collected tables, from the queries of one multi.disclosure()", {
  con <- local_sqlite(key_sweep_tables())
  check_key_sweep_on(con)
})

test_that("a target of many levels over keys that leave most records alone is read as rows, with the same numbers", {
  set.seed(7)
  make <- function(n) data.frame(a = sample(30, n, TRUE), b = sample(20, n, TRUE), t3 = sample(3, n, TRUE),
                                 t90 = sample(90, n, TRUE))
  con <- local_sqlite(list(d = make(400), s = make(350)))
  md <- expect_same_as_collected(multi.disclosure, dplyr::tbl(con, "s"), dplyr::tbl(con, "d"), keys = c("a", "b"),
                                 print.flag = FALSE, plot = FALSE, parts = multi_parts)
  # t3 by the pivot (which says there are many key tuples), t90 read as it is.
  expect_identical(md$database$query[md$database$targets == "t90"], c("rows", "rows"))
  expect_identical(md$database$rows[md$database$query == "rows"], c(400L, 350L))
  expect_match(paste(format(md), collapse = " "), "read\\s+750 records as they are")
  # Few records per level (a target of 3 levels over 2 keys of 2 levels): grouped as before.
  expect_false(synthrisk:::many_cells(4, 400, c(130, 140, 130)))
  expect_true(synthrisk:::many_cells(350, 400, rep(5, 80)))
  expect_false(synthrisk:::many_cells(NA, 400, rep(5, 80)))
})
