/* detcost.h: what GPUDet's hardware costs in the cycle model beyond the order of its modes
 * (timing/model/replay.c times the modes; spec gpudet.md S6, S7):
 *
 * - commit.c: commit mode's Z-buffer units with their Z-caches (a depth block fetched on a
 *   miss, misses overlapping up to the unit's request buffer), and the lock-based commit the
 *   paper compares against (--gpudet-commit=lock, S7.6);
 * - log.c: the store buffer in parallel mode: each global store appends one entry per 128-byte
 *   chunk to the warp's log in private memory through L1, and a global load whose chunk hits
 *   the warp's Bloom filter searches the whole log (S6.3's conservative model).
 *
 * The record side runs while GPUDet commits (alone, between phases), the model side on the
 * model's one host thread, so both are deterministic. */
#ifndef PTXSIM_TIMING_DETCOST_DETCOST_H
#define PTXSIM_TIMING_DETCOST_DETCOST_H

#include "timing/model/model.h"

/* Bytes of one store-buffer entry and of one Z-buffer unit request: a 128-byte chunk of data,
 * its 128-bit byte mask, the chunk's address and the one depth GPUDet sends for all its words
 * (spec S6.1's entry, S7.2's request). */
#define TM_ZREQ_BYTES (128u + 16u + 8u + 4u)

/* ---------------------------------------------------------------- commit.c */

/* Sets up the record of GPUDet's commits beyond the request counts (Z-caches, lock-commit
 * figures); false when out of memory. */
bool tm_gdc_open(tm_trace *t);
void tm_gdc_free(tm_trace *t);
/* One store-buffer entry of chunk `chunk` (128-byte aligned address) that the warp of hardware
 * ID wid committed in quantum t->quantum, to the Z-buffer unit of DRAM channel chan. */
void tm_gdc_record(tm_trace *t, uint32_t wid, uint64_t chunk, uint32_t chan);
/* Commit mode of quantum q: its cycles from the requests per unit unit_reqs[nchan] and bytes
 * per SM port port_bytes[nsm]; the Z-cache misses in *misses. */
uint64_t tm_gdc_cycles(const tm_model *M, uint64_t q, const uint64_t *unit_reqs,
                       const uint64_t *port_bytes, uint64_t *misses);

/* ---------------------------------------------------------------- log.c */

bool tm_gdl_init(tm_model *M);
void tm_gdl_free(tm_model *M);
/* Times the global access e of warp tw (SM S) at cycle now in parallel mode: a store goes to
 * the warp's log, a load also searches the log when the Bloom filter says so. false when e is
 * not a global load or store (the model times it as usual). */
bool tm_gdl_access(tm_model *M, tm_sm *S, tm_warp *tw, const tm_rec *r, const emu_event *e,
                   uint64_t now, uint64_t *done, uint64_t *lsu);

#endif
