# The workload of bench/stage-instructions.sh: `n` small calls (bench/small-call-workloads.R)
# after 3 uncounted ones, with valgrind's collection on only while the package's function
# `stage` runs. The function's own body is rewritten (no wrapper, so that sys.call() and
# parent.frame() inside it see what they see in a plain call): collection turned on at
# its outermost entry and off at that call's exit, the core's crossing included when it
# is inside. Given a statements file, each top-level statement of the outermost call is
# also counted apart: the counts zeroed before it and dumped after it under its number
# (a statement that returns early, and the ones after it, go uncounted in that call),
# and the statements' text is written to that file. The function's value and its
# visibility are kept. A function that calls on.exit() without add = TRUE is refused
# (it would replace the exit that turns collection off).
#
# Usage (under valgrind --collect-atstart=no): R --file=bench/stage-instructions-call.R
#   --args <library> <sd2011|adult> <stage> <n> <toggle.so> [<statements file>]
# The first uncounted call is checked to give the object of a call before the rewrite;
# R is started with a heap large enough that no garbage collection runs in a counted
# call (bench/stage-instructions.sh checks the gcinfo() lines after the marker).
args <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages(library(synthrisk, lib.loc = args[1]))
options(synthrisk.n_threads = 1L)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1]))
source(file.path(here, "small-call-workloads.R"))
toggle_dll <- sub("\\.so$", "", basename(args[5]))
dyn.load(args[5])
ns <- asNamespace("synthrisk")
stage <- args[3]
if (!exists(stage, envir = ns, inherits = FALSE) || !is.function(get(stage, envir = ns))) {
  stop("'", stage, "' is not a function of synthrisk")
}
original <- get(stage, ns)
by_statement <- length(args) >= 6

# Calls of on.exit() in a body that would replace the one added here.
replacing_exits <- function(expr) {
  if (!is.call(expr)) return(0L)
  here <- identical(expr[[1]], as.name("on.exit")) && !isTRUE(as.list(expr)[["add"]])
  here + sum(vapply(as.list(expr)[-1], function(e) if (missing(e)) 0L else replacing_exits(e), integer(1)))
}
if (replacing_exits(body(original)) > 0) stop("'", stage, "' calls on.exit() without add = TRUE: not counted")

# The state the rewritten body reads: whether calls are counted yet, and how deep the
# stage is in itself (only its outermost call turns collection on and off, and only
# its statements are counted apart).
state <- new.env()
state$counting <- FALSE
state$depth <- 0L
enter <- function() {
  state$depth <- state$depth + 1L
  if (state$counting && state$depth == 1L) .C("callgrind_toggle", PACKAGE = toggle_dll)
}
leave <- function() {
  if (state$counting && state$depth == 1L) .C("callgrind_toggle", PACKAGE = toggle_dll)
  state$depth <- state$depth - 1L
}
zero <- function() if (state$counting && state$depth == 1L) .C("callgrind_zero", PACKAGE = toggle_dll)
dump <- function(label) if (state$counting && state$depth == 1L) .C("callgrind_dump", label, PACKAGE = toggle_dll)

# The top-level statements of a function's body.
statements_of <- function(fun) {
  if (is.call(body(fun)) && identical(body(fun)[[1]], as.name("{"))) as.list(body(fun))[-1] else list(body(fun))
}

# `fun` with its body rewritten as described above; `counted_apart`: each statement
# between a zeroing and a dump labelled `prefix` and its number.
rewrite <- function(fun, counted_apart, prefix = "statement") {
  statements <- statements_of(fun)
  rewritten <- list(as.name("{"), quote(.stage_instructions$enter()),
                    quote(on.exit(.stage_instructions$leave(), add = TRUE)))
  for (i in seq_along(statements)) {
    statement <- statements[[i]]
    if (i == length(statements)) statement <- call("<-", as.name(".stage_value"), call("withVisible", statement))
    rewritten <- c(rewritten, if (counted_apart) quote(.stage_instructions$zero()), statement,
                   if (counted_apart) substitute(.stage_instructions$dump(LABEL), list(LABEL = sprintf("%s%03d", prefix, i))))
  }
  rewritten <- c(rewritten, quote(if (.stage_value$visible) .stage_value$value else invisible(.stage_value$value)))
  body(fun) <- as.call(rewritten)
  # The helpers are found in an environment between the function and its own.
  environment(fun) <- list2env(list(.stage_instructions = list(enter = enter, leave = leave, zero = zero, dump = dump)),
                               parent = environment(fun))
  compiler::cmpfun(fun)
}
if (by_statement) {
  statements <- statements_of(original)
  writeLines(vapply(statements, function(s) gsub("\\s+", " ", paste(deparse(s, width.cutoff = 500L), collapse = " ")),
                    character(1)), args[6])
}
call_once <- small_calls[[small_call_ids[[args[2]]]]]
plain <- call_once()
instrumented <- rewrite(original, by_statement)
unlockBinding(stage, ns)
assign(stage, instrumented, envir = ns)
# The rewritten stage must give the plain call's object (uncounted calls).
if (!identical(call_once(), plain)) stop("rewriting '", stage, "' changed the call's result")
for (i in 1:2) call_once()
state$counting <- TRUE
# bench/stage-instructions.sh starts R with a heap that needs no collection here; it
# checks that none ran after this line (gcinfo() reports each on standard error).
message("stage-instructions: counted calls start")
invisible(gcinfo(TRUE))
for (i in seq_len(as.integer(args[4]))) call_once()
invisible(gcinfo(FALSE))
# What counting a statement apart adds to it: an empty statement rewritten the same way
# (dumps labelled "empty"), for the driver to report.
if (by_statement) {
  empty <- rewrite(function() NULL, TRUE, prefix = "empty")
  for (i in 1:21) empty()
}
