-- The SQL layer on small generated WWD levels (fixtures/engine, written by
-- the codec's writer: wwd_fixture.h; N objects on the main plane, logic
-- Officer / Rat alternating, id = 100 + index, health = 10 + index,
-- x = 64 * index, y = 32; a 8x6 main plane; one single and one double tile
-- property): value errors, INSERT and DELETE, the cache, named tables,
-- levelsql_files and its errors.  What needs the files' inodes, other
-- writers or random constraint sets is in test/unit/test_engine.c.

-- Values that do not fit fail with the column and the limit (v.wwd: 2
-- objects), and the failed statements write nothing.
CREATE TEMP TABLE v_before AS SELECT readfile('fixtures/engine/v.wwd') AS bytes, levelsql_cache_stats() ->> 'writes' AS writes;
UPDATE wwd_levels SET name = '0123456789012345678901234567890123456789012345678901234567890123' WHERE source = 'fixtures/engine/v.wwd';
-- expect error: column name
-- expect error: 64 bytes
UPDATE wwd_objects SET health = 'lots' WHERE source = 'fixtures/engine/v.wwd';
-- expect error: column health
-- expect error: not an integer
UPDATE wwd_objects SET health = 'lots' WHERE source = 'fixtures/engine/v.wwd' AND idx = 1;
-- expect error: v.wwd: object 1 of plane 0: column health
UPDATE wwd_tiles SET kind = 'x' WHERE source = 'fixtures/engine/v.wwd' AND x = 3 AND y = 2;
-- expect error: tile x 3, y 2 of plane 0: column kind
UPDATE wwd_objects SET x = 3000000000 WHERE source = 'fixtures/engine/v.wwd';
-- expect error: column x
-- expect error: 2147483647
UPDATE wwd_objects SET draw_flags = -1 WHERE source = 'fixtures/engine/v.wwd';
-- expect error: column draw_flags
-- expect error: 4294967295
UPDATE wwd_tiles SET kind = 'lava' WHERE source = 'fixtures/engine/v.wwd' AND x = 0 AND y = 0;
-- expect error: column kind
-- expect error: 'tile', 'invisible' or 'filled'
UPDATE wwd_tiles SET tile = 4008636142 WHERE source = 'fixtures/engine/v.wwd' AND x = 1 AND y = 0;
-- expect error: column tile
-- expect error: special value
UPDATE wwd_objects SET idx = 7 WHERE source = 'fixtures/engine/v.wwd';
-- expect error: column idx
-- expect error: read-only
UPDATE wwd_objects SET logic = 'Łoś' WHERE source = 'fixtures/engine/v.wwd';
-- expect error: column logic
-- expect error: cp1252
UPDATE wwd_tile_properties SET rect_left = 3 WHERE source = 'fixtures/engine/v.wwd' AND tile = 0;
-- expect error: column rect_left
-- expect error: single
UPDATE wwd_tile_properties SET type = 'mask', mask = x'00' WHERE source = 'fixtures/engine/v.wwd' AND tile = 0;
-- expect error: mask
-- expect error: 64
UPDATE wwd_planes SET image_sets = '[1,2]' WHERE source = 'fixtures/engine/v.wwd';
-- expect error: column image_sets
-- expect error: not a string
UPDATE wwd_planes SET image_sets = '["ACTION", null]' WHERE source = 'fixtures/engine/v.wwd';
-- expect error: column image_sets: element 1 is null, not a string
UPDATE wwd_planes SET image_sets = 'nope' WHERE source = 'fixtures/engine/v.wwd';
-- expect error: column image_sets
UPDATE wwd_planes SET image_sets = '["ACTION", "漢"]' WHERE source = 'fixtures/engine/v.wwd';
-- expect error: column image_sets: character U+6F22 cannot be written in cp1252
UPDATE wwd_planes SET image_sets = '["\ud800"]' WHERE source = 'fixtures/engine/v.wwd';
-- expect error: column image_sets: element 0 is not valid UTF-8
SELECT * FROM wwd_objects('fixtures/engine/v.wwd', 'encoding=klingon');
-- expect error: unknown encoding
DELETE FROM wwd_tiles WHERE source = 'fixtures/engine/v.wwd';
-- expect error: cannot be deleted
INSERT INTO wwd_objects(file, plane, logic) VALUES ('fixtures/engine/v.wwd', 5, 'Rat');
-- expect error: column plane
-- expect error: from 0 to 0
-- failed edits wrote nothing (no file written, the same bytes), and left
-- no temporary file
SELECT readfile('fixtures/engine/v.wwd') = bytes, (levelsql_cache_stats() ->> 'writes') = writes FROM v_before;
-- expect: 1|1
SELECT count(*) FROM fsdir('fixtures/engine') WHERE name LIKE '%.levelsql-%';
-- expect: 0

-- INSERT appends to a plane; DELETE of many rows in one statement removes
-- exactly those (rowids stay valid while other rows go).  i.wwd: 10
-- objects; j.wwd: none, compressed.
INSERT INTO wwd_objects(file, logic, image_set, x, y, health, name) VALUES ('fixtures/engine/i.wwd', 'Officer', 'LEVEL_OFFICER', 10, 20, 55, 'new');
SELECT count(*) FROM wwd_objects('fixtures/engine/i.wwd');
-- expect: 11
-- appended at the end of the main plane
SELECT idx FROM wwd_objects('fixtures/engine/i.wwd') WHERE name = 'new';
-- expect: 10
-- the values set, the others 0
SELECT health + x + y + score FROM wwd_objects('fixtures/engine/i.wwd') WHERE name = 'new';
-- expect: 85
DELETE FROM wwd_objects WHERE source = 'fixtures/engine/i.wwd' AND idx % 2 = 0;
SELECT count(*) FROM wwd_objects('fixtures/engine/i.wwd');
-- expect: 5
-- exactly the even positions went: the right ones
SELECT count(*) FROM wwd_objects('fixtures/engine/i.wwd') WHERE logic = 'Rat';
-- expect: 5
SELECT sum(id) FROM wwd_objects('fixtures/engine/i.wwd');
-- expect: 525
-- INSERT ... SELECT from the same file
INSERT INTO wwd_objects(file, plane, idx, logic) SELECT file, plane, 99, logic || 'Copy' FROM wwd_objects('fixtures/engine/i.wwd');
SELECT count(*) FROM wwd_objects('fixtures/engine/i.wwd') WHERE logic = 'RatCopy';
-- expect: 5
-- objects copied to another level
INSERT INTO wwd_objects(file, logic, x, y) SELECT 'fixtures/engine/j.wwd', logic, x, y FROM wwd_objects('fixtures/engine/i.wwd') WHERE logic = 'Rat';
SELECT count(*) FROM wwd_objects('fixtures/engine/j.wwd');
-- expect: 5

-- The cache answers repeated queries without parsing again; a changed
-- file is parsed again; file = ? reads only that file.  A new connection,
-- so the counts start at 0; cache/: 1.wwd, 2.wwd (compressed), 3.wwd, 3
-- objects each.
.open :memory:
SELECT count(*) FROM wwd_objects('fixtures/engine/cache') WHERE file = 'fixtures/engine/cache/2.wwd';
-- expect: 3
-- file = ? parsed one file only
SELECT levelsql_cache_stats() ->> 'parses';
-- expect: 1
SELECT count(*) FROM wwd_objects('fixtures/engine/cache');
-- expect: 9
-- each file parsed once
SELECT levelsql_cache_stats() ->> 'parses';
-- expect: 3
SELECT count(*) FROM wwd_objects('fixtures/engine/cache');
-- expect: 9
-- the second query parsed nothing
SELECT levelsql_cache_stats() ->> 'parses';
-- expect: 3
-- another tool writes 3.wwd anew, with 5 objects
.shell cp fixtures/engine/cache-3-changed.wwd fixtures/engine/cache/3.wwd
SELECT count(*) FROM wwd_objects('fixtures/engine/cache');
-- expect: 11
-- only the changed file was parsed
SELECT levelsql_cache_stats() ->> 'parses';
-- expect: 4
-- a tiny budget still gives right answers (files are evicted and re-read)
SELECT levelsql_cache_limit(1);
-- expect ok
SELECT count(*) FROM wwd_objects('fixtures/engine/cache');
-- expect: 11
-- the cache keeps to its budget
SELECT (levelsql_cache_stats() ->> 'bytes') < 100000;
-- expect: 1
UPDATE wwd_objects SET score = 7 WHERE source = 'fixtures/engine/cache';
SELECT sum(score) FROM wwd_objects('fixtures/engine/cache');
-- expect: 77
-- ranges on tiles: ranges, a point, out-of-range bounds, real bounds
SELECT count(*) FROM wwd_tiles('fixtures/engine/cache') WHERE x BETWEEN 2 AND 4 AND y > 3;
-- expect: 18
SELECT count(*) FROM wwd_tiles('fixtures/engine/cache') WHERE x = 7 AND y = 5 AND plane = 0;
-- expect: 3
SELECT count(*) FROM wwd_tiles('fixtures/engine/cache') WHERE x > 7.5 OR y < -1;
-- expect: 0
SELECT count(*) FROM wwd_tiles('fixtures/engine/cache') WHERE x >= 6.5 AND x < 7.5 AND y = 5;
-- expect: 3

-- Tables cannot be used from views or triggers of a database file; a
-- named table reads its source (n.wwd: 4 objects).
CREATE VIEW v AS SELECT * FROM wwd_levels('fixtures/engine/n.wwd');
SELECT * FROM v;
-- expect error: unsafe use
DROP VIEW v;
CREATE VIRTUAL TABLE temp.lv USING wwd_objects('fixtures/engine/n.wwd', encoding=cp1250);
SELECT count(*) FROM lv;
-- expect: 4
-- cp1250 text round-trips
UPDATE lv SET name = 'Łódź' WHERE idx = 0;
SELECT name FROM lv WHERE idx = 0;
-- expect: Łódź
-- INSERT into a named table with one file needs no file
INSERT INTO lv(logic) VALUES ('Rat');
SELECT count(*) FROM lv;
-- expect: 5
-- a one-file named table takes every row, whatever `file` says (INSERT ...
-- SELECT * brings the file it copies from)
INSERT INTO lv(file, logic) VALUES ('fixtures/engine/v.wwd', 'Rat');
SELECT count(*) FROM lv;
-- expect: 6
DROP TABLE lv;
SELECT * FROM wwd_objects;
-- expect error: wwd_objects needs a source: wwd_objects('folder') or WHERE source = '...'

-- levelsql_files reports every file; other tables fail with the error.
-- bad/: good.wwd (2 objects), short.wwd (its first 1600 bytes), notes.txt
-- (no level; a 3 GiB one: test_engine.c).
SELECT count(*) FROM levelsql_files('fixtures/engine/bad');
-- expect: 3
SELECT ok FROM levelsql_files('fixtures/engine/bad') WHERE file LIKE '%good.wwd';
-- expect: 1
-- a truncated level's error names the offset
SELECT instr(error, 'byte offset') > 0 FROM levelsql_files('fixtures/engine/bad') WHERE file LIKE '%short.wwd';
-- expect: 1
-- an unknown format is NULL
SELECT quote(format) FROM levelsql_files('fixtures/engine/bad') WHERE file LIKE '%notes.txt';
-- expect: NULL
SELECT instr(error, 'No such file') > 0 FROM levelsql_files('fixtures/engine/bad/missing.wwd');
-- expect: 1
SELECT count(*) FROM wwd_objects('fixtures/engine/bad');
-- expect error: short.wwd
-- expect error: byte offset
SELECT count(*) FROM wwd_objects('fixtures/engine/bad/missing.wwd');
-- expect error: missing.wwd
-- expect error: No such file or directory
-- a pattern without matches is empty
SELECT count(*) FROM wwd_objects('fixtures/engine/bad/*.nothing');
-- expect: 0
UPDATE levelsql_files SET size = 1 WHERE source = 'fixtures/engine/bad';
-- expect error: read-only
