# The golden outputs of synthpop 1.9-3 and the objects their calls used.
golden_cases <- function() {
  readRDS(test_path("fixtures", "sd2011_golden.rds"))
}

golden_object <- function(name) {
  switch(name,
         s1 = sd2011_synds,
         s5 = sd2011_synds5,
         s1_df = sd2011_synds$syn,
         s5_list = sd2011_synds5$syn,
         stop("unknown golden object ", name))
}

run_golden <- function(case, n_threads = NULL) {
  fn <- switch(case$fn, disclosure = synthrisk::disclosure, multi.disclosure = synthrisk::multi.disclosure)
  do.call(fn, c(list(golden_object(case$object), sd2011), case$args, list(print.flag = FALSE, n_threads = n_threads)))
}

# Numbers equal to 1e-9 with NA/NaN in the same places.
expect_numbers <- function(object, expected, label = "") {
  object <- unname(as.matrix(object))
  expected <- unname(as.matrix(expected))
  same_shape <- identical(dim(object), dim(expected)) && identical(is.na(object), is.na(expected))
  ok <- !is.na(expected)
  worst <- if (same_shape) max(c(0, abs(object[ok] - expected[ok]))) else Inf
  expect(same_shape && worst < 1e-9,
         sprintf("%s: differs from the expected numbers (largest difference %g%s).", label, worst,
                 if (same_shape) "" else "; shapes or NAs differ"))
}
