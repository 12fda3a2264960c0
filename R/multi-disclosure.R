#' Disclosure measures for many targets at once
#'
#' Runs the measures of [disclosure()] for every target with the same keys, in one
#' pass of the Rust core that shares the key encoding between targets and
#' syntheses: a drop-in replacement for synthpop's `multi.disclosure()`, with its
#' arguments in its order. `disclosure.summary(object, data, ...)` is the same
#' function, with the same arguments, under the name that the first synthpop
#' disclosure vignette (synthpop 1.8) gave it; despite its name it is not a method
#' of [disclosure()] for a class `"summary"`.
#'
#' Where synthrisk deliberately differs from synthpop 1.9-3 (the identity measure is
#' the mean over syntheses, not the first synthesis; `exclude.keylevs` is used where
#' synthpop passed `exclude.targetlevs`; `"DiSDiO"` and `"UiSiO"` read the right
#' columns), the result's `notes` and its printout say so.
#'
#' @inheritParams disclosure
#' @eval argument_docs_roxygen("multi")
#' @return An object of class `synthrisk_multi.disclosure` (and `multi.disclosure`,
#'   synthpop's class, second). Its attribute measures are percentages (0-100), as
#'   in synthpop. Components: `attrib.table` (one row per target,
#'   ordered by the synthetic measure: `attrib.orig`, `attrib.syn` (means over the
#'   syntheses), `check1`, `Npairs` (as in synthpop: 1 when the target has 2-way pairs
#'   that need checking, else 0; it is a flag, not the number of pairs, which
#'   `check2` states), `check2`),
#'   `attrib.plot` (a ggplot), `keys`, `ident.orig` (UiO), `ident.syn` (the identity
#'   measure, mean over syntheses), `Norig`, `denom_lim`, `exclude_ov_denom_lim`,
#'   `digits`, `usetargetsNA`, `usekeysNA`, `ident.meas`, `attrib.meas`, `m`, `plot`,
#'   `output.list` (the `disclosure` object of each target), `grouping`, `notes`,
#'   `call`. With `control`, also `holdout` (the holdout tables of all targets, with
#'   a first column `target`; see [disclosure()], section "Holdout baseline"),
#'   `Ncontrol` and `holdout_notes`. With `conf.level` or `resynthesize`, `intervals` and
#'   `holdout_intervals` of every target (a first column `target`; see [disclosure()])
#'   and `uncertainty`; with `release = TRUE`, `release` (per target `DiSCO_any`,
#'   `repU_any`) and `pooled` (the `multi.disclosure` of the syntheses stacked).
#' @seealso [autoplot.multi.disclosure()], [tidy.multi.disclosure()],
#'   [print.multi.disclosure()].
#' @export
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' md <- multi.disclosure(sd2011_synds, sd2011, keys = keys,
#'                        ngroups_targets = c(income = 20), plot = FALSE)
#' md
#' print(md, to.print = "checks")
#'
#' # The name used by synthpop 1.8's vignette
#' md2 <- disclosure.summary(sd2011_synds, sd2011, keys, targets = c("depress", "ls"),
#'                           print.flag = FALSE, plot = FALSE)
#' md2$attrib.table
#'
#' # Holdout baseline for every target: sd2011_train_synds5 was made from parts$train
#' # only, so parts$control is held out (see holdout_split())
#' parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
#' mdh <- multi.disclosure(sd2011_train_synds5, parts$train, keys = keys,
#'                         targets = c("depress", "ls", "marital"),
#'                         print.flag = FALSE, plot = FALSE, control = parts$control)
#' print(mdh, to.print = "holdout")
#' autoplot(mdh, type = "holdout")
multi.disclosure <- function(object, data, ...) {
  UseMethod("multi.disclosure")
}

#' @rdname multi.disclosure
#' @export
multi.disclosure.synds <- front_door("multi", cont_na = FALSE)

#' @rdname multi.disclosure
#' @export
multi.disclosure.data.frame <- front_door("multi", cont_na = TRUE)

#' @rdname multi.disclosure
#' @export
multi.disclosure.tbl_lazy <- front_door("multi", cont_na = TRUE)

#' @rdname multi.disclosure
#' @export
multi.disclosure.list <- front_door("multi", cont_na = TRUE)

#' @rdname multi.disclosure
#' @export
multi.disclosure.default <- function(object, data, ...) {
  synthesis_list(object, call = rlang::current_env())
}

# Not an S3 method of disclosure() for class "summary": the name is synthpop 1.8's. No
# usage line: roxygen would show it as such a method, and a plain call as usage makes
# R CMD check note an S3 method shown by its full name; the description names it.
#' @rdname multi.disclosure
#' @usage NULL
#' @rawNamespace export(disclosure.summary)
disclosure.summary <- function(object, data, ...) {
  multi.disclosure(object, data, ...)
}
