# Random small cases for the reference tests (test-reference-random.R, test-tau-curve.R):
# random cardinalities, NAs, levels on one side only, Ns != Nd, m up to 3, random
# exclusions, grouping and special codes; the arguments are those of disclosure().

# `spread` widens the range of continuous values (holdout records beyond the others').
random_column <- function(kind, n, levels, na_rate, spread = 1) {
  x <- switch(kind,
              factor = factor(sample(levels, n, replace = TRUE), levels = levels),
              integer = as.numeric(sample(seq_along(levels), n, replace = TRUE)),
              continuous = round(stats::runif(n, 0, 100 * spread), 1))
  x[stats::runif(n) < na_rate] <- NA
  x
}

# A synthetic column of `n` rows: its levels are sometimes shifted from the original's
# (some on one side only); a factor keeps the original's levels too.
random_synthetic_column <- function(kind, n, all_levels, orig_levels) {
  card <- length(orig_levels)
  syn_levels <- if (stats::runif(1) < 0.3) all_levels[seq(2, card + 2)] else orig_levels
  if (kind == "factor") syn_levels <- unique(c(syn_levels, orig_levels))
  x <- random_column(kind, n, syn_levels, sample(c(0, 0.1), 1))
  if (kind == "factor") x <- factor(as.character(x), levels = syn_levels)
  x
}

random_case <- function(seed) {
  set.seed(seed)
  m <- sample(1:3, 1)
  n_orig <- sample(5:120, 1)
  n_syn <- sample(5:120, m, replace = TRUE)
  n_keys <- sample(1:3, 1)
  vars <- c(paste0("k", seq_len(n_keys)), "t")
  data <- list()
  syn <- replicate(m, list(), simplify = FALSE)
  kinds <- character(0)
  for (v in vars) {
    kind <- sample(c("factor", "factor", "integer", if (v == "t") "continuous"), 1)
    kinds[v] <- kind
    card <- sample(1:6, 1)
    all_levels <- paste0(v, "_", letters[seq_len(card + 2)])
    orig_levels <- all_levels[seq_len(card)]
    na_rate <- sample(c(0, 0, 0.1, 0.3), 1)
    data[[v]] <- random_column(kind, n_orig, orig_levels, na_rate)
    for (j in seq_len(m)) syn[[j]][[v]] <- random_synthetic_column(kind, n_syn[j], all_levels, orig_levels)
  }
  cont.na <- NULL
  ngroups_target <- 0
  if (kinds["t"] == "continuous") {
    if (stats::runif(1) < 0.5) {
      cont.na <- list(t = -8)
      data$t[sample(n_orig, 2)] <- -8
    }
    ngroups_target <- sample(c(0, 3, 5), 1)
  }
  data <- as.data.frame(data)
  syn <- lapply(syn, as.data.frame)
  keys <- sample(vars[-length(vars)])
  t_labels <- unique(c(as.character(data$t), "Missing"))
  args <- list(keys = keys, target = "t", cont.na = cont.na, ngroups_target = ngroups_target,
               usetargetNA = stats::runif(1) < 0.7,
               usekeysNA = stats::runif(length(keys)) < 0.7,
               exclude_ov_denom_lim = stats::runif(1) < 0.3, denom_lim = sample(1:4, 1),
               thresh_1way = c(sample(0:3, 1), sample(c(30, 60, 90), 1)),
               thresh_2way = c(sample(0:2, 1), sample(c(30, 60, 80), 1)))
  if (ngroups_target == 0 && stats::runif(1) < 0.3) {
    args$not.targetlev <- sample(t_labels[!is.na(t_labels)], 1)
  }
  if (ngroups_target == 0 && stats::runif(1) < 0.3) {
    k <- sample(keys, 1)
    args$exclude.keys <- k
    args$exclude.keylevs <- ref_labels(data[[k]][1])
    args$exclude.targetlevs <- ref_labels(data$t[sample(n_orig, 1)])
  }
  list(syn = syn, data = data, args = args)
}

# Random small cases with holdout records (test-holdout-reference.R, test-cell-counts.R):
# as random_case(), plus `control` (levels of its own and values beyond the others'
# sometimes) and grouped keys.
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
    data[[v]] <- random_column(kind, n_orig, orig_levels, na_rate)
    for (j in seq_len(m)) syn[[j]][[v]] <- random_synthetic_column(kind, n_syn[j], all_levels, orig_levels)
    # Control: levels of its own sometimes, numbers beyond the others' range sometimes.
    control_levels <- if (stats::runif(1) < 0.3) c(orig_levels, paste0(v, "_control")) else orig_levels
    control[[v]] <- random_column(kind, n_control, control_levels, sample(c(0, 0.1, 0.3), 1),
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

# Random cases often have labels on one side only (small syntheses drawn at random):
# the warning that says so (R/label-gaps.R, tested in test-label-gaps.R) is kept quiet
# in the tests that compare numbers on them.
local_quiet_labels <- function(envir = parent.frame()) {
  withr::local_options(synthrisk.warn_labels = FALSE, .local_envir = envir)
}
