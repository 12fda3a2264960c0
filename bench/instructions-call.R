# The workload of bench/instructions.sh: `n` multi.disclosure() calls of SD2011 (m = 5,
# 4 keys, 5 targets) or of Adult (m = 1, 4 keys, 9 targets), from
# bench/small-call-workloads.R.
#
# Usage (under valgrind, from bench/instructions.sh): R --file=bench/instructions-call.R
#   --args <library> <sd2011|adult> <n> <threads>
args <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages(library(synthrisk, lib.loc = args[1]))
options(synthrisk.n_threads = as.integer(args[4]))
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])),
                 "small-call-workloads.R"))
if (!args[2] %in% names(small_call_ids)) stop("unknown workload: ", args[2])
call_once <- small_calls[[small_call_ids[[args[2]]]]]
for (i in seq_len(as.integer(args[3]))) call_once()
