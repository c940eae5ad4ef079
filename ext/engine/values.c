/*
** values.c: checked conversions between SQL values and file fields, shared
** by the column setters of every table, so every table reports a value that
** does not fit in the same words: the column and the limit.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/utf16.h"
#include "engine/engine.h"

/* A short description of a value for error messages ("text 'abc'"). */
static char *describe_value(sqlite3_value *v) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_NULL: return sqlite3_mprintf("NULL");
    case SQLITE_INTEGER: return sqlite3_mprintf("%lld", sqlite3_value_int64(v));
    case SQLITE_FLOAT: return sqlite3_mprintf("%!.15g", sqlite3_value_double(v));
    case SQLITE_BLOB: return sqlite3_mprintf("a blob of %d bytes", sqlite3_value_bytes(v));
    default: return sqlite3_mprintf("text '%.40s'", sqlite3_value_text(v));
  }
}

int ls_value_int(sqlite3_value *v, const ls_column *col, int64_t min, int64_t max, int64_t *out, char **err) {
  int type = sqlite3_value_numeric_type(v);
  int64_t x = 0;
  int ok = 0;
  if (type == SQLITE_INTEGER) {
    x = sqlite3_value_int64(v);
    ok = 1;
  } else if (type == SQLITE_FLOAT) {
    double d = sqlite3_value_double(v);
    if (d >= -9.2e18 && d <= 9.2e18 && d == (double)(int64_t)d) {
      x = (int64_t)d;
      ok = 1;
    }
  }
  if (ok && x >= min && x <= max) {
    *out = x;
    return SQLITE_OK;
  }
  {
    char *what = describe_value(v);
    *err = sqlite3_mprintf("column %s: %s %s; it takes an integer from %lld to %lld", col->name, what,
                           ok ? "is out of range" : "is not an integer", (long long)min, (long long)max);
    sqlite3_free(what);
  }
  return SQLITE_CONSTRAINT;
}

int ls_text8_encode(const char *s, size_t n, const ls_column *col, const ls_options *opts, const char *what,
                    unsigned char **out, size_t *out_len, char **err) {
  uint32_t bad = 0;
  if (text8_encode(s, n, opts->encoding, out, out_len, &bad)) return SQLITE_OK;
  if (!*out && bad == 0) return SQLITE_NOMEM;
  free(*out);
  *out = NULL;
  if (bad == 0xFFFFFFFFu) {
    *err = sqlite3_mprintf("column %s: %s is not valid UTF-8", col->name, what);
  } else {
    *err = sqlite3_mprintf("column %s: character U+%04X cannot be written in %s (set the table option encoding=...)",
                           col->name, (unsigned)bad, text8_codepage_name(opts->encoding));
  }
  return SQLITE_CONSTRAINT;
}

int ls_value_text8(sqlite3_value *v, const ls_column *col, const ls_options *opts, size_t max_len,
                   unsigned char **out, size_t *out_len, char **err) {
  const char *text;
  int n, rc;
  if (sqlite3_value_type(v) == SQLITE_NULL || sqlite3_value_type(v) == SQLITE_BLOB) {
    *err = sqlite3_mprintf("column %s: %s; it takes text of at most %lld bytes", col->name,
                           sqlite3_value_type(v) == SQLITE_NULL ? "NULL" : "a blob", (long long)max_len);
    return SQLITE_CONSTRAINT;
  }
  text = (const char *)sqlite3_value_text(v);
  n = sqlite3_value_bytes(v);
  if (!text) return SQLITE_NOMEM;
  if ((rc = ls_text8_encode(text, (size_t)n, col, opts, "the text", out, out_len, err)) != SQLITE_OK) return rc;
  if (*out_len > max_len) {
    *err = sqlite3_mprintf("column %s: text of %lld bytes is longer than the %lld bytes the field holds", col->name,
                           (long long)*out_len, (long long)max_len);
    free(*out);
    *out = NULL;
    return SQLITE_CONSTRAINT;
  }
  return SQLITE_OK;
}

/* Returns 1 when s[0..n) is well-formed UTF-8 (no overlongs, surrogates or
** code points above U+10FFFF). */
static int utf8_valid(const unsigned char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned c = s[i], need, k;
    uint32_t cp;
    if (c < 0x80) {
      i++;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) need = 1, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) need = 2, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) need = 3, cp = c & 0x07;
    else return 0;
    if (n - i <= need) return 0;
    for (k = 1; k <= need; k++) {
      if ((s[i + k] & 0xC0) != 0x80) return 0;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if ((need == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
      return 0;
    i += need + 1;
  }
  return 1;
}

/* Checks that text of n bytes is min_len to max_len bytes long. */
static int text_length(const ls_column *col, size_t n, size_t min_len, size_t max_len, char **err) {
  if (n > max_len) {
    *err = sqlite3_mprintf("column %s: text of %lld bytes is longer than the %lld bytes the field holds", col->name,
                           (long long)n, (long long)max_len);
    return SQLITE_CONSTRAINT;
  }
  if (n < min_len) {
    *err = sqlite3_mprintf("column %s: empty text; it takes UTF-8 text of 1 to %lld bytes", col->name,
                           (long long)max_len);
    return SQLITE_CONSTRAINT;
  }
  return SQLITE_OK;
}

/* Reads a text value for col: UTF-8 without NUL characters, min_len to
** max_len bytes.  *s points into the value (valid until it changes).
** NULL is refused; callers that take NULL check for it first. */
int ls_value_utf8(sqlite3_value *v, const ls_column *col, size_t min_len, size_t max_len, const char **s,
                  size_t *n, char **err) {
  int type = sqlite3_value_type(v);
  if (type == SQLITE_NULL || type == SQLITE_BLOB) {
    *err = sqlite3_mprintf("column %s: %s; it takes UTF-8 text of %s%lld bytes", col->name,
                           type == SQLITE_NULL ? "NULL" : "a blob", min_len ? "1 to " : "at most ",
                           (long long)max_len);
    return SQLITE_CONSTRAINT;
  }
  *s = (const char *)sqlite3_value_text(v);
  *n = (size_t)sqlite3_value_bytes(v);
  if (!*s) return SQLITE_NOMEM;
  return ls_text_utf8(*s, *n, col, min_len, max_len, err);
}

int ls_text_utf8(const char *s, size_t n, const ls_column *col, size_t min_len, size_t max_len, char **err) {
  if (!utf8_valid((const unsigned char *)s, n)) {
    *err = sqlite3_mprintf("column %s: the text is not valid UTF-8", col->name);
    return SQLITE_CONSTRAINT;
  }
  if (memchr(s, 0, n)) {
    *err = sqlite3_mprintf("column %s: the text contains a NUL character", col->name);
    return SQLITE_CONSTRAINT;
  }
  return text_length(col, n, min_len, max_len, err);
}

int ls_value_wtf8(sqlite3_value *v, const ls_column *col, size_t min_len, size_t max_len, const char **s, size_t *n,
                  char **err) {
  int type = sqlite3_value_type(v);
  if (type != SQLITE_TEXT) {
    /* a blob is refused as in every other format's text columns: text
    ** holds a lone surrogate's bytes as they are (CAST(x'..' AS TEXT)) */
    *err = sqlite3_mprintf("column %s: %s; it takes UTF-8 text (or WTF-8 for lone surrogates: CAST(x'...' AS TEXT))",
                           col->name, type == SQLITE_NULL ? "NULL" : type == SQLITE_BLOB ? "a blob" : "a number");
    return SQLITE_CONSTRAINT;
  }
  *s = (const char *)sqlite3_value_text(v);
  *n = (size_t)sqlite3_value_bytes(v);
  if (!*s) return SQLITE_NOMEM;
  return ls_text_wtf8(*s, *n, col, min_len, max_len, err);
}

int ls_text_wtf8(const char *s, size_t n, const ls_column *col, size_t min_len, size_t max_len, char **err) {
  size_t units, bad = 0;
  if (!wtf8_validate(s, n, &units, &bad)) {
    *err = sqlite3_mprintf("column %s: not UTF-8 (or WTF-8) at byte %lld; it takes UTF-8 text (or WTF-8 for lone surrogates)",
                           col->name, (long long)bad);
    return SQLITE_CONSTRAINT;
  }
  return text_length(col, n, min_len, max_len, err);
}

void ls_result_text8(sqlite3_context *ctx, const ls_options *opts, const unsigned char *s, size_t n) {
  size_t len = 0;
  char *utf8 = text8_decode(s, n, opts->encoding, &len);
  if (!utf8) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text64(ctx, utf8, len, free, SQLITE_UTF8);
}

int ls_codec_failed(const codec_error *e, int rc, char **err, const char *prefix, ...) {
  const char *msg = e->msg[0] ? e->msg : "the edit failed";
  char *head = NULL;
  va_list ap;
  if (e->code == CODEC_E_MEMORY) return SQLITE_NOMEM;
  if (e->code == CODEC_E_INTERRUPT) { /* the statement was interrupted: nothing wrong with the file */
    *err = sqlite3_mprintf("interrupted");
    return SQLITE_INTERRUPT;
  }
  if (prefix) {
    va_start(ap, prefix);
    head = sqlite3_vmprintf(prefix, ap);
    va_end(ap);
    if (!head) return SQLITE_NOMEM;
  }
  *err = head ? sqlite3_mprintf("%s: %s", head, msg) : sqlite3_mprintf("%s", msg);
  sqlite3_free(head);
  return *err ? rc : SQLITE_NOMEM;
}

void ls_result_codec_error(sqlite3_context *ctx, const ls_row *row, const codec_error *e) {
  char *msg;
  if (e->code == CODEC_E_MEMORY) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  msg = row->file && row->file->path ? sqlite3_mprintf("%s: %s", row->file->path, e->msg) : NULL;
  sqlite3_result_error(ctx, msg ? msg : e->msg, -1);
  sqlite3_free(msg);
}

char *ls_flags_format(const ls_flag_name *names, uint32_t value) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  uint32_t left = value;
  const ls_flag_name *n;
  for (n = names; n->name; n++) {
    if (n->bit && (left & n->bit) == n->bit) {
      sqlite3_str_appendf(s, "%s%s", sqlite3_str_length(s) ? "|" : "", n->name);
      left &= ~n->bit;
    }
  }
  if (left) sqlite3_str_appendf(s, "%s0x%x", sqlite3_str_length(s) ? "|" : "", (unsigned)left);
  if (sqlite3_str_length(s) == 0) {
    sqlite3_free(sqlite3_str_finish(s));
    return sqlite3_mprintf(""); /* finish() would give NULL for "" */
  }
  return sqlite3_str_finish(s); /* NULL only when out of memory */
}

int ls_flags_parse(const ls_flag_name *names, const char *text, uint32_t *out, char **bad) {
  uint32_t value = 0;
  const char *p = text;
  *bad = NULL;
  while (*p) {
    size_t len;
    const ls_flag_name *n;
    char *end;
    while (*p == '|' || *p == ',' || *p == ' ' || *p == '+') p++;
    len = strcspn(p, "|, +");
    if (!len) break;
    for (n = names; n->name; n++) {
      if (strlen(n->name) == len && sqlite3_strnicmp(n->name, p, (int)len) == 0) break;
    }
    if (n->name) {
      value |= n->bit;
    } else {
      unsigned long x = strtoul(p, &end, 0);
      if (end != p + len || x > 0xFFFFFFFFul) {
        *bad = sqlite3_mprintf("%.*s", (int)len, p);
        return 0;
      }
      value |= (uint32_t)x;
    }
    p += len;
  }
  *out = value;
  return 1;
}
