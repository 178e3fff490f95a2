#!/usr/bin/env bash
# Fetches SQLite's amalgamation (sqlite3.c, sqlite3.h) once, outside the
# repository, and prints the directory holding it: for the SQLite check
# (test/sqlite; cmake -DPTM_SQLITE_SRC="$(scripts/fetch-sqlite.sh)").
#   scripts/fetch-sqlite.sh [DIR]
# The amalgamation comes from crates.io, through cargo: the crate
# libsqlite3-sys 0.40.0 bundles SQLite 3.54.1's. Default DIR:
# ${XDG_CACHE_HOME:-$HOME/.cache}/ptm/sqlite-3.54.1.
set -euo pipefail
crate=libsqlite3-sys
version=0.40.0
dir="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/ptm/sqlite-3.54.1}"
if [ -f "$dir/sqlite3.c" ] && [ -f "$dir/sqlite3.h" ]; then
  echo "$dir"
  exit 0
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "fetch-sqlite: cargo is needed to fetch the $crate crate" >&2
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
cat >"$work/Cargo.toml" <<TOML
[package]
name = "ptm-sqlite-fetch"
version = "0.0.0"
edition = "2021"

[dependencies]
$crate = "=$version"
TOML
echo "fn main() {}" >"$work/src/main.rs"
(cd "$work" && cargo fetch --quiet) >&2
home="${CARGO_HOME:-$HOME/.cargo}"
src="$(ls -d "$home"/registry/src/*/"$crate-$version"/sqlite3 2>/dev/null | head -1)"
if [ -z "$src" ] || [ ! -f "$src/sqlite3.c" ]; then
  echo "fetch-sqlite: $crate $version fetched, but its sqlite3/ is not under $home/registry/src" >&2
  exit 1
fi
mkdir -p "$dir"
# (each file under a temporary name first: an interrupted copy leaves no
# short file that a later run would take as complete)
for f in sqlite3.c sqlite3.h; do
  cp "$src/$f" "$dir/.$f.tmp" && mv "$dir/.$f.tmp" "$dir/$f"
done
echo "$dir"
