# The columns' facts read by the glue in one call (R/column-facts.R), against the same
# facts asked in plain R one column at a time, and the preparation that uses them
# against the preparation that asks R for every column.

# The facts of one column, in plain R, from their definitions in R/column-facts.R.
reference_kind <- function(x) {
  if (is.null(x)) return(0L)
  class <- oldClass(x)
  # (is.integer() is FALSE for a factor.)
  if (identical(class, "factor") && typeof(x) == "integer") return(1L)
  if (is.null(class) && typeof(x) == "integer") return(2L)
  if (is.null(class) && typeof(x) == "double") return(3L)
  0L
}

reference_usual <- function(x) {
  class <- oldClass(x)
  !is.null(x) && typeof(x) %in% c("logical", "integer", "double", "character", "raw") && is.null(attr(x, "dim")) &&
    (is.null(class) || identical(class, "factor") || identical(class, c("ordered", "factor")))
}

reference_facts <- function(vars, datasets) {
  # The glue compares ASCII names only; other names are left to R's slow path.
  column <- function(d, v) if (v %in% names(d) && !grepl("[^\001-\177]", v, useBytes = TRUE)) .subset2(d, v) else NULL
  cols <- lapply(vars, function(v) lapply(datasets, column, v = v))
  kind <- vapply(cols, function(cs) vapply(cs, reference_kind, integer(1)), integer(length(datasets)))
  usual <- vapply(cols, function(cs) vapply(cs, reference_usual, logical(1)), logical(length(datasets)))
  len <- vapply(cols, function(cs) vapply(cs, function(x) as.double(length(x)), numeric(1)), numeric(length(datasets)))
  dim(kind) <- dim(usual) <- dim(len) <- c(length(datasets), length(vars))
  plain_levels <- vapply(cols, function(cs) {
    if (!all(vapply(cs, reference_kind, integer(1)) == 1L)) return(FALSE)
    levels <- lapply(cs, attr, "levels", exact = TRUE)
    first <- levels[[1]]
    is.character(first) && is.null(attributes(first)) && all(is.na(first) | !grepl("[^\001-\177]", first, useBytes = TRUE)) &&
      all(vapply(levels, identical, logical(1), first))
  }, logical(1))
  fast <- vapply(seq_along(vars), function(i) all(kind[, i] == 1L) || all(kind[, i] >= 2L), logical(1))
  list(n_rows = vapply(datasets, function(d) as.double(nrow(d)), numeric(1)), usual = usual, length = len,
       kind = kind, fast = fast, columns = cols, plain_levels = plain_levels)
}

# Data frames whose columns are of every kind the preparation meets.
odd_columns <- function(n, seed) {
  set.seed(seed)
  latin1 <- "caf\xe9"
  Encoding(latin1) <- "latin1"
  named_levels <- factor(sample(c("a", "b"), n, TRUE))
  levels(named_levels) <- c(x = "a", y = "b")
  d <- data.frame(
    fct = factor(sample(c("a", "b", NA), n, TRUE)),
    ord = factor(sample(c("lo", "hi"), n, TRUE), ordered = TRUE),
    int = sample(c(1:5, NA), n, TRUE),
    dbl = sample(c(0.5, 2, NA), n, TRUE),
    chr = sample(c("x", "y"), n, TRUE),
    lgl = sample(c(TRUE, FALSE, NA), n, TRUE),
    date = as.Date("2020-01-01") + sample(0:3, n, TRUE),
    cpx = complex(real = seq_len(n), imaginary = 1),
    raw = as.raw(seq_len(n) %% 256),
    seq = seq_len(n),
    latin = factor(sample(c(latin1, "tea"), n, TRUE)),
    na_level = factor(sample(c("u", "v"), n, TRUE), levels = c("u", "v", NA), exclude = NULL),
    stringsAsFactors = FALSE
  )
  d$named <- named_levels
  d$mat <- matrix(seq_len(2 * n), n)
  d$lst <- I(as.list(seq_len(n)))
  d$classed <- structure(seq_len(n), class = "myclass")
  d[["caf\u00e9"]] <- seq_len(n)
  d
}

test_that("the facts equal those asked in plain R, column by column", {
  vars <- c("fct", "ord", "int", "dbl", "chr", "lgl", "date", "cpx", "raw", "seq", "latin", "na_level", "named",
            "mat", "lst", "classed", "caf\u00e9", "absent")
  for (seed in 1:5) {
    d <- odd_columns(7 + seed, seed)
    s <- odd_columns(3 + seed, seed + 100)
    # A synthesis sharing the original's levels for some factors, not for others.
    s$fct <- factor(as.character(s$fct), levels = levels(d$fct))
    s$latin <- d$latin[seq_len(nrow(s))]
    datasets <- list(d, s, data.table::as.data.table(s), tibble::as_tibble(d))
    got <- synthrisk:::column_facts(vars, datasets, globalenv())
    want <- reference_facts(vars, datasets)
    for (f in c("n_rows", "usual", "length", "kind", "fast", "columns", "plain_levels")) {
      expect_identical(got[[f]], want[[f]], info = paste(f, "seed", seed))
    }
  }
})

test_that("row counts come from the row names as nrow() counts them", {
  d <- data.frame(a = 1:4, row.names = c("w", "x", "y", "z"))
  compact <- data.frame(a = 1:3)
  positive <- compact
  attr(positive, "row.names") <- c(NA_integer_, 3L)
  for (x in list(d, compact, positive, data.table::data.table(a = 1:5), tibble::tibble(a = 1:2),
                 structure(list(a = 1:2), class = c("other", "data.frame"), row.names = 1:2))) {
    expect_identical(synthrisk:::column_facts("a", list(x), globalenv())$n_rows, as.double(nrow(x)))
  }
})

test_that("a factor variable shares plain levels only when every side has the same ASCII strings", {
  d <- data.frame(t = factor(c("a", "b")))
  same <- data.frame(t = factor(c("b", "b"), levels = c("a", "b")))
  other_order <- data.frame(t = factor(c("b", "a"), levels = c("b", "a")))
  fewer <- data.frame(t = factor(c("a", "a")))
  plain <- function(...) synthrisk:::column_facts("t", list(...), globalenv())$plain_levels
  expect_true(plain(d, same))
  expect_false(plain(d, other_order))
  expect_false(plain(d, fewer))
  expect_false(plain(d, data.frame(t = c("a", "b"))))
  accented <- data.frame(t = factor(c("\u00e9", "b")))
  expect_false(plain(accented, accented))
})

test_that("the checks with the facts give the errors of the checks without them", {
  o <- data.frame(k = c("a", "b"), t = c("x", "y"))
  s2 <- o
  s2$t <- I(list(1, 2))
  control <- o
  control$k <- matrix(1:4, 2)
  # A column of a class of its own, one value too many: R's checks look at it.
  long <- structure(list(k = c("a", "b"), t = structure(c("x", "y", "z"), class = "myclass")), class = "data.frame",
                    row.names = 1:2)
  cases <- list(list(syn = list(o, s2), control = NULL), list(syn = list(o), control = control),
                list(syn = list(o, o), control = NULL), list(syn = list(long), control = NULL))
  for (case in cases) {
    datasets <- c(list(o), case$syn, if (!is.null(case$control)) list(case$control))
    facts <- synthrisk:::column_facts(c("k", "t"), datasets, globalenv())
    without <- tryCatch(synthrisk:::check_variable_columns(c("k", "t"), o, case$syn, globalenv(), case$control),
                        error = conditionMessage)
    with <- tryCatch(synthrisk:::check_variable_columns(c("k", "t"), o, case$syn, globalenv(), case$control, facts),
                     error = conditionMessage)
    expect_identical(with, without)
  }
})

# prepare_variables() with every variable off the usual paths: column_facts() saying
# no column is usual, fast or of plain levels.
with_slow_facts <- function(code) {
  ns <- asNamespace("synthrisk")
  real <- get("column_facts", envir = ns)
  slow <- function(...) {
    facts <- real(...)
    facts$usual[] <- FALSE
    facts$fast[] <- FALSE
    facts$plain_levels[] <- FALSE
    facts
  }
  unlockBinding("column_facts", ns)
  assign("column_facts", slow, envir = ns)
  on.exit({
    assign("column_facts", real, envir = ns)
    lockBinding("column_facts", ns)
  })
  force(code)
}

test_that("the preparation on the usual paths equals the preparation asking R for every column", {
  prepare <- function(vars, data, syn, control = NULL, ngroups = 0L) {
    ng <- stats::setNames(rep(ngroups, length(vars)), vars)
    p <- synthrisk:::prepare_variables(vars, data, syn, list(), ng, strict = FALSE, call = globalenv(),
                                        control = control)
    p$grouping <- lapply(p$grouping, function(g) g[setdiff(names(g), "call")])
    p
  }
  keys <- c("sex", "age", "region", "placesize", "depress", "income", "ls", "marital", "workab")
  expect_identical(prepare(keys, sd2011, sd2011_synds5$syn), with_slow_facts(prepare(keys, sd2011, sd2011_synds5$syn)))
  parts <- holdout_split(sd2011, prop = 0.5, seed = 2)
  expect_identical(prepare(keys, parts$train, sd2011_synds5$syn[1:2], parts$control),
                   with_slow_facts(prepare(keys, parts$train, sd2011_synds5$syn[1:2], parts$control)))
  expect_identical(prepare(c("age", "income"), sd2011, sd2011_synds5$syn, ngroups = 4L),
                   with_slow_facts(prepare(c("age", "income"), sd2011, sd2011_synds5$syn, ngroups = 4L)))
  adult_vars <- names(adult)[vapply(adult, function(x) is.factor(x) || is.numeric(x), logical(1))]
  expect_identical(prepare(adult_vars, adult, list(adult_synds$syn)),
                   with_slow_facts(prepare(adult_vars, adult, list(adult_synds$syn))))
  for (seed in 1:20) {
    case <- random_case(seed)
    vars <- c(case$args$keys, "t")
    expect_identical(prepare(vars, case$data, case$syn), with_slow_facts(prepare(vars, case$data, case$syn)),
                     info = paste("seed", seed))
  }
})

test_that("the slow facts reach the preparation", {
  # with_slow_facts() changes what prepare_variables() sees: no column is usual.
  seen <- NULL
  trace("check_variable_columns", quote(seen <<- facts), print = FALSE, where = asNamespace("synthrisk"))
  on.exit(untrace("check_variable_columns", where = asNamespace("synthrisk")))
  with_slow_facts(synthrisk:::prepare_variables("sex", sd2011, list(sd2011_synds$syn), list(), c(sex = 0L), FALSE,
                                                  globalenv()))
  expect_false(any(seen$usual))
  synthrisk:::prepare_variables("sex", sd2011, list(sd2011_synds$syn), list(), c(sex = 0L), FALSE, globalenv())
  expect_true(all(seen$usual))
})
