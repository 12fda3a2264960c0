# The 2-way checks (definitions vignette, section 7) of every target of a call at once:
# per target (`targets`, named by them) and synthesis (1..m), the data frame of the
# pairs whose target level makes up more than thresh[2] percent of the key level, or
# NULL. `raws`: each target's counts, in the order of `targets`; `labels`: every
# variable's labels. The glue labels, lays out and builds the tables
# (rust_two_way_tables()); R gives it the one thing the glue cannot know, the labels'
# order in the locale, as synthpop sorts them. The glue orders each target's labels by
# their bytes, most often the locale's order already: locale_rank() checks that with
# one comparison of neighbours, and where the locale orders a target's labels
# otherwise, the tables are made again with the locale's ranks.
two_way_checks <- function(raws, m, targets, keys, labels, thresh, call = rlang::caller_env()) {
  handle <- list(pairs = lapply(raws, .subset2, "two_way"), target_labels = unname(labels[targets]),
                 key_labels = unname(labels[keys]), keys = unname(keys), key_names = names(keys))
  made <- rust_result(rust_two_way_tables(handle, m, thresh[2]), call = call)
  in_bytes <- seq_along(made$labels)
  ranks <- locale_rank(made$labels, in_bytes, group = made$label_target)
  if (!identical(ranks, in_bytes)) made <- rust_result(rust_two_way_tables(handle, m, thresh[2], ranks), call = call)
  out <- made$tables
  names(out) <- targets
  out
}
