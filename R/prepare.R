# The one preparation. Every front door -- synthpop's family (through
# disclosure_request()), the curves, record_risk(), replicated.uniques(),
# identification_risk(), dcr() and the report -- hands its synthetic data, original,
# control records, cont.na and threads to prepare_inputs(), which checks each once and
# returns a `synthrisk_inputs`. The variables are then encoded by encode_variables()
# (R/encode.R), the one encoding, whatever the analysis counts or searches.

# `object`: a synds, a data frame, a database table or a list of those; `records`: the
# analysis needs the records themselves (counted cells and database tables refused,
# naming `fn`); `cont.na`: the argument (NULL when not given), an error for a synds,
# which brings its own. Returns list(syn (a list), m, synds, cont.na (normalised), data,
# control, n_threads).
prepare_inputs <- function(object, data, control = NULL, cont.na = NULL, n_threads = NULL, fn, call,
                           records = TRUE) {
  if (records) {
    refuse_counted(object, "object", fn, call)
    refuse_counted(data, "data", fn, call)
    if (!is.null(control)) refuse_counted(control, "control", fn, call)
  }
  info <- synthesis_list(object, call = call)
  synds <- inherits(object, "synds")
  if (synds && !is.null(cont.na)) abort_cont_na_of_synds(fn, call)
  if (records) check_data_frame(data, "data", call) else check_dataset(data, "data", call)
  check_syntheses(info$syn, call)
  if (!is.null(control)) {
    if (records) check_data_frame(control, "control", call) else check_dataset(control, "control", call)
  }
  cont.na <- normalise_cont_na(if (synds) info$cont.na else cont.na, call)
  if (!synds) check_cont_na_names(cont.na, data, call)
  structure(list(syn = info$syn, m = length(info$syn), synds = synds, cont.na = cont.na,
                 data = data, control = control, n_threads = resolve_threads(n_threads, call)),
            class = "synthrisk_inputs")
}

# The variables whose codes `cont.na` (the argument, normalised) lists must be variables
# of `data`, as synthpop requires: a misspelled name would otherwise leave its codes
# counted as values. Entries without codes change nothing and may name any variable,
# so that syn()'s lists (every variable it was given, most with NA) serve data holding
# fewer columns, such as counted cells. A synds object's own cont.na is not checked
# (nor in synthpop).
check_cont_na_names <- function(cont.na, data, call) {
  with_codes <- names(cont.na)[lengths(cont.na) > 0]
  bad <- setdiff(with_codes, dataset_names(data))
  if (length(bad) == 0) return(invisible())
  cli::cli_abort(c("{.arg cont.na} names {?a variable/variables} not in {.arg data}: {.val {show_values(bad)}}.",
                   did_you_mean(bad, dataset_names(data)),
                   i = "Each name of {.arg cont.na} is a numeric variable of {.arg data} whose special codes it lists."),
                 call = call)
}

# A synds object brings its own cont.na; one given beside it would be ignored.
abort_cont_na_of_synds <- function(fn, call) {
  cli::cli_abort(c("{.arg cont.na} is taken from the {.cls synds} object ({.field object$cont.na}).",
                   i = "To use other codes, pass the syntheses as data frames: {.code {fn}(object$syn, data, cont.na = ...)}."),
                 call = call)
}

#' @export
print.synthrisk_inputs <- function(x, ...) {
  cat(sprintf("<synthrisk inputs: %d synthes%s%s%s, %d thread%s>\n", x$m, if (x$m == 1) "is" else "es",
              if (x$synds) " (synds)" else "", if (!is.null(x$control)) ", with control" else "", x$n_threads,
              if (x$n_threads == 1) "" else "s"))
  invisible(x)
}
