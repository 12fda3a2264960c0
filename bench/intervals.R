# Cost of the bootstrap (definitions vignette, section 12): disclosure() with boot = 200
# as a ratio to one call without it, in the same process: SD2011 (m = 5, target
# depress) and Adult (m = 1, target income); multi.disclosure() for all targets too.
# Intervals across syntheses cost nothing measurable (a mean and a variance per measure).
suppressPackageStartupMessages(library(synthrisk))
options(synthrisk.n_threads = 2, synthrisk.progress = FALSE)
med <- function(f, n) { f(); median(vapply(seq_len(n), function(i) system.time(f())[["elapsed"]], 0)) }
keys_sd <- c("sex", "age", "region", "placesize")
keys_ad <- c("age", "sex", "occupation", "race")
cases <- list(
  list("SD2011, m = 5, disclosure(depress)", function(...) disclosure(sd2011_synds5, sd2011, keys_sd, "depress", print.flag = FALSE, ...)),
  list("SD2011, m = 5, multi.disclosure (5 targets)", function(...) multi.disclosure(sd2011_synds5, sd2011, keys_sd, print.flag = FALSE, plot = FALSE, ...)),
  list("Adult, m = 1, disclosure(income)", function(...) disclosure(adult_synds, adult, keys_ad, "income", print.flag = FALSE, ...)),
  list("Adult, m = 1, multi.disclosure (9 targets)", function(...) multi.disclosure(adult_synds, adult, keys_ad, print.flag = FALSE, plot = FALSE, ...))
)
rows <- lapply(cases, function(k) {
  one <- med(function() k[[2]](), 10)
  boot <- med(function() k[[2]](boot = 200, seed = 1), 3)
  data.frame(workload = k[[1]], one_call_s = one, boot200_s = boot, ratio = boot / one)
})
tab <- do.call(rbind, rows)
cat("\n## Bootstrap: boot = 200 against one call\n\n")
cat(sprintf("Measured %s, load average %s; medians of system.time() (10 plain calls, 3 with boot).",
            format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC"), readLines("/proc/loadavg")),
    "All 200 x m resampled syntheses are counted in one core call with the call's own counts.\n\n")
cat("| workload | one call (s) | boot = 200 (s) | ratio |\n| --- | --- | --- | --- |\n")
for (i in seq_len(nrow(tab))) cat(sprintf("| %s | %.4f | %.3f | %.0fx |\n", tab$workload[i], tab$one_call_s[i], tab$boot200_s[i], tab$ratio[i]))
