#' Disclosure measures for one target variable
#'
#' Identity and attribute disclosure measures of synthetic data for one target and a
#' set of quasi-identifying keys: a drop-in replacement for synthpop's
#' `disclosure()`, with the same arguments, defaults and numbers, computed by a Rust
#' core on integer codes and sparse counts.
#'
#' The original data are `data`; every synthesis in `object` is compared with them.
#' Missing values are a level `"Missing"` of their own. Numeric variables are
#' categories (one per value) unless grouped with `ngroups_target`/`ngroups_keys`
#' (quantile breaks of the pooled original and synthetic values; codes in `cont.na`
#' stay levels of their own).
#'
#' @section Measures (all in percent):
#' Identity, in `ident`: `UiO` (unique in original), `UiS` (unique in synthetic),
#' `UiOiS` (unique in original, key present in synthetic), `repU` (replicated
#' uniques).
#'
#' Attribute, in `attrib`: `Dorig` (disclosive in original), `Dsyn`, `iS` (key in
#' synthetic), `DiS` (key disclosive in synthetic), `DiSCO` (disclosive in synthetic,
#' correct in original), `DCAPd`, `DiSDiO`, and `max_denom`/`mean_denom` of the
#' DiSCO cells.
#'
#' CAP family, in `allCAPs`: `baseCAPd`, `CAPd`, `CAPs`, `DCAP` (= `DCAPd`, kept for
#' synthpop scripts), `DCAPd`, `DCAPs`, `DCAPb` (expected correct predictions over
#' original, synthetic, and synthetic records whose key is in the original), `TCAP`
#' (of the records predicted with certainty, the share predicted correctly: DiSCO
#' over DiS), `TCAPs` and `TCAPb`. synthpop 1.9-3 has no `DCAPd`-`DCAPb`, `TCAPs`,
#' `TCAPb`, and its `TCAP` was DiSCO over iS (see [synthrisk-package]).
#'
#' @param object A `synds` object from synthpop (recognised by its class; synthpop
#'   need not be installed), a data frame, or a list of data frames (one per
#'   synthesis). Tibbles and data.tables are treated as data frames.
#' @param data The original data, a data frame.
#' @param keys Quasi-identifiers: names or column numbers of `data`.
#' @param target The target variable: a name or column number of `data`.
#' @param cont.na For data-frame input, a named list of special numeric codes per
#'   variable (as in synthpop's `syn()`); taken from the `synds` object otherwise.
#' @param print.flag Whether to report adjustments made to make the data comparable.
#' @param denom_lim,exclude_ov_denom_lim With `exclude_ov_denom_lim = TRUE`, cells
#'   whose value exceeds `denom_lim` (a positive whole number) are excluded.
#' @param not.targetlev Target levels to exclude.
#' @param usetargetNA If `FALSE`, the `"Missing"` target level is excluded when the
#'   original target has missing values.
#' @param usekeysNA `TRUE`/`FALSE`, one per key (or one for all): if `FALSE`,
#'   records missing that key are excluded.
#' @param exclude.keys,exclude.keylevs,exclude.targetlevs Parallel vectors: cells of
#'   target level `exclude.targetlevs[i]` whose key `exclude.keys[i]` has level
#'   `exclude.keylevs[i]` are excluded.
#' @param ngroups_target,ngroups_keys Numbers of groups for numeric target/keys (0 =
#'   no grouping; `ngroups_keys` has one per key or one for all).
#' @param thresh_1way,thresh_2way Thresholds of the checks for disclosure that
#'   background knowledge explains: a level with more than `thresh_1way[1]`
#'   disclosive records that are more than `thresh_1way[2]` percent of all; pairs
#'   from cells over `thresh_2way[1]` records whose target level makes up more than
#'   `thresh_2way[2]` percent of the key level.
#' @param digits Digits used when printing.
#' @param to.print What `print()` shows by default, see [print.disclosure()].
#' @param compare.synorig If `TRUE`, variables of different types in the original
#'   and synthetic data are made comparable (character and logical to factor,
#'   numeric vs factor to factor). If `FALSE`, a variable that is a factor on one side
#'   only is an error. Levels are always matched by label.
#' @param n_threads Threads for the Rust core; default [synthrisk_threads()].
#' @param ... Unused; an error if not empty.
#' @return An object of class `disclosure`: `ident`, `attrib`, `allCAPs` (data
#'   frames, one row per synthesis), `check_1way`, `check1`, `check_2way`, `check2`,
#'   `Nexclusions` (one 8 x 6 matrix per synthesis), `measures` (every number above
#'   in one data frame, plus `TCAP_synthpop`, synthpop 1.9-3's TCAP, and the record
#'   counts `Nd`, `Ns`), `keys`, `target`, `digits`, `Norig`, `Nsyn`, `m`,
#'   `to.print`, `call`.
#' @export
#' @examples
#' d <- disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region", "placesize"),
#'                 target = "depress")
#' d$attrib
disclosure <- function(object, data, ...) {
  UseMethod("disclosure")
}

#' @rdname disclosure
#' @export
disclosure.synds <- function(object, data, keys, target, print.flag = TRUE, denom_lim = 5,
                             exclude_ov_denom_lim = FALSE, not.targetlev = NULL, usetargetNA = TRUE,
                             usekeysNA = TRUE, exclude.keys = NULL, exclude.keylevs = NULL,
                             exclude.targetlevs = NULL, ngroups_target = NULL, ngroups_keys = NULL,
                             thresh_1way = c(50, 90), thresh_2way = c(4, 80), digits = 2,
                             to.print = "short", compare.synorig = TRUE, n_threads = NULL, ...) {
  call <- match.call()
  rlang::check_dots_empty()
  env <- rlang::current_env()
  inputs <- synthesis_list(object, call = env)
  disclosure_impl(inputs$syn, data, keys, target, inputs$cont.na, mget(disclosure_arg_names, envir = env), call, env)
}

#' @rdname disclosure
#' @export
disclosure.data.frame <- function(object, data, keys, target, cont.na = NULL, print.flag = TRUE,
                                  denom_lim = 5, exclude_ov_denom_lim = FALSE, not.targetlev = NULL,
                                  usetargetNA = TRUE, usekeysNA = TRUE, exclude.keys = NULL,
                                  exclude.keylevs = NULL, exclude.targetlevs = NULL,
                                  ngroups_target = NULL, ngroups_keys = NULL, thresh_1way = c(50, 90),
                                  thresh_2way = c(4, 80), digits = 2, to.print = "short",
                                  compare.synorig = TRUE, n_threads = NULL, ...) {
  call <- match.call()
  rlang::check_dots_empty()
  env <- rlang::current_env()
  disclosure_impl(list(object), data, keys, target, cont.na, mget(disclosure_arg_names, envir = env), call, env)
}

#' @rdname disclosure
#' @export
disclosure.list <- function(object, data, keys, target, cont.na = NULL, print.flag = TRUE,
                            denom_lim = 5, exclude_ov_denom_lim = FALSE, not.targetlev = NULL,
                            usetargetNA = TRUE, usekeysNA = TRUE, exclude.keys = NULL,
                            exclude.keylevs = NULL, exclude.targetlevs = NULL, ngroups_target = NULL,
                            ngroups_keys = NULL, thresh_1way = c(50, 90), thresh_2way = c(4, 80),
                            digits = 2, to.print = "short", compare.synorig = TRUE, n_threads = NULL, ...) {
  call <- match.call()
  rlang::check_dots_empty()
  env <- rlang::current_env()
  inputs <- synthesis_list(object, call = env)
  disclosure_impl(inputs$syn, data, keys, target, cont.na, mget(disclosure_arg_names, envir = env), call, env)
}

#' @rdname disclosure
#' @export
disclosure.default <- function(object, data, ...) {
  synthesis_list(object, call = rlang::current_env())
}

disclosure_arg_names <- c("print.flag", "denom_lim", "exclude_ov_denom_lim", "not.targetlev", "usetargetNA",
                          "usekeysNA", "exclude.keys", "exclude.keylevs", "exclude.targetlevs", "ngroups_target",
                          "ngroups_keys", "thresh_1way", "thresh_2way", "digits", "to.print", "compare.synorig",
                          "n_threads")

disclosure_impl <- function(syn, data, keys, target, cont.na, a, call, env) {
  check_data_frame(data, "data", env)
  check_syntheses(syn, env)
  if (missing(target) || is.null(target) || length(target) != 1) {
    cli::cli_abort("{.arg target} must be one variable of {.arg data}.", call = env)
  }
  target <- resolve_columns(target, data, "target", env)
  user_keys <- check_keys(keys, data, env)
  check_targets_vs_keys(target, user_keys, "target", env)
  a$usekeysNA <- check_flags_along(a$usekeysNA, user_keys, "usekeysNA", env)
  a$ngroups_keys <- check_ngroups(a$ngroups_keys, length(user_keys), "ngroups_keys", env)
  a$ngroups_target <- check_ngroups(a$ngroups_target, 1L, "ngroups_target", env)
  # Keys in the column order of `data`; their per-key options follow them.
  key_order <- order(match(user_keys, names(data)))
  keys <- user_keys[key_order]
  a$usekeysNA <- a$usekeysNA[key_order]
  a$ngroups_keys <- a$ngroups_keys[key_order]
  check_in_syntheses(c(keys, target), syn, env)
  check_flag(a$usetargetNA, "usetargetNA", env)
  check_flag(a$exclude_ov_denom_lim, "exclude_ov_denom_lim", env)
  check_flag(a$compare.synorig, "compare.synorig", env)
  check_flag(a$print.flag, "print.flag", env)
  a$denom_lim <- check_denom_lim(a$denom_lim, env)
  a$thresh_1way <- check_thresholds(a$thresh_1way, "thresh_1way", env)
  a$thresh_2way <- check_thresholds(a$thresh_2way, "thresh_2way", env)
  check_digits(a$digits, env)
  a$to.print <- check_to_print(a$to.print, env)
  a$n_threads <- if (is.null(a$n_threads)) synthrisk_threads() else check_n_threads(a$n_threads, call = env)

  vars <- c(keys, target)
  ngroups <- stats::setNames(as.list(c(a$ngroups_keys, a$ngroups_target)), vars)
  enc <- encode_variables(vars, data, syn, cont.na, ngroups, strict = !a$compare.synorig,
                          n_threads = a$n_threads, call = env)
  report_adjustments(enc$adjusted, a$print.flag)
  opts <- list(list(target = target, not.targetlev = a$not.targetlev, usetargetNA = a$usetargetNA,
                    exclude.keys = a$exclude.keys, exclude.keylevs = a$exclude.keylevs,
                    exclude.targetlevs = a$exclude.targetlevs))
  raw <- run_core(enc, keys, a$usekeysNA, opts, a$denom_lim, a$exclude_ov_denom_lim, a$thresh_2way, a$n_threads, env)
  build_disclosure(raw[[1]], target, keys, enc$labels, length(syn), a$thresh_1way, a$thresh_2way, a$digits,
                   a$to.print, call)
}

report_adjustments <- function(adjusted, print.flag) {
  if (print.flag && length(adjusted) > 0) {
    cli::cli_inform(c(i = "Made {.val {adjusted}} factor{?s} in the original and synthetic data to compare them."))
  }
}
