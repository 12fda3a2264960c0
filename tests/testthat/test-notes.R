# Notes of a result: where a number differs from what synthpop gives or a user would
# expect, the result says why (R/notes.R).

keys4 <- c("sex", "age", "region", "placesize")

test_that("ngroups_targets named by target: the note says synthpop 1.9-3 groups every numeric target", {
  md <- multi.disclosure(sd2011_synds5, sd2011, keys = keys4, ngroups_targets = c(income = 20), print.flag = FALSE,
                         plot = FALSE)
  note <- md$notes[["ngroups_targets"]]
  expect_match(note, "ngroups_targets names the targets it groups ('income')", fixed = TRUE)
  expect_match(note, "groups every numeric target, here also 'depress', so its numbers for it differ", fixed = TRUE)
  expect_true(any(grepl("ignores the names", capture.output(print(md, plot = FALSE)), fixed = TRUE)))
  # Unnamed (synthpop's meaning), or no other numeric target: no note.
  md <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, ngroups_targets = 20, print.flag = FALSE, plot = FALSE)
  expect_false("ngroups_targets" %in% names(md$notes))
  md <- multi.disclosure(sd2011_synds, sd2011, keys = keys4, targets = c("income", "workab"),
                         ngroups_targets = c(income = 20), print.flag = FALSE, plot = FALSE)
  expect_false("ngroups_targets" %in% names(md$notes))
})

test_that("a numeric target with nearly a value per record gets a note suggesting grouping", {
  set.seed(7)
  n <- 2000
  orig <- data.frame(k = factor(sample(letters[1:4], n, TRUE)), x = runif(n), few = sample(1:5, n, TRUE))
  syn <- data.frame(k = factor(sample(letters[1:4], n, TRUE)), x = sample(orig$x), few = sample(1:5, n, TRUE))
  d <- disclosure(syn, orig, keys = "k", target = "x", print.flag = FALSE)
  expect_identical(d$attrib$DiSCO, 0)
  expect_match(d$notes[["nearly_unique"]], "'x' is a numeric target with nearly a value per record", fixed = TRUE)
  expect_match(d$notes[["nearly_unique"]], "ngroups_target", fixed = TRUE)
  expect_true(any(grepl("nearly a value per record", capture.output(print(d)), fixed = TRUE)))
  md <- multi.disclosure(syn, orig, keys = "k", print.flag = FALSE, plot = FALSE)
  expect_match(md$notes[["nearly_unique"]], "'x' is a numeric target", fixed = TRUE)
  expect_match(md$notes[["nearly_unique"]], "ngroups_targets = c(x = 10)", fixed = TRUE)
  # Grouped, or with few values: no note.
  expect_false("nearly_unique" %in% names(disclosure(syn, orig, keys = "k", target = "x", ngroups_target = 10, print.flag = FALSE)$notes))
  expect_false("nearly_unique" %in% names(disclosure(syn, orig, keys = "k", target = "few", print.flag = FALSE)$notes))
  # Counted on the original's values: synthetic values of their own do not make a note.
  syn_new <- syn
  syn_new$few <- runif(n)
  orig_few <- orig
  few_new <- suppressWarnings(disclosure(syn_new, orig_few, keys = "k", target = "few", print.flag = FALSE))
  expect_false("nearly_unique" %in% names(few_new$notes))
})

test_that("dates on both sides are not reported as made factors", {
  orig <- data.frame(k = factor(rep(c("a", "b"), 10)), when = as.Date("2020-01-01") + rep(0:4, 4),
                     t = factor(rep(c("x", "y"), each = 10)))
  syn <- orig[sample(20), ]
  d <- disclosure(syn, orig, keys = c("k", "when"), target = "t", print.flag = FALSE)
  expect_false("adjusted" %in% names(d$notes))
  expect_false(any(grepl("Made 'when'", capture.output(print(d)), fixed = TRUE)))
  # Text against a factor is adjusted, as synthpop's synorig.compare does.
  syn$k <- as.character(syn$k)
  d <- disclosure(syn, orig, keys = c("k", "when"), target = "t", print.flag = FALSE)
  expect_match(d$notes[["adjusted"]], "Made 'k' factor", fixed = TRUE)
})

# synthpop 1.9-3's rule for an ungrouped numeric target, written out: each side's table
# rows are its own levels in numeric order; a side lacking some of the pair's levels
# gets them added and its rows sorted as text. TRUE when the two row orders differ.
synthpop_rows_differ <- function(orig, syn) {
  own <- function(x) levels(factor(x[!is.na(x)]))
  all_levels <- union(own(orig), own(syn))
  rows <- function(x) if (all(all_levels %in% own(x))) own(x) else sort(all_levels)
  !identical(rows(orig), rows(syn))
}

test_that("the one-sided note appears exactly when synthpop's rows misalign (random cases)", {
  set.seed(31)
  for (case in seq_len(60)) {
    values <- sample(list(c(1, 2, 3), c(5, 9, 10, 11), c(2, 20, 100), c(0.5, 1.5, 10.5)), 1)[[1]]
    orig <- data.frame(k = sample(c("a", "b"), 30, TRUE), t = sample(values, 30, TRUE))
    m <- sample(1:3, 1)
    syn <- lapply(seq_len(m), function(j) {
      pool <- if (runif(1) < 0.5) values[-sample(length(values), 1)] else c(values, max(values) * 10)
      data.frame(k = sample(c("a", "b"), 25, TRUE), t = sample(pool, 25, TRUE))
    })
    d <- suppressWarnings(disclosure(if (m == 1) syn[[1]] else syn, orig, keys = "k", target = "t", print.flag = FALSE))
    expected <- any(vapply(syn, function(s) synthpop_rows_differ(orig$t, s$t), logical(1)))
    expect_identical("one_sided" %in% names(d$notes), expected, info = paste("case", case))
  }
})
