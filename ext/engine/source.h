/*
** source.h: turning a table's `source` argument into the list of files it
** names: one file, the files of a folder, the matches of a glob pattern, or
** a JSON array of any of these.  Paths are used as given: no shell expansion
** beyond the glob (no ~, no $VAR).
*/
#ifndef LEVELSQL_SOURCE_H
#define LEVELSQL_SOURCE_H

#include "engine/engine.h"

typedef struct ls_pathlist {
  char **paths; /* sqlite3_malloc'd strings, sorted for patterns, folders and arrays */
  int n;
} ls_pathlist;

/* What a source that names a game lists (game.h): the resource types of
** the table's format (ls_session_expand fills them in), through the
** connection's cache of keys. */
typedef struct ls_source_game {
  struct ls_game *game;
  const struct ls_game_types *types;
} ls_source_game;

/* Expands source:
**  - a JSON array of strings (`["a/x.WWD", "b/RETAIL*.WWD"]`): each element
**    expanded as below, the results merged in byte order without
**    duplicates; a source that starts like an array ('[' then '"' or ']')
**    but is not a valid one is an error, unless it names an existing file
**    or folder;
**  - a pattern (contains *, ?, [ or a {a,b} group): the regular files it
**    matches, in byte order of the path, without duplicates.  `**` as a
**    whole path segment matches zero or more folders; {a,b} groups (nested
**    too) are alternatives; names match in any (ASCII) case when nocase is
**    set; `*`, `?` and `[` do not match a leading dot.  A pattern whose
**    fixed leading folders do not exist is an error naming the missing
**    folder; no match inside existing folders is an empty list.  A pattern
**    that is itself the name of an existing file gives that file;
**  - a folder: its regular files (not recursive, no hidden ones) whose
**    extension is one of fmt's in any case (any extension when fmt is
**    NULL), sorted;
**  - a game (game.h): a chitin.key, a folder holding one (its other files
**    are not level files), or a key a pattern matches: the game's
**    resources of game->types, "<key>:<RESREF.EXT>" or the override file
**    that takes precedence (ls_game_list);
**  - anything else: that one path (whether it opens is found out on load:
**    "<key>:<RESREF.EXT>" names one resource of a game).
** Each file is listed once: paths reaching one file (a symbolic link and
** its target, hard links, "./A.WWD" and "A.WWD") give only the first of
** them in byte order.  A path the walk meets but cannot stat (longer than
** PATH_MAX, a link loop) is listed too, so that its load reports why.
** ic (NULL: none) is checked as the walk goes: an interrupted statement
** stops it with SQLITE_INTERRUPT and "interrupted".
** Returns SQLITE_OK, or an error with *err (sqlite3_mprintf'd): a missing
** folder, a folder that cannot be listed, a malformed array, out of
** memory, an interrupt. */
int ls_source_expand(const char *source, const ls_format *fmt, const ls_source_game *game, int nocase,
                     ls_interrupt *ic, ls_pathlist *out, char **err);

void ls_pathlist_free(ls_pathlist *list);

/* Are the n bytes at s valid UTF-8 (no overlong forms, no surrogates)?  A
** path that is not is shown as a BLOB of its bytes in the `file` column,
** so no host fails to decode it (README, "Sources"). */
int ls_utf8_valid(const char *s, size_t n);

/* Do a and b spell the same path for a `file = ?` constraint: byte for
** byte, and on Windows with '/' and '\\' alike (the walk joins names with
** '/', a user may write either). */
int ls_path_spelling_equal(const char *a, const char *b);

#endif
