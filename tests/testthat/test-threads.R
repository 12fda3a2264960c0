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

# fork() copies the parent's cached thread pools but not their threads: a forked child
# (parallel::mclapply) that used them would wait forever. Each child is given 60 s and
# killed after, so that a regression fails instead of hanging.
test_that("forked children run calls with the default threads after the parent has", {
  skip_on_os("windows")
  keys <- c("sex", "age", "region")
  dcr_vars <- c("sex", "age", "region", "income", "ls")
  both <- function() {
    multi <- multi.disclosure(sd2011_synds, sd2011, keys = keys, print.flag = FALSE)
    distances <- dcr(sd2011_synds, sd2011, vars = dcr_vars)
    list(multi = multi[c("ident.table", "attrib.table", "output.list")], dcr = distances$summary, pid = Sys.getpid())
  }
  in_parent <- both()
  jobs <- lapply(1:2, function(i) parallel::mcparallel(both()))
  pids <- vapply(jobs, function(j) j$pid, integer(1))
  results <- list()
  deadline <- Sys.time() + 60
  while (length(results) < length(jobs) && Sys.time() < deadline) {
    waiting <- jobs[!as.character(pids) %in% names(results)]
    got <- parallel::mccollect(waiting, wait = FALSE, timeout = 1)
    results[names(got)] <- got
  }
  hung <- pids[!as.character(pids) %in% names(results)]
  if (length(hung) > 0) {
    tools::pskill(hung, tools::SIGKILL)
    suppressWarnings(parallel::mccollect(jobs[pids %in% hung], wait = FALSE, timeout = 1))
  }
  expect_identical(hung, integer(0), label = "the children still running after 60 s")
  for (pid in names(results)) {
    child <- results[[pid]]
    if (inherits(child, "try-error")) {
      fail(paste("child", pid, "failed:", child))
      next
    }
    expect_identical(child$pid, as.integer(pid))
    expect_identical(child[c("multi", "dcr")], in_parent[c("multi", "dcr")])
  }
})
