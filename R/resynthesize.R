# More syntheses from the same model (definitions vignette, section 12): with
# `resynthesize = B`, B further synthetic data sets are drawn by the synthesizer (a
# function of the original data returning one synthetic data frame; for a synds object
# by default synthpop's syn() with the object's stored specification), one at a time
# after set.seed(seed), and every measure's interval is the one across all m + B
# syntheses. The front doors run their request once more on the m + B syntheses and
# take its intervals (run_front_door(), tau_curve()).

check_resynthesize <- function(x, call) {
  if (!is.numeric(x) || length(x) != 1 || is.na(x) || !is.finite(x) || x < 0 || x != round(x) || x > 1e4) {
    cli::cli_abort("{.arg resynthesize} must be a whole number of syntheses to draw, from 0 to 10000, not {.code {describe_value(x)}}.",
                   call = call)
  }
  as.integer(x)
}

check_synthesizer <- function(x, call) {
  if (!is.null(x) && !is.function(x)) {
    cli::cli_abort(c("{.arg synthesizer} must be a function of the original data returning one synthetic data frame, not {.code {describe_value(x)}}.",
                     i = "For example {.code function(data) synthpop::syn(data, m = 1, print.flag = FALSE)$syn}."),
                   call = call)
  }
  x
}

# The arguments of synthpop's syn() that reproduce the specification a synds object
# stores (method, visit sequence, predictor matrix, cont.na, smoothing and the rest),
# for one synthesis of the variables it synthesized. syn() stores some of them in
# another form than it takes them: smoothing as a vector ("" for none), event and
# denom as column numbers (0 for none); they go back as the named lists it takes.
synds_syn_arguments <- function(object) {
  stored <- c("method", "visit.sequence", "predictor.matrix", "proper", "k", "rules", "rvalues", "cont.na",
              "semicont", "drop.not.used", "drop.pred.only", "numtocat", "catgroups")
  args <- object[intersect(stored, names(object))]
  vars <- synds_variables(object)
  named_list <- function(x, keep) if (any(keep)) as.list(x[keep]) else NULL
  if (!is.null(object$smoothing)) {
    smoothing <- unlist(object$smoothing)
    args$smoothing <- named_list(smoothing, !is.na(smoothing) & smoothing != "")
  }
  for (field in c("event", "denom")) {
    at <- unlist(object[[field]])
    if (!is.null(at)) {
      keep <- !is.na(at) & at > 0 & at <= length(vars)
      args[[field]] <- if (any(keep)) stats::setNames(as.list(vars[at[keep]]), names(at)[keep])
    }
  }
  args <- args[!vapply(args, is.null, logical(1))]
  c(args, list(m = 1, models = FALSE, print.flag = FALSE))
}

# The variables a synds object's specification is about, in its order.
synds_variables <- function(object) names(object$method) %||% object$obs.vars

# The synthesizer of a request: the user's, or for a synds object synthpop's syn()
# with the object's specification (an error naming `synthesizer` without synthpop).
resolve_synthesizer <- function(synthesizer, object, call) {
  if (!is.null(synthesizer)) return(synthesizer)
  if (!inherits(object, "synds")) {
    cli::cli_abort(c("{.arg resynthesize} draws more syntheses from the model that made {.arg object}; for a data frame or a list of syntheses that model is not known.",
                     i = "Pass {.arg synthesizer}: a function of the original data returning one synthetic data frame."),
                   call = call)
  }
  if (!requireNamespace("synthpop", quietly = TRUE)) {
    cli::cli_abort(c("{.arg resynthesize} draws with synthpop's {.fn syn} by default, and synthpop is not installed.",
                     i = "Install synthpop, or pass {.arg synthesizer}: a function of the original data returning one synthetic data frame."),
                   call = call)
  }
  args <- synds_syn_arguments(object)
  vars <- synds_variables(object)
  function(data) {
    syn <- get("syn", envir = asNamespace("synthpop"))
    out <- do.call(syn, c(list(data = data[intersect(vars, names(data))]), args))
    out$syn
  }
}

# B syntheses of `data` drawn one at a time by `synthesizer` after set.seed(seed) (the
# session's random state restored), with a progress bar when long; each checked to be
# a data frame with the columns `needed`.
draw_syntheses <- function(synthesizer, data, B, seed, needed, call) {
  if (!is.data.frame(data) || is_cell_counts(data)) {
    cli::cli_abort("{.arg resynthesize} needs {.arg data} as records in a data frame, the synthesizer's input.",
                   call = call)
  }
  with_seed(seed, {
    show <- progress_shown()
    bar <- if (show) cli::cli_progress_bar("Drawing syntheses", total = B, clear = TRUE, .envir = environment())
    out <- vector("list", B)
    for (b in seq_len(B)) {
      s <- synthesizer(data)
      if (!is.data.frame(s)) {
        cli::cli_abort("{.arg synthesizer} must return one synthetic data frame; draw {b} returned {.code {describe_value(s)}}.",
                       call = call)
      }
      missing <- setdiff(needed, names(s))
      if (length(missing) > 0) {
        cli::cli_abort("{.arg synthesizer}'s draw {b} lacks {.val {missing}}, needed as in the given syntheses.",
                       call = call)
      }
      out[[b]] <- s
      if (show) cli::cli_progress_update(id = bar, .envir = environment())
    }
    if (show) cli::cli_progress_done(id = bar, .envir = environment())
    out
  })
}

# `object` with the drawn syntheses after its own: a synds object with m + B syntheses
# (its specification kept), or a list of data frames.
with_drawn <- function(object, drawn) {
  if (inherits(object, "synds")) {
    given <- if (object$m == 1 && is.data.frame(object$syn)) list(object$syn) else object$syn
    object$syn <- c(given, drawn)
    object$m <- length(object$syn)
    return(object)
  }
  c(if (is.data.frame(object) || is_db_table(object)) list(object) else object, drawn)
}

# The syntheses drawn for a request with `resynthesize` (its uncertainty `u`), beside
# `object`: with_drawn()'s object.
resynthesized_object <- function(object, data, u, needed, call) {
  synthesizer <- resolve_synthesizer(u$synthesizer, object, call)
  with_drawn(object, draw_syntheses(synthesizer, data, u$resynthesize, u$seed, needed, call))
}

# Where the given syntheses do not look drawn from the synthesizer's model: per target
# and headline measure (repU, DiSCO), the mean of the m given syntheses more than 4
# standard deviations of the B drawn values (B >= 2) from their mean (for values from
# one model, a few in a hundred at B = 4, about one in a thousand at B = 20), or NULL. `runs`: per target, the disclosure of
# the m + B syntheses.
drawn_mismatch <- function(runs, m, B) {
  if (B < 2) return(NULL)
  rows <- list()
  for (tv in names(runs)) {
    d <- runs[[tv]]
    for (me in c("repU", "DiSCO")) {
      v <- if (me == "repU") d$ident$repU else d$attrib$DiSCO
      given <- mean(v[seq_len(m)])
      drawn <- v[m + seq_len(B)]
      far <- abs(given - mean(drawn)) > 4 * stats::sd(drawn)
      if (isTRUE(far)) {
        rows[[length(rows) + 1]] <- data.frame(target = tv, measure = me, given = given, drawn_mean = mean(drawn),
                                               drawn_sd = stats::sd(drawn), stringsAsFactors = FALSE)
      }
    }
  }
  bind_frames(rows)
}

# A line saying where the given syntheses lie outside the drawn ones, or nothing.
mismatch_lines <- function(mismatch) {
  if (is.null(mismatch) || nrow(mismatch) == 0) return(character(0))
  f <- function(v) format_fixed(v, 2)
  what <- paste0(mismatch$measure, " of ", mismatch$target, " ", f(mismatch$given), " (drawn: mean ",
                 f(mismatch$drawn_mean), ", sd ", f(mismatch$drawn_sd), ")")
  paste0("The given syntheses lie far from the drawn ones (more than 4 standard deviations) for ",
         paste(what, collapse = ", "),
         ": the synthesizer may not be the model that made them, and the intervals then describe its model, not theirs.")
}

# An interval table of the run on the m + B syntheses as the intervals of
# resynthesis.
as_resynthesized <- function(intervals) {
  if (is.null(intervals)) return(NULL)
  intervals$method <- "resynthesized"
  intervals
}

# disclosure()/multi.disclosure()'s `result` with the intervals of resynthesis: the
# request run again on `object` with the drawn syntheses (intervals across them at
# u$level), each target's intervals (and R's) taken from that run.
add_resynthesized <- function(result, family, object, cont.na, data, frame, request) {
  u <- request$uncertainty
  bound <- frame_arguments(family, frame)
  more <- resynthesized_object(object, data, u, c(request$keys, request$targets), frame)
  bound$values[c("conf.level", "resynthesize", "synthesizer", "seed", "release", "print.flag")] <-
    list(u$level, 0L, NULL, NULL, FALSE, FALSE)
  if (family == "multi") bound$values$plot <- FALSE
  # The first run has said what it found about labels; the second does not repeat it.
  second <- withr::with_options(list(synthrisk.warn_labels = FALSE), {
    again <- disclosure_request(family, more, cont.na, data, .bound = bound, .env = frame, .call = request$call)
    counted <- run_request(again)
    if (family == "multi") as_multi_disclosure(again, counted) else as_disclosure(again, counted)
  })
  u$drawn <- u$resynthesize
  runs <- if (family == "multi") second$output.list else stats::setNames(list(second), second$target)
  u$mismatch <- drawn_mismatch(runs, length(request$syn), u$resynthesize)
  if (family == "multi") {
    for (tv in names(result$output.list)) {
      d <- result$output.list[[tv]]
      s <- second$output.list[[tv]]
      d$intervals <- bind_frames(list(d$intervals, as_resynthesized(s$intervals)))
      d$holdout_intervals <- bind_frames(list(d$holdout_intervals, as_resynthesized(s$holdout_intervals)))
      d$uncertainty <- u
      result$output.list[[tv]] <- d
    }
    result$intervals <- bind_frames(list(result$intervals, as_resynthesized(second$intervals)))
    result$holdout_intervals <- bind_frames(list(result$holdout_intervals, as_resynthesized(second$holdout_intervals)))
    result$uncertainty <- u
    return(result)
  }
  # Beside those across the given syntheses (conf.level, m >= 2), if any.
  result$intervals <- bind_frames(list(result$intervals, as_resynthesized(second$intervals)))
  result$holdout_intervals <- bind_frames(list(result$holdout_intervals, as_resynthesized(second$holdout_intervals)))
  result$uncertainty <- u
  result
}
