# key_sweep() on Adult (issue 39): 8 candidate keys, every other variable a target,
# all 255 non-empty subsets, against looping multi.disclosure() over the same subsets
# in the same process; the numbers checked equal. Run from the package root after
# installing: Rscript bench/key-sweep.R [threads] [reps]
suppressPackageStartupMessages(library(synthrisk))
args <- commandArgs(trailingOnly = TRUE)
threads <- if (length(args) >= 1) as.integer(args[1]) else 2L
reps <- if (length(args) >= 2) as.integer(args[2]) else 3L
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

cat(sprintf("Adult: %s records, %d candidate keys, %d targets, 255 subsets, %d threads\n",
            format(nrow(orig), big.mark = ","), length(keys), length(targets), threads))
cat(sprintf("key_sweep():                  %.2f s (median of %d); R memory peak %.0f MB\n", sweep_s, reps, sweep_mb))
cat(sprintf("multi.disclosure() x 255:     %.2f s\n", loop_s))
cat(sprintf("speed-up:                     %.1fx\n", loop_s / sweep_s))
cat("process peak memory after the sweeps (VmHWM):", sweep_peak, "\n")
cat("load:", system("uptime", intern = TRUE), "\n")
