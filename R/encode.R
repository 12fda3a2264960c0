# Variables (keys and targets) made comparable, grouped where asked, and handed to the
# Rust core, which codes them on the union of their levels. Returns the encoding
# handle and each variable's level labels, in code order, "Missing" included.

encode_variables <- function(vars, data, syn, cont.na, ngroups, strict, n_threads, call) {
  specs <- vector("list", length(vars))
  factor_levels <- vector("list", length(vars))
  adjusted <- character(0)
  for (i in seq_along(vars)) {
    v <- vars[[i]]
    comparable <- comparable_columns(v, data, syn, strict, call)
    cols <- comparable$cols
    if (comparable$adjusted) adjusted <- c(adjusted, v)
    if (!is.factor(cols[[1]]) && ngroups[[v]] > 0) {
      grouped <- group_numeric(cols, ngroups[[v]], cont_na_codes(cont.na, v))
      if (!is.null(grouped)) cols <- grouped
    }
    if (is.factor(cols[[1]])) {
      lev <- union_levels(cols)
      lev <- lev[!is.na(lev)]
      missing_at <- match("Missing", lev)
      if (is.na(missing_at)) {
        lev <- c(lev, "Missing")
        missing_at <- length(lev)
      }
      remaps <- lapply(cols, function(x) {
        r <- match(levels(x), lev) - 1L
        r[is.na(levels(x))] <- missing_at - 1L
        r
      })
      factor_levels[[i]] <- lev
      specs[[i]] <- list(kind = "factor", columns = cols, remaps = remaps,
                         n_levels = length(lev), missing_code = missing_at - 1L)
    } else {
      all_integer <- all(vapply(cols, is.integer, logical(1)))
      if (!all_integer) cols <- lapply(cols, as.double)
      specs[[i]] <- list(kind = if (all_integer) "integer" else "double", columns = cols, remaps = NULL,
                         n_levels = 0L, missing_code = 0L)
    }
  }
  res <- rust_result(rust_encode_variables(specs, n_threads), call = call)
  labels <- lapply(seq_along(vars), function(i) {
    info <- res$info[[i]]
    if (is.null(info$numeric_levels)) factor_levels[[i]] else c(as.character(info$numeric_levels), "Missing")
  })
  names(labels) <- vars
  info <- res$info
  names(info) <- vars
  list(ptr = res$ptr, vars = vars, labels = labels, info = info, adjusted = adjusted)
}
