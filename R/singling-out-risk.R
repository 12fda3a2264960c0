#' Singling-out risk: whether the synthetic data point at exactly one real person
#'
#' anonymeter's singling-out attack (Giomi et al., 2023, Proceedings on Privacy Enhancing Technologies), as definitions vignette
#' section 13 defines it. The attacker writes queries from the synthetic data
#' (conjunctions of predicates such as `age >= 84 & sex == "MALE"`) that hold for
#' exactly one synthetic record, and succeeds when a query holds for exactly one
#' original record too. With `n_cols = 1` the queries are every univariate query that
#' singles out in the synthesis (no randomness); with `n_cols >= 2`, queries are made
#' from random synthetic records on `n_cols` random columns until `n_attacks` distinct
#' ones single out in the synthesis. `queries` passes queries instead (for example
#' anonymeter's own). The main attack counts the queries that single out in `data`,
#' the control attack those that single out in `control`, the baseline random queries;
#' the risk is anonymeter's \eqn{(p_{main} - p_{control}) / (1 - p_{control})} from
#' Wilson intervals.
#'
#' Records that repeat another record on every column of `cols` are removed first from
#' `data`, each synthesis and `control` (the first is kept). `NA`, `NaN`, an `NA` level
#' and `"Missing"` are missing, which only `is.na` matches; `cont.na` codes are ordinary
#' values. When `control` has fewer records than `data`, a query is more likely to single
#' out in it, so the main attack is also run on `reps` random subsets of `data` of the
#' control's size and the risk uses their mean (the full-size rate is reported beside
#' it).
#'
#' @inheritParams inference_risk
#' @param cols The columns queries may use (names or column numbers of `data`);
#'   default every column of `data` that every synthesis has.
#' @param n_cols Predicates per query: 1 for univariate queries, 2 or more for
#'   multivariate ones.
#' @param n_attacks The multivariate queries wanted (ignored for univariate queries,
#'   which are all taken).
#' @param max_attempts The most random records tried for multivariate queries.
#' @param queries `NULL`, or queries to use instead of generating them: a data frame with
#'   one row per predicate and columns `query` (an id; rows with the same id form one
#'   conjunction), `column`, `op` (`"=="`, `"!="`, `"<"`, `">"`, `"<="`, `">="` or
#'   `"is.na"`) and `value` (character, read as a number for a numeric column; `NA` for
#'   `"is.na"`). They are used as given: those that do not single out in the synthesis
#'   still count.
#' @param reps Random subsets of `data` of the control's size, when `control` is
#'   smaller.
#' @param seed `NULL` or a seed for the random draws (multivariate queries, subsets,
#'   baseline); the session's random numbers are restored afterwards.
#' @param records `TRUE` to add `records`: every query with the original record it
#'   singles out. A query that singles out names a real person's values: keep them with
#'   the confidential data.
#' @return An object of class `c("synthrisk_singling_out", "synthrisk_attack")`: as
#'   [inference_risk()]'s (risks and rates on 0-1), with `results` also holding `rate_full` (the main rate on all
#'   of `data`), `not_single` (queries that do not single out in the synthesis) and
#'   `attempts`; `cols`, `n_cols`, `removed` (records removed as repeats, per dataset)
#'   and, with `records = TRUE`, `records` (per synthesis and query: `query`, its text,
#'   `in_synthesis`, `row` of `data` singled out or `NA`, `control_row`).
#' @seealso [inference_risk()], [linkability_risk()], [replicated.uniques()].
#' @export
#' @examples
#' vars <- c("sex", "age", "region", "placesize", "marital")
#' # sd2011_train_synds5 was made from parts$train only: parts$control is held out.
#' parts <- holdout_split(sd2011[, vars], prop = 0.2, seed = 1)
#' syn <- sd2011_train_synds5$syn[[1]][, vars]
#' singling_out_risk(syn, parts$train, control = parts$control)
#' singling_out_risk(syn, parts$train, n_cols = 3, n_attacks = 200,
#'                   control = parts$control, seed = 1)
singling_out_risk <- function(object, data, cols = NULL, n_cols = 1, n_attacks = 2000, max_attempts = 1e7,
                              control = NULL, queries = NULL, reps = 10, seed = NULL, ..., conf.level = 0.95,
                              cont.na = NULL, records = FALSE, n_threads = NULL) {
  env <- rlang::current_env()
  rlang::check_dots_empty(call = env)
  # Arguments given (before they are checked and reassigned), to say which do not apply.
  given_args <- c(n_attacks = !missing(n_attacks), max_attempts = !missing(max_attempts), n_cols = !missing(n_cols))
  request <- attack_request(object, data, control, cont.na, n_threads, "singling_out_risk", env, conf.level, seed,
                            records, target_records = FALSE)
  syn <- request$syn
  conf.level <- request$conf.level
  seed <- request$seed
  if (!is.null(cols)) request <- search_columns(request, cols, "cols")
  cols <- request$columns$cols %||% search_common_columns(request)
  if (length(cols) == 0) cli::cli_abort("{.arg data} and the synthetic data have no column in common.", call = env)
  cols <- in_data_order(cols, data)
  n_cols <- check_count(n_cols, "n_cols", env)
  if (n_cols > length(cols)) {
    cli::cli_abort("{.arg n_cols} is {n_cols}, more than the {length(cols)} column{?s} of {.arg cols}.", call = env)
  }
  n_attacks <- check_count(n_attacks, "n_attacks", env)
  max_attempts <- check_count(max_attempts, "max_attempts", env)
  reps <- check_count(reps, "reps", env)
  check_sizes_for_attack(data, syn, control, env)
  request <- search_encode(request, cols)
  enc <- request$enc
  missing_levels <- lapply(seq_along(cols), function(i) {
    info <- enc$info[[i]]
    if (!is.null(info$numeric_levels)) return(NULL)
    labels <- enc$labels[[i]]
    (seq_along(labels) - 1L) == info$missing_code | (cols[[i]] %in% enc$adjusted & labels == "NaN")
  })
  so <- rust_result(rust_singling_out_data(enc$ptr, seq_along(cols) - 1L, missing_levels, request$n_threads),
                    call = env)
  numeric <- stats::setNames(so$numeric, cols)
  m <- length(syn)
  n_control <- request$n$control
  sizes <- lengths(so$rows)
  nd <- sizes[[1]]
  nc <- if (n_control > 0) sizes[[m + 2L]] else 0L
  given <- if (!is.null(queries)) user_queries(queries, cols, numeric, enc, env)
  draws <- with_seed(seed, lapply(seq_len(m), function(j) {
    if (!is.null(given)) {
      q <- given
      attempts <- NA_integer_
    } else if (n_cols == 1) {
      q <- rust_result(rust_singling_out_univariate(so$ptr, j), call = env)
      attempts <- NA_integer_
    } else {
      gen <- multivariate_queries(so, j, cols, numeric, syn[[j]], n_cols, n_attacks, max_attempts,
                                  request$n_threads, env)
      q <- gen$queries
      attempts <- gen$attempts
    }
    subsets <- if (n_control > 0 && nc < nd) lapply(seq_len(reps), function(r) sample.int(nd, nc) - 1L)
    baseline <- baseline_queries(n_queries(q), so$distinct[[j + 1L]], numeric, n_cols)
    list(queries = q, attempts = attempts, subsets = subsets, baseline = baseline)
  }))
  rows <- list()
  record_rows <- list()
  for (j in seq_len(m)) {
    d <- draws[[j]]
    n <- n_queries(d$queries)
    datasets <- c(list(evaluated_on(j), evaluated_on(0L)), if (n_control > 0) list(evaluated_on(m + 1L)),
                 lapply(d$subsets, function(s) evaluated_on(0L, as.integer(s))))
    found <- rust_result(rust_singling_out_evaluate(so$ptr, d$queries, datasets, request$n_threads), call = env)
    base <- rust_result(rust_singling_out_evaluate(so$ptr, d$baseline, list(evaluated_on(0L)), request$n_threads),
                        call = env)[[1]]
    in_syn <- !is.na(found[[1]])
    main <- sum(!is.na(found[[2]]))
    ctrl <- if (n_control > 0) sum(!is.na(found[[3]])) else NA_real_
    sub <- if (length(d$subsets) > 0) mean(vapply(found[-(1:3)], function(x) sum(!is.na(x)), numeric(1))) else main
    row <- attack_row(j, n, main, if (n_control > 0) n else 0L, ctrl, sum(!is.na(base)), conf.level, s_risk = sub)
    row$rate_full <- row$rate
    row$rate <- if (n > 0) sub / n else NaN
    row$successes <- sub
    row$not_single <- sum(!in_syn)
    row$attempts <- d$attempts
    rows[[j]] <- row
    if (records) {
      record_rows[[j]] <- data.frame(synthesis = rep(j, n), query = seq_len(n),
                                     text = query_text(d$queries, cols, numeric, enc), in_synthesis = in_syn,
                                     row = found[[2]], control_row = if (n_control > 0) found[[3]] else NA_integer_)
    }
  }
  results <- do.call(rbind, rows)
  if (any(results$n == 0)) {
    cli::cli_abort(c("No query singles out a synthetic record{if (m > 1) ' in synthesis ' else ''}{if (m > 1) which(results$n == 0)[1] else ''}: there is no attack to measure.",
                     i = "Try more columns ({.arg cols}), another {.arg n_cols} or more {.arg max_attempts}."),
                   call = env)
  }
  removed <- c(data = nrow(data) - nd, stats::setNames(vapply(syn, nrow, integer(1)) - sizes[1 + seq_len(m)],
                                                         if (m == 1) "synthesis" else paste("synthesis", seq_len(m))),
               if (n_control > 0) c(control = n_control - nc))
  notes <- singling_out_notes(results, removed, given, n_cols, n_attacks, max_attempts, nd, nc, reps, m)
  unused <- c(if (given_args[["n_attacks"]]) "n_attacks", if (given_args[["max_attempts"]]) "max_attempts")
  if (length(unused) > 0 && (!is.null(given) || n_cols == 1)) {
    notes <- c(notes, paste0(paste0("`", unused, "`", collapse = " and "),
                             if (length(unused) == 1) " applies" else " apply", " to generated multivariate queries; ",
                             if (!is.null(given)) "the queries given were used as they are." else
                               "univariate queries are all taken."))
  }
  if (!is.null(given) && given_args[["n_cols"]]) {
    notes <- c(notes, "`n_cols` applies to generated queries and to the baseline's random queries; the queries given keep their own predicates.")
  }
  what <- if (!is.null(given)) "the queries given" else if (n_cols == 1) "univariate queries, all" else
    paste0("multivariate queries on ", n_cols, " columns")
  sentence <- paste0("The attacker writes queries from the synthetic data that hold for exactly one synthetic record (",
                     what, ", from ", paste(cols, collapse = ", "),
                     ") and succeeds when one holds for exactly one original record.")
  new_attack("singling_out", "synthrisk_singling_out", results, conf.level, NULL, list(
    what_method = paste0("anonymeter's attack, ", if (!is.null(given)) "queries given" else if (n_cols == 1) "univariate" else "multivariate"),
    sentence = sentence,
    rate_words = list(main = "share of the queries that single out an original (training) record",
                      baseline = "random queries singling out an original record"),
    cols = cols, n_cols = n_cols, n_attacks = NULL, seed = seed, removed = removed, notes = notes,
    adjusted = enc$adjusted,
    n = request$n,
    records = if (records) do.call(rbind, record_rows)
  ))
}

# Operators as the core codes them.
so_ops <- c("==" = 1L, "!=" = 2L, "<" = 3L, ">" = 4L, "<=" = 5L, ">=" = 6L, "is.na" = 7L, "!is.na" = 8L)

n_queries <- function(q) length(unique(q$query))

empty_queries <- function() list(query = integer(0), column = integer(0), op = integer(0), value = double(0))

# Multivariate queries of synthesis j: after the session's seed, in batches of
# min(1000, attempts left), rows <- sample.int(Ns, B, replace = TRUE) then per attempt
# sort(sample.int(p, n_cols)); the core keeps new queries that single out in the
# synthesis. The core draws the attempts as sample.int() would from R's own uniforms
# (runif(), handed over in chunks), then R's generator is put back and advanced by the
# uniforms the whole batches used, so the stream is exactly that of sample.int() batch
# by batch, without a call into R per attempt.
multivariate_queries <- function(so, j, cols, numeric, syn_j, n_cols, n_attacks, max_attempts, n_threads, call) {
  kept_rows <- so$rows[[j + 1L]]
  medians <- vapply(cols, function(v) {
    if (!numeric[[v]]) return(NaN)
    x <- as.double(syn_j[[v]][kept_rows])
    x <- x[is.finite(x)]
    if (length(x) == 0) NaN else stats::median(x)
  }, numeric(1))
  rounding <- identical(RNGkind()[3], "Rounding")
  # A session that has drawn nothing yet starts its generator as R would.
  if (!exists(".Random.seed", envir = globalenv(), inherits = FALSE)) set.seed(NULL)
  # Uniforms per batch: a row takes 1 or 2 (2 from 2^15 records), a column 1, and
  # rejection at most doubles the expected count.
  per_batch <- 1000 * (2 * (1 + (length(kept_rows) >= 32768)) + 2 * n_cols)
  batches <- 4
  kept <- empty_queries()
  attempts <- 0
  repeat {
    state <- get(".Random.seed", envir = globalenv())
    uniforms <- stats::runif(batches * per_batch)
    res <- rust_result(rust_singling_out_generate(so$ptr, j, uniforms, rounding, n_cols, medians, kept, n_attacks,
                                                  max_attempts - attempts, n_threads), call = call)
    assign(".Random.seed", state, envir = globalenv())
    if (res$consumed > 0) stats::runif(res$consumed)
    kept <- res$kept
    attempts <- attempts + res$attempts
    if (res$done) break
    if (res$consumed == 0) per_batch <- 2 * per_batch
    batches <- min(2 * batches, 64)
  }
  list(queries = kept, attempts = attempts)
}

# n random queries for the baseline: per query sort(sample.int(p, n_cols)) columns, each
# with a value drawn from the synthesis's distinct values (in order of first
# appearance, missing included) and then an operator from {==, !=, <, >, <=, >=}
# (numeric) or {==, !=} (categorical); a missing value draws from {is.na, !is.na}.
baseline_queries <- function(n, distinct, numeric, n_cols) {
  p <- length(distinct)
  out <- vector("list", n)
  for (q in seq_len(n)) {
    cc <- sort(sample.int(p, n_cols))
    value <- double(n_cols)
    op <- integer(n_cols)
    for (i in seq_len(n_cols)) {
      vals <- distinct[[cc[i]]]
      v <- vals[sample.int(length(vals), 1L)]
      value[i] <- v
      op[i] <- if (is.nan(v)) c(7L, 8L)[sample.int(2L, 1L)] else if (numeric[[cc[i]]]) sample.int(6L, 1L) else
        c(1L, 2L)[sample.int(2L, 1L)]
    }
    out[[q]] <- list(query = rep(q, n_cols), column = cc - 1L, op = op, value = value)
  }
  if (n == 0) return(empty_queries())
  list(query = as.integer(unlist(lapply(out, `[[`, "query"))), column = as.integer(unlist(lapply(out, `[[`, "column"))),
       op = as.integer(unlist(lapply(out, `[[`, "op"))), value = as.double(unlist(lapply(out, `[[`, "value"))))
}

# The `queries` argument checked and coded for the core: columns among `cols`,
# operators that fit the column, values read as numbers or matched to the labels.
user_queries <- function(queries, cols, numeric, enc, call) {
  if (!is.data.frame(queries) || !all(c("query", "column", "op", "value") %in% names(queries))) {
    cli::cli_abort(c("{.arg queries} must be a data frame with columns {.field query}, {.field column}, {.field op} and {.field value}.",
                     i = "One row per predicate; rows with the same {.field query} form one query."), call = call)
  }
  if (nrow(queries) == 0) cli::cli_abort("{.arg queries} has no rows.", call = call)
  id <- queries$query
  if (anyNA(id)) cli::cli_abort("{.arg queries} has a missing {.field query} id.", call = call)
  column <- as.character(queries$column)
  op <- as.character(queries$op)
  value <- queries$value
  allowed <- c("==", "!=", "<", ">", "<=", ">=", "is.na")
  bad_col <- which(!column %in% cols)
  if (length(bad_col) > 0) {
    b <- bad_col[1]
    cli::cli_abort(c("Query {.val {id[b]}} uses column {.val {column[b]}}, which is not among the columns attacked.",
                     did_you_mean(column[b], cols), i = "The columns are {.val {cols}}."), call = call)
  }
  bad_op <- which(is.na(op) | !op %in% allowed)
  if (length(bad_op) > 0) {
    b <- bad_op[1]
    cli::cli_abort("Query {.val {id[b]}} has operator {.val {op[b]}}; use one of {.val {allowed}}.", call = call)
  }
  order_ids <- match(id, unique(id))
  dup <- duplicated(data.frame(order_ids, column))
  if (any(dup)) {
    b <- which(dup)[1]
    cli::cli_abort("Query {.val {id[b]}} has two predicates on {.val {column[b]}}; a query uses each column once.",
                   call = call)
  }
  code <- double(nrow(queries))
  for (i in seq_len(nrow(queries))) {
    v <- cols == column[i]
    if (op[i] == "is.na") {
      code[i] <- NaN
      next
    }
    raw <- if (is.na(value[i])) NA_character_ else as.character(value[i])
    if (is.na(raw)) {
      cli::cli_abort("Query {.val {id[i]}} compares {.val {column[i]}} with {.code NA}; use {.code op = \"is.na\"}.",
                     call = call)
    }
    if (numeric[[column[i]]]) {
      x <- suppressWarnings(as.numeric(raw))
      if (is.na(x)) {
        cli::cli_abort("Query {.val {id[i]}}: {.val {column[i]}} is numeric, but its value {.val {raw}} is not a number.",
                       call = call)
      }
      code[i] <- x
    } else {
      if (!op[i] %in% c("==", "!=")) {
        cli::cli_abort(c("Query {.val {id[i]}} uses {.val {op[i]}} on {.val {column[i]}}, which is compared by label.",
                         i = "Categorical columns take {.val ==}, {.val !=} and {.val is.na}."), call = call)
      }
      labels <- enc$labels[[which(v)]]
      k <- match(user_labels(raw), labels)
      # A label that no dataset has matches no record (coded -1).
      code[i] <- if (is.na(k)) -1 else k - 1
    }
  }
  o <- order(order_ids, seq_along(order_ids))
  list(query = as.integer(order_ids[o]), column = as.integer(match(column[o], cols) - 1L),
       op = unname(so_ops[op[o]]), value = code[o])
}

# The text of each query, with labels for categorical values.
query_text <- function(q, cols, numeric, enc) {
  ops <- names(so_ops)
  pieces <- vapply(seq_along(q$query), function(i) {
    c <- q$column[i] + 1L
    op <- ops[q$op[i]]
    if (op == "is.na") return(paste0("is.na(", cols[c], ")"))
    if (op == "!is.na") return(paste0("!is.na(", cols[c], ")"))
    v <- if (numeric[[c]]) format(q$value[i], digits = 15) else {
      k <- q$value[i] + 1
      if (k >= 1 && k <= length(enc$labels[[c]])) encodeString(enc$labels[[c]][k], quote = "\"") else "<no such label>"
    }
    paste(cols[c], op, v)
  }, character(1))
  unname(vapply(split(pieces, factor(q$query, unique(q$query))), paste, character(1), collapse = " & "))
}

singling_out_notes <- function(results, removed, given, n_cols, n_attacks, max_attempts, nd, nc, reps, m) {
  out <- character(0)
  if (any(removed > 0)) {
    r <- removed[removed > 0]
    out <- c(out, paste0("Records repeating another on every column were removed first: ",
                         paste0(format_count(r), " of ", names(r), collapse = ", "), "."))
  }
  if (!is.null(given) && any(results$not_single > 0)) {
    out <- c(out, paste0(paste(format_count(results$not_single), collapse = ", "), " of the ", format_count(results$n[1]),
                         " queries given do not single out in the synthe", if (m == 1) "sis" else "ses",
                         " (still counted)."))
  }
  if (is.null(given) && n_cols > 1 && any(results$n < n_attacks)) {
    out <- c(out, paste0("Only ", paste(format_count(results$n), collapse = ", "), " of the ", format_count(n_attacks),
                         " queries asked for singled out a synthetic record in ", format_count(max_attempts),
                         " attempts."))
  }
  if (nc > 0 && nc < nd) {
    out <- c(out, paste0("control has ", format_count(nc), " distinct records and data ", format_count(nd),
                         ": the main rate is the mean over ", reps, " random subsets of data of the control's size; on all of data it is ",
                         paste(format_fixed(results$rate_full, 3), collapse = ", "), "."))
  } else if (nc > nd) {
    out <- c(out, paste0("control has more distinct records (", format_count(nc), ") than data (", format_count(nd),
                         "): queries single out less often in it, which lowers the risk."))
  }
  out
}
