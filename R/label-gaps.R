# Keys and targets whose labels barely meet between the original and a synthesis:
# none in common, or over half of one side's records at labels the other side lacks
# (e.g. "Male" against "male"). Every measure then counts few or no matches for them,
# which synthpop signals with a warning; so does synthrisk, and the result's notes and
# printout say the same.

# Share of one side's records above which one-sided labels are reported.
label_gap_share <- 0.5

# Per variable of an encoding, NULL or what label_gap() found. Only variables the core
# flagged as having a level on one side only are counted again (in the core).
label_gaps <- function(ptr, vars, labels, info, weights, m, call) {
  weights <- lapply(weights, function(w) if (is.null(w)) NULL else as.double(w))
  weighted <- !all(vapply(weights, is.null, logical(1)))
  out <- list()
  for (i in seq_along(vars)) {
    if (!isTRUE(info[[i]]$one_sided)) next
    # For records, the core's overlap of the levels (counted with the encoding) says
    # whether there is a gap to describe: most often none.
    overlap <- info[[i]]$level_overlap
    if (!weighted && !is.null(overlap) && !any(label_gap_flags(overlap, m))) next
    # Counted with the encoding for records; again here for counted cells (weighted).
    counts <- info[[i]]$level_counts
    if (is.null(counts) || weighted) {
      counts <- rust_result(rust_level_counts(ptr, i - 1L, weights), call = call)
    }
    gap <- label_gap(counts[seq_len(m + 1)], labels[[i]], info[[i]]$missing_code + 1L)
    if (!is.null(gap)) out[[vars[i]]] <- c(list(variable = vars[i]), gap)
  }
  out
}

# Which of the syntheses 1..m label_gap() flags, from the core's overlap of their
# levels with the original's (the encoding's `level_overlap`): the same numbers as
# label_gap() works out over every level.
label_gap_flags <- function(overlap, m) {
  s <- seq_len(m)
  overlap$shares_none[s] | overlap$original_only[s] > label_gap_share * overlap$original_records |
    overlap$synthetic_only[s] > label_gap_share * overlap$records[s]
}

# `counts`: records at each level, original first, then each synthesis; `missing`: the
# position of the missing level (never a one-sided label). The syntheses are compared
# with the original together, as the columns of one matrix of counts.
label_gap <- function(counts, labels, missing) {
  orig <- counts[[1]]
  n_orig <- sum(orig)
  orig[missing] <- 0
  in_orig <- orig > 0
  n_levels <- length(orig)
  m <- length(counts) - 1L
  syn <- matrix(unlist(counts[-1], use.names = FALSE), n_levels, m)
  n_syn <- .colSums(syn, n_levels, m)
  syn[missing, ] <- 0
  in_syn <- syn > 0
  none <- .colSums(in_orig & in_syn, n_levels, m) == 0 & any(in_orig) & .colSums(in_syn, n_levels, m) > 0
  orig_only <- .colSums(orig * !in_syn, n_levels, m)
  syn_only <- .colSums(syn * !in_orig, n_levels, m)
  flagged <- none | orig_only > label_gap_share * n_orig | syn_only > label_gap_share * n_syn
  if (!any(flagged)) return(NULL)
  first <- which(flagged)[1]
  list(syntheses = which(flagged), none = none[first], original_labels = labels[in_orig],
       synthetic_labels = labels[.rowSums(syn, n_levels, m)[seq_along(labels)] > 0 & seq_along(labels) != missing],
       original_records = orig_only[first], n_original = n_orig,
       synthetic_records = syn_only[first], n_synthetic = n_syn[first])
}

# One line per variable whose labels barely meet.
label_gap_lines <- function(gaps, m) {
  vapply(gaps, function(g) {
    where <- if (m == 1) "the synthetic data" else if (length(g$syntheses) == m) paste("all", m, "syntheses") else
      paste0("synthes", if (length(g$syntheses) > 1) "es " else "is ", paste(g$syntheses, collapse = ", "))
    what <- if (g$none) "share no label" else "barely share labels"
    first <- if (m > 1 && length(g$syntheses) < m) paste0(" (synthesis ", g$syntheses[1], ")") else ""
    sprintf(paste0("Labels of '%s' in the original and %s %s: the original has %s; the synthetic data have %s. ",
                   "%s of %s original and %s of %s synthetic records%s carry a label the other side lacks, ",
                   "so they match nothing on '%s'."),
            g$variable, where, what, shown_labels(g$original_labels), shown_labels(g$synthetic_labels),
            format_count(g$original_records), format_count(g$n_original), format_count(g$synthetic_records), format_count(g$n_synthetic), first,
            g$variable)
  }, character(1), USE.NAMES = FALSE)
}

# Up to `n` labels, quoted and shortened, then how many more.
shown_labels <- function(labels, n = 6, max_chars = 24) {
  if (length(labels) == 0) return("none")
  long <- nchar(labels, type = "width") > max_chars
  labels[long] <- paste0(substr(labels[long], 1, max_chars - 3), "...")
  shown <- paste0("\"", utils::head(labels, n), "\"", collapse = ", ")
  if (length(labels) > n) shown <- paste0(shown, " and ", length(labels) - n, " more")
  shown
}
