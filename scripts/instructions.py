#!/usr/bin/env python3
"""Instructions per operation, counted by valgrind's callgrind.

    scripts/instructions.py [--build [LABEL=]DIR ...] [--bench bptree_insert]
                            [--libs baseline,cgl,ip_orec_lazy] [-n 100000]
                            [--top 12] [-- extra benchmark options]

A machine-independent measure of the volatile work a library adds: each
`<bench>.<lib>` of each build runs once with -n N and once with -n 2N (one
thread) under `valgrind --tool=callgrind`, and the difference of the two
counts, divided by N, is the instructions per operation without the
program's fixed set-up (its final check, which grows with the data, stays:
e.g. bptree_insert's check_node, a few dozen per operation). Prints one table of the totals and, per program,
the functions with the most instructions of their own per operation (the
same difference, function by function; inlined code counts in its caller).
Valgrind cannot read the DWARF 5 debug information of clang 19, so each
program runs as a copy with its debug information stripped (`strip -g`;
the symbols stay). The counts do not depend on the machine's speed or load,
so two builds compare in separate runs too; they say nothing about cache
misses or flushes (run scripts/bench.py for time). A build tree made with
Ninja gets each program brought up to date first (`ninja -C DIR
bench/<bench>.<lib>`): txcost's are not in the default target, and an old
binary would be counted silently.
"""
import collections
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench import parse_build, parse_result  # noqa: E402
from sweeplib import ROOT, csv_list, doc_parser, split_extra  # noqa: E402

FN_LINE = re.compile(r"c?fn=\((\d+)\)(?: (.*))?")


def self_costs(path):
    """{function: instructions of its own} from a callgrind output file
    (name compression: a name is given once, at the first `fn=(id)` or
    `cfn=(id)` that uses the id; the cost line after `calls=` is the call's
    inclusive cost and is not the caller's own)."""
    names, costs = {}, collections.Counter()
    current, after_call = None, False
    for line in pathlib.Path(path).read_text().splitlines():
        m = FN_LINE.match(line)
        if m:
            if m.group(2):
                names[m.group(1)] = m.group(2).strip()
            if line.startswith("fn="):
                current = names.get(m.group(1), m.group(1))
            continue
        if line.startswith("calls="):
            after_call = True
            continue
        if not line or not (line[0].isdigit() or line[0] in "+-*"):
            continue
        if after_call:
            after_call = False
            continue
        fields = line.split()
        costs[current] += int(fields[-1])
    return costs


def count(exe, n, extra, workdir):
    """({function: own instructions}, RESULT fields) of EXE -n N."""
    out = pathlib.Path(workdir) / f"callgrind.{exe.name}.{n}"
    cmd = ["valgrind", "--tool=callgrind", "--dump-line=no",
           f"--callgrind-out-file={out}", str(exe), "-t", "1", "-n", str(n),
           *extra]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    result = parse_result(r.stdout)
    if r.returncode != 0 or result is None:
        sys.exit(f"instructions: {' '.join(cmd)} failed:\n{r.stderr[-2000:]}")
    return self_costs(out), result


def bring_up_to_date(build, target):
    """Builds TARGET in BUILD when it is a Ninja tree: the runtime may have
    changed since, and txcost's programs are not in the default target."""
    if (build / "build.ninja").is_file() and shutil.which("ninja"):
        subprocess.run(["ninja", "-C", str(build), target],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def short(name, width=90):
    return name if len(name) <= width else name[:width - 3] + "..."


def main():
    argv, extra = split_extra(sys.argv[1:])
    parser = doc_parser(__doc__)
    parser.add_argument("--build", type=parse_build, action="append")
    parser.add_argument("--bench", default="bptree_insert")
    parser.add_argument("--libs", type=csv_list,
                        default=["baseline", "cgl", "ip_orec_lazy"])
    parser.add_argument("-n", type=int, default=100000)
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args(argv)
    if args.n <= 0:
        parser.error("-n must be positive")
    if shutil.which("valgrind") is None:
        sys.exit("instructions: valgrind is not installed "
                 "(scripts/install-deps.sh)")
    builds = args.build or [("build", ROOT / "build")]

    rows, tops = [], []
    with tempfile.TemporaryDirectory() as work:
        for label, build in builds:
            for lib in args.libs:
                exe = build / "bench" / f"{args.bench}.{lib}"
                bring_up_to_date(build, f"bench/{exe.name}")
                if not exe.is_file():
                    sys.exit(f"instructions: {exe} is not built")
                copy = pathlib.Path(work) / f"{label}.{exe.name}"
                subprocess.run(["strip", "-g", "-o", str(copy), str(exe)],
                               check=True)
                one, r1 = count(copy, args.n, extra, work)
                two, _ = count(copy, 2 * args.n, extra, work)
                per_op = {f: (two[f] - one[f]) / args.n
                          for f in set(one) | set(two)}
                total = sum(per_op.values())
                rows.append((label, lib, total,
                             float(r1.get("clwb_per_tx", 0)),
                             float(r1.get("sfence_per_tx", 0))))
                top = sorted(per_op.items(), key=lambda kv: -kv[1])
                tops.append((label, lib, top[:args.top]))

    print(f"# {args.bench}, 1 thread, instructions per operation: "
          f"(count at -n {2 * args.n} - count at -n {args.n}) / {args.n}, "
          "valgrind --tool=callgrind")
    print("| build | lib | instructions per op | clwb/tx | sfence/tx |")
    print("|---|---|---:|---:|---:|")
    for label, lib, total, clwb, sfence in rows:
        print(f"| {label} | {lib} | {total:,.0f} | {clwb:.2f} | "
              f"{sfence:.2f} |")
    for label, lib, top in tops:
        print(f"\n## {label}: {args.bench}.{lib}, own instructions per op\n")
        print("| function | instructions |")
        print("|---|---:|")
        for name, n in top:
            print(f"| `{short(name)}` | {n:,.0f} |")


if __name__ == "__main__":
    main()
