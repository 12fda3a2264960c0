# make demo: multi.disclosure() on the bundled SD2011 example (5 syntheses), the
# printed tables, the plot of attribute disclosure per target as a PNG, the same with
# intervals and the five syntheses released together, and the release report
# (disclosure_report()) as one HTML file.
args <- commandArgs(trailingOnly = TRUE)
out_dir <- if (length(args) > 0) args[[1]] else "."
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
library(synthrisk)

keys <- c("sex", "age", "region", "placesize")
elapsed <- system.time(
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys, ngroups_targets = c(income = 20), plot = FALSE)
)[["elapsed"]]
print(md)
cat(sprintf("\nmulti.disclosure on 5,000 records x 5 syntheses, 5 targets: %.3f s\n", elapsed))

png_file <- file.path(out_dir, "sd2011_attrib_plot.png")
ggplot2::ggsave(png_file, md$attrib.plot, width = 8, height = 4.8, dpi = 120, bg = "white")
csv_file <- file.path(out_dir, "sd2011_measures.csv")
utils::write.csv(as.data.frame(md), csv_file, row.names = FALSE)
cat("Wrote", png_file, "and", csv_file, "\n")

# How sure the numbers are, and what the five syntheses disclose together: intervals
# across syntheses, and DiSCO_any / repU_any for an intruder who holds all five.
mdi <- multi.disclosure(sd2011_synds5, sd2011, keys = keys, ngroups_targets = c(income = 20), plot = FALSE,
                        print.flag = FALSE, conf.level = 0.95, release = TRUE)
print(mdi, to.print = "attrib")
print(mdi$release)
plot_file <- file.path(out_dir, "sd2011_attrib_intervals_release.png")
ggplot2::ggsave(plot_file, mdi$attrib.plot, width = 8, height = 4.8, dpi = 120, bg = "white")
cat("Wrote", plot_file, "\n")

# The release report (disclosure_report()): one self-contained HTML file for a
# disclosure panel. control = records kept out by holdout_split(): sd2011_train_synds5
# was made from parts$train only, so they are truly held out. The thresholds are an
# example policy, not a recommendation.
if (requireNamespace("rmarkdown", quietly = TRUE) && rmarkdown::pandoc_available("2.0")) {
  parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
  report_file <- file.path(out_dir, "sd2011_report.html")
  elapsed <- system.time(
    disclosure_report(sd2011_train_synds5, parts$train, keys = keys, control = parts$control,
                      ngroups_targets = c(income = 20), thresholds = list(repU = 1, DiSCO = 5),
                      title = "SD2011: disclosure risk of five syntheses", file = report_file)
  )[["elapsed"]]
  cat(sprintf("Wrote %s (%.0f kB) in %.1f s\n", report_file, file.size(report_file) / 1024, elapsed))
} else {
  cat("Skipped the HTML report: disclosure_report() needs the rmarkdown package and pandoc.\n")
}
