# The registry (R/measures.R): the names of measures, tables and exclusion steps,
# written once, agree with what the core returns and with every list that picks from
# them.

registry_case <- function() {
  disclosure(sd2011_synds, sd2011, keys = c("sex", "age", "region", "placesize"), target = "depress",
             print.flag = FALSE)
}

test_that("every number the core returns is a registered measure, and every registered measure is returned", {
  d <- registry_case()
  registry <- synthrisk:::measure_registry$measure
  # Counts and synthpop's TCAP feed the notes and the object's Norig/Nsyn; they are
  # not measures of the tables.
  expect_setequal(setdiff(names(d$measures), registry), c("TCAP_synthpop", "Nd", "Ns"))
  # DCAP is synthpop's name of DCAPd, kept as a column of allCAPs.
  expect_identical(setdiff(registry, names(d$measures)), "DCAP")
  expect_identical(d$allCAPs$DCAP, d$allCAPs$DCAPd)
})

test_that("R/measure-declarations.R holds the core's declarations as they are (tools/measure-declarations.R)", {
  live <- as.data.frame(synthrisk:::rust_measure_declarations(), stringsAsFactors = FALSE)
  expect_identical(synthrisk:::measure_declarations, live)
  d <- registry_case()
  # One declaration per measure the core computes, in its order.
  expect_identical(live$measure, names(d$measures))
})

test_that("every component has synthpop 1.9-3's columns first, in its order, then the core's other measures", {
  decl <- synthrisk:::measure_declarations
  for (component in names(synthrisk:::synthpop_columns)) {
    theirs <- synthrisk:::synthpop_columns[[component]]
    names <- synthrisk:::measure_names(component)
    expect_identical(names[seq_along(theirs)], theirs)
    held <- decl$measure[grepl(paste0("(^| )", component, "( |$)"), decl$components)]
    expect_identical(names[-seq_along(theirs)], setdiff(held, theirs))
    # synthpop's columns are declared for that component (DCAP as DCAPd).
    expect_true(all(synthrisk:::core_names(theirs) %in% held), label = component)
  }
  # A measure's declared family is that of the first component that shows it.
  reg <- synthrisk:::measure_registry
  first <- reg[!duplicated(reg$measure) & !reg$measure %in% names(synthrisk:::measure_aliases), ]
  expect_identical(first$group, decl$family[match(first$measure, decl$measure)])
})

test_that("the result's components have the registry's columns, in its order", {
  d <- registry_case()
  expect_identical(names(d$ident), synthrisk:::measure_names("ident"))
  expect_identical(names(d$attrib), synthrisk:::measure_names("attrib"))
  expect_identical(names(d$allCAPs), synthrisk:::measure_names("allCAPs"))
  expect_identical(dimnames(d$Nexclusions[[1]]), list(synthrisk:::exclusion_rows, synthrisk:::exclusion_cols))
  expect_identical(unique(generics::tidy(d)$measure), unique(synthrisk:::measure_registry$measure))
})

test_that("every list that picks measures names registered ones", {
  registry <- synthrisk:::measure_registry$measure
  picked <- c(synthrisk:::glance_measures, synthrisk:::report_ident_measures, synthrisk:::report_attrib_measures,
              synthrisk:::tau_curve_measures, synthrisk:::size_curve_measures,
              unlist(synthrisk:::attrib_meas_columns), synthrisk:::ident_meas_columns, synthrisk:::ident_orig_measure,
              synthrisk:::headline_measures, synthrisk:::two_definition_measure)
  expect_true(all(picked %in% registry), label = paste(setdiff(picked, registry), collapse = ", "))
  expect_identical(synthrisk:::default_ident_meas, "repU")
  expect_identical(synthrisk:::default_attrib_meas, "DiSCO")
})

test_that("the DCAP alias resolves both ways, and nothing else has one", {
  expect_identical(synthrisk:::alias_of("DCAP"), "DCAPd")
  expect_identical(synthrisk:::alias_of("DCAPd"), "DCAP")
  expect_true(is.na(synthrisk:::alias_of("DiSCO")))
})

# Definitions vignette, section 6: a ratio with a zero denominator follows R's arithmetic: x/0 is Inf for x > 0,
# NaN for 0/0.

test_that("zero denominators follow R arithmetic: TCAPb is Inf when Nb = 0 but K > 0", {
  # One original record; ten synthetic records in its q, all with its target level.
  # exclude_ov_denom_lim removes the synthetic cell (10 > 5) but keeps the DiSCO cell
  # (value d = 1), so K = 1 while Nb = 0 and C = 0.
  o <- data.frame(k = "a", t = "x")
  s <- data.frame(k = rep("a", 10), t = rep("x", 10))
  d <- disclosure(s, o, keys = "k", target = "t", exclude_ov_denom_lim = TRUE, denom_lim = 5, print.flag = FALSE)
  expect_equal(d$attrib$DiSCO, 100)
  expect_identical(d$allCAPs$TCAPb, Inf)
  expect_identical(d$allCAPs$DCAPb, NaN)
  expect_equal(d$allCAPs$TCAP, 100)
  expect_identical(d$measures$TCAP_synthpop, Inf)
  expect_equal(d$attrib$mean_denom, 1)
})

test_that("0/0 stays NaN and mean_denom is NaN without a DiSCO cell", {
  o <- data.frame(k = c("a", "b"), t = c("x", "y"))
  s <- data.frame(k = c("a", "a"), t = c("x", "y"))
  d <- disclosure(s, o, keys = "k", target = "t", print.flag = FALSE)
  expect_equal(d$attrib$DiSCO, 0)
  expect_identical(d$allCAPs$TCAP, NaN)
  expect_identical(d$attrib$mean_denom, NaN)
  expect_identical(d$attrib$max_denom, 0)
})

quiet_disclosure <- function(...) disclosure(..., print.flag = FALSE)

test_that("ratios with a zero denominator follow R's arithmetic (definitions vignette, section 6)", {
  # The synthetic cell (10 records) is over denom_lim and excluded, the original one is
  # not: K = 1 record predicted with certainty and correct, Nb = 0.
  o <- data.frame(k = "a", t = "x")
  s <- data.frame(k = rep("a", 10), t = "x")
  d <- quiet_disclosure(s, o, keys = "k", target = "t", exclude_ov_denom_lim = TRUE, denom_lim = 5)
  expect_identical(d$allCAPs$TCAPb, Inf)
  expect_identical(d$allCAPs$DCAPb, NaN)
  expect_identical(d$attrib$DiSCO, 100)
  expect_identical(d$allCAPs$TCAPs, 10)
  expect_identical(d$allCAPs$TCAP, 100)
})
