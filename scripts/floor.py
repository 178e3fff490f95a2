#!/usr/bin/env python3
"""The physical floor of a durable transaction, beside the libraries.

    scripts/floor.py [--build build] [--bench bptree_insert,hashset]
                     [--libs ip_orec_lazy,gp_orec_lazy] [--threads 1]
                     [--reps 5] [-d 1] [-- extra benchmark options]

For each benchmark, runs side by side (interleaved, REPS rounds):
`<bench>.baseline` (no instrumentation, one global lock, no persistence),
`<bench>.floor` (benchmarks/floor/floor_policy.h: the same program under one
global lock that at commit flushes every line it wrote and issues one
sfence: what any durable commit must pay on this machine, nothing logged)
and each library. Prints the medians in ns per operation (1e9 / ops_per_s
per thread) and each library's ratio to the floor and to the baseline; the
issue-15 target is lib / floor <= 2 on bptree_insert.
"""
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
                        default=["bptree_insert", "hashset"])
    parser.add_argument("--libs", type=csv_list, default=["ip_orec_lazy"])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("-d", "--duration", type=float, default=1.0)
    args = parser.parse_args(argv)

    bench_dir = pathlib.Path(args.build) / "bench"
    built = available(bench_dir)
    columns = ["baseline", "floor", *args.libs]
    mode = ["-d", str(args.duration)]
    print(f"# {args.threads} thread(s), medians of {args.reps} runs of "
          f"{args.duration:g} s, ns per operation per thread")
    print("| bench | " + " | ".join(columns) + " | " +
          " | ".join(f"{lib} / floor | {lib} / baseline" for lib in args.libs)
          + " |")
    print("|---" * (1 + len(columns) + 2 * len(args.libs)) + "|")
    failed = False
    for bench in args.bench:
        missing = [c for c in columns if c not in built.get(bench, [])]
        if missing:
            sys.exit(f"floor: {bench_dir}/{bench}.{missing[0]} is not built")
        ns = {c: [] for c in columns}
        for _ in range(args.reps):
            for c in columns:
                r = run(bench_dir / f"{bench}.{c}", args.threads, mode, extra,
                        timeout=600)
                if r.get("status") != "ok":
                    failed = True
                    continue
                ns[c].append(1e9 * args.threads / float(r["ops_per_s"]))
        med = {c: statistics.median(v) if v else float("nan")
               for c, v in ns.items()}
        cells = [f"{med[c]:.0f}" for c in columns]
        for lib in args.libs:
            cells += [f"{med[lib] / med['floor']:.2f}",
                      f"{med[lib] / med['baseline']:.2f}"]
        print(f"| {bench} | " + " | ".join(cells) + " |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
