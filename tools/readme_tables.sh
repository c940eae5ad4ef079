#!/bin/sh
# Prints the README's table reference (between the markers
# <!-- tables:begin --> and <!-- tables:end -->) from levelsql_columns, so
# the README lists exactly the tables and columns the extension has.
# test/run.sh fails when the README's copy differs from this output.
# With --update README.md, rewrites the block in place (make readme).
set -eu
if [ "${1:-}" = "--update" ]; then
  readme=$2
  EXT=${3:-build/levelsql}
  block=$(sh "$0" "$EXT")
  awk -v block="$block" '
    /<!-- tables:begin -->/ { print; print block; skip = 1; next }
    /<!-- tables:end -->/ { skip = 0 }
    !skip { print }' "$readme" >"$readme.tmp" && mv "$readme.tmp" "$readme"
  exit 0
fi
EXT=${1:-build/levelsql}
printf '.load %s\n.mode list\n.separator "\\t"\n%s\n' "$EXT" \
  "SELECT table_name, column_name, type, writable, pushed_down, doc, table_doc FROM levelsql_columns;" |
  sqlite3 -batch :memory: |
  awk -F '\t' '
    $1 != last {
      if (last != "") print ""
      printf "### %s\n%s.\n\n| column | type | writable | pushed down | meaning |\n|---|---|---|---|---|\n", $1, $7
      last = $1
    }
    { gsub(/\|/, "\\|", $6); printf "| %s | %s | %s | %s | %s |\n", $2, $3, ($4 == 1 ? "yes" : ""), ($5 == 1 ? ($2 == "file" ? "=" : "= < <= > >=") : ""), $6 }'
