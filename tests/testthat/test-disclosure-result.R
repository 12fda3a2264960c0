# The disclosure class (R/disclosure-result.R): print() shows what to.print names and no
# more, at the console width.

keys4 <- c("sex", "age", "region", "placesize")

# cli's headings (rules, "──" or "--" without Unicode) are left as they are.
is_heading <- function(lines) grepl("^(\u2500\u2500|--) ", lines)

test_that("to.print = 'ident' shows identity only: no preparation, notes or checks", {
  d <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "income", ngroups_target = 5, print.flag = FALSE)
  expect_true(nzchar(d$check2) || nzchar(d$check1) || length(d$notes) > 0)
  out <- capture.output(print(d, to.print = "ident"))
  expect_true(any(grepl("Identity disclosure measures", out, fixed = TRUE)))
  for (absent in c("Data preparation", "Notes", "Grouped 'income'", "pairs need checks", "Attribute", "CAP"))
    expect_false(any(grepl(absent, out, fixed = TRUE)), label = absent)
  # Each other choice shows its own heading only; "short" (the default) and "all" the rest.
  headings <- c(attrib = "Attribute disclosure measures", allCAPs = "CAP measures", check_1way = "1-way check:",
                check_2way = "2-way check:", exclusions = "Records excluded")
  for (opt in names(headings)) {
    out <- capture.output(print(d, to.print = opt))
    expect_true(any(grepl(headings[[opt]], out, fixed = TRUE)), label = opt)
    expect_false(any(grepl("Data preparation", out, fixed = TRUE)), label = opt)
    expect_false(any(grepl(headings[[setdiff(names(headings), opt)[1]]], out, fixed = TRUE)), label = opt)
  }
  for (opt in c("short", "all")) {
    out <- capture.output(print(d, to.print = opt))
    expect_true(any(grepl("Data preparation", out, fixed = TRUE)), label = opt)
  }
  # The TCAP note goes with the CAP table.
  out <- capture.output(print(d, to.print = "allCAPs"))
  expect_true(any(grepl("TCAP is DiSCO / DiS, as Raab, Nowok & Dibben define it", out, fixed = TRUE)))
})

test_that("lines wrap at the console width and long labels are shortened in tables", {
  long <- strrep("level", 60)
  k <- rep(c("a", "b", "c"), 40)
  orig <- data.frame(k = factor(k), t = factor(ifelse(k == "c", "other", long)))
  syn <- orig[c(61:120, 1:60), ]
  d <- disclosure(syn, orig, keys = "k", target = "t", thresh_1way = c(1, 10), thresh_2way = c(1, 10),
                  print.flag = FALSE)
  expect_true(any(grepl(long, d$check1, fixed = TRUE)))
  expect_true(any(grepl(long, d$check_2way$target_key_levs, fixed = TRUE)))
  for (width in c(60, 100)) {
    withr::local_options(width = width, cli.width = width)
    for (opt in c("all", "short")) {
      out <- capture.output(print(d, to.print = opt))
      # Headings (cli rules) are left as they are.
      expect_lte(max(nchar(out[!is_heading(out)], type = "width")), width)
      expect_false(any(grepl(long, out, fixed = TRUE)))
    }
  }
  # print.flag lines wrap too.
  withr::local_options(width = 50, cli.width = 50)
  out <- capture.output(d <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "income", ngroups_target = 20))
  expect_gt(length(out), 1)
  expect_lte(max(nchar(out, type = "width")), 50)
})

test_that("print(d, to.print = 'checks') shows both checks, as multi.disclosure() recommends", {
  d <- disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region", "placesize"), target = "marital",
                  print.flag = FALSE)
  both <- format(d, to.print = "checks")
  expect_identical(both, format(d, to.print = c("check_1way", "check_2way")))
  expect_match(paste(both, collapse = "\n"), "2-way check", fixed = TRUE)
})

test_that("check_2way's target_key_levs is a factor, as synthpop gives it: levels are every pair, key by key", {
  keys <- c("sex", "age", "region", "placesize")
  d <- disclosure(sd2011_synds, sd2011, keys = keys, target = "marital", print.flag = FALSE)
  c2 <- d$check_2way
  expect_s3_class(c2$target_key_levs, "factor")
  # With no share threshold the table shows every pair: its labels are the levels.
  every <- disclosure(sd2011_synds, sd2011, keys = keys, target = "marital", print.flag = FALSE,
                      thresh_2way = c(4, 0))$check_2way
  expect_identical(levels(c2$target_key_levs), levels(every$target_key_levs))
  expect_setequal(levels(every$target_key_levs), as.character(every$target_key_levs))
  key_of_level <- every$key[match(levels(every$target_key_levs), as.character(every$target_key_levs))]
  expect_false(is.unsorted(match(key_of_level, keys)))
  expect_true(all(as.character(c2$target_key_levs) %in% levels(c2$target_key_levs)))
})

