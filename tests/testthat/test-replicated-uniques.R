# replicated.uniques(): synthpop 1.9-3's numbers on its 5 golden calls, a plain-R
# reference on random data, and remove_replicated_uniques().

repuniq_golden <- readRDS(test_path("fixtures", "sd2011_repuniq_golden.rds"))

test_that("replicated.uniques reproduces synthpop 1.9-3 on every golden call", {
  expect_length(repuniq_golden, 5)
  for (name in names(repuniq_golden)) {
    case <- repuniq_golden[[name]]
    object <- if (case$object == "s1") sd2011_synds else sd2011_synds5
    got <- do.call(replicated.uniques, c(list(object, sd2011), case$args))
    expect_s3_class(got, "repuniq.synds")
    want <- case$expected
    expect_identical(names(unclass(got)), names(want), label = name)
    expect_equal(unclass(got), want, tolerance = 1e-9, label = name)
  }
})

# Reference from the definitions: a record's key tuple as its label codes, pasted
# with "." (codes are integers, so no label can collide).
ref_repuniq <- function(syn, data, keys) {
  lab <- function(x) {
    out <- as.character(if (is.factor(x)) as.character(x) else x)
    out[is.na(x) & !(is.numeric(x) & is.nan(x))] <- "<NA>"
    out
  }
  tuple <- function(d) {
    codes <- lapply(keys, function(k) match(lab(d[[k]]), unique(c(lab(data[[k]]), unlist(lapply(syn, function(s) lab(s[[k]])))))))
    do.call(paste, c(codes, sep = "."))
  }
  qd <- tuple(data)
  lapply(syn, function(s) {
    qs <- tuple(s)
    n_in <- function(q, pool) vapply(q, function(v) sum(pool == v), numeric(1))
    syn_unique <- n_in(qs, qs) == 1
    d_n <- n_in(qs, qd)
    list(orig_uniques = sum(n_in(qd, qd) == 1), syn_uniques = sum(syn_unique),
         synU = syn_unique & d_n >= 1, repU = syn_unique & d_n == 1)
  })
}

test_that("replicated.uniques agrees with the reference on random data", {
  set.seed(7)
  for (case in random_cases(150)) {
    n <- sample(1:40, 1)
    make <- function(rows) data.frame(a = sample(c("x", "y", NA), rows, TRUE), b = sample(c(1, 2, NaN, NA, 2), rows, TRUE),
                                      c = factor(sample(c("p", "q"), rows, TRUE)))
    data <- make(n)
    m <- sample(1:3, 1)
    syn <- lapply(seq_len(m), function(j) make(sample(1:40, 1)))
    keys <- sample(names(data), sample(1:3, 1))
    got <- replicated.uniques(if (m == 1) syn[[1]] else syn, data, keys)
    want <- ref_repuniq(syn, data, keys)
    tabs <- if (m == 1) list(got$res_tab) else got$res_tab
    for (j in seq_len(m)) {
      expect_equal(unname(tabs[[j]][, "Number"]),
                   c(want[[j]]$orig_uniques, want[[j]]$syn_uniques, sum(want[[j]]$synU), sum(want[[j]]$repU)),
                   info = paste("case", case))
      flags <- function(x) if (m == 1) x else if (is.matrix(x)) x[, j] else x[[j]]
      expect_equal(unname(flags(got$repU.rm)), unname(want[[j]]$repU), info = paste("case", case))
      expect_equal(unname(flags(got$synU.rm)), unname(want[[j]]$synU), info = paste("case", case))
      # The original's uniques out of its records, the synthesis's out of its own.
      totals <- c(n, rep(nrow(syn[[j]]), 3))
      expect_identical(unname(tabs[[j]][, "from total"]), as.double(totals))
      expect_identical(unname(tabs[[j]][, "%"]), round(unname(tabs[[j]][, "Number"]) / totals * 100, 2))
    }
  }
})

test_that("replicated uniques are repU of disclosure() when nothing is excluded", {
  keys <- c("sex", "age", "region", "placesize")
  ru <- replicated.uniques(sd2011_synds5, sd2011, keys)
  d <- disclosure(sd2011_synds5, sd2011, keys = keys, target = "depress", print.flag = FALSE)
  expect_equal(vapply(ru$res_tab, function(t) t["Replicated uniques", "%"], numeric(1)), d$ident$repU, tolerance = 1e-12)
  expect_equal(ru$res_tab[[1]]["Original", "%"], d$ident$UiO[1], tolerance = 1e-12)
})

test_that("remove_replicated_uniques drops exactly the flagged records and keeps the rest", {
  keys <- c("sex", "age", "region", "placesize")
  before <- sd2011_synds5
  ru <- replicated.uniques(sd2011_synds5, sd2011, keys)
  cleaned <- remove_replicated_uniques(sd2011_synds5, sd2011, keys)
  expect_identical(sd2011_synds5, before)
  expect_identical(setdiff(names(cleaned), "syn"), setdiff(names(before), "syn"))
  expect_identical(cleaned[names(cleaned) != "syn"], before[names(before) != "syn"])
  for (j in 1:5) {
    expect_identical(cleaned$syn[[j]], before$syn[[j]][!ru$repU.rm[, j], ])
  }
  after <- replicated.uniques(cleaned, sd2011, keys)
  expect_true(all(vapply(after$res_tab, function(t) t["Replicated uniques", "Number"], numeric(1)) == 0))
  df <- remove_replicated_uniques(sd2011_synds$syn, sd2011, keys)
  expect_identical(df, sd2011_synds$syn[!replicated.uniques(sd2011_synds, sd2011, keys)$repU.rm, ])
})

test_that("print writes the tables to standard output; bad keys are errors naming them", {
  ru <- replicated.uniques(sd2011_synds, sd2011, c("sex", "age", "region"))
  out <- capture.output(print(ru), type = "output")
  expect_true(any(grepl("Replicated uniques", out)))
  expect_true(any(grepl(format(ru$res_tab["Replicated uniques", "Number"]), out)))
  expect_snapshot(error = TRUE, {
    replicated.uniques(sd2011_synds, sd2011, keys = c("sex", "agee"))
    replicated.uniques(sd2011_synds, sd2011, keys = character(0))
  })
})

test_that("the % column of res_tab is rounded to 2 decimals, as synthpop 1.9-3 rounds it (issue 19)", {
  # With 5,000 records every percentage has two decimals anyway; with Adult's 48,842
  # (and random sizes) 100 / n is not a multiple of 0.01, so the rounding shows.
  keys <- c("age", "sex", "occupation", "race")
  ru <- replicated.uniques(adult_synds, adult, keys)
  number <- ru$res_tab[, "Number"]
  exact <- number / nrow(adult) * 100
  expect_false(isTRUE(all.equal(exact, round(exact, 2))))
  expect_identical(unname(ru$res_tab[, "%"]), unname(round(exact, 2)))
  expect_identical(unname(ru$res_tab[, "Number"]), unname(number))
  set.seed(19)
  for (case in 1:30) {
    n <- sample(c(7, 13, 333, 4999, 12347), 1)
    make <- function(rows) data.frame(a = sample(letters[1:4], rows, TRUE), b = sample(1:30, rows, TRUE))
    data <- make(n)
    m <- sample(1:2, 1)
    syn <- lapply(seq_len(m), function(j) make(n))
    got <- replicated.uniques(if (m == 1) syn[[1]] else syn, data, c("a", "b"))
    tabs <- if (m == 1) list(got$res_tab) else got$res_tab
    for (tab in tabs) {
      expect_identical(unname(tab[, "%"]), unname(round(tab[, "Number"] / tab[, "from total"] * 100, 2)),
                       info = paste("case", case))
    }
  }
})
