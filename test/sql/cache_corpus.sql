-- requires: corpus
-- The cache holds the real corpus with its default budget: a second
-- identical query in one connection parses no file again (the 19
-- Teeworlds maps used to need ~500 MB by the former count of blobs never
-- inflated, so LRU evicted each one before it was used again), and each
-- file's model holds about what the query decoded.
SELECT count(*) FROM tw_layers('corpus/tw');
-- expect ok
SELECT count(*) FROM tw_layers('corpus/tw');
-- expect ok
SELECT levelsql_cache_stats() ->> 'parses', levelsql_cache_stats() ->> 'hits', levelsql_cache_stats() ->> 'cached';
-- expect: 19|19|19
-- a map whose layers and images nobody read holds about its file's bytes
-- (ddnet_Tutorial.map: 1.06 MB on disk, 114 MB counted before)
SELECT max(1.0 * (value ->> 'bytes') / (value ->> 'size')) < 3 FROM json_each(levelsql_cache_stats() -> 'files')
WHERE value ->> 'size' > 100000;
-- expect: 1
SELECT sum(value ->> 'bytes') = levelsql_cache_stats() ->> 'bytes' FROM json_each(levelsql_cache_stats() -> 'files');
-- expect: 1
-- every tile of every map, twice: the layers are decoded once
SELECT sum(id) FROM tw_tiles('corpus/tw');
-- expect ok
SELECT sum(id) FROM tw_tiles('corpus/tw');
-- expect ok
SELECT levelsql_cache_stats() ->> 'parses';
-- expect: 19

-- WWD: the levels with a bad signature fail the scan, so the folder is read
-- with on_error=skip; the second query parses nothing.
.open :memory:
SELECT count(DISTINCT logic), count(*) FROM wwd_objects('corpus/wwd', 'on_error=skip');
-- expect ok
CREATE TEMP TABLE first AS SELECT levelsql_cache_stats() ->> 'parses' AS parses;
SELECT count(DISTINCT logic), count(*) FROM wwd_objects('corpus/wwd', 'on_error=skip');
-- expect ok
SELECT parses = levelsql_cache_stats() ->> 'parses', parses >= 14 FROM first;
-- expect: 1|1
