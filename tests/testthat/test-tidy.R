# tidy(), glance() and as.data.frame(): the object's own numbers, rearranged.

keys4 <- c("sex", "age", "region", "placesize")
synthpop_objects <- function() readRDS(test_path("fixtures", "sd2011_synthpop_objects.rds"))

# TCAP's definition as the documentation states it: synthrisk's objects follow the 2026
# vignette, synthpop 1.9-3's its own.
tcap_of <- function(d) {
  if (inherits(d, "synthrisk_disclosure")) "DiSCO/DiS (Raab, Nowok & Dibben)" else "DiSCO/iS (synthpop 1.9-3)"
}

# Written from the documented layout, not from the package's registry: the group of
# each component, the measures counted, and DCAPd (in attrib and allCAPs) once.
expected_tidy <- function(d) {
  groups <- c(ident = "identity", attrib = "attribute", allCAPs = "CAP")
  rows <- list()
  seen <- character()
  for (component in names(groups)) {
    for (measure in setdiff(names(d[[component]]), seen)) {
      values <- d[[component]][[measure]]
      rows[[length(rows) + 1]] <- data.frame(
        target = d$target, synthesis = seq_along(values), group = groups[[component]], measure = measure,
        value = values, unit = if (measure %in% c("max_denom", "mean_denom")) "count" else "%",
        definition = if (measure == "TCAP") tcap_of(d) else NA_character_, stringsAsFactors = FALSE)
      seen <- c(seen, measure)
    }
  }
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  out
}

expected_glance <- function(d) {
  pick <- function(measure) {
    for (component in c("ident", "attrib", "allCAPs")) {
      if (measure %in% names(d[[component]])) return(mean(d[[component]][[measure]]))
    }
    if (measure == "DCAPd") return(pick("DCAP"))
    NULL
  }
  means <- Filter(Negate(is.null), sapply(c("UiO", "repU", "Dorig", "DiSCO", "DCAPd", "TCAP"), pick,
                                          simplify = FALSE))
  data.frame(target = d$target, Norig = d$Norig, m = nrow(d$ident), keys = paste(d$keys, collapse = ", "),
             means, check_1way = nzchar(d$check1), check_2way = nzchar(d$check2), check1 = d$check1,
             check2 = d$check2, TCAP_definition = tcap_of(d), stringsAsFactors = FALSE)
}

test_that("tidy() of a disclosure holds every measure of ident, attrib and allCAPs, with group and unit", {
  d <- disclosure(sd2011_synds5, sd2011, keys = keys4, target = "workab", print.flag = FALSE)
  td <- tidy(d)
  expect_identical(names(td), c("target", "synthesis", "group", "measure", "value", "unit", "definition"))
  expect_identical(nrow(td), 5L * 24L)
  expect_identical(td, expected_tidy(d))
  expect_identical(td$value[td$measure == "DiSCO"], d$attrib$DiSCO)
  expect_identical(td$value[td$measure == "repU"], d$ident$repU)
  expect_identical(td$value[td$measure == "TCAPb"], d$allCAPs$TCAPb)
  expect_identical(unique(td$unit[td$measure %in% c("max_denom", "mean_denom")]), "count")
  expect_false(anyDuplicated(td[c("synthesis", "measure")]) > 0)
})

test_that("tidy() of a multi.disclosure binds the targets' tables in output.list order", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys4, ngroups_targets = c(income = 20), print.flag = FALSE,
                         plot = FALSE)
  td <- tidy(md)
  expect_identical(nrow(td), 5L * 5L * 24L)
  expected <- do.call(rbind, lapply(md$output.list, expected_tidy))
  rownames(expected) <- NULL
  expect_identical(td, expected)
  expect_identical(unique(td$target), names(md$output.list))
  # The attribute table's synthetic column is the mean of tidy's DiSCO.
  means <- tapply(td$value[td$measure == "DiSCO"], td$target[td$measure == "DiSCO"], mean)
  expect_equal(as.vector(means[attr(md$attrib.table, "targets")]), md$attrib.table$attrib.syn, tolerance = 1e-12)
})

test_that("as.data.frame() keeps its columns: tidy() without the unit", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys4, targets = c("depress", "ls"), print.flag = FALSE,
                         plot = FALSE)
  df <- as.data.frame(md)
  expect_identical(names(df), c("target", "synthesis", "group", "measure", "value"))
  expect_identical(nrow(df), 2L * 5L * 24L)
  expect_identical(df, tidy(md)[names(df)])
  expect_identical(df$value[df$target == "ls" & df$measure == "DiSCO"], md$output.list$ls$attrib$DiSCO)
  expect_identical(as.data.frame(md$output.list$ls), tidy(md$output.list$ls)[names(df)])
})

test_that("glance() gives one row per target with the means of the headline measures and the checks", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys4, ngroups_targets = c(income = 20), print.flag = FALSE,
                         plot = FALSE)
  gl <- glance(md)
  expect_identical(names(gl), c("target", "Norig", "m", "keys", "UiO", "repU", "Dorig", "DiSCO", "DCAPd", "TCAP",
                                "check_1way", "check_2way", "check1", "check2", "TCAP_definition"))
  expected <- do.call(rbind, lapply(md$output.list, expected_glance))
  rownames(expected) <- NULL
  expect_equal(gl, expected, tolerance = 1e-12)
  expect_identical(gl$target, names(md$output.list))
  expect_identical(gl$Norig, rep(5000L, 5))
  expect_identical(gl$m, rep(5L, 5))
  expect_identical(gl$keys[1], "sex, age, region, placesize")
  expect_identical(gl$check_1way, gl$target == "workab")
  expect_identical(gl$check_2way, gl$target %in% c("workab", "marital"))
  expect_identical(gl$check1[gl$target == "workab"], md$output.list$workab$check1)
  at <- match(attr(md$attrib.table, "targets"), gl$target)
  expect_equal(gl$Dorig[at], md$attrib.table$attrib.orig, tolerance = 1e-12)
  expect_equal(gl$DiSCO[at], md$attrib.table$attrib.syn, tolerance = 1e-12)
  expect_equal(gl$repU, md$ident.syn, tolerance = 1e-12)
  workab <- gl[gl$target == "workab", , drop = FALSE]
  rownames(workab) <- NULL
  expect_identical(glance(md$output.list$workab), workab)
})

test_that("tidy() and glance() work on synthpop 1.9-3 objects, with the measures they have", {
  objects <- synthpop_objects()
  for (name in names(objects)) {
    x <- objects[[name]]
    results <- if (inherits(x, "multi.disclosure")) x$output.list else list(x)
    td <- tidy(x)
    expected <- do.call(rbind, lapply(results, expected_tidy))
    rownames(expected) <- NULL
    expect_identical(td, expected, label = name)
    expect_false(any(c("DCAPd", "TCAPs", "TCAPb") %in% td$measure))
    gl <- glance(x)
    expected <- do.call(rbind, lapply(results, expected_glance))
    rownames(expected) <- NULL
    expect_equal(gl, expected, tolerance = 1e-12, label = name)
    # synthpop's DCAP is DCAPd
    expect_equal(gl$DCAPd, vapply(results, function(d) mean(d$allCAPs$DCAP), numeric(1)), ignore_attr = TRUE)
    expect_identical(as.data.frame(x), td[c("target", "synthesis", "group", "measure", "value")])
  }
  expect_identical(glance(objects$d_s5_depress)$m, 5L)
})

test_that("tidy() and glance() refuse unknown arguments and objects without per-target results", {
  d <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "depress", print.flag = FALSE)
  expect_error(tidy(d, conf.int = TRUE), "conf.int")
  expect_error(glance(d, extra = 1), "extra")
  md <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, targets = "depress", print.flag = FALSE, plot = FALSE)
  md$output.list <- NULL
  expect_snapshot(error = TRUE, tidy(md))
  expect_error(glance(md), "output.list")
  expect_error(as.data.frame(md), "output.list")
})

test_that("tidy() and glance() name TCAP's definition, so tables of both packages' objects cannot be misread", {
  ours <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "depress", print.flag = FALSE)
  theirs <- synthpop_objects()$d_s1_depress
  mixed <- rbind(glance(ours), glance(theirs)[names(glance(ours))])
  expect_identical(mixed$TCAP_definition, c("DiSCO/DiS (Raab, Nowok & Dibben)", "DiSCO/iS (synthpop 1.9-3)"))
  td <- rbind(tidy(ours), tidy(theirs))
  expect_setequal(unique(td$definition[td$measure == "TCAP"]), unname(mixed$TCAP_definition))
  expect_true(all(is.na(td$definition[td$measure != "TCAP"])))
  # The same TCAP of the same data differs by definition: DiSCO/DiS here.
  expect_equal(ours$allCAPs$TCAP, 100 * ours$attrib$DiSCO / ours$attrib$DiS)
})
