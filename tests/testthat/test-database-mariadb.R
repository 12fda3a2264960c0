# Database tables on MariaDB (a server started for the test run, see helper-database.R),
# whose default collation compares text case-insensitively and pads trailing spaces: the
# labels are checked before counting (R/database-labels.R), so a column whose labels
# the database would merge stops the call by name, and tables whose labels it keeps
# apart count as collected.

keys4 <- c("sex", "age", "region", "placesize")

test_that("SD2011 on MariaDB equals the collected tables (its labels differ in more than case)", {
  con <- local_mariadb(list(sd2011 = sd2011[, c(keys4, "depress", "marital", "workab")],
                            s1 = sd2011_synds$syn[, c(keys4, "depress", "marital", "workab")]))
  expect_same_as_collected(multi.disclosure, dplyr::tbl(con, "s1"), dplyr::tbl(con, "sd2011"), keys = keys4,
                           print.flag = FALSE, plot = FALSE, parts = multi_parts)
  expect_same_as_collected(disclosure, dplyr::tbl(con, "s1"), dplyr::tbl(con, "sd2011"), keys = keys4,
                           target = "depress", print.flag = FALSE)
})

test_that("labels that differ only in case or trailing spaces stop the call under the default collation", {
  data <- data.frame(sex = c("MALE", "male", "male ", "female", "female"), age = c(1L, 1L, 2L, 2L, 1L),
                     t = c("a", "b", "a", "b", "b"), stringsAsFactors = FALSE)
  syn <- data.frame(sex = c("male", "MALE", "female", "female"), age = c(1L, 1L, 2L, 1L), t = c("a", "a", "b", "b"),
                    stringsAsFactors = FALSE)
  con <- local_mariadb(list(d = data, s = syn))
  expect_error(disclosure(dplyr::tbl(con, "s"), dplyr::tbl(con, "d"), keys = c("sex", "age"), target = "t",
                          print.flag = FALSE),
               "labels of \"sex\" in .* differently from R: it counts 2 distinct labels among")
  # A binary collation that does not pad spaces compares as R does.
  for (table in c("d", "s")) {
    DBI::dbExecute(con, sprintf("ALTER TABLE %s MODIFY sex TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin", table))
    DBI::dbExecute(con, sprintf("ALTER TABLE %s MODIFY t TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin", table))
  }
  d <- expect_same_as_collected(disclosure, dplyr::tbl(con, "s"), dplyr::tbl(con, "d"), keys = c("sex", "age"),
                                target = "t", print.flag = FALSE)
  # COLLATION() says the columns compare as bytes: no scan.
  expect_identical(d$database$rows[d$database$query == "labels"], c(0L, 0L))
  expect_same_as_collected(multi.disclosure, dplyr::tbl(con, "s"), dplyr::tbl(con, "d"), keys = c("sex", "age"),
                           print.flag = FALSE, plot = FALSE, parts = multi_parts)
})

test_that("with a NO PAD binary collation, labels differing in case or trailing spaces, NA and Missing, and quotes count as collected", {
  con <- local_mariadb(list())
  check_tricky_labels_on(con, "ALTER TABLE %s MODIFY %s TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin")
})

test_that("key_sweep() on MariaDB equals the collected tables", {
  con <- local_mariadb(key_sweep_tables())
  check_key_sweep_on(con)
})
