-- The samples `make samples` writes (samples/ here): every file reads back,
-- a folder source sees only its format's files, and each format's samples
-- hold what the demo and the cookbooks of sql/ show, so those queries
-- return rows (the checks of the cookbooks find the planted problems).
-- Every row is 'label|1' when the check holds.

-- All seven formats, every file readable by every table of its format.
SELECT 'every sample reads', count(*) = 22 AND min(ok) = 1 FROM levelsql_files('samples');
SELECT 'samples per format', group_concat(format || ':' || n, ' ') = 'are:2 pvrz:3 tis:2 tw:6 wed:2 wwd:5 wz4:2'
  FROM (SELECT format, count(*) AS n FROM levelsql_files('samples') GROUP BY format ORDER BY format);
SELECT 'a folder source reads its own format only',
  (SELECT count(*) FROM wwd_levels('samples')) = 5 AND (SELECT count(*) FROM tw_maps('samples')) = 6 AND
  (SELECT count(DISTINCT file) FROM wed_overlays('samples')) = 2 AND (SELECT count(DISTINCT file) FROM wz4_pages('samples')) = 2 AND
  (SELECT count(DISTINCT file) FROM tis_tiles('samples')) = 2
  AND (SELECT count(*) FROM are_areas('samples')) = 2;

-- WWD (sql/wwd_cookbook.sql): the editing accidents, mirrored objects.
SELECT 'wwd: an object outside its plane', count(*) = 1
  FROM wwd_objects('samples') AS o JOIN wwd_planes('samples') AS p ON p.file = o.file AND p.plane = o.plane
  WHERE o.x < 0 OR o.y < 0 OR o.x > p.width_px OR o.y > p.height_px;
SELECT 'wwd: an enemy outside its patrol range', count(*) = 1 AND min(logic) = 'Officer'
  FROM wwd_objects('samples') WHERE min_x <> 0 AND max_x <> 0 AND (x < min_x OR x > max_x);
SELECT 'wwd: mirrored objects', count(*) > 0 FROM wwd_objects('samples') WHERE draw_flags & wwd_flag_value('draw', 'mirror');
SELECT 'wwd: rats and treasure for the bulk edits', (SELECT count(*) FROM wwd_objects('samples') WHERE logic = 'Rat') > 0
  AND (SELECT count(*) FROM wwd_objects('samples') WHERE logic = 'Treasure') > 0;

-- Teeworlds / DDNet (sql/tw_cookbook.sql).
SELECT 'tw: DDNet, 0.6 and 0.7 maps', group_concat(style, ',') = '0.6,0.7,ddnet'
  FROM (SELECT DISTINCT style FROM tw_maps('samples') ORDER BY style);
SELECT 'tw: unhookable tiles in two maps', count(DISTINCT t.file) = 2
  FROM tw_layers('samples') AS l JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
  WHERE l.kind IN ('game', 'front') AND t.id = 3;
SELECT 'tw: only unfinished.map has no spawn', group_concat(m.file) = 'samples/unfinished.map'
  FROM tw_maps('samples') AS m WHERE NOT EXISTS (
    SELECT 1 FROM tw_layers(m.file) AS l JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
    WHERE l.kind IN ('game', 'front') AND t.id BETWEEN 192 AND 194);
SELECT 'tw: game, front and tele layers', count(DISTINCT kind) = 3 FROM tw_layers('samples') WHERE kind IN ('game', 'front', 'tele');
SELECT 'tw: a teleporter number without an exit', count(*) = 1 AND min(t.number) = 2
  FROM tw_layers('samples') AS l JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
  WHERE l.kind = 'tele' AND t.id IN (10, 14, 15, 26)
    AND NOT EXISTS (SELECT 1 FROM tw_tiles(t.file) AS o WHERE o.layer_index = t.layer_index AND o.id = 27 AND o.number = t.number);
SELECT 'tw: an embedded image no layer uses', count(*) = 1
  FROM tw_images('samples') AS i WHERE NOT i.external AND NOT EXISTS (SELECT 1 FROM tw_layers(i.file) AS l WHERE l.image = i.image);
SELECT 'tw: layers still called Layer', count(*) >= 1 FROM tw_layers('samples') WHERE name = 'Layer';
SELECT 'tw: group 2 has tiles and quads', count(DISTINCT kind) = 2 FROM tw_layers('samples') WHERE grp = 2 AND kind IN ('tiles', 'quads');
SELECT 'tw: Background groups', count(*) = 2 FROM tw_groups('samples') WHERE name = 'Background';
SELECT 'tw: death tiles in game layers', count(*) > 0 FROM tw_tiles('samples') WHERE kind = 'game' AND id = 2;
SELECT 'tw: settings and envelope points', (SELECT count(*) FROM tw_maps('samples') AS m, json_each(m.settings)) = 5
  AND (SELECT sum(num_points) FROM tw_envelopes('samples')) = 26;

-- WED (sql/wed_cookbook.sql).
SELECT 'wed: AR0100 polygons 0 and 1 are walls', count(*) = 2 FROM wed_polygons('samples/AR0100.WED') WHERE polygon IN (0, 1) AND kind = 'wall';
SELECT 'wed: a door without closed polygons', count(*) = 1 FROM wed_doors('samples') WHERE closed_count = 0;
SELECT 'wed: a closed door polygon without vertices', count(*) = 1 FROM wed_polygons('samples') WHERE kind = 'door_closed' AND vertex_count = 0;
SELECT 'wed: a double door', count(*) = 1 FROM wed_doors('samples') WHERE closed_count = 2;
SELECT 'wed: door cells have closed-door tiles', count(*) = 14 AND min(t.secondary_tile IS NOT NULL) = 1
  FROM wed_doors('samples') AS d, json_each(d.cells) AS c JOIN wed_tiles(d.file) AS t ON t.overlay = 0 AND t.cell = c.value;
SELECT 'wed: animated cells and a water overlay', (SELECT count(*) FROM wed_tiles('samples') WHERE tile_count > 1) = 7
  AND (SELECT count(*) FROM wed_overlays('samples') WHERE overlay > 0 AND width > 0) = 1
  AND (SELECT count(*) FROM wed_tiles('samples') WHERE overlay = 0 AND overlay_mask & 2) > 0;
SELECT 'wed: every wall group lists what meets its cell', count(*) = 0
  FROM wed_polygons('samples') AS p JOIN wed_wallgroups('samples') AS g ON g.file = p.file
  WHERE p.vertex_count > 0 AND p.min_x < g.x_px + 640 AND p.max_x >= g.x_px AND p.min_y < g.y_px + 480 AND p.max_y >= g.y_px
    AND NOT EXISTS (SELECT 1 FROM json_each(g.polygons) AS j WHERE j.value = p.polygon);
SELECT 'wed: walls over four or more wall groups', count(*) = 2
  FROM (SELECT p.file, p.polygon FROM wed_polygons('samples') AS p JOIN wed_wallgroups('samples') AS g ON g.file = p.file, json_each(g.polygons) AS j
        WHERE j.value = p.polygon AND p.kind = 'wall' GROUP BY p.file, p.polygon HAVING count(*) >= 4);

-- TIS (gen_tis_samples.c): each area's tileset beside it, holding every
-- tile the area names (primary tiles and closed doors' tiles), a PVRZ one
-- with its pages and a palette one; the areas render with their tiles.
SELECT 'tis: each area''s tileset holds every tile it names', count(*) = 2
  FROM wed_overlays('samples') AS o
  WHERE o.overlay = 0 AND (SELECT count(*) FROM tis_tiles('samples/' || o.tileset || '.TIS')) =
    1 + (SELECT max(max(j.value), max(coalesce(t.secondary_tile, 0))) FROM wed_tiles(o.file) AS t, json_each(t.tis_tiles) AS j WHERE t.overlay = 0);
SELECT 'tis: a PVRZ tileset and a palette one', group_concat(kind, ',') = 'pvrz,palette'
  FROM (SELECT file, CASE WHEN count(page) > 0 THEN 'pvrz' ELSE 'palette' END AS kind FROM tis_tiles('samples') GROUP BY file ORDER BY file);
SELECT 'tis: the areas render with their tiles', sum(length(wed_render(file, 'tiles=1')) > 0) = 2 FROM wed_overlays('samples') WHERE overlay = 0;
-- ARE (sql/are_cookbook.sql): the areas of the two WED samples.
SELECT 'are: each area names its WED sample', count(*) = 2 FROM are_areas('samples') AS a JOIN wed_overlays('samples') AS o
  ON o.overlay = 0 AND o.file LIKE '%/' || a.wed || '.WED';
SELECT 'are: one door whose WED has no such door', group_concat(d.door_id) = 'DOOR0199' FROM are_doors('samples') AS d
  JOIN are_areas('samples') AS a ON a.file = d.file
  WHERE NOT EXISTS (SELECT 1 FROM wed_doors('samples') AS w WHERE w.file LIKE '%/' || a.wed || '.WED' AND w.name = d.door_id);
SELECT 'are: containers holding POTN08', count(DISTINCT c.name) = 3 FROM are_containers('samples') AS c JOIN are_items('samples') AS i
  ON i.file = c.file AND i.container = c.container WHERE i.resref = 'POTN08';
SELECT 'are: traps above 50', group_concat(name, ',') = 'Trap Floor,Chest,Door0201'
  FROM (SELECT name FROM are_regions('samples') WHERE trapped AND trap_detection_difficulty > 50 UNION ALL
        SELECT name FROM are_containers('samples') WHERE trapped AND trap_detection_difficulty > 50 UNION ALL
        SELECT name FROM are_doors('samples') WHERE trapped AND trap_detection_difficulty > 50);
SELECT 'are: travel regions to an area or entrance no sample has', group_concat(r.name, ',') = 'To Dungeon,To Cellar'
  FROM are_regions('samples') AS r WHERE r.type = 'travel' AND NOT EXISTS (
    SELECT 1 FROM are_areas('samples') AS a JOIN are_entrances('samples') AS e ON e.file = a.file
    WHERE a.file LIKE '%/' || r.destination_area || '.ARE' AND e.name = r.destination_entrance);

-- wz4 (sql/wz4_cookbook.sql).
SELECT 'wz4: pages', count(*) = 5 FROM wz4_pages('samples');
SELECT 'wz4: a bypassed and a hidden op', count(*) = 2 FROM wz4_operators('samples') WHERE bypass OR hide;
SELECT 'wz4: a name link without a target', group_concat(link_name) = 'tex_old' FROM wz4_links('samples') WHERE kind = 'name' AND from_op IS NULL;
SELECT 'wz4: name links across pages', count(*) >= 3 FROM wz4_links('samples') WHERE kind = 'name' AND from_page <> page;
SELECT 'wz4: Stores nothing loads', count(*) = 3
  FROM wz4_operators('samples') AS o WHERE o.class = 'Store' AND NOT EXISTS (
    SELECT 1 FROM wz4_links('samples') AS l WHERE l.kind = 'name' AND l.file = o.file AND l.from_page = o.page AND l.from_op = o.op);
SELECT 'wz4: a hidden op feeds nothing', count(*) = 0
  FROM wz4_links('samples') AS l JOIN wz4_operators('samples') AS o ON o.file = l.file AND o.page = l.from_page AND o.op = l.from_op
  WHERE l.kind = 'stack' AND o.hide;
SELECT 'wz4: an op with two stacked inputs', count(*) = 1
  FROM (SELECT file, page, to_op FROM wz4_links('samples') WHERE kind = 'stack' GROUP BY file, page, to_op HAVING count(*) = 2);
SELECT 'wz4: string parameters naming files', count(*) = 2
  FROM wz4_operators('samples') AS o, json_each(o.strings) AS s WHERE s.value GLOB '*.[a-zA-Z][a-zA-Z][a-zA-Z]';
SELECT 'wz4: page 0 op 0 feeds a stack (the cookbook moves it)', count(*) = 2
  FROM wz4_links('samples') WHERE kind = 'stack' AND page = 0 AND from_op = 0;

-- The generated DDNet map dm_sample.map (test_tw_sql.c checks that it is
-- what map_resave writes, and edits it).
SELECT style || ',' || num_groups || ',' || num_layers || ',' || author || ',' || settings FROM tw_maps('samples/dm_sample.map');
-- expect: ddnet,2,3,levelsql sample,["sv_team 0"]
-- two spawns
SELECT count(*) FROM tw_tiles('samples/dm_sample.map') WHERE kind = 'game' AND id = 192;
-- expect: 2
-- a 60x30 game layer
SELECT count(*) FROM tw_tiles('samples/dm_sample.map') WHERE grp = 1 AND layer = 0;
-- expect: 1800
