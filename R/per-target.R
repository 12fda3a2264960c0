# The per-target arguments of multi.disclosure() read into one set of options per
# target: the parsers the request uses (R/request.R), and the report to call
# record_risk() target by target (R/disclosure-report.R).

# Numbers of groups per target, and whether they were named by target.
request_target_grouping <- function(family, a, targets, env) {
  if (family == "disclosure") {
    return(list(ngroups = check_ngroups(a$ngroups_target, 1L, "ngroups_target", env), named = FALSE))
  }
  nt <- length(targets)
  x <- a$ngroups_targets
  named <- check_target_names(x, targets, "ngroups_targets", env)
  if (named) {
    # Named by target: the others are not grouped. Checked as given first, so that an
    # error shows what the user wrote, not the vector filled with zeros.
    given <- x
    if (!is.numeric(given) || anyNA(given)) {
      cli::cli_abort(c("{.arg ngroups_targets} must be numbers of groups.",
                       x = "It is {.code {describe_value(given)}}."), call = env)
    }
    x <- stats::setNames(rep(0, nt), targets)
    x[names(given)] <- given
  }
  list(ngroups = check_ngroups(unname(x), nt, "ngroups_targets", env, what = "target"), named = named)
}

# Per target of multi.disclosure(): the options of target_request() (R/target-request.R).
multi_target_options <- function(a, targets, usetargetsNA, env) {
  not_levels <- per_target_levels(a$not.targetslev, targets, env)
  ex_keys <- per_target_list(a$exclude.keys, targets, "exclude.keys", env)
  ex_keylevs <- per_target_list(a$exclude.keylevs, targets, "exclude.keylevs", env)
  ex_targetlevs <- per_target_list(a$exclude.targetlevs, targets, "exclude.targetlevs", env)
  lapply(seq_along(targets), function(i) {
    list(target = targets[i], not.targetlev = not_levels[[i]], not_arg = "not.targetslev",
         usetargetNA = usetargetsNA[i], exclude.keys = ex_keys[[i]], exclude.keylevs = ex_keylevs[[i]],
         exclude.targetlevs = ex_targetlevs[[i]])
  })
}

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

# multi.disclosure()'s per-target arguments (`args`, as the user gave them) as
# disclosure()'s, one list per target.
per_target_disclosure_args <- function(targets, args, call) {
  usetargetsNA <- per_target_flags(args$usetargetsNA %||% TRUE, targets, call)
  options <- multi_target_options(args, targets, usetargetsNA, call)
  ngroups <- request_target_grouping("multi", args, targets, call)$ngroups
  shared <- args[intersect(names(args), c("denom_lim", "exclude_ov_denom_lim", "usekeysNA", "ngroups_keys",
                                          "compare.synorig", "n_threads"))]
  out <- lapply(seq_along(targets), function(i) {
    o <- options[[i]]
    c(shared, list(not.targetlev = o$not.targetlev, usetargetNA = o$usetargetNA, ngroups_target = ngroups[i],
                   exclude.keys = o$exclude.keys, exclude.keylevs = o$exclude.keylevs,
                   exclude.targetlevs = o$exclude.targetlevs))
  })
  names(out) <- targets
  out
}
