# The search request (R/search-request.R): what dcr(), identification_risk() and the
# three attacks share, prepared, checked and encoded once.

search_case <- function() {
  data <- sd2011[1:200, c("sex", "age", "region", "income", "depress")]
  syn <- list(sd2011_synds5$syn[[1]][1:150, names(data)], sd2011_synds5$syn[[2]][1:160, names(data)])
  control <- sd2011[201:260, names(data)]
  list(data = data, syn = syn, control = control)
}

test_that("search_request() holds the prepared inputs and the sizes; search_columns() resolves an argument once", {
  case <- search_case()
  request <- synthrisk:::search_request(case$syn, case$data, case$control, list(income = -8), NULL,
                                        fn = "dcr", call = NULL)
  expect_s3_class(request, "synthrisk_search_request")
  expect_identical(request$n, list(data = 200L, control = 60L, synthetic = c(150L, 160L)))
  expect_identical(request$m, 2L)
  expect_identical(request$cont.na, list(income = -8))
  # Numbers are columns of data; the resolved names are kept under the argument's name.
  request <- synthrisk:::search_columns(request, c(4, 1), "vars")
  expect_identical(request$columns, list(vars = c("income", "sex")))
  expect_error(synthrisk:::search_columns(request, c("sex", "sex"), "vars"), "`vars` repeats \"sex\"")
  expect_error(synthrisk:::search_columns(request, character(0), "vars"), "`vars` must name at least one variable")
  expect_identical(synthrisk:::search_common_columns(request), names(case$data))
})

test_that("a synthesis or control without a column is named in the attacks' words and in dcr()'s", {
  case <- search_case()
  case$syn[[2]]$region <- NULL
  attack <- synthrisk:::search_request(case$syn, case$data, case$control, NULL, NULL, fn = "inference_risk",
                                       call = NULL)
  expect_error(synthrisk:::search_columns(attack, c("sex", "region"), "aux"),
               "Synthesis 2 lacks \"region\" of `aux`.", fixed = TRUE)
  distance <- synthrisk:::search_request(case$syn, case$data, case$control, NULL, NULL, fn = "dcr", call = NULL)
  expect_error(synthrisk:::search_columns(distance, c("sex", "region"), "vars"),
               "Synthesis 2 must have every key and target; \"region\" is missing.", fixed = TRUE)
  # control: the argument of the first missing column, or the attack's own reading.
  case <- search_case()
  control <- case$control[c("sex", "age")]
  attack <- synthrisk:::search_request(case$syn, case$data, control, NULL, NULL, fn = "inference_risk", call = NULL)
  attack <- synthrisk:::search_columns(synthrisk:::search_columns(attack, "depress", "secret"), c("sex", "age"), "aux")
  expect_error(synthrisk:::search_encode(attack, c("sex", "age", "depress")), "`control` lacks \"depress\" of `secret`.",
               fixed = TRUE)
  expect_error(synthrisk:::search_encode(attack, c("sex", "age", "region")),
               "`control` lacks \"region\", which the attack reads.", fixed = TRUE)
  distance <- synthrisk:::search_request(case$syn, case$data, control, NULL, NULL, fn = "dcr", call = NULL)
  expect_error(synthrisk:::search_encode(distance, c("sex", "region", "income")),
               "`control` must have every variable compared; \"region\" and \"income\" are missing.", fixed = TRUE)
})

test_that("search_encode() encodes the variables read with their cont.na codes, or without them", {
  case <- search_case()
  request <- synthrisk:::search_request(case$syn, case$data, case$control, list(income = c(-8, -9)), NULL,
                                        fn = "dcr", call = NULL)
  encoded <- synthrisk:::search_encode(request, c("age", "income"))
  expect_identical(encoded$vars, c("age", "income"))
  expect_identical(encoded$enc$vars, c("age", "income"))
  expect_identical(encoded$label_codes, list(numeric(0), c(-8, -9)))
  expect_identical(synthrisk:::search_column_set(encoded, "income"),
                   list(vars = 1L, label_codes = list(c(-8, -9)), names = list("income")))
  plain <- synthrisk:::search_encode(request, c("age", "income"), cont.na = FALSE)
  expect_identical(plain$label_codes, list(numeric(0), numeric(0)))
})

test_that("column arguments given as named vectors search as the plain names do", {
  keys <- c("sex", "age", "region")
  expect_identical(dcr(sd2011_synds, sd2011, vars = c(a = "sex", b = "age", c = "region"))$summary,
                   dcr(sd2011_synds, sd2011, vars = keys)$summary)
  expect_identical(inference_risk(sd2011_synds, sd2011, secret = c(s = "depress"), aux = c(a = "sex", b = "age"))$results,
                   inference_risk(sd2011_synds, sd2011, secret = "depress", aux = c("sex", "age"))$results)
  expect_identical(linkability_risk(sd2011_synds, sd2011, aux_a = c(a = "sex", b = "age"), aux_b = c(c = "region"))$results,
                   linkability_risk(sd2011_synds, sd2011, aux_a = c("sex", "age"), aux_b = "region")$results)
})

test_that("the columns of `control` are checked only by check_control(), and repeats only by search_columns() in the searches", {
  files <- list.files(test_path("..", "..", "R"), pattern = "[.]R$", full.names = TRUE)
  skip_if(length(files) == 0, "R sources not beside the tests")
  searching <- c("dcr.R", "identification-risk.R", "inference-risk.R", "linkability-risk.R", "singling-out-risk.R",
                 "attack-risk.R")
  hits <- function(pattern, among) {
    unlist(lapply(files[basename(files) %in% among], function(f) {
      lines <- readLines(f, warn = FALSE)
      code <- !grepl("^\\s*#", lines)
      found <- which(code & grepl(pattern, lines))
      if (length(found) > 0) paste0(basename(f), ":", found) else character(0)
    }))
  }
  control <- hits("names\\(control\\)", basename(files))
  expect_length(control, 1)
  expect_match(control, "^validate.R:")
  expect_identical(hits("repeats \\{", searching), character(0))
  expect_identical(hits("prepare_inputs\\(", searching), character(0))
  expect_identical(hits("encode_variables\\(", searching), character(0))
})
