# disclosure() against the plain-R reference (helper-reference.R) on random small data:
# random cardinalities, NAs, levels on one side only, Ns != Nd, m up to 3, random
# exclusions, grouping and special codes (random_case(): helper-random-case.R).

compare_with_reference <- function(case, seed) {
  got <- do.call(disclosure, c(list(case$syn, case$data), case$args, list(print.flag = FALSE)))
  want <- do.call(ref_disclosure, c(list(case$syn, case$data), case$args))
  expect_reference(got, want, label = paste("seed", seed))
}

test_that("disclosure() agrees with the plain-R reference on 500 random datasets", {
  local_quiet_labels()
  for (seed in random_cases(500)) {
    compare_with_reference(random_case(seed), seed)
  }
})

test_that("disclosure() agrees with the plain-R reference on the SD2011 fixtures", {
  keys <- c("sex", "age", "region", "placesize")
  for (target in c("depress", "ls", "marital", "workab")) {
    case <- list(syn = sd2011_synds5$syn[1:2], data = sd2011,
                 args = list(keys = keys, target = target, thresh_1way = c(10, 50), thresh_2way = c(2, 60)))
    compare_with_reference(case, target)
  }
  case <- list(syn = sd2011_synds$syn, data = sd2011,
               args = list(keys = c("sex", "age", "marital"), target = "income", ngroups_target = 10,
                           cont.na = list(income = -8), usekeysNA = c(TRUE, FALSE, TRUE), usetargetNA = FALSE,
                           exclude_ov_denom_lim = TRUE, denom_lim = 3))
  compare_with_reference(case, "income grouped")
})
