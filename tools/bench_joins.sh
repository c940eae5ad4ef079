#!/bin/sh
# The joins of sql/ (cookbooks and demo; the README has none) and the
# UPDATE ... FROM shape of a same-map lookup, run on level folders,
# each timed as written and in every hand-forced join order (CROSS JOIN
# makes SQLite keep the order written); prints each pair's best times and
# the ratio written / best forced.  Called by tools/bench.sh; also usable
# alone:
#
#     sh tools/bench_joins.sh build/levelsql.so DIR
#
# where DIR holds the folders wwd/, tw/, wed/ and wz4/ (a missing folder
# skips its joins).  Never fails: a failing statement prints "error".
set -u
EXT=$1
DIR=$2

# A statement still running after this many seconds is stopped and
# reported as slower than that.
LIMIT=${JOINS_LIMIT:-30}

# Real seconds of each statement of the SQL on stdin, one per line
# ("error" for one that failed).
joins_timed() {
  { printf '.load %s\n.timer on\n.output /dev/null\n' "$EXT"; cat; } |
    (cd "$DIR" && timeout "$LIMIT" sqlite3 -batch :memory: 2>&1) |
    sed -n -e 's/^Run Time: real \([0-9.]*\).*/\1/p' -e 's/^\(Runtime\|Parse\) error.*/error/p'
}
# The statement given n + 1 times (the first run fills the cache).
repeat() {
  i=0
  while [ $i -le "$2" ]; do echo "$1"; i=$((i + 1)); done
}
# Wall seconds of running the SQL on stdin in one process.
joins_wall() {
  start=$(date +%s.%N)
  { printf '.load %s\n.output /dev/null\n' "$EXT"; cat; } | (cd "$DIR" && timeout "$LIMIT" sqlite3 -batch :memory: >/dev/null 2>&1)
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.6f\n", e - s }'
}
# Seconds of one warm run of a statement: n runs in one process, minus a
# process with the statement once (start-up, loading, the cold run), over
# n, with n grown until the runs take 0.3 s; the best of three.  A
# statement slower than 1 s runs once.  "error" when it fails, "slow" when
# it passes the limit.
joins_best() {
  first=$(repeat "$1" 1 | joins_timed | sed -n 2p)
  case "$first" in error) echo error; return ;; "") echo slow; return ;; esac
  if awk -v t="$first" 'BEGIN { exit !(t > 1) }'; then
    echo "$first"
    return
  fi
  n=1
  for trial in 1 2 3; do
    while :; do
      base=$(repeat "$1" 0 | joins_wall)
      all=$(repeat "$1" "$n" | joins_wall)
      if awk -v a="$all" -v b="$base" -v n="$n" 'BEGIN { exit !(a - b >= 0.3 || n >= 20000) }'; then break; fi
      n=$((n * 4))
    done
    awk -v a="$all" -v b="$base" -v n="$n" 'BEGIN { t = (a - b) / n; printf "%.6f\n", (t > 0 ? t : 0) }'
  done | sort -n | head -n 1
}
ms() { awk -v t="$1" -v limit="$LIMIT" 'BEGIN { if (t == "error") print t; else if (t == "slow") printf "> %d s", limit; else printf "%.2f ms", t * 1000 }'; }

# pair NAME FOLDER WRITTEN FORCED...: times the join as written and each
# forced order, and prints the ratio to the best forced order.
joins_pair() {
  name=$1
  folder=$2
  written=$3
  shift 3
  [ -d "$DIR/$folder" ] || return 0
  t_written=$(joins_best "$written")
  t_forced=""
  for sql in "$@"; do
    t=$(joins_best "$sql")
    case "$t" in error | slow) continue ;; esac
    if [ -z "$t_forced" ] || awk -v a="$t" -v b="$t_forced" 'BEGIN { exit !(a < b) }'; then t_forced=$t; fi
  done
  ratio=$(awk -v a="$t_written" -v b="$t_forced" -v limit="$LIMIT" 'BEGIN { if (a == "error" || b == "") print "n/a"; else if (a == "slow") printf "> %.0fx", limit / b; else { printf "%.2fx", (a + 0.00001) / (b + 0.00001) } }')
  printf '  %-34s %10s as written, %10s best forced order: %s\n' "$name" "$(ms "$t_written")" "$(ms "${t_forced:-error}")" "$ratio"
}

joins_pair "wwd objects outside their plane" wwd \
  "SELECT o.file, o.plane, o.idx FROM wwd_objects('wwd') AS o JOIN wwd_planes('wwd') AS p ON p.file = o.file AND p.plane = o.plane WHERE o.x < 0 OR o.y < 0 OR o.x > p.width_px OR o.y > p.height_px;" \
  "SELECT o.file, o.plane, o.idx FROM wwd_objects('wwd') AS o CROSS JOIN wwd_planes('wwd') AS p ON p.file = o.file AND p.plane = o.plane WHERE o.x < 0 OR o.y < 0 OR o.x > p.width_px OR o.y > p.height_px;" \
  "SELECT o.file, o.plane, o.idx FROM wwd_planes('wwd') AS p CROSS JOIN wwd_objects('wwd') AS o ON p.file = o.file AND p.plane = o.plane WHERE o.x < 0 OR o.y < 0 OR o.x > p.width_px OR o.y > p.height_px;"

joins_pair "wwd tile ids per main plane" wwd \
  "SELECT t.file, t.tile, count(*) AS cells FROM wwd_tiles('wwd') AS t JOIN wwd_planes('wwd') AS p ON p.file = t.file AND p.plane = t.plane WHERE p.is_main AND t.kind = 'tile' GROUP BY t.file, t.tile ORDER BY cells DESC LIMIT 10;" \
  "SELECT t.file, t.tile, count(*) AS cells FROM wwd_tiles('wwd') AS t CROSS JOIN wwd_planes('wwd') AS p ON p.file = t.file AND p.plane = t.plane WHERE p.is_main AND t.kind = 'tile' GROUP BY t.file, t.tile ORDER BY cells DESC LIMIT 10;" \
  "SELECT t.file, t.tile, count(*) AS cells FROM wwd_planes('wwd') AS p CROSS JOIN wwd_tiles('wwd') AS t ON p.file = t.file AND p.plane = t.plane WHERE p.is_main AND t.kind = 'tile' GROUP BY t.file, t.tile ORDER BY cells DESC LIMIT 10;"

joins_pair "wwd treasure per level (demo)" wwd \
  "SELECT l.name, count(*), sum(o.score) FROM wwd_levels('wwd') AS l JOIN wwd_objects('wwd') AS o ON o.file = l.file WHERE o.logic LIKE '%Treasure%' OR o.logic LIKE '%Powerup%' GROUP BY l.file;" \
  "SELECT l.name, count(*), sum(o.score) FROM wwd_levels('wwd') AS l CROSS JOIN wwd_objects('wwd') AS o ON o.file = l.file WHERE o.logic LIKE '%Treasure%' OR o.logic LIKE '%Powerup%' GROUP BY l.file;" \
  "SELECT l.name, count(*), sum(o.score) FROM wwd_objects('wwd') AS o CROSS JOIN wwd_levels('wwd') AS l ON o.file = l.file WHERE o.logic LIKE '%Treasure%' OR o.logic LIKE '%Powerup%' GROUP BY l.file;"

joins_pair "wwd tile attributes per game (demo)" wwd \
  "SELECT l.game, t.attribute, count(*) FROM wwd_levels('wwd') AS l JOIN wwd_tile_properties('wwd') AS t ON t.file = l.file GROUP BY l.game, t.attribute;" \
  "SELECT l.game, t.attribute, count(*) FROM wwd_levels('wwd') AS l CROSS JOIN wwd_tile_properties('wwd') AS t ON t.file = l.file GROUP BY l.game, t.attribute;" \
  "SELECT l.game, t.attribute, count(*) FROM wwd_tile_properties('wwd') AS t CROSS JOIN wwd_levels('wwd') AS l ON t.file = l.file GROUP BY l.game, t.attribute;"

joins_pair "tw unhookable tiles per map" tw \
  "SELECT l.file, count(*) FROM tw_layers('tw') AS l JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index WHERE l.kind IN ('game', 'front') AND t.id = 3 GROUP BY l.file;" \
  "SELECT l.file, count(*) FROM tw_layers('tw') AS l CROSS JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index WHERE l.kind IN ('game', 'front') AND t.id = 3 GROUP BY l.file;"

# (the other order, 25 M tiles outside, takes minutes: not timed)
joins_pair "tw game tiles, both with the folder" tw \
  "SELECT t.id, count(*) FROM tw_layers('tw') AS l JOIN tw_tiles('tw') AS t ON t.file = l.file AND t.layer_index = l.layer_index WHERE l.kind = 'game' GROUP BY t.id;" \
  "SELECT t.id, count(*) FROM tw_layers('tw') AS l CROSS JOIN tw_tiles('tw') AS t ON t.file = l.file AND t.layer_index = l.layer_index WHERE l.kind = 'game' GROUP BY t.id;"

joins_pair "tw UPDATE ... FROM's shape, one map" tw \
  "SELECT count(*) FROM tw_tiles('tw/ddnet_Gold_Mine.map') AS g, tw_tiles('tw/ddnet_Gold_Mine.map') AS d WHERE g.kind = 'game' AND d.layer_index = 9 AND d.id <> 0 AND d.x = g.x AND d.y = g.y;" \
  "SELECT count(*) FROM tw_tiles('tw/ddnet_Gold_Mine.map') AS d CROSS JOIN tw_tiles('tw/ddnet_Gold_Mine.map') AS g WHERE g.kind = 'game' AND d.layer_index = 9 AND d.id <> 0 AND d.x = g.x AND d.y = g.y;" \
  "SELECT count(*) FROM tw_tiles('tw/ddnet_Gold_Mine.map') AS g CROSS JOIN tw_tiles('tw/ddnet_Gold_Mine.map') AS d WHERE g.kind = 'game' AND d.layer_index = 9 AND d.id <> 0 AND d.x = g.x AND d.y = g.y;"

joins_pair "tw maps without a spawn" tw \
  "SELECT m.file FROM tw_maps('tw') AS m WHERE NOT EXISTS (SELECT 1 FROM tw_layers(m.file) AS l JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index WHERE l.kind IN ('game', 'front') AND t.id BETWEEN 192 AND 194);" \
  "SELECT m.file FROM tw_maps('tw') AS m WHERE NOT EXISTS (SELECT 1 FROM tw_layers(m.file) AS l CROSS JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index WHERE l.kind IN ('game', 'front') AND t.id BETWEEN 192 AND 194);"

joins_pair "wed doors with empty closed polygons" wed \
  "SELECT d.file, d.door, p.polygon FROM wed_doors('wed') AS d JOIN wed_polygons('wed') AS p ON p.file = d.file AND p.door = d.door WHERE p.kind = 'door_closed' AND p.vertex_count = 0;" \
  "SELECT d.file, d.door, p.polygon FROM wed_doors('wed') AS d CROSS JOIN wed_polygons('wed') AS p ON p.file = d.file AND p.door = d.door WHERE p.kind = 'door_closed' AND p.vertex_count = 0;" \
  "SELECT d.file, d.door, p.polygon FROM wed_polygons('wed') AS p CROSS JOIN wed_doors('wed') AS d ON p.file = d.file AND p.door = d.door WHERE p.kind = 'door_closed' AND p.vertex_count = 0;"

joins_pair "wed polygons x base overlays" wed \
  "SELECT p.file, count(*), max(o.width) FROM wed_polygons('wed') AS p JOIN wed_overlays('wed') AS o ON o.file = p.file AND o.overlay = 0 GROUP BY p.file;" \
  "SELECT p.file, count(*), max(o.width) FROM wed_polygons('wed') AS p CROSS JOIN wed_overlays('wed') AS o ON o.file = p.file AND o.overlay = 0 GROUP BY p.file;" \
  "SELECT p.file, count(*), max(o.width) FROM wed_overlays('wed') AS o CROSS JOIN wed_polygons('wed') AS p ON o.file = p.file AND o.overlay = 0 GROUP BY p.file;"

joins_pair "wed kinds per wall group" wed \
  "SELECT g.file, g.grp, (SELECT group_concat(DISTINCT p.kind) FROM json_each(g.polygons) AS j CROSS JOIN wed_polygons(g.file) AS p ON p.polygon = j.value) FROM wed_wallgroups('wed') AS g;" \
  "SELECT g.file, g.grp, (SELECT group_concat(DISTINCT p.kind) FROM json_each(g.polygons) AS j CROSS JOIN wed_polygons(g.file) AS p ON p.polygon = j.value) FROM wed_wallgroups('wed') AS g;" \
  "SELECT g.file, g.grp, (SELECT group_concat(DISTINCT p.kind) FROM wed_polygons(g.file) AS p CROSS JOIN json_each(g.polygons) AS j ON p.polygon = j.value) FROM wed_wallgroups('wed') AS g;"

joins_pair "wed cells a door blocks" wed \
  "SELECT d.file, d.name, t.x, t.y FROM wed_doors('wed') AS d, json_each(d.cells) AS c CROSS JOIN wed_tiles(d.file) AS t ON t.overlay = 0 AND t.cell = c.value;" \
  "SELECT d.file, d.name, t.x, t.y FROM wed_doors('wed') AS d CROSS JOIN json_each(d.cells) AS c CROSS JOIN wed_tiles(d.file) AS t ON t.overlay = 0 AND t.cell = c.value;" \
  "SELECT d.file, d.name, t.x, t.y FROM wed_doors('wed') AS d CROSS JOIN wed_tiles(d.file) AS t CROSS JOIN json_each(d.cells) AS c ON t.overlay = 0 AND t.cell = c.value;"

joins_pair "wz4 name links to missing stores" wz4 \
  "SELECT l.file, l.page, l.to_op, o.class FROM wz4_links('wz4') AS l JOIN wz4_operators('wz4') AS o ON o.file = l.file AND o.page = l.page AND o.op = l.to_op WHERE l.kind = 'name' AND l.from_op IS NULL;" \
  "SELECT l.file, l.page, l.to_op, o.class FROM wz4_links('wz4') AS l CROSS JOIN wz4_operators('wz4') AS o ON o.file = l.file AND o.page = l.page AND o.op = l.to_op WHERE l.kind = 'name' AND l.from_op IS NULL;" \
  "SELECT l.file, l.page, l.to_op, o.class FROM wz4_operators('wz4') AS o CROSS JOIN wz4_links('wz4') AS l ON o.file = l.file AND o.page = l.page AND o.op = l.to_op WHERE l.kind = 'name' AND l.from_op IS NULL;"

joins_pair "wz4 inputs of each op (3 tables)" wz4 \
  "SELECT l.to_op, t.class, group_concat(f.class || '#' || l.from_op, ', ') FROM wz4_links('wz4') AS l JOIN wz4_operators('wz4') AS t ON t.file = l.file AND t.page = l.page AND t.op = l.to_op JOIN wz4_operators('wz4') AS f ON f.file = l.file AND f.page = l.from_page AND f.op = l.from_op WHERE l.page = 0 GROUP BY l.file, l.to_op;" \
  "SELECT l.to_op, t.class, group_concat(f.class || '#' || l.from_op, ', ') FROM wz4_links('wz4') AS l CROSS JOIN wz4_operators('wz4') AS t CROSS JOIN wz4_operators('wz4') AS f ON t.file = l.file AND t.page = l.page AND t.op = l.to_op AND f.file = l.file AND f.page = l.from_page AND f.op = l.from_op WHERE l.page = 0 GROUP BY l.file, l.to_op;" \
  "SELECT l.to_op, t.class, group_concat(f.class || '#' || l.from_op, ', ') FROM wz4_operators('wz4') AS t CROSS JOIN wz4_links('wz4') AS l CROSS JOIN wz4_operators('wz4') AS f ON t.file = l.file AND t.page = l.page AND t.op = l.to_op AND f.file = l.file AND f.page = l.from_page AND f.op = l.from_op WHERE l.page = 0 GROUP BY l.file, l.to_op;" \
  "SELECT l.to_op, t.class, group_concat(f.class || '#' || l.from_op, ', ') FROM wz4_operators('wz4') AS t CROSS JOIN wz4_operators('wz4') AS f CROSS JOIN wz4_links('wz4') AS l ON t.file = l.file AND t.page = l.page AND t.op = l.to_op AND f.file = l.file AND f.page = l.from_page AND f.op = l.from_op WHERE l.page = 0 GROUP BY l.file, l.to_op;"
exit 0
