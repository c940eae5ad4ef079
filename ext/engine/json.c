/*
** json.c: the one JSON layer of levelsql, for every JSON column in and out.
**
** Out: JSON text built with sqlite3_str (in strings, '"' and '\\' are
** escaped and every control character is written as \u00XX, which any
** JSON reader takes) and returned with subtype 'J', so SQLite's JSON
** functions take a column as JSON rather than as a string.
**
** In: codecs/common/json.c parses the value (no private database connection);
** the checks here turn what is wrong into the column's error message, in
** the same words for every table.
*/
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

void ls_json_append_string(sqlite3_str *out, const char *s, size_t n) {
  size_t i;
  sqlite3_str_appendchar(out, 1, '"');
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      sqlite3_str_appendf(out, "\\%c", c);
    } else if (c < 0x20) {
      sqlite3_str_appendf(out, "\\u%04x", c);
    } else if (c == 0xED && n - i >= 3 && ((unsigned char)s[i + 1] & 0xE0) == 0xA0) { /* WTF-8 lone surrogate */
      sqlite3_str_appendf(out, "\\u%04x", 0xD000 | (((unsigned char)s[i + 1] & 0x3F) << 6) | ((unsigned char)s[i + 2] & 0x3F));
      i += 2;
    } else {
      sqlite3_str_appendchar(out, 1, (char)c);
    }
  }
  sqlite3_str_appendchar(out, 1, '"');
}

void ls_json_result(sqlite3_context *ctx, sqlite3_str *s) {
  int n = sqlite3_str_length(s);
  char *text = sqlite3_str_finish(s);
  if (!text) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, text, n, sqlite3_free);
  sqlite3_result_subtype(ctx, 'J');
}


int ls_json_value(sqlite3_value *v, const ls_column *col, const char *example, json_node **out, char **err) {
  codec_error why;
  int rc;
  *out = NULL;
  if (sqlite3_value_type(v) != SQLITE_TEXT) {
    int type = sqlite3_value_type(v);
    *err = sqlite3_mprintf("column %s: %s; it takes JSON text, e.g. '%s'", col->name,
                           type == SQLITE_NULL ? "NULL" : type == SQLITE_BLOB ? "a blob, not text" : "a number, not text",
                           example);
    return SQLITE_CONSTRAINT;
  }
  why.msg[0] = 0;
  rc = json_parse((const char *)sqlite3_value_text(v), (size_t)sqlite3_value_bytes(v), out, &why);
  if (rc < 0) return SQLITE_NOMEM;
  if (rc == 0) {
    *err = sqlite3_mprintf("column %s: not valid JSON; it takes JSON like '%s' (%s)", col->name, example, why.msg);
    return SQLITE_CONSTRAINT;
  }
  return SQLITE_OK;
}

int ls_json_check_array(const json_node *node, const ls_column *col, const char *what, size_t min, size_t max,
                        const char *example, char **err) {
  if (!node || node->type != JSON_ARRAY) {
    *err = sqlite3_mprintf("column %s: %s is %s, not an array; e.g. '%s'", col->name, what, json_type_name(node), example);
    return SQLITE_CONSTRAINT;
  }
  if (node->count < min || node->count > max) {
    if (min == max) {
      *err = sqlite3_mprintf("column %s: %s has %lld elements; it takes exactly %lld, e.g. '%s'", col->name, what,
                             (long long)node->count, (long long)min, example);
    } else {
      *err = sqlite3_mprintf("column %s: %s has %lld elements; it takes %lld to %lld", col->name, what,
                             (long long)node->count, (long long)min, (long long)max);
    }
    return SQLITE_CONSTRAINT;
  }
  return SQLITE_OK;
}

int ls_json_check_int(const json_node *node, const ls_column *col, const char *what, int64_t min, int64_t max,
                      const int64_t *keep, int64_t *out, char **err) {
  if (!node || node->type != JSON_INT) {
    *err = sqlite3_mprintf("column %s: %s is %s, not an integer; it takes an integer from %lld to %lld", col->name, what,
                           json_type_name(node), (long long)min, (long long)max);
    return SQLITE_CONSTRAINT;
  }
  if ((node->i < min || node->i > max) && !(keep && node->i == *keep)) {
    *err = sqlite3_mprintf("column %s: %s = %lld is out of range; it takes an integer from %lld to %lld", col->name, what,
                           (long long)node->i, (long long)min, (long long)max);
    return SQLITE_CONSTRAINT;
  }
  *out = node->i;
  return SQLITE_OK;
}

int ls_json_check_object(const json_node *node, const ls_column *col, const char *what, const ls_json_member *members,
                         size_t nmembers, const char *example, char **err) {
  const json_node *m;
  if (!node || node->type != JSON_OBJECT) {
    *err = sqlite3_mprintf("column %s: %s is %s, not an object; e.g. '%s'", col->name, what, json_type_name(node), example);
    return SQLITE_CONSTRAINT;
  }
  for (m = node->child; m; m = m->next) {
    size_t k;
    for (k = 0; k < nmembers && !(strlen(members[k].key) == m->key_n && memcmp(members[k].key, m->key, m->key_n) == 0); k++) {
    }
    if (k == nmembers) {
      *err = sqlite3_mprintf("column %s: %s has an unknown key '%s'", col->name, what, m->key);
      return SQLITE_CONSTRAINT;
    }
  }
  return SQLITE_OK;
}
