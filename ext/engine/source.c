/*
** source.c: expansion of a table's source argument into file paths.
**
** Patterns are matched here, with readdir and a small matcher, rather than
** by glob(3): `**`, names in any case and {a,b} groups are not POSIX glob
** (GNU's flags for them are not portable, and a Windows port needs its own
** listing anyway), and glob(3) cannot tell a folder that does not exist
** from a folder without matches.  A folder is listed only where a path
** segment has wildcards, or where a plain name does not exist as spelled
** and names match in any case; a pattern's fixed folders cost a stat each.
**
** What an expansion promises beyond matching (README, "Sources"):
**  - one entry per file: paths that reach the same file (a symbolic link
**    beside its target, a hard link, "./A.WWD" beside "A.WWD") are one
**    entry, under the first of them in byte order (identity: st_dev and
**    st_ino, links followed);
**  - a walk linear in the folders it visits: repeated `**` segments are
**    one, and with several `**` each (folder, pattern position) is walked
**    once (walk_seen);
**  - no silent skips: a name the walk cannot follow (a path longer than
**    PATH_MAX, a link loop, a name it may not stat) is kept in the list,
**    so loading it reports why, as for any unreadable file;
**  - sqlite3_interrupt() stops it within a few milliseconds (ls_interrupt).
*/
#include "engine/source.h"

#include "engine/commit.h"
#include "engine/game.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Most patterns the {a,b} groups of one source may give, and how deep their
** expansion may recurse (a group inside an alternative, or after one). */
#define LS_MAX_ALTERNATIVES 1024
#define LS_MAX_GROUP_DEPTH 64

void ls_pathlist_free(ls_pathlist *list) {
  int i;
  for (i = 0; i < list->n; i++) sqlite3_free(list->paths[i]);
  sqlite3_free(list->paths);
  list->paths = NULL;
  list->n = 0;
}

/* Appends a copy of path; returns 0 when out of memory. */
static int pathlist_add(ls_pathlist *list, const char *path) {
  char **p = sqlite3_realloc64(list->paths, sizeof *p * (sqlite3_uint64)(list->n + 1));
  if (!p) return 0;
  list->paths = p;
  if (!(p[list->n] = sqlite3_mprintf("%s", path))) return 0;
  list->n++;
  return 1;
}

int ls_utf8_valid(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s, *end = p + n;
  while (p < end) {
    unsigned c = *p, need, cp, min;
    if (c < 0x80) {
      p++;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) need = 1, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) need = 2, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) need = 3, cp = c & 0x07, min = 0x10000;
    else return 0;
    if ((size_t)(end - p) <= need) return 0;
    for (p++; need > 0; need--, p++) {
      if ((*p & 0xC0) != 0x80) return 0;
      cp = cp << 6 | (*p & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  }
  return 1;
}

int ls_path_spelling_equal(const char *a, const char *b) {
#ifdef _WIN32
  for (; *a && *b; a++, b++) {
    if (*a != *b && !((*a == '/' || *a == '\\') && (*b == '/' || *b == '\\'))) return 0;
  }
  return *a == *b;
#else
  return strcmp(a, b) == 0;
#endif
}

/* ---- the paths an expansion finds ------------------------------------------- */

/* One path found, with the identity of the file it reaches when known (a
** stat that succeeded), for one entry per file (found_finish). */
typedef struct found_path {
  char *path;
  dev_t dev;
  ino_t ino;
  int known;
} found_path;

/* What one ls_source_expand carries through its walks. */
typedef struct expansion {
  found_path *found;
  int n, cap;
  ls_interrupt *ic; /* NULL: not interruptible */
  const ls_source_game *game;
  char **err;
} expansion;

static int out_of_memory(char **err) {
  *err = sqlite3_mprintf("out of memory");
  return SQLITE_NOMEM;
}

/* Whether the statement was interrupted (sqlite3_interrupt), with
** "interrupted" in *err then: every loop of the expansion asks, and passes
** SQLITE_INTERRUPT up at once. */
static int interrupted(expansion *x) {
  if (!x->ic || !ls_interrupt_check(x->ic)) return 0;
  *x->err = sqlite3_mprintf("interrupted");
  return 1;
}

/* Appends a copy of path, with st the file's stat (NULL: not known, or it
** cannot be read: loading it will say why). */
static int found_add(expansion *x, const char *path, const struct stat *st) {
  found_path *f;
  if (x->n == x->cap) {
    int cap = x->cap ? x->cap * 2 : 16;
    if (x->cap > INT_MAX / 2 || !(f = sqlite3_realloc64(x->found, sizeof *f * (sqlite3_uint64)cap))) {
      return out_of_memory(x->err);
    }
    x->found = f;
    x->cap = cap;
  }
  f = &x->found[x->n];
  memset(f, 0, sizeof *f);
  if (!(f->path = sqlite3_mprintf("%s", path))) return out_of_memory(x->err);
  if (st) {
    f->dev = st->st_dev;
    f->ino = st->st_ino;
    f->known = 1;
  }
  x->n++;
  return SQLITE_OK;
}

/* Frees the paths after the first n (what a failed expansion added). */
static void found_truncate(expansion *x, int n) {
  while (x->n > n) sqlite3_free(x->found[--x->n].path);
}

static int compare_found_paths(const void *a, const void *b) {
  return strcmp(((const found_path *)a)->path, ((const found_path *)b)->path);
}

/* A file identity and where its path stands in byte order. */
typedef struct identity {
  dev_t dev;
  ino_t ino;
  int at;
} identity;

static int compare_identities(const void *a, const void *b) {
  const identity *x = a, *y = b;
  if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
  if (x->ino != y->ino) return x->ino < y->ino ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at;
}

/* Moves the found paths into out: in byte order, each file once.  Paths
** spelled alike are one; then paths whose files have one identity (st_dev,
** st_ino, links followed: a symbolic link and its target, hard links,
** "./A.WWD" and "A.WWD") are one, under the first path in byte order.  A
** path found without a stat (a source naming one file) is stat'ed here; one
** that cannot be stat'ed stays, for its load to report. */
static int found_finish(expansion *x, ls_pathlist *out) {
  identity *ids;
  int i, kept = 0, nids = 0;
  if (x->n > 1) qsort(x->found, (size_t)x->n, sizeof *x->found, compare_found_paths);
  for (i = 0; i < x->n; i++) {
    found_path *f = &x->found[i];
    if (kept > 0 && strcmp(x->found[kept - 1].path, f->path) == 0) {
      sqlite3_free(f->path);
      continue;
    }
    x->found[kept++] = *f;
  }
  x->n = kept;
  if (!(ids = sqlite3_malloc64(sizeof *ids * (sqlite3_uint64)(x->n + 1)))) return out_of_memory(x->err);
  for (i = 0; i < x->n; i++) {
    found_path *f = &x->found[i];
    struct stat st;
    if (!f->known && stat(f->path, &st) == 0) {
      f->dev = st.st_dev;
      f->ino = st.st_ino;
      f->known = 1;
    }
    /* (a file system without inode numbers says 0: no identity then) */
    if (f->known && (f->dev != 0 || f->ino != 0)) {
      ids[nids].dev = f->dev;
      ids[nids].ino = f->ino;
      ids[nids++].at = i;
    }
  }
  qsort(ids, (size_t)nids, sizeof *ids, compare_identities);
  for (i = 1; i < nids; i++) {
    if (ids[i].dev != ids[i - 1].dev || ids[i].ino != ids[i - 1].ino) continue;
    sqlite3_free(x->found[ids[i].at].path);
    x->found[ids[i].at].path = NULL;
  }
  sqlite3_free(ids);
  out->n = 0;
  if (!(out->paths = sqlite3_malloc64(sizeof *out->paths * (sqlite3_uint64)(x->n + 1)))) return out_of_memory(x->err);
  for (i = 0; i < x->n; i++) {
    if (x->found[i].path) out->paths[out->n++] = x->found[i].path;
  }
  sqlite3_free(x->found);
  x->found = NULL;
  x->n = x->cap = 0;
  return SQLITE_OK;
}

/* What a path is (stat, or lstat when not following links).  A path that
** does not exist (or a dangling link) is missing; one that exists but
** cannot be stat'ed (longer than PATH_MAX, a link loop, no search
** permission on a folder) is unreadable: the walk keeps it, so its load
** reports why rather than the file going silently missing. */
enum path_kind { PATH_MISSING, PATH_FILE, PATH_FOLDER, PATH_OTHER, PATH_UNREADABLE };

static enum path_kind path_kind(const char *path, int follow_links, struct stat *st) {
  if ((follow_links ? stat(path, st) : lstat(path, st)) != 0) {
    return errno == ENOENT || errno == ENOTDIR ? PATH_MISSING : PATH_UNREADABLE;
  }
  return S_ISREG(st->st_mode) ? PATH_FILE : S_ISDIR(st->st_mode) ? PATH_FOLDER : PATH_OTHER;
}

static int is_regular_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_directory(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Does the file name end in one of fmt's extensions (any case)? */
static int has_format_extension(const char *name, const ls_format *fmt) {
  const char *dot = strrchr(name, '.');
  const char *const *ext;
  if (!fmt) return 1;
  if (!dot || !fmt->extensions) return 0;
  for (ext = fmt->extensions; *ext; ext++) {
    if (sqlite3_stricmp(dot, *ext) == 0) return 1;
  }
  return 0;
}

/* "dir/name", with dir "" meaning the current folder and a dir that ends
** in '/' (such as "/") not doubled.  NULL when out of memory. */
static char *path_join(const char *dir, const char *name) {
  size_t n = strlen(dir);
  if (n == 0) return sqlite3_mprintf("%s", name);
  return sqlite3_mprintf(dir[n - 1] == '/' ? "%s%s" : "%s/%s", dir, name);
}

/* ---- matching one name ------------------------------------------------------- */

/* ASCII case folding (names in other scripts match as spelled). */
static unsigned char fold_case(unsigned char c, int nocase) {
  return nocase && c >= 'A' && c <= 'Z' ? (unsigned char)(c + 'a' - 'A') : c;
}

/* Matches c against the bracket expression after a '[' at p ("a-z]",
** "!0-9]", "]x]": a leading ']' is literal, '!' or '^' negates).  Returns
** 1 or 0 and sets *end after the closing ']'; -1 when there is none (the
** '[' is then an ordinary character). */
static int bracket_match(const char *p, unsigned char c, int nocase, const char **end) {
  int negate = 0, matched = 0;
  unsigned char lc = fold_case(c, nocase);
  if (*p == '!' || *p == '^') {
    negate = 1;
    p++;
  }
  if (*p == ']') {
    matched = c == ']';
    p++;
  }
  while (*p && *p != ']') {
    unsigned char lo = (unsigned char)*p, hi = lo;
    if (p[1] == '-' && p[2] && p[2] != ']') {
      hi = (unsigned char)p[2];
      p += 3;
    } else {
      p++;
    }
    if ((c >= lo && c <= hi) || (fold_case(lo, nocase) <= lc && lc <= fold_case(hi, nocase))) matched = 1;
  }
  if (*p != ']') return -1;
  *end = p + 1;
  return matched != negate;
}

/* Does the name match the pattern segment (*, ?, [...], no '/')?  A name
** starting with a dot matches only a segment starting with a dot, as in a
** shell.  Iterative: a '*' records where to resume when a later part fails. */
static int segment_match(const char *pat, const char *name, int nocase) {
  const char *star_pat = NULL, *star_name = NULL;
  if (*name == '.' && *pat != '.') return 0;
  while (*name) {
    const char *next = pat + 1;
    int m;
    if (*pat == '*') {
      while (*pat == '*') pat++;
      star_pat = pat;
      star_name = name;
      continue;
    }
    if (*pat == '?') {
      m = 1;
    } else if (*pat != '[' || (m = bracket_match(pat + 1, (unsigned char)*name, nocase, &next)) < 0) {
      m = *pat && fold_case((unsigned char)*pat, nocase) == fold_case((unsigned char)*name, nocase);
      next = pat + 1;
    }
    if (m) {
      pat = next;
      name++;
    } else if (star_pat) {
      pat = star_pat;
      name = ++star_name;
    } else {
      return 0;
    }
  }
  while (*pat == '*') pat++;
  return *pat == 0;
}

/* Is the segment a plain name (nothing to match)? */
static int segment_is_plain(const char *seg) {
  return strpbrk(seg, "*?[") == NULL;
}

/* ---- {a,b} groups ------------------------------------------------------------- */

/* Finds the first {a,b} group of pat: a '{' whose matching '}' (nested
** braces counted) encloses a ',' at its own level, as in a shell.  Returns
** 0 when there is none: every brace left is an ordinary character. */
static int find_group(const char *pat, size_t *open, size_t *close) {
  size_t i, k;
  for (i = 0; pat[i]; i++) {
    int depth = 0, comma = 0;
    if (pat[i] != '{') continue;
    for (k = i; pat[k]; k++) {
      if (pat[k] == '{') depth++;
      else if (pat[k] == '}' && --depth == 0) break;
      else if (pat[k] == ',' && depth == 1) comma = 1;
    }
    if (pat[k] == '}' && comma) {
      *open = i;
      *close = k;
      return 1;
    }
  }
  return 0;
}

/* Appends to out every pattern the {a,b} groups of pat stand for (the first
** group's alternatives, each expanded again for the groups left). */
static int expand_groups(const char *pat, int depth, ls_pathlist *out, char **err) {
  size_t open, close, start, k;
  int nested = 0;
  if (!find_group(pat, &open, &close)) {
    if (out->n >= LS_MAX_ALTERNATIVES) depth = LS_MAX_GROUP_DEPTH + 1;
    else return pathlist_add(out, pat) ? SQLITE_OK : out_of_memory(err);
  }
  if (depth > LS_MAX_GROUP_DEPTH) {
    *err = sqlite3_mprintf("the {a,b} groups of the source give more than %d patterns (or nest deeper than %d)",
                           LS_MAX_ALTERNATIVES, LS_MAX_GROUP_DEPTH);
    return SQLITE_ERROR;
  }
  for (start = k = open + 1; k <= close; k++) {
    if (pat[k] == '{') {
      nested++;
    } else if (pat[k] == '}' && nested > 0) {
      nested--;
    } else if ((pat[k] == ',' && nested == 0) || k == close) {
      char *alt = sqlite3_mprintf("%.*s%.*s%s", (int)open, pat, (int)(k - start), pat + start, pat + close + 1);
      int rc = alt ? expand_groups(alt, depth + 1, out, err) : out_of_memory(err);
      sqlite3_free(alt);
      if (rc != SQLITE_OK) return rc;
      start = k + 1;
    }
  }
  return SQLITE_OK;
}

/* ---- walking the folders of one pattern ------------------------------------ */

/* The (folder, pattern position) pairs a walk has been at, when the
** pattern has several `**`: with "** / x / ** / *.map" (without the spaces)
** a folder below two x's is reached at the second `**` once through each,
** and a naive walk repeats all that follows, exponentially in the number
** of `**`.  A pair seen before has
** given its matches already.  Open addressing on the folder's path. */
typedef struct walk_seen_slot {
  char *dir; /* NULL: empty */
  int seg;
} walk_seen_slot;

typedef struct walk_seen {
  walk_seen_slot *slots;
  size_t cap, n; /* cap a power of two (or 0), n at most half of it */
} walk_seen;

static size_t walk_seen_hash(const char *dir, int seg) {
  uint64_t h = 14695981039346656037ULL ^ (uint64_t)(unsigned)seg;
  for (; *dir; dir++) h = (h ^ (unsigned char)*dir) * 1099511628211ULL;
  return (size_t)(h ^ (h >> 29));
}

/* Records (dir, seg): 1 when new, 0 when seen before, -1 out of memory. */
static int walk_seen_add(walk_seen *s, const char *dir, int seg) {
  size_t i;
  if (2 * (s->n + 1) > s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64, k;
    walk_seen_slot *slots;
    if (cap > SIZE_MAX / 2 / sizeof *slots || !(slots = sqlite3_malloc64(sizeof *slots * (sqlite3_uint64)cap))) return -1;
    memset(slots, 0, sizeof *slots * cap);
    for (k = 0; k < s->cap; k++) {
      if (!s->slots[k].dir) continue;
      for (i = walk_seen_hash(s->slots[k].dir, s->slots[k].seg) & (cap - 1); slots[i].dir; i = (i + 1) & (cap - 1)) {
      }
      slots[i] = s->slots[k];
    }
    sqlite3_free(s->slots);
    s->slots = slots;
    s->cap = cap;
  }
  for (i = walk_seen_hash(dir, seg) & (s->cap - 1); s->slots[i].dir; i = (i + 1) & (s->cap - 1)) {
    if (s->slots[i].seg == seg && strcmp(s->slots[i].dir, dir) == 0) return 0;
  }
  if (!(s->slots[i].dir = sqlite3_mprintf("%s", dir))) return -1;
  s->slots[i].seg = seg;
  s->n++;
  return 1;
}

static void walk_seen_free(walk_seen *s) {
  size_t k;
  for (k = 0; k < s->cap; k++) sqlite3_free(s->slots[k].dir);
  sqlite3_free(s->slots);
  memset(s, 0, sizeof *s);
}

typedef struct glob_walk {
  const char **segs; /* the pattern's path segments (no empty ones, no `**` twice in a row) */
  int nsegs;
  int nfixed;        /* leading folder segments that are plain names */
  int reached;       /* how many of those were found (0: only the start) */
  int globstars;     /* how many `**` segments */
  int nocase;
  walk_seen seen;    /* with globstars > 1 */
  expansion *x;
} glob_walk;

/* What a listing of a folder looks for (walk_listing). */
enum listing_mode {
  LIST_PATTERN,   /* names matching the segment */
  LIST_ANY_CASE,  /* the segment's plain name in another case */
  LIST_SUBFOLDERS /* every visible real subfolder, for `**` */
};

static int walk(glob_walk *w, const char *dir, int i);

/* Takes path, which matched segment i: a file is kept when i is the last
** segment, a folder is walked into for the next one; a path that cannot
** be stat'ed is kept either way (path_kind). */
static int walk_visit(glob_walk *w, char *path, int i) {
  struct stat st;
  enum path_kind kind;
  int rc = SQLITE_OK;
  if (!path) return out_of_memory(w->x->err);
  kind = path_kind(path, 1, &st);
  if (kind == PATH_UNREADABLE) rc = found_add(w->x, path, NULL);
  else if (i == w->nsegs - 1) rc = kind == PATH_FILE ? found_add(w->x, path, &st) : SQLITE_OK;
  else if (kind == PATH_FOLDER) rc = walk(w, path, i + 1);
  sqlite3_free(path);
  return rc;
}

/* Lists dir (an existing folder) and goes on from the entries the mode
** picks for segment i.  A folder that cannot be listed is an error: files
** silently missing would look like a smaller collection. */
static int walk_listing(glob_walk *w, const char *dir, int i, enum listing_mode mode) {
  const char *seg = w->segs[i];
  DIR *d = opendir(*dir ? dir : ".");
  struct dirent *e;
  int rc = SQLITE_OK;
  if (!d) {
    if (errno == ENOENT || errno == ENOTDIR) return SQLITE_OK; /* gone meanwhile */
    *w->x->err = sqlite3_mprintf("%s: cannot list the folder: %s", *dir ? dir : ".", strerror(errno));
    return SQLITE_ERROR;
  }
  while (rc == SQLITE_OK && (e = readdir(d)) != NULL) {
    const char *name = e->d_name;
    if (interrupted(w->x)) {
      rc = SQLITE_INTERRUPT;
      break;
    }
    /* (a dot-glob must not list a writer's temporary files and journals) */
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || ls_commit_owns_name(name)) continue;
    if (mode == LIST_SUBFOLDERS) {
      struct stat st;
      char *path;
      if (name[0] == '.') continue;
      if (!(path = path_join(dir, name))) {
        rc = out_of_memory(w->x->err);
        break;
      }
      switch (path_kind(path, 0, &st)) {
        case PATH_FOLDER: rc = walk(w, path, i); break;
        case PATH_UNREADABLE: rc = found_add(w->x, path, NULL); break;
        default: break;
      }
      sqlite3_free(path);
    } else if (mode == LIST_ANY_CASE ? sqlite3_stricmp(name, seg) == 0 : segment_match(seg, name, w->nocase)) {
      rc = walk_visit(w, path_join(dir, name), i);
    }
  }
  closedir(d);
  return rc;
}

/* Matches segments i.. below the existing folder dir ("" for the current
** one).  `**` matches dir itself, then every visible subfolder in turn
** (symbolic links to folders are not followed, so a link up the tree
** cannot loop); a plain name is taken as spelled when it exists, else
** (nocase) in any case; other segments list the folder.  With several
** `**`, a (dir, i) seen before is not walked again (walk_seen). */
static int walk(glob_walk *w, const char *dir, int i) {
  const char *seg = w->segs[i];
  if (interrupted(w->x)) return SQLITE_INTERRUPT;
  if (w->globstars > 1) {
    int fresh = walk_seen_add(&w->seen, dir, i);
    if (fresh < 0) return out_of_memory(w->x->err);
    if (!fresh) return SQLITE_OK;
  }
  if (i <= w->nfixed && i > w->reached) w->reached = i;
  if (strcmp(seg, "**") == 0) {
    int rc = walk(w, dir, i + 1);
    return rc == SQLITE_OK ? walk_listing(w, dir, i, LIST_SUBFOLDERS) : rc;
  }
  if (segment_is_plain(seg)) {
    struct stat st;
    char *path = path_join(dir, seg);
    enum path_kind kind;
    int rc;
    if (!path) return out_of_memory(w->x->err);
    kind = path_kind(path, 1, &st);
    if (i == w->nsegs - 1 ? kind == PATH_FILE : kind == PATH_FOLDER) return walk_visit(w, path, i);
    if (kind == PATH_UNREADABLE) {
      /* not a missing folder: the path is listed, its load says why */
      w->reached = w->nfixed;
      rc = found_add(w->x, path, NULL);
      sqlite3_free(path);
      return rc;
    }
    sqlite3_free(path);
    return w->nocase ? walk_listing(w, dir, i, LIST_ANY_CASE) : SQLITE_OK;
  }
  return walk_listing(w, dir, i, LIST_PATTERN);
}

/* Does c separate the names of a path?  On Windows '\\' does too (it is
** never an escape there); a drive letter stays the first segment ("C:"). */
#ifdef _WIN32
#define is_separator(c) ((c) == '/' || (c) == '\\')
#else
#define is_separator(c) ((c) == '/')
#endif

/* Appends the regular files matching one pattern without {a,b} groups.  A
** missing fixed folder is an error naming it; `source` is the pattern as
** the user wrote it, for that message. */
static int expand_pattern(expansion *x, const char *pattern, const char *source, int nocase) {
  char *copy = sqlite3_mprintf("%s", pattern), *p;
  const char *start = is_separator(pattern[0]) ? "/" : "";
  glob_walk w;
  int rc = SQLITE_OK, k;
  memset(&w, 0, sizeof w);
  w.nocase = nocase;
  w.x = x;
  if (!copy || !(w.segs = sqlite3_malloc64(sizeof *w.segs * (strlen(pattern) + 2)))) {
    sqlite3_free(copy);
    return out_of_memory(x->err);
  }
  /* split at '/' (and '\\' on Windows) in place, dropping empty segments
  ** and a `**` segment right after another: repeated, it means one */
  for (p = copy; *p; p++) {
    if (is_separator(*p)) {
      *p = 0;
    } else if (p == copy || p[-1] == 0) {
      if (w.nsegs > 0 && strcmp(w.segs[w.nsegs - 1], "**") == 0 && strncmp(p, "**", 2) == 0 &&
          (p[2] == 0 || is_separator(p[2]))) {
        continue;
      }
      w.segs[w.nsegs++] = p;
    }
  }
  /* a final `**` means every file below */
  if (w.nsegs > 0 && strcmp(w.segs[w.nsegs - 1], "**") == 0) w.segs[w.nsegs++] = "*";
  while (w.nfixed < w.nsegs - 1 && segment_is_plain(w.segs[w.nfixed])) w.nfixed++;
  for (k = 0; k < w.nsegs; k++) w.globstars += strcmp(w.segs[k], "**") == 0;
  if (w.nsegs > 0) rc = walk(&w, start, 0);
  if (rc == SQLITE_OK && w.reached < w.nfixed) {
    sqlite3_str *missing = sqlite3_str_new(NULL);
    sqlite3_str_appendall(missing, start);
    for (k = 0; k <= w.reached; k++) sqlite3_str_appendf(missing, "%s%s", k ? "/" : "", w.segs[k]);
    p = sqlite3_str_finish(missing);
    *x->err = p ? sqlite3_mprintf("%s: no such folder (in the source pattern '%s')", p, source) : NULL;
    sqlite3_free(p);
    rc = *x->err ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  walk_seen_free(&w.seen);
  sqlite3_free(w.segs);
  sqlite3_free(copy);
  return rc;
}

/* ---- one source ------------------------------------------------------------- */

/* ls_game_list's add: one path of a game. */
static int found_add_game_path(void *ctx, const char *path) {
  return found_add((expansion *)ctx, path, NULL);
}

/* Appends the resources of the game of `key` (game.h). */
static int expand_game(expansion *x, const char *key) {
  return ls_game_list(x->game->game, key, x->game->types, x->ic, found_add_game_path, x, x->err);
}

/* Appends the regular files of a folder (not recursive, not hidden) with
** one of fmt's extensions, and those that cannot be stat'ed (path_kind);
** or, for a game's folder (one holding a chitin.key, game.h), the game's
** resources instead, the folder listed once either way. */
static int expand_directory(expansion *x, const char *dir, const ls_format *fmt) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char *key = NULL;
  int rc = SQLITE_OK, n0 = x->n, has_key = 0;
  if (!d) {
    *x->err = sqlite3_mprintf("%s: cannot list the directory: %s", dir, strerror(errno));
    return SQLITE_ERROR;
  }
  while (rc == SQLITE_OK && (e = readdir(d)) != NULL) {
    struct stat st;
    char *path;
    if (interrupted(x)) {
      rc = SQLITE_INTERRUPT;
      break;
    }
    if (sqlite3_stricmp(e->d_name, "chitin.key") == 0) has_key = 1;
    if (e->d_name[0] == '.' || !has_format_extension(e->d_name, fmt)) continue;
    if (!(path = path_join(dir, e->d_name))) {
      rc = out_of_memory(x->err);
      break;
    }
    switch (path_kind(path, 1, &st)) {
      case PATH_FILE: rc = found_add(x, path, &st); break;
      case PATH_UNREADABLE: rc = found_add(x, path, NULL); break;
      default: break;
    }
    sqlite3_free(path);
  }
  closedir(d);
  if (rc == SQLITE_OK && has_key && x->game && ls_game_key_of(dir, 1, &key)) {
    found_truncate(x, n0); /* a game's other files are no level files */
    rc = key ? expand_game(x, key) : out_of_memory(x->err);
    sqlite3_free(key);
  }
  return rc;
}

/* Replaces the paths found from index n0 on that are game keys (the
** chitin.key of every folder a pattern matched) with their games'
** resources. */
static int expand_matched_games(expansion *x, int n0) {
  int i, n = x->n, rc = SQLITE_OK;
  for (i = n0; rc == SQLITE_OK && i < n; i++) {
    char *key = NULL;
    if (!x->found[i].path || !ls_game_key_of(x->found[i].path, 0, &key)) continue;
    if (!key) return out_of_memory(x->err);
    rc = expand_game(x, key);
    sqlite3_free(key);
    sqlite3_free(x->found[i].path); /* the key itself is no level file */
    x->found[i].path = NULL;
  }
  for (i = n0, n = n0; i < x->n; i++) { /* close the gaps */
    if (x->found[i].path) x->found[n++] = x->found[i];
  }
  x->n = n;
  return rc;
}

/* Appends what one source (not an array) names: a pattern's matches, a
** folder's level files, a game's resources, or the path itself.  A
** pattern that matches nothing, or misses a folder, but is the name of a
** real file (brackets and braces are legal in names) gives that file. */
static int expand_one(expansion *x, const char *source, const ls_format *fmt, int nocase) {
  size_t open, close;
  char *key = NULL;
  int rc;
  if (strpbrk(source, "*?[") || find_group(source, &open, &close)) {
    ls_pathlist patterns = {NULL, 0};
    int n0 = x->n, i;
    rc = expand_groups(source, 0, &patterns, x->err);
    for (i = 0; rc == SQLITE_OK && i < patterns.n; i++) rc = expand_pattern(x, patterns.paths[i], source, nocase);
    ls_pathlist_free(&patterns);
    if (rc == SQLITE_OK && x->game && x->n > n0) return expand_matched_games(x, n0);
    if (!(rc == SQLITE_ERROR || (rc == SQLITE_OK && x->n == n0)) || !is_regular_file(source)) return rc;
    found_truncate(x, n0);
    sqlite3_free(*x->err);
    *x->err = NULL;
  } else if (is_directory(source)) {
    return expand_directory(x, source, fmt);
  } else if (x->game && ls_game_key_of(source, 0, &key)) {
    rc = key ? expand_game(x, key) : out_of_memory(x->err);
    sqlite3_free(key);
    return rc;
  }
  return found_add(x, source, NULL);
}

/* ---- JSON arrays of sources -------------------------------------------------- */

static const char *json_skip_space(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

/* Does the source start like a JSON array ('[' then '"' or ']', spaces
** allowed)?  A pattern such as '[abc]*.wwd' does not. */
static int looks_like_json_array(const char *s) {
  s = json_skip_space(s);
  if (*s != '[') return 0;
  s = json_skip_space(s + 1);
  return *s == '"' || *s == ']';
}

/* Reads 4 hex digits. */
static int json_hex4(const char *p, unsigned *out) {
  int i;
  *out = 0;
  for (i = 0; i < 4; i++) {
    char c = p[i];
    unsigned v = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                 : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                 : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16;
    if (v == 16) return 0;
    *out = *out * 16 + v;
  }
  return 1;
}

/* Appends code point cp as UTF-8. */
static void append_utf8(sqlite3_str *s, unsigned cp) {
  if (cp < 0x80) {
    sqlite3_str_appendchar(s, 1, (char)cp);
  } else if (cp < 0x800) {
    sqlite3_str_appendchar(s, 1, (char)(0xC0 | (cp >> 6)));
    sqlite3_str_appendchar(s, 1, (char)(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    sqlite3_str_appendchar(s, 1, (char)(0xE0 | (cp >> 12)));
    sqlite3_str_appendchar(s, 1, (char)(0x80 | ((cp >> 6) & 0x3F)));
    sqlite3_str_appendchar(s, 1, (char)(0x80 | (cp & 0x3F)));
  } else {
    sqlite3_str_appendchar(s, 1, (char)(0xF0 | (cp >> 18)));
    sqlite3_str_appendchar(s, 1, (char)(0x80 | ((cp >> 12) & 0x3F)));
    sqlite3_str_appendchar(s, 1, (char)(0x80 | ((cp >> 6) & 0x3F)));
    sqlite3_str_appendchar(s, 1, (char)(0x80 | (cp & 0x3F)));
  }
}

/* Reads the JSON string whose opening quote is at *pp into a new
** sqlite3_malloc'd UTF-8 string and moves *pp past its closing quote.
** Escapes: \" \\ \/ \b \f \n \r \t and \uXXXX (surrogate pairs joined).
** On failure returns NULL with *what saying why (NULL: out of memory) and
** *pp at the offending byte. */
static char *json_string(const char **pp, const char **what) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  const char *p = *pp + 1;
  char *text;
  *what = NULL;
  while (*p != '"') {
    unsigned char c = (unsigned char)*p;
    unsigned cp, low;
    if (c == 0) *what = "the string is not closed";
    else if (c < 0x20) *what = "a control character in a string (write it as \\u00XX)";
    if (*what) break;
    if (c != '\\') {
      sqlite3_str_appendchar(s, 1, (char)c);
      p++;
      continue;
    }
    switch (p[1]) {
      case '"': case '\\': case '/': cp = (unsigned char)p[1]; break;
      case 'b': cp = '\b'; break;
      case 'f': cp = '\f'; break;
      case 'n': cp = '\n'; break;
      case 'r': cp = '\r'; break;
      case 't': cp = '\t'; break;
      case 'u':
        if (!json_hex4(p + 2, &cp)) {
          *what = "\\u needs 4 hex digits";
        } else if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (p[6] != '\\' || p[7] != 'u' || !json_hex4(p + 8, &low) || low < 0xDC00 || low > 0xDFFF) {
            *what = "a high surrogate \\u escape without its low surrogate";
          } else {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            p += 6;
          }
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          *what = "a low surrogate \\u escape without its high surrogate";
        } else if (cp == 0) {
          *what = "\\u0000: a path cannot hold a NUL character";
        }
        if (*what) break;
        append_utf8(s, cp);
        p += 6;
        continue;
      default: *what = "an unknown escape (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"; break;
    }
    if (*what) break;
    sqlite3_str_appendchar(s, 1, (char)cp);
    p += 2;
  }
  if (!*what && sqlite3_str_length(s) == 0) *what = "an empty string names no file";
  if (*what || sqlite3_str_errcode(s) != SQLITE_OK) {
    sqlite3_free(sqlite3_str_finish(s));
    *pp = p;
    return NULL;
  }
  text = sqlite3_str_finish(s);
  *pp = p + 1;
  return text;
}

/* Parses a JSON array of strings (strictly: JSON spaces, no trailing comma,
** nothing after the ']') into out. */
static int json_paths(const char *source, ls_pathlist *out, char **err) {
  const char *p = json_skip_space(json_skip_space(source) + 1);
  const char *what = NULL;
  int element = 0; /* 1-based number of the element where it went wrong */
  if (*p != ']') {
    for (;;) {
      char *text;
      element = out->n + 1;
      if (*p != '"') {
        what = "not a string";
        break;
      }
      if (!(text = json_string(&p, &what))) {
        if (!what) return out_of_memory(err);
        break;
      }
      if (!pathlist_add(out, text)) {
        sqlite3_free(text);
        return out_of_memory(err);
      }
      sqlite3_free(text);
      element = 0;
      p = json_skip_space(p);
      if (*p == ']') break;
      if (*p != ',') {
        what = "expected ',' or ']'";
        break;
      }
      p = json_skip_space(p + 1);
    }
  }
  if (!what) {
    p = json_skip_space(p + 1);
    if (*p) what = "text after the closing ']'";
  }
  if (!what) return SQLITE_OK;
  *err = element ? sqlite3_mprintf("the source is not a valid JSON array of paths: byte offset %d: element %d: %s",
                                   (int)(p - source), element, what)
                 : sqlite3_mprintf("the source is not a valid JSON array of paths: byte offset %d: %s",
                                   (int)(p - source), what);
  return SQLITE_ERROR;
}

int ls_source_expand(const char *source, const ls_format *fmt, const ls_source_game *game, int nocase,
                     ls_interrupt *ic, ls_pathlist *out, char **err) {
  expansion x;
  int rc = SQLITE_OK;
  out->paths = NULL;
  out->n = 0;
  memset(&x, 0, sizeof x);
  x.ic = ic;
  x.game = game;
  x.err = err;
  if (!*source) {
    /* '' is a slip (an unset variable in a script), not a file called "" */
    *err = sqlite3_mprintf("the source is empty: give a file, a folder, a pattern or a JSON array of them");
    return SQLITE_ERROR;
  }
  if (looks_like_json_array(source)) {
    ls_pathlist elements = {NULL, 0};
    int i;
    rc = json_paths(source, &elements, err);
    if (rc == SQLITE_ERROR && (is_regular_file(source) || is_directory(source))) {
      /* a file or folder whose name only looks like an array */
      sqlite3_free(*err);
      *err = NULL;
      rc = expand_one(&x, source, fmt, nocase);
    } else {
      for (i = 0; rc == SQLITE_OK && i < elements.n; i++) rc = expand_one(&x, elements.paths[i], fmt, nocase);
    }
    ls_pathlist_free(&elements);
  } else {
    rc = expand_one(&x, source, fmt, nocase);
  }
  if (rc == SQLITE_OK) rc = found_finish(&x, out);
  if (rc != SQLITE_OK) {
    found_truncate(&x, 0);
    sqlite3_free(x.found);
    ls_pathlist_free(out);
  }
  return rc;
}
