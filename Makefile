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
# what the codecs link: zlib, and libpng for the previews (codecs/canvas.c)
ZLIB_LIBS  = $(shell pkg-config --libs zlib libpng 2>/dev/null || echo -lz -lpng16) -lm
WARN    := -Wall -Wextra -Wshadow
CSTD    := -std=c11 -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE
ALL_CFLAGS = $(CSTD) $(OPT) $(WARN) -fPIC $(PKG_CFLAGS) $(SANITIZE) $(CFLAGS)
LDLIBS_ALL = $(PKG_LIBS) $(SANITIZE)

CODEC_SRC := $(sort $(wildcard codecs/*.c))
EXT_SRC   := $(sort $(wildcard ext/*.c))
CODEC_OBJ := $(CODEC_SRC:%.c=$(BUILD)/obj/%.o)
EXT_OBJ   := $(EXT_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_SRC  := $(sort $(wildcard test/unit/test_*.c))
UNIT_BIN  := $(UNIT_SRC:test/unit/%.c=$(BUILD)/tests/%)
# the files the SQL tests read beside the samples (test/unit/fixtures.c)
FIXTURES  := $(BUILD)/tests/fixtures
TOOL_SRC  := $(sort $(wildcard tools/*.c))
TOOL_BIN  := $(TOOL_SRC:tools/%.c=$(BUILD)/tools/%)
FUZZ_SRC  := $(sort $(wildcard test/fuzz/fuzz_*.c))
HEADERS   := $(wildcard codecs/*.h ext/*.h test/unit/*.h tools/*.h)

FUZZ_SECONDS ?= 60

.PHONY: all deps test demo asan coverage fuzz fuzz-build bench clean samples readme newsql newsql-build torture

all: $(BUILD)/levelsql.so $(UNIT_BIN) $(FIXTURES) $(TOOL_BIN) $(BUILD)/faultshim.so

deps:
	@sh tools/ensure-deps.sh

$(BUILD)/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The extension reaches SQLite through the loader's routine table, so it
# links zlib and libpng only.
$(BUILD)/levelsql.so: $(CODEC_OBJ) $(EXT_OBJ)
	$(CC) -shared -o $@ $^ $(ZLIB_LIBS) $(SANITIZE)

$(BUILD)/tests/%: test/unit/%.c $(CODEC_OBJ) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Icodecs -o $@ $< $(CODEC_OBJ) $(LDLIBS_ALL)

# test_codec_errors makes chosen allocations of the codecs fail: ld's --wrap
# sends their malloc/calloc/realloc calls to the test's own wrappers.
$(BUILD)/tests/test_codec_errors: LDLIBS_ALL += -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc

# The fault-injection shim of test_write_safety (LD_PRELOAD; see its
# header): never sanitized, the ASan runtime is preloaded before it.
$(BUILD)/faultshim.so: test/faultshim/faultshim.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) -O1 -g $(WARN) -fPIC -shared -o $@ $< -ldl

$(BUILD)/tools/%: tools/%.c $(CODEC_OBJ) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Icodecs -o $@ $< $(CODEC_OBJ) $(LDLIBS_ALL)

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

newsql: deps
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
	$(CC) $(NEWSQL_CFLAGS) -Icodecs -o $@ $< $(CODEC_OBJ) $(NEWSQL_LIBS)

# Sample files of every format, one generator per format (tools/gen_*_samples.c).
samples: $(filter $(BUILD)/tools/gen_%_samples,$(TOOL_BIN))
	@rm -rf $(BUILD)/samples
	sh tools/gen_samples.sh $(BUILD) $(BUILD)/samples

test: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory newsql
	@sh test/run.sh $(BUILD)

demo: deps
	@$(MAKE) --no-print-directory all samples
	@sh tools/demo.sh $(BUILD)

# The whole suite again under AddressSanitizer and UBSan (the newer
# SQLite's pass too: its tests and sqlrun are instrumented, the amalgamation
# itself is the plain object of build/newsql).
asan: deps
	@$(MAKE) --no-print-directory all BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
	@$(MAKE) --no-print-directory newsql BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LEVELSQL_SANITIZED=1 sh test/run.sh build-asan

# Line coverage (README, "Tests"): the extension, the C tests and the sample
# generators built with gcc --coverage in build-cov, the suite run on them
# (on the system SQLite only), then per file of ext/ and codecs/ the lines
# run, by plain gcov (tools/coverage.sh).  Counts start from zero each time.
# Exits non-zero when a test failed, after printing the table.
coverage: deps
	@LEVELSQL_NEED_GCC=1 sh tools/ensure-deps.sh
	@$(MAKE) --no-print-directory all CC=gcc BUILD=build-cov OPT="-O0 -g" SANITIZE=--coverage
	@find build-cov -name '*.gcda' -exec rm -f {} +
	@sh test/run.sh build-cov; rc=$$?; echo "== line coverage of ext/ and codecs/"; \
	  GCOV=gcov sh tools/coverage.sh build-cov && exit $$rc

# libFuzzer harnesses, one per codec (clang only), built with every codec
# under ASan and UBSan.
FUZZ_BIN  := $(FUZZ_SRC:test/fuzz/%.c=build-fuzz/fuzz/%)

fuzz-build: deps
	@LEVELSQL_NEED_CLANG=1 sh tools/ensure-deps.sh
	@$(MAKE) --no-print-directory $(FUZZ_BIN)

build-fuzz/fuzz/%: test/fuzz/%.c $(CODEC_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	clang $(CSTD) -O1 -g -Icodecs -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -o $@ $< $(CODEC_SRC) $(ZLIB_LIBS)

fuzz: fuzz-build
	@sh test/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

# test_write_safety at length (README, "Writing, safely"): thousands of
# kill -9 points, more concurrent writers and rounds.
torture: deps
	@$(MAKE) --no-print-directory all samples
	@LEVELSQL_TORTURE=1 LEVELSQL_SAMPLES=$(BUILD)/samples LEVELSQL_EXT=$(BUILD)/levelsql $(BUILD)/tests/test_write_safety

bench: deps
	@$(MAKE) --no-print-directory all samples
	@sh tools/bench.sh $(BUILD)

# Regenerates the table reference in README.md from levelsql_columns.
readme: $(BUILD)/levelsql.so
	sh tools/readme_tables.sh --update README.md $(BUILD)/levelsql

clean:
	rm -rf build build-asan build-cov build-fuzz
