#!/bin/sh
# Installs the Python package levelsql (pyproject.toml, setup.py,
# python/levelsql/) the way a user does, with Debian's /usr/bin/python3
# (not the python3 first on PATH, which may be another build), and checks
# it (README, "Platforms and hosts"):
#  1. `pip install .` from the checkout into a fresh venv (with the
#     system's setuptools: --no-build-isolation --no-index, no network),
#     bundling the library under test ($LEVELSQL_LIBRARY = BUILD/levelsql.so);
#  2. test/python/package_checks.py run by the venv's Python, from a folder
#     outside the checkout: the bundled library is found and loaded, reads
#     and writes go through it;
#  3. with BUILD = build: `pip install --target DIR .` with no library
#     given, which builds build/levelsql.so with make itself, then loads it
#     from DIR with /usr/bin/python3;
#  4. the python3 on PATH, when its sqlite3 cannot load extensions (pyenv's
#     default build), gets the package's clear message (else: skipped).
#
#   sh test/python/package.sh BUILD SAMPLES
#
# $PY_ENV (e.g. LD_PRELOAD=... under `make asan`) is put before every run of
# Python that loads the library.  Ends with "RESULT passed=N failed=N
# skipped=N"; every write goes to a mktemp folder.
set -u
BUILD=${1:?usage: sh test/python/package.sh BUILD SAMPLES}
SAMPLES=${2:?usage: sh test/python/package.sh BUILD SAMPLES}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_ABS=$(cd "$BUILD" && pwd)
PY=/usr/bin/python3
PY_ENV=${PY_ENV:-}
passed=0
failed=0
skipped=0
ok() { echo "ok $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; [ -f "$tmp/log" ] && tail -n 15 "$tmp/log" | sed 's/^/  /'; failed=$((failed + 1)); }
skip() { echo "SKIP $1"; skipped=$((skipped + 1)); }
finish() { echo "RESULT passed=$passed failed=$failed skipped=$skipped"; [ "$failed" -eq 0 ]; exit $?; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$(sed -n 's/^#define LEVELSQL_VERSION "\(.*\)"/\1/p' "$ROOT/ext/levelsql.c")

if ! [ -x "$PY" ]; then
  fail "$PY is missing (Debian's python3; tools/ensure-deps.sh installs it)"
  finish
fi
# 1. pip install . into a venv
if $PY -m venv --system-site-packages "$tmp/venv" >"$tmp/log" 2>&1; then
  ok "$PY -m venv"
else
  fail "$PY -m venv (python3-venv missing?)"
  finish
fi
if (cd "$ROOT" && LEVELSQL_LIBRARY="$BUILD_ABS/levelsql.so" "$tmp/venv/bin/pip" install --no-build-isolation \
      --no-index --no-deps . >"$tmp/log" 2>&1); then
  ok "pip install . (bundling $BUILD/levelsql.so)"
else
  fail "pip install . (bundling $BUILD/levelsql.so)"
  finish
fi

# 2. the package's checks, outside the checkout
mkdir -p "$tmp/work" "$tmp/elsewhere"
(cd "$tmp/elsewhere" && env $PY_ENV "$tmp/venv/bin/python" "$ROOT/test/python/package_checks.py" \
   "$SAMPLES" "$tmp/work" "$version") >"$tmp/checks" 2>&1
status=$?
while IFS= read -r line; do
  case "$line" in
    "ok "*) ok "${line#ok }" ;;
    "not ok "*) echo "FAIL ${line#not ok }"; failed=$((failed + 1)) ;;
  esac
done <"$tmp/checks"
if [ "$status" -ne 0 ] || ! grep -q '^ok \|^not ok ' "$tmp/checks"; then
  echo "FAIL package_checks.py exited $status:"
  tail -n 15 "$tmp/checks" | sed 's/^/  /'
  failed=$((failed + 1))
fi

# 3. pip install --target with no library given: make builds it
if [ "$BUILD_ABS" = "$ROOT/build" ]; then
  if (cd "$ROOT" && env -u LEVELSQL_LIBRARY "$tmp/venv/bin/pip" install --no-build-isolation --no-index --no-deps \
        --target "$tmp/target" . >"$tmp/log" 2>&1) &&
     [ -f "$tmp/target/levelsql/levelsql.so" ] &&
     (cd "$tmp/elsewhere" && PYTHONPATH="$tmp/target" $PY -c '
import sqlite3, sys, levelsql
conn = sqlite3.connect(":memory:")
path = levelsql.load(conn)
assert path.startswith(sys.argv[1]), path
print(conn.execute("SELECT levelsql_version()").fetchone()[0])' "$tmp/target" >"$tmp/log" 2>&1) &&
     [ "$(cat "$tmp/log")" = "$version" ]; then
    ok "pip install --target DIR . builds the library with make; $PY loads it from DIR"
  else
    fail "pip install --target DIR . builds the library with make; $PY loads it from DIR"
  fi
else
  skip "pip install --target (building with make) runs only for build/, not $BUILD"
fi

# 4. a Python without extension loading gets the message
other=$(command -v python3 2>/dev/null || true)
if [ -n "$other" ] && [ "$(cd "$tmp" && "$other" -c 'import sqlite3; print(hasattr(sqlite3.Connection, "enable_load_extension"))' 2>/dev/null)" = False ]; then
  site=$("$tmp/venv/bin/python" -c 'import levelsql, os; print(os.path.dirname(os.path.dirname(levelsql.__file__)))')
  msg=$(cd "$tmp/elsewhere" && PYTHONPATH="$site" "$other" -c '
import sqlite3, levelsql
try:
    levelsql.load(sqlite3.connect(":memory:"))
except levelsql.LoadExtensionUnsupported as e:
    print(e)' 2>&1)
  case "$msg" in
    *"cannot load extensions"*enable_load_extension*/usr/bin/python3*) ok "$other (no extension loading) gets: $msg" ;;
    *) echo "$msg" >"$tmp/log"; fail "$other (no extension loading): no clear message" ;;
  esac
else
  skip "no python3 without extension loading on PATH (${other:-none}) to show the message on"
fi
finish
