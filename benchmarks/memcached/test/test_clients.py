#!/usr/bin/env python3
"""ptm-memcached under Debian's libmemcached clients (libmemcached-tools):
memccapable (the protocol conformance checker, text and binary), memcslap
(set/get/mget, text and binary) and memcaslap (90/10 get/set with value
verification, text and binary), each bounded by an operation count (never
by time). They store about 37 MB in all (memcslap ~32 MB, each memcaslap
run ~2 MB): the server runs with -m 256, so nothing is evicted (checked)
and every get must hit.

    test_clients.py SERVER
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from mc_testlib import Server, check, verdict


def run(cmd, timeout=120):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


# memccapable's two ascii delete tests send `delete KEY 10` and want
# memcached's old answer (CLIENT_ERROR: no hold time); memcached 1.6.45's
# parser ignores the argument and deletes (proto_parser.c), and fails the
# two tests as ptm-memcached does, which gives 1.6.45's answers. Every other
# test must pass.
OLD_DELETE_TESTS = ("ascii delete", "ascii delete noreply")


def memccapable_as_memcached(out):
    passed = set(re.findall(r"^((?:ascii|binary) [a-z ]*?)\s+\[pass\]$", out,
                            re.M))
    m = re.search(r"(\d+) of (\d+) tests failed", out)
    if not m:
        return "All tests passed" in out
    failed, total = int(m.group(1)), int(m.group(2))
    return (failed == len(OLD_DELETE_TESTS) and
            len(passed) == total - failed and
            not any(t in passed for t in OLD_DELETE_TESTS))


def main():
    exe = os.path.abspath(sys.argv[1])
    tools = {t: shutil.which(t) for t in ("memccapable", "memcslap",
                                          "memcaslap")}
    missing = [t for t, path in tools.items() if not path]
    if missing:
        print(f"FAIL: {', '.join(missing)} not installed "
              "(scripts/install-deps.sh installs libmemcached-tools)")
        return 1
    with tempfile.TemporaryDirectory() as d:
        s = Server(exe, "-t", "2", "-m", "256",
                   pool=os.path.join(d, "clients.pool"))
        server = f"127.0.0.1:{s.port}"
        try:
            code, out = run([tools["memccapable"], "-h", "127.0.0.1", "-p",
                             str(s.port), "-t", "60"])  # I/O hang deadline
            print(out.strip().splitlines()[-1], flush=True)
            check(memccapable_as_memcached(out),
                  f"memccapable: exit {code}\n{out}")

            for binary in ([], ["--binary"]):
                for test in ("set", "get", "mget"):
                    cmd = [tools["memcslap"], "-s", server, "-t", test,
                           "-c", "2", "-e", "2000", *binary]
                    code, out = run(cmd)
                    check(code == 0 and "error" not in out.lower(),
                          f"{' '.join(cmd)}: exit {code}\n{out}")
            c = s.connect()
            stats = c.stats()
            check(int(stats["get_hits"]) >= 8000,
                  f"memcslap gets hit: {stats['get_hits']}")

            for binary in ([], ["-B"]):
                cmd = [tools["memcaslap"], "-s", server, "-T", "2", "-c",
                       "8", "-x", "20000", "-v", "0.2", *binary]
                code, out = run(cmd)
                print(" ".join(cmd[1:]), "|",
                      " ".join(re.findall(r"(?:verify_failed|get_misses): "
                                          r"\d+|TPS: \d+", out)), flush=True)
                fields = dict(re.findall(r"^(\w+): (\d+)$", out, re.M))
                check(code == 0, f"memcaslap exit {code}\n{out}")
                check(fields.get("verify_failed") == "0" and
                      fields.get("verify_misses") == "0" and
                      fields.get("get_misses") == "0",
                      f"memcaslap verification: {fields}")
                check(int(fields.get("cmd_get", 0)) +
                      int(fields.get("cmd_set", 0)) >= 20000,
                      f"memcaslap ran its operations: {fields}")
            stats = c.stats()
            check(stats["evictions"] == "0",
                  f"{stats['evictions']} evictions ({stats['bytes']} bytes "
                  f"stored under -m 256): a miss could be an eviction")
            check(s.proc.poll() is None, "server alive after the clients")
        finally:
            code, log = s.stop()
        check(code == 0, f"server exit status {code}: {log}")
    return verdict("libmemcached clients passed")


if __name__ == "__main__":
    sys.exit(main())
