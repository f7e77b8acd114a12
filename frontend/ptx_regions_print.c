/* ptx_regions_print.c: the readable report of a function's idempotent regions (`ptxsim ptx
 * FILE --regions`): every clobber antidependence with the boundary that breaks it, every
 * boundary with its reason, live-ins and the live-ins its region overwrites, and a summary. */
#include "frontend/ptx.h"

#include <stdlib.h>

static void print_instr_at(const ptx_function *fn, uint32_t i, FILE *out)
{
    const ptx_instr *in = &fn->instrs[i];
    fprintf(out, "instr %u (line %u", i, in->line);
    if (in->dbg_line) fprintf(out, ", source line %u", in->dbg_line);
    fprintf(out, ": %s", ptx_opcode_name((ptx_opcode)in->op));
    for (unsigned k = 0; k < in->nsfx; k++) fprintf(out, ".%s", ptx_suffix_name((ptx_suffix)in->sfx[k]));
    fputc(')', out);
}

static void print_regs(const ptx_function *fn, const int32_t *regs, uint32_t n, FILE *out)
{
    for (uint32_t k = 0; k < n; k++) fprintf(out, " %s", fn->regs[regs[k]].name);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void print_sizes(const ptx_regions *r, uint8_t kind, FILE *out)
{
    uint32_t *v = malloc((r->nbounds ? r->nbounds : 1) * sizeof *v), n = 0, lmax = 0;
    uint32_t *live = malloc((r->nbounds ? r->nbounds : 1) * sizeof *live);
    if (!v || !live) {
        free(v);
        free(live);
        return;
    }
    for (uint32_t b = 0; b < r->nbounds; b++)
        if (kind == PTX_BND_SHORT || r->bounds[b].kind == PTX_BND_SPARSE) {
            live[n] = r->bounds[b].nlive;
            if (live[n] > lmax) lmax = live[n];
            v[n++] = r->bounds[b].size;
        }
    qsort(v, n, sizeof *v, cmp_u32);
    qsort(live, n, sizeof *live, cmp_u32);
    if (n)
        fprintf(out, "  %s regions: %u, static size p25 %u p50 %u p75 %u max %u; live-ins p50 %u max %u\n",
                kind == PTX_BND_SPARSE ? "sparse" : "short (sparse included)", n, v[n / 4], v[n / 2],
                v[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1], v[n - 1], live[n / 2], lmax);
    free(v);
    free(live);
}

void ptx_regions_print(const ptx_module *m, const ptx_function *fn, const ptx_regions *r,
                       FILE *out)
{
    (void)m;
    uint32_t nsparse = 0, nshort = 0;
    for (uint32_t b = 0; b < r->nbounds; b++) {
        if (r->bounds[b].kind == PTX_BND_SPARSE) nsparse++;
        else nshort++;
    }
    fprintf(out, "%s %s: %u instructions, %u clobber antidependence%s, %u sparse boundar%s, "
            "%u short boundar%s (limit %u)\n", fn->is_entry ? "kernel" : "function", fn->name,
            fn->ninstrs, r->npairs, r->npairs == 1 ? "" : "s", nsparse, nsparse == 1 ? "y" : "ies",
            nshort, nshort == 1 ? "y" : "ies", r->short_limit);
    for (uint32_t k = 0; k < r->npairs; k++) {
        const ptx_clobber_pair *p = &r->pairs[k];
        fprintf(out, "  clobber %u: load ", k + 1);
        print_instr_at(fn, p->load, out);
        fprintf(out, " -> store ");
        print_instr_at(fn, p->store, out);
        fprintf(out, "; %u candidate cut point%s; broken by boundary %d\n", p->ncandidates,
                p->ncandidates == 1 ? "" : "s", p->cut + 1);
    }
    for (uint32_t bi = 0; bi < r->nbounds; bi++) {
        const ptx_boundary *b = &r->bounds[bi];
        fprintf(out, "  boundary %u: %s before ", bi + 1, b->kind == PTX_BND_SPARSE ? "sparse" : "short");
        print_instr_at(fn, b->instr, out);
        fprintf(out, "\n    why: %s", ptx_cut_reason_name((ptx_cut_reason)b->reason));
        if (b->reason == PTX_CUT_CLOBBER) {
            fprintf(out, ", breaks clobber");
            for (uint32_t k = 0; k < r->npairs; k++)
                if (r->pairs[k].cut == (int32_t)bi) fprintf(out, " %u", k + 1);
            fprintf(out, " at the least live state of their candidate points");
        }
        if (b->forced_by >= 0) {
            fprintf(out, ": ");
            print_instr_at(fn, (uint32_t)b->forced_by, out);
        }
        fprintf(out, "\n    live-ins: %u (%u x 32-bit):", b->nlive, b->live32);
        print_regs(fn, b->live, b->nlive, out);
        fprintf(out, "; memory-backed inputs live: %u\n", b->nfree);
        fprintf(out, "    region: %u static instructions, loop depth %u; preserve (live-in written in the region): %u",
                b->size, b->loop_depth, b->npreserve);
        print_regs(fn, b->preserve, b->npreserve, out);
        fputc('\n', out);
    }
    print_sizes(r, PTX_BND_SPARSE, out);
    print_sizes(r, PTX_BND_SHORT, out);
}
