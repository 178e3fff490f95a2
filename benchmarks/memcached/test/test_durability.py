#!/usr/bin/env python3
"""ptm-memcached's --durability option (docs/memcached.md, "Durability").

    test_durability.py SERVER --expect buffered|refused|volatile
                       [--ptm-pool TOOL] [--kill-after N]

Every library: a malformed value (and a missing one) is refused with a
message naming the option, exit status 64, and no pool file created.

--expect refused (a library that cannot defer durability, e.g. p_): the
server refuses --durability buffered, saying that the library cannot defer
durability, and creates no pool; --durability strict runs.

--expect volatile (an STM library): the option is ignored with a note.

--expect buffered (a lazy gp_/ip_ library): first -t 253 on a new pool
(256 thread slots: every worker, the main thread, the maintainer and the
persister run transactions; 506 connections store and read back); then
one pool throughout:
- clean restart: under --durability buffered, set/get/delete/incr work;
  after SIGTERM (the server calls ptm_close) a restart finds every item;
- three SIGKILL rounds (buffered, buffered:1, buffered:60000): clients load
  the server and are killed at a count of acknowledged operations; then
  `ptm-pool check` passes and the restarted server holds a prefix of the
  commit order. Every item present has exactly a value it was set to, the
  item count matches, everything durable before the round (checked at the
  previous restart, then stopped cleanly) is there, and if an operation
  survived, so did every operation acknowledged before it was sent (a
  shared tick orders the clients' sends and acknowledgements). Operations
  acknowledged but not synced may be lost: nothing requires them.
- a last restart under the default (strict) durability reads the pool.
Kills are bounded by counts; a hang (no acknowledged operation for STALL
seconds) is the only time limit.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import threading

from mc_testlib import Server, check, verdict
from test_crash import STALL, Load, value_of, wait_for_kill_point
from test_protocol import serve_many

MALFORMED = ["", "fast", "Strict", "strict:5", "buffered:", "buffered:0",
             "buffered:60001", "buffered:10ms", "buffered:-1", "buffered: 5",
             "buffered:1.5", "buffered10", "buffered:99999999999999999999"]
MEMORY = 128  # -m: the test stores far less (no eviction, checked)
MODES = ["buffered", "buffered:1", "buffered:60000"]


def eq(got, want, what):
    check(got == want, f"{what}: got {got!r}, want {want!r}")


def run(exe, *args):
    return subprocess.run([exe, *args], capture_output=True, text=True,
                          timeout=60)


def length_of(i):
    return 1 + (i * 7919) % 2000


# ---- the option itself -----------------------------------------------------

def test_malformed(exe, d):
    pool = os.path.join(d, "never.pool")
    for value in MALFORMED:
        p = run(exe, "-p", "-1", "--pool", pool, "--durability", value)
        eq(p.returncode, 64, f"--durability {value!r}: exit status")
        check(p.stderr.startswith(f"ptm-memcached: --durability: "
                                  f"'{value}' is not") and
              "buffered:MS" in p.stderr,
              f"--durability {value!r}: message {p.stderr!r}")
    p = run(exe, "-p", "-1", "--pool", pool, "--durability")
    check(p.returncode == 64 and "needs an argument" in p.stderr,
          f"--durability without a value: {p.returncode} {p.stderr!r}")
    check(not os.path.exists(pool), "a refused value creates no pool")
    p = run(exe, "-h")
    check(p.returncode == 0 and "--durability" in p.stdout,
          "-h describes --durability")


def test_refused(exe, d):
    pool = os.path.join(d, "refused.pool")
    p = run(exe, "-p", "-1", "--pool", pool, "--durability", "buffered")
    check(p.returncode == 1 and "cannot defer durability" in p.stderr,
          f"buffered refused: {p.returncode} {p.stderr!r}")
    check(not os.path.exists(pool), "a refused mode creates no pool")
    s = Server(exe, "-t", "2", "--durability", "strict", pool=pool)
    try:
        c = s.connect()
        eq(c.stats()["ptm_durability"], "strict", "stats under strict")
        eq(c.set("k", "v"), b"STORED", "set under strict")
    finally:
        code, _ = s.stop()
    eq(code, 0, "strict: clean exit")


def test_volatile(exe, d):
    s = Server(exe, "-t", "2", "--durability", "buffered:5",
               pool=os.path.join(d, "volatile.pool"))
    try:
        check(any("--durability buffered:5 ignored" in line
                  for line in s.log), f"a note: {s.log!r}")
        c = s.connect()
        eq(c.stats()["ptm_durability"], "none", "stats of a volatile cache")
        eq(c.set("k", "v"), b"STORED", "set")
        eq(c.get("k"), (0, b"v"), "get")
    finally:
        code, _ = s.stop()
    eq(code, 0, "volatile: clean exit")


# ---- buffered: a clean restart ---------------------------------------------

def check_pool(tool, pool, when):
    if tool:
        p = subprocess.run([tool, "check", pool], capture_output=True,
                           text=True, timeout=120)
        check(p.returncode == 0,
              f"ptm-pool check {when}: {p.stdout}{p.stderr}")


def read_all(c, keys):
    present = {}
    keys = list(keys)
    for i in range(0, len(keys), 100):
        present.update(c.get_multi(keys[i:i + 100]))
    return present


def test_clean_restart(exe, pool, tool):
    """Returns the items the pool holds ({key: (flags, value)})."""
    s = Server(exe, "-t", "2", "-m", str(MEMORY), "--durability",
               "buffered", pool=pool)
    want = {}
    try:
        c = s.connect()
        eq(c.stats()["ptm_durability"], "buffered:10", "stats: the mode")
        for i in range(2000):
            key = f"base-{i}"
            want[key] = (i, value_of(key, length_of(i)))
            c.set(key, want[key][1], flags=i)
        eq(c.get("base-3"), want["base-3"], "get")
        for i in range(0, 2000, 7):
            eq(c.cmd(f"delete base-{i}\r\n"), b"DELETED", f"delete {i}")
            del want[f"base-{i}"]
        eq(c.cmd("delete base-0\r\n"), b"NOT_FOUND", "delete again")
        for i in range(1, 2000, 10):
            key = f"base-{i}"
            want[key] = (7, f"over-{i}".encode())
            eq(c.set(key, want[key][1], flags=7), b"STORED", "overwrite")
        c.set("n", "0")
        for _ in range(50):
            c.cmd("incr n 1\r\n")
        want["n"] = (0, b"50")
        eq(read_all(c, [f"base-{i}" for i in range(2000)] + ["n"]), want,
           "items before the restart")
    finally:
        code, _ = s.stop()
    eq(code, 0, "SIGTERM under buffered: clean exit")
    check_pool(tool, pool, "after SIGTERM")
    s = Server(exe, "-t", "2", "-m", str(MEMORY), "--durability",
               "buffered:1", pool=pool)
    try:
        c = s.connect()
        got = read_all(c, [f"base-{i}" for i in range(2000)] + ["n"])
        eq(len(got), len(want), "clean restart: item count")
        check(got == want, "clean restart: every item with its value")
        stats = c.stats()
        eq(stats["ptm_durability"], "buffered:1", "stats: buffered:1")
        eq(stats["curr_items"], str(len(want)), "clean restart: curr_items")
        eq(stats["ptm_recovered_items"], str(len(want)),
           "clean restart: recovered items")
    finally:
        code, _ = s.stop()
    eq(code, 0, "restarted server: clean exit")
    return got


# ---- buffered: SIGKILL -----------------------------------------------------

class Clock:
    """A tick shared by the clients: tick() after an acknowledgement,
    now() before a send. An operation acknowledged at tick t committed
    before every operation sent at now() >= t."""

    def __init__(self):
        self.lock = threading.Lock()
        self.t = 0

    def tick(self):
        with self.lock:
            self.t += 1
            return self.t

    def now(self):
        with self.lock:
            return self.t


class Writer(Load):
    """Sets PREFIX-0, PREFIX-1, ... (new keys) up to CAP of them; log:
    key -> [(flags, value), sent, acked or None]."""

    def __init__(self, port, killed, clock, prefix, cap):
        super().__init__(port, killed)
        self.clock, self.prefix, self.cap = clock, prefix, cap
        self.log = {}

    def work(self, c):
        for i in range(self.cap):
            key = f"{self.prefix}-{i}"
            entry = [(i % 65536, value_of(key, length_of(i))),
                     self.clock.now(), None]
            self.log[key] = entry
            reply = c.set(key, entry[0][1], flags=entry[0][0])
            if reply != b"STORED":
                raise AssertionError(f"set {key}: {reply!r}")
            entry[2] = self.clock.tick()
            self.acks += 1


class Overwriter(Load):
    """Sets "counter" to START, START + 1, ...; log: [n, sent, acked]."""

    def __init__(self, port, killed, clock, start):
        super().__init__(port, killed)
        self.clock, self.start_at = clock, start
        self.log = []

    def work(self, c):
        for n in range(self.start_at, 10 ** 12):
            entry = [n, self.clock.now(), None]
            self.log.append(entry)
            reply = c.set("counter", str(n), flags=n % 1000)
            if reply != b"STORED":
                raise AssertionError(f"counter: {reply!r}")
            entry[2] = self.clock.tick()
            self.acks += 1


class Deleter(Load):
    """Sets PREFIX-i, then deletes it; log: key -> [sent, delete acked]."""

    def __init__(self, port, killed, clock, prefix):
        super().__init__(port, killed)
        self.clock, self.prefix = clock, prefix
        self.log = {}

    def work(self, c):
        for i in range(10 ** 12):
            key = f"{self.prefix}-{i}"
            entry = [self.clock.now(), None]
            self.log[key] = entry
            reply = c.set(key, value_of(key, 100), flags=1)
            if reply != b"STORED":
                raise AssertionError(f"set {key}: {reply!r}")
            self.clock.tick()
            reply = c.cmd(f"delete {key}\r\n")
            if reply != b"DELETED":
                raise AssertionError(f"delete {key}: {reply!r}")
            entry[1] = self.clock.tick()
            self.acks += 1


def kill_round(exe, pool, tool, rnd, mode, durable, kill_after):
    """Loads a buffered server, SIGKILLs it, restarts it and checks the
    prefix. DURABLE: the items the pool held before; updated."""
    args = ("-t", "2", "-m", str(MEMORY), "--durability", mode)
    s = Server(exe, *args, pool=pool)
    killed, clock = threading.Event(), Clock()
    writers = [Writer(s.port, killed, clock, f"r{rnd}.w{k}", kill_after)
               for k in range(2)]
    start = int(durable["counter"][1]) + 1 if "counter" in durable else 0
    over = Overwriter(s.port, killed, clock, start)
    deleter = Deleter(s.port, killed, clock, f"r{rnd}.d")
    threads = writers + [over, deleter]
    for t in threads:
        t.start()
    early = wait_for_kill_point(threads, writers, over, deleter, kill_after)
    killed.set()
    s.kill(9)
    for t in threads:
        t.join(timeout=STALL)
    s.stop()
    check(early is None, f"round {rnd}: load stopped early: {early}")
    check(not any(t.is_alive() for t in threads),
          f"round {rnd}: a client still runs after the kill")
    check_pool(tool, pool, f"after SIGKILL in round {rnd}")

    sets = {k: e for w in writers for k, e in w.log.items()}
    s = Server(exe, *args, pool=pool)
    try:
        c = s.connect()
        got = read_all(c, list(durable) + ["counter"] + list(sets) +
                       list(deleter.log))
        stats = c.stats()
        probe_ok = (c.set("probe", "ok") == b"STORED" and
                    c.get("probe") == (0, b"ok") and
                    c.cmd("delete probe\r\n") == b"DELETED")
    finally:
        code, log = s.stop()
    eq(code, 0, f"round {rnd}: restarted server exit status ({log})")
    check(probe_ok, f"round {rnd}: the recovered cache works")

    torn = [k for k, e in sets.items() if k in got and got[k] != e[0]]
    torn += [k for k in deleter.log
             if k in got and got[k] != (1, value_of(k, 100))]
    check(not torn, f"round {rnd}: {len(torn)} items with a wrong value, "
          f"e.g. {torn[:3]}")
    n = int(got["counter"][1]) if "counter" in got else None
    low = start - 1 if "counter" in durable else start
    high = over.log[-1][0] if over.log else start - 1
    if n is None:
        check("counter" not in durable, f"round {rnd}: the counter is lost")
    else:
        check(low <= n <= high and got["counter"][0] == n % 1000,
              f"round {rnd}: counter {got['counter']}, durable "
              f"{durable.get('counter')}, last sent {high}")
    lost = [k for k, v in durable.items()
            if k != "counter" and got.get(k) != v]
    check(not lost, f"round {rnd}: {len(lost)} items durable before the "
          f"round are lost or changed, e.g. {lost[:3]}")
    live_deleted = [k for k in deleter.log if k in got]
    check(len(live_deleted) <= 1,
          f"round {rnd}: deleted items are back: {live_deleted[:3]}")

    # the prefix: the latest send that survived ...
    marks = [e[1] for k, e in sets.items() if k in got]
    marks += [e[1] for e in over.log if e[0] == n]
    marks += [deleter.log[k][0] for k in live_deleted]
    mark = max(marks, default=0)
    # ... and everything acknowledged before it
    missing = [k for k, e in sets.items()
               if e[2] is not None and e[2] <= mark and k not in got]
    check(not missing, f"round {rnd}: not a prefix: {len(missing)} sets "
          f"acknowledged before a surviving one are lost, e.g. "
          f"{missing[:3]}")
    before = [e[0] for e in over.log if e[2] is not None and e[2] <= mark]
    check(not before or (n is not None and n >= before[-1]),
          f"round {rnd}: not a prefix: counter {n}, {before[-1:]} was "
          f"acknowledged before a surviving set")
    undone = [k for k in live_deleted
              if deleter.log[k][1] is not None and deleter.log[k][1] <= mark]
    check(not undone, f"round {rnd}: not a prefix: {undone} deleted")
    eq(stats["curr_items"], str(len(got)), f"round {rnd}: curr_items")
    eq(stats["ptm_recovered_items"], str(len(got)),
       f"round {rnd}: recovered items")
    eq(stats["evictions"], "0", f"round {rnd}: evictions (-m {MEMORY})")
    eq(stats["ptm_durability"], mode if ":" in mode else mode + ":10",
       f"round {rnd}: stats")
    acked = sum(1 for e in sets.values() if e[2] is not None)
    kept = sum(1 for k in sets if k in got)
    print(f"round {rnd} ({mode}): {acked} sets acknowledged, SIGKILL, "
          f"{kept} present after the restart; counter {n} (durable {low}, "
          f"last sent {high})", flush=True)
    durable.clear()
    durable.update(got)


def test_most_workers(exe, d):
    """-t 253, the most a pool's 256 thread slots allow, under buffered
    durability: the workers, the main thread, the hash table's maintainer
    and the persister each hold a slot, every worker serving."""
    s = Server(exe, "-t", "253", "--durability", "buffered",
               pool=os.path.join(d, "most-workers.pool"))
    try:
        c = s.connect()
        eq(c.stats()["ptm_pool_slots"], "256", "-t 253: thread slots")
        serve_many(s, 506, "-t 253 under buffered durability")
        eq(c.stats()["curr_items"], "1012", "-t 253: curr_items")
    finally:
        code, log = s.stop()
    eq(code, 0, f"-t 253: clean exit ({log[-300:]})")


def test_buffered(exe, d, tool, kill_after):
    print("most workers", flush=True)
    test_most_workers(exe, d)
    pool = os.path.join(d, "buffered.pool")
    print("clean restart", flush=True)
    durable = test_clean_restart(exe, pool, tool)
    for rnd, mode in enumerate(MODES):
        kill_round(exe, pool, tool, rnd, mode, durable, kill_after)
    s = Server(exe, "-t", "2", "-m", str(MEMORY), pool=pool)
    try:
        c = s.connect()
        eq(c.stats()["ptm_durability"], "strict", "default mode: strict")
        check(read_all(c, durable) == durable,
              "strict restart: every item of the last round")
    finally:
        code, _ = s.stop()
    eq(code, 0, "strict restart: clean exit")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("server")
    ap.add_argument("--expect", required=True,
                    choices=["buffered", "refused", "volatile"])
    ap.add_argument("--ptm-pool")
    ap.add_argument("--kill-after", type=int, default=3000,
                    help="acknowledged writer sets per round before SIGKILL")
    args = ap.parse_args()
    exe = os.path.abspath(args.server)
    with tempfile.TemporaryDirectory() as d:
        print("malformed values", flush=True)
        test_malformed(exe, d)
        if args.expect == "refused":
            test_refused(exe, d)
        elif args.expect == "volatile":
            test_volatile(exe, d)
        else:
            test_buffered(exe, d, args.ptm_pool, args.kill_after)
    return verdict("durability checks passed")


if __name__ == "__main__":
    sys.exit(main())
