# Per-target requests for the core: exclusions resolved from labels to codes (unknown
# names and levels are errors).

# Levels named by `not.targetlev` (definitions vignette 5.1): NULL or a single "" means none; in a
# longer vector "" is a label like any other, so a real "" level can be excluded.
target_levels_to_exclude <- function(x, t_labels, target, arg, call) {
  if (is.null(x) || identical(x, "")) return(character(0))
  if (is.factor(x)) x <- as.character(x)
  if (!(is.character(x) || is.numeric(x) || is.logical(x)) || !is.null(dim(x))) {
    cli::cli_abort("{.arg {arg}} must be labels of target levels, not {.obj_type_friendly {x}}.", call = call)
  }
  if (anyNA(x)) {
    cli::cli_abort(c("{.arg {arg}} must be labels of target levels, not {.code NA}.",
                     i = "Missing values are the level {.val Missing}; {.code usetargetNA = FALSE} excludes them."),
                   call = call)
  }
  x <- user_labels(x)
  bad <- setdiff(x, t_labels)
  if (length(bad) > 0) {
    cli::cli_abort(c("{.arg {arg}} names {.val {bad}}, not among the levels of target {.val {target}}.",
                     i = "Its levels are {.val {show_values(t_labels)}}."), call = call)
  }
  x
}

# Per-target options, as a list with elements target, not.targetlev, usetargetNA,
# exclude.keys, exclude.keylevs, exclude.targetlevs
# (and optionally not_arg, the name of the argument not.targetlev came from), as the
# core's request: one form, made after the encoding or before it. The core completes
# it from the encoded target (its missing code; whether the plan's original has
# missing target values, which usetargetNA = FALSE then excludes).
# `enc`: the encoding, or what is known before it (list(vars, labels), labels NULL for
# numeric variables not grouped): then NULL when an exclusion names a level of a
# variable not yet labelled, so that the request waits for the encoding.
target_request <- function(opt, enc, request) {
  keys <- request$keys
  call <- request$env
  limits <- request$limits
  tv <- opt$target
  names_levels <- !(is.null(opt$not.targetlev) || identical(opt$not.targetlev, ""))
  if (!names_levels && length(opt$exclude.keys) == 0 && length(opt$exclude.keylevs) == 0 &&
      length(opt$exclude.targetlevs) == 0) {
    # No level named (synthpop's defaults): nothing to look up among the labels.
    return(core_target_request(match(tv, enc$vars) - 1L, integer(0), opt, limits, integer(0), integer(0), integer(0)))
  }
  t_labels <- enc$labels[[tv]]
  needs <- c(if (names_levels) tv, if (length(opt$exclude.keys) > 0) c(tv, as.character(opt$exclude.keys)))
  unlabelled <- vapply(needs, function(v) v %in% enc$vars && is.null(enc$labels[[v]]), logical(1))
  if (any(unlabelled)) return(NULL)

  not_lev <- target_levels_to_exclude(opt$not.targetlev, t_labels, tv, opt$not_arg %||% "not.targetlev", call)

  ek <- opt$exclude.keys
  ekl <- opt$exclude.keylevs
  etl <- opt$exclude.targetlevs
  n_ex <- c(length(ek), length(ekl), length(etl))
  if (length(unique(n_ex)) != 1) {
    cli::cli_abort(c("{.arg exclude.keys}, {.arg exclude.keylevs} and {.arg exclude.targetlevs} must have the same length.",
                     x = "They have lengths {n_ex[1]}, {n_ex[2]} and {n_ex[3]}."), call = call)
  }
  kt_key <- integer(0)
  kt_key_level <- integer(0)
  kt_target_level <- integer(0)
  if (n_ex[1] > 0) {
    ek <- as.character(ek)
    ekl <- user_labels(ekl)
    etl <- user_labels(etl)
    bad <- setdiff(ek, keys)
    if (length(bad) > 0) {
      cli::cli_abort(c("{.arg exclude.keys} names {.val {bad}}, not among the {.arg keys}.",
                       i = "The keys are {.val {keys}}."), call = call)
    }
    kt_key <- match(ek, keys)
    kt_key_level <- vapply(seq_along(ek), function(i) match(ekl[i], enc$labels[[ek[i]]]), integer(1))
    if (anyNA(kt_key_level)) {
      i <- which(is.na(kt_key_level))
      cli::cli_abort("{.arg exclude.keylevs} has {.val {ekl[i]}}, not a level of key {.val {ek[i]}}.", call = call)
    }
    kt_target_level <- match(etl, t_labels)
    if (anyNA(kt_target_level)) {
      cli::cli_abort("{.arg exclude.targetlevs} has {.val {etl[is.na(kt_target_level)]}}, not a level of target {.val {tv}}.",
                     call = call)
    }
  }

  core_target_request(match(tv, enc$vars) - 1L, as.integer(match(not_lev, t_labels) - 1L), opt, limits,
                      as.integer(kt_key - 1L), as.integer(kt_key_level - 1L), as.integer(kt_target_level - 1L))
}

# The core's request for one target (0-based variable, excluded levels, and the
# key-target exclusions' keys and levels), with its options and the request's limits.
core_target_request <- function(var, excluded_levels, opt, limits, kt_key, kt_key_level, kt_target_level) {
  list(
    var = var,
    excluded_levels = excluded_levels,
    use_target_na = isTRUE(opt$usetargetNA),
    kt_key = kt_key,
    kt_key_level = kt_key_level,
    kt_target_level = kt_target_level,
    denom_lim = if (limits$exclude_ov_denom_lim) as.integer(limits$denom_lim) else NA_integer_,
    twoway_min_cell = as.numeric(limits$thresh_2way[1])
  )
}

# `plan` with the records each row of each dataset stands for (counted cells; NULL per
# dataset of records). NULL stays NULL when every dataset is records.
plan_with_weights <- function(plan, weights) {
  if (all(vapply(weights, is.null, logical(1)))) return(plan)
  if (is.null(plan)) {
    plan <- list(original = 0L, syntheses = lapply(seq_len(length(weights) - 1L), function(j) {
      list(dataset = as.integer(j), rows = NULL)
    }), tau = NULL)
  }
  plan$weights <- weights
  plan
}
