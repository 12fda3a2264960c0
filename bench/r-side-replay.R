# Where the R side of a small call goes, function by function: one multi.disclosure()
# of SD2011 (m = 5, 4 keys, 5 targets) and of Adult (m = 1, 4 keys, 9 targets), from
# bench/small-call-workloads.R. Each of the package's functions is wrapped so that the
# call records the arguments of each of its calls as it makes them; then each function
# is called again on every recorded set, `reps` times over, and timed. A profiler's
# samples cannot give this on this machine (its timer ticks every few milliseconds,
# and it counts the core's threads as time); the replay times the very calls the small
# call made, on its own values.
#
# Times are inclusive (a function's time holds the functions it calls, so the rows
# nest and do not add up) and per small call (all its calls of that function), less
# the replay's own cost (the same calls replayed on a function that does nothing: a
# few microseconds a call, which would otherwise swell the rows of functions called
# often). Rows marked "crosses to the core" include a crossing, replayed too.
# Recording evaluates every argument on entry; the call made while recording must
# give the object the plain call gives (all.equal(), its `call` left out: checked
# first). Arguments are replayed as values (`quote = TRUE`): a recorded call or
# symbol is not run again.
#
# Usage: Rscript bench/r-side-replay.R [library] [reps] [top]  (defaults: the installed
# synthrisk, 200 replays, the 30 costliest functions). Writes a heading and one
# markdown table per workload.
args <- commandArgs(trailingOnly = TRUE)
lib <- if (length(args) >= 1 && nzchar(args[1])) args[1] else NULL
reps <- if (length(args) >= 2) as.integer(args[2]) else 200L
top <- if (length(args) >= 3) as.integer(args[3]) else 30L
suppressPackageStartupMessages(library(synthrisk, lib.loc = lib))
options(synthrisk.n_threads = 2L)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])),
                 "small-call-workloads.R"))
ns <- asNamespace("synthrisk")

# The front doors, and the steps between them that read the frame or the call of
# the front door (frame arguments, sys.call()), are left unwrapped: a wrapper would
# stand between them.
unwrapped <- c("multi.disclosure", "multi.disclosure.synds", "multi.disclosure.list", "multi.disclosure.data.frame",
               "run_front_door", "frame_arguments", "front_door")
# (S3 methods too: the registry holds them, and dispatch would not see a wrapper.)
s3_methods <- ls(get(".__S3MethodsTable__.", ns), all.names = TRUE)
wrapped <- Filter(function(f) {
  x <- get(f, ns)
  is.function(x) && !is.primitive(x) && !f %in% c(unwrapped, s3_methods)
}, ls(ns, all.names = TRUE))
originals <- mget(wrapped, ns)
recorded <- new.env()
recording <- FALSE
crossings <- 0L
# (Bindings swapped directly: assignInNamespace() also walks the S3 registry, which
# stops at generics registered for other packages.)
set_definition <- function(f, definition) {
  locked <- bindingIsLocked(f, ns)
  if (locked) unlockBinding(f, ns)
  assign(f, definition, envir = ns)
  if (locked) lockBinding(f, ns)
}
set_definitions <- function(defs) {
  for (f in names(defs)) set_definition(f, defs[[f]])
}
recorders <- lapply(stats::setNames(wrapped, wrapped), function(f) {
  original <- originals[[f]]
  force(f)
  function(...) {
    if (recording) recorded[[f]] <- c(recorded[[f]], list(list(...)))
    original(...)
  }
})
counted_crossing <- function(...) {
  crossings <<- crossings + 1L
  originals[["rust_encode_compute"]](...)
}

cat("\n## Where the R side of a small call goes (bench/r-side-replay.R), ", format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC"),
    "\n\nLoad average ", paste(readLines("/proc/loadavg", n = 1L, warn = FALSE)), "; ", reps,
    " replays of each function's recorded calls; milliseconds per small call, inclusive (rows nest).\n", sep = "")
for (label in names(small_calls)) {
  f <- small_calls[[label]]
  plain <- f()
  rm(list = ls(recorded, all.names = TRUE), envir = recorded)
  set_definitions(recorders)
  recording <- TRUE
  made <- tryCatch(f(), finally = {
    recording <- FALSE
    set_definitions(originals)
  })
  same <- isTRUE(all.equal(unclass(made)[names(made) != "call"], unclass(plain)[names(plain) != "call"]))
  if (!same) stop("the call made while recording differs from the plain call: ", label)
  timed <- function(replay) {
    started <- as.numeric(Sys.time())
    for (r in seq_len(reps)) replay()
    1000 * (as.numeric(Sys.time()) - started) / reps
  }
  rows <- lapply(ls(recorded, all.names = TRUE), function(fn) {
    calls <- recorded[[fn]]
    definition <- originals[[fn]]
    replay <- function() for (a in calls) do.call(definition, a, quote = TRUE)
    nothing <- function(...) NULL
    harness <- function() for (a in calls) do.call(nothing, a, quote = TRUE)
    failed <- tryCatch({
      replay()
      NULL
    }, error = function(e) conditionMessage(e))
    if (!is.null(failed)) {
      return(data.frame(`function` = fn, calls = length(calls), ms = NA_real_, crosses = NA, check.names = FALSE))
    }
    set_definition("rust_encode_compute", counted_crossing)
    crossings <<- 0L
    replay()
    set_definition("rust_encode_compute", originals[["rust_encode_compute"]])
    crosses <- crossings > 0
    ms <- max(0, timed(replay) - timed(harness))
    data.frame(`function` = fn, calls = length(calls), ms = ms, crosses = crosses, check.names = FALSE)
  })
  table <- do.call(rbind, rows)
  skipped <- table$`function`[is.na(table$ms)]
  table <- table[!is.na(table$ms), , drop = FALSE]
  table <- table[order(-table$ms), , drop = FALSE]
  cat("\n### ", label, ": ", nrow(table) + length(skipped), " functions called (", sum(table$calls), " calls)\n\n", sep = "")
  if (length(skipped) > 0) {
    cat("Not replayed (their recorded arguments do not stand alone): ", paste(skipped, collapse = ", "), ".\n\n", sep = "")
  }
  cat("| function | calls | ms per small call |\n| --- | --- | --- |\n")
  shown <- utils::head(table, top)
  cat(sprintf("| %s%s | %d | %.3f |\n", shown$`function`, ifelse(shown$crosses, " (crosses to the core)", ""),
              shown$calls, shown$ms), sep = "")
}
