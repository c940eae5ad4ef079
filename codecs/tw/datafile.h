/*
** datafile.h: the Teeworlds / DDNet "datafile" container (.map files).
**
** Pure C, no SQLite.  df_parse turns file bytes into a datafile: a list of
** items (type, id, array of int32) and a list of data blobs; df_write turns
** it back into version-4 file bytes the way DDNet's writer does.  Layout and
** quirks: ../shared/formats/teeworlds-datafile.md.
**
** Model choices, and why:
** - Items are kept in file order (type blocks ascending, file order within a
**   block); added items are appended.  df_write emits them sorted by type
**   (stable), which is what DDNet's CDataFileWriter produces, so a file read
**   and written unchanged comes out as DDNet's map_resave writes it.
** - UUID ("extended") item types: the UUID-index items (type 0xFFFF) are kept
**   in the list as read, but df_write drops them and regenerates them like
**   DDNet does: every item whose type has a UUID-index entry gets a fresh
**   internal type, allocated downward from 0xFFFE in order of first use, and
**   one index item per used UUID.  Duplicate index items therefore vanish.
** - Data blobs stay as the stored (compressed, for v4) bytes until someone
**   asks for them: df_data_get inflates on first use and caches the result;
**   df_data_copy and df_write inflate into buffers of their own, leaving the
**   blob compressed.
**   A blob that cannot be inflated ("unavailable": zlib error, size
**   mismatch, declared size 0) is reported by df_data_get and, unless it was
**   replaced, written back with its original stored bytes and declared size.
** - Decompressed sizes are capped (DF_MAX_DATA_SIZE and zlib's maximal
**   ratio) before anything is allocated, so a blob claiming gigabytes fails.
**
** Ownership: df_parse and df_new return a datafile the caller frees with
** df_free.  Every item payload and blob inside is malloc'd and owned by the
** datafile; pointers handed out by df_item_at / df_data_get stay valid until
** that item or blob is replaced, or the datafile is freed.  df_write's output
** is malloc'd; the caller frees it with free().  The input buffer given to
** df_parse is only borrowed during the call.
*/
#ifndef LEVELSQL_DATAFILE_H
#define LEVELSQL_DATAFILE_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"
#include "common/codec_limits.h"

#define DF_ITEMTYPE_EX 0xFFFFu          /* UUID-index items */
#define DF_UUID_TYPE_MIN 0x8000u        /* internal types >= this may be UUID types */
/* Largest decompressed blob we agree to allocate (zlib bomb guard). */
#define DF_MAX_DATA_SIZE (512u * 1024u * 1024u)
/* zlib cannot expand more than ~1032:1; a claim above this is a lie. */
#define DF_MAX_ZLIB_RATIO 1040u

/* How the file header was found (informational). */
enum df_header_kind {
  DF_HEADER_OK = 0,     /* size/swaplen as the current writer computes them */
  DF_HEADER_LEGACY = 1  /* pre-2010 v4 writer: size/swaplen omit the sizes table */
};

typedef struct df_item {
  uint32_t type;   /* 0..0xFFFF, internal type as stored in the file */
  uint32_t id;     /* 0..0xFFFF */
  size_t num_ints; /* payload = num_ints * 4 bytes */
  int32_t *ints;   /* owned (NULL when num_ints == 0) */
} df_item;

enum df_data_state {
  DF_DATA_STORED = 0,      /* only the stored bytes are known */
  DF_DATA_LOADED = 1,      /* raw holds the uncompressed bytes */
  DF_DATA_UNAVAILABLE = 2  /* inflating failed once; stored bytes kept */
};

typedef struct df_data {
  unsigned char *stored; /* owned: bytes as in the file (zlib stream in v4) */
  size_t stored_size;
  uint32_t declared_size; /* v4 data_sizes[i]; v3: stored_size */
  int stored_is_raw;      /* 1 for v3 files (no compression) */
  unsigned char *raw;     /* owned: uncompressed bytes once LOADED or replaced */
  size_t raw_size;
  int state;              /* enum df_data_state */
  int dirty;              /* replaced by df_data_set / added: must be compressed */
} df_data;

typedef struct datafile {
  int version;       /* 3 or 4 as read (4 for df_new) */
  int magic_swapped; /* 1 if the magic was "ATAD" */
  int header_kind;   /* enum df_header_kind */
  size_t num_items, cap_items;
  df_item *items;
  size_t num_data, cap_data;
  df_data *data;
  /* Borrowed, NULL normally: set by a caller for the length of a long call
  ** (validating or drawing a whole map), polled while a blob inflates;
  ** when it says stop the inflate fails with CODEC_E_INTERRUPT and the
  ** blob stays as it was.  Not copied by df_clone. */
  const codec_cancel *cancel;
} datafile;

/* Flags for df_write. */
enum df_write_flags {
  /* Re-inflate and re-compress (zlib level 6) every blob, as DDNet's
  ** map_resave does.  Without it, unchanged v4 blobs keep their original
  ** compressed bytes (faster; identical for files DDNet wrote itself). */
  DF_WRITE_RECOMPRESS = 1
};

/* Returns 1 if the buffer starts with the datafile magic "DATA" or "ATAD". */
int df_sniff(const unsigned char *buf, size_t size);

/* Parses a whole file.  On success returns 1 and *out (free with df_free);
** on failure returns 0 with a message naming the section and byte offset. */
int df_parse(const unsigned char *buf, size_t size, datafile **out, codec_error *err);

/* df_parse polling `cancel` (NULL: never) every few MiB of blob bytes
** copied and every CODEC_POLL_RECORDS items or blobs; when it says stop,
** fails with CODEC_E_INTERRUPT ("interrupted") and *out stays NULL. */
int df_parse_cancel(const unsigned char *buf, size_t size, const codec_cancel *cancel, datafile **out,
                    codec_error *err);

/* An empty version-4 datafile (NULL when memory runs out). */
datafile *df_new(void);

void df_free(datafile *df);

/* A deep copy of df (free with df_free); NULL when memory runs out. */
datafile *df_clone(const datafile *df);

/* The item at list position i (NULL if out of range).  Borrowed. */
const df_item *df_item_at(const datafile *df, size_t i);

/* List position of the first item with this type and id, or -1. */
long df_find_item(const datafile *df, uint32_t type, uint32_t id);

/* Number of items with the given type, and the list position of the n-th
** one (-1 if none): map item arrays are addressed this way. */
size_t df_type_count(const datafile *df, uint32_t type);
long df_type_nth(const datafile *df, uint32_t type, size_t n);

/* Internal type number under which items of this UUID are stored, found
** through the first UUID-index item carrying it; -1 if the file has none.
** uuid is the 16 bytes as DDNet prints them. */
long df_find_uuid_type(const datafile *df, const unsigned char uuid[16]);

/* Replaces an item's payload with a copy of ints[0..n).  0 on OOM (old kept). */
int df_item_set(datafile *df, size_t i, const int32_t *ints, size_t n);

/* Appends an item (payload copied).  Returns its list position or -1 on OOM. */
long df_item_add(datafile *df, uint32_t type, uint32_t id, const int32_t *ints, size_t n);

/* Declared uncompressed size of blob i without inflating it (0 if out of
** range). */
size_t df_data_size(const datafile *df, size_t i);

/* Uncompressed bytes of blob i, inflating them on first use.  *data stays
** owned by the datafile.  Fails (0, message) for an index out of range or
** unavailable data. */
int df_data_get(datafile *df, size_t i, const unsigned char **data, size_t *size, codec_error *err);

/* A malloc'd copy of blob i's uncompressed bytes (*out, the caller frees
** it).  A blob not inflated yet is inflated into it directly and stays
** compressed in the datafile: for decoders that keep the bytes in their
** own form, so the model holds them once.  Fails like df_data_get. */
int df_data_copy(datafile *df, size_t i, unsigned char **out, size_t *size, codec_error *err);

/* Frees the uncompressed copies of the blobs that are unchanged since they
** were read (not dirty; their stored bytes say the same), so each is
** inflated again when next asked for.  Pointers df_data_get handed out for
** them become invalid. */
void df_shed(datafile *df);

/* Replaces blob i with a copy of bytes[0..n).  0 on OOM (old kept). */
int df_data_set(datafile *df, size_t i, const unsigned char *bytes, size_t n);

/* Appends a blob (copied).  Returns its index, or -1 on OOM. */
long df_data_add(datafile *df, const unsigned char *bytes, size_t n);

/* Serializes as version 4 the way DDNet writes (see the top of this file).
** *out is malloc'd; the caller frees it. */
int df_write(datafile *df, int flags, unsigned char **out, size_t *out_size, codec_error *err);

#endif
