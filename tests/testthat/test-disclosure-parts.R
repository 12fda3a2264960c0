# build_disclosures(): each target's components made by the glue against the R
# construction they replaced (helper-disclosure-parts-reference.R), identical to the
# last attribute; and counts that are not a table per synthesis are an error.

# What build_disclosures() is given for a multi.disclosure() request (`...` its
# arguments), with the 2-way tables made.
parts_inputs <- function(syn, data, keys, targets, ...) {
  request <- synthrisk:::disclosure_request("multi", syn, NULL, data, keys = keys, targets = targets,
                                            print.flag = FALSE, plot = FALSE, ...)
  counted <- synthrisk:::run_request(request)
  targets <- request$targets
  raws <- counted$raw$train[targets]
  m <- length(syn)
  two <- two_way_checks(raws, m, targets, request$keys, counted$enc$labels, request$limits$thresh_2way)
  list(raws = raws, targets = targets, keys = request$keys, labels = counted$enc$labels, m = m,
       thresh_1way = request$limits$thresh_1way, two = two, digits = request$output$digits, to.print = "short",
       call = NULL)
}

expect_same_parts <- function(inputs, label) {
  got <- do.call(build_disclosures, inputs, quote = TRUE)
  want <- do.call(build_disclosures_reference, inputs, quote = TRUE)
  expect_identical(got, want, label = label)
  # Down to the order of attributes.
  expect_identical(serialize(got, NULL), serialize(want, NULL), label = paste(label, "serialized"))
  invisible(got)
}

test_that("SD2011's components are the R construction's, with checks flagged and not, m = 1 and 5", {
  keys <- c("sex", "age", "region", "placesize")
  targets <- c("depress", "marital", "workab", "ls", "income")
  for (syn in list(list(sd2011_synds$syn), sd2011_synds5$syn)) {
    for (thresh in list(c(50, 90), c(5, 50), c(0, 0))) {
      inputs <- parts_inputs(syn, sd2011, keys, targets, thresh_1way = thresh, thresh_2way = c(2, 30))
      got <- expect_same_parts(inputs, sprintf("SD2011 m = %d, thresh_1way %s", length(syn),
                                               paste(thresh, collapse = "/")))
      # The lowered thresholds flag 1-way checks, so flagged tables are compared.
      if (thresh[1] == 0) expect_true(all(nzchar(vapply(got, function(d) d$check1, ""))))
    }
  }
  # No 2-way tables (the holdout's records), a call and to.print, named keys.
  inputs <- parts_inputs(sd2011_synds5$syn, sd2011, c(s = "sex", a = "age"), c("marital", "workab"))
  inputs["two"] <- list(NULL)
  inputs$call <- quote(disclosure(x, y))
  inputs$to.print <- c("short", "ident")
  expect_same_parts(inputs, "without 2-way tables")
  # A target named by the user keeps its name in `target`, as disclosure() gives it.
  named <- parts_inputs(list(sd2011_synds$syn), sd2011, c("sex", "age"), c(w = "workab"))
  named$targets <- c(w = "workab")
  got <- expect_same_parts(named, "a named target")
  expect_identical(got[[1]]$target, c(w = "workab"))
})

test_that("random data's components are the R construction's", {
  set.seed(20261205)
  for (i in 1:20) {
    n <- sample(20:150, 1)
    m <- sample(1:3, 1)
    make <- function(rows) {
      data.frame(k1 = factor(sample(c("a", "B", "c"), rows, replace = TRUE)), k2 = sample(c(1L, 2L, NA), rows, TRUE),
                 t1 = factor(sample(c("x", "y", "z", NA), rows, replace = TRUE)), t2 = sample(1:3, rows, TRUE))
    }
    syn <- lapply(seq_len(m), function(j) make(n))
    inputs <- parts_inputs(syn, make(n), c("k1", "k2"), c("t1", "t2"), thresh_1way = c(sample(0:5, 1), 20),
                           thresh_2way = c(1, 10), usetargetsNA = c(TRUE, FALSE)[sample(2, 1)])
    expect_same_parts(inputs, paste("random case", i))
  }
})

test_that("exclusion counts short of a table per step and synthesis, and short 1-way counts, are errors", {
  inputs <- parts_inputs(sd2011_synds5$syn, sd2011, c("sex", "age"), c("marital", "workab"))
  short <- inputs
  short$raws[[2]]$nexcl <- lapply(short$raws[[2]]$nexcl, function(x) x[-1])
  expect_error(do.call(build_disclosures, short), "exclusion counts")
  fewer <- inputs
  fewer$raws[[2]]$nexcl <- lapply(fewer$raws[[2]]$nexcl, function(x) x[seq_len(length(exclusion_cols) * 4)])
  expect_error(do.call(build_disclosures, fewer), "exclusion counts")
  one <- inputs
  one$raws[[1]]$one_way$level <- one$raws[[1]]$one_way$level[1:2]
  expect_error(do.call(build_disclosures, one), "1-way counts")
  # Each target reads its own counts: the second target's exclusions and checks are its own.
  got <- do.call(build_disclosures, inputs, quote = TRUE)
  steps <- length(exclusion_cols)
  removed <- inputs$raws[[2]]$nexcl$Dorig[steps + seq_len(steps - 1)]
  total <- inputs$raws[[2]]$nexcl$Dorig[2 * steps]
  expect_identical(unname(got$workab$Nexclusions[[2]]["Dorig", ]), c(removed, total - sum(removed)))
})

test_that("targets_notes() gives each target disclosure_notes()'s notes, for every kind of note", {
  keys <- c("sex", "age", "region", "placesize")
  cases <- list(
    list(syn = sd2011_synds5$syn, data = sd2011, targets = c("depress", "marital", "income"), digits = 2),
    list(syn = list(sd2011_synds$syn), data = sd2011, targets = c("income", "ls", "workab"), digits = 0),
    # A numeric target with nearly a value per record.
    local({
      set.seed(1)
      make <- function() data.frame(sex = factor(sample(c("a", "b"), 200, TRUE)), age = sample(1:3, 200, TRUE),
                                    region = factor(sample(c("x", "y"), 200, TRUE)), placesize = sample(1:2, 200, TRUE),
                                    value = round(stats::rnorm(200), 3), level = factor(sample(c("u", "v"), 200, TRUE)))
      list(syn = list(make(), make()), data = make(), targets = c("value", "level"), digits = 2)
    }),
    list(syn = sd2011_synds5$syn, data = sd2011, targets = c("depress", "ls"), digits = 3),
    # Labels that barely meet: a key whose synthetic labels are mostly other ones.
    list(syn = lapply(sd2011_synds5$syn[1:2], function(d) {
      d$region <- factor(ifelse(seq_len(nrow(d)) %% 10 == 0, as.character(d$region), "elsewhere"))
      d
    }), data = sd2011, targets = c("depress", "ls"), digits = 2)
  )
  for (k in seq_along(cases)) {
    cs <- cases[[k]]
    inputs <- suppressWarnings(parts_inputs(cs$syn, cs$data, keys, cs$targets))
    request <- synthrisk:::disclosure_request("multi", cs$syn, NULL, cs$data, keys = keys, targets = cs$targets,
                                              print.flag = FALSE, plot = FALSE, digits = cs$digits)
    counted <- suppressWarnings(synthrisk:::run_request(request))
    raws <- counted$raw$train[request$targets]
    m <- length(cs$syn)
    built <- build_disclosures(raws, request$targets, request$keys, counted$enc$labels, m, request$limits$thresh_1way,
                               NULL, cs$digits, "short", NULL)
    want <- lapply(built, disclosure_notes, enc = counted$enc, m = m)
    got <- targets_notes(raws, request$targets, request$keys, counted$enc, m, cs$digits)
    expect_identical(got, unname(want), label = paste("case", k))
    if (k == 5) expect_true(any(grepl("^labels:", unlist(lapply(got, names)))))
    if (k == 3) expect_true(any(vapply(got, function(x) "nearly_unique" %in% names(x), logical(1))))
  }
})
