# The per-target arguments of multi.disclosure() (R/per-target.R).

test_that("per-target options: one element per target, named by target, or one for all", {
  targets <- c("depress", "ls", "income")
  opts <- synthrisk:::multi_target_options(list(not.targetslev = list(ls = "PLEASED"), exclude.keys = list(NULL, "sex", NULL),
                                                exclude.keylevs = list(NULL, "MALE", NULL),
                                                exclude.targetlevs = list(NULL, "PLEASED", NULL)),
                                           targets, c(TRUE, FALSE, TRUE), NULL)
  expect_length(opts, 3)
  expect_identical(opts[[2]]$not.targetlev, "PLEASED")
  expect_null(opts[[1]]$not.targetlev)
  expect_identical(opts[[2]]$exclude.keys, "sex")
  expect_false(opts[[2]]$usetargetNA)
  g <- synthrisk:::request_target_grouping("multi", list(ngroups_targets = c(income = 20)), targets, NULL)
  expect_equal(g$ngroups, c(0, 0, 20))
  expect_true(g$named)
  # Named values that are not numbers: the error shows them as given, not filled in.
  err <- expect_error(synthrisk:::request_target_grouping("multi", list(ngroups_targets = c(income = "a")), targets,
                                                          NULL))
  expect_match(conditionMessage(err), "ngroups_targets.*must be numbers of groups")
  expect_match(conditionMessage(err), 'It is `"a"`', fixed = TRUE)
  expect_no_match(conditionMessage(err), '"0"', fixed = TRUE)
  expect_identical(synthrisk:::per_target_flags(c(ls = FALSE), targets, NULL), c(TRUE, FALSE, TRUE))
  expect_error(synthrisk:::per_target_list(1:2, targets, "exclude.keys", NULL), "one element per target")
  expect_error(synthrisk:::per_target_levels(c("a", "b"), targets, NULL), "not.targetslev")
})

test_that("the report's per-target disclosure() arguments are the request's options", {
  targets <- c("depress", "income")
  args <- list(ngroups_targets = c(income = 10), usetargetsNA = c(FALSE, TRUE), denom_lim = 3, n_threads = 1,
               not.targetslev = c("", "-8"))
  per <- synthrisk:::per_target_disclosure_args(targets, args, NULL)
  expect_named(per, targets)
  expect_equal(per$income$ngroups_target, 10)
  expect_equal(per$depress$ngroups_target, 0)
  expect_false(per$depress$usetargetNA)
  expect_identical(per$income$not.targetlev, "-8")
  expect_identical(per$depress$denom_lim, 3)
  keys <- c("sex", "age", "region")
  md <- multi.disclosure(sd2011_synds, sd2011, keys = keys, targets = targets, print.flag = FALSE, plot = FALSE,
                         ngroups_targets = c(income = 10), usetargetsNA = c(FALSE, TRUE), denom_lim = 3,
                         not.targetslev = c("", "-8"))
  for (tv in targets) {
    d <- do.call(disclosure, c(list(sd2011_synds, sd2011, keys = keys, target = tv, print.flag = FALSE), per[[tv]]))
    expect_equal(d$attrib, md$output.list[[tv]]$attrib, label = tv)
  }
})
