# The curves at one scale size, in their own R process (run by bench/run.R).
# Usage: Rscript bench/curves_one.R <rows> <m> <runs> <out.rds>
# Times multi.disclosure(), tau_curve() (21 tau values) and size_curve() (20 sizes x 10
# repeats) on the scale data of bench/generate.R, in the same process, so the curves
# can be given as ratios to one multi.disclosure() call.
args <- commandArgs(trailingOnly = TRUE)
n <- as.numeric(args[1])
m <- as.integer(args[2])
runs <- as.integer(args[3])
out <- args[4]
suppressPackageStartupMessages(library(synthrisk))
source("bench/generate.R")

orig <- make_original(n)
syn <- lapply(seq_len(m), function(j) make_synthetic(orig, seed = 100 + j))
object <- if (m == 1) syn[[1]] else syn

median_time <- function(f, runs) {
  stats::median(vapply(seq_len(runs), function(i) system.time(f())[["elapsed"]], numeric(1)))
}
rss_kb <- function(field) {
  line <- grep(paste0("^", field, ":"), readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", line))
}

multi_s <- median_time(function() {
  multi.disclosure(object, orig, keys = bench_keys, targets = bench_targets, plot = FALSE, print.flag = FALSE)
}, runs)
tau_s <- median_time(function() tau_curve(object, orig, keys = bench_keys, targets = bench_targets), runs)
invisible(gc(full = TRUE))
writeLines("5", "/proc/self/clear_refs")
base_rss <- rss_kb("VmRSS")
size_s <- system.time(sc <- size_curve(object, orig, keys = bench_keys, targets = bench_targets, seed = 1))[["elapsed"]]
size_peak_mb <- (rss_kb("VmHWM") - base_rss) / 1024
result <- list(rows = n, m = m, runs = runs, multi_s = multi_s, tau_s = tau_s, size_s = size_s,
               size_rows = nrow(sc), size_peak_above_session_mb = size_peak_mb)
saveRDS(result, out)
str(result)
