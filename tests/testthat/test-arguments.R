# synthpop's arguments bound as R binds them, and the front doors made from them (R/arguments.R).

test_that("a request binds synthpop's arguments by name, partial name and position", {
  b <- synthrisk:::bind_arguments("disclosure", c("sex", "age"), "depress", FALSE, denom = 3)
  expect_identical(b$values$keys, c("sex", "age"))
  expect_identical(b$values$target, "depress")
  expect_false(b$values$print.flag)
  expect_identical(b$values$denom_lim, 3)
  expect_identical(b$values$thresh_1way, c(50, 90))
  expect_setequal(b$supplied, c("keys", "target", "print.flag", "denom_lim"))
  expect_length(b$extra, 0)
  expect_named(synthrisk:::bind_arguments("multi", keys = "sex", plott = FALSE)$extra, "plott")
})

test_that("every argument of both families is documented, in synthpop's order", {
  for (family in c("disclosure", "multi")) {
    args <- setdiff(names(synthrisk:::request_formals(family)), "...")
    expect_true(all(args %in% names(synthrisk:::argument_docs)), label = family)
    doc <- synthrisk:::argument_docs_roxygen(family)
    expect_identical(sub("^@param ([^ ]+) .*", "\\1", doc), c(args, "..."))
  }
  expect_identical(names(synthrisk:::request_formals("disclosure"))[1:3], c("keys", "target", "print.flag"))
  expect_identical(names(synthrisk:::request_formals("multi"))[1:3], c("keys", "targets", "print.flag"))
})

# synthpop 1.9-3's formals after `object, data` (and `cont.na` for data frames and
# lists), as its help pages list them, written out here apart from request_formals().
synthpop_formals <- list(
  disclosure = alist(keys = , target = , print.flag = TRUE, denom_lim = 5, exclude_ov_denom_lim = FALSE,
                     not.targetlev = NULL, usetargetNA = TRUE, usekeysNA = TRUE, exclude.keys = NULL,
                     exclude.keylevs = NULL, exclude.targetlevs = NULL, ngroups_target = NULL, ngroups_keys = NULL,
                     thresh_1way = c(50, 90), thresh_2way = c(4, 80), digits = 2, to.print = "short",
                     compare.synorig = TRUE),
  multi = alist(keys = , targets = NULL, print.flag = TRUE, denom_lim = 5, exclude_ov_denom_lim = FALSE,
                not.targetslev = NULL, usetargetsNA = TRUE, usekeysNA = TRUE, exclude.keys = NULL,
                exclude.keylevs = NULL, exclude.targetlevs = NULL, ngroups_targets = NULL, ngroups_keys = NULL,
                ident.meas = "repU", attrib.meas = "DiSCO", thresh_1way = c(50, 90), thresh_2way = c(4, 80),
                digits = 2, plot = TRUE, compare.synorig = TRUE)
)

test_that("the front doors show synthpop 1.9-3's formals in its order with its defaults, then ours", {
  for (generic in c("disclosure", "multi.disclosure")) {
    family <- if (generic == "multi.disclosure") "multi" else "disclosure"
    for (cls in c("synds", "data.frame", "tbl_lazy", "list")) {
      f <- formals(getS3method(generic, cls))
      lead <- c(alist(object = , data = ), if (cls != "synds") alist(cont.na = NULL), synthpop_formals[[family]])
      expect_identical(as.list(f)[seq_along(lead)], lead, label = paste(generic, cls))
      expect_identical(utils::tail(names(f), 8), c("n_threads", "control", "conf.level", "resynthesize", "synthesizer",
                                                   "seed", "release", "..."))
    }
  }
  expect_identical(names(formals(synthrisk:::multi.disclosure.synds))[1:4], c("object", "data", "keys", "targets"))
})

test_that("positional and partial calls bind through the visible formals as before", {
  keys <- c("sex", "age", "region", "placesize")
  by_name <- disclosure(sd2011_synds, sd2011, keys = keys, target = "depress", print.flag = FALSE, denom_lim = 3)
  by_position <- disclosure(sd2011_synds, sd2011, keys, "depress", FALSE, 3)
  partial <- disclosure(sd2011_synds, sd2011, keys, "depress", print.f = FALSE, denom = 3)
  expect_identical(by_position$attrib, by_name$attrib)
  expect_identical(partial$attrib, by_name$attrib)
  df <- disclosure(sd2011_synds$syn, sd2011, list(income = -8), keys, "depress", FALSE, 3)
  expect_identical(df$attrib, by_name$attrib)
  expect_error(disclosure(sd2011_synds, sd2011, keys, "depress", plott = 1), "plott")
})
