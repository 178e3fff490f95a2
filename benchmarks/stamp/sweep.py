#!/usr/bin/env python3
"""Runs the eight STAMP applications on their simulator inputs against every
library built (or --libs), at each thread count, through scripts/bench.py,
and prints one table per application: time (median) and abort rate per
library and thread count. Each run checks its own result (bench.py counts a
non-zero exit as a failure); the exit status is 1 if any run failed.

    benchmarks/stamp/sweep.py [--build DIR] [--libs a,b] [--threads 1,2]
                              [--reps 1] [--csv-dir DIR]

Build every library's applications first, e.g.
    cmake -S . -B build-all -DPTM_BENCH_LIBS=all
    ninja -C build-all benchmarks/stamp/all
"""
import argparse
import csv
import pathlib
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent

# (application, input label, options) as the `stamp` tests run them
# (benchmarks/stamp/*/CMakeLists.txt); {inputs} is <build>/bench/inputs.
SIMULATOR_INPUTS = [
    ("bayes", "sim", "-v32 -r1024 -n2 -p20 -s0 -i2 -e2"),
    ("genome", "sim", "-g256 -s16 -n16384"),
    ("intruder", "sim", "-a10 -l4 -n2048 -s1"),
    ("kmeans", "low", "-m40 -n40 -t0.05 -i "
     "{inputs}/kmeans/random-n2048-d16-c16.txt"),
    ("kmeans", "high", "-m15 -n15 -t0.05 -i "
     "{inputs}/kmeans/random-n2048-d16-c16.txt"),
    ("labyrinth", "sim", "-i {inputs}/labyrinth/random-x32-y32-z3-n96.txt"),
    ("ssca2", "sim", "-s13 -i1.0 -u1.0 -l3 -p3"),
    ("vacation", "low", "-n2 -q90 -u98 -r16384 -t4096"),
    ("vacation", "high", "-n4 -q60 -u90 -r16384 -t4096"),
    ("yada", "sim", "-a 20 -i {inputs}/yada/633.2"),
]


def csv_list(text):
    return [x for x in text.split(",") if x]


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]))
    parser.add_argument("--build", type=pathlib.Path, default=ROOT / "build")
    parser.add_argument("--libs", type=csv_list,
                        help="libraries, baseline included (default: all "
                        "built for each application)")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--csv-dir", type=pathlib.Path,
                        help="where the CSVs go (default: "
                        "<build>/bench-results/stamp)")
    args = parser.parse_args()
    inputs = args.build / "bench" / "inputs"
    out_dir = args.csv_dir or args.build / "bench-results" / "stamp"
    out_dir.mkdir(parents=True, exist_ok=True)
    failed = 0
    for app, label, options in SIMULATOR_INPUTS:
        out = out_dir / f"{app}-{label}.csv"
        cmd = [sys.executable, str(ROOT / "scripts" / "bench.py"),
               "--build", str(args.build), "--bench", app,
               "--threads", args.threads, "--reps", str(args.reps),
               "--csv", str(out)]
        if args.libs:
            cmd += ["--libs", ",".join(args.libs)]
        cmd += ["--", *options.format(inputs=inputs).split()]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode not in (0, 1):
            sys.exit(f"stamp sweep: {' '.join(cmd)}: exit {proc.returncode}\n"
                     f"{proc.stderr[-2000:]}")
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
        failed += sum(r["status"] != "ok" for r in rows)
        print(f"\n## {app} ({label}: {options.split(' -i')[0]})\n")
        print(table(rows))
    print(f"\n{failed} run(s) failed" if failed else "\nall runs passed")
    return 1 if failed else 0


def table(rows):
    groups = {}
    for r in rows:
        groups.setdefault((r["lib"], int(r["threads"])), []).append(r)
    threads = sorted({t for _, t in groups})
    head = "| library | " + " | ".join(
        f"{t} thread{'s' if t > 1 else ''}: time s / aborts per commit"
        for t in threads) + " |"
    lines = [head, "|---|" + "---|" * len(threads)]
    for lib in sorted({lib for lib, _ in groups}):
        cells = []
        for t in threads:
            runs = groups.get((lib, t), [])
            ok = [r for r in runs if r["status"] == "ok"]
            if not ok:
                cells.append("FAILED" if runs else "-")
                continue
            time_s = statistics.median(float(r["time_s"]) for r in ok)
            aborts = statistics.median(
                int(r["aborts"]) / max(1, int(r["commits"])) for r in ok)
            cells.append(f"{time_s:.4f} / {aborts:.4f}")
        lines.append(f"| {lib} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
