# synthrisk beside synthpop (1.9-3, or the version installed) in one process: SD2011
# (m = 5, 4 keys, default targets) and Adult (m = 1, 4 keys, 9 targets). synthpop's
# calls (seconds each) are timed with system.time() (its full garbage collection
# first), `repeats` of them. synthrisk's (milliseconds) are timed one by one with
# R's microsecond clock, as many as fit in about two seconds (at least 50), after
# synthpop's in the same process and with no collection forced between them: the
# median, and the mean, which carries the garbage collections the calls set off. The
# ratio is synthpop's median over synthrisk's median, and over its mean.
# system.time() reads whole milliseconds, too coarse for calls of a few (earlier
# versions of this script timed 3 calls of synthrisk that way).
# synthpop is not a dependency and cannot come from Debian; point SYNTHPOP_LIB at a
# library that holds it (bench/RESULTS.md says how it was installed here). Without
# it, the script says so and stops.
#
# Usage: SYNTHPOP_LIB=/path Rscript bench/synthpop.R [repeats]

lib <- Sys.getenv("SYNTHPOP_LIB")
if (!nzchar(lib) || !requireNamespace("synthpop", lib.loc = lib, quietly = TRUE)) {
  cat("\n## Beside synthpop 1.9-3\n\nNot measured: synthpop is not installed (set SYNTHPOP_LIB).\n")
  quit(save = "no")
}
invisible(loadNamespace("synthpop", lib.loc = lib))
synthpop_version <- utils::packageDescription("synthpop", lib.loc = lib)$Version
suppressPackageStartupMessages(library(synthrisk))
options(synthrisk.n_threads = 2)
reps <- suppressWarnings(as.integer(commandArgs(trailingOnly = TRUE)[1]))
if (is.na(reps)) reps <- 3L
keys_sd <- c("sex", "age", "region", "placesize")
keys_adult <- c("age", "sex", "occupation", "race")
workloads <- list(
  "SD2011, m = 5, 4 keys, 5 targets" = list(object = sd2011_synds5, data = sd2011, keys = keys_sd),
  "Adult, m = 1, 4 keys, 9 targets" = list(object = adult_synds, data = adult, keys = keys_adult)
)
timed <- function(f) median(vapply(seq_len(reps), function(i) system.time(f())[["elapsed"]], 0))
# Seconds of each of many calls of `f` (at least `min_calls`, until `budget` seconds pass).
timed_each <- function(f, min_calls = 50L, budget = 2) {
  f()
  times <- numeric(0)
  started <- Sys.time()
  while (length(times) < min_calls || as.numeric(Sys.time() - started, units = "secs") < budget) {
    t0 <- Sys.time()
    f()
    times <- c(times, as.numeric(Sys.time() - t0, units = "secs"))
  }
  times
}
rows <- lapply(names(workloads), function(w) {
  a <- workloads[[w]]
  ours <- function() synthrisk::multi.disclosure(a$object, a$data, a$keys, print.flag = FALSE, plot = FALSE)
  theirs <- function() {
    obj <- a$object
    class(obj) <- "synds"
    utils::capture.output(r <- synthpop::multi.disclosure(obj, a$data, a$keys, print.flag = FALSE, plot = FALSE))
    r
  }
  a_ours <- ours()$attrib.table
  a_theirs <- theirs()$attrib.table
  by_target <- function(tab) stats::setNames(tab$attrib.syn, sub(" .*", "", sub("^[0-9]+ ", "", rownames(tab))))
  s_ours <- by_target(a_ours)
  s_theirs <- by_target(a_theirs)[names(s_ours)]
  differ <- names(s_ours)[abs(s_ours - s_theirs) > 1e-9]
  same <- sprintf("%d of %d%s", length(s_ours) - length(differ), length(s_ours),
                  if (length(differ) > 0) paste0(" (not ", paste(differ, collapse = ", "), ")") else "")
  t_theirs <- timed(theirs)
  each_ours <- timed_each(ours)
  data.frame(workload = w, synthrisk_ms = 1000 * stats::median(each_ours), synthrisk_mean_ms = 1000 * mean(each_ours),
             calls = length(each_ours), synthpop_s = t_theirs, ratio = t_theirs / stats::median(each_ours),
             ratio_mean = t_theirs / mean(each_ours), same_attrib_syn = same)
})
tab <- do.call(rbind, rows)
cat(sprintf("\n## Beside synthpop %s, one process\n\n", synthpop_version))
cat(sprintf(paste("Measured %s, load average %s. synthpop: median of %d calls, each timed by system.time() after a full",
                  "garbage collection. synthrisk: `calls` calls after synthpop's, each timed by R's microsecond",
                  "clock, no collection forced; the median and the mean (which carries the collections the calls set",
                  "off); `ratio` is synthpop's median over synthrisk's median, `ratio_mean` over its mean."),
            format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC"), readLines("/proc/loadavg"), reps),
    "`same_attrib_syn`: targets whose synthetic summary measure is the same in both to 1e-9; where it is not, synthpop",
    synthpop_version, "misaligns the tables of an ungrouped numeric target with values on one side only (SPEC section 9;",
    "the result's notes say so).\n\n")
cat("| workload | synthrisk_ms | synthrisk_mean_ms | calls | synthpop_s | ratio | ratio_mean | same_attrib_syn |\n",
    "| --- | --- | --- | --- | --- | --- | --- | --- |\n", sep = "")
for (i in seq_len(nrow(tab))) {
  cat(sprintf("| %s | %.2f | %.2f | %d | %.2f | %.0fx | %.0fx | %s |\n", tab$workload[i], tab$synthrisk_ms[i],
              tab$synthrisk_mean_ms[i], tab$calls[i], tab$synthpop_s[i], tab$ratio[i], tab$ratio_mean[i],
              tab$same_attrib_syn[i]))
}
cat(sprintf(paste("\nsynthpop is not a dependency and cannot come from Debian: synthpop %s was installed for this into a",
                  "scratch library by tools/install-synthpop.sh, from the GitHub mirrors of CRAN (cran/synthpop and",
                  "the three imports Debian lacks: cran/cmm, cran/mipfp, cran/broman), its other imports from Debian.\n"),
            synthpop_version))
