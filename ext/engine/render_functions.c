/*
** render_functions.c: what the preview functions of every family share
** (engine.h, "SQL functions that read files"): their errors, their
** options, loading the file through the session, the result, and the
** registration.  The functions themselves sit with their family
** (ext/tw/tw_render.c, ext/wwd/wwd_render.c, ext/wed/wed_render.c,
** ext/wz4/wz4_render.c; codecs/<family>/render_*.h draw the pictures):
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

#include "common/canvas.h"
#include "engine/engine.h"
#include "engine/session.h"

/* ---- errors --------------------------------------------------------------- */

/* Fails the call with "<fn>: <message>" (printf-style). */
void render_error(sqlite3_context *ctx, const char *fn, const char *fmt, ...) {
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
void codec_result_error(sqlite3_context *ctx, const char *fn, const char *path, const codec_error *e) {
  if (e->code == CODEC_E_MEMORY) sqlite3_result_error_nomem(ctx);
  else if (e->code == CODEC_E_INTERRUPT) sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
  else render_error(ctx, fn, "%s: %s", path, e->msg[0] ? e->msg : "cannot render");
}

/* ---- options ---------------------------------------------------------------- */

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
        if (end == p || errno || n < o->lo || n > o->hi || (*end && *end != '|') || *o->count >= RENDER_LIST_MAX) {
          *err = sqlite3_mprintf("option %s takes indices from %lld to %lld separated by '|' (at most %d), e.g. %s=0|2;"
                                 " not '%s'", o->name, (long long)o->lo, (long long)o->hi, RENDER_LIST_MAX, o->name, v);
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
int parse_options(sqlite3_context *ctx, const char *fn, sqlite3_value *arg, const render_option *opts, size_t n) {
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

/* Loads the file named by arg with format fmt through a walk of that one
** file (engine.h, "the file walk"), so a render reads the version the
** transaction sees, parsed under the connection's limits and interrupt. */
int render_file_open(sqlite3_context *ctx, const char *fn, sqlite3_value *arg, const ls_format *fmt,
                     render_file *rf) {
  const ls_walk_file *wf = NULL;
  ls_walk_spec spec;
  char *err = NULL;
  int rc;
  rf->data = NULL;
  rf->walk = NULL;
  rf->path = (const char *)sqlite3_value_text(arg);
  if (sqlite3_value_type(arg) != SQLITE_TEXT || !rf->path || !*rf->path) {
    render_error(ctx, fn, "the first argument is the file's path (text), e.g. %s('maps/dm1.map')", fn);
    return 0;
  }
  if (!(rf->walk = ls_walk_new(sqlite3_user_data(ctx), 0))) {
    sqlite3_result_error_nomem(ctx);
    return 0;
  }
  memset(&spec, 0, sizeof spec);
  spec.format = fmt;
  spec.only = rf->path;
  if ((rc = ls_walk_open(rf->walk, &spec, &err)) == SQLITE_OK) rc = ls_walk_next(rf->walk, &wf, &err);
  if (rc != SQLITE_ROW) {
    if (rc == SQLITE_NOMEM && !err) sqlite3_result_error_nomem(ctx);
    else if (rc == SQLITE_INTERRUPT) sqlite3_result_error_code(ctx, SQLITE_INTERRUPT); /* its parse was stopped */
    else render_error(ctx, fn, "%s", err ? err : "cannot read the file");
  } else if (!wf->model) {
    render_error(ctx, fn, "%s: cannot read the file", rf->path);
  } else if (wf->fmt != fmt) {
    render_error(ctx, fn, "%s: not a %s file", rf->path, fmt->name);
  } else {
    rf->data = wf->model;
    return 1;
  }
  sqlite3_free(err);
  render_file_done(rf);
  return 0;
}

void render_file_done(render_file *rf) {
  ls_walk_free(rf->walk);
  rf->walk = NULL;
  rf->data = NULL;
}

/* Sets a malloc'd buffer as the result (blob or text), taking it. */
void result_take(sqlite3_context *ctx, unsigned char *data, size_t n, int text) {
  if (text) sqlite3_result_text64(ctx, (const char *)data, n, free, SQLITE_UTF8);
  else sqlite3_result_blob64(ctx, data, n, free);
}

/* ---- registration ----------------------------------------------------------------- */

/* Drops a function's reference to the session (its destructor). */
static void session_unref(void *p) {
  ls_session_release(p);
}

/* Registers fns[0..n) on the connection, each for every argument count
** from its nmin to its nmax, DIRECTONLY (views and triggers of a database
** cannot reach files), each holding a reference to the session it reads
** files through. */
int ls_register_session_functions(sqlite3 *db, ls_session *sess, const ls_session_function *fns, size_t n) {
  size_t i;
  int rc = SQLITE_OK, nargs;
  for (i = 0; rc == SQLITE_OK && i < n; i++) {
    for (nargs = fns[i].nmin; rc == SQLITE_OK && nargs <= fns[i].nmax; nargs++) {
      sess->refs++;
      rc = sqlite3_create_function_v2(db, fns[i].name, nargs, SQLITE_UTF8 | SQLITE_DIRECTONLY, sess, fns[i].fn, NULL,
                                      NULL, session_unref);
    }
  }
  return rc;
}
