# print() of a multi.disclosure shows what to.print names and no more (R/print-multi.R).

keys4 <- c("sex", "age", "region", "placesize")

is_heading <- function(lines) grepl("^(\u2500\u2500|--) ", lines)

test_that("to.print = 'ident' or 'checks' alone shows no preparation, notes or check warning", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys4, ngroups_targets = c(income = 20), print.flag = FALSE,
                         plot = FALSE)
  default <- capture.output(print(md))
  for (shown in c("Data preparation", "Notes", "Targets that need checks"))
    expect_true(any(grepl(shown, default, fixed = TRUE)), label = shown)
  for (opt in c("ident", "checks")) {
    out <- capture.output(print(md, to.print = opt))
    for (absent in c("Data preparation", "Notes", "Targets that need checks"))
      expect_false(any(grepl(absent, out, fixed = TRUE)), label = paste(opt, absent))
  }
  expect_false(any(grepl("Attribute disclosure", capture.output(print(md, to.print = "ident")), fixed = TRUE)))
  all <- capture.output(print(md, to.print = "all"))
  expect_true(any(grepl("Data preparation", all, fixed = TRUE)))
})

test_that("the printout fits the console width, long target names shortened in the table", {
  long <- paste(rep("a_target_with_a_very_long_name", 5), collapse = "_")
  data <- sd2011
  names(data)[names(data) == "workab"] <- long
  syn <- lapply(sd2011_synds5$syn, function(s) {
    names(s)[names(s) == "workab"] <- long
    s
  })
  md <- multi.disclosure(syn, data, keys = keys4, ngroups_targets = c(income = 20), print.flag = FALSE,
                         plot = FALSE)
  expect_true(any(grepl(long, rownames(md$attrib.table), fixed = TRUE)))
  withr::local_options(width = 70, cli.width = 70)
  out <- capture.output(print(md, to.print = "all"))
  # Headings (cli rules) are left as they are.
  expect_lte(max(nchar(out[!is_heading(out)], type = "width")), 70)
})
