# The synthetic data as a list of m data frames, and the columns of one variable made
# comparable between the original and every synthesis (SPEC section 1).

synthesis_list <- function(object, call) {
  if (inherits(object, "synds")) {
    m <- object$m
    syn <- object$syn
    if (is.data.frame(syn)) syn <- list(syn)
    if (!is.list(syn) || length(syn) == 0 || !all(vapply(syn, is.data.frame, logical(1)))) {
      cli::cli_abort("{.arg object} is a {.cls synds} whose {.field syn} is not a data frame or list of data frames.",
                     call = call)
    }
    if (!is.null(m) && length(syn) != m) {
      cli::cli_abort("{.arg object} says {.field m} = {m} but holds {length(syn)} synthes{?is/es}.", call = call)
    }
    return(list(syn = syn, cont.na = object$cont.na))
  }
  if (is.data.frame(object)) {
    return(list(syn = list(object), cont.na = NULL))
  }
  if (is.list(object) && length(object) > 0 && all(vapply(object, is.data.frame, logical(1)))) {
    return(list(syn = unname(object), cont.na = NULL))
  }
  cli::cli_abort(
    "{.arg object} must be a {.cls synds} object, a data frame or a list of data frames, not {.obj_type_friendly {object}}.",
    call = call
  )
}

check_syntheses <- function(syn, call) {
  for (j in seq_along(syn)) {
    if (nrow(syn[[j]]) == 0) {
      cli::cli_abort("Synthesis {j} of {.arg object} has no rows.", call = call)
    }
  }
}

# Codes of `cont.na` for one variable, without NA.
cont_na_codes <- function(cont.na, var) {
  codes <- cont.na[[var]]
  if (is.null(codes)) return(numeric(0))
  codes <- suppressWarnings(as.numeric(codes))
  unique(codes[!is.na(codes)])
}

is_plain_numeric <- function(x) {
  (is.double(x) || is.integer(x)) && !is.factor(x) && is.null(attr(x, "class"))
}

# Columns of `var` in the original (first) and every synthesis, of one comparable type:
# character and logical become factors, a variable numeric on one side and a factor on
# the other becomes a factor everywhere, other classes become factors of their labels.
comparable_columns <- function(var, data, syn, strict, call) {
  cols <- c(list(data[[var]]), lapply(syn, function(s) s[[var]]))
  to_factor <- function(x) if (is.factor(x)) x else factor(as.character(x))
  kinds <- vapply(cols, function(x) {
    if (is.factor(x)) "factor" else if (is_plain_numeric(x)) "numeric" else "other"
  }, character(1))
  if (all(kinds == "numeric")) return(list(cols = cols, adjusted = FALSE))
  if (strict && length(unique(kinds)) > 1) {
    cli::cli_abort(c("Variable {.val {var}} is a factor on one side and not on the other.",
                     i = "Use {.code compare.synorig = TRUE} to make them comparable."), call = call)
  }
  list(cols = lapply(cols, to_factor), adjusted = any(kinds != "factor"))
}

# Union of factor levels: the syntheses' levels first, then the original's.
union_levels <- function(cols) {
  unique(c(unlist(lapply(cols[-1], levels)), levels(cols[[1]])))
}
