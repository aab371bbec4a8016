# Makefile — builds serde.so with PGXS: the host-neutral core (src/core), its JSON walker compiled
# once per SIMD kernel (chosen at load time), and the PostgreSQL adapter (src/pg).
#   make / make install / make installcheck     the extension and its pg_regress suite
#   make unit                                   core unit tests (plain build)
#   make unit-asan                              core unit tests under ASan + UBSan
EXTENSION  = serde
MODULE_big = serde
# every released install script and every update script: serde--1.0.sql, serde--1.0--1.1.sql, …
DATA       = $(sort $(wildcard serde--*.sql))
PGFILEDESC = "serde - validate and decode JSON/XML documents into typed rows"

CORE_C   = $(sort $(wildcard src/core/*.c))
PG_C     = $(sort $(wildcard src/pg/*.c))
KERNELS  = icelake haswell westmere fallback
KERNEL_O = $(foreach k,$(KERNELS),src/core/json_walk_$(k).o) src/core/json_dispatch.o
OBJS     = $(CORE_C:.c=.o) $(PG_C:.c=.o) $(KERNEL_O)

REGRESS  = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql)))
REGRESS_OPTS = --inputdir=. --load-extension=dblink

PG_CONFIG ?= pg_config
PG_INCLUDE := $(shell $(PG_CONFIG) --includedir-server)
WARN      = -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers \
            -Wno-sign-compare -Wshadow=compatible-local -Wno-format-truncation -Wno-declaration-after-statement
# Cold start (the first call in a fresh backend loads serde.so): serde.map exports only what
# PostgreSQL looks up (Pg_magic_func, _PG_init, the SQL-callable serde_* functions and their
# pg_finfo_ records), so calls between serde's own functions are bound at link time instead of
# by a symbol search through every library of the backend at load time; -O1 sizes the dynamic
# symbol hash table well.  (-fvisibility=hidden cannot do this in PostgreSQL 15: its
# PG_FUNCTION_INFO_V1 does not mark the function itself as exported.)
PG_CPPFLAGS = -isystem $(PG_INCLUDE) -isystem /usr/include/libxml2 -Isrc/core
PG_CFLAGS   = $(WARN) -std=gnu11 -fno-semantic-interposition
SHLIB_LINK  = -lsimdjson -lxml2 -lstdc++ -Wl,-O1 -Wl,--version-script=serde.map
$(shlib): serde.map

# No LLVM bitcode: our C++ needs flags PGXS's bitcode rule ignores, and JIT inlining of a
# decoder gains nothing.
override with_llvm := no

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# ---- the C++ JSON walker, once per kernel ---------------------------------------------------
CXXWARN   = -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers
SDCXX     = $(CXX) -std=c++17 -O2 -fPIC -fno-exceptions -fno-rtti -DNDEBUG \
            -DSIMDJSON_EXCEPTIONS=0 -fvisibility=hidden -Isrc/core $(CXXWARN)
KFLAGS_icelake  = -DSIMDJSON_BUILTIN_IMPLEMENTATION=icelake  -march=icelake-server -mtune=generic
KFLAGS_haswell  = -DSIMDJSON_BUILTIN_IMPLEMENTATION=haswell  -march=haswell -mtune=generic
KFLAGS_westmere = -DSIMDJSON_BUILTIN_IMPLEMENTATION=westmere -march=westmere -mtune=generic
KFLAGS_fallback = -DSIMDJSON_BUILTIN_IMPLEMENTATION=fallback

src/core/json_walk_%.o: src/core/json_walk.cpp $(wildcard src/core/json_walk*.h) src/core/walker.h src/core/serde_core.h src/core/internal.h src/core/scalar.h
	$(SDCXX) $(KFLAGS_$*) -DSD_KERNEL=$* -c -o $@ $<

src/core/json_dispatch.o: src/core/json_dispatch.cpp src/core/json_walk.h src/core/serde_core.h
	$(SDCXX) -c -o $@ $<

$(CORE_C:.c=.o) $(PG_C:.c=.o): $(wildcard src/core/*.h src/pg/*.h)

# ---- core unit tests --------------------------------------------------------------------------
UNIT_SRC = $(sort $(wildcard test/unit_*.c))
UNIT_CC  = gcc -std=gnu11 -O1 -g -pthread $(WARN) -Isrc/core -isystem /usr/include/libxml2
unit: test/unit_runner
	./test/unit_runner
test/unit_runner: $(UNIT_SRC) $(CORE_C) $(KERNEL_O) test/unit.h
	$(UNIT_CC) -o $@ $(UNIT_SRC) $(CORE_C) $(KERNEL_O) -lsimdjson -lxml2 -lstdc++ -lm

ASAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
unit-asan: $(UNIT_SRC) $(CORE_C) src/core/json_walk.cpp src/core/json_dispatch.cpp test/unit.h
	mkdir -p test/asan
	$(foreach k,$(KERNELS),$(SDCXX) $(ASAN) $(KFLAGS_$(k)) -DSD_KERNEL=$(k) -c -o test/asan/json_walk_$(k).o src/core/json_walk.cpp &&) true
	$(SDCXX) $(ASAN) -c -o test/asan/json_dispatch.o src/core/json_dispatch.cpp
	$(UNIT_CC) $(ASAN) -o test/unit_runner_asan $(UNIT_SRC) $(CORE_C) test/asan/*.o -lsimdjson -lxml2 -lstdc++ -lm
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ./test/unit_runner_asan

EXTRA_CLEAN = test/unit_runner test/unit_runner_asan test/asan results regression.diffs regression.out tmp_check log

.PHONY: unit unit-asan

# ---- fuzzing: libFuzzer + ASan + UBSan, clang 14 (see TESTING.md) ------------------------------
#   make fuzz-build                  the targets test/fuzz/build/fuzz_{json,options,scalar,xml}
#   make fuzz [FUZZ_SECONDS=300]     each target for FUZZ_SECONDS (FUZZ_PARALLEL at a time, niced)
#   make fuzz-smoke                  each target for 30 s, plus every saved regression input
# The core's C files and the JSON walker (once per kernel, with its KFLAGS) are compiled again
# with clang for coverage (-fsanitize=fuzzer-no-link) under ASan + UBSan; objects, corpora and
# crash artifacts stay in test/fuzz/build/ (not committed).
FUZZ_CC      = clang-14
FUZZ_CXX     = clang++-14
FUZZ_BUILD   = test/fuzz/build
FUZZ_TARGETS = fuzz_json fuzz_options fuzz_scalar fuzz_xml
FUZZ_SECONDS ?= 300
FUZZ_SAN     = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -g
FUZZ_CFLAGS  = -std=gnu11 -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link -Isrc/core -Itest -isystem /usr/include/libxml2 \
               -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers
# the walker's own flags ($(SDCXX), with CXX = clang++), plus sanitizers and coverage; clang warns
# about an unused static function where g++ does not
FUZZ_KOBJ    = $(foreach k,$(KERNELS),$(FUZZ_BUILD)/json_walk_$(k).o) $(FUZZ_BUILD)/json_dispatch.o
FUZZ_COBJ    = $(patsubst src/core/%.c,$(FUZZ_BUILD)/core_%.o,$(CORE_C)) \
               $(FUZZ_BUILD)/unit_support.o $(FUZZ_BUILD)/fuzz_common.o

$(FUZZ_KOBJ): CXX = $(FUZZ_CXX)
$(FUZZ_BUILD)/json_walk_%.o: src/core/json_walk.cpp $(wildcard src/core/json_walk*.h) src/core/walker.h src/core/serde_core.h src/core/internal.h src/core/scalar.h
	@mkdir -p $(FUZZ_BUILD)
	$(SDCXX) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -Wno-unused-function $(KFLAGS_$*) -DSD_KERNEL=$* -c -o $@ $<
$(FUZZ_BUILD)/json_dispatch.o: src/core/json_dispatch.cpp src/core/json_walk.h src/core/serde_core.h
	@mkdir -p $(FUZZ_BUILD)
	$(SDCXX) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c -o $@ $<
$(FUZZ_BUILD)/core_%.o: src/core/%.c $(wildcard src/core/*.h)
	@mkdir -p $(FUZZ_BUILD)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<
$(FUZZ_BUILD)/unit_support.o: test/unit_support.c test/unit_support.h src/core/serde_core.h
	@mkdir -p $(FUZZ_BUILD)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<
$(FUZZ_BUILD)/fuzz_%.o: test/fuzz/fuzz_%.c test/fuzz/fuzz_common.h $(wildcard src/core/*.h)
	@mkdir -p $(FUZZ_BUILD)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<
$(addprefix $(FUZZ_BUILD)/,$(FUZZ_TARGETS)): $(FUZZ_BUILD)/%: $(FUZZ_BUILD)/%.o $(FUZZ_COBJ) $(FUZZ_KOBJ)
	$(FUZZ_CXX) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lsimdjson -lxml2 -lm

fuzz-build: $(addprefix $(FUZZ_BUILD)/,$(FUZZ_TARGETS))

fuzz: fuzz-build
	bash test/fuzz/run.sh $(FUZZ_SECONDS)

fuzz-smoke: fuzz-build
	bash test/fuzz/run.sh 30

# ---- valgrind: the pg_regress suite against a server under memcheck (on demand, slow) ----------
valgrind-check: all
	bash scripts/valgrind-check.sh

EXTRA_CLEAN += $(FUZZ_BUILD)
.PHONY: fuzz-build fuzz fuzz-smoke valgrind-check

# ---- the long concurrency stress (issue 5): 5 minutes against the server PGHOST/PGPORT point at
#   make stress [SERDE_STRESS_SECONDS=600]       (CI runs test/stress.sh for 60 s)
SERDE_STRESS_SECONDS ?= 300
stress:
	SERDE_STRESS_SECONDS=$(SERDE_STRESS_SECONDS) bash test/stress.sh
.PHONY: stress

# ---- the SQLite extension (issue 14): make sqlite -> sqlite/serde.so ---------------------------
# The same core, compiled again into sqlite/build/ (position-independent, hidden visibility, no
# PostgreSQL header anywhere), the walker objects of every kernel shared with the PostgreSQL
# build (they are built without PostgreSQL flags), and the adapter in sqlite/.  sqlite/serde.map
# exports sqlite3_serde_init only.
SQ_C     = $(sort $(wildcard sqlite/*.c))
SQ_BUILD = sqlite/build
SQ_OBJ   = $(patsubst src/core/%.c,$(SQ_BUILD)/core_%.o,$(CORE_C)) $(patsubst sqlite/%.c,$(SQ_BUILD)/%.o,$(SQ_C))
SQ_CC    = gcc -std=gnu11 -O2 -g -fPIC -fvisibility=hidden -fno-semantic-interposition $(WARN) -isystem /usr/include/libxml2 -Isrc/core

sqlite: sqlite/serde.so
sqlite/serde.so: $(SQ_OBJ) $(KERNEL_O) sqlite/serde.map
	$(SQ_CC) -shared -o $@ $(SQ_OBJ) $(KERNEL_O) -lsimdjson -lxml2 -lstdc++ -lm -Wl,-O1 -Wl,--version-script=sqlite/serde.map -Wl,-z,defs
$(SQ_BUILD)/core_%.o: src/core/%.c $(wildcard src/core/*.h)
	@mkdir -p $(SQ_BUILD)
	$(SQ_CC) -c -o $@ $<
$(SQ_BUILD)/%.o: sqlite/%.c sqlite/serde_sqlite.h $(wildcard src/core/*.h)
	@mkdir -p $(SQ_BUILD)
	$(SQ_CC) -c -o $@ $<
# The same library with everything (core, every kernel, adapter) under ThreadSanitizer, for
# test/sqlite/threads.c (test/sqlite.sh): sqlite/build-tsan/serde.so.
SQ_TSAN      = sqlite/build-tsan
SQ_TSAN_FLAG = -fsanitize=thread -g -O1
SQ_TSAN_OBJ  = $(patsubst $(SQ_BUILD)/%,$(SQ_TSAN)/%,$(SQ_OBJ)) \
               $(foreach k,$(KERNELS),$(SQ_TSAN)/json_walk_$(k).o) $(SQ_TSAN)/json_dispatch.o
sqlite-tsan: $(SQ_TSAN)/serde.so
$(SQ_TSAN)/serde.so: $(SQ_TSAN_OBJ) sqlite/serde.map
	$(SQ_CC) $(SQ_TSAN_FLAG) -shared -o $@ $(SQ_TSAN_OBJ) -lsimdjson -lxml2 -lstdc++ -lm -Wl,--version-script=sqlite/serde.map
$(SQ_TSAN)/core_%.o: src/core/%.c $(wildcard src/core/*.h)
	@mkdir -p $(SQ_TSAN)
	$(SQ_CC) $(SQ_TSAN_FLAG) -c -o $@ $<
$(SQ_TSAN)/%.o: sqlite/%.c sqlite/serde_sqlite.h $(wildcard src/core/*.h)
	@mkdir -p $(SQ_TSAN)
	$(SQ_CC) $(SQ_TSAN_FLAG) -c -o $@ $<
$(SQ_TSAN)/json_walk_%.o: src/core/json_walk.cpp $(wildcard src/core/json_walk*.h) src/core/serde_core.h src/core/internal.h src/core/scalar.h
	@mkdir -p $(SQ_TSAN)
	$(SDCXX) $(SQ_TSAN_FLAG) $(KFLAGS_$*) -DSD_KERNEL=$* -c -o $@ $<
$(SQ_TSAN)/json_dispatch.o: src/core/json_dispatch.cpp src/core/json_walk.h src/core/serde_core.h
	@mkdir -p $(SQ_TSAN)
	$(SDCXX) $(SQ_TSAN_FLAG) -c -o $@ $<

sqlite-clean:
	rm -rf $(SQ_BUILD) $(SQ_TSAN) sqlite/serde.so
EXTRA_CLEAN += $(SQ_BUILD) $(SQ_TSAN) sqlite/serde.so
.PHONY: sqlite sqlite-tsan sqlite-clean

# ---- the release tarball: make dist -> serde-<version>.tar.gz ---------------------------------
# git archive of HEAD (every tracked file, nothing built), under serde-<version>/; the version is
# serde.control's default_version with a patch level (1.1 -> 1.1.0), as META.json says (test/dist.sh
# checks both, and builds the tarball from scratch).  DIST_REF=<commit> archives another commit,
# DIST_OUT=<dir> writes the tarball elsewhere.
DIST_VERSION := $(shell sed -n "s/^default_version = '\(.*\)'/\1.0/p" serde.control)
DIST_NAME    = serde-$(DIST_VERSION)
DIST_REF    ?= HEAD
DIST_OUT    ?= .
dist:
	git archive --format=tar.gz --prefix=$(DIST_NAME)/ -o $(DIST_OUT)/$(DIST_NAME).tar.gz $(DIST_REF)
	@echo "$(DIST_OUT)/$(DIST_NAME).tar.gz"
EXTRA_CLEAN += serde-*.tar.gz
.PHONY: dist
