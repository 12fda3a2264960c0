# The search request: what the front doors that compare records (dcr(),
# identification_risk(), inference_risk(), linkability_risk(), singling_out_risk())
# share, as disclosure_request() (R/request.R) is for the counting family. One request
# is made, checked and encoded in three steps, and each front door fills in its own
# fields (its searches, its options) between them:
#
# 1. search_request(): the syntheses, data, control, cont.na and threads checked once
#    by the one preparation (prepare_inputs(), R/prepare.R), with the sizes;
#    search_common_columns() gives the columns of data that every synthesis has, for
#    the front doors that default to them;
# 2. search_columns(), per column argument (`vars`, `secret`, `aux`, `keys`, ...): the
#    names or numbers resolved against `data`, each named once, present in every
#    synthesis; the resolved names kept in `columns` under the argument's name;
# 3. search_encode(): the variables read, checked once against `control`, encoded by
#    the one encoding (encode_variables(), R/encode.R) with their cont.na codes.
#
# The three attacks say what is missing in their words ("lacks ..."), dcr() and
# identification_risk() in the counting family's ("must have every ..."); the checks
# are the same.

# The front doors whose errors say what a synthesis or `control` "lacks".
attack_front_doors <- c("inference_risk", "linkability_risk", "singling_out_risk")

# A `synthrisk_search_request`: the prepared inputs (syn, m, synds, cont.na, data,
# control, n_threads; see prepare_inputs()), `fn` and `call` for errors, `n` (records
# of data, control and each synthesis) and `columns` (filled by search_columns()).
search_request <- function(object, data, control = NULL, cont.na = NULL, n_threads = NULL, fn, call) {
  inputs <- prepare_inputs(object, data, control = control, cont.na = cont.na, n_threads = n_threads, fn = fn,
                           call = call)
  request <- unclass(inputs)
  request$fn <- fn
  request$call <- call
  request$n <- list(data = nrow(data), control = if (is.null(control)) 0L else nrow(control),
                    synthetic = vapply(inputs$syn, nrow, integer(1)))
  request$columns <- list()
  structure(request, class = "synthrisk_search_request")
}

# The columns of data that every synthesis has, in the order of data.
search_common_columns <- function(request) {
  common <- dataset_names(request$data)
  for (s in request$syn) common <- intersect(common, dataset_names(s))
  common
}

# The column argument `arg` (its value `x`: names or numbers of `data`) resolved to
# names, each once, in every synthesis; kept as `columns[[arg]]` of the request, which
# is returned.
search_columns <- function(request, x, arg) {
  call <- request$call
  if (length(x) == 0) {
    cli::cli_abort("{.arg {arg}} must name at least one variable of {.arg data}.", call = call)
  }
  x <- resolve_columns(x, request$data, arg, call)
  dup <- unique(x[duplicated(x)])
  if (length(dup) > 0) cli::cli_abort("{.arg {arg}} repeats {.val {dup}}.", call = call)
  if (request$fn %in% attack_front_doors) {
    syn <- request$syn
    for (j in seq_along(syn)) {
      bad <- setdiff(x, dataset_names(syn[[j]]))
      if (length(bad) > 0) {
        which <- if (length(syn) > 1) paste("Synthesis", j) else "The synthetic data"
        cli::cli_abort("{which} lacks {.val {bad}} of {.arg {arg}}.", call = call)
      }
    }
  } else {
    check_in_syntheses(x, request$syn, call)
  }
  request$columns[[arg]] <- x
  request
}

# The variables the analysis reads (`vars`, in the order the core receives them)
# checked against `control`, encoded, and their cont.na codes (`label_codes`, doubles
# per variable, as the core's distance tables read them). `cont.na = FALSE` encodes
# without cont.na (identification_risk() matches values as they are). Returns the
# request with `vars`, `enc` and `label_codes`.
search_encode <- function(request, vars, cont.na = TRUE) {
  control <- request$control
  if (request$fn %in% attack_front_doors) {
    check_control(control, vars, request$call, columns = request$columns)
  } else {
    check_control(control, vars, request$call, what = "every variable compared")
  }
  codes <- if (cont.na) request$cont.na
  request$vars <- vars
  request$enc <- encode_variables(vars, request$data, request$syn, codes,
                                  stats::setNames(as.list(rep(0, length(vars))), vars), strict = FALSE,
                                  n_threads = request$n_threads, call = request$call, control = control)
  request$label_codes <- lapply(vars, function(v) as.double(cont_na_codes(codes, v)))
  request
}

# Columns `v` of an encoded request as the core reads a set of columns (the glue's
# search.rs): list(vars (0-based variables of the encoding), label_codes, names).
search_column_set <- function(request, v) {
  k <- match(v, request$vars)
  # The names as a list of strings: the glue reads requests with serde, which takes
  # strings one by one (see the glue's read_request()).
  list(vars = k - 1L, label_codes = unname(request$label_codes[k]), names = as.list(unname(v)))
}
