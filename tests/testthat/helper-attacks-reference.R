# A slow, plain-R reference for the attacks of SPEC section 13 (inference,
# linkability, singling out), written from the definitions: every pair of records, the
# nearest sets listed record by record, choose() and dhyper() for linkability, every
# query counted over every record. Distances come from helper-dcr-reference.R (SPEC
# 11). Nothing here calls the package.

ref_wilson <- function(s, n, conf) {
  z <- qnorm((1 + conf) / 2)
  c(p = (s + z^2 / 2) / (n + z^2), e = z / (n + z^2) * sqrt(s * (n - s) / n + z^2 / 4))
}

ref_attack_risk <- function(s_a, n_a, s_c, n_c, conf) {
  a <- ref_wilson(s_a, n_a, conf)
  if (n_c == 0) {
    r <- a[["p"]]
    e <- a[["e"]]
  } else {
    c <- ref_wilson(s_c, n_c, conf)
    r <- (a[["p"]] - c[["p"]]) / (1 - c[["p"]])
    e <- sqrt((a[["e"]] / abs(1 - c[["p"]]))^2 + (c[["e"]] * (a[["p"]] - 1) / (1 - c[["p"]])^2)^2)
  }
  clamp <- function(x) min(1, max(0, x))
  c(risk = clamp(r), low = clamp(r - e), high = clamp(r + e))
}

ref_in_order <- function(vars, data) vars[order(match(vars, names(data)))]

# Whether the secret g of a synthetic record matches y (SPEC 13): labels equal for a
# categorical secret; a numeric one equal, or within tolerance relative to y; special
# values (NA, NaN, Inf, cont.na codes) match only themselves.
ref_secret_matches <- function(prep, side_g, g_rows, side_y, y_row, tolerance) {
  if (!prep$numeric) return(prep$labels[[side_g]][g_rows] == prep$labels[[side_y]][y_row])
  ly <- prep$labels[[side_y]][y_row]
  lg <- prep$labels[[side_g]][g_rows]
  y <- prep$values[[side_y]][y_row]
  g <- prep$values[[side_g]][g_rows]
  out <- logical(length(g_rows))
  for (k in seq_along(g_rows)) {
    if (!is.na(ly) || !is.na(lg[k])) {
      out[k] <- !is.na(ly) && !is.na(lg[k]) && ly == lg[k]
    } else if (is.null(tolerance)) {
      out[k] <- g[k] == y
    } else {
      out[k] <- abs(g[k] - y) <= tolerance * abs(y)
    }
  }
  out
}

# Per target: success (share of its nearest set matching), set size, baseline.
ref_inference_targets <- function(sides, s_side, t_side, rows, aux, secret, cont.na, tolerance) {
  preps <- ref_prepare(sides, aux, cont.na)
  sprep <- ref_prepare(sides, secret, cont.na)[[1]]
  n_s <- nrow(sides[[s_side]])
  out <- data.frame(success = numeric(length(rows)), size = numeric(length(rows)), baseline = numeric(length(rows)))
  for (k in seq_along(rows)) {
    i <- rows[k]
    d <- ref_distances(preps, rep(1, length(aux)), t_side, i, s_side)
    near <- which(d == min(d))
    out$success[k] <- mean(ref_secret_matches(sprep, s_side, near, t_side, i, tolerance))
    out$size[k] <- length(near)
    out$baseline[k] <- sum(ref_secret_matches(sprep, s_side, seq_len(n_s), t_side, i, tolerance)) / n_s
  }
  out
}

# The targets: every record (1-based rows), or after set.seed(seed) sample.int(Nd, n)
# then sample.int(Nc, min(n, Nc)).
ref_targets <- function(n_attacks, seed, n_data, n_control) {
  if (is.null(n_attacks)) return(list(main = seq_len(n_data), control = seq_len(n_control)))
  set.seed(seed)
  main <- sample.int(n_data, min(n_attacks, n_data))
  control <- if (n_control > 0) sample.int(n_control, min(n_attacks, n_control)) else integer(0)
  list(main = main, control = control)
}

ref_row <- function(j, n, s, n_c, s_c, s_b, conf, s_risk = s) {
  r <- ref_attack_risk(s_risk, n, s_c, n_c, conf)
  data.frame(synthesis = j, n = n, successes = s, rate = s / n, n_control = n_c, successes_control = s_c,
             rate_control = if (n_c > 0) s_c / n_c else NA_real_, successes_baseline = s_b, rate_baseline = s_b / n,
             risk = r[["risk"]], conf.low = r[["low"]], conf.high = r[["high"]])
}

ref_inference <- function(syn, data, secret, aux = NULL, control = NULL, tolerance = NULL, cont.na = list(),
                          n_attacks = NULL, seed = NULL, conf = 0.95) {
  m <- length(syn)
  sides <- c(list(data), syn, if (!is.null(control)) list(control))
  n_c <- if (is.null(control)) 0L else nrow(control)
  targets <- ref_targets(n_attacks, seed, nrow(data), n_c)
  common <- names(data)
  for (s in syn) common <- intersect(common, names(s))
  rows <- list()
  records <- list()
  for (sec in secret) {
    a <- ref_in_order(if (is.null(aux)) setdiff(common, sec) else aux, data)
    for (j in seq_len(m)) {
      main <- ref_inference_targets(sides, j + 1L, 1L, targets$main, a, sec, cont.na, tolerance)
      ctrl <- if (n_c > 0) ref_inference_targets(sides, j + 1L, m + 2L, targets$control, a, sec, cont.na, tolerance)
      rows[[length(rows) + 1L]] <- cbind(secret = sec, ref_row(j, nrow(main), sum(main$success), if (n_c > 0) nrow(ctrl) else 0L,
                                                              if (n_c > 0) sum(ctrl$success) else NA_real_,
                                                              sum(main$baseline), conf))
      records[[length(records) + 1L]] <- data.frame(set = "train", synthesis = j, secret = sec, row = targets$main,
                                                    success = main$success, nearest = main$size)
      if (n_c > 0) {
        records[[length(records) + 1L]] <- data.frame(set = "control", synthesis = j, secret = sec,
                                                      row = targets$control, success = ctrl$success,
                                                      nearest = ctrl$size)
      }
    }
  }
  list(results = do.call(rbind, rows), records = do.call(rbind, records))
}

# Linkability of one target from its nearest sets (SPEC 13's formula, with choose()
# and dhyper()).
ref_link_probability <- function(a_lt, a_eq, b_lt, b_eq, k) {
  if (length(intersect(a_lt, b_lt)) > 0) return(1)
  alpha <- length(a_eq)
  beta <- length(b_eq)
  x <- k - length(a_lt)
  y <- k - length(b_lt)
  u1 <- length(intersect(a_eq, b_lt))
  u2 <- length(intersect(b_eq, a_lt))
  u3 <- length(intersect(a_eq, b_eq))
  first <- choose(alpha - u1, x) / choose(alpha, x)
  if (first == 0) return(1)
  total <- 0
  for (h in 0:min(u3, x)) {
    total <- total + dhyper(h, u3, alpha - u1 - u3, x) * choose(beta - u2 - h, y) / choose(beta, y)
  }
  1 - first * total
}

ref_link_targets <- function(sides, s_side, t_side, rows, aux_a, aux_b, k, cont.na) {
  pa <- ref_prepare(sides, aux_a, cont.na)
  pb <- ref_prepare(sides, aux_b, cont.na)
  out <- data.frame(success = numeric(length(rows)), any = logical(length(rows)))
  for (t in seq_along(rows)) {
    i <- rows[t]
    da <- ref_distances(pa, rep(1, length(aux_a)), t_side, i, s_side)
    db <- ref_distances(pb, rep(1, length(aux_b)), t_side, i, s_side)
    ka <- sort(da)[k]
    kb <- sort(db)[k]
    a_lt <- which(da < ka)
    a_eq <- which(da == ka)
    b_lt <- which(db < kb)
    b_eq <- which(db == kb)
    out$success[t] <- ref_link_probability(a_lt, a_eq, b_lt, b_eq, k)
    out$any[t] <- length(intersect(c(a_lt, a_eq), c(b_lt, b_eq))) > 0
  }
  out
}

ref_linkability <- function(syn, data, aux_a, aux_b, k = 1, control = NULL, cont.na = list(), n_attacks = NULL,
                            seed = NULL, conf = 0.95) {
  m <- length(syn)
  sides <- c(list(data), syn, if (!is.null(control)) list(control))
  n_c <- if (is.null(control)) 0L else nrow(control)
  targets <- ref_targets(n_attacks, seed, nrow(data), n_c)
  aux_a <- ref_in_order(aux_a, data)
  aux_b <- ref_in_order(aux_b, data)
  rows <- list()
  records <- list()
  for (j in seq_len(m)) {
    main <- ref_link_targets(sides, j + 1L, 1L, targets$main, aux_a, aux_b, k, cont.na)
    ctrl <- if (n_c > 0) ref_link_targets(sides, j + 1L, m + 2L, targets$control, aux_a, aux_b, k, cont.na)
    ns <- nrow(syn[[j]])
    base <- 1 - choose(ns - k, k) / choose(ns, k)
    row <- ref_row(j, nrow(main), sum(main$success), if (n_c > 0) nrow(ctrl) else 0L,
                   if (n_c > 0) sum(ctrl$success) else NA_real_, base * nrow(main), conf)
    row$any <- mean(main$any)
    rows[[j]] <- row
    records[[length(records) + 1L]] <- data.frame(set = "train", synthesis = j, row = targets$main,
                                                  success = main$success, any = main$any)
    if (n_c > 0) {
      records[[length(records) + 1L]] <- data.frame(set = "control", synthesis = j, row = targets$control,
                                                    success = ctrl$success, any = ctrl$any)
    }
  }
  list(results = do.call(rbind, rows), records = do.call(rbind, records))
}

# Singling out. A column's values for the queries: numbers when numeric on every side,
# else labels; NA, NaN, an NA level and "Missing" (and "NaN" of a number made a label)
# are missing (NA).
ref_so_columns <- function(sides, cols) {
  lapply(cols, function(v) {
    raw <- lapply(sides, function(d) d[[v]])
    if (all(vapply(raw, ref_is_number, logical(1)))) {
      lapply(raw, function(x) {
        x <- as.double(x)
        x[is.nan(x)] <- NA
        x
      })
    } else {
      lapply(raw, function(x) {
        lab <- ref_labels_of(x)
        lab[lab == "Missing" | (lab == "NaN" & ref_is_number(x))] <- NA
        lab
      })
    }
  })
}

ref_so_side <- function(columns, side) as.data.frame(lapply(columns, function(c) c[[side]]), col.names = paste0("c", seq_along(columns)))

ref_holds <- function(x, op, v) {
  switch(op,
         "is.na" = is.na(x),
         "!is.na" = !is.na(x),
         "==" = !is.na(x) & x == v,
         "!=" = !is.na(x) & x != v,
         "<" = !is.na(x) & x < v,
         ">" = !is.na(x) & x > v,
         "<=" = !is.na(x) & x <= v,
         ">=" = !is.na(x) & x >= v)
}

# A query: list of list(col, op, value). Number of records of `d` satisfying it.
ref_query_count <- function(d, q) {
  ok <- rep(TRUE, nrow(d))
  for (p in q) ok <- ok & ref_holds(d[[p$col]], p$op, p$value)
  sum(ok)
}

ref_univariate <- function(s, numeric) {
  out <- list()
  for (c in seq_along(s)) {
    x <- s[[c]]
    cand <- list()
    if (sum(is.na(x)) == 1) cand <- c(cand, list(list(col = c, op = "is.na", value = NA)))
    if (numeric[c]) {
      f <- x[!is.na(x) & is.finite(x)]
      if (length(f) > 0) {
        cand <- c(cand, list(list(col = c, op = "<=", value = min(f)), list(col = c, op = ">=", value = max(f))))
      }
    }
    tab <- table(x[!is.na(x)])
    once <- names(tab)[tab == 1]
    vals <- unique(x[!is.na(x)])
    vals <- vals[as.character(vals) %in% once]
    for (v in sort(vals)) cand <- c(cand, list(list(col = c, op = "==", value = v)))
    for (p in cand) if (ref_query_count(s, list(p)) == 1) out <- c(out, list(list(p)))
  }
  out
}

ref_multivariate <- function(s, numeric, n_cols, n_attacks, max_attempts) {
  ns <- nrow(s)
  p <- ncol(s)
  med <- vapply(seq_len(p), function(c) {
    if (!numeric[c]) return(NA_real_)
    x <- s[[c]][is.finite(s[[c]])]
    if (length(x) == 0) NA_real_ else median(x)
  }, numeric(1))
  kept <- list()
  keys <- character(0)
  attempts <- 0
  while (length(kept) < n_attacks && attempts < max_attempts) {
    b <- min(1000, max_attempts - attempts)
    rows <- sample.int(ns, b, replace = TRUE)
    cols <- lapply(seq_len(b), function(i) sort(sample.int(p, n_cols)))
    for (i in seq_len(b)) {
      if (length(kept) >= n_attacks) break
      attempts <- attempts + 1
      q <- lapply(cols[[i]], function(c) {
        x <- s[[c]][rows[i]]
        if (is.na(x)) list(col = c, op = "is.na", value = NA) else if (!numeric[c]) list(col = c, op = "==", value = x) else
          if (!is.na(med[c]) && x > med[c]) list(col = c, op = ">=", value = x) else list(col = c, op = "<=", value = x)
      })
      key <- paste(vapply(q, function(p) paste(p$col, p$op, format(p$value, digits = 17)), ""), collapse = "&")
      if (ref_query_count(s, q) == 1 && !key %in% keys) {
        kept <- c(kept, list(q))
        keys <- c(keys, key)
      }
    }
  }
  kept
}

ref_baseline <- function(n, s, numeric, n_cols) {
  p <- ncol(s)
  lapply(seq_len(n), function(i) {
    cc <- sort(sample.int(p, n_cols))
    lapply(cc, function(c) {
      vals <- unique(s[[c]])
      v <- vals[sample.int(length(vals), 1)]
      op <- if (is.na(v)) c("is.na", "!is.na")[sample.int(2, 1)] else if (numeric[c])
        c("==", "!=", "<", ">", "<=", ">=")[sample.int(6, 1)] else c("==", "!=")[sample.int(2, 1)]
      list(col = c, op = op, value = v)
    })
  })
}

ref_singling_out <- function(syn, data, cols = NULL, n_cols = 1, n_attacks = 2000, max_attempts = 1e7,
                             control = NULL, queries = NULL, reps = 10, seed = NULL, conf = 0.95) {
  m <- length(syn)
  sides <- c(list(data), syn, if (!is.null(control)) list(control))
  if (is.null(cols)) {
    cols <- names(data)
    for (s in syn) cols <- intersect(cols, names(s))
  }
  cols <- ref_in_order(cols, data)
  columns <- ref_so_columns(sides, cols)
  numeric <- vapply(cols, function(v) all(vapply(sides, function(d) ref_is_number(d[[v]]), logical(1))), logical(1))
  dedup <- function(k) {
    d <- ref_so_side(columns, k)
    d[!duplicated(d), , drop = FALSE]
  }
  d_data <- dedup(1L)
  d_ctrl <- if (!is.null(control)) dedup(m + 2L)
  if (!is.null(seed)) set.seed(seed)
  rows <- list()
  for (j in seq_len(m)) {
    s <- dedup(j + 1L)
    q <- if (!is.null(queries)) queries else if (n_cols == 1) ref_univariate(s, numeric) else
      ref_multivariate(s, numeric, n_cols, n_attacks, max_attempts)
    nd <- nrow(d_data)
    nc <- if (is.null(control)) 0L else nrow(d_ctrl)
    subsets <- if (nc > 0 && nc < nd) lapply(seq_len(reps), function(r) sample.int(nd, nc))
    base <- ref_baseline(length(q), s, numeric, n_cols)
    single <- function(d) vapply(q, function(qq) ref_query_count(d, qq) == 1, logical(1))
    main <- sum(single(d_data))
    ctrl <- if (nc > 0) sum(single(d_ctrl)) else NA_real_
    sub <- if (!is.null(subsets)) mean(vapply(subsets, function(r) sum(single(d_data[r, , drop = FALSE])), numeric(1))) else main
    b <- sum(vapply(base, function(qq) ref_query_count(d_data, qq) == 1, logical(1)))
    n <- length(q)
    row <- ref_row(j, n, main, if (nc > 0) n else 0L, ctrl, b, conf, s_risk = sub)
    row$rate_full <- row$rate
    row$rate <- sub / n
    row$successes <- sub
    row$not_single <- sum(!single(s))
    rows[[j]] <- row
  }
  list(results = do.call(rbind, rows))
}

# Random cases with many ties: few labels, NA, "Missing", an NA level, cont.na codes,
# integers and doubles, a numeric secret.
random_attack_case <- function(seed) {
  set.seed(seed)
  p <- sample(2:4, 1)
  vars <- paste0("v", seq_len(p))
  kinds <- sample(c("factor", "character", "integer", "double"), p, replace = TRUE)
  m <- sample(c(1, 1, 3), 1)
  n_data <- sample(3:30, 1)
  n_syn <- sample(3:25, m, replace = TRUE)
  n_ctrl <- if (runif(1) < 0.6) sample(2:20, 1) else 0L
  pools <- lapply(kinds, function(k) list(labels = sample(c("a", "b", "c", "Missing"), sample(1:3, 1)),
                                         int = sample(-2:5, sample(1:4, 1)),
                                         dbl = c(round(runif(sample(1:4, 1), 0, 10), 1), sample(c(NA, NaN, -8, -8), sample(0:2, 1)))))
  column <- function(k, n) {
    pool <- pools[[k]]
    switch(kinds[k],
           factor = factor(sample(c(pool$labels, NA), n, replace = TRUE), levels = unique(c(pool$labels, "zz"))),
           character = sample(c(pool$labels, NA), n, replace = TRUE),
           integer = sample(c(pool$int, NA), n, replace = TRUE),
           double = sample(pool$dbl, n, replace = TRUE))
  }
  make <- function(n) as.data.frame(stats::setNames(lapply(seq_len(p), column, n = n), vars), stringsAsFactors = FALSE)
  data <- make(n_data)
  syn <- lapply(n_syn, function(n) {
    s <- make(n)
    copy <- which(runif(n) < 0.4)
    if (length(copy) > 0) s[copy, ] <- data[sample(n_data, length(copy), replace = TRUE), , drop = FALSE]
    s
  })
  control <- if (n_ctrl > 0) make(n_ctrl)
  cont.na <- if (any(kinds == "double") && runif(1) < 0.6) stats::setNames(rep(list(-8), sum(kinds == "double")), vars[kinds == "double"]) else list()
  list(syn = syn, data = data, control = control, cont.na = cont.na, vars = vars, kinds = kinds)
}
