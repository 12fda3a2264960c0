# Whether synthpop 1.9-3's synorig.compare() would adjust data-frame inputs
# (R/synorig-rule.R): it decides the order of the default targets and a note.

test_that("the variables synorig.compare() would change are found, in the original's order", {
  orig <- data.frame(a = c(1, 2, 3), f = factor(c("x", "y", "x")), g = factor(c("p", NA, "q")), n = 1:3)
  same <- orig
  expect_identical(synthrisk:::synorig_adjusted_variables(same, orig), character(0))
  syn <- data.frame(n = c(1, 2, 3),                                  # double beside an integer
                    g = factor(c("p", "q", "q")),                    # NA in the original factor only
                    f = factor(c("x", "z", "x")),                    # levels differ
                    a = c(1, NA, 3))                                 # NA on the synthetic side only
  expect_identical(synthrisk:::synorig_adjusted_variables(syn, orig), c("a", "f", "g", "n"))
  text <- data.frame(a = c(1, 2, 3), f = c("x", "y", "x"), g = orig$g, n = 1:3)
  expect_identical(synthrisk:::synorig_adjusted_variables(text, orig), "f")
  # Only plain data frames are judged: synthpop takes nothing else.
  expect_identical(synthrisk:::synorig_adjusted_variables(list(a = 1), orig), character(0))
})

test_that("the note on a list cut to its first synthesis appears only when synthpop would cut it", {
  expect_null(synthrisk:::synorig_cut_note(character(0), 5))
  expect_null(synthrisk:::synorig_cut_note("f", 1))
  note <- synthrisk:::synorig_cut_note(c("f", "g"), 3)
  expect_match(note, "use only the first of the 3 syntheses; synthrisk adjusts and counts all 3.", fixed = TRUE)
  expect_match(synthrisk:::synorig_cut_note(letters[1:7], 2), "('a', 'b', 'c', 'd', 'e' and 2 more)", fixed = TRUE)
})

test_that("default targets follow the first synthesis's columns, or the original's once synthpop would adjust", {
  set.seed(3)
  orig <- data.frame(k = factor(sample(c("a", "b"), 60, TRUE)), t1 = factor(sample(c("x", "y"), 60, TRUE)),
                     t2 = factor(sample(c("u", "v"), 60, TRUE)))
  syn <- orig[sample.int(60), c("t2", "k", "t1")]
  md <- multi.disclosure(syn, orig, keys = "k", print.flag = FALSE, plot = FALSE)
  expect_identical(names(md$output.list), c("t2", "t1"))
  syn$t1 <- as.character(syn$t1)
  md <- multi.disclosure(syn, orig, keys = "k", print.flag = FALSE, plot = FALSE)
  expect_identical(names(md$output.list), c("t1", "t2"))
})
