#' Replicated uniques
#'
#' Which synthetic records are unique on `keys` and also occur in the original data
#' (unique there or not), as synthpop's `replicated.uniques()` returns them, with the
#' same components and numbers. `remove_replicated_uniques()` drops the replicated
#' uniques from the synthetic data, as synthpop's `sdc(rm.replicated.uniques = TRUE)`
#' does.
#'
#' Key values match by label, a missing value matching a missing value (definitions vignette, section 2).
#' The table counts:
#' * `Original`: original records unique on the keys;
#' * `Synthetic`: synthetic records unique in their synthesis;
#' * `Synthetic uniques in original`: those whose keys occur in the original data
#'   (`synU.rm`);
#' * `Replicated uniques`: those unique in the original data too (`repU.rm`);
#'
#' each as a number and a percentage of `from total`: the original records for
#' `Original`, the synthesis's records for the other three (as synthpop 1.9-3, whose
#' synthesis may have another size, `syn(k = )`), rounded to 2 decimals as synthpop
#' rounds it (the exact share is `Number / from total`).
#'
#' @param object A `synds` object, a data frame or a list of data frames.
#' @param data The original data, a data frame.
#' @param keys Quasi-identifiers: names or column numbers of `data` (default all).
#' @param n_threads Threads for the Rust core; default [synthrisk_threads()].
#' @return `replicated.uniques()`: a list of class `synthrisk_repuniq` (and `repuniq.synds`,
#'   synthpop's class, second) with `m`, `n`
#'   (original rows), `k` (synthetic rows), `keys`, `res_tab` (a 4 x 3 matrix, or a
#'   list of them with `m > 1`), `synU.rm` and `repU.rm` (logical: a vector over the
#'   synthetic records, or a `k` x `m` matrix with `m > 1`).
#'   `remove_replicated_uniques()`: `object` with those records dropped from each
#'   synthesis, everything else unchanged.
#' @export
#' @examples
#' ru <- replicated.uniques(sd2011_synds, sd2011, keys = c("sex", "age", "region", "placesize"))
#' ru
#' sum(ru$repU.rm)
#' cleaned <- remove_replicated_uniques(sd2011_synds, sd2011,
#'                                      keys = c("sex", "age", "region", "placesize"))
#' nrow(cleaned$syn)
#' replicated.uniques(adult_synds, adult, keys = c("age", "sex", "occupation", "race"))
replicated.uniques <- function(object, data, keys = names(data), n_threads = NULL) {
  env <- rlang::current_env()
  inputs <- prepare_inputs(object, data, n_threads = n_threads, fn = "replicated.uniques", call = env)
  replicated_uniques_impl(inputs, keys, env)
}

#' @rdname replicated.uniques
#' @export
remove_replicated_uniques <- function(object, data, keys = names(data), n_threads = NULL) {
  env <- rlang::current_env()
  inputs <- prepare_inputs(object, data, n_threads = n_threads, fn = "remove_replicated_uniques", call = env)
  syn <- inputs$syn
  ru <- replicated_uniques_impl(inputs, keys, env)
  flags <- if (is.matrix(ru$repU.rm)) lapply(seq_len(ncol(ru$repU.rm)), function(j) ru$repU.rm[, j]) else
    if (is.list(ru$repU.rm)) ru$repU.rm else list(ru$repU.rm)
  kept <- Map(function(s, drop) s[!drop, , drop = FALSE], syn, flags)
  if (inherits(object, "synds")) {
    object$syn <- if (is.data.frame(object$syn)) kept[[1]] else kept
    return(object)
  }
  if (is.data.frame(object)) kept[[1]] else kept
}

replicated_uniques_impl <- function(inputs, keys, call) {
  syn <- inputs$syn
  data <- inputs$data
  request <- keys_request(inputs, keys, call)
  keys <- request$keys
  rk <- run_request(request)$record_keys
  n <- nrow(data)
  d_count <- rk$counts[[1]]
  per_synthesis <- lapply(seq_along(syn), function(j) {
    q <- rk$q[[j + 1]]
    s_count <- rk$counts[[j + 1]]
    syn_unique <- s_count[q] == 1L
    in_orig <- syn_unique & d_count[q] >= 1L
    replicated <- syn_unique & d_count[q] == 1L
    number <- c(sum(d_count == 1L), sum(s_count == 1L), sum(in_orig), sum(replicated))
    # The original's uniques are out of its n records, the synthesis's out of its own
    # records; synthpop 1.9-3 rounds the percentages to 2 decimals, as number / total * 100.
    total <- as.double(c(n, rep(length(q), 3)))
    tab <- cbind(Number = as.double(number), "from total" = total, "%" = round(number / total * 100, 2))
    rownames(tab) <- c("Original", "Synthetic", "Synthetic uniques in original", "Replicated uniques")
    list(tab = tab, synU = in_orig, repU = replicated)
  })
  m <- length(syn)
  k <- vapply(syn, nrow, integer(1))
  pick <- function(what) lapply(per_synthesis, `[[`, what)
  flags <- function(what) {
    x <- pick(what)
    if (m == 1) x[[1]] else if (length(unique(k)) == 1) do.call(cbind, x) else x
  }
  structure(list(m = as.double(m), n = n, k = if (length(unique(k)) == 1) k[[1]] else k, keys = keys,
                 res_tab = if (m == 1) per_synthesis[[1]]$tab else pick("tab"),
                 repU.rm = flags("repU"), synU.rm = flags("synU")),
            class = c("synthrisk_repuniq", "repuniq.synds"))
}

#' @rdname replicated.uniques
#' @param x A `repuniq.synds` object.
#' @param ... Unused.
#' @export
print.synthrisk_repuniq <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}

#' @rdname replicated.uniques
#' @export
format.synthrisk_repuniq <- function(x, ...) {
  tabs <- if (is.list(x$res_tab)) x$res_tab else list(x$res_tab)
  cli::cli_format_method({
    cli::cli_h1("Uniques and replicated uniques")
    cli::cli_text(paste0("Keys: {.val {x$keys}}; {format_count(x$n)}{cli::qty(x$n)} original record{?s}; {cli::qty(length(tabs))}{length(tabs)} synthes{?is/es}; ",
                         "% of the original records (Original) or of the synthesis's records (the others)."))
    for (j in seq_along(tabs)) {
      if (length(tabs) > 1) cli::cli_h2("Synthesis {j}")
      tab <- tabs[[j]]
      cli_table(tab)
    }
  })
}
