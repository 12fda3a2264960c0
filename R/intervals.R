# How sure each number is (definitions vignette, section 12): intervals across the m
# syntheses (conf.level, m >= 2) and bootstrap intervals (boot = B replicates of the
# synthetic records, any m), for every measure and for the holdout's R. The bootstrap's
# replicates are resampled views of the syntheses in the request's plans, counted in
# the same core call as everything else.

check_conf_level <- function(x, call) {
  if (is.null(x)) return(NULL)
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || x <= 0 || x >= 1) {
    cli::cli_abort("{.arg conf.level} must be {.code NULL} or one number strictly between 0 and 1, not {.code {describe_value(x)}}.",
                   call = call)
  }
  as.double(x)
}

check_boot <- function(x, call) {
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || !is.finite(x) || x < 0 || x != round(x) || x > 1e5) {
    cli::cli_abort("{.arg boot} must be a whole number of replicates from 0 to 100000, not {.code {describe_value(x)}}.",
                   call = call)
  }
  as.integer(x)
}

# The uncertainty asked of a request: conf.level (NULL: none across syntheses; the
# bootstrap's level defaults to 0.95), boot, seed; checked against the syntheses.
request_uncertainty <- function(a, syn, control, call) {
  conf.level <- check_conf_level(a$conf.level, call)
  boot <- check_boot(a$boot, call)
  seed <- check_seed(a$seed, call)
  if (!is.null(seed) && boot == 0) {
    cli::cli_abort(c("{.arg seed} makes the bootstrap's draws reproducible; without {.arg boot} it would be ignored.",
                     i = "Ask for replicates, e.g. {.code boot = 200, seed = {seed}}."), call = call)
  }
  if (boot > 0) {
    held <- vapply(c(syn, list(control)), function(x) is.null(x) || (is.data.frame(x) && !is_cell_counts(x)),
                   logical(1))
    if (!all(held)) {
      where <- vapply(which(!held), function(j) {
        if (j > length(syn)) "control" else if (length(syn) == 1) "the synthetic data" else paste("synthesis", j)
      }, character(1))
      cli::cli_abort(c("{.arg boot} resamples records held in R as data frames.",
                       x = "{where} {?is/are} counted cells or a database table; use {.code boot = 0}."),
                     call = call)
    }
  }
  list(conf.level = conf.level, boot = boot, seed = seed,
       boot_level = if (boot > 0) conf.level %||% 0.95 else NULL)
}

# The bootstrap's plans: for b in 1..B and, inside, j in 1..m, synthesis j's rows drawn
# with replacement as counts w = rmultinom(1, Ns_j, rep(1, Ns_j)) after set.seed(seed),
# each a view of its rows repeated w times; with control, the same views against the
# control records.
bootstrap_plans <- function(n_syn, boot, seed, with_control) {
  m <- length(n_syn)
  views <- with_seed(seed, {
    out <- vector("list", boot * m)
    for (b in seq_len(boot)) {
      for (j in seq_len(m)) {
        n <- n_syn[[j]]
        w <- stats::rmultinom(1L, n, rep(1, n))
        out[[(b - 1L) * m + j]] <- list(dataset = as.integer(j), rows = rep.int(seq_len(n), w[, 1]), repeats = TRUE)
      }
    }
    out
  })
  plans <- list(boot = list(original = 0L, syntheses = views, tau = numeric(0)))
  if (with_control) plans$boot_control <- list(original = as.integer(m + 1L), syntheses = views, tau = numeric(0))
  plans
}

# The interval across syntheses of values `v` (one per synthesis): the mean, and
# mean -/+ t_{m-1, (1 + conf)/2} * sqrt(b / m), b the variance between syntheses.
across_syntheses <- function(v, conf.level) {
  m <- length(v)
  est <- mean(v)
  half <- stats::qt((1 + conf.level) / 2, m - 1) * sqrt(stats::var(v) / m)
  c(estimate = est, conf.low = est - half, conf.high = est + half)
}

# Percentile interval (type 7 quantiles) of replicate values; replicates where the
# measure is undefined (NaN, a zero denominator) are left out.
percentile_interval <- function(replicates, conf.level) {
  r <- replicates[!is.na(replicates)]
  if (length(r) == 0) return(c(conf.low = NA_real_, conf.high = NA_real_))
  q <- stats::quantile(r, c((1 - conf.level) / 2, (1 + conf.level) / 2), type = 7, names = FALSE)
  c(conf.low = q[1], conf.high = q[2])
}

# Replicate values of a measure from the bootstrap's raw counts of one target: per
# replicate b, the mean over the m syntheses of its resampled views.
replicate_means <- function(raw, measure, m) {
  v <- raw$stats[[core_names(measure)]]
  rowMeans(matrix(as.double(v), ncol = m, byrow = TRUE))
}

# The `intervals` of one target's `disclosure` x (long form: measure, estimate,
# conf.low, conf.high, method) and of its holdout R (`holdout_intervals`), from the
# request's uncertainty and the target's raw bootstrap counts (NULL without boot).
target_intervals <- function(x, uncertainty, boot_raw, boot_control_raw) {
  long <- measure_rows(x)
  measures <- unique(long$measure)
  m <- x$m
  rows <- list()
  r_rows <- list()
  if (!is.null(uncertainty$conf.level) && m >= 2) {
    rows$across <- interval_frame(measures, lapply(measures, function(me) {
      across_syntheses(long$value[long$measure == me], uncertainty$conf.level)
    }), "across syntheses")
    if (!is.null(x$holdout)) {
      r_measures <- unique(x$holdout$measure)
      r_rows$across <- interval_frame(r_measures, lapply(r_measures, function(me) {
        across_syntheses(x$holdout$R[x$holdout$measure == me], uncertainty$conf.level)
      }), "across syntheses")
    }
  }
  replicates <- NULL
  r_replicates <- NULL
  if (!is.null(boot_raw)) {
    level <- uncertainty$boot_level
    values <- lapply(measures, function(me) replicate_means(boot_raw, me, m))
    replicates <- replicate_frame(measures, values)
    rows$boot <- interval_frame(measures, lapply(seq_along(measures), function(i) {
      c(estimate = mean(long$value[long$measure == measures[i]]), percentile_interval(values[[i]], level))
    }), "bootstrap")
    if (!is.null(x$holdout) && !is.null(boot_control_raw)) {
      s <- holdout_summary(x$holdout)
      r_measures <- rownames(s)
      r_values <- lapply(r_measures, function(me) {
        train <- replicate_means(boot_raw, me, m)
        holdout_ratio(train, replicate_means(boot_control_raw, me, m), rep(measure_unit[[me]], length(train)))
      })
      r_replicates <- replicate_frame(r_measures, r_values)
      r_rows$boot <- interval_frame(r_measures, lapply(seq_along(r_measures), function(i) {
        c(estimate = s[r_measures[i], "R"], percentile_interval(r_values[[i]], level))
      }), "bootstrap")
    }
  }
  list(intervals = bind_frames(rows), holdout_intervals = bind_frames(r_rows), replicates = replicates,
       holdout_replicates = r_replicates)
}

# Long form of replicate values: replicate, measure, value.
replicate_frame <- function(measures, values) {
  n <- lengths(values)
  data.frame(replicate = unlist(lapply(n, seq_len)), measure = rep(measures, n),
             value = unlist(values, use.names = FALSE), stringsAsFactors = FALSE)
}

interval_frame <- function(measures, values, method) {
  v <- do.call(rbind, values)
  data.frame(measure = measures, estimate = unname(v[, "estimate"]), conf.low = unname(v[, "conf.low"]),
             conf.high = unname(v[, "conf.high"]), method = method, stringsAsFactors = FALSE)
}

bind_frames <- function(frames) {
  frames <- frames[!vapply(frames, is.null, logical(1))]
  if (length(frames) == 0) return(NULL)
  out <- do.call(rbind, unname(frames))
  rownames(out) <- NULL
  out
}

# Adds the intervals of the request to one target's result `d` (target `tv`).
add_intervals <- function(d, request, counted, tv) {
  u <- request$uncertainty
  if (is.null(u) || (is.null(u$conf.level) && u$boot == 0)) return(d)
  found <- target_intervals(d, u, counted$raw$boot[[tv]], counted$raw$boot_control[[tv]])
  d$intervals <- found$intervals
  d$holdout_intervals <- found$holdout_intervals
  d$replicates <- found$replicates
  d$holdout_replicates <- found$holdout_replicates
  d$uncertainty <- u[c("conf.level", "boot", "seed", "boot_level")]
  d
}

# Lines saying what the intervals are, or why none were computed.
interval_lines <- function(u, m) {
  if (is.null(u)) return(character(0))
  out <- character(0)
  if (!is.null(u$conf.level)) {
    out <- c(out, if (m >= 2) {
      sprintf("Intervals across the %d syntheses: %s%% for the mean of each measure (t with %d degrees of freedom).",
              m, format(100 * u$conf.level), m - 1)
    } else {
      "conf.level asks for intervals across syntheses, which need m >= 2; with one synthesis use boot (e.g. boot = 200)."
    })
  }
  if (u$boot > 0) {
    out <- c(out, sprintf("Bootstrap intervals: %s%% percentile intervals from %d replicates of the synthetic records%s.",
                          format(100 * u$boot_level), u$boot,
                          if (is.null(u$seed)) "" else paste0(" (seed ", u$seed, ")")))
  }
  out
}

# A line naming the measures whose bootstrap interval misses their estimate: drawing
# records with replacement repeats some and drops others, so measures of records unique
# in the synthetic data fall in every replicate (definitions vignette, section 12).
missed_estimate_line <- function(intervals, measures) {
  if (is.null(intervals)) return(character(0))
  b <- intervals[intervals$method == "bootstrap" & intervals$measure %in% measures, , drop = FALSE]
  miss <- b$measure[!is.na(b$conf.low) & (b$estimate < b$conf.low | b$estimate > b$conf.high)]
  if (length(miss) == 0) return(character(0))
  sprintf(paste("The bootstrap interval of %s does not contain the estimate: resampling with replacement repeats",
                "some synthetic records and drops others, which lowers measures of records unique in the synthetic",
                "data; read such an interval as the spread of the resamples, not as a range for the measure."),
          paste(miss, collapse = ", "))
}

# "2.40 (1.95-2.88)" with an en dash; plain numbers where there is no interval.
format_interval <- function(estimate, low, high, digits) {
  f <- function(v) formatC(round(v, digits), format = "f", digits = digits)
  ifelse(is.na(low) | is.na(high), f(estimate), paste0(f(estimate), " (", f(low), "\u2013", f(high), ")"))
}

# The interval of `measure` in `intervals`, preferring the bootstrap's when both exist.
interval_of <- function(intervals, measure) {
  if (is.null(intervals)) return(NULL)
  hit <- intervals[intervals$measure == measure, , drop = FALSE]
  if (nrow(hit) == 0) return(NULL)
  hit[order(hit$method != "bootstrap"), , drop = FALSE][1, ]
}

# Rows of tidy() with broom's conf.low and conf.high: each measure's interval (of its
# mean over syntheses; the bootstrap's when there are both) on every synthesis's row, and
# conf.method naming it. Unchanged without intervals.
with_conf <- function(rows, intervals) {
  if (is.null(intervals) || nrow(rows) == 0) return(rows)
  found <- lapply(unique(rows$measure), function(me) interval_of(intervals, me))
  names(found) <- unique(rows$measure)
  pick <- function(field, missing) {
    vapply(rows$measure, function(me) if (is.null(found[[me]])) missing else found[[me]][[field]], missing,
           USE.NAMES = FALSE)
  }
  rows$conf.low <- pick("conf.low", NA_real_)
  rows$conf.high <- pick("conf.high", NA_real_)
  rows$conf.method <- pick("method", NA_character_)
  rows
}

# tidy(type = "intervals"): every interval of one target, both methods, R's too.
interval_rows <- function(x, part) {
  if (is.null(x$intervals) && is.null(x$holdout_intervals)) {
    cli::cli_abort(c("{.arg x} has no intervals.",
                     i = "Pass {.arg conf.level} (m >= 2) or {.arg boot} to {.fn disclosure} or {.fn multi.disclosure}."),
                   call = rlang::caller_env(2))
  }
  parts <- list(if (!is.null(x$intervals)) cbind(quantity = "measure", x$intervals),
                if (!is.null(x$holdout_intervals)) cbind(quantity = "R", x$holdout_intervals))
  out <- bind_frames(parts)
  cbind(target = rep(x$target, nrow(out)), out[c("measure", "quantity", "estimate", "conf.low", "conf.high", "method")])
}

# "95% intervals across syntheses" / "95% bootstrap intervals", for plot subtitles.
interval_label <- function(u, method) {
  level <- if (method == "bootstrap") u$boot_level else u$conf.level
  paste0(format(100 * level), "% ", if (method == "bootstrap") "bootstrap intervals" else "intervals across syntheses")
}
