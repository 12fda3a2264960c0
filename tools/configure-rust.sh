#!/bin/sh
# Sourced by ./configure and ./configure.win (POSIX sh) with MAKEVARS set to the file to
# write (src/Makevars or src/Makevars.win). Finds cargo and rustc on PATH or in
# ~/.cargo/bin, checks them against the minimum Rust version in DESCRIPTION's
# SystemRequirements, and stops at once, saying how to install Rust, when either is
# missing or too old. Otherwise writes $MAKEVARS from $MAKEVARS.in with their paths.

min_rust=$(sed -n 's/^SystemRequirements:.*rustc (>= *\([0-9][0-9.]*\)).*/\1/p' DESCRIPTION)

rust_advice() {
  cat <<EOF
------------------------------------------------------------------------------
synthrisk needs Rust (cargo and rustc) ${min_rust} or later to compile its code.
$1

Install it with one of:
  - rustup (any system, no administrator rights needed): https://rustup.rs/
    then open a new shell, or add ~/.cargo/bin to PATH;
  - Debian 12: apt-get install cargo-web rustc-web;
    Debian 13 or later: apt-get install cargo rustc;
  - Fedora: dnf install cargo rustc;   macOS (Homebrew): brew install rust;
  - Windows: rustup-init.exe from https://rustup.rs/ , then
    rustup target add x86_64-pc-windows-gnu
and install synthrisk again. No network access is needed to build synthrisk
itself: the Rust libraries it uses are bundled in the package.
------------------------------------------------------------------------------
EOF
  exit 1
}

# Path of tool $1: on PATH, else in ~/.cargo/bin (also %USERPROFILE%\.cargo\bin on Windows).
find_tool() {
  for candidate in "$(command -v "$1" 2>/dev/null)" \
    "${HOME:-}/.cargo/bin/$1" "${HOME:-}/.cargo/bin/$1.exe" \
    "${USERPROFILE:-}/.cargo/bin/$1" "${USERPROFILE:-}/.cargo/bin/$1.exe"; do
    if [ -n "$candidate" ] && [ -f "$candidate" ] && [ -x "$candidate" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

# 0 when version $1 (x.y.z) is at least $2 (x.y or x.y.z).
version_at_least() {
  awk -v have="$1" -v need="$2" 'BEGIN {
    nh = split(have, h, "."); nn = split(need, n, ".")
    for (i = 1; i <= 3; i++) {
      a = (i <= nh) ? h[i] + 0 : 0; b = (i <= nn) ? n[i] + 0 : 0
      if (a > b) exit 0
      if (a < b) exit 1
    }
    exit 0
  }'
}

if [ -z "$min_rust" ]; then
  echo "configure: DESCRIPTION's SystemRequirements has no 'rustc (>= x.y)'" >&2
  exit 1
fi

cargo=$(find_tool cargo) || rust_advice "cargo was not found on PATH nor in ~/.cargo/bin."
rustc=$(find_tool rustc) || rust_advice "rustc was not found on PATH nor in ~/.cargo/bin."

cargo_version=$("$cargo" --version 2>/dev/null) || rust_advice "'$cargo --version' failed."
rustc_version=$("$rustc" --version 2>/dev/null) || rust_advice "'$rustc --version' failed."
echo "configure: using $cargo_version ($cargo)"
echo "configure: using $rustc_version ($rustc)"

for found in "$cargo_version" "$rustc_version"; do
  number=$(echo "$found" | sed -n 's/^[a-z]* \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
  if [ -z "$number" ] || ! version_at_least "$number" "$min_rust"; then
    rust_advice "Found '$found', older than ${min_rust} (or its version unreadable)."
  fi
done

sed -e "s|@CARGO@|$cargo|" -e "s|@RUSTC@|$rustc|" "$MAKEVARS.in" >"$MAKEVARS"
echo "configure: wrote $MAKEVARS"
