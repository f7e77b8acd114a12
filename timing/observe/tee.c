/* tee.c: one event sink feeding two (--stats metrics and --trace at once, say). */
#include "timing/timing.h"

static void consume(emu_event_sink *self, emu_warp *w, const emu_event *ev, uint32_t n)
{
    timing_tee *t = self->state;
    if (t->a) t->a->consume(t->a, w, ev, n);
    if (t->b) t->b->consume(t->b, w, ev, n);
}

emu_event_sink *timing_tee_sink(timing_tee *t, emu_event_sink *a, emu_event_sink *b)
{
    if (!a || !b) return a ? a : b;
    t->a = a;
    t->b = b;
    t->sink.consume = consume;
    t->sink.state = t;
    return &t->sink;
}
