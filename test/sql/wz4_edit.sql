-- werkkzeug4 structural edits on the generated samples (samples/intro.wz4,
-- samples/logo.wz4, tools/gen_wz4_samples.c): link default ops
-- (wz4_link_defaults), writable links, renames that carry name links
-- (rename_links=1), page renames, INSERT and DELETE of pages and
-- operators, and wz4_projects; every write read back in a new connection.

-- link defaults: the two the generator puts in intro.wz4
SELECT page, idx, op, slot, parent, depth, class, output_type, params FROM wz4_link_defaults('samples') ORDER BY page;
-- expect: 0|0|13|0||1|Perlin|GenBitmap|[8]
-- expect: 2|0|1|0||1|Flat|GenBitmap|[2056]
SELECT count(*) FROM wz4_link_defaults('samples/logo.wz4');
-- expect: 0
SELECT o.class, o.links FROM wz4_link_defaults('samples/intro.wz4') d
  JOIN wz4_operators('samples/intro.wz4') o ON o.page = d.page AND o.op = d.op WHERE d.page = 2;
-- expect: SetMaterial|[{"name":"mtrl_rock","select":0}]
UPDATE wz4_link_defaults SET params = '[2057]', name = 'fallback', strings = '["x"]' WHERE source = 'samples/intro.wz4' AND page = 2;
UPDATE wz4_link_defaults SET class = 'Blur' WHERE source = 'samples/intro.wz4' AND page = 2;
-- expect error: column class of wz4_link_defaults is read-only

-- links: written as JSON; a slot keeps its default op
UPDATE wz4_operators SET links = '[{"name":"mtrl_new","select":1},{"name":""}]' WHERE source = 'samples/intro.wz4' AND page = 2 AND op = 1;
UPDATE wz4_operators SET links = '[{"nam":"x"}]' WHERE source = 'samples/intro.wz4' AND page = 2 AND op = 1;
-- expect error: links: element 0 has a key other than "name" and "select"
UPDATE wz4_operators SET links = '[{"name":"x"}' WHERE source = 'samples/intro.wz4' AND page = 2 AND op = 1;
-- expect error: links: expected ',' or ']' after element 0
UPDATE wz4_operators SET links = 7 WHERE source = 'samples/intro.wz4' AND page = 2 AND op = 1;
-- expect error: column links takes a JSON array of link slots

.open :memory:
SELECT links FROM wz4_operators('samples/intro.wz4') WHERE page = 2 AND op = 1;
-- expect: [{"name":"mtrl_new","select":1},{"name":"","select":0}]
SELECT name, params, strings, slot FROM wz4_link_defaults('samples/intro.wz4') WHERE page = 2;
-- expect: fallback|[2057]|["x"]|0
SELECT count(*) FROM wz4_links('samples/intro.wz4') WHERE link_name = 'mtrl_new' AND from_op IS NULL;
-- expect: 1

-- renaming a Store: without the option its Load dangles, with it the Load follows
UPDATE wz4_operators SET name = 'box' WHERE source = 'samples/intro.wz4' AND name = 'mesh_box';
SELECT count(*) FROM wz4_links('samples/intro.wz4') WHERE link_name = 'mesh_box' AND from_op IS NULL;
-- expect: 1
UPDATE wz4_operators SET name = 'mesh_box' WHERE source = 'samples/intro.wz4' AND name = 'box';
UPDATE wz4_operators SET name = 'box' WHERE source = 'samples/intro.wz4' AND options = 'rename_links=1' AND name = 'mesh_box';
UPDATE wz4_operators SET name = 'x' WHERE source = 'samples/intro.wz4' AND options = 'rename_links=2' AND name = 'box';
-- expect error: option rename_links takes 1
.open :memory:
SELECT l.link_name, o.name, o.class FROM wz4_links('samples/intro.wz4') l
  JOIN wz4_operators('samples/intro.wz4') o ON o.page = l.from_page AND o.op = l.from_op WHERE l.link_name = 'box';
-- expect: box|box|Store
SELECT count(*) FROM wz4_operators('samples/intro.wz4'), json_each(links) WHERE json_extract(value, '$.name') = 'mesh_box';
-- expect: 0

-- page names, and the last open page follows
UPDATE wz4_pages SET name = 'stage' WHERE source = 'samples/intro.wz4' AND name = 'scene';
.open :memory:
SELECT group_concat(name, ',') FROM wz4_pages('samples/intro.wz4');
-- expect: textures,meshes,stage
SELECT page_name FROM wz4_projects('samples/intro.wz4');
-- expect: stage

-- INSERT and DELETE pages and operators
INSERT INTO wz4_pages(file, page, name) VALUES ('samples/intro.wz4', 1, 'extra');
INSERT INTO wz4_operators(file, page, class, output_type, name, pos_x, pos_y, params) VALUES ('samples/intro.wz4', 1, 'Flat', 'GenBitmap', 'tex_new', 0, 0, '[771,4278190080]');
INSERT INTO wz4_operators(file, page, class, output_type, pos_x, pos_y) VALUES ('samples/intro.wz4', 1, 'Store', 'AnyType', 0, 1);
INSERT INTO wz4_operators(file, page, class, output_type, pos_x, links) VALUES ('samples/intro.wz4', 1, 'Load', 'AnyType', 4, '[{"name":"tex_new"}]');
INSERT INTO wz4_operators(file, page, output_type) VALUES ('samples/intro.wz4', 1, 'AnyType');
-- expect error: a new op needs a class and an output type
INSERT INTO wz4_operators(file, page, class, output_type) VALUES ('samples/intro.wz4', 9, 'Flat', 'GenBitmap');
-- expect error: page
INSERT INTO wz4_pages(file, page, name) VALUES ('samples/intro.wz4', 7, 'x');
-- expect error: page
.open :memory:
SELECT group_concat(name, ',') FROM wz4_pages('samples/intro.wz4');
-- expect: textures,extra,meshes,stage
SELECT op, class, name, pos_x, pos_y, width, height, params, links FROM wz4_operators('samples/intro.wz4') WHERE page = 1;
-- expect: 0|Flat|tex_new|0|0|3|1|[771,4278190080]|[]
-- expect: 1|Store||0|1|3|1|[]|[]
-- expect: 2|Load||4|0|3|1|[]|[{"name":"tex_new","select":0}]
SELECT kind, from_page, from_op, to_op FROM wz4_links('samples/intro.wz4') WHERE page = 1 ORDER BY kind, to_op;
-- expect: name|1|0|2
-- expect: stack|1|0|1
SELECT count(*) FROM wz4_operators('samples/intro.wz4') WHERE page = 3 AND class = 'Load';
-- expect: 4
-- a DELETE of many rows: rowids stay valid while rows before them go
DELETE FROM wz4_operators WHERE source = 'samples/intro.wz4' AND page = 0 AND op % 2 = 0;
DELETE FROM wz4_pages WHERE source = 'samples/intro.wz4' AND name = 'meshes';
.open :memory:
SELECT group_concat(name, ',') FROM wz4_pages('samples/intro.wz4');
-- expect: textures,extra,stage
SELECT count(*), group_concat(class, ',') FROM wz4_operators('samples/intro.wz4') WHERE page = 0;
-- expect: 7|Blur,Store,Normals,Store,Blur,Store,MakeTexture
SELECT count(*) FROM wz4_link_defaults('samples/intro.wz4');
-- expect: 2
SELECT group_concat(link_name, ',') FROM (SELECT link_name FROM wz4_links('samples/intro.wz4') WHERE from_op IS NULL ORDER BY link_name);
-- expect: box,mesh_ball,mtrl_new,tex_old
-- a failed statement changes nothing
INSERT INTO wz4_operators(file, page, class, output_type, width) VALUES ('samples/intro.wz4', 0, 'Flat', 'GenBitmap', 0);
-- expect error: width
SELECT count(*) FROM wz4_operators('samples/intro.wz4') WHERE page = 0;
-- expect: 7

-- wz4_projects: one row per file; fields the options version lacks are NULL
SELECT file, options_version, bpm, beats_per_second, music_file, screen_x, screen_y, sample_rate FROM wz4_projects('samples') ORDER BY file;
-- expect: samples/intro.wz4|16|120.0|131072|data/intro.ogg|1280|720|44100
-- expect: samples/logo.wz4|0||||||
UPDATE wz4_projects SET bpm = 140, music_file = 'data/new.ogg', screen_x = 1920 WHERE file = 'samples/intro.wz4';
UPDATE wz4_projects SET music_file = 'x.ogg' WHERE file = 'samples/logo.wz4';
-- expect error: music_file
UPDATE wz4_projects SET project_id = 3 WHERE file = 'samples/intro.wz4';
-- expect error: read-only
.open :memory:
SELECT round(bpm, 3), beats_per_second, music_file, screen_x FROM wz4_projects('samples/intro.wz4');
-- expect: 140.0|152917|data/new.ogg|1920
SELECT count(*) FROM levelsql_files('samples') WHERE format = 'wz4' AND ok;
-- expect: 2
