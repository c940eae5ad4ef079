#!/bin/sh
# `make samples`: writes the sample files of every format into OUTDIR with
# the project's own writers: each generator tools/gen_<format>_samples.c
# (built as $BUILD/tools/gen_<format>_samples) writes its format's files.
# The demo, the cookbooks of sql/ and the tests read them.
# Usage: sh tools/gen_samples.sh BUILD OUTDIR
set -eu
BUILD=$1
OUT=$2
mkdir -p "$OUT"
# gen_key_samples last: its game packs the Infinity Engine samples the
# others wrote (WED, ARE)
for src in "$(dirname "$0")"/gen_*_samples.c; do
  case $src in */gen_key_samples.c) continue ;; esac
  "$BUILD/tools/$(basename "$src" .c)" "$OUT"
done
"$BUILD/tools/gen_key_samples" "$OUT"
