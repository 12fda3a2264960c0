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

# The raw result of multi_disclosure_impl() for `plan_of(syntheses)`; errors name `call`.
run_curve <- function(object, data, keys, targets, dots, plan_of, call) {
  input <- curve_syntheses(object, call)
  if (!"print.flag" %in% names(dots)) dots$print.flag <- FALSE
  # cont.na is an argument for data frames and lists; for a synds object it is an error
  # (multi_disclosure_impl() says so), as in multi.disclosure().
  cont.na <- input$cont.na
  if (!input$synds && "cont.na" %in% names(dots)) {
    cont.na <- dots$cont.na
    dots$cont.na <- NULL
  }
  # Evaluated in `call` (the curve function's frame), which the implementation's errors name.
  do.call(multi_disclosure_impl, c(list(input$syn, cont.na, data, keys = keys, targets = targets), dots,
                                   list(.plan = plan_of)), envir = call)
}
