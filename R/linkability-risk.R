#' Linkability risk: whether the synthetic data link two halves of a person's record
#'
#' anonymeter's linkability attack (Giomi et al., 2023, Proceedings on Privacy Enhancing Technologies), computed over every record
#' with ties resolved by probability (definitions vignette, section 13). Two data owners
#' each hold some columns of a person (`aux_a`, `aux_b`); the attacker links the two
#' halves when the `n_neighbors` synthetic records nearest on `aux_a` and those nearest
#' on `aux_b` (Gower distance of section 11) share a record, each list completed at
#' random among the records tied at its last place. A target's success is the
#' probability of that, computed exactly from the sizes of its nearest sets and their
#' intersections. The main attack targets the records used for the synthesis, the
#' control attack records that were not (`control`), and the baseline links two random
#' lists of synthetic records. The risk is anonymeter's
#' \eqn{(p_{main} - p_{control}) / (1 - p_{control})} from Wilson intervals.
#'
#' Also reported (`results$any`): the share of targets whose lists with every tie (all
#' records at or below the k-th distance) meet, an upper bound of the success rate.
#'
#' @inheritParams inference_risk
#' @param aux_a,aux_b The columns each owner holds (names or column numbers of `data`),
#'   disjoint.
#' @param n_neighbors The number of nearest synthetic records each side lists (k),
#'   from 1 to the records of the smallest synthesis.
#' @param records `TRUE` to add the record-level results (`records`): per original and
#'   control record, the chance its halves are linked and the sizes of its nearest
#'   sets. They name real people's records: keep them with the confidential data.
#' @return An object of class `c("synthrisk_linkability", "synthrisk_attack")`: as
#'   [inference_risk()]'s (risks and rates on 0-1), without secrets, with `aux_a`, `aux_b`, `n_neighbors`,
#'   `results$any` (share of targets whose tie-inclusive lists meet) and, with `records =
#'   TRUE`, `records` (`set`, `synthesis`, `row`, `success`, `any`, and the nearest
#'   sets' sizes: `a` strictly nearer than the k-th distance on `aux_a`, `alpha` at
#'   it, `b` and `beta` on `aux_b`).
#' @seealso [inference_risk()], [singling_out_risk()], [dcr()].
#' @export
#' @examples
#' vars <- c("sex", "age", "region", "placesize", "workab", "marital")
#' # sd2011_train_synds5 was made from parts$train only: parts$control is held out.
#' parts <- holdout_split(sd2011[, vars], prop = 0.2, seed = 1)
#' r <- linkability_risk(sd2011_train_synds5$syn[[1]][, vars], parts$train,
#'                       aux_a = c("sex", "age", "region"),
#'                       aux_b = c("placesize", "workab", "marital"), n_neighbors = 5,
#'                       control = parts$control)
#' r
linkability_risk <- function(object, data, aux_a, aux_b, n_neighbors = 1, control = NULL, ...,
                             n_attacks = NULL, seed = NULL, conf.level = 0.95, cont.na = NULL, records = FALSE,
                             n_threads = NULL) {
  env <- rlang::current_env()
  rlang::check_dots_empty(call = env)
  request <- attack_request(object, data, control, cont.na, n_threads, "linkability_risk", env, conf.level, seed,
                            records, n_attacks)
  if (missing(aux_a) || missing(aux_b)) {
    cli::cli_abort("{.arg aux_a} and {.arg aux_b} must name the columns each data owner holds.", call = env)
  }
  request <- search_columns(search_columns(request, aux_a, "aux_a"), aux_b, "aux_b")
  aux_a <- in_data_order(request$columns$aux_a, data)
  aux_b <- in_data_order(request$columns$aux_b, data)
  shared <- intersect(aux_a, aux_b)
  if (length(shared) > 0) {
    cli::cli_abort(c("{.arg aux_a} and {.arg aux_b} share {.val {shared}}.",
                     i = "Each owner holds different columns of a person: the two sets must be disjoint."), call = env)
  }
  check_sizes_for_attack(data, request$syn, control, env)
  k <- check_count(n_neighbors, "n_neighbors", env)
  smallest <- min(request$n$synthetic)
  if (k > smallest) {
    cli::cli_abort(c("{.arg n_neighbors} is {k}, more than the {format_count(smallest)} record{if (smallest == 1) '' else 's'} of the smallest synthesis.",
                     i = "Each side lists {.arg n_neighbors} synthetic records."), call = env)
  }
  request <- attack_searches(search_encode(request, in_data_order(c(aux_a, aux_b), data)))
  vars <- request$vars
  enc <- request$enc
  m <- request$m
  n_control <- request$n$control
  conf.level <- request$conf.level
  target_rows <- request$target_rows
  found <- rust_result(rust_linkability(enc$ptr, search_column_set(request, aux_a), search_column_set(request, aux_b), k,
                                        request$searches, request$n_threads),
                       call = env)
  rows <- list()
  record_rows <- list()
  found <- attack_found(found, n_control > 0)
  for (j in seq_len(m)) {
    main <- found$main[[j]]
    ctrl <- found$control[[j]]
    n <- length(main$success)
    row <- attack_row(j, n, sum(main$success), if (n_control > 0) length(ctrl$success) else 0L,
                      if (n_control > 0) sum(ctrl$success) else NA_real_, main$baseline * n, conf.level)
    row$any <- mean(main$any)
    row$any_control <- if (n_control > 0) mean(ctrl$any) else NA_real_
    rows[[j]] <- row
    if (records) {
      record_rows[[length(record_rows) + 1L]] <- link_records("train", j, target_rows$main, main)
      if (n_control > 0) record_rows[[length(record_rows) + 1L]] <- link_records("control", j, target_rows$control, ctrl)
    }
  }
  results <- do.call(rbind, rows)
  label_gaps <- enc$label_gaps[intersect(vars, names(enc$label_gaps))]
  sentence <- paste0("One data owner holds ", paste(aux_a, collapse = ", "), " of a person, another ",
                     paste(aux_b, collapse = ", "), "; the attacker links the two when the ", format_count(k),
                     " synthetic record", if (k == 1) "" else "s", " nearest on each side (",
                     if (k == 1) "one" else "the last places", " drawn at random among ties) share a record.")
  new_attack("linkability", "synthrisk_linkability", results, conf.level, NULL, list(
    what_method = "anonymeter's attack, exact",
    sentence = sentence,
    rate_words = list(main = "share of the original (training) records whose two halves are linked",
                      baseline = paste0("two random lists of ", format_count(k), " synthetic record", if (k == 1) "" else "s", " meeting")),
    aux_a = aux_a, aux_b = aux_b, n_neighbors = k, n_attacks = request$n_attacks, seed = request$seed,
    notes = c(paste0("With every tie listed, the lists of ", format_fixed(100 * mean(results$any), 1),
                     "% of the original records meet (an upper bound of the main rate)."),
              label_gap_lines(label_gaps, m)),
    adjusted = enc$adjusted,
    n = request$n,
    records = if (records) do.call(rbind, record_rows)
  ))
}

link_records <- function(set, j, rows, found) {
  data.frame(set = set, synthesis = j, row = as.integer(rows) + 1L, success = found$success, any = found$any,
             a = found$a, alpha = found$alpha, b = found$b, beta = found$beta)
}
