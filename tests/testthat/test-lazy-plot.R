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

test_that("attrib.plot is drawn once for an object read twice, and again for a changed object", {
  md <- multi.disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region"), targets = c("depress", "ls"),
                         plot = FALSE, print.flag = FALSE)
  drawn <- 0L
  trace("attrib_plot", function() drawn <<- drawn + 1L, print = FALSE, where = asNamespace("synthrisk"))
  on.exit(untrace("attrib_plot", where = asNamespace("synthrisk")))
  first <- md$attrib.plot
  second <- md[["attrib.plot"]]
  expect_identical(drawn, 1L)
  expect_identical(first, second)
  changed <- md
  changed$digits <- 4
  invisible(changed$attrib.plot)
  expect_identical(drawn, 2L)
  # The object holds no cache: it is unchanged by the reads.
  expect_null(.subset2(md, "attrib.plot"))
})
