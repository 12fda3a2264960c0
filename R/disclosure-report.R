#' A release report for a disclosure panel
#'
#' Computes the measures of [multi.disclosure()], the tau curve ([tau_curve()]),
#' the counts of original records at risk ([record_risk()]), the holdout baseline
#' (with `control`) and, when asked, the distance measures, and writes them into one
#' self-contained HTML file: what was compared, against what, what the checks found,
#' what was excluded and why, and where synthrisk differs from synthpop 1.9-3. The
#' file has its images and styles inlined and fetches nothing from the network, so it
#' can be sent to a panel as it is. The R Markdown template behind it ships in the
#' package (`inst/rmarkdown/templates/disclosure-report`), so RStudio's "New R
#' Markdown > From Template" offers it too.
#'
#' @section What the report never shows:
#' The report holds aggregates only: numbers of records, percentages, and labels of
#' levels that many original records share. In particular
#' * no value of an original (or control) record, and no record-level table;
#' * no level or key-level pair held by fewer than `min_cell` original records: a
#'   1-way check whose target level has fewer than `min_cell` original records
#'   (after exclusions) shows the level as suppressed; a 2-way pair is shown only
#'   when its key level (`key_total`) and the pair itself (`key_target_total`) each
#'   have at least `min_cell` original records, the others are counted, not named;
#' * no extreme value of a grouped numeric variable: the first and last breaks are
#'   the minimum and maximum of the original and synthetic values, so they are shown
#'   as `min` and `max`; the inner breaks of quantile groups are shown only when the
#'   groups hold on average at least `min_cell` original records, and equal-width
#'   breaks never (any two of them give the minimum and the maximum), the groups
#'   being named `group k of n` instead;
#' * no level label given in an argument (`not.targetslev`, `exclude.keylevs`,
#'   `exclude.targetlevs`): the settings say how many were given; and no data
#'   written into the call: `object`, `data` and `control` are shown only as names.
#'
#' The report itself says so in its last section.
#'
#' @section Thresholds:
#' synthrisk has no normative threshold, and without `thresholds` the report
#' states no verdict. With them (the custodian's policy, e.g.
#' `list(repU = 1, DiSCO = 5)`), a table at the top compares, for each measure, the
#' highest value over the targets (each value the mean over the `m` syntheses) with
#' the policy and flags the measures above it. The mean over syntheses is the
#' disclosure to expect from one released synthesis; the highest over targets is
#' the target an intruder would choose. When all `m` syntheses are released
#' together, read `DiSCO_any` (`multi.disclosure(release = TRUE)`) against the
#' policy instead: it counts a record disclosed by any of them.
#'
#' The measures `thresholds` accepts are those of [multi.disclosure()] (the names
#' of `tidy(md)$measure`): `UiO`, `UiS`, `UiOiS`, `repU`, `Dorig`, `Dsyn`, `iS`,
#' `DiS`, `DiSCO`, `DiSDiO`, `baseCAPd`, `CAPd`, `CAPs`, `DCAP`, `TCAP`, `DCAPd`,
#' `DCAPs`, `DCAPb`, `TCAPs`, `TCAPb`, `TCAP_taub`, `DCAPi`, all in % (0-100), and
#' `max_denom` and `mean_denom`, numbers of records; with `distances = TRUE` also
#' `IMS`, `IMS_ctrl`, `share`, `copied` (in %) and `AUC` (0-1) of the distance
#' summary (where higher means more risk). The attacks' risks (`attacks = TRUE`)
#' are on 0-1 and are not accepted: the report shows them in their own section,
#' without a verdict.
#'
#' @param object The syntheses: a `synds` object, a data frame or a list of data
#'   frames, as for [multi.disclosure()].
#' @param data The original data (the records used for synthesis), a data frame.
#' @param keys The quasi-identifiers (names or column numbers of `data`).
#' @param targets The targets; default all variables of the synthetic data that are
#'   not keys.
#' @param control Original records not used for the synthesis (see
#'   [holdout_split()]); with them the report has a holdout comparison.
#' @param file The HTML file to write (ending in `.html`); its folder must exist.
#' @param title The report's title; default "Disclosure risk report".
#' @param thresholds `NULL` (no verdict) or the custodian's policy: a named list or
#'   named numeric vector of single numbers, e.g. `list(repU = 1, DiSCO = 5)`, in the
#'   measure's own unit (% for the disclosure measures). Only the measures of
#'   [multi.disclosure()] and, with `distances = TRUE`, of [dcr()] are accepted, not
#'   the attacks' risks; see section "Thresholds" for the list.
#' @param distances Whether to add the distance measures of [dcr()] (distance to
#'   the closest record, with `control` when given; their summary table only).
#' @param attacks Whether to add the three attacks of definitions vignette section 13
#'   (anonymeter's singling out, linkability and inference, exact): inference of each
#'   target by an attacker who knows the keys ([inference_risk()]), linkability of the
#'   keys to the targets ([linkability_risk()], one owner holding the keys, another the
#'   targets) and univariate and multivariate singling out on the keys and targets
#'   ([singling_out_risk()], 500 queries on 3 columns, seed 1); with `control` when
#'   given. Risks and success rates only: no query and no record.
#' @param key_sweep Whether to add which keys matter ([key_sweep()]): the worst subset of
#'   the keys of each size for `repU` and the targets' `DiSCO`, and each key's share
#'   (every subset for up to 10 keys, else subsets of up to 3 keys).
#' @param min_cell The smallest number of original records a level or pair of
#'   levels named in the report must have: 10 or more (it can be raised, not
#'   lowered).
#' @param ... Any other argument of [multi.disclosure()] (`cont.na` for data
#'   frames, `denom_lim`, `exclude_ov_denom_lim`, `not.targetslev`, `usetargetsNA`,
#'   `usekeysNA`, `exclude.keys`, `exclude.keylevs`, `exclude.targetlevs`,
#'   `ngroups_targets`, `ngroups_keys`, `ident.meas`, `attrib.meas`, `thresh_1way`,
#'   `thresh_2way`, `digits`, `compare.synorig`, `n_threads`). `print.flag` and
#'   `plot` are ignored: the report prints nothing and always draws.
#' @return The path of the HTML file, invisibly.
#' @seealso [multi.disclosure()], [tau_curve()], [record_risk()], [holdout_split()].
#' @export
#' @examples
#' \donttest{
#' if (requireNamespace("rmarkdown", quietly = TRUE) && rmarkdown::pandoc_available("2.0")) {
#'   # sd2011_train_synds5 was made from parts$train only: parts$control is held out.
#'   parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
#'   keys <- c("sex", "age", "region", "placesize")
#'   out <- disclosure_report(sd2011_train_synds5, parts$train, keys = keys,
#'                            control = parts$control, ngroups_targets = c(income = 20),
#'                            thresholds = list(repU = 1, DiSCO = 10),
#'                            file = file.path(tempdir(), "sd2011-report.html"))
#'   out
#' }
#' }
disclosure_report <- function(object, data, keys, targets = NULL, control = NULL, file = "disclosure-report.html",
                              title = NULL, thresholds = NULL, distances = FALSE, attacks = FALSE, min_cell = 10,
                              key_sweep = FALSE, ...) {
  env <- rlang::current_env()
  file <- check_report_file(file, env)
  title <- check_report_title(title, env)
  check_flag(distances, "distances", env)
  check_flag(attacks, "attacks", env)
  check_flag(key_sweep, "key_sweep", env)
  min_cell <- check_min_cell(min_cell, env)
  thresholds <- check_report_thresholds(thresholds, distances, env)
  check_report_tools(env)
  if (missing(keys)) keys <- NULL
  dcr_fun <- if (distances) dcr
  contents <- report_contents(object, data, keys = keys, targets = targets, control = control,
                              thresholds = thresholds, distances = distances, attacks = attacks, min_cell = min_cell,
                              key_sweep = key_sweep,
                              args = list(...), dcr_fun = dcr_fun, call = report_call(match.call()), env = env)
  contents$title <- title
  render_report(contents, file)
  invisible(file)
}

#' What a disclosure report shows, for a report of your own
#'
#' The aggregates [disclosure_report()] knits into its HTML file (measures, checks,
#' tau curve, holdout, record counts, distances, settings), as one object, with the
#' formatters the report's template uses (`format`: `table()`, `count()`,
#' `percent()`, `html_text()`, `html_list()`). No record and no cell smaller than
#' `min_cell` is in it. The report's template calls this function when knitted on its
#' own.
#'
#' @inheritParams disclosure_report
#' @return An object of class `synthrisk_report_contents`, a list.
#' @export
#' @examples
#' \donttest{
#' parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
#' keys <- c("sex", "age", "region", "placesize")
#' r <- disclosure_report_contents(sd2011_train_synds5, parts$train, keys = keys,
#'                                 control = parts$control, ngroups_targets = c(income = 20))
#' r$identity
#' }
disclosure_report_contents <- function(object, data, keys, targets = NULL, control = NULL, thresholds = NULL,
                                       distances = FALSE, attacks = FALSE, min_cell = 10, key_sweep = FALSE, ...) {
  env <- rlang::current_env()
  check_flag(distances, "distances", env)
  check_flag(attacks, "attacks", env)
  check_flag(key_sweep, "key_sweep", env)
  min_cell <- check_min_cell(min_cell, env)
  thresholds <- check_report_thresholds(thresholds, distances, env)
  if (missing(keys)) keys <- NULL
  report_contents(object, data, keys = keys, targets = targets, control = control, thresholds = thresholds,
                  distances = distances, attacks = attacks, min_cell = min_cell, key_sweep = key_sweep,
                  args = list(...),
                  dcr_fun = if (distances) dcr,
                  call = report_call(match.call()), env = env)
}

#' @export
print.synthrisk_report_contents <- function(x, ...) {
  cat(sprintf("<synthrisk report contents: %d target%s, %d key%s, %d synthes%s; knit with disclosure_report()>\n",
              length(x$targets), if (length(x$targets) == 1) "" else "s", length(x$keys),
              if (length(x$keys) == 1) "" else "s", x$m, if (x$m == 1) "is" else "es"))
  invisible(x)
}

# Measures of the distance summary a threshold may name: higher means more risk.
report_distance_measures <- c("IMS", "IMS_ctrl", "share", "copied", "AUC")

check_report_tools <- function(call) {
  if (!requireNamespace("rmarkdown", quietly = TRUE)) {
    cli::cli_abort(c("{.fn disclosure_report} needs the {.pkg rmarkdown} package.",
                     i = "Install it (e.g. {.code install.packages(\"rmarkdown\")}, or Debian's {.code r-cran-rmarkdown})."),
                   call = call)
  }
  if (!rmarkdown::pandoc_available("2.0")) {
    cli::cli_abort(c("{.fn disclosure_report} needs pandoc (2.0 or later) to write HTML; none was found.",
                     i = "Install pandoc (e.g. Debian's {.code pandoc}) or set {.envvar RSTUDIO_PANDOC} to its folder."),
                   call = call)
  }
}

check_report_file <- function(file, call) {
  if (!is.character(file) || length(file) != 1 || is.na(file) || !nzchar(file)) {
    cli::cli_abort("{.arg file} must be one file name, not {.code {describe_value(file)}}.", call = call)
  }
  if (!grepl("\\.html?$", file, ignore.case = TRUE)) {
    cli::cli_abort("{.arg file} must end in {.file .html}; it is {.file {file}}.", call = call)
  }
  dir <- dirname(file)
  if (!dir.exists(dir)) {
    cli::cli_abort("The folder of {.arg file} does not exist: {.file {dir}}.", call = call)
  }
  file.path(normalizePath(dir, mustWork = TRUE), basename(file))
}

check_report_title <- function(title, call) {
  if (is.null(title)) return("Disclosure risk report")
  if (!is.character(title) || length(title) != 1 || is.na(title) || !nzchar(trimws(title))) {
    cli::cli_abort("{.arg title} must be one non-empty string or {.code NULL}, not {.code {describe_value(title)}}.",
                   call = call)
  }
  title
}

check_min_cell <- function(min_cell, call) {
  if (!is.numeric(min_cell) || length(min_cell) != 1 || !is.finite(min_cell) || min_cell != round(min_cell) ||
      min_cell < 10) {
    cli::cli_abort(c("{.arg min_cell} must be one whole number of 10 or more, not {.code {describe_value(min_cell)}}.",
                     i = "It can be raised, not lowered: the report never names a level held by fewer than 10 original records."),
                   call = call)
  }
  as.integer(min_cell)
}

# thresholds: NULL, or a named list / numeric vector of single finite numbers naming
# known measures, each once. Returned as a named numeric vector.
check_report_thresholds <- function(thresholds, distances, call) {
  if (is.null(thresholds)) return(NULL)
  known <- unique(measure_registry$measure)
  if (!(is.list(thresholds) && !is.data.frame(thresholds)) && !is.numeric(thresholds)) {
    cli::cli_abort(c("{.arg thresholds} must be a named list or named numeric vector, not {.obj_type_friendly {thresholds}}.",
                     i = "For example {.code list(repU = 1, DiSCO = 5)}."), call = call)
  }
  if (length(thresholds) == 0) {
    cli::cli_abort("{.arg thresholds} is empty; give {.code NULL} for no policy, or e.g. {.code list(repU = 1)}.",
                   call = call)
  }
  nm <- names(thresholds)
  if (is.null(nm) || anyNA(nm) || !all(nzchar(nm))) {
    cli::cli_abort(c("{.arg thresholds} must name the measure of every value.",
                     i = "For example {.code list(repU = 1, DiSCO = 5)}."), call = call)
  }
  dup <- unique(nm[duplicated(nm)])
  if (length(dup) > 0) cli::cli_abort("{.arg thresholds} names {.val {dup}} more than once.", call = call)
  need_distances <- intersect(nm, report_distance_measures)
  if (length(need_distances) > 0 && !distances) {
    cli::cli_abort(c("{.arg thresholds} names {.val {need_distances}}, a distance measure; it needs {.code distances = TRUE}.",
                     i = "Known measures without distances: {.val {known}}."), call = call)
  }
  unknown <- setdiff(nm, c(known, if (distances) report_distance_measures))
  if (length(unknown) > 0) {
    cli::cli_abort(c("{.arg thresholds} names unknown measure{?s} {.val {unknown}}.",
                     i = "Known measures: {.val {c(known, report_distance_measures)}} (the last {length(report_distance_measures)} with {.code distances = TRUE})."),
                   call = call)
  }
  units <- stats::setNames(measure_registry$unit, measure_registry$measure)
  for (k in seq_along(thresholds)) {
    v <- thresholds[[k]]
    if (!is.numeric(v) || length(v) != 1 || !is.finite(v)) {
      cli::cli_abort("{.arg thresholds} must give one finite number per measure; {.val {nm[k]}} is {.code {describe_value(v)}}.",
                     call = call)
    }
    # Within the measure's range, else every value or none is above the policy.
    upper <- if (nm[k] == "AUC") 1 else if (identical(unname(units[nm[k]]), "count")) Inf else 100
    if (v < 0 || v > upper) {
      range <- if (is.finite(upper)) paste0("0 to ", upper) else "0 or more"
      cli::cli_abort("{.arg thresholds} gives {.val {nm[k]}} {.code {describe_value(v)}}, outside its range ({range}).",
                     call = call)
    }
  }
  stats::setNames(vapply(thresholds, as.double, numeric(1)), nm)
}

# The call as the report shows it: object, data and control only as names (an
# expression written in the call could hold data), level labels given in arguments
# as their number.
report_call <- function(call) {
  call[[1]] <- as.name("disclosure_report")
  label_args <- c("not.targetslev", "exclude.keylevs", "exclude.targetlevs")
  for (arg in intersect(names(call), c("object", "data", "control", label_args))) {
    value <- call[[arg]]
    if (arg %in% label_args) {
      call[[arg]] <- as.name("<level labels not shown>")
    } else if (!names_only(value)) {
      call[[arg]] <- as.name("<expression not shown>")
    }
  }
  paste(deparse(call, width.cutoff = 80), collapse = "\n")
}

# An expression of names only (x, pkg::x, parts$train, x[["a"]]): safe to show.
names_only <- function(expr) {
  if (is.name(expr)) return(TRUE)
  if (is.character(expr) && length(expr) == 1) return(TRUE)
  if (!is.call(expr)) return(FALSE)
  op <- expr[[1]]
  if (!is.name(op) || !as.character(op) %in% c("::", ":::", "$", "[[", "@")) return(FALSE)
  all(vapply(as.list(expr)[-1], names_only, logical(1)))
}

# Evaluates fun(...) with every argument a symbol bound in a fresh environment, so
# that no call stored by fun deparses the data.
call_with_symbols <- function(fun, args) {
  env <- new.env(parent = baseenv())
  env$.fun <- fun
  nm <- names(args) %||% rep("", length(args))
  syms <- lapply(seq_along(args), function(i) {
    sym <- paste0(".a", i)
    assign(sym, args[[i]], envir = env)
    as.name(sym)
  })
  names(syms) <- nm
  eval(as.call(c(list(as.name(".fun")), syms)), env)
}

# Everything the report shows, computed with the package's own functions and made
# safe (see the help page's "What the report never shows").
report_contents <- function(object, data, keys, targets = NULL, control = NULL, thresholds = NULL, distances = FALSE,
                            attacks = FALSE, min_cell = 10L, key_sweep = FALSE, args = list(), dcr_fun = NULL,
                            call = NULL, env = rlang::caller_env()) {
  args$print.flag <- NULL
  args$plot <- NULL
  digits <- args$digits %||% 2
  check_digits(digits, env)
  timing <- list()
  t0 <- proc.time()[["elapsed"]]
  md <- call_with_symbols(multi.disclosure, c(list(object, data, keys = keys, targets = targets, control = control),
                                              args, list(print.flag = FALSE, plot = FALSE)))
  timing$multi.disclosure <- proc.time()[["elapsed"]] - t0
  targets <- names(md$output.list)
  keys <- md$keys
  m <- md$m
  tau_args <- args[intersect(names(args), tau_curve_args)]
  tc <- call_with_symbols(tau_curve, c(list(object, data, keys = keys, targets = targets), tau_args))
  records <- report_records(object, data, keys, targets, md, args, env)
  dcr_summary <- if (distances) report_distances(dcr_fun, object, data, control, args$cont.na)
  attack_summary <- if (attacks) report_attacks(object, data, keys, targets, control, args)
  first <- md$output.list[[1]]
  contents <- list(
    digits = digits,
    min_cell = min_cell,
    m = m,
    keys = keys,
    targets = targets,
    n_orig = md$Norig,
    n_syn = first$Nsyn,
    n_control = md$Ncontrol,
    input = report_input_lines(md),
    grouping = report_grouping(md$grouping, md$Norig, min_cell),
    exclusions = report_exclusions(md),
    adjusted = note_of(md, "adjusted"),
    thresholds = thresholds,
    verdict = if (!is.null(thresholds)) report_verdict(md, thresholds, dcr_summary, digits),
    identity = report_identity(md),
    attrib_table = report_attrib_table(md),
    attrib_all = report_attrib_all(md),
    attrib_plot = autoplot(md),
    intervals = if (is.data.frame(md$intervals)) md$intervals,
    checks = report_checks(md, min_cell),
    tau = report_tau_table(tc),
    tau_plot = autoplot(tc),
    holdout = if (!is.null(md$holdout)) report_holdout(md),
    holdout_plot = if (!is.null(md$holdout)) autoplot(md, type = "holdout"),
    holdout_notes = md$holdout_notes,
    distances = dcr_summary,
    attacks = attack_summary,
    key_sweep = if (key_sweep) report_key_sweep(object, data, keys, targets, args),
    records = records,
    notes = report_notes(md),
    settings = report_settings(md, args, control, distances, min_cell, attacks),
    call = call %||% "",
    versions = report_versions(),
    format = report_formatters(digits)
  )
  structure(contents, class = "synthrisk_report_contents")
}

tau_curve_args <- c("cont.na", "denom_lim", "exclude_ov_denom_lim", "not.targetslev", "usetargetsNA", "usekeysNA",
                    "exclude.keys", "exclude.keylevs", "exclude.targetlevs", "ngroups_targets", "ngroups_keys",
                    "compare.synorig", "n_threads")

report_input_lines <- function(md) input_lines(md$input, md$database)

# Grouping as the report shows it: per variable, the groups asked and made, the style
# and the labels with the extremes hidden (safe_group_labels()).
report_grouping <- function(grouping, n_orig, min_cell) {
  if (length(grouping) == 0) return(NULL)
  rows <- lapply(grouping, function(g) {
    if (!isTRUE(g$grouped)) {
      return(data.frame(variable = g$variable, asked = as.integer(g$ngroups), levels = NA_integer_, breaks = "-",
                        shown = paste("not grouped:", g$reason %||% "left ungrouped"), stringsAsFactors = FALSE))
    }
    shown <- safe_group_labels(g, n_orig, min_cell)
    data.frame(variable = g$variable, asked = as.integer(g$ngroups), levels = as.integer(g$n_levels),
               breaks = g$style, shown = paste(unname(shown), collapse = ", "), stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  out
}

# The labels of a grouped variable as the report may show them, named by the real
# labels. The outer breaks are the minimum and maximum of the pooled values: shown as
# min and max. Equal-width breaks give the extremes away from any two of them, and
# quantile breaks of groups with few original records come close to single values: then
# the groups are only numbered. Special codes (cont.na, non-finite) keep their labels.
safe_group_labels <- function(g, n_orig, min_cell) {
  labels <- g$labels
  if (!isTRUE(g$grouped)) return(stats::setNames(labels, labels))
  n_int <- max(0L, length(g$breaks) - 1L)
  n_int <- min(n_int, length(labels))
  shown <- labels
  if (n_int > 0) {
    interval <- labels[seq_len(n_int)]
    numbered <- !identical(g$style, "quantile") || n_orig / n_int < min_cell
    if (numbered) {
      interval <- sprintf("group %d of %d", seq_len(n_int), n_int)
    } else {
      interval[1] <- sub("^([\\[(])[^,]*,", "\\1min,", interval[1])
      interval[n_int] <- sub(",[^,]*([])])$", ",max\\1", interval[n_int])
    }
    shown[seq_len(n_int)] <- interval
  }
  stats::setNames(shown, labels)
}

# A level label of `var` as the report may show it (grouped variables: safe_group_labels()).
safe_label_of <- function(labels, var, grouping, n_orig, min_cell) {
  g <- grouping[[var]]
  if (is.null(g) || !isTRUE(g$grouped)) return(labels)
  map <- safe_group_labels(g, n_orig, min_cell)
  out <- unname(map[labels])
  out[is.na(out)] <- labels[is.na(out)]
  out
}

# Records removed by the exclusions, per target, from the result's preparation lines.
report_exclusions <- function(md) {
  lines <- unlist(lapply(md$output.list, function(d) {
    line <- exclusion_line(d$Nexclusions, d$Norig)
    line <- sub(" \\(see to.print = \"exclusions\"\\)", "", line)
    if (length(line) > 0) paste0(d$target, ": ", line) else character(0)
  }), use.names = FALSE)
  lines
}

# Mean over the syntheses of each measure, one row per target (in the order of `data`).
report_means <- function(md) {
  long <- tidy(md)
  long$target <- factor(long$target, levels = names(md$output.list))
  long$measure <- factor(long$measure, levels = unique(long$measure))
  wide <- tapply(long$value, list(long$target, long$measure), mean)
  as.data.frame(wide, stringsAsFactors = FALSE)
}

report_identity <- function(md) {
  means <- report_means(md)
  ident <- means[, report_ident_measures, drop = FALSE]
  ident <- cbind(target = rownames(ident), ident, stringsAsFactors = FALSE)
  rownames(ident) <- NULL
  same <- nrow(unique(ident[-1])) == 1
  if (same) ident <- cbind(target = "all targets", ident[1, -1, drop = FALSE], stringsAsFactors = FALSE)
  ident
}

# The summary table of multi.disclosure(), its columns named after the measures.
report_attrib_table <- function(md) {
  tab <- md$attrib.table
  cols <- attrib_meas_columns[[md$attrib.meas]]
  checks <- ifelse(nzchar(tab$check1) & nzchar(tab$check2), "1-way and 2-way",
                   ifelse(nzchar(tab$check1), "1-way", ifelse(nzchar(tab$check2), "2-way", "")))
  out <- data.frame(rank = seq_len(nrow(tab)), target = table_targets(md), orig = tab$attrib.orig,
                    syn = tab$attrib.syn, checks = checks, stringsAsFactors = FALSE)
  names(out)[3:4] <- cols
  out
}


report_attrib_all <- function(md) {
  means <- report_means(md)
  out <- means[, intersect(report_attrib_measures, names(means)), drop = FALSE]
  out <- cbind(target = rownames(out), out, stringsAsFactors = FALSE)
  rownames(out) <- NULL
  out
}

# The verdict table: per measure, the policy, the highest value over targets (mean over
# the syntheses), the highest single synthesis, and the targets above the policy.
report_verdict <- function(md, thresholds, dcr_summary, digits) {
  means <- report_means(md)
  long <- tidy(md)
  rows <- lapply(names(thresholds), function(ms) {
    limit <- thresholds[[ms]]
    if (ms %in% report_distance_measures) {
      values <- stats::setNames(mean(dcr_summary[[ms]], na.rm = FALSE), "all targets")
      worst_syn <- max(dcr_summary[[ms]])
    } else {
      values <- stats::setNames(means[[ms]], rownames(means))
      worst_syn <- max(long$value[long$measure == ms])
    }
    above <- names(values)[!is.na(values) & values > limit]
    highest <- if (all(is.na(values))) NA_real_ else max(values, na.rm = TRUE)
    data.frame(measure = ms, unit = unname(measure_unit[ms] %|% "%"), policy = limit, highest = highest,
               highest_synthesis = worst_syn,
               above = if (length(above) > 0) paste(above, collapse = ", ") else "",
               verdict = if (length(above) > 0) "above policy" else "within policy", stringsAsFactors = FALSE)
  })
  do.call(rbind, rows)
}

`%|%` <- function(x, y) if (length(x) == 0 || is.na(x)) y else x

# The 1-way and 2-way checks of the flagged targets, made safe: levels held by fewer
# than min_cell original records are not named.
report_checks <- function(md, min_cell) {
  out <- list()
  for (d in md$output.list) {
    one <- check_tables(d$check_1way)
    two <- check_tables(d$check_2way)
    if (!any(vapply(one, is.data.frame, logical(1))) && !any(vapply(two, is.data.frame, logical(1)))) next
    one_rows <- lapply(seq_along(one), function(j) {
      t1 <- one[[j]]
      if (!is.data.frame(t1)) return(NULL)
      level_records <- round(t1$PctLevelAll * t1$All / 100)
      level <- safe_label_of(t1$Level, d$target, md$grouping, md$Norig, min_cell)
      level[level_records < min_cell] <- paste0("(suppressed: fewer than ", format_count(min_cell), " records)")
      data.frame(synthesis = j, Level = level, All = t1$All, PctLevelAll = t1$PctLevelAll,
                 totalDisclosive = t1$totalDisclosive, nLevelDis = t1$nLevelDis, PctLevelDis = t1$PctLevelDis,
                 stringsAsFactors = FALSE)
    })
    bind <- function(rows) {
      rows <- Filter(Negate(is.null), rows)
      if (length(rows) == 0) return(NULL)
      out <- do.call(rbind, rows)
      rownames(out) <- NULL
      out
    }
    two_all <- bind(lapply(seq_along(two), function(j) if (is.data.frame(two[[j]])) cbind(synthesis = j, two[[j]])))
    two_way <- if (!is.null(two_all)) two_way_pairs(two_all, length(two), d$target, md$grouping, md$Norig, min_cell)
    # The check messages (check1 names the level) are not kept: only the safe tables are.
    out[[d$target]] <- list(target = d$target, one_way = bind(one_rows), two_way = two_way$table,
                            two_way_pairs = two_way$n_pairs %||% 0L, two_way_suppressed = two_way$n_suppressed %||% 0L)
  }
  out
}

# The 2-way pairs of all syntheses, one row per pair (key, target|key level): the
# original-data columns (key_target_total, key_total, PctTargetKeyLevel: the same in every
# synthesis), the syntheses that flag it and its npairs in each ("-" where not flagged).
# Pairs whose key level or pair is held by fewer than min_cell original records are
# counted, not shown.
two_way_pairs <- function(rows, m, target, grouping, n_orig, min_cell) {
  rows$target_key_levs <- as.character(rows$target_key_levs)
  pairs <- unique(rows[c("key", "target_key_levs")])
  at_of <- lapply(seq_len(nrow(pairs)), function(i) {
    which(rows$key == pairs$key[i] & rows$target_key_levs == pairs$target_key_levs[i])
  })
  first <- vapply(at_of, `[`, integer(1), 1)
  ok <- rows$key_total[first] >= min_cell & rows$key_target_total[first] >= min_cell
  n_pairs <- nrow(pairs)
  table <- NULL
  if (any(ok)) {
    shown <- lapply(which(ok), function(i) {
      at <- at_of[[i]]
      npairs <- rep(NA_real_, m)
      npairs[rows$synthesis[at]] <- rows$npairs[at]
      f <- first[i]
      data.frame(target_key_levs = safe_pair_label(pairs$target_key_levs[i], target, pairs$key[i], grouping, n_orig,
                                                   min_cell),
                 key = pairs$key[i], syntheses = length(at),
                 npairs = paste(ifelse(is.na(npairs), "-", format(npairs, trim = TRUE)), collapse = " / "),
                 total = sum(npairs, na.rm = TRUE), key_target_total = rows$key_target_total[f],
                 key_total = rows$key_total[f], PctTargetKeyLevel = rows$PctTargetKeyLevel[f],
                 stringsAsFactors = FALSE)
    })
    table <- do.call(rbind, shown)
    # Most disclosive records first; ties in the order the checks list them.
    table <- table[order(-table$total, seq_len(nrow(table))), setdiff(names(table), "total"), drop = FALSE]
    rownames(table) <- NULL
  }
  list(table = table, n_pairs = n_pairs, n_suppressed = sum(!ok))
}

# "t|k" with grouped labels made safe. Interval labels hold no "|", so a grouped target's
# label ends at the first "|" and a grouped key's label starts after the last.
safe_pair_label <- function(pair, target, key, grouping, n_orig, min_cell) {
  target_grouped <- isTRUE(grouping[[target]]$grouped)
  key_grouped <- isTRUE(grouping[[key]]$grouped)
  if (!target_grouped && !key_grouped) return(pair)
  if (target_grouped) {
    t <- sub("\\|.*$", "", pair)
    k <- substring(pair, nchar(t) + 2)
  } else {
    k <- sub("^.*\\|", "", pair)
    t <- substring(pair, 1, nchar(pair) - nchar(k) - 1)
  }
  paste(safe_label_of(t, target, grouping, n_orig, min_cell), safe_label_of(k, key, grouping, n_orig, min_cell),
        sep = "|")
}

# The tau curve at a few thresholds: per target, the synthetic and original curves
# (means over the syntheses).
report_tau_points <- c(0, 0.25, 0.5, 0.75, 0.9, 1)

report_tau_table <- function(tc) {
  df <- as.data.frame(tc)
  df <- df[df$tau %in% report_tau_points, , drop = FALSE]
  targets <- unique(df$target)
  rows <- lapply(targets, function(tv) {
    s <- df[df$target == tv, , drop = FALSE]
    syn <- tapply(s$synthetic, s$tau, mean)
    orig <- tapply(s$original, s$tau, mean)
    rbind(data.frame(target = tv, data = "synthetic", t(as.vector(syn)), stringsAsFactors = FALSE),
          data.frame(target = tv, data = "original", t(as.vector(orig)), stringsAsFactors = FALSE))
  })
  out <- do.call(rbind, rows)
  names(out) <- c("target", "data", paste0("tau = ", sort(unique(df$tau))))
  rownames(out) <- NULL
  out
}

report_holdout <- function(md) {
  tab <- multi_holdout_table(md)
  cbind(target = rownames(tab), tab, stringsAsFactors = FALSE, row.names = NULL)
}

# Counts of original records at risk, from record_risk(): unique and replicated unique
# on the keys (no exclusions), and per target the disclosive records (DiSCO, after the
# target's exclusions); also the records disclosive for at least one target.
report_records <- function(object, data, keys, targets, md, args, call) {
  not_records <- function(x) is_db_table(x) || is_cell_counts(x)
  syntheses <- if (inherits(object, "synds") || is.data.frame(object) || is_db_table(object)) list(object) else object
  if (!is.data.frame(data) || not_records(data) ||
      any(vapply(syntheses, not_records, logical(1)))) {
    return(list(available = FALSE,
                reason = paste("Not available: record_risk() needs the records themselves, and the data were given",
                               "as database tables or counted cells.")))
  }
  object <- report_synds(object, args$cont.na)
  n_threads <- args$n_threads
  key_args <- c(list(object, data, keys), if (!is.null(n_threads)) list(n_threads = n_threads))
  rk <- call_with_symbols(record_risk, key_args)
  nd <- rk$Nd
  o <- rk$original
  m <- rk$m
  by_syn <- function(flag) as.vector(tapply(flag, factor(o$synthesis, levels = seq_len(m)), sum))
  unique_n <- by_syn(o$unique_orig)
  keys_table <- data.frame(
    synthesis = seq_len(m),
    unique = unique_n, unique_pct = 100 * unique_n / nd,
    unique_in_syn = by_syn(o$unique_in_syn), unique_in_syn_pct = 100 * by_syn(o$unique_in_syn) / nd,
    replicated_unique = by_syn(o$replicated_unique), replicated_unique_pct = 100 * by_syn(o$replicated_unique) / nd)
  per_target <- per_target_disclosure_args(targets, args, call)
  any_disco <- matrix(FALSE, nd, m)
  target_rows <- lapply(targets, function(tv) {
    rr <- call_with_symbols(record_risk, c(list(object, data, keys, target = tv), per_target[[tv]]))
    ro <- rr$original
    disco <- vapply(seq_len(m), function(j) sum(ro$disco[ro$synthesis == j]), numeric(1))
    dorig <- sum(ro$disclosive_orig[ro$synthesis == 1])
    excluded <- sum(!is.na(ro$excluded[ro$synthesis == 1]))
    for (j in seq_len(m)) any_disco[, j] <<- any_disco[, j] | ro$disco[ro$synthesis == j]
    # The record flags sum to the measures of multi.disclosure() (checked, never assumed).
    want <- md$output.list[[tv]]$attrib$DiSCO
    if (!isTRUE(all.equal(100 * disco / nd, want, tolerance = 1e-12))) {
      cli::cli_abort("Internal error: record_risk() and multi.disclosure() disagree on DiSCO for {.val {tv}}.",
                     call = call)
    }
    data.frame(target = tv, excluded = excluded, disclosive_orig = dorig, disclosive_orig_pct = 100 * dorig / nd,
               disclosive_mean = mean(disco), disclosive_pct = 100 * mean(disco) / nd,
               disclosive_min = min(disco), disclosive_max = max(disco), stringsAsFactors = FALSE)
  })
  targets_table <- do.call(rbind, target_rows)
  any_n <- colSums(any_disco)
  list(available = TRUE, n_orig = nd, keys = keys_table, targets = targets_table,
       any_target = data.frame(synthesis = seq_len(m), disclosive_any = any_n, disclosive_any_pct = 100 * any_n / nd))
}

# A data frame or list of syntheses with cont.na given as an argument becomes a synds,
# which record_risk() reads its codes from.
report_synds <- function(object, cont.na) {
  if (is.null(cont.na) || inherits(object, "synds")) return(object)
  syn <- if (is.data.frame(object)) list(object) else unname(object)
  structure(list(syn = if (length(syn) == 1) syn[[1]] else syn, m = length(syn), cont.na = cont.na), class = "synds")
}

# `cont.na`: the argument given with data frames (a synds brings its own), so that the
# distances treat the codes as the measures do.
report_distances <- function(dcr_fun, object, data, control, cont.na) {
  if (inherits(object, "synds")) cont.na <- NULL
  res <- call_with_symbols(dcr_fun, c(list(object, data, control = control), if (!is.null(cont.na)) list(cont.na = cont.na)))
  summary <- res$summary
  if (!is.data.frame(summary)) {
    cli::cli_abort("Internal error: {.fn dcr} returned no {.field summary} data frame.")
  }
  # Aggregates only: the summary table, never the record-level components.
  summary
}

# The three attacks (definitions vignette 13), aggregated: per attack (and secret) the
# risk, its interval and the three success rates, never a query or a record. Skipped,
# with the reason, when the syntheses are not records held in R.
report_attacks <- function(object, data, keys, targets, control, args) {
  syn <- if (inherits(object, "synds")) object$syn else object
  held <- function(x) is.null(x) || (is.data.frame(x) && !is_cell_counts(x) && !is_db_table(x))
  all_held <- held(data) && held(control) && (if (is.data.frame(syn)) held(syn) else all(vapply(syn, held, logical(1))))
  if (!all_held) {
    return(list(available = FALSE,
                reason = "The attacks need the records themselves; counted cells and database tables have none here."))
  }
  cont.na <- if (inherits(object, "synds")) NULL else args$cont.na
  n_threads <- args$n_threads
  inference <- inference_risk(object, data, secret = targets, aux = keys, control = control, cont.na = cont.na,
                              n_threads = n_threads)
  link <- linkability_risk(object, data, aux_a = keys, aux_b = targets, control = control, cont.na = cont.na,
                           n_threads = n_threads)
  cols <- unique(c(keys, targets))
  # A synthesis in which no query singles out a record has no singling-out attack.
  singling <- function(...) {
    tryCatch(singling_out_risk(object, data, cols = cols, control = control, cont.na = cont.na, seed = 1,
                               n_threads = n_threads, ...),
             error = function(e) if (grepl("No query singles out", conditionMessage(e))) NULL else stop(e))
  }
  uni <- singling()
  multi <- if (length(cols) >= 2) singling(n_cols = min(3L, length(cols)), n_attacks = 500)
  # Percentages, as the rest of the report.
  row <- function(what, x, k = 1) {
    if (is.null(x)) {
      return(data.frame(attack = what, risk = NA_real_, conf.low = NA_real_, conf.high = NA_real_, main = NA_real_,
                        control = NA_real_, baseline = NA_real_, attacks = 0, caveat = ""))
    }
    sm <- x$summary[k, ]
    data.frame(attack = what, risk = 100 * sm$risk, conf.low = 100 * sm$conf.low, conf.high = 100 * sm$conf.high,
               main = 100 * sm$rate, control = 100 * sm$rate_control, baseline = 100 * sm$rate_baseline,
               attacks = x$results$n[1], caveat = if (is.na(sm$conf.caveat)) "" else sm$conf.caveat)
  }
  rows <- c(lapply(seq_len(nrow(inference$summary)), function(k) {
    row(paste("inference of", inference$summary$secret[k]), inference, k)
  }), list(row("linkability of keys to targets", link), row("singling out, univariate", uni)),
  if (length(cols) >= 2) list(row(paste0("singling out, ", min(3L, length(cols)), " columns"), multi)))
  list(available = TRUE, table = do.call(rbind, rows), conf.level = inference$conf.level,
       m = length(inference$n$synthetic),
       notes = if (is.null(uni) || (length(cols) >= 2 && is.null(multi))) {
         "NA: no query singled out a synthetic record, so there was no singling-out attack to measure."
       })
}

report_notes <- function(md) {
  shared <- md$notes %||% character(0)
  # A target's notes, named by the target, unless the summary's notes already say it
  # for all targets (one-sided numeric targets, adjusted variables).
  own <- unlist(lapply(md$output.list, function(d) {
    notes <- d$notes %||% character(0)
    notes <- notes[!names(notes) %in% c("one_sided", "adjusted")]
    if (length(notes) > 0) paste0(d$target, ": ", notes) else character(0)
  }), use.names = FALSE)
  notes <- c(shared[!names(shared) %in% "adjusted"], own)
  unique(unname(notes))
}

# The settings of the call: every argument of multi.disclosure() with the value used.
report_settings <- function(md, args, control, distances, min_cell, attacks = FALSE) {
  show <- function(x) {
    if (is.null(x)) return("NULL")
    if (is.list(x)) return(paste(deparse(x, width.cutoff = 500), collapse = " "))
    paste(deparse(x, width.cutoff = 500), collapse = " ")
  }
  label_count <- function(x) {
    n <- length(unlist(x))
    if (is.null(x) || n == 0) "none" else sprintf("%d level label%s given (not shown)", n, if (n == 1) "" else "s")
  }
  rows <- list(
    c("keys", paste(md$keys, collapse = ", ")),
    c("targets", paste(names(md$output.list), collapse = ", ")),
    c("m (syntheses)", md$m),
    c("control", if (is.null(control)) "none" else paste(format_count(md$Ncontrol), "records")),
    c("denom_lim", md$denom_lim),
    c("exclude_ov_denom_lim", md$exclude_ov_denom_lim),
    c("not.targetslev", label_count(args$not.targetslev)),
    c("usetargetsNA", show(args$usetargetsNA %||% TRUE)),
    c("usekeysNA", show(args$usekeysNA %||% TRUE)),
    c("exclude.keys", show(args$exclude.keys)),
    c("exclude.keylevs", label_count(args$exclude.keylevs)),
    c("exclude.targetlevs", label_count(args$exclude.targetlevs)),
    c("ngroups_targets", show(args$ngroups_targets)),
    c("ngroups_keys", show(args$ngroups_keys)),
    c("ident.meas", md$ident.meas),
    c("attrib.meas", md$attrib.meas),
    c("thresh_1way", show(args$thresh_1way %||% c(50, 90))),
    c("thresh_2way", show(args$thresh_2way %||% c(4, 80))),
    c("digits", md$digits),
    c("compare.synorig", show(args$compare.synorig %||% TRUE)),
    c("cont.na", if (is.null(args$cont.na)) "from the synds object, or none" else show(args$cont.na)),
    c("n_threads", resolve_threads(args$n_threads, call = NULL)),
    c("distances", distances),
    c("attacks", attacks),
    c("min_cell (report)", min_cell)
  )
  data.frame(setting = vapply(rows, `[`, "", 1), value = vapply(rows, function(r) as.character(r[2]), ""),
             stringsAsFactors = FALSE)
}

report_versions <- function() {
  pandoc <- tryCatch(as.character(rmarkdown::pandoc_version()), error = function(e) "unknown")
  data.frame(software = c("synthrisk", "R", "rmarkdown", "pandoc", "written"),
             version = c(as.character(utils::packageVersion("synthrisk")), R.version$version.string,
                         as.character(utils::packageVersion("rmarkdown")), pandoc,
                         format(Sys.time(), "%Y-%m-%d %H:%M %Z")),
             stringsAsFactors = FALSE)
}

report_template_dir <- function() {
  dir <- system.file("rmarkdown", "templates", "disclosure-report", "skeleton", package = "synthrisk")
  if (!nzchar(dir)) cli::cli_abort("Internal error: the report template is not installed with synthrisk.")
  dir
}

# Renders the template with the contents, in a scratch folder (the installed package
# may be read-only), to one self-contained HTML file.
render_report <- function(contents, file) {
  work <- tempfile("synthrisk-report-")
  dir.create(work)
  on.exit(unlink(work, recursive = TRUE), add = TRUE)
  file.copy(list.files(report_template_dir(), full.names = TRUE), work, recursive = TRUE)
  input <- file.path(work, "skeleton.Rmd")
  format <- rmarkdown::html_document(self_contained = TRUE, mathjax = NULL, theme = NULL, highlight = NULL,
                                     toc = TRUE, toc_depth = 2, css = file.path(work, "report.css"),
                                     fig_width = 7.5, fig_height = 4.5, number_sections = TRUE,
                                     pandoc_args = c("--metadata", paste0("title=", contents$title %||% "Disclosure risk report")))
  out <- rmarkdown::render(input, output_format = format, output_file = basename(file), output_dir = work,
                           intermediates_dir = work, params = list(contents = contents), envir = new.env(),
                           quiet = TRUE)
  if (!file.copy(out, file, overwrite = TRUE)) {
    cli::cli_abort("Could not write {.file {file}}.")
  }
  file
}

# The formatters the template uses, bound to the report's digits.
report_formatters <- function(digits) {
  list(table = function(df, id, counts = character(0), caption = NULL) {
         report_table(df, id, digits = digits, counts = counts, caption = caption)
       },
       count = format_count, percent = function(x) format_percent(x, digits), html_text = html_text,
       html_list = html_list)
}

# A data frame as an HTML table for the template: percentages with `digits` decimals,
# counts (`counts`) as whole numbers with thousands separators, text escaped. `id`
# names the table so that tests can find it. Print it, or cat() it in a results = "asis"
# chunk.
report_table <- function(df, id, digits = 2, counts = character(0), caption = NULL) {
  shown <- df
  for (col in names(df)) {
    x <- df[[col]]
    if (is.numeric(x)) {
      shown[[col]] <- if (col %in% counts) format_count(x) else format_percent(x, digits)
    } else {
      shown[[col]] <- as.character(x)
    }
    shown[[col]] <- html_text(shown[[col]])
  }
  names(shown) <- html_text(names(shown))
  html <- knitr::kable(shown, format = "html", row.names = FALSE, escape = FALSE,
                       caption = if (!is.null(caption)) html_text(caption),
                       table.attr = sprintf('id="%s" class="report-table"', id))
  # A raw HTML block: pandoc passes it through without reading markdown in the cells
  # (a cell starting "- " would otherwise become a list).
  knitr::asis_output(paste0("\n\n```{=html}\n", paste(html, collapse = "\n"), "\n```\n\n"))
}

format_percent <- function(x, digits) {
  out <- formatC(round(x, digits) + 0, format = "f", digits = digits)
  out[is.na(x)] <- "NA"
  out[is.nan(x)] <- "NaN"
  out[is.infinite(x)] <- ifelse(x[is.infinite(x)] > 0, "Inf", "-Inf")
  out
}

# Text for the HTML of the template: every character that HTML or pandoc's markdown
# reads as markup becomes a numeric entity. (pandoc parses the inside of HTML tables as
# markdown, and many brackets, as in interval labels, make its parser run out of memory.)
html_text <- function(x) {
  x <- enc2utf8(as.character(x))
  special <- c("&", "<", ">", "\"", "'", "[", "]", "(", ")", "*", "_", "`", "$", "\\", "~", "^", "|", "#", "{", "}",
               "@", "!", ":")
  out <- vapply(x, function(s) {
    if (is.na(s)) return("NA")
    chars <- strsplit(s, "", fixed = TRUE)[[1]]
    at <- chars %in% special
    chars[at] <- sprintf("&#%d;", utf8ToInt(paste(chars[at], collapse = "")))
    paste(chars, collapse = "")
  }, character(1), USE.NAMES = FALSE)
  out
}

# Lines as an HTML bullet list (their text escaped).
html_list <- function(lines) {
  if (length(lines) == 0) return("")
  paste0("<ul>\n", paste0("<li>", html_text(lines), "</li>", collapse = "\n"), "\n</ul>\n")
}
