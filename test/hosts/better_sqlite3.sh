#!/bin/sh
# The README's recipe for Node's better-sqlite3 (README, "Platforms and
# hosts"): db.loadExtension() of build/levelsql.so in a better-sqlite3
# connection (test/hosts/better_sqlite3.js) reads, writes a Teeworlds map and
# a WWD level, and reads them back; then the written map must be byte for
# byte the map the sqlite3 shell writes for the same UPDATE, and what
# DDNet's map_resave writes for it (tw_resave, run outside Node): Node
# exports a zlib of its own (`nm -D node`), which the extension must not use;
# the dynamic linker's report (LD_DEBUG=bindings) shows it bound none of it.
#
#   sh test/hosts/better_sqlite3.sh BUILD SAMPLES
#
# better-sqlite3 is built once from the npm registry into
# BUILD/hosts/better-sqlite3 (test/hosts/better_sqlite3_build.sh; minutes the
# first time, cached after).  Skipped, with the reason, without node and npm
# or when it cannot be built (no way to the registry).  Ends with
# "RESULT passed=N failed=N skipped=N".
set -u
usage="usage: sh test/hosts/better_sqlite3.sh BUILD SAMPLES"
BUILD_ABS=$(cd "${1:?$usage}" && pwd)
SAMPLES=$(cd "${2:?$usage}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE="$BUILD_ABS/hosts/better-sqlite3"
skip() { echo "SKIP $*"; echo "RESULT passed=0 failed=0 skipped=1"; exit 0; }
[ "${LEVELSQL_SANITIZED:-0}" = 0 ] || skip "a sanitized build (Node would need the sanitizer runtimes preloaded): the recipe runs in the plain make test"
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || skip "node and npm are not installed (Debian's npm)"
if ! sh "$HERE/better_sqlite3_build.sh" "$CACHE" 2>"$BUILD_ABS/hosts/better-sqlite3.log"; then
  skip "better-sqlite3 could not be built from the npm registry (see $BUILD_ABS/hosts/better-sqlite3.log)"
fi
. "$(dirname "$0")/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/node" "$tmp/shell"
for d in node shell; do cp "$SAMPLES/dm_sample.map" "$SAMPLES/SAMPLE01.WWD" "$tmp/$d/"; done

# what makes the byte comparison worth it: this Node has a zlib of its own
node_bin=$(readlink -f "$(command -v node)")
if nm -D --defined-only "$node_bin" 2>/dev/null | grep -q ' T deflate$'; then
  echo "note: $node_bin exports its own deflate()"
else
  echo "note: $node_bin does not export deflate() (a shared zlib): the check below still holds"
fi

# (with the dynamic linker's report of every symbol it binds, below)
out=$(LD_DEBUG=bindings LD_DEBUG_OUTPUT="$tmp/ld" node "$HERE/better_sqlite3.js" "$CACHE" "$BUILD_ABS/levelsql.so" \
  "$tmp/node/dm_sample.map" "$tmp/node/SAMPLE01.WWD" 2>&1)
echo "$out" | grep -v '^ok '
oks=$(echo "$out" | grep -c '^ok ')
check "better-sqlite3: every check of better_sqlite3.js" "$oks $(echo "$out" | grep -vc '^ok ')" "6 0"

# The extension bound no zlib or libpng name to anything (Node's zlib or
# another): this Node's zlib may well compress as the system's does, so
# equal bytes alone would not show it.  (An extension linked with the
# shared zlib shows its compress2, uncompress, ... bound to node here.)
bound=$(cat "$tmp"/ld.* 2>/dev/null | grep -c "binding file $BUILD_ABS/levelsql.so ")
zlib_bound=$(cat "$tmp"/ld.* 2>/dev/null | grep "binding file $BUILD_ABS/levelsql.so " |
  grep -E "symbol .(deflate|inflate|compress|uncompress|crc32|adler32|zlib|png_)" | sed 's/.*symbol //' | sort -u | tr '\n' ' ')
check "under Node the extension binds no zlib or libpng name outside itself (of $bound bindings)" "$zlib_bound" ""
[ "$bound" -gt 0 ] || { echo "FAIL LD_DEBUG reported no binding of $BUILD_ABS/levelsql.so at all"; failed=$((failed + 1)); }

sqlite3 -batch :memory: ".load $BUILD_ABS/levelsql" \
  "UPDATE tw_maps SET author = 'node' WHERE source = '$tmp/shell/dm_sample.map'" >/dev/null 2>&1
cmp -s "$tmp/node/dm_sample.map" "$tmp/shell/dm_sample.map"
check "the map written under Node is byte-identical to the one the sqlite3 shell writes" $? 0
got=$(sqlite3 -batch :memory: ".load $BUILD_ABS/levelsql" \
  "SELECT tw_resave('$tmp/node/dm_sample.map') = readfile('$tmp/node/dm_sample.map')" 2>&1)
check "the map written under Node is what map_resave writes (tw_resave)" "$got" 1
cmp -s "$tmp/node/dm_sample.map" "$SAMPLES/dm_sample.map"
check "the map under Node was written at all" $? 1

finish
