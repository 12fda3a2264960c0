# Whole objects compared with synthpop's (test-whole-goldens.R): every component of
# synthpop's object is in ours, in synthpop's order, ours may add components after them;
# data frames have synthpop's columns first, in its order, and its row names; names,
# dimnames, classes of values, NA places and numbers to 1e-9. Returns the differences as
# "path: what" lines (character(0) when none).
compare_whole <- function(ours, theirs, path = "x", tol = 1e-9) {
  out <- character()
  add <- function(...) out <<- c(out, paste0(path, ": ", ...))
  # synthpop's other attributes, as synthpop sets them.
  structural <- c("names", "row.names", "class", "dim", "dimnames", "levels")
  for (a in setdiff(names(attributes(theirs)), structural)) {
    if (!identical(attr(ours, a, exact = TRUE), attr(theirs, a, exact = TRUE))) add("attribute ", a)
  }
  if (is.data.frame(theirs) && !identical(class(ours), class(theirs))) {
    add("class ", toString(class(ours)), " vs ", toString(class(theirs)))
  }
  if (is.data.frame(theirs)) {
    if (!is.data.frame(ours)) return(add("not a data frame"))
    tn <- names(theirs)
    on <- names(ours)
    if (!identical(on[seq_along(tn)], tn)) add("columns ", toString(on), " vs ", toString(tn))
    if (!identical(rownames(ours), rownames(theirs))) {
      add("row names ", toString(head(rownames(ours))), " vs ", toString(head(rownames(theirs))))
    }
    for (j in intersect(tn, on)) out <- c(out, compare_whole(ours[[j]], theirs[[j]], paste0(path, "$", j), tol))
    return(out)
  }
  if (is.list(theirs)) {
    if (!is.list(ours)) return(add("not a list but ", class(ours)[1]))
    tn <- names(theirs)
    on <- names(ours)
    if (is.null(tn)) {
      if (!is.null(on)) add("names ", toString(on), " where synthpop has none")
      if (length(ours) != length(theirs)) return(add("length ", length(ours), " vs ", length(theirs)))
      for (i in seq_along(theirs)) out <- c(out, compare_whole(ours[[i]], theirs[[i]], paste0(path, "[[", i, "]]"), tol))
      return(out)
    }
    if (!identical(on[seq_along(tn)], tn)) add("names ", toString(on), " vs ", toString(tn))
    for (j in intersect(tn, on)) out <- c(out, compare_whole(ours[[j]], theirs[[j]], paste0(path, "$", j), tol))
    return(out)
  }
  if (!identical(class(ours), class(theirs)) && !(is.numeric(ours) && is.numeric(theirs))) {
    add("class ", toString(class(ours)), " vs ", toString(class(theirs)))
  }
  if (length(ours) != length(theirs)) return(add("length ", length(ours), " vs ", length(theirs)))
  if (!identical(names(ours), names(theirs))) add("names ", toString(head(names(ours))), " vs ", toString(head(names(theirs))))
  if (!identical(dim(ours), dim(theirs))) add("dim ", toString(dim(ours)), " vs ", toString(dim(theirs)))
  if (!identical(dimnames(ours), dimnames(theirs))) {
    add("dimnames ", toString(unlist(dimnames(ours))), " vs ", toString(unlist(dimnames(theirs))))
  }
  if (is.factor(theirs)) {
    if (!identical(levels(ours), levels(theirs))) add("levels ", toString(levels(ours)), " vs ", toString(levels(theirs)))
    ours <- as.character(ours)
    theirs <- as.character(theirs)
  }
  if (is.numeric(theirs)) {
    if (!identical(is.na(unclass(ours)), is.na(unclass(theirs)))) {
      add("NA places ", toString(head(ours)), " vs ", toString(head(theirs)))
    } else if (any(abs(ours[!is.na(theirs)] - theirs[!is.na(theirs)]) > tol)) {
      add("values ", toString(head(ours)), " vs ", toString(head(theirs)))
    }
  } else if (!identical(unname(as.vector(ours)), unname(as.vector(theirs)))) {
    add("values '", paste(head(ours), collapse = "|"), "' vs '", paste(head(theirs), collapse = "|"), "'")
  }
  out
}
