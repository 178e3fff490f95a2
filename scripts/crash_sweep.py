#!/usr/bin/env python3
"""Crash-simulator sweep over every persistent library (docs/crash_simulator.md).

For every p_/gp_/ip_ library of Makefile.libnames (or --libs) and every
workload, runs `<build>/bin/crash_test.<lib> sweep <workload>`: one run per
crash point (by default every persistence event of a run of --ops
transactions), images in modes none, all and random, each recovered (also
after a crash inside its recovery with --recovery) and checked. Then the
mutation check: the same sweep on a deliberately broken persistence layer
(PTM_CRASH_MUTATE) must find at least one violation.

    scripts/crash_sweep.py [--build build] [--libs all|p_cgl_lazy,...]
        [--workloads bank,list,btree,alloc] [--ops 50] [--points all|K]
        [--modes none,all,random] [--seeds K] [--recovery all|K] [-j N]
        [--threads T] [--buffered K] [--mutations LIB=SPEC,...] [--work DIR]

With --threads T (1..8) every run, the mutation runs included, deals its
operations to T threads and the recovered state is checked against the
commit order (docs/crash_simulator.md); the events of a run then depend on
the schedule, so a point past the end of a run is counted as not reached.

With --buffered K every run is under buffered durability, each thread
calling ptm_sync after every K of its operations (docs/crash_simulator.md,
"Buffered durability"); --libs all then means the libraries that offer the
mode, and the default seeded bugs are the persister's.

Prints progress on stderr, every violation with the command that reproduces
it, and a table: library, crash points tried, cases, images recovered,
crashes inside recovery, invariant violations, harness errors (a child or
ptm-pool could not run), points a run did not reach; then which seeded bugs
were caught. Exit 0 iff there is no violation and every mutation was caught.
"""
import argparse
import concurrent.futures
import pathlib
import re
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sweeplib import csv_list, libnames, parse_tagged  # noqa: E402

# Fences and flushes the commit protocols need (docs/crash_simulator.md).
DEFAULT_MUTATIONS = ("p_cgl_eager=drop-fence:2,p_cgl_eager=drop-clwb:1,"
                     "p_cgl_lazy=drop-fence:1,p_cgl_lazy=drop-clwb:3")
# The persister's record (buffered durability).
BUFFERED_MUTATIONS = ("ip_orec_lazy=drop-fence:1,ip_orec_lazy=drop-fence:2,"
                      "ip_orec_lazy=drop-clwb:1")


def persistent_libs():
    """The p_/gp_/ip_ names of Makefile.libnames, in file order."""
    return [n for n in libnames() if re.match(r"^((p|gp|ip)_|crafty$|sp3$)", n)]


def run_sweep(exe, workload, args, work, mutation):
    cmd = [str(exe), "sweep", workload, "--dir", str(work),
           "--pool-tool", str(args.pool_tool),
           "--threads", str(args.threads)]
    if args.buffered is not None:
        cmd += ["--buffered", str(args.buffered)]
    if mutation:
        cmd += ["--ops", "10", "--points", "all", "--modes", "random",
                "--seeds", "4", "--mutate", mutation, "--expect-violations"]
    else:
        cmd += ["--ops", str(args.ops), "--points", args.points,
                "--modes", args.modes, "--seeds", str(args.seeds),
                "--recovery", args.recovery]
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return cmd, p, time.monotonic() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="build directory")
    ap.add_argument("--libs", default="all")
    ap.add_argument("--workloads", default="bank,list,btree,alloc")
    ap.add_argument("--ops", type=int, default=50)
    ap.add_argument("--points", default="all", help="all, or K per sweep")
    ap.add_argument("--modes", default="none,all,random")
    ap.add_argument("--seeds", type=int, default=2,
                    help="random-mode seeds per crash point")
    ap.add_argument("--recovery", default="1",
                    help="crash points inside each image's recovery (all|K)")
    ap.add_argument("--buffered", type=int, default=None, metavar="K",
                    help="buffered durability, ptm_sync every K operations "
                         "of a thread")
    ap.add_argument("--mutations", default=None,
                    help="seeded bugs LIB=SPEC (PTM_CRASH_MUTATE), each run "
                         "on bank (10 operations, every event, 4 random "
                         "seeds) until a violation; '' for none (default: "
                         "the commit protocols', or with --buffered the "
                         "persister's)")
    ap.add_argument("--work", default=None,
                    help="work directory (default <build>/crash-sweep)")
    ap.add_argument("--threads", type=int, default=1,
                    help="threads per run (1..8), the mutation runs too")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    args = ap.parse_args()
    if not 1 <= args.threads <= 8:
        sys.exit(f"crash_sweep: --threads wants 1..8, not {args.threads}")
    if args.jobs < 1:
        sys.exit(f"crash_sweep: -j wants at least 1, not {args.jobs}")

    build = pathlib.Path(args.build).resolve()
    work = pathlib.Path(args.work) if args.work else build / "crash-sweep"
    args.pool_tool = build / "bin" / "ptm-pool"
    if not args.pool_tool.exists():
        sys.exit(f"crash_sweep: {args.pool_tool} is missing (build ptm-pool)")
    if args.buffered is not None and args.buffered < 0:
        sys.exit(f"crash_sweep: --buffered wants K >= 0, not {args.buffered}")
    if args.mutations is None:
        args.mutations = (DEFAULT_MUTATIONS if args.buffered is None
                          else BUFFERED_MUTATIONS)
    libs = persistent_libs() if args.libs == "all" else csv_list(args.libs)
    if args.buffered is not None and args.libs == "all":
        # the libraries that offer buffered durability, as the build says
        config = build / "bin" / "ptm-config"
        offer = subprocess.run([str(config), "--buffered"],
                               capture_output=True, text=True,
                               check=True).stdout.split()
        libs = [lib for lib in libs if lib in offer]
    for lib in libs:
        if not (build / "bin" / f"crash_test.{lib}").exists():
            sys.exit(f"crash_sweep: {build}/bin/crash_test.{lib} is missing "
                     f"(ninja -C {args.build} crash_test.{lib})")
    workloads = csv_list(args.workloads)

    jobs = [(lib, w, None) for lib in libs for w in workloads]
    mutations = []
    for item in csv_list(args.mutations):
        lib, sep, spec = item.partition("=")
        if not sep or not spec:
            sys.exit(f"crash_sweep: --mutations wants LIB=SPEC, not '{item}'")
        if lib in libs:
            mutations.append((lib, spec))
    jobs += [(lib, "bank", m) for lib, m in mutations]

    results = {}
    violations = []
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {}
        for lib, w, m in jobs:
            exe = build / "bin" / f"crash_test.{lib}"
            tag = (f"{lib}-{w}" + (f"-{m.replace(':', '')}" if m else "")
                   + (f"-t{args.threads}" if args.threads > 1 else "")
                   + ("-buffered" if args.buffered is not None else ""))
            futures[pool.submit(run_sweep, exe, w, args, work / tag,
                                m)] = (lib, w, m)
        for n, f in enumerate(concurrent.futures.as_completed(futures), 1):
            lib, w, m = futures[f]
            cmd, p, secs = f.result()
            s = parse_tagged(p.stdout, "SUMMARY")
            results[(lib, w, m)] = (s, p.returncode, cmd, p.stdout)
            if not m:
                violations += [l for l in p.stdout.splitlines()
                               if l.startswith(("VIOLATION", "ERROR",
                                                "  reproduce:"))]
            state = ("no summary" if not s else
                     f"points={s['points']} violations={s['violations']}")
            elapsed = time.monotonic() - start
            print(f"[{n}/{len(jobs)}] {lib} {w}{' ' + m if m else ''}: "
                  f"{state} ({secs:.1f}s; {elapsed:.0f}s elapsed, "
                  f"~{elapsed / n * (len(jobs) - n):.0f}s left)",
                  file=sys.stderr, flush=True)

    ok = True
    print(f"\nCrash sweep: {args.ops} operations per run, "
          f"{args.threads} thread{'s' if args.threads > 1 else ''}, points "
          f"{args.points}, modes {args.modes}, {args.seeds} random seed(s), "
          f"recovery crashes {args.recovery}, durability "
          + ("strict" if args.buffered is None else
             f"buffered (ptm_sync every {args.buffered} operations of a "
             "thread)") + "\n")
    print("| library | crash points tried | cases | images recovered "
          "| recovery crashes | invariant violations | harness errors "
          "| not reached |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    total = [0] * 7
    for lib in libs:
        row = [0] * 7
        for w in workloads:
            s, rc, cmd, out = results[(lib, w, None)]
            if not s or rc != 0:
                ok = False
            if not s:
                print(f"crash_sweep: {' '.join(cmd)} printed no summary "
                      f"(status {rc})", file=sys.stderr)
                continue
            row[0] += int(s["points"])
            row[1] += int(s["cases"])
            row[2] += int(s["recovered"])
            row[3] += int(s["recovery_crashes"])
            row[4] += int(s["violations"])
            row[5] += int(s["errors"])
            row[6] += int(s["not_reached"])
        total = [a + b for a, b in zip(total, row)]
        print(f"| {lib} | " + " | ".join(str(x) for x in row) + " |")
    print("| **total** | " + " | ".join(str(x) for x in total) + " |")

    if violations:
        ok = False
        print("\nViolations:")
        for line in violations:
            print(line)

    if mutations:
        print("\nSeeded bugs (PTM_CRASH_MUTATE; must be caught):\n")
        print("| mutation | library | caught | first violation |")
        print("|---|---|---|---|")
        for lib, m in mutations:
            s, rc, cmd, out = results[(lib, "bank", m)]
            first = next((l for l in out.splitlines()
                          if l.startswith("VIOLATION")), "")
            at = re.search(r"at=(\d+) mode=(\w+) seed=(\d+)", first)
            where = (f"event {at.group(1)}, {at.group(2)} seed "
                     f"{at.group(3)}" if at else "-")
            caught = rc == 0 and s and int(s["violations"]) > 0
            ok &= bool(caught)
            print(f"| {m} | {lib} | {'yes' if caught else 'NO'} | "
                  f"{where} |")
    print(f"\n{'PASS' if ok else 'FAIL'} "
          f"({time.monotonic() - start:.0f}s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
