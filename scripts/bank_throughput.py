#!/usr/bin/env python3
"""Bank-transfer throughput and flush/fence counts of every ptm library.

Builds examples/bank.c against each library (LTO form, as a user would with
ptm-config), runs it with each thread count several times, and prints a
Markdown table of medians: transactions per second, aborts per commit, clwb
and sfence per transaction. The machine is noisy: quote medians, compare
libraries measured in one run.

    scripts/bank_throughput.py [--libs cgl,p_cgl_lazy] [--threads 1,2]
                               [--reps 3] [--ops 200000]
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def ptm_config(build, *args):
    out = subprocess.run([str(build / "bin" / "ptm-config"), *args],
                         check=True, capture_output=True, text=True)
    return out.stdout.split()


def build_bank(build, lib):
    exe = build / "examples" / f"bank.{lib}"
    exe.parent.mkdir(parents=True, exist_ok=True)
    cmd = (["clang-19"] + ptm_config(build, "--cflags") +
           ["-O2", "-flto", "-pthread", str(ROOT / "examples" / "bank.c")] +
           ptm_config(build, "--ldflags", lib) + ["-o", str(exe)])
    subprocess.run(cmd, check=True, capture_output=True)
    return exe


def run_once(exe, threads, ops):
    out = subprocess.run([str(exe), "-t", str(threads), "-n", str(ops)],
                         check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("RESULT "):
            fields = dict(kv.split("=", 1) for kv in line.split()[1:])
            return fields
    raise RuntimeError(f"{exe}: no RESULT line")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.environ.get("BUILD_DIR",
                                                          ROOT / "build"))
    parser.add_argument("--libs", help="comma-separated (default: all)")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--ops", type=int, default=200000,
                        help="transfers per thread")
    args = parser.parse_args()
    build = pathlib.Path(args.build)
    libs = (args.libs.split(",") if args.libs else
            ptm_config(build, "--list"))
    threads = [int(t) for t in args.threads.split(",")]

    print("| library | threads | tx/s (median) | aborts/commit | clwb/tx | "
          "sfence/tx |")
    print("|---|---|---|---|---|---|")
    for lib in libs:
        exe = build_bank(build, lib)
        for t in threads:
            runs = [run_once(exe, t, args.ops) for _ in range(args.reps)]
            rate = statistics.median(float(r["ops_per_s"]) for r in runs)
            aborts = statistics.median(
                int(r["aborts"]) / max(1, int(r["commits"])) for r in runs)
            clwb = statistics.median(float(r["clwb_per_tx"]) for r in runs)
            sfence = statistics.median(float(r["sfence_per_tx"]) for r in runs)
            print(f"| {lib} | {t} | {rate:,.0f} | {aborts:.3f} | {clwb:.2f} | "
                  f"{sfence:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
