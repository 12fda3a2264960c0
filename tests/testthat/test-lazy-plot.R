# attrib.plot is built on first access, not by multi.disclosure() itself.

test_that("attrib.plot is drawn when read, and equals the plot autoplot() draws", {
  md <- multi.disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region"), plot = FALSE, print.flag = FALSE)
  expect_null(.subset2(md, "attrib.plot"))
  expect_s3_class(md$attrib.plot, "ggplot")
  expect_s3_class(md[["attrib.plot"]], "ggplot")
  expect_equal(md$attrib.plot$data, autoplot(md)$data)
  expect_identical(md$keys, .subset2(md, "keys"))
})

test_that("a plot held by the object (as synthpop's objects hold theirs) is returned as it is", {
  md <- multi.disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region"), print.flag = FALSE)
  held <- unclass(md)
  held$attrib.plot <- "a plot made elsewhere"
  class(held) <- "multi.disclosure"
  expect_identical(held$attrib.plot, "a plot made elsewhere")
})
