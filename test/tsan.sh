#!/bin/sh
# test/tsan.sh BUILD: the SQL tests that scan many files, run under
# ThreadSanitizer (`make tsan`).  The extension and the test host
# (tools/sqlrun, linked with the system SQLite) are built with
# -fsanitize=thread in BUILD, so every access that the connection's thread
# and the parse-ahead threads (ext/engine/parse_ahead.c) make to shared memory is
# checked; a data race fails the test it happened in.  test/run.sh runs
# them as in the whole suite (fresh folders with copies of the samples,
# fixtures and corpus).  Closes with "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.." || exit 2
TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1"
export TSAN_OPTIONS
# scans over folders, the atlas's threads, joins, the cache over collections, every format
SQL_FILES=${SQL_FILES:-"test/sql/parse_ahead.sql test/sql/atlas.sql test/sql/cache_collection.sql test/sql/cache_corpus.sql test/sql/joins.sql test/sql/sources.sql test/sql/engine.sql test/sql/tw_tables.sql test/sql/wed_tables.sql test/sql/wz4_tables.sql"}
export SQL_FILES
LEVELSQL_SQL_ONLY="[tsan] " exec sh test/run.sh "${1:-build-tsan}"
