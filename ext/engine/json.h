/*
** json.h: JSON in and out for the columns of every table (json.c; the
** parser is codecs/json.c).
*/
#ifndef LEVELSQL_JSON_H
#define LEVELSQL_JSON_H

#include "common/json.h"
#include "engine/engine.h"

/* Parses a JSON column's value: text holding JSON.  Returns SQLITE_OK
** with *out (json_free it), SQLITE_NOMEM, or SQLITE_CONSTRAINT with *err
** naming the column, what is wrong and `example`, a valid value. */
int ls_json_value(sqlite3_value *v, const ls_column *col, const char *example, json_node **out, char **err);

/* Checks for JSON columns, with the messages every table gives: `node`
** is an array of min..max elements; an integer within min..max (or equal
** to *keep, the value the row holds); `what` names the place ("element
** [2][1]"), `example` a valid value of the column. */
int ls_json_check_array(const json_node *node, const ls_column *col, const char *what, size_t min, size_t max,
                        const char *example, char **err);
int ls_json_check_int(const json_node *node, const ls_column *col, const char *what, int64_t min, int64_t max,
                      const int64_t *keep, int64_t *out, char **err);
/* `node` is an object whose keys are all keys of the n members. */
int ls_json_check_object(const json_node *node, const ls_column *col, const char *what, const ls_json_member *members,
                         size_t nmembers, const char *example, char **err);

/* Appends s[0..n) as a JSON string: UTF-8, or WTF-8 whose lone surrogates
** (ED A0..BF xx, never in UTF-8) become \udXXX escapes, so the JSON is
** valid UTF-8 and parses back to the same bytes. */
void ls_json_append_string(sqlite3_str *out, const char *s, size_t n);
/* Sets a JSON text result from a builder (subtype 'J') and finishes it. */
void ls_json_result(sqlite3_context *ctx, sqlite3_str *s);

#endif
