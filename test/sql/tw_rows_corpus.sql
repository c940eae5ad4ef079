-- requires: corpus
-- INSERT and DELETE on the real maps (a private copy in corpus/tw): every
-- unused envelope, image and sound goes, a tile layer and a quad come in,
-- and every map still reads whole with every reference in range, in a new
-- connection.  Byte identity with map_resave: test_twmap_edit.  What the
-- checks compare with is kept in an attached file across the .open.
ATTACH 'tw_rows_corpus.db' AS kept;
CREATE TABLE kept.counts AS SELECT file, num_layers, num_images, num_envelopes, num_sounds FROM tw_maps('corpus/tw');
CREATE TEMP TABLE used_env AS
  SELECT file, pos_env AS env FROM tw_quads('corpus/tw') WHERE pos_env IS NOT NULL
  UNION SELECT file, color_env FROM tw_quads('corpus/tw') WHERE color_env IS NOT NULL
  UNION SELECT file, color_env FROM tw_layers('corpus/tw') WHERE color_env IS NOT NULL
  UNION SELECT file, pos_env FROM tw_sound_sources('corpus/tw') WHERE pos_env IS NOT NULL
  UNION SELECT file, sound_env FROM tw_sound_sources('corpus/tw') WHERE sound_env IS NOT NULL;
CREATE TEMP TABLE used_img AS SELECT DISTINCT file, image FROM tw_layers('corpus/tw') WHERE image IS NOT NULL;
CREATE TABLE kept.img_names AS SELECT file, group_concat(name, '/') AS names FROM (SELECT file, name FROM tw_images('corpus/tw') i WHERE image IN (SELECT image FROM used_img u WHERE u.file = i.file) ORDER BY file, image) GROUP BY file;
SELECT 'some maps have unused envelopes or images', (SELECT count(*) FROM tw_envelopes('corpus/tw') e WHERE env NOT IN (SELECT env FROM used_env u WHERE u.file = e.file))
  + (SELECT count(*) FROM tw_images('corpus/tw') i WHERE image NOT IN (SELECT image FROM used_img u WHERE u.file = i.file)) > 0;
BEGIN;
DELETE FROM tw_envelopes WHERE source = 'corpus/tw' AND env NOT IN (
  SELECT pos_env FROM tw_quads(tw_envelopes.file) WHERE pos_env IS NOT NULL
  UNION SELECT color_env FROM tw_quads(tw_envelopes.file) WHERE color_env IS NOT NULL
  UNION SELECT color_env FROM tw_layers(tw_envelopes.file) WHERE color_env IS NOT NULL
  UNION SELECT pos_env FROM tw_sound_sources(tw_envelopes.file) WHERE pos_env IS NOT NULL
  UNION SELECT sound_env FROM tw_sound_sources(tw_envelopes.file) WHERE sound_env IS NOT NULL);
DELETE FROM tw_images WHERE source = 'corpus/tw' AND image NOT IN (SELECT image FROM tw_layers(tw_images.file) WHERE image IS NOT NULL);
DELETE FROM tw_sounds WHERE source = 'corpus/tw' AND sound NOT IN (SELECT sound FROM tw_layers(tw_sounds.file) WHERE sound IS NOT NULL);
INSERT INTO tw_layers(file, grp, kind, name) SELECT file, grp, 'tiles', 'Added' FROM tw_layers('corpus/tw') WHERE kind = 'game';
INSERT INTO tw_layers(file, grp, kind, name) SELECT file, 0, 'quads', 'AddedQ' FROM tw_maps('corpus/tw');
INSERT INTO tw_quads(file, grp, layer) SELECT file, grp, layer FROM tw_layers('corpus/tw') WHERE name = 'AddedQ';
COMMIT;
.open :memory:
ATTACH 'tw_rows_corpus.db' AS kept;
SELECT 'every map reads whole', count(*) = (SELECT count(*) FROM levelsql_files('corpus/tw')) AND sum(ok) = count(*) FROM levelsql_files('corpus/tw');
SELECT 'no unused envelope is left', count(*) = 0 FROM tw_envelopes('corpus/tw') e WHERE env NOT IN (
  SELECT pos_env FROM tw_quads(e.file) WHERE pos_env IS NOT NULL
  UNION SELECT color_env FROM tw_quads(e.file) WHERE color_env IS NOT NULL
  UNION SELECT color_env FROM tw_layers(e.file) WHERE color_env IS NOT NULL
  UNION SELECT pos_env FROM tw_sound_sources(e.file) WHERE pos_env IS NOT NULL
  UNION SELECT sound_env FROM tw_sound_sources(e.file) WHERE sound_env IS NOT NULL);
SELECT 'every used image is left, by name', count(*) = (SELECT count(*) FROM tw_maps('corpus/tw')) FROM tw_maps('corpus/tw') m
  WHERE coalesce((SELECT group_concat(name, '/') FROM (SELECT name FROM tw_images(m.file) ORDER BY image)), '') = coalesce((SELECT names FROM img_names n WHERE n.file = m.file), '');
SELECT 'every layer image index is in range', count(*) = 0 FROM tw_layers('corpus/tw') l WHERE image >= (SELECT num_images FROM tw_maps(l.file));
SELECT 'every quad envelope index is in range', count(*) = 0 FROM tw_quads('corpus/tw') q WHERE max(coalesce(pos_env, -1), coalesce(color_env, -1)) >= (SELECT num_envelopes FROM tw_maps(q.file));
SELECT 'each map has two more layers', count(*) = (SELECT count(*) FROM counts) FROM tw_maps('corpus/tw') m JOIN counts c ON c.file = m.file WHERE m.num_layers = c.num_layers + 2;
SELECT 'the added tile layer is as large as the game layer', count(*) = (SELECT count(*) FROM counts) FROM tw_layers('corpus/tw') a JOIN tw_layers('corpus/tw') g ON g.file = a.file AND g.kind = 'game'
  WHERE a.name = 'Added' AND a.width = g.width AND a.height = g.height AND a.grp = g.grp AND a.color_a = 255;
SELECT 'the added quad is there', count(*) = (SELECT count(*) FROM counts) FROM tw_quads('corpus/tw') q JOIN tw_layers('corpus/tw') l ON l.file = q.file AND l.layer_index = q.layer_index WHERE l.name = 'AddedQ';
