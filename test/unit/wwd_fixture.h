/*
** wwd_fixture.h: the small generated WWD level of the engine tests
** (test_engine.c, and test/sql/engine.sql through the fixtures tool),
** written with the codec's own writer.
*/
#ifndef LEVELSQL_WWD_FIXTURE_H
#define LEVELSQL_WWD_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "fileutil.h"
#include "wwd/wwd.h"

/* Writes a generated level: `nobj` objects on the main plane with logic
** Officer / Rat alternating, health = 10 + index, one single and one double
** tile property, a 8x6 main plane.  Returns 1 when the file was written. */
static inline int write_level(const char *path, int nobj, int compressed) {
  wwd_level *lvl = wwd_level_new(8, 6, 64, 64);
  unsigned char *out = NULL;
  size_t size = 0;
  codec_error err;
  int i, ok = 0;
  if (!lvl) return 0;
  wwd_fixed_string_set(lvl->header + WWD_HDR_NAME, 64, (const unsigned char *)"Generated", 9);
  wwd_fixed_string_set(lvl->header + WWD_HDR_AUTHOR, 64, (const unsigned char *)"levelsql tests", 14);
  if (compressed) le32_store(lvl->header + WWD_HDR_FLAGS, le32_load(lvl->header + WWD_HDR_FLAGS) | WWD_FLAG_COMPRESS);
  for (i = 0; i < 48; i++) lvl->planes[0].tiles[i] = (uint32_t)(i % 7 == 0 ? WWD_TILE_FILLED : (uint32_t)i);
  for (i = 0; i < nobj; i++) {
    long k = wwd_object_append(lvl, 0);
    wwd_object *o = &lvl->planes[0].objects[k];
    const char *logic = i % 2 ? "Rat" : "Officer";
    wwd_bytes_set(&o->str[WWD_STR_LOGIC], (const unsigned char *)logic, strlen(logic));
    wwd_bytes_set(&o->str[WWD_STR_IMAGE_SET], (const unsigned char *)"LEVEL_X", 7);
    o->field[WWD_OBJ_ID] = 100 + i;
    o->field[WWD_OBJ_HEALTH] = 10 + i;
    o->field[WWD_OBJ_X] = 64 * i;
    o->field[WWD_OBJ_Y] = 32;
  }
  lvl->tile_properties = calloc(2, sizeof *lvl->tile_properties);
  lvl->num_tile_properties = 2;
  lvl->tile_properties[0].type = WWD_TILE_SINGLE;
  lvl->tile_properties[0].width = lvl->tile_properties[0].height = 64;
  lvl->tile_properties[0].attribute = 1;
  lvl->tile_properties[1].type = WWD_TILE_DOUBLE;
  lvl->tile_properties[1].width = lvl->tile_properties[1].height = 64;
  lvl->tile_properties[1].attribute = 0;
  lvl->tile_properties[1].inside_attribute = 2;
  lvl->tile_properties[1].rect[2] = lvl->tile_properties[1].rect[3] = 63;
  if (wwd_serialize(lvl, &out, &size, &err)) ok = file_write_all(path, out, size);
  else printf("cannot generate %s: %s\n", path, err.msg);
  free(out);
  wwd_free(lvl);
  return ok;
}

#endif
