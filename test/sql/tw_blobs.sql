-- Pixels and sounds as data on the generated samples (issue 12, sections 1
-- and 4): tw_images.png and a writable external, tw_sounds.data and name,
-- tw_resave, and writes that keep unchanged blobs as read.  Every write is
-- read back in a new connection.  The corpus side (map_extract's pixels,
-- map_resave reading the results): test/unit/test_tw_sql.c.

-- The samples are written as DDNet writes: tw_resave gives their bytes.
SELECT 'tw_resave of a sample = its bytes', count(*) = 6 AND sum(tw_resave(file) = readfile(file)) = 6
  FROM tw_maps('samples/*.map');
SELECT tw_resave('samples/none.map');
-- expect error: tw_resave: samples/none.map
SELECT tw_resave(42);
-- expect error: the first argument is the file's path

-- png: the embedded pixels as an RGBA PNG, of the item's size (IHDR width
-- and height, 8-bit RGBA = colour type 6); NULL for external images.
SELECT image, name, external, format, hex(substr(png, 1, 8)), hex(substr(png, 17, 8)), hex(substr(png, 25, 2))
  FROM tw_images('samples/v07_sample.map');
-- expect: 0|grass_main|1|rgba|||
-- expect: 1|dots|0|rgb|89504E470D0A1A0A|0000000400000004|0806
SELECT 'png of every embedded sample image', count(*) = 3 AND sum(png IS NOT NULL) = 3
  FROM tw_images('samples/*.map') WHERE external = 0;
-- References kept in files, for the new connections below.
SELECT 'reference PNGs and maps written', sum(writefile('ref_' || name || '.png', png) > 0) = 3
  FROM tw_images('samples/*.map') WHERE png IS NOT NULL;
SELECT 'copies of the maps', writefile('orig_legacy.map', readfile('samples/legacy.map')) > 0
  AND writefile('orig_ddnet_features.map', readfile('samples/ddnet_features.map')) > 0;

-- Embedding: a PNG written to an external image embeds it; width, height,
-- data_size, external and (0.7) format follow.
UPDATE tw_images SET png = readfile('ref_stripes.png')
  WHERE source = 'samples/v07_sample.map' AND image = 0;
-- expect ok
UPDATE tw_images SET png = readfile('ref_dots.png')
  WHERE source = 'samples/dm_sample.map' AND image = 0;
-- expect ok
.open :memory:
SELECT file, image, name, external, width, height, format, data_size, version FROM tw_images('samples/v07_sample.map')
UNION ALL SELECT file, image, name, external, width, height, format, data_size, version FROM tw_images('samples/dm_sample.map');
-- expect: samples/v07_sample.map|0|grass_main|0|16|16|rgba|1024|2
-- expect: samples/v07_sample.map|1|dots|0|4|4|rgb|48|2
-- expect: samples/dm_sample.map|0|grass_main|0|4|4|rgba|64|1
SELECT 'embedded PNG reads back as written', png = readfile('ref_stripes.png')
  FROM tw_images('samples/v07_sample.map') WHERE image = 0;
SELECT 'RGB pixels come back as the same RGBA PNG', png = readfile('ref_dots.png')
  FROM tw_images('samples/dm_sample.map') WHERE image = 0;
SELECT 'the other image keeps its pixels', png = readfile('ref_dots.png')
  FROM tw_images('samples/v07_sample.map') WHERE image = 1;
-- Replacing the pixels of an embedded image.
UPDATE tw_images SET png = readfile('ref_checker.png')
  WHERE source = 'samples/ddrace_sample.map' AND name = 'stripes';
-- expect ok
.open :memory:
SELECT width, height, data_size, png = readfile('ref_checker.png')
  FROM tw_images('samples/ddrace_sample.map') WHERE name = 'stripes';
-- expect: 8|8|256|1

-- Externalising drops the pixels: no png, no data, a smaller file; the
-- name stays.
UPDATE tw_images SET external = 1 WHERE source = 'samples/ddnet_features.map' AND name = 'checker';
-- expect ok
.open :memory:
SELECT name, external, data_size, png IS NULL FROM tw_images('samples/ddnet_features.map') WHERE image = 1;
-- expect: checker|1||1
SELECT 'the file lost the pixels', length(readfile('samples/ddnet_features.map')) < length(readfile('orig_ddnet_features.map'));

-- Bad values change nothing.
UPDATE tw_images SET external = 0 WHERE source = 'samples/dm_sample.map' AND image = 0;
-- expect ok
UPDATE tw_images SET external = 0 WHERE source = 'samples/ddnet_features.map' AND image = 0;
-- expect error: embedding an image needs its pixels
UPDATE tw_images SET png = x'89504E470D0A1A0A0000' WHERE source = 'samples/ddnet_features.map' AND image = 0;
-- expect error: column png
-- expect error: PNG
UPDATE tw_images SET png = substr(readfile('ref_stripes.png'), 1, 60)
  WHERE source = 'samples/ddnet_features.map' AND image = 0;
-- expect error: PNG
UPDATE tw_images SET png = 'grass.png' WHERE source = 'samples/ddnet_features.map' AND image = 0;
-- expect error: takes the bytes of a PNG file
UPDATE tw_images SET png = NULL WHERE source = 'samples/ddrace_sample.map' AND name = 'stripes';
-- expect error: set external = 1 to drop the pixels
-- an external image reads png NULL: NULL written back there changes nothing
UPDATE tw_images SET png = NULL WHERE source = 'samples/ddnet_features.map' AND image = 0;
-- expect ok
UPDATE tw_images SET external = 1, png = readfile('ref_dots.png')
  WHERE source = 'samples/ddnet_features.map' AND image = 0;
-- expect error: an image given a png is embedded
UPDATE tw_images SET external = 2 WHERE source = 'samples/ddnet_features.map' AND image = 0;
-- expect error: external
SELECT 'failed writes changed nothing', external = 1 AND png IS NULL AND width = 1024 FROM tw_images('samples/ddnet_features.map')
  WHERE image = 0;

-- Sounds: the opus bytes and the name, read and written.
SELECT sound, name, data_size, length(data), hex(substr(data, 1, 4)) FROM tw_sounds('samples/ddnet_features.map');
-- expect: 0|wind|64|64|0B30557A
-- expect: 1|bell|||
UPDATE tw_sounds SET data = x'4F676753000102', name = 'gust' WHERE source = 'samples/ddnet_features.map' AND sound = 0;
-- expect ok
UPDATE tw_sounds SET data = x'4F67675300', name = 'chime' WHERE source = 'samples/ddnet_features.map' AND sound = 1;
-- expect ok
.open :memory:
SELECT sound, name, data_size, hex(data) FROM tw_sounds('samples/ddnet_features.map');
-- expect: 0|gust|7|4F676753000102
-- expect: 1|chime|5|4F67675300
UPDATE tw_sounds SET data = 'x' WHERE source = 'samples/ddnet_features.map';
-- expect error: takes the bytes of an opus file
UPDATE tw_sounds SET name = '' WHERE source = 'samples/ddnet_features.map';
-- expect error: name
SELECT 'failed sound writes changed nothing', group_concat(name) = 'gust,chime' FROM tw_sounds('samples/ddnet_features.map');

-- Writes keep every other blob as read: after a one-tile edit only that
-- layer's blob differs, and tw_resave still gives map_resave's bytes (the
-- samples' blobs are zlib level 6 already, so its size is the file's).
UPDATE tw_tiles SET id = 1 WHERE source = 'samples/dm_sample.map' AND kind = 'game' AND x = 0 AND y = 0;
-- expect ok
SELECT 'a one-tile edit keeps the size class', abs(length(readfile('samples/dm_sample.map')) - 1137) < 64;
SELECT 'tw_resave after an edit = the file', tw_resave('samples/dm_sample.map') = readfile('samples/dm_sample.map');
-- A no-op UPDATE (every value written back as read) leaves the file as
-- it was: byte-identical.
UPDATE tw_maps SET author = author WHERE source = 'samples/legacy.map';
-- expect ok
SELECT 'no-op rewrite is byte-identical', readfile('samples/legacy.map') = readfile('orig_legacy.map');
