-- requires: corpus
-- The ARE tables on the private copy of the real corpus (corpus/are: 62
-- areas of a BG2 mod, with their WED files in corpus/wed): every file
-- loads, the counts agree with codecs/are/NOTES-are.md and across tables,
-- the joins the cookbook makes hold, a no-op rewrite and an INSERT undone
-- by a DELETE leave every byte, edits read back.  Every field against the
-- raw bytes: test/unit/test_are_sql.c.
CREATE TEMP TABLE orig AS SELECT name, data FROM fsdir('corpus/are') WHERE name GLOB '*.are';
SELECT 'levelsql_files: 62 ARE areas, all ok', count(*) = 62 AND min(ok) = 1 AND min(format = 'are') FROM levelsql_files('corpus/are');

-- counts (NOTES-are.md)
SELECT (SELECT count(*) FROM are_actors('corpus/are')) || ' ' || (SELECT count(*) FROM are_regions('corpus/are')) || ' ' ||
  (SELECT count(*) FROM are_entrances('corpus/are')) || ' ' || (SELECT count(*) FROM are_containers('corpus/are')) || ' ' ||
  (SELECT count(*) FROM are_items('corpus/are')) || ' ' || (SELECT count(*) FROM are_ambients('corpus/are')) || ' ' ||
  (SELECT count(*) FROM are_doors('corpus/are')) || ' ' || (SELECT count(*) FROM are_animations('corpus/are'));
-- expect: 106 184 125 69 86 151 78 479
SELECT 'no spawn points, variables, notes, projectile traps or tiled objects', (SELECT count(*) FROM are_spawns('corpus/are')) + (SELECT count(*) FROM are_variables('corpus/are'))
  + (SELECT count(*) FROM are_notes('corpus/are')) + (SELECT count(*) FROM are_traps('corpus/are')) + (SELECT count(*) FROM are_tiled_objects('corpus/are')) = 0;
SELECT type, count(*) FROM are_regions('corpus/are') GROUP BY type ORDER BY type;
-- expect: info|21
-- expect: trap|36
-- expect: travel|127
SELECT sum(has_songs), sum(has_rest), count(explored) FROM are_areas('corpus/are');
-- expect: 43|31|0
SELECT 'containers of bit 6 (unnamed by IESDP)', count(*) = 7 AND min(are_flag_names('container', flags) LIKE '%bit6%') FROM are_containers('corpus/are') WHERE flags & 64;
SELECT 'container types in IESDP''s range', count(*) = 0 FROM are_containers('corpus/are') WHERE typeof(type) <> 'text';

-- the tables agree with each other
SELECT 'items: the containers'' counts add up', (SELECT sum(item_count) FROM are_containers('corpus/are')) = (SELECT count(*) FROM are_items('corpus/are'));
SELECT 'every item sits in the container whose run holds it', count(*) = 0 FROM are_items('corpus/are') AS i JOIN are_containers('corpus/are') AS c
  ON c.file = i.file AND c.container = i.container WHERE i.item <> c.first_item + i.slot;
SELECT 'vertices have vertex_count pairs', (SELECT count(*) FROM are_regions('corpus/are') WHERE json_array_length(vertices) <> vertex_count)
  + (SELECT count(*) FROM are_containers('corpus/are') WHERE json_array_length(vertices) <> vertex_count) = 0;
SELECT 'door runs have their counts', count(*) = 0 FROM are_doors('corpus/are') WHERE json_array_length(open_vertices) <> open_vertex_count
  OR json_array_length(closed_vertices) <> closed_vertex_count OR json_array_length(open_impeded) <> open_impeded_count OR json_array_length(closed_impeded) <> closed_impeded_count;
SELECT 'the runs share no vertex and follow each other', (SELECT sum(vertex_count) FROM are_regions('corpus/are')) + (SELECT sum(vertex_count) FROM are_containers('corpus/are'))
  + (SELECT sum(open_vertex_count + closed_vertex_count + open_impeded_count + closed_impeded_count) FROM are_doors('corpus/are')) = 4700;
SELECT 'flag names read back', count(*) = 0 FROM are_doors('corpus/are') WHERE are_flag_value('door', are_flag_names('door', flags)) <> flags;
SELECT 'animation flags read back', count(*) = 0 FROM are_animations('corpus/are') WHERE are_flag_value('animation', are_flag_names('animation', flags)) <> flags;

-- the joins of sql/are_cookbook.sql
SELECT 'every area names a WED of the corpus', count(*) = 62 FROM are_areas('corpus/are') AS a
  WHERE EXISTS (SELECT 1 FROM levelsql_files('corpus/wed') AS f WHERE f.file LIKE '%areas\_\_' || a.wed || '.WED' ESCAPE '\');
SELECT 'every ARE door has its WED door', count(*) = 78 FROM are_doors('corpus/are') AS d JOIN are_areas('corpus/are') AS a ON a.file = d.file
  JOIN wed_doors('corpus/wed') AS w ON w.file LIKE '%areas\_\_' || a.wed || '.WED' ESCAPE '\' AND w.name = d.door_id;
SELECT 'travel regions leading to a corpus area, and to an entrance it has', count(*) = 125
  AND sum(EXISTS (SELECT 1 FROM are_entrances(t.file) AS e WHERE e.name = r.destination_entrance)) = 119
  FROM are_regions('corpus/are') AS r JOIN are_areas('corpus/are') AS t ON t.file LIKE '%\_\_' || r.destination_area || '.are' ESCAPE '\'
  WHERE r.type = 'travel';

-- a no-op UPDATE writes nothing; with rewrite=1 every area is re-saved byte for byte
UPDATE are_areas SET wed = wed WHERE source = 'corpus/are';
SELECT 'a no-op UPDATE writes no file', json_extract(levelsql_cache_stats(), '$.writes') = 0 FROM (SELECT 1);
UPDATE are_areas SET wed = wed WHERE source = 'corpus/are' AND options = 'rewrite=1';
SELECT 'no-op rewrite of every area', json_extract(levelsql_cache_stats(), '$.writes') = 62 FROM (SELECT 1);
SELECT 'no-op rewrites are byte-identical', count(*) = 62 FROM orig AS o WHERE readfile(o.name) = o.data;

-- an INSERT undone by a DELETE in one transaction: the counts are back, the area is written in place, byte for byte
BEGIN;
INSERT INTO are_actors(file, actor, name) VALUES ('corpus/are/bst__bst__areas__bs0101.are', 0, 'Passer-by');
INSERT INTO are_doors(file, name, door_id, open_vertices) VALUES ('corpus/are/bst__bst__areas__bs0101.are', 'New', 'DOOR99', '[[1,1],[2,2],[3,1]]');
INSERT INTO are_items(file, container, resref) SELECT file, 0, 'MISC07' FROM are_containers('corpus/are/bst__bst__areas__bs0110.are') WHERE container = 0;
DELETE FROM are_actors WHERE source = 'corpus/are/bst__bst__areas__bs0101.are' AND name = 'Passer-by';
DELETE FROM are_doors WHERE source = 'corpus/are/bst__bst__areas__bs0101.are' AND name = 'New';
DELETE FROM are_items WHERE source = 'corpus/are/bst__bst__areas__bs0110.are' AND resref = 'MISC07';
COMMIT;
SELECT 'insert + delete leaves the bytes', count(*) = 2 FROM orig AS o WHERE o.name IN ('corpus/are/bst__bst__areas__bs0101.are', 'corpus/are/bst__bst__areas__bs0110.are') AND readfile(o.name) = o.data;

-- edits on real areas: a container with its items, the only door, a region's outline; read back by a new connection
CREATE TEMP TABLE before AS SELECT container, name, item_count FROM are_containers('corpus/are/bst__bst__areas__bs0112.are');
DELETE FROM are_containers WHERE source = 'corpus/are/bst__bst__areas__bs0112.are' AND container = 0;
DELETE FROM are_doors WHERE source = 'corpus/are/bst__bst__areas__bs0101.are' AND door = 0;
UPDATE are_regions SET vertices = '[[10,10],[110,10],[110,60],[10,60]]' WHERE source = 'corpus/are/bst__bst__areas__bs0101.are' AND region = 1;
.open :memory:
SELECT 'the other containers keep their items', group_concat(name || ':' || item_count, ',') = 'Crate02:1,Crate03:1,Crate04:0,Crate05:1,Crate06:2' FROM are_containers('corpus/are/bst__bst__areas__bs0112.are');
SELECT 'items 0.. follow the containers', group_concat(container || '.' || slot, ',') = '0.0,1.0,3.0,4.0,4.1' FROM are_items('corpus/are/bst__bst__areas__bs0112.are');
SELECT 'its only door is gone', count(*) = 0 FROM are_doors('corpus/are/bst__bst__areas__bs0101.are');
SELECT vertices, box_left, box_top, box_right, box_bottom FROM are_regions('corpus/are/bst__bst__areas__bs0101.are') WHERE region = 1;
-- expect: [[10,10],[110,10],[110,60],[10,60]]|10|10|110|60
SELECT 'the edited areas load', count(*) = 62 AND min(ok) = 1 FROM levelsql_files('corpus/are');
