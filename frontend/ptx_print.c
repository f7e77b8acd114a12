/* ptx_print.c: writing the IR back as PTX text that parses to the same IR.
 *
 * Labels are renamed ($L__<instruction index>) and register ranges are written as %r<N>;
 * everything the IR holds (types, modifiers, operands, scopes, layout) is reproduced. */
#include "frontend/ptx_parser.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *space_name(int s)
{
    switch (s) {
    case PTX_SPACE_REG: return ".reg";
    case PTX_SPACE_SREG: return ".sreg";
    case PTX_SPACE_CONST: return ".const";
    case PTX_SPACE_GLOBAL: return ".global";
    case PTX_SPACE_LOCAL: return ".local";
    case PTX_SPACE_PARAM: return ".param";
    case PTX_SPACE_SHARED: return ".shared";
    case PTX_SPACE_SHARED_CLUSTER: return ".shared::cluster";
    case PTX_SPACE_TEX: return ".tex";
    case PTX_SPACE_SURF: return ".surf";
    case PTX_SPACE_SAMPLER: return ".sampler";
    default: return "";
    }
}

static const char *linkage_name(int l)
{
    switch (l) {
    case PTX_LINK_VISIBLE: return ".visible ";
    case PTX_LINK_EXTERN: return ".extern ";
    case PTX_LINK_WEAK: return ".weak ";
    case PTX_LINK_COMMON: return ".common ";
    default: return "";
    }
}

static void print_sreg(const ptx_operand *o, FILE *out)
{
    ptx_sreg r = (ptx_sreg)o->reg;
    if (r == PTX_SREG_ENVREG || r == PTX_SREG_RESERVED_SMEM_OFFSET) {
        fprintf(out, "%s%u", ptx_sreg_name(r), o->comp);
        return;
    }
    if (r == PTX_SREG_PM) {
        if (o->comp >= 8)
            fprintf(out, "%%pm%u_64", o->comp - 8);
        else
            fprintf(out, "%%pm%u", o->comp);
        return;
    }
    fputs(ptx_sreg_name(r), out);
    switch (r) {
    case PTX_SREG_TID: case PTX_SREG_NTID: case PTX_SREG_CTAID: case PTX_SREG_NCTAID:
    case PTX_SREG_CLUSTERID: case PTX_SREG_NCLUSTERID: case PTX_SREG_CLUSTER_CTAID:
    case PTX_SREG_CLUSTER_NCTAID:
        if (o->comp < 3)
            fprintf(out, ".%c", "xyz"[o->comp]);
        break;
    default:
        break;
    }
}

static const char *sym_name(const ptx_module *m, int32_t s)
{
    return s >= 0 && (uint32_t)s < m->nsyms ? m->syms[s].name : "?sym";
}

void ptx_print_operand(const ptx_module *m, const ptx_function *f, const ptx_operand *o,
                       FILE *out)
{
    if (o->neg) {
        /* !%p negates a predicate; -%r is vmad's operand negation */
        bool pred = o->kind != PTX_OPD_REG || o->reg < 0 || (uint32_t)o->reg >= f->nregs ||
                    f->regs[o->reg].type == PTX_TYPE_PRED;
        fputc(pred ? '!' : '-', out);
    }
    switch (o->kind) {
    case PTX_OPD_REG:
        if (o->reg >= 0 && (uint32_t)o->reg < f->nregs) {
            fputs(f->regs[o->reg].name, out);
            if (f->regs[o->reg].vec > 1)
                fprintf(out, ".%c", "xyzw"[o->comp & 3]);
            if (o->imm) {
                fputc('.', out);
                for (int64_t sel = o->imm; sel; sel >>= 8)
                    fputc((char)(sel & 0xff), out);
            }
        } else {
            fputs("?reg", out);
        }
        break;
    case PTX_OPD_SREG:
        print_sreg(o, out);
        break;
    case PTX_OPD_IMM:
        fprintf(out, "%" PRId64, o->imm);
        break;
    case PTX_OPD_FIMM32:
        fprintf(out, "0f%08" PRIX32, (uint32_t)o->imm);
        break;
    case PTX_OPD_FIMM64:
        fprintf(out, "0d%016" PRIX64, (uint64_t)o->imm);
        break;
    case PTX_OPD_ADDR:
        if (o->comp == PTX_ADDR_VALUE) {
            /* base+imm as a value: always with the offset, so that it reads back as one */
            if (o->reg >= 0)
                fputs((uint32_t)o->reg < f->nregs ? f->regs[o->reg].name : "?reg", out);
            else
                fputs(o->sym >= 0 ? sym_name(m, o->sym) : "?sym", out);
            fprintf(out, "+%" PRId64, o->imm);
            break;
        }
        fputc('[', out);
        if (o->reg >= 0)
            fputs((uint32_t)o->reg < f->nregs ? f->regs[o->reg].name : "?reg", out);
        else if (o->sym >= 0)
            fputs(sym_name(m, o->sym), out);
        if (o->reg >= 0 || o->sym >= 0) {
            if (o->imm)
                fprintf(out, "+%" PRId64, o->imm);
        } else {
            fprintf(out, "%" PRId64, o->imm);
        }
        fputc(']', out);
        if (o->comp == 1)
            fputs(".unified", out);
        break;
    case PTX_OPD_SYM:
        fputs(sym_name(m, o->sym), out);
        break;
    case PTX_OPD_LABEL:
        fprintf(out, "$L__%" PRId64, o->imm);
        break;
    case PTX_OPD_SINK:
        fputc('_', out);
        break;
    case PTX_OPD_VEC:
    case PTX_OPD_LIST: {
        char open = o->kind == PTX_OPD_VEC ? '{' : o->comp == 1 ? '[' : '(';
        char close = open == '{' ? '}' : open == '[' ? ']' : ')';
        fputc(open, out);
        for (unsigned i = 0; i < o->nelem; i++) {
            if (i)
                fputs(", ", out);
            ptx_print_operand(m, f, &o->elems[i], out);
        }
        fputc(close, out);
        break;
    }
    default:
        fputs("?", out);
    }
}

/* brx.idx and call can name a .branchtargets / .calltargets table; the IR holds the list. */
static bool is_table_operand(const ptx_instr *in, unsigned i)
{
    const ptx_operand *o = &in->ops[i];
    if (o->kind != PTX_OPD_LIST)
        return false;
    if (in->op == PTX_OP_BRX_IDX)
        return true;
    return in->op == PTX_OP_CALL && o->comp == 2;
}

static void print_instr_at(const ptx_module *m, const ptx_function *f, const ptx_instr *in,
                           long index, FILE *out)
{
    if (in->guard >= 0)
        fprintf(out, "@%s%s ", in->guard_neg ? "!" : "",
                (uint32_t)in->guard < f->nregs ? f->regs[in->guard].name : "?reg");
    fputs(ptx_opcode_name((ptx_opcode)in->op), out);
    for (unsigned i = 0; i < in->nsfx; i++)
        fprintf(out, ".%s", ptx_suffix_name((ptx_suffix)in->sfx[i]));
    for (unsigned i = 0; i < in->nops; i++) {
        fputs(i == 0 ? " " : in->ops[i].pipe ? "|" : ", ", out);
        if (index >= 0 && is_table_operand(in, i))
            fprintf(out, "$T__%ld_%u", index, i);
        else
            ptx_print_operand(m, f, &in->ops[i], out);
    }
    fputc(';', out);
}

void ptx_print_instr(const ptx_module *m, const ptx_function *f, const ptx_instr *in, FILE *out)
{
    print_instr_at(m, f, in, -1, out);
}

/* The table declarations an instruction's operands need, written just before it. */
static void print_tables(const ptx_module *m, const ptx_function *f, const ptx_instr *in,
                         long index, FILE *out)
{
    for (unsigned i = 0; i < in->nops; i++) {
        if (!is_table_operand(in, i))
            continue;
        const ptx_operand *o = &in->ops[i];
        fprintf(out, "$T__%ld_%u: %s ", index, i,
                in->op == PTX_OP_CALL ? ".calltargets" : ".branchtargets");
        for (unsigned k = 0; k < o->nelem; k++) {
            if (k)
                fputs(", ", out);
            ptx_print_operand(m, f, &o->elems[k], out);
        }
        fputs(";\n", out);
    }
}

/* ---------------------------------------------------------------- declarations */

static unsigned elem_size(const ptx_symbol *s)
{
    unsigned bits = ptx_type_bits((ptx_type)s->type);
    return bits >= 8 ? bits / 8 : 1;
}

static uint64_t read_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void print_init_elem(const ptx_module *m, const ptx_symbol *s, uint64_t k, FILE *out)
{
    unsigned es = elem_size(s);
    uint64_t off = k * es;
    for (uint32_t r = 0; r < s->nrelocs; r++)
        if (s->relocs[r].offset == off) {
            const ptx_reloc *rl = &s->relocs[r];
            if (rl->generic)
                fprintf(out, "generic(%s)", sym_name(m, rl->sym));
            else
                fputs(sym_name(m, rl->sym), out);
            if (rl->addend)
                fprintf(out, "+%" PRId64, rl->addend);
            return;
        }
    uint8_t bytes[8];
    ptx_init_read(s, off, bytes, es);
    uint64_t v = read_le(bytes, es);
    ptx_type t = (ptx_type)s->type;
    if (t == PTX_TYPE_F32) {
        fprintf(out, "0f%08" PRIX32, (uint32_t)v);
    } else if (t == PTX_TYPE_F64) {
        fprintf(out, "0d%016" PRIX64, v);
    } else if (t == PTX_TYPE_F16 || t == PTX_TYPE_BF16) {
        /* Widen to f32: exact, and the parser narrows it back to the same bits. */
        uint32_t f32;
        if (t == PTX_TYPE_BF16) {
            f32 = (uint32_t)v << 16;
        } else {
            uint32_t sign = (uint32_t)(v & 0x8000) << 16, e = (v >> 10) & 0x1f, man = v & 0x3ff;
            if (e == 0x1f)
                f32 = sign | 0x7f800000 | man << 13;
            else if (e == 0 && man == 0)
                f32 = sign;
            else if (e == 0) {
                int ex = -14;
                while (!(man & 0x400)) {
                    man <<= 1;
                    ex--;
                }
                f32 = sign | (uint32_t)(ex + 127) << 23 | (man & 0x3ff) << 13;
            } else
                f32 = sign | (e - 15 + 127) << 23 | man << 13;
        }
        fprintf(out, "0f%08" PRIX32, f32);
    } else if (ptx_type_is_signed(t) && es < 8) {
        int64_t sv = (int64_t)(v << (64 - 8 * es)) >> (64 - 8 * es);
        fprintf(out, "%" PRId64, sv);
    } else {
        fprintf(out, "%" PRIu64, v);
    }
}

/* Declaration text after the state space: attributes, type, name, array size, initialiser. */
static void print_var(const ptx_module *m, const ptx_symbol *s, bool is_param, FILE *out)
{
    unsigned es = elem_size(s);
    unsigned vec = s->vec ? s->vec : 1;
    unsigned natural = es * vec;
    if (ptx_type_kind((ptx_type)s->type) == 'O')
        natural = 8;
    fputs(linkage_name(s->linkage), out);
    fputs(space_name(s->space), out);
    if (s->managed)
        fputs(" .attribute(.managed)", out);
    if (s->unified)
        fprintf(out, " .attribute(.unified(0x%" PRIX64 ", 0x%" PRIX64 "))", s->uuid[0],
                s->uuid[1]);
    if (s->align != natural)
        fprintf(out, " .align %u", s->align);
    if (s->is_ptr) {
        fputs(" .ptr", out);
        if (s->ptr_space)
            fprintf(out, " %s", space_name(s->ptr_space));
        if (s->ptr_align)
            fprintf(out, " .align %u", s->ptr_align);
    }
    if (vec > 1)
        fprintf(out, " .v%u", vec);
    fprintf(out, " .%s %s", ptx_type_name((ptx_type)s->type), s->name);
    uint64_t count = s->size / natural;
    if (ptx_type_kind((ptx_type)s->type) == 'O')
        count = s->size / 8;
    if (s->size == 0)
        fputs("[]", out);
    else if (count != 1)
        fprintf(out, "[%" PRIu64 "]", count);
    if ((s->init || s->nrelocs) && !is_param) {
        /* up to the last element that is not zero: a short list zero-fills the rest */
        uint64_t n = 0;
        if (s->ninit) {
            const ptx_init_run *last = &s->init[s->ninit - 1];
            n = (last->offset + last->len + es - 1) / es;
        }
        for (uint32_t r = 0; r < s->nrelocs; r++)
            if (s->relocs[r].offset / es + 1 > n)
                n = s->relocs[r].offset / es + 1;
        fputs(" = ", out);
        bool braces = s->size != es;
        if (braces)
            fputc('{', out);
        for (uint64_t k = 0; k < n; k++) {
            if (k)
                fputs(", ", out);
            print_init_elem(m, s, k, out);
        }
        if (braces)
            fputc('}', out);
    }
    if (s->sampler && !is_param) {
        static const char *const addr[] = {"wrap", "mirror", "clamp_ogl", "clamp_to_edge",
                                           "clamp_to_border"};
        const ptx_sampler_init *si = s->sampler;
        const char *sep = " = { ";
        for (int d = 0; d < 3; d++)
            if (si->written & (PTX_SAMPLER_F_ADDR0 << d)) {
                fprintf(out, "%saddr_mode_%d = %s", sep, d,
                        si->addr_mode[d] < 5 ? addr[si->addr_mode[d]] : "clamp_to_edge");
                sep = ", ";
            }
        if (si->written & PTX_SAMPLER_F_FILTER) {
            fprintf(out, "%sfilter_mode = %s", sep, si->filter_linear ? "linear" : "nearest");
            sep = ", ";
        }
        if (si->written & PTX_SAMPLER_F_UNNORM) {
            fprintf(out, "%sforce_unnormalized_coords = %d", sep,
                    si->force_unnormalized_coords ? 1 : 0);
            sep = ", ";
        }
        fputs(sep[1] == '=' ? " = { }" : " }", out);
    }
}

static void print_params(const ptx_module *m, const int32_t *ids, uint32_t n, FILE *out)
{
    fputc('(', out);
    for (uint32_t i = 0; i < n; i++) {
        fputs(i ? ",\n\t" : "\n\t", out);
        print_var(m, &m->syms[ids[i]], true, out);
    }
    fputs(n ? "\n)" : ")", out);
}

static bool reg_is_numbered(const char *name, const char *prefix, size_t plen, uint32_t k)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%u", k);
    return strlen(name) == plen + (size_t)n && memcmp(name, prefix, plen) == 0 &&
           memcmp(name + plen, buf, (size_t)n) == 0;
}

/* Declares the registers ids[0, n) (ascending), a run of consecutive ids named prefix0,
 * prefix1, ... of one type as one prefix<k>, as nvcc writes them. */
static void print_reg_list(const ptx_function *f, const uint32_t *ids, uint32_t n,
                           const char *indent, FILE *out)
{
    for (uint32_t j = 0; j < n;) {
        const ptx_reg *r = &f->regs[ids[j]];
        const char *vecs = r->vec == 2 ? ".v2 " : r->vec == 4 ? ".v4 " : r->vec == 8 ? ".v8 " : "";
        size_t len = strlen(r->name);
        uint32_t run = 1;
        if (len > 1 && r->name[len - 1] == '0' && !(len > 2 && r->name[len - 2] >= '0' &&
                                                    r->name[len - 2] <= '9')) {
            size_t plen = len - 1;
            while (j + run < n && ids[j + run] == ids[j] + run) {
                const ptx_reg *q = &f->regs[ids[j + run]];
                assert(q->scope == r->scope);
                if (q->type != r->type || q->vec != r->vec ||
                    !reg_is_numbered(q->name, r->name, plen, run))
                    break;
                run++;
            }
            if (run > 1) {
                fprintf(out, "%s.reg %s.%s %.*s<%u>;\n", indent, vecs,
                        ptx_type_name((ptx_type)r->type), (int)plen, r->name, run);
                j += run;
                continue;
            }
        }
        fprintf(out, "%s.reg %s.%s %s;\n", indent, vecs, ptx_type_name((ptx_type)r->type),
                r->name);
        j++;
    }
}

/* Declares the symbols ids[0, n) of a function's scope. */
static void print_sym_list(const ptx_module *m, const uint32_t *ids, uint32_t n,
                           const char *indent, FILE *out)
{
    for (uint32_t j = 0; j < n; j++) {
        const ptx_symbol *s = &m->syms[ids[j]];
        if (s->kind == PTX_SYM_FUNC) {
            /* a .callprototype: a declaration-only function scoped to this one */
            const ptx_function *p = &m->funcs[s->func];
            fprintf(out, "%s%s: .callprototype ", indent, s->name);
            if (p->nrets) {
                print_params(m, p->rets, p->nrets, out);
                fputc(' ', out);
            }
            fputs("_ ", out);
            print_params(m, p->params, p->nparams, out);
            fputs(";\n", out);
            continue;
        }
        if (s->kind != PTX_SYM_VAR)
            continue;
        fputs(indent, out);
        print_var(m, s, false, out);
        fputs(";\n", out);
    }
}

static void print_function_head(const ptx_module *m, const ptx_function *f, FILE *out)
{
    fputs(linkage_name(f->linkage), out);
    fputs(f->is_entry ? ".entry " : ".func ", out);
    if (f->sym >= 0 && m->syms[f->sym].unified)
        fprintf(out, ".attribute(.unified(0x%" PRIX64 ", 0x%" PRIX64 ")) ",
                m->syms[f->sym].uuid[0], m->syms[f->sym].uuid[1]);
    if (!f->is_entry && f->nrets) {
        print_params(m, f->rets, f->nrets, out);
        fputc(' ', out);
    }
    fputs(f->name, out);
    if (f->nparams || f->is_entry)
        print_params(m, f->params, f->nparams, out);
    fputc('\n', out);
    if (f->maxntid[0])
        fprintf(out, ".maxntid %u, %u, %u\n", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
    if (f->reqntid[0])
        fprintf(out, ".reqntid %u, %u, %u\n", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
    if (f->minnctapersm)
        fprintf(out, ".minnctapersm %u\n", f->minnctapersm);
    if (f->maxnreg)
        fprintf(out, ".maxnreg %u\n", f->maxnreg);
    if (f->maxclusterrank)
        fprintf(out, ".maxclusterrank %u\n", f->maxclusterrank);
    if (f->reqnctapercluster[0])
        fprintf(out, ".reqnctapercluster %u, %u, %u\n", f->reqnctapercluster[0],
                f->reqnctapercluster[1], f->reqnctapercluster[2]);
    if (f->explicitcluster)
        fputs(".explicitcluster\n", out);
    if (f->noreturn)
        fputs(".noreturn\n", out);
}

static void mark_labels(const ptx_operand *o, uint8_t *is_label, uint32_t n)
{
    if (o->kind == PTX_OPD_LABEL && o->imm >= 0 && o->imm <= (int64_t)n)
        is_label[o->imm] = 1;
    if (o->kind == PTX_OPD_LIST || o->kind == PTX_OPD_VEC)
        for (unsigned i = 0; i < o->nelem; i++)
            mark_labels(&o->elems[i], is_label, n);
}

/* Function-level declarations are printed where the parser must meet them to give every
 * register and symbol the number it had: ids follow the order of declaration, so a declaration
 * written after an inner { } scope (or between instructions) is printed no earlier than the
 * scopes declared before it, and no later than its first use. */
/* Ids grouped by the inline scope that declares them: those of scope k (-1: the function
 * level) are ids[start[k + 1], start[k + 2]), ascending. Printing a scope's declarations then
 * reads only its own, not every register and symbol of the function and the module (a
 * library's module has thousands of scopes from inlined calls, each with its registers). */
typedef struct scope_lists {
    uint32_t *start;
    uint32_t *ids;
} scope_lists;

static int32_t sym_scope(const void *m, uint32_t id)
{
    return ((const ptx_module *)m)->syms[id].scope;
}

static int32_t reg_scope(const void *f, uint32_t id)
{
    return ((const ptx_function *)f)->regs[id].scope;
}

/* Groups ids[0, n) (ascending; NULL: 0 to n - 1) by scope_of(owner, id), in [-1, nscopes);
 * a .reg parameter (PTX_REG_SCOPE_PARAM), declared in the function's head, is in no list.
 * False when out of memory. */
static bool group_by_scope(scope_lists *g, const uint32_t *ids, uint32_t n, uint32_t nscopes,
                           int32_t (*scope_of)(const void *, uint32_t), const void *owner)
{
    g->start = calloc(nscopes + 3, sizeof *g->start);
    g->ids = malloc((n ? n : 1) * sizeof *g->ids);
    if (!g->start || !g->ids)
        return false;
    for (uint32_t j = 0; j < n; j++) {
        int32_t sc = scope_of(owner, ids ? ids[j] : j);
        assert(sc >= PTX_REG_SCOPE_PARAM && sc < (int32_t)nscopes);
        if (sc >= -1)
            g->start[sc + 2]++;
    }
    for (uint32_t k = 1; k < nscopes + 3; k++)
        g->start[k] += g->start[k - 1];
    uint32_t *fill = malloc((nscopes + 1) * sizeof *fill);   /* fill[k + 1]: scope k's next place */
    if (!fill)
        return false;
    memcpy(fill, g->start, (nscopes + 1) * sizeof *fill);
    for (uint32_t j = 0; j < n; j++) {
        uint32_t id = ids ? ids[j] : j;
        int32_t sc = scope_of(owner, id);
        if (sc >= -1)
            g->ids[fill[sc + 1]++] = id;
    }
    for (uint32_t k = 0; k <= nscopes; k++)
        assert(fill[k] == g->start[k + 1]);
    free(fill);
    return true;
}

static void scope_lists_free(scope_lists *g)
{
    free(g->start);
    free(g->ids);
}

/* Function-level declarations are printed where the parser must meet them to give every
 * register and symbol the number it had: ids follow the order of declaration, so a declaration
 * written after an inner { } scope (or between instructions) is printed no earlier than the
 * scopes declared before it, and no later than its first use. */
typedef struct decl_cursor {
    const ptx_module *m;
    const ptx_function *f;
    int32_t fidx;
    const scope_lists *syms, *regs;
    uint32_t sym, reg;          /* function-level declarations below these are printed */
    uint32_t sym_pos, reg_pos;  /* ... up to these places of the function level's lists */
} decl_cursor;

static void flush_decls(decl_cursor *d, uint32_t sym_limit, uint32_t reg_limit, FILE *out)
{
    if (sym_limit > d->sym) {
        uint32_t to = d->sym_pos, end = d->syms->start[1];
        while (to < end && d->syms->ids[to] < sym_limit)
            to++;
        print_sym_list(d->m, d->syms->ids + d->sym_pos, to - d->sym_pos, "\t", out);
        d->sym_pos = to;
        d->sym = sym_limit;
    }
    if (reg_limit > d->reg) {
        uint32_t to = d->reg_pos, end = d->regs->start[1];
        while (to < end && d->regs->ids[to] < reg_limit)
            to++;
        print_reg_list(d->f, d->regs->ids + d->reg_pos, to - d->reg_pos, "\t", out);
        d->reg_pos = to;
        d->reg = reg_limit;
    }
}

/* Raises *sym / *reg past the function-level symbols and registers operand o names. */
static void operand_needs(const decl_cursor *d, const ptx_operand *o, uint32_t *sym, uint32_t *reg)
{
    if ((o->kind == PTX_OPD_REG || o->kind == PTX_OPD_ADDR) && o->reg >= 0 &&
        (uint32_t)o->reg < d->f->nregs && d->f->regs[o->reg].scope == -1 &&
        (uint32_t)o->reg + 1 > *reg)
        *reg = (uint32_t)o->reg + 1;
    if ((o->kind == PTX_OPD_SYM || o->kind == PTX_OPD_ADDR) && o->sym >= 0 &&
        (uint32_t)o->sym < d->m->nsyms && d->m->syms[o->sym].owner == d->fidx &&
        d->m->syms[o->sym].scope == -1 && (uint32_t)o->sym + 1 > *sym)
        *sym = (uint32_t)o->sym + 1;
    if (o->kind == PTX_OPD_VEC || o->kind == PTX_OPD_LIST)
        for (unsigned k = 0; k < o->nelem; k++)
            operand_needs(d, &o->elems[k], sym, reg);
}

/* owned[0, nowned): the ids of the symbols function f declares, ascending. */
static void print_body(const ptx_module *m, const ptx_function *f, const uint32_t *owned,
                       uint32_t nowned, FILE *out)
{
    int32_t fidx = (int32_t)(f - m->funcs);
    uint8_t *is_label = calloc(f->ninstrs + 1, 1);
    int32_t *open = malloc((f->nscopes + 1) * sizeof *open);
    /* the first symbol and register declared in scope k or any scope opening after it */
    uint32_t *scope_sym = malloc((f->nscopes + 1) * sizeof *scope_sym);
    uint32_t *scope_reg = malloc((f->nscopes + 1) * sizeof *scope_reg);
    scope_lists syms = {0}, regs = {0};
    bool grouped = group_by_scope(&syms, owned, nowned, f->nscopes, sym_scope, m) &&
                   group_by_scope(&regs, NULL, f->nregs, f->nscopes, reg_scope, f);
    if (!is_label || !open || !scope_sym || !scope_reg || !grouped) {
        fprintf(out, "// ptxsim: out of host memory printing the body of %s\n", f->name);
        free(is_label);
        free(open);
        free(scope_sym);
        free(scope_reg);
        scope_lists_free(&syms);
        scope_lists_free(&regs);
        return;
    }
    for (uint32_t i = 0; i < f->ninstrs; i++)
        for (unsigned k = 0; k < f->instrs[i].nops; k++)
            mark_labels(&f->instrs[i].ops[k], is_label, f->ninstrs);
    for (uint32_t k = 0; k <= f->nscopes; k++) {
        /* each scope's list is ascending: its first id is its least */
        scope_sym[k] = k < f->nscopes && syms.start[k + 1] < syms.start[k + 2]
                           ? syms.ids[syms.start[k + 1]] : m->nsyms;
        scope_reg[k] = k < f->nscopes && regs.start[k + 1] < regs.start[k + 2]
                           ? regs.ids[regs.start[k + 1]] : f->nregs;
    }
    for (uint32_t k = f->nscopes; k-- > 0;) {
        if (scope_sym[k + 1] < scope_sym[k]) scope_sym[k] = scope_sym[k + 1];
        if (scope_reg[k + 1] < scope_reg[k]) scope_reg[k] = scope_reg[k + 1];
    }
    decl_cursor dc = { m, f, fidx, &syms, &regs, 0, 0, 0, 0 };
    fputs("{\n", out);
    flush_decls(&dc, scope_sym[0], scope_reg[0], out);
    uint32_t depth = 0, next_scope = 0;
    for (uint32_t i = 0; i <= f->ninstrs; i++) {
        /* close scopes that end here (innermost first), then open the ones that start here */
        while (depth && f->scopes[open[depth - 1]].end <= i)
            fputs("\t}\n", out), depth--;
        if (is_label[i])
            fprintf(out, "$L__%u:\n", i);
        while (next_scope < f->nscopes && f->scopes[next_scope].first == i) {
            int32_t s = (int32_t)next_scope++;
            while (depth && open[depth - 1] != f->scopes[s].parent)
                fputs("\t}\n", out), depth--;
            if (depth == 0)
                flush_decls(&dc, scope_sym[s], scope_reg[s], out);
            fputs("\t{\n", out);
            open[depth++] = s;
            print_sym_list(m, syms.ids + syms.start[s + 1],
                           syms.start[s + 2] - syms.start[s + 1], "\t", out);
            print_reg_list(f, regs.ids + regs.start[s + 1],
                           regs.start[s + 2] - regs.start[s + 1], "\t", out);
        }
        while (depth && f->scopes[open[depth - 1]].end <= i)
            fputs("\t}\n", out), depth--;
        if (i == f->ninstrs)
            break;
        if (depth == 0) {
            const ptx_instr *in = &f->instrs[i];
            uint32_t need_sym = dc.sym, need_reg = dc.reg;
            for (unsigned k = 0; k < in->nops; k++)
                operand_needs(&dc, &in->ops[k], &need_sym, &need_reg);
            if (in->guard >= 0 && (uint32_t)in->guard < f->nregs && f->regs[in->guard].scope == -1 &&
                (uint32_t)in->guard + 1 > need_reg)
                need_reg = (uint32_t)in->guard + 1;
            flush_decls(&dc, need_sym, need_reg, out);
        }
        print_tables(m, f, &f->instrs[i], (long)i, out);
        fputc('\t', out);
        print_instr_at(m, f, &f->instrs[i], (long)i, out);
        fputc('\n', out);
    }
    while (depth--)
        fputs("\t}\n", out);
    flush_decls(&dc, m->nsyms, f->nregs, out);
    fputs("}\n", out);
    free(is_label);
    free(open);
    free(scope_sym);
    free(scope_reg);
    scope_lists_free(&syms);
    scope_lists_free(&regs);
}

typedef struct item {
    uint32_t line;
    int kind;       /* 0 variable, 1 prototype, 2 function */
    uint32_t idx;
} item;

static int item_cmp(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void ptx_print(const ptx_module *m, FILE *out)
{
    fprintf(out, ".version %u.%u\n", m->version_major, m->version_minor);
    fprintf(out, ".target %s\n", m->target ? m->target : "sm_75");
    fprintf(out, ".address_size %u\n\n", m->address_size);
    for (uint32_t i = 0; i < m->nfiles; i++)
        if (m->files[i])
            fprintf(out, ".file %u \"%s\"\n", i, m->files[i]);

    item *items = malloc((m->nsyms + 2 * m->nfuncs + 1) * sizeof *items);
    /* the symbols each function declares, ascending: owned[owned_start[f], owned_start[f + 1]) */
    uint32_t *owned_start = calloc(m->nfuncs + 2, sizeof *owned_start);
    uint32_t *owned = malloc((m->nsyms + 1) * sizeof *owned);
    if (!items || !owned_start || !owned) {
        fputs("// ptxsim: out of host memory printing the module\n", out);
        free(items);
        free(owned_start);
        free(owned);
        return;
    }
    for (uint32_t i = 0; i < m->nsyms; i++)
        if (m->syms[i].owner >= 0) {
            assert((uint32_t)m->syms[i].owner < m->nfuncs);
            owned_start[m->syms[i].owner + 2]++;
        }
    for (uint32_t k = 2; k < m->nfuncs + 2; k++)
        owned_start[k] += owned_start[k - 1];
    for (uint32_t i = 0; i < m->nsyms; i++)     /* owned_start[f + 1]: f's next place */
        if (m->syms[i].owner >= 0)
            owned[owned_start[m->syms[i].owner + 1]++] = i;
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nsyms; i++)
        if (m->syms[i].owner == -1 && m->syms[i].kind == PTX_SYM_VAR)
            items[n++] = (item){m->syms[i].line, 0, i};
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const ptx_function *f = &m->funcs[i];
        if (f->sym >= 0 && m->syms[f->sym].owner >= 0)
            continue;   /* a .callprototype, written inside its function */
        uint32_t first = f->sym >= 0 ? m->syms[f->sym].line : f->line;
        if (!f->is_decl && first < f->line)
            items[n++] = (item){first, 1, i};
        items[n++] = (item){f->line, 2, i};
    }
    qsort(items, n, sizeof *items, item_cmp);
    for (uint32_t k = 0; k < n; k++) {
        if (items[k].kind == 0) {
            print_var(m, &m->syms[items[k].idx], false, out);
            fputs(";\n", out);
            continue;
        }
        const ptx_function *f = &m->funcs[items[k].idx];
        fputc('\n', out);
        print_function_head(m, f, out);
        if (items[k].kind == 1 || f->is_decl)
            fputs(";\n", out);
        else
            print_body(m, f, owned + owned_start[items[k].idx],
                       owned_start[items[k].idx + 1] - owned_start[items[k].idx], out);
    }
    /* .alias names another function's body; both are declared above. */
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ptx_symbol *s = &m->syms[i];
        if (s->kind == PTX_SYM_FUNC && s->owner == -1 && s->func >= 0 &&
            (uint32_t)s->func < m->nfuncs && m->funcs[s->func].sym != (int32_t)i)
            fprintf(out, ".alias %s, %s;\n", s->name, m->funcs[s->func].name);
    }
    free(items);
    free(owned_start);
    free(owned);
}
