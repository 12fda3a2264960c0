# The workload of bench/stage-instructions.sh: `n` small calls (bench/small-call-workloads.R)
# after 3 uncounted ones, with valgrind's collection on only while the package's function
# `stage` runs (its outermost call; the core's crossing inside it counts too). Given a
# statements file, `stage` is rewritten instead so that each of its top-level statements
# is counted apart: the counts zeroed before a statement and dumped after it under its
# number (a statement that returns early leaves the later ones uncounted in that call;
# the function's value is kept), and the statements' text is written to that file.
#
# Usage (under valgrind --collect-atstart=no): R --file=bench/stage-instructions-call.R
#   --args <library> <sd2011|adult> <stage> <n> <toggle.so> [<statements file>]
args <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages(library(synthrisk, lib.loc = args[1]))
options(synthrisk.n_threads = 1L)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1]))
source(file.path(here, "small-call-workloads.R"))
toggle_dll <- sub("\\.so$", "", basename(args[5]))
dyn.load(args[5])
ns <- asNamespace("synthrisk")
stage <- args[3]
original <- get(stage, ns)
# Whether calls are counted yet (the 3 uncounted ones first).
state <- new.env()
state$counting <- FALSE
# A request to valgrind from code that may run in the package's namespace: .C() names
# the toggle's DLL, which is not the namespace's.
request <- function(routine, label = NULL) as.call(c(list(as.name(".C"), routine), label, list(PACKAGE = toggle_dll)))

counted <- if (length(args) < 6) {
  depth <- 0L
  # The stage's own definition, called from a wrapper that turns collection on at its
  # outermost entry and off at its exit (the wrapper's few calls are counted too).
  function(...) {
    depth <<- depth + 1L
    outermost <- depth == 1L && state$counting
    if (outermost) .C("callgrind_toggle", PACKAGE = toggle_dll)
    on.exit({
      if (outermost) .C("callgrind_toggle", PACKAGE = toggle_dll)
      depth <<- depth - 1L
    })
    original(...)
  }
} else {
  statements <- as.list(body(original))[-1]
  writeLines(vapply(statements, function(s) gsub("\\s+", " ", paste(deparse(s, width.cutoff = 500L), collapse = " ")),
                    character(1)), args[6])
  # Collection on at entry and off at exit; each statement between a zeroing and a dump.
  counting <- quote(.stage_instructions_state$counting)
  rewritten <- list(as.name("{"),
                    call("if", counting, request("callgrind_toggle")),
                    call("on.exit", call("if", counting, request("callgrind_toggle")), add = TRUE))
  for (i in seq_along(statements)) {
    statement <- if (i == length(statements)) call("<-", as.name(".value"), statements[[i]]) else statements[[i]]
    rewritten <- c(rewritten, call("if", counting, request("callgrind_zero")), statement,
                   call("if", counting, request("callgrind_dump", sprintf("statement%03d", i))))
  }
  instrumented <- original
  body(instrumented) <- as.call(c(rewritten, as.name(".value")))
  # The state is found in an environment between the function and its namespace.
  environment(instrumented) <- list2env(list(.stage_instructions_state = state), parent = environment(original))
  compiler::cmpfun(instrumented)
}
unlockBinding(stage, ns)
assign(stage, counted, envir = ns)
call_once <- small_calls[[small_call_ids[[args[2]]]]]
for (i in 1:3) call_once()
state$counting <- TRUE
for (i in seq_len(as.integer(args[4]))) call_once()
