# Coverage of the intervals (definitions vignette, section 12) where the synthesis
# process is known: synthetic records drawn from the original's cell probabilities (the
# original's records sampled with replacement, as many as it has). The target of an
# interval is the measure's mean over 500 fresh syntheses; the table gives the share
# of 95% intervals that cover it: bootstrap intervals of one synthesis (m = 1, B = 100)
# and intervals across m = 5 syntheses. Reported whatever it is.
#
# Usage: Rscript bench/coverage.R [replications]
suppressPackageStartupMessages(library(synthrisk))
options(synthrisk.n_threads = 2, synthrisk.progress = FALSE, synthrisk.warn_labels = FALSE)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1) as.integer(args[1]) else 100L
settings <- list(
  list(keys = c("sex", "age", "region", "placesize"), target = "depress"),
  # Few keys and a target with one dominant level: DiSCO and DiSDiO near 0.
  list(keys = c("sex", "region", "placesize"), target = "marital")
)
measures <- c("repU", "DiSCO", "DCAPd", "TCAP", "DiSDiO")
set.seed(2026)
cat("\n## Coverage of 95% intervals (synthesis process known)\n\n")
cat(sprintf(paste("Measured %s, load average %s. Syntheses drawn from the original's cells (its records sampled with",
                  "replacement, as many as it has); the true value is each measure's mean over 500 fresh syntheses.",
                  "%d replications per setting: one synthesis with a bootstrap of B = 100, and five syntheses with",
                  "the interval across them. Coverage should be near 95%%; its binomial standard error is about",
                  "1.5 points.\n"),
            format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC"), readLines("/proc/loadavg"), reps))
for (setting in settings) {
  keys <- setting$keys
  orig <- sd2011[c(keys, setting$target)]
  n <- nrow(orig)
  synthesis <- function() orig[sample.int(n, n, replace = TRUE), , drop = FALSE]
  values_of <- function(d) {
    vapply(measures, function(me) {
      for (part in list(d$ident, d$attrib, d$allCAPs)) if (me %in% names(part)) return(part[[me]])
      NA_real_
    }, numeric(nrow(d$ident)))
  }
  t0 <- Sys.time()
  fresh <- disclosure(replicate(500, synthesis(), simplify = FALSE), orig, keys = keys, target = setting$target,
                      print.flag = FALSE)
  truth <- colMeans(values_of(fresh))
  covered <- function(iv) {
    iv <- iv[match(measures, iv$measure), ]
    iv$conf.low <= truth & truth <= iv$conf.high
  }
  boot_cover <- matrix(NA, reps, length(measures), dimnames = list(NULL, measures))
  across_cover <- boot_cover
  boot_width <- boot_cover
  across_width <- boot_cover
  for (r in seq_len(reps)) {
    one <- disclosure(synthesis(), orig, keys = keys, target = setting$target, print.flag = FALSE, boot = 100, seed = r)
    boot_cover[r, ] <- covered(one$intervals)
    boot_width[r, ] <- with(one$intervals[match(measures, one$intervals$measure), ], conf.high - conf.low)
    five <- disclosure(replicate(5, synthesis(), simplify = FALSE), orig, keys = keys, target = setting$target,
                       print.flag = FALSE, conf.level = 0.95)
    across_cover[r, ] <- covered(five$intervals)
    across_width[r, ] <- with(five$intervals[match(measures, five$intervals$measure), ], conf.high - conf.low)
  }
  secs <- as.numeric(Sys.time() - t0, units = "secs")
  cat(sprintf("\n### SD2011, keys %s; target %s (%.0f s)\n\n", paste(keys, collapse = ", "), setting$target, secs))
  cat("| measure | true mean (%) | bootstrap, m = 1: coverage | mean width | across syntheses, m = 5: coverage | mean width |\n")
  cat("| --- | --- | --- | --- | --- | --- |\n")
  pct <- function(v) if (all(is.na(v))) "NA" else sprintf("%.0f%%", 100 * mean(v, na.rm = TRUE))
  for (me in measures) {
    cat(sprintf("| %s | %.2f | %s | %.2f | %s | %.2f |\n", me, truth[[me]], pct(boot_cover[, me]),
                mean(boot_width[, me], na.rm = TRUE), pct(across_cover[, me]), mean(across_width[, me], na.rm = TRUE)))
  }
}
cat(paste("\nThe bootstrap of SPEC 12 resamples the synthetic records with replacement, which repeats some and drops",
          "others: records unique in the synthetic data become duplicates or vanish, and every measure built on small",
          "cells shifts in every replicate, so the percentile intervals sit away from the estimate and can miss the",
          "truth entirely (the printouts say so when an interval misses its estimate). The interval across",
          "syntheses measures the spread between syntheses directly; with measures near 0 (the second setting)",
          "five values are too few and too skewed for a t interval, and it covers less often than 95%.",
          "A measure whose mean is NaN (TCAP when a synthesis predicts nothing with certainty) has no coverage.\n"))
