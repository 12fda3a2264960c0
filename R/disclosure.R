#' Disclosure measures for one target variable
#'
#' Identity and attribute disclosure measures of synthetic data for one target and a
#' set of quasi-identifying keys: a drop-in replacement for synthpop's
#' `disclosure()`, with the same arguments (in the same order), defaults and
#' numbers, counted by a Rust core on integer codes and sparse tables.
#'
#' The original data are `data`; every synthesis in `object` is compared with them.
#' Missing values (`NA`, an `NA` factor level, the label `"Missing"`) are one level,
#' `"Missing"`. Numeric variables are categories (one per printed value, `NaN` its
#' own) unless grouped with `ngroups_target`/`ngroups_keys` (quantile breaks of the
#' pooled original and synthetic values; codes in `cont.na` and non-finite values
#' stay levels of their own). The grouping used is stored in the result
#' (`grouping`) and printed.
#'
#' @section Column types:
#' Keys and targets may be numbers (integer, double, `integer64` with bit64
#' installed), factors (ordered or not), characters, logicals, dates and times
#' (`Date`, `POSIXct`, `POSIXlt`, `difftime`, taken by their printed labels); other
#' classed atomic columns (`raw`, for instance) are taken as the factor of their
#' `as.character()` values. List, matrix, data-frame and complex columns are errors
#' naming the variable and the dataset. A variable must be of the same kind in the
#' original and every synthesis (numeric, or factor/character/logical); with
#' `compare.synorig = FALSE` integer and double, factor and ordered factor count
#' as one kind. Characters are compared in UTF-8, whatever their declared encoding.
#'
#' @section Grouping:
#' `ngroups_target`/`ngroups_keys` group a numeric variable with more distinct
#' values than groups asked: breaks are the quantiles (type 7) of the pooled
#' original and synthetic values, redone with equal-width breaks when that would
#' leave fewer than three levels (intervals plus codes), as synthpop does through
#' classInt. When the number
#' of groups asked is at least the number of distinct usable values, each value is
#' its own group. `NA`, non-finite values (`-Inf`, `Inf`, `NaN`) and the codes in
#' `cont.na` are never grouped: each stays a level of its own, after the groups.
#' Each grouped variable, the number of groups asked and made, the style and the
#' labels are printed and stored in the result's `grouping`.
#'
#' The measures (all in percent, `max_denom`/`mean_denom` in records) are listed
#' with their definitions in [synthrisk-package]. Where a number deliberately
#' differs from synthpop 1.9-3, the result's `notes` and its printout say so.
#'
#' @param object A `synds` object from synthpop (recognised by its class; synthpop
#'   need not be installed), a data frame, or a list of data frames (one per
#'   synthesis). Tibbles and data.tables are treated as data frames.
#' @param data The original data, a data frame.
#' @param cont.na For data-frame or list input, a named list of special numeric codes
#'   per variable (as in synthpop's `syn()`), or, for a stratified synthesis, the
#'   list-matrix of `syn.strata()` (the codes are the union over strata); a `synds`
#'   object brings its own.
#' @inheritDotParams disclosure_impl -.syn -.cont.na -data
#' @return An object of class `disclosure`: `ident`, `attrib`, `allCAPs` (data
#'   frames, one row per synthesis), `check_1way`, `check1`, `check_2way`, `check2`,
#'   `Nexclusions` (one 8 x 6 matrix per synthesis), `measures` (every number in one
#'   data frame, plus `TCAP_synthpop`, synthpop 1.9-3's TCAP, and the record counts
#'   `Nd`, `Ns`), `grouping` (breaks and labels of each grouped variable), `notes`
#'   (one line per difference from synthpop 1.9-3 or adjustment), `keys`, `target`,
#'   `digits`, `Norig`, `Nsyn`, `m`, `to.print`, `call`.
#' @seealso [multi.disclosure()] for many targets at once, [print.disclosure()],
#'   [autoplot.disclosure()], [tidy.disclosure()].
#' @export
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' d <- disclosure(sd2011_synds, sd2011, keys = keys, target = "depress")
#' d$attrib
#'
#' # synthpop's positional order works: keys, target, print.flag, denom_lim, ...
#' d5 <- disclosure(sd2011_synds5, sd2011, keys, "income", FALSE, ngroups_target = 10)
#' print(d5, to.print = c("ident", "attrib"))
#'
#' # Data frames: cont.na is the third argument, as in synthpop
#' d_df <- disclosure(sd2011_synds$syn, sd2011, list(income = -8), keys, "marital",
#'                    print.flag = FALSE)
#' d_df$check2
disclosure <- function(object, data, ...) {
  UseMethod("disclosure")
}

#' @rdname disclosure
#' @export
disclosure.synds <- function(object, data, ...) {
  syn <- synthesis_list(object, call = rlang::current_env())
  disclosure_impl(syn$syn, syn$cont.na, data, ...)
}

#' @rdname disclosure
#' @export
disclosure.data.frame <- function(object, data, cont.na = NULL, ...) {
  disclosure_impl(list(object), cont.na, data, ...)
}

#' @rdname disclosure
#' @export
disclosure.list <- function(object, data, cont.na = NULL, ...) {
  disclosure_impl(synthesis_list(object, call = rlang::current_env())$syn, cont.na, data, ...)
}

#' @rdname disclosure
#' @export
disclosure.default <- function(object, data, ...) {
  synthesis_list(object, call = rlang::current_env())
}
