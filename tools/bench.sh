#!/bin/sh
# `make bench`: levelsql's speed as ratios to the floor of SQLite's
# virtual-table interface on this machine (the sqlite3 shell's own
# generate_series), all measured in this one run.  Benchmarks never fail
# the build: a missing corpus falls back to the generated samples.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 0
EXT="$ROOT/$BUILD/levelsql"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The levels: the real corpus when present (the bad-signature file left
# out), else the generated samples.
mkdir -p "$work/wwd"
if [ -d ../shared/corpus/wwd ]; then
  for f in ../shared/corpus/wwd/*; do
    case "$f" in *badsig*) ;; *) cp "$f" "$work/wwd/" ;; esac
  done
  what="real WWD corpus ($(ls "$work/wwd" | wc -l) files)"
else
  cp "$BUILD"/samples/*.WWD "$work/wwd/"
  what="generated samples ($(ls "$work/wwd" | wc -l) files; ../shared/corpus absent)"
fi
chmod -R u+w "$work/wwd"
# the largest compressed level: the one whose header flags have bit 0x2
largest=$(for f in "$work"/wwd/*; do
  flags=$(od -An -tu4 -j8 -N4 "$f" | tr -d ' ')
  [ $((flags & 2)) -ne 0 ] && echo "$(wc -c <"$f") $f"
done | sort -n | tail -n 1 | cut -d' ' -f2)

# Runs SQL (after loading the extension) and prints the real seconds of each
# statement, one per line.
timed() {
  { printf '.load %s\n.timer on\n' "$EXT"; cat; } | (cd "$work" && sqlite3 -batch :memory:) 2>&1 |
    sed -n 's/^Run Time: real \([0-9.]*\).*/\1/p'
}
# best of N runs of one statement (warm)
best() {
  n=$1
  sql=$2
  i=0
  while [ $i -lt "$n" ]; do echo "$sql"; i=$((i + 1)); done | timed | sort -n | head -n 1
}
count() {
  { printf '.load %s\n' "$EXT"; echo "$1"; } | (cd "$work" && sqlite3 -batch :memory:)
}
ns_per_row() { awk -v t="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.1f", t * 1e9 / n; else print "n/a" }'; }
rate() { awk -v t="$1" -v n="$2" 'BEGIN { if (t > 0) printf "%.2f M rows/s", n / t / 1e6; else print "n/a" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "n/a" }'; }
ratio2() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "n/a" }'; }

FLOOR_N=5000000
t_floor=$(best 3 "SELECT sum(value) FROM generate_series(1, $FLOOR_N);")
floor_ns=$(ns_per_row "$t_floor" "$FLOOR_N")

tiles=$(count "SELECT count(*) FROM wwd_tiles('wwd');")
objects=$(count "SELECT count(*) FROM wwd_objects('wwd');")
t_tiles=$(best 3 "SELECT sum(tile), count(kind) FROM wwd_tiles('wwd');")
# small tables are scanned REPEAT times in one statement (a CROSS JOIN
# rescans the inner table), so the shell's millisecond timer can see them
REPEAT=50
t_objects=$(best 3 "SELECT sum(o.health), count(o.logic) FROM generate_series(1, $REPEAT) AS g CROSS JOIN wwd_objects('wwd') AS o;")
tiles_ns=$(ns_per_row "$t_tiles" "$tiles")
objects_ns=$(ns_per_row "$t_objects" "$((objects * REPEAT))")

group="SELECT logic, count(*) FROM wwd_objects('wwd') GROUP BY logic ORDER BY 2 DESC;"
cold_warm=$(printf '%s\n%s\n' "$group" "$group" | timed)
t_cold=$(echo "$cold_warm" | sed -n 1p)
t_warm=$(echo "$cold_warm" | sed -n 2p)

name=$(basename "$largest")
largest_size=$(wc -c <"$largest")
t_update=$(echo "UPDATE wwd_objects SET health = health + 1 WHERE source = 'wwd/$name' AND plane = 1 AND idx = 5;" | timed | tail -n 1)

# WED areas: a wed_polygons scan over the corpus and one polygon edit that
# changes the file's size (so every section is laid out again) in the
# largest area.
wed_lines=""
if [ -d ../shared/corpus/wed ]; then
  mkdir -p "$work/wed"
  cp ../shared/corpus/wed/* "$work/wed/"
  chmod -R u+w "$work/wed"
  polygons=$(count "SELECT count(*) FROM wed_polygons('wed');")
  t_poly=$(best 3 "SELECT sum(p.vertex_count), sum(length(p.vertices)), count(p.flags) FROM generate_series(1, $REPEAT) AS g CROSS JOIN wed_polygons('wed') AS p;")
  poly_ns=$(ns_per_row "$t_poly" "$((polygons * REPEAT))")
  wed_largest=$(ls -S "$work"/wed/* | head -n 1)
  wed_name=$(basename "$wed_largest")
  wed_size=$(wc -c <"$wed_largest")
  t_wed_edit=$(printf '%s\n%s\n' "SELECT count(*) FROM wed_polygons('wed/$wed_name');" \
    "INSERT INTO wed_polygons(file, flags, vertices) VALUES ('wed/$wed_name', 1, '[[100,100],[400,100],[400,300],[100,300]]');" |
    timed | tail -n 1)
  # the cookbook's polygon areas: as it was written (json_each twice per
  # polygon, joined on the next vertex) and with wed_polygon_area, warm
  areas=$(count "SELECT count(*) FROM levelsql_files('wed');")
  t_area_json=$(best 3 "SELECT count(*), max(a) FROM (SELECT abs(sum((a.value ->> 0) * (b.value ->> 1) - (b.value ->> 0) * (a.value ->> 1))) / 2 AS a FROM wed_polygons('wed') AS p, json_each(p.vertices) AS a, json_each(p.vertices) AS b WHERE b.key = (a.key + 1) % p.vertex_count GROUP BY p.file, p.polygon);")
  t_area_c=$(best 3 "SELECT count(*), max(wed_polygon_area(vertices)) FROM wed_polygons('wed');")
  wed_lines=$(printf '  wed_polygons scan        %s rows (98 areas) x50, %s, %s ns/row = %s the floor\n  INSERT a wall polygon    %s in %s (%s bytes): relayout, wall groups, fsync, rename\n  polygon areas            %s polygons of %s areas: json_each self-join %s s, wed_polygon_area %s s = %s faster' \
    "$polygons" "$(rate "$t_poly" "$((polygons * REPEAT))")" "$poly_ns" "$(ratio "$poly_ns" "$floor_ns")" \
    "$(awk -v t="$t_wed_edit" 'BEGIN{printf "%.1f ms", t*1000}')" "$wed_name" "$wed_size" \
    "$polygons" "$areas" "$t_area_json" "$t_area_c" "$(ratio "$t_area_json" "$t_area_c")")
fi

# Teeworlds/DDNet: the largest corpus map (skipped without the corpus): a
# full tw_tiles scan, and a no-op rewrite timed against DDNet's map_resave.
tw_lines=""
if [ -d ../shared/corpus/tw ]; then
  mkdir -p "$work/tw"
  tw_map=$(ls -S ../shared/corpus/tw/*.map | head -n 1)
  tw_name=$(basename "$tw_map")
  cp "$tw_map" "$work/tw/" && chmod u+w "$work/tw/$tw_name"
  tw_rows=$(count "SELECT count(*) FROM tw_tiles('tw/$tw_name');")
  t_tw=$(best 3 "SELECT sum(id), count(flags) FROM tw_tiles('tw/$tw_name');")
  tw_ns=$(ns_per_row "$t_tw" "$tw_rows")
  t_tw_write=$(best 3 "UPDATE tw_maps SET author = author WHERE source = 'tw/$tw_name' AND options = 'rewrite=1';")
  tw_ms=$(awk -v t="$t_tw_write" 'BEGIN{printf "%.1f ms", t*1000}')
  tw_vs="map_resave not installed: no ratio"
  resave=/usr/lib/x86_64-linux-gnu/ddnet/map_resave
  # best of 3 real seconds of map_resave on tw/MAP
  resave_time() {
    for i in 1 2 3; do
      s=$(date +%s.%N)
      (cd "$work/tw" && "$resave" "$1" resaved.map >/dev/null 2>&1)
      e=$(date +%s.%N)
      awk -v s="$s" -v e="$e" 'BEGIN { printf "%.6f\n", e - s }'
    done | sort -n | head -n 1
  }
  if [ -x "$resave" ]; then
    echo 'add_path $CURRENTDIR' >"$work/tw/storage.cfg"
    t_resave=$(resave_time "$tw_name")
    tw_vs="map_resave $(awk -v t="$t_resave" 'BEGIN{printf "%.1f ms", t*1000}'): $(ratio "$t_tw_write" "$t_resave") its time"
  fi
  tw_lines=$(printf '  tw_tiles full scan       %s rows of %s, %s, %s ns/row = %s the floor\n  tw no-op rewrite         %s (unchanged blobs kept, fsync, rename) vs %s' \
    "$tw_rows" "$tw_name" "$(rate "$t_tw" "$tw_rows")" "$tw_ns" "$(ratio "$tw_ns" "$floor_ns")" "$tw_ms" "$tw_vs")
  # One tile of ddnet_Tutorial.map (the goal: at most 0.1x map_resave on
  # the same map), each run a fresh shell: parse, inflate and recompress
  # the one layer, fsync, rename; against map_resave of that map.
  edit_map=ddnet_Tutorial.map
  [ -f "../shared/corpus/tw/$edit_map" ] || edit_map=$tw_name
  cp "../shared/corpus/tw/$edit_map" "$work/tw/" && chmod u+w "$work/tw/$edit_map"
  t_tile=$(for v in 1 0 1; do
    echo "UPDATE tw_tiles SET id = $v WHERE source = 'tw/$edit_map' AND kind = 'game' AND x = 1 AND y = 1;" | timed | tail -n 1
  done | sort -n | head -n 1)
  tile_line="  tw one-tile edit         $(awk -v t="$t_tile" 'BEGIN{printf "%.1f ms", t*1000}') in $edit_map (parse, one layer recompressed, fsync, rename)"
  if [ -x "$resave" ]; then
    t_resave_edit=$(resave_time "$edit_map")
    tile_line="$tile_line vs map_resave $(awk -v t="$t_resave_edit" 'BEGIN{printf "%.1f ms", t*1000}'): $(awk -v a="$t_tile" -v b="$t_resave_edit" 'BEGIN { if (b > 0) printf "%.3fx", a / b; else print "n/a" }') its time (goal: at most 0.1x)"
  fi
  tw_lines=$(printf '%s\n%s' "$tw_lines" "$tile_line")
fi

# tw_render (the previews): the largest corpus map at its default size
# (the longer side fits 2048 pixels), warm cache, PNG encoding included.
render_line=""
if [ -n "${tw_name:-}" ]; then
  t_render=$(best 3 "SELECT length(tw_render('tw/$tw_name'));")
  render_size=$(count "SELECT length(tw_render('tw/$tw_name'));")
  render_line=$(printf '  tw_render default size   %s for %s (a PNG of %s bytes), warm cache' \
    "$(awk -v t="$t_render" 'BEGIN{printf "%.0f ms", t*1000}')" "$tw_name" "$render_size")
fi

# wed_render with tiles: the largest corpus area that has its tileset (the
# corpus's TIS, PVRZ and WED files laid out in folders as in the repository
# they come from: bst/tis_bgee, and bst/tis_bg2 with the areas of
# bst/areas), else the sample AR0100; default size, best of 3.  The TIS and
# its pages are read from disk at every render (they are not cached).
tiles_line=""
mkdir -p "$work/tiles/bgee" "$work/tiles/bg2"
if [ -d ../shared/corpus/tis ]; then
  for f in ../shared/corpus/tis/*__tis_bgee__* ../shared/corpus/pvrz/*__tis_bgee__* ../shared/corpus/wed/*__tis_bgee__*; do
    [ -f "$f" ] && cp "$f" "$work/tiles/bgee/${f##*__}"
  done
  for f in ../shared/corpus/tis/*__tis_bg2__* ../shared/corpus/wed/*__areas__*; do
    [ -f "$f" ] && cp "$f" "$work/tiles/bg2/${f##*__}"
  done
  tiles_what="largest corpus area with its tileset"
else
  cp "$BUILD"/samples/AR0100.* "$BUILD"/samples/A01000?.PVRZ "$work/tiles/bgee/" 2>/dev/null
  tiles_what="sample area (../shared/corpus absent)"
fi
chmod -R u+w "$work/tiles"
tiles_area=""
tiles_cells=0
for tis in "$work"/tiles/*/*.[Tt][Ii][Ss]; do
  [ -f "$tis" ] || continue
  want=$(basename "${tis%.*}" | tr '[:lower:]' '[:upper:]').WED
  for wed in "$(dirname "$tis")"/*.[Ww][Ee][Dd]; do # the area named like the tileset, in any case
    [ "$(basename "$wed" | tr '[:lower:]' '[:upper:]')" = "$want" ] || continue
    cells=$(count "SELECT width * height FROM wed_overlays('${wed#"$work"/}') WHERE overlay = 0;")
    if [ "${cells:-0}" -gt "$tiles_cells" ]; then tiles_cells=$cells tiles_area=${wed#"$work"/}; fi
  done
done
if [ -n "$tiles_area" ]; then
  t_tiles_render=$(best 3 "SELECT length(wed_render('$tiles_area', 'tiles=1'));")
  tiles_png=$(count "SELECT length(wed_render('$tiles_area', 'tiles=1'));")
  tiles_kind=$(count "SELECT CASE WHEN count(page) > 0 THEN 'PVRZ' ELSE 'palette' END FROM tis_tiles('$(dirname "$tiles_area")') WHERE upper(file) LIKE upper('%/' || (SELECT tileset FROM wed_overlays('$tiles_area') WHERE overlay = 0) || '.TIS');")
  tiles_line=$(printf '  wed_render tiles=1       %s for %s (%s cells, %s tiles; a PNG of %s bytes), default size, the %s' \
    "$(awk -v t="$t_tiles_render" 'BEGIN{printf "%.1f ms", t*1000}')" "$(basename "$tiles_area")" "$tiles_cells" \
    "$tiles_kind" "$tiles_png" "$tiles_what")
fi

echo "levelsql benchmark on $what"
echo "  floor: generate_series  $(rate "$t_floor" "$FLOOR_N"), $floor_ns ns/row"
echo "  wwd_tiles full scan     $tiles rows, $(rate "$t_tiles" "$tiles"), $tiles_ns ns/row = $(ratio "$tiles_ns" "$floor_ns") the floor"
echo "  wwd_objects full scan   $objects rows x$REPEAT, $(rate "$t_objects" "$((objects * REPEAT))"), $objects_ns ns/row = $(ratio "$objects_ns" "$floor_ns") the floor"
echo "  GROUP BY logic, cold    $(awk -v t="$t_cold" 'BEGIN{printf "%.1f ms", t*1000}') (parses every file) = $(ratio "$(ns_per_row "$t_cold" "$objects")" "$floor_ns") the floor per object"
echo "  GROUP BY logic, warm    $(awk -v t="$t_warm" 'BEGIN{printf "%.1f ms", t*1000}') (from the cache) = $(ratio "$(ns_per_row "$t_warm" "$objects")" "$floor_ns") the floor per object"
echo "  UPDATE one object       $(awk -v t="$t_update" 'BEGIN{printf "%.1f ms", t*1000}') in $name ($largest_size bytes, compressed): parse, edit, compress, fsync, rename"
[ -n "$wed_lines" ] && echo "$wed_lines"
[ -n "$tw_lines" ] && echo "$tw_lines"
[ -n "$render_line" ] && echo "$render_line"
[ -n "$tiles_line" ] && echo "$tiles_line"

# The ratios, each against a floor measured here.
# Whole processes: the best of three wall times (ms) of a command.
proc_ms() {
  i=0
  while [ $i -lt 3 ]; do
    s=$(date +%s%N)
    "$@" >/dev/null 2>&1
    e=$(date +%s%N)
    echo $(((e - s) / 1000))
    i=$((i + 1))
  done | sort -n | head -n 1 | awk '{ printf "%.1f", $1 / 1000 }'
}
sql_process() { { printf '.load %s\n' "$EXT"; echo "$1"; } | (cd "$work" && sqlite3 -batch :memory:); }
# Files parsed by the second of two runs of a statement in one connection.
second_parses() {
  printf '.load %s\n%s\nCREATE TEMP TABLE p AS SELECT levelsql_cache_stats() ->> '"'"'parses'"'"' AS n;\n%s\nSELECT (levelsql_cache_stats() ->> '"'"'parses'"'"') - n FROM p;\n' \
    "$EXT" "$1" "$1" | (cd "$work" && sqlite3 -batch :memory:) | tail -n 1
}
# 1. a warm wwd_tiles scan against generate_series over as many rows, the
# same aggregates over two integer columns on both sides (and, beside it,
# with the TEXT column kind as the second).  Each statement scans the tiles
# REP15 times (the shell's timer counts milliseconds, which would round a
# single 50 ms scan by 2%), best of 5: wall times here jump in bursts.
REP15=5
t_gs_tiles=$(best 5 "SELECT sum(value), count(value) FROM generate_series(1, $((tiles * REP15)));")
t_tiles_int=$(best 5 "SELECT sum(t.tile), count(t.x) FROM generate_series(1, $REP15) AS r CROSS JOIN wwd_tiles('wwd') AS t;")
t_tiles_text=$(best 5 "SELECT sum(t.tile), count(t.kind) FROM generate_series(1, $REP15) AS r CROSS JOIN wwd_tiles('wwd') AS t;")
# 2. cold: the whole sqlite3 process against reading and inflating the
# same files with zlib (tools/zlib_floor.c)
cold_sql="SELECT count(DISTINCT logic), count(*) FROM wwd_objects('wwd');"
ms_cold=$(proc_ms sql_process "$cold_sql")
ms_cold_serial=$(proc_ms sql_process "SELECT levelsql_threads(0); $cold_sql")
threads=$(count "SELECT levelsql_threads();")
ms_zlib=$(proc_ms "$BUILD/tools/zlib_floor" "$work"/wwd/*)
# 3. the same query twice over 1,000 levels (copies of the levels above)
mkdir -p "$work/many"
n=0
while [ $n -lt 1000 ]; do
  for f in "$work"/wwd/*; do
    [ $n -lt 1000 ] || break
    n=$((n + 1))
    cp "$f" "$work/many/$n-$(basename "$f")"
  done
done
many_again=$(second_parses "SELECT count(DISTINCT logic), count(*) FROM wwd_objects('many');")
# 4. model memory: the cache's bytes for each level after the cold query,
# against the level's decompressed size (header + inflated main block)
"$BUILD/tools/zlib_floor" "$work"/wwd/* | sed "s|^$work/||" >"$work/decompressed.txt"
{ printf '.load %s\n%s\n' "$EXT" "$cold_sql"
  echo "SELECT value ->> 'file', value ->> 'bytes' FROM json_each(levelsql_cache_stats() -> 'files');"; } |
  (cd "$work" && sqlite3 -batch :memory:) | tail -n +2 >"$work/model_bytes.txt"
mem_wwd=$(awk -F'|' 'NR == FNR { split($0, a, " "); dec[a[1]] = a[3]; next }
  ($1 in dec) && dec[$1] > 0 { r = $2 / dec[$1]; if (r > max) { max = r; name = $1 } }
  END { if (name != "") printf "%.2fx the decompressed size at most (%s)", max, name; else print "n/a" }' \
  "$work/decompressed.txt" "$work/model_bytes.txt")
echo "  ratios (each against a floor measured in this run):"
echo "    warm wwd_tiles scan vs generate_series over $tiles rows x$REP15 (sum and count of two integer columns): $(ratio2 "$t_tiles_int" "$t_gs_tiles") ($t_tiles_int s vs $t_gs_tiles s); with the TEXT column kind as the second: $(ratio2 "$t_tiles_text" "$t_gs_tiles") ($t_tiles_text s)"
echo "    cold count(DISTINCT logic), count(*) over $(ls "$work/wwd" | wc -l) levels, whole sqlite3 process vs reading + inflating them with zlib: $(ratio2 "$ms_cold" "$ms_zlib") ($ms_cold ms vs $ms_zlib ms; $threads parse-ahead threads); without parse-ahead threads: $(ratio2 "$ms_cold_serial" "$ms_zlib") ($ms_cold_serial ms)"
echo "    the same query run twice in one connection over 1,000 levels: $many_again re-parses the second time"
echo "    model memory per WWD level after that query: $mem_wwd"
# ARE areas: every row and column of the 14 ARE tables over the
# corpus areas, cold in one sqlite3 process (printed to /dev/null), against
# a process that only reads the same files (cat).
if [ -d ../shared/corpus/are ]; then
  mkdir -p "$work/are"
  cp ../shared/corpus/are/* "$work/are/" && chmod -R u+w "$work/are"
  are_sql=".output /dev/null"
  for t in areas actors regions spawns entrances containers items ambients variables doors animations notes traps tiled_objects; do
    are_sql="$are_sql
SELECT * FROM are_$t('are');"
  done
  ms_are=$(proc_ms sql_process "$are_sql")
  ms_are_cat=$(proc_ms cat "$work"/are/*)
  echo "    cold: all 14 ARE tables of the $(ls "$work/are" | wc -l) corpus areas, every row and column, whole sqlite3 process vs reading the files (cat): $(ratio2 "$ms_are" "$ms_are_cat") ($ms_are ms vs $ms_are_cat ms)"
fi
if [ -d ../shared/corpus/tw ]; then
  mkdir -p "$work/twall"
  cp ../shared/corpus/tw/*.map "$work/twall/" && chmod -R u+w "$work/twall"
  tw_again=$(second_parses "SELECT count(*) FROM tw_layers('twall');")
  { printf '.load %s\n' "$EXT"; echo "SELECT count(*) FROM tw_layers('twall');"
    echo "SELECT max(1.0 * (value ->> 'bytes') / (value ->> 'size')) FROM json_each(levelsql_cache_stats() -> 'files');"; } |
    (cd "$work" && sqlite3 -batch :memory:) | tail -n 1 >"$work/tw_mem.txt"
  echo "    model memory per Teeworlds map after tw_layers: $(awk '{ printf "%.2fx", $1 }' "$work/tw_mem.txt") the file's size at most"
  echo "    a second SELECT count(*) FROM tw_layers(...) over the $(ls "$work/twall" | wc -l) corpus maps: $tw_again re-parses"
fi

# An Infinity Engine game as a source (README, "The game as a source"): a
# query over a generated game of 2,000 areas (tools/gen_game: the corpus's
# WED files, else the samples', over and over; archives of 50 areas) through
# its chitin.key, in each archive container, against the same files loose;
# each a whole sqlite3 process, best of three.
game_inputs=$(ls ../shared/corpus/wed/*.WED 2>/dev/null)
[ -n "$game_inputs" ] || game_inputs="$BUILD/samples/AR0100.WED $BUILD/samples/AR0200.WED"
game_sql() { echo "SELECT count(*), sum(vertex_count), count(DISTINCT file) FROM wed_polygons('$1');"; }
game_line=""
for c in biff bifc bif mixed; do
  # shellcheck disable=SC2086 # (one word per input file)
  "$BUILD/tools/gen_game" "$work/game-$c" 2000 "$c" $game_inputs >/dev/null || continue
  [ "$c" = biff ] || rm -rf "$work/game-$c/loose"
  ms_game=$(proc_ms sql_process "$(game_sql "game-$c/game/chitin.key")")
  [ "$c" = biff ] && ms_loose=$(proc_ms sql_process "$(game_sql game-biff/loose)")
  case $c in biff) name="BIFF V1" ;; bifc) name="BIFC V1.0 (64 KB blocks)" ;; bif) name="BIF V1.0" ;; *) name="the three mixed" ;; esac
  game_line="$game_line$(printf '\n      %-26s %s ms = %s the loose files' "$name" "$ms_game" "$(ratio2 "$ms_game" "$ms_loose")")"
done
[ -n "$game_line" ] && echo "    a query over a generated game of 2,000 areas (wed_polygons, whole sqlite3 process), the same files loose: ${ms_loose:-?} ms; through chitin.key:$game_line"
rm -rf "$work"/game-*

# The atlas (README, "The atlas of a collection"): 2,010 levels generated
# from the samples (134 folders, each a copy of the 15 sample levels of
# every format: WWD levels, maps, areas with their ARE, tileset and PVRZ
# pages beside them, wz4 projects), an atlas made of them on every core,
# then again over the same folder (nothing changed: nothing drawn), and
# the first 195 levels (13 folders) again on the connection's thread alone, for the
# gain of the threads.
mkdir -p "$work/atlas-levels"
set_n=0
while [ $set_n -lt 134 ]; do
  set_n=$((set_n + 1))
  mkdir -p "$work/atlas-levels/set$set_n"
  cp "$BUILD"/samples/*.WWD "$BUILD"/samples/*.map "$BUILD"/samples/*.WED "$BUILD"/samples/*.ARE \
    "$BUILD"/samples/*.TIS "$BUILD"/samples/*.PVRZ "$BUILD"/samples/*.wz4 "$work/atlas-levels/set$set_n/"
done
atlas_run() { count "SELECT $1 levelsql_atlas('$2', '$3');"; }
atlas_first=$(atlas_run "" "atlas-levels/**" atlas)
atlas_again=$(atlas_run "" "atlas-levels/**" atlas)
atlas_serial=$(atlas_run "levelsql_threads(0)," "atlas-levels/set{1,2,3,4,5,6,7,8,9,10,11,12,13}/*" atlas-serial | cut -d'|' -f2)
atlas_subset=$(atlas_run "" "atlas-levels/set{1,2,3,4,5,6,7,8,9,10,11,12,13}/*" atlas-subset)
jfield() { echo "$1" | sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p"; }
echo "  the atlas (levelsql_atlas) of $(jfield "$atlas_first" levels) levels generated from the samples (all four formats, areas with their tiles and ARE), $(jfield "$atlas_first" threads) threads: $(jfield "$atlas_first" seconds) s ($(awk -v s="$(jfield "$atlas_first" seconds)" -v n="$(jfield "$atlas_first" levels)" 'BEGIN { if (n > 0) printf "%.1f", s * 1000 / n }') ms a level); again over the same folder, nothing changed: $(jfield "$atlas_again" seconds) s ($(jfield "$atlas_again" drawn) drawn); $(jfield "$atlas_serial" levels) of them on the connection's thread alone: $(jfield "$atlas_serial" seconds) s, on the threads: $(jfield "$atlas_subset" seconds) s"
rm -rf "$work/atlas-levels" "$work/atlas" "$work/atlas-serial" "$work/atlas-subset"

# Joins (tools/bench_joins.sh): the cookbooks' joins over whole folders,
# as written against the best order forced by hand.  The WWD levels and
# WED areas are the copies above; the Teeworlds maps and wz4 projects are
# copied whole when the corpus is there.
mkdir -p "$work/joins"
ln -s ../wwd "$work/joins/wwd"
[ -d "$work/wed" ] && ln -s ../wed "$work/joins/wed"
for d in tw wz4; do
  if [ -d "../shared/corpus/$d" ]; then
    cp -r "../shared/corpus/$d" "$work/joins/$d" && chmod -R u+w "$work/joins/$d"
  fi
done
echo "  joins, warm cache (written: as in sql/; forced: the fastest order given with CROSS JOIN):"
sh tools/bench_joins.sh "$EXT" "$work/joins"
exit 0
