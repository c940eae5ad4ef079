/*
** game.h: an Infinity Engine game as a source (README, "The game as a
** source"): a table whose source names a chitin.key, or a game folder
** holding one, reads the game's resources of its type (ls_format
** game_type: WED for wed_*, ARE for are_*, TIS for tis_tiles) from the
** BIFF archives the key indexes, and a file of the same name in the
** game's override folder instead where there is one, as the games do.
**
** A resource in an archive is a file of the engine like any other, under
** a path of its own: "<the key's path>:<RESREF.EXT>"
** ("game/chitin.key:AR0602.WED"), which is what `file` shows and what a
** source may name.  This file gives the engine what it needs for such a
** path, in the place of realpath, stat and read:
**  - its canonical path: "<realpath of the key>:<RESREF.EXT>", the
**    resource name spelled as the key has it (a resource file can never
**    be a real path: the key is a file, not a folder, and a real file of
**    that name is taken as itself);
**  - its identity, a struct stat whose st_dev, st_ino are the archive's,
**    st_size the resource's bytes, and whose modification time is a stamp
**    of the key's and the archive's identities and the resource's entry:
**    any change of the key or the archive changes it, so the cache, the
**    snapshot of a transaction and COMMIT's "changed since it was read"
**    check treat it as they treat a file's stat;
**  - its bytes (ls_res_read): read through the archive's index, never the
**    whole archive: a plain BIFF's range with one pread, a BIFC's blocks
**    that hold it, a BIF V1.0's zlib stream up to the resource's end.
** A write to such a resource creates the file in the override folder at
** COMMIT (ls_game_materialize), and the archives are never written.
**
** The connection keeps what it parsed (struct ls_game, one per session):
** the last keys used (LS_GAME_MAX_KEYS), each with its override folder's
** listing and its archives' indexes, each checked against the file's stat
** whenever it is used, as the cache of files does.
*/
#ifndef LEVELSQL_GAME_H
#define LEVELSQL_GAME_H

#include <sys/stat.h>

#include "engine/engine.h"
#include "engine/parse_ahead.h"
#include "engine/win_port.h"
#include "key/biff.h"

#define LS_GAME_MAX_KEYS 8
/* Largest chitin.key read (the largest real ones are about 1 MB). */
#define LS_GAME_MAX_KEY_BYTES ((int64_t)64 << 20)
/* Most resource types one listing takes (one per registered format). */
#define LS_GAME_MAX_TYPES 16

typedef struct ls_game ls_game;

ls_game *ls_game_new(void);
void ls_game_free(ls_game *g);

/* The resource type a format's files have in a game (ls_format
** game_type, else from its extensions); 0: none. */
uint16_t ls_format_game_type(const ls_format *fmt);

/* The resource types a source's listing takes. */
typedef struct ls_game_types {
  uint16_t type[LS_GAME_MAX_TYPES];
  int n;
  const char *format; /* the table's format name, for the message when n is 0; NULL: every format */
} ls_game_types;

/* Whether `path` names a game: a regular file whose name ends in ".key"
** (any case) and that starts 'KEY V1  ', or (is_folder) a folder holding
** a file named chitin.key (any case) that does.  Sets *key to the key's
** path as spelled ("<folder>/chitin.key"; sqlite3_malloc'd; NULL when out
** of memory: check) and returns 1; 0 otherwise (nothing set). */
int ls_game_key_of(const char *path, int is_folder, char **key);

/* Lists the game of `key` (spelled as the source spells it): for every
** resource of one of the types the key lists, "<key>:<RESREF.EXT>" (each
** (resref, type) once, as the game finds the first), or, when the
** override folder holds that name (any case), the override file
** "<key's folder>/override/<name>"; then every other file of the override
** folder whose extension is one of the types' and whose name has 1 to 8
** characters before it (a resource the game can load).  Each path goes to
** add(ctx, path), which returns SQLITE_OK or an error.  ic (NULL: none)
** stops a long listing.  Returns SQLITE_OK, or an error with *err
** (sqlite3_mprintf'd) naming the key. */
int ls_game_list(ls_game *g, const char *key, const ls_game_types *types, ls_interrupt *ic,
                 int (*add)(void *ctx, const char *path), void *ctx, char **err);

/* What the game's compressed archives inflated, shared by the threads that
** read its resources (game.c, "inflated bytes, shared"). */
typedef struct ls_inflated ls_inflated;

/* Where one resource's bytes lie, for ls_res_read on any thread: owned
** copies only (malloc'd; ls_res_loc_free), and a reference to the
** game's inflated bytes. */
typedef struct ls_res_loc {
  char *archive;          /* the archive's canonical path */
  int container;          /* BIFF_CONTAINER_* */
  struct stat archive_st; /* the archive as indexed: a different file is refused */
  struct stat key_st;     /* the key the resource was found in */
  uint32_t entry;         /* its resource entry in the key */
  uint32_t locator;
  uint64_t offset, size;  /* its bytes in the BIFF V1 (a tileset's tiles) */
  int tileset;            /* a TIS: its tiles go behind a TIS V1 header */
  uint32_t tile_count, tile_size;
  bifc_map *blocks;       /* BIFC: the blocks that hold the bytes (bifc_map_slice) */
  ls_inflated *inflated;  /* shared, referenced (NULL: nothing kept) */
} ls_res_loc;

void ls_res_loc_free(void *loc);
/* A copy of loc, NULL when out of memory. */
ls_res_loc *ls_res_loc_clone(const ls_res_loc *loc);

/* The ls_read_fn of a resource (ctx: its ls_res_loc): its bytes, a
** tileset's behind its TIS header; out->st its identity (see above). */
unsigned char *ls_res_read(const void *ctx, size_t limit, ls_scratch *reuse, const codec_cancel *cancel,
                           ls_parsed *out, size_t *n);

/* What a path names (ls_game_resolve). */
typedef enum ls_game_kind {
  LS_GAME_NOT = 0,     /* not a resource path: a file like any other */
  LS_GAME_OVERRIDE,    /* a resource the override folder holds: `file` */
  LS_GAME_ARCHIVE,     /* a resource in the archives: canon, st, loc */
  LS_GAME_MISSING      /* ls_game_lookup: neither the override folder nor the key has it: st */
} ls_game_kind;

typedef struct ls_game_path {
  ls_game_kind kind;
  char *file;       /* OVERRIDE: the override file's path (sqlite3_malloc'd) */
  char *canon;      /* ARCHIVE: "<realpath of the key>:<RESREF.EXT>" (sqlite3_malloc'd) */
  struct stat st;   /* ARCHIVE: its identity; MISSING: that of where it was looked for */
  ls_res_loc *loc;  /* ARCHIVE, when asked for: where its bytes lie */
} ls_game_path;

/* Resolves path ("<key>:<RESREF.EXT>", the name in any case) through the
** connection's cache: a path that exists as a file, or has no key before
** its ':', is LS_GAME_NOT.  Returns SQLITE_OK, or an error with *err
** "<path>: <why>" naming the key, the archive and the resource (a key
** that does not list it, a BIFF entry naming no file, a locator the
** archive has no entry for, bytes past the archive's end). */
int ls_game_resolve(ls_game *g, const char *path, int want_loc, ls_game_path *out, char **err);
void ls_game_path_clear(ls_game_path *p);
/* Whether path names a game's resource, "<key>:<NAME>" (as
** ls_game_resolve tells them: a path that is a file is none): 1 with
** *key_len the length of its key part, else 0. */
int ls_game_split(const char *path, size_t *key_len);
/* ls_game_resolve for a path known to name a game's resource, when the
** resource may be missing: a name that neither the override folder nor
** the key holds is kind LS_GAME_MISSING, its st the identity of the key,
** its folder and the override folder (it changes when one of them does,
** and the resource may have appeared), not an error. */
int ls_game_lookup(ls_game *g, const char *path, int want_loc, ls_game_path *out, char **err);

/* COMMIT of an edited resource whose canonical path is `canon`, read as
** `read_st`: checks that the override folder still lacks its name and
** that the key and the archive are the versions read, then creates
** override/<RESREF.EXT> holding the archive's bytes of it (the folder
** made when missing), never over an existing file: the commit then
** replaces that file like any other.  *made: the new file's canonical
** path (sqlite3_malloc'd), *made_st its stat.  Returns SQLITE_OK, or an
** error with *err ending "; nothing was written". */
int ls_game_materialize(ls_game *g, const char *canon, const struct stat *read_st, char **made, struct stat *made_st,
                        char **err);

#endif
