/* module.c: modules and libraries (PTX, fatbins, files), their functions, kernels and
 * globals, function attributes, and the JIT linker (cuLink*). A CUmodule and a CUlibrary are
 * the same runtime module; a CUfunction and a CUkernel the same runtime kernel (runtime/jit.c,
 * runtime/modules.c). */
#include "libcuda-shim/driver.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* ---------------------------------------------------------------- JIT options */

/* Where a JIT caller wants its logs and the wall time (every other option is a compiler
 * setting with no meaning for PTX that is interpreted: accepted, ignored). */
typedef struct jit_logs {
    char *info, *error;
    unsigned info_size, error_size;
    int info_slot, error_slot, time_slot;   /* option index to write back, or -1 */
    bool verbose;                           /* CU_JIT_LOG_VERBOSE */
    void **values;
} jit_logs;

static CUresult read_options(unsigned n, const CUjit_option *options, void **values,
                             jit_logs *logs)
{
    memset(logs, 0, sizeof *logs);
    logs->info_slot = logs->error_slot = logs->time_slot = -1;
    logs->values = values;
    if (n && (!options || !values))
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < n; i++) {
        switch (options[i]) {
        case CU_JIT_INFO_LOG_BUFFER: logs->info = values[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER: logs->error = values[i]; break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
            logs->info_size = (unsigned)(uintptr_t)values[i];
            logs->info_slot = (int)i;
            break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
            logs->error_size = (unsigned)(uintptr_t)values[i];
            logs->error_slot = (int)i;
            break;
        case CU_JIT_WALL_TIME: logs->time_slot = (int)i; break;
        case CU_JIT_LOG_VERBOSE: logs->verbose = values[i] != NULL; break;
        default:
            if ((unsigned)options[i] >= CU_JIT_NUM_OPTIONS)
                return CUDA_ERROR_INVALID_VALUE;
            break;
        }
    }
    return CUDA_SUCCESS;
}

/* Writes a log line into a caller's buffer and the bytes used back into its option. */
static void write_log(jit_logs *logs, bool error, const char *text)
{
    /* The driver's info log stays empty unless CU_JIT_LOG_VERBOSE asks for it (a link on an
     * H100, driver 580, left it ""). */
    if (!error && !logs->verbose)
        text = "";
    char *buf = error ? logs->error : logs->info;
    unsigned size = error ? logs->error_size : logs->info_size;
    int slot = error ? logs->error_slot : logs->info_slot;
    size_t n = 0;
    if (buf && size) {
        snprintf(buf, size, "%s", text);
        n = strlen(buf) + 1;
    }
    if (slot >= 0)
        logs->values[slot] = (void *)(uintptr_t)n;
}

static void write_time(jit_logs *logs, double ms)
{
    if (logs->time_slot < 0)
        return;
    float f = (float)ms;
    void *v = NULL;
    memcpy(&v, &f, sizeof f);
    logs->values[logs->time_slot] = v;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* ---------------------------------------------------------------- modules */

static CUresult load_image(CUmodule *module, const void *image, const char *api,
                           jit_logs *logs)
{
    DRV_CHECK(drv_context());
    if (!module || !image)
        return CUDA_ERROR_INVALID_VALUE;
    double t0 = now_ms();
    CUresult r = DRV(rt_module_load_image((rt_module **)module, image, NULL, api));
    if (logs) {
        write_time(logs, now_ms() - t0);
        write_log(logs, false, r == CUDA_SUCCESS ? "ptxsim: module loaded (PTX is interpreted)"
                                                 : "");
        char msg[160];
        const char *name = NULL;
        cuGetErrorName(r, &name);
        snprintf(msg, sizeof msg, r == CUDA_SUCCESS ? "" : "ptxsim: %s failed (%s); see stderr",
                 api, name ? name : "?");
        write_log(logs, true, msg);
    }
    return r;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    return load_image(module, image, "cuModuleLoadData", NULL);
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                            CUjit_option *options, void **optionValues)
{
    jit_logs logs;
    DRV_CHECK(read_options(numOptions, options, optionValues, &logs));
    return load_image(module, image, "cuModuleLoadDataEx", &logs);
}

CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
    return load_image(module, fatCubin, "cuModuleLoadFatBinary", NULL);
}

CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    DRV_CHECK(drv_context());
    if (!module || !fname)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_module_load_file((rt_module **)module, fname, "cuModuleLoad"));
}

CUresult cuModuleUnload(CUmodule hmod)
{
    DRV_CHECK(drv_context());
    return DRV(rt_module_unload((rt_module *)hmod, "cuModuleUnload"));
}

CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
    DRV_CHECK(drv_initialized());
    if (!mode)
        return CUDA_ERROR_INVALID_VALUE;
    *mode = CU_MODULE_EAGER_LOADING;  /* modules are parsed and loaded when they are loaded */
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    DRV_CHECK(drv_context());
    return DRV(rt_module_get_function((void **)hfunc, (rt_module *)hmod, name));
}

CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
    DRV_CHECK(drv_context());
    return DRV(rt_module_get_functions((rt_module *)mod, NULL, count));
}

CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions,
                                    CUmodule mod)
{
    DRV_CHECK(drv_context());
    if (!functions)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_module_get_functions((rt_module *)mod, (void **)functions, &numFunctions));
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
    DRV_CHECK(drv_context());
    void *p = NULL;
    CUresult r = DRV(rt_module_get_global(&p, bytes, (rt_module *)hmod, name));
    if (r == CUDA_SUCCESS && dptr)
        *dptr = (CUdeviceptr)(uintptr_t)p;
    return r;
}

/* ---------------------------------------------------------------- libraries and kernels */

static CUresult check_library_options(unsigned n, const CUlibraryOption *options)
{
    for (unsigned i = 0; i < n; i++)
        if (!options || (unsigned)options[i] >= CU_LIBRARY_NUM_OPTIONS)
            return CUDA_ERROR_INVALID_VALUE;
    /* Options only say how long host-side copies must live: the library copies its PTX. */
    return CUDA_SUCCESS;
}

CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                           void **jitOptionsValues, unsigned int numJitOptions,
                           CUlibraryOption *libraryOptions, void **libraryOptionValues,
                           unsigned int numLibraryOptions)
{
    (void)libraryOptionValues;
    DRV_CHECK(drv_initialized());
    jit_logs logs;
    DRV_CHECK(read_options(numJitOptions, jitOptions, jitOptionsValues, &logs));
    DRV_CHECK(check_library_options(numLibraryOptions, libraryOptions));
    if (!library || !code)
        return CUDA_ERROR_INVALID_VALUE;
    /* A library belongs to no context; it is loaded like a module of the primary one. */
    return DRV(rt_module_load_image((rt_module **)library, code, NULL, "cuLibraryLoadData"));
}

CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                               void **jitOptionsValues, unsigned int numJitOptions,
                               CUlibraryOption *libraryOptions, void **libraryOptionValues,
                               unsigned int numLibraryOptions)
{
    (void)libraryOptionValues;
    DRV_CHECK(drv_initialized());
    jit_logs logs;
    DRV_CHECK(read_options(numJitOptions, jitOptions, jitOptionsValues, &logs));
    DRV_CHECK(check_library_options(numLibraryOptions, libraryOptions));
    if (!library || !fileName)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_module_load_file((rt_module **)library, fileName, "cuLibraryLoadFromFile"));
}

CUresult cuLibraryUnload(CUlibrary library)
{
    DRV_CHECK(drv_initialized());
    return DRV(rt_module_unload((rt_module *)library, "cuLibraryUnload"));
}

CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
    DRV_CHECK(drv_initialized());
    return DRV(rt_module_get_function((void **)pKernel, (rt_module *)library, name));
}

CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
    DRV_CHECK(drv_initialized());
    return DRV(rt_module_get_functions((rt_module *)lib, NULL, count));
}

CUresult cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib)
{
    DRV_CHECK(drv_initialized());
    if (!kernels)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_module_get_functions((rt_module *)lib, (void **)kernels, &numKernels));
}

CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
    DRV_CHECK(drv_context());
    if (!pMod)
        return CUDA_ERROR_INVALID_VALUE;
    if (!rt_module_live((rt_module *)library))
        return CUDA_ERROR_INVALID_HANDLE;
    *pMod = (CUmodule)library;
    return CUDA_SUCCESS;
}

CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
    DRV_CHECK(drv_context());
    return cuModuleGetGlobal_v2(dptr, bytes, (CUmodule)library, name);
}

CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
    /* A .managed variable lives in the unified address space like any global here. */
    return cuLibraryGetGlobal(dptr, bytes, library, name);
}

CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
    DRV_CHECK(drv_context());
    if (!pFunc)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = DRV(rt_kernel_info(kernel, NULL, NULL));
    if (r == CUDA_SUCCESS)
        *pFunc = (CUfunction)kernel;
    return r;
}

CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel)
{
    DRV_CHECK(drv_initialized());
    if (!pLib)
        return CUDA_ERROR_INVALID_VALUE;
    rt_module *m = NULL;
    CUresult r = DRV(rt_kernel_info(kernel, &m, NULL));
    if (r == CUDA_SUCCESS && !rt_module_live(m))
        r = CUDA_ERROR_INVALID_HANDLE;  /* a kernel of the program's own fatbins */
    if (r == CUDA_SUCCESS)
        *pLib = (CUlibrary)m;
    return r;
}

CUresult cuKernelGetName(const char **name, CUkernel hfunc)
{
    DRV_CHECK(drv_initialized());
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_kernel_info(hfunc, NULL, name));
}

CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset,
                              size_t *paramSize)
{
    DRV_CHECK(drv_initialized());
    return DRV(rt_kernel_param_info(kernel, paramIndex, paramOffset, paramSize));
}

/* ---------------------------------------------------------------- function attributes */

static CUresult get_attribute(int *pi, CUfunction_attribute attrib, const void *f)
{
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaFuncAttributes a;
    CUresult r = DRV(rt_func_get_attributes(&a, f));
    if (r != CUDA_SUCCESS)
        return r;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = a.maxThreadsPerBlock; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)a.sharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = (int)a.constSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)a.localSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = a.numRegs; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = a.ptxVersion; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = a.binaryVersion; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = a.cacheModeCA; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = a.maxDynamicSharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = a.preferredShmemCarveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *pi = a.clusterDimMustBeSet; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: *pi = a.requiredClusterWidth; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: *pi = a.requiredClusterHeight; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: *pi = a.requiredClusterDepth; break;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
        *pi = a.nonPortableClusterSizeAllowed;
        break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        *pi = a.clusterSchedulingPolicyPreference;
        break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    DRV_CHECK(drv_context());
    return get_attribute(pi, attrib, hfunc);
}

CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)
{
    DRV_CHECK(drv_initialized());
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return get_attribute(pi, attrib, kernel);
}

static CUresult set_attribute(const void *f, CUfunction_attribute attrib, int value)
{
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        /* numbered as cudaFuncAttribute numbers them */
        return DRV(rt_func_set_attribute(f, (enum cudaFuncAttribute)attrib, value));
    default:
        return CUDA_ERROR_INVALID_VALUE;  /* the others are read-only */
    }
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    DRV_CHECK(drv_context());
    return set_attribute(hfunc, attrib, value);
}

CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev)
{
    DRV_CHECK(drv_initialized());
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return set_attribute(kernel, attrib, val);
}

CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
    DRV_CHECK(drv_context());
    return DRV(rt_func_set_cache_config(hfunc, (enum cudaFuncCache)config));
}

CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)
{
    DRV_CHECK(drv_initialized());
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return DRV(rt_func_set_cache_config(kernel, (enum cudaFuncCache)config));
}

CUresult cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config)
{
    DRV_CHECK(drv_context());
    if ((unsigned)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_kernel_info(hfunc, NULL, NULL));  /* bank width: no functional effect */
}

CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
    DRV_CHECK(drv_context());
    if (!hmod)
        return CUDA_ERROR_INVALID_VALUE;
    rt_module *m = NULL;
    CUresult r = DRV(rt_kernel_info(hfunc, &m, NULL));
    if (r == CUDA_SUCCESS)
        *hmod = (CUmodule)m;
    return r;
}

CUresult cuFuncGetName(const char **name, CUfunction hfunc)
{
    DRV_CHECK(drv_context());
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_kernel_info(hfunc, NULL, name));
}

CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset,
                            size_t *paramSize)
{
    DRV_CHECK(drv_context());
    return DRV(rt_kernel_param_info(func, paramIndex, paramOffset, paramSize));
}

CUresult cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function)
{
    DRV_CHECK(drv_context());
    if (!state)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = DRV(rt_kernel_info(function, NULL, NULL));
    if (r == CUDA_SUCCESS)
        *state = CU_FUNCTION_LOADING_STATE_LOADED;
    return r;
}

CUresult cuFuncLoad(CUfunction function)
{
    DRV_CHECK(drv_context());
    return DRV(rt_kernel_info(function, NULL, NULL));
}

/* ---------------------------------------------------------------- the JIT linker */

typedef struct link_state {
    rt_linker *linker;
    jit_logs logs;
    double ms;
} link_state;

static CUresult link_result(link_state *s, cudaError_t e, const char *log)
{
    if (e != cudaSuccess && log[0])
        fprintf(stderr, "ptxsim: JIT link: %s\n", log);
    write_log(&s->logs, e != cudaSuccess, log);
    return drv_result(e);
}

CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues,
                         CUlinkState *stateOut)
{
    DRV_CHECK(drv_context());
    if (!stateOut)
        return CUDA_ERROR_INVALID_VALUE;
    link_state *s = calloc(1, sizeof *s);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = read_options(numOptions, options, optionValues, &s->logs);
    if (r == CUDA_SUCCESS)
        r = drv_result(rt_linker_create(&s->linker));
    if (r != CUDA_SUCCESS) {
        free(s);
        return r;
    }
    *stateOut = (CUlinkState)s;
    return CUDA_SUCCESS;
}

CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size,
                          const char *name, unsigned int numOptions, CUjit_option *options,
                          void **optionValues)
{
    DRV_CHECK(drv_context());
    link_state *s = (link_state *)state;
    if (!s || !data)
        return CUDA_ERROR_INVALID_VALUE;
    jit_logs ignored;
    DRV_CHECK(read_options(numOptions, options, optionValues, &ignored));
    char log[1024] = "";
    double t0 = now_ms();
    cudaError_t e = rt_linker_add_data(s->linker, (int)type, data, size, name, log, sizeof log);
    s->ms += now_ms() - t0;
    return link_result(s, e, log);
}

CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path,
                          unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    DRV_CHECK(drv_context());
    link_state *s = (link_state *)state;
    if (!s || !path)
        return CUDA_ERROR_INVALID_VALUE;
    jit_logs ignored;
    DRV_CHECK(read_options(numOptions, options, optionValues, &ignored));
    char log[1024] = "";
    double t0 = now_ms();
    cudaError_t e = rt_linker_add_file(s->linker, (int)type, path, log, sizeof log);
    s->ms += now_ms() - t0;
    return link_result(s, e, log);
}

CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
    DRV_CHECK(drv_context());
    link_state *s = (link_state *)state;
    if (!s || !cubinOut)
        return CUDA_ERROR_INVALID_VALUE;
    char log[1024] = "";
    double t0 = now_ms();
    cudaError_t e = rt_linker_complete(s->linker, cubinOut, sizeOut, log, sizeof log);
    s->ms += now_ms() - t0;
    write_time(&s->logs, s->ms);
    return link_result(s, e, log);
}

CUresult cuLinkDestroy(CUlinkState state)
{
    link_state *s = (link_state *)state;
    if (!s)
        return CUDA_ERROR_INVALID_HANDLE;
    rt_linker_destroy(s->linker);
    free(s);
    return CUDA_SUCCESS;
}

/* The CUDA 5.5 forms of the linker calls took the same arguments. */
CUresult cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues,
                      CUlinkState *stateOut)
{
    return cuLinkCreate_v2(numOptions, options, optionValues, stateOut);
}

CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size,
                       const char *name, unsigned int numOptions, CUjit_option *options,
                       void **optionValues)
{
    return cuLinkAddData_v2(state, type, data, size, name, numOptions, options, optionValues);
}

CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path,
                       unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    return cuLinkAddFile_v2(state, type, path, numOptions, options, optionValues);
}
