# The one helper for reproducible random draws (holdout_split(), size_curve(),
# resynthesize): withr's, which puts the session's random numbers back; a NULL seed just
# runs `code`, drawing from the session's stream as synthpop does.
with_seed <- function(seed, code) {
  if (is.null(seed)) return(code)
  withr::with_seed(seed, code)
}
