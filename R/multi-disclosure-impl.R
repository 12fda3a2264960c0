#' Arguments of multi.disclosure()
#'
#' The one implementation behind every method of [multi.disclosure()]; its
#' arguments follow synthpop 1.9-3's order after `object`, `data` (and `cont.na`
#' for data frames).
#'
#' @inheritParams disclosure_impl
#' @param targets Target variables (names or column numbers); default all variables
#'   of the synthetic data that are not keys, in the order of `data`.
#' @param not.targetslev Levels to exclude, per target: a character vector with one
#'   label per target (`""` for none) or a list of label vectors, optionally named
#'   by target.
#' @param usetargetsNA `TRUE`/`FALSE`, one per target or one for all.
#' @param ngroups_targets Numbers of groups for numeric targets: one per target or
#'   one for all, or a vector named by target (e.g. `c(income = 20)`; the others are
#'   not grouped).
#' @param exclude.keys,exclude.keylevs,exclude.targetlevs Per target, the parallel
#'   vectors of [disclosure()]: lists with one element per target (`NULL` for
#'   none), or named by target; a plain vector is taken as one element per target.
#' @param ident.meas Identity measure of the summary: `"repU"`, `"UiSiO"` (UiOiS)
#'   or `"baseCAPd"` (the target's baseline CAP; synthpop 1.9-3 accepts it but
#'   reports `NA`).
#' @param attrib.meas Attribute measures of the summary (original, synthetic):
#'   `"DiSCO"` (Dorig, DiSCO), `"DiSDiO"` (Dorig, DiSDiO), `"DCAP"` (CAPd, DCAPd) or
#'   `"TCAP"` (Dorig, TCAP) or `"TCAP_taub"` (Dorig, TCAP_taub, Taub et al.'s TCAP).
#' @param plot Whether `print()` draws `attrib.plot`.
#' @param control Holdout baseline, as in [disclosure()]: original records not used
#'   for the synthesis. Every target's result gains `holdout`, and so does the
#'   summary (with a `target` column).
#' @param .plan Internal (the curves): a function of the list of syntheses returning the
#'   core's plan; then the raw counts are returned instead of a `multi.disclosure`.
#' @keywords internal
multi_disclosure_impl <- function(.syn, .cont.na, data, keys, targets = NULL, print.flag = TRUE, denom_lim = 5,
                                  exclude_ov_denom_lim = FALSE, not.targetslev = NULL, usetargetsNA = TRUE,
                                  usekeysNA = TRUE, exclude.keys = NULL, exclude.keylevs = NULL,
                                  exclude.targetlevs = NULL, ngroups_targets = NULL, ngroups_keys = NULL,
                                  ident.meas = "repU", attrib.meas = "DiSCO", thresh_1way = c(50, 90),
                                  thresh_2way = c(4, 80), digits = 2, plot = TRUE, compare.synorig = TRUE,
                                  n_threads = NULL, control = NULL, ..., .plan = NULL) {
  env <- parent.frame()
  call <- user_call(sys.call(-1), "multi.disclosure")
  check_extra_args(list(...), env)
  syn <- .syn
  check_dataset(data, "data", env)
  check_syntheses(syn, env)
  if (missing(keys)) keys <- NULL
  user_keys <- check_keys(keys, data, env)
  if (is.null(targets)) {
    # Every synthesis alike: a variable of the original in any synthesis is a target,
    # and one missing from another synthesis is an error naming it (check_in_syntheses()).
    count_columns <- unlist(lapply(c(list(data), syn), count_column))
    syn_names <- unique(unlist(lapply(syn, dataset_names), use.names = FALSE))
    targets <- setdiff(intersect(dataset_names(data), syn_names), c(user_keys, count_columns))
    if (length(targets) == 0) cli::cli_abort("No variable is left to be a target beside the {.arg keys}.", call = env)
  } else {
    targets <- resolve_columns(targets, data, "targets", env)
    dup <- unique(targets[duplicated(targets)])
    if (length(dup) > 0) cli::cli_abort("{.arg targets} repeats {.val {dup}}.", call = env)
  }
  check_targets_vs_keys(targets, user_keys, "targets", env)
  check_not_counts(c(user_keys, targets), c(list(data), syn, list(control)), env)
  nt <- length(targets)
  usekeysNA <- check_flags_along(usekeysNA, user_keys, "usekeysNA", env)
  ngroups_keys <- check_ngroups(ngroups_keys, length(user_keys), "ngroups_keys", env)
  grouping_named <- check_target_names(ngroups_targets, targets, "ngroups_targets", env)
  if (grouping_named) {
    # Named by target: the others are not grouped.
    named <- ngroups_targets
    ngroups_targets <- stats::setNames(rep(0, nt), targets)
    ngroups_targets[names(named)] <- named
  }
  ngroups_targets <- check_ngroups(unname(ngroups_targets), nt, "ngroups_targets", env, what = "target")
  usetargetsNA <- per_target_flags(usetargetsNA, targets, env)
  key_order <- order(match(user_keys, dataset_names(data)))
  keys <- user_keys[key_order]
  usekeysNA <- usekeysNA[key_order]
  ngroups_keys <- ngroups_keys[key_order]
  check_in_syntheses(c(keys, targets), syn, env)
  check_flag(exclude_ov_denom_lim, "exclude_ov_denom_lim", env)
  check_flag(compare.synorig, "compare.synorig", env)
  check_flag(print.flag, "print.flag", env)
  check_flag(plot, "plot", env)
  denom_lim <- check_denom_lim(denom_lim, env)
  thresh_1way <- check_thresholds(thresh_1way, "thresh_1way", env)
  thresh_2way <- check_thresholds(thresh_2way, "thresh_2way", env)
  check_digits(digits, env)
  ident.meas <- check_choice(ident.meas, names(ident_meas_columns), "ident.meas", env)
  attrib.meas <- check_choice(attrib.meas, names(attrib_meas_columns), "attrib.meas", env)
  n_threads <- if (is.null(n_threads)) synthrisk_threads() else check_n_threads(n_threads, call = env)

  not_levels <- per_target_levels(not.targetslev, targets, env)
  ex_keys <- per_target_list(exclude.keys, targets, "exclude.keys", env)
  ex_keylevs <- per_target_list(exclude.keylevs, targets, "exclude.keylevs", env)
  ex_targetlevs <- per_target_list(exclude.targetlevs, targets, "exclude.targetlevs", env)

  vars <- c(keys, targets)
  check_control(control, vars, env)
  if (!is.null(.plan) && !is.null(control)) {
    cli::cli_abort("{.arg control} is not used by the curves; pass it to {.fn disclosure} or {.fn multi.disclosure}.",
                   call = env)
  }
  ngroups <- stats::setNames(as.list(c(ngroups_keys, ngroups_targets)), vars)
  plans <- holdout_plans(length(syn), !is.null(control))
  # The curves: their own plan of (sub)samples and tau values, and the raw counts back.
  if (!is.null(.plan)) plans$train <- .plan(syn)
  opts <- lapply(seq_len(nt), function(i) {
    list(target = targets[i], not.targetlev = not_levels[[i]], not_arg = "not.targetslev", usetargetNA = usetargetsNA[i],
         exclude.keys = ex_keys[[i]], exclude.keylevs = ex_keylevs[[i]], exclude.targetlevs = ex_targetlevs[[i]])
  })
  counted <- count_targets(keys, targets, data, syn, control, .cont.na, ngroups, strict = !compare.synorig,
                           n_threads = n_threads, call = env, run_group = function(enc, group) {
    group_opts <- opts[match(group, targets)]
    list(train = run_core(enc, keys, usekeysNA, group_opts, denom_lim, exclude_ov_denom_lim, thresh_2way, n_threads,
                          env, plan = plans$train),
         control = if (!is.null(control)) {
           run_core(enc, keys, usekeysNA, group_opts, denom_lim, exclude_ov_denom_lim, thresh_2way, n_threads, env,
                    plan = plans$control)
         })
  })
  enc <- counted$enc
  raw <- counted$raw$train
  raw_control <- counted$raw$control
  m <- length(syn)
  n_control <- enc$records[length(enc$records)]
  if (!is.null(.plan)) {
    if (print.flag) cat(wrap_lines(c(input_lines(counted$input, counted$fetch, timing = TRUE), grouping_lines(enc$grouping %||% list()))),
                        sep = "\n")
    return(list(raw = raw, plan = plans$train, keys = keys, targets = targets, m = m,
                n_syn = as.integer(enc$records[1 + seq_len(m)]), n_orig = as.integer(enc$records[1]), grouping = enc$grouping %||% list(),
                denom_lim = denom_lim, exclude_ov_denom_lim = exclude_ov_denom_lim, input = counted$input,
                database = counted$fetch))
  }
  outputs <- lapply(targets, function(tv) {
    d <- build_disclosure(raw[[tv]], tv, keys, enc$labels, m, thresh_1way, thresh_2way, digits, "short", NULL)
    d$grouping <- (enc$grouping %||% list())[intersect(c(keys, tv), names(enc$grouping))]
    d$notes <- disclosure_notes(d, enc, m)
    d$input <- counted$input
    d$database <- counted$fetch
    if (!is.null(control)) {
      d$to.print <- c(d$to.print, "holdout")
      control_result <- build_disclosure(raw_control[[tv]], tv, keys, enc$labels, m, thresh_1way, thresh_2way,
                                         digits, "short", NULL)
      d <- add_holdout(d, control_result, n_control, enc$control)
    }
    d
  })
  names(outputs) <- targets
  x <- build_multi_disclosure(outputs, keys, m, ident.meas, attrib.meas, denom_lim, exclude_ov_denom_lim,
                              usetargetsNA, usekeysNA, digits, plot, call)
  x$grouping <- enc$grouping %||% list()
  x$notes <- multi_notes(x, enc, given_exclusions = !is.null(exclude.keys), grouping_named = grouping_named)
  warn_label_gaps(x$notes, env)
  x$input <- counted$input
  x$database <- counted$fetch
  if (!is.null(control)) x <- add_multi_holdout(x, n_control, enc$control)
  if (print.flag) cat(wrap_lines(c(multi_preparation_lines(x, enc, timing = TRUE), x$holdout_notes)), sep = "\n")
  x
}

attrib_meas_columns <- list(DiSCO = c("Dorig", "DiSCO"), DiSDiO = c("Dorig", "DiSDiO"),
                            DCAP = c("CAPd", "DCAPd"), TCAP = c("Dorig", "TCAP"),
                            TCAP_taub = c("Dorig", "TCAP_taub"))
ident_meas_columns <- c(repU = "repU", UiSiO = "UiOiS", baseCAPd = "baseCAPd")

per_target_flags <- function(x, targets, call) {
  if (check_target_names(x, targets, "usetargetsNA", call)) {
    named <- x
    x <- stats::setNames(rep(TRUE, length(targets)), targets)
    x[names(named)] <- named
  }
  check_flags_along(unname(x), targets, "usetargetsNA", call, what = "target")
}

# A per-target option given as a list (one element per target, or named by target)
# or a plain vector: one element per target, as synthpop indexes it with [[i]].
per_target_list <- function(x, targets, arg, call) {
  n <- length(targets)
  if (is.null(x)) return(rep(list(NULL), n))
  if (check_target_names(x, targets, arg, call)) {
    out <- rep(list(NULL), n)
    out[match(names(x), targets)] <- if (is.list(x)) x else as.list(x)
    return(out)
  }
  if (!is.list(x)) {
    if (n == 1) return(list(x))
    if (length(x) == n) return(as.list(x))
    cli::cli_abort(c("{.arg {arg}} must be a list with one element per target ({n}), or named by target.",
                     x = "It is {.code {describe_value(x)}} (length {length(x)})."), call = call)
  }
  if (length(x) != n) {
    cli::cli_abort("{.arg {arg}} must have one element per target ({n}), not {length(x)}.", call = call)
  }
  x
}

per_target_levels <- function(x, targets, call) {
  if (is.null(x)) return(rep(list(NULL), length(targets)))
  if (is.list(x) || !is.null(names(x))) return(per_target_list(x, targets, "not.targetslev", call))
  if (length(x) != length(targets)) {
    cli::cli_abort(c("{.arg not.targetslev} must have one element per target ({length(targets)}), or be a list named by target.",
                     x = "It is {.code {describe_value(x)}} (length {length(x)})."), call = call)
  }
  as.list(as.character(x))
}

build_multi_disclosure <- function(outputs, keys, m, ident.meas, attrib.meas, denom_lim, exclude_ov_denom_lim,
                                   usetargetsNA, usekeysNA, digits, plot, call) {
  cols <- attrib_meas_columns[[attrib.meas]]
  target_mean <- function(col) vapply(outputs, function(d) mean(.subset2(d$measures, col)), numeric(1))
  orig <- target_mean(cols[1])
  syn <- target_mean(cols[2])
  check1 <- vapply(outputs, function(d) d$check1, character(1))
  check2 <- vapply(outputs, function(d) d$check2, character(1))
  ord <- order(syn)
  flags <- ifelse(nzchar(check1) & nzchar(check2), " 1&2way checks",
                  ifelse(nzchar(check1), " 1way checks", ifelse(nzchar(check2), " 2way checks", "")))
  rank <- sprintf("%0*d", nchar(length(ord)), seq_along(ord))
  table <- new_data_frame(list(attrib.orig = unname(orig[ord]), attrib.syn = unname(syn[ord]),
                               check1 = unname(check1[ord]), Npairs = as.numeric(nzchar(check2[ord])),
                               check2 = unname(check2[ord])),
                          row_names = paste0(rank, " ", names(outputs)[ord], flags[ord]))
  attr(table, "targets") <- names(outputs)[ord]
  x <- structure(
    list(
      attrib.table = table,
      attrib.plot = NULL,
      keys = keys,
      ident.orig = unname(target_mean("UiO")),
      ident.syn = unname(target_mean(ident_meas_columns[[ident.meas]])),
      Norig = outputs[[1]]$Norig,
      denom_lim = denom_lim,
      exclude_ov_denom_lim = exclude_ov_denom_lim,
      digits = digits,
      usetargetsNA = usetargetsNA,
      usekeysNA = usekeysNA,
      ident.meas = ident.meas,
      attrib.meas = attrib.meas,
      m = m,
      plot = plot,
      output.list = outputs,
      call = call
    ),
    class = c("synthrisk_multi.disclosure", "multi.disclosure")
  )
  # attrib.plot is drawn on first access (R/lazy-plot.R), not here: a third of a
  # small call's time went to a ggplot that plot = FALSE never shows.
  x
}
