# make bench: the benchmarks of synthrisk, written to bench/RESULTS.md and
# bench/time_vs_rows.png. Every figure is measured in this run on this machine.
#   1. SD2011: multi.disclosure on the m = 5 synthesis, 4 keys, 5 targets.
#   2. Adult: multi.disclosure, keys age, sex, occupation, race, 9 targets, m = 1.
#   3. Scale: generated data of 1e4 to 1e7 rows, 5 keys, 10 targets (bench/generate.R),
#      m = 1 and m = 5 at 1e6, each size in a fresh R process under /usr/bin/time -v.
#   4. The floor: data.table computing only the four count tables, same process.
#   5. The curves: tau_curve() (21 tau values) and size_curve() (20 sizes x 10 repeats)
#      as ratios to one multi.disclosure() call in the same process, on SD2011 (m = 5)
#      and on the scale data at 1e6 rows (m = 1; bench/curves_one.R, a fresh process).
#   6. The independent-synthetic workload: synthetic data generated independently of
#      the original (few shared cells), 5 keys, 10 targets, m = 1, at 1e7 rows (with
#      the data.table floor) and 5e7 rows (without it).
# Set SYNTHRISK_BENCH_MAX_ROWS (e.g. 1e6) for a quicker run.
suppressPackageStartupMessages(library(synthrisk))
runs <- 5L
max_rows <- as.numeric(Sys.getenv("SYNTHRISK_BENCH_MAX_ROWS", "5e7"))
out_dir <- "bench/out"
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)

# Median wall time of `runs` calls after a warm-up. Calls are timed with Sys.time()
# (microseconds; proc.time() ticks in milliseconds) and, as bench::mark does, without
# a forced garbage collection before each call: `gc_first = TRUE` (system.time()'s
# default) starts every call with the caches emptied by a full collection.
median_time <- function(f, runs, gc_first = FALSE) {
  f()  # warm-up
  one <- function() {
    if (gc_first) invisible(gc(FALSE))
    t0 <- Sys.time()
    f()
    as.numeric(Sys.time() - t0, units = "secs")
  }
  stats::median(vapply(seq_len(runs), function(i) one(), numeric(1)))
}

cat("SD2011 workload\n")
sd_keys <- c("sex", "age", "region", "placesize")
sd_s <- median_time(function() {
  multi.disclosure(sd2011_synds5, sd2011, keys = sd_keys, plot = FALSE, print.flag = FALSE)
}, 20)

cat("SD2011 curves\n")
sd_tau_s <- median_time(function() tau_curve(sd2011_synds5, sd2011, keys = sd_keys), 20)
sd_size_s <- median_time(function() size_curve(sd2011_synds5, sd2011, keys = sd_keys, seed = 1), 3)
sd_multi_same_s <- median_time(function() {
  multi.disclosure(sd2011_synds5, sd2011, keys = sd_keys, plot = FALSE, print.flag = FALSE)
}, 20)

cat("Adult workload\n")
adult_orig <- readRDS("bench/data/adult_orig.rds")
adult_syn <- readRDS("bench/data/adult_syn.rds")
adult_keys <- c("age", "sex", "occupation", "race")
adult_s <- median_time(function() {
  multi.disclosure(adult_syn, adult_orig, keys = adult_keys, plot = FALSE, print.flag = FALSE)
}, 20)
adult_targets <- length(setdiff(names(adult_orig), adult_keys))
sd_gc_s <- median_time(function() {
  multi.disclosure(sd2011_synds5, sd2011, keys = sd_keys, plot = FALSE, print.flag = FALSE)
}, 20, gc_first = TRUE)
adult_gc_s <- median_time(function() {
  multi.disclosure(adult_syn, adult_orig, keys = adult_keys, plot = FALSE, print.flag = FALSE)
}, 20, gc_first = TRUE)

run_size <- function(rows, m, threads, workload = "resampled", floor = "floor", n_runs = runs) {
  out <- file.path(out_dir, sprintf("scale_%s_%g_m%d.rds", workload, rows, m))
  time_log <- file.path(out_dir, sprintf("scale_%s_%g_m%d.time", workload, rows, m))
  cat(sprintf("Scale (%s): %g rows, m = %d, threads %s\n", workload, rows, m, threads))
  status <- system2("/usr/bin/time", c("-v", "-o", time_log, "Rscript", "bench/scale_one.R",
                                       format(rows, scientific = FALSE), m, n_runs, out, threads, workload, floor))
  if (status != 0) stop("benchmark of ", rows, " rows failed")
  res <- readRDS(out)
  max_rss <- grep("Maximum resident set size", readLines(time_log), value = TRUE)
  res$process_max_rss_mb <- as.numeric(gsub("[^0-9]", "", max_rss)) / 1024
  res
}

sizes <- c(1e4, 1e5, 1e6, 1e7)
sizes <- sizes[sizes <= max_rows]
scale <- lapply(sizes, function(n) run_size(n, 1L, if (n == max(sizes)) "2,1" else "2"))
m5 <- if (1e6 <= max_rows) run_size(1e6, 5L, "2") else NULL
indep_small <- if (1e7 > max_rows) run_size(max(sizes), 1L, "2", "independent") else NULL
indep_1e7 <- if (1e7 <= max_rows) run_size(1e7, 1L, "2", "independent", n_runs = 3L) else NULL
indep_5e7 <- if (5e7 <= max_rows) run_size(5e7, 1L, "2", "independent", "nofloor", n_runs = 1L) else NULL

run_curves <- function(rows, m) {
  out <- file.path(out_dir, sprintf("curves_%g_m%d.rds", rows, m))
  cat(sprintf("Curves: %g rows, m = %d\n", rows, m))
  status <- system2("Rscript", c("bench/curves_one.R", format(rows, scientific = FALSE), m, 3, out))
  if (status != 0) stop("curve benchmark of ", rows, " rows failed")
  readRDS(out)
}
curves_1e6 <- if (1e6 <= max_rows) run_curves(1e6, 1L) else NULL
curve_rows <- rbind(
  data.frame(workload = "SD2011, m = 5, 4 keys, 5 targets", multi_s = sd_multi_same_s, tau_s = sd_tau_s,
             tau_ratio = sd_tau_s / sd_multi_same_s, size_s = sd_size_s, size_ratio = sd_size_s / sd_multi_same_s),
  if (!is.null(curves_1e6)) {
    data.frame(workload = "1e6 rows, m = 1, 5 keys, 10 targets", multi_s = curves_1e6$multi_s, tau_s = curves_1e6$tau_s,
               tau_ratio = curves_1e6$tau_s / curves_1e6$multi_s, size_s = curves_1e6$size_s,
               size_ratio = curves_1e6$size_s / curves_1e6$multi_s)
  }
)

row_of <- function(r) {
  data.frame(rows = format(r$rows, big.mark = ",", scientific = FALSE), m = r$m,
             synthrisk_s = r$synthrisk_s_2t, floor_s = r$floor_s, ratio = r$synthrisk_s_2t / r$floor_s,
             peak_above_session_mb = r$peak_above_session_mb, session_mb = r$session_rss_mb,
             process_max_rss_mb = r$process_max_rss_mb)
}
table <- do.call(rbind, lapply(c(scale, if (!is.null(m5)) list(m5)), row_of))

big <- scale[[length(scale)]]
mid <- scale[[which(sizes == 1e6)[1]]]
speedup <- big$synthrisk_s_1t / big$synthrisk_s_2t
growth <- if (!is.null(mid) && big$rows == 1e7) big$synthrisk_s_2t / mid$synthrisk_s_2t else NA
ratio_1e6 <- if (!is.null(mid)) mid$synthrisk_s_2t / mid$floor_s else NA
ratio_1e7 <- if (big$rows == 1e7) big$synthrisk_s_2t / big$floor_s else NA
indep <- if (!is.null(indep_1e7)) indep_1e7 else indep_small
indep_ratio <- indep$synthrisk_s_2t / indep$floor_s
growth_5e7 <- if (!is.null(indep_5e7)) indep_5e7$synthrisk_s_2t / indep_1e7$synthrisk_s_2t else NA
is_1e7 <- !is.null(indep_1e7)
targets <- data.frame(
  target = c("SD2011 m = 5 multi.disclosure <= 10 ms", "Adult multi.disclosure <= 15 ms",
             "independent 1e7, m = 1: wall time <= 3 s", "independent 1e7: synthrisk / data.table floor <= 0.1",
             "independent 1e7: peak memory above session <= 0.5 GB",
             "independent 5e7 completes, time <= 5.5x that of 1e7",
             "resampled 1e7, m = 1: wall time <= 10 s", "resampled: synthrisk / data.table floor <= 1.0 at 1e7",
             "2 threads >= 1.6x faster than 1 thread at the largest resampled size"),
  measured = c(sprintf("%.1f ms", 1000 * sd_s), sprintf("%.1f ms", 1000 * adult_s),
               sprintf("%.2f s", if (is_1e7) indep$synthrisk_s_2t else NA), sprintf("%.3f", if (is_1e7) indep_ratio else NA),
               sprintf("%.0f MB", if (is_1e7) indep$peak_above_session_mb else NA),
               if (!is.null(indep_5e7)) sprintf("%.2f s (%.2fx)", indep_5e7$synthrisk_s_2t, growth_5e7) else "not run",
               sprintf("%.2f s", if (big$rows == 1e7) big$synthrisk_s_2t else NA), sprintf("%.3f", ratio_1e7),
               sprintf("%.2fx", speedup)),
  met = c(sd_s <= 0.010, adult_s <= 0.015, is_1e7 && indep$synthrisk_s_2t <= 3, is_1e7 && indep_ratio <= 0.1,
          is_1e7 && indep$peak_above_session_mb <= 512, isTRUE(growth_5e7 <= 5.5),
          big$rows == 1e7 && big$synthrisk_s_2t <= 10, isTRUE(ratio_1e7 <= 1), speedup >= 1.6)
)

# Log-log plot of time against rows, synthrisk and the floor.
plot_data <- rbind(
  data.frame(rows = sizes, seconds = vapply(scale, `[[`, numeric(1), "synthrisk_s_2t"), what = "synthrisk (2 threads)"),
  data.frame(rows = sizes, seconds = vapply(scale, `[[`, numeric(1), "floor_s"), what = "data.table floor (4 count tables)")
)
p <- ggplot2::ggplot(plot_data, ggplot2::aes(rows, seconds, colour = what)) +
  ggplot2::geom_line() + ggplot2::geom_point(size = 2) +
  ggplot2::scale_x_log10(labels = function(x) format(x, big.mark = ",", scientific = FALSE)) +
  ggplot2::scale_y_log10() +
  ggplot2::labs(x = "rows (original = synthetic)", y = "seconds (median of 5)", colour = NULL,
                title = "multi.disclosure: 5 keys, 10 targets, m = 1",
                subtitle = paste("2 cores;", Sys.Date())) +
  ggplot2::theme_minimal(base_size = 12) +
  # A right margin, so that the last label of the rows axis is not cut.
  ggplot2::theme(legend.position = "bottom", plot.margin = ggplot2::margin(5.5, 25, 5.5, 5.5))
ggplot2::ggsave("bench/time_vs_rows.png", p, width = 7, height = 4.5, dpi = 110, bg = "white")

fmt <- function(df) {
  num <- vapply(df, is.numeric, logical(1))
  df[num] <- lapply(df[num], function(x) formatC(x, digits = 3, format = "g"))
  header <- paste("|", paste(names(df), collapse = " | "), "|")
  sep <- paste("|", paste(rep("---", ncol(df)), collapse = " | "), "|")
  rows <- apply(df, 1, function(r) paste("|", paste(r, collapse = " | "), "|"))
  c(header, sep, rows)
}
cpu <- grep("model name", readLines("/proc/cpuinfo"), value = TRUE)[1]
lines <- c(
  "# synthrisk benchmarks", "",
  sprintf("Measured by `make bench` on %s: %d cores (%s), R %s, synthrisk %s, data.table %s.",
          Sys.Date(), parallel::detectCores(), trimws(sub(".*:", "", cpu)), getRversion(),
          utils::packageVersion("synthrisk"), utils::packageVersion("data.table")),
  "Times are medians of wall time (Sys.time(), no forced garbage collection between calls); each scale size ran in a fresh R process under `/usr/bin/time -v`.", "",
  "## Targets", "", fmt(targets), "",
  "## Workloads", "",
  sprintf("- SD2011: `multi.disclosure` on 5,000 records, m = 5, 4 keys, 5 targets: **%.1f ms** (median of 20).",
          1000 * sd_s),
  sprintf("- Adult: `multi.disclosure` on 48,842 records, m = 1, keys age, sex, occupation, race, %d targets: **%.1f ms** (median of 20).",
          adult_targets, 1000 * adult_s),
  sprintf("- With a full garbage collection before each call (system.time()'s default): SD2011 %.1f ms, Adult %.1f ms.",
          1000 * sd_gc_s, 1000 * adult_gc_s),
  paste("- Against synthpop: see \"Beside synthpop\" below, both packages timed in one process",
        "with system.time() (bench/synthpop.R); a ratio to synthpop times taken on another day would mislead."), "",
  "## Independent synthetic data (5 keys, 10 targets, m = 1)", "",
  "The synthetic data are generated independently of the original (`make_original()` with another seed): few",
  "shared cells, every cell small, a numeric target with ~1e5 values and a 1,000-level target.", "",
  fmt(do.call(rbind, lapply(Filter(Negate(is.null), list(indep_small, indep_1e7, indep_5e7)), row_of))), "",
  "## Scale (5 keys, 10 targets; the floor is data.table's four count tables from integer codes)", "",
  fmt(table), "",
  sprintf("At %s rows: 1 thread %.2f s, 2 threads %.2f s (%.2fx).", format(big$rows, big.mark = ",", scientific = FALSE),
          big$synthrisk_s_1t, big$synthrisk_s_2t, speedup), "",
  "`peak_above_session_mb`: the process's peak resident memory during one synthrisk call minus its resident",
  "memory just before (the data held by the session). `process_max_rss_mb`: `/usr/bin/time -v` for the whole",
  "process, data generation and the data.table floor included.", "",
  "![time against rows](time_vs_rows.png)", "",
  "## Curves (ratios to one multi.disclosure() call in the same process)", "",
  fmt(curve_rows), "",
  "`tau_s`: `tau_curve()` with 21 tau values (median of 20 runs for SD2011, 3 at 1e6 rows). `size_s`:",
  "`size_curve()` with its defaults, 20 sizes from 5 % to 100 % x 10 repeats per synthesis (SD2011: 955",
  "subsamples, median of 3; 1e6 rows: 191 subsamples, one run), the subsamples drawn in R and computed",
  "in one call of the core. Those subsamples hold about 96.5 times the rows of each synthesis: the size",
  "curve does the work of about that many multi.disclosure() calls.",
  if (!is.null(curves_1e6)) sprintf(paste("At 1e6 rows the size curve's peak resident memory above the session",
                                          "was %.0f MB."), curves_1e6$size_peak_above_session_mb)
)
writeLines(lines, "bench/RESULTS.md")
cat(lines, sep = "\n")
