/* module.c: loading a parsed module for execution: its variables in device memory (with
 * initialisers and relocations), call-frame layouts, each kernel's static shared-memory
 * layout, and the decoded µops of every function with their handlers (an instruction without
 * one is rejected here, at load time, with its PTX line). */
#include "emulator/emu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t align_up(uint64_t v, uint64_t a)
{
    if (a < 1) a = 1;
    return (v + a - 1) / a * a;
}

int emu_instr_text(const ptx_instr *in, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s", ptx_opcode_name((ptx_opcode)in->op));
    for (int i = 0; i < in->nsfx && n >= 0 && (size_t)n < len; i++) {
        uint16_t s = in->sfx[i];
        const char *name = s <= PTX_SFX_TYPES_END ? ptx_type_name((ptx_type)s)
                                                  : ptx_suffix_name((ptx_suffix)s);
        n += snprintf(buf + n, len - (size_t)n, ".%s", name ? name : "?");
    }
    return n;
}

const emu_func *emu_module_func(const emu_module *mod, uint32_t index)
{
    return index < mod->nfuncs ? &mod->funcs[index] : NULL;
}

const emu_func *emu_module_func_by_ptx(const emu_module *mod, const ptx_function *fn)
{
    if (!fn || fn < mod->ptx->funcs || fn >= mod->ptx->funcs + mod->ptx->nfuncs) return NULL;
    return &mod->funcs[fn - mod->ptx->funcs];
}

/* Address a relocation or a `mov r, sym` of a module-scope symbol stands for. */
static bool reloc_target(const emu_module *mod, int32_t sym, bool generic, uint64_t *out)
{
    const ptx_symbol *s = &mod->ptx->syms[sym];
    if (s->kind == PTX_SYM_FUNC) {
        *out = EMU_FUNC_WINDOW + (uint64_t)(s->func >= 0 ? s->func : 0);
        return true;
    }
    if (s->space == PTX_SPACE_GLOBAL || s->space == PTX_SPACE_CONST) {
        *out = mod->var_addr[sym];
        return *out != 0;
    }
    (void)generic;
    return false;
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static bool load_vars(emu_module *mod, char *err, size_t errlen)
{
    const ptx_module *m = mod->ptx;
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ptx_symbol *s = &m->syms[i];
        /* function-scope variables too: each is its own symbol, so two functions' `g` differ */
        if (s->kind != PTX_SYM_VAR) continue;
        if (s->space != PTX_SPACE_GLOBAL && s->space != PTX_SPACE_CONST) continue;
        uint64_t size = s->size ? s->size : 1;
        uint64_t a = emu_device_alloc(size, EMU_ALLOC_MODULE);
        if (!a) {
            set_err(err, errlen, "%s:%u: cannot allocate %llu bytes of device memory for '%s'",
                    m->name ? m->name : "<ptx>", s->line, (unsigned long long)size, s->name);
            return false;
        }
        mod->var_addr[i] = a;
        for (uint32_t r = 0; r < s->ninit; r++)   /* the rest is zero already */
            memcpy((uint8_t *)(uintptr_t)a + s->init[r].offset, s->init[r].bytes,
                   s->init[r].len);
    }
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ptx_symbol *s = &m->syms[i];
        if (!mod->var_addr[i]) continue;
        for (uint32_t r = 0; r < s->nrelocs; r++) {
            const ptx_reloc *rl = &s->relocs[r];
            uint64_t v;
            if (rl->sym < 0 || (uint32_t)rl->sym >= m->nsyms ||
                !reloc_target(mod, rl->sym, rl->generic, &v)) {
                set_err(err, errlen, "%s:%u: initialiser of '%s' takes the address of a symbol "
                        "ptxsim cannot place", m->name ? m->name : "<ptx>", s->line, s->name);
                return false;
            }
            v += (uint64_t)rl->addend;
            if (rl->offset + rl->size > s->size || rl->size > 8) continue;
            memcpy((uint8_t *)(uintptr_t)mod->var_addr[i] + rl->offset, &v, rl->size);
        }
    }
    return true;
}

/* Symbols grouped by owning function (CSR: owned[first[f] .. first[f+1]) in id order), so that
 * laying out frames and kernels is linear in the module rather than functions x symbols. */
typedef struct owner_index {
    uint32_t *first;
    int32_t *owned;
} owner_index;

static bool owner_index_build(const ptx_module *m, owner_index *ox)
{
    ox->first = calloc((size_t)m->nfuncs + 2, sizeof *ox->first);
    ox->owned = malloc((m->nsyms ? m->nsyms : 1) * sizeof *ox->owned);
    if (!ox->first || !ox->owned) return false;
    for (uint32_t i = 0; i < m->nsyms; i++) {
        int32_t o = m->syms[i].owner;
        if (o >= 0 && (uint32_t)o < m->nfuncs) ox->first[o + 2]++;
    }
    for (uint32_t f = 0; f < m->nfuncs; f++) ox->first[f + 2] += ox->first[f + 1];
    for (uint32_t i = 0; i < m->nsyms; i++) {
        int32_t o = m->syms[i].owner;
        if (o >= 0 && (uint32_t)o < m->nfuncs) ox->owned[ox->first[o + 1]++] = (int32_t)i;
    }
    return true;   /* first[f] .. first[f + 1] now bound function f's symbols */
}

static void owner_index_free(owner_index *ox)
{
    free(ox->first);
    free(ox->owned);
}

static void layout_frames(emu_module *mod, const owner_index *ox)
{
    const ptx_module *m = mod->ptx;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_function *fn = &m->funcs[fi];
        emu_func *f = &mod->funcs[fi];
        for (uint32_t p = 0; p < fn->nparams; p++)
            if (fn->params[p] >= 0) mod->is_input_param[fn->params[p]] = true;
        for (uint32_t p = 0; p < fn->nrets; p++)
            if (fn->rets[p] >= 0) mod->is_input_param[fn->rets[p]] = true;
        f->param_base = align_up(fn->local_size, 16);
        uint64_t cur = 0;
        for (uint32_t k = ox->first[fi]; k < ox->first[fi + 1]; k++) {
            uint32_t i = (uint32_t)ox->owned[k];
            const ptx_symbol *s = &m->syms[i];
            if (s->space == PTX_SPACE_LOCAL) {
                mod->frame_off[i] = s->offset;
            } else if (s->space == PTX_SPACE_PARAM) {
                if (fn->is_entry && mod->is_input_param[i]) continue;
                uint64_t al = s->align ? s->align : 8;
                cur = align_up(cur, al);
                mod->frame_off[i] = f->param_base + cur;
                cur += s->size ? s->size : 8;
            }
        }
        f->frame_size = align_up(f->param_base + cur, 16);
    }
}

/* Symbols an operand refers to (address bases, symbol values, vector elements). */
static void operand_syms(const ptx_operand *o, void (*fn)(void *, int32_t), void *arg)
{
    if (o->kind == PTX_OPD_ADDR || o->kind == PTX_OPD_SYM) {
        if (o->sym >= 0) fn(arg, o->sym);
    }
    if ((o->kind == PTX_OPD_VEC || o->kind == PTX_OPD_LIST) && o->elems)
        for (int i = 0; i < o->nelem; i++) operand_syms(&o->elems[i], fn, arg);
}

/* What one kernel reaches: the functions it may call and the shared variables they use. The
 * stamp arrays are the module's, shared by every kernel (a kernel's marks are its stamp), so a
 * module of many kernels costs the sum of what each reaches, not kernels x module size. */
typedef struct reach_state {
    const ptx_module *m;
    const owner_index *ox;
    uint32_t *fn_stamp, *sym_stamp, stamp;
    uint32_t *stack;               /* functions still to scan */
    uint32_t sp;
    int32_t *shared;               /* shared symbols reached, in the order found */
    uint32_t nshared;
    uint32_t *reached;             /* functions reached */
    uint32_t nreached;
    bool indirect;
} reach_state;

static void mark_sym(void *arg, int32_t sym)
{
    reach_state *rs = arg;
    if ((uint32_t)sym >= rs->m->nsyms || rs->sym_stamp[sym] == rs->stamp) return;
    rs->sym_stamp[sym] = rs->stamp;
    const ptx_symbol *s = &rs->m->syms[sym];
    if (s->kind == PTX_SYM_VAR && s->space == PTX_SPACE_SHARED && s->owner == -1)
        rs->shared[rs->nshared++] = sym;
}

static void push_fn(reach_state *rs, uint32_t fi)
{
    if (rs->fn_stamp[fi] == rs->stamp) return;
    rs->fn_stamp[fi] = rs->stamp;
    rs->stack[rs->sp++] = fi;
    rs->reached[rs->nreached++] = fi;
    /* the function's own shared variables come with it */
    for (uint32_t k = rs->ox->first[fi]; k < rs->ox->first[fi + 1]; k++) {
        int32_t i = rs->ox->owned[k];
        const ptx_symbol *s = &rs->m->syms[i];
        if (s->kind == PTX_SYM_VAR && s->space == PTX_SPACE_SHARED &&
            rs->sym_stamp[i] != rs->stamp) {
            rs->sym_stamp[i] = rs->stamp;
            rs->shared[rs->nshared++] = i;
        }
    }
}

static void reach(reach_state *rs, uint32_t root)
{
    push_fn(rs, root);
    while (rs->sp) {
        const ptx_function *fn = &rs->m->funcs[rs->stack[--rs->sp]];
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            const ptx_instr *in = &fn->instrs[i];
            for (int k = 0; k < in->nops; k++) operand_syms(&in->ops[k], mark_sym, rs);
            if (in->op == PTX_OP_CALL) {
                int32_t t = in->target;
                if (t >= 0 && (uint32_t)t < rs->m->nsyms &&
                    rs->m->syms[t].kind == PTX_SYM_FUNC && rs->m->syms[t].func >= 0 &&
                    (uint32_t)rs->m->syms[t].func < rs->m->nfuncs)
                    push_fn(rs, (uint32_t)rs->m->syms[t].func);
                else rs->indirect = true;
            }
        }
    }
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

uint64_t emu_kernel_shared_offset(const emu_func *k, int32_t sym)
{
    uint32_t lo = 0, hi = k->nshared;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (k->shared[mid].sym < sym) lo = mid + 1;
        else hi = mid;
    }
    return lo < k->nshared && k->shared[lo].sym == sym ? k->shared[lo].off : UINT64_MAX;
}

static bool layout_kernel(emu_module *mod, reach_state *rs, uint32_t ki)
{
    const ptx_module *m = mod->ptx;
    emu_func *k = &mod->funcs[ki];
    rs->stamp++;
    rs->sp = rs->nshared = rs->nreached = 0;
    rs->indirect = false;
    reach(rs, ki);
    if (rs->indirect) {
        /* an indirect call may reach any function whose address is taken: take them all */
        for (uint32_t f = 0; f < m->nfuncs; f++) {
            push_fn(rs, f);
            reach(rs, f);
        }
    }
    /* Laid out in symbol order: the order of declaration, the same for every kernel. */
    qsort(rs->shared, rs->nshared, sizeof *rs->shared, cmp_i32);
    k->shared = malloc((rs->nshared ? rs->nshared : 1) * sizeof *k->shared);
    if (!k->shared) return false;
    k->nshared = rs->nshared;
    uint64_t cur = 0, max_frame = 0, ext_align = 16;
    for (uint32_t j = 0; j < rs->nshared; j++) {
        const ptx_symbol *s = &m->syms[rs->shared[j]];
        k->shared[j] = (emu_shared_slot){rs->shared[j], UINT64_MAX};
        if (s->size == 0) {
            if (s->align > ext_align) ext_align = s->align;
            continue;
        }
        cur = align_up(cur, s->align ? s->align : 1);
        k->shared[j].off = cur;
        cur += s->size;
    }
    uint64_t dyn = align_up(cur, ext_align);
    for (uint32_t j = 0; j < rs->nshared; j++)
        if (m->syms[rs->shared[j]].size == 0) k->shared[j].off = dyn;
    k->static_smem = dyn;
    bool calls = false;
    for (uint32_t r = 0; r < rs->nreached; r++) {
        uint32_t f = rs->reached[r];
        if (f != ki) calls = true;
        if (mod->funcs[f].frame_size > max_frame) max_frame = mod->funcs[f].frame_size;
    }
    k->calls = calls;
    k->max_stack = k->frame_size + (calls ? EMU_CALL_STACK_BYTES + max_frame : 0);
    return true;
}

static bool layout_kernels(emu_module *mod, const owner_index *ox)
{
    const ptx_module *m = mod->ptx;
    size_t nf = m->nfuncs ? m->nfuncs : 1, ns = m->nsyms ? m->nsyms : 1;
    reach_state rs = { m, ox, calloc(nf, sizeof(uint32_t)), calloc(ns, sizeof(uint32_t)), 0,
                       malloc(nf * sizeof(uint32_t)), 0, malloc(ns * sizeof(int32_t)), 0,
                       malloc(nf * sizeof(uint32_t)), 0, false };
    bool ok = rs.fn_stamp && rs.sym_stamp && rs.stack && rs.shared && rs.reached;
    for (uint32_t fi = 0; ok && fi < m->nfuncs; fi++)
        if (m->funcs[fi].is_entry && !m->funcs[fi].is_decl) ok = layout_kernel(mod, &rs, fi);
    free(rs.fn_stamp);
    free(rs.sym_stamp);
    free(rs.stack);
    free(rs.shared);
    free(rs.reached);
    return ok;
}

/* Decodes every function with a body and picks the interpreter's handler of each µop. */
static bool decode_functions(emu_module *mod, const emu_decode_options *opt, char *err,
                             size_t errlen)
{
    const ptx_module *m = mod->ptx;
    int bad = 0;
    size_t used = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_function *fn = &m->funcs[fi];
        emu_func *f = &mod->funcs[fi];
        f->fn = fn;
        f->index = fi;
        if (fn->is_decl || fn->ninstrs == 0) continue;
        if (!emu_decode_function(m, fn, opt, &f->code)) return false;
        for (uint32_t i = 0; i < fn->ninstrs; i++) {
            emu_uop *u = &f->code.uops[i];
            const ptx_instr *in = &fn->instrs[i];
            ptx_tx_marker marker = ptx_tx_marker_of(m, in);
            u->exec = marker != PTX_TX_NONE ? emu_tx_marker_handler(marker)
                                            : emu_interp_handler(&f->code, u);
            if (u->exec) continue;
            if (bad++ < 4 && err && used < errlen) {
                char name[160];
                emu_instr_text(in, name, sizeof name);
                int n = snprintf(err + used, errlen - used,
                                 "%s%s:%u: unsupported instruction '%s' in function '%s'",
                                 used ? "\n" : "", m->name ? m->name : "<ptx>", in->line, name,
                                 fn->name);
                if (n > 0) used += (size_t)n;
                if (used >= errlen) used = errlen - 1;
            }
        }
    }
    if (bad > 4 && err && used + 1 < errlen)
        snprintf(err + used, errlen - used, "\n(%d unsupported instructions in all)", bad);
    return bad == 0;
}

emu_module *emu_module_load(const ptx_module *m, char *err, size_t errlen)
{
    emu_load_options opt = { .fmad = true };
    return emu_module_load_ex(m, &opt, err, errlen);
}

emu_module *emu_module_load_ex(const ptx_module *m, const emu_load_options *opt, char *err,
                               size_t errlen)
{
    if (err && errlen) err[0] = 0;
    if (!m) {
        set_err(err, errlen, "no module");
        return NULL;
    }
    emu_module *mod = calloc(1, sizeof *mod);
    if (!mod) return NULL;
    mod->ptx = m;
    mod->nfuncs = m->nfuncs;
    size_t ns = m->nsyms ? m->nsyms : 1;
    mod->funcs = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *mod->funcs);
    mod->var_addr = calloc(ns, sizeof *mod->var_addr);
    mod->frame_off = calloc(ns, sizeof *mod->frame_off);
    mod->is_input_param = calloc(ns, sizeof *mod->is_input_param);
    if (!mod->funcs || !mod->var_addr || !mod->frame_off || !mod->is_input_param) {
        set_err(err, errlen, "out of memory loading %s", m->name ? m->name : "<ptx>");
        emu_module_unload(mod);
        return NULL;
    }
    emu_decode_options dopt = { .fmad = opt ? opt->fmad : true };
    if (!decode_functions(mod, &dopt, err, errlen)) {
        emu_module_unload(mod);
        return NULL;
    }
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ptx_symbol *s = &m->syms[i];
        if (s->kind == PTX_SYM_VAR && s->owner == -1 && s->space == PTX_SPACE_LOCAL) {
            set_err(err, errlen, "%s:%u: module-scope .local variable '%s' is not supported",
                    m->name ? m->name : "<ptx>", s->line, s->name);
            emu_module_unload(mod);
            return NULL;
        }
    }
    owner_index ox;
    bool laid = owner_index_build(m, &ox);
    if (laid) {
        layout_frames(mod, &ox);
        laid = layout_kernels(mod, &ox);
    }
    owner_index_free(&ox);
    if (!laid) {
        set_err(err, errlen, "out of memory loading %s", m->name ? m->name : "<ptx>");
        emu_module_unload(mod);
        return NULL;
    }
    if (!load_vars(mod, err, errlen)) {
        emu_module_unload(mod);
        return NULL;
    }
    for (uint32_t fi = 0; fi < m->nfuncs; fi++)
        if (m->funcs[fi].is_entry && !m->funcs[fi].is_decl && m->funcs[fi].ninstrs) {
            emu_func_plan_entry_rows(&mod->funcs[fi]);   /* false: every row is zeroed */
            emu_func_plan_shared_writes(&mod->funcs[fi]);
        }
    return mod;
}

void emu_module_unload(emu_module *mod)
{
    if (!mod) return;
    if (mod->var_addr)
        for (uint32_t i = 0; i < mod->ptx->nsyms; i++)
            if (mod->var_addr[i]) emu_device_free(mod->var_addr[i]);
    if (mod->funcs)
        for (uint32_t i = 0; i < mod->nfuncs; i++) {
            emu_jit_forget(&mod->funcs[i]);
            emu_code_free(&mod->funcs[i].code);
            free(mod->funcs[i].shared);
            free(mod->funcs[i].region_marks);
            free(mod->funcs[i].entry_rows);
            free(atomic_load(&mod->funcs[i].uop_rows));
            free(atomic_load(&mod->funcs[i].entry_rows_ahead));
            free(atomic_load(&mod->funcs[i].event_heads));
            free(atomic_load(&mod->funcs[i].next_instrs));
        }
    free(mod->funcs);
    free(mod->var_addr);
    free(mod->frame_off);
    free(mod->is_input_param);
    free(mod);
}

const ptx_module *emu_module_ptx(const emu_module *mod)
{
    return mod ? mod->ptx : NULL;
}

bool emu_module_symbol(const emu_module *mod, const char *name, uint64_t *addr, uint64_t *size)
{
    if (!mod || !name) return false;
    const ptx_module *m = mod->ptx;
    /* the name index first (constant time); a name several symbols share (an -rdc link's
     * extern declarations) falls back to the scan */
    int32_t first = ptx_find_symbol(m, -1, name);
    if (first >= 0 && mod->var_addr[first]) {
        if (addr) *addr = mod->var_addr[first];
        if (size) *size = m->syms[first].size;
        return true;
    }
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ptx_symbol *s = &m->syms[i];
        if (s->owner != -1 || !mod->var_addr[i] || strcmp(s->name, name) != 0) continue;
        if (addr) *addr = mod->var_addr[i];
        if (size) *size = s->size;
        return true;
    }
    return false;
}

bool emu_module_kernel_resources(const emu_module *mod, const ptx_function *kernel,
                                 emu_kernel_resources *out)
{
    const emu_func *k = mod ? emu_module_func_by_ptx(mod, kernel) : NULL;
    if (!k || !kernel->is_entry || kernel->is_decl) return false;
    out->static_smem = k->static_smem;
    out->local_per_thread = k->max_stack;
    return true;
}

bool emu_module_set_region_boundaries(emu_module *mod, const ptx_function *fn,
                                      const uint8_t *boundary)
{
    if (!mod || !fn) return false;
    for (uint32_t f = 0; f < mod->nfuncs; f++) {
        emu_code *code = &mod->funcs[f].code;
        if (mod->funcs[f].fn != fn || !code->uops) continue;
        uint8_t *marks = NULL;
        if (boundary) {
            marks = malloc(code->n);
            if (!marks) return false;
            memcpy(marks, boundary, code->n);
        }
        free(mod->funcs[f].region_marks);
        mod->funcs[f].region_marks = marks;
        for (uint32_t i = 0; i < code->n; i++) {
            if (boundary && boundary[i]) code->uops[i].flags |= EMU_UOP_REGION_BOUNDARY;
            else code->uops[i].flags &= (uint16_t)~EMU_UOP_REGION_BOUNDARY;
        }
        if (boundary) mod->region_boundaries = true;
        return true;
    }
    return false;
}

bool emu_module_has_region_boundaries(const emu_module *mod)
{
    return mod && mod->region_boundaries;
}
