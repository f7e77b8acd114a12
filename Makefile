# ptxsim: one build for everything.
#   make          build/bin/ptxsim, build/lib/libcudart.so.13 (and .12, .11.0), libcuda.so.1
#   make deps     install what is missing from Debian's archive
#   make check    deps, build, every test suite; ends with "N passed, N failed"
#   make check-quick  the inner loop (about 3 minutes): unit tests without ASan, the CUDA
#                 programs from the binary cache, the determinism suite; same summary line
#   make mutants  applies each mutant of tests/mutants/ in a scratch tree and runs the quick
#                 suite against it (MUTANT=pattern for a subset); ends "N killed of M"
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
DRV_DIR    := libcuda-shim
NVRTC_DIR  := libnvrtc-shim

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
# TSAN=1: the same with ThreadSanitizer (bench/tsan_check.sh), for the host threads' handoffs
# (the parallel engine, the timing model's windows and weave). GCC cannot model a lone
# atomic_thread_fence (policy_direct.c's), hence its warning is not an error there.
ifeq ($(TSAN),1)
B          := build/tsan
CFLAGS     := -O1 -g -fsanitize=thread -fno-omit-frame-pointer -Wno-error=tsan
LINK_SAN   := -fsanitize=thread
endif
# LLVM-C for the JIT (emulator/jit/): its headers as system headers; the shared libLLVM is
# opened when the JIT first needs it, by its soname or else its path here (llvm_api.h says why
# nothing links it)
LLVM_INC   := $(shell $(LLVM_CONFIG) --includedir 2>/dev/null)
LLVM_LIBDIR := $(shell $(LLVM_CONFIG) --libdir 2>/dev/null)
LLVM_SHLIB := $(firstword $(wildcard $(LLVM_LIBDIR)/libLLVM-19.so $(LLVM_LIBDIR)/libLLVM.so))
LLVM_SONAME := $(if $(LLVM_SHLIB),$(shell readelf -d $(LLVM_SHLIB) 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'))
BASEFLAGS  += $(if $(LLVM_INC),-isystem $(LLVM_INC))
BASEFLAGS  += -DPTXSIM_LLVM_SONAME='"$(LLVM_SONAME)"' -DPTXSIM_LLVM_PATH='"$(LLVM_LIBDIR)/$(LLVM_SONAME)"'
LIBS       := -lzstd -llz4 -lz -lffi -lpthread -lm -ldl
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm -lpthread)

# Sources: every .c below a layer folder (mechanism subfolders included), plus the lexer and
# parser that flex and bison generate from frontend/*.l and frontend/*.y.
find_c      = $(shell find $(1) -name '*.c' 2>/dev/null | sort)
LEX_SRC    := $(wildcard frontend/*.l)
YACC_SRC   := $(wildcard frontend/*.y)
GEN_C      := $(patsubst frontend/%.l,$(B)/gen/%.c,$(LEX_SRC)) $(patsubst frontend/%.y,$(B)/gen/%.c,$(YACC_SRC))
GEN_H      := $(patsubst frontend/%.y,$(B)/gen/%.h,$(YACC_SRC))
# The GPU descriptions (timing/configs/*.gpu), embedded as strings so the library needs no file.
GPU_CONFIGS := $(sort $(wildcard timing/configs/*.gpu))
GEN_C      += $(B)/gen/gpu_configs.c
CORE_SRC   := $(foreach l,$(LAYERS),$(call find_c,$(l)))
SHIM_SRC   := $(call find_c,$(SHIM_DIR))
DRV_SRC    := $(call find_c,$(DRV_DIR))
NVRTC_SRC  := $(call find_c,$(NVRTC_DIR))
CLI_SRC    := $(call find_c,cli)
UNIT_SRC   := $(wildcard tests/unit/test_*.c)
UNIT_HELPERS := $(filter-out $(UNIT_SRC),$(wildcard tests/unit/*.c))

obj         = $(patsubst %.c,$(1)/obj/%.o,$(patsubst $(B)/gen/%,gen/%,$(2)))
CORE_OBJ   := $(call obj,$(B),$(CORE_SRC) $(GEN_C))
SHIM_OBJ   := $(call obj,$(B),$(SHIM_SRC))
DRV_OBJ    := $(call obj,$(B),$(DRV_SRC))
NVRTC_OBJ  := $(call obj,$(B),$(NVRTC_SRC))
CLI_OBJ    := $(call obj,$(B),$(CLI_SRC))
ACORE_OBJ  := $(call obj,$(B)/asan,$(CORE_SRC) $(GEN_C))
ASHIM_OBJ  := $(call obj,$(B)/asan,$(SHIM_SRC))
AHELP_OBJ  := $(call obj,$(B)/asan,$(UNIT_HELPERS))
UNIT_BIN   := $(patsubst tests/unit/%.c,$(B)/asan/tests/%,$(UNIT_SRC))
# The same suites without ASan, for check-quick and the mutants. They link the core as a
# shared library (order-only): a change in the emulator rebuilds one library, not every test.
QHELP_OBJ  := $(call obj,$(B),$(UNIT_HELPERS))
QUNIT_BIN  := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(UNIT_SRC))
QCORE_SO   := $(B)/tests/lib/libptxsim-tests.so
# Parallel jobs of the builds check, check-quick and mutants start (unless make has -j).
JOBS       ?= 2
# (recipes run it as `+$(SUBMAKE)`: make passes its job slots only to lines it knows are make)
SUBMAKE     = $(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))

USER_HEADERS := $(patsubst include/%,$(B)/include/%,$(wildcard include/ptxsim/*.h))
PTXSIM     := $(B)/bin/ptxsim
SHIM_SO    := $(B)/lib/libcudart.so.13
SHIM12_SO  := $(B)/lib/libcudart.so.12
SHIM11_SO  := $(B)/lib/libcudart.so.11.0
CORE_SO    := $(B)/lib/libptxsim.so
DRV_SO     := $(B)/lib/libcuda.so.1
NVRTC_SO   := $(B)/lib/libptxsim-nvrtc.so
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

.PHONY: all deps check check-quick check-full mutants demo bench clean unit-tests quick-unit-tests \
        cuda-tests fuzz fuzz-deps
.DEFAULT_GOAL := all
.SECONDARY:

all: $(PTXSIM) $(SHIM_SO) $(SHIM12_SO) $(SHIM11_SO) $(DRV_SO) $(NVRTC_SO) $(USER_HEADERS)

# Headers for the programs ptxsim runs (include/ptxsim/: kilotm.h's transaction markers), placed
# next to the shims as $(B)/include/ptxsim/ so that `nvcc -I$(B)/include` finds them.
$(B)/include/ptxsim/%.h: include/ptxsim/%.h
	@mkdir -p $(@D)
	cp $< $@

# ---------------------------------------------------------------- dependencies
# libjansson-dev: JSON for ptxsim sweep/plot; gnuplot-nox draws ptxsim plot's charts; slurmctld,
# slurmd, slurm-client and munge are the one-node Slurm cluster tests/suites/sweep.sh starts.
DEB_PACKAGES := flex bison check pkg-config libzstd-dev liblz4-dev zlib1g-dev libffi-dev llvm-19-dev \
                libjansson-dev gnuplot-nox slurmctld slurmd slurm-client munge
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

$(B)/gen/gpu_configs.c: $(GPU_CONFIGS) Makefile
	@mkdir -p $(dir $@)
	@{ echo '/* generated by the Makefile from timing/configs/NAME.gpu: do not edit */'; \
	  echo '#include <stddef.h>'; \
	  echo 'const char *const timing_gpu_files[][2] = {'; \
	  for f in $(GPU_CONFIGS); do \
	    echo "  {\"$$(basename $$f .gpu)\","; \
	    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$$/\\n"/' $$f; \
	    echo '  },'; \
	  done; \
	  echo '};'; \
	  echo 'const size_t timing_gpu_file_count = sizeof timing_gpu_files / sizeof timing_gpu_files[0];'; \
	} >$@.tmp && mv -f $@.tmp $@

# The JIT translator's identity for its disk cache's keys (emulator/jit/input_key.c): a hash of
# its sources, of every header of the layers it reads and of the files that define what it
# calls or reads while it translates (the type tables, emu_imm_convert), so that an edit to
# any of them (one not committed included) never loads code the translator made before it.
# Only input_key.o depends on it.
JIT_KEY_SOURCES := $(sort $(wildcard emulator/jit/*.c emulator/jit/*.h) \
                     $(shell find emulator frontend -name '*.h' 2>/dev/null) \
                     emulator/sem/sem_types.c emulator/decode/decode.c)
$(B)/gen/jit_source_hash.h: $(JIT_KEY_SOURCES)
	@mkdir -p $(dir $@)
	@{ echo '/* generated by the Makefile from the JIT translator'"'"'s sources: do not edit */'; \
	  echo "#define EMU_JIT_SOURCE_HASH \"$$(cat $(JIT_KEY_SOURCES) | sha256sum | cut -c1-64)\""; \
	} >$@.tmp && mv -f $@.tmp $@
$(B)/obj/emulator/jit/input_key.o $(B)/asan/obj/emulator/jit/input_key.o: $(B)/gen/jit_source_hash.h

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

-include $(shell find $(B)/obj $(B)/asan/obj -name '*.d' 2>/dev/null)
# the unit tests are compiled and linked in one step: their header dependencies sit beside them
-include $(wildcard $(B)/asan/tests/*.d $(B)/tests/unit/*.d)

# ---------------------------------------------------------------- products
$(CORE_A): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(ACORE_A): $(ACORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The runtime and the layers below it are one shared library, libptxsim.so, so that every shim
# loaded into a process (the CUDA runtime's, the driver's, the NVRTC interposer) shares one
# device, one set of modules and one device worker. It exports the runtime's interface (rt_*)
# only; each shim finds it beside itself ($ORIGIN).
$(CORE_SO): $(CORE_OBJ) runtime/libptxsim.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libptxsim.so -Wl,--version-script=runtime/libptxsim.map \
	  -Wl,--no-undefined -Wl,-z,nodelete $(LINK_SAN) -o $@ $(CORE_OBJ) $(LIBS)
USE_CORE   = $(CORE_SO) -Wl,-rpath,'$$ORIGIN' $(LIBS)

# The shim exports the CUDA runtime ABI under the version nodes nvcc's binaries ask for;
# everything else stays local so it cannot clash with the application's symbols.
SHIM_LDFLAGS = -shared -Wl,-soname,libcudart.so.13 -Wl,--version-script=$(SHIM_DIR)/libcudart.map \
               -Wl,--no-undefined -Wl,-z,nodelete
$(SHIM_SO): $(SHIM_OBJ) $(CORE_SO) $(SHIM_DIR)/libcudart.map
	@mkdir -p $(dir $@)
	$(CC) $(SHIM_LDFLAGS) $(LINK_SAN) -o $@ $(SHIM_OBJ) $(USE_CORE)
	ln -sf libcudart.so.13 $(B)/lib/libcudart.so
# The same objects answer CUDA 12 programs under their soname and version node.
$(SHIM12_SO): $(SHIM_OBJ) $(CORE_SO) $(SHIM_DIR)/libcudart12.map
	@mkdir -p $(dir $@)
	$(CC) $(subst .map,12.map,$(subst so.13,so.12,$(SHIM_LDFLAGS))) $(LINK_SAN) -o $@ $(SHIM_OBJ) $(USE_CORE)
# CUDA 11 programs, and the texture and surface reference API that CUDA 12 removed.
$(SHIM11_SO): $(SHIM_OBJ) $(CORE_SO) $(SHIM_DIR)/libcudart11.map
	@mkdir -p $(dir $@)
	$(CC) $(subst .map,11.map,$(subst so.13,so.11.0,$(SHIM_LDFLAGS))) $(LINK_SAN) -o $@ $(SHIM_OBJ) $(USE_CORE)
# The driver API (libcuda.so.1, unversioned symbols as NVIDIA's are).
$(DRV_SO): $(DRV_OBJ) $(CORE_SO) $(DRV_DIR)/libcuda.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libcuda.so.1 -Wl,--version-script=$(DRV_DIR)/libcuda.map \
	  -Wl,--no-undefined -Wl,-z,nodelete $(LINK_SAN) -o $@ $(DRV_OBJ) $(USE_CORE)
	ln -sf libcuda.so.1 $(B)/lib/libcuda.so
# The NVRTC interposer: forwards to the toolkit's libnvrtc (found at run time), recording the
# PTX of programs compiled for a real architecture so their cubins can be loaded.
$(NVRTC_SO): $(NVRTC_OBJ) $(CORE_SO) $(NVRTC_DIR)/libnvrtc-shim.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libptxsim-nvrtc.so -Wl,--version-script=$(NVRTC_DIR)/libnvrtc-shim.map \
	  -Wl,--no-undefined -Wl,-z,nodelete $(LINK_SAN) -o $@ $(NVRTC_OBJ) $(USE_CORE)
$(ASHIM_SO): $(ASHIM_OBJ) $(ACORE_A) $(SHIM_DIR)/libcudart.map
	@mkdir -p $(dir $@)
	$(CC) $(SHIM_LDFLAGS) -fsanitize=address,undefined -o $@ $(ASHIM_OBJ) $(ACORE_A) $(LIBS)

# The command also reads and writes JSON (sweep plans, summaries); the shim does not.
CLI_LIBS   := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson)
$(PTXSIM): $(CLI_OBJ) $(CORE_A)
	@mkdir -p $(dir $@)
	$(CC) $(LINK_SAN) -o $@ $(CLI_OBJ) $(CORE_A) $(CLI_LIBS) $(LIBS)

# ---------------------------------------------------------------- tests
$(B)/asan/tests/%: tests/unit/%.c $(AHELP_OBJ) $(ACORE_A)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(ASANFLAGS) -Wno-error=shadow -MMD -MP -MF $@.d -o $@ $< $(AHELP_OBJ) \
	  $(ACORE_A) $(CHECK_LIBS) $(LIBS)

$(QCORE_SO): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libptxsim-tests.so -o $@ $(CORE_OBJ) $(LIBS)
$(B)/tests/unit/%: tests/unit/%.c $(QHELP_OBJ) | $(QCORE_SO)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) -Wno-error=shadow -MMD -MP -MF $@.d -o $@ $< $(QHELP_OBJ) \
	  -L$(dir $(QCORE_SO)) \
	  -lptxsim-tests -Wl,-rpath,'$$ORIGIN/../lib' $(CHECK_LIBS) $(LIBS)

unit-tests: $(UNIT_BIN)
quick-unit-tests: $(QUNIT_BIN) $(QCORE_SO)

check: deps
	@+$(SUBMAKE) all $(UNIT_BIN) $(CHECK_EXTRA)
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
FUZZ_SEEDS_ptx := tests/ptx/corpus tests/ptx/emu tests/ptx/engine tests/ptx/frontend tests/ptx/handwritten \
                  tests/fuzz/regressions/ptx
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

check-quick: deps
	@+$(SUBMAKE) all $(QUNIT_BIN)
	@NVCC="$(NVCC)" B="$(B)" PTXSIM_QUICK=1 bash tests/run_all.sh

mutants: deps
	@NVCC="$(NVCC)" JOBS="$(JOBS)" MUTANT="$(MUTANT)" bash tests/mutants/run_mutants.sh

demo: deps
	@+$(SUBMAKE) all
	@NVCC="$(NVCC)" B="$(B)" bash examples/run_demo.sh

bench: all
	@NVCC="$(NVCC)" B="$(B)" bash bench/run_all.sh

clean:
	rm -rf $(B)
