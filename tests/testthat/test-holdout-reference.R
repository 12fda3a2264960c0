# The holdout baseline against the plain-R reference (helper-reference.R) on random
# small data: the control column is the reference with `control` as the original (levels
# and grouping breaks from data and syntheses), the train column the reference with
# `data`, and the main tables those of the call without `control`.

holdout_column <- function(kind, n, levels, na_rate, spread = 1) {
  x <- switch(kind,
              factor = factor(sample(levels, n, replace = TRUE), levels = levels),
              integer = as.numeric(sample(seq_along(levels), n, replace = TRUE)),
              continuous = round(stats::runif(n, 0, 100 * spread), 1))
  x[stats::runif(n) < na_rate] <- NA
  x
}

random_holdout_case <- function(seed) {
  set.seed(seed)
  m <- sample(1:3, 1)
  n_orig <- sample(5:80, 1)
  n_syn <- sample(5:80, m, replace = TRUE)
  n_control <- sample(3:80, 1)
  n_keys <- sample(1:3, 1)
  vars <- c(paste0("k", seq_len(n_keys)), "t")
  data <- list()
  control <- list()
  syn <- replicate(m, list(), simplify = FALSE)
  kinds <- character(0)
  for (v in vars) {
    kind <- sample(c("factor", "factor", "integer", "continuous"), 1)
    kinds[v] <- kind
    card <- sample(1:5, 1)
    all_levels <- paste0(v, "_", letters[seq_len(card + 2)])
    orig_levels <- all_levels[seq_len(card)]
    na_rate <- sample(c(0, 0, 0.1, 0.3), 1)
    data[[v]] <- holdout_column(kind, n_orig, orig_levels, na_rate)
    for (j in seq_len(m)) {
      syn_levels <- if (stats::runif(1) < 0.3) all_levels[seq(2, card + 2)] else orig_levels
      if (kind == "factor") syn_levels <- unique(c(syn_levels, orig_levels))
      syn[[j]][[v]] <- holdout_column(kind, n_syn[j], syn_levels, sample(c(0, 0.1), 1))
      if (kind == "factor") syn[[j]][[v]] <- factor(as.character(syn[[j]][[v]]), levels = syn_levels)
    }
    # Control: levels of its own sometimes, numbers beyond the others' range sometimes.
    control_levels <- if (stats::runif(1) < 0.3) c(orig_levels, paste0(v, "_control")) else orig_levels
    control[[v]] <- holdout_column(kind, n_control, control_levels, sample(c(0, 0.1, 0.3), 1),
                                   spread = if (stats::runif(1) < 0.3) 1.3 else 1)
    if (kind == "continuous" && stats::runif(1) < 0.3) control[[v]][1] <- -5
    if (kind == "continuous" && stats::runif(1) < 0.15) control[[v]][2] <- sample(c(Inf, -Inf, NaN), 1)
  }
  cont.na <- NULL
  ngroups <- stats::setNames(rep(0, length(vars)), vars)
  for (v in vars[kinds[vars] == "continuous"]) {
    if (stats::runif(1) < 0.5) {
      cont.na[[v]] <- -8
      data[[v]][sample(n_orig, 2)] <- -8
      control[[v]][sample(n_control, 1)] <- -8
    }
    ngroups[[v]] <- sample(c(0, 3, 5), 1)
  }
  data <- as.data.frame(data)
  control <- as.data.frame(control)
  syn <- lapply(syn, as.data.frame)
  keys <- sample(vars[-length(vars)])
  args <- list(keys = keys, target = "t", cont.na = cont.na, ngroups_target = ngroups[["t"]],
               ngroups_keys = unname(ngroups[keys]),
               usetargetNA = stats::runif(1) < 0.6,
               usekeysNA = stats::runif(length(keys)) < 0.7,
               exclude_ov_denom_lim = stats::runif(1) < 0.3, denom_lim = sample(1:4, 1),
               thresh_1way = c(sample(0:3, 1), sample(c(30, 60, 90), 1)),
               thresh_2way = c(sample(0:2, 1), sample(c(30, 60, 80), 1)))
  # Labels of `data`, so that the call without `control` takes them too.
  t_labels <- unique(ref_labels(data$t))
  if (ngroups[["t"]] == 0 && stats::runif(1) < 0.3) args$not.targetlev <- sample(t_labels, 1)
  if (ngroups[["t"]] == 0 && stats::runif(1) < 0.3) {
    k <- sample(keys, 1)
    if (ngroups[[k]] == 0) {
      args$exclude.keys <- k
      args$exclude.keylevs <- ref_labels(data[[k]][1])
      args$exclude.targetlevs <- ref_labels(data$t[sample(n_orig, 1)])
    }
  }
  list(syn = syn, data = data, control = control, args = args)
}

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
  n_cases <- 300
  ran <- 0
  for (seed in seq_len(n_cases)) {
    compare_holdout_with_reference(random_holdout_case(seed), seed)
    ran <- ran + 1
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
