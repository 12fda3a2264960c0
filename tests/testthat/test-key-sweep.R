# key_sweep() against multi.disclosure() on each subset, and its empty set, worst cases
# and Shapley values against plain-R references written from the definitions
# (vignette, section 14).

# Means over syntheses of multi.disclosure()'s measures on `keys`, as a matrix target x
# measure (DCAP under its core name DCAPd).
multi_means <- function(object, data, keys, targets, ...) {
  md <- multi.disclosure(object, data, keys = keys, targets = targets, print.flag = FALSE, plot = FALSE, ...)
  tm <- tidy(md)
  tm <- tm[tm$measure != "DCAP", ]
  tapply(tm$value, list(factor(tm$target, targets), tm$measure), mean)
}

# Every measure of every non-empty subset of the sweep against multi.disclosure() on
# that subset; `args_for(keys)` gives the arguments of that call (exclusions naming
# keys of the subset only).
expect_sweep_equals_multi <- function(ks, object, data, args_for = function(keys) list()) {
  tk <- tidy(ks)
  labels <- unique(tk$keys[tk$n_keys > 0])
  expect_length(labels, sum(lengths(ks$subsets) > 0))
  for (label in labels) {
    keys <- strsplit(label, "+", fixed = TRUE)[[1]]
    expected <- do.call(multi_means, c(list(object, data, keys, ks$targets), args_for(keys)))
    rows <- tk[tk$keys == label, ]
    identity <- is.na(rows$target)
    # An identity measure reported once stands for every target.
    for (t in ks$targets) {
      r <- rows[identity | rows$target == t, ]
      expect_equal(r$estimate, unname(expected[t, r$measure]), tolerance = 1e-9, info = paste(label, t))
    }
  }
}

test_that("every measure of every subset of 6 keys equals multi.disclosure() on it (SD2011, m = 1 and 5)", {
  keys <- c("sex", "age", "region", "placesize", "ls", "marital")
  targets <- c("depress", "income", "workab")
  for (object in list(sd2011_synds, sd2011_synds5)) {
    ks <- key_sweep(object, sd2011, keys = keys, targets = targets, ngroups_targets = c(income = 10))
    expect_s3_class(ks, "synthrisk_key_sweep")
    expect_length(ks$subsets, 63)
    expect_equal(ks$m, object$m)
    expect_sweep_equals_multi(ks, object, sd2011, function(k) list(ngroups_targets = c(income = 10)))
  }
})

test_that("the sweep equals multi.disclosure() with cont.na, grouped numeric keys, exclusions naming keys and conf.level", {
  syn <- sd2011_synds5$syn
  keys <- c("sex", "age", "region", "income")
  targets <- c("depress", "workab", "ls")
  exclusions <- list(exclude.keys = list(depress = c("sex", "region"), workab = NULL, ls = "age"),
                     exclude.keylevs = list(depress = c("FEMALE", "Mazowieckie"), workab = NULL, ls = "[28,42)"),
                     exclude.targetlevs = list(depress = c("0", "1"), workab = NULL, ls = "PLEASED"))
  common <- list(cont.na = list(income = -8), ngroups_keys = c(0, 5, 0, 4), usekeysNA = c(TRUE, FALSE, TRUE, TRUE),
                 usetargetsNA = c(FALSE, TRUE, TRUE), not.targetslev = c("", "", "DELIGHTED"))
  ks <- do.call(key_sweep, c(list(syn, sd2011, keys = keys, targets = targets, sizes = 0:4, conf.level = 0.9),
                             common, exclusions))
  # Exclusions naming keys of the subset only; usekeysNA and ngroups_keys follow their key.
  args_for <- function(k) {
    at <- match(k, keys)
    ex <- lapply(exclusions, function(e) lapply(seq_along(e), function(i) {
      x <- e[[i]]
      if (is.null(x)) NULL else x[exclusions$exclude.keys[[i]] %in% k]
    }))
    ex <- lapply(ex, function(e) {
      names(e) <- targets
      lapply(e, function(x) if (length(x) == 0) NULL else x)
    })
    c(list(cont.na = common$cont.na, ngroups_keys = common$ngroups_keys[at], usekeysNA = common$usekeysNA[at],
           usetargetsNA = common$usetargetsNA, not.targetslev = common$not.targetslev), ex)
  }
  expect_sweep_equals_multi(ks, syn, sd2011, args_for)
  # The identity measures depend on the target here (usetargetsNA = FALSE for one).
  expect_true(ks$ident_by_target)
  expect_false(anyNA(tidy(ks)$target))
  # Intervals across the syntheses as multi.disclosure() gives them.
  md <- do.call(multi.disclosure, c(list(syn, sd2011, keys = c("age", "region"), targets = targets,
                                         print.flag = FALSE, plot = FALSE, conf.level = 0.9), args_for(c("age", "region"))))
  iv <- md$intervals
  tk <- tidy(ks)
  rows <- tk[tk$keys == "age+region", ]
  at <- match(paste(rows$target, rows$measure), paste(iv$target, iv$measure))
  expect_equal(rows$conf.low, iv$conf.low[at], tolerance = 1e-9)
  expect_equal(rows$conf.high, iv$conf.high[at], tolerance = 1e-9)
  expect_identical(rows$conf.caveat, iv$caveat[at])
})

test_that("random data with missing values: the sweep equals multi.disclosure(), for 1 and 2 threads", {
  set.seed(39)
  n <- 400
  draw <- function(n) {
    x <- data.frame(a = factor(sample(c("p", "q", "r", NA), n, TRUE)), b = sample(c(1:4, NA), n, TRUE),
                    c = factor(sample(letters[1:6], n, TRUE)), d = factor(sample(c("u", "v", NA), n, TRUE)),
                    t1 = factor(sample(c("x", "y", NA), n, TRUE, prob = c(0.7, 0.2, 0.1))),
                    t2 = sample(c(0, 1, 2), n, TRUE))
    x
  }
  data <- draw(n)
  syn <- list(draw(n), draw(n - 37))
  ks1 <- key_sweep(syn, data, keys = c("d", "a", "b", "c"), sizes = 0:4, n_threads = 1, usekeysNA = c(TRUE, FALSE, TRUE, TRUE))
  ks2 <- key_sweep(syn, data, keys = c("d", "a", "b", "c"), sizes = 0:4, n_threads = 2, usekeysNA = c(TRUE, FALSE, TRUE, TRUE))
  expect_identical(ks1$estimate, ks2$estimate)
  expect_identical(ks1$keys, c("a", "b", "c", "d"))
  expect_identical(ks1$targets, c("t1", "t2"))
  flags <- c(d = TRUE, a = FALSE, b = TRUE, c = TRUE)
  expect_sweep_equals_multi(ks1, syn, data, function(k) list(usekeysNA = unname(flags[k])))
})

# The measures of section 6 with one key combination shared by every record, written
# from the definitions: `d`, `s` the target's counts in the original and a synthesis.
empty_set_reference <- function(d, s) {
  nd <- sum(d)
  ns <- sum(s)
  pd <- d / nd
  ps <- s / ns
  certain <- s == ns & s > 0
  c_num <- sum(ps * d)
  k_num <- sum(d[certain])
  dis <- if (any(certain)) nd else 0
  nb <- if (nd > 0) ns else 0
  c(UiO = 100 * (nd == 1) / nd, UiS = 100 * (ns == 1) / ns, UiOiS = 100 * (nd == 1 && ns > 0) / nd,
    repU = 100 * (nd == 1 && ns == 1) / nd, Dorig = 100 * sum(d[d == nd]) / nd, Dsyn = 100 * sum(s[certain]) / ns,
    iS = 100 * (ns > 0) * nd / nd, DiS = 100 * dis / nd, DiSCO = 100 * k_num / nd,
    DiSDiO = 100 * sum(d[certain & d == nd]) / nd, DCAPd = 100 * c_num / nd, baseCAPd = 100 * sum(pd^2),
    CAPd = 100 * sum(pd^2), CAPs = 100 * sum(ps^2), DCAPs = 100 * c_num / ns, DCAPb = 100 * c_num / nb,
    TCAPs = 100 * k_num / ns, TCAPb = 100 * k_num / nb, TCAP = 100 * k_num / dis)
}

test_that("the empty set is every record in one key combination (plain-R reference)", {
  keys <- c("sex", "age", "region")
  targets <- c("depress", "marital", "workab")
  ks <- key_sweep(sd2011_synds5, sd2011, keys = keys, targets = targets, sizes = 0:1)
  tk <- tidy(ks)
  none <- tk[tk$n_keys == 0, ]
  expect_identical(unique(none$keys), "")
  for (t in targets) {
    # "Missing" is a level like any other (definitions 2.3).
    lev <- function(x) factor(ifelse(is.na(x), "Missing", as.character(x)))
    levels_all <- union(levels(lev(sd2011[[t]])), unlist(lapply(sd2011_synds5$syn, function(s) levels(lev(s[[t]])))))
    d <- as.vector(table(factor(lev(sd2011[[t]]), levels_all)))
    per_syn <- sapply(sd2011_synds5$syn, function(s) empty_set_reference(d, as.vector(table(factor(lev(s[[t]]), levels_all)))))
    expected <- rowMeans(per_syn)
    rows <- none[is.na(none$target) | none$target == t, ]
    expect_equal(rows$estimate[match(names(expected), rows$measure)], unname(expected), tolerance = 1e-9, info = t)
  }
})

test_that("worst subsets and Shapley values follow their definitions (plain-R references)", {
  keys <- c("sex", "age", "region", "placesize")
  ks <- key_sweep(sd2011_synds5, sd2011, keys = keys, targets = c("depress", "workab"), sizes = 0:4)
  p <- length(keys)
  tk <- tidy(ks)
  value <- function(set, measure, target) {
    label <- paste(keys[sort(match(set, keys))], collapse = "+")
    r <- tk[tk$keys == label & tk$measure == measure & (is.na(tk$target) | tk$target %in% target), ]
    r$estimate[1]
  }
  shares <- tidy(ks, type = "shares")
  for (case in list(list("repU", NA_character_), list("DiSCO", "depress"), list("DCAPd", "workab"), list("TCAPs", "workab"))) {
    measure <- case[[1]]
    target <- case[[2]]
    # phi_v from the definition: every S of K without v, weight |S|!(p-|S|-1)!/p!.
    phi <- vapply(keys, function(v) {
      others <- setdiff(keys, v)
      total <- 0
      for (k in 0:(p - 1)) {
        sets <- if (k == 0) list(character(0)) else utils::combn(others, k, simplify = FALSE)
        for (s in sets) {
          total <- total + factorial(k) * factorial(p - k - 1) / factorial(p) *
            (value(c(s, v), measure, target) - value(s, measure, target))
        }
      }
      total
    }, numeric(1))
    got <- shares[shares$measure == measure & (is.na(shares$target) | shares$target %in% target), ]
    expect_equal(got$phi, unname(phi), tolerance = 1e-9, info = measure)
    expect_equal(sum(got$phi), value(keys, measure, target) - value(character(0), measure, target), tolerance = 1e-9)
    # Worst per size: the largest value; ties to the first subset in lexicographic order of positions.
    worst <- tidy(ks, type = "worst")
    for (k in 0:p) {
      sets <- if (k == 0) list(integer(0)) else utils::combn(p, k, simplify = FALSE)
      v <- vapply(sets, function(s) value(keys[s], measure, target), numeric(1))
      first <- which(v == max(v))[1]
      w <- worst[worst$n_keys == k & worst$measure == measure & (is.na(worst$target) | worst$target %in% target), ]
      expect_equal(w$estimate, v[first], tolerance = 1e-12)
      expect_identical(w$keys, paste(keys[sets[[first]]], collapse = "+"))
    }
  }
})

test_that("the printout names the worst subsets and shares; without the whole lattice it says why there are no shares", {
  keys <- c("sex", "age", "region")
  ks <- key_sweep(sd2011_synds, sd2011, keys = keys, targets = c("depress", "workab"), sizes = 0:3)
  out <- capture.output(print(ks))
  w <- tidy(ks, type = "worst")
  top <- w[w$measure == "repU" & w$n_keys == 3, ]
  expect_true(any(grepl("repU (%), the worst subset of each size", out, fixed = TRUE)))
  expect_true(any(grepl("DiSCO of target workab", out, fixed = TRUE)))
  expect_true(any(grepl(paste0(formatC(top$estimate, format = "f", digits = 2), "  ", top$keys), out, fixed = TRUE)))
  expect_true(any(grepl("Shapley", out)))
  part <- key_sweep(sd2011_synds, sd2011, keys = keys, targets = "depress", sizes = 1:2)
  out <- capture.output(print(part))
  expect_false(any(grepl("^Each key's share", out)))
  expect_true(any(grepl("not reported", out)))
  expect_null(part$shares)
  expect_error(tidy(part, type = "shares"), "sizes = 0:3")
  g <- glance(ks)
  expect_identical(g$target, c("depress", "workab"))
  expect_equal(g$repU_max, rep(max(tidy(ks)$estimate[tidy(ks)$measure == "repU"]), 2))
})

test_that("key_sweep() errors name the argument and the value", {
  keys <- c("sex", "age", "region")
  expect_error(key_sweep(sd2011_synds, sd2011, keys = keys, sizes = 4), "sizes.*from 0 to 3")
  expect_error(key_sweep(sd2011_synds, sd2011, keys = keys, sizes = c(1, 1)), "sizes.*repeats")
  expect_error(key_sweep(sd2011_synds, sd2011, keys = keys, sizes = 1.5), "sizes")
  wide <- as.data.frame(matrix(rep(1:2, 18 * 10), 20))
  expect_error(key_sweep(wide, wide, keys = names(wide)[1:17]), "sizes.*131,071 subsets")
  expect_error(key_sweep(sd2011_synds, sd2011, keys = keys, thresh_1way = c(1, 2)), "thresh_1way.*not used")
  expect_error(key_sweep(sd2011_synds, sd2011, keys = keys, bogus = 1), "Unknown argument.*bogus")
  expect_error(key_sweep(sd2011_synds, sd2011, keys = keys, cont.na = list(income = -8)), "cont.na")
  expect_error(key_sweep(sd2011_synds, sd2011), "keys")
  # The request's own checks, as multi.disclosure() makes them.
  expect_error(key_sweep(sd2011_synds, sd2011, keys = keys, conf.level = 2), "conf.level")
  expect_error(key_sweep(sd2011_synds, sd2011, keys = keys, denom_lim = -1), "denom_lim")
  expect_error(key_sweep(sd2011_synds, sd2011, keys = keys, usekeysNA = c(TRUE, FALSE)), "usekeysNA.*one per key")
  one <- key_sweep(sd2011_synds, sd2011, keys = keys, targets = "depress", sizes = 1, conf.level = 0.9)
  expect_null(one$conf.low)
  expect_match(one$notes[["intervals"]], "m >= 2")
  expect_error(key_sweep(sd2011_synds, sd2011, keys = c("sex", "nosuch")), "nosuch")
  expect_error(key_sweep(sd2011_synds, sd2011, keys = keys, targets = "depress", exclude.keys = "placesize",
                         exclude.keylevs = "NONE", exclude.targetlevs = "YES"), "exclude.keys.*placesize")
  expect_error(key_sweep("x", sd2011, keys = keys))
})

test_that("inputs are not modified and the plots draw", {
  keys <- c("sex", "age", "region")
  data <- sd2011[1:2000, ]
  syn <- sd2011_synds$syn[1:2000, ]
  before <- list(data, syn)
  ks <- key_sweep(syn, data, keys = keys, targets = c("depress", "workab"), sizes = 0:3)
  expect_identical(list(data, syn), before)
  p <- autoplot(ks)
  expect_s3_class(p, "ggplot")
  expect_no_error(ggplot2::ggplot_build(p))
  s <- autoplot(ks, type = "shares")
  expect_no_error(ggplot2::ggplot_build(s))
  expect_setequal(unique(as.character(s$data$key)), keys)
  # A data.table is changed by reference if anything writes into it: the sweep does not.
  skip_if_not_installed("data.table")
  dt <- data.table::as.data.table(data)
  dt_before <- data.table::copy(dt)
  expect_equal(key_sweep(syn, dt, keys = keys, targets = c("depress", "workab"), sizes = 0:3)$estimate, ks$estimate)
  expect_identical(names(dt), names(dt_before))
  expect_equal(dt, dt_before)
})

test_that("one encoding and one counting call, whatever the number of subsets", {
  keys <- c("sex", "age", "region", "placesize", "ls", "marital")
  one <- core_crossings(key_sweep(sd2011_synds, sd2011, keys = keys, targets = "depress", sizes = 1))
  all <- core_crossings(key_sweep(sd2011_synds, sd2011, keys = keys, targets = "depress", sizes = 0:6))
  expect_identical(one, 2L)
  expect_identical(all, 2L)
})

test_that("counted cells give the sweep of the records they count", {
  keys <- c("sex", "region", "placesize")
  count_cells <- function(d) {
    d <- d[c(keys, "marital")]
    d[] <- lapply(d, function(x) addNA(factor(x), ifany = TRUE))
    cell <- interaction(d, drop = TRUE)
    first <- !duplicated(cell)
    cell_counts(cbind(d[first, , drop = FALSE], n = tabulate(cell)[cell[first]]))
  }
  cells <- key_sweep(count_cells(sd2011_synds$syn), count_cells(sd2011), keys = keys, targets = "marital", sizes = 0:3)
  records <- key_sweep(sd2011_synds, sd2011, keys = keys, targets = "marital", sizes = 0:3)
  expect_equal(cells$estimate, records$estimate, tolerance = 1e-12)
})

test_that("intervals for every subset at once equal interval_across() one by one", {
  set.seed(5)
  measures <- c("UiO", "repU", "DiSCO", "max_denom", "TCAP")
  m <- 4
  draw <- function() {
    kind <- sample(6, 1)
    switch(kind, runif(m, 0, 100), rep(3.5, m), c(0, runif(m - 1, 0, 5)), sample(0:2, m, TRUE),
           c(NaN, runif(m - 1)), c(100, runif(m - 1, 90, 100)))
  }
  values <- array(replicate(length(measures) * 3 * 7, draw()), c(m, length(measures), 3, 7))
  values <- aperm(values, c(2, 1, 3, 4))
  dimnames(values) <- list(measures, NULL, c("a", "b", "c"), NULL)
  iv <- synthrisk:::intervals_across_syntheses(values, 0.9)
  for (i in 1:7) for (t in c("a", "b", "c")) for (me in measures) {
    want <- synthrisk:::of_original(synthrisk:::interval_across(values[me, , t, i], 0.9, synthrisk:::measure_range(me)), me)
    expect_equal(iv$conf.low[i, t, me], want$conf.low, tolerance = 1e-12)
    expect_equal(iv$conf.high[i, t, me], want$conf.high, tolerance = 1e-12)
    expect_identical(iv$caveat[i, t, me], want$caveat)
  }
})

test_that("with conf.level the worst subsets carry their intervals, in tidy() and the printout", {
  ks <- key_sweep(sd2011_synds5, sd2011, keys = c("sex", "age", "region"), targets = c("depress", "workab"),
                  usetargetsNA = c(TRUE, FALSE), sizes = 1:3, conf.level = 0.95)
  w <- tidy(ks, type = "worst")
  tk <- tidy(ks)
  r <- w[w$measure == "DiSCO" & w$target == "workab" & w$n_keys == 2, ]
  m <- tk[tk$keys == r$keys & tk$measure == "DiSCO" & tk$target == "workab", ]
  expect_identical(c(r$conf.low, r$conf.high), c(m$conf.low, m$conf.high))
  out <- capture.output(print(ks))
  expect_true(any(grepl("95% interval", out, fixed = TRUE)))
  # Identity measures differ between targets here: the printout names the target it shows.
  expect_true(ks$ident_by_target)
  expect_true(any(grepl("repU of target depress (%)", out, fixed = TRUE)))
  rep_line <- sprintf("%.2f [%.2f, %.2f]  %s", r$estimate, r$conf.low, r$conf.high, r$keys)
  expect_true(any(grepl(rep_line, out, fixed = TRUE)))
})
