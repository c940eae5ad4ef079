#!/bin/sh
# Runs every libFuzzer harness in $1/fuzz for $2 seconds each (`make fuzz`,
# FUZZ_SECONDS; CI runs 45).
#
# Seeds: the generators' fuzz seeds (tools/gen_*_samples --fuzz): files of
# a few KB that still hold every section kind of their format, so each
# harness runs thousands of inputs a second, and the hostile ones of issue
# 24 (a Teeworlds map whose 40 layers of 4096 x 4096 share one tiny blob,
# WWD levels claiming huge inflated sizes, a WWD zlib bomb), which must be
# handled in bounded time and memory.  fuzz_render takes every format's,
# fuzz_twmap a PNG too, fuzz_json the JSON the columns take; inputs saved
# under test/fuzz/crashers/<harness>/ are replayed as seeds.  With
# FUZZ_CORPUS=1 the real files of ../shared/corpus are added (deeper, but
# whole retail levels run a few hundred a second).
# Dictionaries: test/fuzz/<format>.dict, the format's magic values and item
# types (libFuzzer -dict=).
# Limits: an input may take 25 s, 2 GB of memory and one allocation of at
# most 2 GB; anything more is a failure, like a crash.
# Seeds and findings stay in a temporary folder; a crash fails the run and
# its input is printed as hex so it can become a regression test (with
# FUZZ_FINDINGS=DIR, the failing inputs are also copied to DIR/<harness>/).
# Each harness's line gives its runs and runs a second.
set -u
BUILD=${1:-build-fuzz}
SECONDS_EACH=${2:-60}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# the fuzz seeds of every format, from the normal build's generators
generators=$(for src in tools/gen_*_samples.c; do echo "build/tools/$(basename "$src" .c)"; done)
# shellcheck disable=SC2086
if ! make --no-print-directory $generators >"$work/gen.log" 2>&1; then
  echo "FAIL: cannot build the seed generators:"
  tail -n 20 "$work/gen.log"
  exit 1
fi
for g in $generators; do
  if ! "$g" --fuzz "$work/seeds" >>"$work/gen.log" 2>&1; then
    echo "FAIL: $g --fuzz:"
    tail -n 5 "$work/gen.log"
    exit 1
  fi
done

for fz in "$BUILD"/fuzz/fuzz_*; do
  [ -x "$fz" ] || continue
  name=$(basename "$fz")
  seeds="$work/seeds-$name"
  dict="$work/$name.dict"
  mkdir -p "$seeds" "$work/findings-$name"
  case "$name" in
    fuzz_wwd*) dirs="wwd" ext="wwd" dicts="wwd" ;;
    fuzz_datafile*) dirs="tw" ext="map" dicts="tw" ;;
    fuzz_twmap*|fuzz_tw*) dirs="tw" ext="map" dicts="tw png" ;;
    fuzz_wed*) dirs="wed" ext="wed" dicts="wed" ;;
    fuzz_are*) dirs="are" ext="are" dicts="are" ;;
    fuzz_wz4*) dirs="wz4" ext="wz4" dicts="wz4" ;;
    fuzz_tis*) dirs="tis" ext="tis" dicts="tis" ;;
    fuzz_pvrz*) dirs="pvrz" ext="pvrz" dicts="pvrz" ;;
    fuzz_key*) dirs="" ext="key bif cbf" dicts="key" ;;
    fuzz_render*) dirs="tw wwd wed wz4" ext="map wwd wed wz4" dicts="tw wwd wed wz4 png" ;;
    fuzz_json*) dirs="" ext="" dicts="json" ;;
    *) dirs="" ext="" dicts="" ;;
  esac
  : >"$dict"
  for d in $dicts; do cat "test/fuzz/$d.dict" >>"$dict"; done
  if [ "$name" = fuzz_json ]; then
    # values of the JSON columns, as users write them
    printf '[[0,0],[64,0],[64,64]]' >"$seeds/vertices"
    printf '[{"time":0,"curve":1,"values":[0,0,0]},{"time":500,"curve":5,"values":[1024,0,0],"in_dx":[1,2,3,4]}]' >"$seeds/points"
    printf '["ACTION","a\\u00e9\\ud800\\n"]' >"$seeds/strings"
    printf '[-9223372036854775808, 1.5e3, true, false, null, {}]' >"$seeds/misc"
    printf '{"x":1,"y":-2,"nested":{"a":[1.25e-3,"\\"q\\""]}}' >"$seeds/object"
  fi
  if [ "$name" = fuzz_twmap ] || [ "$name" = fuzz_render ]; then
    # a PNG, for the decoder of untrusted PNG bytes (tw_images.png writes)
    cp docs/wwd.png "$seeds/picture.png"
  fi
  if [ "${FUZZ_CORPUS:-0}" = 1 ]; then
    for d in $dirs; do
      [ -d "../shared/corpus/$d" ] && cp ../shared/corpus/"$d"/* "$seeds/" 2>/dev/null
    done
  fi
  [ -d "test/fuzz/crashers/$name" ] && cp test/fuzz/crashers/"$name"/* "$seeds/" 2>/dev/null
  # the generated seeds of the harness's formats (extension in any case)
  for f in "$work"/seeds/*; do
    [ -n "$ext" ] && [ -f "$f" ] || continue
    for e in $ext; do
      case $(basename "$f" | tr '[:upper:]' '[:lower:]') in *."$e") cp "$f" "$seeds/" ;; esac
    done
  done
  dict_arg=""
  [ -s "$dict" ] && dict_arg="-dict=$dict"
  echo "== $name: $SECONDS_EACH s, $(ls "$seeds" | wc -l) seeds, $(du -sk "$seeds" | cut -f1) KB"
  # shellcheck disable=SC2086
  "$fz" -max_total_time="$SECONDS_EACH" -timeout=25 -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len=32768 \
    -print_final_stats=1 $dict_arg -artifact_prefix="$work/findings-$name/" "$work/findings-$name" "$seeds" \
    >"$work/$name.log" 2>&1
  rc=$?
  # runs and runs a second over the whole run (seed loading included)
  awk '/^stat::number_of_executed_units:/ {runs = $2}
       /^Done [0-9]+ runs in [0-9]+ second/ {secs = $5}
       END {if (secs > 0) printf "%d runs in %d s: %d runs a second\n", runs, secs, runs / secs}' "$work/$name.log"
  if [ $rc -ne 0 ]; then
    status=1
    echo "FAIL $name (exit $rc):"
    # the sanitizer's report and the harness's own message ("fuzz_wwd: ...")
    grep -E 'ERROR|SUMMARY|==[0-9]+==|^fuzz_[a-z0-9_]+: ' "$work/$name.log" | head -n 20
    for a in "$work/findings-$name"/crash-* "$work/findings-$name"/leak-* "$work/findings-$name"/timeout-* \
      "$work/findings-$name"/oom-*; do
      [ -f "$a" ] || continue
      echo "input $(basename "$a") ($(wc -c <"$a") bytes):"
      od -An -tx1 "$a" | head -n 20
      if [ -n "${FUZZ_FINDINGS:-}" ] && mkdir -p "$FUZZ_FINDINGS/$name" && cp "$a" "$FUZZ_FINDINGS/$name/"; then
        echo "copied to $FUZZ_FINDINGS/$name/"
      fi
    done
  fi
done
exit $status
