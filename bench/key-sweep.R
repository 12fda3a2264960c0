# key_sweep() on Adult (issue 39): 8 candidate keys, every other variable a target,
# all 255 non-empty subsets, against looping multi.disclosure() over the same subsets
# in the same process; the numbers checked equal. Then the 1e7-row independent data of
# bench/generate.R with its 5 keys as the candidates (31 subsets), timed once. Run
# from the package root after installing: Rscript bench/key-sweep.R [threads] [reps]
# [big: 1 to time the 1e7 rows, default 1]. Prints a markdown section.
suppressPackageStartupMessages(library(synthrisk))
args <- commandArgs(trailingOnly = TRUE)
threads <- if (length(args) >= 1) as.integer(args[1]) else 2L
reps <- if (length(args) >= 2) as.integer(args[2]) else 3L
big <- if (length(args) >= 3) as.integer(args[3]) == 1L else TRUE
orig <- readRDS("bench/data/adult_orig.rds")
syn <- readRDS("bench/data/adult_syn.rds")
keys <- c("age", "workclass", "education.num", "marital.status", "occupation", "race", "sex", "native.country")
targets <- setdiff(names(orig), keys)

median_time <- function(f, reps) {
  f()
  stats::median(vapply(seq_len(reps), function(i) system.time(f())[["elapsed"]], numeric(1)))
}

sweep <- function() key_sweep(syn, orig, keys = keys, targets = targets, sizes = 1:8, n_threads = threads)
loop <- function() {
  subsets <- unlist(lapply(1:8, function(k) utils::combn(keys, k, simplify = FALSE)), recursive = FALSE)
  lapply(subsets, function(s) {
    multi.disclosure(syn, orig, keys = s, targets = targets, print.flag = FALSE, plot = FALSE, n_threads = threads)
  })
}

invisible(gc(reset = TRUE))
sweep_s <- median_time(sweep, reps)
sweep_mb <- sum(gc()[, 6])
# The process's peak resident memory so far (Linux): R, the encoding and the core's passes.
sweep_peak <- sub("^VmHWM:\\s*", "", grep("^VmHWM", readLines("/proc/self/status"), value = TRUE))
loop_s <- median_time(loop, 1)

# The same numbers: DiSCO and repU of a few subsets.
ks <- sweep()
tk <- tidy(ks)
for (s in list(c("age", "sex"), keys[c(1, 3, 5, 7)], keys)) {
  md <- multi.disclosure(syn, orig, keys = s, targets = targets, print.flag = FALSE, plot = FALSE)
  tm <- tidy(md)
  label <- paste(keys[keys %in% s], collapse = "+")
  got <- tk[tk$keys == label & tk$measure == "DiSCO", ]
  want <- tm[tm$measure == "DiSCO", ]
  stopifnot(isTRUE(all.equal(got$estimate, want$value[match(got$target, want$target)], tolerance = 1e-9)))
}

cat("\n## The key sweep (bench/key-sweep.R)\n\n")
cat(sprintf("Adult: %s records, %d candidate keys, %d targets, 255 subsets, %d threads; load before: %s.\n\n",
            format(nrow(orig), big.mark = ","), length(keys), length(targets), threads,
            paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = " ")))
cat("| | seconds |\n|---|---|\n")
cat(sprintf("| key_sweep(), median of %d | %.2f |\n", reps, sweep_s))
cat(sprintf("| multi.disclosure() looped over the 255 subsets | %.2f |\n", loop_s))
cat(sprintf("\nSpeed-up %.1fx. R heap after the sweeps %.0f MB; process peak resident memory (VmHWM) %s.\n",
            loop_s / sweep_s, sweep_mb, sweep_peak))
if (big) {
  source("bench/generate.R")
  big_orig <- make_original(1e7, seed = 1)
  big_syn <- make_original(1e7, seed = 2)
  big_keys <- c("sex", "age", "region", "placesize", "occupation")
  invisible(gc(reset = TRUE))
  big_s <- system.time(big_ks <- key_sweep(big_syn, big_orig, keys = big_keys, sizes = 1:5, n_threads = threads))[["elapsed"]]
  big_peak <- sub("^VmHWM:\\s*", "", grep("^VmHWM", readLines("/proc/self/status"), value = TRUE))
  cat(sprintf(paste0("\n1e7-row independent data (bench/generate.R), candidate keys %s, %d targets, all %d subsets ",
                     "of sizes 1-5: %.1f s, one run; process peak resident memory %s (the two data frames included).\n"),
              paste(big_keys, collapse = ", "), length(big_ks$targets), length(big_ks$subsets), big_s, big_peak))
}
