/* exec_tex.c: the texture and surface instructions on texture and surface objects (unified
 * mode: the object is a .u64 handle in a register): tex (with .level, .grad, offsets and the
 * residency predicate), tld4, txq, istypep, suld.b, sust.b/.p, sured.b/.p and suq.
 *
 * The older texture and surface references (.texref / .surfref module variables, bound by
 * cudaBindTexture* and cudaBindSurfaceToArray) are named by symbol instead of a handle register;
 * their binding is the object handle the runtime stores in the reference's 8 bytes of module
 * memory (0 while unbound). In independent mode (.target texmode_independent) a .samplerref
 * named beside the texture supplies the sampler state from its initialiser.
 *
 * The sampling arithmetic is in sem_tex.c. Texels are read directly (texture memory is read-only
 * while a kernel runs); surface loads and stores go through the memory policy like ld/st, and
 * surface reductions go through it as atomics, so that GPUDet orders them like atom/red.
 */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <math.h>
#include <string.h>

static const ptx_operand *list_of(const ptx_instr *in, int *idx)
{
    for (int i = 0; i < in->nops; i++)
        if (in->ops[i].kind == PTX_OPD_LIST && in->ops[i].comp == 1) {
            if (idx) *idx = i;
            return &in->ops[i];
        }
    return NULL;
}

static uint16_t geom_of(const ptx_instr *in)
{
    for (int i = 0; i < in->nsfx; i++)
        switch (in->sfx[i]) {
        case PTX_SFX_G1D: case PTX_SFX_G2D: case PTX_SFX_G3D: case PTX_SFX_GA1D:
        case PTX_SFX_GA2D: case PTX_SFX_GCUBE: case PTX_SFX_GACUBE: case PTX_SFX_G2DMS:
        case PTX_SFX_GA2DMS:
            return in->sfx[i];
        default: break;
        }
    return 0;
}

/* The symbol an operand names directly (a .texref/.surfref/.samplerref), or -1. */
static int32_t ref_symbol(const ptx_operand *o)
{
    if (o->kind == PTX_OPD_SYM) return o->sym;
    if (o->kind == PTX_OPD_ADDR && o->reg < 0 && o->sym >= 0 && o->imm == 0) return o->sym;
    return -1;
}

static bool is_ref_type(const ptx_symbol *s, uint8_t type)
{
    return s->kind == PTX_SYM_VAR && s->owner == -1 && s->type == type;
}

/* The object a texture or surface reference is bound to. False after a fault. */
static bool ref_object(emu_ctx *c, int32_t sym, bool surface, emu_texture *obj)
{
    const emu_module *mod = c->g->launch.module;
    const ptx_symbol *s = &mod->ptx->syms[sym];
    int l = c->mask ? __builtin_ctz(c->mask) : 0;
    if (!is_ref_type(s, surface ? PTX_TYPE_SURFREF : PTX_TYPE_TEXREF) || !mod->var_addr[sym]) {
        emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, l, false, 0,
                        surface ? "Invalid surface reference" : "Invalid texture reference",
                        "'%s' is not a module-scope .%s", s->name,
                        surface ? "surfref" : "texref");
        return false;
    }
    uint64_t h = __atomic_load_n((const uint64_t *)(uintptr_t)mod->var_addr[sym],
                                 __ATOMIC_ACQUIRE);
    if (!h) {
        emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, false, 0,
                        surface ? "Unbound surface reference" : "Unbound texture reference",
                        "%s reference '%s' is not bound (%s before the launch)",
                        surface ? "surface" : "texture", s->name,
                        surface ? "cudaBindSurfaceToArray"
                                : "cudaBindTexture, cudaBindTexture2D or cudaBindTextureToArray");
        return false;
    }
    if (!emu_texture_get(h, obj) || obj->surface != surface) {
        emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, false, 0,
                        surface ? "Invalid surface reference" : "Invalid texture reference",
                        "'%s' is bound to 0x%llx, which is no longer a live %s", s->name,
                        (unsigned long long)h, surface ? "surface" : "texture");
        return false;
    }
    return true;
}

/* The PTX ISA's addressing-mode names in an initialiser, as cudaTextureAddressMode values. */
static uint8_t sampler_address(uint8_t m)
{
    switch (m) {
    case PTX_SAMPLER_WRAP: return EMU_TEX_WRAP;
    case PTX_SAMPLER_MIRROR: return EMU_TEX_MIRROR;
    case PTX_SAMPLER_CLAMP_TO_BORDER: return EMU_TEX_BORDER;
    default: return EMU_TEX_CLAMP;   /* clamp_ogl, clamp_to_edge */
    }
}

/* Independent mode: the sampler state of .samplerref `sym` replaces the texture's. */
static bool apply_sampler(emu_ctx *c, int32_t sym, emu_texture *t)
{
    const ptx_symbol *s = &c->g->launch.module->ptx->syms[sym];
    if (!is_ref_type(s, PTX_TYPE_SAMPLERREF)) {
        emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, c->mask ? __builtin_ctz(c->mask) : 0,
                        false, 0, "Invalid sampler", "'%s' is not a module-scope .samplerref",
                        s->name);
        return false;
    }
    /* an uninitialised sampler: nearest filtering, clamp_to_edge, normalized coordinates */
    ptx_sampler_init d = { { PTX_SAMPLER_CLAMP_TO_EDGE, PTX_SAMPLER_CLAMP_TO_EDGE,
                             PTX_SAMPLER_CLAMP_TO_EDGE }, false, false, 0 };
    const ptx_sampler_init *si = s->sampler ? s->sampler : &d;
    for (int i = 0; i < 3; i++) t->address[i] = sampler_address(si->addr_mode[i]);
    t->filter_linear = si->filter_linear && !t->linear;
    t->normalized_coords = !si->force_unnormalized_coords;
    return true;
}

/* Each active lane's object, looked up once per distinct handle. False after a fault. */
static bool objects(emu_ctx *c, const ptx_operand *h, bool surface, emu_texture *obj,
                    uint8_t *which)
{
    int32_t rs = ref_symbol(h);
    if (rs >= 0) {
        if (!ref_object(c, rs, surface, &obj[0])) return false;
        memset(which, 0, EMU_WARP_SIZE);
        return true;
    }
    uint64_t hv[EMU_WARP_SIZE];
    emu_read_all(c, h, PTX_TYPE_U64, hv);
    uint64_t seen[EMU_WARP_SIZE];
    unsigned nseen = 0;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        unsigned k = 0;
        while (k < nseen && seen[k] != hv[l]) k++;
        if (k == nseen) {
            if (!emu_texture_get(hv[l], &obj[k]) || obj[k].surface != surface) {
                emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, false, 0,
                                surface ? "Invalid surface object" : "Invalid texture object",
                                "0x%llx is not a live %s object", (unsigned long long)hv[l],
                                surface ? "surface" : "texture");
                return false;
            }
            seen[nseen++] = hv[l];
        }
        which[l] = (uint8_t)k;
    }
    return true;
}

/* The elements of a coordinate vector (or scalar) as 32-bit register bits. */
static void read_vec(emu_ctx *c, const ptx_operand *v, unsigned n, uint64_t out[][EMU_WARP_SIZE])
{
    for (unsigned i = 0; i < n; i++) {
        if (v->kind == PTX_OPD_VEC) {
            if (i < v->nelem) emu_read_all(c, &v->elems[i], PTX_TYPE_B32, out[i]);
            else memset(out[i], 0, sizeof out[i]);
        } else {
            if (i == 0) emu_read_all(c, v, PTX_TYPE_B32, out[i]);
            else memset(out[i], 0, sizeof out[i]);
        }
    }
}

/* ---------------------------------------------------------------- tex, tld4 */

static void x_tex(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    int li;
    const ptx_operand *L = list_of(in, &li);
    emu_texture obj[EMU_WARP_SIZE];
    uint8_t which[EMU_WARP_SIZE];
    if (!objects(c, &L->elems[0], false, obj, which)) return;
    /* [tex, sampler, coords] in independent mode */
    unsigned ci = L->nelem == 3 ? 2 : 1;
    if (ci == 2)
        for (uint32_t mk = c->mask; mk; mk &= mk - 1)
            if (!apply_sampler(c, ref_symbol(&L->elems[1]), &obj[which[__builtin_ctz(mk)]]))
                return;
    emu_tex_query q;
    memset(&q, 0, sizeof q);
    q.geom = geom_of(in);
    q.int_coords = emu_ty(in, 1) == PTX_TYPE_S32;
    q.gather = -1;
    if (in->op == PTX_OP_TLD4)
        q.gather = in->mode == PTX_SFX_R ? 0 : in->mode == PTX_SFX_G ? 1
                 : in->mode == PTX_SFX_MATRIX_B ? 2 : 3;
    uint64_t cv[4][EMU_WARP_SIZE], lod[EMU_WARP_SIZE], dx[3][EMU_WARP_SIZE], dy[3][EMU_WARP_SIZE],
        off[3][EMU_WARP_SIZE];
    read_vec(c, &L->elems[ci], 4, cv);
    int next = li + 1;
    if (ptx_instr_has(in, PTX_SFX_LEVEL)) {
        q.lod_mode = 1;
        emu_read_all(c, &in->ops[next++], PTX_TYPE_F32, lod);
    } else if (ptx_instr_has(in, PTX_SFX_GRAD)) {
        q.lod_mode = 2;
        read_vec(c, &in->ops[next++], 3, dx);
        read_vec(c, &in->ops[next++], 3, dy);
    }
    if (next < in->nops && in->ops[next].kind == PTX_OPD_VEC) {
        q.has_off = true;
        read_vec(c, &in->ops[next], 3, off);
    }
    /* destination: four 32-bit (or 16-bit) elements, or two f16x2 */
    const ptx_operand *d = &in->ops[0];
    uint8_t dt = emu_ty(in, 0);
    uint64_t res[4][EMU_WARP_SIZE];
    memset(res, 0, sizeof res);
    /* the event names each lane's texel (the first of a filtered footprint) for the timing
     * model's texture cache */
    emu_event *ev = c->ev && !(c->ev->flags & EMU_EV_MEM) ? c->ev : NULL;
    uint32_t fetched = 0;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        for (int i = 0; i < 4; i++) q.c[i] = (uint32_t)cv[i][l];
        if (q.lod_mode == 1) q.lod = emu_as_f32(lod[l]);
        for (int i = 0; i < 3; i++) {
            q.dpdx[i] = emu_as_f32(dx[i][l]);
            q.dpdy[i] = emu_as_f32(dy[i][l]);
            q.off[i] = (int32_t)off[i][l];
        }
        emu_tex_result r;
        emu_tex_sample(&obj[which[l]], &q, &r);
        if (ev && r.addr) {
            ev->lane_addr[l] = r.addr;
            fetched |= 1u << l;
        }
        for (int i = 0; i < 4; i++) {
            uint32_t v = r.v[i];
            if (dt == PTX_TYPE_F16 || dt == PTX_TYPE_F16X2) {
                float f = r.is_float ? emu_as_f32(v) : (float)(int32_t)v;
                v = emu_f32_to_f16(f, PTX_RND_RN, false);
            } else if (dt == PTX_TYPE_F32 && !r.is_float) {
                v = (uint32_t)emu_f32_bits((float)(int32_t)v);
            }
            res[i][l] = v;
        }
        if (dt == PTX_TYPE_F16X2) {
            res[0][l] = res[0][l] | res[1][l] << 16;
            res[1][l] = res[2][l] | res[3][l] << 16;
        }
    }
    if (fetched) {
        ev->flags |= EMU_EV_MEM;
        ev->mem_lanes = fetched;
        ev->size = (uint16_t)obj[which[__builtin_ctz(fetched)]].elem;
    }
    unsigned n = d->kind == PTX_OPD_VEC ? d->nelem : 1;
    for (unsigned i = 0; i < n && i < 4; i++) {
        const ptx_operand *e = d->kind == PTX_OPD_VEC ? &d->elems[i] : d;
        if (e->kind == PTX_OPD_SINK) continue;
        emu_write_all(c, e, dt == PTX_TYPE_F16 ? PTX_TYPE_B16 : PTX_TYPE_B32, res[i]);
    }
    /* the residency predicate: everything is resident */
    if (in->nops > 1 && in->ops[1].pipe) {
        uint64_t t[EMU_WARP_SIZE];
        for (int l = 0; l < EMU_WARP_SIZE; l++) t[l] = 1;
        emu_write_all(c, &in->ops[1], PTX_TYPE_PRED, t);
    }
}

/* ---------------------------------------------------------------- txq, suq, istypep */

/* OpenCL's channel data type and order codes, which txq and suq return. */
static uint32_t channel_data_type(const emu_texture *t)
{
    unsigned b = t->bits[0];
    if (t->kind == EMU_TEXEL_FLOAT) return b == 16 ? 0x10DD : 0x10DE;   /* HALF_FLOAT, FLOAT */
    if (t->kind == EMU_TEXEL_SIGNED)
        return b == 8 ? 0x10D7 : b == 16 ? 0x10D8 : 0x10D9;             /* SIGNED_INT8/16/32 */
    return b == 8 ? 0x10DA : b == 16 ? 0x10DB : 0x10DC;                 /* UNSIGNED_INT8/16/32 */
}

static uint32_t channel_order(const emu_texture *t)
{
    static const uint32_t order[5] = { 0, 0x10B0, 0x10B2, 0x10B4, 0x10B5 };   /* R RG RGB RGBA */
    return order[t->nchan];
}

static uint32_t query(const emu_texture *t, int mode, uint32_t lvl)
{
    const emu_tex_level *lv = &t->level[lvl < t->nlevels ? lvl : 0];
    switch (mode) {
    case PTX_SFX_Q_WIDTH: return lv->width;
    case PTX_SFX_Q_HEIGHT: return t->dims >= 2 ? lv->height : 0;
    case PTX_SFX_Q_DEPTH: return t->dims >= 3 ? lv->depth : 0;
    case PTX_SFX_Q_CHANNEL_DATA_TYPE: return channel_data_type(t);
    case PTX_SFX_Q_CHANNEL_ORDER: return channel_order(t);
    case PTX_SFX_Q_NORMALIZED_COORDS: return t->normalized_coords;
    case PTX_SFX_Q_ARRAY_SIZE:
        return t->cubemap ? t->layers / 6 : t->layered ? t->layers : 0;
    case PTX_SFX_Q_NUM_MIPMAP_LEVELS: return t->nlevels;
    case PTX_SFX_Q_NUM_SAMPLES: return 1;
    case PTX_SFX_Q_FORCE_UNNORMALIZED_COORDS: return !t->normalized_coords;
    case PTX_SFX_Q_FILTER_MODE: return t->filter_linear;
    case PTX_SFX_Q_ADDR_MODE_0: case PTX_SFX_Q_ADDR_MODE_1: case PTX_SFX_Q_ADDR_MODE_2: {
        /* the ISA's codes: wrap 0, mirror 1, clamp_ogl 2, clamp_to_edge 3, clamp_to_border 4 */
        int d = mode == PTX_SFX_Q_ADDR_MODE_0 ? 0 : mode == PTX_SFX_Q_ADDR_MODE_1 ? 1 : 2;
        switch (t->address[d]) {
        case EMU_TEX_WRAP: return 0;
        case EMU_TEX_MIRROR: return 1;
        case EMU_TEX_BORDER: return 4;
        default: return 3;
        }
    }
    case PTX_SFX_Q_MEMORY_LAYOUT: return t->linear ? 1 : 0;
    default: return 0;
    }
}

static void x_txq(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    bool surface = in->op == PTX_OP_SUQ;
    const ptx_operand *a = &in->ops[1];
    ptx_operand h = { .kind = PTX_OPD_REG, .reg = a->reg, .sym = -1 };
    emu_texture obj[EMU_WARP_SIZE];
    uint8_t which[EMU_WARP_SIZE];
    int32_t rs = ref_symbol(a);
    if (rs >= 0 && c->g->launch.module->ptx->syms[rs].type == PTX_TYPE_SAMPLERREF) {
        /* a sampler's own state: filter mode, addressing, coordinates */
        memset(&obj[0], 0, sizeof obj[0]);
        obj[0].nlevels = 1;
        if (!apply_sampler(c, rs, &obj[0])) return;
        memset(which, 0, sizeof which);
    } else if (!objects(c, rs >= 0 ? a : &h, surface, obj, which)) {
        return;
    }
    uint64_t lvl[EMU_WARP_SIZE] = { 0 }, d[EMU_WARP_SIZE] = { 0 };
    if (ptx_instr_has(in, PTX_SFX_LEVEL) && in->nops > 2)
        emu_read_all(c, &in->ops[2], PTX_TYPE_U32, lvl);
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        d[l] = query(&obj[which[l]], in->mode, (uint32_t)lvl[l]);
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_B32, d);
}

static void x_istypep(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint64_t hv[EMU_WARP_SIZE], d[EMU_WARP_SIZE] = { 0 };
    emu_read_all(c, &in->ops[1], PTX_TYPE_U64, hv);
    uint8_t ty = emu_ty(in, 0);
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        emu_texture t;
        if (!emu_texture_get(hv[l], &t)) continue;
        d[l] = ty == PTX_TYPE_SURFREF ? t.surface : !t.surface;
    }
    emu_write_all(c, &in->ops[0], PTX_TYPE_PRED, d);
}

/* ---------------------------------------------------------------- suld, sust, sured */

enum { OOB_TRAP, OOB_CLAMP, OOB_ZERO };

static int oob_mode(const ptx_instr *in)
{
    if (in->flags & PTX_F(CLAMP)) return OOB_CLAMP;
    if (ptx_instr_has(in, PTX_SFX_ZERO)) return OOB_ZERO;
    return OOB_TRAP;
}

/* Per-lane addresses of a surface access; lanes out of range leave `inside`. */
static bool surf_lanes(emu_ctx *c, const ptx_instr *in, const ptx_operand *L, unsigned size,
                       bool elements, uint64_t *addr, uint32_t *inside, emu_texture *obj,
                       uint8_t *which)
{
    if (!objects(c, &L->elems[0], true, obj, which)) return false;
    uint64_t cv[4][EMU_WARP_SIZE];
    read_vec(c, &L->elems[1], 4, cv);
    uint16_t g = geom_of(in);
    int mode = oob_mode(in);
    *inside = 0;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint32_t cc[4] = { (uint32_t)cv[0][l], (uint32_t)cv[1][l], (uint32_t)cv[2][l],
                           (uint32_t)cv[3][l] };
        if (emu_surf_address(&obj[which[l]], g, cc, elements, size, mode == OOB_CLAMP,
                             &addr[l])) {
            *inside |= 1u << l;
            continue;
        }
        if (mode == OOB_TRAP) {
            emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, false, 0,
                            "Invalid surface access",
                            "coordinates (%d, %d, %d, %d) of a %u-byte access are outside the "
                            "surface (the access traps in .trap mode)",
                            (int32_t)cc[0], (int32_t)cc[1], (int32_t)cc[2], (int32_t)cc[3], size);
            return false;
        }
    }
    return true;
}

static void x_suld(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    const ptx_operand *L = list_of(in, NULL);
    uint8_t t = emu_ty(in, 0);
    unsigned es = emu_type_bits[t] / 8, n = in->vec ? in->vec : 1, size = es * n;
    emu_texture obj[EMU_WARP_SIZE];
    uint8_t which[EMU_WARP_SIZE];
    uint64_t addr[EMU_WARP_SIZE];
    uint32_t inside;
    if (!surf_lanes(c, in, L, size, false, addr, &inside, obj, which)) return;
    uint8_t data[EMU_WARP_SIZE][16];
    memset(data, 0, sizeof data);
    if (inside && !emu_mem_lanes(c, in, PTX_SPACE_GLOBAL, addr, inside, size, data, false)) return;
    const ptx_operand *d = &in->ops[0];
    for (unsigned i = 0; i < n; i++) {
        uint64_t v[EMU_WARP_SIZE] = { 0 };
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            memcpy(&v[l], data[l] + i * es, es);
        }
        const ptx_operand *e = d->kind == PTX_OPD_VEC ? &d->elems[i] : d;
        if (e->kind != PTX_OPD_SINK) emu_write_all(c, e, t, v);
    }
}

/* sust.p: a value converted to the surface's format (channel i from element i). */
static void format_texel(const emu_texture *t, const uint64_t *v, unsigned n, uint8_t *out)
{
    for (int ch = 0; ch < t->nchan; ch++) {
        uint32_t x = ch < (int)n ? (uint32_t)v[ch] : 0;
        unsigned b = t->bits[ch];
        if (t->kind == EMU_TEXEL_FLOAT && b == 16) {
            uint16_t h = emu_f32_to_f16(emu_as_f32(x), PTX_RND_RN, false);
            memcpy(out, &h, 2);
        } else {
            memcpy(out, &x, b / 8);
        }
        out += b / 8;
    }
}

static void x_sust(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    const ptx_operand *L = list_of(in, NULL);
    const ptx_operand *src = &in->ops[1];
    uint8_t t = emu_ty(in, 0);
    bool formatted = in->mode == PTX_SFX_P;
    unsigned es = emu_type_bits[t] / 8, n = in->vec ? in->vec : 1;
    emu_texture obj[EMU_WARP_SIZE];
    uint8_t which[EMU_WARP_SIZE];
    uint64_t vals[4][EMU_WARP_SIZE];
    for (unsigned i = 0; i < n; i++)
        emu_read_all(c, src->kind == PTX_OPD_VEC ? &src->elems[i] : src, t, vals[i]);
    /* a formatted store writes one texel; an unformatted one the register bytes */
    emu_texture first;
    unsigned size = es * n;
    if (formatted) {
        int32_t rs = ref_symbol(&L->elems[0]);
        if (rs >= 0) {
            if (!ref_object(c, rs, true, &first)) return;
        } else {
            uint64_t tmp[EMU_WARP_SIZE];
            emu_read_all(c, &L->elems[0], PTX_TYPE_U64, tmp);
            int l0 = c->mask ? __builtin_ctz(c->mask) : 0;
            if (!emu_texture_get(tmp[l0], &first)) first.elem = 4;
        }
        size = first.elem;
    }
    uint64_t addr[EMU_WARP_SIZE];
    uint32_t inside;
    if (!surf_lanes(c, in, L, size, formatted, addr, &inside, obj, which)) return;
    uint8_t data[EMU_WARP_SIZE][16];
    memset(data, 0, sizeof data);
    for (uint32_t mk = inside; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (formatted) {
            uint64_t v[4];
            for (unsigned i = 0; i < n; i++) v[i] = vals[i][l];
            if (obj[which[l]].elem != size) {
                emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, l, false, 0,
                                "Invalid formatted surface store",
                                "lanes name surfaces of different formats");
                return;
            }
            format_texel(&obj[which[l]], v, n, data[l]);
        } else {
            for (unsigned i = 0; i < n; i++) memcpy(data[l] + i * es, &vals[i][l], es);
        }
    }
    if (inside) emu_mem_lanes(c, in, PTX_SPACE_GLOBAL, addr, inside, size, data, true);
}

static void x_sured(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    const ptx_operand *L = list_of(in, NULL);
    uint8_t t = emu_ty(in, 0);
    unsigned size = emu_type_bits[t] / 8;
    emu_texture obj[EMU_WARP_SIZE];
    uint8_t which[EMU_WARP_SIZE];
    uint64_t addr[EMU_WARP_SIZE], v[EMU_WARP_SIZE];
    uint32_t inside;
    if (!surf_lanes(c, in, L, size, in->mode == PTX_SFX_P, addr, &inside, obj, which)) return;
    emu_read_all(c, &in->ops[1], t, v);
    /* the target must be live device memory, like any global access */
    for (uint32_t mk = inside; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (!emu_find_allocation(addr[l], size, NULL, NULL, NULL)) {
            emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, true, addr[l],
                            "Invalid __global__ atomic", "the surface's memory is not allocated");
            return;
        }
    }
    if (!inside) return;
    /* a global atomic without a result, as red is: the policy performs (or defers) it */
    emu_access A;
    emu_acc_init(&A);
    emu_acc_begin(&A, c, EMU_MEM_ATOMIC, PTX_SPACE_GLOBAL, "atomic");
    A.aop = in->aop;
    for (int i = 0; i < in->ntypes; i++) A.atype = in->types[i];
    for (uint32_t mk = inside; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        emu_piece *p = emu_acc_piece(&A, l, addr[l], (uint32_t)size);
        if (!p) break;
        uint8_t *d = emu_acc_data(&A, p);
        memset(d, 0, size);
        memcpy(d + size, &v[l], size);
    }
    emu_acc_run(&A, 1);
    emu_acc_release(&A);
}

emu_exec_fn emu_select_tex(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    switch (in->op) {
    case PTX_OP_TEX:
    case PTX_OP_TLD4: {
        int li;
        const ptx_operand *L = list_of(in, &li);
        /* unified mode [texture, coordinates] with a handle register or a .texref; independent
         * mode [.texref, .samplerref, coordinates] */
        if (!L || L->nelem < 2 || L->nelem > 3 || !geom_of(in)) return NULL;
        if (L->elems[0].kind != PTX_OPD_REG && ref_symbol(&L->elems[0]) < 0) return NULL;
        if (L->nelem == 3 && ref_symbol(&L->elems[1]) < 0) return NULL;
        if (in->ntypes != 2 || (emu_ty(in, 1) != PTX_TYPE_F32 && emu_ty(in, 1) != PTX_TYPE_S32))
            return NULL;
        uint8_t dt = emu_ty(in, 0);
        if (dt != PTX_TYPE_F32 && dt != PTX_TYPE_S32 && dt != PTX_TYPE_U32 &&
            dt != PTX_TYPE_F16 && dt != PTX_TYPE_F16X2)
            return NULL;
        int extra = ptx_instr_has(in, PTX_SFX_LEVEL) ? 1 : ptx_instr_has(in, PTX_SFX_GRAD) ? 2 : 0;
        int rest = in->nops - (li + 1) - extra;
        if (rest < 0) return NULL;
        /* an offset vector may follow; a depth-compare operand is not supported */
        if (rest > 1 || (rest == 1 && in->ops[in->nops - 1].kind != PTX_OPD_VEC)) return NULL;
        return x_tex;
    }
    case PTX_OP_TXQ:
    case PTX_OP_SUQ:
        if (in->nops < 2 || in->ops[1].kind != PTX_OPD_ADDR) return NULL;
        if (in->ops[1].reg < 0 && ref_symbol(&in->ops[1]) < 0) return NULL;
        return in->mode ? x_txq : NULL;
    case PTX_OP_ISTYPEP:
        return in->nops == 2 && in->ops[1].kind == PTX_OPD_REG ? x_istypep : NULL;
    case PTX_OP_SULD:
    case PTX_OP_SUST:
    case PTX_OP_SURED: {
        const ptx_operand *L = list_of(in, NULL);
        if (!L || L->nelem != 2 || !geom_of(in)) return NULL;
        if (L->elems[0].kind != PTX_OPD_REG && ref_symbol(&L->elems[0]) < 0) return NULL;
        uint8_t t = emu_ty(in, 0);
        unsigned b = emu_type_bits[t], n = in->vec ? in->vec : 1;
        if (b < 8 || b > 64 || b * n > 128) return NULL;
        if (in->op == PTX_OP_SULD) return in->mode == PTX_SFX_P ? NULL : x_suld;
        if (in->op == PTX_OP_SUST) return x_sust;
        return in->aop && n == 1 && (b == 32 || b == 64) ? x_sured : NULL;
    }
    default: return NULL;
    }
}
