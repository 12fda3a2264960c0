# The holdout baseline against the plain-R reference (helper-reference.R) on random
# small data: the control column is the reference with `control` as the original (levels
# and grouping breaks from data and syntheses), the train column the reference with
# `data`, and the main tables those of the call without `control`.

# The reference's numbers as the rows of a holdout table (synthesis x measure).
reference_holdout_values <- function(want, measures) {
  unlist(lapply(seq_along(want), function(j) vapply(measures, function(ms) as.double(want[[j]][[ms]]), numeric(1))))
}

compare_holdout_with_reference <- function(case, seed) {
  label <- paste("seed", seed)
  base_args <- c(list(case$syn, case$data), case$args, list(print.flag = FALSE))
  got <- do.call(disclosure, c(base_args, list(control = case$control)))
  plain <- do.call(disclosure, base_args)
  for (k in c("ident", "attrib", "allCAPs", "check_1way", "check_2way", "Nexclusions", "measures", "grouping")) {
    expect(identical(got[[k]], plain[[k]]), paste0(label, ": ", k, " changed by control"))
  }
  want_train <- do.call(ref_disclosure, c(list(case$syn, case$data), case$args))
  want_control <- do.call(ref_disclosure, c(list(case$syn, case$data), case$args, list(control = case$control)))
  h <- got$holdout
  # Rows in synthesis order within each measure, as the reference lists them.
  h <- h[order(h$synthesis, match(h$measure, unique(h$measure))), ]
  measures <- unique(got$holdout$measure)
  ok_train <- same_numbers(h$train, reference_holdout_values(want_train, measures))
  ok_control <- same_numbers(h$control, reference_holdout_values(want_control, measures))
  expect(ok_train, paste0(label, ": train column differs from the reference"))
  expect(ok_control, paste0(label, ": control column differs from the reference"))
  unit <- synthrisk:::measure_unit[h$measure]
  by_hand <- ifelse(unit != "%" | h$control %in% 100, NA_real_,
                    (h$train / 100 - h$control / 100) / (1 - h$control / 100))
  expect(same_numbers(h$R, by_hand), paste0(label, ": R differs from the formula"))
  invisible(ok_train && ok_control)
}

test_that("the holdout baseline agrees with the plain-R reference on 300 random cases", {
  n_cases <- length(random_cases(300))
  ran <- 0L
  local_quiet_labels()
  for (seed in seq_len(n_cases)) {
    compare_holdout_with_reference(random_holdout_case(seed), seed)
    ran <- ran + 1L
  }
  expect_identical(ran, n_cases)
})

test_that("the holdout baseline agrees with the reference on SD2011 with grouping and codes", {
  set.seed(11)
  at <- sample(nrow(sd2011), 1500)
  case <- list(syn = sd2011_synds5$syn[1:2], data = sd2011[-at, ], control = sd2011[at, ],
               args = list(keys = c("sex", "age", "marital"), target = "income", ngroups_target = 10,
                           ngroups_keys = c(0, 6, 0), cont.na = list(income = -8), usetargetNA = FALSE,
                           exclude_ov_denom_lim = TRUE, denom_lim = 3))
  expect_true(compare_holdout_with_reference(case, "SD2011 income"))
})
