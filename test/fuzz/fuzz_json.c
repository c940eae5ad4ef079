/*
** fuzz_json.c: libFuzzer harness for the JSON parser (codecs/common/json.c) that
** reads the JSON columns users write.
**
** For every input: parse.  When it parses, the tree is printed back as
** JSON (canonical form), which must parse again and print the same; a
** refused input must leave no tree.  Any inconsistency calls abort().
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"

typedef struct buf {
  char *p;
  size_t n, cap;
} buf;

static void put(buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = (b->n + n + 1) * 2;
    char *p = realloc(b->p, cap);
    if (!p) abort();
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}

static void put_string(buf *b, const char *s, size_t n) {
  size_t i;
  put(b, "\"", 1);
  for (i = 0; i < n; i++) {
    char esc[8];
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\' || c < 0x20) {
      snprintf(esc, sizeof esc, "\\u%04x", c);
      put(b, esc, 6);
    } else {
      put(b, s + i, 1);
    }
  }
  put(b, "\"", 1);
}

static void print(buf *b, const json_node *n) {
  char num[64];
  const json_node *c;
  switch (n->type) {
    case JSON_NULL: put(b, "null", 4); break;
    case JSON_FALSE: put(b, "false", 5); break;
    case JSON_TRUE: put(b, "true", 4); break;
    case JSON_INT: put(b, num, (size_t)snprintf(num, sizeof num, "%lld", (long long)n->i)); break;
    case JSON_REAL: {
      /* a real stays a real when read back: "-0" or "1e+300" style output
      ** gets a fraction where it has none ("-0.0"), as SQLite writes reals */
      int len = snprintf(num, sizeof num, "%.17g", n->r);
      if (!strpbrk(num, ".e")) len = snprintf(num, sizeof num, "%.17g.0", n->r);
      put(b, num, (size_t)len);
      break;
    }
    case JSON_STRING: put_string(b, n->s, n->n); break;
    case JSON_ARRAY:
    case JSON_OBJECT:
      put(b, n->type == JSON_ARRAY ? "[" : "{", 1);
      for (c = n->child; c; c = c->next) {
        if (c != n->child) put(b, ",", 1);
        if (n->type == JSON_OBJECT) {
          put_string(b, c->key, c->key_n);
          put(b, ":", 1);
        }
        print(b, c);
      }
      put(b, n->type == JSON_ARRAY ? "]" : "}", 1);
      break;
  }
}

/* Whether the tree holds a real that %.17g cannot write as JSON (a huge
** exponent reads as infinity). */
static int has_nonfinite(const json_node *n) {
  const json_node *c;
  if (n->type == JSON_REAL && !isfinite(n->r)) return 1;
  for (c = n->child; c; c = c->next) {
    if (has_nonfinite(c)) return 1;
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  json_node *a = NULL, *b = NULL;
  codec_error err;
  buf first = {0}, second = {0};
  int rc = json_parse((const char *)data, size, &a, &err);
  if (rc != 1) {
    if (a) abort();
    return 0;
  }
  if (has_nonfinite(a)) {
    json_free(a);
    return 0;
  }
  print(&first, a);
  if (json_parse(first.p, first.n, &b, &err) != 1) abort();
  print(&second, b);
  if (first.n != second.n || memcmp(first.p, second.p, first.n) != 0) abort();
  json_free(a);
  json_free(b);
  free(first.p);
  free(second.p);
  return 0;
}
