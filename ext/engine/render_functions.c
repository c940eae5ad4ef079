/*
** render_functions.c: the preview functions, pictures of levels as BLOBs
** and text (codecs/render_*.h draw them):
**
**   tw_render(file [, options])           PNG of a Teeworlds / DDNet map
**   wwd_render(file, plane [, options])   PNG of a WWD plane's collision map
**   wed_render(file [, options])          SVG (or PNG) of a WED area's geometry
**   wz4_render(file, page)                SVG of a werkkzeug4 page's operators
**   tw_resave(file)                       the map's bytes as DDNet's map_resave writes them
**
**   SELECT writefile(file || '.png', tw_render(file)) FROM tw_maps('maps');
**
** The file is read through the connection's session (session.h), like the
** tables read it: from the cache when it is unchanged on disk, and as the
** open transaction's working copy when the transaction changed it, so a
** render right after an UPDATE shows the UPDATE.  Options are `key=value`
** separated by commas, semicolons or spaces, as the tables' options; a list
** of numbers is separated by '|' ('layers=3|4').  Every error names the
** function, the file and what is wrong.  The functions are DIRECTONLY, as
** the tables are: views and triggers of a database cannot reach files.
*/
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tw/render_tw.h"
#include "wed/render_wed.h"
#include "wwd/render_wwd.h"
#include "wz4/render_wz4.h"
#include "engine/render_functions.h"
#include "engine/session.h"
#include "tw/tw_model.h"
#include "tw/tw_tables.h"
#include "wed/wed_tables.h"
#include "wwd/wwd_tables.h"
#include "wz4/wz4_tables.h"

/* The largest list an option takes (groups, layers). */
#define LIST_MAX 256
/* The largest mapres image file read (a 16384 x 1024 PNG is far smaller). */
#define MAPRES_FILE_MAX (64 * 1024 * 1024)

/* ---- errors --------------------------------------------------------------- */

/* Fails the call with "<fn>: <message>" (printf-style). */
static void render_error(sqlite3_context *ctx, const char *fn, const char *fmt, ...) {
  va_list ap;
  char *what, *msg;
  va_start(ap, fmt);
  what = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  msg = what ? sqlite3_mprintf("%s: %s", fn, what) : NULL;
  if (msg) sqlite3_result_error(ctx, msg, -1);
  else sqlite3_result_error_nomem(ctx);
  sqlite3_free(msg);
  sqlite3_free(what);
}

/* A codec's failure as the call's error, naming the file. */
static void codec_result_error(sqlite3_context *ctx, const char *fn, const char *path, const codec_error *e) {
  if (e->code == CODEC_E_MEMORY) sqlite3_result_error_nomem(ctx);
  else if (e->code == CODEC_E_INTERRUPT) sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
  else render_error(ctx, fn, "%s: %s", path, e->msg[0] ? e->msg : "cannot render");
}

/* ---- options ---------------------------------------------------------------- */

/* One option a function takes: its name, what it takes (for messages) and
** where its value goes.  Kinds: an integer in [lo, hi], a 0/1 flag, a
** '|'-separated list of integers, a colour, a real number in (0, hi], a
** text. */
typedef enum opt_kind { OPT_INT, OPT_FLAG, OPT_LIST, OPT_COLOR, OPT_REAL, OPT_TEXT } opt_kind;

typedef struct render_option {
  const char *name;
  opt_kind kind;
  int64_t lo, hi;
  void *dest;       /* int*, int*, long[LIST_MAX] (count in *count), canvas_color*, double*, char ** */
  size_t *count;
} render_option;

/* Parses one value into o->dest; returns 0 with *err. */
static int option_value(const render_option *o, const char *v, char **err) {
  char *end;
  switch (o->kind) {
    case OPT_INT:
    case OPT_FLAG: {
      long long n;
      errno = 0;
      n = strtoll(v, &end, 10);
      if (!*v || *end || errno || n < o->lo || n > o->hi) {
        *err = o->kind == OPT_FLAG ? sqlite3_mprintf("option %s takes 0 or 1, not '%s'", o->name, v)
                                   : sqlite3_mprintf("option %s takes an integer from %lld to %lld, not '%s'", o->name,
                                                     (long long)o->lo, (long long)o->hi, v);
        return 0;
      }
      *(int *)o->dest = (int)n;
      return 1;
    }
    case OPT_LIST: {
      long *list = o->dest;
      const char *p = v;
      *o->count = 0;
      for (;;) {
        long long n;
        errno = 0;
        n = strtoll(p, &end, 10);
        if (end == p || errno || n < o->lo || n > o->hi || (*end && *end != '|') || *o->count >= LIST_MAX) {
          *err = sqlite3_mprintf("option %s takes indices from %lld to %lld separated by '|' (at most %d), e.g. %s=0|2;"
                                 " not '%s'", o->name, (long long)o->lo, (long long)o->hi, LIST_MAX, o->name, v);
          return 0;
        }
        list[(*o->count)++] = (long)n;
        if (!*end) return 1;
        p = end + 1;
      }
    }
    case OPT_COLOR:
      if (!canvas_color_parse(v, o->dest)) {
        *err = sqlite3_mprintf("option %s takes a colour RRGGBB or RRGGBBAA in hex, or none; not '%s'", o->name, v);
        return 0;
      }
      return 1;
    case OPT_REAL: {
      double d = strtod(v, &end);
      if (!*v || *end || !(d > 0 && d <= (double)o->hi)) {
        *err = sqlite3_mprintf("option %s takes a number above 0 and at most %lld, not '%s'", o->name, (long long)o->hi, v);
        return 0;
      }
      *(double *)o->dest = d;
      return 1;
    }
    case OPT_TEXT:
      if (!(*(char **)o->dest = sqlite3_mprintf("%s", v))) {
        *err = sqlite3_mprintf("out of memory");
        return 0;
      }
      return 1;
  }
  return 0;
}

/* Parses "key=value, key=value" (commas, semicolons or spaces between)
** into the options of opts[0..n).  Returns 1, or 0 after failing the call
** with what is wrong (an unknown key lists the known ones). */
static int parse_options(sqlite3_context *ctx, const char *fn, sqlite3_value *arg, const render_option *opts, size_t n) {
  const char *p;
  if (!arg || sqlite3_value_type(arg) == SQLITE_NULL) return 1;
  p = (const char *)sqlite3_value_text(arg);
  while (p && *p) {
    const char *end, *eq;
    char *key, *value, *err = NULL;
    size_t i;
    int ok = 0;
    while (*p == ',' || *p == ';' || *p == ' ' || *p == '\t') p++;
    if (!*p) break;
    end = p + strcspn(p, ",; \t");
    eq = memchr(p, '=', (size_t)(end - p));
    if (!eq) {
      render_error(ctx, fn, "option '%.*s' is not of the form key=value", (int)(end - p), p);
      return 0;
    }
    key = sqlite3_mprintf("%.*s", (int)(eq - p), p);
    value = sqlite3_mprintf("%.*s", (int)(end - eq - 1), eq + 1);
    for (i = 0; key && value && i < n; i++) {
      if (sqlite3_stricmp(opts[i].name, key) == 0) break;
    }
    if (!key || !value) {
      sqlite3_result_error_nomem(ctx);
    } else if (i == n) {
      sqlite3_str *known = sqlite3_str_new(NULL);
      size_t k;
      char *list;
      for (k = 0; k < n; k++) sqlite3_str_appendf(known, "%s%s", k ? ", " : "", opts[k].name);
      list = sqlite3_str_finish(known);
      render_error(ctx, fn, "unknown option '%s' (known: %s)", key, list ? list : "");
      sqlite3_free(list);
    } else if (!option_value(&opts[i], value, &err)) {
      render_error(ctx, fn, "%s", err ? err : "out of memory");
    } else {
      ok = 1;
    }
    sqlite3_free(err);
    sqlite3_free(key);
    sqlite3_free(value);
    if (!ok) return 0;
    p = end;
  }
  return 1;
}

/* ---- the file's model --------------------------------------------------------- */

/* A file loaded for a render: the model the transaction sees, held (a
** reference) until render_file_done. */
typedef struct render_file {
  const char *path;
  ls_model *model;
} render_file;

/* Loads the file named by arg with format fmt through the session.
** Returns 1, or 0 after failing the call. */
static int render_file_open(sqlite3_context *ctx, const char *fn, sqlite3_value *arg, const ls_format *fmt,
                            render_file *rf) {
  ls_session *s = sqlite3_user_data(ctx);
  ls_file *f = NULL;
  char *err = NULL;
  int rc;
  rf->model = NULL;
  rf->path = (const char *)sqlite3_value_text(arg);
  if (sqlite3_value_type(arg) != SQLITE_TEXT || !rf->path || !*rf->path) {
    render_error(ctx, fn, "the first argument is the file's path (text), e.g. %s('maps/dm1.map')", fn);
    return 0;
  }
  rc = ls_session_load(s, rf->path, fmt, &f, &err);
  if (rc != SQLITE_OK) {
    if (rc == SQLITE_NOMEM && !err) sqlite3_result_error_nomem(ctx);
    else if (rc == SQLITE_INTERRUPT) sqlite3_result_error_code(ctx, SQLITE_INTERRUPT); /* its parse was stopped */
    else render_error(ctx, fn, "%s", err ? err : "cannot read the file");
    sqlite3_free(err);
    return 0;
  }
  if (!f || !(rf->model = ls_file_current(f))) {
    render_error(ctx, fn, "%s: cannot read the file", rf->path);
    return 0;
  }
  if (rf->model->fmt != fmt) {
    render_error(ctx, fn, "%s: not a %s file", rf->path, fmt->name);
    rf->model = NULL;
    return 0;
  }
  ls_model_ref(rf->model);
  return 1;
}

static void render_file_done(render_file *rf) {
  if (rf->model) ls_model_unref(rf->model);
  rf->model = NULL;
}

/* The codec's model inside a table family's model: WWD and WED tables
** hold the codec's struct itself; the Teeworlds and werkkzeug4 tables wrap
** it, and their families say where it is. */
#define TW_MAP_OF(model) tw_model_map((model)->p)
#define WZ4_DOC_OF(model) wz4_model_doc((model)->p)

/* Sets a malloc'd buffer as the result (blob or text), taking it. */
static void result_take(sqlite3_context *ctx, unsigned char *data, size_t n, int text) {
  if (text) sqlite3_result_text64(ctx, (const char *)data, n, free, SQLITE_UTF8);
  else sqlite3_result_blob64(ctx, data, n, free);
}

/* ---- tw_render ------------------------------------------------------------------ */

/* mapres=FOLDER: an external image NAME is FOLDER/NAME.png.  Names that
** could leave the folder (a '/', a '\', a leading '.') or hold a NUL are
** not looked up; a missing file leaves the image in one colour; a file
** that is not a PNG libpng reads fails the render. */
static int mapres_load(void *ctx, const char *name, size_t len, canvas *out, codec_error *err) {
  const char *folder = ctx;
  char *path;
  FILE *fp;
  unsigned char *data;
  long size;
  int ok;
  if (!len || name[0] == '.' || memchr(name, '/', len) || memchr(name, '\\', len) || memchr(name, 0, len)) return 0;
  if (!(path = sqlite3_mprintf("%s/%.*s.png", folder, (int)len, name))) return codec_fail_oom(err, "out of memory"), -1;
  fp = fopen(path, "rb");
  if (!fp) {
    int missing = errno == ENOENT;
    if (!missing) codec_fail(err, "%s: cannot open: %s", path, strerror(errno));
    sqlite3_free(path);
    return missing ? 0 : -1;
  }
  if (fseek(fp, 0, SEEK_END) != 0 || (size = ftell(fp)) < 0 || size > MAPRES_FILE_MAX || fseek(fp, 0, SEEK_SET) != 0) {
    codec_fail_limit(err, "%s: cannot read, or larger than %d bytes", path, MAPRES_FILE_MAX);
    fclose(fp);
    sqlite3_free(path);
    return -1;
  }
  data = malloc(size ? (size_t)size : 1);
  if (!data || fread(data, 1, (size_t)size, fp) != (size_t)size) {
    if (data) codec_fail(err, "%s: cannot read", path);
    else codec_fail_oom(err, "out of memory");
    free(data);
    fclose(fp);
    sqlite3_free(path);
    return -1;
  }
  fclose(fp);
  ok = canvas_png_decode(data, (size_t)size, out, err);
  if (!ok) codec_prefix(err, "%s: ", path);
  free(data);
  sqlite3_free(path);
  return ok ? 1 : -1;
}

/* tw_render(file [, options]): a PNG of the map (render_tw.h).  Options:
** tile=N (pixels per tile, 1..64; default: the largest with which the
** longer side fits 2048), entities=0|1 (the physics layers on top; 1),
** detail=0|1 (1), quads=0|1 (1), groups=I|J, layers=I|J (tw_layers'
** grp and layer_index; default all), mapres=FOLDER (external images from
** FOLDER/NAME.png; default none: one colour each), background=RRGGBB[AA]
** (default none, transparent). */
static void tw_render_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  static const char fn[] = "tw_render";
  tw_render_opts o;
  long groups[LIST_MAX], layers[LIST_MAX];
  size_t ngroups = 0, nlayers = 0;
  char *mapres = NULL;
  int have_groups, have_layers;
  ls_interrupt ic;
  codec_cancel cancel;
  render_option opts[] = {
    {"tile", OPT_INT, 1, 64, &o.tile, NULL},         {"entities", OPT_FLAG, 0, 1, &o.entities, NULL},
    {"detail", OPT_FLAG, 0, 1, &o.detail, NULL},     {"quads", OPT_FLAG, 0, 1, &o.quads, NULL},
    {"groups", OPT_LIST, 0, 1 << 20, groups, &ngroups}, {"layers", OPT_LIST, 0, 1 << 20, layers, &nlayers},
    {"mapres", OPT_TEXT, 0, 0, &mapres, NULL},       {"background", OPT_COLOR, 0, 0, &o.background, NULL},
  };
  render_file rf;
  codec_error err = {{0}, 0};
  unsigned char *png = NULL;
  size_t n = 0;
  struct stat st;
  tw_render_defaults(&o);
  if (!parse_options(ctx, fn, argc > 1 ? argv[1] : NULL, opts, sizeof opts / sizeof opts[0])) goto done;
  if (mapres && (stat(mapres, &st) != 0 || !S_ISDIR(st.st_mode))) {
    render_error(ctx, fn, "option mapres: '%s' is not a folder", mapres);
    goto done;
  }
  have_groups = ngroups > 0, have_layers = nlayers > 0;
  o.groups = have_groups ? groups : NULL, o.ngroups = ngroups;
  o.layers = have_layers ? layers : NULL, o.nlayers = nlayers;
  o.external = mapres ? mapres_load : NULL;
  o.external_ctx = mapres;
  if (!render_file_open(ctx, fn, argv[0], &tw_format, &rf)) goto done;
  ls_interrupt_init(&ic, sqlite3_context_db_handle(ctx));
  cancel = ls_interrupt_cancel(&ic);
  o.cancel = &cancel;
  if (tw_render_png(TW_MAP_OF(rf.model), &o, &png, &n, &err)) result_take(ctx, png, n, 0);
  else codec_result_error(ctx, fn, rf.path, &err);
  ls_interrupt_done(&ic);
  render_file_done(&rf);
done:
  sqlite3_free(mapres);
}

/* ---- tw_resave ------------------------------------------------------------------ */

/* tw_resave(file): the bytes DDNet's map_resave writes for the map as the
** transaction sees it (every blob inflated and compressed again with zlib
** level 6), as a BLOB; the file on disk is not touched.  Writes through the
** tables keep unchanged blobs as read, so this is how to get a map whose
** bytes match map_resave's:  SELECT writefile(file, tw_resave(file)) ...
** The map is copied first: recompressing inflates every blob, which must
** not stay in the session's cached model. */
static void tw_resave_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  static const char fn[] = "tw_resave";
  render_file rf;
  codec_error err = {{0}, 0};
  unsigned char *out = NULL;
  size_t n = 0;
  tw_map *copy;
  (void)argc;
  if (!render_file_open(ctx, fn, argv[0], &tw_format, &rf)) return;
  if (!(copy = tw_map_clone(TW_MAP_OF(rf.model)))) sqlite3_result_error_nomem(ctx);
  else if (tw_map_serialize(copy, DF_WRITE_RECOMPRESS, &out, &n, &err)) result_take(ctx, out, n, 0);
  else codec_result_error(ctx, fn, rf.path, &err);
  tw_map_free(copy);
  render_file_done(&rf);
}

/* ---- wwd_render ----------------------------------------------------------------- */

/* The plane an argument names: its number, or its name (ASCII, any case).
** Returns 1 and *plane, or 0 after failing the call. */
static int find_plane(sqlite3_context *ctx, const char *fn, const char *path, const wwd_level *lvl, sqlite3_value *arg,
                      uint32_t *plane) {
  uint32_t i;
  if (sqlite3_value_type(arg) == SQLITE_INTEGER) {
    sqlite3_int64 v = sqlite3_value_int64(arg);
    if (v >= 0 && v < lvl->num_planes) {
      *plane = (uint32_t)v;
      return 1;
    }
    render_error(ctx, fn, "%s: no plane %lld (the level has %u: 0 to %u)", path, (long long)v, lvl->num_planes,
                 lvl->num_planes ? lvl->num_planes - 1 : 0);
    return 0;
  }
  if (sqlite3_value_type(arg) == SQLITE_TEXT) {
    const char *name = (const char *)sqlite3_value_text(arg);
    for (i = 0; name && i < lvl->num_planes; i++) {
      const unsigned char *pn;
      size_t len = wwd_fixed_string(lvl->planes[i].header + WWD_PLANE_NAME, 64, &pn);
      if (len == strlen(name) && sqlite3_strnicmp((const char *)pn, name, (int)len) == 0) {
        *plane = i;
        return 1;
      }
    }
    render_error(ctx, fn, "%s: no plane named '%s'", path, name ? name : "");
    return 0;
  }
  render_error(ctx, fn, "the plane is a plane number (wwd_planes.plane) or a plane name, e.g. wwd_render(file, 1)");
  return 0;
}

/* wwd_render(file, plane [, options]): a PNG of the plane's collision map
** (render_wwd.h).  Options: tile=N (pixels per tile, 1..64; default: the
** largest with which the longer side fits 2048), objects=0|1 (markers; 1),
** background=RRGGBB[AA] (default none). */
static void wwd_render_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  static const char fn[] = "wwd_render";
  wwd_render_opts o;
  render_option opts[] = {
    {"tile", OPT_INT, 1, 64, &o.tile, NULL},
    {"objects", OPT_FLAG, 0, 1, &o.objects, NULL},
    {"background", OPT_COLOR, 0, 0, &o.background, NULL},
  };
  render_file rf;
  codec_error err = {{0}, 0};
  unsigned char *png = NULL;
  size_t n = 0;
  uint32_t plane;
  ls_interrupt ic;
  codec_cancel cancel;
  wwd_render_defaults(&o);
  if (!parse_options(ctx, fn, argc > 2 ? argv[2] : NULL, opts, sizeof opts / sizeof opts[0])) return;
  if (!render_file_open(ctx, fn, argv[0], &wwd_format, &rf)) return;
  ls_interrupt_init(&ic, sqlite3_context_db_handle(ctx));
  cancel = ls_interrupt_cancel(&ic);
  o.cancel = &cancel;
  if (find_plane(ctx, fn, rf.path, rf.model->p, argv[1], &plane)) {
    if (wwd_render_png(rf.model->p, plane, &o, &png, &n, &err)) result_take(ctx, png, n, 0);
    else codec_result_error(ctx, fn, rf.path, &err);
  }
  ls_interrupt_done(&ic);
  render_file_done(&rf);
}

/* ---- wed_render ------------------------------------------------------------------ */

/* wed_render(file [, options]): SVG text of the area (render_wed.h), or a
** PNG with format=png.  Options: format=svg|png (svg), grid=0|1, doors=0|1,
** walls=0|1 (all 1), and for PNG scale=X (pixels per area pixel, up to 4;
** default: fits 2048, at most 1) and background=RRGGBB[AA] (none). */
static void wed_render_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  static const char fn[] = "wed_render";
  wed_render_opts o;
  char *format = NULL;
  render_option opts[] = {
    {"format", OPT_TEXT, 0, 0, &format, NULL},     {"grid", OPT_FLAG, 0, 1, &o.grid, NULL},
    {"doors", OPT_FLAG, 0, 1, &o.doors, NULL},     {"walls", OPT_FLAG, 0, 1, &o.walls, NULL},
    {"scale", OPT_REAL, 0, 4, &o.scale, NULL},     {"background", OPT_COLOR, 0, 0, &o.background, NULL},
  };
  render_file rf;
  codec_error err = {{0}, 0};
  unsigned char *out = NULL;
  size_t n = 0;
  int png = 0, ok;
  wed_render_defaults(&o);
  if (!parse_options(ctx, fn, argc > 1 ? argv[1] : NULL, opts, sizeof opts / sizeof opts[0])) goto done;
  if (format && sqlite3_stricmp(format, "png") != 0 && sqlite3_stricmp(format, "svg") != 0) {
    render_error(ctx, fn, "option format takes svg (the default) or png, not '%s'", format);
    goto done;
  }
  png = format && sqlite3_stricmp(format, "png") == 0;
  if (!render_file_open(ctx, fn, argv[0], &wed_format, &rf)) goto done;
  ok = png ? wed_render_png(rf.model->p, &o, &out, &n, &err) : wed_render_svg(rf.model->p, &o, (char **)&out, &n, &err);
  if (ok) result_take(ctx, out, n, !png);
  else codec_result_error(ctx, fn, rf.path, &err);
  render_file_done(&rf);
done:
  sqlite3_free(format);
}

/* ---- wz4_render ------------------------------------------------------------------ */

/* wz4_render(file, page): SVG text of the page's operators and links
** (render_wz4.h); page is a number (wz4_pages.page) or a page name. */
static void wz4_render_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  static const char fn[] = "wz4_render";
  render_file rf;
  codec_error err = {{0}, 0};
  char *svg = NULL;
  size_t n = 0;
  const wz4_doc *doc;
  int64_t page = -1;
  (void)argc;
  if (!render_file_open(ctx, fn, argv[0], &wz4_format, &rf)) return;
  doc = WZ4_DOC_OF(rf.model);
  if (sqlite3_value_type(argv[1]) == SQLITE_INTEGER) {
    page = sqlite3_value_int64(argv[1]);
    if (page < 0 || page >= doc->num_pages) {
      render_error(ctx, fn, "%s: no page %lld (the project has %u)", rf.path, (long long)page, doc->num_pages);
      page = -2;
    }
  } else if (sqlite3_value_type(argv[1]) == SQLITE_TEXT) {
    const char *name = (const char *)sqlite3_value_text(argv[1]);
    uint32_t i;
    for (i = 0; name && i < doc->num_pages && page < 0; i++) {
      if (doc->pages[i].name.len == strlen(name) && memcmp(wz4_str_text(&doc->pages[i].name), name, strlen(name)) == 0) page = i;
    }
    if (page < 0) render_error(ctx, fn, "%s: no page named '%s'", rf.path, name ? name : ""), page = -2;
  } else {
    render_error(ctx, fn, "the page is a page number (wz4_pages.page) or a page name, e.g. wz4_render(file, 0)");
    page = -2;
  }
  if (page >= 0) {
    if (wz4_render_svg(doc, (uint32_t)page, &svg, &n, &err)) result_take(ctx, (unsigned char *)svg, n, 1);
    else codec_result_error(ctx, fn, rf.path, &err);
  }
  render_file_done(&rf);
}

/* ---- registration ----------------------------------------------------------------- */

static void session_unref(void *p) {
  ls_session_release(p);
}

int render_functions_register(sqlite3 *db, ls_session *sess) {
  static const struct {
    const char *name;
    int nmin, nmax;
    void (*fn)(sqlite3_context *, int, sqlite3_value **);
  } fns[] = {
    {"tw_render", 1, 2, tw_render_func},
    {"tw_resave", 1, 1, tw_resave_func},
    {"wwd_render", 2, 3, wwd_render_func},
    {"wed_render", 1, 2, wed_render_func},
    {"wz4_render", 2, 2, wz4_render_func},
  };
  size_t i;
  int rc = SQLITE_OK, n;
  for (i = 0; rc == SQLITE_OK && i < sizeof fns / sizeof fns[0]; i++) {
    for (n = fns[i].nmin; rc == SQLITE_OK && n <= fns[i].nmax; n++) {
      sess->refs++;
      rc = sqlite3_create_function_v2(db, fns[i].name, n, SQLITE_UTF8 | SQLITE_DIRECTONLY, sess, fns[i].fn, NULL, NULL,
                                      session_unref);
    }
  }
  return rc;
}
