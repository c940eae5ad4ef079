-- The werkkzeug4 tables on a constructed two-page project (wz4_sample.h:
-- byte by byte, from ../shared/formats/wz4.md, with a lone UTF-16 surrogate
-- in a name and a string parameter; fixtures/wz4/built.wz4): counts, the
-- graph (stack edges, a name link to another page, a dangling name),
-- push-down, rowid lookups, value errors naming the column and the limit,
-- and wz4_links following moves, hides and renames, read back in a new
-- connection; then tree ops and WTF-8 names (fixtures/wz4/tree.wz4).  The
-- no-op rewrite (a new inode, the same bytes) and the corpus are in
-- test/unit/test_wz4_sql.c.
-- An edge from (from_page, from_op) to to_op on a page is counted as
-- SELECT count(*) FROM wz4_links(...) WHERE page = .. AND kind = .. AND
-- from_page = .. AND from_op = .. AND to_op = ..

SELECT count(*) FROM levelsql_files('fixtures/wz4/built.wz4') WHERE format = 'wz4' AND ok;
-- expect: 1
SELECT count(*) FROM wz4_pages('fixtures/wz4/built.wz4');
-- expect: 2
SELECT group_concat(page || ':' || name || ':' || num_ops || ':' || num_stacked || ':' || is_tree || ':' || scroll_x || ':' || scroll_y || ':' || write_protect, ' ') FROM wz4_pages('fixtures/wz4/built.wz4');
-- expect: 0:gen:4:4:0:7:8:0 1:use:2:2:0:0:0:1
SELECT count(*) FROM wz4_operators('fixtures/wz4/built.wz4');
-- expect: 6
SELECT group_concat(page || '/' || op || ':' || class || ':' || output_type || ':' || pos_x || ',' || pos_y || ',' || width || ',' || height || ':' || bypass || hide, ' ') FROM wz4_operators('fixtures/wz4/built.wz4') WHERE page = 0 AND op < 3;
-- expect: 0/0:Flat:GenBitmap:0,0,3,1:00 0/1:Blur:GenBitmap:0,1,3,1:00 0/2:Store:GenBitmap:0,2,3,1:00
-- the JSON columns
SELECT params || strings || links || '|' || script FROM wz4_operators('fixtures/wz4/built.wz4') WHERE page = 1 AND op = 0;
-- expect: [2056,4278190080]["farbrausch"][{"name":"tex","select":0}]|
-- params words are unsigned
SELECT json_extract(params, '$[1]') FROM wz4_operators('fixtures/wz4/built.wz4') WHERE page = 0 AND op = 0;
-- expect: 4278190080
-- the lone surrogate: its WTF-8 bytes in text, a \ud800 escape in JSON
SELECT hex(name) FROM wz4_operators('fixtures/wz4/built.wz4') WHERE page = 0 AND op = 3;
-- expect: EDA08078
SELECT lower(strings) FROM wz4_operators('fixtures/wz4/built.wz4') WHERE page = 0 AND op = 3;
-- expect: ["\ud800x"]
SELECT min(json_valid(params) AND json_valid(strings) AND json_valid(links)) FROM wz4_operators('fixtures/wz4/built.wz4');
-- expect: 1

-- The graph: five edges; the stack edges of page 0 and page 1, a name link
-- to another page (with from_page), a dangling name link (from_op and
-- from_page NULL).
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4');
-- expect: 5
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 0 AND kind = 'stack' AND from_page = 0 AND from_op = 0 AND to_op = 1;
-- expect: 1
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 0 AND kind = 'stack' AND from_page = 0 AND from_op = 1 AND to_op = 2;
-- expect: 1
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 1 AND kind = 'stack' AND from_page = 1 AND from_op = 0 AND to_op = 1;
-- expect: 1
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 1 AND kind = 'name' AND from_page = 0 AND from_op = 2 AND to_op = 0;
-- expect: 1
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 1 AND kind = 'name' AND from_op IS NULL AND from_page IS NULL AND to_op = 1;
-- expect: 1
SELECT group_concat(coalesce(link_name, '-') || slot, ',') FROM wz4_links('fixtures/wz4/built.wz4') WHERE kind = 'name';
-- expect: tex0,nowhere0
-- stack edges have no name or slot
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE kind = 'stack' AND (link_name IS NOT NULL OR slot IS NOT NULL);
-- expect: 0

-- Push-down and rowids.
SELECT count(*) FROM wz4_operators('fixtures/wz4/built.wz4') WHERE page = 0 AND op BETWEEN 1 AND 2;
-- expect: 2
SELECT count(*) FROM wz4_operators('fixtures/wz4/built.wz4') WHERE op >= 3;
-- expect: 1
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page > 0;
-- expect: 3
SELECT count(*) FROM wz4_pages('fixtures/wz4/built.wz4') WHERE page < 1;
-- expect: 1
SELECT op FROM wz4_operators('fixtures/wz4/built.wz4') WHERE rowid = (SELECT rowid FROM wz4_operators('fixtures/wz4/built.wz4') WHERE page = 1 AND op = 1);
-- expect: 1
SELECT page FROM wz4_operators('fixtures/wz4/built.wz4') WHERE rowid = (SELECT rowid FROM wz4_operators('fixtures/wz4/built.wz4') WHERE page = 1 AND op = 1);
-- expect: 1
SELECT link_name FROM wz4_links('fixtures/wz4/built.wz4') WHERE rowid = (SELECT rowid FROM wz4_links('fixtures/wz4/built.wz4') WHERE link_name = 'nowhere');
-- expect: nowhere
SELECT count(DISTINCT rowid) FROM wz4_links('fixtures/wz4/built.wz4');
-- expect: 5

-- Value errors name the column and the limit, and change nothing: no file
-- written, the same bytes.
CREATE TEMP TABLE before AS SELECT readfile('fixtures/wz4/built.wz4') AS bytes, levelsql_cache_stats() ->> 'writes' AS writes;
UPDATE wz4_operators SET pos_x = 3000000000 WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column pos_x
-- expect error: 2147483647
UPDATE wz4_operators SET pos_y = 'up' WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column pos_y
-- expect error: not an integer
UPDATE wz4_operators SET width = 0 WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column width
-- expect error: from 1 to
UPDATE wz4_operators SET bypass = 2 WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column bypass
-- expect error: from 0 to 1
UPDATE wz4_operators SET params = '[1, 2.5]' WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column params
-- expect error: element 1
UPDATE wz4_operators SET params = '[4294967296]' WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column params
-- expect error: 4294967295
UPDATE wz4_operators SET params = '["a"]' WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column params
-- expect error: integer
UPDATE wz4_operators SET params = 7 WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column params
-- expect error: JSON array
UPDATE wz4_operators SET params = NULL WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column params
-- expect error: JSON array
UPDATE wz4_operators SET strings = '[1]' WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column strings
-- expect error: element 0
UPDATE wz4_operators SET strings = '["a"' WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column strings
-- expect error: JSON array of strings
UPDATE wz4_operators SET strings = x'00' WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column strings
-- expect error: JSON array of strings
UPDATE wz4_operators SET name = x'ff' WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column name
-- expect error: UTF-8
UPDATE wz4_operators SET name = NULL WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column name
-- expect error: text
UPDATE wz4_operators SET class = 'Blur' WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: column class
-- expect error: read-only
UPDATE wz4_operators SET links = '[{"name":1,"select":0}]' WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
-- expect error: links: element 0 has a name that is not a valid JSON string
UPDATE wz4_links SET from_op = 3 WHERE source = 'fixtures/wz4/built.wz4';
-- expect error: column from_op
-- expect error: read-only
UPDATE wz4_pages SET scroll_x = 3 WHERE source = 'fixtures/wz4/built.wz4';
-- expect error: column scroll_x
-- expect error: read-only
DELETE FROM wz4_links WHERE source = 'fixtures/wz4/built.wz4';
-- expect error: cannot be deleted
INSERT INTO wz4_links(file, page) VALUES ('fixtures/wz4/built.wz4', 0);
-- expect error: cannot be inserted
INSERT INTO wz4_operators(file, page) VALUES ('fixtures/wz4/built.wz4', 0);
-- expect error: a new op needs a class and an output type
UPDATE wz4_operators SET pos_x = 1, params = '[x]' WHERE source = 'fixtures/wz4/built.wz4' AND page = 0;
-- expect error: op 0 of page 0: column params
SELECT readfile('fixtures/wz4/built.wz4') = bytes, (levelsql_cache_stats() ->> 'writes') = writes FROM before;
-- expect: 1|1

-- The graph follows edits in the same connection (inside a transaction):
-- moving op 0 away removes its stack link, moving op 3 on top of op 1 adds
-- one, a hidden op feeds nothing, renaming the target leaves the name link
-- dangling, and it finds a new op of that name.
BEGIN;
UPDATE wz4_operators SET pos_x = 20 WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 0 AND kind = 'stack' AND from_page = 0 AND from_op = 0 AND to_op = 1;
-- expect: 0
UPDATE wz4_operators SET pos_x = 1 WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 3;
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 0 AND kind = 'stack' AND from_page = 0 AND from_op = 3 AND to_op = 1;
-- expect: 1
UPDATE wz4_operators SET hide = 1 WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 1;
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 0 AND kind = 'stack' AND from_page = 0 AND from_op = 1 AND to_op = 2;
-- expect: 0
UPDATE wz4_operators SET hide = 0 WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 1;
UPDATE wz4_operators SET name = 'tex2' WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 2;
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 1 AND kind = 'name' AND from_op IS NULL AND from_page IS NULL AND to_op = 0;
-- expect: 1
UPDATE wz4_operators SET name = 'tex' WHERE source = 'fixtures/wz4/built.wz4' AND page = 1 AND op = 1;
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 1 AND kind = 'name' AND from_page = 1 AND from_op = 1 AND to_op = 0;
-- expect: 1
UPDATE wz4_operators SET bypass = 1 - bypass, params = '[-1,7]', strings = '["a\"b","\ud800"]' WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 1;
COMMIT;

-- A new connection parses the written file (op 3's name: the hex of its
-- WTF-8 bytes).
.open :memory:
SELECT group_concat(op || ':' || pos_x || ',' || pos_y || ':' || bypass || hide || ':' || CASE WHEN op = 3 THEN hex(name) ELSE name END, ' ') FROM wz4_operators('fixtures/wz4/built.wz4') WHERE page = 0;
-- expect: 0:20,0:00: 1:0,1:10: 2:0,2:00:tex2 3:1,0:00:EDA08078
SELECT params || lower(strings) FROM wz4_operators('fixtures/wz4/built.wz4') WHERE page = 0 AND op = 1;
-- expect: [4294967295,7]["a\"b","\ud800"]
SELECT name FROM wz4_operators('fixtures/wz4/built.wz4') WHERE page = 1 AND op = 1;
-- expect: tex
-- the graph of the written file follows the moves and the renames
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 0 AND kind = 'stack' AND from_page = 0 AND from_op = 0 AND to_op = 1;
-- expect: 0
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 0 AND kind = 'stack' AND from_page = 0 AND from_op = 3 AND to_op = 1;
-- expect: 1
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 0 AND kind = 'stack' AND from_page = 0 AND from_op = 1 AND to_op = 2;
-- expect: 1
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 1 AND kind = 'name' AND from_page = 1 AND from_op = 1 AND to_op = 0;
-- expect: 1
-- moving op 0 back over op 1 restores the link
UPDATE wz4_operators SET pos_x = 2 WHERE source = 'fixtures/wz4/built.wz4' AND page = 0 AND op = 0;
SELECT count(*) FROM wz4_links('fixtures/wz4/built.wz4') WHERE page = 0 AND kind = 'stack' AND from_page = 0 AND from_op = 0 AND to_op = 1;
-- expect: 1

-- Tree ops, on a new connection (fixtures/wz4/tree.wz4: the project with op 1 of page 1 made a
-- tree op by the codec) have no grid fields: they read NULL and refuse
-- writes in the table's words.  And the name column's WTF-8 text kind
-- (LS_WTF8): text of WTF-8 bytes (CAST of a blob) is taken, a number or a
-- blob is refused (as by every text column of every format).
.open :memory:
SELECT count(*) FROM levelsql_files('fixtures/wz4/tree.wz4') WHERE format = 'wz4' AND ok;
-- expect: 1
SELECT group_concat(op || ':' || coalesce(pos_x, 'n') || coalesce(width, 'n') || coalesce(hide, 'n'), ' ') FROM wz4_operators('fixtures/wz4/tree.wz4') WHERE page = 1;
-- expect: 0:030 1:nnn
UPDATE wz4_operators SET pos_x = 3 WHERE source = 'fixtures/wz4/tree.wz4' AND page = 1 AND op = 1;
-- expect error: op 1 of page 1: column pos_x: a tree op has no grid position, size or flags
UPDATE wz4_operators SET hide = 1 WHERE source = 'fixtures/wz4/tree.wz4' AND page = 1 AND op = 1;
-- expect error: column hide: a tree op has no
UPDATE wz4_operators SET hide = NULL, pos_x = NULL WHERE source = 'fixtures/wz4/tree.wz4' AND page = 1 AND op = 1;
-- expect ok
UPDATE wz4_operators SET name = x'7472eda080' WHERE source = 'fixtures/wz4/tree.wz4' AND page = 1;
-- expect error: column name: a blob; it takes UTF-8 text (or WTF-8 for lone surrogates: CAST(x'...' AS TEXT))
UPDATE wz4_operators SET name = CAST(x'7472eda080' AS TEXT) WHERE source = 'fixtures/wz4/tree.wz4' AND page = 1;
-- the name with a lone surrogate, as its 5 WTF-8 bytes
SELECT hex(name) FROM wz4_operators('fixtures/wz4/tree.wz4') WHERE page = 1 AND op = 1;
-- expect: 7472EDA080
-- ... on the stacked op too
SELECT count(*) FROM wz4_operators('fixtures/wz4/tree.wz4') WHERE page = 1 AND op = 0 AND name = CAST(x'7472eda080' AS TEXT);
-- expect: 1
UPDATE wz4_operators SET name = 5 WHERE source = 'fixtures/wz4/tree.wz4' AND page = 1 AND op = 1;
-- expect error: column name: a number
-- expect error: UTF-8 text
UPDATE wz4_operators SET name = CAST(x'eda080edb080' AS TEXT) WHERE source = 'fixtures/wz4/tree.wz4' AND page = 1 AND op = 1;
-- expect error: column name: not UTF-8 (or WTF-8) at byte 3

-- An INSERT goes after the last stacked op, before the tree ops (stored
-- apart in the file); DELETE of a tree op; read back on a new connection.
INSERT INTO wz4_operators(file, page, class, output_type, pos_x, pos_y) VALUES ('fixtures/wz4/tree.wz4', 1, 'Blur', 'GenBitmap', 7, 7);
SELECT group_concat(op || ':' || class || ':' || coalesce(pos_x, 'n'), ' ') FROM wz4_operators('fixtures/wz4/tree.wz4') WHERE page = 1;
-- expect: 0:Load:0 1:Blur:7 2:Load:n
DELETE FROM wz4_operators WHERE source = 'fixtures/wz4/tree.wz4' AND page = 1 AND pos_x IS NULL;
.open :memory:
SELECT group_concat(op || ':' || class || ':' || coalesce(pos_x, 'n'), ' '), min(p.num_ops), min(p.num_stacked) FROM wz4_operators('fixtures/wz4/tree.wz4') o
  JOIN wz4_pages('fixtures/wz4/tree.wz4') p USING (page) WHERE page = 1;
-- expect: 0:Load:0 1:Blur:7|2|2
