# The multi.disclosure class (R/multi-disclosure-result.R): its own arguments, print()
# showing what to.print names and no more, and attrib.plot drawn when first read.

keys4 <- c("sex", "age", "region", "placesize")

test_that("a target missing from any synthesis, the first included, is an error naming both", {
  for (j in c(1, 3)) {
    syn <- sd2011_synds5$syn
    syn[[j]]$ls <- NULL
    expect_error(multi.disclosure(syn, sd2011, keys = keys4, print.flag = FALSE, plot = FALSE),
                 sprintf("Synthesis %d must have every key and target; \"ls\" is missing", j), fixed = TRUE)
  }
  # Missing from every synthesis: not a target (synthpop's default targets are the
  # synthetic variables).
  syn <- lapply(sd2011_synds5$syn, function(s) s[names(s) != "ls"])
  md <- multi.disclosure(syn, sd2011, keys = keys4, print.flag = FALSE, plot = FALSE)
  expect_false("ls" %in% names(md$output.list))
})

# print()
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

test_that("the identity heading says where its synthetic-side measure comes from", {
  heading <- function(meas) {
    md <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, targets = c("depress", "marital"),
                           ident.meas = meas, print.flag = FALSE, plot = FALSE)
    out <- capture.output(print(md, to.print = "ident"))
    out[grepl("Identity disclosure", out, fixed = TRUE)]
  }
  expect_match(heading("repU"), "UiO in the original, repU in the synthetic data", fixed = TRUE)
  # baseCAPd is read off the original's target distribution, not the synthetic data.
  base <- heading("baseCAPd")
  expect_match(paste(base, collapse = " "), "baseCAPd from the original's target distribution", fixed = TRUE)
  expect_no_match(paste(base, collapse = " "), "in the synthetic data", fixed = TRUE)
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

# attrib.plot is built on first access, not by multi.disclosure() itself.

test_that("attrib.plot is drawn when read, and equals the plot autoplot() draws", {
  md <- multi.disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region"), plot = FALSE, print.flag = FALSE)
  expect_null(.subset2(md, "attrib.plot"))
  expect_s3_class(md$attrib.plot, "ggplot")
  expect_s3_class(md[["attrib.plot"]], "ggplot")
  expect_equal(md$attrib.plot$data, autoplot(md)$data)
  expect_identical(md$keys, .subset2(md, "keys"))
})

test_that("a plot held by the object (as synthpop's objects hold theirs) is returned as it is", {
  md <- multi.disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region"), print.flag = FALSE)
  held <- unclass(md)
  held$attrib.plot <- "a plot made elsewhere"
  class(held) <- "multi.disclosure"
  expect_identical(held$attrib.plot, "a plot made elsewhere")
})

test_that("attrib.plot is drawn once for an object read twice, and again for a changed object", {
  md <- multi.disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region"), targets = c("depress", "ls"),
                         plot = FALSE, print.flag = FALSE)
  drawn <- 0L
  trace("attrib_plot", function() drawn <<- drawn + 1L, print = FALSE, where = asNamespace("synthrisk"))
  on.exit(untrace("attrib_plot", where = asNamespace("synthrisk")))
  first <- md$attrib.plot
  second <- md[["attrib.plot"]]
  expect_identical(drawn, 1L)
  expect_identical(first, second)
  changed <- md
  changed$digits <- 4
  invisible(changed$attrib.plot)
  expect_identical(drawn, 2L)
  # The object holds no cache: it is unchanged by the reads.
  expect_null(.subset2(md, "attrib.plot"))
})

test_that("each target's 2-way checks, made for all targets at once, equal disclosure()'s for it alone", {
  # SD2011 (m = 5, with a holdout) and Adult (m = 1): several targets flagged,
  # their pairs labelled and ranked together; a target with pairs but none shown
  # (Adult's income) is left out of the ranking.
  parts <- holdout_split(sd2011, prop = 0.3, seed = 7)
  cases <- list(
    list(object = sd2011_synds5, data = parts$train, keys = keys4, control = parts$control),
    list(object = adult_synds, data = adult, keys = c("age", "sex", "occupation", "race"), control = NULL))
  for (case in cases) {
    md <- multi.disclosure(case$object, case$data, keys = case$keys, control = case$control, print.flag = FALSE,
                           plot = FALSE)
    flagged <- names(md$output.list)[nzchar(md$attrib.table$check2[match(names(md$output.list), attr(md$attrib.table, "targets"))])]
    expect_gte(length(flagged), 2)
    for (tv in names(md$output.list)) {
      d <- disclosure(case$object, case$data, keys = case$keys, target = tv, control = case$control, print.flag = FALSE)
      expect_identical(md$output.list[[tv]]$check_2way, d$check_2way, label = tv)
      expect_identical(md$output.list[[tv]]$check2, d$check2, label = tv)
      expect_identical(md$output.list[[tv]]$holdout, d$holdout, label = tv)
    }
  }
})

test_that("each target's 1-way checks and exclusions, made for all targets at once, equal disclosure()'s for it alone", {
  # Thresholds low enough that the 1-way check flags some syntheses of some targets
  # and not others; m = 5 with a holdout, and m = 1.
  parts <- holdout_split(sd2011, prop = 0.3, seed = 7)
  cases <- list(
    list(object = sd2011_synds5, data = parts$train, keys = keys4, control = parts$control, thresh_1way = c(20, 60)),
    list(object = adult_synds, data = adult, keys = c("age", "sex", "occupation", "race"), control = NULL,
         thresh_1way = c(10, 80)))
  for (case in cases) {
    md <- multi.disclosure(case$object, case$data, keys = case$keys, control = case$control,
                           thresh_1way = case$thresh_1way, print.flag = FALSE, plot = FALSE)
    checks <- lapply(md$output.list, function(d) d$check1)
    expect_true(any(nzchar(unlist(checks))))
    expect_true(!all(nzchar(unlist(checks))))
    for (tv in names(md$output.list)) {
      d <- disclosure(case$object, case$data, keys = case$keys, target = tv, control = case$control,
                      thresh_1way = case$thresh_1way, print.flag = FALSE)
      expect_identical(md$output.list[[tv]]$check_1way, d$check_1way, label = tv)
      expect_identical(md$output.list[[tv]]$check1, d$check1, label = tv)
      expect_identical(md$output.list[[tv]]$Nexclusions, d$Nexclusions, label = tv)
      expect_identical(md$output.list[[tv]]$measures, d$measures, label = tv)
    }
  }
})

test_that("targets given with names give the result of the same targets unnamed, without warnings", {
  parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
  run <- function(targets) {
    multi.disclosure(sd2011_train_synds5, parts$train, keys = keys4, targets = targets, print.flag = FALSE,
                     plot = FALSE, control = parts$control, conf.level = 0.95)
  }
  expect_no_warning(named <- run(c(a = "depress", b = "ls")))
  plain <- run(c("depress", "ls"))
  expect_identical(named$output.list$depress$target, "depress")
  without_call <- function(x) {
    x <- unclass(x)
    x$call <- NULL
    x
  }
  expect_identical(without_call(named), without_call(plain))
})
