#!/usr/bin/env python3
"""Buffered durability beside strict durability and the volatile peers.

    scripts/buffered.py [--build build] [--bench bptree_insert,tpcc_hash]
                        [--libs ip_orec_lazy,gp_orec_lazy] [--threads 1]
                        [--reps 5] [-d 1] [--interval MS]
                        [-- extra benchmark options]

For each benchmark, runs side by side (interleaved, REPS rounds):
`<bench>.baseline` (no instrumentation), `<bench>.cgl` (the volatile STM
under one global lock), and each library twice, under PTM_DURABILITY=strict
and PTM_DURABILITY=buffered[:MS] (docs/durability.md). Prints the medians in
operations per second and, per library, buffered / strict and buffered /
cgl (the issue-15 target: >= 0.7 on tpcc_hash and bptree_insert at 1
thread), with the committing threads' sfence per transaction of each mode.
"""
import os
import pathlib
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench import available, run  # noqa: E402
from sweeplib import ROOT, csv_list, doc_parser, split_extra  # noqa: E402


def main():
    argv, extra = split_extra(sys.argv[1:])
    parser = doc_parser(__doc__)
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--bench", type=csv_list,
                        default=["bptree_insert", "tpcc_hash"])
    parser.add_argument("--libs", type=csv_list,
                        default=["ip_orec_lazy", "gp_orec_lazy"])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("-d", "--duration", type=float, default=1.0)
    parser.add_argument("--interval", type=int, default=0,
                        help="buffered:MS (default: the runtime's 10 ms)")
    args = parser.parse_args(argv)

    buffered = f"buffered:{args.interval}" if args.interval else "buffered"
    modes = {"strict": "strict", "buffered": buffered}
    bench_dir = pathlib.Path(args.build) / "bench"
    built = available(bench_dir)
    runs = [("baseline", "baseline", None), ("cgl", "cgl", None)]
    runs += [(f"{lib} {m}", lib, v) for lib in args.libs
             for m, v in modes.items()]
    mode = ["-d", str(args.duration)]
    print(f"# {args.threads} thread(s), medians of {args.reps} runs of "
          f"{args.duration:g} s, operations per second; buffered = "
          f"PTM_DURABILITY={buffered}")
    print("| bench | " + " | ".join(label for label, _, _ in runs) + " | " +
          " | ".join(f"{lib} buffered / strict | {lib} buffered / cgl | "
                     f"{lib} sfence/tx strict, buffered"
                     for lib in args.libs) + " |")
    print("|---" * (1 + len(runs) + 3 * len(args.libs)) + "|")
    failed = False
    for bench in args.bench:
        missing = [lib for _, lib, _ in runs
                   if lib not in built.get(bench, [])]
        if missing:
            sys.exit(f"buffered: {bench_dir}/{bench}.{missing[0]} is not built")
        ops = {label: [] for label, _, _ in runs}
        fences = {label: [] for label, _, _ in runs}
        for _ in range(args.reps):
            for label, lib, durability in runs:
                env = dict(os.environ)
                if durability:
                    env["PTM_DURABILITY"] = durability
                r = run(bench_dir / f"{bench}.{lib}", args.threads, mode,
                        extra, timeout=600, env=env)
                if r.get("status") != "ok":
                    failed = True
                    continue
                ops[label].append(float(r["ops_per_s"]))
                fences[label].append(float(r.get("sfence_per_tx", "nan")))
        med = {k: statistics.median(v) if v else float("nan")
               for k, v in ops.items()}
        cells = [f"{med[label]:.0f}" for label, _, _ in runs]
        for lib in args.libs:
            strict, buf = med[f"{lib} strict"], med[f"{lib} buffered"]
            f_strict = statistics.median(fences[f"{lib} strict"] or [0])
            f_buf = statistics.median(fences[f"{lib} buffered"] or [0])
            cells += [f"{buf / strict:.2f}", f"{buf / med['cgl']:.2f}",
                      f"{f_strict:.2f}, {f_buf:.2f}"]
        print(f"| {bench} | " + " | ".join(cells) + " |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
