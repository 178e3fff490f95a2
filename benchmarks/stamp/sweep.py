#!/usr/bin/env python3
"""Runs the eight STAMP applications on their simulator inputs (or, with
--inputs large, STAMP's larger non-simulator inputs) against every library
built (or --libs), at each thread count, through scripts/bench.py, and prints
one table per application: time (median) and abort rate per library and
thread count. Each run checks its own result (bench.py counts a non-zero exit
as a failure); the exit status is 1 if any run failed. --plot draws time
against threads, one panel per application and input, one line per library
of --plot-libs.

    benchmarks/stamp/sweep.py [--build DIR] [--libs a,b] [--threads 1,2]
                              [--reps 1] [--csv-dir DIR] [--inputs sim|large]
                              [--apps a,b] [--plot PNG] [--plot-libs a,b]

Build every library's applications first, e.g.
    cmake -S . -B build-all -DPTM_BENCH_LIBS=all
    ninja -C build-all stamp-benchmarks
and, for --inputs large, yada's million-point mesh:
    ninja -C build-all stamp_yada_large_input
"""
import csv
import pathlib
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import plot  # noqa: E402
from sweeplib import csv_list, doc_parser  # noqa: E402

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

# STAMP's non-simulator inputs (the paper's sizes). genome and vacation need
# a pool larger than the default 1 GiB, genome and ssca2 thread slots larger
# than the default 256 KiB (one allocation of thousands of 64 KiB chunks logs
# a word per chunk).
LARGE_INPUTS = [
    ("bayes", "large", "-v32 -r4096 -n10 -p40 -i2 -e8 -s1"),
    ("genome", "large", "-g16384 -s64 -n16777216"),
    ("intruder", "large", "-a10 -l128 -n262144 -s1"),
    ("kmeans", "low-large", "-m40 -n40 -t0.00001 -i "
     "{inputs}/kmeans/random-n65536-d32-c16.txt"),
    ("kmeans", "high-large", "-m15 -n15 -t0.00001 -i "
     "{inputs}/kmeans/random-n65536-d32-c16.txt"),
    ("labyrinth", "large", "-i {inputs}/labyrinth/random-x512-y512-z7-n512.txt"),
    ("ssca2", "large", "-s20 -i1.0 -u1.0 -l3 -p3"),
    ("vacation", "low-large", "-n2 -q90 -u98 -r1048576 -t4194304"),
    ("vacation", "high-large", "-n4 -q60 -u90 -r1048576 -t4194304"),
    ("yada", "large", "-a 15 -i {inputs}/yada/ttimeu1000000.2"),
]
# (sparse: a 16 GiB reservation per run for pools that use a fraction)
LARGE_POOL = ("PTM_POOL_SIZE=16G", "PTM_POOL_SLOT_SIZE=8M", "PTM_POOL_SPARSE=1")

PLOT_LIBS = ("baseline,cgl,norec,orec_lazy,p_cgl_lazy,p_orec_lazy,"
             "gp_orec_lazy,ip_orec_lazy,ip_norec")


def main():
    parser = doc_parser(__doc__)
    parser.add_argument("--build", type=pathlib.Path, default=ROOT / "build")
    parser.add_argument("--libs", type=csv_list,
                        help="libraries, baseline included (default: all "
                        "built for each application)")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--csv-dir", type=pathlib.Path,
                        help="where the CSVs go (default: "
                        "<build>/bench-results/stamp)")
    parser.add_argument("--inputs", choices=("sim", "large"), default="sim",
                        help="STAMP's simulator inputs (default) or its "
                        "larger non-simulator inputs")
    parser.add_argument("--apps", type=csv_list,
                        help="only these applications (default: all eight)")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="seconds per run (default 1800)")
    parser.add_argument("--plot", type=pathlib.Path,
                        help="draw time vs threads into this PNG")
    parser.add_argument("--plot-libs", type=csv_list,
                        default=csv_list(PLOT_LIBS),
                        help=f"libraries drawn (default {PLOT_LIBS})")
    args = parser.parse_args()
    if args.plot:
        # Before any run: it may re-execute this script under the Python
        # that has matplotlib.
        plot.ensure_matplotlib()
    inputs = args.build / "bench" / "inputs"
    out_dir = args.csv_dir or args.build / "bench-results" / "stamp"
    out_dir.mkdir(parents=True, exist_ok=True)
    runs = SIMULATOR_INPUTS if args.inputs == "sim" else LARGE_INPUTS
    if args.apps:
        unknown = set(args.apps) - {app for app, _, _ in runs}
        if unknown:
            parser.error(f"unknown application(s): {', '.join(sorted(unknown))}")
        runs = [r for r in runs if r[0] in args.apps]
    failed = 0
    all_rows = []
    for app, label, options in runs:
        out = out_dir / f"{app}-{label}.csv"
        cmd = [sys.executable, str(ROOT / "scripts" / "bench.py"),
               "--build", str(args.build), "--bench", app,
               "--threads", args.threads, "--reps", str(args.reps),
               "--timeout", str(args.timeout), "--csv", str(out)]
        if args.inputs == "large":
            for setting in LARGE_POOL:
                cmd += ["--env", setting]
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
        print(table(rows), flush=True)
        for r in rows:
            r["bench"] = f"{app} ({label})"
        all_rows += rows
    print(f"\n{failed} run(s) failed" if failed else "\nall runs passed")
    if args.plot:
        plot_times(all_rows, args.plot, set(args.plot_libs))
        print(f"plot: {args.plot}")
    return 1 if failed else 0


def plot_times(rows, path, libs):
    """Time against threads, one panel per application and input."""
    ok = [r for r in rows if r["status"] == "ok" and r["lib"] in libs]
    plot.plot_scaling(plot.points(ok, False, "time_s"), path,
                      ylabel="time (s)")


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
