.load build/levelsql
-- levelsql cookbook for werkkzeug4 projects (.wz4, farbrausch's demo tool).
-- Run from the project root after `make` and `make samples`, as
--   sqlite3 :memory: < sql/wz4_cookbook.sql
-- (the line above loads the extension from build/), or paste single queries
-- into the sqlite3 shell after that .load and the .shell line below.
-- The queries read and change build/cookbook/wz4, a fresh copy of the projects (intro.wz4, logo.wz4)
-- `make samples` writes into build/samples, which the .shell line below makes
-- anew on every run (by hand: the same rm, mkdir and cp), so build/samples
-- is never changed and every run gives the same results.  To ask the same of
-- your own files, replace build/cookbook/wz4 with your own folder ('projects': its .wz4 files), file
-- ('projects/debris.wz4') or pattern ('projects/*.wz4');
-- the edits then change those files.  The tests run every query as it
-- is, twice, and check that build/samples stays as it was.
.shell rm -rf build/cookbook/wz4 && mkdir -p build/cookbook/wz4 && cp build/samples/*.wz4 build/cookbook/wz4/
.mode box

-- Check a folder: which projects do not load, and why?
SELECT file, format, ok, error FROM levelsql_files('build/cookbook/wz4/*.wz4');

-- The most used operator classes (class and output type name an op class).
SELECT class, output_type, count(*) AS ops
FROM wz4_operators('build/cookbook/wz4/*.wz4')
GROUP BY class, output_type ORDER BY ops DESC LIMIT 15;

-- Operators switched off with bypass (and hidden ones).
SELECT file, page, op, class, name, bypass, hide
FROM wz4_operators('build/cookbook/wz4/*.wz4')
WHERE bypass OR hide;

-- Pages with the most operators.
SELECT file, page, name, num_ops
FROM wz4_pages('build/cookbook/wz4/*.wz4')
ORDER BY num_ops DESC LIMIT 10;

-- Name links whose target does not exist (a Load of a renamed Store).
SELECT l.file, l.page, l.to_op, o.class, l.link_name
FROM wz4_links('build/cookbook/wz4/*.wz4') AS l
JOIN wz4_operators('build/cookbook/wz4/*.wz4') AS o ON o.file = l.file AND o.page = l.page AND o.op = l.to_op
WHERE l.kind = 'name' AND l.from_op IS NULL;

-- Store ops no link slot loads (candidates for clean-up).
SELECT o.file, o.page, o.op, o.name
FROM wz4_operators('build/cookbook/wz4/*.wz4') AS o
WHERE o.class = 'Store' AND NOT EXISTS (
  SELECT 1 FROM wz4_links(o.file) AS l
  WHERE l.kind = 'name' AND l.from_page = o.page AND l.from_op = o.op);

-- The inputs of each op on the first page, as the tool connects them.
SELECT l.to_op, t.class AS op_class, group_concat(f.class || '#' || l.from_op, ', ') AS inputs
FROM wz4_links('build/cookbook/wz4/*.wz4') AS l
JOIN wz4_operators('build/cookbook/wz4/*.wz4') AS t ON t.file = l.file AND t.page = l.page AND t.op = l.to_op
JOIN wz4_operators('build/cookbook/wz4/*.wz4') AS f ON f.file = l.file AND f.page = l.from_page AND f.op = l.from_op
WHERE l.page = 0
GROUP BY l.file, l.to_op ORDER BY l.file, l.to_op LIMIT 20;

-- String parameters that mention a file (textures, meshes, music).
SELECT o.file, o.page, o.op, o.class, s.value AS path
FROM wz4_operators('build/cookbook/wz4/*.wz4') AS o, json_each(o.strings) AS s
WHERE s.value GLOB '*.[a-zA-Z][a-zA-Z][a-zA-Z]';

-- Edits go through UPDATE inside a transaction; files are written at
-- COMMIT, and ROLLBACK leaves them untouched.  Moving an op rewires the
-- stack links (wz4_links is computed from the current positions):
BEGIN;
UPDATE wz4_operators SET bypass = 1 WHERE source = 'build/cookbook/wz4/*.wz4' AND class = 'Blur';
UPDATE wz4_operators SET pos_x = pos_x + 100 WHERE source = 'build/cookbook/wz4/*.wz4' AND page = 0 AND op = 0;
SELECT count(*) AS stack_links_now FROM wz4_links('build/cookbook/wz4/*.wz4') WHERE kind = 'stack';
ROLLBACK;
SELECT count(*) AS stack_links_after_rollback FROM wz4_links('build/cookbook/wz4/*.wz4') WHERE kind = 'stack';

-- The projects' settings: music, tempo, screen size (the columns a file's
-- options version lacks are NULL).
SELECT file, project_name, music_file, round(bpm, 2) AS bpm, beats, screen_x, screen_y, page_name
FROM wz4_projects('build/cookbook/wz4/*.wz4');

-- Link default ops: what a link slot gives when it names nothing, with
-- the operator and slot holding it.
SELECT d.file, d.page, d.op, o.class AS held_by, d.slot, d.depth, d.class, d.output_type, d.params
FROM wz4_link_defaults('build/cookbook/wz4/*.wz4') AS d
JOIN wz4_operators('build/cookbook/wz4/*.wz4') AS o ON o.file = d.file AND o.page = d.page AND o.op = d.op;

-- Rename a Store and its Loads together: with options 'rename_links=1'
-- every link slot naming the old name follows (without it the Loads
-- dangle).  Repair a dangling Load by writing its links (JSON).
BEGIN;
UPDATE wz4_operators SET name = 'tex_stone'
WHERE source = 'build/cookbook/wz4/intro.wz4' AND options = 'rename_links=1' AND class = 'Store' AND name = 'tex_rock';
UPDATE wz4_operators SET links = '[{"name":"tex_title","select":0}]'
WHERE source = 'build/cookbook/wz4/intro.wz4' AND links = '[{"name":"tex_old","select":0}]';
SELECT l.page, l.to_op, l.link_name, l.from_page, l.from_op FROM wz4_links('build/cookbook/wz4/intro.wz4') AS l WHERE l.kind = 'name';
ROLLBACK;

-- Add a page with a Load of an existing Store and a Render below it,
-- rename a page, and change the tempo; DELETE removes pages and ops.
BEGIN;
INSERT INTO wz4_pages(file, name) VALUES ('build/cookbook/wz4/intro.wz4', 'credits');
INSERT INTO wz4_operators(file, page, class, output_type, pos_x, pos_y, links)
  SELECT file, page, 'Load', 'AnyType', 0, 0, '[{"name":"tex_title","select":0}]' FROM wz4_pages('build/cookbook/wz4/intro.wz4') WHERE name = 'credits';
INSERT INTO wz4_operators(file, page, class, output_type, pos_x, pos_y)
  SELECT file, page, 'Layer2D', 'Wz4Render', 0, 1 FROM wz4_pages('build/cookbook/wz4/intro.wz4') WHERE name = 'credits';
UPDATE wz4_pages SET name = 'main scene' WHERE source = 'build/cookbook/wz4/intro.wz4' AND name = 'scene';
UPDATE wz4_projects SET bpm = 128 WHERE file = 'build/cookbook/wz4/intro.wz4';
SELECT p.name, o.op, o.class, o.links FROM wz4_pages('build/cookbook/wz4/intro.wz4') AS p
JOIN wz4_operators('build/cookbook/wz4/intro.wz4') AS o ON o.page = p.page WHERE p.name = 'credits';
DELETE FROM wz4_pages WHERE source = 'build/cookbook/wz4/intro.wz4' AND name = 'credits';
ROLLBACK;
