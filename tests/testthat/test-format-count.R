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

test_that("every count of records, rows, cells or values in a sentence goes through format_count()", {
  skip_if_not(dir.exists(test_path("../../R")), "package sources not beside the tests")
  files <- c(list.files(test_path("../../R"), pattern = "[.]R$", full.names = TRUE),
             test_path("../../inst/rmarkdown/templates/disclosure-report/skeleton/skeleton.Rmd"))
  noun <- "(original |control |synthetic |distinct )?(record|row|cell|value)"
  hits <- unlist(lapply(files, function(f) {
    lines <- readLines(f, warn = FALSE)
    # cli pluralisation: the count before "record{?s}" is {format_count(n)}{cli::qty(n)}.
    cli <- regmatches(lines, gregexpr(paste0("\\{[^{}]*\\}(\\{cli::qty\\([^{}]*\\)\\})? ?", noun, "\\{\\?s\\}"), lines))
    cli <- unlist(cli)
    bad_cli <- cli[!startsWith(cli, "{format_count(") & !startsWith(cli, "{cli::qty(")]
    # A plural written out after an interpolated count: the count is format_count()'s.
    bad_plural <- unlist(regmatches(lines, gregexpr(paste0("\\{(?!format_count\\(|cli::qty\\(|\\.)[^{}]*\\} ", noun, "s\\b"),
                                                    lines, perl = TRUE)))
    # sprintf(): a count of records is a string made by format_count(), never %d.
    bad_sprintf <- grep(paste0("%d ", noun), lines, value = TRUE)
    bad <- c(bad_cli, bad_plural, bad_sprintf)
    if (length(bad) > 0) paste0(basename(f), ": ", bad) else character(0)
  }))
  expect_identical(hits, character(0), label = paste(hits, collapse = "\n"))
})

test_that("printouts show counts of records with thousands separators", {
  syn <- data.frame(a = rep(1:2, 600), b = rep(c("x", "y", "z"), 400))
  d <- dcr(syn, syn[1:1100, ], n_threads = 1)
  out <- paste(format(d), collapse = "\n")
  expect_match(out, "1,200 records", fixed = TRUE)
  expect_match(out, "1,100 original records", fixed = TRUE)
})
