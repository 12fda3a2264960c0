# The one preparation (R/prepare.R) and the one encoding behind it: every front door
# sees the same data the same way.

# An original, and a synthesis holding the same records written differently where the
# definitions make no difference (section 2): labels in NFD against NFC, NA against an
# NA level and the label "Missing", numbers that print alike (0.1 + 0.2 and 0.3). A
# cont.na code (-8) is a value of its own on both sides.
alike_case <- function() {
  nfc <- c("Krak\u00f3w", "\u0141\u00f3d\u017a", "Pozna\u0144", "Gda\u0144sk")
  nfd <- c("Krako\u0301w", "\u0141o\u0301dz\u0301", "Poznan\u0301", "Gdan\u0301sk")
  stopifnot(!any(nfd == nfc))
  set.seed(11)
  n <- 120
  city <- sample(c(1:4, NA), n, replace = TRUE)
  x <- sample(c(1, 2, 0.3, -8), n, replace = TRUE)
  status <- sample(c("a", "b", "Missing", NA), n, replace = TRUE)
  y <- sample(c("p", "q", "r"), n, replace = TRUE)
  original <- data.frame(city = factor(nfc[city], levels = nfc), x = x, status = status, y = y,
                         stringsAsFactors = FALSE)
  syn <- original
  syn$city <- addNA(factor(nfd[city], levels = nfd))
  syn$x[x == 0.3] <- 0.1 + 0.2
  syn$status[is.na(status)] <- "Missing"
  syn$status[status %in% "Missing"] <- NA
  stopifnot(!identical(syn$x, original$x))
  list(original = original, syn = syn, cont.na = list(x = -8))
}

test_that("every front door treats NFC/NFD labels, NA/NA level/Missing, cont.na codes and look-alike doubles alike", {
  case <- alike_case()
  orig <- case$original
  keys <- c("city", "x", "status")
  same <- function(f) expect_equal(f(case$syn), f(orig), tolerance = 1e-12, ignore_attr = TRUE)
  strip <- function(d) d[c("ident", "attrib", "allCAPs", "check1", "check2", "Nexclusions")]
  same(function(s) strip(disclosure(s, orig, case$cont.na, keys, "y", print.flag = FALSE)))
  same(function(s) disclosure(s, orig, case$cont.na, keys = keys, target = "y", print.flag = FALSE,
                              ngroups_keys = c(0, 2, 0))$ident)
  multi <- function(s) {
    md <- multi.disclosure(s, orig, case$cont.na, keys = c("city", "status"), print.flag = FALSE, plot = FALSE)
    lapply(md$output.list, strip)
  }
  same(multi)
  same(function(s) record_risk(list(s), orig, keys, target = "y")$original)
  same(function(s) record_risk(list(s), orig, keys)$synthetic)
  same(function(s) unclass(replicated.uniques(list(s), orig, keys))[c("res_tab", "repU.rm", "synU.rm")])
  same(function(s) tau_curve(list(s), orig, keys = c("city", "status"), targets = "y")$curve)
  same(function(s) key_sweep(list(s), orig, keys = keys, targets = "y", sizes = 0:3, cont.na = case$cont.na)$estimate)
  same(function(s) identification_risk(s, orig, keys = c("city", "status"), syn.vars = "y")$summary)
  same(function(s) {
    r <- disclosure_report_contents(list(s), orig, keys = c("city", "status"), cont.na = case$cont.na)
    r[c("identity", "attrib_table", "attrib_all", "records", "tau")]
  })
  # dcr(): labels alike are one label (IMS 100 % on the categorical variables); the
  # look-alike doubles are compared by magnitude (section 11), at |x - y| / R apart.
  d <- dcr(case$syn, orig, vars = c("city", "status", "y"))
  expect_identical(d$summary$IMS, 100)
  expect_identical(d$synthetic$dcr, rep(0, nrow(orig)))
  dx <- dcr(case$syn, orig, cont.na = case$cont.na)
  moved <- which(case$syn$x != orig$x)
  expect_true(all(dx$synthetic$dcr[moved] > 0))
  expect_true(all(dx$synthetic$dcr[-moved] == 0))
  expect_identical(dx$ranges[["x"]], 2 - 0.3)
})

test_that("dcr() on labels typed as one character and as letter plus combining accent gives IMS 100 %", {
  x <- data.frame(city = c("Krak\u00f3w", "Lodz", "Pozna\u0144", "Wroclaw"))
  y <- data.frame(city = c("Krako\u0301w", "Lodz", "Poznan\u0301", "Wroclaw"))
  expect_identical(dcr(y, x)$summary$IMS, 100)
  expect_identical(dcr(y, x)$summary$copied, 100)
})

test_that("dcr() says when labels of a categorical variable barely meet", {
  data <- data.frame(sex = c("male", "female", "male", "female"), age = c(20, 30, 40, 50))
  syn <- data.frame(sex = c("MALE", "FEMALE", "MALE", "FEMALE"), age = c(20, 30, 40, 50))
  d <- dcr(syn, data)
  expect_named(d$label_gaps, "sex")
  expect_match(paste(format(d), collapse = " "), "Labels of 'sex'.*share no label")
})

test_that("prepare_inputs() checks each input once and resolves threads in one place", {
  syn <- data.frame(a = 1:3)
  p <- synthrisk:::prepare_inputs(list(syn, syn), syn, cont.na = list(a = c(-8, NA)), n_threads = 1, fn = "f",
                                  call = NULL)
  expect_s3_class(p, "synthrisk_inputs")
  expect_identical(p$m, 2L)
  expect_identical(p$cont.na, list(a = -8))
  expect_identical(p$n_threads, 1L)
  expect_output(print(p), "2 syntheses, 1 thread")
  withr::with_options(list(synthrisk.n_threads = 3), {
    expect_identical(synthrisk:::prepare_inputs(syn, syn, fn = "f", call = NULL)$n_threads, 3L)
  })
  obj <- structure(list(syn = syn, m = 1, cont.na = list(a = -9)), class = "synds")
  expect_identical(synthrisk:::prepare_inputs(obj, syn, fn = "f", call = NULL)$cont.na, list(a = -9))
  expect_error(synthrisk:::prepare_inputs(obj, syn, cont.na = list(a = 1), fn = "f", call = NULL),
               "taken from the .*synds")
  expect_error(synthrisk:::prepare_inputs(syn, syn, n_threads = 0, fn = "f", call = NULL), "n_threads")
  counted <- cell_counts(data.frame(a = 1:2, n = c(3L, 4L)))
  expect_error(synthrisk:::prepare_inputs(syn, counted, fn = "dcr", call = NULL), "records themselves")
  expect_silent(synthrisk:::prepare_inputs(syn, counted, fn = "disclosure", call = NULL, records = FALSE))
  expect_error(synthrisk:::prepare_inputs(syn, syn, control = "x", fn = "f", call = NULL), "control")
})

test_that("each analysis that takes cont.na beside a synds says it is taken from the object", {
  obj <- structure(list(syn = sd2011[1:50, c("sex", "age")], m = 1, cont.na = NULL), class = "synds")
  data <- sd2011[1:50, c("sex", "age")]
  expect_error(dcr(obj, data, cont.na = list(age = -8)), "taken from the .*synds")
  expect_error(disclosure(obj, data, keys = "sex", target = "age", cont.na = list(age = -8)), "taken from the .*synds")
  expect_error(tau_curve(obj, data, keys = "sex", targets = "age", cont.na = list(age = -8)), "taken from the .*synds")
  expect_error(key_sweep(obj, data, keys = "sex", targets = "age", cont.na = list(age = -8)), "taken from the .*synds")
})

test_that("a cont.na name that is not a variable of data is an error naming it, in every function that takes cont.na (issue 37)", {
  # synthpop stops here too; a misspelled name would leave -8 counted as an income.
  data <- sd2011[1:300, c("sex", "age", "region", "income", "depress")]
  syn <- sd2011_synds$syn[1:300, names(data)]
  keys <- c("sex", "age", "region")
  calls <- list(
    disclosure = function(cna) disclosure(syn, data, cna, keys = keys, target = "depress", print.flag = FALSE),
    multi.disclosure = function(cna) multi.disclosure(syn, data, cna, keys = keys, print.flag = FALSE, plot = FALSE),
    tau_curve = function(cna) tau_curve(syn, data, keys, targets = "income", tau = c(0, 1), cont.na = cna),
    key_sweep = function(cna) key_sweep(syn, data, keys, targets = "income", sizes = 1, cont.na = cna),
    size_curve = function(cna) size_curve(syn, data, keys, targets = "income", sizes = 100, reps = 1, seed = 1,
                                          cont.na = cna),
    record_risk = function(cna) record_risk(syn, data, keys, target = "income", cont.na = cna),
    record_risk_keys = function(cna) record_risk(syn, data, keys, cont.na = cna),
    dcr = function(cna) dcr(syn, data, cont.na = cna),
    inference_risk = function(cna) inference_risk(syn, data, secret = "income", aux = keys, cont.na = cna),
    linkability_risk = function(cna) linkability_risk(syn, data, aux_a = c("sex", "age"), aux_b = c("region", "income"),
                                                      cont.na = cna),
    singling_out_risk = function(cna) singling_out_risk(syn, data, cols = c("age", "income"), cont.na = cna, seed = 1),
    disclosure_report_contents = function(cna) disclosure_report_contents(syn, data, keys, targets = "income",
                                                                          cont.na = cna)
  )
  typo <- list(incme = -8)
  for (fn in names(calls)) {
    cnd <- expect_error(calls[[fn]](typo), class = "rlang_error", info = fn)
    msg <- cli::ansi_strip(conditionMessage(cnd))
    expect_match(msg, "`cont.na` names a variable not in `data`: \"incme\"", fixed = TRUE, info = fn)
    expect_match(msg, "Did you mean \"income\" for \"incme\"?", fixed = TRUE, info = fn)
    # The same call with the name spelled right runs: the error is the name's.
    expect_no_error(calls[[fn]](list(income = -8)), message = fn)
  }
  # disclosure_report() checks before it writes anything.
  file <- withr::local_tempfile(fileext = ".html")
  expect_error(disclosure_report(syn, data, keys, targets = "income", file = file, cont.na = typo),
               "`cont.na` names a variable not in `data`: \"incme\"", fixed = TRUE)
  expect_false(file.exists(file))
  # A name with no close variable gets no suggestion; every bad name is named.
  cnd <- expect_error(disclosure(syn, data, list(income = -8, zzzzzz = -9, salary = c(NA, -1)), keys = keys,
                                 target = "depress", print.flag = FALSE))
  msg <- cli::ansi_strip(conditionMessage(cnd))
  expect_match(msg, "`cont.na` names variables not in `data`: \"zzzzzz\" and \"salary\"", fixed = TRUE)
  expect_no_match(msg, "Did you mean")
  # An entry without codes changes nothing, so it may name any variable: syn()'s lists
  # (every variable it was given, most with NA) serve data holding fewer columns.
  full <- sd2011_synds$cont.na
  expect_true(all(c("ls", "marital") %in% names(full)) && !any(c("ls", "marital") %in% names(data)))
  expect_equal(disclosure(syn, data, full, keys = keys, target = "income", print.flag = FALSE)$attrib,
               disclosure(syn, data, list(income = -8), keys = keys, target = "income", print.flag = FALSE)$attrib)
  # Every exported function with a cont.na argument is among those called above.
  exported <- getNamespaceExports("synthrisk")
  with_cont_na <- Filter(function(f) {
    g <- get(f, envir = asNamespace("synthrisk"))
    is.function(g) && "cont.na" %in% names(formals(g))
  }, exported)
  expect_true(all(with_cont_na %in% names(calls)), info = paste(setdiff(with_cont_na, names(calls)), collapse = ", "))
})

test_that("cont.na naming a variable not in a database table is the same error", {
  con <- local_sqlite(list(orig = sd2011[1:200, c("sex", "age", "income")],
                           syn = sd2011_synds$syn[1:200, c("sex", "age", "income")]))
  expect_error(multi.disclosure(dplyr::tbl(con, "syn"), dplyr::tbl(con, "orig"), list(incme = -8), keys = "sex",
                                print.flag = FALSE, plot = FALSE),
               "`cont.na` names a variable not in `data`: \"incme\"", fixed = TRUE)
})

test_that("a synds object's own cont.na may name variables beyond data, as syn() makes it", {
  # syn() names every variable it was given; data holding fewer is not an error (nor in synthpop).
  expect_setequal(names(sd2011_synds$cont.na), names(sd2011))
  data <- sd2011[c("sex", "age", "region", "income")]
  obj <- sd2011_synds
  obj$syn <- obj$syn[names(data)]
  md <- multi.disclosure(obj, data, keys = c("sex", "age", "region"), print.flag = FALSE, plot = FALSE)
  same <- multi.disclosure(obj$syn, data, list(income = -8), keys = c("sex", "age", "region"), print.flag = FALSE,
                           plot = FALSE)
  expect_equal(md$attrib.table, same$attrib.table)
})
