-- wed_vertices and wed_polygon_area on the constructed area
-- (fixtures/wed/AR9999.WED: walls 0-2 and door polygons 3, 4, four
-- vertices each, in 2x2 wall groups; see wed_constructed.sql) and on the
-- samples: the rows agree with wed_polygons.vertices; UPDATE, INSERT and
-- DELETE of vertices recompute the box and the wall groups, keep the rows'
-- identity inside multi-row statements and a transaction, and read back
-- the same in a new connection; refusals name the row as the statement saw
-- it.  The real areas: wed_vertices_corpus.sql.

-- Reading: one row per vertex, as the vertices column lists them.
SELECT count(*) FROM wed_vertices('fixtures/wed/AR9999.WED');
-- expect: 20
SELECT group_concat(vertex || ':' || x || ',' || y, ' ') FROM wed_vertices('fixtures/wed/AR9999.WED') WHERE polygon = 1;
-- expect: 0:600,500 1:700,500 2:700,400 3:600,400
SELECT count(*) FROM wed_vertices('samples') AS v JOIN wed_polygons('samples') AS p ON p.file = v.file AND p.polygon = v.polygon, json_each(p.vertices) AS j
WHERE j.key = v.vertex AND j.value ->> 0 = v.x AND j.value ->> 1 = v.y;
-- expect: 90
SELECT (SELECT count(*) FROM wed_vertices('samples')) = (SELECT sum(vertex_count) FROM wed_polygons('samples'));
-- expect: 1
-- push-down on polygon and vertex = the plain filter
SELECT (SELECT count(*) FROM wed_vertices('samples') WHERE polygon BETWEEN 2 AND 8 AND vertex > 1) = (SELECT count(*) FROM wed_vertices('samples') WHERE +polygon BETWEEN 2 AND 8 AND +vertex > 1);
-- expect: 1
SELECT group_concat(column_name || writable, ',') FROM levelsql_columns WHERE table_name = 'wed_vertices';
-- expect: file0,polygon0,vertex0,x1,y1,source0,options0

-- wed_polygon_area: square pixels, absolute, the last point joined to the first.
SELECT wed_polygon_area(vertices) FROM wed_polygons('fixtures/wed/AR9999.WED') WHERE polygon = 0;
-- expect: 10000.0
SELECT wed_polygon_area('[[0,0],[10,0],[10,10]]'), wed_polygon_area('[[10,10],[10,0],[0,0]]'), wed_polygon_area('[[0,0],[3,0],[0,1]]');
-- expect: 50.0|50.0|1.5
SELECT wed_polygon_area('[]'), wed_polygon_area('[[1,2],[3,4]]'), quote(wed_polygon_area(NULL));
-- expect: 0.0|0.0|NULL
-- the same as the shoelace formula in SQL over every polygon of the samples
SELECT count(*) FROM wed_polygons('samples') AS p
WHERE wed_polygon_area(p.vertices) <> coalesce((SELECT abs(sum((a.value ->> 0) * (b.value ->> 1) - (b.value ->> 0) * (a.value ->> 1))) / 2.0
  FROM json_each(p.vertices) AS a, json_each(p.vertices) AS b WHERE p.vertex_count >= 3 AND b.key = (a.key + 1) % p.vertex_count), 0);
-- expect: 0
SELECT wed_polygon_area('[[1,2],[3');
-- expect error: wed_polygon_area
-- expect error: not valid JSON
SELECT wed_polygon_area('{"x":1}');
-- expect error: not a JSON array
SELECT wed_polygon_area('[[1,2],[3,4,5]]');
-- expect error: element 1
-- expect error: from 0 to 65535
SELECT wed_polygon_area('[[1,2],[3,70000]]');
-- expect error: element 1
SELECT wed_polygon_area('[[1,2],[3.5,4]]');
-- expect error: element 1

CREATE TEMP TABLE orig AS SELECT readfile('fixtures/wed/AR9999.WED') AS bytes;
-- A no-op UPDATE of every vertex rewrites nothing.
UPDATE wed_vertices SET x = x, y = y WHERE source = 'fixtures/wed/AR9999.WED';
SELECT readfile('fixtures/wed/AR9999.WED') = bytes FROM orig;
-- expect: 1

-- Bad values and refused writes change nothing.
UPDATE wed_vertices SET x = 65536 WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column x
-- expect error: 0 to 65535
UPDATE wed_vertices SET y = -1 WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0 AND vertex = 2;
-- expect error: vertex 2 of wall polygon 0
-- expect error: column y
UPDATE wed_vertices SET vertex = 3 WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0 AND vertex = 0;
-- expect error: column vertex
-- expect error: read-only
UPDATE wed_vertices SET polygon = 1 WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column polygon
-- expect error: read-only
INSERT INTO wed_vertices(file, polygon, x) VALUES ('fixtures/wed/AR9999.WED', 0, 5);
-- expect error: needs polygon, x and y
INSERT INTO wed_vertices(file, x, y) VALUES ('fixtures/wed/AR9999.WED', 5, 6);
-- expect error: needs polygon, x and y
INSERT INTO wed_vertices(file, polygon, x, y) VALUES ('fixtures/wed/AR9999.WED', 5, 5, 6);
-- expect error: column polygon
-- expect error: 0 to 4
INSERT INTO wed_vertices(file, polygon, vertex, x, y) VALUES ('fixtures/wed/AR9999.WED', 0, 5, 5, 6);
-- expect error: column vertex
-- expect error: 0 to 4
INSERT INTO wed_vertices(file, polygon, x, y) VALUES ('fixtures/wed/AR9999.WED', 0, 5, 65536);
-- expect error: column y
-- expect error: 0 to 65535
SELECT readfile('fixtures/wed/AR9999.WED') = bytes FROM orig;
-- expect: 1

-- A DELETE of door polygons after walls in one statement (door polygons
-- can be deleted now): it deletes exactly the rows the statement saw, found
-- by their uid after the walls before them moved (a refused DELETE naming
-- the row as the statement saw it: wed_edit.sql).  Rolled back.
BEGIN;
DELETE FROM wed_polygons WHERE source = 'fixtures/wed/AR9999.WED' AND (polygon < 2 OR kind = 'door_open');
SELECT group_concat(polygon || ':' || kind || ':' || min_x, ' ') FROM wed_polygons('fixtures/wed/AR9999.WED');
-- expect: 0:wall:1000 1:door_closed:310
ROLLBACK;
SELECT readfile('fixtures/wed/AR9999.WED') = bytes FROM orig;
-- expect: 1

-- One vertex moved: the box and the wall groups follow (polygon 0 now
-- reaches into group 1).
UPDATE wed_vertices SET x = 700 WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0 AND vertex = 1;
SELECT vertices || ' ' || min_x || ',' || max_x || ',' || min_y || ',' || max_y FROM wed_polygons('fixtures/wed/AR9999.WED') WHERE polygon = 0;
-- expect: [[100,200],[700,200],[200,100],[100,100]] 100,700,100,200
SELECT group_concat(grp || ':' || polygons, ' ') FROM wed_wallgroups('fixtures/wed/AR9999.WED');
-- expect: 0:[0,1,3,4] 1:[0,1] 2:[1] 3:[1,2]

-- A multi-row DELETE: vertices 0 and 2 of polygon 0 (rowids collected
-- first; vertex 2 is still the one the statement saw after vertex 0 went),
-- and vertex 3 of both door polygons.
DELETE FROM wed_vertices WHERE source = 'fixtures/wed/AR9999.WED' AND ((polygon = 0 AND vertex IN (0, 2)) OR (polygon >= 3 AND vertex = 3));
SELECT group_concat(polygon || vertices, ' ') FROM wed_polygons('fixtures/wed/AR9999.WED') WHERE polygon IN (0, 3, 4);
-- expect: 0[[700,200],[100,100]] 3[[300,350],[350,350],[350,300]] 4[[310,360],[360,360],[360,300]]
SELECT min_x || ',' || max_x || ',' || min_y || ',' || max_y FROM wed_polygons('fixtures/wed/AR9999.WED') WHERE polygon = 0;
-- expect: 100,700,100,200

-- An UPDATE of many vertices at once (every vertex of the area).
CREATE TEMP TABLE vbefore AS SELECT rowid AS r, polygon, vertex, x, y FROM wed_vertices('fixtures/wed/AR9999.WED');
UPDATE wed_vertices SET x = x + 10, y = y + polygon WHERE source = 'fixtures/wed/AR9999.WED';
SELECT count(*) FROM vbefore AS b JOIN wed_vertices('fixtures/wed/AR9999.WED') AS v ON v.rowid = b.r
WHERE v.polygon = b.polygon AND v.vertex = b.vertex AND v.x = b.x + 10 AND v.y = b.y + b.polygon;
-- expect: 16
SELECT group_concat(polygon || ':' || min_x || ',' || max_x || ',' || min_y || ',' || max_y, ' ') FROM wed_polygons('fixtures/wed/AR9999.WED');
-- expect: 0:110,710,100,200 1:610,710,401,501 2:1010,1110,802,902 3:310,360,303,353 4:320,370,304,364

-- INSERT: at a position (the later vertices move up), at the end by
-- default, into a door polygon too.
INSERT INTO wed_vertices(file, polygon, vertex, x, y) VALUES ('fixtures/wed/AR9999.WED', 0, 1, 50, 60);
INSERT INTO wed_vertices(file, polygon, x, y) VALUES ('fixtures/wed/AR9999.WED', 0, 900, 250);
INSERT INTO wed_vertices(file, polygon, vertex, x, y) VALUES ('fixtures/wed/AR9999.WED', 3, 0, 305, 290);
SELECT group_concat(polygon || vertices || vertex_count, ' ') FROM wed_polygons('fixtures/wed/AR9999.WED') WHERE polygon IN (0, 3);
-- expect: 0[[710,200],[50,60],[110,100],[900,250]]4 3[[305,290],[310,353],[360,353],[360,303]]4
SELECT min_x || ',' || max_x || ',' || min_y || ',' || max_y FROM wed_polygons('fixtures/wed/AR9999.WED') WHERE polygon = 0;
-- expect: 50,900,60,250
SELECT group_concat(grp || ':' || polygons, ' ') FROM wed_wallgroups('fixtures/wed/AR9999.WED');
-- expect: 0:[0,1,3,4] 1:[0,1] 2:[1] 3:[1,2]
-- every vertex of a polygon deleted: no box, in no wall group
DELETE FROM wed_vertices WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 2;
SELECT vertex_count || vertices || min_x || ',' || max_x FROM wed_polygons('fixtures/wed/AR9999.WED') WHERE polygon = 2;
-- expect: 0[]65535,65535
SELECT polygons FROM wed_wallgroups('fixtures/wed/AR9999.WED') WHERE grp = 3;
-- expect: [1]

-- Inside a transaction a vertex keeps its rowid while vertices and walls
-- around it come and go.
BEGIN;
CREATE TEMP TABLE kept AS SELECT rowid AS r FROM wed_vertices('fixtures/wed/AR9999.WED') WHERE polygon = 1 AND vertex = 3;
DELETE FROM wed_vertices WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 1 AND vertex = 0;
DELETE FROM wed_polygons WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
INSERT INTO wed_polygons(file, vertices) VALUES ('fixtures/wed/AR9999.WED', '[[20,20],[40,20],[30,40]]');
SELECT polygon || ':' || vertex || ':' || x || ',' || y FROM wed_vertices('fixtures/wed/AR9999.WED') WHERE rowid = (SELECT r FROM kept);
-- expect: 0:2:610,401
UPDATE wed_vertices SET y = 450 WHERE rowid = (SELECT r FROM kept);
COMMIT;

-- A new connection reads what was written.
.open :memory:
SELECT group_concat(polygon || kind || vertices, ' ') FROM wed_polygons('fixtures/wed/AR9999.WED');
-- expect: 0wall[[710,501],[710,401],[610,450]] 1wall[] 2wall[[20,20],[40,20],[30,40]] 3door_open[[305,290],[310,353],[360,353],[360,303]] 4door_closed[[320,364],[370,364],[370,304]]
SELECT group_concat(polygon || ':' || min_x || ',' || max_x || ',' || min_y || ',' || max_y, ' ') FROM wed_polygons('fixtures/wed/AR9999.WED');
-- expect: 0:610,710,401,501 1:65535,65535,65535,65535 2:20,40,20,40 3:305,360,290,353 4:320,370,304,364
SELECT group_concat(grp || ':' || polygons, ' ') FROM wed_wallgroups('fixtures/wed/AR9999.WED');
-- expect: 0:[0,2,3,4] 1:[0] 2:[0] 3:[0]
SELECT name || cells || open_polygons || closed_polygons FROM wed_doors('fixtures/wed/AR9999.WED');
-- expect: DOOR01[21,22][3][4]
SELECT count(*) FROM wed_vertices('fixtures/wed/AR9999.WED');
-- expect: 13
SELECT ok FROM levelsql_files('fixtures/wed/AR9999.WED');
-- expect: 1
