#!/bin/sh
# `make demo`: runs sql/demo.sql through the sqlite3 shell on the samples
# that `make samples` generated into $BUILD/samples.
set -eu
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
rm -rf "$BUILD"/demo
{ printf '.load %s/levelsql\n' "$BUILD"; cat sql/demo.sql; } | sqlite3 -batch :memory:
