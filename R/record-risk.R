#' Which records are at risk
#'
#' The disclosure measures record by record, so that a custodian can act on the
#' records behind a risk: each original record's uniqueness and disclosiveness, and
#' each synthetic record's replicated uniqueness and the scores of Taub et al.'s
#' TCAP. Counted in the same way as [disclosure()] (exclusions included), so that
#' summing the flags reproduces its measures exactly (see `summary()`).
#'
#' Counts are after the exclusions of `disclosure()`: `d_q` and `s_q` are the
#' original and synthetic records of the record's key combination q that remain
#' once excluded cells are removed. With a target, the columns of `original` are
#' * `row`, `synthesis`, `d_q`, `s_q`;
#' * `unique_orig`: the record is the only one of its q (`d_q == 1`; sums to UiO);
#' * `unique_in_syn`: and its q occurs in the synthetic data (sums to UiOiS);
#' * `replicated_unique`: and unique in the synthetic data too (sums to repU);
#' * `rk`: `1 / d_q`, sdcMicro's individual risk without weights (`NA` when the
#'   record is excluded);
#' * `disclosive_orig`: its target level is the only one of its q in the original
#'   (sums to Dorig);
#' * `disco`: its target level is the only one of its q in the synthetic data, so an
#'   intruder would attribute it correctly (sums to DiSCO);
#' * `cap`: the synthetic share of its own target level in its q (sums to DCAPd);
#' * `excluded`: the exclusion step that removed it (`"excluded target"`,
#'   `"missing target"`, `"missing in  keys"`, `"set to exclude"`, `"over
#'   denom_lim"`), or `NA`.
#'
#' and `synthetic` has `row`, `synthesis`, `s_q`, `d_q`, `replicated_unique`
#' (`s_q == 1` and `d_q == 1`: synthpop's replicated uniques), `unique_syn_in_orig`
#' (`s_q == 1` and `d_q >= 1`), `weap` (the synthetic share of its own target level
#' in its q), `tcap` (the original share of that level; `NA` when no original record
#' has its q) and `excluded`. The mean of `tcap` over the records with `weap == 1`
#' is `TCAP_taub`. Sums are percentages of the original records (Nd), as in
#' `disclosure()`. Without a target, only the key-based columns are given and
#' nothing is excluded.
#'
#' @param object A `synds` object, a data frame or a list of data frames.
#' @param data The original data, a data frame.
#' @param keys Quasi-identifiers: names or column numbers of `data`.
#' @param target `NULL` (keys only) or the target variable.
#' @param ... With a target, any argument of [disclosure()] (exclusions, grouping,
#'   `n_threads`); without one, only `n_threads`.
#' @param cont.na For data frames: special codes of numeric variables, a named list
#'   (`list(income = -8)`), each name a variable of `data`; a `synds` object brings
#'   its own. Without a target, keys are counted as they are, so the codes change
#'   nothing but are checked.
#' @return An object of class `synthrisk_record_risk`: `original` and `synthetic` (data
#'   frames, one row per record and synthesis), `keys`, `target`, `m`, `Nd`, `Ns`,
#'   and, with a target, `disclosure` (the `disclosure()` result of the same call).
#' @export
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' rr <- record_risk(sd2011_synds, sd2011, keys, target = "depress")
#' rr
#' summary(rr)
#' # The original records an intruder would attribute correctly:
#' head(rr$original[rr$original$disco, ])
#'
#' # UCI Adult: which synthetic records are replicated uniques on four keys
#' ra <- record_risk(adult_synds, adult, c("age", "sex", "occupation", "race"))
#' sum(ra$synthetic$replicated_unique)
record_risk <- function(object, data, keys, target = NULL, ..., cont.na = NULL) {
  env <- rlang::current_env()
  if (!is.null(target)) {
    request <- disclosure_request("disclosure", object, cont.na, data, keys, target, print.flag = FALSE, ..., .env = env,
                                  .records = TRUE)
    counted <- run_request(request)
    x <- as_disclosure(request, counted)
    return(new_record_risk_target(x, counted$raw$records[[1]]))
  }
  dots <- list(...)
  extra <- setdiff(names(dots) %||% rep("", length(dots)), "n_threads")
  if (length(extra) > 0) {
    cli::cli_abort(c("Without a {.arg target}, {.fn record_risk} takes only {.arg n_threads} beside {.arg keys}.",
                     x = "It was given {.arg {ifelse(nzchar(extra), extra, '(unnamed)')}}."), call = env)
  }
  inputs <- prepare_inputs(object, data, cont.na = cont.na, n_threads = dots$n_threads, fn = "record_risk", call = env)
  syn <- inputs$syn
  request <- keys_request(inputs, if (missing(keys)) NULL else keys, env)
  keys <- request$keys
  rk <- run_request(request)$record_keys
  d_count <- rk$counts[[1]]
  q0 <- rk$q[[1]]
  m <- length(syn)
  d_q0 <- d_count[q0]
  per_synthesis <- function(f) unlist(lapply(seq_len(m), f), use.names = FALSE)
  d_q <- rep.int(d_q0, m)
  s_q <- per_synthesis(function(j) rk$counts[[j + 1]][q0])
  original <- record_frame(list(d_q = d_q, s_q = s_q, unique_orig = d_q == 1L, unique_in_syn = d_q == 1L & s_q > 0L,
                                replicated_unique = d_q == 1L & s_q == 1L, rk = 1 / d_q),
                           rep.int(length(q0), m))
  s_q <- per_synthesis(function(j) rk$counts[[j + 1]][rk$q[[j + 1]]])
  d_q <- per_synthesis(function(j) d_count[rk$q[[j + 1]]])
  synthetic <- record_frame(list(s_q = s_q, d_q = d_q, replicated_unique = s_q == 1L & d_q == 1L,
                                 unique_syn_in_orig = s_q == 1L & d_q >= 1L),
                            lengths(rk$q[-1]))
  structure(list(original = original, synthetic = synthetic, keys = keys, target = NULL, m = m, Nd = nrow(data),
                 Ns = vapply(syn, nrow, integer(1)), disclosure = NULL),
            class = "synthrisk_record_risk")
}


new_record_risk_target <- function(x, raw) {
  n <- raw$n_orig
  ns <- raw$n_syn
  m <- length(ns)
  # The core wrote every column in its final type, syntheses one after another; only
  # the record and synthesis numbers are added, and the steps labelled as a factor.
  original <- record_frame(raw$original, rep.int(n, m))
  synthetic <- record_frame(raw$synthetic, ns)
  structure(list(original = original, synthetic = synthetic, keys = x$keys, target = x$target, m = m, Nd = x$Norig,
                 Ns = x$Nsyn, disclosure = x),
            class = "synthrisk_record_risk")
}

# A record table from its columns (of `sum(rows)` records, `rows[j]` of them in
# synthesis j): `row` and `synthesis` first, the exclusion step (its code, NA for
# kept) as a factor. Built directly: data.frame() and rbind() copy and check every column.
record_frame <- function(columns, rows) {
  rows <- as.integer(rows)
  m <- length(rows)
  if (!is.null(columns$excluded)) {
    columns$excluded <- structure(columns$excluded, levels = names(exclusion_steps), class = "factor")
  }
  ids <- list(row = if (m == 1L) seq_len(rows) else sequence(rows), synthesis = rep.int(seq_len(m), rows))
  out <- c(ids, columns)
  class(out) <- "data.frame"
  attr(out, "row.names") <- .set_row_names(sum(rows))
  out
}

#' @rdname record_risk
#' @export
summary.synthrisk_record_risk <- function(object, ...) {
  o <- object$original
  nd <- object$Nd
  by_syn <- function(df, f) vapply(split(df, df$synthesis), f, numeric(1))
  out <- data.frame(synthesis = seq_len(object$m),
                    UiO = by_syn(o, function(r) 100 * sum(r$unique_orig) / nd),
                    UiOiS = by_syn(o, function(r) 100 * sum(r$unique_in_syn) / nd),
                    repU = by_syn(o, function(r) 100 * sum(r$replicated_unique) / nd))
  if (!is.null(object$target)) {
    s <- object$synthetic
    out$Dorig <- by_syn(o, function(r) 100 * sum(r$disclosive_orig) / nd)
    out$DiSCO <- by_syn(o, function(r) 100 * sum(r$disco) / nd)
    out$DCAPd <- by_syn(o, function(r) 100 * sum(r$cap) / nd)
    out$TCAP_taub <- by_syn(s, function(r) {
      acted <- r$weap == 1 & !is.na(r$tcap)
      100 * mean(r$tcap[acted])
    })
  }
  rownames(out) <- NULL
  out
}

#' @rdname record_risk
#' @param x A `record_risk` object.
#' @param digits Digits for the percentages.
#' @export
print.synthrisk_record_risk <- function(x, digits = 2, ...) {
  cat(format(x, digits = digits, ...), sep = "\n")
  invisible(x)
}

#' @rdname record_risk
#' @export
format.synthrisk_record_risk <- function(x, digits = 2, ...) {
  sm <- summary(x)
  o <- x$original
  counts <- data.frame(synthesis = seq_len(x$m),
                       unique = as.vector(tapply(o$unique_orig, o$synthesis, sum)),
                       replicated_unique = as.vector(tapply(o$replicated_unique, o$synthesis, sum)))
  if (!is.null(x$target)) {
    counts$disco <- as.vector(tapply(o$disco, o$synthesis, sum))
    counts$excluded <- as.vector(tapply(!is.na(o$excluded), o$synthesis, sum))
  }
  cli::cli_format_method({
    cli::cli_h1(if (is.null(x$target)) "Records at risk" else "Records at risk for {.val {x$target}}")
    cli::cli_text("Keys: {.val {x$keys}}; {format_count(x$Nd)}{cli::qty(x$Nd)} original record{?s}; {cli::qty(x$m)}{x$m} synthes{?is/es}.")
    cli::cli_h2("Original records flagged (counts)")
    cli_table(counts, row.names = FALSE)
    cli::cli_h2("Their sums, % of the original records (the measures of disclosure())")
    cli_table(round_frame(sm, digits), row.names = FALSE)
    cli::cli_text("Record by record: {.code $original} (flags per original record and synthesis) and {.code $synthetic} (per synthetic record).")
  })
}
