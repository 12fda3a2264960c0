library(testthat)
library(synthrisk)

test_check("synthrisk")
