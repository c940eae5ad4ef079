-- The WED tables on a small area built byte by byte (wed_sample.h, not with
-- the codec's writer; fixtures/wed/AR9999.WED): a 20x15 base overlay
-- "AR9999" in 2x2 wall groups, four unused overlays, door "DOOR01" (cells 21
-- and 22, one open and one closed polygon) and three square walls.  Every
-- table's rows and values, no-op rewrites byte for byte, and every bad
-- value failing with a message naming the column and the limit.  The edit
-- scenarios, whose written files the codec checks, and the corpus are in
-- test/unit/test_wed_sql.c.

-- wed_flag_names / wed_flag_value.
SELECT wed_flag_names(141);
-- expect: shade_wall|hovering|cover_animations|door
SELECT wed_flag_names(0);
-- expect:
SELECT quote(wed_flag_names(NULL));
-- expect: NULL
SELECT wed_flag_value('shade_wall|hovering|cover_animations|door');
-- expect: 141
-- spaces and order
SELECT wed_flag_value(' door | shade_wall ');
-- expect: 129
SELECT wed_flag_value(9);
-- expect: 9
SELECT wed_flag_names(256);
-- expect error: wed_flag_names
-- expect error: 0 to 255
SELECT wed_flag_value('shade_wall|walls');
-- expect error: wed_flag_value
-- expect error: 'walls'
SELECT count(*) > 40 FROM levelsql_columns WHERE table_name LIKE 'wed_%';
-- expect: 1

-- Reading the constructed area: every table's rows and values.
SELECT format || ok FROM levelsql_files('fixtures/wed/AR9999.WED');
-- expect: wed1
SELECT group_concat(overlay || ':' || width || 'x' || height || ':' || tileset || ':' || num_cells, ',') FROM wed_overlays('fixtures/wed/AR9999.WED');
-- expect: 0:20x15:AR9999:300,1:0x0::0,2:0x0::0,3:0x0::0,4:0x0::0
SELECT name || closed || first_cell || cell_count || cells || open_polygons || closed_polygons FROM wed_doors('fixtures/wed/AR9999.WED');
-- expect: DOOR01102[21,22][3][4]
SELECT group_concat(polygon || kind || coalesce(door, '-') || coalesce(door_name, '-') || flags, ',') FROM wed_polygons('fixtures/wed/AR9999.WED');
-- expect: 0wall--1,1wall--1,2wall--1,3door_open0DOOR01137,4door_closed0DOOR01137
SELECT vertices FROM wed_polygons('fixtures/wed/AR9999.WED') WHERE polygon = 1;
-- expect: [[600,500],[700,500],[700,400],[600,400]]
SELECT group_concat(grp || ':' || x_px || ',' || y_px || ':' || polygons, ' ') FROM wed_wallgroups('fixtures/wed/AR9999.WED');
-- expect: 0:0,0:[0,1,3,4] 1:640,0:[1] 2:0,480:[1] 3:640,480:[1,2]
-- one tile row per used cell
SELECT count(*) FROM wed_tiles('fixtures/wed/AR9999.WED');
-- expect: 300
SELECT cell || tis_tiles || secondary_tile FROM wed_tiles('fixtures/wed/AR9999.WED') WHERE overlay = 0 AND x = 1 AND y = 1;
-- expect: 21[21]521
SELECT quote(secondary_tile) FROM wed_tiles('fixtures/wed/AR9999.WED') WHERE x = 0 AND y = 0;
-- expect: NULL
-- x/y push-down, and the same as a plain filter
SELECT count(*) FROM wed_tiles('fixtures/wed/AR9999.WED') WHERE x BETWEEN 3 AND 5 AND y > 12 AND overlay = 0;
-- expect: 6
SELECT count(*) FROM wed_tiles('fixtures/wed/AR9999.WED') WHERE +x BETWEEN 3 AND 5 AND +y > 12 AND +overlay = 0;
-- expect: 6
-- vertices through json_each
SELECT count(*) FROM wed_polygons('fixtures/wed/AR9999.WED') AS p, json_each(p.vertices) AS v;
-- expect: 20
SELECT sum(v.value->>0) FROM wed_polygons('fixtures/wed/AR9999.WED') AS p, json_each(p.vertices) AS v WHERE p.polygon = 0;
-- expect: 600
SELECT json_valid(vertices) AND json_type(vertices) = 'array' FROM wed_polygons('fixtures/wed/AR9999.WED') WHERE polygon = 0;
-- expect: 1
SELECT json_array_length(vertices) FROM wed_polygons('fixtures/wed/AR9999.WED') WHERE polygon = 2;
-- expect: 4

-- No-op UPDATEs of every polygon, tile and door rewrite the file byte for
-- byte.
CREATE TEMP TABLE orig AS SELECT readfile('fixtures/wed/AR9999.WED') AS bytes;
UPDATE wed_polygons SET flags = flags, vertices = vertices WHERE source = 'fixtures/wed/AR9999.WED';
SELECT readfile('fixtures/wed/AR9999.WED') = bytes FROM orig;
-- expect: 1
UPDATE wed_tiles SET tis_tiles = tis_tiles, secondary_tile = secondary_tile WHERE source = 'fixtures/wed/AR9999.WED';
UPDATE wed_doors SET cells = cells, name = name WHERE source = 'fixtures/wed/AR9999.WED';
SELECT readfile('fixtures/wed/AR9999.WED') = bytes FROM orig;
-- expect: 1

-- Bad values fail with the column and the limit, and change nothing.
UPDATE wed_polygons SET vertices = '[1,2,3]' WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column vertices
-- expect error: [x,y] pair
UPDATE wed_polygons SET vertices = '[[1,2],[3,4,5]]' WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column vertices
-- expect error: element 1
UPDATE wed_polygons SET vertices = '[[1,2],[3,70000]]' WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column vertices
-- expect error: 0 to 65535
UPDATE wed_polygons SET vertices = '[[1,2],[-3,4]]' WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column vertices
-- expect error: out of range
UPDATE wed_polygons SET vertices = '[[1,2]' WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column vertices
-- expect error: not valid JSON
UPDATE wed_polygons SET vertices = '{"x":1}' WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column vertices
-- expect error: JSON array
UPDATE wed_polygons SET vertices = '[[1.5,2]]' WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column vertices
-- expect error: integers
UPDATE wed_polygons SET vertices = NULL WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column vertices
-- expect error: NULL
UPDATE wed_polygons SET flags = 256 WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column flags
-- expect error: 0 to 255
UPDATE wed_polygons SET height = 'high' WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column height
-- expect error: not an integer
UPDATE wed_polygons SET min_x = 70000 WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column min_x
-- expect error: 0 to 65535
UPDATE wed_polygons SET min_y = 900, max_y = 100 WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column min_y
-- expect error: min_y <= max_y
UPDATE wed_polygons SET kind = 'door_open' WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column kind
-- expect error: read-only
UPDATE wed_polygons SET vertex_count = 3 WHERE source = 'fixtures/wed/AR9999.WED' AND polygon = 0;
-- expect error: column vertex_count
-- expect error: read-only
INSERT INTO wed_polygons(file, kind, vertices) VALUES ('fixtures/wed/AR9999.WED', 'door_open', '[]');
-- expect error: kind 'door_open' or 'door_closed' with a door
INSERT INTO wed_polygons(file, kind, door, vertices) VALUES ('fixtures/wed/AR9999.WED', 'door_open', 1, '[]');
-- expect error: column door
-- expect error: from 0 to 0
INSERT INTO wed_polygons(file, kind, door, vertices) VALUES ('fixtures/wed/AR9999.WED', 'wall', 0, '[]');
-- expect error: without a door
INSERT INTO wed_polygons(file, kind, door, vertices) VALUES ('fixtures/wed/AR9999.WED', 'orphan', 0, '[]');
-- expect error: INSERT into wed_polygons takes kind
INSERT INTO wed_polygons(file, vertices) VALUES ('fixtures/wed/AR9999.WED', '[[1,2],[x]]');
-- expect error: column vertices
UPDATE wed_doors SET cells = '[1,300]' WHERE source = 'fixtures/wed/AR9999.WED';
-- expect error: column cells
-- expect error: 0 to 299
UPDATE wed_doors SET cells = '[1,"2"]' WHERE source = 'fixtures/wed/AR9999.WED';
-- expect error: column cells
-- expect error: not an integer
UPDATE wed_doors SET name = 'TOOLONGNAME' WHERE source = 'fixtures/wed/AR9999.WED';
-- expect error: column name
-- expect error: 8 bytes
UPDATE wed_doors SET closed = 65536 WHERE source = 'fixtures/wed/AR9999.WED';
-- expect error: column closed
-- expect error: 0 to 65535
UPDATE wed_doors SET open_polygons = '[]' WHERE source = 'fixtures/wed/AR9999.WED';
-- expect error: open_polygons
-- expect error: read-only
UPDATE wed_tiles SET tis_tiles = '[]' WHERE source = 'fixtures/wed/AR9999.WED' AND x = 0 AND y = 0;
-- expect error: column tis_tiles
-- expect error: 1 to 65535
UPDATE wed_tiles SET tis_tiles = '[65536]' WHERE source = 'fixtures/wed/AR9999.WED' AND x = 0 AND y = 0;
-- expect error: column tis_tiles
-- expect error: 0 to 65535
UPDATE wed_tiles SET secondary_tile = 65535 WHERE source = 'fixtures/wed/AR9999.WED' AND x = 0 AND y = 0;
-- expect error: column secondary_tile
-- expect error: 0 to 65534
UPDATE wed_tiles SET overlay_mask = 256 WHERE source = 'fixtures/wed/AR9999.WED' AND x = 0 AND y = 0;
-- expect error: column overlay_mask
-- expect error: 0 to 255
UPDATE wed_overlays SET tileset = 'ABCDEFGHI' WHERE source = 'fixtures/wed/AR9999.WED' AND overlay = 0;
-- expect error: column tileset
-- expect error: 8 bytes
UPDATE wed_overlays SET width = 1 WHERE source = 'fixtures/wed/AR9999.WED' AND overlay = 0;
-- expect error: overlay 0: cannot resize: door 0: its cell 21 (x 1, y 1) lies outside the new 1x15 area
UPDATE wed_overlays SET width = 0, height = 0 WHERE source = 'fixtures/wed/AR9999.WED' AND overlay = 0;
-- expect error: the base overlay is the area and cannot be emptied
UPDATE wed_overlays SET width = 2 WHERE source = 'fixtures/wed/AR9999.WED' AND overlay = 1;
-- expect error: 2x0; both sizes are 0
UPDATE wed_overlays SET height = 65536 WHERE source = 'fixtures/wed/AR9999.WED' AND overlay = 1;
-- expect error: column height
-- expect error: 0 to 65535
UPDATE wed_overlays SET width = 300, height = 300 WHERE source = 'fixtures/wed/AR9999.WED' AND overlay = 1;
-- expect error: 90000 cells
DELETE FROM wed_overlays WHERE source = 'fixtures/wed/AR9999.WED' AND overlay = 0;
-- expect error: overlay 0 is the base overlay
INSERT INTO wed_overlays(file, width, height) VALUES ('fixtures/wed/AR9999.WED', 1, NULL);
-- expect error: needs width and height
INSERT INTO wed_overlays(file, overlay, width, height) VALUES ('fixtures/wed/AR9999.WED', 0, 1, 1);
-- expect error: always in use
INSERT INTO wed_overlays(file, overlay, width, height) VALUES ('fixtures/wed/AR9999.WED', 5, 1, 1);
-- expect error: no such overlay record
UPDATE wed_overlays SET movement_type = -1 WHERE source = 'fixtures/wed/AR9999.WED' AND overlay = 0;
-- expect error: column movement_type
-- expect error: 0 to 65535
UPDATE wed_wallgroups SET polygons = '[]' WHERE source = 'fixtures/wed/AR9999.WED';
-- expect error: read-only
DELETE FROM wed_wallgroups WHERE source = 'fixtures/wed/AR9999.WED';
-- expect error: cannot be deleted
INSERT INTO wed_doors(file, door, name) VALUES ('fixtures/wed/AR9999.WED', 0, 'X');
-- expect error: a new door goes after the last, as door 1
INSERT INTO wed_doors(file, name, cells) VALUES ('fixtures/wed/AR9999.WED', 'X', '[300]');
-- expect error: column cells
-- expect error: 0 to 299
-- the failed statements leave the file as it was
SELECT readfile('fixtures/wed/AR9999.WED') = bytes FROM orig;
-- expect: 1
