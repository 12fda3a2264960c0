# The workload of bench/instructions.sh: `n` multi.disclosure() calls of SD2011 (m = 5,
# 4 keys, 5 targets) or of Adult (m = 1, 4 keys, 9 targets), as bench/small-calls.R
# makes them.
#
# Usage (under valgrind, from bench/instructions.sh): R --file=bench/instructions-call.R
#   --args <library> <sd2011|adult> <n> <threads>
args <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages(library(synthrisk, lib.loc = args[1]))
options(synthrisk.n_threads = as.integer(args[4]))
call_once <- switch(args[2],
  sd2011 = function() {
    multi.disclosure(sd2011_synds5, sd2011, c("sex", "age", "region", "placesize"), print.flag = FALSE, plot = FALSE)
  },
  adult = function() {
    multi.disclosure(adult_synds, adult, c("age", "sex", "occupation", "race"), print.flag = FALSE, plot = FALSE)
  },
  stop("unknown workload: ", args[2]))
for (i in seq_len(as.integer(args[3]))) call_once()
