# resynthesize (R/resynthesize.R, definitions vignette section 12): B further syntheses
# drawn by the synthesizer after set.seed(seed), every interval across the m + B
# syntheses. Against a plain-R reference: the same seeded synthesizer called by hand,
# each synthesis's measures from ref_disclosure() (helper-reference.R), then qt().

keys4 <- c("sex", "age", "region", "placesize")
small <- sd2011[c(keys4, "depress", "marital")]

# A known model: the original's records drawn with replacement.
resample_rows <- function(data) data[sample.int(nrow(data), nrow(data), replace = TRUE), , drop = FALSE]

# By hand: the B draws after set.seed(seed), one at a time.
draws_by_hand <- function(synthesizer, data, B, seed) {
  set.seed(seed)
  lapply(seq_len(B), function(b) synthesizer(data))
}

# By hand: t interval of the m + B values, clamped to `range`.
hand_t <- function(v, conf, range = c(0, 100)) {
  n <- length(v)
  half <- qt((1 + conf) / 2, n - 1) * sd(v) / sqrt(n)
  c(mean(v), max(mean(v) - half, range[1]), min(mean(v) + half, range[2]))
}

test_that("resynthesize equals the reference: the seeded synthesizer by hand, then qt() (m = 1 and 5)", {
  given <- list(sd2011_synds$syn[c(keys4, "depress")])
  got <- disclosure(given[[1]], small, keys = keys4, target = "depress", print.flag = FALSE, resynthesize = 6,
                    synthesizer = resample_rows, seed = 11)
  all_syn <- c(given, draws_by_hand(resample_rows, small, 6, 11))
  want <- ref_disclosure(all_syn, small, keys = keys4, target = "depress")
  for (me in c("repU", "UiS", "DiSCO", "DCAPd", "DiSDiO", "TCAP")) {
    v <- vapply(want, function(r) as.double(r[[me]]), 0)
    row <- got$intervals[got$intervals$measure == me, ]
    expect_identical(row$method, "resynthesized")
    expect_equal(unname(unlist(row[c("estimate", "conf.low", "conf.high")])), hand_t(v, 0.95), tolerance = 1e-9,
                 label = me)
  }
  # The measures shown are those of the given synthesis.
  plain <- disclosure(given[[1]], small, keys = keys4, target = "depress", print.flag = FALSE)
  expect_identical(got$measures, plain$measures)
  # m = 5 with conf.level: both intervals, resynthesis's across 5 + 3.
  got5 <- disclosure(sd2011_synds5, sd2011, keys4, "depress", print.flag = FALSE, conf.level = 0.9, resynthesize = 3,
                     synthesizer = resample_rows, seed = 4)
  expect_setequal(got5$intervals$method, c("across syntheses", "resynthesized"))
  all5 <- c(lapply(sd2011_synds5$syn, `[`, c(keys4, "depress")),
            lapply(draws_by_hand(resample_rows, sd2011, 3, 4), `[`, c(keys4, "depress")))
  want5 <- ref_disclosure(all5, sd2011[c(keys4, "depress")], keys = keys4, target = "depress")
  v <- vapply(want5, function(r) as.double(r$DiSCO), 0)
  row <- got5$intervals[got5$intervals$measure == "DiSCO" & got5$intervals$method == "resynthesized", ]
  expect_equal(unname(unlist(row[c("estimate", "conf.low", "conf.high")])), hand_t(v, 0.9), tolerance = 1e-9)
})

test_that("resynthesize on random cases equals the reference", {
  local_quiet_labels()
  for (seed in 1:25) {
    case <- random_case(seed)
    case$args$ngroups_target <- 0
    syn <- if (is.data.frame(case$syn)) list(case$syn) else case$syn
    cols <- names(case$data)
    synthesizer <- function(data) resample_rows(data)[cols]
    got <- do.call(disclosure, c(list(case$syn, case$data), case$args,
                                 list(print.flag = FALSE, resynthesize = 4, synthesizer = synthesizer, seed = seed)))
    all_syn <- c(syn, draws_by_hand(synthesizer, case$data, 4, seed))
    want <- do.call(ref_disclosure, c(list(all_syn, case$data), case$args))
    for (me in c("repU", "DiSCO", "DCAPd")) {
      v <- vapply(want, function(r) as.double(r[[me]]), 0)
      if (anyNA(v)) next
      row <- got$intervals[got$intervals$measure == me, ]
      expect_equal(unname(unlist(row[c("estimate", "conf.low", "conf.high")])), hand_t(v, 0.95), tolerance = 1e-9,
                   label = paste("case", seed, me))
    }
  }
})

test_that("with control, R has an interval from resynthesis; multi.disclosure and tau_curve take it too", {
  parts <- holdout_split(small, prop = 0.2, seed = 1)
  given <- resample_rows(parts$train)
  d <- disclosure(given, parts$train, keys = keys4, target = "depress", print.flag = FALSE, control = parts$control,
                  resynthesize = 4, synthesizer = resample_rows, seed = 2)
  again <- disclosure(c(list(given), draws_by_hand(resample_rows, parts$train, 4, 2)), parts$train, keys = keys4,
                      target = "depress", print.flag = FALSE, control = parts$control, conf.level = 0.95)
  for (me in c("repU", "DiSCO")) {
    r <- again$holdout$R[again$holdout$measure == me]
    row <- d$holdout_intervals[d$holdout_intervals$measure == me, ]
    expect_equal(unname(unlist(row[c("estimate", "conf.low", "conf.high")])), hand_t(r, 0.95, c(-Inf, 1)),
                 tolerance = 1e-12)
  }
  md <- multi.disclosure(given, parts$train, keys = keys4, targets = c("depress", "marital"), print.flag = FALSE,
                         plot = FALSE, resynthesize = 4, synthesizer = resample_rows, seed = 2)
  amd <- multi.disclosure(c(list(given), draws_by_hand(resample_rows, parts$train, 4, 2)), parts$train, keys = keys4,
                          targets = c("depress", "marital"), print.flag = FALSE, plot = FALSE, conf.level = 0.95)
  expect_equal(md$intervals[names(md$intervals) != "method"], amd$intervals[names(amd$intervals) != "method"])
  expect_setequal(md$intervals$method, "resynthesized")
  expect_identical(md$output.list$marital$intervals$method[1], "resynthesized")
  out <- paste(format(md), collapse = "\n")
  expect_match(out, "across the 1 given and 4 drawn syntheses", fixed = TRUE)
  tc <- tau_curve(given, parts$train, keys = keys4, targets = "depress", tau = c(0, 1), resynthesize = 3,
                  synthesizer = resample_rows, seed = 5)
  atc <- tau_curve(c(list(given), draws_by_hand(resample_rows, parts$train, 3, 5)), parts$train, keys = keys4,
                   targets = "depress", tau = c(0, 1), conf.level = 0.95)
  expect_equal(attr(tc, "intervals")[c("estimate", "conf.low", "conf.high")],
               attr(atc, "intervals")[c("estimate", "conf.low", "conf.high")])
  expect_match(paste(format(tc), collapse = "\n"), "across the 1 given and 3 drawn syntheses", fixed = TRUE)
})

test_that("resynthesis is reproducible with seed, the same for 1 and 2 threads, and leaves the random state", {
  set.seed(99)
  before <- .Random.seed
  a <- disclosure(sd2011_synds, small, keys4, "depress", print.flag = FALSE, resynthesize = 3,
                  synthesizer = resample_rows, seed = 7, n_threads = 1)
  expect_identical(.Random.seed, before)
  b <- disclosure(sd2011_synds, small, keys4, "depress", print.flag = FALSE, resynthesize = 3,
                  synthesizer = resample_rows, seed = 7, n_threads = 2)
  expect_identical(a$intervals, b$intervals)
  c2 <- disclosure(sd2011_synds, small, keys4, "depress", print.flag = FALSE, resynthesize = 3,
                   synthesizer = resample_rows, seed = 8)
  expect_false(identical(a$intervals, c2$intervals))
})

test_that("bad resynthesize, synthesizer and seed are errors naming them", {
  expect_error(disclosure(sd2011_synds, small, keys4, "depress", resynthesize = -1), "resynthesize.*-1")
  expect_error(disclosure(sd2011_synds, small, keys4, "depress", resynthesize = 2.5), "resynthesize.*2.5")
  expect_error(disclosure(sd2011_synds, small, keys4, "depress", resynthesize = 2, synthesizer = "cart"),
               "synthesizer.*function")
  expect_error(disclosure(sd2011_synds, small, keys4, "depress", synthesizer = resample_rows),
               "synthesizer.*without `resynthesize`")
  expect_error(disclosure(sd2011_synds$syn, small, keys = keys4, target = "depress", resynthesize = 2),
               "Pass `synthesizer`")
  expect_error(disclosure(sd2011_synds, small, keys4, "depress", resynthesize = 2, synthesizer = function(d) 1),
               "draw 1 returned")
  expect_error(disclosure(sd2011_synds, small, keys4, "depress", resynthesize = 2,
                          synthesizer = function(d) d[c("sex", "age")]), "draw 1 lacks.*region")
  cells <- cell_counts(data.frame(k = c("a", "b"), t = c("x", "y"), n = c(2, 3)))
  expect_error(disclosure(cells, data.frame(k = c("a", "b"), t = c("x", "x")), keys = "k", target = "t",
                          resynthesize = 2, synthesizer = identity), "resynthesize.*counted cells")
  expect_error(record_risk(sd2011_synds, small, keys4, "depress", resynthesize = 2, synthesizer = resample_rows),
               "resynthesize")
})

test_that("the default synthesizer of a synds object is synthpop's syn() with the object's specification", {
  args <- synthrisk:::synds_syn_arguments(sd2011_synds)
  for (field in c("method", "visit.sequence", "predictor.matrix", "cont.na", "rules", "rvalues", "semicont", "proper",
                  "k")) {
    expect_identical(args[[field]], sd2011_synds[[field]], label = field)
  }
  # Stored as vectors, taken as named lists: none here (no smoothing, event or denom).
  expect_null(args$smoothing)
  expect_null(args$event)
  expect_null(args$denom)
  spec <- sd2011_synds
  spec$smoothing[["income"]] <- "density"
  spec$denom[["nofriend"]] <- match("age", names(spec$method))
  spec$event[["age"]] <- -1
  spec_args <- synthrisk:::synds_syn_arguments(spec)
  expect_identical(spec_args$smoothing, list(income = "density"))
  expect_identical(spec_args$denom, list(nofriend = "age"))
  expect_null(spec_args$event)
  expect_identical(args[c("m", "models", "print.flag")], list(m = 1, models = FALSE, print.flag = FALSE))
  if (!requireNamespace("synthpop", quietly = TRUE)) {
    expect_error(disclosure(sd2011_synds, sd2011, keys4, "depress", resynthesize = 2), "synthpop is not installed")
    skip("synthpop is not installed (tools/install-synthpop.sh puts it in a scratch library): the default synthesizer is checked where it is")
  }
  got <- disclosure(sd2011_synds, sd2011, keys4, "depress", print.flag = FALSE, resynthesize = 2, seed = 3)
  set.seed(3)
  vars <- names(sd2011_synds$method)
  drawn <- lapply(1:2, function(b) do.call(synthpop::syn, c(list(data = sd2011[vars]), args))$syn)
  want <- disclosure(c(list(sd2011_synds$syn), drawn), sd2011, keys = keys4, target = "depress", print.flag = FALSE,
                     conf.level = 0.95, cont.na = sd2011_synds$cont.na)
  expect_equal(got$intervals[c("estimate", "conf.low", "conf.high")], want$intervals[c("estimate", "conf.low", "conf.high")])
})

test_that("given syntheses outside every drawn one are said: the synthesizer may not be their model", {
  # sd2011_synds was made by CART; resampling the original's records is another model.
  d <- disclosure(sd2011_synds, small, keys4, "depress", print.flag = FALSE, resynthesize = 4,
                  synthesizer = resample_rows, seed = 1)
  mm <- d$uncertainty$mismatch
  expect_true(all(c("repU", "DiSCO") %in% mm$measure))
  repu <- mm[mm$measure == "repU", ]
  drawn <- disclosure(draws_by_hand(resample_rows, small, 4, 1), small, keys = keys4, target = "depress",
                      print.flag = FALSE)
  expect_equal(c(repu$given, repu$drawn_mean, repu$drawn_sd),
               c(d$ident$repU, mean(drawn$ident$repU), sd(drawn$ident$repU)))
  expect_gt(abs(repu$given - repu$drawn_mean), 4 * repu$drawn_sd)
  expect_match(paste(format(d), collapse = " "), "far from the drawn ones \\(more than 4 standard\\s+deviations\\) for repU of depress")
  # Drawn from the model of the given synthesis: nothing to say.
  set.seed(5)
  given <- resample_rows(small)
  same <- disclosure(given, small, keys = keys4, target = "depress", print.flag = FALSE, resynthesize = 19,
                     synthesizer = resample_rows, seed = 2)
  expect_null(same$uncertainty$mismatch)
  expect_no_match(paste(format(same), collapse = " "), "far from the drawn ones")
})
