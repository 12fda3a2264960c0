# Each target's components as the package built them in R until the twenty-seventh
# session (checked then against synthpop 1.9-3's objects and the plain reference): the
# reference for the glue's (test-disclosure-parts.R), which must be identical to it.
# A data frame of the measures at positions `at` of stats_columns() (measure_positions()),
# named `names`: the data frame vctrs::new_data_frame() makes, its attributes set in one
# step (a small call makes some 20 to 40 of these).
measure_frame <- function(columns, at, names) {
  out <- .subset(columns, at)
  attributes(out) <- list(class = "data.frame", row.names = c(NA_integer_, -length(.subset2(out, 1L))), names = names)
  out
}

# Where the measures `names` are among the core's (`stat_names`, the names of
# stats_columns()); every one must be there.
measure_positions <- function(names, stat_names) {
  at <- match(names, stat_names)
  if (anyNA(at)) stop("internal error: the core gave no measure ", names[is.na(at)][1], call. = FALSE)
  at
}

# Per target (in the order of `raws`), its exclusions: per synthesis (1..m) the matrix
# of the records each step removed from each table, and the table's remaining records.
# The core gives, per table, each synthesis's removed records and the table's total in
# turn; "remaining" is the total less the removed. Worked out for all targets, tables
# and syntheses at once, then each matrix read out at its offsets.
exclusion_matrices <- function(raws, m) {
  n_steps <- length(exclusion_cols)
  n_tables <- length(exclusion_rows)
  per_target <- lapply(raws, function(raw) unlist(.subset(.subset2(raw, "nexcl"), exclusion_rows), use.names = FALSE))
  sizes <- lengths(per_target, use.names = FALSE)
  # Every table for every synthesis, or the targets after a short one would be read at
  # the wrong offsets: an error, never numbers of another target.
  if (any(sizes %% (n_steps * n_tables) != 0L | sizes < n_steps * n_tables * m)) {
    stop("internal error: the core's exclusion counts are not a table per step and synthesis", call. = FALSE)
  }
  counts <- unlist(per_target, use.names = FALSE)
  n_runs <- length(counts) %/% n_steps
  totals <- seq.int(n_steps, by = n_steps, length.out = n_runs)
  # Whole counts below 2^52 (twice a total stays exact): total - sum(removed) exactly.
  counts[totals] <- 2 * counts[totals] - .colSums(counts, n_steps, n_runs)
  # A target's synthesis 1's (table, step) cells, column-major, from its start;
  # synthesis j's are n_steps further on per synthesis.
  starts <- c(0L, cumsum(sizes))
  # Loops rather than lapply() of closures: a small call makes some 25 to 45 matrices.
  out <- vector("list", length(raws))
  steps <- rep(seq_len(n_steps), each = n_tables)
  for (i in seq_along(raws)) {
    runs_per_table <- sizes[i] %/% n_steps %/% n_tables
    first <- starts[i] + steps + (seq_len(n_tables) - 1L) * runs_per_table * n_steps
    matrices <- vector("list", m)
    for (j in seq_len(m)) {
      x <- counts[first + (j - 1L) * n_steps]
      attributes(x) <- exclusion_matrix_attributes
      matrices[[j]] <- x
    }
    out[[i]] <- matrices
  }
  out
}

# Per target (`targets`, in the order of `raws`) and synthesis (1..m), the 1-way check:
# list(table, message) for a synthesis whose level with most disclosive records passes
# both thresholds, else NULL. Worked out for all targets and syntheses at once; a
# table is built only where the check flags. `labels`: every variable's labels.
one_way_checks <- function(raws, m, targets, labels, thresh) {
  ways <- lapply(raws, .subset2, "one_way")
  # Each field of a target holds a value per table (the syntheses first): its first m
  # of every target, picked from all targets' values at once.
  n_tables <- lengths(lapply(ways, .subset2, "level"), use.names = FALSE)
  if (any(n_tables < m)) stop("internal error: the core's 1-way counts are not a value per synthesis", call. = FALSE)
  pick <- rep(c(0L, cumsum(n_tables))[seq_along(ways)], each = m) + seq_len(m)
  field <- function(name) {
    values <- unlist(lapply(ways, .subset2, name), use.names = FALSE)
    if (length(values) != sum(n_tables)) stop("internal error: the core's 1-way field ", name, " is short", call. = FALSE)
    values[pick]
  }
  level <- field("level")
  n_level <- field("n_level_dis")
  total <- field("total_disclosive")
  pct_dis <- 100 * n_level / total
  flagged <- which(!is.na(level) & total != 0 & n_level > thresh[1] & pct_dis > thresh[2])
  out <- rep(list(vector("list", m)), length(raws))
  if (length(flagged) == 0) return(out)
  all_orig <- field("all_orig")
  level_orig <- field("level_orig")
  for (k in flagged) {
    i <- (k - 1L) %/% m + 1L
    target <- targets[i]
    lab <- labels[[target]][level[k]]
    tab <- vctrs::new_data_frame(list(Level = lab, All = all_orig[k], PctLevelAll = 100 * level_orig[k] / all_orig[k],
                                      totalDisclosive = total[k], nLevelDis = n_level[k], PctLevelDis = pct_dis[k]),
                                 row.names = lab)
    out[[i]][[k - (i - 1L) * m]] <- list(table = tab, message = paste("Check ", target, " level ", lab))
  }
  out
}

# m == 1: the table itself, or list("") when nothing is flagged (as synthpop);
# m > 1: one element per synthesis, "" where nothing is flagged.
check_component <- function(tables, m) {
  if (m == 1) {
    return(if (is.null(tables[[1]])) list("") else tables[[1]])
  }
  # (A table has columns, so only NULL has length 0.)
  tables[lengths(tables) == 0L] <- list("")
  tables
}

# Each target's components (`targets`, their raw counts `raws` in the same order), named
# by target. `two`: the targets' 2-way checks (two_way_checks(), made for all targets
# at once, named by target), or NULL for none. The exclusions and 1-way checks of all
# targets are worked out together; each list is not yet classed (disclosure_class).
build_disclosures_reference <- function(raws, targets, keys, labels, m, thresh_1way, two, digits, to.print, call) {
  ones <- one_way_checks(raws, m, targets, labels, thresh_1way)
  exclusions <- exclusion_matrices(raws, m)
  no_pairs <- vector("list", m)
  stat_names <- names(stats_columns(raws[[1]]))
  ident_at <- measure_positions(ident_names, stat_names)
  attrib_at <- measure_positions(attrib_names, stat_names)
  caps_at <- measure_positions(cap_core_names, stat_names)
  # A target without a flagged table (most) takes the same empty check components.
  no_check <- check_component(no_pairs, m)
  out <- lapply(seq_along(targets), function(i) {
    target <- targets[i]
    stats <- stats_columns(raws[[i]])
    one <- ones[[i]]
    two_i <- .subset2(two, target)
    if (all(lengths(one, use.names = FALSE) == 0L)) {
      check_1way <- no_check
      check1 <- ""
    } else {
      # synthpop 1.9-3 keeps the message of the last synthesis the 1-way check flags;
      # check_1way has every synthesis's table.
      one_msgs <- unlist(lapply(one, .subset2, "message"))
      check_1way <- check_component(lapply(one, .subset2, "table"), m)
      check1 <- one_msgs[[length(one_msgs)]]
    }
    if (all(lengths(two_i, use.names = FALSE) == 0L)) {
      check_2way <- no_check
      check2 <- ""
    } else {
      check_2way <- check_component(two_i, m)
      # Rows of each table (its first column's length; none for NULL), without NROW()'s dispatch.
      check2 <- two_way_message(lengths(lapply(two_i, .subset2, 1L), use.names = FALSE), m)
    }
    list(
      ident = measure_frame(stats, ident_at, ident_names),
      attrib = measure_frame(stats, attrib_at, attrib_names),
      allCAPs = measure_frame(stats, caps_at, cap_names),
      check_1way = check_1way,
      check1 = check1,
      check_2way = check_2way,
      check2 = check2,
      Nexclusions = exclusions[[i]],
      keys = keys,
      target = target,
      digits = digits,
      Norig = as.integer(stats[["Nd"]][1]),
      to.print = to.print,
      call = call,
      # synthrisk's components after synthpop 1.9-3's.
      measures = measure_frame(stats, seq_along(stats), names(stats)),
      Nsyn = as.integer(stats[["Ns"]]),
      m = m
    )
  })
  names(out) <- targets
  out
}

