-- A rowid names one row of one file in every connection (issue 24, item
-- 2; engine.h, "Row identity"): the rowid is kept in a table of an
-- on-disk database, and each `.open` of it is a fresh connection.
-- (Several processes, the formula and collisions: test/unit/test_rowid.c.)
.open rowid_keep.db
SELECT levelsql_copy('samples/SAMPLE01.WWD', 'pair_A.WWD'), levelsql_copy('samples/SAMPLE02.WWD', 'pair_B.WWD');
-- expect ok
CREATE TABLE kept AS SELECT rowid AS r, plane, idx, logic FROM wwd_objects('pair_*.WWD') WHERE file = 'pair_A.WWD' AND plane = 1 AND idx = 3;
SELECT count(*), r > 0 FROM kept;
-- expect: 1|1
-- The issue's case: this connection opens B first, then writes by the
-- rowid over both files: A's row changes, and only it.
.open rowid_keep.db
SELECT count(*) > 0 FROM wwd_objects('pair_B.WWD');
-- expect: 1
UPDATE wwd_objects SET score = 4242 WHERE source = 'pair_*.WWD' AND rowid = (SELECT r FROM kept);
SELECT changes();
-- expect: 1
.open rowid_keep.db
SELECT file, plane, idx FROM wwd_objects('pair_*.WWD') WHERE score = 4242;
-- expect: pair_A.WWD|1|3
-- A fresh connection finds the row by its rowid, whatever the source that
-- holds the file, and the same rowid as the first connection read.
.open rowid_keep.db
SELECT logic = (SELECT logic FROM kept) FROM wwd_objects('pair_A.WWD') WHERE rowid = (SELECT r FROM kept);
-- expect: 1
SELECT count(*) FROM wwd_objects('samples') WHERE rowid = (SELECT r FROM kept);
-- expect: 0
SELECT rowid = (SELECT r FROM kept) FROM wwd_objects('pair_*.WWD') WHERE file = 'pair_A.WWD' AND plane = 1 AND idx = 3;
-- expect: 1
.open rowid_keep.db
SELECT logic = (SELECT logic FROM kept) FROM wwd_objects WHERE file = 'pair_A.WWD' AND rowid = (SELECT r FROM kept);
-- expect: 1
.open rowid_keep.db
UPDATE wwd_objects SET score = 4343 WHERE source = 'pair_A.WWD' AND rowid = (SELECT r FROM kept);
SELECT changes();
-- expect: 1
-- A rowid of a file outside the source matches nothing, and writes nothing.
.open rowid_keep.db
SELECT count(*) FROM wwd_objects('pair_B.WWD') WHERE rowid = (SELECT r FROM kept);
-- expect: 0
UPDATE wwd_objects SET score = 1 WHERE source = 'pair_B.WWD' AND rowid = (SELECT r FROM kept);
SELECT changes();
-- expect: 0
SELECT count(*) FROM wwd_objects WHERE file = 'pair_B.WWD' AND rowid = (SELECT r FROM kept);
-- expect: 0
DELETE FROM wwd_objects WHERE source = 'pair_B.WWD' AND rowid = (SELECT r FROM kept);
SELECT changes();
-- expect: 0
.open rowid_keep.db
SELECT file, plane, idx, score FROM wwd_objects('pair_*.WWD') WHERE score IN (4242, 4343, 1) ORDER BY file;
-- expect: pair_A.WWD|1|3|4343
-- Every table of every format: a rowid read in one connection finds its
-- row in a fresh one.
CREATE TABLE kept_tw AS SELECT rowid AS r, x, y FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'switch' AND x = 23 AND y = 18;
CREATE TABLE kept_wed AS SELECT rowid AS r, polygon, vertex FROM wed_vertices('samples/AR0100.WED') WHERE polygon = 1 AND vertex = 2;
CREATE TABLE kept_wz4 AS SELECT rowid AS r, page, op FROM wz4_operators('samples/intro.wz4') WHERE page = 1 AND op = 2;
.open rowid_keep.db
SELECT count(*) FROM tw_layers('samples/ddnet_features.map');
-- expect ok
SELECT x || ',' || y FROM tw_tiles('samples') WHERE rowid = (SELECT r FROM kept_tw);
-- expect: 23,18
SELECT polygon || ':' || vertex FROM wed_vertices('samples') WHERE rowid = (SELECT r FROM kept_wed);
-- expect: 1:2
SELECT page || ':' || op FROM wz4_operators('samples') WHERE rowid = (SELECT r FROM kept_wz4);
-- expect: 1:2
-- A rowid given as a real or as text equal to it finds the row, as it
-- does in an ordinary table (the differential tester found 123.0 missed);
-- 0.5 off it finds nothing.
.open rowid_keep.db
SELECT count(*) FROM wwd_objects('pair_A.WWD') WHERE rowid = (SELECT r FROM kept) * 1.0;
-- expect: 1
SELECT count(*) FROM wwd_objects('pair_A.WWD') WHERE rowid = CAST((SELECT r FROM kept) AS TEXT);
-- expect: 1
SELECT count(*) FROM wwd_objects('pair_A.WWD') WHERE rowid = (SELECT r FROM kept) % 1000 + 0.5;
-- expect: 0
-- levelsql_files' rowid is its file's, not its place in the statement's
-- list: the same with file = pushed down and with it checked by SQLite.
SELECT (SELECT rowid FROM levelsql_files('pair_*.WWD') WHERE file = 'pair_B.WWD') = (SELECT rowid FROM levelsql_files('pair_*.WWD') WHERE +file = 'pair_B.WWD');
-- expect: 1
SELECT count(DISTINCT rowid) FROM levelsql_files('pair_*.WWD');
-- expect: 2
