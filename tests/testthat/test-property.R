# Property tests: disclosure() and multi.disclosure() against the plain-R reference
# (helper-reference.R) on random small datasets covering every argument and column
# type, plus invariants. SYNTHRISK_PROPERTY_CASES sets the number of cases (default
# 5000, or 300 on CRAN, i.e. unless NOT_CRAN is true); every case is seeded, and a
# failure names its seed.

default_property_cases <- function() if (identical(Sys.getenv("NOT_CRAN"), "true")) 5000L else 300L

property_cases <- function() {
  n <- suppressWarnings(as.integer(Sys.getenv("SYNTHRISK_PROPERTY_CASES", "")))
  if (is.na(n) || n < 1) default_property_cases() else n
}

latin1 <- function(x) iconv(x, "UTF-8", "latin1")
cafe <- "caf\u00e9"

# Labels that trip naive implementations: separators, the missing label, "", non-ASCII
# in two encodings, carriage returns, "NaN".
label_pool <- c("a", "b", "c", " | ", "x|y", "", "Missing", "NaN", cafe, "a\rb", "1")

pick <- function(x, n = 1) x[sample.int(length(x), n, replace = TRUE)]

with_na <- function(x, rate) {
  if (rate > 0) x[stats::runif(length(x)) < rate] <- NA
  x
}

double_pool <- c(0.5, 1, 2.25, -3, 1e6, 0.3, 0.1 + 0.2, 0, -0, NaN, Inf, -Inf, 7, 12.5)

# One side's column of a variable of `kind`; `side` 0 is the original.
random_side <- function(kind, n, side, na_rate, labels, values) {
  switch(kind,
    factor = , ordered = {
      lab <- pick(labels, n)
      lab[lab == cafe & stats::runif(n) < 0.5] <- latin1(cafe)
      lev <- unique(c(sample(labels), if (stats::runif(1) < 0.2) "unused"))
      # A synthesis may spell the levels in latin1 where the original has UTF-8.
      if (side > 0 && stats::runif(1) < 0.5) lev[lev == cafe] <- latin1(cafe)
      f <- factor(with_na(lab, na_rate), levels = lev, ordered = kind == "ordered")
      if (stats::runif(1) < 0.2) f <- addNA(f)
      f
    },
    character = {
      lab <- with_na(pick(labels, n), na_rate)
      if (side > 0 && stats::runif(1) < 0.5) lab[lab %in% cafe] <- latin1(cafe)
      lab
    },
    logical = with_na(pick(c(TRUE, FALSE), n), na_rate),
    integer = with_na(pick(as.integer(values), n), na_rate),
    double = with_na(pick(values, n), na_rate),
    Date = with_na(as.Date("2020-01-01") + pick(0:4, n), na_rate),
    POSIXct = {
      x <- as.POSIXct("2020-01-01", tz = "UTC") + pick(c(0, 3600, 86400, 90061, 1.5), n)
      attr(x, "tzone") <- pick(c("UTC", "Europe/Warsaw"))
      with_na(x, na_rate)
    },
    difftime = {
      x <- with_na(pick(c(1, 2, 60, 120), n), na_rate)
      if (stats::runif(1) < 0.5) as.difftime(x, units = "secs") else as.difftime(x / 60, units = "mins")
    },
    num_chr = {
      x <- with_na(pick(c(1, 2, 3, 0.5), n), na_rate)
      if ((side == 0) == (stats::runif(1) < 0.5)) x else as.character(x)
    },
    num_factor = {
      x <- with_na(pick(c(1, 2, 3), n), na_rate)
      if (side == 0) x else factor(x)
    }
  )
}

numeric_kinds <- c("integer", "double")
all_kinds <- c("factor", "ordered", "character", "logical", "integer", "double", "Date", "POSIXct", "difftime",
               "num_chr", "num_factor")

random_property_case <- function(seed) {
  set.seed(seed)
  m <- pick(c(1, 1, 2, 3))
  n_orig <- sample.int(40, 1)
  n_syn <- sample.int(40, m, replace = TRUE)
  n_keys <- sample.int(3, 1)
  vars <- c(paste0("k", seq_len(n_keys)), "t")
  data <- list()
  syn <- replicate(m, list(), simplify = FALSE)
  kinds <- character(0)
  cont.na <- list()
  ngroups <- stats::setNames(rep(0, length(vars)), vars)
  for (v in vars) {
    kind <- pick(c(all_kinds, numeric_kinds, "factor"))
    kinds[v] <- kind
    labels <- unique(pick(label_pool, sample(1:5, 1)))
    values <- unique(pick(double_pool, sample(1:7, 1)))
    if (kind == "integer") values <- pick(-2:9, sample(1:6, 1))
    # Levels on one side only: each side may draw from a different subset.
    side_labels <- function() if (stats::runif(1) < 0.3) unique(c(labels, pick(label_pool))) else labels
    value_pool <- if (kind == "integer") -2:9 else double_pool
    side_values <- function() if (stats::runif(1) < 0.3) unique(c(values, pick(value_pool))) else values
    na_rate <- pick(c(0, 0, 0.1, 0.3, 1))
    data[[v]] <- random_side(kind, n_orig, 0, na_rate, side_labels(), side_values())
    for (j in seq_len(m)) syn[[j]][[v]] <- random_side(kind, n_syn[j], j, pick(c(0, 0.1, na_rate)),
                                                         side_labels(), side_values())
    if (kind %in% numeric_kinds && stats::runif(1) < 0.5) {
      ngroups[v] <- pick(2:6)
      if (stats::runif(1) < 0.5) {
        codes <- pick(c(-8, -9, Inf, NaN, 7), sample(1:2, 1))
        cont.na[[v]] <- unique(codes)
        data[[v]][sample.int(n_orig, min(2, n_orig))] <- codes[1]
      }
    }
  }
  # Extra and reordered columns of the synthetic data; a column only in the original.
  data$extra_orig <- seq_len(n_orig)
  syn <- lapply(syn, function(s) {
    s$extra_syn <- rep("x", length(s[[1]]))
    s[sample(names(s))]
  })
  as_frame <- function(x) {
    n <- length(x[[1]])
    structure(x, class = "data.frame", row.names = .set_row_names(n))
  }
  data <- as_frame(data)
  syn <- lapply(syn, as_frame)
  keys <- sample(vars[-length(vars)])
  list(seed = seed, m = m, vars = vars, kinds = kinds, keys = keys, data = data, syn = syn,
       cont.na = if (length(cont.na)) cont.na else NULL, ngroups = ngroups)
}

# Arguments of a case, drawn from the levels the reference sees.
random_arguments <- function(case) {
  keys <- case$keys
  lev <- reference_levels(case)
  t_lev <- lev$t
  args <- list(keys = keys, target = "t",
               ngroups_target = case$ngroups[["t"]],
               ngroups_keys = unname(case$ngroups[keys]),
               usetargetNA = stats::runif(1) < 0.6,
               usekeysNA = if (stats::runif(1) < 0.5) stats::runif(1) < 0.7 else stats::runif(length(keys)) < 0.7,
               exclude_ov_denom_lim = stats::runif(1) < 0.3, denom_lim = sample.int(4, 1),
               thresh_1way = c(pick(c(-1, 0, 1, 2, 50)), pick(c(-10, 0, 30, 60, 90))),
               thresh_2way = c(pick(c(-1, 0, 1, 2, 4)), pick(c(-5, 0, 30, 80))))
  u <- stats::runif(1)
  if (u < 0.15) args$not.targetlev <- ""
  else if (u < 0.4) args$not.targetlev <- unique(pick(t_lev, sample(1:2, 1)))
  else if (u < 0.5 && "" %in% t_lev) args$not.targetlev <- c(pick(setdiff(t_lev, "")), "")
  if (stats::runif(1) < 0.3) {
    n_ex <- sample(1:2, 1)
    args$exclude.keys <- pick(keys, n_ex)
    args$exclude.keylevs <- vapply(args$exclude.keys, function(k) pick(lev[[k]]), character(1), USE.NAMES = FALSE)
    args$exclude.targetlevs <- pick(t_lev, n_ex)
  }
  if (stats::runif(1) < 0.2) {
    args$keys <- match(keys, names(case$data))
    args$target <- match("t", names(case$data))
  }
  args
}

# The level labels of each variable, as the reference makes them.
reference_levels <- function(case) {
  out <- list()
  for (v in case$vars) {
    cols <- c(list(case$data[[v]]), lapply(case$syn, function(s) s[[v]]))
    var <- ref_variable(cols, case$ngroups[[v]], ref_cont_na(case$cont.na, v))
    out[[v]] <- unique(c(var$levels, "Missing"))
  }
  out
}

# How the case is handed to the package: object form, data form, compare.synorig.
package_call <- function(case, args) {
  form <- pick(c("frames", "frames", "synds", if (case$m == 1) "strata"))
  object <- if (case$m == 1 && stats::runif(1) < 0.5) case$syn[[1]] else case$syn
  cont <- list(cont.na = case$cont.na)
  if (form %in% c("synds", "strata")) {
    cn <- stats::setNames(rep(list(NA), ncol(case$data)), names(case$data))
    cn[names(case$cont.na)] <- case$cont.na
    object <- structure(list(syn = if (case$m == 1) case$syn[[1]] else case$syn, m = case$m, cont.na = cn),
                        class = "synds")
    if (form == "strata") {
      # Each stratum lists some of the codes; together they list all.
      rows <- lapply(1:2, function(r) lapply(cn, function(x) if (length(x) > 1) x[seq_along(x) %% 2 == r - 1] else x))
      object$cont.na <- do.call(rbind, rows)
      object$strata.syn <- rep(1:2, length.out = nrow(case$syn[[1]]))
    }
    cont <- list()
  }
  data <- case$data
  u <- stats::runif(1)
  if (u < 0.1 && requireNamespace("data.table", quietly = TRUE)) data <- data.table::as.data.table(data)
  else if (u < 0.2 && requireNamespace("tibble", quietly = TRUE)) data <- tibble::as_tibble(data)
  same_kinds <- !any(case$kinds %in% c("num_chr", "num_factor"))
  strict <- same_kinds && stats::runif(1) < 0.2
  c(list(object = object, data = data), args, cont,
    list(compare.synorig = !strict, n_threads = pick(1:2), print.flag = FALSE))
}

run_package <- function(call_args) do.call(disclosure, call_args)

# The same case through multi.disclosure(), its per-target arguments as lists.
run_multi <- function(call_args) {
  a <- call_args
  per_target <- c(not.targetlev = "not.targetslev", usetargetNA = "usetargetsNA", ngroups_target = "ngroups_targets",
                  exclude.keys = "exclude.keys", exclude.keylevs = "exclude.keylevs",
                  exclude.targetlevs = "exclude.targetlevs")
  for (from in names(per_target)) {
    value <- a[[from]]
    a[[from]] <- NULL
    if (!is.null(value)) a[[per_target[[from]]]] <- if (is.list(value) || from %in% c("usetargetNA", "ngroups_target")) value else list(value)
  }
  a$targets <- a$target
  a$target <- NULL
  a$plot <- FALSE
  do.call(multi.disclosure, a)$output.list[[1]]
}

run_reference <- function(case, args) {
  ref_args <- args[intersect(names(args), names(formals(ref_disclosure)))]
  do.call(ref_disclosure, c(list(case$syn, case$data, cont.na = case$cont.na), ref_args))
}

bounded <- c("UiO", "UiS", "UiOiS", "repU", "Dorig", "Dsyn", "iS", "DiS", "DiSCO", "DCAPd", "DiSDiO", "baseCAPd",
             "CAPd", "CAPs", "DCAP", "TCAP")

invariant_problems <- function(got) {
  out <- character(0)
  for (j in seq_len(got$m)) {
    g <- got_measures(got, j)
    b <- g[bounded]
    if (any(!is.nan(b) & (is.na(b) | b < 0 | b > 100 + 1e-9))) out <- c(out, "a measure outside [0, 100]")
    tol <- 1e-9
    if (!(g["DiSDiO"] <= g["DiSCO"] + tol && g["DiSCO"] <= g["DiS"] + tol && g["DiS"] <= g["iS"] + tol)) {
      out <- c(out, "not DiSDiO <= DiSCO <= DiS <= iS")
    }
    if (!(g["repU"] <= g["UiOiS"] + tol && g["UiOiS"] <= g["UiO"] + tol)) out <- c(out, "not repU <= UiOiS <= UiO")
  }
  out
}

permute_rows <- function(x) {
  if (inherits(x, "synds")) {
    if (is.data.frame(x$syn)) {
      o <- sample.int(nrow(x$syn))
      x$syn <- x$syn[o, , drop = FALSE]
      if (!is.null(x$strata.syn)) x$strata.syn <- x$strata.syn[o]
    } else {
      x$syn <- lapply(x$syn, permute_rows)
    }
    return(x)
  }
  if (is.data.frame(x)) return(x[sample.int(nrow(x)), , drop = FALSE])
  lapply(x, permute_rows)
}

# Factor levels renamed by one bijection on every side (order kept; "Missing" kept),
# with the label arguments renamed alike.
relabel <- function(call_args, case) {
  factor_vars <- case$vars[case$kinds[case$vars] %in% c("factor", "ordered")]
  if (length(factor_vars) == 0) return(NULL)
  v <- factor_vars[1]
  rename <- function(x) ifelse(is.na(x) | x == "Missing", x, paste0("<", x, ">"))
  fix <- function(df) {
    if (is.data.frame(df) && !is.null(df[[v]])) {
      df <- as.data.frame(df)
      levels(df[[v]]) <- rename(enc2utf8(levels(df[[v]])))
    }
    df
  }
  obj <- call_args$object
  if (inherits(obj, "synds")) {
    obj$syn <- if (is.data.frame(obj$syn)) fix(obj$syn) else lapply(obj$syn, fix)
  } else {
    obj <- if (is.data.frame(obj)) fix(obj) else lapply(obj, fix)
  }
  call_args$object <- obj
  call_args$data <- fix(call_args$data)
  if (v == "t") {
    if (!is.null(call_args$not.targetlev) && !identical(call_args$not.targetlev, "")) {
      call_args$not.targetlev <- rename(enc2utf8(call_args$not.targetlev))
    }
    if (length(call_args$exclude.targetlevs)) call_args$exclude.targetlevs <- rename(enc2utf8(call_args$exclude.targetlevs))
  } else if (length(call_args$exclude.keys)) {
    at <- call_args$exclude.keys == v
    call_args$exclude.keylevs[at] <- rename(enc2utf8(call_args$exclude.keylevs[at]))
  }
  call_args
}

same_result <- function(a, b) {
  same_numbers(a$measures, b$measures) && same_numbers(a$Nexclusions, b$Nexclusions)
}

cases_run <- new.env()
cases_run$n <- 0L

# Runs the cases of `seeds`; returns the problems found, each naming its seed.
run_property_cases <- function(seeds) {
  local_quiet_labels()
  problems <- character(0)
  for (seed in seeds) {
    cases_run$n <- cases_run$n + 1L
    case <- random_property_case(seed)
    args <- random_arguments(case)
    call_args <- package_call(case, args)
    before <- rlang::duplicate(call_args)
    got <- tryCatch(run_package(call_args), error = function(e) e)
    if (inherits(got, "error")) {
      problems <- c(problems, sprintf("seed %d: error %s", seed, conditionMessage(got)))
      next
    }
    if (!identical(call_args, before)) problems <- c(problems, sprintf("seed %d: inputs modified", seed))
    want <- run_reference(case, args)
    found <- c(reference_mismatches(got, want), invariant_problems(got))
    if (seed %% 10 == 3) {
      multi <- tryCatch(run_multi(call_args), error = function(e) e)
      if (inherits(multi, "error")) {
        found <- c(found, paste("multi.disclosure error:", conditionMessage(multi)))
      } else {
        mismatches <- reference_mismatches(multi, want)
        if (length(mismatches)) found <- c(found, paste("multi.disclosure:", mismatches))
      }
    }
    if (seed %% 5 == 0) {
      # Row order, thread count and relabelling do not change any number.
      permuted <- call_args
      permuted$object <- permute_rows(permuted$object)
      permuted$data <- permute_rows(as.data.frame(permuted$data))
      if (!same_result(run_package(permuted), got)) found <- c(found, "row order changes the result")
      other <- call_args
      other$n_threads <- 3L - call_args$n_threads
      g2 <- run_package(other)
      g2$call <- got$call <- NULL
      if (!identical(g2, got)) found <- c(found, "thread count changes the result")
      relabelled <- relabel(call_args, case)
      if (!is.null(relabelled) && !same_result(run_package(relabelled), got)) found <- c(found, "relabelling changes the result")
    }
    if (length(found)) problems <- c(problems, sprintf("seed %d: %s", seed, paste(found, collapse = "; ")))
  }
  problems
}

n_cases <- property_cases()
batches <- split(seq_len(n_cases), ceiling(seq_len(n_cases) / 500))
for (b in seq_along(batches)) {
  test_that(sprintf("disclosure() agrees with the reference and its invariants (cases %d-%d)",
                    min(batches[[b]]), max(batches[[b]])), {
    problems <- run_property_cases(batches[[b]])
    expect(length(problems) == 0, paste(utils::head(problems, 20), collapse = "\n"))
  })
}

test_that("the property tests ran every random case (5000 off CRAN unless SYNTHRISK_PROPERTY_CASES says otherwise)", {
  expect_identical(cases_run$n, n_cases)
  if (!nzchar(Sys.getenv("SYNTHRISK_PROPERTY_CASES"))) expect_gte(cases_run$n, default_property_cases())
})
