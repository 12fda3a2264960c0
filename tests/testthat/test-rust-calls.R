# The R glue of the core: errors arrive verbatim, values R should never send are
# "internal" errors rather than silent clamps.

small_encoding <- function() {
  d <- data.frame(k = c("a", "a", "a", "b"), t = c("x", "x", "y", "x"))
  synthrisk:::encode_variables(c("k", "t"), d, list(d), NULL, list(k = 0, t = 0), strict = FALSE,
                               n_threads = 1L, call = globalenv())
}

small_request <- function(enc) {
  opt <- list(target = "t", not.targetlev = NULL, usetargetNA = TRUE, exclude.keys = NULL,
              exclude.keylevs = NULL, exclude.targetlevs = NULL)
  synthrisk:::target_request(opt, enc, core_request("k", 5L, FALSE, c(4, 80)))
}

compute <- function(enc, request) {
  synthrisk:::rust_result(synthrisk:::rust_compute(enc$ptr, 0L, TRUE, list(request), 1L))
}

test_that("a % in a core error reaches R verbatim, not as a format string", {
  spec <- list(kind = "50% {x} %s", columns = list(1), remaps = NULL, n_levels = 0L, missing_code = 0L)
  err <- expect_error(synthrisk:::rust_result(synthrisk:::rust_encode_variables(list(spec), 1L)))
  expect_match(conditionMessage(err), "internal: `vars[[1]]$kind` is `50% {x} %s`", fixed = TRUE)
})

test_that("a core error comes back as extendr's result condition, raised by rust_result()", {
  enc <- small_encoding()
  raw <- synthrisk:::rust_compute(enc$ptr, 0L, TRUE, list(small_request(enc)), 0L)
  expect_s3_class(raw, c("extendr_error", "error", "condition"), exact = TRUE)
  expect_s3_class(raw$value, "synthrisk_rust_error", exact = TRUE)
  expect_false(raw$value$interrupted)
  expect_match(raw$value$message, "internal: n_threads is 0", fixed = TRUE)
  err <- expect_error(synthrisk:::rust_result(raw), class = "rlang_error")
  expect_match(conditionMessage(err), "could not compute the measures", fixed = TRUE)
  ok <- synthrisk:::rust_compute(enc$ptr, 0L, TRUE, list(small_request(enc)), 1L)
  expect_false(inherits(ok, "condition"))
  expect_identical(synthrisk:::rust_result(ok), ok)
})

test_that("values R should never send are internal errors, not clamped", {
  enc <- small_encoding()
  req <- small_request(enc)
  expect_error(compute(enc, utils::modifyList(req, list(var = -1L))), "internal: `targets[[1]]$var` is -1", fixed = TRUE)
  expect_error(compute(enc, utils::modifyList(req, list(excluded_levels = -2L))), "internal: `targets[[1]]$excluded_levels` has -2", fixed = TRUE)
  expect_error(compute(enc, utils::modifyList(req, list(excluded_levels = 7L))), "internal: `targets[[1]]$excluded_levels` has 7, beyond", fixed = TRUE)
  expect_error(compute(enc, utils::modifyList(req, list(denom_lim = -1L))), "internal: `denom_lim` is -1", fixed = TRUE)
  expect_error(compute(enc, utils::modifyList(req, list(twoway_min_cell = NA_real_))), "internal: `targets[[1]]$twoway_min_cell` must be one number", fixed = TRUE)
  # A value of the wrong type or NA where the request's struct has none is refused by
  # serde while reading the request, before anything runs; the error names the element
  # as R reaches it.
  refused <- function(request) {
    raw <- synthrisk:::rust_compute(enc$ptr, 0L, TRUE, list(request), 1L)
    expect_s3_class(raw$value, "synthrisk_rust_error")
    raw$value$message
  }
  expect_match(refused(utils::modifyList(req, list(use_target_na = NA))),
               "internal: `request$targets[[1]]$use_target_na` is not as the protocol says: Must not be NA", fixed = TRUE)
  expect_match(refused(utils::modifyList(req, list(excluded_levels = c(1L, NA_integer_)))),
               "internal: `request$targets[[1]]$excluded_levels[[2]]` is not as the protocol says", fixed = TRUE)
  expect_match(refused(utils::modifyList(req, list(var = 1.5))),
               "internal: `request$targets[[1]]$var` is not as the protocol says", fixed = TRUE)
  expect_match(refused(c(req, list(unknown_field = 1L))),
               "internal: `request$targets[[1]]$unknown_field` is not as the protocol says: unknown field `unknown_field`",
               fixed = TRUE)
  expect_error(synthrisk:::rust_result(synthrisk:::rust_compute(enc$ptr, -1L, TRUE, list(req), 1L)), "internal: `keys`")
  expect_error(synthrisk:::rust_result(synthrisk:::rust_compute(enc$ptr, 0L, TRUE, list(req), 0L)), "internal: n_threads")
})

test_that("denom_lim may be a double: Inf never excludes, a fraction compares as its floor", {
  enc <- small_encoding()
  req <- small_request(enc)
  none <- compute(enc, utils::modifyList(req, list(denom_lim = NA_integer_)))
  expect_identical(compute(enc, utils::modifyList(req, list(denom_lim = Inf))), none)
  one <- compute(enc, utils::modifyList(req, list(denom_lim = 1L)))
  expect_false(identical(one, none))
  expect_identical(compute(enc, utils::modifyList(req, list(denom_lim = 1.5))), one)
})

test_that("the core's results name every number (no positional protocol)", {
  enc <- small_encoding()
  raw <- compute(enc, small_request(enc))[[1]]
  expect_true(all(setdiff(synthrisk:::measure_registry$measure, "DCAP") %in% names(raw$stats)))
  expect_identical(names(raw$nexcl), synthrisk:::exclusion_rows)
  expect_identical(names(raw$one_way), c("level", "n_level_dis", "total_disclosive", "level_orig", "all_orig"))
  expect_identical(names(raw$two_way),
                   c("synthesis", "key", "key_level", "target_level", "npairs", "key_target_total", "key_total"))
  # Hand counts: q a has x, x, y on both sides (no level certain); q b has x once.
  expect_equal(raw$stats$DiSCO, 25)
  expect_equal(raw$nexcl$original, c(0, 0, 0, 0, 0, 4))
  expect_equal(raw$one_way$total_disclosive, 1)
})

test_that("an encoding keeps the factor columns it borrows alive", {
  make <- function() {
    d <- data.frame(k = factor(c("a", "a", "a", "b")), t = factor(c("x", "x", "y", "x")))
    synthrisk:::encode_variables(c("k", "t"), d, list(d), NULL, list(k = 0, t = 0), strict = FALSE,
                                 n_threads = 1L, call = globalenv())
  }
  enc <- make()
  before <- compute(enc, small_request(enc))
  # The data frame is gone; R may reuse its memory unless the encoding holds it.
  for (i in 1:3) {
    junk <- lapply(1:200, function(j) sample.int(4L, 4L, replace = TRUE))
    invisible(gc(full = TRUE))
  }
  expect_identical(compute(enc, small_request(enc)), before)
})

test_that("counted cells through the protocol equal the records they count", {
  set.seed(11)
  cells <- function(n) {
    data.frame(k = factor(sample(c("a", "b", "c"), n, TRUE)), m = sample(1:3, n, TRUE),
               t = factor(sample(c("x", "y", "z"), n, TRUE), levels = c("x", "y", "z")))
  }
  orig <- cells(40)
  syn <- cells(35)
  w_orig <- sample.int(4L, nrow(orig), replace = TRUE)
  w_syn <- sample.int(4L, nrow(syn), replace = TRUE)
  expand <- function(d, w) d[rep(seq_len(nrow(d)), w), , drop = FALSE]
  run <- function(data, syn, weights) {
    enc <- synthrisk:::encode_variables(c("k", "m", "t"), data, list(syn), NULL, list(k = 0, m = 0, t = 0),
                                        strict = FALSE, n_threads = 1L, call = globalenv())
    opt <- list(target = "t", not.targetlev = NULL, usetargetNA = TRUE, exclude.keys = NULL,
                exclude.keylevs = NULL, exclude.targetlevs = NULL)
    req <- synthrisk:::target_request(opt, enc, core_request(c("k", "m"), 5L, FALSE, c(1, 0)))
    plan <- list(original = 0L, syntheses = list(list(dataset = 1L, rows = NULL)), tau = NULL, weights = weights)
    synthrisk:::rust_result(synthrisk:::rust_compute(enc$ptr, 0:1, c(TRUE, TRUE), list(req), 1L, plan))
  }
  want <- run(expand(orig, w_orig), expand(syn, w_syn), NULL)
  got <- run(orig, syn, list(w_orig, w_syn))
  expect_equal(got, want)
  expect_gt(want[[1]]$stats$DiSCO, 0)
  expect_error(run(orig, syn, list(replace(w_orig, 1, 0L), NULL)), "weight 0", fixed = TRUE)
  expect_error(run(orig, syn, list(-w_orig, NULL)), "internal: `plan$weights[[1]]` has -", fixed = TRUE)
})

# A long run honours Ctrl-C: the core works in chunks and, between chunks, checks for
# an interrupt on R's thread; R then signals an ordinary interrupt and the session stays
# usable. Tested in a child Rscript that receives SIGINT while the core is busy.

test_that("a long run honours an interrupt and leaves the session usable", {
  skip_on_cran()
  skip_on_os("windows")
  dir <- tempfile("synthrisk-interrupt")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE), add = TRUE)
  out <- file.path(dir, "out.txt")
  script <- file.path(dir, "child.R")
  writeLines(c(
    "library(synthrisk)",
    sprintf("writeLines(as.character(Sys.getpid()), %s)", deparse(file.path(dir, "pid"))),
    "set.seed(1); n <- 2e6",
    "d <- data.frame(k1 = sample.int(200L, n, TRUE), k2 = sample.int(200L, n, TRUE), t = sample.int(5L, n, TRUE))",
    "enc <- synthrisk:::encode_variables(c('k1', 'k2', 't'), d, list(d), NULL, list(k1 = 0, k2 = 0, t = 0),",
    "                                    strict = FALSE, n_threads = 2L, call = globalenv())",
    "opt <- list(target = 't', not.targetlev = NULL, usetargetNA = TRUE, exclude.keys = NULL,",
    "            exclude.keylevs = NULL, exclude.targetlevs = NULL)",
    "req <- synthrisk:::target_request(opt, enc, list(keys = c('k1', 'k2'), env = globalenv(), limits = list(denom_lim = 5L, exclude_ov_denom_lim = FALSE, thresh_2way = c(4, 80))))",
    "# the same target 1000 times: about a minute of counting without an interrupt",
    "reqs <- rep(list(req), 1000)",
    "cat('computing\\n'); flush(stdout()); t0 <- Sys.time()",
    "r <- tryCatch(synthrisk:::rust_result(synthrisk:::rust_compute(enc$ptr, 0:1, c(TRUE, TRUE), reqs, 2L)),",
    "              interrupt = function(e) 'interrupted')",
    "cat(if (identical(r, 'interrupted')) 'interrupted' else 'finished', 'after',",
    "    format(as.numeric(Sys.time() - t0, units = 'secs')), '\\n')",
    "o <- data.frame(k = c('a', 'a'), t = c(NA, 1)); s <- data.frame(k = c('a', 'a'), t = c(NA, NaN))",
    "cat('usable:', disclosure(s, o, keys = 'k', target = 't', print.flag = FALSE)$attrib$Dsyn, '\\n')"
  ), script)
  rscript <- file.path(R.home("bin"), "Rscript")
  libs <- paste(.libPaths(), collapse = .Platform$path.sep)
  system2(rscript, shQuote(script), stdout = out, stderr = file.path(dir, "err.txt"), wait = FALSE,
          env = paste0("R_LIBS=", shQuote(libs)))
  wait_for <- function(pattern, seconds) {
    deadline <- Sys.time() + seconds
    while (Sys.time() < deadline) {
      if (file.exists(out) && any(grepl(pattern, readLines(out, warn = FALSE)))) return(TRUE)
      Sys.sleep(0.1)
    }
    FALSE
  }
  pid <- NULL
  answered <- FALSE
  on.exit(if (!is.null(pid) && !answered) tools::pskill(pid, tools::SIGKILL), add = TRUE)
  expect_true(wait_for("^computing", 60))
  pid <- as.integer(readLines(file.path(dir, "pid")))
  Sys.sleep(1)
  tools::pskill(pid, tools::SIGINT)
  # Without interrupt checks the run would go on for about a minute.
  answered <- wait_for("^usable", 10)
  expect_true(answered, label = "the child answered within 10 s of Ctrl-C")
  lines <- readLines(out, warn = FALSE)
  expect_true(any(grepl("^interrupted after", lines)), label = paste(lines, collapse = " / "))
  secs <- as.numeric(sub("^interrupted after ([0-9.e+-]+).*", "\\1", grep("^interrupted", lines, value = TRUE)))
  expect_lt(secs, 6)
  expect_true(any(grepl("^usable: 0", lines)))
})

# ARCHITECTURE.md's invariants on the two Rust crates, read from their sources.
rust_sources <- function(dir) {
  list.files(test_path("..", "..", "src", "rust", dir), pattern = "[.]rs$", recursive = TRUE, full.names = TRUE)
}

test_that("nothing points back up: the core has no R types and links no R API; the glue prints nothing", {
  core_manifest <- test_path("..", "..", "src", "rust", "core", "Cargo.toml")
  skip_if_not(file.exists(core_manifest), "Rust sources not beside the tests")
  manifest <- readLines(core_manifest, warn = FALSE)
  expect_false(any(grepl("extendr|libR", manifest)), label = "an R crate among the core's dependencies")
  core <- unlist(lapply(rust_sources("core"), function(f) {
    hits <- grep("extendr|Robj|SEXP|libR_sys|R_[A-Z][A-Za-z]+\\(", readLines(f, warn = FALSE), value = TRUE)
    if (length(hits) > 0) paste0(basename(f), ": ", hits) else character(0)
  }))
  expect_identical(core, character(0), label = paste(core, collapse = "\n"))
  glue <- unlist(lapply(rust_sources("src"), function(f) {
    hits <- grep("r?e?println!|r?e?print!", readLines(f, warn = FALSE), value = TRUE)
    if (length(hits) > 0) paste0(basename(f), ": ", hits) else character(0)
  }))
  expect_identical(glue, character(0), label = paste(glue, collapse = "\n"))
})

test_that("the installed library has no phase timer compiled in (only bench/phase-times.sh builds one)", {
  library_path <- getLoadedDLLs()[["synthrisk"]][["path"]]
  bytes <- readBin(library_path, "raw", file.size(library_path))
  expect_length(grepRaw("synthrisk phase ", bytes, fixed = TRUE), 0)
})

test_that("each glue `mod wire` reads requests by serde, and lists of the handle by name, never with the prelude", {
  files <- list.files(test_path("..", "..", "src", "rust", "src"), pattern = "[.]rs$", full.names = TRUE)
  skip_if(length(files) == 0, "Rust sources not beside the tests")
  with_wire <- 0
  requests <- 0
  for (f in files) {
    lines <- readLines(f, warn = FALSE)
    start <- grep("^(pub\\(crate\\) )?mod wire \\{", lines)
    if (length(start) == 0) next
    with_wire <- with_wire + 1
    end <- start + match("}", lines[-seq_len(start)])
    body <- lines[start:end]
    expect_false(any(grepl("prelude", body, fixed = TRUE)), label = basename(f))
    # extendr's derive reads `value.dollar(field)`: by name only with FieldByName.
    if (any(grepl("derive(TryFromList)", body, fixed = TRUE))) {
      expect_true(any(grepl("use crate::wire::FieldByName;", body, fixed = TRUE)), label = basename(f))
    }
    # Every request is read by serde and refuses a field it does not know.
    for (at in grep("pub\\(crate\\) struct [A-Za-z]*Request \\{", body)) {
      requests <- requests + 1
      expect_match(body[at - 2L], "#[derive(Deserialize)]", fixed = TRUE, label = paste(basename(f), body[at]))
      expect_match(body[at - 1L], "#[serde(deny_unknown_fields)]", fixed = TRUE, label = paste(basename(f), body[at]))
    }
  }
  expect_gte(with_wire, 8)
  expect_gte(requests, 16)
})

test_that("every glue result is a typed struct (IntoList or result_list!), not names and values laid side by side", {
  files <- rust_sources("src")
  skip_if(length(files) == 0, "Rust sources not beside the tests")
  positional <- unlist(lapply(files, function(f) {
    lines <- readLines(f, warn = FALSE)
    hits <- grep("named_list\\(|from_names_and_values\\(|ResultList::named\\(", lines, value = TRUE)
    # The measures' and exclusion tables' names come from the core's registries.
    hits <- hits[!grepl("MEASURE_NAMES|TABLE_NAMES", hits)]
    if (length(hits) > 0) paste0(basename(f), ": ", trimws(hits)) else character(0)
  }))
  expect_identical(positional, character(0), label = paste(positional, collapse = "\n"))
  typed <- function(pattern) {
    sum(vapply(files, function(f) sum(grepl(pattern, readLines(f, warn = FALSE), fixed = TRUE)), numeric(1)))
  }
  # attacks.rs 6, compute.rs, dcr.rs and records.rs 2 each, column_facts.rs,
  # encoding.rs, key_subsets.rs, identification.rs and protocol.rs 1 each; and
  # result_list! (r_lists.rs: built on R's protect stack) in compute.rs 3 and
  # encoding.rs 2.
  expect_gte(typed("#[derive(IntoList)]"), 17)
  expect_gte(typed("result_list! {"), 5)
})

test_that("every entry point is declared once on each side, as a handle and one typed request", {
  lib <- test_path("..", "..", "src", "rust", "src", "lib.rs")
  skip_if_not(file.exists(lib), "Rust sources not beside the tests")
  lib_lines <- readLines(lib, warn = FALSE)
  declared <- regmatches(lib_lines, regexec("^\\s*(rust_[a-z_]+) => ([a-z_]+)::([a-z_]+);$", lib_lines))
  declared <- do.call(rbind, lapply(Filter(length, declared), function(m) m[2:4]))
  expect_gte(nrow(declared), 17)
  expect_identical(anyDuplicated(declared[, 1]), 0L)
  # One #[extendr] function, the one entry_points! writes for every line.
  expect_identical(sum(grepl("#[extendr]", lib_lines, fixed = TRUE)), 1L)
  # R: one wrapper per entry point, rust_x(), each `.Call(wrap__rust_x, handle,
  # list(...))` naming the request's fields, and no .Call elsewhere.
  code_lines <- function(f) grep("^\\s*#", readLines(f, warn = FALSE), value = TRUE, invert = TRUE)
  calls_lines <- code_lines(test_path("..", "..", "R", "rust-calls.R"))
  r_calls <- regmatches(calls_lines, regexec("^rust_([a-z_]+) <- function.*|\\.Call\\(wrap__(rust_[a-z_]+), ([^,()]+), list\\(",
                                             calls_lines))
  r_calls <- Filter(length, r_calls)
  wrappers <- paste0("rust_", Filter(nzchar, vapply(r_calls, `[`, "", 2)))
  r_names <- Filter(nzchar, vapply(r_calls, `[`, "", 3))
  expect_setequal(r_names, declared[, 1])
  expect_identical(anyDuplicated(r_names), 0L)
  expect_true(all(declared[, 1] %in% wrappers), label = paste(setdiff(declared[, 1], wrappers), collapse = ", "))
  all_calls <- unlist(lapply(list.files(test_path("..", "..", "R"), full.names = TRUE), function(f) {
    hits <- grep(".Call(", code_lines(f), fixed = TRUE, value = TRUE)
    if (length(hits) > 0) paste0(basename(f), ": ", trimws(hits)) else character(0)
  }))
  expect_length(all_calls, nrow(declared))
  # Glue: each topic function takes the handle and its typed request.
  for (k in seq_len(nrow(declared))) {
    src <- readLines(test_path("..", "..", "src", "rust", "src", paste0(declared[k, 2], ".rs")), warn = FALSE)
    signature <- grep(paste0("^pub fn ", declared[k, 3], "\\("), src, value = TRUE)
    expect_length(signature, 1)
    expect_match(signature, "\\((mut )?\\w+: Robj, \\w+: [A-Za-z]*Request\\) -> GlueResult<Robj>",
                 label = paste(declared[k, 1], signature))
  }
})

test_that("a request not of its declared shape is one internal error naming the request", {
  enc <- small_encoding()
  bad <- .Call(synthrisk:::wrap__rust_level_counts, enc$ptr, list(var = "zero", weights = list(NULL, NULL)))
  expect_s3_class(bad, "extendr_error")
  expect_error(synthrisk:::rust_result(bad), "internal: `request` is not as the protocol says")
  ok <- synthrisk:::rust_result(synthrisk:::rust_level_counts(enc$ptr, 0L, list(NULL, NULL)))
  expect_identical(ok, list(c(3, 1, 0), c(3, 1, 0)))
  expect_error(synthrisk:::rust_result(.Call(synthrisk:::wrap__rust_measure_declarations, NULL, list(1))),
               "internal: `request`")
  # extendr 0.9's serde panics on a character vector read as a sequence; read_request()
  # refuses every string that is not one element of an unnamed list before serde runs.
  for (names in list(c("a", "b"), "a", list(c("a", "b")))) {
    bad <- .Call(synthrisk:::wrap__rust_dcr, enc$ptr, list(columns = list(vars = 0L, label_codes = list(double(0)), names = names),
                                                           variable_weights = 1, searches = list(), n_threads = 1L))
    expect_error(synthrisk:::rust_result(bad), "a character vector that is not one string of a list", fixed = TRUE)
  }
})
