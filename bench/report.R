# The release report: disclosure_report() on UCI Adult (adult_synds, m = 1; keys age,
# sex, occupation, race; the 9 other variables as targets), as a ratio to one
# multi.disclosure() call with the same arguments, measured in this run. The report
# also runs tau_curve(), record_risk() (keys, then each target) and pandoc; the split
# below says where the time goes. Prints a markdown section for bench/RESULTS.md.
suppressPackageStartupMessages(library(synthrisk))
if (!requireNamespace("rmarkdown", quietly = TRUE) || !rmarkdown::pandoc_available("2.0")) {
  cat("\n## Release report (bench/report.R)\n\nSkipped: disclosure_report() needs rmarkdown and pandoc.\n")
  quit(save = "no")
}
runs <- 3L
median_time <- function(f) {
  f()  # warm-up
  stats::median(vapply(seq_len(runs), function(i) {
    t0 <- Sys.time()
    f()
    as.numeric(Sys.time() - t0, units = "secs")
  }, numeric(1)))
}
keys <- c("age", "sex", "occupation", "race")
file <- tempfile(fileext = ".html")
t_md <- median_time(function() multi.disclosure(adult_synds, adult, keys = keys, print.flag = FALSE, plot = FALSE))
t_report <- median_time(function() disclosure_report(adult_synds, adult, keys = keys, file = file))
# Where the time goes (one run each): the computations, then the rendering.
t_contents <- system.time(contents <- synthrisk:::report_contents(adult_synds, adult, keys = keys))[["elapsed"]]
t_tau <- system.time(tau_curve(adult_synds, adult, keys = keys))[["elapsed"]]
t_records <- system.time(synthrisk:::report_records(adult_synds, adult, keys, setdiff(names(adult), keys),
                                                      multi.disclosure(adult_synds, adult, keys = keys,
                                                                       print.flag = FALSE, plot = FALSE),
                                                      list(), globalenv()))[["elapsed"]]
t_render <- system.time(synthrisk:::render_report(contents, file))[["elapsed"]]
cat(sprintf(paste0("\n## Release report (bench/report.R)\n\ndisclosure_report() on Adult (%s records, adult_synds m = 1), ",
                   "keys %s, %d targets, %d threads; HTML of %.0f kB (pandoc %s). Median of %d runs after a warm-up.\n\n"),
            format(nrow(adult), big.mark = ","), paste(keys, collapse = ", "), ncol(adult) - length(keys),
            synthrisk_threads(), file.size(file) / 1024, as.character(rmarkdown::pandoc_version()), runs))
cat("| call | median (s) | ratio to multi.disclosure() |\n|---|---|---|\n")
cat(sprintf("| disclosure_report() | %.2f | %.1f |\n| multi.disclosure() | %.3f | 1 |\n\n", t_report, t_report / t_md, t_md))
cat(sprintf(paste("One run, split: computing the contents %.2f s (of which tau_curve() %.2f s and record_risk() for",
                  "the keys and each target %.2f s), rendering (knitr, plots, pandoc) %.2f s.\n"),
            t_contents, t_tau, t_records, t_render))
