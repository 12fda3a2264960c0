#' synthrisk: fast disclosure risk measures for synthetic data
#'
#' A drop-in replacement for synthpop's [disclosure()] and [multi.disclosure()]:
#' the same arguments (in the same order), defaults and numbers, counted by a Rust
#' core on integer codes and sparse tables. Results print to standard output, so
#' knitted reports keep every heading and check warning. See
#' `vignette("synthrisk")`.
#'
#' @section The measures:
#' For each synthesis, with `q` the combination of key levels of a record,
#' `d[t,q]`/`s[t,q]` the original/synthetic records with target level `t` and key
#' `q`, `ps = s[t,q]/s[.,q]`, `pd = d[t,q]/d[.,q]`, `Nd`/`Ns` the numbers of
#' original/synthetic records, `C = sum ps*d`, `K` the DiSCO records and `Nb` the
#' synthetic records whose `q` occurs in the original. All are percentages except
#' `max_denom` and `mean_denom` (records).
#'
#' `r measure_docs()`
#'
#' @section Options:
#' * `synthrisk.n_threads`: threads used by the Rust core (default: all cores, or 2
#'   when `_R_CHECK_LIMIT_CORES_` is set).
#' * `synthrisk.warn_labels`: `FALSE` turns off the warning (class
#'   `synthrisk_labels_do_not_meet`) about keys and targets whose labels barely meet
#'   between the original and the synthetic data; the result's `notes` and its
#'   printout still say it.
#'
#' @section Where synthrisk differs from synthpop 1.9-3:
#' Each difference is also stated in the result (`notes`) and its printout.
#' * Levels are matched by label, never by pasted strings or table row order
#'   (synthpop misaligns target levels ordered differently in original and synthetic
#'   data, numeric targets whose values occur on one side only, and splits key
#'   labels containing `" | "`).
#' * Only observed key combinations count: unused factor levels do not inflate UiOiS.
#' * `TCAP` follows synthpop's disclosure vignette (Raab, Nowok and Dibben,
#'   *Practical privacy metrics for synthetic data*, arXiv:2406.16826): DiSCO over
#'   DiS; synthpop 1.9-3 divided by
#'   the records whose key occurs in the synthetic data (kept as
#'   `measures$TCAP_synthpop`). `TCAPs`, `TCAPb`, `DCAPd`, `DCAPs` and `DCAPb` are
#'   new; `DCAP` equals `DCAPd`.
#' * With several syntheses, every synthesis is adjusted to the original, not only the
#'   first; tibbles and data.tables give exactly the data-frame result.
#' * `multi.disclosure()` uses `exclude.keylevs` where synthpop passed
#'   `exclude.targetlevs`, reports the mean identity measure over syntheses, and its
#'   `"DiSDiO"`, `"UiSiO"` and `"baseCAPd"` options give numbers, not `NA`.
#' * `NaN` is a level of its own, and doubles that print the same are one level, as
#'   `factor()` makes them.
#'
#' @section With synthpop attached too:
#' Both packages export `disclosure()`, `multi.disclosure()` and
#' `replicated.uniques()`; the package attached last comes first on the search path,
#' so a bare `disclosure()` is synthrisk's after `library(synthpop);
#' library(synthrisk)` and synthpop's after the other order. `synthrisk::disclosure()`
#' or `synthpop::disclosure()` chooses whatever the order. synthrisk's print methods
#' are registered for its own classes (`synthrisk_disclosure`, ...), so synthpop's
#' results still print as synthpop prints them.
#'
#' @section Citing:
#' `citation("synthrisk")` gives the package and the papers whose measures it
#' computes.
#'
#' @keywords internal
#' @useDynLib synthrisk, .registration = TRUE
"_PACKAGE"

# The measure list of the package help page, from the registry (R/measures.R).
measure_docs <- function() {
  reg <- measure_registry[!duplicated(measure_registry$measure), ]
  groups <- split(reg, factor(reg$group, levels = unique(reg$group)))
  paste(vapply(names(groups), function(g) {
    rows <- groups[[g]]
    paste0("**", tools::toTitleCase(g), "** (`", unique(rows$component)[1], "`):\n",
           paste0("* `", rows$measure, "`: ", rows$definition, ".", collapse = "\n"))
  }, character(1)), collapse = "\n\n")
}
