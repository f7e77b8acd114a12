/* engine.c: compiling functions with ORC LLJIT, now (executor jit) or on a background thread
 * once they are hot (executor auto), and releasing their code when the module goes.
 *
 * One LLJIT for the process, made on first use. Each function is its own LLVM module with its
 * own resource tracker, so its code can be dropped alone when its module unloads; it is
 * optimised lightly for the host CPU (compile time matters more than the last tenth of speed:
 * see compile()), with no fast-math flags (the IR has none to give). Compiles are
 * serialised by one lock: they are rare, and LLVM's memory is the limit, not its threads. */
#include "emulator/jit/jit_internal.h"

#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t jit_cond = PTHREAD_COND_INITIALIZER;
static LLVMOrcLLJITRef jit;
static LLVMTargetMachineRef tm;
static bool jit_broken;           /* LLJIT could not be made: nothing compiles */
static uint64_t jit_serial;
static emu_jit_options opts = { .verbose = 0, .hot_instructions = 50000 };

/* the background compiler (executor auto) */
typedef struct pending { emu_func *f; struct pending *next; } pending;
static pending *queue_head, *queue_tail;
static emu_func *compiling;       /* the function the background thread compiles now */
static bool worker_started, worker_stop;
static pthread_t worker;

/* totals for emu_jit_stats */
static emu_jit_stats totals;
static atomic_bool warmed;        /* a compile has finished in this process */

void emu_jit_configure(const emu_jit_options *o)
{
    pthread_mutex_lock(&jit_lock);
    opts = *o;
    if (opts.hot_instructions == 0) opts.hot_instructions = 1;
    pthread_mutex_unlock(&jit_lock);
}

void emu_jit_get_stats(emu_jit_stats *out)
{
    pthread_mutex_lock(&jit_lock);
    *out = totals;
    pthread_mutex_unlock(&jit_lock);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void report(const char *what, LLVMErrorRef e)
{
    char *msg = LLVMGetErrorMessage(e);
    fprintf(stderr, "ptxsim: jit: %s: %s\n", what, msg);
    LLVMDisposeErrorMessage(msg);
}

/* Makes the LLJIT (under jit_lock). */
static bool jit_init(void)
{
    if (jit) return true;
    if (jit_broken) return false;
    jit_broken = true;
    if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter()) {
        fprintf(stderr, "ptxsim: jit: LLVM has no target for this host\n");
        return false;
    }
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetRef target;
    char *terr = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &terr)) {
        fprintf(stderr, "ptxsim: jit: %s\n", terr ? terr : "no target");
        LLVMDisposeMessage(terr);
        LLVMDisposeMessage(triple);
        return false;
    }
    char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
    /* instruction selection and register allocation on 32-lane vectors dominate compile time:
     * the fast ones take a third of the time of the default ones, for code within about a tenth
     * as fast (measured on tests/cuda/matmul_tiled.cu and bench/programs/mandelbrot.cu) */
    LLVMCodeGenOptLevel level = LLVMCodeGenLevelNone;
    /* one machine for the optimiser's cost model, one (the same) that LLJIT owns */
    tm = LLVMCreateTargetMachine(target, triple, cpu, features, level, LLVMRelocDefault,
                                 LLVMCodeModelJITDefault);
    LLVMTargetMachineRef jtm = LLVMCreateTargetMachine(target, triple, cpu, features, level,
                                                       LLVMRelocDefault, LLVMCodeModelJITDefault);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    LLVMDisposeMessage(triple);
    if (!tm || !jtm) return false;
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
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(jit), gen);
    jit_broken = false;
    return true;
}

/* Compiles f (under jit_lock); sets its status and entry. */
static void compile(emu_func *f)
{
    if (!jit_init()) {
        atomic_store(&f->jit_status, EMU_JIT_FAILED);
        return;
    }
    double t0 = now_seconds();
    char name[64], err[256] = "";
    snprintf(name, sizeof name, "ptxsim_jit_%llu", (unsigned long long)++jit_serial);
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    LLVMContextRef cx = LLVMOrcThreadSafeContextGetContext(tsc);
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext(name, cx);
    LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(m, dl);
    LLVMDisposeTargetData(dl);
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(m, triple);
    LLVMDisposeMessage(triple);
    emu_jit_counts counts;
    bool ok = emu_jit_translate(f, m, name, &counts, err, sizeof err);
    char *verr = NULL;
    if (ok && LLVMVerifyModule(m, LLVMReturnStatusAction, &verr)) {
        snprintf(err, sizeof err, "LLVM rejects the translation: %.200s", verr ? verr : "?");
        ok = false;
    }
    LLVMDisposeMessage(verr);
    double t_opt = now_seconds();
    if (ok) {
        LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
        /* what the translation needs: its slots in registers, a register row loaded once per
         * block, constants folded, the µop chain's branches simplified (O2 takes four times as
         * long for no measurable gain). None of these passes changes a float result: the IR
         * carries no fast-math flags, and every f32 NaN is canonicalised after it is made. */
        LLVMErrorRef e =
            LLVMRunPasses(m, "function(sroa,early-cse,instcombine,simplifycfg)", tm, po);
        LLVMDisposePassBuilderOptions(po);
        if (e) {
            char *msg = LLVMGetErrorMessage(e);
            snprintf(err, sizeof err, "optimising: %.200s", msg);
            LLVMDisposeErrorMessage(msg);
            ok = false;
        }
    }
    if (!ok) {
        LLVMDisposeModule(m);
        LLVMOrcDisposeThreadSafeContext(tsc);
        totals.failed++;
        if (opts.verbose)
            fprintf(stderr, "ptxsim: jit: %s stays on the interpreter: %s\n", f->fn->name, err);
        atomic_store(&f->jit_status, EMU_JIT_FAILED);
        return;
    }
    double t_gen = now_seconds();
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(m, tsc);
    LLVMOrcDisposeThreadSafeContext(tsc);
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(jit);
    LLVMOrcResourceTrackerRef rt = LLVMOrcJITDylibCreateResourceTracker(jd);
    LLVMErrorRef e = LLVMOrcLLJITAddLLVMIRModuleWithRT(jit, rt, tsm);
    LLVMOrcExecutorAddress addr = 0;
    if (!e) e = LLVMOrcLLJITLookup(jit, &addr, name);
    if (e || !addr) {
        if (e) report(f->fn->name, e);
        LLVMOrcResourceTrackerRemove(rt);
        LLVMOrcReleaseResourceTracker(rt);
        totals.failed++;
        atomic_store(&f->jit_status, EMU_JIT_FAILED);
        return;
    }
    double dt = now_seconds() - t0;
    totals.functions++;
    totals.seconds += dt;
    totals.uops += counts.uops;
    totals.native += counts.native;
    if (opts.verbose)
        fprintf(stderr, "ptxsim: jit: compiled %s in %.1f ms (translating %.1f, optimising %.1f, "
                        "code generation %.1f; %u instructions, %u translated, %u through their "
                        "handler)\n",
                f->fn->name, dt * 1e3, (t_opt - t0) * 1e3, (t_gen - t_opt) * 1e3,
                (now_seconds() - t_gen) * 1e3, counts.uops, counts.native, counts.called);
    atomic_store(&warmed, true);
    f->jit_owner = rt;
    atomic_store_explicit(&f->jit_entry, (emu_jit_entry)(uintptr_t)addr, memory_order_release);
    atomic_store(&f->jit_status, EMU_JIT_READY);
}

emu_jit_entry emu_jit_compiled_now(const emu_func *cf)
{
    emu_jit_entry e = atomic_load_explicit(&cf->jit_entry, memory_order_acquire);
    if (e) return e;
    emu_func *f = (emu_func *)cf;   /* the module's own, writable storage */
    if (atomic_load(&f->jit_status) == EMU_JIT_FAILED) return NULL;
    pthread_mutex_lock(&jit_lock);
    /* a background compile of it finishes first */
    while (compiling == f) pthread_cond_wait(&jit_cond, &jit_lock);
    if (atomic_load(&f->jit_status) != EMU_JIT_READY && atomic_load(&f->jit_status) != EMU_JIT_FAILED)
        compile(f);
    pthread_mutex_unlock(&jit_lock);
    return atomic_load_explicit(&f->jit_entry, memory_order_acquire);
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
        free(p);
        if (atomic_load(&compiling->jit_status) == EMU_JIT_QUEUED) compile(compiling);
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

emu_jit_entry emu_jit_warm(const emu_func *cf, uint64_t n)
{
    emu_func *f = (emu_func *)cf;
    if (atomic_load_explicit(&f->jit_status, memory_order_relaxed) != EMU_JIT_NONE)
        return atomic_load_explicit(&f->jit_entry, memory_order_acquire);
    uint64_t heat = atomic_fetch_add_explicit(&f->jit_heat, n, memory_order_relaxed) + n;
    if (heat < opts.hot_instructions) return NULL;
    /* The process's first compile runs here, in the foreground: LLVM registers destructors of
     * static objects as it first uses them, and exit() runs those before any handler
     * registered earlier, so a background compile still running at exit could find them
     * destroyed. After one compile on this thread they exist, and the background thread's exit
     * handler, registered after them (and again after each of its compiles), runs first. */
    if (opts.foreground || !atomic_load(&warmed)) return emu_jit_compiled_now(f);
    pthread_mutex_lock(&jit_lock);
    if (atomic_load(&f->jit_status) == EMU_JIT_NONE && !worker_stop) {
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
            p->next = NULL;
            if (queue_tail) queue_tail->next = p;
            else queue_head = p;
            queue_tail = p;
            atomic_store(&f->jit_status, EMU_JIT_QUEUED);
            pthread_cond_broadcast(&jit_cond);
        } else {
            free(p);
            atomic_store(&f->jit_status, EMU_JIT_FAILED);
        }
    }
    pthread_mutex_unlock(&jit_lock);
    return atomic_load_explicit(&f->jit_entry, memory_order_acquire);
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
    if (f->jit_owner) {
        LLVMOrcResourceTrackerRef rt = f->jit_owner;
        LLVMErrorRef e = LLVMOrcResourceTrackerRemove(rt);
        if (e) LLVMConsumeError(e);
        LLVMOrcReleaseResourceTracker(rt);
        f->jit_owner = NULL;
    }
    atomic_store(&f->jit_entry, NULL);
    atomic_store(&f->jit_status, EMU_JIT_NONE);
    pthread_mutex_unlock(&jit_lock);
}
