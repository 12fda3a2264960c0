# disclosure() against synthpop 1.9-3's own outputs for the 13 fixture calls.

compare_check_table <- function(got, want, label) {
  if (is.data.frame(want)) {
    expect_s3_class(got, "data.frame")
    expect_identical(names(got), names(want), label = label)
    for (col in names(want)) {
      # A factor where synthpop gives one (check_2way's target_key_levs).
      expect_identical(is.factor(got[[col]]), is.factor(want[[col]]), label = paste(label, col, "is a factor"))
      if (is.factor(want[[col]])) expect_identical(levels(got[[col]]), levels(want[[col]]), label = paste(label, col, "levels"))
      if (is.numeric(want[[col]])) {
        expect_numbers(got[[col]], want[[col]], label = paste(label, col))
      } else {
        expect_identical(as.character(got[[col]]), as.character(want[[col]]), label = paste(label, col))
      }
    }
  } else {
    expect_identical(got, want, label = label)
  }
}

golden <- golden_cases()
for (name in grep("^c", names(golden), value = TRUE)) {
  test_that(paste("golden case", name, "reproduces synthpop 1.9-3"), {
    case <- golden[[name]]
    want <- case$expected
    got <- run_golden(case)
    expect_s3_class(got, "disclosure")
    expect_numbers(got$ident, want$ident, label = "ident")
    expect_identical(names(got$ident), names(want$ident))
    expect_numbers(got$attrib[names(want$attrib)], want$attrib, label = "attrib")
    # synthpop 1.9-3's TCAP had another denominator (definitions vignette 9.7): it is TCAP_synthpop here.
    same_caps <- setdiff(names(want$allCAPs), "TCAP")
    expect_numbers(got$allCAPs[same_caps], want$allCAPs[same_caps], label = "allCAPs")
    expect_numbers(got$measures$TCAP_synthpop, want$allCAPs$TCAP, label = "TCAP of synthpop 1.9-3")
    expect_identical(got$check1, want$check1)
    expect_identical(got$check2, want$check2)
    if (is.data.frame(want$check_1way)) {
      compare_check_table(got$check_1way, want$check_1way, "check_1way")
    } else {
      expect_identical(length(got$check_1way), length(want$check_1way))
      for (j in seq_along(want$check_1way)) compare_check_table(got$check_1way[[j]], want$check_1way[[j]], "check_1way")
    }
    if (is.data.frame(want$check_2way)) {
      compare_check_table(got$check_2way, want$check_2way, "check_2way")
    } else {
      expect_identical(length(got$check_2way), length(want$check_2way))
      for (j in seq_along(want$check_2way)) compare_check_table(got$check_2way[[j]], want$check_2way[[j]], "check_2way")
    }
    expect_identical(length(got$Nexclusions), length(want$Nexclusions))
    for (j in seq_along(want$Nexclusions)) {
      expect_identical(dimnames(got$Nexclusions[[j]]), dimnames(want$Nexclusions[[j]]))
      expect_numbers(got$Nexclusions[[j]], want$Nexclusions[[j]], label = "Nexclusions")
    }
    expect_identical(got$keys, want$keys)
    expect_identical(got$target, want$target)
    expect_identical(got$Norig, want$Norig)
    expect_equal(got$digits, want$digits)
    expect_identical(got$to.print, want$to.print)
  })
}

test_that("the golden file has the 13 disclosure cases", {
  expect_length(grep("^c", names(golden_cases())), 13)
})
