# The holdout baseline's R when nothing leaks: the "syntheses" are real SD2011 records
# drawn apart from both the training and the control records, so every measure's R
# should be near 0. Each line is one design (training, control and synthetic records),
# with the mean and standard deviation of R per measure over `reps` random splits
# (disclosure() of marital with keys sex, age and region).
#
# Usage: Rscript bench/holdout-sizes.R [library] [reps]  (defaults: the installed
# synthrisk, 40). Prints one table.
args <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages(library(synthrisk, lib.loc = if (length(args) >= 1) args[1]))
reps <- if (length(args) >= 2) as.integer(args[2]) else 40L
set.seed(7)
simulate <- function(n_train, n_control, n_syn) {
  r <- replicate(reps, {
    i <- sample(nrow(sd2011))
    train <- sd2011[i[seq_len(n_train)], ]
    control <- sd2011[i[n_train + seq_len(n_control)], ]
    syn <- sd2011[i[n_train + n_control + seq_len(n_syn)], ]
    h <- disclosure(syn, train, keys = c("sex", "age", "region"), target = "marital", control = control,
                    print.flag = FALSE)
    stats::setNames(h$holdout$R, h$holdout$measure)
  })
  cbind(mean = rowMeans(r, na.rm = TRUE), sd = apply(r, 1, stats::sd, na.rm = TRUE))
}
designs <- list("train 2000, control 500 (prop = 0.2), syn 2000" = c(2000, 500, 2000),
                "train 2000, control 2000 (prop = 0.5), syn 1000" = c(2000, 2000, 1000),
                "train 1500, control 1500 (prop = 0.5), syn 2000" = c(1500, 1500, 2000))
out <- do.call(cbind, lapply(designs, function(d) simulate(d[1], d[2], d[3])))
colnames(out) <- paste(rep(seq_along(designs), each = 2), colnames(out))
print(round(out, 3))
cat(paste0(seq_along(designs), ": ", names(designs), collapse = "\n"), "\n")
