# Counting every target: the targets in groups (all at once for data held in R, one at
# a time when a dataset is a database table, see target_groups()), each group's
# datasets of the request encoded and handed to the core by `run_group(enc, targets)`
# (with `precompute(before, targets)`, the core's calls to make in the same crossing
# as the encoding, see encode_prepared()), which returns a
# named list of raw results per target (e.g. list(train = ..., control = ...)). The
# groups' encodings are merged for labelling and notes.
#
# Returns list(enc = the merged encoding (with a `ptr` only when there is one group),
# raw = per name of run_group()'s list, the raw results of all targets, encodings =
# per group, input = what each dataset was (see input_table()), fetch = what the
# database counted (see fetch_log(); NULL if nothing)).
count_targets <- function(request, run_group, precompute = NULL) {
  keys <- request$keys
  targets <- request$targets
  syn <- request$syn
  control <- request$control
  call <- request$env
  originals <- c(list(request$data), syn, if (!is.null(control)) list(control))
  m <- length(syn)
  groups <- target_groups(targets, originals)
  in_database <- vapply(originals, is_db_table, logical(1))
  counts <- if (any(in_database)) db_counts(keys, targets, originals, m, call)
  encodings <- vector("list", length(groups))
  raw <- list()
  for (g in seq_along(groups)) {
    group <- groups[[g]]
    vars <- c(keys, group)
    ds <- if (is.null(counts)) originals else group_datasets(group, originals, counts)
    prepared <- prepare_variables(vars, ds[[1]], ds[1 + seq_len(m)], request$cont.na, request$ngroups[vars],
                                  strict = request$strict, call = call, control = if (!is.null(control)) ds[[m + 2]])
    # Only targets can have tables synthpop misaligns (encode_prepared()).
    prepared$targets <- group
    calls <- if (!is.null(precompute)) precompute(prepared$before, group)
    enc <- encode_prepared(prepared, request$n_threads, call, calls)
    out <- run_group(enc, group)
    for (nm in names(out)) raw[[nm]] <- c(raw[[nm]], out[[nm]])
    # Each group's encoding holds its datasets; only a single group's is kept whole
    # (record_risk() reads it again).
    if (length(groups) > 1) enc$ptr <- NULL
    encodings[[g]] <- enc
  }
  enc <- merge_encodings(encodings, m, call)
  fetch <- if (!is.null(counts)) fetch_log(counts, m)
  list(enc = enc, raw = raw, encodings = encodings, fetch = fetch, input = input_table(originals, enc$records, fetch, m))
}

# One encoding from those of several groups of targets: per variable its labels,
# information, grouping and flags (the keys' are the same in every group).
merge_encodings <- function(encodings, m, call) {
  if (length(encodings) == 1) return(encodings[[1]])
  by_var <- function(field) {
    out <- list()
    for (e in encodings) {
      for (v in names(e[[field]])) if (is.null(out[[v]])) out[[v]] <- e[[field]][[v]]
    }
    out
  }
  records <- encodings[[1]]$records
  for (e in encodings[-1]) {
    differ <- which(e$records != records)
    if (length(differ) > 0) {
      j <- differ[1]
      cli::cli_abort(c(paste0("The database counted ", format_count(records[j]), " and then ",
                              format_count(e$records[j]), " records in ",
                              cli::format_inline(dataset_where(j - 1L, m)), " for different targets."),
                       i = "The table changed while it was counted, or its query does not return the same rows each time."),
                     call = call)
    }
  }
  list(vars = unique(unlist(lapply(encodings, `[[`, "vars"), use.names = FALSE)), labels = by_var("labels"),
       info = by_var("info"), adjusted = unique(unlist(lapply(encodings, `[[`, "adjusted"), use.names = FALSE)),
       grouping = by_var("grouping"), label_gaps = by_var("label_gaps"), one_sided = unlist(by_var("one_sided")),
       synthpop_misaligned = unlist(by_var("synthpop_misaligned")),
       control = if (!is.null(encodings[[1]]$control)) by_var("control"),
       weights = NULL, records = records)
}

# `data`, a synthesis or `control` in messages (0 = the original, m + 1 = control).
dataset_where <- function(j, m) {
  if (j > m) "{.arg control}" else dataset_name(j, m)
}

# What each dataset was: `source` ("records", "counted cells" or "database"), its
# `records`, and the `rows` counted in R (records or cells), or, for a database table,
# the rows its queries returned.
input_table <- function(datasets, records, fetch, m) {
  n <- length(datasets)
  labels <- c("original", paste("synthesis", seq_len(m))[seq_len(m)], rep("control", n - m - 1L))
  source <- rep("records", n)
  source[vapply(datasets, is_cell_counts, logical(1), USE.NAMES = FALSE)] <- "counted cells"
  in_database <- vapply(datasets, is_db_table, logical(1), USE.NAMES = FALSE)
  source[in_database] <- "database"
  # A data frame's rows from its row names (no nrow() method lookups; a first column
  # that is a matrix or a data frame has another length).
  rows <- as.double(vapply(datasets, .row_names_info, integer(1), type = 2L, USE.NAMES = FALSE))
  for (j in which(in_database)) rows[j] <- sum(fetch$rows[fetch$dataset == labels[j]])
  vctrs::new_data_frame(list(dataset = labels, source = source, records = as.double(records), rows = rows))
}

# Lines saying how the data were given, when some were not records: counted cells, or
# counted by the database (queries, cells returned, seconds).
input_lines <- function(input, fetch, timing = FALSE) {
  if (is.null(input) || all(input$source == "records")) return(character(0))
  lines <- character(0)
  cells <- input[input$source == "counted cells", , drop = FALSE]
  if (nrow(cells) > 0) {
    lines <- c(lines, paste0("Counted cells: ", paste0(cells$dataset, ": ", format_count(cells$records), " records in ",
                                                      format_count(cells$rows), " cells", collapse = "; "), "."))
  }
  db <- input[input$source == "database", , drop = FALSE]
  if (nrow(db) > 0) {
    lines <- c(lines, sprintf(paste0("Counted in the database: %s; %s GROUP BY quer%s returned %s rows of counts ",
                                     "(%s per record held)%s."),
                              paste0(db$dataset, " (", format_count(db$records), " records)", collapse = ", "),
                              format_count(nrow(fetch)), if (nrow(fetch) == 1) "y" else "ies", format_count(sum(fetch$rows)),
                              format(signif(sum(fetch$rows) / sum(db$records), 3), scientific = FALSE),
                              if (timing) sprintf(" in %.2f s", sum(fetch$seconds)) else ""))
    read <- fetch[fetch$query == "rows", , drop = FALSE]
    if (nrow(read) > 0) {
      lines <- c(lines, paste0(
        "The keys left most records alone in their tuple, so ", format_count(nrow(read)), " of those queries read ",
        format_count(sum(read$rows)), " records as they are (targets ", paste0("'", unique(read$targets), "'", collapse = ", "),
        ") instead of grouping them; with such keys, collect() the tables (vignette(\"database\"))."))
    }
  }
  lines
}
