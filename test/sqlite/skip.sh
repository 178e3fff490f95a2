#!/bin/sh
echo "sqlite: skipped: no SQLite amalgamation given. scripts/fetch-sqlite.sh fetches one (prints its directory); then configure with -DPTM_SQLITE_SRC=DIR"
exit 77
