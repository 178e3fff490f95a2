#!/usr/bin/env python3
"""sp3 (SP3's speculative parallel persistence) beside ip_orec_lazy.

    scripts/sp3.py [--build build] [--threads 1,2] [--reps 5] [-d 1]
                   [--latency 0,300,1000] [--out results/sp3.md]

Contended workloads, each run with both libraries under strict durability,
with and without emulated NVM latency (PTM_NVM_LATENCY_NS, charged per
line written back at the fence): bank with 64 and 1,024 accounts (the
Crafty paper's high contention), tpcc_hash, and STAMP's vacation with its
high-contention mix. Repetitions outermost, the two libraries neighbours in
time. Writes a markdown report: the medians of operations per second and
of aborts per commit, and sp3 / ip_orec_lazy. sp3 releases its orecs before
its record's fence, ip_orec_lazy after it, so the difference should grow
with the latency and with the threads (docs/algorithms.md "SP3").
"""
import csv
import os
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench import (Progress, available, git_revision, load_average,  # noqa
                   machine, run)
from sweeplib import ROOT, csv_list, doc_parser, write_runs_csv  # noqa: E402

LIBS = ["ip_orec_lazy", "sp3"]
# (label, benchmark, its options)
WORKLOADS = [
    ("bank -a 64", "bank", ["-a", "64"]),
    ("bank -a 1024", "bank", ["-a", "1024"]),
    ("tpcc_hash", "tpcc_hash", []),
    ("vacation high", "vacation", "-n4 -q60 -u90 -r16384 -t65536".split()),
]


def main():
    parser = doc_parser(__doc__)
    parser.add_argument("--build", type=pathlib.Path, default=ROOT / "build")
    parser.add_argument("--threads", type=csv_list, default=["1", "2"])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("-d", "--duration", type=float, default=1.0)
    parser.add_argument("--latency", type=csv_list, default=["0", "300", "1000"])
    parser.add_argument("--out", type=pathlib.Path,
                        default=ROOT / "results" / "sp3.md")
    parser.add_argument("--from-csv", type=pathlib.Path,
                        help="report on this CSV of an earlier run")
    args = parser.parse_args()
    if args.reps < 1:
        parser.error("--reps must be at least 1")
    if args.from_csv:
        with open(args.from_csv, newline="") as f:
            rows = [dict(r, threads=int(r["threads"]),
                         latency_ns=int(r["latency_ns"]))
                    for r in csv.DictReader(f)]
        return report(args, rows, [f"- data: `{args.from_csv.name}`, "
                                   f"reported with `{command_line()}`"])
    built = available(args.build / "bench")
    for _, bench, _ in WORKLOADS:
        for lib in LIBS:
            if lib not in built.get(bench, []):
                parser.error(f"{bench}.{lib} is not built in {args.build}")
    plan = [(rep, w, int(t), int(lat), lib) for rep in range(args.reps)
            for w in WORKLOADS for t in args.threads for lat in args.latency
            for lib in (LIBS if rep % 2 == 0 else LIBS[::-1])]
    progress = Progress(len(plan))
    rows, loads, start = [], [load_average()], time.monotonic()
    for rep, (label, bench, extra), t, lat, lib in plan:
        progress.show(f"{label} {lib} -t {t} {lat} ns (rep {rep + 1})")
        env = dict(os.environ)
        env.pop("PTM_NVM_LATENCY_NS", None)
        if lat:
            env["PTM_NVM_LATENCY_NS"] = str(lat)
        fields = run(args.build / "bench" / f"{bench}.{lib}", t,
                     ["-d", str(args.duration)], extra, 600, env)
        # (the RESULT line's own threads= and lib= give way to the plan's)
        rows.append({**fields, "workload": label, "threads": t,
                     "latency_ns": lat, "lib": lib, "rep": rep + 1})
        progress.done += 1
    progress.show("done")
    progress.finish()
    loads.append(load_average())
    out_csv = args.out.with_name(args.out.stem + "_runs.csv")
    write_runs_csv(out_csv, rows, ["workload", "threads", "latency_ns", "lib",
                                   "rep", "status"])
    header = [
        f"- machine: {machine()}; load average {loads[0]} at the start, "
        f"{loads[1]} at the end",
        f"- date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}",
        f"- git revision: {git_revision()}",
        f"- command: `TMPDIR={os.environ.get('TMPDIR', '/tmp')} "
        f"{command_line()}`",
        f"- {len(rows)} runs in {(time.monotonic() - start) / 60:.1f} min",
        f"- data: [{out_csv.name}]({out_csv.name})"]
    return report(args, rows, header)


def command_line():
    return "scripts/sp3.py " + " ".join(sys.argv[1:])


def report(args, rows, header):
    """Writes the markdown report of ROWS; 1 if a run failed."""
    groups = {}
    for r in rows:
        if r["status"] == "ok":
            groups.setdefault((r["workload"], r["threads"], r["latency_ns"],
                               r["lib"]), []).append(r)

    def med(key, field):
        runs = groups.get(key, [])
        if not runs:
            return None
        if field == "aborts":
            return statistics.median(int(r["aborts"]) / max(1, int(r["commits"]))
                                     for r in runs)
        return statistics.median(float(r[field]) for r in runs)

    reps = len({r["rep"] for r in rows})
    lines = [
        "# sp3 beside ip_orec_lazy", "", *header,
        f"- medians of {reps} runs of {args.duration:g} s each (vacation: "
        "its options fix the work); strict durability; latency = "
        "PTM_NVM_LATENCY_NS", "",
        "| workload | threads | latency ns | ip_orec_lazy ops/s | sp3 ops/s | "
        "sp3 / ip_orec_lazy | ip_orec_lazy aborts/commit | "
        "sp3 aborts/commit |",
        "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for label, _, _ in WORKLOADS:
        for t in args.threads:
            for lat in args.latency:
                k = (label, int(t), int(lat))
                a, b = med(k + ("ip_orec_lazy",), "ops_per_s"), med(
                    k + ("sp3",), "ops_per_s")
                ab, bb = med(k + ("ip_orec_lazy",), "aborts"), med(
                    k + ("sp3",), "aborts")
                if None in (a, b, ab, bb):
                    lines.append(f"| {label} | {t} | {lat} | failed | | | | |")
                    continue
                lines.append(f"| {label} | {t} | {lat} | {a:,.0f} | {b:,.0f} "
                             f"| {b / a:.2f} | {ab:.3f} | {bb:.3f} |")
    failed = sum(r["status"] != "ok" for r in rows)
    if failed:
        lines += ["", f"{failed} run(s) failed (status in the CSV)."]
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
