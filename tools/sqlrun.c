/*
** sqlrun.c: a batch SQL runner that does what the sqlite3 shell (3.40, as
** `sqlite3 -batch DB < script`) does with the scripts of this project, so
** that the suite can run them on any SQLite this program is linked with:
** build/tools/sqlrun is linked with the system SQLite (and checked against
** the sqlite3 shell by test/run.sh), build/newsql/sqlrun with the newer
** amalgamation of tools/newer-sqlite.sh.
**
**   sqlrun [-batch] [-bail] [DATABASE]  < script.sql
**
** Like the shell it reads the script line by line: a line starting with
** '.' outside a statement is a dot-command, one starting with '#' is a
** comment; other lines gather into a buffer until sqlite3_complete() says
** it holds complete statements, which then run one after the other.  The
** output of a SELECT is in list mode (columns joined by '|', NULL as the
** null value, optional header line) or box mode.  An error is printed to
** stderr as "Parse error near line N: ..." (prepare) or "Runtime error
** near line N: ..." (step), where N is the line the buffer started on; the
** rest of that buffer is skipped and the script goes on, unless .bail is
** on.  The exit code is 1 when anything failed.
**
** Dot-commands: .bail on|off, .exit, .quit, .headers on|off, .load FILE
** ?ENTRY?, .mode list|box, .nullvalue TEXT, .open ?FILE? (a new
** connection), .print TEXT..., .shell CMD...
** (.system), .timer on|off.  SQL functions of the shell's fileio
** extension that the tests use: readfile(PATH), writefile(PATH, DATA) and
** the table-valued fsdir(PATH [, DIR]).
*/
#include <dirent.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
/* The Windows build (`make windows`: build/windows/sqlrun.exe, the host of
** the Windows tests under wine) has no symbolic links, readlink or
** getrusage; its stdout and stderr are binary (no \r added). */
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#define lstat stat
#define S_ISLNK(mode) 0
#define readlink(path, buf, size) (-1)
#else
#include <sys/resource.h>
#endif
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MODE_LIST 0
#define MODE_BOX 1

/* The runner's settings and error count: everything a dot-command can
** change. */
typedef struct Runner {
  sqlite3 *db;
  int mode;          /* MODE_LIST or MODE_BOX */
  int show_header;   /* .headers: a header line in list mode */
  int bail;          /* .bail: stop at the first error */
  int timer;         /* .timer: "Run Time: ..." after each buffer */
  char *null_value;  /* .nullvalue (sqlite3_malloc'ed), "" at first */
} Runner;

/* ---------------------------------------------------------------- */
/* readfile() and fsdir(): the part of the shell's fileio extension the
** tests use, so their scripts run unchanged. */

/* Reads the whole file path into a sqlite3_malloc'ed buffer; NULL when it
** cannot be opened or read (*len is then 0). */
static char *read_whole_file(const char *path, sqlite3_int64 *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  sqlite3_int64 size;
  *len = 0;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    buf = sqlite3_malloc64((sqlite3_uint64)size + 1);
    if (buf && fread(buf, 1, (size_t)size, f) == (size_t)size) {
      *len = size;
    } else {
      sqlite3_free(buf);
      buf = NULL;
    }
  }
  fclose(f);
  return buf;
}

/* readfile(PATH): the bytes of the file as a BLOB, NULL when it cannot be
** read (as in the shell). */
static void readfile_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *path = (const char *)sqlite3_value_text(argv[0]);
  sqlite3_int64 len;
  char *data;
  (void)argc;
  if (!path) return;
  data = read_whole_file(path, &len);
  if (data) sqlite3_result_blob64(ctx, data, (sqlite3_uint64)len, sqlite3_free);
}

/* Creates the folders above path that are missing, as the shell's
** writefile() does.  Returns 0 when one cannot be made. */
static int make_parent_folders(const char *path) {
  char *copy = sqlite3_mprintf("%s", path), *slash;
  int ok = copy != NULL;
  for (slash = copy ? strchr(copy + 1, '/') : NULL; ok && slash; slash = strchr(slash + 1, '/')) {
    struct stat st;
    *slash = 0;
#ifdef _WIN32
    if (stat(copy, &st) != 0 && mkdir(copy) != 0) ok = 0;
#else
    if (stat(copy, &st) != 0 && mkdir(copy, 0777) != 0) ok = 0;
#endif
    *slash = '/';
  }
  sqlite3_free(copy);
  return ok;
}

/* writefile(PATH, DATA): writes the bytes of DATA (a blob, or text) to
** the file, replacing it (making the folders above it that are missing),
** and returns how many; fails like the shell's ("failed to write file:
** PATH") when it cannot. */
static void writefile_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *path = (const char *)sqlite3_value_text(argv[0]);
  const void *data = sqlite3_value_blob(argv[1]);
  int n = sqlite3_value_bytes(argv[1]);
  FILE *f;
  int ok;
  (void)argc;
  if (!path) return;
  f = fopen(path, "wb");
  if (!f && errno == ENOENT && make_parent_folders(path)) f = fopen(path, "wb");
  ok = f && (n == 0 || fwrite(data, 1, (size_t)n, f) == (size_t)n);
  if (f && fclose(f) != 0) ok = 0;
  if (!ok) {
    char *msg = sqlite3_mprintf("failed to write file: %s", path);
    sqlite3_result_error(ctx, msg ? msg : "failed to write file", -1);
    sqlite3_free(msg);
    return;
  }
  sqlite3_result_int64(ctx, n);
}

/* One entry that fsdir lists: its name as shown (relative to DIR when
** given), the path to open, and its lstat() data. */
typedef struct FsEntry {
  char *name;
  char *path;
  struct stat st;
} FsEntry;

/* A cursor of fsdir: every entry, gathered by xFilter in the order the
** shell lists them (the root, then depth first in readdir order). */
typedef struct FsCursor {
  sqlite3_vtab_cursor base;
  FsEntry *entries;
  int n, cap;
  int at;
} FsCursor;

#define FS_COL_NAME 0
#define FS_COL_MODE 1
#define FS_COL_MTIME 2
#define FS_COL_DATA 3
#define FS_COL_PATH 4
#define FS_COL_DIR 5

static int fs_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err) {
  int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(name,mode,mtime,data,path HIDDEN,dir HIDDEN)");
  (void)aux;
  (void)argc;
  (void)argv;
  (void)err;
  if (rc != SQLITE_OK) return rc;
  *out = sqlite3_malloc(sizeof(sqlite3_vtab));
  if (!*out) return SQLITE_NOMEM;
  memset(*out, 0, sizeof(sqlite3_vtab));
  return SQLITE_OK;
}

static int fs_disconnect(sqlite3_vtab *vtab) {
  sqlite3_free(vtab);
  return SQLITE_OK;
}

/* Passes path (argument 1) and dir (argument 2) as equality constraints;
** without a usable path the plan is priced out (xFilter then refuses). */
static int fs_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info) {
  int i, path = -1, dir = -1;
  (void)vtab;
  for (i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    if (c->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (c->iColumn == FS_COL_PATH) {
      if (!c->usable) return SQLITE_CONSTRAINT;
      path = i;
    } else if (c->iColumn == FS_COL_DIR) {
      if (!c->usable) return SQLITE_CONSTRAINT;
      dir = i;
    }
  }
  if (path < 0) {
    info->idxNum = 0;
    info->estimatedCost = 1e15;
    return SQLITE_OK;
  }
  info->aConstraintUsage[path].argvIndex = 1;
  info->aConstraintUsage[path].omit = 1;
  if (dir >= 0) {
    info->aConstraintUsage[dir].argvIndex = 2;
    info->aConstraintUsage[dir].omit = 1;
  }
  info->idxNum = dir >= 0 ? 2 : 1;
  info->estimatedCost = 100.0;
  return SQLITE_OK;
}

static int fs_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out) {
  FsCursor *cur = sqlite3_malloc(sizeof *cur);
  (void)vtab;
  if (!cur) return SQLITE_NOMEM;
  memset(cur, 0, sizeof *cur);
  *out = &cur->base;
  return SQLITE_OK;
}

/* Frees the entries of a cursor, leaving it empty. */
static void fs_clear(FsCursor *cur) {
  int i;
  for (i = 0; i < cur->n; i++) {
    sqlite3_free(cur->entries[i].name);
    sqlite3_free(cur->entries[i].path);
  }
  sqlite3_free(cur->entries);
  cur->entries = NULL;
  cur->n = cur->cap = cur->at = 0;
}

static int fs_close(sqlite3_vtab_cursor *base) {
  fs_clear((FsCursor *)base);
  sqlite3_free(base);
  return SQLITE_OK;
}

/* Adds name (opened as path) and, when it is a folder, everything below
** it; SQLITE_ERROR with a message in vtab->zErrMsg when it cannot be
** lstat()ed. */
static int fs_walk(FsCursor *cur, char *name, char *path) {
  FsEntry *e;
  DIR *d;
  struct dirent *de;
  int rc = SQLITE_OK;
  if (!name || !path) {
    sqlite3_free(name);
    sqlite3_free(path);
    return SQLITE_NOMEM;
  }
  if (cur->n == cur->cap) {
    int cap = cur->cap ? cur->cap * 2 : 64;
    FsEntry *grown = sqlite3_realloc64(cur->entries, (sqlite3_uint64)cap * sizeof *grown);
    if (!grown) {
      sqlite3_free(name);
      sqlite3_free(path);
      return SQLITE_NOMEM;
    }
    cur->entries = grown;
    cur->cap = cap;
  }
  e = &cur->entries[cur->n];
  if (lstat(path, &e->st) != 0) {
    sqlite3_free(cur->base.pVtab->zErrMsg);
    cur->base.pVtab->zErrMsg = sqlite3_mprintf("cannot stat file: %s", path);
    sqlite3_free(name);
    sqlite3_free(path);
    return SQLITE_ERROR;
  }
  e->name = name;
  e->path = path;
  cur->n++;
  if (!S_ISDIR(e->st.st_mode)) return SQLITE_OK;
  d = opendir(path);
  if (!d) {
    sqlite3_free(cur->base.pVtab->zErrMsg);
    cur->base.pVtab->zErrMsg = sqlite3_mprintf("cannot read directory: %s", path);
    return SQLITE_ERROR;
  }
  while (rc == SQLITE_OK && (de = readdir(d)) != NULL) {
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
    rc = fs_walk(cur, sqlite3_mprintf("%s/%s", name, de->d_name), sqlite3_mprintf("%s/%s", path, de->d_name));
  }
  closedir(d);
  return rc;
}

/* fsdir(PATH [, DIR]): lists PATH and, if it is a folder, everything below
** it; names are PATH-relative as given, files are opened at DIR/PATH. */
static int fs_filter(sqlite3_vtab_cursor *base, int idx_num, const char *idx_str, int argc, sqlite3_value **argv) {
  FsCursor *cur = (FsCursor *)base;
  const char *path, *dir = NULL;
  (void)idx_str;
  fs_clear(cur);
  if (idx_num == 0 || argc < 1) {
    sqlite3_free(base->pVtab->zErrMsg);
    base->pVtab->zErrMsg = sqlite3_mprintf("table function fsdir requires an argument");
    return SQLITE_ERROR;
  }
  path = (const char *)sqlite3_value_text(argv[0]);
  if (argc > 1) dir = (const char *)sqlite3_value_text(argv[1]);
  if (!path) {
    sqlite3_free(base->pVtab->zErrMsg);
    base->pVtab->zErrMsg = sqlite3_mprintf("table function fsdir requires a non-NULL argument");
    return SQLITE_ERROR;
  }
  return fs_walk(cur, sqlite3_mprintf("%s", path), dir ? sqlite3_mprintf("%s/%s", dir, path) : sqlite3_mprintf("%s", path));
}

static int fs_next(sqlite3_vtab_cursor *base) {
  ((FsCursor *)base)->at++;
  return SQLITE_OK;
}

static int fs_eof(sqlite3_vtab_cursor *base) {
  FsCursor *cur = (FsCursor *)base;
  return cur->at >= cur->n;
}

/* name, mode, mtime, and data: the bytes of a file, the target of a
** symbolic link, NULL for a folder. */
static int fs_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col) {
  FsCursor *cur = (FsCursor *)base;
  const FsEntry *e = &cur->entries[cur->at];
  switch (col) {
  case FS_COL_NAME: sqlite3_result_text(ctx, e->name, -1, SQLITE_TRANSIENT); break;
  case FS_COL_MODE: sqlite3_result_int64(ctx, (sqlite3_int64)e->st.st_mode); break;
  case FS_COL_MTIME: sqlite3_result_int64(ctx, (sqlite3_int64)e->st.st_mtime); break;
  case FS_COL_DATA:
    if (S_ISLNK(e->st.st_mode)) {
      char target[4096];
      ssize_t n = readlink(e->path, target, sizeof target);
      if (n >= 0) sqlite3_result_text(ctx, target, (int)n, SQLITE_TRANSIENT);
    } else if (!S_ISDIR(e->st.st_mode)) {
      sqlite3_int64 len;
      char *data = read_whole_file(e->path, &len);
      if (!data) {
        char *msg = sqlite3_mprintf("cannot read file: %s", e->path);
        sqlite3_result_error(ctx, msg ? msg : "out of memory", -1);
        sqlite3_free(msg);
        return SQLITE_ERROR;
      }
      sqlite3_result_blob64(ctx, data, (sqlite3_uint64)len, sqlite3_free);
    }
    break;
  default: break; /* the hidden arguments read as NULL */
  }
  return SQLITE_OK;
}

static int fs_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid) {
  *rowid = ((FsCursor *)base)->at;
  return SQLITE_OK;
}

/* Registers readfile(), writefile() and fsdir() on db. */
static int register_file_functions(sqlite3 *db) {
  /* designated: the struct has more members in newer SQLite */
  static const sqlite3_module fsdir_module = {
      .xConnect = fs_connect,
      .xBestIndex = fs_best_index,
      .xDisconnect = fs_disconnect,
      .xOpen = fs_open,
      .xClose = fs_close,
      .xFilter = fs_filter,
      .xNext = fs_next,
      .xEof = fs_eof,
      .xColumn = fs_column,
      .xRowid = fs_rowid,
  };
  int rc = sqlite3_create_function(db, "readfile", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, NULL, readfile_func, NULL, NULL);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "writefile", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, NULL, writefile_func, NULL, NULL);
  }
  if (rc == SQLITE_OK) rc = sqlite3_create_module(db, "fsdir", &fsdir_module, NULL);
  return rc;
}

/* ---------------------------------------------------------------- */
/* Output. */

/* The number of characters (not bytes) of UTF-8 text. */
static int utf8_chars(const char *z) {
  int n = 0;
  for (; *z; z++) {
    if ((*z & 0xc0) != 0x80) n++;
  }
  return n;
}

/* Prints z left-aligned in w characters, cut at w characters (the shell's
** utf8_width_print). */
static void print_width(const char *z, int w) {
  int i, n = 0;
  for (i = 0; z[i]; i++) {
    if ((z[i] & 0xc0) != 0x80) {
      n++;
      if (n == w) {
        do i++;
        while ((z[i] & 0xc0) == 0x80);
        break;
      }
    }
  }
  if (n >= w) printf("%.*s", i, z);
  else printf("%s%*s", z, w - n, "");
}

/* One display line of z for box mode, as the shell's default box mode
** makes it (translateForDisplayAndDup with a width of BOX_WRAP, no word
** wrap): up to BOX_WRAP characters, ending early at a control character
** other than a tab; tabs expand to the next multiple of 8.  *tail is where
** the next line of the value starts, NULL when there is none.  NULL for a
** NULL z. */
#define BOX_WRAP 60
static char *display_line(const char *z, const char **tail) {
  const unsigned char *u = (const unsigned char *)z;
  int i = 0, j = 0, n = 0, k;
  char *out;
  *tail = NULL;
  if (!z) return NULL;
  while (n < BOX_WRAP) {
    if (u[i] >= ' ') {
      n++;
      do {
        i++;
        j++;
      } while ((u[i] & 0xc0) == 0x80);
    } else if (u[i] == '\t') {
      do {
        n++;
        j++;
      } while ((n & 7) != 0 && n < BOX_WRAP);
      i++;
    } else {
      break;
    }
  }
  if (n >= BOX_WRAP && u[i] >= ' ') *tail = &z[i];
  else if (u[i] == '\r' && u[i + 1] == '\n') *tail = u[i + 2] ? &z[i + 2] : NULL;
  else if (u[i] == 0 || u[i + 1] == 0) *tail = NULL;
  else *tail = &z[i + 1];
  out = sqlite3_malloc(j + 1);
  if (!out) return NULL;
  for (k = 0, j = 0, n = 0; k < i; k++) {
    if (u[k] == '\t') {
      do {
        out[j++] = ' ';
        n++;
      } while ((n & 7) != 0 && n < BOX_WRAP);
    } else {
      if ((u[k] & 0xc0) != 0x80) n++;
      out[j++] = z[k];
    }
  }
  out[j] = 0;
  return out;
}

/* A horizontal line of a box: left, then for each column w+2 dashes
** joined by mid, then right. */
static void box_rule(const int *width, int ncol, const char *left, const char *mid, const char *right) {
  int i, k;
  fputs(left, stdout);
  for (i = 0; i < ncol; i++) {
    if (i) fputs(mid, stdout);
    for (k = 0; k < width[i] + 2; k++) fputs("\u2500", stdout);
  }
  fputs(right, stdout);
  fputs("\n", stdout);
}

/* Grows a NULL-filled array of n strings to hold at least need; 0 when
** out of memory. */
static int grow_cells(char ***cells, int *cap, int need) {
  char **grown;
  int n = *cap ? *cap : 64;
  if (need <= *cap) return 1;
  while (n < need) n *= 2;
  grown = sqlite3_realloc64(*cells, (sqlite3_uint64)n * sizeof *grown);
  if (!grown) return 0;
  memset(grown + *cap, 0, (size_t)(n - *cap) * sizeof *grown);
  *cells = grown;
  *cap = n;
  return 1;
}

/* Box mode, as the shell draws it: all rows are read first (a statement
** without rows prints nothing), columns are as wide as their widest value
** or name (at most 60 characters), names centred, values left-aligned;
** longer values and values with line breaks spread over several lines,
** with a rule after such a row.  Returns the last sqlite3_step() code. */
static int print_box(Runner *r, sqlite3_stmt *st) {
  int ncol = sqlite3_column_count(st);
  int rc = sqlite3_step(st);
  int cap = 0, nrow = 0, i, j, multi = 0, more = 0;
  char **cells = NULL;
  const char **next = NULL;
  int *width = NULL;
  unsigned char *row_ends = NULL; /* per display line: the value's last line */
  int ends_cap = 0;
  if (rc != SQLITE_ROW || ncol == 0) return rc;
  next = sqlite3_malloc64((sqlite3_uint64)ncol * sizeof *next);
  width = sqlite3_malloc64((sqlite3_uint64)ncol * sizeof *width);
  if (!next || !width || !grow_cells(&cells, &cap, 2 * ncol)) goto oom;
  for (i = 0; i < ncol; i++) {
    const char *unused;
    cells[i] = display_line(sqlite3_column_name(st, i), &unused);
    width[i] = 0;
  }
  do {
    int continuing = more;
    more = 0;
    nrow++;
    if (!grow_cells(&cells, &cap, (nrow + 1) * ncol)) goto oom;
    if (nrow > ends_cap) {
      unsigned char *grown = sqlite3_realloc64(row_ends, (sqlite3_uint64)(nrow * 2));
      if (!grown) goto oom;
      row_ends = grown;
      ends_cap = nrow * 2;
    }
    row_ends[nrow - 1] = 1;
    for (i = 0; i < ncol; i++) {
      const char *z = continuing ? (next[i] ? next[i] : "") : (const char *)sqlite3_column_text(st, i);
      cells[nrow * ncol + i] = display_line(z, &next[i]);
      if (next[i]) {
        more = 1;
        multi = 1;
        row_ends[nrow - 1] = 0;
      }
    }
  } while (more || (rc = sqlite3_step(st)) == SQLITE_ROW);
  for (i = 0; i < (nrow + 1) * ncol; i++) {
    const char *z = cells[i] ? cells[i] : r->null_value;
    int n = utf8_chars(z);
    if (n > width[i % ncol]) width[i % ncol] = n;
  }
  box_rule(width, ncol, "\u250c", "\u252c", "\u2510");
  fputs("\u2502 ", stdout);
  for (i = 0; i < ncol; i++) {
    const char *z = cells[i] ? cells[i] : "";
    int n = utf8_chars(z);
    printf("%*s%s%*s%s", (width[i] - n) / 2, "", z, (width[i] - n + 1) / 2, "", i == ncol - 1 ? " \u2502\n" : " \u2502 ");
  }
  box_rule(width, ncol, "\u251c", "\u253c", "\u2524");
  for (j = 1; j <= nrow; j++) {
    fputs("\u2502 ", stdout);
    for (i = 0; i < ncol; i++) {
      const char *z = cells[j * ncol + i];
      print_width(z ? z : r->null_value, width[i]);
      fputs(i == ncol - 1 ? " \u2502\n" : " \u2502 ", stdout);
    }
    if (multi && row_ends[j - 1] && j < nrow) box_rule(width, ncol, "\u251c", "\u253c", "\u2524");
  }
  box_rule(width, ncol, "\u2514", "\u2534", "\u2518");
  goto done;
oom:
  rc = SQLITE_NOMEM;
done:
  for (i = 0; i < cap; i++) sqlite3_free(cells[i]);
  sqlite3_free(cells);
  sqlite3_free(next);
  sqlite3_free(width);
  sqlite3_free(row_ends);
  return rc;
}

/* List mode: one line per row, columns joined by '|', NULL as the null
** value, the column names first when .headers is on.  Returns the last
** sqlite3_step() code. */
static int print_list(Runner *r, sqlite3_stmt *st) {
  int ncol = sqlite3_column_count(st), i, rc, rows = 0;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (rows++ == 0 && r->show_header) {
      for (i = 0; i < ncol; i++) printf("%s%s", i ? "|" : "", sqlite3_column_name(st, i));
      fputs("\n", stdout);
    }
    for (i = 0; i < ncol; i++) {
      const char *z = (const char *)sqlite3_column_text(st, i);
      printf("%s%s", i ? "|" : "", z ? z : r->null_value);
    }
    fputs("\n", stdout);
  }
  return rc;
}

/* ---------------------------------------------------------------- */
/* Running SQL. */

/* Prints an error to stderr as the shell does: "<kind> near line N: MSG",
** the result code when it is more than SQLITE_ERROR, and for a prepare
** error with a known offset the start of the statement with a pointer to
** the error (the shell's shell_error_context). */
static void report_error(Runner *r, const char *kind, int line, int rc, const char *sql) {
  int offset = sql ? sqlite3_error_offset(r->db) : -1;
  fflush(stdout);
  fprintf(stderr, "%s near line %d: %s", kind, line, sqlite3_errmsg(r->db));
  if (rc > 1) fprintf(stderr, " (%d)", rc);
  if (offset >= 0) {
    size_t len, i;
    char *code;
    while (offset > 50) {
      offset--;
      sql++;
      while ((*sql & 0xc0) == 0x80) {
        sql++;
        offset--;
      }
    }
    len = strlen(sql);
    if (len > 78) {
      len = 78;
      while ((sql[len] & 0xc0) == 0x80) len--;
    }
    code = sqlite3_mprintf("%.*s", (int)len, sql);
    if (code) {
      for (i = 0; code[i]; i++) {
        if (code[i] == ' ' || (code[i] >= '\t' && code[i] <= '\r')) code[i] = ' ';
      }
      if (offset < 25) fprintf(stderr, "\n  %s\n  %*s^--- error here", code, offset, "");
      else fprintf(stderr, "\n  %s\n  %*serror here ---^", code, offset - 14, "");
      sqlite3_free(code);
    }
  }
  fputs("\n", stderr);
}

/* Seconds of user and system CPU time so far. */
static void cpu_times(double *user, double *sys) {
#ifdef _WIN32
  FILETIME created, exited, kernel, usr;
  GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &usr);
  *user = (double)((unsigned long long)usr.dwHighDateTime << 32 | usr.dwLowDateTime) * 1e-7;
  *sys = (double)((unsigned long long)kernel.dwHighDateTime << 32 | kernel.dwLowDateTime) * 1e-7;
#else
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  *user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
  *sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
#endif
}

/* Seconds on a monotonic clock. */
static double wall_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs every statement of sql (a buffer that started on line `line`),
** printing their rows; stops at the first error, which is reported.
** Returns 1 on an error, else 0. */
static int run_sql(Runner *r, const char *sql, int line) {
  double t0 = 0, u0 = 0, s0 = 0;
  int failed = 0;
  if (r->timer) {
    t0 = wall_seconds();
    cpu_times(&u0, &s0);
  }
  while (*sql) {
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    int rc = sqlite3_prepare_v2(r->db, sql, -1, &st, &tail);
    if (rc != SQLITE_OK) {
      report_error(r, "Parse error", line, rc, sql);
      failed = 1;
      break;
    }
    if (st) {
      rc = r->mode == MODE_BOX ? print_box(r, st) : print_list(r, st);
      rc = sqlite3_finalize(st);
      if (rc != SQLITE_OK) {
        report_error(r, "Runtime error", line, rc, NULL);
        failed = 1;
        break;
      }
    }
    sql = tail;
    while (*sql == ' ' || (*sql >= '\t' && *sql <= '\r')) sql++;
  }
  if (r->timer) {
    double u1, s1;
    cpu_times(&u1, &s1);
    printf("Run Time: real %.3f user %f sys %f\n", wall_seconds() - t0, u1 - u0, s1 - s0);
  }
  return failed;
}

/* Whether sql holds nothing but white space and complete comments. */
static int is_blank_sql(const char *z) {
  for (;;) {
    while (*z == ' ' || (*z >= '\t' && *z <= '\r')) z++;
    if (z[0] == '-' && z[1] == '-') {
      while (*z && *z != '\n') z++;
    } else if (z[0] == '/' && z[1] == '*') {
      const char *end = strstr(z + 2, "*/");
      if (!end) return 0;
      z = end + 2;
    } else {
      return *z == 0;
    }
  }
}

/* ---------------------------------------------------------------- */
/* Dot-commands. */

/* Turns backslash escapes (\n, \t, \\, \", octal \NNN, ...) into the
** characters they stand for, in place, as the shell does with arguments. */
static void resolve_backslashes(char *z) {
  int i, j;
  for (i = j = 0; z[i]; i++, j++) {
    char c = z[i];
    if (c == '\\' && z[i + 1]) {
      c = z[++i];
      switch (c) {
      case 'a': c = '\a'; break;
      case 'b': c = '\b'; break;
      case 't': c = '\t'; break;
      case 'n': c = '\n'; break;
      case 'v': c = '\v'; break;
      case 'f': c = '\f'; break;
      case 'r': c = '\r'; break;
      default:
        if (c >= '0' && c <= '7') {
          int v = c - '0', k;
          for (k = 0; k < 2 && z[i + 1] >= '0' && z[i + 1] <= '7'; k++) v = v * 8 + (z[++i] - '0');
          c = (char)v;
        }
        break;
      }
    }
    z[j] = c;
  }
  z[j] = 0;
}

/* Splits a dot-command line (in place) into at most max arguments as the
** shell does: white space separates, '...' and "..." quote (escapes are
** resolved in "..." and unquoted arguments).  Returns the count. */
static int split_args(char *line, char **args, int max) {
  int n = 0, h = 0;
  while (line[h] && n < max) {
    while (line[h] == ' ' || (line[h] >= '\t' && line[h] <= '\r')) h++;
    if (!line[h]) break;
    if (line[h] == '\'' || line[h] == '"') {
      char delim = line[h++];
      args[n++] = &line[h];
      while (line[h] && line[h] != delim) {
        if (line[h] == '\\' && delim == '"' && line[h + 1]) h++;
        h++;
      }
      if (line[h] == delim) line[h++] = 0;
      if (delim == '"') resolve_backslashes(args[n - 1]);
    } else {
      args[n++] = &line[h];
      while (line[h] && !(line[h] == ' ' || (line[h] >= '\t' && line[h] <= '\r'))) h++;
      if (line[h]) line[h++] = 0;
      resolve_backslashes(args[n - 1]);
    }
  }
  return n;
}

/* A connection to path with extension loading on and readfile/fsdir
** registered; NULL (printed) when it cannot be opened. */
static sqlite3 *open_database(const char *path) {
  sqlite3 *db = NULL;
  if (sqlite3_open(path, &db) != SQLITE_OK) {
    fprintf(stderr, "Error: unable to open database \"%s\": %s\n", path, db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return NULL;
  }
  sqlite3_enable_load_extension(db, 1);
  if (register_file_functions(db) != SQLITE_OK) {
    fprintf(stderr, "Error: cannot register readfile/fsdir: %s\n", sqlite3_errmsg(db));
    sqlite3_close(db);
    return NULL;
  }
  return db;
}

/* A boolean argument as the shell reads it: a number (non-zero is true),
** on/yes, off/no; anything else is reported and taken as no. */
static int boolean_arg(const char *z) {
  int i = 0;
  while (z[i] >= '0' && z[i] <= '9') i++;
  if (i > 0 && z[i] == 0) return atoi(z) != 0;
  if (sqlite3_stricmp(z, "on") == 0 || sqlite3_stricmp(z, "yes") == 0) return 1;
  if (sqlite3_stricmp(z, "off") == 0 || sqlite3_stricmp(z, "no") == 0) return 0;
  fprintf(stderr, "ERROR: Not a boolean value: \"%s\". Assuming \"no\".\n", z);
  return 0;
}

/* Whether word is name or an abbreviation of it of at least min
** characters (the shell accepts those). */
static int is_command(const char *word, const char *name, size_t min) {
  size_t n = strlen(word);
  return n >= min && n <= strlen(name) && strncmp(word, name, n) == 0;
}

/* Runs one dot-command line.  Returns 0 on success, 1 on an error (already
** printed), 2 for .exit/.quit. */
static int run_dot_command(Runner *r, char *line) {
  char *args[52];
  int n = split_args(line + 1, args, 52);
  const char *cmd = n ? args[0] : "";
  if (n == 0) return 0;
  if (is_command(cmd, "bail", 3) || is_command(cmd, "headers", 2) || is_command(cmd, "timer", 2)) {
    int *flag = cmd[0] == 'b' ? &r->bail : cmd[0] == 'h' ? &r->show_header : &r->timer;
    if (n != 2) {
      fprintf(stderr, "Usage: .%s on|off\n", cmd[0] == 'b' ? "bail" : cmd[0] == 'h' ? "headers" : "timer");
      return 1;
    }
    *flag = boolean_arg(args[1]);
    return 0;
  }
  if (is_command(cmd, "exit", 4) || is_command(cmd, "quit", 1)) return 2;
  if (is_command(cmd, "load", 2)) {
    char *err = NULL;
    if (n < 2) {
      fprintf(stderr, "Usage: .load FILE ?ENTRYPOINT?\n");
      return 1;
    }
    if (sqlite3_load_extension(r->db, args[1], n > 2 ? args[2] : NULL, &err) != SQLITE_OK) {
      fflush(stdout);
      fprintf(stderr, "Error: %s\n", err ? err : sqlite3_errmsg(r->db));
      sqlite3_free(err);
      return 1;
    }
    return 0;
  }
  if (is_command(cmd, "mode", 2)) {
    if (n == 1) {
      printf("current output mode: %s\n", r->mode == MODE_BOX ? "box" : "list");
      return 0;
    }
    if (strcmp(args[1], "list") == 0) r->mode = MODE_LIST;
    else if (strcmp(args[1], "box") == 0) r->mode = MODE_BOX;
    else {
      fprintf(stderr, "Error: sqlrun knows the modes list and box only, not \"%s\"\n", args[1]);
      return 1;
    }
    return 0;
  }
  if (is_command(cmd, "nullvalue", 2)) {
    char *value;
    if (n != 2) {
      fprintf(stderr, "Usage: .nullvalue STRING\n");
      return 1;
    }
    value = sqlite3_mprintf("%s", args[1]);
    if (!value) return 1;
    sqlite3_free(r->null_value);
    r->null_value = value;
    return 0;
  }
  if (is_command(cmd, "open", 2)) {
    /* a new connection (the shell's .open options are not supported) */
    sqlite3 *db;
    if (n > 2 || (n == 2 && args[1][0] == '-')) {
      fprintf(stderr, "Error: sqlrun knows .open ?FILE? only\n");
      return 1;
    }
    if (!(db = open_database(n > 1 ? args[1] : ":memory:"))) return 1;
    sqlite3_close(r->db);
    r->db = db;
    return 0;
  }
  if (is_command(cmd, "print", 2)) {
    int i;
    for (i = 1; i < n; i++) printf("%s%s", i > 1 ? " " : "", args[i]);
    fputs("\n", stdout);
    return 0;
  }
  if (is_command(cmd, "shell", 2) || is_command(cmd, "system", 3)) {
    char *shell_cmd;
    int i, status;
    if (n < 2) {
      fprintf(stderr, "Usage: .system COMMAND\n");
      return 1;
    }
    /* arguments with a space are quoted again, as the shell does */
    shell_cmd = sqlite3_mprintf(strchr(args[1], ' ') ? "\"%s\"" : "%s", args[1]);
    for (i = 2; i < n && shell_cmd; i++) {
      shell_cmd = sqlite3_mprintf(strchr(args[i], ' ') ? "%z \"%s\"" : "%z %s", shell_cmd, args[i]);
    }
    fflush(stdout);
    status = shell_cmd ? system(shell_cmd) : 1;
    sqlite3_free(shell_cmd);
    if (status) fprintf(stderr, "System command returns %d\n", status);
    return 0;
  }
  fflush(stdout);
  fprintf(stderr, "Error: unknown command or invalid arguments:  \"%s\". Enter \".help\" for help\n", cmd);
  return 1;
}

/* ---------------------------------------------------------------- */

/* Appends text (len bytes) to the SQL buffer *sql, after a line break when
** newline is set, keeping it NUL-terminated.  0 when out of memory (the
** buffer is then unchanged). */
static int append_text(char **sql, size_t *sql_len, size_t *sql_cap, const char *text, size_t len, int newline) {
  size_t need = *sql_len + len + 2;
  if (need > *sql_cap) {
    size_t cap = need > 2 * *sql_cap ? need : 2 * *sql_cap;
    char *grown = realloc(*sql, cap);
    if (!grown) return 0;
    *sql = grown;
    *sql_cap = cap;
  }
  if (newline) (*sql)[(*sql_len)++] = '\n';
  memcpy(*sql + *sql_len, text, len);
  *sql_len += len;
  (*sql)[*sql_len] = 0;
  return 1;
}

#ifdef _WIN32
/* getline(3), which the Windows C library lacks: one line of f with its
** '\n' into *line (grown as needed); -1 at the end of input. */
static ssize_t getline(char **line, size_t *cap, FILE *f) {
  size_t n = 0;
  int c;
  while ((c = getc(f)) != EOF) {
    if (n + 2 > *cap) {
      size_t grown = *cap ? *cap * 2 : 256;
      char *p = realloc(*line, grown);
      if (!p) return -1;
      *line = p;
      *cap = grown;
    }
    (*line)[n++] = (char)c;
    if (c == '\n') break;
  }
  if (n == 0) return -1;
  (*line)[n] = 0;
  return (ssize_t)n;
}
#endif

/* Reads the script from stdin and runs it (see the top of the file).
** Returns the number of errors. */
static int run_script(Runner *r) {
  char *line = NULL, *sql = NULL;
  size_t line_cap = 0, sql_len = 0, sql_cap = 0;
  ssize_t got;
  int lineno = 0, start = 0, errors = 0;
  while ((errors == 0 || !r->bail) && (got = getline(&line, &line_cap, stdin)) >= 0) {
    size_t len = (size_t)got;
    lineno++;
    if (len > 0 && line[len - 1] == '\n') {
      line[--len] = 0;
      if (len > 0 && line[len - 1] == '\r') line[--len] = 0;
    }
    if (sql_len == 0) {
      const char *text = line;
      if (line[0] == '.') {
        int rc = run_dot_command(r, line);
        if (rc == 2) break;
        errors += rc;
        continue;
      }
      if (line[0] == '#' || is_blank_sql(line)) continue;
      while (*text == ' ' || (*text >= '\t' && *text <= '\r')) text++;
      start = lineno;
      if (!append_text(&sql, &sql_len, &sql_cap, text, len - (size_t)(text - line), 0)) goto oom;
    } else if (!append_text(&sql, &sql_len, &sql_cap, line, len, 1)) {
      goto oom;
    }
    if (is_blank_sql(sql)) {
      sql_len = 0;
    } else if (sqlite3_complete(sql)) {
      errors += run_sql(r, sql, start);
      sql_len = 0;
    }
  }
  /* what is left at the end runs as it is (an unfinished statement fails) */
  if (sql && sql_len > 0 && (errors == 0 || !r->bail) && !is_blank_sql(sql)) errors += run_sql(r, sql, start);
  goto done;
oom:
  fprintf(stderr, "Error: out of memory\n");
  errors++;
done:
  free(line);
  free(sql);
  return errors;
}

int main(int argc, char **argv) {
  Runner r;
  const char *path = ":memory:";
  int i, errors;
  memset(&r, 0, sizeof r);
#ifdef _WIN32
  _setmode(_fileno(stdout), _O_BINARY);
  _setmode(_fileno(stderr), _O_BINARY);
#endif
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-batch") == 0) continue;
    if (strcmp(argv[i], "-bail") == 0) r.bail = 1;
    else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: %s [-batch] [-bail] [DATABASE] < script.sql\n", argv[0]);
      return 1;
    } else path = argv[i];
  }
  r.null_value = sqlite3_mprintf("%s", "");
  if (!r.null_value || !(r.db = open_database(path))) {
    sqlite3_free(r.null_value);
    return 1;
  }
  errors = run_script(&r);
  fflush(stdout);
  sqlite3_close(r.db);
  sqlite3_free(r.null_value);
  return errors > 0;
}
