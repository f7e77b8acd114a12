/* ptx_compare.c: structural equality of two modules' IR, for round-trip tests of the printer
 * and for checking that a transformation kept a module intact. */
#include "frontend/ptx_parser.h"

#include <stdarg.h>
#include <string.h>

typedef struct cmp_ctx {
    char *why;
    size_t len;
} cmp_ctx;

static bool differ(cmp_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool differ(cmp_ctx *c, const char *fmt, ...)
{
    if (c->why && c->len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->why, c->len, fmt, ap);
        va_end(ap);
    }
    return false;
}

static bool str_eq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

#define FIELD(x, y, f, ...) \
    do { if ((x)->f != (y)->f) return differ(c, __VA_ARGS__); } while (0)

static bool operand_eq(cmp_ctx *c, const ptx_operand *x, const ptx_operand *y, const char *where)
{
    if (x->kind != y->kind || x->neg != y->neg || x->pipe != y->pipe || x->comp != y->comp ||
        x->nelem != y->nelem || x->reg != y->reg || x->sym != y->sym || x->imm != y->imm)
        return differ(c, "%s: operands differ (kind %d/%d reg %d/%d sym %d/%d imm %lld/%lld "
                      "comp %d/%d)", where, x->kind, y->kind, x->reg, y->reg, x->sym, y->sym,
                      (long long)x->imm, (long long)y->imm, x->comp, y->comp);
    for (unsigned i = 0; i < x->nelem; i++)
        if (!operand_eq(c, &x->elems[i], &y->elems[i], where))
            return false;
    return true;
}

static bool instr_eq(cmp_ctx *c, const ptx_instr *x, const ptx_instr *y, const char *where)
{
    if (x->op != y->op || x->nsfx != y->nsfx || memcmp(x->sfx, y->sfx, x->nsfx * sizeof x->sfx[0]))
        return differ(c, "%s: mnemonic differs (%s vs %s)", where,
                      ptx_opcode_name((ptx_opcode)x->op), ptx_opcode_name((ptx_opcode)y->op));
    if (x->ntypes != y->ntypes || memcmp(x->types, y->types, x->ntypes) || x->space != y->space ||
        x->vec != y->vec || x->rnd != y->rnd || x->cmp != y->cmp || x->boolop != y->boolop ||
        x->aop != y->aop || x->mode != y->mode || x->sem != y->sem || x->scope != y->scope ||
        x->flags != y->flags)
        return differ(c, "%s: decoded modifiers differ", where);
    FIELD(x, y, guard, "%s: guard differs", where);
    FIELD(x, y, guard_neg, "%s: guard negation differs", where);
    FIELD(x, y, nops, "%s: operand count differs (%u vs %u)", where, x->nops, y->nops);
    FIELD(x, y, target, "%s: target differs (%d vs %d)", where, x->target, y->target);
    FIELD(x, y, reconv, "%s: reconvergence point differs (%d vs %d)", where, x->reconv,
          y->reconv);
    FIELD(x, y, block, "%s: block differs", where);
    for (unsigned i = 0; i < x->nops; i++)
        if (!operand_eq(c, &x->ops[i], &y->ops[i], where))
            return false;
    return true;
}

/* Every nonzero byte of x's initial value is y's too (the runs may be cut differently: a
 * printed and re-parsed initialiser joins runs the zero-filled gaps of nested lists split). */
static bool same_initial_value(const ptx_symbol *x, const ptx_symbol *y)
{
    uint8_t buf[256];
    for (uint32_t r = 0; r < x->ninit; r++) {
        const ptx_init_run *run = &x->init[r];
        for (uint64_t o = 0; o < run->len; o += sizeof buf) {
            size_t n = run->len - o < sizeof buf ? (size_t)(run->len - o) : sizeof buf;
            ptx_init_read(y, run->offset + o, buf, n);
            if (memcmp(buf, run->bytes + o, n) != 0)
                return false;
        }
    }
    return true;
}

static bool symbol_eq(cmp_ctx *c, const ptx_symbol *x, const ptx_symbol *y, uint32_t i)
{
    if (!str_eq(x->name, y->name))
        return differ(c, "symbol #%u: name '%s' vs '%s'", i, x->name, y->name);
    if (x->kind != y->kind || x->space != y->space || x->type != y->type ||
        x->linkage != y->linkage || x->align != y->align || x->size != y->size ||
        x->vec != y->vec || x->is_ptr != y->is_ptr || x->ptr_align != y->ptr_align ||
        x->ptr_space != y->ptr_space || x->owner != y->owner || x->func != y->func ||
        x->offset != y->offset || x->scope != y->scope || x->managed != y->managed ||
        x->unified != y->unified || memcmp(x->uuid, y->uuid, sizeof x->uuid) ||
        (x->kind == PTX_SYM_PARAM && x->space == PTX_SPACE_REG && x->reg != y->reg))
        return differ(c, "symbol #%u '%s': attributes differ", i, x->name);
    if (!same_initial_value(x, y) || !same_initial_value(y, x))
        return differ(c, "symbol #%u '%s': initial value differs", i, x->name);
    if (!x->sampler != !y->sampler ||
        (x->sampler && memcmp(x->sampler, y->sampler, sizeof *x->sampler)))
        return differ(c, "symbol #%u '%s': sampler initialiser differs", i, x->name);
    if (x->nrelocs != y->nrelocs)
        return differ(c, "symbol #%u '%s': relocation count differs", i, x->name);
    for (uint32_t r = 0; r < x->nrelocs; r++) {
        const ptx_reloc *a = &x->relocs[r], *b = &y->relocs[r];
        if (a->offset != b->offset || a->size != b->size || a->sym != b->sym ||
            a->addend != b->addend || a->generic != b->generic)
            return differ(c, "symbol #%u '%s': relocation %u differs", i, x->name, r);
    }
    return true;
}

static bool function_eq(cmp_ctx *c, const ptx_function *x, const ptx_function *y)
{
    const char *n = x->name ? x->name : "?";
    if (!str_eq(x->name, y->name))
        return differ(c, "function name '%s' vs '%s'", n, y->name ? y->name : "?");
    if (x->is_entry != y->is_entry || x->is_decl != y->is_decl || x->linkage != y->linkage ||
        x->sym != y->sym)
        return differ(c, "function '%s': kind or linkage differs", n);
    if (x->nparams != y->nparams || x->nrets != y->nrets || x->param_size != y->param_size ||
        memcmp(x->params, y->params, x->nparams * sizeof(int32_t)) ||
        memcmp(x->rets, y->rets, x->nrets * sizeof(int32_t)))
        return differ(c, "function '%s': parameters differ", n);
    if (memcmp(x->maxntid, y->maxntid, sizeof x->maxntid) ||
        memcmp(x->reqntid, y->reqntid, sizeof x->reqntid) || x->minnctapersm != y->minnctapersm ||
        x->maxnreg != y->maxnreg || x->maxclusterrank != y->maxclusterrank ||
        memcmp(x->reqnctapercluster, y->reqnctapercluster, sizeof x->reqnctapercluster) ||
        x->noreturn != y->noreturn || x->explicitcluster != y->explicitcluster)
        return differ(c, "function '%s': performance directives differ", n);
    if (x->shared_size != y->shared_size || x->local_size != y->local_size)
        return differ(c, "function '%s': shared/local sizes differ", n);
    if (x->nregs != y->nregs || x->nslots != y->nslots)
        return differ(c, "function '%s': register count differs (%u vs %u)", n, x->nregs,
                      y->nregs);
    for (uint32_t i = 0; i < x->nregs; i++) {
        const ptx_reg *a = &x->regs[i], *b = &y->regs[i];
        if (!str_eq(a->name, b->name) || a->type != b->type || a->nslots != b->nslots ||
            a->slot != b->slot || a->vec != b->vec || a->scope != b->scope)
            return differ(c, "function '%s': register #%u ('%s' vs '%s') differs", n, i,
                          a->name, b->name);
    }
    if (x->nscopes != y->nscopes)
        return differ(c, "function '%s': scope count differs", n);
    for (uint32_t i = 0; i < x->nscopes; i++)
        if (x->scopes[i].first != y->scopes[i].first || x->scopes[i].end != y->scopes[i].end ||
            x->scopes[i].parent != y->scopes[i].parent)
            return differ(c, "function '%s': scope %u differs", n, i);
    if (x->ninstrs != y->ninstrs)
        return differ(c, "function '%s': instruction count differs (%u vs %u)", n, x->ninstrs,
                      y->ninstrs);
    for (uint32_t i = 0; i < x->ninstrs; i++) {
        char where[300];
        snprintf(where, sizeof where, "function '%.200s' instruction %u (line %u)", n, i,
                 x->instrs[i].line);
        if (!instr_eq(c, &x->instrs[i], &y->instrs[i], where))
            return false;
    }
    if (x->nblocks != y->nblocks)
        return differ(c, "function '%s': block count differs", n);
    for (uint32_t i = 0; i < x->nblocks; i++) {
        const ptx_block *a = &x->blocks[i], *b = &y->blocks[i];
        if (a->first != b->first || a->end != b->end || a->nsucc != b->nsucc ||
            (a->nsucc && memcmp(a->succ, b->succ, a->nsucc * sizeof a->succ[0])) ||
            a->ipdom != b->ipdom)
            return differ(c, "function '%s': block %u differs", n, i);
    }
    return true;
}

bool ptx_module_equal(const ptx_module *a, const ptx_module *b, char *why, size_t whylen)
{
    cmp_ctx cc = {why, whylen}, *c = &cc;
    if (why && whylen)
        why[0] = 0;
    if (!a || !b)
        return a == b ? true : differ(c, "one module is NULL");
    if (a->version_major != b->version_major || a->version_minor != b->version_minor)
        return differ(c, "PTX versions differ");
    if (a->sm != b->sm || !str_eq(a->target, b->target))
        return differ(c, "targets differ");
    if (a->address_size != b->address_size)
        return differ(c, "address sizes differ");
    if (a->nsyms != b->nsyms)
        return differ(c, "symbol counts differ (%u vs %u)", a->nsyms, b->nsyms);
    for (uint32_t i = 0; i < a->nsyms; i++)
        if (!symbol_eq(c, &a->syms[i], &b->syms[i], i))
            return false;
    if (a->nfuncs != b->nfuncs)
        return differ(c, "function counts differ (%u vs %u)", a->nfuncs, b->nfuncs);
    for (uint32_t i = 0; i < a->nfuncs; i++)
        if (!function_eq(c, &a->funcs[i], &b->funcs[i]))
            return false;
    return true;
}
