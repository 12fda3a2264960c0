# A progress bar (cli) for runs of many views (the size curve's subsamples) that take
# more than a few seconds, and for drawing syntheses (resynthesize): the views are then
# counted in batches, one core call each, the bar moving between them. A view's numbers
# do not depend on the views counted beside it, so batches change no number. Shown in
# interactive sessions outside knitr, or whenever option synthrisk.progress is TRUE;
# never with synthrisk.progress = FALSE.

# Row-target units above which a run is long enough for a bar (about 2 seconds).
progress_min_work <- 5e7

wants_progress <- function(work) {
  if (work == 0) return(FALSE)
  if (isTRUE(getOption("synthrisk.progress"))) return(TRUE)
  progress_shown() && work > progress_min_work
}

# Whether a bar may be shown at all.
progress_shown <- function() {
  asked <- getOption("synthrisk.progress")
  if (isFALSE(asked)) return(FALSE)
  isTRUE(asked) || (interactive() && !isTRUE(getOption("knitr.in.progress")))
}

# The rows a plan counts for `n_targets` targets: each view's rows (the original's
# once per view).
plan_work <- function(plan, n_rows, n_targets) {
  if (is.null(plan) || length(plan$syntheses) < 2) return(0)
  view_rows <- vapply(plan$syntheses, function(v) if (is.null(v$rows)) n_rows[v$dataset + 1L] else length(v$rows), 0)
  sum(view_rows + n_rows[plan$original + 1L]) * n_targets
}

# A core call (run_call()) in batches of views with a progress bar; the raw results merged in view
# order as one call would return them.
run_core_in_batches <- function(count, plan, n_targets, label) {
  n <- length(plan$syntheses)
  batches <- split(seq_len(n), ceiling(seq_len(n) / max(1L, ceiling(n / 20))))
  bar <- cli::cli_progress_bar(label, total = n, clear = TRUE, .envir = environment())
  parts <- vector("list", length(batches))
  for (k in seq_along(batches)) {
    part <- plan
    part$syntheses <- plan$syntheses[batches[[k]]]
    parts[[k]] <- count(part)
    cli::cli_progress_update(id = bar, inc = length(batches[[k]]), .envir = environment())
  }
  cli::cli_progress_done(id = bar, .envir = environment())
  targets <- names(parts[[1]])
  stats::setNames(lapply(targets, function(tv) merge_raw(lapply(parts, `[[`, tv), lengths(batches))), targets)
}

# One target's raw results of consecutive batches of views, as one call would give them:
# per-view columns concatenated, the 2-way pairs' synthesis numbers shifted.
merge_raw <- function(parts, sizes) {
  offsets <- c(0L, cumsum(sizes))[seq_along(sizes)]
  cat_field <- function(field) {
    lapply(stats::setNames(names(parts[[1]][[field]]), names(parts[[1]][[field]])), function(col) {
      unlist(lapply(parts, function(p) p[[field]][[col]]), use.names = FALSE)
    })
  }
  two_way <- cat_field("two_way")
  two_way$synthesis <- unlist(lapply(seq_along(parts), function(k) parts[[k]]$two_way$synthesis + offsets[k]),
                              use.names = FALSE)
  out <- parts[[1]]
  out$stats <- cat_field("stats")
  out$nexcl <- cat_field("nexcl")
  out$one_way <- cat_field("one_way")
  out$two_way <- two_way
  out$tau_syn <- unlist(lapply(parts, `[[`, "tau_syn"), use.names = FALSE)
  out$tau_orig <- unlist(lapply(parts, `[[`, "tau_orig"), use.names = FALSE)
  out
}

# Rows of the request's datasets held in R (original, syntheses, control; 0 for a
# database table).
dataset_rows <- function(request) {
  vapply(c(list(request$data), request$syn, if (!is.null(request$control)) list(request$control)),
         function(x) if (is.data.frame(x)) as.double(nrow(x)) else 0, 0)
}
