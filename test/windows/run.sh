#!/bin/sh
# The Windows tests (`make windows-test`; README, "Platforms and hosts"):
# build/windows/levelsql.dll loaded by build/windows/sqlrun.exe (the
# Windows build of tools/sqlrun.c with SQLite's amalgamation), both run
# under wine:
#  1. the DLL exports sqlite3_levelsql_init alone and needs no DLL but
#     Windows' own (KERNEL32, msvcrt);
#  2. test/windows/paths.sql, with @DIR@ replaced by the test folder's
#     Windows path (Z:\tmp\...): sources with drive letters and backslashes,
#     globs, writes re-read in a new connection (rename over an existing
#     file), a ROLLBACK that writes nothing, levelsql_copy;
#  3. the SQL tests of test/sql/ that do not need POSIX (WINDOWS_SQL below),
#     each in a fresh folder with the samples and fixtures (and a copy of
#     ../shared/corpus for a file that needs it), as test/run.sh runs them.
# Every line is labelled "[windows]"; closes with "RESULT passed=N failed=N
# skipped=N".  Without wine or without the build, one skip with the reason.
#
#   sh test/windows/run.sh [BUILD]       (BUILD: where the samples are built, default build)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${1:-build}
WIN="$ROOT/build/windows"
# The SQL tests that run on Windows as they are.  The others need what
# Windows has not: symbolic links and POSIX permissions (fixtures/, the
# read-only and link cases), /dev/full, the sqlite3 shell's .shell
# (tw_corpus.sql and wz4_edit_corpus.sql copy files with it).
WINDOWS_SQL="parse_ahead atlas wwd_tables wwd_functions tw_samples tw_functions tw_errors wed_constructed wed_tables wed_vertices wz4_tables wz4_constructed samples wwd_corpus wed_vertices_corpus joins_corpus tw_tables wwd_edit wed_edit wz4_edit tw_blobs tw_resize tw_rows wwd_edit_corpus wed_edit_corpus tw_resize_corpus tw_rows_corpus"
passed=0
failed=0
skipped=0
finish() { echo "RESULT passed=$passed failed=$failed skipped=$skipped"; [ "$failed" -eq 0 ]; exit $?; }

if ! command -v wine >/dev/null 2>&1; then
  echo "[windows] SKIP wine is not installed (Debian's wine: LEVELSQL_NEED_WINDOWS=1 sh tools/ensure-deps.sh)"
  skipped=1
  finish
fi
if [ ! -f "$WIN/levelsql.dll" ] || [ ! -f "$WIN/sqlrun.exe" ]; then
  echo "[windows] SKIP $WIN/levelsql.dll or sqlrun.exe is missing (make windows)"
  skipped=1
  finish
fi
export WINEPREFIX="$WIN/wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
# The Windows path of a Linux path (wine's drive Z: is /).
winpath() { printf 'Z:%s' "$1" | tr / '\\'; }
# (a path from /: wine reads it on the current drive, Z:, which is /)
LEVELSQL_EXT="$WIN/levelsql"
export LEVELSQL_EXT

# 1. exports and imports
exports=$(x86_64-w64-mingw32-objdump -p "$WIN/levelsql.dll" | sed -n '/Ordinal\/Name Pointer/,/^$/p' | sed -n 's/^[[:space:]]*\[ *[0-9]*\] //p')
imports=$(x86_64-w64-mingw32-objdump -p "$WIN/levelsql.dll" | sed -n 's/.*DLL Name: //p' | sort -u | tr '\n' ' ')
if [ "$exports" = sqlite3_levelsql_init ] && [ "$imports" = "KERNEL32.dll msvcrt.dll " ]; then
  passed=$((passed + 1))
else
  echo "[windows] FAIL levelsql.dll exports: $exports; imports: $imports"
  failed=$((failed + 1))
fi

corpus=""
[ -d "$ROOT/../shared/corpus" ] && corpus=$(cd "$ROOT/../shared/corpus" && pwd -P)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sh tools/gen_samples.sh "$BUILD" "$work/samples.orig" >/dev/null || { echo "[windows] FAIL tools/gen_samples.sh"; failed=$((failed + 1)); }
"$BUILD/tests/fixtures" "$work/samples.orig" "$work/fixtures.orig" >/dev/null 2>&1 ||
  { echo "[windows] FAIL $BUILD/tests/fixtures"; failed=$((failed + 1)); }

# Runs the SQL test file $1 (its text, with @DIR@ made the Windows path of
# the folder) with sqlrun.exe under wine in a fresh folder; adds its counts.
run_sql() {
  name=$(basename "$1" .sql)
  dir="$work/sql-$name"
  mkdir -p "$dir"
  cp -r "$work/samples.orig" "$dir/samples"
  cp -r "$work/fixtures.orig" "$dir/fixtures"
  if [ -n "$corpus" ] && head -n 1 "$1" | grep -q '^-- *requires: *corpus'; then
    mkdir -p "$dir/corpus"
    cp -RL "$corpus/." "$dir/corpus/"
    chmod -R u+w "$dir/corpus"
  fi
  windir=$(winpath "$dir" | sed 's/\\/\\\\/g')
  sed "s|@DIR@|$windir|g" "$1" >"$dir/$name.sql"
  sh test/sqltest.sh -C "$dir" "$dir/$name.sql" wine "$WIN/sqlrun.exe" -batch :memory: >"$work/out" 2>&1
  rc=$?
  line=$(grep '^RESULT ' "$work/out" | tail -n 1)
  grep -E '^(FAIL|SKIP|  )' "$work/out" | head -n 40 | sed "s|^|[windows] |"
  if [ -z "$line" ]; then
    echo "[windows] FAIL $1: exited $rc without a RESULT line"
    tail -n 10 "$work/out" | sed 's|^|[windows] |'
    failed=$((failed + 1))
  else
    p=$(echo "$line" | sed 's/.*passed=\([0-9]*\).*/\1/')
    f=$(echo "$line" | sed 's/.*failed=\([0-9]*\).*/\1/')
    s=$(echo "$line" | sed 's/.*skipped=\([0-9]*\).*/\1/')
    echo "[windows] $1: $p passed, $f failed, $s skipped"
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
  fi
  rm -rf "$dir"
}

# A new wine prefix (the first run, CI) is made by the first program wine
# starts, which then prints wine's own notes on stderr ("created the
# configuration directory"): make it now, so that the tests' stderr holds
# only what sqlrun.exe says.
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  echo 'SELECT 1;' | wine "$WIN/sqlrun.exe" -batch :memory: >/dev/null 2>&1
  wineserver -w 2>/dev/null
fi

# 2. Windows paths and writes
run_sql test/windows/paths.sql
# 3. the portable SQL tests
for name in $WINDOWS_SQL; do
  run_sql "test/sql/$name.sql"
done
finish
