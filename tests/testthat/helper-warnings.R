# The value of `expr` and the messages of the label-gap warnings it gave (class
# "synthrisk_labels_do_not_meet"), muffled so that a test can compare them; any other
# warning passes through.
with_label_warnings <- function(expr) {
  messages <- character(0)
  value <- withCallingHandlers(expr, synthrisk_labels_do_not_meet = function(w) {
    messages <<- c(messages, conditionMessage(w))
    invokeRestart("muffleWarning")
  })
  list(value = value, warnings = messages)
}

# The value of `expr`, expecting it to warn that labels do not meet.
expect_label_warning <- function(expr) {
  out <- with_label_warnings(expr)
  expect_true(length(out$warnings) > 0, label = "a label-gap warning")
  out$value
}
