# Tables and lines for the printouts (cli): rounded tables with a mean row, tables fitted
# to the console width, long labels and words shortened.

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
