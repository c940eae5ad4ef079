-- levelsql_atlas (README, "The atlas of a collection") over copies of the
-- samples in three folders, a damaged level and a text file among them:
-- with 2 threads and with none the atlas is the same, byte for byte; again
-- over the same folder nothing is drawn; its errors.  `make tsan` runs this
-- file under ThreadSanitizer: the atlas's threads draw side by side.
-- (writefile makes the folders)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3),
     f(name) AS (VALUES ('SAMPLE01.WWD'), ('SAMPLE02.WWD'), ('SAMPLE03.WWD'), ('dm_sample.map'), ('ddrace_sample.map'),
                        ('v07_sample.map'), ('AR0100.WED'), ('AR0100.ARE'), ('AR0100.TIS'), ('A010000.PVRZ'),
                        ('A010001.PVRZ'), ('A010002.PVRZ'), ('AR0200.WED'), ('AR0200.TIS'), ('intro.wz4'), ('logo.wz4'))
SELECT count(writefile(printf('coll/set%d/%s', i, name), readfile('samples/' || name))) FROM n, f;
-- expect: 48
SELECT writefile('coll/set2/cut.WWD', readfile('fixtures/sources/mixed/cut.WWD')) > 0,
       writefile('coll/set3/notes.txt', 'not a level') > 0;
-- expect: 1|1
SELECT writefile('out/keep.txt', 'mine') > 0;
-- expect: 1

SELECT levelsql_threads(2);
-- expect ok
SELECT json_extract(r, '$.levels'), json_extract(r, '$.unreadable'), json_extract(r, '$.other'), json_extract(r, '$.drawn'),
       json_extract(r, '$.threads')
  FROM (SELECT levelsql_atlas('coll/**', 'atlas2') AS r);
-- expect: 30|1|16|47|2
SELECT levelsql_threads(0);
-- expect ok
SELECT json_extract(r, '$.levels'), json_extract(r, '$.drawn'), json_extract(r, '$.threads')
  FROM (SELECT levelsql_atlas('coll/**', 'atlas0') AS r);
-- expect: 30|47|0
SELECT 'the threads write what one thread writes', readfile('atlas2/index.html') = readfile('atlas0/index.html')
  AND readfile('atlas2/manifest.json') = readfile('atlas0/manifest.json');
SELECT 'a card per level', (length(h) - length(replace(h, 'class="card"', ''))) / length('class="card"') = 30
  FROM (SELECT CAST(readfile('atlas2/index.html') AS TEXT) AS h);
SELECT 'the ARE beside its WED is on its card', instr(h, '>AR0100.ARE<') = 0 AND instr(h, 'data-n-actors="2"') > 0
  FROM (SELECT CAST(readfile('atlas2/index.html') AS TEXT) AS h);
SELECT 'the damaged level is unreadable, with its error', instr(substr(h, instr(h, 'id="unreadable"')), 'cut.WWD') > 0
  FROM (SELECT CAST(readfile('atlas2/index.html') AS TEXT) AS h);
SELECT levelsql_threads(2);
-- expect ok
SELECT json_extract(r, '$.levels'), json_extract(r, '$.drawn'), json_extract(r, '$.kept')
  FROM (SELECT levelsql_atlas('coll/**', 'atlas2') AS r);
-- expect: 30|0|47

-- errors
SELECT levelsql_atlas('coll/**', 'out');
-- expect error: levelsql_atlas: out holds files but no manifest.json
SELECT levelsql_atlas('coll/**', 'atlas2', 'thumb=9');
-- expect error: option thumb takes an integer from 64 to 1024
SELECT levelsql_atlas('coll/**', 'atlas2', 'tilesets=coll/none');
-- expect error: option tilesets: 'coll/none' is not a folder
SELECT levelsql_atlas('nowhere/*.map', 'atlas2');
-- expect error: nowhere
SELECT levelsql_atlas('coll', 'no/such/folder');
-- expect error: no/such/folder: cannot make the folder
SELECT levelsql_atlas(NULL, 'atlas2');
-- expect error: takes a source
