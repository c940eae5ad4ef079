#!/bin/sh
# `make coverage`: line coverage of every file of ext/ and codecs/ after the
# suite ran on a gcc --coverage build (BUILD, e.g. build-cov, whose objects
# are BUILD/obj/<dir>/<name>.o with their .gcno and .gcda beside them).
# Prints one row per file, sorted by coverage (lowest first, then by
# name), then the totals of each folder and of both.  Reads the counts with
# plain gcov (-t: the annotated source on stdout; nothing is written): a line
# is executable unless gcov marks it "-", executed when its count is not
# "#####".  A file whose object has no .gcda (never run) counts 0 of its
# executable lines.
# Usage: sh tools/coverage.sh BUILD
set -eu
LC_ALL=C
export LC_ALL
BUILD=${1:-build-cov}
GCOV=${GCOV:-gcov}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT

for src in ext/*.c ext/*/*.c codecs/*/*.c; do
  obj="$BUILD/obj/${src%.c}"
  if [ ! -f "$obj.gcno" ]; then
    echo "coverage: $obj.gcno is missing: build with --coverage first (make coverage)" >&2
    exit 2
  fi
  # only the block of this source file (inline functions of headers come in
  # blocks of their own)
  "$GCOV" -t -o "$(dirname "$obj")" "$src" 2>/dev/null | awk -v src="$src" '
    /^ *-: *0:Source:/ { sub(/^ *-: *0:Source:/, ""); keep = ($0 == src); next }
    keep {
      count = $1; sub(/:$/, "", count)
      if (count == "-") next
      total++
      if (count != "#####" && count != "=====") run++
    }
    END { printf "%s %d %d\n", src, run + 0, total + 0 }' >>"$rows"
done

# sorted by coverage, lowest first; equal coverage by name
sort -k1,1 "$rows" | awk '{ printf "%012.8f %s %d %d\n", ($3 ? $2 / $3 : 1), $1, $2, $3 }' | sort -k1,1 -k2,2 |
awk '
  function pct(r, t) { return t ? 100 * r / t : 100 }
  { file[NR] = $2; run[NR] = $3; total[NR] = $4
    dir = $2; sub(/\/.*/, "", dir)
    drun[dir] += $3; dtotal[dir] += $4; arun += $3; atotal += $4 }
  END {
    printf "%-24s %8s %8s %8s\n", "file", "lines", "run", "cover"
    for (i = 1; i <= NR; i++)
      printf "%-24s %8d %8d %7.1f%%\n", file[i], total[i], run[i], pct(run[i], total[i])
    printf "%-24s %8d %8d %7.1f%%\n", "total ext/", dtotal["ext"], drun["ext"], pct(drun["ext"], dtotal["ext"])
    printf "%-24s %8d %8d %7.1f%%\n", "total codecs/", dtotal["codecs"], drun["codecs"], pct(drun["codecs"], dtotal["codecs"])
    printf "%-24s %8d %8d %7.1f%%\n", "total", atotal, arun, pct(arun, atotal)
  }'
