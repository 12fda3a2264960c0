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

test_that("two doubles whose labels print the same are one level (issue 8 repro)", {
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
