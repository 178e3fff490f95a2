#!/usr/bin/env python3
"""Run a benchmark sweep: benchmarks x libraries x thread counts x repetitions.

Runs the programs of <build>/bench/<bench>.<lib> (see docs/benchmarks.md),
shows a progress bar with an ETA on stderr, writes one CSV row per run with
every field of its RESULT line, and prints a Markdown table of medians.
Every choice is a command-line option: a subset never needs editing.

    scripts/bench.py --bench bank,hashset --libs cgl,p_orec_lazy,baseline \\
                     --threads 1,2 --reps 3 -d 1 [--csv out.csv] [-- -u 50]

Arguments after `--` go to every benchmark (e.g. -k, -u, -w).
"""
import argparse
import csv
import datetime
import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def csv_list(text):
    return [x for x in text.split(",") if x]


def available(bench_dir):
    """{bench: [lib, ...]} of the programs built in bench_dir."""
    found = {}
    for exe in sorted(bench_dir.glob("*.*")):
        if exe.is_file() and os.access(exe, os.X_OK):
            bench, lib = exe.name.split(".", 1)
            found.setdefault(bench, []).append(lib)
    return found


def parse_result(stdout):
    for line in stdout.splitlines():
        if line.startswith("RESULT "):
            return dict(kv.split("=", 1) for kv in line.split()[1:])
    return None


class Progress:
    """A one-line progress bar with an ETA on stderr."""

    def __init__(self, total):
        self.total, self.done, self.start = total, 0, time.monotonic()
        self.tty = sys.stderr.isatty()

    def show(self, label):
        elapsed = time.monotonic() - self.start
        eta = (elapsed / self.done * (self.total - self.done)
               if self.done else float("nan"))
        width = 30
        filled = width * self.done // max(1, self.total)
        eta_text = ("--:--" if eta != eta else
                    str(datetime.timedelta(seconds=round(eta))))
        line = (f"[{'#' * filled}{'.' * (width - filled)}] "
                f"{self.done}/{self.total} ETA {eta_text}  {label}")
        end = "\r" if self.tty else "\n"
        sys.stderr.write(f"\x1b[2K{line}{end}" if self.tty else line + end)
        sys.stderr.flush()

    def finish(self):
        if self.tty:
            sys.stderr.write("\n")
        elapsed = time.monotonic() - self.start
        sys.stderr.write(f"{self.total} runs in "
                         f"{datetime.timedelta(seconds=round(elapsed))}\n")


# STAMP applications (docs/stamp.md): their own options (after `--`) fix the
# work, so no -d/-n; threads by their own option letter.
STAMP_THREAD_OPTION = {"vacation": "-c", "kmeans": "-p", "genome": "-t",
                       "intruder": "-t", "ssca2": "-t", "labyrinth": "-t",
                       "yada": "-t", "bayes": "-t"}


def run(exe, threads, mode, extra, timeout):
    stamp = STAMP_THREAD_OPTION.get(exe.name.split(".", 1)[0])
    cmd = ([str(exe), f"{stamp}{threads}", *extra] if stamp else
           [str(exe), "-t", str(threads), *mode, *extra])
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    fields = parse_result(proc.stdout)
    if proc.returncode != 0 or fields is None:
        sys.stderr.write(f"\n{' '.join(cmd)}: exit {proc.returncode}\n"
                         f"{proc.stderr[-2000:]}")
        return {"status": f"exit{proc.returncode}", **(fields or {})}
    return {"status": "ok", **fields}


def median_table(rows):
    groups = {}
    for r in rows:
        if r["status"] == "ok":
            groups.setdefault((r["bench"], r["lib"], int(r["threads"])),
                              []).append(r)
    lines = ["| bench | lib | threads | ops/s (median) | min | max | "
             "aborts/commit | clwb/tx | sfence/tx | runs |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for (bench, lib, threads), runs in sorted(groups.items()):
        rate = [float(r["ops_per_s"]) for r in runs]
        med = lambda key: statistics.median(float(r[key]) for r in runs)
        aborts = statistics.median(
            int(r["aborts"]) / max(1, int(r["commits"])) for r in runs)
        lines.append(f"| {bench} | {lib} | {threads} | "
                     f"{statistics.median(rate):,.0f} | {min(rate):,.0f} | "
                     f"{max(rate):,.0f} | {aborts:.3f} | "
                     f"{med('clwb_per_tx'):.2f} | {med('sfence_per_tx'):.2f} | "
                     f"{len(runs)} |")
    return "\n".join(lines)


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1:]
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]))
    parser.add_argument("--build", type=pathlib.Path,
                        default=pathlib.Path(os.environ.get(
                            "BUILD_DIR", ROOT / "build")),
                        help="build tree (default: $BUILD_DIR or build/)")
    parser.add_argument("--bench", type=csv_list,
                        help="comma-separated benchmarks (default: all built)")
    parser.add_argument("--libs", type=csv_list,
                        help="comma-separated libraries, `baseline` included "
                        "(default: all built)")
    parser.add_argument("--threads", type=csv_list, default=["1", "2"])
    parser.add_argument("--reps", type=int, default=3)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("-d", "--duration", type=float,
                      help="seconds per run (default 1)")
    mode.add_argument("-n", "--ops", type=int, help="operations per thread")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds before a run is killed")
    parser.add_argument("--csv", type=pathlib.Path,
                        help="output (default: <build>/bench-results/bench-<time>.csv)")
    args = parser.parse_args(argv)

    found = available(args.build / "bench")
    if not found:
        parser.error(f"no benchmarks in {args.build / 'bench'}: build first")
    benches = args.bench or sorted(found)
    for b in benches:
        if b not in found:
            parser.error(f"benchmark '{b}' is not built "
                         f"(built: {', '.join(sorted(found))})")
    libs = args.libs or sorted({lib for b in benches for lib in found[b]})
    for b in benches:
        for lib in libs:
            if lib not in found[b]:
                parser.error(f"{b}.{lib} is not built (PTM_BENCH_LIBS "
                             f"selects the libraries)")
    mode = (["-n", str(args.ops)] if args.ops else
            ["-d", str(args.duration or 1)])
    out = args.csv or (args.build / "bench-results" /
                       f"bench-{time.strftime('%Y%m%d-%H%M%S')}.csv")
    out.parent.mkdir(parents=True, exist_ok=True)

    # Repetitions outermost: slow drift of the machine spreads over all
    # configurations instead of biasing one.
    plan = [(rep, b, lib, int(t)) for rep in range(args.reps)
            for b in benches for lib in libs for t in args.threads]
    progress = Progress(len(plan))
    rows, failures, interrupted = [], 0, False
    try:
        for rep, b, lib, t in plan:
            progress.show(f"{b}.{lib} -t {t} (rep {rep + 1})")
            result = run(args.build / "bench" / f"{b}.{lib}", t, mode, extra,
                         args.timeout)
            failures += result["status"] != "ok"
            rows.append({"bench": b, "lib": lib, "threads": t,
                         "rep": rep + 1, **result})
            progress.done += 1
        progress.show("done")
    except KeyboardInterrupt:
        # Keep what was measured: the CSV and the table of the runs done.
        interrupted = True
        sys.stderr.write("\ninterrupted\n")
    progress.finish()

    fields = ["bench", "lib", "threads", "rep", "status"]
    for r in rows:
        fields += [k for k in r if k not in fields]
    with open(out, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    print(f"command: {' '.join(sys.argv)}")
    print(f"csv: {out}\n")
    print(median_table(rows))
    if failures:
        print(f"\n{failures} run(s) failed", file=sys.stderr)
    if interrupted:
        return 130
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
