-- requires: corpus
-- The werkkzeug4 tables on a private copy of the real corpus (corpus/wz4:
-- teaser1.wz4, teaser2.wz4, fr-062_texts_kb.wz4): counts agree across
-- tables, push-down gives the same rows as a plain filter, the JSON columns
-- are JSON, edits read back and wz4_links follows them.
SELECT 'levelsql_files: three wz4 files', count(*) = 3 AND min(ok) = 1 AND min(format = 'wz4') FROM levelsql_files('corpus/wz4');
SELECT 'pages', count(*) = 7 FROM wz4_pages('corpus/wz4');
SELECT 'operators', count(*) = 557 FROM wz4_operators('corpus/wz4');
SELECT 'num_ops agrees with wz4_operators', (SELECT sum(num_ops) FROM wz4_pages('corpus/wz4')) = (SELECT count(*) FROM wz4_operators('corpus/wz4'));
SELECT 'operators per file', group_concat(n) = '37,239,281'
  FROM (SELECT file, count(*) AS n FROM wz4_operators('corpus/wz4') GROUP BY file ORDER BY file);
SELECT 'no tree pages in real files', count(*) = 0 FROM wz4_pages('corpus/wz4') WHERE is_tree OR num_stacked <> num_ops;
SELECT 'stack links', count(*) = 510 FROM wz4_links('corpus/wz4') WHERE kind = 'stack';
SELECT 'name links', count(*) = 53 FROM wz4_links('corpus/wz4') WHERE kind = 'name';
SELECT 'name links across pages', count(*) = 42 FROM wz4_links('corpus/wz4') WHERE kind = 'name' AND from_page <> page;
SELECT 'one dangling name link', count(*) = 1 AND min(link_name) = 'easterlogo_norn_512' AND min(from_page IS NULL)
  FROM wz4_links('corpus/wz4') WHERE kind = 'name' AND from_op IS NULL;
SELECT 'stack links join the ops above', count(*) = 0 FROM wz4_links('corpus/wz4') l
  JOIN wz4_operators('corpus/wz4') a ON a.file = l.file AND a.page = l.page AND a.op = l.from_op
  JOIN wz4_operators('corpus/wz4') b ON b.file = l.file AND b.page = l.page AND b.op = l.to_op
  WHERE l.kind = 'stack' AND NOT (a.pos_y + a.height = b.pos_y AND a.pos_x < b.pos_x + b.width AND b.pos_x < a.pos_x + a.width);
SELECT 'name links name their target', count(*) = 0 FROM wz4_links('corpus/wz4') l
  JOIN wz4_operators('corpus/wz4') a ON a.file = l.file AND a.page = l.from_page AND a.op = l.from_op
  WHERE l.kind = 'name' AND a.name <> l.link_name;
SELECT 'JSON columns are JSON', min(json_valid(params) AND json_valid(strings) AND json_valid(links)) = 1 FROM wz4_operators('corpus/wz4');
SELECT 'named link slots = name links',
  (SELECT count(*) FROM wz4_operators('corpus/wz4'), json_each(links) WHERE json_extract(value, '$.name') <> '') =
  (SELECT count(*) FROM wz4_links('corpus/wz4') WHERE kind = 'name');
SELECT 'a Store op is named', count(*) > 0 AND min(name <> '') = 1 FROM wz4_operators('corpus/wz4') WHERE class = 'Store';
SELECT 'params are unsigned words', min(value) >= 0 AND max(value) <= 4294967295
  FROM wz4_operators('corpus/wz4'), json_each(params);
SELECT 'page push-down = plain filter',
  (SELECT count(*) FROM wz4_operators('corpus/wz4') WHERE page = 1) = (SELECT count(*) FROM wz4_operators('corpus/wz4') WHERE +page = 1);
SELECT 'op range push-down = plain filter',
  (SELECT count(*) FROM wz4_operators('corpus/wz4') WHERE op BETWEEN 10 AND 20 AND page < 2) =
  (SELECT count(*) FROM wz4_operators('corpus/wz4') WHERE +op BETWEEN 10 AND 20 AND +page < 2);
SELECT 'link page push-down = plain filter',
  (SELECT count(*) FROM wz4_links('corpus/wz4') WHERE page >= 1) = (SELECT count(*) FROM wz4_links('corpus/wz4') WHERE +page >= 1);
SELECT 'file push-down', count(*) = 37 FROM wz4_operators('corpus/wz4') WHERE file = 'corpus/wz4/fr-062_texts_kb.wz4';
SELECT 'rowid lookup',
  (SELECT class FROM wz4_operators('corpus/wz4') WHERE rowid = (SELECT rowid FROM wz4_operators('corpus/wz4') WHERE file = 'corpus/wz4/teaser2.wz4' AND page = 2 AND op = 5)) =
  (SELECT class FROM wz4_operators('corpus/wz4') WHERE file = 'corpus/wz4/teaser2.wz4' AND page = 2 AND op = 5);
SELECT 'link rowids are distinct', count(DISTINCT rowid) = count(*) FROM wz4_links('corpus/wz4');

-- edits: rename, move, bypass, params, strings
CREATE TEMP TABLE before AS
  SELECT l.page, l.from_op, l.to_op FROM wz4_links('corpus/wz4/teaser1.wz4') l WHERE kind = 'stack' ORDER BY page, to_op LIMIT 1;
UPDATE wz4_operators SET pos_x = pos_x + 500
  WHERE source = 'corpus/wz4/teaser1.wz4' AND page = (SELECT page FROM before) AND op = (SELECT from_op FROM before);
SELECT 'a move removes the stack link', count(*) = 0 FROM wz4_links('corpus/wz4/teaser1.wz4') l, before b
  WHERE l.page = b.page AND l.kind = 'stack' AND l.from_op = b.from_op AND l.to_op = b.to_op;
UPDATE wz4_operators SET pos_x = pos_x - 500
  WHERE source = 'corpus/wz4/teaser1.wz4' AND page = (SELECT page FROM before) AND op = (SELECT from_op FROM before);
SELECT 'moving it back restores it', count(*) = 1 FROM wz4_links('corpus/wz4/teaser1.wz4') l, before b
  WHERE l.page = b.page AND l.kind = 'stack' AND l.from_op = b.from_op AND l.to_op = b.to_op;
UPDATE wz4_operators SET name = 'renamed', bypass = 1, params = json_array(1, -1, 7), strings = '["ä\"b"]'
  WHERE source = 'corpus/wz4/teaser1.wz4' AND page = 0 AND op = 2;
-- drop the parsed files, so that the next reads parse the written file
SELECT levelsql_cache_limit(0);
-- expect ok
SELECT 'edit re-read', name = 'renamed' AND bypass = 1 AND params = '[1,4294967295,7]' AND json_extract(strings, '$[0]') = 'ä"b'
  FROM wz4_operators('corpus/wz4/teaser1.wz4') WHERE page = 0 AND op = 2;
SELECT 'bypassed ops', count(*) = 1 FROM wz4_operators('corpus/wz4') WHERE bypass;
-- renaming a link target leaves its name links dangling
UPDATE wz4_operators SET name = 'nobody' WHERE source = 'corpus/wz4/teaser1.wz4' AND name = 'text1';
SELECT 'renamed target: dangling links', count(*) >= 1 AND min(from_op IS NULL) = 1
  FROM wz4_links('corpus/wz4/teaser1.wz4') WHERE link_name = 'text1';
SELECT 'the other files are untouched', count(*) = 0 FROM wz4_operators('corpus/wz4') WHERE file <> 'corpus/wz4/teaser1.wz4' AND (bypass OR name IN ('renamed', 'nobody'));
