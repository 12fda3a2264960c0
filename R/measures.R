# The measures' registry (definitions vignette, section 6). Each measure is declared
# once, beside its formula, in the core (src/rust/core/src/counting/measures.rs):
# name, family, unit, data, the components that hold it, the symbols of its
# numerator and denominator, and its definition; R/measure-declarations.R holds those
# declarations as the core gives them. Here they are laid out as synthpop's objects
# hold them: in each component synthpop 1.9-3's columns first, in its order (scripts
# read them by position), then every other measure the core declares for that
# component, in the core's order. Results, print, tidy(), the help page and the plots
# all read this table.

# synthpop 1.9-3's columns of each component, in its order (DCAP is its name of DCAPd).
synthpop_columns <- list(
  ident = c("UiO", "UiS", "UiOiS", "repU"),
  attrib = c("Dorig", "Dsyn", "iS", "DiS", "DiSCO", "DiSDiO", "max_denom", "mean_denom"),
  allCAPs = c("baseCAPd", "CAPd", "CAPs", "DCAP", "TCAP")
)

component_family <- c(ident = "identity", attrib = "attribute", allCAPs = "CAP")

# The one alias: synthpop 1.9-3's DCAP is the core's DCAPd (kept for its scripts).
measure_aliases <- c(DCAP = "DCAPd")

# One row per measure and component: measure, component, group (the core's family),
# unit, data, definition, and the numerator and denominator of each percentage as
# 100 * numerator / denominator, in the symbols of curve_symbols (NA for the counts and
# the baseline; the size curve's plot draws the numerator as the line type and the
# denominator as the colour).
measure_registry <- local({
  decl <- measure_declarations
  held_by <- strsplit(decl$components, " ", fixed = TRUE)
  rows <- lapply(names(synthpop_columns), function(component) {
    own <- decl$measure[vapply(held_by, function(x) component %in% x, logical(1))]
    measures <- c(synthpop_columns[[component]], setdiff(own, synthpop_columns[[component]]))
    alias <- match(measures, names(measure_aliases))
    at <- match(ifelse(is.na(alias), measures, measure_aliases[alias]), decl$measure)
    symbol <- function(x) ifelse(nzchar(x), x, NA_character_)
    # A row's group is its component's family: DCAPd, declared an attribute measure,
    # is also a CAP of allCAPs, and synthpop's DCAP is one too.
    data.frame(measure = measures, component = component, group = component_family[[component]], unit = decl$unit[at],
               data = decl$data[at],
               definition = ifelse(is.na(alias), decl$definition[at],
                                   paste0("equals ", measure_aliases[alias], "; kept for scripts written for synthpop 1.9-3")),
               numerator = symbol(decl$numerator[at]), denominator = symbol(decl$denominator[at]),
               stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  out
})

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
# The measure frames of a target's result, per component: their column names and the
# core's names of those columns (build_disclosures()).
frame_component_names <- list(ident = ident_names, attrib = attrib_names, allCAPs = cap_names)
frame_component_core_names <- list(ident = ident_names, attrib = attrib_names, allCAPs = cap_core_names)

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
# The attributes of a synthesis's matrix of exclusions (build_disclosures()).
exclusion_matrix_attributes <- list(dim = c(length(exclusion_rows), length(exclusion_cols)),
                                    dimnames = list(exclusion_rows, exclusion_cols))

# The headline pair of the summary printout (identity, attribute), whose "any synthesis"
# versions the released-together block reports; and the measure with two definitions
# (synthrisk's and synthpop 1.9-3's), named in tidy() and the notes.
headline_measures <- c(identity = "repU", attribute = "DiSCO")
two_definition_measure <- "TCAP"
