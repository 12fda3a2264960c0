# Printing a `disclosure` (ours or one made by synthpop 1.9-3): format() builds the
# lines with cli (styled in a terminal, plain otherwise), print() writes them to
# standard output, so knitted reports, sink() and logs keep every heading and warning.

print_choices <- c("short", "ident", "attrib", "allCAPs", "check_1way", "check_2way", "exclusions", "holdout", "all")

#' Print or format disclosure measures
#'
#' `print()` writes everything to standard output (headings and check warnings
#' included), so knitted reports with `message = FALSE`, `sink()` and logs keep
#' them; `format()` returns the same lines as a character vector. Works on objects
#' made by synthpop 1.9-3 too.
#'
#' @param x A `disclosure` object.
#' @param to.print What to show, any of `"short"` (the UiO/repU and Dorig/DiSCO
#'   table with the check warnings), `"ident"`, `"attrib"`, `"allCAPs"`,
#'   `"check_1way"`, `"check_2way"`, `"exclusions"`, `"holdout"` (the holdout
#'   baseline: each measure with the training and the control records as the
#'   original, and R; see [disclosure()]'s `control`), `"all"`. `NULL` (default):
#'   the object's own `to.print`, as synthpop does; it includes `"holdout"` when
#'   `control` was given and `to.print` was not.
#' @param digits Digits for the measures; `NULL`: the object's `digits`.
#' @param ... Unused.
#' @return `print()`: `x`, invisibly. `format()`: a character vector of lines.
#' @rdname print.disclosure
#' @aliases print.disclosure format.disclosure
#' @export
#' @examples
#' d <- disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region", "placesize"),
#'                 target = "workab", print.flag = FALSE)
#' d
#' print(d, to.print = c("allCAPs", "check_1way"), digits = 1)
#' lines <- format(d, to.print = "ident")
print.synthrisk_disclosure <- function(x, to.print = NULL, digits = NULL, ...) {
  cat(format.synthrisk_disclosure(x, to.print = to.print, digits = digits, ...), sep = "\n")
  invisible(x)
}

#' @rdname print.disclosure
#' @export
format.synthrisk_disclosure <- function(x, to.print = NULL, digits = NULL, ...) {
  to.print <- check_choices(to.print %||% x$to.print %||% "short", print_choices, "to.print", rlang::current_env())
  digits <- digits %||% x$digits %||% 2
  check_digits(digits, rlang::current_env())
  show_call <- "all" %in% to.print
  if (show_call) to.print <- setdiff(print_choices, c("all", if (is.null(x$holdout)) "holdout"))
  cli::cli_format_method(disclosure_cli(x, to.print, digits, show_call))
}

# Rows "Synthesis 1..m"; with m > 1 a row of their means.
measure_table <- function(tab, digits) {
  tab <- as.data.frame(tab)
  m <- nrow(tab)
  rownames(tab) <- paste("Synthesis", seq_len(m))
  num <- vapply(tab, is.numeric, logical(1))
  if (m > 1) {
    means <- tab[1, , drop = FALSE]
    means[num] <- lapply(tab[num], mean)
    rownames(means) <- paste("Mean of", m)
    tab <- rbind(tab, means)
  }
  round_frame(tab, digits)
}

round_frame <- function(tab, digits) {
  num <- vapply(tab, is.numeric, logical(1))
  tab[num] <- lapply(tab[num], round, digits = digits)
  tab
}

# A table as print() shows it, at the console width, with labels (row names and text
# cells) of more than a third of that width shortened with an ellipsis; the object
# keeps them whole.
cli_table <- function(tab, ...) {
  width <- cli::console_width()
  tab <- shorten_labels(tab, max(20L, width %/% 3L))
  cli::cli_verbatim(utils::capture.output(with_width(width, print(tab, ...))))
}

with_width <- function(width, code) {
  old <- options(width = width)
  on.exit(options(old))
  force(code)
}

shorten_labels <- function(tab, max_chars) {
  shorten <- function(x) {
    long <- !is.na(x) & nchar(x, type = "width") > max_chars
    x[long] <- paste0(substr(x[long], 1L, max_chars - 1L), cli::symbol$ellipsis)
    x
  }
  if (is.data.frame(tab)) {
    text <- vapply(tab, function(col) is.character(col) || is.factor(col), logical(1))
    tab[text] <- lapply(tab[text], function(col) shorten(as.character(col)))
    rownames(tab) <- shorten(rownames(tab))
  } else if (is.matrix(tab) && !is.null(rownames(tab))) {
    rownames(tab) <- shorten(rownames(tab))
  }
  tab
}

disclosure_cli <- function(x, to.print, digits, show_call = FALSE) {
  m <- nrow(x$ident) %||% 1L
  cli::cli_h1("Disclosure risk for {.val {x$target}}")
  cli::cli_text("Keys: {.val {x$keys}}; {x$Norig} record{?s} in the original data; {m} synthes{?is/es}.")
  if ("short" %in% to.print) {
    cli::cli_h2("Identity (UiO/repU) and attribute (Dorig/DiSCO) disclosure, % of records")
    orig <- c(x$ident$UiO[1], x$attrib$Dorig[1])
    short <- rbind(orig, cbind(x$ident$repU, x$attrib$DiSCO))
    dimnames(short) <- list(c("Original", paste("Synthesis", seq_len(m))),
                            c("Identity (UiO/repU)", "Attrib (Dorig/DiSCO)"))
    if (m > 1) short <- rbind(short, "Mean of syntheses" = colMeans(short[-1, , drop = FALSE]))
    cli_table(round(short, digits))
  }
  if ("ident" %in% to.print) {
    cli::cli_h2("Identity disclosure measures, % of records")
    cli_table(measure_table(x$ident, digits))
  }
  if ("attrib" %in% to.print) {
    cli::cli_h2("Attribute disclosure measures for {.val {x$target}}, % of records")
    cli_table(measure_table(x$attrib, digits))
    cli::cli_text("{.field max_denom} and {.field mean_denom} are counts of records (largest and mean DiSCO cell).")
  }
  if ("allCAPs" %in% to.print) {
    cli::cli_h2("CAP measures for {.val {x$target}}, %")
    cli_table(measure_table(x$allCAPs, digits))
  }
  if ("check_1way" %in% to.print) check_1way_cli(x, digits)
  if ("check_2way" %in% to.print) check_2way_cli(x, digits)
  if ("exclusions" %in% to.print) exclusions_cli(x)
  if ("holdout" %in% to.print) holdout_cli(x, digits)
  # Preparation, notes and check warnings belong to the summary ("short"); any other
  # choice shows only what it names (the TCAP note goes with the CAP table).
  summary <- "short" %in% to.print
  prep <- if (summary) preparation_lines(x) else character(0)
  prep <- prep[!prep %in% (note_of(x, "adjusted") %||% character(0))]
  if (length(prep) > 0) {
    cli::cli_h2("Data preparation")
    for (line in prep) cli::cli_bullets(c("*" = escape_braces(line)))
  }
  notes <- x$notes %||% character(0)
  notes <- notes[if (summary) names(notes) != "TCAP" | "allCAPs" %in% to.print else names(notes) == "TCAP" &
                   "allCAPs" %in% to.print]
  if (length(notes) > 0) {
    cli::cli_h2("Notes")
    note_bullets(notes)
  }
  if (summary) check_warnings_cli(x, to.print)
  if (show_call) {
    if (!is.null(x$call)) {
      cli::cli_h2("Call")
      cutoff <- max(20L, min(70L, cli::console_width() - 25L))
      cli::cli_verbatim(paste(deparse(x$call, width.cutoff = cutoff), collapse = "\n"))
    }
  }
}

# Words (labels) too long for a line shortened with an ellipsis, so that a message
# wraps at the console width; spacing kept as it is.
shorten_words <- function(x, max_chars = max(20L, cli::console_width() %/% 2L)) {
  words <- strsplit(x, " ", fixed = TRUE)[[1]]
  long <- nchar(words, type = "width") > max_chars
  words[long] <- paste0(substr(words[long], 1L, max_chars - 1L), cli::symbol$ellipsis)
  paste(words, collapse = " ")
}

escape_braces <- function(x) gsub("}", "}}", gsub("{", "{{", x, fixed = TRUE), fixed = TRUE)

has_check <- function(check) length(check) > 0 && any(!is.na(check) & nzchar(check))

# The check messages verbatim (synthpop's wording, double spaces kept), then advice.
check_warnings_cli <- function(x, to.print) {
  if (has_check(x$check1) && !"check_1way" %in% to.print) {
    msg <- shorten_words(paste(x$check1[nzchar(x$check1)], collapse = "; "))
    cli::cli_alert_warning("{msg}", wrap = nchar(msg) + 2 > cli::console_width())
    cli::cli_bullets(c(" " = paste(
      "1-way check: one target level makes up most disclosive records. Decide from the original data",
      "whether background knowledge explains it (see {.code print(x, to.print = \"check_1way\")});",
      "if so, exclude it with {.arg not.targetlev}.")))
  }
  if (has_check(x$check2) && !"check_2way" %in% to.print) {
    msg <- shorten_words(paste(unique(x$check2[nzchar(x$check2)]), collapse = "; "))
    cli::cli_alert_warning("{msg}", wrap = nchar(msg) + 2 > cli::console_width())
    cli::cli_bullets(c(" " = paste(
      "2-way check: key levels that almost always have one target level (see",
      "{.code print(x, to.print = \"check_2way\")}); consider {.arg exclude.keys}, {.arg exclude.keylevs},",
      "{.arg exclude.targetlevs} or {.code exclude_ov_denom_lim = TRUE}.")))
  }
}

# check_1way / check_2way: one table (m = 1), "" or list("") when nothing is flagged,
# or a list with one element per synthesis.
check_tables <- function(check) {
  if (is.data.frame(check)) return(list(check))
  if (is.list(check)) return(check)
  list(check)
}

check_1way_cli <- function(x, digits) {
  cli::cli_h2("1-way check: target level with most disclosive records")
  tabs <- check_tables(x$check_1way)
  flagged <- vapply(tabs, is.data.frame, logical(1))
  if (!any(flagged)) {
    cli::cli_text("No 1-way check is flagged at the thresholds used ({.arg thresh_1way}).")
    return(invisible())
  }
  for (j in seq_along(tabs)) {
    if (length(tabs) > 1) cli::cli_h3("Synthesis {j}")
    if (is.data.frame(tabs[[j]])) cli_table(round_frame(tabs[[j]], digits)) else cli::cli_text("Nothing flagged.")
  }
}

check_2way_cli <- function(x, digits) {
  cli::cli_h2("2-way check: target-key level pairs contributing most to disclosure")
  tabs <- check_tables(x$check_2way)
  flagged <- vapply(tabs, is.data.frame, logical(1))
  if (!any(flagged)) {
    cli::cli_text("No 2-way check is flagged at the thresholds used ({.arg thresh_2way}).")
    return(invisible())
  }
  for (j in seq_along(tabs)) {
    if (length(tabs) > 1) cli::cli_h3("Synthesis {j}")
    if (is.data.frame(tabs[[j]])) {
      cli::cli_text("{nrow(tabs[[j]])} pair{?s} need{?s/} checks.")
      cli_table(round_frame(tabs[[j]], digits), row.names = FALSE)
    } else {
      cli::cli_text("Nothing flagged.")
    }
  }
}

exclusions_cli <- function(x) {
  cli::cli_h2("Records excluded from the measures (counts of records)")
  nex <- x$Nexclusions
  if (is.matrix(nex)) nex <- list(nex)
  for (j in seq_along(nex)) {
    if (length(nex) > 1) cli::cli_h3("Synthesis {j}")
    if (sum(nex[[j]][, -6, drop = FALSE]) == 0) {
      cli::cli_text("No records excluded.")
    } else {
      cli_table(nex[[j]])
    }
  }
}
