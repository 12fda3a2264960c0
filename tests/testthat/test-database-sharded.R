# Database tables on PostgreSQL sharded with postgres_fdw (a coordinator and two shard
# servers started by the test run, see helper-database.R): each table partitioned by
# hash over foreign tables on the shards, with partition-wise aggregation, so the shards
# run the GROUP BY counts. Every number equals that of the collected tables.

keys4 <- c("sex", "age", "region", "placesize")

test_that("multi.disclosure() and disclosure() on sharded tables equal the collected tables, counted on the shards", {
  con <- local_sharded_postgres(list(sd2011 = sd2011, s1 = sd2011_synds$syn,
                                     s5_1 = sd2011_synds5$syn[[1]], s5_2 = sd2011_synds5$syn[[2]]))
  data <- dplyr::tbl(con, "sd2011")
  expect_identical(dplyr::pull(dplyr::count(data), n), as.numeric(nrow(sd2011)))
  # The shards hold the records: the coordinator's partitions are foreign tables.
  parts <- DBI::dbGetQuery(con, "SELECT count(*) AS n FROM pg_inherits WHERE inhparent = 'sd2011'::regclass")
  expect_identical(as.integer(parts$n), 2L)
  md <- expect_same_as_collected(multi.disclosure, db_tables(con, c("s5_1", "s5_2")), data, keys = keys4,
                                 cont.na = list(income = -8), ngroups_targets = c(income = 10),
                                 print.flag = FALSE, plot = FALSE, parts = multi_parts)
  expect_same_as_collected(disclosure, dplyr::tbl(con, "s1"), data, keys = keys4, target = "marital",
                           exclude.keys = "sex", exclude.keylevs = "MALE", exclude.targetlevs = "SINGLE",
                           print.flag = FALSE)
  # The plan pushes the aggregation to the shards.
  plan <- DBI::dbGetQuery(con, paste("EXPLAIN VERBOSE SELECT sex, age, COUNT(*) FROM sd2011 GROUP BY sex, age"))[[1]]
  expect_true(any(grepl("Relations: Aggregate on", plan)))
})

test_that("the holdout on sharded tables equals the collected tables", {
  parts <- holdout_split(sd2011[, c(keys4, "depress", "marital")], prop = 0.2, seed = 3)
  con <- local_sharded_postgres(list(train = parts$train, control = parts$control,
                                     syn = sd2011_synds$syn[, c(keys4, "depress", "marital")]))
  expect_same_as_collected(disclosure, dplyr::tbl(con, "syn"), dplyr::tbl(con, "train"), keys = keys4,
                           target = "marital", control = dplyr::tbl(con, "control"), print.flag = FALSE)
})

test_that("labels differing in case or trailing spaces, NA and Missing, and quotes count as collected on the shards", {
  con <- local_sharded_postgres(list())
  check_tricky_labels_on(con, write = write_sharded_tables)
  expect_identical(as.integer(DBI::dbGetQuery(con, "SELECT count(*) FROM pg_inherits WHERE inhparent = 'tricky_d'::regclass")[[1]]), 2L)
})

test_that("key_sweep() on sharded PostgreSQL equals the collected tables", {
  con <- local_sharded_postgres(key_sweep_tables())
  check_key_sweep_on(con)
})

test_that("the levels query groups by the partitioning key too, so the shards group their own rows", {
  con <- local_sharded_postgres(list(sd2011 = sd2011[, c(keys4, "depress", "marital")]))
  data <- dplyr::tbl(con, "sd2011")
  # The tables of write_sharded_tables() are partitioned by hash of their first column.
  expect_identical(synthrisk:::db_partition_keys(data, con), "sex")
  expect_identical(synthrisk:::db_partition_keys(dplyr::filter(data, age > 30), con), character(0))
  targets <- c("depress", "marital")
  sql <- function(vars) synthrisk:::grouped_sql(data, vars, "COUNT(*) AS synthrisk_n")
  explain <- function(vars) DBI::dbGetQuery(con, paste("EXPLAIN VERBOSE", sql(vars)))[[1]]
  # Grouped by the targets alone, every row goes to the coordinator; with the
  # partitioning key, each shard groups its rows.
  expect_false(any(grepl("Relations: Aggregate on", explain(targets))))
  expect_identical(sum(grepl("Relations: Aggregate on", explain(c("sex", targets)))), 2L)
  md <- expect_same_as_collected(multi.disclosure, data, data, keys = keys4, targets = targets, print.flag = FALSE,
                                 plot = FALSE, parts = multi_parts)
  levels <- md$database[md$database$query == "levels", ]
  # One levels query per table, its rows the combinations of sex and the targets.
  expect_identical(nrow(levels), 2L)
  joint <- nrow(unique(sd2011[c("sex", targets)]))
  expect_identical(as.integer(levels$rows), rep(joint, 2))
})
