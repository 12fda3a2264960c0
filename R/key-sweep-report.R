# The section of disclosure_report() on which keys matter (`key_sweep = TRUE`): the
# measures for every subset of the report's keys, as aggregates only (names of
# variables and percentages): the worst subset of each size for repU and for the
# DiSCO of the targets most at risk, each key's share, and the two pictures. The
# grouping note is left out: its breaks would show extreme values (the report's own
# grouping section shows them made safe).

# The whole lattice for up to this many keys (1,024 subsets); beyond, subsets of up to
# three keys.
report_sweep_max_lattice <- 10L

report_key_sweep <- function(object, data, keys, targets, args) {
  p <- length(keys)
  sizes <- if (p <= report_sweep_max_lattice) 0:p else 1:3
  sweep_args <- args[intersect(names(args), tau_curve_args)]
  ks <- call_with_symbols(key_sweep, c(list(object, data, keys = keys, targets = targets, sizes = sizes), sweep_args))
  shown <- shown_targets(ks, 3)
  list(p = p, n_subsets = length(ks$subsets), sizes = sizes, shown = shown, more = length(ks$targets) - length(shown),
       worst = report_sweep_worst(ks, shown), shares = if (!is.null(ks$shares)) report_sweep_shares(ks, shown),
       plot = autoplot(ks, targets = shown),
       shares_plot = if (!is.null(ks$shares)) autoplot(ks, type = "shares", targets = shown),
       notes = unname(ks$notes[names(ks$notes) != "grouping"]))
}

# One row per size: the largest repU and the subset attaining it, then the same for
# the DiSCO of each shown target.
report_sweep_worst <- function(ks, shown) {
  pick <- function(measure, target) {
    w <- ks$worst[ks$worst$measure == measure, , drop = FALSE]
    w <- w[if (is.na(target)) is.na(w$target) else w$target %in% target, , drop = FALSE]
    list(w$estimate, worst_labels(w))
  }
  ident_target <- if (ks$ident_by_target) ks$targets[1] else NA_character_
  out <- list(keys = ks$sizes)
  columns <- c(list(c("repU", ident_target)), lapply(shown, function(t) c("DiSCO", t)))
  for (col in columns) {
    name <- if (is.na(col[2]) || col[1] == "repU") col[1] else paste(col[1], col[2])
    values <- pick(col[1], col[2])
    out[[name]] <- values[[1]]
    out[[paste("subset for", name)]] <- values[[2]]
  }
  as.data.frame(out, check.names = FALSE, stringsAsFactors = FALSE)
}

# Each key's Shapley value for repU and the shown targets' DiSCO (points of the measure).
report_sweep_shares <- function(ks, shown) {
  s <- ks$shares
  ident_target <- if (ks$ident_by_target) ks$targets[1] else NA_character_
  of <- function(measure, target) {
    rows <- s[s$measure == measure & (if (is.na(target)) is.na(s$target) else s$target %in% target), , drop = FALSE]
    rows$phi[match(ks$keys, rows$key)]
  }
  out <- list(key = ks$keys, repU = of("repU", ident_target))
  for (t in shown) out[[paste("DiSCO", t)]] <- of("DiSCO", t)
  as.data.frame(out, check.names = FALSE, stringsAsFactors = FALSE)
}
