/* In-process PTX parse throughput: parses each file given on the command line `repeat` times
 * (parse, checks, CFG and IPDOM) and prints MB/s of CPU time, so process start-up and file
 * reading are not counted. Built and run by bench/parse_speed.sh. */
#include "frontend/ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    if (buf) { buf[n] = 0; *len = (size_t)n; }
    return buf;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: parse_speed REPEAT FILE.ptx...\n");
        return 2;
    }
    int repeat = atoi(argv[1]);
    double bytes = 0, seconds = 0;
    for (int i = 2; i < argc; i++) {
        size_t len = 0;
        char *text = read_file(argv[i], &len);
        if (!text) { fprintf(stderr, "cannot read %s\n", argv[i]); return 1; }
        for (int r = 0; r < repeat; r++) {
            ptx_diag diag = {0};
            double t0 = cpu_seconds();
            ptx_module *m = ptx_parse(text, len, argv[i], &diag);
            ptx_module_free(m);
            seconds += cpu_seconds() - t0;
            if (!m) { fprintf(stderr, "%s", diag.text ? diag.text : "parse failed\n"); return 1; }
            ptx_diag_free(&diag);
            bytes += (double)len;
        }
        free(text);
    }
    printf("parse speed: %.1f MB/s of CPU time (%d files, %.2f MB parsed in %.3f s)\n",
           bytes / 1e6 / seconds, argc - 2, bytes / 1e6, seconds);
    printf("ratio to the 30 MB/s target: %.2fx\n", bytes / 1e6 / seconds / 30);
    return 0;
}
