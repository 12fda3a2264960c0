# Several syntheses released together (R/release.R, definitions vignette section 12):
# `pooled` is disclosure() of the stacked syntheses; DiSCO_any and repU_any against a
# reference built from record_risk()'s record-level flags.

keys4 <- c("sex", "age", "region", "placesize")

# From record_risk(): the share of original records flagged in at least one synthesis.
any_from_record_risk <- function(syn, data, keys, target, ...) {
  rr <- record_risk(syn, data, keys, target = target, ...)
  o <- rr$original
  any_of <- function(flag) sum(tapply(o[[flag]], o$row, any)) / rr$Nd * 100
  c(DiSCO_any = any_of("disco"), repU_any = any_of("replicated_unique"))
}

test_that("pooled is disclosure() of the stacked syntheses; the release measures match record_risk()", {
  d <- disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE, release = TRUE)
  stacked <- do.call(rbind, sd2011_synds5$syn)
  want <- disclosure(stacked, sd2011, keys = keys4, target = "depress", print.flag = FALSE)
  expect_identical(d$pooled$measures, want$measures)
  expect_identical(d$pooled$Nexclusions, want$Nexclusions)
  ref <- any_from_record_risk(sd2011_synds5, sd2011, keys4, "depress")
  expect_equal(unlist(d$release[c("DiSCO_any", "repU_any")]), ref, tolerance = 1e-12)
  # Released together, more records are exposed than by any one synthesis.
  expect_gt(d$release$DiSCO_any, max(d$attrib$DiSCO))
  # The measures of the call itself do not change.
  expect_identical(d$measures, disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE)$measures)
})

test_that("multi.disclosure() has release per target and a pooled multi.disclosure", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys4, targets = c("depress", "marital"), print.flag = FALSE,
                         plot = FALSE, release = TRUE, usetargetsNA = FALSE, exclude.keys = list(NULL, "sex"),
                         exclude.keylevs = list(NULL, "MALE"), exclude.targetlevs = list(NULL, "SINGLE"))
  stacked <- do.call(rbind, sd2011_synds5$syn)
  want <- multi.disclosure(stacked, sd2011, keys = keys4, targets = c("depress", "marital"), print.flag = FALSE,
                           plot = FALSE, usetargetsNA = FALSE, exclude.keys = list(NULL, "sex"),
                           exclude.keylevs = list(NULL, "MALE"), exclude.targetlevs = list(NULL, "SINGLE"))
  expect_identical(md$pooled$attrib.table, want$attrib.table)
  expect_identical(md$output.list$marital$pooled$measures, want$output.list$marital$measures)
  ref <- any_from_record_risk(sd2011_synds5, sd2011, keys4, "marital", usetargetNA = FALSE, exclude.keys = "sex",
                              exclude.keylevs = "MALE", exclude.targetlevs = "SINGLE")
  got <- md$release[md$release$target == "marital", c("DiSCO_any", "repU_any")]
  expect_equal(unlist(got), ref, tolerance = 1e-12)
  rel <- tidy(md, type = "release")
  expect_setequal(rel$of, c("any synthesis", "pooled"))
  expect_equal(rel$value[rel$target == "marital" & rel$measure == "DiSCO_any"], got$DiSCO_any)
  expect_match(paste(format(md), collapse = "\n"), "Released together, the 5 syntheses disclose", fixed = TRUE)
})

test_that("the release measures equal the record_risk() reference on random cases with m >= 2", {
  local_quiet_labels()
  checked <- 0
  for (seed in random_cases(400)) {
    case <- random_case(seed)
    # record_risk() takes cont.na only from a synds object.
    if (length(case$syn) < 2 || !is.null(case$args$cont.na)) next
    args <- case$args
    args$cont.na <- NULL
    args$thresh_1way <- NULL
    args$thresh_2way <- NULL
    got <- do.call(disclosure, c(list(case$syn, case$data), args, list(print.flag = FALSE, release = TRUE)))
    ref <- do.call(any_from_record_risk, c(list(case$syn, case$data, args$keys, "t"),
                                           args[setdiff(names(args), c("keys", "target"))]))
    expect_equal(unlist(got$release[c("DiSCO_any", "repU_any")]), ref, tolerance = 1e-12,
                 label = paste("case", seed))
    stacked <- do.call(rbind, case$syn)
    want <- do.call(disclosure, c(list(stacked, case$data), args, list(print.flag = FALSE)))
    expect_identical(got$pooled$measures, want$measures, label = paste("pooled, case", seed))
    checked <- checked + 1
  }
  expect_gte(checked, if (exhaustive()) 200 else 5)
})

test_that("release is refused where it would be ignored or cannot be made", {
  expect_error(disclosure(sd2011_synds, sd2011, keys4, "depress", release = TRUE), "release.*one")
  expect_error(disclosure(sd2011_synds5, sd2011, keys4, "depress", release = "yes"), "release")
  expect_error(tau_curve(sd2011_synds5, sd2011, keys4, "depress", release = TRUE), "release")
  expect_error(record_risk(sd2011_synds5, sd2011, keys4, "depress", release = TRUE), "release")
  d <- disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE)
  expect_error(tidy(d, type = "release"), "no release measures")
})

test_that("the attribute plot draws intervals as bars and the released-together measure as a third marker", {
  skip_on_cran()
  md <- multi.disclosure(sd2011_synds5, sd2011, keys4, print.flag = FALSE, plot = FALSE, release = TRUE,
                         conf.level = 0.95)
  p <- autoplot(md)
  built <- ggplot2::ggplot_build(p)
  geoms <- vapply(p$layers, function(l) class(l$geom)[1], "")
  bars <- built$data[[which(geoms == "GeomErrorbar")]]
  targets <- synthrisk:::table_targets(md)
  iv <- md$intervals[md$intervals$measure == "DiSCO", ]
  expect_equal(bars$xmin[order(bars$y)], iv$conf.low[match(targets, iv$target)])
  expect_equal(bars$xmax[order(bars$y)], iv$conf.high[match(targets, iv$target)])
  pts <- built$data[[which(geoms == "GeomPoint")]]
  released <- pts[pts$shape == 17, ]
  expect_equal(released$x[order(released$y)], md$release$DiSCO_any[match(targets, md$release$target)])
  expect_match(p$labels$subtitle, "bars: 95% intervals across syntheses", fixed = TRUE)
  skip_if_not(capabilities("cairo"))
  for (size in list(c(5, 3), c(7, 4))) {
    expect_identical(layout_problems(p, size[1], size[2], point_size = 2.4), character(0))
  }
  # Without intervals or release the plot has neither.
  plain <- autoplot(multi.disclosure(sd2011_synds5, sd2011, keys4, print.flag = FALSE, plot = FALSE))
  expect_false(any(vapply(plain$layers, function(l) inherits(l$geom, "GeomErrorbar"), NA)))
})

test_that("the holdout plot draws the train measure's interval and R's interval in the label", {
  parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
  d <- disclosure(sd2011_synds5, parts$train, keys4, "depress", print.flag = FALSE, control = parts$control,
                  conf.level = 0.95)
  p <- autoplot(d, type = "holdout")
  geoms <- vapply(p$layers, function(l) class(l$geom)[1], "")
  expect_true("GeomErrorbar" %in% geoms)
  r <- d$holdout_intervals[d$holdout_intervals$measure == "repU", ]
  label <- grep("^repU ", levels(p$data$label), value = TRUE)
  expect_identical(label, sprintf("repU  (R = %.2f [%.2f, %.2f])", synthrisk:::holdout_summary(d$holdout)["repU", "R"],
                                  r$conf.low, r$conf.high))
})

test_that("the released-together block prints the release measures and the means of one synthesis", {
  d <- disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE, release = TRUE)
  out <- paste(format(d), collapse = " ")
  out <- gsub("\\s+", " ", out)
  expect_match(out, sprintf("%.2f%% of the original records are in a DiSCO cell of at least one (DiSCO_any; %.2f%% for one",
                            d$release$DiSCO_any, mean(d$attrib$DiSCO)), fixed = TRUE)
  expect_match(out, sprintf("%.2f%% are replicated uniques in at least one (repU_any; %.2f%%)",
                            d$release$repU_any, mean(d$ident$repU)), fixed = TRUE)
  md <- multi.disclosure(sd2011_synds5, sd2011, keys4, targets = c("depress", "ls"), print.flag = FALSE,
                         plot = FALSE, release = TRUE)
  out <- gsub("\\s+", " ", paste(format(md), collapse = " "))
  r <- md$release
  expect_match(out, sprintf("from %.2f%% to %.2f%% of the original records (%.2f for %s); repU_any %.2f%%",
                            min(r$DiSCO_any), max(r$DiSCO_any), max(r$DiSCO_any), r$target[which.max(r$DiSCO_any)],
                            r$repU_any[1]), fixed = TRUE)
})
