#!/usr/bin/env python3
"""compare_published.py: a configuration's simulated microbenchmarks beside published figures.

    compare_published.py --ptxsim PTXSIM --chase EXE --copy EXE [--markdown] GPU

Reads bench/micro/published/GPU.txt (format: bench/micro/published/README.md) and the
configuration timing/configs/GPU.gpu, runs bench/micro/pointer_chase.cu (EXE given by --chase)
and bench/micro/dram_copy.cu (--copy) under `ptxsim run --timing --gpu=GPU` as far as the file
has figures they give, and prints one line per figure: published, ptxsim, ratio (ptxsim /
published) and the verdict. --markdown prints the README's table rows instead.
Exit status 0 when every `check` figure is within 15% and every `bound` holds, 1 otherwise.
Run from the repository root.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

TOLERANCE = 0.15
LEVEL = {"chase_shared": "shared", "chase_L1": "L1", "chase_L2": "L2", "chase_DRAM": "DRAM"}
LABEL = {"chase_shared": "shared", "chase_L1": "L1 hit", "chase_L2": "L2 hit",
         "chase_DRAM": "DRAM", "copy": "DRAM copy", "peak": "DRAM peak (vendor)"}


def read_figures(path):
    figures = []
    for n, line in enumerate(open(path), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        f = line.split(None, 4)
        if len(f) < 5 or f[0] not in ("check", "bound", "info") or f[1] not in LABEL:
            sys.exit("%s:%d: not KIND WHAT VALUE UNIT SOURCE: %s" % (path, n, line))
        unit = {"chase_DRAM": "ns", "copy": "GB/s", "peak": "GB/s"}.get(f[1], "cycles")
        if f[3] != unit:
            sys.exit("%s:%d: %s is given in %s, not %s" % (path, n, f[1], unit, f[3]))
        figures.append({"kind": f[0], "what": f[1], "value": float(f[2]), "unit": f[3],
                        "source": f[4]})
    return figures


def read_config(path):
    cfg = {}
    for line in open(path):
        m = re.match(r"^(\w+)\s*=\s*([0-9]+)", line)
        if m:
            cfg[m.group(1)] = int(m.group(2))
    return cfg


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          universal_newlines=True).stdout


def chase(args):
    out = run([args.ptxsim, "run", "--timing", "--gpu=" + args.gpu, "--", args.chase])
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"^chase (\S+) ([0-9]+)$", out, re.M)}


def copy_bytes_per_cycle(args, cfg):
    """DRAM bytes moved per cycle of the copy kernel (the launch latency left out)."""
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "copy.json")
        out = run([args.ptxsim, "run", "--timing", "--gpu=" + args.gpu, "--stats=" + stats,
                   "--", args.copy])
        if not out.startswith("copied") or not os.path.exists(stats):
            return None
        t = json.load(open(stats))["total"]
    cycles = t["cycles"] - cfg["kernel_launch_latency"]
    return (t["timing"]["dram_reads"] + t["timing"]["dram_writes"]) * 32 / cycles


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("gpu")
    p.add_argument("--ptxsim", required=True)
    p.add_argument("--chase", required=True)
    p.add_argument("--copy", required=True)
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args()
    figures = read_figures("bench/micro/published/%s.txt" % args.gpu)
    cfg = read_config("timing/configs/%s.gpu" % args.gpu)
    mhz = cfg["model_clock_khz"] / 1000.0
    chased = chase(args) if any(f["what"] in LEVEL for f in figures) else {}
    need_copy = any(f["what"] in ("copy", "peak") for f in figures)
    per_cycle = copy_bytes_per_cycle(args, cfg) if need_copy else None
    ok = True
    for f in figures:
        if f["what"] in LEVEL:
            cycles = chased.get(LEVEL[f["what"]])
            if cycles is None:
                ours, shown = None, "no figure"
            elif f["unit"] == "ns":
                ours = cycles * 1000.0 / mhz
                shown = "%d cycles at %.0f MHz = %.0f ns" % (cycles, mhz, ours)
            else:
                ours, shown = float(cycles), "%d cycles" % cycles
        elif per_cycle is None:
            ours, shown = None, "no figure"
        else:
            ours = per_cycle * mhz / 1000.0
            shown = "%.0f B/cycle at %.0f MHz = %.0f GB/s" % (per_cycle, mhz, ours)
        ratio = ours / f["value"] if ours is not None else None
        if ratio is None:
            verdict = "missing"
        elif f["kind"] == "check":
            verdict = "ok" if abs(ratio - 1) <= TOLERANCE else "OUTSIDE 15%"
        elif f["kind"] == "bound":
            verdict = "ok" if ratio <= 1 else "ABOVE"
        else:
            verdict = "not checked"
        if verdict not in ("ok", "not checked"):
            ok = False
        value = ("%g %s" % (f["value"], f["unit"])).replace(" cycles", "")
        if args.markdown:
            print("| %s | %s | %s | %s | %s | %s |" % (
                args.gpu, LABEL[f["what"]], value, f["source"], shown.replace(" cycles", ""),
                "-" if ratio is None else "%.2f%s" % (
                    ratio, {"bound": " of the peak", "info": " (not checked)"}.get(f["kind"], ""))))
        else:
            print("%s %s: published %s (%s), ptxsim %s, ratio %s: %s" % (
                args.gpu, f["what"], value, f["source"], shown,
                "-" if ratio is None else "%.2f" % ratio, verdict))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
