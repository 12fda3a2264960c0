# What the printout says of data counted in a database (R/count-targets.R).

keys4 <- c("sex", "age", "region", "placesize")

test_that("database text columns are not said to be adjusted, and query time only with print.flag", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con), add = TRUE)
  as_text <- function(d) {
    d <- as.data.frame(d)
    d[] <- lapply(d, function(x) if (is.factor(x)) as.character(x) else x)
    d
  }
  DBI::dbWriteTable(con, "orig", as_text(sd2011))
  for (j in 1:2) DBI::dbWriteTable(con, paste0("s", j), as_text(sd2011_synds5$syn[[j]]))
  syn <- list(dplyr::tbl(con, "s1"), dplyr::tbl(con, "s2"))
  md <- multi.disclosure(syn, dplyr::tbl(con, "orig"), keys = keys4, targets = c("depress", "workab"),
                         print.flag = FALSE, plot = FALSE)
  out <- capture.output(print(md, plot = FALSE))
  expect_false(any(grepl("synthpop 1.9-3 keeps only the first", out, fixed = TRUE)))
  expect_false("adjusted" %in% names(md$notes))
  expect_true(any(grepl("Counted in the database", out, fixed = TRUE)))
  expect_false(any(grepl("[0-9] s\\.", out)))
  flagged <- capture.output(multi.disclosure(syn, dplyr::tbl(con, "orig"), keys = keys4,
                                             targets = c("depress", "workab"), plot = FALSE))
  expect_true(any(grepl("in [0-9.]+ s\\.", paste(flagged, collapse = " "))))
  # Two prints of one object say the same.
  expect_identical(capture.output(print(md, plot = FALSE)), out)
})

test_that("input_table() counts a dataset's rows, whatever its first column", {
  # A matrix or a data frame as the first column has another length than the rows.
  plain <- data.frame(z = I(matrix(1:6, 3)), b = 4:6)
  packed <- data.frame(b = 1:3)
  packed$inner <- data.frame(u = 1:3, v = 4:6, w = 7:9, x = 1:3)
  packed <- packed[c("inner", "b")]
  got <- synthrisk:::input_table(list(plain, packed, data.frame(a = 1:5)), c(3, 3, 5), NULL, 1L)
  expect_identical(got$rows, c(3, 3, 5))
  expect_identical(got$dataset, c("original", "synthesis 1", "control"))
  expect_identical(got$source, rep("records", 3))
})
