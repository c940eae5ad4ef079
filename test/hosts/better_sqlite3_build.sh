#!/bin/sh
# Builds Node's better-sqlite3 for the README's better-sqlite3 recipe
# (test/hosts/better_sqlite3.sh), once, into a cache folder:
#
#   sh test/hosts/better_sqlite3_build.sh DIR
#
# leaves DIR/node_modules/better-sqlite3 (with its native module
# build/Release/better_sqlite3.node) and DIR/PINNED.  The package comes from
# the npm registry with the ordinary npm client and is compiled from source
# (`--build-from-source`: node-gyp with python3, make and g++, against the
# headers of the installed Node, npm's `nodedir`): its prebuilt binaries are
# downloaded from GitHub, which the build machines cannot reach.  A DIR that
# already holds this pin and the module is left as it is (no network, no
# compiler); the first build takes minutes.  Exits 1 with a note on stderr
# when it cannot be built (no npm, no way to the registry, no compiler).
set -eu
PACKAGE=better-sqlite3
PACKAGE_VERSION=12.11.1 # the package tools/newer-sqlite.sh takes its SQLite from
DIR=${1:?usage: sh test/hosts/better_sqlite3_build.sh DIR}
PIN="$PACKAGE@$PACKAGE_VERSION node $(node --version 2>/dev/null || echo none)"
MODULE="node_modules/$PACKAGE/build/Release/better_sqlite3.node"
note() { echo "better_sqlite3_build: $*" >&2; }

if [ -f "$DIR/PINNED" ] && [ "$(cat "$DIR/PINNED")" = "$PIN" ] && [ -f "$DIR/$MODULE" ]; then
  exit 0
fi
for tool in node npm python3 make g++; do
  command -v "$tool" >/dev/null 2>&1 || { note "$tool is not installed"; exit 1; }
done

mkdir -p "$DIR"
tmp=$(mktemp -d "$DIR/build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# short time-outs: without a way to the registry this fails in seconds.
# CFLAGS/CXXFLAGS -O0 come after node-gyp's -O3 on the compiler's command
# line, so they win: the recipe runs a few statements, and the unoptimized
# build of its SQLite takes 27 s instead of about two minutes of the
# `make test` it runs beside.
if ! (cd "$tmp" && echo '{"private":true}' >package.json &&
      CFLAGS=-O0 CXXFLAGS=-O0 nice npm install "$PACKAGE@$PACKAGE_VERSION" --build-from-source --no-audit --no-fund \
        --loglevel=error --fetch-retries=1 --fetch-timeout=60000 >npm.log 2>&1); then
  tail -n 8 "$tmp/npm.log" >&2
  note "npm install $PACKAGE@$PACKAGE_VERSION --build-from-source failed"
  exit 1
fi
if [ ! -f "$tmp/$MODULE" ]; then
  note "npm install left no $MODULE"
  exit 1
fi
rm -rf "$DIR/node_modules"
mv "$tmp/node_modules" "$DIR/node_modules"
echo "$PIN" >"$DIR/PINNED"
