# Results do not depend on the number of threads, also when one target's q are split
# into several ranges (data larger than one range of rows).

test_that("1 and 2 threads give identical results on data split into several q ranges", {
  set.seed(7)
  n <- 400000
  make <- function(n) {
    data.frame(k1 = factor(sample.int(3, n, TRUE)), k2 = sample(1:300, n, TRUE), k3 = factor(sample.int(40, n, TRUE)),
               t1 = factor(sample.int(4, n, TRUE)), t2 = round(stats::runif(n) * 5000))
  }
  orig <- make(n)
  syn <- list(make(n), make(n - 1000))
  run <- function(th) {
    multi.disclosure(syn, orig, keys = c("k1", "k2", "k3"), thresh_1way = c(1, 20), thresh_2way = c(1, 30),
                     n_threads = th, plot = FALSE)
  }
  one <- run(1)
  two <- run(2)
  one$call <- two$call <- NULL
  one$attrib.plot <- two$attrib.plot <- NULL
  expect_identical(one, two)
  expect_gt(one$output.list$t1$attrib$DiSCO[1], 0)
})
