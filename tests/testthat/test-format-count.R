# The one formatter of counts (R/format-count.R).

test_that("counts get thousands separators, no e-notation, no padding; fractions one decimal; NA", {
  expect_identical(synthrisk:::format_count(c(1, 1000, 1234567)), c("1", "1,000", "1,234,567"))
  expect_identical(synthrisk:::format_count(1e7), "10,000,000")
  expect_identical(synthrisk:::format_count(2147483647L), "2,147,483,647")
  expect_identical(synthrisk:::format_count(c(2.25, 1500.5)), c("2.2", "1,500.5"))
  expect_identical(synthrisk:::format_count(c(NA, 3)), c("NA", "3"))
  expect_identical(synthrisk:::format_count(numeric(0)), character(0))
})

test_that("no other formatter of counts is left in the package code", {
  skip_if_not(dir.exists(test_path("../../R")), "package sources not beside the tests")
  files <- list.files(test_path("../../R"), pattern = "[.]R$", full.names = TRUE)
  hits <- unlist(lapply(files, function(f) {
    hits <- grep("big.mark", readLines(f, warn = FALSE), value = TRUE)
    if (length(hits) > 0) paste0(basename(f), ": ", hits) else character(0)
  }))
  expect_true(all(startsWith(hits, "format-count.R: ")), label = paste(hits, collapse = "\n"))
})
