# dcr() (distance to closest record, SPEC 11) measured in one run: the whole Adult data
# both directions, with and without control records (a 20 % holdout_split()); 10,000 x
# 10,000 Adult records beside gower::gower_topn() on the same records; 1e6 synthetic x
# 1e6 original records of 10 mixed variables, synthetic rows made as a synthesis makes
# them (original rows resampled, three variables redrawn from their margins), with the
# peak memory above the session; and the worst case, synthetic data generated
# independently, at growing sizes until one run passes SYNTHRISK_BENCH_DCR_WORST_S
# seconds (default 120), with the size that would finish in 10 minutes extrapolated.
# Prints markdown sections for bench/RESULTS.md.
# SYNTHRISK_BENCH_DCR_PARTS: the parts to run (default "adult,gower,big,worst").
suppressPackageStartupMessages(library(synthrisk))
parts_to_run <- strsplit(Sys.getenv("SYNTHRISK_BENCH_DCR_PARTS", "adult,gower,big,worst"), ",")[[1]]
threads <- synthrisk_threads()
# Median elapsed and CPU seconds (user + system, every thread of the process): on a
# machine shared with other work the CPU time is the steadier figure.
time_of <- function(f, runs = 3) {
  t <- vapply(seq_len(runs), function(i) {
    x <- system.time(f())
    c(x[["elapsed"]], x[["user.self"]] + x[["sys.self"]])
  }, numeric(2))
  c(elapsed = stats::median(t[1, ]), cpu = stats::median(t[2, ]))
}
rss_kb <- function(field) {
  line <- grep(paste0("^", field, ":"), readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", line))
}
# Seconds and peak resident memory above the session (MB) of one call.
measured <- function(f) {
  invisible(gc())
  writeLines("5", "/proc/self/clear_refs")
  base <- rss_kb("VmRSS")
  t <- system.time(res <- f())
  list(s = t[["elapsed"]], cpu = t[["user.self"]] + t[["sys.self"]], peak_mb = (rss_kb("VmHWM") - base) / 1024, result = res)
}
load_avg <- function() paste(readLines("/proc/loadavg"), collapse = " ")

cat(sprintf("\n## dcr(): distance to closest record\n\n%d threads; load average before the run: %s (above the number of cores, other work shared the machine and the times are upper bounds).\n\n",
            threads, load_avg()))

# Adult, whole ---------------------------------------------------------------------------
if ("adult" %in% parts_to_run) {
adult_syn <- adult_synds$syn
t_adult <- time_of(function() dcr(adult_syn, adult))
parts <- holdout_split(adult, prop = 0.2, seed = 1)
t_adult_ctrl <- time_of(function() dcr(adult_syn, parts$train, control = parts$control))
d_adult <- dcr(adult_syn, parts$train, control = parts$control)
cat("| workload | elapsed, median of 3 (s) | CPU (s) | target |\n|---|---|---|---|\n")
cat(sprintf("| Adult whole: 48,842 synthetic x 48,842 original, 13 variables, both directions (dcr, nn, d2; r) | %.2f | %.2f | <= 2 s |\n",
            t_adult[["elapsed"]], t_adult[["cpu"]]))
cat(sprintf("| Adult with control: 48,842 synthetic x 39,074 train + 9,768 control (20%% holdout_split()), every search of SPEC 11 | %.2f | %.2f | |\n",
            t_adult_ctrl[["elapsed"]], t_adult_ctrl[["cpu"]]))
s <- d_adult$summary
cat(sprintf("\nAdult with control: IMS %.2f, IMS_ctrl %.2f, dcr q05/q50 %.4f/%.4f, base q05/q50 %.4f/%.4f, share %.2f (no leak %.2f), AUC %.4f.\n",
            s$IMS, s$IMS_ctrl, s$dcr_q05, s$dcr_q50, s$base_q05, s$base_q50, s$share, s$share_noleak, s$AUC))
}

# 10,000 x 10,000 beside gower_topn() -------------------------------------------------
if ("gower" %in% parts_to_run && requireNamespace("gower", quietly = TRUE)) {
  adult_syn <- adult_synds$syn
  set.seed(10)
  orig10 <- adult[sample(nrow(adult), 1e4), ]
  syn10 <- adult_syn[sample(nrow(adult_syn), 1e4), ]
  t_ours10 <- time_of(function() dcr(syn10, orig10))
  t_gower10 <- time_of(function() gower::gower_topn(syn10, orig10, n = 2, nthread = threads), runs = 1)
  cat(sprintf("\n10,000 synthetic x 10,000 original Adult records (13 variables), %d threads each:\n\n", threads))
  cat("| call | elapsed (s) | CPU (s) | ratio of elapsed | ratio of CPU |\n|---|---|---|---|---|\n")
  cat(sprintf("| gower::gower_topn(syn, orig, n = 2) (one direction: nearest and second), one run | %.2f | %.2f | 1 | 1 |\n",
              t_gower10[["elapsed"]], t_gower10[["cpu"]]))
  cat(sprintf("| dcr(syn, orig) (both directions: dcr, nn, d2, and r of every original), median of 3 | %.3f | %.3f | %.0fx faster | %.0fx less (target >= 50x) |\n",
              t_ours10[["elapsed"]], t_ours10[["cpu"]], t_gower10[["elapsed"]] / t_ours10[["elapsed"]],
              t_gower10[["cpu"]] / t_ours10[["cpu"]]))
}

# 1e6 x 1e6, 10 mixed variables, synthesis-like --------------------------------------
make_people <- function(n, seed) {
  set.seed(seed)
  income <- round(stats::rlnorm(n, 7.5, 0.6))
  income[stats::runif(n) < 0.08] <- NA
  income[stats::runif(n) < 0.04] <- -8
  data.frame(sex = factor(sample(c("F", "M"), n, TRUE)),
             age = sample(18:90, n, TRUE),
             region = factor(sample(sprintf("R%02d", 1:16), n, TRUE)),
             edu = factor(sample(c("primary", "vocational", "secondary", "post-sec", "bachelor", "master", "phd", NA),
                                 n, TRUE, prob = c(10, 25, 25, 10, 15, 10, 2, 3))),
             marital = factor(sample(c("single", "married", "widowed", "divorced", "separated"), n, TRUE,
                                     prob = c(30, 50, 8, 10, 2))),
             employed = factor(sample(c("yes", "no", "retired"), n, TRUE, prob = c(60, 15, 25))),
             income = income,
             hours = sample(0:70, n, TRUE),
             children = sample(0:6, n, TRUE, prob = c(30, 25, 25, 12, 5, 2, 1)),
             weight = round(stats::rnorm(n, 75, 12), 1))
}
if ("big" %in% parts_to_run) {
n_big <- as.numeric(Sys.getenv("SYNTHRISK_BENCH_DCR_ROWS", "1e6"))
orig <- make_people(n_big, 1)
set.seed(2)
syn <- orig[sample(n_big, n_big, replace = TRUE), ]
for (v in c("marital", "income", "hours")) syn[[v]] <- orig[[v]][sample(n_big, n_big, replace = TRUE)]
rownames(syn) <- NULL
big <- measured(function() dcr(syn, orig, cont.na = list(income = -8)))
data_mb <- (as.numeric(utils::object.size(orig)) + as.numeric(utils::object.size(syn))) / 2^20
cat(sprintf("\n%s synthetic x %s original records, 10 variables (sex, age, region, edu, marital, employed, income with NA and the code -8, hours, children, weight); synthetic rows resampled from the original with marital, income and hours redrawn from their margins; both directions; one run:\n\n",
            format(n_big, big.mark = ",", scientific = FALSE), format(n_big, big.mark = ",", scientific = FALSE)))
cat("| elapsed (s) | CPU (s) | target | peak memory above the session | target | the data (both frames) |\n|---|---|---|---|---|---|\n")
cat(sprintf("| %.1f | %.1f | <= 60 s | %.0f MB | <= 1 GB | %.0f MB |\n", big$s, big$cpu, big$peak_mb, data_mb))
cat(sprintf("\nResult: IMS %.2f, dcr q05/q50 %.4f/%.4f, nndr q05 %.4f, copied %.2f.\n", big$result$summary$IMS,
            big$result$summary$dcr_q05, big$result$summary$dcr_q50, big$result$summary$nndr_q05,
            big$result$summary$copied))
rm(orig, syn, big)
invisible(gc())
}

# Worst case: independent synthetic data ------------------------------------------------
if ("worst" %in% parts_to_run) {
limit <- as.numeric(Sys.getenv("SYNTHRISK_BENCH_DCR_WORST_S", "120"))
worst <- data.frame(rows = numeric(0), s = numeric(0), cpu = numeric(0), peak_mb = numeric(0))
n <- 1e4
repeat {
  o <- make_people(n, 3)
  s_ind <- make_people(n, 4)
  r <- measured(function() dcr(s_ind, o, cont.na = list(income = -8)))
  worst <- rbind(worst, data.frame(rows = n, s = r$s, cpu = r$cpu, peak_mb = r$peak_mb))
  rm(o, s_ind, r)
  if (worst$s[nrow(worst)] > limit || n >= 1e7) break
  n <- if (worst$s[nrow(worst)] < limit / 8) n * 3 else n * 2
}
k <- nrow(worst)
exponent <- log(worst$s[k] / worst$s[k - 1]) / log(worst$rows[k] / worst$rows[k - 1])
n_10min <- worst$rows[k] * (600 / worst$s[k])^(1 / exponent)
cat("\nWorst case: synthetic data generated independently of the original (same generator, other seed), where little prunes; N synthetic x N original, both directions, one run each:\n\n")
cat("| N | elapsed (s) | CPU (s) | peak memory above the session (MB) |\n|---|---|---|---|\n")
cat(sprintf("| %s | %.2f | %.2f | %.0f |\n", format(worst$rows, big.mark = ",", scientific = FALSE), worst$s, worst$cpu,
            worst$peak_mb), sep = "")
cat(sprintf("\nTime grows as N^%.2f between the last two sizes; extrapolated, the largest N x N that completes in 10 minutes is about %s (not run: the benchmark stops after the first run above %.0f s).\n",
            exponent, format(signif(n_10min, 2), big.mark = ",", scientific = FALSE), limit))
}
