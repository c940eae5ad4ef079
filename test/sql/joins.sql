-- Joins over a folder are not quadratic, and a table without a source says
-- how to give one (the WWD samples).  A statement lists each source and
-- looks each file up on disk once per table, however many times SQLite
-- filters the inner side of a join, in the order SQLite picks and in the
-- worst order forced with CROSS JOIN: levelsql_cache_stats() counts the
-- listings ("expansions") and the lookups ("stats"), read before and after
-- each join (s0).  The planner's choices (EXPLAIN QUERY PLAN) and a
-- prepared statement run again after the folder changed are in
-- test/unit/test_joins.c.
CREATE TEMP TABLE n AS SELECT count(*) AS files FROM wwd_levels('samples');
SELECT files >= 3 FROM n;
-- expect: 1
CREATE TEMP TABLE s0(s);
INSERT INTO s0 VALUES (NULL);

-- the cookbook's "tile ids per main plane", as written
UPDATE s0 SET s = levelsql_cache_stats();
SELECT t.file, t.tile, count(*) FROM wwd_tiles('samples') AS t JOIN wwd_planes('samples') AS p ON p.file = t.file AND p.plane = t.plane WHERE p.is_main AND t.kind = 'tile' GROUP BY t.file, t.tile;
-- expect ok
SELECT (levelsql_cache_stats() ->> 'expansions') - (s ->> 'expansions') BETWEEN 1 AND 3 FROM s0;
-- expect: 1
SELECT (levelsql_cache_stats() ->> 'stats') - (s ->> 'stats') BETWEEN files AND 3 * files FROM s0, n;
-- expect: 1
-- the same with the tiles forced outside: one inner filter per tile
UPDATE s0 SET s = levelsql_cache_stats();
SELECT t.file, t.tile, count(*) FROM wwd_tiles('samples') AS t CROSS JOIN wwd_planes('samples') AS p ON p.file = t.file AND p.plane = t.plane WHERE p.is_main AND t.kind = 'tile' GROUP BY t.file, t.tile;
-- expect ok
SELECT (levelsql_cache_stats() ->> 'expansions') - (s ->> 'expansions') BETWEEN 1 AND 3 FROM s0;
-- expect: 1
SELECT (levelsql_cache_stats() ->> 'stats') - (s ->> 'stats') BETWEEN files AND 3 * files FROM s0, n;
-- expect: 1
-- objects outside their plane, objects forced outside
UPDATE s0 SET s = levelsql_cache_stats();
SELECT o.idx FROM wwd_objects('samples') AS o CROSS JOIN wwd_planes('samples') AS p ON p.file = o.file AND p.plane = o.plane WHERE o.x < 0 OR o.x > p.width_px;
-- expect ok
SELECT (levelsql_cache_stats() ->> 'expansions') - (s ->> 'expansions') BETWEEN 1 AND 3 FROM s0;
-- expect: 1
SELECT (levelsql_cache_stats() ->> 'stats') - (s ->> 'stats') BETWEEN files AND 3 * files FROM s0, n;
-- expect: 1
-- three tables, the largest forced outside
UPDATE s0 SET s = levelsql_cache_stats();
SELECT count(*) FROM wwd_tiles('samples') AS t CROSS JOIN wwd_planes('samples') AS p CROSS JOIN wwd_levels('samples') AS l ON p.file = t.file AND p.plane = t.plane AND l.file = t.file WHERE t.x < 20;
-- expect ok
SELECT (levelsql_cache_stats() ->> 'expansions') - (s ->> 'expansions') BETWEEN 1 AND 3 FROM s0;
-- expect: 1
SELECT (levelsql_cache_stats() ->> 'stats') - (s ->> 'stats') BETWEEN files AND 3 * files FROM s0, n;
-- expect: 1
-- the inner side really was filtered many times in the forced order
SELECT (SELECT count(*) FROM wwd_tiles('samples') WHERE plane = 1) > 100 * files FROM n;
-- expect: 1

-- Leaving out the source fails with a message naming the table and the two
-- ways to give it.
SELECT * FROM wwd_objects;
-- expect error: wwd_objects needs a source: wwd_objects('folder') or WHERE source = '...'
SELECT * FROM tw_layers;
-- expect error: tw_layers needs a source: tw_layers('folder') or WHERE source = '...'
SELECT * FROM wed_polygons;
-- expect error: wed_polygons needs a source: wed_polygons('folder') or WHERE source = '...'
SELECT * FROM wz4_operators;
-- expect error: wz4_operators needs a source: wz4_operators('folder') or WHERE source = '...'
SELECT * FROM levelsql_files;
-- expect error: levelsql_files needs a source: levelsql_files('folder') or WHERE source = '...'
SELECT count(*) FROM wwd_objects WHERE logic = 'Rat';
-- expect error: wwd_objects needs a source
UPDATE wwd_objects SET score = 1 WHERE logic = 'Rat';
-- expect error: wwd_objects needs a source
-- a branch of an OR that names no file cannot name the files
SELECT count(*) FROM wwd_objects WHERE file = 'samples/SAMPLE01.WWD' OR idx = 3;
-- expect error: wwd_objects needs a source
-- what does name the files still plans: the argument, source =, file =,
-- file from a join, OR branches beside a source, a named table
SELECT count(*) > 0 FROM wwd_objects('samples') WHERE logic = 'Rat' OR idx = 3;
-- expect: 1
SELECT count(*) > 0 FROM wwd_objects WHERE source = 'samples' AND (idx = 3 OR plane = 0);
-- expect: 1
SELECT count(*) > 0 FROM wwd_objects WHERE file = 'samples/SAMPLE01.WWD';
-- expect: 1
SELECT count(*) > 0 FROM wwd_objects WHERE file IN ('samples/SAMPLE01.WWD', 'samples/SAMPLE02.WWD');
-- expect: 1
SELECT count(*) > 0 FROM wwd_levels('samples') AS l JOIN wwd_objects AS o ON o.file = l.file;
-- expect: 1
CREATE VIRTUAL TABLE temp.named USING wwd_objects('samples');
SELECT count(*) > 0 FROM temp.named WHERE logic = 'Rat' OR idx = 3;
-- expect: 1
DROP TABLE temp.named;
