#!/usr/bin/env python3
"""The design grid of "Persistence and Synchronization: Friends or Foes?".

    TMPDIR=/dev/shm scripts/design_grid.py [--root build-grid] [--reps 5]
        [--bench bank,tpcc_hash,bptree_insert,vacation] [--threads 1,2]
        [-d 0.5] [--latency 300] [--no-build] [--out results/design_grid.md]
        [--csv results/design_grid_runs.csv] [--from-csv RUNS.csv]

The paper's study is a grid: synchronization (locks, STM, HTM) x logging
(undo, redo) x persistence domain (ADR: the caches are transient, every
durable store is flushed; eADR: the caches are persistent, nothing is
flushed). Each cell is one of our libraries (CELLS below), built twice under
--root: `adr` (the default runtime) and `eadr` (CMake -DPTM_EADR=ON: clwb is
not issued, sfence stays). The volatile library with the same
synchronization (and the uninstrumented program) is measured beside them,
so every cell also has its cost of persistence.

Every configuration runs once per repetition, repetitions outermost, with
and without PTM_NVM_LATENCY_NS=--latency (emulated NVM write-back latency
per flushed line; it cannot apply under eADR, where no line is flushed: the
eADR runs check that they flushed nothing). Writes the grid, the medians and
the paper's four findings, each marked reproduced or not with the figures
that decide it, to --out (and every run to --csv). --from-csv rewrites the
report from an earlier run's CSV without running anything.

The HTM row is `crafty` (docs/algorithms.md), its hardware path forced with
PTM_HTM: on RTM where the CPU has it, else on the emulation, which runs one
hardware transaction at a time. Emulated figures are crafty's protocol
costs, not RTM's concurrency: the report says which path ran, and the
findings about HTM are then reported but not decided. HTM with redo logging
is DHTM, which needs its own hardware (docs/algorithms.md).
"""
import csv
import itertools
import math
import os
import pathlib
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench import (Progress, git_revision, load_average,  # noqa: E402
                   machine, run)
from sweeplib import (ROOT, csv_list, doc_parser, libnames,  # noqa: E402
                      write_runs_csv)

SYNCS = ["locks", "STM", "HTM"]
LOGS = ["undo", "redo"]
DOMAINS = ["ADR", "eADR"]
# (synchronization, logging) -> (persistent library, its volatile twin)
CELLS = {
    ("locks", "undo"): ("ip_cgl_eager", "cgl"),
    ("locks", "redo"): ("ip_cgl_lazy", "cgl"),
    ("STM", "undo"): ("ip_orec_eager", "orec_eager"),
    ("STM", "redo"): ("ip_orec_lazy", "orec_lazy"),
    ("HTM", "undo"): ("crafty", "baseline"),
}
MISSING_CELL = {("HTM", "redo"): "DHTM: needs its hardware "
                "(redo logging in the caches; docs/algorithms.md)"}
# vacation is STAMP's (docs/stamp.md): its options fix the work. The
# simulator input's "high" contention mix, 16 times the transactions.
STAMP_OPTIONS = {"vacation": "-n4 -q60 -u90 -r16384 -t65536"}
# A majority means at least this share of the cells compared.
MAJORITY = 0.75


def has_rtm():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("flags"):
                return "rtm" in line.split()
    except OSError:
        pass
    return False


NO_CRAFTY = "no `crafty` library in Makefile.libnames"
EMULATED = ("this CPU has no RTM (`grep -w rtm /proc/cpuinfo`): the HTM row "
            "is crafty's hardware path on the emulation (PTM_HTM=emulate), "
            "one hardware transaction at a time, not RTM's concurrency")


def htm_path(known_libs, rtm):
    """(PTM_HTM of the HTM row's runs or None, why the findings about HTM
    cannot be decided here or None)."""
    if "crafty" not in known_libs:
        return None, NO_CRAFTY
    return ("rtm", None) if rtm else ("emulate", EMULATED)


def target(bench, lib):
    prefix = "stamp" if bench in STAMP_OPTIONS else "bench"
    return f"{prefix}_{bench}.{lib}"


def build(tree, eadr, libs, benches, jobs):
    """Configures TREE (eADR or not) for LIBS and builds their programs."""
    # (the uninstrumented `baseline` programs are always configured)
    named = [lib for lib in libs if lib != "baseline"]
    defs = [f"-DPTM_BENCH_LIBS={';'.join(named)}",
            f"-DPTM_EADR={'ON' if eadr else 'OFF'}"]
    subprocess.run(["cmake", "-G", "Ninja", "-S", str(ROOT), "-B", str(tree),
                    "-DCMAKE_BUILD_TYPE=Release", *defs],
                   check=True, stdout=subprocess.DEVNULL)
    targets = [target(b, lib) for b in benches for lib in libs]
    subprocess.run(["ninja", "-C", str(tree), f"-j{jobs}", *targets],
                   check=True, stdout=subprocess.DEVNULL)


def plan_configs(cells, latency):
    """(domain, latency_ns, lib) of one repetition: the volatile twins once,
    each persistent library in both domains, with and without latency."""
    volatile = sorted({twin for _, twin in cells.values()})
    configs = [("volatile", 0, lib) for lib in volatile]
    for lib, _ in cells.values():
        for domain in DOMAINS:
            for lat in (0, latency):
                configs.append((domain, lat, lib))
    return configs


def medians(rows):
    """{(bench, threads, domain, latency, lib): median ops/s} of the runs
    that passed."""
    groups = {}
    for r in rows:
        if r["status"] == "ok":
            key = (r["bench"], int(r["threads"]), r["domain"],
                   int(r["latency_ns"]), r["lib"])
            groups.setdefault(key, []).append(float(r["ops_per_s"]))
    return {k: statistics.median(v) for k, v in groups.items()}


class Grid:
    """The medians, looked up by cell."""

    def __init__(self, rows, cells):
        self.med = medians(rows)
        self.cells = cells
        keys = self.med.keys()
        self.benches = sorted({k[0] for k in keys})
        self.threads = sorted({k[1] for k in keys})
        self.latencies = sorted({k[3] for k in keys if k[2] != "volatile"})

    def persistent(self, bench, t, domain, lat, sync, log):
        cell = self.cells.get((sync, log))
        return cell and self.med.get((bench, t, domain, lat, cell[0]))

    def volatile(self, bench, t, sync, log):
        cell = self.cells.get((sync, log))
        return cell and self.med.get((bench, t, "volatile", 0, cell[1]))

    def pairs(self, vary):
        """[(key, a / b)] for every two cells that differ in VARY only
        ('domain': eADR / ADR, 'log': undo / redo, 'sync': STM / locks), over
        every benchmark, thread count and latency. KEY is (bench, threads,
        latency, sync, log, domain) with b's value of VARY."""
        a_side, b_side = {"domain": ("eADR", "ADR"), "log": ("undo", "redo"),
                          "sync": ("STM", "locks")}[vary]
        out = []
        for b, t, lat, sync, log, domain in itertools.product(
                self.benches, self.threads, self.latencies, SYNCS, LOGS,
                DOMAINS):
            at = {"domain": domain, "log": log, "sync": sync}
            if at[vary] != b_side:
                continue

            def rate(value):
                k = dict(at, **{vary: value})
                return self.persistent(b, t, k["domain"], lat, k["sync"],
                                       k["log"])

            a, z = rate(a_side), rate(b_side)
            if a and z:
                out.append(((b, t, lat, sync, log, domain), a / z))
        return out


def geo_spread(ratios):
    """The geometric mean of max(r, 1/r): how far apart the two sides of a
    comparison are, whichever wins."""
    if not ratios:
        return float("nan")
    return math.exp(statistics.mean(abs(math.log(r)) for r in ratios))


def share(values, pred):
    return sum(1 for v in values if pred(v)) / len(values) if values else 0.0


def above_one(ratios):
    """The share of RATIOS above 1 (the first side ahead)."""
    return share(ratios, lambda r: r > 1)


def med(values):
    return statistics.median(values) if values else float("nan")


def verdict(ok):
    return "**reproduced**" if ok else "**not reproduced**"


def findings(grid, htm_reason):
    """The paper's four findings: [(title, verdict, [evidence lines])]."""
    out = []
    domain = [r for _, r in grid.pairs("domain")]
    log = [r for _, r in grid.pairs("log")]
    sync = [r for _, r in grid.pairs("sync")]
    dom_spread, log_spread, sync_spread = (geo_spread(domain),
                                           geo_spread(log), geo_spread(sync))
    lines = [f"eADR faster than ADR in {above_one(domain):.0%} "
             f"of {len(domain)} cell pairs (median eADR/ADR "
             f"{med(domain):.2f})",
             f"typical factor between the two sides of each choice (geometric"
             f" mean of max(r, 1/r)): persistence domain {dom_spread:.2f}, "
             f"logging {log_spread:.2f}, synchronization {sync_spread:.2f}"]
    per_lat = []
    for lat in grid.latencies:
        rs = [r for k, r in grid.pairs("domain") if k[2] == lat]
        per_lat.append(f"latency {lat} ns: median eADR/ADR {med(rs):.2f}")
    lines.append("; ".join(per_lat))
    ok = (bool(domain) and above_one(domain) >= MAJORITY
          and dom_spread > max(log_spread, sync_spread))
    out.append(("1. The persistence domain plays the most important role: "
                "persistence costs considerably less with persistent caches.",
                verdict(ok), lines))

    # 2. Transient caches: HTM best; undo vs redo depends on the workload.
    winners = {}
    for b in grid.benches:
        for t in grid.threads:
            for s in SYNCS:
                for lat in grid.latencies:
                    u = grid.persistent(b, t, "ADR", lat, s, "undo")
                    r = grid.persistent(b, t, "ADR", lat, s, "redo")
                    if u and r:
                        winners.setdefault(b, []).append(
                            "undo" if u > r else "redo")
    per_bench = {b: max(set(w), key=w.count) for b, w in winners.items()}
    lines = ["under ADR, the logging that wins most cells per workload: " +
             ", ".join(f"{b} {w}" for b, w in sorted(per_bench.items()))]
    depends = len(set(per_bench.values())) > 1
    best = []
    for b in grid.benches:
        for t in grid.threads:
            for lat in grid.latencies:
                vals = {(s, lg): grid.persistent(b, t, "ADR", lat, s, lg)
                        for s in SYNCS for lg in LOGS}
                vals = {k: v for k, v in vals.items() if v}
                if any(s == "HTM" for s, _ in vals):
                    best.append(max(vals, key=vals.get)[0] == "HTM")
    if best:
        lines.append(f"HTM is the fastest cell under ADR in "
                     f"{share(best, bool):.0%} of {len(best)} configurations")
    if htm_reason:
        lines.append(f"its HTM half is not decided here: {htm_reason}")
        title_verdict = ("**not testable here** (HTM); its second half, "
                         "undo vs redo depends on the workload: " +
                         verdict(depends))
    else:
        title_verdict = verdict(share(best, bool) >= MAJORITY and depends)
    out.append(("2. With transient caches (ADR), HTM is the best choice; "
                "undo or redo depends on the application.", title_verdict,
                lines))

    # 3. Persistent caches: undo beats redo (redo's read indirection).
    eadr = [r for k, r in grid.pairs("log") if k[5] == "eADR"]
    adr = [r for k, r in grid.pairs("log") if k[5] == "ADR"]
    lines = [f"under eADR, undo faster than redo in {above_one(eadr):.0%} "
             f"of {len(eadr)} cells (median undo/redo {med(eadr):.2f}); "
             f"under ADR in {above_one(adr):.0%} (median {med(adr):.2f})"]
    out.append(("3. With persistent caches (eADR), undo logging is the best "
                "choice: redo logs pay for read indirection.",
                verdict(bool(eadr) and above_one(eadr) >= MAJORITY), lines))

    # 4. Scaling: throughput grows with threads despite persistence; STM
    # scales where the lock (or HTM) does not.
    lines = []
    up = {s: [] for s in SYNCS}
    if len(grid.threads) >= 2:
        lo, hi = grid.threads[0], grid.threads[-1]
        for b in grid.benches:
            for lat in grid.latencies:
                for domain in DOMAINS:
                    for log in LOGS:
                        for s in SYNCS:
                            a = grid.persistent(b, hi, domain, lat, s, log)
                            z = grid.persistent(b, lo, domain, lat, s, log)
                            if a and z:
                                up[s].append(a / z)
        stm_up, lock_up, htm_up = up["STM"], up["locks"], up["HTM"]
        lines.append(f"{hi} threads / {lo}: persistent STM faster in "
                     f"{above_one(stm_up):.0%} of {len(stm_up)} cells (median "
                     f"{med(stm_up):.2f}); persistent locks in "
                     f"{above_one(lock_up):.0%} (median {med(lock_up):.2f})")
        if htm_up:
            lines.append(f"HTM row: faster in {above_one(htm_up):.0%} of "
                         f"{len(htm_up)} cells (median {med(htm_up):.2f})")
        v = verdict(bool(stm_up) and above_one(stm_up) >= MAJORITY)
    else:
        lines.append("one thread count only: nothing to compare")
        v = "**not testable** (one thread count)"
    if htm_reason:
        lines.append(f"its HTM half (crash-consistent HTM limited by aborts) "
                     f"is not decided here: {htm_reason}")
    out.append(("4. As applications scale, throughput grows despite the cost "
                "of crash consistency; where HTM stops scaling for aborts, "
                "STM keeps it.", v, lines))
    return out


def fmt_rate(x):
    if not x:
        return "-"
    return f"{x / 1e6:.2f}M" if x >= 1e6 else f"{x / 1e3:.0f}k"


def grid_tables(grid):
    """One table per latency: rows (bench, threads, sync), columns the
    volatile twin and the four (logging, domain) cells, each as ops/s and
    its share of the volatile twin's. A synchronization without a measured
    cell (HTM here) has no rows."""
    out = []
    for lat in grid.latencies:
        lines = [f"### PTM_NVM_LATENCY_NS={lat}", "",
                 "| bench | threads | sync | volatile (undo / redo twin) | "
                 "undo, ADR | redo, ADR | undo, eADR | redo, eADR |",
                 "|---|---|---|---|---:|---:|---:|---:|"]
        for b in grid.benches:
            for t in grid.threads:
                for s in SYNCS:
                    cells = []
                    for domain in DOMAINS:
                        for log in LOGS:
                            p = grid.persistent(b, t, domain, lat, s, log)
                            v = grid.volatile(b, t, s, log)
                            cells.append((domain, log, p, v))
                    if not any(p for _, _, p, _ in cells):
                        continue  # (the report says why, once)
                    twins = " / ".join(fmt_rate(grid.volatile(b, t, s, lg))
                                       for lg in LOGS)
                    by = {(d, lg): (p, v) for d, lg, p, v in cells}
                    shown = []
                    for d in DOMAINS:  # undo ADR, redo ADR, undo eADR, ...
                        for lg in LOGS:
                            p, v = by[(d, lg)]
                            shown.append(f"{fmt_rate(p)} ({p / v:.2f})"
                                         if p and v else fmt_rate(p))
                    lines.append(f"| {b} | {t} | {s} | {twins} | " +
                                 " | ".join(shown) + " |")
        out.append("\n".join(lines))
    return "\n\n".join(out)


def htm_reason_of(rows, default):
    """Why the findings about HTM cannot be decided on ROWS (an earlier
    run's CSV): by the path its HTM runs took; DEFAULT without such runs."""
    paths = {r.get("htm") for r in rows}
    if "rtm" in paths:
        return None
    return EMULATED if "emulate" in paths else default


def htm_note(sync, rows):
    """For the HTM row: the path its runs took (the rows' `htm` field)."""
    if sync != "HTM":
        return ""
    paths = sorted({r.get("htm") for r in rows if r.get("htm")})
    return f"; PTM_HTM={'/'.join(paths)}" if paths else ""


def report(rows, cells, htm_reason, header):
    grid = Grid(rows, cells)
    lines = ["# Persistence and synchronization: the design grid", "",
             "Generated by `scripts/design_grid.py`; do not edit by hand.",
             "", *header, "",
             "Cells (synchronization x logging): " + "; ".join(
                 f"{s} + {lg}: `{cells[(s, lg)][0]}` (volatile twin "
                 f"`{cells[(s, lg)][1]}`{htm_note(s, rows)})"
                 if (s, lg) in cells else
                 f"{s} + {lg}: {MISSING_CELL.get((s, lg), htm_reason)}"
                 for s in SYNCS for lg in LOGS) + ".",
             "Domains: ADR is the default runtime (every durable store "
             "flushed with clwb, then sfence); eADR is the runtime built "
             "with -DPTM_EADR=ON (no clwb, the sfences stay).",
             "Each cell: median ops/s and, in brackets, its share of the "
             "volatile twin's (1.00 = persistence is free). The twin is the "
             "plain volatile algorithm, without the IP model's "
             "optimizations (coarse-grained logging, no quiescence), so a "
             "persistent STM can exceed it.", "",
             "## The grid", "", grid_tables(grid), "",
             "## The paper's findings", ""]
    for title, v, evidence in findings(grid, htm_reason):
        lines += [f"### {title}", "", f"Verdict: {v}.", ""]
        lines += [f"- {e}" for e in evidence]
        lines.append("")
    failed = [r for r in rows if r["status"] != "ok"]
    if failed:
        lines += ["## Failed runs", ""]
        lines += [f"- {r['bench']}.{r['lib']} ({r['domain']}, "
                  f"latency {r['latency_ns']}) -t {r['threads']}: "
                  f"{r['status']}" for r in failed]
        lines.append("")
    return "\n".join(lines)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    parser = doc_parser(__doc__)
    parser.add_argument("--root", type=pathlib.Path,
                        default=ROOT / "build-grid")
    parser.add_argument("--bench", type=csv_list,
                        default=["bank", "tpcc_hash", "bptree_insert",
                                 "vacation"])
    parser.add_argument("--threads", type=csv_list, default=["1", "2"])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("-d", "--duration", type=float, default=0.5,
                        help="seconds per run (not for STAMP's vacation, "
                        "whose options fix the work)")
    parser.add_argument("--latency", type=int, default=300,
                        help="PTM_NVM_LATENCY_NS of the runs with emulated "
                        "NVM latency (default 300)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--out", type=pathlib.Path,
                        default=ROOT / "results" / "design_grid.md")
    parser.add_argument("--csv", type=pathlib.Path,
                        default=ROOT / "results" / "design_grid_runs.csv")
    parser.add_argument("--from-csv", type=pathlib.Path,
                        help="report on this CSV of an earlier run")
    args = parser.parse_args()
    if args.reps < 1 or args.latency < 1:
        parser.error("--reps and --latency must be at least 1")
    for b in args.bench:
        if b.startswith("-") or "." in b:
            parser.error(f"--bench: '{b}' is not a benchmark name")

    known = libnames()
    htm, htm_reason = htm_path(known, has_rtm())
    cells = {k: v for k, v in CELLS.items() if v[0] in known}
    command = "scripts/design_grid.py " + " ".join(sys.argv[1:])
    if args.from_csv:
        rows = read_csv(args.from_csv)
        htm_reason = htm_reason_of(rows, htm_reason)
        header = [f"- data: `{args.from_csv.name}`, reported with "
                  f"`{command}`"]
        args.out.write_text(report(rows, cells, htm_reason, header))
        print(f"wrote {args.out}")
        return 0

    libs = sorted({lib for lib, _ in cells.values()})
    twins = sorted({t for _, t in cells.values()})
    trees = {"ADR": args.root / "adr", "eADR": args.root / "eadr"}
    if not args.no_build:
        print(f"building {trees['ADR']} and {trees['eADR']} ...",
              file=sys.stderr)
        build(trees["ADR"], False, libs + twins, args.bench, args.jobs)
        build(trees["eADR"], True, libs, args.bench, args.jobs)

    configs = plan_configs(cells, args.latency)
    plan = [(rep, b, int(t), c) for rep in range(args.reps)
            for b in args.bench for t in args.threads for c in configs]
    progress = Progress(len(plan))
    rows, loads, start = [], [load_average()], time.monotonic()
    for rep, b, t, (domain, lat, lib) in plan:
        progress.show(f"{b}.{lib} {domain} {lat} ns -t {t} (rep {rep + 1})")
        tree = trees["eADR" if domain == "eADR" else "ADR"]
        env = dict(os.environ)
        env.pop("PTM_NVM_LATENCY_NS", None)
        if lat:
            env["PTM_NVM_LATENCY_NS"] = str(lat)
        path = htm if lib == CELLS[("HTM", "undo")][0] else ""
        if path:
            env["PTM_HTM"] = path
        extra = STAMP_OPTIONS.get(b, "").split()
        fields = run(tree / "bench" / f"{b}.{lib}", t,
                     ["-d", str(args.duration)], extra, 600, env)
        if (domain == "eADR" and fields.get("status") == "ok"
                and float(fields.get("clwb_per_tx", 0)) != 0):
            fields["status"] = "flushed-under-eADR"
        rows.append({"bench": b, "threads": t, "domain": domain,
                     "latency_ns": lat, "lib": lib, "rep": rep + 1,
                     "htm": path, **fields})
        progress.done += 1
    progress.show("done")
    progress.finish()
    loads.append(load_average())
    write_runs_csv(args.csv, rows, ["bench", "threads", "domain",
                                    "latency_ns", "lib", "rep", "htm",
                                    "status"])
    header = [
        f"- machine: {machine()}; load average {loads[0]} at the start, "
        f"{loads[1]} at the end",
        f"- date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}",
        f"- git revision: {git_revision()}",
        f"- command: `TMPDIR={os.environ.get('TMPDIR', '/tmp')} {command}`",
        f"- {len(rows)} runs in "
        f"{(time.monotonic() - start) / 60:.1f} min, {args.reps} "
        f"repetitions (outermost); each run `<tree>/bench/<bench>.<lib> -t "
        f"THREADS -d {args.duration:g}` (vacation: `-cTHREADS "
        f"{STAMP_OPTIONS['vacation']}`)",
        f"- data: [{args.csv.name}]({args.csv.name})"]
    args.out.write_text(report(rows, cells, htm_reason, header))
    print(f"wrote {args.out} and {args.csv}")
    return 1 if any(r["status"] != "ok" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
