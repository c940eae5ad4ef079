-- requires: corpus
-- wed_vertices and wed_polygon_area on the private copy of the real corpus
-- (corpus/wed): the rows are the vertices column taken apart, the areas
-- are the shoelace formula in SQL; vertex edits in one area (whose twin
-- bst__bst__tis_bgee__bs0101.WED stays untouched, for comparison) keep the
-- boxes and the wall groups right, keep the rows' identity in multi-row
-- statements, and read back the same in a new connection.
SELECT 'one row per vertex', (SELECT count(*) FROM wed_vertices('corpus/wed')) = (SELECT sum(vertex_count) FROM wed_polygons('corpus/wed'));
SELECT 'rows = json_each of vertices, in order', count(*) = 0 FROM wed_polygons('corpus/wed') AS p
  WHERE p.vertices <> (SELECT coalesce(json_group_array(json_array(v.x, v.y)), '[]') FROM (SELECT x, y FROM wed_vertices(p.file) AS v WHERE v.polygon = p.polygon ORDER BY vertex) AS v);
SELECT 'vertex push-down = plain filter', (SELECT count(*) FROM wed_vertices('corpus/wed') WHERE polygon BETWEEN 5 AND 20 AND vertex < 4) = (SELECT count(*) FROM wed_vertices('corpus/wed') WHERE +polygon BETWEEN 5 AND 20 AND +vertex < 4);
SELECT 'wed_polygon_area = the shoelace formula in SQL', count(*) = 0 FROM wed_polygons('corpus/wed') AS p
  WHERE wed_polygon_area(p.vertices) <> coalesce((SELECT abs(sum((a.value ->> 0) * (b.value ->> 1) - (b.value ->> 0) * (a.value ->> 1))) / 2.0
    FROM json_each(p.vertices) AS a, json_each(p.vertices) AS b WHERE p.vertex_count >= 3 AND b.key = (a.key + 1) % p.vertex_count), 0);
SELECT 'the largest wall of BS0103', polygon = 52 AND wed_polygon_area(vertices) = 333157.0 FROM wed_polygons('corpus/wed/bst__bst__areas__BS0103.WED') ORDER BY wed_polygon_area(vertices) DESC LIMIT 1;

-- no-op UPDATE of every vertex of an area: byte for byte
CREATE TEMP TABLE orig AS SELECT readfile('corpus/wed/bst__bst__areas__bs0101.WED') AS bytes;
UPDATE wed_vertices SET x = x, y = y WHERE source = 'corpus/wed/bst__bst__areas__bs0101.WED';
SELECT 'a no-op UPDATE of every vertex rewrites byte for byte', readfile('corpus/wed/bst__bst__areas__bs0101.WED') = bytes FROM orig;

-- Edits in one transaction: move every vertex of walls 0-9 (many rows,
-- many polygons), delete the first two vertices of every wall with more
-- than five (a multi-row DELETE over many polygons), insert a vertex at the
-- front of wall 3 and at the end of the first door polygon.
BEGIN;
CREATE TEMP TABLE twin AS SELECT polygon, vertex, x, y FROM wed_vertices('corpus/wed/bst__bst__tis_bgee__bs0101.WED');
UPDATE wed_vertices SET x = x + 7, y = y + 3 WHERE source = 'corpus/wed/bst__bst__areas__bs0101.WED' AND polygon < 10;
SELECT 'many vertices moved', count(*) = (SELECT count(*) FROM twin WHERE polygon < 10) FROM wed_vertices('corpus/wed/bst__bst__areas__bs0101.WED') AS v JOIN twin AS t USING (polygon, vertex)
  WHERE v.polygon < 10 AND v.x = t.x + 7 AND v.y = t.y + 3;
DELETE FROM wed_vertices WHERE source = 'corpus/wed/bst__bst__areas__bs0101.WED' AND vertex < 2
  AND polygon IN (SELECT polygon FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') WHERE kind = 'wall' AND vertex_count > 5);
INSERT INTO wed_vertices(file, polygon, vertex, x, y) VALUES ('corpus/wed/bst__bst__areas__bs0101.WED', 3, 0, 1000, 900);
INSERT INTO wed_vertices(file, polygon, x, y)
  SELECT 'corpus/wed/bst__bst__areas__bs0101.WED', min(polygon), 1200, 1100 FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') WHERE kind = 'door_open';
COMMIT;

.open :memory:
CREATE TEMP TABLE twin AS SELECT polygon, vertex, x, y FROM wed_vertices('corpus/wed/bst__bst__tis_bgee__bs0101.WED');
CREATE TEMP TABLE big AS SELECT polygon FROM wed_polygons('corpus/wed/bst__bst__tis_bgee__bs0101.WED') WHERE kind = 'wall' AND vertex_count > 5;
SELECT 'the multi-row DELETE took the first two of each big wall, nothing else',
  (SELECT count(*) FROM wed_vertices('corpus/wed/bst__bst__areas__bs0101.WED')) = (SELECT count(*) FROM twin) - 2 * (SELECT count(*) FROM big) + 2;
SELECT 'the kept vertices of the big walls, in order, moved where moved', count(*) = 0 FROM twin AS t JOIN big USING (polygon)
  LEFT JOIN wed_vertices('corpus/wed/bst__bst__areas__bs0101.WED') AS v ON v.polygon = t.polygon AND v.vertex = t.vertex - 2 + (t.polygon = 3)
  WHERE t.vertex >= 2 AND (v.x IS NOT t.x + 7 * (t.polygon < 10) OR v.y IS NOT t.y + 3 * (t.polygon < 10));
SELECT 'small walls untouched but moved', count(*) = 0 FROM twin AS t LEFT JOIN wed_vertices('corpus/wed/bst__bst__areas__bs0101.WED') AS v USING (polygon, vertex)
  WHERE t.polygon NOT IN (SELECT polygon FROM big) AND t.polygon <> 3
    AND t.polygon NOT IN (SELECT min(polygon) FROM wed_polygons('corpus/wed/bst__bst__tis_bgee__bs0101.WED') WHERE kind = 'door_open')
    AND (v.x IS NOT t.x + 7 * (t.polygon < 10) OR v.y IS NOT t.y + 3 * (t.polygon < 10));
SELECT 'inserted at the front of wall 3', x = 1000 AND y = 900 FROM wed_vertices('corpus/wed/bst__bst__areas__bs0101.WED') WHERE polygon = 3 AND vertex = 0;
SELECT 'inserted at the end of the first open door polygon', x = 1200 AND y = 1100 FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') AS p
  JOIN wed_vertices('corpus/wed/bst__bst__areas__bs0101.WED') AS v ON v.polygon = p.polygon AND v.vertex = p.vertex_count - 1
  WHERE p.polygon = (SELECT min(polygon) FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') WHERE kind = 'door_open');
SELECT 'boxes are the vertices'' boxes', count(*) = 0 FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') AS p
  WHERE p.vertex_count > 0 AND (min_x, max_x, min_y, max_y) IS NOT (SELECT min(x), max(x), min(y), max(y) FROM wed_vertices('corpus/wed/bst__bst__areas__bs0101.WED') AS v WHERE v.polygon = p.polygon)
    AND p.polygon IN (SELECT polygon FROM big UNION SELECT 3 UNION SELECT polygon FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') WHERE polygon < 10);
SELECT 'wall groups cover every polygon', count(*) = 0
  FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') AS p JOIN wed_wallgroups('corpus/wed/bst__bst__areas__bs0101.WED') AS g
  ON p.max_x >= g.x_px AND p.min_x < g.x_px + 640 AND p.max_y >= g.y_px AND p.min_y < g.y_px + 480
  WHERE p.vertex_count > 0 AND p.min_x <= p.max_x AND p.min_y <= p.max_y AND NOT EXISTS (SELECT 1 FROM json_each(g.polygons) WHERE value = p.polygon);
SELECT 'wall groups list nothing their cell does not meet', count(*) = 0
  FROM wed_wallgroups('corpus/wed/bst__bst__areas__bs0101.WED') AS g, json_each(g.polygons) AS j
  JOIN wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') AS p ON p.polygon = j.value
  WHERE NOT (p.max_x >= g.x_px AND p.min_x < g.x_px + 640 AND p.max_y >= g.y_px AND p.min_y < g.y_px + 480);
SELECT 'doors and door polygons kept', (SELECT group_concat(name || open_polygons || closed_polygons) FROM wed_doors('corpus/wed/bst__bst__areas__bs0101.WED'))
  = (SELECT group_concat(name || open_polygons || closed_polygons) FROM wed_doors('corpus/wed/bst__bst__tis_bgee__bs0101.WED'));
SELECT 'the edited area loads', ok FROM levelsql_files('corpus/wed/bst__bst__areas__bs0101.WED');

-- a DELETE of walls and a door polygon in one statement deletes the rows
-- the statement saw (the door polygon found by uid after the walls before
-- it moved), and the door's state loses it (rolled back)
SELECT min(polygon) FROM wed_polygons('corpus/wed/bst__bst__areas__bs1000.WED') WHERE kind <> 'wall';
-- expect: 81
BEGIN;
CREATE TEMP TABLE p81 AS SELECT door, kind, vertices FROM wed_polygons('corpus/wed/bst__bst__areas__bs1000.WED') WHERE polygon = 81;
CREATE TEMP TABLE d0 AS SELECT d.door, d.open_count, d.closed_count FROM wed_doors('corpus/wed/bst__bst__areas__bs1000.WED') AS d JOIN p81 USING (door);
DELETE FROM wed_polygons WHERE source = 'corpus/wed/bst__bst__areas__bs1000.WED' AND (polygon < 5 OR polygon = 81);
SELECT count(*) FROM wed_polygons('corpus/wed/bst__bst__areas__bs1000.WED') WHERE kind = 'wall';
-- expect: 76
SELECT 'the door polygon is gone, not a neighbour', count(*) = 0 FROM wed_polygons('corpus/wed/bst__bst__areas__bs1000.WED') AS p JOIN p81 USING (vertices);
SELECT 'its door state lost it', d.open_count + d.closed_count = d0.open_count + d0.closed_count - 1 FROM wed_doors('corpus/wed/bst__bst__areas__bs1000.WED') AS d JOIN d0 USING (door);
ROLLBACK;
SELECT count(*) FROM wed_polygons('corpus/wed/bst__bst__areas__bs1000.WED') WHERE kind = 'wall';
-- expect: 81
