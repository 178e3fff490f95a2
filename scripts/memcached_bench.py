#!/usr/bin/env python3
"""Throughput of ptm-memcached per library and worker threads, with Debian's
memcached as the reference.

Each run starts a server (<build>/bench/memcached.<lib>, on a fresh pool in
a temporary directory in $TMPDIR, else /dev/shm; `memcached` is Debian's
/usr/bin/memcached) on a free port with -t THREADS, drives it for -d
seconds with a 90/10 get/set mix
(the paper's ratio), and reads the client's rate and the server's
transaction statistics (`stats`). Writes one CSV row per run with
scripts/bench.py's columns (bench, lib, threads, rep, status, ops_per_s,
commits, aborts, clwb_per_tx, sfence_per_tx, ...) and prints the table of
medians. A library written LIB@MODE runs ptm-memcached with
`--durability=MODE` (e.g. ip_orec_lazy@buffered).

The client (--client):
  memcaslap   libmemcached-tools' (default): --client-threads threads,
              --concurrency connections, one request outstanding on each.
  ptm-mc-load ours (<build>/bin/ptm-mc-load, docs/memcached.md): one
              thread, --concurrency connections with --pipeline requests
              outstanding on each, --keys keys of --value-size bytes set
              once before the run; every answer checked. Pipelined, it
              keeps the server busy where memcaslap's client threads, on
              the same cores, would set the pace. Adds the latency
              percentiles (p50_us, p99_us, ...) to the rows and a table.

    scripts/memcached_bench.py [--build DIR] [--libs gp_orec_lazy,memcached]
                               [--threads 1,2] [--reps 1] [-d 5]
                               [--client memcaslap|ptm-mc-load|PATH]
                               [--client-threads 2] [--concurrency 16]
                               [--pipeline 1] [--keys 100000]
                               [--value-size 64] [--csv out.csv]
"""
import os
import pathlib
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench import median_table  # noqa: E402
from sweeplib import ROOT, csv_list, doc_parser, write_runs_csv  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, proc, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def server_stats(port):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        # ptm-memcached's transaction figures are in `stats ptm` (a real
        # memcached answers it with ERROR)
        s.sendall(b"stats\r\nstats ptm\r\n")
        data = b""
        while data.count(b"END\r\n") + data.count(b"ERROR\r\n") < 2:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    return dict(re.findall(r"STAT (\S+) (\S+)", data.decode()))


def is_loadgen(client):
    return pathlib.Path(client).name == "ptm-mc-load"


def run_memcaslap(args, port):
    client = [args.client, "-s", f"127.0.0.1:{port}", "-T",
              str(args.client_threads), "-c", str(args.concurrency),
              "-t", f"{args.duration}s"]
    try:
        out = subprocess.run(client, capture_output=True, text=True,
                             timeout=args.duration + 60)
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    m = re.findall(r"TPS: (\d+)", out.stdout)
    if out.returncode != 0 or not m:
        return {"status": f"client-exit{out.returncode}",
                "error": (out.stdout + out.stderr)[-300:]}
    fields = dict(re.findall(r"^(\w+): (\d+)$", out.stdout, re.M))
    return {"status": "ok", "ops_per_s": int(m[-1]),
            "get_misses": int(fields.get("get_misses", 0)),
            "client": f"memcaslap -T{args.client_threads} "
                      f"-c{args.concurrency}"}


LATENCIES = ["p50_us", "p90_us", "p99_us", "p999_us"]


def run_loadgen(args, port):
    client = [args.client, "-s", f"127.0.0.1:{port}", "-c",
              str(args.concurrency), "-P", str(args.pipeline), "-k",
              str(args.keys), "-v", str(args.value_size), "-r", "90", "-d",
              str(args.duration), "--preload"]
    try:
        out = subprocess.run(client, capture_output=True, text=True,
                             timeout=args.duration + 120)
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    m = re.search(r"^RESULT (.*)$", out.stdout, re.M)
    if out.returncode != 0 or not m:
        return {"status": f"client-exit{out.returncode}",
                "error": (out.stdout + out.stderr)[-300:]}
    r = dict(kv.split("=", 1) for kv in m.group(1).split())
    return {"status": "ok", "ops_per_s": float(r["ops_per_s"]),
            "get_misses": int(r["misses"]),
            **{q: float(r[q]) for q in LATENCIES},
            "client": f"ptm-mc-load -c{args.concurrency} -P{args.pipeline} "
                      f"-k{args.keys} -v{args.value_size}"}


def latency_table(rows):
    """Medians of the latency percentiles, per server and workers."""
    groups = {}
    for r in rows:
        if r["status"] == "ok" and "p50_us" in r:
            groups.setdefault((r["lib"], int(r["threads"])), []).append(r)
    lines = ["| server | workers | " +
             " | ".join(f"{q[:-3]} (us)" for q in LATENCIES) + " |",
             "|---|---|" + "---:|" * len(LATENCIES)]
    for (lib, t), runs in sorted(groups.items()):
        med = [statistics.median(float(r[q]) for r in runs)
               for q in LATENCIES]
        lines.append(f"| {lib} | {t} | " +
                     " | ".join(f"{v:,.1f}" for v in med) + " |")
    return "\n".join(lines)


def run_one(args, lib, threads, tmp):
    port = free_port()
    common = ["-p", str(port), "-U", "0", "-l", "127.0.0.1", "-t",
              str(threads), "-m", str(args.memory)]
    if lib == "memcached":
        exe = shutil.which("memcached")
        if not exe:
            return {"status": "no-memcached"}
        cmd = [exe, *common]
        if os.geteuid() == 0:
            cmd += ["-u", "root"]
    else:
        name, _, durability = lib.partition("@")
        exe = args.build / "bench" / f"memcached.{name}"
        if not exe.exists():
            return {"status": "not-built"}
        pool = os.path.join(tmp, f"{lib}.pool")
        if os.path.exists(pool):
            os.unlink(pool)
        cmd = [str(exe), *common, "--pool", pool]
        if durability:
            cmd.append(f"--durability={durability}")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        if not wait_port(port, proc):
            return {"status": "no-server",
                    "error": (proc.stderr.read() or "")[-300:]}
        result = (run_loadgen if is_loadgen(args.client) else
                  run_memcaslap)(args, port)
        if result.get("status") != "ok":
            return result
        st = server_stats(port)
        commits = int(st.get("ptm_commits", 0))
        return {**result,
                "commits": commits,
                "aborts": int(st.get("ptm_aborts", 0)),
                "clwb_per_tx": round(int(st.get("ptm_clwb", 0)) /
                                     max(1, commits), 2),
                "sfence_per_tx": round(int(st.get("ptm_sfence", 0)) /
                                       max(1, commits), 2),
                "evictions": int(st.get("evictions", 0))}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main():
    ap = doc_parser(__doc__)
    ap.add_argument("--build", type=pathlib.Path,
                    default=pathlib.Path(os.environ.get("PTM_BUILD",
                                                        ROOT / "build")))
    ap.add_argument("--libs", type=csv_list,
                    default=["p_orec_lazy", "gp_orec_lazy", "ip_orec_lazy",
                             "memcached"])
    ap.add_argument("--threads", type=csv_list, default=["1", "2"])
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("-d", "--duration", type=int, default=5)
    ap.add_argument("--memory", type=int, default=256, help="-m MB")
    ap.add_argument("--client", default="memcaslap")
    ap.add_argument("--client-threads", type=int, default=2)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--pipeline", type=int, default=1)
    ap.add_argument("--keys", type=int, default=100000)
    ap.add_argument("--value-size", type=int, default=64)
    ap.add_argument("--csv", type=pathlib.Path)
    args = ap.parse_args()
    if args.client == "ptm-mc-load":
        args.client = str(args.build / "bin" / "ptm-mc-load")
    if not shutil.which(args.client):
        sys.exit(f"memcached_bench: {args.client} not found "
                 "(memcaslap: apt libmemcached-tools, scripts/"
                 "install-deps.sh; ptm-mc-load: ninja -C BUILD ptm-mc-load)")
    for t in args.threads:
        if not t.isdigit() or int(t) < 1:
            sys.exit(f"memcached_bench: bad thread count '{t}'")
    out = args.csv or (args.build / "bench-results" /
                       f"memcached-{time.strftime('%Y%m%d-%H%M%S')}.csv")
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    runs = [(lib, int(t), rep) for rep in range(args.reps)
            for lib in args.libs for t in args.threads]
    # (the pools in $TMPDIR if set, else in /dev/shm: the page cache, as
    # the benchmarks' temporary pools; a TMPDIR on a disk's file system
    # measures the `file` persistence domain, results/storage.md)
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR") or
                                     shm) as tmp:
        sys.stderr.write(f"memcached_bench: pools in {tmp}\n")
        for i, (lib, t, rep) in enumerate(runs, 1):
            sys.stderr.write(f"[{i}/{len(runs)}] memcached {lib} -t {t}\n")
            result = run_one(args, lib, t, tmp)
            if result["status"] != "ok":
                sys.stderr.write(f"  {result}\n")
            rows.append({"bench": "memcached", "lib": lib, "threads": t,
                         "rep": rep + 1, **result})
    write_runs_csv(out, rows, ["bench", "lib", "threads", "rep", "status"])
    print(f"command: {' '.join(sys.argv)}")
    print(f"csv: {out}\n")
    print(median_table(rows))
    if is_loadgen(args.client):
        print("\n" + latency_table(rows))
    return 1 if any(r["status"] != "ok" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
