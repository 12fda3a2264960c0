# Our results carry classes of their own; synthpop's objects print with synthpop's
# methods whenever synthpop is loaded, in either load order (R/synthpop-objects.R).

# A stand-in for synthpop (not on CRAN's mirror here): a package of that name whose
# print methods for its classes say so.
fake_synthpop_library <- function() {
  lib <- tempfile("lib")
  src <- file.path(tempfile("src"), "synthpop")
  dir.create(lib)
  dir.create(file.path(src, "R"), recursive = TRUE)
  writeLines(c("Package: synthpop", "Version: 1.9.3", "Title: Stand-in", "Description: Stand-in.",
               "License: GPL-3", "Authors@R: person('a', 'b', role = c('aut', 'cre'), email = 'a@b.org')"),
             file.path(src, "DESCRIPTION"))
  writeLines(c("S3method(print, disclosure)", "S3method(print, multi.disclosure)", "S3method(print, repuniq.synds)"),
             file.path(src, "NAMESPACE"))
  writeLines(c("print.disclosure <- function(x, ...) cat('printed by synthpop\\n')",
               "print.multi.disclosure <- function(x, ...) cat('printed by synthpop\\n')",
               "print.repuniq.synds <- function(x, ...) cat('printed by synthpop\\n')"),
             file.path(src, "R", "print.R"))
  out <- system2(file.path(R.home("bin"), "R"), c("CMD", "INSTALL", "--no-test-load", paste0("--library=", lib), src),
                 stdout = TRUE, stderr = TRUE)
  if (!dir.exists(file.path(lib, "synthpop"))) stop(paste(out, collapse = "\n"))
  lib
}

run_in_fresh_r <- function(lines, lib) {
  script <- tempfile(fileext = ".R")
  writeLines(lines, script)
  libs <- paste(c(lib, dirname(find.package("synthrisk")), .libPaths()), collapse = .Platform$path.sep)
  withr::with_envvar(c(R_LIBS = libs, R_LIBS_USER = "", R_LIBS_SITE = ""),
                     system2(file.path(R.home("bin"), "Rscript"), script, stdout = TRUE, stderr = TRUE))
}

test_that("each package's objects print with its own methods, whichever loads last", {
  skip_on_cran()
  skip_if_not_installed("withr")
  lib <- fake_synthpop_library()
  body <- c(
    "keys <- c('sex', 'age', 'region', 'placesize')",
    "d <- disclosure(sd2011_synds, sd2011, keys = keys, target = 'depress', print.flag = FALSE)",
    "md <- multi.disclosure(sd2011_synds, sd2011, keys = keys, targets = 'depress', print.flag = FALSE, plot = FALSE)",
    "ru <- replicated.uniques(sd2011_synds, sd2011, keys = keys)",
    "stopifnot(inherits(d, 'disclosure'), inherits(md, 'multi.disclosure'), inherits(ru, 'repuniq.synds'))",
    "print(d, to.print = 'ident'); print(md); print(ru)",
    "theirs <- structure(unclass(d), class = 'disclosure')",
    "print(theirs)",
    "print(structure(unclass(md), class = 'multi.disclosure'))",
    "print(structure(unclass(ru), class = 'repuniq.synds'))")
  for (order in list(c("synthrisk", "synthpop"), c("synthpop", "synthrisk"))) {
    out <- run_in_fresh_r(c(sprintf("suppressMessages(library(%s))", order), body), lib)
    label <- paste("loaded", paste(order, collapse = " then "))
    expect_true(any(grepl("Disclosure risk for \"depress\"", out, fixed = TRUE)), label = label)
    expect_true(any(grepl("Disclosure risk for 1 target", out, fixed = TRUE)), label = label)
    expect_true(any(grepl("Uniques and replicated uniques", out, fixed = TRUE)), label = label)
    expect_identical(sum(out == "printed by synthpop"), 3L, label = label)
  }
  # Without synthpop loaded, synthpop's objects print with synthrisk's methods.
  out <- run_in_fresh_r(c("library(synthrisk)", body), lib)
  expect_identical(sum(out == "printed by synthpop"), 0L)
  expect_identical(sum(grepl("Disclosure risk for \"depress\"", out, fixed = TRUE)), 2L)
})

test_that("our results carry our class first and still inherit synthpop's", {
  keys <- c("sex", "age", "region", "placesize")
  d <- disclosure(sd2011_synds, sd2011, keys = keys, target = "depress", print.flag = FALSE)
  expect_identical(class(d), c("synthrisk_disclosure", "disclosure"))
  md <- multi.disclosure(sd2011_synds, sd2011, keys = keys, targets = "depress", print.flag = FALSE, plot = FALSE)
  expect_identical(class(md), c("synthrisk_multi.disclosure", "multi.disclosure"))
  expect_identical(class(replicated.uniques(sd2011_synds, sd2011, keys = keys)), c("synthrisk_repuniq", "repuniq.synds"))
})

test_that("every class the package makes is ours (synthrisk_), synthpop's or base R's, ours first", {
  sources <- list.files(test_path("..", "..", "R"), pattern = "[.]R$", full.names = TRUE)
  skip_if(length(sources) == 0, "R sources not beside the tests")
  synthpop_or_base <- c("disclosure", "multi.disclosure", "repuniq.synds", "synds", "factor", "data.frame")
  made <- unlist(lapply(sources, function(f) {
    lines <- grep("^\\s*#", readLines(f, warn = FALSE), value = TRUE, invert = TRUE)
    # class(x) <- ..., class = ..., and the classes named once (`<name>_class <- c(...)`).
    at <- grep("class = c?\\(?\"|class\\([a-z]+\\) <- c?\\(?\"|^[a-z_]+_class <- c\\(\"", lines, value = TRUE)
    sets <- regmatches(at, regexpr("(class(\\([a-z]+\\) <-| =)|^[a-z_]+_class <-) (c\\([^)]*\\)|\"[^\"]*\")", at))
    lapply(sets, function(x) eval(parse(text = sub("^(class(\\([a-z]+\\) <-| =)|[a-z_]+_class <-) ", "", x))))
  }), recursive = FALSE)
  expect_gte(length(made), 15)
  for (classes in made) {
    ours <- startsWith(classes, "synthrisk_")
    expect_true(all(ours | classes %in% synthpop_or_base), label = paste(classes, collapse = ", "))
    # Ours come first: synthpop's methods never see our objects before ours do.
    expect_false(is.unsorted(!ours), label = paste(classes, collapse = ", "))
  }
  keys <- c("sex", "age", "region", "placesize")
  expect_identical(class(tau_curve(sd2011_synds, sd2011, keys = keys, targets = "depress")),
                   c("synthrisk_tau_curve", "data.frame"))
  expect_identical(class(record_risk(sd2011_synds, sd2011, keys = keys, target = "depress")), "synthrisk_record_risk")
  expect_identical(class(dcr(sd2011_synds, sd2011, vars = keys)), "synthrisk_dcr")
})

test_that("disclosure() on an object of class 'summary' is not sent to multi.disclosure()", {
  keys <- c("sex", "age", "region", "placesize")
  not_ours <- structure(list(a = 1), class = "summary")
  expect_error(disclosure(not_ours, sd2011, keys = keys, target = "depress"), "must be a")
  registered <- get(".__S3MethodsTable__.", envir = asNamespace("synthrisk"))
  expect_false(exists("disclosure.summary", envir = registered, inherits = FALSE))
  expect_true(exists("disclosure.synds", envir = registered, inherits = FALSE))
  # The exported alias of synthpop's name still works.
  md <- disclosure.summary(sd2011_synds, sd2011, keys = keys, targets = "depress", print.flag = FALSE, plot = FALSE)
  expect_s3_class(md, "multi.disclosure")
})
