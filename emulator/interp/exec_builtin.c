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

/* The next argument of `size` bytes from CUDA's argument buffer, where each argument sits at an
 * offset aligned to its own size. */
static uint64_t next_arg(emu_ctx *c, int lane, uint64_t *ap, uint64_t size)
{
    *ap = (*ap + size - 1) & ~(size - 1);
    uint8_t *src = generic_ptr(c, lane, *ap, size);
    uint64_t v = 0;
    if (src) memcpy(&v, src, size);
    *ap += size;
    return v;
}

/* Formats one device printf the way the host's printf formats it (CUDA formats on the host):
 * flags, widths and precisions (also `*`), the h, hh, l, ll (and j z t L) size modifiers,
 * %d %i %u %o %x %X %c %s %p %e %E %f %F %g %G %a %A %%; %s strings are read from device
 * memory. Returns the number of arguments used (what CUDA's printf returns), or -1 when the
 * format string cannot be read; *args_bytes and *str_bytes tell what the record would take in
 * the device FIFO. */
static int device_printf(emu_ctx *c, int lane, uint64_t fmt_addr, uint64_t args, printf_out *o,
                         uint64_t *args_bytes, uint64_t *str_bytes)
{
    char fmt[4096];
    *args_bytes = *str_bytes = 0;
    if (!fmt_addr || !read_string(c, lane, fmt_addr, fmt, sizeof fmt)) return -1;
    uint64_t ap = args;
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
        /* %[flags][width][.precision][size]type, rebuilt without the size modifier */
        char spec[64];
        size_t k = 0;
        spec[k++] = '%';
        while (*p && strchr("-+ #0", *p)) {
            if (k < 16) spec[k++] = *p;
            p++;
        }
        int star_w = 0, star_p = 0, wv = 0, pv = 0;
        if (*p == '*') {
            star_w = 1;
            spec[k++] = '*';
            p++;
        } else {
            while (*p >= '0' && *p <= '9') {
                if (k < 32) spec[k++] = *p;
                p++;
            }
        }
        if (*p == '.') {
            spec[k++] = *p++;
            if (*p == '*') {
                star_p = 1;
                spec[k++] = '*';
                p++;
            } else {
                while (*p >= '0' && *p <= '9') {
                    if (k < 48) spec[k++] = *p;
                    p++;
                }
            }
        }
        int h = 0, l = 0;
        while (*p && strchr("hlLqjzt", *p)) {
            if (*p == 'h') h++;
            else if (*p == 'l') l++;
            else l = 2;   /* L q j z t: 64-bit */
            p++;
        }
        char conv = *p;
        if (!conv) {
            out_put(o, start, strlen(start));
            break;
        }
        p++;
        bool known = strchr("diouxXcspeEfFgGaA", conv) != NULL;
        if (!known || nargs + star_w + star_p >= PRINTF_MAX_ARGS + (known ? 0 : 1)) {
            /* unknown conversions and those past the 32nd argument are written out as is */
            out_put(o, start, (size_t)(p - start));
            continue;
        }
        if (star_w) {
            wv = (int)(uint32_t)next_arg(c, lane, &ap, 4);
            nargs++;
        }
        if (star_p) {
            pv = (int)(uint32_t)next_arg(c, lane, &ap, 4);
            nargs++;
        }
        nargs++;
        if (strchr("diouxXc", conv)) {
            bool wide = l > 0 && conv != 'c';
            uint64_t v = next_arg(c, lane, &ap, wide ? 8 : 4);
            if (wide) {
                spec[k++] = 'l';
                spec[k++] = 'l';
            } else if (h == 1 && conv != 'c') {
                spec[k++] = 'h';
            } else if (h >= 2 && conv != 'c') {
                spec[k++] = 'h';
                spec[k++] = 'h';
            }
            spec[k++] = conv;
            spec[k] = 0;
            /* the spec is rebuilt from the device's format: the host's printf reads it */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
            if (wide) {
                long long x = (long long)v;
                if (star_w && star_p) out_fmt(o, spec, wv, pv, x);
                else if (star_w) out_fmt(o, spec, wv, x);
                else if (star_p) out_fmt(o, spec, pv, x);
                else out_fmt(o, spec, x);
            } else {
                int x = (int)(uint32_t)v;
                if (star_w && star_p) out_fmt(o, spec, wv, pv, x);
                else if (star_w) out_fmt(o, spec, wv, x);
                else if (star_p) out_fmt(o, spec, pv, x);
                else out_fmt(o, spec, x);
            }
        } else if (conv == 's') {
            uint64_t v = next_arg(c, lane, &ap, 8);
            char str[4096];
            if (!v) strcpy(str, "(null)");
            else if (!read_string(c, lane, v, str, sizeof str)) strcpy(str, "<invalid string>");
            else *str_bytes += (strlen(str) + 8) & ~(size_t)7;
            spec[k++] = 's';
            spec[k] = 0;
            if (star_w && star_p) out_fmt(o, spec, wv, pv, str);
            else if (star_w) out_fmt(o, spec, wv, str);
            else if (star_p) out_fmt(o, spec, pv, str);
            else out_fmt(o, spec, str);
        } else if (conv == 'p') {
            uint64_t v = next_arg(c, lane, &ap, 8);
            spec[k++] = 'p';
            spec[k] = 0;
            void *x = (void *)(uintptr_t)v;
            if (star_w) out_fmt(o, spec, wv, x);
            else out_fmt(o, spec, x);
        } else {
            double d;
            uint64_t v = next_arg(c, lane, &ap, 8);
            memcpy(&d, &v, 8);
            spec[k++] = conv;
            spec[k] = 0;
            if (star_w && star_p) out_fmt(o, spec, wv, pv, d);
            else if (star_w) out_fmt(o, spec, wv, d);
            else if (star_p) out_fmt(o, spec, pv, d);
            else out_fmt(o, spec, d);
#pragma GCC diagnostic pop
        }
    }
    *args_bytes = ap > args ? ((ap - args + 7) & ~UINT64_C(7)) : 0;
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
