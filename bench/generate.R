# Census-like data for the scale benchmark: 5 keys (cardinalities 2, 90, 16, 6, 20) and
# 10 targets (2 to 1,000 levels, one rounded numeric with ~1e5 distinct values, some
# NAs). The synthetic data resample the original rows and perturb 10% of each column.

make_original <- function(n, seed = 1) {
  set.seed(seed)
  fct <- function(k, prob = NULL) {
    structure(sample.int(k, n, replace = TRUE, prob = prob), levels = sprintf("L%04d", seq_len(k)), class = "factor")
  }
  with_na <- function(x, rate) {
    x[sample.int(n, round(rate * n))] <- NA
    x
  }
  data.frame(
    sex = fct(2),
    age = as.numeric(sample(16:105, n, replace = TRUE, prob = stats::dnorm(16:105, 45, 20))),
    region = fct(16),
    placesize = fct(6),
    occupation = fct(20),
    t_binary = fct(2, c(0.8, 0.2)),
    t_5 = with_na(fct(5), 0.02),
    t_10 = fct(10),
    t_50 = fct(50, stats::dexp(1:50, 0.1)),
    t_100 = fct(100),
    t_300 = fct(300, stats::dexp(1:300, 0.02)),
    t_1000 = fct(1000),
    t_income = with_na(round(stats::runif(n)^2 * 1e5), 0.05),
    t_hours = with_na(as.numeric(sample(0:80, n, replace = TRUE)), 0.03),
    t_7 = with_na(fct(7), 0.01)
  )
}

make_synthetic <- function(orig, seed = 2, perturb = 0.1) {
  set.seed(seed)
  n <- nrow(orig)
  syn <- orig[sample.int(n, n, replace = TRUE), , drop = FALSE]
  for (v in names(syn)) {
    swap <- sample.int(n, round(perturb * n))
    syn[[v]][swap] <- orig[[v]][sample.int(n, length(swap), replace = TRUE)]
  }
  rownames(syn) <- NULL
  syn
}

bench_keys <- c("sex", "age", "region", "placesize", "occupation")
bench_targets <- c("t_binary", "t_5", "t_10", "t_50", "t_100", "t_300", "t_1000", "t_income", "t_hours", "t_7")
