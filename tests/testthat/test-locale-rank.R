# locale_rank() against rank(): the same ranks whatever the guess, in every collation
# at hand, on labels made to defeat an order by bytes (case, accents, punctuation, "|"
# inside labels, prefixes, ties).

random_labels <- function(n, pool) {
  vapply(seq_len(n), function(i) paste(sample(pool, sample(0:5, 1), replace = TRUE), collapse = ""), "")
}

collations <- function() {
  here <- Sys.getlocale("LC_COLLATE")
  candidates <- unique(c(here, "C.UTF-8", "en_US.UTF-8", "C"))
  Filter(function(l) {
    ok <- suppressWarnings(Sys.setlocale("LC_COLLATE", l)) != ""
    Sys.setlocale("LC_COLLATE", here)
    ok
  }, candidates)
}

test_that("locale_rank() gives rank()'s ranks with a right guess, a wrong guess and ties", {
  here <- Sys.getlocale("LC_COLLATE")
  withr::defer(Sys.setlocale("LC_COLLATE", here))
  pools <- list(plain = c(letters[1:4], LETTERS[1:3], 0:3),
                tricky = c("a", "A", "b", "B", "\u00e9", "\u00c9", "e", "E", " ", "-", "_", "|", ".", ",", "1", "10", "9"))
  set.seed(20261128)
  for (collation in collations()) {
    Sys.setlocale("LC_COLLATE", collation)
    for (pool in pools) {
      for (i in 1:150) {
        x <- random_labels(sample(0:40, 1), pool)
        if (i %% 3 == 0) x <- unique(x)
        want <- rank(x, ties.method = "min")
        bytes <- order(x, method = "radix")
        expect_identical(locale_rank(x, bytes), want, label = paste(collation, "bytes:", paste(x, collapse = "/")))
        expect_identical(locale_rank(x, sample.int(length(x))), want, label = paste(collation, "shuffled"))
        # The locale's own order as the guess: the ranks are its positions.
        expect_identical(locale_rank(x, order(want, seq_along(x))), want, label = paste(collation, "right guess"))
      }
    }
    # Distinct labels already in the locale's order need no rank(): the guess's positions.
    x <- sort(unique(random_labels(60, pools$tricky)))
    expect_identical(locale_rank(x, seq_along(x)), seq_along(x))
  }
})

test_that("locale_rank() takes empty and single labels", {
  expect_identical(locale_rank(character(0), integer(0)), integer(0))
  expect_identical(locale_rank("a", 1L), 1L)
})
