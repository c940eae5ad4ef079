/*
** wz4.h: the werkkzeug4 project codec (.wz4, farbrausch's demo tool).
**
** Pure C, no SQLite.  wz4_parse turns the bytes of a .wz4 file into a
** wz4_doc; wz4_serialize turns a wz4_doc back into file bytes.  Format
** notes: ../shared/formats/wz4.md (and the seed description).
**
** Model choices, and why:
** - There are no chunk lengths in the format, so the model keeps every field
**   the reader passes over, with the version it was read with (document 11
**   or 12, options chunk 0..16, op records 0..12).  wz4_serialize writes the
**   same layout back, so an unmodified model gives the input byte for byte
**   (v11 files stay v11; the tool itself would upgrade them).
** - Scalars are kept as raw 32-bit words (uint32_t, or int32_t where the
**   value is a signed coordinate).  Parameter words have no type in the file
**   (their meaning lives in the tool's *.ops sources), so `params` is raw.
** - Strings (UTF-16LE in the file) are kept as WTF-8 (see utf16.h):
**   plain UTF-8 for well-formed text, unpaired surrogates as ED A0..BF xx.
**   This is lossless in both directions.  The padding after an odd-length
**   string must be zero (the tool always writes zeros); a file with other
**   padding bytes is rejected rather than silently changed.
**   Note for SQL: a lone surrogate's ED A0..BF bytes are not valid UTF-8;
**   SQLite stores such text as given, but its JSON functions refuse it.
**   The JSON forms below escape lone surrogates as \uD800 instead.
** - Bytes after the end of the document (none in real files) are kept in
**   `trailer` and written back.
** - Stacked operators on a page have no stored inputs: they connect by grid
**   position (wz4_page_links computes the graph from the current model, so
**   it follows position edits).
**
** Ownership: wz4_parse and wz4_clone return a document the caller frees with
** wz4_free.  Every array and string inside is owned by the document and
** allocated with malloc; a wz4_str with s == NULL is the empty string.  To
** change a string or an array, use the setters below (they free the old
** value); direct writes to scalar fields (positions, flags, param words) are
** fine.  wz4_serialize's output and wz4_page_links' array are malloc'd; the
** caller frees them with free().
*/
#ifndef LEVELSQL_WZ4_H
#define LEVELSQL_WZ4_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"
#include "common/codec_limits.h"

#define WZ4_TAG_OPEN 0x3c3c3c3cu  /* '<<<<' */
#define WZ4_TAG_CLOSE 0x3e3e3e3eu /* '>>>>' */
#define WZ4_ID_DOC 0x00040007u     /* Werkkzeug4Doc */
#define WZ4_ID_OP 0x00040008u      /* Werkkzeug4Op */
#define WZ4_ID_OPTIONS 0x0002001fu /* Wz4DocOptions */

#define WZ4_DOC_VERSION_MIN 11
#define WZ4_DOC_VERSION_MAX 12
#define WZ4_OPTIONS_VERSION_MAX 16
#define WZ4_OP_VERSION_MAX 12
/* Deepest chain of link default ops (op -> link default -> its link default
** ...) we accept; real files nest at most 1 deep.  Bounds the recursion. */
#define WZ4_MAX_NESTING 32
#define WZ4_PALETTE_WORDS 128 /* options v12+: 32 colours x 4 floats */

/* The most UTF-16 units a string may have (the file stores it as
** 2 * units bytes after a 32-bit length); as a limit on a string's WTF-8
** bytes it never lets through too many units. */
#define WZ4_STR_UNITS_MAX (UINT32_MAX / 2)

/* A string: WTF-8 bytes, NUL-terminated, len without the NUL.  s == NULL
** means "" (len 0).  Strings may contain U+0000 (a NUL byte inside len). */
typedef struct wz4_str {
  char *s;
  size_t len;
} wz4_str;

/* The text of a string, never NULL. */
static inline const char *wz4_str_text(const wz4_str *str) { return str->s ? str->s : ""; }

typedef struct wz4_op wz4_op;

/* One link slot of an op (op version >= 3). */
typedef struct wz4_link {
  wz4_str name;         /* target op name; empty = slot unused */
  uint32_t select;      /* input method */
  uint32_t has_default; /* op version >= 4: the raw flag word; nonzero <=> def != NULL */
  wz4_op *def;          /* the link's default op (malloc'd, owned), or NULL */
} wz4_link;

/* One script parameter (op version >= 9; the string from version 10). */
typedef struct wz4_script_para {
  uint32_t value[4];
  wz4_str str;
} wz4_script_para;

/* An op record (Werkkzeug4Op chunk).  Which fields are in the file depends
** on `version` (see wz4.md); fields of other versions are 0/empty and are
** neither read nor written. */
struct wz4_op {
  int32_t version;            /* 0..12; 0 = header only, no body */
  wz4_str name;               /* the user's label (link target), often empty */
  wz4_str class_name;         /* e.g. "Flat" */
  wz4_str type_name;          /* output type symbol, e.g. "GenBitmap" */
  uint32_t dummy;             /* version >= 12: always 0 in real files */
  uint32_t num_params;
  uint32_t *params;           /* raw parameter words */
  uint32_t num_strings;
  wz4_str *strings;           /* string parameters (text buffers) */
  uint32_t num_links;         /* version >= 3 */
  wz4_link *links;
  uint32_t array_words;       /* version >= 5: words per array entry */
  uint32_t array_count;       /* number of entries */
  uint32_t *array;            /* array_words * array_count words, entry by entry */
  uint32_t num_anims;         /* version == 6 only: obsolete animation ids */
  uint32_t *anims;
  uint32_t script_show;       /* version >= 8 */
  wz4_str script;             /* version >= 8: script source */
  uint32_t num_script_paras;  /* version >= 9 */
  wz4_script_para *script_paras;
};

/* An operator placed on a page.  nodes[0 .. num_stack) of a page are
** stacked ops (grid position), the rest are tree ops (level/flags); the two
** kinds are stored separately in the file, stacked first. */
typedef struct wz4_node {
  int32_t pos_x, pos_y;   /* stacked: grid cell of the left/top edge */
  int32_t width, height;  /* stacked: SizeX, SizeY in grid cells */
  uint32_t bypass, hide;  /* stacked: raw flag words (0/1 in real files) */
  uint32_t tree_level;    /* tree ops only */
  uint32_t tree_flags;    /* tree ops only */
  uint32_t uid;           /* model-only identity (not in the file), see wz4_doc.next_uid */
  wz4_op op;
} wz4_node;

typedef struct wz4_page {
  wz4_str name;
  uint32_t is_tree;
  int32_t scroll_x, scroll_y;
  uint32_t tree_level, tree_flags; /* from the page table */
  uint32_t write_protect;          /* manual write-protect flag (page table) */
  uint32_t num_stack;              /* nodes[0..num_stack) are stacked ops */
  uint32_t num_nodes;
  wz4_node *nodes;
  uint32_t uid;                    /* model-only identity (not in the file) */
} wz4_page;

typedef struct wz4_bpm_segment {
  uint32_t beats; /* s32 */
  uint32_t bpm;   /* f32 bits */
} wz4_bpm_segment;

typedef struct wz4_hidden_part {
  wz4_str code, store;
  uint32_t bpm; /* f32 bits */
  uint32_t last_beat, flags;
  wz4_str song; /* options version >= 16 */
} wz4_hidden_part;

/* The DocOptions chunk (Wz4DocOptions).  Fields present by version:
** project_path (1+), project_name (2+), project_id/site_id (11+),
** texture_quality (3+), level_of_detail (4+), beats_per_second/music_file
** (5+), beat_start (10+), beats (9+), screen_x/y (6+), page_name (7+),
** packfiles (8+), palette (12+), sample_rate/variable_bpm/bpm (13+),
** dialog_flags (14+), hidden parts (15+, song 16+).  Version 0 has no body
** and no footer. */
typedef struct wz4_options {
  int32_t version;
  wz4_str project_path, project_name;
  uint32_t project_id, site_id;
  uint32_t texture_quality, level_of_detail;
  uint32_t beats_per_second; /* 16.16 fixed point */
  wz4_str music_file;
  uint32_t beat_start, beats;
  uint32_t screen_x, screen_y;
  wz4_str page_name; /* last open page */
  wz4_str packfiles;
  uint32_t palette[WZ4_PALETTE_WORDS];
  uint32_t sample_rate, variable_bpm;
  uint32_t num_bpm;
  wz4_bpm_segment *bpm;
  uint32_t dialog_flags;
  uint32_t num_hidden;
  wz4_hidden_part *hidden;
} wz4_options;

/* An obsolete import record (0 in all real files). */
typedef struct wz4_import {
  wz4_str first, second;
  uint32_t enable;
} wz4_import;

typedef struct wz4_doc {
  int32_t version; /* 11 or 12 */
  wz4_options options;
  uint32_t num_pages;
  wz4_page *pages;
  uint32_t num_imports;
  wz4_import *imports;
  uint32_t num_includes;   /* included .wz4i file names */
  wz4_str *includes;
  uint32_t num_page_names; /* the page order list at the end of the file */
  wz4_str *page_names;
  unsigned char *trailer;  /* bytes after the document, kept as read */
  size_t trailer_len;
  /* The next uid to hand out.  Every page and every node gets a uid,
  ** unique among the document's pages (resp. nodes) for the document's
  ** lifetime: dense after parse, new ones for inserted pages and nodes,
  ** never reused; wz4_clone keeps them.  Tables key rows by them, so a
  ** row keeps its key while rows before it are inserted or deleted. */
  uint32_t next_uid;
  /* The memo of the pages' operator graphs (wz4_doc_page_edges), not in
  ** the file: made by wz4_parse and wz4_clone (a clone's starts empty),
  ** freed by wz4_free, and told what went stale by the document-level
  ** edits (wz4_edit.c), so a reader that asks for a page's edges row by
  ** row computes them once.  NULL in a document built by hand. */
  struct wz4_graph *graph;
} wz4_doc;

/* ---- whole files -------------------------------------------------------- */

/* Returns 1 if the buffer starts like a .wz4 project: '<<<<', the
** Werkkzeug4Doc id and a version the codec reads (11 or 12). */
int wz4_sniff(const unsigned char *data, size_t size);

/* Parses a whole file.  Returns 1 and sets *out, or returns 0 with err:
** "<where>: byte offset N: <what>", where <where> is "document", "options",
** "page table entry P", "page P", "page P op I" (I = node index on the
** page), with " (nested default depth D)" inside link default ops, or
** "imports"/"includes"/"page names".  Never reads out of bounds. */
int wz4_parse(const unsigned char *data, size_t size, wz4_doc **out, codec_error *err);

/* wz4_parse polling `cancel` (NULL: never) every few MiB of work: when it
** says stop, fails with CODEC_E_INTERRUPT ("interrupted"), nothing kept. */
int wz4_parse_cancel(const unsigned char *data, size_t size, const codec_cancel *cancel, wz4_doc **out,
                     codec_error *err);

/* Serializes a document in its own versions.  Returns 1 and a malloc'd
** buffer, or 0 with err (a string that is not WTF-8, an array whose pointer
** is NULL with a nonzero count, num_stack > num_nodes, out of memory). */
int wz4_serialize(const wz4_doc *doc, unsigned char **out, size_t *out_size, codec_error *err);

/* Deep copy (NULL when memory runs out). */
wz4_doc *wz4_clone(const wz4_doc *doc);

/* Frees a document and everything in it; NULL is fine. */
void wz4_free(wz4_doc *doc);

/* ---- access and edits -------------------------------------------------- */

/* Node `op` of page `page`, or NULL when either index is out of range. */
wz4_node *wz4_node_at(const wz4_doc *doc, uint32_t page, uint32_t op);

/* 1 when node `op` of the page is a tree op, 0 for a stacked op. */
static inline int wz4_node_is_tree(const wz4_page *page, uint32_t op) { return op >= page->num_stack; }

/* Replaces a string with a copy of s[0..len) (WTF-8, may contain NULs).
** Returns 0 with err when s is not well-formed WTF-8 or memory runs out;
** the old value is then kept. */
int wz4_str_set(wz4_str *dst, const char *s, size_t len, codec_error *err);

/* Replaces an op's parameter words with a copy of words[0..n).  Returns 0
** when memory runs out (old words kept). */
int wz4_op_set_params(wz4_op *op, const uint32_t *words, uint32_t n, codec_error *err);

/* Replaces an op's string parameters with copies of strs[i][0..lens[i]).
** All-or-nothing: returns 0 with err (index of the bad string) when one is
** not WTF-8 or memory runs out, leaving the old strings. */
int wz4_op_set_strings(wz4_op *op, const char *const *strs, const size_t *lens, uint32_t n,
                       codec_error *err);

/* ---- JSON forms of the array columns ------------------------------------ */
/* The wz4_operators columns params, strings and links are JSON arrays.
** Output: a malloc'd, NUL-terminated JSON text (caller frees with free()),
** *len_out (may be NULL) its length; NULL when memory runs out or a model
** string is not WTF-8.  Strings are JSON strings: raw UTF-8, with '"', '\\'
** and control characters escaped, and unpaired surrogates written as
** \uD800-style escapes, so the JSON itself is valid UTF-8 and lossless. */

/* params: [2056,4278190080] - the raw words as unsigned decimals. */
char *wz4_params_json(const wz4_op *op, size_t *len_out);
/* strings: ["din 1451 engschrift","farbrausch"]. */
char *wz4_strings_json(const wz4_op *op, size_t *len_out);
/* links: [{"name":"tex","select":0}] (default ops are not shown). */
char *wz4_links_json(const wz4_op *op, size_t *len_out);
/* A single string as a JSON string literal (with the quotes). */
char *wz4_str_json(const wz4_str *s, size_t *len_out);

/* Sets params from a JSON array of integers, each in -2147483648 ..
** 4294967295 (negatives stored as two's complement).  All-or-nothing;
** returns 0 with err naming the element on bad input. */
int wz4_op_set_params_json(wz4_op *op, const char *json, size_t len, codec_error *err);

/* Sets the string parameters from a JSON array of strings (escapes
** including \uXXXX; an unpaired surrogate escape becomes a lone surrogate,
** see utf16.h).  All-or-nothing; returns 0 with err on bad input. */
int wz4_op_set_strings_json(wz4_op *op, const char *json, size_t len, codec_error *err);

/* ---- the operator graph ------------------------------------------------- */

enum wz4_link_kind {
  WZ4_LINK_STACK = 0, /* grid adjacency: from_op is an input of to_op */
  WZ4_LINK_NAME = 1   /* link slot `slot` of to_op names from_op */
};

/* One edge of the graph of a page (the page holding to_op). */
typedef struct wz4_edge {
  uint32_t to_op;         /* node index on the page */
  int64_t from_page;      /* page of from_op (another page for name links);
                             -1 when a name link's target does not exist */
  int64_t from_op;        /* node index on from_page, or -1 as above */
  enum wz4_link_kind kind;
  uint32_t slot;          /* name links: index into to_op's links; stack: 0 */
  const char *link_name;  /* name links: the link's name (borrowed from the
                             model, valid until it changes); stack: NULL */
  size_t link_name_len;
} wz4_edge;

/* Computes the graph of one page from the current model, as the tool's
** ConnectStack and name lookup do:
** - stack: A is an input of B when both are stacked ops, neither is a
**   comment op (class "Comment"), A.pos_y + A.height == B.pos_y, their
**   x ranges overlap, and A is not hidden (hide != 0).  Edges are sorted by
**   to_op, then by A.pos_x, then A's index.  (Shell-switch ops are not
**   removed: that depends on the tool's command line.)
** - name: each non-empty link name of a node names the first op in the
**   document (page order, then node order) whose name equals it
**   (byte-exact).  Listed after the stack edges of the same to_op, by slot.
** Returns 1 and a malloc'd array (NULL when *n_out == 0), or 0 with err
** when the page does not exist or memory runs out. */
int wz4_page_links(const wz4_doc *doc, uint32_t page, wz4_edge **out, size_t *n_out, codec_error *err);

/* The same, polling `cancel` (NULL: never) every few ops: 0 with
** CODEC_E_INTERRUPT when it said stop. */
int wz4_page_links_cancel(const wz4_doc *doc, uint32_t page, const codec_cancel *cancel, wz4_edge **out,
                          size_t *n_out, codec_error *err);


/* ---- edits of the graph, and a memo of it --------------------------------- */

/* Places a stacked node as `to` says: its grid position, size and bypass
** and hide flags (the op itself is left alone).  Returns 1 when that may
** change the page's stack links (a move, a resize, hide), else 0. */
int wz4_node_place(wz4_node *node, const wz4_node *to);

/* The graphs of a document's pages as wz4_page_links gives them, each
** computed when it is first asked for and kept until the caller says an
** edit made it stale: for readers that want the edges of the same page
** many times.  A memo serves one document; it follows its page count.
** Not thread-safe: the caller serializes access. */
typedef struct wz4_graph wz4_graph;

#define WZ4_GRAPH_ALL (-1)

/* An empty memo, or NULL when memory runs out. */
wz4_graph *wz4_graph_new(void);

/* Frees the memo and every edge list in it; NULL is fine. */
void wz4_graph_free(wz4_graph *g);

/* The edges of page `page` of doc, from the memo or computed now.  Returns
** 1 with *edges (borrowed from the memo until it forgets the page; NULL
** when *n is 0) and *n, or 0 with err when the page does not exist or
** memory runs out. */
int wz4_graph_page(wz4_graph *g, const wz4_doc *doc, uint32_t page, const wz4_edge **edges, size_t *n,
                   codec_error *err);

/* Forgets what an edit made stale: the edges of `page` after an op on it
** was placed (wz4_node_place returned 1; stack links never cross pages),
** or of every page (WZ4_GRAPH_ALL) after a rename, since name links reach
** across pages.  Parameter edits change no edges. */
void wz4_graph_forget(wz4_graph *g, int64_t page);

/* The edges of page `page` from the document's own memo (doc->graph),
** computed when first asked for.  Returns 1 with *edges (borrowed until a
** document-level edit changes them; NULL when *n is 0) and *n, or 0 with
** err when the page does not exist, memory runs out or the document has
** no memo.  Not thread-safe, like the memo. */
int wz4_doc_page_edges(const wz4_doc *doc, uint32_t page, const wz4_edge **edges, size_t *n, codec_error *err);

/* wz4_node_place for `node`, a node of page `page` of doc, the memo
** forgetting the page's edges when the place may change them. */
void wz4_doc_node_place(wz4_doc *doc, uint32_t page, wz4_node *node, const wz4_node *to);

/* Approximate heap bytes a document holds, for caches: strings, arrays
** and ops, nested link defaults included (the options chunk is small). */
size_t wz4_footprint(const wz4_doc *doc);

/* ---- structural edits (wz4_edit.c) ---------------------------------------- */
/* Each returns 1, or 0 with err and the document unchanged; each makes
** the document's memo forget the edges it may change. */

/* Frees what an op (resp. a page: its name and nodes) owns and zeroes it;
** the struct itself stays where it is. */
void wz4_op_clear(wz4_op *op);
void wz4_page_clear(wz4_page *pg);

/* Sets the link slots from a JSON array in wz4_links_json's form
** ([{"name":"tex","select":0}]; keys in any order, "select" optional,
** default 0).  Slot i keeps the default op of the old slot i; slots past
** the old count get none; defaults of slots that go away are freed.  An op
** record older than version 3 takes no slots.  All-or-nothing. */
int wz4_op_set_links_json(wz4_op *op, const char *json, size_t len, codec_error *err);

/* The node (page, op index) or page index with that uid; 1 if found. */
int wz4_node_find(const wz4_doc *doc, uint32_t uid, uint32_t *page, uint32_t *op);
int wz4_page_find(const wz4_doc *doc, uint32_t uid, uint32_t *page);

/* Inserts an empty stacked page at index `at` (0..num_pages) named
** name[0..len) (WTF-8); the name is appended to the page order list. */
int wz4_page_insert(wz4_doc *doc, uint32_t at, const char *name, size_t len, codec_error *err);
/* Removes page `at` with its ops, and the first entry of its name from the
** page order list.  Name links to its ops then dangle. */
int wz4_page_remove(wz4_doc *doc, uint32_t at, codec_error *err);
/* Renames page `at`; the first page order list entry with the old name and
** the options' last open page (when it is the old name) follow. */
int wz4_page_rename(wz4_doc *doc, uint32_t at, const char *name, size_t len, codec_error *err);

/* Whether the document has a page, the first thing an op insert needs:
** 1, or 0 with why not. */
int wz4_has_pages(const wz4_doc *doc, codec_error *err);
/* Inserts a blank stacked op of the given class and output type (both
** non-empty) after the page's last stacked op: op record version 12, no
** params, strings or links, at grid (0, 0), 3 x 1 cells.  Sets *index to
** its node index.  A document without pages and tree pages are refused. */
int wz4_node_insert(wz4_doc *doc, uint32_t page, const char *class_name, size_t class_len, const char *type_name,
                    size_t type_len, uint32_t *index, codec_error *err);
/* Removes node `op` of the page (its link defaults with it). */
int wz4_node_remove(wz4_doc *doc, uint32_t page, uint32_t op, codec_error *err);

/* What a write of an op's fields changes, as plain C values (a row of
** the SQL tables wz4_operators or wz4_link_defaults): each part is applied
** when it is set. */
typedef struct wz4_op_edit {
  const char *links_json; /* new link slots in wz4_links_json's form; NULL: unchanged */
  size_t links_len;
  int set_name;           /* a new name name[0..name_len) */
  const char *name;
  size_t name_len;
  int rename_links;       /* with set_name: the link slots naming the old name follow (wz4_rename_links) */
  int set_params;         /* new parameter words params[0..num_params) */
  const uint32_t *params;
  uint32_t num_params;
  int set_strings;        /* new string parameters strings[i][0..string_lens[i]), i < num_strings */
  const char *const *strings;
  const size_t *string_lens;
  uint32_t num_strings;
  wz4_node *node;         /* the op's node, placed as `place` says (wz4_doc_node_place); NULL: not placed */
  uint32_t page;          /* the node's page */
  const wz4_node *place;
} wz4_op_edit;

/* Applies an edit to `op`, an op of doc (a node's or a link default's):
** the links first (the one value that can be refused), then a new name
** (with rename_links, the link slots naming the old name follow), the
** params and the strings, and last the node's place.  A new name or new
** links make the memo forget every page (name links reach across pages).
** Returns 1, or 0 with err; the parts applied before the failing one
** stay. */
int wz4_op_edit_apply(wz4_doc *doc, wz4_op *op, const wz4_op_edit *edit, codec_error *err);

/* Renames every link slot name equal to from[0..from_len) to to[0..to_len),
** in every op of the document and in their link default ops: what renaming
** a Store op needs so its Load ops and link slots follow.  An empty `from`
** renames nothing (an empty name is an unused slot).  *renamed: how many
** slots changed.  All-or-nothing. */
int wz4_rename_links(wz4_doc *doc, const char *from, size_t from_len, const char *to, size_t to_len, size_t *renamed,
                     codec_error *err);

/* Link default ops: a link slot may hold a complete op as its default,
** which may hold more.  An op's defaults are numbered 0.. in preorder (a
** slot's default, then that default's own defaults, then the next slot). */
typedef struct wz4_default_place {
  int64_t parent; /* preorder number of the op whose slot holds it; -1: the node's own op */
  uint32_t slot;  /* index of that slot in the parent's links */
  uint32_t depth; /* 1 for a default of the node's op, 2 for one of its default, ... */
} wz4_default_place;

/* How many link default ops op holds, at every depth. */
uint32_t wz4_op_default_count(const wz4_op *op);
/* Default number `index` of op in preorder (and where it sits), or NULL
** when op has no more. */
wz4_op *wz4_op_default_at(wz4_op *op, uint32_t index, wz4_default_place *where);

/* The link default ops of a page, numbered 0.. node by node, each node's
** in preorder: how many there are, and default number `index` (NULL when
** the page has fewer), with the node holding it (*node) and where it sits
** (*where, its parent given by its number on the page, -1 for the node's
** own op). */
int64_t wz4_page_default_count(const wz4_page *pg);
wz4_op *wz4_page_default_at(const wz4_page *pg, int64_t index, uint32_t *node, wz4_default_place *where);

/* ---- the tempo ------------------------------------------------------------------ */

/* The options' tempo in beats per minute (beats_per_second is 16.16 fixed
** point), and the reverse: a tempo rounded to the fixed point, refused
** unless it is from 0 to UINT32_MAX * 60 / 65536. */
double wz4_options_bpm(const wz4_options *o);
int wz4_options_set_bpm(wz4_options *o, double bpm, codec_error *err);

#endif
