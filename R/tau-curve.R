#' Attribute disclosure as a function of the attribution threshold tau
#'
#' For each target and synthesis, the share of original records an intruder attributes
#' correctly when acting only on key combinations (q) whose synthetic share of the
#' record's target level is at least `tau`, weighted by that share:
#' \deqn{D(\tau) = 100 \cdot \sum_{t,q} p_s[t,q] \, d[t,q] \, [p_s[t,q] \ge \tau] / N_d}{D(tau) = 100 * sum ps[t,q] d[t,q] [ps[t,q] >= tau] / Nd}
#' (`synthetic`), and the same with the original shares `pd` in place of `ps`
#' (`original`: the original data predicting itself).
#'
#' `ps` and `pd` are those of the tables before exclusions, as for `DiSCO` and `Dorig`;
#' then the exclusions of [disclosure()] (`not.targetslev`, `usetargetsNA`, `usekeysNA`,
#' `exclude.keys`/`exclude.keylevs`/`exclude.targetlevs`, and cells of more than
#' `denom_lim` original records when `exclude_ov_denom_lim = TRUE`) remove cells as they
#' do from the DiSCO table. So at `tau = 1` the curves are `DiSCO` and `Dorig`, always;
#' at `tau = 0` they are `DCAPd` and `CAPd` when no exclusion applies (those two use the
#' shares after exclusions). Both curves are non-increasing in `tau`.
#'
#' Every value of `tau` is computed in the same pass over the data as the other
#' measures, so a fine grid costs little more than [multi.disclosure()].
#'
#' @param object A `synds` object, a data frame or a list of data frames (the
#'   syntheses), as for [multi.disclosure()]; for `tau_curve()` also database tables
#'   and counted cells ([cell_counts()]), which [size_curve()] refuses (it subsamples
#'   records).
#' @param data The original data (a data frame; for `tau_curve()` also a database
#'   table or counted cells).
#' @param keys The quasi-identifiers (names or column numbers).
#' @param targets The targets (names or column numbers); default all variables of the
#'   synthetic data that are not keys.
#' @param tau Thresholds, numbers from 0 to 1; the output keeps their order (repeats
#'   too).
#' @param ... Other arguments of [multi.disclosure()]: `cont.na` (for data frames),
#'   `denom_lim`, `exclude_ov_denom_lim`, `not.targetslev`, `usetargetsNA`, `usekeysNA`,
#'   `exclude.keys`, `exclude.keylevs`, `exclude.targetlevs`, `ngroups_targets`,
#'   `ngroups_keys`, `compare.synorig`, `n_threads`; `print.flag = TRUE` prints how
#'   numeric variables were grouped (default `FALSE`).
#' @return A data frame of class `tau_curve` with one row per target, synthesis and
#'   `tau`: `target`, `synthesis`, `tau`, `synthetic` and `original` (in %). Its
#'   attribute `measures` holds `Dorig`, `DiSCO`, `CAPd` and `DCAPd` per target and
#'   synthesis (as [multi.disclosure()] reports them). `print()` shows a compact table
#'   (means over syntheses); [autoplot()][autoplot.tau_curve] draws the curves.
#' @seealso [size_curve()], [multi.disclosure()]
#' @export
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' tc <- tau_curve(sd2011_synds5, sd2011, keys = keys, targets = c("depress", "workab", "marital"))
#' tc
#' head(as.data.frame(tc))
#' autoplot(tc)
tau_curve <- function(object, data, keys, targets = NULL, tau = seq(0, 1, by = 0.05), ...) {
  env <- rlang::current_env()
  tau <- check_tau(tau, env)
  if (missing(keys)) keys <- NULL
  plan_of <- function(syn) {
    list(original = 0L, syntheses = lapply(seq_along(syn), function(j) list(dataset = as.integer(j), rows = NULL)),
         tau = tau)
  }
  res <- run_curve(object, data, keys, targets, list(...), plan_of, env)
  build_tau_curve(res, tau)
}

build_tau_curve <- function(res, tau) {
  m <- res$m
  n_tau <- length(tau)
  rows <- lapply(res$targets, function(tv) {
    r <- res$raw[[tv]]
    data.frame(target = tv, synthesis = rep(seq_len(m), each = n_tau), tau = rep(tau, m),
               synthetic = r$tau_syn, original = r$tau_orig, stringsAsFactors = FALSE)
  })
  measures <- lapply(res$targets, function(tv) {
    s <- stats_matrix(res$raw[[tv]])
    cbind(data.frame(target = tv, synthesis = seq_len(m), stringsAsFactors = FALSE),
          as.data.frame(s[, tau_curve_measures, drop = FALSE]))
  })
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  measures <- do.call(rbind, measures)
  rownames(measures) <- NULL
  structure(out, class = c("tau_curve", "data.frame"), measures = measures, keys = res$keys, m = m,
            n_orig = res$n_orig, grouping = res$grouping)
}
