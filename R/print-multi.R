# Printing a `multi.disclosure` (ours or one made by synthpop 1.9-3), to standard output.

multi_print_choices <- c("ident", "attrib", "checks", "holdout", "all")

#' Print or format a multi-target disclosure summary
#'
#' Everything goes to standard output (see [print.disclosure()]). Arguments are in
#' synthpop 1.9-3's order; `NULL` takes the object's stored value.
#'
#' @param x A `multi.disclosure` object (from synthrisk or synthpop).
#' @param digits Digits for the measures; `NULL`: the object's `digits`.
#' @param plot Whether to draw `attrib.plot`; `NULL`: the object's `plot`.
#' @param to.print Any of `"ident"` (identity measures), `"attrib"` (the attribute
#'   table), `"checks"` (the 1-way and 2-way check tables of the flagged targets),
#'   `"holdout"` (per target, the summary's identity and attribute measures with the
#'   training and the control records as the original, and R) or `"all"`. The
#'   default shows `"holdout"` too when the object has a holdout baseline.
#' @param ... Unused.
#' @return `print()`: `x`, invisibly. `format()`: a character vector of lines.
#' @rdname print.multi.disclosure
#' @aliases print.multi.disclosure format.multi.disclosure
#' @export
#' @examples
#' md <- multi.disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region", "placesize"),
#'                        targets = c("depress", "workab"), print.flag = FALSE, plot = FALSE)
#' md
#' print(md, to.print = "all", digits = 1)
print.synthrisk_multi.disclosure <- function(x, digits = NULL, plot = NULL, to.print = c("ident", "attrib"), ...) {
  if (missing(to.print)) to.print <- multi_default_to_print(x)
  cat(format.synthrisk_multi.disclosure(x, digits = digits, to.print = to.print, ...), sep = "\n")
  plot <- plot %||% x$plot %||% FALSE
  check_flag(plot, "plot", rlang::current_env())
  if (plot) {
    p <- tryCatch(autoplot.multi.disclosure(x), error = function(e) NULL)
    if (!is.null(p)) print(p)
  }
  invisible(x)
}

#' @rdname print.multi.disclosure
#' @export
format.synthrisk_multi.disclosure <- function(x, digits = NULL, to.print = c("ident", "attrib"), ...) {
  env <- rlang::current_env()
  if (missing(to.print)) to.print <- multi_default_to_print(x)
  to.print <- check_choices(to.print, multi_print_choices, "to.print", env)
  digits <- digits %||% x$digits %||% 2
  check_digits(digits, env)
  if ("all" %in% to.print) to.print <- setdiff(multi_print_choices, c("all", if (is.null(x$holdout)) "holdout"))
  cli::cli_format_method(multi_disclosure_cli(x, to.print, digits))
}

multi_default_to_print <- function(x) {
  c("ident", "attrib", if (!is.null(x$holdout)) "holdout")
}

multi_targets <- function(x) {
  names(x$output.list) %||% table_targets(x)
}

multi_disclosure_cli <- function(x, to.print, digits) {
  m <- x$m %||% 1
  tab <- x$attrib.table
  attrib.meas <- x$attrib.meas %||% default_attrib_meas
  cols <- attrib_meas_columns[[attrib.meas]] %||% c("original", attrib.meas)
  ident.meas <- x$ident.meas %||% default_ident_meas
  ident_col <- ident_meas_columns[[ident.meas]] %||% ident.meas
  cli::cli_h1("Disclosure risk for {nrow(tab)} target{?s}")
  cli::cli_text("Keys: {.val {x$keys}}; {x$Norig} record{?s} in the original data; {m} synthes{?is/es}",
                if (m > 1) " (measures of the synthetic data are means over them)." else ".")
  if ("ident" %in% to.print) {
    cli::cli_h2("Identity disclosure, % of records: UiO in the original, {ident_col} in the synthetic data")
    ident <- data.frame(UiO = x$ident.orig, x$ident.syn)
    names(ident)[2] <- ident_col
    if (nrow(unique(ident)) == 1) {
      cli::cli_text("For original (UiO): {round(ident$UiO[1], digits)} %; for synthetic ({ident_col}):",
                    " {round(ident[[2]][1], digits)} % (the same for all targets).")
    } else {
      rownames(ident) <- multi_targets(x)
      cli_table(round_frame(ident, digits))
    }
  }
  if ("attrib" %in% to.print) {
    cli::cli_h2("Attribute disclosure, % of records: {cols[1]} in the original, {cols[2]} in the synthetic data")
    cli::cli_text("Targets ordered by the synthetic measure.")
    shown <- tab
    names(shown)[1:2] <- c(cols[1], cols[2])
    cli_table(round_frame(shown, digits))
  }
  if ("checks" %in% to.print) {
    flagged <- Filter(function(d) has_check(d$check1) || has_check(d$check2), x$output.list %||% list())
    cli::cli_h2("Checks for disclosure that background knowledge may explain")
    if (is.null(x$output.list)) {
      cli::cli_text("This object has no per-target results ({.field output.list}).")
    } else if (length(flagged) == 0) {
      cli::cli_text("No target needs checks.")
    }
    for (d in flagged) {
      cli::cli_h3("Target {.val {d$target}}")
      if (has_check(d$check1)) check_1way_cli(d, digits)
      if (has_check(d$check2)) check_2way_cli(d, digits)
    }
  }
  if ("holdout" %in% to.print) multi_holdout_cli(x, digits)
  # Preparation, notes and the check warning belong to the summary (identity and
  # attribute tables together, as by default); a narrower choice shows what it names.
  summary <- all(c("ident", "attrib") %in% to.print)
  prep <- if (summary) x$notes %||% character(0) else character(0)
  prep_lines <- if (summary) multi_preparation_lines(x) else character(0)
  prep_lines <- prep_lines[!prep_lines %in% (note_of(x, "adjusted") %||% character(0))]
  if (length(prep_lines) > 0) {
    cli::cli_h2("Data preparation")
    for (line in prep_lines) cli::cli_bullets(c("*" = escape_braces(line)))
  }
  notes <- c(prep, if (summary) synthpop_object_notes(x))
  if (length(notes) > 0) {
    cli::cli_h2("Notes")
    note_bullets(notes)
  }
  if (summary && !"checks" %in% to.print && (any(nzchar(tab$check1)) || any(nzchar(tab$check2)))) {
    with_checks <- table_targets(x)[nzchar(tab$check1) | nzchar(tab$check2)]
    cli::cli_alert_warning("Targets that need checks: {.val {with_checks}}.", wrap = TRUE)
    cli::cli_bullets(c(" " = paste0(
      "Some of their disclosive records may be explained by background",
      " knowledge (1-way: one target level makes up most disclosive records; 2-way: a key level almost always",
      " has one target level). See {.code print(x, to.print = \"checks\")}.")))
  }
}

# An object made by synthpop 1.9-3 shows NA where it read a column that does not exist.
synthpop_object_notes <- function(x) {
  if (!is.null(x$notes)) return(character(0))
  out <- character(0)
  if (all(is.na(x$ident.syn))) {
    out <- c(out, paste0("The synthetic identity measure is NA: synthpop 1.9-3 computes nothing for ident.meas = \"",
                         x$ident.meas, "\"; synthrisk's multi.disclosure() reports it."))
  }
  if (all(is.na(x$attrib.table$attrib.orig))) {
    out <- c(out, paste("The original measure is NA: synthpop 1.9-3 reads a column that does not exist for",
                        "attrib.meas = \"DiSDiO\"; synthrisk reports Dorig."))
  }
  out
}
