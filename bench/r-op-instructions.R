# The instructions R executes for one of a few common operations on small values, as
# the R side of a small call performs them (bench/stage-instructions.sh --ops): each
# operation repeated in a byte-compiled loop, counted with callgrind's collection on
# only around the loop, less nothing (the counts include the loop's own ~100
# instructions an iteration). A cost model of the R side: its instructions a call
# divided by these give how many such operations it performs.
#
# Usage (under valgrind --collect-atstart=no): R --file=bench/r-op-instructions.R --args <toggle.so>
args <- commandArgs(trailingOnly = TRUE)
dyn.load(args[1])
x <- 1:100
five <- list(a = 1:5, b = 1:5, c = 1:5, d = 1:5, e = 1:5)
ten <- as.character(1:10)
identity_closure <- function(y) y
columns <- list(a = 1:5, b = letters[1:5], c = 1:5 + 0.5)
operations <- list(
  "an empty loop" = function(n) for (i in seq_len(n)) NULL,
  "is.atomic(x)" = function(n) for (i in seq_len(n)) is.atomic(x),
  "attr(x, \"dim\", exact = TRUE)" = function(n) for (i in seq_len(n)) attr(x, "dim", exact = TRUE),
  "a closure of one argument called" = function(n) for (i in seq_len(n)) identity_closure(x),
  "x + 1L, 100 integers" = function(n) for (i in seq_len(n)) x + 1L,
  "sprintf() of one value" = function(n) for (i in seq_len(n)) sprintf("%d pairs", 5L),
  "attributes<- (dim)" = function(n) for (i in seq_len(n)) {
    y <- x
    attributes(y) <- list(dim = c(10L, 10L))
  },
  "vctrs::new_data_frame(), 3 columns" = function(n) for (i in seq_len(n)) vctrs::new_data_frame(columns),
  "order(method = \"radix\"), 100 integers" = function(n) for (i in seq_len(n)) order(x, method = "radix"),
  "match(), 100 integers" = function(n) for (i in seq_len(n)) match(x, x),
  "vapply() over 5 elements" = function(n) for (i in seq_len(n)) vapply(five, length, 1L),
  "lapply(, .subset2) over 5 elements" = function(n) for (i in seq_len(n)) lapply(five, .subset2, 2L),
  "a for loop of .subset2() over 5 elements" = function(n) for (i in seq_len(n)) {
    out <- vector("list", 5L)
    for (j in 1:5) out[[j]] <- .subset2(.subset2(five, j), 2L)
  },
  "paste() of 10 strings" = function(n) for (i in seq_len(n)) paste(ten, ten, sep = "|")
)
operations <- lapply(operations, compiler::cmpfun)
n <- 2000L
for (i in seq_along(operations)) {
  operations[[i]](50L)  # warm-up: first calls and promises out of the count
  .C("callgrind_zero")
  .C("callgrind_toggle")
  operations[[i]](n)
  .C("callgrind_toggle")
  .C("callgrind_dump", sprintf("op%02d", i))
}
writeLines(names(operations), Sys.getenv("SYNTHRISK_OP_NAMES"))
