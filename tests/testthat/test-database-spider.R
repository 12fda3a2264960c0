# Database tables on MariaDB's Spider engine (a head server and two backend servers
# started by the test run, see helper-database.R): each table partitioned by key over
# the backends, which hold the records. MariaDB's default collation merges labels that
# differ in case or trailing spaces, so such a column stops the call by name; with a
# NO PAD binary collation every number equals that of the collected tables.

keys4 <- c("sex", "age", "region", "placesize")
sd_columns <- c(keys4, "depress", "marital", "workab", "income")

test_that("multi.disclosure() and disclosure() with exclusions on Spider tables equal the collected tables", {
  con <- local_spider(list(sd2011 = sd2011[, sd_columns], s5_1 = sd2011_synds5$syn[[1]][, sd_columns],
                           s5_2 = sd2011_synds5$syn[[2]][, sd_columns]))
  data <- dplyr::tbl(con, "sd2011")
  expect_identical(dplyr::pull(dplyr::count(data), n), as.numeric(nrow(sd2011)))
  # The backends hold the records, split between them.
  held <- vapply(spider_mariadb()$backends, function(b) {
    x <- DBI::dbConnect(RMySQL::MySQL(), unix.socket = b$socket, user = "root", dbname = "synthrisk")
    on.exit(DBI::dbDisconnect(x))
    as.numeric(DBI::dbGetQuery(x, "SELECT COUNT(*) FROM sd2011")[[1]])
  }, numeric(1))
  expect_identical(sum(held), as.numeric(nrow(sd2011)))
  expect_true(all(held > 0))
  expect_identical(DBI::dbGetQuery(con, paste("SELECT engine FROM information_schema.tables",
                                              "WHERE table_schema = 'synthrisk' AND table_name = 'sd2011'"))$engine,
                   "SPIDER")
  expect_same_as_collected(multi.disclosure, db_tables(con, c("s5_1", "s5_2")), data, keys = keys4,
                           cont.na = list(income = -8), ngroups_targets = c(income = 10),
                           print.flag = FALSE, plot = FALSE, parts = multi_parts)
  expect_same_as_collected(disclosure, dplyr::tbl(con, "s5_1"), data, keys = keys4, target = "marital",
                           exclude.keys = "sex", exclude.keylevs = "MALE", exclude.targetlevs = "SINGLE",
                           print.flag = FALSE)
})

test_that("the holdout on Spider tables equals the collected tables", {
  parts <- holdout_split(sd2011[, c(keys4, "depress", "marital")], prop = 0.2, seed = 3)
  con <- local_spider(list(train = parts$train, control = parts$control,
                           syn = sd2011_synds$syn[, c(keys4, "depress", "marital")]))
  expect_same_as_collected(disclosure, dplyr::tbl(con, "syn"), dplyr::tbl(con, "train"), keys = keys4,
                           target = "marital", control = dplyr::tbl(con, "control"), print.flag = FALSE)
})

test_that("labels differing only in case or trailing spaces stop the call on Spider's default collation", {
  data <- data.frame(sex = c("MALE", "male", "male ", "female", "female"), age = c(1L, 1L, 2L, 2L, 1L),
                     t = c("a", "b", "a", "b", "b"), stringsAsFactors = FALSE)
  con <- local_spider(list(d = data))
  expect_error(disclosure(dplyr::tbl(con, "d"), dplyr::tbl(con, "d"), keys = c("sex", "age"), target = "t",
                          print.flag = FALSE),
               "labels of \"sex\" in .* differently from R: it counts 2 distinct labels among 4 distinct texts")
})

test_that("with a NO PAD binary collation, labels differing in case or trailing spaces, NA and Missing, and quotes count as collected on Spider", {
  con <- local_spider(list())
  check_tricky_labels_on(con, write = function(con, tables) write_spider_tables(con, tables, "utf8mb4_nopad_bin"))
})

test_that("key_sweep() on MariaDB Spider equals the collected tables", {
  con <- local_spider(key_sweep_tables())
  check_key_sweep_on(con)
})
