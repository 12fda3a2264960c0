# Two commands for a newcomer: `make demo` and `make test` (see README.md).
SHELL := /bin/bash
export PATH := $(PATH):$(HOME)/.cargo/bin
R_LIB := $(CURDIR)/.rlib
RSCRIPT := R_LIBS=$(R_LIB) Rscript
PKG_VERSION := $(shell sed -n 's/^Version: //p' DESCRIPTION)
TARBALL := synthrisk_$(PKG_VERSION).tar.gz

.PHONY: setup setup-runtime install demo test test-rust rust-tests test-r check check-cran cran-check vendor-check site readme bench bench-anonymeter bench-cluster anonymeter-venv clean docs

# Everything (tests, checks, site); setup-runtime: only what install and demo need.
setup:
	@bash tools/setup.sh all

setup-runtime:
	@bash tools/setup.sh runtime

docs: setup
	Rscript tools/roxygen.R

install: setup-runtime
	@mkdir -p $(R_LIB)
	R CMD INSTALL --no-multiarch --library=$(R_LIB) . >.install.log 2>&1 || { cat .install.log; exit 1; }

demo: install
	@$(RSCRIPT) tools/install-vignettes.R $(R_LIB)
	@mkdir -p demo-output
	$(RSCRIPT) tools/demo.R demo-output

test-rust: setup
	@$(MAKE) --no-print-directory rust-tests

rust-tests:
	cargo test --manifest-path src/rust/Cargo.toml -p synthrisk-core

test-r: setup install
	$(RSCRIPT) tools/run-tests.R

check: setup
	rm -rf synthrisk.Rcheck $(TARBALL)
	R CMD build . >/dev/null
	SYNTHRISK_PROPERTY_CASES=300 NOT_CRAN=true _R_CHECK_FORCE_SUGGESTS_=false R_LIBS=$(R_LIB) R CMD check --no-manual $(TARBALL) 2>&1 | tee /tmp/synthrisk-check.log
	@! grep -qE "^Status: .*(ERROR|WARNING)" /tmp/synthrisk-check.log

# As CRAN checks the built tarball, with no network: an empty CARGO_HOME and an empty
# HOME (CARGO_HOME and ~/.cargo are checked empty afterwards), cargo offline,
# the incoming checks that need the network off, and suggested packages that CRAN has
# but Debian does not (synthpop) not required; the orphaned-package check that
# --as-cran forces reads a stand-in of CRAN's database (tools/offline-cran-db.R).
# Tests run as on CRAN (NOT_CRAN unset); the full suite runs in test-r. Fails on an ERROR or a WARNING; the NOTEs are
# explained in cran-comments.md.
check-cran: setup
	@$(MAKE) --no-print-directory cran-check

cran-check:
	rm -rf synthrisk.Rcheck $(TARBALL) /tmp/synthrisk-check-cran.log
	@scratch=$$(mktemp -d) && mkdir -p $$scratch/cargo-home $$scratch/home && \
	Rscript tools/offline-cran-db.R $$scratch/cran && export R_CRAN_WEB=file://$$scratch/cran && \
	export RUSTUP_HOME=$${RUSTUP_HOME:-$$HOME/.rustup} CARGO_HOME=$$scratch/cargo-home HOME=$$scratch/home \
	  CARGO_NET_OFFLINE=true _R_CHECK_CRAN_INCOMING_REMOTE_=false _R_CHECK_SYSTEM_CLOCK_=false _R_CHECK_ORPHANED_=false \
	  _R_CHECK_FORCE_SUGGESTS_=false \
	  R_RD4PDF=times,hyper && unset NOT_CRAN && \
	R CMD build . && R CMD check --as-cran $(TARBALL) 2>&1 | tee /tmp/synthrisk-check-cran.log; \
	left=$$(find $$scratch/cargo-home $$scratch/home/.cargo -mindepth 1 2>/dev/null | head -n 5); \
	rm -rf $$scratch; \
	if [ -n "$$left" ]; then echo "check-cran: the build wrote into CARGO_HOME or ~/.cargo: $$left"; exit 1; fi; \
	echo "check-cran: nothing written into CARGO_HOME or ~/.cargo"
	@grep -q "^Status: " /tmp/synthrisk-check-cran.log
	@! grep -qE "^Status: .*(ERROR|WARNING)" /tmp/synthrisk-check-cran.log
	@grep "^Status:" /tmp/synthrisk-check-cran.log

# The crates in src/rust/vendor.tar.xz are those of Cargo.lock (tools/vendor.sh).
vendor-check:
	sh tools/vendor.sh --check

# testthat, the longest step, runs in the foreground as soon as the package is
# installed; beside it, at a lower priority (nice), the Rust tests and the tarball's
# check run on the core testthat leaves idle, their logs (.rust-tests.log,
# .check-cran.log) printed after the testthat run; a failed step counts as a failure
# in the totals line. The check builds the tarball from its own copy of the tree: the
# other steps start once that copy is made. Each background step runs in a session of
# its own (setsid), stopped whole if make test is interrupted.
test: setup vendor-check install
	@rm -f .check-cran.log .rust-tests.log .test-summary .test-summary.new
	@trap 'kill -- -$$check -$$rust 2>/dev/null; exit 130' INT TERM; \
	setsid -w nice -n 10 $(MAKE) --no-print-directory cran-check > .check-cran.log 2>&1 & check=$$!; \
	while kill -0 $$check 2>/dev/null && ! grep -q "installing the package to build vignettes" .check-cran.log; do \
	  sleep 0.5; \
	done; \
	setsid -w nice -n 10 $(MAKE) --no-print-directory rust-tests > .rust-tests.log 2>&1 & rust=$$!; \
	$(RSCRIPT) tools/run-tests.R; tests=$$?; \
	echo "Waiting for cargo test and R CMD check --as-cran, run beside testthat (their logs follow)"; \
	wait $$rust; rust_status=$$?; cat .rust-tests.log; \
	wait $$check; cran_status=$$?; cat .check-cran.log; \
	echo "cargo test: exit $$rust_status; testthat: exit $$tests; check-cran: exit $$cran_status"; \
	steps_failed=$$(( (rust_status != 0) + (cran_status != 0) )); \
	[ -f .test-summary ] || echo "0 passed, 1 failed, 0 skipped" > .test-summary; \
	if [ $$steps_failed -gt 0 ]; then \
	  awk -v e=$$steps_failed '{ $$3 = $$3 + e; print }' .test-summary > .test-summary.new && mv .test-summary.new .test-summary; \
	fi; \
	cat .test-summary; \
	[ $$rust_status -eq 0 ] && [ $$tests -eq 0 ] && [ $$cran_status -eq 0 ]

# The pkgdown site in docs/ (articles from vignettes/), from the package in .rlib;
# offline (no look-up of the package on CRAN).
site: setup install
	$(RSCRIPT) -e 'options(pkgdown.internet = FALSE); pkgdown::build_site(preview = FALSE, install = FALSE, new_process = FALSE)'

# README.md from README.Rmd: the example's output and plot (man/figures/) by code.
readme: setup install
	$(RSCRIPT) -e 'rmarkdown::render("README.Rmd", output_format = rmarkdown::github_document(html_preview = FALSE), quiet = TRUE)'

# anonymeter for bench/anonymeter.R, in a scratch venv made here, from the shell: under
# R's LD_LIBRARY_PATH some python3 builds lose ssl and pip could not download.
ANONYMETER_VENV ?= /tmp/synthrisk-anonymeter-venv
anonymeter-venv:
	sh bench/anonymeter-venv.sh $(ANONYMETER_VENV) >/dev/null

# bench/ stays out of the tarball: the Performance vignette reads the copies in
# vignettes/performance/.
# The stages of a small call whose instructions bench/stage-instructions.sh counts: the
# whole call after dispatch (run_front_door, its crossing included), the request, the
# preparation, the encoding and the crossing, the core's calls, and the result and its
# parts.
R_SIDE_STAGES = run_front_door,disclosure_request,prepare_variables,encode_prepared,rust_encode_compute,core_calls,as_multi_disclosure,build_disclosures,two_way_checks,disclosure_notes,build_multi_disclosure

bench: setup install anonymeter-venv
	$(RSCRIPT) bench/run.R
	$(RSCRIPT) bench/records.R >> bench/RESULTS.md
	$(RSCRIPT) bench/report.R >> bench/RESULTS.md
	$(RSCRIPT) bench/db.R >> bench/RESULTS.md
	$(RSCRIPT) bench/dcr.R >> bench/RESULTS.md
	$(RSCRIPT) bench/key-sweep.R 2 3 >> bench/RESULTS.md
	$(RSCRIPT) bench/db-gap.R >> bench/RESULTS.md
	@# A/B against BENCH_BASE (default: main when issues 37 and 38 were filed), installed in a scratch library.
	@base=$${BENCH_BASE:-a80def7}; lib=$$(mktemp -d); wt=$$(mktemp -d); \
	  git worktree add --detach $$wt $$base >/dev/null && R CMD INSTALL --no-multiarch --library=$$lib $$wt >/dev/null 2>&1 && \
	  $(RSCRIPT) bench/ab.R $$lib $(R_LIB) 7 >> bench/RESULTS.md && \
	  $(RSCRIPT) bench/crossing-ab.R $$lib $(R_LIB) 600 2 >> bench/RESULTS.md && \
	  bash bench/instructions.sh $$lib $(R_LIB) >> bench/RESULTS.md; git worktree remove --force $$wt; rm -rf $$lib
	bash bench/stage-instructions.sh $(R_LIB) $(R_SIDE_STAGES) >> bench/RESULTS.md
	bash bench/stage-instructions.sh --ops >> bench/RESULTS.md
	bash bench/phase-times.sh >> bench/RESULTS.md
	$(RSCRIPT) bench/r-side-replay.R >> bench/RESULTS.md
	$(RSCRIPT) bench/r-build-floor.R >> bench/RESULTS.md
	SYNTHPOP_LIB=$${SYNTHPOP_LIB:-} $(RSCRIPT) bench/synthpop.R 3 >> bench/RESULTS.md
	$(RSCRIPT) bench/intervals.R >> bench/RESULTS.md
	$(RSCRIPT) bench/coverage.R 200 >> bench/RESULTS.md
	ANONYMETER_VENV=$(ANONYMETER_VENV) $(RSCRIPT) bench/anonymeter.R speed >> bench/RESULTS.md
	$(RSCRIPT) bench/attack-coverage.R 200 >> bench/RESULTS.md
	mkdir -p vignettes/performance
	cp bench/RESULTS.md bench/time_vs_rows.png vignettes/performance/

# Run apart (about 20 minutes, mostly anonymeter): anonymeter's own singling-out queries
# through `queries`, and 20 seeds of its sampled inference and linkability against the
# exhaustive values; appended to bench/RESULTS.md.
bench-anonymeter: setup install anonymeter-venv
	ANONYMETER_VENV=$(ANONYMETER_VENV) $(RSCRIPT) bench/anonymeter.R agreement >> bench/RESULTS.md

# Run apart (about 15 minutes, most of it Spark): 1e7-row tables on a Spark standalone
# cluster and on PostgreSQL sharded with postgres_fdw, the engine counting against
# collect() then the in-memory call; appended to bench/RESULTS.md.
bench-cluster: setup install
	$(RSCRIPT) bench/cluster.R >> bench/RESULTS.md
	cp bench/RESULTS.md vignettes/performance/

clean:
	rm -rf $(R_LIB) synthrisk.Rcheck $(TARBALL) src/rust/target src/*.o src/*.so src/Makevars src/vendor src/.cargo \
	  demo-output docs .test-summary .test-summary.new .check-cran.log .rust-tests.log
