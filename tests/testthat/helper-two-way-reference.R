# The 2-way check's tables as the package built them in R until the twenty-seventh
# session (checked then against synthpop 1.9-3's objects and the plain reference):
# the reference for the glue's tables (test-two-way-checks.R), which must be identical
# to it, factor levels, row names and order included.
# Per target (`targets`, named) and synthesis (1..m), the 2-way check: the data frame
# of the pairs whose target level makes up more than thresh[2] percent of the key
# level, or NULL. `raws`: each target's raw counts, in the order of `targets`. The pairs
# of all targets and syntheses are labelled, ranked and sorted together (a call pays
# once for what each target paid apart: about a tenth of a small call), then split by
# target and synthesis.
two_way_checks_reference <- function(raws, m, targets, keys, labels, thresh) {
  out <- rep(list(vector("list", m)), length(targets))
  names(out) <- targets
  tws <- lapply(raws, .subset2, "two_way")
  column <- function(name, of = seq_along(tws)) unlist(lapply(tws[of], .subset2, name), use.names = FALSE)
  synthesis <- column("synthesis")
  target_of <- rep.int(seq_along(targets), lengths(lapply(tws, .subset2, "synthesis"), use.names = FALSE))
  key_target_total <- column("key_target_total")
  key_total <- column("key_total")
  pct <- 100 * key_target_total / key_total
  # Rows of the holdout records (synthesis m + 1) are not the syntheses' tables.
  in_syntheses <- synthesis <= m
  keep <- pct > thresh[2] & in_syntheses
  if (!any(keep)) return(out)
  # Only the targets with a pair to show are labelled: their rows of the syntheses.
  shown_targets <- unique(target_of[keep])
  of_shown <- target_of %in% shown_targets
  rows <- which(of_shown & in_syntheses)
  within_shown <- which(in_syntheses[of_shown])
  pick <- function(x) x[within_shown]
  synthesis <- synthesis[rows]
  target_of <- target_of[rows]
  key_target_total <- key_target_total[rows]
  key_total <- key_total[rows]
  pct <- pct[rows]
  keep <- keep[rows]
  key <- pick(column("key", shown_targets))
  npairs <- pick(column("npairs", shown_targets))
  # Every pair of the DiSCO cells above thresh[1] is labelled: the factor's levels.
  # Each (target, target level, key, key level) as one number; the syntheses share
  # most pairs, so each distinct pair is labelled once.
  key_labels <- unlist(labels[keys], use.names = FALSE)
  key_offset <- c(0L, cumsum(lengths(labels[keys], use.names = FALSE)))
  key_id <- key_offset[key] + pick(column("key_level", shown_targets))
  target_labels <- unlist(labels[targets], use.names = FALSE)
  target_offset <- c(0L, cumsum(lengths(labels[targets], use.names = FALSE)))
  target_id <- target_offset[target_of] + pick(column("target_level", shown_targets))
  pair_id <- (key_id - 1) * length(target_labels) + target_id
  first <- which(!duplicated(pair_id))
  distinct_target <- target_labels[target_id[first]]
  distinct_key <- key_labels[key_id[first]]
  distinct_pairs <- paste(distinct_target, distinct_key, sep = "|")
  of_distinct <- match(pair_id, pair_id[first])
  # Each pair's label as a number (one for equal labels).
  pair_label <- match(distinct_pairs, distinct_pairs)[of_distinct]
  # The labels' text order (the locale's, as synthpop sorts them), worked out once on
  # the distinct labels, within each target: the sorts below then compare integers.
  # Target label, then key label, by bytes is most often that order already
  # (locale_rank() checks it).
  distinct_of <- target_of[first]
  pair_rank <- locale_rank(distinct_pairs, order(distinct_of, distinct_target, distinct_key, method = "radix"),
                           group = distinct_of)[of_distinct]
  # All pairs by target and synthesis, key by key, pair labels sorted: each
  # (target, synthesis) run gives its factor levels and, as synthpop's row names, each
  # pair's place in it.
  run <- (target_of - 1L) * m + synthesis
  by_key <- order(run, key, pair_rank, method = "radix")
  sorted_run <- run[by_key]
  run_start <- match(sorted_run, sorted_run)
  place <- integer(length(run))
  place[by_key] <- seq_along(by_key) - run_start + 1L
  # A run's pairs have distinct labels unless two keys share a label: then its levels
  # are the distinct ones and a pair's code is its label's place among them.
  labels_repeat <- anyDuplicated(run * (length(distinct_pairs) + 1) + pair_label) > 0
  # Per run, most pairs first; ties keep synthpop's order: key by key, pair labels
  # sorted.
  shown <- which(keep)
  shown <- shown[order(run[shown], -npairs[shown], key[shown], pair_rank[shown], method = "radix")]
  columns <- list(target_key_levs = NULL, npairs = as.integer(npairs[shown]), key = unname(keys)[key[shown]],
                  key_target_total = key_target_total[shown], key_total = key_total[shown],
                  PctTargetKeyLevel = pct[shown])
  key_names <- names(keys)[key[shown]]
  # The shown rows' runs: where each starts and ends among the shown rows, and among
  # all the pairs (by_key order).
  shown_run <- run[shown]
  starts <- which(!duplicated(shown_run))
  ends <- c(starts[-1L] - 1L, length(shown))
  first_all <- match(shown_run[starts], sorted_run)
  last_all <- length(sorted_run) + 1L - match(shown_run[starts], rev(sorted_run))
  for (k in seq_along(starts)) {
    at <- starts[k]:ends[k]
    # Each column's rows of the run (the first, the factor, is made below).
    cols <- columns
    for (j in 2:length(columns)) cols[[j]] <- .subset(.subset2(columns, j), at)
    # Keys named by the user: their names, when distinct, name the rows (as
    # data.frame() took them from the key column). Otherwise, as synthpop's, each row
    # is named by its place among all of its synthesis's pairs (the table synthpop
    # sorts and then filters).
    places <- place[shown[at]]
    names_k <- key_names[at]
    row_names <- if (!is.null(names_k) && !anyDuplicated(names_k) && any(nzchar(names_k))) names_k else places
    # A factor, as synthpop gives it: its levels are every pair of the run's DiSCO
    # cells above thresh[1], key by key, pair labels sorted, the table's rows among them.
    run_labels <- pair_label[by_key[first_all[k]:last_all[k]]]
    if (labels_repeat) {
      run_labels <- unique(run_labels)
      places <- match(pair_label[shown[at]], run_labels)
    }
    # (attr<- and class<- rather than structure(), which costs several times as much.)
    attr(places, "levels") <- distinct_pairs[run_labels]
    class(places) <- "factor"
    cols$target_key_levs <- places
    j <- shown[starts[k]]
    out[[target_of[j]]][[synthesis[j]]] <- vctrs::new_data_frame(cols, n = length(at), row.names = row_names)
  }
  out
}

