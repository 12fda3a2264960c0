#' Which keys matter: the measures for every set of keys an intruder may hold
#'
#' Every measure depends on the keys, and which variables an intruder knows is the
#' custodian's judgement. `key_sweep()` computes every measure of [multi.disclosure()]
#' for every subset of a candidate set of keys (definitions vignette, "Which keys matter"), so
#' that judgement can be seen: the worst subset of each size and, when the whole
#' lattice of subsets is computed, each key's share of the risk (its Shapley value).
#'
#' Each subset's measures equal those of `multi.disclosure(object, data, keys = <the
#' subset>, targets = targets, ...)` with the same arguments (means over the syntheses
#' when there are several). The targets are fixed for all subsets (by default every
#' variable of `data` that is not a candidate key), so a key left out of a subset never
#' becomes a target. The data are prepared and encoded once: numeric keys and targets
#' are grouped once, with the same breaks in every subset, and all subsets are counted
#' by the core in one call. An exclusion triplet (`exclude.keys`, `exclude.keylevs`,
#' `exclude.targetlevs`) applies to the subsets that contain its key and to no other.
#'
#' The empty set (size 0, when `sizes` includes 0) is the intruder who knows no key:
#' one key combination shared by every record. Each key's share is reported only when
#' `sizes` is `0:p` (p candidate keys), since the Shapley value needs the measure of
#' every subset: `phi_v = sum over S not holding v of |S|! (p - |S| - 1)! / p! *
#' (M(S + v) - M(S))`; the shares of the keys add up to `M(all keys) - M(no key)`.
#'
#' Database tables (dbplyr) count in the database, as for [multi.disclosure()]: the
#' queries of one `multi.disclosure()` with every candidate key (and, for the empty
#' set, a constant one) whatever the number of subsets, each subset's counts then added
#' up in R from those cells. What leaves the database is therefore the cells of all
#' candidate keys together (key tuple, target value, count), as for a
#' `multi.disclosure()` with those keys; `database` in the result lists the queries.
#'
#' @param object The synthetic data, as for [multi.disclosure()]: a `synds` object, a
#'   data frame or a list of data frames.
#' @param data The original data (a data frame, or a database table).
#' @param keys The candidate keys K: names or column numbers of `data`, taken in the
#'   column order of `data`.
#' @param targets Target variables (names or column numbers); default every variable of
#'   the synthetic data that is not a candidate key, the same for every subset.
#' @param sizes Sizes of the subsets to compute: whole numbers from 0 to the number of
#'   candidate keys p; default `1:p`. `0:p` computes the whole lattice and each key's
#'   share. At most 65,536 subsets.
#' @param cont.na For data frames and lists: special numeric codes per variable, as for
#'   [multi.disclosure()] (a `synds` object brings its own).
#' @param denom_lim,exclude_ov_denom_lim,not.targetslev,usetargetsNA,usekeysNA,exclude.keys,exclude.keylevs,exclude.targetlevs,ngroups_targets,ngroups_keys,compare.synorig,n_threads
#'   As for [multi.disclosure()]; `usekeysNA` and `ngroups_keys` are per candidate key
#'   (or one for all) and hold for that key in every subset.
#' @param conf.level With m >= 2 syntheses, e.g. 0.95: each measure's interval across
#'   syntheses, as [multi.disclosure()] gives it. `NULL`: none.
#' @param ... Nothing else: the checks' thresholds and the other arguments of
#'   [multi.disclosure()] that change no measure are errors naming them.
#' @return An object of class `synthrisk_key_sweep`: `keys` (K), `targets`, `sizes`,
#'   `subsets` (each a vector of positions in `keys`), `measures`, `estimate` (an
#'   array subset x target x measure of means over syntheses), `conf.low`,
#'   `conf.high`, `conf.caveat` (with `conf.level`), `worst` (the worst subset of each
#'   size, see [tidy.synthrisk_key_sweep()]), `shares` (each key's Shapley value, or
#'   `NULL`), `m`, `Norig`, `Nsyn`, `grouping`, `input`, `database` (for database
#'   tables, one row per query, as [multi.disclosure()]'s), `notes` and `call`. `print()` shows the
#'   worst subset of each size for `repU` and for each target's `DiSCO`, and each key's
#'   share; [tidy()][tidy.synthrisk_key_sweep()] gives every number.
#' @seealso [multi.disclosure()], [tidy.synthrisk_key_sweep()],
#'   [autoplot.synthrisk_key_sweep()]
#' @export
#' @examples
#' keys <- c("sex", "age", "region", "placesize")
#' ks <- key_sweep(sd2011_synds, sd2011, keys = keys, targets = c("depress", "workab"),
#'                 sizes = 0:4)
#' ks
#' head(tidy(ks))
#' subset(tidy(ks, type = "shares"), measure %in% c("repU", "DiSCO"))
#' autoplot(ks)
#' autoplot(ks, type = "shares")
key_sweep <- function(object, data, keys, targets = NULL, sizes = NULL, ...) {
  UseMethod("key_sweep")
}

# The arguments of a key_sweep() method after `object` and `data`: `cont.na` for data
# frames and lists (a synds brings its own), then multi.disclosure()'s arguments that
# change a measure, with its defaults.
key_sweep_formals <- function(cont_na) {
  c(alist(object = , data = , keys = , targets = NULL, sizes = NULL), if (cont_na) alist(cont.na = NULL),
    alist(denom_lim = 5, exclude_ov_denom_lim = FALSE, not.targetslev = NULL, usetargetsNA = TRUE, usekeysNA = TRUE,
          exclude.keys = NULL, exclude.keylevs = NULL, exclude.targetlevs = NULL, ngroups_targets = NULL,
          ngroups_keys = NULL, compare.synorig = TRUE, conf.level = NULL, n_threads = NULL, ... = ))
}

# A key_sweep() method, its body the one run of every method.
key_sweep_method <- function(cont_na) {
  body <- substitute(run_key_sweep(environment(), CONT_NA), list(CONT_NA = cont_na))
  rlang::new_function(key_sweep_formals(cont_na), body, env = topenv())
}

#' @rdname key_sweep
#' @export
key_sweep.synds <- key_sweep_method(FALSE)

#' @rdname key_sweep
#' @export
key_sweep.data.frame <- key_sweep_method(TRUE)

#' @rdname key_sweep
#' @export
key_sweep.list <- key_sweep_method(TRUE)

#' @rdname key_sweep
#' @export
key_sweep.tbl_lazy <- key_sweep_method(TRUE)

#' @rdname key_sweep
#' @export
key_sweep.default <- function(object, data, keys, targets = NULL, sizes = NULL, ...) {
  synthesis_list(object, call = rlang::current_env())
}

# multi.disclosure()'s arguments that change no measure, and why the sweep has none.
key_sweep_unused <- c(
  thresh_1way = "the sweep reports measures, not checks", thresh_2way = "the sweep reports measures, not checks",
  print.flag = "the printout says what was done", plot = "use autoplot()", digits = "print() takes digits",
  ident.meas = "every measure is computed", attrib.meas = "every measure is computed",
  control = "the holdout baseline is not swept", resynthesize = "only intervals across the given syntheses",
  synthesizer = "only intervals across the given syntheses", seed = "only intervals across the given syntheses",
  release = "syntheses released together are not swept"
)

# The run of every key_sweep() method: its arguments read from the method's frame
# `env`; errors name the method's call.
run_key_sweep <- function(env, cont_na) {
  call <- sys.call(-1)
  formals <- key_sweep_formals(cont_na)
  names <- setdiff(names(formals), c("object", "data", "..."))
  given <- names[!vapply(names, function(n) eval(call("missing", as.name(n)), env), logical(1))]
  a <- mget(setdiff(names, "keys"), envir = env)
  a$keys <- if ("keys" %in% given) get("keys", envir = env) else NULL
  object <- get("object", envir = env)
  data <- get("data", envir = env)
  check_key_sweep_extra(eval(quote(list(...)), env), inherits(object, "synds"), env)
  cont.na <- if (cont_na) a$cont.na
  multi_args <- a[setdiff(names(a), c("sizes", "cont.na"))]
  request <- do.call(disclosure_request, c(list("multi", object, cont.na, data), multi_args,
                                           list(print.flag = FALSE, plot = FALSE, .env = env)))
  sizes <- check_key_sweep_sizes(a$sizes, length(request$keys), env)
  counted <- count_key_subsets(request, sizes)
  build_key_sweep(request, counted, sizes, user_call(call, "key_sweep"))
}

check_key_sweep_extra <- function(dots, synds, call) {
  if (length(dots) == 0) return(invisible())
  nm <- names(dots) %||% rep("", length(dots))
  if (synds && "cont.na" %in% nm) abort_cont_na_of_synds("key_sweep", call)
  unused <- intersect(nm, names(key_sweep_unused))
  if (length(unused) > 0) {
    cli::cli_abort(c("{.arg {unused[1]}} is not used by {.fn key_sweep}: {key_sweep_unused[[unused[1]]]}.",
                     i = "It takes the arguments of {.fn multi.disclosure} that change a measure."), call = call)
  }
  shown <- ifelse(nzchar(nm), nm, paste0("..", seq_along(dots)))
  cli::cli_abort(c("Unknown argument{?s}: {.arg {shown}}.",
                   did_you_mean(nm[nzchar(nm)], names(key_sweep_formals(TRUE)))), call = call)
}

# Largest number of subsets one sweep computes (definitions vignette, section 14).
key_sweep_max_subsets <- 65536

# `sizes`: distinct whole numbers from 0 to p (default 1:p), sorted; their subsets at
# most key_sweep_max_subsets.
check_key_sweep_sizes <- function(sizes, p, call) {
  if (is.null(sizes)) sizes <- seq_len(p)
  if (!is.numeric(sizes) || length(sizes) == 0 || anyNA(sizes) || !is.null(dim(sizes)) || any(!is.finite(sizes)) ||
        any(sizes != round(sizes)) || any(sizes < 0 | sizes > p)) {
    cli::cli_abort(c("{.arg sizes} must be whole numbers from 0 to {p}, the number of candidate {.arg keys}.",
                     x = "It is {.code {describe_value(sizes)}}."), call = call)
  }
  if (anyDuplicated(sizes)) {
    cli::cli_abort("{.arg sizes} repeats {.val {unique(sizes[duplicated(sizes)])}}.", call = call)
  }
  sizes <- sort(as.integer(sizes))
  n <- sum(choose(p, sizes))
  if (n > key_sweep_max_subsets) {
    cli::cli_abort(c(paste0("{.arg sizes} asks for ", format_count(n), " subsets of the ", p, " candidate keys; ",
                            "at most ", format_count(key_sweep_max_subsets), " are computed."),
                     i = "Ask for fewer sizes, e.g. {.code sizes = 0:3}, or fewer candidate keys."), call = call)
  }
  sizes
}

# Every subset of 1..p of the given sizes, each a vector of positions: by size, then
# in lexicographic order of positions (the order that breaks ties of the worst case).
key_subsets <- function(p, sizes) {
  unlist(lapply(sizes, function(k) if (k == 0) list(integer(0)) else utils::combn(p, k, simplify = FALSE)),
         recursive = FALSE)
}

# A subset's name: its keys in the column order of `data`, joined by "+" ("" for none).
subset_labels <- function(subsets, keys) {
  vapply(subsets, function(s) paste(keys[s], collapse = "+"), character(1))
}

# The measures of every subset of `request$keys` of the given sizes: one preparation
# and one encoding of the keys and targets, then every subset counted by the core in
# one call (rust_key_subsets(): each subset its own key index and passes, the subsets
# in parallel). The empty set is counted with one extra key, a constant: one key
# combination shared by every record (the core's counting needs a key). Returns
# count_targets()'s list with `raw$values[[1]]` (an array measure x synthesis x target x
# subset, every group of targets joined) and `subsets`.
count_key_subsets <- function(request, sizes) {
  keys <- request$keys
  subsets <- key_subsets(length(keys), sizes)
  counting <- request
  no_key <- NULL
  if (0L %in% sizes) {
    no_key <- constant_key_name(c(dataset_names(request$data), unlist(lapply(request$syn, dataset_names))))
    counting$data <- with_constant_key(request$data, no_key)
    counting$syn <- lapply(request$syn, with_constant_key, name = no_key)
    counting$keys <- c(keys, no_key)
    counting$usekeysNA <- c(request$usekeysNA, TRUE)
    counting$ngroups[[no_key]] <- 0
  }
  m <- length(request$syn)
  counted <- count_targets(counting, run_group = function(enc, group) {
    calls <- key_subset_calls(enc, request, group, subsets, no_key)
    res <- rust_result(rust_key_subsets(enc$ptr, lapply(calls, `[[`, "keys"), lapply(calls, `[[`, "use_keys_na"),
                                        lapply(calls, `[[`, "targets"), calls[[1]]$plan$weights, request$n_threads),
                       call = request$env)
    values <- res$values
    dim(values) <- c(length(res$measures), m, length(group), length(subsets))
    dimnames(values) <- list(res$measures, NULL, group, NULL)
    # count_targets() joins the groups' results with c(), which keeps a list whole.
    list(values = list(values))
  })
  # Targets counted in groups (one at a time from a database): their arrays joined on
  # the target dimension.
  parts <- counted$raw$values
  if (length(parts) > 1) {
    d <- dim(parts[[1]])
    values <- array(NA_real_, c(d[1:2], sum(vapply(parts, function(a) dim(a)[3], 0L)), d[4]),
                    list(dimnames(parts[[1]])[[1]], NULL, unlist(lapply(parts, function(a) dimnames(a)[[3]])), NULL))
    at <- 0L
    for (a in parts) {
      values[, , at + seq_len(dim(a)[3]), ] <- a
      at <- at + dim(a)[3]
    }
    counted$raw$values <- list(values)
  }
  counted$subsets <- subsets
  counted
}

# A column name held by no dataset, for the constant key of the empty set (a plain
# identifier, which every database takes unquoted too).
constant_key_name <- function(taken) {
  name <- "synthrisk_no_key"
  while (name %in% taken) name <- paste0(name, "_")
  name
}

# A copy of dataset `x` (its columns shared, not copied) with a constant column: a
# factor in R, the number 1 in a database table's query.
with_constant_key <- function(x, name) {
  if (is_db_table(x)) return(dplyr::mutate(x, !!!stats::setNames(list(1L), name)))
  x[[name]] <- structure(rep.int(1L, nrow(x)), levels = "every record", class = "factor")
  x
}

# The core's request of every subset: its keys (the constant key for the empty set),
# their usekeysNA flags, each target's request with the exclusions naming a key of the
# subset (re-indexed to its keys) and the plan. The targets' requests are made once, on
# all candidate keys, so an exclusion naming an unknown key or level is an error
# whatever the subsets.
key_subset_calls <- function(enc, request, group, subsets, no_key) {
  options <- request$target_options[match(group, request$targets)]
  full <- lapply(options, function(o) {
    t <- target_request(o, enc, request)
    # The sweep reports no checks: no 2-way pairs are collected (half the work of a
    # subset whose keys make many small cells).
    t$twoway_min_cell <- Inf
    t
  })
  key_vars <- match(request$keys, enc$vars) - 1L
  use_na <- as.logical(request$usekeysNA)
  plan <- plan_with_weights(request$plans$train, enc$weights)
  excluding <- vapply(full, function(t) length(t$kt_key) > 0, logical(1))
  lapply(subsets, function(s) {
    targets <- full
    for (i in which(excluding)) targets[[i]] <- subset_exclusions(full[[i]], s)
    if (length(s) == 0) {
      return(list(keys = match(no_key, enc$vars) - 1L, use_keys_na = TRUE, targets = targets, plan = plan))
    }
    list(keys = key_vars[s], use_keys_na = use_na[s], targets = targets, plan = plan)
  })
}

# A target's request on all candidate keys restricted to the subset `s` (positions):
# the exclusions naming a key of `s`, their key re-indexed to its place in `s`.
subset_exclusions <- function(target, s) {
  at <- match(target$kt_key + 1L, s)
  keep <- !is.na(at)
  target$kt_key <- as.integer(at[keep] - 1L)
  target$kt_key_level <- target$kt_key_level[keep]
  target$kt_target_level <- target$kt_target_level[keep]
  target
}

# The measures of the sweep: every measure of multi.disclosure()'s components, once
# each under the core's name (DCAPd, not its alias DCAP).
key_sweep_measures <- function() unique(c(ident_names, attrib_names, cap_core_names))

build_key_sweep <- function(request, counted, sizes, call) {
  keys <- request$keys
  targets <- request$targets
  subsets <- counted$subsets
  measures <- key_sweep_measures()
  m <- length(request$syn)
  level <- request$uncertainty$conf.level
  with_intervals <- !is.null(level) && m >= 2
  dims <- list(subset_labels(subsets, keys), targets, measures)
  new_array <- function(value) array(value, lengths(dims), dims)
  estimate <- new_array(NA_real_)
  low <- high <- if (with_intervals) new_array(NA_real_)
  caveat <- if (with_intervals) new_array(NA_character_)
  all_values <- counted$raw$values[[1]]
  values <- all_values[measures, , targets, , drop = FALSE]
  # Means over syntheses: subset x target x measure.
  estimate[] <- colMeans(aperm(values, c(2, 4, 3, 1)), dims = 1)
  if (with_intervals) {
    iv <- intervals_across_syntheses(values, level)
    low[] <- iv$conf.low
    high[] <- iv$conf.high
    caveat[] <- iv$caveat
  }
  first <- list(Nd = all_values["Nd", 1, 1, 1], Ns = all_values["Ns", , 1, 1])
  identity <- measures[measure_group[measures] == "identity"]
  # Identity measures depend on the target only through its exclusions (section 5);
  # without those they are one number per subset.
  same <- function(a) is.null(a) || all(vapply(targets[-1], function(t) identical(a[, t, identity], a[, targets[1], identity]),
                                                logical(1)))
  ident_by_target <- !(same(estimate) && same(low) && same(high) && same(caveat))
  x <- structure(list(
    keys = keys, targets = targets, sizes = sizes, subsets = subsets, measures = measures,
    estimate = estimate, conf.low = low, conf.high = high, conf.caveat = caveat, conf.level = if (with_intervals) level,
    ident_by_target = ident_by_target, m = m, Norig = as.integer(first[["Nd"]][1]),
    Nsyn = as.integer(first[["Ns"]][seq_len(m)]), grouping = counted$enc$grouping %||% list(),
    input = counted$input, database = counted$fetch,
    denom_lim = request$limits$denom_lim, exclude_ov_denom_lim = request$limits$exclude_ov_denom_lim, call = call
  ), class = "synthrisk_key_sweep")
  x$worst <- worst_subsets(x)
  full_lattice <- identical(sizes, 0:length(keys))
  x$shares <- if (full_lattice) key_shares(x)
  x$notes <- key_sweep_notes(x, full_lattice, !is.null(level) && m < 2)
  x
}

# interval_across() and of_original() (R/intervals.R) for every subset, target and
# measure at once: `values` an array measure x synthesis x target x subset; returns
# conf.low, conf.high and caveat as arrays subset x target x measure.
intervals_across_syntheses <- function(values, level) {
  d <- dim(values)
  m <- d[2]
  measures <- dimnames(values)[[1]]
  # One column per (measure, target, subset), the syntheses down each column.
  v <- aperm(values, c(2, 1, 3, 4))
  dim(v) <- c(m, length(v) %/% m)
  est <- colMeans(v)
  sd <- sqrt(colSums((v - rep(est, each = m))^2) / (m - 1))
  ranges <- vapply(measures, measure_range, numeric(2))
  lo <- rep(ranges[1, ], length.out = ncol(v))
  hi <- rep(ranges[2, ], length.out = ncol(v))
  half <- stats::qt((1 + level) / 2, m - 1) * sd / sqrt(m)
  defined <- is.finite(est) & is.finite(sd)
  # Distinct values per column, from the columns sorted.
  sorted <- matrix(v[order(col(v), v)], m)
  n_distinct <- 1L + colSums(sorted[-1, , drop = FALSE] != sorted[-m, , drop = FALSE])
  lattice <- colSums(v != round(v)) == 0 & n_distinct < min(m, 4)
  at_bound <- colSums(v <= rep(lo, each = m) | v >= rep(hi, each = m)) > 0
  caveat <- ifelse(sd == 0, "all equal", ifelse(at_bound, "at a bound", ifelse(lattice, "few values", NA_character_)))
  of_original <- measure_registry$data[match(measures, measure_registry$measure)] == "original"
  caveat[!defined | rep(of_original, length.out = ncol(v))] <- NA_character_
  low <- ifelse(defined, pmax(est - half, lo), NA_real_)
  high <- ifelse(defined, pmin(est + half, hi), NA_real_)
  names <- dimnames(values)
  as_array <- function(x) aperm(array(x, d[-2], names[-2]), c(3, 2, 1))
  list(conf.low = as_array(low), conf.high = as_array(high), caveat = as_array(caveat))
}

# The rows of a sweep's estimates: per measure, the targets it has (NA for identity
# measures when they do not depend on the target) and their column of `estimate`.
measure_panels <- function(x) {
  identity <- measure_group[x$measures] == "identity"
  rows <- lapply(seq_along(x$measures), function(j) {
    me <- x$measures[j]
    if (identity[j] && !x$ident_by_target) {
      data.frame(measure = me, target = NA_character_, column = x$targets[1], stringsAsFactors = FALSE)
    } else {
      data.frame(measure = me, target = x$targets, column = x$targets, stringsAsFactors = FALSE)
    }
  })
  do.call(rbind, rows)
}

# The worst subset of each size for each measure and target: the largest estimate
# over the subsets of that size, the first subset attaining it (subsets are in
# lexicographic order of positions; NaN values are passed over) and how many attain it.
worst_subsets <- function(x) {
  panels <- measure_panels(x)
  size_of <- lengths(x$subsets)
  labels <- dimnames(x$estimate)[[1]]
  by_size <- lapply(x$sizes, function(k) which(size_of == k))
  n <- nrow(panels) * length(x$sizes)
  estimate <- numeric(n)
  keys <- character(n)
  tied <- integer(n)
  chosen <- rep(NA_integer_, n)
  at <- 0L
  for (r in seq_len(nrow(panels))) {
    v <- x$estimate[, panels$column[r], panels$measure[r]]
    for (rows in by_size) {
      at <- at + 1L
      j <- which.max(v[rows])
      if (length(j) == 0) {
        estimate[at] <- NA_real_
        keys[at] <- NA_character_
      } else {
        chosen[at] <- rows[j]
        estimate[at] <- v[rows[j]]
        keys[at] <- labels[rows[j]]
        tied[at] <- sum(v[rows] == estimate[at], na.rm = TRUE)
      }
    }
  }
  n_sizes <- length(x$sizes)
  out <- data.frame(n_keys = rep(x$sizes, nrow(panels)), target = rep(panels$target, each = n_sizes),
                    measure = rep(panels$measure, each = n_sizes), subsets = rep(lengths(by_size), nrow(panels)),
                    estimate = estimate, keys = keys, tied = tied, stringsAsFactors = FALSE)
  if (!is.null(x$conf.low)) {
    # The interval of the worst subset's measure.
    at <- cbind(chosen, rep(match(panels$column, x$targets), each = n_sizes),
                rep(match(panels$measure, x$measures), each = n_sizes))
    out$conf.low <- x$conf.low[at]
    out$conf.high <- x$conf.high[at]
  }
  out
}

# Each key's Shapley value for every measure and target (section 14), from the
# estimates of the whole lattice: phi_v = sum over S without v of
# |S|! (p - |S| - 1)! / p! (M(S + v) - M(S)); `share` is phi_v over M(K) - M(empty set).
key_shares <- function(x) {
  p <- length(x$keys)
  masks <- vapply(x$subsets, function(s) sum(2^(s - 1)), numeric(1))
  row_of <- match(0:(2^p - 1), masks)
  sizes <- lengths(x$subsets)
  # The full set is never a subset without a key: its weight is not used.
  weight <- ifelse(sizes < p, factorial(sizes) * factorial(pmax(p - sizes - 1, 0)) / factorial(p), 0)
  panels <- measure_panels(x)
  full <- row_of[2^p]
  empty <- row_of[1]
  rows <- lapply(seq_len(nrow(panels)), function(r) {
    v <- x$estimate[, panels$column[r], panels$measure[r]]
    phi <- vapply(seq_len(p), function(k) {
      bit <- 2^(k - 1)
      without <- which(bitwAnd(as.integer(masks), as.integer(bit)) == 0)
      sum(weight[without] * (v[row_of[masks[without] + bit + 1]] - v[without]))
    }, numeric(1))
    data.frame(target = panels$target[r], measure = panels$measure[r], key = x$keys, phi = phi,
               share = phi / (v[full] - v[empty]), stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  out
}

key_sweep_notes <- function(x, full_lattice, level_without_spread) {
  p <- length(x$keys)
  c(
    shares = if (!full_lattice) {
      paste0("Each key's share (Shapley value) is not reported: it needs every subset of the ", p,
             " candidate keys, sizes = 0:", p, ".")
    },
    ident = if (x$ident_by_target) {
      paste("The identity measures differ between targets: each target's exclusions (usetargetsNA, not.targetslev,",
            "denom_lim) remove different records, so they are given per target.")
    },
    intervals = if (level_without_spread) "No interval across syntheses: conf.level needs m >= 2 syntheses.",
    grouping = if (length(x$grouping) > 0) paste(grouping_lines(x$grouping), collapse = " ")
  )
}

#' Print a key sweep
#'
#' The worst subset of candidate keys of each size for the identity measure `repU`
#' and for each target's `DiSCO` (means over syntheses), the subset's keys named; each
#' key's share (Shapley value) when the whole lattice was computed; and the notes.
#'
#' @param x A `synthrisk_key_sweep` from [key_sweep()].
#' @param digits Digits of the measures.
#' @param targets How many targets' `DiSCO` to show: those with the largest `DiSCO`
#'   over all subsets first (default 5; `Inf` for all).
#' @param ... Unused.
#' @return `print()`: `x`, invisibly; `format()`: the lines.
#' @export
print.synthrisk_key_sweep <- function(x, digits = 2, targets = 5, ...) {
  cat(format.synthrisk_key_sweep(x, digits = digits, targets = targets, ...), sep = "\n")
  invisible(x)
}

#' @rdname print.synthrisk_key_sweep
#' @export
format.synthrisk_key_sweep <- function(x, digits = 2, targets = 5, ...) {
  rlang::check_dots_empty()
  p <- length(x$keys)
  n_sub <- length(x$subsets)
  head <- paste0("Key sweep: ", n_sub, " subset", if (n_sub == 1) "" else "s", " of ", p, " candidate key",
                 if (p == 1) "" else "s", " (", paste(x$keys, collapse = ", "), "), sizes ", size_range(x$sizes),
                 "; ", format_count(x$Norig), " original records, ",
                 if (x$m == 1) paste(format_count(x$Nsyn), "synthetic records") else
                   paste(x$m, "syntheses (means over syntheses)"), ".")
  shown <- shown_targets(x, targets)
  blocks <- c(worst_block(x, "repU", NA_character_, digits), unlist(lapply(shown, function(t) {
    worst_block(x, "DiSCO", t, digits)
  })))
  more <- length(x$targets) - length(shown)
  if (more > 0) {
    blocks <- c(blocks, paste0("And ", more, " more target", if (more == 1) "" else "s",
                               ": print(x, targets = Inf) or tidy(x, type = \"worst\")."))
  }
  # How a database counted (its queries, cells returned and seconds), as multi.disclosure() says it.
  counted_in <- input_lines(x$input, x$database)
  out <- c(strwrap(head, width = cli::console_width()), strwrap(counted_in, width = cli::console_width()), "", blocks,
           share_block(x, shown, digits),
           if (length(x$notes) > 0) strwrap(paste("Note:", x$notes), width = cli::console_width(), exdent = 2))
  if (!nzchar(out[length(out)])) out <- out[-length(out)]
  out
}

size_range <- function(sizes) {
  if (length(sizes) > 1 && all(diff(sizes) == 1)) paste0(sizes[1], "-", sizes[length(sizes)]) else
    paste(sizes, collapse = ", ")
}

# Targets shown by print(): the `n` with the largest DiSCO over all subsets.
shown_targets <- function(x, n) {
  top <- vapply(x$targets, function(t) suppressWarnings(max(x$estimate[, t, "DiSCO"], na.rm = TRUE)), numeric(1))
  x$targets[order(-top)][seq_len(min(n, length(x$targets)))]
}

# The worst subset of each size for one measure and target, as lines.
worst_block <- function(x, measure, target, digits) {
  # Identity measures given per target (their exclusions differ) are shown for the first.
  if (is.na(target) && x$ident_by_target) target <- x$targets[1]
  w <- x$worst[x$worst$measure == measure, , drop = FALSE]
  w <- w[if (is.na(target)) is.na(w$target) else w$target %in% target, , drop = FALSE]
  title <- if (is.na(target)) paste0(measure, " (%), the worst subset of each size:") else
    paste0(measure, " of target ", target, " (%), the worst subset of each size:")
  tab <- data.frame(keys = w$n_keys, subsets = w$subsets,
                    worst = formatC(w$estimate, format = "f", digits = digits),
                    subset = worst_labels(w), stringsAsFactors = FALSE)
  names(tab)[3] <- measure
  shown <- c("keys", "subsets", measure)
  if (!is.null(w$conf.low)) {
    tab$interval <- ifelse(is.na(w$conf.low), "", paste0("[", formatC(w$conf.low, format = "f", digits = digits), ", ",
                                                          formatC(w$conf.high, format = "f", digits = digits), "]"))
    names(tab)[names(tab) == "interval"] <- paste0(format(100 * x$conf.level), "% interval")
    shown <- c(shown, names(tab)[ncol(tab)])
  }
  lines <- utils::capture.output(print(tab[, shown], row.names = FALSE, right = TRUE))
  c(title, paste0("  ", lines, "  ", c("subset", tab$subset)), "")
}

# A worst subset's keys ("(none)" for the empty set), and how many other subsets of
# its size attain the same value.
worst_labels <- function(w, sep = "+") {
  keys <- ifelse(is.na(w$keys), "", ifelse(nzchar(w$keys), gsub("+", sep, w$keys, fixed = TRUE), "(none)"))
  ifelse(w$tied > 1 & w$tied == w$subsets, "(all equal)",
         ifelse(w$tied > 1, paste0(keys, " (and ", w$tied - 1, " more equal)"), keys))
}

share_block <- function(x, shown, digits) {
  if (is.null(x$shares)) return(character(0))
  s <- x$shares
  col <- function(measure, target) {
    r <- s[s$measure == measure & (if (is.na(target)) is.na(s$target) | !x$ident_by_target else s$target %in% target), ]
    r <- r[seq_len(length(x$keys)), ]
    formatC(r$phi, format = "f", digits = digits)
  }
  ident_target <- if (x$ident_by_target) x$targets[1] else NA_character_
  tab <- cbind(repU = col("repU", ident_target),
               do.call(cbind, stats::setNames(lapply(shown, function(t) col("DiSCO", t)), paste0("DiSCO:", shown))))
  rownames(tab) <- x$keys
  c(strwrap(paste("Each key's share (Shapley value, in points of the measure; the shares add up to the measure",
                   "with all keys less the measure with none):"), width = cli::console_width()),
    paste0("  ", matrix_lines(tab)), "")
}

#' Key sweep results as data frames
#'
#' @param x A `synthrisk_key_sweep` from [key_sweep()].
#' @param type `"measures"` (default): one row per subset, target and measure: `keys`
#'   (the subset's keys in the column order of `data`, joined by `"+"`; `""` for the
#'   empty set), `n_keys`, `target` (`NA` for identity measures, which do not depend on
#'   the target unless its exclusions make them), `measure`, `unit`, `estimate` (the
#'   mean over syntheses) and, with `conf.level`, `conf.low`, `conf.high` and
#'   `conf.caveat` as in [tidy.disclosure()]. `"worst"`: per size, target and
#'   measure the worst subset: `n_keys`, `target`, `measure`, `subsets` (of that
#'   size), `estimate`, `keys` (the first subset attaining it), `tied` (how many subsets
#'   of that size attain it) and, with `conf.level`, that subset's `conf.low` and
#'   `conf.high`. `"shares"`: per target, measure and key its Shapley
#'   value `phi` and `share` (`phi` over the measure with all keys less the measure
#'   with none), when the whole lattice was computed.
#' @param ... Unused.
#' @return A data frame; `glance()`: one row per target with `target`, `keys` (the
#'   candidate keys, joined by `"+"`), `n_keys`, `subsets`, `m`, `Norig`, and the
#'   largest `repU` and `DiSCO` over the subsets with the subsets attaining them
#'   (`repU_keys`, `DiSCO_keys`).
#' @export
tidy.synthrisk_key_sweep <- function(x, type = "measures", ...) {
  rlang::check_dots_empty()
  type <- check_choice(type, c("measures", "worst", "shares"), "type", rlang::current_env())
  if (type == "worst") return(x$worst)
  if (type == "shares") {
    if (is.null(x$shares)) {
      cli::cli_abort(c("{.arg x} has no shares: they need every subset of the keys.",
                       i = "Run {.fn key_sweep} with {.code sizes = 0:{length(x$keys)}}."), call = rlang::current_env())
    }
    return(x$shares)
  }
  panels <- measure_panels(x)
  labels <- dimnames(x$estimate)[[1]]
  n_sub <- length(labels)
  pick <- function(a, r) if (is.null(a)) NULL else a[, panels$column[r], panels$measure[r]]
  rows <- lapply(seq_len(nrow(panels)), function(r) {
    out <- list(keys = labels, n_keys = lengths(x$subsets), target = rep(panels$target[r], n_sub),
                measure = rep(panels$measure[r], n_sub), unit = rep(unname(measure_unit[panels$measure[r]]), n_sub),
                estimate = unname(pick(x$estimate, r)))
    if (!is.null(x$conf.low)) {
      out$conf.low <- unname(pick(x$conf.low, r))
      out$conf.high <- unname(pick(x$conf.high, r))
      out$conf.caveat <- unname(pick(x$conf.caveat, r))
    }
    vctrs::new_data_frame(out)
  })
  out <- vctrs::vec_rbind(!!!rows)
  # Subset by subset, each target's measures together.
  out <- out[order(rep(seq_len(n_sub), nrow(panels)), match(out$target, x$targets, nomatch = 0L)), , drop = FALSE]
  rownames(out) <- NULL
  out
}

#' @rdname tidy.synthrisk_key_sweep
#' @export
glance.synthrisk_key_sweep <- function(x, ...) {
  rlang::check_dots_empty()
  labels <- dimnames(x$estimate)[[1]]
  largest <- function(v) {
    j <- which.max(v)
    if (length(j) == 0) list(NA_real_, NA_character_) else list(v[[j]], labels[[j]])
  }
  rows <- lapply(x$targets, function(t) {
    repU <- largest(x$estimate[, if (x$ident_by_target) t else x$targets[1], "repU"])
    disco <- largest(x$estimate[, t, "DiSCO"])
    data.frame(target = t, keys = paste(x$keys, collapse = "+"), n_keys = length(x$keys),
               subsets = length(x$subsets), m = x$m, Norig = x$Norig, repU_max = repU[[1]], repU_keys = repU[[2]],
               DiSCO_max = disco[[1]], DiSCO_keys = disco[[2]], stringsAsFactors = FALSE)
  })
  do.call(rbind, rows)
}

#' Plot a key sweep with ggplot2
#'
#' `type = "measures"`: each measure against the number of keys, every subset a grey
#' point, the worst subset of each size a vermillion dot labelled with its keys and
#' joined to the next size's worst. One panel for each identity measure and one for
#' each target of each attribute measure. `type = "shares"`: each key's share (Shapley
#' value) of each measure, a bar per key, when the whole lattice was computed.
#'
#' @param object A `synthrisk_key_sweep` from [key_sweep()].
#' @param type `"measures"` or `"shares"`.
#' @param measures Measures to draw (default `repU` and `DiSCO`).
#' @param targets Targets of the attribute measures (default the three with the
#'   largest `DiSCO` over all subsets).
#' @param ... Unused.
#' @return A ggplot.
#' @export
autoplot.synthrisk_key_sweep <- function(object, type = "measures", measures = c("repU", "DiSCO"), targets = NULL, ...) {
  rlang::check_dots_empty()
  env <- rlang::current_env()
  type <- check_choice(type, c("measures", "shares"), "type", env)
  measures <- check_choices(measures, object$measures, "measures", env)
  targets <- if (is.null(targets)) shown_targets(object, 3) else check_choices(targets, object$targets, "targets", env)
  panels <- measure_panels(object)
  panels <- panels[panels$measure %in% measures & (is.na(panels$target) | panels$target %in% targets), , drop = FALSE]
  # Measures in the order asked, each measure's targets in the order given.
  panels <- panels[order(match(panels$measure, measures), match(panels$target, targets, nomatch = 0L)), , drop = FALSE]
  panels$label <- ifelse(is.na(panels$target), panels$measure, paste0(panels$measure, ": ", panels$target))
  panels$label <- factor(panels$label, unique(panels$label))
  subtitle <- wrap_subtitle(paste0("Candidate keys: ", paste(object$keys, collapse = ", "),
                                   if (object$m > 1) paste0("; means over ", object$m, " syntheses")), width = 90)
  if (type == "shares") return(shares_plot(object, panels, subtitle, env))
  points <- do.call(rbind, lapply(seq_len(nrow(panels)), function(r) {
    data.frame(panel = panels$label[r], n_keys = lengths(object$subsets),
               estimate = unname(object$estimate[, panels$column[r], panels$measure[r]]), stringsAsFactors = FALSE)
  }))
  w <- object$worst
  worst <- do.call(rbind, lapply(seq_len(nrow(panels)), function(r) {
    rows <- w[w$measure == panels$measure[r] & (w$target %in% panels$target[r] | (is.na(w$target) & is.na(panels$target[r]))), ]
    data.frame(panel = panels$label[r], n_keys = rows$n_keys, estimate = rows$estimate,
               keys = worst_labels(rows, "+\n"), stringsAsFactors = FALSE)
  }))
  worst <- worst[is.finite(worst$estimate), , drop = FALSE]
  # Where every subset of a size is equal there is no subset to name.
  worst$keys[worst$keys == "(all equal)"] <- ""
  ggplot2::ggplot(points, ggplot2::aes(x = .data$n_keys, y = .data$estimate)) +
    ggplot2::geom_point(colour = "grey55", alpha = 0.6, size = 1.6,
                        position = ggplot2::position_jitter(width = 0.12, height = 0, seed = 1)) +
    # Each label hangs below and right of its point, on white; the worst points and
    # their line are drawn over the labels, so a label never hides one.
    ggplot2::geom_label(data = worst, ggplot2::aes(label = .data$keys), size = 2.3, lineheight = 0.8,
                        hjust = 0, vjust = 1, nudge_x = 0.08, colour = "grey15", fill = grDevices::adjustcolor("white", 0.8),
                        label.size = 0, label.padding = grid::unit(1, "pt")) +
    ggplot2::geom_line(data = worst, colour = "#D55E00", linewidth = 0.4) +
    ggplot2::geom_point(data = worst, colour = "#D55E00", size = 2.4) +
    ggplot2::facet_wrap(ggplot2::vars(.data$panel), scales = "free_y") +
    ggplot2::scale_x_continuous(breaks = object$sizes, expand = ggplot2::expansion(add = c(0.3, 1.3))) +
    ggplot2::scale_y_continuous(expand = ggplot2::expansion(mult = c(0.25, 0.08))) +
    ggplot2::labs(x = "Number of keys the intruder holds", y = "Measure (%)",
                  title = "Which keys matter: every subset of the candidate keys",
                  subtitle = paste0(subtitle, "\nGrey: each subset; vermillion: the worst of each size, its keys named")) +
    plot_theme("none")
}

shares_plot <- function(object, panels, subtitle, env) {
  if (is.null(object$shares)) {
    cli::cli_abort(c("{.arg object} has no shares: they need every subset of the keys.",
                     i = "Run {.fn key_sweep} with {.code sizes = 0:{length(object$keys)}}."), call = env)
  }
  s <- object$shares
  bars <- do.call(rbind, lapply(seq_len(nrow(panels)), function(r) {
    rows <- s[s$measure == panels$measure[r] & (s$target %in% panels$target[r] | (is.na(s$target) & is.na(panels$target[r]))), ]
    data.frame(panel = panels$label[r], key = factor(rows$key, rev(object$keys)), phi = rows$phi, stringsAsFactors = FALSE)
  }))
  ggplot2::ggplot(bars, ggplot2::aes(x = .data$phi, y = .data$key)) +
    ggplot2::geom_col(fill = "#0072B2", width = 0.6) +
    ggplot2::geom_vline(xintercept = 0, colour = "grey40", linewidth = 0.3) +
    ggplot2::facet_wrap(ggplot2::vars(.data$panel), scales = "free_x") +
    ggplot2::labs(x = "Share of the measure (Shapley value, points)", y = NULL,
                  title = "Each key's share of the risk",
                  subtitle = paste0(subtitle, "\nThe shares add up to the measure with all keys less the measure with none")) +
    plot_theme("none")
}

#' @rdname autoplot.synthrisk_key_sweep
#' @param x A `synthrisk_key_sweep`.
#' @export
plot.synthrisk_key_sweep <- function(x, ...) {
  print(autoplot.synthrisk_key_sweep(x, ...))
  invisible(x)
}
