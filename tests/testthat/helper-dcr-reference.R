# A slow, plain-R reference for dcr(), written from the definitions (SPEC section 11,
# with the section 1 adjustment): every pair of records, the sum S built variable by
# variable in the column order of `data`. Nothing here calls the package.

# A variable is numeric when it is integer or double (no factor) on every side.
ref_is_number <- function(x) (is.integer(x) || is.double(x)) && !is.object(x)

# Labels of a categorical variable: NA, an NA level and "Missing" are one label;
# numbers are labelled as factor() labels them; NaN is "NaN".
ref_labels_of <- function(x) {
  lab <- if (is.factor(x)) as.character(x) else as.character(x)
  lab[is.na(lab)] <- "Missing"
  enc2utf8(lab)
}

# Label of a numeric value: NA for a finite value that is no code, else a label.
ref_special_label <- function(x, codes) {
  out <- rep(NA_character_, length(x))
  out[is.na(x) & !is.nan(x)] <- "NA"
  out[is.nan(x)] <- "NaN"
  out[!is.na(x) & x == Inf] <- "Inf"
  out[!is.na(x) & x == -Inf] <- "-Inf"
  for (code in codes[is.finite(codes)]) out[!is.na(x) & x == code] <- paste("code", code)
  out
}

# The columns of each variable prepared for every side (data first).
ref_prepare <- function(sides, vars, cont.na) {
  lapply(vars, function(v) {
    cols <- lapply(sides, function(d) d[[v]])
    if (all(vapply(cols, ref_is_number, logical(1)))) {
      values <- lapply(cols, as.double)
      codes <- cont.na[[v]]
      if (is.null(codes)) codes <- numeric(0)
      labels <- lapply(values, ref_special_label, codes = codes)
      finite <- values[[1]][is.na(labels[[1]])]
      range <- if (length(finite) == 0) 0 else max(finite) - min(finite)
      list(numeric = TRUE, values = values, labels = labels, range = range)
    } else {
      list(numeric = FALSE, labels = lapply(cols, ref_labels_of))
    }
  })
}

# δ_v between record i of side a and every record of side b, as a vector.
ref_delta <- function(prep, a, i, b) {
  la <- prep$labels[[a]][i]
  lb <- prep$labels[[b]]
  if (!prep$numeric) return(ifelse(lb == la, 0, 1))
  x <- prep$values[[a]][i]
  y <- prep$values[[b]]
  out <- numeric(length(y))
  for (k in seq_along(y)) {
    if (is.na(la) && is.na(lb[k])) {
      if (prep$range == 0) {
        out[k] <- if (x == y[k]) 0 else 1
      } else {
        out[k] <- min(1, abs(x - y[k]) / prep$range)
      }
    } else if (is.na(la) || is.na(lb[k])) {
      out[k] <- 1
    } else {
      out[k] <- if (la == lb[k]) 0 else 1
    }
  }
  out
}

# Distances from record i of side a to every record of side b.
ref_distances <- function(preps, weights, a, i, b) {
  s <- 0
  for (v in seq_along(preps)) s <- s + weights[v] * ref_delta(preps[[v]], a, i, b)
  total <- 0
  for (w in weights) total <- total + w
  s / total
}

# For every record of side a: min distance to side b, the first row attaining it, and
# the second smallest distance of the multiset (NA with one record on side b).
ref_nearest <- function(preps, weights, a, b, n_a) {
  out <- data.frame(dist = numeric(n_a), row = integer(n_a), second = numeric(n_a))
  for (i in seq_len(n_a)) {
    d <- ref_distances(preps, weights, a, i, b)
    out$dist[i] <- min(d)
    out$row[i] <- which(d == min(d))[1]
    out$second[i] <- if (length(d) > 1) sort(d)[2] else NA_real_
  }
  out
}

# The whole of dcr()'s result, from the definitions. `weights`: one per variable of
# `vars` (already in the column order of `data`).
ref_dcr <- function(syn, data, control = NULL, vars, weights = rep(1, length(vars)), cont.na = list()) {
  m <- length(syn)
  sides <- c(list(data), syn, if (!is.null(control)) list(control))
  preps <- ref_prepare(sides, vars, cont.na)
  ctrl <- if (!is.null(control)) m + 2L
  n_data <- nrow(data)
  n_ctrl <- if (is.null(control)) 0L else nrow(control)
  base <- if (!is.null(control)) ref_nearest(preps, weights, ctrl, 1L, n_ctrl)$dist
  q <- function(x, p) if (all(is.na(x))) NA_real_ else unname(quantile(x, p, type = 7, na.rm = TRUE))
  synthetic <- list()
  original <- list()
  summary <- list()
  for (j in seq_len(m)) {
    s <- j + 1L
    n_s <- nrow(syn[[j]])
    near <- ref_nearest(preps, weights, s, 1L, n_s)
    nndr <- ifelse(near$dist == 0 & near$second == 0, 1, near$dist / near$second)
    dcr_ctrl <- if (!is.null(control)) ref_nearest(preps, weights, s, ctrl, n_s)$dist else rep(NA_real_, n_s)
    synthetic[[j]] <- data.frame(synthesis = j, row = seq_len(n_s), dcr = near$dist, nn = near$row,
                                 d2 = near$second, nndr = nndr, dcr_ctrl = dcr_ctrl)
    r <- ref_nearest(preps, weights, 1L, s, n_data)$dist
    r_ctrl <- if (!is.null(control)) ref_nearest(preps, weights, ctrl, s, n_ctrl)$dist else numeric(0)
    original[[j]] <- data.frame(set = rep(c("train", "control"), c(n_data, n_ctrl)), synthesis = j,
                                row = c(seq_len(n_data), seq_len(n_ctrl)), r = c(r, r_ctrl),
                                copied = c(r, r_ctrl) == 0)
    closer <- 0
    auc <- NA_real_
    if (!is.null(control)) {
      for (k in seq_len(n_s)) {
        closer <- closer + if (near$dist[k] < dcr_ctrl[k]) 1 else if (near$dist[k] == dcr_ctrl[k]) 0.5 else 0
      }
      wins <- 0
      for (a in r) for (b in r_ctrl) wins <- wins + if (a < b) 1 else if (a == b) 0.5 else 0
      auc <- wins / (n_data * n_ctrl)
    }
    summary[[j]] <- data.frame(
      synthesis = j, IMS = 100 * sum(near$dist == 0) / n_s,
      IMS_ctrl = if (!is.null(control)) 100 * sum(dcr_ctrl == 0) / n_s else NA_real_,
      dcr_q05 = q(near$dist, 0.05), dcr_q50 = q(near$dist, 0.5),
      dcr_ctrl_q05 = q(dcr_ctrl, 0.05), dcr_ctrl_q50 = q(dcr_ctrl, 0.5),
      base_q05 = if (!is.null(control)) q(base, 0.05) else NA_real_,
      base_q50 = if (!is.null(control)) q(base, 0.5) else NA_real_,
      nndr_q05 = q(nndr, 0.05),
      share = if (!is.null(control)) 100 * closer / n_s else NA_real_,
      share_noleak = if (!is.null(control)) 100 * n_data / (n_data + n_ctrl) else NA_real_,
      copied = 100 * sum(r == 0) / n_data, AUC = auc)
  }
  list(summary = do.call(rbind, summary), synthetic = do.call(rbind, synthetic),
       original = do.call(rbind, original))
}
