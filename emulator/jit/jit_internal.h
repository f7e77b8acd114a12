/* jit_internal.h: the LLVM-C JIT's own interface between its translator and its engine.
 *
 * The JIT compiles one function's µops into one LLVM function (emu_jit_entry): the block
 * interpreter's inner loop (interp/run.c) unrolled over the µops, with a switch on the entry pc,
 * chained across blocks while the warp's SIMT top stays the one it entered with. Simple integer
 * and f32 µops become vector code over the 32 lanes of their register rows; every other µop
 * calls the interpreter's own handler, so what is not translated is bit-identical by
 * construction and every function can be compiled. Launches with an event sink run a second
 * variant of it (EMU_JIT_EVENTS), which records every µop's event as the interpreter's loop
 * does and ends a cycle model's run-ahead where that loop ends it (translate.c). */
#ifndef PTXSIM_EMULATOR_JIT_JIT_INTERNAL_H
#define PTXSIM_EMULATOR_JIT_JIT_INTERNAL_H

#include "emulator/emu_internal.h"

#include "emulator/jit/llvm_api.h"

/* What a translation did, for --verbose and the bench. */
typedef struct emu_jit_counts {
    uint32_t uops;            /* µops in the function */
    uint32_t native;          /* translated to LLVM IR */
    uint32_t called;          /* calling the interpreter's handler */
    uint32_t loops;           /* loop segments: blocks that branch back to themselves, their rows
                                 kept in registers across iterations (translate.c) */
} emu_jit_counts;

/* The symbol by which compiled code reads emu_device_generation's counter, a uint64_t loaded
 * with acquire order (emu_device_generation_word; defined when the JIT is made): compiled code
 * names no address of the process, so another process can load it from the disk cache
 * (engine.c). */
#define EMU_JIT_DEVICE_GENERATION "ptxsim_jit_device_generation_word"
/* The symbol of emu_jit_refill: uint8_t (uint64_t *hit, uint64_t a0, uint64_t size, uint64_t gen),
 * exec_mem.c's fast-path miss for compiled code: the access site's entry of emu_warp.jit_hit
 * (base, end, generation) becomes the allocation holding [a0, a0 + size) at device generation
 * gen (1), or stays as it was when there is none (0: the handler's general path then reports
 * the bad address). */
#define EMU_JIT_REFILL "ptxsim_jit_refill"
/* The symbol of emu_jit_resume (emu_internal.h), which compiled code calls where its warp's
 * SIMT stack changed, to go on at the next path without returning. */
#define EMU_JIT_RESUME "ptxsim_jit_resume"
/* The symbol of emu_symbol_address (emu_internal.h): a variable's generic address, the same in
 * every lane of the warp, for a µop that names the variable (mov %rd, sh). */
#define EMU_JIT_SYMBOL_ADDRESS "ptxsim_jit_symbol_address"

/* The symbol of emu_jit_call_handler (call_handler.c): uint8_t (emu_ctx *c, const emu_uop *u,
 * uint32_t pc, uint32_t mask): runs µop u (at pc, lanes mask) through its handler as the
 * interpreter's loop does; 1 when the run may go on at pc + 1 (no stop, no control moved),
 * else 0 (compiled code then reads c->stop, c->control and c->next_pc as after any handler). */
#define EMU_JIT_CALL_HANDLER "ptxsim_jit_call_handler"
uint8_t emu_jit_call_handler(emu_ctx *c, const emu_uop *u, uint32_t pc, uint32_t mask);

/* The symbol of emu_barrier_sync_converged (emu_internal.h): bool (emu_ctx *c, uint32_t id,
 * uint32_t next_pc, uint32_t mask), a converged warp's bar.sync arrival (translate.c's
 * emit_bar_sync). */
#define EMU_JIT_BAR_SYNC "ptxsim_jit_bar_sync"

/* Builds the compiled code of f as function `name` of module m: its event variant when events
 * (translate.c). False (with a reason in err) when f cannot be compiled. */
bool emu_jit_translate(const emu_func *f, bool events, LLVMModuleRef m, const char *name,
                       emu_jit_counts *counts, char *err, size_t errlen);
/* Whether µop u has a native translation (the rest call their handler). */
bool emu_jit_translates(const emu_code *code, const emu_uop *u);
/* lane_stride.c: stride[slot] (nslots of them) the step from lane to lane of each register
 * slot's value as the function's integer arithmetic on %tid.x predicts it (a prediction for
 * the translator's choice of code, never relied on for a result), or EMU_JIT_STRIDE_VARYING */
#define EMU_JIT_STRIDE_VARYING INT64_MIN
void emu_jit_lane_strides(const emu_code *code, int64_t *stride, uint32_t nslots);

/* cache.c: a 128-bit key over text and bytes (two FNV-1a lanes, each mixed at the end), and
 * the disk cache: one file per key in folder dir, written whole or not at all, checked on
 * load (a damaged one is ignored, with a note when verbose), oldest files removed past
 * max_bytes. */
typedef struct emu_jit_key { uint64_t h[2]; } emu_jit_key;
void emu_jit_key_init(emu_jit_key *k);
void emu_jit_key_add_bytes(emu_jit_key *k, const void *data, size_t n);
void emu_jit_key_add(emu_jit_key *k, const char *text);   /* with its terminator */
void emu_jit_key_finish(emu_jit_key *k);
void emu_jit_key_hex(const emu_jit_key *k, char out[33]);
/* input_key.c: adds to k everything emu_jit_translate reads to translate f (its variant
 * events), by value, and the translator's identity (EMU_JIT_SOURCE_HASH, made by the Makefile) */
void emu_jit_key_add_inputs(emu_jit_key *k, const emu_func *f, bool events);
/* the object stored under k, or NULL */
LLVMMemoryBufferRef emu_jit_cache_load(const char *dir, const emu_jit_key *k, const char *fname,
                                       bool verbose);
bool emu_jit_cache_store(const char *dir, uint64_t max_bytes, const emu_jit_key *k, const void *obj,
                         size_t size);

/* dump.c: PTXSIM_JIT_DUMP=DIR writes a compiled function's optimised IR and assembly there;
 * PTXSIM_JIT_PERF_MAP=1 names linked code in /tmp/perf-<pid>.map (emu_jit_symbol_size is 0
 * when that is off, and emu_jit_perf_map then writes nothing). */
void emu_jit_dump_module(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *symbol,
                         const char *fname);
uint64_t emu_jit_symbol_size(LLVMMemoryBufferRef obj, const char *symbol);
void emu_jit_perf_map(uint64_t addr, uint64_t size, const char *symbol, const char *fname);

#endif
