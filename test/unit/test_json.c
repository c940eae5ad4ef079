/*
** test_json.c: the JSON parser of the JSON columns (codecs/common/json.c): what it
** accepts and refuses, numbers as SQLite reads them, escapes, surrogates,
** and the nesting limit.
*/
#include <string.h>

#include "check.h"
#include "common/json.h"

/* Parses text; returns the tree (NULL when refused) and the error. */
static json_node *parse(const char *text, codec_error *err) {
  json_node *n = NULL;
  err->msg[0] = 0;
  if (json_parse(text, strlen(text), &n, err) != 1) return NULL;
  return n;
}

static void test_refused(void) {
  static const char *const bad[] = {"", " ", "[1,]", "[1 2]", "{\"a\" 1}", "{1:2}", "01", "1.", ".5", "-", "1e",
                                    "\"abc", "\"a\\x\"", "\"\\u12G4\"", "tru", "nul", "[1] x", "'a'", "[\"a\nb\"]",
                                    "NaN", "Infinity", "{\"a\":1,}", "/* c */ 1"};
  size_t i;
  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    codec_error err;
    json_node *n = parse(bad[i], &err);
    CHECK(n == NULL && strstr(err.msg, "at character") != NULL, "refused '%s' with a place: %s", bad[i], err.msg);
    json_free(n);
  }
}

static void test_values(void) {
  codec_error err;
  json_node *n = parse(" [ 1, -9223372036854775808, 9223372036854775807, 9223372036854775808, 1.5, 2e3, true, false, null, \"x\", {\"k\": [ ]} ] ", &err);
  const json_node *e;
  CHECK(n && n->type == JSON_ARRAY && n->count == 11, "an array of 11: %s", err.msg);
  if (!n) return;
  CHECK(json_at(n, 0)->type == JSON_INT && json_at(n, 0)->i == 1, "1");
  CHECK(json_at(n, 1)->type == JSON_INT && json_at(n, 1)->i == INT64_MIN, "INT64_MIN exact");
  CHECK(json_at(n, 2)->type == JSON_INT && json_at(n, 2)->i == INT64_MAX, "INT64_MAX exact");
  CHECK(json_at(n, 3)->type == JSON_REAL, "above INT64_MAX: a real, as in SQLite");
  CHECK(json_at(n, 4)->type == JSON_REAL && json_at(n, 4)->r == 1.5, "1.5");
  CHECK(json_at(n, 5)->type == JSON_REAL && json_at(n, 5)->r == 2000, "2e3 is a real");
  CHECK(strcmp(json_type_name(json_at(n, 6)), "true") == 0 && strcmp(json_type_name(json_at(n, 8)), "null") == 0, "words");
  e = json_at(n, 10);
  CHECK(e->type == JSON_OBJECT && json_member(e, "k") && json_member(e, "k")->count == 0 && !json_member(e, "x"), "object");
  CHECK(json_at(n, 11) == NULL && strcmp(json_type_name(json_at(n, 11)), "missing") == 0, "past the end");
  json_free(n);
}

static void test_strings(void) {
  codec_error err;
  json_node *n = parse("[\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\u00e9\\u20ac\", \"\\ud83d\\ude00\", \"\\ud800x\", \"\\u0000\"]", &err);
  CHECK(n != NULL, "strings parse: %s", err.msg);
  if (!n) return;
  CHECK(json_at(n, 0)->n == 9 && memcmp(json_at(n, 0)->s, "a\"\\/\b\f\n\r\t", 9) == 0, "escapes");
  CHECK(strcmp(json_at(n, 1)->s, "\xC3\xA9\xE2\x82\xAC") == 0, "BMP code points as UTF-8");
  CHECK(strcmp(json_at(n, 2)->s, "\xF0\x9F\x98\x80") == 0, "a surrogate pair is one code point");
  CHECK(strcmp(json_at(n, 3)->s, "\xED\xA0\x80x") == 0, "a lone surrogate as WTF-8");
  CHECK(json_at(n, 4)->n == 1 && json_at(n, 4)->s[0] == 0, "an escaped NUL is kept, with its length");
  json_free(n);
}

static void test_depth(void) {
  char deep[2 * JSON_MAX_DEPTH + 8];
  codec_error err;
  json_node *n;
  int i;
  for (i = 0; i < JSON_MAX_DEPTH; i++) deep[i] = '[';
  for (i = 0; i < JSON_MAX_DEPTH; i++) deep[JSON_MAX_DEPTH + i] = ']';
  deep[2 * JSON_MAX_DEPTH] = 0;
  n = parse(deep, &err);
  CHECK(n != NULL, "%d levels parse: %s", JSON_MAX_DEPTH, err.msg);
  json_free(n);
  memmove(deep + 1, deep, strlen(deep) + 1);
  deep[0] = '[';
  strcat(deep, "]");
  n = parse(deep, &err);
  CHECK(n == NULL && strstr(err.msg, "nested too deeply"), "one more is refused: %s", err.msg);
  json_free(n);
}

int main(void) {
  test_refused();
  test_values();
  test_strings();
  test_depth();
  return check_done();
}
