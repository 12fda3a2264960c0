# What the three attacks of definitions vignette 13 (inference_risk(),
# linkability_risk(), singling_out_risk()) share: their request (the search request
# with the options every attack checks), the target rows (every record, or n_attacks
# drawn) and the searches on them, anonymeter's risk from Wilson intervals, the
# summary across syntheses, and one class with print/format, tidy/glance and autoplot.
# Each attack's own file makes the rows of `results` (one per synthesis, and per secret
# for inference) with the counts; everything after that is here.

# An attack's search request (R/search-request.R) with the options every attack
# checks: `conf.level`, `seed`, `records` and, for the attacks on target records
# (`target_records = TRUE`: inference and linkability), `n_attacks` (NULL: every
# record) and that `seed` has targets to draw.
attack_request <- function(object, data, control, cont.na, n_threads, fn, call, conf.level, seed, records,
                           n_attacks = NULL, target_records = TRUE) {
  request <- search_request(object, data, control = control, cont.na = cont.na, n_threads = n_threads, fn = fn,
                            call = call)
  request$conf.level <- check_conf_level(conf.level, call) %||% 0.95
  if (target_records) request$n_attacks <- check_n_attacks(n_attacks, call)
  request$seed <- check_seed(seed, call)
  if (target_records) check_seed_for_targets(request$seed, request$n_attacks, call)
  check_flag(records, "records", call)
  request$records <- records
  request
}

# The target rows drawn (`target_rows`, see attack_target_rows()) and the searches of
# an attack on them: per synthesis j, its main search (the rows of data, dataset 0)
# then, with control records, its control search (dataset m + 1); `indexed` the
# synthesis searched, `queries` the dataset whose rows are looked up, datasets 0-based.
attack_searches <- function(request) {
  m <- request$m
  n_control <- request$n$control
  target_rows <- with_seed(request$seed, attack_target_rows(request$n_attacks, request$n$data, n_control))
  searches <- vector("list", m * (1L + (n_control > 0)))
  k <- 0L
  for (j in seq_len(m)) {
    searches[[k <- k + 1L]] <- list(indexed = j, queries = 0L, rows = as.integer(target_rows$main))
    if (n_control > 0) {
      searches[[k <- k + 1L]] <- list(indexed = j, queries = m + 1L, rows = as.integer(target_rows$control))
    }
  }
  request$target_rows <- target_rows
  request$searches <- searches
  request
}

# What the searches found (one element per search, in the order attack_searches() made
# them) per synthesis: list(main, control (NULL without control records)), each a list
# with one element per synthesis.
attack_found <- function(found, with_control) {
  if (!with_control) return(list(main = found, control = NULL))
  main <- seq(1L, length(found), by = 2L)
  list(main = found[main], control = found[main + 1L])
}

# Columns in the order of `data` (the distance adds contributions in that order).
in_data_order <- function(vars, data) vars[order(match(vars, dataset_names(data)))]

# NULL (every record) or a positive whole number of targets to draw.
check_n_attacks <- function(x, call, arg = "n_attacks") {
  if (is.null(x)) return(NULL)
  check_count(x, arg, call)
}

# `seed` draws the targets; without `n_attacks` every record is attacked and it would
# be ignored.
check_seed_for_targets <- function(seed, n_attacks, call) {
  if (!is.null(seed) && is.null(n_attacks)) {
    cli::cli_abort(c("{.arg seed} draws the targets of {.arg n_attacks}; without it every record is attacked and {.arg seed} would be ignored.",
                     i = "Attack a sample with e.g. {.code n_attacks = 500, seed = {seed}}, or drop {.arg seed}."),
                   call = call)
  }
}

check_sizes_for_attack <- function(data, syn, control, call) {
  if (nrow(data) == 0) cli::cli_abort("{.arg data} has no records to attack.", call = call)
  empty <- which(vapply(syn, nrow, integer(1)) == 0)
  if (length(empty) > 0) {
    cli::cli_abort("Synthesis {empty} has no records: there is nothing to attack with.", call = call)
  }
  if (!is.null(control) && nrow(control) == 0) cli::cli_abort("{.arg control} has no records.", call = call)
}

# The target rows (0-based): every record of data and control, or with `n_attacks`,
# sample.int(Nd, n) rows of data then sample.int(Nc, min(n, Nc)) of control (the
# caller sets the seed).
attack_target_rows <- function(n_attacks, n_data, n_control) {
  if (is.null(n_attacks)) {
    return(list(main = seq_len(n_data) - 1L, control = if (n_control > 0) seq_len(n_control) - 1L))
  }
  main <- sample.int(n_data, min(n_attacks, n_data)) - 1L
  control <- if (n_control > 0) sample.int(n_control, min(n_attacks, n_control)) - 1L
  list(main = main, control = control)
}

# Wilson's interval of s successes (possibly fractional) in n attacks: its centre p and
# half-width e.
wilson <- function(s, n, conf.level) {
  z <- stats::qnorm((1 + conf.level) / 2)
  p <- (s + z^2 / 2) / (n + z^2)
  e <- z / (n + z^2) * sqrt(s * (n - s) / n + z^2 / 4)
  list(p = p, e = e)
}

# anonymeter's risk from the main and control attacks (without control: the main
# rate's Wilson interval). Both ends of the interval are clamped to [0, 1] (SPEC 13),
# so that r + e < 0 gives [0, 0] rather than an upper end below the lower.
attack_risk <- function(s_main, n_main, s_control, n_control, conf.level) {
  a <- wilson(s_main, n_main, conf.level)
  if (is.na(n_control) || n_control == 0) {
    r <- a$p
    e <- a$e
  } else {
    c <- wilson(s_control, n_control, conf.level)
    r <- (a$p - c$p) / (1 - c$p)
    e <- sqrt((a$e / abs(1 - c$p))^2 + (c$e * (a$p - 1) / (1 - c$p)^2)^2)
  }
  clamp <- function(x) min(1, max(0, x))
  list(risk = clamp(r), conf.low = clamp(r - e), conf.high = clamp(r + e))
}

# The columns every attack's `results` row has, from its counts: n, successes (main,
# control, baseline) and the risk with its interval.
attack_row <- function(synthesis, n, s_main, n_control, s_control, s_baseline, conf.level, s_risk = s_main) {
  risk <- attack_risk(s_risk, n, s_control, n_control, conf.level)
  data.frame(synthesis = synthesis, n = n, successes = s_main, rate = s_main / n,
             n_control = n_control, successes_control = s_control,
             rate_control = if (n_control > 0) s_control / n_control else NA_real_,
             successes_baseline = s_baseline, rate_baseline = s_baseline / n,
             risk = risk$risk, conf.low = risk$conf.low, conf.high = risk$conf.high)
}

# One row per `by` group (secret for inference): with one synthesis its row; with m >= 2
# the mean over syntheses of the risk and the rates, and the interval across syntheses
# (section 12), clamped to [0, 1].
attack_summary <- function(results, conf.level, by = NULL) {
  groups <- if (is.null(by)) list(results) else split(results, factor(results[[by]], unique(results[[by]])))
  rows <- lapply(groups, function(g) {
    m <- nrow(g)
    if (m == 1) {
      iv <- list(estimate = g$risk, conf.low = g$conf.low, conf.high = g$conf.high, caveat = NA_character_)
      method <- "Wilson"
    } else {
      iv <- interval_across(g$risk, conf.level, range = c(0, 1))
      method <- "across syntheses"
    }
    out <- data.frame(m = m, risk = iv$estimate, conf.low = iv$conf.low, conf.high = iv$conf.high,
                      conf.method = method, conf.caveat = iv$caveat,
                      rate = mean(g$rate), rate_control = mean(g$rate_control), rate_baseline = mean(g$rate_baseline))
    if (!is.null(by)) out <- cbind(stats::setNames(data.frame(g[[by]][1]), by), out)
    out
  })
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  out
}

new_attack <- function(attack, class, results, conf.level, by, fields) {
  structure(c(list(attack = attack, results = results, summary = attack_summary(results, conf.level, by),
                   conf.level = conf.level, by = by), fields),
            class = c(class, "synthrisk_attack"))
}

attack_title <- function(x) {
  switch(x$attack, inference = "Inference risk", linkability = "Linkability risk",
         singling_out = "Singling-out risk")
}

#' Print an attack's risk
#'
#' Writes the risk with its interval, the success rates of the main, control and
#' baseline attacks, the numbers of attacks and what the attacker did, to standard
#' output.
#'
#' @param x The result of [inference_risk()], [linkability_risk()] or
#'   [singling_out_risk()].
#' @param digits Decimal places of risks and rates.
#' @param ... Unused.
#' @return `print()`: `x`, invisibly; `format()`: the lines.
#' @export
#' @examples
#' r <- inference_risk(sd2011_synds, sd2011, secret = "depress",
#'                     aux = c("sex", "age", "region"))
#' print(r, digits = 4)
print.synthrisk_attack <- function(x, digits = 3, ...) {
  cat(format(x, digits = digits, ...), sep = "\n")
  invisible(x)
}

#' @rdname print.synthrisk_attack
#' @export
format.synthrisk_attack <- function(x, digits = 3, ...) {
  level <- paste0(format(100 * x$conf.level), "%")
  m <- length(x$n$synthetic)
  sm <- x$summary
  cli::cli_format_method({
    cli::cli_h1(paste0(attack_title(x), " (", x$what_method, ")"))
    cli::cli_text(escape_braces(x$sentence))
    cli::cli_text(escape_braces(attack_sizes_line(x)))
    show <- attack_table(x, sm, digits, level)
    cli_table(show, row.names = FALSE)
    if (m >= 2) {
      cli::cli_text("Per synthesis:")
      res <- x$results
      per <- data.frame(synthesis = res$synthesis, risk = format_fixed(res$risk, digits),
                        interval = interval_band(res$conf.low, res$conf.high, digits),
                        main = format_fixed(res$rate, digits),
                        control = ifelse(is.na(res$rate_control), "-", format_fixed(res$rate_control, digits)),
                        baseline = format_fixed(res$rate_baseline, digits))
      names(per)[3] <- paste(level, "interval (Wilson)")
      if (!is.null(x$by)) per <- cbind(stats::setNames(data.frame(res[[x$by]]), x$by), per)
      cli_table(per, row.names = FALSE)
    }
    for (line in c(x$notes, attack_notes(x))) cli::cli_text(escape_braces(line))
    cli::cli_text(escape_braces(attack_legend(x, level)))
  })
}

# The lead table: per secret (inference) or one row.
attack_table <- function(x, sm, digits, level) {
  caveat <- !is.na(sm$conf.caveat)
  out <- data.frame(risk = format_fixed(sm$risk, digits),
                    interval = paste0(interval_band(sm$conf.low, sm$conf.high, digits), ifelse(caveat, "*", "")),
                    main = format_fixed(sm$rate, digits),
                    control = ifelse(is.na(sm$rate_control), "-", format_fixed(sm$rate_control, digits)),
                    baseline = format_fixed(sm$rate_baseline, digits))
  names(out)[2] <- paste(level, "interval")
  if (!is.null(x$by)) out <- cbind(stats::setNames(data.frame(sm[[x$by]]), x$by), out)
  out
}

attack_sizes_line <- function(x) {
  n <- x$n
  m <- length(n$synthetic)
  syn <- if (m == 1) paste(format_count(n$synthetic), "synthetic records") else
    paste0(m, " syntheses of ", paste(format_count(n$synthetic), collapse = ", "), " records")
  targets <- x$results$n[1]
  ctrl <- x$results$n_control[1]
  what <- if (identical(x$attack, "singling_out")) {
    paste0(format_count(targets), " ", if (targets == 1) "query" else "queries",
           if (m >= 2) " (first synthesis)" else "",
           " tried on ", format_count(n$data), " original records",
           if (n$control > 0) paste0(" and on ", format_count(n$control), " control records") else "")
  } else {
    paste0(format_count(targets), " of ", format_count(n$data), " original records attacked",
           if (n$control > 0) paste0(", ", format_count(ctrl), " of ", format_count(n$control), " control records") else "",
           if (!is.null(x$n_attacks)) paste0(" (drawn", if (!is.null(x$seed)) paste0(" with seed ", x$seed) else "", ")")
           else " (every record)")
  }
  paste0(syn, "; ", what, ".")
}

attack_notes <- function(x) {
  sm <- x$summary
  out <- character(0)
  worse <- sm$rate_baseline >= sm$rate
  if (any(worse)) {
    who <- if (!is.null(x$by)) paste0(" for ", paste(sm[[x$by]][worse], collapse = ", ")) else ""
    out <- c(out, paste0("The attack does no better than a random guess", who,
                         ": its baseline succeeds at least as often as the main attack."))
  }
  if (x$n$control == 0) {
    out <- c(out, "Without control records the risk is the main attack's success rate: it includes what the synthetic data would reveal of anyone in the population, not only of the records used for synthesis.")
  }
  if (any(!is.na(sm$conf.caveat))) out <- c(out, caveat_line())
  out
}

attack_legend <- function(x, level) {
  interval <- if (length(x$n$synthetic) >= 2) {
    paste0("the mean risk over syntheses with its ", level, " interval across them")
  } else {
    paste0("Wilson intervals at ", level)
  }
  paste0("Risk: (main - control) / (1 - control) as anonymeter defines it, ", interval,
         " (definitions vignette, section 13). main: ", x$rate_words$main, "; control: the same for records not used for the synthesis; baseline: ",
         x$rate_words$baseline, ".")
}

#' Tidy and glance at an attack's risk
#'
#' `tidy()` gives one row per synthesis (and secret) with the risk as `estimate`, its
#' interval and the three success rates, and with several syntheses the mean rows
#' (`synthesis` NA) with the interval across syntheses; `glance()` one row: the attack,
#' its sizes, and the highest risk with its interval.
#'
#' @param x The result of [inference_risk()], [linkability_risk()] or
#'   [singling_out_risk()].
#' @param ... Unused.
#' @return A data frame.
#' @export
#' @examples
#' r <- inference_risk(sd2011_synds, sd2011, secret = c("depress", "marital"),
#'                     aux = c("sex", "age", "region"))
#' tidy(r)
#' glance(r)
tidy.synthrisk_attack <- function(x, ...) {
  res <- x$results
  by <- if (is.null(x$by)) rep(NA_character_, nrow(res)) else as.character(res[[x$by]])
  per <- data.frame(attack = x$attack, secret = by, synthesis = res$synthesis, estimate = res$risk,
                    conf.low = res$conf.low, conf.high = res$conf.high, conf.method = "Wilson",
                    conf.caveat = NA_character_, rate = res$rate, rate_control = res$rate_control,
                    rate_baseline = res$rate_baseline, n = res$n, n_control = res$n_control)
  sm <- x$summary
  if (all(sm$m == 1)) return(per)
  sb <- if (is.null(x$by)) rep(NA_character_, nrow(sm)) else as.character(sm[[x$by]])
  mean_rows <- data.frame(attack = x$attack, secret = sb, synthesis = NA_integer_, estimate = sm$risk,
                          conf.low = sm$conf.low, conf.high = sm$conf.high, conf.method = sm$conf.method,
                          conf.caveat = sm$conf.caveat, rate = sm$rate, rate_control = sm$rate_control,
                          rate_baseline = sm$rate_baseline, n = NA_real_, n_control = NA_real_)
  rbind(per, mean_rows)
}

#' @rdname tidy.synthrisk_attack
#' @export
glance.synthrisk_attack <- function(x, ...) {
  sm <- x$summary
  worst <- which.max(sm$risk)
  data.frame(attack = x$attack, m = length(x$n$synthetic), n_original = x$n$data, n_control = x$n$control,
             n_attacks = x$results$n[1], conf.level = x$conf.level,
             secret = if (is.null(x$by)) NA_character_ else as.character(sm[[x$by]][worst]),
             risk = sm$risk[worst], conf.low = sm$conf.low[worst], conf.high = sm$conf.high[worst])
}

#' Plot an attack's risk
#'
#' Left: the risk with its interval (per secret for inference; per synthesis and their
#' mean with several syntheses). Right: the success rates of the main attack (on the
#' records used for the synthesis), the control attack (records not used) and the
#' baseline (random guesses); the risk is the main attack's gain over the control's.
#'
#' @param object The result of [inference_risk()], [linkability_risk()] or
#'   [singling_out_risk()].
#' @param ... Unused.
#' @return A ggplot.
#' @export
#' @examples
#' r <- inference_risk(sd2011_synds, sd2011, secret = c("depress", "marital"),
#'                     aux = c("sex", "age", "region"))
#' autoplot(r)
autoplot.synthrisk_attack <- function(object, ...) {
  td <- tidy(object)
  label <- if (is.null(object$by)) rep(attack_title(object), nrow(td)) else td$secret
  m <- length(object$n$synthetic)
  row_label <- if (m >= 2) ifelse(is.na(td$synthesis), paste(label, "(mean)"), paste0(label, " (synthesis ", td$synthesis, ")")) else label
  levels <- rev(unique(row_label))
  risk <- data.frame(panel = "Risk", row = factor(row_label, levels), value = td$estimate, low = td$conf.low,
                     high = td$conf.high, what = "risk", caveat = !is.na(td$conf.caveat))
  rates <- td[if (m >= 2) is.na(td$synthesis) else rep(TRUE, nrow(td)), ]
  rl <- row_label[if (m >= 2) is.na(td$synthesis) else rep(TRUE, nrow(td))]
  long <- rbind(
    data.frame(panel = "Success rates", row = factor(rl, levels), value = rates$rate, low = NA_real_, high = NA_real_,
               what = "main"),
    data.frame(panel = "Success rates", row = factor(rl, levels), value = rates$rate_control, low = NA_real_,
               high = NA_real_, what = "control"),
    data.frame(panel = "Success rates", row = factor(rl, levels), value = rates$rate_baseline, low = NA_real_,
               high = NA_real_, what = "baseline"))
  long <- long[!is.na(long$value), ]
  long$caveat <- FALSE
  all <- rbind(risk, long)
  all$what <- factor(all$what, levels = c("risk", "main", "control", "baseline"))
  colours <- c(risk = "#000000", main = "#D55E00", control = "#0072B2", baseline = "#009E73")
  shapes <- c(risk = 16, main = 16, control = 17, baseline = 15)
  level <- paste0(format(100 * object$conf.level), "%")
  ggplot2::ggplot(all, ggplot2::aes(x = .data$value, y = .data$row, colour = .data$what, shape = .data$what)) +
    # An interval with a caveat (section 12) is dashed, as in the other plots.
    ggplot2::geom_errorbarh(data = all[all$panel == "Risk", ],
                            ggplot2::aes(xmin = .data$low, xmax = .data$high, linetype = .data$caveat), height = 0.2,
                            na.rm = TRUE, show.legend = FALSE) +
    ggplot2::scale_linetype_manual(values = c("FALSE" = "solid", "TRUE" = "dashed")) +
    ggplot2::geom_point(size = 2.4, na.rm = TRUE) +
    ggplot2::facet_wrap(~panel, scales = "free_x") +
    ggplot2::scale_colour_manual(values = colours, name = NULL, drop = TRUE) +
    ggplot2::scale_shape_manual(values = shapes, name = NULL, drop = TRUE) +
    ggplot2::labs(title = attack_title(object), x = NULL, y = NULL,
                  subtitle = wrap_subtitle(paste0("Risk with its ", level, " interval; success rates of the main, control and baseline attacks"))) +
    plot_theme("bottom") +
    ggplot2::theme(panel.spacing.x = grid::unit(1.5, "lines"))
}

