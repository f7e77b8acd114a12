/* shim.h: what the shim's own files share (no part of the exported ABI). */
#ifndef PTXSIM_SHIM_SHIM_H
#define PTXSIM_SHIM_SHIM_H

#include "runtime/rt.h"

/* True when this shim answers a CUDA 12 program: it was loaded as libcudart.so.12, or the
 * static runtime it redirected is CUDA 12's. The few entry points whose arguments changed in
 * CUDA 13 (cudaGraphGetEdges, cudaStreamGetCaptureInfo, cudaMemPrefetchAsync, ...) read them
 * the CUDA 12 way then. */
extern bool shim_cuda12_abi;

#endif
