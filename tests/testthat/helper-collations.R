# The collations at hand for tests of text order (test-locale-rank.R,
# test-two-way-checks.R): the session's, C.UTF-8, en_US.UTF-8 and C, those this
# machine can set.
collations <- function() {
  here <- Sys.getlocale("LC_COLLATE")
  candidates <- unique(c(here, "C.UTF-8", "en_US.UTF-8", "C"))
  Filter(function(l) {
    ok <- suppressWarnings(Sys.setlocale("LC_COLLATE", l)) != ""
    Sys.setlocale("LC_COLLATE", here)
    ok
  }, candidates)
}
