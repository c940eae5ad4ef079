/*
** source.c: expansion of a table's source argument into file paths.
*/
#include "source.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

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

static int compare_paths(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_regular_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Does the file name end in one of fmt's extensions (any case)? */
static int has_format_extension(const char *name, const ls_format *fmt) {
  const char *dot = strrchr(name, '.');
  const char *const *ext;
  if (!fmt) return 1;
  if (!dot || !fmt->extensions) return 0;
  for (ext = fmt->extensions; *ext; ext++) {
    if (strcasecmp(dot, *ext) == 0) return 1;
  }
  return 0;
}

static int expand_glob(const char *pattern, ls_pathlist *out, char **err) {
  glob_t g;
  size_t i;
  int rc = glob(pattern, GLOB_NOSORT, NULL, &g);
  if (rc == GLOB_NOMATCH) return SQLITE_OK;
  if (rc != 0) {
    *err = sqlite3_mprintf("%s: cannot expand the pattern: %s", pattern,
                           rc == GLOB_NOSPACE ? "out of memory" : "read error");
    if (rc != GLOB_NOSPACE) globfree(&g);
    return SQLITE_ERROR;
  }
  for (i = 0; i < g.gl_pathc; i++) {
    if (is_regular_file(g.gl_pathv[i]) && !pathlist_add(out, g.gl_pathv[i])) {
      globfree(&g);
      *err = sqlite3_mprintf("out of memory");
      return SQLITE_NOMEM;
    }
  }
  globfree(&g);
  /* glob(3) sorts by the locale's collation; the engine promises byte order
  ** (ORDER BY file is answered without a sort) */
  if (out->n > 1) qsort(out->paths, (size_t)out->n, sizeof *out->paths, compare_paths);
  return SQLITE_OK;
}

static int expand_directory(const char *dir, const ls_format *fmt, ls_pathlist *out, char **err) {
  DIR *d = opendir(dir);
  struct dirent *e;
  size_t len = strlen(dir);
  int slash = len > 0 && dir[len - 1] == '/';
  if (!d) {
    *err = sqlite3_mprintf("%s: cannot list the directory: %s", dir, strerror(errno));
    return SQLITE_ERROR;
  }
  while ((e = readdir(d)) != NULL) {
    char *path;
    int ok = 1;
    if (e->d_name[0] == '.' || !has_format_extension(e->d_name, fmt)) continue;
    path = sqlite3_mprintf(slash ? "%s%s" : "%s/%s", dir, e->d_name);
    if (!path) ok = 0;
    else if (is_regular_file(path)) ok = pathlist_add(out, path);
    sqlite3_free(path);
    if (!ok) {
      closedir(d);
      *err = sqlite3_mprintf("out of memory");
      return SQLITE_NOMEM;
    }
  }
  closedir(d);
  if (out->n > 1) qsort(out->paths, (size_t)out->n, sizeof *out->paths, compare_paths);
  return SQLITE_OK;
}

int ls_source_expand(const char *source, const ls_format *fmt, ls_pathlist *out, char **err) {
  struct stat st;
  out->paths = NULL;
  out->n = 0;
  if (strpbrk(source, "*?[")) {
    int rc = expand_glob(source, out, err);
    /* A real file whose name has brackets is still that file. */
    if (rc != SQLITE_OK || out->n > 0 || !is_regular_file(source)) return rc;
  } else if (stat(source, &st) == 0 && S_ISDIR(st.st_mode)) {
    return expand_directory(source, fmt, out, err);
  }
  if (!pathlist_add(out, source)) {
    *err = sqlite3_mprintf("out of memory");
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}
