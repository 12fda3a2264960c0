# identification_risk() on 1e6 records x 3 known x 3 synthesised variables (two
# numeric with a radius), m = 1, beside one disclosure() call on the same data, both
# measured in this run. Prints a markdown section for bench/RESULTS.md.
suppressPackageStartupMessages(library(synthrisk))
n <- as.numeric(Sys.getenv("SYNTHRISK_BENCH_ID_ROWS", "1e6"))
set.seed(1)
orig <- data.frame(sex = sample(c("F", "M"), n, TRUE), age = sample(18:90, n, TRUE),
                   region = factor(sample(sprintf("R%02d", 1:16), n, TRUE)),
                   income = round(rlnorm(n, 7.5, 0.6)), weight = round(rnorm(n, 75, 12), 1),
                   depress = sample(0:21, n, TRUE))
part <- orig
part$income <- round(part$income * exp(rnorm(n, 0, 0.2)))
part$weight <- round(part$weight + rnorm(n, 0, 3), 1)
part$depress <- ifelse(runif(n) < 0.3, sample(0:21, n, TRUE), part$depress)
time_of <- function(f) {
  f()
  stats::median(vapply(1:3, function(i) system.time(f())[["elapsed"]], numeric(1)))
}
t_id <- time_of(function() identification_risk(part, orig, c("sex", "age", "region"), c("income", "weight", "depress"),
                                                radius = c(income = 0.1, weight = 0.05)))
t_disc <- time_of(function() disclosure(part, orig, keys = c("sex", "age", "region"), target = "depress",
                                        print.flag = FALSE))
ir <- identification_risk(part, orig, c("sex", "age", "region"), c("income", "weight", "depress"),
                          radius = c(income = 0.1, weight = 0.05))
cat(sprintf("\n## identification_risk\n\n%s records, known sex, age, region; synthesised income (relative radius 0.1), weight (0.05), depress; m = 1; %d threads.\n\n",
            format(n, big.mark = ",", scientific = FALSE), synthrisk_threads()))
cat("| call | median of 3 (s) | ratio to disclosure() |\n|---|---|---|\n")
cat(sprintf("| identification_risk() | %.2f | %.2f |\n| disclosure() (same keys, target depress) | %.2f | 1 |\n",
            t_id, t_id / t_disc, t_disc))
cat(sprintf("\nResult: exp.risk %.1f, true.rate %.4f, false.rate %.4f, s = %d.\n", ir$summary$exp.risk,
            ir$summary$true.rate, ir$summary$false.rate, ir$summary$s))
