#!/usr/bin/env python3
"""cpu_seconds.py OUT CMD...: runs CMD (its stdout and stderr as given) and writes to OUT the
user and system CPU seconds it and its children took, "USER SYS" with microseconds.

/usr/bin/time prints them in hundredths: a run of 0.03-0.04 s (ptxsim with timing off on the
speed anchors) then moves by a quarter with one step, and a ratio against it by as much.
getrusage counts them finer. Exits with CMD's status (128 + N when signal N ended it)."""
import resource
import subprocess
import sys

if len(sys.argv) < 3:
    sys.exit("usage: cpu_seconds.py OUT CMD...")
before = resource.getrusage(resource.RUSAGE_CHILDREN)
rc = subprocess.call(sys.argv[2:])
after = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as out:
    out.write("%.6f %.6f\n" % (after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime))
sys.exit(128 - rc if rc < 0 else rc)
