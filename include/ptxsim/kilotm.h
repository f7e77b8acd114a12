/* kilotm.h: transactions for CUDA programs run under ptxsim --tm=kilotm (KILO TM, Fung et al.,
 * MICRO 2011).
 *
 *     #include <ptxsim/kilotm.h>
 *     __global__ void k(int *counter) {
 *         tx_begin();
 *         *counter += 1;           // every global load and store in here is transactional
 *         tx_commit();
 *     }
 *
 * Under `ptxsim run --tm=kilotm` the code between tx_begin() and tx_commit() runs as a
 * transaction: its global loads and stores are logged per thread, validated by value at
 * tx_commit and made visible all at once, or the thread re-executes from tx_begin().
 *
 * ON A REAL GPU (or under ptxsim without --tm) THESE CALLS DO NOTHING: THERE IS NO ATOMICITY.
 * The same binary runs there, but the code between the markers is ordinary racy code. Use them
 * to study transactional memory in the emulator, not to protect data on hardware.
 *
 * Rules (checked when ptxsim loads the PTX; a violation fails the load with the PTX line):
 * a tx_begin() must dominate its tx_commit() and the tx_commit() post-dominate it (one entry,
 * one exit: no return, break or goto out of the transaction); no __syncthreads() or other
 * barrier, no atomic, no exit/return inside. Nested transactions are flattened.
 *
 * Why the functions have a volatile asm body: nvcc 13 deletes a call to an empty
 * __noinline__ function together with the function, so the paper-era empty markers vanish and
 * the kernel silently loses its transactions. An `asm volatile("" ::: "memory")` body keeps the
 * call (PTX `call.uni tx_begin, ();`), and its memory clobber keeps loads and stores from
 * moving across it. ptxsim recognises the call by the callee's name (also `_Z8tx_beginv`,
 * `_Z9tx_commitv`, `__tbegin`, `__tcommit` and their mangled forms, as GPGPU-Sim's benchmarks
 * name them) and never runs the body. */
#ifndef PTXSIM_KILOTM_H
#define PTXSIM_KILOTM_H

#ifdef __CUDACC__
#ifdef KILOTM_DECLARE_ONLY
/* -rdc=true with several translation units: every unit but one defines KILOTM_DECLARE_ONLY
 * before including this header, or nvlink finds two definitions (a weak attribute does not
 * survive into the PTX). */
extern "C" __device__ void tx_begin(void);
extern "C" __device__ void tx_commit(void);
#else
extern "C" __device__ __noinline__ void tx_begin(void) { asm volatile("" ::: "memory"); }
extern "C" __device__ __noinline__ void tx_commit(void) { asm volatile("" ::: "memory"); }
#endif
#endif

#endif
