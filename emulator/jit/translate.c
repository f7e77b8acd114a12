/* translate.c: one function's µops as LLVM IR, obeying the executor contract as the block
 * interpreter's inner loop does (interp/run.c), step by step:
 * - the entry switch goes to the µop at the warp's pc; each µop first checks the budget, or in
 *   a long straight segment of the plain variant each stretch of JIT_STRETCH µops checks it
 *   for all of its µops, in a barrier-bound function a short segment checks it once for all
 *   of its µops (whole_budget()), and a loop segment's fast copy checks it once per iteration
 *   at its head (emit_fast_loop()); the interpreter's loop runs the µops a short budget
 *   leaves, and those from a pc without a compiled entry (inside a stretch, or not a
 *   barrier-bound function's run entry: run_entry()) to the next one (EMU_JIT_INTERPRET);
 * - a µop's mask is the SIMT top's lanes and its guard; it counts one whether or not a lane
 *   runs it (w->ninstr is stored before every handler call, so %clock and the policies see the
 *   interpreter's count);
 * - a µop without a translation stores what its handler reads in the context (mask, pc,
 *   next pc, the µop; the SIMT top's pc for one that may stop or change control) and calls it;
 *   a fault, a stop or a rewritten stack ends the run where the interpreter's loop ends it;
 * - at the end of a block, and after a branch, the run goes on in compiled code directly when
 *   the interpreter's outer loop would pick the same SIMT entry of the same frame again with
 *   nothing to settle (the dispatch block checks that from the warp itself; a loop segment's
 *   back edge checks the same and jumps to its head directly: see open_loop); where the entry
 *   changed (a divergent branch's handler pushed its paths, a path reached its reconvergence
 *   point, lanes exited) emu_jit_resume settles the stack as that loop does and the run goes on
 *   at the path it would pick, with that path's lanes, while it is in the same frame of this
 *   function and waits at no barrier; else it returns.
 * - ld.param of the kernel's own parameters reads the launch's parameter block directly, as
 *   exec_mem.c's fast path does;
 * - the event variant (launches with a sink) also writes each µop's event header before it
 *   (inline: the executor's loop gives it a ring with room for its budget, and the sink sees
 *   none of them before the call returns, so w->ninstr is stored only where a handler runs),
 *   records the events of the shared loads and stores and ld.param it runs natively, calls
 *   the handlers of the µops that fill event fields (other loads and stores, branches) with
 *   the event set, writes a handler's stop into its event, and stops a run-ahead before a
 *   timed or shared-state µop as run.c's loop does.
 * Translated µops are vector code over the 32 lanes of their rows: inactive lanes are blended
 * back, so nothing outside the mask changes. Floating point follows sem.h exactly: plain IEEE
 * operations with no fast-math flags, ftz as its bit rule, the canonical f32 NaN. */
#include "emulator/jit/jit_internal.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most rows a loop segment carries in phis (the register cache holds 64). */
#define JIT_LOOP_ROWS 48
#define NO_LOOP UINT32_MAX

typedef struct {
    uint32_t row;
    LLVMValueRef v, low, f, alt, flag;
    bool dirty, dirty_live, pred;
} cache_entry;

/* What a 32-bit shared load of the warp's lanes found of their addresses (emit_mem's shapes),
 * kept for the loads after it in the segment through the same base row (row, accesses of es
 * bytes): state (i8) SHAPE_UNIFORM, SHAPE_CONSECUTIVE or SHAPE_OTHER where the run came from
 * that load only by falling from µop to µop (the row then holds the same value and the warp
 * the same lanes), SHAPE_UNKNOWN where it came in through a side entry. Adding the same
 * constant to every lane (another imm) keeps both shapes, which compare addresses modulo 2^32.
 * SHAPE_CHECKED on a whole warp's uniform or consecutive shape: the first load also checked
 * the offsets of every later load that may take the shape (shape_range: the same row and
 * element size until the row is written or the chain ends), which need no check then. */
enum { SHAPE_UNKNOWN, SHAPE_UNIFORM, SHAPE_CONSECUTIVE, SHAPE_OTHER, SHAPE_CHECKED = 4 };
typedef struct {
    uint32_t row, es;
    LLVMValueRef state;
} shared_shape;
#define JIT_SHAPES 4

typedef struct tr {
    LLVMContextRef cx;
    LLVMModuleRef m;
    LLVMBuilderRef b;
    LLVMValueRef fn;
    LLVMTypeRef i1, i8, i16, i32, i64, ptr, f32, v64, v32, vb, vf;
    LLVMValueRef c, pc_arg, budget;
    LLVMValueRef cnt_slot, npc_slot, regs_slot;
    /* The count within a segment: left_slot holds budget - (the count at the segment's first
     * µop, as if the run had come in there), so µop k of the segment is over the budget when
     * k >= left (a compare with a constant), and the count is budget - left + k, made where it
     * is needed (count()): the fall from one µop to the next changes nothing. cnt_slot holds
     * the count wherever the run leaves the segment's µops (sync_count, count_one), which is
     * where the dispatch, resume and return blocks read it (in_seg false while they are
     * emitted). Both are slots: mem2reg makes their phis. */
    LLVMValueRef left_slot;
    bool in_seg;
    uint32_t seg_first, seg_k;
    /* the handler µop being called writes at most the rows of its operands and goes on in
     * this segment: its return keeps the other cached rows (handler_keeps_cache) */
    bool keep_cache;
    LLVMValueRef lanes_slot;   /* emit_mem's lane addresses, stored once for its lane reads */
    /* the depth of the SIMT stack whose top the run is on, changed where the run goes on at
     * another path (emit_dispatch's resume; its lanes are then c->active, which every µop
     * reads: active); kept in memory (volatile), so that it is no value live everywhere */
    LLVMValueRef sp_slot;
    LLVMValueRef w, uops, active, base_ninstr, nframes0;
    /* side[i] is NULL where no run comes in at µop i but by falling from i - 1 (a stretch's
     * inside: see stretch_budget()); the switches' case at a µop without a side entry or run
     * entry (run_entry()) is to_interp[j], j the next µop that has both: it stores j in
     * c->next_pc for interp, which returns EMU_JIT_INTERPRET at npc */
    LLVMBasicBlockRef *bb, *side, *to_interp, dispatch, resume, exit_pc, ret, interp;
    /* next_entry[i]: the first µop from i on that has a run entry of its own (t->n if none),
     * where a run that ends before i with EMU_JIT_INTERPRET comes back into compiled code */
    uint32_t *next_entry;
    /* where a memory access's slow path leaves when its handler stopped or moved control
     * (emit_slow_access; one per function) */
    LLVMBasicBlockRef slow_out;
    LLVMBasicBlockRef fall;   /* the block that falls through into the next µop's */
    const emu_func *f;
    const emu_code *code;
    uint32_t n;
    emu_jit_counts *counts;
    /* the event variant: every µop records its event (emit_event) and obeys the run-ahead
     * rule; µops whose handler fills event fields (memory but shared accesses, branches)
     * call it */
    bool events;
    /* The register cache: within a segment (a run of translated µops of one block, each
     * entered from the one before, JIT_SEGMENT at most), the rows read or written so far as
     * SSA values. A result that may be read after the segment is stored at once; one that is
     * not (a temporary, by liveness()) stays `dirty` in the cache and is stored only where a
     * run leaves while it is live: a budget exit, a handler call. So
     * where a run leaves, memory holds every row a later µop may read before writing it (a
     * dead temporary may hold an older value: no executor reads it). A segment's
     * first µop starts empty; a run that starts inside a segment, and the return from a
     * handler or a memory access's slow path, come in through side[i], which loads the cached
     * rows, joined with the cached values by phis (LLVM drops those no later µop reads). */
    bool *seg_start;
    uint32_t ncache;
    /* v: the row (<32 x i64>); low: its lanes' low halves (<32 x i32>) when the row was
     * written as the zero extension of those (a 32-bit result), else NULL: 32-bit reads take
     * them, so the extension and truncation fold away between two f32 µops.
     * A predicate (pred) is cached as its whole i64 word (the lanes' bits, emu_put_pred's merge
     * of the old word done), so storing it writes exactly what put_pred would have written.
     * f (in a loop segment, whose results go round in registers, and in a segment checked by
     * stretches, whose exits are few: put_f32): an f32 result as
     * the operation gave it (<32 x float>, .ftz applied), before
     * sem_float_out_f32 makes a NaN the canonical 0x7fffffff: the row holds that canonical
     * form, which only a reader of the bits sees (a store to the rows or memory, an integer or
     * bit operation, mov into another row: they take cached_low). The float operations whose
     * result sem.h makes canonical again (add ... fma, div, sqrt, min/max, ex2/lg2, cvt.f32.f32,
     * setp: their result depends on whether an input is a NaN, never on its bits) read f
     * itself (f32_in), so the canonicalising select runs only where a value leaves the
     * compiled code's SSA values (Mandelbrot's loop: none per iteration). With f, v and low
     * may be NULL until a bit reader asks (made there: cached_low). Where a run comes in
     * through a side entry (or a loop's head from outside) the row's bits are what it loaded,
     * which need not be a canonical NaN's: f is then those bits (a NaN where they are one),
     * alt the bits and flag (i1) true, so the row holds flag ? alt : canonical(f); flag NULL
     * is false. */
    cache_entry cache[64];
    /* Write-back: a result is stored only where the run may leave the segment with the row
     * live (see liveness()): before a handler call, at a budget exit, and at the segment's
     * end. live[i] is the set of rows (bit row/32) some
     * thread may read after reaching µop i before writing them, NULL when unknown (all). */
    uint64_t *live;
    uint32_t live_words;
    uint32_t seg_last;   /* the last µop of the segment being translated */
    /* A loop segment: a whole block that ends with a branch back to its own first µop (see
     * loop_segment()). The rows live at its head that it reads or writes are phis there,
     * joined from the side entry's loads and from the back edge's cached values, so a
     * uniform back edge whose dispatch conditions hold jumps to the head directly with the
     * rows in registers: a result is then stored only where the run leaves (budget exits,
     * handler calls and slow paths, the loop's exit), never per iteration. */
    bool *loop_seg;
    /* looped[i]: µop i lies in a loop (a branch at or after it goes back to it or before) */
    bool *looped;
    /* the segment being translated checks its budget once, where a run comes in (whole_budget) */
    bool seg_whole;
    /* the plain variant of a function with a barrier: its runs start only at run_entry µops,
     * and its short segments outside loops check their budget once (whole_budget) */
    bool barrier_bound;
    /* where the entry and dispatch switches go for µop i: side[i], a check of the budget
     * before it (entry_check), or to_interp */
    LLVMBasicBlockRef *entry;
    uint32_t loop_head;   /* the head of the loop segment being translated, or NO_LOOP */
    /* A loop segment of the plain variant is translated twice (emit_fast_loop): its fast
     * copy, in fast_bb, which the head enters when the budget left covers a whole iteration
     * and which then has no budget check, no side entry and no phi inside, and the checked
     * copy, in bb, an ordinary segment (a budget check before every µop, a side entry at
     * every µop: where runs start and end mid-iteration, and where the fast copy's handler
     * calls and slow paths return). fast: the fast copy is being translated; checked_head:
     * the checked copy's first block, where the head goes on when the budget is short. */
    bool fast;
    LLVMBasicBlockRef *fast_bb, checked_head;
    bool stretch;         /* the segment being translated checks its budget by stretches */
    uint32_t nloop;
    uint32_t nprefetch;   /* global load sites given a prefetch hint (emit_mem) */
    uint32_t loop_row[JIT_LOOP_ROWS];
    LLVMValueRef loop_phi[JIT_LOOP_ROWS];
    bool loop_narrow[JIT_LOOP_ROWS];   /* the phi holds the row's 32-bit halves */
    bool loop_pred[JIT_LOOP_ROWS];     /* the phi holds a predicate's word (i64) */
    bool loop_raw[JIT_LOOP_ROWS];      /* the phi holds an f32 result before its NaN is made
                                        * canonical (the cache's f), loop_alt and loop_flag
                                        * its alt and flag */
    LLVMValueRef loop_alt[JIT_LOOP_ROWS], loop_flag[JIT_LOOP_ROWS];
    /* true where the run came round the loop's back edge and, since, only fell from µop to
     * µop (no side entry: no handler ran, no resume), so that the warp's SIMT stack and frame
     * are as the back edge last checked them (emit_back_edge); a slot, made a phi by mem2reg */
    LLVMValueRef loop_ok_slot;
    /* The shapes of shared addresses known in the segment (see shared_shape): a 32-bit shared
     * load's half-warp shape, kept for its base row while the run falls from µop to µop */
    shared_shape shape[JIT_SHAPES];
    uint32_t nshape;
    /* The run's shared block as 32-bit shared accesses check it (shared_block), made in the
     * entry block at the first use: the block, and per access size (1 << k bytes) whether
     * the fast path may take such accesses and the last offset one may start at */
    LLVMValueRef smem, smem_ok[6], smem_last[6];
    /* What ld.param reads of its run (param_block), made in the entry block at the first use:
     * whether the fast path may take parameters, the module's symbols, the launch's parameter
     * block and its size */
    LLVMValueRef param_ok, param_syms, param_base, param_size;
    /* Chained segments (chain_rows()): where a segment ends at the start of a chain head (a
     * uniform branch's either way, a fall into the next block; edge_to also serves a loop
     * segment's exit, though a function with a loop segment does not chain), the run goes
     * on there when the dispatch block would, its register rows live there carried as phis of
     * the head instead of stored and loaded again; chain: this function chains (not the event
     * variant, at most JIT_CHAIN_UOPS µops, no loop segment: see emu_jit_translate);
     * slot_kind: each register slot's kind (slot_kinds());
     * chain_phi: JIT_CHAIN_ROWS phis per head, made at its first edge or its emission */
    bool chain;
    bool *chain_head;
    uint8_t *slot_kind;
    LLVMValueRef *chain_phi;
    bool *chain_made;
    /* chain_dirty (JIT_CHAIN_ROWS per head): the phi may hold a value not stored (a way in
     * carries one dirty); gathered from the ways in emitted before the head (chain_edge),
     * fixed when it opens (open_chain), after which a way in with a dirty value where the
     * phi is clean stores it */
    bool *chain_dirty;
    bool *chain_open;
    /* chain_all[s]: chain head s carries every register row live there, also those its
     * segment does not name (a function without a loop: chain_all_fit()) */
    bool *chain_all;
    /* each register slot's predicted step from lane to lane (emu_jit_lane_strides), or NULL */
    int64_t *stride;
} tr;

/* The most µops in one segment (bounds the phis of a side entry: compile time grows with
 * both), and in a loop segment, whose rows stay in registers across iterations. 128: a
 * straight-line block is one segment, so a result read only within it never reaches the
 * register file (rows of 256 B, hundreds of KB per CTA: the engine turns through every
 * resident CTA, so a row written has left the host caches and its masked stores wait on the
 * line); what no longer fits in registers spills to the stack, which stays in L1 (kernel CPU
 * time, --quantum=1000, least of 3, load 10-12: Black-Scholes 4M 311 ms at 32, 270 at 64, 208
 * at 128; matmul 512 264 -> 244, n-body and Mandelbrot (loop segments) the same; compiling
 * Black-Scholes takes about 1.6x as long, 1.2 -> 2.0 s under that load, the others about the
 * same). (16 -> 32 before: Black-Scholes 527 -> 478 ms, n-body 322 -> 276, matmul 248 -> 226.)
 * A loop segment's bound covers unrolled
 * bodies such as n-body's (65 µops: four bodies of 16): with 32 such a loop was ordinary
 * segments whose back edge went through the dispatch block, every row stored and reloaded per
 * iteration (its kernel 19% slower; compiling it costs about 1.3-1.9x as much). */
#define JIT_SEGMENT 128
#define JIT_LOOP_SEGMENT 96
/* The µops of a stretch (stretch_budget()): the budget is checked once per stretch; and the
 * fewest µops of a segment checked so (a shorter one checks before every µop: vecadd's, of
 * 10 and 11 µops, ran its kernel in 87-90 ms by stretches, 74-76 ms without; Black-Scholes,
 * matmul, Mandelbrot, reduce, transpose the same at 1, 16 and 32 within noise, load 8). */
#define JIT_STRETCH 32
#define JIT_STRETCH_SEGMENT 16

/* ---------------------------------------------------------------- small builders */

static LLVMValueRef ci32(tr *t, uint64_t v) { return LLVMConstInt(t->i32, v, false); }
static LLVMValueRef ci64(tr *t, uint64_t v) { return LLVMConstInt(t->i64, v, false); }

static LLVMValueRef splat64(tr *t, uint64_t v)
{
    LLVMValueRef e[EMU_WARP_SIZE];
    for (int i = 0; i < EMU_WARP_SIZE; i++) e[i] = ci64(t, v);
    return LLVMConstVector(e, EMU_WARP_SIZE);
}

static LLVMValueRef splat32(tr *t, uint64_t v)
{
    LLVMValueRef e[EMU_WARP_SIZE];
    for (int i = 0; i < EMU_WARP_SIZE; i++) e[i] = ci32(t, v);
    return LLVMConstVector(e, EMU_WARP_SIZE);
}

/* base + off bytes */
static LLVMValueRef field(tr *t, LLVMValueRef base, size_t off)
{
    LLVMValueRef idx = ci64(t, off);
    return LLVMBuildGEP2(t->b, t->i8, base, &idx, 1, "");
}

static LLVMValueRef load(tr *t, LLVMTypeRef ty, LLVMValueRef p)
{
    return LLVMBuildLoad2(t->b, ty, p, "");
}

static LLVMValueRef ctx_field(tr *t, size_t off) { return field(t, t->c, off); }
static LLVMValueRef warp_field(tr *t, size_t off) { return field(t, t->w, off); }

/* The warp's SIMT top, read from the warp (handlers may have moved the stack). */
static LLVMValueRef top_entry(tr *t)
{
    LLVMValueRef stack = load(t, t->ptr, warp_field(t, offsetof(emu_warp, stack)));
    LLVMValueRef sp = load(t, t->i32, warp_field(t, offsetof(emu_warp, sp)));
    LLVMValueRef i = LLVMBuildZExt(t->b, LLVMBuildSub(t->b, sp, ci32(t, 1), ""), t->i64, "");
    LLVMValueRef off = LLVMBuildMul(t->b, i, ci64(t, sizeof(emu_simt)), "");
    return LLVMBuildGEP2(t->b, t->i8, stack, &off, 1, "");
}

static void store_top_pc(tr *t, LLVMValueRef pc)
{
    LLVMBuildStore(t->b, pc, field(t, top_entry(t), offsetof(emu_simt, pc)));
}

static LLVMValueRef count(tr *t)
{
    if (!t->in_seg) return load(t, t->i64, t->cnt_slot);
    LLVMValueRef left = load(t, t->i64, t->left_slot);
    return LLVMBuildAdd(t->b, LLVMBuildSub(t->b, t->budget, left, ""), ci64(t, t->seg_k), "");
}

/* cnt_slot = the count, before the run leaves the segment's µops */
static void sync_count(tr *t)
{
    if (t->in_seg) LLVMBuildStore(t->b, count(t), t->cnt_slot);
}

static void count_one(tr *t)
{
    if (!t->in_seg) {
        LLVMBuildStore(t->b, LLVMBuildAdd(t->b, count(t), ci64(t, 1), ""), t->cnt_slot);
        return;
    }
    LLVMValueRef left = load(t, t->i64, t->left_slot);
    LLVMBuildStore(t->b, LLVMBuildSub(t->b, left, ci64(t, 1), ""), t->left_slot);
    sync_count(t);
}

/* left_slot where a run comes into µop seg_first + seg_k with cnt_slot its count */
static void enter_count(tr *t)
{
    LLVMValueRef cnt = load(t, t->i64, t->cnt_slot);
    LLVMValueRef left = LLVMBuildAdd(t->b, LLVMBuildSub(t->b, t->budget, cnt, ""), ci64(t, t->seg_k), "");
    LLVMBuildStore(t->b, left, t->left_slot);
}

static void store_ninstr(tr *t)
{
    LLVMBuildStore(t->b, LLVMBuildAdd(t->b, t->base_ninstr, count(t), ""),
                   warp_field(t, offsetof(emu_warp, ninstr)));
}

static LLVMBasicBlockRef block(tr *t, const char *name)
{
    return LLVMAppendBasicBlockInContext(t->cx, t->fn, name);
}

/* Goes on at pc (a constant or a value) through the dispatch block, the SIMT top's pc set. */
/* A conditional branch that goes to `then` nearly always (branch weights): the register
 * allocator then keeps the spills around the rare way's calls on that way. */
static LLVMValueRef likely_br(tr *t, LLVMValueRef cond, LLVMBasicBlockRef then, LLVMBasicBlockRef other)
{
    LLVMValueRef br = LLVMBuildCondBr(t->b, cond, then, other);
    LLVMMetadataRef w[3] = {LLVMMDStringInContext2(t->cx, "branch_weights", 14),
                            LLVMValueAsMetadata(ci32(t, 2000)), LLVMValueAsMetadata(ci32(t, 1))};
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(t->cx, "prof", 4),
                    LLVMMetadataAsValue(t->cx, LLVMMDNodeInContext2(t->cx, w, 3)));
    return br;
}

static void goto_dispatch(tr *t, LLVMValueRef pc)
{
    sync_count(t);
    LLVMBuildStore(t->b, pc, t->npc_slot);
    store_top_pc(t, pc);
    LLVMBuildBr(t->b, t->dispatch);
}

/* Whether a run at the start of block s may go on there directly instead of through the
 * dispatch block, the SIMT top's pc set to s as the dispatch sets it: s is not the top's
 * reconvergence point. The rest of dispatch_ok's test holds wherever compiled code runs a µop
 * of its function: the stack, the frame and the active lanes are as the executor loop left
 * them where the run came in (a settled top), as the dispatch block found them (its test, or
 * the resume's settle), or as a divergent if's fall-through path leaves them (emit_split), and
 * nothing since has rewritten them, since a handler whose return comes back into compiled
 * code (emit_call_stored, emit_slow_access) neither stopped nor set c->control (the handler
 * rewrote the SIMT stack) nor jumped; a way on after one that did goes through the dispatch
 * block. The budget needs no test here either: every way into a block's first µop checks it
 * (emit_uop), and its budget exit leaves the warp as the dispatch's would (the top's pc at s,
 * the count). */
static LLVMValueRef goes_on_at(tr *t, uint32_t s)
{
    LLVMBuilderRef b = t->b;
    LLVMValueRef top = top_entry(t);
    LLVMBuildStore(b, ci32(t, s), field(t, top, offsetof(emu_simt, pc)));
    LLVMValueRef rpc = load(t, t->i32, field(t, top, offsetof(emu_simt, rpc)));
    return LLVMBuildICmp(b, LLVMIntNE, rpc, ci32(t, s), "");
}

/* Goes on at the start of block s (a constant) from the end of a segment, its count counted
 * and the rows live at s stored: at s's entry directly where goes_on_at says so (no load of
 * the warp's stack and frame, no switch on the pc: matmul's kernel, 123 µops, does not chain
 * and crosses five block ends per loop trip so), else through the dispatch block. */
static void goto_block(tr *t, uint32_t s)
{
    if (t->events || s >= t->n) {
        goto_dispatch(t, ci32(t, s));
        return;
    }
    sync_count(t);
    LLVMBuildStore(t->b, ci32(t, s), t->npc_slot);
    LLVMBuildCondBr(t->b, goes_on_at(t, s), t->entry[s], t->dispatch);
}

static LLVMValueRef regs(tr *t) { return load(t, t->ptr, t->regs_slot); }

static LLVMValueRef row_ptr(tr *t, uint32_t row)
{
    LLVMValueRef idx = ci64(t, row);
    return LLVMBuildGEP2(t->b, t->i64, regs(t), &idx, 1, "");
}

static int cached_index(tr *t, uint32_t row)
{
    for (uint32_t k = 0; k < t->ncache; k++)
        if (t->cache[k].row == row) return (int)k;
    return -1;
}

static void cache_row_low(tr *t, uint32_t row, LLVMValueRef v, LLVMValueRef low)
{
    int k = cached_index(t, row);
    if (k < 0) {
        if (t->ncache == sizeof t->cache / sizeof t->cache[0]) return;
        k = (int)t->ncache++;
        t->cache[k].row = row;
        /* a new entry holds what the row holds until a result is put there (the slot may
         * hold a dropped entry's flags) */
        t->cache[k].dirty = t->cache[k].dirty_live = false;
    }
    t->cache[k].v = v;
    t->cache[k].low = low;
    t->cache[k].f = t->cache[k].alt = t->cache[k].flag = NULL;
    t->cache[k].pred = false;
}

/* Caches f32 result f (see the cache's f) as row's value; false when the cache is full. */
static bool cache_row_raw(tr *t, uint32_t row, LLVMValueRef f)
{
    cache_row_low(t, row, NULL, NULL);
    int k = cached_index(t, row);
    if (k < 0) return false;
    t->cache[k].f = f;
    return true;
}

/* sem_float_out_f32's last step on f (after .ftz): a NaN becomes 0x7fffffff (<32 x i32>) */
static LLVMValueRef canonical_f32(tr *t, LLVMValueRef f)
{
    LLVMBuilderRef b = t->b;
    LLVMValueRef isnan = LLVMBuildFCmp(b, LLVMRealUNO, f, f, "");
    LLVMValueRef u = LLVMBuildSelect(b, isnan, splat32(t, 0x7fffffffu), LLVMBuildBitCast(b, f, t->v32, ""), "");
    /* frozen: else instcombine moves the select past the extension, into 64-bit lanes */
    return LLVMBuildFreeze(b, u, "");
}

/* Cache entry k's 32-bit halves as the row holds them (NULL for a row cached only whole):
 * made from its f where it has no halves yet, and kept (keep) when the builder is on the
 * segment's straight path, whose later µops it dominates; an exit's store makes its own. */
static LLVMValueRef entry_low(tr *t, cache_entry *e, bool keep)
{
    if (e->low || !e->f) return e->low;
    LLVMValueRef low = canonical_f32(t, e->f);
    if (e->flag) low = LLVMBuildSelect(t->b, e->flag, e->alt, low, "");
    if (keep) {
        e->low = low;
        e->v = LLVMBuildZExt(t->b, low, t->v64, "");
    }
    return low;
}

static LLVMValueRef cached_low(tr *t, int k, bool keep) { return entry_low(t, &t->cache[k], keep); }

/* Cache entry k's row (<32 x i64>), cached_low's rule */
static LLVMValueRef cached_v(tr *t, int k, bool keep)
{
    if (t->cache[k].v) return t->cache[k].v;
    LLVMValueRef low = cached_low(t, k, keep);
    return keep ? t->cache[k].v : LLVMBuildZExt(t->b, low, t->v64, "");
}

static void cache_row(tr *t, uint32_t row, LLVMValueRef v) { cache_row_low(t, row, v, NULL); }

/* Ends the current block with a branch to `join` and returns, there, the phi of type ty that is
 * a when coming from block from_a and c from from_c. */
static LLVMValueRef join2(LLVMBuilderRef b, LLVMBasicBlockRef join, LLVMTypeRef ty,
                          LLVMValueRef a, LLVMBasicBlockRef from_a, LLVMValueRef c,
                          LLVMBasicBlockRef from_c)
{
    LLVMBuildBr(b, join);
    LLVMPositionBuilderAtEnd(b, join);
    LLVMValueRef phi = LLVMBuildPhi(b, ty, "");
    LLVMValueRef in_v[2] = {a, c};
    LLVMBasicBlockRef in_b[2] = {from_a, from_c};
    LLVMAddIncoming(phi, in_v, in_b, 2);
    return phi;
}

static LLVMValueRef mask_vec(tr *t, LLVMValueRef mask);
static LLVMValueRef load_low(tr *t, uint32_t row);
static int32_t branch_target(const emu_uop *u);
static LLVMValueRef call_intrinsic(tr *t, const char *name, LLVMTypeRef *over, unsigned nover,
                                   LLVMValueRef *args, unsigned nargs);

/* Whether u has a native translation in this variant: in the event variant the µops whose
 * handlers record addresses, sizes or branch outcomes in the event (memory, branches) call
 * their handler, with the event set, as the interpreter does. */
static bool event_shared_access(const emu_uop *u);
static bool event_global_access(const emu_uop *u);

static bool translates(const tr *t, const emu_uop *u)
{
    if (t->events && (u->op == PTX_OP_BRA ||
                      ((u->op == PTX_OP_LD || u->op == PTX_OP_ST) && !event_shared_access(u) &&
                       !event_global_access(u) && u->in->space != PTX_SPACE_PARAM)))
        return false;
    return emu_jit_translates(t->code, u);
}

/* The first and last µops of i's segment */
static uint32_t seg_first_of(const tr *t, uint32_t i)
{
    while (i > 0 && !t->seg_start[i]) i--;
    return i;
}

static uint32_t seg_last_of(const tr *t, uint32_t i)
{
    while (i + 1 < t->n && !t->seg_start[i + 1]) i++;
    return i;
}

/* Whether µop i's segment checks the budget once per stretch of JIT_STRETCH µops (from its
 * first) instead of before every µop: a straight segment (not a loop segment) of the plain
 * variant, of JIT_STRETCH_SEGMENT µops or more. Each stretch's first µop checks that the budget left covers the whole stretch;
 * where it does not, the run ends there with EMU_JIT_INTERPRET and the interpreter's loop
 * runs the block on to the budget (interp/run.c). So no µop inside a stretch has a budget
 * exit (each was a block storing every dirty row live there: most of a long straight
 * segment's code) and no run comes in there from the dispatch (the interpreter's loop runs
 * on to the next stretch: to_interp; a handler's return still comes in, after its own check):
 * its rows' values come only from the µop before, with no phis. So the interpreter runs at
 * most JIT_STRETCH - 1 µops at a turn's end and as many at the next turn's start (the
 * engine's turns are 1000 µops). */
static bool stretch_budget(const tr *t, uint32_t i)
{
    uint32_t first = seg_first_of(t, i);
    return !t->events && !t->loop_seg[first] &&
           seg_last_of(t, first) + 1 - first >= JIT_STRETCH_SEGMENT;
}

static bool stretch_start(const tr *t, uint32_t i)
{
    return (i - seg_first_of(t, i)) % JIT_STRETCH == 0;
}

/* The µops from i to the end of its stretch */
static uint32_t stretch_rest(const tr *t, uint32_t i)
{
    uint32_t first = seg_first_of(t, i), end = first + ((i - first) / JIT_STRETCH + 1) * JIT_STRETCH;
    uint32_t last = seg_last_of(t, i) + 1;
    return (end < last ? end : last) - i;
}

/* Whether translated memory µop u's slow path, once its handler ran the access, goes on
 * after u in compiled code (emit_slow_access) rather than through the next µop's side entry:
 * ld and st outside the parameter space (emit_mem's) */
static bool slow_rejoins(const emu_uop *u)
{
    return (u->op == PTX_OP_LD || u->op == PTX_OP_ST) && u->in->space != PTX_SPACE_PARAM;
}

/* Whether the slow path of ld/st u ends the run before it, for the interpreter's loop to run
 * it and the µops after it up to the next run entry (t->next_entry), instead of calling its
 * handler and coming back: a shared access through a 32-bit address (in the event variant
 * only those of event_shared_access reach emit_mem), whose slow path is taken only under a policy that sees plain accesses (--check) or for a
 * lane out of the block or misaligned (a fault). Nothing then is live across a call, and the
 * access has no way back in (the handler's results read back, joined with the fast path's):
 * llc's instructions on scan_block's IR (80 such accesses) 1909M -> 1607M, sort_shared's 736M
 * -> 685M; the kernels' time the same, and under --check=memcheck, where every such access
 * takes it, scan 1M's compiled kernels ran 25 -> 20 ms (the interpreter's loop from the access
 * to the next barrier costs less than a handler call per access and the way back). */
static bool slow_ends_run(const tr *t, const emu_uop *u)
{
    bool st = u->op == PTX_OP_ST;
    (void)t;
    return (st || u->op == PTX_OP_LD) && u->in->space == PTX_SPACE_SHARED &&
           u->opd[st ? 0 : 1].bits <= 32;
}

/* Whether the event variant runs ld/st u natively (emit_mem), recording its event itself
 * (emit_shared_event): a shared access of one 4- or 8-byte element through a 32-bit address
 * with a base register, to or from a register of the element's size (a store's: at least
 * that wide, or an immediate) -- what the interpreter's handler takes its fast path for
 * (exec_mem.c ld_fast/st_fast), so that both record the same event. A barrier-bound kernel's
 * shared loads were the event variant's handler calls (timed matmul 256: 512 per warp, ~460
 * host instructions each), and each wrote its destination row to memory, where the rows of
 * the warps a cycle model keeps resident are out of the host's caches; natively the row of a
 * value the next µop consumes stays in a register. Any lane out of the block or misaligned
 * ends the run before the access (slow_ends_run): the interpreter's loop runs it. */
static bool event_shared_access(const emu_uop *u)
{
    bool st = u->op == PTX_OP_ST;
    const emu_opd *ao = &u->opd[st ? 0 : 1], *r = &u->opd[st ? 1 : 0];
    unsigned es = emu_type_bits[u->type] / 8;
    if (u->in->space != PTX_SPACE_SHARED || u->in->vec > 1 || (es != 4 && es != 8) ||
        ao->bits > 32 || !(ao->flags & EMU_OPD_F_BASE_REG))
        return false;
    if (st) return r->kind == EMU_OPD_IMM || (r->kind == EMU_OPD_REG && r->bits >= es * 8 && r->bits != 128);
    return r->kind == EMU_OPD_REG && r->bits == es * 8;
}

/* Whether the event variant runs ld/st u natively where its lanes allow (emit_event_global),
 * else through its handler (emit_slow_access): a global or generic access of one 4- or 8-byte
 * element through a base register, to or from a register of the element's size -- the forms
 * whose handler is exec_mem.c's ld_reg/st_reg (ld_st_handler), whose whole-warp shaped path
 * the native one takes. */
static bool event_global_access(const emu_uop *u)
{
    bool st = u->op == PTX_OP_ST;
    if ((u->op != PTX_OP_LD && !st) || u->nopd != 2 || u->type == PTX_TYPE_NONE) return false;
    const emu_opd *ao = &u->opd[st ? 0 : 1], *r = &u->opd[st ? 1 : 0];
    unsigned es = emu_type_bits[u->type] / 8;
    return (u->in->space == PTX_SPACE_GLOBAL || u->in->space == PTX_SPACE_NONE) && u->in->vec <= 1 &&
           (es == 4 || es == 8) && ao->kind == EMU_OPD_ADDR && (ao->flags & EMU_OPD_F_BASE_REG) &&
           r->kind == EMU_OPD_REG && r->bits == es * 8;
}

/* Whether a run may come back in at µop i (not a segment's first) from the µop before: the
 * return from its handler or from its slow path (emit_call_stored); or whether compiled code
 * never falls into i, so that it needs an entry of its own: the µop before starts an
 * idempotent region (iGPU), where compiled code ends its run (emit_uop) */
static bool after_handler(const tr *t, uint32_t i)
{
    if (i == 0 || t->seg_start[i]) return false;
    const emu_uop *p = &t->code->uops[i - 1];
    if (!translates(t, p) || (p->flags & EMU_UOP_REGION_BOUNDARY)) return true;
    /* a memory access's slow path goes on after the access itself (slow_rejoins) */
    return !slow_rejoins(p) &&
           (p->op == PTX_OP_LD || p->op == PTX_OP_ST || p->op == PTX_OP_EX2 || p->op == PTX_OP_LG2);
}

static void flush_rows(tr *t, uint32_t at, bool clean);

/* Ends the run before µop i with EMU_JIT_INTERPRET when the budget left does not cover the
 * µops from i to the end of its stretch, the dirty rows live at i stored first (flush; a side
 * entry has none: the rows were stored before the handler); the builder goes on where it
 * does. */
static void check_stretch(tr *t, uint32_t i, bool flush)
{
    LLVMBuilderRef b = t->b;
    LLVMBasicBlockRef on = block(t, "stretch"), out = block(t, "stretch.out");
    LLVMValueRef need = ci64(t, t->seg_k + stretch_rest(t, i));
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGT, need, load(t, t->i64, t->left_slot), ""), out, on);
    LLVMPositionBuilderAtEnd(b, out);
    if (flush) flush_rows(t, i, false);
    sync_count(t);
    LLVMBuildStore(b, ci32(t, i), t->npc_slot);
    LLVMBuildStore(b, ci32(t, i + stretch_rest(t, i)), ctx_field(t, offsetof(emu_ctx, next_pc)));
    LLVMBuildBr(b, t->interp);
    LLVMPositionBuilderAtEnd(b, on);
}

/* Whether row may be read after µop i's start (before it is written again). */
static bool row_live(const tr *t, uint32_t i, uint32_t row)
{
    if (!t->live || i >= t->n) return true;
    uint32_t k = row / EMU_WARP_SIZE;
    return (t->live[(size_t)i * t->live_words + k / 64] >> (k % 64)) & 1;
}

/* A cached row's value to store, made where it is stored: from the 32-bit halves when it has
 * them, so that the extension runs on the paths that store (the exits) only. */
static LLVMValueRef stored_value(tr *t, cache_entry e)
{
    LLVMValueRef low = entry_low(t, &e, false);
    return low ? LLVMBuildZExt(t->b, low, t->v64, "") : e.v;
}

static void flush_value(tr *t, uint32_t row, LLVMValueRef v)
{
    LLVMTypeRef over[2] = {t->v64, t->ptr};
    LLVMValueRef args[4] = {v, row_ptr(t, row), ci32(t, 8), mask_vec(t, t->active)};
    call_intrinsic(t, "llvm.masked.store", over, 2, args, 4);
}

/* Stores a cached value of row: a register row in the warp's active lanes, a predicate's word
 * whole (it holds the other lanes' old bits) */
static void store_cached(tr *t, cache_entry e)
{
    if (e.pred) LLVMBuildStore(t->b, e.v, row_ptr(t, e.row));
    else flush_value(t, e.row, stored_value(t, e));
}

/* Whether row may be read after the current segment (where it goes on from its last µop). */
static bool row_live_after_segment(const tr *t, uint32_t row)
{
    uint32_t j = t->seg_last;
    const emu_uop *u = &t->code->uops[j];
    if (row_live(t, j + 1, row)) return true;
    return u->op == PTX_OP_BRA && translates(t, u) &&
           row_live(t, (uint32_t)branch_target(u), row);
}

/* A register slot's kind over the whole function (slot_kinds()): how a chain head's phi holds
 * it (its 32-bit halves when every name of it is a register of at most 32 bits, whose row
 * holds their zero extension: emu_put masks it) or that none does (a predicate's word is
 * stored where it is written outside loop segments, so it needs none; a slot named as both,
 * or never named, makes a head that carries it no chain head). */
enum { SLOT_UNNAMED, SLOT_NARROW, SLOT_WIDE, SLOT_PRED, SLOT_MIXED };

static bool opds_name_row(const tr *t, const emu_uop *u, uint32_t row);

/* Whether a µop of the segment that starts at s names row (an operand or the guard) */
static bool segment_names_row(const tr *t, uint32_t s, uint32_t row)
{
    for (uint32_t i = s; i < t->n && (i == s || !t->seg_start[i]); i++) {
        const emu_uop *u = &t->code->uops[i];
        if (u->guard_row == row || opds_name_row(t, u, row)) return true;
    }
    return false;
}

/* Whether chain head s carries row in a phi: the register rows live at s that its segment
 * names are, or all of them (chain_all) (chain_rows()). */
static bool chain_carries(const tr *t, uint32_t s, uint32_t row)
{
    return t->chain && s < t->n && t->chain_head[s] && t->slot_kind[row / EMU_WARP_SIZE] != SLOT_PRED &&
           row_live(t, s, row) && (t->chain_all[s] || segment_names_row(t, s, row));
}

/* Whether every way out of the current segment's end on which row may be read goes into a
 * chain head that carries it: a result then stays in a register (put's rule), stored only
 * where a run leaves (a way that does not chain stores it there). */
static bool row_carried_after_segment(const tr *t, uint32_t row)
{
    uint32_t j = t->seg_last;
    const emu_uop *u = &t->code->uops[j];
    if (!t->chain || !translates(t, u)) return false;
    if (row_live(t, j + 1, row) && !chain_carries(t, j + 1, row)) return false;
    if (u->op != PTX_OP_BRA) return true;
    int32_t tg = branch_target(u);
    return tg >= 0 && (!row_live(t, (uint32_t)tg, row) || chain_carries(t, (uint32_t)tg, row));
}

/* Stores the cached rows marked dirty_live, which are then clean on this path. */
static void flush_marked(tr *t)
{
    for (uint32_t k = 0; k < t->ncache; k++) {
        if (!t->cache[k].dirty_live) continue;
        store_cached(t, t->cache[k]);
        t->cache[k].dirty = t->cache[k].dirty_live = false;
    }
}

/* Stores the dirty cached rows in the warp's active lanes (the other lanes of a cached row
 * are not the warp's: see put): those live at µop `at` (t->n or more: every dirty row). With
 * clean, they are then clean on this path. */
static void flush_rows(tr *t, uint32_t at, bool clean)
{
    for (uint32_t k = 0; k < t->ncache; k++) {
        if (!t->cache[k].dirty || !row_live(t, at, t->cache[k].row)) continue;
        store_cached(t, t->cache[k]);
        if (clean) t->cache[k].dirty = false;
    }
}

static LLVMValueRef load_row(tr *t, uint32_t row)
{
    int k = cached_index(t, row);
    if (k >= 0) return cached_v(t, k, true);
    LLVMValueRef v = load(t, t->v64, row_ptr(t, row));
    LLVMSetAlignment(v, 8);
    cache_row(t, row, v);
    return v;
}

/* The low halves of row's lanes (<32 x i32>): the row read as 64 x i32 and its even
 * elements taken (little-endian), which the backend does with two-source permutes rather
 * than a truncation per quarter. */
static LLVMValueRef load_low(tr *t, uint32_t row)
{
    LLVMTypeRef halves = LLVMVectorType(t->i32, 2 * EMU_WARP_SIZE);
    LLVMValueRef w = load(t, halves, row_ptr(t, row));
    LLVMSetAlignment(w, 8);
    LLVMValueRef even[EMU_WARP_SIZE];
    for (int l = 0; l < EMU_WARP_SIZE; l++) even[l] = ci32(t, 2 * (uint64_t)l);
    return LLVMBuildShuffleVector(t->b, w, LLVMGetPoison(halves), LLVMConstVector(even, EMU_WARP_SIZE), "");
}

static LLVMValueRef mask_vec(tr *t, LLVMValueRef mask)
{
    return LLVMBuildBitCast(t->b, mask, t->vb, "");
}

/* ---------------------------------------------------------------- operands (operands.c rules) */

static bool int_type(uint8_t ty)
{
    return ty == PTX_TYPE_U32 || ty == PTX_TYPE_S32 || ty == PTX_TYPE_B32 ||
           ty == PTX_TYPE_U64 || ty == PTX_TYPE_S64 || ty == PTX_TYPE_B64;
}

static bool plain_type(uint8_t ty)
{
    return int_type(ty) || ty == PTX_TYPE_F32 || ty == PTX_TYPE_F64;
}

/* The special registers src() reads (emu_sreg_value): the thread's and CTA's coordinates. */
static bool sreg_translates(const emu_opd *o)
{
    return o->kind == EMU_OPD_SREG && o->type <= 2 &&
           (o->row == PTX_SREG_TID || o->row == PTX_SREG_NTID || o->row == PTX_SREG_CTAID ||
            o->row == PTX_SREG_NCTAID || o->row == PTX_SREG_LANEID);
}

/* Whether operand o can be read as type ty by src(). */
static bool src_ok(const emu_opd *o, uint8_t ty)
{
    if (ty == PTX_TYPE_PRED) return false;
    if (o->kind == EMU_OPD_REG) return o->bits != 128;
    return o->kind == EMU_OPD_IMM || o->kind == EMU_OPD_SYM || sreg_translates(o);
}

static LLVMValueRef call_intrinsic(tr *t, const char *name, LLVMTypeRef *over, unsigned nover,
                                   LLVMValueRef *args, unsigned nargs);
static LLVMValueRef vsplat(tr *t, LLVMValueRef v, const char *name);

/* Special register o in the 32 lanes (emu_sreg_value), as i64. */
static LLVMValueRef sreg(tr *t, const emu_opd *o)
{
    LLVMBuilderRef b = t->b;
    size_t comp = (size_t)o->type * sizeof(uint32_t);
    LLVMValueRef iota[EMU_WARP_SIZE];
    if (o->row == PTX_SREG_LANEID || o->row == PTX_SREG_TID) {
        size_t step = o->row == PTX_SREG_TID ? sizeof(emu_dim3) : 1;
        for (int l = 0; l < EMU_WARP_SIZE; l++) iota[l] = ci64(t, (uint64_t)l * step);
        LLVMValueRef lanes = LLVMConstVector(iota, EMU_WARP_SIZE);
        if (o->row == PTX_SREG_LANEID) return lanes;
        /* the warp's tid[lane] (emu_warp: a pointer into the grid's table), taken from its
         * first and last lanes when a full warp's threads are in one row (x: consecutive,
         * lane 31's x lane 0's + 31, as the linear order gives only then) or y and z are the
         * same in every lane (lanes 0 and 31 agree on z, and on y and z for y: the order is
         * y within z); else gathered. Two loads and a compare instead of two 16-lane gathers
         * a warp (vecadd's and transpose's %tid). */
        LLVMValueRef table = load(t, t->ptr, warp_field(t, offsetof(emu_warp, tid)));
        LLVMValueRef valid = load(t, t->i32, warp_field(t, offsetof(emu_warp, valid)));
        size_t last = (EMU_WARP_SIZE - 1) * sizeof(emu_dim3);
        LLVMValueRef first_c = load(t, t->i32, field(t, table, comp));
        LLVMValueRef last_c = load(t, t->i32, field(t, table, last + comp));
        LLVMValueRef same_z = LLVMBuildICmp(
            b, LLVMIntEQ, load(t, t->i32, field(t, table, offsetof(emu_dim3, z))),
            load(t, t->i32, field(t, table, last + offsetof(emu_dim3, z))), "");
        LLVMValueRef shaped;
        if (o->type == 0)
            shaped = LLVMBuildICmp(b, LLVMIntEQ, last_c,
                                   LLVMBuildAdd(b, first_c, ci32(t, EMU_WARP_SIZE - 1), ""), "");
        else if (o->type == 1)
            shaped = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, last_c, first_c, ""), same_z, "");
        else
            shaped = same_z;
        shaped = LLVMBuildAnd(b, shaped, LLVMBuildICmp(b, LLVMIntEQ, valid, ci32(t, UINT32_MAX), ""), "");
        LLVMBasicBlockRef quick = block(t, "tid.quick"), gather = block(t, "tid.gather");
        LLVMBasicBlockRef done = block(t, "tid.done");
        LLVMBuildCondBr(b, shaped, quick, gather);
        LLVMPositionBuilderAtEnd(b, quick);
        LLVMValueRef vq = vsplat(t, first_c, "");
        if (o->type == 0) {
            LLVMValueRef iota32[EMU_WARP_SIZE];
            for (int l = 0; l < EMU_WARP_SIZE; l++) iota32[l] = ci32(t, (uint64_t)l);
            vq = LLVMBuildAdd(b, vq, LLVMConstVector(iota32, EMU_WARP_SIZE), "");
        }
        LLVMBuildBr(b, done);
        LLVMPositionBuilderAtEnd(b, gather);
        LLVMValueRef ptrs = LLVMBuildGEP2(b, t->i8, vsplat(t, field(t, table, comp), ""), &lanes, 1, "");
        LLVMTypeRef over[2] = {t->v32, LLVMVectorType(t->ptr, EMU_WARP_SIZE)};
        LLVMValueRef ones[EMU_WARP_SIZE];
        for (int l = 0; l < EMU_WARP_SIZE; l++) ones[l] = LLVMConstInt(t->i1, 1, false);
        LLVMValueRef args[4] = {ptrs, ci32(t, 4), LLVMConstVector(ones, EMU_WARP_SIZE),
                                LLVMGetPoison(t->v32)};
        LLVMValueRef vg = call_intrinsic(t, "llvm.masked.gather", over, 2, args, 4);
        LLVMValueRef v = join2(b, done, t->v32, vq, quick, vg, gather);
        return LLVMBuildZExt(b, v, t->v64, "");
    }
    LLVMValueRef p;
    if (o->row == PTX_SREG_CTAID) {
        p = field(t, load(t, t->ptr, ctx_field(t, offsetof(emu_ctx, cta))),
                  offsetof(emu_cta, ctaid) + comp);
    } else {
        size_t dim = o->row == PTX_SREG_NTID ? offsetof(emu_launch, block) : offsetof(emu_launch, grid);
        p = field(t, load(t, t->ptr, ctx_field(t, offsetof(emu_ctx, g))),
                  offsetof(emu_grid, launch) + dim + comp);
    }
    return vsplat(t, LLVMBuildZExt(b, load(t, t->i32, p), t->i64, ""), "");
}

/* emu_dst's condition: results of type ty go straight into the row. */
static bool dst_ok(const emu_opd *o, uint8_t ty)
{
    return o->kind == EMU_OPD_REG && ty != PTX_TYPE_PRED && o->bits != 128 &&
           emu_type_bits[ty] == o->bits;
}

/* Operand o read as type ty, 32 lanes of i64 (emu_src). */
/* A variable's generic address (emu_opd_address of a symbol operand, the same in every lane):
 * one call of emu_symbol_address by name, where the handler asks once per lane. */
static LLVMValueRef symbol_address(tr *t, const emu_opd *o)
{
    LLVMTypeRef args[3] = {t->ptr, t->i32, t->ptr};
    LLVMTypeRef fty = LLVMFunctionType(t->i64, args, 3, false);
    LLVMValueRef fn = LLVMGetNamedFunction(t->m, EMU_JIT_SYMBOL_ADDRESS);
    if (!fn) fn = LLVMAddFunction(t->m, EMU_JIT_SYMBOL_ADDRESS, fty);
    LLVMValueRef av[3] = {t->c, ci32(t, (uint32_t)o->row), LLVMConstNull(t->ptr)};
    return vsplat(t, LLVMBuildCall2(t->b, fty, fn, av, 3, ""), "");
}

static LLVMValueRef src(tr *t, const emu_opd *o, uint8_t ty)
{
    unsigned bits = emu_type_bits[ty];
    if (o->kind == EMU_OPD_IMM)
        return splat64(t, ty == o->type ? o->imm : emu_imm_convert((uint8_t)o->row, o->raw, ty));
    if (o->kind == EMU_OPD_SREG || o->kind == EMU_OPD_SYM) {
        LLVMValueRef v = o->kind == EMU_OPD_SREG ? sreg(t, o) : symbol_address(t, o);
        return bits == 0 || bits >= 64 ? v : LLVMBuildAnd(t->b, v, splat64(t, emu_mask_bits(bits)), "");
    }
    int k = cached_index(t, o->row);
    if (k < 0 && bits != 0 && bits <= 32 && o->kind == EMU_OPD_REG) {
        /* a 32-bit read of a row not yet read: its lanes' low halves, loaded as such */
        LLVMValueRef low = load_low(t, o->row);
        LLVMValueRef v = LLVMBuildZExt(t->b, low, t->v64, "");
        /* the row of a register of at most 32 bits is the zero extension of its halves */
        if (o->bits != 0 && o->bits <= 32) cache_row_low(t, o->row, v, low);
        return v;
    }
    LLVMValueRef low = k >= 0 && bits != 0 && bits <= 32 ? cached_low(t, k, true) : NULL;
    LLVMValueRef v = low ? LLVMBuildZExt(t->b, low, t->v64, "") : load_row(t, o->row);
    if (!(bits == 0 || bits >= 64 || bits >= o->bits))
        v = LLVMBuildAnd(t->b, v, splat64(t, emu_mask_bits(bits)), "");
    return v;
}


/* Writes the lanes of mask of v to the destination row (a masked store: the other lanes are
 * not touched). */
static void put(tr *t, const emu_opd *o, LLVMValueRef mask, LLVMValueRef v)
{
    /* Lanes outside the warp's active mask are never read in this run (every µop's mask lies
     * within it), so without a guard v itself is the cached row (its conversions then fold
     * into the next µop's); a guarded result keeps the other active lanes' old values. */
    LLVMValueRef row = v, low = NULL;
    /* a guarded result merged into a cached value never stored (a chain head's phi, dirty)
     * stores the merge in every active lane where it is stored at once */
    int old = cached_index(t, o->row);
    bool merge_dirty = mask != t->active && old >= 0 && t->cache[old].dirty;
    if (mask != t->active)
        row = LLVMBuildSelect(t->b, mask_vec(t, mask), v, load_row(t, o->row), "");
    else if (LLVMIsAZExtInst(v) && LLVMTypeOf(LLVMGetOperand(v, 0)) == t->v32)
        low = LLVMGetOperand(v, 0);
    else if (o->kind == EMU_OPD_REG && o->bits != 0 && o->bits <= 32) {
        /* a register of at most 32 bits holds the zero extension of its low half (emu_put
         * masks it), so its 32-bit reads and a loop segment's narrow phi take the half (a
         * constant's too: the reads after the segment's next side entry take it) */
        low = LLVMBuildTrunc(t->b, v, t->v32, "");
        row = v = LLVMBuildZExt(t->b, low, t->v64, "");
    }
    /* a row the segment's exits need is stored now (keeping it in a register to the end costs
     * more than the store); the others are stored only where a run leaves while they are live.
     * In a loop segment every result stays in a register: its exits store what they need */
    bool dirty = t->loop_head != NO_LOOP || !row_live_after_segment(t, o->row) ||
                 row_carried_after_segment(t, o->row);
    if (!dirty) {
        LLVMTypeRef over[2] = {t->v64, t->ptr};
        LLVMValueRef args[4] = {merge_dirty ? row : v, row_ptr(t, o->row), ci32(t, 8),
                                mask_vec(t, merge_dirty ? t->active : mask)};
        call_intrinsic(t, "llvm.masked.store", over, 2, args, 4);
    }
    cache_row_low(t, o->row, row, low);
    int k = cached_index(t, o->row);
    if (k >= 0) t->cache[k].dirty = dirty;
    else if (dirty) flush_value(t, o->row, row);
}

/* Operand o read as f32 bits, as the float operation gave them where its row holds an f32
 * result cached with its f (before its NaN was made canonical), else as the row holds them */
static LLVMValueRef f32_raw(tr *t, const emu_opd *o)
{
    if (o->kind == EMU_OPD_REG) {
        int k = cached_index(t, o->row);
        if (k >= 0 && t->cache[k].f) return t->cache[k].f;
    }
    return LLVMBuildBitCast(t->b, LLVMBuildTrunc(t->b, src(t, o, PTX_TYPE_F32), t->v32, ""), t->vf, "");
}

/* put for an f32 result f (.ftz applied) whose NaN sem_float_out_f32 makes canonical: cached
 * as f (the cache's f), the canonical form made where it is stored or read as bits; a copy of
 * a cached row (mov) also takes its alt and flag (NULL for a result) */
static void put_raw_alt(tr *t, const emu_opd *o, LLVMValueRef mask, LLVMValueRef f, LLVMValueRef alt,
                        LLVMValueRef flag)
{
    assert(o->kind == EMU_OPD_REG && o->bits == 32);
    cache_entry e = {.row = o->row, .f = f, .alt = alt, .flag = flag};
    LLVMValueRef row = f;
    if (mask != t->active) {
        /* the other lanes keep their bits: the canonical form of the merge is theirs only where
         * the row holds the canonical form of its f */
        int k = cached_index(t, o->row);
        if (flag || k < 0 || !t->cache[k].f || t->cache[k].flag || t->cache[k].low ||
            (t->chain && t->cache[k].dirty && t->loop_head == NO_LOOP)) {
            put(t, o, mask, LLVMBuildZExt(t->b, entry_low(t, &e, false), t->v64, ""));
            return;
        }
        row = LLVMBuildSelect(t->b, mask_vec(t, mask), f, t->cache[k].f, "");
    }
    /* put's rule */
    bool dirty = t->loop_head != NO_LOOP || !row_live_after_segment(t, o->row) ||
                 row_carried_after_segment(t, o->row);
    if (!dirty) {
        LLVMTypeRef over[2] = {t->v64, t->ptr};
        LLVMValueRef args[4] = {LLVMBuildZExt(t->b, entry_low(t, &e, false), t->v64, ""),
                                row_ptr(t, o->row), ci32(t, 8), mask_vec(t, mask)};
        call_intrinsic(t, "llvm.masked.store", over, 2, args, 4);
    }
    e.f = row;
    if (!cache_row_raw(t, o->row, row)) {
        if (dirty) flush_value(t, o->row, LLVMBuildZExt(t->b, entry_low(t, &e, false), t->v64, ""));
        return;
    }
    int k = cached_index(t, o->row);
    t->cache[k].alt = alt;
    t->cache[k].flag = flag;
    t->cache[k].dirty = dirty;
}

static void put_raw(tr *t, const emu_opd *o, LLVMValueRef mask, LLVMValueRef f)
{
    put_raw_alt(t, o, mask, f, NULL, NULL);
}

/* Predicate row's word (i64: bit l is lane l), from the register cache, else loaded, and in
 * a loop segment cached: its reads there take the value, not a load after the store (the
 * regs pointer is a phi per µop, so LLVM forwards no store to a later µop's load). Outside
 * loops a predicate is not cached: each later µop's side entry would load it again (which
 * cost more instructions than it saved: Mandelbrot and n-body under cachegrind). */
static LLVMValueRef pred_word(tr *t, uint32_t row)
{
    int k = cached_index(t, row);
    if (k >= 0) {
        assert(t->cache[k].pred);
        return t->cache[k].v;
    }
    LLVMValueRef v = load(t, t->i64, row_ptr(t, row));
    if (t->loop_head == NO_LOOP) return v;
    cache_row(t, row, v);
    k = cached_index(t, row);
    if (k >= 0) t->cache[k].pred = true;
    return v;
}

/* Writes the lanes of mask of bits (i32) to predicate o (emu_put_pred): in a loop segment the
 * new word is cached, and stored only where a run leaves (put's rule; at once when the cache
 * is full); elsewhere stored at once. */
static void put_pred(tr *t, const emu_opd *o, LLVMValueRef mask, LLVMValueRef bits)
{
    LLVMValueRef old = pred_word(t, o->row);
    LLVMValueRef m64 = LLVMBuildZExt(t->b, mask, t->i64, "");
    LLVMValueRef keep = LLVMBuildAnd(t->b, old, LLVMBuildNot(t->b, m64, ""), "");
    LLVMValueRef set = LLVMBuildAnd(t->b, LLVMBuildZExt(t->b, bits, t->i64, ""), m64, "");
    LLVMValueRef word = LLVMBuildOr(t->b, keep, set, "");
    int k = cached_index(t, o->row);
    bool dirty = k >= 0 && t->loop_head != NO_LOOP;
    if (!dirty) LLVMBuildStore(t->b, word, row_ptr(t, o->row));
    if (k >= 0) {
        t->cache[k].v = word;
        t->cache[k].dirty = dirty;
    }
}

/* ---------------------------------------------------------------- f32 (sem.h's float rules) */

/* .ftz on f32 bits u (<32 x i32>): a subnormal becomes the zero of its sign */
static LLVMValueRef ftz_bits(tr *t, LLVMValueRef u)
{
    LLVMValueRef expo = LLVMBuildAnd(t->b, u, splat32(t, 0x7f800000u), "");
    LLVMValueRef sub = LLVMBuildICmp(t->b, LLVMIntEQ, expo, splat32(t, 0), "");
    return LLVMBuildSelect(t->b, sub, LLVMBuildAnd(t->b, u, splat32(t, 0x80000000u), ""), u, "");
}

static LLVMValueRef as_f32(tr *t, LLVMValueRef v64, bool ftz)
{
    LLVMValueRef u = LLVMBuildTrunc(t->b, v64, t->v32, "");
    if (ftz) u = ftz_bits(t, u);
    return LLVMBuildBitCast(t->b, u, t->vf, "");
}

/* An f32 source of an operation whose result depends on whether it is a NaN, never on a NaN's
 * bits (sem.h: its result's NaN is made canonical): f32_raw, .ftz applied (a NaN keeps). */
static LLVMValueRef f32_in(tr *t, const emu_opd *o, bool ftz)
{
    LLVMValueRef f = f32_raw(t, o);
    if (!ftz) return f;
    return LLVMBuildBitCast(t->b, ftz_bits(t, LLVMBuildBitCast(t->b, f, t->v32, "")), t->vf, "");
}

static LLVMValueRef splat_f32(tr *t, double v)
{
    LLVMValueRef e[EMU_WARP_SIZE];
    for (int i = 0; i < EMU_WARP_SIZE; i++) e[i] = LLVMConstReal(t->f32, v);
    return LLVMConstVector(e, EMU_WARP_SIZE);
}

/* sem_float_out_f32: .ftz, then .sat (emu_sat_f32: a NaN, -0 and what is below zero give +0,
 * what is above one gives one), then a NaN becomes 0x7fffffff */
static LLVMValueRef out_f32_sat(tr *t, LLVMValueRef r, bool ftz, bool sat)
{
    LLVMBuilderRef b = t->b;
    LLVMValueRef u = LLVMBuildBitCast(b, r, t->v32, "");
    if (ftz) u = ftz_bits(t, u);
    if (sat) {
        LLVMValueRef f = LLVMBuildBitCast(b, u, t->vf, "");
        LLVMValueRef low = LLVMBuildFCmp(b, LLVMRealULE, f, LLVMConstNull(t->vf), "");
        LLVMValueRef high = LLVMBuildFCmp(b, LLVMRealOGT, f, splat_f32(t, 1.0), "");
        u = LLVMBuildSelect(b, high, splat32(t, 0x3f800000u), u, "");
        u = LLVMBuildSelect(b, low, splat32(t, 0), u, "");
        return LLVMBuildZExt(b, u, t->v64, "");
    }
    LLVMValueRef isnan = LLVMBuildFCmp(b, LLVMRealUNO, r, r, "");
    u = LLVMBuildSelect(b, isnan, splat32(t, 0x7fffffffu), u, "");
    /* frozen: else instcombine moves the select past the extension, into 64-bit lanes */
    return LLVMBuildZExt(b, LLVMBuildFreeze(b, u, ""), t->v64, "");
}

/* Writes f32 result r of an operation that ends in sem_float_out_f32 to o: with .sat its
 * final bits (no NaN survives .sat), else r after .ftz, its NaN made canonical lazily (put_raw)
 * in a loop segment and in a segment checked by stretches (stretch_budget(): its only exits
 * are the stretches' starts, handler calls and slow paths); elsewhere (the event variant's
 * straight segments, a budget exit before every µop) its final bits: each exit would make the
 * canonical form anew (code generation took up to 1.4x as long for Black-Scholes, whose
 * kernel time did not change). Black-Scholes 4M, kernel CPU ms, cached code, least of 4 under
 * load 5-7: 76 eager, 65 lazy (with hit_entry()'s entries; with one per access, whose misses
 * spill the vector registers around a call, lazy was the slower: 109 against 82). */
static void put_f32(tr *t, const emu_opd *o, LLVMValueRef mask, LLVMValueRef r, bool ftz, bool sat)
{
    if (sat || (t->loop_head == NO_LOOP && !t->stretch)) {
        put(t, o, mask, out_f32_sat(t, r, ftz, sat));
        return;
    }
    if (ftz) r = LLVMBuildBitCast(t->b, ftz_bits(t, LLVMBuildBitCast(t->b, r, t->v32, "")), t->vf, "");
    put_raw(t, o, mask, r);
}

/* emu_min_f32/emu_max_f32 on x and y (.ftz already applied): a NaN is ignored unless nan_mode
 * or both are NaN (then any NaN: out_f32 makes it the canonical one); of -0 and +0, min takes
 * -0 and max +0 */
static LLVMValueRef minmax_f32(tr *t, bool max, LLVMValueRef x, LLVMValueRef y, bool nan_mode)
{
    LLVMBuilderRef b = t->b;
    LLVMValueRef xn = LLVMBuildFCmp(b, LLVMRealUNO, x, x, ""), yn = LLVMBuildFCmp(b, LLVMRealUNO, y, y, "");
    LLVMValueRef xneg = LLVMBuildICmp(b, LLVMIntSLT, LLVMBuildBitCast(b, x, t->v32, ""), splat32(t, 0), "");
    LLVMValueRef eq = LLVMBuildSelect(b, xneg, max ? y : x, max ? x : y, "");
    LLVMValueRef first = LLVMBuildFCmp(b, max ? LLVMRealOGT : LLVMRealOLT, x, y, "");
    LLVMValueRef r = LLVMBuildSelect(b, first, x, y, "");
    r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, x, y, ""), eq, r, "");
    if (nan_mode) return LLVMBuildSelect(b, xn, x, LLVMBuildSelect(b, yn, y, r, ""), "");
    r = LLVMBuildSelect(b, yn, x, r, "");
    return LLVMBuildSelect(b, xn, y, r, "");
}

static LLVMValueRef fma_f32(tr *t, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    unsigned id = LLVMLookupIntrinsicID("llvm.fma", 8);
    LLVMTypeRef ty = t->vf;
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(t->m, id, &ty, 1);
    LLVMTypeRef fty = LLVMIntrinsicGetType(t->cx, id, &ty, 1);
    LLVMValueRef args[3] = {a, b, c};
    return LLVMBuildCall2(t->b, fty, fn, args, 3, "");
}

static LLVMValueRef splat_f64(tr *t, double v);

/* fma.rm.f32 / fma.rp.f32 as the handler computes them (fmaf with the host's rounding mode set
 * downward or upward), in round-to-nearest double arithmetic: the product is exact in double,
 * the sum s = p + c and its error e (TwoSum) are the exact value s + e (no overflow: |p| <=
 * 2^256); f = s rounded to nearest float is within half a float ulp of it, so the directed
 * result is f, or its neighbour towards the rounding when f lies beyond s + e (e decides
 * where f == s). An exact zero takes the sign the rounding gives it (downward -0 unless both
 * addends are +0, upward +0 unless both are -0). A NaN or infinite s keeps f. */
static LLVMValueRef fma_f32_embedded(tr *t, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z, bool up);

static LLVMValueRef fma_f32_directed(tr *t, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z, bool up)
{
    LLVMValueRef native = fma_f32_embedded(t, x, y, z, up);
    if (native) return native;
    LLVMBuilderRef b = t->b;
    LLVMTypeRef vd = LLVMVectorType(LLVMDoubleTypeInContext(t->cx), EMU_WARP_SIZE);
    LLVMValueRef zd = LLVMBuildFPExt(b, z, vd, "");
    LLVMValueRef p = LLVMBuildFMul(b, LLVMBuildFPExt(b, x, vd, ""), LLVMBuildFPExt(b, y, vd, ""), "");
    LLVMValueRef sum = LLVMBuildFAdd(b, p, zd, "");
    LLVMValueRef bb = LLVMBuildFSub(b, sum, p, "");
    LLVMValueRef e = LLVMBuildFAdd(b, LLVMBuildFSub(b, p, LLVMBuildFSub(b, sum, bb, ""), ""),
                                   LLVMBuildFSub(b, zd, bb, ""), "");
    LLVMValueRef f = LLVMBuildFPTrunc(b, sum, t->vf, "");
    LLVMValueRef fd = LLVMBuildFPExt(b, f, vd, ""), zero = LLVMConstNull(vd);
    /* f beyond the exact value, in the direction opposite to the rounding */
    LLVMValueRef beyond = LLVMBuildOr(
        b, LLVMBuildFCmp(b, up ? LLVMRealOLT : LLVMRealOGT, fd, sum, ""),
        LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOEQ, fd, sum, ""),
                     LLVMBuildFCmp(b, up ? LLVMRealOGT : LLVMRealOLT, e, zero, ""), ""), "");
    LLVMValueRef fb = LLVMBuildBitCast(b, f, t->v32, "");
    /* the next float towards the rounding: from a zero the smallest subnormal of its side;
     * else one step of the magnitude (up: away from zero for f > 0, towards it for f < 0) */
    LLVMValueRef fpos = LLVMBuildFCmp(b, LLVMRealOGT, f, LLVMConstNull(t->vf), "");
    LLVMValueRef fzero = LLVMBuildFCmp(b, LLVMRealOEQ, f, LLVMConstNull(t->vf), "");
    LLVMValueRef inc = LLVMBuildAdd(b, fb, splat32(t, 1), ""), dec = LLVMBuildSub(b, fb, splat32(t, 1), "");
    LLVMValueRef next = up ? LLVMBuildSelect(b, fpos, inc, dec, "") : LLVMBuildSelect(b, fpos, dec, inc, "");
    next = LLVMBuildSelect(b, fzero, splat32(t, up ? 0x00000001u : 0x80000001u), next, "");
    LLVMValueRef r = LLVMBuildSelect(b, beyond, next, fb, "");
    /* an exact zero: s == 0 (then e == 0) */
    LLVMValueRef pb = LLVMBuildBitCast(b, p, t->v64, "");
    LLVMValueRef zb = LLVMBuildBitCast(b, z, t->v32, "");
    LLVMValueRef keep = up ? LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, pb, splat64(t, UINT64_C(1) << 63), ""),
                                          LLVMBuildICmp(b, LLVMIntEQ, zb, splat32(t, 0x80000000u), ""), "")
                           : LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, pb, splat64(t, 0), ""),
                                          LLVMBuildICmp(b, LLVMIntEQ, zb, splat32(t, 0), ""), "");
    LLVMValueRef signed_zero = LLVMBuildSelect(b, keep, up ? splat32(t, 0x80000000u) : splat32(t, 0),
                                               splat32(t, up ? 0 : 0x80000000u), "");
    r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, sum, zero, ""), signed_zero, r, "");
    return LLVMBuildBitCast(b, r, t->vf, "");
}

/* Whether the host (whose CPU the code is generated for: engine.c's target machine, and the
 * disk cache's key) has AVX-512F */
static bool host_avx512f(void)
{
    static int known = -1;
    if (known < 0) {
        char *features = LLVMGetHostCPUFeatures();
        known = features && strstr(features, "+avx512f") != NULL;
        LLVMDisposeMessage(features);
    }
    return known;
}

/* fma.rm / fma.rp.f32 by AVX-512's embedded rounding (vfmadd with {rd-sae} / {ru-sae}, 16
 * lanes a call): the IEEE fused multiply-add rounded downward or upward, which fmaf under
 * the host's rounding mode (the handler) gives too; a NaN's bits are made canonical after
 * (put_f32) as the handler's are. About 4 host instructions for the warp instead of
 * fma_f32_directed's 55 (Black-Scholes' expf has one per call, three per thread). 80M
 * random lane triples (zeros, subnormals, infinities, NaNs, exact and near cancellations)
 * against fmaf under fesetround: none differ. NULL without AVX-512F. */
static LLVMValueRef fma_f32_embedded(tr *t, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z, bool up)
{
    enum { HALF = EMU_WARP_SIZE / 2 };
    static const char name[] = "llvm.x86.avx512.vfmadd.ps.512";
    unsigned id = host_avx512f() ? LLVMLookupIntrinsicID(name, sizeof name - 1) : 0;
    if (!id) return NULL;
    LLVMBuilderRef b = t->b;
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(t->m, id, NULL, 0);
    LLVMTypeRef fty = LLVMIntrinsicGetType(t->cx, id, NULL, 0);
    LLVMValueRef part[2], whole[EMU_WARP_SIZE];
    for (unsigned h = 0; h < 2; h++) {
        LLVMValueRef sel[HALF];
        for (unsigned l = 0; l < HALF; l++) sel[l] = ci32(t, h * HALF + l);
        LLVMValueRef half = LLVMConstVector(sel, HALF);
        /* _MM_FROUND_NO_EXC | _MM_FROUND_TO_NEG_INF (9) or _TO_POS_INF (10) */
        LLVMValueRef args[4] = {LLVMBuildShuffleVector(b, x, LLVMGetPoison(t->vf), half, ""),
                                LLVMBuildShuffleVector(b, y, LLVMGetPoison(t->vf), half, ""),
                                LLVMBuildShuffleVector(b, z, LLVMGetPoison(t->vf), half, ""),
                                ci32(t, up ? 10 : 9)};
        part[h] = LLVMBuildCall2(b, fty, fn, args, 4, "");
    }
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) whole[l] = ci32(t, l);
    return LLVMBuildShuffleVector(b, part[0], part[1], LLVMConstVector(whole, EMU_WARP_SIZE), "");
}

static LLVMValueRef isnan_bits64(tr *t, LLVMValueRef v)
{
    LLVMValueRef mag = LLVMBuildAnd(t->b, v, splat64(t, ~(UINT64_C(1) << 63)), "");
    return LLVMBuildICmp(t->b, LLVMIntUGT, mag, splat64(t, UINT64_C(0x7ff0000000000000)), "");
}

/* sem_float_nan_f64: a NaN result r becomes the first NaN of x, y, z, quieted */
static LLVMValueRef nan_f64(tr *t, LLVMValueRef r, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z)
{
    LLVMBuilderRef b = t->b;
    LLVMValueRef q = splat64(t, UINT64_C(1) << 51);
    LLVMValueRef v = LLVMBuildSelect(b, isnan_bits64(t, z), LLVMBuildOr(b, z, q, ""), r, "");
    v = LLVMBuildSelect(b, isnan_bits64(t, y), LLVMBuildOr(b, y, q, ""), v, "");
    v = LLVMBuildSelect(b, isnan_bits64(t, x), LLVMBuildOr(b, x, q, ""), v, "");
    return LLVMBuildSelect(b, isnan_bits64(t, r), v, r, "");
}

static LLVMValueRef unary_intrinsic(tr *t, const char *name, LLVMTypeRef ty, LLVMValueRef a)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(t->m, id, &ty, 1);
    LLVMTypeRef fty = LLVMIntrinsicGetType(t->cx, id, &ty, 1);
    return LLVMBuildCall2(t->b, fty, fn, &a, 1, "");
}

/* f64 add/sub/mul/fma (sem_float_*_f64): the IEEE operation, then the NaN rule */
static LLVMValueRef f64_op(tr *t, const emu_uop *u)
{
    LLVMBuilderRef b = t->b;
    const emu_opd *o = u->opd;
    LLVMTypeRef vd = LLVMVectorType(LLVMDoubleTypeInContext(t->cx), EMU_WARP_SIZE);
    LLVMValueRef a = src(t, &o[1], PTX_TYPE_F64), bb = src(t, &o[2], PTX_TYPE_F64);
    if (u->op == PTX_OP_SUB) bb = LLVMBuildXor(b, bb, splat64(t, UINT64_C(1) << 63), "");
    LLVMValueRef x = LLVMBuildBitCast(b, a, vd, ""), y = LLVMBuildBitCast(b, bb, vd, ""), r;
    if (u->op == PTX_OP_FMA || u->op == PTX_OP_MAD) {
        LLVMValueRef cc = src(t, &o[3], PTX_TYPE_F64);
        LLVMValueRef args[3] = {x, y, LLVMBuildBitCast(b, cc, vd, "")};
        unsigned id = LLVMLookupIntrinsicID("llvm.fma", 8);
        LLVMValueRef fn = LLVMGetIntrinsicDeclaration(t->m, id, &vd, 1);
        r = LLVMBuildCall2(b, LLVMIntrinsicGetType(t->cx, id, &vd, 1), fn, args, 3, "");
        return nan_f64(t, LLVMBuildBitCast(b, r, t->v64, ""), bb, a, cc);
    }
    r = u->op == PTX_OP_MUL ? LLVMBuildFMul(b, x, y, "") : LLVMBuildFAdd(b, x, y, "");
    return nan_f64(t, LLVMBuildBitCast(b, r, t->v64, ""), a, bb, bb);
}

/* div, rcp, sqrt, rsqrt on f32 (sem_float_div_f32 ... sem_float_rsqrt_approx_f32): the
 * correctly rounded forms in f32, the approximate ones in double rounded once; the result
 * before sem_float_out_f32 (put_f32) */
static LLVMValueRef f32_div_family(tr *t, const emu_uop *u, bool ftz)
{
    LLVMBuilderRef b = t->b;
    const emu_opd *o = u->opd;
    LLVMTypeRef vd = LLVMVectorType(LLVMDoubleTypeInContext(t->cx), EMU_WARP_SIZE);
    bool approx = u->in->flags & PTX_F(APPROX);
    LLVMValueRef x = f32_in(t, &o[1], ftz), r;
    LLVMValueRef one32 = LLVMConstReal(t->f32, 1.0), one64;
    LLVMValueRef ones32[EMU_WARP_SIZE], ones64[EMU_WARP_SIZE];
    one64 = LLVMConstReal(LLVMDoubleTypeInContext(t->cx), 1.0);
    for (int i = 0; i < EMU_WARP_SIZE; i++) {
        ones32[i] = one32;
        ones64[i] = one64;
    }
    LLVMValueRef v1f = LLVMConstVector(ones32, EMU_WARP_SIZE), v1d = LLVMConstVector(ones64, EMU_WARP_SIZE);
    switch (u->op) {
    case PTX_OP_DIV: {
        LLVMValueRef y = f32_in(t, &o[2], ftz);
        r = LLVMBuildFDiv(b, x, y, "");
        if (approx) {
            /* a finite dividend over a finite divisor above 2^126 in magnitude gives 0 * x */
            LLVMValueRef yb = LLVMBuildAnd(b, LLVMBuildBitCast(b, y, t->v32, ""), splat32(t, 0x7fffffffu), "");
            LLVMValueRef xb = LLVMBuildAnd(b, LLVMBuildBitCast(b, x, t->v32, ""), splat32(t, 0x7fffffffu), "");
            LLVMValueRef big = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntUGT, yb, splat32(t, 0x7e800000u), ""),
                                            LLVMBuildICmp(b, LLVMIntULT, yb, splat32(t, 0x7f800000u), ""), "");
            big = LLVMBuildAnd(b, big, LLVMBuildICmp(b, LLVMIntULT, xb, splat32(t, 0x7f800000u), ""), "");
            LLVMValueRef zero = LLVMBuildFMul(b, LLVMConstNull(t->vf), x, "");
            r = LLVMBuildSelect(b, big, zero, r, "");
        }
        return r;
    }
    case PTX_OP_RCP:
        if (!approx) return LLVMBuildFDiv(b, v1f, x, "");
        r = LLVMBuildFDiv(b, v1d, LLVMBuildFPExt(b, x, vd, ""), "");
        return LLVMBuildFPTrunc(b, r, t->vf, "");
    case PTX_OP_SQRT:
        if (!approx) return unary_intrinsic(t, "llvm.sqrt", t->vf, x);
        r = unary_intrinsic(t, "llvm.sqrt", vd, LLVMBuildFPExt(b, x, vd, ""));
        return LLVMBuildFPTrunc(b, r, t->vf, "");
    default:   /* RSQRT (approx) */
        r = unary_intrinsic(t, "llvm.sqrt", vd, LLVMBuildFPExt(b, x, vd, ""));
        r = LLVMBuildFDiv(b, v1d, r, "");
        return LLVMBuildFPTrunc(b, r, t->vf, "");
    }
}

static LLVMValueRef splat_f64(tr *t, double v)
{
    LLVMValueRef e[EMU_WARP_SIZE];
    for (int i = 0; i < EMU_WARP_SIZE; i++) e[i] = LLVMConstReal(LLVMDoubleTypeInContext(t->cx), v);
    return LLVMConstVector(e, EMU_WARP_SIZE);
}

/* The sum of c[k] x^(k - lowest) for k = lowest .. n - 1 over 32 lanes of double, by Horner's
 * rule in fma from c[n - 1] down: lg2_f32's polynomial. */
static LLVMValueRef horner_f64(tr *t, const double *c, int n, int lowest, LLVMValueRef x)
{
    LLVMTypeRef vd = LLVMVectorType(LLVMDoubleTypeInContext(t->cx), EMU_WARP_SIZE);
    unsigned id = LLVMLookupIntrinsicID("llvm.fma", 8);
    LLVMValueRef fma = LLVMGetIntrinsicDeclaration(t->m, id, &vd, 1);
    LLVMTypeRef fty = LLVMIntrinsicGetType(t->cx, id, &vd, 1);
    LLVMValueRef p = splat_f64(t, c[n - 1]);
    for (int k = n - 2; k >= lowest; k--) {
        LLVMValueRef args[3] = {p, x, splat_f64(t, c[k])};
        p = LLVMBuildCall2(t->b, fty, fma, args, 3, "");
    }
    return p;
}

/* The lanes whose double result r is too near a float rounding boundary for a few ulps of
 * error to leave its rounding alone: r (1 - 2^-48) and r (1 + 2^-48) round to different floats.
 * They take the handler. */
static LLVMValueRef near_float_boundary(tr *t, LLVMValueRef r)
{
    LLVMBuilderRef b = t->b;
    LLVMValueRef lo = LLVMBuildFPTrunc(b, LLVMBuildFMul(b, r, splat_f64(t, 1 - 0x1p-48), ""), t->vf, "");
    LLVMValueRef hi = LLVMBuildFPTrunc(b, LLVMBuildFMul(b, r, splat_f64(t, 1 + 0x1p-48), ""), t->vf, "");
    return LLVMBuildICmp(b, LLVMIntNE, LLVMBuildBitCast(b, lo, t->v32, ""),
                         LLVMBuildBitCast(b, hi, t->v32, ""), "");
}

/* ex2.approx.f32 as sem_float_ex2_approx computes it, (float)exp2((double)x) with the host's
 * libm, without calling it: in double, x = n + f (n = x rounded to an integer, |f| <= 1/2,
 * exact), 2^f by a polynomial of degree 11 (mpmath's chebyfit of 2^f on [-1/2, 1/2], its
 * coefficients rounded to double: relative error below 2^-55) as two Horner chains of five
 * fma, c[0..5] and c[6..11], joined by f^6 (six fma deep where the Taylor series of degree 13
 * by Horner's rule was thirteen: the three ex2 of Black-Scholes' expf, a third of its
 * kernel's samples, were bound by that chain; kernel 32.3 -> 30.6 ms, least of 8, load 9;
 * Estrin's scheme measured the same with more spills), times 2^n from the exponent bits; x
 * beyond +-200 is clamped (the result is inf or 0 either way), a NaN goes through. This is
 * within a few double ulps of exp2's result
 * (glibc's is within one of the exact value), so both round to the same float unless a float
 * rounding boundary lies between them: *hard marks the lanes where r (1 -+ 2^-48) round to
 * different floats, which take the handler (about one input in 2^25; none of the 2^32 inputs
 * that are not hard rounds otherwise: bench/ex2_identical.sh checks it exhaustively). */
static LLVMValueRef ex2_f32(tr *t, LLVMValueRef x, LLVMValueRef *hard)
{
    static const double cheb[12] = {
        0x1.0000000000000p+0,  0x1.62e42fefa39efp-1,  0x1.ebfbdff82c5aep-3,  0x1.c6b08d704a0c6p-5,
        0x1.3b2ab6fb9f1a5p-7,  0x1.5d87fe78a3f9cp-10, 0x1.430913112c61bp-13, 0x1.ffcbfc6da6ed1p-17,
        0x1.62bfc2c86d700p-20, 0x1.b524ebd13a55fp-24, 0x1.e6228acd1c6e5p-28, 0x1.e9ec1fcb69a7fp-32};
    LLVMBuilderRef b = t->b;
    LLVMTypeRef vd = LLVMVectorType(LLVMDoubleTypeInContext(t->cx), EMU_WARP_SIZE);
    LLVMValueRef d = LLVMBuildFPExt(b, x, vd, "");
    LLVMValueRef nan = LLVMBuildFCmp(b, LLVMRealUNO, d, d, "");
    d = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, d, splat_f64(t, 200.0), ""), splat_f64(t, 200.0), d, "");
    d = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, d, splat_f64(t, -200.0), ""), splat_f64(t, -200.0), d, "");
    d = LLVMBuildSelect(b, nan, LLVMConstNull(vd), d, "");   /* no poison from fptosi below */
    LLVMValueRef n = unary_intrinsic(t, "llvm.roundeven", vd, d);
    LLVMValueRef f = LLVMBuildFSub(b, d, n, "");
    unsigned id = LLVMLookupIntrinsicID("llvm.fma", 8);
    LLVMValueRef fma = LLVMGetIntrinsicDeclaration(t->m, id, &vd, 1);
    LLVMTypeRef fty = LLVMIntrinsicGetType(t->cx, id, &vd, 1);
    /* two Horner chains of five fma, c[0..5] and c[6..11], joined by f^6 */
    LLVMValueRef half[2];
    for (int h = 0; h < 2; h++) {
        LLVMValueRef q = splat_f64(t, cheb[6 * h + 5]);
        for (int k = 6 * h + 4; k >= 6 * h; k--) {
            LLVMValueRef args[3] = {q, f, splat_f64(t, cheb[k])};
            q = LLVMBuildCall2(b, fty, fma, args, 3, "");
        }
        half[h] = q;
    }
    LLVMValueRef f2 = LLVMBuildFMul(b, f, f, "");
    LLVMValueRef f6 = LLVMBuildFMul(b, LLVMBuildFMul(b, f2, f2, ""), f2, "");
    LLVMValueRef args[3] = {half[1], f6, half[0]};
    LLVMValueRef p = LLVMBuildCall2(b, fty, fma, args, 3, "");
    LLVMValueRef e = LLVMBuildFPToSI(b, n, t->v64, "");
    e = LLVMBuildShl(b, LLVMBuildAdd(b, e, splat64(t, 1023), ""), splat64(t, 52), "");
    LLVMValueRef r = LLVMBuildFMul(b, p, LLVMBuildBitCast(b, e, vd, ""), "");
    *hard = near_float_boundary(t, r);
    return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, x, x, ""), x,
                           LLVMBuildFPTrunc(b, r, t->vf, ""), "");
}

/* lg2.approx.f32 as sem_float_lg2_approx computes it, (float)log2((double)x) with the host's
 * libm, without calling it: in double (a float's subnormals are normal there), x = m 2^e with
 * m in [sqrt(1/2), sqrt(2)) from the bits, and log2 m = (2 / ln 2) atanh s, s = (m - 1) /
 * (m + 1) (m - 1 and m + 1 exact, |s| < 0.172), by its series to s^21 (the first term left out
 * is below 2^-55 of the sum); zero, negative, infinite and NaN inputs are selected after (-inf,
 * NaN, x, NaN). As ex2_f32: within a few double ulps of log2's result, *hard marks the lanes
 * where r (1 -+ 2^-48) round to different floats, which take the handler; no other input rounds
 * otherwise (bench/lg2_identical.sh checks all 2^32). */
static LLVMValueRef lg2_f32(tr *t, LLVMValueRef x, LLVMValueRef *hard)
{
    static const double series[11] = {   /* 2 / ln 2 / (2k + 1), rounded to nearest */
        0x1.71547652b82fep+1, 0x1.ec709dc3a03fdp-1, 0x1.2776c50ef9bfep-1, 0x1.a61762a7aded9p-2,
        0x1.484b13d7c02a9p-2, 0x1.0c9a84994022dp-2, 0x1.c68f568d31760p-3, 0x1.89f3b1694cffep-3,
        0x1.5b9ac9b743f0dp-3, 0x1.3703c1f4d0ffep-3, 0x1.1964ec6fc9491p-3};
    LLVMBuilderRef b = t->b;
    LLVMTypeRef vd = LLVMVectorType(LLVMDoubleTypeInContext(t->cx), EMU_WARP_SIZE);
    LLVMValueRef d = LLVMBuildFPExt(b, x, vd, "");
    LLVMValueRef inf = splat_f64(t, __builtin_inf());
    LLVMValueRef ordinary = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOGT, d, LLVMConstNull(vd), ""),
                                         LLVMBuildFCmp(b, LLVMRealONE, d, inf, ""), "");
    d = LLVMBuildSelect(b, ordinary, d, splat_f64(t, 1.0), "");
    LLVMValueRef bits = LLVMBuildBitCast(b, d, t->v64, "");
    LLVMValueRef frac = LLVMBuildAnd(b, bits, splat64(t, UINT64_C(0x000fffffffffffff)), "");
    LLVMValueRef big = LLVMBuildICmp(b, LLVMIntUGT, frac, splat64(t, UINT64_C(0x6a09e667f3bcc)), "");
    LLVMValueRef big64 = LLVMBuildZExt(b, big, t->v64, "");
    LLVMValueRef e = LLVMBuildSub(b, LLVMBuildLShr(b, bits, splat64(t, 52), ""), splat64(t, 1023), "");
    e = LLVMBuildAdd(b, e, big64, "");
    LLVMValueRef mb = LLVMBuildOr(b, frac, splat64(t, UINT64_C(0x3ff0000000000000)), "");
    mb = LLVMBuildSub(b, mb, LLVMBuildShl(b, big64, splat64(t, 52), ""), "");
    LLVMValueRef m = LLVMBuildBitCast(b, mb, vd, "");
    LLVMValueRef one = splat_f64(t, 1.0);
    LLVMValueRef sv = LLVMBuildFDiv(b, LLVMBuildFSub(b, m, one, ""), LLVMBuildFAdd(b, m, one, ""), "");
    LLVMValueRef s2 = LLVMBuildFMul(b, sv, sv, "");
    LLVMValueRef p = horner_f64(t, series, 11, 1, s2);
    unsigned id = LLVMLookupIntrinsicID("llvm.fma", 8);
    LLVMValueRef fma = LLVMGetIntrinsicDeclaration(t->m, id, &vd, 1);
    LLVMTypeRef fty = LLVMIntrinsicGetType(t->cx, id, &vd, 1);
    LLVMValueRef args[3] = {LLVMBuildFMul(b, sv, s2, ""), p,
                            LLVMBuildFMul(b, sv, splat_f64(t, series[0]), "")};
    LLVMValueRef l = LLVMBuildCall2(b, fty, fma, args, 3, "");
    LLVMValueRef r = LLVMBuildFAdd(b, LLVMBuildSIToFP(b, e, vd, ""), l, "");
    *hard = near_float_boundary(t, r);
    /* the specials: NaN or below zero NaN, a zero -inf, +inf itself */
    LLVMValueRef nan = LLVMBuildFCmp(b, LLVMRealULT, x, LLVMConstNull(t->vf), "");
    LLVMValueRef special = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, x, LLVMConstNull(t->vf), ""),
                                           splat_f32(t, -__builtin_inf()), x, "");
    special = LLVMBuildSelect(b, nan, splat_f32(t, __builtin_nan("")), special, "");
    return LLVMBuildSelect(b, ordinary, LLVMBuildFPTrunc(b, r, t->vf, ""), special, "");
}

/* ---------------------------------------------------------------- which µops translate */

static uint64_t instr_flags(const emu_uop *u) { return u->in->flags; }

/* A plain float µop: f32, round to nearest, nothing but .ftz and .sat. */
static bool plain_f32(const emu_uop *u)
{
    const ptx_instr *in = u->in;
    return u->type == PTX_TYPE_F32 && in->ntypes == 1 &&
           (in->rnd == PTX_RND_NONE || in->rnd == PTX_RND_RN) &&
           (in->flags & ~(PTX_F(FTZ) | PTX_F(SAT))) == 0 && !(u->flags & EMU_UOP_CONTRACTED);
}

/* and/or/xor/not of predicate registers (x_pred_logic: whole lane masks) */
static bool pred_logic_translates(const emu_uop *u)
{
    const ptx_instr *in = u->in;
    unsigned n = u->op == PTX_OP_NOT ? 2 : 3;
    if (u->type != PTX_TYPE_PRED || u->nopd != n || in->nops != n || in->flags != 0) return false;
    for (unsigned k = 0; k < n; k++)
        if (u->opd[k].kind != EMU_OPD_PRED) return false;
    return !(u->opd[0].flags & EMU_OPD_F_NEG);
}

/* A plain f64 µop: round to nearest, no modifier, and a register among its sources (LLVM folds
 * an operation on constants with its own default NaN, not the host's). */
static bool plain_f64(const emu_uop *u)
{
    const ptx_instr *in = u->in;
    if (u->type != PTX_TYPE_F64 || in->ntypes != 1 || in->flags != 0 ||
        (u->flags & EMU_UOP_CONTRACTED) || (in->rnd != PTX_RND_NONE && in->rnd != PTX_RND_RN))
        return false;
    for (unsigned i = 1; i < u->nopd && i < 4; i++)
        if (u->opd[i].kind == EMU_OPD_REG) return true;
    return false;
}

static int32_t branch_target(const emu_uop *u)
{
    const ptx_instr *in = u->in;
    int32_t tg = in->target;
    if (tg < 0 && in->nops > 0 && in->ops[0].kind == PTX_OPD_LABEL) tg = (int32_t)in->ops[0].imm;
    return tg;
}

/* cvt between 32- and 64-bit integers without modifiers (sem_cvt_int_resize), and from 32-bit
 * integers to f32 rounding to nearest (sem_cvt_s32_to_f32, sem_cvt_u32_to_f32) */
static bool cvt_translates(const emu_uop *u)
{
    const ptx_instr *in = u->in;
    if (u->nopd != 2 || in->ntypes != 2) return false;
    uint8_t dt = in->types[0], st = in->types[1];
    /* cvt{.ftz}{.sat}.f32.f32 (emu_cvt: .ftz in and out, .sat, the canonical NaN) */
    if (dt == PTX_TYPE_F32 && st == PTX_TYPE_F32)
        return (in->flags & ~(PTX_F(FTZ) | PTX_F(SAT))) == 0 &&
               (in->rnd == PTX_RND_NONE || in->rnd == PTX_RND_RN) && dst_ok(&u->opd[0], dt) &&
               src_ok(&u->opd[1], st);
    if (in->flags != 0) return false;
    unsigned db = emu_type_bits[dt], sb = emu_type_bits[st];
    if (!int_type(st) || !dst_ok(&u->opd[0], dt)) return false;
    if (!src_ok(&u->opd[1], sb == 32 ? PTX_TYPE_B32 : PTX_TYPE_B64)) return false;
    if (int_type(dt)) return in->rnd == PTX_RND_NONE && db != sb;
    return dt == PTX_TYPE_F32 && sb == 32 && (in->rnd == PTX_RND_NONE || in->rnd == PTX_RND_RN);
}

/* ld/st of 4 or 8 bytes per lane at [reg+imm] in global, const, generic or shared space: the
 * interpreter's fast path (exec_mem.c), compiled; anything it would not take goes to the
 * handler, which takes the general path and reports faults. */
static bool mem_translates(const emu_code *code, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    bool st = u->op == PTX_OP_ST;
    uint8_t sp = in->space;
    if (sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_SHARED && sp != PTX_SPACE_NONE &&
        sp != PTX_SPACE_CONST)
        return false;
    unsigned vec = in->vec ? in->vec : 1;
    if (u->nopd != 2 || u->type == PTX_TYPE_NONE) return false;
    unsigned es = emu_type_bits[u->type] / 8;
    if ((es != 4 && es != 8) || es * vec > 16) return false;
    const emu_opd *ao = &u->opd[st ? 0 : 1], *r = &u->opd[st ? 1 : 0];
    if (ao->kind != EMU_OPD_ADDR || !(ao->flags & EMU_OPD_F_BASE_REG)) return false;
    /* the registers (exec_mem.c's fast_regs): one, or a vector's elements */
    const emu_opd *e = r;
    if (vec > 1) {
        if (r->kind != EMU_OPD_VEC || (unsigned)r->imm != vec) return false;
        e = &code->pool[r->row];
    }
    for (unsigned k = 0; k < vec; k++) {
        if (e[k].kind == EMU_OPD_REG &&
            (st ? e[k].bits >= es * 8 && e[k].bits != 128 : e[k].bits == es * 8))
            continue;
        if (st && e[k].kind == EMU_OPD_IMM) continue;
        return false;
    }
    return true;
}

/* ld.param of 4 or 8 bytes from one of the kernel's own parameters by name ([p] or [p+imm]):
 * exec_mem.c's ld_param_fast, compiled (its run-time conditions are checked by the code; the
 * handler takes what they refuse). */
static bool param_translates(const emu_code *code, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    if (u->op != PTX_OP_LD || in->space != PTX_SPACE_PARAM || in->vec > 1 || u->nopd != 2)
        return false;
    if (!code->fn || !code->fn->is_entry || !plain_type(u->type)) return false;
    unsigned es = emu_type_bits[u->type] / 8;
    if ((es != 4 && es != 8) || !dst_ok(&u->opd[0], u->type)) return false;
    const emu_opd *ao = &u->opd[1];
    if (ao->kind != EMU_OPD_SYM && !(ao->kind == EMU_OPD_ADDR && (ao->flags & EMU_OPD_F_BASE_SYM)))
        return false;
    for (uint32_t p = 0; p < code->fn->nparams; p++)
        if (code->fn->params[p] >= 0 && (uint32_t)code->fn->params[p] == ao->row) return true;
    return false;
}

/* An f32 add/sub that decode fused with the mul feeding it (fma_contraction.c: fma_f32 on the
 * mul's sources, as emu_exec_fma_contracted); the f64 form stays with its handler. */
static bool contracted_translates(const emu_uop *u)
{
    const emu_fma_contraction *fc = u->form;
    const ptx_instr *in = u->in;
    return u->type == PTX_TYPE_F32 && u->nopd == 3 && in->ntypes == 1 &&
           (in->flags & ~(PTX_F(FTZ) | PTX_F(SAT))) == 0 && dst_ok(&u->opd[0], u->type) &&
           src_ok(&fc->a, u->type) && src_ok(&fc->b, u->type) && src_ok(&fc->c, u->type);
}

bool emu_jit_translates(const emu_code *code, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t ty = u->type;
    const emu_opd *o = u->opd;
    switch (u->op) {
    case PTX_OP_BRA: {
        int32_t tg = branch_target(u);
        return u->nopd <= 1 && tg >= 0 && (uint32_t)tg <= code->n &&
               !(u->flags & EMU_UOP_SPIN_BACKEDGE);
    }
    case PTX_OP_MOV:
        return u->nopd == 2 && in->ntypes == 1 && plain_type(ty) && dst_ok(&o[0], ty) &&
               src_ok(&o[1], ty);
    case PTX_OP_ADD:
    case PTX_OP_SUB:
    case PTX_OP_MUL:
        if (u->flags & EMU_UOP_CONTRACTED) return contracted_translates(u);
        if (u->nopd != 3 || in->ntypes != 1) return false;
        if (ty == PTX_TYPE_F32)
            return plain_f32(u) && dst_ok(&o[0], ty) && src_ok(&o[1], ty) && src_ok(&o[2], ty);
        if (ty == PTX_TYPE_F64)
            return plain_f64(u) && dst_ok(&o[0], ty) && src_ok(&o[1], ty) && src_ok(&o[2], ty);
        if (!int_type(ty) || in->flags != 0) return false;
        if (u->op == PTX_OP_MUL && in->mode == PTX_SFX_HI) return false;
        if (u->op == PTX_OP_MUL && in->mode == PTX_SFX_WIDE) {
            if (emu_type_bits[ty] != 32) return false;
            uint8_t wt = emu_is_signed(ty) ? PTX_TYPE_S64 : PTX_TYPE_U64;
            return dst_ok(&o[0], wt) && src_ok(&o[1], ty) && src_ok(&o[2], ty);
        }
        return dst_ok(&o[0], ty) && src_ok(&o[1], ty) && src_ok(&o[2], ty);
    case PTX_OP_MAD:
        if (ty == PTX_TYPE_F32)   /* mad.rn.f32 is fma.rn.f32 */
            return u->nopd == 4 && in->ntypes == 1 && plain_f32(u) && dst_ok(&o[0], ty) &&
                   src_ok(&o[1], ty) && src_ok(&o[2], ty) && src_ok(&o[3], ty);
        if (ty == PTX_TYPE_F64)
            return u->nopd == 4 && in->ntypes == 1 && plain_f64(u) && dst_ok(&o[0], ty) &&
                   src_ok(&o[1], ty) && src_ok(&o[2], ty) && src_ok(&o[3], ty);
        if (u->nopd != 4 || in->ntypes != 1 || !int_type(ty) || in->flags != 0) return false;
        if (in->mode != PTX_SFX_LO && in->mode != 0) return false;
        return dst_ok(&o[0], ty) && src_ok(&o[1], ty) && src_ok(&o[2], ty) && src_ok(&o[3], ty);
    case PTX_OP_FMA:
        if (u->nopd != 4 || in->ntypes != 1 || !dst_ok(&o[0], ty) || !src_ok(&o[1], ty) ||
            !src_ok(&o[2], ty) || !src_ok(&o[3], ty))
            return false;
        if (ty == PTX_TYPE_F64) return plain_f64(u);
        /* .rm and .rp: fma_f32_directed */
        return ty == PTX_TYPE_F32 &&
               (in->rnd == PTX_RND_RN || in->rnd == PTX_RND_RM || in->rnd == PTX_RND_RP) &&
               (in->flags & ~(PTX_F(FTZ) | PTX_F(SAT))) == 0;
    case PTX_OP_REM:
        return u->nopd == 3 && in->ntypes == 1 && int_type(ty) && in->flags == 0 &&
               dst_ok(&o[0], ty) && src_ok(&o[1], ty) && src_ok(&o[2], ty);
    case PTX_OP_DIV:
    case PTX_OP_RCP:
    case PTX_OP_SQRT:
    case PTX_OP_RSQRT: {
        if (u->op == PTX_OP_DIV && int_type(ty))   /* int_div_rem */
            return u->nopd == 3 && in->ntypes == 1 && in->flags == 0 && dst_ok(&o[0], ty) &&
                   src_ok(&o[1], ty) && src_ok(&o[2], ty);
        unsigned n = u->op == PTX_OP_DIV ? 3 : 2;
        if (u->nopd != n || in->ntypes != 1 || ty != PTX_TYPE_F32 || !dst_ok(&o[0], ty) ||
            !src_ok(&o[1], ty) || (n == 3 && !src_ok(&o[2], ty)))
            return false;
        if (in->flags & ~(PTX_F(FTZ) | PTX_F(APPROX) | PTX_F(FULL))) return false;
        bool approx = in->flags & PTX_F(APPROX);
        /* the rounding forms round to nearest here (directed ones: the handler) */
        return approx || u->op == PTX_OP_RSQRT ||
               (in->rnd == PTX_RND_RN || (in->rnd == PTX_RND_NONE && (in->flags & PTX_F(FULL))));
    }
    case PTX_OP_EX2:   /* f32 .approx: ex2_f32 or lg2_f32, the handler for the lanes they */
    case PTX_OP_LG2:   /* cannot vouch for */
        return u->nopd == 2 && in->ntypes == 1 && ty == PTX_TYPE_F32 &&
               (in->flags & PTX_F(APPROX)) && (in->flags & ~(PTX_F(FTZ) | PTX_F(APPROX))) == 0 &&
               dst_ok(&o[0], ty) && src_ok(&o[1], ty);
    case PTX_OP_ABS:
    case PTX_OP_NEG:   /* f32: bit operations after .ftz (sem_float_abs_f32, _neg_f32) */
        return ty == PTX_TYPE_F32 && u->nopd == 2 && in->ntypes == 1 && in->rnd == PTX_RND_NONE &&
               (in->flags & ~PTX_F(FTZ)) == 0 && dst_ok(&o[0], ty) && src_ok(&o[1], ty);
    case PTX_OP_AND:
    case PTX_OP_OR:
    case PTX_OP_XOR:
        if (ty == PTX_TYPE_PRED) return pred_logic_translates(u);
        return u->nopd == 3 && in->ntypes == 1 && int_type(ty) && dst_ok(&o[0], ty) &&
               src_ok(&o[1], ty) && src_ok(&o[2], ty);
    case PTX_OP_NOT:
        if (ty == PTX_TYPE_PRED) return pred_logic_translates(u);
        return u->nopd == 2 && in->ntypes == 1 && int_type(ty) && in->flags == 0 &&
               dst_ok(&o[0], ty) && src_ok(&o[1], ty);
    case PTX_OP_MIN:
    case PTX_OP_MAX:   /* sem_int_min/max without .relu; sem_float_min/max_f32 */
        if (u->nopd != 3 || in->ntypes != 1 || in->rnd != PTX_RND_NONE || !dst_ok(&o[0], ty) ||
            !src_ok(&o[1], ty) || !src_ok(&o[2], ty))
            return false;
        if (ty == PTX_TYPE_F32) return (in->flags & ~(PTX_F(FTZ) | PTX_F(NANMODE))) == 0;
        return int_type(ty) && in->flags == 0;
    case PTX_OP_SHL:
    case PTX_OP_SHR:
        return u->nopd == 3 && in->ntypes == 1 && int_type(ty) && in->flags == 0 &&
               dst_ok(&o[0], ty) && src_ok(&o[1], ty) && src_ok(&o[2], PTX_TYPE_U32);
    case PTX_OP_SETP:
        if (u->nopd != 3 || in->boolop || in->ntypes != 1 || o[0].kind != EMU_OPD_PRED)
            return false;
        if (!src_ok(&o[1], ty) || !src_ok(&o[2], ty)) return false;
        if (int_type(ty)) return in->flags == 0 && in->cmp >= PTX_CMP_EQ && in->cmp <= PTX_CMP_HS;
        if (ty == PTX_TYPE_F32) return (in->flags & ~PTX_F(FTZ)) == 0 && in->cmp != 0;
        return false;
    case PTX_OP_SELP:
        return u->nopd == 4 && in->ntypes == 1 && plain_type(ty) && dst_ok(&o[0], ty) &&
               src_ok(&o[1], ty) && src_ok(&o[2], ty) && o[3].kind == EMU_OPD_PRED;
    case PTX_OP_CVT:
        return cvt_translates(u);
    case PTX_OP_CVTA:   /* sem_cvt_cvta: global and const are generic already; shared's window */
        return u->nopd == 2 && in->nops == 2 &&
               (in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_CONST ||
                in->space == PTX_SPACE_SHARED) &&
               int_type(ty) && dst_ok(&o[0], ty) && src_ok(&o[1], PTX_TYPE_U64);
    case PTX_OP_LD:
        return mem_translates(code, u) || param_translates(code, u);
    case PTX_OP_ST:
        return mem_translates(code, u);
    default:
        return false;
    }
}

/* ---------------------------------------------------------------- translated µops */

static LLVMIntPredicate int_pred(int cmp, bool sg)
{
    switch (cmp) {
    case PTX_CMP_EQ: return LLVMIntEQ;
    case PTX_CMP_NE: return LLVMIntNE;
    case PTX_CMP_LT: return sg ? LLVMIntSLT : LLVMIntULT;
    case PTX_CMP_LE: return sg ? LLVMIntSLE : LLVMIntULE;
    case PTX_CMP_GT: return sg ? LLVMIntSGT : LLVMIntUGT;
    case PTX_CMP_GE: return sg ? LLVMIntSGE : LLVMIntUGE;
    case PTX_CMP_LO: return LLVMIntULT;
    case PTX_CMP_LS: return LLVMIntULE;
    case PTX_CMP_HI: return LLVMIntUGT;
    default: return LLVMIntUGE;   /* HS */
    }
}

/* emu_cmp_float's table */
static LLVMRealPredicate real_pred(int cmp)
{
    switch (cmp) {
    case PTX_CMP_EQ: return LLVMRealOEQ;
    case PTX_CMP_NE: return LLVMRealONE;
    case PTX_CMP_LT: return LLVMRealOLT;
    case PTX_CMP_LE: return LLVMRealOLE;
    case PTX_CMP_GT: return LLVMRealOGT;
    case PTX_CMP_GE: return LLVMRealOGE;
    case PTX_CMP_EQU: return LLVMRealUEQ;
    case PTX_CMP_NEU: return LLVMRealUNE;
    case PTX_CMP_LTU: return LLVMRealULT;
    case PTX_CMP_LEU: return LLVMRealULE;
    case PTX_CMP_GTU: return LLVMRealUGT;
    case PTX_CMP_GEU: return LLVMRealUGE;
    case PTX_CMP_NUM: return LLVMRealORD;
    case PTX_CMP_NAN: return LLVMRealUNO;
    default: return LLVMRealPredicateFalse;
    }
}

/* Integer bits of width `bits` as a signed 64-bit value (emu_sext). */
static LLVMValueRef sext_bits(tr *t, LLVMValueRef v, unsigned bits)
{
    if (bits >= 64) return v;
    LLVMValueRef sh = splat64(t, 64 - bits);
    return LLVMBuildAShr(t->b, LLVMBuildShl(t->b, v, sh, ""), sh, "");
}

/* div and rem of integers as sem_int_div/_rem define them, in every lane: the lanes outside the
 * mask divide too, so no lane may divide by zero, nor the most negative value by -1 (both
 * undefined in LLVM, and a signed one overflows below): those divisors become 1 and the result
 * is chosen after. x86 has no vector integer division (LLVM would emit one per lane). */
static LLVMValueRef int_div_rem(tr *t, bool div, LLVMValueRef a, LLVMValueRef d, unsigned bits,
                                bool sg)
{
    LLVMBuilderRef b = t->b;
    LLVMValueRef wmask = splat64(t, emu_mask_bits(bits));
    LLVMValueRef x = sg ? sext_bits(t, a, bits) : LLVMBuildAnd(b, a, wmask, "");
    LLVMValueRef y = sg ? sext_bits(t, d, bits) : LLVMBuildAnd(b, d, wmask, "");
    LLVMValueRef zero = LLVMBuildICmp(b, LLVMIntEQ, y, splat64(t, 0), "");
    LLVMValueRef minus1 = sg ? LLVMBuildICmp(b, LLVMIntEQ, y, splat64(t, UINT64_MAX), "")
                             : LLVMConstNull(t->vb);
    LLVMValueRef ys = LLVMBuildSelect(b, LLVMBuildOr(b, zero, minus1, ""), splat64(t, 1), y, "");
    LLVMValueRef r;
    LLVMBasicBlockRef pow2_bb = NULL, pow2_join = NULL;
    LLVMValueRef pow2_r = NULL;
    if (bits <= 32 && !sg) {
        /* one divisor in every lane, a power of two (a stride by a uniform register or a
         * parameter: bitonic's t / j and t % j): a shift and a mask, not the doubles' eight
         * conversions and four divisions */
        LLVMValueRef x32 = LLVMBuildTrunc(b, x, t->v32, ""), y32 = LLVMBuildTrunc(b, y, t->v32, "");
        LLVMValueRef y0 = LLVMBuildExtractElement(b, y32, ci32(t, 0), "");
        LLVMValueRef same = LLVMBuildICmp(b, LLVMIntEQ, y32, vsplat(t, y0, ""), "");
        LLVMValueRef all = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildBitCast(b, same, t->i32, ""),
                                         ci32(t, UINT32_MAX), "");
        LLVMValueRef y0m1 = LLVMBuildSub(b, y0, ci32(t, 1), "");
        LLVMValueRef pow2 = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntNE, y0, ci32(t, 0), ""),
                                         LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, y0, y0m1, ""),
                                                       ci32(t, 0), ""), "");
        pow2_bb = block(t, "div.pow2");
        pow2_join = block(t, "div.done");
        LLVMBasicBlockRef any = block(t, "div.any");
        LLVMBuildCondBr(b, LLVMBuildAnd(b, all, pow2, ""), pow2_bb, any);
        LLVMPositionBuilderAtEnd(b, pow2_bb);
        LLVMValueRef cz_args[2] = {y0, LLVMConstInt(t->i1, 1, false)};
        LLVMValueRef sh = call_intrinsic(t, "llvm.cttz", &t->i32, 1, cz_args, 2);
        pow2_r = div ? LLVMBuildLShr(b, x32, vsplat(t, sh, ""), "")
                     : LLVMBuildAnd(b, x32, vsplat(t, y0m1, ""), "");
        pow2_r = LLVMBuildZExt(b, pow2_r, t->v64, "");
        LLVMBuildBr(b, pow2_join);
        LLVMPositionBuilderAtEnd(b, any);
    }
    if (bits <= 32) {
        /* in doubles, which x86 divides four or eight lanes at a time: the correctly rounded
         * quotient of two integers below 2^53 in magnitude never rounds across an integer, so
         * its truncation is the integer quotient, exactly */
        LLVMValueRef x32 = LLVMBuildTrunc(b, x, t->v32, ""), y32 = LLVMBuildTrunc(b, ys, t->v32, "");
        LLVMTypeRef vd = LLVMVectorType(LLVMDoubleTypeInContext(t->cx), EMU_WARP_SIZE);
        LLVMValueRef xd = sg ? LLVMBuildSIToFP(b, x32, vd, "") : LLVMBuildUIToFP(b, x32, vd, "");
        LLVMValueRef yd = sg ? LLVMBuildSIToFP(b, y32, vd, "") : LLVMBuildUIToFP(b, y32, vd, "");
        LLVMValueRef qd = LLVMBuildFDiv(b, xd, yd, "");
        LLVMValueRef q = sg ? LLVMBuildFPToSI(b, qd, t->v32, "") : LLVMBuildFPToUI(b, qd, t->v32, "");
        r = div ? q : LLVMBuildSub(b, x32, LLVMBuildMul(b, q, y32, ""), "");
        r = sg ? LLVMBuildSExt(b, r, t->v64, "") : LLVMBuildZExt(b, r, t->v64, "");
    } else {
        r = div ? (sg ? LLVMBuildSDiv(b, x, ys, "") : LLVMBuildUDiv(b, x, ys, ""))
                : (sg ? LLVMBuildSRem(b, x, ys, "") : LLVMBuildURem(b, x, ys, ""));
    }
    if (sg)   /* x / -1 is -x (wrapping), x % -1 is 0 */
        r = LLVMBuildSelect(b, minus1, div ? LLVMBuildSub(b, splat64(t, 0), x, "") : splat64(t, 0),
                            r, "");
    /* by zero: all ones for the quotient, a for the remainder */
    r = LLVMBuildSelect(b, zero, div ? wmask : a, r, "");
    r = LLVMBuildAnd(b, r, wmask, "");
    if (!pow2_bb) return r;
    return join2(b, pow2_join, t->v64, pow2_r, pow2_bb, r, LLVMGetInsertBlock(b));
}

/* Predicate o's lanes as i32 (emu_src_pred) */
static LLVMValueRef pred_src(tr *t, const emu_opd *o)
{
    LLVMValueRef p = LLVMBuildTrunc(t->b, pred_word(t, o->row), t->i32, "");
    return (o->flags & EMU_OPD_F_NEG) ? LLVMBuildNot(t->b, p, "") : p;
}

/* The value µop u computes for all 32 lanes (the mask is applied by put). */
static void emit_native(tr *t, const emu_uop *u, LLVMValueRef mask)
{
    const ptx_instr *in = u->in;
    const emu_opd *o = u->opd;
    uint8_t ty = u->type;
    unsigned bits = emu_type_bits[ty];
    bool sg = emu_is_signed(ty);
    LLVMValueRef wmask = splat64(t, emu_mask_bits(bits));
    LLVMBuilderRef b = t->b;
    LLVMValueRef r;
    if (u->op == PTX_OP_MOV) {
        /* a copy of a 32-bit row cached with its f (the bits it holds are that f's canonical
         * form) holds the same: it takes the f along */
        int k = o[1].kind == EMU_OPD_REG && o[1].bits == 32 && bits == 32 ? cached_index(t, o[1].row) : -1;
        if (k >= 0 && t->cache[k].f && !t->cache[k].low)
            put_raw_alt(t, &o[0], mask, t->cache[k].f, t->cache[k].alt, t->cache[k].flag);
        else put(t, &o[0], mask, src(t, &o[1], ty));
        return;
    }
    if (ty == PTX_TYPE_PRED) {   /* and/or/xor/not of predicates */
        LLVMValueRef a = pred_src(t, &o[1]);
        switch (u->op) {
        case PTX_OP_AND: r = LLVMBuildAnd(b, a, pred_src(t, &o[2]), ""); break;
        case PTX_OP_OR: r = LLVMBuildOr(b, a, pred_src(t, &o[2]), ""); break;
        case PTX_OP_XOR: r = LLVMBuildXor(b, a, pred_src(t, &o[2]), ""); break;
        default: r = LLVMBuildNot(b, a, ""); break;
        }
        put_pred(t, &o[0], mask, r);
        return;
    }
    if (u->op == PTX_OP_SETP) {
        LLVMValueRef cv;
        if (ty == PTX_TYPE_F32) {
            bool ftz = in->flags & PTX_F(FTZ);
            cv = LLVMBuildFCmp(b, real_pred(in->cmp), f32_in(t, &o[1], ftz), f32_in(t, &o[2], ftz), "");
            put_pred(t, &o[0], mask, LLVMBuildBitCast(b, cv, t->i32, ""));
            return;
        }
        LLVMValueRef a = src(t, &o[1], ty), bb = src(t, &o[2], ty);
        if (bits == 32) {
            cv = LLVMBuildICmp(b, int_pred(in->cmp, sg), LLVMBuildTrunc(b, a, t->v32, ""),
                               LLVMBuildTrunc(b, bb, t->v32, ""), "");
        } else {
            cv = LLVMBuildICmp(b, int_pred(in->cmp, sg), a, bb, "");
        }
        put_pred(t, &o[0], mask, LLVMBuildBitCast(b, cv, t->i32, ""));
        return;
    }
    if (u->op == PTX_OP_CVT) {
        uint8_t dt = in->types[0], st = in->types[1];
        unsigned sb = emu_type_bits[st], db = emu_type_bits[dt];
        if (dt == PTX_TYPE_F32 && st == PTX_TYPE_F32) {
            bool ftz = in->flags & PTX_F(FTZ);
            put_f32(t, &o[0], mask, f32_in(t, &o[1], ftz), ftz, in->flags & PTX_F(SAT));
            return;
        }
        LLVMValueRef a = src(t, &o[1], sb == 32 ? PTX_TYPE_B32 : PTX_TYPE_B64);
        if (dt == PTX_TYPE_F32) {
            LLVMValueRef x = LLVMBuildTrunc(b, a, t->v32, "");
            LLVMValueRef f = emu_is_signed(st) ? LLVMBuildSIToFP(b, x, t->vf, "")
                                               : LLVMBuildUIToFP(b, x, t->vf, "");
            put(t, &o[0], mask, LLVMBuildZExt(b, LLVMBuildBitCast(b, f, t->v32, ""), t->v64, ""));
            return;
        }
        LLVMValueRef v = emu_is_signed(st) ? sext_bits(t, a, sb)
                                           : LLVMBuildAnd(b, a, splat64(t, emu_mask_bits(sb)), "");
        put(t, &o[0], mask, LLVMBuildAnd(b, v, splat64(t, emu_mask_bits(db)), ""));
        return;
    }
    if (u->op == PTX_OP_CVTA) {
        LLVMValueRef v = src(t, &o[1], PTX_TYPE_U64);
        if (in->space == PTX_SPACE_SHARED) {
            LLVMValueRef w = splat64(t, EMU_SHARED_WINDOW);
            if (in->flags & PTX_F(TO)) {
                LLVMValueRef inwin = LLVMBuildAnd(
                    b, LLVMBuildICmp(b, LLVMIntUGE, v, w, ""),
                    LLVMBuildICmp(b, LLVMIntULT, v, splat64(t, EMU_SHARED_WINDOW + EMU_WINDOW_SIZE), ""), "");
                v = LLVMBuildSelect(b, inwin, LLVMBuildSub(b, v, w, ""), v, "");
            } else {
                v = LLVMBuildAdd(b, v, w, "");
            }
        }
        put(t, &o[0], mask, bits >= 64 ? v : LLVMBuildAnd(b, v, wmask, ""));
        return;
    }
    if (u->op == PTX_OP_SELP) {
        LLVMValueRef a = src(t, &o[1], ty), bb = src(t, &o[2], ty);
        LLVMValueRef p = LLVMBuildTrunc(b, pred_word(t, o[3].row), t->i32, "");
        if (o[3].flags & EMU_OPD_F_NEG) p = LLVMBuildNot(b, p, "");
        put(t, &o[0], mask, LLVMBuildSelect(b, mask_vec(t, p), a, bb, ""));
        return;
    }
    if (ty == PTX_TYPE_F64) {
        put(t, &o[0], mask, f64_op(t, u));
        return;
    }
    if (u->op == PTX_OP_REM || (u->op == PTX_OP_DIV && int_type(ty))) {
        put(t, &o[0], mask, int_div_rem(t, u->op == PTX_OP_DIV, src(t, &o[1], ty),
                                         src(t, &o[2], ty), bits, sg));
        return;
    }
    if (ty == PTX_TYPE_F32 && (u->op == PTX_OP_DIV || u->op == PTX_OP_RCP ||
                               u->op == PTX_OP_SQRT || u->op == PTX_OP_RSQRT)) {
        bool ftz = in->flags & PTX_F(FTZ);
        put_f32(t, &o[0], mask, f32_div_family(t, u, ftz), ftz, false);
        return;
    }
    if (ty == PTX_TYPE_F32 && (u->op == PTX_OP_ABS || u->op == PTX_OP_NEG)) {
        LLVMValueRef x = LLVMBuildBitCast(b, as_f32(t, src(t, &o[1], ty), in->flags & PTX_F(FTZ)),
                                          t->v32, "");
        x = u->op == PTX_OP_ABS ? LLVMBuildAnd(b, x, splat32(t, 0x7fffffffu), "")
                                : LLVMBuildXor(b, x, splat32(t, 0x80000000u), "");
        put(t, &o[0], mask, LLVMBuildZExt(b, x, t->v64, ""));
        return;
    }
    if (ty == PTX_TYPE_F32 && (u->flags & EMU_UOP_CONTRACTED)) {
        /* sem_float_fma_f32(a ^ na, b, c ^ nc, ftz, sat) on the mul's sources */
        const emu_fma_contraction *fc = u->form;
        bool ftz = in->flags & PTX_F(FTZ);
        LLVMValueRef x = f32_in(t, &fc->a, ftz), z = f32_in(t, &fc->c, ftz);
        /* the sign flips after .ftz as before it (a flushed zero keeps its sign) */
        if (fc->neg_product) x = LLVMBuildFNeg(b, x, "");
        if (fc->neg_addend) z = LLVMBuildFNeg(b, z, "");
        r = fma_f32(t, x, f32_in(t, &fc->b, ftz), z);
        put_f32(t, &o[0], mask, r, ftz, in->flags & PTX_F(SAT));
        return;
    }
    if (ty == PTX_TYPE_F32) {
        bool ftz = in->flags & PTX_F(FTZ);
        LLVMValueRef x = f32_in(t, &o[1], ftz), y = f32_in(t, &o[2], ftz);
        switch (u->op) {
        case PTX_OP_ADD: r = LLVMBuildFAdd(b, x, y, ""); break;
        case PTX_OP_SUB: r = LLVMBuildFSub(b, x, y, ""); break;
        case PTX_OP_MUL: r = LLVMBuildFMul(b, x, y, ""); break;
        case PTX_OP_MIN:
        case PTX_OP_MAX:
            r = minmax_f32(t, u->op == PTX_OP_MAX, x, y, in->flags & PTX_F(NANMODE));
            break;
        default:
            if (in->rnd == PTX_RND_RM || in->rnd == PTX_RND_RP)
                r = fma_f32_directed(t, x, y, f32_in(t, &o[3], ftz), in->rnd == PTX_RND_RP);
            else
                r = fma_f32(t, x, y, f32_in(t, &o[3], ftz));
            break;
        }
        put_f32(t, &o[0], mask, r, ftz, in->flags & PTX_F(SAT));
        return;
    }
    LLVMValueRef a = src(t, &o[1], ty);
    switch (u->op) {
    case PTX_OP_NOT: r = LLVMBuildXor(b, a, wmask, ""); break;
    case PTX_OP_MIN:
    case PTX_OP_MAX: {
        LLVMValueRef bv = src(t, &o[2], ty), x = sg ? sext_bits(t, a, bits) : a;
        LLVMValueRef y = sg ? sext_bits(t, bv, bits) : bv;
        LLVMIntPredicate p = u->op == PTX_OP_MIN ? (sg ? LLVMIntSLT : LLVMIntULT)
                                                 : (sg ? LLVMIntSGT : LLVMIntUGT);
        r = LLVMBuildSelect(b, LLVMBuildICmp(b, p, x, y, ""), a, bv, "");
        break;
    }
    case PTX_OP_ADD: r = LLVMBuildAnd(b, LLVMBuildAdd(b, a, src(t, &o[2], ty), ""), wmask, ""); break;
    case PTX_OP_SUB: r = LLVMBuildAnd(b, LLVMBuildSub(b, a, src(t, &o[2], ty), ""), wmask, ""); break;
    case PTX_OP_MUL:
        if (in->mode == PTX_SFX_WIDE) {
            LLVMValueRef bv = src(t, &o[2], ty);
            if (sg) {
                a = sext_bits(t, a, bits);
                bv = sext_bits(t, bv, bits);
            }
            r = LLVMBuildMul(b, a, bv, "");   /* & mask of 64 bits: nothing */
        } else {
            r = LLVMBuildAnd(b, LLVMBuildMul(b, a, src(t, &o[2], ty), ""), wmask, "");
        }
        break;
    case PTX_OP_MAD:
        r = LLVMBuildAdd(b, LLVMBuildMul(b, a, src(t, &o[2], ty), ""), src(t, &o[3], ty), "");
        r = LLVMBuildAnd(b, r, wmask, "");
        break;
    case PTX_OP_AND: r = LLVMBuildAnd(b, a, src(t, &o[2], ty), ""); break;
    case PTX_OP_OR: r = LLVMBuildOr(b, a, src(t, &o[2], ty), ""); break;
    case PTX_OP_XOR: r = LLVMBuildXor(b, a, src(t, &o[2], ty), ""); break;
    case PTX_OP_SHL: {
        LLVMValueRef s = src(t, &o[2], PTX_TYPE_U32);
        LLVMValueRef big = LLVMBuildICmp(b, LLVMIntUGE, s, splat64(t, bits), "");
        LLVMValueRef v = LLVMBuildAnd(b, LLVMBuildShl(b, a, LLVMBuildAnd(b, s, splat64(t, 63), ""), ""),
                                      wmask, "");
        r = LLVMBuildSelect(b, big, splat64(t, 0), v, "");
        break;
    }
    default: {   /* SHR */
        LLVMValueRef s = src(t, &o[2], PTX_TYPE_U32);
        LLVMValueRef big = LLVMBuildICmp(b, LLVMIntUGE, s, splat64(t, bits), "");
        if (sg) {
            /* a shift of bits or more fills with the sign, as a shift of bits - 1 does */
            LLVMValueRef sc = LLVMBuildSelect(b, big, splat64(t, bits - 1), s, "");
            r = LLVMBuildAnd(b, LLVMBuildAShr(b, sext_bits(t, a, bits), sc, ""), wmask, "");
        } else {
            LLVMValueRef v = LLVMBuildLShr(b, a, LLVMBuildAnd(b, s, splat64(t, 63), ""), "");
            r = LLVMBuildSelect(b, big, splat64(t, 0), v, "");
        }
        break;
    }
    }
    put(t, &o[0], mask, r);
}


/* ---------------------------------------------------------------- memory fast path */

/* v in all 32 lanes */
static LLVMValueRef vsplat(tr *t, LLVMValueRef v, const char *name)
{
    LLVMTypeRef vty = LLVMVectorType(LLVMTypeOf(v), EMU_WARP_SIZE);
    LLVMValueRef one = LLVMBuildInsertElement(t->b, LLVMGetPoison(vty), v, ci32(t, 0), "");
    return LLVMBuildShuffleVector(t->b, one, LLVMGetPoison(vty),
                                  LLVMConstNull(LLVMVectorType(t->i32, EMU_WARP_SIZE)), name);
}

static LLVMValueRef call_intrinsic(tr *t, const char *name, LLVMTypeRef *over, unsigned nover,
                                   LLVMValueRef *args, unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(t->m, id, over, nover);
    LLVMTypeRef fty = LLVMIntrinsicGetType(t->cx, id, over, nover);
    return LLVMBuildCall2(t->b, fty, fn, args, nargs, "");
}

/* A <32 x i64> slot in the function's entry block, made at the first use: the lanes' addresses
 * stored once there and read at a lane known only at run time (each extractelement at a
 * variable lane stores the whole vector anew). */
static LLVMValueRef lanes_slot(tr *t)
{
    if (!t->lanes_slot) {
        LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(t->fn);
        LLVMBuilderRef eb = LLVMCreateBuilderInContext(t->cx);
        LLVMValueRef first = LLVMGetFirstInstruction(entry);
        if (first) LLVMPositionBuilderBefore(eb, first);
        else LLVMPositionBuilderAtEnd(eb, entry);
        t->lanes_slot = LLVMBuildAlloca(eb, t->v64, "lanes");
        LLVMSetAlignment(t->lanes_slot, 64);
        LLVMDisposeBuilder(eb);
    }
    return t->lanes_slot;
}

/* lane l of the vector of ty elements stored at slot */
static LLVMValueRef lane_load(tr *t, LLVMValueRef slot, LLVMTypeRef ty, LLVMValueRef l)
{
    LLVMValueRef idx = LLVMBuildZExt(t->b, l, t->i64, "");
    return load(t, ty, LLVMBuildGEP2(t->b, ty, slot, &idx, 1, ""));
}

/* Software prefetch for a consecutive global load in a loop segment, at its stride: the
 * emulator runs a warp's whole grid-stride loop before the next warp starts, so each
 * iteration's load is a fresh line far (a grid's width: 1 MB in the anchor reduce) from the
 * last; the core's own prefetchers do not follow that stride and the load waits on memory once
 * per iteration (the reduce's two hottest instructions, 68 -> 24 ms of kernel CPU time). Half 0's
 * start minus the last iteration's (kept in a slot, a phi after mem2reg, 0 before the first)
 * gives the stride; each half's lines (start[h], bytes long) JIT_PREFETCH_AHEAD iterations
 * ahead are asked for (2 to 6 measured the same on the reduce; prefetching the first
 * iterations' lines too, once the stride is known, gained nothing). A prefetch has no effect on
 * the program (it never faults, whatever the address), so the run stays bit-identical. */
#define JIT_PREFETCH_AHEAD 4
static void emit_stride_prefetch(tr *t, LLVMValueRef start[2], unsigned bytes)
{
    LLVMBuilderRef b = t->b;
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(t->fn);
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(t->cx);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first) LLVMPositionBuilderBefore(eb, first);
    else LLVMPositionBuilderAtEnd(eb, entry);
    LLVMValueRef slot = LLVMBuildAlloca(eb, t->i64, "last_start");
    LLVMBuildStore(eb, ci64(t, 0), slot);
    LLVMDisposeBuilder(eb);
    LLVMValueRef last = load(t, t->i64, slot);
    LLVMBuildStore(b, start[0], slot);
    /* before the first iteration, no stride: the lines being loaded now */
    LLVMValueRef stride = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, last, ci64(t, 0), ""), ci64(t, 0),
                                          LLVMBuildSub(b, start[0], last, ""), "");
    LLVMValueRef ahead = LLVMBuildMul(b, stride, ci64(t, JIT_PREFETCH_AHEAD), "");
    LLVMTypeRef pty = t->ptr;
    for (unsigned h = 0; h < 2; h++)
        for (unsigned k = 0; k < (bytes + 63) / 64; k++) {
            LLVMValueRef at = LLVMBuildAdd(b, LLVMBuildAdd(b, start[h], ahead, ""), ci64(t, 64u * k), "");
            LLVMValueRef args[4] = {LLVMBuildIntToPtr(b, at, t->ptr, ""), ci32(t, 0), ci32(t, 3), ci32(t, 1)};
            call_intrinsic(t, "llvm.prefetch", &pty, 1, args, 4);
        }
}

/* Software prefetch for a consecutive global load outside a loop segment: each half's lines
 * JIT_PREFETCH_BYTES further on. The emulator runs a grid's warps one after the other, so a
 * kernel that streams through an array in thread order (vecadd's two loads: each warp the next
 * 128 bytes) or a tile's rows in block order (transpose's `in` rows: the next block in x reads
 * the next 128 bytes of the same rows) reads there soon; the core's own prefetchers lose such
 * streams between the emulator's own accesses and at every 4 KB page (vecadd 16M's two loads
 * were 45% of its compiled code's samples). Measured (kernel CPU, --threads=1, cached code,
 * least of 4 interleaved, load ~2.5): vecadd 16M 63.1 -> 46.6 ms, transpose 2048 26.3 -> 23.9,
 * Black-Scholes 4M 56.7 -> 50.8, matmul, n-body, reduce unchanged; 128 to 4096 bytes ahead
 * measured alike. A hint only: it never faults, whatever the address, so every executor's
 * results stay bit-identical. */
#define JIT_PREFETCH_BYTES 256
static void emit_ahead_prefetch(tr *t, LLVMValueRef start[2], unsigned bytes)
{
    LLVMTypeRef pty = t->ptr;
    for (unsigned h = 0; h < 2; h++)
        for (unsigned k = 0; k < (bytes + 63) / 64; k++) {
            LLVMValueRef at = LLVMBuildAdd(t->b, start[h], ci64(t, JIT_PREFETCH_BYTES + 64u * k), "");
            /* read, keep in every cache level, data */
            LLVMValueRef args[4] = {LLVMBuildIntToPtr(t->b, at, t->ptr, ""), ci32(t, 0), ci32(t, 3),
                                    ci32(t, 1)};
            call_intrinsic(t, "llvm.prefetch", &pty, 1, args, 4);
        }
}

/* The address of a lane's access plus off bytes (i64): x the lane's offset in the shared block
 * smem (32 bits), or, smem NULL, its address (64 bits) */
static LLVMValueRef lane_ptr(tr *t, LLVMValueRef smem, LLVMValueRef x, LLVMValueRef off)
{
    if (!smem) return LLVMBuildIntToPtr(t->b, LLVMBuildAdd(t->b, x, off, ""), t->ptr, "");
    LLVMValueRef o = LLVMBuildAdd(t->b, LLVMBuildZExt(t->b, x, t->i64, ""), off, "");
    return LLVMBuildGEP2(t->b, t->i8, smem, &o, 1, "");
}

/* The 32-bit halves of the base register of address operand o (its low halves, which a
 * shared address of 32 bits takes): from the register cache, else loaded as halves and cached
 * as src() caches them, the row of a register of at most 32 bits being their zero extension */
static LLVMValueRef address_low(tr *t, const emu_opd *o)
{
    int k = cached_index(t, o->row);
    if (k >= 0) {
        LLVMValueRef low = cached_low(t, k, true);
        return low ? low : LLVMBuildTrunc(t->b, t->cache[k].v, t->v32, "");
    }
    LLVMValueRef low = load_low(t, o->row);
    if (o->bits != 0 && o->bits <= 32)
        cache_row_low(t, o->row, LLVMBuildZExt(t->b, low, t->v64, ""), low);
    return low;
}

/* Emits the fast path of ld/st µop u for the lanes of mask, branching to slow when a lane is
 * outside what the interpreter's fast path accepts (the handler then runs it). Leaves the
 * builder after the access. */
/* Whether µop i lies in a loop: some branch at or after it goes back to it or before. */
static bool in_loop(const tr *t, uint32_t i)
{
    for (uint32_t j = i; j < t->n; j++) {
        const emu_uop *u = &t->code->uops[j];
        if (u->op != PTX_OP_BRA) continue;
        int32_t tg = branch_target(u);
        if (tg >= 0 && (uint32_t)tg <= i) return true;
    }
    return false;
}

/* The warp's jit_prefetch slot of global access µop u for emit_next_trip_prefetch (a load in a
 * loop outside a loop segment, among the first EMU_JIT_PREFETCH_SITES), or -1.
 * A global load in a loop prefetches where the same load of the same warp will read next: its
 * first active lane's address plus the step since the warp last came by (the warp's
 * jit_prefetch slot of the site), for lanes 0 and 16 (a 16-wide tile's two rows). matmul's
 * B tile (a column band: each lane row n floats from the next, each iteration 16 rows on)
 * missed the host's caches on every tile: its next rows are now on their way while the
 * block's other warps run up to the barrier (kernel CPU at 512, least of 3-5: 141 -> 117 ms
 * under load 4-12, whose processes crowd the host's caches; idle 90 -> 91, its B-load samples
 * 8% -> 0; transpose 2048 58 -> 48 ms idle). Not in a loop segment (translated whole,
 * rows in registers), whose consecutive loads prefetch at their stride instead
 * (emit_stride_prefetch) and whose uniform loads (n-body's) would pay for a hint every trip. A
 * hint only: it cannot fault or change what any executor computes (an address out of every
 * allocation is harmless to prefetch). */
static int next_trip_site(tr *t, const emu_uop *u)
{
    if (u->op != PTX_OP_LD || t->nprefetch >= EMU_JIT_PREFETCH_SITES || t->loop_head != NO_LOOP ||
        !in_loop(t, (uint32_t)(u - t->code->uops)))
        return -1;
    return (int)t->nprefetch++;
}

/* The hint itself for site (next_trip_site(): -1 for none), a the lanes' addresses, a0 the
 * first active lane's */
static void emit_next_trip_prefetch(tr *t, int site, LLVMValueRef a, LLVMValueRef a0)
{
    if (site < 0) return;
    LLVMBuilderRef b = t->b;
    LLVMValueRef slot = warp_field(t, offsetof(emu_warp, jit_prefetch) + (unsigned)site * sizeof(uint64_t));
    LLVMValueRef last = load(t, t->i64, slot);
    LLVMBuildStore(b, a0, slot);
    /* a fresh warp's slot is 0: no step yet */
    LLVMValueRef step = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, last, ci64(t, 0), ""),
                                        ci64(t, 0), LLVMBuildSub(b, a0, last, ""), "");
    LLVMTypeRef pty[1] = {t->ptr};
    for (unsigned h = 0; h < 2; h++) {
        LLVMValueRef at = LLVMBuildAdd(
            b, LLVMBuildExtractElement(b, a, ci32(t, h * (EMU_WARP_SIZE / 2)), ""), step, "");
        /* read, keep in every cache level, data */
        LLVMValueRef args[4] = {LLVMBuildIntToPtr(b, at, t->ptr, ""), ci32(t, 0), ci32(t, 3),
                                ci32(t, 1)};
        call_intrinsic(t, "llvm.prefetch", pty, 1, args, 4);
    }
}

/* The address base row of global access µop v (its register's row), or UINT32_MAX (another
 * kind of access, or an address without a base register) */
static uint32_t global_base_row(const emu_uop *v)
{
    if ((v->op != PTX_OP_LD && v->op != PTX_OP_ST) || v->in->space == PTX_SPACE_SHARED ||
        v->in->space == PTX_SPACE_PARAM)
        return UINT32_MAX;
    const emu_opd *ao = &v->opd[v->op == PTX_OP_ST ? 0 : 1];
    return ao->kind == EMU_OPD_ADDR && (ao->flags & EMU_OPD_F_BASE_REG) ? ao->row : UINT32_MAX - 1;
}

/* The entry of emu_warp.jit_hit that global access µop i uses: one per base register, in the
 * order the function's global accesses first name them, modulo EMU_JIT_HITS, so that a few
 * arrays accessed in turn (vecadd's a, b and c) keep an entry each, and a second access through
 * the same pointer shares its entry (Black-Scholes reads two of its three arrays again at the
 * end and writes two more: one entry per access, modulo 4, had 6 of its 7 accesses per warp
 * miss, each a call of emu_jit_refill with the vector registers spilled around it). */
static uint32_t hit_entry(const tr *t, uint32_t i)
{
    uint32_t row = global_base_row(&t->code->uops[i]), k = 0;
    for (uint32_t j = 0; j < i; j++) {
        uint32_t r = global_base_row(&t->code->uops[j]);
        if (r == UINT32_MAX) continue;
        if (r == row && r != UINT32_MAX - 1) return k % EMU_JIT_HITS;
        /* counted at its first access only */
        bool seen = false;
        for (uint32_t q = 0; q < j && !seen && r != UINT32_MAX - 1; q++)
            seen = global_base_row(&t->code->uops[q]) == r;
        if (!seen) k++;
    }
    return k % EMU_JIT_HITS;
}

/* ------------------------------------------- shapes of shared addresses within a segment */

static bool opd_names_row(const tr *t, const emu_opd *o, uint32_t row);
static bool opds_name_row(const tr *t, const emu_uop *u, uint32_t row);

static int shape_find(const tr *t, uint32_t row)
{
    for (uint32_t k = 0; k < t->nshape; k++)
        if (t->shape[k].row == row) return (int)k;
    return -1;
}

/* row's shape for accesses of es bytes, or -1 */
static int shape_known(const tr *t, uint32_t row, uint32_t es)
{
    int k = shape_find(t, row);
    return k >= 0 && t->shape[k].es == es ? k : -1;
}

/* At a µop's block (the builder there, among its phis): each known shape joined from the µop
 * before (t->fall) and the side entry, where it is unknown (shape_join_side adds that way in).
 * Nothing is known after a handler (no fall). */
static void shape_join(tr *t)
{
    if (!t->fall) {
        t->nshape = 0;
        return;
    }
    for (uint32_t k = 0; k < t->nshape; k++) {
        LLVMValueRef phi = LLVMBuildPhi(t->b, t->i8, "shape");
        LLVMAddIncoming(phi, &t->shape[k].state, &t->fall, 1);
        t->shape[k].state = phi;
    }
}

/* The side entry's way into shape_join's phis, from in (the side block's last block: a
 * stretch's budget check may have split it): no shape is known there. */
static void shape_join_side(tr *t, LLVMBasicBlockRef in)
{
    LLVMValueRef side = LLVMConstInt(t->i8, SHAPE_UNKNOWN, false);
    for (uint32_t k = 0; k < t->nshape; k++) LLVMAddIncoming(t->shape[k].state, &side, &in, 1);
}

/* The shapes of the rows operand o may write are no longer known. */
static void shape_forget(tr *t, const emu_opd *o)
{
    for (uint32_t k = 0; k < t->nshape;)
        if (opd_names_row(t, o, t->shape[k].row)) t->shape[k] = t->shape[--t->nshape];
        else k++;
}

static void shape_forget_uop(tr *t, const emu_uop *u)
{
    for (unsigned k = 0; k < u->nopd; k++) shape_forget(t, emu_uop_opd(u, k));
}

/* Keeps (or replaces) row's shape (an i8 state) for accesses of es bytes. */
static void shape_keep(tr *t, uint32_t row, uint32_t es, LLVMValueRef state)
{
    int k = shape_find(t, row);
    if (k < 0) {
        if (t->nshape == JIT_SHAPES) return;
        k = (int)t->nshape++;
    }
    t->shape[k] = (shared_shape){row, es, state};
}

/* The shared block for 32-bit shared accesses of total bytes (a power of two up to 32): *ok
 * (i1) where the interpreter's fast path may take them (the direct policy or one that needs no
 * memory operations, not observing plain accesses; a block of at most 2^31 bytes, at least
 * total), *last (i32) the last offset such an access may start at. Read once where the
 * function is entered (a run keeps its CTA, whose block does not move, and its memory policy),
 * not per access, where a row store in between could alias it. */
static LLVMValueRef shared_block(tr *t, unsigned total, LLVMValueRef *ok, LLVMValueRef *last)
{
    unsigned k = 0;
    while ((1u << k) < total) k++;
    assert((1u << k) == total && k < 6);
    if (!t->smem_ok[k]) {
        LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(t->fn);
        LLVMBuilderRef eb = LLVMCreateBuilderInContext(t->cx), tb = t->b;
        LLVMPositionBuilderBefore(eb, LLVMGetBasicBlockTerminator(entry));
        t->b = eb;   /* field() and ctx_field() build with t->b */
        /* the event variant's fast path: the direct policy (emit_shared_event records the
         * access; direct_mem is for runs without events) */
        LLVMValueRef direct = LLVMBuildLoad2(
            eb, t->i8, ctx_field(t, t->events ? offsetof(emu_ctx, direct_events) : offsetof(emu_ctx, direct_mem)), "");
        LLVMValueRef observed = LLVMBuildLoad2(eb, t->i8, ctx_field(t, offsetof(emu_ctx, observed_mem)), "");
        LLVMValueRef cta = LLVMBuildLoad2(eb, t->ptr, ctx_field(t, offsetof(emu_ctx, cta)), "");
        LLVMValueRef size = LLVMBuildLoad2(eb, t->i64, field(t, cta, offsetof(emu_cta, smem_size)), "");
        if (!t->smem) t->smem = LLVMBuildLoad2(eb, t->ptr, field(t, cta, offsetof(emu_cta, smem)), "");
        LLVMValueRef plain = LLVMBuildAnd(
            eb, LLVMBuildICmp(eb, LLVMIntNE, direct, LLVMConstInt(t->i8, 0, 0), ""),
            LLVMBuildICmp(eb, LLVMIntEQ, observed, LLVMConstInt(t->i8, 0, 0), ""), "");
        LLVMValueRef fits = LLVMBuildAnd(
            eb, LLVMBuildICmp(eb, LLVMIntULE, size, ci64(t, UINT64_C(1) << 31), ""),
            LLVMBuildICmp(eb, LLVMIntUGE, size, ci64(t, total), ""), "");
        t->smem_ok[k] = LLVMBuildAnd(eb, plain, fits, "");
        t->smem_last[k] = LLVMBuildTrunc(eb, LLVMBuildSub(eb, size, ci64(t, total), ""), t->i32, "");
        t->b = tb;
        LLVMDisposeBuilder(eb);
    }
    *ok = t->smem_ok[k];
    *last = t->smem_last[k];
    return t->smem;
}

/* The loads a known shape made (emit_known_loads): their values and blocks, for
 * emit_known_access's join, and the shape each keeps */
typedef struct {
    unsigned n;
    LLVMValueRef got[4], state[4];
    LLVMBasicBlockRef from[4];
} known_access;

/* Whether µop j is a 32-bit shared load of the warp's lanes (no guard) of es bytes through
 * base row `row` (one that may take a kept shape: emit_mem's keep_shape). */
static bool takes_shape(const tr *t, const emu_uop *v, uint32_t row, unsigned es)
{
    const emu_opd *ao = &v->opd[1];
    return v->op == PTX_OP_LD && v->in->space == PTX_SPACE_SHARED && ao->bits <= 32 &&
           (!v->in->vec || v->in->vec == 1) && emu_type_bits[v->type] / 8 == es &&
           v->guard_row == EMU_NO_GUARD && ao->row == row && translates(t, v);
}

/* The offsets, from imm's, of the loads after µop i that may take the shape µop i keeps for
 * row (takes_shape, while emit_uop keeps it: up to a handler, a branch, the segment's end or a
 * µop that may write the row), as [*lo, *hi] (0 included); false when one is not a multiple of
 * es from imm (its alignment is then its own to check). */
static bool shape_range(const tr *t, uint32_t i, uint32_t row, unsigned es, uint32_t imm, int64_t *lo,
                        int64_t *hi)
{
    *lo = *hi = 0;
    for (uint32_t j = i + 1; j < t->n && !t->seg_start[j]; j++) {
        const emu_uop *v = &t->code->uops[j];
        if (!translates(t, v) || v->op == PTX_OP_BRA) break;
        if (takes_shape(t, v, row, es)) {
            int64_t d = (int32_t)((uint32_t)v->opd[1].imm - imm);
            if (d % (int64_t)es) return false;
            if (d < *lo) *lo = d;
            if (d > *hi) *hi = d;
        }
        if (v->op == PTX_OP_LD ? opd_names_row(t, &v->opd[0], row)
                               : v->op != PTX_OP_ST && opds_name_row(t, v, row))
            break;
    }
    return true;
}

/* Whether each half's lanes, starting at p[h] and span bytes on, lie in [0, last] for every
 * offset of [lo, hi] added (i1; 64-bit arithmetic: no wrap) */
static LLVMValueRef range_fits(tr *t, LLVMValueRef p[2], LLVMValueRef span, LLVMValueRef last,
                               int64_t lo, int64_t hi)
{
    LLVMBuilderRef b = t->b;
    LLVMValueRef ok = NULL, last64 = LLVMBuildZExt(b, last, t->i64, "");
    for (unsigned h = 0; h < 2; h++) {
        LLVMValueRef ph = LLVMBuildZExt(b, p[h], t->i64, "");
        LLVMValueRef first = LLVMBuildAdd(b, ph, ci64(t, (uint64_t)lo), "");
        LLVMValueRef end = LLVMBuildAdd(b, LLVMBuildAdd(b, ph, ci64(t, (uint64_t)hi), ""), span, "");
        LLVMValueRef okh = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntSGE, first, ci64(t, 0), ""),
                                        LLVMBuildICmp(b, LLVMIntSLE, end, last64, ""), "");
        ok = ok ? LLVMBuildAnd(b, ok, okh, "") : okh;
    }
    return ok;
}

/* The loads of a 32-bit shared load of es bytes per lane at offsets x + imm whose kept shape
 * `state` is a whole warp's uniform or consecutive one: each half's lanes are at x[0] + imm and
 * x[16] + imm on (read from the vector: no search for the first active lane), a uniform half's one value or a
 * consecutive half's 16 elements; or the lanes of mask (the first load's) gathered, where that
 * load gathered them and checked their offsets for this one (emit_mem's gather_checked); the
 * shape is kept as it came. Returns the block that makes them (entered where the shape was
 * checked ahead), whose loads join emit_known_access's through ka. */
static LLVMBasicBlockRef emit_known_loads(tr *t, known_access *ka, LLVMValueRef state, LLVMValueRef x,
                                          uint32_t imm, LLVMValueRef smem, unsigned es, LLVMValueRef mask)
{
    enum { HALF = EMU_WARP_SIZE / 2 };
    LLVMBuilderRef b = t->b;
    LLVMBasicBlockRef at = LLVMGetInsertBlock(b);
    LLVMBasicBlockRef kload = block(t, "mem.known.load"), kshaped = block(t, "mem.known.shaped");
    LLVMBasicBlockRef kuni = block(t, "mem.known.uniform"), kcon = block(t, "mem.known.consecutive");
    LLVMBasicBlockRef kgat = block(t, "mem.known.gather");
    LLVMPositionBuilderAtEnd(b, kload);
    LLVMValueRef kind = LLVMBuildAnd(b, state, LLVMConstInt(t->i8, SHAPE_CHECKED - 1, false), "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, kind, LLVMConstInt(t->i8, SHAPE_OTHER, false), ""),
                    kgat, kshaped);
    LLVMPositionBuilderAtEnd(b, kshaped);
    LLVMValueRef p[2];
    for (unsigned h = 0; h < 2; h++)
        p[h] = LLVMBuildAdd(b, LLVMBuildExtractElement(b, x, ci32(t, h * HALF), ""), ci32(t, imm), "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, kind, LLVMConstInt(t->i8, SHAPE_UNIFORM, false), ""),
                    kuni, kcon);
    LLVMTypeRef ety = es == 4 ? t->i32 : t->i64, pairty = LLVMVectorType(ety, 2);
    LLVMTypeRef hvty = LLVMVectorType(ety, HALF);
    LLVMValueRef by_half[EMU_WARP_SIZE], whole_sel[EMU_WARP_SIZE];
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        by_half[l] = ci32(t, l / HALF);
        whole_sel[l] = ci32(t, l);
    }
    LLVMPositionBuilderAtEnd(b, kuni);
    LLVMValueRef pr = LLVMGetPoison(pairty);
    for (unsigned h = 0; h < 2; h++) {
        LLVMValueRef one = load(t, ety, lane_ptr(t, smem, p[h], ci64(t, 0)));
        LLVMSetAlignment(one, es);
        pr = LLVMBuildInsertElement(b, pr, one, ci32(t, h), "");
    }
    ka->got[ka->n] = LLVMBuildShuffleVector(b, pr, LLVMGetPoison(pairty),
                                            LLVMConstVector(by_half, EMU_WARP_SIZE), "");
    ka->state[ka->n] = state;
    ka->from[ka->n++] = kuni;
    LLVMPositionBuilderAtEnd(b, kcon);
    LLVMValueRef part[2];
    for (unsigned h = 0; h < 2; h++) {
        part[h] = load(t, hvty, lane_ptr(t, smem, p[h], ci64(t, 0)));
        LLVMSetAlignment(part[h], es);
    }
    ka->got[ka->n] = LLVMBuildShuffleVector(b, part[0], part[1], LLVMConstVector(whole_sel, EMU_WARP_SIZE), "");
    ka->state[ka->n] = state;
    ka->from[ka->n++] = kcon;
    LLVMPositionBuilderAtEnd(b, kgat);
    LLVMTypeRef vety = LLVMVectorType(ety, EMU_WARP_SIZE), over[2] = {vety, LLVMVectorType(t->ptr, EMU_WARP_SIZE)};
    LLVMValueRef off = LLVMBuildZExt(b, LLVMBuildAdd(b, x, splat32(t, imm), ""), t->v64, "");
    LLVMValueRef args[4] = {LLVMBuildGEP2(b, t->i8, vsplat(t, smem, ""), &off, 1, ""), ci32(t, es),
                            mask_vec(t, mask), LLVMConstNull(vety)};
    ka->got[ka->n] = call_intrinsic(t, "llvm.masked.gather", over, 2, args, 4);
    ka->state[ka->n] = state;
    ka->from[ka->n++] = kgat;
    LLVMPositionBuilderAtEnd(b, at);
    return kload;
}

/* The device's generation counter, read as emu_device_generation reads it: by name, resolved
 * when the code is linked (the code holds no address of this process, so its object can be
 * cached on disk and loaded by another process); a load, not a call, which would spill the
 * vector registers live across it. */
static LLVMValueRef device_generation(tr *t)
{
    LLVMValueRef gword = LLVMGetNamedGlobal(t->m, EMU_JIT_DEVICE_GENERATION);
    if (!gword) gword = LLVMAddGlobal(t->m, t->i64, EMU_JIT_DEVICE_GENERATION);
    LLVMValueRef gen = LLVMBuildLoad2(t->b, t->i64, gword, "");
    LLVMSetOrdering(gen, LLVMAtomicOrderingAcquire);
    LLVMSetAlignment(gen, 8);
    return gen;
}

/* µop i's allocation entry in its warp (emu_warp.jit_hit, hit_entry): its offset in the warp,
 * and its fields loaded: the generation it was filled in and its allocation's [lo, hi). */
static size_t hit_fields(tr *t, uint32_t i, LLVMValueRef *cgen, LLVMValueRef *lo, LLVMValueRef *hi)
{
    size_t hit = offsetof(emu_warp, jit_hit) + hit_entry(t, i) * sizeof(uint64_t[3]);
    *cgen = load(t, t->i64, warp_field(t, hit + 2 * sizeof(uint64_t)));
    *lo = load(t, t->i64, warp_field(t, hit));
    *hi = load(t, t->i64, warp_field(t, hit + sizeof(uint64_t)));
    return hit;
}

/* The two half-warps' first lanes' addresses of a (lanes 0 and 16, into p), and whether every
 * lane's address is its half's first plus (l % 16) * es: a whole warp reading or writing 16
 * consecutive elements per half (emit_global_quick, emit_event_global). */
static LLVMValueRef halves_consecutive(tr *t, LLVMValueRef a, unsigned es, LLVMValueRef p[2])
{
    enum { HALF = EMU_WARP_SIZE / 2 };
    LLVMBuilderRef b = t->b;
    LLVMValueRef iota[EMU_WARP_SIZE], by_half[EMU_WARP_SIZE];
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        iota[l] = ci64(t, (uint64_t)(l % HALF) * es);
        by_half[l] = ci32(t, l / HALF);
    }
    LLVMTypeRef pair = LLVMVectorType(t->i64, 2);
    LLVMValueRef pr = LLVMGetPoison(pair);
    for (unsigned h = 0; h < 2; h++) {
        p[h] = LLVMBuildExtractElement(b, a, ci32(t, h * HALF), "");
        pr = LLVMBuildInsertElement(b, pr, p[h], ci32(t, h), "");
    }
    LLVMValueRef want = LLVMBuildAdd(b, LLVMBuildShuffleVector(b, pr, LLVMGetPoison(pair),
                                                               LLVMConstVector(by_half, EMU_WARP_SIZE), ""),
                                     LLVMConstVector(iota, EMU_WARP_SIZE), "");
    LLVMValueRef eq = LLVMBuildBitCast(b, LLVMBuildICmp(b, LLVMIntEQ, a, want, ""), t->i32, "");
    return LLVMBuildICmp(b, LLVMIntEQ, eq, ci32(t, 0xffffffffu), "");
}

/* Whether a half-warp's 16 elements of es bytes from ph lie within [lo, hi). */
static LLVMValueRef half_within(tr *t, LLVMValueRef ph, LLVMValueRef lo, LLVMValueRef hi, unsigned es)
{
    LLVMBuilderRef b = t->b;
    return LLVMBuildAnd(
        b, LLVMBuildICmp(b, LLVMIntUGE, ph, lo, ""),
        LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntULT, ph, hi, ""),
                     LLVMBuildICmp(b, LLVMIntUGE, LLVMBuildSub(b, hi, ph, ""),
                                   ci64(t, EMU_WARP_SIZE / 2 * es), ""), ""),
        "");
}

/* A global load of the whole warp (mask all 32 lanes) whose halves each read 16 consecutive
 * elements (lane l at lane 0's or lane 16's address + (l mod 16) * es: matmul's A and B tile
 * rows, vecadd's streams): judged from lanes 0 and 16 and one compare of the vector, and its
 * bounds from those two (each half's 16 * es bytes within [lo, hi), the first lane aligned:
 * every lane is then aligned and in bounds), so none of the per-lane checks, the search for
 * each half's first active lane or the uniform test runs. What it loads, and the hint it gives,
 * are the consecutive path's of emit_mem (uniform is impossible for a consecutive half), which
 * any other case still takes. In emit_mem's test block, past its allocation entry check: a, the
 * lanes' addresses; lo, hi, the entry; fresh, whether the entry is of the current generation.
 * Adds its value and block to got/from (done's phi); the builder is left on the way on. */
static void emit_global_quick(tr *t, LLVMValueRef a, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef fresh,
                              LLVMValueRef mask, unsigned es, LLVMBasicBlockRef done, LLVMValueRef *got,
                              LLVMBasicBlockRef *from, unsigned *nfrom)
{
    enum { HALF = EMU_WARP_SIZE / 2 };
    LLVMBuilderRef b = t->b;
    LLVMBasicBlockRef look = block(t, "mem.quick"), quick = block(t, "mem.quick.load"),
                      on = block(t, "mem.lanes");
    LLVMBuildCondBr(b, LLVMBuildAnd(b, fresh, LLVMBuildICmp(b, LLVMIntEQ, mask, ci32(t, 0xffffffffu), ""), ""),
                    look, on);
    LLVMPositionBuilderAtEnd(b, look);
    LLVMValueRef p[2];
    LLVMValueRef ok = halves_consecutive(t, a, es, p);
    for (unsigned h = 0; h < 2; h++) {
        /* 16 elements within [lo, hi), aligned */
        LLVMValueRef okh = LLVMBuildAnd(b, half_within(t, p[h], lo, hi, es),
                                        LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, p[h], ci64(t, es - 1), ""),
                                                      ci64(t, 0), ""), "");
        ok = LLVMBuildAnd(b, ok, okh, "");
    }
    LLVMBuildCondBr(b, ok, quick, on);
    LLVMPositionBuilderAtEnd(b, quick);
    LLVMTypeRef ety = es == 4 ? t->i32 : t->i64, hvty = LLVMVectorType(ety, HALF);
    LLVMValueRef part[2], whole[EMU_WARP_SIZE];
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) whole[l] = ci32(t, l);
    for (unsigned h = 0; h < 2; h++) {
        part[h] = load(t, hvty, LLVMBuildIntToPtr(b, p[h], t->ptr, ""));
        LLVMSetAlignment(part[h], es);
    }
    if (t->loop_head != NO_LOOP) emit_stride_prefetch(t, p, HALF * es);
    else emit_ahead_prefetch(t, p, HALF * es);
    got[*nfrom] = LLVMBuildShuffleVector(b, part[0], part[1], LLVMConstVector(whole, EMU_WARP_SIZE), "");
    from[(*nfrom)++] = quick;
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, on);
}

/* A global access of a whole warp (mask all lanes) whose lanes are consecutive elements of es
 * bytes (lane l at a[0] + l es), checked at its ends rather than per lane: a[0] aligned, and
 * the 32 elements within the allocation its hit entry holds (a[0] at or above its base, at
 * least 32 es bytes below its end; the device generation unchanged). Lane l then passes each
 * per-lane check of emit_mem (a_l = a[0] + l es, without a wrap: a[0] + 32 es <= end), whose
 * consecutive path would make the same accesses (a store's lanes are distinct elements, so
 * its halves' order does not show), so the fast path takes it whole: one vector load or store,
 * no search for the first active lane, no uniform check. Anything else (a lane inactive, the
 * entry missed, another shape, the policy's plain accesses off: plain) goes on to emit_mem's
 * checks, where the builder is left. A load's value (<32 x ety>) is *got, made in *from, which
 * goes on to done. Black-Scholes' seven consecutive accesses took about 155 host instructions
 * each by the per-lane checks and the two searches. */
static void emit_global_whole(tr *t, uint32_t i, const emu_uop *u, LLVMValueRef a, LLVMValueRef sv,
                              LLVMValueRef mask, LLVMValueRef plain, int site, LLVMBasicBlockRef done,
                              LLVMValueRef *got, LLVMBasicBlockRef *from)
{
    enum { HALF = EMU_WARP_SIZE / 2 };
    LLVMBuilderRef b = t->b;
    bool st = u->op == PTX_OP_ST;
    unsigned es = emu_type_bits[u->type] / 8;
    LLVMTypeRef ety = es == 4 ? t->i32 : t->i64, vety = LLVMVectorType(ety, EMU_WARP_SIZE);
    LLVMBasicBlockRef check = block(t, "mem.whole.check"), fast = block(t, "mem.whole");
    LLVMBasicBlockRef general = block(t, "mem.lanes");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, mask, ci32(t, 0xffffffffu), ""), check, general);
    LLVMPositionBuilderAtEnd(b, check);
    LLVMValueRef a0 = LLVMBuildExtractElement(b, a, ci32(t, 0), "");
    LLVMValueRef iota[EMU_WARP_SIZE];
    for (int l = 0; l < EMU_WARP_SIZE; l++) iota[l] = ci64(t, (uint64_t)l * es);
    LLVMValueRef want = LLVMBuildAdd(b, vsplat(t, a0, ""), LLVMConstVector(iota, EMU_WARP_SIZE), "");
    LLVMValueRef eq = LLVMBuildBitCast(b, LLVMBuildICmp(b, LLVMIntEQ, a, want, ""), t->i32, "");
    LLVMValueRef ok = LLVMBuildAnd(b, plain, LLVMBuildICmp(b, LLVMIntEQ, eq, ci32(t, 0xffffffffu), ""), "");
    ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, a0, ci64(t, es - 1), ""), ci64(t, 0), ""), "");
    LLVMValueRef gen = device_generation(t), cgen, lo, hi;
    hit_fields(t, i, &cgen, &lo, &hi);
    LLVMValueRef in = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, gen, cgen, ""),
                                   LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntUGE, a0, lo, ""),
                                                LLVMBuildICmp(b, LLVMIntULT, a0, hi, ""), ""), "");
    in = LLVMBuildAnd(b, in, LLVMBuildICmp(b, LLVMIntUGE, LLVMBuildSub(b, hi, a0, ""),
                                           ci64(t, (uint64_t)EMU_WARP_SIZE * es), ""), "");
    LLVMBuildCondBr(b, LLVMBuildAnd(b, ok, in, ""), fast, general);
    LLVMPositionBuilderAtEnd(b, fast);
    LLVMValueRef p = LLVMBuildIntToPtr(b, a0, t->ptr, "");
    if (st) {
        LLVMSetAlignment(LLVMBuildStore(b, sv, p), es);
    } else {
        *got = load(t, vety, p);
        LLVMSetAlignment(*got, es);
        LLVMValueRef start[2] = {a0, LLVMBuildAdd(b, a0, ci64(t, (uint64_t)HALF * es), "")};
        if (t->loop_head != NO_LOOP) emit_stride_prefetch(t, start, HALF * es);
        else emit_ahead_prefetch(t, start, HALF * es);
        emit_next_trip_prefetch(t, site, a, a0);
    }
    *from = fast;
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, general);
}

/* Each half's first active lane of mask in addr (lanes of aty): its address hp[h] and its
 * offset in the half, hback[h] bytes of es-byte elements (an empty half: lane 15 of it, never
 * accessed; its address the warp's first active lane's, which the checks cover). */
static void first_lanes(tr *t, LLVMValueRef addr, LLVMValueRef mask, LLVMTypeRef aty, unsigned es,
                        LLVMValueRef hp[2], LLVMValueRef hback[2])
{
    enum { HALF = EMU_WARP_SIZE / 2 };
    LLVMBuilderRef b = t->b;
    LLVMValueRef cz[2] = {mask, LLVMConstInt(t->i1, 0, false)};
    LLVMTypeRef i32ty = t->i32;
    LLVMValueRef lane = LLVMBuildAnd(b, call_intrinsic(t, "llvm.cttz", &i32ty, 1, cz, 2),
                                     ci32(t, EMU_WARP_SIZE - 1), "");
    LLVMValueRef slot = lanes_slot(t);
    LLVMBuildStore(b, addr, slot);
    LLVMValueRef p0 = lane_load(t, slot, aty, lane);
    for (unsigned h = 0; h < 2; h++) {
        LLVMValueRef hm = LLVMBuildAnd(b, LLVMBuildLShr(b, mask, ci32(t, h * HALF), ""),
                                       ci32(t, (1u << HALF) - 1), "");
        LLVMValueRef hz[2] = {LLVMBuildOr(b, hm, ci32(t, 1u << (HALF - 1)), ""),
                              LLVMConstInt(t->i1, 0, false)};
        LLVMValueRef hl = call_intrinsic(t, "llvm.cttz", &i32ty, 1, hz, 2);
        LLVMValueRef ph = lane_load(t, slot, aty, LLVMBuildAdd(b, hl, ci32(t, h * HALF), ""));
        hp[h] = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntNE, hm, ci32(t, 0), ""), ph, p0, "");
        hback[h] = LLVMBuildMul(b, LLVMBuildZExt(b, hl, t->i64, ""), ci64(t, es), "");
    }
}

/* The loaded values as the handler left them in e's vec rows (the slow path's way back in,
 * resumed: emit_slow_access), each truncated to ety, for emit_mem's join; the builder is left
 * where it was. */
static void resumed_loads(tr *t, LLVMBasicBlockRef resumed, const emu_opd *e, unsigned vec,
                          LLVMTypeRef vety, LLVMValueRef *got)
{
    LLVMBasicBlockRef at = LLVMGetInsertBlock(t->b);
    LLVMPositionBuilderAtEnd(t->b, resumed);
    for (unsigned k = 0; k < vec; k++) {
        LLVMValueRef v = load(t, t->v64, row_ptr(t, e[k].row));
        LLVMSetAlignment(v, 8);
        got[k] = LLVMBuildTrunc(t->b, v, vety, "");
    }
    LLVMPositionBuilderAtEnd(t->b, at);
}

/* The shape a gathering load (of neither shape: `state`, SHAPE_OTHER) keeps for the loads
 * after it through its base row (shape_range's offsets [lo, hi] from its own), SHAPE_CHECKED
 * added where every lane of mv (the lanes it gathered, offsets a: in bounds and aligned) is in
 * bounds at each of those offsets too (64-bit: no wrap; the offsets are multiples of the
 * element size, so aligned too): those loads then gather the same lanes at once
 * (emit_known_loads) instead of ending the run. A scan's tree step whose warps are whole reads
 * s[a] and s[a + 4] at lanes 8 bytes apart: its second load, interpreted, was a fifth of
 * scan_block's time (the handler's per-lane address search). */
static LLVMValueRef gather_checked(tr *t, LLVMValueRef state, LLVMValueRef a, LLVMValueRef mv,
                                   LLVMValueRef last, int64_t lo, int64_t hi)
{
    LLVMBuilderRef b = t->b;
    LLVMValueRef a64 = LLVMBuildZExt(b, a, t->v64, "");
    LLVMValueRef first = LLVMBuildAdd(b, a64, splat64(t, (uint64_t)lo), "");
    LLVMValueRef end = LLVMBuildAdd(b, a64, splat64(t, (uint64_t)hi), "");
    LLVMValueRef bad = LLVMBuildOr(
        b, LLVMBuildICmp(b, LLVMIntSLT, first, splat64(t, 0), ""),
        LLVMBuildICmp(b, LLVMIntSGT, end, vsplat(t, LLVMBuildZExt(b, last, t->i64, ""), ""), ""), "");
    LLVMValueRef anybad = LLVMBuildBitCast(b, LLVMBuildAnd(b, bad, mv, ""), t->i32, "");
    LLVMValueRef ok = LLVMBuildICmp(b, LLVMIntEQ, anybad, ci32(t, 0), "");
    return LLVMBuildOr(b, state, LLVMBuildSelect(b, ok, LLVMConstInt(t->i8, SHAPE_CHECKED, false),
                                                 LLVMConstInt(t->i8, 0, false), ""), "");
}

/* A 32-bit shared load u (µop i) of the warp's lanes through a base row whose shape `state`
 * an earlier load of the segment found (emit_mem's keep_shape): checked ahead (SHAPE_CHECKED),
 * its loads at once (emit_known_loads); anything else (the range not checked) ends the run before u with EMU_JIT_INTERPRET, the dirty rows live at u
 * stored, and the executor loop interprets u and the µops after it up to the next run entry
 * (next_entry). So the access has no slow path or way back in, and the shape after it is
 * the one before: a tiled kernel's inner product (matmul's 30 such loads after its two
 * first ones) has it checked at every run; a per-lane check, a gather and a handler call
 * with its way back made each such load's code about 50 IR instructions longer than its
 * two-lane load (matmul 1024: compile 130 -> 85 ms CPU, kernel time the same). The cache
 * after the access is what it was before (no row is loaded or cached on its way). */
static void emit_known_access(tr *t, uint32_t i, const emu_uop *u, known_access *ka, LLVMValueRef state,
                              LLVMValueRef x, LLVMValueRef smem)
{
    LLVMBuilderRef b = t->b;
    const emu_opd *ao = &u->opd[1], *r = &u->opd[0];
    unsigned es = emu_type_bits[u->type] / 8;
    LLVMTypeRef vety = LLVMVectorType(es == 4 ? t->i32 : t->i64, EMU_WARP_SIZE);
    LLVMBasicBlockRef kload = emit_known_loads(t, ka, state, x, (uint32_t)ao->imm, smem, es, t->active);
    LLVMBasicBlockRef out = block(t, "mem.interp");
    LLVMValueRef checked = LLVMBuildICmp(
        b, LLVMIntNE, LLVMBuildAnd(b, state, LLVMConstInt(t->i8, SHAPE_CHECKED, false), ""),
        LLVMConstInt(t->i8, 0, false), "");
    LLVMBuildCondBr(b, checked, kload, out);
    LLVMPositionBuilderAtEnd(b, out);
    flush_rows(t, i, false);
    sync_count(t);
    LLVMBuildStore(b, ci32(t, i), t->npc_slot);
    LLVMBuildStore(b, ci32(t, t->next_entry[i + 1]), ctx_field(t, offsetof(emu_ctx, next_pc)));
    LLVMBuildBr(b, t->interp);
    LLVMBasicBlockRef done = block(t, "mem.done");
    for (unsigned k = 0; k < ka->n; k++) {
        LLVMPositionBuilderAtEnd(b, ka->from[k]);
        LLVMBuildBr(b, done);
    }
    LLVMPositionBuilderAtEnd(b, done);
    LLVMValueRef v = LLVMBuildPhi(b, vety, "");
    LLVMAddIncoming(v, ka->got, ka->from, ka->n);
    put(t, r, t->active, LLVMBuildZExt(b, v, t->v64, ""));
}

/* Whether the lanes of a shared access of es-byte elements through address operand ao are
 * predicted a constant step apart other than 0 and es (emu_jit_lane_strides): a tree step's
 * s[off * (2t + 1) - 1], where no half-warp is at one address or at consecutive elements. */
static bool strided_access(const tr *t, const emu_opd *ao, unsigned es)
{
    if (!t->stride || !(ao->flags & EMU_OPD_F_BASE_REG) || ao->row % EMU_WARP_SIZE ||
        ao->row / EMU_WARP_SIZE >= t->code->fn->nslots)
        return false;
    int64_t s = t->stride[ao->row / EMU_WARP_SIZE];
    return s != EMU_JIT_STRIDE_VARYING && s != 0 && s != (int64_t)es;
}

/* Emits ld/st µop u for the lanes of mask: its fast path, branching to slow when a lane is
 * outside what the interpreter's fast path accepts; the slow path (emit_slow_access) comes
 * back through resumed, which emit_mem fills (the loaded rows read back) and joins to the
 * access's end. Leaves the builder after the access. */
static void emit_shared_event(tr *t, uint32_t i, LLVMValueRef mask, LLVMValueRef off, unsigned total);
static LLVMValueRef emit_event(tr *t, uint32_t i, LLVMValueRef mask);

/* The access's ways meet: the resumed block (back from the handler) goes on to done, where the
 * builder is left with the register cache the access began with (snap: what every way knows). */
static void join_at_done(tr *t, LLVMBasicBlockRef resumed, LLVMBasicBlockRef done,
                         const cache_entry *snap, uint32_t nsnap)
{
    LLVMPositionBuilderAtEnd(t->b, resumed);
    LLVMBuildBr(t->b, done);
    LLVMPositionBuilderAtEnd(t->b, done);
    t->ncache = nsnap;
    memcpy(t->cache, snap, nsnap * sizeof snap[0]);
}

/* A global (or generic) access of the event variant (event_global_access): natively where the
 * handler's fast path would take it whole at once (exec_mem.c ld_reg/st_reg: the direct policy
 * with events, the whole warp, fast_warp_shaped) and its lanes are two half-warps of 16
 * consecutive elements (vecadd's streams, matmul's tile rows: lane l at lane 0's or lane 16's
 * address + (l % 16) * es), both halves aligned and within the allocation the µop's jit_hit
 * entry holds (refilled once where it misses), the halves 32-bit strides apart: then the
 * handler's checks all pass (fast_warp_shaped: a0, stride es and the half's distance aligned
 * and in 32 bits, the four corner lanes in one allocation, every lane on the shape) and it
 * records the compact event written here (base lane 0's address, stride es, half the halves'
 * distance), and loads or stores each half's 16 elements (a store's half 0 first, in lane
 * order: where the halves overlap, half 1's values stay, as store_shaped leaves them). Anything
 * else goes to slow: the handler, with the event's header written (emit_slow_access). The
 * handler calls of vecadd's run-ahead (~370 host instructions each, and the rows stored
 * before each call) were a third of the timed weave's serial runs. */
static void emit_event_global(tr *t, uint32_t i, const emu_uop *u, LLVMValueRef mask,
                              LLVMBasicBlockRef slow, LLVMBasicBlockRef resumed)
{
    enum { HALF = EMU_WARP_SIZE / 2 };
    LLVMBuilderRef b = t->b;
    bool st = u->op == PTX_OP_ST;
    const emu_opd *ao = &u->opd[st ? 0 : 1], *r = &u->opd[st ? 1 : 0];
    unsigned es = emu_type_bits[u->type] / 8;
    LLVMTypeRef ety = es == 4 ? t->i32 : t->i64, vety = LLVMVectorType(ety, EMU_WARP_SIZE),
                hvty = LLVMVectorType(ety, HALF);
    /* read before the paths part: the cache after the access is the one it had here */
    LLVMValueRef a = LLVMBuildAdd(b, load_row(t, ao->row), splat64(t, ao->imm), "");
    if (ao->bits <= 32) a = LLVMBuildAnd(b, a, splat64(t, 0xffffffffu), "");
    LLVMValueRef sv = st ? LLVMBuildTrunc(b, src(t, r, u->type), vety, "") : NULL;
    uint32_t nsnap = t->ncache;
    cache_entry snap[sizeof t->cache / sizeof t->cache[0]];
    memcpy(snap, t->cache, nsnap * sizeof snap[0]);
    LLVMBasicBlockRef look = block(t, "mem.ev.look"), hit = block(t, "mem.ev.hit"),
                      refill = block(t, "mem.ev.refill"), again = block(t, "mem.ev.again"),
                      fast = block(t, "mem.ev.fast"), done = block(t, "mem.done");
    LLVMValueRef direct = load(t, t->i8, ctx_field(t, offsetof(emu_ctx, direct_events)));
    LLVMValueRef go = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntNE, direct, LLVMConstInt(t->i8, 0, false), ""),
                                   LLVMBuildICmp(b, LLVMIntEQ, mask, ci32(t, 0xffffffffu), ""), "");
    likely_br(t, go, look, slow);
    LLVMPositionBuilderAtEnd(b, look);
    LLVMValueRef p[2];
    LLVMValueRef shaped = halves_consecutive(t, a, es, p);
    LLVMValueRef aligned = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, LLVMBuildOr(b, p[0], p[1], ""), ci64(t, es - 1), ""),
                                         ci64(t, 0), "");
    LLVMValueRef half = LLVMBuildSub(b, p[1], p[0], "");
    LLVMValueRef fits = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildSExt(b, LLVMBuildTrunc(b, half, t->i32, ""), t->i64, ""),
                                      half, "");
    LLVMValueRef gen = device_generation(t);
    likely_br(t, LLVMBuildAnd(b, shaped, LLVMBuildAnd(b, aligned, fits, ""), ""), hit, slow);
    /* each half's 16 elements within the entry's allocation, the entry of this generation */
    LLVMBasicBlockRef check_from[2] = {hit, again}, check_to[2] = {refill, slow};
    size_t entry = 0;
    for (int k = 0; k < 2; k++) {
        LLVMPositionBuilderAtEnd(b, check_from[k]);
        LLVMValueRef cgen, lo, hi;
        entry = hit_fields(t, i, &cgen, &lo, &hi);
        LLVMValueRef in = LLVMBuildICmp(b, LLVMIntEQ, gen, cgen, "");
        for (unsigned h = 0; h < 2; h++) in = LLVMBuildAnd(b, in, half_within(t, p[h], lo, hi, es), "");
        likely_br(t, in, fast, check_to[k]);
    }
    /* the entry missed: the allocation of lane 0's element looked up (emu_jit_refill) */
    LLVMPositionBuilderAtEnd(b, refill);
    LLVMTypeRef rargs[4] = {t->ptr, t->i64, t->i64, t->i64};
    LLVMTypeRef rty = LLVMFunctionType(t->i8, rargs, 4, false);
    LLVMValueRef rfn = LLVMGetNamedFunction(t->m, EMU_JIT_REFILL);
    if (!rfn) rfn = LLVMAddFunction(t->m, EMU_JIT_REFILL, rty);
    LLVMValueRef rav[4] = {warp_field(t, entry), p[0], ci64(t, es), gen};
    LLVMValueRef found = LLVMBuildCall2(b, rty, rfn, rav, 4, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, found, LLVMConstInt(t->i8, 0, false), ""), again, slow);
    LLVMPositionBuilderAtEnd(b, fast);
    LLVMValueRef ev = emit_event(t, i, mask);
    LLVMBuildStore(b, LLVMConstInt(t->i8, EMU_EV_MEM | EMU_EV_COMPACT, false), field(t, ev, offsetof(emu_event, flags)));
    LLVMBuildStore(b, LLVMConstInt(t->i16, es, false), field(t, ev, offsetof(emu_event, size)));
    LLVMBuildStore(b, mask, field(t, ev, offsetof(emu_event, mem_lanes)));
    LLVMBuildStore(b, ci32(t, es), field(t, ev, offsetof(emu_event, stride)));
    LLVMBuildStore(b, LLVMBuildTrunc(b, half, t->i32, ""), field(t, ev, offsetof(emu_event, half_stride)));
    LLVMBuildStore(b, p[0], field(t, ev, offsetof(emu_event, base)));
    LLVMValueRef part[2], whole[EMU_WARP_SIZE];
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) whole[l] = ci32(t, l);
    for (unsigned h = 0; h < 2; h++) {
        LLVMValueRef ph = LLVMBuildIntToPtr(b, p[h], t->ptr, "");
        if (st) {
            LLVMValueRef sel[HALF];
            for (unsigned l = 0; l < HALF; l++) sel[l] = ci32(t, h * HALF + l);
            LLVMValueRef x = LLVMBuildShuffleVector(b, sv, LLVMGetPoison(vety), LLVMConstVector(sel, HALF), "");
            LLVMSetAlignment(LLVMBuildStore(b, x, ph), es);
        } else {
            part[h] = load(t, hvty, ph);
            LLVMSetAlignment(part[h], es);
        }
    }
    LLVMValueRef got[2] = {NULL, NULL};
    LLVMBasicBlockRef from[2] = {fast, resumed};
    if (!st) got[0] = LLVMBuildShuffleVector(b, part[0], part[1], LLVMConstVector(whole, EMU_WARP_SIZE), "");
    LLVMBuildBr(b, done);
    if (!st) resumed_loads(t, resumed, r, 1, vety, &got[1]);
    join_at_done(t, resumed, done, snap, nsnap);
    if (!st) {
        LLVMValueRef v = LLVMBuildPhi(b, vety, "");
        LLVMAddIncoming(v, got, from, 2);
        put(t, r, mask, LLVMBuildZExt(b, v, t->v64, ""));
    }
}

static void emit_mem(tr *t, uint32_t i, const emu_uop *u, LLVMValueRef mask, LLVMBasicBlockRef slow,
                     LLVMBasicBlockRef resumed)
{
    LLVMBuilderRef b = t->b;
    if (t->events && event_global_access(u)) {
        emit_event_global(t, i, u, mask, slow, resumed);
        return;
    }
    bool st = u->op == PTX_OP_ST;
    const emu_opd *ao = &u->opd[st ? 0 : 1], *r = &u->opd[st ? 1 : 0];
    unsigned es = emu_type_bits[u->type] / 8, vec = u->in->vec ? u->in->vec : 1;
    const emu_opd *e = vec > 1 ? &t->code->pool[r->row] : r;
    /* a vector is checked as one access of its whole size (alignment included) */
    unsigned total = es * vec;
    LLVMTypeRef ety = es == 4 ? t->i32 : t->i64, vety = LLVMVectorType(ety, EMU_WARP_SIZE);
    LLVMTypeRef vptr = LLVMVectorType(t->ptr, EMU_WARP_SIZE);
    bool narrow = u->in->space == PTX_SPACE_SHARED && ao->bits <= 32;
    LLVMValueRef smem = NULL, smem_ok = NULL, smem_last = NULL;
    if (narrow) smem = shared_block(t, total, &smem_ok, &smem_last);
    /* the interpreter's fast path: the direct policy, or one that needs no memory operations;
     * a policy that observes plain accesses after the fact (--check) gets the handler, which
     * reports them */
    /* a 32-bit shared load of the warp's lanes (no guard) through a base row whose shape an
     * earlier load of the segment found (shared_shape); checked ahead, it goes to its loads at
     * once */
    bool strided = narrow && strided_access(t, ao, es);
    bool keep_shape = narrow && !st && vec == 1 && mask == t->active && !strided && !t->events;
    int known = keep_shape ? shape_known(t, ao->row, es) : -1;
    known_access ka = {0};
    LLVMBasicBlockRef checks = NULL, fast = NULL;
    LLVMValueRef x_narrow = narrow ? address_low(t, ao) : NULL;
    /* what the access reads from the cache is read here, before its first branch: the cache
     * after the access is the one it had here (what it would cache later does not dominate
     * resumed) */
    LLVMValueRef x_wide = narrow ? NULL : load_row(t, ao->row);
    LLVMValueRef sv[4] = {NULL};
    for (unsigned k = 0; st && k < vec; k++)
        sv[k] = LLVMBuildTrunc(b, src(t, &e[k], u->type), vety, "");
    uint32_t nsnap = t->ncache;
    cache_entry snap[sizeof t->cache / sizeof t->cache[0]];
    memcpy(snap, t->cache, nsnap * sizeof snap[0]);
    if (known >= 0) {
        emit_known_access(t, i, u, &ka, t->shape[known].state, x_narrow, smem);
        /* no way leads to the slow path (emit_uop's) or back from it */
        LLVMBasicBlockRef here = LLVMGetInsertBlock(b);
        LLVMPositionBuilderAtEnd(b, resumed);
        LLVMBuildUnreachable(b);
        LLVMPositionBuilderAtEnd(b, here);
        return;
    }
    checks = block(t, "mem.checks");
    fast = block(t, "mem.fast");
    LLVMValueRef a_narrow = narrow ? LLVMBuildAdd(b, x_narrow, splat32(t, (uint32_t)ao->imm), "") : NULL;
    LLVMValueRef plain = smem_ok;
    if (!narrow) {
        LLVMValueRef direct = load(t, t->i8, ctx_field(t, offsetof(emu_ctx, direct_mem)));
        LLVMValueRef observed = load(t, t->i8, ctx_field(t, offsetof(emu_ctx, observed_mem)));
        plain = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntNE, direct, LLVMConstInt(t->i8, 0, 0), ""),
                             LLVMBuildICmp(b, LLVMIntEQ, observed, LLVMConstInt(t->i8, 0, 0), ""), "");
    }
    /* a global access of single elements: a whole warp's consecutive lanes first
     * (emit_global_whole), its address row and stored value read here, before the paths part */
    bool global = !narrow && u->in->space != PTX_SPACE_SHARED;
    int site = global ? next_trip_site(t, u) : -1;
    LLVMValueRef a_global = NULL, whole_got = NULL;
    LLVMBasicBlockRef done = block(t, "mem.done"), whole_from = NULL;
    /* loaded values: whole warp, quick, uniform, consecutive, gathered, resumed */
    LLVMValueRef got[4][6];
    LLVMBasicBlockRef from[6];
    unsigned nfrom = 0;
    if (global) {
        a_global = LLVMBuildAdd(b, x_wide, splat64(t, ao->imm), "");
        if (ao->bits <= 32) a_global = LLVMBuildAnd(b, a_global, splat64(t, 0xffffffffu), "");
    }
    if (global && vec == 1) {
        emit_global_whole(t, i, u, a_global, sv[0], mask, plain, site, done, &whole_got, &whole_from);
        if (whole_from) {
            got[0][nfrom] = whole_got;
            from[nfrom++] = whole_from;
        }
    }
    LLVMBuildCondBr(b, plain, checks, slow);
    LLVMPositionBuilderAtEnd(b, checks);
    /* A shared address of 32 bits is checked and compared as 32-bit offsets (half the vector
     * work; the generic window, at 2^48, is out of their reach) in a block of at most 2^31
     * bytes (a larger one goes to the handler): in-bounds offsets then differ by less than
     * 2^31, so that equal modulo 2^32 (the shapes' comparisons below) is equal. addr: the
     * lanes' offsets (narrow) or addresses, as integers; smem: the block (narrow only). */
    LLVMValueRef bad, ptrs = NULL, addr;
    if (narrow) {
        LLVMValueRef a = a_narrow;
        /* in bounds: a + total <= size, that is a <= size - total (one compare per lane); a
         * block over 2^31 bytes, or one smaller than total, went to the handler (shared_block) */
        LLVMValueRef last = vsplat(t, smem_last, "");
        bad = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, a, splat32(t, total - 1), ""), splat32(t, 0), "");
        bad = LLVMBuildOr(b, bad, LLVMBuildICmp(b, LLVMIntUGT, a, last, ""), "");
        addr = a;
    } else {
        LLVMValueRef a = a_global;
        if (!a) {
            a = LLVMBuildAdd(b, x_wide, splat64(t, ao->imm), "");
            if (ao->bits <= 32) a = LLVMBuildAnd(b, a, splat64(t, 0xffffffffu), "");
        }
        LLVMValueRef misaligned = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, a, splat64(t, total - 1), ""),
                                                splat64(t, 0), "");
        if (u->in->space == PTX_SPACE_SHARED) {
            LLVMValueRef cta = load(t, t->ptr, ctx_field(t, offsetof(emu_ctx, cta)));
            LLVMValueRef size = load(t, t->i64, field(t, cta, offsetof(emu_cta, smem_size)));
            LLVMValueRef block_base = load(t, t->ptr, field(t, cta, offsetof(emu_cta, smem)));
            LLVMValueRef inwin = LLVMBuildAnd(
                b, LLVMBuildICmp(b, LLVMIntUGE, a, splat64(t, EMU_SHARED_WINDOW), ""),
                LLVMBuildICmp(b, LLVMIntULT, a, splat64(t, EMU_SHARED_WINDOW + EMU_WINDOW_SIZE), ""), "");
            a = LLVMBuildSelect(b, inwin, LLVMBuildSub(b, a, splat64(t, EMU_SHARED_WINDOW), ""), a, "");
            LLVMValueRef vsize = vsplat(t, size, "");
            bad = LLVMBuildOr(b, misaligned, LLVMBuildICmp(b, LLVMIntUGT, a, vsize, ""), "");
            bad = LLVMBuildOr(b, bad, LLVMBuildICmp(b, LLVMIntUGT, splat64(t, total),
                                                    LLVMBuildSub(b, vsize, a, ""), ""), "");
            LLVMValueRef vbase = vsplat(t, block_base, "");
            ptrs = LLVMBuildGEP2(b, t->i8, vbase, &a, 1, "");
        } else {
            /* the allocation this access last hit in the warp's slot (its emu_warp.jit_hit
             * entry), when device memory has not changed since (device_generation) */
            LLVMValueRef gen = device_generation(t);
            /* fast_lanes: the first lane's miss looks its allocation up */
            LLVMValueRef cz[2] = {mask, LLVMConstInt(t->i1, 0, false)};
            LLVMTypeRef i32ty = t->i32;
            LLVMValueRef lane = LLVMBuildAnd(b, call_intrinsic(t, "llvm.cttz", &i32ty, 1, cz, 2),
                                             ci32(t, EMU_WARP_SIZE - 1), "");
            LLVMValueRef a0 = LLVMBuildExtractElement(b, a, lane, "");
            LLVMValueRef cgen, lo, hi;
            size_t hit = hit_fields(t, i, &cgen, &lo, &hi);
            LLVMValueRef miss = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntNE, gen, cgen, ""),
                                            LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntULT, a0, lo, ""),
                                                        LLVMBuildICmp(b, LLVMIntUGE, a0, hi, ""), ""), "");
            miss = LLVMBuildAnd(b, miss, LLVMBuildICmp(b, LLVMIntNE, mask, ci32(t, 0), ""), "");
            LLVMBasicBlockRef refill = block(t, "mem.refill"), test = block(t, "mem.test");
            LLVMBuildCondBr(b, miss, refill, test);
            LLVMPositionBuilderAtEnd(b, refill);
            LLVMTypeRef rargs[4] = {t->ptr, t->i64, t->i64, t->i64};
            LLVMTypeRef rty = LLVMFunctionType(t->i8, rargs, 4, false);
            LLVMValueRef rfn = LLVMGetNamedFunction(t->m, EMU_JIT_REFILL);
            if (!rfn) rfn = LLVMAddFunction(t->m, EMU_JIT_REFILL, rty);
            LLVMValueRef rav[4] = {warp_field(t, hit), a0, ci64(t, total), gen};
            LLVMValueRef found = LLVMBuildCall2(b, rty, rfn, rav, 4, "");
            LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, found, LLVMConstInt(t->i8, 0, false), ""),
                            test, slow);
            LLVMPositionBuilderAtEnd(b, test);
            hit_fields(t, i, &cgen, &lo, &hi);
            LLVMValueRef stale = LLVMBuildICmp(b, LLVMIntNE, gen, cgen, "");
            emit_next_trip_prefetch(t, site, a, a0);
            if (!st && vec == 1)
                emit_global_quick(t, a, lo, hi, LLVMBuildNot(b, stale, ""), mask, es, done, got[0], from,
                                  &nfrom);
            LLVMValueRef vlo = vsplat(t, lo, "");
            LLVMValueRef vhi = vsplat(t, hi, "");
            bad = LLVMBuildOr(b, misaligned, LLVMBuildICmp(b, LLVMIntULT, a, vlo, ""), "");
            bad = LLVMBuildOr(b, bad, LLVMBuildICmp(b, LLVMIntUGE, a, vhi, ""), "");
            bad = LLVMBuildOr(b, bad, LLVMBuildICmp(b, LLVMIntULT, LLVMBuildSub(b, vhi, a, ""),
                                                    splat64(t, total), ""), "");
            bad = LLVMBuildOr(b, bad, vsplat(t, stale, ""), "");
            ptrs = LLVMBuildIntToPtr(b, a, vptr, "");
        }
        addr = LLVMBuildPtrToInt(b, ptrs, t->v64, "");
    }
    LLVMTypeRef aty = narrow ? t->i32 : t->i64;
    LLVMValueRef mv = mask_vec(t, mask);
    LLVMValueRef anybad = LLVMBuildBitCast(b, LLVMBuildAnd(b, bad, mv, ""), t->i32, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, anybad, ci32(t, 0), ""), slow, fast);
    LLVMPositionBuilderAtEnd(b, fast);
    if (t->events) {
        assert(narrow && vec == 1);
        emit_shared_event(t, i, mask, addr, total);
    }
    LLVMTypeRef over[2] = {vety, vptr};
    LLVMValueRef align = ci32(t, es);
    LLVMValueRef state = NULL, gather_state = NULL;
    LLVMBasicBlockRef gather = fast;
    int64_t lo = 0, hi = 0;   /* the kept shape's offsets (shape_range), for gather_checked too */
    /* lanes a step apart (strided_access): gathered or scattered at once */
    if (!strided) {
        /* Two common shapes of the lanes' addresses get plain accesses instead of a gather or a
         * scatter, each judged per half-warp (16 lanes: a 16-wide tile gives each half its own row):
         * every active lane of a half at one address (a load of one value for the half: a loop over
         * an array that all threads read, a row of a tile), and consecutive elements (lane l at the
         * half's base + (l mod 16) * size: the masked vector access touches the active lanes only,
         * as the scatter would; half 0 stored first, as the scatter orders lanes). The whole warp
         * at one address, or consecutive, is the case of both halves alike. */
        LLVMValueRef notm = LLVMBuildNot(b, mv, "");
        enum { HALF = EMU_WARP_SIZE / 2 };
        LLVMValueRef hp[2], hbase[2], hback[2], hmask[2];
        for (unsigned h = 0; h < 2; h++) {
            LLVMValueRef sel[HALF];
            for (unsigned l = 0; l < HALF; l++) sel[l] = ci32(t, h * HALF + l);
            hmask[h] = LLVMBuildShuffleVector(b, mv, LLVMGetPoison(LLVMTypeOf(mv)), LLVMConstVector(sel, HALF), "");
        }
        /* A shared load of some lanes outside loops gathers them: its shape, searched lane by
         * lane, was a third of a barrier-bound kernel's memory IR (scan_block's unrolled tree
         * steps, whose warps are whole but for the last few steps' one warp). Its kept shape is
         * SHAPE_OTHER: a later load through the row, with the same lanes, gathers them too where
         * this one checked its offsets (gather_checked), else ends the run. In a loop (a loop's
         * turns may run with some lanes each time), a store of some lanes (a sort's exchange) and a global access (whose
         * lanes are not checked whole: full is false) the shape is searched. */
        bool partial_gathers = narrow && !st && !t->looped[i];
        LLVMBasicBlockRef all = block(t, "mem.all");
        LLVMBasicBlockRef some = partial_gathers ? NULL : block(t, "mem.some");
        LLVMBasicBlockRef shaped = block(t, "mem.shape");
        gather = partial_gathers ? block(t, "mem.gather") : NULL;
        LLVMBasicBlockRef partial_from = partial_gathers ? LLVMGetInsertBlock(b) : NULL;
        LLVMValueRef full = narrow ? LLVMBuildICmp(b, LLVMIntEQ, mask, ci32(t, 0xffffffffu), "")
                                   : LLVMConstInt(t->i1, 0, false);
        LLVMBuildCondBr(b, full, all, partial_gathers ? gather : some);
        LLVMPositionBuilderAtEnd(b, all);
        LLVMValueRef hp_all[2] = {LLVMBuildExtractElement(b, addr, ci32(t, 0), ""),
                                  LLVMBuildExtractElement(b, addr, ci32(t, HALF), "")};
        LLVMBuildBr(b, shaped);
        if (partial_gathers) {
            LLVMPositionBuilderAtEnd(b, shaped);
            for (unsigned h = 0; h < 2; h++) {
                hp[h] = hp_all[h];
                hback[h] = ci64(t, 0);
            }
        } else {
            LLVMPositionBuilderAtEnd(b, some);
            LLVMValueRef hp_some[2], hback_some[2];
            first_lanes(t, addr, mask, aty, es, hp_some, hback_some);
            LLVMBuildBr(b, shaped);
            LLVMPositionBuilderAtEnd(b, shaped);
            LLVMBasicBlockRef shape_from[2] = {all, some};
            for (unsigned h = 0; h < 2; h++) {
                LLVMValueRef in_hp[2] = {hp_all[h], hp_some[h]}, in_back[2] = {ci64(t, 0), hback_some[h]};
                hp[h] = LLVMBuildPhi(b, aty, "");
                LLVMAddIncoming(hp[h], in_hp, shape_from, 2);
                /* the half's lane 0 would be at hp - hback (its address: lane_ptr's, not hbase's) */
                hback[h] = LLVMBuildPhi(b, t->i64, "");
                LLVMAddIncoming(hback[h], in_back, shape_from, 2);
            }
        }
        for (unsigned h = 0; h < 2; h++)
            hbase[h] = LLVMBuildSub(b, hp[h], LLVMBuildTrunc(b, hback[h], aty, ""), "");
        /* per lane, its half's value of a pair */
        LLVMValueRef halves[EMU_WARP_SIZE], whole[EMU_WARP_SIZE];
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            halves[l] = ci32(t, l / HALF);
            whole[l] = ci32(t, l);
        }
        LLVMValueRef by_half = LLVMConstVector(halves, EMU_WARP_SIZE);
        LLVMTypeRef pair64 = LLVMVectorType(aty, 2);
        LLVMValueRef all_ones = ci32(t, 0xffffffffu);
        LLVMValueRef uni = NULL, contig = NULL;
        if (!st) {
            LLVMValueRef pr = LLVMBuildInsertElement(b, LLVMGetPoison(pair64), hp[0], ci32(t, 0), "");
            pr = LLVMBuildInsertElement(b, pr, hp[1], ci32(t, 1), "");
            LLVMValueRef want = LLVMBuildShuffleVector(b, pr, LLVMGetPoison(pair64), by_half, "");
            LLVMValueRef eq = LLVMBuildICmp(b, LLVMIntEQ, addr, want, "");
            LLVMValueRef ok = LLVMBuildBitCast(b, LLVMBuildOr(b, eq, notm, ""), t->i32, "");
            uni = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, ok, all_ones, ""),
                               LLVMBuildICmp(b, LLVMIntNE, mask, ci32(t, 0), ""), "");
        }
        if (vec == 1) {
            LLVMValueRef iota[EMU_WARP_SIZE];
            for (int l = 0; l < EMU_WARP_SIZE; l++) iota[l] = LLVMConstInt(aty, (uint64_t)(l % HALF) * es, false);
            LLVMValueRef pr = LLVMBuildInsertElement(b, LLVMGetPoison(pair64), hbase[0], ci32(t, 0), "");
            pr = LLVMBuildInsertElement(b, pr, hbase[1], ci32(t, 1), "");
            LLVMValueRef want = LLVMBuildAdd(b, LLVMBuildShuffleVector(b, pr, LLVMGetPoison(pair64), by_half, ""),
                                             LLVMConstVector(iota, EMU_WARP_SIZE), "");
            LLVMValueRef eq = LLVMBuildICmp(b, LLVMIntEQ, addr, want, "");
            LLVMValueRef ok = LLVMBuildBitCast(b, LLVMBuildOr(b, eq, notm, ""), t->i32, "");
            contig = LLVMBuildICmp(b, LLVMIntEQ, ok, all_ones, "");
        }
        /* the shape found, kept for the loads after this one (emit_known_access), checked
         * ahead for them where the warp is whole (each half from hp on) */
        if (keep_shape) {
            state = LLVMBuildSelect(b, uni, LLVMConstInt(t->i8, SHAPE_UNIFORM, false),
                                    LLVMBuildSelect(b, contig, LLVMConstInt(t->i8, SHAPE_CONSECUTIVE, false),
                                                    LLVMConstInt(t->i8, SHAPE_OTHER, false), ""), "");
            /* the later loads take the shape only where it was checked ahead (emit_known_access):
             * where their offsets cannot be (one not a multiple of es from this one's), none keeps
             * it, and each is a first load of its own */
            keep_shape = shape_range(t, i, ao->row, es, (uint32_t)ao->imm, &lo, &hi);
            int old = keep_shape ? -1 : shape_find(t, ao->row);
            if (old >= 0) t->shape[old] = t->shape[--t->nshape];
            if (keep_shape) {
                LLVMValueRef span = LLVMBuildSelect(b, contig, ci64(t, (HALF - 1) * es), ci64(t, 0), "");
                LLVMValueRef ahead = LLVMBuildAnd(b, LLVMBuildAnd(b, full, LLVMBuildOr(b, uni, contig, ""), ""),
                                                  range_fits(t, hp, span, smem_last, lo, hi), "");
                state = LLVMBuildOr(b, state, LLVMBuildSelect(b, ahead, LLVMConstInt(t->i8, SHAPE_CHECKED, false),
                                                              LLVMConstInt(t->i8, 0, false), ""), "");
            }
        }
        /* the gather after the join, where the code's layout has always had it */
        if (gather) LLVMMoveBasicBlockAfter(gather, done);
        else gather = block(t, "mem.gather");
        LLVMBasicBlockRef ublk = NULL, cblk = NULL;
        LLVMTypeRef pairty = LLVMVectorType(ety, 2), hvty = LLVMVectorType(ety, HALF);
        if (uni) {
            ublk = block(t, "mem.uniform");
            LLVMBasicBlockRef next = contig ? block(t, "mem.notuniform") : gather;
            LLVMBuildCondBr(b, uni, ublk, next);
            LLVMPositionBuilderAtEnd(b, ublk);
            for (unsigned k = 0; k < vec; k++) {
                LLVMValueRef pr = LLVMGetPoison(pairty);
                for (unsigned h = 0; h < 2; h++) {
                    LLVMValueRef pk = lane_ptr(t, smem, hp[h], ci64(t, (uint64_t)k * es));
                    LLVMValueRef x = load(t, ety, pk);
                    LLVMSetAlignment(x, es);
                    pr = LLVMBuildInsertElement(b, pr, x, ci32(t, h), "");
                }
                got[k][nfrom] = LLVMBuildShuffleVector(b, pr, LLVMGetPoison(pairty), by_half, "");
            }
            from[nfrom++] = ublk;
            LLVMBuildBr(b, done);
            LLVMPositionBuilderAtEnd(b, next);
        }
        LLVMBasicBlockRef contig_from = NULL;
        if (contig) {
            cblk = block(t, "mem.consecutive");
            contig_from = LLVMGetInsertBlock(b);
            LLVMBuildCondBr(b, contig, cblk, gather);
            LLVMPositionBuilderAtEnd(b, cblk);
            LLVMTypeRef mover[2] = {hvty, t->ptr};
            LLVMValueRef part[2], hstart[2];
            for (unsigned h = 0; h < 2; h++) {
                LLVMValueRef pb = lane_ptr(t, smem, hp[h], LLVMBuildNeg(b, hback[h], ""));
                if (st) {
                    LLVMValueRef sel[HALF];
                    for (unsigned l = 0; l < HALF; l++) sel[l] = ci32(t, h * HALF + l);
                    LLVMValueRef x = LLVMBuildShuffleVector(b, sv[0], LLVMGetPoison(vety),
                                                            LLVMConstVector(sel, HALF), "");
                    LLVMValueRef args[4] = {x, pb, align, hmask[h]};
                    call_intrinsic(t, "llvm.masked.store", mover, 2, args, 4);
                } else {
                    LLVMValueRef args[4] = {pb, align, hmask[h], LLVMConstNull(hvty)};
                    part[h] = call_intrinsic(t, "llvm.masked.load", mover, 2, args, 4);
                }
                hstart[h] = LLVMBuildPtrToInt(b, pb, t->i64, "");
            }
            if (!st && !smem && u->in->space != PTX_SPACE_SHARED && t->loop_head != NO_LOOP)
                emit_stride_prefetch(t, hstart, HALF * es);
            else if (!st && !smem && u->in->space != PTX_SPACE_SHARED)
                emit_ahead_prefetch(t, hstart, HALF * es);
            if (!st)
                got[0][nfrom] = LLVMBuildShuffleVector(b, part[0], part[1], LLVMConstVector(whole, EMU_WARP_SIZE), "");
            from[nfrom++] = cblk;
            LLVMBuildBr(b, done);
        }
        if (!uni && !contig) LLVMBuildBr(b, gather);
        LLVMPositionBuilderAtEnd(b, gather);
        gather_state = state;
        if (keep_shape && partial_gathers) {
            assert(contig_from);
            gather_state = LLVMBuildPhi(b, t->i8, "shape");
            LLVMValueRef other = LLVMConstInt(t->i8, SHAPE_OTHER, false);
            LLVMAddIncoming(gather_state, &state, &contig_from, 1);
            LLVMAddIncoming(gather_state, &other, &partial_from, 1);
        }
    }
    if (keep_shape) gather_state = gather_checked(t, gather_state, addr, mv, smem_last, lo, hi);
    if (narrow) {
        /* an active lane's offset passed `a <= last` (below 2^31): sign-extended, the same
         * offset, which LLVM gathers and scatters by 32-bit indices (vpgatherdd: two
         * instructions for 32 lanes instead of four). Taken for strided accesses only, whose
         * warps are mostly whole: scan 16M's kernel 278 -> 268 ms; bitonic's lane-varying
         * exchanges (partial warps) ran 280 -> 288 ms with them (ms CPU, least of 3). */
        LLVMValueRef off = strided ? LLVMBuildSExt(b, addr, t->v64, "") : LLVMBuildZExt(b, addr, t->v64, "");
        ptrs = LLVMBuildGEP2(b, t->i8, vsplat(t, smem, ""), &off, 1, "");
    }
    for (unsigned k = 0; k < vec; k++) {
        LLVMValueRef pk = ptrs;
        if (k) {
            LLVMValueRef off = splat64(t, (uint64_t)k * es);
            pk = LLVMBuildGEP2(b, t->i8, ptrs, &off, 1, "");
        }
        if (st) {
            LLVMValueRef args[4] = {sv[k], pk, align, mv};
            call_intrinsic(t, "llvm.masked.scatter", over, 2, args, 4);
        } else {
            LLVMValueRef args[4] = {pk, align, mv, LLVMConstNull(vety)};
            got[k][nfrom] = call_intrinsic(t, "llvm.masked.gather", over, 2, args, 4);
        }
    }
    from[nfrom++] = gather;
    LLVMBuildBr(b, done);
    if (!st) {
        LLVMValueRef back[4];
        resumed_loads(t, resumed, e, vec, vety, back);
        for (unsigned k = 0; k < vec; k++) got[k][nfrom] = back[k];
    }
    from[nfrom++] = resumed;
    join_at_done(t, resumed, done, snap, nsnap);
    if (!st) {
        LLVMValueRef v[4];
        for (unsigned k = 0; k < vec; k++) {
            v[k] = LLVMBuildPhi(b, vety, "");
            LLVMAddIncoming(v[k], got[k], from, nfrom);
        }
        if (keep_shape && !opd_names_row(t, r, ao->row)) {
            /* nothing is known of the shape where the handler ran the access */
            LLVMValueRef sp = LLVMBuildPhi(b, t->i8, "shape");
            LLVMValueRef unknown = LLVMConstInt(t->i8, SHAPE_UNKNOWN, false);
            for (unsigned k = 0; k < nfrom; k++)
                LLVMAddIncoming(sp, from[k] == resumed ? &unknown : from[k] == gather ? &gather_state : &state,
                                &from[k], 1);
            shape_keep(t, ao->row, es, sp);
        }
        for (unsigned k = 0; k < vec; k++) put(t, &e[k], mask, LLVMBuildZExt(b, v[k], t->v64, ""));
    }
}

/* ld.param (param_translates): the parameter's offset in the launch's parameter block (the
 * module's symbol, read at run time: the code holds no address), checked as ld_param_fast
 * checks it, read once and given to every lane of mask; slow when a check fails. */
/* ld.param's per-run values (t->param_*), loaded where the function is entered, once: a run
 * keeps its context's module, grid and param_fast, and a row store in between could alias
 * them, so that LLVM would not hoist the loads out of each ld.param (Black-Scholes' eight:
 * about 9 host instructions each) */
static void param_block(tr *t)
{
    if (t->param_ok) return;
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(t->fn);
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(t->cx), tb = t->b;
    LLVMPositionBuilderBefore(eb, LLVMGetBasicBlockTerminator(entry));
    t->b = eb;   /* field() and ctx_field() build with t->b */
    LLVMValueRef pf = load(t, t->i8, ctx_field(t, offsetof(emu_ctx, param_fast)));
    t->param_ok = LLVMBuildICmp(eb, LLVMIntNE, pf, LLVMConstInt(t->i8, 0, 0), "");
    LLVMValueRef mod = load(t, t->ptr, ctx_field(t, offsetof(emu_ctx, mod)));
    LLVMValueRef pm = load(t, t->ptr, field(t, mod, offsetof(emu_module, ptx)));
    t->param_syms = load(t, t->ptr, field(t, pm, offsetof(ptx_module, syms)));
    LLVMValueRef g = load(t, t->ptr, ctx_field(t, offsetof(emu_ctx, g)));
    t->param_size = load(t, t->i64, field(t, g, offsetof(emu_grid, params_size)));
    t->param_base = load(t, t->ptr, field(t, g, offsetof(emu_grid, params)));
    t->b = tb;
    LLVMDisposeBuilder(eb);
}

static LLVMValueRef emit_event(tr *t, uint32_t i, LLVMValueRef mask);

static void emit_param(tr *t, uint32_t i, const emu_uop *u, LLVMValueRef mask, LLVMBasicBlockRef slow)
{
    LLVMBuilderRef b = t->b;
    const emu_opd *ao = &u->opd[1];
    unsigned es = emu_type_bits[u->type] / 8;
    LLVMTypeRef ety = es == 4 ? t->i32 : t->i64;
    LLVMBasicBlockRef checks = block(t, "param.checks"), fast = block(t, "param.fast");
    param_block(t);
    LLVMBuildCondBr(b, t->param_ok, checks, slow);
    LLVMPositionBuilderAtEnd(b, checks);
    LLVMValueRef a = load(t, t->i64, field(t, t->param_syms, (size_t)ao->row * sizeof(ptx_symbol) +
                                                                 offsetof(ptx_symbol, offset)));
    if (ao->kind == EMU_OPD_ADDR) a = LLVMBuildAdd(b, a, ci64(t, ao->imm), "");
    LLVMValueRef size = t->param_size;
    LLVMValueRef bad = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, a, ci64(t, es - 1), ""), ci64(t, 0), "");
    bad = LLVMBuildOr(b, bad, LLVMBuildICmp(b, LLVMIntUGT, a, size, ""), "");
    bad = LLVMBuildOr(b, bad, LLVMBuildICmp(b, LLVMIntUGT, ci64(t, es), LLVMBuildSub(b, size, a, ""), ""), "");
    LLVMBuildCondBr(b, bad, slow, fast);
    LLVMPositionBuilderAtEnd(b, fast);
    if (t->events) {
        /* the event as exec_mem.c's ld_param_fast records it: each lane reads the parameter
         * (the handler, on the slow path, records its own) */
        LLVMValueRef ev = emit_event(t, i, mask);
        LLVMBasicBlockRef rec = block(t, "ev.param"), done = block(t, "ev.recorded");
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, mask, ci32(t, 0), ""), rec, done);
        LLVMPositionBuilderAtEnd(b, rec);
        LLVMBuildStore(b, LLVMConstInt(t->i8, EMU_EV_MEM | EMU_EV_COMPACT, false), field(t, ev, offsetof(emu_event, flags)));
        LLVMBuildStore(b, LLVMConstInt(t->i16, es, false), field(t, ev, offsetof(emu_event, size)));
        LLVMBuildStore(b, mask, field(t, ev, offsetof(emu_event, mem_lanes)));
        LLVMBuildStore(b, ci32(t, 0), field(t, ev, offsetof(emu_event, stride)));
        LLVMBuildStore(b, ci32(t, 0), field(t, ev, offsetof(emu_event, half_stride)));
        LLVMBuildStore(b, LLVMBuildAdd(b, a, ci64(t, EMU_PARAM_WINDOW), ""), field(t, ev, offsetof(emu_event, base)));
        LLVMBuildBr(b, done);
        LLVMPositionBuilderAtEnd(b, done);
    }
    LLVMValueRef x = load(t, ety, LLVMBuildGEP2(b, t->i8, t->param_base, &a, 1, ""));
    LLVMSetAlignment(x, es);
    put(t, &u->opd[0], mask, vsplat(t, LLVMBuildZExt(b, x, t->i64, ""), ""));
}

/* ---------------------------------------------------------------- the event variant */

/* Records µop i's event (lanes mask) in the warp's ring and makes it c->ev; returns it. */
static LLVMValueRef emit_event(tr *t, uint32_t i, LLVMValueRef mask)
{
    LLVMBuilderRef b = t->b;
    const emu_uop *u = &t->code->uops[i];
    /* Written inline, as next_event and event_header (interp/run.c) write it: the executor's
     * loop calls the event variant with a ring that has room for an event of every µop it may
     * run (its budget; a µop records one event, natively or through its handler). A call of
     * emu_jit_event_begin at every µop was ~33 host instructions in the callee, and a way
     * through it beside the inline one made the code half as large again. */
    _Static_assert(offsetof(emu_event, pc) == 0 && offsetof(emu_event, func) == 4 &&
                   offsetof(emu_event, active) == 8 && offsetof(emu_event, mask) == 12 &&
                   offsetof(emu_event, op) == 16 && offsetof(emu_event, cls) == 18 &&
                   offsetof(emu_event, stop) == 19 && offsetof(emu_event, flags) == 20 &&
                   offsetof(emu_event, space) == 21 && offsetof(emu_event, size) == 22 &&
                   offsetof(emu_event, mem_lanes) == 24 && offsetof(emu_event, taken) == 28 &&
                   offsetof(emu_event, reconv) == 32 && sizeof(emu_event) == 64,
                   "the header's words as emit_event writes them");
    LLVMValueRef ring = load(t, t->ptr, warp_field(t, offsetof(emu_warp, ring)));
    LLVMValueRef nev = load(t, t->i32, warp_field(t, offsetof(emu_warp, nev)));
    LLVMValueRef n64 = LLVMBuildZExt(b, nev, t->i64, "");
    LLVMValueRef ev = LLVMBuildGEP2(b, t->i8, ring, (LLVMValueRef[]){LLVMBuildMul(b, n64, ci64(t, sizeof(emu_event)), "")}, 1, "");
    LLVMValueRef rows = load(t, t->ptr, warp_field(t, offsetof(emu_warp, ring_rows)));
    LLVMValueRef row = LLVMBuildGEP2(b, t->i8, rows,
                                     (LLVMValueRef[]){LLVMBuildMul(b, n64, ci64(t, EMU_WARP_SIZE * sizeof(uint64_t)), "")}, 1, "");
    LLVMBuildStore(b, LLVMBuildAdd(b, nev, ci32(t, 1), ""), warp_field(t, offsetof(emu_warp, nev)));
    LLVMValueRef f = load(t, t->ptr, ctx_field(t, offsetof(emu_ctx, f)));
    LLVMValueRef func = load(t, t->i32, field(t, f, offsetof(emu_func, index)));
    LLVMValueRef active = load(t, t->i32, ctx_field(t, offsetof(emu_ctx, active)));
    LLVMValueRef w0 = LLVMBuildOr(b, ci64(t, i), LLVMBuildShl(b, LLVMBuildZExt(b, func, t->i64, ""), ci64(t, 32), ""), "");
    LLVMValueRef w1 = LLVMBuildOr(b, LLVMBuildZExt(b, active, t->i64, ""),
                                  LLVMBuildShl(b, LLVMBuildZExt(b, mask, t->i64, ""), ci64(t, 32), ""), "");
    uint64_t w2 = (uint64_t)u->op | (uint64_t)u->cls << 16 | (uint64_t)EMU_EVENT_RAN << 24 |
                  (uint64_t)u->in->space << 40;   /* flags and size 0 */
    LLVMBuildStore(b, w0, field(t, ev, 0));
    LLVMBuildStore(b, w1, field(t, ev, 8));
    LLVMBuildStore(b, ci64(t, w2), field(t, ev, 16));
    LLVMBuildStore(b, ci64(t, 0), field(t, ev, 24));   /* mem_lanes, taken */
    LLVMBuildStore(b, ci32(t, 0), field(t, ev, 32));   /* reconv */
    LLVMBuildStore(b, row, field(t, ev, offsetof(emu_event, lane_addr)));
    LLVMBuildStore(b, ev, ctx_field(t, offsetof(emu_ctx, ev)));
    return ev;
}

/* The event of shared access i (event_shared_access; lanes mask, every one in the block and
 * aligned: emit_mem's fast path) of `total` bytes a lane at 32-bit offsets off, as the
 * handler's fast path records it (exec_mem.c fast_event, fast_warp_shaped): compact where the
 * lanes' addresses have its shape -- a whole warp's from lanes 0, 1 and 16, another mask's one
 * stride from its first two lanes -- with both strides in 32 bits, else each active lane's
 * generic address in the event's row. No memory fields without a lane (the handler does not
 * run). */
static void emit_shared_event(tr *t, uint32_t i, LLVMValueRef mask, LLVMValueRef off, unsigned total)
{
    LLVMBuilderRef b = t->b;
    LLVMValueRef ev = emit_event(t, i, mask);
    LLVMBasicBlockRef rec = block(t, "ev.mem"), shape = block(t, "ev.compact"),
                      lanes = block(t, "ev.lanes"), done = block(t, "ev.recorded");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, mask, ci32(t, 0), ""), rec, done);
    LLVMPositionBuilderAtEnd(b, rec);
    LLVMValueRef a = LLVMBuildZExt(b, off, t->v64, "");
    LLVMValueRef full = LLVMBuildICmp(b, LLVMIntEQ, mask, ci32(t, 0xffffffffu), "");
    /* a whole warp: lane 0's address, lane 1's and lane 16's from it */
    LLVMValueRef a0 = LLVMBuildExtractElement(b, a, ci32(t, 0), "");
    LLVMValueRef stride_w = LLVMBuildSub(b, LLVMBuildExtractElement(b, a, ci32(t, 1), ""), a0, "");
    LLVMValueRef half_w = LLVMBuildSub(b, LLVMBuildExtractElement(b, a, ci32(t, 16), ""), a0, "");
    /* some lanes: the stride from the first two (signed division by their distance), lane 0's
     * address from the first, half a warp of strides; one lane: stride 0 */
    LLVMValueRef cz[2] = {mask, LLVMConstInt(t->i1, 0, false)};
    LLVMTypeRef i32ty = t->i32;
    LLVMValueRef l0 = call_intrinsic(t, "llvm.cttz", &i32ty, 1, cz, 2);
    LLVMValueRef rest = LLVMBuildAnd(b, mask, LLVMBuildSub(b, mask, ci32(t, 1), ""), "");
    LLVMValueRef none = LLVMBuildICmp(b, LLVMIntEQ, rest, ci32(t, 0), "");
    LLVMValueRef cz1[2] = {LLVMBuildSelect(b, none, mask, rest, ""), LLVMConstInt(t->i1, 0, false)};
    LLVMValueRef l1 = call_intrinsic(t, "llvm.cttz", &i32ty, 1, cz1, 2);
    LLVMValueRef al0 = LLVMBuildExtractElement(b, a, l0, "");
    LLVMValueRef d = LLVMBuildSub(b, LLVMBuildExtractElement(b, a, l1, ""), al0, "");
    LLVMValueRef dist = LLVMBuildZExt(b, LLVMBuildSub(b, l1, l0, ""), t->i64, "");
    LLVMValueRef stride_s = LLVMBuildSelect(b, none, ci64(t, 0),
                                            LLVMBuildSDiv(b, d, LLVMBuildSelect(b, none, ci64(t, 1), dist, ""), ""), "");
    LLVMValueRef base_s = LLVMBuildSub(b, al0, LLVMBuildMul(b, LLVMBuildZExt(b, l0, t->i64, ""), stride_s, ""), "");
    LLVMValueRef half_s = LLVMBuildMul(b, stride_s, ci64(t, 16), "");
    LLVMValueRef base = LLVMBuildSelect(b, full, a0, base_s, "");
    LLVMValueRef stride = LLVMBuildSelect(b, full, stride_w, stride_s, "");
    LLVMValueRef half = LLVMBuildSelect(b, full, half_w, half_s, "");
    /* lane l's address by the shape: base + (l % 16) * stride + (l / 16) * half */
    LLVMValueRef in_half[EMU_WARP_SIZE], which[EMU_WARP_SIZE];
    for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
        in_half[l] = ci64(t, l % 16);
        which[l] = ci64(t, l / 16);
    }
    LLVMValueRef want = LLVMBuildAdd(
        b, vsplat(t, base, ""),
        LLVMBuildAdd(b, LLVMBuildMul(b, LLVMConstVector(in_half, EMU_WARP_SIZE), vsplat(t, stride, ""), ""),
                     LLVMBuildMul(b, LLVMConstVector(which, EMU_WARP_SIZE), vsplat(t, half, ""), ""), ""),
        "");
    LLVMValueRef mv = mask_vec(t, mask);
    LLVMValueRef eq = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, a, want, ""), LLVMBuildNot(b, mv, ""), "");
    LLVMValueRef same = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildBitCast(b, eq, t->i32, ""), ci32(t, 0xffffffffu), "");
    LLVMValueRef fits = LLVMBuildAnd(
        b, LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildSExt(b, LLVMBuildTrunc(b, stride, t->i32, ""), t->i64, ""), stride, ""),
        LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildSExt(b, LLVMBuildTrunc(b, half, t->i32, ""), t->i64, ""), half, ""), "");
    LLVMValueRef compact = LLVMBuildAnd(b, same, fits, "");
    LLVMBuildStore(b, LLVMBuildTrunc(b, ci32(t, total), t->i16, ""), field(t, ev, offsetof(emu_event, size)));
    LLVMBuildStore(b, mask, field(t, ev, offsetof(emu_event, mem_lanes)));
    LLVMValueRef flags = LLVMBuildSelect(b, compact, LLVMConstInt(t->i8, EMU_EV_MEM | EMU_EV_COMPACT, false),
                                         LLVMConstInt(t->i8, EMU_EV_MEM, false), "");
    LLVMBuildStore(b, flags, field(t, ev, offsetof(emu_event, flags)));
    LLVMBuildCondBr(b, compact, shape, lanes);
    LLVMPositionBuilderAtEnd(b, shape);
    LLVMBuildStore(b, LLVMBuildTrunc(b, stride, t->i32, ""), field(t, ev, offsetof(emu_event, stride)));
    LLVMBuildStore(b, LLVMBuildTrunc(b, half, t->i32, ""), field(t, ev, offsetof(emu_event, half_stride)));
    LLVMBuildStore(b, LLVMBuildAdd(b, base, ci64(t, EMU_SHARED_WINDOW), ""), field(t, ev, offsetof(emu_event, base)));
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, lanes);
    LLVMValueRef row = load(t, t->ptr, field(t, ev, offsetof(emu_event, lane_addr)));
    LLVMTypeRef over[2] = {t->v64, t->ptr};
    LLVMValueRef args[4] = {LLVMBuildAdd(b, a, splat64(t, EMU_SHARED_WINDOW), ""), row, ci32(t, 8), mv};
    call_intrinsic(t, "llvm.masked.store", over, 2, args, 4);
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, done);
}

/* The run-ahead rule (interp/run.c): a cycle model's run-ahead (w->ahead) ends before a timed
 * µop once the run issued one, and a local one (w->ahead_local) before one that touches state
 * other CTAs see. The run then leaves at i with c->ahead_stop set. Only µops with those flags
 * test it. */
static void emit_ahead_stop(tr *t, uint32_t i, const emu_uop *u)
{
    if (!(u->flags & (EMU_UOP_TIMED | EMU_UOP_SHARED_STATE))) return;
    LLVMBuilderRef b = t->b;
    LLVMValueRef zero8 = LLVMConstInt(t->i8, 0, false);
    LLVMValueRef ahead = LLVMBuildICmp(b, LLVMIntNE, load(t, t->i8, warp_field(t, offsetof(emu_warp, ahead))),
                                       zero8, "");
    LLVMValueRef stop = LLVMConstInt(t->i1, 0, false);
    if (u->flags & EMU_UOP_TIMED) {
        LLVMValueRef before = LLVMBuildICmp(b, LLVMIntNE, load(t, t->i8, ctx_field(t, offsetof(emu_ctx, ran_before))),
                                            zero8, "");
        LLVMValueRef ran = LLVMBuildOr(b, before, LLVMBuildICmp(b, LLVMIntNE, count(t), ci64(t, 0), ""), "");
        stop = LLVMBuildOr(b, stop, ran, "");
    }
    if (u->flags & EMU_UOP_SHARED_STATE) {
        LLVMValueRef local = LLVMBuildICmp(b, LLVMIntNE,
                                           load(t, t->i8, warp_field(t, offsetof(emu_warp, ahead_local))),
                                           zero8, "");
        stop = LLVMBuildOr(b, stop, local, "");
    }
    stop = LLVMBuildAnd(b, ahead, stop, "");
    LLVMBasicBlockRef out = block(t, "ahead"), go = block(t, "issue");
    LLVMBuildCondBr(b, stop, out, go);
    LLVMPositionBuilderAtEnd(b, out);
    flush_rows(t, i, false);
    sync_count(t);
    LLVMBuildStore(b, LLVMConstInt(t->i8, 1, false), ctx_field(t, offsetof(emu_ctx, ahead_stop)));
    LLVMBuildStore(b, ci32(t, i), t->npc_slot);
    LLVMBuildBr(b, t->exit_pc);
    LLVMPositionBuilderAtEnd(b, go);
}

/* ---------------------------------------------------------------- µops through their handler */

static void emit_call_stored(tr *t, uint32_t i, const emu_uop *u, LLVMValueRef mask);
static bool opds_name_row(const tr *t, const emu_uop *u, uint32_t row);
static bool opd_names_row(const tr *t, const emu_opd *o, uint32_t row);
static bool reads_other_lanes(uint16_t op);

/* Calls u's handler as the interpreter's loop does, the rows live at it stored first (what
 * it reads, and what the run reads after it, from memory: see liveness()). */
static void emit_call(tr *t, uint32_t i, const emu_uop *u, LLVMValueRef mask)
{
    flush_rows(t, i, true);
    emit_call_stored(t, i, u, mask);
}

static LLVMValueRef call_handler(tr *t, uint32_t i, LLVMValueRef mask);

/* Calls u's handler (the rows in memory), then leaves or goes on. */
static void emit_call_stored(tr *t, uint32_t i, const emu_uop *u, LLVMValueRef mask)
{
    LLVMBuilderRef b = t->b;
    if (!t->events && ((u->flags & EMU_UOP_CONTROL) || i + 1 >= u->block_end) && !t->looped[i] &&
        u->op != PTX_OP_BAR && u->op != PTX_OP_BARRIER) {
        /* the run goes on through the dispatch whatever the handler did: slow_out's ways out
         * (its last one the dispatch at the pc the handler left), shared by every such call.
         * A barrier's call (where every warp's run ends in a barrier-bound kernel: scan_block's
         * 22 per warp) and a call in a loop (a sort's divergent exchange, every turn) stay
         * inline: through emu_jit_call_handler scan's kernel ran 2.5% slower, bitonic's 1-2% */
        call_handler(t, i, mask);
        LLVMBuildBr(b, t->slow_out);
        return;
    }
    LLVMBuildStore(b, mask, ctx_field(t, offsetof(emu_ctx, mask)));
    LLVMBuildStore(b, ci32(t, i), ctx_field(t, offsetof(emu_ctx, pc)));
    LLVMBuildStore(b, ci32(t, i + 1), ctx_field(t, offsetof(emu_ctx, next_pc)));
    LLVMBuildStore(b, LLVMConstInt(t->i8, 0, false), ctx_field(t, offsetof(emu_ctx, control)));
    /* the µop and its handler as this process decoded them (no address in the code: see
     * EMU_JIT_DEVICE_GENERATION) */
    LLVMValueRef up = field(t, t->uops, (size_t)i * sizeof(emu_uop));
    LLVMBuildStore(b, up, ctx_field(t, offsetof(emu_ctx, u)));
    if (u->flags & (EMU_UOP_CONTROL | EMU_UOP_MAY_STOP)) store_top_pc(t, ci32(t, i));
    store_ninstr(t);
    if (t->events) emit_event(t, i, mask);
    LLVMBasicBlockRef call = block(t, "call"), after = block(t, "after");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, mask, ci32(t, 0), ""), call, after);
    LLVMPositionBuilderAtEnd(b, call);
    LLVMTypeRef args[2] = {t->ptr, t->ptr};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(t->cx), args, 2, false);
    LLVMValueRef fp = load(t, t->ptr, field(t, up, offsetof(emu_uop, exec)));
    LLVMValueRef av[2] = {t->c, up};
    LLVMBuildCall2(b, fty, fp, av, 2, "");
    LLVMBuildBr(b, after);
    LLVMPositionBuilderAtEnd(b, after);
    count_one(t);
    /* a handler may have grown the register file (calls end the run below anyway) */
    LLVMBuildStore(b, load(t, t->ptr, ctx_field(t, offsetof(emu_ctx, regs))), t->regs_slot);
    LLVMValueRef stop = load(t, t->i32, ctx_field(t, offsetof(emu_ctx, stop)));
    LLVMValueRef control = load(t, t->i8, ctx_field(t, offsetof(emu_ctx, control)));
    LLVMValueRef npc = load(t, t->i32, ctx_field(t, offsetof(emu_ctx, next_pc)));
    if (t->events) {
        /* the stop the handler asked for is its event's (interp/run.c) */
        LLVMValueRef ev = load(t, t->ptr, ctx_field(t, offsetof(emu_ctx, ev)));
        LLVMValueRef has = LLVMBuildAnd(b, LLVMBuildIsNotNull(b, ev, ""),
                                        LLVMBuildICmp(b, LLVMIntSGE, stop, ci32(t, 0), ""), "");
        LLVMBasicBlockRef mark = block(t, "ev.stop"), marked = block(t, "ev.stopped");
        LLVMBuildCondBr(b, has, mark, marked);
        LLVMPositionBuilderAtEnd(b, mark);
        LLVMBuildStore(b, LLVMBuildTrunc(b, stop, t->i8, ""), field(t, ev, offsetof(emu_event, stop)));
        LLVMBuildBr(b, marked);
        LLVMPositionBuilderAtEnd(b, marked);
    }
    LLVMBasicBlockRef leave = block(t, "leave"), go = block(t, "go"), moved = block(t, "moved");
    LLVMValueRef faulted = LLVMBuildICmp(b, LLVMIntEQ, stop, ci32(t, EMU_STOP_FAULT), "");
    LLVMValueRef rewrote = LLVMBuildICmp(b, LLVMIntNE, control, LLVMConstInt(t->i8, 0, false), "");
    LLVMBuildCondBr(b, LLVMBuildOr(b, faulted, rewrote, ""), moved, leave);
    /* a rewritten stack without a stop: the run goes on at the path the executor loop would
     * pick next (emit_dispatch's resume) */
    LLVMPositionBuilderAtEnd(b, moved);
    LLVMValueRef stopped_any = LLVMBuildICmp(b, LLVMIntSGE, stop, ci32(t, 0), "");
    LLVMBuildCondBr(b, LLVMBuildOr(b, faulted, stopped_any, ""), t->ret, t->resume);
    /* a stop: the pc the handler left, and return */
    LLVMPositionBuilderAtEnd(b, leave);
    LLVMBasicBlockRef stopped = block(t, "stopped");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGE, stop, ci32(t, 0), ""), stopped, go);
    LLVMPositionBuilderAtEnd(b, stopped);
    LLVMBuildStore(b, npc, t->npc_slot);
    LLVMBuildBr(b, t->exit_pc);
    LLVMPositionBuilderAtEnd(b, go);
    if ((u->flags & EMU_UOP_CONTROL) || i + 1 >= u->block_end) {
        goto_dispatch(t, npc);
        return;
    }
    LLVMBasicBlockRef jumped = block(t, "jumped");
    LLVMBasicBlockRef on = t->keep_cache ? block(t, "kept") : t->side[i + 1];
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, npc, ci32(t, i + 1), ""), jumped, on);
    if (t->keep_cache) {
        /* the rows the handler may have written leave the cache (a later read loads them);
         * the others go on in registers into µop i + 1 (its phis' incoming from here) */
        LLVMPositionBuilderAtEnd(b, on);
        for (uint32_t k = 0; k < t->ncache;)
            if (opds_name_row(t, u, t->cache[k].row)) t->cache[k] = t->cache[--t->ncache];
            else k++;
        /* µop i + 1 is one further in the segment: its place counts this one */
        LLVMBuildStore(b, LLVMBuildAdd(b, load(t, t->i64, t->left_slot), ci64(t, 1), ""), t->left_slot);
        t->active = load(t, t->i32, ctx_field(t, offsetof(emu_ctx, active)));
        if (t->loop_head != NO_LOOP) LLVMBuildStore(b, LLVMConstInt(t->i1, 0, false), t->loop_ok_slot);
        LLVMBuildBr(b, t->bb[i + 1]);
        t->fall = on;
    }
    LLVMPositionBuilderAtEnd(b, jumped);
    goto_dispatch(t, npc);
}

/* bar.sync with one immediate id (x_bar_sync_imm: no count, no reduction) in the plain
 * variant, where it ends nearly every run of a barrier-bound kernel (scan_block's 21 per warp,
 * bitonic's sort_shared 55 per warp): a converged warp's arrival (the launch's policy without
 * barrier or event hooks, no guard false, the path alone in its frame) through
 * emu_barrier_sync_converged, called directly with the id and the next pc, and the run ends
 * after the µop; else the handler as before. No context stores, indirect call, x_bar_sync_imm
 * or emu_barrier_arrive's general case per arrival. Made inline in IR (the tests and stores of
 * the arrival), scan_block compiled ~50 ms longer for ~2% more kernel time saved. The rows
 * live at the barrier are stored first on both ways. */
static void emit_bar_sync(tr *t, uint32_t i, const emu_uop *u, LLVMValueRef mask)
{
    LLVMBuilderRef b = t->b;
    flush_rows(t, i, true);
    uint32_t id = (uint32_t)((uint64_t)u->in->ops[0].imm & 0xffffffffu);
    assert(id < EMU_NBARRIERS);
    LLVMTypeRef args[4] = {t->ptr, t->i32, t->i32, t->i32};
    LLVMTypeRef fty = LLVMFunctionType(t->i8, args, 4, false);   /* bool: al, 0 or 1 */
    LLVMValueRef fn = LLVMGetNamedFunction(t->m, EMU_JIT_BAR_SYNC);
    if (!fn) fn = LLVMAddFunction(t->m, EMU_JIT_BAR_SYNC, fty);
    LLVMValueRef av[4] = {t->c, ci32(t, id), ci32(t, i + 1), mask};
    LLVMValueRef arrived = LLVMBuildCall2(b, fty, fn, av, 4, "");
    LLVMBasicBlockRef stop = block(t, "bar.arrived"), call = block(t, "bar.call");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, arrived, LLVMConstInt(t->i8, 0, false), ""), stop, call);
    LLVMPositionBuilderAtEnd(b, call);
    emit_call_stored(t, i, u, mask);
    LLVMPositionBuilderAtEnd(b, stop);
    count_one(t);
    LLVMBuildStore(b, ci32(t, i + 1), t->npc_slot);
    LLVMBuildBr(b, t->exit_pc);
}

/* Runs µop i's handler through emu_jit_call_handler (the rows it reads stored), the count
 * through µop i in cnt_slot (what slow_out's ways out read); returns its answer (i8: 1 when
 * the run may go on at i + 1). */
static LLVMValueRef call_handler(tr *t, uint32_t i, LLVMValueRef mask)
{
    LLVMBuilderRef b = t->b;
    store_ninstr(t);
    LLVMBuildStore(b, LLVMBuildAdd(b, count(t), ci64(t, 1), ""), t->cnt_slot);
    /* the handler set the SIMT top's pc: a loop's back edge checks the stack again */
    if (t->loop_head != NO_LOOP) LLVMBuildStore(b, LLVMConstInt(t->i1, 0, false), t->loop_ok_slot);
    LLVMTypeRef args[4] = {t->ptr, t->ptr, t->i32, t->i32};
    LLVMTypeRef fty = LLVMFunctionType(t->i8, args, 4, false);
    LLVMValueRef fn = LLVMGetNamedFunction(t->m, EMU_JIT_CALL_HANDLER);
    if (!fn) fn = LLVMAddFunction(t->m, EMU_JIT_CALL_HANDLER, fty);
    LLVMValueRef av[4] = {t->c, field(t, t->uops, (size_t)i * sizeof(emu_uop)), ci32(t, i), mask};
    LLVMValueRef on = LLVMBuildCall2(b, fty, fn, av, 4, "");
    /* a handler may have grown the register file */
    LLVMBuildStore(b, load(t, t->ptr, ctx_field(t, offsetof(emu_ctx, regs))), t->regs_slot);
    return on;
}

/* The slow path of memory µop i (slow_rejoins: the builder in its slow block, the rows the
 * handler reads stored): the handler runs (call_handler), and the run goes on at resumed
 * (emit_mem joins it after the access, the cache as before the access: the fast path's rows
 * stay in registers) or, when the handler stopped or moved control, leaves through slow_out
 * (emit_slow_out). */
static void emit_slow_access(tr *t, uint32_t i, LLVMValueRef mask, LLVMBasicBlockRef resumed)
{
    LLVMBuilderRef b = t->b;
    /* the event variant's (event_global_access): the handler fills the event's memory fields,
     * and a stop it asks for (a fault) is its event's, as in the interpreter's loop */
    LLVMValueRef ev = t->events ? emit_event(t, i, mask) : NULL;
    LLVMValueRef on = call_handler(t, i, mask);
    LLVMValueRef going = LLVMBuildICmp(b, LLVMIntNE, on, LLVMConstInt(t->i8, 0, false), "");
    if (!ev) {
        LLVMBuildCondBr(b, going, resumed, t->slow_out);
        return;
    }
    LLVMBasicBlockRef leaving = block(t, "slow.ev"), mark = block(t, "slow.ev.stop");
    LLVMBuildCondBr(b, going, resumed, leaving);
    LLVMPositionBuilderAtEnd(b, leaving);
    LLVMValueRef stop = load(t, t->i32, ctx_field(t, offsetof(emu_ctx, stop)));
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGE, stop, ci32(t, 0), ""), mark, t->slow_out);
    LLVMPositionBuilderAtEnd(b, mark);
    LLVMBuildStore(b, LLVMBuildTrunc(b, stop, t->i8, ""), field(t, ev, offsetof(emu_event, stop)));
    LLVMBuildBr(b, t->slow_out);
}

/* slow_out: emit_call_stored's ways out after a handler, shared by the function's memory slow
 * paths that do not go on (emit_slow_access) and its handler calls that end a block or move
 * control (branches, barriers: emit_call_stored): a fault or a rewritten stack ends the run or
 * resumes the path the executor loop would pick; a stop leaves at the pc the handler left;
 * else the run goes on at that pc through the dispatch. */
static void emit_slow_out(tr *t)
{
    LLVMBuilderRef b = t->b;
    LLVMPositionBuilderAtEnd(b, t->slow_out);
    LLVMValueRef stop = load(t, t->i32, ctx_field(t, offsetof(emu_ctx, stop)));
    LLVMValueRef control = load(t, t->i8, ctx_field(t, offsetof(emu_ctx, control)));
    LLVMValueRef npc = load(t, t->i32, ctx_field(t, offsetof(emu_ctx, next_pc)));
    LLVMBasicBlockRef leave = block(t, "slow.leave"), moved = block(t, "slow.moved");
    LLVMBasicBlockRef stopped = block(t, "slow.stopped"), jumped = block(t, "slow.jumped");
    LLVMValueRef faulted = LLVMBuildICmp(b, LLVMIntEQ, stop, ci32(t, EMU_STOP_FAULT), "");
    LLVMValueRef rewrote = LLVMBuildICmp(b, LLVMIntNE, control, LLVMConstInt(t->i8, 0, false), "");
    LLVMValueRef stopped_any = LLVMBuildICmp(b, LLVMIntSGE, stop, ci32(t, 0), "");
    LLVMBuildCondBr(b, LLVMBuildOr(b, faulted, rewrote, ""), moved, leave);
    LLVMPositionBuilderAtEnd(b, moved);
    LLVMBuildCondBr(b, LLVMBuildOr(b, faulted, stopped_any, ""), t->ret, t->resume);
    LLVMPositionBuilderAtEnd(b, leave);
    LLVMBuildCondBr(b, stopped_any, stopped, jumped);
    LLVMPositionBuilderAtEnd(b, stopped);
    LLVMBuildStore(b, npc, t->npc_slot);
    LLVMBuildBr(b, t->exit_pc);
    LLVMPositionBuilderAtEnd(b, jumped);
    goto_dispatch(t, npc);
}

static LLVMValueRef dispatch_ok(tr *t, LLVMValueRef npc, LLVMValueRef *top_out);

/* A branch's three ways by its taken mask: taken by every active lane (the builder is left
 * there, the branch counted), by none (*fall), by some (*split, the divergent handler's). */
static void branch_ways(tr *t, LLVMValueRef mask, const char *taken_name, LLVMBasicBlockRef *fall,
                        LLVMBasicBlockRef *split)
{
    LLVMBuilderRef b = t->b;
    LLVMBasicBlockRef taken = block(t, taken_name), check = block(t, "check");
    *fall = block(t, "fall");
    *split = block(t, "split");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, mask, t->active, ""), taken, check);
    LLVMPositionBuilderAtEnd(b, check);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, mask, ci32(t, 0), ""), *fall, *split);
    LLVMPositionBuilderAtEnd(b, taken);
    count_one(t);
}

/* ---------------------------------------------------------------- chained segments */

/* The most rows a chain head carries in phis, and the most µops of a function that chains:
 * the carried rows are dirty in the head's segment, so every budget exit and handler call
 * there stores those live at it (code, and compile time, grow with both). 64 µops: vecadd
 * (22) and transpose (56) gain (their rows crossed every block end through memory), while
 * matmul's kernel (123) compiled 20% longer for nothing measurable. */
#define JIT_CHAIN_ROWS 24
#define JIT_CHAIN_UOPS 64
/* A function without a loop chains up to this many µops: its segments run once per warp, each
 * block end crossed through memory at most once, but a straight kernel's rows cross its few
 * block ends (Black-Scholes: 168 µops, three segments split by lg2's rare branch) with masked
 * stores and reloads each: chained, its kernel ran 41.6 -> 36.7 ms (least of 5, load ~5;
 * 2685 -> 2579 host instructions per warp), compiling it 120 -> 137 ms. */
#define JIT_CHAIN_STRAIGHT_UOPS 256
/* the longest segment whose chain head may carry every row live there (chain_all_fit()) */
#define JIT_CHAIN_ALL_UOPS 8

static void slot_kind_add(tr *t, uint32_t slot, uint8_t kind)
{
    if (slot >= t->code->fn->nslots) return;   /* liveness() gave up on such a row: no chain */
    uint8_t *k = &t->slot_kind[slot];
    bool reg = kind == SLOT_NARROW || kind == SLOT_WIDE, was_reg = *k == SLOT_NARROW || *k == SLOT_WIDE;
    if (*k == SLOT_UNNAMED || *k == kind) *k = kind;
    else *k = reg && was_reg ? SLOT_WIDE : SLOT_MIXED;
}

static void slot_kinds_opd(tr *t, const emu_opd *o)
{
    switch (o->kind) {
    case EMU_OPD_REG:
        slot_kind_add(t, o->row / EMU_WARP_SIZE, o->bits != 0 && o->bits <= 32 ? SLOT_NARROW : SLOT_WIDE);
        if (o->bits == 128) slot_kind_add(t, o->row / EMU_WARP_SIZE + 1, SLOT_WIDE);
        return;
    case EMU_OPD_PRED:
        slot_kind_add(t, o->row / EMU_WARP_SIZE, SLOT_PRED);
        return;
    case EMU_OPD_ADDR:
        if (o->flags & EMU_OPD_F_BASE_REG) slot_kind_add(t, o->row / EMU_WARP_SIZE, SLOT_WIDE);
        return;
    case EMU_OPD_VEC:
    case EMU_OPD_LIST:
        for (uint64_t k = 0; k < o->imm; k++) slot_kinds_opd(t, &t->code->pool[o->row + k]);
        return;
    default:
        return;
    }
}

/* t->slot_kind from every name of every slot (liveness()'s operands) */
static void slot_kinds(tr *t)
{
    for (uint32_t i = 0; i < t->n; i++) {
        const emu_uop *u = &t->code->uops[i];
        if (u->guard_row != EMU_NO_GUARD) slot_kind_add(t, u->guard_row / EMU_WARP_SIZE, SLOT_PRED);
        for (unsigned k = 0; k < u->nopd; k++) slot_kinds_opd(t, emu_uop_opd(u, k));
        if (u->flags & EMU_UOP_CONTRACTED) {
            const emu_fma_contraction *fc = u->form;
            slot_kinds_opd(t, &fc->a);
            slot_kinds_opd(t, &fc->b);
            slot_kinds_opd(t, &fc->c);
        }
    }
}

/* The register rows live at µop s that its segment names, in slot order, and whether each
 * goes as its 32-bit halves; -1 when one is a slot no phi holds (SLOT_MIXED, SLOT_UNNAMED) or
 * they are more than JIT_CHAIN_ROWS. Each is in the segment's register cache from its start
 * (so in every side entry's loads and every exit's stores: a row the segment does not name
 * stays out of it, stored on a way in where it is dirty: chain_edge). Predicates live at s
 * are in memory on every way in (put_pred stores them outside loop segments; a loop's exit
 * stores its dirty ones). */
static int chain_rows(const tr *t, uint32_t s, uint32_t *rows, bool *narrow)
{
    int n = 0;
    for (uint32_t k = 0; k < t->code->fn->nslots; k++) {
        if (!((t->live[(size_t)s * t->live_words + k / 64] >> (k % 64)) & 1)) continue;
        uint8_t kind = t->slot_kind[k];
        if (kind == SLOT_PRED || (!t->chain_all[s] && !segment_names_row(t, s, k * EMU_WARP_SIZE)))
            continue;
        if ((kind != SLOT_NARROW && kind != SLOT_WIDE) || n == JIT_CHAIN_ROWS) return -1;
        rows[n] = k * EMU_WARP_SIZE;
        narrow[n++] = kind == SLOT_NARROW;
    }
    return n;
}

/* Whether chain head s of a function without a loop may carry every register row live there,
 * also those its segment does not name (chain_all), which would otherwise be stored where
 * they are made and loaded again after it: its segment is short (at most JIT_CHAIN_ALL_UOPS
 * µops), calls no handler, and the rows have kinds a phi holds and fit JIT_CHAIN_ROWS.
 * Black-Scholes' lg2 branch (a segment of two µops, rarely run, that names few of the rows
 * that cross it) stored and reloaded 10 rows per warp: kernel 29.3 -> 28.5 ms (least of 6,
 * load 9), compile 129 -> 134 ms. Carried so in every short segment, also in loops, transpose
 * 2048 ran 15.8 -> 13.6 ms but compiled 99 -> 142 ms, bitonic 125 -> 160 ms, scan 440 -> 497
 * ms, whose real sizes count their compile time end to end: not done there. */
static bool chain_all_fit(const tr *t, uint32_t s)
{
    uint32_t len = 0;
    for (; s + len < t->n && (len == 0 || !t->seg_start[s + len]); len++)
        if (len == JIT_CHAIN_ALL_UOPS || !translates(t, &t->code->uops[s + len])) return false;
    int n = 0;
    for (uint32_t k = 0; k < t->code->fn->nslots; k++) {
        if (!((t->live[(size_t)s * t->live_words + k / 64] >> (k % 64)) & 1)) continue;
        uint8_t kind = t->slot_kind[k];
        if (kind == SLOT_PRED) continue;
        if ((kind != SLOT_NARROW && kind != SLOT_WIDE) || ++n > JIT_CHAIN_ROWS) return false;
    }
    return true;
}

/* Whether segment start s is a chain head: a translated µop's segment may end into it (a
 * translated branch's target, or the µop before it translated), it is no loop segment (whose
 * head has phis of its own) and no region boundary, and its rows fit (chain_rows()). */
static bool chain_head(const tr *t, uint32_t s)
{
    const emu_uop *u = &t->code->uops[s];
    if (!t->chain || !t->seg_start[s] || t->loop_seg[s] || (u->flags & EMU_UOP_REGION_BOUNDARY))
        return false;
    bool entered = s > 0 && translates(t, u - 1) && (u - 1)->op != PTX_OP_EXIT;
    for (uint32_t i = 0; !entered && i < t->n; i++) {
        const emu_uop *b = &t->code->uops[i];
        entered = b->op == PTX_OP_BRA && translates(t, b) && branch_target(b) == (int32_t)s;
    }
    uint32_t rows[JIT_CHAIN_ROWS];
    bool narrow[JIT_CHAIN_ROWS];
    return entered && chain_rows(t, s, rows, narrow) >= 0;
}

/* Head s's phis (made once, before its µop's code: bb[s] is empty until then), the builder
 * left where it was */
static LLVMValueRef *chain_phis(tr *t, uint32_t s)
{
    LLVMValueRef *phi = &t->chain_phi[(size_t)s * JIT_CHAIN_ROWS];
    if (t->chain_made[s]) return phi;
    t->chain_made[s] = true;
    uint32_t rows[JIT_CHAIN_ROWS];
    bool narrow[JIT_CHAIN_ROWS];
    int n = chain_rows(t, s, rows, narrow);
    assert(n >= 0);
    LLVMBasicBlockRef here = LLVMGetInsertBlock(t->b);
    assert(!LLVMGetFirstInstruction(t->bb[s]));
    LLVMPositionBuilderAtEnd(t->b, t->bb[s]);
    for (int k = 0; k < n; k++) phi[k] = LLVMBuildPhi(t->b, narrow[k] ? t->v32 : t->v64, "");
    if (here) LLVMPositionBuilderAtEnd(t->b, here);
    return phi;
}

/* Whether a translated µop in i .. j writes row (its destination) */
static bool written_in(const tr *t, uint32_t i, uint32_t j, uint32_t row)
{
    for (; i <= j && i < t->n; i++) {
        const emu_uop *u = &t->code->uops[i];
        if (u->nopd > 0 && u->op != PTX_OP_ST && u->op != PTX_OP_BRA && translates(t, u) &&
            opd_names_row(t, &u->opd[0], row))
            return true;
    }
    return false;
}

/* The start of chain head s's segment: its side entry loads the carried rows (the phis'
 * incoming from there), which start the register cache; a row is dirty there when a way in
 * emitted so far carries it dirty, or when a branch at or after s comes back to s and a µop
 * on the way writes it (a back edge that carries a dirty value into a clean phi all the
 * same stores it: chain_edge). */
static void open_chain(tr *t, uint32_t s)
{
    LLVMBuilderRef b = t->b;
    uint32_t rows[JIT_CHAIN_ROWS];
    bool narrow[JIT_CHAIN_ROWS];
    int n = chain_rows(t, s, rows, narrow);
    LLVMValueRef *phi = chain_phis(t, s);
    bool *dirty = &t->chain_dirty[(size_t)s * JIT_CHAIN_ROWS];
    uint32_t back = NO_LOOP;
    for (uint32_t j = s; j < t->n; j++) {
        const emu_uop *u = &t->code->uops[j];
        if (u->op == PTX_OP_BRA && translates(t, u) && branch_target(u) == (int32_t)s) back = j;
    }
    for (int k = 0; k < n; k++)
        dirty[k] = dirty[k] || (back != NO_LOOP && written_in(t, s, back, rows[k]));
    t->chain_open[s] = true;
    LLVMPositionBuilderAtEnd(b, t->side[s]);
    for (int k = 0; k < n; k++) {
        LLVMValueRef in;
        if (narrow[k]) in = load_low(t, rows[k]);
        else {
            in = load(t, t->v64, row_ptr(t, rows[k]));
            LLVMSetAlignment(in, 8);
        }
        LLVMAddIncoming(phi[k], &in, &t->side[s], 1);
    }
    LLVMBuildBr(b, t->bb[s]);
    LLVMPositionBuilderAtEnd(b, t->bb[s]);
    for (int k = 0; k < n; k++) {
        cache_row_low(t, rows[k], narrow[k] ? LLVMBuildZExt(b, phi[k], t->v64, "") : phi[k],
                      narrow[k] ? phi[k] : NULL);
        int c = cached_index(t, rows[k]);
        assert(c >= 0);
        t->cache[c].dirty = dirty[k];
    }
}

/* Goes on at chain head s from the end of the current segment (its count counted): with
 * check (s starts another block), where the dispatch block would go on there (goes_on_at,
 * the SIMT top's pc set as it sets it), else through it with the rows live at s stored;
 * without (the next segment of the same block), directly. The rows go in as the head's
 * phis' incoming values: cached ones as they are, the others loaded. */
static void chain_edge(tr *t, uint32_t s, bool check)
{
    LLVMBuilderRef b = t->b;
    uint32_t rows[JIT_CHAIN_ROWS];
    bool narrow[JIT_CHAIN_ROWS];
    int n = chain_rows(t, s, rows, narrow);
    LLVMValueRef *phi = chain_phis(t, s);
    /* what the head does not carry (a loop's dirty predicates) is in memory on every way in */
    for (uint32_t k = 0; k < t->ncache; k++)
        if (t->cache[k].dirty && row_live(t, s, t->cache[k].row) && !chain_carries(t, s, t->cache[k].row))
            store_cached(t, t->cache[k]);
    if (check) {
        /* the head's first µop checks the budget */
        LLVMBasicBlockRef go = block(t, "chain"), no = block(t, "chain.no");
        LLVMBuildCondBr(b, goes_on_at(t, s), go, no);
        LLVMPositionBuilderAtEnd(b, no);
        for (uint32_t k = 0; k < t->ncache; k++)
            if (t->cache[k].dirty && chain_carries(t, s, t->cache[k].row) && row_live(t, s, t->cache[k].row))
                store_cached(t, t->cache[k]);
        sync_count(t);
        LLVMBuildStore(b, ci32(t, s), t->npc_slot);
        LLVMBuildBr(b, t->dispatch);
        LLVMPositionBuilderAtEnd(b, go);
    }
    LLVMValueRef in[JIT_CHAIN_ROWS];
    bool *dirty = &t->chain_dirty[(size_t)s * JIT_CHAIN_ROWS];
    for (int k = 0; k < n; k++) {
        int c = cached_index(t, rows[k]);
        if (c >= 0 && t->cache[c].dirty) {
            if (t->chain_open[s] && !dirty[k]) store_cached(t, t->cache[c]);
            else dirty[k] = true;
        }
        if (c < 0) {
            if (narrow[k]) in[k] = load_low(t, rows[k]);
            else {
                in[k] = load(t, t->v64, row_ptr(t, rows[k]));
                LLVMSetAlignment(in[k], 8);
            }
            continue;
        }
        /* made here, not kept: the other ways out of the segment are not dominated by it */
        cache_entry e = t->cache[c];
        assert(!e.pred);
        LLVMValueRef low = entry_low(t, &e, false);
        if (narrow[k]) in[k] = low ? low : LLVMBuildTrunc(b, e.v, t->v32, "");
        else in[k] = e.v ? e.v : LLVMBuildZExt(b, low, t->v64, "");
    }
    LLVMBasicBlockRef from = LLVMGetInsertBlock(b);
    for (int k = 0; k < n; k++) LLVMAddIncoming(phi[k], &in[k], &from, 1);
    LLVMBuildBr(b, t->bb[s]);
}

/* Goes on at the start of block s from the end of the current segment (its count counted):
 * chained where s is a chain head, else through the dispatch block with the rows live at s
 * stored. */
static void edge_to(tr *t, uint32_t s)
{
    if (s < t->n && t->chain_head[s]) {
        chain_edge(t, s, true);
        return;
    }
    flush_rows(t, s, false);
    goto_block(t, s);
}

/* The back edge of a loop segment: a uniform taken branch goes to the head with the carried
 * rows as the phis' incoming values when the dispatch block would go on there; else the
 * rows live there are stored and the run goes through the dispatch block (which returns).
 * Leaving the loop stores the rows live after it; divergence goes through the handler. */
static void emit_back_edge(tr *t, uint32_t i, const emu_uop *u, LLVMValueRef mask)
{
    LLVMBuilderRef b = t->b;
    uint32_t head = t->loop_head;
    LLVMBasicBlockRef fall, split;
    branch_ways(t, mask, "back", &fall, &split);
    LLVMValueRef carried[JIT_LOOP_ROWS], alt[JIT_LOOP_ROWS], flag[JIT_LOOP_ROWS];
    for (uint32_t k = 0; k < t->nloop; k++) {
        int c = cached_index(t, t->loop_row[k]);
        if (t->loop_pred[k]) {
            carried[k] = c >= 0 ? t->cache[c].v : load(t, t->i64, row_ptr(t, t->loop_row[k]));
            continue;
        }
        if (t->loop_raw[k]) {
            /* an f with its alt and flag, else the row's bits as alt (flag true) and f */
            if (c >= 0 && t->cache[c].f && !t->cache[c].low) {
                carried[k] = t->cache[c].f;
                alt[k] = t->cache[c].alt ? t->cache[c].alt : LLVMGetPoison(t->v32);
                flag[k] = t->cache[c].flag ? t->cache[c].flag : LLVMConstInt(t->i1, 0, false);
                continue;
            }
            LLVMValueRef low = c >= 0 ? cached_low(t, c, true) : NULL;
            if (!low) low = c >= 0 ? LLVMBuildTrunc(b, t->cache[c].v, t->v32, "") : load_low(t, t->loop_row[k]);
            carried[k] = c >= 0 && t->cache[c].f ? t->cache[c].f : LLVMBuildBitCast(b, low, t->vf, "");
            alt[k] = low;
            flag[k] = LLVMConstInt(t->i1, 1, false);
            continue;
        }
        LLVMValueRef low = c >= 0 && t->loop_narrow[k] ? cached_low(t, c, true) : NULL;
        if (low) {
            carried[k] = low;
            continue;
        }
        if (c >= 0) carried[k] = cached_v(t, c, true);
        else {
            carried[k] = load(t, t->v64, row_ptr(t, t->loop_row[k]));
            LLVMSetAlignment(carried[k], 8);
        }
        if (t->loop_narrow[k]) carried[k] = LLVMBuildTrunc(b, carried[k], t->v32, "");
    }
    /* came round without a side entry since the last check: only the budget can have changed
     * (the SIMT top's pc is still the head, as that check left it) */
    LLVMBasicBlockRef again = block(t, "again"), leave = block(t, "leave");
    LLVMBasicBlockRef quick = block(t, "again.quick"), full = block(t, "again.check");
    LLVMBasicBlockRef setpc = block(t, "again.pc");
    LLVMBuildCondBr(b, load(t, t->i1, t->loop_ok_slot), quick, full);
    LLVMPositionBuilderAtEnd(b, quick);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, count(t), t->budget, ""), again, leave);
    LLVMPositionBuilderAtEnd(b, full);
    LLVMValueRef top;
    LLVMValueRef ok = dispatch_ok(t, ci32(t, head), &top);
    LLVMBuildCondBr(b, ok, setpc, leave);
    LLVMPositionBuilderAtEnd(b, setpc);
    /* the SIMT top's pc as the dispatch block leaves it (a fault's warp state) */
    LLVMBuildStore(b, ci32(t, head), field(t, top, offsetof(emu_simt, pc)));
    LLVMBuildBr(b, again);
    LLVMPositionBuilderAtEnd(b, again);
    LLVMBuildStore(b, LLVMConstInt(t->i1, 1, false), t->loop_ok_slot);
    for (uint32_t k = 0; k < t->nloop; k++) {
        LLVMAddIncoming(t->loop_phi[k], &carried[k], &again, 1);
        if (!t->loop_raw[k]) continue;
        LLVMAddIncoming(t->loop_alt[k], &alt[k], &again, 1);
        LLVMAddIncoming(t->loop_flag[k], &flag[k], &again, 1);
    }
    LLVMBuildBr(b, t->bb[head]);
    LLVMPositionBuilderAtEnd(b, leave);
    flush_rows(t, head, false);
    goto_dispatch(t, ci32(t, head));
    LLVMPositionBuilderAtEnd(b, fall);
    count_one(t);
    edge_to(t, i + 1);
    LLVMPositionBuilderAtEnd(b, split);
    emit_call(t, i, u, mask);
}

/* A branch's divergence (some active lanes take it), the builder in its split block: what
 * x_bra's branch() does, inline in the plain variant: the top's pc becomes the reconvergence
 * point, the path of the lanes that fall through is pushed and then the taken path's (that
 * order: the taken lanes run first), and the run goes on through the resume, whose pop
 * (emit_resume_pop) takes the taken path at once where it is at its reconvergence point (a
 * forward branch around an if's body: bitonic's exchange) -- no handler call, no
 * emu_simt_push, no emu_jit_resume. A branch here is never a spin back edge's (no translation)
 * and mask is neither none nor all of the lanes, so x_bra would do no more than that. The rows
 * live at the branch are stored as for the handler, whose call stays where the stack has no
 * room for two more entries (emu_simt_push grows it) and in the event variant (the event). */
static void emit_split(tr *t, uint32_t i, const emu_uop *u, LLVMValueRef mask)
{
    if (t->events) {
        emit_call(t, i, u, mask);
        return;
    }
    LLVMBuilderRef b = t->b;
    flush_rows(t, i, true);
    uint64_t target = (uint32_t)branch_target(u);
    uint64_t rpc = u->in->reconv >= 0 ? (uint32_t)u->in->reconv : t->n;
    LLVMValueRef sp = load(t, t->i32, warp_field(t, offsetof(emu_warp, sp)));
    LLVMValueRef cap = load(t, t->i32, warp_field(t, offsetof(emu_warp, stack_cap)));
    LLVMValueRef room = LLVMBuildICmp(b, LLVMIntULE, LLVMBuildAdd(b, LLVMBuildZExt(b, sp, t->i64, ""), ci64(t, 2), ""),
                                      LLVMBuildZExt(b, cap, t->i64, ""), "");
    LLVMBasicBlockRef push = block(t, "split.push"), call = block(t, "split.call");
    LLVMBuildCondBr(b, room, push, call);
    LLVMPositionBuilderAtEnd(b, call);
    emit_call_stored(t, i, u, mask);
    LLVMPositionBuilderAtEnd(b, push);
    _Static_assert(sizeof(emu_simt) == 16 && offsetof(emu_simt, rpc) == 4 && offsetof(emu_simt, mask) == 8 &&
                   offsetof(emu_simt, bar) == 12 && offsetof(emu_simt, kind) == 14 && EMU_SIMT_NORMAL == 0,
                   "a SIMT entry as two words: pc | rpc << 32, mask (bar, kind 0)");
    LLVMValueRef stack = load(t, t->ptr, warp_field(t, offsetof(emu_warp, stack)));
    LLVMValueRef ti = LLVMBuildZExt(b, LLVMBuildSub(b, sp, ci32(t, 1), ""), t->i64, "");
    LLVMValueRef top = LLVMBuildGEP2(b, t->i8, stack,
                                     (LLVMValueRef[]){LLVMBuildMul(b, ti, ci64(t, sizeof(emu_simt)), "")}, 1, "");
    LLVMBuildStore(b, ci32(t, rpc), field(t, top, offsetof(emu_simt, pc)));
    LLVMValueRef fall = LLVMBuildAnd(b, t->active, LLVMBuildNot(b, mask, ""), "");
    LLVMBuildStore(b, ci64(t, (rpc << 32) | (i + 1)), field(t, top, sizeof(emu_simt)));
    LLVMBuildStore(b, LLVMBuildZExt(b, fall, t->i64, ""), field(t, top, sizeof(emu_simt) + 8));
    if (target == rpc && i + 1 != rpc && i + 1 < t->n) {
        /* the taken path is at its reconvergence point (an if without else): settle pops it
         * at once and stops at the fall-through path, which runs (lanes, no barrier, its pc
         * not its rpc: emit_resume_pop's test, known here), so the run goes on there directly
         * while budget is left; the taken entry above the top is never read */
        LLVMValueRef sp1 = LLVMBuildAdd(b, sp, ci32(t, 1), "");
        LLVMBuildStore(b, sp1, warp_field(t, offsetof(emu_warp, sp)));
        LLVMBuildStore(b, fall, ctx_field(t, offsetof(emu_ctx, active)));
        LLVMSetVolatile(LLVMBuildStore(b, sp1, t->sp_slot), true);
        count_one(t);
        if (i + 1 < t->n && t->chain_head[i + 1]) {
            /* the rows go on in registers as the head's phis, as the way none take does:
             * right in the fall-through lanes, which the head's segment writes (it reads
             * its lanes from the context); the taken lanes' rows are in memory (stored
             * above). The head checks the budget itself, and the stack is as the dispatch
             * would want it. */
            chain_edge(t, i + 1, false);
            return;
        }
        LLVMBuildStore(b, ci32(t, i + 1), t->npc_slot);
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, count(t), t->budget, ""), t->entry[i + 1], t->ret);
        return;
    }
    LLVMBuildStore(b, ci64(t, (rpc << 32) | target), field(t, top, 2 * sizeof(emu_simt)));
    LLVMBuildStore(b, LLVMBuildZExt(b, mask, t->i64, ""), field(t, top, 2 * sizeof(emu_simt) + 8));
    LLVMBuildStore(b, LLVMBuildAdd(b, sp, ci32(t, 2), ""), warp_field(t, offsetof(emu_warp, sp)));
    count_one(t);
    LLVMBuildBr(b, t->resume);
}

/* A branch: uniform outcomes in compiled code, divergence inline (emit_split). */
static void emit_branch(tr *t, uint32_t i, const emu_uop *u, LLVMValueRef mask)
{
    LLVMBuilderRef b = t->b;
    uint32_t target = (uint32_t)branch_target(u);
    if (t->loop_head != NO_LOOP && target == t->loop_head && i == t->seg_last) {
        emit_back_edge(t, i, u, mask);
        return;
    }
    if (t->chain) {
        /* each uniform way stores what it needs where it does not chain (edge_to); the
         * divergent one's handler call stores the rows live at the branch */
        LLVMBasicBlockRef fall, split;
        branch_ways(t, mask, "taken", &fall, &split);
        edge_to(t, target);
        LLVMPositionBuilderAtEnd(b, fall);
        count_one(t);
        edge_to(t, i + 1);
        LLVMPositionBuilderAtEnd(b, split);
        emit_split(t, i, u, mask);
        return;
    }
    /* what either outcome may read; the divergent path's handler call stores the rest */
    for (uint32_t k = 0; k < t->ncache; k++)
        t->cache[k].dirty_live = t->cache[k].dirty && (row_live(t, target, t->cache[k].row) ||
                                                       row_live(t, i + 1, t->cache[k].row));
    flush_marked(t);
    LLVMBasicBlockRef fall, split;
    branch_ways(t, mask, "taken", &fall, &split);
    goto_block(t, target);
    LLVMPositionBuilderAtEnd(b, fall);
    count_one(t);
    goto_block(t, i + 1);
    LLVMPositionBuilderAtEnd(b, split);
    emit_split(t, i, u, mask);
}

/* Adds the register and predicate rows operand o names that are live at loop head h to rows,
 * once each; narrow[k]: every name of rows[k] so far is a register of at most 32 bits (whose
 * rows hold zero-extended values: emu_put masks them); pred[k]: rows[k] is a predicate's.
 * False when a row did not fit (JIT_LOOP_ROWS). */
static bool loop_rows_add(const tr *t, uint32_t h, const emu_opd *o, uint32_t *rows, bool *narrow,
                          bool *pred, uint32_t *n)
{
    uint32_t row;
    bool small;
    switch (o->kind) {
    case EMU_OPD_REG:
        if (o->bits == 128) return true;
        row = o->row;
        small = o->bits != 0 && o->bits <= 32;
        break;
    case EMU_OPD_PRED:
        row = o->row;
        small = false;
        break;
    case EMU_OPD_ADDR:
        if (!(o->flags & EMU_OPD_F_BASE_REG)) return true;
        row = o->row;
        small = false;
        break;
    case EMU_OPD_VEC:
    case EMU_OPD_LIST: {
        bool fits = true;
        for (uint64_t k = 0; k < o->imm; k++)
            fits &= loop_rows_add(t, h, &t->code->pool[o->row + k], rows, narrow, pred, n);
        return fits;
    }
    default:
        return true;
    }
    if (!row_live(t, h, row)) return true;
    for (uint32_t k = 0; k < *n; k++)
        if (rows[k] == row) {
            narrow[k] = narrow[k] && small;
            return pred[k] == (o->kind == EMU_OPD_PRED);
        }
    if (*n == JIT_LOOP_ROWS) return false;
    narrow[*n] = small;
    pred[*n] = o->kind == EMU_OPD_PRED;
    rows[(*n)++] = row;
    return true;
}

/* The rows live at loop head h that µops h .. end - 1 read or write, guards included
 * (loop_rows_add); false when they are more than a loop segment carries. */
static bool loop_rows(const tr *t, uint32_t h, uint32_t end, uint32_t *rows, bool *narrow,
                      bool *pred, uint32_t *n)
{
    bool fits = true;
    *n = 0;
    for (uint32_t i = h; i < end; i++) {
        const emu_uop *u = &t->code->uops[i];
        if (u->guard_row != EMU_NO_GUARD) {
            emu_opd g = {.kind = EMU_OPD_PRED, .row = u->guard_row};
            fits &= loop_rows_add(t, h, &g, rows, narrow, pred, n);
        }
        for (unsigned k = 0; k < u->nopd; k++)
            fits &= loop_rows_add(t, h, emu_uop_opd(u, k), rows, narrow, pred, n);
    }
    return fits;
}

/* Whether loop segment h's phi of row (a register of 32 bits) is better an f32 result's f
 * than its bits: the loop's last write of it is an f32 µop the segment translates (put_f32,
 * or a mov that may copy an f). Either is right: a phi of f is given the row's canonical bits
 * where the back edge has no f (emit_back_edge), which are as good an f. */
static bool loop_row_raw(const tr *t, uint32_t h, uint32_t row)
{
    const emu_uop *last = NULL;
    for (uint32_t i = h; i <= t->seg_last; i++) {
        const emu_uop *u = &t->code->uops[i];
        if (u->nopd > 0 && u->opd[0].kind == EMU_OPD_REG && u->opd[0].row == row && u->op != PTX_OP_ST)
            last = u;
    }
    return last && last->type == PTX_TYPE_F32 && translates(t, last) && last->op != PTX_OP_ABS &&
           last->op != PTX_OP_NEG;
}

/* Whether a µop of loop segment h may write row: a translated µop writes its destination's
 * rows only (liveness()'s model), a handler any operand's. A row the loop never writes holds
 * its value in memory on every way round (the head's phi joins that value with itself), so no
 * exit stores it. */
static bool loop_writes_row(const tr *t, uint32_t h, uint32_t row)
{
    for (uint32_t i = h; i <= t->seg_last; i++) {
        const emu_uop *u = &t->code->uops[i];
        if (!translates(t, u) ? opds_name_row(t, u, row)
                              : u->nopd > 0 && u->op != PTX_OP_ST && u->op != PTX_OP_BRA &&
                                    opd_names_row(t, &u->opd[0], row))
            return true;
    }
    return false;
}

/* The head of loop segment h: a phi per row live there that the loop reads or writes, its
 * side entry's incoming value loaded (the back edge adds the other: emit_back_edge); a
 * register of at most 32 bits goes round as its 32-bit halves (the row is their zero
 * extension), so no iteration converts it. The rows the loop writes count as dirty: the
 * back edge's values may not be stored (loop_writes_row). */
static void open_loop(tr *t, uint32_t h)
{
    LLVMBuilderRef b = t->b;
    uint32_t rows[JIT_LOOP_ROWS], n;
    bool narrow[JIT_LOOP_ROWS], pred[JIT_LOOP_ROWS];
    bool fits = loop_rows(t, h, t->seg_last + 1, rows, narrow, pred, &n);
    assert(fits);   /* loop_segment() checked it */
    (void)fits;
    t->loop_head = h;
    t->nloop = 0;
    t->counts->loops++;
    LLVMValueRef v[JIT_LOOP_ROWS];
    for (uint32_t k = 0; k < n; k++) {
        if (!row_live(t, h, rows[k])) continue;
        uint32_t j = t->nloop++;
        t->loop_row[j] = rows[k];
        t->loop_narrow[j] = narrow[k];
        t->loop_pred[j] = pred[k];
        t->loop_raw[j] = narrow[k] && loop_row_raw(t, h, rows[k]);
        LLVMPositionBuilderAtEnd(b, t->bb[h]);
        t->loop_phi[j] = LLVMBuildPhi(b, pred[k] ? t->i64 : t->loop_raw[j] ? t->vf : narrow[k] ? t->v32 : t->v64, "");
        LLVMPositionBuilderAtEnd(b, t->side[h]);
        LLVMValueRef in = load(t, pred[k] ? t->i64 : t->v64, row_ptr(t, rows[k]));
        LLVMSetAlignment(in, 8);
        if (narrow[k]) in = LLVMBuildTrunc(b, in, t->v32, "");
        if (t->loop_raw[j]) {
            /* from outside the loop: the row's bits, which need not be a canonical NaN's */
            LLVMValueRef yes = LLVMConstInt(t->i1, 1, false);
            LLVMPositionBuilderAtEnd(b, t->bb[h]);
            t->loop_alt[j] = LLVMBuildPhi(b, t->v32, "");
            t->loop_flag[j] = LLVMBuildPhi(b, t->i1, "");
            LLVMAddIncoming(t->loop_alt[j], &in, &t->side[h], 1);
            LLVMAddIncoming(t->loop_flag[j], &yes, &t->side[h], 1);
            LLVMPositionBuilderAtEnd(b, t->side[h]);
            in = LLVMBuildBitCast(b, in, t->vf, "");
        }
        LLVMAddIncoming(t->loop_phi[j], &in, &t->side[h], 1);
    }
    LLVMPositionBuilderAtEnd(b, t->side[h]);
    LLVMBuildStore(b, LLVMConstInt(t->i1, 0, false), t->loop_ok_slot);
    LLVMBuildBr(b, t->bb[h]);
    /* after the phis: the rows of the narrow ones (dead, so dropped, where nothing reads them
     * as 64 bits) */
    LLVMPositionBuilderAtEnd(b, t->bb[h]);
    for (uint32_t j = 0; j < t->nloop; j++) {
        if (t->loop_raw[j]) {
            cache_row_raw(t, t->loop_row[j], t->loop_phi[j]);
            int c = cached_index(t, t->loop_row[j]);
            t->cache[c].alt = t->loop_alt[j];
            t->cache[c].flag = t->loop_flag[j];
            t->cache[c].dirty = true;
            continue;
        }
        v[j] = t->loop_narrow[j] ? LLVMBuildZExt(b, t->loop_phi[j], t->v64, "") : t->loop_phi[j];
        cache_row_low(t, t->loop_row[j], v[j], t->loop_narrow[j] ? t->loop_phi[j] : NULL);
        int c = cached_index(t, t->loop_row[j]);
        t->cache[c].dirty = loop_writes_row(t, h, t->loop_row[j]);
        t->cache[c].pred = t->loop_pred[j];
    }
}

/* ex2.approx.f32 (ex2_f32) or lg2.approx.f32 (lg2_f32) for the lanes of mask, to slow (the
 * handler) when one is hard;
 * the event variant writes the event on the compiled path (the handler writes its own) */
static void emit_ex2(tr *t, uint32_t i, const emu_uop *u, LLVMValueRef mask, LLVMBasicBlockRef slow)
{
    LLVMBuilderRef b = t->b;
    bool ftz = u->in->flags & PTX_F(FTZ);
    LLVMValueRef hard, x = f32_in(t, &u->opd[1], ftz);
    LLVMValueRef r = u->op == PTX_OP_LG2 ? lg2_f32(t, x, &hard) : ex2_f32(t, x, &hard);
    LLVMValueRef any = LLVMBuildAnd(b, LLVMBuildBitCast(b, hard, t->i32, ""), mask, "");
    LLVMBasicBlockRef fast = block(t, "ex2.fast");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, any, ci32(t, 0), ""), slow, fast);
    LLVMPositionBuilderAtEnd(b, fast);
    if (t->events) {
        emit_event(t, i, mask);
    }
    put_f32(t, &u->opd[0], mask, r, ftz, false);
}

/* Whether the rows operand o names (opd_rows: a vector's elements, an address's base, both
 * rows of a 128-bit register) include row; true when o names rows out of the usual layout. */
static bool opd_names_row(const tr *t, const emu_opd *o, uint32_t row)
{
    switch (o->kind) {
    case EMU_OPD_REG:
    case EMU_OPD_PRED:
        if (o->row % EMU_WARP_SIZE) return true;
        return row == o->row || (o->kind == EMU_OPD_REG && o->bits == 128 && row == o->row + EMU_WARP_SIZE);
    case EMU_OPD_ADDR:
        return (o->flags & EMU_OPD_F_BASE_REG) && (o->row % EMU_WARP_SIZE || row == o->row);
    case EMU_OPD_VEC:
    case EMU_OPD_LIST:
        for (uint64_t k = 0; k < o->imm; k++)
            if (opd_names_row(t, &t->code->pool[o->row + k], row)) return true;
        return false;
    default:
        return false;
    }
}

static bool opds_name_row(const tr *t, const emu_uop *u, uint32_t row)
{
    for (unsigned k = 0; k < u->nopd; k++)
        if (opd_names_row(t, emu_uop_opd(u, k), row)) return true;
    return false;
}

/* Whether the segment of µops first .. end - 1 checks its budget once, where a run comes in,
 * rather than before every µop: a run comes into it only when the budget covers the rest of
 * the segment, else it ends there with EMU_JIT_INTERPRET (at the segment's first µop, or at
 * the entry: entry_check) and the executor loop interprets the segment up to the budget
 * (interp/run.c; the next run starts inside the block, where the code may have no entry:
 * run_entry). Only in a barrier-bound function (run_entry), whose runs rarely end at the
 * budget, and for a segment shorter than JIT_STRETCH_SEGMENT µops (a longer one checks by
 * stretches: stretch_budget()) outside loops (where runs end in the middle at every turn):
 * what is interpreted when a run's budget ends there stays short. A µop's compare and branch
 * and its budget exit (which stores the rows dirty there) go: scan_block 23073 -> 21722 IR
 * instructions, 2348 -> 2062 blocks. */
static bool whole_budget(const tr *t, uint32_t first, uint32_t end)
{
    if (!t->barrier_bound || end - first >= JIT_STRETCH_SEGMENT) return false;
    for (uint32_t k = first; k < end; k++)
        if (t->looped[k]) return false;
    return true;
}

/* The switches' target for run entry i inside a segment checked whole: when the budget left
 * (budget - the count, in cnt_slot outside the segment's µops) does not cover µops i to the
 * segment's end, the run ends before i with EMU_JIT_INTERPRET (the interpreter's loop
 * runs on to the budget), else it goes on through side[i]. */
static LLVMBasicBlockRef entry_check(tr *t, uint32_t i)
{
    uint32_t first = i, end = i + 1;
    while (!t->seg_start[first]) first--;
    while (end < t->n && !t->seg_start[end]) end++;
    if (!whole_budget(t, first, end)) return t->side[i];
    LLVMBuilderRef b = t->b;
    LLVMBasicBlockRef check = block(t, "entry.budget"), out = block(t, "entry.out");
    LLVMPositionBuilderAtEnd(b, check);
    LLVMValueRef left = LLVMBuildSub(b, t->budget, load(t, t->i64, t->cnt_slot), "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, left, ci64(t, end - i), ""), out, t->side[i]);
    LLVMPositionBuilderAtEnd(b, out);
    LLVMBuildStore(b, ci32(t, i), t->npc_slot);
    LLVMBuildStore(b, ci32(t, end), ctx_field(t, offsetof(emu_ctx, next_pc)));
    LLVMBuildBr(b, t->interp);
    return check;
}

/* Whether the return from handler µop i may keep the cached rows it cannot have written: a
 * handler writes the rows of its own operands only, unless it moves control (a call, a
 * return: those go through the dispatch block) or its function reads other lanes' registers
 * (liveness() gave up: t->live NULL); the run goes on at µop i + 1 of the same segment. */
static bool handler_keeps_cache(const tr *t, uint32_t i, const emu_uop *u)
{
    return t->live && !(u->flags & EMU_UOP_CONTROL) && !reads_other_lanes(u->op) &&
           i + 1 < u->block_end && i + 1 < t->n && !t->seg_start[i + 1];
}

static void emit_fast_loop(tr *t, uint32_t h);

static void emit_uop(tr *t, uint32_t i)
{
    const emu_uop *u = &t->code->uops[i];
    LLVMBuilderRef b = t->b;
    /* a loop segment's fast copy first, then its checked copy, an ordinary segment */
    bool fast_copy = t->loop_seg[i] && !t->events;
    if (fast_copy && !t->fast) emit_fast_loop(t, i);
    t->in_seg = true;
    if (t->seg_start[i]) t->seg_first = i;
    t->seg_k = i - t->seg_first;
    if (t->seg_start[i]) {
        t->ncache = 0;
        t->nshape = 0;
        t->seg_last = i;
        while (t->seg_last + 1 < t->n && !t->seg_start[t->seg_last + 1]) t->seg_last++;
        t->seg_whole = whole_budget(t, i, t->seg_last + 1);
        t->loop_head = NO_LOOP;
        t->stretch = stretch_budget(t, i);
        if (t->loop_seg[i] && (!fast_copy || t->fast)) open_loop(t, i);
        if (t->chain_head[i]) open_chain(t, i);
    } else {
        /* a row no path from here reads before writing it leaves the cache: its side entry
         * would load it for nothing (a dirty one holds a value nobody reads) */
        for (uint32_t k = 0; k < t->ncache;)
            if (row_live(t, i, t->cache[k].row)) k++;
            else t->cache[k] = t->cache[--t->ncache];
    }
    /* without a side entry the µop before falls into it, the only way in */
    assert(t->seg_start[i] || t->side[i] || t->fall);
    if (!t->seg_start[i] && t->side[i] && !t->fast) {
        LLVMPositionBuilderAtEnd(b, t->bb[i]);
        LLVMValueRef phis[sizeof t->cache / sizeof t->cache[0]][5];
        /* the warp's active lanes, read where a run comes in (only handlers, branches and the
         * dispatch change them, and those come back through a side entry): not reloaded per
         * µop, where a row store in between could alias it */
        LLVMValueRef active = LLVMBuildPhi(b, t->i32, "active");
        if (t->fall) LLVMAddIncoming(active, &t->active, &t->fall, 1);
        /* fall: NULL after a handler µop, whose return goes through side[i] */
        /* an f32 result cached with its f has a phi of it (the side entry's: the row's
         * canonical bits, as good an f), and of its halves and row where it has those yet */
        for (uint32_t k = 0; k < t->ncache; k++) {
            phis[k][0] = t->cache[k].v ? LLVMBuildPhi(b, t->cache[k].pred ? t->i64 : t->v64, "") : NULL;
            if (phis[k][0] && t->fall) LLVMAddIncoming(phis[k][0], &t->cache[k].v, &t->fall, 1);
            phis[k][1] = t->cache[k].low ? LLVMBuildPhi(b, t->v32, "") : NULL;
            if (phis[k][1] && t->fall) LLVMAddIncoming(phis[k][1], &t->cache[k].low, &t->fall, 1);
            phis[k][2] = t->cache[k].f ? LLVMBuildPhi(b, t->vf, "") : NULL;
            if (phis[k][2] && t->fall) LLVMAddIncoming(phis[k][2], &t->cache[k].f, &t->fall, 1);
            /* without halves: the side entry's bits as alt, flag true there */
            bool alt = t->cache[k].f && !t->cache[k].low;
            phis[k][3] = alt ? LLVMBuildPhi(b, t->v32, "") : NULL;
            phis[k][4] = alt ? LLVMBuildPhi(b, t->i1, "") : NULL;
            if (alt && t->fall) {
                LLVMValueRef a = t->cache[k].alt ? t->cache[k].alt : LLVMGetPoison(t->v32);
                LLVMValueRef fl = t->cache[k].flag ? t->cache[k].flag : LLVMConstInt(t->i1, 0, false);
                LLVMAddIncoming(phis[k][3], &a, &t->fall, 1);
                LLVMAddIncoming(phis[k][4], &fl, &t->fall, 1);
            }
        }
        shape_join(t);
        LLVMPositionBuilderAtEnd(b, t->side[i]);
        /* a run that comes in inside a stretch has the budget of the stretch's rest */
        if (stretch_budget(t, i) && !stretch_start(t, i)) {
            enter_count(t);
            check_stretch(t, i, false);
        }
        LLVMBasicBlockRef in_bb = LLVMGetInsertBlock(b);
        shape_join_side(t, in_bb);
        for (uint32_t k = 0; k < t->ncache; k++) {
            if (phis[k][0]) {
                LLVMValueRef v = load(t, t->cache[k].pred ? t->i64 : t->v64, row_ptr(t, t->cache[k].row));
                LLVMSetAlignment(v, 8);
                LLVMAddIncoming(phis[k][0], &v, &in_bb, 1);
                t->cache[k].v = phis[k][0];
            }
            LLVMValueRef low = NULL;
            if (phis[k][1] || phis[k][2] || phis[k][3])
                /* loaded as halves (load_low): the 64-bit load goes where only they are read */
                low = load_low(t, t->cache[k].row);
            if (phis[k][1]) {
                LLVMAddIncoming(phis[k][1], &low, &in_bb, 1);
                t->cache[k].low = phis[k][1];
            }
            if (phis[k][2]) {
                LLVMValueRef f = LLVMBuildBitCast(b, low, t->vf, "");
                LLVMAddIncoming(phis[k][2], &f, &in_bb, 1);
                t->cache[k].f = phis[k][2];
            }
            if (phis[k][3]) {
                LLVMValueRef yes = LLVMConstInt(t->i1, 1, false);
                LLVMAddIncoming(phis[k][3], &low, &in_bb, 1);
                LLVMAddIncoming(phis[k][4], &yes, &in_bb, 1);
                t->cache[k].alt = phis[k][3];
                t->cache[k].flag = phis[k][4];
            }
        }
        LLVMValueRef side_active = load(t, t->i32, ctx_field(t, offsetof(emu_ctx, active)));
        LLVMAddIncoming(active, &side_active, &in_bb, 1);
        t->active = active;
        enter_count(t);
        if (t->loop_head != NO_LOOP) LLVMBuildStore(b, LLVMConstInt(t->i1, 0, false), t->loop_ok_slot);
        LLVMBuildBr(b, t->bb[i]);
    }
    t->fall = NULL;
    LLVMPositionBuilderAtEnd(b, t->bb[i]);
    if (t->seg_start[i]) enter_count(t);
    if (t->seg_start[i]) t->active = load(t, t->i32, ctx_field(t, offsetof(emu_ctx, active)));
    if (u->flags & EMU_UOP_REGION_BOUNDARY) {
        /* an idempotent region starts (iGPU): the run ends before it, and the interpreter,
         * which tells the memory policy, runs its block (interp/run.c), from the rows
         * live at it */
        flush_rows(t, i, false);
        sync_count(t);
        LLVMBuildStore(b, ci32(t, i), t->npc_slot);
        LLVMBuildBr(b, t->exit_pc);
        return;
    }
    if (stretch_budget(t, i)) {
        if (stretch_start(t, i)) check_stretch(t, i, true);
        goto checked;
    }
    /* the budget: the interpreter's loop ends before this µop (count >= budget); a segment
     * checked whole runs only when all of it fits, checked at its first µop (and where a run
     * comes in elsewhere: entry_check), else the interpreter's loop runs it to the budget */
    if (t->seg_whole && !t->seg_start[i]) goto checked;
    if (t->fast) {
        /* the fast copy's head: on while the budget left covers the whole iteration (the
         * interpreter's loop runs µop k of it while k < left), else the rows go to memory and
         * the checked copy runs the iteration to the budget */
        if (!t->seg_start[i]) goto checked;
        LLVMBasicBlockRef body = block(t, "fast"), out = block(t, "fast.out");
        LLVMValueRef short_ = LLVMBuildICmp(b, LLVMIntUGT, ci64(t, t->seg_last + 1 - i),
                                            load(t, t->i64, t->left_slot), "");
        LLVMBuildCondBr(b, short_, out, body);
        LLVMPositionBuilderAtEnd(b, out);
        flush_rows(t, i, false);
        sync_count(t);
        LLVMBuildBr(b, t->checked_head);
        LLVMPositionBuilderAtEnd(b, body);
        goto checked;
    }
    LLVMBasicBlockRef body = block(t, "body"), out = block(t, "budget");
    LLVMValueRef spent =
        t->seg_whole ? LLVMBuildICmp(b, LLVMIntUGT, ci64(t, t->seg_last + 1 - i),
                                     load(t, t->i64, t->left_slot), "")
                     : LLVMBuildICmp(b, LLVMIntUGE, ci64(t, t->seg_k), load(t, t->i64, t->left_slot), "");
    LLVMBuildCondBr(b, spent, out, body);
    LLVMPositionBuilderAtEnd(b, out);
    flush_rows(t, i, false);
    sync_count(t);
    LLVMBuildStore(b, ci32(t, i), t->npc_slot);
    if (t->seg_whole) {
        LLVMBuildStore(b, ci32(t, t->seg_last + 1), ctx_field(t, offsetof(emu_ctx, next_pc)));
        LLVMBuildBr(b, t->interp);
    } else {
        LLVMBuildBr(b, t->exit_pc);
    }
    LLVMPositionBuilderAtEnd(b, body);
checked:
    if (t->events) emit_ahead_stop(t, i, u);
    LLVMValueRef mask = t->active;
    if (u->guard_row != EMU_NO_GUARD) {
        LLVMValueRef g = LLVMBuildTrunc(b, pred_word(t, u->guard_row), t->i32, "");
        mask = LLVMBuildAnd(b, mask, LLVMBuildXor(b, g, ci32(t, u->guard_xor), ""), "");
    }
    if (!translates(t, u)) {
        t->nshape = 0;
        if (!t->fast) t->counts->called++;
        t->keep_cache = handler_keeps_cache(t, i, u);
        if (!t->events && emu_bar_sync_imm_selected(u)) emit_bar_sync(t, i, u, mask);
        else emit_call(t, i, u, mask);
        t->keep_cache = false;
        return;
    }
    if (!t->fast) t->counts->native++;
    if (u->op == PTX_OP_BRA) {
        t->nshape = 0;
        emit_branch(t, i, u, mask);
        return;
    }
    if (u->op == PTX_OP_LD || u->op == PTX_OP_ST || u->op == PTX_OP_EX2 || u->op == PTX_OP_LG2) {
        LLVMBasicBlockRef slow = block(t, "mem.slow");
        /* the slow path stores the rows dirty before the access and live at it (their
         * values dominate it); the fast path keeps them dirty */
        uint32_t nbefore = t->ncache;
        bool was_dirty[sizeof t->cache / sizeof t->cache[0]];
        cache_entry before[sizeof t->cache / sizeof t->cache[0]];
        for (uint32_t k = 0; k < nbefore; k++) {
            was_dirty[k] = t->cache[k].dirty;
            before[k] = t->cache[k];
        }
        LLVMBasicBlockRef resumed = slow_rejoins(u) ? block(t, "mem.resumed") : NULL;
        if (u->op == PTX_OP_EX2 || u->op == PTX_OP_LG2) emit_ex2(t, i, u, mask, slow);
        else if (u->in->space == PTX_SPACE_PARAM) emit_param(t, i, u, mask, slow);
        else emit_mem(t, i, u, mask, slow, resumed);
        if (u->op == PTX_OP_LD) shape_forget(t, &u->opd[0]);
        else if (u->op != PTX_OP_ST) shape_forget_uop(t, u);
        LLVMBasicBlockRef here = LLVMGetInsertBlock(b);
        LLVMPositionBuilderAtEnd(b, slow);
        for (uint32_t k = 0; k < nbefore; k++) {
            if (!was_dirty[k] || !row_live(t, i, before[k].row)) continue;
            store_cached(t, before[k]);
        }
        if (resumed && slow_ends_run(t, u)) {
            sync_count(t);
            LLVMBuildStore(b, ci32(t, i), t->npc_slot);
            LLVMBuildStore(b, ci32(t, t->next_entry[i + 1]), ctx_field(t, offsetof(emu_ctx, next_pc)));
            LLVMBuildBr(b, t->interp);
        } else if (resumed) {
            emit_slow_access(t, i, mask, resumed);
        } else {
            emit_call_stored(t, i, u, mask);
        }
        LLVMPositionBuilderAtEnd(b, here);
    } else {
        if (t->events) {
            emit_event(t, i, mask);
        }
        emit_native(t, u, mask);
        shape_forget_uop(t, u);
    }
    bool ends = i + 1 >= u->block_end || (i + 1 < t->n && t->seg_start[i + 1]);
    /* within the segment the next µop's place counts this one; leaving it, the count is made */
    bool chained = i + 1 < t->n && t->chain_head[i + 1];
    if (ends) count_one(t);
    if (ends && !chained) flush_rows(t, i + 1, true);
    t->fall = LLVMGetInsertBlock(b);
    if (chained) chain_edge(t, i + 1, i + 1 >= u->block_end);
    else if (i + 1 < u->block_end) LLVMBuildBr(b, t->bb[i + 1]);
    else goto_block(t, i + 1);
}

/* The fast copy of loop segment h (see tr.fast): its µops in fast_bb, the head's phis and side
 * entry as open_loop makes them; the checked copy's first block (bb[h]) is then emitted by the
 * caller. Only the head is entered from outside (side[h]: the switches' entry); the µops inside
 * are reached only by falling from the one before, so they need no phis; where a handler or a
 * slow path returns, the run goes on in the checked copy (side[i + 1]), which the back edge
 * leaves through the dispatch block for the head again. */
static void emit_fast_loop(tr *t, uint32_t h)
{
    uint32_t e = seg_last_of(t, h) + 1;
    LLVMBasicBlockRef *checked = t->bb;
    for (uint32_t k = h; k < e; k++) t->fast_bb[k] = block(t, "fast.uop");
    t->checked_head = checked[h];
    t->bb = t->fast_bb;
    t->fast = true;
    for (uint32_t k = h; k < e; k++) emit_uop(t, k);
    t->fast = false;
    t->bb = checked;
    t->fall = NULL;
}

/* Whether a run may stop at u and a later one start at it or after it with a function
 * barrier-bound: a barrier, a wait, a device call, not a memory access (whose stop, a
 * deferred access of a determinism policy, is rare enough there to leave to the interpreter:
 * an entry after each of scan_block's 78 accesses cost 150 entry checks and side entries,
 * 21722 -> 19312 IR instructions, 2062 -> 1798 blocks without them) */
static bool stops_between_runs(const emu_uop *u)
{
    return (u->flags & EMU_UOP_MAY_STOP) && !(u->flags & EMU_UOP_MEMORY);
}

/* Whether a run may start at µop i (the entry switch, and the dispatch's switch after a
 * resume, have a case for it). In a barrier-bound function (the plain variant of one with a
 * barrier: its warps' runs end at the barriers, a few µops apart in a scan or a sort, rarely
 * at the budget) runs start where the executor loop leaves a warp between runs: a block's or
 * segment's first µop, a stretch's first (stretch_budget()), a µop that may stop there
 * (stops_between_runs: it may run again) and the µop after it or after one that rewrites the
 * stack (a barrier's release, a call's return). A run that starts elsewhere (after a budget
 * exit inside a block) returns at once with EMU_JIT_INTERPRET (to_interp), and the executor
 * loop interprets on to the next run entry (interp/run.c): every other µop's side entry is
 * then reached only from its own function's handler and slow-path returns, or from nowhere, and LLVM drops it with its loads and phis (scan_block: 2483 -> 2348 blocks, code
 * generation 8% less). A µop in a loop keeps its entry (looped): a loop's turns end at any of
 * its µops, and interpreting the rest of the block at each made n-body 8192's kernel 1.5x
 * slower. Elsewhere every µop has its entry: without barriers every run ends at the budget
 * (Black-Scholes under --det=dab, turns of 100: 1.3x slower with the rest of each turn's
 * block interpreted), and the event variant's runs (a cycle model's run-ahead) stop before
 * any timed µop and come back there. */
static bool run_entry(const tr *t, uint32_t i)
{
    if (!t->barrier_bound || i == 0 || t->seg_start[i] || t->looped[i]) return true;
    if (stretch_budget(t, i) && stretch_start(t, i)) return true;
    const emu_uop *u = &t->code->uops[i], *p = u - 1;
    return (u->flags & EMU_UOP_BLOCK_START) || stops_between_runs(u) ||
           (p->flags & EMU_UOP_CONTROL) || stops_between_runs(p);
}

/* Whether the run may go on in compiled code at npc: while the outer loop would find the same
 * frame and SIMT entry with nothing to settle (settle() and the barrier test of
 * interp/run.c), and budget is left. *top_out: the SIMT top. */
static LLVMValueRef dispatch_ok(tr *t, LLVMValueRef npc, LLVMValueRef *top_out)
{
    LLVMBuilderRef b = t->b;
    LLVMValueRef top = top_entry(t);
    LLVMValueRef sp = load(t, t->i32, warp_field(t, offsetof(emu_warp, sp)));
    LLVMValueRef nf = load(t, t->i32, warp_field(t, offsetof(emu_warp, nframes)));
    LLVMValueRef tmask = load(t, t->i32, field(t, top, offsetof(emu_simt, mask)));
    LLVMValueRef bar = load(t, t->i16, field(t, top, offsetof(emu_simt, bar)));
    LLVMValueRef rpc = load(t, t->i32, field(t, top, offsetof(emu_simt, rpc)));
    LLVMValueRef sp_run = load(t, t->i32, t->sp_slot);
    LLVMSetVolatile(sp_run, true);
    LLVMValueRef same = LLVMBuildICmp(b, LLVMIntEQ, sp, sp_run, "");
    same = LLVMBuildAnd(b, same, LLVMBuildICmp(b, LLVMIntEQ, nf, t->nframes0, ""), "");
    LLVMValueRef active = load(t, t->i32, ctx_field(t, offsetof(emu_ctx, active)));
    same = LLVMBuildAnd(b, same, LLVMBuildICmp(b, LLVMIntEQ, tmask, active, ""), "");
    same = LLVMBuildAnd(b, same, LLVMBuildICmp(b, LLVMIntEQ, bar, LLVMConstInt(t->i16, 0, 0), ""), "");
    same = LLVMBuildAnd(b, same, LLVMBuildICmp(b, LLVMIntNE, npc, rpc, ""), "");
    same = LLVMBuildAnd(b, same, LLVMBuildICmp(b, LLVMIntULT, npc, ci32(t, t->n), ""), "");
    same = LLVMBuildAnd(b, same, LLVMBuildICmp(b, LLVMIntULT, count(t), t->budget, ""), "");
    *top_out = top;
    return same;
}

/* The resume's usual case without emu_jit_resume: the SIMT top is a path at its reconvergence
 * point (or without lanes) and the entry below it, of the same frame, a path that may run (no
 * barrier, lanes, not at its own reconvergence point, inside the function). settle() would pop
 * the top and stop there, and emu_jit_resume name that entry: the top is popped here and the
 * run goes on at that entry's pc with its lanes (go: the dispatch's switch). Anything else
 * (more to pop, a frame's last entry, lanes leaving, a barrier) goes to settle_bb, the call.
 * A divergent exchange (bitonic's sort: every warp at every stage) reconverges through here
 * twice per divergence, once for each path (emit_split). */
static void emit_resume_pop(tr *t, LLVMBasicBlockRef settle_bb, LLVMBasicBlockRef go)
{
    LLVMBuilderRef b = t->b;
    LLVMValueRef sp = load(t, t->i32, warp_field(t, offsetof(emu_warp, sp)));
    LLVMValueRef nf = load(t, t->i32, warp_field(t, offsetof(emu_warp, nframes)));
    LLVMValueRef frames = load(t, t->ptr, warp_field(t, offsetof(emu_warp, frames)));
    LLVMValueRef fi = LLVMBuildZExt(b, LLVMBuildSub(b, nf, ci32(t, 1), ""), t->i64, "");
    LLVMValueRef fr = LLVMBuildGEP2(b, t->i8, frames,
                                    (LLVMValueRef[]){LLVMBuildMul(b, fi, ci64(t, sizeof(emu_frame)), "")}, 1, "");
    LLVMValueRef base = load(t, t->i32, field(t, fr, offsetof(emu_frame, stack_base)));
    /* two entries of this frame at least: popping one leaves the frame (settle's frame
     * return) never; the frame is the run's (emu_jit_resume's test) */
    LLVMValueRef ok = LLVMBuildICmp(b, LLVMIntEQ, nf, t->nframes0, "");
    ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntUGT, LLVMBuildZExt(b, sp, t->i64, ""),
                                           LLVMBuildAdd(b, LLVMBuildZExt(b, base, t->i64, ""), ci64(t, 1), ""), ""), "");
    LLVMBasicBlockRef look = block(t, "resume.look"), pop = block(t, "resume.pop");
    LLVMBuildCondBr(b, ok, look, settle_bb);
    LLVMPositionBuilderAtEnd(b, look);
    LLVMValueRef stack = load(t, t->ptr, warp_field(t, offsetof(emu_warp, stack)));
    LLVMValueRef ti = LLVMBuildZExt(b, LLVMBuildSub(b, sp, ci32(t, 1), ""), t->i64, "");
    LLVMValueRef top = LLVMBuildGEP2(b, t->i8, stack,
                                     (LLVMValueRef[]){LLVMBuildMul(b, ti, ci64(t, sizeof(emu_simt)), "")}, 1, "");
    LLVMValueRef next = field(t, top, (size_t)0 - sizeof(emu_simt));
    LLVMValueRef tpc = load(t, t->i32, field(t, top, offsetof(emu_simt, pc)));
    LLVMValueRef trpc = load(t, t->i32, field(t, top, offsetof(emu_simt, rpc)));
    LLVMValueRef tmask = load(t, t->i32, field(t, top, offsetof(emu_simt, mask)));
    LLVMValueRef tbar = load(t, t->i16, field(t, top, offsetof(emu_simt, bar)));
    LLVMValueRef npc = load(t, t->i32, field(t, next, offsetof(emu_simt, pc)));
    LLVMValueRef nrpc = load(t, t->i32, field(t, next, offsetof(emu_simt, rpc)));
    LLVMValueRef nmask = load(t, t->i32, field(t, next, offsetof(emu_simt, mask)));
    LLVMValueRef nbar = load(t, t->i16, field(t, next, offsetof(emu_simt, bar)));
    LLVMValueRef zero16 = LLVMConstInt(t->i16, 0, false);
    /* settle pops the top: no barrier, and at its reconvergence point or without lanes */
    LLVMValueRef pops = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, tpc, trpc, ""),
                                    LLVMBuildICmp(b, LLVMIntEQ, tmask, ci32(t, 0), ""), "");
    pops = LLVMBuildAnd(b, pops, LLVMBuildICmp(b, LLVMIntEQ, tbar, zero16, ""), "");
    /* ... and stops at the next, which runs (dispatch_ok's conditions, the budget checked) */
    LLVMValueRef runs = LLVMBuildICmp(b, LLVMIntEQ, nbar, zero16, "");
    runs = LLVMBuildAnd(b, runs, LLVMBuildICmp(b, LLVMIntNE, nmask, ci32(t, 0), ""), "");
    runs = LLVMBuildAnd(b, runs, LLVMBuildICmp(b, LLVMIntNE, npc, nrpc, ""), "");
    runs = LLVMBuildAnd(b, runs, LLVMBuildICmp(b, LLVMIntULT, npc, ci32(t, t->n), ""), "");
    LLVMBuildCondBr(b, LLVMBuildAnd(b, pops, runs, ""), pop, settle_bb);
    LLVMPositionBuilderAtEnd(b, pop);
    LLVMValueRef sp1 = LLVMBuildSub(b, sp, ci32(t, 1), "");
    LLVMBuildStore(b, sp1, warp_field(t, offsetof(emu_warp, sp)));
    LLVMBuildStore(b, nmask, ctx_field(t, offsetof(emu_ctx, active)));
    LLVMBuildStore(b, npc, t->npc_slot);
    LLVMSetVolatile(LLVMBuildStore(b, sp1, t->sp_slot), true);
    LLVMBuildStore(b, load(t, t->ptr, ctx_field(t, offsetof(emu_ctx, regs))), t->regs_slot);
    LLVMBuildBr(b, go);
}

/* Where the run goes on at a block's start (dispatch_ok), through a switch on the pc. When the
 * SIMT entry changed (a divergent branch, a path at its reconvergence point, exited lanes) and
 * budget is left, emu_jit_resume settles the stack as the executor loop would and names the
 * path that loop would run next; the run goes on there, with that entry's lanes, when it is in
 * this function's frame, else returns (the loop then finds the stack as it would have). */
static void emit_dispatch(tr *t)
{
    LLVMBuilderRef b = t->b;
    LLVMPositionBuilderAtEnd(b, t->dispatch);
    LLVMValueRef npc = load(t, t->i32, t->npc_slot), top;
    LLVMValueRef same = dispatch_ok(t, npc, &top);
    LLVMBasicBlockRef go = block(t, "dispatch.go"), on = block(t, "resumed");
    LLVMBuildCondBr(b, same, go, t->resume);
    LLVMPositionBuilderAtEnd(b, t->resume);
    LLVMBasicBlockRef settle = block(t, "resume.settle"), quick = block(t, "resume.quick");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, count(t), t->budget, ""), quick, t->ret);
    LLVMPositionBuilderAtEnd(b, quick);
    emit_resume_pop(t, settle, go);
    LLVMPositionBuilderAtEnd(b, settle);
    store_ninstr(t);
    LLVMTypeRef args[3] = {t->ptr, t->ptr, t->i32};
    LLVMTypeRef fty = LLVMFunctionType(t->i32, args, 3, false);
    LLVMValueRef fn = LLVMGetNamedFunction(t->m, EMU_JIT_RESUME);
    if (!fn) fn = LLVMAddFunction(t->m, EMU_JIT_RESUME, fty);
    LLVMValueRef av[3] = {t->c, t->uops, t->nframes0};
    LLVMValueRef pc = LLVMBuildCall2(b, fty, fn, av, 3, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, pc, ci32(t, 0), ""), t->ret, on);
    LLVMPositionBuilderAtEnd(b, on);
    LLVMBuildStore(b, pc, t->npc_slot);
    LLVMSetVolatile(LLVMBuildStore(b, load(t, t->i32, warp_field(t, offsetof(emu_warp, sp))), t->sp_slot),
                    true);
    LLVMBuildStore(b, load(t, t->ptr, ctx_field(t, offsetof(emu_ctx, regs))), t->regs_slot);
    LLVMBuildBr(b, go);
    LLVMPositionBuilderAtEnd(b, go);
    LLVMValueRef sw = LLVMBuildSwitch(b, load(t, t->i32, t->npc_slot), t->ret, t->n);
    for (uint32_t i = 0; i < t->n; i++)
        if (t->code->uops[i].flags & EMU_UOP_BLOCK_START) LLVMAddCase(sw, ci32(t, i), t->entry[i]);
    /* the entry of a block that is not marked (a branch into the middle of one) */
    for (uint32_t i = 0; i < t->n; i++)
        if (!(t->code->uops[i].flags & EMU_UOP_BLOCK_START)) LLVMAddCase(sw, ci32(t, i), t->entry[i]);
}

/* ---------------------------------------------------------------- liveness of rows */

/* Adds the rows operand o names (a vector's elements, an address's base) to set, or returns
 * false when one is beyond nbits rows or not at a row boundary. */
static bool opd_rows(const tr *t, const emu_opd *o, uint64_t *set, uint32_t nbits)
{
    uint32_t row;
    switch (o->kind) {
    case EMU_OPD_REG:
    case EMU_OPD_PRED:
        row = o->row;
        break;
    case EMU_OPD_ADDR:
        if (!(o->flags & EMU_OPD_F_BASE_REG)) return true;
        row = o->row;
        break;
    case EMU_OPD_VEC:
    case EMU_OPD_LIST:
        for (uint64_t k = 0; k < o->imm; k++)
            if (!opd_rows(t, &t->code->pool[o->row + k], set, nbits)) return false;
        return true;
    default:
        return true;
    }
    unsigned rows = o->kind == EMU_OPD_REG && o->bits == 128 ? 2 : 1;
    for (unsigned r = 0; r < rows; r++) {
        uint32_t k = row / EMU_WARP_SIZE + r;
        if (row % EMU_WARP_SIZE || k >= nbits) return false;
        set[k / 64] |= UINT64_C(1) << (k % 64);
    }
    return true;
}

/* Operations that read other lanes' registers: a lane off the running path could be read, so
 * every row stays stored in a function that has one. */
static bool reads_other_lanes(uint16_t op)
{
    switch (op) {
    case PTX_OP_SHFL: case PTX_OP_MATCH: case PTX_OP_REDUX: case PTX_OP_VOTE:
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: case PTX_OP_WMMA_MMA: case PTX_OP_MMA:
    case PTX_OP_LDMATRIX: case PTX_OP_STMATRIX: case PTX_OP_MOVMATRIX:
    case PTX_OP_WGMMA_MMA_ASYNC:
        return true;
    default:
        return op >= PTX_OP_TCGEN05_ALLOC && op <= PTX_OP_TCGEN05_FENCE;
    }
}

/* A µop whose handler may read rows its operands do not name (an indexed branch goes
 * anywhere): every row counts as live before it. (A contracted add's reads of its mul's
 * sources are its form's operands: liveness() counts them.) */
static bool opaque_reads(const emu_uop *u)
{
    return u->op == PTX_OP_BRX_IDX;
}

/* exit, ret and trap without a guard: no lane goes on in this frame (a frame's rows are its
 * own; a caller's are another frame's) */
static bool ends_thread(const emu_uop *u)
{
    return (u->op == PTX_OP_EXIT || u->op == PTX_OP_RET || u->op == PTX_OP_TRAP) &&
           u->guard_row == EMU_NO_GUARD;
}

/* Which rows each µop's start may be followed by a read of (per thread: the rows some path
 * from there reads before writing them). Every µop reads the rows of its guard and operands
 * (a handler's destination too: it counts as read, never as written); a translated one
 * without a guard writes its destination; a branch goes on at its target or the next µop,
 * exit/ret nowhere, the rest at the next µop. Leaves t->live NULL (every row live) when the
 * function reads other lanes' registers or names a row out of the usual layout. */
static void liveness(tr *t)
{
    const emu_code *code = t->code;
    uint32_t n = t->n, nbits = code->fn ? code->fn->nslots : 0;
    for (uint32_t i = 0; i < n; i++)
        if (reads_other_lanes(code->uops[i].op)) return;
    if (nbits == 0) return;
    uint32_t words = (nbits + 63) / 64;
    uint64_t *live = calloc((size_t)n * words, sizeof *live);
    uint64_t *reads = calloc((size_t)n * words, sizeof *reads);
    uint64_t *kills = calloc((size_t)n * words, sizeof *kills);
    bool *native = calloc(n, sizeof *native);
    bool ok = live && reads && kills && native;
    for (uint32_t i = 0; ok && i < n; i++) {
        const emu_uop *u = &code->uops[i];
        uint64_t *rd = reads + (size_t)i * words, *kl = kills + (size_t)i * words;
        native[i] = translates(t, u);
        if (u->guard_row != EMU_NO_GUARD) {
            emu_opd g = {.kind = EMU_OPD_PRED, .row = u->guard_row};
            ok = ok && opd_rows(t, &g, rd, nbits);
        }
        /* a handler: every operand may be read (the destination too: it may write some
         * lanes only) and nothing counts as written */
        bool has_dst = native[i] && u->op != PTX_OP_ST && u->op != PTX_OP_BRA;
        for (unsigned k = has_dst ? 1 : 0; ok && k < u->nopd; k++)
            ok = opd_rows(t, emu_uop_opd(u, k), rd, nbits);
        if (ok && (u->flags & EMU_UOP_CONTRACTED)) {
            /* a contracted add reads its mul's sources (translated and handler alike) */
            const emu_fma_contraction *fc = u->form;
            ok = opd_rows(t, &fc->a, rd, nbits) && opd_rows(t, &fc->b, rd, nbits) &&
                 opd_rows(t, &fc->c, rd, nbits);
        }
        /* a predicate result merges with the predicate's old word (put_pred reads it): no kill */
        if (ok && has_dst && u->opd[0].kind != EMU_OPD_PRED && u->guard_row == EMU_NO_GUARD)
            ok = opd_rows(t, &u->opd[0], kl, nbits);
    }
    /* to a fixpoint, backwards */
    for (bool changed = ok; changed;) {
        changed = false;
        for (uint32_t i = n; i-- > 0;) {
            uint64_t *in = live + (size_t)i * words;
            const emu_uop *u = &code->uops[i];
            for (uint32_t w = 0; w < words; w++) {
                uint64_t v = ~UINT64_C(0);
                if (!opaque_reads(u)) {
                    uint64_t out = ends_thread(u) ? 0
                                   : i + 1 < n ? live[(size_t)(i + 1) * words + w]
                                               : ~UINT64_C(0);
                    if (u->op == PTX_OP_BRA) {
                        int32_t tg = branch_target(u);
                        out |= tg >= 0 && (uint32_t)tg < n ? live[(size_t)tg * words + w]
                                                           : ~UINT64_C(0);
                    }
                    v = reads[(size_t)i * words + w] | (out & ~kills[(size_t)i * words + w]);
                }
                if (v != in[w]) {
                    in[w] = v;
                    changed = true;
                }
            }
        }
    }
    free(reads);
    free(kills);
    free(native);
    if (!ok) {
        free(live);
        return;
    }
    t->live = live;
    t->live_words = words;
}

/* Where segments start: a block's first µop, the one after a branch, and every JIT_SEGMENT-th.
 * (After a handler, which may write any row, the run goes on through the next µop's side
 * entry, which reloads the cached rows.) */
static void find_segments(tr *t)
{
    uint32_t len = 0, limit = JIT_SEGMENT;
    for (uint32_t i = 0; i < t->n; i++) {
        const emu_uop *u = &t->code->uops[i], *p = i ? u - 1 : NULL;
        bool block = !p || (u->flags & EMU_UOP_BLOCK_START) || p->block_end <= i ||
                     p->op == PTX_OP_BRA;
        if (block) {
            /* a block that branches back to itself is one segment up to JIT_LOOP_SEGMENT µops
             * (a loop segment: see loop_segment()) */
            const emu_uop *last = &t->code->uops[u->block_end - 1];
            bool loop = u->block_end > i && u->block_end <= t->n && last->op == PTX_OP_BRA &&
                        branch_target(last) == (int32_t)i;
            /* a longer loop block is cut every 32 µops, as before JIT_SEGMENT grew past
             * JIT_LOOP_SEGMENT (a whole block of up to JIT_SEGMENT would be a loop segment) */
            limit = !loop ? JIT_SEGMENT : u->block_end - i <= JIT_LOOP_SEGMENT ? JIT_LOOP_SEGMENT : 32;
        }
        bool start = block || len >= limit;
        t->seg_start[i] = start;
        len = start ? 1 : len + 1;
    }
}

/* t->looped: in_loop() for every µop at once (the least branch target at or after each) */
static void mark_looped(tr *t)
{
    int64_t least = INT64_MAX;
    for (uint32_t i = t->n; i-- > 0;) {
        const emu_uop *u = &t->code->uops[i];
        if (u->op == PTX_OP_BRA && branch_target(u) >= 0 && branch_target(u) < least)
            least = branch_target(u);
        t->looped[i] = least <= (int64_t)i;
    }
}

/* Whether the segment starting at h is a loop segment: the whole of its block, which ends
 * with a translated branch back to h (a region boundary at h ends every run there). */
static bool loop_segment(const tr *t, uint32_t h)
{
    const emu_uop *u = &t->code->uops[h];
    uint32_t e = u->block_end;
    if (!t->seg_start[h] || e <= h || e > t->n || (u->flags & EMU_UOP_REGION_BOUNDARY)) return false;
    for (uint32_t i = h + 1; i < e; i++)
        if (t->seg_start[i]) return false;
    const emu_uop *br = &t->code->uops[e - 1];
    if (br->op != PTX_OP_BRA || !translates(t, br) || branch_target(br) != (int32_t)h)
        return false;
    /* every row live at the head that the loop touches goes round in a phi: a row left out
     * would be read from memory at the head while its latest value is in a register */
    uint32_t rows[JIT_LOOP_ROWS], n;
    bool narrow[JIT_LOOP_ROWS], pred[JIT_LOOP_ROWS];
    return loop_rows(t, h, e, rows, narrow, pred, &n);
}

bool emu_jit_translate(const emu_func *f, bool events, LLVMModuleRef m, const char *name,
                       emu_jit_counts *counts, char *err, size_t errlen)
{
    const emu_code *code = &f->code;
    memset(counts, 0, sizeof *counts);
    counts->uops = code->n;
    if (code->n == 0) {
        snprintf(err, errlen, "function %s has no instructions", f->fn->name);
        return false;
    }
    for (uint32_t i = 0; i < code->n; i++)
        if (!code->uops[i].exec) {
            snprintf(err, errlen, "instruction %u of %s has no handler", i, f->fn->name);
            return false;
        }
    tr t;
    memset(&t, 0, sizeof t);
    t.cx = LLVMGetModuleContext(m);
    t.m = m;
    t.f = f;
    t.events = events;
    t.code = code;
    t.n = code->n;
    t.counts = counts;
    t.i1 = LLVMInt1TypeInContext(t.cx);
    t.i8 = LLVMInt8TypeInContext(t.cx);
    t.i16 = LLVMInt16TypeInContext(t.cx);
    t.i32 = LLVMInt32TypeInContext(t.cx);
    t.i64 = LLVMInt64TypeInContext(t.cx);
    t.f32 = LLVMFloatTypeInContext(t.cx);
    t.ptr = LLVMPointerTypeInContext(t.cx, 0);
    t.v64 = LLVMVectorType(t.i64, EMU_WARP_SIZE);
    t.v32 = LLVMVectorType(t.i32, EMU_WARP_SIZE);
    t.vb = LLVMVectorType(t.i1, EMU_WARP_SIZE);
    t.vf = LLVMVectorType(t.f32, EMU_WARP_SIZE);
    LLVMTypeRef params[3] = {t.ptr, t.i32, t.i64};
    t.fn = LLVMAddFunction(m, name, LLVMFunctionType(t.i64, params, 3, false));
    t.c = LLVMGetParam(t.fn, 0);
    t.pc_arg = LLVMGetParam(t.fn, 1);
    t.budget = LLVMGetParam(t.fn, 2);   /* capped in the entry block: see below */
    t.b = LLVMCreateBuilderInContext(t.cx);
    t.bb = calloc(code->n, sizeof *t.bb);
    t.seg_start = calloc(code->n, sizeof *t.seg_start);
    t.side = calloc(code->n, sizeof *t.side);
    t.loop_seg = calloc(code->n, sizeof *t.loop_seg);
    t.chain_head = calloc(code->n, sizeof *t.chain_head);
    t.chain_made = calloc(code->n, sizeof *t.chain_made);
    t.chain_all = calloc(code->n, sizeof *t.chain_all);
    t.chain_open = calloc(code->n, sizeof *t.chain_open);
    t.to_interp = calloc(code->n + 1, sizeof *t.to_interp);
    t.next_entry = calloc(code->n + 1, sizeof *t.next_entry);
    t.looped = calloc(code->n, sizeof *t.looped);
    t.entry = calloc(code->n, sizeof *t.entry);
    t.fast_bb = calloc(code->n, sizeof *t.fast_bb);
    t.loop_head = NO_LOOP;
    if (!t.bb || !t.seg_start || !t.side || !t.loop_seg || !t.chain_head || !t.chain_made ||
        !t.chain_all || !t.chain_open || !t.to_interp || !t.looped || !t.entry || !t.fast_bb ||
        !t.next_entry) {
        free(t.next_entry);
        free(t.fast_bb);
        free(t.looped);
        free(t.entry);
        free(t.bb);
        free(t.side);
        free(t.to_interp);
        free(t.seg_start);
        free(t.loop_seg);
        free(t.chain_head);
        free(t.chain_made);
        free(t.chain_all);
        free(t.chain_open);
        LLVMDisposeBuilder(t.b);
        snprintf(err, errlen, "out of host memory");
        return false;
    }

    LLVMBasicBlockRef entry = block(&t, "entry");
    t.dispatch = block(&t, "dispatch");
    t.resume = block(&t, "resume");
    t.exit_pc = block(&t, "exit_pc");
    t.ret = block(&t, "ret");
    t.slow_out = block(&t, "slow_out");
    for (uint32_t i = 0; i < code->n; i++) t.bb[i] = block(&t, "uop");

    LLVMPositionBuilderAtEnd(t.b, entry);
    t.cnt_slot = LLVMBuildAlloca(t.b, t.i64, "cnt");
    t.npc_slot = LLVMBuildAlloca(t.b, t.i32, "npc");
    t.regs_slot = LLVMBuildAlloca(t.b, t.ptr, "regs");
    t.sp_slot = LLVMBuildAlloca(t.b, t.i32, "sp");
    t.left_slot = LLVMBuildAlloca(t.b, t.i64, "left");
    t.loop_ok_slot = LLVMBuildAlloca(t.b, t.i1, "loop_ok");
    LLVMBuildStore(t.b, ci64(&t, 0), t.cnt_slot);
    LLVMBuildStore(t.b, LLVMConstInt(t.i1, 0, false), t.loop_ok_slot);
    /* a budget of 2^63 or more as 2^63 (no run gets that far), so that budget - count + k,
     * the left of a segment, never wraps */
    LLVMValueRef cap = ci64(&t, UINT64_C(1) << 63);
    t.budget = LLVMBuildSelect(t.b, LLVMBuildICmp(t.b, LLVMIntUGT, t.budget, cap, ""), cap, t.budget, "");
    LLVMBuildStore(t.b, t.pc_arg, t.npc_slot);
    t.w = load(&t, t.ptr, ctx_field(&t, offsetof(emu_ctx, w)));

    LLVMBuildStore(t.b, load(&t, t.ptr, ctx_field(&t, offsetof(emu_ctx, regs))), t.regs_slot);
    t.uops = load(&t, t.ptr, field(&t, load(&t, t.ptr, ctx_field(&t, offsetof(emu_ctx, code))),
                                   offsetof(emu_code, uops)));
    t.base_ninstr = load(&t, t.i64, warp_field(&t, offsetof(emu_warp, ninstr)));
    LLVMSetVolatile(LLVMBuildStore(t.b, load(&t, t.i32, warp_field(&t, offsetof(emu_warp, sp))), t.sp_slot),
                    true);
    t.nframes0 = load(&t, t.i32, warp_field(&t, offsetof(emu_warp, nframes)));
    find_segments(&t);
    liveness(&t);
    if (code->fn && code->fn->nslots && (t.stride = malloc(code->fn->nslots * sizeof *t.stride)))
        emu_jit_lane_strides(code, t.stride, code->fn->nslots);
    for (uint32_t i = 0; i < code->n; i++) t.loop_seg[i] = loop_segment(&t, i);
    mark_looped(&t);
    for (uint32_t i = 0; i < code->n && !events; i++)
        if (code->uops[i].op == PTX_OP_BAR || code->uops[i].op == PTX_OP_BARRIER) t.barrier_bound = true;
    /* a function with a loop segment keeps its hot rows in registers there already: chaining
     * its other blocks (eager loads at the heads' side entries, inline checks) measured slower
     * (Mandelbrot 61.7 -> 64.8 ms, reduce 22.7 -> 24.1: kernel ms CPU, least of 6-8) */
    bool has_loop = false;
    for (uint32_t i = 0; i < code->n; i++) has_loop |= t.loop_seg[i];
    bool straight = true;
    for (uint32_t i = 0; i < code->n; i++) straight &= !t.looped[i];
    t.chain = !events && t.live && code->fn && !has_loop &&
              (code->n <= JIT_CHAIN_UOPS || (straight && code->n <= JIT_CHAIN_STRAIGHT_UOPS));
    if (t.chain) {
        t.slot_kind = calloc(code->fn->nslots, sizeof *t.slot_kind);
        t.chain_phi = calloc((size_t)code->n * JIT_CHAIN_ROWS, sizeof *t.chain_phi);
        t.chain_dirty = calloc((size_t)code->n * JIT_CHAIN_ROWS, sizeof *t.chain_dirty);
        t.chain = t.slot_kind && t.chain_phi && t.chain_dirty;
    }
    if (t.chain) slot_kinds(&t);
    for (uint32_t i = 0; t.chain && straight && i < code->n; i++)
        t.chain_all[i] = t.seg_start[i] && chain_all_fit(&t, i);
    for (uint32_t i = 0; t.chain && i < code->n; i++) t.chain_head[i] = chain_head(&t, i);
    for (uint32_t i = 0; i < code->n; i++)
        t.side[i] = t.seg_start[i] && !t.loop_seg[i] && !t.chain_head[i] ? t.bb[i]
                    : stretch_budget(&t, i) && !stretch_start(&t, i) && !after_handler(&t, i) ? NULL
                    : block(&t, "side");
    t.interp = block(&t, "interp");
    LLVMBasicBlockRef entry_end = LLVMGetInsertBlock(t.b);
    /* the switches' case for each µop: a compiled entry (entry_check() inside a segment
     * checked whole), or where there is none (no run entry, or inside a stretch) the
     * interpreter's loop runs on to the next µop that has one (c->next_pc): one to_interp
     * block per such target */
    for (uint32_t i = 0; i < code->n; i++)
        t.entry[i] = !t.side[i] || !run_entry(&t, i) ? NULL
                     : t.seg_start[i]                 ? t.side[i]
                                                      : entry_check(&t, i);
    t.next_entry[code->n] = code->n;
    for (uint32_t i = code->n, next = code->n; i-- > 0;) {
        if (t.entry[i]) {
            t.next_entry[i] = next = i;
            continue;
        }
        t.next_entry[i] = next;
        if (!t.to_interp[next]) {
            t.to_interp[next] = block(&t, "to_interp");
            LLVMPositionBuilderAtEnd(t.b, t.to_interp[next]);
            LLVMBuildStore(t.b, ci32(&t, next), ctx_field(&t, offsetof(emu_ctx, next_pc)));
            LLVMBuildBr(t.b, t.interp);
        }
        t.entry[i] = t.to_interp[next];
    }
    LLVMPositionBuilderAtEnd(t.b, entry_end);
    LLVMValueRef sw = LLVMBuildSwitch(t.b, t.pc_arg, t.ret, code->n);
    for (uint32_t i = 0; i < code->n; i++) LLVMAddCase(sw, ci32(&t, i), t.entry[i]);

    /* the run ends before npc, which the interpreter's loop runs (see stretch_budget() and
     * run_entry()) */
    LLVMPositionBuilderAtEnd(t.b, t.interp);
    LLVMBuildStore(t.b, LLVMConstInt(t.i32, (uint64_t)(int64_t)EMU_JIT_INTERPRET, true),
                   ctx_field(&t, offsetof(emu_ctx, stop)));
    LLVMBuildBr(t.b, t.exit_pc);

    /* the run ends with the SIMT top at npc */
    LLVMPositionBuilderAtEnd(t.b, t.exit_pc);
    store_top_pc(&t, load(&t, t.i32, t.npc_slot));
    LLVMBuildBr(t.b, t.ret);

    LLVMPositionBuilderAtEnd(t.b, t.ret);
    store_ninstr(&t);
    LLVMBuildRet(t.b, count(&t));

    emit_dispatch(&t);
    emit_slow_out(&t);
    for (uint32_t i = 0; i < code->n; i++) emit_uop(&t, i);
    (void)instr_flags;
    LLVMDisposeBuilder(t.b);
    free(t.bb);
    free(t.fast_bb);
    free(t.side);
    free(t.to_interp);
    free(t.next_entry);
    free(t.seg_start);
    free(t.loop_seg);
    free(t.looped);
    free(t.entry);
    free(t.live);
    free(t.chain_head);
    free(t.chain_made);
    free(t.chain_all);
    free(t.chain_open);
    free(t.slot_kind);
    free(t.chain_phi);
    free(t.chain_dirty);
    free(t.stride);
    return true;
}
