# An independent, slow reference written from SPEC.md: dense Q x T matrices built with
# table() on pasted labels, every table and exclusion spelled out. Only for tests.

ref_labels <- function(x) {
  out <- as.character(x)
  out[is.na(x)] <- "Missing"
  out
}

# Level order: factor levels (syntheses first, then the original), numbers ascending,
# other labels sorted; "Missing" last.
ref_level_order <- function(cols) {
  if (is.factor(cols[[1]])) {
    lev <- unique(c(unlist(lapply(cols[-1], levels)), levels(cols[[1]])))
  } else {
    vals <- sort(unique(unlist(lapply(cols, function(x) x[!is.na(x)]))))
    lev <- as.character(vals)
  }
  unique(c(lev, "Missing"))
}

ref_group <- function(cols, n, codes) {
  pooled <- unlist(lapply(cols, function(x) x[!is.na(x) & !(x %in% codes)]))
  brks <- unique(stats::quantile(pooled, probs = seq(0, 1, 1 / n), type = 7, names = FALSE))
  lapply(cols, function(x) {
    f <- as.character(cut(x, brks, right = FALSE, include.lowest = TRUE, dig.lab = 8))
    f[x %in% codes] <- as.character(x[x %in% codes])
    lev <- c(levels(cut(pooled, brks, right = FALSE, include.lowest = TRUE, dig.lab = 8)), as.character(codes))
    factor(f, levels = lev)
  })
}

ref_disclosure <- function(syn, data, keys, target, cont.na = NULL, denom_lim = 5, exclude_ov_denom_lim = FALSE,
                           not.targetlev = NULL, usetargetNA = TRUE, usekeysNA = TRUE, exclude.keys = NULL,
                           exclude.keylevs = NULL, exclude.targetlevs = NULL, ngroups_target = 0,
                           ngroups_keys = 0, thresh_1way = c(50, 90), thresh_2way = c(4, 80)) {
  if (is.data.frame(syn)) syn <- list(syn)
  usekeysNA <- rep_len(usekeysNA, length(keys))
  ngroups_keys <- rep_len(ngroups_keys, length(keys))
  o <- order(match(keys, names(data)))
  keys <- keys[o]
  usekeysNA <- usekeysNA[o]
  ngroups_keys <- ngroups_keys[o]
  ngroups <- stats::setNames(c(ngroups_keys, ngroups_target), c(keys, target))
  m <- length(syn)
  Nd <- nrow(data)

  # Labels of every variable in every dataset, and the level order.
  lab <- list()
  lev <- list()
  for (v in c(keys, target)) {
    cols <- c(list(data[[v]]), lapply(syn, function(s) s[[v]]))
    if (any(vapply(cols, function(x) is.factor(x) || is.character(x), logical(1)))) {
      cols <- lapply(cols, function(x) if (is.factor(x)) x else factor(as.character(x)))
    } else if (ngroups[[v]] > 0) {
      codes <- cont.na[[v]]
      codes <- codes[!is.na(codes)]
      cols <- ref_group(cols, ngroups[[v]], codes)
    }
    lev[[v]] <- ref_level_order(cols)
    lab[[v]] <- lapply(cols, ref_labels)
  }
  qstr <- function(i) do.call(paste, c(lapply(keys, function(k) lab[[k]][[i]]), sep = "\r"))
  qd <- qstr(1)
  Q <- unique(c(qd, unlist(lapply(seq_len(m), function(j) qstr(j + 1)))))
  Tl <- lev[[target]]
  qkey <- function(q, k) vapply(strsplit(q, "\r", fixed = TRUE), `[`, character(1), k)
  dmat <- unclass(table(factor(qd, Q), factor(lab[[target]][[1]], Tl)))
  # Exclusion masks that do not depend on the table (steps 1 to 4), as Q x T matrices.
  step_mask <- array(0L, dim(dmat))
  tl_mat <- matrix(Tl, nrow(dmat), ncol(dmat), byrow = TRUE)
  miss_key <- rep(FALSE, length(Q))
  for (i in seq_along(keys)) if (!usekeysNA[i]) miss_key <- miss_key | qkey(Q, i) == "Missing"
  kt <- matrix(FALSE, nrow(dmat), ncol(dmat))
  for (i in seq_along(exclude.keys)) {
    kt <- kt | (outer(qkey(Q, match(exclude.keys[i], keys)) == exclude.keylevs[i], Tl == exclude.targetlevs[i]))
  }
  orig_has_na <- any(lab[[target]][[1]] == "Missing") && any(is.na(data[[target]]))
  step_mask[kt] <- 4L
  step_mask[miss_key, ] <- 3L
  if (!usetargetNA && orig_has_na) step_mask[tl_mat == "Missing"] <- 2L
  step_mask[tl_mat %in% not.targetlev] <- 1L

  out <- list()
  for (j in seq_len(m)) {
    qs <- qstr(j + 1)
    Ns <- length(qs)
    smat <- unclass(table(factor(qs, Q), factor(lab[[target]][[j + 1]], Tl)))
    dq <- rowSums(dmat)
    sq <- rowSums(smat)
    pd <- dmat / pmax(dq, 1)
    ps <- smat / pmax(sq, 1)
    dis_q <- rowSums(ps == 1) > 0
    tabs <- list(original = dmat, synthetic = smat, Dorig = dmat * (pd == 1), Dsyn = smat * (ps == 1),
                 iS = dmat * (sq > 0), DiS = dmat * dis_q, DiSCO = dmat * (ps == 1),
                 DiSDiO = dmat * (ps == 1 & pd == 1))
    nex <- matrix(0, 8, 6, dimnames = list(names(tabs), NULL))
    kept <- list()
    for (k in names(tabs)) {
      x <- tabs[[k]]
      st <- step_mask
      if (exclude_ov_denom_lim) st[st == 0L & x > denom_lim] <- 5L
      for (s in 1:5) nex[k, s] <- sum(x[st == s])
      nex[k, 6] <- sum(x) - sum(nex[k, 1:5])
      x[st > 0] <- 0
      kept[[k]] <- x
    }
    d2 <- kept$original
    s2 <- kept$synthetic
    dq2 <- rowSums(d2)
    sq2 <- rowSums(s2)
    ps2 <- s2 / pmax(sq2, 1)
    pd2 <- d2 / pmax(dq2, 1)
    C <- sum(ps2 * d2)
    K <- sum(kept$DiSCO)
    Nb <- sum(sq2[dq2 > 0])
    dcells <- kept$DiSCO[kept$DiSCO > 0]
    pct <- function(a, b) if (b == 0) NaN else 100 * a / b
    margin <- table(factor(lab[[target]][[1]], Tl))
    res <- list(
      UiO = pct(sum(dq2 == 1), Nd), UiS = pct(sum(sq2 == 1), Ns), UiOiS = pct(sum(dq2 == 1 & sq > 0), Nd),
      repU = pct(sum(dq2 == 1 & sq2 == 1), Nd),
      Dorig = pct(sum(kept$Dorig), Nd), Dsyn = pct(sum(kept$Dsyn), Ns), iS = pct(sum(kept$iS), Nd),
      DiS = pct(sum(kept$DiS), Nd), DiSCO = pct(K, Nd), DCAPd = pct(C, Nd), DiSDiO = pct(sum(kept$DiSDiO), Nd),
      max_denom = if (length(dcells)) max(dcells) else 0, mean_denom = if (length(dcells)) mean(dcells) else NaN,
      baseCAPd = 100 * sum((margin / Nd)^2), CAPd = pct(sum(rowSums(pd2^2) * dq2), Nd),
      CAPs = pct(sum(rowSums(ps2^2) * sq2), Ns), DCAP = pct(C, Nd), DCAPs = pct(C, Ns), DCAPb = pct(C, Nb),
      TCAP = pct(K, sum(kept$DiS)), TCAPs = pct(K, Ns), TCAPb = pct(K, Nb),
      TCAP_synthpop = pct(K, sum(d2[sq2 > 0, ])),
      Nexclusions = nex
    )
    # 1-way check
    by_level <- colSums(kept$DiSCO)
    res$check_1way <- ""
    if (K > 0) {
      b <- which.max(by_level)
      if (by_level[b] > thresh_1way[1] && 100 * by_level[b] / K > thresh_1way[2]) {
        res$check_1way <- data.frame(Level = Tl[b], All = sum(d2), PctLevelAll = 100 * sum(d2[, b]) / sum(d2),
                                     totalDisclosive = K, nLevelDis = by_level[[b]],
                                     PctLevelDis = 100 * by_level[[b]] / K)
      }
    }
    # 2-way check
    big <- which(kept$DiSCO > thresh_2way[1], arr.ind = TRUE)
    pairs <- NULL
    if (nrow(big) > 0) {
      for (i in seq_along(keys)) {
        kl <- qkey(Q[big[, 1]], i)
        tl <- Tl[big[, 2]]
        np <- tapply(kept$DiSCO[big], paste(tl, kl, sep = "|"), sum)
        lab_k <- lab[[keys[i]]][[1]]
        lab_t <- lab[[target]][[1]]
        parts <- strsplit(names(np), "|", fixed = TRUE)
        kt_tot <- vapply(parts, function(p) sum(lab_k == p[2] & lab_t == p[1]), numeric(1))
        k_tot <- vapply(parts, function(p) sum(lab_k == p[2]), numeric(1))
        pairs <- rbind(pairs, data.frame(target_key_levs = names(np), npairs = as.integer(np), key = keys[i],
                                         key_target_total = kt_tot, key_total = k_tot,
                                         PctTargetKeyLevel = 100 * kt_tot / k_tot))
      }
      pairs <- pairs[pairs$PctTargetKeyLevel > thresh_2way[2], ]
    }
    res$check_2way <- if (is.null(pairs) || nrow(pairs) == 0) "" else pairs
    out[[j]] <- res
  }
  out
}
