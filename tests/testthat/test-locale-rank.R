# locale_rank() against rank(): the same ranks whatever the guess, in every collation
# at hand, on labels made to defeat an order by bytes (case, accents, punctuation, "|"
# inside labels, prefixes, ties).

random_labels <- function(n, pool) {
  vapply(seq_len(n), function(i) paste(sample(pool, sample(0:5, 1), replace = TRUE), collapse = ""), "")
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

test_that("locale_rank() by group orders each group as its own rank() does", {
  here <- Sys.getlocale("LC_COLLATE")
  withr::defer(Sys.setlocale("LC_COLLATE", here))
  pool <- c("a", "A", "b", "B", "\u00e9", "\u00c9", "e", "E", " ", "-", "|", ".", "1", "10", "9")
  set.seed(20261129)
  for (collation in collations()) {
    Sys.setlocale("LC_COLLATE", collation)
    for (i in 1:200) {
      x <- random_labels(sample(0:60, 1), pool)
      group <- sample.int(sample(1:4, 1), length(x), replace = TRUE)
      # Guesses ordered by group first: by bytes within it (often the locale's), shuffled
      # within it (seldom), and the locale's own order (always).
      guesses <- list(bytes = order(group, x, method = "radix"), shuffled = order(group, runif(length(x))),
                      right = order(group, rank(x, ties.method = "min"), seq_along(x)))
      for (kind in names(guesses)) {
        got <- locale_rank(x, guesses[[kind]], group = group)
        for (g in unique(group)) {
          at <- which(group == g)
          expect_identical(rank(got[at], ties.method = "min"), rank(x[at], ties.method = "min"),
                           label = paste(collation, kind, "group", g, paste(x[at], collapse = "/")))
        }
      }
    }
  }
  expect_identical(locale_rank(character(0), integer(0), group = integer(0)), integer(0))
  expect_identical(locale_rank("a", 1L, group = 1L), 1L)
})
