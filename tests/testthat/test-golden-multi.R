# multi.disclosure() against synthpop 1.9-3's outputs for the 5 fixture calls.

golden <- golden_cases()
for (name in grep("^m", names(golden), value = TRUE)) {
  test_that(paste("golden case", name, "reproduces synthpop 1.9-3"), {
    case <- golden[[name]]
    want <- case$expected
    got <- run_golden(case)
    expect_s3_class(got, "multi.disclosure")
    tab <- got$attrib.table
    wtab <- want$attrib.table
    expect_identical(names(tab), names(wtab))
    expect_identical(rownames(tab), rownames(wtab))
    expect_numbers(tab[c("attrib.orig", "attrib.syn", "Npairs")], wtab[c("attrib.orig", "attrib.syn", "Npairs")],
                   label = "attrib.table")
    expect_identical(tab$check1, wtab$check1)
    expect_identical(tab$check2, wtab$check2)
    expect_identical(got$keys, want$keys)
    expect_identical(got$Norig, want$Norig)
    expect_identical(got$ident.meas, want$ident.meas)
    expect_identical(got$attrib.meas, want$attrib.meas)
    expect_equal(got$m, want$m)
    expect_numbers(got$ident.orig, want$ident.orig, label = "ident.orig")
    # synthpop 1.9-3 reports repU of the first synthesis; synthrisk the mean (definitions vignette 9.4).
    first_repU <- vapply(case$per_target, function(p) p$ident$repU[1], numeric(1))
    mean_repU <- vapply(case$per_target, function(p) mean(p$ident$repU), numeric(1))
    expect_numbers(unname(first_repU), want$ident.syn, label = "fixture's ident.syn")
    expect_numbers(got$ident.syn, unname(mean_repU[names(got$output.list)]), label = "ident.syn")
    expect_identical(sort(names(got$output.list)), sort(names(case$per_target)))
    for (tv in names(case$per_target)) {
      p <- case$per_target[[tv]]
      d <- got$output.list[[tv]]
      expect_numbers(d$ident, p$ident, label = paste(tv, "ident"))
      expect_numbers(d$attrib[names(p$attrib)], p$attrib, label = paste(tv, "attrib"))
      caps <- setdiff(names(p$allCAPs), "TCAP")
      expect_numbers(d$allCAPs[caps], p$allCAPs[caps], label = paste(tv, "allCAPs"))
      expect_numbers(d$measures$TCAP_synthpop, p$allCAPs$TCAP, label = paste(tv, "TCAP of synthpop 1.9-3"))
    }
  })
}

test_that("the golden file has the 5 multi.disclosure cases", {
  expect_length(grep("^m", names(golden_cases())), 5)
})

test_that("each target of multi.disclosure equals its own disclosure() call", {
  keys <- c("sex", "age", "region", "placesize")
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys, ngroups_targets = c(income = 10),
                         not.targetslev = list(workab = "NO"), usetargetsNA = c(TRUE, FALSE, TRUE, TRUE, TRUE),
                         exclude.keys = list(marital = "age"), exclude.keylevs = list(marital = "19"),
                         exclude.targetlevs = list(marital = "SINGLE"), plot = FALSE)
  expect_identical(names(md$output.list), c("depress", "income", "ls", "marital", "workab"))
  one <- list(
    depress = disclosure(sd2011_synds5, sd2011, keys = keys, target = "depress"),
    income = disclosure(sd2011_synds5, sd2011, keys = keys, target = "income", ngroups_target = 10,
                        usetargetNA = FALSE),
    marital = disclosure(sd2011_synds5, sd2011, keys = keys, target = "marital", exclude.keys = "age",
                         exclude.keylevs = "19", exclude.targetlevs = "SINGLE"),
    workab = disclosure(sd2011_synds5, sd2011, keys = keys, target = "workab", not.targetlev = "NO")
  )
  for (tv in names(one)) {
    expect_identical(md$output.list[[tv]]$measures, one[[tv]]$measures, label = tv)
    expect_identical(md$output.list[[tv]]$Nexclusions, one[[tv]]$Nexclusions, label = tv)
  }
})

test_that("attrib.meas and ident.meas choose the summary columns", {
  keys <- c("sex", "age", "region", "placesize")
  for (meas in c("DiSCO", "DiSDiO", "DCAP", "TCAP")) {
    md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys, targets = c("ls", "depress"), attrib.meas = meas,
                           ident.meas = "UiSiO", plot = FALSE)
    cols <- switch(meas, DiSCO = c("Dorig", "DiSCO"), DiSDiO = c("Dorig", "DiSDiO"), DCAP = c("CAPd", "DCAPd"),
                   TCAP = c("Dorig", "TCAP"))
    targets <- attr(md$attrib.table, "targets")
    syn <- vapply(targets, function(t) mean(md$output.list[[t]]$measures[[cols[2]]]), numeric(1))
    orig <- vapply(targets, function(t) mean(md$output.list[[t]]$measures[[cols[1]]]), numeric(1))
    expect_numbers(md$attrib.table$attrib.syn, unname(syn), label = meas)
    expect_numbers(md$attrib.table$attrib.orig, unname(orig), label = meas)
    expect_false(is.unsorted(md$attrib.table$attrib.syn))
    expect_numbers(md$ident.syn, vapply(names(md$output.list), function(t) mean(md$output.list[[t]]$ident$UiOiS),
                                        numeric(1)), label = "UiSiO")
  }
})

test_that("multi.disclosure argument errors name the argument", {
  keys <- c("sex", "age", "region", "placesize")
  expect_error(multi.disclosure(sd2011_synds, sd2011, keys = keys, targets = "age"), "targets.*keys")
  expect_error(multi.disclosure(sd2011_synds, sd2011, keys = keys, attrib.meas = "XYZ"), "attrib.meas.*XYZ")
  expect_error(multi.disclosure(sd2011_synds, sd2011, keys = keys, not.targetslev = c("NO", "")),
               "not.targetslev.*one element per target")
  expect_error(multi.disclosure(sd2011_synds, sd2011, keys = keys, exclude.keys = "age", exclude.keylevs = "19",
                                exclude.targetlevs = "SINGLE"), "exclude.keys.*list")
  expect_error(multi.disclosure(sd2011_synds, sd2011, keys = keys, ngroups_targets = c(0, 1, 0, 0, 0)),
               "ngroups_targets")
})
