/* lane_calls.c: the sem/ rules compiled code calls per lane instead of calling the µop's
 * handler (translate.c's lane_call): the approximate f32 functions, whose results come from the
 * host's libm (no inline form could give the same bits), and fma.f32 with a directed rounding
 * mode, which needs the host's rounding mode set. Each takes the warp's 32 lanes of operands in
 * place (the first row becomes the result) and runs the very rule the interpreter's handler runs
 * (exec_float.c), in every lane: the rules are pure, and the lanes outside the µop's mask are
 * blended back by the compiled code, so the results are the handler's bits by construction.
 * Compiled code names these by symbol (jit_internal.h's EMU_JIT_LANE_CALLS), never by address, so
 * that the disk cache's code works in another process. */
#include "emulator/jit/jit_internal.h"
#include "emulator/sem/sem.h"

/* sin/cos/lg2/ex2/tanh.approx{.ftz}{.sat}.f32 */
static void approx_f32(uint32_t *v, uint32_t op, uint32_t ftz, uint32_t sat)
{
    uint64_t (*rule)(uint64_t, bool, bool);
    switch (op) {
    case PTX_OP_SIN: rule = sem_float_sin_approx_f32; break;
    case PTX_OP_COS: rule = sem_float_cos_approx_f32; break;
    case PTX_OP_LG2: rule = sem_float_lg2_approx_f32; break;
    case PTX_OP_EX2: rule = sem_float_ex2_approx_f32; break;
    default: rule = sem_float_tanh_approx_f32; break;
    }
    for (int l = 0; l < EMU_WARP_SIZE; l++) v[l] = (uint32_t)rule(v[l], ftz, sat);
}

/* fma.{rm,rp,rz}{.ftz}{.sat}.f32: a, b, c in v[0..31], v[32..63], v[64..95]; the rounding mode
 * around the whole µop, as emu_exec_rounded sets it around the handler */
static void fma_rounded_f32(uint32_t *v, uint32_t rnd, uint32_t ftz, uint32_t sat)
{
    int saved = emu_round_enter((int)rnd);
    for (int l = 0; l < EMU_WARP_SIZE; l++)
        v[l] = (uint32_t)sem_float_fma_f32(v[l], v[EMU_WARP_SIZE + l], v[2 * EMU_WARP_SIZE + l],
                                           ftz, sat);
    emu_round_leave(saved);
}

const emu_jit_lane_call emu_jit_lane_calls[EMU_JIT_LANE_CALL_COUNT] = {
    [EMU_JIT_LANE_APPROX_F32] = {"ptxsim_jit_approx_f32", approx_f32},
    [EMU_JIT_LANE_FMA_ROUNDED_F32] = {"ptxsim_jit_fma_rounded_f32", fma_rounded_f32},
};
