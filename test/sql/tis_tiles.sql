-- tis_tiles and wed_render's tiles on the generated samples (issue 26
-- part 2): AR0100.TIS (618 PVRZ tiles on the pages A010000..02.PVRZ) and
-- AR0200.TIS (314 palette tiles), beside the areas that use them.  Rows,
-- positions from the WED beside, references, png, read-only, errors;
-- copies in tiles/ for what changes on disk.  Pixel checks of the renders
-- and of png against the decoded tiles: test/unit/test_tiles.c.

-- Rows and columns.
SELECT file, count(*), count(x), count(page), min(tile), max(tile) FROM tis_tiles('samples') GROUP BY file ORDER BY file;
-- expect: samples/AR0100.TIS|618|618|618|0|617
-- expect: samples/AR0200.TIS|314|314|0|0|313
SELECT tile, x, y, page, page_x, page_y FROM tis_tiles('samples/AR0100.TIS') WHERE tile IN (0, 1, 256, 612);
-- expect: 0|0|0|-1|0|0
-- expect: 1|64|0|0|64|0
-- expect: 256|640|512|1|0|0
-- expect: 612|320|384|2|256|384
SELECT tile, x, y, page, page_x, page_y FROM tis_tiles('samples/AR0200.TIS') WHERE tile IN (0, 22, 25, 26, 306);
-- expect: 0|0|0|||
-- expect: 22|128|64|||
-- expect: 25|128|64|||
-- expect: 26|192|64|||
-- expect: 306|128|896|||
SELECT 'every tile''s place is a cell showing it (a frame, or a closed door''s tile)', count(*) = 0
  FROM tis_tiles('samples') AS s WHERE NOT EXISTS (
    SELECT 1 FROM wed_tiles(replace(s.file, '.TIS', '.WED')) AS t WHERE t.overlay = 0 AND t.x = s.x / 64 AND t.y = s.y / 64
      AND (t.secondary_tile = s.tile OR EXISTS (SELECT 1 FROM json_each(t.tis_tiles) WHERE value = s.tile)));
SELECT 'the first such cell, row by row', count(*) = 0
  FROM tis_tiles('samples') AS s JOIN (
    SELECT t.file, j.value AS tile, min(t.y * 100000 + t.x) AS first_cell
    FROM wed_tiles('samples') AS t, json_each(t.tis_tiles) AS j WHERE t.overlay = 0 GROUP BY t.file, j.value) AS f
  ON f.file = replace(s.file, '.TIS', '.WED') AND f.tile = s.tile
  WHERE f.first_cell < (s.y / 64) * 100000 + s.x / 64;
SELECT 'tile push-down = plain filter', (SELECT count(*) FROM tis_tiles('samples') WHERE tile BETWEEN 10 AND 20) =
  (SELECT count(*) FROM tis_tiles('samples') WHERE +tile BETWEEN 10 AND 20);
SELECT 'rowid lookup', (SELECT page_x FROM tis_tiles('samples') WHERE rowid = (SELECT rowid FROM tis_tiles('samples/AR0100.TIS') WHERE tile = 300)) = 768;

-- png: an RGBA PNG of 64 x 64 (IHDR), decoded when read.
SELECT hex(substr(png, 1, 8)), hex(substr(png, 17, 8)), hex(substr(png, 25, 2)) FROM tis_tiles('samples/AR0100.TIS') WHERE tile = 5;
-- expect: 89504E470D0A1A0A|0000004000000040|0806
SELECT 'every sample tile has a png', count(*) = 932 AND min(length(png)) > 100 FROM tis_tiles('samples');
SELECT 'the frames of an animated cell differ', count(DISTINCT png) = 4 FROM tis_tiles('samples/AR0200.TIS') WHERE tile BETWEEN 22 AND 25;

-- Read-only.
UPDATE tis_tiles SET page = 1 WHERE file = 'samples/AR0100.TIS' AND tile = 0;
-- expect error: column page of tis_tiles is read-only
DELETE FROM tis_tiles WHERE file = 'samples/AR0100.TIS' AND tile = 0;
-- expect error: rows cannot be deleted from tis_tiles
INSERT INTO tis_tiles(file, tile) VALUES ('samples/AR0100.TIS', 700);
-- expect error: rows cannot be inserted into tis_tiles
SELECT 'the samples are as written', readfile('samples/AR0100.TIS') = readfile('samples/AR0100.TIS') AND count(*) = 618 FROM tis_tiles('samples/AR0100.TIS');

-- levelsql_files: tilesets and their pages are files of their own formats.
SELECT file, format, ok FROM levelsql_files('samples') WHERE format IN ('tis', 'pvrz') ORDER BY file;
-- expect: samples/A010000.PVRZ|pvrz|1
-- expect: samples/A010001.PVRZ|pvrz|1
-- expect: samples/A010002.PVRZ|pvrz|1
-- expect: samples/AR0100.TIS|tis|1
-- expect: samples/AR0200.TIS|tis|1
SELECT 'a folder source reads TIS files only', count(DISTINCT file) = 2 FROM tis_tiles('samples');

-- On disk: copies in tiles/.  A TIS alone has no area: x and y NULL; its
-- PVRZ tiles need their pages.
SELECT writefile('tiles/alone/AR0100.TIS', readfile('samples/AR0100.TIS')) > 0;
-- expect: 1
SELECT count(*), count(x), count(y), count(page) FROM tis_tiles('tiles/alone');
-- expect: 618|0|0|618
SELECT 'page -1 needs no page: a black tile, one colour, a small PNG', length(png) < 400 FROM tis_tiles('tiles/alone') WHERE tile = 0;
SELECT length(png) FROM tis_tiles('tiles/alone') WHERE tile = 1;
-- expect error: tiles/alone/AR0100.TIS: tile 1: page 0: A010000.PVRZ not found in tiles/alone
-- The pages in any case: y/x lower case is found.
SELECT writefile('tiles/alone/a010000.pvrz', readfile('samples/A010000.PVRZ')) > 0;
-- expect: 1
SELECT 'a page named in lower case is found', length(png) > 100 FROM tis_tiles('tiles/alone') WHERE tile = 1;
-- A WED appears beside it: the positions follow (the folder changed).
SELECT writefile('tiles/alone/ar0100.wed', readfile('samples/AR0100.WED')) > 0;
-- expect: 1
SELECT count(x) FROM tis_tiles('tiles/alone');
-- expect: 618
-- An area whose base overlay names another tileset places nothing.
SELECT writefile('tiles/other/AR0100.TIS', readfile('samples/AR0100.TIS')) + writefile('tiles/other/AR0100.WED', readfile('samples/AR0200.WED')) > 0;
-- expect: 1
SELECT count(x) FROM tis_tiles('tiles/other');
-- expect: 0
-- A damaged WED beside it: x and y fail naming it; the other columns read.
SELECT writefile('tiles/broken/AR0200.TIS', readfile('samples/AR0200.TIS')) + writefile('tiles/broken/AR0200.WED', substr(readfile('samples/AR0200.WED'), 1, 100)) > 0;
-- expect: 1
SELECT x FROM tis_tiles('tiles/broken') WHERE tile = 3;
-- expect error: tiles/broken/AR0200.TIS: x, y: the area beside it, tiles/broken/AR0200.WED:
SELECT count(*), count(png) FROM tis_tiles('tiles/broken');
-- expect: 314|314
-- A damaged page: levelsql_files names it; the tiles on it fail, naming it.
SELECT writefile('tiles/pages/AR0100.TIS', readfile('samples/AR0100.TIS')) + writefile('tiles/pages/A010000.PVRZ', substr(readfile('samples/A010000.PVRZ'), 1, 2000)) > 0;
-- expect: 1
SELECT format, ok, error LIKE 'pvrz: %' FROM levelsql_files('tiles/pages/A010000.PVRZ');
-- expect: pvrz|0|1
SELECT png FROM tis_tiles('tiles/pages') WHERE tile = 1;
-- expect error: tiles/pages/AR0100.TIS: tile 1: page 0: tiles/pages/A010000.PVRZ: pvrz:

-- wed_render with tiles: the samples' tiles, found beside the areas.
SELECT hex(substr(wed_render('samples/AR0100.WED', 'tiles=1'), 1, 8)), hex(substr(wed_render('samples/AR0100.WED', 'tiles=1'), 17, 8));
-- expect: 89504E470D0A1A0A|0000078000000500
SELECT 'open doors differ from closed ones', wed_render('samples/AR0200.WED', 'tiles=1') <> wed_render('samples/AR0200.WED', 'tiles=1, door_tiles=open');
SELECT 'walls over the tiles differ', wed_render('samples/AR0200.WED', 'tiles=1') <> wed_render('samples/AR0200.WED', 'tiles=1, walls=1');
SELECT 'door_tiles=closed is the default', wed_render('samples/AR0200.WED', 'tiles=1') = wed_render('samples/AR0200.WED', 'tiles=1, door_tiles=closed');
SELECT hex(substr(wed_render('samples/AR0200.WED', 'tiles=1, scale=0.1'), 17, 8));
-- expect: 000000780000005A
SELECT wed_render('tiles/alone/ar0100.wed', 'tiles=1, tilesets=tiles/none');
-- expect error: wed_render: tiles/alone/ar0100.wed: tiles=1: no AR0100.TIS in tiles/none
SELECT 'tilesets=DIR finds the tileset elsewhere', length(wed_render('tiles/other/AR0100.WED', 'tiles=1, tilesets=samples')) > 0;
SELECT wed_render('samples/AR0200.WED', 'tiles=1, format=svg');
-- expect error: tiles=1 draws a PNG
SELECT wed_render('samples/AR0200.WED', 'tiles=1, door_tiles=half');
-- expect error: option door_tiles takes closed
SELECT wed_render('tiles/pages/AR0100.TIS', 'tiles=1');
-- expect error: not a WED file
