.load build/levelsql
-- levelsql cookbook for WWD levels (Claw, Gruntz, Get Medieval).
-- Run from the project root after `make` and `make samples`, as
--   sqlite3 :memory: < sql/wwd_cookbook.sql
-- (the line above loads the extension from build/), or paste single queries
-- into the sqlite3 shell after that .load and the .shell line below.
-- The queries read and change build/cookbook/wwd, a fresh copy of the levels
-- `make samples` writes into build/samples, which the .shell line below makes
-- anew on every run (by hand: the same rm, mkdir and cp), so build/samples
-- is never changed and every run gives the same results.  To ask the same of
-- your own files, replace build/cookbook/wwd with your own folder ('levels': its .wwd files), file
-- ('levels/RETAIL01.WWD') or pattern ('levels/RETAIL0[1-4].WWD');
-- the edits then change those files.  The tests run every query as it
-- is, twice, and check that build/samples stays as it was.
.shell rm -rf build/cookbook/wwd && mkdir -p build/cookbook/wwd && cp build/samples/*.WWD build/cookbook/wwd/
.mode box

-- Check a folder: which files do not load, and why?
SELECT file, format, ok, error FROM levelsql_files('build/cookbook/wwd');

-- Objects standing outside their plane (a classic editing accident).
SELECT o.file, o.plane, o.idx, o.logic, o.x, o.y
FROM wwd_objects('build/cookbook/wwd') AS o
JOIN wwd_planes('build/cookbook/wwd') AS p ON p.file = o.file AND p.plane = o.plane
WHERE o.x < 0 OR o.y < 0 OR o.x > p.width_px OR o.y > p.height_px;

-- Enemies whose patrol range (min_x .. max_x) does not contain them.
SELECT file, idx, logic, x, min_x, max_x
FROM wwd_objects('build/cookbook/wwd')
WHERE min_x <> 0 AND max_x <> 0 AND (x < min_x OR x > max_x);

-- The tile ids used on each main plane, most used first.
SELECT t.file, t.tile, count(*) AS cells
FROM wwd_tiles('build/cookbook/wwd') AS t
JOIN wwd_planes('build/cookbook/wwd') AS p ON p.file = t.file AND p.plane = t.plane
WHERE p.is_main AND t.kind = 'tile'
GROUP BY t.file, t.tile ORDER BY cells DESC LIMIT 10;

-- A 10x5 window of the main plane (x, y and plane are pushed down).
SELECT y, group_concat(coalesce(tile, '.'), ' ') AS row
FROM wwd_tiles('build/cookbook/wwd/SAMPLE01.WWD')
WHERE plane = 1 AND x BETWEEN 0 AND 9 AND y BETWEEN 0 AND 4
GROUP BY y ORDER BY y;

-- Tile attributes by name: how many solid / ground / death tiles per level.
SELECT file, wwd_flag_names('attribute', attribute) AS attribute, count(*) AS tiles
FROM wwd_tile_properties('build/cookbook/wwd') WHERE type = 'single'
GROUP BY file, attribute ORDER BY file, tiles DESC;

-- Objects drawn mirrored, and the flag value for "mirror|invert".
SELECT count(*) AS mirrored FROM wwd_objects('build/cookbook/wwd')
WHERE draw_flags & wwd_flag_value('draw', 'mirror');
SELECT wwd_flag_value('draw', 'mirror|invert') AS mask;

-- Parallax of every plane, with the plane flags spelled out.
SELECT file, plane, name, movement_x_percent, movement_y_percent, z,
       wwd_flag_names('plane', flags) AS flags, image_sets
FROM wwd_planes('build/cookbook/wwd');

-- Levels whose header checksum is not exact (the engine still loads most).
SELECT file, checksum, checksum_computed, checksum_kind FROM wwd_levels('build/cookbook/wwd')
WHERE checksum_kind <> 'exact';

-- Bulk edits go through UPDATE / INSERT / DELETE inside a transaction;
-- files are written at COMMIT, and ROLLBACK leaves them untouched:
BEGIN;
UPDATE wwd_objects SET score = score + 100
WHERE source = 'build/cookbook/wwd' AND logic IN ('Treasure', 'TreasurePowerup');
DELETE FROM wwd_objects WHERE source = 'build/cookbook/wwd' AND logic = 'Rat';
INSERT INTO wwd_objects(file, logic, image_set, animation, x, y)
VALUES ('build/cookbook/wwd/SAMPLE02.WWD', 'HealthPowerup', 'LEVEL_HEALTH', '', 500, 400);
SELECT count(*) AS rats_left FROM wwd_objects('build/cookbook/wwd') WHERE logic = 'Rat';
ROLLBACK;
SELECT count(*) AS rats_after_rollback FROM wwd_objects('build/cookbook/wwd') WHERE logic = 'Rat';

-- Resize a plane: the main plane of SAMPLE05 to 50 x 40 tiles, anchored
-- top-left (cells beyond the new size are cut off; new ones get the
-- new_cells option: invisible by default, here filled; or a tile id).
-- width_px and height_px follow; objects stay where they are.
UPDATE wwd_planes SET tiles_wide = 50, tiles_high = 40
WHERE source = 'build/cookbook/wwd/SAMPLE05.WWD' AND is_main AND options = 'new_cells=filled';
SELECT plane, name, tiles_wide, tiles_high, width_px, height_px
FROM wwd_planes('build/cookbook/wwd/SAMPLE05.WWD');

-- Add a plane in front (tile size and count default to the main plane's),
-- and delete it again (the main plane cannot be deleted; a deleted plane's
-- objects go with it).
INSERT INTO wwd_planes(source, name, z, movement_x_percent, image_sets)
VALUES ('build/cookbook/wwd/SAMPLE05.WWD', 'Clouds', 9500, 120, '["FRONT"]');
DELETE FROM wwd_planes WHERE source = 'build/cookbook/wwd/SAMPLE05.WWD' AND name = 'Clouds';

-- Add a tile property: a solid tile after the last one (give `tile` to
-- insert at that tile id instead; the later ones then move up one id).
INSERT INTO wwd_tile_properties(file, tile, type, attribute)
VALUES ('build/cookbook/wwd/SAMPLE05.WWD', NULL, 'single', wwd_flag_value('attribute', 'solid'));
SELECT tile, type, wwd_flag_names('attribute', attribute) AS attribute
FROM wwd_tile_properties('build/cookbook/wwd/SAMPLE05.WWD') ORDER BY tile DESC LIMIT 1;

-- Make 10 variants of a level: copy the template (written at once, byte
-- for byte; overwrite = 1 replaces earlier copies, 0 or absent refuses an
-- existing file), then edit the copies like any level: here variant n
-- starts n tiles further right and its enemies get n more health.
-- (count() of the copies makes SQLite call levelsql_copy for every row.)
WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 10)
SELECT count(levelsql_copy('build/cookbook/wwd/SAMPLE01.WWD',
                           printf('build/cookbook/wwd/SAMPLE01_v%02d.WWD', value), 1)) AS copies
FROM n;
UPDATE wwd_levels SET start_x = start_x + 64 * CAST(substr(file, -6, 2) AS INTEGER),
                      name = printf('%s v%s', name, substr(file, -6, 2))
WHERE source = 'build/cookbook/wwd/SAMPLE01_v*.WWD';
UPDATE wwd_objects SET health = health + CAST(substr(file, -6, 2) AS INTEGER)
WHERE source = 'build/cookbook/wwd/SAMPLE01_v*.WWD' AND health > 0;
SELECT file, name, start_x FROM wwd_levels('build/cookbook/wwd/SAMPLE01_v*.WWD');
