/* exec_builtin.c: the device-runtime functions nvcc declares `.extern .func` and calls like any
 * function: vprintf (printf), malloc, free and __assertfail (assert). */
#include "emulator/emu_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The host pointer of [gaddr, gaddr+size) seen from a generic address, or NULL. */
static uint8_t *generic_ptr(emu_ctx *c, int lane, uint64_t g, uint64_t size)
{
    if (g >= EMU_SHARED_WINDOW && g < EMU_SHARED_WINDOW + EMU_WINDOW_SIZE) {
        uint64_t a = g - EMU_SHARED_WINDOW;
        if (a > c->cta->smem_size || size > c->cta->smem_size - a) return NULL;
        return c->cta->smem + a;
    }
    if (g >= EMU_LOCAL_WINDOW && g < EMU_LOCAL_WINDOW + EMU_WINDOW_SIZE)
        return emu_local_ptr(c, lane, g - EMU_LOCAL_WINDOW, size);
    if (g >= EMU_PARAM_WINDOW && g < EMU_PARAM_WINDOW + EMU_WINDOW_SIZE) {
        uint64_t a = g - EMU_PARAM_WINDOW;
        if (a > c->g->params_size || size > c->g->params_size - a) return NULL;
        return c->g->params + a;
    }
    if (!emu_find_allocation(g, size, NULL, NULL, NULL)) return NULL;
    return (uint8_t *)(uintptr_t)g;
}

/* A NUL-terminated string at a generic address, copied into buf (truncated), or false. */
static bool read_string(emu_ctx *c, int lane, uint64_t g, char *buf, size_t len)
{
    size_t n = 0;
    for (; n + 1 < len; n++) {
        uint8_t *p = generic_ptr(c, lane, g + n, 1);
        if (!p) return false;
        buf[n] = (char)*p;
        if (!*p) return true;
    }
    buf[n] = 0;
    return true;
}

/* The value of argument i of the call (a .param of the caller, or a register/immediate). */
static uint64_t call_arg(emu_ctx *c, const ptx_instr *in, int args, uint32_t i, int lane,
                         uint64_t size)
{
    if (args < 0 || i >= in->ops[args].nelem) return 0;
    const ptx_operand *a = &in->ops[args].elems[i];
    if ((a->kind == PTX_OPD_SYM || a->kind == PTX_OPD_ADDR) && a->sym >= 0) {
        uint64_t off = c->fr->local_base + c->mod->frame_off[a->sym] +
                       (a->kind == PTX_OPD_ADDR ? (uint64_t)a->imm : 0);
        uint8_t *p = emu_local_ptr(c, lane, off, size);
        uint64_t v = 0;
        if (p) memcpy(&v, p, size < 8 ? size : 8);
        return v;
    }
    return emu_read(c, a, lane, size >= 8 ? PTX_TYPE_B64 : PTX_TYPE_B32);
}

static void call_ret(emu_ctx *c, const ptx_instr *in, int rets, int lane, uint64_t v,
                     uint64_t size)
{
    if (rets < 0 || in->ops[rets].nelem == 0) return;
    const ptx_operand *d = &in->ops[rets].elems[0];
    if ((d->kind == PTX_OPD_SYM || d->kind == PTX_OPD_ADDR) && d->sym >= 0) {
        uint64_t off = c->fr->local_base + c->mod->frame_off[d->sym];
        uint8_t *p = emu_local_ptr(c, lane, off, size);
        if (p) memcpy(p, &v, size < 8 ? size : 8);
        return;
    }
    emu_write(c, d, lane, v, size >= 8 ? PTX_TYPE_B64 : PTX_TYPE_B32);
}

/* CUDA's printf takes at most 32 arguments after the format; later conversions are written
 * out as they stand. */
#define PRINTF_MAX_ARGS 32

typedef struct printf_out {
    char *buf;
    size_t len, cap;
} printf_out;

static void out_put(printf_out *o, const char *s, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        size_t nc = o->cap ? o->cap : 256;
        while (o->len + n + 1 > nc) nc *= 2;
        char *nb = realloc(o->buf, nc);
        if (!nb) return;
        o->buf = nb;
        o->cap = nc;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = 0;
}

/* snprintf into the output, however long the result. */
static void out_fmt(printf_out *o, const char *spec, ...) __attribute__((format(printf, 2, 3)));
static void out_fmt(printf_out *o, const char *spec, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, spec);
    int n = vsnprintf(small, sizeof small, spec, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        out_put(o, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) return;
    va_start(ap, spec);
    vsnprintf(big, (size_t)n + 1, spec, ap);
    va_end(ap);
    out_put(o, big, (size_t)n);
    free(big);
}

/* One conversion specification, %[flags][width][.precision][size]type. */
typedef struct printf_spec {
    char flags[8];
    int nflags;
    bool star_w, star_p;          /* `*` width; `.*` precision (which CUDA does not take) */
    char width[12], prec[12];     /* digits as written; prec[0] = '.' when there is one */
    int h, l;                     /* counts of h and l (L q j z t count as ll) */
    char conv;                    /* 0 at the end of the format */
    const char *end;              /* just past the conversion */
} printf_spec;

static void parse_spec(const char *p, printf_spec *sp)
{
    memset(sp, 0, sizeof *sp);
    while (*p && strchr("-+ #0", *p)) {
        if (sp->nflags < (int)sizeof sp->flags - 1) sp->flags[sp->nflags++] = *p;
        p++;
    }
    size_t k = 0;
    if (*p == '*') {
        sp->star_w = true;
        p++;
    } else {
        for (; *p >= '0' && *p <= '9'; p++)
            if (k < sizeof sp->width - 1) sp->width[k++] = *p;
    }
    if (*p == '.') {
        k = 0;
        sp->prec[k++] = *p++;
        if (*p == '*') {
            sp->star_p = true;
            p++;
        } else {
            for (; *p >= '0' && *p <= '9'; p++)
                if (k < sizeof sp->prec - 1) sp->prec[k++] = *p;
        }
    }
    while (*p && strchr("hlLqjzt", *p)) {
        if (*p == 'h') sp->h++;
        else if (*p == 'l') sp->l++;
        else sp->l = 2;
        p++;
    }
    sp->conv = *p;
    sp->end = *p ? p + 1 : p;
}

/* Whether CUDA's printf formats this conversion: a known type, no `.*` precision (the Programming
 * Guide lists only digits for the precision, and an H100 prints "%.*f" as it stands). */
static bool spec_taken(const printf_spec *sp)
{
    return sp->conv && strchr("diouxXcspeEfFgGaA", sp->conv) && !sp->star_p;
}

/* Where the device and the host disagree about an argument's place. The device copies the
 * argument buffer into the FIFO as far as the format's arguments reach when each has its C size
 * (hh 1 byte, h 2, an int 4, l and ll 8, a double or a pointer 8, each aligned to its size), and
 * the format string after it (at a multiple of 8); the host then reads each argument with its
 * own rule: an int of 4 bytes for hh, h and none, but for h aligned to 8. nvcc passes char and
 * short promoted to int, 4-aligned, so after an h the host may read past the arguments, into
 * the format string. An H100 prints "sizes [%hhd] [%hhu] [%hd] [%hu] [%ld] [%lld] [%lu] [%llx]"
 * of (300, 300, 70000, 70000, -1234567890123L, -9876543210987LL, ~0UL, 0xfedcba9876543210ULL)
 * as "[44] [44] [4464] [64309] [-9876543210987] [-1] [2691780882279852403] [68255b205d646868]"
 * (%hu read at offset 16, the last two being the bytes "sizes [%" and "hhd] [%h" of the format),
 * and "%lld %llu %hd %u" of (big, ubig, (short)-42, 200u) as the host does, %u read at 28 after
 * %hd at 24. The size is returned; *align gets the alignment. */
static uint64_t arg_size(const printf_spec *sp, bool host, uint64_t *align)
{
    uint64_t size = 8;   /* s p and the floating conversions */
    if (strchr("diouxX", sp->conv))
        size = sp->l ? 8 : host ? 4 : sp->h >= 2 ? 1 : sp->h == 1 ? 2 : 4;
    else if (sp->conv == 'c')
        size = 4;
    *align = host && sp->h == 1 && !sp->l && strchr("diouxX", sp->conv) ? 8 : size;
    return size;
}

/* The device's copy of the arguments, followed by the format string: what the host reads. */
typedef struct printf_record {
    uint8_t *bytes;
    uint64_t len;       /* the copied arguments, then the format from offset fmt_at */
    uint64_t args_len;
} printf_record;

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

static bool make_record(emu_ctx *c, int lane, const char *fmt, uint64_t args, printf_record *r)
{
    uint64_t off = 0;
    int nargs = 0;
    for (const char *p = fmt; (p = strchr(p, '%'));) {
        if (p[1] == '%') {
            p += 2;
            continue;
        }
        printf_spec sp;
        parse_spec(p + 1, &sp);
        p = sp.end;
        if (!sp.conv) break;
        if (!spec_taken(&sp) || nargs + sp.star_w >= PRINTF_MAX_ARGS) continue;
        if (sp.star_w) {
            off = align_up(off, 4) + 4;
            nargs++;
        }
        uint64_t align, size = arg_size(&sp, false, &align);
        off = align_up(off, align) + size;
        nargs++;
    }
    uint64_t fmt_at = align_up(off, 8), flen = strlen(fmt) + 1;
    r->args_len = off;
    r->len = fmt_at + flen;
    r->bytes = calloc(1, r->len);
    if (!r->bytes) return false;
    uint8_t *src = off ? generic_ptr(c, lane, args, off) : NULL;
    if (src) memcpy(r->bytes, src, off);
    memcpy(r->bytes + fmt_at, fmt, flen);
    return true;
}

/* The next argument as the host reads it from the record (zero past its end). */
static uint64_t next_arg(const printf_record *r, uint64_t *ap, uint64_t size, uint64_t align)
{
    *ap = align_up(*ap, align);
    uint64_t v = 0;
    for (uint64_t i = 0; i < size; i++)
        if (*ap + i < r->len) v |= (uint64_t)r->bytes[*ap + i] << (8 * i);
    *ap += size;
    return v;
}

/* Formats one device printf the way CUDA's printf does: the host's printf formats each
 * conversion (flags, widths, a `*` width, precisions, the h, hh, l, ll sizes, %d %i %u %o %x %X
 * %c %s %p %e %E %f %F %g %G %a %A %%) from the record the device wrote (make_record); %s
 * strings are read from device memory. Returns the number of arguments used (what CUDA's printf
 * returns), or -1 when the format string cannot be read; *args_bytes and *str_bytes tell what
 * the record would take in the device FIFO. */
static int device_printf(emu_ctx *c, int lane, uint64_t fmt_addr, uint64_t args, printf_out *o,
                         uint64_t *args_bytes, uint64_t *str_bytes)
{
    char fmt[4096];
    *args_bytes = *str_bytes = 0;
    if (!fmt_addr || !read_string(c, lane, fmt_addr, fmt, sizeof fmt)) return -1;
    printf_record rec;
    if (!make_record(c, lane, fmt, args, &rec)) return -1;
    uint64_t ap = 0;
    int nargs = 0;
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            size_t n = q ? (size_t)(q - p) : strlen(p);
            out_put(o, p, n);
            p += n;
            continue;
        }
        const char *start = p++;
        if (*p == '%') {
            out_put(o, "%", 1);
            p++;
            continue;
        }
        printf_spec sp;
        parse_spec(p, &sp);
        p = sp.end;
        if (!sp.conv) {
            out_put(o, start, strlen(start));
            break;
        }
        if (!spec_taken(&sp) || nargs + sp.star_w >= PRINTF_MAX_ARGS) {
            /* unknown conversions, `.*` and those past the 32nd argument are written out */
            out_put(o, start, (size_t)(p - start));
            continue;
        }
        /* the spec is rebuilt from the device's format, with the host's sizes */
        char spec[64];
        int k = snprintf(spec, sizeof spec, "%%%s%s%s", sp.flags, sp.star_w ? "*" : sp.width,
                         sp.prec);
        int wv = 0;
        if (sp.star_w) {
            wv = (int)(uint32_t)next_arg(&rec, &ap, 4, 4);
            nargs++;
        }
        nargs++;
        char conv = sp.conv;
        uint64_t align, size = arg_size(&sp, true, &align);
        uint64_t v = next_arg(&rec, &ap, size, align);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        if (strchr("diouxXc", conv)) {
            bool wide = sp.l > 0 && conv != 'c';
            snprintf(spec + k, sizeof spec - (size_t)k, "%s%c",
                     wide ? "ll" : conv == 'c' ? "" : sp.h == 1 ? "h" : sp.h >= 2 ? "hh" : "",
                     conv);
            if (wide) {
                long long x = (long long)v;
                if (sp.star_w) out_fmt(o, spec, wv, x);
                else out_fmt(o, spec, x);
            } else {
                int x = (int)(uint32_t)v;
                if (sp.star_w) out_fmt(o, spec, wv, x);
                else out_fmt(o, spec, x);
            }
        } else if (conv == 's') {
            char str[4096];
            if (!v) strcpy(str, "(null)");
            else if (!read_string(c, lane, v, str, sizeof str)) strcpy(str, "<invalid string>");
            else *str_bytes += (strlen(str) + 8) & ~(size_t)7;
            snprintf(spec + k, sizeof spec - (size_t)k, "s");
            if (sp.star_w) out_fmt(o, spec, wv, str);
            else out_fmt(o, spec, str);
        } else if (conv == 'p') {
            snprintf(spec + k, sizeof spec - (size_t)k, "p");
            void *x = (void *)(uintptr_t)v;
            if (sp.star_w) out_fmt(o, spec, wv, x);
            else out_fmt(o, spec, x);
        } else {
            double d;
            memcpy(&d, &v, 8);
            snprintf(spec + k, sizeof spec - (size_t)k, "%c", conv);
            if (sp.star_w) out_fmt(o, spec, wv, d);
            else out_fmt(o, spec, d);
        }
#pragma GCC diagnostic pop
    }
    *args_bytes = align_up(rec.args_len, 8);
    free(rec.bytes);
    return nargs;
}

bool emu_builtin_call(emu_ctx *c, const ptx_instr *in, const ptx_function *callee)
{
    int ri, ci, ai;
    emu_call_operands(in, &ri, &ci, &ai);
    const char *name = callee->name;
    if ((strcmp(name, "vprintf") == 0 || strcmp(name, "malloc") == 0 ||
         strcmp(name, "free") == 0) && !emu_policy_call(c))
        return true;
    if (strcmp(name, "vprintf") == 0) {
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            printf_out o = { NULL, 0, 0 };
            uint64_t argb, strb;
            int r = device_printf(c, l, call_arg(c, in, ai, 0, l, 8), call_arg(c, in, ai, 1, l, 8),
                                  &o, &argb, &strb);
            /* in the device FIFO: a header, the format's address, the arguments, the strings */
            if (r >= 0 && o.len) emu_output_append(o.buf, o.len, 16 + argb + strb, false);
            free(o.buf);
            call_ret(c, in, ri, l, (uint64_t)(int64_t)r, 4);
        }
        return true;
    }
    if (strcmp(name, "malloc") == 0) {
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t size = call_arg(c, in, ai, 0, l, 8);
            call_ret(c, in, ri, l, emu_heap_alloc(size), 8);
        }
        return true;
    }
    if (strcmp(name, "free") == 0) {
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t a = call_arg(c, in, ai, 0, l, 8);
            if (!emu_heap_free(a)) {
                emu_fault_raise(c, EMU_FAULT_ILLEGAL_ADDRESS, l, true, a,
                                "Malloc/Free error: invalid free",
                                "the address was not returned by a device malloc, or is already "
                                "freed");
                return true;
            }
        }
        return true;
    }
    if (strcmp(name, "__assertfail") == 0) {
        /* every thread that fails the assertion reports it, then the kernel stops */
        int first = __builtin_ctz(c->mask);
        char msg[512], file[512], func[512];
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            if (!read_string(c, l, call_arg(c, in, ai, 0, l, 8), msg, sizeof msg)) strcpy(msg, "?");
            if (!read_string(c, l, call_arg(c, in, ai, 1, l, 8), file, sizeof file))
                strcpy(file, "?");
            uint32_t line = (uint32_t)call_arg(c, in, ai, 2, l, 4);
            if (!read_string(c, l, call_arg(c, in, ai, 3, l, 8), func, sizeof func))
                strcpy(func, "?");
            emu_dim3 b = c->cta->ctaid, t = c->w->tid[l];
            char text[2048];
            int n = snprintf(text, sizeof text,
                             "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` "
                             "failed.\n",
                             file, line, func, b.x, b.y, b.z, t.x, t.y, t.z, msg);
            if (n > 0) emu_output_append(text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1,
                                         0, true);
        }
        if (!read_string(c, first, call_arg(c, in, ai, 0, first, 8), msg, sizeof msg))
            strcpy(msg, "?");
        if (!read_string(c, first, call_arg(c, in, ai, 1, first, 8), file, sizeof file))
            strcpy(file, "?");
        if (!read_string(c, first, call_arg(c, in, ai, 3, first, 8), func, sizeof func))
            strcpy(func, "?");
        emu_fault_raise(c, EMU_FAULT_ASSERT, first, false, 0, "Assertion failed",
                        "%s:%u: %s: Assertion `%s` failed", file,
                        (uint32_t)call_arg(c, in, ai, 2, first, 4), func, msg);
        return true;
    }
    return false;
}
