/* input_key.c: the translator's inputs as key bytes, so that code from the disk cache is found
 * without translating (engine.c's code_key).
 *
 * Everything emu_jit_translate (translate.c) reads of a function goes in by value, never an
 * address: each µop's fields and operands, its IR instruction (every field but its position
 * in the text, which only messages read) with its operands, the decoded form it points to
 * where the translator reads it (a contracted fma's), the code's operand pool and register
 * table, and the function's slots and parameters. A field of these structures the translator
 * starts to read later is in here already, or (a new structure) changes the translator's
 * sources, which the key holds as EMU_JIT_SOURCE_HASH: the Makefile's hash of the JIT's
 * sources and of every header of the emulator and frontend (the structures' layouts and
 * constants compiled code embeds), so that no edit to them loads code made before it.
 * Whoever makes the translator read something new of the function, the module or the
 * options must add it here. */
#include "emulator/jit/jit_internal.h"

#include "jit_source_hash.h"

/* 64-bit words gathered before they are hashed (the key hashes byte by byte) */
typedef struct key_writer {
    emu_jit_key *k;
    uint64_t buf[64];
    unsigned n;
} key_writer;

static void flush(key_writer *w)
{
    emu_jit_key_add_bytes(w->k, w->buf, w->n * sizeof w->buf[0]);
    w->n = 0;
}

static void put(key_writer *w, uint64_t x)
{
    if (w->n == sizeof w->buf / sizeof w->buf[0]) flush(w);
    w->buf[w->n++] = x;
}

static void put_opd(key_writer *w, const emu_opd *o)
{
    put(w, (uint64_t)o->kind | (uint64_t)o->type << 8 | (uint64_t)o->bits << 16 |
               (uint64_t)o->flags << 24 | (uint64_t)o->row << 32);
    put(w, o->imm);
    put(w, o->raw);
}

static void put_operand(key_writer *w, const ptx_operand *o)
{
    put(w, (uint64_t)o->kind | (uint64_t)o->neg << 8 | (uint64_t)o->pipe << 9 |
               (uint64_t)o->comp << 16 | (uint64_t)o->nelem << 24 | (uint64_t)(uint32_t)o->reg << 32);
    put(w, (uint64_t)(uint32_t)o->sym);
    put(w, (uint64_t)o->imm);
    for (unsigned e = 0; o->elems && e < o->nelem; e++) put_operand(w, &o->elems[e]);
}

static void put_instr(key_writer *w, const ptx_instr *in)
{
    put(w, (uint64_t)in->op | (uint64_t)in->nsfx << 16 | (uint64_t)in->ntypes << 24 |
               (uint64_t)in->space << 32 | (uint64_t)in->vec << 40 | (uint64_t)in->rnd << 48 |
               (uint64_t)in->cmp << 56);
    for (unsigned s = 0; s < in->nsfx && s < PTX_MAX_SUFFIXES; s++) put(w, in->sfx[s]);
    for (unsigned t = 0; t < PTX_MAX_TYPES; t++) put(w, in->types[t]);
    put(w, (uint64_t)in->boolop | (uint64_t)in->aop << 16 | (uint64_t)in->mode << 32 |
               (uint64_t)in->sem << 48);
    put(w, in->scope);
    put(w, in->flags);
    put(w, (uint64_t)(uint32_t)in->guard | (uint64_t)in->guard_neg << 32 | (uint64_t)in->nops << 40);
    put(w, (uint64_t)(uint32_t)in->target | (uint64_t)(uint32_t)in->reconv << 32);
    put(w, (uint64_t)(uint32_t)in->block);
    for (unsigned i = 0; in->ops && i < in->nops; i++) put_operand(w, &in->ops[i]);
}

static void put_uop(key_writer *w, const emu_uop *u)
{
    /* the handler is called through the µop at run time (its address is not in the code);
     * whether there is one decides whether the function translates at all */
    put(w, (uint64_t)(u->exec != NULL) | (uint64_t)(u->form != NULL) << 1 |
               (uint64_t)(u->in != NULL) << 2 | (uint64_t)u->op << 8 | (uint64_t)u->cls << 24 |
               (uint64_t)u->nopd << 32 | (uint64_t)u->flags << 40);
    put(w, (uint64_t)u->type | (uint64_t)u->nreads << 8 | (uint64_t)u->nwrites << 16 |
               (uint64_t)u->guard_row << 32);
    put(w, (uint64_t)u->guard_xor | (uint64_t)u->block_end << 32);
    put(w, u->rw);
    for (unsigned i = 0; i < u->nopd; i++) put_opd(w, emu_uop_opd(u, i));
    if (u->in) put_instr(w, u->in);
    if (u->form && (u->flags & EMU_UOP_CONTRACTED)) {
        const emu_fma_contraction *fc = u->form;
        put(w, fc->mul | (uint64_t)fc->neg_product << 32 | (uint64_t)fc->neg_addend << 33);
        put_opd(w, &fc->a);
        put_opd(w, &fc->b);
        put_opd(w, &fc->c);
    }
}

void emu_jit_key_add_inputs(emu_jit_key *k, const emu_func *f, bool events)
{
    emu_jit_key_add(k, "ptxsim jit inputs");
    emu_jit_key_add(k, EMU_JIT_SOURCE_HASH);
    emu_jit_key_add(k, events ? "variant=events" : "variant=plain");
    key_writer w = {.k = k};
    const emu_code *code = &f->code;
    const ptx_function *fn = code->fn;
    put(&w, fn != NULL);
    if (fn) {
        put(&w, (uint64_t)fn->is_entry | (uint64_t)fn->nslots << 32);
        put(&w, fn->nparams);
        for (uint32_t p = 0; fn->params && p < fn->nparams; p++)
            put(&w, (uint64_t)(uint32_t)fn->params[p]);
        /* the register ids' slots (lane_stride.c reads the rows the µops write by id) */
        put(&w, fn->nregs);
        for (uint32_t r = 0; fn->regs && r < fn->nregs; r++)
            put(&w, (uint64_t)fn->regs[r].slot | (uint64_t)fn->regs[r].nslots << 32);
    }
    put(&w, code->n);
    for (uint32_t i = 0; i < code->n; i++) put_uop(&w, &code->uops[i]);
    put(&w, code->npool);
    for (uint32_t i = 0; i < code->npool; i++) put_opd(&w, &code->pool[i]);
    put(&w, code->nrw);
    for (uint32_t i = 0; i < code->nrw; i++) put(&w, (uint64_t)(uint32_t)code->rw[i]);
    flush(&w);
}
