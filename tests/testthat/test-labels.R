# Labels in UTF-8, normal form C; text not valid in its encoding is an error (R/labels.R).

keys4 <- c("sex", "age", "region", "placesize")

test_that("a label in another Unicode form (NFD against NFC) is the same label", {
  composed <- "\u00f3"            # ó
  decomposed <- "o\u0301"         # o + combining acute
  orig <- sd2011
  levels(orig$region) <- paste0(levels(orig$region), composed)
  syn <- sd2011_synds$syn
  levels(syn$region) <- paste0(levels(syn$region), decomposed)
  expect_false(identical(levels(orig$region), levels(syn$region)))
  expect_no_warning(d <- disclosure(syn, orig, keys = keys4, target = "depress", print.flag = FALSE))
  ref <- disclosure(sd2011_synds$syn, sd2011, keys = keys4, target = "depress", print.flag = FALSE)
  expect_identical(d$ident, ref$ident)
  expect_identical(d$attrib, ref$attrib)
  # Character columns, and a user's label in the other form, likewise.
  k <- rep(c("a", "b"), 20)
  orig_chr <- data.frame(k = paste0(k, composed), t = factor(ifelse(k == "a", "x", "y")))
  syn_chr <- data.frame(k = paste0(k, decomposed), t = factor(ifelse(k == "a", "x", "y")))
  d <- disclosure(syn_chr, orig_chr, keys = "k", target = "t", print.flag = FALSE)
  expect_identical(d$attrib$DiSCO, 100)
  excluded <- lapply(c(composed, decomposed), function(form) {
    disclosure(syn_chr, orig_chr, keys = "k", target = "t", print.flag = FALSE,
               exclude.keys = "k", exclude.keylevs = paste0("a", form), exclude.targetlevs = "x")
  })
  expect_identical(excluded[[1]]$attrib$DiSCO, 50)
  expect_identical(excluded[[2]]$attrib, excluded[[1]]$attrib)
})

test_that("bytes that are not valid in their declared encoding are an error naming the column and a value", {
  orig <- data.frame(k = c("ok", "bad\xff", "ok"), t = c("x", "y", "x"))
  syn <- data.frame(k = c("ok", "ok", "ok"), t = c("x", "y", "x"))
  expect_error(disclosure(syn, orig, keys = "k", target = "t", print.flag = FALSE),
               "\"k\" has text that is not valid.*bad<ff>")
  f <- factor(c("ok", "bad\xfe"))
  orig$k <- f[c(1, 2, 1)]
  expect_error(disclosure(syn, orig, keys = "k", target = "t", print.flag = FALSE), "bad<fe>")
  # latin1 text, declared so, is valid and matches its UTF-8 spelling.
  caf <- "caf\xe9"
  Encoding(caf) <- "latin1"
  orig$k <- c(caf, "ok", caf)
  syn$k <- c("caf\u00e9", "ok", "ok")
  d <- disclosure(syn, orig, keys = "k", target = "t", print.flag = FALSE)
  expect_identical(d$ident$UiO, 100 / 3)
  expect_identical(d$ident$repU, 0)
})
