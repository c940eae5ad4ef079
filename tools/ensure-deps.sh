#!/bin/sh
# Makes sure the build and test dependencies are present: a C compiler,
# make, pkg-config, SQLite (library, headers and the sqlite3 shell), zlib,
# libpng (the previews' PNGs; its source too, see tools/libpng-source.sh),
# xmllint (the tests check the SVG previews) and chromium with
# chromium-driver (the atlas's pages are checked in a browser).
# What is missing is installed with apt-get (as root, or through sudo), and
# the user is told what is being installed.  Used by `make test`, `make demo`.
# LEVELSQL_NEED_CLANG=1 adds clang and libFuzzer (`make fuzz`);
# LEVELSQL_NEED_GCC=1 adds gcc, whose gcov `make coverage` reads the counts
# with (when cc is another compiler);
# LEVELSQL_NEED_WINDOWS=1 adds mingw-w64, its zlib and wine (`make windows`);
# LEVELSQL_NEED_NPM=1 adds npm (tools/newer-sqlite.sh fetches the newer
# SQLite of the suite's second pass with it) and g++ (better-sqlite3 is
# built from source for test/hosts/better_sqlite3.sh).
set -eu

missing=""
have_pkg() { pkg-config --exists "$1" 2>/dev/null; }
command -v cc >/dev/null 2>&1 || missing="$missing gcc libc6-dev"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
command -v sqlite3 >/dev/null 2>&1 || missing="$missing sqlite3"
if ! command -v pkg-config >/dev/null 2>&1 || ! have_pkg sqlite3; then missing="$missing libsqlite3-dev"; fi
if ! command -v pkg-config >/dev/null 2>&1 || ! have_pkg zlib; then missing="$missing zlib1g-dev"; fi
if ! command -v pkg-config >/dev/null 2>&1 || ! have_pkg libpng; then missing="$missing libpng-dev"; fi
command -v xmllint >/dev/null 2>&1 || missing="$missing libxml2-utils"
# dpkg-source unpacks Debian's libpng source (tools/libpng-source.sh); nm
# and readelf check what the extension exports (test/run.sh)
command -v dpkg-source >/dev/null 2>&1 || missing="$missing dpkg-dev"
command -v readelf >/dev/null 2>&1 || missing="$missing binutils"
# levelsql_atlas's pages are checked in headless chromium through
# chromedriver (test/hosts/atlas_browser.py)
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v chromedriver >/dev/null 2>&1 || missing="$missing chromium-driver"
# the Python package is installed with pip into a venv of Debian's python3
# (test/python/package.sh)
[ -x /usr/bin/python3 ] || missing="$missing python3"
/usr/bin/python3 -c 'import setuptools' >/dev/null 2>&1 || missing="$missing python3-setuptools"
dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q 'ok installed' || missing="$missing python3-venv"
if [ "${LEVELSQL_NEED_CLANG:-0}" = 1 ]; then
  command -v clang >/dev/null 2>&1 || missing="$missing clang"
  # libFuzzer and the sanitizer runtimes
  ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || missing="$missing libclang-rt-dev"
fi

if [ "${LEVELSQL_NEED_GCC:-0}" = 1 ]; then
  { command -v gcc && command -v gcov; } >/dev/null 2>&1 || missing="$missing gcc"
fi

if [ "${LEVELSQL_NEED_WINDOWS:-0}" = 1 ]; then
  # `make windows`: the mingw-w64 cross compiler and its zlib; wine runs the
  # Windows tests
  command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing="$missing gcc-mingw-w64-x86-64"
  [ -f /usr/x86_64-w64-mingw32/lib/libz.a ] || missing="$missing libz-mingw-w64-dev"
  command -v wine >/dev/null 2>&1 || missing="$missing wine wine64"
fi

if [ "${LEVELSQL_NEED_NPM:-0}" = 1 ]; then
  command -v npm >/dev/null 2>&1 || missing="$missing npm"
  # node-gyp compiles better-sqlite3 (test/hosts/better_sqlite3_build.sh)
  command -v g++ >/dev/null 2>&1 || missing="$missing g++"
fi

[ -z "$missing" ] && exit 0

echo "levelsql: installing missing packages:$missing" >&2
if [ "$(id -u)" = 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "levelsql: not root and no sudo; please install:$missing" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2 || true
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2
