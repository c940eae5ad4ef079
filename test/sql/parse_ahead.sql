-- Parsing ahead (ext/engine/parse_ahead.c): a scan that meets files it has to
-- parse has the next ones parsed on the connection's threads.  Nothing a
-- query returns may change: the same rows in the same order, the same
-- errors for the same file, with any number of threads; a file replaced on
-- disk after a thread read it is read again.  The results of each setting
-- are kept in a database file, so that each setting starts with a cold
-- cache on a connection of its own.
-- (writefile makes the folders)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
SELECT count(writefile(printf('ahead/wwd/l%02d.WWD', i), readfile('samples/SAMPLE0' || (i % 5 + 1) || '.WWD'))) FROM n;
-- expect: 60
-- one damaged level in the middle
SELECT writefile('ahead/wwd/l31.WWD', readfile('fixtures/sources/mixed/cut.WWD')) > 0;
-- expect: 1
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30),
     m(k, name) AS (VALUES (0, 'ddnet_features'), (1, 'ddrace_sample'), (2, 'dm_sample'), (3, 'legacy'), (4, 'v07_sample'))
SELECT count(writefile(printf('ahead/tw/m%02d.map', i), readfile('samples/' || name || '.map'))) FROM n JOIN m ON k = i % 5;
-- expect: 30
-- levelsql_files detects formats: levels of every format, a damaged one,
-- an old map, a text file
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 8)
SELECT count(writefile(printf('ahead/all/w%d.WWD', i), readfile('samples/SAMPLE0' || (i % 5 + 1) || '.WWD'))),
       count(writefile(printf('ahead/all/m%d.map', i), readfile('samples/dm_sample.map'))),
       count(writefile(printf('ahead/all/a%d.WED', i), readfile('samples/AR0100.WED'))),
       count(writefile(printf('ahead/all/p%d.wz4', i), readfile('samples/intro.wz4'))) FROM n;
-- expect: 8|8|8|8
SELECT writefile('ahead/all/w4.WWD', readfile('fixtures/sources/mixed/cut.WWD')) > 0,
       writefile('ahead/all/m5.map', readfile('fixtures/sources/tw/old.map')) > 0,
       writefile('ahead/all/notes.txt', 'not a level') > 0;
-- expect: 1|1|1

-- One thread per processor online by default; 0 to 64 can be asked for.
.open ahead/results.db
SELECT levelsql_threads() >= 1, levelsql_cache_stats() ->> 'threads' = levelsql_threads();
-- expect: 1|1
SELECT levelsql_threads(-1);
-- expect error: levelsql_threads: the number of threads is an integer from 0 to 64
SELECT levelsql_threads(65);
-- expect error: levelsql_threads: the number of threads is an integer from 0 to 64
SELECT levelsql_threads('many');
-- expect error: levelsql_threads: the number of threads is an integer from 0 to 64

-- Without threads: the reference results.
SELECT levelsql_threads(0) >= 1, levelsql_threads();
-- expect: 1|0
CREATE TABLE serial_objects AS SELECT file, idx, logic, x, y FROM wwd_objects('ahead/wwd', 'on_error=skip');
CREATE TABLE serial_tiles AS SELECT file, plane, sum(tile) AS total, count(*) AS n FROM wwd_tiles('ahead/wwd', 'on_error=skip') GROUP BY file, plane;
CREATE TABLE serial_layers AS SELECT * FROM tw_layers('ahead/tw');
CREATE TABLE serial_tw_tiles AS SELECT file, count(*) AS n, sum(id) AS ids FROM tw_tiles('ahead/tw') GROUP BY file;
CREATE TABLE serial_files AS SELECT * FROM levelsql_files('ahead/all');
CREATE TABLE serial_order AS SELECT group_concat(file || ':' || idx, ',') AS rows FROM wwd_objects('ahead/wwd', 'on_error=skip');
SELECT count(*) FROM wwd_objects('ahead/wwd');
-- expect error: ahead/wwd/l31.WWD: plane 1: byte offset 1812: 320 objects at offset 40806 do not fit in the main block
SELECT levelsql_cache_stats() ->> 'parsed_ahead', levelsql_cache_stats() ->> 'parses';
-- expect: 0|123

-- With three threads, on a cold cache: the same rows, in the same order.
.open ahead/results.db
SELECT levelsql_threads(3) >= 1;
-- expect: 1
CREATE TABLE threaded_objects AS SELECT file, idx, logic, x, y FROM wwd_objects('ahead/wwd', 'on_error=skip');
CREATE TABLE threaded_tiles AS SELECT file, plane, sum(tile) AS total, count(*) AS n FROM wwd_tiles('ahead/wwd', 'on_error=skip') GROUP BY file, plane;
CREATE TABLE threaded_layers AS SELECT * FROM tw_layers('ahead/tw');
CREATE TABLE threaded_tw_tiles AS SELECT file, count(*) AS n, sum(id) AS ids FROM tw_tiles('ahead/tw') GROUP BY file;
CREATE TABLE threaded_files AS SELECT * FROM levelsql_files('ahead/all');
-- every file but the first of each folder was parsed ahead: 59 of the 60
-- levels (the damaged one's error too), 29 of the 30 maps, 32 of the 33
-- files of levelsql_files (notes.txt's first bytes too); the later
-- scans of the same folders parse nothing
SELECT levelsql_cache_stats() ->> 'parsed_ahead', levelsql_cache_stats() ->> 'parses';
-- expect: 120|123
-- the threads did part of that work (the connection takes a job itself
-- only when no thread has started it)
SELECT levelsql_cache_stats() ->> 'parsed_on_threads' > 0;
-- expect: 1
SELECT (SELECT count(*) FROM (SELECT * FROM serial_objects EXCEPT SELECT * FROM threaded_objects)),
       (SELECT count(*) FROM (SELECT * FROM threaded_objects EXCEPT SELECT * FROM serial_objects)),
       (SELECT count(*) FROM serial_objects) = (SELECT count(*) FROM threaded_objects),
       (SELECT count(*) FROM serial_objects) > 1000;
-- expect: 0|0|1|1
SELECT (SELECT count(*) FROM (SELECT * FROM serial_tiles EXCEPT SELECT * FROM threaded_tiles)),
       (SELECT count(*) FROM serial_tiles) = (SELECT count(*) FROM threaded_tiles);
-- expect: 0|1
SELECT (SELECT count(*) FROM (SELECT * FROM serial_layers EXCEPT SELECT * FROM threaded_layers)),
       (SELECT count(*) FROM serial_layers) = (SELECT count(*) FROM threaded_layers);
-- expect: 0|1
SELECT (SELECT count(*) FROM (SELECT * FROM serial_tw_tiles EXCEPT SELECT * FROM threaded_tw_tiles)),
       (SELECT count(*) FROM serial_tw_tiles) = (SELECT count(*) FROM threaded_tw_tiles);
-- expect: 0|1
SELECT (SELECT count(*) FROM (SELECT * FROM serial_files EXCEPT SELECT * FROM threaded_files)),
       (SELECT count(*) FROM serial_files) = (SELECT count(*) FROM threaded_files),
       (SELECT count(*) FROM threaded_files WHERE NOT ok);
-- expect: 0|1|3
-- the order of rows and the first error are those of the serial scan
.open ahead/results.db
SELECT levelsql_threads(2) >= 1;
-- expect: 1
SELECT rows = (SELECT rows FROM serial_order) FROM (SELECT group_concat(file || ':' || idx, ',') AS rows FROM wwd_objects('ahead/wwd', 'on_error=skip'));
-- expect: 1
.open ahead/results.db
SELECT count(*) FROM wwd_objects('ahead/wwd');
-- expect error: ahead/wwd/l31.WWD: plane 1: byte offset 1812: 320 objects at offset 40806 do not fit in the main block

-- A scan that stops early gives up the files read ahead; the connection
-- goes on (and closes) normally.
.open ahead/results.db
SELECT levelsql_threads(4) >= 1;
-- expect: 1
SELECT file FROM wwd_levels('ahead/wwd') LIMIT 2;
-- expect: ahead/wwd/l01.WWD
-- expect: ahead/wwd/l02.WWD
SELECT count(*) FROM wwd_levels('ahead/wwd', 'on_error=skip');
-- expect: 59

-- A level replaced on disk after a thread parsed it ahead is read again.
-- With four threads, the scan's first file has the next eight parsed
-- ahead; l6, the smallest sample, is replaced by another level (of
-- another size) only when the scan is on l4, by which time a thread has
-- most likely parsed it, and the scan shows the new level.  (Whether a
-- thread had got to it is up to the scheduler; the result must not be.)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9)
SELECT count(writefile('ahead/stale/l' || i || '.WWD', readfile(iif(i = 6, 'samples/SAMPLE03.WWD', 'samples/SAMPLE01.WWD')))) FROM n;
-- expect: 9
.open ahead/results.db
SELECT levelsql_threads(4) >= 1;
-- expect: 1
SELECT group_concat(name, ',') FROM wwd_levels('ahead/stale')
WHERE file <> 'ahead/stale/l4.WWD' OR writefile('ahead/stale/l6.WWD', readfile('samples/SAMPLE02.WWD')) > 0;
-- expect: Claw - Sample 1,Claw - Sample 1,Claw - Sample 1,Claw - Sample 1,Claw - Sample 1,Claw - Sample 2,Claw - Sample 1,Claw - Sample 1,Claw - Sample 1
SELECT name FROM wwd_levels('ahead/stale/l6.WWD');
-- expect: Claw - Sample 2
