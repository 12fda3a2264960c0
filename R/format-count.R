# The one formatter of counts of records, rows and cells in printouts, errors, notes
# and the report: whole numbers with thousands separators, never in e-notation and
# never padded (counts sit inside sentences); a fraction (a weighted count) with one
# decimal; NA as "NA".
format_count <- function(x) {
  whole <- !is.na(x) & x == round(x)
  out <- character(length(x))
  out[whole] <- format(x[whole], big.mark = ",", scientific = FALSE, trim = TRUE)
  out[!whole] <- formatC(x[!whole], format = "f", digits = 1, big.mark = ",")
  out[is.na(x)] <- "NA"
  out
}
