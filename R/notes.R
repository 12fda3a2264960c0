# What was done to the data before counting, and where a number deliberately differs
# from synthpop 1.9-3 (definitions vignette, section 9): one line each, stored in the result and
# printed, so that nothing changes silently.

quote_names <- function(x) paste0("'", x, "'", collapse = ", ")

# Lines on the grouping of numeric variables: how many groups and their labels.
grouping_lines <- function(grouping) {
  # Keys asked to be grouped that are factors (ngroups_keys given for all keys, as
  # synthpop takes it) are named in one line, not one each.
  is_factor <- vapply(grouping, function(g) !isTRUE(g$grouped) && identical(g$reason, factor_reason), logical(1))
  factor_line <- if (any(is_factor)) {
    vars <- vapply(grouping[is_factor], function(g) g$variable, character(1))
    asked <- unique(vapply(grouping[is_factor], function(g) as.integer(g$ngroups), integer(1)))
    sprintf("Did not group %s (%s groups asked): %s.", quote_names(vars), paste(asked, collapse = " or "),
            if (length(vars) > 1) sub("^it is a factor", "they are factors", factor_reason) else factor_reason)
  }
  c(vapply(grouping[!is_factor], function(g) {
    if (isTRUE(g$grouped)) {
      labels <- g$labels
      # All labels up to a readable number; the rest are in the result's `grouping`.
      shown <- if (length(labels) > 30) c(labels[1:30], sprintf("and %d more (see $grouping)", length(labels) - 30)) else labels
      sprintf("Grouped '%s' into %d levels (%s breaks, %d asked): %s.", g$variable, as.integer(g$n_levels),
              g$style, as.integer(g$ngroups), paste(shown, collapse = ", "))
    } else {
      sprintf("Did not group '%s' (%d groups asked): %s.", g$variable, as.integer(g$ngroups),
              if (is.null(g$reason) || is.na(g$reason)) "left ungrouped" else g$reason)
    }
  }, character(1), USE.NAMES = FALSE), factor_line)
}

# Records of the original data removed by each exclusion step. The original table's
# exclusions do not depend on the synthesis, so the first synthesis speaks for all.
exclusion_line <- function(nexcl, n_orig) {
  if (length(nexcl) == 0 || !is.matrix(nexcl[[1]])) return(character(0))
  row <- nexcl[[1]][1, ]
  removed <- row[1:5]
  if (sum(removed) == 0) return(character(0))
  parts <- paste0(format_count(removed[removed > 0]), " for ",
                  exclusion_steps[names(removed)[removed > 0]])
  sprintf("Excluded %s of %s original records: %s; %s remain (see to.print = \"exclusions\").",
          format_count(sum(removed)), format_count(n_orig), paste(parts, collapse = ", "),
          format_count(row[6]))
}

adjusted_line <- function(adjusted, m) {
  if (length(adjusted) == 0) return(character(0))
  paste0("Made ", quote_names(adjusted), " factor", if (length(adjusted) > 1) "s", " in the original and synthetic ",
         "data to compare them (as synthpop's synorig.compare), in every synthesis.")
}

# Targets whose numbers synthpop 1.9-3 gets wrong by misaligning its tables: numeric,
# ungrouped, with values on one side only, and rows that do not meet (encode.R).
one_sided_targets <- function(enc, targets) {
  flags <- enc$synthpop_misaligned %||% enc$one_sided %||% logical(0)
  targets <- targets[targets %in% names(flags)[flags]]
  targets[vapply(targets, function(v) {
    is.null(enc$info[[v]]) || !is.null(enc$info[[v]]$numeric_levels)
  }, logical(1))]
}

# Whether `target` is one of one_sided_targets(): the same test for one target.
is_one_sided_target <- function(enc, target) {
  flags <- enc$synthpop_misaligned %||% enc$one_sided
  isTRUE(flags[target]) && (is.null(enc$info[[target]]) || !is.null(enc$info[[target]]$numeric_levels))
}

# Ungrouped numeric targets (among `targets`) with more distinct values than half the
# original records: nearly every record has a value of its own.
nearly_unique_targets <- function(enc, targets, n_orig) {
  targets[vapply(targets, function(v) {
    distinct <- enc$info[[v]]$original_distinct
    !is.null(distinct) && distinct > n_orig / 2
  }, logical(1))]
}

# Notes of one target's result: differences from synthpop 1.9-3 that affect its numbers.
# Called once per target of a call: what it reads of the encoding is looked up for the
# target, and the sentences are templates made once.
disclosure_notes <- function(x, enc, m) {
  target <- x$target
  notes <- character(0)
  distinct <- enc$info[[target]]$original_distinct
  if (!is.null(distinct) && distinct > x$Norig / 2) notes[["nearly_unique"]] <- sprintf(nearly_unique_note, target)
  if (is_one_sided_target(enc, target)) notes[["one_sided"]] <- sprintf(one_sided_note, target)
  tcap <- x$measures$TCAP_synthpop
  if (!is.null(tcap)) {
    # Fixed decimals by sprintf(), several times faster than format() (about 35 us a call).
    values <- sprintf("%.*f", as.integer(x$digits), round(tcap, x$digits) + 0)
    notes[[two_definition_measure]] <- sprintf(tcap_synthpop_note, paste(values, collapse = ", "))
  }
  if (length(enc$adjusted) > 0) {
    adjusted <- adjusted_line(enc$adjusted[enc$adjusted %in% c(x$keys, target)], m)
    if (length(adjusted) > 0) notes[["adjusted"]] <- adjusted
  }
  if (length(enc$label_gaps) == 0) return(notes)
  c(notes, label_gap_notes(enc, c(x$keys, target), m))
}

# The notes of each target of a call (disclosure_notes() of each), from the counts
# `raws` (in the order of `targets`) before the results are built: a call's targets
# most often have the TCAP note alone, formatted for all of them at once; a target with
# any other note (a nearly unique or one-sided target, adjusted variables, labels that
# do not meet) takes disclosure_notes() itself. A list of named character vectors.
targets_notes <- function(raws, targets, keys, enc, m, digits) {
  n <- length(targets)
  tcap <- lapply(raws, function(raw) .subset2(.subset2(raw, "stats"), "TCAP_synthpop"))
  norig <- vapply(raws, function(raw) as.integer(.subset2(.subset2(raw, "stats"), "Nd")[1]), integer(1),
                  USE.NAMES = FALSE)
  # disclosure_notes()'s own tests.
  own <- if (length(enc$adjusted) > 0 || length(enc$label_gaps) > 0) {
    rep(TRUE, n)
  } else {
    # For all targets at once, as disclosure_notes() decides target by target
    # (nearly unique, one-sided, TCAP of another length); an NA count of distinct
    # values leaves it to disclosure_notes().
    info <- (enc$info %||% list())[targets]
    distinct <- lapply(info, .subset2, "original_distinct")
    one_number <- lengths(distinct) == 1L
    not_nearly_unique <- lengths(distinct) == 0L
    fewer <- unlist(distinct[one_number], use.names = FALSE) <= norig[one_number] / 2
    not_nearly_unique[one_number] <- !is.na(fewer) & fewer
    flags <- (enc$synthpop_misaligned %||% enc$one_sided)[targets]
    flagged <- if (is.null(flags)) rep(FALSE, n) else !is.na(flags) & flags
    numeric_or_unknown <- vapply(info, is.null, logical(1)) |
      !vapply(lapply(info, .subset2, "numeric_levels"), is.null, logical(1))
    !(not_nearly_unique & !(flagged & numeric_or_unknown) & lengths(tcap) == m)
  }
  notes <- vector("list", n)
  common <- which(!own)
  if (length(common) > 0) {
    # Fixed decimals by sprintf(), as disclosure_notes(); each target's m values joined.
    values <- sprintf("%.*f", as.integer(digits), round(unlist(tcap[common], use.names = FALSE), digits) + 0)
    joined <- do.call(paste, c(lapply(seq_len(m), function(j) values[seq.int(j, by = m, length.out = length(common))]),
                               sep = ", "))
    text <- sprintf(tcap_synthpop_note, joined)
    notes[common] <- lapply(text, `names<-`, two_definition_measure)
  }
  for (i in which(own)) {
    x <- list(target = targets[[i]], Norig = norig[i], measures = list(TCAP_synthpop = tcap[[i]]), digits = digits,
              keys = keys)
    notes[[i]] <- disclosure_notes(x, enc, m)
  }
  notes
}

nearly_unique_note <- paste(
  "'%s' is a numeric target with nearly a value per record: few records share a value, so Dorig and the",
  "synthetic measures are near 0. Group it with ngroups_target (e.g. ngroups_target = 10).")

one_sided_note <- paste(
  "'%s' is an ungrouped numeric target with values on one side only: synthpop 1.9-3 misaligns its",
  "tables here and reports other numbers; synthrisk matches levels by value.")

tcap_synthpop_note <- paste(
  "TCAP is DiSCO / DiS, as Raab, Nowok & Dibben define it; synthpop 1.9-3's TCAP (DiSCO over the records",
  "whose key occurs in the synthetic data) would be %s (measures$TCAP_synthpop).")

# Notes named "labels:<variable>" for the variables among `vars` whose labels barely
# meet (R/label-gaps.R).
label_gap_notes <- function(enc, vars, m) {
  gaps <- (enc$label_gaps %||% list())[intersect(vars, names(enc$label_gaps))]
  if (length(gaps) == 0) return(character(0))
  stats::setNames(label_gap_lines(gaps, m), paste0("labels:", names(gaps)))
}

# The warning of a call whose keys or targets have labels that barely meet (class
# "synthrisk_labels_do_not_meet"); option synthrisk.warn_labels = FALSE keeps only the
# notes.
warn_label_gaps <- function(notes, call) {
  if (isFALSE(getOption("synthrisk.warn_labels"))) return(invisible())
  lines <- notes[startsWith(names(notes) %||% rep("", length(notes)), "labels:")]
  if (length(lines) == 0) return(invisible())
  cli::cli_warn(c("Labels of the original and synthetic data do not meet for {.val {sub('^labels:', '', names(lines))}}.",
                  stats::setNames(escape_braces(unname(lines)), rep("!", length(lines)))), call = call,
               class = "synthrisk_labels_do_not_meet")
}

multi_notes <- function(x, enc, given_exclusions, grouping_named = FALSE) {
  notes <- character(0)
  targets <- names(x$output.list)
  numeric_targets <- targets[vapply(targets, function(v) !is.null(enc$info[[v]]$numeric_levels), logical(1))]
  if (grouping_named && length(numeric_targets) > 0) {
    grouped <- names(Filter(function(g) isTRUE(g$grouped), enc$grouping %||% list()))
    notes[["ngroups_targets"]] <- paste0(
      "ngroups_targets names the targets it groups (", quote_names(intersect(targets, grouped)), "); ",
      "synthpop 1.9-3 ignores the names and groups every numeric target, here also ",
      quote_names(numeric_targets), ", so its numbers for ", if (length(numeric_targets) > 1) "those" else "it",
      " differ.")
  }
  unique_targets <- nearly_unique_targets(enc, targets, x$Norig)
  if (length(unique_targets) > 0) {
    notes[["nearly_unique"]] <- paste0(
      quote_names(unique_targets), if (length(unique_targets) > 1) " are numeric targets" else " is a numeric target",
      " with nearly a value per record: few records share a value, so Dorig and the synthetic measures are near 0.",
      " Group ", if (length(unique_targets) > 1) "them" else "it", " with ngroups_targets (e.g. ",
      "ngroups_targets = c(", paste0(unique_targets, " = 10", collapse = ", "), ")).")
  }
  if (x$m > 1 && x$ident.meas == default_ident_meas) {
    notes[["ident_mean"]] <- paste("repU is the mean over the", x$m, "syntheses; synthpop 1.9-3 reports the first",
                                   "synthesis only.")
  }
  if (x$ident.meas == "UiSiO") {
    notes[["UiSiO"]] <- "ident.meas = \"UiSiO\" reports UiOiS; synthpop 1.9-3 reads a column that does not exist and gives NA."
  }
  if (x$ident.meas == "baseCAPd") {
    notes[["baseCAPd"]] <- paste("ident.meas = \"baseCAPd\" reports each target's baseline CAP (not an identity",
                                 "measure); synthpop 1.9-3 gives NA.")
  }
  if (x$attrib.meas == "DiSDiO") {
    notes[["DiSDiO"]] <- "attrib.meas = \"DiSDiO\" compares Dorig with DiSDiO; synthpop 1.9-3 gives NA for the original measure."
  }
  if (x$attrib.meas == two_definition_measure) {
    notes[[two_definition_measure]] <- paste("TCAP is DiSCO / DiS, as Raab, Nowok & Dibben define it;",
                                            "synthpop 1.9-3's differs (measures$TCAP_synthpop).")
  }
  if (given_exclusions) {
    notes[["exclude.keylevs"]] <- paste("exclude.keylevs is used as given; synthpop 1.9-3 passes exclude.targetlevs in",
                                        "its place, so its exclusions differ.")
  }
  one_sided <- one_sided_targets(enc, names(x$output.list))
  if (length(one_sided) > 0) {
    notes[["one_sided"]] <- paste0(quote_names(one_sided), if (length(one_sided) > 1) " are" else " is",
                                   " numeric with values on one side only: synthpop 1.9-3 misaligns such tables;",
                                   " synthrisk matches levels by value.")
  }
  adjusted <- adjusted_line(enc$adjusted, x$m)
  if (length(adjusted) > 0) notes[["adjusted"]] <- adjusted
  c(notes, label_gap_notes(enc, c(x$keys, names(x$output.list)), x$m))
}

# The last line print.flag = TRUE writes (synthpop 1.9-3 reports each target and
# synthesis as it counts them): what was counted, against what.
counted_line <- function(targets, keys, n_orig, n_syn) {
  m <- length(n_syn)
  syn_sizes <- if (length(unique(n_syn)) == 1) format_count(n_syn[1]) else paste(format_count(n_syn), collapse = ", ")
  sprintf("Counted %s %s with keys %s: %s original records against %s (%s records%s).",
          if (length(targets) == 1) "target" else paste(length(targets), "targets"), quote_names(targets),
          quote_names(keys), format_count(n_orig), if (m == 1) "1 synthesis" else paste(m, "syntheses"), syn_sizes,
          if (m > 1 && length(unique(n_syn)) == 1) " each" else "")
}

# What print.flag = TRUE writes while computing, and print() repeats.
# `timing`: whether the database's query time is said (print.flag = TRUE only; a
# printout says the same each time).
preparation_lines <- function(x, enc = NULL, timing = FALSE) {
  c(input_lines(x$input, x$database, timing),
    grouping_lines(x$grouping %||% list()),
    exclusion_line(x$Nexclusions, x$Norig),
    if (!is.null(note_of(x, "adjusted"))) note_of(x, "adjusted"))
}

multi_preparation_lines <- function(x, enc = NULL, timing = FALSE) {
  excl <- unlist(lapply(x$output.list, function(d) {
    line <- exclusion_line(d$Nexclusions, d$Norig)
    if (length(line) > 0) paste0(d$target, ": ", line) else character(0)
  }), use.names = FALSE)
  c(input_lines(x$input, x$database, timing), grouping_lines(x$grouping %||% list()), excl,
    if (!is.null(note_of(x, "adjusted"))) note_of(x, "adjusted"))
}

note_of <- function(x, name) {
  notes <- x$notes %||% character(0)
  if (name %in% names(notes)) notes[[name]] else NULL
}

# Lines written by print.flag = TRUE, wrapped at the console width (continuations
# indented), as print() wraps the same lines.
wrap_lines <- function(lines) {
  width <- cli::console_width()
  unlist(lapply(lines, function(line) strwrap(line, width = width, exdent = 2)), use.names = FALSE)
}

# The notes as bullets: labels that do not meet are a warning ("!"), the rest
# information ("i").
note_bullets <- function(notes) {
  nm <- names(notes) %||% rep("", length(notes))
  for (i in seq_along(notes)) {
    cli::cli_bullets(stats::setNames(escape_braces(notes[[i]]), if (startsWith(nm[i], "labels:")) "!" else "i"))
  }
}
