# Ranks of text in the locale's order (as rank(x, ties.method = "min") gives them),
# for labels that synthpop sorts with the locale. Comparing two strings in the locale
# costs far more than comparing numbers (ICU's collator: about half a microsecond a
# pair here), and rank() makes n log n such comparisons. `guess` is an order of `x`
# that is often the locale's already (an order by bytes, which R makes without the
# locale): when each neighbour in it is smaller than the next in the locale (at most
# n - 1 comparisons), the order is the locale's (the locale's order is transitive) and
# holds no ties, so the ranks are the positions. Otherwise rank() decides.
#
# With `group` (one value per element of `x`, and `guess` ordered by it first), the
# ranks order `x` within each group only, as each group's own rank() would: the
# neighbours are compared within groups, all in one vectorized comparison, so that
# many groups (the 2-way checks of all targets) cost one check, not one each.
locale_rank <- function(x, guess, group = NULL) {
  if (is.null(group)) {
    if (!isFALSE(is.unsorted(x[guess], strictly = TRUE))) return(rank(x, ties.method = "min"))
  }
  ranks <- integer(length(x))
  ranks[guess] <- seq_along(guess)
  if (is.null(group) || length(x) < 2) return(ranks)
  n <- length(x)
  y <- x[guess]
  g <- group[guess]
  # `<` compares text in the locale, as is.unsorted() does; a group with a neighbour
  # not smaller than the next is ranked by rank().
  out_of_order <- g[-1L] == g[-n] & !(y[-n] < y[-1L])
  for (h in unique(g[-1L][out_of_order %in% c(TRUE, NA)])) {
    at <- which(group == h)
    ranks[at] <- rank(x[at], ties.method = "min")
  }
  ranks
}
