# The one run of a request (R/request.R): its targets counted in groups
# (count_targets()), every plan of the request (train, control, the curves' plan) run
# by the core for each group, and the record-level counts when the request asks.
# Returns count_targets()'s list: `raw` per plan name (and `records`), the merged
# encoding, `input` and `fetch`.
run_request <- function(request) {
  if (request$family == "keys") return(run_keys_request(request))
  counted <- count_targets(request, precompute = function(before, group) {
    # A run long enough for a progress bar is counted in batches after the encoding.
    if (wants_progress(request_work(request, group))) NULL else unname(core_calls(before, request, group))
  }, run_group = function(enc, group) {
    # The counts made with the encoding, or made now on it: the same calls either way.
    raw <- enc$raw %||% lapply(core_calls(enc, request, group), run_call, enc = enc, request = request)
    out <- lapply(stats::setNames(raw, names(request$plans)), function(r) stats::setNames(r, group))
    if (request$records || isTRUE(request$release)) {
      options <- request$target_options[match(group, request$targets)]
      out$records <- lapply(options, function(o) {
        rust_result(rust_records(enc$ptr, match(request$keys, enc$vars) - 1L, as.logical(request$usekeysNA),
                                 target_request(o, enc, request), request$n_threads), call = request$env)
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

# The core's calls for every plan of the request on the targets of `group`, named by
# plan: made from the encoding, or from what is known before it (list(vars, labels,
# weights)), when they cross to the core with the encoding. NULL when an exclusion
# names a level not labelled before the encoding (a numeric variable's).
core_calls <- function(enc, request, group) {
  options <- request$target_options[match(group, request$targets)]
  targets <- lapply(options, target_request, enc = enc, request = request)
  if (any(vapply(targets, is.null, logical(1)))) return(NULL)
  lapply(request$plans, function(plan) {
    list(keys = match(request$keys, enc$vars) - 1L, use_keys_na = as.logical(request$usekeysNA),
         targets = targets, plan = plan_with_weights(plan, enc$weights))
  })
}

# One call of core_calls() counted on the encoding, in batches with a progress bar
# when long.
run_call <- function(call, enc, request) {
  n_targets <- length(call$targets)
  count <- function(plan) {
    raw <- rust_result(rust_compute(enc$ptr, call$keys, call$use_keys_na, call$targets, request$n_threads, plan),
                       call = request$env)
    stats::setNames(raw, seq_len(n_targets))
  }
  raw <- if (wants_progress(plan_work(call$plan, enc$records, n_targets))) {
    run_core_in_batches(count, call$plan, n_targets, "Counting resamples")
  } else {
    count(call$plan)
  }
  unname(raw)
}

# Rows counted by every plan of the request for the targets of `group`.
request_work <- function(request, group) {
  sum(vapply(request$plans, plan_work, 0, n_rows = dataset_rows(request), n_targets = length(group)))
}

# disclosure() and multi.disclosure(): a request of the arguments bound in the front
# door's frame (`frame`, see front_door()), run, and its result. Errors name the
# method's call.
run_front_door <- function(family, object, cont.na, data, frame) {
  # Unclassed: the steps below read it some 60 times a call, and `$` on a classed list
  # looks for a method each time.
  request <- unclass(disclosure_request(family, object, cont.na, data, .bound = frame_arguments(family, frame),
                                        .env = frame, .call = sys.call(-1)))
  counted <- run_request(request)
  result <- if (family == "multi") as_multi_disclosure(request, counted) else as_disclosure(request, counted)
  if (request$uncertainty$resynthesize > 0) {
    result <- add_resynthesized(result, family, object, cont.na, data, frame, request)
  }
  result
}
