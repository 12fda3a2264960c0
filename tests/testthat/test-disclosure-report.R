# disclosure_report(): the numbers in the HTML tables are those of the package's own
# objects (multi.disclosure(), tau_curve(), record_risk(), the holdout), the file is
# self-contained, no original value or rare level reaches it, and the policy table
# flags what exceeds the thresholds.

keys4 <- c("sex", "age", "region", "placesize")

skip_without_report_tools <- function() {
  skip_if_not_installed("rmarkdown")
  skip_if_not_installed("xml2")
  if (!rmarkdown::pandoc_available("2.0")) skip("pandoc (2.0 or later) is not available: the report cannot be rendered")
}

# The tables of the HTML file: one data frame of strings per table id.
read_report <- function(file) {
  doc <- xml2::read_html(file)
  list(doc = doc, html = paste(readLines(file, warn = FALSE, encoding = "UTF-8"), collapse = "\n"),
       text = gsub("\\s+", " ", xml2::xml_text(doc)))
}

report_table_of <- function(report, id) {
  node <- xml2::xml_find_first(report$doc, sprintf("//table[@id='%s']", id))
  if (inherits(node, "xml_missing")) return(NULL)
  head <- trimws(xml2::xml_text(xml2::xml_find_all(node, ".//thead//th")))
  rows <- xml2::xml_find_all(node, ".//tbody/tr")
  cells <- lapply(rows, function(r) trimws(xml2::xml_text(xml2::xml_find_all(r, "./td"))))
  out <- as.data.frame(do.call(rbind, cells), stringsAsFactors = FALSE)
  names(out) <- head
  out
}

num <- function(x) as.numeric(gsub(",", "", x, fixed = TRUE))

# Shown numbers are the objects' rounded to `digits` decimals.
expect_shown <- function(shown, value, digits = 2, label = "") {
  expect_equal(length(shown), length(value), label = label)
  expect_true(all(abs(num(shown) - value) <= 0.5 * 10^-digits + 1e-9), label = label)
}

sd2011_report <- local({
  cache <- NULL
  function() {
    if (!is.null(cache)) return(cache)
    parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
    file <- tempfile(fileext = ".html")
    out <- withVisible(disclosure_report(sd2011_synds5, parts$train, keys = keys4, control = parts$control,
                                         ngroups_targets = c(income = 20), thresholds = list(repU = 1, DiSCO = 10),
                                         file = file))
    md <- multi.disclosure(sd2011_synds5, parts$train, keys = keys4, control = parts$control,
                           ngroups_targets = c(income = 20), print.flag = FALSE, plot = FALSE)
    cache <<- list(out = out, file = file, parts = parts, md = md, report = read_report(file))
    cache
  }
})

target_means <- function(md, component, measure) {
  vapply(md$output.list, function(d) mean(d[[component]][[measure]]), numeric(1))
}

test_that("the SD2011 report (m = 5, holdout) shows the objects' numbers", {
  skip_without_report_tools()
  r <- sd2011_report()
  md <- r$md
  expect_false(r$out$visible)
  expect_identical(r$out$value, normalizePath(r$file))
  expect_true(file.exists(r$file))
  rep <- r$report

  # Sizes
  sizes <- report_table_of(rep, "tab-sizes")
  expect_identical(num(sizes$records), c(nrow(r$parts$train), rep(5000, 5), nrow(r$parts$control)))

  # Attribute summary: multi.disclosure()'s attrib.table, in its order.
  at <- report_table_of(rep, "tab-attrib")
  expect_identical(at$target, attr(md$attrib.table, "targets"))
  expect_shown(at$Dorig, md$attrib.table$attrib.orig, label = "Dorig")
  expect_shown(at$DiSCO, md$attrib.table$attrib.syn, label = "DiSCO")
  expect_identical(at$checks[at$target == "workab"], "1-way and 2-way")
  expect_identical(at$checks[at$target == "marital"], "2-way")
  expect_identical(at$checks[at$target == "depress"], "")

  # Every attribute measure per target: means over the syntheses.
  all <- report_table_of(rep, "tab-attrib-all")
  expect_identical(all$target, names(md$output.list))
  expect_shown(all$DCAPd, target_means(md, "allCAPs", "DCAPd"), label = "DCAPd")
  expect_shown(all$TCAP, target_means(md, "allCAPs", "TCAP"), label = "TCAP")
  expect_shown(all$DiSDiO, target_means(md, "attrib", "DiSDiO"), label = "DiSDiO")
  expect_shown(all$TCAP_taub, vapply(md$output.list, function(d) mean(d$measures$TCAP_taub), numeric(1)))

  # Identity: the same for every target here (no exclusions), so one row.
  id <- report_table_of(rep, "tab-identity")
  expect_identical(id$target, "all targets")
  for (ms in c("UiO", "UiS", "UiOiS", "repU")) {
    expect_shown(id[[ms]], mean(md$output.list$depress$ident[[ms]]), label = ms)
  }

  # Policy: repU above 1 for every target; DiSCO above 10 for the targets whose mean is.
  v <- report_table_of(rep, "tab-verdict")
  expect_identical(v$measure, c("repU", "DiSCO"))
  disco <- target_means(md, "attrib", "DiSCO")
  expect_shown(v$highest, c(mean(md$output.list$depress$ident$repU), max(disco)))
  expect_shown(v$highest_synthesis, c(max(md$output.list$depress$ident$repU),
                                      max(unlist(lapply(md$output.list, function(d) d$attrib$DiSCO)))))
  expect_identical(v$above[2], paste(names(disco)[disco > 10], collapse = ", "))
  expect_identical(v$verdict, c("above policy", "above policy"))
  expect_match(rep$text, "2 of 2 measures are above the policy", fixed = TRUE)

  # 1-way check of workab: per synthesis, the object's table.
  c1 <- report_table_of(rep, "tab-check1-workab")
  tabs <- md$output.list$workab$check_1way
  expect_identical(num(c1$synthesis), as.numeric(1:5))
  expect_identical(c1$Level, vapply(tabs, function(t) t$Level, ""))
  expect_identical(num(c1$nLevelDis), vapply(tabs, function(t) t$nLevelDis, 0))
  expect_shown(c1$PctLevelDis, vapply(tabs, function(t) t$PctLevelDis, 0))
  expect_null(report_table_of(rep, "tab-check1-marital"))

  # 2-way check of marital: one row per pair flagged in any synthesis (all held by >= 10
  # records), its npairs in each synthesis.
  c2 <- report_table_of(rep, "tab-check2-marital")
  want <- do.call(rbind, lapply(seq_along(md$output.list$marital$check_2way), function(j) {
    t <- md$output.list$marital$check_2way[[j]]
    if (is.data.frame(t)) cbind(synthesis = j, t) else NULL
  }))
  expect_true(all(want$key_total >= 10 & want$key_target_total >= 10))
  expect_setequal(c2$target_key_levs, unique(want$target_key_levs))
  expect_identical(nrow(c2), nrow(unique(want[c("key", "target_key_levs")])))
  for (i in seq_len(nrow(c2))) {
    w <- want[want$target_key_levs == c2$target_key_levs[i] & want$key == c2$key[i], ]
    per_syn <- rep("-", 5)
    per_syn[w$synthesis] <- as.character(w$npairs)
    expect_identical(c2$npairs[i], paste(per_syn, collapse = " / "))
    expect_identical(num(c2$syntheses[i]), as.numeric(nrow(w)))
    expect_identical(num(c2$key_total[i]), as.numeric(w$key_total[1]))
    expect_identical(num(c2$key_target_total[i]), as.numeric(w$key_target_total[1]))
    expect_shown(c2$PctTargetKeyLevel[i], w$PctTargetKeyLevel[1])
  }
  totals <- vapply(strsplit(c2$npairs, " / ", fixed = TRUE), function(v) sum(num(v[v != "-"])), numeric(1))
  expect_false(is.unsorted(-totals))
  expect_match(rep$text, sprintf("2-way check: %d target|key level pairs flagged in at least one synthesis",
                                 nrow(c2)), fixed = TRUE)

  # Tau curve: tau_curve() of the same call; at tau = 1 it is DiSCO / Dorig.
  tc <- as.data.frame(tau_curve(sd2011_synds5, r$parts$train, keys = keys4, ngroups_targets = c(income = 20)))
  tt <- report_table_of(rep, "tab-tau")
  for (tv in names(md$output.list)) {
    s <- tt[tt$target == tv & tt$data == "synthetic", ]
    o <- tt[tt$target == tv & tt$data == "original", ]
    for (tau in c(0, 0.5, 0.9, 1)) {
      col <- paste0("tau = ", tau)
      expect_shown(s[[col]], mean(tc$synthetic[tc$target == tv & tc$tau == tau]), label = paste(tv, col))
      expect_shown(o[[col]], mean(tc$original[tc$target == tv & tc$tau == tau]), label = paste(tv, col))
    }
    expect_shown(s[["tau = 1"]], mean(md$output.list[[tv]]$attrib$DiSCO), label = paste(tv, "DiSCO"))
  }

  # Holdout: per target, train / control means over the syntheses and R of those.
  ho <- report_table_of(rep, "tab-holdout")
  expect_identical(ho$target, attr(md$attrib.table, "targets"))
  for (i in seq_len(nrow(ho))) {
    h <- md$holdout[md$holdout$target == ho$target[i] & md$holdout$measure == "DiSCO", ]
    expect_shown(ho[["DiSCO train"]][i], mean(h$train))
    expect_shown(ho[["DiSCO control"]][i], mean(h$control))
    r_want <- (mean(h$train) / 100 - mean(h$control) / 100) / (1 - mean(h$control) / 100)
    expect_shown(ho[["DiSCO R"]][i], r_want)
  }
  # The largest R (of the means over syntheses, before rounding) is named in words,
  # with its measure and target.
  r_measures <- sub(" R$", "", grep(" R$", names(ho), value = TRUE))
  r_of <- function(target, measure) {
    h <- md$holdout[md$holdout$target == target & md$holdout$measure == measure, ]
    (mean(h$train) / 100 - mean(h$control) / 100) / (1 - mean(h$control) / 100)
  }
  r_all <- outer(ho$target, r_measures, Vectorize(r_of))
  at <- which(r_all == max(r_all), arr.ind = TRUE)[1, ]
  expect_match(rep$text, paste0("The largest R is ", format(round(max(r_all), 2), nsmall = 2), " for ",
                                r_measures[at[2]], " of ", ho$target[at[1]], ":"), fixed = TRUE)

  # Records at risk: record_risk() counts, which sum to the measures.
  rk <- record_risk(sd2011_synds5, r$parts$train, keys4)
  keys_tab <- report_table_of(rep, "tab-records-keys")
  by_syn <- function(flag) as.numeric(tapply(flag, rk$original$synthesis, sum))
  expect_identical(num(keys_tab$unique), by_syn(rk$original$unique_orig))
  expect_identical(num(keys_tab$replicated_unique), by_syn(rk$original$replicated_unique))
  expect_shown(keys_tab$replicated_unique_pct, md$output.list$depress$ident$repU)
  tg <- report_table_of(rep, "tab-records-targets")
  expect_identical(tg$target, names(md$output.list))
  nd <- nrow(r$parts$train)
  disco_n <- vapply(md$output.list, function(d) d$attrib$DiSCO * nd / 100, numeric(5))
  expect_equal(num(tg$disclosive_mean), unname(colMeans(disco_n)), tolerance = 0.051)
  expect_identical(num(tg$disclosive_min), unname(round(apply(disco_n, 2, min))))
  expect_identical(num(tg$disclosive_max), unname(round(apply(disco_n, 2, max))))
  expect_identical(num(tg$disclosive_orig), unname(round(vapply(md$output.list, function(d) d$attrib$Dorig[1] * nd / 100, 0))))
  rr <- record_risk(sd2011_synds5, r$parts$train, keys4, target = "depress")
  expect_identical(num(tg$disclosive_max[tg$target == "depress"]),
                   max(as.numeric(tapply(rr$original$disco, rr$original$synthesis, sum))))
  any_tab <- report_table_of(rep, "tab-records-any")
  expect_true(all(num(any_tab$disclosive_any) >= apply(disco_n, 1, max)))
  expect_true(all(num(any_tab$disclosive_any) <= nd))

  # Grouping: number of levels, outer breaks hidden.
  gr <- report_table_of(rep, "tab-grouping")
  expect_identical(num(gr$levels), as.numeric(md$grouping$income$n_levels))
  expect_match(gr$shown, "^\\[min,")
  expect_match(gr$shown, ",max\\]$")

  # Notes and reproducibility.
  expect_match(rep$text, "repU is the mean over the 5 syntheses", fixed = TRUE)
  expect_match(rep$text, "depress: TCAP is DiSCO / DiS, as Raab, Nowok & Dibben define it", fixed = TRUE)
  versions <- report_table_of(rep, "tab-versions")
  expect_identical(versions$version[versions$software == "synthrisk"], as.character(packageVersion("synthrisk")))
  settings <- report_table_of(rep, "tab-settings")
  expect_identical(settings$value[settings$setting == "ngroups_targets"], "c(income = 20)")
  expect_match(rep$text, "disclosure_report(object = sd2011_synds5, data = parts$train", fixed = TRUE)
})

test_that("the report's sections come in the issue's order", {
  skip_without_report_tools()
  rep <- sd2011_report()$report
  heads <- xml2::xml_text(xml2::xml_find_all(rep$doc, "//h1[not(contains(@class, 'title'))]"))
  heads <- trimws(gsub("\\s+", " ", heads))
  heads <- sub("^[0-9]+ ?", "", heads)
  want <- c("Summary", "What was compared", "Identity risk", "Attribute risk",
            "Checks for disclosure that background knowledge explains", "The tau curve", "Holdout comparison",
            "Original records at risk", "Differences from synthpop 1.9-3 that apply", "Reproducibility",
            "What this report does not show")
  expect_identical(heads, want)
})

test_that("the report is one self-contained file: nothing is fetched from the network", {
  skip_without_report_tools()
  rep <- sd2011_report()$report
  expect_false(grepl("(src|href)\\s*=\\s*[\"']?(https?:)?//", rep$html, ignore.case = TRUE))
  expect_false(grepl("url\\(\\s*[\"']?(https?:)?//", rep$html, ignore.case = TRUE))
  expect_false(grepl("@import", rep$html, fixed = TRUE))
  expect_false(grepl("mathjax", rep$html, ignore.case = TRUE))
  imgs <- xml2::xml_attr(xml2::xml_find_all(rep$doc, "//img"), "src")
  expect_gte(length(imgs), 3) # attribute plot, tau curve, holdout
  expect_true(all(startsWith(imgs, "data:image/png;base64,")))
  expect_length(xml2::xml_find_all(rep$doc, "//link[@rel='stylesheet']"), 0)
  expect_length(xml2::xml_find_all(rep$doc, "//script[@src]"), 0)
})

# Original data with planted markers: a rare key value (records 1-4, copied into the
# synthesis so that they are replicated uniques and disclosive), a rare target level of
# `marital` (records 2-4), a target whose only non-missing level is a marker
# (records 5-9, copied; the 1-way check names it), and an extreme income.
planted_data <- function() {
  orig <- sd2011
  syn <- sd2011_synds$syn
  orig$region <- as.character(orig$region)
  syn$region <- as.character(syn$region)
  orig$region[1:4] <- "QXKEYMARKER"
  orig$marital <- as.character(orig$marital)
  syn$marital <- as.character(syn$marital)
  orig$marital[2:4] <- "QXTARGETMARKER"
  orig$secret <- NA_character_
  orig$secret[5:9] <- "QXONEWAYMARKER"
  syn$secret <- NA_character_
  orig$income[10] <- 987654321
  syn[1:9, ] <- orig[1:9, names(syn)]
  list(orig = orig, syn = syn)
}

leak_strings <- c("QXKEYMARKER", "QXTARGETMARKER", "QXONEWAYMARKER", "987654321", "9.8765432e+08", "987,654,321")

test_that("planted markers and extreme values never reach the report", {
  skip_without_report_tools()
  p <- planted_data()
  args <- list(p$syn, p$orig, keys = keys4, targets = c("marital", "secret", "income", "depress"),
               ngroups_targets = c(income = 10), usetargetsNA = c(secret = FALSE),
               thresh_1way = c(0, 0), thresh_2way = c(0, 0))
  md <- do.call(multi.disclosure, c(args, print.flag = FALSE, plot = FALSE))
  # The objects hold the markers (so this test can fail): checks name them, breaks hold
  # the extreme.
  two <- unlist(lapply(md$output.list, function(d) {
    unlist(lapply(check_tables(d$check_2way), function(t) if (is.data.frame(t)) t$target_key_levs))
  }))
  expect_true(any(grepl("QXKEYMARKER", two, fixed = TRUE)))
  expect_true(any(grepl("QXTARGETMARKER", two, fixed = TRUE)))
  expect_identical(md$output.list$secret$check_1way$Level, "QXONEWAYMARKER")
  expect_match(tail(md$grouping$income$labels, 1), "987654321|9.8765432e\\+08")
  file <- tempfile(fileext = ".html")
  do.call(disclosure_report, c(args, list(file = file, thresholds = list(repU = 0))))
  html <- paste(readLines(file, warn = FALSE), collapse = "\n")
  for (s in leak_strings) expect_false(grepl(s, html, fixed = TRUE), label = s)
  rep <- read_report(file)
  # The suppressed 1-way level and pairs are said to be suppressed.
  c1 <- report_table_of(rep, "tab-check1-secret")
  expect_match(c1$Level, "suppressed: fewer than 10 records", fixed = TRUE)
  expect_match(rep$text, "held by fewer than 10 original records (is|are) not shown")
})

test_that("level labels given in arguments and data written into the call are not shown", {
  skip_without_report_tools()
  p <- planted_data()
  file <- tempfile(fileext = ".html")
  disclosure_report(p$syn, p$orig[p$orig$region != "QXKEYMARKER", ], keys = keys4, targets = c("marital", "depress"),
                    not.targetslev = list(marital = "QXTARGETMARKER"),
                    exclude.keys = list(depress = "region"), exclude.keylevs = list(depress = "QXKEYMARKER"),
                    exclude.targetlevs = list(depress = "0"), file = file)
  html <- paste(readLines(file, warn = FALSE), collapse = "\n")
  for (s in leak_strings) expect_false(grepl(s, html, fixed = TRUE), label = s)
  rep <- read_report(file)
  settings <- report_table_of(rep, "tab-settings")
  expect_identical(settings$value[settings$setting == "not.targetslev"], "1 level label given (not shown)")
  expect_identical(settings$value[settings$setting == "exclude.keylevs"], "1 level label given (not shown)")
  expect_match(rep$text, "data = `<expression not shown>`", fixed = TRUE)
})

test_that("grouped labels keep no extreme: min/max for quantile breaks, numbers for equal-width ones", {
  g <- list(variable = "x", grouped = TRUE, style = "quantile", breaks = c(-3.5, 1, 2, 90),
            labels = c("[-3.5,1)", "[1,2)", "[2,90]", "-8"), n_levels = 4)
  expect_identical(unname(safe_group_labels(g, 1000, 10)), c("[min,1)", "[1,2)", "[2,max]", "-8"))
  # Too few records per group: numbered.
  expect_identical(unname(safe_group_labels(g, 20, 10)), c("group 1 of 3", "group 2 of 3", "group 3 of 3", "-8"))
  g$style <- "equal"
  expect_identical(unname(safe_group_labels(g, 1000, 10)), c("group 1 of 3", "group 2 of 3", "group 3 of 3", "-8"))
  one <- list(variable = "x", grouped = TRUE, style = "quantile", breaks = c(0, 5), labels = "[0,5]")
  expect_identical(unname(safe_group_labels(one, 1000, 10)), "[min,max]")
  grouping <- list(x = list(variable = "x", grouped = TRUE, style = "quantile", breaks = c(0, 5, 9),
                            labels = c("[0,5)", "[5,9]")))
  expect_identical(safe_pair_label("[5,9]|a|b", "x", "k", grouping, 1000, 10), "[5,max]|a|b")
  expect_identical(safe_pair_label("a|b|[0,5)", "t", "x", grouping, 1000, 10), "a|b|[min,5)")
  expect_identical(safe_pair_label("a|b", "t", "k", grouping, 1000, 10), "a|b")
})

test_that("thresholds within the policy, and no thresholds: no verdict", {
  skip_without_report_tools()
  parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
  file <- tempfile(fileext = ".html")
  disclosure_report(sd2011_synds, sd2011, keys = keys4, targets = c("depress", "ls"),
                    thresholds = c(repU = 99, max_denom = 1000), file = file, title = "SD2011 & <test>")
  rep <- read_report(file)
  v <- report_table_of(rep, "tab-verdict")
  expect_identical(v$verdict, c("within policy", "within policy"))
  expect_identical(v$above, c("", ""))
  expect_match(rep$text, "0 of 2 measures are above the policy", fixed = TRUE)
  expect_identical(xml2::xml_text(xml2::xml_find_first(rep$doc, "//h1[contains(@class, 'title')]")), "SD2011 & <test>")
  expect_null(report_table_of(rep, "tab-holdout"))
  disclosure_report(sd2011_synds, sd2011, keys = keys4, targets = "depress", file = file)
  rep <- read_report(file)
  expect_null(report_table_of(rep, "tab-verdict"))
  expect_match(rep$text, "No verdict.", fixed = TRUE)
  expect_false(grepl("Distances between records", rep$text, fixed = TRUE))
  expect_false(grepl("Intervals", rep$text, fixed = TRUE))
})

test_that("the distance and interval sections show the tables they are given", {
  skip_without_report_tools()
  fake_summary <- data.frame(synthesis = 1:2, IMS = c(1.25, 2.5), IMS_ctrl = c(0.5, 0.75), dcr_q05 = c(0.01, 0.02),
                             dcr_q50 = c(0.1, 0.2), dcr_ctrl_q05 = c(0.03, 0.04), dcr_ctrl_q50 = c(0.3, 0.4),
                             base_q05 = c(0.05, 0.05), base_q50 = c(0.5, 0.5), nndr_q05 = c(0.6, 0.7),
                             share = c(51.5, 52.5), share_noleak = c(50, 50), copied = c(1.5, 2.5), AUC = c(0.51, 0.52))
  fake_dcr <- function(object, data, control = NULL) {
    list(summary = fake_summary, synthetic = data.frame(row = 1), original = data)
  }
  two <- list(sd2011_synds5$syn[[1]], sd2011_synds5$syn[[2]])
  contents <- report_contents(two, sd2011, keys = keys4, targets = c("depress", "ls"), distances = TRUE,
                              thresholds = c(IMS = 1.5, DiSCO = 50), dcr_fun = fake_dcr, call = "test")
  contents$intervals <- data.frame(target = "depress", measure = "DiSCO", estimate = 9.5, conf.low = 8.25,
                                   conf.high = 10.75, method = "across syntheses")
  file <- tempfile(fileext = ".html")
  render_report(contents, file)
  rep <- read_report(file)
  d <- report_table_of(rep, "tab-distances")
  expect_identical(names(d), names(fake_summary))
  expect_shown(d$IMS, fake_summary$IMS)
  expect_shown(d$AUC, fake_summary$AUC)
  v <- report_table_of(rep, "tab-verdict")
  expect_identical(v$measure, c("IMS", "DiSCO"))
  expect_shown(v$highest[1], mean(fake_summary$IMS))
  expect_identical(v$verdict, c("above policy", "within policy"))
  iv <- report_table_of(rep, "tab-intervals")
  expect_shown(iv$conf.low, 8.25)
  expect_identical(iv$method, "across syntheses")
})

test_that("distances = TRUE shows dcr()'s summary of the same data and control", {
  skip_without_report_tools()
  parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
  file <- tempfile(fileext = ".html")
  on.exit(unlink(file), add = TRUE)
  disclosure_report(sd2011_synds, parts$train, keys = keys4, targets = "depress", control = parts$control,
                    distances = TRUE, file = file)
  d <- report_table_of(read_report(file), "tab-distances")
  want <- dcr(sd2011_synds, parts$train, control = parts$control)$summary
  expect_identical(names(d), names(want))
  for (col in c("IMS", "IMS_ctrl", "share", "share_noleak", "copied", "AUC")) expect_shown(d[[col]], want[[col]], label = col)
})

test_that("distances of data frames read the cont.na given, as the measures do (issue 37)", {
  syn <- sd2011_synds$syn[1:1000, ]
  data <- sd2011[1:1000, ]
  contents <- disclosure_report_contents(syn, data, keys = keys4, targets = "income", distances = TRUE,
                                         cont.na = list(income = -8))
  want <- dcr(syn, data, cont.na = list(income = -8))$summary
  expect_equal(contents$distances, want)
  # The codes make a difference here, so the report could not match without them.
  expect_false(isTRUE(all.equal(dcr(syn, data)$summary, want)))
})

test_that("attacks = TRUE shows the three attacks' risks and rates, and no query or record", {
  skip_without_report_tools()
  skip_on_cran()
  parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
  file <- tempfile(fileext = ".html")
  on.exit(unlink(file), add = TRUE)
  disclosure_report(sd2011_synds, parts$train, keys = keys4, targets = c("depress", "marital"),
                    control = parts$control, attacks = TRUE, file = file)
  rep <- read_report(file)
  a <- report_table_of(rep, "tab-attacks")
  expect_identical(a$attack, c("inference of depress", "inference of marital", "linkability of keys to targets",
                               "singling out, univariate", "singling out, 3 columns"))
  inf <- inference_risk(sd2011_synds, parts$train, secret = c("depress", "marital"), aux = keys4,
                        control = parts$control)
  expect_shown(a$main[1:2], 100 * inf$summary$rate)
  expect_shown(a$control[1:2], 100 * inf$summary$rate_control)
  link <- linkability_risk(sd2011_synds, parts$train, keys4, c("depress", "marital"), control = parts$control)
  expect_shown(a$main[3], 100 * link$summary$rate)
  # No query text: a query that singles out names a real person's values.
  text <- paste(readLines(file, warn = FALSE), collapse = "\n")
  expect_false(grepl("&amp; age &gt;=|age &gt;= [0-9]", text))
})

test_that("bad arguments are clear errors naming the argument", {
  call <- function(...) disclosure_report(sd2011_synds, sd2011, keys = keys4, file = tempfile(fileext = ".html"), ...)
  expect_error(call(thresholds = list(foo = 1)), "unknown measure.*foo")
  expect_error(call(thresholds = c(1, 2)), "must name the measure of every value")
  expect_error(call(thresholds = list(repU = c(1, 2))), "one finite number per measure.*repU")
  expect_error(call(thresholds = list(repU = "1")), "one finite number per measure.*repU")
  expect_error(call(thresholds = list(repU = NA_real_)), "one finite number per measure")
  # Outside a measure's range every value, or none, would be above the policy.
  expect_error(call(thresholds = list(repU = -1)), "repU.*-1.*outside its range \\(0 to 100\\)")
  expect_error(call(thresholds = list(DiSCO = 101)), "DiSCO.*101.*outside its range")
  expect_error(call(thresholds = list(max_denom = -2)), "max_denom.*-2.*0 or more")
  expect_error(call(thresholds = list(AUC = 1.5), distances = TRUE), "AUC.*1.5.*0 to 1")
  expect_error(call(thresholds = list(repU = 1, repU = 2)), "more than once")
  expect_error(call(thresholds = "repU"), "named list or named numeric vector")
  expect_error(call(thresholds = list()), "is empty")
  expect_error(call(thresholds = list(IMS = 1)), "distance measure.*distances = TRUE")
  expect_error(call(distances = NA), "distances")
  expect_error(call(attacks = "yes"), "attacks")
  expect_error(call(min_cell = 5), "min_cell.*10 or more")
  expect_error(call(title = c("a", "b")), "title")
  expect_error(disclosure_report(sd2011_synds, sd2011, keys = keys4, file = "report.pdf"), "must end in")
  expect_error(disclosure_report(sd2011_synds, sd2011, keys = keys4, file = file.path(tempfile(), "r.html")),
               "folder of .*file.* does not exist")
  expect_error(disclosure_report(sd2011_synds, sd2011, keys = keys4, file = NA), "file")
})

test_that("bad arguments of multi.disclosure() are its own errors", {
  skip_without_report_tools()
  expect_error(disclosure_report(sd2011_synds, sd2011, keys = c("sex", "nokey"), file = tempfile(fileext = ".html")),
               "nokey")
  expect_error(disclosure_report(sd2011_synds, sd2011, keys = keys4, denom_lim = -1, file = tempfile(fileext = ".html")),
               "denom_lim")
})

test_that("html_text() leaves no markup", {
  expect_identical(html_text("[a](b) *c* <d> & $e$ |f|"),
                   "&#91;a&#93;&#40;b&#41; &#42;c&#42; &#60;d&#62; &#38; &#36;e&#36; &#124;f&#124;")
  expect_identical(html_text(NA), "NA")
})

test_that("data in a database: the report is written, the record counts say why they are absent", {
  skip_on_cran()
  skip_without_report_tools()
  skip_if_not(all(vapply(c("DBI", "dplyr", "dbplyr", "RSQLite"), requireNamespace, logical(1), quietly = TRUE)),
              "DBI, dplyr, dbplyr and RSQLite are needed")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "sd2011", sd2011)
  DBI::dbWriteTable(con, "syn1", sd2011_synds$syn)
  file <- tempfile(fileext = ".html")
  disclosure_report(dplyr::tbl(con, "syn1"), dplyr::tbl(con, "sd2011"), keys = keys4, targets = c("depress", "ls"),
                    file = file)
  rep <- read_report(file)
  md <- multi.disclosure(sd2011_synds$syn, sd2011, keys = keys4, targets = c("depress", "ls"), print.flag = FALSE,
                         plot = FALSE)
  at <- report_table_of(rep, "tab-attrib")
  expect_shown(at$DiSCO, md$attrib.table$attrib.syn)
  expect_null(report_table_of(rep, "tab-records-keys"))
  expect_match(rep$text, "record_risk() needs the records themselves", fixed = TRUE)
  expect_match(rep$text, "Counted in the database", fixed = TRUE)
  expect_match(rep$text, "object = `<expression not shown>`", fixed = TRUE)
})

test_that("the template knits on its own, as RStudio's From Template does (the SD2011 example)", {
  skip_without_report_tools()
  dir <- tempfile("draft-")
  dir.create(dir)
  input <- rmarkdown::draft(file.path(dir, "my-report.Rmd"), template = "disclosure-report", package = "synthrisk",
                            edit = FALSE)
  out <- rmarkdown::render(input, quiet = TRUE, envir = new.env())
  rep <- read_report(out)
  at <- report_table_of(rep, "tab-attrib")
  expect_setequal(at$target, c("depress", "income", "ls", "marital", "workab"))
  expect_false(is.null(report_table_of(rep, "tab-holdout")))
  expect_match(rep$text, "No verdict.", fixed = TRUE)
})

test_that("2-way pairs: one row per pair over the syntheses, rare pairs counted not shown", {
  rows <- data.frame(synthesis = c(1, 1, 2, 2), target_key_levs = c("a|x", "b|y", "a|x", "c|z"), npairs = c(3L, 9L, 7L, 5L),
                     key = c("k1", "k1", "k1", "k2"), key_target_total = c(20, 9, 20, 50), key_total = c(25, 40, 25, 60),
                     PctTargetKeyLevel = c(80.5, 22.5, 80.5, 83.3), stringsAsFactors = FALSE)
  got <- two_way_pairs(rows, 3, "t", list(), 1000, 10)
  expect_identical(got$n_pairs, 3L)
  expect_identical(got$n_suppressed, 1L)  # b|y: 9 records hold the pair
  expect_identical(got$table$target_key_levs, c("a|x", "c|z"))
  expect_identical(got$table$npairs, c("3 / 7 / -", "- / 5 / -"))
  expect_identical(got$table$syntheses, c(2L, 1L))
  expect_identical(got$table$key_total, c(25, 60))
  expect_false("b|y" %in% got$table$target_key_levs)
})
