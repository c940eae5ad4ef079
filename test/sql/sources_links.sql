-- One entry per file, and file names that are not UTF-8 (issue 24, items
-- 2b and 5d; README, "The source argument").
--
-- A file reached by several paths (a symbolic link beside its target, a
-- hard link, "./A.WWD" beside "A.WWD" in a JSON array) is one entry, under
-- the first of its paths in byte order, so a folder-wide UPDATE changes it
-- once (it used to fail with "column file of wwd_objects is read-only", the
-- second path's rows carrying the first one's `file`).
.shell mkdir -p links hard && cp samples/SAMPLE01.WWD links/A.WWD && ln -s A.WWD links/L.WWD && cp samples/SAMPLE01.WWD hard/A.WWD && ln hard/A.WWD hard/H.WWD
SELECT file FROM levelsql_files('links');
-- expect: links/A.WWD
SELECT file FROM levelsql_files('links/*.WWD');
-- expect: links/A.WWD
SELECT file FROM levelsql_files('["links/L.WWD", "links/*.WWD"]');
-- expect: links/A.WWD
SELECT file FROM levelsql_files('hard');
-- expect: hard/A.WWD
SELECT file FROM levelsql_files('["hard/H.WWD", "links/L.WWD", "links/A.WWD"]');
-- expect: hard/H.WWD
-- expect: links/A.WWD
SELECT file FROM levelsql_files('["links/A.WWD", "./links/A.WWD"]');
-- expect: ./links/A.WWD
SELECT file FROM levelsql_files('["links/A.WWD", "links//A.WWD", "links/./A.WWD"]');
-- expect: links/./A.WWD
SELECT count(*) = (SELECT count(*) FROM wwd_objects('samples/SAMPLE01.WWD')) FROM wwd_objects('links');
-- expect: 1
SELECT score FROM wwd_objects('links/A.WWD') WHERE id = 2;
-- expect: 5000
UPDATE wwd_objects SET score = score + 1 WHERE source = 'links';
-- expect ok
UPDATE wwd_objects SET score = score + 1 WHERE source = '["links/A.WWD", "./links/A.WWD"]' AND id = 2;
-- expect ok
.open :memory:
SELECT score FROM wwd_objects('links/L.WWD') WHERE id = 2;
-- expect: 5002
SELECT sum(score) - (SELECT sum(score) FROM wwd_objects('samples/SAMPLE01.WWD')) - count(*) FROM wwd_objects('links/A.WWD');
-- expect: 1
-- two different files with equal bytes are two entries
.shell cp samples/SAMPLE01.WWD links/B.WWD
SELECT group_concat(file, ' ') FROM levelsql_files('links');
-- expect: links/A.WWD links/B.WWD

-- A file name that is not UTF-8 (byte 0xFF): `file` is a BLOB of the
-- path's bytes (it used to be invalid TEXT, which Python cannot read),
-- `file = <that blob>` finds it, and writes through it work.
SELECT writefile('mkname.sh', 'mkdir -p names && cp samples/SAMPLE01.WWD names/A.WWD && cp samples/SAMPLE02.WWD "names/$(printf ''\377'').WWD"');
-- expect ok
.shell sh mkname.sh
SELECT typeof(file), hex(file) FROM levelsql_files('names') ORDER BY file;
-- expect: text|6E616D65732F412E575744
-- expect: blob|6E616D65732FFF2E575744
SELECT typeof(file), count(*) = (SELECT count(*) FROM wwd_objects('samples/SAMPLE02.WWD')) FROM wwd_objects('names/*.WWD') WHERE file = x'6E616D65732FFF2E575744';
-- expect: blob|1
SELECT count(*) FROM wwd_objects('names') WHERE file = 'names/A.WWD';
-- expect: 320
UPDATE wwd_objects SET score = 4321 WHERE source = 'names' AND file = x'6E616D65732FFF2E575744' AND id = 2;
-- expect ok
UPDATE wwd_objects SET score = score + 1 WHERE source = 'names' AND id = 2;
-- expect ok
.open :memory:
SELECT typeof(file), score FROM wwd_objects('names') WHERE id = 2 ORDER BY file;
-- expect: text|5001
-- expect: blob|4322
-- Python reads the whole result (it used to fail: "Could not decode to
-- UTF-8 column 'file'"), the name as bytes.
SELECT writefile('check.py', 'import os, sqlite3
c = sqlite3.connect(":memory:")
c.enable_load_extension(True)
c.load_extension(os.environ["LEVELSQL_EXT"])
rows = c.execute("SELECT * FROM wwd_objects(''names'')").fetchall()
names = sorted(set(r[0] if isinstance(r[0], bytes) else r[0].encode() for r in rows))
kinds = sorted(set(type(r[0]).__name__ for r in rows))
print("rows", len(rows), "names", names, "types", kinds)
');
-- expect ok
-- (under `make asan` the extension needs the ASan runtime first in Python)
.shell if [ "${LEVELSQL_SANITIZED:-0}" = 1 ]; then LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 /usr/bin/python3 check.py; else /usr/bin/python3 check.py; fi >check.txt 2>&1
SELECT rtrim(CAST(readfile('check.txt') AS TEXT), char(10));
-- expect: rows 771 names [b'names/A.WWD', b'names/\xff.WWD'] types ['bytes', 'str']
