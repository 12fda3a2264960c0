# The printed output a user pastes into reports: everything on standard output.

keys4 <- c("sex", "age", "region", "placesize")
all_to_print <- c("short", "ident", "attrib", "allCAPs", "check_1way", "check_2way", "exclusions", "all")

# Every finite number of a data frame (or vector), rounded to `digits`.
shown_numbers <- function(tab, digits) {
  v <- if (is.data.frame(tab)) unlist(tab[vapply(tab, is.numeric, logical(1))], use.names = FALSE) else tab
  v <- v[is.finite(v)]
  structure(round(v, digits), class = "expected_numbers", digits = digits)
}

# `what`: strings that must appear, or numbers that must appear (as printed, any padding).
expect_shows <- function(text, what) {
  text <- paste(text, collapse = "\n")
  if (inherits(what, "expected_numbers")) {
    digits <- attr(what, "digits")
    tokens <- as.numeric(unlist(regmatches(text, gregexpr("-?[0-9]+(\\.[0-9]+)?", text))))
    for (v in unclass(what)) {
      expect(any(abs(tokens - v) < 10^-digits / 2 + 1e-12), sprintf("printout lacks the number %s", format(v)))
    }
    return(invisible())
  }
  for (w in what) {
    expect(grepl(w, text, fixed = TRUE), sprintf("printout lacks %s", encodeString(w, quote = "\"")))
  }
}

test_that("print writes headings, numbers and check warnings to standard output, not messages", {
  d1 <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "workab", print.flag = FALSE)
  expect_silent(out <- capture.output(print(d1)))
  expect_shows(out, c("Disclosure risk for", "Identity (UiO/repU)", "Attrib (Dorig/DiSCO)", "Original",
                      "Synthesis 1", "Check  workab  level  NO", "26 pairs need checks", "% of records"))
  expect_shows(out, shown_numbers(c(d1$ident$UiO, d1$ident$repU, d1$attrib$Dorig, d1$attrib$DiSCO), 2))
  expect_no_message(capture.output(print(d1, to.print = "all")))
})

test_that("every to.print shows its tables with every number synthpop's printout shows", {
  d1 <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "workab", print.flag = FALSE)
  d5 <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "marital", print.flag = FALSE,
                   usetargetNA = FALSE)
  for (d in list(d1, d5)) {
    for (opt in all_to_print) {
      out <- capture.output(print(d, to.print = opt))
      expect_shows(out, c("Disclosure risk for", d$target))
      if (opt %in% c("ident", "all")) {
        expect_shows(out, "Identity disclosure measures")
        expect_shows(out, shown_numbers(d$ident, 2))
      }
      if (opt %in% c("attrib", "all")) {
        expect_shows(out, c("Attribute disclosure measures", "counts of records"))
        expect_shows(out, shown_numbers(d$attrib, 2))
      }
      if (opt %in% c("allCAPs", "all")) {
        expect_shows(out, c("CAP measures", "TCAP_synthpop"))
        expect_shows(out, shown_numbers(d$allCAPs, 2))
      }
      if (opt %in% c("exclusions", "all")) expect_shows(out, "Records excluded from the measures")
      if (opt %in% c("check_2way", "all") && has_check(d$check2)) {
        tabs <- if (is.data.frame(d$check_2way)) list(d$check_2way) else d$check_2way
        for (tab in Filter(is.data.frame, tabs)) {
          expect_shows(out, tab$target_key_levs)
          expect_shows(out, shown_numbers(tab, 2))
        }
      }
      if (opt == "all") expect_shows(out, c("Call", "disclosure("))
    }
  }
  expect_shows(capture.output(print(d5, to.print = "exclusions")), "missing target")
})

test_that("print(x, NULL, NULL) uses the stored to.print and digits, as synthpop does", {
  d <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "depress", print.flag = FALSE,
                  digits = 4, to.print = "allCAPs")
  expect_identical(capture.output(print(d, NULL, NULL)), capture.output(print(d, to.print = "allCAPs", digits = 4)))
  expect_shows(capture.output(print(d)), shown_numbers(d$allCAPs$CAPd, 4))
  md <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, targets = c("depress", "ls"), print.flag = FALSE,
                         digits = 3, plot = FALSE)
  expect_identical(capture.output(print(md, NULL, NULL)), capture.output(print(md, digits = 3, plot = FALSE)))
})

test_that("multi.disclosure prints identity, the attribute table and checks to standard output", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys4, ngroups_targets = c(income = 20), plot = FALSE,
                         print.flag = FALSE)
  expect_silent(out <- capture.output(print(md)))
  expect_shows(out, c("Disclosure risk for 5 targets", "UiO", "repU", "Dorig", "DiSCO", "workab",
                      "1&2way checks", "means over them", "repU is the mean over the 5 syntheses",
                      "Grouped 'income' into"))
  expect_shows(out, shown_numbers(c(unlist(md$attrib.table[1:2]), md$ident.orig[1], md$ident.syn[1]), 2))
  out <- capture.output(print(md, to.print = "checks"))
  expect_shows(out, c("Target \"workab\"", "1-way check", "2-way check", md$output.list$workab$check_1way[[1]]$Level))
  for (opt in c("ident", "attrib", "checks", "all")) expect_no_message(capture.output(print(md, to.print = opt)))
  m2 <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, denom_lim = 1, exclude_ov_denom_lim = TRUE,
                         attrib.meas = "DCAP", plot = FALSE, print.flag = FALSE)
  expect_shows(capture.output(print(m2)), c("CAPd in the original, DCAPd in the synthetic data", "over denom_lim"))
})

test_that("print.flag = TRUE says what was done, on standard output", {
  expect_output(disclosure(sd2011_synds, sd2011, keys = keys4, target = "income", ngroups_target = 5,
                           usetargetNA = FALSE), "Grouped 'income' into .*Excluded .* for missing target")
  expect_silent(disclosure(sd2011_synds, sd2011, keys = keys4, target = "income", ngroups_target = 5,
                           print.flag = FALSE))
  d <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "income", ngroups_target = 5, print.flag = FALSE)
  g <- d$grouping$income
  expect_true(g$grouped)
  expect_identical(g$labels[length(g$labels)], "-8")
  expect_shows(capture.output(print(d)), c("Data preparation", g$labels))
})

test_that("snapshots of the printouts", {
  local_reproducible_output(width = 90)
  d1 <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "workab", thresh_2way = c(20, 80), print.flag = FALSE)
  for (opt in all_to_print[all_to_print != "all"]) expect_snapshot(print(d1, to.print = opt))
  d5 <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "marital", print.flag = FALSE)
  expect_snapshot(print(d5))
  expect_snapshot(print(d5, to.print = c("allCAPs", "check_2way"), digits = 1))
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys4, ngroups_targets = c(income = 20), plot = FALSE,
                         print.flag = FALSE)
  expect_snapshot(print(md))
  expect_snapshot(print(md, to.print = "all", digits = 3))
})

test_that("every object made by synthpop 1.9-3 prints, with every to.print and NULL arguments", {
  skip_on_cran()
  objects <- readRDS(test_path("fixtures", "sd2011_synthpop_objects.rds"))
  for (nm in names(objects)) {
    x <- objects[[nm]]
    if (inherits(x, "disclosure")) {
      for (opt in all_to_print) {
        out <- capture.output(print(x, to.print = opt, digits = NULL))
        expect_shows(out, c("Disclosure risk for", x$target))
        if (opt %in% c("ident", "all")) expect_shows(out, shown_numbers(x$ident, 2))
        if (opt %in% c("attrib", "all")) expect_shows(out, shown_numbers(x$attrib, 2))
        if (opt %in% c("allCAPs", "all")) expect_shows(out, shown_numbers(x$allCAPs, 2))
        if (opt == "short" && nzchar(x$check1)) expect_shows(out, x$check1)
        if (opt == "short" && nzchar(x$check2[1])) expect_shows(out, x$check2[1])
      }
      expect_identical(capture.output(print(x, NULL, NULL)), capture.output(print(x, to.print = x$to.print)))
    } else {
      for (opt in c("ident", "attrib", "checks", "all")) {
        out <- capture.output(print(x, digits = NULL, plot = NULL, to.print = opt))
        expect_shows(out, "Disclosure risk for 5 targets")
        if (opt %in% c("attrib", "all")) {
          expect_shows(out, rownames(x$attrib.table))
          expect_shows(out, shown_numbers(x$attrib.table, 2))
        }
        if (opt %in% c("ident", "all")) expect_shows(out, shown_numbers(x$ident.orig[1], 2))
      }
      if (all(is.na(x$ident.syn))) expect_shows(capture.output(print(x)), "synthpop 1.9-3 computes nothing")
    }
  }
})

test_that("format() returns the printed lines", {
  d <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "depress", print.flag = FALSE)
  expect_identical(format(d), capture.output(print(d)))
  md <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, targets = "depress", plot = FALSE, print.flag = FALSE)
  expect_identical(format(md), capture.output(print(md)))
})

test_that("a knitted report with message = FALSE keeps headings and check warnings", {
  skip_if_not_installed("rmarkdown")
  skip_if_not(rmarkdown::pandoc_available())
  dir <- tempfile("report")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE), add = TRUE)
  rmd <- file.path(dir, "report.Rmd")
  writeLines(c(
    "---", "title: report", "output: md_document", "---", "",
    "```{r, message = FALSE}",
    "library(synthrisk)",
    "keys <- c('sex', 'age', 'region', 'placesize')",
    "d <- disclosure(sd2011_synds, sd2011, keys = keys, target = 'workab')",
    "d",
    "md <- multi.disclosure(sd2011_synds, sd2011, keys = keys, targets = c('depress', 'workab'), plot = FALSE)",
    "md",
    "```"), rmd)
  out <- rmarkdown::render(rmd, quiet = TRUE, envir = new.env())
  text <- readLines(out)
  expect_shows(text, c("Disclosure risk for", "Identity (UiO/repU)", "Check  workab  level  NO",
                       "26 pairs need checks", "Disclosure risk for 2 targets", "1&2way checks"))
})

test_that("print rejects unknown to.print values, naming them", {
  d <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "depress", print.flag = FALSE)
  expect_snapshot(print(d, to.print = "nope"), error = TRUE)
  expect_snapshot(print(d, to.print = "alCAPs"), error = TRUE)
  md <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, targets = "depress", plot = FALSE, print.flag = FALSE)
  expect_snapshot(print(md, to.print = "chekcs"), error = TRUE)
})
