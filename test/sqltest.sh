#!/bin/sh
# test/sqltest.sh: runs one SQL test file through an SQLite shell and checks
# what each of its statements does.
#
#   sh test/sqltest.sh [-C DIR] FILE.sql SHELL [ARG...]
#
# e.g. sh test/sqltest.sh -C /tmp/t test/sql/engine.sql sqlite3 -batch :memory:
# runs in DIR (default: here), where the test's relative paths (samples/,
# fixtures/, corpus/) must be; $LEVELSQL_EXT names the extension to load
# (default: build/levelsql, from where the runner was started).  The shell
# is the sqlite3 shell or build/*/sqlrun (tools/sqlrun.c): anything that
# reads a script on stdin as `sqlite3 -batch` does.
#
# The file format.  A test file is a script for the sqlite3 shell
# (statements ending with ';', dot-commands, comments), run on one
# connection with the extension loaded, in list mode without headers (a
# row is its columns joined by '|', NULL is empty).  A statement is what the
# shell runs at once: from its first line to the line where it ends (put
# one statement on those lines; no CREATE TRIGGER).  Comment lines right
# after it (no blank line between) say what it must do; each statement so
# annotated is one test case:
#
#   -- expect: TEXT         its output is exactly these rows: one
#                           `-- expect:` line per row, in order (the one
#                           space after the colon is not part of TEXT;
#                           `-- expect:` alone is an empty row)
#   -- expect rows: N       it succeeds and prints N rows
#   -- expect error: TEXT   it fails, and its message contains TEXT (with
#                           several such lines: every TEXT)
#   -- expect ok            it succeeds; what it prints is not checked
#
# A statement without an annotation must not fail (if it does, that is a
# failed case), and each row it prints is a case in the older style: a row
# ending in '|1' (SELECT 'label', <condition>) passes, any other row fails.
# A line `.open :memory:` (any .open) starts a new connection: the runner
# loads the extension into it.  A file whose first line is `-- requires: corpus` is
# skipped (its cases counted as skipped) when DIR has no corpus/ folder.
#
# How: an awk pass turns the file into a script that prints a marker line
# before each statement, so each statement's output is the lines after its
# marker; the shell reports each error on stderr as "... near line N: ...",
# N the line where that statement starts in the script, so each error is
# matched to its statement.  Every failure is printed as
#   FAIL FILE:LINE: <the statement>
#     want: ...
#     got:  ...
# then, at the end, "RESULT passed=N failed=N skipped=N" (as the C tests
# print it; test/run.sh adds them up).  Exit status 1 when a case failed.
set -u
dir=.
if [ "${1:-}" = -C ]; then
  dir=$2
  shift 2
fi
if [ $# -lt 2 ]; then
  echo "usage: sh test/sqltest.sh [-C DIR] FILE.sql SHELL [ARG...]" >&2
  exit 2
fi
file=$1
shift
case $file in
  /*) path=$file ;;
  *) path=$(pwd)/$file ;;
esac
ext=${LEVELSQL_EXT:-build/levelsql}
# the extension and a shell named by a relative path, from here
case $ext in
  /*) ;;
  *) ext=$(pwd)/$ext ;;
esac
case $1 in
  /*) ;;
  */*) shell=$(pwd)/$1 && shift && set -- "$shell" "$@" ;;
esac
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# Pass 1: the script for the shell ($tmp/script) and the cases ($tmp/cases:
# one record a line, fields separated by \034: "C id line script_line
# kind" (kind sql or dot), "S id statement", "E id expectation text" and "B
# line why" for a comment that is no expectation this runner knows).
awk -v ext="$ext" -v script="$tmp/script" -v cases="$tmp/cases" '
function emit(text) {
  print text > script
  out_lines++
}
# Scans one line of SQL, carrying the quote and comment state over lines;
# sig is the last character outside quotes and comments.
function scan(line,   i, n, c) {
  n = length(line)
  for (i = 1; i <= n; i++) {
    c = substr(line, i, 1)
    if (bc) {
      if (c == "*" && substr(line, i + 1, 1) == "/") { bc = 0; i++ }
      continue
    }
    if (q != "") {
      if (c == q) q = ""
      continue
    }
    if (c == "-" && substr(line, i + 1, 1) == "-") break
    if (c == "/" && substr(line, i + 1, 1) == "*") { bc = 1; i++; continue }
    if (c == " " || c == "\t" || c == "\r") continue
    sig = c
    if (c == "'\''" || c == "\"" || c == "`") q = c
    else if (c == "[") q = "]"
  }
}
function record(kind,   i, text) {
  id++
  emit(".print @@levelsql-case:" id)
  script_line = out_lines + 1
  text = ""
  for (i = 1; i <= nbuf; i++) {
    emit(buf[i])
    text = text (i > 1 ? " " : "") buf[i]
  }
  gsub(/[ \t]+/, " ", text)
  sub(/^ /, "", text)
  printf "C\034%d\034%d\034%d\034%s\n", id, start, script_line, kind > cases
  printf "S\034%d\034%s\n", id, text > cases
  nbuf = 0
}
BEGIN {
  emit(".load " ext)
  emit(".mode list")
  emit(".headers off")
}
{
  line = $0
  sub(/\r$/, "", line)
  if (nbuf == 0) {
    if (line ~ /^[ \t]*--[ \t]*expect/) {
      if (!last) {
        printf "B\034%d\034an expectation that follows no statement: %s\n", NR, line > cases
        next
      }
      if (line ~ /^[ \t]*-- expect: /) { t = line; sub(/^[ \t]*-- expect: /, "", t); printf "E\034%d\034rows\034%s\n", last, t > cases }
      else if (line ~ /^[ \t]*-- expect:$/) printf "E\034%d\034rows\034\n", last > cases
      else if (line ~ /^[ \t]*-- expect rows: [0-9]+[ \t]*$/) { t = line; sub(/^[ \t]*-- expect rows: /, "", t); sub(/[ \t]*$/, "", t); printf "E\034%d\034count\034%s\n", last, t > cases }
      else if (line ~ /^[ \t]*-- expect error: /) { t = line; sub(/^[ \t]*-- expect error: /, "", t); printf "E\034%d\034error\034%s\n", last, t > cases }
      else if (line ~ /^[ \t]*-- expect ok[ \t]*$/) printf "E\034%d\034ok\034\n", last > cases
      else printf "B\034%d\034not an expectation this runner knows: %s\n", NR, line > cases
      next
    }
    last = 0
    if (substr(line, 1, 1) == ".") {
      buf[1] = line
      nbuf = 1
      start = NR
      record("dot")
      if (line ~ /^\.open([ \t]|$)/) emit(".load " ext)
      next
    }
    if (substr(line, 1, 1) == "#") next
    q = ""
    bc = 0
    sig = ""
    scan(line)
    if (!bc && sig == "") next
    start = NR
  } else {
    scan(line)
  }
  buf[++nbuf] = line
  if (!bc && q == "" && sig == ";") {
    record("sql")
    last = id
  }
}
END {
  if (nbuf > 0) record("sql")
}' "$path" || exit 2

name=$file
if head -n 1 "$path" | grep -q '^-- *requires: *corpus' && [ ! -d "$dir/corpus" ]; then
  # the cases it would have: annotated statements, and the others that
  # print rows (SELECT, WITH, VALUES: one label row each, it is assumed)
  n=$(awk -F '\034' '$1 == "E" { e[$2] = 1 } $1 == "S" { s[$2] = tolower($3) }
    END { for (c in s) if ((c in e) || s[c] ~ /^(select|with|values)/) n++; print n + 0 }' "$tmp/cases")
  echo "SKIP $name: needs ../shared/corpus ($n cases)"
  echo "RESULT passed=0 failed=0 skipped=$n"
  exit 0
fi

# The shell, in DIR.
(cd "$dir" && "$@" <"$tmp/script" >"$tmp/out" 2>"$tmp/err")
status=$?

# Pass 2: each case's output and error against what it expects.
awk -v name="$name" -v status="$status" -v casesf="$tmp/cases" -v outf="$tmp/out" -v errf="$tmp/err" '
function fail(c, why) {
  failed++
  if (c) printf "FAIL %s:%d: %s\n", name, line[c], (length(stmt[c]) > 300 ? substr(stmt[c], 1, 300) "..." : stmt[c])
  else printf "FAIL %s: %s\n", name, why
  if (c && why != "") print why
}
# The output lines of case c, each as "  got:  <line>" (at most 20).
function got_rows(c,   i, s) {
  if (nout[c] == 0) return "  got:  (no rows)"
  s = ""
  for (i = 1; i <= nout[c] && i <= 20; i++) s = s (i > 1 ? "\n" : "") "  got:  " out[c, i]
  if (nout[c] > 20) s = s "\n  ... " nout[c] " rows"
  return s
}
function got_error(c,   m) {
  m = err[c]
  gsub(/\n/, "\n        ", m)
  return "  got error: " m
}
FILENAME == casesf {
  split($0, f, "\034")
  if (f[1] == "C") { n++; id = f[2]; line[id] = f[3]; at[f[4]] = id; kind[id] = f[5] }
  else if (f[1] == "S") stmt[f[2]] = f[3]
  else if (f[1] == "E") {
    c = f[2]
    t = substr($0, length(f[1] f[2] f[3]) + 4)
    if (want[c] != "" && want[c] != f[3] && !(want[c] == "error" && f[3] == "error")) bad[c] = "conflicting expectations: " want[c] " and " f[3]
    if (f[3] == "count" && want[c] == "count") bad[c] = "two row counts"
    want[c] = f[3]
    nexp[c]++
    ex[c, nexp[c]] = t
  } else if (f[1] == "B") { nbad++; badline[nbad] = f[2]; badwhy[nbad] = f[3] }
  next
}
FILENAME == outf {
  if ($0 ~ /^@@levelsql-case:[0-9]+$/) { cur = substr($0, 17) + 0; seen[cur] = 1; next }
  if (!cur) { nstray++; stray[nstray] = "output before the first statement: " $0; next }
  nout[cur]++
  if (want[cur] == "rows" || kind[cur] == "sql" && want[cur] == "") out[cur, nout[cur]] = $0
  next
}
FILENAME == errf {
  if (match($0, /near line [0-9]+: /)) {
    ln = substr($0, RSTART + 10, RLENGTH - 12) + 0
    c = at[ln]
    if (c) {
      m = substr($0, RSTART + RLENGTH)
      if (c in err) m = err[c] "\n" m
      err[c] = m
      lastc = c
      next
    }
  } else if ($0 ~ /^ / && lastc) {
    err[lastc] = err[lastc] "\n" $0
    next
  }
  lastc = 0
  nstray++
  stray[nstray] = "stderr: " $0
}
END {
  for (i = 1; i <= nbad; i++) { failed++; printf "FAIL %s:%d: %s\n", name, badline[i], badwhy[i] }
  for (c = 1; c <= n; c++) {
    if (kind[c] == "dot") continue
    if (!seen[c]) {
      if (!notrun) fail(c, "  not run: the shell stopped before this statement (exit status " status ")")
      else failed++
      notrun++
      continue
    }
    if (c in bad) { fail(c, "  " bad[c]); continue }
    w = want[c]
    if (w == "") {
      if (c in err) fail(c, got_error(c))
      for (i = 1; i <= nout[c]; i++) {
        if (out[c, i] ~ /\|1$/) passed++
        else fail(c, "  want: a row ending in |1\n  got:  " out[c, i])
      }
    } else if (w == "error") {
      if (!(c in err)) { fail(c, "  want error: " ex[c, 1] "\n  got:  success"); continue }
      miss = ""
      for (i = 1; i <= nexp[c]; i++) if (index(err[c], ex[c, i]) == 0) miss = miss "\n  want error: " ex[c, i]
      if (miss == "") passed++
      else fail(c, substr(miss, 2) "\n" got_error(c))
    } else if (c in err) {
      fail(c, "  want: " (w == "count" ? ex[c, 1] " rows" : w == "ok" ? "success" : ex[c, 1]) "\n" got_error(c))
    } else if (w == "ok") {
      passed++
    } else if (w == "count") {
      if (nout[c] == ex[c, 1] + 0) passed++
      else fail(c, "  want: " ex[c, 1] " rows\n  got:  " nout[c] " rows")
    } else {
      same = nout[c] == nexp[c]
      for (i = 1; same && i <= nexp[c]; i++) same = out[c, i] == ex[c, i]
      if (same) passed++
      else {
        s = ""
        for (i = 1; i <= nexp[c] && i <= 20; i++) s = s "  want: " ex[c, i] "\n"
        fail(c, s got_rows(c))
      }
    }
  }
  if (notrun > 1) printf "  (and %d more statements not run)\n", notrun - 1
  for (i = 1; i <= nstray; i++) {
    failed++
    if (i <= 10) printf "FAIL %s: %s\n", name, stray[i]
  }
  if (status > 128) { failed++; printf "FAIL %s: the shell was killed (exit status %d)\n", name, status }
  printf "RESULT passed=%d failed=%d skipped=0\n", passed, failed
  exit failed > 0
}' "$tmp/cases" "$tmp/out" "$tmp/err"
