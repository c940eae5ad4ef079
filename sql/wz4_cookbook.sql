-- levelsql cookbook for werkkzeug4 projects (.wz4, farbrausch's demo tool).
-- The pattern 'corpus/wz4/*.wz4' is relative to the current folder; where
-- there is no folder corpus/wz4 each query fails with "corpus: no such
-- folder", and a pattern without matches in an existing folder is an empty
-- table.  Replace it with your own folder, file or pattern (e.g.
-- '../shared/corpus/wz4').
.mode box

-- Check a folder: which projects do not load, and why?
SELECT file, format, ok, error FROM levelsql_files('corpus/wz4/*.wz4');

-- The most used operator classes (class and output type name an op class).
SELECT class, output_type, count(*) AS ops
FROM wz4_operators('corpus/wz4/*.wz4')
GROUP BY class, output_type ORDER BY ops DESC LIMIT 15;

-- Operators switched off with bypass (and hidden ones).
SELECT file, page, op, class, name, bypass, hide
FROM wz4_operators('corpus/wz4/*.wz4')
WHERE bypass OR hide;

-- Pages with the most operators.
SELECT file, page, name, num_ops
FROM wz4_pages('corpus/wz4/*.wz4')
ORDER BY num_ops DESC LIMIT 10;

-- Name links whose target does not exist (a Load of a renamed Store).
SELECT l.file, l.page, l.to_op, o.class, l.link_name
FROM wz4_links('corpus/wz4/*.wz4') AS l
JOIN wz4_operators('corpus/wz4/*.wz4') AS o ON o.file = l.file AND o.page = l.page AND o.op = l.to_op
WHERE l.kind = 'name' AND l.from_op IS NULL;

-- Store ops no link slot loads (candidates for clean-up).
SELECT o.file, o.page, o.op, o.name
FROM wz4_operators('corpus/wz4/*.wz4') AS o
WHERE o.class = 'Store' AND NOT EXISTS (
  SELECT 1 FROM wz4_links(o.file) AS l
  WHERE l.kind = 'name' AND l.from_page = o.page AND l.from_op = o.op);

-- The inputs of each op on the first page, as the tool connects them.
SELECT l.to_op, t.class AS op_class, group_concat(f.class || '#' || l.from_op, ', ') AS inputs
FROM wz4_links('corpus/wz4/*.wz4') AS l
JOIN wz4_operators('corpus/wz4/*.wz4') AS t ON t.file = l.file AND t.page = l.page AND t.op = l.to_op
JOIN wz4_operators('corpus/wz4/*.wz4') AS f ON f.file = l.file AND f.page = l.from_page AND f.op = l.from_op
WHERE l.page = 0
GROUP BY l.file, l.to_op ORDER BY l.file, l.to_op LIMIT 20;

-- String parameters that mention a file (textures, meshes, music).
SELECT o.file, o.page, o.op, o.class, s.value AS path
FROM wz4_operators('corpus/wz4/*.wz4') AS o, json_each(o.strings) AS s
WHERE s.value GLOB '*.[a-zA-Z][a-zA-Z][a-zA-Z]';

-- Edits go through UPDATE inside a transaction; files are written at
-- COMMIT, and ROLLBACK leaves them untouched.  Moving an op rewires the
-- stack links (wz4_links is computed from the current positions):
BEGIN;
UPDATE wz4_operators SET bypass = 1 WHERE source = 'corpus/wz4/*.wz4' AND class = 'Blur';
UPDATE wz4_operators SET pos_x = pos_x + 100 WHERE source = 'corpus/wz4/*.wz4' AND page = 0 AND op = 0;
SELECT count(*) AS stack_links_now FROM wz4_links('corpus/wz4/*.wz4') WHERE kind = 'stack';
ROLLBACK;
SELECT count(*) AS stack_links_after_rollback FROM wz4_links('corpus/wz4/*.wz4') WHERE kind = 'stack';
