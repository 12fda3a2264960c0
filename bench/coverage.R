# Coverage of every interval the package prints (definitions vignette, section 12) where
# the synthesis process is known: synthetic records drawn from the original's cells (its
# records sampled with replacement, as many as it has). The target of an interval is the
# measure's (or the holdout R's) mean over 500 fresh syntheses. Per setting, measure and
# kind of interval (across m = 2, 5, 10 syntheses; resynthesize = 9 beside one
# synthesis, i.e. across 1 + 9), the share of 95% intervals that cover it: all of them,
# those printed without a caveat ("*"), and how many carry one. Reported whatever it is.
#
# Usage: Rscript bench/coverage.R [replications]
suppressPackageStartupMessages(library(synthrisk))
options(synthrisk.n_threads = 2, synthrisk.progress = FALSE, synthrisk.warn_labels = FALSE)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1) as.integer(args[1]) else 100L
settings <- list(
  list(keys = c("sex", "age", "region", "placesize"), target = "depress",
       about = "measures far from 0"),
  # Few keys and a target with one dominant level: DiSCO and DiSDiO near 0.
  list(keys = c("sex", "region", "placesize"), target = "marital", about = "DiSCO and DiSDiO near 0")
)
kinds <- c("m = 2", "m = 5", "m = 10", "resynthesize = 9")
set.seed(2026)
cat("\n## Coverage of 95% intervals (synthesis process known)\n\n")
cat(sprintf(paste("Measured %s, load average %s. SD2011 split by holdout_split(prop = 0.2, seed = 1): syntheses",
                  "drawn from the training records' cells (sampled with replacement, as many as there are), the",
                  "control records as the holdout. The true value is each measure's (and R's) mean over 500 fresh",
                  "syntheses. %d replications per setting and kind of interval. Each cell: coverage of all",
                  "intervals / of those printed without a caveat (\"k of n\" when fewer than 20) (share with a caveat). A caveat (\"*\") marks an",
                  "interval whose values are all equal, reach 0 or 100 %% (1 for R), or are a few whole numbers. Coverage should be near",
                  "95%%; its binomial standard error is about 1.5 points at 200 replications.\n"),
            format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC"), readLines("/proc/loadavg"), reps))
worst <- numeric(0)
for (setting in settings) {
  keys <- setting$keys
  target <- setting$target
  parts <- holdout_split(sd2011[c(keys, target)], prop = 0.2, seed = 1)
  train <- parts$train
  n <- nrow(train)
  synthesis <- function(data = train) data[sample.int(nrow(data), nrow(data), replace = TRUE), , drop = FALSE]
  call <- function(syn, ...) {
    disclosure(syn, train, keys = keys, target = target, print.flag = FALSE, control = parts$control, ...)
  }
  # Every interval of a result, one row per quantity ("repU", "R of repU", ...).
  intervals_of <- function(d, method) {
    iv <- tidy(d, type = "intervals")
    iv <- iv[iv$method == method, ]
    data.frame(quantity = ifelse(iv$quantity == "R", paste("R of", iv$measure), iv$measure),
               low = iv$conf.low, high = iv$conf.high, caveat = !is.na(iv$caveat), stringsAsFactors = FALSE)
  }
  t0 <- Sys.time()
  fresh <- call(replicate(500, synthesis(), simplify = FALSE))
  per_syn <- tidy(fresh)
  truth <- tapply(per_syn$value, per_syn$measure, mean)
  r <- fresh$holdout
  truth <- c(truth, stats::setNames(tapply(r$R, r$measure, mean), paste("R of", names(tapply(r$R, r$measure, mean)))))
  # Quantities that vary: not the original's own measures, not undefined ones.
  quantities <- names(truth)[is.finite(truth)]
  hits <- list()
  for (kind in kinds) {
    rows <- vector("list", reps)
    for (i in seq_len(reps)) {
      d <- if (kind == "resynthesize = 9") {
        call(synthesis(), resynthesize = 9, synthesizer = synthesis, seed = i)
      } else {
        call(replicate(as.integer(sub("m = ", "", kind)), synthesis(), simplify = FALSE), conf.level = 0.95)
      }
      iv <- intervals_of(d, if (kind == "resynthesize = 9") "resynthesized" else "across syntheses")
      iv <- iv[iv$quantity %in% quantities & !is.na(iv$low), ]
      iv$covered <- iv$low <= truth[iv$quantity] & truth[iv$quantity] <= iv$high
      rows[[i]] <- iv
    }
    hits[[kind]] <- do.call(rbind, rows)
  }
  secs <- as.numeric(Sys.time() - t0, units = "secs")
  # Quantities with spread across syntheses (the original's own measures are the same in every one).
  spread <- function(v) diff(range(v)) > 0
  varies <- c(tapply(per_syn$value, per_syn$measure, spread),
              stats::setNames(tapply(r$R, r$measure, spread), paste("R of", names(tapply(r$R, r$measure, spread)))))
  varying <- quantities[varies[quantities] %in% TRUE]
  cat(sprintf("\n### SD2011, keys %s; target %s: %s (%.0f s)\n\n", paste(keys, collapse = ", "), target, setting$about,
              secs))
  cat(paste0("| quantity | true value | ", paste(kinds, collapse = " | "), " |\n"))
  cat(paste0("| --- | --- |", strrep(" --- |", length(kinds)), "\n"))
  pct <- function(x) if (length(x) == 0) "-" else sprintf("%.0f%%", 100 * mean(x))
  for (q in varying) {
    cells <- vapply(kinds, function(kind) {
      h <- hits[[kind]][hits[[kind]]$quantity == q, ]
      clean <- h$covered[!h$caveat]
      if (length(clean) >= 20) worst[paste(setting$target, q, kind)] <<- mean(clean)
      shown <- if (length(clean) >= 20) pct(clean) else sprintf("%d of %d", sum(clean), length(clean))
      sprintf("%s / %s (%s)", pct(h$covered), shown, pct(h$caveat))
    }, character(1))
    cat(sprintf("| %s | %.3f | %s |\n", q, truth[[q]], paste(cells, collapse = " | ")))
  }
}
cat(sprintf(paste("\nLowest coverage of intervals printed without a caveat (kinds with at least 20 such intervals):",
                  "%.0f%% (%s). Intervals of the original's own measures (UiO, Dorig, CAPd, ...) are the same in",
                  "every synthesis and are not listed; measures undefined in some synthesis (TCAP when nothing is",
                  "predicted with certainty) have no interval.\n"),
            100 * min(worst), names(worst)[which.min(worst)]))
