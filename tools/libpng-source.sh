#!/bin/sh
# Obtains Debian's source of libpng (package libpng1.6, with Debian's own
# patches, security fixes included) so that the extension can link a libpng
# compiled for it: position-independent and hidden inside build/levelsql.so
# (Debian's libpng16.a is not built with -fPIC), and for Windows in
# levelsql.dll (Debian has no libpng for mingw-w64).  README, "Platforms".
#
#   sh tools/libpng-source.sh DIR
#
# leaves the unpacked, patched source in DIR/src and its version in
# DIR/VERSION.  It is fetched with the ordinary Debian client (`apt-get
# source`) from the archives this machine's apt already uses (the same
# suites, as deb-src), through a private apt state in DIR/apt: the system's
# apt configuration is not changed.  apt checks the signed Sources index and
# the hashes of every file, as for any package.  A DIR that holds a source
# already is left as it is (no network).  dpkg-source (package dpkg-dev)
# unpacks it; tools/ensure-deps.sh installs it.  Exits 1, with a note on
# stderr, when the source cannot be obtained: the build then links the
# system's shared libpng (make prints a note).
set -eu
PACKAGE=libpng1.6
DIR=${1:?usage: sh tools/libpng-source.sh DIR}
note() { echo "libpng-source: $*" >&2; }

if [ -f "$DIR/VERSION" ] && [ -f "$DIR/src/png.h" ] && [ -f "$DIR/src/scripts/pnglibconf.h.prebuilt" ]; then
  exit 0
fi
for tool in apt-get dpkg-source; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    note "$tool is missing (Debian's apt and dpkg-dev)"
    exit 1
  fi
done

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd) # apt wants absolute paths
tmp=$(mktemp -d "$DIR/fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lists/partial" "$tmp/get"
# the archives and suites apt uses for binary packages, as source entries
apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null | sort -u |
  while read -r uri release; do
    [ -n "$uri" ] && echo "deb-src $uri $release main"
  done >"$tmp/sources.list"
if [ ! -s "$tmp/sources.list" ]; then
  note "apt has no archive configured (apt-get update not run?)"
  exit 1
fi
apt_private() {
  tool=$1
  shift
  "$tool" -q -o Dir::Etc::SourceList="$tmp/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::State::Lists="$tmp/lists" -o Acquire::Retries=1 -o Acquire::http::Timeout=60 "$@"
}
if ! apt_private apt-get update >"$tmp/apt.log" 2>&1; then
  tail -n 4 "$tmp/apt.log" >&2
  note "apt-get update of the source indexes failed (no way to the Debian archive?)"
  exit 1
fi
# the newest version any of the suites offers whose files are all there
# (a security suite's index may name a version its pool no longer has)
versions=$(apt_private apt-cache showsrc "$PACKAGE" 2>/dev/null | sed -n 's/^Version: //p' | sort -u -r -V)
got=""
for v in $versions; do
  rm -rf "$tmp/get"
  mkdir -p "$tmp/get"
  if (cd "$tmp/get" && apt_private apt-get source --download-only "$PACKAGE=$v" >>"$tmp/apt.log" 2>&1); then
    got=$v
    break
  fi
done
if [ -z "$got" ]; then
  tail -n 4 "$tmp/apt.log" >&2
  note "apt-get source $PACKAGE failed"
  exit 1
fi
if ! dpkg-source --no-check -x "$tmp"/get/*.dsc "$tmp/src" >>"$tmp/apt.log" 2>&1; then
  tail -n 4 "$tmp/apt.log" >&2
  note "dpkg-source could not unpack $PACKAGE $got"
  exit 1
fi
rm -rf "$DIR/src"
mv "$tmp/src" "$DIR/src"
echo "$PACKAGE $got" >"$DIR/VERSION"
note "$PACKAGE $got is in $DIR/src"
