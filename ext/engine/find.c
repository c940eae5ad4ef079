/*
** find.c: files found beside a file (engine.h, "files beside a file"): in
** a folder on disk, the name in any case, or in a game, its override
** folder first and then its archives, through the connection's cache of
** keys and archive indexes (game.h).
**
** How a getter reaches the session: a column's getter has the connection
** (sqlite3_context_db_handle) but not the session, and SQLite 3.40 keeps
** nothing of an extension's on a connection for it to find.  So ls_find
** runs "SELECT levelsql_find(?1)", a function registered with the
** session, its request bound as a pointer (sqlite3_bind_pointer): SQL
** cannot make such a value, so called from SQL the function only fails.
*/
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/engine.h"
#include "engine/commit.h"
#include "engine/game.h"
#include "engine/parse_ahead.h"
#include "engine/session.h"

#define FIND_POINTER_TYPE "levelsql_find"

/* One ls_find call, handed to the function as a pointer. */
typedef struct find_request {
  const char *near;
  int how;
  const char *name;
  uint64_t max_bytes;
  ls_found *out;
  codec_error *err;
  int ran; /* the function ran: ok is its answer */
  int ok;
} find_request;

/* ---- small helpers ------------------------------------------------------------ */

/* Whether c separates folders in a path. */
static int is_separator(char c) {
#ifdef _WIN32
  return c == '/' || c == '\\';
#else
  return c == '/';
#endif
}

/* printf into a malloc'd string, NULL when out of memory. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static char *str_printf(const char *fmt, ...) {
  va_list ap;
  int n;
  char *s;
  va_start(ap, fmt);
  n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || !(s = malloc((size_t)n + 1))) return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

static ls_stamp stamp_of(const struct stat *st) {
  ls_stamp s = {.dev = (uint64_t)st->st_dev, .ino = (uint64_t)st->st_ino, .size = (int64_t)st->st_size,
                .mtime_ns = ls_stat_mtime_ns(st)};
  return s;
}

/* The stamp of the folder at dir ("" the current one); all zero when it
** cannot be stat'ed (then it changes when the folder appears). */
static ls_stamp folder_stamp(const char *dir) {
  struct stat st;
  ls_stamp none = {0, 0, 0, 0};
  return stat(*dir ? dir : ".", &st) == 0 ? stamp_of(&st) : none;
}

/* One stamp standing for two places (it changes when either does). */
static ls_stamp stamp_mix(const ls_stamp *a, const ls_stamp *b) {
  const ls_stamp *both[2] = {a, b};
  uint64_t h = 14695981039346656037ull;
  ls_stamp out = *a;
  int k;
  size_t i;
  for (k = 0; k < 2; k++) {
    const unsigned char *p = (const unsigned char *)both[k];
    for (i = 0; i < sizeof *a; i++) h = (h ^ p[i]) * 1099511628211ull;
  }
  out.mtime_ns = (int64_t)(h >> 2);
  return out;
}

/* The folder part of path, without its last separator ("" for a bare
** name, "/" kept), malloc'd; NULL when out of memory. */
static char *folder_of(const char *path) {
  size_t n = strlen(path);
  while (n && !is_separator(path[n - 1])) n--;
  if (n > 1) n--;
  return str_printf("%.*s", (int)n, path);
}

const char *ls_file_name(const char *path) {
  const char *p = path + strlen(path);
  size_t key_len;
  if (ls_game_split(path, &key_len)) return path + key_len + 1;
  while (p > path && !is_separator(p[-1])) p--;
  return p;
}

void ls_found_clear(ls_found *f) {
  free(f->path);
  free(f->where);
  free(f->data);
  memset(f, 0, sizeof *f);
}

/* ---- a folder on disk --------------------------------------------------------- */

static char upper(char c) {
  return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

static char lower(char c) {
  return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* dir/name if it is a regular file, else NULL (*oom on a failed malloc). */
static char *regular_file(const char *dir, const char *name, int *oom) {
  struct stat st;
  char *p = *dir ? str_printf(is_separator(dir[strlen(dir) - 1]) ? "%s%s" : "%s/%s", dir, name) : str_printf("%s", name);
  if (!p) {
    *oom = 1;
    return NULL;
  }
  if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) return p;
  free(p);
  return NULL;
}

/* The path of the regular file called `name` in any case (ASCII letters)
** in folder dir ("" the current one): as given, in upper case, in lower
** case, else the first name of the folder's listing equal to it ignoring
** case.  NULL when there is none, or when out of memory (*oom). */
static char *find_in_folder(const char *dir, const char *name, int *oom) {
  size_t n = strlen(name), i;
  char *variant = malloc(n + 1), *found = NULL;
  int k;
  DIR *d;
  struct dirent *e;
  if (!variant) {
    *oom = 1;
    return NULL;
  }
  for (k = 0; k < 3 && !found && !*oom; k++) {
    for (i = 0; i <= n; i++) variant[i] = k == 1 ? upper(name[i]) : k == 2 ? lower(name[i]) : name[i];
    found = regular_file(dir, variant, oom);
  }
  free(variant);
  if (found || *oom) return found;
  d = opendir(*dir ? dir : ".");
  while (d && !found && !*oom && (e = readdir(d)) != NULL) {
    if (sqlite3_stricmp(e->d_name, name) == 0) found = regular_file(dir, e->d_name, oom);
  }
  if (d) closedir(d);
  return found;
}

/* The refusal of a file of `size` bytes over max_bytes. */
static int over_limit(codec_error *err, const char *path, int64_t size, uint64_t max_bytes) {
  return codec_fail_limit(err, "%s: %lld bytes, over the limit of %llu (SELECT levelsql_limit('decoded', bytes) "
                          "raises it)", path, (long long)size, (unsigned long long)max_bytes);
}

/* Reads the file at out->path whole into out->data (at most max_bytes),
** its stamp that of the bytes read.  Returns 1, or 0 with err naming it. */
static int read_file(ls_found *out, uint64_t max_bytes, codec_error *err) {
  FILE *f = fopen(out->path, "rb");
  struct stat st;
  size_t got = 0;
  if (!f) return codec_fail(err, "%s: cannot open: %s", out->path, strerror(errno));
  if (fstat(fileno(f), &st) != 0) {
    fclose(f);
    return codec_fail(err, "%s: cannot stat: %s", out->path, strerror(errno));
  }
  out->stamp = stamp_of(&st);
  if ((uint64_t)st.st_size > max_bytes || (int64_t)st.st_size > LS_MAX_FILE_BYTES) {
    fclose(f);
    return over_limit(err, out->path, (int64_t)st.st_size,
                      max_bytes < (uint64_t)LS_MAX_FILE_BYTES ? max_bytes : (uint64_t)LS_MAX_FILE_BYTES);
  }
  if (st.st_size && !(out->data = malloc((size_t)st.st_size))) {
    fclose(f);
    return codec_fail_oom(err, "%s: out of memory for %lld bytes", out->path, (long long)st.st_size);
  }
  if (st.st_size) got = fread(out->data, 1, (size_t)st.st_size, f);
  fclose(f);
  if (got != (size_t)st.st_size) {
    return codec_fail(err, "%s: cannot read: %lld bytes expected, %zu read", out->path, (long long)st.st_size, got);
  }
  out->size = got;
  return 1;
}

/* A file found on disk at path (taken): its stamp, and its bytes when asked. */
static int found_file(ls_found *out, char *path, uint64_t max_bytes, codec_error *err) {
  struct stat st;
  out->found = 1;
  out->path = path;
  if (max_bytes) return read_file(out, max_bytes, err);
  if (stat(path, &st) != 0) return codec_fail(err, "%s: cannot stat: %s", path, strerror(errno));
  out->stamp = stamp_of(&st);
  return 1;
}

/* ---- a game ------------------------------------------------------------------- */

/* Reads the resource gp names (ARCHIVE, with its loc) into out. */
static int read_resource(const ls_game_path *gp, ls_found *out, uint64_t max_bytes, codec_error *err) {
  ls_parsed got;
  size_t n = 0;
  if ((uint64_t)gp->st.st_size > max_bytes) return over_limit(err, out->path, (int64_t)gp->st.st_size, max_bytes);
  memset(&got, 0, sizeof got);
  out->data = ls_res_read(gp->loc, 0, NULL, NULL, &got, &n);
  if (!out->data) {
    if (got.read_failure == LS_READ_NOMEM) return codec_fail_oom(err, "%s: out of memory", out->path);
    if (got.read_failure == LS_READ_TOO_BIG)
      return over_limit(err, out->path, (int64_t)gp->st.st_size, (uint64_t)LS_MAX_FILE_BYTES);
    return codec_fail(err, "%s: %s", out->path, got.parse_error.msg[0] ? got.parse_error.msg : "read error");
  }
  out->size = n;
  out->stamp = stamp_of(&got.st);
  return 1;
}

/* Looks `name` up in the game of the key `key` (key_len bytes, as
** spelled): its override folder, then its archives.  Returns 1 with *out
** (found or not), or 0 with err. */
static int from_game(ls_game *g, const char *key, size_t key_len, const char *name, uint64_t max_bytes, ls_found *out,
                     codec_error *err) {
  ls_game_path gp;
  char *path = str_printf("%.*s:%s", (int)key_len, key, name), *why = NULL;
  int ok = 1;
  if (!path || !(out->where = str_printf("%.*s (its override folder, then its archives)", (int)key_len, key))) {
    free(path);
    return codec_fail_oom(err, "out of memory");
  }
  if (!g) { /* looked for without a connection (ls_find on disk only): not found */
    free(path);
    return 1;
  }
  if (ls_game_lookup(g, path, max_bytes > 0, &gp, &why) != SQLITE_OK) {
    ok = why ? codec_fail(err, "%s", why) : codec_fail_oom(err, "out of memory");
    sqlite3_free(why);
    free(path);
    return ok;
  }
  if (gp.kind == LS_GAME_OVERRIDE) {
    char *file = str_printf("%s", gp.file);
    free(path);
    ok = file ? found_file(out, file, max_bytes, err) : codec_fail_oom(err, "out of memory");
  } else if (gp.kind == LS_GAME_ARCHIVE) {
    out->found = 1;
    out->path = path;
    out->stamp = stamp_of(&gp.st);
    if (max_bytes) ok = read_resource(&gp, out, max_bytes, err);
  } else { /* MISSING (NOT cannot be: the key is a key) */
    free(path);
    out->stamp = stamp_of(&gp.st);
  }
  ls_game_path_clear(&gp);
  return ok;
}

/* Looks `name` up in folder dir, and, when dir is a game's override
** folder without it, in that game's archives. */
static int from_folder(ls_game *g, const char *dir, const char *name, uint64_t max_bytes, ls_found *out,
                       codec_error *err) {
  int oom = 0, ok;
  char *path = find_in_folder(dir, name, &oom), *parent, *key = NULL;
  ls_stamp here;
  if (path) return found_file(out, path, max_bytes, err);
  if (oom) return codec_fail_oom(err, "out of memory");
  here = folder_stamp(dir);
  if (sqlite3_stricmp(ls_file_name(dir), "override") != 0 || !(parent = folder_of(dir))) {
    out->stamp = here;
    return (out->where = str_printf("%s", *dir ? dir : "the current folder")) ? 1 : codec_fail_oom(err, "out of memory");
  }
  if (!ls_game_key_of(*parent ? parent : ".", 1, &key)) { /* an override folder of no game */
    free(parent);
    out->stamp = here;
    return (out->where = str_printf("%s", dir)) ? 1 : codec_fail_oom(err, "out of memory");
  }
  free(parent);
  if (!key) return codec_fail_oom(err, "out of memory");
  ok = from_game(g, key, strlen(key), name, max_bytes, out, err);
  if (ok && !out->found) {
    free(out->where);
    out->stamp = stamp_mix(&here, &out->stamp);
    if (!(out->where = str_printf("%s (then the archives of %s)", dir, key))) ok = codec_fail_oom(err, "out of memory");
  }
  sqlite3_free(key);
  return ok;
}

/* ls_find, with the connection's session, or without one (s NULL: on
** disk only, any thread; a game's resources are not found). */
static int find_with_session(ls_session *s, const find_request *r) {
  ls_game *g = s ? ls_session_game(s) : NULL;
  size_t key_len;
  char *key = NULL, *dir;
  int ok;
  if (s && !g) return codec_fail_oom(r->err, "out of memory");
  if (r->how == LS_FIND_IN) {
    struct stat st;
    int is_folder = stat(r->near, &st) == 0 && S_ISDIR(st.st_mode);
    if (!ls_game_key_of(r->near, is_folder, &key)) return from_folder(g, r->near, r->name, r->max_bytes, r->out, r->err);
    if (!key) return codec_fail_oom(r->err, "out of memory");
    ok = from_game(g, key, strlen(key), r->name, r->max_bytes, r->out, r->err);
    sqlite3_free(key);
    return ok;
  }
  if (ls_game_split(r->near, &key_len)) return from_game(g, r->near, key_len, r->name, r->max_bytes, r->out, r->err);
  if (!(dir = folder_of(r->near))) return codec_fail_oom(r->err, "out of memory");
  ok = from_folder(g, dir, r->name, r->max_bytes, r->out, r->err);
  free(dir);
  return ok;
}

/* ---- the way in ---------------------------------------------------------------- */

/* levelsql_find(request): runs the request a pointer binds (ls_find). */
static void find_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  find_request *r = sqlite3_value_pointer(argv[0], FIND_POINTER_TYPE);
  (void)argc;
  if (!r) {
    sqlite3_result_error(ctx, "levelsql_find: for levelsql's own use (it takes no SQL value)", -1);
    return;
  }
  r->ran = 1;
  r->ok = find_with_session(sqlite3_user_data(ctx), r);
}

int ls_find(sqlite3 *db, const char *near, int how, const char *name, uint64_t max_bytes, ls_found *out,
            codec_error *err) {
  find_request r = {.near = near, .how = how, .name = name, .max_bytes = max_bytes, .out = out, .err = err};
  sqlite3_stmt *st = NULL;
  int rc;
  memset(out, 0, sizeof *out);
  if (!db) return find_with_session(NULL, &r); /* on disk only (levelsql_atlas's threads: engine.h) */
  rc = sqlite3_prepare_v2(db, "SELECT levelsql_find(?1)", -1, &st, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_bind_pointer(st, 1, &r, FIND_POINTER_TYPE, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  sqlite3_finalize(st);
  if (r.ran) {
    if (!r.ok) ls_found_clear(out);
    return r.ok;
  }
  if (rc == SQLITE_INTERRUPT) return codec_fail_interrupted(err);
  if (rc == SQLITE_NOMEM) return codec_fail_oom(err, "out of memory");
  return codec_fail_arg(err, "%s: cannot look for %s: %s", near, name, sqlite3_errmsg(db));
}

static void session_unref(void *p) {
  ls_session_release(p);
}

int ls_find_register(sqlite3 *db, ls_session *sess) {
  int rc;
  sess->refs++;
  rc = sqlite3_create_function_v2(db, "levelsql_find", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, sess, find_func, NULL,
                                  NULL, session_unref);
  return rc;
}
