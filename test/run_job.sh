#!/bin/sh
# One job of the suite (test/run.sh), so that test/run.sh can run many side
# by side (its job pool) or one after another:
#
#   sh test/run_job.sh run JOB
#       runs the command line in the file JOB.cmd from the project root,
#       leaving its output (stdout and stderr) in JOB.out, its exit status
#       in JOB.rc and its wall time in seconds in JOB.time;
#   sh test/run_job.sh sql WORK TAG FILE RUNNER...
#       runs the SQL test FILE (test/sqltest.sh) through the shell command
#       RUNNER in a fresh folder WORK/sql-TAG-NAME holding copies of
#       WORK/samples.orig (samples/), WORK/fixtures.orig (fixtures/) and,
#       when FILE's first line is "-- requires: corpus" and
#       $LEVELSQL_CORPUS is set, of the corpus (corpus/; never a link
#       back); removes the folder after;
#   sh test/run_job.sh cookbook WORK TAG FILE RUNNER...
#       runs the query file FILE (sql/x.sql) as a user would, twice, through
#       RUNNER in a fresh folder WORK/user-TAG-NAME holding build/levelsql.so
#       (a link to $LEVELSQL_EXT.so) and a copy of the samples in
#       build/samples; any output on stderr, a non-zero exit, two runs that
#       print differently or a change to build/samples fails it: then it
#       prints what went wrong and exits 1.
# Each folder is named after TAG (the pass: system, newsql, ...) and FILE,
# so that jobs running at the same time never share one.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2

# Runs the command line of $1.cmd, timing it (see the header).
run_command_file() {
  start=$(date +%s%N)
  sh "$1.cmd" >"$1.out" 2>&1
  echo $? >"$1.rc"
  end=$(date +%s%N)
  awk -v start="$start" -v end="$end" 'BEGIN { printf "%.2f\n", (end - start) / 1e9 }' >"$1.time"
}

# Sets dir to a fresh, empty folder $1/$2-$3-NAME for the file $4 (NAME:
# its name without .sql), holding the folder $5 (made) and a copy of
# $1/samples.orig in $5/$6.
fresh_folder() {
  dir="$1/$2-$3-$(basename "$4" .sql)"
  rm -rf "$dir"
  mkdir -p "$dir/$5"
  cp -r "$1/samples.orig" "$dir/$5/$6"
}

# Runs the SQL test $3 through the command $4... in a fresh folder under
# $1 named after the pass $2 (see the header).
run_sql_test() {
  work=$1 sql=$3
  fresh_folder "$1" sql "$2" "$3" . samples
  shift 3
  cp -r "$work/fixtures.orig" "$dir/fixtures"
  if [ -n "${LEVELSQL_CORPUS:-}" ] && head -n 1 "$sql" | grep -q '^-- *requires: *corpus'; then
    mkdir -p "$dir/corpus"
    cp -RL "$LEVELSQL_CORPUS/." "$dir/corpus/"
    chmod -R u+w "$dir/corpus"
  fi
  sh test/sqltest.sh -C "$dir" "$sql" "$@"
  status=$?
  rm -rf "$dir"
  return $status
}

# Runs the query file $3 twice as a user would through the command $4...
# in a fresh folder under $1 named after the pass $2; prints the problem
# and returns 1 when there is one (see the header).
run_cookbook() {
  work=$1 sql=$3
  fresh_folder "$1" user "$2" "$3" build samples
  shift 3
  ln -s "$LEVELSQL_EXT.so" "$dir/build/levelsql.so"
  problem=""
  for run in 1 2; do
    (cd "$dir" && "$@" <"$ROOT/$sql") >"$dir.out$run" 2>"$dir.err"
    rc=$?
    if [ $rc -ne 0 ] || [ -s "$dir.err" ]; then
      problem="run $run exited $rc: $(head -n 5 "$dir.err")"
      break
    fi
  done
  if [ -z "$problem" ] && ! cmp -s "$dir.out1" "$dir.out2"; then
    problem="a second run prints other results: $(diff "$dir.out1" "$dir.out2" | head -n 5)"
  fi
  if [ -z "$problem" ] && ! diff -r "$work/samples.orig" "$dir/build/samples" >"$dir.err" 2>&1; then
    problem="it changed build/samples: $(head -n 5 "$dir.err")"
  fi
  rm -rf "$dir" "$dir.err" "$dir.out1" "$dir.out2"
  [ -z "$problem" ] && return 0
  printf "%s\n" "$problem"
  return 1
}

what=${1:?usage: sh test/run_job.sh run JOB | sql WORK TAG FILE RUNNER... | cookbook WORK TAG FILE RUNNER...}
shift
case "$what" in
  run) run_command_file "$1" ;;
  sql) run_sql_test "$@" ;;
  cookbook) run_cookbook "$@" ;;
  *) echo "run_job.sh: unknown job kind $what" >&2; exit 2 ;;
esac
