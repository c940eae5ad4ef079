/*
** test_tw_samples.c: what every writable column of the Teeworlds tables
** refuses, on the maps `make samples` writes ($LEVELSQL_SAMPLES; no corpus
** needed): a value out of its range, text too long, not UTF-8 or with a
** NUL, JSON of the wrong shape, an index past the map's images or
** envelopes, a field the layer kind lacks, a read-only column, a name an
** old item has no room for.  Each statement must fail with the column, the
** limit and the row it names (test/sql/tw_samples.sql checks the values
** these columns take); afterwards every map is byte for byte what it was.
** The maps are private copies in a mkdtemp folder.
*/
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fileutil.h"
#include "sqltest.h"

static const char *const maps[] = {"ddnet_features.map", "v07_sample.map", "legacy.map", "unfinished.map"};
#define NUM_MAPS (sizeof maps / sizeof maps[0])

/* One refused statement: the map it runs on, the statement (its one %s is
** that map's path), a part of the error naming the column and the limit,
** and a part naming the row (NULL: not checked). */
typedef struct refusal {
  const char *map, *sql, *want, *row;
} refusal;

#define F "ddnet_features.map"
#define WF " WHERE source = '%s'"

static const refusal refusals[] = {
  /* tw_maps */
  {F, "UPDATE tw_maps SET author = printf('%%.32c', 'a')" WF,
   "column author: text of 32 bytes is longer than the 31 bytes the field holds", "map info"},
  {F, "UPDATE tw_maps SET map_version = printf('%%.16c', 'v')" WF, "column map_version: text of 16 bytes is longer than the 15 bytes", NULL},
  {F, "UPDATE tw_maps SET credits = printf('%%.128c', 'c')" WF, "column credits: text of 128 bytes is longer than the 127 bytes", NULL},
  {F, "UPDATE tw_maps SET license = printf('%%.32c', 'l')" WF, "column license: text of 32 bytes is longer than the 31 bytes", NULL},
  {F, "UPDATE tw_maps SET credits = x'00'" WF, "column credits: a blob; it takes UTF-8 text of at most 127 bytes", NULL},
  {F, "UPDATE tw_maps SET license = CAST(x'ff' AS TEXT)" WF, "column license: the text is not valid UTF-8", NULL},
  {F, "UPDATE tw_maps SET license = CAST(x'eda080' AS TEXT)" WF, "column license: the text is not valid UTF-8", NULL}, /* a surrogate */
  {F, "UPDATE tw_maps SET license = CAST(x'c0af' AS TEXT)" WF, "column license: the text is not valid UTF-8", NULL},   /* overlong */
  {F, "UPDATE tw_maps SET license = CAST(x'f4908080' AS TEXT)" WF, "column license: the text is not valid UTF-8", NULL}, /* > U+10FFFF */
  {F, "UPDATE tw_maps SET license = CAST(x'e282' AS TEXT)" WF, "column license: the text is not valid UTF-8", NULL},   /* cut short */
  {F, "UPDATE tw_maps SET license = CAST(x'e228a1' AS TEXT)" WF, "column license: the text is not valid UTF-8", NULL}, /* bad continuation */
  {F, "UPDATE tw_maps SET author = CAST(x'610062' AS TEXT)" WF, "column author: the text contains a NUL character", NULL},
  {F, "UPDATE tw_maps SET settings = 'sv_team 1'" WF, "column settings: not valid JSON; it takes JSON like '[\"sv_hit 1\"", NULL},
  {F, "UPDATE tw_maps SET settings = NULL" WF, "column settings: NULL; it takes JSON text", NULL},
  {F, "UPDATE tw_maps SET settings = 5" WF, "column settings: not text; it takes JSON text", NULL},
  {F, "UPDATE tw_maps SET settings = '{\"a\":1}'" WF, "column settings: the value is object, not an array", NULL},
  {F, "UPDATE tw_maps SET settings = '[\"ok\", 1]'" WF, "column settings: element 1 is integer, not a string", NULL},
  {F, "UPDATE tw_maps SET settings = json_array('ok', printf('%%.256c', 's'))" WF,
   "column settings: text of 256 bytes is longer than the 255 bytes the field holds (element 1)", NULL},
  {F, "UPDATE tw_maps SET num_layers = 5" WF, "column num_layers of tw_maps is read-only", "map info"},
  {F, "UPDATE tw_maps SET style = '0.7'" WF, "column style of tw_maps is read-only", NULL},
  {F, "UPDATE tw_maps SET sha256 = ''" WF, "column sha256 of tw_maps is read-only", NULL},
  /* tw_groups */
  {F, "UPDATE tw_groups SET clipping = 2" WF " AND grp = 1", "column clipping: 2 is out of range; it takes an integer from 0 to 1",
   "group 1"},
  {F, "UPDATE tw_groups SET offset_x = 2147483648" WF " AND grp = 1",
   "column offset_x: 2147483648 is out of range; it takes an integer from -2147483648 to 2147483647", NULL},
  {F, "UPDATE tw_groups SET clip_h = 'tall'" WF " AND grp = 2", "column clip_h: text 'tall' is not an integer", "group 2"},
  {F, "UPDATE tw_groups SET name = 'twelve bytes'" WF " AND grp = 1",
   "column name: text of 12 bytes is longer than the 11 bytes the field holds", NULL},
  {F, "UPDATE tw_groups SET name = NULL" WF " AND grp = 1", "column name: NULL; it takes UTF-8 text of at most 11 bytes", NULL},
  {F, "UPDATE tw_groups SET num_layers = 1" WF " AND grp = 1", "column num_layers of tw_groups is read-only", NULL},
  {F, "UPDATE tw_groups SET version = 2" WF " AND grp = 1", "column version of tw_groups is read-only", NULL},
  /* tw_layers */
  {F, "UPDATE tw_layers SET color_r = 1" WF " AND layer_index = 0", "column color_r: a quads layer has no color_r",
   "group 0 layer 0 (layer_index 0)"},
  {F, "UPDATE tw_layers SET image = 0" WF " AND layer_index = 9", "column image: a sounds layer has no image", NULL},
  {F, "UPDATE tw_layers SET color_env_offset = 5" WF " AND layer_index = 11", "column color_env_offset: a quads layer has no", NULL},
  {F, "UPDATE tw_layers SET color_g = 256" WF " AND layer_index = 1", "column color_g: 256 is out of range; it takes an integer from 0 to 255",
   NULL},
  {F, "UPDATE tw_layers SET color_a = -1" WF " AND layer_index = 1", "column color_a: -1 is out of range", NULL},
  {F, "UPDATE tw_layers SET color_env = 3" WF " AND layer_index = 1",
   "column color_env: 3 is out of range; it takes a envelope index from 0 to 2 (the map has 3), or NULL for none", NULL},
  {"unfinished.map", "UPDATE tw_layers SET color_env = 0" WF " AND layer_index = 1",
   "column color_env: 0 is out of range; the map has no envelopes (NULL for none)", NULL},
  {"unfinished.map", "UPDATE tw_layers SET image = 0" WF " AND layer_index = 1",
   "column image: 0 is out of range; the map has no images (NULL for none)", NULL},
  {F, "UPDATE tw_layers SET image = -2" WF " AND layer_index = 1",
   "column image: -2 is out of range; it takes a image index from 0 to 1 (the map has 2), or NULL for none", NULL},
  {F, "UPDATE tw_layers SET image = 'x'" WF " AND layer_index = 1", "column image: text 'x' is not an integer", NULL},
  {F, "UPDATE tw_layers SET color_env_offset = 1e10" WF " AND layer_index = 1", "column color_env_offset: 10000000000.0 is out of range; it takes an integer from -2147483648", NULL},
  {F, "UPDATE tw_layers SET detail = 2" WF " AND layer_index = 1", "column detail: 2 is out of range; it takes an integer from 0 to 1",
   NULL},
  {F, "UPDATE tw_layers SET name = 'twelve bytes'" WF " AND layer_index = 1",
   "column name: text of 12 bytes is longer than the 11 bytes the field holds", NULL},
  {"legacy.map", "UPDATE tw_layers SET name = 'Game'" WF " AND layer_index = 0",
   "column name: item type 5 id 0 (layer 0): version-2 tilemap with DDNet fields has no room for a name",
   "group 0 layer 0 (layer_index 0)"},
  {"legacy.map", "UPDATE tw_layers SET name = 'x'" WF " AND layer_index = 5", "column name: a unknown layer has no name",
   "layer_index 5 (in no group)"},
  {F, "UPDATE tw_layers SET width = 10" WF " AND layer_index = 1", "column width of tw_layers is read-only", NULL},
  {F, "UPDATE tw_layers SET kind = 'game'" WF " AND layer_index = 1", "column kind of tw_layers is read-only", NULL},
  {F, "UPDATE tw_layers SET num_sources = 3" WF " AND layer_index = 9", "column num_sources of tw_layers is read-only", NULL},
  {F, "UPDATE tw_layers SET sound = 1" WF " AND layer_index = 9", "column sound of tw_layers is read-only", NULL},
  /* tw_tiles */
  {F, "UPDATE tw_tiles SET flags = 1" WF " AND kind = 'tele' AND x = 8 AND y = 17", "column flags: a tele layer has no flags",
   "tile x 8, y 17 of group 1 layer 2 (layer_index 4)"},
  {F, "UPDATE tw_tiles SET force = 3" WF " AND kind = 'game' AND x = 5 AND y = 7", "column force: a game layer has no force", NULL},
  {F, "UPDATE tw_tiles SET delay = 3" WF " AND kind = 'tune' AND x = 5 AND y = 7", "column delay: a tune layer has no delay", NULL},
  {F, "UPDATE tw_tiles SET id = 256" WF " AND kind = 'game' AND x = 5 AND y = 7",
   "column id: 256 is out of range; it takes an integer from 0 to 255", NULL},
  {F, "UPDATE tw_tiles SET angle = 32768" WF " AND kind = 'speedup' AND x = 12 AND y = 18",
   "column angle: 32768 is out of range; it takes an integer from -32768 to 32767", NULL},
  {F, "UPDATE tw_tiles SET number = -1" WF " AND kind = 'switch' AND x = 22 AND y = 18",
   "column number: -1 is out of range; it takes an integer from 0 to 255", NULL},
  {F, "UPDATE tw_tiles SET max_speed = 'fast'" WF " AND kind = 'speedup' AND x = 12 AND y = 18",
   "column max_speed: text 'fast' is not an integer", NULL},
  {F, "UPDATE tw_tiles SET x = 3" WF " AND kind = 'game' AND x = 5 AND y = 7", "column x of tw_tiles is read-only", NULL},
  {F, "UPDATE tw_tiles SET kind = 'front'" WF " AND kind = 'game' AND x = 5 AND y = 7", "column kind of tw_tiles is read-only", NULL},
  /* a statement that fails part-way (192 + 100 > 255 at the spawn) */
  {F, "UPDATE tw_tiles SET id = id + 100" WF " AND kind = 'game' AND id <> 0", "column id: 292 is out of range", NULL},
  {"v07_sample.map", "UPDATE tw_tiles SET id = id + 100" WF " AND kind = 'game' AND id <> 0", "column id: 292 is out of range", "tile x 20, y 11 of group 1 layer 0 (layer_index 1)"},
  /* tw_quads */
  {F, "UPDATE tw_quads SET points = '[[0,0]]'" WF " AND quad = 0",
   "column points: the value has 1 elements; it takes exactly 5, e.g. '[[0,0],[32768,0]", "quad 0 of group 0 layer 0 (layer_index 0)"},
  {F, "UPDATE tw_quads SET points = '[[0,0'" WF " AND quad = 0", "column points: not valid JSON; it takes JSON like", NULL},
  {F, "UPDATE tw_quads SET points = '[[0,0],[0,0],[0,0],[0,0],[0,\"a\"]]'" WF " AND quad = 0",
   "column points: element [4][1] is text; it takes an integer from -2147483648 to 2147483647", NULL},
  {F, "UPDATE tw_quads SET points = '[[0,0],[0,0],[0,0],[0,0],[0]]'" WF " AND quad = 0",
   "column points: element [4] has 1 elements; it takes exactly 2", NULL},
  {F, "UPDATE tw_quads SET points = '[[0,0],[0,0],[0,0],[0,0],5]'" WF " AND quad = 0",
   "column points: element [4] is integer, not an array", NULL},
  {F, "UPDATE tw_quads SET points = '[[0,0],[0,0],[0,0],[0,0],[0,1.5]]'" WF " AND quad = 0",
   "column points: element [4][1] is real; it takes an integer", NULL},
  {F, "UPDATE tw_quads SET points = '[[0,0],[0,0],[0,0],[0,0],[0,2147483648]]'" WF " AND quad = 0",
   "column points: element [4][1] = 2147483648 is out of range; it takes an integer from -2147483648 to 2147483647", NULL},
  {F, "UPDATE tw_quads SET colors = '[[256,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]'" WF " AND quad = 0",
   "column colors: element [0][0] = 256 is out of range; it takes an integer from 0 to 255", NULL},
  {F, "UPDATE tw_quads SET colors = '[[0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]'" WF " AND quad = 0",
   "column colors: element [0] has 3 elements; it takes exactly 4", NULL},
  {F, "UPDATE tw_quads SET tex_coords = '{\"a\":1}'" WF " AND quad = 0",
   "column tex_coords: the value is object, not an array; e.g. '[[0,0],[1024,0],[0,1024],[1024,1024]]'", NULL},
  {F, "UPDATE tw_quads SET tex_coords = '[[0,0],[1024,0],[0,1024]]'" WF " AND quad = 0",
   "column tex_coords: the value has 3 elements; it takes exactly 4", NULL},
  {F, "UPDATE tw_quads SET pos_env = 7" WF " AND quad = 0",
   "column pos_env: 7 is out of range; it takes a envelope index from 0 to 2 (the map has 3), or NULL for none", NULL},
  {F, "UPDATE tw_quads SET color_env = -5" WF " AND quad = 0", "column color_env: -5 is out of range", NULL},
  {F, "UPDATE tw_quads SET color_env_offset = 2147483648" WF " AND quad = 0", "column color_env_offset: 2147483648 is out of range",
   NULL},
  {F, "UPDATE tw_quads SET pos_env_offset = 'soon'" WF " AND quad = 0", "column pos_env_offset: text 'soon' is not an integer", NULL},
  {F, "UPDATE tw_quads SET points = 5" WF " AND quad = 0", "column points: not text; it takes JSON text, e.g.", NULL},
  {F, "UPDATE tw_quads SET colors = NULL" WF " AND quad = 0", "column colors: NULL; it takes JSON text, e.g.", NULL},
  {F, "UPDATE tw_quads SET quad = 3" WF " AND quad = 0", "column quad of tw_quads is read-only", NULL},
  /* tw_images */
  {F, "UPDATE tw_images SET name = ''" WF " AND image = 1", "column name: empty text; it takes UTF-8 text of 1 to 127 bytes", "image 1"},
  {F, "UPDATE tw_images SET name = printf('%%.128c', 'n')" WF " AND image = 1",
   "column name: text of 128 bytes is longer than the 127 bytes the field holds", NULL},
  {F, "UPDATE tw_images SET name = NULL" WF " AND image = 1", "column name: NULL; it takes UTF-8 text of 1 to 127 bytes", NULL},
  {F, "UPDATE tw_images SET name = CAST(x'6e00' AS TEXT)" WF " AND image = 1", "column name: the text contains a NUL character", NULL},
  {F, "UPDATE tw_images SET width = 2" WF " AND image = 1", "column width of tw_images is read-only", NULL},
  {F, "UPDATE tw_images SET external = 0" WF " AND image = 0", "column external of tw_images is read-only", NULL},
  /* tw_envelopes */
  {F, "UPDATE tw_envelopes SET points = '{}'" WF " AND env = 0", "column points: the value is object, not an array; e.g. '[{\"time\":0",
   "envelope 0"},
  {F, "UPDATE tw_envelopes SET points = '[1]'" WF " AND env = 0", "column points: point 0 is integer, not an object", NULL},
  {F, "UPDATE tw_envelopes SET points = '[{\"time\":0,\"curve\":1,\"values\":[0],\"speed\":1}]'" WF " AND env = 0",
   "column points: point 0 has an unknown key 'speed'", NULL},
  {F, "UPDATE tw_envelopes SET points = '[{\"time\":10,\"curve\":1,\"values\":[0]},{\"time\":5,\"curve\":1,\"values\":[0]}]'" WF
      " AND env = 0",
   "column points: point 1 time 5 is before the previous point's 10; times must not decrease", NULL},
  {F, "UPDATE tw_envelopes SET points = '[{\"time\":0,\"curve\":6,\"values\":[0]}]'" WF " AND env = 0",
   "column points: point 0 curve = 6 is out of range; it takes an integer from 0 to 5", NULL},
  {F, "UPDATE tw_envelopes SET points = '[{\"time\":0,\"curve\":1,\"values\":[]}]'" WF " AND env = 0",
   "column points: point 0 values has 0 elements; it takes 1 to 4", NULL},
  {F, "UPDATE tw_envelopes SET points = '[{\"time\":0,\"curve\":1,\"values\":[1,2,3,4,5]}]'" WF " AND env = 0",
   "column points: point 0 values has 5 elements; it takes 1 to 4", NULL},
  {F, "UPDATE tw_envelopes SET points = '[{\"time\":0,\"curve\":1,\"values\":{\"a\":1}}]'" WF " AND env = 0",
   "column points: point 0 values is object, not an array", NULL},
  {F, "UPDATE tw_envelopes SET points = '[{\"time\":0,\"curve\":1,\"values\":[0.5]}]'" WF " AND env = 0",
   "column points: point 0 values[0] is real; it takes an integer", NULL},
  {F, "UPDATE tw_envelopes SET points = '[{\"curve\":1,\"values\":[0]}]'" WF " AND env = 0",
   "column points: point 0 time is missing; it takes an integer from 0 to 2147483647", NULL},
  {F, "UPDATE tw_envelopes SET points = '[{\"time\":-1,\"curve\":1,\"values\":[0]}]'" WF " AND env = 0",
   "column points: point 0 time = -1 is out of range; it takes an integer from 0 to 2147483647", NULL},
  {F, "UPDATE tw_envelopes SET points = '[{\"time\":0,\"curve\":1,\"values\":[0],\"in_dx\":[1]}]'" WF " AND env = 0",
   "column points: point 0 in_dx: this map stores no bezier tangents (only 0.7 maps and DDNet maps with bezier points do)", NULL},
  {"v07_sample.map", "UPDATE tw_envelopes SET points = '[{\"time\":0,\"curve\":5,\"values\":[0],\"in_dx\":[1,2,3,4,5]}]'" WF " AND env = 0",
   "column points: point 0 in_dx has 5 elements; it takes 1 to 4", "envelope 0"},
  {"v07_sample.map", "UPDATE tw_envelopes SET points = '[{\"time\":0,\"curve\":5,\"values\":[0],\"out_dy\":[\"a\"]}]'" WF " AND env = 0",
   "column points: point 0 out_dy[0] is text; it takes an integer from -2147483648 to 2147483647", NULL},
  {"v07_sample.map", "UPDATE tw_envelopes SET points = '[{\"time\":0,\"curve\":5,\"values\":[0],\"out_dy\":7}]'" WF " AND env = 0",
   "column points: point 0 out_dy is integer, not an array", NULL},
  {F, "UPDATE tw_envelopes SET points = 'nope'" WF " AND env = 0", "column points: not valid JSON; it takes JSON like '[{\"time\":0", NULL},
  {F, "UPDATE tw_envelopes SET points = x'5b5d'" WF " AND env = 0", "column points: not text; it takes JSON text", NULL},
  {F, "UPDATE tw_envelopes SET name = printf('%%.32c', 'e')" WF " AND env = 0",
   "column name: text of 32 bytes is longer than the 31 bytes the field holds", NULL},
  {F, "UPDATE tw_envelopes SET synchronized = 2" WF " AND env = 0",
   "column synchronized: 2 is out of range; it takes an integer from 0 to 1", NULL},
  {F, "UPDATE tw_envelopes SET kind = 'color'" WF " AND env = 0", "column kind of tw_envelopes is read-only", NULL},
  {F, "UPDATE tw_envelopes SET num_points = 1" WF " AND env = 0", "column num_points of tw_envelopes is read-only", NULL},
  {F, "UPDATE tw_envelopes SET channels = 4" WF " AND env = 0", "column channels of tw_envelopes is read-only", NULL},
  /* tw_sounds: nothing is writable */
  {F, "UPDATE tw_sounds SET name = 'x'" WF " AND sound = 0", "column name of tw_sounds is read-only", "sound 0"},
  {F, "UPDATE tw_sounds SET data_size = 1" WF " AND sound = 0", "column data_size of tw_sounds is read-only", NULL},
};

int main(void) {
  const char *samples = getenv("LEVELSQL_SAMPLES");
  char dir[] = "/tmp/levelsql-tw-samples-XXXXXX";
  unsigned char *before[NUM_MAPS] = {NULL};
  size_t before_size[NUM_MAPS] = {0};
  sqlite3 *db;
  size_t i, k;
  if (!samples) {
    SKIP("LEVELSQL_SAMPLES unset: the refusals on the generated maps");
    return check_done();
  }
  if (!mkdtemp(dir)) {
    CHECK(0, "mkdtemp %s", dir);
    return check_done();
  }
  for (k = 0; k < NUM_MAPS; k++) {
    before[k] = file_read_all(fmt("%s/%s", samples, maps[k]), &before_size[k]);
    CHECK(before[k] && file_write_all(fmt("%s/%s", dir, maps[k]), before[k], before_size[k]), "copy of %s/%s", samples,
          maps[k]);
  }
  db = db_open();
  CHECK(db != NULL, "the extension loads");
  for (i = 0; db && i < sizeof refusals / sizeof refusals[0]; i++) {
    const refusal *r = &refusals[i];
    exec_err(db, fmt(r->sql, fmt("%s/%s", dir, r->map)), r->want, r->row);
  }
  if (db) sqlite3_close(db);
  /* no refused statement wrote anything */
  for (k = 0; k < NUM_MAPS; k++) {
    size_t n = 0;
    unsigned char *now = file_read_all(fmt("%s/%s", dir, maps[k]), &n);
    CHECK(now && before[k] && n == before_size[k] && memcmp(now, before[k], n) == 0, "%s is unchanged after the refusals",
          maps[k]);
    free(now);
    free(before[k]);
    unlink(fmt("%s/%s", dir, maps[k]));
  }
  rmdir(dir);
  return check_done();
}
