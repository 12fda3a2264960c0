# The curves run multi.disclosure()'s implementation with a plan of their own: the
# syntheses as the multi.disclosure() methods make them, every other argument passed
# on, and print.flag off unless the user asks for it.

curve_syntheses <- function(object, call) {
  if (inherits(object, "synds")) {
    syn <- synthesis_list(object, call = call)
    return(list(syn = syn$syn, cont.na = syn$cont.na, synds = TRUE))
  }
  if (is.data.frame(object) || is_db_table(object)) return(list(syn = list(object), cont.na = NULL, synds = FALSE))
  list(syn = synthesis_list(object, call = call)$syn, cont.na = NULL, synds = FALSE)
}

# The counts of multi.disclosure()'s request with the plan `plan_of(syntheses)`, and
# what the curves read of it; errors name `call`.
run_curve <- function(object, data, keys, targets, dots, plan_of, call) {
  input <- curve_syntheses(object, call)
  if (!"print.flag" %in% names(dots)) dots$print.flag <- FALSE
  # cont.na is an argument for data frames and lists; for a synds object it is an error
  # (the request says so), as in multi.disclosure().
  cont.na <- input$cont.na
  if (!input$synds && "cont.na" %in% names(dots)) {
    cont.na <- dots$cont.na
    dots$cont.na <- NULL
  }
  request <- do.call(disclosure_request, c(list("multi", input$syn, cont.na, data, keys = keys, targets = targets),
                                           dots, list(.env = call, .plan_of = plan_of)))
  counted <- run_request(request)
  enc <- counted$enc
  m <- length(request$syn)
  if (request$output$print.flag) {
    cat(wrap_lines(c(input_lines(counted$input, counted$fetch, timing = TRUE), grouping_lines(enc$grouping %||% list()))),
        sep = "\n")
  }
  list(raw = counted$raw$train, plan = request$plans$train, keys = request$keys, targets = request$targets, m = m,
       n_syn = as.integer(enc$records[1 + seq_len(m)]), n_orig = as.integer(enc$records[1]),
       grouping = enc$grouping %||% list(), denom_lim = request$limits$denom_lim,
       exclude_ov_denom_lim = request$limits$exclude_ov_denom_lim, input = counted$input, database = counted$fetch)
}
