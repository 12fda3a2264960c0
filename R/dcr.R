#' Distance to closest record, nearest-neighbour distance ratio and identical matches
#'
#' The distance-based privacy measures that tools outside the synthpop family report
#' (SDMetrics, mostlyai-qa, riskutility, anonymeter's linkability), computed exactly
#' under one Gower distance (definitions vignette, section 11) by a Rust search that
#' never forms the matrix of all pairs.
#'
#' **The distance.** For two records, each variable contributes 0 or 1 when it is
#' categorical (equal labels or not; `NA`, an `NA` level and `"Missing"` are one label,
#' `NaN` is the label `"NaN"`) and \eqn{\min(1, |x - y| / R_v)} when it is numeric on
#' every side, with \eqn{R_v} the range of its finite values in `data` (0 if equal, else
#' 1, when \eqn{R_v = 0}); `NA`, `NaN`, `Inf`, `-Inf` and the `cont.na` codes of a
#' numeric variable are labels (0 against the same label, else 1). The distance is the
#' sum of the contributions in the column order of `data` (weighted by `weights`)
#' divided by the number of variables (or the sum of the weights). Ties are resolved
#' by the smallest row of `data`. The results are the same for any number of threads.
#'
#' **What to look for.**
#' * `IMS`, identical matches: the percentage of synthetic records that copy an
#'   original record on every variable (distance 0). Compare it with `IMS_ctrl`, the
#'   same against records that were not used for the synthesis (`control`): copies of
#'   training records beyond those of new records are leaks.
#' * `dcr_q05`, `dcr_q50`: quantiles of each synthetic record's distance to its
#'   closest original. Read them against `base_q05`, `base_q50`, the distances from new
#'   real records (`control`) to the training data: synthetic records much closer to
#'   the training data than new real people are suspect; `dcr_ctrl_*` are the synthetic
#'   records' distances to the control records.
#' * `share`: the percentage of synthetic records closer to a training record than to
#'   any control record (ties count one half); without leakage it is near
#'   `share_noleak` = 100 Nd / (Nd + Nc).
#' * `nndr_q05`: the 5 % quantile of the ratio of the nearest to the second-nearest
#'   distance; values near 0 mean synthetic records that single out one original.
#' * `copied`: the percentage of original records that some synthetic record copies;
#'   `AUC`: a membership attack that guesses "used for synthesis" for original records
#'   closer to the synthetic data; 0.5 means no signal, above 0.5 training records sit
#'   closer to the synthetic data than new records do.
#'
#' Variables are prepared and encoded as [disclosure()] prepares and encodes them
#' (definitions vignette, sections 1 and 2): a variable that is a factor (or
#' character, logical, date) on some side is compared by its labels on every side, and
#' labels are compared in Unicode normal form C, so that "ó" typed as one character
#' and as "o" with a combining accent is one label.
#'
#' @param object A `synds` object, a data frame or a list of data frames (one per
#'   synthesis).
#' @param data The original data used for the synthesis, a data frame.
#' @param control `NULL`, or original records of the same population that were not
#'   used for the synthesis (a data frame with the variables of `data`), for example
#'   from [holdout_split()]. The measures that need it are `NA` without it.
#' @param vars The variables compared (names or column numbers of `data`); default:
#'   every variable of `data` that every synthesis has. They are used in the column
#'   order of `data`.
#' @param weights `NULL` (every variable weighs 1), one weight per variable of `vars`
#'   (in the order given), or weights named by variable (the others weigh 1). Numbers
#'   `>= 0` adding up to more than 0.
#' @param cont.na For data frames: special codes of numeric variables, a named list
#'   such as `list(income = c(-8, -9))`; a `synds` object brings its own.
#' @param ... Must be empty.
#' @param n_threads Threads for the Rust core; default [synthrisk_threads()].
#' @return An object of class `synthrisk_dcr`, a list with
#'   * `summary`: one row per synthesis: `synthesis, IMS, IMS_ctrl, dcr_q05, dcr_q50,
#'     dcr_ctrl_q05, dcr_ctrl_q50, base_q05, base_q50, nndr_q05, share, share_noleak,
#'     copied, AUC` (percentages for IMS, IMS_ctrl, share, share_noleak, copied;
#'     quantiles of type 7);
#'   * `synthetic`: per synthetic record: `synthesis, row, dcr, nn` (the row of `data`
#'     of the nearest original), `d2` (the second smallest distance), `nndr`
#'     (`dcr / d2`, 1 when both are 0, `NA` for a one-record `data`), `dcr_ctrl`;
#'   * `original`: per original (`set = "train"`) and control (`set = "control"`)
#'     record and synthesis: `set, synthesis, row, r` (the distance to the closest
#'     synthetic record), `copied` (whether `r` is 0);
#'   * `vars`, `numeric` (which variables are compared as numbers), `weights`,
#'     `ranges` (\eqn{R_v} of numeric variables), `adjusted` (variables compared by
#'     label because they are not numeric on every side), `label_gaps` (categorical
#'     variables whose labels barely meet between `data` and a synthesis, as
#'     [disclosure()] reports them; printed), `n` (`data`, `control`, synthetic
#'     records per synthesis).
#' @seealso [disclosure()] for the synthpop measures, [holdout_split()] for control
#'   records.
#' @export
#' @examples
#' # sd2011_train_synds5 was made from parts$train only: parts$control is held out.
#' vars <- c("sex", "age", "region", "income", "ls")
#' parts <- holdout_split(sd2011[, vars], prop = 0.2, seed = 1)
#' syn <- sd2011_train_synds5$syn[[1]][, vars]
#' d <- dcr(syn, parts$train, control = parts$control, cont.na = list(income = -8))
#' d
#' head(d$synthetic)
#' autoplot(d)
dcr <- function(object, data, control = NULL, vars = NULL, weights = NULL, cont.na = NULL, ...,
                n_threads = NULL) {
  env <- rlang::current_env()
  rlang::check_dots_empty(call = env)
  request <- search_request(object, data, control = control, cont.na = cont.na, n_threads = n_threads, fn = "dcr",
                            call = env)
  given <- !is.null(vars)
  if (given) {
    vars <- search_columns(request, vars, "vars")$columns$vars
  } else {
    vars <- search_common_columns(request)
    if (length(vars) == 0) cli::cli_abort("{.arg data} and the synthetic data have no variable in common.", call = env)
  }
  weights <- dcr_weights(weights, vars, given, env)
  ordered <- vars[order(match(vars, names(data)))]
  weights <- unname(weights[match(ordered, vars)])
  # The one encoding: labels cleaned and coded on their union as for the key counting,
  # numeric values kept beside the codes; the core builds its search tables from it.
  request <- search_encode(request, ordered)
  vars <- request$vars
  enc <- request$enc
  m <- request$m
  control_table <- if (is.null(control)) NA_integer_ else m + 1L
  # The searches, grouped by the dataset indexed (its index is dropped after its last
  # search): data for the syntheses (with d2) and control, control for the syntheses,
  # each synthesis for data and control; `indexed` the dataset searched, `queries` the
  # dataset whose records are looked up, datasets 0-based.
  searches <- list()
  tags <- character(0)
  add <- function(tag, indexed, queries, second) {
    searches[[length(searches) + 1L]] <<- list(indexed = as.integer(indexed), queries = as.integer(queries),
                                               second = second)
    tags[[length(tags) + 1L]] <<- tag
  }
  for (j in seq_len(m)) add("train", 0L, j, TRUE)
  if (!is.null(control)) {
    add("base", 0L, control_table, FALSE)
    for (j in seq_len(m)) add("ctrl", control_table, j, FALSE)
  }
  for (j in seq_len(m)) {
    add("r", j, 0L, FALSE)
    if (!is.null(control)) add("r_ctrl", j, control_table, FALSE)
  }
  raw <- rust_result(rust_dcr(enc$ptr, search_column_set(request, vars), as.double(weights), searches,
                              request$n_threads), call = env)
  found_all <- raw$searches
  found <- list(train = found_all[tags == "train"], r = found_all[tags == "r"])
  if (!is.null(control)) {
    found$base <- found_all[tags == "base"][[1]]
    found$ctrl <- found_all[tags == "ctrl"]
    found$r_ctrl <- found_all[tags == "r_ctrl"]
  }
  numeric <- raw$numeric
  label_gaps <- enc$label_gaps[intersect(vars[!numeric], names(enc$label_gaps))]
  new_dcr(found, vars, numeric, weights, raw$ranges, enc$adjusted, request$n$data, request$n$control,
          request$n$synthetic, label_gaps)
}

# One weight per variable of `vars` (in the order of `vars`).
dcr_weights <- function(weights, vars, given, call) {
  if (is.null(weights)) return(stats::setNames(rep(1, length(vars)), vars))
  if (!is.numeric(weights) || length(weights) == 0 || anyNA(weights) || any(!is.finite(weights)) || any(weights < 0)) {
    cli::cli_abort("{.arg weights} must be finite numbers >= 0, not {.code {describe_value(weights)}}.", call = call)
  }
  nm <- names(weights)
  if (is.null(nm)) {
    if (length(weights) != length(vars)) {
      cli::cli_abort(c("{.arg weights} has {length(weights)} number{?s} for {length(vars)} variable{?s}.",
                       i = if (given) "Give one weight per variable of {.arg vars}, or name them by variable." else
                         "Without {.arg vars}, the variables are {.val {vars}}; give one weight each, or name them."),
                     call = call)
    }
    out <- stats::setNames(as.double(weights), vars)
  } else {
    bad <- setdiff(nm, vars)
    if (length(bad) > 0 || anyDuplicated(nm) || any(!nzchar(nm))) {
      what <- if (length(bad) > 0) bad else nm[duplicated(nm) | !nzchar(nm)]
      cli::cli_abort(c("{.arg weights} names {.val {what}}, not {if (length(bad)) 'a variable compared' else 'each variable once'}.",
                       did_you_mean(bad, vars),
                       i = "The variables compared are {.val {vars}}."), call = call)
    }
    out <- stats::setNames(rep(1, length(vars)), vars)
    out[nm] <- as.double(weights)
  }
  if (!(sum(out) > 0)) {
    cli::cli_abort("{.arg weights} must not all be 0.", call = call)
  }
  out
}

# Type-7 quantile, NA for no values.
dcr_quantile <- function(x, prob) {
  x <- x[!is.na(x)]
  if (length(x) == 0) NA_real_ else unname(stats::quantile(x, prob, type = 7, names = FALSE))
}

# P(a < b) + P(a = b) / 2 over all pairs, counted exactly on the sorted values of b.
dcr_auc <- function(a, b) {
  sorted <- sort(b)
  at_most <- findInterval(a, sorted)
  below <- findInterval(a, sorted, left.open = TRUE)
  greater <- length(b) - at_most
  equal <- at_most - below
  (sum(as.double(greater)) + sum(as.double(equal)) / 2) / (as.double(length(a)) * length(b))
}

new_dcr <- function(found, vars, numeric, weights, ranges, adjusted, n_data, n_control, n_syn, label_gaps = list()) {
  m <- length(n_syn)
  with_control <- n_control > 0
  synthetic <- vector("list", m)
  original <- vector("list", m)
  summary <- vector("list", m)
  for (j in seq_len(m)) {
    t <- found$train[[j]]
    d1 <- t$distance
    d2 <- t$second
    if (n_data == 1) d2 <- rep(NA_real_, length(d1))
    nndr <- ifelse(d1 == 0 & d2 == 0, 1, d1 / d2)
    dcr_ctrl <- if (with_control) found$ctrl[[j]]$distance else rep(NA_real_, length(d1))
    synthetic[[j]] <- data.frame(synthesis = j, row = seq_along(d1), dcr = d1, nn = t$row, d2 = d2,
                                 nndr = nndr, dcr_ctrl = dcr_ctrl)
    r <- found$r[[j]]$distance
    r_ctrl <- if (with_control) found$r_ctrl[[j]]$distance else numeric(0)
    original[[j]] <- data.frame(set = rep(c("train", "control"), c(length(r), length(r_ctrl))), synthesis = j,
                                row = c(seq_along(r), seq_along(r_ctrl)), r = c(r, r_ctrl),
                                copied = c(r, r_ctrl) == 0)
    base <- if (with_control) found$base$distance else numeric(0)
    closer <- ifelse(d1 < dcr_ctrl, 1, ifelse(d1 == dcr_ctrl, 0.5, 0))
    summary[[j]] <- data.frame(
      synthesis = j,
      IMS = 100 * mean(d1 == 0),
      IMS_ctrl = if (with_control) 100 * mean(dcr_ctrl == 0) else NA_real_,
      dcr_q05 = dcr_quantile(d1, 0.05), dcr_q50 = dcr_quantile(d1, 0.5),
      dcr_ctrl_q05 = dcr_quantile(dcr_ctrl, 0.05), dcr_ctrl_q50 = dcr_quantile(dcr_ctrl, 0.5),
      base_q05 = dcr_quantile(base, 0.05), base_q50 = dcr_quantile(base, 0.5),
      nndr_q05 = dcr_quantile(nndr, 0.05),
      share = if (with_control) 100 * mean(closer) else NA_real_,
      share_noleak = if (with_control) 100 * n_data / (n_data + n_control) else NA_real_,
      copied = 100 * mean(r == 0),
      AUC = if (with_control) dcr_auc(r, r_ctrl) else NA_real_
    )
  }
  structure(list(summary = do.call(rbind, summary), synthetic = do.call(rbind, synthetic),
                 original = do.call(rbind, original),
                 base = if (with_control) found$base$distance else NULL,
                 vars = vars, numeric = stats::setNames(numeric, vars), weights = stats::setNames(weights, vars),
                 ranges = stats::setNames(ifelse(numeric, ranges, NA_real_), vars), adjusted = adjusted,
                 label_gaps = label_gaps, n = list(data = n_data, control = n_control, synthetic = n_syn)),
            class = "synthrisk_dcr")
}

#' Print distances to the closest record
#'
#' Writes the summary per synthesis, what was compared and how, and what to look for,
#' to standard output.
#'
#' @param x A `dcr` object from [dcr()].
#' @param digits Significant digits of the distances and percentages.
#' @param ... Unused.
#' @return `print()`: `x`, invisibly; `format()`: the lines.
#' @export
#' @examples
#' d <- dcr(sd2011_synds$syn[, c("sex", "age", "income")], sd2011[, c("sex", "age", "income")],
#'          cont.na = list(income = -8))
#' print(d, digits = 3)
print.synthrisk_dcr <- function(x, digits = 4, ...) {
  cat(format(x, digits = digits, ...), sep = "\n")
  invisible(x)
}

#' @rdname print.synthrisk_dcr
#' @export
format.synthrisk_dcr <- function(x, digits = 4, ...) {
  n <- x$n
  m <- length(n$synthetic)
  with_control <- n$control > 0
  cli::cli_format_method({
    cli::cli_h1("Distance to closest record (Gower distance)")
    plural <- function(k, word) paste0(format_count(k), " ", word, if (k == 1) "" else "s")
    sizes <- if (m == 1) plural(n$synthetic, "record") else paste(paste(format_count(n$synthetic), collapse = ", "), "records")
    cli::cli_text("{m} synthes{?is/es} of {sizes}; {plural(n$data, 'original record')} (train){if (with_control) paste0('; ', plural(n$control, 'control record')) else ''}.")
    num <- x$vars[x$numeric]
    cat_vars <- x$vars[!x$numeric]
    cli::cli_text("{length(x$vars)} variable{?s}: numeric {if (length(num)) paste(num, collapse = ', ') else 'none'}; categorical {if (length(cat_vars)) paste(cat_vars, collapse = ', ') else 'none'}.")
    if (any(x$weights != 1)) {
      cli::cli_text("Weights: {paste0(names(x$weights), ' = ', format(x$weights), collapse = ', ')}.")
    }
    if (length(x$adjusted) > 0) {
      cli::cli_text("Compared by label, not numeric on every side: {paste(x$adjusted, collapse = ', ')}.")
    }
    tab <- x$summary
    val <- vapply(tab, is.double, logical(1))
    tab[val] <- lapply(tab[val], signif, digits = digits)
    cli_table(tab, row.names = FALSE)
    cli::cli_text("IMS: % of synthetic records identical to an original one (IMS_ctrl: to a control record). dcr: distance of each synthetic record to its closest original; base: of each control record to the training data; nndr: nearest / second-nearest distance; share: % of synthetic records closer to train than to control (no leak: share_noleak); copied: % of originals that a synthetic record copies; AUC: membership attack by distance (0.5 = no signal).")
    if (!with_control) {
      cli::cli_text("Without {.arg control}, the measures that need records kept out of the synthesis are NA.")
    } else {
      cli::cli_text("Look for IMS above IMS_ctrl, dcr quantiles below base, share above share_noleak, AUC above 0.5: signs that the synthesis holds its training records more closely than new ones.")
    }
    if (n$data == 1) cli::cli_text("{.arg data} has one record: nndr is NA.")
    for (line in label_gap_lines(x$label_gaps %||% list(), m)) cli::cli_text(escape_braces(line))
  })
}

#' Tidy and glance at distances to the closest record
#'
#' `tidy()` gives the summary as one row per synthesis and measure; `glance()` one row
#' with the sizes and the means over syntheses of IMS, share and AUC.
#'
#' @param x A `dcr` object from [dcr()].
#' @param ... Unused.
#' @return A data frame.
#' @export
#' @examples
#' d <- dcr(sd2011_synds5$syn[1:2], sd2011, vars = c("sex", "age", "placesize", "region"))
#' tidy(d)
#' glance(d)
tidy.synthrisk_dcr <- function(x, ...) {
  tab <- x$summary
  measures <- setdiff(names(tab), "synthesis")
  data.frame(synthesis = rep(tab$synthesis, each = length(measures)),
             measure = rep(measures, nrow(tab)),
             value = as.vector(t(as.matrix(tab[measures]))))
}

#' @rdname tidy.synthrisk_dcr
#' @export
glance.synthrisk_dcr <- function(x, ...) {
  tab <- x$summary
  data.frame(m = nrow(tab), n_original = x$n$data, n_control = x$n$control, n_vars = length(x$vars),
             IMS = mean(tab$IMS), share = mean(tab$share), share_noleak = tab$share_noleak[1],
             AUC = mean(tab$AUC))
}

#' Plot distances to the closest record
#'
#' Left: per synthesis, the distributions (empirical cumulative distribution functions)
#' of the synthetic records' distances to the training data (`dcr`), to the control
#' records (`dcr_ctrl`), and of the control records' distances to the training data
#' (`base`), on one scale: a `dcr` curve above and left of the others means synthetic
#' records closer to the training records than new real records are. Right: the
#' membership attack's two distributions, each original record's distance to the
#' synthetic data for training and control records; the further apart, the more the
#' synthesis reveals who was in the training data.
#'
#' @param object A `dcr` object from [dcr()].
#' @param ... Unused.
#' @return A ggplot.
#' @export
#' @examples
#' vars <- c("sex", "age", "placesize", "region")
#' parts <- holdout_split(sd2011[, vars], prop = 0.2, seed = 1)
#' d <- dcr(sd2011_train_synds5$syn[[1]][, vars], parts$train, control = parts$control)
#' autoplot(d)
autoplot.synthrisk_dcr <- function(object, ...) {
  syn <- object$synthetic
  orig <- object$original
  # One colour per series, each named by what it measures, from what to what.
  series <- c(dcr = "dcr: synthetic to train",
              dcr_ctrl = "dcr_ctrl: synthetic to control",
              base = "base: control to train",
              r_train = "r: train to synthetic",
              r_control = "r: control to synthetic")
  colours <- stats::setNames(okabe_ito[c(2, 1, 3, 4, 5)], series)
  frames <- list(data.frame(panel = "Synthetic records", synthesis = syn$synthesis, what = series[["dcr"]],
                            distance = syn$dcr))
  if (object$n$control > 0) {
    m <- length(object$n$synthetic)
    frames <- c(frames, list(
      data.frame(panel = "Synthetic records", synthesis = syn$synthesis, what = series[["dcr_ctrl"]],
                 distance = syn$dcr_ctrl),
      data.frame(panel = "Synthetic records", synthesis = rep(seq_len(m), each = length(object$base)),
                 what = series[["base"]], distance = rep(object$base, m))))
  }
  frames <- c(frames, list(data.frame(panel = "Membership: originals to synthetic", synthesis = orig$synthesis,
                                      what = series[paste0("r_", orig$set)], distance = orig$r)))
  long <- do.call(rbind, frames)
  long$panel <- factor(long$panel, levels = c("Synthetic records", "Membership: originals to synthetic"))
  long$synthesis <- paste("Synthesis", long$synthesis)
  long$what <- factor(long$what, levels = series)
  caption <- paste("Each curve: distances from the records of the first set to their closest in the second.",
                   "r: an original record's distance to the synthetic data;",
                   if (object$n$control > 0) "train r below control r reveals membership." else
                     "membership needs control records.")
  p <- ggplot2::ggplot(long, ggplot2::aes(x = .data$distance, colour = .data$what)) +
    ggplot2::stat_ecdf(geom = "step", na.rm = TRUE) +
    ggplot2::scale_colour_manual(values = colours, name = NULL, drop = TRUE,
                                 guide = ggplot2::guide_legend(ncol = 2, byrow = FALSE)) +
    ggplot2::labs(title = "Distance to closest record", x = "Gower distance", y = "Share at or below",
                  subtitle = wrap_subtitle(paste0("Variables: ", paste(object$vars, collapse = ", "))),
                  caption = wrap_subtitle(caption, width = 80)) +
    plot_theme("bottom") +
    ggplot2::theme(legend.justification = "center", legend.text = ggplot2::element_text(size = 8.5),
                   legend.key.height = grid::unit(10, "pt"),
                   plot.caption = ggplot2::element_text(hjust = 0, colour = "grey25", size = 8.5),
                   plot.caption.position = "plot")
  if (length(object$n$synthetic) > 1) {
    p + ggplot2::facet_grid(synthesis ~ panel)
  } else {
    p + ggplot2::facet_wrap(~panel)
  }
}
