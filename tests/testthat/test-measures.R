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
