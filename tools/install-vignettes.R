# make demo: the vignettes rendered with the package installed in `lib` and added to
# it, as R CMD INSTALL does for a built tarball, so that vignette(package = "synthrisk")
# finds them (an install from the source directory has no built vignettes). Renders in
# a scratch copy of vignettes/ (the working tree is left as it was) and prints the
# names it installed.
#
# Usage: Rscript tools/install-vignettes.R <library>
args <- commandArgs(trailingOnly = TRUE)
lib <- normalizePath(args[[1]])
pkg_dir <- file.path(lib, "synthrisk")
scratch <- tempfile("vignettes-")
dir.create(scratch)
invisible(file.copy(list.files("vignettes", full.names = TRUE), scratch, recursive = TRUE))
sources <- list.files(scratch, pattern = "[.]Rmd$", full.names = TRUE)
doc_dir <- file.path(pkg_dir, "doc")
dir.create(doc_dir, showWarnings = FALSE)
.libPaths(c(lib, .libPaths()))
for (src in sources) {
  html <- rmarkdown::render(src, quiet = TRUE, envir = new.env(parent = globalenv()))
  invisible(file.copy(html, doc_dir, overwrite = TRUE))
  knitr::purl(src, output = file.path(doc_dir, sub("[.]Rmd$", ".R", basename(src))), quiet = TRUE)
}
# R's own step of R CMD INSTALL: copies the sources and writes the index
# (Meta/vignette.rds, doc/index.html) from the outputs found in doc/.
tools:::.install_package_vignettes2(getwd(), pkg_dir)
index <- tools::getVignetteInfo("synthrisk", lib.loc = lib)
cat("Installed vignettes (vignette(\"<name>\", package = \"synthrisk\")):\n")
cat(sprintf("  %-12s %s\n", index[, "Topic"], index[, "Title"]), sep = "")
unlink(scratch, recursive = TRUE)
