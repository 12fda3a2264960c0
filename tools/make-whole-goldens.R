# Writes tests/testthat/fixtures/whole_goldens.rds: whole objects returned by the real
# synthpop's disclosure(), multi.disclosure() and replicated.uniques() (every component,
# names, row names and attributes; the plot and the call left out), with the inputs that
# made them, for data made here and synthesised with synthpop's syn(). The test
# test-whole-goldens.R runs synthrisk on the same inputs and compares structure and
# values, so it needs no synthpop. synthpop is never a dependency: install it into a
# scratch library with tools/install-synthpop.sh, then
#
#   SYNTHPOP_LIB=<library> Rscript tools/make-whole-goldens.R
#
# The cases: m = 1 and 3, a synthesis of another size (syn(k = )), NA in factor and
# numeric variables, a factor with an empty level, cont.na codes, the synthesis's
# columns in another order than the original's, and every argument of both functions.
lib <- Sys.getenv("SYNTHPOP_LIB")
if (nzchar(lib)) .libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(synthpop))

made_data <- function(n, seed) {
  set.seed(seed)
  age <- sample(c("16-24", "25-44", "45-64", "65+"), n, TRUE, prob = c(0.15, 0.35, 0.3, 0.2))
  d <- data.frame(
    sex = factor(sample(c("F", "M"), n, TRUE)),
    agegr = factor(age, levels = c("16-24", "25-44", "45-64", "65+", "90+")),
    region = factor(sample(c("North", "South", "East", "West", "Centre", "Islands"), n, TRUE,
                           prob = c(0.25, 0.25, 0.2, 0.15, 0.1, 0.05))),
    edu = factor(sample(c("low", "mid", "high", NA), n, TRUE, prob = c(0.3, 0.4, 0.25, 0.05)),
                 levels = c("low", "mid", "high")),
    hours = sample(c(10, 20, 30, 40, 50, NA), n, TRUE, prob = c(0.1, 0.15, 0.2, 0.35, 0.15, 0.05)),
    income = round(exp(stats::rnorm(n, 7.5, 0.6)), -2),
    smoke = factor(sample(c("yes", "no"), n, TRUE, prob = c(0.2, 0.8))),
    health = factor(sample(c("poor", "fair", "good", "very good"), n, TRUE, prob = c(0.1, 0.2, 0.4, 0.3)))
  )
  d$income[sample.int(n, 30)] <- -9
  d$smoke[d$agegr == "16-24" & d$sex == "F"] <- "no"
  d
}

quiet <- function(expr) {
  out <- NULL
  utils::capture.output(out <- suppressWarnings(expr))
  out
}

orig <- made_data(600, 37)
cont_na <- list(income = -9)
s1 <- quiet(syn(orig, m = 1, seed = 1, cont.na = cont_na, print.flag = FALSE))
s3 <- quiet(syn(orig, m = 3, seed = 2, cont.na = cont_na, print.flag = FALSE))
s_small <- quiet(syn(orig, m = 1, k = 400, seed = 3, cont.na = cont_na, print.flag = FALSE))
s3_small <- quiet(syn(orig, m = 3, k = 450, seed = 4, cont.na = cont_na, print.flag = FALSE))
# The synthesis's columns in another order than the original's.
reordered <- s1$syn[, rev(names(s1$syn))]
keys <- c("sex", "agegr", "region")

case <- function(fn, object, args, data = orig) {
  list(fn = fn, object = object, data = data, args = args)
}
cases <- list(
  d_m1 = case("disclosure", s1, list(keys = keys, target = "health")),
  d_m3 = case("disclosure", s3, list(keys = keys, target = "health")),
  d_small = case("disclosure", s_small, list(keys = keys, target = "smoke")),
  d_m3_small = case("disclosure", s3_small, list(keys = keys, target = "edu")),
  d_df_contna = case("disclosure", s1$syn, list(cont.na = cont_na, keys = c("sex", "region"), target = "income",
                                                ngroups_target = 5)),
  d_list_m3 = case("disclosure", s3$syn, list(keys = keys, target = "smoke")),
  d_na_target = case("disclosure", s1, list(keys = keys, target = "edu", usetargetNA = FALSE)),
  d_na_key = case("disclosure", s3, list(keys = c("sex", "edu", "agegr"), target = "health",
                                         usekeysNA = c(TRUE, FALSE, TRUE))),
  d_numeric_key = case("disclosure", s1, list(keys = c("sex", "hours", "income"), target = "health",
                                              ngroups_keys = c(0, 0, 4))),
  d_every_arg = case("disclosure", s1, list(keys = keys, target = "health", denom_lim = 3, exclude_ov_denom_lim = TRUE,
                                            not.targetlev = "good", exclude.keys = "region",
                                            exclude.keylevs = "North", exclude.targetlevs = "poor",
                                            thresh_1way = c(5, 30), thresh_2way = c(2, 40), digits = 3,
                                            to.print = c("ident", "attrib"))),
  d_checks = case("disclosure", s3, list(keys = keys, target = "smoke", thresh_1way = c(5, 50),
                                         thresh_2way = c(2, 50))),
  d_reordered = case("disclosure", reordered, list(keys = keys, target = "health")),
  md_m1 = case("multi.disclosure", s1, list(keys = keys)),
  md_m3 = case("multi.disclosure", s3, list(keys = keys, ngroups_targets = c(0, 0, 4, 0, 0))),
  md_small = case("multi.disclosure", s_small, list(keys = keys, targets = c("smoke", "health", "edu"))),
  md_reordered = case("multi.disclosure", reordered, list(keys = keys, targets = NULL, ngroups_targets = 3)),
  # A list whose first synthesis synorig.compare() adjusts (text beside a factor):
  # synthpop counts the first synthesis only (definitions vignette, section 9.5).
  md_list_cut = case("multi.disclosure", lapply(s3$syn, function(d) { d$smoke <- as.character(d$smoke); d }),
                     list(keys = keys, targets = c("health", "smoke"))),
  d_list_cut = case("disclosure", lapply(s3$syn, function(d) { d$smoke <- as.character(d$smoke); d }),
                    list(keys = keys, target = "health")),
  md_args = case("multi.disclosure", s1, list(keys = keys, targets = c("health", "smoke", "edu"), denom_lim = 3,
                                              exclude_ov_denom_lim = TRUE, not.targetslev = c("good", "", ""),
                                              usetargetsNA = c(TRUE, TRUE, FALSE), usekeysNA = FALSE,
                                              thresh_1way = c(5, 30), thresh_2way = c(2, 40), digits = 3,
                                              attrib.meas = "DCAP")),
  md_disdio = case("multi.disclosure", s3, list(keys = keys, targets = c("health", "smoke"), ident.meas = "UiSiO",
                                                attrib.meas = "DiSDiO")),
  ru_m1 = case("replicated.uniques", s1, list(keys = keys)),
  ru_m3 = case("replicated.uniques", s3, list(keys = c("sex", "agegr", "region", "health"))),
  ru_small = case("replicated.uniques", s_small, list(keys = keys)),
  ru_m3_small = case("replicated.uniques", s3_small, list(keys = c("sex", "region", "health")))
)

run_synthpop <- function(cs) {
  fn <- getExportedValue("synthpop", cs$fn)
  extra <- if (cs$fn == "replicated.uniques") list() else
    c(list(print.flag = FALSE), if (cs$fn == "multi.disclosure") list(plot = FALSE))
  res <- quiet(do.call(fn, c(list(cs$object, cs$data), cs$args, extra)))
  res$attrib.plot <- NULL
  res$call <- NULL
  if (!is.null(res$output.list)) res$output.list <- lapply(res$output.list, function(d) { d$call <- NULL; d })
  res
}

for (nm in names(cases)) {
  cases[[nm]]$expected <- run_synthpop(cases[[nm]])
  cat(nm, ": ", paste(names(cases[[nm]]$expected), collapse = " "), "\n", sep = "")
}
attr(cases, "synthpop_version") <- as.character(utils::packageVersion("synthpop"))
attr(cases, "made") <- format(Sys.time(), "%Y-%m-%d", tz = "UTC")
saveRDS(cases, "tests/testthat/fixtures/whole_goldens.rds", version = 2, compress = "xz")
cat("Wrote tests/testthat/fixtures/whole_goldens.rds with", length(cases), "cases from synthpop",
    attr(cases, "synthpop_version"), "\n")
