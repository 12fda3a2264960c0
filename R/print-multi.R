multi_print_choices <- c("ident", "attrib", "checks", "all")

#' Print a multi-target disclosure summary
#'
#' @param x A `multi.disclosure` object (from synthrisk or synthpop).
#' @param digits Digits for the measures.
#' @param plot Whether to draw `attrib.plot`.
#' @param to.print Any of `"ident"` (identity measure per target), `"attrib"` (the
#'   attribute table), `"checks"` (the 1-way and 2-way check tables of the flagged
#'   targets) or `"all"`.
#' @param ... Unused.
#' @return `x`, invisibly.
#' @export
print.multi.disclosure <- function(x, digits = x$digits %||% 2, plot = x$plot %||% FALSE,
                                   to.print = c("ident", "attrib"), ...) {
  if (!is.character(to.print) || !all(to.print %in% multi_print_choices)) {
    cli::cli_abort("{.arg to.print} must be some of {.val {multi_print_choices}}, not {.val {show_values(to.print)}}.")
  }
  if ("all" %in% to.print) to.print <- multi_print_choices[-4]
  m <- x$m %||% 1
  tab <- x$attrib.table
  cols <- attrib_meas_columns[[x$attrib.meas %||% "DiSCO"]]
  ident_col <- ident_meas_columns[[x$ident.meas %||% "repU"]]
  cli::cli_h1("Disclosure risk for {nrow(tab)} target{?s}")
  cli::cli_text("Keys: {.val {x$keys}}; {x$Norig} original record{?s}; {m} synthes{?is/es}.")
  if (m > 1) cli::cli_text("Measures of the syntheses are means over the {m} syntheses.")
  if ("ident" %in% to.print) {
    cli::cli_h2("Identity disclosure (%): UiO in the original, {ident_col} in the synthetic data")
    targets <- names(x$output.list) %||% table_targets(x)
    ident <- data.frame(UiO = x$ident.orig, x$ident.syn)
    names(ident)[2] <- ident_col
    if (nrow(unique(ident)) == 1) {
      print(round_frame(ident[1, , drop = FALSE], digits), row.names = FALSE)
      cli::cli_text("(the same for all targets)")
    } else {
      rownames(ident) <- targets
      print(round_frame(ident, digits))
    }
  }
  if ("attrib" %in% to.print) {
    cli::cli_h2("Attribute disclosure (%): {cols[1]} in the original, {cols[2]} in the synthetic data")
    shown <- tab
    names(shown)[1:2] <- c(cols[1], cols[2])
    print(round_frame(shown, digits))
    if (any(nzchar(tab$check1)) || any(nzchar(tab$check2))) {
      cli::cli_alert_info(paste(
        "Targets marked with checks have disclosive records that background knowledge may explain:",
        "a 1-way check when one target level makes up most disclosive records,",
        "a 2-way check when a key level almost always has one target level.",
        "See {.code print(x, to.print = \"checks\")}."))
    }
  }
  if ("checks" %in% to.print) {
    flagged <- Filter(function(d) nzchar(d$check1[1]) || nzchar(d$check2[1]), x$output.list %||% list())
    cli::cli_h2("Checks")
    if (length(flagged) == 0) cli::cli_text("No target needs checks.")
    for (d in flagged) {
      cli::cli_h3("Target {.val {d$target}}")
      if (nzchar(d$check1[1])) print_check_tables(d$check_1way, "1-way check", nrow(d$ident), digits)
      if (nzchar(d$check2[1])) print_check_tables(d$check_2way, "2-way check", nrow(d$ident), digits)
    }
  }
  if (isTRUE(plot) && inherits(x$attrib.plot, "ggplot")) print(x$attrib.plot)
  invisible(x)
}
