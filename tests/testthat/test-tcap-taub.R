# TCAP as Taub et al. (2018) define it (definitions vignette 10.5): a hand-worked case, and the plain-R
# reference (helper-reference.R) on the SD2011 fixtures, with and without exclusions.
# The random cases of test-property.R and test-reference-random.R compare it too.

test_that("a hand-worked TCAP_taub", {
  # q = a: 3 synthetic records, all target x (WEAP 1); originals in a: x, x, y -> pd 2/3.
  # q = b: synthetic x and y (WEAP < 1): left out. q = c: 1 synthetic record, y; no
  # original in c: left out. TCAP_taub = 100 * (3 * 2/3) / 3.
  o <- data.frame(k = c("a", "a", "a", "b"), t = c("x", "x", "y", "x"))
  s <- data.frame(k = c("a", "a", "a", "b", "b", "c"), t = c("x", "x", "x", "x", "y", "y"))
  d <- disclosure(s, o, keys = "k", target = "t", print.flag = FALSE)
  expect_equal(d$allCAPs$TCAP_taub, 100 * (3 * 2 / 3) / 3)
  expect_true("TCAP_taub" %in% names(d$allCAPs))
  # Nothing to act on: NaN, as R's 0/0.
  none <- expect_label_warning(disclosure(s[4:5, ], o, keys = "k", target = "t", print.flag = FALSE))
  expect_true(is.nan(none$allCAPs$TCAP_taub))
})

test_that("TCAP_taub equals the reference on the SD2011 fixtures, with and without exclusions", {
  keys <- c("sex", "age", "region", "placesize")
  cases <- list(
    list(target = "depress"),
    list(target = "workab", usetargetNA = FALSE, exclude_ov_denom_lim = TRUE, denom_lim = 3),
    list(target = "income", ngroups_target = 10, not.targetlev = "[-8,600)"),
    list(target = "marital", usekeysNA = FALSE, exclude.keys = "sex", exclude.keylevs = "MALE",
         exclude.targetlevs = "MARRIED")
  )
  for (case in cases) {
    got <- do.call(disclosure, c(list(sd2011_synds5, sd2011, keys = keys, print.flag = FALSE), case))
    want <- do.call(ref_disclosure, c(list(sd2011_synds5$syn, sd2011, keys = keys), case))
    expect_equal(got$allCAPs$TCAP_taub, vapply(want, function(w) w$TCAP_taub, numeric(1)), tolerance = 1e-9,
                 label = case$target)
  }
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys, attrib.meas = "TCAP_taub", print.flag = FALSE)
  expect_equal(md$attrib.table$attrib.syn[1],
               mean(md$output.list[[attr(md$attrib.table, "targets")[1]]]$allCAPs$TCAP_taub))
})
