# Labels as the sides are matched on: UTF-8 in Unicode normal form C, so that a word
# typed with a precomposed letter ("ó") and one with a combining accent ("o" + U+0301)
# are one label, as a reader sees them. Text whose bytes are not valid in its declared
# encoding cannot be compared by label at all: an error names the variable and shows
# an example with the bad bytes as <xx>.
clean_labels <- function(x, var, call) {
  x <- as.character(x)
  # ASCII (as most labels are) is valid in every encoding and already in NFC.
  if (!any(grepl("[^\001-\177]", x, useBytes = TRUE))) return(x)
  # Checked before enc2utf8(), which writes bytes it cannot read as "<ff>".
  bad <- !is.na(x) & !is_readable_text(x)
  if (any(bad)) {
    example <- iconv(x[bad][1], "UTF-8", "UTF-8", sub = "byte")
    cli::cli_abort(c("Variable {.val {var}} has text that is not valid in its declared encoding.",
                     x = "For example {.val {example}} ({sum(bad)} label{?s} like it).",
                     i = "Declare the encoding (e.g. {.code Encoding(x) <- \"latin1\"}) or convert it with {.fn iconv}."),
                   call = call)
  }
  utf8::utf8_normalize(enc2utf8(x))
}

# Whether each string's bytes are valid in its declared encoding: latin1 always,
# "bytes" never, UTF-8 (declared, or native in a UTF-8 locale) when valid UTF-8. Native
# text in another locale is left to enc2utf8().
is_readable_text <- function(x) {
  enc <- Encoding(x)
  utf8_native <- isTRUE(l10n_info()[["UTF-8"]])
  as_utf8 <- enc == "UTF-8" | (enc == "unknown" & utf8_native)
  ok <- enc != "bytes"
  ok[as_utf8] <- validUTF8(x[as_utf8])
  ok
}

# Labels the user names (not.targetlev, exclude.keylevs, ...), in the same form.
user_labels <- function(x) {
  x <- enc2utf8(as.character(x))
  ok <- !is.na(x) & utf8::utf8_valid(x)
  x[ok] <- utf8::utf8_normalize(x[ok])
  x
}
