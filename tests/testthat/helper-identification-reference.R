# A plain-R, all-pairs reference for identification_risk(), written from the definitions
# vignette, section 10.4: every original record against every synthetic record. Only for tests.
# Known variables match exactly (Hu); a radius applies to synthesised numeric variables.

ref_label <- function(x) {
  if (is.factor(x)) x <- as.character(x)
  out <- as.character(x)
  # NaN is a value of its own (definitions vignette 2.2); only NA is missing.
  out[is.na(x) & !(is.numeric(x) & is.nan(x))] <- "<missing>"
  out
}

# Whether synthetic value xs matches original value xi of a numeric variable.
ref_within <- function(xi, xs, radius, relative) {
  if (is.na(xi) || !is.finite(xi)) {
    # NA, NaN, Inf and -Inf match only the same kind of value.
    kind <- function(v) if (is.nan(v)) "NaN" else if (is.na(v)) "NA" else if (v > 0) "Inf" else "-Inf"
    return(!is.finite(xs) && kind(xs) == kind(xi))
  }
  if (is.na(xs) || !is.finite(xs)) return(FALSE)
  reach <- if (relative) radius * abs(xi) else radius
  abs(xs - xi) <= reach
}

# The radius of each synthesised numeric variable, from the `radius` argument as the
# definitions give it (SPEC 10, issue 19): keys always match exactly; an
# unnamed radius is recycled over the synthesised variables that are numeric, in the
# order of `syn.vars`; a named one gives the radius of the variables it names.
ref_radius <- function(radius, data, syn.vars) {
  if (is.null(radius) || length(radius) == 0) return(list())
  radius <- unlist(radius)
  if (is.null(names(radius))) {
    numeric_syn <- Filter(function(v) is.numeric(data[[v]]), syn.vars)
    radius <- stats::setNames(rep_len(radius, length(numeric_syn)), numeric_syn)
  }
  as.list(radius)
}

ref_identification <- function(syn_list, data, keys, syn.vars, radius = NULL, relative = TRUE) {
  radius <- ref_radius(radius, data, syn.vars)
  vars <- c(keys, syn.vars)
  n <- nrow(data)
  summaries <- list()
  records <- list()
  for (j in seq_along(syn_list)) {
    syn <- syn_list[[j]]
    # Each variable's labels once per side (the pairs below compare them), and which
    # variables match within a radius.
    with_radius <- vapply(vars, function(v) v %in% syn.vars && !is.null(radius[[v]]), TRUE)
    data_labels <- lapply(stats::setNames(vars, vars), function(v) ref_label(data[[v]]))
    syn_labels <- lapply(stats::setNames(vars, vars), function(v) ref_label(syn[[v]]))
    matches <- function(i, s) {
      for (v in vars) {
        if (with_radius[[v]]) {
          if (!ref_within(data[[v]][i], syn[[v]][s], radius[[v]], relative)) return(FALSE)
        } else if (data_labels[[v]][i] != syn_labels[[v]][s]) {
          return(FALSE)
        }
      }
      TRUE
    }
    c_i <- integer(n)
    t_i <- logical(n)
    for (i in seq_len(n)) {
      for (s in seq_len(n)) if (matches(i, s)) c_i[i] <- c_i[i] + 1L
      t_i[i] <- matches(i, i)
    }
    k_i <- c_i * t_i == 1
    f_i <- c_i * (1 - t_i) == 1
    s <- sum(c_i == 1)
    summaries[[j]] <- data.frame(synthesis = as.character(j), exp.risk = sum(ifelse(t_i, 1 / c_i, 0)),
                                 true.rate = sum(k_i) / n, false.rate = if (s == 0) NA_real_ else sum(f_i) / s,
                                 s = s)
    records[[j]] <- data.frame(row = seq_len(n), synthesis = j, c = c_i, T = t_i, K = k_i, F = f_i)
  }
  list(summary = do.call(rbind, summaries), records = do.call(rbind, records))
}
