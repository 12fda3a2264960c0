# with_seed() (R/random-state.R): reproducible draws that leave the session's random
# numbers as they were; a NULL seed draws from the session's stream.

test_that("a seed gives set.seed()'s draws and puts the session's random state back", {
  set.seed(99)
  before <- .Random.seed
  got <- synthrisk:::with_seed(7, stats::runif(3))
  expect_identical(.Random.seed, before)
  set.seed(7)
  expect_identical(got, stats::runif(3))
})

test_that("a NULL seed draws from the session's stream, as synthpop does", {
  set.seed(5)
  got <- c(synthrisk:::with_seed(NULL, stats::runif(2)), stats::runif(1))
  set.seed(5)
  expect_identical(got, stats::runif(3))
})

test_that("a session without random state is left without one", {
  code <- paste("had <- exists('.Random.seed', globalenv());",
                "invisible(synthrisk:::with_seed(1, stats::runif(1)));",
                "cat(had, exists('.Random.seed', globalenv()))")
  out <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(code)), stdout = TRUE,
                 env = paste0("R_LIBS=", paste(.libPaths(), collapse = .Platform$path.sep)))
  expect_identical(out, "FALSE FALSE")
})
