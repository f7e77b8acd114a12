/* cli.h: the `ptxsim` command's subcommands. The command-line driver sits above every layer
 * (it is not a library layer); each subcommand lives in its own file. */
#ifndef PTXSIM_CLI_CLI_H
#define PTXSIM_CLI_CLI_H

/* Each takes the arguments after the subcommand name (argv[0] is the subcommand) and returns
 * the process exit status. */
int cli_run(int argc, char **argv);      /* cli/run.c:     ptxsim run [options] -- ./app args */
int cli_extract(int argc, char **argv);  /* cli/extract.c: ptxsim extract ./app [--list|...] */
int cli_ptx(int argc, char **argv);      /* cli/ptx.c:     ptxsim ptx FILE.ptx [--dump] */
int cli_sweep(int argc, char **argv);    /* cli/sweep.c:   ptxsim sweep --out=DIR ... -- ./app */
int cli_plot(int argc, char **argv);     /* cli/plot.c:    ptxsim plot DIR --x=AXIS --y=STAT */
int cli_trace(int argc, char **argv);    /* cli/trace.c:   ptxsim trace FILE [filters] */

#endif
