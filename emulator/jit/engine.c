/* engine.c: compiling functions with ORC LLJIT, now (executor jit) or on a background thread
 * once they are hot (executor auto), and releasing their code when the module goes.
 *
 * One LLJIT for the process, made on first use. Each function is its own LLVM module with its
 * own resource tracker, so its code can be dropped alone when its module unloads; it is
 * optimised lightly for the host CPU (compile time matters more than the last tenth of speed:
 * see compile()), with no fast-math flags (the IR has none to give), made into an object
 * file that LLJIT links, and kept in the disk cache (cache.c) under a key of the
 * translator's inputs and everything else that determines the object. Compiles are
 * serialised by one lock: they are rare, and LLVM's memory is the limit, not its threads. */
#include "emulator/jit/jit_internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t jit_cond = PTHREAD_COND_INITIALIZER;
static LLVMOrcLLJITRef jit;
static LLVMTargetMachineRef tm;
static LLVMTargetMachineRef obj_tm;   /* emits the object files (PIC, as LLJIT links them) */
static char *host_cpu, *host_features;
static bool jit_broken;           /* LLJIT could not be made: nothing compiles */
static emu_jit_options opts = { .verbose = 0, .hot_instructions = 1000000 };

/* Code generation at level Less without four of its machine passes, which cost a quarter of
 * its time on the translations' large functions (one per kernel, tens of thousands of IR
 * instructions over 32-lane vectors; instruction selection is most of what is left): AVX-512
 * domain reassignment (GPR chains moved to mask registers), the pre-RA machine scheduler (the
 * host core reorders anyway), machine sinking and machine CSE (the IR passes' early-cse and
 * simplifycfg have done most of their work). Whole-process CPU of a compile-only run, least
 * of 3 under load 7: scan 0.93 -> 0.68 s, Black-Scholes 0.64 -> 0.50, matmul 0.42 -> 0.32;
 * the cached kernels' CPU time (matmul 1024, bitonic 1M, Black-Scholes 4M, scan 16M) the same
 * within the noise, and -regalloc=basic, -pre-RA-sched=source/linearize/fast, tail merging,
 * copy propagation and the peephole pass off saved nothing more (llc -time-passes on the
 * dumped IR, PTXSIM_JIT_DUMP). LLVM's options are the process's: another LLVM user in it gets
 * them too, which changes no result of its code. */
static const char *const codegen_flags[] = {"ptxsim", "-disable-x86-domain-reassignment",
                                            "-enable-misched=false", "-disable-machine-sink",
                                            "-disable-machine-cse"};

/* the background compiler (executor auto) */
typedef struct pending { emu_func *f; int variant; struct pending *next; } pending;
static pending *queue_head, *queue_tail;
static emu_func *compiling;       /* the function the background thread compiles now */
static int compiling_variant;
static bool worker_started, worker_stop;
static pthread_t worker;

/* totals for emu_jit_stats */
static emu_jit_stats totals;
/* a compile has generated code in this process (a cache hit or shared code does not count:
 * linking an object leaves the optimiser's and code generator's static objects unmade) */
static atomic_bool warmed;

/* The process's first code generation runs on one of the program's own threads inside a
 * runtime call (a launch under --engine=jit, a wait, a later launch): never on a thread ptxsim
 * made to run device work (emu_jit_device_thread), since the program may call exit() while
 * that thread compiles, and exit() runs the destructors LLVM registered meanwhile before any
 * handler that could wait for it. Such a thread asks for the compile instead (one function
 * asked at a time) and goes on interpreting; emu_jit_serve_first compiles it, on a program
 * thread that opts.first_wanted has woken. Linking code from the caches is the same question
 * for ORC's objects: a device thread links only after a link elsewhere (`linked`: a program
 * thread's, as no device thread links first). */
static atomic_bool linked;
static _Thread_local bool device_thread;
/* exit() has begun (under jit_lock): no LLVM work starts any more */
static bool exiting;
static emu_func *first_wanted;
static int first_wanted_variant;
static bool first_wanted_foreseen;
static atomic_bool first_pending;   /* first_wanted is set: read without the lock */

void emu_jit_configure(const emu_jit_options *o)
{
    pthread_mutex_lock(&jit_lock);
    free((char *)opts.cache_dir);
    free((char *)opts.version);
    opts = *o;
    opts.cache_dir = o->cache_dir ? strdup(o->cache_dir) : NULL;
    opts.version = strdup(o->version ? o->version : "");
    if (opts.hot_instructions == 0) opts.hot_instructions = 1;
    pthread_mutex_unlock(&jit_lock);
}

void emu_jit_get_stats(emu_jit_stats *out)
{
    pthread_mutex_lock(&jit_lock);
    *out = totals;
    pthread_mutex_unlock(&jit_lock);
}

void emu_jit_device_thread(void)
{
    device_thread = true;
}

/* f's variant v is asked of a program thread (under jit_lock), unless another function is
 * already; *asked says this call asked (the caller then tells opts.first_wanted, without the
 * lock). */
static void ask_first(emu_func *f, int v, bool foreseen, bool *asked)
{
    /* at exit nothing compiles: asking would only wake the exit handler that drains the device */
    if (!exiting && !first_wanted && atomic_load(&f->jit_status[v]) == EMU_JIT_NONE) {
        first_wanted = f;
        first_wanted_variant = v;
        first_wanted_foreseen = foreseen;
        atomic_store_explicit(&first_pending, true, memory_order_release);
        *asked = true;
    }
}

/* Whether this thread must leave f's variant v to a program thread (under jit_lock): a device
 * thread before any LLVM work elsewhere. (One after a link but before the first code
 * generation goes as far as the caches: compile.) */
static bool leave_first(emu_func *f, int v, bool foreseen, bool *asked)
{
    *asked = false;
    if (!device_thread || atomic_load(&warmed) || atomic_load(&linked)) return false;
    ask_first(f, v, foreseen, asked);
    return true;
}

static void tell_first_wanted(bool asked)
{
    if (asked && opts.first_wanted) opts.first_wanted();
}

/* All of LLVM's work here runs under jit_lock (compiles, links, releases), so at exit, taking
 * the lock waits for the work in progress, and `exiting` keeps any more from starting: what
 * then runs compiled code it already has, or interprets. */
static void stop_llvm_at_exit(void)
{
    pthread_mutex_lock(&jit_lock);
    exiting = true;
    pthread_mutex_unlock(&jit_lock);
}

/* After each piece of LLVM work (under jit_lock): exit() runs handlers newest first, so the
 * handler above, registered again now, runs before the destructors that work registered. A
 * piece of work still running at exit can only meet destroyed objects it first made itself:
 * why the process's first one is a program thread's (leave_first). */
static void llvm_work_done(void)
{
    atexit(stop_llvm_at_exit);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* the calling thread's CPU time: a compile's cost on a shared host, where its wall time is
 * mostly other processes' */
static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void report(const char *what, LLVMErrorRef e)
{
    char *msg = LLVMGetErrorMessage(e);
    fprintf(stderr, "ptxsim: jit: %s: %s\n", what, msg);
    LLVMDisposeErrorMessage(msg);
}

/* The allocations this host thread's refills found last (an entry as emu_warp.jit_hit's:
 * base, end, generation), REFILL_LAST of them: the misses are a fresh warp slot's first access
 * to each array (vecadd: 3 per slot, 15,360 of a v100 kernel's 32,768 run-aheads, most on the
 * weave's one thread), and each array was found just before by another slot. An entry holds
 * while the generation does: it changes at every free, and an allocation never moves. */
enum { REFILL_LAST = 4 };
static _Thread_local uint64_t refill_last[REFILL_LAST][3];
static _Thread_local unsigned refill_next;

/* Makes the LLJIT (under jit_lock). */
/* EMU_JIT_REFILL (jit_internal.h): what exec_mem.c's fast_lanes does when the first lane misses
 * the cached allocation, into the access site's entry of the warp's emu_warp.jit_hit */
static uint8_t jit_refill(uint64_t *hit, uint64_t a0, uint64_t size, uint64_t gen)
{
    uint64_t(*last)[3] = refill_last;
    for (unsigned k = 0; k < REFILL_LAST; k++) {
        /* emu_find_allocation's test: a0's size bytes within [base, end) */
        const uint64_t *e = last[k];
        if (e[2] == gen && a0 >= e[0] && a0 - e[0] <= e[1] - e[0] &&
            size <= e[1] - e[0] - (a0 - e[0])) {
            memcpy(hit, e, 3 * sizeof *e);
            return 1;
        }
    }
    uint64_t base, asz;
    if (!emu_find_allocation(a0, size, &base, &asz, NULL)) return 0;
    hit[0] = base;
    hit[1] = base + asz;
    hit[2] = gen;
    memcpy(last[refill_next++ % REFILL_LAST], hit, 3 * sizeof *hit);
    return 1;
}

static bool jit_init(void)
{
    if (jit) return true;
    if (jit_broken) return false;
    jit_broken = true;
    char lerr[600];
    if (!llvm_api_load(lerr, sizeof lerr)) {
        fprintf(stderr, "ptxsim: jit: %s\n", lerr);
        return false;
    }
    llvm_api_init_native();
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetRef target;
    char *terr = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &terr)) {
        fprintf(stderr, "ptxsim: jit: %s\n", terr ? terr : "no target");
        LLVMDisposeMessage(terr);
        LLVMDisposeMessage(triple);
        return false;
    }
    /* LLVM's options are the process's: set once, before the first machine is made */
    LLVMParseCommandLineOptions((int)(sizeof codegen_flags / sizeof codegen_flags[0]),
                                codegen_flags, "");
    char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
    /* instruction selection and register allocation on 32-lane vectors dominate compile time.
     * The register cache (translate.c) keeps rows in registers across the µops' blocks, which
     * the fast allocator (level None) spills at every block's end: Less takes up to twice the
     * compile time of None for code that runs about 1.3x as fast (nbody 8192, cached run);
     * Default is no faster than Less. */
    LLVMCodeGenOptLevel level = LLVMCodeGenLevelLess;
    /* one machine for the optimiser's cost model, one (the same) that LLJIT owns */
    tm = LLVMCreateTargetMachine(target, triple, cpu, features, level, LLVMRelocDefault,
                                 LLVMCodeModelJITDefault);
    LLVMTargetMachineRef jtm = LLVMCreateTargetMachine(target, triple, cpu, features, level,
                                                       LLVMRelocDefault, LLVMCodeModelJITDefault);
    /* LLJIT links objects as position-independent code of the small model (JITLink makes the
     * GOT and stubs): the same objects come from the disk cache */
    obj_tm = LLVMCreateTargetMachine(target, triple, cpu, features, level, LLVMRelocPIC,
                                     LLVMCodeModelSmall);
    host_cpu = strdup(cpu);
    host_features = strdup(features);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    LLVMDisposeMessage(triple);
    if (!tm || !jtm || !obj_tm || !host_cpu || !host_features) return false;
    LLVMOrcJITTargetMachineBuilderRef jtmb = LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jtm);
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, jtmb);
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&jit, builder);
    if (e) {
        report("creating LLJIT", e);
        jit = NULL;
        return false;
    }
    /* the code calls memset and friends LLVM may emit: the process's own symbols */
    LLVMOrcDefinitionGeneratorRef gen;
    e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(jit),
                                                             NULL, NULL);
    if (e) {
        report("resolving the process's symbols", e);
        return false;
    }
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(jit);
    LLVMOrcJITDylibAddGenerator(jd, gen);
    /* what compiled code calls by name (jit_internal.h) */
    LLVMOrcCSymbolMapPair called[6] = {
        {LLVMOrcLLJITMangleAndIntern(jit, EMU_JIT_DEVICE_GENERATION),
         {(LLVMOrcExecutorAddress)(uintptr_t)emu_device_generation_word(),
          {LLVMJITSymbolGenericFlagsExported, 0}}},
        {LLVMOrcLLJITMangleAndIntern(jit, EMU_JIT_REFILL),
         {(LLVMOrcExecutorAddress)(uintptr_t)&jit_refill,
          {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0}}},
        {LLVMOrcLLJITMangleAndIntern(jit, EMU_JIT_SYMBOL_ADDRESS),
         {(LLVMOrcExecutorAddress)(uintptr_t)&emu_symbol_address,
          {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0}}},
        {LLVMOrcLLJITMangleAndIntern(jit, EMU_JIT_RESUME),
         {(LLVMOrcExecutorAddress)(uintptr_t)&emu_jit_resume,
          {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0}}},
        {LLVMOrcLLJITMangleAndIntern(jit, EMU_JIT_CALL_HANDLER),
         {(LLVMOrcExecutorAddress)(uintptr_t)&emu_jit_call_handler,
          {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0}}},
        {LLVMOrcLLJITMangleAndIntern(jit, EMU_JIT_BAR_SYNC),
         {(LLVMOrcExecutorAddress)(uintptr_t)&emu_barrier_sync_converged,
          {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0}}}};
    e = LLVMOrcJITDylibDefine(jd, LLVMOrcAbsoluteSymbols(called, 6));
    if (e) {
        report("defining the symbols compiled code uses", e);
        return false;
    }
    jit_broken = false;
    return true;
}

/* ---------------------------------------------------------------- compiled code, shared by key
 *
 * A function's code is named by its key: a hash of what its translation is made from (the
 * translator's inputs, input_key.c: every µop field, immediate and IR instruction field the
 * translator reads, by value, the function's slots and parameters, the variant, and a hash of
 * the translator's own sources made by the Makefile), ptxsim's version, LLVM's, the target
 * triple, the host CPU and its features, and how the IR is optimised and compiled. The key is
 * known before the IR exists, so a function whose code is in the process or the disk cache is
 * never translated: a hit costs the key and the link (it cost a translation and the bitcode
 * written to be hashed, 8-10 ms per kernel, when the key was the IR's). The translator is
 * deterministic, so one key stands for one IR; the object stored under the key defines
 * ptxsim_jit_<key> whatever run made it. Keying the objects by the inputs themselves, rather
 * than keeping an index from the inputs' key to the IR's, keeps one file and one name per
 * function (two functions of different inputs but the same IR no longer share: rare, and
 * only a compile more). Functions of one key (the same kernel in two modules) share one
 * object in the process; the disk cache keeps the objects between processes. */

/* how the code is made: part of the key */
#define JIT_PASSES "function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg)"
#define JIT_CODEGEN "codegen=less,reloc=pic,model=small"

typedef struct jit_code {
    emu_jit_key key;
    LLVMOrcResourceTrackerRef rt;
    emu_jit_entry entry;
    unsigned users;
    struct jit_code *next;
} jit_code;
static jit_code *live_codes;


static emu_jit_key code_key(const emu_func *f, int v)
{
    emu_jit_key k;
    emu_jit_key_init(&k);
    unsigned major, minor, patch;
    LLVMGetVersion(&major, &minor, &patch);
    char llvm[48];
    snprintf(llvm, sizeof llvm, "llvm %u.%u.%u", major, minor, patch);
    emu_jit_key_add_inputs(&k, f, v == EMU_JIT_EVENTS);
    emu_jit_key_add(&k, opts.version ? opts.version : "");
    emu_jit_key_add(&k, llvm);
    char *triple = LLVMGetTargetMachineTriple(tm);   /* the IR's module is made for it */
    emu_jit_key_add(&k, triple);
    LLVMDisposeMessage(triple);
    emu_jit_key_add(&k, host_cpu);
    emu_jit_key_add(&k, host_features);
    emu_jit_key_add(&k, JIT_PASSES);
    emu_jit_key_add(&k, JIT_CODEGEN);
    for (size_t i = 1; i < sizeof codegen_flags / sizeof codegen_flags[0]; i++)
        emu_jit_key_add(&k, codegen_flags[i]);
    emu_jit_key_finish(&k);
    return k;
}


static void code_release(jit_code *c)
{
    if (--c->users) return;
    for (jit_code **pp = &live_codes; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    LLVMErrorRef e = LLVMOrcResourceTrackerRemove(c->rt);
    if (e) LLVMConsumeError(e);
    LLVMOrcReleaseResourceTracker(c->rt);
    free(c);
}

/* Links object obj (taken) whose function is `symbol`; NULL when LLVM refuses it. */
static jit_code *code_link(const emu_jit_key *key, const char *symbol, LLVMMemoryBufferRef obj,
                           const char *fname)
{
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(jit);
    LLVMOrcResourceTrackerRef rt = LLVMOrcJITDylibCreateResourceTracker(jd);
    uint64_t perf_size = emu_jit_symbol_size(obj, symbol);
    LLVMErrorRef e = LLVMOrcLLJITAddObjectFileWithRT(jit, rt, obj);
    LLVMOrcExecutorAddress addr = 0;
    if (!e) e = LLVMOrcLLJITLookup(jit, &addr, symbol);
    jit_code *c = e || !addr ? NULL : calloc(1, sizeof *c);
    if (!c) {
        if (e) report(fname, e);
        LLVMErrorRef r = LLVMOrcResourceTrackerRemove(rt);
        if (r) LLVMConsumeError(r);
        LLVMOrcReleaseResourceTracker(rt);
        return NULL;
    }
    emu_jit_perf_map(addr, perf_size, symbol, fname);
    atomic_store(&linked, true);
    c->key = *key;
    c->rt = rt;
    c->entry = (emu_jit_entry)(uintptr_t)addr;
    c->users = 1;
    c->next = live_codes;
    live_codes = c;
    return c;
}

/* ---------------------------------------------------------------- compiling */

/* how --verbose names a variant */
static const char *variant_name(int v) { return v == EMU_JIT_EVENTS ? " (event variant)" : ""; }

static void failed(emu_func *f, int v, const char *why)
{
    totals.failed++;
    if (opts.verbose)
        fprintf(stderr, "ptxsim: jit: %s%s stays on the interpreter: %s\n", f->fn->name,
                variant_name(v), why);
    atomic_store(&f->jit_status[v], EMU_JIT_FAILED);
}

static void ready(emu_func *f, int v, jit_code *c)
{
    f->jit_owner[v] = c;
    atomic_store_explicit(&f->jit_entry[v], c->entry, memory_order_release);
    atomic_store(&f->jit_status[v], EMU_JIT_READY);
}

/* Makes f's variant v ready (under jit_lock) with the code of its key (symbol) when the
 * process has it (the same kernel in another module) or the disk cache does: no compile. */
static bool cached_code(emu_func *f, int v, const emu_jit_key *key, const char *symbol, double t0)
{
    for (jit_code *c = live_codes; c; c = c->next)
        if (c->key.h[0] == key->h[0] && c->key.h[1] == key->h[1]) {
            c->users++;
            if (opts.verbose)
                fprintf(stderr, "ptxsim: jit: %s%s shares the code of an identical function\n",
                        f->fn->name, variant_name(v));
            ready(f, v, c);
            return true;
        }
    if (!opts.cache_dir) return false;
    LLVMMemoryBufferRef cached = emu_jit_cache_load(opts.cache_dir, key, f->fn->name, opts.verbose);
    jit_code *c = cached ? code_link(key, symbol, cached, f->fn->name) : NULL;
    if (c) {
        totals.cache_hits++;
        if (opts.verbose)
            fprintf(stderr, "ptxsim: jit: %s%s: cache hit (%s), loaded in %.1f ms\n",
                    f->fn->name, variant_name(v), symbol + 11, (now_seconds() - t0) * 1e3);
        ready(f, v, c);
        return true;
    }
    if (opts.verbose)
        fprintf(stderr, "ptxsim: jit: %s%s: cache miss (%s)\n", f->fn->name, variant_name(v),
                symbol + 11);
    return false;
}

static void compile_now(emu_func *f, int v, bool *asked);

/* Compiles variant v of f (under jit_lock), or finds its code in the process or the disk
 * cache; sets its status and entry. Nothing once exit() has begun. */
static void compile(emu_func *f, int v, bool *asked)
{
    *asked = false;
    if (exiting) {
        atomic_store(&f->jit_status[v], EMU_JIT_NONE);
        return;
    }
    compile_now(f, v, asked);
    llvm_work_done();
}

static void compile_now(emu_func *f, int v, bool *asked)
{
    assert(!device_thread || atomic_load(&warmed) || atomic_load(&linked));   /* leave_first */
    if (!jit_init()) {
        atomic_store(&f->jit_status[v], EMU_JIT_FAILED);
        return;
    }
    double t0 = now_seconds(), c0 = thread_cpu_seconds();
    char err[256] = "";
    emu_jit_key key = code_key(f, v);
    char symbol[64];
    emu_jit_key_hex(&key, symbol + snprintf(symbol, sizeof symbol, "ptxsim_jit_"));
    if (cached_code(f, v, &key, symbol, t0)) return;
    if (device_thread && !atomic_load(&warmed)) {
        /* code generation: the process's first is a program thread's */
        atomic_store(&f->jit_status[v], EMU_JIT_NONE);
        ask_first(f, v, false, asked);
        return;
    }

    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    LLVMContextRef cx = LLVMOrcThreadSafeContextGetContext(tsc);
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("ptxsim_jit", cx);
    LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(m, dl);
    LLVMDisposeTargetData(dl);
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(m, triple);
    LLVMDisposeMessage(triple);
    emu_jit_counts counts;
    bool ok = emu_jit_translate(f, v == EMU_JIT_EVENTS, m, symbol, &counts, err, sizeof err);
    if (!ok) {
        LLVMDisposeModule(m);
        LLVMOrcDisposeThreadSafeContext(tsc);
        failed(f, v, err);
        return;
    }

    /* verified only now: code found under the key above was made from the same inputs by the
     * same translator, so from this same IR, which passed then (nothing that fails is stored
     * or shared) */
    char *verr = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &verr)) {
        snprintf(err, sizeof err, "LLVM rejects the translation: %.200s", verr ? verr : "?");
        LLVMDisposeMessage(verr);
        LLVMDisposeModule(m);
        LLVMOrcDisposeThreadSafeContext(tsc);
        failed(f, v, err);
        return;
    }
    LLVMDisposeMessage(verr);
    double c_opt = thread_cpu_seconds();
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    /* what the translation needs: its slots in registers, a register row loaded once per
     * block, constants folded, the µop chain's branches simplified (O2 takes four times as
     * long for no measurable gain). None of these passes changes a float result: the IR
     * carries no fast-math flags, and every f32 NaN is canonicalised after it is made. */
    LLVMErrorRef e = LLVMRunPasses(m, JIT_PASSES, tm, po);
    LLVMDisposePassBuilderOptions(po);
    LLVMMemoryBufferRef obj = NULL;
    double c_gen = thread_cpu_seconds();
    if (e) {
        char *msg = LLVMGetErrorMessage(e);
        snprintf(err, sizeof err, "optimising: %.200s", msg);
        LLVMDisposeErrorMessage(msg);
    } else {
        emu_jit_dump_module(m, obj_tm, symbol, f->fn->name);
        char *emsg = NULL;
        if (LLVMTargetMachineEmitToMemoryBuffer(obj_tm, m, LLVMObjectFile, &emsg, &obj)) {
            snprintf(err, sizeof err, "code generation: %.200s", emsg ? emsg : "?");
            obj = NULL;
        }
        LLVMDisposeMessage(emsg);
    }
    LLVMDisposeModule(m);
    LLVMOrcDisposeThreadSafeContext(tsc);
    if (!obj) {
        failed(f, v, err);
        return;
    }
    double c_link = thread_cpu_seconds();
    bool stored = opts.cache_dir &&
                  emu_jit_cache_store(opts.cache_dir, opts.cache_bytes, &key,
                                      LLVMGetBufferStart(obj), LLVMGetBufferSize(obj));
    if (stored) totals.cache_stores++;
    jit_code *c = code_link(&key, symbol, obj, f->fn->name);
    if (!c) {
        failed(f, v, "LLVM could not link the compiled code");
        return;
    }
    /* the foreground's first code generation is done: LLVM's static objects exist, their
     * destructors registered ahead of the background thread's exit handler (heated) */
    bool background = worker_started && pthread_equal(pthread_self(), worker);
    assert(background ? atomic_load(&warmed) : true);
    atomic_store(&warmed, true);
    double dt = now_seconds() - t0;
    totals.functions++;
    totals.seconds += dt;
    totals.uops += counts.uops;
    totals.native += counts.native;
    if (opts.verbose)
        fprintf(stderr, "ptxsim: jit: compiled %s%s in %.1f ms (%.1f ms CPU: translating %.1f, "
                        "optimising %.1f, code generation %.1f; %u instructions, %u translated, "
                        "%u through their handler, %u loops kept in registers)%s%s\n",
                f->fn->name, variant_name(v), dt * 1e3, (thread_cpu_seconds() - c0) * 1e3,
                (c_opt - c0) * 1e3, (c_gen - c_opt) * 1e3, (c_link - c_gen) * 1e3, counts.uops,
                counts.native, counts.called, counts.loops,
                stored ? "; written to the cache" : "", background ? "; in the background" : "");
    ready(f, v, c);
}

emu_jit_entry emu_jit_compiled_now(const emu_func *cf, int v)
{
    emu_jit_entry e = atomic_load_explicit(&cf->jit_entry[v], memory_order_acquire);
    if (e) return e;
    emu_func *f = (emu_func *)cf;   /* the module's own, writable storage */
    if (atomic_load(&f->jit_status[v]) == EMU_JIT_FAILED) return NULL;
    pthread_mutex_lock(&jit_lock);
    bool asked;
    if (leave_first(f, v, false, &asked)) {
        pthread_mutex_unlock(&jit_lock);
        tell_first_wanted(asked);
        return atomic_load_explicit(&f->jit_entry[v], memory_order_acquire);
    }
    /* a background compile of it finishes first */
    while (compiling == f && compiling_variant == v) pthread_cond_wait(&jit_cond, &jit_lock);
    if (atomic_load(&f->jit_status[v]) != EMU_JIT_READY &&
        atomic_load(&f->jit_status[v]) != EMU_JIT_FAILED)
        compile(f, v, &asked);
    pthread_mutex_unlock(&jit_lock);
    tell_first_wanted(asked);
    return atomic_load_explicit(&f->jit_entry[v], memory_order_acquire);
}

static void worker_shutdown(void);

static void *worker_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&jit_lock);
    for (;;) {
        while (!queue_head && !worker_stop) pthread_cond_wait(&jit_cond, &jit_lock);
        if (worker_stop) break;
        pending *p = queue_head;
        queue_head = p->next;
        if (!queue_head) queue_tail = NULL;
        compiling = p->f;
        compiling_variant = p->variant;
        free(p);
        bool asked;   /* never: this thread compiles only after the first compile */
        if (atomic_load(&compiling->jit_status[compiling_variant]) == EMU_JIT_QUEUED)
            compile(compiling, compiling_variant, &asked);
        assert(!asked);
        /* LLVM registers some of its static objects' destructors when it first uses them,
         * during a compile; exit() runs those before the handlers registered earlier. So the
         * handler that stops this thread is registered again after each compile, to run before
         * every destructor registered so far. */
        atexit(worker_shutdown);
        compiling = NULL;
        pthread_cond_broadcast(&jit_cond);
    }
    pthread_mutex_unlock(&jit_lock);
    return NULL;
}

/* At exit, the background thread stops between compiles (LLVM's own destructors run next). */
static void worker_shutdown(void)
{
    pthread_mutex_lock(&jit_lock);
    worker_stop = true;
    pthread_cond_broadcast(&jit_cond);
    while (compiling) pthread_cond_wait(&jit_cond, &jit_lock);
    pthread_mutex_unlock(&jit_lock);
}

/* Warp instructions f runs on the interpreter before auto compiles it: the threshold for a
 * function of up to JIT_HOT_UNIT µops, and (µops / JIT_HOT_UNIT)^2 times it for a larger one.
 * Compiling takes longer than the size grows (a 123-µop kernel 0.3 s, a 1538-µop one 10-15 s
 * of CPU), and a program that runs a big function briefly should not pay for it. */
#define JIT_HOT_UNIT 64
static uint64_t hot_threshold(const emu_func *f)
{
    uint64_t units = (f->code.n + JIT_HOT_UNIT - 1) / JIT_HOT_UNIT;
    if (units < 1) units = 1;
    return opts.hot_instructions * units * units;
}

static emu_jit_entry heated(emu_func *f, uint64_t heat, int v, bool foreseen);

/* Auto with events (a cycle model's runs) takes a function's event variant at once where a
 * cache has its code: linking it costs about a millisecond, and compiled timed runs cost less
 * than interpreted ones (the six timing anchors), but compiling it costs more than a launch
 * below the threshold saves (timed matmul 256 saves ~30 ms; its event variant compiles in
 * ~450 ms CPU), so a miss leaves it to its heat. Looked for once per function, in the
 * foreground (a link, not a compile); the choice never changes what runs (executors are
 * interchangeable). The plain variant keeps the threshold alone: timing off, a kernel's first
 * warps run interpreted as they did. */
static void probe_cached(emu_func *f, int v)
{
    if (v != EMU_JIT_EVENTS || !opts.cache_dir || atomic_load_explicit(&f->jit_probed, memory_order_relaxed))
        return;
    /* linking is LLVM's work too: a device thread leaves it until a link elsewhere (and
     * looks again at its next count) */
    if (device_thread && !atomic_load(&warmed) && !atomic_load(&linked)) return;
    pthread_mutex_lock(&jit_lock);
    if (!atomic_load(&f->jit_probed) && atomic_load(&f->jit_status[v]) == EMU_JIT_NONE &&
        !(compiling == f && compiling_variant == v)) {
        atomic_store(&f->jit_probed, true);
        if (!exiting && jit_init()) {
            emu_jit_key key = code_key(f, v);
            char symbol[64];
            emu_jit_key_hex(&key, symbol + snprintf(symbol, sizeof symbol, "ptxsim_jit_"));
            cached_code(f, v, &key, symbol, now_seconds());
            llvm_work_done();
        }
    }
    pthread_mutex_unlock(&jit_lock);
}

emu_jit_entry emu_jit_warm(const emu_func *cf, uint64_t n, int v)
{
    emu_func *f = (emu_func *)cf;
    if (atomic_load_explicit(&f->jit_status[v], memory_order_relaxed) == EMU_JIT_NONE) probe_cached(f, v);
    if (atomic_load_explicit(&f->jit_status[v], memory_order_relaxed) != EMU_JIT_NONE)
        return atomic_load_explicit(&f->jit_entry[v], memory_order_acquire);
    uint64_t heat = atomic_fetch_add_explicit(&f->jit_heat, n, memory_order_relaxed) + n;
    return heated(f, heat, v, false);
}

emu_jit_entry emu_jit_foresee(const emu_func *cf, uint64_t launch, int v)
{
    emu_func *f = (emu_func *)cf;
    if (atomic_load_explicit(&f->jit_status[v], memory_order_relaxed) != EMU_JIT_NONE)
        return atomic_load_explicit(&f->jit_entry[v], memory_order_acquire);
    uint64_t heat = atomic_load_explicit(&f->jit_heat, memory_order_relaxed);
    return heated(f, heat + launch < heat ? UINT64_MAX : heat + launch, v, true);
}

/* f's variant v has run (or, foreseen, will have run by its launch's end) heat warp
 * instructions: compiled once that passes its threshold */
static emu_jit_entry heated(emu_func *f, uint64_t heat, int v, bool foreseen)
{
    if (heat < hot_threshold(f)) return NULL;
    /* The process's first compile runs here, in the foreground: LLVM registers destructors of
     * static objects as it first uses them, and exit() runs those before any handler
     * registered earlier, so a background compile still running at exit could find them
     * destroyed. After one compile on this thread they exist, and the background thread's exit
     * handler, registered after them (and again after each of its compiles), runs first. */
    if (opts.foreground || !atomic_load(&warmed)) {
        /* queued for this thread: another host thread that finds it hot meanwhile goes on
         * interpreting rather than starting the same compile */
        pthread_mutex_lock(&jit_lock);
        bool asked, left = leave_first(f, v, foreseen, &asked);
        bool mine = !left && atomic_load(&f->jit_status[v]) == EMU_JIT_NONE;
        if (mine) {
            atomic_store(&f->jit_status[v], EMU_JIT_QUEUED);
            if (foreseen) totals.foreseen++;
        }
        pthread_mutex_unlock(&jit_lock);
        tell_first_wanted(asked);
        return mine ? emu_jit_compiled_now(f, v)
                    : atomic_load_explicit(&f->jit_entry[v], memory_order_acquire);
    }
    pthread_mutex_lock(&jit_lock);
    if (atomic_load(&f->jit_status[v]) == EMU_JIT_NONE && !worker_stop) {
        pending *p = malloc(sizeof *p);
        if (!worker_started) {
            /* LLVM's code generation recurses deeply on 32-lane vectors: a main thread's stack */
            pthread_attr_t attr;
            pthread_attr_init(&attr);
            pthread_attr_setstacksize(&attr, (size_t)64 << 20);
            int made = pthread_create(&worker, &attr, worker_main, NULL);
            pthread_attr_destroy(&attr);
            if (made == 0) {
                pthread_detach(worker);
                atexit(worker_shutdown);
                worker_started = true;
            }
        }
        if (p && worker_started) {
            p->f = f;
            p->variant = v;
            p->next = NULL;
            if (queue_tail) queue_tail->next = p;
            else queue_head = p;
            queue_tail = p;
            atomic_store(&f->jit_status[v], EMU_JIT_QUEUED);
            if (foreseen) totals.foreseen++;
            pthread_cond_broadcast(&jit_cond);
        } else {
            free(p);
            atomic_store(&f->jit_status[v], EMU_JIT_FAILED);
        }
    }
    pthread_mutex_unlock(&jit_lock);
    return atomic_load_explicit(&f->jit_entry[v], memory_order_acquire);
}

void emu_jit_forget(emu_func *f)
{
    pthread_mutex_lock(&jit_lock);
    while (compiling == f) pthread_cond_wait(&jit_cond, &jit_lock);
    for (pending **pp = &queue_head; *pp;) {
        if ((*pp)->f == f) {
            pending *p = *pp;
            *pp = p->next;
            free(p);
        } else {
            pp = &(*pp)->next;
        }
    }
    queue_tail = NULL;
    for (pending *p = queue_head; p; p = p->next) queue_tail = p;
    if (first_wanted == f) {
        first_wanted = NULL;
        atomic_store(&first_pending, false);
    }
    for (int v = 0; v < EMU_JIT_VARIANTS; v++) {
        if (f->jit_owner[v]) {
            /* at exit (modules unloaded by the program's last handlers) LLVM is left alone */
            if (!exiting) code_release(f->jit_owner[v]);
            f->jit_owner[v] = NULL;
        }
        atomic_store(&f->jit_entry[v], NULL);
        atomic_store(&f->jit_status[v], EMU_JIT_NONE);
    }
    atomic_store(&f->jit_probed, false);
    pthread_mutex_unlock(&jit_lock);
}

bool emu_jit_serve_first(void)
{
    if (device_thread || !atomic_load_explicit(&first_pending, memory_order_acquire)) return false;
    pthread_mutex_lock(&jit_lock);
    emu_func *f = first_wanted;
    int v = first_wanted_variant;
    first_wanted = NULL;
    atomic_store(&first_pending, false);
    /* once a compile has run, the asking thread compiles it itself at its next count */
    bool mine = f && !atomic_load(&warmed) && atomic_load(&f->jit_status[v]) == EMU_JIT_NONE;
    if (mine) {
        atomic_store(&f->jit_status[v], EMU_JIT_QUEUED);
        if (first_wanted_foreseen) totals.foreseen++;
    }
    pthread_mutex_unlock(&jit_lock);
    /* f stays loaded: unloading its module takes the runtime's lock, which the caller holds */
    if (mine) emu_jit_compiled_now(f, v);
    return mine;
}

void emu_jit_launching(const emu_module *mod, const ptx_function *kernel, emu_executor executor,
                       bool events)
{
    if (device_thread) return;
    const emu_func *f = mod && kernel ? emu_module_func_by_ptx(mod, kernel) : NULL;
    if (f && !atomic_load(&warmed)) {
        if (executor == EMU_EXECUTOR_JIT)
            emu_jit_compiled_now(f, events ? EMU_JIT_EVENTS : EMU_JIT_PLAIN);
        else if (executor == EMU_EXECUTOR_AUTO && events && !atomic_load(&linked))
            probe_cached((emu_func *)f, EMU_JIT_EVENTS);
    }
    emu_jit_serve_first();
}
