#!/usr/bin/env python3
"""Pools on an ordinary file: the `file` persistence domain against PMDK.

    scripts/storage.py [--build build] [--bench bptree_insert,tpcc_hash]
                       [--lib ip_orec_lazy] [--threads 1,2] [--reps 5]
                       [-d 2] [--dir DIR] [--shm /dev/shm]
                       [-- extra benchmark options]

For each benchmark and thread count, runs side by side (interleaved, REPS
rounds, a fresh pool each run):

  strict file      LIB, PTM_DURABILITY=strict, the pool in DIR (an ordinary
                   file system: ptm chooses the `file` domain; a lazy
                   library's commits go through the persister, which syncs
                   once per round for every commit queued; docs/pool.md
                   "Persistence domains")
  strict fence     the same with PTM_FILE_COMMIT=fence: every fence that
                   follows written-back lines syncs, under the library's
                   locks (the ablation of the persister's group commit)
  buffered file    the same under PTM_DURABILITY=buffered (10 ms)
  buffered shm     buffered, the pool in SHM (tmpfs: `page-cache`)
  strict shm       strict, the pool in SHM (no sync at all)
  pmdk msync       the PMDK peer (<bench>.pmdk, where built) with
                   PMEM_IS_PMEM_FORCE=0, its pool in DIR: libpmemobj
                   msyncs every persist, as it does on a file that is not
                   persistent memory

and prints the medians (operations per second), strict file / pmdk msync,
buffered file / buffered shm, and the commits per sync of strict file
(the RESULT line's commits / syncs of the pool file in the measured run,
the benchmark's population left out; above 1, group commit shared syncs). Before the table, the disk's own bound: how many fdatasyncs of one
rewritten 4 KiB page a loop makes per second in DIR (a strict commit at one
thread waits for at least one sync). DIR defaults to build/storage-pools
and must not be tmpfs; the script checks that ptm reported the domain it
expects in each run.
"""
import os
import pathlib
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sweeplib import ROOT, csv_list, doc_parser, split_extra  # noqa: E402

RESULT = re.compile(r"^RESULT (.*)$", re.M)
DOMAIN = re.compile(r"persistence domain: ([a-z-]+)\)")


def file_system(path):
    """The file system type of PATH, as stat -f names it."""
    return subprocess.run(["stat", "-f", "-c", "%T", str(path)],
                          capture_output=True, text=True).stdout.strip()


def run_one(exe, threads, duration, extra, env, pool):
    """(ops/s, commits, syncs, domain) of one run on a fresh POOL."""
    if pool.exists():
        pool.unlink()
    env = dict(env, PTM_POOL=str(pool), PTM_POOL_SIZE="1G", PTM_STATS="1")
    proc = subprocess.run([str(exe), "-t", str(threads), "-d",
                           str(duration), *extra], capture_output=True,
                          text=True, env=env, timeout=600)
    if pool.exists():
        pool.unlink()
    m = RESULT.search(proc.stdout)
    if proc.returncode != 0 or not m:
        sys.exit(f"storage: {exe} -t {threads}: exit {proc.returncode}\n"
                 f"{proc.stderr[-2000:]}")
    fields = dict(f.split("=", 1) for f in m.group(1).split())
    # (the measured run's, not the population's: RESULT counts both from
    # its start)
    commits = int(fields.get("commits", 0))
    syncs = int(fields.get("syncs", 0))
    d = DOMAIN.search(proc.stderr)
    return (float(fields["ops_per_s"]), commits, syncs,
            d.group(1) if d else None)


def sync_rate(directory, seconds):
    """fdatasyncs per second of one rewritten 4 KiB page in DIRECTORY."""
    path = directory / f"sync-floor-{os.getpid()}"
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        page = bytearray(4096)
        os.pwrite(fd, page, 0)
        os.fsync(fd)
        n, start = 0, time.monotonic()
        while time.monotonic() - start < seconds:
            page[0] = n & 0xff
            os.pwrite(fd, page, 0)
            os.fdatasync(fd)
            n += 1
        return n / (time.monotonic() - start)
    finally:
        os.close(fd)
        path.unlink()


def main():
    argv, extra = split_extra(sys.argv[1:])
    parser = doc_parser(__doc__)
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--bench", type=csv_list,
                        default=["bptree_insert", "tpcc_hash"])
    parser.add_argument("--lib", default="ip_orec_lazy")
    parser.add_argument("--threads", type=csv_list, default=["1", "2"])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("-d", "--duration", type=float, default=2.0)
    parser.add_argument("--dir", help="default: BUILD/storage-pools")
    parser.add_argument("--shm", default="/dev/shm")
    args = parser.parse_args(argv)

    bench_dir = pathlib.Path(args.build) / "bench"
    pool_dir = pathlib.Path(args.dir or pathlib.Path(args.build) /
                            "storage-pools")
    pool_dir.mkdir(parents=True, exist_ok=True)
    shm_dir = pathlib.Path(args.shm)
    if file_system(pool_dir) in ("tmpfs", "ramfs"):
        sys.exit(f"storage: {pool_dir} is {file_system(pool_dir)}: give "
                 "--dir on a disk's file system")
    base = {k: v for k, v in os.environ.items()
            if k not in ("PTM_PERSIST_DOMAIN", "PTM_DURABILITY",
                         "PMEM_IS_PMEM_FORCE", "PTM_FILE_COMMIT")}
    configs = [
        ("strict file", args.lib, {"PTM_DURABILITY": "strict"}, pool_dir,
         "file"),
        ("strict fence", args.lib, {"PTM_DURABILITY": "strict",
                                    "PTM_FILE_COMMIT": "fence"}, pool_dir,
         "file"),
        ("buffered file", args.lib, {"PTM_DURABILITY": "buffered"},
         pool_dir, "file"),
        ("buffered shm", args.lib, {"PTM_DURABILITY": "buffered"}, shm_dir,
         "page-cache"),
        ("strict shm", args.lib, {"PTM_DURABILITY": "strict"}, shm_dir,
         "page-cache"),
        ("pmdk msync", "pmdk", {"PMEM_IS_PMEM_FORCE": "0"}, pool_dir, None),
    ]
    print(f"# {args.lib}; pools in {pool_dir} ({file_system(pool_dir)}) "
          f"and {shm_dir} ({file_system(shm_dir)}); medians of {args.reps} "
          f"runs of {args.duration:g} s, operations per second")
    floor = statistics.median(sync_rate(pool_dir, args.duration)
                              for _ in range(args.reps))
    print(f"# the disk: {floor:,.0f} fdatasyncs of one 4 KiB page per "
          f"second (median of {args.reps} x {args.duration:g} s)")
    labels = [c[0] for c in configs]
    print("| bench | threads | " + " | ".join(labels) +
          " | strict file / pmdk msync | buffered file / buffered shm | "
          "strict file commits per sync |")
    print("|---" * (len(labels) + 5) + "|")
    for bench in args.bench:
        present = [c for c in configs
                   if (bench_dir / f"{bench}.{c[1]}").exists()]
        for threads in args.threads:
            ops = {c[0]: [] for c in present}
            per_sync = []
            for _ in range(args.reps):
                for label, lib, env, where, want in present:
                    rate, commits, syncs, domain = run_one(
                        bench_dir / f"{bench}.{lib}", threads, args.duration,
                        extra, dict(base, **env),
                        where / f"storage-{os.getpid()}.pool")
                    if want and domain != want:
                        sys.exit(f"storage: {label}: ptm chose the domain "
                                 f"{domain}, not {want}")
                    ops[label].append(rate)
                    if label == "strict file" and syncs:
                        per_sync.append(commits / syncs)
            med = {k: statistics.median(v) for k, v in ops.items()}
            cells = [f"{med[c]:,.0f}" if c in med else "n/a" for c in labels]
            vs_pmdk = (f"{med['strict file'] / med['pmdk msync']:.1f}"
                       if "pmdk msync" in med else "n/a")
            vs_shm = med["buffered file"] / med["buffered shm"]
            sync_share = (f"{statistics.median(per_sync):.2f}"
                          if per_sync else "n/a")
            print(f"| {bench} | {threads} | " + " | ".join(cells) +
                  f" | {vs_pmdk} | {vs_shm:.2f} | {sync_share} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
