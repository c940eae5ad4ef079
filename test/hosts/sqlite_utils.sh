#!/bin/sh
# The README's sqlite-utils recipe (README, "Platforms and hosts"):
# `sqlite-utils memory|query --load-extension` reads the samples and writes
# a copy, re-read in a new connection by the sqlite3 shell.
#
#   sh test/hosts/sqlite_utils.sh BUILD SAMPLES
#
# Ends with "RESULT passed=N failed=N skipped=N"; skipped when Debian's
# sqlite-utils is not installed (.ci/run installs it).
set -u
BUILD_ABS=$(cd "${1:?usage: sh test/hosts/sqlite_utils.sh BUILD SAMPLES}" && pwd)
SAMPLES=${2:?usage: sh test/hosts/sqlite_utils.sh BUILD SAMPLES}
if ! command -v sqlite-utils >/dev/null 2>&1; then
  echo "SKIP sqlite-utils is not installed (Debian package sqlite-utils)"
  echo "RESULT passed=0 failed=0 skipped=1"
  exit 0
fi
. "$(dirname "$0")/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$SAMPLES/SAMPLE01.WWD" "$tmp/"
got=$(sqlite-utils memory --load-extension "$BUILD_ABS/levelsql.so" --csv --no-headers \
  "SELECT count(*) FROM wwd_levels('$SAMPLES')" 2>&1 | tr -d '\r')
check "sqlite-utils memory --load-extension reads the samples" "$got" "$(sqlite3 :memory: ".load $BUILD_ABS/levelsql" "SELECT count(*) FROM wwd_levels('$SAMPLES')")"
got=$(sqlite-utils query "$tmp/levels.db" --load-extension "$BUILD_ABS/levelsql.so" \
  "UPDATE wwd_objects SET score = 99 WHERE source = '$tmp/SAMPLE01.WWD' AND id = 1" 2>&1)
check "sqlite-utils query --load-extension runs an UPDATE" "$got" '[{"rows_affected": 1}]'
got=$(sqlite3 :memory: ".load $BUILD_ABS/levelsql" "SELECT score FROM wwd_objects('$tmp/SAMPLE01.WWD') WHERE id = 1" 2>&1)
check "the UPDATE of sqlite-utils is on disk" "$got" 99
finish
