/* engine_occupancy.c: how many CTAs of a grid one SM holds at once: the tightest of the CTA,
 * thread and shared-memory limits of the modelled GPU (registers are not modelled: PTX
 * registers are virtual). A cooperative launch keeps the whole grid resident. */
#include "timing/engine/engine_internal.h"

uint32_t timing_ctas_per_sm(const emu_grid *g, const timing_engine_config *cfg)
{
    uint32_t sms = cfg->sm_count ? cfg->sm_count : 1;
    uint64_t ncta = emu_grid_cta_count(g);
    if (cfg->cooperative) {
        uint64_t k = (ncta + sms - 1) / sms;
        return k ? (uint32_t)(k > UINT32_MAX ? UINT32_MAX : k) : 1;
    }
    const emu_launch *L = emu_grid_launch(g);
    uint64_t threads = (uint64_t)L->block.x * L->block.y * L->block.z;
    uint64_t warps = (threads + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    uint64_t k = cfg->max_ctas_per_sm ? cfg->max_ctas_per_sm : 32;
    if (cfg->max_threads_per_sm && warps) {
        uint64_t t = cfg->max_threads_per_sm / (warps * EMU_WARP_SIZE);
        if (t < k) k = t;
    }
    uint64_t smem = emu_grid_smem_per_cta(g);
    if (cfg->smem_per_sm && smem) {
        /* with the system's reserved region, as the runtime's occupancy API counts it */
        uint64_t s = cfg->smem_per_sm / (smem + L->reserved_smem);
        if (s < k) k = s;
    }
    return k ? (uint32_t)k : 1;
}
