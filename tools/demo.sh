#!/bin/sh
# `make demo`: runs sql/demo.sql through the sqlite3 shell on the levels
# that `make samples` generated into $BUILD/samples, and on a generated
# Teeworlds map in $BUILD/demo.
set -eu
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
rm -rf "$BUILD"/demo
mkdir -p "$BUILD"/demo
# a small Teeworlds/DDNet map written by the project's own map writer
"$BUILD"/tools/gen_tw_sample "$BUILD"/demo/sample.map >/dev/null
{ printf '.load %s/levelsql\n' "$BUILD"; cat sql/demo.sql; } | sqlite3 -batch :memory:
