#!/usr/bin/env python3
"""The ptm-memcached demo: start the server on a pool file, store items over
the memcached text protocol, SIGKILL the server, restart it on the same
pool, and read the items back (docs/memcached.md).

    benchmarks/memcached/demo.py [--build DIR] [--pool FILE] [--items N]

Exit status 0 when every acknowledged item came back intact.
"""
import argparse
import os
import pathlib
import re
import signal
import socket
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def start(exe, pool):
    proc = subprocess.Popen([str(exe), "-p", "-1", "-t", "2", "-v", "--pool",
                             pool], stderr=subprocess.PIPE, text=True)
    for line in proc.stderr:
        print(f"  {line.rstrip()}")
        m = re.search(r"listening on \S+ port (\d+)", line)
        if m:
            return proc, int(m.group(1))
    sys.exit(f"demo: {exe} did not start (exit {proc.wait()})")


def request(port, data):
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(data + b"quit\r\n")
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", type=pathlib.Path, default=ROOT / "build")
    ap.add_argument("--pool")
    ap.add_argument("--items", type=int, default=1000)
    args = ap.parse_args()
    exe = args.build / "bin" / "ptm-memcached"
    if not exe.exists():
        sys.exit(f"demo: {exe} not found (build first)")
    tmp = tempfile.TemporaryDirectory()
    pool = args.pool or os.path.join(tmp.name, "demo.pool")

    print(f"1. ptm-memcached on pool {pool}")
    proc, port = start(exe, pool)
    sets = b"".join(b"set demo:%d %d 0 %d\r\n%s\r\n" %
                    (i, i, len(b"value-%d" % i), b"value-%d" % i)
                    for i in range(args.items))
    replies = request(port, sets)
    stored = replies.count(b"STORED\r\n")
    print(f"2. {stored} of {args.items} sets acknowledged (STORED)")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    print("3. server killed with SIGKILL; restarting on the same pool")
    proc, port = start(exe, pool)
    keys = b" ".join(b"demo:%d" % i for i in range(args.items))
    found = dict(re.findall(rb"VALUE (\S+) \d+ \d+\r\n(\S*)\r\n",
                            request(port, b"get " + keys + b"\r\n")))
    intact = sum(found.get(b"demo:%d" % i) == b"value-%d" % i
                 for i in range(args.items))
    print(f"4. after the crash: {intact} of {stored} items intact")
    print(request(port, b"get demo:7\r\n").decode().strip())
    proc.terminate()
    proc.wait()
    proc.stderr.close()
    return 0 if intact == stored == args.items else 1


if __name__ == "__main__":
    sys.exit(main())
