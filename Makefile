# Two commands for a newcomer: `make demo` and `make test` (see README.md).
SHELL := /bin/bash
export PATH := $(PATH):$(HOME)/.cargo/bin
R_LIB := $(CURDIR)/.rlib
RSCRIPT := R_LIBS=$(R_LIB) Rscript
PKG_VERSION := $(shell sed -n 's/^Version: //p' DESCRIPTION)
TARBALL := synthrisk_$(PKG_VERSION).tar.gz

.PHONY: setup install demo test test-rust test-r check bench clean docs

setup:
	@bash tools/setup.sh

docs: setup
	Rscript tools/roxygen.R

install: setup
	@mkdir -p $(R_LIB)
	R CMD INSTALL --no-multiarch --library=$(R_LIB) . >/tmp/synthrisk-install.log 2>&1 || { cat /tmp/synthrisk-install.log; exit 1; }

demo: install
	@mkdir -p demo-output
	$(RSCRIPT) tools/demo.R demo-output

test-rust: setup
	cargo test --manifest-path src/rust/Cargo.toml -p synthrisk-core

test-r: install
	$(RSCRIPT) tools/run-tests.R

check: setup
	rm -rf synthrisk.Rcheck $(TARBALL)
	R CMD build . >/dev/null
	SYNTHRISK_PROPERTY_CASES=300 NOT_CRAN=true _R_CHECK_FORCE_SUGGESTS_=false R_LIBS=$(R_LIB) R CMD check --no-manual $(TARBALL) 2>&1 | tee /tmp/synthrisk-check.log
	@! grep -qE "^Status: .*(ERROR|WARNING)" /tmp/synthrisk-check.log

test: test-rust test-r check
	@cat .test-summary

bench: install
	$(RSCRIPT) bench/run.R
	$(RSCRIPT) bench/records.R >> bench/RESULTS.md
	$(RSCRIPT) bench/db.R >> bench/RESULTS.md

clean:
	rm -rf $(R_LIB) synthrisk.Rcheck $(TARBALL) src/rust/target src/*.o src/*.so demo-output .test-summary
