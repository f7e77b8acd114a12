/* ptx_names.c: the vocabulary of ptx.h as text, and the reverse lookups the parser needs. */
#include "frontend/ptx_parser.h"

#include <pthread.h>
#include <string.h>

enum { PTX_KIND_B, PTX_KIND_U, PTX_KIND_S, PTX_KIND_F, PTX_KIND_P, PTX_KIND_PK, PTX_KIND_O };

static const struct { const char *text; unsigned bits; unsigned char kind; } type_info[] = {
    [PTX_TYPE_NONE] = {"", 0, PTX_KIND_B},
#define X(id, text, bits, kind) [PTX_TYPE_##id] = {text, bits, PTX_KIND_##kind},
#include "frontend/ptx_types.def"
#undef X
};

static const char *const opcode_text[] = {
    [PTX_OP_NONE] = "",
#define X(id, text) [PTX_OP_##id] = text,
#include "frontend/ptx_opcodes.def"
#undef X
};

static const struct { const char *text; unsigned char group; } suffix_info[] = {
#define X(id, text, group) [PTX_SFX_##id] = {text, PTX_SG_##group},
#include "frontend/ptx_suffixes.def"
#undef X
};

/* Flag bits live in a uint64_t, counted from FTZ; the FLAG entries must be contiguous. */
enum {
    PTX_NFLAGS = 0
#define X(id, text, group) + (PTX_SG_##group == PTX_SG_FLAG)
#include "frontend/ptx_suffixes.def"
#undef X
};
_Static_assert(PTX_NFLAGS <= 64, "too many FLAG suffixes for ptx_instr.flags");

static const char *const sreg_text[PTX_SREG_COUNT] = {
    [PTX_SREG_NONE] = "",
    [PTX_SREG_TID] = "%tid", [PTX_SREG_NTID] = "%ntid", [PTX_SREG_CTAID] = "%ctaid",
    [PTX_SREG_NCTAID] = "%nctaid", [PTX_SREG_LANEID] = "%laneid", [PTX_SREG_WARPID] = "%warpid",
    [PTX_SREG_NWARPID] = "%nwarpid", [PTX_SREG_SMID] = "%smid", [PTX_SREG_NSMID] = "%nsmid",
    [PTX_SREG_GRIDID] = "%gridid", [PTX_SREG_LANEMASK_EQ] = "%lanemask_eq",
    [PTX_SREG_LANEMASK_LE] = "%lanemask_le", [PTX_SREG_LANEMASK_LT] = "%lanemask_lt",
    [PTX_SREG_LANEMASK_GE] = "%lanemask_ge", [PTX_SREG_LANEMASK_GT] = "%lanemask_gt",
    [PTX_SREG_CLOCK] = "%clock", [PTX_SREG_CLOCK_HI] = "%clock_hi",
    [PTX_SREG_CLOCK64] = "%clock64", [PTX_SREG_GLOBALTIMER] = "%globaltimer",
    [PTX_SREG_GLOBALTIMER_LO] = "%globaltimer_lo", [PTX_SREG_GLOBALTIMER_HI] = "%globaltimer_hi",
    [PTX_SREG_DYNAMIC_SMEM_SIZE] = "%dynamic_smem_size",
    [PTX_SREG_TOTAL_SMEM_SIZE] = "%total_smem_size",
    [PTX_SREG_AGGR_SMEM_SIZE] = "%aggr_smem_size", [PTX_SREG_ENVREG] = "%envreg",
    [PTX_SREG_PM] = "%pm", [PTX_SREG_CLUSTERID] = "%clusterid",
    [PTX_SREG_NCLUSTERID] = "%nclusterid", [PTX_SREG_CLUSTER_CTAID] = "%cluster_ctaid",
    [PTX_SREG_CLUSTER_NCTAID] = "%cluster_nctaid",
    [PTX_SREG_CLUSTER_CTARANK] = "%cluster_ctarank",
    [PTX_SREG_CLUSTER_NCTARANK] = "%cluster_nctarank",
    [PTX_SREG_IS_EXPLICIT_CLUSTER] = "%is_explicit_cluster",
    [PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN] = "%reserved_smem_offset_begin",
    [PTX_SREG_RESERVED_SMEM_OFFSET_END] = "%reserved_smem_offset_end",
    [PTX_SREG_RESERVED_SMEM_OFFSET_CAP] = "%reserved_smem_offset_cap",
    [PTX_SREG_RESERVED_SMEM_OFFSET] = "%reserved_smem_offset_",
    [PTX_SREG_CURRENT_GRAPH_EXEC] = "%current_graph_exec",
};

const char *ptx_type_name(ptx_type t)
{
    return t < PTX_TYPE_COUNT ? type_info[t].text : "?";
}

unsigned ptx_type_bits(ptx_type t)
{
    return t < PTX_TYPE_COUNT ? type_info[t].bits : 0;
}

bool ptx_type_is_signed(ptx_type t)
{
    return t < PTX_TYPE_COUNT && t != PTX_TYPE_NONE && type_info[t].kind == PTX_KIND_S;
}

bool ptx_type_is_float(ptx_type t)
{
    return t < PTX_TYPE_COUNT && t != PTX_TYPE_NONE &&
           (type_info[t].kind == PTX_KIND_F || type_info[t].kind == PTX_KIND_PK);
}

char ptx_type_kind(ptx_type t)
{
    if (t == PTX_TYPE_NONE || t >= PTX_TYPE_COUNT)
        return 0;
    if (t == PTX_TYPE_TEXREF || t == PTX_TYPE_SAMPLERREF || t == PTX_TYPE_SURFREF)
        return 'O';
    return "BUSFPKO"[type_info[t].kind];
}

const char *ptx_opcode_name(ptx_opcode op)
{
    return op < PTX_OP_COUNT ? opcode_text[op] : "?";
}

const char *ptx_suffix_name(ptx_suffix s)
{
    if (s > PTX_SFX_NONE && s <= PTX_SFX_TYPES_END)
        return type_info[s].text;
    if (s > PTX_SFX_TYPES_END && s < PTX_SFX_COUNT)
        return suffix_info[s].text;
    return "?";
}

ptx_suffix_group ptx_suffix_group_of(ptx_suffix s)
{
    if (s > PTX_SFX_TYPES_END && s < PTX_SFX_COUNT)
        return (ptx_suffix_group)suffix_info[s].group;
    return PTX_SG_TYPE;
}

const char *ptx_sreg_name(ptx_sreg s)
{
    return s < PTX_SREG_COUNT && sreg_text[s] ? sreg_text[s] : "?";
}

bool ptx_instr_has(const ptx_instr *in, ptx_suffix s)
{
    for (unsigned i = 0; i < in->nsfx; i++)
        if (in->sfx[i] == s)
            return true;
    return false;
}

/* ---------------------------------------------------------------- reverse lookups */

static ptx_strmap opcode_map, suffix_map, sreg_map;
static pthread_once_t maps_once = PTHREAD_ONCE_INIT;

static void build_maps(void)
{
    for (int i = 1; i < PTX_OP_COUNT; i++)
        ptx_strmap_put(&opcode_map, opcode_text[i], strlen(opcode_text[i]), i);
    for (int i = 1; i < PTX_SFX_COUNT; i++) {
        const char *t = ptx_suffix_name((ptx_suffix)i);
        if (ptx_strmap_get(&suffix_map, t, strlen(t)) < 0)
            ptx_strmap_put(&suffix_map, t, strlen(t), i);
    }
    for (int i = 1; i < PTX_SREG_COUNT; i++)
        if (sreg_text[i])
            ptx_strmap_put(&sreg_map, sreg_text[i], strlen(sreg_text[i]), i);
}

ptx_opcode ptx_opcode_lookup(const char *s, size_t len)
{
    pthread_once(&maps_once, build_maps);
    int32_t v = ptx_strmap_get(&opcode_map, s, len);
    return v < 0 ? PTX_OP_NONE : (ptx_opcode)v;
}

ptx_suffix ptx_suffix_lookup(const char *s, size_t len)
{
    pthread_once(&maps_once, build_maps);
    int32_t v = ptx_strmap_get(&suffix_map, s, len);
    return v < 0 ? PTX_SFX_NONE : (ptx_suffix)v;
}

ptx_sreg ptx_sreg_lookup(const char *s, size_t len)
{
    pthread_once(&maps_once, build_maps);
    int32_t v = ptx_strmap_get(&sreg_map, s, len);
    return v < 0 ? PTX_SREG_NONE : (ptx_sreg)v;
}
