# The one run of a request (R/request.R): its targets counted in groups
# (count_targets()), every plan of the request (train, control, the curves' plan) run
# by the core for each group, and the record-level counts when the request asks.
# Returns count_targets()'s list: `raw` per plan name (and `records`), the merged
# encoding, `input` and `fetch`.
run_request <- function(request) {
  if (request$family == "keys") return(run_keys_request(request))
  counted <- count_targets(request, precompute = function(before, group) core_calls(before, request, group),
                run_group = function(enc, group) {
    options <- request$target_options[match(group, request$targets)]
    out <- if (!is.null(enc$raw)) {
      lapply(stats::setNames(enc$raw, names(request$plans)), function(raw) stats::setNames(raw, group))
    } else {
      lapply(request$plans, function(plan) run_core(enc, request, options, plan))
    }
    if (request$records || isTRUE(request$release)) {
      out$records <- lapply(options, function(o) {
        one <- target_request(o, enc, request, original = 0L)
        rust_result(rust_records(enc$ptr, match(request$keys, enc$vars) - 1L, as.logical(request$usekeysNA), one,
                                 request$n_threads), call = request$env)
      })
      names(out$records) <- group
    }
    out
  })
  if (isTRUE(request$release)) {
    pooled <- pooled_request(request)
    counted$pooled <- list(request = pooled, counted = run_request(pooled))
  }
  counted
}

# A request on keys alone: the encoding and, per dataset, each record's key combination
# q and the records of each q (`record_keys`, see rust_record_keys()).
run_keys_request <- function(request) {
  enc <- encode_variables(request$keys, request$data, request$syn, NULL, request$ngroups, strict = request$strict,
                          n_threads = request$n_threads, call = request$env)
  list(enc = enc, record_keys = rust_result(rust_record_keys(enc$ptr, seq_along(request$keys) - 1L, request$n_threads),
                                            call = request$env))
}

# The calls of rust_compute() for every plan of the request, made before the encoding
# (`before`: list(vars, labels, weights), labels NULL for numeric variables) so that
# the encoding and the counting cross to the core once; NULL when an exclusion names a
# level of a variable not yet labelled.
core_calls <- function(before, request, group) {
  options <- request$target_options[match(group, request$targets)]
  # A run long enough for a progress bar is counted in batches after the encoding.
  work <- sum(vapply(request$plans, plan_work, 0, n_rows = dataset_rows(request), n_targets = length(options)))
  if (wants_progress(work)) return(NULL)
  calls <- lapply(request$plans, function(plan) {
    targets <- lapply(options, target_request, enc = before, request = request, original = plan$original %||% 0L)
    if (any(vapply(targets, is.null, logical(1)))) return(NULL)
    list(keys = match(request$keys, before$vars) - 1L, use_keys_na = as.logical(request$usekeysNA),
         targets = targets, plan = plan_with_weights(plan, before$weights))
  })
  if (any(vapply(calls, is.null, logical(1)))) NULL else unname(calls)
}

# The core's counts of `options` (targets of one group) under `plan` (NULL: the
# original against each synthesis), named by target.
run_core <- function(enc, request, options, plan) {
  requests <- lapply(options, target_request, enc = enc, request = request, original = plan$original %||% 0L)
  plan <- plan_with_weights(plan, enc$weights)
  targets <- vapply(options, function(o) o$target, character(1))
  count <- function(plan) {
    raw <- rust_result(rust_compute(enc$ptr, match(request$keys, enc$vars) - 1L, as.logical(request$usekeysNA),
                                    requests, request$n_threads, plan),
                       call = request$env)
    stats::setNames(raw, targets)
  }
  if (wants_progress(plan_work(plan, enc$records, length(options)))) {
    return(run_core_in_batches(count, plan, length(options), "Counting resamples"))
  }
  count(plan)
}

# disclosure() and multi.disclosure(): a request of the arguments bound in the front
# door's frame (`frame`, see front_door()), run, and its result. Errors name the
# method's call.
run_front_door <- function(family, object, cont.na, data, frame) {
  request <- disclosure_request(family, object, cont.na, data, .bound = frame_arguments(family, frame), .env = frame,
                                .call = sys.call(-1))
  counted <- run_request(request)
  if (family == "multi") as_multi_disclosure(request, counted) else as_disclosure(request, counted)
}
