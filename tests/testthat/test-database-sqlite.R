# Database tables on SQLite (in memory): the database counts the cells, and every
# number equals that of the same tables collected into R.

keys4 <- c("sex", "age", "region", "placesize")

test_that("the SD2011 fixtures on SQLite tables equal the collected tables and synthpop's numbers", {
  con <- local_sqlite(sd2011_tables())
  check_golden_cases_on(con)
})

test_that("random cases on SQLite tables equal the collected tables (holdout, grouping, exclusions)", {
  con <- local_sqlite(list())
  check_random_cases_on(con, 1:60)
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
  # Only counts came back: per target and table, one row per (keys, target) cell.
  db <- md$database
  expect_identical(nrow(db), 5L * 6L)
  distinct_cells <- function(d, vars) nrow(unique(as.data.frame(d)[vars]))
  expect_identical(db$cells[db$dataset == "original" & db$target == "ls"],
                   distinct_cells(sd2011, c(keys4, "ls")))
  expect_identical(db$records, rep(5000, 30))
  expect_identical(md$input$source, rep("database", 6))
  expect_equal(md$input$rows[1], sum(db$cells[db$dataset == "original"]))
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
