# The one helper for reproducible random draws (holdout_split(), size_curve()).

# Runs `code` after set.seed(seed) and puts the session's random numbers back; with a
# NULL seed, just runs it.
with_seed <- function(seed, code) {
  if (is.null(seed)) return(code)
  genv <- globalenv()
  old <- if (exists(".Random.seed", envir = genv, inherits = FALSE)) get(".Random.seed", envir = genv)
  on.exit(if (is.null(old)) rm(".Random.seed", envir = genv) else assign(".Random.seed", old, envir = genv))
  set.seed(seed)
  code
}
