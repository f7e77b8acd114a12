/* ptx_tx.c: transaction markers (KILO TM) and their load-time checks.
 *
 * A transaction is written as calls to marker functions (include/ptxsim/kilotm.h): nvcc 13
 * keeps a call only when the callee has a body it cannot remove, so the markers are real
 * functions whose bodies ptxsim never runs; the call itself is the boundary instruction. The
 * paper's and GPGPU-Sim's names are accepted too, so that their benchmark sources work.
 *
 * The checks (spec kilotm.md, section 14, item 4): transactions are single-entry/single-exit
 * regions, so every path through a function sees the same nesting depth at each instruction;
 * each outermost tx_begin dominates the tx_commits that close it, and each of those
 * post-dominates it (one commit on every path). Inside a transaction, barriers (an aborted subset
 * of the warp would execute them again, alone), atomics (performed at once, they cannot be
 * undone) and exit/ret (the transaction would never commit) are refused. */
#include "frontend/ptx_parser.h"

#include <stdlib.h>
#include <string.h>

static const char *const begin_names[] = {"tx_begin", "_Z8tx_beginv", "__tbegin", "_Z8__tbeginv"};
static const char *const commit_names[] = {"tx_commit", "_Z9tx_commitv", "__tcommit",
                                           "_Z9__tcommitv"};

static bool named(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, list[i]) == 0) return true;
    return false;
}

ptx_tx_marker ptx_tx_marker_of(const ptx_module *m, const ptx_instr *in)
{
    if (in->op != PTX_OP_CALL || in->target < 0 || (uint32_t)in->target >= m->nsyms)
        return PTX_TX_NONE;
    const ptx_symbol *s = &m->syms[in->target];
    if (s->kind != PTX_SYM_FUNC || !s->name) return PTX_TX_NONE;
    /* a marker takes nothing and returns nothing (GPGPU-Sim's __tcommit(int) status form is
     * not supported: its call stays an ordinary call) */
    if (s->func >= 0 && (uint32_t)s->func < m->nfuncs &&
        (m->funcs[s->func].nparams || m->funcs[s->func].nrets))
        return PTX_TX_NONE;
    if (named(s->name, begin_names, sizeof begin_names / sizeof *begin_names))
        return PTX_TX_BEGIN;
    if (named(s->name, commit_names, sizeof commit_names / sizeof *commit_names))
        return PTX_TX_COMMIT;
    return PTX_TX_NONE;
}

/* What an instruction inside a transaction must not be, or NULL. */
static const char *forbidden_inside(const ptx_instr *in)
{
    switch (in->op) {
    case PTX_OP_BAR: case PTX_OP_BARRIER: case PTX_OP_BAR_WARP_SYNC: case PTX_OP_MBARRIER:
        return "a barrier inside a transaction (aborted threads would execute it again alone)";
    case PTX_OP_ATOM: case PTX_OP_RED: case PTX_OP_RED_ASYNC: case PTX_OP_MULTIMEM_RED:
        return "an atomic inside a transaction (it takes effect at once and cannot be undone "
               "when the transaction aborts)";
    case PTX_OP_EXIT: case PTX_OP_RET:
        return "an exit or return inside a transaction (it would never reach its tx_commit)";
    default: return NULL;
    }
}

/* Does block a post-dominate block b (walking b's immediate post-dominators)? */
static bool postdominates(const ptx_function *f, int32_t a, int32_t b)
{
    for (int32_t x = b; x >= 0; x = f->blocks[x].ipdom)
        if (x == a) return true;
    return false;
}

/* Depth of transaction nesting at the start of each block (-1 not reached): the same on every
 * path, or an error. Returns false after reporting. */
static bool nesting_depths(ptx_builder *b, const ptx_module *m, const ptx_function *f,
                           int32_t *depth_in)
{
    int32_t *work = malloc((f->nblocks + 1) * sizeof *work);
    if (!work) return true;   /* out of memory: leave the checks to run time */
    uint32_t nwork = 0;
    for (uint32_t i = 0; i < f->nblocks; i++) depth_in[i] = -1;
    depth_in[0] = 0;
    work[nwork++] = 0;
    bool ok = true;
    while (nwork && ok) {
        int32_t bl = work[--nwork];
        const ptx_block *B = &f->blocks[bl];
        int32_t d = depth_in[bl];
        for (uint32_t i = B->first; i < B->end && ok; i++) {
            const ptx_instr *in = &f->instrs[i];
            ptx_tx_marker k = ptx_tx_marker_of(m, in);
            if (k != PTX_TX_NONE && in->guard >= 0) {
                ptx_b_error_at(b, f, in->line, in->col, "a guarded %s: transaction markers must "
                               "be unconditional calls", k == PTX_TX_BEGIN ? "tx_begin" : "tx_commit");
                ok = false;
            } else if (k == PTX_TX_BEGIN) {
                d++;
            } else if (k == PTX_TX_COMMIT) {
                if (d == 0) {
                    ptx_b_error_at(b, f, in->line, in->col, "tx_commit outside a transaction "
                                   "(no tx_begin before it on some path)");
                    ok = false;
                }
                d--;
            } else if (d > 0) {
                const char *why = forbidden_inside(in);
                if (why) {
                    ptx_b_error_at(b, f, in->line, in->col, "'%s': %s",
                                   ptx_opcode_name((ptx_opcode)in->op), why);
                    ok = false;
                }
            }
        }
        if (!ok) break;
        if (B->nsucc == 0 && d > 0) {
            const ptx_instr *last = &f->instrs[B->end - 1];
            ptx_b_error_at(b, f, last->line, last->col, "the function ends inside a "
                           "transaction (a tx_begin without a tx_commit on this path)");
            ok = false;
        }
        for (uint32_t s = 0; s < B->nsucc && ok; s++) {
            int32_t n = B->succ[s];
            if (depth_in[n] < 0) {
                depth_in[n] = d;
                work[nwork++] = n;
            } else if (depth_in[n] != d) {
                const ptx_instr *at = &f->instrs[f->blocks[n].first];
                ptx_b_error_at(b, f, at->line, at->col, "paths reach this instruction inside "
                               "and outside a transaction: a transaction must have one entry "
                               "(its tx_begin) and one exit (its tx_commit)");
                ok = false;
            }
        }
    }
    free(work);
    return ok;
}

/* Each outermost tx_begin: the commits that close it are the commits reached at depth 1; it
 * must dominate each and each must post-dominate it. */
static void check_pairs(ptx_builder *b, const ptx_module *m, const ptx_function *f,
                        const int32_t *depth_in, const ptx_dataflow *df)
{
    for (uint32_t bl = 0; bl < f->nblocks; bl++) {
        if (depth_in[bl] < 0) continue;
        int32_t d = depth_in[bl];
        for (uint32_t i = f->blocks[bl].first; i < f->blocks[bl].end; i++) {
            ptx_tx_marker k = ptx_tx_marker_of(m, &f->instrs[i]);
            if (k == PTX_TX_BEGIN && d++ == 0) {
                /* find the closing commits: walk forward at depth >= 1 */
                uint8_t *seen = calloc(f->nblocks, 1);
                int32_t *work = malloc((f->nblocks + 1) * sizeof *work);
                if (!seen || !work) {
                    free(seen);
                    free(work);
                    return;
                }
                uint32_t nwork = 0;
                int32_t start = (int32_t)bl;
                uint32_t from = i + 1;
                int32_t dd = 1;
                bool first = true;
                while (first || nwork) {
                    int32_t cur;
                    if (first) {
                        cur = start;
                        first = false;
                    } else {
                        cur = work[--nwork];
                        from = f->blocks[cur].first;
                        dd = depth_in[cur];
                    }
                    bool closed = false;
                    for (uint32_t j = from; j < f->blocks[cur].end && !closed; j++) {
                        ptx_tx_marker kj = ptx_tx_marker_of(m, &f->instrs[j]);
                        if (kj == PTX_TX_BEGIN) dd++;
                        if (kj == PTX_TX_COMMIT && --dd == 0) {
                            closed = true;
                            const ptx_instr *c = &f->instrs[j];
                            const ptx_instr *bi = &f->instrs[i];
                            bool dom = cur == start ? j > i : ptx_dominates(df, (uint32_t)start,
                                                                            (uint32_t)cur);
                            bool pdom = cur == start ? j > i : postdominates(f, cur, start);
                            if (!dom)
                                ptx_b_error_at(b, f, c->line, c->col, "this tx_commit is not "
                                               "dominated by the tx_begin at PTX line %u: a "
                                               "path reaches it without entering the "
                                               "transaction", bi->line);
                            else if (!pdom)
                                ptx_b_error_at(b, f, bi->line, bi->col, "the tx_commit at PTX "
                                               "line %u does not post-dominate this tx_begin: "
                                               "a path leaves the transaction without it",
                                               c->line);
                        }
                    }
                    if (closed) continue;
                    for (uint32_t s = 0; s < f->blocks[cur].nsucc; s++) {
                        int32_t n = f->blocks[cur].succ[s];
                        if (!seen[n] && depth_in[n] > 0) {
                            seen[n] = 1;
                            work[nwork++] = n;
                        }
                    }
                }
                free(seen);
                free(work);
            } else if (k == PTX_TX_COMMIT) {
                d--;
            }
        }
    }
}

void ptx_check_transactions(ptx_builder *b, const ptx_module *m, const ptx_function *f)
{
    bool any = false;
    for (uint32_t i = 0; i < f->ninstrs && !any; i++)
        any = ptx_tx_marker_of(m, &f->instrs[i]) != PTX_TX_NONE;
    if (!any || f->nblocks == 0) return;
    int32_t *depth_in = malloc(f->nblocks * sizeof *depth_in);
    if (!depth_in) return;
    if (nesting_depths(b, m, f, depth_in)) {
        ptx_dataflow *df = ptx_dataflow_compute(f);
        if (df) check_pairs(b, m, f, depth_in, df);
        ptx_dataflow_free(df);
    }
    free(depth_in);
}

int64_t ptx_tx_closing_commit(const ptx_module *m, const ptx_function *f, uint32_t begin)
{
    if (begin >= f->ninstrs || !f->nblocks || f->instrs[begin].block < 0) return -1;
    /* the load check guarantees one nesting depth per block start and a single closing
     * commit, so a walk that visits each block once finds it */
    int32_t *depth = malloc(f->nblocks * sizeof *depth);
    int32_t *work = malloc((f->nblocks + 1) * sizeof *work);
    int64_t found = -1;
    if (!depth || !work) goto out;
    for (uint32_t i = 0; i < f->nblocks; i++) depth[i] = -1;
    uint32_t nwork = 0;
    int32_t cur = f->instrs[begin].block;
    uint32_t from = begin;
    int32_t d = 0;
    for (;;) {
        for (uint32_t j = from; j < f->blocks[cur].end && found < 0; j++) {
            ptx_tx_marker k = ptx_tx_marker_of(m, &f->instrs[j]);
            if (k == PTX_TX_BEGIN) d++;
            else if (k == PTX_TX_COMMIT && --d == 0) found = j;
        }
        if (found >= 0) break;
        for (uint32_t s = 0; s < f->blocks[cur].nsucc; s++) {
            int32_t n = f->blocks[cur].succ[s];
            if (depth[n] < 0) {
                depth[n] = d;
                work[nwork++] = n;
            }
        }
        if (!nwork) break;
        cur = work[--nwork];
        from = f->blocks[cur].first;
        d = depth[cur];
    }
out:
    free(depth);
    free(work);
    return found;
}
