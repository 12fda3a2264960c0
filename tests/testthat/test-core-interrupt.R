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
