# Whether synthpop 1.9-3 would adjust data-frame inputs with its synorig.compare()
# before counting. Two things a synthpop user sees depend on it: with a list of
# syntheses that needs adjusting, synthpop keeps only the first synthesis (definitions
# vignette, section 9.5; synthrisk adjusts every synthesis and says so in the notes);
# and the default targets of multi.disclosure() follow the first synthesis's column
# order, or the original's once the data were adjusted (the adjusted synthesis takes
# the original's order).

# The variables (in the original's order) for which synorig.compare() would change the
# first synthesis or the original: a numeric on one side and a factor on the other,
# text on either side, an integer beside a double, NA on the synthetic side only, NA in
# an original factor only, factor levels that differ. character(0) when nothing would
# change. Only plain data frames are judged (synthpop takes nothing else).
synorig_adjusted_variables <- function(syn1, data) {
  if (!is.data.frame(syn1) || !is.data.frame(data) || inherits(syn1, "tbl_lazy") || inherits(data, "tbl_lazy")) {
    return(character(0))
  }
  common <- intersect(names(data), names(syn1))
  changed <- vapply(common, function(v) synorig_changes(.subset2(syn1, v), .subset2(data, v)), logical(1))
  common[changed]
}

# Whether the variables two datasets share come in the same order in both.
same_column_order <- function(x, y) {
  nx <- dataset_names(x)
  ny <- dataset_names(y)
  identical(nx[nx %in% ny], ny[ny %in% nx])
}

synorig_changes <- function(s, o) {
  if ((is.numeric(s) && is.factor(o)) || (is.factor(s) && is.numeric(o))) return(TRUE)
  if (is.character(s) || is.character(o)) return(TRUE)
  if ((is.integer(s) && is.double(o)) || (is.double(s) && is.integer(o))) return(TRUE)
  na_s <- anyNA(s)
  na_o <- anyNA(o)
  if (!na_o && na_s) return(TRUE)
  if (is.factor(s) && is.factor(o)) {
    if (na_o && !na_s) return(TRUE)
    if (!identical(levels(s), levels(o))) return(TRUE)
  }
  FALSE
}

# The note of a call whose list of syntheses synthpop 1.9-3 would cut to its first
# synthesis; NULL when it would not (m = 1, a synds, compare.synorig = FALSE, or
# nothing to adjust).
synorig_cut_note <- function(variables, m) {
  if (length(variables) == 0 || m < 2) return(NULL)
  shown <- quote_names(utils::head(variables, 5))
  if (length(variables) > 5) shown <- paste0(shown, " and ", length(variables) - 5, " more")
  paste0("synthpop 1.9-3 would adjust these data with synorig.compare (", shown, ") and then ",
         "use only the first of the ", m, " syntheses; synthrisk adjusts and counts all ", m, ".")
}
