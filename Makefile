# ptxsim: one build for everything.
#   make          build/bin/ptxsim and build/lib/libcudart.so.13
#   make deps     install what is missing from Debian's archive
#   make check    deps, build, every test suite; ends with "N passed, N failed"
#   make demo     deps, build, run the flagship example under ptxsim
#   make bench    the benchmarks in bench/ (never part of check)
#   make fuzz     the libFuzzer harnesses of tests/fuzz/ (installs clang), FUZZ_TIME s each
#   make check-full   check, then a short run of every fuzzer
#   make check SAN=1  every suite with everything built with ASan and UBSan (in build/san)

SHELL      := /bin/bash
CUDA_HOME  ?= /usr/local/cuda
NVCC       ?= $(shell command -v nvcc 2>/dev/null || echo $(CUDA_HOME)/bin/nvcc)
CC         ?= gcc
LLVM_CONFIG ?= $(shell command -v llvm-config-19 2>/dev/null || echo /usr/lib/llvm-19/bin/llvm-config)
FLEX       ?= flex
BISON      ?= bison
B          := build

# Layers, bottom to top. Each is a folder of C files with one public header.
LAYERS     := frontend emulator timing runtime
SHIM_DIR   := libcudart-shim

WARN       := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wvla
BASEFLAGS  := -std=c17 -D_GNU_SOURCE -fPIC -g -I. -I$(B)/gen -I$(CUDA_HOME)/include $(WARN)
CFLAGS     ?= -O2
ASANFLAGS  := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# SAN=1: the program, the shims and the tests all built with the sanitizers, in their own tree.
LINK_SAN   :=
ifeq ($(SAN),1)
B          := build/san
CFLAGS     := $(ASANFLAGS)
LINK_SAN   := -fsanitize=address,undefined
endif
LIBS       := -lzstd -llz4 -lz -lffi -lpthread -lm -ldl
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm -lpthread)

# Sources: every .c below a layer folder (mechanism subfolders included), plus the lexer and
# parser that flex and bison generate from frontend/*.l and frontend/*.y.
find_c      = $(shell find $(1) -name '*.c' 2>/dev/null | sort)
LEX_SRC    := $(wildcard frontend/*.l)
YACC_SRC   := $(wildcard frontend/*.y)
GEN_C      := $(patsubst frontend/%.l,$(B)/gen/%.c,$(LEX_SRC)) $(patsubst frontend/%.y,$(B)/gen/%.c,$(YACC_SRC))
GEN_H      := $(patsubst frontend/%.y,$(B)/gen/%.h,$(YACC_SRC))
CORE_SRC   := $(foreach l,$(LAYERS),$(call find_c,$(l)))
SHIM_SRC   := $(call find_c,$(SHIM_DIR))
CLI_SRC    := $(call find_c,cli)
UNIT_SRC   := $(wildcard tests/unit/test_*.c)
UNIT_HELPERS := $(filter-out $(UNIT_SRC),$(wildcard tests/unit/*.c))

obj         = $(patsubst %.c,$(1)/obj/%.o,$(patsubst $(B)/gen/%,gen/%,$(2)))
CORE_OBJ   := $(call obj,$(B),$(CORE_SRC) $(GEN_C))
SHIM_OBJ   := $(call obj,$(B),$(SHIM_SRC))
CLI_OBJ    := $(call obj,$(B),$(CLI_SRC))
ACORE_OBJ  := $(call obj,$(B)/asan,$(CORE_SRC) $(GEN_C))
ASHIM_OBJ  := $(call obj,$(B)/asan,$(SHIM_SRC))
AHELP_OBJ  := $(call obj,$(B)/asan,$(UNIT_HELPERS))
UNIT_BIN   := $(patsubst tests/unit/%.c,$(B)/asan/tests/%,$(UNIT_SRC))

PTXSIM     := $(B)/bin/ptxsim
SHIM_SO    := $(B)/lib/libcudart.so.13
SHIM12_SO  := $(B)/lib/libcudart.so.12
SHIM11_SO  := $(B)/lib/libcudart.so.11.0
ASHIM_SO   := $(B)/asan/lib/libcudart.so.13
CORE_A     := $(B)/lib/libptxsim.a
ACORE_A    := $(B)/asan/lib/libptxsim.a
CHECK_EXTRA := $(ASHIM_SO)
SAN_SHARE_CUDA := true
ifeq ($(SAN),1)
# the core is sanitized already: the unit tests link it rather than a second copy
ACORE_A    := $(CORE_A)
CHECK_EXTRA :=
# what nvcc builds for the tests (CUDA programs, the PTX corpus) does not depend on how ptxsim
# is built: share it with build/
SAN_SHARE_CUDA := for d in cuda ptx-corpus; do mkdir -p build/tests/$$d $(B)/tests && \
                  rm -rf $(B)/tests/$$d && ln -s $(abspath build/tests)/$$d $(B)/tests/$$d; done
endif

.PHONY: all deps check check-full demo bench clean unit-tests cuda-tests fuzz fuzz-deps
.DEFAULT_GOAL := all
.SECONDARY:

all: $(PTXSIM) $(SHIM_SO) $(SHIM12_SO) $(SHIM11_SO)

# ---------------------------------------------------------------- dependencies
DEB_PACKAGES := flex bison check pkg-config libzstd-dev liblz4-dev zlib1g-dev libffi-dev llvm-19-dev
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $$sudo apt-get update -q >/dev/null && $$sudo apt-get install -y -q --no-install-recommends $$missing >/dev/null \
	    || { echo "make deps: apt-get failed for$$missing" >&2; exit 1; }; \
	fi; \
	[ -x "$(NVCC)" ] || echo "make deps: warning: nvcc not found (set NVCC=); CUDA tests and examples need it" >&2

# ---------------------------------------------------------------- generated frontend
$(B)/gen/%.c $(B)/gen/%.h: frontend/%.y
	@mkdir -p $(dir $@)
	$(BISON) -Wall -Werror --defines=$(B)/gen/$*.h -o $(B)/gen/$*.c $<

$(B)/gen/%.c: frontend/%.l $(GEN_H)
	@mkdir -p $(dir $@)
	$(FLEX) -o $@ $<

GEN_CFLAGS := -Wno-unused-function -Wno-sign-compare -Wno-shadow -Wno-unused-but-set-variable -Wno-missing-field-initializers

# ---------------------------------------------------------------- objects
$(B)/obj/gen/%.o: $(B)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) $(GEN_CFLAGS) -MMD -MP -c $< -o $@
$(B)/asan/obj/gen/%.o: $(B)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(ASANFLAGS) $(GEN_CFLAGS) -MMD -MP -c $< -o $@
$(B)/obj/%.o: %.c | $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(B)/asan/obj/%.o: %.c | $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(ASANFLAGS) -MMD -MP -c $< -o $@

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# ---------------------------------------------------------------- products
$(CORE_A): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(ACORE_A): $(ACORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The shim exports the CUDA runtime ABI under the version nodes nvcc's binaries ask for;
# everything else stays local so it cannot clash with the application's symbols.
SHIM_LDFLAGS = -shared -Wl,-soname,libcudart.so.13 -Wl,--version-script=$(SHIM_DIR)/libcudart.map \
               -Wl,--no-undefined -Wl,-z,nodelete
$(SHIM_SO): $(SHIM_OBJ) $(CORE_A) $(SHIM_DIR)/libcudart.map
	@mkdir -p $(dir $@)
	$(CC) $(SHIM_LDFLAGS) $(LINK_SAN) -o $@ $(SHIM_OBJ) $(CORE_A) $(LIBS)
	ln -sf libcudart.so.13 $(B)/lib/libcudart.so
# The same objects answer CUDA 12 programs under their soname and version node.
$(SHIM12_SO): $(SHIM_OBJ) $(CORE_A) $(SHIM_DIR)/libcudart12.map
	@mkdir -p $(dir $@)
	$(CC) $(subst .map,12.map,$(subst so.13,so.12,$(SHIM_LDFLAGS))) $(LINK_SAN) -o $@ $(SHIM_OBJ) $(CORE_A) $(LIBS)
# CUDA 11 programs, and the texture and surface reference API that CUDA 12 removed.
$(SHIM11_SO): $(SHIM_OBJ) $(CORE_A) $(SHIM_DIR)/libcudart11.map
	@mkdir -p $(dir $@)
	$(CC) $(subst .map,11.map,$(subst so.13,so.11.0,$(SHIM_LDFLAGS))) $(LINK_SAN) -o $@ $(SHIM_OBJ) $(CORE_A) $(LIBS)
$(ASHIM_SO): $(ASHIM_OBJ) $(ACORE_A) $(SHIM_DIR)/libcudart.map
	@mkdir -p $(dir $@)
	$(CC) $(SHIM_LDFLAGS) -fsanitize=address,undefined -o $@ $(ASHIM_OBJ) $(ACORE_A) $(LIBS)

$(PTXSIM): $(CLI_OBJ) $(CORE_A)
	@mkdir -p $(dir $@)
	$(CC) $(LINK_SAN) -o $@ $(CLI_OBJ) $(CORE_A) $(LIBS)

# ---------------------------------------------------------------- tests
$(B)/asan/tests/%: tests/unit/%.c $(AHELP_OBJ) $(ACORE_A)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(ASANFLAGS) -Wno-error=shadow -o $@ $< $(AHELP_OBJ) $(ACORE_A) $(CHECK_LIBS) $(LIBS)

unit-tests: $(UNIT_BIN)

check: deps
	@$(MAKE) --no-print-directory all $(UNIT_BIN) $(CHECK_EXTRA)
	@$(SAN_SHARE_CUDA)
	@NVCC="$(NVCC)" B="$(B)" SAN="$(SAN)" bash tests/run_all.sh

check-full: check
	@$(MAKE) --no-print-directory fuzz FUZZ_TIME=$(FUZZ_SHORT)

# ---------------------------------------------------------------- fuzzing
# libFuzzer harnesses (tests/fuzz/fuzz_*.c) over a copy of the core built by clang with the
# fuzzer's coverage and ASan + UBSan. Each runs FUZZ_TIME seconds from its seed corpus (the
# test corpus, and every earlier finding in tests/fuzz/regressions/); a finding stops it and is
# written to $(B)/fuzz/findings/: fix it, then add the input to tests/fuzz/regressions/TARGET/
# (tests/unit/test_fuzz_regressions.c replays those in every `make check`).
FUZZ_CC      ?= clang
FUZZ_TIME    ?= 60
FUZZ_SHORT   ?= 20
FUZZ_PACKAGES := clang libclang-rt-dev
FUZZ_TARGETS := ptx fatbin runtime
FUZZFLAGS    := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
                -fno-sanitize-recover=undefined
FUZZBASE     := $(filter-out -Werror,$(BASEFLAGS))
FCORE_OBJ    := $(call obj,$(B)/fuzz,$(CORE_SRC) $(GEN_C))
FCORE_A      := $(B)/fuzz/lib/libptxsim.a
FUZZ_BIN     := $(patsubst %,$(B)/fuzz/fuzz_%,$(FUZZ_TARGETS))
FUZZ_SEEDS_ptx := tests/ptx/corpus tests/ptx/emu tests/ptx/engine tests/ptx/frontend tests/fuzz/regressions/ptx
FUZZ_SEEDS_fatbin := tests/fixtures/fatbin tests/fuzz/regressions/fatbin
FUZZ_SEEDS_runtime := tests/fuzz/regressions/runtime

fuzz-deps:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(FUZZ_PACKAGES)"

$(B)/fuzz/obj/gen/%.o: $(B)/gen/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZBASE) $(FUZZFLAGS) $(GEN_CFLAGS) -Wno-unknown-warning-option -c $< -o $@
$(B)/fuzz/obj/%.o: %.c | $(GEN_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZBASE) $(FUZZFLAGS) -c $< -o $@
$(FCORE_A): $(FCORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/targets.c $(FCORE_A)
	$(FUZZ_CC) $(FUZZBASE) -O1 -g -fsanitize=fuzzer,address,undefined -o $@ $< $(FCORE_A) $(LIBS)

fuzz: fuzz-deps
	@$(MAKE) --no-print-directory $(FUZZ_BIN)
	@mkdir -p $(B)/fuzz/findings
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(B)/fuzz/corpus/$$t; \
	  case $$t in ptx) seeds="$(FUZZ_SEEDS_ptx)";; fatbin) seeds="$(FUZZ_SEEDS_fatbin)";; \
	    *) seeds="$(FUZZ_SEEDS_runtime)";; esac; \
	  echo "fuzz $$t: $(FUZZ_TIME) s"; \
	  ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
	    $(B)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_TIME) -timeout=20 -rss_limit_mb=4096 \
	    -max_len=65536 -print_final_stats=1 -artifact_prefix=$(B)/fuzz/findings/$$t- \
	    $(B)/fuzz/corpus/$$t $$seeds 2>$(B)/fuzz/$$t.log \
	    || { tail -n 40 $(B)/fuzz/$$t.log; echo "fuzz $$t: a finding, in $(B)/fuzz/findings/"; exit 1; }; \
	  grep -E "stat::number_of_executed_units|cov:" $(B)/fuzz/$$t.log | tail -n 2; \
	done

demo: deps
	@$(MAKE) --no-print-directory all
	@NVCC="$(NVCC)" B="$(B)" bash examples/run_demo.sh

bench: all
	@NVCC="$(NVCC)" B="$(B)" bash bench/run_all.sh

clean:
	rm -rf $(B)
