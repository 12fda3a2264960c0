# The report's section on which keys matter (R/key-sweep-report.R): the sweep's numbers,
# aggregates only.

test_that("the report's key sweep shows the sweep's worst subsets and shares, and no grouping breaks", {
  keys <- c("sex", "age", "region")
  r <- disclosure_report_contents(sd2011_synds, sd2011, keys = keys, targets = c("depress", "income", "workab"),
                                  ngroups_targets = c(income = 5), ngroups_keys = c(0, 4, 0), key_sweep = TRUE)
  ks <- key_sweep(sd2011_synds, sd2011, keys = keys, targets = c("depress", "income", "workab"), sizes = 0:3,
                  ngroups_targets = c(income = 5), ngroups_keys = c(0, 4, 0))
  s <- r$key_sweep
  expect_identical(s$n_subsets, 8L)
  w <- tidy(ks, type = "worst")
  expect_equal(s$worst$repU, w$estimate[w$measure == "repU"])
  top <- s$shown[1]
  expect_equal(s$worst[[paste("DiSCO", top)]], w$estimate[w$measure == "DiSCO" & w$target %in% top])
  sh <- tidy(ks, type = "shares")
  expect_equal(s$shares$repU, sh$phi[sh$measure == "repU"])
  # The grouping of age (its breaks are extreme values) is not among the section's notes.
  expect_false(any(grepl("Grouped", s$notes)))
  expect_s3_class(s$plot, "ggplot")
  expect_null(disclosure_report_contents(sd2011_synds, sd2011, keys = keys, targets = "depress")$key_sweep)
  expect_error(disclosure_report_contents(sd2011_synds, sd2011, keys = keys, key_sweep = NA), "key_sweep")
})

test_that("with more than 10 keys the report sweeps subsets of up to 3 keys and says why there are no shares", {
  set.seed(3)
  wide <- as.data.frame(lapply(1:12, function(i) factor(sample(letters[1:3], 200, TRUE))))
  names(wide) <- paste0("k", 1:12)
  wide$t <- factor(sample(c("x", "y"), 200, TRUE))
  syn <- wide[sample(200), ]
  s <- disclosure_report_contents(syn, wide, keys = names(wide)[1:12], targets = "t", key_sweep = TRUE)$key_sweep
  expect_identical(s$sizes, 1:3)
  expect_identical(s$n_subsets, as.integer(sum(choose(12, 1:3))))
  expect_null(s$shares)
  expect_true(any(grepl("not reported", s$notes)))
})

test_that("the rendered report has the section", {
  skip_if_not(rmarkdown::pandoc_available("2.0"))
  file <- withr::local_tempfile(fileext = ".html")
  disclosure_report(sd2011_synds, sd2011, keys = c("sex", "age", "region"), targets = c("depress", "workab"),
                    key_sweep = TRUE, file = file)
  html <- paste(readLines(file, warn = FALSE), collapse = "\n")
  expect_match(html, "Which keys matter", fixed = TRUE)
  expect_match(html, 'id="tab-key-sweep"', fixed = TRUE)
  expect_match(html, 'id="tab-key-shares"', fixed = TRUE)
})
