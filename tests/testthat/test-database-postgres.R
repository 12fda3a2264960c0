# Database tables on a real PostgreSQL server (started for the test run in a temporary
# directory, see helper-database.R): every number equals that of the same tables
# collected into R, and the fixtures give synthpop's numbers.

keys4 <- c("sex", "age", "region", "placesize")

test_that("the SD2011 fixtures on PostgreSQL tables equal the collected tables and synthpop's numbers", {
  con <- local_postgres(sd2011_tables())
  check_golden_cases_on(con)
})

test_that("random cases on PostgreSQL tables equal the collected tables (holdout, grouping, exclusions)", {
  con <- local_postgres(list())
  check_random_cases_on(con, 1:40)
})

test_that("multi.disclosure() on PostgreSQL SD2011 (m = 5) with grouping and exclusions equals the collected tables", {
  con <- local_postgres(sd2011_tables())
  syn <- db_tables(con, paste0("s5_", 1:5))
  data <- dplyr::tbl(con, "sd2011")
  md <- expect_same_as_collected(multi.disclosure, syn, data, keys = keys4, cont.na = list(income = -8),
                                 ngroups_targets = c(income = 10), ngroups_keys = c(0, 6, 0, 0),
                                 not.targetslev = list(workab = "NO"), usetargetsNA = FALSE,
                                 exclude.keys = list(marital = "region"), exclude.keylevs = list(marital = "Mazowieckie"),
                                 exclude.targetlevs = list(marital = "SINGLE"), print.flag = FALSE, plot = FALSE,
                                 parts = multi_parts)
  expect_identical(md$input$records, rep(5000, 6))
  # One query per table for the levels of every target, one pivot.
  expect_identical(as.vector(table(md$database$query)[c("levels", "pivot")]), c(6L, 6L))
  tc <- expect_same_as_collected(tau_curve, syn, data, keys = keys4, targets = c("ls", "income"),
                                 cont.na = list(income = -8), ngroups_targets = c(income = 5),
                                 parts = function(x) list(as.data.frame(x), attributes(x)))
})

test_that("PostgreSQL column types (integer, bigint, double with NaN and Infinity, text, boolean, date, timestamp) count as collected", {
  con <- local_postgres(list())
  make <- function(name, seed) {
    set.seed(seed)
    # setseed() returns void, which RPostgreSQL warns it cannot read.
    suppressWarnings(DBI::dbGetQuery(con, sprintf("SELECT setseed(%f)", seed / 10)))
    DBI::dbExecute(con, sprintf(paste(
      "CREATE TABLE %s AS SELECT",
      "(random() * 3)::int AS k_int, (random() * 2)::bigint + 5000000000 AS k_big,",
      "CASE WHEN random() < 0.1 THEN NULL WHEN random() < 0.5 THEN 'a' ELSE 'b' END AS k_text,",
      "random() < 0.4 AS k_bool, DATE '2020-01-01' + (random() * 3)::int AS k_date,",
      "TIMESTAMP '2020-01-01 10:00:00' + (random() * 2)::int * INTERVAL '90 minutes' AS k_time,",
      "CASE WHEN random() < 0.05 THEN 'NaN'::float8 WHEN random() < 0.05 THEN 'Infinity'::float8",
      "WHEN random() < 0.05 THEN NULL ELSE round((random() * 100)::numeric, 1)::float8 END AS t_num,",
      "CASE WHEN random() < 0.1 THEN NULL ELSE (random() * 4)::int::text END AS t_text",
      "FROM generate_series(1, %d)"), name, sample(300:500, 1)))
  }
  make("typed_orig", 1)
  make("typed_syn", 2)
  orig <- dplyr::tbl(con, "typed_orig")
  syn <- dplyr::tbl(con, "typed_syn")
  collected_orig <- dplyr::collect(orig)
  expect_true(any(is.nan(collected_orig$t_num)))
  expect_true(any(is.infinite(collected_orig$t_num)))
  expect_s3_class(collected_orig$k_date, "Date")
  expect_s3_class(collected_orig$k_time, "POSIXct")
  expect_type(collected_orig$k_bool, "logical")
  for (keys in list(c("k_int", "k_text", "k_bool"), c("k_big", "k_date", "k_time"), c("k_text", "k_date"))) {
    for (target in c("t_num", "t_text")) {
      for (ngroups in if (target == "t_num") c(0, 4) else 0) {
        expect_same_as_collected(disclosure, syn, orig, keys = keys, target = target, ngroups_target = ngroups,
                                 print.flag = FALSE, label = paste(c(keys, target, ngroups), collapse = " "))
      }
    }
  }
})

test_that("a column PostgreSQL cannot group is an error naming it", {
  con <- local_postgres(list())
  DBI::dbExecute(con, "CREATE TABLE with_json AS SELECT g % 3 AS k, ('{\"a\": ' || (g % 2) || '}')::json AS doc FROM generate_series(1, 20) g")
  tab <- suppressWarnings(dplyr::tbl(con, "with_json"))
  err <- expect_error(suppressWarnings(disclosure(tab, tab, keys = "k", target = "doc", print.flag = FALSE)),
                      "The database cannot count variable \"doc\" of `data`")
  expect_match(conditionMessage(err), "could not identify an equality operator for type json")
})

test_that("a target whose levels the database cannot match exactly is counted on its own, with the same numbers", {
  con <- local_postgres(list())
  # numeric (decimal) values with more digits than a double holds: R reads each as the
  # nearest double, which, written back, is not equal to the stored value.
  DBI::dbExecute(con, paste("CREATE TABLE decimals AS SELECT g % 4 AS k,",
                            "(0.12345678901234567891 + (g % 3))::numeric AS t FROM generate_series(1, 60) g"))
  tab <- dplyr::tbl(con, "decimals")
  d <- expect_same_as_collected(disclosure, tab, tab, keys = "k", target = "t", print.flag = FALSE)
  expect_identical(d$database$query, c("levels", "pivot", "cells", "levels", "pivot", "cells"))
  expect_identical(d$Norig, 60L)
})

test_that("labels differing in case or trailing spaces, NA and Missing, and quotes count as collected", {
  con <- local_postgres(list())
  check_tricky_labels_on(con)
})

test_that("a PostgreSQL nondeterministic (case-insensitive) collation stops the call by name; deterministic ones need no scan", {
  con <- local_postgres(list())
  DBI::dbExecute(con, "SET client_min_messages = warning")
  data <- data.frame(sex = c("MALE", "male", "female", "female"), age = c(1L, 1L, 2L, 1L), t = c("a", "b", "a", "b"),
                     stringsAsFactors = FALSE)
  write_tables(con, list(labels_plain = data))
  # Deterministic collations only: the catalog says so and no column is scanned.
  d <- disclosure(dplyr::tbl(con, "labels_plain"), dplyr::tbl(con, "labels_plain"), keys = c("sex", "age"),
                  target = "t", print.flag = FALSE)
  expect_identical(d$database$rows[d$database$query == "labels"], c(0L, 0L))
  DBI::dbExecute(con, "DROP TABLE IF EXISTS labels_ci")
  DBI::dbExecute(con, "DROP COLLATION IF EXISTS synthrisk_ci")
  DBI::dbExecute(con, "CREATE COLLATION synthrisk_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false)")
  withr::defer(DBI::dbExecute(con, "DROP COLLATION IF EXISTS synthrisk_ci CASCADE"))
  DBI::dbExecute(con, "CREATE TABLE labels_ci AS SELECT sex COLLATE synthrisk_ci AS sex, age, t FROM labels_plain")
  expect_identical(nrow(DBI::dbGetQuery(con, "SELECT sex FROM labels_ci GROUP BY sex")), 2L)
  ci <- dplyr::tbl(con, "labels_ci")
  expect_error(disclosure(ci, ci, keys = c("sex", "age"), target = "t", print.flag = FALSE),
               "labels of \"sex\" in .* differently from R: it counts 2 distinct labels among 3 distinct texts")
  # With such a collation in the database, every text column is scanned.
  d <- disclosure(dplyr::tbl(con, "labels_plain"), dplyr::tbl(con, "labels_plain"), keys = c("sex", "age"),
                  target = "t", print.flag = FALSE)
  expect_identical(d$database$rows[d$database$query == "labels"], c(2L, 2L))
})

test_that("key_sweep() on PostgreSQL equals the collected tables, from the queries of one multi.disclosure()", {
  con <- local_postgres(key_sweep_tables())
  check_key_sweep_on(con)
})
