/*
** columns.c: get and set for every kind of typed column, once.
**
** A typed column is a field of the row's record (ls_table.record_size
** bytes, filled by the table's load()): its kind says what SQL sees (an
** integer, a flag bit, a name, text in the format's code page, a JSON
** array...), its store how the bytes sit in the record, and its limits
** what a write may put there.  Reading turns the field into a result;
** writing checks the value against the limits and writes the field of the
** record, never the model: the table's store() does that for the row as a
** whole.  Every error names the column and the limit, in the same words for
** every table.
**
** Two rules hold for every kind:
**  - a value equal to the one the row holds always passes the checks, so
**    a file with an odd value can still be edited elsewhere (a row that
**    reads NULL holds no value: its null sentinel is checked like any);
**  - a column whose `applies` does not include the row's kind reads NULL,
**    takes NULL back as no change and refuses other values, saying which
**    rows it applies to.
*/
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "engine/engine.h"
#include "engine/record.h"

/* ---- the arena ---------------------------------------------------------- */

typedef struct arena_block {
  struct arena_block *next;
  /* the allocation follows, aligned for any type */
  union {
    long double ld;
    void *p;
    int64_t i;
  } data[1];
} arena_block;

void *ls_arena_alloc(ls_arena *arena, size_t bytes) {
  arena_block *b;
  if (bytes > SIZE_MAX - sizeof *b) return NULL;
  if (!(b = malloc(sizeof *b + bytes))) return NULL;
  b->next = arena->head;
  arena->head = b;
  return b->data;
}

ls_arena *ls_arena_new(void) {
  return calloc(1, sizeof(ls_arena));
}

void ls_arena_reset(ls_arena *arena) {
  while (arena && arena->head) {
    arena_block *next = arena->head->next;
    free(arena->head);
    arena->head = next;
  }
}

void ls_arena_free(ls_arena *arena) {
  ls_arena_reset(arena);
  free(arena);
}

/* ---- fields --------------------------------------------------------------- */

static unsigned char *field_of(const ls_row *row, const ls_column *col) {
  return (unsigned char *)row->rec + col->offset;
}

/* The integer the field holds. */
static int64_t field_int(const unsigned char *f, ls_store st) {
  switch (st) {
    case LS_I8: return *(const int8_t *)f;
    case LS_U8: return *f;
    case LS_I16: { int16_t v; memcpy(&v, f, 2); return v; }
    case LS_U16: { uint16_t v; memcpy(&v, f, 2); return v; }
    case LS_I32: { int32_t v; memcpy(&v, f, 4); return v; }
    case LS_U32: { uint32_t v; memcpy(&v, f, 4); return v; }
    case LS_I64: { int64_t v; memcpy(&v, f, 8); return v; }
    case LS_LE16: return le16_load(f);
    case LS_LE32: return le32_load(f);
    case LS_LE32S: return u32_as_i32(le32_load(f));
    default: return 0;
  }
}

/* The bytes of one integer of a store. */
static size_t store_bytes(ls_store st) {
  switch (st) {
    case LS_I8: case LS_U8: return 1;
    case LS_I16: case LS_U16: case LS_LE16: return 2;
    case LS_I64: case LS_F64: return 8;
    default: return 4;
  }
}

/* Only the changed columns whose field lies inside the copy: the
** record's other fields (spans, computed values) are not the struct's. */
int ls_copy_back(const ls_column *cols, size_t ncols, const unsigned char *changed, const void *rec, size_t at,
                 size_t size, void *to, int (*set_text)(void *field, const ls_span *text, void *arg), void *arg) {
  size_t i, bytes;
  for (i = 0; i < ncols; i++) {
    const ls_column *col = &cols[i];
    int text = col->store == LS_SPAN && (col->kind == LS_TEXT8 || col->kind == LS_UTF8 || col->kind == LS_WTF8);
    ls_span span;
    if (!changed[i] || (!text && col->kind != LS_INT && col->kind != LS_BIT && col->kind != LS_ENUM && col->kind != LS_FLOAT))
      continue;
    bytes = text ? sizeof span : store_bytes(col->store);
    if (col->offset < at || col->offset - at + bytes > size || (text && !set_text)) continue;
    if (!text) {
      memcpy((unsigned char *)to + (col->offset - at), (const unsigned char *)rec + col->offset, bytes);
      continue;
    }
    memcpy(&span, (const unsigned char *)rec + col->offset, sizeof span);
    if (!set_text((unsigned char *)to + (col->offset - at), &span, arg)) return 0;
  }
  return 1;
}

/* Writes x (already checked to fit) into the field. */
static void field_set_int(unsigned char *f, ls_store st, int64_t x) {
  switch (st) {
    case LS_I8: *(int8_t *)f = (int8_t)x; break;
    case LS_U8: *f = (uint8_t)x; break;
    case LS_I16: { int16_t v = (int16_t)x; memcpy(f, &v, 2); break; }
    case LS_U16: { uint16_t v = (uint16_t)x; memcpy(f, &v, 2); break; }
    case LS_I32: { int32_t v = (int32_t)x; memcpy(f, &v, 4); break; }
    case LS_U32: { uint32_t v = (uint32_t)x; memcpy(f, &v, 4); break; }
    case LS_I64: memcpy(f, &x, 8); break;
    case LS_LE16: le16_store(f, (uint16_t)x); break;
    case LS_LE32:
    case LS_LE32S: le32_store(f, (uint32_t)x); break;
    default: break;
  }
}

static double field_float(const unsigned char *f, ls_store st) {
  if (st == LS_F32) {
    float v;
    memcpy(&v, f, 4);
    return v;
  }
  if (st == LS_F64) {
    double v;
    memcpy(&v, f, 8);
    return v;
  }
  return (double)field_int(f, st);
}

/* The bytes of a text field: a NUL-padded array or a span. */
static ls_span field_bytes(const unsigned char *f, const ls_column *col) {
  ls_span s;
  if (col->store == LS_CHARS) {
    const unsigned char *nul = memchr(f, 0, col->size);
    s.p = f;
    s.n = nul ? (size_t)(nul - f) : col->size;
  } else {
    memcpy(&s, f, sizeof s);
  }
  return s;
}

/* ---- row kinds -------------------------------------------------------------- */

/* Whether the column applies to the row (its `applies` holds the kind). */
static int column_applies(const ls_table *t, const ls_row *row, const ls_column *col) {
  int k;
  if (!col->applies || !t->row_kind) return 1;
  k = t->row_kind(row);
  return k >= 0 && k < 32 && (col->applies & (1u << k));
}

/* The name of row kind k (kind_names is NULL-terminated), or "?". */
static const char *kind_name(const ls_table *t, int k) {
  int i;
  for (i = 0; t->kind_names && t->kind_names[i]; i++) {
    if (i == k) return t->kind_names[i];
  }
  return "?";
}

/* "'double'" or "'single' and 'double'": the kinds a column applies to,
** for messages. */
static char *applies_text(const ls_table *t, const ls_column *col) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  int k, seen = 0, total = 0;
  for (k = 0; k < 32; k++) total += (col->applies >> k) & 1;
  for (k = 0; k < 32; k++) {
    if (!(col->applies & (1u << k))) continue;
    seen++;
    sqlite3_str_appendf(s, "%s'%s'", seen == 1 ? "" : seen == total ? " and " : ", ", kind_name(t, k));
  }
  return sqlite3_str_finish(s);
}

/* ---- reading ---------------------------------------------------------------- */

/* Element i of a JSON integer span: int64_t, uint16_t for LS_SPAN16,
** uint32_t for LS_SPAN32, int32_t for a fixed LS_I32 array. */
static int64_t span_int(ls_span s, ls_store st, size_t i) {
  uint16_t u;
  uint32_t w;
  int32_t x;
  if (st == LS_I32) {
    memcpy(&x, (const unsigned char *)s.p + 4 * i, 4);
    return x;
  }
  if (st == LS_SPAN32) {
    memcpy(&w, (const unsigned char *)s.p + 4 * i, 4);
    return w;
  }
  if (st != LS_SPAN16) return ((const int64_t *)s.p)[i];
  memcpy(&u, (const unsigned char *)s.p + 2 * i, 2);
  return u;
}

/* The elements of a JSON integer column: its span, or its fixed LS_I32
** array of .size bytes. */
static ls_span json_ints_of(const unsigned char *f, const ls_column *col) {
  ls_span s;
  if (col->store == LS_I32) {
    s.p = f;
    s.n = col->size / 4;
  } else {
    memcpy(&s, f, sizeof s);
  }
  return s;
}

/* A JSON array of the span's elements, `tuple` per element.  Each element
** is written with its separators in one append, without printf: scans
** read these arrays for every row. */
static void result_json_ints(sqlite3_context *ctx, ls_span s, ls_store st, int tuple) {
  sqlite3_str *out = sqlite3_str_new(NULL);
  size_t i, k = tuple < 1 ? 1 : (size_t)tuple;
  sqlite3_str_appendchar(out, 1, '[');
  for (i = 0; i < s.n; i++) {
    char buf[32], *end = buf + sizeof buf, *p = end; /* filled backwards: [,][[]digits[]] */
    int64_t v = span_int(s, st, i);
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    if (k > 1 && i % k == k - 1) *--p = ']';
    do {
      *--p = (char)('0' + u % 10);
      u /= 10;
    } while (u);
    if (v < 0) *--p = '-';
    if (k > 1 && i % k == 0) *--p = '[';
    if (i) *--p = ',';
    sqlite3_str_append(out, p, (int)(end - p));
  }
  sqlite3_str_appendchar(out, 1, ']');
  ls_json_result(ctx, out);
}

/* The next string of a JSON text array field from byte or element *at:
** an ls_span element (or a codec's string laid out as one, read by
** memcpy; a NULL pointer is ''), or for LS_NUL_STRINGS the bytes up to the
** next NUL (or to the end).  Returns 0 after the last. */
static int next_string(ls_span s, ls_store st, size_t *at, ls_span *out) {
  const char *z;
  if (*at >= s.n) return 0;
  if (st != LS_NUL_STRINGS) {
    memcpy(out, (const ls_span *)s.p + (*at)++, sizeof *out);
    if (!out->p) out->p = "";
    return 1;
  }
  out->p = (const char *)s.p + *at;
  z = memchr(out->p, 0, s.n - *at);
  out->n = z ? (size_t)(z - (const char *)out->p) : s.n - *at;
  *at += out->n + 1;
  return 1;
}

/* A JSON array of strings: 8-bit ones decoded from the code page, UTF-8
** ones as they are. */
static void result_json_texts(sqlite3_context *ctx, const ls_row *row, const ls_column *col, ls_span s) {
  int utf8 = (col->flags & (LS_COL_UTF8 | LS_COL_WTF8)) != 0;
  sqlite3_str *out = sqlite3_str_new(NULL);
  ls_span item;
  size_t at = 0, i;
  sqlite3_str_appendchar(out, 1, '[');
  for (i = 0; next_string(s, col->store, &at, &item); i++) {
    size_t len = item.n;
    char *decoded = utf8 ? NULL : text8_decode(item.p, item.n, row->opts->encoding, &len);
    if (!utf8 && !decoded) {
      sqlite3_free(sqlite3_str_finish(out));
      sqlite3_result_error_nomem(ctx);
      return;
    }
    if (i) sqlite3_str_appendchar(out, 1, ',');
    ls_json_append_string(out, utf8 ? item.p : decoded, len);
    free(decoded);
  }
  sqlite3_str_appendchar(out, 1, ']');
  ls_json_result(ctx, out);
}

/* A JSON array of objects, one per element of the span: every member
** that is one integer, and the arrays whose count is not 0.  Elements a
** load() leaves out are decoded first (ls_json_records.decode). */
static void result_json_records(sqlite3_context *ctx, const ls_row *row, const ls_column *col) {
  const ls_json_records *recs = col->aux;
  unsigned char *f = field_of(row, col);
  sqlite3_str *out;
  ls_span s;
  size_t i, k;
  memcpy(&s, f, sizeof s);
  if (!s.p && recs->decode) {
    char *err = NULL, *msg;
    if (recs->decode(row, &s, &err) != SQLITE_OK) {
      msg = err && row->file && row->file->path ? sqlite3_mprintf("%s: %s", row->file->path, err) : NULL;
      if (err) sqlite3_result_error(ctx, msg ? msg : err, -1);
      else sqlite3_result_error_nomem(ctx);
      sqlite3_free(msg);
      sqlite3_free(err);
      return;
    }
    memcpy(f, &s, sizeof s);
  }
  out = sqlite3_str_new(NULL);
  sqlite3_str_appendchar(out, 1, '[');
  for (i = 0; i < s.n; i++) {
    const unsigned char *e = (const unsigned char *)s.p + i * recs->size;
    const char *sep = i ? ",{" : "{";
    for (k = 0; k < recs->nmembers; k++) {
      const ls_json_member *m = &recs->members[k];
      int j, n = 1;
      if (m->max_ints) memcpy(&n, e + m->count_offset, sizeof n);
      if (n < 1) continue;
      if (n > m->max_ints && m->max_ints) n = m->max_ints;
      sqlite3_str_appendf(out, "%s\"%s\":%s", sep, m->key, m->max_ints ? "[" : "");
      for (j = 0; j < n; j++) {
        sqlite3_str_appendf(out, "%s%lld", j ? "," : "", (long long)field_int(e + m->offset + (size_t)j * store_bytes(m->store), m->store));
      }
      if (m->max_ints) sqlite3_str_appendchar(out, 1, ']');
      sep = ",";
    }
    sqlite3_str_appendchar(out, 1, '}');
  }
  sqlite3_str_appendchar(out, 1, ']');
  ls_json_result(ctx, out);
}

/* Whether an integer column holding x reads NULL (LS_COL_NULL, LS_COL_NEGNULL). */
static int reads_null(const ls_column *col, int64_t x) {
  if (!(col->flags & LS_COL_NULL)) return 0;
  return x == col->null_value || ((col->flags & LS_COL_NEGNULL) && x < 0);
}

/* A value shown by name: names[k] when the NULL-ended list (NULL: none)
** has a k-th name, else the number `value` (an enum's value outside its
** names, say).  LS_ENUM and LS_COL_ELEMENT_OF columns read so. */
static void result_named(sqlite3_context *ctx, const char *const *names, int64_t k, int64_t value) {
  int64_t i = 0;
  while (names && k >= 0 && names[i] && i < k) i++;
  if (names && k >= 0 && names[i] && i == k) sqlite3_result_text(ctx, names[i], -1, SQLITE_STATIC);
  else sqlite3_result_int64(ctx, value);
}

void ls_column_get(const ls_table *t, const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const unsigned char *f;
  ls_span s;
  int64_t x;
  if (col->kind == LS_CUSTOM) {
    col->get(row, ctx, col);
    return;
  }
  if (col->kind == LS_POS) {
    sqlite3_result_int64(ctx, ls_pos_get(&row->pos, (int)col->offset));
    return;
  }
  if (!row->rec || !column_applies(t, row, col)) return;
  f = field_of(row, col);
  switch (col->kind) {
    case LS_INT:
      x = field_int(f, col->store);
      if (!reads_null(col, x)) sqlite3_result_int64(ctx, x);
      break;
    case LS_BIT:
      sqlite3_result_int(ctx, (field_int(f, col->store) & col->max) != 0);
      break;
    case LS_ENUM:
      x = field_int(f, col->store);
      result_named(ctx, col->aux, x >= col->min ? x - col->min : -1, x);
      break;
    case LS_FLOAT:
      sqlite3_result_double(ctx, field_float(f, col->store));
      break;
    case LS_TEXT8:
    case LS_UTF8:
    case LS_WTF8:
    case LS_BLOB:
      s = field_bytes(f, col);
      if (!s.p && (col->flags & LS_COL_NULL_EMPTY)) s.p = ""; /* a codec's empty string */
      if (!s.p) break; /* NULL: absent */
      if (col->kind == LS_TEXT8) ls_result_text8(ctx, row->opts, s.p, s.n);
      else if (col->kind != LS_BLOB) sqlite3_result_text64(ctx, s.p, s.n, SQLITE_TRANSIENT, SQLITE_UTF8);
      else sqlite3_result_blob64(ctx, s.p, s.n, SQLITE_TRANSIENT);
      break;
    case LS_JSON_INTS:
      result_json_ints(ctx, json_ints_of(f, col), col->store, col->aux ? ((const ls_json_shape *)col->aux)->tuple : 1);
      break;
    case LS_JSON_TEXTS:
      memcpy(&s, f, sizeof s);
      result_json_texts(ctx, row, col, s);
      break;
    case LS_JSON_RECORDS:
      result_json_records(ctx, row, col);
      break;
    default:
      break;
  }
}

/* LS_COL_ELEMENT_OF: what of() says of the row's element, by name where
** `names` has one. */
void ls_element_of_get(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const ls_element_of *el = col->aux;
  int64_t x = el->of(row->model, row->pos.element);
  if (x >= 0) result_named(ctx, el->names, x, x); /* else NULL: none */
}

/* ---- writing ---------------------------------------------------------------- */

int ls_column_writable(const ls_column *col) {
  if (col->kind == LS_CUSTOM) return col->set != NULL;
  return col->kind != LS_POS && !(col->flags & LS_COL_RO);
}

/* The limits of an integer field's store, for columns declared without. */
static void store_limits(ls_store st, int64_t *lo, int64_t *hi) {
  switch (st) {
    case LS_I8: *lo = INT8_MIN; *hi = INT8_MAX; break;
    case LS_U8: *lo = 0; *hi = UINT8_MAX; break;
    case LS_I16: *lo = INT16_MIN; *hi = INT16_MAX; break;
    case LS_U16:
    case LS_LE16: *lo = 0; *hi = UINT16_MAX; break;
    case LS_I32:
    case LS_LE32S: *lo = INT32_MIN; *hi = INT32_MAX; break;
    case LS_U32:
    case LS_LE32: *lo = 0; *hi = UINT32_MAX; break;
    default: *lo = INT64_MIN; *hi = INT64_MAX; break;
  }
}

/* Whether v is the integer x (an integer or an integral real). */
static int value_is_int(sqlite3_value *v, int64_t x) {
  int type = sqlite3_value_numeric_type(v);
  if (type == SQLITE_INTEGER) return sqlite3_value_int64(v) == x;
  return type == SQLITE_FLOAT && sqlite3_value_double(v) == (double)x;
}

/* An index into another list of the file (ls_index_ref): 0 .. count - 1,
** of the sort the column takes when the ref says (refuse). */
static int check_index_ref(const ls_row *row, const ls_column *col, int64_t x, char **err) {
  const ls_index_ref *ref = col->aux;
  int64_t count = ref->count(row->model);
  const char *article = strchr("aeiou", ref->noun[0]) ? "an" : "a";
  const char *or_null = (col->flags & LS_COL_NULL) ? ", or NULL for none" : "";
  char *why = NULL;
  int rc;
  if (x >= 0 && x < count) {
    if (!ref->refuse || (rc = ref->refuse(row->model, x, ref, &why)) == SQLITE_OK) return SQLITE_OK;
    *err = why ? sqlite3_mprintf("column %s: %s", col->name, why) : NULL;
    sqlite3_free(why);
    return rc;
  }
  if (count == 0) {
    *err = sqlite3_mprintf("column %s: %lld is out of range; the %s has no %ss%s", col->name, (long long)x,
                           ref->container, ref->noun, (col->flags & LS_COL_NULL) ? " (NULL for none)" : "");
  } else {
    *err = sqlite3_mprintf("column %s: %lld is out of range; it takes %s %s index from 0 to %lld (the %s has %lld)%s",
                           col->name, (long long)x, article, ref->noun, (long long)count - 1, ref->container,
                           (long long)count, or_null);
  }
  return SQLITE_CONSTRAINT;
}

static int set_int(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  unsigned char *f = field_of(row, col);
  int64_t cur = field_int(f, col->store), x, lo = col->min, hi = col->max;
  int rc;
  if (lo == 0 && hi == 0) store_limits(col->store, &lo, &hi);
  if (sqlite3_value_type(v) == SQLITE_NULL && (col->flags & LS_COL_NULL)) {
    /* (a field that reads NULL already keeps its value: -2 stays -2) */
    if (!reads_null(col, cur)) field_set_int(f, col->store, col->null_value);
    return SQLITE_OK;
  }
  /* a row that reads NULL holds no number: its null value is checked like
  ** any other (0xFFFF may mean "none" in the file and be out of range) */
  if (!reads_null(col, cur) && value_is_int(v, cur)) return SQLITE_OK;
  if ((rc = ls_value_int(v, col, lo, hi, &x, err)) != SQLITE_OK) {
    if (rc == SQLITE_CONSTRAINT && (col->flags & LS_COL_NULL) && *err) {
      char *msg = sqlite3_mprintf("%s or NULL", *err); /* the message ends with the range */
      sqlite3_free(*err);
      *err = msg;
    }
    return rc;
  }
  /* an index written as a number must name an element, even when the
  ** number is the null value: -1 is not taken for NULL (only NULL is) */
  if (col->aux && (rc = check_index_ref(row, col, x, err)) != SQLITE_OK) return rc;
  field_set_int(f, col->store, x);
  return SQLITE_OK;
}

static int set_bit(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  unsigned char *f = field_of(row, col);
  int64_t x, flags = field_int(f, col->store);
  int rc = ls_value_int(v, col, 0, 1, &x, err);
  if (rc == SQLITE_OK) field_set_int(f, col->store, x ? flags | col->max : flags & ~col->max);
  return rc;
}

/* An enum takes one of its names (or the number it holds). */
static int set_enum(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  const char *const *names = col->aux;
  unsigned char *f = field_of(row, col);
  const char *text = sqlite3_value_type(v) == SQLITE_TEXT ? (const char *)sqlite3_value_text(v) : NULL;
  sqlite3_str *list;
  int64_t i;
  if (value_is_int(v, field_int(f, col->store))) return SQLITE_OK;
  for (i = 0; text && names[i]; i++) {
    if (strcmp(names[i], text) == 0) {
      field_set_int(f, col->store, col->min + i);
      return SQLITE_OK;
    }
  }
  list = sqlite3_str_new(NULL);
  for (i = 0; names[i]; i++) {
    sqlite3_str_appendf(list, "%s'%s'", i == 0 ? "" : names[i + 1] ? ", " : " or ", names[i]);
  }
  {
    char *known = sqlite3_str_finish(list);
    char *what = text ? sqlite3_mprintf("'%s'", text) : sqlite3_mprintf("%s", sqlite3_value_type(v) == SQLITE_NULL ? "NULL" : (const char *)sqlite3_value_text(v));
    *err = sqlite3_mprintf("column %s: %s is not one of its values; it takes %s", col->name, what ? what : "?", known ? known : "");
    sqlite3_free(known);
    sqlite3_free(what);
  }
  return SQLITE_CONSTRAINT;
}

static int set_float(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  unsigned char *f = field_of(row, col);
  int type = sqlite3_value_numeric_type(v);
  double d;
  if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) {
    *err = sqlite3_mprintf("column %s: takes a number", col->name);
    return SQLITE_CONSTRAINT;
  }
  d = sqlite3_value_double(v);
  if (col->store == LS_F32) {
    float x = (float)d;
    memcpy(f, &x, 4);
  } else {
    memcpy(f, &d, 8);
  }
  return SQLITE_OK;
}

/* Copies n bytes into the row's arena (a NUL follows them). */
static const void *arena_copy(const ls_row *row, const void *p, size_t n) {
  unsigned char *copy = ls_arena_alloc(row->arena, n + 1);
  if (copy) {
    if (n) memcpy(copy, p, n);
    copy[n] = 0;
  }
  return copy;
}

/* Stores text bytes into the field: a NUL-padded array is left alone when
** it already holds them (bytes after the NUL survive), a span points to a
** copy in the arena. */
static int set_text_bytes(const ls_row *row, const ls_column *col, const unsigned char *s, size_t n, char **err) {
  unsigned char *f = field_of(row, col);
  if (col->store == LS_CHARS) {
    ls_span cur = field_bytes(f, col);
    if (n && memchr(s, 0, n)) {
      *err = sqlite3_mprintf("column %s: the text contains a NUL character", col->name);
      return SQLITE_CONSTRAINT;
    }
    if (cur.n == n && (n == 0 || memcmp(cur.p, s, n) == 0)) return SQLITE_OK;
    if (n) memmove(f, s, n);
    memset(f + n, 0, col->size - n);
  } else {
    ls_span span;
    span.p = arena_copy(row, s, n);
    span.n = n;
    if (!span.p) return SQLITE_NOMEM;
    memcpy(f, &span, sizeof span);
  }
  return SQLITE_OK;
}

/* The most bytes a text column holds. */
static size_t text_max(const ls_column *col) {
  if (col->store == LS_CHARS) return (col->flags & LS_COL_FULL) ? col->size : col->size - 1;
  return (size_t)col->max;
}

static int set_null_span(const ls_row *row, const ls_column *col) {
  ls_span none = {NULL, 0};
  memcpy(field_of(row, col), &none, sizeof none);
  return SQLITE_OK;
}

static int set_text8(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  unsigned char *bytes = NULL;
  size_t n = 0;
  int rc;
  if (sqlite3_value_type(v) == SQLITE_NULL && (col->flags & LS_COL_NULL) && col->store == LS_SPAN) return set_null_span(row, col);
  rc = ls_value_text8(v, col, row->opts, text_max(col), &bytes, &n, err);
  if (rc == SQLITE_OK) rc = set_text_bytes(row, col, bytes, n, err);
  free(bytes);
  return rc;
}

/* UTF-8 text, or WTF-8 for LS_WTF8. */
static int set_utf8(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  const char *s;
  size_t n;
  int rc;
  if (sqlite3_value_type(v) == SQLITE_NULL && (col->flags & LS_COL_NULL) && col->store == LS_SPAN) return set_null_span(row, col);
  rc = col->kind == LS_WTF8 ? ls_value_wtf8(v, col, (size_t)col->min, text_max(col), &s, &n, err)
                            : ls_value_utf8(v, col, (size_t)col->min, text_max(col), &s, &n, err);
  return rc == SQLITE_OK ? set_text_bytes(row, col, (const unsigned char *)s, n, err) : rc;
}

static int set_blob(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  ls_span span;
  if (sqlite3_value_type(v) == SQLITE_NULL && (col->flags & LS_COL_NULL)) return set_null_span(row, col);
  if (sqlite3_value_type(v) != SQLITE_BLOB) {
    *err = sqlite3_mprintf("column %s: takes a blob", col->name);
    return SQLITE_CONSTRAINT;
  }
  span.n = (size_t)sqlite3_value_bytes(v);
  if (col->max && span.n > (size_t)col->max) {
    *err = sqlite3_mprintf("column %s: a blob of %lld bytes is longer than the %lld bytes it takes", col->name,
                           (long long)span.n, (long long)col->max);
    return SQLITE_CONSTRAINT;
  }
  span.p = arena_copy(row, sqlite3_value_blob(v), span.n);
  if (!span.p) return SQLITE_NOMEM;
  memcpy(field_of(row, col), &span, sizeof span);
  return SQLITE_OK;
}

/* A column that says what it takes (ls_json_shape.takes) ends each of its
** messages with that instead of the check's own limit or example (every
** message about a JSON value reads "<what is wrong>[; <limit or example>]"). */
static int json_takes(int rc, const ls_json_shape *shape, char **err) {
  const char *cut;
  char *msg;
  if (rc != SQLITE_CONSTRAINT || !shape->takes || !*err) return rc;
  cut = strstr(*err, "; ");
  msg = sqlite3_mprintf("%.*s; it takes %s", (int)(cut ? (size_t)(cut - *err) : strlen(*err)), *err, shape->takes);
  sqlite3_free(*err);
  *err = msg;
  return rc;
}

/* A JSON array of integers (tuple 1) or of tuples of integers. */
static int set_json_ints(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  const ls_json_shape *shape = col->aux;
  int tuple = shape->tuple < 1 ? 1 : shape->tuple;
  ls_span cur, span;
  json_node *root = NULL;
  const json_node *item;
  int64_t *out, lo = col->min, hi = col->max;
  size_t i = 0;
  int rc;
  if (lo == 0 && hi == 0) store_limits(col->store == LS_SPAN16 ? LS_U16 : col->store == LS_SPAN32 ? LS_U32 : col->store == LS_I32 ? LS_I32 : LS_I64,
                 &lo, &hi);
  cur = json_ints_of(field_of(row, col), col);
  if (col->store != LS_SPAN && cur.n) { /* the elements the row holds, as int64_t for the checks */
    int64_t *wide = ls_arena_alloc(row->arena, sizeof *wide * cur.n);
    if (!wide) return SQLITE_NOMEM;
    for (i = 0; i < cur.n; i++) wide[i] = span_int(cur, col->store, i);
    cur.p = wide;
    i = 0;
  }
  if ((rc = ls_json_value(v, col, shape->example, &root, err)) != SQLITE_OK) return json_takes(rc, shape, err);
  rc = ls_json_check_array(root, col, "the value", shape->min_items, shape->max_items, shape->example, err);
  out = rc == SQLITE_OK ? ls_arena_alloc(row->arena, sizeof *out * (root->count * (size_t)tuple + 1)) : NULL;
  if (rc == SQLITE_OK && !out) rc = SQLITE_NOMEM;
  for (item = root ? root->child : NULL; rc == SQLITE_OK && item; item = item->next, i++) {
    char what[48];
    int k;
    if (tuple == 1) {
      const int64_t *keep = i < cur.n ? (const int64_t *)cur.p + i : NULL;
      snprintf(what, sizeof what, "element %lld", (long long)i);
      rc = ls_json_check_int(item, col, what, lo, hi, keep, &out[i], err);
      continue;
    }
    snprintf(what, sizeof what, "element %lld", (long long)i);
    rc = ls_json_check_array(item, col, what, (size_t)tuple, (size_t)tuple, shape->example, err);
    for (k = 0; rc == SQLITE_OK && k < tuple; k++) {
      size_t at = i * (size_t)tuple + (size_t)k;
      const int64_t *keep = at < cur.n ? (const int64_t *)cur.p + at : NULL;
      snprintf(what, sizeof what, "element [%lld][%d]", (long long)i, k);
      rc = ls_json_check_int(json_at(item, (size_t)k), col, what, lo, hi, keep, &out[at], err);
    }
  }
  if (rc == SQLITE_OK) {
    span.p = out;
    span.n = root->count * (size_t)tuple;
    for (i = 0; col->store == LS_SPAN16 && i < span.n; i++) { /* narrowed in place: element i moves down */
      uint16_t u = (uint16_t)out[i];
      memcpy((unsigned char *)out + 2 * i, &u, 2);
    }
    for (i = 0; col->store == LS_SPAN32 && i < span.n; i++) {
      uint32_t w = (uint32_t)out[i];
      memcpy((unsigned char *)out + 4 * i, &w, 4);
    }
    for (i = 0; col->store == LS_I32 && i < span.n; i++) { /* into the fixed array (its length was checked) */
      int32_t x = (int32_t)out[i];
      memcpy(field_of(row, col) + 4 * i, &x, 4);
    }
    if (col->store != LS_I32) memcpy(field_of(row, col), &span, sizeof span);
  }
  json_free(root);
  return json_takes(rc, shape, err);
}

/* String i of a JSON text array as the field keeps it (*bytes, *n): UTF-8
** checked as it is ("<the text check's message> (element i)"), or 8-bit
** text encoded into the code page (malloc'd into *copy) and checked.  At
** most .max bytes, no NUL character. */
static int json_text_item(const ls_row *row, const ls_column *col, const json_node *item, size_t i,
                          const unsigned char **bytes, size_t *n, unsigned char **copy, char **err) {
  char what[40], *msg = NULL;
  int rc;
  if (item->type != JSON_STRING) {
    *err = sqlite3_mprintf("column %s: element %lld is %s, not a string", col->name, (long long)i, json_type_name(item));
    return SQLITE_CONSTRAINT;
  }
  if (col->flags & (LS_COL_UTF8 | LS_COL_WTF8)) {
    *bytes = (const unsigned char *)item->s;
    *n = item->n;
    rc = (col->flags & LS_COL_WTF8) ? ls_text_wtf8(item->s, item->n, col, 0, (size_t)col->max, &msg)
                                    : ls_text_utf8(item->s, item->n, col, 0, (size_t)col->max, &msg);
    if (rc != SQLITE_OK) {
      *err = msg ? sqlite3_mprintf("%s (element %lld)", msg, (long long)i) : NULL;
      sqlite3_free(msg);
    }
    return rc;
  }
  snprintf(what, sizeof what, "element %lld", (long long)i);
  if ((rc = ls_text8_encode(item->s, item->n, col, row->opts, what, copy, n, err)) != SQLITE_OK) return rc;
  *bytes = *copy;
  if (memchr(*copy, 0, *n)) {
    *err = sqlite3_mprintf("column %s: element %lld contains a NUL character", col->name, (long long)i);
    return SQLITE_CONSTRAINT;
  }
  if (col->max && *n > (size_t)col->max) {
    *err = sqlite3_mprintf("column %s: element %lld has %lld bytes; it takes at most %lld", col->name, (long long)i,
                           (long long)*n, (long long)col->max);
    return SQLITE_CONSTRAINT;
  }
  return SQLITE_OK;
}

/* A JSON array of strings (json_text_item): ls_span elements copied into
** the arena, or for LS_NUL_STRINGS the strings back to back, each with
** its NUL. */
static int set_json_texts(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  const ls_json_shape *shape = col->aux;
  json_node *root = NULL;
  const json_node *item;
  ls_span *out = NULL, span;
  size_t i = 0, total = 0;
  int rc;
  if ((rc = ls_json_value(v, col, shape->example, &root, err)) != SQLITE_OK) return json_takes(rc, shape, err);
  rc = ls_json_check_array(root, col, "the value", shape->min_items, shape->max_items, shape->example, err);
  if (rc == SQLITE_OK && !(out = ls_arena_alloc(row->arena, sizeof *out * (root->count + 1)))) rc = SQLITE_NOMEM;
  for (item = root ? root->child : NULL; rc == SQLITE_OK && item; item = item->next, i++) {
    unsigned char *copy = NULL;
    const unsigned char *bytes = NULL;
    if ((rc = json_text_item(row, col, item, i, &bytes, &out[i].n, &copy, err)) == SQLITE_OK &&
        !(out[i].p = arena_copy(row, bytes, out[i].n)))
      rc = SQLITE_NOMEM;
    total += rc == SQLITE_OK ? out[i].n + 1 : 0;
    free(copy);
  }
  span.p = out;
  span.n = rc == SQLITE_OK ? root->count : 0;
  if (rc == SQLITE_OK && col->store == LS_NUL_STRINGS) {
    char *joined = ls_arena_alloc(row->arena, total + 1);
    span.p = joined;
    span.n = total;
    for (i = 0; joined && i < root->count; i++) { /* each with the NUL arena_copy put after it */
      memcpy(joined, out[i].p, out[i].n + 1);
      joined += out[i].n + 1;
    }
    if (!span.p) rc = SQLITE_NOMEM;
  }
  if (rc == SQLITE_OK) memcpy(field_of(row, col), &span, sizeof span);
  json_free(root);
  return json_takes(rc, shape, err);
}

/* Reads object `obj` into element i (e, zeroed): each member in order, an
** integer or an array of them (its count set), an absent optional one left
** 0.  Messages name the place "<noun> i <key>[j]". */
static int read_json_record(const json_node *obj, const ls_column *col, const ls_json_records *recs, size_t i,
                            unsigned char *e, char **err) {
  char what[96];
  size_t k;
  int rc;
  snprintf(what, sizeof what, "%s %lld", recs->noun, (long long)i);
  if ((rc = ls_json_check_object(obj, col, what, recs->members, recs->nmembers, recs->example, err)) != SQLITE_OK) return rc;
  for (k = 0; k < recs->nmembers; k++) {
    const ls_json_member *m = &recs->members[k];
    const json_node *v = json_member(obj, m->key), *item;
    int j, given;
    int64_t x;
    snprintf(what, sizeof what, "%s %lld %s", recs->noun, (long long)i, m->key);
    if (m->optional && !v) continue;
    if (!m->max_ints) {
      if ((rc = ls_json_check_int(v, col, what, m->min, m->max, NULL, &x, err)) != SQLITE_OK) return rc;
      field_set_int(e + m->offset, m->store, x);
      continue;
    }
    if ((rc = ls_json_check_array(v, col, what, 1, (size_t)m->max_ints, recs->example, err)) != SQLITE_OK) return rc;
    for (item = v->child, j = 0; item; item = item->next, j++) {
      snprintf(what, sizeof what, "%s %lld %s[%d]", recs->noun, (long long)i, m->key, j);
      if ((rc = ls_json_check_int(item, col, what, m->min, m->max, NULL, &x, err)) != SQLITE_OK) return rc;
      field_set_int(e + m->offset + (size_t)j * store_bytes(m->store), m->store, x);
    }
    given = (int)v->count;
    memcpy(e + m->count_offset, &given, sizeof given);
  }
  return SQLITE_OK;
}

/* A JSON array of objects (ls_json_records): new zeroed elements in the
** arena, each read from its object. */
static int set_json_records(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  const ls_json_records *recs = col->aux;
  json_node *root = NULL;
  const json_node *item;
  unsigned char *out = NULL;
  ls_span span;
  size_t i = 0;
  int rc = ls_json_value(v, col, recs->example, &root, err);
  if (rc == SQLITE_OK) rc = ls_json_check_array(root, col, "the value", 0, recs->max_items, recs->example, err);
  if (rc == SQLITE_OK && !(out = ls_arena_alloc(row->arena, recs->size * (root->count + 1)))) rc = SQLITE_NOMEM;
  if (rc == SQLITE_OK) memset(out, 0, recs->size * (root->count + 1));
  for (item = rc == SQLITE_OK ? root->child : NULL; rc == SQLITE_OK && item; item = item->next, i++) {
    rc = read_json_record(item, col, recs, i, out + i * recs->size, err);
  }
  if (rc == SQLITE_OK) {
    span.p = out;
    span.n = root->count;
    memcpy(field_of(row, col), &span, sizeof span);
  }
  json_free(root);
  return rc;
}

int ls_column_set(const ls_table *t, ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  if (col->kind == LS_CUSTOM) return col->set(row, v, col, err);
  if (!column_applies(t, row, col)) {
    char *which, *desc;
    int k;
    if (t->other_kind) return t->other_kind(row, v, col, err);
    /* NULL is what the column reads there: writing it back changes nothing */
    if (sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
    which = applies_text(t, col);
    desc = ls_table_describe(t, row->model, &row->pos);
    k = t->row_kind(row);
    *err = sqlite3_mprintf("column %s: %s is '%s'; the column applies to %s rows (set the kind first, in the same UPDATE if you like)",
                           col->name, desc ? desc : "the row", kind_name(t, k),
                           which ? which : "other");
    sqlite3_free(which);
    sqlite3_free(desc);
    return SQLITE_CONSTRAINT;
  }
  switch (col->kind) {
    case LS_INT: return set_int(row, v, col, err);
    case LS_BIT: return set_bit(row, v, col, err);
    case LS_ENUM: return set_enum(row, v, col, err);
    case LS_FLOAT: return set_float(row, v, col, err);
    case LS_TEXT8: return set_text8(row, v, col, err);
    case LS_UTF8:
    case LS_WTF8: return set_utf8(row, v, col, err);
    case LS_BLOB: return set_blob(row, v, col, err);
    case LS_JSON_INTS: return set_json_ints(row, v, col, err);
    case LS_JSON_TEXTS: return set_json_texts(row, v, col, err);
    case LS_JSON_RECORDS: return set_json_records(row, v, col, err);
    default:
      *err = sqlite3_mprintf("column %s is read-only", col->name);
      return SQLITE_CONSTRAINT;
  }
}
