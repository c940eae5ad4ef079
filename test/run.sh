#!/bin/sh
# Runs the whole suite against one build directory (build, build-asan):
#  1. every C unit test in $BUILD/tests/ (codecs, and the engine through
#     the loaded extension), each ending with "RESULT passed=N failed=N
#     skipped=N";
#     (the generated samples are in $LEVELSQL_SAMPLES for them);
#  2. every SQL test in test/sql/*.sql through the sqlite3 shell with
#     test/sqltest.sh (the file format is described there), in a fresh
#     temporary folder holding the generated samples (samples/), the test
#     fixtures of $BUILD/tests/fixtures (fixtures/) and, for a file whose
#     first line is "-- requires: corpus", a private copy of the real corpus
#     ($LEVELSQL_CORPUS, else ../shared/corpus; corpus/; without it that
#     file's cases are skipped);
#  3. every query of sql/ runs without an error, twice alike, leaving the
#     samples as they were; the README's examples run as written after
#     `make demo` and docs/ holds what it draws (test/readme.py); the Python
#     package installs with pip and works (test/python/package.sh);
#  4. build/tools/sqlrun (tools/sqlrun.c, linked with the system SQLite)
#     prints what the sqlite3 shell prints for test/sqlrun/shell_subset.sql,
#     and the README's table reference is current;
#  4b. the extension exports only its entry point, and the SQL tests that
#     compress pass in a host with a decoy zlib of its own
#     ($BUILD/hosts/sqlrun-decoy-zlib);
#  4c. DB Browser for SQLite's statements (test/hosts/dbbrowser.sh), on
#     both SQLites, Node's better-sqlite3 (test/hosts/better_sqlite3.sh),
#     and levelsql_atlas's pages in headless chromium
#     (test/hosts/atlas_browser.py);
#  5. when $BUILD/newsql/sqlrun exists (`make newsql`: a newer SQLite, see
#     tools/newer-sqlite.sh), 1-3 again on that SQLite: the C tests of
#     $BUILD/tests-newsql/ and the scripts through sqlrun, every line
#     labelled "[VERSION]"; without it, one skip.  The C tests run there
#     with LEVELSQL_PEER_CHECKS=0: test_tw_sql's comparisons with DDNet's
#     tools are made in the system SQLite's pass only;
#  6. the include graph of codecs/ and ext/ has no circle and family files
#     include only engine.h from the engine (test/include_graph.py).
# Closes with the line "N passed, N failed, N skipped"; exits 1 on failure.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
BUILD_ABS=$(cd "$BUILD" && pwd)
# The real corpus: the folder $LEVELSQL_CORPUS names, else ../shared/corpus
# beside the checkout; without either the corpus tests count as skipped.
if [ -n "${LEVELSQL_CORPUS:-}" ] && [ -d "$LEVELSQL_CORPUS" ]; then
  LEVELSQL_CORPUS=$(cd "$LEVELSQL_CORPUS" && pwd -P)
  export LEVELSQL_CORPUS
elif [ -d "$ROOT/../shared/corpus" ]; then
  LEVELSQL_CORPUS=$(cd "$ROOT/../shared/corpus" && pwd -P)
  export LEVELSQL_CORPUS
else
  unset LEVELSQL_CORPUS 2>/dev/null || true
  echo "note: no real corpus (LEVELSQL_CORPUS unset and ../shared/corpus absent): the real-corpus tests are reported as skipped"
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

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jobs_dir="$work/jobs"
mkdir -p "$jobs_dir"
sh tools/gen_samples.sh "$BUILD" "$work/samples.orig" >/dev/null || { echo "FAIL tools/gen_samples.sh"; failed=$((failed + 1)); }
LEVELSQL_SAMPLES="$work/samples.orig"
export LEVELSQL_SAMPLES
"$BUILD/tests/fixtures" "$work/samples.orig" "$work/fixtures.orig" ${LEVELSQL_CORPUS:+"$LEVELSQL_CORPUS"} >/dev/null ||
  { echo "FAIL $BUILD/tests/fixtures"; failed=$((failed + 1)); }

# The job pool.  The suite below (suite) is a list of jobs, each a command
# whose output is tallied in that order.  With LEVELSQL_JOBS=1 each job runs
# when the list reaches it (mode "serial").  Otherwise the list is walked
# twice: first (mode "plan") every job's command is written to
# $jobs_dir/NNNN.cmd and the jobs run, LEVELSQL_JOBS at a time (default: one
# per processor), longest first by the times of the last run
# ($BUILD/test-times, else test/test-times); the jobs marked "alone"
# (timing-sensitive ones) run after, one at a time; then (mode "tally") the
# list is walked again, reading each job's output, so that the printed lines
# and counts are those of a serial run, in the same order.
LEVELSQL_JOBS=${LEVELSQL_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case "$LEVELSQL_JOBS" in ''|*[!0-9]*|0) LEVELSQL_JOBS=1 ;; esac
mode=plan
[ "$LEVELSQL_JOBS" -gt 1 ] || mode=serial
job_number=0

# Prints its arguments as one shell command line (each word quoted).
quote_words() {
  for word in "$@"; do
    case "$word" in
      *\'*) printf "'%s' " "$(printf '%s' "$word" | sed "s/'/'\\\\''/g")" ;;
      *) printf "'%s' " "$word" ;;
    esac
  done
  echo
}

# job pool|alone KEY COMMAND...: the next job of the suite, KEY naming it in
# the times file.  In mode plan, writes the command for the pool and returns
# 1 (nothing to tally yet); in mode serial, runs it now; in modes serial
# and tally, leaves its output in the file $out and its exit status in $rc
# and returns 0.
job() {
  job_number=$((job_number + 1))
  job_file="$jobs_dir/$(printf '%04d' "$job_number")"
  job_kind=$1 job_key=$2
  shift 2
  if [ "$mode" != tally ]; then
    quote_words "$@" >"$job_file.cmd"
    echo "$job_key" >"$job_file.key"
    echo "$job_kind" >"$job_file.kind"
  fi
  [ "$mode" = serial ] && sh test/run_job.sh run "$job_file"
  [ "$mode" = plan ] && return 1
  out="$job_file.out"
  rc=$(cat "$job_file.rc" 2>/dev/null || echo 127)
  return 0
}

# Runs the planned jobs (mode plan): the pool, longest first, then the jobs
# marked alone, one at a time, once the background build of better-sqlite3
# (if any) is done; records every job's time in $BUILD/test-times for the
# next run's order.
run_planned_jobs() {
  cat test/test-times "$BUILD/test-times" 2>/dev/null >"$work/times.known"
  for f in "$jobs_dir"/*.cmd; do
    [ -f "$f" ] || continue
    j=${f%.cmd}
    [ "$(cat "$j.kind")" = pool ] || continue
    echo "$(cat "$j.key") $j"
  done | awk 'FILENAME != "-" { seconds[$1] = $2; next } { print (($1 in seconds) ? seconds[$1] : 1), $2 }' \
      "$work/times.known" - | sort -s -k1,1 -g -r | cut -d' ' -f2 |
    xargs -r -P "$LEVELSQL_JOBS" -n 1 sh test/run_job.sh run
  [ -z "${background_build:-}" ] || wait "$background_build"
  for f in "$jobs_dir"/*.cmd; do
    j=${f%.cmd}
    [ "$(cat "$j.kind")" = alone ] && sh test/run_job.sh run "$j"
  done
  for f in "$jobs_dir"/*.time; do
    [ -f "$f" ] && echo "$(cat "${f%.time}.key") $(cat "$f")"
  done | cat "$BUILD/test-times" - 2>/dev/null | awk '{ seconds[$1] = $2 } END { for (k in seconds) print k, seconds[k] }' |
    sort >"$work/times.new" && mv "$work/times.new" "$BUILD/test-times"
}

# Runs every C test in folder $1 (test_*), printing their FAIL and SKIP
# lines and a count per test, each line prefixed with $2; the words after
# $2 are environment settings for the tests (env NAME=VALUE ...).
# test_bounded and test_isolation measure how late an interrupt or a lock
# comes: they run alone.
c_tests() {
  folder=$1 label=$2
  shift 2
  for t in "$folder"/test_*; do
    name=$(basename "$t")
    # (a test whose source is gone may linger in an old build folder)
    [ -x "$t" ] && [ -f "test/unit/$name.c" ] || continue
    case "$name" in test_bounded|test_isolation) kind=alone ;; *) kind=pool ;; esac
    job "$kind" "$(basename "$folder")/$name" env "$@" "$t" && tally "$name" "$rc" "$label" '^(FAIL|SKIP|INFO)'
  done
}

# Adds up the "RESULT passed=N failed=N skipped=N" line of $out, the output
# of test $1, which exited with status $2; prints its lines that match the
# extended regular expression $4 (at most 40) and its counts, each line
# prefixed with $3.
tally() {
  line=$(grep '^RESULT ' "$out" | tail -n 1)
  if [ -z "$line" ]; then
    echo "${3}FAIL $1: exited $2 without a RESULT line"
    tail -n 20 "$out" | sed "s|^|$3|"
    failed=$((failed + 1))
    return
  fi
  # (the three numbers cut out by the shell itself: no process per test)
  p=${line#*passed=} f=${line#*failed=} s=${line#*skipped=}
  p=${p%% *} f=${f%% *} s=${s%% *}
  grep -E "$4" "$out" | head -n 40 | sed "s|^|$3|"
  if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "${3}FAIL $1: exited $2"
    tail -n 20 "$out" | sed "s|^|$3|"
    f=1
  fi
  echo "${3}$1: $p passed, $f failed, $s skipped"
  passed=$((passed + p))
  failed=$((failed + f))
  skipped=$((skipped + s))
}

# Runs every test/sql/*.sql with test/sqltest.sh through the shell command
# given after $1 and $2 (its words), each in a fresh folder of its own
# (test/run_job.sh sql); lines prefixed with $1, $2 naming the pass.
# $SQL_FILES, when set, names the files instead of test/sql/*.sql.
sql_tests() {
  prefix=$1 tag=$2
  shift 2
  for sql in ${SQL_FILES:-test/sql/*.sql}; do
    [ -f "$sql" ] || continue
    job pool "sql-$tag/$sql" sh test/run_job.sh sql "$work" "$tag" "$sql" "$@" &&
      tally "$sql" "$rc" "$prefix" '^(FAIL|SKIP|  )'
  done
}

# Runs every query of sql/ through the shell command given after $1 and $2
# exactly as a user would: `sqlite3 -batch :memory: < sql/x.sql` (no .load
# added: each file loads build/levelsql itself) in a folder holding
# build/levelsql.so (a link to this build's extension, the sanitized one
# under `make asan`) and a fresh copy of the samples in build/samples, twice
# (test/run_job.sh cookbook).  Lines prefixed with $1, $2 naming the pass.
cookbooks() {
  prefix=$1 tag=$2
  shift 2
  for sql in sql/*.sql; do
    [ -f "$sql" ] || continue
    job pool "cookbook-$tag/$sql" sh test/run_job.sh cookbook "$work" "$tag" "$sql" "$@" || continue
    if [ "$rc" -ne 0 ]; then
      { printf "%s" "${prefix}FAIL $sql: "; cat "$out"; } | head -n 8 | sed "2,\$s|^|$prefix  |"
      failed=$((failed + 1))
    else
      passed=$((passed + 1))
    fi
  done
}

# Prints its arguments, except while the jobs are being planned.
say() { [ "$mode" = plan ] || echo "$@"; }

# The two SQL runners: the system's sqlite3 shell, and sqlrun linked with
# the newer SQLite.
shell_env=""
if [ "${LEVELSQL_SANITIZED:-0}" = 1 ]; then
  # the sqlite3 shell is not instrumented: preload the sanitizer runtimes
  shell_env="LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0:abort_on_error=1"
fi
newsql_shell() { "$BUILD_ABS/newsql/sqlrun" -batch :memory:; }

# Walks the job pool in the current mode, then, when planning, runs what it
# planned and walks it again to tally.
walk_jobs() {
  job_number=0
  "$1"
  [ "$mode" = plan ] || return 0
  run_planned_jobs
  mode=tally
  job_number=0
  "$1"
}

# `make tsan` (test/tsan.sh): only the SQL tests of $SQL_FILES, through
# $BUILD/tools/sqlrun (instrumented like the extension), lines labelled
# with $LEVELSQL_SQL_ONLY.
sql_only() { sql_tests "$LEVELSQL_SQL_ONLY" only "$BUILD_ABS/tools/sqlrun" -batch :memory:; }
if [ -n "${LEVELSQL_SQL_ONLY:-}" ]; then
  walk_jobs sql_only
  echo "$passed passed, $failed failed, $skipped skipped"
  [ "$failed" -eq 0 ]
  exit
fi

# Tallies what a host check job left (a script ending in a RESULT line),
# named $1, with its lines prefixed with $2.
host_tally() { tally "$1" "$rc" "$2" '^(FAIL|SKIP)'; }

# The newer SQLite's version, when `make newsql` built it.
newsql_version=""
[ -x "$BUILD/newsql/sqlrun" ] && newsql_version=$(echo 'SELECT sqlite_version();' | newsql_shell 2>&1)

# The whole suite, as a list of jobs (see job) and of quick checks made
# while tallying.
whole_suite() {
  # 6. the include graph of codecs/ and ext/ (test/include_graph.py)
  job pool include_graph python3 test/include_graph.py && tally test/include_graph.py "$rc" "" '^FAIL'
  # 1-3. On the system SQLite: C unit tests, SQL tests, cookbooks.
  c_tests "$BUILD/tests" ""
  sql_tests "" system env $shell_env sqlite3 -batch :memory:
  cookbooks "" system env $shell_env sqlite3 -batch :memory:
  # ... and the Python package, installed with pip into a venv of Debian's
  # /usr/bin/python3 (test/python/package.sh)
  job pool host/package env PY_ENV="$shell_env" sh test/python/package.sh "$BUILD" "$work/samples.orig" &&
    host_tally test/python/package.sh ""
  # ... and the README's front door (test/readme.py): a fresh `make demo`
  # output in a scratch folder draws the pictures of docs/, and every SQL
  # example of README.md runs there as written
  job pool host/readme env $shell_env python3 test/readme.py "$BUILD" "$work/samples.orig" &&
    host_tally test/readme.py ""
  # ... and the sqlite-utils recipe of the README (test/hosts/sqlite_utils.sh)
  job pool host/sqlite_utils env $shell_env sh test/hosts/sqlite_utils.sh "$BUILD" "$work/samples.orig" &&
    host_tally test/hosts/sqlite_utils.sh ""
  # ... and the atlas in a real browser: Debian's chromium, headless, through
  # chromedriver (test/hosts/atlas_browser.py; skipped when not installed)
  job pool host/atlas_browser env $shell_env python3 test/hosts/atlas_browser.py "$BUILD" "$work/samples.orig" &&
    host_tally test/hosts/atlas_browser.py ""
  # ... and the statements DB Browser for SQLite sends for a grid edit, Write
  # Changes and Revert (test/hosts/dbbrowser.sh)
  job pool host/dbbrowser env $shell_env sh test/hosts/dbbrowser.sh "$BUILD" "$work/samples.orig" sqlite3 &&
    host_tally test/hosts/dbbrowser.sh ""
  # ... and Node's better-sqlite3 (test/hosts/better_sqlite3.sh; built once
  # from the npm registry into $BUILD/hosts/better-sqlite3, in the
  # background from the start of the run: this job waits for it)
  job alone host/better_sqlite3 env $shell_env sh test/hosts/better_sqlite3.sh "$BUILD" "$work/samples.orig" &&
    host_tally test/hosts/better_sqlite3.sh ""
  [ "$mode" = plan ] || quick_checks
  # 4b. The SQL tests that compress and write maps, run through a copy of
  # sqlrun whose own decoy zlib aborts when called (test/hosts/decoy_zlib.c):
  # the extension carries its zlib and libpng inside (README, "Platforms").
  # (not the *_corpus.sql files: the same compression paths over more
  # maps, 21 s of the suite's time)
  SQL_FILES=$(ls test/sql/samples.sql test/sql/tw_*.sql | grep -v '_corpus\.sql$')
  sql_tests "[decoy zlib] " decoy "$BUILD_ABS/hosts/sqlrun-decoy-zlib" -batch :memory:
  SQL_FILES=""
  cookbooks "[decoy zlib] " decoy "$BUILD_ABS/hosts/sqlrun-decoy-zlib" -batch :memory:
  # 5. The same on the newer SQLite, when `make newsql` could build it.
  if [ -n "$newsql_version" ]; then
    label="[$newsql_version] "
    [ "$mode" = plan ] || newsql_check "$label"
    # (the comparisons with DDNet's tools check bytes the codec writes,
    # whatever the SQLite: made once, in the system SQLite's pass)
    c_tests "$BUILD/tests-newsql" "$label" LEVELSQL_PEER_CHECKS=0
    sql_tests "$label" newsql "$BUILD_ABS/newsql/sqlrun" -batch :memory:
    cookbooks "$label" newsql "$BUILD_ABS/newsql/sqlrun" -batch :memory:
    job pool newsql/host/dbbrowser sh test/hosts/dbbrowser.sh "$BUILD" "$work/samples.orig" "$BUILD_ABS/newsql/sqlrun" &&
      host_tally test/hosts/dbbrowser.sh "$label"
  else
    say "SKIP the newer SQLite: $BUILD/newsql/sqlrun is absent (\`make newsql\` fetches it with npm; see tools/newer-sqlite.sh)"
    [ "$mode" = plan ] || skipped=$((skipped + 1))
  fi
}

# 4. The quick checks, made while tallying: sqlrun does what the sqlite3
# shell does with the suite's scripts (both on the system SQLite, in empty
# folders of their own); the README lists exactly the tables and columns
# the extension has; the extension exports its entry point alone and
# carries its zlib and libpng inside (README, "Platforms").
quick_checks() {
  for who in shell sqlrun; do
    mkdir -p "$work/subset-$who"
    if [ "$who" = shell ]; then
      (cd "$work/subset-$who" && sqlite3 -batch :memory: <"$ROOT/test/sqlrun/shell_subset.sql" >../subset-$who.out 2>../subset-$who.err)
    else
      (cd "$work/subset-$who" && "$BUILD_ABS/tools/sqlrun" -batch :memory: <"$ROOT/test/sqlrun/shell_subset.sql" >../subset-$who.out 2>../subset-$who.err)
    fi
    echo "exit code $?" >>"$work/subset-$who.out"
  done
  if cmp -s "$work/subset-shell.out" "$work/subset-sqlrun.out" && cmp -s "$work/subset-shell.err" "$work/subset-sqlrun.err"; then
    passed=$((passed + 1))
  else
    echo "FAIL sqlrun differs from the sqlite3 shell on test/sqlrun/shell_subset.sql (< shell, > sqlrun):"
    { diff "$work/subset-shell.out" "$work/subset-sqlrun.out"; diff "$work/subset-shell.err" "$work/subset-sqlrun.err"; } | head -n 20
    failed=$((failed + 1))
  fi
  fresh=$(env $shell_env sh tools/readme_tables.sh "$LEVELSQL_EXT" 2>&1)
  documented=$(sed -n '/<!-- tables:begin -->/,/<!-- tables:end -->/p' README.md | sed '1d;$d')
  if [ -n "$fresh" ] && [ "$fresh" = "$documented" ]; then
    passed=$((passed + 1))
  else
    echo "FAIL README.md: the table reference is stale; run 'make readme'"
    failed=$((failed + 1))
  fi
  exported=$(nm -D --defined-only "$BUILD_ABS/levelsql.so" 2>&1 | awk '{print $NF}')
  if [ "$exported" = sqlite3_levelsql_init ]; then
    passed=$((passed + 1))
  else
    echo "FAIL $BUILD/levelsql.so exports more (or other) than sqlite3_levelsql_init:" $exported | cut -c1-300
    failed=$((failed + 1))
  fi
  linked=$(readelf -d "$BUILD_ABS/levelsql.so" 2>&1 | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  case "$linked" in
    *libz.so*) echo "FAIL $BUILD/levelsql.so links the shared zlib: $linked"; failed=$((failed + 1)) ;;
    *libpng*) echo "SKIP $BUILD/levelsql.so links the shared libpng ($linked): libpng's source could not be obtained (see build/libpng/link.txt)"; skipped=$((skipped + 1)) ;;
    *) passed=$((passed + 1)) ;;
  esac
}

# 5. (while tallying) the second builds really use the newer SQLite: a newer
# version, compiled in, and no libsqlite3.so among the libraries they load;
# prints the pass's heading first.  $1: the pass's label.
newsql_check() {
  system_version=$(echo 'SELECT sqlite_version();' | "$BUILD/tools/sqlrun" 2>&1)
  echo "== the suite again on SQLite $newsql_version (the system's is $system_version)"
  wrong=""
  [ "$newsql_version" != "$system_version" ] || wrong="sqlrun reports the system's SQLite version"
  for t in "$BUILD/newsql/sqlrun" "$BUILD"/tests-newsql/test_*; do
    [ -x "$t" ] || continue
    if ! grep -qF "$newsql_version" "$t" || readelf -d "$t" 2>/dev/null | grep -q 'NEEDED.*libsqlite3'; then
      wrong="$wrong $(basename "$t") is not linked with SQLite $newsql_version alone;"
    fi
  done
  if [ -z "$wrong" ]; then
    passed=$((passed + 1))
  else
    echo "${1}FAIL $wrong"
    failed=$((failed + 1))
  fi
}

# Node's better-sqlite3 takes minutes to build the first time: build it in
# the background while the pool runs (not for sanitized builds, where its
# test is skipped).
if [ "$mode" = plan ] && [ "${LEVELSQL_SANITIZED:-0}" = 0 ] && command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  mkdir -p "$BUILD_ABS/hosts"
  sh test/hosts/better_sqlite3_build.sh "$BUILD_ABS/hosts/better-sqlite3" 2>"$BUILD_ABS/hosts/better-sqlite3.log" &
  background_build=$!
fi
walk_jobs whole_suite

# 6. the real corpus is exactly as it was.
if [ "$(corpus_sum)" = "$corpus_before" ]; then
  passed=$((passed + 1))
else
  echo "FAIL the suite changed files in $LEVELSQL_CORPUS"
  failed=$((failed + 1))
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
