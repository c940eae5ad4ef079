-- requires: corpus
-- Every file of the private corpus copy that levelsql_files calls ok reads
-- through every table of its format, every column (of the first row of
-- cells of each layer: tiles decode per layer, and 25 M map cells would
-- take long); no corpus map is taken for a pre-0.4 one (such a map would
-- be refused by every table).  The ok files are given as one JSON array
-- source.

-- room for every corpus model, so each file is parsed and checked once
SELECT levelsql_cache_limit(2000000000);
-- expect ok

-- wwd
SELECT json_group_array(file) <> '[]' FROM levelsql_files('corpus/wwd') WHERE ok;
-- expect: 1
SELECT * FROM wwd_levels((SELECT json_group_array(file) FROM levelsql_files('corpus/wwd') WHERE ok));
-- expect ok
SELECT * FROM wwd_planes((SELECT json_group_array(file) FROM levelsql_files('corpus/wwd') WHERE ok));
-- expect ok
SELECT * FROM wwd_objects((SELECT json_group_array(file) FROM levelsql_files('corpus/wwd') WHERE ok));
-- expect ok
SELECT * FROM wwd_tiles((SELECT json_group_array(file) FROM levelsql_files('corpus/wwd') WHERE ok)) WHERE y = 0;
-- expect ok
SELECT * FROM wwd_tile_properties((SELECT json_group_array(file) FROM levelsql_files('corpus/wwd') WHERE ok));
-- expect ok

-- tw
SELECT json_group_array(file) <> '[]' FROM levelsql_files('corpus/tw') WHERE ok;
-- expect: 1
SELECT * FROM tw_maps((SELECT json_group_array(file) FROM levelsql_files('corpus/tw') WHERE ok));
-- expect ok
SELECT * FROM tw_groups((SELECT json_group_array(file) FROM levelsql_files('corpus/tw') WHERE ok));
-- expect ok
SELECT * FROM tw_layers((SELECT json_group_array(file) FROM levelsql_files('corpus/tw') WHERE ok));
-- expect ok
SELECT * FROM tw_tiles((SELECT json_group_array(file) FROM levelsql_files('corpus/tw') WHERE ok)) WHERE y = 0;
-- expect ok
SELECT * FROM tw_quads((SELECT json_group_array(file) FROM levelsql_files('corpus/tw') WHERE ok));
-- expect ok
SELECT * FROM tw_images((SELECT json_group_array(file) FROM levelsql_files('corpus/tw') WHERE ok));
-- expect ok
SELECT * FROM tw_envelopes((SELECT json_group_array(file) FROM levelsql_files('corpus/tw') WHERE ok));
-- expect ok
SELECT * FROM tw_sounds((SELECT json_group_array(file) FROM levelsql_files('corpus/tw') WHERE ok));
-- expect ok

-- wed
SELECT json_group_array(file) <> '[]' FROM levelsql_files('corpus/wed') WHERE ok;
-- expect: 1
SELECT * FROM wed_overlays((SELECT json_group_array(file) FROM levelsql_files('corpus/wed') WHERE ok));
-- expect ok
SELECT * FROM wed_doors((SELECT json_group_array(file) FROM levelsql_files('corpus/wed') WHERE ok));
-- expect ok
SELECT * FROM wed_polygons((SELECT json_group_array(file) FROM levelsql_files('corpus/wed') WHERE ok));
-- expect ok
SELECT * FROM wed_tiles((SELECT json_group_array(file) FROM levelsql_files('corpus/wed') WHERE ok)) WHERE y = 0;
-- expect ok
SELECT * FROM wed_wallgroups((SELECT json_group_array(file) FROM levelsql_files('corpus/wed') WHERE ok));
-- expect ok

-- wz4
SELECT json_group_array(file) <> '[]' FROM levelsql_files('corpus/wz4') WHERE ok;
-- expect: 1
SELECT * FROM wz4_pages((SELECT json_group_array(file) FROM levelsql_files('corpus/wz4') WHERE ok));
-- expect ok
SELECT * FROM wz4_operators((SELECT json_group_array(file) FROM levelsql_files('corpus/wz4') WHERE ok));
-- expect ok
SELECT * FROM wz4_links((SELECT json_group_array(file) FROM levelsql_files('corpus/wz4') WHERE ok));
-- expect ok

SELECT count(*) FROM levelsql_files('corpus/tw') WHERE error LIKE '%pre-0.4%';
-- expect: 0
