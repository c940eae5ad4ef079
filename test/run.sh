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
#     both SQLites, and Node's better-sqlite3 (test/hosts/better_sqlite3.sh);
#  5. when $BUILD/newsql/sqlrun exists (`make newsql`: a newer SQLite, see
#     tools/newer-sqlite.sh), 1-3 again on that SQLite: the C tests of
#     $BUILD/tests-newsql/ and the scripts through sqlrun, every line
#     labelled "[VERSION]"; without it, one skip.
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
out=$(mktemp)
trap 'rm -f "$out"' EXIT

work=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$work"' EXIT
sh tools/gen_samples.sh "$BUILD" "$work/samples.orig" >/dev/null || { echo "FAIL tools/gen_samples.sh"; failed=$((failed + 1)); }
LEVELSQL_SAMPLES="$work/samples.orig"
export LEVELSQL_SAMPLES
"$BUILD/tests/fixtures" "$work/samples.orig" "$work/fixtures.orig" ${LEVELSQL_CORPUS:+"$LEVELSQL_CORPUS"} >/dev/null ||
  { echo "FAIL $BUILD/tests/fixtures"; failed=$((failed + 1)); }

# Runs every C test in folder $1 (test_*), printing their FAIL and SKIP
# lines and a count per test, each line prefixed with $2.
c_tests() {
  for t in "$1"/test_*; do
    name=$(basename "$t")
    # (a test whose source is gone may linger in an old build folder)
    [ -x "$t" ] && [ -f "test/unit/$name.c" ] || continue
    "$t" >"$out" 2>&1
    tally "$name" $? "$2" '^(FAIL|SKIP|INFO)'
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
  p=$(echo "$line" | sed 's/.*passed=\([0-9]*\).*/\1/')
  f=$(echo "$line" | sed 's/.*failed=\([0-9]*\).*/\1/')
  s=$(echo "$line" | sed 's/.*skipped=\([0-9]*\).*/\1/')
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
# given after $1 (its words), each in a fresh folder holding copies of the
# samples, of the fixtures and, when the file needs it and the real corpus
# exists, of the corpus (never a link back); lines prefixed with $1.
# $SQL_FILES, when set, names the files instead of test/sql/*.sql.
sql_tests() {
  prefix=$1
  shift
  for sql in ${SQL_FILES:-test/sql/*.sql}; do
    [ -f "$sql" ] || continue
    dir="$work/sql-$(basename "$sql" .sql)"
    mkdir -p "$dir"
    cp -r "$work/samples.orig" "$dir/samples"
    cp -r "$work/fixtures.orig" "$dir/fixtures"
    if [ -n "${LEVELSQL_CORPUS:-}" ] && head -n 1 "$sql" | grep -q '^-- *requires: *corpus'; then
      mkdir -p "$dir/corpus"
      cp -RL "$LEVELSQL_CORPUS/." "$dir/corpus/"
      chmod -R u+w "$dir/corpus"
    fi
    sh test/sqltest.sh -C "$dir" "$sql" "$@" >"$out" 2>&1
    tally "$sql" $? "$prefix" '^(FAIL|SKIP|  )'
    rm -rf "$dir"
  done
}

# Runs every query of sql/ through the command $1 (a shell function that
# reads a script on stdin) exactly as a user would: `sqlite3 -batch :memory:
# < sql/x.sql` (no .load added: each file loads build/levelsql itself) in a
# folder holding build/levelsql.so (a link to this build's extension, the
# sanitized one under `make asan`) and a fresh copy of the samples in
# build/samples.  Any output on stderr fails it.  Each file runs twice in
# that folder: both runs must print the same, and build/samples must be as
# it was (a cookbook writes only into the scratch copy it makes).  Lines
# prefixed with $2.
cookbooks() {
  for sql in sql/*.sql; do
    [ -f "$sql" ] || continue
    name=$(basename "$sql")
    dir="$work/user"
    mkdir -p "$dir/build"
    ln -s "$BUILD_ABS/levelsql.so" "$dir/build/levelsql.so"
    cp -r "$work/samples.orig" "$dir/build/samples"
    problem=""
    for run in 1 2; do
      ( cd "$dir" && $1 <"$ROOT/$sql" ) >"$work/user.out$run" 2>"$work/user.err"
      rc=$?
      if [ $rc -ne 0 ] || [ -s "$work/user.err" ]; then
        problem="run $run exited $rc: $(head -n 5 "$work/user.err")"
        break
      fi
    done
    if [ -z "$problem" ] && ! cmp -s "$work/user.out1" "$work/user.out2"; then
      problem="a second run prints other results: $(diff "$work/user.out1" "$work/user.out2" | head -n 5)"
    fi
    if [ -z "$problem" ] && ! diff -r "$work/samples.orig" "$dir/build/samples" >"$work/user.err" 2>&1; then
      problem="it changed build/samples: $(head -n 5 "$work/user.err")"
    fi
    if [ -n "$problem" ]; then
      printf "%s\n" "${2}FAIL sql/$name: $problem" | head -n 8 | sed "2,\$s|^|$2  |"
      failed=$((failed + 1))
    else
      passed=$((passed + 1))
    fi
    rm -rf "$dir" "$work/user.err" "$work/user.out1" "$work/user.out2"
  done
}

# The two SQL runners: the system's sqlite3 shell, and sqlrun linked with
# the newer SQLite.
shell_env=""
if [ "${LEVELSQL_SANITIZED:-0}" = 1 ]; then
  # the sqlite3 shell is not instrumented: preload the sanitizer runtimes
  shell_env="LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0:abort_on_error=1"
fi
system_shell() { env $shell_env sqlite3 -batch :memory:; }
newsql_shell() { "$BUILD_ABS/newsql/sqlrun" -batch :memory:; }

# `make tsan` (test/tsan.sh): only the SQL tests of $SQL_FILES, through
# $BUILD/tools/sqlrun (instrumented like the extension), lines labelled
# with $LEVELSQL_SQL_ONLY.
if [ -n "${LEVELSQL_SQL_ONLY:-}" ]; then
  sql_tests "$LEVELSQL_SQL_ONLY" "$BUILD_ABS/tools/sqlrun" -batch :memory:
  echo "$passed passed, $failed failed, $skipped skipped"
  [ "$failed" -eq 0 ]
  exit
fi

# 6. (first: it takes no time) the include graph of codecs/ and ext/
python3 test/include_graph.py >"$out" 2>&1
tally test/include_graph.py $? "" '^FAIL'

# 1-3. On the system SQLite: C unit tests, SQL tests, cookbooks.
c_tests "$BUILD/tests" ""
sql_tests "" env $shell_env sqlite3 -batch :memory:
cookbooks system_shell ""
# ... and the Python package, installed with pip into a venv of Debian's
# /usr/bin/python3 (test/python/package.sh)
PY_ENV="$shell_env" sh test/python/package.sh "$BUILD" "$work/samples.orig" >"$out" 2>&1
tally test/python/package.sh $? "" '^(FAIL|SKIP)'
# ... and the README's front door (test/readme.py): a fresh `make demo`
# output in a scratch folder draws the pictures of docs/, and every SQL
# example of README.md runs there as written
env $shell_env python3 test/readme.py "$BUILD" "$work/samples.orig" >"$out" 2>&1
tally test/readme.py $? "" '^(FAIL|SKIP)'
# ... and the sqlite-utils recipe of the README (test/hosts/sqlite_utils.sh)
env $shell_env sh test/hosts/sqlite_utils.sh "$BUILD" "$work/samples.orig" >"$out" 2>&1
tally test/hosts/sqlite_utils.sh $? "" '^(FAIL|SKIP)'
# ... and the statements DB Browser for SQLite sends for a grid edit, Write
# Changes and Revert (test/hosts/dbbrowser.sh)
env $shell_env sh test/hosts/dbbrowser.sh "$BUILD" "$work/samples.orig" sqlite3 >"$out" 2>&1
tally test/hosts/dbbrowser.sh $? "" '^(FAIL|SKIP)'
# ... and Node's better-sqlite3 (test/hosts/better_sqlite3.sh; built once
# from the npm registry into $BUILD/hosts/better-sqlite3)
env $shell_env sh test/hosts/better_sqlite3.sh "$BUILD" "$work/samples.orig" >"$out" 2>&1
tally test/hosts/better_sqlite3.sh $? "" '^(FAIL|SKIP)'

# 4. sqlrun does what the sqlite3 shell does with the suite's scripts
# (both on the system SQLite, in empty folders of their own).
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

# ... and the README lists exactly the tables and columns the extension has.
fresh=$(env $shell_env sh tools/readme_tables.sh "$LEVELSQL_EXT" 2>&1)
documented=$(sed -n '/<!-- tables:begin -->/,/<!-- tables:end -->/p' README.md | sed '1d;$d')
if [ -n "$fresh" ] && [ "$fresh" = "$documented" ]; then
  passed=$((passed + 1))
else
  echo "FAIL README.md: the table reference is stale; run 'make readme'"
  failed=$((failed + 1))
fi

# 4b. The extension exports its entry point alone and carries its zlib and
# libpng inside (README, "Platforms"), and so uses them in a host that
# exports a zlib of its own: the SQL tests that compress and write maps, run
# through a copy of sqlrun whose own decoy zlib aborts when called
# (test/hosts/decoy_zlib.c).
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
decoy_shell() { "$BUILD_ABS/hosts/sqlrun-decoy-zlib" -batch :memory:; }
SQL_FILES="test/sql/samples.sql test/sql/tw_*.sql"
sql_tests "[decoy zlib] " "$BUILD_ABS/hosts/sqlrun-decoy-zlib" -batch :memory:
SQL_FILES=""
cookbooks decoy_shell "[decoy zlib] "

# 5. The same on the newer SQLite, when `make newsql` could build it.
if [ -x "$BUILD/newsql/sqlrun" ]; then
  version=$(echo 'SELECT sqlite_version();' | newsql_shell 2>&1)
  system_version=$(echo 'SELECT sqlite_version();' | "$BUILD/tools/sqlrun" 2>&1)
  label="[$version] "
  echo "== the suite again on SQLite $version (the system's is $system_version)"
  # the second builds really use it: a newer version, compiled in, and no
  # libsqlite3.so among the libraries they load
  wrong=""
  [ "$version" != "$system_version" ] || wrong="sqlrun reports the system's SQLite version"
  for t in "$BUILD/newsql/sqlrun" "$BUILD"/tests-newsql/test_*; do
    [ -x "$t" ] || continue
    if ! grep -qF "$version" "$t" || readelf -d "$t" 2>/dev/null | grep -q 'NEEDED.*libsqlite3'; then
      wrong="$wrong $(basename "$t") is not linked with SQLite $version alone;"
    fi
  done
  if [ -z "$wrong" ]; then
    passed=$((passed + 1))
  else
    echo "${label}FAIL $wrong"
    failed=$((failed + 1))
  fi
  c_tests "$BUILD/tests-newsql" "$label"
  sql_tests "$label" "$BUILD_ABS/newsql/sqlrun" -batch :memory:
  cookbooks newsql_shell "$label"
  sh test/hosts/dbbrowser.sh "$BUILD" "$work/samples.orig" "$BUILD_ABS/newsql/sqlrun" >"$out" 2>&1
  tally test/hosts/dbbrowser.sh $? "$label" '^(FAIL|SKIP)'
else
  echo "SKIP the newer SQLite: $BUILD/newsql/sqlrun is absent (\`make newsql\` fetches it with npm; see tools/newer-sqlite.sh)"
  skipped=$((skipped + 1))
fi

# 6. the real corpus is exactly as it was.
if [ "$(corpus_sum)" = "$corpus_before" ]; then
  passed=$((passed + 1))
else
  echo "FAIL the suite changed files in $LEVELSQL_CORPUS"
  failed=$((failed + 1))
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
