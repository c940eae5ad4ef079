/*
** json.h: a small strict JSON parser (json.c), pure C.
**
** Ownership: json_parse returns a tree the caller frees with json_free;
** strings in it are malloc'd, NUL-terminated and may hold NUL characters
** (n is their length).
*/
#ifndef LEVELSQL_CODEC_JSON_H
#define LEVELSQL_CODEC_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"

#define JSON_MAX_DEPTH 64

typedef enum json_type {
  JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_INT, JSON_REAL, JSON_STRING, JSON_ARRAY, JSON_OBJECT
} json_type;

typedef struct json_node {
  json_type type;
  int64_t i;               /* JSON_INT */
  double r;                /* JSON_REAL and JSON_INT */
  char *s;                 /* JSON_STRING: UTF-8 (WTF-8 for lone surrogates) */
  size_t n;                /* its length in bytes */
  size_t count;            /* arrays and objects: members */
  struct json_node *child; /* the first member */
  struct json_node *next;  /* the next member of the parent */
  char *key;               /* a member of an object: its key */
  size_t key_n;
} json_node;

/* Parses text[0..n).  Returns 1 with *out; 0 when the text is not JSON
** (err says what and at which character); -1 when out of memory. */
int json_parse(const char *text, size_t n, json_node **out, codec_error *err);
void json_free(json_node *n);
/* "integer", "text", "array", ... ("missing" for NULL), as SQLite's
** json_type() says. */
const char *json_type_name(const json_node *n);
/* Element i of an array, or NULL. */
const json_node *json_at(const json_node *array, size_t i);
/* The member of an object with that key, or NULL. */
const json_node *json_member(const json_node *object, const char *key);

#endif
