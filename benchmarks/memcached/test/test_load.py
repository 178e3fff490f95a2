#!/usr/bin/env python3
"""ptm-mc-load (benchmarks/memcached/load/mc_load.c) against ptm-memcached,
bounded by an operation count: every answer checked by the client, and the
client's counts matched against the server's own counters.

1. --preload, then 20000 requests (90% gets) over 2000 keys on 4
   connections of pipeline depth 8: no error, every request answered, and
   the server's get_hits, get_misses and cmd_set grew by exactly the
   client's hits, misses and sets (the preload's 2000 sets included). With
   -m 64 nothing is evicted (checked), so every get hits.
2. The check of values works: a key stored with other bytes than the
   generator's is reported as a wrong value (exit 1).
3. Bad arguments and an unreachable server exit 2 with a message.

    test_load.py SERVER LOADGEN
"""
import os
import re
import subprocess
import sys
import tempfile

from mc_testlib import Server, check, verdict


def load(exe, *args):
    p = subprocess.run([exe, *args], capture_output=True, text=True,
                       timeout=300)
    m = re.search(r"^RESULT (.*)$", p.stdout, re.M)
    fields = dict(kv.split("=", 1) for kv in m.group(1).split()) if m else {}
    return p.returncode, fields, p.stderr


def main():
    server, loadgen = (os.path.abspath(a) for a in sys.argv[1:3])
    with tempfile.TemporaryDirectory() as d:
        s = Server(server, "-t", "2", "-m", "64",
                   pool=os.path.join(d, "load.pool"))
        addr = f"127.0.0.1:{s.port}"
        try:
            c = s.connect()
            before = c.stats()
            rc, r, err = load(loadgen, "-s", addr, "-c", "4", "-P", "8",
                              "-k", "2000", "-v", "100", "-r", "90",
                              "-n", "20000", "--preload", "--seed", "7")
            after = c.stats()
            print(f"ptm-mc-load: {r}")
            check(rc == 0, f"load run exit {rc}: {err}")
            check(r.get("errors") == "0", f"errors {r.get('errors')}")
            ops, gets, sets = (int(r.get(k, -1))
                               for k in ("ops", "gets", "sets"))
            hits, misses = int(r.get("hits", -1)), int(r.get("misses", -1))
            check(ops == 20000 and gets + sets == ops,
                  f"answered {ops}: {gets} gets + {sets} sets")
            check(1600 < sets < 2400, f"about 10% sets: {sets}")

            def grew(name):
                return int(after[name]) - int(before[name])
            check(int(after["evictions"]) == 0, "nothing evicted")
            check(hits == gets and misses == 0,
                  f"every get hits after the preload: {hits}/{gets}")
            check(grew("get_hits") == hits, f"server get_hits grew by "
                  f"{grew('get_hits')}, client saw {hits} hits")
            check(grew("get_misses") == misses, "server get_misses")
            check(grew("cmd_set") == sets + 2000,
                  f"server cmd_set grew by {grew('cmd_set')}, client sent "
                  f"{sets} + 2000 preload sets")
            for q in ("p50_us", "p90_us", "p99_us", "p999_us"):
                check(float(r.get(q, -1)) > 0, f"{q} reported")
            check(float(r["p50_us"]) <= float(r["p99_us"]) <=
                  float(r["max_us"]), "percentiles in order")

            # A value the generator did not write is caught.
            check(c.set("ptmload:0", "x" * 100) == b"STORED", "set")
            rc, r, err = load(loadgen, "-s", addr, "-k", "1", "-v", "100",
                              "-r", "100", "-n", "10")
            check(rc == 1 and r.get("errors") == "10" and
                  "wrong value" in err,
                  f"a wrong value is an error: exit {rc}, {r}, {err}")
            c.close()
        finally:
            s.stop()
        for args, what in ((["-s", addr, "-c", "0"], "-c must be"),
                           (["-s", addr, "-r", "101"], "-r must be"),
                           (["-s", "nohostport"], "HOST:PORT"),
                           (["-s", addr, "-n", "10"], "cannot connect")):
            rc, _, err = load(loadgen, *args)
            check(rc == 2 and what in err,
                  f"{args}: exit {rc}, stderr {err!r}")
    return verdict("memcached-load: PASSED")


if __name__ == "__main__":
    sys.exit(main())
