# The documentation's cross-references and lists against what they point to: every
# section of the definitions vignette that a help page or vignette cites exists, and
# the measures ?disclosure_report says `thresholds` accepts are those it accepts, and the
# shipped training synthesis is as its help page describes it.
# Those that read the package sources skip where the sources are not beside the tests.

sources_root <- function() test_path("../..")

# The numbers of the definitions vignette's sections ("## 11. ...") and numbered
# paragraphs ("**11.2 ...**").
definitions_sections <- function(lines) {
  headings <- regmatches(lines, regexpr("^## [0-9]+(?=\\.)", lines, perl = TRUE))
  paragraphs <- regmatches(lines, regexpr("^\\*\\*[0-9]+\\.[0-9]+(?= )", lines, perl = TRUE))
  c(sub("^## ", "", headings), sub("^\\*\\*", "", paragraphs))
}

# Every number cited as "section N", "Section N.M" or "sections N and M" in `text`.
cited_sections <- function(text) {
  phrases <- unlist(regmatches(text, gregexpr("[Ss]ections? [0-9]+(\\.[0-9]+)?((, | and | or |-)[0-9]+(\\.[0-9]+)?)*",
                                              text)))
  unique(unlist(regmatches(phrases, gregexpr("[0-9]+(\\.[0-9]+)?", phrases))))
}

test_that("the section helpers read headings and citations as written", {
  expect_identical(definitions_sections(c("## 11. Distances", "**11.2 One variable**", "## Notes", "**x**")),
                   c("11", "11.2"))
  expect_setequal(cited_sections("see section 11, Section 10.5 and sections 4 and 5; 2 sections"),
                  c("11", "10.5", "4", "5"))
})

test_that("every section of the definitions vignette cited in man/ and vignettes/ exists", {
  root <- sources_root()
  skip_if_not(dir.exists(file.path(root, "man")) && dir.exists(file.path(root, "vignettes")),
              "package sources not beside the tests")
  definitions <- readLines(file.path(root, "vignettes", "definitions.Rmd"), encoding = "UTF-8")
  known <- definitions_sections(definitions)
  expect_true(all(c("11", "12", "13") %in% known))
  files <- c(list.files(file.path(root, "man"), pattern = "\\.Rd$", full.names = TRUE),
             list.files(file.path(root, "vignettes"), pattern = "\\.Rmd$", full.names = TRUE))
  for (f in files) {
    text <- paste(readLines(f, encoding = "UTF-8", warn = FALSE), collapse = " ")
    own <- character(0)
    if (basename(f) == "differences.Rmd") {
      # The differences vignette numbers its own cases; its citations of the
      # definitions follow `vignette("definitions")`.
      own <- definitions_sections(readLines(f, encoding = "UTF-8"))
    }
    missing <- setdiff(cited_sections(text), c(known, own))
    expect(length(missing) == 0,
           sprintf("%s cites section(s) %s, not in vignettes/definitions.Rmd", basename(f),
                   paste(missing, collapse = ", ")))
  }
})

test_that("?disclosure_report lists exactly the measures `thresholds` accepts", {
  rd <- file.path(sources_root(), "man", "disclosure_report.Rd")
  skip_if_not(file.exists(rd), "package sources not beside the tests")
  text <- paste(readLines(rd, encoding = "UTF-8"), collapse = " ")
  listing <- regmatches(text, regexpr("The measures \\\\code\\{thresholds\\} accepts.*?summary", text, perl = TRUE))
  expect_length(listing, 1)
  documented <- unique(gsub("\\\\code\\{|\\}", "", unlist(regmatches(listing, gregexpr("\\\\code\\{[A-Za-z_]+\\}", listing)))))
  documented <- setdiff(documented, c("thresholds", "distances"))
  accepted <- c(unique(synthrisk:::measure_registry$measure), synthrisk:::report_distance_measures)
  expect_setequal(documented, accepted)
})

test_that("?multi.disclosure does not show disclosure.summary() as a method for class \"summary\"", {
  rd <- file.path(sources_root(), "man", "multi.disclosure.Rd")
  skip_if_not(file.exists(rd), "package sources not beside the tests")
  text <- paste(readLines(rd, encoding = "UTF-8"), collapse = "\n")
  expect_true(grepl("\\alias{disclosure.summary}", text, fixed = TRUE))
  expect_false(grepl("\\method{disclosure}{summary}", text, fixed = TRUE))
  expect_false(grepl("(?m)^disclosure\\.summary\\(", sub("\\\\description.*", "", text), perl = TRUE))
})

test_that("sd2011_train_synds5 is what ?sd2011_train_synds5 says: 5 syntheses of the 4,000 training records", {
  parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
  s <- sd2011_train_synds5
  expect_s3_class(s, "synds")
  expect_equal(s$m, 5)
  expect_equal(s$n, nrow(parts$train))
  expect_length(s$syn, 5)
  for (syn in s$syn) {
    expect_identical(nrow(syn), nrow(parts$train))
    expect_identical(names(syn), names(sd2011))
    expect_identical(lapply(syn, class), lapply(sd2011, class))
    expect_identical(lapply(syn, levels), lapply(sd2011, levels))
  }
  expect_true(all(is.na(unlist(s$cont.na))))
  expect_identical(names(s$cont.na), names(sd2011))
  expect_null(s$call)
})
