# The one encoding (R/encode.R): labels cleaned, numeric variables grouped where asked,
# every variable coded on the union of its levels, and what the analyses read of it.

encode <- function(vars, data, syn, cont.na = list(), ngroups = NULL, control = NULL) {
  ngroups <- ngroups %||% stats::setNames(as.list(rep(0, length(vars))), vars)
  synthrisk:::encode_variables(vars, data, syn, cont.na, ngroups, strict = FALSE, n_threads = 1L, call = NULL,
                               control = control)
}

level_counts <- function(enc, var) {
  i <- match(var, enc$vars)
  n <- length(enc$weights)
  counts <- synthrisk:::rust_result(synthrisk:::rust_level_counts(enc$ptr, i - 1L, rep(list(NULL), n)))
  lapply(counts, stats::setNames, enc$labels[[var]])
}

test_that("NFC and NFD labels are one level; NA, an NA level and 'Missing' are the missing level", {
  data <- data.frame(city = factor(c("Krak\u00f3w", "Lodz", NA, "Missing")), stringsAsFactors = FALSE)
  syn <- list(data.frame(city = addNA(factor(c("Krako\u0301w", "Krako\u0301w", "Lodz", NA)))))
  enc <- encode("city", data, syn)
  expect_identical(enc$labels$city, c("Krak\u00f3w", "Lodz", "Missing"))
  counts <- level_counts(enc, "city")
  expect_identical(unname(counts[[1]]), c(1, 1, 2))
  expect_identical(unname(counts[[2]]), c(2, 1, 1))
  expect_false(enc$one_sided[["city"]])
})

test_that("numbers that print alike are one level, labelled as factor() labels them", {
  data <- data.frame(x = c(0.1 + 0.2, 1, NA, NaN, -8))
  syn <- list(data.frame(x = c(0.3, 2L, 1, NA, -8)))
  enc <- encode("x", data, syn, cont.na = list(x = -8))
  expect_identical(enc$labels$x, c(levels(factor(c(data$x, syn[[1]]$x))), "Missing"))
  counts <- level_counts(enc, "x")
  expect_identical(counts[[1]][["0.3"]], 1)
  expect_identical(counts[[2]][["0.3"]], 1)
  expect_identical(counts[[1]][["NaN"]], 1)
  expect_identical(counts[[1]][["Missing"]], 1)
})

test_that("sides are made comparable, grouping is recorded, control is the last dataset", {
  data <- data.frame(a = c(1, 2, 3, 4, 5, 6), b = c("u", "v", "u", "v", "u", "v"))
  syn <- list(data.frame(a = c(1, 2, 3, 4, 5, 6), b = factor(c(1, 2, 1, 2, 1, 2))))
  enc <- encode(c("a", "b"), data, syn, ngroups = list(a = 3, b = 0),
                control = data.frame(a = c(0, 7), b = c("u", "w")))
  expect_false("a" %in% enc$adjusted)
  expect_true(enc$grouping$a$grouped)
  expect_identical(length(enc$weights), 3L)
  expect_identical(enc$records, c(6, 6, 2))
  # Control values beyond the outer breaks go to the end intervals, and are counted.
  expect_identical(enc$control$a$below + enc$control$a$above, 2L)
  mixed <- encode("a", data, list(data.frame(a = factor(c(1, 2, 3, 4, 5, 6)))))
  expect_identical(mixed$adjusted, "a")
})

test_that("labels that barely meet are found once, for every analysis to report", {
  data <- data.frame(sex = c("male", "female", "male"))
  syn <- list(data.frame(sex = c("MALE", "FEMALE", "MALE")))
  enc <- encode("sex", data, syn)
  expect_true(enc$label_gaps$sex$none)
  expect_identical(enc$label_gaps$sex$original_labels, c("female", "male"))
})

test_that("a NaN among whole-number control values stays NaN (not missing)", {
  data <- data.frame(x = c(1L, 2L, 3L))
  syn <- list(data.frame(x = c(1L, 2L, 2L)))
  control <- data.frame(x = c(1, NaN, NA))
  enc <- encode("x", data, syn, control = control)
  counts <- level_counts(enc, "x")
  expect_identical(counts[[3]][["NaN"]], 1)
  expect_identical(counts[[3]][["Missing"]], 1)
  # Whole-number control values keep integer data integer (labels as R writes integers).
  enc <- encode("x", data, syn, control = data.frame(x = c(1, 100000, NA)))
  expect_true("100000" %in% enc$labels$x)
})

# Definitions vignette 2.2: numeric variables are categories as factor() makes them: one level per
# distinct as.character(x) (15 significant digits), so doubles that print alike are one.

encode_one <- function(data, syn, var) {
  synthrisk:::encode_variables(var, data, list(syn), NULL, stats::setNames(list(0), var), strict = FALSE,
                               n_threads = 2L, call = globalenv())
}

# Doubles that stress as.character(): rounding boundaries, huge and tiny magnitudes,
# integers stored as double beyond 15 digits, signed zeros, non-finite values.
tricky_doubles <- function(seed) {
  set.seed(seed)
  base <- c(stats::runif(200, -1e3, 1e3), stats::rnorm(150) * 10^sample(-300:300, 150, TRUE),
            round(stats::runif(150, 0, 100), sample(0:3, 150, TRUE)))
  eps <- .Machine$double.eps
  near <- c(base * (1 + eps), base * (1 - eps), base * (1 + 4 * eps), base + 1e-15 * abs(base))
  ints <- c(2^53, 2^53 + 2, 2^53 - 1, 1e15, 1e15 + 1, 1e15 + 4, 1e15 + 6, 1e15 + 10, 123456789012345678,
            -2^60, 1234567890123456, 1234567890123457, 5180000000000003, 1:40 * 1.0, 1e5, 1e5 + 1e-10)
  # 16 significant digits ending in 5: the doubles nearest a 15-digit rounding tie
  ties <- as.numeric(sprintf("%s5e%d", formatC(stats::runif(200, 1, 10), digits = 14, format = "f"),
                             sample(-20:20, 200, TRUE)))
  ties <- c(ties, ties * (1 + eps), ties * (1 - eps))
  specials <- c(0.1 + 0.2, 0.3, 1 / 3 * 3, 1, cumsum(rep(0.1, 10)), seq(0, 1, by = 0.1), 1e15 + 0.25,
                1e15 + 0.5, 123456789012345.5, 1234567890123456.5, 0.15, 5e-324, 1e-300, 1e300,
                .Machine$double.xmax, -.Machine$double.xmax, 0, -0, Inf, -Inf, NaN, NA)
  sample(c(base, near, ints, ties, specials))
}

check_levels_as_factor <- function(x) {
  half <- seq_len(length(x) %/% 2)
  o <- data.frame(x = x[half])
  s <- data.frame(x = x[-half])
  enc <- encode_one(o, s, "x")
  labels <- enc$labels$x
  present <- x[!is.na(x) | is.nan(x)]
  # one level per distinct label, in factor()'s order, plus "Missing"
  expect_identical(length(labels) - 1L, length(unique(as.character(present))))
  expect_identical(head(labels, -1), levels(factor(x)))
  # codes group the records exactly as factor() does: each of our levels holds one
  # factor() level and each factor() level one of ours (Dorig = 100 both ways)
  both <- data.frame(x = x, f = factor(x))
  one_way <- disclosure(both, both, keys = "x", target = "f", print.flag = FALSE)$attrib$Dorig
  other_way <- disclosure(both, both, keys = "f", target = "x", print.flag = FALSE)$attrib$Dorig
  expect_equal(c(one_way, other_way), c(100, 100))
}

test_that("two doubles whose labels print the same are one level", {
  o <- data.frame(k = c("a", "a"), t = c(0.1 + 0.2, 0.3))
  d <- disclosure(o, o, keys = "k", target = "t", print.flag = FALSE)
  expect_equal(d$attrib$Dorig, 100)
  expect_identical(encode_one(o, o, "t")$labels$t, c("0.3", "Missing"))
  # 2-way check labels do not collide
  o2 <- data.frame(k = rep("a", 6), t = rep(c(0.1 + 0.2, 0.3), 3))
  d2 <- disclosure(o2, o2, keys = "k", target = "t", print.flag = FALSE, thresh_2way = c(1, 50))
  expect_identical(as.character(d2$check_2way$target_key_levs), "0.3|a")
})

test_that("numeric levels equal factor()'s on many random and tricky doubles", {
  for (seed in 1:4) check_levels_as_factor(tricky_doubles(seed))
})

test_that("numeric levels follow the session's scipen as as.character() does", {
  old <- options(scipen = 100)
  on.exit(options(old))
  x <- c(1e15, 1e15 + 1, 1e15 + 2, 2^53, 2^53 + 2, 1e-20, 1.5e-20, 0.3, 0.1 + 0.2)
  check_levels_as_factor(x)
  options(scipen = -10)
  check_levels_as_factor(x)
})

test_that("numeric level labels are as.character()'s, whole numbers written as integers where they read the same", {
  set.seed(8)
  x <- c(-2e5:2e5, round(stats::runif(2e5, -2^31, 2^31)),
         unlist(lapply(0:9, function(k) c(1:300, -(1:300)) * 10^k)),
         2147483647 + (-3:3), 0.5, -0.25, 1e15, 1e-5, 123456789012, -0, NaN, Inf, -Inf)
  x <- sort(unique(x))
  old <- options(scipen = 0)
  on.exit(options(old))
  for (scipen in c(0, 3, -2)) {
    options(scipen = scipen)
    expect_identical(synthrisk:::numeric_level_labels(x), as.character(x), label = paste("scipen", scipen))
  }
  expect_identical(synthrisk:::numeric_level_labels(c(1L, 100000L, -5L)), c("1", "100000", "-5"))
})

test_that("the labels the glue writes for whole-number levels are as.character()'s, under any scipen", {
  set.seed(9)
  x <- c(-2e5:2e5, round(stats::runif(2e4, -2^31, 2^31)), 2147483647 + (-3:3), -2147483647 - (0:2),
         unlist(lapply(0:9, function(k) c(1:30, -(1:30)) * 10^k)), 0.5, -0.25, 1e15, 1e-5, -0, NaN, Inf, -Inf)
  encode <- function(v) {
    d <- data.frame(v = v)
    synthrisk:::encode_variables("v", d, list(d), NULL, list(v = 0), strict = FALSE, n_threads = 1L, call = globalenv())
  }
  old <- options(scipen = 0)
  on.exit(options(old))
  for (scipen in c(0, 3, -2)) {
    options(scipen = scipen)
    enc <- encode(x)
    levels <- enc$info$v$numeric_levels
    expect_identical(enc$labels$v, c(as.character(levels), "Missing"), label = paste("scipen", scipen))
    # Most are written by the glue: all whole doubles within R's integers but the
    # multiples of 1e5 (0 among them).
    written <- enc$info$v$level_labels
    whole <- is.finite(levels) & abs(levels) <= .Machine$integer.max & levels == trunc(levels) & levels %% 1e5 != 0
    expect_identical(!is.na(written), whole)
    expect_identical(written[whole], as.character(as.integer(levels[whole])))
    ints <- encode(c(1L, 100000L, -5L, .Machine$integer.max, -.Machine$integer.max))
    expect_identical(ints$labels$v, c("-2147483647", "-5", "1", "100000", "2147483647", "Missing"))
    expect_false(anyNA(ints$info$v$level_labels))
  }
})

# Definitions vignette 2.2: NaN is a level of its own ("NaN"), not missing; only R's NA is missing.

core_labels <- function(data, syn, var) {
  enc <- synthrisk:::encode_variables(var, data, list(syn), NULL, stats::setNames(list(0), var), strict = FALSE,
                                      n_threads = 1L, call = globalenv())
  enc$labels[[var]]
}

test_that("NaN is its own level, not missing", {
  o <- data.frame(k = c("a", "a"), t = c(NA, 1))
  s <- data.frame(k = c("a", "a"), t = c(NA, NaN))
  # The original's target is 1 and NA, the synthetic NaN and NA: the labels do not meet.
  d <- expect_label_warning(disclosure(s, o, keys = "k", target = "t", print.flag = FALSE))
  # NA and NaN are two levels of the synthetic target: nothing is disclosive.
  expect_equal(d$attrib$Dsyn, 0)
  expect_equal(d$attrib$DiSCO, 0)
  # Without NaN on one side the answer does not depend on the column type.
  s2 <- data.frame(k = c("a", "a"), t = c(NaN, NaN))
  d2 <- expect_label_warning(disclosure(s2, o, keys = "k", target = "t", print.flag = FALSE))
  expect_equal(d2$attrib$Dsyn, 100)
  expect_equal(d2$attrib$DiSCO, 0)
})

test_that("numeric levels: ascending (-Inf first, Inf last), then NaN, then Missing", {
  o <- data.frame(t = c(2, NA, Inf, -0.5))
  s <- data.frame(t = c(NaN, -Inf, 2, 0, -0))
  expect_identical(core_labels(o, s, "t"), c("-Inf", "-0.5", "0", "2", "Inf", "NaN", "Missing"))
  # as factor() orders them
  expect_identical(head(core_labels(o, s, "t"), -1), levels(factor(c(o$t, s$t))))
  # a NaN with another payload (e.g. -NaN) is still NaN; only NA_real_ is missing
  s$t[1] <- -NaN
  expect_identical(core_labels(o, s, "t"), c("-Inf", "-0.5", "0", "2", "Inf", "NaN", "Missing"))
})

test_that("integer columns: only NA_integer_ is missing, labels print as integers", {
  o <- data.frame(t = c(1954L, NA, 100000L))
  s <- data.frame(t = c(-1L, 100000L))
  expect_identical(core_labels(o, s, "t"), c("-1", "1954", "100000", "Missing"))
})

test_that("a numeric target with NaN gives the numbers of the same data as labels", {
  set.seed(3)
  for (i in 1:30) {
    n <- sample(5:60, 1)
    pool <- c(NA, NaN, -Inf, Inf, 0, 1.5, 2)
    make <- function(n) data.frame(k1 = sample(c("a", "b", NA), n, TRUE), k2 = sample(1:3, n, TRUE),
                                   t = sample(pool, n, TRUE))
    o <- make(n)
    s <- list(make(sample(5:60, 1)), make(sample(5:60, 1)))
    as_labels <- function(d) {
      d$t <- factor(as.character(d$t), levels = c("-Inf", "0", "1.5", "2", "Inf", "NaN"))
      d
    }
    args <- list(keys = c("k1", "k2"), target = "t", print.flag = FALSE, usetargetNA = i %% 2 == 0,
                 usekeysNA = c(TRUE, i %% 3 > 0), exclude_ov_denom_lim = i %% 4 == 0, denom_lim = 2)
    # Random labels often barely meet; both calls must warn alike.
    got <- with_label_warnings(do.call(disclosure, c(list(s, o), args)))
    want <- with_label_warnings(do.call(disclosure, c(list(lapply(s, as_labels), as_labels(o)), args)))
    expect_identical(got$warnings, want$warnings)
    got <- got$value
    want <- want$value
    expect_numbers(got$measures, want$measures, label = paste("case", i))
    expect_identical(got$Nexclusions, want$Nexclusions)
  }
})

# Definitions vignette 2.3 / 5.2: the missing level is NA, an NA level of a factor (addNA()) and the
# literal label "Missing"; `has_missing` is "some record is at the missing level".

test_that("an NA factor level counts as missing for usetargetNA = FALSE", {
  o <- data.frame(k = "a", t = addNA(factor(NA)))
  s <- data.frame(k = "a", t = NA)
  d <- disclosure(s, o, keys = "k", target = "t", usetargetNA = FALSE, print.flag = FALSE)
  expect_equal(d$ident$UiO, 0)
  expect_equal(unname(d$Nexclusions[[1]]["original", "missing target"]), 1)
  # the same numbers as plain NA
  o2 <- data.frame(k = "a", t = factor(NA))
  d2 <- disclosure(s, o2, keys = "k", target = "t", usetargetNA = FALSE, print.flag = FALSE)
  expect_numbers(d$measures, d2$measures, label = "addNA vs NA")
})

test_that("a literal \"Missing\" target label is excluded with usetargetNA = FALSE", {
  o <- data.frame(k = c("a", "b", "c"), t = c("Missing", "x", "x"), stringsAsFactors = FALSE)
  s <- o
  d <- disclosure(s, o, keys = "k", target = "t", usetargetNA = FALSE, print.flag = FALSE)
  expect_equal(unname(d$Nexclusions[[1]]["original", c("missing target", "remaining")]), c(1, 2))
  expect_equal(d$ident$UiO, 100 * 2 / 3)
  d_na <- disclosure(s, transform(o, t = ifelse(t == "Missing", NA, t)), keys = "k", target = "t",
                     usetargetNA = FALSE, print.flag = FALSE)
  expect_equal(unname(d_na$Nexclusions[[1]]["original", "missing target"]), 1)
  # kept with usetargetNA = TRUE
  d_keep <- disclosure(s, o, keys = "k", target = "t", usetargetNA = TRUE, print.flag = FALSE)
  expect_equal(d_keep$ident$UiO, 100)
})

test_that("has_missing is per dataset and reads the remapped codes", {
  o <- data.frame(t = addNA(factor(c("x", NA))))
  s <- data.frame(t = factor(c("x", "y")))
  enc <- synthrisk:::encode_variables("t", o, list(s), NULL, list(t = 0), strict = FALSE, n_threads = 1L,
                                      call = globalenv())
  expect_identical(enc$info$t$has_missing, c(TRUE, FALSE))
  # a "Missing" level that no record uses is not missing data
  o2 <- data.frame(t = factor("x", levels = c("x", "Missing")))
  enc2 <- synthrisk:::encode_variables("t", o2, list(o2), NULL, list(t = 0), strict = FALSE, n_threads = 1L,
                                       call = globalenv())
  expect_identical(enc2$info$t$has_missing, c(FALSE, FALSE))
})

# The encoding reports, per variable, whether a non-missing level occurs on one side
# only (original vs some synthesis): synthpop 1.9-3 misaligns such an ungrouped numeric
# target (definitions vignette 9.8), and R can say so.

one_sided <- function(data, syn) {
  enc <- synthrisk:::encode_variables("t", data, syn, NULL, list(t = 0), strict = FALSE, n_threads = 1L,
                                      call = globalenv())
  enc$info$t$one_sided
}

test_that("one_sided flags levels in the original only or in a synthesis only", {
  o <- data.frame(t = c(1, 2, 3))
  expect_false(one_sided(o, list(data.frame(t = c(3, 1, 2, 2)))))
  expect_true(one_sided(o, list(data.frame(t = c(1, 2)))))
  expect_true(one_sided(o, list(data.frame(t = c(1, 2, 3)), data.frame(t = c(1, 2, 3, 4)))))
  # missing values on one side only do not count
  expect_false(one_sided(data.frame(t = c(1, NA)), list(data.frame(t = c(1, 1)))))
  # NaN is a level: on one side only, it counts
  expect_true(one_sided(data.frame(t = c(1, NaN)), list(data.frame(t = c(1, 1)))))
  # factors: declared but unused levels do not occur
  f <- data.frame(t = factor(c("a", "b"), levels = c("a", "b", "c")))
  expect_false(one_sided(f, list(data.frame(t = factor(c("b", "a"))))))
  expect_true(one_sided(f, list(data.frame(t = factor(c("c", "a", "b"))))))
})

quiet_disclosure <- function(...) disclosure(..., print.flag = FALSE)

test_that("NaN is a level of its own, not missing (definitions vignette 2.2)", {
  o <- data.frame(k = c("a", "a"), t = c(NA, 1))
  s <- data.frame(k = c("a", "a"), t = c(NA, NaN))
  # 1 against NaN: the target's labels do not meet, and the call says so.
  d <- expect_label_warning(quiet_disclosure(s, o, keys = "k", target = "t"))
  # The synthetic q "a" has two target levels, Missing and NaN: not disclosive.
  expect_identical(d$attrib$Dsyn, 0)
  # The same data with the target as character (labels "NaN" and NA) agree.
  s_chr <- transform(s, t = as.character(t))
  o_chr <- transform(o, t = as.character(t))
  d_chr <- expect_label_warning(quiet_disclosure(s_chr, o_chr, keys = "k", target = "t"))
  expect_identical(d_chr$attrib$Dsyn, 0)
  # NaN on both sides is one level: q "b" of the original is disclosive and correct.
  o2 <- data.frame(k = c("a", "b", "b"), t = c(1, NaN, NaN))
  s2 <- data.frame(k = c("a", "b"), t = c(1, NaN))
  d2 <- quiet_disclosure(s2, o2, keys = "k", target = "t", usetargetNA = FALSE)
  expect_identical(d2$attrib$DiSCO, 100)
  expect_identical(d2$Nexclusions[[1]]["original", "missing target"], 0)
})

test_that("an NA level (addNA) is the missing level for usetargetNA (definitions vignette 2.3, 5.2)", {
  o <- data.frame(k = "a", t = addNA(factor(NA)))
  s <- data.frame(k = "a", t = NA)
  d <- quiet_disclosure(s, o, keys = "k", target = "t", usetargetNA = FALSE)
  expect_identical(d$ident$UiO, 0)
  expect_identical(d$Nexclusions[[1]]["original", "missing target"], 1)
  plain <- quiet_disclosure(s, data.frame(k = "a", t = NA), keys = "k", target = "t", usetargetNA = FALSE)
  expect_identical(d$measures, plain$measures)
})

test_that("doubles that print the same are one level (definitions vignette 2.2)", {
  o <- data.frame(k = c("a", "a"), t = c(0.1 + 0.2, 0.3))
  d <- quiet_disclosure(o, o, keys = "k", target = "t", thresh_2way = c(0, 0))
  expect_identical(d$attrib$Dorig, 100)
  expect_identical(d$attrib$DiSCO, 100)
  expect_identical(as.character(d$check_2way$target_key_levs), "0.3|a")
  expect_identical(d$check_2way$npairs, 2L)
  # As keys too: one q.
  o2 <- data.frame(k = c(0.1 + 0.2, 0.3), t = c("x", "x"))
  expect_identical(quiet_disclosure(o2, o2, keys = "k", target = "t")$ident$UiO, 0)
})

test_that("a literal \"Missing\" target label is the missing level (definitions vignette 2.3, 5.2)", {
  o <- data.frame(k = c("a", "b"), t = c("Missing", "x"))
  d <- quiet_disclosure(o, o, keys = "k", target = "t", usetargetNA = FALSE)
  expect_identical(d$Nexclusions[[1]]["original", "missing target"], 1)
  expect_identical(d$ident$UiO, 50)
  expect_identical(d$attrib$DiSCO, 50)
  # "Missing" and NA are one level.
  s <- data.frame(k = c("a", "a"), t = c("Missing", NA))
  expect_identical(quiet_disclosure(s, o, keys = "k", target = "t")$attrib$Dsyn, 100)
})
