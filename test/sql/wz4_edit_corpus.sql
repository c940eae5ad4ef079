-- requires: corpus
-- werkkzeug4 structural edits on a private copy of the real corpus
-- (corpus/wz4: teaser1.wz4, teaser2.wz4, fr-062_texts_kb.wz4): the link
-- default ops they hold, wz4_projects, and every kind of write read back in
-- a new connection, with the files' untouched parts compared to the
-- originals (orig/).
.shell mkdir -p orig && cp corpus/wz4/*.wz4 orig/

-- link defaults: 25 in the corpus, all one deep, all a Flat bitmap
SELECT count(*), max(depth), count(DISTINCT class || ':' || output_type), min(parent IS NULL) FROM wz4_link_defaults('corpus/wz4');
-- expect: 25|1|1|1
SELECT group_concat(n) FROM (SELECT count(*) AS n FROM wz4_link_defaults('corpus/wz4') GROUP BY file ORDER BY file);
-- expect: 9,5,11
SELECT 'each default sits in an existing slot of its op', count(*) = 25 FROM wz4_link_defaults('corpus/wz4') d
  JOIN wz4_operators('corpus/wz4') o ON o.file = d.file AND o.page = d.page AND o.op = d.op WHERE d.slot < json_array_length(o.links);
SELECT 'default JSON columns are JSON', min(json_valid(params) AND json_valid(strings) AND json_valid(links)) = 1 FROM wz4_link_defaults('corpus/wz4');
SELECT 'idx push-down = plain filter',
  (SELECT count(*) FROM wz4_link_defaults('corpus/wz4') WHERE idx BETWEEN 2 AND 5) = (SELECT count(*) FROM wz4_link_defaults('corpus/wz4') WHERE +idx BETWEEN 2 AND 5);

-- wz4_projects
SELECT file, options_version, round(bpm, 2), beats, screen_x, screen_y, page_name FROM wz4_projects('corpus/wz4') ORDER BY file;
-- expect: corpus/wz4/fr-062_texts_kb.wz4|10|60.0|32|800|600|text gen
-- expect: corpus/wz4/teaser1.wz4|16|121.72|128|1280|720|scene
-- expect: corpus/wz4/teaser2.wz4|13|121.72|128|1280|720|scene
SELECT music_file, sample_rate, dialog_flags IS NULL FROM wz4_projects('corpus/wz4/teaser2.wz4');
-- expect: C:/svn/farbrausch/easterparty/data/overcocked.ogg|44100|1

-- rename a named op with the Loads of it (TextMtrl: a ModMaterial, loaded on its page)
SELECT count(*) FROM wz4_links('corpus/wz4/teaser2.wz4') WHERE link_name = 'TextMtrl';
-- expect: 1
UPDATE wz4_operators SET name = 'TextMaterial' WHERE source = 'corpus/wz4/teaser2.wz4' AND options = 'rename_links=1' AND name = 'TextMtrl';
-- a Store loaded from another page
UPDATE wz4_operators SET name = 'SkyBox' WHERE source = 'corpus/wz4/teaser1.wz4' AND options = 'rename_links=1' AND class = 'Store' AND name = 'Sky';
-- a link default edit, a links edit, a page rename, a project edit
UPDATE wz4_link_defaults SET params = '[2056,4294967295]' WHERE source = 'corpus/wz4/fr-062_texts_kb.wz4' AND page = 0 AND idx = 3;
UPDATE wz4_operators SET links = '[{"name":"white","select":1}]' WHERE source = 'corpus/wz4/fr-062_texts_kb.wz4' AND page = 0 AND op IN (SELECT op FROM wz4_link_defaults('corpus/wz4/fr-062_texts_kb.wz4') WHERE idx = 3);
UPDATE wz4_pages SET name = 'texts' WHERE source = 'corpus/wz4/fr-062_texts_kb.wz4' AND page = 0;
UPDATE wz4_projects SET bpm = 125, music_file = 'music.ogg' WHERE file = 'corpus/wz4/teaser1.wz4';
.open :memory:
SELECT l.page <> l.from_page, o.class FROM wz4_links('corpus/wz4/teaser2.wz4') l
  JOIN wz4_operators('corpus/wz4/teaser2.wz4') o ON o.page = l.from_page AND o.op = l.from_op WHERE l.link_name = 'TextMaterial';
-- expect: 0|ModMaterial
SELECT count(*) FROM wz4_links('corpus/wz4/teaser2.wz4') WHERE link_name = 'TextMtrl';
-- expect: 0
SELECT l.page <> l.from_page, o.class, o.name FROM wz4_links('corpus/wz4/teaser1.wz4') l
  JOIN wz4_operators('corpus/wz4/teaser1.wz4') o ON o.page = l.from_page AND o.op = l.from_op WHERE l.link_name = 'SkyBox';
-- expect: 1|Store|SkyBox
SELECT count(*) FROM wz4_links('corpus/wz4/teaser1.wz4') WHERE link_name = 'Sky';
-- expect: 0
SELECT d.params, o.links FROM wz4_link_defaults('corpus/wz4/fr-062_texts_kb.wz4') d
  JOIN wz4_operators('corpus/wz4/fr-062_texts_kb.wz4') o ON o.page = d.page AND o.op = d.op WHERE d.idx = 3;
-- expect: [2056,4294967295]|[{"name":"white","select":1}]
SELECT count(*) FROM wz4_link_defaults('corpus/wz4/fr-062_texts_kb.wz4');
-- expect: 9
SELECT p.name, j.page_name FROM wz4_pages('corpus/wz4/fr-062_texts_kb.wz4') p, wz4_projects('corpus/wz4/fr-062_texts_kb.wz4') j;
-- expect: texts|texts
SELECT round(bpm, 2), music_file FROM wz4_projects('corpus/wz4/teaser1.wz4');
-- expect: 125.0|music.ogg
SELECT 'untouched ops of teaser2 are the same', count(*) = 0 FROM wz4_operators('orig/teaser2.wz4') a
  JOIN wz4_operators('corpus/wz4/teaser2.wz4') b USING (page, op)
  WHERE a.name <> 'TextMtrl' AND (a.name, a.class, a.params, a.strings, a.pos_x, a.pos_y, replace(a.links, 'TextMtrl', 'TextMaterial')) IS NOT (b.name, b.class, b.params, b.strings, b.pos_x, b.pos_y, b.links);

-- INSERT and DELETE: a new page with a Load of an existing Store; delete a page
INSERT INTO wz4_pages(file, name) VALUES ('corpus/wz4/teaser1.wz4', 'added');
INSERT INTO wz4_operators(file, page, class, output_type, links) VALUES ('corpus/wz4/teaser1.wz4', 3, 'Load', 'AnyType', '[{"name":"white","select":1}]');
DELETE FROM wz4_operators WHERE source = 'corpus/wz4/teaser2.wz4' AND page = 0 AND class = 'Store';
DELETE FROM wz4_pages WHERE source = 'corpus/wz4/teaser2.wz4' AND page = 1;
.open :memory:
SELECT group_concat(name, ',') FROM wz4_pages('corpus/wz4/teaser1.wz4');
-- expect: images,meshes,scene,added
SELECT o.name, o.class FROM wz4_links('corpus/wz4/teaser1.wz4') l
  JOIN wz4_operators('corpus/wz4/teaser1.wz4') o ON o.page = l.from_page AND o.op = l.from_op WHERE l.page = 3;
-- expect: white|Store
SELECT group_concat(name, ',') FROM wz4_pages('corpus/wz4/teaser2.wz4');
-- expect: images,scene
SELECT 'teaser2 lost its Stores of page 0 and page 1', (SELECT count(*) FROM wz4_operators('corpus/wz4/teaser2.wz4')) =
  (SELECT count(*) FROM wz4_operators('orig/teaser2.wz4') WHERE page <> 1 AND NOT (page = 0 AND class = 'Store'));
SELECT 'all three still parse', count(*) = 3 AND min(ok) = 1 FROM levelsql_files('corpus/wz4');
