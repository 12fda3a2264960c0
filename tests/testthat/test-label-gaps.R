# Keys and targets whose labels barely meet between the original and the synthetic
# data: a warning, a note in the result and a line in its printout (R/label-gaps.R).

keys4 <- c("sex", "age", "region", "placesize")

lowercase_sex <- function(s) {
  s$sex <- factor(tolower(as.character(s$sex)))
  s
}

test_that("labels that share none are a warning, a note and a printed line naming both label sets", {
  s <- lowercase_sex(sd2011_synds$syn)
  expect_warning(d <- disclosure(s, sd2011, keys = keys4, target = "depress", print.flag = FALSE),
                 "do not meet for \"sex\"")
  note <- d$notes[["labels:sex"]]
  expect_match(note, "share no label", fixed = TRUE)
  expect_match(note, "\"MALE\", \"FEMALE\"", fixed = TRUE)
  expect_match(note, "\"female\", \"male\"", fixed = TRUE)
  expect_match(note, "5,000 of 5,000 original and 5,000 of 5,000 synthetic records", fixed = TRUE)
  out <- capture.output(print(d))
  expect_true(any(grepl("Labels of 'sex'", out, fixed = TRUE)))
  # The numbers are what no match gives (the warning explains them).
  expect_identical(d$ident$repU, 0)
  expect_identical(d$attrib$DiSCO, 0)
})

test_that("over half of one side's records at labels the other lacks is reported; a few are not", {
  s <- sd2011_synds$syn
  region <- as.character(s$region)
  mostly <- s
  mostly$region <- factor(ifelse(seq_along(region) %% 10 < 6, paste(region, "X"), region))
  expect_warning(d <- disclosure(mostly, sd2011, keys = keys4, target = "depress", print.flag = FALSE), "region")
  expect_match(d$notes[["labels:region"]], "barely share labels", fixed = TRUE)
  few <- s
  few$region <- factor(ifelse(seq_along(region) %% 10 < 4, paste(region, "X"), region))
  expect_no_warning(d <- disclosure(few, sd2011, keys = keys4, target = "depress", print.flag = FALSE))
  expect_false(any(startsWith(names(d$notes), "labels:")))
})

test_that("multi.disclosure() names the syntheses whose labels do not meet, and targets too", {
  syn <- sd2011_synds5$syn
  syn[[3]] <- lowercase_sex(syn[[3]])
  syn[[2]]$workab <- factor(paste0("w", as.character(syn[[2]]$workab)))
  expect_warning(md <- multi.disclosure(syn, sd2011, keys = keys4, targets = c("depress", "workab"),
                                        print.flag = FALSE, plot = FALSE), "\"sex\" and \"workab\"")
  expect_match(md$notes[["labels:sex"]], "synthesis 3 share no label", fixed = TRUE)
  expect_match(md$notes[["labels:workab"]], "synthesis 2 share no label", fixed = TRUE)
  expect_match(md$output.list$workab$notes[["labels:workab"]], "synthesis 2", fixed = TRUE)
  expect_false("labels:workab" %in% names(md$output.list$depress$notes))
  expect_true(any(grepl("Labels of 'workab'", capture.output(print(md, plot = FALSE)), fixed = TRUE)))
})

test_that("the counts behind the report equal a count in plain R, with counted cells too", {
  set.seed(3)
  n <- 300
  orig <- data.frame(k = factor(sample(c("a", "b", "c"), n, TRUE)), t = factor(sample(c("x", "y"), n, TRUE)))
  syn <- data.frame(k = factor(sample(c("a", "B", "C"), n, TRUE)), t = factor(sample(c("x", "y"), n, TRUE)))
  expect_warning(d <- disclosure(syn, orig, keys = "k", target = "t", print.flag = FALSE), "\"k\"")
  expect_match(d$notes[["labels:k"]], sprintf("%s of %d original and %s of %d synthetic", sum(orig$k != "a"), n,
                                              sum(syn$k != "a"), n), fixed = TRUE)
  tab <- as.data.frame(table(orig))
  cells <- cell_counts(tab[tab$Freq > 0, ], n = "Freq")
  expect_warning(dc <- disclosure(syn, cells, keys = "k", target = "t", print.flag = FALSE), "\"k\"")
  expect_identical(dc$notes[["labels:k"]], d$notes[["labels:k"]])
})

test_that("labels are shortened in the note, in full in neither side's data", {
  long <- strrep("a", 200)
  orig <- data.frame(k = factor(rep(c(long, "b"), 10)), t = factor(rep(c("x", "y"), each = 10)))
  syn <- data.frame(k = factor(rep(c("c", "d"), 10)), t = factor(rep(c("x", "y"), each = 10)))
  expect_warning(d <- disclosure(syn, orig, keys = "k", target = "t", print.flag = FALSE))
  expect_false(grepl(long, d$notes[["labels:k"]], fixed = TRUE))
  expect_match(d$notes[["labels:k"]], "aaa...", fixed = TRUE)
})

test_that("the core's overlap of the levels flags the syntheses label_gap() flags, and the coverage it reads", {
  for (seed in 1:200) {
    set.seed(seed)
    m <- sample(1:4, 1)
    pool <- letters[1:sample(2:6, 1)]
    as_factor <- stats::runif(1) < 0.5
    # Each side with a random subset of the levels at random shares, some missing.
    column <- function(n) {
      present <- sample(pool, sample(seq_along(pool), 1))
      x <- sample(c(present, NA), n, replace = TRUE, prob = stats::runif(length(present) + 1))
      if (as_factor) factor(x) else match(x, pool) * 10
    }
    d <- data.frame(v = column(sample(3:30, 1)))
    syn <- lapply(seq_len(m), function(j) data.frame(v = column(sample(3:30, 1))))
    enc <- synthrisk:::encode_variables("v", d, syn, NULL, list(v = 0), strict = FALSE, n_threads = 1L,
                                        call = globalenv())
    info <- enc$info$v
    if (!isTRUE(info$one_sided)) next
    counts <- info$level_counts
    gap <- synthrisk:::label_gap(counts, enc$labels$v, info$missing_code + 1L)
    flags <- synthrisk:::label_gap_flags(info$level_overlap, m)
    expect_identical(which(flags), if (is.null(gap)) integer(0) else gap$syntheses, info = paste("seed", seed))
    present <- lapply(counts, function(x) x[-(info$missing_code + 1L)] > 0)
    for (j in seq_len(m)) {
      pair <- present[[1]] | present[[j + 1]]
      expect_identical(info$level_overlap$within_original[j], all(present[[1]][pair]), info = paste("seed", seed))
      expect_identical(info$level_overlap$covers_original[j], all(present[[j + 1]][pair]), info = paste("seed", seed))
    }
  }
})
