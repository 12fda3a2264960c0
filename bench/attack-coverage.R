# Coverage of the intervals the attacks print (definitions vignette, sections 12 and 13),
# where the synthesis process is known: synthetic records drawn from the training
# records (sampled with replacement, as many as there are), so the synthesis leaks and
# the risks are above 0. Reported whatever it is.
# * One synthesis (Wilson intervals): what the interval claims is the risk of this
#   synthesis against the population of people not used for it, the control attack
#   seeing a sample of them. SD2011 split into 2,000 training records and a pool of
#   3,000; per replication a fresh synthesis and a control sample of 500 from the pool;
#   the truth is anonymeter's risk from the expected success counts of that synthesis:
#   the control's over control samples of 500 (the chance that a query singles out
#   depends on the size of the data set, so not the whole pool), and for singling out
#   the main's over its subsets of the control's size; each the mean of 30 draws.
# * m syntheses (interval across syntheses, section 12): the truth is the mean risk over
#   300 fresh syntheses, with the control fixed.
#
# Usage: Rscript bench/attack-coverage.R [replications]
suppressPackageStartupMessages(library(synthrisk))
options(synthrisk.n_threads = 2, synthrisk.warn_labels = FALSE)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1) as.integer(args[1]) else 200L
set.seed(2026)
vars <- c("sex", "age", "region", "placesize", "marital", "depress", "workab", "income")
population <- sd2011[, vars]
train_rows <- sample(nrow(population), 2000)
train <- population[train_rows, ]
pool <- population[-train_rows, ]
cont.na <- list(income = -8)
synthesis <- function() train[sample.int(nrow(train), nrow(train), replace = TRUE), , drop = FALSE]
attacks <- list(
  "inference of depress (aux sex, age, region, placesize)" = function(syn, control, ...) {
    inference_risk(syn, train, secret = "depress", aux = c("sex", "age", "region", "placesize"), control = control,
                   cont.na = cont.na, ...)
  },
  "linkability (sex, age, region / placesize, marital, workab; k = 3)" = function(syn, control, ...) {
    linkability_risk(syn, train, c("sex", "age", "region"), c("placesize", "marital", "workab"), n_neighbors = 3,
                     control = control, cont.na = cont.na, ...)
  },
  "singling out, univariate" = function(syn, control, seed = 1, ...) {
    singling_out_risk(syn, train, control = control, cont.na = cont.na, seed = seed, ...)
  },
  "singling out, 3 columns (200 queries)" = function(syn, control, seed = 1, ...) {
    singling_out_risk(syn, train, n_cols = 3, n_attacks = 200, control = control, cont.na = cont.na, seed = seed, ...)
  })
# The truth of one synthesis: the risk from the expected main (for singling out, over
# its subsets) and control success counts, over `draws` control samples of 500.
one_truth <- function(f, syn, draws = 30) {
  runs <- lapply(seq_len(draws), function(k) {
    control <- pool[sample(nrow(pool), 500), ]
    r <- if ("seed" %in% names(formals(f))) f(syn, control, seed = 100 + k) else f(syn, control)
    r$results
  })
  s_main <- mean(vapply(runs, function(r) r$successes, numeric(1)))
  s_ctrl <- mean(vapply(runs, function(r) r$successes_control, numeric(1)))
  synthrisk:::attack_risk(s_main, runs[[1]]$n, s_ctrl, runs[[1]]$n_control, 0.95)$risk
}
cat("\n## Coverage of the attacks' intervals (synthesis process known)\n\n")
cat(sprintf(paste("Measured %s, load average %s. SD2011 (%s): 2,000 training records and a pool of 3,000 others;",
                  "syntheses drawn from the training records (sampled with replacement), so they leak. %d replications.",
                  "**One synthesis** (Wilson): a fresh synthesis and a control sample of 500 from the pool per replication;",
                  "the truth is that synthesis's risk from its expected success counts over control samples of 500 (and, for singling out, over subsets of the training data of that size; 30 draws). **m syntheses** (across syntheses,",
                  "section 12): control = 500 fixed pool records; the truth is the mean risk over 300 fresh syntheses.",
                  "Each cell: share of 95%% intervals covering the truth / of those without a caveat (share with a caveat);",
                  "mean truth in brackets.\n\n"),
            format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC"), readLines("/proc/loadavg"), paste(vars, collapse = ", "),
            reps))
control_fixed <- pool[sample(nrow(pool), 500), ]
cat("| attack | one synthesis (Wilson) | m = 2 | m = 5 | m = 10 |\n| --- | --- | --- | --- | --- |\n")
for (name in names(attacks)) {
  f <- attacks[[name]]
  one <- vapply(seq_len(reps), function(i) {
    syn <- synthesis()
    r <- f(syn, pool[sample(nrow(pool), 500), ])$results
    truth <- one_truth(f, syn)
    c(covered = r$conf.low <= truth && truth <= r$conf.high, truth = truth)
  }, numeric(2))
  cells <- sprintf("%.1f%% [%.3f]", 100 * mean(one["covered", ]), mean(one["truth", ]))
  fresh <- f(replicate(300, synthesis(), simplify = FALSE), control_fixed)
  truth <- mean(fresh$results$risk)
  for (m in c(2, 5, 10)) {
    hits <- vapply(seq_len(reps), function(i) {
      sm <- f(replicate(m, synthesis(), simplify = FALSE), control_fixed)$summary
      c(covered = sm$conf.low <= truth && truth <= sm$conf.high, caveat = !is.na(sm$conf.caveat))
    }, numeric(2))
    plain <- hits["caveat", ] == 0
    cells <- c(cells, sprintf("%.1f%% / %s (%.0f%%) [%.3f]", 100 * mean(hits["covered", ]),
                              if (sum(plain) >= 20) sprintf("%.1f%%", 100 * mean(hits["covered", plain])) else
                                sprintf("%d of %d", sum(hits["covered", plain]), sum(plain)),
                              100 * mean(!plain), truth))
  }
  cat(sprintf("| %s | %s |\n", name, paste(cells, collapse = " | ")))
}
