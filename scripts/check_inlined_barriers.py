#!/usr/bin/env python3
"""Checks that no LTO program calls an out-of-line read or write barrier.

Under LTO every __ptm_read_N / __ptm_write_N (N = 1, 2, 4, 8, n) inlines into
the instrumented code (runtime/abi/define_runtime.h), so a program linked
against a library's bitcode archive must contain no call (nor tail jump) to
one. This script disassembles, for every library of Makefile.libnames,

  BUILD/bench/<program>.<lib>   every benchmark built against it (LTO), and
  BUILD/bin/stm_test.<lib>.lto  the stress test, built for every library,

counts the calls to those symbols, lists the offenders and fails if there is
any, or if a library has no LTO program to check. To show that the counting
works, it first requires calls in a program that has them: the shared-library
form of the stress test (BUILD/bin/stm_test.cgl.shared, calls through the
PLT).

With --out-of-line EXE..., it checks the opposite of the named programs,
linked under a small barrier budget (plugin/BarrierBudget.h): each must call
barriers out of line, and the counts are printed.

    scripts/check_inlined_barriers.py [--build BUILD] [--objdump TOOL]
    scripts/check_inlined_barriers.py --out-of-line EXE... [--objdump TOOL]
"""
import argparse
import collections
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# A call or tail jump to a barrier: "call  1234 <__ptm_read_8>" (or @plt).
BARRIER_CALL = re.compile(
    r"\b(?:call|jmp)q?\s+(?:\*?0x)?[0-9a-f]+\s+<(__ptm_(?:read|write)_\w+?)"
    r"(?:@plt)?>")
# Build products in bench/ that are not LTO programs of a library.
NOT_LIBS = {"baseline", "gcctm", "pmdk", "d", "inputs"}


def library_names():
    names = []
    for line in (ROOT / "Makefile.libnames").read_text().splitlines():
        if line.startswith("LIBNAMES +="):
            names += line.split("+=", 1)[1].split()
    return names


def barrier_calls(objdump, exe):
    """Counter of barrier symbol -> calls in EXE."""
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", str(exe)],
                         check=True, capture_output=True, text=True).stdout
    return collections.Counter(m.group(1) for m in BARRIER_CALL.finditer(out))


def programs(build, libs):
    """Library -> its LTO programs in BUILD."""
    found = {lib: [] for lib in libs}
    bench = build / "bench"
    if bench.is_dir():
        for exe in sorted(bench.iterdir()):
            lib = exe.name.split(".", 1)[-1]
            if "." in exe.name and lib in found and exe.is_file():
                found[lib].append(exe)
    for lib in libs:
        stm = build / "bin" / f"stm_test.{lib}.lto"
        if stm.is_file():
            found[lib].append(stm)
    return found


def check_out_of_line(objdump, exes):
    """Every program of EXES calls barriers out of line: 0, else 1."""
    failed = False
    for exe in exes:
        calls = sum(barrier_calls(objdump, exe).values())
        print(f"{exe}: {calls} out-of-line barrier calls"
              f"{'' if calls else ' (FAIL: expected some)'}")
        failed |= calls == 0
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=str(ROOT / "build"),
                    help="build directory (default: build/)")
    ap.add_argument("--objdump", default=None,
                    help="disassembler (default: llvm-objdump-19, objdump)")
    ap.add_argument("--out-of-line", nargs="+", metavar="EXE", default=None,
                    help="programs that must call barriers out of line")
    args = ap.parse_args()
    build = pathlib.Path(args.build).resolve()
    objdump = args.objdump or shutil.which("llvm-objdump-19") or \
        shutil.which("objdump")
    if not objdump:
        sys.exit("check_inlined_barriers: no objdump (llvm-objdump-19, objdump)")
    if args.out_of_line:
        return check_out_of_line(objdump, args.out_of_line)

    probe = build / "bin" / "stm_test.cgl.shared"
    if not probe.is_file():
        sys.exit(f"check_inlined_barriers: {probe} missing (build first)")
    if sum(barrier_calls(objdump, probe).values()) == 0:
        sys.exit(f"check_inlined_barriers: no barrier call found in {probe}, "
                 "which calls them through the PLT: the counting is broken")

    libs = library_names()
    found = programs(build, libs)
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        counted = dict(zip(
            [exe for exes in found.values() for exe in exes],
            pool.map(lambda exe: barrier_calls(objdump, exe),
                     [exe for exes in found.values() for exe in exes])))
    failed = False
    total = 0
    for lib, exes in found.items():
        if not exes:
            print(f"{lib}: FAIL, no LTO program of this library in {build}")
            failed = True
            continue
        offenders = [(exe, counted[exe]) for exe in exes if counted[exe]]
        total += len(exes)
        if not offenders:
            print(f"{lib}: ok, {len(exes)} programs, no barrier call")
            continue
        failed = True
        print(f"{lib}: FAIL, barrier calls in {len(offenders)} of "
              f"{len(exes)} programs:")
        for exe, calls in offenders:
            listed = ", ".join(f"{n} x {sym}" for sym, n in sorted(calls.items()))
            print(f"  {exe.relative_to(build)}: {listed}")
    print(f"check_inlined_barriers: {len(libs)} libraries, {total} programs: "
          f"{'FAIL' if failed else 'ok'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
