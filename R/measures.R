# The measures, written once (definitions vignette, section 6): name, the component of a `disclosure`
# object that holds it, its group, its unit, the data it describes (the original alone,
# or the synthetic data, alone or against the original) and a one-line definition. Results, print,
# tidy(), the help page and the plots all read this table.

# One row per measure, synthpop 1.9-3's columns first in its order and ours after them
# (scripts read synthpop's columns by position): name, component, group, unit, data; the numerator and
# denominator of each percentage as 100 * numerator / denominator (definitions
# vignette, section 6), in the symbols of curve_symbols (NA for the counts and the
# baseline; the size curve's plot draws the numerator as the line type and the
# denominator as the colour); the definition.
measure_row <- function(measure, component, group, unit, data, numerator, denominator, definition) {
  list(measure = measure, component = component, group = group, unit = unit, data = data, definition = definition,
       numerator = as.character(numerator), denominator = as.character(denominator))
}

measure_registry <- do.call(rbind.data.frame, c(list(
  measure_row("UiO", "ident", "identity", "%", "original", "UiO", "Nd",
               "unique in the original: records whose key combination (q) occurs once in the original"),
  measure_row("UiS", "ident", "identity", "%", "synthetic", "UiS", "Ns",
               "unique in the synthetic data: records whose q occurs once in the synthesis (over Ns)"),
  measure_row("UiOiS", "ident", "identity", "%", "synthetic", "UiOiS", "Nd",
               "unique in the original and q present in the synthetic data"),
  measure_row("repU", "ident", "identity", "%", "synthetic", "repU", "Nd",
               "replicated uniques: unique in the original and unique in the synthetic data"),
  measure_row("Dorig", "attrib", "attribute", "%", "original", "did", "Nd",
               "disclosive in the original: records whose q has one target level in the original"),
  measure_row("Dsyn", "attrib", "attribute", "%", "synthetic", "dis", "Ns",
               "disclosive in the synthetic data: records whose q has one target level there (over Ns)"),
  measure_row("iS", "attrib", "attribute", "%", "synthetic", "iS", "Nd",
               "original records whose q occurs in the synthetic data"),
  measure_row("DiS", "attrib", "attribute", "%", "synthetic", "DiS", "Nd",
               "original records whose q has one target level in the synthetic data"),
  measure_row("DiSCO", "attrib", "attribute", "%", "synthetic", "K", "Nd",
               "disclosive in the synthetic data and correct in the original"),
  measure_row("DiSDiO", "attrib", "attribute", "%", "synthetic", "DiSDiO", "Nd",
               "disclosive in the synthetic data and in the original, and correct"),
  measure_row("max_denom", "attrib", "attribute", "count", "synthetic", NA, NA,
               "largest cell of the DiSCO table (records)"),
  measure_row("mean_denom", "attrib", "attribute", "count", "synthetic", NA, NA,
               "mean of the non-zero cells of the DiSCO table (records)"),
  measure_row("DCAPd", "attrib", "attribute", "%", "synthetic", "C", "Nd",
               "expected correct attributions: the sum over original records of ps, the synthetic share of their target level in their q"),
  measure_row("baseCAPd", "allCAPs", "CAP", "%", "original", NA, NA,
               "baseline: the chance of guessing the target from its original distribution"),
  measure_row("CAPd", "allCAPs", "CAP", "%", "original", "CAPd", "Nd",
               "CAP of the original data predicting itself"),
  measure_row("CAPs", "allCAPs", "CAP", "%", "synthetic", "CAPs", "Ns",
               "CAP of the synthetic data predicting itself (over Ns)"),
  measure_row("DCAP", "allCAPs", "CAP", "%", "synthetic", "C", "Nd",
               "equals DCAPd; kept for scripts written for synthpop 1.9-3"),
  measure_row("TCAP", "allCAPs", "CAP", "%", "synthetic", "K", "DiS",
               "of the original records whose q is predicted with certainty, the share predicted correctly (DiSCO / DiS)"),
  measure_row("DCAPd", "allCAPs", "CAP", "%", "synthetic", "C", "Nd",
               "expected correct attributions over the original records (C / Nd)"),
  measure_row("DCAPs", "allCAPs", "CAP", "%", "synthetic", "C", "Ns",
               "expected correct attributions over the synthetic records (C / Ns)"),
  measure_row("DCAPb", "allCAPs", "CAP", "%", "synthetic", "C", "Nb",
               "expected correct attributions over synthetic records whose q occurs in the original (C / Nb)"),
  measure_row("TCAPs", "allCAPs", "CAP", "%", "synthetic", "K", "Ns",
               "records predicted with certainty and correct over Ns (K / Ns)"),
  measure_row("TCAPb", "allCAPs", "CAP", "%", "synthetic", "K", "Nb",
               "records predicted with certainty and correct over Nb (K / Nb)"),
  measure_row("TCAP_taub", "allCAPs", "CAP", "%", "synthetic", "Tt", "Sc",
               "TCAP as Taub et al. (2018) define it: of the synthetic records whose q predicts one target level and occurs in the original, the mean share of original records in q with that level"),
  measure_row("DCAPi", "allCAPs", "CAP", "%", "synthetic", "C", "iS",
               "expected correct attributions over the original records whose q occurs in the synthetic data (C / iS); SDMetrics' CategoricalCAP reports 1 - score")

), stringsAsFactors = FALSE))

# What the symbols of the numerator and denominator columns count.
curve_symbols <- c(
  UiO = "unique in the original", UiS = "unique in the synthetic data",
  UiOiS = "unique in the original, q in the synthetic data", repU = "replicated uniques",
  did = "disclosive in the original", dis = "disclosive in the synthetic data",
  iS = "original records whose q is in the synthetic data",
  DiS = "original records whose q is predicted with certainty",
  K = "K: predicted with certainty and correct", C = "C: expected correct attributions",
  DiSDiO = "disclosive in both and correct", CAPd = "expected correct, original predicting itself",
  CAPs = "expected correct, synthetic predicting itself",
  Tt = "sum of pd over the synthetic records of Sc",
  Sc = "synthetic records whose q predicts one level and occurs in the original",
  Nd = "Nd: original records", Ns = "Ns: synthetic records",
  Nb = "Nb: synthetic records whose q is in the original"
)

# The one alias: synthpop 1.9-3's DCAP is the core's DCAPd (kept for its scripts).
measure_aliases <- c(DCAP = "DCAPd")

# The core's name of each measure (aliases resolved).
core_names <- function(measures) {
  alias <- match(measures, names(measure_aliases))
  measures[!is.na(alias)] <- measure_aliases[alias[!is.na(alias)]]
  unname(measures)
}

# The other name of a measure (DCAPd for DCAP and DCAP for DCAPd), or NA.
alias_of <- function(measure) {
  both <- c(measure_aliases, stats::setNames(names(measure_aliases), measure_aliases))
  unname(both[measure])
}

measure_names <- function(component) {
  measure_registry$measure[measure_registry$component == component]
}

ident_names <- measure_names("ident")
attrib_names <- measure_names("attrib")
cap_names <- measure_names("allCAPs")
cap_core_names <- core_names(cap_names)

# Group and unit of each distinct measure (DCAPd is listed under attrib and allCAPs).
measure_group <- local({
  first <- !duplicated(measure_registry$measure)
  stats::setNames(measure_registry$group[first], measure_registry$measure[first])
})
measure_unit <- local({
  first <- !duplicated(measure_registry$measure)
  stats::setNames(measure_registry$unit[first], measure_registry$measure[first])
})

# The eight tables of the exclusion counts (definitions vignette, section 3), in the
# core's order (the core names them the same; test-measures.R checks).
table_names <- c("original", "synthetic", "Dorig", "Dsyn", "iS", "DiS", "DiSCO", "DiSDiO")

# The exclusion steps in the order they apply (section 5): the label of each (a column
# of Nexclusions, synthpop's spelling) and what it removes.
exclusion_steps <- c("excluded target" = "target level in not.targetlev",
                     "missing target" = "missing target (usetargetNA = FALSE)",
                     "missing in  keys" = "missing key (usekeysNA = FALSE)",
                     "set to exclude" = "exclude.keys/keylevs/targetlevs",
                     "over denom_lim" = "cell over denom_lim")

# The summary of multi.disclosure(): the choices of attrib.meas (original, synthetic
# measure) and of ident.meas (the synthetic measure; the original is UiO).
attrib_meas_columns <- list(DiSCO = c("Dorig", "DiSCO"), DiSDiO = c("Dorig", "DiSDiO"),
                            DCAP = c("CAPd", "DCAPd"), TCAP = c("Dorig", "TCAP"),
                            TCAP_taub = c("Dorig", "TCAP_taub"))
ident_meas_columns <- c(repU = "repU", UiSiO = "UiOiS", baseCAPd = "baseCAPd")
ident_orig_measure <- "UiO"

# Headline measures: glance() (means over syntheses), the report's tables, the tau
# curve's companions (at tau = 1 and 0) and the size curve's default.
glance_measures <- c("UiO", "repU", "Dorig", "DiSCO", "DCAPd", "TCAP")
report_ident_measures <- c("UiO", "UiS", "UiOiS", "repU")
report_attrib_measures <- c("Dorig", "DiSCO", "DiSDiO", "DCAPd", "CAPd", "baseCAPd", "TCAP", "TCAP_taub")
tau_curve_measures <- c("Dorig", "DiSCO", "CAPd", "DCAPd")
size_curve_measures <- c("DiSCO", "DCAPd", "DCAPs", "DCAPb", "TCAP", "TCAPs", "TCAPb")
# synthpop's defaults of ident.meas and attrib.meas (for objects that lack them).
default_ident_meas <- names(ident_meas_columns)[1]
default_attrib_meas <- names(attrib_meas_columns)[1]

# The rows and columns of each synthesis's Nexclusions matrix.
exclusion_rows <- table_names
exclusion_cols <- c(names(exclusion_steps), "remaining")

# The headline pair of the summary printout (identity, attribute), whose "any synthesis"
# versions the released-together block reports; and the measure with two definitions
# (synthrisk's and synthpop 1.9-3's), named in tidy() and the notes.
headline_measures <- c(identity = "repU", attribute = "DiSCO")
two_definition_measure <- "TCAP"
