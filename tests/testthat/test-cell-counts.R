# Counted cells (cell_counts()): every number equals that of the records the cells
# stand for, exclusions, grouping and holdout included.

keys4 <- c("sex", "age", "region", "placesize")

test_that("weighted breaks equal classInt's on the repeated values", {
  set.seed(3)
  for (i in random_cases(400, cran = 40)) {
    k <- sample(2:25, 1)
    values <- switch(i %% 3 + 1,
                     sort(unique(sample(-40:40, k))),
                     sort(unique(as.double(sample(0:9, k, replace = TRUE)))),
                     sort(unique(round(stats::rnorm(k) * 10^sample(-2:5, 1), sample(0:3, 1)))))
    if (length(values) < 2) next
    counts <- sample(c(1:5, 40), length(values), replace = TRUE)
    expanded <- rep(values, counts)[sample.int(sum(counts))]
    for (n in c(2:6, length(values) - 1, length(values), length(values) + 3)) {
      if (n < 2) next
      for (style in c("quantile", "equal")) {
        want <- suppressWarnings(classInt::classIntervals(expanded, n = n, style = style)$brks)
        expect_identical(counted_breaks(values, as.double(counts), n, style), want,
                         label = sprintf("case %d, n = %d, %s", i, n, style))
      }
    }
  }
})

test_that("disclosure() on counted cells equals disclosure() on the records, on 300 random cases", {
  local_quiet_labels()
  for (seed in random_cases(300)) {
    case <- random_case(seed)
    set.seed(seed)
    vars <- intersect(names(case$data), c(case$args$keys, "t"))
    which_counted <- sample(c("both", "data", "syn"), 1)
    data <- if (which_counted != "syn") as_cells(case$data, vars, split = TRUE) else case$data
    syn <- if (which_counted != "data") lapply(case$syn, as_cells, vars = vars, split = TRUE) else case$syn
    args <- c(case$args, list(print.flag = FALSE))
    want <- do.call(disclosure, c(list(case$syn, case$data), args))
    got <- do.call(disclosure, c(list(syn, data), args))
    expect_equal(result_parts(got), result_parts(want), tolerance = 1e-9, label = paste("seed", seed))
  }
})

test_that("the holdout baseline with counted cells equals that of the records, grouped keys included", {
  skip_on_cran()
  local_quiet_labels()
  for (seed in random_cases(150)) {
    case <- random_holdout_case(seed)
    set.seed(seed)
    vars <- intersect(names(case$data), c(case$args$keys, "t"))
    args <- c(case$args, list(print.flag = FALSE))
    want <- do.call(disclosure, c(list(case$syn, case$data), args, list(control = case$control)))
    got <- do.call(disclosure, c(list(lapply(case$syn, as_cells, vars = vars, split = TRUE),
                                      as_cells(case$data, vars, split = TRUE)),
                                 args, list(control = as_cells(case$control, vars, split = TRUE))))
    expect_equal(result_parts(got), result_parts(want), tolerance = 1e-9, label = paste("seed", seed))
  }
})

test_that("multi.disclosure() and tau_curve() on counted SD2011 equal the records (m = 5, grouping, exclusions)", {
  vars <- names(sd2011)
  syn <- lapply(sd2011_synds5$syn, as_cells, vars = vars, split = TRUE)
  data <- as_cells(sd2011, vars, split = TRUE)
  args <- list(keys = keys4, cont.na = list(income = -8), ngroups_targets = c(income = 10, depress = 4),
               ngroups_keys = c(0, 5, 0, 0), not.targetslev = list(workab = "NO"),
               usetargetsNA = c(TRUE, FALSE, TRUE, TRUE, TRUE), usekeysNA = c(TRUE, TRUE, FALSE, TRUE),
               exclude.keys = list(marital = "sex"), exclude.keylevs = list(marital = "MALE"),
               exclude.targetlevs = list(marital = "SINGLE"), exclude_ov_denom_lim = TRUE, denom_lim = 3,
               print.flag = FALSE, plot = FALSE)
  want <- do.call(multi.disclosure, c(list(sd2011_synds5$syn, sd2011), args))
  got <- do.call(multi.disclosure, c(list(syn, data), args))
  expect_equal(multi_parts(got), multi_parts(want), tolerance = 1e-9)
  expect_identical(got$grouping$income$breaks, want$grouping$income$breaks)
  expect_identical(got$input$source, rep("counted cells", 6))
  expect_identical(got$input$records, rep(5000, 6))
  expect_identical(got$input$rows, as.double(c(nrow(data), vapply(syn, nrow, integer(1)))))

  tau_args <- list(keys = keys4, targets = c("depress", "income"), cont.na = list(income = -8),
                   ngroups_targets = c(income = 10), tau = c(0, 0.3, 0.7, 1))
  want_tau <- do.call(tau_curve, c(list(sd2011_synds5$syn, sd2011), tau_args))
  got_tau <- do.call(tau_curve, c(list(syn, data), tau_args))
  expect_equal(as.data.frame(got_tau), as.data.frame(want_tau), tolerance = 1e-9)
  expect_equal(attr(got_tau, "measures"), attr(want_tau, "measures"), tolerance = 1e-9)
  expect_identical(attr(got_tau, "n_orig"), 5000L)
})

test_that("the SD2011 fixtures reproduce synthpop's numbers from counted cells", {
  golden <- golden_cases()
  for (name in grep("^c", names(golden), value = TRUE)) {
    case <- golden[[name]]
    object <- golden_object(case$object)
    syn <- if (inherits(object, "synds")) object$syn else object
    syn <- if (is.data.frame(syn)) list(syn) else syn
    cont.na <- if (inherits(object, "synds")) object$cont.na else case$args$cont.na
    args <- case$args
    args$cont.na <- NULL
    vars <- c(args$keys, args$target)
    # The cells hold only the keys and target: codes of other variables are not theirs
    # (naming a variable not in data is an error, as in synthpop).
    cont.na <- cont.na[intersect(names(cont.na), vars)]
    got <- do.call(disclosure, c(list(lapply(syn, as_cells, vars = vars), as_cells(sd2011, vars)), args,
                                 list(cont.na = cont.na, print.flag = FALSE)))
    want <- do.call(disclosure, c(list(golden_object(case$object), sd2011), case$args, list(print.flag = FALSE)))
    expect_equal(result_parts(got), result_parts(want), tolerance = 1e-9, label = name)
    expect_golden_numbers(got, case$expected, name)
  }
})

test_that("cell_counts() checks its count column and drops cells of count 0", {
  d <- data.frame(k = c("a", "b", "c"), t = c("x", "y", "x"), n = c(2, 0, 3))
  cells <- cell_counts(d)
  expect_s3_class(cells, "synthrisk_cell_counts")
  expect_identical(cells$n, c(2L, 3L))
  expect_identical(cells$k, c("a", "c"))
  expect_identical(d$n, c(2, 0, 3))
  out <- capture.output(print(cells))
  expect_identical(out[1], "# A cell_counts table: 2 cells, 5 records, 3 columns (counts in 'n')")
  expect_length(out, 4)
  expect_error(cell_counts(d, n = "m"), "`n` names \"m\", not a column of `x`")
  expect_error(cell_counts(d, n = 1), "must be the name of the count column")
  expect_error(cell_counts(transform(d, n = c(1, -1, 2))), "Row 2 has `-1`")
  expect_error(cell_counts(transform(d, n = c(1, NA, 2))), "Row 2 has `NA`")
  expect_error(cell_counts(transform(d, n = c(1, 1.5, 2))), "whole numbers of records \\(0 or more\\)")
  expect_error(cell_counts(transform(d, n = c("1", "2", "3"))), "It is a character vector")
  expect_error(cell_counts(transform(d, n = c(2^31, 1, 1))), "more than synthrisk can count")
  expect_error(cell_counts(as.list(d)), "`x` must be a data frame")
  # A tibble's counted cells are a plain data frame.
  tb <- tibble::tibble(k = c("a", "b"), n = 1:2)
  expect_identical(class(cell_counts(tb)), c("synthrisk_cell_counts", "data.frame"))
})

test_that("counted cells with counts of 0 or a lost count column are clear errors", {
  data <- as_cells(sd2011, c(keys4, "depress"))
  bad <- data
  bad$n[3] <- 0L
  expect_error(disclosure(sd2011_synds, bad, keys = keys4, target = "depress", print.flag = FALSE),
               "The count column \"n\" of `data` must hold whole numbers of records \\(1 or more\\)")
  lost <- data
  attr(lost, "counts") <- "count"
  expect_error(disclosure(sd2011_synds, lost, keys = keys4, target = "depress", print.flag = FALSE),
               "`data` is counted cells \\(<cell_counts>\\) without its count column \"count\"")
  expect_error(disclosure(sd2011_synds, data, keys = keys4, target = "n", print.flag = FALSE),
               "\"n\" is the count column of counted cells")
})

test_that("multi.disclosure() does not take the count column for a target", {
  vars <- c(keys4, "depress", "ls")
  md <- multi.disclosure(as_cells(sd2011_synds$syn, vars), as_cells(sd2011, vars), keys = keys4,
                         print.flag = FALSE, plot = FALSE)
  expect_identical(names(md$output.list), c("depress", "ls"))
})

test_that("the printout says how many records came in how many cells", {
  data <- as_cells(sd2011, c(keys4, "depress"))
  d <- disclosure(sd2011_synds, data, keys = keys4, target = "depress", print.flag = FALSE)
  expect_identical(d$input$source, c("counted cells", "records"))
  out <- paste(capture.output(print(d)), collapse = " ")
  expect_match(out, sprintf("Counted cells: original: 5,000 records in %s cells.", format(nrow(data), big.mark = ",")),
               fixed = TRUE)
  printed <- capture.output(d2 <- disclosure(sd2011_synds, data, keys = keys4, target = "depress"))
  expect_match(printed[1], "^Counted cells: original: 5,000 records in")
  records <- disclosure(sd2011_synds, sd2011, keys = keys4, target = "depress", print.flag = FALSE)
  expect_no_match(paste(capture.output(print(records)), collapse = " "), "Counted")
})

test_that("analyses that need records refuse counted cells", {
  cells <- as_cells(sd2011, c(keys4, "depress"))
  syn_cells <- as_cells(sd2011_synds$syn, c(keys4, "depress"))
  expect_error(record_risk(sd2011_synds, cells, keys4, target = "depress"),
               "`record_risk\\(\\)` needs the records themselves; `data` is counted cells")
  expect_error(record_risk(list(syn_cells), sd2011, keys4), "`object` is counted cells")
  expect_error(identification_risk(syn_cells, cells, keys = "sex", syn.vars = "depress"), "needs the records")
  expect_error(replicated.uniques(syn_cells, sd2011, keys4), "needs the records")
  expect_error(remove_replicated_uniques(sd2011_synds$syn, cells, keys4), "needs the records")
  expect_error(holdout_split(cells), "`holdout_split\\(\\)` needs the records")
  expect_error(size_curve(syn_cells, sd2011, keys4, targets = "depress"), "`size_curve\\(\\)` needs the records")
})

test_that("print() of counted cells is a summary and a head, as a tibble's (issue 19)", {
  vars <- c(keys4, "depress")
  d <- sd2011[vars]
  d[] <- lapply(d, function(x) addNA(factor(x), ifany = TRUE))
  cell <- interaction(d, drop = TRUE)
  first <- !duplicated(cell)
  cells <- cell_counts(cbind(d[first, , drop = FALSE], n = tabulate(cell)[cell[first]]))
  n_cells <- nrow(cells)
  expect_gt(n_cells, 1000)
  out <- capture.output(print(cells), type = "output")
  big <- function(v) format(v, big.mark = ",")
  expect_identical(out[1], sprintf("# A cell_counts table: %s cells, 5,000 records, 6 columns (counts in 'n')", big(n_cells)))
  # A header line, the first 10 cells, a footer: not one line per cell.
  expect_lte(length(out), 15)
  expect_identical(out[length(out) - 1], sprintf("# ... %s more cells", big(n_cells - 10)))
  expect_match(out[length(out)], "print(x, rows = Inf)", fixed = TRUE)
  head_lines <- capture.output(print(structure(cells, class = "data.frame", counts = NULL)[1:10, ]))
  expect_identical(out[2:12], head_lines)
  # rows = chooses how many; rows = Inf prints every cell; the object is returned unchanged.
  expect_length(capture.output(print(cells, rows = 3)), 1 + 4 + 2)
  expect_length(capture.output(print(cells, rows = Inf)), 1 + 1 + n_cells)
  capture.output(visible <- withVisible(print(cells))$visible)
  expect_false(visible)
  printed <- NULL
  capture.output(printed <- print(cells))
  expect_identical(printed, cells)
  expect_error(print(cells, rows = -1), "`rows` must be")
  # Up to 20 cells are printed whole, with no footer; no cells say so.
  small <- cell_counts(structure(cells, class = "data.frame", counts = NULL)[1:20, ])
  expect_length(capture.output(print(small)), 1 + 1 + 20)
  empty <- cell_counts(data.frame(k = "a", n = 0))
  expect_identical(capture.output(print(empty)),
                   c("# A cell_counts table: 0 cells, 0 records, 2 columns (counts in 'n')"))
})
