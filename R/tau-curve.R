#' Attribute disclosure as a function of the attribution threshold tau
#'
#' For each target and synthesis, the share of original records an intruder attributes
#' correctly when acting only on key combinations (q) whose synthetic share of the
#' record's target level is at least `tau`, weighted by that share:
#' \deqn{D(\tau) = 100 \cdot \sum_{t,q} p_s[t,q] \, d[t,q] \, [p_s[t,q] \ge \tau] / N_d}{D(tau) = 100 * sum ps[t,q] d[t,q] [ps[t,q] >= tau] / Nd}
#' (`synthetic`), and the same with the original shares `pd` in place of `ps`
#' (`original`: the original data predicting itself).
#'
#' `ps` and `pd` are those of the tables before exclusions, as for `DiSCO` and `Dorig`;
#' then the exclusions of [disclosure()] (`not.targetslev`, `usetargetsNA`, `usekeysNA`,
#' `exclude.keys`/`exclude.keylevs`/`exclude.targetlevs`, and cells of more than
#' `denom_lim` original records when `exclude_ov_denom_lim = TRUE`) remove cells as they
#' do from the DiSCO table. So at `tau = 1` the curves are `DiSCO` and `Dorig`, always;
#' at `tau = 0` they are `DCAPd` and `CAPd` when no exclusion applies (those two use the
#' shares after exclusions). Both curves are non-increasing in `tau`.
#'
#' Every value of `tau` is computed in the same pass over the data as the other
#' measures, so a fine grid costs little more than [multi.disclosure()].
#'
#' @param object A `synds` object, a data frame or a list of data frames (the
#'   syntheses), as for [multi.disclosure()]; for `tau_curve()` also database tables
#'   and counted cells ([cell_counts()]), which [size_curve()] refuses (it subsamples
#'   records).
#' @param data The original data (a data frame; for `tau_curve()` also a database
#'   table or counted cells).
#' @param keys The quasi-identifiers (names or column numbers).
#' @param targets The targets (names or column numbers); default all variables of the
#'   synthetic data that are not keys.
#' @param tau Thresholds, numbers from 0 to 1; the output keeps their order (repeats
#'   too).
#' @param ... Other arguments of [multi.disclosure()]: `cont.na` (for data frames),
#'   `denom_lim`, `exclude_ov_denom_lim`, `not.targetslev`, `usetargetsNA`, `usekeysNA`,
#'   `exclude.keys`, `exclude.keylevs`, `exclude.targetlevs`, `ngroups_targets`,
#'   `ngroups_keys`, `compare.synorig`, `n_threads`, `conf.level` (intervals across
#'   syntheses of each synthetic value, m >= 2), `resynthesize`, `synthesizer` and
#'   `seed` (intervals across the given and drawn syntheses, see [disclosure()]);
#'   `print.flag = TRUE` prints how numeric variables were grouped (default `FALSE`).
#' @return A data frame of class `c("synthrisk_tau_curve", "data.frame")` with one row per target, synthesis and
#'   `tau`: `target`, `synthesis`, `tau`, `synthetic` and `original` (in %). Its
#'   attribute `measures` holds `Dorig`, `DiSCO`, `CAPd` and `DCAPd` per target and
#'   synthesis (as [multi.disclosure()] reports them). `print()` shows a compact table
#'   (means over syntheses); [autoplot()][autoplot.synthrisk_tau_curve] draws the curves.
#' @seealso [size_curve()], [multi.disclosure()]
#' @export
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' tc <- tau_curve(sd2011_synds5, sd2011, keys = keys, targets = c("depress", "workab", "marital"))
#' tc
#' head(as.data.frame(tc))
#' autoplot(tc)
tau_curve <- function(object, data, keys, targets = NULL, tau = seq(0, 1, by = 0.05), ...) {
  env <- rlang::current_env()
  tau <- check_tau(tau, env)
  if (missing(keys)) keys <- NULL
  plan_of <- function(syn) {
    list(original = 0L, syntheses = lapply(seq_along(syn), function(j) list(dataset = as.integer(j), rows = NULL)),
         tau = tau)
  }
  dots <- list(...)
  res <- run_curve(object, data, keys, targets, dots, plan_of, env)
  curve <- build_tau_curve(res, tau)
  u <- res$uncertainty
  if (u$resynthesize > 0) {
    # The same curve over the given and drawn syntheses: its intervals are resynthesis's.
    more <- resynthesized_object(object, data, u, c(res$keys, res$targets), env)
    dots[c("resynthesize", "synthesizer", "seed")] <- NULL
    dots$conf.level <- u$level
    again <- withr::with_options(list(synthrisk.warn_labels = FALSE),
                                 run_curve(more, data, keys, targets, dots, plan_of, env))
    intervals <- as_resynthesized(tau_intervals(build_tau_curve(again, tau), u$level, again$m))
    attr(curve, "intervals") <- intervals
    attr(curve, "conf.level") <- u$level
    attr(curve, "resynthesized") <- u$resynthesize
  }
  curve
}

build_tau_curve <- function(res, tau) {
  m <- res$m
  n_tau <- length(tau)
  rows <- lapply(res$targets, function(tv) {
    r <- res$raw[[tv]]
    data.frame(target = tv, synthesis = rep(seq_len(m), each = n_tau), tau = rep(tau, m),
               synthetic = r$tau_syn, original = r$tau_orig, stringsAsFactors = FALSE)
  })
  measures <- lapply(res$targets, function(tv) {
    s <- stats_matrix(res$raw[[tv]])
    cbind(data.frame(target = tv, synthesis = seq_len(m), stringsAsFactors = FALSE),
          as.data.frame(s[, tau_curve_measures, drop = FALSE]))
  })
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  measures <- do.call(rbind, measures)
  rownames(measures) <- NULL
  structure(out, class = c("synthrisk_tau_curve", "data.frame"), measures = measures, keys = res$keys, m = m,
            n_orig = res$n_orig, grouping = res$grouping, intervals = tau_intervals(out, res$uncertainty$conf.level, m),
            conf.level = res$uncertainty$conf.level)
}

# With conf.level and m >= 2: per target and tau, the interval across syntheses of the
# synthetic curve (definitions vignette, section 12); NULL otherwise.
tau_intervals <- function(curve, conf.level, m) {
  if (is.null(conf.level) || m < 2) return(NULL)
  cells <- curve[!duplicated(curve[c("target", "tau")]), c("target", "tau")]
  found <- lapply(seq_len(nrow(cells)), function(i) {
    interval_across(curve$synthetic[curve$target == cells$target[i] & curve$tau == cells$tau[i]], conf.level)
  })
  cbind(data.frame(target = cells$target, tau = cells$tau, stringsAsFactors = FALSE),
        interval_frame(rep("synthetic", nrow(cells)), found, "across syntheses")[-1])
}

#' @export
format.synthrisk_tau_curve <- function(x, digits = 2, ...) {
  keys <- attr(x, "keys")
  intervals <- attr(x, "intervals")
  conf.level <- attr(x, "conf.level")
  B <- attr(x, "resynthesized") %||% 0
  m <- length(unique(x$synthesis))
  x <- as.data.frame(unclass(x), stringsAsFactors = FALSE)
  targets <- unique(x$target)
  shown <- spread_values(x$tau, 5)
  cols <- as.character(signif(shown, 4))
  col_of <- as.character(signif(x$tau, 4))
  syn <- mean_table(x$target, col_of, x$synthetic, targets, cols)
  orig <- mean_table(x$target, col_of, x$original, targets, cols)
  cells <- matrix(paste0(fmt_pct(syn, digits), " (", fmt_pct(orig, digits), ")"), nrow(syn),
                  dimnames = list(targets, paste0("tau=", cols)))
  n_tau <- length(unique(x$tau))
  c(sprintf("Tau curve: D(tau) in %%, synthetic (original)%s", if (m > 1) sprintf("; means over %d syntheses", m) else ""),
    sprintf("Keys: %s; %d target%s; %d tau value%s from %s to %s%s", if (is.null(keys)) "-" else paste(keys, collapse = ", "),
            length(targets), if (length(targets) == 1) "" else "s", n_tau, if (n_tau == 1) "" else "s",
            format(min(x$tau)), format(max(x$tau)), if (n_tau > length(shown)) sprintf(", %d shown", length(shown)) else ""),
    matrix_lines(cells),
    "At tau = 1: DiSCO (Dorig); at tau = 0: DCAPd (CAPd) when nothing is excluded. as.data.frame() has every value.",
    if (!is.null(intervals)) {
      c(sprintf("%s%% intervals %s of each synthetic value: attr(x, \"intervals\").", format(100 * conf.level),
                if (B > 0) sprintf("across the %d given and %d drawn syntheses", m, B) else "across syntheses"),
        if (any(!is.na(intervals$caveat))) {
          "Intervals with a caveat (column caveat: values all equal, at 0 or 100 %, or a few whole numbers) may cover less often than their level."
        })
    } else if (!is.null(conf.level)) "conf.level gives no interval with one synthesis (intervals across syntheses need m >= 2; resynthesize = B draws more).")
}

#' @export
print.synthrisk_tau_curve <- function(x, digits = 2, ...) {
  cat(format(x, digits = digits, ...), sep = "\n")
  invisible(x)
}

#' @rdname autoplot.synthrisk_tau_curve
#' @export
autoplot.synthrisk_tau_curve <- function(object, ...) {
  rlang::check_dots_empty()
  x <- as.data.frame(unclass(object), stringsAsFactors = FALSE)
  m <- attr(object, "m") %||% length(unique(x$synthesis))
  targets <- unique(x$target)
  curves <- rbind(
    stats::aggregate(synthetic ~ target + tau, data = x, FUN = mean) |> stats::setNames(c("target", "tau", "value")) |>
      transform(data = "synthetic"),
    stats::aggregate(original ~ target + tau, data = x, FUN = mean) |> stats::setNames(c("target", "tau", "value")) |>
      transform(data = "original")
  )
  meas <- attr(object, "measures")
  marks <- if (!is.null(meas)) {
    means <- stats::aggregate(cbind(DCAPd, DiSCO) ~ target, data = meas, FUN = mean)
    rbind(data.frame(target = means$target, tau = 0, value = means$DCAPd, mark = "DCAPd (at tau = 0)"),
          data.frame(target = means$target, tau = 1, value = means$DiSCO, mark = "DiSCO (at tau = 1)"))
  }
  data_labels <- c(synthetic = if (m > 1) "synthetic (mean)" else "synthetic", original = "original")
  curves$data <- factor(data_labels[curves$data], levels = data_labels)
  subtitle <- keys_subtitle(attr(object, "keys"), if (m > 1) paste0("; means over ", m, " syntheses") else "")
  draw_tau_plot(curves, marks, targets, subtitle)
}

# Targets drawn in one panel, one colour each; more targets get a panel each.
tau_targets_in_one_panel <- 5

draw_tau_plot <- function(curves, marks, targets, subtitle) {
  one_panel <- length(targets) <= tau_targets_in_one_panel
  curves$target <- factor(curves$target, levels = targets)
  # One panel: a colour per target; a panel per target: vermillion synthetic, blue original
  # (as the other plots of the package).
  line_aes <- if (one_panel) {
    ggplot2::aes(x = .data$tau, y = .data$value, colour = .data$target, linetype = .data$data,
                 group = interaction(.data$target, .data$data))
  } else {
    ggplot2::aes(x = .data$tau, y = .data$value, colour = .data$data, linetype = .data$data, group = .data$data)
  }
  p <- ggplot2::ggplot(curves, line_aes) + ggplot2::geom_line(linewidth = 0.7) +
    ggplot2::scale_linetype_manual(values = c("solid", "22"), name = NULL, guide = ggplot2::guide_legend(order = 2))
  p <- p + if (one_panel) {
    ggplot2::scale_colour_manual(values = stats::setNames(okabe_ito[seq_along(targets)], targets), name = NULL,
                                 guide = ggplot2::guide_legend(order = 1))
  } else {
    ggplot2::scale_colour_manual(values = stats::setNames(okabe_ito[2:1], levels(curves$data)), name = NULL)
  }
  if (!is.null(marks) && nrow(marks) > 0) {
    marks$target <- factor(marks$target, levels = targets)
    marks$mark <- factor(marks$mark, levels = c("DCAPd (at tau = 0)", "DiSCO (at tau = 1)"))
    points <- if (one_panel) {
      ggplot2::geom_point(data = marks, ggplot2::aes(x = .data$tau, y = .data$value, shape = .data$mark,
                                                     colour = .data$target),
                          inherit.aes = FALSE, size = 2.4, stroke = 1)
    } else {
      ggplot2::geom_point(data = marks, ggplot2::aes(x = .data$tau, y = .data$value, shape = .data$mark),
                          inherit.aes = FALSE, size = 2.4, stroke = 1, colour = okabe_ito[2])
    }
    p <- p + points + ggplot2::scale_shape_manual(values = c(1, 16), name = NULL, guide = ggplot2::guide_legend(order = 3))
  }
  if (!one_panel) p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$target))
  p +
    (if (one_panel) {
      ggplot2::scale_x_continuous(breaks = seq(0, 1, 0.25), labels = c("0", "0.25", "0.5", "0.75", "1"),
                                  expand = ggplot2::expansion(add = 0.04))
    } else {
      ggplot2::scale_x_continuous(breaks = c(0, 0.5, 1), labels = c("0", "0.5", "1"),
                                  expand = ggplot2::expansion(add = 0.06))
    }) +
    ggplot2::scale_y_continuous(limits = c(0, NA), expand = ggplot2::expansion(mult = c(0.02, 0.06))) +
    ggplot2::labs(x = "tau (threshold on the synthetic share)", y = "Disclosure (%)",
                  title = "Attribute disclosure by threshold tau", subtitle = subtitle) +
    curve_legend_theme()
}

#' @rdname autoplot.synthrisk_tau_curve
#' @param x A `tau_curve` or `size_curve`.
#' @export
plot.synthrisk_tau_curve <- function(x, ...) {
  print(autoplot.synthrisk_tau_curve(x, ...))
  invisible(x)
}
