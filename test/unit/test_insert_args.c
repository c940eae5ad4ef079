/*
** test_insert_args.c: a table's INSERT names the columns it reads
** (ls_insert, engine.h), and the engine resolves the names when the table
** is registered: a name the table has no column of fails the registration
** with a message naming the table and the name, before any INSERT runs, as
** do an argument outside its struct and a bound counted in the element of
** an argument declared after it.
**
** Linked with the extension's objects (not loaded as the .so), so that it
** can register tables of its own: each registration runs as an automatic
** extension of a fresh in-memory connection, whose open then fails or
** succeeds with the registration.  The engine calls SQLite through the
** loader's routine table (engine.h); the test itself calls the linked
** SQLite directly (the #undefs below).
*/
#include <string.h>

#include "engine/engine.h"
#include "check.h"

#undef sqlite3_open
#undef sqlite3_close
#undef sqlite3_errmsg
#undef sqlite3_free
#undef sqlite3_auto_extension
#undef sqlite3_reset_auto_extension

/* The levelsql objects' routine table (levelsql.c, SQLITE_EXTENSION_INIT1). */
extern const sqlite3_api_routines *sqlite3_api;

static const ls_column plane_columns[] = {
  LS_COL_POS("plane", 0, 0, "the plane"),
  LS_COL_POS("idx", 1, 0, "the index"),
};

typedef struct plane_args {
  ls_arg plane, idx;
} plane_args;

static int plane_insert(void *model, const void *args, ls_pos *pos, char **err) {
  (void)model, (void)args, (void)pos;
  *err = sqlite3_mprintf("not for inserting");
  return SQLITE_ERROR;
}

static const ls_insert good_insertion = {
  .run = plane_insert, .args_size = sizeof(plane_args),
  .args = {LS_ARG(plane_args, plane), LS_ARG(plane_args, idx)},
};

/* `plain` for `plane`: the kind of slip a name catches and an index did not. */
static const ls_insert misspelt_insertion = {
  .run = plane_insert, .args_size = sizeof(plane_args),
  .args = {LS_ARG_NAMED("plain", plane_args, plane), LS_ARG(plane_args, idx)},
};

/* An argument placed beyond the struct the engine allocates. */
static const ls_insert outside_insertion = {
  .run = plane_insert, .args_size = sizeof(ls_arg), .args = {LS_ARG(plane_args, idx)},
};

/* A count of the element an argument chose, for the next insert. */
static int64_t no_rows(const void *model, int64_t element) {
  (void)model, (void)element;
  return 0;
}

/* A place counted in the element another argument chose, that argument
** being declared after it: its value would not be checked yet. */
static const ls_insert late_of_insertion = {
  .run = plane_insert, .args_size = sizeof(plane_args),
  .args = {LS_ARG(plane_args, idx, LS_IS_AT_IN(no_rows, plane_args, plane)), LS_ARG(plane_args, plane)},
};

static const ls_table good_table = {
  .name = "test_good", .columns = plane_columns, .ncolumns = 2, .insert = &good_insertion,
};
static const ls_table misspelt_table = {
  .name = "test_misspelt", .columns = plane_columns, .ncolumns = 2, .insert = &misspelt_insertion,
};
static const ls_table outside_table = {
  .name = "test_outside", .columns = plane_columns, .ncolumns = 2, .insert = &outside_insertion,
};
static const ls_table late_of_table = {
  .name = "test_late_of", .columns = plane_columns, .ncolumns = 2, .insert = &late_of_insertion,
};

static const ls_table *table_to_register;

/* The automatic extension: registers table_to_register on the connection. */
static int register_table(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
  ls_session *sess;
  int rc;
  sqlite3_api = api;
  if (!(sess = ls_session_new(db))) return SQLITE_NOMEM;
  rc = ls_register_table(db, sess, table_to_register, err);
  ls_session_release(sess);
  return rc;
}

/* Opens a connection that registers t; returns the open's result code and
** its message in msg. */
static int open_with(const ls_table *t, char *msg, size_t msg_size) {
  sqlite3 *db = NULL;
  int rc;
  table_to_register = t;
  sqlite3_reset_auto_extension();
  sqlite3_auto_extension((void (*)(void))register_table);
  rc = sqlite3_open(":memory:", &db);
  snprintf(msg, msg_size, "%s", db ? sqlite3_errmsg(db) : "no connection");
  sqlite3_close(db);
  sqlite3_reset_auto_extension();
  return rc;
}

int main(void) {
  char msg[512];
  int rc = open_with(&good_table, msg, sizeof msg);
  CHECK(rc == SQLITE_OK, "a table whose insert names its own columns registers: %d %s", rc, msg);
  rc = open_with(&misspelt_table, msg, sizeof msg);
  CHECK(rc != SQLITE_OK, "a misspelt insert argument fails the registration (%d)", rc);
  CHECK(strstr(msg, "test_misspelt: its INSERT takes column 'plain', which the table does not have") != NULL,
        "the message names the table and the name: %s", msg);
  rc = open_with(&outside_table, msg, sizeof msg);
  CHECK(rc != SQLITE_OK && strstr(msg, "test_outside: INSERT argument 'idx' lies outside its argument struct"),
        "an argument outside the struct fails the registration: %d %s", rc, msg);
  rc = open_with(&late_of_table, msg, sizeof msg);
  CHECK(rc != SQLITE_OK && strstr(msg, "test_late_of: INSERT argument 'idx' counts in an argument not declared before it"),
        "a count in the element of an argument declared later fails the registration: %d %s", rc, msg);
  return check_done();
}
