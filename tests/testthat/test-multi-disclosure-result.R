# multi.disclosure()'s own arguments (R/multi-disclosure-impl.R).

keys4 <- c("sex", "age", "region", "placesize")

test_that("a target missing from any synthesis, the first included, is an error naming both", {
  for (j in c(1, 3)) {
    syn <- sd2011_synds5$syn
    syn[[j]]$ls <- NULL
    expect_error(multi.disclosure(syn, sd2011, keys = keys4, print.flag = FALSE, plot = FALSE),
                 sprintf("Synthesis %d must have every key and target; \"ls\" is missing", j), fixed = TRUE)
  }
  # Missing from every synthesis: not a target (synthpop's default targets are the
  # synthetic variables).
  syn <- lapply(sd2011_synds5$syn, function(s) s[names(s) != "ls"])
  md <- multi.disclosure(syn, sd2011, keys = keys4, print.flag = FALSE, plot = FALSE)
  expect_false("ls" %in% names(md$output.list))
})
