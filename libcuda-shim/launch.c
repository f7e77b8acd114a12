/* launch.c: kernel launches (cuLaunchKernel, cuLaunchKernelEx, cooperative), the pre-CUDA-4
 * launch calls that set a function's block shape, shared memory and parameters one call at a
 * time (cuFuncSetBlockShape, cuParamSet*, cuLaunchGrid), and the occupancy queries. Every
 * launch goes through the runtime's launch path (runtime/launch.c), so it is checked and
 * queued on its stream exactly as a runtime launch is. */
#include "libcuda-shim/driver.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(CUlaunchAttribute) == sizeof(cudaLaunchAttribute),
               "CUlaunchAttribute and cudaLaunchAttribute are laid out alike");

static CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                       unsigned by, unsigned bz, unsigned smem, cudaStream_t stream,
                       void **params, void **extra, const CUlaunchAttribute *attrs,
                       unsigned nattrs, bool cooperative, const char *api)
{
    DRV_CHECK(drv_context());
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    return DRV(rt_launch_driver(f, (dim3){gx, gy, gz}, (dim3){bx, by, bz}, smem, stream, params,
                                extra, (const cudaLaunchAttribute *)attrs, nattrs, cooperative,
                                api));
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                        unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                        unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                        void **kernelParams, void **extra)
{
    return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                  sharedMemBytes, hStream, kernelParams, extra, NULL, 0, false,
                  "cuLaunchKernel");
}

CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                             unsigned int gridDimZ, unsigned int blockDimX,
                             unsigned int blockDimY, unsigned int blockDimZ,
                             unsigned int sharedMemBytes, CUstream hStream,
                             void **kernelParams, void **extra)
{
    return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                  sharedMemBytes, PTSZ(hStream), kernelParams, extra, NULL, 0, false,
                  "cuLaunchKernel");
}

static CUresult launch_ex(const CUlaunchConfig *c, CUfunction f, void **params, void **extra,
                          bool per_thread)
{
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    return launch(f, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY,
                  c->blockDimZ, c->sharedMemBytes, per_thread ? PTSZ(c->hStream) : c->hStream,
                  params, extra, c->attrs, c->numAttrs, false, "cuLaunchKernelEx");
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                          void **extra)
{
    return launch_ex(config, f, kernelParams, extra, false);
}

CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                               void **extra)
{
    return launch_ex(config, f, kernelParams, extra, true);
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                   unsigned int gridDimZ, unsigned int blockDimX,
                                   unsigned int blockDimY, unsigned int blockDimZ,
                                   unsigned int sharedMemBytes, CUstream hStream,
                                   void **kernelParams)
{
    return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                  sharedMemBytes, hStream, kernelParams, NULL, NULL, 0, true,
                  "cuLaunchCooperativeKernel");
}

CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX,
                                        unsigned int gridDimY, unsigned int gridDimZ,
                                        unsigned int blockDimX, unsigned int blockDimY,
                                        unsigned int blockDimZ, unsigned int sharedMemBytes,
                                        CUstream hStream, void **kernelParams)
{
    return launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                  sharedMemBytes, PTSZ(hStream), kernelParams, NULL, NULL, 0, true,
                  "cuLaunchCooperativeKernel");
}

/* ---------------------------------------------------------------- the pre-CUDA-4 launch */

/* What the old calls set on a function: kept per function (not per thread), as the driver
 * keeps it, until the next launch uses it. */
typedef struct legacy_setup {
    CUfunction f;
    int block[3];
    unsigned shared;
    uint8_t params[4096];       /* CUDA's limit on a kernel's parameter block */
    size_t param_size;
} legacy_setup;

static legacy_setup *setups;
static size_t nsetups, cap_setups;
static pthread_mutex_t setups_lock = PTHREAD_MUTEX_INITIALIZER;

/* The setup of f (made on first use), or NULL when out of memory. Lock held. */
static legacy_setup *setup_of(CUfunction f)
{
    for (size_t i = 0; i < nsetups; i++)
        if (setups[i].f == f)
            return &setups[i];
    if (nsetups == cap_setups) {
        size_t ncap = cap_setups ? cap_setups * 2 : 8;
        legacy_setup *a = realloc(setups, ncap * sizeof *a);
        if (!a)
            return NULL;
        setups = a;
        cap_setups = ncap;
    }
    legacy_setup *s = &setups[nsetups++];
    memset(s, 0, sizeof *s);
    s->f = f;
    s->block[0] = s->block[1] = s->block[2] = 1;
    return s;
}

/* Checks f and applies `set` to its setup under the lock. */
#define WITH_SETUP(f, statement)                                                             \
    do {                                                                                      \
        DRV_CHECK(drv_context());                                                             \
        CUresult r_ = DRV(rt_kernel_info((f), NULL, NULL));                                   \
        if (r_ != CUDA_SUCCESS)                                                               \
            return r_;                                                                        \
        pthread_mutex_lock(&setups_lock);                                                     \
        legacy_setup *s = setup_of(f);                                                        \
        if (!s) {                                                                             \
            pthread_mutex_unlock(&setups_lock);                                               \
            return CUDA_ERROR_OUT_OF_MEMORY;                                                  \
        }                                                                                     \
        statement;                                                                            \
        pthread_mutex_unlock(&setups_lock);                                                   \
        return r_;                                                                            \
    } while (0)

CUresult cuFuncSetBlockShape(CUfunction hfunc, int x, int y, int z)
{
    if (x <= 0 || y <= 0 || z <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    WITH_SETUP(hfunc, (s->block[0] = x, s->block[1] = y, s->block[2] = z));
}

CUresult cuFuncSetSharedSize(CUfunction hfunc, unsigned int bytes)
{
    WITH_SETUP(hfunc, s->shared = bytes);
}

CUresult cuParamSetSize(CUfunction hfunc, unsigned int numbytes)
{
    if (numbytes > sizeof ((legacy_setup *)0)->params)
        return CUDA_ERROR_INVALID_VALUE;
    WITH_SETUP(hfunc, s->param_size = numbytes);
}

static CUresult set_param(CUfunction f, int offset, const void *p, unsigned n)
{
    if (offset < 0 || !p || (size_t)offset + n > sizeof ((legacy_setup *)0)->params)
        return CUDA_ERROR_INVALID_VALUE;
    WITH_SETUP(f, memcpy(s->params + offset, p, n));
}

CUresult cuParamSeti(CUfunction hfunc, int offset, unsigned int value)
{
    return set_param(hfunc, offset, &value, sizeof value);
}

CUresult cuParamSetf(CUfunction hfunc, int offset, float value)
{
    return set_param(hfunc, offset, &value, sizeof value);
}

CUresult cuParamSetv(CUfunction hfunc, int offset, void *ptr, unsigned int numbytes)
{
    return set_param(hfunc, offset, ptr, numbytes);
}

/* Launches f with its setup on a grid of w x h blocks: the parameters go as one packed buffer
 * (CU_LAUNCH_PARAM_BUFFER_POINTER), laid out by the program as the PTX .param block is. */
static CUresult legacy_launch(CUfunction f, int w, int h, cudaStream_t stream, const char *api)
{
    if (w <= 0 || h <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    DRV_CHECK(drv_context());
    CUresult r = DRV(rt_kernel_info(f, NULL, NULL));
    if (r != CUDA_SUCCESS)
        return r;
    pthread_mutex_lock(&setups_lock);
    legacy_setup *s = setup_of(f);
    legacy_setup copy;
    if (s)
        copy = *s;
    pthread_mutex_unlock(&setups_lock);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    size_t size = copy.param_size;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, copy.params, CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &size, CU_LAUNCH_PARAM_END};
    return launch(f, (unsigned)w, (unsigned)h, 1, (unsigned)copy.block[0],
                  (unsigned)copy.block[1], (unsigned)copy.block[2], copy.shared, stream, NULL,
                  extra, NULL, 0, false, api);
}

CUresult cuLaunch(CUfunction f)
{
    return legacy_launch(f, 1, 1, 0, "cuLaunch");
}

CUresult cuLaunchGrid(CUfunction f, int grid_width, int grid_height)
{
    return legacy_launch(f, grid_width, grid_height, 0, "cuLaunchGrid");
}

CUresult cuLaunchGridAsync(CUfunction f, int grid_width, int grid_height, CUstream hStream)
{
    return legacy_launch(f, grid_width, grid_height, hStream, "cuLaunchGridAsync");
}

/* ---------------------------------------------------------------- occupancy */

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func,
                                                              int blockSize,
                                                              size_t dynamicSMemSize,
                                                              unsigned int flags)
{
    DRV_CHECK(drv_context());
    if (flags & ~(unsigned)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE)
        return CUDA_ERROR_INVALID_VALUE;
    return DRV(rt_occupancy_max_blocks(numBlocks, func, blockSize, dynamicSMemSize, flags));
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func,
                                                     int blockSize, size_t dynamicSMemSize)
{
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                dynamicSMemSize, 0);
}

/* The search of cuda_runtime.h's cudaOccupancyMaxPotentialBlockSizeVariableSMem: every block
 * size that is a multiple of the warp size, largest first, until one fills the SM. */
CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
                                                   CUfunction func,
                                                   CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                   size_t dynamicSMemSize, int blockSizeLimit,
                                                   unsigned int flags)
{
    DRV_CHECK(drv_context());
    if (!minGridSize || !blockSize || !func)
        return CUDA_ERROR_INVALID_VALUE;
    int fmax = 0, smmax = 0, sms = 0;
    CUresult r = cuFuncGetAttribute(&fmax, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, func);
    if (r == CUDA_SUCCESS)
        r = cuDeviceGetAttribute(&smmax, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 0);
    if (r == CUDA_SUCCESS)
        r = cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0);
    if (r != CUDA_SUCCESS)
        return r;
    int limit = blockSizeLimit <= 0 || blockSizeLimit > fmax ? fmax : blockSizeLimit;
    int best_size = 0, best_blocks = 0, best = 0;
    for (int aligned = (limit + 31) / 32 * 32; aligned > 0; aligned -= 32) {
        int size = aligned < limit ? aligned : limit;
        size_t smem = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(size)
                                                 : dynamicSMemSize;
        int blocks = 0;
        r = cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, func, size, smem,
                                                                 flags);
        if (r != CUDA_SUCCESS)
            return r;
        if (blocks * size > best) {
            best = blocks * size;
            best_size = size;
            best_blocks = blocks;
        }
        if (best == smmax)
            break;
    }
    *minGridSize = best_blocks * sms;
    *blockSize = best_size;
    return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                          CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                          size_t dynamicSMemSize, int blockSizeLimit)
{
    return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func,
                                                     blockSizeToDynamicSMemSize, dynamicSMemSize,
                                                     blockSizeLimit, 0);
}

CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func,
                                                 int numBlocks, int blockSize)
{
    DRV_CHECK(drv_context());
    return DRV(rt_occupancy_available_smem(dynamicSmemSize, func, numBlocks, blockSize));
}
