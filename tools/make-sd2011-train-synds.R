# Writes data/sd2011_train_synds5.rda: five syntheses made by synthpop's syn() from the
# training part of sd2011 only, so that the package's holdout examples hold out records
# that were truly never used for synthesis. The split is the one every example uses,
# holdout_split(sd2011, prop = 0.2, seed = 1): 4,000 training and 1,000 control records.
# syn() runs as sd2011_synds5 was made (default methods: "sample" for sex, "cart" for
# the others, in the order of the columns; no cont.na; m = 5, seed 8564). synthpop is
# never a dependency: install it into a scratch library (tools/install-synthpop.sh) and
# synthrisk into another, then
#
#   SYNTHPOP_LIB=<library> R_LIBS=<synthrisk's library> Rscript tools/make-sd2011-train-synds.R
lib <- Sys.getenv("SYNTHPOP_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages({
  library(synthpop)
  library(synthrisk)
})

sd2011 <- synthrisk::sd2011
parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
made <- syn(parts$train, m = 5, seed = 8564, print.flag = FALSE)

# Kept as sd2011_synds5 keeps them: what synthrisk and synthpop's disclosure() read, without
# the call (it names a local object) and the predictor matrix.
kept <- c("m", "syn", "method", "visit.sequence", "smoothing", "event", "denom", "proper", "n", "k",
          "rules", "rvalues", "cont.na", "semicont", "drop.not.used", "drop.pred.only", "seed", "var.lab",
          "val.lab", "obs.vars", "numtocat", "catgroups")
sd2011_train_synds5 <- structure(unclass(made)[intersect(kept, names(made))], class = "synds")
stopifnot(identical(sd2011_train_synds5$n, nrow(parts$train)),
          all(vapply(sd2011_train_synds5$syn, nrow, 1L) == nrow(parts$train)))
message("synthpop ", utils::packageVersion("synthpop"), ": ", sd2011_train_synds5$m, " syntheses of ",
        sd2011_train_synds5$n, " records")
save(sd2011_train_synds5, file = file.path("data", "sd2011_train_synds5.rda"), compress = "xz")
