# From the core's raw counts of one target to the components of a `disclosure` object
# (definitions vignette, section 8).

exclusion_rows <- table_names
exclusion_cols <- c(names(exclusion_steps), "remaining")

# The core names every number: `stats` holds, per measure, its value in each synthesis.
stats_matrix <- function(raw) {
  do.call(cbind, raw$stats)
}

# The same as columns, each a double vector (as stats_matrix() makes them) without names.
stats_columns <- function(raw) {
  lapply(raw$stats, as.double)
}

# A data frame of the measures `cols` of stats_columns(), named `names`.
measure_frame <- function(columns, cols, names = cols) {
  out <- columns[cols]
  names(out) <- names
  vctrs::new_data_frame(out)
}

# Per table, the core gives for each synthesis in turn the records each step removed
# and the table's total; "remaining" is the total less the removed. All syntheses are
# worked out together, as one step x synthesis x table array.
exclusion_matrices <- function(raw, m) {
  n_steps <- length(exclusion_cols)
  n_tables <- length(exclusion_rows)
  counts <- unlist(raw$nexcl[exclusion_rows], use.names = FALSE)
  dim(counts) <- c(n_steps, length(counts) %/% (n_steps * n_tables), n_tables)
  counts <- counts[, seq_len(m), , drop = FALSE]
  dim(counts) <- c(n_steps, m * n_tables)
  counts[n_steps, ] <- counts[n_steps, ] - .colSums(counts[-n_steps, , drop = FALSE], n_steps - 1L, n_tables * m)
  dim(counts) <- c(n_steps, m, n_tables)
  counts <- aperm(counts, c(3L, 1L, 2L))
  dimnames(counts) <- list(exclusion_rows, exclusion_cols, NULL)
  lapply(seq_len(m), function(j) counts[, , j])
}

# Per synthesis (1..m), the 1-way check: list(table, message) for a synthesis whose
# level with most disclosive records passes both thresholds, else NULL. Worked out for
# all syntheses at once; a table is built only where the check flags.
one_way_checks <- function(raw, m, target, t_labels, thresh) {
  w <- lapply(raw$one_way, `[`, seq_len(m))
  level <- w$level
  n_level <- w$n_level_dis
  total <- w$total_disclosive
  pct_dis <- 100 * n_level / total
  flagged <- !is.na(level) & total != 0 & n_level > thresh[1] & pct_dis > thresh[2]
  out <- vector("list", m)
  for (j in which(flagged)) {
    lab <- t_labels[level[j]]
    tab <- vctrs::new_data_frame(list(Level = lab, All = w$all_orig[j], PctLevelAll = 100 * w$level_orig[j] / w$all_orig[j],
                               totalDisclosive = total[j], nLevelDis = n_level[j], PctLevelDis = pct_dis[j]),
                                 row.names = lab)
    out[[j]] <- list(table = tab, message = paste("Check ", target, " level ", lab))
  }
  out
}

# Per synthesis (1..m), the 2-way check: the data frame of the pairs whose target level
# makes up more than thresh[2] percent of the key level, or NULL. The pairs of all
# syntheses are labelled and sorted together, then split by synthesis.
two_way_checks <- function(raw, m, target, keys, labels, thresh) {
  out <- vector("list", m)
  tw <- raw$two_way
  pct <- 100 * tw$key_target_total / tw$key_total
  keep <- which(pct > thresh[2] & tw$synthesis <= m)
  if (length(keep) == 0) return(out)
  synthesis <- tw$synthesis[keep]
  key <- tw$key[keep]
  key_level <- tw$key_level[keep]
  key_labels <- character(length(keep))
  for (k in unique(key)) {
    at <- key == k
    key_labels[at] <- labels[[keys[k]]][key_level[at]]
  }
  pair <- paste(labels[[target]][tw$target_level[keep]], key_labels, sep = "|")
  npairs <- tw$npairs[keep]
  # Per synthesis, most pairs first; ties keep synthpop's order: key by key, pair
  # labels sorted.
  ord <- order(synthesis, -npairs, key, pair)
  columns <- list(target_key_levs = pair[ord], npairs = as.integer(npairs[ord]), key = unname(keys)[key[ord]],
                  key_target_total = tw$key_target_total[keep][ord], key_total = tw$key_total[keep][ord],
                  PctTargetKeyLevel = pct[keep][ord])
  key_names_all <- names(keys)[key[ord]]
  synthesis <- synthesis[ord]
  for (j in unique(synthesis)) {
    at <- which(synthesis == j)
    key_names <- key_names_all[at]
    # Keys named by the user: their names, when distinct, name the rows (as
    # data.frame() took them from the key column).
    row_names <- if (!is.null(key_names) && !anyDuplicated(key_names) && any(nzchar(key_names))) key_names
    out[[j]] <- vctrs::new_data_frame(lapply(columns, `[`, at), n = length(at),
                                      row.names = row_names %||% .set_row_names(length(at)))
  }
  out
}

# m == 1: the table itself, or list("") when nothing is flagged (as synthpop);
# m > 1: one element per synthesis, "" where nothing is flagged.
check_component <- function(tables, m) {
  if (m == 1) {
    return(if (is.null(tables[[1]])) list("") else tables[[1]])
  }
  lapply(tables, function(x) if (is.null(x)) "" else x)
}

build_disclosure <- function(raw, target, keys, labels, m, thresh_1way, thresh_2way, digits, to.print, call) {
  stats <- stats_columns(raw)
  one <- one_way_checks(raw, m, target, labels[[target]], thresh_1way)
  two <- two_way_checks(raw, m, target, keys, labels, thresh_2way)
  one_msgs <- unique(unlist(lapply(one, function(x) x$message)))
  n_pairs <- vapply(two, function(x) if (is.null(x)) 0L else nrow(x), integer(1))
  x <- list(
    ident = measure_frame(stats, ident_names),
    attrib = measure_frame(stats, attrib_names),
    allCAPs = measure_frame(stats, core_names(cap_names), cap_names),
    check_1way = check_component(lapply(one, function(x) x$table), m),
    check1 = if (length(one_msgs) == 0) "" else paste(one_msgs, collapse = "; "),
    check_2way = check_component(two, m),
    check2 = two_way_message(n_pairs, m),
    Nexclusions = exclusion_matrices(raw, m),
    measures = measure_frame(stats, names(stats)),
    keys = keys,
    target = target,
    digits = digits,
    Norig = as.integer(stats[["Nd"]][1]),
    Nsyn = as.integer(stats[["Ns"]]),
    m = m,
    to.print = to.print,
    call = call
  )
  class(x) <- c("synthrisk_disclosure", "disclosure")
  x
}

# "<n> pairs need checks". With m > 1 the count is that of the last synthesis with any
# pairs, as synthpop 1.9-3 reports the last synthesis; check_2way has them all.
two_way_message <- function(n_pairs, m) {
  if (all(n_pairs == 0)) return("")
  paste(n_pairs[max(which(n_pairs > 0))], "pairs need checks")
}
