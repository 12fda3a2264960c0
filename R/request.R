# One request for every front door. disclosure_request() takes synthpop's arguments of
# either family, checks each once, and returns a `synthrisk_request`: the datasets, the
# keys and per-target options, thresholds, and what to compute (the plans of the core
# call, record-level counts). run_request() (R/run-request.R) counts it; the front door
# turns the counts into its result. disclosure() is the one-target case of the request.

# `.family`: "disclosure" or "multi" (whose arguments `...` are, or `.bound`, as
# frame_arguments() binds them); `.object`: the synthetic data as the user gave them
# (prepared by prepare_inputs()); `.cont.na`: the argument, NULL for a synds; `.env`:
# the frame whose call errors name; `.records`: also count record by record
# (record_risk()); `.call`: the call the result records (default the caller's);
# `.plan_of`: a function of the syntheses returning the core's plan of (sub)samples and
# tau values (the curves).
disclosure_request <- function(.family, .object, .cont.na, .data, ..., .env = parent.frame(), .call = NULL,
                               .records = FALSE, .plan_of = NULL, .bound = NULL) {
  env <- .env
  generic <- if (.family == "multi") "multi.disclosure" else "disclosure"
  call <- user_call(if (is.null(.call)) sys.call(-1) else .call, generic)
  args <- .bound %||% bind_arguments(.family, ...)
  check_extra_args(args$extra, env)
  a <- args$values
  check_keys_not_in_cont_na(a$keys, .cont.na, .family, env)
  inputs <- prepare_inputs(.object, .data, control = a$control, cont.na = .cont.na, n_threads = a$n_threads,
                           fn = if (.records) "record_risk" else generic, call = env, records = .records)
  syn <- inputs$syn
  data <- .data
  # The variables synthpop's synorig.compare() would adjust (data frames only, with
  # compare.synorig = TRUE): they decide a note (m > 1) and the default targets' order
  # (when the synthesis orders its columns otherwise than `data`). Only then are the
  # columns read (a pass over every column of large data).
  synorig_matters <- inputs$m > 1 ||
    (.family == "multi" && is.null(a$targets) && !same_column_order(syn[[1]], data))
  synorig_adjusted <- if (!inputs$synds && !isFALSE(a$compare.synorig) && synorig_matters) {
    synorig_adjusted_variables(syn[[1]], data)
  } else {
    character(0)
  }
  if (.family == "disclosure") {
    targets <- request_targets(.family, a, data, syn, NULL, env)
    user_keys <- check_keys(a$keys, data, env)
  } else {
    user_keys <- check_keys(a$keys, data, env)
    targets <- request_targets(.family, a, data, syn, user_keys, env, length(synorig_adjusted) > 0)
  }
  control <- a$control
  check_targets_vs_keys(targets, user_keys, if (.family == "multi") "targets" else "target", env)
  check_not_counts(c(user_keys, targets), c(list(data), syn, list(control)), env)
  usekeysNA <- check_flags_along(a$usekeysNA, user_keys, "usekeysNA", env)
  ngroups_keys <- check_ngroups(a$ngroups_keys, length(user_keys), "ngroups_keys", env)
  target_grouping <- request_target_grouping(.family, a, targets, env)
  if (.family == "multi") usetargetsNA <- per_target_flags(a$usetargetsNA, targets, env)
  # Keys in the column order of `data`; their per-key options follow them.
  key_order <- order(match(user_keys, dataset_names(data)))
  keys <- user_keys[key_order]
  check_in_syntheses(c(keys, targets), syn, env)
  for (flag in intersect(c("usetargetNA", "exclude_ov_denom_lim", "compare.synorig", "print.flag", "plot"), names(a))) {
    check_flag(a[[flag]], flag, env)
  }
  limits <- list(denom_lim = check_denom_lim(a$denom_lim, env), exclude_ov_denom_lim = a$exclude_ov_denom_lim,
                 thresh_1way = check_thresholds(a$thresh_1way, "thresh_1way", env),
                 thresh_2way = check_thresholds(a$thresh_2way, "thresh_2way", env))
  check_digits(a$digits, env)
  output <- request_output(.family, a, args$supplied, !is.null(control), env)
  n_threads <- inputs$n_threads
  target_options <- if (.family == "multi") {
    multi_target_options(a, targets, usetargetsNA, env)
  } else {
    list(list(target = targets, not.targetlev = a$not.targetlev, usetargetNA = a$usetargetNA,
              exclude.keys = a$exclude.keys, exclude.keylevs = a$exclude.keylevs,
              exclude.targetlevs = a$exclude.targetlevs))
  }
  check_control(control, c(keys, targets), env)
  if (.records && !is.null(control)) {
    cli::cli_abort("{.arg control} is not used by record-level output; pass it to {.fn disclosure}.", call = env)
  }
  if (!is.null(.plan_of) && !is.null(control)) {
    cli::cli_abort("{.arg control} is not used by the curves; pass it to {.fn disclosure} or {.fn multi.disclosure}.",
                   call = env)
  }
  uncertainty <- request_uncertainty(a, syn, control, env)
  check_flag(a$release, "release", env)
  if (isTRUE(a$release)) check_release(syn, .records || !is.null(.plan_of), env)
  if (.records && uncertainty$resynthesize > 0) {
    cli::cli_abort("{.arg resynthesize} is not used by record-level output; pass it to {.fn disclosure}.", call = env)
  }
  if (.records && !is.null(uncertainty$conf.level)) {
    cli::cli_abort("{.arg conf.level} is not used by record-level output; pass it to {.fn disclosure}.", call = env)
  }
  plans <- holdout_plans(length(syn), !is.null(control))
  if (!is.null(.plan_of)) plans$train <- .plan_of(syn)
  structure(list(
    family = .family, call = call, env = env, syn = syn, cont.na = inputs$cont.na, data = data, control = control,
    keys = keys, usekeysNA = usekeysNA[key_order], targets = targets,
    usetargetsNA = if (.family == "multi") usetargetsNA else a$usetargetNA,
    ngroups = stats::setNames(as.list(c(ngroups_keys[key_order], target_grouping$ngroups)), c(keys, targets)),
    grouping_named = target_grouping$named, target_options = target_options,
    given_exclusions = !is.null(a$exclude.keys), limits = limits, output = output, strict = !a$compare.synorig,
    n_threads = n_threads, plans = plans, records = .records, uncertainty = uncertainty, release = isTRUE(a$release),
    synorig_adjusted = synorig_adjusted
  ), class = "synthrisk_request")
}

# For a data frame or list of syntheses, synthpop's third argument is `cont.na`: keys
# passed there by position would otherwise be reported as no keys at all.
check_keys_not_in_cont_na <- function(keys, cont.na, family, call) {
  if (length(keys) > 0 || !is.atomic(cont.na) || length(cont.na) == 0) return(invisible())
  fn <- if (family == "multi") "multi.disclosure" else "disclosure"
  cli::cli_abort(c("{.arg keys} is missing; {.arg cont.na} got {.code {describe_value(cont.na)}}.",
                   i = paste0("For a data frame or a list of syntheses the third argument of {.fn ", fn, "} is ",
                              "{.arg cont.na}, as in synthpop; name the keys: {.code keys = ...}.")),
                 call = call)
}

# The request of the record-level analyses on keys alone (replicated.uniques(),
# record_risk() without a target): `inputs` from prepare_inputs(); keys counted as they
# are (no grouping, types made comparable), each record's key combination counted.
keys_request <- function(inputs, keys, env) {
  keys <- check_keys(keys, inputs$data, env)
  check_in_syntheses(keys, inputs$syn, env)
  structure(list(
    family = "keys", call = NULL, env = env, syn = inputs$syn, cont.na = inputs$cont.na, data = inputs$data,
    control = NULL, keys = keys, targets = character(0), ngroups = stats::setNames(as.list(rep(0, length(keys))), keys),
    strict = FALSE, n_threads = inputs$n_threads, plans = list(), records = FALSE
  ), class = "synthrisk_request")
}

# The targets: `target` (one) or `targets` (default: every variable of `data` found in
# any synthesis that is not a key or a count column, in the first synthesis's column
# order as synthpop 1.9-3 takes them, or in the original's when synthpop's
# synorig.compare() would have adjusted the data, which puts the synthesis in the
# original's order).
request_targets <- function(family, a, data, syn, user_keys, env, synorig_adjusted = FALSE) {
  if (family == "disclosure") {
    target <- a$target
    if (is.null(target) || length(target) != 1) {
      cli::cli_abort("{.arg target} must be one variable of {.arg data}, not {.code {describe_value(target)}}.",
                     call = env)
    }
    return(resolve_columns(target, data, "target", env))
  }
  if (is.null(a$targets)) {
    # Every synthesis alike: a variable of the original in any synthesis is a target,
    # and one missing from another synthesis is an error naming it (check_in_syntheses()).
    count_columns <- unlist(lapply(c(list(data), syn), count_column))
    syn_names <- unique(unlist(lapply(syn, dataset_names), use.names = FALSE))
    in_order <- if (synorig_adjusted) intersect(dataset_names(data), syn_names) else intersect(syn_names, dataset_names(data))
    targets <- setdiff(in_order, c(user_keys, count_columns))
    if (length(targets) == 0) cli::cli_abort("No variable is left to be a target beside the {.arg keys}.", call = env)
    return(targets)
  }
  targets <- resolve_columns(a$targets, data, "targets", env)
  dup <- unique(targets[duplicated(targets)])
  if (length(dup) > 0) cli::cli_abort("{.arg targets} repeats {.val {dup}}.", call = env)
  targets
}

# What the result shows: digits, print.flag, and to.print (disclosure) or the summary's
# measures and plot (multi).
request_output <- function(family, a, supplied, with_control, env) {
  out <- list(digits = a$digits, print.flag = a$print.flag)
  if (family == "disclosure") {
    out$to.print <- holdout_to_print(check_choices(a$to.print, print_choices, "to.print", env),
                                     chosen = "to.print" %in% supplied, with_control = with_control)
  } else {
    out$ident.meas <- check_choice(a$ident.meas, names(ident_meas_columns), "ident.meas", env)
    out$attrib.meas <- check_choice(a$attrib.meas, names(attrib_meas_columns), "attrib.meas", env)
    out$plot <- a$plot
  }
  out
}

#' @export
print.synthrisk_request <- function(x, ...) {
  cat(sprintf("<synthrisk request: %s of %d target%s, %d key%s, %d synthes%s%s>\n",
              if (x$family == "multi") "multi.disclosure()" else "disclosure()", length(x$targets),
              if (length(x$targets) == 1) "" else "s", length(x$keys), if (length(x$keys) == 1) "" else "s",
              length(x$syn), if (length(x$syn) == 1) "is" else "es", if (!is.null(x$control)) ", with control" else ""))
  invisible(x)
}

# The call as the user wrote it, under the generic's name (not the method's).
user_call <- function(call, generic) {
  if (is.call(call)) call[[1]] <- as.name(generic)
  call
}

check_extra_args <- function(dots, call) {
  if (length(dots) == 0) return(invisible())
  nm <- names(dots) %||% rep("", length(dots))
  if ("cont.na" %in% nm) abort_cont_na_of_synds("disclosure", call)
  if ("boot" %in% nm) abort_boot(call)
  shown <- ifelse(nzchar(nm), nm, paste0("..", seq_along(dots)))
  cli::cli_abort(c("Unknown argument{?s}: {.arg {shown}}.",
                   did_you_mean(nm[nzchar(nm)], known_argument_names())), call = call)
}
