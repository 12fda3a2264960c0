# Counted cells made from records, independently of the package: rows with the same
# values of `vars` become one cell counting them (NA and NaN values of their own). With
# `split`, some cells are split into two rows (their counts add up) and the rows are
# shuffled, so that neither uniqueness nor order of the cells is assumed.
as_cells <- function(d, vars = names(d), split = FALSE, n = "n") {
  d <- as.data.frame(d)[vars]
  # A label per value that tells NA, NaN and every double apart.
  label <- function(x) {
    out <- if (is.double(x) && is.null(attr(x, "class"))) sprintf("%.17g", x) else as.character(x)
    out[is.na(x)] <- "<NA>"
    if (is.double(x)) out[is.nan(x)] <- "<NaN>"
    out
  }
  row_label <- do.call(paste, c(lapply(d, label), sep = "\x1f"))
  cell <- match(row_label, unique(row_label))
  first <- !duplicated(cell)
  cells <- d[first, , drop = FALSE]
  counts <- tabulate(cell)
  if (split && nrow(cells) > 0) {
    two <- which(counts > 1 & stats::runif(length(counts)) < 0.5)
    part <- vapply(counts[two], function(k) sample.int(k - 1L, 1), integer(1))
    cells <- rbind(cells, cells[two, , drop = FALSE])
    counts <- c(replace(counts, two, counts[two] - part), part)
    order <- sample.int(nrow(cells))
    cells <- cells[order, , drop = FALSE]
    counts <- counts[order]
  }
  cells[[n]] <- counts
  rownames(cells) <- NULL
  cell_counts(cells, n = n)
}

# The parts of a disclosure result that carry numbers or checks, for comparing runs.
result_parts <- function(x) {
  x[c("ident", "attrib", "allCAPs", "measures", "check_1way", "check1", "check_2way", "check2", "Nexclusions",
      "grouping", "keys", "target", "Norig", "Nsyn", "holdout", "Ncontrol", "holdout_notes")]
}

multi_parts <- function(x) {
  c(list(table = x$attrib.table, ident = c(x$ident.orig, x$ident.syn), Norig = x$Norig, grouping = x$grouping,
         holdout = x$holdout),
    lapply(x$output.list, result_parts))
}

# The numbers of a golden disclosure() case (synthpop 1.9-3's, helper-fixtures.R) and
# its checks, as test-golden-disclosure.R compares them.
expect_golden_numbers <- function(got, want, label) {
  expect_numbers(got$ident, want$ident, label = paste(label, "ident"))
  expect_numbers(got$attrib[names(want$attrib)], want$attrib, label = paste(label, "attrib"))
  same_caps <- setdiff(names(want$allCAPs), "TCAP")
  expect_numbers(got$allCAPs[same_caps], want$allCAPs[same_caps], label = paste(label, "allCAPs"))
  expect_numbers(got$measures$TCAP_synthpop, want$allCAPs$TCAP, label = paste(label, "TCAP of synthpop 1.9-3"))
  expect_identical(got$check1, want$check1, label = paste(label, "check1"))
  expect_identical(got$check2, want$check2, label = paste(label, "check2"))
}

# The parts of a request (R/request.R) that target_request() reads, for tests that
# call the core's protocol directly.
core_request <- function(keys, denom_lim, exclude_ov_denom_lim, thresh_2way) {
  list(keys = keys, env = globalenv(),
       limits = list(denom_lim = denom_lim, exclude_ov_denom_lim = exclude_ov_denom_lim, thresh_2way = thresh_2way))
}
