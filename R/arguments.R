# synthpop 1.9-3's arguments of disclosure() and multi.disclosure() after `object` and
# `data`, in its order (positional calls rely on it), with its defaults and their
# documentation: written once here, bound by bind_arguments() and documented in
# ?disclosure and ?multi.disclosure through argument_docs().

request_formals <- function(family) {
  switch(family,
    disclosure = alist(
      keys = , target = , print.flag = TRUE, denom_lim = 5, exclude_ov_denom_lim = FALSE,
      not.targetlev = NULL, usetargetNA = TRUE, usekeysNA = TRUE, exclude.keys = NULL,
      exclude.keylevs = NULL, exclude.targetlevs = NULL, ngroups_target = NULL, ngroups_keys = NULL,
      thresh_1way = c(50, 90), thresh_2way = c(4, 80), digits = 2, to.print = "short",
      compare.synorig = TRUE, n_threads = NULL, control = NULL, conf.level = NULL, resynthesize = 0,
      synthesizer = NULL, seed = NULL, release = FALSE, ... =
    ),
    multi = alist(
      keys = , targets = NULL, print.flag = TRUE, denom_lim = 5, exclude_ov_denom_lim = FALSE,
      not.targetslev = NULL, usetargetsNA = TRUE, usekeysNA = TRUE, exclude.keys = NULL,
      exclude.keylevs = NULL, exclude.targetlevs = NULL, ngroups_targets = NULL, ngroups_keys = NULL,
      ident.meas = "repU", attrib.meas = "DiSCO", thresh_1way = c(50, 90), thresh_2way = c(4, 80),
      digits = 2, plot = TRUE, compare.synorig = TRUE, n_threads = NULL, control = NULL, conf.level = NULL,
      resynthesize = 0, synthesizer = NULL, seed = NULL, release = FALSE, ... =
    )
  )
}

# Every argument name either family knows (for "did you mean" in errors).
known_argument_names <- function() {
  nm <- unique(c(names(request_formals("disclosure")), names(request_formals("multi")), "cont.na"))
  nm[nm != "..."]
}

# The arguments `...` of a front door bound as R binds a call to synthpop's signature
# (by name, partial name, then position): see frame_arguments().
bind_arguments <- function(family, ...) {
  frame_arguments(family, request_signature(family)$bind(...)$env)
}

# The arguments of synthpop's signature of `family` as bound in `env`, the frame of a
# function with that signature (a front door, or the signature's own binder): a list
# of every argument's value (the default when not given, NULL for a missing argument
# without one), `supplied` (names the user gave) and `extra` (the frame's `...`,
# arguments no signature has).
frame_arguments <- function(family, env) {
  signature <- request_signature(family)
  names <- signature$names
  # missing() says whether each argument carries a value (a symbol bound to a missing
  # argument does not); one call asks it of every argument.
  given <- names[!eval(signature$missing, env)]
  has_value <- names %in% given | !signature$no_default
  values <- vector("list", length(names))
  names(values) <- names
  values[has_value] <- mget(names[has_value], envir = env)
  list(values = values, supplied = given, extra = eval(quote(list(...)), env))
}

# A front door of `family` for one class of `object`: synthpop 1.9-3's formals in its
# order with its defaults (`cont.na` third for data frames, database tables and lists,
# as in synthpop), then ours, then `...` (unknown arguments, an error naming them).
# Made from request_formals(), so the list stays written once.
front_door <- function(family, cont_na) {
  formals <- c(alist(object = , data = ), if (cont_na) alist(cont.na = NULL), request_formals(family))
  body <- substitute(run_front_door(FAMILY, object, CONT_NA, data, environment()),
                     list(FAMILY = family, CONT_NA = if (cont_na) quote(cont.na) else NULL))
  rlang::new_function(formals, body, env = topenv())
}

# A function with synthpop's signature of `family` that returns its own environment;
# its names and which have no default. Made once per session.
request_signature <- function(family) {
  signature_cache[[family]] %||% {
    formals <- request_formals(family)
    f <- rlang::new_function(formals, quote(list(env = environment())))
    names <- setdiff(names(formals), "...")
    signature_cache[[family]] <- list(bind = f, names = names,
                                      no_default = vapply(formals[names], rlang::is_missing, logical(1)),
                                      missing = as.call(c(as.name("c"), lapply(names, function(n) {
                                        call("missing", as.name(n))
                                      }))))
    signature_cache[[family]]
  }
}
signature_cache <- new.env(parent = emptyenv())

# The documentation of each argument; both families share most.
argument_docs <- list(
  keys = "Quasi-identifiers: names or column numbers of `data`.",
  target = "The target variable: a name or column number of `data`.",
  targets = paste("Target variables (names or column numbers); default all variables of the synthetic",
                  "data that are not keys, in the order of `data`."),
  print.flag = paste("If `TRUE`, write to standard output what was done to the data before counting:",
                     "variables made comparable, numeric variables grouped (into how many groups, with",
                     "their labels) and records excluded by each step."),
  denom_lim = "With `exclude_ov_denom_lim = TRUE`, cells whose value exceeds `denom_lim` (a positive whole number) are excluded.",
  exclude_ov_denom_lim = "See `denom_lim`.",
  not.targetlev = "Target levels to exclude (a single `\"\"` or `NULL`: none).",
  not.targetslev = paste("Levels to exclude, per target: a character vector with one label per target",
                         "(`\"\"` for none) or a list of label vectors, optionally named by target."),
  usetargetNA = "If `FALSE`, the `\"Missing\"` target level is excluded when the original target has missing values.",
  usetargetsNA = "`TRUE`/`FALSE`, one per target or one for all (as `usetargetNA` of [disclosure()]).",
  usekeysNA = "`TRUE`/`FALSE`, one per key (or one for all): if `FALSE`, records missing that key are excluded.",
  exclude.keys = paste("`exclude.keys`, `exclude.keylevs`, `exclude.targetlevs`: parallel vectors: cells of",
                       "target level `exclude.targetlevs[i]` whose key `exclude.keys[i]` has level",
                       "`exclude.keylevs[i]` are excluded. For [multi.disclosure()], lists with one element",
                       "per target (`NULL` for none), or named by target; a plain vector is taken as one",
                       "element per target."),
  exclude.keylevs = "See `exclude.keys`.",
  exclude.targetlevs = "See `exclude.keys`.",
  ngroups_target = "Number of groups for a numeric target (0 or `NULL` = no grouping).",
  ngroups_targets = paste("Numbers of groups for numeric targets: one per target or one for all, or a vector",
                          "named by target (e.g. `c(income = 20)`; the others are not grouped)."),
  ngroups_keys = "Numbers of groups for numeric keys: one per key or one for all (0 or `NULL` = no grouping).",
  ident.meas = paste("Identity measure of the summary: `\"repU\"`, `\"UiSiO\"` (UiOiS) or `\"baseCAPd\"` (the",
                     "target's baseline CAP; synthpop 1.9-3 accepts it but reports `NA`)."),
  attrib.meas = paste("Attribute measures of the summary (original, synthetic): `\"DiSCO\"` (Dorig, DiSCO),",
                      "`\"DiSDiO\"` (Dorig, DiSDiO), `\"DCAP\"` (CAPd, DCAPd), `\"TCAP\"` (Dorig, TCAP) or",
                      "`\"TCAP_taub\"` (Dorig, TCAP_taub, Taub et al.'s TCAP)."),
  thresh_1way = paste("Thresholds of the check for disclosure that background knowledge explains: a level",
                      "with more than `thresh_1way[1]` disclosive records that are more than `thresh_1way[2]`",
                      "percent of all."),
  thresh_2way = paste("Thresholds of the 2-way check: pairs from cells over `thresh_2way[1]` records whose",
                      "target level makes up more than `thresh_2way[2]` percent of the key level."),
  digits = "Digits used when printing.",
  to.print = "What `print()` shows by default, see [print.disclosure()].",
  plot = "Whether `print()` draws `attrib.plot`.",
  compare.synorig = paste("If `TRUE`, variables of different types in the original and synthetic data are made",
                          "comparable (character and logical to factor, numeric vs factor to factor). If",
                          "`FALSE`, such a variable is an error. Levels are always matched by label."),
  n_threads = "Threads for the Rust core; default [synthrisk_threads()].",
  control = paste("Holdout baseline: original records of the same population that were *not* used to make",
                  "the synthesis (a data frame with the keys and target(s), e.g. from [holdout_split()],",
                  "counted cells or a database table, as `data`), or `NULL`. Every measure is then computed",
                  "also with `control` as the original, and the result gains `holdout` (see [disclosure()],",
                  "section \"Holdout baseline\"). The measures of `data` do not change: `control` is coded",
                  "with the levels and grouping breaks of `data` and the syntheses, its values beyond the",
                  "outer breaks going to the end intervals. By default `print()` then shows the holdout",
                  "table too."),
  conf.level = paste("With m >= 2 syntheses, e.g. 0.95: the interval across syntheses of every measure and of the",
                     "holdout `R` (definitions vignette, section 12): the mean over syntheses plus and minus",
                     "t (m - 1 degrees of freedom) times its standard error, an interval for the expected value of the measure over",
                     "syntheses from the same model. Intervals are clamped to what the measure can take (0-100 for",
                     "percentages); one marked `*` may cover less often than its level (its values are all equal,",
                     "reach 0 or 100, or are a few whole numbers). Also the level of the intervals of",
                     "`resynthesize` (default 0.95). `NULL`: no interval across syntheses."),
  resynthesize = paste("Number B of further syntheses to draw from the same model (0: none): every measure's",
                       "interval (and `R`'s) is then the one across the m given and the B drawn syntheses, for",
                       "any m, with the values shown those of the given syntheses. Draws with `synthesizer`;",
                       "`data`, the given syntheses and `control` must be data frames of records. (The",
                       "resampling bootstrap `boot` of earlier versions is gone: its intervals did not cover.)"),
  synthesizer = paste("The model that `resynthesize` draws from: a function of the original data returning one",
                      "synthetic data frame. Default (`NULL`), for a `synds` object: synthpop's `syn()` with the",
                      "object's own specification (method, visit sequence, predictor matrix, `cont.na`,",
                      "smoothing and the rest it stores), which needs synthpop; for other objects it must be",
                      "given."),
  seed = paste("A whole number making the draws of `resynthesize` reproducible (the random state of R is restored",
               "afterwards), or `NULL` for the random state of the session."),
  release = paste("With m >= 2 syntheses released together, `TRUE` adds what an intruder holding all of",
                  "them learns (definitions vignette, section 12): `release` (`DiSCO_any`, `repU_any`: the",
                  "original records in a DiSCO cell, or replicated uniques, of at least one synthesis, in percent of",
                  "the original records) and `pooled` (every measure with the syntheses stacked into one).",
                  "Syntheses must be data frames of records.")
)

# Roxygen tags (for @eval) documenting a front door's arguments after `data`: synthpop's
# own, in its order, then ours, then `...`.
argument_docs_roxygen <- function(family) {
  names <- setdiff(names(request_formals(family)), "...")
  c(vapply(names, function(n) sprintf("@param %s %s", n, argument_docs[[n]]), character(1), USE.NAMES = FALSE),
    "@param ... Nothing else: an argument that no signature has is an error naming it.")
}
