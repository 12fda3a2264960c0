# Record-level analyses beside one disclosure() call on the same data, measured in this
# run: record_risk() at 1e7 rows (bench/generate.R data, 5 keys, one target) and
# identification_risk() on 1e6 records x 3 known x 3 synthesised variables (two numeric
# with a radius), m = 1. Prints markdown sections for bench/RESULTS.md.
# SYNTHRISK_BENCH_RECORD_ROWS sets the record_risk size (default 1e7).
suppressPackageStartupMessages(library(synthrisk))
source("bench/generate.R")
time_of <- function(f, runs = 3) {
  f()
  stats::median(vapply(seq_len(runs), function(i) system.time(f())[["elapsed"]], numeric(1)))
}

# record_risk ----------------------------------------------------------------------
n <- as.numeric(Sys.getenv("SYNTHRISK_BENCH_RECORD_ROWS", "1e7"))
orig <- make_original(n)
syn <- make_synthetic(orig, seed = 101)
keys <- names(orig)[1:5]
target <- names(orig)[6]
t_rr <- time_of(function() record_risk(syn, orig, keys, target = target))
t_d <- time_of(function() disclosure(syn, orig, keys = keys, target = target, print.flag = FALSE))
cat(sprintf("\n## record_risk\n\n%s rows (bench/generate.R), keys %s, target %s, m = 1; %d threads.\n\n",
            format(n, big.mark = ",", scientific = FALSE), paste(keys, collapse = ", "), target, synthrisk_threads()))
cat("| call | median of 3 (s) | ratio to disclosure() |\n|---|---|---|\n")
cat(sprintf("| record_risk() | %.2f | %.2f |\n| disclosure() | %.2f | 1 |\n", t_rr, t_rr / t_d, t_d))
rm(orig, syn)
invisible(gc())

# identification_risk -----------------------------------------------------------------
n <- 1e6
set.seed(1)
orig <- data.frame(sex = sample(c("F", "M"), n, TRUE), age = sample(18:90, n, TRUE),
                   region = factor(sample(sprintf("R%02d", 1:16), n, TRUE)),
                   income = round(rlnorm(n, 7.5, 0.6)), weight = round(rnorm(n, 75, 12), 1),
                   depress = sample(0:21, n, TRUE))
part <- orig
part$income <- round(part$income * exp(rnorm(n, 0, 0.2)))
part$weight <- round(part$weight + rnorm(n, 0, 3), 1)
part$depress <- ifelse(runif(n) < 0.3, sample(0:21, n, TRUE), part$depress)
id_call <- function() identification_risk(part, orig, c("sex", "age", "region"), c("income", "weight", "depress"),
                                          radius = c(income = 0.1, weight = 0.05))
t_id <- time_of(id_call)
t_disc <- time_of(function() disclosure(part, orig, keys = c("sex", "age", "region"), target = "depress",
                                        print.flag = FALSE))
ir <- id_call()
cat(sprintf("\n## identification_risk\n\n1,000,000 records, known sex, age, region; synthesised income and weight (relative radii 0.1 and 0.05) and depress; m = 1; %d threads.\n\n",
            synthrisk_threads()))
cat("| call | median of 3 (s) | ratio to disclosure() |\n|---|---|---|\n")
cat(sprintf("| identification_risk() | %.2f | %.2f |\n| disclosure() (same keys, target depress) | %.2f | 1 |\n",
            t_id, t_id / t_disc, t_disc))
cat(sprintf("\nResult: exp.risk %.1f, true.rate %.4f, false.rate %.4f, s = %d.\n", ir$summary$exp.risk[1],
            ir$summary$true.rate[1], ir$summary$false.rate[1], as.integer(ir$summary$s[1])))
