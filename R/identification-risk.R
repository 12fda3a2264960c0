#' Identification risk for partially synthetic data
#'
#' For partially synthetic data, whose rows are the original records with some
#' variables (`syn.vars`) replaced, the identification summaries taught by Hu after
#' Reiter and Mitra: how often an intruder who knows the `keys` (and matches the
#' released `syn.vars`) would single out the true record.
#'
#' For original record \eqn{i} and each synthesis, \eqn{c_i} is the number of
#' synthetic records that match record \eqn{i} on every variable of `keys` and
#' `syn.vars`, \eqn{T_i = 1} when the synthetic record of the same row is among
#' them, \eqn{K_i = [c_i T_i = 1]} (a unique, true match), \eqn{F_i = [c_i (1 - T_i)
#' = 1]} (a unique, false match) and \eqn{s = \#\{i: c_i = 1\}}. Per synthesis:
#' * `exp.risk`, the expected match risk \eqn{\sum_i T_i / c_i} (a number of
#'   records; 0 where \eqn{c_i = 0});
#' * `true.rate`, the true match rate \eqn{\sum_i K_i / N};
#' * `false.rate`, the false match rate \eqn{\sum_i F_i / s} (`NA` when \eqn{s = 0}).
#'
#' The keys (the variables the intruder knows) are matched exactly, as Hu defines the
#' measures: in partially synthetic data they are the original values, so `object`
#' must hold the records of `data` in the same rows with the keys unchanged (only
#' `syn.vars` replaced); keys that differ row by row (fully synthetic data passed by
#' mistake, rows reordered) are an error naming them. A radius applies only to
#' synthesised numeric variables. Categorical variables (factors, characters,
#' logicals, dates, and numeric variables without a radius) match when their labels
#' are equal, a missing value matching a missing value. A synthesised numeric
#' variable with a radius matches when
#' \eqn{|x_{syn} - x_i| \le} `radius` (or \eqn{\le} `radius` \eqn{\cdot |x_i|} with
#' `relative = TRUE`, so that a zero matches only zero, and negative values use
#' their size); the boundary is included; `NA`, `NaN`, `Inf` and `-Inf` match only
#' the same value. The counting groups records by their categorical values and
#' searches sorted numeric values, never comparing all pairs.
#'
#' @param object A `synds` object, a data frame or a list of data frames (one per
#'   synthesis): partially synthetic data, each with the records of `data` in the same
#'   rows, the `keys` unchanged and the `syn.vars` replaced.
#' @param data The original data, a data frame.
#' @param keys Variables the intruder knows (names or column numbers of `data`),
#'   matched exactly, as the keys of [disclosure()]; `NULL` (or not given) for none.
#'   Formerly `known`.
#' @param syn.vars The synthesised variables the intruder matches on.
#' @param radius For the synthesised numeric variables (of `syn.vars`): `NULL`
#'   (they match exactly), one number for all of them, one number for each of them
#'   in the order of `syn.vars`, or a vector named by synthesised numeric variable
#'   (the others match exactly). Numbers `>= 0`. Naming a key or a variable that
#'   is not a synthesised numeric variable is an error.
#' @param relative If `TRUE` (default), the radius is relative to the size of the
#'   original value; if `FALSE`, absolute.
#' @param n_threads Threads for the Rust core; default [synthrisk_threads()].
#' @param known Deprecated: the former name of `keys`, still read (with a warning)
#'   so that old scripts run; giving both is an error.
#' @return An object of class `synthrisk_identification_risk`: `summary` (a data frame with
#'   `synthesis`, `exp.risk`, `true.rate`, `false.rate`, `s`; one row per synthesis,
#'   then a row `"mean"` of their means; `false.rate` of the mean row is `NA` when
#'   a synthesis has none), `records` (a data
#'   frame with `row`, `synthesis`, `c`, `T`, `K`, `F` per original record and
#'   synthesis), `keys`, `syn.vars`, `radius` (per synthesised numeric variable
#'   matched within a radius), `relative`, `N`, `m`.
#' @seealso [disclosure()] for fully synthetic data.
#' @export
#' @examples
#' # A partially synthetic SD2011: income and ls replaced by synthetic values.
#' part <- sd2011
#' part$income <- sd2011_synds$syn$income
#' part$ls <- sd2011_synds$syn$ls
#' ir <- identification_risk(part, sd2011, keys = c("sex", "age", "region"),
#'                           syn.vars = c("income", "ls"), radius = c(income = 0.1))
#' ir
#' head(ir$records)
#'
#' # UCI Adult: hours and capital gains synthesised, an intruder knowing age, sex, race;
#' # the radius applies to the two synthesised variables, age is matched exactly.
#' adult_part <- adult
#' synthesised <- c("hours.per.week", "capital.gain")
#' adult_part[synthesised] <- adult_synds$syn[synthesised]
#' identification_risk(adult_part, adult, keys = c("age", "sex", "race"),
#'                     syn.vars = c("hours.per.week", "capital.gain"), radius = 0.1)
identification_risk <- function(object, data, keys = NULL, syn.vars, radius = NULL, relative = TRUE, n_threads = NULL,
                                known = NULL) {
  env <- rlang::current_env()
  keys <- keys_or_known(keys, known, env)
  request <- search_request(object, data, n_threads = n_threads, fn = "identification_risk", call = env)
  syn <- request$syn
  # No keys (NULL) is Hu's measure on the synthesised variables alone; an empty vector
  # is a mistake, as everywhere.
  if (!is.null(keys) && length(keys) == 0) {
    cli::cli_abort(c("{.arg keys} must name at least one variable of {.arg data}, not {.code {describe_value(keys)}}.",
                     i = "For no keys (only {.arg syn.vars} matched), leave {.arg keys} out or give {.code NULL}."),
                   call = env)
  }
  if (!is.null(keys)) request <- search_columns(request, keys, "keys")
  keys <- request$columns$keys %||% character(0)
  if (missing(syn.vars) || is.null(syn.vars) || length(syn.vars) == 0) {
    cli::cli_abort("{.arg syn.vars} must name at least one synthesised variable of {.arg data}.", call = env)
  }
  request <- search_columns(request, syn.vars, "syn.vars")
  syn.vars <- request$columns$syn.vars
  both <- intersect(keys, syn.vars)
  if (length(both) > 0) {
    cli::cli_abort("{.val {both}} {?is/are} in both {.arg keys} and {.arg syn.vars}.", call = env)
  }
  vars <- c(keys, syn.vars)
  for (j in seq_along(syn)) {
    if (nrow(syn[[j]]) != nrow(data)) {
      which <- if (length(syn) > 1) paste("Synthesis", j) else "The synthetic data"
      cli::cli_abort(c("{which} has {format_count(nrow(syn[[j]]))} rows; partially synthetic data keep the {format_count(nrow(data))} rows of {.arg data}.",
                       i = "Row i of each synthesis must be the synthetic version of row i of {.arg data}."),
                     call = env)
    }
  }
  check_variable_columns(vars, data, syn, env)
  check_keys_unchanged(keys, data, syn, env)
  check_flag(relative, "relative", env)
  n_threads <- request$n_threads
  radius <- radius_per_variable(radius, keys, syn.vars, data, syn, env)

  # The one encoding, of values as they are (no cont.na): labels of the variables matched
  # exactly, and the values of those matched within a radius, kept beside their codes.
  exact <- setdiff(vars, names(radius))
  enc <- search_encode(request, vars, cont.na = FALSE)$enc
  raw <- rust_result(rust_identification(enc$ptr, match(exact, vars) - 1L, match(names(radius), vars) - 1L,
                                         unname(as.double(radius)), rep(relative, length(radius)), n_threads),
                     call = env)
  new_identification_risk(raw, keys, syn.vars, radius, relative, nrow(data))
}

# `keys`, or `known`, its former name, read with a deprecation warning for old scripts.
keys_or_known <- function(keys, known, call) {
  if (is.null(known)) return(keys)
  if (!is.null(keys)) {
    cli::cli_abort(c("Give {.arg keys} only; {.arg known} is its former name.",
                     x = "Both were given."), call = call)
  }
  cli::cli_warn(c("{.arg known} of {.fn identification_risk} is deprecated; it is now {.arg keys}.",
                  i = "Write {.code keys = {describe_value(known)}}."), call = call)
  known
}

# Values of one variable in two datasets, row by row: TRUE where they are the same
# label (factors by their labels), a missing value equal to a missing value and NaN
# only to NaN.
same_values <- function(a, b) {
  # Factors of the same levels compare by their codes, without making labels.
  if (is.factor(a) && is.factor(b) && identical(levels(a), levels(b)) && !"Missing" %in% levels(a)) {
    a <- unclass(a)
    b <- unclass(b)
    attributes(a) <- NULL
    attributes(b) <- NULL
  }
  # Labels as the encoding sees them (definitions vignette 2): UTF-8 in normal form C,
  # and "Missing" the missing label.
  as_label <- function(x) {
    if (inherits(x, "POSIXlt")) x <- as.POSIXct(x)
    if (is.factor(x)) x <- as.character(x)
    if (!is.character(x)) return(x)
    x <- clean_labels(x, "", NULL)
    x[x %in% "Missing"] <- NA
    x
  }
  a <- as_label(a)
  b <- as_label(b)
  na_a <- is.na(a)
  na_b <- is.na(b)
  same <- !na_a & !na_b
  same[same] <- a[same] == b[same]
  both_na <- na_a & na_b
  same[both_na] <- if (is.double(a) && is.double(b)) is.nan(a[both_na]) == is.nan(b[both_na]) else TRUE
  same
}

# Partially synthetic data are the original records with only `syn.vars` replaced: each
# known variable of each synthesis must be that of `data`, row by row (Hu). Anything
# else, such as fully synthetic data, would give matches that mean nothing.
check_keys_unchanged <- function(keys, data, syn, call) {
  if (length(keys) == 0) return(invisible())
  n <- nrow(data)
  problems <- character(0)
  for (j in seq_along(syn)) {
    for (v in keys) {
      differs <- which(!same_values(.subset2(data, v), .subset2(syn[[j]], v)))
      if (length(differs) == 0) next
      where <- if (length(syn) > 1) paste0("Synthesis ", j, ": key") else "Key"
      first <- if (length(differs) == 1) paste0("row ", differs) else paste0("first at row ", differs[1])
      problems <- c(problems, sprintf("%s variable \"%s\" differs in %s of %s rows (%s).",
                                      where, v, format_count(length(differs)), format_count(n), first))
    }
  }
  if (length(problems) == 0) return(invisible())
  shown <- utils::head(problems, 5)
  if (length(problems) > 5) shown <- c(shown, sprintf("... and %d more.", length(problems) - 5))
  cli::cli_abort(c("{.fn identification_risk} needs partially synthetic data: the same records in the same rows, with the {.arg keys} unchanged and only {.arg syn.vars} replaced.",
                   stats::setNames(vapply(shown, escape_braces, character(1), USE.NAMES = FALSE), rep("x", length(shown))),
                   i = "Fully synthetic data (new records) are assessed with {.fn disclosure}; here {.arg object} must be {.arg data} with the synthesised variables replaced."),
                 call = call)
}

# The radius of each synthesised numeric variable matched within one: a named double
# vector (empty when every variable matches exactly). Known variables always match
# exactly (Hu): they are unchanged, so a radius would only blur the intruder's key.
radius_per_variable <- function(radius, keys, syn.vars, data, syn, call) {
  is_plain_number <- function(x) (is.double(x) || is.integer(x)) && is.null(attr(x, "class"))
  numeric_syn <- syn.vars[vapply(syn.vars, function(v) {
    all(vapply(c(list(data), syn), function(d) is_plain_number(.subset2(d, v)), logical(1)))
  }, logical(1))]
  if (is.null(radius)) return(stats::setNames(numeric(0), character(0)))
  if (!is.numeric(radius) || length(radius) == 0 || anyNA(radius) || any(!is.finite(radius)) || any(radius < 0)) {
    cli::cli_abort("{.arg radius} must be numbers >= 0 (or {.code NULL}), not {.code {describe_value(radius)}}.",
                   call = call)
  }
  which_numeric <- if (length(numeric_syn)) "The synthesised numeric variable{?s} {?is/are} {.val {numeric_syn}}." else
    "No synthesised variable is numeric on every side."
  nm <- names(radius)
  if (is.null(nm)) {
    if (length(numeric_syn) == 0) {
      cli::cli_abort(c(if (length(syn.vars) == 1) "{.arg radius} is {.code {describe_value(radius)}}, but the synthesised variable {.val {syn.vars}} is not numeric on every side." else
                         "{.arg radius} is {.code {describe_value(radius)}}, but none of the synthesised variables {.val {syn.vars}} is numeric on every side.",
                       i = "A radius applies to synthesised numeric variables; keys match exactly."),
                     call = call)
    }
    if (length(radius) != 1 && length(radius) != length(numeric_syn)) {
      cli::cli_abort(c(if (length(numeric_syn) == 1) "{.arg radius} must be one number, for the synthesised numeric variable {.val {numeric_syn}}, or named by it." else
                         "{.arg radius} must be one number for all {length(numeric_syn)} synthesised numeric variables {.val {numeric_syn}}, one for each of them, or named by variable.",
                       x = "It is {.code {describe_value(radius)}} (length {length(radius)})."), call = call)
    }
    return(stats::setNames(rep_len(as.double(radius), length(numeric_syn)), numeric_syn))
  }
  if (anyNA(nm) || any(!nzchar(nm))) {
    cli::cli_abort("{.arg radius} must be named for every number or for none, not {.code {describe_value(radius)}}.",
                   call = call)
  }
  if (anyDuplicated(nm)) {
    cli::cli_abort("{.arg radius} names {.val {unique(nm[duplicated(nm)])}} more than once.", call = call)
  }
  in_keys <- intersect(nm, keys)
  if (length(in_keys) > 0) {
    cli::cli_abort(c("{.arg radius} names {.val {in_keys}}, a key: keys match exactly.",
                     i = "A radius applies to synthesised numeric variables.", i = which_numeric),
                   call = call)
  }
  bad <- setdiff(nm, numeric_syn)
  if (length(bad) > 0) {
    cli::cli_abort(c("{.arg radius} names {.val {bad}}, not a synthesised numeric variable.",
                     did_you_mean(bad, numeric_syn),
                     i = which_numeric),
                   call = call)
  }
  stats::setNames(as.double(radius), nm)
}

new_identification_risk <- function(raw, keys, syn.vars, radius, relative, n) {
  m <- length(raw)
  records <- do.call(rbind, lapply(seq_len(m), function(j) {
    c_i <- raw[[j]]$c
    t_i <- raw[[j]]$t
    data.frame(row = seq_len(n), synthesis = j, c = c_i, T = t_i, K = c_i == 1L & t_i, F = c_i == 1L & !t_i)
  }))
  per_synthesis <- do.call(rbind, lapply(split(records, records$synthesis), function(r) {
    s <- sum(r$c == 1L)
    data.frame(synthesis = as.character(r$synthesis[1]),
               exp.risk = sum(ifelse(r$T, 1 / r$c, 0)),
               true.rate = sum(r$K) / n,
               false.rate = if (s == 0) NA_real_ else sum(r$F) / s,
               s = s)
  }))
  means <- data.frame(synthesis = "mean", exp.risk = mean(per_synthesis$exp.risk),
                      true.rate = mean(per_synthesis$true.rate), false.rate = mean(per_synthesis$false.rate),
                      s = mean(per_synthesis$s))
  per_synthesis <- rbind(per_synthesis, means)
  rownames(per_synthesis) <- NULL
  structure(list(summary = per_synthesis, records = records, keys = keys, syn.vars = syn.vars, radius = radius,
                 relative = relative, N = n, m = m),
            class = "synthrisk_identification_risk")
}

#' Print an identification risk
#'
#' Writes the summary, the variables matched and how, to standard output.
#'
#' @param x An `identification_risk` object.
#' @param digits Digits for the rates.
#' @param ... Unused.
#' @return `print()`: `x`, invisibly; `format()`: the lines.
#' @export
#' @examples
#' part <- sd2011
#' part$income <- sd2011_synds$syn$income
#' ir <- identification_risk(part, sd2011, c("sex", "age"), "income", radius = 0.05)
#' print(ir, digits = 3)
print.synthrisk_identification_risk <- function(x, digits = 4, ...) {
  cat(format(x, digits = digits, ...), sep = "\n")
  invisible(x)
}

#' @rdname print.synthrisk_identification_risk
#' @export
format.synthrisk_identification_risk <- function(x, digits = 4, ...) {
  cli::cli_format_method({
    cli::cli_h1("Identification risk of partially synthetic data")
    cli::cli_text("{format_count(x$N)}{cli::qty(x$N)} original record{?s}; {cli::qty(x$m)}{x$m} synthes{?is/es}.")
    cli::cli_text("Keys (known to the intruder): {if (length(x$keys)) cli::format_inline('{.val {x$keys}}') else 'none'}; synthesised: {.val {x$syn.vars}}.")
    if (length(x$radius) > 0) {
      how <- if (x$relative) "relative radius (|x_syn - x| <= r * |x|)" else "absolute radius (|x_syn - x| <= r)"
      cli::cli_text("Keys matched exactly; synthesised variables within a {how}: {paste0(names(x$radius), ' r = ', format(x$radius), collapse = ', ')}{if (length(x$radius) < length(x$syn.vars)) '; the other synthesised variables exactly' else ''}.")
    } else {
      cli::cli_text("Every variable matched exactly.")
    }
    tab <- x$summary
    num <- vapply(tab, is.numeric, logical(1))
    tab[num] <- lapply(tab[num], round, digits = digits)
    cli_table(tab, row.names = FALSE)
    cli::cli_text("exp.risk: expected number of records matched to their own row (sum of T/c); true.rate: share of records with one match, their own; false.rate: share of single matches that are not their own (of s).")
  })
}

#' Plot an identification risk
#'
#' The true and false match rates of each synthesis (and their mean), as points.
#'
#' @param object An `identification_risk` object.
#' @param ... Unused.
#' @return A ggplot.
#' @export
#' @examples
#' part <- sd2011
#' part$income <- sd2011_synds5$syn[[1]]$income
#' ir <- identification_risk(list(part, sd2011), sd2011, c("sex", "age"), "income")
#' autoplot(ir)
autoplot.synthrisk_identification_risk <- function(object, ...) {
  tab <- object$summary
  long <- data.frame(synthesis = rep(tab$synthesis, 2),
                     rate = rep(c("true match rate", "false match rate"), each = nrow(tab)),
                     value = 100 * c(tab$true.rate, tab$false.rate))
  long$synthesis <- factor(long$synthesis, levels = rev(tab$synthesis))
  long$rate <- factor(long$rate, levels = c("true match rate", "false match rate"))
  ggplot2::ggplot(long, ggplot2::aes(x = .data$value, y = .data$synthesis, colour = .data$rate, shape = .data$rate)) +
    ggplot2::geom_point(size = 3, na.rm = TRUE) +
    ggplot2::scale_colour_manual(values = c("true match rate" = "#D55E00", "false match rate" = "#0072B2"), name = NULL) +
    ggplot2::scale_shape_manual(values = c("true match rate" = 16, "false match rate" = 1), name = NULL) +
    ggplot2::scale_x_continuous(limits = c(0, NA), expand = ggplot2::expansion(mult = c(0.02, 0.08))) +
    ggplot2::labs(title = "Identification risk", x = "% of records (true) or of single matches (false)",
                  y = "Synthesis",
                  subtitle = wrap_subtitle(paste0("Keys (known to the intruder): ", if (length(object$keys)) paste(object$keys, collapse = ", ") else "none",
                                                  "; synthesised: ", paste(object$syn.vars, collapse = ", ")))) +
    plot_theme("bottom")
}
