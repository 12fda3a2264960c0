# Objects made by synthpop 1.9-3 (classes "disclosure", "multi.disclosure",
# "repuniq.synds" alone) print and plot with synthrisk's methods only while synthpop
# itself is not loaded. Our own results carry classes of their own first
# ("synthrisk_disclosure", ...), so whichever package loads last, each package's
# objects print with that package's methods. If synthpop loads after synthrisk, its
# registrations replace these; if it is loaded already, these are not made.

synthpop_object_methods <- function() {
  list(
    list("print", "disclosure", print.synthrisk_disclosure),
    list("format", "disclosure", format.synthrisk_disclosure),
    list("plot", "disclosure", plot.synthrisk_disclosure),
    list("print", "multi.disclosure", print.synthrisk_multi.disclosure),
    list("format", "multi.disclosure", format.synthrisk_multi.disclosure),
    list("plot", "multi.disclosure", plot.synthrisk_multi.disclosure),
    list("print", "repuniq.synds", print.synthrisk_repuniq),
    list("format", "repuniq.synds", format.synthrisk_repuniq)
  )
}

register_synthpop_object_methods <- function(ns) {
  if (isNamespaceLoaded("synthpop")) return(invisible(FALSE))
  for (method in synthpop_object_methods()) {
    registerS3method(method[[1]], method[[2]], method[[3]], envir = ns)
  }
  invisible(TRUE)
}

.onLoad <- function(libname, pkgname) {
  register_synthpop_object_methods(asNamespace(pkgname))
}
