# The synthetic data as a list of m data frames, and the columns of one variable made
# comparable between the original and every synthesis (definitions vignette, section 1).

synthesis_list <- function(object, call) {
  if (inherits(object, "synds")) {
    m <- object$m
    syn <- object$syn
    if (is.data.frame(syn)) syn <- list(syn)
    if (!is.list(syn) || length(syn) == 0 || !all(vapply(syn, is.data.frame, logical(1)))) {
      cli::cli_abort("{.arg object} is a {.cls synds} whose {.field syn} is not a data frame or list of data frames.",
                     call = call)
    }
    if (!is.null(m) && length(syn) != m) {
      cli::cli_abort("{.arg object} says {.field m} = {m} but holds {length(syn)} synthes{?is/es}.", call = call)
    }
    return(list(syn = syn, cont.na = object$cont.na))
  }
  if (is.data.frame(object) || is_db_table(object)) {
    return(list(syn = list(object), cont.na = NULL))
  }
  is_synthesis <- function(x) is.data.frame(x) || is_db_table(x)
  if (is.list(object) && length(object) > 0 && all(vapply(object, is_synthesis, logical(1)))) {
    return(list(syn = unname(object), cont.na = NULL))
  }
  cli::cli_abort(
    "{.arg object} must be a {.cls synds} object, a data frame, a database table or a list of those, not {.obj_type_friendly {object}}.",
    call = call
  )
}

check_syntheses <- function(syn, call) {
  if (any(vapply(syn, is_db_table, logical(1)))) check_db_packages(call)
  for (j in seq_along(syn)) {
    if (is_db_table(syn[[j]])) check_db_connection(syn[[j]], dataset_name(j, length(syn)), call)
    # A database table's records are counted later (group_datasets()).
    if (!is_db_table(syn[[j]]) && nrow(syn[[j]]) == 0) {
      cli::cli_abort("Synthesis {j} of {.arg object} has no rows.", call = call)
    }
    if (!is_db_table(syn[[j]]) && anyDuplicated(names(syn[[j]]))) {
      abort_repeated_names(syn[[j]], paste0("Synthesis ", j, " of {.arg object}"), call)
    }
  }
}

# `cont.na` as a named list of numeric codes per variable, NA removed (NaN is a code
# like any other). A stratified synds (syn.strata) holds a list-matrix with one row
# per stratum: the codes of a variable are the union over rows (definitions vignette, section 2.3).
normalise_cont_na <- function(cont.na, call) {
  if (is.null(cont.na) || length(cont.na) == 0) return(list())
  if (!is.list(cont.na) || is.data.frame(cont.na)) {
    cli::cli_abort(c("{.arg cont.na} must be a named list of numeric codes per variable, not {.obj_type_friendly {cont.na}}.",
                     i = "For example {.code list(income = c(-8, -9))}."), call = call)
  }
  vars <- if (length(dim(cont.na)) == 2) colnames(cont.na) else names(cont.na)
  if (is.null(vars) || anyNA(vars) || !all(nzchar(vars))) {
    cli::cli_abort(c("{.arg cont.na} must name the variable of each entry.",
                     i = "For example {.code list(income = c(-8, -9))}."), call = call)
  }
  entries <- if (length(dim(cont.na)) == 2) {
    lapply(seq_len(ncol(cont.na)), function(k) unlist(cont.na[, k], recursive = FALSE, use.names = FALSE))
  } else {
    unclass(cont.na)
  }
  fast <- normalise_plain_cont_na(entries, vars)
  if (!is.null(fast)) return(fast)
  out <- list()
  for (i in seq_along(entries)) {
    x <- entries[[i]]
    ok <- is.null(x) || (is.atomic(x) && all(is.na(x) & !is.nan(x))) ||
      ((is.double(x) || is.integer(x)) && is.null(attr(x, "class")))
    if (!ok) {
      cli::cli_abort(c("{.arg cont.na} entry {.field {vars[i]}} must be numeric codes (or {.code NA} for none).",
                       x = "It is {.obj_type_friendly {x}}: {.val {show_values(format(x))}}."), call = call)
    }
    codes <- if (is.null(x) || !is.numeric(x)) numeric(0) else as.double(x[!is.na(x) | is.nan(x)])
    out[[vars[i]]] <- unique(c(out[[vars[i]]], codes))
  }
  out
}

# normalise_cont_na()'s result for entries that are all NULL, NA (logical) or numbers
# without a class (syn()'s lists hold one per variable, most NA), worked out for all
# entries at once; NULL for any other entries, which the loop checks one by one.
normalise_plain_cont_na <- function(entries, vars) {
  # (Not recursive: an entry that is a list stays one, and a list is no code.)
  flat <- unlist(entries, recursive = FALSE, use.names = FALSE)
  if (!(is.double(flat) || is.integer(flat) || is.logical(flat)) || any(vapply(entries, is.object, NA))) return(NULL)
  owner <- rep.int(seq_along(entries), lengths(entries))
  # A logical entry is NA only (TRUE is no code: the loop's error).
  if (!all(is.na(flat[vapply(entries, is.logical, NA)[owner]]))) return(NULL)
  values <- as.double(flat)
  keep <- !is.na(values) | is.nan(values)
  names_once <- unique(vars)
  out <- rep(list(numeric(0)), length(names_once))
  names(out) <- names_once
  by <- match(vars, names_once)[owner[keep]]
  values <- values[keep]
  for (k in unique(by)) out[[k]] <- unique(values[by == k])
  out
}

# Codes of `cont.na` (normalised) for one variable.
cont_na_codes <- function(cont.na, var) {
  codes <- cont.na[[var]]
  if (is.null(codes)) numeric(0) else codes
}

is_plain_numeric <- function(x) {
  (is.double(x) || is.integer(x)) && is.null(attr(x, "class"))
}

# A column with the wrappers that do not change its values removed: I() and POSIXlt;
# integer64 (bit64) made a plain number where every value is one exactly.
plain_column <- function(x) {
  if (!is.object(x)) return(x)
  if (inherits(x, "AsIs")) class(x) <- setdiff(class(x), "AsIs")
  if (inherits(x, "POSIXlt")) x <- as.POSIXct(x)
  if (inherits(x, "integer64")) x <- integer64_as_number(x)
  x
}

# Largest whole number a double holds exactly, with every smaller one.
max_exact_double <- 2^53

# An integer64 column (databases return BIGINT so) as the plain number R would hold:
# integer when every value fits, else double when every value is exact in a double
# (|x| <= 2^53), so that it counts, groups and labels as the same numbers held as
# integers or doubles. Beyond 2^53 it stays integer64, counted by its exact labels
# (grouping it is an error, integer64_beyond_double()). Without bit64 it stays as is
# (the column check refuses it).
integer64_as_number <- function(x) {
  if (!requireNamespace("bit64", quietly = TRUE)) return(x)
  if (any(integer64_beyond_double(x))) return(x)
  known <- !is.na(x)
  if (all(abs(as.double(x[known])) <= .Machine$integer.max)) return(as.integer(x))
  as.double(x)
}

# A plain numeric column whose values are all whole numbers (or NA) as integer64, for
# comparing by label with an integer64 side; anything else as it is.
whole_as_integer64 <- function(x) {
  if (!is_plain_numeric(x)) return(x)
  known <- x[!is.na(x)]
  if (any(!is.finite(known) | known != round(known) | abs(known) > max_exact_double)) return(x)
  bit64::as.integer64(x)
}

# Per value of an integer64 column: beyond what a double holds exactly (NA: FALSE).
integer64_beyond_double <- function(x) {
  limit <- bit64::as.integer64(max_exact_double)
  !is.na(x) & (x > limit | x < -limit)
}

# What kind of variable a column is, in words used by messages.
column_kind <- function(x) {
  # Texts the database path coded once (coded_text()) are texts.
  if (inherits(x, "synthrisk_text")) return("character")
  if (is.factor(x)) return("factor")
  if (is_plain_numeric(x)) return("numeric")
  if (is.character(x)) return("character")
  if (is.logical(x)) return("logical")
  if (inherits(x, "Date")) return("Date")
  if (inherits(x, "POSIXct")) return("POSIXct")
  if (inherits(x, "difftime")) return("difftime")
  paste0("<", class(x)[1], ">")
}

# Columns of `var` in the original (first) and every synthesis, as factors whose levels
# are labels (definitions vignette, section 1): unless every side is plain numeric, each side becomes a
# factor of its labels; levels are matched by label later. With `strict` (that is,
# compare.synorig = FALSE) sides of different kinds are an error. Holdout records
# (`control`, or NULL) come last; they follow the kind of the original and synthetic
# data and never change what is done to those.
comparable_columns <- function(var, data, syn, strict, call, control = NULL) {
  # .subset2() as in check_variable_columns(), which has checked these columns.
  # Most variables are factors on every side, or plain numbers on every side: those
  # stay as they are (what the steps below give them), found with primitives only.
  as_given <- lapply(c(list(data), syn, if (!is.null(control)) list(control)), .subset2, var)
  class_list <- lapply(as_given, oldClass)
  classes <- unlist(class_list, use.names = FALSE)
  # One class each, "factor" (a side of class c("factor", "factor") must not stand in
  # for a side with none).
  if ((all(lengths(class_list) == 1L) && all(classes == "factor")) ||
      (is.null(classes) && all(vapply(as_given, is.numeric, NA)))) {
    return(list(cols = as_given, adjusted = FALSE))
  }
  cols <- lapply(c(list(data), syn), function(d) plain_column(.subset2(d, var)))
  control_col <- if (!is.null(control)) plain_column(.subset2(control, var))
  if ("integer64" %in% unlist(lapply(c(cols, list(control_col)), oldClass), use.names = FALSE)) {
    # A side kept integer64 (values beyond 2^53) is labelled by its exact digits; whole
    # numbers on the other sides are made integer64 too, so that 100000 is "100000"
    # on every side and not "1e+05" on one.
    cols <- lapply(cols, whole_as_integer64)
    if (!is.null(control_col)) control_col <- whole_as_integer64(control_col)
  }
  kinds <- vapply(cols, column_kind, character(1))
  control_kind <- if (!is.null(control)) column_kind(control_col)
  if (all(kinds == "numeric")) {
    if (!is.null(control) && control_kind != "numeric") {
      cli::cli_abort(c("Variable {.val {var}} is {control_kind} in {.arg control} but numeric in {.arg data} and the synthetic data.",
                       i = "{.arg control} must hold the same kinds of columns as {.arg data}."), call = call)
    }
    return(list(cols = c(cols, if (!is.null(control)) list(control_col)), adjusted = FALSE))
  }
  if (all(kinds == "factor") && (is.null(control) || control_kind == "factor")) {
    # Factors stay as they are (label_factors() would return them unchanged).
    return(list(cols = c(cols, if (!is.null(control)) list(control_col)), adjusted = FALSE))
  }
  if (strict && length(unique(kinds)) > 1) {
    j <- which(kinds != kinds[1])[1] - 1
    cli::cli_abort(c("Variable {.val {var}} is {kinds[1]} on one side and {kinds[j + 1]} on the other.",
                     i = paste0("It is ", kinds[1], " in {.arg data} and ", kinds[j + 1], " in ",
                                dataset_name(j, length(syn)), "."),
                     i = "Use {.code compare.synorig = TRUE} to compare them as factors of their labels."),
                 call = call)
  }
  if (strict && !is.null(control) && control_kind != kinds[1]) {
    cli::cli_abort(c("Variable {.val {var}} is {control_kind} in {.arg control} but {kinds[1]} in {.arg data}.",
                     i = "Use {.code compare.synorig = TRUE} to compare them as factors of their labels."),
                   call = call)
  }
  all_kinds <- c(kinds, control_kind)
  # Reported as adjusted (as synthpop's synorig.compare adjusts) when the sides differ in
  # kind or hold text or logicals; dates and times of one kind on every side, and text
  # that a database counted (synthpop takes no database tables), are only compared by
  # their labels.
  list(cols = label_factors(c(cols, if (!is.null(control)) list(control_col)), all_kinds),
       adjusted = length(unique(kinds)) > 1 ||
         (any(kinds %in% c("character", "logical")) && !any(vapply(cols, inherits, logical(1), "synthrisk_text"))))
}

# A factor of the labels of `x`, its levels in the order of `key_of` of the values.
# Labels and order are worked out on the distinct values only, so a long column costs
# one match(), not one label per row. `labels_of` gives NA for a missing value.
label_factor <- function(x, labels_of, key_of) {
  values <- unique(x)
  value_labels <- labels_of(values)
  lev <- unique(value_labels[order(key_of(values))])
  lev <- lev[!is.na(lev)]
  codes <- match(value_labels, lev)[match(x, values)]
  structure(codes, levels = lev, class = "factor")
}

# Each column as a factor of its labels; text stays as given here and is checked and
# made UTF-8 (NFC) with the factor levels (clean_labels()), so that latin1 and UTF-8
# spellings of a word are one label. Numbers are
# labelled as factor() labels them (15 significant digits, NaN its own level); dates
# and times of all sides are labelled on their pooled values, so that one instant has
# one label whatever the side.
label_factors <- function(cols, kinds) {
  time_labels <- pooled_time_labels(cols, kinds)
  lapply(seq_along(cols), function(i) {
    x <- cols[[i]]
    switch(kinds[i],
      factor = x,
      numeric = ,
      logical = label_factor(x, as.character, identity),
      character = if (inherits(x, "synthrisk_text")) structure(x, class = "factor") else label_factor(x, identity, identity),
      Date = label_factor(x, as.character, as.double),
      POSIXct = ,
      difftime = label_factor(time_labels$values[[i]], time_labels$labels_of[[kinds[i]]], identity),
      label_factor(x, function(v) enc2utf8(as.character(v)), function(v) enc2utf8(as.character(v)))
    )
  })
}

# The POSIXct and difftime sides as numbers (`values`, by position in `cols`) and, per
# kind, a function labelling those numbers, built on the pooled distinct values:
# POSIXct in the time zone of its first side, with the precision format() picks for all
# values together; difftime in the units of its first side, as "<number> <units>".
pooled_time_labels <- function(cols, kinds) {
  values <- vector("list", length(cols))
  labels_of <- list()
  for (kind in c("POSIXct", "difftime")) {
    sides <- which(kinds == kind)
    if (length(sides) == 0) next
    if (kind == "POSIXct") {
      tz <- attr(cols[[sides[1]]], "tzone") %||% ""
      values[sides] <- lapply(cols[sides], function(x) as.double(unclass(x)))
      pooled <- unique(unlist(values[sides], use.names = FALSE))
      pooled_labels <- format(.POSIXct(pooled, tz = tz[1]))
    } else {
      unit <- units(cols[[sides[1]]])
      values[sides] <- lapply(cols[sides], function(x) {
        units(x) <- unit
        as.double(unclass(x))
      })
      pooled <- unique(unlist(values[sides], use.names = FALSE))
      pooled_labels <- ifelse(is.na(pooled) & !is.nan(pooled), NA_character_, paste(as.character(pooled), unit))
    }
    labels_of[[kind]] <- local({
      p <- pooled
      l <- pooled_labels
      function(v) l[match(v, p)]
    })
  }
  list(values = values, labels_of = labels_of)
}

# Union of factor levels (`side_levels`: the levels of each column), in UTF-8 (factors
# keep their levels as given until here): the syntheses' levels first, then the
# original's, then those of the last `n_control` columns (holdout records), which so
# never move a level of the others.
union_levels <- function(side_levels, n_control = 0L) {
  first <- side_levels[[1]]
  if (all(vapply(side_levels, identical, logical(1), first))) {
    # Every side has the same levels (as synthpop's syntheses mostly have).
    return(unique(enc2utf8(first)))
  }
  main <- seq_len(length(side_levels) - n_control)
  unique(enc2utf8(c(unlist(side_levels[main][-1], use.names = FALSE), first,
                    unlist(side_levels[-main], use.names = FALSE))))
}
