/*
** json.c: a small strict JSON parser (RFC 8259: no comments, no trailing
** commas) into a tree of json_node, for the JSON columns of every table
** (ext/engine/json.c turns its errors into column messages).  Numbers without a
** fraction or exponent that fit in 64 bits are integers, as in SQLite.
** \uXXXX escapes become UTF-8; a lone surrogate becomes WTF-8 (the wz4
** strings keep them).  Nesting is limited to JSON_MAX_DEPTH so hostile
** text cannot exhaust the stack.  Pure C: no SQLite.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"

typedef struct parser {
  const char *p, *end, *start;
  codec_error *err;
  int failed, oom;
} parser;

static void skip_space(parser *ps) {
  while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) ps->p++;
}

/* Records the first error (where it happened) and returns NULL. */
static json_node *fail(parser *ps, const char *what) {
  if (!ps->failed && !ps->oom) codec_fail(ps->err, "%s at character %lld", what, (long long)(ps->p - ps->start));
  ps->failed = 1;
  return NULL;
}

static json_node *node_new(parser *ps, json_type type) {
  json_node *n = calloc(1, sizeof *n);
  if (!n) ps->oom = 1;
  else n->type = type;
  return n;
}

/* Appends code point cp as UTF-8 (WTF-8 for a lone surrogate, which the
** wz4 strings need to keep). */
static size_t put_utf8(char *out, uint32_t cp) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

static int hex4(const char *p, uint32_t *out) {
  int i;
  *out = 0;
  for (i = 0; i < 4; i++) {
    char c = p[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return 0;
    *out = *out * 16 + (uint32_t)d;
  }
  return 1;
}

/* A string at ps->p (on its opening quote), unescaped into a malloc'd,
** NUL-terminated buffer. */
static int parse_string(parser *ps, char **out, size_t *out_n) {
  const char *p = ps->p + 1;
  char *buf, *w;
  size_t cap = 0;
  const char *q;
  /* every escape shortens or keeps the length (\uXXXX: 6 chars -> at most 3 bytes, a pair 12 -> 4) */
  for (q = p; q < ps->end && *q != '"'; q++) {
    if (*q == '\\') q++;
  }
  if (q >= ps->end) {
    fail(ps, "unterminated string");
    return 0;
  }
  cap = (size_t)(q - p) + 1;
  if (!(buf = malloc(cap))) {
    ps->oom = 1;
    return 0;
  }
  w = buf;
  while (*p != '"') {
    unsigned char c = (unsigned char)*p;
    if (c < 0x20) {
      free(buf);
      ps->p = p;
      fail(ps, "control character in a string");
      return 0;
    }
    if (c != '\\') {
      *w++ = (char)c;
      p++;
      continue;
    }
    p++;
    switch (*p) {
      case '"': *w++ = '"'; p++; break;
      case '\\': *w++ = '\\'; p++; break;
      case '/': *w++ = '/'; p++; break;
      case 'b': *w++ = '\b'; p++; break;
      case 'f': *w++ = '\f'; p++; break;
      case 'n': *w++ = '\n'; p++; break;
      case 'r': *w++ = '\r'; p++; break;
      case 't': *w++ = '\t'; p++; break;
      case 'u': {
        uint32_t cp, lo;
        if (ps->end - p < 5 || !hex4(p + 1, &cp)) {
          free(buf);
          ps->p = p;
          fail(ps, "bad \\u escape");
          return 0;
        }
        p += 5;
        if (cp >= 0xD800 && cp <= 0xDBFF && ps->end - p >= 6 && p[0] == '\\' && p[1] == 'u' && hex4(p + 2, &lo) &&
            lo >= 0xDC00 && lo <= 0xDFFF) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          p += 6;
        }
        w += put_utf8(w, cp);
        break;
      }
      default:
        free(buf);
        ps->p = p;
        fail(ps, "bad escape");
        return 0;
    }
  }
  *w = 0;
  *out = buf;
  *out_n = (size_t)(w - buf);
  ps->p = p + 1;
  return 1;
}

static json_node *parse_value(parser *ps, int depth);

/* An array or object at ps->p (on its bracket). */
static json_node *parse_container(parser *ps, int depth) {
  int object = *ps->p == '{';
  char close = object ? '}' : ']';
  json_node *n = node_new(ps, object ? JSON_OBJECT : JSON_ARRAY), **tail;
  if (!n) return NULL;
  if (depth >= JSON_MAX_DEPTH) {
    free(n);
    return fail(ps, "nested too deeply");
  }
  tail = &n->child;
  ps->p++;
  skip_space(ps);
  if (ps->p < ps->end && *ps->p == close) {
    ps->p++;
    return n;
  }
  for (;;) {
    json_node *item;
    char *key = NULL;
    size_t key_n = 0;
    skip_space(ps);
    if (object) {
      if (ps->p >= ps->end || *ps->p != '"' || !parse_string(ps, &key, &key_n)) {
        fail(ps, "expected a string key");
        json_free(n);
        return NULL;
      }
      skip_space(ps);
      if (ps->p >= ps->end || *ps->p != ':') {
        free(key);
        json_free(n);
        return fail(ps, "expected ':'");
      }
      ps->p++;
    }
    if (!(item = parse_value(ps, depth + 1))) {
      free(key);
      json_free(n);
      return NULL;
    }
    item->key = key;
    item->key_n = key_n;
    *tail = item;
    tail = &item->next;
    n->count++;
    skip_space(ps);
    if (ps->p < ps->end && *ps->p == ',') {
      ps->p++;
      continue;
    }
    if (ps->p < ps->end && *ps->p == close) {
      ps->p++;
      return n;
    }
    json_free(n);
    return fail(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
  }
}

static json_node *parse_number(parser *ps) {
  const char *s = ps->p;
  int integral = 1;
  char buf[64];
  size_t len;
  json_node *n;
  if (ps->p < ps->end && *ps->p == '-') ps->p++;
  if (ps->p >= ps->end || !(*ps->p >= '0' && *ps->p <= '9')) return fail(ps, "bad number");
  if (*ps->p == '0') ps->p++;
  else while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
  if (ps->p < ps->end && *ps->p == '.') {
    integral = 0;
    ps->p++;
    if (ps->p >= ps->end || !(*ps->p >= '0' && *ps->p <= '9')) return fail(ps, "bad number");
    while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
  }
  if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
    integral = 0;
    ps->p++;
    if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-')) ps->p++;
    if (ps->p >= ps->end || !(*ps->p >= '0' && *ps->p <= '9')) return fail(ps, "bad number");
    while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
  }
  len = (size_t)(ps->p - s);
  if (len >= sizeof buf) return fail(ps, "number too long");
  memcpy(buf, s, len);
  buf[len] = 0;
  if (!(n = node_new(ps, JSON_REAL))) return NULL;
  n->r = strtod(buf, NULL);
  if (integral) {
    /* integers that fit in 64 bits stay exact; larger ones are reals, as in SQLite */
    int neg = buf[0] == '-';
    const char *d = buf + neg;
    uint64_t u = 0;
    int fits = 1;
    for (; *d; d++) {
      if (u > (UINT64_MAX - (uint64_t)(*d - '0')) / 10) fits = 0;
      u = u * 10 + (uint64_t)(*d - '0');
    }
    if (fits && (neg ? u <= (uint64_t)INT64_MAX + 1 : u <= (uint64_t)INT64_MAX)) {
      n->type = JSON_INT;
      n->i = neg ? (int64_t)(0 - u) : (int64_t)u;
    }
  }
  return n;
}

static json_node *parse_word(parser *ps, const char *word, json_type type) {
  size_t len = strlen(word);
  if ((size_t)(ps->end - ps->p) < len || memcmp(ps->p, word, len) != 0) return fail(ps, "unexpected character");
  ps->p += len;
  return node_new(ps, type);
}

static json_node *parse_value(parser *ps, int depth) {
  skip_space(ps);
  if (ps->p >= ps->end) return fail(ps, "unexpected end");
  switch (*ps->p) {
    case '[':
    case '{': return parse_container(ps, depth);
    case '"': {
      json_node *n = node_new(ps, JSON_STRING);
      if (n && !parse_string(ps, &n->s, &n->n)) {
        free(n);
        return NULL;
      }
      return n;
    }
    case 't': return parse_word(ps, "true", JSON_TRUE);
    case 'f': return parse_word(ps, "false", JSON_FALSE);
    case 'n': return parse_word(ps, "null", JSON_NULL);
    default: return parse_number(ps);
  }
}

int json_parse(const char *text, size_t n, json_node **out, codec_error *err) {
  parser ps;
  json_node *root;
  ps.p = ps.start = text;
  ps.end = text + n;
  ps.err = err;
  ps.failed = ps.oom = 0;
  *out = NULL;
  root = parse_value(&ps, 0);
  if (root) {
    skip_space(&ps);
    if (ps.p < ps.end) {
      json_free(root);
      root = fail(&ps, "unexpected text after the value");
    }
  }
  if (ps.oom) {
    json_free(root);
    codec_fail_oom(err, "out of memory");
    return -1;
  }
  if (!root) return 0;
  *out = root;
  return 1;
}

void json_free(json_node *n) {
  while (n) {
    json_node *next = n->next;
    json_free(n->child);
    free(n->s);
    free(n->key);
    free(n);
    n = next;
  }
}

const char *json_type_name(const json_node *n) {
  static const char *const names[] = {"null", "false", "true", "integer", "real", "text", "array", "object"};
  return n ? names[n->type] : "missing";
}

const json_node *json_at(const json_node *array, size_t i) {
  const json_node *c;
  if (!array || array->type != JSON_ARRAY) return NULL;
  for (c = array->child; c && i; c = c->next) i--;
  return c;
}

const json_node *json_member(const json_node *object, const char *key) {
  const json_node *c;
  if (!object || object->type != JSON_OBJECT) return NULL;
  for (c = object->child; c; c = c->next) {
    if (c->key && strlen(key) == c->key_n && memcmp(c->key, key, c->key_n) == 0) return c;
  }
  return NULL;
}
