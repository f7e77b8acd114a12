/* gpu_models.c: the GPUs ptxsim can pose as (PTXSIM_GPU): what cudaGetDeviceProperties reports
 * and how many SMs the engine schedules on. Values are the real boards' published ones. */
#include "runtime/rt_internal.h"

#include <string.h>

#define KiB 1024u
#define MiB (1024u * 1024u)
#define GiB (1024ull * 1024u * 1024u)

const rt_gpu_model rt_gpu_models[] = {
    /* name      description                               cc    SMs thr/SM blk/SM regs/SM regs/blk smem/SM    optin      L2          memory    clock    memclock bus */
    {"gtx480",    "Fermi GTX 480 (the papers' figures)",    2, 0,  15, 1536,  8,  32768, 32768, 48 * KiB,  48 * KiB,  768 * KiB,  3 * GiB / 2, 1401000, 1848000, 384},
    {"v100",      "Volta V100",                             7, 0,  80, 2048, 32,  65536, 65536, 96 * KiB,  96 * KiB,  6 * MiB,   16 * GiB, 1530000,  877000, 4096},
    {"rtx2080ti", "Turing RTX 2080 Ti",                     7, 5,  68, 1024, 16,  65536, 65536, 64 * KiB,  64 * KiB,  5632 * KiB, 11 * GiB, 1545000, 7000000, 352},
    {"a100",      "Ampere A100",                            8, 0, 108, 2048, 32,  65536, 65536, 164 * KiB, 163 * KiB, 40 * MiB,  40 * GiB, 1410000, 1215000, 5120},
    {"rtx4090",   "Ada RTX 4090",                           8, 9, 128, 1536, 24,  65536, 65536, 100 * KiB, 99 * KiB,  72 * MiB,  24 * GiB, 2520000, 10501000, 384},
    {"h100",      "Hopper H100",                            9, 0, 132, 2048, 32,  65536, 65536, 228 * KiB, 227 * KiB, 50 * MiB,  80 * GiB, 1980000, 2619000, 5120},
};
const size_t rt_gpu_model_count = sizeof rt_gpu_models / sizeof rt_gpu_models[0];

const rt_gpu_model *rt_gpu_model_find(const char *name)
{
    for (size_t i = 0; i < rt_gpu_model_count; i++)
        if (strcmp(rt_gpu_models[i].name, name) == 0)
            return &rt_gpu_models[i];
    return NULL;
}
