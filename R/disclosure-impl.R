#' Arguments of disclosure()
#'
#' The one implementation behind every method of [disclosure()]; its arguments
#' follow synthpop 1.9-3's order after `object`, `data` (and `cont.na` for data
#' frames), so positional calls written for synthpop work.
#'
#' @param .syn The syntheses, a list of data frames.
#' @param .cont.na Special numeric codes per variable (a named list).
#' @param data The original data, a data frame.
#' @param keys Quasi-identifiers: names or column numbers of `data`.
#' @param target The target variable: a name or column number of `data`.
#' @param print.flag If `TRUE`, write to standard output what was done to the data
#'   before counting: variables made comparable, numeric variables grouped (into
#'   how many groups, with their labels) and records excluded by each step.
#' @param denom_lim,exclude_ov_denom_lim With `exclude_ov_denom_lim = TRUE`, cells
#'   whose value exceeds `denom_lim` (a positive whole number) are excluded.
#' @param not.targetlev Target levels to exclude (a single `""` or `NULL`: none).
#' @param usetargetNA If `FALSE`, the `"Missing"` target level is excluded when the
#'   original target has missing values.
#' @param usekeysNA `TRUE`/`FALSE`, one per key (or one for all): if `FALSE`,
#'   records missing that key are excluded.
#' @param exclude.keys,exclude.keylevs,exclude.targetlevs Parallel vectors: cells of
#'   target level `exclude.targetlevs[i]` whose key `exclude.keys[i]` has level
#'   `exclude.keylevs[i]` are excluded.
#' @param ngroups_target,ngroups_keys Numbers of groups for a numeric target/keys (0
#'   or `NULL` = no grouping; `ngroups_keys` has one per key or one for all).
#' @param thresh_1way,thresh_2way Thresholds of the checks for disclosure that
#'   background knowledge explains: a level with more than `thresh_1way[1]`
#'   disclosive records that are more than `thresh_1way[2]` percent of all; pairs
#'   from cells over `thresh_2way[1]` records whose target level makes up more than
#'   `thresh_2way[2]` percent of the key level.
#' @param digits Digits used when printing.
#' @param to.print What `print()` shows by default, see [print.disclosure()].
#' @param compare.synorig If `TRUE`, variables of different types in the original
#'   and synthetic data are made comparable (character and logical to factor,
#'   numeric vs factor to factor). If `FALSE`, such a variable is an error. Levels
#'   are always matched by label.
#' @param n_threads Threads for the Rust core; default [synthrisk_threads()].
#' @param control Holdout baseline: original records of the same population that
#'   were *not* used to make the synthesis (a data frame with the keys and target,
#'   e.g. from [holdout_split()], counted cells or a database table, as `data`), or
#'   `NULL`. Every measure is then computed also with
#'   `control` as the original, and the result gains `holdout` (see
#'   [disclosure()]). The measures of `data` do not change: `control` is coded with
#'   the levels and grouping breaks of `data` and the syntheses, its values beyond
#'   the outer breaks going to the end intervals. By default `print()` then shows
#'   the holdout table too.
#' @param ... Must be empty.
#' @param .records Internal: also return the record-level counts (for [record_risk()]).
#' @return A `disclosure` object, see [disclosure()].
#' @keywords internal
disclosure_impl <- function(.syn, .cont.na, data, keys, target, print.flag = TRUE, denom_lim = 5,
                            exclude_ov_denom_lim = FALSE, not.targetlev = NULL, usetargetNA = TRUE,
                            usekeysNA = TRUE, exclude.keys = NULL, exclude.keylevs = NULL,
                            exclude.targetlevs = NULL, ngroups_target = NULL, ngroups_keys = NULL,
                            thresh_1way = c(50, 90), thresh_2way = c(4, 80), digits = 2, to.print = "short",
                            compare.synorig = TRUE, n_threads = NULL, control = NULL, ..., .records = FALSE) {
  env <- parent.frame()
  call <- user_call(sys.call(-1), "disclosure")
  check_extra_args(list(...), env)
  syn <- .syn
  check_dataset(data, "data", env)
  check_syntheses(syn, env)
  if (missing(target) || is.null(target) || length(target) != 1) {
    cli::cli_abort("{.arg target} must be one variable of {.arg data}, not {.code {describe_value(if (missing(target)) NULL else target)}}.",
                   call = env)
  }
  if (missing(keys)) keys <- NULL
  target <- resolve_columns(target, data, "target", env)
  user_keys <- check_keys(keys, data, env)
  check_targets_vs_keys(target, user_keys, "target", env)
  check_not_counts(c(user_keys, target), c(list(data), syn, list(control)), env)
  usekeysNA <- check_flags_along(usekeysNA, user_keys, "usekeysNA", env)
  ngroups_keys <- check_ngroups(ngroups_keys, length(user_keys), "ngroups_keys", env)
  ngroups_target <- check_ngroups(ngroups_target, 1L, "ngroups_target", env)
  # Keys in the column order of `data`; their per-key options follow them.
  key_order <- order(match(user_keys, dataset_names(data)))
  keys <- user_keys[key_order]
  usekeysNA <- usekeysNA[key_order]
  ngroups_keys <- ngroups_keys[key_order]
  check_in_syntheses(c(keys, target), syn, env)
  check_flag(usetargetNA, "usetargetNA", env)
  check_flag(exclude_ov_denom_lim, "exclude_ov_denom_lim", env)
  check_flag(compare.synorig, "compare.synorig", env)
  check_flag(print.flag, "print.flag", env)
  denom_lim <- check_denom_lim(denom_lim, env)
  thresh_1way <- check_thresholds(thresh_1way, "thresh_1way", env)
  thresh_2way <- check_thresholds(thresh_2way, "thresh_2way", env)
  check_digits(digits, env)
  to.print <- holdout_to_print(check_choices(to.print, print_choices, "to.print", env),
                               chosen = !missing(to.print), with_control = !is.null(control))
  n_threads <- if (is.null(n_threads)) synthrisk_threads() else check_n_threads(n_threads, call = env)

  vars <- c(keys, target)
  check_control(control, vars, env)
  if (.records && !is.null(control)) {
    cli::cli_abort("{.arg control} is not used by record-level output; pass it to {.fn disclosure}.", call = env)
  }
  ngroups <- stats::setNames(as.list(c(ngroups_keys, ngroups_target)), vars)
  plans <- holdout_plans(length(syn), !is.null(control))
  opts <- list(list(target = target, not.targetlev = not.targetlev, usetargetNA = usetargetNA,
                    exclude.keys = exclude.keys, exclude.keylevs = exclude.keylevs,
                    exclude.targetlevs = exclude.targetlevs))
  counted <- count_targets(keys, target, data, syn, control, .cont.na, ngroups, strict = !compare.synorig,
                           n_threads = n_threads, call = env, run_group = function(enc, group) {
    list(train = run_core(enc, keys, usekeysNA, opts, denom_lim, exclude_ov_denom_lim, thresh_2way, n_threads, env,
                          plan = plans$train),
         control = if (!is.null(control)) {
           run_core(enc, keys, usekeysNA, opts, denom_lim, exclude_ov_denom_lim, thresh_2way, n_threads, env,
                    plan = plans$control)
         })
  })
  enc <- counted$enc
  x <- build_disclosure(counted$raw$train[[1]], target, keys, enc$labels, length(syn), thresh_1way, thresh_2way,
                        digits, to.print, call)
  x$grouping <- enc$grouping %||% list()
  x$notes <- disclosure_notes(x, enc, length(syn))
  warn_label_gaps(x$notes, env)
  x$input <- counted$input
  x$database <- counted$fetch
  if (!is.null(control)) {
    control_result <- build_disclosure(counted$raw$control[[1]], target, keys, enc$labels, length(syn), thresh_1way,
                                       thresh_2way, digits, to.print, call)
    x <- add_holdout(x, control_result, enc$records[length(enc$records)], enc$control)
  }
  if (.records) {
    # record_risk(): the same request, record by record.
    request <- target_request(opts[[1]], enc, keys, denom_lim, exclude_ov_denom_lim, thresh_2way, env)
    x$records_raw <- rust_result(rust_records(enc$ptr, match(keys, enc$vars) - 1L, as.logical(usekeysNA), request,
                                              n_threads), call = env)
  }
  if (print.flag) cat(wrap_lines(c(preparation_lines(x, enc, timing = TRUE), x$holdout_notes)), sep = "\n")
  x
}

# The call as the user wrote it, under the generic's name (not the method's).
user_call <- function(call, generic) {
  if (is.call(call)) call[[1]] <- as.name(generic)
  call
}

check_extra_args <- function(dots, call) {
  if (length(dots) == 0) return(invisible())
  nm <- names(dots) %||% rep("", length(dots))
  if ("cont.na" %in% nm) {
    cli::cli_abort(c("{.arg cont.na} is taken from the {.cls synds} object ({.field object$cont.na}).",
                     i = "To use other codes, pass the syntheses as data frames: {.code disclosure(object$syn, data, cont.na = ...)}."),
                   call = call)
  }
  shown <- ifelse(nzchar(nm), nm, paste0("..", seq_along(dots)))
  cli::cli_abort(c("Unknown argument{?s}: {.arg {shown}}.",
                   did_you_mean(nm[nzchar(nm)], known_argument_names())), call = call)
}

known_argument_names <- function() {
  nm <- unique(c(names(formals(disclosure_impl)), names(formals(multi_disclosure_impl)), "cont.na"))
  nm[!startsWith(nm, ".") & nm != "..."]
}
