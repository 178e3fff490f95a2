#!/usr/bin/env python3
"""A/B of each optimization of the paper (Tables II-V), measured in one run.

For every optimization, builds the libraries it applies to twice, with the
optimization on (all options ON) and off (its PTM_OPT_<NAME>=OFF alone), in
build trees under --root, and runs the same benchmark against both, A and B
back to back in every repetition (alternating which goes first), so that the
machine's drift affects both alike. Prints, per optimization, benchmark,
library and thread count: median throughput on and off, the median of the
paired on/off ratios (the speedup), and flushes and fences per transaction.

    scripts/ablation.py [--opts last_alloc,coarse_log] [--bench bank]
                        [--threads 1] [--reps 5] [-d 1 | -n OPS]
                        [--root build-ablate] [--csv out.csv] [-- -w 4]

Arguments after `--` go to every benchmark. The libraries of an optimization
are those the paper measures it on (docs/algorithms.md, "Ablation builds");
libraries missing from Makefile.libnames are skipped with a note.
"""
import pathlib
import statistics
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench import Progress, parse_result  # noqa: E402
from sweeplib import (ROOT, csv_list, doc_parser, libnames,  # noqa: E402
                      split_extra, write_runs_csv)

ALGS = ["cgl_eager", "cgl_lazy", "orec_eager", "orec_lazy", "orec_mixed",
        "norec", "tlrw", "ring"]
LAZY = ["cgl_lazy", "orec_lazy", "orec_mixed", "norec", "ring"]

# optimization -> (CMake option, paper table, libraries it is measured on)
OPTIMIZATIONS = {
    "last_alloc": ("PTM_OPT_LAST_ALLOC", "II", [f"gp_{a}" for a in ALGS]),
    "coarse_log": ("PTM_OPT_COARSE_LOG", "III", [f"ip_{a}" for a in ALGS]),
    "fence_pipeline": ("PTM_OPT_FENCE_PIPELINE", "IV", ["gp_tlrw"]),
    "deferred_flush": ("PTM_OPT_DEFERRED_FLUSH", "V", [f"gp_{a}" for a in LAZY]),
    "sealed_log": ("PTM_OPT_SEALED_LOG", "(ours)", [f"ip_{a}" for a in ALGS]),
    "log_ring": ("PTM_OPT_LOG_RING", "(ours)", [f"ip_{a}" for a in LAZY]),
    "log_stage": ("PTM_OPT_LOG_STAGE", "(ours)", [f"ip_{a}" for a in LAZY]),
    "skip_rewritten": ("PTM_OPT_SKIP_REWRITTEN", "(ours)",
                       [f"ip_{a}" for a in LAZY]),
    "no_quiesce": ("PTM_OPT_NO_QUIESCE", "(V, IP model)",
                   ["ip_orec_eager", "ip_orec_lazy", "ip_orec_mixed"]),
    "solo": ("PTM_OPT_SOLO", "(ours)",
             ["gp_orec_lazy", "ip_orec_lazy", "ip_cgl_lazy"]),
    "parked_frees": ("PTM_OPT_PARKED_FREES", "(ours)",
                     ["ip_cgl_lazy", "ip_orec_lazy", "gp_orec_lazy"]),
}


def build(tree, cmake_defs, libs, benches, jobs):
    """Configures TREE with CMAKE_DEFS and builds BENCH.LIB for each pair."""
    defs = [f"-D{k}={v}" for k, v in cmake_defs.items()]
    defs.append(f"-DPTM_BENCH_LIBS={';'.join(libs)}")
    subprocess.run(["cmake", "-G", "Ninja", "-S", str(ROOT), "-B", str(tree),
                    "-DCMAKE_BUILD_TYPE=Release", *defs],
                   check=True, stdout=subprocess.DEVNULL)
    targets = [f"bench_{b}.{lib}" for b in benches for lib in libs]
    subprocess.run(["ninja", "-C", str(tree), f"-j{jobs}", *targets],
                   check=True, stdout=subprocess.DEVNULL)


def run(exe, threads, mode, extra):
    cmd = [str(exe), "-t", str(threads), *mode, *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    fields = parse_result(proc.stdout)
    if proc.returncode != 0 or fields is None:
        raise SystemExit(f"{' '.join(cmd)}: exit {proc.returncode}\n"
                         f"{proc.stderr[-2000:]}")
    return fields


def table(rows):
    groups = {}
    for r in rows:
        key = (r["opt"], r["bench"], r["lib"], r["threads"])
        groups.setdefault(key, {"on": [], "off": []})[r["variant"]].append(r)
    lines = ["| optimization (paper table) | bench | lib | threads | "
             "on ops/s | off ops/s | speedup | clwb/tx on/off | "
             "sfence/tx on/off | reps |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for (opt, bench, lib, threads), runs in groups.items():
        on, off = runs["on"], runs["off"]
        ratios = [float(a["ops_per_s"]) / float(b["ops_per_s"])
                  for a, b in zip(on, off)]

        def med(rs, key):
            return statistics.median(float(r[key]) for r in rs)

        lines.append(
            f"| {opt} ({OPTIMIZATIONS[opt][1]}) | {bench} | {lib} | {threads} "
            f"| {med(on, 'ops_per_s'):,.0f} | {med(off, 'ops_per_s'):,.0f} | "
            f"{statistics.median(ratios):.3f} "
            f"| {med(on, 'clwb_per_tx'):.2f} / {med(off, 'clwb_per_tx'):.2f} "
            f"| {med(on, 'sfence_per_tx'):.2f} / "
            f"{med(off, 'sfence_per_tx'):.2f} | {len(ratios)} |")
    return "\n".join(lines)


def main():
    argv, extra = split_extra(sys.argv[1:])
    parser = doc_parser(__doc__)
    parser.add_argument("--opts", type=csv_list, default=list(OPTIMIZATIONS),
                        help="optimizations (default: all): " +
                        ", ".join(OPTIMIZATIONS))
    parser.add_argument("--libs", type=csv_list,
                        help="restrict to these libraries")
    parser.add_argument("--bench", type=csv_list, default=["bank"])
    parser.add_argument("--threads", type=csv_list, default=["1"])
    parser.add_argument("--reps", type=int, default=5)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("-d", "--duration", type=float,
                      help="seconds per run (default 1)")
    mode.add_argument("-n", "--ops", type=int, help="operations per thread")
    parser.add_argument("--root", type=pathlib.Path,
                        default=ROOT / "build-ablate",
                        help="where the build trees go")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-build", action="store_true",
                        help="use the trees under --root as they are")
    parser.add_argument("--build-only", action="store_true",
                        help="build the trees, measure nothing")
    parser.add_argument("--csv", type=pathlib.Path)
    args = parser.parse_args(argv)
    for opt in args.opts:
        if opt not in OPTIMIZATIONS:
            parser.error(f"unknown optimization '{opt}' "
                         f"(known: {', '.join(OPTIMIZATIONS)})")
    if args.reps < 1:
        parser.error("--reps must be at least 1")

    known = libnames()
    plan_libs = {}
    for opt in args.opts:
        libs = [lib for lib in OPTIMIZATIONS[opt][2]
                if not args.libs or lib in args.libs]
        missing = [lib for lib in libs if lib not in known]
        if missing:
            print(f"note: {opt}: not in Makefile.libnames, skipped: "
                  f"{', '.join(missing)}", file=sys.stderr)
        libs = [lib for lib in libs if lib in known]
        if libs:
            plan_libs[opt] = libs
    if not plan_libs:
        parser.error("nothing to measure")

    on_tree = args.root / "on"
    if not args.no_build:
        all_libs = sorted({lib for libs in plan_libs.values() for lib in libs})
        print(f"building {on_tree} ...", file=sys.stderr)
        build(on_tree, {}, all_libs, args.bench, args.jobs)
        for opt, libs in plan_libs.items():
            tree = args.root / f"{opt}-off"
            print(f"building {tree} ...", file=sys.stderr)
            build(tree, {OPTIMIZATIONS[opt][0]: "OFF"}, libs, args.bench,
                  args.jobs)

    if args.build_only:
        return 0
    mode = (["-n", str(args.ops)] if args.ops else
            ["-d", str(args.duration or 1)])
    plan = [(rep, opt, b, lib, int(t)) for rep in range(args.reps)
            for opt, libs in plan_libs.items() for lib in libs
            for b in args.bench for t in args.threads]
    progress = Progress(len(plan))
    rows = []
    for rep, opt, b, lib, t in plan:
        progress.show(f"{opt}: {b}.{lib} -t {t} (rep {rep + 1})")
        order = ["on", "off"] if rep % 2 == 0 else ["off", "on"]
        for variant in order:
            tree = on_tree if variant == "on" else args.root / f"{opt}-off"
            fields = run(tree / "bench" / f"{b}.{lib}", t, mode, extra)
            rows.append({"opt": opt, "variant": variant, "bench": b,
                         "lib": lib, "threads": t, "rep": rep + 1, **fields})
        progress.done += 1
    progress.show("done")
    progress.finish()

    if args.csv:
        write_runs_csv(args.csv, rows,
                       ["opt", "variant", "bench", "lib", "threads", "rep"])
    print(f"command: {' '.join(sys.argv)}\n")
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
