#' Disclosure measures for many targets at once
#'
#' Runs the measures of [disclosure()] for every target with the same keys, in one
#' pass of the Rust core that shares the key encoding between targets and syntheses:
#' a drop-in replacement for synthpop's `multi.disclosure()`.
#'
#' @inheritParams disclosure
#' @param targets Target variables (names or column numbers); default all variables
#'   of the synthetic data that are not keys, in the order of `data`.
#' @param not.targetslev Levels to exclude, per target: a vector with one label per
#'   target (`""` for none) or a list of label vectors.
#' @param usetargetsNA `TRUE`/`FALSE`, one per target or one for all.
#' @param ngroups_keys Numbers of groups for numeric keys: one per key or one for all
#'   (0 = no grouping).
#' @param ngroups_targets Numbers of groups for numeric targets, one per target or one
#'   for all, or a vector named by target (e.g. `c(income = 20)`; others not grouped).
#' @param exclude.keys,exclude.keylevs,exclude.targetlevs Lists over targets of the
#'   parallel vectors of [disclosure()] (`NULL` elements for none); a plain vector is
#'   accepted with a single target.
#' @param ident.meas Identity measure of the summary: `"repU"` or `"UiSiO"`
#'   (UiOiS).
#' @param attrib.meas Attribute measures of the summary (original, synthetic):
#'   `"DiSCO"` (Dorig, DiSCO), `"DiSDiO"` (Dorig, DiSDiO), `"DCAP"` (CAPd, DCAPd) or
#'   `"TCAP"` (Dorig, TCAP).
#' @param plot Whether `print()` draws `attrib.plot`.
#' @return An object of class `multi.disclosure`: `attrib.table` (one row per target,
#'   ordered by the synthetic measure: `attrib.orig`, `attrib.syn` (means over the
#'   syntheses), `check1`, `Npairs` (1 when 2-way pairs need checks), `check2`),
#'   `attrib.plot` (a ggplot), `keys`, `ident.orig` (UiO), `ident.syn` (the identity
#'   measure, mean over syntheses), `Norig`, `denom_lim`, `exclude_ov_denom_lim`,
#'   `digits`, `usetargetsNA`, `usekeysNA`, `ident.meas`, `attrib.meas`, `m`, `plot`,
#'   `output.list` (the `disclosure` object of each target), `call`.
#' @seealso [autoplot.multi.disclosure()], [as.data.frame.multi.disclosure()].
#' @export
#' @examples
#' md <- multi.disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region", "placesize"),
#'                        ngroups_targets = c(0, 20, 0, 0, 0), plot = FALSE)
#' md
multi.disclosure <- function(object, data, keys, ...) {
  UseMethod("multi.disclosure")
}

#' @rdname multi.disclosure
#' @export
multi.disclosure.synds <- function(object, data, keys, targets = NULL, print.flag = TRUE, denom_lim = 5,
                                   exclude_ov_denom_lim = FALSE, not.targetslev = NULL, usetargetsNA = TRUE,
                                   usekeysNA = TRUE, exclude.keys = NULL, exclude.keylevs = NULL,
                                   exclude.targetlevs = NULL, ngroups_targets = NULL, ngroups_keys = NULL,
                                   ident.meas = "repU", attrib.meas = "DiSCO", thresh_1way = c(50, 90),
                                   thresh_2way = c(4, 80), digits = 2, plot = TRUE, compare.synorig = TRUE,
                                   n_threads = NULL, ...) {
  call <- match.call()
  rlang::check_dots_empty()
  env <- rlang::current_env()
  inputs <- synthesis_list(object, call = env)
  args <- mget(multi_arg_names, envir = env)
  multi_disclosure_impl(inputs$syn, data, keys, inputs$cont.na, args, call, env)
}

#' @rdname multi.disclosure
#' @export
multi.disclosure.data.frame <- function(object, data, keys, targets = NULL, cont.na = NULL, print.flag = TRUE,
                                        denom_lim = 5, exclude_ov_denom_lim = FALSE, not.targetslev = NULL,
                                        usetargetsNA = TRUE, usekeysNA = TRUE, exclude.keys = NULL,
                                        exclude.keylevs = NULL, exclude.targetlevs = NULL,
                                        ngroups_targets = NULL, ngroups_keys = NULL, ident.meas = "repU",
                                        attrib.meas = "DiSCO", thresh_1way = c(50, 90), thresh_2way = c(4, 80),
                                        digits = 2, plot = TRUE, compare.synorig = TRUE, n_threads = NULL, ...) {
  call <- match.call()
  rlang::check_dots_empty()
  env <- rlang::current_env()
  args <- mget(multi_arg_names, envir = env)
  multi_disclosure_impl(list(object), data, keys, cont.na, args, call, env)
}

#' @rdname multi.disclosure
#' @export
multi.disclosure.list <- function(object, data, keys, targets = NULL, cont.na = NULL, print.flag = TRUE,
                                  denom_lim = 5, exclude_ov_denom_lim = FALSE, not.targetslev = NULL,
                                  usetargetsNA = TRUE, usekeysNA = TRUE, exclude.keys = NULL,
                                  exclude.keylevs = NULL, exclude.targetlevs = NULL, ngroups_targets = NULL,
                                  ngroups_keys = NULL, ident.meas = "repU", attrib.meas = "DiSCO",
                                  thresh_1way = c(50, 90), thresh_2way = c(4, 80), digits = 2, plot = TRUE,
                                  compare.synorig = TRUE, n_threads = NULL, ...) {
  call <- match.call()
  rlang::check_dots_empty()
  env <- rlang::current_env()
  inputs <- synthesis_list(object, call = env)
  args <- mget(multi_arg_names, envir = env)
  multi_disclosure_impl(inputs$syn, data, keys, cont.na, args, call, env)
}

#' @rdname multi.disclosure
#' @export
multi.disclosure.default <- function(object, data, keys, ...) {
  synthesis_list(object, call = rlang::current_env())
}

multi_arg_names <- c("targets", "print.flag", "denom_lim", "exclude_ov_denom_lim", "not.targetslev",
                     "usetargetsNA", "usekeysNA", "exclude.keys", "exclude.keylevs", "exclude.targetlevs",
                     "ngroups_targets", "ngroups_keys", "ident.meas", "attrib.meas", "thresh_1way",
                     "thresh_2way", "digits", "plot", "compare.synorig", "n_threads")

attrib_meas_columns <- list(DiSCO = c("Dorig", "DiSCO"), DiSDiO = c("Dorig", "DiSDiO"),
                            DCAP = c("CAPd", "DCAPd"), TCAP = c("Dorig", "TCAP"))
ident_meas_columns <- c(repU = "repU", UiSiO = "UiOiS")

check_choice <- function(x, choices, arg, call) {
  if (!is.character(x) || length(x) != 1 || !(x %in% choices)) {
    cli::cli_abort("{.arg {arg}} must be one of {.val {choices}}, not {.val {show_values(x)}}.", call = call)
  }
  x
}

# A per-target option given as a vector (one element per target) or a list.
per_target_list <- function(x, targets, arg, call) {
  n <- length(targets)
  if (is.null(x)) return(rep(list(NULL), n))
  if (!is.list(x)) {
    if (n == 1) return(list(x))
    cli::cli_abort(c("{.arg {arg}} must be a list with one element per target ({n}).",
                     x = "It is {.obj_type_friendly {x}}."), call = call)
  }
  if (!is.null(names(x)) && all(names(x) %in% targets)) {
    out <- rep(list(NULL), n)
    out[match(names(x), targets)] <- x
    return(out)
  }
  if (length(x) != n) {
    cli::cli_abort("{.arg {arg}} must have one element per target ({n}), not {length(x)}.", call = call)
  }
  x
}

per_target_levels <- function(x, targets, call) {
  if (is.null(x)) return(rep(list(NULL), length(targets)))
  if (is.list(x)) return(per_target_list(x, targets, "not.targetslev", call))
  if (length(x) != length(targets)) {
    cli::cli_abort(c("{.arg not.targetslev} must have one element per target ({length(targets)}).",
                     x = "It has {length(x)}: {.val {show_values(x)}}."), call = call)
  }
  as.list(as.character(x))
}

multi_disclosure_impl <- function(syn, data, keys, cont.na, a, call, env) {
  check_data_frame(data, "data", env)
  check_syntheses(syn, env)
  user_keys <- check_keys(keys, data, env)
  targets <- a$targets
  if (is.null(targets)) {
    targets <- setdiff(intersect(names(data), names(syn[[1]])), user_keys)
    if (length(targets) == 0) cli::cli_abort("No variable is left to be a target beside the {.arg keys}.", call = env)
  } else {
    targets <- resolve_columns(targets, data, "targets", env)
    dup <- unique(targets[duplicated(targets)])
    if (length(dup) > 0) cli::cli_abort("{.arg targets} repeats {.val {dup}}.", call = env)
  }
  check_targets_vs_keys(targets, user_keys, "targets", env)
  nt <- length(targets)
  usekeysNA <- check_flags_along(a$usekeysNA, user_keys, "usekeysNA", env)
  ngroups_keys <- check_ngroups(a$ngroups_keys, length(user_keys), "ngroups_keys", env)
  ngroups_targets <- a$ngroups_targets
  if (!is.null(names(ngroups_targets)) && all(names(ngroups_targets) %in% targets)) {
    # Named by target: the others are not grouped.
    ngroups_targets <- stats::setNames(ngroups_targets[targets], targets)
    ngroups_targets[is.na(ngroups_targets)] <- 0
  }
  ngroups_targets <- check_ngroups(unname(ngroups_targets), nt, "ngroups_targets", env)
  usetargetsNA <- a$usetargetsNA
  if (!is.logical(usetargetsNA) || anyNA(usetargetsNA) || !(length(usetargetsNA) %in% c(1L, nt))) {
    cli::cli_abort("{.arg usetargetsNA} must be {.code TRUE}/{.code FALSE}, of length 1 or {nt} (one per target).",
                   call = env)
  }
  usetargetsNA <- rep_len(usetargetsNA, nt)
  key_order <- order(match(user_keys, names(data)))
  keys <- user_keys[key_order]
  usekeysNA <- usekeysNA[key_order]
  ngroups_keys <- ngroups_keys[key_order]
  check_in_syntheses(c(keys, targets), syn, env)
  check_flag(a$exclude_ov_denom_lim, "exclude_ov_denom_lim", env)
  check_flag(a$compare.synorig, "compare.synorig", env)
  check_flag(a$print.flag, "print.flag", env)
  check_flag(a$plot, "plot", env)
  denom_lim <- check_denom_lim(a$denom_lim, env)
  thresh_1way <- check_thresholds(a$thresh_1way, "thresh_1way", env)
  thresh_2way <- check_thresholds(a$thresh_2way, "thresh_2way", env)
  check_digits(a$digits, env)
  ident.meas <- check_choice(a$ident.meas, names(ident_meas_columns), "ident.meas", env)
  attrib.meas <- check_choice(a$attrib.meas, names(attrib_meas_columns), "attrib.meas", env)
  n_threads <- if (is.null(a$n_threads)) synthrisk_threads() else check_n_threads(a$n_threads, call = env)

  not_levels <- per_target_levels(a$not.targetslev, targets, env)
  ex_keys <- per_target_list(a$exclude.keys, targets, "exclude.keys", env)
  ex_keylevs <- per_target_list(a$exclude.keylevs, targets, "exclude.keylevs", env)
  ex_targetlevs <- per_target_list(a$exclude.targetlevs, targets, "exclude.targetlevs", env)

  vars <- c(keys, targets)
  ngroups <- stats::setNames(as.list(c(ngroups_keys, ngroups_targets)), vars)
  enc <- encode_variables(vars, data, syn, cont.na, ngroups, strict = !a$compare.synorig,
                          n_threads = n_threads, call = env)
  report_adjustments(enc$adjusted, a$print.flag)
  opts <- lapply(seq_len(nt), function(i) {
    list(target = targets[i], not.targetlev = not_levels[[i]], usetargetNA = usetargetsNA[i],
         exclude.keys = ex_keys[[i]], exclude.keylevs = ex_keylevs[[i]], exclude.targetlevs = ex_targetlevs[[i]])
  })
  raw <- run_core(enc, keys, usekeysNA, opts, denom_lim, a$exclude_ov_denom_lim, thresh_2way, n_threads, env)
  m <- length(syn)
  outputs <- lapply(targets, function(tv) {
    build_disclosure(raw[[tv]], tv, keys, enc$labels, m, thresh_1way, thresh_2way, a$digits, "short", NULL)
  })
  names(outputs) <- targets
  build_multi_disclosure(outputs, keys, m, ident.meas, attrib.meas, denom_lim, a$exclude_ov_denom_lim,
                         usetargetsNA, usekeysNA, a$digits, a$plot, call)
}

build_multi_disclosure <- function(outputs, keys, m, ident.meas, attrib.meas, denom_lim, exclude_ov_denom_lim,
                                   usetargetsNA, usekeysNA, digits, plot, call) {
  cols <- attrib_meas_columns[[attrib.meas]]
  target_mean <- function(col) vapply(outputs, function(d) mean(d$measures[[col]]), numeric(1))
  orig <- target_mean(cols[1])
  syn <- target_mean(cols[2])
  check1 <- vapply(outputs, function(d) d$check1, character(1))
  check2 <- vapply(outputs, function(d) d$check2, character(1))
  ord <- order(syn)
  flags <- ifelse(nzchar(check1) & nzchar(check2), " 1&2way checks",
                  ifelse(nzchar(check1), " 1way checks", ifelse(nzchar(check2), " 2way checks", "")))
  rank <- formatC(seq_along(ord), width = nchar(length(ord)), flag = "0")
  table <- data.frame(attrib.orig = unname(orig[ord]), attrib.syn = unname(syn[ord]), check1 = unname(check1[ord]),
                      Npairs = as.numeric(nzchar(check2[ord])), check2 = unname(check2[ord]),
                      stringsAsFactors = FALSE)
  rownames(table) <- paste0(rank, " ", names(outputs)[ord], flags[ord])
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
    class = "multi.disclosure"
  )
  x$attrib.plot <- attrib_plot(x)
  x
}
