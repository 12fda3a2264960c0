# Calls into the Rust core. The core does not throw: with extendr's `result_condition`
# feature, a failure comes back as an `extendr_error` condition whose `value` is the
# core's message (classed `synthrisk_rust_error`). It becomes an ordinary R error here,
# and a Ctrl-C that the core noticed between two chunks of work becomes an ordinary R
# interrupt (catchable with `tryCatch(interrupt = )`), with the session left usable.
#
# Every entry point has one shape, declared once in the glue's lib.rs
# (`entry_points!`): `.Call(wrap__rust_x, handle, request)`, `handle` the data it works
# on (the columns to encode, an encoding's pointer, singling out's datasets; NULL when
# none) and `request` one named list, read by the glue into the typed struct of its
# topic's `mod wire`. Each wrapper below names that list's fields.

rust_result <- function(result, call = rlang::caller_env()) {
  if (!is_rust_failure(result)) return(result)
  failure <- result$value
  if (inherits(failure, "synthrisk_rust_interrupt")) {
    rlang::interrupt()
  }
  message <- if (is.list(failure)) failure$message else as.character(failure)
  cli::cli_abort(c("The synthrisk core could not compute the measures.", x = "{message}"), call = call)
}

is_rust_failure <- function(result) inherits(result, "extendr_error")

# Per variable of `vars` and dataset of `datasets` (a list of data frames), what the
# preparation asks of each column (see column_facts(), R/column-facts.R).
rust_column_facts <- function(datasets, vars) {
  crossed(.Call(wrap__rust_column_facts, datasets, list(vars = as.list(unname(vars)))))
}

# Encodes the variables; then, as R's `factor()` does, doubles that `as.character()`
# labels alike (15 significant digits, e.g. 0.1 + 0.2 and 0.3) become one level, the
# smallest value standing for it (definitions vignette 2.2). R's own `as.character()` decides, under the
# session's options, for the levels the core found close enough to print alike
# (`close_pairs`; labels that agree imply a relative gap below 1e-14), so the levels
# are those of `factor()` without printing every value.
rust_encode_variables <- function(vars, n_threads) {
  merge_look_alike_levels(crossed(.Call(wrap__rust_encode_variables, vars, list(n_threads = n_threads))), n_threads)
}

# The encoding of rust_encode_variables() and, in the same call, the raw counts of
# `calls` (each list(keys, use_keys_na, targets, plan), as rust_compute() takes them),
# or `raw` NULL when look-alike doubles had to be merged first (then the caller
# computes on the merged encoding).
rust_encode_compute <- function(vars, n_threads, calls) {
  res <- crossed(.Call(wrap__rust_encode_compute, vars, list(n_threads = n_threads, calls = calls)))
  if (is_rust_failure(res)) return(res)
  encoding <- merge_look_alike_levels(res$encoding, n_threads)
  if (is_rust_failure(encoding)) return(encoding)
  encoding$raw <- res$raw
  encoding
}

# Every variable with look-alike levels merged in one call.
merge_look_alike_levels <- function(res, n_threads) {
  if (is_rust_failure(res)) return(res)
  merges <- list()
  for (i in seq_along(res$info)) {
    close <- res$info[[i]]$close_pairs
    res$info[[i]]$close_pairs <- NULL
    if (length(close) == 0) next
    values <- res$info[[i]]$numeric_levels
    near <- sort(unique(c(close, close + 1)))
    labels <- as.character(values[near])
    first_of <- seq_along(values)
    first_of[near] <- near[match(labels, labels)]
    if (all(first_of == seq_along(values))) next
    merges[[length(merges) + 1L]] <- list(var = i - 1L, first_of = as.integer(first_of - 1L),
                                          integer_kind = is.integer(values))
  }
  if (length(merges) == 0) return(res)
  infos <- rust_merge_numeric_levels(res$ptr, merges, n_threads)
  if (is_rust_failure(infos)) return(infos)
  for (k in seq_along(merges)) {
    info <- infos[[k]]
    info$close_pairs <- NULL
    res$info[[merges[[k]]$var + 1L]] <- info
  }
  res
}

# Merges, in the encoding, the numeric levels of each of `merges` (list(var, first_of,
# integer_kind), 0-based) that R labels alike; the merged variables' new info.
rust_merge_numeric_levels <- function(encoded, merges, n_threads) {
  crossed(.Call(wrap__rust_merge_numeric_levels, encoded, list(merges = merges, n_threads = n_threads)))
}

# Per dataset, the records at each level of variable `var` (0-based); `weights` per
# dataset NULL or the records each row stands for (doubles).
rust_level_counts <- function(encoded, var, weights) {
  crossed(.Call(wrap__rust_level_counts, encoded, list(var = var, weights = weights)))
}

# `plan`: NULL (dataset 0 is the original, every other encoded dataset a synthesis) or
# list(original = 0-based dataset, syntheses = list(list(dataset = 0-based, rows = NULL
# or 1-based subsample rows), ...), tau = double vector, possibly empty).
rust_compute <- function(encoded, keys, use_keys_na, targets, n_threads, plan = NULL) {
  crossed(.Call(wrap__rust_compute, encoded, list(keys = keys, use_keys_na = use_keys_na, targets = targets,
                                                 plan = plan, n_threads = n_threads)))
}

# The measures of many subsets of keys on an encoding (key_sweep()): `keys`,
# `use_keys_na`, `targets` one element per subset (0-based variables, flags, the
# targets' requests); `weights` NULL or per dataset. Returns list(values = per subset,
# target and synthesis the values of `measures`, measures).
rust_key_subsets <- function(encoded, keys, use_keys_na, targets, weights, n_threads) {
  crossed(.Call(wrap__rust_key_subsets, encoded, list(keys = keys, use_keys_na = use_keys_na, targets = targets,
                                                     weights = weights, n_threads = n_threads)))
}

# Per synthesis, list(c = matches of each original record, t = whether its own row
# matches); see identification_risk(). `exact`, `within`: 0-based variables of the
# encoding matched exactly and within `radius` (with `relative`).
rust_identification <- function(encoded, exact, within, radius, relative, n_threads) {
  crossed(.Call(wrap__rust_identification, encoded, list(exact = exact, within = within, radius = radius,
                                                        relative = relative, n_threads = n_threads)))
}

# Nearest records under the Gower distance (definitions vignette 11) on an encoding:
# the set of `columns` compared, list(vars (0-based, column order of `data`),
# label_codes (their cont.na codes), names), with Gower's `variable_weights`; `searches`
# list(indexed, queries, second) of 0-based datasets. Returns list(searches = per
# search list(distance, row, second), numeric, ranges).
rust_dcr <- function(encoded, columns, variable_weights, searches, n_threads) {
  crossed(.Call(wrap__rust_dcr, encoded, list(columns = columns, variable_weights = variable_weights,
                                               searches = searches, n_threads = n_threads)))
}

# list(q = per dataset, each record's q (1-based); counts = per dataset, rows of each q).
rust_record_keys <- function(encoded, keys, n_threads) {
  crossed(.Call(wrap__rust_record_keys, encoded, list(keys = keys, n_threads = n_threads)))
}

# Record-level counts and flags of one target (a request as target_request() makes it),
# per synthesis: list(original = ..., synthetic = ...).
rust_records <- function(encoded, keys, use_keys_na, target, n_threads) {
  crossed(.Call(wrap__rust_records, encoded, list(keys = keys, use_keys_na = use_keys_na, target = target,
                                                   n_threads = n_threads)))
}

# Every crossing into the core is marked by crossed(), which returns the core's value:
# one place to count them (tests trace it).
crossed <- function(value) value

# The attacks of definitions vignette 13. `searches`: list(indexed, queries, rows): the
# synthesis searched and the dataset of the targets (0-based datasets of the encoding),
# and the 0-based target rows (see attack_searches()). A set of columns is
# list(vars (0-based variables of the encoding), label_codes (cont.na codes per
# variable), names). Inference: `groups` of secrets sharing their auxiliary columns,
# each list(aux, secrets) (two sets of columns), searched once per group; `tolerance`
# (NULL: exact). Returns per group list(searches = per search, per secret
# list(success, set_size, distance, baseline), secret_numeric).
rust_inference <- function(encoded, groups, tolerance, searches, n_threads) {
  crossed(.Call(wrap__rust_inference, encoded, list(groups = groups, tolerance = tolerance, searches = searches,
                                                     n_threads = n_threads)))
}

# Linkability: each owner's set of columns (`side_a`, `side_b`), the neighbours listed
# on each side, the searches; per search list(success, any, a, alpha, b, beta,
# baseline).
rust_linkability <- function(encoded, side_a, side_b, n_neighbors, searches, n_threads) {
  crossed(.Call(wrap__rust_linkability, encoded, list(side_a = side_a, side_b = side_b, n_neighbors = n_neighbors,
                                                       searches = searches, n_threads = n_threads)))
}

# Singling out: the datasets distinct on `vars` behind a pointer, with list(ptr,
# numeric, rows, distinct); then queries (list(query, column, op, value), columns
# 0-based, operators coded as in so_ops) generated, or evaluated on `datasets`
# (each evaluated_on() a dataset).
rust_singling_out_data <- function(encoded, vars, missing_levels, n_threads) {
  crossed(.Call(wrap__rust_singling_out_data, encoded, list(vars = vars, missing_levels = missing_levels,
                                                             n_threads = n_threads)))
}

rust_singling_out_univariate <- function(ptr, k) {
  crossed(.Call(wrap__rust_singling_out_univariate, ptr, list(dataset = k)))
}

# Multivariate queries on `dataset` from attempts drawn from R's `uniforms`, after the
# queries `kept`, until `wanted` are kept or `attempts_left` are spent; see
# multivariate_queries().
rust_singling_out_generate <- function(ptr, dataset, uniforms, rounding, n_cols, medians, kept, wanted, attempts_left,
                                       n_threads) {
  crossed(.Call(wrap__rust_singling_out_generate, ptr, list(dataset = dataset, uniforms = uniforms, rounding = rounding,
                                                            n_cols = n_cols, medians = medians, kept = kept,
                                                            wanted = wanted, attempts_left = attempts_left,
                                                            n_threads = n_threads)))
}

# A dataset of singling out (0-based) that queries are evaluated on: all its distinct
# records, or those at the 0-based `positions`.
evaluated_on <- function(dataset, positions = NULL) list(dataset = dataset, positions = positions)

rust_singling_out_evaluate <- function(ptr, queries, datasets, n_threads) {
  crossed(.Call(wrap__rust_singling_out_evaluate, ptr, list(queries = queries, datasets = datasets,
                                                           n_threads = n_threads)))
}

# The measures as the core declares them (see R/measure-declarations.R).
rust_measure_declarations <- function() {
  crossed(.Call(wrap__rust_measure_declarations, NULL, list()))
}

# The 2-way check's tables of every target (two_way_checks(), R/two-way-checks.R):
# `handle` is list(pairs = each target's `two_way` counts, target_labels, key_labels,
# keys, key_names); `ranks` NULL (each target's labels in byte order) or the labels'
# ranks in the locale, in the order a first call returned them.
rust_two_way_tables <- function(handle, m, threshold, ranks = NULL) {
  crossed(.Call(wrap__rust_two_way_tables, handle, list(m = as.integer(m), threshold = as.double(threshold),
                                                         ranks = ranks)))
}

# Each target's `disclosure` components from its counts (build_disclosures(),
# R/disclosure-result.R): `handle` is list(raws, two, target_labels, targets, keys,
# digits, to.print, call, component_names, component_core_names, exclusion_dimnames).
rust_disclosure_parts <- function(handle, m, thresh_1way) {
  crossed(.Call(wrap__rust_disclosure_parts, handle, list(m = as.integer(m), thresh_1way = as.double(thresh_1way))))
}
