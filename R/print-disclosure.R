print_choices <- c("short", "ident", "attrib", "allCAPs", "check_1way", "check_2way", "exclusions", "all")

check_to_print <- function(to.print, call) {
  if (!is.character(to.print) || length(to.print) == 0 || anyNA(to.print)) {
    cli::cli_abort("{.arg to.print} must be one or more of {.val {print_choices}}.", call = call)
  }
  bad <- setdiff(to.print, print_choices)
  if (length(bad) > 0) {
    cli::cli_abort(c("{.arg to.print} must be one or more of {.val {print_choices}}.",
                     x = "It has {.val {bad}}."), call = call)
  }
  to.print
}

#' Print disclosure measures
#'
#' @param x A `disclosure` object.
#' @param to.print What to show: any of `"short"` (identity and attribute measures
#'   with the check messages), `"ident"`, `"attrib"`, `"allCAPs"`, `"check_1way"`,
#'   `"check_2way"`, `"exclusions"`, `"all"`.
#' @param digits Digits for the measures.
#' @param ... Unused.
#' @return `x`, invisibly.
#' @export
print.disclosure <- function(x, to.print = x$to.print, digits = x$digits, ...) {
  to.print <- check_to_print(to.print, rlang::current_env())
  if ("all" %in% to.print) to.print <- print_choices[print_choices != "all"]
  m <- nrow(x$ident)
  cli::cli_h1("Disclosure risk for {.val {x$target}}")
  cli::cli_text("Keys: {.val {x$keys}}; {x$Norig} original record{?s}; {m} synthes{?is/es}.")
  show <- function(title, tab) {
    cli::cli_h2(title)
    tab <- round_frame(tab, digits)
    if (m > 1) rownames(tab) <- paste0("syn", seq_len(m))
    print(tab)
    if (m > 1) {
      cli::cli_text("Mean over the {m} syntheses:")
      print(round_frame(as.data.frame(lapply(tab, mean)), digits), row.names = FALSE)
    }
  }
  if (any(c("short", "ident") %in% to.print)) show("Identity disclosure (%)", x$ident)
  if (any(c("short", "attrib") %in% to.print)) show("Attribute disclosure (%)", x$attrib)
  if ("allCAPs" %in% to.print) show("CAP measures (%)", x$allCAPs)
  if ("short" %in% to.print) print_check_messages(x)
  if ("check_1way" %in% to.print) print_check_tables(x$check_1way, "1-way check", m, digits)
  if ("check_2way" %in% to.print) print_check_tables(x$check_2way, "2-way check", m, digits)
  if ("exclusions" %in% to.print) {
    cli::cli_h2("Records excluded")
    for (j in seq_len(m)) {
      if (m > 1) cli::cli_text("Synthesis {j}:")
      print(x$Nexclusions[[j]])
    }
  }
  invisible(x)
}

round_frame <- function(tab, digits) {
  num <- vapply(tab, is.numeric, logical(1))
  tab[num] <- lapply(tab[num], round, digits = digits)
  tab
}

print_check_messages <- function(x) {
  if (nzchar(x$check1[1])) {
    cli::cli_alert_warning("{x$check1} (1-way check: most disclosive records have this level; see {.code to.print = \"check_1way\"}).")
  }
  if (nzchar(x$check2[1])) {
    cli::cli_alert_warning("{x$check2} (2-way check; see {.code to.print = \"check_2way\"}).")
  }
}

print_check_tables <- function(check, title, m, digits) {
  cli::cli_h2(title)
  tabs <- if (is.data.frame(check)) list(check) else check
  for (j in seq_along(tabs)) {
    if (m > 1) cli::cli_text("Synthesis {j}:")
    if (is.data.frame(tabs[[j]])) print(round_frame(tabs[[j]], digits)) else cli::cli_text("Nothing to check.")
  }
}
