#!/usr/bin/env python3
"""Run a benchmark sweep: benchmarks x libraries x thread counts x repetitions.

Runs the programs of <build>/bench/<bench>.<lib> (see docs/benchmarks.md),
shows a progress bar with an ETA on stderr, writes one CSV row per run with
every field of its RESULT line, and prints a Markdown table of medians.
Every choice is a command-line option: a subset never needs editing.

    scripts/bench.py --bench bank,hashset --libs cgl,p_orec_lazy,baseline \\
                     --threads 1,2 --reps 3 -d 1 [--csv out.csv] [-- -u 50]

Arguments after `--` go to every benchmark (e.g. -k, -u, -w).

Benchmarks and libraries are discovered from the names <bench>.<lib> in
<build>/bench/, so new benchmarks need no entry here. --build may be given
several times as LABEL=DIR (A/B comparisons of two builds): the CSV's `build`
column says which build ran each row.

The evaluation (README "Reproducing the evaluation"):

    scripts/bench.py --evaluate quick     # about 5 minutes on 2 cores
    scripts/bench.py --evaluate full      # the full sweep

runs a preset sweep and writes results/ (--out): runs.csv, README.md
(machine, date, git revision, command, medians with min/max/IQR, the peer
comparison, the A/B speedups of --ab, targets) and the PNGs of
scripts/plot.py. Options given explicitly (--bench, --libs, --threads,
--reps, -d/-n) override the preset.

    TMPDIR=/dev/shm scripts/bench.py --evaluate peers    # about 5 minutes

runs the peer comparison alone (docs/benchmarks.md, "Peers"): hashset,
rbtree and bptree_insert at 1 and 2 threads, 5 repetitions of 1 s, ptm's
fastest persistent libraries beside the floor and the hand-annotated peers
(romulus, trinity_tl2, trinity_fc, quadra_fc), and writes durabletx.md,
durabletx_runs.csv and durabletx.png into --out.
"""
import argparse
import datetime
import os
import pathlib
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sweeplib import (ROOT, csv_list, doc_parser, parse_tagged,  # noqa: E402
                      split_extra, write_runs_csv)


def available(bench_dir):
    """{bench: [lib, ...]} of the programs built in bench_dir."""
    found = {}
    for exe in sorted(bench_dir.glob("*.*")):
        if exe.is_file() and os.access(exe, os.X_OK):
            bench, lib = exe.name.split(".", 1)
            found.setdefault(bench, []).append(lib)
    return found


def parse_result(stdout):
    """The fields of the RESULT line of a benchmark's output, or None."""
    return parse_tagged(stdout, "RESULT")


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


def run(exe, threads, mode, extra, timeout, env=None):
    stamp = STAMP_THREAD_OPTION.get(exe.name.split(".", 1)[0])
    cmd = ([str(exe), f"{stamp}{threads}", *extra] if stamp else
           [str(exe), "-t", str(threads), *mode, *extra])
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    fields = parse_result(proc.stdout)
    if proc.returncode != 0 or fields is None:
        sys.stderr.write(f"\n{' '.join(cmd)}: exit {proc.returncode}\n"
                         f"{proc.stderr[-2000:]}")
        return {"status": f"exit{proc.returncode}", **(fields or {})}
    return {"status": "ok", **fields}


def median_of(runs, key):
    """Median of a numeric RESULT field, or "na" (the PMDK peer has no
    clwb/sfence counts)."""
    try:
        return f"{statistics.median(float(r[key]) for r in runs):.2f}"
    except (ValueError, KeyError):
        return "na"


def median_table(rows):
    groups = {}
    multi = len({r.get("build", "") for r in rows}) > 1
    for r in rows:
        if r["status"] == "ok":
            lib = f"{r['build']}:{r['lib']}" if multi else r["lib"]
            groups.setdefault((r["bench"], lib, int(r["threads"])),
                              []).append(r)
    lines = ["| bench | lib | threads | ops/s (median) | min | max | "
             "aborts/commit | clwb/tx | sfence/tx | runs |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for (bench, lib, threads), runs in sorted(groups.items()):
        rate = [float(r["ops_per_s"]) for r in runs]
        aborts = statistics.median(
            int(r["aborts"]) / max(1, int(r["commits"])) for r in runs)
        lines.append(f"| {bench} | {lib} | {threads} | "
                     f"{statistics.median(rate):,.0f} | {min(rate):,.0f} | "
                     f"{max(rate):,.0f} | {aborts:.3f} | "
                     f"{median_of(runs, 'clwb_per_tx')} | "
                     f"{median_of(runs, 'sfence_per_tx')} | "
                     f"{len(runs)} |")
    return "\n".join(lines)


def parse_build(text):
    """--build DIR or --build LABEL=DIR -> (label, path)."""
    if "=" in text:
        label, path = text.split("=", 1)
        if not label or not path:
            raise argparse.ArgumentTypeError(f"'{text}': expected LABEL=DIR")
        return label, pathlib.Path(path)
    path = pathlib.Path(text)
    return path.name, path


def parse_env(text):
    if "=" not in text or text.startswith("="):
        raise argparse.ArgumentTypeError(f"'{text}': expected NAME=VALUE")
    return tuple(text.split("=", 1))


# The evaluation presets (--evaluate): the paper's benchmarks (tbench and
# the hashset, which has a PMDK peer too) at 1 and 2 threads for `quick`;
# every benchmark built, every thread count up to the cores, for `full`.
QUICK_BENCHES = ["tpcc_hash", "tpcc_bptree", "tatp", "bptree_insert",
                 "bptree_mix", "hashset"]


# The peer comparison (--evaluate peers): the hand-annotated persistent TMs
# run on the same programs (benchmarks/romulus, benchmarks/durabletx) beside
# ptm's fastest persistent libraries and the floor, on the programs the
# originals were measured with.
PEER_BENCHES = ["hashset", "rbtree", "bptree_insert"]
BEST_PTM = ["ip_cgl_lazy", "ip_rwl_lazy", "ip_orec_lazy"]
HAND_ANNOTATED = ["romulus", "trinity_tl2", "trinity_fc", "quadra_fc"]
PEER_LIBS = ["floor", *BEST_PTM, *HAND_ANNOTATED]


def preset(name):
    cores = os.cpu_count() or 1
    if name == "peers":
        return {"bench": PEER_BENCHES, "libs": PEER_LIBS,
                "threads": ["1", "2"], "reps": 5, "duration": 1.0}
    if name == "quick":
        return {"bench": QUICK_BENCHES, "threads": ["1", "2"], "reps": 3,
                "duration": 0.5}
    threads, t = [], 1
    while t <= max(2, cores):
        threads.append(str(t))
        t *= 2
    if str(cores) not in threads and cores > 2:
        threads.append(str(cores))
    return {"bench": None, "threads": threads, "reps": 5, "duration": 2.0}


def main():
    argv, extra = split_extra(sys.argv[1:])
    parser = doc_parser(__doc__)
    parser.add_argument("--build", type=parse_build, action="append",
                        help="build tree, or LABEL=DIR; repeat for A/B runs "
                        "(default: $BUILD_DIR or build/)")
    parser.add_argument("--bench", type=csv_list,
                        help="comma-separated benchmarks (default: all built)")
    parser.add_argument("--libs", type=csv_list,
                        help="comma-separated libraries, peers included "
                        "(baseline, gcctm, pmdk, romulus, trinity_tl2, "
                        "trinity_fc, quadra_fc, floor; default: all built)")
    parser.add_argument("--threads", type=csv_list)
    parser.add_argument("--reps", type=int)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("-d", "--duration", type=float,
                      help="seconds per run (default 1)")
    mode.add_argument("-n", "--ops", type=int, help="operations per thread")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds before a run is killed")
    parser.add_argument("--csv", type=pathlib.Path,
                        help="output (default: <build>/bench-results/"
                        "bench-<time>.csv; <out>/runs.csv with --evaluate)")
    parser.add_argument("--env", type=parse_env, action="append", default=[],
                        metavar="NAME=VALUE", help="environment of every run")
    parser.add_argument("--evaluate", choices=["quick", "full", "peers"],
                        help="run the evaluation preset and write --out "
                        "(peers: the peer comparison alone)")
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "results",
                        help="--evaluate: output directory (default results/)")
    parser.add_argument("--ab", action="append", default=[],
                        metavar="BASE=NEW",
                        help="--evaluate: a row of the A/B speedup table "
                        "(default: the optimized libraries against the naive "
                        "ones, when built)")
    args = parser.parse_args(argv)

    if args.evaluate:
        sys.path.insert(0, str(ROOT / "scripts"))
        import plot
        plot.ensure_matplotlib()  # before any run: may re-execute
        chosen = preset(args.evaluate)
    else:
        chosen = {"bench": None, "threads": ["1", "2"], "reps": 3,
                  "duration": 1.0}
    builds = args.build or [parse_build(os.environ.get(
        "BUILD_DIR", str(ROOT / "build")))]
    if len({label for label, _ in builds}) != len(builds):
        parser.error("--build: two builds with the same label (use LABEL=DIR)")
    found = {}
    for label, path in builds:
        found[label] = available(path / "bench")
        if not found[label]:
            parser.error(f"no benchmarks in {path / 'bench'}: build first")
    built = {b for f in found.values() for b in f}
    benches = args.bench or [b for b in (chosen["bench"] or sorted(built))
                             if b in built]
    for b in benches:
        if b not in built:
            parser.error(f"benchmark '{b}' is not built "
                         f"(built: {', '.join(sorted(built))})")
    wanted_libs = args.libs or chosen.get("libs")
    if wanted_libs:
        for label, _ in builds:
            for b in benches:
                for lib in wanted_libs:
                    if lib not in found[label].get(b, []):
                        parser.error(f"{b}.{lib} is not built in {label} "
                                     f"(PTM_BENCH_LIBS selects the libraries)")
        libs = wanted_libs
    else:
        libs = sorted({lib for f in found.values() for b in benches
                       for lib in f.get(b, [])})
    threads = args.threads or chosen["threads"]
    reps = args.reps if args.reps is not None else chosen["reps"]
    mode = (["-n", str(args.ops)] if args.ops else
            ["-d", str(args.duration or chosen["duration"])])
    if args.csv:
        out = args.csv
    elif args.evaluate == "peers":
        out = args.out / "durabletx_runs.csv"
    elif args.evaluate:
        out = args.out / "runs.csv"
    else:
        out = (builds[0][1] / "bench-results" /
               f"bench-{time.strftime('%Y%m%d-%H%M%S')}.csv")
    out.parent.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, **dict(args.env))

    # Repetitions outermost: slow drift of the machine spreads over all
    # configurations instead of biasing one. Builds innermost, in turns (the
    # first of a repetition goes last in the next): the runs an A/B table
    # compares are neighbours in time. Without --libs, only the combinations
    # built (e.g. no GCC TM peer for tpcc_bptree).
    plan = [(rep, label, path, b, lib, int(t)) for rep in range(reps)
            for b in benches for lib in libs for t in threads
            for label, path in (builds[rep % len(builds):] +
                                builds[:rep % len(builds)])
            if lib in found[label].get(b, [])]
    progress = Progress(len(plan))
    rows, failures, interrupted = [], 0, False
    started = time.time()
    load_before = load_average()
    try:
        for rep, label, path, b, lib, t in plan:
            where = f"{label}:" if len(builds) > 1 else ""
            progress.show(f"{where}{b}.{lib} -t {t} (rep {rep + 1})")
            result = run(path / "bench" / f"{b}.{lib}", t, mode, extra,
                         args.timeout, env)
            failures += result["status"] != "ok"
            rows.append({"bench": b, "lib": lib, "threads": t,
                         "rep": rep + 1, "build": label, **result})
            progress.done += 1
        progress.show("done")
    except KeyboardInterrupt:
        # Keep what was measured: the CSV and the table of the runs done.
        interrupted = True
        sys.stderr.write("\ninterrupted\n")
    progress.finish()

    write_runs_csv(out, rows,
                   ["bench", "lib", "threads", "rep", "build", "status"])
    command = " ".join(["scripts/bench.py", *sys.argv[1:]])
    print(f"command: {command}")
    print(f"csv: {out}\n")
    table = median_table(rows)
    print(table)
    if args.evaluate == "peers" and rows:
        write_peer_report(args, plot, out, rows, mode, extra, command,
                          time.time() - started, failures,
                          (load_before, load_average()))
    elif args.evaluate and rows:
        write_evaluation(args, plot, out, rows, builds, mode, extra, command,
                         time.time() - started, failures,
                         (load_before, load_average()))
    if failures:
        print(f"\n{failures} run(s) failed", file=sys.stderr)
    if interrupted:
        return 130
    return 1 if failures else 0


def machine():
    """CPU model, cores and memory, from /proc."""
    model, cpus = "unknown CPU", 0
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name") and model == "unknown CPU":
                model = line.split(":", 1)[1].strip()
            if line.startswith("processor"):
                cpus += 1
    except OSError:
        pass
    mem = ""
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = f", {int(line.split()[1]) / 2**20:.0f} GiB RAM"
    except OSError:
        pass
    return f"{model}, {cpus} logical CPUs{mem}"


def load_average():
    """The 1-minute load average (other processes competing for the cores
    make the numbers noisy), or "unknown"."""
    try:
        return open("/proc/loadavg").read().split()[0]
    except OSError:
        return "unknown"


def busy_note(loads):
    try:
        if max(float(x) for x in loads) > (os.cpu_count() or 1):
            return (" (above the core count: other processes competed for "
                    "the cores, the numbers are noisy)")
    except ValueError:
        pass
    return ""


def git_revision():
    try:
        rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short",
                              "HEAD"], capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status",
                                "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return rev + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def default_ab_pairs(series):
    """The optimized families against the naive one, for every algorithm
    built in both (Tables II-V: one optimization at a time needs two builds
    and --ab)."""
    pairs = []
    for s in sorted(series):
        for fam, base in (("gp_", "p_"), ("ip_", "gp_")):
            if s.startswith(fam) and base + s[len(fam):] in series:
                pairs.append((base + s[len(fam):], s))
    return pairs


def target_rows(pts):
    """The comparisons the project tracks (docs/benchmarks.md)."""
    series = {s for _, s, _ in pts}
    best = next((s for s in ("ip_orec_lazy", "gp_orec_lazy", "p_orec_lazy")
                 if s in series), None)
    wanted = [("cgl", "baseline", b, 1) for b in
              ("tpcc_hash", "tpcc_bptree", "bptree_insert", "bptree_mix")]
    if best:
        wanted += [(best, "p_cgl_lazy", b, t) for b in ("tpcc_hash",
                                                        "tpcc_bptree")
                   for t in (1, 2)]
        wanted += [(best, "pmdk", "bptree_insert", t) for t in (1, 2)]
    # Crafty and sp3 (issue 18) against the orec redo library and PMDK.
    wanted += [(lib, base, "bptree_insert", t) for lib in ("crafty", "sp3")
               for base in ("ip_orec_lazy", "pmdk") for t in (1, 2)]
    # The fastest of ptm's best libraries against each hand-annotated peer
    # (issues 15 and 52).
    for b in PEER_BENCHES:
        for t in (1, 2):
            fastest = best_of(pts, BEST_PTM, b, t)
            if fastest:
                wanted += [(fastest, peer, b, t) for peer in HAND_ANNOTATED]
    rows = []
    for new, base, b, t in wanted:
        if (b, new, t) in pts and (b, base, t) in pts:
            rows.append((new, base, b, t, pts[(b, new, t)].median /
                         pts[(b, base, t)].median))
    return rows


def best_of(pts, libs, bench, threads):
    """The fastest of LIBS at (bench, threads), or None."""
    ran = [(pts[(bench, lib, threads)].median, lib) for lib in libs
           if (bench, lib, threads) in pts]
    return max(ran)[1] if ran else None


def write_peer_report(args, plot, csv_path, rows, mode, extra, command,
                      seconds, failures, loads):
    """<out>/durabletx.md and durabletx.png: the peer comparison."""
    plot.ensure_matplotlib()
    ok_rows, multi = plot.load(csv_path)
    pts = plot.points(ok_rows, multi)
    peers = ("floor", *HAND_ANNOTATED)
    png = "durabletx.png"
    drawn = plot.plot_peers(pts, args.out / png, peers,
                            title="best persistent ptm library vs the "
                            "hand-annotated PTMs and the floor")
    libs = [lib for lib in PEER_LIBS if any(k[1] == lib for k in pts)]
    medians = ["| bench | threads | " + " | ".join(libs) + " |",
               "|---|---|" + "---:|" * len(libs)]
    for b in plot.benches_of(pts):
        for t in plot.threads_in(pts, b):
            cells = [f"{pts[(b, lib, t)].median:,.0f}" if (b, lib, t) in pts
                     else "-" for lib in libs]
            medians.append(f"| {b} | {t} | " + " | ".join(cells) + " |")
    targets = [f"| {new} / {base} | {b} | {t} | {r:.2f} |"
               for new, base, b, t, r in target_rows(pts)
               if base in HAND_ANNOTATED]
    lines = [
        "# ptm against the hand-annotated persistent TMs", "",
        "Generated by `scripts/bench.py --evaluate peers` (docs/benchmarks.md,"
        " \"Peers\"); do not edit by hand.", "",
        f"- machine: {machine()}; load average {loads[0]} at the start, "
        f"{loads[1]} at the end{busy_note(loads)}",
        f"- date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}",
        f"- git revision: {git_revision()}",
        f"- command: `{command}` (pools in "
        f"{os.environ.get('TMPDIR', '/tmp')}, strict durability)",
        f"- each run: `<build>/bench/<bench>.<lib> -t THREADS "
        f"{' '.join(mode + extra)}`; {plot_reps(rows)} repetitions, "
        f"repetitions outermost",
        f"- {len(rows)} runs in {seconds / 60:.1f} min, {failures} failed",
        f"- data: [{csv_path.name}]({csv_path.name})", "",
        "The peers run the same programs, compiled by the same plugin, under "
        "their protocols (no recovery; the persistent copy receives every "
        "store, clwb and sfence): `romulus` (benchmarks/romulus: twin copy, "
        "4 sfence per writing transaction), `trinity_tl2` (Trinity with a "
        "volatile replica and TL2 concurrency: 2 sfence), `trinity_fc` "
        "(Trinity, flat combining: 2 sfence per batch), `quadra_fc` (Quadra, "
        "flat combining: 1 sfence per batch); benchmarks/durabletx. `floor` "
        "is one global lock, a clwb per written line and one sfence. This "
        "machine's memory is not persistent: clwb and sfence run at DRAM "
        "cost.", ""]
    if drawn:
        lines += [f"![{png}]({png})", ""]
    lines += ["## Medians (ops/s)", "", "\n".join(medians), "",
              "## Targets: ptm's fastest against each peer", "",
              "Ratio = ops/s of the fastest of " + ", ".join(BEST_PTM) +
              " over the peer's; the issue's target is above 1.", "",
              "| comparison | bench | threads | ratio |", "|---|---|---|---:|",
              *targets, "",
              "## Best persistent ptm library against the peers and the "
              "floor", "", plot.peer_table(pts, peers), "",
              "## Details (spread, aborts, clwb, sfence)", "",
              median_table(rows), ""]
    (args.out / "durabletx.md").write_text("\n".join(lines))
    print(f"\nwrote {args.out / 'durabletx.md'}" +
          (f" and {args.out / png}" if drawn else ""))


def write_evaluation(args, plot, csv_path, rows, builds, mode, extra,
                     command, seconds, failures, loads):
    pairs = [plot.parse_pair(p) for p in args.ab]
    ok_rows = [r for r in rows if r["status"] == "ok"]
    multi = len(builds) > 1
    series = {f"{r['build']}:{r['lib']}" if multi else r["lib"]
              for r in ok_rows}
    if not pairs:
        pairs = default_ab_pairs(series)
    pts, tables, pngs = plot.render(csv_path, args.out, pairs, 1)
    targets = target_rows(pts)
    lines = [
        f"# Evaluation results ({args.evaluate})", "",
        "Generated by `scripts/bench.py --evaluate` (README.md, "
        "\"Reproducing the evaluation\"); do not edit by hand.", "",
        f"- machine: {machine()}; load average {loads[0]} at the start, "
        f"{loads[1]} at the end{busy_note(loads)}",
        f"- date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}",
        f"- git revision: {git_revision()}",
        f"- command: `{command}`",
        f"- builds: " + ", ".join(f"{label} = `{os.path.relpath(path, ROOT)}`"
                                  for label, path in builds),
        f"- each run: `<build>/bench/<bench>.<lib> -t THREADS "
        f"{' '.join(mode + extra)}`; {args.reps or plot_reps(rows)} "
        f"repetitions, repetitions outermost",
        f"- {len(rows)} runs in {seconds / 60:.1f} min, {failures} failed",
        f"- data: [{csv_path.name}]({csv_path.name}) (one row per run, every "
        f"RESULT field)", "",
        "Throughput is operations (one transaction each) per second over all "
        "threads, the median of the repetitions; min/max and the "
        "interquartile range (with fewer than 4 runs: max - min) show the "
        "spread. The peers: `baseline` (no "
        "instrumentation, one global lock, no persistence), `gcctm` (gcc "
        "-fgnu-tm, volatile), `pmdk` (libpmemobj, persistent, "
        "PMEM_IS_PMEM_FORCE=1), `romulus` (Romulus's twin-copy protocol, "
        "4 sfence per writing transaction, run on the same program: "
        "benchmarks/romulus/romulus_policy.h), `trinity_tl2`, `trinity_fc` "
        "and `quadra_fc` (Trinity and Quadra with a volatile replica, 2, 2 "
        "and 1 sfence per transaction or batch: benchmarks/durabletx). "
        "This machine's memory is not persistent: "
        "clwb and sfence run at DRAM cost (no PTM_NVM_LATENCY_NS).", ""]
    for png in pngs:
        lines += [f"![{png}]({png})", ""]
    lines += ["## Best persistent ptm library against the peers", "",
              "Ratio = ops/s of the best persistent library (p_, gp_, ip_, "
              "crafty, sp3) "
              "over the peer's, same benchmark and threads.", "",
              tables["peers"], ""]
    if targets:
        lines += ["## Targets", "", "| comparison | bench | threads | ratio |",
                  "|---|---|---|---:|"]
        lines += [f"| {new} / {base} | {b} | {t} | {r:.2f} |"
                  for new, base, b, t, r in targets]
        lines.append("")
    if "ab" in tables:
        lines += ["## A/B speedups (Tables II-V shape)", "",
                  "median(NEW) / median(BASE) at 1 thread.", "", tables["ab"],
                  ""]
    failed = [r for r in rows if r["status"] != "ok"]
    if failed:
        lines += ["## Failed runs", ""]
        lines += [f"- {r['bench']}.{r['lib']} -t {r['threads']} rep "
                  f"{r['rep']}: {r['status']}" for r in failed]
        lines.append("")
    lines += ["## Medians and spread", "", tables["medians"], "",
              "## Details (aborts, clwb, sfence)", "", median_table(rows), ""]
    (args.out / "README.md").write_text("\n".join(lines))
    print(f"\nwrote {args.out / 'README.md'} and "
          + ", ".join(str(args.out / p) for p in pngs))


def plot_reps(rows):
    return max(int(r["rep"]) for r in rows)


if __name__ == "__main__":
    sys.exit(main())
