/* inject_spec.c: reads --fault-inject's value (timing_igpu_parse_inject). Apart from the
 * policy that acts on it: checking the option (runtime/config.c) needs nothing of the
 * emulator. */
#include "timing/timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool timing_igpu_parse_inject(const char *spec, timing_igpu_inject *out, char *err,
                              size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!spec || !spec[0] || strcmp(spec, "off") == 0) return true;
    char buf[256];
    if (strlen(spec) >= sizeof buf) goto bad;
    strcpy(buf, spec);
    bool have_seed = false;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) goto bad;
        *eq = 0;
        const char *v = eq + 1;
        char *end;
        if ((strcmp(tok, "rate") == 0 || strcmp(tok, "instr-rate") == 0) &&
            out->mode == TIMING_IGPU_INJECT_OFF) {
            out->rate = strtod(v, &end);
            if (end == v || *end || !(out->rate > 0) || out->rate > 0.5) goto bad;
            out->mode = tok[0] == 'r' ? TIMING_IGPU_INJECT_RATE : TIMING_IGPU_INJECT_INSTR_RATE;
        } else if (strcmp(tok, "kind") == 0 && !out->as_page) {
            if (strcmp(v, "page") == 0) out->as_page = true;
            else if (strcmp(v, "error") != 0) goto bad;
        } else if (strcmp(tok, "seed") == 0 && !have_seed) {
            out->seed = strtoull(v, &end, 10);
            if (end == v || *end || v[0] == '-') goto bad;
            have_seed = true;
        } else if (strcmp(tok, "list") == 0 && out->mode == TIMING_IGPU_INJECT_OFF) {
            for (const char *p = v;;) {
                if (out->nlist == TIMING_IGPU_LIST_MAX || *p < '0' || *p > '9') goto bad;
                out->list[out->nlist++] = strtoull(p, &end, 10);
                if (!*end) break;
                if (*end != ':') goto bad;
                p = end + 1;
            }
            out->mode = TIMING_IGPU_INJECT_LIST;
        } else {
            goto bad;
        }
    }
    if (out->mode == TIMING_IGPU_INJECT_OFF ||
        (have_seed && out->mode == TIMING_IGPU_INJECT_LIST))
        goto bad;
    return true;
bad:
    snprintf(err, errlen, "not a valid fault injection (accepted: off, rate=P[,seed=N] with "
             "0 < P <= 0.5 per global memory operation of a warp, instr-rate=P[,seed=N] per "
             "warp instruction (detected at the warp's next global memory operation), "
             "list=N[:N...] (the Nth global memory operations of every warp, from 0, at most "
             "%d); each with kind=page to cost a page fault's latency under --timing)",
             TIMING_IGPU_LIST_MAX);
    memset(out, 0, sizeof *out);
    return false;
}
