# A/B timing of two installs of synthrisk in one run: `base` (an earlier commit) and
# `head` (this checkout), each call timed in a fresh R process per round, each round a
# pair of processes (base then head, head then base in the next round) so that both see
# the same machine state. The machine's speed drifts from minute to minute (a virtual
# machine's neighbours), so the ratio is taken within each round and the median of
# those ratios reported, with their quartiles. Workloads: SD2011
# multi.disclosure (m = 5, 4 keys, 5 targets), Adult multi.disclosure (m = 1, 4 keys,
# 9 targets), the independent 1e7-row data (5 keys, 10 targets, m = 1), dcr() on
# Adult (every variable, m = 1), two attacks on Adult over every record
# (inference_risk() of income and linkability_risk()) and two curves of SD2011
# (tau_curve() of two targets, size_curve() with 5 replicates).
#
# Usage: Rscript bench/ab.R <base library> <head library> [rounds] [workloads]: `rounds`
# rounds of the 1e7, dcr, attack and curve workloads and three times as many of the
# small ones;
# `workloads` (comma-separated, default all) picks some of them.
# Writes a markdown section to standard output.

args <- commandArgs(trailingOnly = TRUE)
libs <- c(base = args[1], head = args[2])
rounds <- if (length(args) >= 3) as.integer(args[3]) else 5L
scratch <- tempfile("ab-")
dir.create(scratch)
if (length(args) < 4 || "indep_1e7" %in% strsplit(args[4], ",")[[1]]) {
  source("bench/generate.R")
  orig <- make_original(1e7, seed = 1)
  syn <- make_original(1e7, seed = 2)
  saveRDS(list(orig = orig, syn = syn), file.path(scratch, "indep.rds"), compress = FALSE)
  rm(orig, syn)
  invisible(gc())
}

# One process: load the data, warm up once, then the median of `reps` timed calls.
worker <- '
args <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages(library(synthrisk, lib.loc = args[1]))
options(synthrisk.n_threads = 2)
workload <- args[2]
reps <- as.integer(args[3])
time_of <- function(f) { f(); median(vapply(seq_len(reps), function(i) { t0 <- Sys.time(); f(); as.numeric(Sys.time() - t0, units = "secs") }, 0)) }
gc_time_of <- function(f) { f(); median(vapply(seq_len(reps), function(i) system.time(f())[["elapsed"]], 0)) }
keys_sd <- c("sex", "age", "region", "placesize")
if (workload == "sd2011") {
  f <- function() multi.disclosure(sd2011_synds5, sd2011, keys_sd, print.flag = FALSE, plot = FALSE)
} else if (workload == "adult") {
  f <- function() multi.disclosure(adult_synds, adult, c("age", "sex", "occupation", "race"), print.flag = FALSE, plot = FALSE)
} else if (workload == "dcr_adult") {
  f <- function() dcr(adult_synds, adult)
} else if (workload == "attacks_adult") {
  f <- function() {
    inference_risk(adult_synds, adult, secret = "income", aux = c("age", "sex", "race", "occupation", "education.num"))
    linkability_risk(adult_synds, adult, aux_a = c("age", "sex", "race"), aux_b = c("occupation", "education.num"))
  }
} else if (workload == "curves_sd2011") {
  f <- function() {
    tau_curve(sd2011_synds5, sd2011, keys_sd, targets = c("depress", "income"))
    size_curve(sd2011_synds5, sd2011, keys_sd, targets = "depress", reps = 5, seed = 1)
  }
} else {
  d <- readRDS(args[4])
  f <- function() multi.disclosure(d$syn, d$orig, keys = c("sex", "age", "region", "placesize", "occupation"), print.flag = FALSE, plot = FALSE)
}
cat(time_of(f), gc_time_of(f), "\n")
'
worker_file <- file.path(scratch, "worker.R")
writeLines(worker, worker_file)
run <- function(lib, workload, reps) {
  out <- system2(file.path(R.home("bin"), "Rscript"),
                 c(worker_file, lib, workload, reps, file.path(scratch, "indep.rds")), stdout = TRUE)
  as.numeric(strsplit(trimws(out[length(out)]), " ")[[1]])
}
workloads <- c(sd2011 = 60L, adult = 60L, indep_1e7 = 3L, dcr_adult = 3L, attacks_adult = 3L, curves_sd2011 = 5L)
workload_rounds <- c(sd2011 = 3L * rounds, adult = 3L * rounds, indep_1e7 = rounds, dcr_adult = rounds,
                     attacks_adult = rounds, curves_sd2011 = rounds)
if (length(args) >= 4) {
  chosen <- strsplit(args[4], ",")[[1]]
  workloads <- workloads[chosen]
  workload_rounds <- workload_rounds[chosen]
}
rows <- list()
for (w in names(workloads)) {
  times <- list(base = NULL, head = NULL)
  for (r in seq_len(workload_rounds[[w]])) {
    order <- if (r %% 2 == 1) names(libs) else rev(names(libs))
    for (v in order) times[[v]] <- rbind(times[[v]], run(libs[[v]], w, workloads[[w]]))
  }
  med <- vapply(times, function(t) apply(t, 2, stats::median), numeric(2))
  paired <- times$head[, 1] / times$base[, 1]
  paired_gc <- times$head[, 2] / times$base[, 2]
  q <- stats::quantile(paired, c(0.25, 0.75), names = FALSE)
  rows[[w]] <- data.frame(workload = w, rounds = workload_rounds[[w]], base_s = med[1, "base"], head_s = med[1, "head"],
                          ratio = stats::median(paired), ratio_q1 = q[1], ratio_q3 = q[2],
                          ratio_gc = stats::median(paired_gc), base_gc_s = med[2, "base"], head_gc_s = med[2, "head"])
}
tab <- do.call(rbind, rows)
load_avg <- tryCatch(readLines("/proc/loadavg"), error = function(e) "unknown")
cat("\n## A/B: this checkout against an earlier commit, same run\n\n")
cat(sprintf("Measured %s; load average before the last workload: %s.", format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC"),
            load_avg),
    "Each round is a pair of fresh R processes, base and head (in turn first), each timing the median of its calls",
    "(wall time; `_gc`: system.time() with its full garbage collection first). `base_s`, `head_s`: the median over",
    "the rounds; `ratio`: the median over the rounds of head / base within the round, with its quartiles (`q1`, `q3`);",
    "below 1, head is faster.\n\n")
fmt <- function(x) formatC(x, digits = 3, format = "g")
cat("| workload | rounds | base_s | head_s | ratio | q1 | q3 | ratio_gc | base_gc_s | head_gc_s |\n",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n", sep = "")
for (i in seq_len(nrow(tab))) {
  cat(sprintf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", tab$workload[i], tab$rounds[i], fmt(tab$base_s[i]),
              fmt(tab$head_s[i]), fmt(tab$ratio[i]), fmt(tab$ratio_q1[i]), fmt(tab$ratio_q3[i]), fmt(tab$ratio_gc[i]),
              fmt(tab$base_gc_s[i]), fmt(tab$head_gc_s[i])))
}
unlink(scratch, recursive = TRUE)
