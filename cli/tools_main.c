/* tools_main.c: `ptxsim-tools`, the subcommands that read PTX, fatbins, traces and sweeps
 * (extract, ptx, sweep, plot, trace). `ptxsim` (main.c) hands them here: they need the
 * frontend and the emulator, and with them LLVM, which `ptxsim run` does not. */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *cmd = argc >= 2 ? argv[1] : "";
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
    if (!cmd[0])
        fputs("usage: ptxsim-tools extract|ptx|sweep|plot|trace [ARGS] (what `ptxsim` runs for "
              "these commands; see ptxsim --help)\n", stderr);
    else
        fprintf(stderr, "ptxsim-tools: '%s' is not one of its commands (extract, ptx, sweep, "
                "plot, trace); use `ptxsim %s` (see ptxsim --help)\n", cmd, cmd);
    return 2;
}
