#' Inference risk: what the synthetic data let an attacker guess about a person
#'
#' anonymeter's inference attack (Giomi et al., 2023, Proceedings on Privacy Enhancing Technologies), computed over every record
#' with ties resolved by probability (definitions vignette, section 13), so the numbers
#' are exact and the same on every run. The attacker knows the auxiliary columns `aux`
#' of a person and guesses their `secret` as that of the synthetic record nearest on
#' `aux` (Gower distance of section 11), chosen at random among ties. A target's
#' success is the share of its nearest synthetic records whose secret matches its own;
#' the main attack targets the records used for the synthesis (`data`), the control
#' attack records of the same population that were not (`control`), and the baseline
#' guesses the secret of a random synthetic record. The risk is anonymeter's
#' \eqn{(p_{main} - p_{control}) / (1 - p_{control})} from Wilson intervals: what the
#' synthesis reveals of the people in it beyond what it reveals of anyone.
#'
#' With categorical `aux` and an exact match, a target's nearest records are the
#' synthetic records of its key: inference then extends [disclosure()]'s DCAP to
#' records whose key combination the synthetic data lack.
#'
#' Labels are prepared and encoded as [disclosure()] prepares them: `NA`, an `NA` level
#' and `"Missing"` are one label, labels are compared in Unicode normal form C, a
#' variable that is not numeric on every side is compared by its labels. A numeric
#' secret matches exactly, or with `tolerance` when \eqn{|g - y| \le} `tolerance`
#' \eqn{\cdot |y|} (relative to the target's value \eqn{y}); `NA`, `NaN`, `Inf` and the
#' `cont.na` codes match only themselves.
#'
#' @param object A `synds` object, a data frame or a list of data frames (one per
#'   synthesis).
#' @param data The original data used for the synthesis, a data frame.
#' @param secret The variable(s) the attacker guesses (names or column numbers of
#'   `data`); several give one row each.
#' @param aux The variables the attacker knows; default every other variable of `data`
#'   that every synthesis has. Must not include a secret.
#' @param control `NULL`, or original records of the same population not used for the
#'   synthesis (e.g. from [holdout_split()]), for the control attack.
#' @param tolerance `NULL` (numeric secrets match exactly) or a number \eqn{\ge 0}: a
#'   guess within `tolerance` times the secret's absolute value matches.
#' @param ... Must be empty.
#' @param n_attacks `NULL` (every record is a target) or a number of targets to draw,
#'   as anonymeter samples them: `sample.int(nrow(data), n_attacks)` rows of `data`,
#'   then `sample.int(nrow(control), min(n_attacks, nrow(control)))` rows of `control`.
#' @param seed `NULL` or a seed for drawing the targets (the session's random numbers
#'   are restored afterwards).
#' @param conf.level Level of the intervals.
#' @param cont.na For data frames: special codes of numeric variables, a named list
#'   such as `list(income = c(-8, -9))`; a `synds` object brings its own.
#' @param records `TRUE` to add the record-level results (`records`): which original
#'   and control records had their secret guessed, with what probability. They name
#'   real people's records: keep them with the confidential data.
#' @param n_threads Threads for the Rust core; default [synthrisk_threads()].
#' @return An object of class `c("synthrisk_inference", "synthrisk_attack")`, a list.
#'   Risks, their intervals and rates are proportions on 0-1 (anonymeter's scale), not
#'   percentages as in [disclosure()]. It has
#'   `results` (one row per secret and synthesis: `n` targets, `successes`, `rate`,
#'   the same for control and baseline, `risk`, `conf.low`, `conf.high`), `summary`
#'   (one row per secret: the risk, its interval and method, the mean rates), `aux`,
#'   `secret`, `tolerance`, `n` (records of data, control and each synthesis) and, with
#'   `records = TRUE`, `records` (per target record: `set` "train" or "control",
#'   `synthesis`, `secret`, `row`, `success` (the chance its secret is guessed),
#'   `nearest` (its nearest synthetic records), `distance` (theirs)).
#' @seealso [linkability_risk()], [singling_out_risk()]; [disclosure()] for DCAP.
#' @export
#' @examples
#' vars <- c("sex", "age", "region", "placesize", "depress")
#' # sd2011_train_synds5 was made from parts$train only: parts$control is held out.
#' parts <- holdout_split(sd2011[, vars], prop = 0.2, seed = 1)
#' r <- inference_risk(sd2011_train_synds5, parts$train, secret = "depress",
#'                     aux = c("sex", "age", "region", "placesize"), control = parts$control)
#' r
#' autoplot(r)
inference_risk <- function(object, data, secret, aux = NULL, control = NULL, tolerance = NULL, ...,
                           n_attacks = NULL, seed = NULL, conf.level = 0.95, cont.na = NULL, records = FALSE,
                           n_threads = NULL) {
  env <- rlang::current_env()
  rlang::check_dots_empty(call = env)
  request <- attack_request(object, data, control, cont.na, n_threads, "inference_risk", env, conf.level, seed, records,
                            n_attacks)
  if (missing(secret)) cli::cli_abort("{.arg secret} must name the variable(s) the attacker guesses.", call = env)
  request <- search_columns(request, secret, "secret")
  secret <- request$columns$secret
  if (!is.null(aux)) {
    request <- search_columns(request, aux, "aux")
    aux <- request$columns$aux
    among <- intersect(secret, aux)
    if (length(among) > 0) {
      cli::cli_abort(c("{.arg secret} {.val {among}} {?is/are} among {.arg aux}.",
                       i = "The attacker knows {.arg aux} and guesses {.arg secret}: a column cannot be both."),
                     call = env)
    }
  }
  if (!is.null(tolerance) && (!is.numeric(tolerance) || length(tolerance) != 1 || is.na(tolerance) ||
                                !is.finite(tolerance) || tolerance < 0)) {
    cli::cli_abort("{.arg tolerance} must be {.code NULL} or one number >= 0, not {.code {describe_value(tolerance)}}.",
                   call = env)
  }
  check_sizes_for_attack(data, request$syn, control, env)
  common <- if (is.null(aux)) search_common_columns(request)
  aux_of <- lapply(secret, function(s) {
    a <- if (is.null(aux)) setdiff(common, s) else aux
    if (length(a) == 0) {
      cli::cli_abort("The attacker of {.val {s}} knows no column: {.arg data} has no other column that every synthesis has.",
                     call = env)
    }
    in_data_order(a, data)
  })
  request <- search_encode(request, in_data_order(unique(c(secret, unlist(aux_of))), data))
  request <- attack_searches(request)
  vars <- request$vars
  enc <- request$enc
  m <- request$m
  n_control <- request$n$control
  conf.level <- request$conf.level
  target_rows <- request$target_rows
  # Secrets with the same auxiliary columns share one search (all of them when `aux` is
  # given), in one crossing.
  aux_key <- vapply(aux_of, paste, character(1), collapse = "\r")
  groups <- split(seq_along(secret), factor(aux_key, unique(aux_key)))
  wire <- lapply(groups, function(k) {
    list(aux = search_column_set(request, aux_of[[k[1]]]), secrets = search_column_set(request, secret[k]))
  })
  raw <- rust_result(rust_inference(enc$ptr, unname(wire), if (!is.null(tolerance)) as.double(tolerance),
                                    request$searches, request$n_threads), call = env)
  found_of <- vector("list", length(secret))
  secret_numeric <- stats::setNames(logical(length(secret)), secret)
  for (g in seq_along(groups)) {
    for (i in seq_along(groups[[g]])) {
      k <- groups[[g]][i]
      found_of[[k]] <- lapply(raw[[g]]$searches, function(search) search[[i]])
      secret_numeric[[k]] <- raw[[g]]$secret_numeric[i]
    }
  }
  rows <- list()
  record_rows <- list()
  for (k in seq_along(secret)) {
    s <- secret[[k]]
    found <- attack_found(found_of[[k]], n_control > 0)
    for (j in seq_len(m)) {
      main <- found$main[[j]]
      ctrl <- found$control[[j]]
      n <- length(main$success)
      row <- attack_row(j, n, sum(main$success), if (n_control > 0) length(ctrl$success) else 0L,
                        if (n_control > 0) sum(ctrl$success) else NA_real_, sum(main$baseline), conf.level)
      rows[[length(rows) + 1L]] <- cbind(secret = s, row)
      if (records) {
        record_rows[[length(record_rows) + 1L]] <- inference_records("train", j, s, target_rows$main, main)
        if (n_control > 0) record_rows[[length(record_rows) + 1L]] <- inference_records("control", j, s, target_rows$control, ctrl)
      }
    }
  }
  results <- do.call(rbind, rows)
  notes <- character(0)
  if (!is.null(tolerance) && any(!secret_numeric)) {
    notes <- c(notes, paste0("`tolerance` applies to numeric secrets; ", paste(secret[!secret_numeric], collapse = ", "),
                             " ", if (sum(!secret_numeric) == 1) "is" else "are", " compared by label."))
  }
  label_gaps <- enc$label_gaps[intersect(vars, names(enc$label_gaps))]
  notes <- c(notes, label_gap_lines(label_gaps, m))
  aux_words <- if (is.null(aux)) {
    if (length(secret) == 1) paste0("every other column (", length(aux_of[[1]]), ": ", paste(aux_of[[1]], collapse = ", "), ")")
    else "every other column"
  } else paste(aux, collapse = ", ")
  sentence <- paste0("The attacker knows ", aux_words, " of a person and guesses their ",
                     paste(secret, collapse = ", "),
                     " as that of a synthetic record nearest on those columns (one drawn at random among ties)",
                     if (!is.null(tolerance) && any(secret_numeric)) paste0("; a numeric guess within ", tolerance, " times the value counts") else "",
                     ".")
  new_attack("inference", "synthrisk_inference", results, conf.level, "secret", list(
    what_method = "anonymeter's attack, exact",
    sentence = sentence,
    rate_words = list(main = "share of the original (training) records whose secret is guessed",
                      baseline = "guessing the secret of a random synthetic record"),
    secret = secret, aux = stats::setNames(aux_of, secret), tolerance = tolerance, n_attacks = request$n_attacks,
    seed = request$seed, notes = notes, adjusted = enc$adjusted,
    n = request$n,
    records = if (records) do.call(rbind, record_rows)
  ))
}

inference_records <- function(set, j, secret, rows, found) {
  data.frame(set = set, synthesis = j, secret = secret, row = as.integer(rows) + 1L, success = found$success,
             nearest = found$set_size, distance = found$distance)
}
