# Cost of resynthesize (definitions vignette, section 12): disclosure() and
# multi.disclosure() with resynthesize = 20 as a ratio to one call without it, in the
# same process, with a synthesizer that costs almost nothing (the original's records
# drawn with replacement) so that what is measured is synthrisk's part: the request
# run again on the m + 20 syntheses. The synthesizer's own time is measured apart and
# reported beside it (synthpop's syn() takes seconds per synthesis of SD2011, far more
# than the counting). Intervals across syntheses cost nothing measurable (a mean and a
# variance per measure).
suppressPackageStartupMessages(library(synthrisk))
options(synthrisk.n_threads = 2, synthrisk.progress = FALSE, synthrisk.warn_labels = FALSE)
med <- function(f, n) { f(); median(vapply(seq_len(n), function(i) system.time(f())[["elapsed"]], 0)) }
keys_sd <- c("sex", "age", "region", "placesize")
keys_ad <- c("age", "sex", "occupation", "race")
drawn <- 0
resample_rows <- function(data) {
  # proc.time(), not system.time(), which runs gc() first and would be timed with it.
  t0 <- proc.time()[["elapsed"]]
  out <- data[sample.int(nrow(data), nrow(data), replace = TRUE), , drop = FALSE]
  drawn <<- drawn + proc.time()[["elapsed"]] - t0
  out
}
cases <- list(
  list("SD2011, m = 5, disclosure(depress)", function(...) disclosure(sd2011_synds5, sd2011, keys_sd, "depress", print.flag = FALSE, ...)),
  list("SD2011, m = 5, multi.disclosure (5 targets)", function(...) multi.disclosure(sd2011_synds5, sd2011, keys_sd, print.flag = FALSE, plot = FALSE, ...)),
  list("Adult, m = 1, disclosure(income)", function(...) disclosure(adult_synds, adult, keys_ad, "income", print.flag = FALSE, ...)),
  list("Adult, m = 1, multi.disclosure (9 targets)", function(...) multi.disclosure(adult_synds, adult, keys_ad, print.flag = FALSE, plot = FALSE, ...))
)
rows <- lapply(cases, function(k) {
  one <- med(function() k[[2]](), 10)
  k[[2]](resynthesize = 20, synthesizer = resample_rows, seed = 1)
  # Per timed call: the whole call and the synthesizer's part of it.
  runs <- vapply(1:3, function(i) {
    drawn <<- 0
    total <- system.time(k[[2]](resynthesize = 20, synthesizer = resample_rows, seed = 1))[["elapsed"]]
    c(total = total, synth = drawn)
  }, numeric(2))
  data.frame(workload = k[[1]], one_call_s = one, resynth_s = median(runs["total", ]),
             synth_s = median(runs["synth", ]), ratio = median(runs["total", ] - runs["synth", ]) / one)
})
tab <- do.call(rbind, rows)
cat("\n## resynthesize = 20 against one call\n\n")
cat(sprintf("Measured %s, load average %s; medians of system.time() (10 plain calls, 3 with resynthesize = 20).",
            format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC"), readLines("/proc/loadavg")),
    "The synthesizer draws the original's records with replacement; its time in each call is",
    "subtracted for the ratio, which is synthrisk's part: the request run again on the m + 20 syntheses.\n\n")
cat("| workload | one call (s) | resynthesize = 20 (s) | of which the synthesizer (s) | ratio without it |\n")
cat("| --- | --- | --- | --- | --- |\n")
for (i in seq_len(nrow(tab))) {
  cat(sprintf("| %s | %.4f | %.3f | %.3f | %.1fx |\n", tab$workload[i], tab$one_call_s[i], tab$resynth_s[i],
              tab$synth_s[i], tab$ratio[i]))
}
