# The measures as data frames: tidy() one row per target x synthesis x measure, glance()
# one row per target, as.data.frame() the columns of tidy() before `unit` was added.

# One row per synthesis and measure of a `disclosure` object, in the order of ident,
# attrib and allCAPs; a measure held twice (DCAPd) appears once. Measures the object
# does not have (synthpop's objects have fewer) are absent.
measure_rows <- function(x) {
  wide <- do.call(cbind, Filter(Negate(is.null), list(x$ident, x$attrib, x$allCAPs)))
  wide <- wide[, !duplicated(names(wide)) & names(wide) %in% names(measure_group), drop = FALSE]
  m <- nrow(wide)
  measure <- rep(names(wide), each = m)
  data.frame(target = rep(x$target, length(measure)), synthesis = rep(seq_len(m), times = ncol(wide)),
             group = unname(measure_group[measure]), measure = measure, value = unlist(wide, use.names = FALSE),
             unit = unname(measure_unit[measure]),
             definition = ifelse(measure == "TCAP", tcap_definition(x), NA_character_), stringsAsFactors = FALSE)
}

# TCAP means the vignette's DiSCO / DiS in synthrisk's results and DiSCO / iS in
# synthpop 1.9-3's (definitions vignette, section 9), so tables mixing both say which.
tcap_definitions <- c(synthrisk = "DiSCO/DiS (disclosure vignette 2026)", synthpop = "DiSCO/iS (synthpop 1.9-3)")

tcap_definition <- function(x) {
  ours <- inherits(x, "synthrisk_disclosure") || !is.null(x$measures)
  unname(tcap_definitions[if (ours) "synthrisk" else "synthpop"])
}

# The disclosure objects of a multi.disclosure, one per target.
target_results <- function(x) {
  if (is.null(x$output.list)) {
    cli::cli_abort("{.arg x} has no per-target results ({.field output.list}).", call = rlang::caller_env())
  }
  x$output.list
}

bind_rows_of <- function(results, f) {
  out <- do.call(rbind, lapply(results, f))
  rownames(out) <- NULL
  out
}


glance_row <- function(x) {
  long <- measure_rows(x)
  # synthpop 1.9-3's objects hold DCAPd only under its alias (definitions vignette, section 6).
  for (alias in names(measure_aliases)) {
    if (!(measure_aliases[[alias]] %in% long$measure)) long$measure[long$measure == alias] <- measure_aliases[[alias]]
  }
  present <- intersect(glance_measures, long$measure)
  means <- lapply(present, function(measure) mean(long$value[long$measure == measure]))
  names(means) <- present
  check1 <- flag_message(x$check1)
  check2 <- flag_message(x$check2)
  data.frame(target = x$target, Norig = x$Norig, m = x$m %||% nrow(x$ident), keys = paste(x$keys, collapse = ", "),
             means, check_1way = nzchar(check1), check_2way = nzchar(check2), check1 = check1, check2 = check2,
             TCAP_definition = tcap_definition(x), stringsAsFactors = FALSE)
}

# A check message as one string, "" when nothing is flagged.
flag_message <- function(message) {
  message <- unlist(message)
  message <- unique(message[!is.na(message) & nzchar(message)])
  paste(message, collapse = "; ")
}

#' Disclosure measures as data frames
#'
#' `tidy()` gives one row per target, synthesis and measure, with the measure's group
#' and unit; `glance()` one row per target with the headline numbers; `as.data.frame()`
#' the columns of `tidy()` without `unit` (kept for scripts written before `tidy()`).
#' They work on objects made by synthpop 1.9-3 too: measures those objects do not
#' have are absent.
#'
#' @param x A `disclosure` or `multi.disclosure` object (from synthrisk or synthpop).
#' @param type For `tidy()`: `"measures"` (default), or `"holdout"` for the holdout
#'   baseline of an object made with `control` (see [disclosure()]).
#' @param row.names,optional Unused, for the generic.
#' @param ... Unused.
#' @return Data frames.
#'
#'   `tidy()`: `target`, `synthesis` (1 to m), `group` (`"identity"`, `"attribute"`,
#'   `"CAP"`), `measure` (the column names of `ident`, `attrib` and `allCAPs`; `DCAPd`,
#'   held in both `attrib` and `allCAPs`, once), `value`, `unit` (`"%"`, or
#'   `"count"` for `max_denom` and `mean_denom`) and `definition` (see below). See [synthrisk-package] for the
#'   definitions.
#'
#'   `glance()`: `target`, `Norig` (original records), `m` (syntheses), `keys`
#'   (comma-separated), the means over syntheses of `UiO`, `repU`, `Dorig`, `DiSCO`,
#'   `DCAPd` (synthpop's `DCAP`, the same quantity) and `TCAP` (%), `check_1way` and
#'   `check_2way` (`TRUE` when the target needs that check), the check messages
#'   `check1` and `check2` (`""` when none) and `TCAP_definition`.
#'
#'   `TCAP` is defined differently by synthpop 1.9-3 (DiSCO over the records whose
#'   key occurs in the synthetic data, `"DiSCO/iS (synthpop 1.9-3)"`) and by the 2026
#'   disclosure vignette that synthrisk follows (DiSCO over DiS,
#'   `"DiSCO/DiS (disclosure vignette 2026)"`): `tidy()`'s `definition` column (on
#'   the TCAP rows, `NA` on the others) and `glance()`'s `TCAP_definition` say which,
#'   so tables that mix objects of both packages cannot be misread.
#'
#'   `tidy(type = "holdout")`: `target`, `synthesis`, `group`, `measure`, `unit`,
#'   `train` (the measure with `data` as the original), `control` (with `control` as
#'   the original) and `R` (`(r_train - r_control) / (1 - r_control)`, r the measure
#'   as a proportion; `NA` for counts and where r_control is 1).
#'
#'   `as.data.frame()`: `target`, `synthesis`, `group`, `measure`, `value`.
#' @seealso [autoplot.disclosure()] for pictures of the same numbers.
#' @name tidy.disclosure
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' d <- disclosure(sd2011_synds5, sd2011, keys = keys, target = "depress", print.flag = FALSE)
#' head(tidy(d))
#' glance(d)
#'
#' md <- multi.disclosure(sd2011_synds, sd2011, keys = keys, print.flag = FALSE, plot = FALSE)
#' glance(md)
#' subset(tidy(md), measure == "DiSCO")
#' head(as.data.frame(md))
#'
#' # Holdout baseline (sd2011_synds5 was made from all of sd2011, so these control
#' # records were used too; with a real holdout they would not have been)
#' parts <- holdout_split(sd2011, prop = 0.5, seed = 1)
#' dh <- disclosure(sd2011_synds5, parts$train, keys = keys, target = "depress",
#'                  print.flag = FALSE, control = parts$control)
#' subset(tidy(dh, type = "holdout"), measure %in% c("repU", "DiSCO"))
NULL

#' @rdname tidy.disclosure
#' @export
tidy.disclosure <- function(x, type = "measures", ...) {
  rlang::check_dots_empty()
  if (tidy_type(type) == "holdout") return(holdout_rows(x))
  measure_rows(x)
}

#' @rdname tidy.disclosure
#' @export
tidy.multi.disclosure <- function(x, type = "measures", ...) {
  rlang::check_dots_empty()
  if (tidy_type(type) == "holdout") return(bind_rows_of(target_results(x), holdout_rows))
  bind_rows_of(target_results(x), measure_rows)
}

tidy_type <- function(type) {
  check_choice(type, c("measures", "holdout"), "type", rlang::caller_env())
}

# One row per synthesis and measure of the holdout baseline, with group and unit.
holdout_rows <- function(x) {
  if (is.null(x$holdout)) {
    cli::cli_abort(c("{.arg x} has no holdout baseline.",
                     i = "Pass {.arg control}, original records not used for the synthesis, to {.fn disclosure} or {.fn multi.disclosure}."),
                   call = rlang::caller_env(2))
  }
  h <- x$holdout
  data.frame(target = rep(x$target, nrow(h)), synthesis = h$synthesis, group = unname(measure_group[h$measure]),
             measure = h$measure, unit = unname(measure_unit[h$measure]), train = h$train, control = h$control,
             R = h$R, stringsAsFactors = FALSE)
}

#' @rdname tidy.disclosure
#' @export
glance.disclosure <- function(x, ...) {
  rlang::check_dots_empty()
  glance_row(x)
}

#' @rdname tidy.disclosure
#' @export
glance.multi.disclosure <- function(x, ...) {
  rlang::check_dots_empty()
  bind_rows_of(target_results(x), glance_row)
}

#' @rdname tidy.disclosure
#' @export
as.data.frame.disclosure <- function(x, row.names = NULL, optional = FALSE, ...) {
  measure_rows(x)[c("target", "synthesis", "group", "measure", "value")]
}

#' @rdname tidy.disclosure
#' @export
as.data.frame.multi.disclosure <- function(x, row.names = NULL, optional = FALSE, ...) {
  tidy.multi.disclosure(x)[c("target", "synthesis", "group", "measure", "value")]
}

#' @importFrom generics tidy
#' @export
generics::tidy

#' @importFrom generics glance
#' @export
generics::glance
