# make check-cran runs R CMD check --as-cran offline. With --as-cran, R checks whether
# a suggested package that is not installed has been orphaned on CRAN, reading CRAN's
# package database (web/packages/packages.rds under R_CRAN_WEB). Here CRAN is out of
# reach and synthpop, a suggested package, is not in Debian: this writes a stand-in
# database under <dir> listing the suggested packages that are not installed, none
# orphaned, for R_CRAN_WEB=file://<dir>. CRAN's own check reads the real one.
#
# Usage: Rscript tools/offline-cran-db.R <dir>
dir <- commandArgs(trailingOnly = TRUE)[[1]]
desc <- read.dcf("DESCRIPTION", fields = "Suggests")[1, 1]
suggests <- trimws(sub("\\(.*", "", strsplit(desc, ",")[[1]]))
missing <- suggests[!vapply(suggests, requireNamespace, logical(1), quietly = TRUE)]
dir.create(file.path(dir, "web", "packages"), recursive = TRUE, showWarnings = FALSE)
db <- data.frame(Package = missing, Maintainer = rep("(not looked up: offline check)", length(missing)),
                 stringsAsFactors = FALSE)
saveRDS(db, file.path(dir, "web", "packages", "packages.rds"))
cat("offline-cran-db: suggested but not installed:", if (length(missing)) paste(missing, collapse = ", ") else "none",
    "\n")
