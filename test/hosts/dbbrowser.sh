#!/bin/sh
# The README's DB Browser for SQLite recipe (README, "Platforms and hosts"),
# through the statements DB Browser sends (sqlitebrowser's src/sqlitedb.cpp:
# setSavepoint, updateRecord, releaseAllSavepoints, revertAll):
#
#   a grid edit:    SAVEPOINT "RESTOREPOINT";
#                   UPDATE "main"."t" SET "col"=? WHERE "_rowid_"='N';
#                   (then it re-reads the row and the grid)
#   Write Changes:  RELEASE "RESTOREPOINT";   (and COMMIT; if a transaction is left)
#   Revert Changes: ROLLBACK TO SAVEPOINT "RESTOREPOINT"; RELEASE "RESTOREPOINT";
#
# on a levels.db holding CREATE VIRTUAL TABLE definitions over a WWD level
# (wwd_objects) and a Teeworlds map (tw_groups), opened first and the
# extension loaded after it, as DB Browser does.  DB Browser binds the new
# value as text (sqlite3_bind_text) and quotes the rowid as a string; the
# script writes the same values as text literals ('777', '5'), which SQLite
# hands to the virtual table exactly as it would the bound text.
# Checked: after Revert both files are byte for byte and by modification
# time what they were, and nothing is left beside them; after Write Changes
# a new connection reads the edit, the files are byte-identical to copies
# edited by a plain UPDATE, and a dump of every table of both formats
# differs from the original's in the edited cell alone.
#
#   sh test/hosts/dbbrowser.sh BUILD SAMPLES RUNNER [ARGS...]
#
# RUNNER is the SQLite shell to send the statements with (the sqlite3 shell,
# or build/newsql/sqlrun for the newer SQLite); it is run as
# `RUNNER ARGS... -batch :memory:` with the script on stdin.
# Ends with "RESULT passed=N failed=N skipped=N".
set -u
usage="usage: sh test/hosts/dbbrowser.sh BUILD SAMPLES RUNNER [ARGS...]"
BUILD_ABS=$(cd "${1:?$usage}" && pwd)
SAMPLES=$(cd "${2:?$usage}" && pwd)
shift 2
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
EXT="$BUILD_ABS/levelsql"
WWD=SAMPLE01.WWD
MAP=dm_sample.map
. "$(dirname "$0")/check.sh"
# Runs the SQL on stdin with the runner, in the folder $1.
sql() { dir=$1; shift; (cd "$dir" && "$runner_cmd" $runner_args -batch :memory:) 2>&1; }
runner_cmd=$1
case "$runner_cmd" in */*) runner_cmd=$(cd "$(dirname "$runner_cmd")" && pwd)/$(basename "$runner_cmd") ;; esac
shift
runner_args="$*"
command -v "$runner_cmd" >/dev/null 2>&1 || { echo "FAIL the runner $runner_cmd is missing"; echo "RESULT passed=0 failed=1 skipped=0"; exit 1; }

tmp=$(mktemp -d); [ -z "${KEEP:-}" ] || echo "$tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
for d in orig gui plain; do
  mkdir -p "$tmp/$d"
  cp "$SAMPLES/$WWD" "$SAMPLES/$MAP" "$tmp/$d/"
done
[ -f "$tmp/orig/$WWD" ] && [ -f "$tmp/orig/$MAP" ] || { echo "FAIL the samples $WWD and $MAP are missing in $SAMPLES"; echo "RESULT passed=0 failed=1 skipped=0"; exit 1; }
G="$tmp/gui"

# The .db DB Browser opens: only the virtual tables' definitions.
got=$(sql "$G" <<EOF
.open $G/levels.db
.load $EXT
CREATE VIRTUAL TABLE objs USING wwd_objects('$G/$WWD');
CREATE VIRTUAL TABLE grps USING tw_groups('$G/$MAP');
SELECT count(*) > 0 FROM objs;
EOF
)
check "levels.db with CREATE VIRTUAL TABLE definitions" "$got" 1
# The rows to edit: the first row of each grid, read in another process
# than the session's below (a row id names the same row in every
# connection: README, "Writing, safely"), after the same browse queries;
# the key columns too, for the plain UPDATEs.
browse='SELECT COUNT(*) > 0 FROM (SELECT "_rowid_",* FROM "main"."objs");
SELECT COUNT(*) > 0 FROM (SELECT "_rowid_",* FROM "main"."grps");'
first=$(printf '.open %s\n.load %s\n%s\nSELECT min(_rowid_) FROM objs;\nSELECT min(_rowid_) FROM grps;\n' "$G/levels.db" "$EXT" "$browse" | sql "$G" | tr '\n' ' ')
set -- $first
rowid_obj=${3:-}
rowid_grp=${4:-}
keys=$(printf '.open %s\n.load %s\n%s\nSELECT id, score FROM objs WHERE _rowid_ = %s;\nSELECT grp, name FROM grps WHERE _rowid_ = %s;\n' \
  "$G/levels.db" "$EXT" "$browse" "$rowid_obj" "$rowid_grp" | sql "$G" | tail -n 2 | tr '\n' '|')
IFS='|' read -r obj_id old_score grp old_name <<EOF
$keys
EOF
case "$old_score" in ''|*[!0-9-]*) echo "FAIL no object row to edit in $WWD: '$rowid_obj' '$old_score'"; failed=$((failed + 1)) ;; esac
[ "$old_score" != 777 ] || { echo "FAIL the sample's score is already 777"; failed=$((failed + 1)); }

stamp() { stat -c '%s %y' "$G/$WWD" "$G/$MAP"; }
listing() { ls -A "$G"; }
stamp_before=$(stamp)
listing_before=$(listing)

# The statements of a session: DB Browser's browse queries, two grid edits
# (one per file), then $1 (Revert or Write Changes); the grid's re-read
# after each edit and the values at the end are printed.
session() {
  sql "$G" <<EOF
.open $G/levels.db
.load $EXT
$browse
SELECT count(*) > 0 FROM (SELECT "_rowid_",* FROM "main"."objs" LIMIT 0, 50000);
SAVEPOINT "RESTOREPOINT";
UPDATE "main"."objs" SET "score"='777' WHERE "_rowid_"='$rowid_obj';
SELECT 'grid', "score" FROM "main"."objs" WHERE "_rowid_"='$rowid_obj';
UPDATE "main"."grps" SET "name"='dbb' WHERE "_rowid_"='$rowid_grp';
SELECT 'grid', "name" FROM "main"."grps" WHERE "_rowid_"='$rowid_grp';
$1
SELECT 'after', "score" FROM "main"."objs" WHERE "_rowid_"='$rowid_obj';
SELECT 'after', "name" FROM "main"."grps" WHERE "_rowid_"='$rowid_grp';
EOF
}

# Revert Changes
got=$(session 'ROLLBACK TO SAVEPOINT "RESTOREPOINT";
RELEASE "RESTOREPOINT";' | tr '\n' ' ')
check "DB Browser's edit, then Revert: what the grid shows" "$got" "1 1 1 grid|777 grid|dbb after|$old_score after|$old_name "
cmp -s "$G/$WWD" "$tmp/orig/$WWD" && cmp -s "$G/$MAP" "$tmp/orig/$MAP"
check "after Revert the files hold their bytes" $? 0
check "after Revert the files were not touched (size, modification time)" "$(stamp)" "$stamp_before"
check "after Revert nothing is left beside the files" "$(listing)" "$listing_before"

# Write Changes (DB Browser sends COMMIT too only when a transaction is
# still open: none is after RELEASE of the outermost savepoint)
got=$(session 'RELEASE "RESTOREPOINT";' | tr '\n' ' ')
check "DB Browser's edit, then Write Changes: what the grid shows" "$got" "1 1 1 grid|777 grid|dbb after|777 after|dbb "
got=$(printf '.load %s\nSELECT score FROM wwd_objects(%s) WHERE id = %s;\nSELECT name FROM tw_groups(%s) WHERE grp = %s;\n' \
  "$EXT" "'$G/$WWD'" "$obj_id" "'$G/$MAP'" "$grp" | sql "$G" | tr '\n' ' ')
check "after Write Changes a new connection reads the edit" "$got" "777 dbb "
check "after Write Changes nothing is left beside the files" "$(listing)" "$listing_before"

# The same edit as plain UPDATEs on the third copy: the same bytes.
P="$tmp/plain"
got=$(sql "$P" <<EOF
.load $EXT
UPDATE wwd_objects SET score = '777' WHERE source = '$P/$WWD' AND id = $obj_id;
UPDATE tw_groups SET name = 'dbb' WHERE source = '$P/$MAP' AND grp = $grp;
SELECT changes();
EOF
)
check "the plain UPDATEs" "$got" 1
cmp -s "$G/$WWD" "$P/$WWD"
check "the file written after Write Changes is the plain UPDATE's, byte for byte ($WWD)" $? 0
cmp -s "$G/$MAP" "$P/$MAP"
check "the file written after Write Changes is the plain UPDATE's, byte for byte ($MAP)" $? 0

# Every table of both formats, dumped from the original and from the
# written files (paths made alike; without the columns that are the file's
# checksums, which change with any edit): they differ in the edited cells
# alone.
dump() { # folder
  tables=$(printf '.load %s\nSELECT name FROM pragma_module_list WHERE name GLOB %s OR name GLOB %s ORDER BY name;\n' "$EXT" "'wwd_*'" "'tw_*'" | sql "$1")
  for t in $tables; do
    case "$t" in wwd_*) f="$1/$WWD" ;; *) f="$1/$MAP" ;; esac
    cols=$(printf '.load %s\nSELECT group_concat(%s, %s) FROM pragma_table_info(%s) WHERE name NOT IN (%s);\n' \
      "$EXT" "'\"' || name || '\"'" "','" "'$t'" "'crc32', 'sha256', 'checksum', 'checksum_computed'" | sql "$1")
    printf '.load %s\nSELECT %s, %s FROM %s(%s);\n' "$EXT" "'$t'" "$cols" "$t" "'$f'" | sql "$1" | sed "s|$1/||g"
  done
}
dump "$tmp/orig" >"$tmp/orig.dump"
dump "$G" >"$tmp/gui.dump"
lines=$(wc -l <"$tmp/orig.dump")
[ "$lines" -gt 20 ] || { echo "FAIL the dump of the tables is too short ($lines lines)"; failed=$((failed + 1)); }
got=$(diff "$tmp/orig.dump" "$tmp/gui.dump" | grep -c '^[<>]')
check "the written files differ from the originals in two rows (diff lines)" "$got" 4
got=$(diff "$tmp/orig.dump" "$tmp/gui.dump" | grep '^>' | grep -c '|777|\||dbb|')
check "... and the rows that differ are the edited ones" "$got" 2
# (the edited rows with the edit taken back are the original rows)
got=$(diff "$tmp/orig.dump" "$tmp/gui.dump" | grep '^>' | cut -c3- | sed "s/|777|/|$old_score|/; s/|dbb|/|$old_name|/" |
  while IFS= read -r line; do grep -qxF "$line" "$tmp/orig.dump" && echo same; done | grep -c same)
check "... in the edited cells alone" "$got" 2

finish
