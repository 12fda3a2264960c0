# Database tables on a Spark standalone cluster (a master, two workers and the Thrift
# JDBC server, started by the test run: tools/spark-cluster.sh, helper-spark.R). The
# counting SQL runs as Spark jobs on the workers' executors; every number equals that
# of the collected tables.

keys4 <- c("sex", "age", "region", "placesize")
sd_columns <- c(keys4, "depress", "marital", "workab", "income", "ls")

test_that("multi.disclosure() and disclosure() with exclusions on Spark equal the collected tables", {
  con <- local_spark(list(sd2011 = sd2011[, sd_columns], s1 = sd2011_synds$syn[, sd_columns],
                          s5_1 = sd2011_synds5$syn[[1]][, sd_columns], s5_2 = sd2011_synds5$syn[[2]][, sd_columns]))
  data <- dplyr::tbl(con, "sd2011")
  expect_identical(dplyr::pull(dplyr::count(data), n), as.numeric(nrow(sd2011)))
  # A cluster: two live workers, and the Thrift server is an application using a core of each.
  state <- spark_master_state()
  expect_identical(sum(state$workers$state == "ALIVE"), 2L)
  expect_identical(state$workers$coresused, c(1L, 1L))
  expect_identical(state$activeapps$name, "synthrisk-thrift")
  md <- expect_same_as_collected(multi.disclosure, db_tables(con, c("s5_1", "s5_2")), data, keys = keys4,
                                 cont.na = list(income = -8), ngroups_targets = c(income = 10),
                                 print.flag = FALSE, plot = FALSE, parts = multi_parts)
  expect_identical(md$input$records, rep(5000, 3))
  expect_same_as_collected(disclosure, dplyr::tbl(con, "s1"), data, keys = keys4, target = "marital",
                           exclude.keys = "sex", exclude.keylevs = "MALE", exclude.targetlevs = "SINGLE",
                           print.flag = FALSE)
  # The fixture's synthpop numbers for the same call on the data frames.
  d_spark <- disclosure(dplyr::tbl(con, "s1"), data, keys = keys4, target = "depress", print.flag = FALSE)
  d_frame <- disclosure(sd2011_synds$syn[, sd_columns], sd2011[, sd_columns], keys = keys4, target = "depress",
                        print.flag = FALSE)
  expect_equal(result_parts(d_spark), result_parts(d_frame), tolerance = 1e-9)
  expect_error(record_risk(dplyr::tbl(con, "s1"), data, keys4, target = "depress"),
               "`record_risk\\(\\)` needs the records themselves; `object` is a database table")
})

test_that("the holdout on Spark equals the collected tables", {
  parts <- holdout_split(sd2011[, c(keys4, "depress", "marital")], prop = 0.2, seed = 3)
  con <- local_spark(list(train = parts$train, control = parts$control,
                          syn = sd2011_synds$syn[, c(keys4, "depress", "marital")]))
  expect_same_as_collected(disclosure, dplyr::tbl(con, "syn"), dplyr::tbl(con, "train"), keys = keys4,
                           target = "marital", control = dplyr::tbl(con, "control"), print.flag = FALSE)
})

test_that("labels differing in case or trailing spaces, NA and Missing, and quotes count as collected on Spark", {
  con <- local_spark(list())
  check_tricky_labels_on(con)
})

test_that("a Spark column with a case-insensitive collation stops the call, naming it", {
  data <- data.frame(sex = c("MALE", "male", "male ", "female", "female"), age = c(1L, 1L, 2L, 2L, 1L),
                     t = c("a", "b", "a", "b", "b"), stringsAsFactors = FALSE)
  con <- local_spark(list(d_binary = data))
  DBI::dbExecute(con, "DROP TABLE IF EXISTS d_lcase")
  DBI::dbExecute(con, paste("CREATE TABLE d_lcase USING parquet AS",
                            "SELECT CAST(sex AS STRING COLLATE UTF8_LCASE) AS sex, age, t FROM d_binary"))
  lcase <- dplyr::tbl(con, "d_lcase")
  # Spark groups "MALE" and "male" as one label under UTF8_LCASE.
  expect_identical(nrow(DBI::dbGetQuery(con, "SELECT sex FROM d_lcase GROUP BY sex")), 3L)
  expect_error(disclosure(lcase, lcase, keys = c("sex", "age"), target = "t", print.flag = FALSE),
               "labels of \"sex\" in .* differently from R: it counts 3 distinct labels among 4 distinct texts")
  binary <- dplyr::tbl(con, "d_binary")
  # UTF8_BINARY columns need no scan: Spark's collation() says how they compare.
  d <- disclosure(binary, binary, keys = c("sex", "age"), target = "t", print.flag = FALSE)
  expect_identical(d$database$rows[d$database$query == "labels"], c(0L, 0L))
  expect_same_as_collected(disclosure, binary, binary, keys = c("sex", "age"), target = "t", print.flag = FALSE)
})

test_that("the test connection brings Spark's values back as written (NA, empty, separators, doubles)", {
  data <- data.frame(k = c("a", "", NA, "a\x1fb", "\x1d", "b"), x = c(0.1, 1 / 3, NA, NaN, -Inf, 1e300),
                     i = c(1L, NA, 3L, 4L, 5L, 6L), stringsAsFactors = FALSE)
  con <- local_spark(list(roundtrip = data, plain = data[c(1:3, 6), ]))
  for (name in c("roundtrip", "plain")) {
    held <- as.data.frame(dplyr::arrange(dplyr::collect(dplyr::tbl(con, name)), i))
    want <- data[data$i %in% held$i | is.na(data$i), ]
    want <- want[order(want$i), ]
    rownames(want) <- NULL
    expect_identical(held, want, label = name)
  }
})

test_that("key_sweep() on Spark equals the collected tables", {
  con <- local_spark(key_sweep_tables())
  check_key_sweep_on(con)
})
