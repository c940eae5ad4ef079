-- Windows paths and writes (test/windows/run.sh runs this with the Windows
-- build under wine; @DIR@ is the test folder's Windows path, such as
-- Z:\tmp\tmp.x\sql-paths, with its drive letter and backslashes).
SELECT 'a folder by drive letter and backslashes', count(*) = 5 FROM wwd_levels('@DIR@\samples');
SELECT 'a glob with backslashes', count(*) = 5 FROM wwd_levels('@DIR@\samples\SAMPLE*.WWD');
SELECT 'a glob with a drive letter and forward slashes, any case', count(*) = 5 FROM wwd_levels('@DIR@/samples/sample*.wwd');
SELECT 'a relative path with a backslash', count(*) = 1 FROM wwd_levels('samples\SAMPLE01.WWD');
SELECT 'a ** glob with backslashes', count(*) = 6 FROM tw_maps('@DIR@\samples\**\*.map');
SELECT 'the file column is the path as the source matched it', min(file) LIKE '%samples%SAMPLE01.WWD' FROM wwd_levels('@DIR@\samples\SAMPLE01.WWD');
SELECT count(*) FROM levelsql_files('@DIR@\nothere\*.wwd');
-- expect error: no such folder
-- `file` joins the names a listing adds with '/'; file = '...' matches
-- with either separator (issue 24, item 6b)
SELECT file = replace('@DIR@\samples\SAMPLE01.WWD', '\', '/') FROM wwd_levels('@DIR@\samples\*.WWD') WHERE file = '@DIR@\samples\SAMPLE01.WWD';
-- expect: 1
SELECT count(*) FROM wwd_levels('@DIR@\samples\*.WWD') WHERE file = '@DIR@/samples\SAMPLE02.WWD';
-- expect: 1
SELECT count(*) FROM wwd_levels('@DIR@\samples') WHERE file = '@DIR@\samples\SAMPLE03.WWD';
-- expect: 1
SELECT count(*) FROM wwd_objects('@DIR@/samples') WHERE file = '@DIR@\samples\SAMPLE01.WWD' AND id = 2;
-- expect: 1
SELECT count(*) FROM wwd_levels('@DIR@\samples\*.WWD') WHERE file = '@DIR@\samples\SAMPLE01.WW';
-- expect: 0
-- an INSERT into a source of several files names its target with either
-- separator too
INSERT INTO wwd_objects(source, file, plane, logic, x, y) VALUES ('@DIR@\samples\*.WWD', '@DIR@\samples\SAMPLE05.WWD', 0, 'WinSepProbe', 1, 2);
-- expect ok
SELECT count(*) FROM wwd_objects('samples/SAMPLE05.WWD') WHERE logic = 'WinSepProbe';
-- expect: 1
-- one entry per file (volume serial and file index): two spellings of one file
SELECT count(*) FROM levelsql_files(json_array(replace('@DIR@', '\', '/') || '/samples/SAMPLE01.WWD', 'samples\SAMPLE01.WWD'));
-- expect: 1
-- a write through a drive-letter path: the new file is renamed over the old one
UPDATE wwd_objects SET score = 4242 WHERE source = '@DIR@\samples\SAMPLE01.WWD' AND id = 1;
-- expect ok
.open :memory:
SELECT score FROM wwd_objects('@DIR@\samples\SAMPLE01.WWD') WHERE id = 1;
-- expect: 4242
-- again on the same file, named another way (forward slashes, relative)
UPDATE wwd_objects SET score = 4343 WHERE source = 'samples/SAMPLE01.WWD' AND id = 1;
-- expect ok
.open :memory:
SELECT score FROM wwd_objects('@DIR@\samples\SAMPLE01.WWD') WHERE id = 1;
-- expect: 4343
SELECT 'the rest of the level is as it was', count(*) = (SELECT count(*) FROM wwd_objects('samples/SAMPLE02.WWD') WHERE 0) + count(*) FROM wwd_objects('samples/SAMPLE01.WWD');
-- a ROLLBACK writes nothing
BEGIN;
UPDATE wwd_objects SET score = 1 WHERE source = '@DIR@\samples\SAMPLE01.WWD' AND id = 1;
-- expect ok
ROLLBACK;
.open :memory:
SELECT score FROM wwd_objects('@DIR@\samples\SAMPLE01.WWD') WHERE id = 1;
-- expect: 4343
-- a commit of two files in two folders (the journal and its pointer)
BEGIN;
UPDATE wwd_objects SET score = 11 WHERE source = '@DIR@\samples\SAMPLE02.WWD' AND id = 1;
-- expect ok
UPDATE wwd_objects SET health = 9 WHERE source = '@DIR@\fixtures\engine\i.wwd';
-- expect ok
UPDATE tw_maps SET author = 'windows' WHERE source = '@DIR@\samples\dm_sample.map';
-- expect ok
COMMIT;
.open :memory:
SELECT score FROM wwd_objects('@DIR@\samples\SAMPLE02.WWD') WHERE id = 1;
-- expect: 11
SELECT author FROM tw_maps('@DIR@\samples\dm_sample.map');
-- expect: windows
SELECT count(*), sum(health) FROM wwd_objects('fixtures/engine/i.wwd');
-- expect: 10|90
SELECT 'a compressed map written on Windows reads back whole', count(*) > 0 FROM tw_layers('samples/dm_sample.map');
-- levelsql_copy to a drive-letter path with backslashes: a new file made
-- without overwriting (a hard link to the written temporary file, which
-- fails on an existing name), byte for byte the template
SELECT levelsql_copy('@DIR@\samples\SAMPLE03.WWD', '@DIR@\samples\COPY03.WWD');
-- expect: @DIR@\samples\COPY03.WWD
SELECT 'the copy is the template, byte for byte', a.data = b.data FROM fsdir('samples/SAMPLE03.WWD') a, fsdir('samples/COPY03.WWD') b;
-- expect: the copy is the template, byte for byte|1
SELECT levelsql_copy('samples\SAMPLE04.WWD', '@DIR@/samples/copy03.wwd');
-- expect error: the file exists; nothing was written
SELECT 'the refused copy left the file as it was', a.data = b.data FROM fsdir('samples/SAMPLE03.WWD') a, fsdir('samples/COPY03.WWD') b;
-- expect: the refused copy left the file as it was|1
SELECT levelsql_copy('@DIR@\samples\SAMPLE04.WWD', '@DIR@\samples\COPY03.WWD', 1);
-- expect: @DIR@\samples\COPY03.WWD
SELECT 'overwrite = 1 replaces it', a.data = b.data FROM fsdir('samples/SAMPLE04.WWD') a, fsdir('samples/COPY03.WWD') b;
-- expect: overwrite = 1 replaces it|1
SELECT levelsql_copy('@DIR@\samples\SAMPLE01.WWD', '@DIR@\nothere\COPY.WWD');
-- expect error: no such folder
-- the copy is a level like any: edit it, read it back in a new connection
UPDATE wwd_objects SET score = 5151 WHERE source = '@DIR@\samples\COPY03.WWD' AND id = 1;
-- expect ok
.open :memory:
SELECT score FROM wwd_objects('samples/COPY03.WWD') WHERE id = 1;
-- expect: 5151
SELECT 'the template is untouched', count(*) FROM wwd_objects('@DIR@\samples\SAMPLE04.WWD') WHERE id = 1 AND score = 5151;
-- expect: the template is untouched|0
-- no temporary file, journal or undo link is left, in either folder
SELECT count(*) FROM fsdir('samples') WHERE name LIKE '%levelsql-%';
-- expect: 0
SELECT count(*) FROM fsdir('fixtures/engine') WHERE name LIKE '%levelsql-%';
-- expect: 0
