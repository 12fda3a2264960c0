# make demo: synthrisk on the bundled SD2011 example.
args <- commandArgs(trailingOnly = TRUE)
out_dir <- if (length(args) > 0) args[[1]] else "."
library(synthrisk)
keys <- c("sex", "age", "region", "placesize")
d <- disclosure(sd2011_synds5, sd2011, keys = keys, target = "depress")
print(d, to.print = c("short", "allCAPs"))
