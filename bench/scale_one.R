# One size of the scale benchmark, in its own R process (run by bench/run.R under
# /usr/bin/time -v).
# Usage: Rscript bench/scale_one.R <rows> <m> <runs> <out.rds> [threads] [workload] [floor]
#   threads: comma-separated thread counts (default 2);
#   workload: "resampled" (synthetic rows resample the original, 10% perturbed; the
#     default) or "independent" (synthetic data generated independently of the
#     original: few shared cells, every cell small);
#   floor: "floor" (default) or "nofloor" (skip data.table, e.g. at 5e7 rows).
# Times synthrisk's multi.disclosure() and the data.table floor (the count tables
# from integer-coded columns) in the same process, and synthrisk's peak memory above
# the session that holds the data.
args <- commandArgs(trailingOnly = TRUE)
n <- as.numeric(args[1])
m <- as.integer(args[2])
runs <- as.integer(args[3])
out <- args[4]
thread_counts <- if (length(args) >= 5) as.integer(strsplit(args[5], ",")[[1]]) else 2L
workload <- if (length(args) >= 6) args[6] else "resampled"
with_floor <- !(length(args) >= 7 && args[7] == "nofloor")
stopifnot(workload %in% c("resampled", "independent"))
suppressPackageStartupMessages({
  library(synthrisk)
  library(data.table)
})
source("bench/generate.R")

orig <- make_original(n)
syn <- lapply(seq_len(m), function(j) {
  if (workload == "independent") make_original(n, seed = 100 + j) else make_synthetic(orig, seed = 100 + j)
})

# Integer codes for the floor: factor codes, numeric values matched to the sorted
# distinct values of the original and syntheses (coding is not timed).
code_columns <- function(d, all) {
  out <- lapply(names(d), function(v) {
    x <- d[[v]]
    if (is.factor(x)) as.integer(x) else match(x, all[[v]])
  })
  setDT(stats::setNames(out, names(d)))
}
if (with_floor) {
  distinct <- lapply(names(orig), function(v) {
    if (is.factor(orig[[v]])) NULL else sort(unique(unlist(c(list(orig[[v]]), lapply(syn, `[[`, v)))))
  })
  names(distinct) <- names(orig)
  orig_codes <- code_columns(orig, distinct)
  syn_codes <- lapply(syn, code_columns, all = distinct)
  rm(distinct)
}

rss_kb <- function(field) {
  line <- grep(paste0("^", field, ":"), readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", line))
}

run_synthrisk <- function(threads) {
  multi.disclosure(if (m == 1) syn[[1]] else syn, orig, keys = bench_keys, targets = bench_targets,
                   plot = FALSE, print.flag = FALSE, n_threads = threads)
}

median_time <- function(f, runs) {
  times <- vapply(seq_len(runs), function(i) system.time(f())[["elapsed"]], numeric(1))
  stats::median(times)
}

result <- list(rows = n, m = m, runs = runs, workload = workload)
# Peak memory of one synthrisk call above the session holding the data.
invisible(gc(full = TRUE))
writeLines("5", "/proc/self/clear_refs")
base_rss <- rss_kb("VmRSS")
first <- run_synthrisk(max(thread_counts))
result$peak_above_session_mb <- (rss_kb("VmHWM") - base_rss) / 1024
result$session_rss_mb <- base_rss / 1024
rm(first)
invisible(gc())

for (th in thread_counts) {
  result[[paste0("synthrisk_s_", th, "t")]] <- median_time(function() run_synthrisk(th), runs)
}
if (with_floor) {
  setDTthreads(max(thread_counts))
  floor_tables <- function() {
    for (d in c(list(orig_codes), syn_codes)) {
      d[, .N, by = bench_keys]
      for (t in bench_targets) d[, .N, by = c(bench_keys, t)]
    }
  }
  result$floor_s <- median_time(floor_tables, runs)
  result$datatable_threads <- getDTthreads()
} else {
  result$floor_s <- NA_real_
}
saveRDS(result, out)
str(result)
