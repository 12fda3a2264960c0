# How sure each number is (definitions vignette, section 12): intervals across the m
# syntheses (conf.level, m >= 2) for every measure and for the holdout's R, clamped to
# what the measure can take, with a caveat where the t interval may not cover; those
# across the m given and B drawn syntheses (resynthesize) come from R/resynthesize.R.

check_conf_level <- function(x, call) {
  if (is.null(x)) return(NULL)
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || x <= 0 || x >= 1) {
    cli::cli_abort("{.arg conf.level} must be {.code NULL} or one number strictly between 0 and 1, not {.code {describe_value(x)}}.",
                   call = call)
  }
  as.double(x)
}

# The uncertainty asked of a request: conf.level (NULL: none), resynthesize (B
# syntheses to draw, 0: none), synthesizer, seed; `level`: the level of the intervals
# (resynthesis's defaults to 0.95). The resampling bootstrap of an earlier version is
# gone: its intervals did not cover (definitions vignette, section 12).
request_uncertainty <- function(a, syn, control, call) {
  conf.level <- check_conf_level(a$conf.level, call)
  resynthesize <- check_resynthesize(a$resynthesize %||% 0, call)
  synthesizer <- check_synthesizer(a$synthesizer, call)
  seed <- check_seed(a$seed, call)
  if (resynthesize == 0) {
    unused <- c(if (!is.null(seed)) "seed", if (!is.null(synthesizer)) "synthesizer")
    if (length(unused) > 0) {
      cli::cli_abort(c("{.arg {unused}} {?is/are} for drawing more syntheses; without {.arg resynthesize} {?it/they} would be ignored.",
                       i = "Ask for syntheses to draw, e.g. {.code resynthesize = 20}."), call = call)
    }
  }
  if (resynthesize > 0) {
    held <- vapply(c(syn, list(control)), function(x) is.null(x) || (is.data.frame(x) && !is_cell_counts(x)),
                   logical(1))
    if (!all(held)) {
      where <- vapply(which(!held), function(j) {
        if (j > length(syn)) "control" else if (length(syn) == 1) "the synthetic data" else paste("synthesis", j)
      }, character(1))
      cli::cli_abort(c("{.arg resynthesize} counts the drawn syntheses beside the given ones, held in R as data frames of records.",
                       x = "{where} {?is/are} counted cells or a database table."), call = call)
    }
  }
  list(conf.level = conf.level, resynthesize = resynthesize, synthesizer = synthesizer, seed = seed,
       level = if (resynthesize > 0) conf.level %||% 0.95 else conf.level)
}

# The error for `boot`, the resampling bootstrap that was removed.
abort_boot <- function(call) {
  cli::cli_abort(c("{.arg boot} is gone: resampling the synthetic records with replacement turns unique records into duplicates or drops them, and its intervals missed the true value in simulation (definitions vignette, section 12).",
                   i = "With several syntheses use {.arg conf.level}; with one, draw more from its model: {.code resynthesize = 20} (and {.arg synthesizer} unless {.arg object} is a synds object)."),
                 call = call)
}

# The interval across syntheses of values `v` (one per synthesis) for their expected
# value: the mean, and mean -/+ t_{m-1, (1 + conf)/2} * sqrt(b / m), b the variance
# between syntheses, clamped to `range` (what the measure can take). `caveat` (NA when
# none) says why the t interval may cover less often than its level:
# * "all equal": no spread was seen, so the interval is a point;
# * "at a bound": a value lies at the edge of `range` (0 %, 100 %, R's 1): the values
#   pile up against it and their spread is one-sided (measures near 0);
# * "few values": whole numbers (a count such as max_denom) taking fewer distinct
#   values than min(m, 4), a lattice the t interval does not model.
# bench/coverage.R measures how often intervals with and without a caveat cover. Two
# other rules were tried and dropped: "the interval reaches past the bound" (intervals
# that do not are those whose few values happen to lie close together, which cover
# less often: 64-74 % with m = 2 near 0), and sample skewness (Cochran's m < 25 g1^2:
# from five values it is noise).
interval_across <- function(v, conf.level, range = c(0, 100)) {
  m <- length(v)
  est <- mean(v)
  sd <- if (m >= 2) stats::sd(v) else NA_real_
  # Undefined in a synthesis (NaN) or without spread to measure: no interval.
  if (!is.finite(est) || !is.finite(sd)) {
    return(list(estimate = est, conf.low = NA_real_, conf.high = NA_real_, caveat = NA_character_))
  }
  half <- stats::qt((1 + conf.level) / 2, m - 1) * sd / sqrt(m)
  low <- est - half
  high <- est + half
  lattice <- all(v == round(v)) && length(unique(v)) < min(m, 4)
  caveat <- if (sd == 0) "all equal" else if (any(v <= range[1] | v >= range[2])) "at a bound" else
    if (lattice) "few values" else NA_character_
  list(estimate = est, conf.low = max(low, range[1]), conf.high = min(high, range[2]), caveat = caveat)
}

# A measure of the original data alone (UiO, Dorig, CAPd, baseCAPd) is the same in
# every synthesis: its interval is the exact value, with no caveat.
of_original <- function(iv, measure) {
  hit <- measure_registry$data[match(measure, measure_registry$measure)]
  if (identical(hit, "original")) iv$caveat <- NA_character_
  iv
}

# What each measure can take: 0-100 for percentages, from 0 for counts, and at most 1
# for the holdout's R (a share that can be negative).
measure_range <- function(measure, quantity = "measure") {
  if (quantity == "R") return(c(-Inf, 1))
  if (identical(unname(measure_unit[measure]), "%")) c(0, 100) else c(0, Inf)
}

# The `intervals` of one target's `disclosure` x (long form: measure, estimate,
# conf.low, conf.high, method, caveat) and of its holdout R (`holdout_intervals`),
# across its m syntheses.
target_intervals <- function(x, uncertainty) {
  out <- list(intervals = NULL, holdout_intervals = NULL)
  level <- uncertainty$conf.level
  if (is.null(level) || x$m < 2) return(out)
  long <- measure_rows(x)
  measures <- unique(long$measure)
  out$intervals <- interval_frame(measures, lapply(measures, function(me) {
    of_original(interval_across(long$value[long$measure == me], level, measure_range(me)), me)
  }), "across syntheses")
  if (!is.null(x$holdout)) {
    r_measures <- unique(x$holdout$measure)
    out$holdout_intervals <- interval_frame(r_measures, lapply(r_measures, function(me) {
      rows <- x$holdout$measure == me
      iv <- interval_across(x$holdout$R[rows], level, measure_range(me, "R"))
      # R is made from the measure: values of the measure piled against 0 or 100 make
      # R's one-sided too (bench/coverage.R: R of DiSDiO near 0).
      if (is.na(iv$caveat) && !is.na(iv$conf.low)) {
        iv$caveat <- interval_across(x$holdout$train[rows], level, measure_range(me))$caveat
      }
      of_original(iv, me)
    }), "across syntheses")
  }
  out
}

interval_frame <- function(measures, values, method) {
  field <- function(f, type) vapply(values, function(v) v[[f]], type)
  data.frame(measure = measures, estimate = field("estimate", 0), conf.low = field("conf.low", 0),
             conf.high = field("conf.high", 0), method = method, caveat = field("caveat", ""),
             stringsAsFactors = FALSE)
}

bind_frames <- function(frames) {
  frames <- frames[!vapply(frames, is.null, logical(1))]
  if (length(frames) == 0) return(NULL)
  out <- do.call(rbind, unname(frames))
  rownames(out) <- NULL
  out
}

# Whether the request's uncertainty `u` asks for intervals.
wants_intervals <- function(u) {
  !(is.null(u) || (is.null(u$conf.level) && u$resynthesize == 0))
}

# Adds the intervals of the request to one target's result `d` (those of resynthesis
# are added by the front door, add_resynthesized()).
add_intervals <- function(d, request, counted, tv) {
  u <- request$uncertainty
  if (!wants_intervals(u)) return(d)
  found <- target_intervals(d, u)
  d$intervals <- found$intervals
  d$holdout_intervals <- found$holdout_intervals
  d$uncertainty <- u[c("conf.level", "resynthesize", "seed", "level")]
  d
}

# Lines saying what the intervals are, or why none were computed, and what a caveat
# ("*") beside an interval means when one is shown.
interval_lines <- function(u, m, intervals = NULL) {
  if (is.null(u)) return(character(0))
  out <- character(0)
  B <- u$resynthesize %||% 0
  if (B > 0) {
    out <- c(out, sprintf(paste("Intervals from resynthesis: %s%% for each measure's expected value over syntheses from",
                                "the same model, across the %d given and %d drawn syntheses (t with %d degrees of",
                                "freedom%s); the values shown are those of the given syntheses."),
                          format(100 * u$level), m, B, m + B - 1L,
                          if (is.null(u$seed)) "" else paste0("; seed ", u$seed)))
  } else if (!is.null(u$conf.level)) {
    out <- c(out, if (m >= 2) {
      sprintf("Intervals across the %d syntheses: %s%% for the mean of each measure (t with %d degrees of freedom).",
              m, format(100 * u$conf.level), m - 1)
    } else {
      "conf.level asks for intervals across syntheses, which need m >= 2; with one synthesis draw more from its model: resynthesize = B (e.g. 20)."
    })
  }
  out <- c(out, mismatch_lines(u$mismatch))
  if (!is.null(intervals) && any(!is.na(intervals$caveat))) out <- c(out, caveat_line())
  out
}

# The intervals a printout shows: of `measures`, resynthesis's where there are both
# (as interval_of() picks them).
shown_intervals <- function(intervals, measures) {
  if (is.null(intervals)) return(NULL)
  keys <- unique(intervals[intervals$measure %in% measures, intersect(c("target", "measure"), names(intervals)),
                           drop = FALSE])
  rows <- lapply(seq_len(nrow(keys)), function(i) {
    at <- intervals$measure == keys$measure[i]
    if ("target" %in% names(keys)) at <- at & intervals$target == keys$target[i]
    interval_of(intervals[at, , drop = FALSE], keys$measure[i])
  })
  bind_frames(rows)
}

caveat_line <- function() {
  paste("*: the values across syntheses are all equal, reach 0 or 100 %, or are a few whole numbers (definitions",
        "vignette, section 12); such an interval may cover less often than its level: read it as a rough range.")
}

# "2.40 (1.95-2.88)" with an en dash, "*" after it with a caveat; plain numbers where
# there is no interval.
format_interval <- function(estimate, low, high, digits, caveat = NA_character_) {
  ifelse(is.na(low) | is.na(high), format_fixed(estimate, digits),
         paste0(format_fixed(estimate, digits), " (", interval_band(low, high, digits, caveat), ")"))
}

# "1.95-2.88", "*" after it with a caveat.
interval_band <- function(low, high, digits, caveat = NA_character_) {
  paste0(format_fixed(low, digits), "\u2013", format_fixed(high, digits), ifelse(is.na(caveat), "", "*"))
}

format_fixed <- function(v, digits) formatC(round(v, digits) + 0, format = "f", digits = digits)

# The interval of `measure` in `intervals`, preferring resynthesis's when both exist.
interval_of <- function(intervals, measure) {
  if (is.null(intervals)) return(NULL)
  hit <- intervals[intervals$measure == measure, , drop = FALSE]
  if (nrow(hit) == 0) return(NULL)
  hit[order(hit$method != "resynthesized"), , drop = FALSE][1, ]
}

# Rows of tidy() with broom's conf.low and conf.high: each measure's interval (of its
# expected value over syntheses; resynthesis's when there are both) on every synthesis's
# row, conf.method naming it and conf.caveat (NA: none). Unchanged without intervals.
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
  rows$conf.caveat <- pick("caveat", NA_character_)
  rows
}

# tidy(type = "intervals"): every interval of one target, both methods, R's too.
interval_rows <- function(x, part) {
  if (is.null(x$intervals) && is.null(x$holdout_intervals)) {
    cli::cli_abort(c("{.arg x} has no intervals.",
                     i = "Pass {.arg conf.level} (m >= 2) or {.arg resynthesize} to {.fn disclosure} or {.fn multi.disclosure}."),
                   call = rlang::caller_env(2))
  }
  parts <- list(if (!is.null(x$intervals)) cbind(quantity = "measure", x$intervals),
                if (!is.null(x$holdout_intervals)) cbind(quantity = "R", x$holdout_intervals))
  out <- bind_frames(parts)
  cbind(target = rep(x$target, nrow(out)),
        out[c("measure", "quantity", "estimate", "conf.low", "conf.high", "method", "caveat")])
}

# "95% intervals across syntheses" / "95% intervals from resynthesis", for plot
# subtitles.
interval_label <- function(u, method) {
  level <- if (method == "resynthesized") u$level else u$conf.level
  paste0(format(100 * level), "% ", if (method == "resynthesized") "intervals from resynthesis" else
    "intervals across syntheses")
}
