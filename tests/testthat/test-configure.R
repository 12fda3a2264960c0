# ./configure (tools/configure-rust.sh) on a machine without Rust, with Rust too old,
# and with Rust only in ~/.cargo/bin. Runs on the package sources (make test); skipped
# where they are not beside the tests (R CMD check) and on Windows.
source_dir <- normalizePath(test_path("..", ".."), mustWork = FALSE)
has_sources <- all(file.exists(file.path(source_dir, c("configure", "tools/configure-rust.sh", "src/Makevars.in"))))
min_rust <- if (has_sources) {
  sub(".*rustc \\(>= *([0-9.]+)\\).*", "\\1", read.dcf(file.path(source_dir, "DESCRIPTION"), "SystemRequirements")[1, 1])
}

# A copy of what configure reads, a bin directory holding only the tools it may use,
# and an empty home.
configure_sandbox <- function() {
  root <- tempfile("configure-")
  dir.create(file.path(root, "pkg", "tools"), recursive = TRUE)
  dir.create(file.path(root, "pkg", "src"))
  for (f in c("configure", "DESCRIPTION", "tools/configure-rust.sh", "src/Makevars.in")) {
    file.copy(file.path(source_dir, f), file.path(root, "pkg", f))
  }
  dir.create(file.path(root, "bin"))
  for (tool in c("sed", "awk", "cat", "head")) {
    file.symlink(Sys.which(tool), file.path(root, "bin", tool))
  }
  dir.create(file.path(root, "home"))
  root
}

# A stand-in for cargo or rustc that reports `version`.
fake_tool <- function(dir, name, version) {
  dir.create(dir, recursive = TRUE, showWarnings = FALSE)
  path <- file.path(dir, name)
  writeLines(c("#!/bin/sh", sprintf("echo '%s %s (0000000 2025-01-01)'", name, version)), path)
  Sys.chmod(path, "755")
  path
}

run_configure <- function(root) {
  env <- c(paste0("PATH=", file.path(root, "bin")), paste0("HOME=", file.path(root, "home")), "USERPROFILE=")
  elapsed <- system.time(
    out <- suppressWarnings(system2(Sys.which("sh"), "configure", env = env, stdout = TRUE, stderr = TRUE))
  )[["elapsed"]]
  status <- attr(out, "status")
  list(status = if (is.null(status)) 0L else status, text = paste(out, collapse = "\n"), elapsed = elapsed,
       makevars = file.path(root, "pkg", "src", "Makevars"))
}

in_package <- function(root, code) {
  old <- setwd(file.path(root, "pkg"))
  on.exit(setwd(old))
  code
}

test_that("without cargo, configure fails at once and says how to install Rust", {
  skip_on_os("windows")
  skip_if_not(has_sources, "package sources not available")
  root <- configure_sandbox()
  res <- in_package(root, run_configure(root))
  expect_equal(res$status, 1L)
  expect_lt(res$elapsed, 5)
  expect_false(file.exists(res$makevars))
  expect_match(res$text, "cargo was not found on PATH nor in ~/.cargo/bin", fixed = TRUE)
  expect_match(res$text, paste0("needs Rust (cargo and rustc) ", min_rust, " or later"), fixed = TRUE)
  expect_match(res$text, "https://rustup.rs/", fixed = TRUE)
  expect_match(res$text, "apt-get install cargo rustc", fixed = TRUE)
  expect_match(res$text, "dnf install cargo rustc", fixed = TRUE)
  expect_match(res$text, "brew install rust", fixed = TRUE)
})

test_that("cargo without rustc is refused, naming rustc", {
  skip_on_os("windows")
  skip_if_not(has_sources, "package sources not available")
  root <- configure_sandbox()
  fake_tool(file.path(root, "bin"), "cargo", min_rust)
  res <- in_package(root, run_configure(root))
  expect_equal(res$status, 1L)
  expect_match(res$text, "rustc was not found", fixed = TRUE)
  expect_false(file.exists(res$makevars))
})

test_that("a Rust older than DESCRIPTION's minimum is refused with the same advice", {
  skip_on_os("windows")
  skip_if_not(has_sources, "package sources not available")
  parts <- as.integer(strsplit(min_rust, ".", fixed = TRUE)[[1]])
  older <- paste(parts[1], parts[2] - 1, 9, sep = ".")
  root <- configure_sandbox()
  fake_tool(file.path(root, "bin"), "cargo", older)
  fake_tool(file.path(root, "bin"), "rustc", older)
  res <- in_package(root, run_configure(root))
  expect_equal(res$status, 1L)
  expect_match(res$text, paste0("Found 'cargo ", older), fixed = TRUE)
  expect_match(res$text, paste0("older than ", min_rust), fixed = TRUE)
  expect_match(res$text, "https://rustup.rs/", fixed = TRUE)
  expect_false(file.exists(res$makevars))
})

test_that("Rust in ~/.cargo/bin only is found, and versions compare as numbers", {
  skip_on_os("windows")
  skip_if_not(has_sources, "package sources not available")
  parts <- as.integer(strsplit(min_rust, ".", fixed = TRUE)[[1]])
  for (version in c(paste0(min_rust, ".0"), paste(parts[1], parts[2] + 15, 0, sep = "."))) {
    root <- configure_sandbox()
    cargo_bin <- file.path(root, "home", ".cargo", "bin")
    cargo <- fake_tool(cargo_bin, "cargo", version)
    rustc <- fake_tool(cargo_bin, "rustc", version)
    res <- in_package(root, run_configure(root))
    expect_equal(res$status, 0L, info = res$text)
    expect_match(res$text, paste("using cargo", version), fixed = TRUE)
    makevars <- readLines(res$makevars)
    expect_true(paste("CARGO =", cargo) %in% makevars)
    expect_true(paste("RUSTC =", rustc) %in% makevars)
  }
})

# ARCHITECTURE.md: nothing is installed from R. Downloads (Spark, anonymeter's venv)
# happen from the shell (tools/setup.sh, the Makefile); the package and its tests only
# use what is there. A call in a message string (after a quote) is advice, not a call.
test_that("nothing in R/ or the tests downloads or installs", {
  skip_if_not(dir.exists(file.path(source_dir, "R")), "package sources not beside the tests")
  files <- c(list.files(file.path(source_dir, "R"), pattern = "[.]R$", full.names = TRUE),
             list.files(file.path(source_dir, "tests", "testthat"), pattern = "[.]R$", full.names = TRUE))
  call <- paste0("^[^#\"']*(download[.]file|install[.]packages|remotes::|pak::|py_install|virtualenv_create|",
                 "pip3? install|system2?[(][\"'](curl|wget|pip3?)[\"'])")
  hits <- unlist(lapply(files, function(f) {
    found <- grep(call, readLines(f, warn = FALSE), value = TRUE)
    if (length(found) > 0) paste0(basename(f), ": ", found) else character(0)
  }))
  expect_identical(hits, character(0), label = paste(hits, collapse = "\n"))
})
