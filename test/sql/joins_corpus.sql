-- requires: corpus
-- WED joins over the private corpus copy (corpus/wed): polygons x overlays
-- (31 s on 354 areas before) list the folder once per table and look each
-- file up once per table, in the order SQLite picks and with the polygons
-- forced outside (levelsql_cache_stats() before and after, as in
-- joins.sql).  Which table the planner puts outside: test_joins.c.
CREATE TEMP TABLE n AS SELECT count(*) AS files FROM levelsql_files('corpus/wed');
CREATE TEMP TABLE s0(s);
INSERT INTO s0 VALUES (NULL);

-- polygons per area
UPDATE s0 SET s = levelsql_cache_stats();
SELECT count(*) > 50 FROM (SELECT p.file, count(*) FROM wed_polygons('corpus/wed') AS p JOIN wed_overlays('corpus/wed') AS o ON o.file = p.file AND o.overlay = 0 GROUP BY p.file);
-- expect: 1
SELECT (levelsql_cache_stats() ->> 'expansions') - (s ->> 'expansions') <= 2 FROM s0;
-- expect: 1
SELECT (levelsql_cache_stats() ->> 'stats') - (s ->> 'stats') <= 2 * files FROM s0, n;
-- expect: 1
-- the polygons forced outside: one overlay each, still one listing and
-- one lookup per file and table
UPDATE s0 SET s = levelsql_cache_stats();
SELECT (SELECT count(*) FROM wed_polygons('corpus/wed') AS p CROSS JOIN wed_overlays('corpus/wed') AS o ON o.file = p.file AND o.overlay = 0) = (SELECT count(*) FROM wed_polygons('corpus/wed'));
-- expect: 1
SELECT (levelsql_cache_stats() ->> 'expansions') - (s ->> 'expansions') <= 3 FROM s0;
-- expect: 1
SELECT (levelsql_cache_stats() ->> 'stats') - (s ->> 'stats') <= 3 * files FROM s0, n;
-- expect: 1
