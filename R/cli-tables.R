# Tables and lines for the printouts (cli): rounded tables with a mean row, tables fitted
# to the console width, long labels and words shortened.

# Rows "Synthesis 1..m"; with m > 1 a row of their means.
measure_table <- function(tab, digits, intervals = NULL) {
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
  out <- round_frame(tab, digits)
  found <- lapply(names(tab), function(me) interval_of(intervals, me))
  if (all(vapply(found, is.null, logical(1)))) return(out)
  # A last row with each measure's interval (for its expected value over syntheses).
  band <- vapply(found, function(iv) {
    if (is.null(iv) || is.na(iv$conf.low)) "" else interval_band(iv$conf.low, iv$conf.high, digits, iv$caveat)
  }, character(1))
  out[] <- lapply(out, function(col) if (is.numeric(col)) format(col, drop0trailing = TRUE, trim = TRUE) else col)
  out <- rbind(out, stats::setNames(as.list(band), names(out)))
  rownames(out)[nrow(out)] <- "Interval"
  out
}

# A numeric table whose last row (the mean over syntheses, or the one synthesis) shows
# the intervals of `measures` (one per column) as "2.40 (1.95-2.88)".
with_intervals <- function(tab, measures, intervals, digits) {
  found <- lapply(measures, function(me) interval_of(intervals, me))
  if (all(vapply(found, is.null, logical(1)))) return(round(tab, digits))
  out <- matrix(format(round(tab, digits), drop0trailing = TRUE, trim = TRUE), nrow(tab), dimnames = dimnames(tab))
  last <- nrow(tab)
  for (k in seq_along(measures)) {
    iv <- found[[k]]
    if (!is.null(iv)) out[last, k] <- format_interval(tab[last, k], iv$conf.low, iv$conf.high, digits, iv$caveat)
  }
  as.data.frame(out, stringsAsFactors = FALSE, optional = TRUE)
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
