/*
** source.h: turning a table's `source` argument into the list of files it
** names: one file, the files of a directory, or the matches of a glob
** pattern.  Paths are used as given: no shell expansion beyond the glob.
*/
#ifndef LEVELSQL_SOURCE_H
#define LEVELSQL_SOURCE_H

#include "engine.h"

typedef struct ls_pathlist {
  char **paths; /* sqlite3_malloc'd strings, sorted for patterns and directories */
  int n;
} ls_pathlist;

/* Expands source:
**  - a pattern (contains *, ? or [): every regular file that glob(3)
**    matches, sorted; no match is an empty list, as with a shell's nullglob;
**  - a directory: its regular files (not recursive) whose extension is one of
**    fmt's (any extension when fmt is NULL), sorted;
**  - anything else: that one path (whether it opens is found out on load).
** Returns SQLITE_OK, or an error with *err (a directory that cannot be
** listed, out of memory). */
int ls_source_expand(const char *source, const ls_format *fmt, ls_pathlist *out, char **err);

void ls_pathlist_free(ls_pathlist *list);

#endif
