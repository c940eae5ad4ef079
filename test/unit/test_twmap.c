/*
** test_twmap.c: the Teeworlds/DDNet map model (codecs/tw/twmap.c).
**
** - every corpus map loads; every tilemap layer yields width*height cells;
**   quads, images, envelopes, sounds and info decode;
** - decoding everything and writing with no change is byte-identical to
**   DDNet's map_resave output; re-encoding every tilemap layer (0.7 skip
**   compression included) also is;
** - a tile edit: map_diff (if installed) reports exactly that layer, map_resave
**   reads the result, we read back the edit and nothing else changed;
** - edits of info, groups, layers, envelopes (points count changing), images,
**   quads, special tiles read back;
** - synthetic maps for what the corpus lacks: 20-int (2010 DDRace) tilemaps,
**   22-int bezier envelope points, deprecated sound layers, unknown layers;
** - lazy decoding: parsing inflates no blob, a layer inflates only its own;
** - corruption: truncations and flipped bytes give errors, never a crash.
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ddnet_peer.h"
#include "tw/datafile.h"
#include "fileutil.h"
#include "tw/twmap.h"


static char tmpdir[64];
static int have_tools;

/* Decodes everything the tables will show; returns the number of failures
** and counts tile rows per layer against width*height. */
static int touch_all(tw_map *m, const char *name, int report) {
  size_t i, k;
  int bad = 0;
  codec_error e;
  for (i = 0; i < m->num_groups; i++) {
    tw_group_info g;
    if (!tw_group_get(m, i, &g, &e)) bad++;
  }
  for (i = 0; i < m->num_layers; i++) {
    tw_layer_info li;
    if (!tw_layer_get(m, i, &li, &e)) {
      bad++;
      continue;
    }
    if (li.kind <= TW_KIND_TUNE) {
      size_t rows = 0;
      int x, y, ok = 1;
      for (y = 0; y < li.height && ok; y++)
        for (x = 0; x < li.width && ok; x++) {
          tw_tile t;
          if (tw_tile_get(m, i, x, y, &t, &e))
            rows++;
          else
            ok = 0;
        }
      if (!ok) bad++;
      if (report) {
        CHECK(ok && rows == (size_t)li.width * (size_t)li.height, "%s layer %zu (%s): %zu rows for %dx%d: %s", name,
              i, tw_kind_name(li.kind), rows, li.width, li.height, ok ? "" : e.msg);
      }
    } else if (li.kind == TW_KIND_QUADS) {
      for (k = 0; k < (size_t)li.num_quads; k++) {
        tw_quad q;
        if (!tw_quad_get(m, i, k, &q, &e)) {
          bad++;
          if (report) CHECK(0, "%s layer %zu quad %zu: %s", name, i, k, e.msg);
          break;
        }
      }
    }
  }
  for (i = 0; i < m->num_images; i++) {
    tw_image_info im;
    if (!tw_image_get(m, i, &im, &e)) bad++;
  }
  for (i = 0; i < m->num_envelopes; i++) {
    tw_envelope_info en;
    tw_env_point *p = NULL;
    size_t n;
    if (!tw_envelope_get(m, i, &en, &e) || !tw_envelope_points(m, i, &p, &n, &e)) bad++;
    free(p);
  }
  for (i = 0; i < m->num_sounds; i++) {
    tw_sound_info s;
    if (!tw_sound_get(m, i, &s, &e)) bad++;
  }
  for (k = 0; k <= TW_INFO_SETTINGS; k++) {
    const char *s;
    size_t n;
    if (!tw_info_get(m, (tw_info_field)k, &s, &n, &e)) bad++;
  }
  return bad;
}

/* Number of blobs currently inflated. */
static size_t loaded_blobs(const tw_map *m) {
  size_t i, n = 0;
  for (i = 0; i < m->df->num_data; i++) n += m->df->data[i].state == DF_DATA_LOADED;
  return n;
}

/* Truncations fail; flips never crash; a flipped map that parses is touched,
** written and re-read. */
static void corrupt_map(const char *name, const unsigned char *buf, size_t n) {
  size_t cut, step = n / 16 + 1, k;
  unsigned char *c = (unsigned char *)malloc(n);
  int trunc_ok = 1, reread_ok = 1;
  codec_error e;
  for (cut = 0; cut < n; cut += step) {
    tw_map *m = NULL;
    if (tw_map_parse(buf, cut, &m, &e)) trunc_ok = 0;
    tw_map_free(m);
  }
  CHECK(trunc_ok, "%s: truncations are errors", name);
  if (n > 60000) { /* big maps: the container test already flips them */
    free(c);
    return;
  }
  for (k = 0; k < 24; k++) {
    size_t pos = k < 12 ? (k * 131u) % (n < 600 ? n : 600) : (k * 7919u) % n;
    tw_map *m = NULL;
    memcpy(c, buf, n);
    c[pos] ^= (unsigned char)(0xA5 ^ k);
    if (tw_map_parse(c, n, &m, &e)) {
      unsigned char *o = NULL;
      size_t on;
      touch_all(m, name, 0);
      if (tw_map_serialize(m, 0, &o, &on, &e)) {
        tw_map *m2 = NULL;
        if (!tw_map_parse(o, on, &m2, &e)) reread_ok = 0;
        tw_map_free(m2);
      }
      free(o);
    }
    tw_map_free(m);
  }
  CHECK(reread_ok, "%s: flipped maps that parse re-read after writing", name);
  free(c);
}

/* Marks every tilemap layer dirty without changing it (cell 0,0 set to
** itself): re-encoding must reproduce the original blobs. */
static int redirty_all(tw_map *m) {
  size_t l;
  codec_error e;
  for (l = 0; l < m->num_layers; l++) {
    tw_tile t;
    if (m->layers[l].kind > TW_KIND_TUNE) continue;
    if (!tw_tile_get(m, l, 0, 0, &t, &e) || !tw_tile_set(m, l, 0, 0, &t, &e)) return 0;
  }
  return 1;
}

/* First layer of a kind, or -1. */
static long find_kind(const tw_map *m, tw_kind k) {
  size_t l;
  for (l = 0; l < m->num_layers; l++)
    if (m->layers[l].kind == k) return (long)l;
  return -1;
}

/* Decoded layers keep only their cells; the file's blobs stay compressed.
** With every layer decoded and one tile of the first tilemap layer changed,
** a write that keeps blobs (flags 0) gives every other blob its stored
** bytes as read, and the edited blob new ones that read back the edit. */
static void decoded_layers_write_kept(const unsigned char *buf, size_t n, const char *label) {
  tw_map *m = NULL, *m2 = NULL;
  codec_error e;
  tw_tile t, t2;
  unsigned char *o = NULL;
  size_t on, i, same = 0, kept = 0;
  long l = -1, idx;
  if (!tw_map_parse(buf, n, &m, &e)) return; /* the caller checks parsing */
  for (i = 0; i < m->num_layers && l < 0; i++)
    if (m->layers[i].kind <= TW_KIND_TUNE && tw_layer_data_index(m, i) >= 0) l = (long)i;
  if (l < 0 || touch_all(m, label, 0) != 0) {
    tw_map_free(m);
    return;
  }
  idx = tw_layer_data_index(m, (size_t)l);
  CHECK(tw_tile_get(m, (size_t)l, 0, 0, &t, &e), "%s: get: %s", label, e.msg);
  t.id = (t.id + 1) & 0xFF;
  CHECK(tw_tile_set(m, (size_t)l, 0, 0, &t, &e), "%s: set: %s", label, e.msg);
  CHECK(tw_map_serialize(m, 0, &o, &on, &e), "%s: serialize: %s", label, e.msg);
  CHECK(o && tw_map_parse(o, on, &m2, &e), "%s: reparse: %s", label, e.msg);
  if (m2 && m2->df->num_data == m->df->num_data) {
    for (i = 0; i < m->df->num_data; i++) {
      const df_data *a = &m->df->data[i], *b = &m2->df->data[i];
      if ((long)i == idx) continue;
      kept++;
      same += a->stored_size == b->stored_size && memcmp(a->stored, b->stored, a->stored_size) == 0;
    }
    CHECK(same == kept, "%s: with every layer decoded, the %zu unedited blobs keep their stored bytes (%zu do)",
          label, kept, same);
    CHECK(tw_tile_get(m2, (size_t)l, 0, 0, &t2, &e) && t2.id == t.id, "%s: the edited blob reads back", label);
  } else {
    CHECK(0, "%s: the write keeps the blob count", label);
  }
  free(o);
  tw_map_free(m2);
  tw_map_free(m);
}

/* Edits one tile of layer l, writes the map to tmpdir/edited.map, checks it
** with map_diff / map_resave and with our reader. */
static void tile_edit(const char *path, const unsigned char *buf, size_t n, tw_kind kind, const char *label) {
  tw_map *m = NULL, *m2 = NULL;
  codec_error e;
  long l;
  tw_tile t, t2;
  tw_layer_info li;
  unsigned char *o = NULL;
  size_t on;
  int x, y, same = 1;
  char out[512], log[512];
  if (!tw_map_parse(buf, n, &m, &e)) {
    CHECK(0, "%s: %s", label, e.msg);
    return;
  }
  l = find_kind(m, kind);
  CHECK(l >= 0, "%s: has a %s layer", label, tw_kind_name(kind));
  if (l < 0) {
    tw_map_free(m);
    return;
  }
  tw_layer_get(m, (size_t)l, &li, &e);
  x = li.width / 2;
  y = li.height / 2;
  CHECK(tw_tile_get(m, (size_t)l, x, y, &t, &e), "%s: get: %s", label, e.msg);
  t.id = (t.id + 1) & 0xFF;
  if (kind == TW_KIND_TELE || kind == TW_KIND_SWITCH || kind == TW_KIND_TUNE) t.number = (t.number + 3) & 0xFF;
  if (kind == TW_KIND_SPEEDUP) {
    t.force = 7;
    t.angle = -90;
  }
  if (kind == TW_KIND_SWITCH) t.delay = 9;
  CHECK(tw_tile_set(m, (size_t)l, x, y, &t, &e), "%s: set: %s", label, e.msg);
  CHECK(tw_map_serialize(m, DF_WRITE_RECOMPRESS, &o, &on, &e), "%s: serialize: %s", label, e.msg);
  CHECK(o && tw_map_parse(o, on, &m2, &e), "%s: reparse: %s", label, e.msg);
  if (m2) {
    tw_map *m0 = NULL;
    CHECK(tw_tile_get(m2, (size_t)l, x, y, &t2, &e) && memcmp(&t, &t2, sizeof t) == 0, "%s: edit read back", label);
    if (tw_map_parse(buf, n, &m0, &e)) {
      int xx, yy;
      for (yy = 0; yy < li.height; yy++)
        for (xx = 0; xx < li.width; xx++) {
          tw_tile a, b;
          if (xx == x && yy == y) continue;
          tw_tile_get(m0, (size_t)l, xx, yy, &a, &e);
          tw_tile_get(m2, (size_t)l, xx, yy, &b, &e);
          if (memcmp(&a, &b, sizeof a) != 0) same = 0;
        }
      CHECK(same, "%s: other cells unchanged", label);
      CHECK(m2->layers[l].skip_compressed == m0->layers[l].skip_compressed, "%s: compression form kept", label);
      if (m0->layers[l].skip_compressed) {
        int32_t di = m2->df->items[m2->layers[l].item].ints[14];
        CHECK(df_data_size(m2->df, (size_t)di) < m2->layers[l].count * 4, "%s: still skip-compressed", label);
      }
      tw_map_free(m0);
    }
  }
  if (have_tools && o) {
    FILE *f;
    char line[1024];
    int diffs = 0, name_seen = 0;
    char where[64];
    snprintf(out, sizeof out, "%s/edited.map", tmpdir);
    snprintf(log, sizeof log, "%s/diff.log", tmpdir);
    file_write_all(out, o, on);
    /* Debian's map_diff (16.4) exits 0 either way and prints one line per
    ** differing tile, "[<n>:<layer name>] XxY: (index: a, flags: b) !=
    ** (...)"; it only compares the main Tile data, so edits of physics
    ** layers (tele, speedup, switch, tune, front) are invisible to it. */
    CHECK(ddnet_run(tmpdir, "map_diff", path, out, log) == 0, "%s: map_diff runs", label);
    snprintf(where, sizeof where, "] %dx%d:", x, y);
    f = fopen(log, "r");
    while (f && fgets(line, sizeof line, f)) {
      if (strstr(line, "map_compare: [") && strstr(line, "!=")) {
        diffs++;
        if (strstr(line, where) && (!li.name[0] || strstr(line, li.name))) name_seen = 1;
      }
    }
    if (f) fclose(f);
    if (m->layers[l].skip_compressed)
      /* 16.4's map_diff reads 0.7 skip-compressed blobs as plain tile
      ** arrays, so it reports thousands of bogus differences. */
      CHECK(diffs > 0, "%s: map_diff sees the (skip-compressed) layer differ", label);
    else if (kind == TW_KIND_TILES || kind == TW_KIND_GAME)
      CHECK(diffs == 1 && name_seen, "%s: map_diff reports exactly that tile of that layer (%d lines, layer '%s')",
            label, diffs, li.name);
    else
      CHECK(diffs == 0, "%s: map_diff (main data only) reports no tile difference (%d)", label, diffs);
    CHECK(ddnet_run(tmpdir, "map_resave", out, "resaved.map", NULL) == 0, "%s: map_resave reads the edited map", label);
    unlink(out);
    unlink(log);
    snprintf(out, sizeof out, "%s/resaved.map", tmpdir);
    unlink(out);
    snprintf(out, sizeof out, "%s/map_diff.txt", tmpdir); /* map_diff writes it to its cwd */
    unlink(out);
  }
  free(o);
  tw_map_free(m2);
  tw_map_free(m);
}

/* Metadata edits on one map, read back after serialize. */
static void meta_edits(const unsigned char *buf, size_t n, const char *label) {
  tw_map *m = NULL, *m2 = NULL;
  codec_error e;
  unsigned char *o = NULL;
  size_t on, k;
  static const char settings[] = "sv_test 1\0tune gravity 0.3\0";
  if (!tw_map_parse(buf, n, &m, &e)) {
    CHECK(0, "%s: %s", label, e.msg);
    return;
  }
  CHECK(tw_info_set(m, TW_INFO_AUTHOR, "Somebody Else", 13, &e), "author: %s", e.msg);
  CHECK(tw_info_set(m, TW_INFO_SETTINGS, settings, sizeof settings - 1, &e), "settings: %s", e.msg);
  CHECK(tw_info_set(m, TW_INFO_LICENSE, NULL, 0, &e), "license cleared: %s", e.msg);
  if (m->num_groups) {
    tw_group_info g;
    tw_group_get(m, 0, &g, &e);
    strcpy(g.name, "Renamed");
    g.offset_x = 12;
    g.clipping = 1;
    g.clip_w = 640;
    CHECK(tw_group_set(m, 0, &g, &e), "group set: %s", e.msg);
    memset(g.name, 'x', sizeof g.name); /* 12 bytes, no room for the NUL */
    CHECK(!tw_group_set(m, 0, &g, &e), "too long group name refused");
  }
  for (k = 0; k < m->num_layers; k++) {
    tw_layer_info li;
    tw_layer_get(m, k, &li, &e);
    if (li.kind == TW_KIND_TILES) {
      strcpy(li.name, "EditedTiles");
      li.color[0] = 10;
      li.detail = 1;
      CHECK(tw_layer_set(m, k, &li, &e), "layer set: %s", e.msg);
      break;
    }
  }
  if (m->num_images) CHECK(tw_image_set_name(m, 0, "grass_main", 10, &e), "image name: %s", e.msg);
  if (m->num_envelopes) {
    tw_envelope_info en;
    tw_env_point pts[3];
    memset(pts, 0, sizeof pts);
    pts[0].time = 0;
    pts[1].time = 500;
    pts[1].curve = 1;
    pts[2].time = 1000;
    pts[2].values[0] = 1024;
    tw_envelope_get(m, 0, &en, &e);
    strcpy(en.name, "edited env");
    en.synchronized = 1;
    CHECK(tw_envelope_set(m, 0, &en, &e), "env set: %s", e.msg);
    CHECK(tw_envelope_set_points(m, 0, pts, 3, &e), "env points: %s", e.msg);
  }
  {
    long q = find_kind(m, TW_KIND_QUADS);
    if (q >= 0 && m->layers[q].count) {
      tw_quad qd;
      tw_quad_get(m, (size_t)q, 0, &qd, &e);
      qd.points[4][0] = 4242;
      qd.color_env = -1;
      CHECK(tw_quad_set(m, (size_t)q, 0, &qd, &e), "quad set: %s", e.msg);
    }
  }
  CHECK(tw_map_serialize(m, DF_WRITE_RECOMPRESS, &o, &on, &e), "%s: serialize: %s", label, e.msg);
  CHECK(o && tw_map_parse(o, on, &m2, &e), "%s: reparse: %s", label, e.msg);
  if (m2) {
    const char *s;
    size_t sl;
    CHECK(tw_info_get(m2, TW_INFO_AUTHOR, &s, &sl, &e) && sl == 13 && memcmp(s, "Somebody Else", 13) == 0,
          "%s: author", label);
    CHECK(tw_info_get(m2, TW_INFO_SETTINGS, &s, &sl, &e) && sl == sizeof settings - 1 &&
              memcmp(s, settings, sl) == 0, "%s: settings", label);
    CHECK(tw_info_get(m2, TW_INFO_LICENSE, &s, &sl, &e) && s == NULL, "%s: license cleared", label);
    if (m2->num_groups) {
      tw_group_info g;
      tw_group_get(m2, 0, &g, &e);
      CHECK(strcmp(g.name, "Renamed") == 0 && g.offset_x == 12 && g.clipping == 1 && g.clip_w == 640 &&
                g.version >= 3, "%s: group (%s v%d)", label, g.name, g.version);
    }
    for (k = 0; k < m2->num_layers; k++) {
      tw_layer_info li;
      tw_layer_get(m2, k, &li, &e);
      if (li.kind == TW_KIND_TILES) {
        CHECK(strcmp(li.name, "EditedTiles") == 0 && li.color[0] == 10 && li.detail == 1, "%s: layer (%s)", label,
              li.name);
        break;
      }
    }
    if (m2->num_images) {
      tw_image_info im;
      CHECK(tw_image_get(m2, 0, &im, &e) && im.name.n == 10 && memcmp(im.name.p, "grass_main", 10) == 0,
            "%s: image name", label);
    }
    if (m2->num_envelopes) {
      tw_envelope_info en;
      tw_env_point *p = NULL;
      size_t np = 0, i, sum = 0;
      tw_envelope_get(m2, 0, &en, &e);
      CHECK(strcmp(en.name, "edited env") == 0 && en.synchronized == 1, "%s: env name %s", label, en.name);
      CHECK(tw_envelope_points(m2, 0, &p, &np, &e) && np == 3 && p[1].time == 500 && p[2].values[0] == 1024,
            "%s: env points", label);
      free(p);
      /* every envelope's range still inside the points item */
      for (i = 0; i < m2->num_envelopes; i++) {
        CHECK(tw_envelope_points(m2, i, &p, &np, &e), "%s: env %zu points: %s", label, i, e.msg);
        sum += np;
        free(p);
      }
      CHECK(m2->envpoints_item >= 0 &&
                sum == m2->df->items[m2->envpoints_item].num_ints / (size_t)m2->point_ints,
            "%s: points item holds exactly the envelopes' points", label);
    }
    {
      long q = find_kind(m2, TW_KIND_QUADS);
      if (q >= 0 && m2->layers[q].count) {
        tw_quad qd;
        CHECK(tw_quad_get(m2, (size_t)q, 0, &qd, &e) && qd.points[4][0] == 4242 && qd.color_env == -1,
              "%s: quad", label);
      }
    }
    CHECK(touch_all(m2, label, 0) == 0, "%s: edited map decodes fully", label);
    if (have_tools) {
      char out[512];
      snprintf(out, sizeof out, "%s/meta.map", tmpdir);
      CHECK(file_write_all(out, o, on) && ddnet_run(tmpdir, "map_resave", out, "meta_resaved.map", NULL) == 0,
            "%s: map_resave reads the edited map", label);
      unlink(out);
      snprintf(out, sizeof out, "%s/meta_resaved.map", tmpdir);
      unlink(out);
    }
    {
      tw_layer_info li;
      size_t l2;
      for (l2 = 0; l2 < m2->num_layers && m2->layers[l2].kind != TW_KIND_TILES; l2++) {
      }
      if (l2 < m2->num_layers) {
        tw_layer_get(m2, l2, &li, &e);
        li.image = (int)m2->num_images;
        CHECK(!tw_layer_set(m2, l2, &li, &e) && strstr(e.msg, "does not exist"), "%s: bad image refused: %s", label,
              e.msg);
        tw_layer_get(m2, l2, &li, &e);
        li.color[3] = 256;
        CHECK(!tw_layer_set(m2, l2, &li, &e) && strstr(e.msg, "0..255"), "%s: bad color refused", label);
      }
    }
  }
  free(o);
  tw_map_free(m2);
  tw_map_free(m);
}

static void test_corpus(void) {
  const char *corpus = check_corpus_dir();
  char dir[1024], path[2048], ref[2048];
  char *names[256];
  size_t nn = 0, i;
  check_loop maps = {0, 0, 0}, damage = {0, 0, 0};
  if (!corpus) {
    SKIP("LEVELSQL_CORPUS unset: corpus tests");
    return;
  }
  {
    int found = ddnet_corpus_maps(corpus, dir, sizeof dir, names, 256);
    if (found < 0) {
      SKIP("%s missing", dir);
      return;
    }
    nn = (size_t)found;
  }
  have_tools = access(DDNET_TOOLS "/map_resave", X_OK) == 0 && access(DDNET_TOOLS "/map_diff", X_OK) == 0;
  if (have_tools) {
    strcpy(tmpdir, "/tmp/levelsql_tw_XXXXXX");
    have_tools = ddnet_workspace_open(tmpdir);
  }
  if (!have_tools) SKIP("map_resave/map_diff not installed: DDNet comparisons");
  for (i = 0; i < nn; i++) {
    size_t n = 0, rn = 0, on = 0, at_parse;
    unsigned char *buf, *r = NULL, *o = NULL;
    tw_map *m = NULL;
    codec_error e;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    buf = file_read_all(path, &n);
    check_loop_enter(&maps);
    maps.inputs++;
    if (!buf) {
      CHECK(0, "read %s", path);
      continue;
    }
    CHECK(tw_map_parse(buf, n, &m, &e), "%s: %s", names[i], e.msg);
    if (!m) {
      free(buf);
      continue;
    }
    CHECK(loaded_blobs(m) == 0, "%s: parsing inflates no blob", names[i]);
    at_parse = tw_map_footprint(m);
    if (m->num_layers > 1) {
      size_t l, before;
      for (l = 0; l < m->num_layers && m->layers[l].kind > TW_KIND_TUNE; l++) {
      }
      if (l < m->num_layers) {
        size_t bytes_before = tw_map_footprint(m);
        before = loaded_blobs(m);
        CHECK(tw_layer_load(m, l, &e) && loaded_blobs(m) == before && m->layers[l].cells &&
                  tw_map_footprint(m) == bytes_before + m->layers[l].cells_size,
              "%s: a decoded layer holds its data once (its cells; the blob stays compressed)", names[i]);
      }
    }
    CHECK(m->file_size == n, "%s: file size", names[i]);
    CHECK(touch_all(m, names[i], 1) == 0, "%s: everything decodes", names[i]);
    /* The cache's shed hook: everything decoded goes, and comes back. */
    CHECK(tw_map_shed(m) == at_parse && loaded_blobs(m) == 0,
          "%s: shedding drops all that was decoded (%zu bytes, %zu at parse)", names[i], tw_map_footprint(m), at_parse);
    CHECK(touch_all(m, names[i], 1) == 0, "%s: everything decodes again after shedding", names[i]);
    decoded_layers_write_kept(buf, n, names[i]);
    if (have_tools) {
      snprintf(ref, sizeof ref, "%s/%s", tmpdir, names[i]);
      CHECK(ddnet_run(tmpdir, "map_resave", path, names[i], NULL) == 0, "map_resave %s", names[i]);
      r = file_read_all(ref, &rn);
      /* Kept blobs (flags 0): test_datafile checks DF_WRITE_RECOMPRESS on
      ** every map already, and recompressing the big ones twice is slow. */
      CHECK(tw_map_serialize(m, n < 200000 ? DF_WRITE_RECOMPRESS : 0, &o, &on, &e), "%s: serialize: %s", names[i],
            e.msg);
      CHECK(r && o && on == rn && memcmp(o, r, rn) == 0, "%s: unchanged map identical to map_resave", names[i]);
      free(o);
      o = NULL;
    }
    /* Re-encoding every tile layer reproduces the file (checked for all
    ** corpus maps once; the big ones are skipped to keep the test fast). */
    if (have_tools && n < 200000) {
      CHECK(redirty_all(m), "%s: re-dirty", names[i]);
      CHECK(tw_map_serialize(m, DF_WRITE_RECOMPRESS, &o, &on, &e), "%s: serialize: %s", names[i], e.msg);
      CHECK(r && o && on == rn && memcmp(o, r, rn) == 0, "%s: re-encoded tile layers identical to map_resave",
            names[i]);
    }
    if (have_tools) unlink(ref);
    check_loop_enter(&damage);
    damage.inputs++;
    corrupt_map(names[i], buf, n);
    check_loop_leave();
    if (strcmp(names[i], "v06_dm1.map") == 0) {
      tile_edit(path, buf, n, TW_KIND_GAME, "v06_dm1 game");
      tile_edit(path, buf, n, TW_KIND_TILES, "v06_dm1 tiles");
      meta_edits(buf, n, "v06_dm1 meta");
    }
    if (strcmp(names[i], "v07_dm1.map") == 0) {
      tile_edit(path, buf, n, TW_KIND_TILES, "v07_dm1 tiles (skip)");
      tile_edit(path, buf, n, TW_KIND_GAME, "v07_dm1 game (skip)");
      meta_edits(buf, n, "v07_dm1 meta");
    }
    if (strcmp(names[i], "ddnet_coverage.map") == 0) {
      tw_kind k;
      for (k = TW_KIND_GAME; k <= TW_KIND_TUNE; k++)
        if (find_kind(m, k) >= 0) tile_edit(path, buf, n, k, tw_kind_name(k));
      meta_edits(buf, n, "coverage meta");
    }
    if (strcmp(names[i], "ddnethist_dm8_2009_legacyhdr.map") == 0) meta_edits(buf, n, "dm8 2009 meta");
    free(o);
    free(r);
    tw_map_free(m);
    free(buf);
    free(names[i]);
  }
  check_loop_leave();
  check_loop_done(&maps, "every corpus map: parsed lazily, every cell and quad decodes%s",
                  have_tools ? ", written as map_resave writes it" : "");
  check_loop_done(&damage, "truncations and flipped bytes of every corpus map");
  if (have_tools) ddnet_workspace_close(tmpdir);
}

/* ---- synthetic maps ------------------------------------------------------------- */

/* Encodes s as an I32String into n ints. */
static void str_ints(int32_t *o, size_t n, const char *s) {
  size_t i, idx = 0, len = strlen(s);
  for (i = 0; i < n; i++) {
    unsigned char b[4] = {0, 0, 0, 0};
    int c;
    for (c = 0; c < 4 && idx < len; c++) b[c] = (unsigned char)s[idx++];
    o[i] = (int32_t)(((uint32_t)(unsigned char)(b[0] + 128) << 24) | ((uint32_t)(unsigned char)(b[1] + 128) << 16) |
                     ((uint32_t)(unsigned char)(b[2] + 128) << 8) | (uint32_t)(unsigned char)(b[3] + 128));
  }
  o[n - 1] = (int32_t)((uint32_t)o[n - 1] & 0xFFFFFF00u);
}

/* A map with what the corpus lacks: a 2010-style 20-int game layer with a
** tele index at 15, a 15-int tiles layer, a 22-int layer, 0.7 envelopes with
** 22-int bezier points, a deprecated sound layer, an unknown layer type. */
static void test_synthetic(void) {
  datafile *df = df_new();
  int32_t ver[1] = {1};
  int32_t grp[7] = {1, 0, 0, 100, 100, 0, 6};
  int32_t l15[15] = {0, 2, 0, 2, 3, 2, 0, 255, 255, 255, 255, -1, 0, -1, 0};
  int32_t l20[20] = {0, 2, 0, 2, 3, 2, 1, 255, 255, 255, 255, -1, 0, -1, 1, -1, -1, -1, -1, -1};
  int32_t l20t[20] = {0, 2, 0, 2, 3, 2, 2, 255, 255, 255, 255, -1, 0, -1, 1, 2, -1, -1, -1, -1};
  int32_t l22[22] = {0, 2, 0, 3, 3, 2, 0, 255, 255, 255, 255, -1, 0, -1, 0, 0, 0, 0, -1, -1, -1, -1};
  int32_t snd[10] = {0, 9, 0, 1, 1, 3, -1, 0, 0, 0};
  int32_t unk[4] = {0, 77, 0, 5};
  int32_t env[13] = {3, 4, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  int32_t env2[13] = {3, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  int32_t pts[66];
  unsigned char tiles[24], tele[12], src[36];
  unsigned char *o = NULL;
  size_t on, k;
  tw_map *m = NULL;
  codec_error e;
  memset(tiles, 0, sizeof tiles);
  memset(tele, 0, sizeof tele);
  memset(src, 0, sizeof src);
  for (k = 0; k < 6; k++) tiles[k * 4] = (unsigned char)(k + 1);
  tele[2 * 4] = 5; /* cell 4: number 5 */
  tele[2 * 4 + 1] = 26;
  for (k = 0; k < 66; k++) pts[k] = (int32_t)k;
  str_ints(l22 + 15, 3, "Twenty2");
  str_ints(env + 4, 8, "bezier env");
  df_item_add(df, 0, 0, ver, 1);
  df_item_add(df, 4, 0, grp, 7);
  df_item_add(df, 5, 0, l15, 15);
  df_item_add(df, 5, 1, l20, 20);
  df_item_add(df, 5, 2, l20t, 20);
  df_item_add(df, 5, 3, l22, 22);
  df_item_add(df, 5, 4, snd, 10);
  df_item_add(df, 5, 5, unk, 4);
  df_item_add(df, 3, 0, env, 13);
  df_item_add(df, 3, 1, env2, 13);
  df_item_add(df, 6, 0, pts, 66);
  df_data_add(df, tiles, sizeof tiles);
  df_data_add(df, tiles, sizeof tiles); /* 1: zeroed game tiles stand-in */
  df_data_add(df, tele, sizeof tele);
  df_data_add(df, src, sizeof src);
  CHECK(df_write(df, 0, &o, &on, &e), "synthetic write: %s", e.msg);
  df_free(df);
  CHECK(o && tw_map_parse(o, on, &m, &e), "synthetic parse: %s", e.msg);
  if (m) {
    tw_tile t;
    tw_layer_info li;
    tw_env_point *p = NULL;
    size_t np = 0;
    tw_envelope_info en;
    unsigned char *o2 = NULL;
    size_t on2;
    CHECK(m->num_layers == 6 && m->style == TW_STYLE_07, "6 layers, 0.7 style (envelope v3): %s",
          tw_style_name(m->style));
    CHECK(m->layers[0].kind == TW_KIND_TILES && m->layers[1].kind == TW_KIND_GAME &&
              m->layers[2].kind == TW_KIND_TELE && m->layers[3].kind == TW_KIND_TILES &&
              m->layers[4].kind == TW_KIND_SOUNDS_DEPRECATED && m->layers[5].kind == TW_KIND_UNKNOWN,
          "kinds");
    CHECK(tw_tile_get(m, 0, 2, 1, &t, &e) && t.id == 6, "15-int tiles cell: %d", t.id);
    CHECK(tw_tile_get(m, 2, 1, 1, &t, &e) && t.number == 5 && t.id == 26, "20-int tele via index 15: %d %d",
          t.number, t.id);
    CHECK(tw_layer_get(m, 3, &li, &e) && strcmp(li.name, "Twenty2") == 0, "22-int name %s", li.name);
    CHECK(tw_layer_get(m, 4, &li, &e) && li.num_sources == 1, "deprecated sounds");
    CHECK(!tw_layer_load(m, 5, &e) && strstr(e.msg, "unknown layer type"), "unknown layer: %s", e.msg);
    CHECK(m->point_ints == 22, "22-int points");
    CHECK(tw_envelope_get(m, 0, &en, &e) && strcmp(en.name, "bezier env") == 0 && en.synchronized == 1 &&
              strcmp(en.kind.p, "color") == 0, "env 0");
    CHECK(tw_envelope_points(m, 0, &p, &np, &e) && np == 2 && p[1].time == 22 && p[1].bezier[15] == 43,
          "bezier point values");
    free(p);
    /* a name on a 20-int v2 tilemap would shift the DDNet indices: refused */
    tw_layer_get(m, 2, &li, &e);
    strcpy(li.name, "x");
    CHECK(!tw_layer_set(m, 2, &li, &e), "name on 20-int v2 tilemap refused");
    t.number = 9;
    t.id = 27;
    CHECK(tw_tile_set(m, 2, 0, 0, &t, &e), "tele set");
    {
      tw_env_point one[1];
      memset(one, 0, sizeof one);
      one[0].time = 7;
      one[0].bezier[3] = 99;
      CHECK(tw_envelope_set_points(m, 0, one, 1, &e), "set points");
    }
    CHECK(tw_map_serialize(m, 0, &o2, &on2, &e), "serialize: %s", e.msg);
    tw_map_free(m);
    m = NULL;
    CHECK(o2 && tw_map_parse(o2, on2, &m, &e), "reparse: %s", e.msg);
    if (m) {
      CHECK(tw_tile_get(m, 2, 0, 0, &t, &e) && t.number == 9 && t.id == 27, "tele edit kept");
      CHECK(tw_envelope_points(m, 0, &p, &np, &e) && np == 1 && p[0].bezier[3] == 99, "bezier edit kept");
      free(p);
      CHECK(tw_envelope_get(m, 1, &en, &e) && en.start_point == 1 && en.num_points == 1, "env 1 shifted to %d",
            en.start_point);
      CHECK(tw_envelope_points(m, 1, &p, &np, &e) && np == 1 && p[0].time == 44, "env 1 points moved with it");
      free(p);
    }
    free(o2);
  }
  tw_map_free(m);
  free(o);
}

/* Bad layer items and blobs: errors naming the item, never a crash. */
static void test_bad_layers(void) {
  datafile *df = df_new();
  int32_t grp[7] = {1, 0, 0, 100, 100, 0, 3};
  int32_t short_tm[10] = {0, 2, 0, 2, 3, 2, 0, 255, 255, 255};
  int32_t l_big[15] = {0, 2, 0, 2, 100000, 100000, 0, 255, 255, 255, 255, -1, 0, -1, 0};
  int32_t l_bad[15] = {0, 2, 0, 2, 3, 2, 0, 255, 255, 255, 255, -1, 0, -1, 0};
  int32_t l_skip[15] = {0, 2, 0, 4, 3, 2, 0, 255, 255, 255, 255, -1, 0, -1, 0};
  unsigned char small[8] = {1, 0, 0, 0, 2, 0, 200, 0};
  unsigned char *o = NULL;
  size_t on;
  tw_map *m = NULL;
  codec_error e;
  df_item_add(df, 4, 0, grp, 7);
  df_item_add(df, 5, 0, short_tm, 10);
  CHECK(df_write(df, 0, &o, &on, &e), "write");
  CHECK(!tw_map_parse(o, on, &m, &e) && strstr(e.msg, "item type 5 id 0") && strstr(e.msg, "at least 15"),
        "short tilemap: %s", e.msg);
  free(o);
  df_free(df);
  df = df_new();
  df_item_add(df, 5, 0, l_big, 15);
  CHECK(df_write(df, 0, &o, &on, &e), "write");
  CHECK(!tw_map_parse(o, on, &m, &e) && strstr(e.msg, "bad tilemap size"), "huge tilemap: %s", e.msg);
  free(o);
  df_free(df);
  df = df_new();
  df_item_add(df, 5, 0, l_bad, 15);
  df_item_add(df, 5, 1, l_skip, 15);
  df_data_add(df, small, sizeof small);
  CHECK(df_write(df, 0, &o, &on, &e), "write");
  CHECK(tw_map_parse(o, on, &m, &e), "parse: %s", e.msg);
  if (m) {
    tw_tile t;
    CHECK(!tw_tile_get(m, 0, 0, 0, &t, &e) && strstr(e.msg, "data 0") && strstr(e.msg, "need 24"),
          "mis-sized blob: %s", e.msg);
    CHECK(!tw_tile_get(m, 1, 0, 0, &t, &e) && strstr(e.msg, "skip"), "skip run overflow: %s", e.msg);
    CHECK(!tw_tile_get(m, 0, 5, 0, &t, &e) && strstr(e.msg, "outside"), "cell out of range: %s", e.msg);
  }
  tw_map_free(m);
  free(o);
  df_free(df);
  /* Regression (fuzz_twmap): an envelope range near INT_MAX overflowed
  ** while formatting the error message. */
  {
    int32_t env[13] = {2, 4, 2017250521, 1812825525, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    int32_t pts[6] = {0, 1, 2, 3, 4, 5};
    tw_env_point *p = NULL;
    size_t np;
    df = df_new();
    m = NULL;
    df_item_add(df, 3, 0, env, 13);
    df_item_add(df, 6, 0, pts, 6);
    CHECK(df_write(df, 0, &o, &on, &e), "write");
    CHECK(tw_map_parse(o, on, &m, &e), "parse: %s", e.msg);
    CHECK(m && !tw_envelope_points(m, 0, &p, &np, &e) && strstr(e.msg, "envelope 0"), "huge range: %s", e.msg);
    free(p);
    tw_map_free(m);
    free(o);
    df_free(df);
  }
}

int main(void) {
  test_synthetic();
  test_bad_layers();
  test_corpus();
  return check_done();
}
