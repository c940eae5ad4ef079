-- The cache holds a whole collection with its default budget: a second
-- identical query in one connection parses no file again, on folders of
-- 1,000 Teeworlds maps and 1,000 WWD levels (copies of the generated
-- samples), and levelsql_cache_stats() lists each cached file with its
-- size and the bytes of its model, counted honestly (a Teeworlds map's
-- blobs count only once they are inflated).
.shell mkdir -p many/tw many/wwd
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
SELECT count(writefile('many/tw/m' || i || '.map', readfile('samples/ddnet_features.map'))),
       count(writefile('many/wwd/l' || i || '.WWD', readfile('samples/SAMPLE03.WWD'))) FROM n;
-- expect: 1000|1000
SELECT count(*) FROM tw_layers('many/tw');
-- expect ok
SELECT levelsql_cache_stats() ->> 'parses', levelsql_cache_stats() ->> 'cached';
-- expect: 1000|1000
SELECT count(*) FROM tw_layers('many/tw');
-- expect ok
-- the second query parsed nothing
SELECT levelsql_cache_stats() ->> 'parses', levelsql_cache_stats() ->> 'hits';
-- expect: 1000|1000
-- the default budget is at least 2,000 such maps
SELECT levelsql_cache_stats() ->> 'limit' >= 2000 * (levelsql_cache_stats() ->> 'bytes') / 1000;
-- expect: 1
-- one entry per cached file, most recently used first, whose bytes add up
-- to the cache's
SELECT count(*), sum(value ->> 'bytes') = levelsql_cache_stats() ->> 'bytes',
       (SELECT value ->> 'file' FROM json_each(levelsql_cache_stats() -> 'files') LIMIT 1)
FROM json_each(levelsql_cache_stats() -> 'files');
-- expect: 1000|1|many/tw/m999.map
-- honest: a map whose layers nobody read holds about its file's bytes
SELECT max(value ->> 'bytes') < 3 * min(value ->> 'size') FROM json_each(levelsql_cache_stats() -> 'files');
-- expect: 1
-- reading the tiles decodes layers, and the cache counts them once the
-- scan has left the file
SELECT count(*) FROM tw_tiles('many/tw/m1.map') WHERE id >= 0;
-- expect ok
SELECT (SELECT value ->> 'bytes' FROM json_each(levelsql_cache_stats() -> 'files') WHERE value ->> 'file' = 'many/tw/m1.map')
       > (SELECT value ->> 'bytes' FROM json_each(levelsql_cache_stats() -> 'files') WHERE value ->> 'file' = 'many/tw/m2.map');
-- expect: 1
SELECT sum(value ->> 'bytes') = levelsql_cache_stats() ->> 'bytes' FROM json_each(levelsql_cache_stats() -> 'files');
-- expect: 1

-- A budget that holds the maps but not their decoded layers: the cache
-- drops the layers it decoded (they decode again when read) before it
-- drops whole files, so no map is parsed again.
.open :memory:
SELECT levelsql_cache_limit(10000000) > 0;
-- expect: 1
SELECT count(*) > 0 FROM tw_layers('many/tw');
-- expect: 1
SELECT levelsql_cache_stats() ->> 'cached', levelsql_cache_stats() ->> 'bytes' < 10000000;
-- expect: 1000|1
-- every layer of every map decoded: about four times the budget
CREATE TEMP TABLE sums AS SELECT sum(id) AS s, count(*) AS n FROM tw_tiles('many/tw');
SELECT levelsql_cache_stats() ->> 'cached', levelsql_cache_stats() ->> 'bytes' <= 10000000, levelsql_cache_stats() ->> 'parses';
-- expect: 1000|1|1000
SELECT sum(id) = (SELECT s FROM sums), count(*) = (SELECT n FROM sums) FROM tw_tiles('many/tw');
-- expect: 1|1
SELECT levelsql_cache_stats() ->> 'parses', levelsql_cache_stats() ->> 'cached';
-- expect: 1000|1000

-- WWD levels: every tile read twice, parsed once.
.open :memory:
SELECT count(DISTINCT logic), count(*) FROM wwd_objects('many/wwd');
-- expect ok
SELECT sum(tile) FROM wwd_tiles('many/wwd') WHERE plane = 1;
-- expect ok
SELECT levelsql_cache_stats() ->> 'parses', levelsql_cache_stats() ->> 'cached';
-- expect: 1000|1000
SELECT count(DISTINCT logic), count(*) FROM wwd_objects('many/wwd');
-- expect ok
SELECT levelsql_cache_stats() ->> 'parses';
-- expect: 1000
-- a budget too small for the collection still gives right answers, and
-- keeps to it
SELECT levelsql_cache_limit(100000);
-- expect ok
SELECT count(*) FROM wwd_objects('many/wwd') WHERE file = 'many/wwd/l7.WWD';
-- expect ok
SELECT levelsql_cache_stats() ->> 'bytes' <= 100000 OR levelsql_cache_stats() ->> 'cached' = 1;
-- expect: 1
