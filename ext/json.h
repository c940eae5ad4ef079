/*
** json.h: JSON in and out for the columns of every table (json.c).
**
** Ownership: ls_json_parse returns a tree the caller frees with
** ls_json_free; strings in it are malloc'd, NUL-terminated and may hold
** NUL characters (n is their length).
*/
#ifndef LEVELSQL_JSON_H
#define LEVELSQL_JSON_H

#include "engine.h"

typedef enum ls_json_type {
  LS_JSON_NULL, LS_JSON_FALSE, LS_JSON_TRUE, LS_JSON_INT, LS_JSON_REAL, LS_JSON_STRING, LS_JSON_ARRAY, LS_JSON_OBJECT
} ls_json_type;

typedef struct ls_json {
  ls_json_type type;
  int64_t i;             /* LS_JSON_INT */
  double r;              /* LS_JSON_REAL and LS_JSON_INT */
  char *s;               /* LS_JSON_STRING: UTF-8 (WTF-8 for lone surrogates) */
  size_t n;              /* its length in bytes */
  size_t count;          /* arrays and objects: members */
  struct ls_json *child; /* the first member */
  struct ls_json *next;  /* the next member of the parent */
  char *key;             /* a member of an object: its key */
  size_t key_n;
} ls_json;

/* Parses text[0..n).  Returns SQLITE_OK with *out, SQLITE_NOMEM, or
** SQLITE_CONSTRAINT with *err saying what is wrong and where
** (sqlite3_mprintf'd). */
int ls_json_parse(const char *text, size_t n, ls_json **out, char **err);
void ls_json_free(ls_json *n);
/* "integer", "text", "array", ... ("missing" for NULL), as json_type() says. */
const char *ls_json_type_name(const ls_json *n);
/* Element i of an array, or NULL. */
const ls_json *ls_json_at(const ls_json *array, size_t i);
/* The member of an object with that key, or NULL. */
const ls_json *ls_json_member(const ls_json *object, const char *key);

/* Parses a JSON column's value v; NULL, non-text and invalid JSON are
** refused naming the column, with `example`, a valid value.  Returns
** SQLITE_OK with *out (free with ls_json_free), SQLITE_NOMEM or
** SQLITE_CONSTRAINT with *err. */
int ls_json_value(sqlite3_value *v, const ls_column *col, const char *example, ls_json **out, char **err);

/* Checks for JSON columns, with the messages every table gives: `node`
** is an array of min..max elements; an integer within min..max (or equal
** to *keep, the value the row holds); `what` names the place ("element
** [2][1]"), `example` a valid value of the column. */
int ls_json_check_array(const ls_json *node, const ls_column *col, const char *what, size_t min, size_t max,
                        const char *example, char **err);
int ls_json_check_int(const ls_json *node, const ls_column *col, const char *what, int64_t min, int64_t max,
                      const int64_t *keep, int64_t *out, char **err);
/* `node` is an object whose keys are all in `keys` (NULL-terminated). */
int ls_json_check_object(const ls_json *node, const ls_column *col, const char *what, const char *const *keys,
                         const char *example, char **err);

/* Appends s[0..n) as a JSON string. */
void ls_json_append_string(sqlite3_str *out, const char *s, size_t n);
/* Sets a JSON text result from a builder (subtype 'J') and finishes it. */
void ls_json_result(sqlite3_context *ctx, sqlite3_str *s);

#endif
