#!/bin/sh
# How much code a table column costs: per family and in total, the lines of
# the family's table files (ext/**/<family>_tables.c), the columns its
# registered tables declare (levelsql_columns of the built extension,
# without the engine's own file, source and options columns), and lines per
# column.  The last column of the table counts the engine's three as well
# (every column levelsql_columns lists), as issue 25 first measured.  The
# line `four` sums the four families issue 25 set its target for (wwd, tw,
# wed, wz4: at most 5.5 lines per column); `total` adds the later ones.
#
#   sh tools/house_metrics.sh [BUILD]      (default build; needs BUILD/levelsql.so)
#
# Files are found by name anywhere under ext/, so the numbers hold when
# the families move into folders of their own.  SQL runs through the
# sqlite3 shell, else BUILD/tools/sqlrun.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
EXT="$BUILD/levelsql"
[ -f "$EXT.so" ] || { echo "house_metrics: $EXT.so is not built (make)" >&2; exit 2; }
if command -v sqlite3 >/dev/null 2>&1; then SQL="sqlite3 -batch :memory:"
elif [ -x "$BUILD/tools/sqlrun" ]; then SQL="$BUILD/tools/sqlrun -batch :memory:"
else echo "house_metrics: neither sqlite3 nor $BUILD/tools/sqlrun" >&2; exit 2
fi

# family|declared|all, one line per table family
counts=$(printf '.load %s\n%s\n' "$EXT" "
SELECT substr(table_name, 1, instr(table_name, '_') - 1) AS family,
       sum(column_name NOT IN ('file', 'source', 'options')), count(*)
FROM levelsql_columns WHERE family IN ('wwd', 'tw', 'wed', 'wz4', 'are', 'tis') GROUP BY family;" | $SQL) ||
  { echo "house_metrics: levelsql_columns could not be read" >&2; exit 2; }

# The lines of the files named (found under ext/), summed.
lines_of() {
  total=0
  for name in "$@"; do
    for f in $(find ext -name "$name" -type f); do total=$((total + $(wc -l <"$f"))); done
  done
  echo "$total"
}

# lines / columns with one decimal (awk: POSIX sh has no fractions).
ratio() { awk -v l="$1" -v c="$2" 'BEGIN { if (c > 0) printf "%.1f", l / c; else printf "-" }'; }

printf '%-6s %6s %9s %9s %10s %10s\n' family lines columns per_col all_cols per_all
sum_lines=0 sum_decl=0 sum_all=0
for family in wwd tw wed wz4 are tis; do
  lines=$(lines_of "${family}_tables.c")
  line=$(echo "$counts" | grep "^$family|") || line="$family|0|0"
  decl=$(echo "$line" | cut -d'|' -f2)
  all=$(echo "$line" | cut -d'|' -f3)
  printf '%-6s %6d %9d %9s %10d %10s\n' "$family" "$lines" "$decl" "$(ratio "$lines" "$decl")" "$all" "$(ratio "$lines" "$all")"
  sum_lines=$((sum_lines + lines)) sum_decl=$((sum_decl + decl)) sum_all=$((sum_all + all))
  # issue 25's target is over the four families it measured
  [ "$family" = wz4 ] && four_lines=$sum_lines four_decl=$sum_decl four_all=$sum_all
done
printf '%-6s %6d %9d %9s %10d %10s   (wwd tw wed wz4: the house target, at most 5.5 per_all)\n' four "$four_lines" "$four_decl" \
  "$(ratio "$four_lines" "$four_decl")" "$four_all" "$(ratio "$four_lines" "$four_all")"
printf '%-6s %6d %9d %9s %10d %10s\n' total "$sum_lines" "$sum_decl" "$(ratio "$sum_lines" "$sum_decl")" "$sum_all" \
  "$(ratio "$sum_lines" "$sum_all")"
