#' Disclosure measures for random subsamples of the synthetic data
#'
#' How the measures change with the size of the synthetic data (the synthpop
#' disclosure vignette's Figure 2): each synthesis is subsampled without replacement to
#' each size, `reps` times, and the measures are computed for every subsample against
#' the whole original data. The numerators (C, the expected correct attributions, and K,
#' the original records predicted with certainty and correctly) count original records,
#' so measures over the original records (`DiSCO`, `DCAPd`) grow with the size of the
#' synthetic data, while the same numerators over synthetic records (`DCAPs`, `TCAPs`,
#' `DCAPb`, `TCAPb`) can exceed 100 % for small subsamples; the curves show how much
#' each measure depends on the size.
#'
#' The subsamples are drawn in R with [sample.int()], synthesis by synthesis, then size
#' by size, then repeat by repeat; with `seed` they are the same in every run (under the
#' same [RNGkind()]) and the session's random numbers are left as they were. A size equal
#' to the rows of a synthesis is the whole synthesis (its rows equal the measures of
#' [multi.disclosure()]); larger sizes are capped at its rows (the result says so). All
#' subsamples go to the core in one call, which encodes the keys once. Numeric variables
#' grouped with `ngroups_targets` / `ngroups_keys` are cut at the breaks of the whole
#' data and syntheses, the same for every subsample.
#'
#' @inheritParams tau_curve
#' @param sizes Subsample sizes (records); default 20 sizes from 5 % to 100 % of
#'   `nrow(data)`. Each is capped at the rows of each synthesis.
#' @param reps Subsamples per synthesis and size.
#' @param seed `NULL` (use the session's random numbers) or a whole number.
#' @param measures Measures to keep (names as in [tidy.disclosure()]).
#' @param ... Other arguments of [multi.disclosure()], as for [tau_curve()].
#' @return A data frame of class `c("synthrisk_size_curve", "data.frame")` with one row per target, synthesis, size,
#'   repeat and measure: `target`, `synthesis`, `size`, `rep`, `measure`, `value` (in
#'   %). `summary()` gives the mean, standard deviation, minimum and maximum over
#'   syntheses and repeats per target, size and measure; [autoplot()][autoplot.synthrisk_size_curve]
#'   draws the means.
#' @seealso [tau_curve()], [multi.disclosure()]
#' @export
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' sc <- size_curve(sd2011_synds5, sd2011, keys = keys, targets = "depress", reps = 3, seed = 1)
#' sc
#' summary(sc)
#' autoplot(sc)
size_curve <- function(object, data, keys, targets = NULL, sizes = NULL, reps = 10, seed = NULL,
                       measures = size_curve_measures, ...) {
  env <- rlang::current_env()
  asked <- intersect(c("conf.level", "resynthesize", "synthesizer"), names(list(...)))
  if (length(asked) > 0) {
    cli::cli_abort(c("{.arg {asked}} {?is/are} not used by {.fn size_curve}: its spread is over {.arg reps} subsamples.",
                     i = "{.code summary()} of the curve gives the spread of each size."), call = env)
  }
  refuse_counted(object, "object", "size_curve", env)
  refuse_counted(data, "data", "size_curve", env)
  if (!is.null(sizes)) sizes <- check_sizes(sizes, env)
  reps <- check_count(reps, "reps", env)
  seed <- check_seed(seed, env)
  measures <- unique(check_choices(measures, curve_measures(), "measures", env))
  if (missing(keys)) keys <- NULL
  draws <- NULL
  plan_of <- function(syn) {
    wanted <- sizes %||% default_sizes(nrow(data))
    draws <<- subsample_plan(vapply(syn, nrow, integer(1)), wanted, reps, seed)
    draws$plan
  }
  res <- run_curve(object, data, keys, targets, list(...), plan_of, env)
  build_size_curve(res, draws, measures, reps, seed)
}

# Measures a size curve can show: the percentages of the registry.
curve_measures <- function() {
  reg <- measure_registry[!duplicated(measure_registry$measure), ]
  reg$measure[reg$unit == "%"]
}

default_sizes <- function(n) {
  unique(pmax(1L, as.integer(round(seq(0.05, 1, length.out = 20) * n))))
}

# The plan of subsamples: per synthesis j (dataset j of the encoding), its sizes (capped
# at its rows; repeats dropped) and reps rows each, drawn in the order synthesis, size,
# rep. The whole synthesis is one view shared by its repeats. `index` says which view
# each (synthesis, size, rep) uses.
subsample_plan <- function(n_syn, sizes, reps, seed) {
  with_seed(seed, {
    views <- vector("list", length(n_syn) * length(sizes) * reps)
    n_views <- 0L
    index <- vector("list", length(n_syn))
    capped <- NULL
    for (j in seq_along(n_syn)) {
      n <- n_syn[j]
      if (any(sizes > n)) {
        capped <- rbind(capped, data.frame(synthesis = j, rows = n, requested = I(list(sizes[sizes > n]))))
      }
      used <- unique(pmin(sizes, n))
      whole <- NA_integer_
      view <- integer(length(used) * reps)
      at <- 0L
      for (k in used) {
        for (r in seq_len(reps)) {
          at <- at + 1L
          if (k == n) {
            if (is.na(whole)) {
              n_views <- n_views + 1L
              views[[n_views]] <- list(dataset = as.integer(j), rows = NULL)
              whole <- n_views
            }
            view[at] <- whole
          } else {
            n_views <- n_views + 1L
            views[[n_views]] <- list(dataset = as.integer(j), rows = sample.int(n, k))
            view[at] <- n_views
          }
        }
      }
      index[[j]] <- data.frame(synthesis = j, size = rep(used, each = reps), rep = rep(seq_len(reps), length(used)),
                               view = view)
    }
    list(plan = list(original = 0L, syntheses = views[seq_len(n_views)], tau = numeric(0)),
         index = do.call(rbind, index), capped = capped)
  })
}

build_size_curve <- function(res, draws, measures, reps, seed) {
  idx <- draws$index
  cols <- core_names(measures)
  n_meas <- length(measures)
  rows <- lapply(res$targets, function(tv) {
    s <- stats_matrix(res$raw[[tv]])
    data.frame(target = tv, synthesis = rep(idx$synthesis, each = n_meas), size = rep(idx$size, each = n_meas),
               rep = rep(idx$rep, each = n_meas), measure = rep(measures, nrow(idx)),
               value = as.vector(t(s[idx$view, cols, drop = FALSE])), stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  structure(out, class = c("synthrisk_size_curve", "data.frame"), keys = res$keys, m = res$m, n_orig = res$n_orig,
            n_syn = res$n_syn, reps = reps, seed = seed, measures = measures, capped = draws$capped,
            grouping = res$grouping)
}

#' @rdname size_curve
#' @param ... Unused (`summary()`).
#' @return `summary()`: a data frame with one row per target, size and measure:
#'   `target`, `size`, `measure`, `n` (subsamples with a value; a measure is `NaN`
#'   when its denominator is 0, e.g. `TCAP` without certain predictions, and those are
#'   left out), `mean`, `sd`, `min`, `max`.
#' @export
summary.synthrisk_size_curve <- function(object, ...) {
  rlang::check_dots_empty()
  x <- as.data.frame(unclass(object), stringsAsFactors = FALSE)
  targets <- unique(x$target)
  sizes <- sort(unique(x$size))
  measures <- unique(x$measure)
  key <- ((match(x$target, targets) - 1) * length(sizes) + match(x$size, sizes) - 1) * length(measures) +
    match(x$measure, measures)
  groups <- split(x$value, key)
  keys <- as.integer(names(groups))
  stat <- function(f) vapply(groups, function(v) {
    v <- v[!is.nan(v)]
    if (length(v) == 0) NaN else f(v)
  }, numeric(1))
  k <- keys - 1
  out <- data.frame(target = targets[k %/% (length(sizes) * length(measures)) + 1],
                    size = sizes[(k %/% length(measures)) %% length(sizes) + 1],
                    measure = measures[k %% length(measures) + 1],
                    n = vapply(groups, function(v) sum(!is.nan(v)), integer(1)),
                    mean = stat(mean), sd = stat(function(v) if (length(v) > 1) stats::sd(v) else NA_real_),
                    min = stat(min), max = stat(max), stringsAsFactors = FALSE)
  out <- out[order(keys), , drop = FALSE]
  rownames(out) <- NULL
  out
}

#' @export
format.synthrisk_size_curve <- function(x, digits = 2, ...) {
  capped <- attr(x, "capped")
  seed <- attr(x, "seed")
  # Counted from the rows, so that a subset (x[...]) says what it holds.
  m <- length(unique(x$synthesis))
  reps <- length(unique(x$rep))
  if (!is.null(capped)) capped <- capped[capped$synthesis %in% x$synthesis, , drop = FALSE]
  keys <- attr(x, "keys")
  n_orig <- attr(x, "n_orig")
  x <- as.data.frame(unclass(x), stringsAsFactors = FALSE)
  targets <- unique(x$target)
  measures <- unique(x$measure)
  shown <- spread_values(x$size)
  row_label <- paste(x$target, x$measure, sep = ": ")
  rows <- as.vector(t(outer(targets, measures, paste, sep = ": ")))
  v <- x$value
  v[is.nan(v)] <- NA
  keep <- !is.na(v)
  means <- mean_table(row_label[keep], x$size[keep], v[keep], rows, shown)
  cells <- matrix(fmt_pct(means, digits), nrow(means), dimnames = list(rows, paste0("n=", format_count(shown))))
  sizes <- sort(unique(x$size))
  cap_lines <- if (!is.null(capped) && nrow(capped) > 0) {
    sprintf("Synthesis %d has %s rows; the larger sizes asked for (%s) use all of them.", capped$synthesis,
            format_count(capped$rows),
            vapply(capped$requested, function(s) paste(format_count(s), collapse = ", "), ""))
  }
  c(sprintf("Size curve: measures (100 x numerator / denominator) of random subsamples of the synthetic data; means over %s",
            if (m > 1) sprintf("%d syntheses x %d repeats", m, reps) else sprintf("%d repeats", reps)),
    sprintf("Keys: %s; %d size%s from %s to %s%s%s%s", if (is.null(keys)) "-" else paste(keys, collapse = ", "),
            length(sizes), if (length(sizes) == 1) "" else "s", format_count(min(sizes)),
            format_count(max(sizes)),
            if (length(sizes) > length(shown)) sprintf(" (%d shown)", length(shown)) else "",
            if (is.null(n_orig)) "" else paste0("; original data ", format_count(n_orig), " records"),
            if (is.null(seed)) "" else sprintf("; seed %d", seed)),
    matrix_lines(cells),
    wrap_lines(size_curve_ratio_lines(measures, unique(x$measure[!is.na(v) & v > 100]), n_orig)),
    cap_lines,
    "summary() gives sd, min and max; as.data.frame() every value.")
}

# What each measure of a size curve is over (grouped by denominator), and, for the
# measures with a value over 100 (`over_100`), why: their numerator counts original
# records (at most `n_orig`, NULL if not known) and their denominator the records of a
# subsample, which may be fewer.
size_curve_ratio_lines <- function(measures, over_100, n_orig = NULL) {
  reg <- measure_registry[!duplicated(measure_registry$measure), ]
  info <- reg[match(measures, reg$measure), ]
  den <- ifelse(is.na(info$denominator), NA_character_, info$denominator)
  described <- c(Nd = "the original records", Ns = "the records of the subsample",
                 Nb = "the records of the subsample whose key combination is in the original",
                 DiS = "the original records whose key combination predicts the target with certainty")
  what <- function(symbol) {
    if (symbol %in% names(described)) return(paste0(symbol, ", ", described[[symbol]]))
    sub("^[^:]*: ", "", curve_symbols[[symbol]] %||% symbol)
  }
  dens <- unique(den[!is.na(den)])
  parts <- vapply(dens, function(d) paste0(paste(measures[den %in% d], collapse = ", "), " over ", what(d)), "")
  lines <- if (length(parts) > 0) paste0("Denominators: ", paste(parts, collapse = "; "), ".")
  if (length(over_100) > 0) {
    at <- match(over_100, measures)
    nums <- unique(info$numerator[at])
    dens <- unique(den[at])
    one <- length(over_100) == 1
    lines <- c(lines, paste0(
      "Values over 100 (", paste(over_100, collapse = ", "), "): ", if (one) "its" else "their",
      " numerator counts original records (", paste(nums, collapse = ", "), ", at most Nd",
      if (!is.null(n_orig)) paste0(" = ", format_count(n_orig)), ") and ", if (one) "its" else "their",
      " denominator records of the subsample (", paste(dens, collapse = ", "),
      "), fewer than Nd when the subsample is smaller than the original: ", if (one) "a ratio" else "ratios",
      ", not ", if (one) "a share" else "shares", "."))
  }
  lines
}

#' @export
print.synthrisk_size_curve <- function(x, digits = 2, ...) {
  cat(format(x, digits = digits, ...), sep = "\n")
  invisible(x)
}

#' @rdname autoplot.synthrisk_tau_curve
#' @export
autoplot.synthrisk_size_curve <- function(object, ...) {
  rlang::check_dots_empty()
  s <- summary.synthrisk_size_curve(object)
  m <- attr(object, "m") %||% 1
  reps <- attr(object, "reps") %||% 1
  reg <- measure_registry[!duplicated(measure_registry$measure), ]
  info <- reg[match(s$measure, reg$measure), ]
  # A measure without a numerator/denominator (the baseline baseCAPd) stands for itself.
  s$numerator <- ifelse(is.na(info$numerator), s$measure, info$numerator)
  s$denominator <- ifelse(is.na(info$denominator), s$measure, info$denominator)
  s <- s[is.finite(s$mean), , drop = FALSE]
  measures <- unique(s$measure)
  # Each legend entry names the measures it marks.
  label_of <- function(symbol, column) {
    used <- unique(s[c("measure", column)])
    paste0(symbol, ": ", vapply(symbol, function(v) paste(used$measure[used[[column]] == v], collapse = ", "), ""))
  }
  nums <- unique(c(intersect(c("C", "K"), s$numerator), s$numerator))
  dens <- unique(c(intersect(c("Nd", "Ns", "Nb", "DiS"), s$denominator), s$denominator))
  s$numerator <- factor(label_of(s$numerator, "numerator"), levels = label_of(nums, "numerator"))
  s$denominator <- factor(label_of(s$denominator, "denominator"), levels = label_of(dens, "denominator"))
  s$target <- factor(s$target, levels = unique(s$target))
  linetypes <- c("solid", "22", "42", "13", "F2", "4C88C488")[seq_along(nums)]
  colours <- okabe_ito[c(1:4, 5:8)][seq_along(dens)]
  note <- if (m > 1) paste0("; ", m, " syntheses x ", reps, " repeats") else paste0("; ", reps, " repeats")
  ggplot2::ggplot(s, ggplot2::aes(x = .data$size, y = .data$mean, linetype = .data$numerator,
                                  colour = .data$denominator, group = .data$measure)) +
    ggplot2::geom_line(linewidth = 0.7) +
    ggplot2::facet_wrap(ggplot2::vars(.data$target)) +
    ggplot2::scale_linetype_manual(values = linetypes, name = "Numerator", drop = FALSE,
                                   guide = ggplot2::guide_legend(order = 1)) +
    ggplot2::scale_colour_manual(values = colours, name = "Denominator", drop = FALSE,
                                 guide = ggplot2::guide_legend(order = 2)) +
    ggplot2::scale_x_continuous(n.breaks = 4,
                                labels = format_count) +
    ggplot2::scale_y_continuous(limits = c(0, NA), expand = ggplot2::expansion(mult = c(0.02, 0.06))) +
    ggplot2::labs(x = "Records in the synthetic subsample", y = "100 x numerator / denominator",
                  title = "Measures by size of the synthetic data",
                  subtitle = keys_subtitle(attr(object, "keys"), note)) +
    curve_legend_theme()
}

#' @rdname autoplot.synthrisk_tau_curve
#' @export
plot.synthrisk_size_curve <- function(x, ...) {
  print(autoplot.synthrisk_size_curve(x, ...))
  invisible(x)
}
