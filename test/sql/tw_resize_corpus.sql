-- requires: corpus
-- Resizing the game layer of every real map (a private copy in corpus/tw):
-- 3 tiles wider and 2 higher, in one UPDATE, then a new connection reads
-- every map back: the game layer and its physics layers have the new
-- size, the other layers keep theirs, and the cells of every game and
-- physics layer add up as before (new cells are empty; layers of more
-- than 300000 cells are left out to keep the suite fast: test_twresize
-- checks every map cell by cell, and against DDNet's map_resave).
-- Every row is 'label|1' when the check holds.

ATTACH 'keep_corpus.db' AS keep;
CREATE TABLE keep.sizes AS SELECT file, layer_index, kind, width, height FROM tw_layers('corpus/tw') WHERE width IS NOT NULL;
CREATE TABLE keep.sums AS SELECT l.file, l.layer_index, sum(t.id) AS ids, sum(coalesce(t.number, 0) + coalesce(t.force, 0)
  + coalesce(t.flags, 0)) AS other, count(*) AS cells
  FROM keep.sizes AS l JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
  WHERE l.kind IN ('game', 'front', 'tele', 'speedup', 'switch', 'tune') AND l.width * l.height <= 300000
  GROUP BY l.file, l.layer_index;
CREATE TEMP TABLE games AS SELECT DISTINCT file FROM keep.sizes WHERE kind = 'game';
SELECT 'every corpus map has a game layer', (SELECT count(*) FROM games) = (SELECT count(*) FROM levelsql_files('corpus/tw'));

UPDATE tw_layers SET width = width + 3, height = height + 2 WHERE source = 'corpus/tw' AND kind = 'game';

.open :memory:
ATTACH 'keep_corpus.db' AS keep;
SELECT 'every map loads after the resize', count(*) > 0 AND sum(ok) = count(*) FROM levelsql_files('corpus/tw');
SELECT 'game and physics layers grew, the others did not', count(*) = (SELECT count(*) FROM keep.sizes)
  AND sum(CASE WHEN k.kind IN ('game', 'front', 'tele', 'speedup', 'switch', 'tune')
          THEN l.width = k.width + 3 AND l.height = k.height + 2
          ELSE l.width = k.width AND l.height = k.height END) = count(*)
  FROM keep.sizes AS k JOIN tw_layers(k.file) AS l USING (layer_index);
SELECT 'game and physics layers'' cells add up as before', count(*) = (SELECT count(*) FROM keep.sums) AND sum(s.ids = n.ids AND s.other = n.other) = count(*)
  FROM keep.sums AS s JOIN (SELECT l.file, l.layer_index, sum(t.id) AS ids, sum(coalesce(t.number, 0) + coalesce(t.force, 0)
    + coalesce(t.flags, 0)) AS other FROM keep.sums AS l JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
    GROUP BY l.file, l.layer_index) AS n USING (file, layer_index);
SELECT 'the game layers hold something (the sums are not all 0)', sum(ids) > 0 FROM keep.sums JOIN keep.sizes USING (file, layer_index) WHERE kind = 'game';
SELECT 'the added border is empty', count(*) = 0 FROM keep.sizes AS k JOIN tw_tiles(k.file) AS t USING (layer_index)
  WHERE k.kind = 'game' AND k.width * k.height <= 300000 AND (t.x >= k.width OR t.y >= k.height) AND t.id <> 0;
DETACH keep;
