/* sem_tex.c: what the texture unit computes: texel decoding, addressing modes, nearest and
 * linear filtering, mipmap selection, cubemap face selection, and the bilinear footprint of
 * tld4; and how surface coordinates become addresses.
 *
 * The rules are those of the CUDA Programming Guide's "Texture Fetching" appendix:
 * - nearest: tex(x) = T[floor(x)];
 * - linear: tex(x) = (1-a) T[i] + a T[i+1], i = floor(xB), a = frac(xB), xB = x - 0.5, where a
 *   is held in 9-bit fixed point with 8 fractional bits (so it is frac(xB) rounded to a multiple
 *   of 1/256, and 1.0 is representable); 2D and 3D interpolate the 4 or 8 neighbours with
 *   weights that are themselves held with 8 fractional bits (corner_weights below);
 * - clamp, wrap, mirror and border act on texel indices (wrap and mirror need normalized
 *   coordinates; with unnormalized ones they act as clamp, as on the hardware);
 * - out-of-range fetches from linear memory (tex1Dfetch) return zero.
 * Coordinates are scaled in double precision, where x * width is exact, so a texel boundary
 * falls where it does in exact arithmetic.
 */
#include "emulator/emu_internal.h"
#include "emulator/sem/sem.h"

#include <math.h>
#include <string.h>

typedef struct texel {
    double f[4];      /* float results */
    int64_t i[4];     /* integer results */
    uint64_t at;      /* address of the (first) texel read, 0: none (border, outside) */
} texel;

static bool float_result(const emu_texture *t)
{
    if (t->kind == EMU_TEXEL_FLOAT) return true;
    return t->read_normalized && t->bits[0] <= 16;
}

static double srgb_to_linear(double c)
{
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

/* Decodes the texel at p. Missing channels read as (0, 0, 1) for y, z, w. */
static void decode(const emu_texture *t, const uint8_t *p, texel *out)
{
    bool fr = float_result(t);
    for (int ch = 0; ch < 4; ch++) {
        out->f[ch] = ch == 3 ? 1.0 : 0.0;
        out->i[ch] = ch == 3 ? 1 : 0;
    }
    for (int ch = 0; ch < t->nchan; ch++) {
        unsigned b = t->bits[ch];
        uint64_t raw = 0;
        memcpy(&raw, p, b / 8);
        p += b / 8;
        double f;
        int64_t iv;
        if (t->kind == EMU_TEXEL_FLOAT) {
            f = b == 16 ? emu_f16_to_f64((uint16_t)raw) : (double)emu_as_f32(raw);
            iv = (int64_t)raw;
        } else if (t->kind == EMU_TEXEL_SIGNED) {
            iv = emu_sext(raw, b);
            double m = (double)((UINT64_C(1) << (b - 1)) - 1);
            f = fr ? fmax((double)iv / m, -1.0) : (double)iv;
        } else {
            iv = (int64_t)raw;
            double m = (double)((UINT64_C(1) << b) - 1);
            f = fr ? (double)raw / m : (double)raw;
            if (fr && t->srgb && b == 8 && ch < 3) f = srgb_to_linear(f);
        }
        /* the filtering datapath is single precision */
        out->f[ch] = (double)(float)f;
        out->i[ch] = iv;
    }
}

static void border_texel(const emu_texture *t, texel *out)
{
    for (int ch = 0; ch < 4; ch++) {
        out->f[ch] = t->border[ch];
        out->i[ch] = (int64_t)t->border[ch];
    }
}

/* Maps texel index i of a dimension of n texels by addressing mode; false: border. */
static bool address(const emu_texture *t, int dim, int64_t i, int64_t n, int64_t *out)
{
    int mode = t->address[dim];
    if (!t->normalized_coords && (mode == EMU_TEX_WRAP || mode == EMU_TEX_MIRROR))
        mode = EMU_TEX_CLAMP;
    if (i >= 0 && i < n) {
        *out = i;
        return true;
    }
    switch (mode) {
    case EMU_TEX_WRAP: *out = ((i % n) + n) % n; return true;
    case EMU_TEX_MIRROR: {
        int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
        *out = m < n ? m : 2 * n - 1 - m;
        return true;
    }
    case EMU_TEX_BORDER: return false;
    default: *out = i < 0 ? 0 : n - 1; return true;
    }
}

/* The texel at integer coordinates (i, j, k) of layer `layer` of level lv, addressed. */
static void fetch(const emu_texture *t, const emu_tex_level *lv, int64_t i, int64_t j, int64_t k,
                  uint32_t layer, texel *out)
{
    int64_t x, y = 0, z = 0;
    if (!address(t, 0, i, lv->width, &x) ||
        (t->dims >= 2 && !address(t, 1, j, lv->height, &y)) ||
        (t->dims >= 3 && !address(t, 2, k, lv->depth, &z))) {
        border_texel(t, out);
        out->at = 0;
        return;
    }
    uint64_t slice = t->dims >= 3 ? (uint64_t)z : layer;
    out->at = lv->base + slice * lv->slice + (uint64_t)y * lv->pitch + (uint64_t)x * t->elem;
    decode(t, (const uint8_t *)(uintptr_t)out->at, out);
}

/* frac rounded to the 8 fractional bits of the hardware's 9-bit weights, in 1/256 units */
static int64_t weight8(double frac)
{
    return (int64_t)nearbyint(frac * 256.0);
}

/* The corner weights of linear filtering, in 1/256 units. A GPU holds them with 8 fractional
 * bits too, not as exact products of the per-dimension weights: an H100 resamples a float texture
 * at weights a = 51/256, b = 96/256 (texels 1, 4 / 6, -8) to 2.2109375, which is
 * (128*1 + 32*4 + 77*6 + 19*(-8)) / 256, where ab = 19.125/256 is held as 19/256 and the other
 * weights are what is left, so that each row and column keeps its 1-D weight exactly (clamped
 * rows there filter as in 1-D). In general: the product over a set S of dimensions,
 * P(S) = round(prod A_d / 256^(|S|-1)), and by inclusion-exclusion the corner with the set H of
 * upper neighbours weighs sum over S containing H of (-1)^|S \ H| P(S). Ties (a product
 * exactly halfway) round up here: the H100 run did not show which way they go. */
static void corner_weights(const int64_t *A, int nd, int64_t *w)
{
    int64_t prod[8];
    for (int set = 0; set < 1 << nd; set++) {
        int64_t p = 256, scale = 1;
        for (int d = 0; d < nd; d++)
            if (set >> d & 1) {
                p *= A[d];
                scale *= 256;
            }
        prod[set] = (p + scale / 2) / scale;
    }
    for (int h = 0; h < 1 << nd; h++) {
        int64_t sum = 0;
        for (int set = 0; set < 1 << nd; set++)
            if ((set & h) == h)
                sum += __builtin_parity((unsigned)(set & ~h)) ? -prod[set] : prod[set];
        w[h] = sum;
    }
}

/* Cubemap face and face coordinates (in [0, 1]) of direction (x, y, z), by the Programming
 * Guide's table. */
static unsigned cube_face(double x, double y, double z, double *s, double *tt)
{
    double ax = fabs(x), ay = fabs(y), az = fabs(z), sc, tc, ma;
    unsigned face;
    if (ax >= ay && ax >= az) {
        face = x >= 0 ? 0 : 1;
        sc = x >= 0 ? -z : z;
        tc = -y;
        ma = ax;
    } else if (ay >= az) {
        face = y >= 0 ? 2 : 3;
        sc = x;
        tc = y >= 0 ? z : -z;
        ma = ay;
    } else {
        face = z >= 0 ? 4 : 5;
        sc = z >= 0 ? x : -x;
        tc = -y;
        ma = az;
    }
    if (ma == 0) ma = 1;
    *s = (sc / ma + 1) * 0.5;
    *tt = (tc / ma + 1) * 0.5;
    return face;
}

static int sample_dims(uint8_t geom)
{
    switch (geom) {
    case PTX_SFX_G1D: case PTX_SFX_GA1D: return 1;
    case PTX_SFX_G3D: return 3;
    default: return 2;
    }
}

/* One level's sample at coordinates u[] (texel space, offsets applied). */
static void sample_level(const emu_texture *t, const emu_tex_level *lv, int nd,
                         const double *u, bool point, uint32_t layer, int gather, texel *out)
{
    if (point && gather < 0) {
        int64_t i = (int64_t)floor(u[0]), j = nd > 1 ? (int64_t)floor(u[1]) : 0,
                k = nd > 2 ? (int64_t)floor(u[2]) : 0;
        fetch(t, lv, i, j, k, layer, out);
        return;
    }
    int64_t base[3] = { 0, 0, 0 };
    int64_t a[3] = { 0, 0, 0 };
    out->at = 0;
    for (int d = 0; d < nd; d++) {
        double ub = u[d] - 0.5, fl = floor(ub);
        base[d] = (int64_t)fl;
        a[d] = weight8(ub - fl);
    }
    if (gather >= 0) {
        /* the bilinear footprint, counter-clockwise from the lower left:
         * (i, j+1), (i+1, j+1), (i+1, j), (i, j) */
        static const int di[4] = { 0, 1, 1, 0 }, dj[4] = { 1, 1, 0, 0 };
        for (int q = 0; q < 4; q++) {
            texel tx;
            fetch(t, lv, base[0] + di[q], base[1] + dj[q], 0, layer, &tx);
            if (!out->at) out->at = tx.at;
            out->f[q] = tx.f[gather];
            out->i[q] = tx.i[gather];
        }
        return;
    }
    double acc[4] = { 0, 0, 0, 0 };
    int corners = 1 << nd;
    int64_t weights[8];
    corner_weights(a, nd, weights);
    for (int cnr = 0; cnr < corners; cnr++) {
        double w = (double)weights[cnr] / 256.0;
        int64_t idx[3] = { base[0], base[1], base[2] };
        for (int d = 0; d < nd; d++)
            idx[d] += (cnr >> d) & 1;
        if (w == 0) continue;
        texel tx;
        fetch(t, lv, idx[0], idx[1], idx[2], layer, &tx);
        if (!out->at) out->at = tx.at;
        for (int ch = 0; ch < 4; ch++) acc[ch] += w * tx.f[ch];
    }
    for (int ch = 0; ch < 4; ch++) {
        out->f[ch] = (double)(float)acc[ch];
        out->i[ch] = (int64_t)acc[ch];
    }
}

static double f32_of(uint32_t bits) { return (double)emu_as_f32(bits); }

void emu_tex_sample(const emu_texture *t, const emu_tex_query *q, emu_tex_result *r)
{
    bool fr = float_result(t);
    r->is_float = fr;
    texel out;
    memset(&out, 0, sizeof out);
    int nd = sample_dims(q->geom);
    uint32_t layer = 0;
    double coord[3] = { 0, 0, 0 };
    bool cube = q->geom == PTX_SFX_GCUBE || q->geom == PTX_SFX_GACUBE;
    int first = 0;
    switch (q->geom) {
    case PTX_SFX_GA1D: case PTX_SFX_GA2D: case PTX_SFX_GACUBE:
        layer = q->c[0];
        first = 1;
        break;
    case PTX_SFX_G2DMS: first = 1; break;             /* sample number: one sample */
    case PTX_SFX_GA2DMS: layer = q->c[1]; first = 2; break;
    default: break;
    }
    if (cube) {
        double s, tt;
        unsigned face = cube_face(f32_of(q->c[first]), f32_of(q->c[first + 1]),
                                  f32_of(q->c[first + 2]), &s, &tt);
        layer = layer * 6 + face;
        coord[0] = s;
        coord[1] = tt;
    } else {
        for (int d = 0; d < nd; d++) {
            uint32_t v = q->c[first + d];
            coord[d] = q->int_coords ? (double)(int32_t)v : f32_of(v);
        }
    }
    if (t->layered || t->cubemap) {
        if (layer >= t->layers) layer = t->layers - 1;
    } else {
        layer = 0;
    }

    if (t->linear) {
        /* linear memory: integer element index, no addressing modes, zero outside */
        int64_t i = q->int_coords ? (int64_t)coord[0] : (int64_t)floor(coord[0]);
        if (q->has_off) i += q->off[0];
        if (i < 0 || i >= t->level[0].width) {
            for (int ch = 0; ch < 4; ch++) out.f[ch] = 0, out.i[ch] = 0;
        } else {
            out.at = t->level[0].base + (uint64_t)i * t->elem;
            decode(t, (const uint8_t *)(uintptr_t)out.at, &out);
        }
    } else {
        /* level of detail */
        double lod = 0;
        if (q->lod_mode == 1) {
            lod = q->lod;
        } else if (q->lod_mode == 2) {
            double sx = 0, sy = 0;
            for (int d = 0; d < nd; d++) {
                double n = !t->normalized_coords && !cube ? 1
                           : d == 0 ? t->level[0].width : d == 1 ? t->level[0].height
                                                                  : t->level[0].depth;
                sx += (q->dpdx[d] * n) * (q->dpdx[d] * n);
                sy += (q->dpdy[d] * n) * (q->dpdy[d] * n);
            }
            double m = fmax(sx, sy);
            lod = m > 0 ? 0.5 * log2(m) : -1e30;
        }
        if (q->lod_mode) {
            lod += t->lod_bias;
            if (lod > t->max_lod) lod = t->max_lod;
            if (lod < t->min_lod) lod = t->min_lod;
        }
        double maxl = (double)(t->nlevels - 1);
        if (lod < 0) lod = 0;
        if (lod > maxl) lod = maxl;
        int l0 = (int)floor(lod), l1 = l0;
        double lf = 0;
        if (t->mip_linear && q->gather < 0) {
            lf = (double)weight8(lod - l0) / 256.0;
            if (l0 + 1 <= (int)maxl) l1 = l0 + 1;
        } else {
            l0 = l1 = (int)floor(lod + 0.5);
            if (l0 > (int)maxl) l0 = l1 = (int)maxl;
        }
        bool point = q->int_coords || !t->filter_linear || !fr;
        texel lv_out[2];
        int nl = (l1 != l0 && lf > 0) ? 2 : 1;
        for (int s = 0; s < nl; s++) {
            const emu_tex_level *lv = &t->level[s ? l1 : l0];
            double u[3];
            for (int d = 0; d < 3; d++) {
                double n = d == 0 ? lv->width : d == 1 ? lv->height : lv->depth;
                u[d] = coord[d];
                if (!q->int_coords && (t->normalized_coords || cube)) u[d] *= n;
                if (q->has_off && d < nd) u[d] += q->off[d];
            }
            sample_level(t, lv, nd, u, point, layer, q->gather, &lv_out[s]);
        }
        out = lv_out[0];
        if (nl == 2)
            for (int ch = 0; ch < 4; ch++)
                out.f[ch] = (double)(float)((1 - lf) * lv_out[0].f[ch] + lf * lv_out[1].f[ch]);
    }
    for (int ch = 0; ch < 4; ch++) {
        if (fr) r->v[ch] = (uint32_t)emu_f32_bits((float)out.f[ch]);
        else r->v[ch] = (uint32_t)out.i[ch];
    }
    r->addr = out.at;
}

bool emu_surf_address(const emu_texture *t, uint16_t geom, const uint32_t *c, bool elements,
                      unsigned size, bool clamp, uint64_t *addr)
{
    const emu_tex_level *lv = &t->level[0];
    int first = 0;
    int64_t layer = 0;
    if (geom == PTX_SFX_GA1D || geom == PTX_SFX_GA2D) {
        layer = (int64_t)c[0];
        first = 1;
    }
    int nd = geom == PTX_SFX_G3D ? 3 : (geom == PTX_SFX_G2D || geom == PTX_SFX_GA2D) ? 2 : 1;
    int64_t x = (int32_t)c[first], y = nd > 1 ? (int32_t)c[first + 1] : 0,
            z = nd > 2 ? (int32_t)c[first + 2] : 0;
    if (elements) x *= t->elem;
    int64_t row = (int64_t)lv->width * t->elem;
    int64_t layers = (t->layered || t->cubemap) ? t->layers : 1;
    bool in = x >= 0 && x + (int64_t)size <= row && y >= 0 && y < (int64_t)lv->height &&
              z >= 0 && z < (int64_t)lv->depth && layer >= 0 && layer < layers;
    if (!in) {
        if (!clamp) return false;
        if (x + (int64_t)size > row) x = row - (int64_t)size;
        if (x < 0) x = 0;
        x -= x % size;
        y = y < 0 ? 0 : y >= (int64_t)lv->height ? (int64_t)lv->height - 1 : y;
        z = z < 0 ? 0 : z >= (int64_t)lv->depth ? (int64_t)lv->depth - 1 : z;
        layer = layer < 0 ? 0 : layer >= layers ? layers - 1 : layer;
    }
    uint64_t slice = nd > 2 ? (uint64_t)z : (uint64_t)layer;
    *addr = lv->base + slice * lv->slice + (uint64_t)y * lv->pitch + (uint64_t)x;
    return true;
}
