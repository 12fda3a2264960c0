# Data in PostgreSQL (issue 12): multi.disclosure() on database tables, the database
# counting the cells, against pulling the tables into R and running the in-memory path.
# Prints a markdown section for bench/RESULTS.md (`make bench` appends it).
#
# The script starts its own PostgreSQL server (Debian's postgresql, initdb + pg_ctl) in
# a temporary directory, as user postgres when run as root, listening on a unix socket
# there only, and stops it and removes the directory when it ends.
#
# Workload ("independent synthetic", as bench/scale_one.R): original and synthetic
# tables of SYNTHRISK_BENCH_DB_ROWS rows (default 1e7) generated in the database with
# generate_series() and random(), independently of each other; 5 keys (sex 2, age 90,
# region 16, placesize 6, occupation 20 levels: 345,600 key tuples) and 3 targets
# (2, 5 with 2 % NULL, and 10 levels); m = 1.
suppressPackageStartupMessages({
  library(synthrisk)
  library(DBI)
})
rows <- as.numeric(Sys.getenv("SYNTHRISK_BENCH_DB_ROWS", "1e7"))
runs <- if (rows <= 1e6) 3L else 1L
keys <- c("sex", "age", "region", "placesize", "occupation")
targets <- c("t_binary", "t_5", "t_10")
big <- function(x) format(round(x), big.mark = ",", scientific = FALSE, trim = TRUE)

# A PostgreSQL server in a fresh directory; returns list(host, port, stop).
start_postgres <- function() {
  initdb <- sort(Sys.glob("/usr/lib/postgresql/*/bin/initdb"), decreasing = TRUE)
  if (length(initdb) == 0) stop("bench/db.R needs PostgreSQL's server programs (tools/setup.sh installs postgresql)")
  bin <- dirname(initdb[1])
  as_root <- identical(unname(Sys.info()[["effective_user"]]), "root")
  dir <- tempfile("synthrisk-bench-pg-", tmpdir = "/tmp")
  dir.create(dir, mode = "0700")
  if (as_root) system2("chown", c("postgres:postgres", shQuote(dir)))
  pg <- function(program, args) {
    cmd <- file.path(bin, program)
    status <- if (as_root) system2("runuser", c("-u", "postgres", "--", cmd, args), stdout = FALSE) else
      system2(cmd, args, stdout = FALSE)
    if (status != 0) stop(program, " failed; see ", file.path(dir, "log"))
  }
  data_dir <- file.path(dir, "data")
  port <- sample(20000:60000, 1)
  pg("initdb", c("-D", shQuote(data_dir), "-A", "trust", "-U", "bench", "-E", "UTF8", "--locale=C", "--no-sync"))
  # Hash aggregates in memory (work_mem); up to two parallel workers, as the machine's cores.
  options <- sprintf(paste("-k %s -p %d -c listen_addresses='' -c fsync=off -c work_mem=512MB",
                           "-c shared_buffers=1GB -c max_parallel_workers_per_gather=2"), dir, port)
  pg("pg_ctl", c("-D", shQuote(data_dir), "-l", shQuote(file.path(dir, "log")), "-w", "-o", shQuote(options), "start"))
  list(host = dir, port = port, version = basename(dirname(bin)), stop = function() {
    try(pg("pg_ctl", c("-D", shQuote(data_dir), "-m", "fast", "-w", "stop")), silent = TRUE)
    unlink(dir, recursive = TRUE)
  })
}

# Original or synthetic data, generated in the database.
make_table <- function(con, name, seed) {
  suppressWarnings(dbGetQuery(con, sprintf("SELECT setseed(%f)", seed)))  # returns void, which RPostgreSQL notes
  invisible(dbExecute(con, sprintf(paste(
    "CREATE UNLOGGED TABLE %s AS SELECT",
    "CASE WHEN random() < 0.5 THEN 'MALE' ELSE 'FEMALE' END AS sex,",
    "16 + floor(random() * 90)::int AS age,",
    "'R' || lpad((1 + floor(random() * 16))::int::text, 2, '0') AS region,",
    "'P' || (1 + floor(random() * 6))::int AS placesize,",
    "'O' || lpad((1 + floor(random() * 20))::int::text, 2, '0') AS occupation,",
    "CASE WHEN random() < 0.8 THEN 'no' ELSE 'yes' END AS t_binary,",
    "CASE WHEN random() < 0.02 THEN NULL ELSE 'L' || (1 + floor(random() * 5))::int END AS t_5,",
    "1 + floor(random() * 10)::int AS t_10",
    "FROM generate_series(1, %s)"), name, format(rows, scientific = FALSE))))
  invisible(dbExecute(con, sprintf("VACUUM ANALYZE %s", name)))
}

# The database counts: wall time, the queries' time (run and fetch) and the rest (R).
in_database <- function(orig_tbl, syn_tbl) {
  t0 <- Sys.time()
  md <- multi.disclosure(syn_tbl, orig_tbl, keys = keys, targets = targets, print.flag = FALSE, plot = FALSE)
  wall <- as.numeric(Sys.time() - t0, units = "secs")
  engine <- sum(md$database$seconds)
  list(result = md, wall = wall, engine = engine, local = wall - engine, rows = sum(md$database$rows))
}

# The rows pulled into R (the keys and targets), then the in-memory path.
pulled <- function(orig_tbl, syn_tbl) {
  t0 <- Sys.time()
  orig_df <- dplyr::collect(dplyr::select(orig_tbl, dplyr::all_of(c(keys, targets))))
  syn_df <- dplyr::collect(dplyr::select(syn_tbl, dplyr::all_of(c(keys, targets))))
  pull <- as.numeric(Sys.time() - t0, units = "secs")
  t1 <- Sys.time()
  md <- multi.disclosure(syn_df, orig_df, keys = keys, targets = targets, print.flag = FALSE, plot = FALSE)
  local <- as.numeric(Sys.time() - t1, units = "secs")
  list(result = md, wall = pull + local, engine = pull, local = local, rows = nrow(orig_df) + nrow(syn_df))
}

median_run <- function(f) {
  res <- lapply(seq_len(runs), function(i) {
    r <- f()
    invisible(gc())
    r
  })
  res[[order(vapply(res, `[[`, numeric(1), "wall"))[ceiling(runs / 2)]]]
}

run_bench <- function() {
  server <- start_postgres()
  on.exit(server$stop())
  con <- dbConnect(RPostgreSQL::PostgreSQL(), host = server$host, port = server$port, user = "bench",
                   dbname = "postgres")
  on.exit(dbDisconnect(con), add = TRUE, after = FALSE)
  # dbplyr warns (at most every 8 hours) that RPostgreSQL uses its older interface.
  invisible(suppressWarnings(dbplyr::sql_render(dplyr::tbl(con, dbplyr::sql("SELECT 1 AS x")))))

  started <- Sys.time()
  make_table(con, "orig", 0.1)
  make_table(con, "syn", 0.2)
  generate_s <- as.numeric(Sys.time() - started, units = "secs")
  table_mb <- dbGetQuery(con, "SELECT pg_total_relation_size('orig') / 1048576.0 AS mb")$mb
  # Both paths read the tables from a warm cache.
  invisible(dbGetQuery(con, "SELECT count(*) FROM orig"))
  invisible(dbGetQuery(con, "SELECT count(*) FROM syn"))
  orig_tbl <- dplyr::tbl(con, "orig")
  syn_tbl <- dplyr::tbl(con, "syn")

  db <- median_run(function() in_database(orig_tbl, syn_tbl))
  local <- median_run(function() pulled(orig_tbl, syn_tbl))
  same <- isTRUE(all.equal(db$result$attrib.table, local$result$attrib.table, tolerance = 1e-9)) &&
    isTRUE(all.equal(db$result$ident.syn, local$result$ident.syn, tolerance = 1e-9))
  if (!same) stop("the database path and the in-memory path disagree")

  held <- 2 * rows
  cat(sprintf(paste0("\n## Data in PostgreSQL (bench/db.R)\n\n%s-row original and synthetic tables (%s MB each) in ",
                     "PostgreSQL %s on this machine (server started by the script; work_mem 512MB, up to 2 parallel ",
                     "workers), generated independently in the database (%.0f s); keys %s; targets %s; m = 1; %s, %d ",
                     "synthrisk threads. Both paths give the same numbers (checked).\n\n"),
              big(rows), big(table_mb), server$version, generate_s, paste(keys, collapse = ", "),
              paste(targets, collapse = ", "), if (runs > 1) sprintf("median of %d runs", runs) else "one run",
              synthrisk_threads()))
  cat("| path | wall (s) | database: queries + fetch (s) | R: local (s) | rows transferred | rows transferred / rows held |\n")
  cat("|---|---|---|---|---|---|\n")
  cat(sprintf("| multi.disclosure() on the tables (the database counts) | %.2f | %.2f | %.2f | %s | %.4f |\n",
              db$wall, db$engine, db$local, big(db$rows), db$rows / held))
  cat(sprintf("| collect() the tables, then multi.disclosure() | %.2f | %.2f (collect) | %.2f | %s | %.4f |\n",
              local$wall, local$engine, local$local, big(local$rows), local$rows / held))
  queries <- table(db$result$database$query)
  cat(sprintf(paste0("\nThe database path ran %d queries (%s) and fetched %s rows of counts for %s rows held; the ",
                     "pulled path moved every row (%d columns). End to end the database path took %.2f of the pulled ",
                     "path's time.\n"),
              nrow(db$result$database), paste(names(queries), queries, sep = ": ", collapse = ", "), big(db$rows),
              big(held), length(c(keys, targets)), db$wall / local$wall))
  log <- db$result$database
  by_query <- vapply(split(log$seconds, log$query), sum, numeric(1))
  cat(sprintf("Database time by query: %s.\n", paste0(names(by_query), " ", sprintf("%.2f s", by_query),
                                                       collapse = ", ")))
}

run_bench()
