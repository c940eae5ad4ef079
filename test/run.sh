#!/bin/sh
# Runs the whole suite against one build directory (build, build-asan):
#  1. every C unit test in $BUILD/tests/ (codecs, and the engine through
#     the loaded extension), each ending with "RESULT passed=N failed=N
#     skipped=N";
#     (the generated samples are in $LEVELSQL_SAMPLES for them);
#  2. every SQL test in test/sql/*.sql through the sqlite3 shell, in a fresh
#     temporary folder holding generated samples (samples/) and, when
#     ../shared/corpus exists, a private copy of it (corpus/).  Each SELECT
#     row of a SQL test is "label|1" when the check holds.  A file whose first
#     line is "-- requires: corpus" is skipped without the corpus.
# Closes with the line "N passed, N failed, N skipped"; exits 1 on failure.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
BUILD_ABS=$(cd "$BUILD" && pwd)
if [ -d "$ROOT/../shared/corpus" ]; then
  LEVELSQL_CORPUS=$(cd "$ROOT/../shared/corpus" && pwd -P)
  export LEVELSQL_CORPUS
else
  unset LEVELSQL_CORPUS 2>/dev/null || true
  echo "note: ../shared/corpus is absent: the real-corpus tests are reported as skipped"
fi
LEVELSQL_EXT="$BUILD_ABS/levelsql"
export LEVELSQL_EXT

passed=0
failed=0
skipped=0
# The suite must never change the real corpus: fingerprint it now, compare
# at the end.
corpus_sum() { [ -n "${LEVELSQL_CORPUS:-}" ] && find "$LEVELSQL_CORPUS" -type f -exec cksum {} + | sort; }
corpus_before=$(corpus_sum)
out=$(mktemp)
trap 'rm -f "$out"' EXIT

work=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$work"' EXIT
sh tools/gen_samples.sh "$BUILD" "$work/samples.orig" >/dev/null || { echo "FAIL tools/gen_samples.sh"; failed=$((failed + 1)); }
LEVELSQL_SAMPLES="$work/samples.orig"
export LEVELSQL_SAMPLES

# 1. C unit tests
for t in "$BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  "$t" >"$out" 2>&1
  rc=$?
  line=$(grep '^RESULT ' "$out" | tail -n 1)
  if [ -z "$line" ]; then
    echo "FAIL $name: exited $rc without a RESULT line"
    tail -n 20 "$out"
    failed=$((failed + 1))
    continue
  fi
  p=$(echo "$line" | sed 's/.*passed=\([0-9]*\).*/\1/')
  f=$(echo "$line" | sed 's/.*failed=\([0-9]*\).*/\1/')
  s=$(echo "$line" | sed 's/.*skipped=\([0-9]*\).*/\1/')
  grep -E '^(FAIL|SKIP)' "$out" | head -n 40
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "FAIL $name: exited $rc"
    tail -n 20 "$out"
    f=1
  fi
  echo "$name: $p passed, $f failed, $s skipped"
  passed=$((passed + p))
  failed=$((failed + f))
  skipped=$((skipped + s))
done

# 2. SQL tests through the sqlite3 shell
shell_env=""
if [ "${LEVELSQL_SANITIZED:-0}" = 1 ]; then
  # the sqlite3 shell is not instrumented: preload the sanitizer runtimes
  shell_env="LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0:abort_on_error=1"
fi
for sql in test/sql/*.sql; do
  [ -f "$sql" ] || continue
  name=$(basename "$sql" .sql)
  if head -n 1 "$sql" | grep -q 'requires: corpus' && [ -z "${LEVELSQL_CORPUS:-}" ]; then
    echo "SKIP $name: needs ../shared/corpus"
    skipped=$((skipped + 1))
    continue
  fi
  dir="$work/$name"
  mkdir -p "$dir"
  cp -r "$work/samples.orig" "$dir/samples"
  if [ -n "${LEVELSQL_CORPUS:-}" ]; then
    # a private, writable copy of the files themselves (never a link back)
    mkdir -p "$dir/corpus"
    cp -RL "$LEVELSQL_CORPUS/." "$dir/corpus/"
    chmod -R u+w "$dir/corpus"
  fi
  ( cd "$dir" && { printf '.load %s\n.mode list\n.headers off\n' "$LEVELSQL_EXT"; cat "$ROOT/$sql"; } |
      env $shell_env sqlite3 -batch :memory: ) >"$out" 2>&1
  p=$(grep -c '|1$' "$out")
  bad=$(grep -v '|1$' "$out" | grep -v '^$')
  if [ -n "$bad" ]; then
    echo "$bad" | head -n 20 | sed "s/^/FAIL $name: /"
    f=$(echo "$bad" | wc -l)
  else
    f=0
  fi
  echo "$name.sql: $p passed, $f failed"
  passed=$((passed + p))
  failed=$((failed + f))
  rm -rf "$dir"
done

# 3. The demo and cookbook queries of sql/, run exactly as a user would:
#    `sqlite3 -batch :memory: < sql/x.sql` (no .load added: each file loads
#    build/levelsql itself) in a folder holding build/levelsql.so (a link to
#    this build's extension, the sanitized one under `make asan`) and a fresh
#    copy of the samples in build/samples.  Any output on stderr fails it.
for sql in sql/*.sql; do
  [ -f "$sql" ] || continue
  name=$(basename "$sql")
  dir="$work/user"
  mkdir -p "$dir/build"
  ln -s "$BUILD_ABS/levelsql.so" "$dir/build/levelsql.so"
  cp -r "$work/samples.orig" "$dir/build/samples"
  ( cd "$dir" && env $shell_env sqlite3 -batch :memory: <"$ROOT/$sql" ) >"$out" 2>"$work/user.err"
  rc=$?
  if [ $rc -ne 0 ] || [ -s "$work/user.err" ]; then
    echo "FAIL sql/$name (exit $rc):"
    head -n 5 "$work/user.err"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
  rm -rf "$dir" "$work/user.err"
done

# 4. The README lists exactly the tables and columns the extension has.
fresh=$(env $shell_env sh tools/readme_tables.sh "$LEVELSQL_EXT" 2>&1)
documented=$(sed -n '/<!-- tables:begin -->/,/<!-- tables:end -->/p' README.md | sed '1d;$d')
if [ -n "$fresh" ] && [ "$fresh" = "$documented" ]; then
  passed=$((passed + 1))
else
  echo "FAIL README.md: the table reference is stale; run 'make readme'"
  failed=$((failed + 1))
fi

# 5. ../shared/corpus is exactly as it was.
if [ "$(corpus_sum)" = "$corpus_before" ]; then
  passed=$((passed + 1))
else
  echo "FAIL the suite changed files in $LEVELSQL_CORPUS"
  failed=$((failed + 1))
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
