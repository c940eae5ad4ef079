/*
** game.c: an Infinity Engine game as a source: listing a game's resources,
** resolving "<key>:<RESREF.EXT>" paths, reading a resource's bytes through
** its archive's index, and creating the override file an edit goes to
** (game.h; README, "The game as a source"; the formats in
** codecs/key/NOTES-key.md).
**
** Where the game's files are, as the games and GemRB look for them:
**  - an archive: the key's BIFF name ("data\AREAS.bif") below the key's
**    folder, each part matched in any case where the spelling given is
**    not there (an installation copied from Windows keeps its case, a
**    mod's key may not); failing that, the same name with ".cbf" for
**    ".bif" (Icewind Dale's compressed archives), then below "CD<n>" for
**    each CD the entry's location names;
**  - the override folder: the key's folder's "override", in any case.
** Listings of the two folders are cached like the files are (by the
** folder's stat), and taken again when the folder changed, or changed
** less than a second before it was listed (a change in the same clock
** tick would not show).
*/
#include "engine/game.h"

#include "engine/commit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/bytes.h"
#include "key/key.h"

/* ---- small helpers ------------------------------------------------------------ */

static int64_t realtime_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int same_file(const struct stat *a, const struct stat *b) {
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
         ls_stat_mtime_ns(a) == ls_stat_mtime_ns(b);
}

static int ends_with_nocase(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && sqlite3_stricmp(s + n - k, suffix) == 0;
}

/* The name part of a path (after its last '/'). */
static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* "dir/name" (sqlite3_malloc'd; dir "" gives name). */
static char *join(const char *dir, const char *name) {
  size_t n = strlen(dir);
  if (!n) return sqlite3_mprintf("%s", name);
  return sqlite3_mprintf(dir[n - 1] == '/' ? "%s%s" : "%s/%s", dir, name);
}

/* FNV-1a 64 of n bytes, continuing from h. */
static uint64_t fnv_add(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

/* Adds a file's identity (device, inode, size, modification time). */
static uint64_t fnv_stat(uint64_t h, const struct stat *st) {
  int64_t v[4] = {(int64_t)st->st_dev, (int64_t)st->st_ino, (int64_t)st->st_size, ls_stat_mtime_ns(st)};
  return fnv_add(h, v, sizeof v);
}

/* The identity of a resource (game.h): the archive's device and inode,
** the resource's size, and as modification time a stamp of the key's and
** the archive's identities and the resource's entry. */
static void resource_stat(const struct stat *key_st, const struct stat *arch_st, uint32_t entry, uint32_t locator,
                          uint64_t size, struct stat *out) {
  uint64_t h = 14695981039346656037ull, stamp;
  memset(out, 0, sizeof *out);
  h = fnv_stat(h, key_st);
  h = fnv_stat(h, arch_st);
  h = fnv_add(h, &entry, sizeof entry);
  h = fnv_add(h, &locator, sizeof locator);
  stamp = h >> 2; /* a positive int64_t of nanoseconds */
  out->st_dev = arch_st->st_dev;
  out->st_ino = arch_st->st_ino;
  out->st_size = (off_t)size;
  out->st_mode = S_IFREG | (arch_st->st_mode & 0777);
  out->st_nlink = 1;
  out->st_mtim.tv_sec = (time_t)(stamp / 1000000000u);
  out->st_mtim.tv_nsec = (long)(stamp % 1000000000u);
}

/* Reads n bytes at offset of the open file fd: 1, or 0 with *why (errno; 0
** when the file ends first). */
static int read_at(int fd, uint64_t offset, unsigned char *dst, size_t n, int *why) {
  size_t done = 0;
  while (done < n) {
    ssize_t got = pread(fd, dst + done, n - done, (off_t)(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      *why = got < 0 ? errno : 0;
      return 0;
    }
    done += (size_t)got;
  }
  return 1;
}

/* ---- folder listings ------------------------------------------------------------ */

/* The names of a folder (not "." and "..", not hidden), as of its stat. */
typedef struct listing {
  char *path;      /* the folder's canonical path */
  struct stat st;  /* when listed */
  int64_t listed_ns;
  char **names;    /* sorted without ASCII case */
  int n;
  int valid;
} listing;

static void listing_clear(listing *l) {
  int i;
  for (i = 0; i < l->n; i++) sqlite3_free(l->names[i]);
  sqlite3_free(l->names);
  l->names = NULL;
  l->n = 0;
  l->valid = 0;
}

static void listing_free(listing *l) {
  listing_clear(l);
  sqlite3_free(l->path);
  l->path = NULL;
}

static int compare_names_nocase(const void *a, const void *b) {
  int c = sqlite3_stricmp(*(char *const *)a, *(char *const *)b);
  return c ? c : strcmp(*(char *const *)a, *(char *const *)b);
}

/* Makes l the listing of folder `path` as it is now: kept when the folder
** is the one listed, unchanged, and was not changed in the second before
** the listing; else listed again.  Returns SQLITE_OK, SQLITE_NOMEM, or
** SQLITE_ERROR when the folder cannot be listed (*why: errno). */
static int listing_refresh(listing *l, const char *path, int *why) {
  struct stat st;
  DIR *d;
  struct dirent *e;
  int cap = 0;
  if (stat(path, &st) != 0) {
    *why = errno;
    return SQLITE_ERROR;
  }
  if (l->valid && l->path && strcmp(l->path, path) == 0 && same_file(&l->st, &st) &&
      l->listed_ns - ls_stat_mtime_ns(&st) > 1000000000) {
    return SQLITE_OK;
  }
  listing_clear(l);
  if (!l->path || strcmp(l->path, path) != 0) {
    sqlite3_free(l->path);
    if (!(l->path = sqlite3_mprintf("%s", path))) return SQLITE_NOMEM;
  }
  l->listed_ns = realtime_ns();
  if (!(d = opendir(path))) {
    *why = errno;
    return SQLITE_ERROR;
  }
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    if (l->n == cap) {
      int ncap = cap ? cap * 2 : 32;
      char **p = sqlite3_realloc64(l->names, sizeof *p * (sqlite3_uint64)ncap);
      if (!p) break;
      l->names = p;
      cap = ncap;
    }
    if (!(l->names[l->n] = sqlite3_mprintf("%s", e->d_name))) break;
    l->n++;
  }
  closedir(d);
  if (e) {
    listing_clear(l);
    return SQLITE_NOMEM;
  }
  qsort(l->names, (size_t)l->n, sizeof *l->names, compare_names_nocase);
  l->st = st;
  l->valid = 1;
  return SQLITE_OK;
}

/* The first name of l equal to name without ASCII case, or NULL. */
static const char *listing_find(const listing *l, const char *name) {
  int lo = 0, hi = l->n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (sqlite3_stricmp(l->names[mid], name) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < l->n && sqlite3_stricmp(l->names[lo], name) == 0 ? l->names[lo] : NULL;
}

/* ---- inflated bytes, shared ------------------------------------------------------
**
** A scan reads resource after resource of one compressed archive, and the
** resources are smaller than what must be inflated to reach them: a
** BIFC's block holds several, and a BIF V1.0's stream must be inflated
** from its start.  So what was inflated is kept, shared by the
** connection's thread and its parse-ahead workers (which read resources
** side by side): BIFC blocks read in part, and the start of a BIF V1.0's
** stream, each under a tag (a hash of the archive's identity, its
** container, where the bytes start), the least recently used going first
** beyond LS_GAME_INFLATED_BYTES.  Reference counted: the game and every
** ls_res_loc made from it hold one, so a worker's job may outlive the
** game. */

#define LS_GAME_INFLATED_SLOTS 16
#define LS_GAME_INFLATED_BYTES ((size_t)64 << 20)

typedef struct inflated_entry {
  uint64_t tag[3];
  unsigned char *data; /* malloc'd; NULL: a free slot */
  size_t size;
  uint64_t used;
} inflated_entry;

struct ls_inflated {
  pthread_mutex_t lock;
  int refs;
  inflated_entry slots[LS_GAME_INFLATED_SLOTS];
  size_t bytes;
  uint64_t tick;
};

static ls_inflated *inflated_new(void) {
  ls_inflated *c = calloc(1, sizeof *c);
  if (c && pthread_mutex_init(&c->lock, NULL) != 0) {
    free(c);
    return NULL;
  }
  if (c) c->refs = 1;
  return c;
}

static void inflated_ref(ls_inflated *c) {
  pthread_mutex_lock(&c->lock);
  c->refs++;
  pthread_mutex_unlock(&c->lock);
}

static void inflated_unref(ls_inflated *c) {
  int last, i;
  if (!c) return;
  pthread_mutex_lock(&c->lock);
  last = --c->refs == 0;
  pthread_mutex_unlock(&c->lock);
  if (!last) return;
  for (i = 0; i < LS_GAME_INFLATED_SLOTS; i++) free(c->slots[i].data);
  pthread_mutex_destroy(&c->lock);
  free(c);
}

static void tag_of(const struct stat *st, int container, uint64_t at, uint64_t tag[3]) {
  tag[0] = fnv_stat(14695981039346656037ull, st);
  tag[1] = (uint64_t)container;
  tag[2] = at;
}

/* The slot of tag (lock held), or NULL. */
static inflated_entry *inflated_find(ls_inflated *c, const uint64_t tag[3]) {
  int i;
  for (i = 0; i < LS_GAME_INFLATED_SLOTS; i++) {
    if (c->slots[i].data && memcmp(c->slots[i].tag, tag, sizeof c->slots[i].tag) == 0) return &c->slots[i];
  }
  return NULL;
}

/* Copies bytes [from, from + len) of the entry of tag into dst when it
** holds them (returns 1); else returns 0 and sets *held to the entry's
** size (0: none). */
static int inflated_copy(ls_inflated *c, const uint64_t tag[3], size_t from, size_t len, unsigned char *dst,
                         size_t *held) {
  inflated_entry *e;
  int ok = 0;
  *held = 0;
  if (!c) return 0;
  pthread_mutex_lock(&c->lock);
  if ((e = inflated_find(c, tag)) != NULL) {
    *held = e->size;
    if (from <= e->size && len <= e->size - from) {
      memcpy(dst, e->data + from, len);
      e->used = ++c->tick;
      ok = 1;
    }
  }
  pthread_mutex_unlock(&c->lock);
  return ok;
}

/* Keeps data (malloc'd, size bytes; taken) under tag, in place of what the
** tag held, the least recently used going until it fits; more than the
** whole budget is not kept. */
static void inflated_put(ls_inflated *c, const uint64_t tag[3], unsigned char *data, size_t size) {
  inflated_entry *e;
  int i;
  if (!c || size > LS_GAME_INFLATED_BYTES) {
    free(data);
    return;
  }
  pthread_mutex_lock(&c->lock);
  if ((e = inflated_find(c, tag)) != NULL) {
    c->bytes -= e->size;
    free(e->data);
    e->data = NULL;
  }
  for (;;) {
    inflated_entry *oldest = NULL, *empty = NULL;
    for (i = 0; i < LS_GAME_INFLATED_SLOTS; i++) {
      inflated_entry *x = &c->slots[i];
      if (!x->data) {
        if (!empty) empty = x;
      } else if (!oldest || x->used < oldest->used) {
        oldest = x;
      }
    }
    if (empty && c->bytes + size <= LS_GAME_INFLATED_BYTES) {
      e = empty;
      break;
    }
    c->bytes -= oldest->size; /* (full, or over the budget: something is kept) */
    free(oldest->data);
    oldest->data = NULL;
  }
  memcpy(e->tag, tag, sizeof e->tag);
  e->data = data;
  e->size = size;
  e->used = ++c->tick;
  c->bytes += size;
  pthread_mutex_unlock(&c->lock);
}

/* ---- the cache: keys and their archives ------------------------------------------ */

/* An archive a key's BIFF entry names, as found and indexed. */
typedef struct game_archive {
  char *path;           /* the file found (canonical), NULL: not looked for or not found */
  struct stat st;       /* of the file when indexed */
  int container;        /* BIFF_CONTAINER_* */
  biff_archive *index;  /* its entries (no data) */
  bifc_map *map;        /* BIFC: its blocks */
} game_archive;

/* A parsed key with what was found beside it. */
typedef struct game_key {
  char *canon;            /* realpath of the key */
  char *dir;              /* its folder */
  struct stat st;         /* of the bytes parsed */
  key_file *key;
  game_archive *archives; /* by BIFF entry */
  listing folder;         /* the key's folder (to find "override") */
  listing override;       /* the override folder (path NULL: none yet) */
  uint64_t used;          /* for the LRU */
} game_key;

struct ls_game {
  game_key *keys[LS_GAME_MAX_KEYS];
  int nkeys;
  uint64_t tick;
  ls_inflated *inflated; /* shared with the locs of its resources (see "inflated bytes, shared") */
};

static void archive_clear(game_archive *a) {
  sqlite3_free(a->path);
  biff_free(a->index);
  bifc_map_free(a->map);
  memset(a, 0, sizeof *a);
}

static void game_key_free(game_key *k) {
  uint32_t i;
  if (!k) return;
  for (i = 0; k->archives && k->key && i < k->key->num_biffs; i++) archive_clear(&k->archives[i]);
  sqlite3_free(k->archives);
  key_free(k->key);
  listing_free(&k->folder);
  listing_free(&k->override);
  sqlite3_free(k->canon);
  sqlite3_free(k->dir);
  sqlite3_free(k);
}

ls_game *ls_game_new(void) {
  ls_game *g = sqlite3_malloc(sizeof *g);
  if (g) memset(g, 0, sizeof *g);
  if (g) g->inflated = inflated_new(); /* (NULL: nothing is kept) */
  return g;
}

void ls_game_free(ls_game *g) {
  int i;
  if (!g) return;
  for (i = 0; i < g->nkeys; i++) game_key_free(g->keys[i]);
  inflated_unref(g->inflated);
  sqlite3_free(g);
}

uint16_t ls_format_game_type(const ls_format *fmt) {
  const char *const *ext;
  uint16_t type;
  if (!fmt) return 0;
  if (fmt->game_type) return fmt->game_type;
  for (ext = fmt->extensions; ext && *ext; ext++) {
    if ((*ext)[0] == '.' && key_type_from_ext(*ext + 1, &type)) return type;
  }
  return 0;
}

/* Reads the whole key file at canon (its stat *st, of the bytes read) and
** parses it.  Returns the key, or NULL with *err. */
static key_file *key_read(const char *who, const char *canon, struct stat *st, char **err) {
  int fd = open(canon, O_RDONLY | O_CLOEXEC), why = 0;
  unsigned char *data = NULL;
  key_file *k = NULL;
  codec_error cerr;
  memset(&cerr, 0, sizeof cerr);
  if (fd < 0) {
    *err = sqlite3_mprintf("%s: cannot open: %s", who, strerror(errno));
    return NULL;
  }
  if (fstat(fd, st) != 0) {
    *err = sqlite3_mprintf("%s: cannot stat: %s", who, strerror(errno));
  } else if ((int64_t)st->st_size > LS_GAME_MAX_KEY_BYTES) {
    *err = sqlite3_mprintf("%s: a key of %lld bytes is larger than the %lld-byte limit", who, (long long)st->st_size,
                           (long long)LS_GAME_MAX_KEY_BYTES);
  } else if (!(data = malloc((size_t)st->st_size + 1))) {
    *err = sqlite3_mprintf("%s: out of memory reading %lld bytes", who, (long long)st->st_size);
  } else if (!read_at(fd, 0, data, (size_t)st->st_size, &why)) {
    *err = sqlite3_mprintf("%s: read error: %s", who, why ? strerror(why) : "the file shrank");
  } else if (!key_parse(data, (size_t)st->st_size, NULL, &k, &cerr)) {
    *err = sqlite3_mprintf("%s: %s", who, cerr.msg);
  }
  free(data);
  close(fd);
  return k;
}

/* The cached key at canon (its realpath), parsed again when the file
** changed (or not cached: it then takes the least recently used slot).
** Messages start with `who` (the key as spelled, or "<path>: key <key>").
** NULL with *err. */
static game_key *key_get(ls_game *g, const char *who, const char *canon, char **err) {
  struct stat st;
  game_key *k = NULL;
  key_file *parsed;
  int i, slot = -1;
  if (stat(canon, &st) != 0) {
    *err = sqlite3_mprintf("%s: cannot stat: %s", who, strerror(errno));
    return NULL;
  }
  for (i = 0; i < g->nkeys; i++) {
    if (strcmp(g->keys[i]->canon, canon) == 0) {
      k = g->keys[i];
      slot = i;
      break;
    }
  }
  if (k && same_file(&k->st, &st)) {
    k->used = ++g->tick;
    return k;
  }
  if (!(parsed = key_read(who, canon, &st, err))) return NULL;
  if (k) { /* a new version of a key cached: its archives and listings go */
    game_key_free(k);
    g->keys[slot] = NULL;
  } else if (g->nkeys < LS_GAME_MAX_KEYS) {
    slot = g->nkeys++;
  } else {
    for (slot = 0, i = 1; i < g->nkeys; i++) {
      if (g->keys[i]->used < g->keys[slot]->used) slot = i;
    }
    game_key_free(g->keys[slot]);
  }
  g->keys[slot] = k = sqlite3_malloc(sizeof *k);
  if (k) {
    memset(k, 0, sizeof *k);
    k->key = parsed;
    k->st = st;
    k->canon = sqlite3_mprintf("%s", canon);
    k->dir = ls_dir_of(canon);
    k->archives = parsed->num_biffs ? sqlite3_malloc64(sizeof *k->archives * (sqlite3_uint64)parsed->num_biffs) : NULL;
    if (k->archives) memset(k->archives, 0, sizeof *k->archives * (size_t)parsed->num_biffs);
  }
  if (!k || !k->canon || !k->dir || (parsed->num_biffs && !k->archives)) {
    if (k) game_key_free(k);
    else key_free(parsed);
    /* the slot is left empty: compact */
    g->keys[slot] = g->keys[--g->nkeys];
    *err = sqlite3_mprintf("out of memory");
    return NULL;
  }
  k->used = ++g->tick;
  return k;
}

/* Brings k's override listing up to date: the key's folder's "override"
** (any case), listed.  Without one, k->override.path is NULL.  Returns
** SQLITE_OK, or an error with *err. */
static int override_refresh(game_key *k, const char *who, char **err) {
  const char *name;
  char *path;
  int why = 0, rc = listing_refresh(&k->folder, k->dir, &why);
  if (rc != SQLITE_OK) {
    *err = rc == SQLITE_NOMEM ? sqlite3_mprintf("out of memory")
                              : sqlite3_mprintf("%s: cannot list the game's folder %s: %s", who, k->dir, strerror(why));
    return rc;
  }
  if (!(name = listing_find(&k->folder, "override"))) {
    listing_free(&k->override);
    return SQLITE_OK;
  }
  if (!(path = join(k->dir, name))) {
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  rc = listing_refresh(&k->override, path, &why);
  sqlite3_free(path);
  if (rc == SQLITE_ERROR && why == ENOTDIR) { /* a file named override */
    listing_free(&k->override);
    return SQLITE_OK;
  }
  if (rc != SQLITE_OK) {
    *err = rc == SQLITE_NOMEM ? sqlite3_mprintf("out of memory")
                              : sqlite3_mprintf("%s: cannot list the override folder: %s", who, strerror(why));
  }
  return rc;
}

/* The override file of `name` (any case) as spelled there, or NULL. */
static const char *override_find(const game_key *k, const char *name) {
  return k->override.path && k->override.valid ? listing_find(&k->override, name) : NULL;
}

/* Finds the file of a path below `dir` whose parts are separated by '\\'
** or '/' ("data\AREAS.bif"), each part as spelled, else in any case.
** Returns its canonical path (sqlite3_malloc'd) or NULL (not there, or
** out of memory: *oom). */
static char *find_below(const char *dir, const char *rel, int *oom) {
  char *at = sqlite3_mprintf("%s", dir), *copy = sqlite3_mprintf("%s", rel), *part, *next, *canon = NULL;
  struct stat st;
  if (!at || !copy) {
    *oom = 1;
    sqlite3_free(at);
    sqlite3_free(copy);
    return NULL;
  }
  for (part = copy; at && part; part = next) {
    char *p, *spelled;
    next = strpbrk(part, "\\/");
    if (next) *next++ = 0;
    if (!*part || strcmp(part, ".") == 0) continue;
    spelled = join(at, part);
    if (spelled && stat(spelled, &st) != 0) { /* not as spelled: in any case */
      DIR *d = opendir(at);
      struct dirent *e;
      sqlite3_free(spelled);
      spelled = NULL;
      while (d && (e = readdir(d)) != NULL) {
        if (sqlite3_stricmp(e->d_name, part) == 0) {
          spelled = join(at, e->d_name);
          break;
        }
      }
      if (d) closedir(d);
      if (!spelled) {
        sqlite3_free(at);
        at = NULL;
        break;
      }
    } else if (!spelled) {
      *oom = 1;
    }
    p = at;
    at = spelled;
    sqlite3_free(p);
  }
  if (at && stat(at, &st) == 0 && S_ISREG(st.st_mode)) {
    char *real = realpath(at, NULL);
    if (real) canon = sqlite3_mprintf("%s", real);
    if (real && !canon) *oom = 1;
    free(real);
  }
  sqlite3_free(at);
  sqlite3_free(copy);
  return canon;
}

/* The file of BIFF entry b (see the top of the file for where it is
** looked for), canonical, or NULL with *err naming the entry. */
static char *archive_find(const game_key *k, const key_biff *b, uint32_t index, const char *shown,
                          const char *key_shown, char **err) {
  char *found, *alt = NULL;
  int oom = 0, cd;
  found = find_below(k->dir, b->name, &oom);
  if (!found && !oom && ends_with_nocase(b->name, ".bif")) {
    if ((alt = sqlite3_mprintf("%.*s.cbf", (int)strlen(b->name) - 4, b->name))) found = find_below(k->dir, alt, &oom);
    else oom = 1;
  }
  for (cd = 1; !found && !oom && cd <= 6; cd++) {
    char *under;
    if (!(b->location & (KEY_LOC_CD1 << (cd - 1)))) continue;
    if (!(under = sqlite3_mprintf("CD%d/%s", cd, b->name))) {
      oom = 1;
      break;
    }
    found = find_below(k->dir, under, &oom);
    sqlite3_free(under);
  }
  sqlite3_free(alt);
  if (!found) {
    char rel[1024];
    key_biff_path(b, rel, sizeof rel);
    *err = oom ? sqlite3_mprintf("out of memory")
               : sqlite3_mprintf("%s: key %s: BIFF entry %u names the archive %s, which is missing (no file %s/%s)",
                                 shown, key_shown, (unsigned)index, b->name, k->dir, rel);
  }
  return found;
}

/* biff_reader over an open file (bifc_map_read). */
typedef struct fd_file {
  int fd;
} fd_file;

static int fd_read(void *ctx, uint64_t offset, unsigned char *dst, size_t n, codec_error *err) {
  int why = 0;
  if (read_at(((fd_file *)ctx)->fd, offset, dst, n, &why)) return 1;
  return codec_fail(err, "byte offset %llu: %s", (unsigned long long)offset,
                    why ? strerror(why) : "the file shrank while being read");
}

/* Reads the whole file open at fd (size bytes) into a malloc'd buffer, or
** NULL with cerr. */
static unsigned char *read_all(int fd, uint64_t size, codec_error *cerr) {
  unsigned char *data;
  int why = 0;
  if ((int64_t)size > LS_MAX_FILE_BYTES) {
    codec_fail_limit(cerr, "a compressed archive of %llu bytes is larger than the %lld-byte limit",
                     (unsigned long long)size, (long long)LS_MAX_FILE_BYTES);
    return NULL;
  }
  if (!(data = malloc((size_t)size + 1))) {
    codec_fail_oom(cerr, "out of memory reading %llu bytes", (unsigned long long)size);
    return NULL;
  }
  if (!read_at(fd, 0, data, (size_t)size, &why)) {
    codec_fail(cerr, "read error: %s", why ? strerror(why) : "the file shrank while being read");
    free(data);
    return NULL;
  }
  return data;
}

/* Inflates BIFC block k (of a map of `total` bytes) of the archive open at
** fd (its stat st) into dst, its out_size bytes: its compressed bytes
** read with one pread.  Returns 1, or 0 with cerr. */
static int bifc_block_read(int fd, const struct stat *st, const bifc_block *k, uint32_t total,
                           const codec_cancel *cancel, unsigned char *dst, codec_error *cerr) {
  bifc_map one = {total, 1, (bifc_block *)k};
  unsigned char *in;
  int why = 0, ok;
  if (k->in_offset > (uint64_t)st->st_size || k->in_size > (uint64_t)st->st_size - k->in_offset)
    return codec_fail(cerr, "BIFC block at byte offset %llu runs past the end of the archive",
                      (unsigned long long)k->in_offset);
  if (!(in = malloc((size_t)k->in_size + 1)))
    return codec_fail_oom(cerr, "out of memory for %u compressed bytes", (unsigned)k->in_size);
  ok = read_at(fd, k->in_offset, in, k->in_size, &why)
           ? bifc_read_at(&one, in, k->in_offset, k->in_size, k->out_offset, k->out_size, cancel, dst, cerr)
           : codec_fail(cerr, "read error at byte offset %llu: %s", (unsigned long long)k->in_offset,
                        why ? strerror(why) : "the file shrank while being read");
  free(in);
  return ok;
}

/* Bytes [offset, offset + len) of a BIFC's BIFF V1 into dst: the blocks
** that hold them, each inflated once; a block needed only in part is
** taken from the shared inflated bytes (c; NULL: none), or inflated and
** kept there for the next resource, which often lies in it too. */
static int bifc_range(int fd, const struct stat *st, const bifc_map *map, uint64_t offset, size_t len,
                      const codec_cancel *cancel, unsigned char *dst, ls_inflated *c, codec_error *cerr) {
  bifc_map *slice = NULL;
  uint32_t b;
  int ok = 1;
  if (!bifc_map_slice(map, offset, len, &slice, cerr)) return 0;
  for (b = 0; ok && b < slice->num_blocks; b++) {
    const bifc_block *k = &slice->blocks[b];
    uint64_t lo = offset > k->out_offset ? offset : k->out_offset;
    uint64_t hi = offset + len < k->out_offset + k->out_size ? offset + len : k->out_offset + k->out_size;
    uint64_t tag[3];
    unsigned char *block;
    size_t held;
    if (lo == k->out_offset && hi == k->out_offset + k->out_size) { /* the whole block: in place */
      ok = bifc_block_read(fd, st, k, map->total, cancel, dst + (lo - offset), cerr);
      continue;
    }
    tag_of(st, BIFF_CONTAINER_BIFC, k->out_offset, tag);
    if (inflated_copy(c, tag, (size_t)(lo - k->out_offset), (size_t)(hi - lo), dst + (lo - offset), &held)) continue;
    if (!(block = malloc(k->out_size ? k->out_size : 1))) {
      ok = codec_fail_oom(cerr, "out of memory for a block of %u bytes", (unsigned)k->out_size);
      break;
    }
    if ((ok = bifc_block_read(fd, st, k, map->total, cancel, block, cerr)) != 0)
      memcpy(dst + (lo - offset), block + (lo - k->out_offset), (size_t)(hi - lo));
    if (ok) inflated_put(c, tag, block, k->out_size);
    else free(block);
  }
  bifc_map_free(slice);
  return ok;
}

/* Bytes [offset, offset + len) of a BIF V1.0's BIFF V1 into dst: its one
** stream inflated from the start up to the range's end.  The inflated
** start is kept in the shared inflated bytes (c; NULL: none): a later
** range it holds costs a copy, and a range past it (a scan going on)
** inflates to its end or to twice what is kept, whichever is further, so
** a scan of every resource inflates the stream a few times at most, not
** once per resource; a first read inflates no further than its range. */
static int bif_range(int fd, const struct stat *st, uint64_t offset, size_t len, const codec_cancel *cancel,
                     unsigned char *dst, ls_inflated *c, codec_error *cerr) {
  uint64_t tag[3], end = offset + len, grow;
  unsigned char *data, *start;
  uint32_t total = 0;
  size_t held;
  int ok;
  tag_of(st, BIFF_CONTAINER_BIF, 0, tag);
  if (inflated_copy(c, tag, (size_t)offset, len, dst, &held)) return 1;
  if (!(data = read_all(fd, (uint64_t)st->st_size, cerr))) return 0;
  if (!c) {
    ok = bif_read(data, (size_t)st->st_size, offset, len, cancel, dst, cerr);
  } else if ((ok = bif_info(data, (size_t)st->st_size, &total, cerr)) != 0) {
    grow = 2 * (uint64_t)held > end ? 2 * (uint64_t)held : end;
    if (grow > total) grow = total < end ? end : total; /* (a range past the end: bif_read says so) */
    if (!(start = malloc((size_t)grow + 1))) {
      ok = codec_fail_oom(cerr, "out of memory for %llu inflated bytes", (unsigned long long)grow);
    } else if ((ok = bif_read(data, (size_t)st->st_size, 0, (size_t)grow, cancel, start, cerr)) != 0) {
      memcpy(dst, start + offset, len);
      inflated_put(c, tag, start, (size_t)grow);
    } else {
      free(start);
    }
  }
  free(data);
  return ok;
}

/* Copies bytes [offset, offset + len) of the BIFF V1 an archive holds into
** dst: a plain BIFF's with one pread; a BIFC's from the blocks that hold
** them (map: the archive's map or a slice of it); a BIF V1.0's from its
** stream, inflated up to the range's end.  fd: the archive, open; st its
** stat; c: the inflated bytes a scan shares (NULL: none).  Returns 1, or
** 0 with cerr. */
static int read_range(int fd, const struct stat *st, int container, const bifc_map *map, uint64_t offset, size_t len,
                      const codec_cancel *cancel, unsigned char *dst, ls_inflated *c, codec_error *cerr) {
  int why = 0;
  if (container == BIFF_CONTAINER_BIFC) return bifc_range(fd, st, map, offset, len, cancel, dst, c, cerr);
  if (container == BIFF_CONTAINER_BIF) return bif_range(fd, st, offset, len, cancel, dst, c, cerr);
  if (offset > (uint64_t)st->st_size || len > (uint64_t)st->st_size - offset)
    return codec_fail(cerr, "%zu bytes at offset %llu run past the end of the archive (%lld bytes)", len,
                      (unsigned long long)offset, (long long)st->st_size);
  if (read_at(fd, offset, dst, len, &why)) return 1;
  return codec_fail(cerr, "read error at byte offset %llu: %s", (unsigned long long)offset,
                    why ? strerror(why) : "the file shrank while being read");
}

/* Indexes the archive open at fd (its stat st): its container, a BIFC's
** block map, then the BIFF V1's header and entry tables alone.  Returns
** 1, or 0 with cerr. */
static int archive_index(game_archive *a, int fd, const struct stat *st, codec_error *cerr) {
  unsigned char head[BIFF_HEADER_SIZE], *span_bytes;
  uint64_t inflated = (uint64_t)st->st_size, span;
  int why = 0, ok;
  if ((uint64_t)st->st_size < 8 || !read_at(fd, 0, head, 8, &why))
    return codec_fail(cerr, "archive header: byte offset 0: truncated (%lld bytes)", (long long)st->st_size);
  a->container = biff_sniff(head, 8);
  if (a->container == BIFF_CONTAINER_NONE)
    return codec_fail(cerr, "archive header: byte offset 0: not a BIFF V1, BIF V1.0 or BIFC V1.0 archive (signature '%.8s')",
                      (const char *)head);
  if (a->container == BIFF_CONTAINER_BIFC) {
    fd_file file = {fd};
    biff_reader r = {fd_read, &file, (uint64_t)st->st_size};
    if (!bifc_map_read(&r, 0, NULL, &a->map, cerr)) return 0;
    inflated = a->map->total;
  } else if (a->container == BIFF_CONTAINER_BIF) {
    unsigned char *data = read_all(fd, (uint64_t)st->st_size, cerr);
    uint32_t n = 0;
    ok = data && bif_info(data, (size_t)st->st_size, &n, cerr);
    free(data);
    if (!ok) return 0;
    inflated = n;
  }
  if (inflated < BIFF_HEADER_SIZE)
    return codec_fail(cerr, "BIFF header: byte offset 0: truncated, need %u bytes, %llu there", BIFF_HEADER_SIZE,
                      (unsigned long long)inflated);
  if (!read_range(fd, st, a->container, a->map, 0, BIFF_HEADER_SIZE, NULL, head, NULL, cerr) ||
      !biff_index_span(head, BIFF_HEADER_SIZE, &span, cerr))
    return 0;
  if (span > inflated)
    return codec_fail(cerr, "BIFF entries: byte offset 16: the header and entry tables (%llu bytes) run past the end (%llu bytes)",
                      (unsigned long long)span, (unsigned long long)inflated);
  if (!(span_bytes = malloc((size_t)span)))
    return codec_fail_oom(cerr, "out of memory for %llu bytes of entries", (unsigned long long)span);
  ok = read_range(fd, st, a->container, a->map, 0, (size_t)span, NULL, span_bytes, NULL, cerr) &&
       biff_index_parse(span_bytes, (size_t)span, inflated, NULL, &a->index, cerr);
  free(span_bytes);
  if (ok) a->index->container = a->container;
  return ok;
}

/* The archive of BIFF entry b of k, found and indexed (again when its file
** changed).  NULL with *err naming the key, the entry and the archive. */
static game_archive *archive_get(game_key *k, uint32_t b, const char *shown, const char *key_shown, char **err) {
  game_archive *a = &k->archives[b];
  const key_biff *entry = &k->key->biffs[b];
  struct stat st;
  codec_error cerr;
  int fd;
  memset(&cerr, 0, sizeof cerr);
  if (a->path && stat(a->path, &st) == 0 && same_file(&st, &a->st) && a->index) return a;
  if (!a->path || stat(a->path, &st) != 0) {
    char *path = archive_find(k, entry, b, shown, key_shown, err);
    if (!path) return NULL;
    archive_clear(a);
    a->path = path;
  } else {
    char *path = a->path;
    a->path = NULL;
    archive_clear(a);
    a->path = path;
  }
  if ((fd = open(a->path, O_RDONLY | O_CLOEXEC)) < 0) {
    *err = sqlite3_mprintf("%s: archive %s: cannot open: %s", shown, a->path, strerror(errno));
    return NULL;
  }
  if (fstat(fd, &st) != 0) {
    *err = sqlite3_mprintf("%s: archive %s: cannot stat: %s", shown, a->path, strerror(errno));
  } else if (!archive_index(a, fd, &st, &cerr)) {
    *err = cerr.code == CODEC_E_MEMORY ? sqlite3_mprintf("out of memory")
                                       : sqlite3_mprintf("%s: archive %s: %s", shown, a->path, cerr.msg);
    biff_free(a->index);
    bifc_map_free(a->map);
    a->index = NULL;
    a->map = NULL;
  } else {
    a->st = st;
  }
  close(fd);
  return a->index ? a : NULL;
}

/* ---- paths ------------------------------------------------------------------------- */

/* Splits "<key>:<name>": the first ".key:" (any case) whose part before
** the ':' is a regular file.  Returns the key's realpath (malloc'd by
** realpath) and sets *key_len (the length of that part) and *name; NULL
** when there is none. */
static char *split_resource_path(const char *path, size_t *key_len, const char **name) {
  const char *p;
  for (p = path; (p = strchr(p, ':')) != NULL; p++) {
    size_t n = (size_t)(p - path);
    char *prefix, *real;
    struct stat st;
    if (n < 4 || sqlite3_strnicmp(p - 4, ".key", 4) != 0 || !p[1]) continue;
    if (!(prefix = sqlite3_mprintf("%.*s", (int)n, path))) return NULL;
    real = realpath(prefix, NULL);
    sqlite3_free(prefix);
    if (real && stat(real, &st) == 0 && S_ISREG(st.st_mode)) {
      *key_len = n;
      *name = p + 1;
      return real;
    }
    free(real);
  }
  return NULL;
}

int ls_game_split(const char *path, size_t *key_len) {
  const char *name;
  struct stat st;
  char *key;
  if (!strchr(path, ':') || stat(path, &st) == 0) return 0; /* a file like any other */
  if (!(key = split_resource_path(path, key_len, &name))) return 0;
  free(key);
  return 1;
}

/* Splits "RESREF.EXT" into the resref (up to 8 bytes, into resref[9]) and
** the type of EXT.  Returns 1, or 0 with *err. */
static int parse_resource_name(const char *path, const char *name, char resref[9], uint16_t *type, char **err) {
  const char *dot = strrchr(name, '.');
  size_t n = dot ? (size_t)(dot - name) : 0;
  if (!dot || n == 0 || n > 8 || strchr(name, '/')) {
    *err = sqlite3_mprintf("%s: '%s' is not a resource name (RESREF.EXT, a resref of 1 to 8 characters)", path, name);
    return 0;
  }
  if (!key_type_from_ext(dot + 1, type)) {
    *err = sqlite3_mprintf("%s: '%s' is not an Infinity Engine resource type", path, dot + 1);
    return 0;
  }
  memcpy(resref, name, n);
  resref[n] = 0;
  return 1;
}

void ls_game_path_clear(ls_game_path *p) {
  sqlite3_free(p->file);
  sqlite3_free(p->canon);
  ls_res_loc_free(p->loc);
  memset(p, 0, sizeof *p);
}

/* Fills out (ARCHIVE) with where resource `index` of k lies: its archive
** found and indexed, its entry there checked against the archive's size. */
static int resolve_in_archive(ls_game *g, game_key *k, uint32_t index, const char *shown, const char *key_shown,
                              int want_loc, ls_game_path *out, char **err) {
  const key_resource *r = &k->key->resources[index];
  const key_biff *biff;
  game_archive *a;
  biff_resource res;
  codec_error cerr;
  char name[KEY_NAME_MAX];
  uint32_t b;
  memset(&cerr, 0, sizeof cerr);
  key_resource_name(r, name, sizeof name);
  if (!key_resource_biff(k->key, index, &biff, &cerr)) {
    *err = sqlite3_mprintf("%s: key %s: %s", shown, key_shown, cerr.msg);
    return SQLITE_ERROR;
  }
  b = (uint32_t)(biff - k->key->biffs);
  if (!(a = archive_get(k, b, shown, key_shown, err))) return *err ? SQLITE_ERROR : SQLITE_NOMEM;
  if (!biff_find(a->index, r->locator, &res, &cerr)) {
    *err = sqlite3_mprintf("%s: archive %s: resource %s: %s", shown, a->path, name, cerr.msg);
    return SQLITE_ERROR;
  }
  if (res.type != r->type && !(res.is_tileset && r->type == KEY_TYPE_TIS)) {
    *err = sqlite3_mprintf("%s: archive %s: resource %s: the archive's entry %u (locator 0x%08x) holds type 0x%04x, "
                           "not the key's 0x%04x",
                           shown, a->path, name, (unsigned)res.entry, (unsigned)res.locator, (unsigned)res.type,
                           (unsigned)r->type);
    return SQLITE_ERROR;
  }
  out->kind = LS_GAME_ARCHIVE;
  if (!(out->canon = sqlite3_mprintf("%s:%s", k->canon, name))) return SQLITE_NOMEM;
  resource_stat(&k->st, &a->st, index, r->locator, res.size + (res.is_tileset ? TIS_HEADER_SIZE : 0), &out->st);
  if (!want_loc) return SQLITE_OK;
  if (!(out->loc = calloc(1, sizeof *out->loc)) || !(out->loc->archive = malloc(strlen(a->path) + 1))) {
    return SQLITE_NOMEM;
  }
  strcpy(out->loc->archive, a->path);
  out->loc->container = a->container;
  out->loc->archive_st = a->st;
  out->loc->key_st = k->st;
  out->loc->entry = index;
  out->loc->locator = r->locator;
  out->loc->offset = res.offset;
  out->loc->size = res.size;
  out->loc->tileset = res.is_tileset;
  out->loc->tile_count = res.tile_count;
  out->loc->tile_size = res.tile_size;
  if ((out->loc->inflated = g->inflated) != NULL) inflated_ref(g->inflated);
  if (a->container == BIFF_CONTAINER_BIFC && !bifc_map_slice(a->map, res.offset, (size_t)res.size, &out->loc->blocks, &cerr)) {
    *err = cerr.code == CODEC_E_MEMORY ? NULL : sqlite3_mprintf("%s: archive %s: resource %s: %s", shown, a->path, name, cerr.msg);
    return *err ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

/* The identity of where a missing resource was looked for (game.h,
** LS_GAME_MISSING): the key's, its folder's and its override folder's, so
** that it changes when any of them does (a file added to the override
** folder, the folder made, a new key). */
static void missing_stat(const game_key *k, struct stat *out) {
  uint64_t h = fnv_stat(14695981039346656037ull, &k->st), stamp;
  h = fnv_stat(h, &k->folder.st);
  if (k->override.path) h = fnv_stat(h, &k->override.st);
  stamp = h >> 2;
  memset(out, 0, sizeof *out);
  out->st_dev = k->st.st_dev;
  out->st_ino = k->st.st_ino;
  out->st_mtim.tv_sec = (time_t)(stamp / 1000000000u);
  out->st_mtim.tv_nsec = (long)(stamp % 1000000000u);
}

/* ls_game_resolve, and ls_game_lookup when missing_ok. */
static int game_resolve(ls_game *g, const char *path, int want_loc, int missing_ok, ls_game_path *out, char **err) {
  const char *name, *in_override;
  char *key_canon, *shown, *who, resref[9];
  size_t key_len;
  struct stat st;
  game_key *k;
  uint16_t type;
  uint32_t index;
  int rc;
  memset(out, 0, sizeof *out);
  *err = NULL;
  if (!strstr(path, ":") || stat(path, &st) == 0) return SQLITE_OK; /* a file like any other */
  if (!(key_canon = split_resource_path(path, &key_len, &name))) return SQLITE_OK;
  shown = sqlite3_mprintf("%.*s", (int)key_len, path);
  if (!shown) {
    free(key_canon);
    return SQLITE_NOMEM;
  }
  who = sqlite3_mprintf("%s: key %s", path, shown);
  k = who ? key_get(g, who, key_canon, err) : NULL;
  free(key_canon);
  rc = k ? SQLITE_OK : *err ? SQLITE_ERROR : SQLITE_NOMEM;
  if (rc == SQLITE_OK && !parse_resource_name(path, name, resref, &type, err)) rc = SQLITE_ERROR;
  if (rc == SQLITE_OK) rc = override_refresh(k, who, err);
  if (rc == SQLITE_OK && (in_override = override_find(k, name)) != NULL) {
    out->kind = LS_GAME_OVERRIDE;
    if (!(out->file = join(k->override.path, in_override))) rc = SQLITE_NOMEM;
  } else if (rc == SQLITE_OK && !key_lookup(k->key, resref, type, &index)) {
    if (missing_ok) {
      out->kind = LS_GAME_MISSING;
      missing_stat(k, &out->st);
    } else {
      *err = sqlite3_mprintf("%s: key %s lists no resource %s (and the override folder holds none)", path, shown, name);
      rc = SQLITE_ERROR;
    }
  } else if (rc == SQLITE_OK) {
    rc = resolve_in_archive(g, k, index, path, shown, want_loc, out, err);
  }
  sqlite3_free(who);
  sqlite3_free(shown);
  if (rc != SQLITE_OK) ls_game_path_clear(out);
  if (rc == SQLITE_NOMEM && !*err) *err = sqlite3_mprintf("out of memory");
  return rc;
}

int ls_game_resolve(ls_game *g, const char *path, int want_loc, ls_game_path *out, char **err) {
  return game_resolve(g, path, want_loc, 0, out, err);
}

int ls_game_lookup(ls_game *g, const char *path, int want_loc, ls_game_path *out, char **err) {
  return game_resolve(g, path, want_loc, 1, out, err);
}

/* ---- listing ------------------------------------------------------------------------ */

int ls_game_key_of(const char *path, int is_folder, char **key) {
  unsigned char head[8];
  struct stat st;
  char *candidate = NULL;
  int fd, ok = 0, why = 0;
  *key = NULL;
  if (is_folder) {
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
      if (sqlite3_stricmp(e->d_name, "chitin.key") == 0) {
        candidate = join(path, e->d_name);
        break;
      }
    }
    if (d) closedir(d);
    if (!candidate) return 0;
  } else {
    if (!ends_with_nocase(path, ".key")) return 0;
    candidate = sqlite3_mprintf("%s", path);
  }
  if (!candidate) return 1; /* out of memory: *key NULL */
  if (stat(candidate, &st) == 0 && S_ISREG(st.st_mode) && (fd = open(candidate, O_RDONLY | O_CLOEXEC)) >= 0) {
    ok = read_at(fd, 0, head, sizeof head, &why) && key_sniff(head, sizeof head);
    close(fd);
  }
  if (!ok) {
    sqlite3_free(candidate);
    return 0;
  }
  *key = candidate;
  return 1;
}

/* Whether t is among the listing's types. */
static int type_wanted(const ls_game_types *types, uint16_t t) {
  int i;
  for (i = 0; i < types->n; i++) {
    if (types->type[i] == t) return 1;
  }
  return 0;
}

/* Whether an override file's name is a resource of the listing's types:
** 1 to 8 characters, '.', an extension of one of them. */
static int override_name_wanted(const ls_game_types *types, const char *name) {
  const char *dot = strrchr(name, '.');
  uint16_t t;
  return dot && dot > name && dot - name <= 8 && key_type_from_ext(dot + 1, &t) && type_wanted(types, t);
}

int ls_game_list(ls_game *g, const char *key, const ls_game_types *types, ls_interrupt *ic,
                 int (*add)(void *ctx, const char *path), void *ctx, char **err) {
  char *canon, *real, *override_shown = NULL;
  game_key *k;
  uint32_t i;
  int rc = SQLITE_OK, j;
  *err = NULL;
  if (!types->n) {
    *err = sqlite3_mprintf("%s: the tables of format %s do not read a game's archives", key,
                           types->format ? types->format : "?");
    return SQLITE_ERROR;
  }
  if (!(real = realpath(key, NULL))) {
    *err = sqlite3_mprintf("%s: cannot open: %s", key, strerror(errno));
    return SQLITE_ERROR;
  }
  canon = sqlite3_mprintf("%s", real);
  free(real);
  if (!canon) return SQLITE_NOMEM;
  k = key_get(g, key, canon, err);
  sqlite3_free(canon);
  if (!k) return *err ? SQLITE_ERROR : SQLITE_NOMEM;
  if ((rc = override_refresh(k, key, err)) != SQLITE_OK) return rc;
  for (i = 0; rc == SQLITE_OK && i < k->key->num_resources; i++) {
    const key_resource *r = &k->key->resources[k->key->order[i]];
    const key_resource *prev = i ? &k->key->resources[k->key->order[i - 1]] : NULL;
    char name[KEY_NAME_MAX], *path;
    if ((i & 4095) == 4095 && ic && ls_interrupt_check(ic)) {
      *err = sqlite3_mprintf("interrupted");
      return SQLITE_INTERRUPT;
    }
    if (!type_wanted(types, r->type)) continue;
    /* (resref, type) listed twice: the game finds the first; order[] keeps file order among equals */
    if (prev && prev->type == r->type && sqlite3_stricmp(prev->resref, r->resref) == 0) continue;
    key_resource_name(r, name, sizeof name);
    if (override_find(k, name)) continue; /* listed from the override folder below */
    if (!(path = sqlite3_mprintf("%s:%s", key, name))) return SQLITE_NOMEM;
    rc = add(ctx, path);
    sqlite3_free(path);
  }
  if (rc != SQLITE_OK || !k->override.path) return rc;
  {
    /* the override folder as spelled beside the key as spelled */
    const char *slash = strrchr(key, '/');
    override_shown = sqlite3_mprintf("%.*s%s", slash ? (int)(slash - key + 1) : 0, key, base_name(k->override.path));
    if (!override_shown) return SQLITE_NOMEM;
  }
  for (j = 0; rc == SQLITE_OK && j < k->override.n; j++) {
    char *path;
    if (!override_name_wanted(types, k->override.names[j])) continue;
    if (!(path = join(override_shown, k->override.names[j]))) {
      rc = SQLITE_NOMEM;
      break;
    }
    rc = add(ctx, path);
    sqlite3_free(path);
  }
  sqlite3_free(override_shown);
  return rc;
}

/* ---- reading a resource -------------------------------------------------------------- */

void ls_res_loc_free(void *p) {
  ls_res_loc *loc = p;
  if (!loc) return;
  inflated_unref(loc->inflated);
  free(loc->archive);
  bifc_map_free(loc->blocks);
  free(loc);
}

ls_res_loc *ls_res_loc_clone(const ls_res_loc *loc) {
  ls_res_loc *c = malloc(sizeof *c);
  if (!c) return NULL;
  *c = *loc;
  c->archive = NULL;
  c->blocks = NULL;
  if (c->inflated) inflated_ref(c->inflated);
  if (!(c->archive = malloc(strlen(loc->archive) + 1))) {
    ls_res_loc_free(c);
    return NULL;
  }
  strcpy(c->archive, loc->archive);
  if (loc->blocks) {
    const bifc_map *m = loc->blocks;
    if (!(c->blocks = calloc(1, sizeof *c->blocks))) {
      ls_res_loc_free(c);
      return NULL;
    }
    c->blocks->total = m->total;
    if (m->num_blocks && !(c->blocks->blocks = malloc(sizeof *m->blocks * (size_t)m->num_blocks))) {
      ls_res_loc_free(c);
      return NULL;
    }
    if (m->num_blocks) memcpy(c->blocks->blocks, m->blocks, sizeof *m->blocks * (size_t)m->num_blocks);
    c->blocks->num_blocks = m->num_blocks;
  }
  return c;
}

/* Fails a read of an archive: read_failure LS_READ_ARCHIVE, with what the
** message says in parse_error (the archive named). */
static unsigned char *archive_failed(ls_parsed *out, const ls_res_loc *loc, const char *fmt, const char *why) {
  out->read_failure = LS_READ_ARCHIVE;
  codec_fail(&out->parse_error, fmt, loc->archive, why);
  return NULL;
}

unsigned char *ls_res_read(const void *ctx, size_t limit, ls_scratch *reuse, const codec_cancel *cancel,
                           ls_parsed *out, size_t *n) {
  const ls_res_loc *loc = ctx;
  size_t head = loc->tileset ? TIS_HEADER_SIZE : 0, want, body;
  unsigned char *buf;
  struct stat st;
  codec_error cerr;
  int fd = open(loc->archive, O_RDONLY | O_CLOEXEC), ok;
  *n = 0;
  memset(&cerr, 0, sizeof cerr);
  if (fd < 0) return archive_failed(out, loc, "archive %s: cannot open: %s", strerror(errno));
  if (fstat(fd, &st) != 0 || !same_file(&st, &loc->archive_st)) {
    close(fd);
    return archive_failed(out, loc, "archive %s: %s", "changed on disk since its index was read; read it again");
  }
  resource_stat(&loc->key_st, &st, loc->entry, loc->locator, loc->size + head, &out->st);
  if ((int64_t)(loc->size + head) > LS_MAX_FILE_BYTES) {
    close(fd);
    out->read_failure = LS_READ_TOO_BIG;
    return NULL;
  }
  want = (size_t)(loc->size + head);
  if (limit && want > limit) want = limit;
  if (!(buf = reuse ? ls_scratch_reserve(reuse, want + 1) : malloc(want + 1))) {
    close(fd);
    out->read_failure = LS_READ_NOMEM;
    out->wanted = want;
    return NULL;
  }
  /* the TIS header a tileset is stored without, then its bytes */
  if (head) {
    unsigned char tis[TIS_HEADER_SIZE];
    tis_header_write(tis, loc->tile_count, loc->tile_size);
    memcpy(buf, tis, want < head ? want : head);
  }
  body = want > head ? want - head : 0;
  ok = !body || read_range(fd, &st, loc->container, loc->blocks, loc->offset, body, cancel, buf + head, loc->inflated,
                           &cerr);
  close(fd);
  if (!ok) {
    if (!reuse) free(buf);
    if (cerr.code == CODEC_E_INTERRUPT) {
      codec_fail_interrupted(&out->parse_error);
      return NULL;
    }
    return archive_failed(out, loc, "archive %s: %s", cerr.msg);
  }
  *n = want;
  return buf;
}

/* ---- writing: the override file ----------------------------------------------------------- */

int ls_game_materialize(ls_game *g, const char *canon, const struct stat *read_st, char **made, struct stat *made_st,
                        char **err) {
  ls_game_path now;
  ls_parsed got;
  unsigned char *bytes = NULL;
  const char *name = strrchr(canon, ':') + 1;
  char *dir = NULL, *target = NULL, *real;
  game_key *k = NULL;
  size_t n = 0;
  int rc, i;
  *made = NULL;
  memset(&got, 0, sizeof got);
  if ((rc = ls_game_resolve(g, canon, 1, &now, err)) != SQLITE_OK) {
    char *why = *err;
    *err = sqlite3_mprintf("%s; nothing was written", why ? why : "out of memory");
    sqlite3_free(why);
    return rc;
  }
  if (now.kind == LS_GAME_OVERRIDE) {
    *err = sqlite3_mprintf("%s: changed on disk since it was read (the override folder has a file %s now, written by "
                           "someone else); nothing was written",
                           canon, now.file);
    ls_game_path_clear(&now);
    return SQLITE_ERROR;
  }
  if (now.kind != LS_GAME_ARCHIVE || !same_file(&now.st, read_st)) {
    *err = sqlite3_mprintf("%s: changed on disk since it was read (the key or its archive was replaced); nothing was "
                           "written",
                           canon);
    ls_game_path_clear(&now);
    return SQLITE_ERROR;
  }
  /* the key, cached by the resolution: where its override folder goes */
  for (i = 0; i < g->nkeys; i++) {
    if (strncmp(g->keys[i]->canon, canon, strlen(g->keys[i]->canon)) == 0 && canon[strlen(g->keys[i]->canon)] == ':')
      k = g->keys[i];
  }
  if (k && !k->override.path) { /* no override folder yet: the game's gets made */
    dir = join(k->dir, "override");
    if (dir && mkdir(dir, 0777) != 0 && errno != EEXIST) {
      *err = sqlite3_mprintf("%s: cannot create the override folder %s: %s; nothing was written", canon, dir,
                             strerror(errno));
      sqlite3_free(dir);
      ls_game_path_clear(&now);
      return SQLITE_ERROR;
    }
  } else if (k) {
    dir = sqlite3_mprintf("%s", k->override.path);
  }
  if (!dir || !(target = join(dir, name))) {
    sqlite3_free(dir);
    ls_game_path_clear(&now);
    *err = sqlite3_mprintf("out of memory; nothing was written");
    return SQLITE_NOMEM;
  }
  bytes = ls_res_read(now.loc, 0, NULL, NULL, &got, &n);
  if (!bytes) {
    *err = sqlite3_mprintf("%s: cannot read it from its archive: %s; nothing was written", canon,
                           got.parse_error.msg[0] ? got.parse_error.msg : "read error");
    rc = SQLITE_ERROR;
  } else if (!same_file(&got.st, read_st)) {
    *err = sqlite3_mprintf("%s: changed on disk since it was read (its archive was replaced); nothing was written", canon);
    rc = SQLITE_ERROR;
  } else if ((rc = ls_commit_create(target, bytes, n, (now.loc->archive_st.st_mode & 0666) | 0200, 0, err)) != SQLITE_OK) {
    char *why = *err;
    struct stat there;
    if (stat(target, &there) == 0) /* someone else made it since the check above */
      *err = sqlite3_mprintf("%s: changed on disk since it was read (the override folder has a file %s now, written "
                             "by someone else); nothing was written", canon, target);
    else
      *err = sqlite3_mprintf("%s: %s; nothing was written", canon, why ? why : "cannot create the override file");
    sqlite3_free(why);
  } else if (!(real = realpath(target, NULL)) || stat(real, made_st) != 0) {
    *err = sqlite3_mprintf("%s: cannot stat the new override file %s: %s; nothing was written", canon, target,
                           strerror(errno));
    free(real);
    unlink(target);
    rc = SQLITE_ERROR;
  } else {
    *made = sqlite3_mprintf("%s", real);
    free(real);
    if (!*made) {
      unlink(target);
      *err = sqlite3_mprintf("out of memory; nothing was written");
      rc = SQLITE_NOMEM;
    }
  }
  free(bytes);
  sqlite3_free(target);
  sqlite3_free(dir);
  ls_game_path_clear(&now);
  return rc;
}
