#' synthrisk: fast disclosure risk measures for synthetic data
#'
#' A drop-in replacement for synthpop's `disclosure()` and `multi.disclosure()`:
#' the same arguments, defaults and numbers, counted by a Rust core on integer codes
#' and sparse tables. See `vignette("synthrisk")` and [disclosure()].
#'
#' Options:
#' * `synthrisk.n_threads`: threads used by the Rust core (default: all cores, or 2
#'   when `_R_CHECK_LIMIT_CORES_` is set).
#'
#' @section Where synthrisk differs from synthpop 1.9-3:
#' * Levels are matched by label, never by pasted strings or table row order
#'   (synthpop misaligns target levels ordered differently in original and synthetic
#'   data, and splits key labels containing `" | "`).
#' * Only observed key combinations count: unused factor levels do not inflate UiOiS.
#' * `TCAP` follows the 2026 vignette (disclosive and correct over disclosive, see
#'   [disclosure()]); synthpop 1.9-3 divided by the records whose key occurs in the
#'   synthetic data. `TCAPs`, `TCAPb`, `DCAPd`, `DCAPs` and `DCAPb` are new; `DCAP`
#'   equals `DCAPd`.
#' * With several syntheses, every synthesis is adjusted to the original, not only the
#'   first; tibbles and data.tables give exactly the data-frame result.
#' * `multi.disclosure()` uses `exclude.keylevs` where synthpop passed
#'   `exclude.targetlevs`, and reports the mean `repU` over syntheses.
#'
#' @keywords internal
#' @useDynLib synthrisk, .registration = TRUE
"_PACKAGE"
