# levelsql: a loadable SQLite extension that turns game level files into
# virtual tables.  `make` builds build/levelsql.so; `make test` and
# `make demo` are the two commands in the README.

CC      ?= cc
BUILD   ?= build
OPT     ?= -O2 -g
PKGS    := sqlite3 zlib libpng
# pkg-config is asked lazily: ensure-deps may install it first.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lsqlite3 -lz -lpng16) -lm
# what the codecs link: zlib, and libpng for the previews (codecs/common/canvas.c)
ZLIB_LIBS  = $(shell pkg-config --libs zlib libpng 2>/dev/null || echo -lz -lpng16) -lm
WARN    := -Wall -Wextra -Wshadow
CSTD    := -std=c11 -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE
# includes are spelled by folder: "common/bytes.h", "tw/twmap.h", "engine/engine.h"
INCLUDES := -Icodecs -Iext
ALL_CFLAGS = $(CSTD) $(OPT) $(WARN) -fPIC $(INCLUDES) $(PKG_CFLAGS) $(SANITIZE) $(CFLAGS)
LDLIBS_ALL = $(PKG_LIBS) $(SANITIZE)

CODEC_SRC := $(sort $(wildcard codecs/*/*.c))
EXT_SRC   := $(sort $(wildcard ext/*.c ext/*/*.c))
CODEC_OBJ := $(CODEC_SRC:%.c=$(BUILD)/obj/%.o)
EXT_OBJ   := $(EXT_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_SRC  := $(sort $(wildcard test/unit/test_*.c))
UNIT_BIN  := $(UNIT_SRC:test/unit/%.c=$(BUILD)/tests/%)
# the files the SQL tests read beside the samples (test/unit/fixtures.c)
FIXTURES  := $(BUILD)/tests/fixtures
TOOL_SRC  := $(sort $(wildcard tools/*.c))
TOOL_BIN  := $(TOOL_SRC:tools/%.c=$(BUILD)/tools/%)
FUZZ_SRC  := $(sort $(wildcard test/fuzz/fuzz_*.c))
HEADERS   := $(wildcard codecs/*/*.h ext/*/*.h test/unit/*.h tools/*.h)

FUZZ_SECONDS ?= 60

# The targets that build before they run (test, asan, demo, ...) build in
# parallel, one job per processor, unless the command line gave -j itself
# (GNU make then shares its job slots with every sub-make).
NPROC    := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
PARALLEL  = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

.PHONY: windows windows-test all deps test demo asan tsan coverage fuzz fuzz-build bench clean samples readme newsql newsql-build torture snapshot

all: $(BUILD)/levelsql.so $(UNIT_BIN) $(FIXTURES) $(TOOL_BIN) $(BUILD)/faultshim.so $(BUILD)/hosts/sqlrun-decoy-zlib

deps:
	@sh tools/ensure-deps.sh

$(BUILD)/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The extension reaches SQLite through the loader's routine table, so it
# links zlib and libpng only, and both statically, hidden inside it: the
# version script exports sqlite3_levelsql_init alone and --exclude-libs keeps
# every symbol of the archives local, so a host that carries its own zlib
# (Node.js, Python's zlib module...) can neither see ours nor replace it
# (README, "Platforms").  zlib is Debian's libz.a (built with -fPIC);
# libpng is Debian's source compiled for it (build/libpng, below), since
# libpng16.a is not position-independent.
PNG_SRC    := build/libpng-src
PNG_DIR    := build/libpng
PNG_A      := $(PNG_DIR)/libpng.a
PNG_LINK   := $(PNG_DIR)/link.txt
PNG_NAMES  := png pngerror pngget pngmem pngpread pngread pngrio pngrtran pngrutil pngset pngtrans pngwio pngwrite pngwtran pngwutil
PNG_CFLAGS := -O2 -g -fPIC -fvisibility=hidden -DPNG_ARM_NEON_OPT=0 -DPNG_INTEL_SSE_OPT=0
LINK_MAP   := ext/levelsql.map
ZLIB_A     := $(shell p=$$($(CC) -print-file-name=libz.a 2>/dev/null); [ -f "$$p" ] && echo "$$p" || echo -lz)
SO_LDFLAGS  = -Wl,--version-script=$(LINK_MAP) -Wl,--exclude-libs,ALL
$(BUILD)/levelsql.so: $(CODEC_OBJ) $(EXT_OBJ) $(LINK_MAP) $(PNG_LINK)
	$(CC) -shared $(SO_LDFLAGS) -o $@ $(CODEC_OBJ) $(EXT_OBJ) $$(cat $(PNG_LINK)) $(ZLIB_A) -lm -pthread $(SANITIZE)

# libpng for the extension: the source of Debian's libpng1.6 package
# (tools/libpng-source.sh, fetched once into build/libpng-src), compiled
# position-independent with its prebuilt configuration, once for every build
# folder (like the newer SQLite, it is never instrumented).  $(PNG_LINK)
# holds what the extension links: the archive, or, when the source cannot be
# obtained, the system's shared libpng (with a note; delete the file to try
# again).
$(PNG_LINK): tools/libpng-source.sh
	@mkdir -p $(dir $@)
	@if sh tools/libpng-source.sh $(PNG_SRC) && $(MAKE) --no-print-directory $(PNG_A); then \
	  echo $(PNG_A) >$@; \
	else \
	  echo "$$(pkg-config --libs libpng 2>/dev/null || echo -lpng16)" >$@; \
	  echo "note: libpng's source could not be obtained: the extension links the system's shared libpng"; \
	fi

$(PNG_DIR)/include/pnglibconf.h: $(PNG_SRC)/src/scripts/pnglibconf.h.prebuilt
	@mkdir -p $(dir $@)
	cp $< $@

$(PNG_DIR)/obj/%.o: $(PNG_SRC)/src/%.c $(PNG_DIR)/include/pnglibconf.h
	@mkdir -p $(dir $@)
	$(CC) $(PNG_CFLAGS) -I$(PNG_DIR)/include -I$(PNG_SRC)/src -c $< -o $@

$(PNG_A): $(PNG_NAMES:%=$(PNG_DIR)/obj/%.o)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/tests/%: test/unit/%.c $(CODEC_OBJ) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CODEC_OBJ) $(LDLIBS_ALL)

# test_insert_args registers tables of its own through the engine, and
# test_family_helpers calls the engine's helpers for table families, so
# they link the extension's objects instead of loading the .so.
$(BUILD)/tests/test_insert_args $(BUILD)/tests/test_family_helpers: $(BUILD)/tests/%: test/unit/%.c $(CODEC_OBJ) $(EXT_OBJ) $(PNG_LINK) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Icodecs -o $@ $< $(EXT_OBJ) $(CODEC_OBJ) $$(cat $(PNG_LINK)) $(LDLIBS_ALL) -pthread

# test_codec_errors makes chosen allocations of the codecs fail: ld's --wrap
# sends their malloc/calloc/realloc calls to the test's own wrappers.
$(BUILD)/tests/test_codec_errors: LDLIBS_ALL += -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc

# The fault-injection shim of test_write_safety (LD_PRELOAD; see its
# header): never sanitized, the ASan runtime is preloaded before it.
$(BUILD)/faultshim.so: test/faultshim/faultshim.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) -O1 -g $(WARN) -fPIC -shared -o $@ $< -ldl

# tools/sqlrun in a host that exports a decoy zlib of its own
# (test/hosts/decoy_zlib.c): test/run.sh runs the SQL tests that compress
# through it, to show the extension never calls the host's zlib.  It links
# SQLite alone (no zlib).
$(BUILD)/hosts/sqlrun-decoy-zlib: tools/sqlrun.c test/hosts/decoy_zlib.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -rdynamic -o $@ $^ $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3) -ldl $(SANITIZE)

$(BUILD)/tools/%: tools/%.c $(CODEC_OBJ) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CODEC_OBJ) $(LDLIBS_ALL)

# The newer SQLite of the suite's second pass (README, "Tests"): the
# amalgamation that tools/newer-sqlite.sh pins and fetches with npm into
# build/newsql/, compiled once (-O1: about 25 s; JSON is built in), and
# linked into $(BUILD)/newsql/sqlrun (tools/sqlrun.c: the part of the
# sqlite3 shell the SQL scripts use) and into a second build of every C test
# that drives SQLite (its source includes sqlite3.h or sqltest.h),
# $(BUILD)/tests-newsql/.  The extension is the same binary on both: it
# reaches SQLite only through the loader's routine table.  When the source
# cannot be obtained, the pass is skipped (test/run.sh counts one skip).
NEWSQL          := build/newsql
NEWSQL_OBJ      := $(NEWSQL)/sqlite3.o
NEWSQL_DEFS     := -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_LIKE_DOESNT_MATCH_BLOBS
NEWSQL_UNIT_SRC := $(shell grep -lE 'include [<"](sqlite3|sqltest)[.]h[>"]' $(UNIT_SRC) /dev/null)
NEWSQL_UNIT_BIN := $(NEWSQL_UNIT_SRC:test/unit/%.c=$(BUILD)/tests-newsql/%)
NEWSQL_CFLAGS    = -I$(NEWSQL) $(ALL_CFLAGS)
NEWSQL_LIBS      = $(NEWSQL_OBJ) $(ZLIB_LIBS) -lpthread -ldl -lm $(SANITIZE)

# (the codecs' objects are built here, by the make that may be building
# `all` beside it, never by the sub-make too: `make -j all newsql`)
newsql: deps $(CODEC_OBJ)
	@if sh tools/newer-sqlite.sh $(NEWSQL); then \
	  $(MAKE) --no-print-directory newsql-build; \
	else \
	  rm -f $(BUILD)/newsql/sqlrun; \
	  echo "note: the newer SQLite could not be obtained (see above): its test pass is skipped"; \
	fi

newsql-build: $(BUILD)/newsql/sqlrun $(NEWSQL_UNIT_BIN)

$(NEWSQL_OBJ): $(NEWSQL)/sqlite3.c $(NEWSQL)/PINNED
	$(CC) -O1 $(NEWSQL_DEFS) -c $< -o $@

$(BUILD)/newsql/sqlrun: tools/sqlrun.c $(NEWSQL_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(NEWSQL_CFLAGS) -o $@ $< $(NEWSQL_LIBS)

$(BUILD)/tests-newsql/%: test/unit/%.c $(CODEC_OBJ) $(NEWSQL_OBJ) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(NEWSQL_CFLAGS) -o $@ $< $(CODEC_OBJ) $(NEWSQL_LIBS)

# Windows (README, "Platforms and hosts"): build/windows/levelsql.dll,
# cross-compiled with Debian's mingw-w64, zlib (libz-mingw-w64-dev) and
# libpng (Debian's source, as above) linked in, exporting
# sqlite3_levelsql_init alone (its __declspec(dllexport)); the engine's file
# calls go through ext/engine/win_port.c.  Beside it the Windows host of the tests,
# sqlrun.exe: tools/sqlrun.c with the newer SQLite's amalgamation
# (tools/newer-sqlite.sh).  `make windows-test` runs SQL tests with them
# under wine (test/windows/run.sh).  Static: the DLL and the host need no
# mingw runtime DLL.
WIN       := build/windows
WIN_CC    := x86_64-w64-mingw32-gcc
WIN_CFLAGS := -std=c11 -D__USE_MINGW_ANSI_STDIO=1 -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE -O2 $(WARN) \
  -Wno-format -Wno-missing-field-initializers $(INCLUDES) -I$(NEWSQL) -I$(PNG_SRC)/src -I$(WIN)/libpng/include
# (-Wno-format: gcc checks printf formats against msvcrt's, which lacks %zu;
# __USE_MINGW_ANSI_STDIO gives the C99 printf that has it)
WIN_OBJ   := $(CODEC_SRC:%.c=$(WIN)/obj/%.o) $(EXT_SRC:%.c=$(WIN)/obj/%.o)
WIN_PNG_A := $(WIN)/libpng/libpng.a

windows: deps
	@LEVELSQL_NEED_WINDOWS=1 sh tools/ensure-deps.sh
	@sh tools/newer-sqlite.sh $(NEWSQL)
	@sh tools/libpng-source.sh $(PNG_SRC)
	@$(MAKE) --no-print-directory $(PARALLEL) $(WIN)/levelsql.dll $(WIN)/sqlrun.exe

windows-test: windows
	@$(MAKE) --no-print-directory $(PARALLEL) all
	@sh test/windows/run.sh $(BUILD)

$(WIN)/obj/%.o: %.c $(HEADERS) $(WIN)/libpng/include/pnglibconf.h
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -c $< -o $@

$(WIN)/libpng/include/pnglibconf.h: $(PNG_SRC)/src/scripts/pnglibconf.h.prebuilt
	@mkdir -p $(dir $@)
	cp $< $@

$(WIN)/libpng/obj/%.o: $(PNG_SRC)/src/%.c $(WIN)/libpng/include/pnglibconf.h
	@mkdir -p $(dir $@)
	$(WIN_CC) -O2 -DPNG_ARM_NEON_OPT=0 -DPNG_INTEL_SSE_OPT=0 -I$(WIN)/libpng/include -I$(PNG_SRC)/src -c $< -o $@

$(WIN_PNG_A): $(PNG_NAMES:%=$(WIN)/libpng/obj/%.o)
	rm -f $@
	x86_64-w64-mingw32-ar rcs $@ $^

$(WIN)/levelsql.dll: $(WIN_OBJ) $(WIN_PNG_A)
	$(WIN_CC) -shared -static -o $@ $(WIN_OBJ) $(WIN_PNG_A) -lz -lpthread

$(WIN)/sqlite3.o: $(NEWSQL)/sqlite3.c $(NEWSQL)/PINNED
	@mkdir -p $(dir $@)
	$(WIN_CC) -O1 $(NEWSQL_DEFS) -c $< -o $@

$(WIN)/sqlrun.exe: tools/sqlrun.c $(WIN)/sqlite3.o
	$(WIN_CC) $(WIN_CFLAGS) -static -o $@ $< $(WIN)/sqlite3.o -lpthread

# Sample files of every format, one generator per format (tools/gen_*_samples.c).
samples: $(filter $(BUILD)/tools/gen_%_samples,$(TOOL_BIN))
	@rm -rf $(BUILD)/samples
	sh tools/gen_samples.sh $(BUILD) $(BUILD)/samples

test: deps
	@$(MAKE) --no-print-directory $(PARALLEL) all newsql
	@sh test/run.sh $(BUILD)

demo: deps
	@$(MAKE) --no-print-directory $(PARALLEL) all samples
	@sh tools/demo.sh $(BUILD)

# The whole suite again under AddressSanitizer and UBSan (the newer
# SQLite's pass too: its tests and sqlrun are instrumented, the amalgamation
# itself is the plain object of build/newsql).
asan: deps
	@$(MAKE) --no-print-directory $(PARALLEL) all BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
	@$(MAKE) --no-print-directory $(PARALLEL) newsql BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LEVELSQL_SANITIZED=1 sh test/run.sh build-asan

# The SQL tests that scan many files under ThreadSanitizer (test/tsan.sh):
# the parse-ahead threads against the connection's own.  The extension and
# the test host tools/sqlrun are instrumented (so no LD_PRELOAD reaches the
# shell commands the tests run).
tsan: deps
	@$(MAKE) --no-print-directory $(PARALLEL) BUILD=build-tsan OPT="-O1 -g" SANITIZE="-fsanitize=thread" \
	  build-tsan/levelsql.so build-tsan/tools/sqlrun build-tsan/tests/fixtures \
	  $(filter build-tsan/tools/gen_%_samples,$(TOOL_SRC:tools/%.c=build-tsan/tools/%))
	@sh test/tsan.sh build-tsan

# Line coverage (README, "Tests"): the extension, the C tests and the sample
# generators built with gcc --coverage in build-cov, the suite run on them
# (on the system SQLite only), then per file of ext/ and codecs/ the lines
# run, by plain gcov (tools/coverage.sh).  Counts start from zero each time.
# Exits non-zero when a test failed, after printing the table.
coverage: deps
	@LEVELSQL_NEED_GCC=1 sh tools/ensure-deps.sh
	@$(MAKE) --no-print-directory $(PARALLEL) all CC=gcc BUILD=build-cov OPT="-O0 -g" SANITIZE=--coverage
	@find build-cov -name '*.gcda' -exec rm -f {} +
	@sh test/run.sh build-cov; rc=$$?; echo "== line coverage of ext/ and codecs/"; \
	  GCOV=gcov sh tools/coverage.sh build-cov && exit $$rc

# libFuzzer harnesses, one per codec (clang only), built with every codec
# under ASan and UBSan.  The codecs are compiled once (with libFuzzer's
# coverage, without its main) and linked into every harness.
FUZZ_BIN  := $(FUZZ_SRC:test/fuzz/%.c=build-fuzz/fuzz/%)
FUZZ_OBJ  := $(CODEC_SRC:codecs/%.c=build-fuzz/obj/%.o)
FUZZ_SAN  := -fno-sanitize-recover=undefined
FUZZ_HDRS := $(HEADERS) $(wildcard test/fuzz/*.h)
# Codecs whose control flow does not depend on the bytes they are given
# (SHA-256 runs the same rounds for any input of a length): coverage
# feedback from them says nothing new, and its instrumentation of every
# round was a sixth of fuzz_twmap's time (the digest of each input), so
# they are built with ASan and UBSan but without libFuzzer's coverage.
FUZZ_UNGUIDED := codecs/common/sha256.c
.SECONDARY: $(FUZZ_OBJ)

fuzz-build: deps
	@LEVELSQL_NEED_CLANG=1 sh tools/ensure-deps.sh
	@$(MAKE) --no-print-directory $(PARALLEL) $(FUZZ_BIN)

build-fuzz/obj/%.o: codecs/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	clang $(CSTD) -O1 -g -Icodecs -fsanitize=$(if $(filter $(FUZZ_UNGUIDED),$<),,fuzzer-no-link,)address,undefined \
	  $(FUZZ_SAN) -c -o $@ $<

build-fuzz/fuzz/%: test/fuzz/%.c $(FUZZ_OBJ) $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	clang $(CSTD) -O1 -g -Icodecs -fsanitize=fuzzer,address,undefined $(FUZZ_SAN) -o $@ $< $(FUZZ_OBJ) $(ZLIB_LIBS)

fuzz: fuzz-build
	@sh test/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

# test_write_safety at length (README, "Writing, safely"): thousands of
# kill -9 points, more concurrent writers and rounds; test_isolation's
# read-modify-write counters at 2 processes x 200 transactions on every
# format (README, "Transactions"); test_differential's longer run;
# test_twresize's three resizes on every corpus map.
torture: deps
	@$(MAKE) --no-print-directory $(PARALLEL) all samples
	@LEVELSQL_TORTURE=1 LEVELSQL_SAMPLES=$(BUILD)/samples LEVELSQL_EXT=$(BUILD)/levelsql $(BUILD)/tests/test_write_safety
	@LEVELSQL_TORTURE=1 LEVELSQL_SAMPLES=$(BUILD)/samples LEVELSQL_EXT=$(BUILD)/levelsql $(BUILD)/tests/test_isolation
	@LEVELSQL_TORTURE=1 LEVELSQL_SAMPLES=$(BUILD)/samples LEVELSQL_EXT=$(BUILD)/levelsql \
	  LEVELSQL_CORPUS=$$(cd ../shared/corpus 2>/dev/null && pwd -P) $(BUILD)/tests/test_differential
	@LEVELSQL_TORTURE=1 LEVELSQL_SAMPLES=$(BUILD)/samples \
	  LEVELSQL_CORPUS=$$(cd ../shared/corpus 2>/dev/null && pwd -P) $(BUILD)/tests/test_twresize

bench: deps
	@$(MAKE) --no-print-directory $(PARALLEL) all samples
	@sh tools/bench.sh $(BUILD)

# Regenerates test/snapshot/digests.txt (test_snapshot: a digest of every
# table of every sample and corpus file) after an intended change of what
# the tables read; without ../shared/corpus its old corpus lines are kept.
snapshot: deps
	@$(MAKE) --no-print-directory $(PARALLEL) all samples
	@LEVELSQL_SNAPSHOT_WRITE=test/snapshot/digests.txt LEVELSQL_SAMPLES=$(BUILD)/samples LEVELSQL_EXT=$(BUILD)/levelsql \
	  LEVELSQL_CORPUS=$$([ -d ../shared/corpus ] && cd ../shared/corpus && pwd -P) $(BUILD)/tests/test_snapshot

# Regenerates the table reference in README.md from levelsql_columns.
readme: $(BUILD)/levelsql.so
	sh tools/readme_tables.sh --update README.md $(BUILD)/levelsql

clean:
	rm -rf build build-asan build-cov build-fuzz
