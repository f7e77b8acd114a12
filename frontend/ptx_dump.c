/* ptx_dump.c: a readable listing of the IR (symbols, parameters, blocks, successors, IPDOMs),
 * for `ptxsim ptx --dump` and for debugging the frontend. */
#include "frontend/ptx_parser.h"

#include <inttypes.h>

static const char *kind_name(int k)
{
    return k == PTX_SYM_FUNC ? "func" : k == PTX_SYM_PARAM ? "param" : "var";
}

static const char *space_text(int s)
{
    static const char *const names[] = {"generic", "reg", "sreg", "const", "global", "local",
                                        "param", "shared", "shared::cluster", "tex", "surf",
                                        "sampler"};
    return s >= 0 && s < (int)(sizeof names / sizeof names[0]) ? names[s] : "?";
}

static void dump_symbol(const ptx_module *m, int32_t i, const char *indent, FILE *out)
{
    const ptx_symbol *s = &m->syms[i];
    fprintf(out, "%ssym #%d %s: %s", indent, i, s->name, kind_name(s->kind));
    if (s->kind != PTX_SYM_FUNC) {
        fprintf(out, " .%s .%s", space_text(s->space), ptx_type_name((ptx_type)s->type));
        if (s->vec > 1)
            fprintf(out, " x%u", s->vec);
        fprintf(out, " size %" PRIu64 " align %u", s->size, s->align);
        if (s->owner >= 0 || s->space == PTX_SPACE_PARAM)
            fprintf(out, " offset %" PRIu64, s->offset);
        if (s->is_ptr)
            fprintf(out, " ptr(.%s, align %u)", space_text(s->ptr_space), s->ptr_align);
        if (s->init)
            fputs(" init", out);
        if (s->nrelocs)
            fprintf(out, " relocs %u", s->nrelocs);
        if (s->managed)
            fputs(" managed", out);
        if (s->unified)
            fprintf(out, " unified(0x%" PRIx64 ", 0x%" PRIx64 ")", s->uuid[0], s->uuid[1]);
        if (s->kind == PTX_SYM_PARAM && s->space == PTX_SPACE_REG && s->reg >= 0)
            fprintf(out, " register %d", s->reg);
        if (s->scope >= 0)
            fprintf(out, " scope %d", s->scope);
    } else {
        fprintf(out, " -> function %d", s->func);
        if (s->unified)
            fprintf(out, " unified(0x%" PRIx64 ", 0x%" PRIx64 ")", s->uuid[0], s->uuid[1]);
    }
    if (s->linkage)
        fprintf(out, " linkage %u", s->linkage);
    fprintf(out, " (line %u)\n", s->line);
    for (uint32_t r = 0; r < s->nrelocs; r++)
        fprintf(out, "%s  reloc @%" PRIu64 " size %u = %s%s%s + %" PRId64 "\n", indent,
                s->relocs[r].offset, s->relocs[r].size, s->relocs[r].generic ? "generic(" : "",
                m->syms[s->relocs[r].sym].name, s->relocs[r].generic ? ")" : "",
                s->relocs[r].addend);
}

void ptx_dump(const ptx_module *m, FILE *out)
{
    fprintf(out, "module %s: PTX %u.%u, target %s (sm %u), address_size %u\n", m->name,
            m->version_major, m->version_minor, m->target ? m->target : "?", m->sm,
            m->address_size);
    for (uint32_t i = 0; i < m->nfiles; i++)
        if (m->files[i])
            fprintf(out, "file %u: %s\n", i, m->files[i]);
    for (uint32_t i = 0; i < m->nsyms; i++)
        if (m->syms[i].owner == -1)
            dump_symbol(m, (int32_t)i, "", out);
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_function *f = &m->funcs[fi];
        bool proto = f->sym >= 0 && m->syms[f->sym].owner >= 0;
        fprintf(out, "\nfunction #%u %s: %s%s%s, %u params, %u rets, param block %u bytes", fi,
                f->name, f->is_entry ? "entry" : "func",
                proto ? " (.callprototype)" : f->is_decl ? " (declaration)" : "",
                f->noreturn ? " .noreturn" : "", f->nparams, f->nrets, f->param_size);
        if (!f->is_decl)
            fprintf(out, ", %u regs in %u slots, %u instructions, %u blocks, local %" PRIu64
                         ", shared %" PRIu64, f->nregs, f->nslots, f->ninstrs, f->nblocks,
                    f->local_size, f->shared_size);
        fputc('\n', out);
        if (f->maxntid[0])
            fprintf(out, "  maxntid %u %u %u\n", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
        if (f->reqntid[0])
            fprintf(out, "  reqntid %u %u %u\n", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
        if (f->minnctapersm)
            fprintf(out, "  minnctapersm %u\n", f->minnctapersm);
        if (f->maxnreg)
            fprintf(out, "  maxnreg %u\n", f->maxnreg);
        for (uint32_t i = 0; i < m->nsyms; i++)
            if (m->syms[i].owner == (int32_t)fi)
                dump_symbol(m, (int32_t)i, "  ", out);
        for (uint32_t b = 0; b < f->nblocks; b++) {
            const ptx_block *bl = &f->blocks[b];
            fprintf(out, "  block %u [%u, %u) succ", b, bl->first, bl->end);
            if (bl->nsucc == 0)
                fputs(" exit", out);
            for (uint32_t k = 0; k < bl->nsucc; k++)
                fprintf(out, " %d", bl->succ[k]);
            if (bl->ipdom >= 0)
                fprintf(out, ", ipdom %d\n", bl->ipdom);
            else
                fputs(", ipdom exit\n", out);
            for (uint32_t i = bl->first; i < bl->end; i++) {
                const ptx_instr *in = &f->instrs[i];
                fprintf(out, "    %5u  ", i);
                ptx_print_instr(m, f, in, out);
                if (in->reconv >= 0)
                    fprintf(out, "    // reconverge at %d", in->reconv);
                fprintf(out, "    // line %u", in->line);
                if (in->dbg_line)
                    fprintf(out, ", %s:%u",
                            in->dbg_file < m->nfiles && m->files[in->dbg_file]
                                ? m->files[in->dbg_file] : "?",
                            in->dbg_line);
                fputc('\n', out);
            }
        }
    }
}
