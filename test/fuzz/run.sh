#!/bin/sh
# Runs every libFuzzer harness in $1/fuzz for $2 seconds each, seeded from
# the real corpus of its format (every format for fuzz_render; when
# ../shared/corpus exists) and from the
# generated samples.  Seeds and findings stay in a temporary folder; a crash
# fails the run and its input is printed as hex so it can become a
# regression test.
set -u
BUILD=${1:-build-fuzz}
SECONDS_EACH=${2:-60}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# the generated samples of every format, from the normal build's tools
generators=$(for src in tools/gen_*_samples.c; do echo "build/tools/$(basename "$src" .c)"; done)
# shellcheck disable=SC2086
if make --no-print-directory $generators >/dev/null 2>&1; then
  sh tools/gen_samples.sh build "$work/samples" >/dev/null 2>&1 || true
fi

for fz in "$BUILD"/fuzz/fuzz_*; do
  [ -x "$fz" ] || continue
  name=$(basename "$fz")
  seeds="$work/seeds-$name"
  mkdir -p "$seeds" "$work/findings-$name"
  case "$name" in
    fuzz_wwd*) dirs="wwd" ext="wwd" ;;
    fuzz_datafile*|fuzz_twmap*|fuzz_tw*) dirs="tw" ext="map" ;;
    fuzz_wed*) dirs="wed" ext="wed" ;;
    fuzz_wz4*) dirs="wz4" ext="wz4" ;;
    fuzz_render*) dirs="tw wwd wed wz4" ext="map wwd wed wz4" ;;
    *) dirs="" ext="" ;;
  esac
  if [ "$name" = fuzz_json ]; then
    # values of the JSON columns, as users write them
    printf '[[0,0],[64,0],[64,64]]' >"$seeds/vertices"
    printf '[{"time":0,"curve":1,"values":[0,0,0]},{"time":500,"curve":5,"values":[1024,0,0],"in_dx":[1,2,3,4]}]' >"$seeds/points"
    printf '["ACTION","a\\u00e9\\ud800\\n"]' >"$seeds/strings"
    printf '[-9223372036854775808, 1.5e3, true, false, null, {}]' >"$seeds/misc"
  fi
  if [ "$name" = fuzz_twmap ]; then
    # a PNG, for the decoder of untrusted PNG bytes (tw_images.png writes)
    cp docs/wwd.png "$seeds/picture.png"
  fi
  for d in $dirs; do
    [ -d "../shared/corpus/$d" ] && cp ../shared/corpus/"$d"/* "$seeds/" 2>/dev/null
  done
  # the samples of the harness's format (extension in any case)
  for f in "$work"/samples/*; do
    [ -n "$ext" ] && [ -f "$f" ] || continue
    for e in $ext; do
      case $(basename "$f" | tr '[:upper:]' '[:lower:]') in *."$e") cp "$f" "$seeds/" ;; esac
    done
  done
  echo "== $name: $SECONDS_EACH s, $(ls "$seeds" | wc -l) seeds"
  "$fz" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -max_len=131072 -print_final_stats=1 \
    -artifact_prefix="$work/findings-$name/" "$work/findings-$name" "$seeds" >"$work/$name.log" 2>&1
  rc=$?
  grep -E '^(stat::number_of_executed_units|Done )' "$work/$name.log" | tail -n 2
  if [ $rc -ne 0 ]; then
    status=1
    echo "FAIL $name (exit $rc):"
    grep -E 'ERROR|SUMMARY|==[0-9]+==' "$work/$name.log" | head -n 20
    for a in "$work/findings-$name"/crash-* "$work/findings-$name"/leak-* "$work/findings-$name"/timeout-*; do
      [ -f "$a" ] || continue
      echo "input $(basename "$a") ($(wc -c <"$a") bytes):"
      od -An -tx1 "$a" | head -n 20
    done
  fi
done
exit $status
