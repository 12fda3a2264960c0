# What every printout shares (R/cli-tables.R): tables fitted to the console.

test_that("long labels are shortened in the printout, not in the object", {
  tab <- data.frame(label = strrep("x", 50), value = 1.23456, row.names = strrep("r", 40))
  short <- synthrisk:::shorten_labels(tab, 20)
  shortened <- 19L + nchar(cli::symbol$ellipsis)
  expect_identical(nchar(short$label), shortened)
  expect_identical(nchar(rownames(short)), shortened)
  expect_identical(nchar(tab$label), 50L)
  expect_identical(synthrisk:::round_frame(tab, 2)$value, 1.23)
  expect_identical(synthrisk:::shorten_words(paste("a", strrep("b", 30)), 10), paste("a", paste0(strrep("b", 9), cli::symbol$ellipsis)))
})

test_that("tables print at the console width; braces in text are escaped for cli", {
  tab <- data.frame(a = 1:2, b = c("u", "v"))
  out <- cli::cli_fmt(synthrisk:::cli_table(tab, row.names = FALSE))
  expect_match(out[1], "a b")
  expect_identical(synthrisk:::escape_braces("{x}"), "{{x}}")
  expect_true(synthrisk:::has_check(c("", "level")))
  expect_false(synthrisk:::has_check(c("", NA)))
  withr::with_options(list(width = 33), {
    expect_identical(synthrisk:::with_width(100, getOption("width")), 100L)
    expect_identical(getOption("width"), 33L)
  })
})
