# synthrisk's attacks beside anonymeter 1.1 (installed in a scratch venv, $ANONYMETER_VENV,
# by bench/anonymeter-venv.sh before R starts; never a dependency) on Adult with a holdout of 5,000
# records, every process timed in the same run:
# * "speed" (make bench): the whole of Adult (48,842 targets: 43,842 training and 5,000
#   control records) for inference (secret income, the 12 other columns as aux) and
#   linkability (age, education.num | sex, hours.per.week; k = 10) against anonymeter's
#   500 attacks; univariate and multivariate (500 queries, 3 columns) singling out; the
#   worst case (aux of one binary column, every record tied with half the data).
# * "agreement" (run apart): anonymeter's own univariate and multivariate queries,
#   dumped and passed through `queries`, give its query count and success counts; over
#   20 seeds of anonymeter's sampled inference and linkability (500 attacks each), how
#   often its interval covers the exhaustive value; and synthrisk's own sampled attacks
#   (n_attacks = 500, 200 seeds) likewise.
#
# Usage: sh bench/anonymeter-venv.sh "$ANONYMETER_VENV" && Rscript bench/anonymeter.R [speed|agreement]
suppressPackageStartupMessages(library(synthrisk))
options(synthrisk.n_threads = 2)
task <- commandArgs(trailingOnly = TRUE)[1]
if (is.na(task)) task <- "speed"
# The venv is made from the shell before R starts (make bench and make bench-anonymeter
# run bench/anonymeter-venv.sh): under R's LD_LIBRARY_PATH, a python3 built with a
# shared libpython may load the system's libpython and lose its ssl module, so that pip
# cannot download. For the same reason the venv's python runs without R's
# LD_LIBRARY_PATH.
venv <- Sys.getenv("ANONYMETER_VENV", "/tmp/synthrisk-anonymeter-venv")
python <- file.path(venv, "bin", "python")
if (!file.exists(python)) {
  stop("no anonymeter venv in ", venv, ": make it first with `sh bench/anonymeter-venv.sh ", venv,
       "` (make bench and make bench-anonymeter do)", call. = FALSE)
}
python_outside_r <- function(args, ...) system2("env", c("-u", "LD_LIBRARY_PATH", shQuote(python), args), ...)
version <- python_outside_r(c("-c", shQuote("import importlib.metadata as m; print(m.version('anonymeter'))")),
                            stdout = TRUE)

adult <- readRDS("bench/data/adult_orig.rds")
syn <- readRDS("bench/data/adult_syn.rds")$syn
parts <- holdout_split(adult, prop = 5000 / nrow(adult), seed = 1)
train <- parts$train
control <- parts$control
work <- tempfile("anonymeter-")
dir.create(work)
text <- vapply(adult, function(x) is.factor(x) || is.character(x), logical(1))
writeLines(jsonlite::toJSON(as.list(ifelse(text, "text", "number")), auto_unbox = TRUE), file.path(work, "types.json"))
write_data <- function(d, name) utils::write.csv(d, file.path(work, paste0(name, ".csv")), row.names = FALSE, na = "")
write_data(train, "train")
write_data(syn, "syn")
write_data(control, "control")
run_python <- function(...) {
  status <- python_outside_r(c("bench/anonymeter_attacks.py", work, ...), stdout = FALSE, stderr = FALSE)
  if (status != 0) stop("anonymeter failed: ", paste(...))
}
median_time <- function(f, times = 5) {
  t <- vapply(seq_len(times), function(i) {
    t0 <- Sys.time()
    f()
    as.numeric(difftime(Sys.time(), t0, units = "secs"))
  }, numeric(1))
  stats::median(t)
}
secret <- "income"
aux_a <- c("age", "education.num")
aux_b <- c("sex", "hours.per.week")
load_line <- function() paste("load average", paste(readLines("/proc/loadavg"), collapse = " "))

if (task == "speed") {
  cat(sprintf("\n## Beside anonymeter %s (Adult, holdout of 5,000)\n\n", version))
  cat(sprintf("Measured %s, %s, 2 threads for both. anonymeter attacks 500 sampled targets (and 500 control targets) with `n_jobs = 2`; synthrisk every record of Adult: 43,842 training and 5,000 control targets. Times are one anonymeter run and the median of 5 synthrisk calls in the same process.\n\n",
              format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC"), load_line()))
  rows <- list()
  add <- function(what, theirs, ours, note = "") {
    rows[[length(rows) + 1L]] <<- data.frame(attack = what, anonymeter_s = signif(theirs, 3), synthrisk_s = signif(ours, 3),
                                             ratio = signif(theirs / ours, 3), note = note)
  }
  run_python("inference", "1", secret)
  a <- jsonlite::fromJSON(file.path(work, "inference.json"))
  ours <- median_time(function() inference_risk(syn, train, secret = secret, control = control))
  add("inference (income, 12 aux)", a$seconds, ours, "synthrisk: 48,842 targets; anonymeter: 500 + 500")
  run_python("linkability", "1", paste(aux_a, collapse = ","), paste(aux_b, collapse = ","), "10")
  l <- jsonlite::fromJSON(file.path(work, "linkability.json"))
  ours <- median_time(function() linkability_risk(syn, train, aux_a, aux_b, n_neighbors = 10, control = control))
  add("linkability (age, education.num / sex, hours.per.week; k = 10)", l$seconds, ours, "synthrisk: 48,842 targets; anonymeter: 500 + 500")
  run_python("singling_out", "univariate", "100000", "1", "0")
  u <- jsonlite::fromJSON(file.path(work, "so_univariate.json"))
  ours <- median_time(function() singling_out_risk(syn, train, control = control, seed = 1))
  add("singling out, univariate (all queries)", u$seconds, ours, "")
  run_python("singling_out", "multivariate", "500", "3", "0")
  mv <- jsonlite::fromJSON(file.path(work, "so_multivariate.json"))
  ours <- median_time(function() singling_out_risk(syn, train, n_cols = 3, n_attacks = 500, control = control, seed = 1))
  add("singling out, multivariate (500 queries, 3 columns)", mv$seconds, ours, "")
  run_python("inference", "1", secret, "sex")
  w <- jsonlite::fromJSON(file.path(work, "inference.json"))
  worst <- median_time(function() inference_risk(syn, train, secret = secret, aux = "sex", control = control))
  add("worst case: inference with aux = sex (each target tied with half the data)", w$seconds, worst,
      "synthrisk: 48,842 targets; anonymeter: 500 + 500")
  tab <- do.call(rbind, rows)
  cat("| attack | anonymeter (s) | synthrisk (s) | anonymeter / synthrisk | note |\n| --- | --- | --- | --- | --- |\n")
  for (i in seq_len(nrow(tab))) {
    cat(sprintf("| %s | %s | %s | %s | %s |\n", tab$attack[i], format(tab$anonymeter_s[i]), format(tab$synthrisk_s[i]),
                format(tab$ratio[i]), tab$note[i]))
  }
  cat(sprintf("\nTargets: the whole of Adult faster than anonymeter's 500 inference attacks: %s; than its 500 linkability attacks: %s; multivariate singling out at least 100x faster: %s (%.0fx).\n",
              rows[[1]]$synthrisk_s < rows[[1]]$anonymeter_s, rows[[2]]$synthrisk_s < rows[[2]]$anonymeter_s,
              rows[[4]]$ratio >= 100, rows[[4]]$ratio))
}

if (task == "agreement") {
  cat(sprintf("\n## Agreement with anonymeter %s (Adult, holdout of 5,000)\n\n", version))
  cat(sprintf("Measured %s, %s.\n\n", format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC"), load_line()))
  cat("**Singling out, anonymeter's own queries.** anonymeter (seed 0) generated its queries from the synthesis; the script dumped them from polars' expressions as rows (query, column, op, value) and passed them to `singling_out_risk(queries = )`. Counts are of queries that single out in the synthesis, in the training data (all of it) and in the control data (before anonymeter's fitted size correction).\n\n")
  cat("| mode | queries (anonymeter / synthrisk) | main successes | control successes | equal |\n| --- | --- | --- | --- | --- |\n")
  for (mode in c("univariate", "multivariate")) {
    if (mode == "univariate") run_python("singling_out", mode, "100000", "1", "0") else
      run_python("singling_out", mode, "500", "3", "0")
    a <- jsonlite::fromJSON(file.path(work, paste0("so_", mode, ".json")))
    q <- utils::read.csv(file.path(work, paste0("queries_", mode, ".csv")), colClasses = "character")
    q$query <- as.integer(q$query)
    ours <- singling_out_risk(syn, train, control = control, queries = q, seed = 1)
    res <- ours$results
    n <- res$n
    main <- round(res$rate_full * n)
    ctrl <- res$successes_control
    same <- n == a$n_queries && main == a$main && ctrl == a$control
    cat(sprintf("| %s | %d / %d | %d / %d | %d / %d | %s |\n", mode, a$n_queries, n, a$main, main, a$control, ctrl, same))
  }
  seeds <- 1:20
  exhaustive <- list(
    inference = inference_risk(syn, train, secret = secret, control = control),
    linkability = linkability_risk(syn, train, aux_a, aux_b, n_neighbors = 10, control = control))
  cat("\n**Sampled inference and linkability (500 attacks each) against the exhaustive value.** anonymeter's interval per seed (numpy's global seed set before `evaluate()`), and synthrisk's own sampled attack (`n_attacks = 500, seed = s`), each asked whether it covers synthrisk's value over every record. anonymeter's distance differs from the definitions' (ranges over the synthetic and target records, NA handling; see the definitions vignette, section 13), so its estimand differs a little from the exhaustive value.\n\n")
  cat("| attack | exhaustive risk (rates main / control) | anonymeter: intervals covering, of 20 | anonymeter: mean risk (rates) | synthrisk sampled: covering, of 200 |\n| --- | --- | --- | --- | --- |\n")
  for (what in names(exhaustive)) {
    if (what == "inference") run_python("inference", paste(seeds, collapse = ","), secret) else
      run_python("linkability", paste(seeds, collapse = ","), paste(aux_a, collapse = ","), paste(aux_b, collapse = ","), "10")
    a <- jsonlite::fromJSON(file.path(work, paste0(what, ".json")))
    ex <- exhaustive[[what]]$results
    truth <- ex$risk
    covered <- sum(a$low <= truth & truth <= a$high)
    sampled <- vapply(1:200, function(s) {
      r <- if (what == "inference") inference_risk(syn, train, secret = secret, control = control, n_attacks = 500, seed = s) else
        linkability_risk(syn, train, aux_a, aux_b, n_neighbors = 10, control = control, n_attacks = 500, seed = s)
      r$results$conf.low <= truth && truth <= r$results$conf.high
    }, logical(1))
    cat(sprintf("| %s | %.4f (%.4f / %.4f) | %d | %.4f (%.4f / %.4f) | %d |\n", what, truth, ex$rate, ex$rate_control, covered,
                mean(a$risk), mean(a$rate), mean(a$rate_control), sum(sampled)))
  }
}
unlink(work, recursive = TRUE)
