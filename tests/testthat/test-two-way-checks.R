# two_way_checks(): the glue's tables against the R construction they replaced
# (helper-two-way-reference.R), identical to the last attribute, on SD2011 and on random
# data whose labels defeat an order by bytes (case, accents, "|" inside labels, labels
# shared by two keys, NA), in every collation at hand, with named and unnamed keys.

# The core's counts of a multi.disclosure() request and what two_way_checks() is given.
checks_inputs <- function(syn, data, keys, targets, thresh_2way) {
  request <- synthrisk:::disclosure_request("multi", syn, NULL, data, keys = keys, targets = targets,
                                            thresh_2way = thresh_2way, print.flag = FALSE, plot = FALSE)
  counted <- synthrisk:::run_request(request)
  list(raws = counted$raw$train[request$targets], m = length(syn), targets = request$targets, keys = request$keys,
       labels = counted$enc$labels, thresh = request$limits$thresh_2way)
}

expect_same_tables <- function(inputs, label) {
  got <- do.call(two_way_checks, inputs)
  want <- do.call(two_way_checks_reference, inputs)
  expect_identical(got, want, label = label)
}

test_that("SD2011's 2-way tables are the R construction's, at synthpop's thresholds and with every pair shown", {
  keys <- c("sex", "age", "region", "placesize")
  for (thresh in list(c(4, 80), c(1, 0), c(2, 30))) {
    inputs <- checks_inputs(sd2011_synds5$syn, sd2011, keys, c("depress", "marital", "workab", "ls"), thresh)
    expect_same_tables(inputs, paste("SD2011, thresh_2way", paste(thresh, collapse = "/")))
    # Some tables are shown, so the comparison compares tables.
    expect_true(any(vapply(unlist(inputs_tables <- do.call(two_way_checks, inputs), recursive = FALSE),
                           is.data.frame, logical(1))))
  }
  named <- checks_inputs(sd2011_synds5$syn, sd2011, c(s = "sex", a = "age", r = "region", p = "placesize"),
                         c("marital", "workab"), c(1, 0))
  expect_same_tables(named, "SD2011, named keys")
})

test_that("random labels that bytes order otherwise than the locale give the R construction's tables", {
  here <- Sys.getlocale("LC_COLLATE")
  withr::defer(Sys.setlocale("LC_COLLATE", here))
  pool <- c("a", "A", "b", "B", "\u00e9", "\u00c9", "e", " ", "-", "|", "1", "10", "9", "ab", "a b", "NA")
  set.seed(20261205)
  withr::defer(if (capabilities("ICU")) icuSetCollate(locale = "default"), priority = "last")
  fallbacks <- 0
  caseless <- FALSE
  # Each collation at hand, and ICU's English one (testthat runs in the C collation,
  # where R compares bytes).
  icu <- if (capabilities("ICU") && suppressWarnings(Sys.setlocale("LC_COLLATE", "C.UTF-8")) != "") "ICU en_US"
  Sys.setlocale("LC_COLLATE", here)
  for (collation in c(collations(), icu)) {
    if (identical(collation, "ICU en_US")) {
      Sys.setlocale("LC_COLLATE", "C.UTF-8")
      icuSetCollate(locale = "en_US")
    } else {
      Sys.setlocale("LC_COLLATE", collation)
    }
    caseless <- caseless || "a" < "B"
    for (i in 1:25) {
      n <- sample(30:200, 1)
      m <- sample(1:3, 1)
      levels_of <- function(k) unique(sample(pool, k))
      shared <- levels_of(sample(2:5, 1))
      make <- function(rows) {
        data.frame(k1 = factor(sample(shared, rows, replace = TRUE), levels = shared),
                   # k2 takes k1's labels: two keys share a label.
                   k2 = factor(sample(shared, rows, replace = TRUE), levels = shared),
                   k3 = sample(c(1L, 2L, NA), rows, replace = TRUE),
                   t1 = factor(sample(levels_of(4), rows, replace = TRUE)),
                   t2 = sample(c(pool[1:3], NA), rows, replace = TRUE),
                   stringsAsFactors = FALSE)
      }
      data <- make(n)
      syn <- lapply(seq_len(m), function(j) make(n))
      keys <- c("k1", "k2", "k3")
      if (i %% 3 == 0) keys <- c(first = "k1", second = "k2", third = "k3")
      thresh <- c(sample(0:2, 1), sample(c(0, 20, 50, 80), 1))
      inputs <- checks_inputs(syn, data, keys, c("t1", "t2"), thresh)
      expect_same_tables(inputs, sprintf("%s case %d", collation, i))
      # Whether this case's labels needed the locale's ranks.
      made <- rust_two_way_tables(list(pairs = lapply(inputs$raws, .subset2, "two_way"),
                                       target_labels = unname(inputs$labels[inputs$targets]),
                                       key_labels = unname(inputs$labels[inputs$keys]), keys = unname(inputs$keys),
                                       key_names = names(inputs$keys)), m, thresh[2])
      in_bytes <- seq_along(made$labels)
      fallbacks <- fallbacks + !identical(locale_rank(made$labels, in_bytes, group = made$label_target), in_bytes)
    }
  }
  # The locale's ranks were needed somewhere, in a collation that orders "a" before "B"
  # (ICU's; bytes put "B" first), unless none is at hand.
  if (caseless) expect_gt(fallbacks, 0)
})

test_that("the glue refuses pairs and ranks that are not as the protocol says", {
  inputs <- checks_inputs(sd2011_synds$syn, sd2011, c("sex", "age"), "marital", c(1, 0))
  handle <- list(pairs = lapply(inputs$raws, .subset2, "two_way"), target_labels = unname(inputs$labels["marital"]),
                 key_labels = unname(inputs$labels[c("sex", "age")]), keys = c("sex", "age"), key_names = NULL)
  made <- rust_two_way_tables(handle, 1, 0)
  expect_gt(length(made$labels), 0)
  expect_error(rust_result(rust_two_way_tables(handle, 1, 0, ranks = 1L)), "ranks")
  short <- handle
  short$key_labels <- short$key_labels[1]
  expect_error(rust_result(rust_two_way_tables(short, 1, 0)), "keys")
  bad <- handle
  bad$pairs[[1]]$key_level <- bad$pairs[[1]]$key_level + 1000L
  expect_error(rust_result(rust_two_way_tables(bad, 1, 0)), "level")
})
