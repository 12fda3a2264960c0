# The phases of the core's one crossing of a small call (bench/phase-times.sh): the
# crossing of one multi.disclosure() of SD2011 (m = 5, 4 keys, 5 targets) and of Adult
# (m = 1, 4 keys, 9 targets) from bench/small-call-workloads.R, on the thread count
# given (phase-times.sh runs a process for 1 and one for 2, one after the other).
# A library built with `--cfg synthrisk_phase_times` writes each phase's wall time on
# standard error (src/rust/core/src/runtime/phase_times.rs); this script marks each
# timed call there (and the untimed ones, warm-up, which the summary leaves out) and
# times the whole crossing.
#
# Phases nest: "key index" is part of "prepared", "targets packed" of "plain pass", and
# both of "counted (run_plan)"; the crossing is "encoded", "counted" and "results made
# R's" and the glue's reading of the request. A median is over the phase's lines (one a
# call for these two workloads).
#
# Usage: Rscript bench/phase-times.R measure <library> [calls] [threads] 2> phases.txt
#        Rscript bench/phase-times.R summarise phases.txt
#   (the second writes a heading and a markdown table of median microseconds per phase).
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 2 || !args[1] %in% c("measure", "summarise")) {
  stop("usage: phase-times.R measure <library> [calls] [threads] | summarise <file>")
}
if (args[1] == "summarise") {
  lines <- readLines(args[2])
  lines <- grep("^synthrisk (call|phase) ", lines, value = TRUE)
  call_at <- cumsum(startsWith(lines, "synthrisk call "))
  calls <- strsplit(sub("^synthrisk call ", "", lines[startsWith(lines, "synthrisk call ")]), " ")
  phases <- !startsWith(lines, "synthrisk call ") & call_at > 0
  fields <- sub("^synthrisk phase ", "", lines[phases])
  rows <- data.frame(
    workload = vapply(calls, `[`, "", 1)[call_at[phases]],
    threads = vapply(calls, `[`, "", 2)[call_at[phases]],
    phase = sub(" [0-9]+$", "", fields),
    us = as.numeric(sub("^.* ", "", fields)),
    stringsAsFactors = FALSE
  )
  rows <- rows[rows$workload != "warm-up", , drop = FALSE]
  if (!any(rows$phase != "whole crossing")) {
    stop("no phase was timed: the library was built without `--cfg synthrisk_phase_times` ",
         "(did RUSTFLAGS reach cargo? CARGO_ENCODED_RUSTFLAGS overrides it)")
  }
  medians <- aggregate(us ~ workload + phase + threads, rows, stats::median)
  cat(sprintf("\n## The core's crossing phase by phase (bench/phase-times.sh), %s UTC\n\n",
              format(Sys.time(), "%Y-%m-%d %H:%M", tz = "UTC")))
  cat("Median microseconds; rows nest (key index within prepared, targets packed within the plain pass,",
      "both within counted; a small call's keys are indexed with the encoding, alongside the other",
      "variables on two threads, where its targets are also packed alongside the preparation).\n\n")
  cat("| workload | phase | 1 thread (us) | 2 threads (us) |\n| --- | --- | --- | --- |\n")
  for (w in unique(rows$workload)) {
    for (p in unique(rows$phase[rows$workload == w])) {
      # A phase of one thread count only (work done alongside other work on two) shows
      # "-" for the other.
      at <- function(t) {
        us <- medians$us[medians$workload == w & medians$phase == p & medians$threads == t]
        if (length(us) == 0) "-" else sprintf("%.0f", us)
      }
      cat(sprintf("| %s | %s | %s | %s |\n", w, p, at("1"), at("2")))
    }
  }
  quit(save = "no")
}
lib <- args[2]
n_calls <- if (length(args) >= 3) as.integer(args[3]) else 300L
suppressPackageStartupMessages(library(synthrisk, lib.loc = lib))
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])),
                 "small-call-workloads.R"))
crossing <- get("rust_encode_compute", asNamespace("synthrisk"))
# One thread count per process (phase-times.sh runs one for each): the first thread
# count a process asks for gets the pool that R's own thread works in, as a user's
# session does (runtime/workers.rs); a second count in the same process would get a
# pool of other threads, and pay for waking them.
threads <- if (length(args) >= 4) as.integer(args[4]) else 2L
for (id in names(small_call_ids)) {
  captured <- crossing_of(small_calls[[small_call_ids[[id]]]])
  cross <- function() crossing(captured$vars, threads, captured$calls)
  # The warm-up crossings write phases too: not timed calls.
  message("synthrisk call warm-up 0")
  for (i in seq_len(20)) cross()
  for (i in seq_len(n_calls)) {
    message("synthrisk call ", id, " ", threads)
    started <- Sys.time()
    cross()
    message("synthrisk phase whole crossing ", round(1e6 * as.numeric(Sys.time() - started)))
  }
}
