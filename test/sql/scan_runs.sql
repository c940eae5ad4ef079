-- Scans step along a row of a grid (and along a nested array) without
-- asking the table's shape per row (shapes.c ls_table_run): the rows, in
-- their order, are those of the ranges pushed down, the same as SQLite's
-- own filtering of an unbounded scan gives; a write during the scan ends
-- the run, so rows are read from the model as it is then.
CREATE TEMP TABLE pushed AS SELECT plane, y, x, tile FROM wwd_tiles('samples/SAMPLE03.WWD') WHERE x BETWEEN 3 AND 6 AND y >= 2;
CREATE TEMP TABLE checked AS SELECT plane, y, x, tile FROM wwd_tiles('samples/SAMPLE03.WWD') WHERE x + 0 BETWEEN 3 AND 6 AND y + 0 >= 2;
SELECT count(*) > 0, count(*) = (SELECT count(*) FROM checked) FROM pushed;
-- expect: 1|1
SELECT count(*) FROM (SELECT * FROM pushed EXCEPT SELECT * FROM checked);
-- expect: 0
-- every cell once, in plane, y, x order
SELECT count(*) = count(DISTINCT plane || ',' || y || ',' || x) FROM wwd_tiles('samples/SAMPLE03.WWD');
-- expect: 1
SELECT count(*) FROM (SELECT plane, y, x, lag(plane) OVER w AS p, lag(y) OVER w AS py, lag(x) OVER w AS px
                      FROM wwd_tiles('samples/SAMPLE03.WWD') WINDOW w AS (ROWS 1 PRECEDING))
WHERE p IS NOT NULL AND NOT (plane > p OR (plane = p AND (y > py OR (y = py AND x = px + 1))));
-- expect: 0
SELECT count(*) = (SELECT sum(tiles_wide * tiles_high) FROM wwd_planes('samples/SAMPLE03.WWD')) FROM wwd_tiles('samples/SAMPLE03.WWD');
-- expect: 1
-- a single column and the last column of a row
SELECT count(*), min(x), max(x) FROM wwd_tiles('samples/SAMPLE03.WWD') WHERE plane = 0 AND x = 5;
-- expect ok
SELECT count(*) = (SELECT tiles_high FROM wwd_planes('samples/SAMPLE03.WWD') WHERE plane = 0) FROM wwd_tiles('samples/SAMPLE03.WWD') WHERE plane = 0 AND x = 5;
-- expect: 1
-- wed vertices (a nested array) within an index range
SELECT count(*) = (SELECT count(*) FROM wed_vertices('samples/AR0100.WED') WHERE vertex + 0 BETWEEN 1 AND 2)
FROM wed_vertices('samples/AR0100.WED') WHERE vertex BETWEEN 1 AND 2;
-- expect: 1
-- an UPDATE that scans and writes the same grid: every cell changes once
.shell mkdir -p runs && cp samples/SAMPLE03.WWD runs/a.WWD
CREATE TEMP TABLE before AS SELECT plane, y, x, tile FROM wwd_tiles('runs/a.WWD') WHERE plane = 0;
UPDATE wwd_tiles SET tile = tile + 1 WHERE source = 'runs/a.WWD' AND plane = 0 AND kind = 'tile';
SELECT count(*) FROM wwd_tiles('runs/a.WWD') AS t JOIN before AS b USING (plane, y, x)
WHERE t.plane = 0 AND b.tile IS NOT NULL AND t.tile IS NOT b.tile + 1;
-- expect: 0
