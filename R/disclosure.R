#' Disclosure measures for one target variable
#'
#' Identity and attribute disclosure measures of synthetic data for one target and a
#' set of quasi-identifying keys: a drop-in replacement for synthpop's
#' `disclosure()`, with the same arguments (in the same order), defaults and
#' numbers, counted by a Rust core on integer codes and sparse tables.
#'
#' The original data are `data`; every synthesis in `object` is compared with them.
#' Missing values (`NA`, an `NA` factor level, the label `"Missing"`) are one level,
#' `"Missing"`. Numeric variables are categories (one per printed value, `NaN` its
#' own) unless grouped with `ngroups_target`/`ngroups_keys` (quantile breaks of the
#' pooled original and synthetic values; codes in `cont.na` and non-finite values
#' stay levels of their own). The grouping used is stored in the result
#' (`grouping`) and printed.
#'
#' @section Column types:
#' Keys and targets may be numbers (integer, double, `integer64` with bit64
#' installed), factors (ordered or not), characters, logicals, dates and times
#' (`Date`, `POSIXct`, `POSIXlt`, `difftime`, taken by their printed labels); other
#' classed atomic columns (`raw`, for instance) are taken as the factor of their
#' `as.character()` values. List, matrix, data-frame and complex columns are errors
#' naming the variable and the dataset. A variable must be of the same kind in the
#' original and every synthesis (numeric, or factor/character/logical); with
#' `compare.synorig = FALSE` integer and double, factor and ordered factor count
#' as one kind. Characters are compared in UTF-8, whatever their declared encoding.
#' `integer64` (databases' BIGINT) counts and groups as the same numbers held as
#' integers or doubles; a column with values beyond 2^53, which a double cannot hold
#' exactly, is counted by its exact values, and grouping it is an error.
#'
#' @section Grouping:
#' `ngroups_target`/`ngroups_keys` group a numeric variable with more distinct
#' values than groups asked: breaks are the quantiles (type 7) of the pooled
#' original and synthetic values, redone with equal-width breaks when that would
#' leave fewer than three levels (intervals plus codes), as synthpop does through
#' classInt. When the number
#' of groups asked is at least the number of distinct usable values, each value is
#' its own group. `NA`, non-finite values (`-Inf`, `Inf`, `NaN`) and the codes in
#' `cont.na` are never grouped: each stays a level of its own, after the groups.
#' Each grouped variable, the number of groups asked and made, the style and the
#' labels are printed and stored in the result's `grouping`.
#'
#' The measures (all in percent, `max_denom`/`mean_denom` in records) are listed
#' with their definitions in [synthrisk-package]. Where a number deliberately
#' differs from synthpop 1.9-3, the result's `notes` and its printout say so.
#'
#' @section Counted cells and database tables:
#' A dataset may be given as counted cells, a frequency table marked by
#' [cell_counts()] whose rows each stand for the records of their count, or as a
#' database table (a dbplyr table such as `dplyr::tbl(con, "orig")`, or a lazy query
#' on one). The numbers are those of the records: on counted cells, those of each
#' row repeated as often as its count; on a database table, those of
#' `dplyr::collect()` of it. The database counts, and only counts come to R (fetched
#' in chunks of `getOption("synthrisk.fetch_rows", 1e5)` rows): per table, the levels
#' of the targets with their records (`SELECT targets, COUNT(*) ... GROUP BY
#' targets`, or one target at a time when that gives more than 10,000 rows); then,
#' for the targets of at most 64 levels (texts, integers, logicals,
#' finite numbers), the records of each level per key tuple in one query (`SELECT
#' keys, COUNT(CASE WHEN target = level THEN 1 END), ... GROUP BY keys`), checked
#' against the levels' records; the other targets one query each (`SELECT keys,
#' target, COUNT(*) ... GROUP BY keys, target`). `NULL` is a level of its own.
#' Counts are not anonymous: a key tuple with a count of 1 is one person's keys and
#' target value (`vignette("database")`, "What leaves the database").
#' Numeric variables are grouped from those counts, with the breaks of the records.
#' The result's `input` says what each dataset was (`source`: `"records"`,
#' `"counted cells"` or `"database"`), its `records` and the `rows` that came to R
#' (for a database table, over all its queries); `database` lists the queries
#' (`dataset`, `query`: `"labels"` (the check that the database compares text as R
#' does), `"levels"`, `"pivot"` or `"cells"`, `targets`, `rows`, `seconds`); the
#' printout says how many records came as how many rows. A database
#' has no factor levels: text columns are compared by their labels as characters are
#' (definitions vignette, section 2), so levels are in the order `factor()` gives them. See
#' `vignette("database", package = "synthrisk")` for what the database must support
#' and how column types map.
#'
#' @param object A `synds` object from synthpop (recognised by its class; synthpop
#'   need not be installed), a data frame, a database table (dbplyr), or a list of
#'   data frames or database tables (one per synthesis). Tibbles and data.tables are
#'   treated as data frames; a data frame of class [cell_counts()] is counted cells.
#' @param data The original data: a data frame (records, or counted cells made with
#'   [cell_counts()]) or a database table (dbplyr).
#' @param cont.na For data-frame, database-table or list input, a named list of special numeric codes
#'   per variable (as in synthpop's `syn()`), or, for a stratified synthesis, the
#'   list-matrix of `syn.strata()` (the codes are the union over strata); a `synds`
#'   object brings its own.
#' @eval argument_docs_roxygen("disclosure")
#' @return An object of class `synthrisk_disclosure` (and `disclosure`, synthpop's
#'   class, second). Every measure is a percentage (0-100), as in synthpop, except
#'   `max_denom` and `mean_denom` (numbers of records) and the holdout's `R` (at most
#'   1). It holds synthpop 1.9-3's components first, in its order: `ident`,
#'   `attrib`, `allCAPs` (data frames, one row per synthesis, synthpop's columns first
#'   and synthrisk's after them), `check_1way`, `check1` (the message of the last
#'   synthesis the 1-way check flags), `check_2way` (its
#'   `target_key_levs`, "target level|key level", a factor as in synthpop: its levels
#'   are every pair of the DiSCO cells above `thresh_2way[1]`, key by key, the pairs
#'   the table shows among them; rows named as synthpop names them), `check2`,
#'   `Nexclusions` (one 8 x 6 matrix per synthesis), `keys`, `target`, `digits`,
#'   `Norig`, `to.print`, `call`; then synthrisk's: `measures` (every number in one
#'   data frame, plus `TCAP_synthpop`, synthpop 1.9-3's TCAP, and the record counts
#'   `Nd`, `Ns`), `Nsyn` (synthetic records), `m`, `grouping` (breaks and labels of
#'   each grouped variable), `notes` (one line per difference from synthpop 1.9-3 or
#'   adjustment), `input` (what each dataset was, see the section "Counted cells and database
#'   tables") and, when a dataset is a database table, `database`. With `control`, also
#'   `holdout` (one row per synthesis and measure: `synthesis`, `measure`, `train` =
#'   the measure with `data` as the original, `control` = with `control` as the
#'   original, `R`; see the section "Holdout baseline"), `Ncontrol` and
#'   `holdout_notes` (control values put in end intervals of grouped variables).
#'   With `conf.level` or `resynthesize`: `intervals` (`measure`, `estimate` (the
#'   mean over the syntheses the interval is across), `conf.low`, `conf.high`,
#'   `method`: `"across syntheses"` or `"resynthesized"`, `caveat`: `NA` or why the
#'   interval may cover less often than its level), with `control` also
#'   `holdout_intervals` (the same for R), and `uncertainty` (what was asked). With `release = TRUE`: `release` (`DiSCO_any`,
#'   `repU_any`) and `pooled` (the `disclosure` of the syntheses stacked).
#'
#' @section Holdout baseline:
#' Records used for the synthesis may be at risk because the synthesis learnt
#' about them, or only because they resemble the population. Passing `control`,
#' records of the same population kept out of the synthesis (see
#' [holdout_split()]), computes every measure a second time with `control` as the
#' original. With r a measure as a proportion, `R = (r_train - r_control) / (1 -
#' r_control)` (Giomi et al., 2023) is 0 when the training records are no more at
#' risk than the control records and positive when they are more; it is `NA` for
#' the counts `max_denom` and `mean_denom` and where r_control is 1. Measures of
#' the synthetic data alone (UiS, Dsyn, CAPs) are the same for both. Measures that
#' count records unique in a set (UiO, repU, Dorig) depend on its size (UiO is
#' higher in a smaller set), so their R compares fairly only when `control` and
#' `data` are of similar size. [holdout_split()]'s default `prop = 0.2` keeps most
#' records for the synthesis (as Raab, 2024, does); where the original is large
#' enough to synthesise from half of it, `prop = 0.5` gives R near 0 (within 0.11 in mean) for every
#' measure when nothing leaks (at `prop = 0.2`, simulated splits of SD2011 without
#' leakage gave R near +0.3 for DCAPs, DCAPb, TCAPs and TCAPb, shares of synthetic
#' records that a smaller set lowers, and below 0 for UiO, repU, Dorig and CAPd).
#'
#' The numbers of `data` do not change: `control` is coded on the union of levels
#' with `data` and the syntheses, and numeric variables are grouped with the breaks
#' of `data` and the syntheses only; control values below the lowest or above the
#' highest break go to the first or last interval (a line of the printout and
#' `holdout_notes` say how many). Without grouping the control numbers are those of
#' `disclosure(object, control, ...)`.
#' @references Giomi, M., Boenisch, F., Wehmeyer, C. and Tasnádi, B. (2023). A
#'   unified framework for quantifying privacy risk in synthetic data. *Proceedings
#'   on Privacy Enhancing Technologies* 2023(2), 312-328 (the holdout baseline and R).
#' @seealso [multi.disclosure()] for many targets at once, [print.disclosure()],
#'   [autoplot.disclosure()], [tidy.disclosure()].
#' @export
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' d <- disclosure(sd2011_synds, sd2011, keys = keys, target = "depress")
#' d$attrib
#'
#' # synthpop's positional order works: keys, target, print.flag, denom_lim, ...
#' d5 <- disclosure(sd2011_synds5, sd2011, keys, "income", FALSE, ngroups_target = 10)
#' print(d5, to.print = c("ident", "attrib"))
#'
#' # Data frames: cont.na is the third argument, as in synthpop
#' d_df <- disclosure(sd2011_synds$syn, sd2011, list(income = -8), keys, "marital",
#'                    print.flag = FALSE)
#' d_df$check2
#'
#' # Holdout baseline: records kept out of the synthesis as a second original.
#' # sd2011_train_synds5 was made from parts$train only, so parts$control is held out.
#' parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
#' dh <- disclosure(sd2011_train_synds5, parts$train, keys = keys, target = "depress",
#'                  print.flag = FALSE, control = parts$control)
#' print(dh, to.print = "holdout")
#' subset(dh$holdout, measure %in% c("repU", "DiSCO", "TCAP"))
disclosure <- function(object, data, ...) {
  UseMethod("disclosure")
}

#' @rdname disclosure
#' @export
disclosure.synds <- front_door("disclosure", cont_na = FALSE)

#' @rdname disclosure
#' @export
disclosure.data.frame <- front_door("disclosure", cont_na = TRUE)

#' @rdname disclosure
#' @export
disclosure.tbl_lazy <- front_door("disclosure", cont_na = TRUE)

#' @rdname disclosure
#' @export
disclosure.list <- front_door("disclosure", cont_na = TRUE)

#' @rdname disclosure
#' @export
disclosure.default <- function(object, data, ...) {
  synthesis_list(object, call = rlang::current_env())
}
