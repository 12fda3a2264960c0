# Variables (keys and targets) checked, made comparable, grouped where asked, and
# handed to the Rust core, which codes them on the union of their levels.
#
# Returns a list:
# * `ptr`, `vars`, `info`: the core's encoding handle, the variable names, and the
#   core's information per variable;
# * `labels`: each variable's level labels in code order, "Missing" included;
# * `adjusted`: variables made factors to compare the original and synthetic data;
# * `grouping`: one element per numeric variable for which grouping was asked (see
#   grouping_record(): variable, ngroups, grouped, style, breaks, labels, n_levels,
#   reason);
# * `one_sided`: per variable, whether it has levels on one side only (from the core).

encode_variables <- function(vars, data, syn, cont.na, ngroups, strict, n_threads, call) {
  check_variable_columns(vars, data, syn, call)
  cont.na <- normalise_cont_na(cont.na, call)
  specs <- vector("list", length(vars))
  factor_levels <- vector("list", length(vars))
  adjusted <- character(0)
  grouping <- list()
  for (i in seq_along(vars)) {
    v <- vars[[i]]
    comparable <- comparable_columns(v, data, syn, strict, call)
    cols <- comparable$cols
    if (comparable$adjusted) adjusted <- c(adjusted, v)
    if (!is.factor(cols[[1]]) && ngroups[[v]] > 0) {
      grouped <- group_numeric(v, cols, ngroups[[v]], cont_na_codes(cont.na, v), call)
      grouping[[v]] <- grouped$record
      if (!is.null(grouped$cols)) cols <- grouped$cols
    }
    if (is.factor(cols[[1]])) {
      specs[[i]] <- factor_spec(cols)
      factor_levels[[i]] <- specs[[i]]$labels
      specs[[i]]$labels <- NULL
    } else {
      all_integer <- all(vapply(cols, is.integer, logical(1)))
      if (!all_integer) cols <- lapply(cols, as.double)
      specs[[i]] <- list(kind = if (all_integer) "integer" else "double", columns = cols, remaps = NULL,
                         n_levels = 0L, missing_code = 0L)
    }
  }
  res <- rust_result(rust_encode_variables(specs, n_threads), call = call)
  info <- stats::setNames(res$info, vars)
  labels <- lapply(seq_along(vars), function(i) {
    numeric_levels <- info[[i]]$numeric_levels
    if (is.null(numeric_levels)) factor_levels[[i]] else c(numeric_level_labels(numeric_levels), "Missing")
  })
  names(labels) <- vars
  for (v in names(grouping)) {
    if (!grouping[[v]]$grouped) {
      grouping[[v]]$labels <- setdiff(labels[[v]], "Missing")
      grouping[[v]]$n_levels <- length(grouping[[v]]$labels)
    }
  }
  one_sided <- vapply(info, function(x) isTRUE(x$one_sided), logical(1))
  list(ptr = res$ptr, vars = vars, labels = labels, info = info, adjusted = adjusted, grouping = grouping,
       one_sided = stats::setNames(one_sided, vars))
}

# The core's description of a factor variable: its columns, each side's map from
# level to union code, and the union's labels. NA, an NA level and a level "Missing"
# are all the missing level (SPEC section 2.3).
factor_spec <- function(cols) {
  lev <- union_levels(cols)
  lev <- lev[!is.na(lev)]
  missing_at <- match("Missing", lev)
  if (is.na(missing_at)) {
    lev <- c(lev, "Missing")
    missing_at <- length(lev)
  }
  remaps <- lapply(cols, function(x) {
    side_levels <- enc2utf8(levels(x))
    r <- match(side_levels, lev) - 1L
    r[is.na(side_levels)] <- missing_at - 1L
    r
  })
  list(kind = "factor", columns = cols, remaps = remaps, n_levels = length(lev), missing_code = missing_at - 1L,
       labels = lev)
}

# Labels of the core's numeric levels: as factor() labels numbers.
numeric_level_labels <- function(values) {
  if (is.character(values)) values else as.character(values)
}
