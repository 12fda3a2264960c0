# An independent, slow reference written from the definitions vignette: dense Q x T matrices, every
# table and exclusion spelled out. Only for tests.
#
# Separator-proof: a record's key tuple q is the tuple of its key level *codes*
# (integers), pasted with "." only to name the tuple; labels are never pasted or
# split, so labels containing "|", "\r", "" or "Missing" cannot collide.

# The codes of cont.na for `v`: a named list, or a list-matrix with one row per stratum
# (union over rows); NA is no code, NaN is one.
ref_cont_na <- function(cont.na, v) {
  if (is.null(cont.na)) return(numeric(0))
  x <- if (length(dim(cont.na)) == 2) unlist(cont.na[, v]) else cont.na[[v]]
  if (is.null(x) || !is.numeric(x)) return(numeric(0))
  unique(as.double(x[!is.na(x) | is.nan(x)]))
}

ref_plain <- function(x) {
  if (inherits(x, "AsIs")) class(x) <- setdiff(class(x), "AsIs")
  if (inherits(x, "POSIXlt")) x <- as.POSIXct(x)
  x
}

ref_is_number <- function(x) (is.double(x) || is.integer(x)) && is.null(attr(x, "class"))

# Breaks as classInt makes them (definitions vignette 2.1 names classIntervals): with n at least the
# number k of distinct values, one class per value, breaks halfway between neighbours
# and half the mean gap beyond the ends; otherwise quantile (type 7) or equal-width.
ref_breaks <- function(values, n, style) {
  u <- sort(unique(values))
  k <- length(u)
  if (n >= k) {
    gaps <- diff(u)
    return(unique(c(u[1] - mean(gaps) / 2, u[-k] + gaps / 2, u[k] + mean(gaps) / 2)))
  }
  if (style == "quantile") {
    unique(unname(stats::quantile(values, probs = seq(0, 1, 1 / n), type = 7)))
  } else {
    unique(seq(min(values), max(values), length.out = n + 1))
  }
}

# Grouped labels of the sides of one numeric variable (definitions vignette 2.1), or NULL when fewer
# than two distinct usable values leave it ungrouped. The last `n_control` sides are
# holdout records: no part in the breaks, cut with the outer breaks open (definitions vignette 10.3).
ref_group <- function(cols, n, codes, n_control = 0) {
  main <- seq_len(length(cols) - n_control)
  usable <- unlist(lapply(cols[main], function(x) x[is.finite(x) & !(x %in% codes)]))
  if (length(unique(usable)) < 2) return(NULL)
  special_of <- function(x) {
    out <- rep(NA_character_, length(x))
    out[is.nan(x)] <- "NaN"
    out[x %in% Inf] <- "Inf"
    out[x %in% -Inf] <- "-Inf"
    out[x %in% codes] <- as.character(x[x %in% codes])
    out
  }
  seen <- unique(unlist(lapply(cols[main], function(x) special_of(x[!(x %in% codes)]))))
  seen_control <- unique(unlist(lapply(cols[-main], function(x) special_of(x[!(x %in% codes)]))))
  specials <- c(unique(as.character(codes)), intersect(c("-Inf", "Inf", "NaN"), seen))
  specials <- c(specials, setdiff(intersect(c("-Inf", "Inf", "NaN"), seen_control), specials))
  brks <- ref_breaks(usable, n, "quantile")
  if (length(brks) - 1 + length(specials) < 3) brks <- ref_breaks(usable, n, "equal")
  intervals <- levels(cut(usable, brks, right = FALSE, include.lowest = TRUE, dig.lab = 8))
  labels <- lapply(seq_along(cols), function(i) {
    x <- cols[[i]]
    lab <- as.character(cut(x, brks, right = FALSE, include.lowest = TRUE, dig.lab = 8))
    if (!(i %in% main)) {
      # Beyond the outer breaks: the end intervals.
      lab[is.finite(x) & x < min(brks)] <- intervals[1]
      lab[is.finite(x) & x > max(brks)] <- intervals[length(intervals)]
    }
    sp <- special_of(x)
    lab[!is.na(sp)] <- sp[!is.na(sp)]
    lab
  })
  list(labels = labels, levels = c(intervals, specials))
}

# Labels (NA = missing) and level order of one side that is not all-numeric with the
# others: factors by their levels, numbers as factor() labels them, dates and times
# formatted on the values of all sides together.
ref_side <- function(x, pooled_time) {
  if (is.factor(x)) {
    return(list(labels = enc2utf8(as.character(x)), levels = enc2utf8(levels(x)[!is.na(levels(x))])))
  }
  if (inherits(x, "POSIXct") || inherits(x, "difftime")) {
    lab <- pooled_time(x)
    lev <- unique(lab[order(as.double(x))])
    return(list(labels = lab, levels = lev[!is.na(lev)]))
  }
  lab <- if (is.character(x)) enc2utf8(x) else enc2utf8(as.character(x))
  ord <- if (is.character(x)) order(lab) else order(as.double(unclass(x)))
  lev <- unique(lab[ord])
  list(labels = lab, levels = lev[!is.na(lev)])
}

# Labels of every side of variable `v` and the level order (definitions vignette, sections 1 and 2).
ref_variable <- function(cols, ngroups, codes, n_control = 0) {
  cols <- lapply(cols, ref_plain)
  main <- seq_len(length(cols) - n_control)
  if (all(vapply(cols, ref_is_number, logical(1)))) {
    if (ngroups > 0) {
      g <- ref_group(cols, ngroups, codes, n_control)
      if (!is.null(g)) return(g)
    }
    values <- unlist(cols)
    values <- values[!is.na(values) | is.nan(values)]
    return(list(labels = lapply(cols, as.character), levels = unique(as.character(values[order(values)]))))
  }
  # Times: one format for all sides of a kind.
  posix <- Filter(function(x) inherits(x, "POSIXct"), cols)
  dt <- Filter(function(x) inherits(x, "difftime"), cols)
  pooled_time <- function(x) {
    if (inherits(x, "POSIXct")) {
      tz <- attr(posix[[1]], "tzone")
      if (is.null(tz)) tz <- ""
      all_labels <- format(.POSIXct(unlist(lapply(posix, as.double)), tz = tz[1]))
      all_values <- unlist(lapply(posix, as.double))
      return(all_labels[match(as.double(x), all_values)])
    }
    u <- units(dt[[1]])
    units(x) <- u
    v <- as.double(x)
    ifelse(is.na(v) & !is.nan(v), NA_character_, paste(as.character(v), u))
  }
  sides <- lapply(cols, ref_side, pooled_time = pooled_time)
  lev <- unique(unlist(c(lapply(sides[main][-1], `[[`, "levels"), list(sides[[1]]$levels),
                         lapply(sides[-main], `[[`, "levels"))))
  list(labels = lapply(sides, `[[`, "labels"), levels = lev)
}

ref_disclosure <- function(syn, data, keys, target, cont.na = NULL, denom_lim = 5, exclude_ov_denom_lim = FALSE,
                           not.targetlev = NULL, usetargetNA = TRUE, usekeysNA = TRUE, exclude.keys = NULL,
                           exclude.keylevs = NULL, exclude.targetlevs = NULL, ngroups_target = 0,
                           ngroups_keys = 0, thresh_1way = c(50, 90), thresh_2way = c(4, 80), tau = NULL,
                           control = NULL) {
  # With `control`: the measures with `control` as the original, its levels and
  # grouping breaks those of `data` and the syntheses (definitions vignette 10.3, holdout baseline).
  if (is.data.frame(syn)) syn <- list(syn)
  data <- as.list(data)
  syn <- lapply(syn, as.list)
  n_control <- if (is.null(control)) 0 else 1
  if (!is.null(control)) control <- as.list(control)
  if (is.numeric(keys)) keys <- names(data)[keys]
  if (is.numeric(target)) target <- names(data)[target]
  if (is.null(ngroups_target)) ngroups_target <- 0
  if (is.null(ngroups_keys)) ngroups_keys <- 0
  usekeysNA <- rep_len(usekeysNA, length(keys))
  ngroups_keys <- rep_len(ngroups_keys, length(keys))
  o <- order(match(keys, names(data)))
  keys <- keys[o]
  usekeysNA <- usekeysNA[o]
  ngroups_keys <- ngroups_keys[o]
  ngroups <- stats::setNames(c(ngroups_keys, ngroups_target), c(keys, target))
  m <- length(syn)
  o <- if (is.null(control)) 1 else m + 2  # the original among the datasets
  Nd <- length((if (is.null(control)) data else control)[[target]])

  # Level codes of every variable in every dataset (1 = original). NA, an NA level and
  # the label "Missing" are one level "Missing" (definitions vignette 2.3).
  code <- list()
  lev <- list()
  for (v in c(keys, target)) {
    cols <- c(list(data[[v]]), lapply(syn, function(s) s[[v]]), if (!is.null(control)) list(control[[v]]))
    var <- ref_variable(cols, ngroups[[v]], ref_cont_na(cont.na, v), n_control)
    labs <- lapply(var$labels, function(l) ifelse(is.na(l), "Missing", l))
    lev[[v]] <- unique(c(var$levels, "Missing"))
    code[[v]] <- lapply(labs, function(l) match(l, lev[[v]]))
  }
  # q: the tuple of key codes.
  qname <- function(i) do.call(paste, c(lapply(keys, function(k) code[[k]][[i]]), sep = "."))
  qd <- qname(o)
  Q <- unique(c(qd, unlist(lapply(seq_len(m), function(j) qname(j + 1)))))
  q_codes <- matrix(as.integer(unlist(strsplit(Q, ".", fixed = TRUE))), ncol = length(keys), byrow = TRUE)
  n_t <- length(lev[[target]])
  tl <- seq_len(n_t)
  dense <- function(qn, tc) {
    x <- matrix(0, length(Q), n_t)
    cnt <- table(factor(match(qn, Q), seq_along(Q)), factor(tc, tl))
    x[] <- as.vector(cnt)
    x
  }
  dmat <- dense(qd, code[[target]][[o]])
  missing_t <- match("Missing", lev[[target]])

  # Exclusion steps 1 to 4 (definitions vignette, section 5), later steps first so earlier ones win.
  step_mask <- matrix(0L, nrow(dmat), ncol(dmat))
  for (i in seq_along(exclude.keys)) {
    k <- match(exclude.keys[i], keys)
    rows <- lev[[keys[k]]][q_codes[, k]] == exclude.keylevs[i]
    step_mask[rows, lev[[target]] == exclude.targetlevs[i]] <- 4L
  }
  for (i in seq_along(keys)) {
    if (!usekeysNA[i]) step_mask[lev[[keys[i]]][q_codes[, i]] == "Missing", ] <- 3L
  }
  if (!usetargetNA && any(code[[target]][[o]] == missing_t)) step_mask[, missing_t] <- 2L
  no_levels <- is.null(not.targetlev) || identical(not.targetlev, "")
  if (!no_levels) step_mask[, lev[[target]] %in% not.targetlev] <- 1L

  # R's arithmetic: x/0 is Inf, 0/0 is NaN (definitions vignette, section 6).
  pct <- function(a, b) 100 * a / b
  share <- function(x, tot) x / ifelse(tot > 0, tot, 1)  # rows with tot = 0 are all 0
  out <- list()
  for (j in seq_len(m)) {
    qs <- qname(j + 1)
    Ns <- length(qs)
    smat <- dense(qs, code[[target]][[j + 1]])
    dq <- rowSums(dmat)
    sq <- rowSums(smat)
    ps1 <- smat == sq & sq > 0
    pd1 <- dmat == dq & dq > 0
    dis_q <- rowSums(ps1) > 0
    tabs <- list(original = dmat, synthetic = smat, Dorig = dmat * pd1, Dsyn = smat * ps1,
                 iS = dmat * (sq > 0), DiS = dmat * dis_q, DiSCO = dmat * ps1, DiSDiO = dmat * (ps1 & pd1))
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
    ps2 <- share(s2, sq2)
    pd2 <- share(d2, dq2)
    C <- sum(ps2 * d2)
    K <- sum(kept$DiSCO)
    Nb <- sum(sq2[dq2 > 0])
    dcells <- kept$DiSCO[kept$DiSCO > 0]
    margin <- colSums(dmat)
    # Taub's TCAP (definitions vignette 10.5): q whose kept synthetic records have one target level u
    # and whose kept original records exist, weighted by their synthetic records.
    taub_q <- which(rowSums(s2 > 0) == 1 & dq2 > 0)
    taub_u <- as.vector((s2[taub_q, , drop = FALSE] > 0) %*% seq_len(ncol(s2)))
    taub <- pct(sum(sq2[taub_q] * d2[cbind(taub_q, taub_u)] / dq2[taub_q]), sum(sq2[taub_q]))
    res <- list(
      UiO = pct(sum(dq2 == 1), Nd), UiS = pct(sum(sq2 == 1), Ns), UiOiS = pct(sum(dq2 == 1 & sq > 0), Nd),
      repU = pct(sum(dq2 == 1 & sq2 == 1), Nd),
      Dorig = pct(sum(kept$Dorig), Nd), Dsyn = pct(sum(kept$Dsyn), Ns), iS = pct(sum(kept$iS), Nd),
      DiS = pct(sum(kept$DiS), Nd), DiSCO = pct(K, Nd), DCAPd = pct(C, Nd), DiSDiO = pct(sum(kept$DiSDiO), Nd),
      max_denom = if (length(dcells)) max(dcells) else 0, mean_denom = if (length(dcells)) mean(dcells) else NaN,
      baseCAPd = 100 * sum((margin / Nd)^2), CAPd = pct(sum(rowSums(pd2^2) * dq2), Nd),
      CAPs = pct(sum(rowSums(ps2^2) * sq2), Ns), DCAP = pct(C, Nd), DCAPs = pct(C, Ns), DCAPb = pct(C, Nb),
      TCAP = pct(K, sum(kept$DiS)), TCAPs = pct(K, Ns), TCAPb = pct(K, Nb),
      TCAP_synthpop = pct(K, sum(d2[sq2 > 0, ])), TCAP_taub = taub, DCAPi = pct(C, sum(kept$iS)),
      Nexclusions = nex
    )
    # 1-way check (definitions vignette, section 7)
    by_level <- colSums(kept$DiSCO)
    res$check_1way <- ""
    if (K > 0) {
      b <- which.max(by_level)
      if (by_level[b] > thresh_1way[1] && 100 * by_level[b] / K > thresh_1way[2]) {
        res$check_1way <- data.frame(Level = lev[[target]][b], All = sum(d2), PctLevelAll = 100 * sum(d2[, b]) / sum(d2),
                                     totalDisclosive = K, nLevelDis = by_level[[b]],
                                     PctLevelDis = 100 * by_level[[b]] / K)
      }
    }
    # 2-way check (definitions vignette, section 7): pairs (target code, key code) summed by codes.
    big <- which(kept$DiSCO > thresh_2way[1], arr.ind = TRUE)
    pairs <- NULL
    for (i in seq_along(keys)) {
      if (nrow(big) == 0) break
      kc <- q_codes[big[, 1], i]
      tc <- big[, 2]
      np <- tapply(kept$DiSCO[big], list(tc, kc), sum)
      at <- which(!is.na(np) & np > 0, arr.ind = TRUE)
      if (nrow(at) == 0) next
      t_code <- as.integer(rownames(np)[at[, 1]])
      k_code <- as.integer(colnames(np)[at[, 2]])
      key_orig <- code[[keys[i]]][[o]]
      t_orig <- code[[target]][[o]]
      kt_tot <- vapply(seq_along(t_code), function(r) sum(key_orig == k_code[r] & t_orig == t_code[r]), numeric(1))
      k_tot <- vapply(k_code, function(kk) sum(key_orig == kk), numeric(1))
      pairs <- rbind(pairs, data.frame(target_key_levs = paste(lev[[target]][t_code], lev[[keys[i]]][k_code], sep = "|"),
                                       npairs = np[at], key = keys[i], key_target_total = kt_tot, key_total = k_tot,
                                       PctTargetKeyLevel = 100 * kt_tot / k_tot, stringsAsFactors = FALSE))
    }
    if (!is.null(pairs)) pairs <- pairs[pairs$PctTargetKeyLevel > thresh_2way[2], ]
    res$check_2way <- if (is.null(pairs) || nrow(pairs) == 0) "" else pairs
    # Tau curve (definitions vignette 10.1): shares before exclusions; then the cells the exclusion steps
    # take from the DiSCO table, step 5 judging a cell by its original count.
    if (!is.null(tau)) {
      ps0 <- share(smat, sq)
      pd0 <- share(dmat, dq)
      kept_cell <- step_mask == 0L & !(exclude_ov_denom_lim & dmat > denom_lim)
      curve <- function(p) vapply(tau, function(t) pct(sum((p * dmat)[kept_cell & p >= t]), Nd), numeric(1))
      res$tau_syn <- curve(ps0)
      res$tau_orig <- curve(pd0)
    }
    res$levels <- lev
    out[[j]] <- res
  }
  out
}

# A value's label as the reference sees it ("Missing" for NA).
ref_labels <- function(x) {
  out <- as.character(x)
  out[is.na(x) & !is.nan(x)] <- "Missing"
  out
}

# ---- Comparing a result with the reference ------------------------------------------

ref_measures <- c("UiO", "UiS", "UiOiS", "repU", "Dorig", "Dsyn", "iS", "DiS", "DiSCO", "DCAPd", "DiSDiO",
                  "max_denom", "mean_denom", "baseCAPd", "CAPd", "CAPs", "DCAP", "DCAPs", "DCAPb", "TCAP",
                  "TCAPs", "TCAPb", "TCAP_synthpop", "TCAP_taub", "DCAPi")

# Numbers equal to 1e-9, with NA, NaN, Inf and -Inf in the same places.
same_numbers <- function(a, b) {
  a <- as.double(unlist(a, use.names = FALSE))
  b <- as.double(unlist(b, use.names = FALSE))
  if (length(a) != length(b)) return(FALSE)
  finite <- is.finite(a) & is.finite(b)
  all(is.nan(a) == is.nan(b)) && all(is.na(a) == is.na(b)) &&
    all(a[!finite & !is.na(a)] == b[!finite & !is.na(b)]) && all(abs(a[finite] - b[finite]) < 1e-9)
}

# The measures of synthesis j of a disclosure object, by name.
got_measures <- function(got, j) {
  row <- c(as.list(got$ident[j, ]), as.list(got$attrib[j, ]), as.list(got$allCAPs[j, ]),
           list(TCAP_synthpop = got$measures$TCAP_synthpop[j], TCAP_taub = got$measures$TCAP_taub[j]))
  vapply(ref_measures, function(x) as.double(row[[x]]), numeric(1))
}

pairs_in_order <- function(x) {
  x <- as.data.frame(x, stringsAsFactors = FALSE)
  # synthrisk's target_key_levs is a factor (as synthpop's): compared by label.
  x$target_key_levs <- as.character(x$target_key_levs)
  x <- x[order(x$key, x$target_key_levs, x$npairs, x$key_total, x$key_target_total), ]
  rownames(x) <- NULL
  x
}

# What differs between a disclosure object and the reference (character(0) if nothing).
reference_mismatches <- function(got, want) {
  out <- character(0)
  m <- length(want)
  for (j in seq_len(m)) {
    w <- want[[j]]
    g <- got_measures(got, j)
    wv <- vapply(ref_measures, function(x) as.double(w[[x]]), numeric(1))
    bad <- ref_measures[!vapply(seq_along(g), function(i) same_numbers(g[i], wv[i]), logical(1))]
    if (length(bad)) {
      out <- c(out, sprintf("synthesis %d: %s", j, paste(sprintf("%s %s (reference %s)", bad, format(g[bad]),
                                                                   format(wv[bad])), collapse = ", ")))
    }
    if (!same_numbers(got$Nexclusions[[j]], w$Nexclusions)) out <- c(out, sprintf("synthesis %d: Nexclusions", j))
    one <- if (m == 1) got$check_1way else got$check_1way[[j]]
    if (is.data.frame(w$check_1way)) {
      if (!is.data.frame(one) || !identical(one$Level, w$check_1way$Level) || !same_numbers(one[-1], w$check_1way[-1])) {
        out <- c(out, sprintf("synthesis %d: check_1way", j))
      }
    } else if (is.data.frame(one)) {
      out <- c(out, sprintf("synthesis %d: check_1way where the reference has none", j))
    }
    two <- if (m == 1) got$check_2way else got$check_2way[[j]]
    if (is.data.frame(w$check_2way)) {
      a <- if (is.data.frame(two)) pairs_in_order(two) else NULL
      b <- pairs_in_order(w$check_2way)
      cols <- c("npairs", "key_target_total", "key_total", "PctTargetKeyLevel")
      if (is.null(a) || !identical(paste(a$key, a$target_key_levs), paste(b$key, b$target_key_levs)) ||
          !same_numbers(a[cols], b[cols])) {
        out <- c(out, sprintf("synthesis %d: check_2way", j))
      }
    } else if (is.data.frame(two)) {
      out <- c(out, sprintf("synthesis %d: check_2way where the reference has none", j))
    }
  }
  out
}

# An expectation: `got` agrees with `want` on every number and check.
expect_reference <- function(got, want, label = "") {
  problems <- reference_mismatches(got, want)
  expect(length(problems) == 0, paste0(label, ": ", paste(problems, collapse = "; ")))
}
