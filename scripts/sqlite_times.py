#!/usr/bin/env python3
"""Run time of the SQLite workload (test/sqlite) per library, against native.

    scripts/sqlite_times.py [--build DIR] [--reps 5] [-- workload options]

Runs build/bin/sqlite_native and every sqlite_workload.<lib>.<form>
built there (configure with -DPTM_SQLITE_SRC=DIR; -DPTM_SQLITE_LTO=ON adds
the LTO forms) in turn, REPS times each (interleaved: native, then every
library, REPS rounds, so that the machine's drift touches all alike), with
the environment of the ctest entries (PTM_POOL_SLOTS=4,
PTM_POOL_SLOT_SIZE=64M, PTM_POOL_SIZE=2G). Prints a markdown table: library,
form, median seconds (min-max), median / native, and whether every run
printed what native printed.
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import time

ENV = {"PTM_POOL_SLOTS": "4", "PTM_POOL_SLOT_SIZE": "64M", "PTM_POOL_SIZE": "2G"}


def run(path, args):
    env = dict(os.environ, **ENV)
    start = time.perf_counter()
    proc = subprocess.run([str(path), *args], capture_output=True, text=True,
                          env=env, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{path.name} exited with {proc.returncode}: "
                 f"{proc.stderr.strip()[:400]}")
    return elapsed, proc.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", type=pathlib.Path)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("args", nargs="*", help="workload options (after --)")
    opts = ap.parse_args()
    here = opts.build / "bin"
    native = here / "sqlite_native"
    if not native.exists():
        sys.exit(f"{native} not found: configure with -DPTM_SQLITE_SRC=DIR "
                 "(scripts/fetch-sqlite.sh) and build")
    progs = sorted(p for p in here.glob("sqlite_workload.*")
                   if p.is_file() and os.access(p, os.X_OK))
    times = {p: [] for p in [native, *progs]}
    same = {p: True for p in progs}
    for _ in range(opts.reps):
        _, want = run(native, opts.args)
        for p in times:
            t, out = run(p, opts.args)
            times[p].append(t)
            if p is not native and out != want:
                same[p] = False
    base = statistics.median(times[native])
    print("| library | form | median s (min-max) | / native | results |")
    print("|---|---|---:|---:|---|")
    print(f"| native | | {base:.3f} ({min(times[native]):.3f}-"
          f"{max(times[native]):.3f}) | 1.00 | |")
    for p in progs:
        lib, form = p.name.split(".")[1:3]
        med = statistics.median(times[p])
        print(f"| {lib} | {form} | {med:.3f} ({min(times[p]):.3f}-"
              f"{max(times[p]):.3f}) | {med / base:.2f} | "
              f"{'same as native' if same[p] else 'DIFFERENT'} |")


if __name__ == "__main__":
    main()
