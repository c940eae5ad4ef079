-- The source argument and on_error, on the folder tree of fixtures/sources
-- (test/unit/fixtures.c; levels are copies of the WWD samples):
--   maps/A1.WWD maps/b2.wwd maps/notes.txt maps/.hidden.WWD
--   maps/sub.WWD/ (a folder named like a level), maps/.secret/f6.WWD
--   maps/Hard/e5.wwd maps/novice/C3.Wwd maps/novice/deep/d4.WWD
--   maps/novice/loop -> .. (a link up the tree)
--   odd/weird[1].WWD odd/brace{x}.WWD odd/<U+1F600>.WWD
--   mixed/good1.WWD mixed/good2.wwd mixed/cut.WWD (truncated) mixed/junk.WWD
--   tw/good.map tw/damaged.map (a layer's data cut) tw/old.map (pre-0.4)
-- The files a source gives are listed in scan order, joined with '|'.

-- `**` matches zero or more folders, at the start, the middle or the end,
-- never through hidden folders or links up the tree.
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/**/*.wwd', NULL));
-- expect: fixtures/sources/maps/A1.WWD|fixtures/sources/maps/Hard/e5.wwd|fixtures/sources/maps/b2.wwd|fixtures/sources/maps/novice/C3.Wwd|fixtures/sources/maps/novice/deep/d4.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/novice/**/*.WWD', NULL));
-- expect: fixtures/sources/maps/novice/C3.Wwd|fixtures/sources/maps/novice/deep/d4.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('**/d4.wwd', NULL));
-- expect: fixtures/sources/maps/novice/deep/d4.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/**/deep/*.wwd', NULL));
-- expect: fixtures/sources/maps/novice/deep/d4.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/**', NULL));
-- expect: fixtures/sources/maps/A1.WWD|fixtures/sources/maps/Hard/e5.wwd|fixtures/sources/maps/b2.wwd|fixtures/sources/maps/notes.txt|fixtures/sources/maps/novice/C3.Wwd|fixtures/sources/maps/novice/deep/d4.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/**/**/*.wwd', NULL));
-- expect: fixtures/sources/maps/A1.WWD|fixtures/sources/maps/Hard/e5.wwd|fixtures/sources/maps/b2.wwd|fixtures/sources/maps/novice/C3.Wwd|fixtures/sources/maps/novice/deep/d4.WWD
SELECT count(*) FROM wwd_levels('fixtures/sources/maps/**/*.wwd');
-- expect: 5
-- a link is followed where a segment names it, not by **
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/novice/loop/*.wwd', NULL));
-- expect: fixtures/sources/maps/novice/loop/A1.WWD|fixtures/sources/maps/novice/loop/b2.wwd

-- Names match in any case by default, in the folders too; nocase=0 is
-- exact; brackets fold case as well.
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/*.wwd', NULL));
-- expect: fixtures/sources/maps/A1.WWD|fixtures/sources/maps/b2.wwd
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/*.wwd', 'nocase=0'));
-- expect: fixtures/sources/maps/b2.wwd
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/*.WWD', 'nocase=0'));
-- expect: fixtures/sources/maps/A1.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/MAPS/NOVICE/*.WWD', NULL));
-- expect: fixtures/sources/maps/novice/C3.Wwd
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/[a-b]?.wwd', NULL));
-- expect: fixtures/sources/maps/A1.WWD|fixtures/sources/maps/b2.wwd
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/[!a]?.wwd', NULL));
-- expect: fixtures/sources/maps/b2.wwd
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/**/*.wwd', 'nocase=0'));
-- expect: fixtures/sources/maps/Hard/e5.wwd|fixtures/sources/maps/b2.wwd
SELECT * FROM levelsql_files('fixtures/sources/MAPS/*.WWD', 'nocase=0');
-- expect error: MAPS: no such folder
SELECT * FROM levelsql_files('fixtures/sources/maps/*', 'nocase=yes');
-- expect error: option nocase takes 1
-- expect error: not 'yes'
-- a named table keeps the option
CREATE VIRTUAL TABLE temp.exact USING wwd_levels('fixtures/sources/maps/**/*.wwd', nocase=0);
SELECT count(*) FROM temp.exact;
-- expect: 2
DROP TABLE temp.exact;

-- {a,b} groups, nested, repeated; braces without a group are literal.
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/{novice,hard}/*.wwd', NULL));
-- expect: fixtures/sources/maps/Hard/e5.wwd|fixtures/sources/maps/novice/C3.Wwd
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/{A1,b2,a1}.wwd', NULL));
-- expect: fixtures/sources/maps/A1.WWD|fixtures/sources/maps/b2.wwd
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/{novice/{deep/,},}*.wwd', NULL));
-- expect: fixtures/sources/maps/A1.WWD|fixtures/sources/maps/b2.wwd|fixtures/sources/maps/novice/C3.Wwd|fixtures/sources/maps/novice/deep/d4.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/odd/brace{x}.WWD', NULL));
-- expect: fixtures/sources/odd/brace{x}.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/odd/brace{*', NULL));
-- expect: fixtures/sources/odd/brace{x}.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/*{A1.WWD', NULL));
-- expect:
SELECT * FROM levelsql_files('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}');
-- expect error: more than 1024 patterns

-- A folder part that does not exist is an error naming it (an absolute
-- path: test_sources.c); no match in an existing folder is an empty table;
-- a real file with pattern characters in its name is still that file.
SELECT * FROM wwd_levels('mapz/*.wwd');
-- expect error: mapz: no such folder
-- expect error: 'mapz/*.wwd'
SELECT * FROM wwd_levels('fixtures/sources/maps/novise/*.wwd');
-- expect error: maps/novise: no such folder
SELECT * FROM wwd_levels('fixtures/sources/maps/novise/**/*.wwd');
-- expect error: maps/novise: no such folder
SELECT * FROM wwd_levels('fixtures/sources/{maps,mapz}/*.wwd');
-- expect error: mapz: no such folder
SELECT count(*) FROM wwd_levels('fixtures/sources/maps/*.xyz');
-- expect: 0
SELECT count(*) FROM wwd_levels('fixtures/sources/maps/*/nothing*.wwd');
-- expect: 0
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/odd/weird[1].WWD', NULL));
-- expect: fixtures/sources/odd/weird[1].WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/*', NULL));
-- expect: fixtures/sources/maps/A1.WWD|fixtures/sources/maps/b2.wwd|fixtures/sources/maps/notes.txt

-- Files and folders starting with a dot are matched only by a segment
-- starting with a dot, like a shell.
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/.*.wwd', NULL));
-- expect: fixtures/sources/maps/.hidden.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/.secret/*.wwd', NULL));
-- expect: fixtures/sources/maps/.secret/f6.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('fixtures/sources/maps/?hidden.wwd', NULL));
-- expect:

-- JSON arrays of paths and patterns: merged, sorted, without repeats;
-- escapes decoded; malformed arrays are errors that say so.
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('["fixtures/sources/maps/A1.WWD", "fixtures/sources/maps/novice/**/*.wwd"]', NULL));
-- expect: fixtures/sources/maps/A1.WWD|fixtures/sources/maps/novice/C3.Wwd|fixtures/sources/maps/novice/deep/d4.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('  [ "fixtures/sources/maps/*.WWD" ,
 "fixtures/sources/maps/A1.WWD" ] ', NULL));
-- expect: fixtures/sources/maps/A1.WWD|fixtures/sources/maps/b2.wwd
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('["fixtures/sources/maps\/b2.wwd", "fixtures/sources/maps/\u0048ard/*.wwd", "fixtures/sources/mixed"]', NULL));
-- expect: fixtures/sources/maps/Hard/e5.wwd|fixtures/sources/maps/b2.wwd|fixtures/sources/mixed/cut.WWD|fixtures/sources/mixed/good1.WWD|fixtures/sources/mixed/good2.wwd|fixtures/sources/mixed/junk.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('["fixtures/sources/odd/\ud83d\ude00.WWD"]', NULL));
-- expect: fixtures/sources/odd/😀.WWD
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('[]', NULL));
-- expect:
-- a pattern starting with a bracket is not an array
SELECT group_concat(file, '|') FROM (SELECT file FROM levelsql_files('[f]ixtures/sources/maps/*.wwd', NULL));
-- expect: fixtures/sources/maps/A1.WWD|fixtures/sources/maps/b2.wwd
SELECT count(*) FROM wwd_levels('["fixtures/sources/maps/A1.WWD", "fixtures/sources/maps/Hard"]');
-- expect: 2
SELECT * FROM levelsql_files('["maps/A1.WWD",]');
-- expect error: not a valid JSON array
-- expect error: element 2: not a string
SELECT * FROM levelsql_files('["maps/A1.WWD" "maps/b2.wwd"]');
-- expect error: not a valid JSON array
-- expect error: expected ',' or ']'
SELECT * FROM levelsql_files('["maps/A1.WWD", 3]');
-- expect error: byte offset 16
-- expect error: element 2: not a string
SELECT * FROM levelsql_files('["maps/A1.WWD"');
-- expect error: not a valid JSON array
SELECT * FROM levelsql_files('["maps/A1.WWD"] x');
-- expect error: text after the closing
SELECT * FROM levelsql_files('["\ud800x"]');
-- expect error: not a valid JSON array
-- expect error: surrogate
SELECT * FROM levelsql_files('["a\qb"]');
-- expect error: not a valid JSON array
-- expect error: unknown escape
SELECT * FROM levelsql_files('[""]');
-- expect error: not a valid JSON array
-- expect error: empty string
-- An empty source is a slip, not a file called "": every table says so.
SELECT count(*) FROM wwd_levels('');
-- expect error: the source is empty
SELECT count(*) FROM levelsql_files('');
-- expect error: the source is empty
SELECT * FROM levelsql_files('["mapz/*.wwd"]');
-- expect error: mapz: no such folder

-- on_error=skip: tables pass over files they cannot read; levelsql_files
-- still lists them with their error.
SELECT count(*) FROM wwd_levels('fixtures/sources/mixed');
-- expect error: mixed/cut.WWD
SELECT count(*) FROM wwd_levels('fixtures/sources/mixed', 'on_error=skip');
-- expect: 2
SELECT (SELECT count(*) FROM wwd_objects('fixtures/sources/mixed/*.wwd', 'on_error=skip')) = (SELECT count(*) FROM wwd_objects('fixtures/sources/mixed/good*.wwd'));
-- expect: 1
SELECT count(*) FROM levelsql_files('fixtures/sources/mixed', 'on_error=skip');
-- expect: 4
SELECT group_concat(file || ':' || ok, ' ') FROM levelsql_files('fixtures/sources/mixed', 'on_error=skip');
-- expect: fixtures/sources/mixed/cut.WWD:0 fixtures/sources/mixed/good1.WWD:1 fixtures/sources/mixed/good2.wwd:1 fixtures/sources/mixed/junk.WWD:0
SELECT count(*) FROM levelsql_files('fixtures/sources/mixed') WHERE NOT ok AND error LIKE '%byte offset%';
-- expect: 2
-- a named table with on_error=skip, and a join over it
CREATE VIRTUAL TABLE temp.lenient USING wwd_levels('fixtures/sources/mixed', on_error=skip);
SELECT count(*) FROM temp.lenient;
-- expect: 2
SELECT (SELECT count(*) FROM temp.lenient AS l JOIN wwd_planes(l.file) AS p) = (SELECT count(*) FROM wwd_planes('fixtures/sources/mixed/good*'));
-- expect: 1
DROP TABLE temp.lenient;
SELECT * FROM wwd_levels('fixtures/sources/mixed', 'on_error=ignore');
-- expect error: option on_error takes fail
-- expect error: not 'ignore'
SELECT * FROM wwd_levels('fixtures/sources/mixed', 'oops=1');
-- expect error: unknown option 'oops'
-- expect error: encoding, new_cells, nocase, on_error

-- levelsql_files.ok = 1 means every table of the format can read the file:
-- a map whose layer data is damaged parses but is not ok (tw_tiles cannot
-- read it); a pre-0.4 map is refused by every table with a clear error.
SELECT group_concat(file || ':' || ok, ' ') FROM levelsql_files('fixtures/sources/tw');
-- expect: fixtures/sources/tw/damaged.map:0 fixtures/sources/tw/good.map:1 fixtures/sources/tw/old.map:0
SELECT instr(error, 'layer') > 0 FROM levelsql_files('fixtures/sources/tw/damaged.map');
-- expect: 1
SELECT instr(error, 'pre-0.4 Teeworlds map') > 0 FROM levelsql_files('fixtures/sources/tw/old.map');
-- expect: 1
SELECT * FROM tw_maps('fixtures/sources/tw/old.map');
-- expect error: tw/old.map: map: a pre-0.4 Teeworlds map
SELECT * FROM tw_groups('fixtures/sources/tw/old.map');
-- expect error: tw/old.map: map: a pre-0.4 Teeworlds map
SELECT * FROM tw_layers('fixtures/sources/tw/old.map');
-- expect error: tw/old.map: map: a pre-0.4 Teeworlds map
SELECT * FROM tw_tiles('fixtures/sources/tw/old.map');
-- expect error: tw/old.map: map: a pre-0.4 Teeworlds map
SELECT * FROM tw_quads('fixtures/sources/tw/old.map');
-- expect error: tw/old.map: map: a pre-0.4 Teeworlds map
SELECT * FROM tw_images('fixtures/sources/tw/old.map');
-- expect error: tw/old.map: map: a pre-0.4 Teeworlds map
SELECT * FROM tw_envelopes('fixtures/sources/tw/old.map');
-- expect error: tw/old.map: map: a pre-0.4 Teeworlds map
SELECT * FROM tw_sounds('fixtures/sources/tw/old.map');
-- expect error: tw/old.map: map: a pre-0.4 Teeworlds map
-- what levelsql_files calls ok, every table reads
SELECT * FROM tw_maps('fixtures/sources/tw/good.map');
-- expect ok
SELECT * FROM tw_groups('fixtures/sources/tw/good.map');
-- expect ok
SELECT * FROM tw_layers('fixtures/sources/tw/good.map');
-- expect ok
SELECT * FROM tw_tiles('fixtures/sources/tw/good.map');
-- expect ok
SELECT * FROM tw_quads('fixtures/sources/tw/good.map');
-- expect ok
SELECT * FROM tw_images('fixtures/sources/tw/good.map');
-- expect ok
SELECT * FROM tw_envelopes('fixtures/sources/tw/good.map');
-- expect ok
SELECT * FROM tw_sounds('fixtures/sources/tw/good.map');
-- expect ok
-- the damaged map: its metadata still reads by default; its cells fail;
-- on_error=skip passes over it (and over the pre-0.4 map)
SELECT count(*) FROM tw_maps('fixtures/sources/tw/damaged.map');
-- expect: 1
SELECT sum(id) FROM tw_tiles('fixtures/sources/tw/damaged.map');
-- expect error: tw/damaged.map
-- expect error: layer
SELECT (SELECT count(*) FROM tw_tiles('fixtures/sources/tw', 'on_error=skip')) = (SELECT count(*) FROM tw_tiles('fixtures/sources/tw/good.map'));
-- expect: 1
SELECT count(*) FROM tw_maps('fixtures/sources/tw', 'on_error=skip');
-- expect: 1
