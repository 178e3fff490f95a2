#!/usr/bin/env python3
"""The standard-library matrix: C++ containers and C libc programs inside
transactions with every ptm library, at 1, 2 and 4 threads.

Programs (test/e2e): stdcxx.cpp (std::map, set, multimap, unordered_map,
list, deque, vector, string, optional, variant, function; serial replay in
commit order), libc_more.c (rand_r, strto*, qsort/bsearch, snprintf,
strtok_r, math; threads on a shared counter) and libc.c (string functions,
one thread). Each source is compiled once with the plugin into LTO bitcode
and linked against each library's bitcode archive (bin/ptm-config). Every run
has PTM_UNSUPPORTED=error: a call without a transactional version fails the
run instead of serializing. With --sweeps, the test runtime's abort-injection
runs of stdcxx (the CMake targets e2e_stdcxx.testrt-O0/-O2) are added.

Usage: scripts/stdlib_matrix.py [--build build] [--libs a,b] [--ops N]
                                [--threads 1,2,4] [--jobs 2] [--sweeps]
Prints one row per library and exits non-zero if any run failed. Needs the
libraries built (the `all` target, or build/lib/libptm_NAME.a for each NAME).
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
E2E = os.path.join(ROOT, "test", "e2e")


def sh(cmd, env=None, timeout=600):
    return subprocess.run(cmd, env=env, timeout=timeout, capture_output=True,
                          text=True)


class Matrix:
    def __init__(self, args):
        self.args = args
        self.build = os.path.abspath(args.build)
        self.config = os.path.join(self.build, "bin", "ptm-config")
        self.tmp = tempfile.mkdtemp(prefix="ptm-stdlib-")

    def flags(self, *what):
        out = sh([self.config, *what])
        if out.returncode != 0:
            sys.exit(f"ptm-config {' '.join(what)}: {out.stderr.strip()}")
        return out.stdout.split()

    def compile(self, src, cxx):
        obj = os.path.join(self.tmp, os.path.basename(src) + ".o")
        cc = "clang++-19" if cxx else "clang-19"
        std = ["-std=c++17"] if cxx else []
        out = sh([cc, *std, *self.flags("--cflags"), "-I", E2E, "-O2", "-g",
                  "-flto", "-c", src, "-o", obj])
        if out.returncode != 0:
            sys.exit(f"compiling {src}:\n{out.stderr}")
        return obj

    def link(self, obj, lib):
        exe = f"{obj[:-2]}.{lib}"
        out = sh(["clang++-19", obj, *self.flags("--ldflags", lib), "-o", exe])
        return exe if out.returncode == 0 else None

    def run(self, exe, argv, extra_env=None):
        if exe is None:
            return "link"
        env = dict(os.environ, PTM_UNSUPPORTED="error")
        env.update(extra_env or {})
        try:
            out = sh([exe, *argv], env=env, timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            return "timeout"
        if out.returncode == 0 and ": OK" in out.stdout:
            return "ok"
        first = (out.stderr.strip().splitlines() or ["?"])[0]
        sys.stderr.write(f"{os.path.basename(exe)} {' '.join(argv)}: "
                         f"exit {out.returncode}: {first}\n")
        return "FAIL"

    def row(self, lib, objs):
        threads = self.args.threads
        cells = []
        exe = self.link(objs["stdcxx"], lib)
        cells += [self.run(exe, [str(t), str(self.args.ops)]) for t in threads]
        exe = self.link(objs["libc_more"], lib)
        cells += [self.run(exe, [str(t), str(self.args.ops * 10)])
                  for t in threads]
        exe = self.link(objs["libc"], lib)
        cells.append(self.run(exe, []))
        return lib, cells

    def sweeps(self):
        rows = []
        for variant in ("testrt-O0", "testrt-O2"):
            exe = os.path.join(self.build, "bin", f"e2e_stdcxx.{variant}")
            if not os.path.exists(exe):
                continue
            cells = []
            for sweep in ("1", "3"):
                for t in ("1", "2"):
                    cells.append(self.run(exe, [t, "100"],
                                          {"PTM_TEST_ABORT_SWEEP": sweep}))
            rows.append((variant, cells))
        return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--libs", help="comma-separated (default: every library)")
    ap.add_argument("--threads", default="1,2,4")
    ap.add_argument("--ops", type=int, default=1000,
                    help="stdcxx operations per thread per phase")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--sweeps", action="store_true")
    args = ap.parse_args()
    args.threads = [int(t) for t in args.threads.split(",")]

    m = Matrix(args)
    libs = (args.libs.split(",") if args.libs
            else m.flags("--list"))
    objs = {
        "stdcxx": m.compile(os.path.join(E2E, "stdcxx.cpp"), True),
        "libc_more": m.compile(os.path.join(E2E, "libc_more.c"), False),
        "libc": m.compile(os.path.join(E2E, "libc.c"), False),
    }
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda lib: m.row(lib, objs), libs))

    ts = args.threads
    head = (["library"] + [f"stdcxx t{t}" for t in ts] +
            [f"libc_more t{t}" for t in ts] + ["libc"])
    width = max(len(lib) for lib in libs + ["library"])
    print(" | ".join([head[0].ljust(width)] + head[1:]))
    print("-|-".join(["-" * width] + ["-" * len(h) for h in head[1:]]))
    failed = 0
    for lib, cells in rows:
        failed += sum(c != "ok" for c in cells)
        print(" | ".join([lib.ljust(width)] +
                         [c.ljust(len(h)) for c, h in zip(cells, head[1:])]))
    if args.sweeps:
        print()
        print("abort injection (test runtime), stdcxx 100 operations: "
              "sweep1 t1 | sweep1 t2 | sweep3 t1 | sweep3 t2")
        for variant, cells in m.sweeps():
            failed += sum(c != "ok" for c in cells)
            print(f"{variant}: " + " | ".join(cells))
    runs = sum(len(c) for _, c in rows)
    print(f"\n{len(rows)} libraries, {runs} runs, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
