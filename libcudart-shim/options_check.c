/* options_check.c: refusing a bad PTXSIM_* variable before the program starts.
 *
 * A program run with PTXSIM_DET=dab (not built yet) or PTXSIM_THREADS=many must not run at all:
 * going on with the default would hand a user who asked for determinism a nondeterministic run.
 * The check runs in a constructor of the preloaded shim, before the program's own constructors
 * and main, and ends the process with one line on stderr and exit status 2, as `ptxsim run`
 * does for the same mistake on its command line. So is an output file that cannot be written
 * (or a --replay file that cannot be read): found at exit, it would leave the program's status
 * saying all went well.
 */
#include "libcudart-shim/shim.h"

#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor(101))) static void options_check(void)
{
    char err[384];
    if (rt_config_check_environment(err, sizeof err) && rt_config_check_files(err, sizeof err))
        return;
    fprintf(stderr, "ptxsim: %s\n", err);
    exit(2);
}
