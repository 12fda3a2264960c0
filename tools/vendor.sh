#!/bin/sh
# Vendors the Rust crates of src/rust/Cargo.lock for the offline build, after any change
# of Cargo.lock (needs crates.io once):
#   tools/vendor.sh          writes src/rust/vendor.tar.xz, inst/AUTHORS and LICENSE.note
#   tools/vendor.sh --check  fails when the tarball does not hold exactly the crates of
#                            Cargo.lock (no network; run by make test)
# The tarball is reproducible: the same Cargo.lock gives the same bytes (names sorted,
# fixed mtime, owner and modes; single-threaded xz). Crates keep their licence files and
# cargo's checksums; nothing is pruned.
set -eu
cd "$(dirname "$0")/.."
PATH="$PATH:$HOME/.cargo/bin"
manifest=src/rust/Cargo.toml
tarball=src/rust/vendor.tar.xz

# "name version checksum" of every crates.io package in Cargo.lock, sorted.
locked_crates() {
  awk '
    /^\[\[package\]\]/ { name = ""; version = ""; sum = "" }
    /^name = /     { gsub(/"/, "", $3); name = $3 }
    /^version = /  { gsub(/"/, "", $3); version = $3 }
    /^checksum = / { gsub(/"/, "", $3); print name, version, $3 }
  ' src/rust/Cargo.lock | LC_ALL=C sort
}

# The same triple for every crate of an unpacked vendor directory.
vendored_crates() {
  for dir in "$1"/*/; do
    name=$(sed -n 's/^name = "\(.*\)"$/\1/p' "$dir/Cargo.toml" | head -n 1)
    version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$dir/Cargo.toml" | head -n 1)
    sum=$(sed -n 's/.*"package":"\([0-9a-f]*\)".*/\1/p' "$dir/.cargo-checksum.json")
    echo "$name $version $sum"
  done | LC_ALL=C sort
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "${1:-}" = "--check" ]; then
  tar -xJf "$tarball" -C "$tmp"
  locked_crates >"$tmp/locked"
  vendored_crates "$tmp/vendor" >"$tmp/vendored"
  if ! cmp -s "$tmp/locked" "$tmp/vendored"; then
    echo "vendor: $tarball does not match src/rust/Cargo.lock; run tools/vendor.sh" >&2
    diff "$tmp/locked" "$tmp/vendored" >&2 || true
    exit 1
  fi
  echo "vendor: $tarball holds the $(wc -l <"$tmp/locked" | tr -d ' ') crates of Cargo.lock"
  exit 0
fi

cargo vendor --quiet --locked --versioned-dirs --manifest-path "$manifest" "$tmp/vendor" >/dev/null
tar --sort=name --format=gnu --mtime='2000-01-01 00:00:00Z' --owner=0 --group=0 --numeric-owner \
  --mode='u=rwX,go=rX' -C "$tmp" -cf - vendor | xz -9 -T1 >"$tarball"

cargo metadata --locked --format-version 1 --manifest-path "$manifest" >"$tmp/metadata.json"
# The crates that build the package (any target platform); the others are only
# needed by `cargo test` of the core but ship too, since cargo resolves the whole lock file.
cargo tree --locked --manifest-path "$manifest" -p synthrisk -e normal,build --target all \
  --prefix none --format '{p}' | sed 's/ (.*//; s/ v/ /' | LC_ALL=C sort -u >"$tmp/compiled"
Rscript tools/crate-licences.R "$tmp/metadata.json" "$tmp/compiled" inst/AUTHORS LICENSE.note
echo "vendor: wrote $tarball ($(wc -c <"$tarball" | tr -d ' ') bytes), inst/AUTHORS, LICENSE.note"
