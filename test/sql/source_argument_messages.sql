-- A table without a source says how to give one, naming the argument that
-- table takes (issue 24, item 6): tw_sound_sources has a visible column
-- named `source` (a sound source's sound), so its hidden file argument is
-- `source_path`, and WHERE source = '...' there is a filter on the sound.
UPDATE tw_sound_sources SET x = 1 WHERE source = 's.map';
-- expect error: tw_sound_sources needs a source: tw_sound_sources('folder') or WHERE source_path = '...'
SELECT count(*) FROM tw_sound_sources;
-- expect error: WHERE source_path = '...'
INSERT INTO tw_sound_sources(x) VALUES (1);
-- expect error: give the source_path column (INSERT INTO tw_sound_sources(source_path, ...))
-- what the message says works
SELECT count(*) FROM tw_sound_sources WHERE source_path = 'samples/ddnet_features.map';
-- expect: 2
-- the other tables take `source`
SELECT count(*) FROM tw_sounds;
-- expect error: tw_sounds needs a source: tw_sounds('folder') or WHERE source = '...'
UPDATE wwd_objects SET score = 1;
-- expect error: wwd_objects needs a source: wwd_objects('folder') or WHERE source = '...'
INSERT INTO wed_doors(name) VALUES ('x');
-- expect error: give the source column (INSERT INTO wed_doors(source, ...))
