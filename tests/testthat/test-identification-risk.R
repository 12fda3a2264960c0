# identification_risk(): hand-worked cases, radius edges, errors, and agreement with
# the all-pairs reference (helper-identification-reference.R) on random data.

test_that("a hand-worked case: exact categorical matches and the three summaries", {
  o <- data.frame(sex = c("F", "F", "M", "M"), age = c(30, 30, 40, 50), inc = c(1, 2, 3, 4))
  s <- data.frame(sex = c("F", "F", "M", "M"), age = c(30, 30, 40, 50), inc = c(2, 2, 3, 9))
  ir <- identification_risk(s, o, keys = c("sex", "age"), syn.vars = "inc")
  # Record 1 (F,30,1): no synthetic inc 1 -> c = 0. Record 2 (F,30,2): synthetic rows 1, 2
  # -> c = 2, own row among them. Record 3: c = 1, own. Record 4 (M,50,4): c = 0.
  expect_equal(ir$records$c, c(0L, 2L, 1L, 0L))
  expect_equal(ir$records$T, c(FALSE, TRUE, TRUE, FALSE))
  expect_equal(ir$records$K, c(FALSE, FALSE, TRUE, FALSE))
  expect_equal(ir$summary$synthesis, c("1", "mean"))
  expect_equal(ir$summary$exp.risk, c(1 / 2 + 1, 1 / 2 + 1))
  expect_equal(ir$summary$true.rate[1], 1 / 4)
  expect_equal(ir$summary$false.rate[1], 0)
  expect_equal(ir$summary$s[1], 1)
})

test_that("radius edges: zero, negative values, ties on the boundary, NA and Inf", {
  o <- data.frame(k = "a", x = c(0, -2, 1, NA, 10, Inf))
  s <- data.frame(k = "a", x = c(0, -2.5, 1.5, NA, 0, Inf))
  abs_r <- identification_risk(s, o, NULL, c("k", "x"), radius = 0.5, relative = FALSE)
  # |x_syn - x| <= 0.5, boundary included: -2 vs -2.5 and 1 vs 1.5 match.
  expect_equal(abs_r$records$c, c(2L, 1L, 1L, 1L, 0L, 1L))
  expect_equal(abs_r$records$T, c(TRUE, TRUE, TRUE, TRUE, FALSE, TRUE))
  rel <- identification_risk(s, o, "k", "x", radius = c(x = 0.25))
  # Relative: 0 reaches only 0; -2 reaches 0.5 (its size); 1 reaches only 0.25.
  expect_equal(rel$records$c, c(2L, 1L, 0L, 1L, 0L, 1L))
  expect_equal(rel$records$T, c(TRUE, TRUE, FALSE, TRUE, FALSE, TRUE))
  ref <- ref_identification(list(s), o, "k", "x", list(x = 0.25), TRUE)
  expect_equal(rel$records, ref$records)
  # Without a radius the numeric variable matches exactly, NA with NA.
  exact <- identification_risk(s, o, "k", "x")
  expect_equal(exact$records$c, c(2L, 0L, 0L, 1L, 0L, 1L))
})

test_that("no unique match gives a false match rate of NA, not NaN", {
  o <- data.frame(k = c("a", "a"), x = c(1, 1))
  ir <- identification_risk(o, o, "k", "x")
  expect_equal(ir$records$c, c(2L, 2L))
  expect_identical(ir$summary$false.rate, c(NA_real_, NA_real_))
  expect_equal(ir$summary$exp.risk[1], 1)
})

test_that("m syntheses give one row each and a row of means; inputs are not modified", {
  part <- sd2011
  part$income <- sd2011_synds$syn$income
  before <- list(part, sd2011)
  ir <- identification_risk(list(part, sd2011), sd2011, c("sex", "age"), "income", radius = 0.1)
  expect_identical(list(part, sd2011), before)
  expect_equal(ir$summary$synthesis, c("1", "2", "mean"))
  expect_equal(ir$summary[3, -1], as.data.frame(lapply(ir$summary[1:2, -1], mean)), ignore_attr = TRUE)
  # The original as its own synthesis: every record matches itself.
  expect_true(all(ir$records$T[ir$records$synthesis == 2]))
  expect_equal(ir$summary$false.rate[2], 0)
})

test_that("agrees with the all-pairs reference on the SD2011 fixtures", {
  skip_on_cran()
  rows <- 1:400
  part <- sd2011[rows, ]
  part$income <- sd2011_synds$syn$income[rows]
  part$depress <- sd2011_synds$syn$depress[rows]
  o <- sd2011[rows, ]
  # With keys sex, age and region a record matches at most one synthetic record; with
  # sex and placesize up to nine, so the sums of 1/c and the false matches are tested.
  for (keys in list(c("sex", "age", "region"), c("sex", "placesize"))) {
    for (relative in c(TRUE, FALSE)) {
      radii <- if (relative) list(c(income = 0.1), 0.1, c(0.1, 0), c(depress = 0.5, income = 0)) else
        list(c(income = 100), 100, c(100, 2), c(depress = 2))
      for (radius in radii) {
        ir <- identification_risk(part, o, keys, c("income", "depress"), radius = radius, relative = relative)
        ref <- ref_identification(list(part), o, keys, c("income", "depress"), radius, relative)
        expect_equal(ir$records, ref$records)
        expect_equal(ir$summary[1, ], ref$summary, tolerance = 1e-12, ignore_attr = TRUE)
        if (length(keys) == 2) expect_gt(max(ref$records$c), 2)
      }
    }
  }
})

test_that("agrees with the all-pairs reference on 300 random cases", {
  set.seed(20261122)
  pool_num <- c(0, -1, 1, 0.5, -0.5, 2, 1e-9, NA, NaN, Inf, -Inf, 3, 2.5)
  for (case in random_cases(300)) {
    n <- sample(1:25, 1)
    m <- sample(1:3, 1)
    n_cat <- sample(0:2, 1)
    n_num <- if (n_cat == 0) sample(1:3, 1) else sample(0:2, 1)
    make <- function() {
      d <- data.frame(row.names = seq_len(n))
      for (k in seq_len(n_cat)) {
        v <- sample(c("a", "b", NA, "c"), n, replace = TRUE)
        d[[paste0("c", k)]] <- if (k == 2) factor(v) else v
      }
      for (k in seq_len(n_num)) {
        v <- sample(pool_num, n, replace = TRUE)
        d[[paste0("x", k)]] <- if (k == 2) as.integer(ifelse(is.finite(v), round(v), NA)) else v
      }
      d
    }
    o <- make()
    vars <- names(o)
    keys <- vars[seq_len(sample(0:(length(vars) - 1), 1))]
    syn.vars <- setdiff(vars, keys)
    # Partially synthetic: the keys are those of the original, row by row.
    syn <- lapply(seq_len(m), function(j) {
      s <- make()
      s[keys] <- o[keys]
      s
    })
    numeric_syn <- grep("^x", syn.vars, value = TRUE)
    draw <- function(k) sample(c(0, 0.5, 1, 1.5), k, replace = TRUE)
    # No radius, one for all, one per synthesised numeric variable, or some named.
    radius <- switch(sample(4, 1),
                     NULL,
                     if (length(numeric_syn)) draw(1),
                     if (length(numeric_syn)) draw(length(numeric_syn)),
                     {
                       with_radius <- numeric_syn[as.logical(sample(0:1, length(numeric_syn), replace = TRUE))]
                       if (length(with_radius)) stats::setNames(draw(length(with_radius)), with_radius)
                     })
    relative <- sample(c(TRUE, FALSE), 1)
    # No keys is NULL (an empty vector is an error).
    ir <- identification_risk(syn, o, if (length(keys)) keys, syn.vars, radius = radius, relative = relative)
    ref <- ref_identification(syn, o, keys, syn.vars, radius, relative)
    expect_equal(ir$records, ref$records, info = paste("case", case))
    expect_equal(ir$summary[seq_len(m), ], ref$summary, tolerance = 1e-12, ignore_attr = TRUE,
                 info = paste("case", case))
  }
})

test_that("a radius applies to synthesised numeric variables only; keys match exactly (issue 19)", {
  # Ages 30 and 31 are within 10 % of each other: were the radius applied to the key
  # age, records 1 and 2 would each match two synthetic records.
  o <- data.frame(age = c(30, 31, 40, 41), grp = c("a", "a", "b", "b"), inc = c(100, 100, 200, 205),
                  w = c(1, 5, 9, 9))
  s <- o
  s$inc <- c(100, 104, 200, 260)
  s$w <- c(1, 6, 9, 12)
  ir <- identification_risk(s, o, keys = "age", syn.vars = "inc", radius = 0.1)
  expect_identical(ir$radius, c(inc = 0.1))
  expect_equal(ir$records$c, c(1L, 1L, 1L, 0L))
  expect_equal(ir$records$T, c(TRUE, TRUE, TRUE, FALSE))
  expect_equal(ir$records, ref_identification(list(s), o, "age", "inc", 0.1, TRUE)$records)
  # Named or unnamed, the same radius gives the same result.
  expect_identical(identification_risk(s, o, "age", "inc", radius = c(inc = 0.1)), ir)
  # Unnamed: one number for all, or one per synthesised numeric variable in the order
  # of syn.vars; a factor among them matches exactly.
  one <- identification_risk(s, o, c("age", "grp"), c("inc", "w"), radius = 2, relative = FALSE)
  expect_identical(one$radius, c(inc = 2, w = 2))
  each <- identification_risk(s, o, "age", c("inc", "grp", "w"), radius = c(10, 1), relative = FALSE)
  expect_identical(each$radius, c(inc = 10, w = 1))
  expect_equal(each$records$c, c(1L, 1L, 1L, 0L))
  expect_equal(each$records, ref_identification(list(s), o, "age", c("inc", "grp", "w"), c(10, 1), FALSE)$records)
  out <- paste(capture.output(print(one), type = "output"), collapse = " ")
  expect_match(out, "Keys matched exactly", fixed = TRUE)
  # A radius for a key, a factor or a variable not matched is an error naming it.
  expect_error(identification_risk(s, o, "age", "inc", radius = c(age = 1, inc = 0.1)),
               "`radius` names \"age\", a key: keys match exactly")
  expect_error(identification_risk(s, o, "age", c("inc", "grp"), radius = c(grp = 1)),
               "`radius` names \"grp\", not a synthesised numeric variable")
  expect_error(identification_risk(s, o, "age", "inc", radius = c(w = 1)),
               "`radius` names \"w\", not a synthesised numeric variable")
  expect_error(identification_risk(s, o, "age", "grp", radius = 1),
               "the synthesised variable \"grp\" is not numeric")
  expect_error(identification_risk(s, o, "age", c("inc", "w"), radius = c(1, 2, 3)),
               "one number for all 2 synthesised numeric variables \"inc\" and \"w\", one for each of them")
})

test_that("keys that differ row by row from the original are an error saying what is needed (issue 19)", {
  # Fully synthetic data passed by mistake: new records, not the original rows.
  expect_error(identification_risk(sd2011_synds, sd2011, keys = c("sex", "age", "region"), syn.vars = "income"),
               "needs partially synthetic data")
  cnd <- tryCatch(identification_risk(sd2011_synds, sd2011, keys = c("sex", "age", "region"), syn.vars = "income"),
                  error = identity)
  msg <- gsub("\\s+", " ", cli::ansi_strip(conditionMessage(cnd)))
  n_age <- sum(sd2011_synds$syn$age != sd2011$age)
  expect_match(msg, sprintf("\"age\" differs in %s of 5,000 rows", format(n_age, big.mark = ",")), fixed = TRUE)
  expect_match(msg, "the same records in the same rows, with the `keys` unchanged", fixed = TRUE)
  expect_match(msg, "disclosure()", fixed = TRUE)
  # One changed value in the second synthesis is enough, and is named.
  part <- sd2011
  part$income <- sd2011_synds$syn$income
  moved <- part
  moved$sex[17] <- setdiff(levels(sd2011$sex), as.character(sd2011$sex[17]))[1]
  expect_error(identification_risk(list(part, moved), sd2011, c("sex", "age"), "income"),
               "Synthesis 2: key variable \"sex\" differs in 1 of 5,000 rows \\(row 17\\)")
  # Missing values equal missing values; NaN equals NaN only; factor and character
  # labels compare as labels.
  o <- data.frame(k = c("a", NA, "b"), x = c(1, NA, NaN), y = c(1, 2, 3))
  s <- transform(o, k = factor(k), y = c(1, 2, 4))
  expect_s3_class(identification_risk(s, o, c("k", "x"), "y"), "synthrisk_identification_risk", exact = TRUE)
  s$x <- c(1, NaN, NaN)
  expect_error(identification_risk(s, o, c("k", "x"), "y"), "\"x\" differs in 1 of 3 rows \\(row 2\\)")
})

test_that("bad input gets errors naming the argument and value", {
  part <- sd2011
  expect_snapshot(error = TRUE, {
    identification_risk(part, sd2011, c("sex", "age"), "income", radius = c(incme = 1))
    identification_risk(part, sd2011, c("sex", "age"), "income", radius = -1)
    identification_risk(part, sd2011, c("sex", "age"), "income", radius = c(1, 2))
    identification_risk(part[1:10, ], sd2011, c("sex", "age"), "income")
    identification_risk(part, sd2011, c("sex", "age"), c("age", "income"))
    identification_risk(part, sd2011, c("sex", "age"), NULL)
    identification_risk(part, sd2011, "sex", "marital", radius = 1)
    identification_risk(part, sd2011, "sex", "income", relative = NA)
    identification_risk(part, sd2011, c("sex", "age"), "income", radius = c(age = 1))
    identification_risk(sd2011_synds, sd2011, c("sex", "age", "region"), "income")
  })
})

test_that("the keys are `keys`, as in every other function; `known`, their former name, still works with a warning", {
  o <- data.frame(sex = c("F", "F", "M", "M"), age = c(30, 30, 40, 50), inc = c(1, 2, 3, 4))
  s <- data.frame(sex = c("F", "F", "M", "M"), age = c(30, 30, 40, 50), inc = c(2, 2, 3, 9))
  by_keys <- identification_risk(s, o, keys = c("sex", "age"), syn.vars = "inc")
  expect_identical(by_keys$keys, c("sex", "age"))
  # The same position as before: the third argument.
  expect_identical(identification_risk(s, o, c("sex", "age"), "inc"), by_keys)
  expect_warning(by_known <- identification_risk(s, o, known = c("sex", "age"), syn.vars = "inc"),
                 "`known` of `identification_risk\\(\\)` is deprecated; it is now `keys`")
  expect_identical(by_known, by_keys)
  expect_error(identification_risk(s, o, keys = "sex", known = "age", syn.vars = "inc"),
               "Give `keys` only; `known` is its former name")
  # No keys: left out or NULL (only syn.vars matched); an empty vector is a mistake.
  none <- identification_risk(s, o, syn.vars = c("sex", "age", "inc"))
  expect_identical(none$keys, character(0))
  expect_identical(identification_risk(s, o, NULL, c("sex", "age", "inc")), none)
  expect_error(identification_risk(s, o, character(0), "inc"),
               "`keys` must name at least one variable of `data`, not `character\\(0\\)`")
  expect_error(identification_risk(s, o, "sex", character(0)), "`syn.vars` must name at least one")
  out <- paste(capture.output(print(by_keys), type = "output"), collapse = " ")
  expect_match(out, "Keys (known to the intruder): \"sex\" and \"age\"", fixed = TRUE)
})

test_that("print writes the summary and definitions to standard output", {
  part <- sd2011
  part$income <- sd2011_synds$syn$income
  ir <- identification_risk(part, sd2011, c("sex", "age"), "income", radius = 0.1)
  out <- capture.output(print(ir), type = "output")
  expect_true(any(grepl("Identification risk of partially synthetic data", out)))
  expect_true(any(grepl("exp.risk", out)))
  expect_true(any(grepl("relative radius", out)))
  expect_true(any(grepl(format(round(ir$summary$true.rate[1], 4)), out, fixed = TRUE)))
  p <- autoplot(ir)
  expect_s3_class(p, "ggplot")
})
