/* replay_internal.h: the --record / --replay log, shared by the recorder and the replayer.
 *
 * The file is one zstd frame holding:
 *   "PTXSIMRR" version(1 byte) varint(executable hash)
 *   per launch: 'L' varint(launch hash) string(kernel) varint(CTAs) varint(warps per CTA)
 *               varint(entries) entries... varint(fault kind) string(fault message)
 *   an entry: varint(global warp << 1 | first) [varint(SM) when first] varint(instructions)
 * where an entry is one memory operation (global or shared load, store or atomic, or a device
 * runtime call) in the order the run performed them, named by its warp (CTA linear id x warps
 * per CTA + warp) and the warp's instruction count before it; `first` marks the first entry of
 * a CTA, which carries the SM the CTA ran on. Strings are varint(length) and the bytes. */
#ifndef PTXSIM_TIMING_REPLAY_INTERNAL_H
#define PTXSIM_TIMING_REPLAY_INTERNAL_H

#include "timing/timing.h"

#include <stddef.h>
#include <stdint.h>

#define RR_MAGIC "PTXSIMRR"
#define RR_VERSION 1

typedef struct rr_buf { uint8_t *p; size_t n, cap; bool oom; } rr_buf;
void rr_put_byte(rr_buf *b, uint8_t v);
void rr_put_varint(rr_buf *b, uint64_t v);
void rr_put_string(rr_buf *b, const char *s);

typedef struct rr_reader { const uint8_t *p; size_t n, at; bool bad; } rr_reader;
uint8_t rr_get_byte(rr_reader *r);
uint64_t rr_get_varint(rr_reader *r);
/* A malloc'd copy of the next string ("" when malformed). */
char *rr_get_string(rr_reader *r);

/* FNV-1a over bytes, continuing from h. */
uint64_t rr_hash(uint64_t h, const void *data, size_t n);
#define RR_HASH_SEED UINT64_C(0xcbf29ce484222325)
/* What identifies a launch and its input: the kernel, the launch shape, the parameters and the
 * bytes of every live device allocation at its start. */
uint64_t rr_launch_hash(const emu_launch *L, const char *kernel);
/* The executable's bytes (/proc/self/exe). */
uint64_t rr_executable_hash(void);

#endif
