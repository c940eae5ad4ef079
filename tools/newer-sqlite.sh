#!/bin/sh
# Obtains a newer SQLite than the system's, for the suite's second pass
# (test/run.sh): the amalgamation source that the better-sqlite3 package on
# the npm registry ships in package/deps/sqlite3/.
#
#   sh tools/newer-sqlite.sh DIR
#
# leaves DIR/sqlite3.c, DIR/sqlite3.h, DIR/sqlite3ext.h and DIR/PINNED (the
# package and SQLite versions below).  The package is fetched with the
# ordinary npm client (`npm pack`) and its tarball is checked against the
# sha512 pinned here before anything is extracted; nothing of it is
# committed.  A DIR that already holds this pin is left as it is (no
# network).  npm missing is installed through tools/ensure-deps.sh
# (Debian's npm package).  Exits 1, with a note on stderr, when the source
# cannot be obtained; the caller then skips the second pass.
set -eu
PACKAGE=better-sqlite3
PACKAGE_VERSION=12.11.1
SQLITE_VERSION=3.53.2
# `npm view better-sqlite3@12.11.1 dist.integrity`
INTEGRITY=sha512-dq9AtApgg5PGFtBzPFSBl3HZQjHok5gaQCM6zh2Yk0aSmDCs1CbnVI8/HgASQkNKsWFpseIO9beg5xxpYhbIfA==

DIR=${1:?usage: sh tools/newer-sqlite.sh DIR}
PIN="$PACKAGE@$PACKAGE_VERSION SQLite $SQLITE_VERSION $INTEGRITY"
note() { echo "newer-sqlite: $*" >&2; }

if [ -f "$DIR/PINNED" ] && [ "$(cat "$DIR/PINNED")" = "$PIN" ] &&
   [ -f "$DIR/sqlite3.c" ] && [ -f "$DIR/sqlite3.h" ] && [ -f "$DIR/sqlite3ext.h" ]; then
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  LEVELSQL_NEED_NPM=1 sh "$(dirname "$0")/ensure-deps.sh" || true
fi
if ! command -v npm >/dev/null 2>&1; then
  note "npm is not installed and could not be installed"
  exit 1
fi

mkdir -p "$DIR"
tmp=$(mktemp -d "$DIR/fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# short time-outs: without a way to the registry this fails in seconds
if ! (cd "$tmp" && npm pack "$PACKAGE@$PACKAGE_VERSION" --loglevel=error \
        --fetch-retries=1 --fetch-timeout=60000 >/dev/null 2>npm.log); then
  head -n 4 "$tmp/npm.log" >&2
  note "npm pack $PACKAGE@$PACKAGE_VERSION failed (no way to the npm registry?)"
  exit 1
fi
tarball="$tmp/$PACKAGE-$PACKAGE_VERSION.tgz"
if [ ! -f "$tarball" ]; then
  note "npm pack left no $PACKAGE-$PACKAGE_VERSION.tgz"
  exit 1
fi
want=$(printf '%s' "${INTEGRITY#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')
got=$(sha512sum "$tarball" | cut -d' ' -f1)
if [ "$want" != "$got" ]; then
  note "$PACKAGE-$PACKAGE_VERSION.tgz does not match the pinned sha512 (got $got)"
  exit 1
fi
tar -m -xzf "$tarball" -C "$tmp" package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h \
  package/deps/sqlite3/sqlite3ext.h
if ! grep -q "^#define SQLITE_VERSION *\"$SQLITE_VERSION\"" "$tmp/package/deps/sqlite3/sqlite3.h"; then
  note "$PACKAGE $PACKAGE_VERSION does not ship SQLite $SQLITE_VERSION"
  exit 1
fi
for f in sqlite3.c sqlite3.h sqlite3ext.h; do
  mv -f "$tmp/package/deps/sqlite3/$f" "$DIR/$f"
done
echo "$PIN" >"$DIR/PINNED"
note "SQLite $SQLITE_VERSION (from $PACKAGE $PACKAGE_VERSION) is in $DIR"
