/* dump.c: what the JIT generates, for whoever tunes it (never on by default).
 * - PTXSIM_JIT_DUMP=DIR: each function compiled (not one loaded from the disk cache: run with
 *   --jit-cache=off) leaves DIR/<symbol>.ll (its IR after the pass pipeline, as code generation
 *   gets it), DIR/<symbol>.s and DIR/<symbol>.o (the assembly and the object of a copy of it,
 *   from the same target machine: `objdump -d` of the .o gives the offsets perf reports), and
 *   DIR/<symbol>.txt naming the kernel;
 * - PTXSIM_JIT_PERF_MAP=1: each function linked (compiled or loaded) gets a line in
 *   /tmp/perf-<pid>.map (perf's format for code made at run time: start, size, name), so
 *   `perf report` names the compiled code instead of showing bare addresses; an address's offset
 *   in the function is its offset in the .s file's function. */
#include "emulator/jit/jit_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *dump_dir(void)
{
    const char *d = getenv("PTXSIM_JIT_DUMP");
    return d && *d ? d : NULL;
}

static void write_text(const char *dir, const char *symbol, const char *ext, const char *text,
                       size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%s", dir, symbol, ext);
    FILE *fp = fopen(path, "w");
    if (!fp) {
        fprintf(stderr, "ptxsim: jit: cannot write %s (PTXSIM_JIT_DUMP)\n", path);
        return;
    }
    fwrite(text, 1, n, fp);
    fclose(fp);
}

void emu_jit_dump_module(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *symbol,
                         const char *fname)
{
    const char *dir = dump_dir();
    if (!dir) return;
    write_text(dir, symbol, "txt", fname, strlen(fname));
    char *ir = LLVMPrintModuleToString(m);
    write_text(dir, symbol, "ll", ir, strlen(ir));
    LLVMDisposeMessage(ir);
    /* the assembly names each block's IR block (`# %name`), which maps perf's offsets to µops */
    LLVMSetTargetMachineAsmVerbosity(tm, 1);
    /* code generation changes the module it runs on: the assembly comes from a copy */
    for (int k = 0; k < 2; k++) {
        LLVMModuleRef copy = LLVMCloneModule(m);
        LLVMMemoryBufferRef s = NULL;
        char *msg = NULL;
        if (!LLVMTargetMachineEmitToMemoryBuffer(tm, copy, k ? LLVMObjectFile : LLVMAssemblyFile,
                                                 &msg, &s)) {
            write_text(dir, symbol, k ? "o" : "s", LLVMGetBufferStart(s), LLVMGetBufferSize(s));
            LLVMDisposeMemoryBuffer(s);
        }
        LLVMDisposeMessage(msg);
        LLVMDisposeModule(copy);
    }
}

uint64_t emu_jit_symbol_size(LLVMMemoryBufferRef obj, const char *symbol)
{
    const char *on = getenv("PTXSIM_JIT_PERF_MAP");
    if (!on || strcmp(on, "1") != 0) return 0;
    char *msg = NULL;
    LLVMBinaryRef bin = LLVMCreateBinary(obj, NULL, &msg);
    LLVMDisposeMessage(msg);
    if (!bin) return 0;
    uint64_t size = 0;
    LLVMSymbolIteratorRef it = LLVMObjectFileCopySymbolIterator(bin);
    for (; !LLVMObjectFileIsSymbolIteratorAtEnd(bin, it); LLVMMoveToNextSymbol(it))
        if (strcmp(LLVMGetSymbolName(it), symbol) == 0) size = LLVMGetSymbolSize(it);
    LLVMDisposeSymbolIterator(it);
    LLVMDisposeBinary(bin);
    return size;
}

void emu_jit_perf_map(uint64_t addr, uint64_t size, const char *symbol, const char *fname)
{
    if (!size) return;
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
    FILE *fp = fopen(path, "a");
    if (!fp) return;
    fprintf(fp, "%llx %llx %s[%s]\n", (unsigned long long)addr, (unsigned long long)size, symbol,
            fname);
    fclose(fp);
}
