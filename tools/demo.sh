#!/bin/sh
# `make demo`: runs sql/demo.sql exactly as a user would after `make` and
# `make samples`: `sqlite3 :memory: < sql/demo.sql` in a folder holding
# build/levelsql.so and build/samples (the file loads the extension
# itself).  The folder is a scratch copy of that layout (a link to this
# build's extension, a copy of its samples), so the demo's edits never
# touch $BUILD/samples and whatever BUILD is, the paths of sql/demo.sql hold.
# The previews the demo draws (build/demo/tw.png, wwd.png, wed.svg,
# wz4.svg) are then copied to $BUILD/demo (docs/ holds the same pictures;
# test/readme.py checks that), and $BUILD/demo/levels becomes a fresh copy
# of the samples: the folder the README's examples read and change, put
# back as it was by every `make demo`.
set -eu
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BUILD_ABS=$(cd "$BUILD" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/build"
ln -s "$BUILD_ABS/levelsql.so" "$work/build/levelsql.so"
cp -r "$BUILD_ABS/samples" "$work/build/samples"
cd "$work"
sqlite3 -batch :memory: <"$ROOT/sql/demo.sql"
mkdir -p "$BUILD_ABS/demo"
cp build/demo/*.png build/demo/*.svg "$BUILD_ABS/demo/"
rm -rf "$BUILD_ABS/demo/levels"
cp -r "$BUILD_ABS/samples" "$BUILD_ABS/demo/levels"
echo "previews: $(cd "$BUILD_ABS/demo" && ls *.png *.svg | sed "s|^|$BUILD/demo/|" | tr '\n' ' ')"
echo "the README's examples read and change $BUILD/demo/levels, a fresh copy of $BUILD/samples"
