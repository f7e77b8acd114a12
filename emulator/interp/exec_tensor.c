/* exec_tensor.c: the tensor forms of sm_90's bulk asynchronous copies (TMA) and the bulk
 * reductions: cp.async.bulk.tensor (global -> shared through an mbarrier, shared -> global
 * through a bulk async-group), cp.reduce.async.bulk.tensor, cp.async.bulk.prefetch.tensor,
 * cp.reduce.async.bulk (non-tensor) and tensormap.cp_fenceproxy.
 *
 * A tensor copy names a tensor map (emu_tensor_map, written by the runtime's encoder) by its
 * generic address: normally that of a __grid_constant__ kernel parameter, so the map is read
 * through the parameter window, or of global memory. As with exec_async.c's copies, the whole
 * transfer happens when the instruction executes and its completion (complete_tx) at once.
 *
 * Global memory is only ever touched through the memory policy, one access per instruction
 * checked in full before any of it happens (a reduction is one EMU_MEM_ATOMIC operation), so
 * GPUDet orders them: a reduction is deferred to serial mode before anything has been written.
 *
 * The box (tiled maps) or pixel column (im2col maps, see `box`) lands in shared memory densely,
 * dimension 0 fastest, then the map's swizzle permutes 16-byte chunks by shared-memory address
 * bits as the hardware does: for 32B/64B/128B, address bits [4, 4+b) are XORed with bits
 * [7, 7+b) (b = 1, 2, 3: the chunk index within a 32/64/128-byte row span XORed with the row
 * index modulo 2/4/8, as the CUDA guide's TMA swizzle tables show).
 */
#include "emulator/emu_internal.h"

#include <stdlib.h>
#include <string.h>

static int dims_of(const ptx_instr *in)
{
    if (ptx_instr_has(in, PTX_SFX_G1D)) return 1;
    if (ptx_instr_has(in, PTX_SFX_G2D)) return 2;
    if (ptx_instr_has(in, PTX_SFX_G3D)) return 3;
    if (ptx_instr_has(in, PTX_SFX_G4D)) return 4;
    if (ptx_instr_has(in, PTX_SFX_G5D)) return 5;
    return 0;
}

/* The value of operand o for lane l as an address: registers, immediates, symbols. Symbols of
 * the parameter and shared spaces give their generic addresses. */
static uint64_t address_value(emu_ctx *c, const ptx_operand *o, int l)
{
    if (o->kind == PTX_OPD_REG) return emu_read(c, o, l, PTX_TYPE_U64);
    if (o->kind == PTX_OPD_IMM) return (uint64_t)o->imm;
    uint64_t v = 0;
    if (o->reg >= 0) {
        ptx_operand r = { .kind = PTX_OPD_REG, .reg = o->reg, .sym = -1 };
        v = emu_read(c, &r, l, PTX_TYPE_U64);
    } else if (o->sym >= 0) {
        uint8_t sp = PTX_SPACE_NONE;
        v = emu_symbol_address(c, o->sym, &sp);
        if (sp == PTX_SPACE_PARAM && c->fn->is_entry) v += EMU_PARAM_WINDOW;
        else if (sp == PTX_SPACE_SHARED) v += EMU_SHARED_WINDOW;
    }
    return v + (uint64_t)(o->kind == PTX_OPD_ADDR ? o->imm : 0);
}

/* Reads the tensor map at generic address a for lane l; false after a fault. */
static bool read_map(emu_ctx *c, const ptx_instr *in, int l, uint64_t a, emu_tensor_map *m)
{
    if (a % 64) {
        emu_fault_raise(c, EMU_FAULT_MISALIGNED, l, true, a, "Misaligned tensor map",
                        "a tensor map (CUtensorMap) must be 64-byte aligned");
        return false;
    }
    uint8_t raw[128];
    emu_access A;
    emu_acc_init(&A);
    emu_acc_begin(&A, c, EMU_MEM_LOAD, PTX_SPACE_NONE, "read");
    emu_acc_piece(&A, l, a, 128);
    bool ok = emu_acc_run(&A, 64);
    if (ok) memcpy(raw, emu_acc_data(&A, &A.p[0]), 128);
    emu_acc_release(&A);
    if (!ok) return false;
    memcpy(m, raw, sizeof *m);
    if (m->magic != EMU_TENSOR_MAP_MAGIC || m->rank < 1 || m->rank > EMU_TENSOR_MAP_MAX_RANK) {
        emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, l, true, a, "Invalid tensor map",
                        "the 128 bytes at the tensor-map operand were not written by "
                        "cuTensorMapEncodeTiled/Im2col");
        return false;
    }
    if (m->elem_bytes == 0) {
        emu_fault_raise(c, EMU_FAULT_UNSUPPORTED, l, true, a, "Unsupported tensor map",
                        "ptxsim copies tensor maps of whole-byte element types only (not the "
                        "packed 4/6-bit types)");
        return false;
    }
    if ((m->im2col != 0) != ptx_instr_has(in, PTX_SFX_IM2COL)) {
        emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, l, true, a, "Tensor map mismatch",
                        m->im2col ? "a .tile tensor copy names an im2col tensor map"
                                  : "an .im2col tensor copy names a tiled tensor map");
        return false;
    }
    return true;
}

/* The tensor operand [tensorMap, {coords}]: the map's address and the coordinates of lane l. */
static void tensor_operand(emu_ctx *c, const ptx_operand *o, int l, uint64_t *map,
                           int32_t coord[EMU_TENSOR_MAP_MAX_RANK], int n)
{
    *map = address_value(c, &o->elems[0], l);
    const ptx_operand *v = o->elems + 1;
    unsigned nv = o->nelem - 1;
    if (nv == 1 && v->kind == PTX_OPD_VEC) {
        nv = v->nelem;
        v = v->elems;
    }
    for (int i = 0; i < n; i++)
        coord[i] = i < (int)nv ? (int32_t)emu_read(c, &v[i], l, PTX_TYPE_S32) : 0;
}

/* The elements one tensor copy moves, dimension 0 fastest, in the order they lie in shared
 * memory. Tiled: a box of ceil(box[i] / elementStride[i]) elements per dimension. Im2col: a
 * column of pixels_per_column pixels of channels_per_pixel elements each; the pixels are the
 * filter-base positions of the bounding box (DHW space, stepping by the traversal strides, W
 * fastest, then the next image of the batch) counted from the instruction's coordinates, each
 * moved by the instruction's im2col offsets. */
typedef struct box {
    const emu_tensor_map *m;
    const int32_t *coord;
    uint32_t n[EMU_TENSOR_MAP_MAX_RANK];      /* tiled: elements per dimension */
    uint32_t step[EMU_TENSOR_MAP_MAX_RANK];   /* traversal stride per dimension */
    uint64_t elems, bytes;
    bool im2col;
    int nsp;                                  /* im2col: spatial dimensions (1..3) */
    int64_t lo[3], cnt[3], off[3];            /* per spatial dimension (W, H, D) */
    int64_t start;                            /* linear index of the first pixel */
} box;

/* False (with why set) when an im2col start position lies outside the bounding box. */
static bool box_init(box *b, const emu_tensor_map *m, const int32_t *coord, const int32_t *off,
                     const char **why)
{
    memset(b, 0, sizeof *b);
    b->m = m;
    b->coord = coord;
    b->elems = 1;
    for (int i = 0; i < EMU_TENSOR_MAP_MAX_RANK; i++) {
        b->n[i] = 1;
        b->step[i] = 1;
    }
    if (m->im2col) {
        b->im2col = true;
        b->nsp = m->rank - 2;
        b->n[0] = m->channels_per_pixel;
        b->elems = (uint64_t)m->channels_per_pixel * m->pixels_per_column;
        int64_t lin = coord[m->rank - 1];   /* the image */
        for (int s = b->nsp - 1; s >= 0; s--) {
            int d = s + 1;
            int64_t st = m->element_stride[d] ? m->element_stride[d] : 1;
            int64_t lo = m->lower_corner[s], hi = (int64_t)m->global_dim[d] - 1 + m->upper_corner[s];
            int64_t cnt = hi >= lo ? (hi - lo) / st + 1 : 1;
            int64_t idx = coord[d] - lo;
            if (idx < 0 || idx % st || idx / st >= cnt) {
                *why = "the filter base coordinates lie outside the tensor map's bounding box";
                return false;
            }
            b->lo[s] = lo;
            b->cnt[s] = cnt;
            b->step[d] = (uint32_t)st;
            b->off[s] = off ? off[s] : 0;
            lin = lin * cnt + idx / st;
        }
        b->start = lin;
    } else {
        for (int i = 0; i < m->rank; i++) {
            /* no traversal stride along dimension 0 unless the layout is interleaved */
            b->step[i] = (i == 0 && m->interleave == EMU_TMAP_INTERLEAVE_NONE) ? 1
                                                                               : m->element_stride[i];
            b->n[i] = (m->box_dim[i] + b->step[i] - 1) / b->step[i];
            b->elems *= b->n[i];
        }
    }
    b->bytes = b->elems * m->elem_bytes;
    return true;
}

/* Element e of the copy: its global address, and whether it lies inside the tensor. */
static bool box_elem(const box *b, uint64_t e, uint64_t *gaddr)
{
    const emu_tensor_map *m = b->m;
    bool in = true;
    uint64_t a = m->global_address;
    int64_t x[EMU_TENSOR_MAP_MAX_RANK];
    if (b->im2col) {
        x[0] = (int64_t)b->coord[0] + (int64_t)(e % b->n[0]);
        int64_t lin = b->start + (int64_t)(e / b->n[0]);
        for (int s = 0; s < b->nsp; s++) {
            x[s + 1] = b->lo[s] + (lin % b->cnt[s]) * b->step[s + 1] + b->off[s];
            lin /= b->cnt[s];
        }
        x[m->rank - 1] = lin;
    } else {
        for (int i = 0; i < m->rank; i++) {
            uint64_t j = e % b->n[i];
            e /= b->n[i];
            x[i] = (int64_t)b->coord[i] + (int64_t)(j * b->step[i]);
        }
    }
    for (int i = 0; i < m->rank; i++) {
        if (x[i] < 0 || (uint64_t)x[i] >= m->global_dim[i]) in = false;
        a += (uint64_t)x[i] * (i == 0 ? m->elem_bytes : m->global_stride[i - 1]);
    }
    *gaddr = a;
    return in;
}

/* Whether element e of a tile box, outside the tensor only past the end of its rows
 * (dimension 0), shares its 16-byte granule with the row's last element. A tensor store writes
 * such elements too, where the PTX ISA says out-of-bound elements are not written: an H100
 * (2026-11-27) storing 32-element boxes over rows of 70 floats (72 apart) wrote elements 70 and
 * 71, and over rows of 50 ints (64 apart) elements 50 and 51, and no others (tma_tensor.cu's
 * tile_transform_2d and libcudacxx_guide_example). Rows start 16-byte aligned (the encoder's
 * rules), so the granule lies inside the row's pitch. */
static bool in_row_tail_granule(const box *b, uint64_t e)
{
    const emu_tensor_map *m = b->m;
    if (b->im2col) return false;
    int64_t x0 = 0;
    for (int i = 0; i < m->rank; i++) {
        uint64_t j = e % b->n[i];
        e /= b->n[i];
        int64_t x = (int64_t)b->coord[i] + (int64_t)(j * b->step[i]);
        if (i == 0) x0 = x;
        else if (x < 0 || (uint64_t)x >= m->global_dim[i]) return false;
    }
    if (x0 < (int64_t)m->global_dim[0]) return false;
    uint64_t last = m->global_dim[0] * m->elem_bytes - 1;
    return (uint64_t)x0 * m->elem_bytes / 16 == last / 16;
}

/* The shared-memory offset the map's swizzle gives byte offset a. */
static uint64_t swizzle(unsigned mode, uint64_t a)
{
    switch (mode) {
    case EMU_TMAP_SWIZZLE_32B: return a ^ ((a >> 3) & 0x10);
    case EMU_TMAP_SWIZZLE_64B: return a ^ ((a >> 3) & 0x30);
    case EMU_TMAP_SWIZZLE_128B: return a ^ ((a >> 3) & 0x70);
    case EMU_TMAP_SWIZZLE_128B_ATOM_32B: return a ^ ((a >> 3) & 0x60);
    case EMU_TMAP_SWIZZLE_128B_ATOM_32B_FLIP_8B:
        return (a ^ ((a >> 3) & 0x60)) ^ (((a >> 7) & 1) << 3);
    case EMU_TMAP_SWIZZLE_128B_ATOM_64B: return a ^ ((a >> 3) & 0x40);
    default: return a;
    }
}

/* Host pointer of `size` bytes at shared offset a (generic or shared window stripped), or NULL
 * after a fault. */
static uint8_t *shared_ptr(emu_ctx *c, int l, uint64_t a, uint64_t size, const char *verb)
{
    if (a >= EMU_SHARED_WINDOW && a < EMU_SHARED_WINDOW + EMU_WINDOW_SIZE) a -= EMU_SHARED_WINDOW;
    if (a > c->cta->smem_size || size > c->cta->smem_size - a) {
        emu_fault_raise(c, EMU_FAULT_SHARED_OUT_OF_RANGE, l, true, a, verb,
                        "the box is outside the block's %llu bytes of shared memory",
                        (unsigned long long)c->cta->smem_size);
        return NULL;
    }
    return c->cta->smem + a;
}

static uint64_t shared_offset(uint64_t a)
{
    return (a >= EMU_SHARED_WINDOW && a < EMU_SHARED_WINDOW + EMU_WINDOW_SIZE) ? a - EMU_SHARED_WINDOW
                                                                               : a;
}

/* The host pointer of the 8-byte mbarrier at shared address a, or NULL (a fault is raised). */
static uint8_t *mbarrier_ptr(emu_ctx *c, int l, uint64_t a)
{
    a = shared_offset(a);
    if (a % 8) {
        emu_fault_raise(c, EMU_FAULT_MISALIGNED, l, true, a, "Misaligned mbarrier",
                        "an mbarrier object must be 8-byte aligned");
        return NULL;
    }
    return shared_ptr(c, l, a, 8, "Invalid __shared__ mbarrier access");
}

/* The box's NaN for NAN_REQUEST_ZERO_FMA fills: the canonical quiet NaN of the element type. */
static void fill_value(const emu_tensor_map *m, uint8_t *v)
{
    memset(v, 0, 8);
    if (!m->oob_fill) return;
    switch (m->dtype) {
    case EMU_TMAP_FLOAT16: v[0] = 0x00; v[1] = 0x7e; break;
    case EMU_TMAP_BFLOAT16: v[0] = 0xc0; v[1] = 0x7f; break;
    case EMU_TMAP_FLOAT64: {
        uint64_t n = UINT64_C(0x7ff8000000000000);
        memcpy(v, &n, 8);
        break;
    }
    default: {
        uint32_t n = 0x7fc00000u;   /* f32, tf32 */
        memcpy(v, &n, 4);
        break;
    }
    }
}

/* Reads lane l's [tensorMap, {coords}] operand and checks it against the instruction: the map's
 * rank is the instruction's .Nd, and the shared-memory box is 128-byte aligned. False after a
 * fault. */
static bool open_tensor(emu_ctx *c, const ptx_instr *in, int l, const ptx_operand *op, int nd,
                        uint64_t smem, emu_tensor_map *m, uint64_t *ma, int32_t *coord)
{
    tensor_operand(c, op, l, ma, coord, nd);
    if (!read_map(c, in, l, *ma, m)) return false;
    if (m->rank != (unsigned)nd) {
        emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, l, true, *ma, "Tensor map mismatch",
                        "a .%dd tensor copy names a tensor map of rank %u", nd, m->rank);
        return false;
    }
    if (smem % 128) {
        emu_fault_raise(c, EMU_FAULT_MISALIGNED, l, true, smem, "Misaligned tensor copy",
                        "the shared-memory box must be 128-byte aligned");
        return false;
    }
    return true;
}

/* Where one run of a tensor copy's elements goes in (or comes from) shared memory: `len` bytes
 * at `smem`, from the access's piece `piece`, or the lane's fill value when it is -1. */
typedef struct tensor_run {
    uint8_t *smem;
    uint32_t len;
    int32_t piece;
    uint8_t lane;
} tensor_run;

typedef struct run_list {
    tensor_run *v;
    size_t n, cap;
} run_list;

static bool run_add(run_list *r, tensor_run x)
{
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 256;
        tensor_run *nv = realloc(r->v, nc * sizeof *nv);
        if (!nv) return false;
        r->v = nv;
        r->cap = nc;
    }
    r->v[r->n++] = x;
    return true;
}

static void out_of_memory(emu_ctx *c, int l)
{
    emu_fault_raise(c, EMU_FAULT_OUT_OF_RESOURCES, l, false, 0, "Out of host memory",
                    "ptxsim could not stage a tensor copy");
}

/* cp.async.bulk.tensor.Nd.shared::cluster.global{.tile,.im2col}.mbarrier::complete_tx::bytes
 *     [dstMem], [tensorMap, {coords}], [mbar] {, {im2colOffsets}} {, ctaMask} {, cache-policy}
 * Every lane's map, box, shared destination and mbarrier are checked first; then every
 * in-bounds element of every lane is read as one access (runs of elements that fill an aligned
 * 16 bytes as one piece), and only then is shared memory written. */
static void x_tensor_load(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    int nd = dims_of(in);
    bool multicast = ptx_instr_has(in, PTX_SFX_MULTICAST_CLUSTER);
    bool im2col = ptx_instr_has(in, PTX_SFX_IM2COL);
    int mask_op = im2col ? 4 : 3;
    uint8_t *mbp[EMU_WARP_SIZE];
    uint32_t bytes[EMU_WARP_SIZE];
    uint8_t fill[EMU_WARP_SIZE][8];
    run_list runs = { NULL, 0, 0 };
    emu_access A;
    emu_acc_init(&A);
    emu_acc_begin(&A, c, EMU_MEM_LOAD, PTX_SPACE_GLOBAL, "read");
    uint32_t delivered = 0;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint64_t dst = shared_offset(address_value(c, &in->ops[0], l)), ma;
        uint64_t mbar = address_value(c, &in->ops[2], l);
        int32_t coord[EMU_TENSOR_MAP_MAX_RANK];
        emu_tensor_map m;
        if (!open_tensor(c, in, l, &in->ops[1], nd, dst, &m, &ma, coord)) goto out;
        if (!(mbp[l] = mbarrier_ptr(c, l, mbar))) goto out;
        /* a cluster here is one CTA, rank 0: a multicast reaches it when its bit is set */
        bool deliver = !multicast ||
                       (in->nops > mask_op && (emu_read(c, &in->ops[mask_op], l, PTX_TYPE_U16) & 1));
        int32_t off[3] = { 0, 0, 0 };
        if (im2col) {
            const ptx_operand *o = &in->ops[3];
            for (int s = 0; s < nd - 2 && s < 3; s++) {
                const ptx_operand *v = o->kind == PTX_OPD_VEC ? (s < o->nelem ? &o->elems[s] : NULL)
                                                              : (s == 0 ? o : NULL);
                off[s] = v ? (int32_t)(emu_read(c, v, l, PTX_TYPE_U16) & 0xffff) : 0;
            }
        }
        box b;
        const char *why = NULL;
        if (!box_init(&b, &m, coord, off, &why)) {
            emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, l, true, ma, "Invalid im2col copy",
                            "%s", why);
            goto out;
        }
        unsigned es = m.elem_bytes;
        fill_value(&m, fill[l]);
        bytes[l] = (uint32_t)b.bytes;
        if (!deliver) continue;
        delivered |= 1u << l;
        for (uint64_t e = 0; e < b.elems;) {
            uint64_t ga;
            bool inside = box_elem(&b, e, &ga);
            unsigned per = 16 / es, run = 1;
            if (inside && ga % 16 == 0 && e % b.n[0] + per <= b.n[0] &&
                (uint64_t)(coord[0] + (int64_t)(e % b.n[0]) + per) <= m.global_dim[0] &&
                (dst + e * es) % 16 == 0)
                run = per;
            /* the run is one 16-byte chunk, which the swizzle moves as a whole */
            uint64_t so = swizzle(m.swizzle, dst + e * es);
            uint8_t *p = shared_ptr(c, l, so, run * es, "Invalid __shared__ write by a tensor copy");
            if (!p) goto out;
            int32_t piece = -1;
            if (inside) {
                piece = (int32_t)A.n;
                if (!emu_acc_piece(&A, l, ga, run * es)) {
                    out_of_memory(c, l);
                    goto out;
                }
            }
            if (!run_add(&runs, (tensor_run){ p, run * es, piece, (uint8_t)l })) {
                out_of_memory(c, l);
                goto out;
            }
            e += run;
        }
    }
    if (!emu_acc_run(&A, 1)) goto out;
    emu_mem_policy *pol = c->g->launch.policy;
    for (size_t i = 0; i < runs.n; i++) {
        const tensor_run *r = &runs.v[i];
        if (r->piece >= 0) memcpy(r->smem, emu_acc_data(&A, &A.p[r->piece]), r->len);
        else memcpy(r->smem, fill[r->lane], r->len);
        if (pol->observe) {
            /* the copy's shared-memory side, written here, for a policy that observes it */
            emu_mem_seg seg = { (uint64_t)(r->smem - c->cta->smem), r->len, 0, r->lane };
            emu_mem_op op = { .kind = EMU_MEM_STORE, .space = PTX_SPACE_SHARED, .cls = u->cls,
                              .func = (uint16_t)c->f->index, .mask = 1u << r->lane,
                              .pc = c->pc, .nseg = 1, .seg = &seg };
            pol->observe(pol, c->w, &op);
        }
    }
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        emu_mbarrier_update(mbp[l], EMU_MBAR_COMPLETE_TX, 0, (int32_t)bytes[l]);
    }
    (void)delivered;
out:
    free(runs.v);
    emu_acc_release(&A);
}

/* The PTX type an atomic on elements of map m uses, or NONE. */
static uint8_t map_ptx_type(const emu_tensor_map *m)
{
    switch (m->dtype) {
    case EMU_TMAP_UINT32: return PTX_TYPE_U32;
    case EMU_TMAP_INT32: return PTX_TYPE_S32;
    case EMU_TMAP_UINT64: return PTX_TYPE_U64;
    case EMU_TMAP_INT64: return PTX_TYPE_S64;
    case EMU_TMAP_FLOAT16: return PTX_TYPE_F16;
    case EMU_TMAP_BFLOAT16: return PTX_TYPE_BF16;
    case EMU_TMAP_FLOAT32:
    case EMU_TMAP_FLOAT32_FTZ: return PTX_TYPE_F32;
    case EMU_TMAP_FLOAT64: return PTX_TYPE_F64;
    default: return PTX_TYPE_NONE;
    }
}

/* Adds an atomic (reduction) piece of es bytes at global address a with operand val. */
static bool reduce_piece(emu_access *A, int l, uint64_t a, unsigned es, const uint8_t *val)
{
    emu_piece *p = emu_acc_piece(A, l, a, es);
    if (!p) return false;
    uint8_t *d = emu_acc_data(A, p);
    memset(d, 0, es);
    memcpy(d + es, val, es);
    return true;
}

/* cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [tensorMap, {coords}], [srcMem]
 * and cp.reduce.async.bulk.tensor.Nd.global.shared::cta.op.tile.bulk_group (same operands):
 * each lane's in-bounds elements are one access (the reduction one atomic operation); lanes
 * whose maps have different element types are one reduction each. */
static void x_tensor_store(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    int nd = dims_of(in);
    bool reduce = in->op == PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR;
    emu_access A;
    emu_acc_init(&A);
    emu_acc_begin(&A, c, reduce ? EMU_MEM_ATOMIC : EMU_MEM_STORE, PTX_SPACE_GLOBAL,
                  reduce ? "atomic" : "write");
    A.aop = reduce ? in->aop : 0;
    unsigned align = 1;   /* a reduction's elements are aligned to their size */
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint64_t src = shared_offset(address_value(c, &in->ops[1], l)), ma;
        int32_t coord[EMU_TENSOR_MAP_MAX_RANK];
        emu_tensor_map m;
        if (!open_tensor(c, in, l, &in->ops[0], nd, src, &m, &ma, coord)) goto out;
        if (reduce) {
            /* the ISA's table for tensor reductions, on the map's element type */
            uint8_t t = map_ptx_type(&m);
            bool ok, ints = t == PTX_TYPE_U32 || t == PTX_TYPE_S32 || t == PTX_TYPE_U64,
                     half = t == PTX_TYPE_F16 || t == PTX_TYPE_BF16;
            switch (in->aop) {
            case PTX_SFX_ADD: ok = ints || t == PTX_TYPE_F32 || half; break;
            case PTX_SFX_MIN: case PTX_SFX_MAX: ok = ints || t == PTX_TYPE_S64 || half; break;
            case PTX_SFX_INC: case PTX_SFX_DEC: ok = t == PTX_TYPE_U32; break;
            case PTX_SFX_AND: case PTX_SFX_OR: case PTX_SFX_XOR: ok = ints || t == PTX_TYPE_S64; break;
            default: ok = false;
            }
            if (!ok) {
                emu_fault_raise(c, EMU_FAULT_ILLEGAL_INSTRUCTION, l, true, ma,
                                "Invalid tensor reduction",
                                "the reduction is not defined on the tensor map's element type");
                goto out;
            }
            if (A.n && A.atype != t) {
                /* one operation has one element type: finish the lanes before */
                if (!emu_acc_run(&A, align)) goto out;
                emu_acc_begin(&A, c, EMU_MEM_ATOMIC, PTX_SPACE_GLOBAL, "atomic");
                A.aop = in->aop;
            }
            A.atype = t;
        }
        box b;
        const char *why = NULL;
        box_init(&b, &m, coord, NULL, &why);
        unsigned es = m.elem_bytes;
        if (reduce) align = es;
        for (uint64_t e = 0; e < b.elems; e++) {
            uint64_t ga;
            /* out-of-bound elements are not written, but for those a store writes with the
             * row's last granule (a reduction's, unobserved, follows the ISA) */
            if (!box_elem(&b, e, &ga) && (reduce || !in_row_tail_granule(&b, e))) continue;
            uint8_t *p = shared_ptr(c, l, swizzle(m.swizzle, src + e * es), es,
                                    "Invalid __shared__ read by a tensor copy");
            if (!p) goto out;
            bool ok;
            if (reduce) {
                ok = reduce_piece(&A, l, ga, es, p);
            } else {
                emu_piece *q = emu_acc_piece(&A, l, ga, es);
                if ((ok = q != NULL)) memcpy(emu_acc_data(&A, q), p, es);
            }
            if (!ok) {
                out_of_memory(c, l);
                goto out;
            }
        }
    }
    if (A.n) emu_acc_run(&A, align);
out:
    emu_acc_release(&A);
}

/* cp.async.bulk.prefetch.tensor.Nd.L2.global{.tile} [tensorMap, {coords}]: no data moves, but
 * the map is checked as a copy would check it. */
static void x_tensor_prefetch(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    int nd = dims_of(in);
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint64_t ma;
        int32_t coord[EMU_TENSOR_MAP_MAX_RANK];
        tensor_operand(c, &in->ops[0], l, &ma, coord, nd);
        emu_tensor_map m;
        if (!read_map(c, in, l, ma, &m)) return;
    }
}

/* cp.reduce.async.bulk.dst.src.completion.op.type [dstMem], [srcMem], size {, [mbar]}:
 * element-wise reductions of size bytes of shared memory into global memory (bulk_group: one
 * atomic operation for every element of every lane) or into shared memory
 * (mbarrier::complete_tx::bytes). */
static void x_bulk_reduce(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    uint8_t dsp, ssp;
    emu_copy_spaces(in, &dsp, &ssp);
    if (emu_bulk_needs_cluster(c, dsp, ssp)) return;
    uint8_t t = PTX_TYPE_NONE;
    for (int i = 0; i < in->ntypes; i++) t = in->types[i];
    unsigned es = emu_type_bits[t] / 8;
    bool mbar = ptx_instr_has(in, PTX_SFX_MBARRIER_COMPLETE_TX_BYTES);
    uint8_t *src[EMU_WARP_SIZE], *dst[EMU_WARP_SIZE], *mb[EMU_WARP_SIZE];
    uint64_t da[EMU_WARP_SIZE], size[EMU_WARP_SIZE];
    emu_access A;
    emu_acc_init(&A);
    emu_acc_begin(&A, c, EMU_MEM_ATOMIC, PTX_SPACE_GLOBAL, "atomic");
    A.aop = in->aop;
    A.atype = t;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        da[l] = address_value(c, &in->ops[0], l);
        uint64_t sa = shared_offset(address_value(c, &in->ops[1], l));
        size[l] = emu_read(c, &in->ops[2], l, PTX_TYPE_U32);
        if (size[l] % 16 || da[l] % 16 || sa % 16) {
            emu_fault_raise(c, EMU_FAULT_MISALIGNED, l, true,
                            size[l] % 16 ? size[l] : da[l] % 16 ? da[l] : sa,
                            "Misaligned bulk reduction",
                            "cp.reduce.async.bulk needs 16-byte aligned addresses and a size "
                            "that is a multiple of 16 (size %llu)", (unsigned long long)size[l]);
            goto out;
        }
        if (!(src[l] = shared_ptr(c, l, sa, size[l], "Invalid __shared__ read by a bulk reduction")))
            goto out;
        mb[l] = NULL;
        if (mbar && !(mb[l] = mbarrier_ptr(c, l, address_value(c, &in->ops[3], l)))) goto out;
        dst[l] = NULL;
        if (dsp == PTX_SPACE_GLOBAL) {
            for (uint64_t off = 0; off < size[l]; off += es)
                if (!reduce_piece(&A, l, da[l] + off, es, src[l] + off)) {
                    out_of_memory(c, l);
                    goto out;
                }
        } else if (!(dst[l] = shared_ptr(c, l, shared_offset(da[l]), size[l],
                                         "Invalid __shared__ write by a bulk reduction"))) {
            goto out;
        }
    }
    if (A.n && !emu_acc_run(&A, es)) goto out;
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        if (dst[l]) {
            uint8_t old[16];
            for (uint64_t off = 0; off < size[l]; off += es)
                emu_atomic_apply(in->aop, t, dst[l] + off, src[l] + off, NULL, old);
        }
        if (mb[l]) emu_mbarrier_update(mb[l], EMU_MBAR_COMPLETE_TX, 0, (int32_t)size[l]);
    }
out:
    emu_acc_release(&A);
}

/* tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
 *     [dst], [src], 128: copies a tensor map from shared to global memory, then fences. */
static void x_tensormap_cp(emu_ctx *c, const emu_uop *u)
{
    const ptx_instr *in = u->in;
    emu_access A;
    emu_acc_init(&A);
    emu_acc_begin(&A, c, EMU_MEM_STORE, PTX_SPACE_GLOBAL, "write");
    for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
        int l = __builtin_ctz(mk);
        uint64_t da = address_value(c, &in->ops[0], l);
        uint64_t sa = shared_offset(address_value(c, &in->ops[1], l));
        uint8_t *src = shared_ptr(c, l, sa, 128, "Invalid __shared__ read of a tensor map");
        if (!src) goto out;
        emu_piece *p = emu_acc_piece(&A, l, da, 128);
        if (p) memcpy(emu_acc_data(&A, p), src, 128);
    }
    if (!emu_acc_run(&A, 16)) goto out;
    emu_mem_op op = { .kind = EMU_MEM_FENCE, .space = PTX_SPACE_GLOBAL, .cls = u->cls,
                      .func = (uint16_t)c->f->index, .mask = c->mask, .pc = c->pc };
    emu_mem_policy *pol = c->g->launch.policy;
    emu_mem_outcome r = pol->access(pol, c->w, &op);
    if (r == EMU_MEM_DONE_STOP) c->stop = EMU_STOP_MEMORDER;
out:
    emu_acc_release(&A);
}

static bool is_list(const ptx_operand *o)
{
    return o->kind == PTX_OPD_LIST && o->comp == 1 && o->nelem >= 1;
}

/* The ISA's table of cp.reduce.async.bulk operations and element types, per destination. */
static bool reduce_type_ok(const ptx_instr *in, bool shared_dst)
{
    uint8_t t = PTX_TYPE_NONE;
    for (int i = 0; i < in->ntypes; i++) t = in->types[i];
    bool i32 = t == PTX_TYPE_U32 || t == PTX_TYPE_S32;
    bool half = t == PTX_TYPE_F16 || t == PTX_TYPE_BF16;
    switch (in->aop) {
    case PTX_SFX_AND: case PTX_SFX_OR: case PTX_SFX_XOR:
        return t == PTX_TYPE_B32 || (!shared_dst && t == PTX_TYPE_B64);
    case PTX_SFX_INC: case PTX_SFX_DEC:
        return t == PTX_TYPE_U32;
    case PTX_SFX_MIN: case PTX_SFX_MAX:
        if (shared_dst) return i32;
        return i32 || t == PTX_TYPE_U64 || t == PTX_TYPE_S64 || half;
    case PTX_SFX_ADD:
        if (shared_dst) return i32 || t == PTX_TYPE_U64;
        /* f16/bf16 additions are written .add.noftz */
        return i32 || t == PTX_TYPE_U64 || t == PTX_TYPE_F32 || t == PTX_TYPE_F64 ||
               (half && (in->flags & PTX_F(NOFTZ)));
    default: return false;
    }
}

emu_exec_fn emu_select_tensor(emu_code *code, emu_uop *u)
{
    const ptx_instr *in = u->in;
    (void)code;
    uint8_t d, s;
    emu_copy_spaces(in, &d, &s);
    switch (in->op) {
    case PTX_OP_CP_ASYNC_BULK_TENSOR: {
        int nd = dims_of(in);
        bool im2col = ptx_instr_has(in, PTX_SFX_IM2COL);
        if (!nd || in->nops < 2 || ptx_instr_has(in, PTX_SFX_IM2COL_W) ||
            ptx_instr_has(in, PTX_SFX_IM2COL_W_128) || ptx_instr_has(in, PTX_SFX_IM2COL_NO_OFFS) ||
            ptx_instr_has(in, PTX_SFX_TILE_GATHER4) || ptx_instr_has(in, PTX_SFX_TILE_SCATTER4))
            return NULL;
        if (d == PTX_SPACE_GLOBAL && s == PTX_SPACE_SHARED) {
            if (im2col || !(in->flags & PTX_F(BULK_GROUP)) || !is_list(&in->ops[0]) ||
                in->ops[1].kind != PTX_OPD_ADDR)
                return NULL;
            return x_tensor_store;
        }
        if ((d == PTX_SPACE_SHARED_CLUSTER || d == PTX_SPACE_SHARED) && s == PTX_SPACE_GLOBAL) {
            if (!ptx_instr_has(in, PTX_SFX_MBARRIER_COMPLETE_TX_BYTES) || in->nops < 3 ||
                in->ops[0].kind != PTX_OPD_ADDR || !is_list(&in->ops[1]) ||
                in->ops[2].kind != PTX_OPD_ADDR)
                return NULL;
            if (im2col && (nd < 3 || in->nops < 4)) return NULL;
            if (ptx_instr_has(in, PTX_SFX_MULTICAST_CLUSTER) && in->nops < (im2col ? 5 : 4))
                return NULL;
            return x_tensor_load;
        }
        return NULL;
    }
    case PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR:
        if (!dims_of(in) || in->nops < 2 || d != PTX_SPACE_GLOBAL || s != PTX_SPACE_SHARED ||
            ptx_instr_has(in, PTX_SFX_IM2COL) || !is_list(&in->ops[0]) ||
            in->ops[1].kind != PTX_OPD_ADDR)
            return NULL;
        switch (in->aop) {
        case PTX_SFX_ADD: case PTX_SFX_MIN: case PTX_SFX_MAX: case PTX_SFX_INC: case PTX_SFX_DEC:
        case PTX_SFX_AND: case PTX_SFX_OR: case PTX_SFX_XOR: return x_tensor_store;
        default: return NULL;
        }
    case PTX_OP_CP_ASYNC_BULK_PREFETCH_TENSOR:
        if (!dims_of(in) || in->nops < 1 || !is_list(&in->ops[0])) return NULL;
        return x_tensor_prefetch;
    case PTX_OP_CP_REDUCE_ASYNC_BULK: {
        if (in->nops < 3 || s != PTX_SPACE_SHARED || in->ops[0].kind != PTX_OPD_ADDR ||
            in->ops[1].kind != PTX_OPD_ADDR)
            return NULL;
        if (d == PTX_SPACE_GLOBAL) {
            if (!(in->flags & PTX_F(BULK_GROUP)) || !reduce_type_ok(in, false)) return NULL;
            return x_bulk_reduce;
        }
        if (d == PTX_SPACE_SHARED_CLUSTER) {
            if (!ptx_instr_has(in, PTX_SFX_MBARRIER_COMPLETE_TX_BYTES) || in->nops < 4 ||
                in->ops[3].kind != PTX_OPD_ADDR || !reduce_type_ok(in, true))
                return NULL;
            return x_bulk_reduce;
        }
        return NULL;
    }
    case PTX_OP_TENSORMAP_CP_FENCEPROXY:
        if (in->nops < 2 || in->ops[0].kind != PTX_OPD_ADDR || in->ops[1].kind != PTX_OPD_ADDR)
            return NULL;
        return x_tensormap_cp;
    default: return NULL;
    }
}
