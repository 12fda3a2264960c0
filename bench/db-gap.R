# Where the database path's time goes when the keys make most records unique (issue 39):
# one PostgreSQL, original and synthetic tables of SYNTHRISK_BENCH_GAP_ROWS rows (default
# 2e6) with keys a (100 levels), b (100), c (50) and targets t3 (3 levels) and t200 (200
# levels), generated in the database. For each query multi.disclosure() sends: its
# rows, the server's own time (EXPLAIN ANALYZE, no transfer) and the time with the rows
# fetched into R; then collect() plus the in-memory call. Prints a markdown section.
suppressPackageStartupMessages({
  library(synthrisk)
  library(DBI)
})
rows <- as.numeric(Sys.getenv("SYNTHRISK_BENCH_GAP_ROWS", "2e6"))
keys <- c("a", "b", "c")
targets <- c("t3", "t200")
big <- function(x) format(round(x), big.mark = ",", scientific = FALSE, trim = TRUE)
source_lines <- readLines("bench/db.R")
# The server of bench/db.R (start_postgres()), defined here from its source.
eval(parse(text = source_lines[grep("^start_postgres <- function", source_lines):
                                 (grep("^# Original or synthetic data", source_lines) - 1L)]))

make_gap_table <- function(con, name, seed) {
  suppressWarnings(dbGetQuery(con, sprintf("SELECT setseed(%f)", seed)))
  invisible(dbExecute(con, sprintf(paste(
    "CREATE UNLOGGED TABLE %s AS SELECT",
    "floor(random() * 100)::int AS a, floor(random() * 100)::int AS b, floor(random() * 50)::int AS c,",
    "floor(random() * 3)::int AS t3, floor(random() * 200)::int AS t200",
    "FROM generate_series(1, %s)"), name, format(rows, scientific = FALSE))))
  invisible(dbExecute(con, sprintf("VACUUM ANALYZE %s", name)))
}

server <- start_postgres()
con <- dbConnect(RPostgreSQL::PostgreSQL(), host = server$host, port = server$port, user = "bench", dbname = "postgres")
invisible(suppressWarnings(dbplyr::sql_render(dplyr::tbl(con, dbplyr::sql("SELECT 1 AS x")))))
make_gap_table(con, "orig", 0.1)
make_gap_table(con, "syn", 0.2)
invisible(dbGetQuery(con, "SELECT count(*) FROM orig"))
invisible(dbGetQuery(con, "SELECT count(*) FROM syn"))
orig_tbl <- dplyr::tbl(con, "orig")
syn_tbl <- dplyr::tbl(con, "syn")

t0 <- Sys.time()
md <- multi.disclosure(syn_tbl, orig_tbl, keys = keys, targets = targets, print.flag = FALSE, plot = FALSE)
db_wall <- as.numeric(Sys.time() - t0, units = "secs")
log <- md$database

# The same SQL the package sends, timed on the server alone and with the fetch.
server_ms <- function(sql) {
  plan <- dbGetQuery(con, paste("EXPLAIN (ANALYZE, TIMING OFF)", sql))[[1]]
  as.numeric(sub(".*Execution Time: ([0-9.]+) ms.*", "\\1", plan[grepl("Execution Time", plan)]))
}
fetch_s <- function(sql) system.time(dbGetQuery(con, sql))[["elapsed"]]
cells_sql <- synthrisk:::grouped_sql(orig_tbl, c(keys, "t200"), "COUNT(*) AS synthrisk_n")
levels_sql <- synthrisk:::grouped_sql(orig_tbl, targets, "COUNT(*) AS synthrisk_n")
plain_sql <- paste("SELECT", paste(c(keys, "t200"), collapse = ", "), "FROM orig")
probe <- data.frame(
  query = c("cells of t200 (GROUP BY a, b, c, t200)", "levels (GROUP BY t3, t200)", "the same columns, no GROUP BY"),
  server_s = c(server_ms(cells_sql), server_ms(levels_sql), server_ms(plain_sql)) / 1000,
  with_fetch_s = c(fetch_s(cells_sql), fetch_s(levels_sql), fetch_s(plain_sql)),
  rows = c(
             dbGetQuery(con, paste("SELECT count(*) AS n FROM (", cells_sql, ") x"))$n, NA, rows))

t1 <- Sys.time()
orig_df <- dplyr::collect(dplyr::select(orig_tbl, dplyr::all_of(c(keys, targets))))
syn_df <- dplyr::collect(dplyr::select(syn_tbl, dplyr::all_of(c(keys, targets))))
pull_s <- as.numeric(Sys.time() - t1, units = "secs")
t2 <- Sys.time()
md_local <- multi.disclosure(syn_df, orig_df, keys = keys, targets = targets, print.flag = FALSE, plot = FALSE)
local_s <- as.numeric(Sys.time() - t2, units = "secs")
same <- isTRUE(all.equal(md$attrib.table, md_local$attrib.table, tolerance = 1e-9))
invisible(dbDisconnect(con))
invisible(server$stop())

cat(sprintf(paste0("\n## When to collect instead: keys that make most records unique (bench/db-gap.R)\n\n",
                   "PostgreSQL %s on this machine, %s-row original and synthetic tables; keys a (100 levels), b (100), ",
                   "c (50): %s possible tuples; targets t3 (3 levels) and t200 (200 levels); m = 1; load average %s. ",
                   "Both paths give the same numbers: %s.\n\n"),
            server$version, big(rows), big(100 * 100 * 50), paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3],
                                                                  collapse = " "), same))
cat("| path | wall (s) |\n|---|---|\n")
cat(sprintf("| multi.disclosure() on the tables (%d queries, %s rows returned) | %.1f |\n", nrow(log),
            big(sum(log$rows)), db_wall))
cat(sprintf("| collect() (%s rows) + multi.disclosure() in memory | %.1f + %.1f |\n", big(2 * rows), pull_s, local_s))
cat("\nEach query of the database path (original and synthesis):\n\n| query | dataset | rows | seconds |\n|---|---|---|---|\n")
for (i in seq_len(nrow(log))) {
  cat(sprintf("| %s (%s) | %s | %s | %.2f |\n", log$query[i], log$targets[i], log$dataset[i], big(log$rows[i]),
              log$seconds[i]))
}
cat("\nOn the original table alone, the server's own time (EXPLAIN ANALYZE, nothing sent) against the time with ",
    "the rows fetched into R by the driver:\n\n| query | rows | server (s) | with fetch (s) |\n|---|---|---|---|\n", sep = "")
for (i in seq_len(nrow(probe))) {
  cat(sprintf("| %s | %s | %.2f | %.2f |\n", probe$query[i], if (is.na(probe$rows[i])) "" else big(probe$rows[i]),
              probe$server_s[i], probe$with_fetch_s[i]))
}
