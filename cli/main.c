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
            "  run [OPTIONS] [--] ./app [ARGS]  run a CUDA program under ptxsim: built as nvcc builds\n"
            "                                  it (static runtime, or -cudart shared), using the\n"
            "                                  runtime API, the driver API (-lcuda) or NVRTC; the\n"
            "                                  program must carry PTX (nvcc -arch=sm_XX embeds it)\n"
            "                                  and, when its runtime is static, its symbol table\n"
            "  extract ./app [--list|...]      list or dump the PTX kernels inside a CUDA binary\n"
            "  ptx FILE.ptx [--dump|--load]    parse, check and dump a PTX file; --load also loads\n"
            "                                  it and lists instructions ptxsim cannot execute\n"
            "  sweep --out=DIR [OPTIONS] -- ./app [ARGS]\n"
            "                                  run the cross product of programs and option\n"
            "                                  values (--seed=1..8 --det=off,gpudet), here or\n"
            "                                  as a Slurm job array, into one results table\n"
            "                                  (see ptxsim sweep --help)\n"
            "  plot DIR --x=AXIS --y=STAT [--group=AXIS]\n"
            "                                  a PNG chart of a sweep's results (ptxsim plot\n"
            "                                  --help)\n"
            "  trace FILE [filters]            print a trace written by run --trace=FILE\n"
            "  --help                          this text\n"
            "  --version                       ptxsim's version\n"
            "\n"
            "`ptxsim run` preloads build/lib/libcudart.so.13 (.12 or .11.0 for CUDA 12 and 11\n"
            "programs), libcuda.so.1 (the driver API) and libptxsim-nvrtc.so (NVRTC programs that\n"
            "compile for a real architecture), and puts their folder first on LD_LIBRARY_PATH.\n"
            "Kernel launches, copies and host functions queue on their stream and run on a device\n"
            "thread while the program goes on, in the order they were issued.\n"
            "\n"
            "options of `run` (each is also an environment variable, so that\n"
            "`LD_PRELOAD=.../libcudart.so.13:.../libcuda.so.1 ./app` works without the command):\n",
            RT_PTXSIM_VERSION);
    for (size_t i = 0; i < rt_option_count; i++) {
        const rt_option *o = &rt_options[i];
        char spelling[96];
        const char *value = (o->kind == RT_OPT_CHOICE || o->kind == RT_OPT_LIST) ? o->choices
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
            "  ptxsim sweep --out=results --det=off,gpudet --seed=1..8 -- ./app\n"
            "  ptxsim plot results --x=seed --y=warp_instructions --group=det\n"
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
    if (strcmp(cmd, "sweep") == 0)
        return cli_sweep(argc - 1, argv + 1);
    if (strcmp(cmd, "plot") == 0)
        return cli_plot(argc - 1, argv + 1);
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
