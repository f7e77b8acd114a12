/* main.c: the `ptxsim` command: dispatches to its subcommands and prints the help, which lists
 * every runtime option with its environment variable and default (from the runtime's table). */
#include "cli/cli.h"
#include "runtime/rt.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "ptxsim %s: run CUDA programs without a GPU\n"
            "\n"
            "usage: ptxsim COMMAND [ARGS]\n"
            "\n"
            "commands:\n"
            "  run [OPTIONS] [--] ./app [ARGS]  run a CUDA program under ptxsim (the program must\n"
            "                                  be built with `nvcc -cudart shared`)\n"
            "  extract ./app [--list|...]      list or dump the PTX kernels inside a CUDA binary\n"
            "  ptx FILE.ptx [--dump]           parse, check and dump a PTX file\n"
            "  trace FILE [filters]            print a trace written by run --trace=FILE\n"
            "  --help                          this text\n"
            "  --version                       ptxsim's version\n"
            "\n"
            "options of `run` (each is also an environment variable, so that\n"
            "`LD_PRELOAD=.../libcudart.so.13 ./app` works without the command):\n",
            RT_PTXSIM_VERSION);
    for (size_t i = 0; i < rt_option_count; i++) {
        const rt_option *o = &rt_options[i];
        char spelling[96];
        const char *value = o->kind == RT_OPT_CHOICE ? o->choices
                            : o->kind == RT_OPT_UINT ? "N"
                            : o->kind == RT_OPT_BOOL ? "on|off"
                                                      : "VALUE";
        if (o->flag_value)
            snprintf(spelling, sizeof spelling, "--%s[=%s]", o->name, value);
        else
            snprintf(spelling, sizeof spelling, "--%s=%s", o->name, value);
        char works[96] = "";
        if (o->implemented)  /* say which values work today, so that nobody is surprised */
            snprintf(works, sizeof works, " (implemented so far: %s)", o->implemented);
        fprintf(out, "  %-40s %s, default %s\n        %s%s\n", spelling, o->env, o->def, o->help,
                works);
    }
    fprintf(out,
            "\n"
            "examples:\n"
            "  ptxsim run -- ./vector_add\n"
            "  ptxsim run --threads=4 --seed=7 -- ./app input.dat\n"
            "  PTXSIM_VERBOSE=1 LD_PRELOAD=build/lib/libcudart.so.13 ./app\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0)
        return cli_run(argc - 1, argv + 1);
    if (strcmp(cmd, "extract") == 0)
        return cli_extract(argc - 1, argv + 1);
    if (strcmp(cmd, "ptx") == 0)
        return cli_ptx(argc - 1, argv + 1);
    if (strcmp(cmd, "trace") == 0)
        return cli_trace(argc - 1, argv + 1);
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("ptxsim %s (CUDA runtime %d.%d ABI)\n", RT_PTXSIM_VERSION, CUDART_VERSION / 1000,
               CUDART_VERSION % 1000 / 10);
        return 0;
    }
    fprintf(stderr, "ptxsim: unknown command '%s' (see ptxsim --help)\n", cmd);
    return 2;
}
