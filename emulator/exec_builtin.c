/* exec_builtin.c: the device-runtime functions nvcc declares `.extern .func` and calls like any
 * function: vprintf (printf), malloc, free and __assertfail (assert). */
#include "emulator/emu_internal.h"

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

/* Formats CUDA's printf: arguments sit in a buffer, each aligned to its own size. */
static int device_printf(emu_ctx *c, int lane, uint64_t fmt_addr, uint64_t args, char *out,
                         size_t outlen)
{
    char fmt[1024];
    if (!read_string(c, lane, fmt_addr, fmt, sizeof fmt)) return -1;
    size_t n = 0;
    uint64_t ap = args;
    for (const char *p = fmt; *p && n + 1 < outlen;) {
        if (*p != '%') {
            out[n++] = *p++;
            continue;
        }
        const char *start = p++;
        if (*p == '%') {
            out[n++] = '%';
            p++;
            continue;
        }
        while (*p && strchr("-+ #0", *p)) p++;
        while (*p >= '0' && *p <= '9') p++;
        if (*p == '.') {
            p++;
            while (*p >= '0' && *p <= '9') p++;
        }
        int lng = 0;
        while (*p && strchr("hlLqjzt", *p)) {
            if (*p == 'l' || *p == 'L' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 't')
                lng = 1;
            p++;
        }
        char conv = *p ? *p++ : 0;
        char spec[64];
        size_t sl = (size_t)(p - start);
        if (sl >= sizeof spec - 4) sl = sizeof spec - 4;
        /* rebuild the spec without length modifiers, then add our own */
        size_t k = 0;
        for (size_t i = 0; i < sl - 1; i++)
            if (!strchr("hlLqjzt", start[i])) spec[k++] = start[i];
        int w = -1;
        uint64_t size = 4;
        if (strchr("diouxXc", conv)) {
            size = lng ? 8 : 4;
        } else if (strchr("fFeEgGaA", conv) || conv == 's' || conv == 'p') {
            size = 8;
        } else {
            spec[k++] = conv;
            spec[k] = 0;
            w = snprintf(out + n, outlen - n, "%s", spec);
            if (w > 0) n += (size_t)w < outlen - n ? (size_t)w : outlen - n - 1;
            continue;
        }
        ap = (ap + size - 1) & ~(size - 1);
        uint8_t *src = generic_ptr(c, lane, ap, size);
        uint64_t v = 0;
        if (src) memcpy(&v, src, size);
        ap += size;
        if (strchr("diouxXc", conv)) {
            if (lng) {
                spec[k++] = 'l';
                spec[k++] = 'l';
            }
            spec[k++] = conv;
            spec[k] = 0;
            if (lng) w = snprintf(out + n, outlen - n, spec, (long long)v);
            else w = snprintf(out + n, outlen - n, spec, (int)(uint32_t)v);
        } else if (conv == 's') {
            char str[512];
            spec[k++] = 's';
            spec[k] = 0;
            if (!v) strcpy(str, "(null)");
            else if (!read_string(c, lane, v, str, sizeof str)) strcpy(str, "<bad string>");
            w = snprintf(out + n, outlen - n, spec, str);
        } else if (conv == 'p') {
            spec[k++] = 'p';
            spec[k] = 0;
            w = snprintf(out + n, outlen - n, spec, (void *)(uintptr_t)v);
        } else {
            double d;
            memcpy(&d, &v, 8);
            spec[k++] = conv;
            spec[k] = 0;
            w = snprintf(out + n, outlen - n, spec, d);
        }
        if (w > 0) n += (size_t)w < outlen - n ? (size_t)w : outlen - n - 1;
    }
    out[n] = 0;
    return (int)n;
}

bool emu_builtin_call(emu_ctx *c, const ptx_instr *in, const ptx_function *callee)
{
    int ri, ci, ai;
    emu_call_operands(in, &ri, &ci, &ai);
    const char *name = callee->name;
    if (strcmp(name, "vprintf") == 0) {
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            char out[4096];
            int r = device_printf(c, l, call_arg(c, in, ai, 0, l, 8), call_arg(c, in, ai, 1, l, 8),
                                  out, sizeof out);
            if (r >= 0) {
                flockfile(stdout);
                fputs(out, stdout);
                funlockfile(stdout);
            }
            call_ret(c, in, ri, l, (uint64_t)(int64_t)r, 4);
        }
        fflush(stdout);
        return true;
    }
    if (strcmp(name, "malloc") == 0) {
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t size = call_arg(c, in, ai, 0, l, 8);
            uint64_t a = size ? emu_device_alloc(size, EMU_ALLOC_DEVICE) : 0;
            call_ret(c, in, ri, l, a, 8);
        }
        return true;
    }
    if (strcmp(name, "free") == 0) {
        for (uint32_t mk = c->mask; mk; mk &= mk - 1) {
            int l = __builtin_ctz(mk);
            uint64_t a = call_arg(c, in, ai, 0, l, 8);
            if (a) emu_device_free(a);
        }
        return true;
    }
    if (strcmp(name, "__assertfail") == 0) {
        int l = __builtin_ctz(c->mask);
        char msg[256], file[256], func[256];
        if (!read_string(c, l, call_arg(c, in, ai, 0, l, 8), msg, sizeof msg)) strcpy(msg, "?");
        if (!read_string(c, l, call_arg(c, in, ai, 1, l, 8), file, sizeof file)) strcpy(file, "?");
        uint32_t line = (uint32_t)call_arg(c, in, ai, 2, l, 4);
        if (!read_string(c, l, call_arg(c, in, ai, 3, l, 8), func, sizeof func)) strcpy(func, "?");
        emu_dim3 b = c->cta->ctaid, t = c->w->tid[l];
        fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
                file, line, func, b.x, b.y, b.z, t.x, t.y, t.z, msg);
        emu_fault_raise(c, EMU_FAULT_ASSERT, l, false, 0, "Assertion failed",
                        "%s:%u: %s: Assertion `%s` failed", file, line, func, msg);
        return true;
    }
    return false;
}
