/*
** options.c: the options argument of every table ('nocase=0,on_error=skip',
** or key=value arguments of CREATE VIRTUAL TABLE).  The engine's own
** options (nocase, on_error) hold for every table; a format adds its own
** by declaring them (ls_format.options), so a format-specific option needs
** no change here.
*/
#include <string.h>

#include "engine/engine.h"

static int parse_encoding(const char *value, ls_options *opts, char **err) {
  if (text8_codepage_from_name(value, &opts->encoding)) return 1;
  *err = sqlite3_mprintf("unknown encoding '%s' (known: cp1252, cp1250, cp1251, latin1)", value);
  return 0;
}

const ls_option ls_option_encoding = {"encoding", "encoding=cp1250", "cp1252", parse_encoding};

static int parse_nocase(const char *value, ls_options *opts, char **err) {
  if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0) {
    *err = sqlite3_mprintf("option nocase takes 1 (names in any case, the default) or 0 (exact case), not '%s'", value);
    return 0;
  }
  opts->nocase = value[0] == '1';
  return 1;
}

static int parse_on_error(const char *value, ls_options *opts, char **err) {
  if (sqlite3_stricmp(value, "fail") != 0 && sqlite3_stricmp(value, "skip") != 0) {
    *err = sqlite3_mprintf("option on_error takes fail (the default) or skip, not '%s'", value);
    return 0;
  }
  opts->skip_errors = sqlite3_stricmp(value, "skip") == 0;
  return 1;
}

static int parse_rewrite(const char *value, ls_options *opts, char **err) {
  if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0) {
    *err = sqlite3_mprintf("option rewrite takes 0 (the default: writing back the values rows hold changes nothing) or "
                           "1 (re-save every file an UPDATE touches), not '%s'", value);
    return 0;
  }
  opts->rewrite = value[0] == '1';
  return 1;
}

static const ls_option option_nocase = {"nocase", "nocase=0", "1", parse_nocase};
static const ls_option option_on_error = {"on_error", "on_error=skip", "fail", parse_on_error};
static const ls_option option_rewrite = {"rewrite", "rewrite=1", "0", parse_rewrite};
static const ls_option *const engine_options[] = {&option_nocase, &option_on_error, &option_rewrite, NULL};
#define ENGINE_OPTIONS_END (engine_options + sizeof engine_options / sizeof engine_options[0] - 1) /* the NULL */

/* The option lists a table of the format takes: the format's, then the
** engine's. */
static void option_lists(const ls_format *fmt, const ls_option *const *lists[2]) {
  lists[0] = fmt && fmt->options ? fmt->options : ENGINE_OPTIONS_END; /* an empty list */
  lists[1] = engine_options;
}

/* The option called name[0..len) (any case), or NULL. */
static const ls_option *find_option(const ls_format *fmt, const char *name, size_t len) {
  const ls_option *const *lists[2];
  int l;
  option_lists(fmt, lists);
  for (l = 0; l < 2; l++) {
    const ls_option *const *o;
    for (o = lists[l]; *o; o++) {
      if (strlen((*o)->name) == len && sqlite3_strnicmp((*o)->name, name, (int)len) == 0) return *o;
    }
  }
  return NULL;
}

/* "a, b, c" or, with examples, "a=1, b=2": every option the format takes. */
static char *option_list(const ls_format *fmt, int examples) {
  const ls_option *const *lists[2];
  sqlite3_str *s = sqlite3_str_new(NULL);
  int l;
  option_lists(fmt, lists);
  for (l = 0; l < 2; l++) {
    const ls_option *const *o;
    for (o = lists[l]; *o; o++) {
      sqlite3_str_appendf(s, "%s%s", sqlite3_str_length(s) ? ", " : "", examples ? (*o)->example : (*o)->name);
    }
  }
  return sqlite3_str_finish(s);
}

char *ls_options_examples(const ls_format *fmt) {
  return option_list(fmt, 1);
}

int ls_options_parse(const ls_format *fmt, const char *text, ls_options *opts, char **err) {
  const ls_option *const *lists[2];
  const char *p = text;
  int l;
  memset(opts, 0, sizeof *opts);
  opts->encoding = TEXT8_CP1252;
  option_lists(fmt, lists);
  for (l = 0; l < 2; l++) {
    const ls_option *const *o;
    for (o = lists[l]; *o; o++) {
      if ((*o)->default_value && !(*o)->parse((*o)->default_value, opts, err)) return SQLITE_ERROR;
    }
  }
  while (p && *p) {
    const char *end, *eq;
    const ls_option *o;
    char *value;
    int ok;
    while (*p == ',' || *p == ';' || *p == ' ' || *p == '\t') p++;
    if (!*p) break;
    end = p + strcspn(p, ",; \t");
    eq = memchr(p, '=', (size_t)(end - p));
    if (!eq) {
      *err = sqlite3_mprintf("option '%.*s' is not of the form key=value", (int)(end - p), p);
      return SQLITE_ERROR;
    }
    if (!(o = find_option(fmt, p, (size_t)(eq - p)))) {
      char *known = option_list(fmt, 0);
      *err = sqlite3_mprintf("unknown option '%.*s' (known: %s)", (int)(eq - p), p, known ? known : "");
      sqlite3_free(known);
      return SQLITE_ERROR;
    }
    if (!(value = sqlite3_mprintf("%.*s", (int)(end - eq - 1), eq + 1))) {
      *err = sqlite3_mprintf("out of memory");
      return SQLITE_NOMEM;
    }
    ok = o->parse(value, opts, err);
    sqlite3_free(value);
    if (!ok) return SQLITE_ERROR;
    p = end;
  }
  return SQLITE_OK;
}
