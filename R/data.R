#' SD2011 example: original data
#'
#' A subset of the Social Diagnosis 2011 survey as shipped by synthpop (GPL-2 |
#' GPL-3): the variables of synthpop's disclosure vignette for 5,000 respondents.
#'
#' @format A data frame with 5000 rows and 9 variables: `sex`, `age`, `region`,
#'   `placesize`, `depress` (depression score), `income` (net monthly income, `-8`
#'   for "no income", `NA` missing), `ls` (life satisfaction), `marital`, `workab`
#'   (worked abroad).
#' @source Social Diagnosis 2011, via the synthpop package's `SD2011`.
#' @examples
#' summary(sd2011$income)
"sd2011"

#' SD2011 example: synthetic data
#'
#' `synds` objects made by synthpop's `syn()` from [sd2011]: `sd2011_synds` holds
#' one synthesis, made with `cont.na = list(income = -8)` (seed 8564);
#' `sd2011_synds5` holds five (seed 8564), made without `cont.na`, so `-8` is an
#' ordinary income there. synthpop is not needed to use them here. Both were made
#' from all 5,000 records, so no part of [sd2011] is held out of them: for a
#' holdout baseline (`control`) use [sd2011_train_synds5], made from the training
#' part only.
#'
#' @format Lists of class `synds`; `syn` is a data frame (m = 1) or a list of five
#'   data frames, each like [sd2011]; `m` as made by `syn()`; `cont.na` is a list
#'   with one element per variable, `NA` where a variable has no special codes (in
#'   `sd2011_synds`, `income` has `-8`; in `sd2011_synds5`, every element is `NA`).
#' @source Made with synthpop 1.9-3 from [sd2011].
#' @seealso [sd2011_train_synds5] for holdout examples.
#' @examples
#' sd2011_synds$cont.na$income
#' sd2011_synds5$m
"sd2011_synds"

#' @rdname sd2011_synds
"sd2011_synds5"

#' SD2011 example: a synthesis of the training part only
#'
#' Five syntheses made by synthpop's `syn()` from the training part of [sd2011]
#' alone, for examples with a holdout baseline: the 1,000 control records of
#' `holdout_split(sd2011, prop = 0.2, seed = 1)` were never used to make them, so
#' they are what `control` should be (records of the same population not used for
#' synthesis). [sd2011_synds] and [sd2011_synds5] were made from all 5,000 records
#' and cannot serve as a holdout.
#'
#' Made by `tools/make-sd2011-train-synds.R` in the package's sources:
#' ```
#' parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
#' synthpop::syn(parts$train, m = 5, seed = 8564)
#' ```
#' with synthpop 1.9-2 and its default methods (`"sample"` for `sex`, `"cart"` for
#' the others, in the order of the columns), as [sd2011_synds5] was made from all
#' of [sd2011]; no `cont.na`, so `-8` is an ordinary income. The component `call`
#' and the predictor matrix are left out; synthpop is not needed to use it.
#'
#' @format A list of class `synds`: `syn` is a list of five data frames of 4,000
#'   rows, each with the nine variables of [sd2011]; `m` is 5, `n` 4,000; `cont.na`
#'   has one `NA` element per variable.
#' @source Made with synthpop 1.9-2 from `holdout_split(sd2011, prop = 0.2, seed = 1)$train`.
#' @seealso [holdout_split()], [disclosure_report()].
#' @examples
#' parts <- holdout_split(sd2011, prop = 0.2, seed = 1)
#' c(train = nrow(parts$train), synthetic = nrow(sd2011_train_synds5$syn[[1]]),
#'   control = nrow(parts$control))
#' dh <- disclosure(sd2011_train_synds5, parts$train, keys = c("sex", "age", "region", "placesize"),
#'                  target = "depress", control = parts$control, print.flag = FALSE)
#' subset(dh$holdout, measure %in% c("repU", "DiSCO") & synthesis == 1)
"sd2011_train_synds5"

#' UCI Adult example: original and synthetic data
#'
#' The UCI Adult (1994 US census extract) data, 48,842 records of 13 variables, and
#' one synthesis of it made by synthpop's `syn()`: a larger example with
#' high-cardinality targets (`hours.per.week`, `capital.gain`) and keys such as
#' `age`, `sex`, `occupation` and `race`.
#'
#' @format `adult`: a data frame with 48842 rows and 13 variables (`age`,
#'   `workclass`, `education.num`, `marital.status`, `occupation`, `relationship`,
#'   `race`, `sex`, `capital.gain`, `capital.loss`, `hours.per.week`,
#'   `native.country`, `income`). `adult_synds`: a `synds` object with one
#'   synthesis (`syn`, a data frame like `adult`; seed 1234).
#' @source Becker, B. and Kohavi, R. (1996), Adult, UCI Machine Learning Repository
#'   (CC BY 4.0), doi:10.24432/C5XW20; synthesised with synthpop 1.9-3.
#' @examples
#' d <- disclosure(adult_synds, adult, keys = c("age", "sex", "occupation", "race"),
#'                 target = "hours.per.week", print.flag = FALSE)
#' d$attrib
"adult"

#' @rdname adult
"adult_synds"
