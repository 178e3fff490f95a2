#!/usr/bin/env python3
"""Crash test of ptm-memcached: clients store items and record every
acknowledged store; the server is SIGKILLed in the middle of the load and
restarted on the same pool, which must hold every acknowledged item intact
(value and flags), nothing half-written, and no item that was never sent.

    test_crash.py SERVER [--ptm-pool TOOL] [--rounds N] [--kill-after N]
                         [--keys N] [--memory MB]

Per round: 2 writer connections set keys PREFIX-0 .. PREFIX-(KEYS-1) in
turn (values of 1..3000 bytes derived from the key; after the last key a
writer starts over with the same values, so the stored data never exceeds
KEYS items per writer), 1 connection overwrites one key with increasing
numbers, 1 connection stores keys and deletes them. The kill is bounded by
counts, not by time: SIGKILL as soon as the writers have KILL_AFTER
acknowledged sets between them and the overwriter and the deleter have 20
acknowledged operations each; all four connections are still loading the
server then (none of them ever stops on its own). So a fast and a slow
machine store the same amount, which stays well below the server's -m
(checked at start): the server never needs to evict, and its persistent
`evictions` counter must be 0 after each round (an evicted item would be
indistinguishable from a lost one). After the kill `ptm-pool check` (if
given) checks the pool, the server restarts on it, and the checks run; the
next round continues on the same pool. A hang (no acknowledged operation
for STALL seconds) is a failure; nothing else depends on time.
"""
import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import threading
import time

from mc_testlib import Client, Server

STALL = 120  # seconds without any acknowledged operation: a hang
MIN_OTHER = 20  # acknowledged overwrites and deletes before the kill
ITEM_OVERHEAD = 256  # bytes per item beyond key and value (header: < 128)


def value_of(key, length):
    seed = hashlib.sha256(key.encode()).digest()
    return (seed * (length // len(seed) + 1))[:length]


def length_of(i):
    return 1 + (i * 7919) % 3000


class Load(threading.Thread):
    """A client connection that loads the server until it is killed. An
    error before the kill (a refused store, a connection lost, a timeout)
    is recorded in .error; after the kill, a lost connection is expected."""

    def __init__(self, port, killed):
        super().__init__(daemon=True)
        self.port, self.killed = port, killed
        self.error = None
        self.acks = 0  # acknowledged operations

    def run(self):
        try:
            # no client-side timeout: a stalled server is caught by the
            # main thread's STALL watchdog, which then kills it
            self.work(Client(self.port, timeout=None))
        except (ConnectionError, OSError) as e:
            if not self.killed.is_set():
                self.error = f"{type(self).__name__}: {e!r} before the kill"
        except Exception as e:  # noqa: BLE001 - reported as a failure
            self.error = f"{type(self).__name__}: {e!r}"


class Writer(Load):
    """Sets PREFIX-i for i = 0 .. keys-1, then again (same values);
    acked: key -> (flags, value)."""

    def __init__(self, port, killed, prefix, keys):
        super().__init__(port, killed)
        self.prefix, self.keys = prefix, keys
        self.acked, self.sent = {}, {}

    def work(self, c):
        for n in range(10 ** 12):
            i = n % self.keys
            key = f"{self.prefix}-{i}"
            entry = (i % 65536, value_of(key, length_of(i)))
            self.sent[key] = entry
            reply = c.set(key, entry[1], flags=entry[0])
            if reply != b"STORED":
                raise AssertionError(f"set {key}: {reply!r}")
            self.acked[key] = entry
            self.acks += 1


class Overwriter(Load):
    """Overwrites KEY with 0, 1, 2, ...: the value after the crash must be
    at least the last acknowledged one and at most the last sent one."""

    def __init__(self, port, killed, key, start):
        super().__init__(port, killed)
        self.key = key
        self.last_acked, self.last_sent = None, None
        self.start_at = start

    def work(self, c):
        for n in range(self.start_at, 10 ** 12):
            self.last_sent = n
            reply = c.set(self.key, str(n), flags=n % 1000)
            if reply != b"STORED":
                raise AssertionError(f"overwrite: {reply!r}")
            self.last_acked = n
            self.acks += 1


class Deleter(Load):
    """Stores PREFIX-i, then deletes it: deleted (acknowledged) keys must
    stay deleted."""

    def __init__(self, port, killed, prefix):
        super().__init__(port, killed)
        self.prefix = prefix
        self.deleted, self.stored, self.sent = set(), {}, set()
        self.deleting = None  # a delete sent, not acknowledged

    def work(self, c):
        for i in range(10 ** 12):
            key = f"{self.prefix}-{i}"
            self.sent.add(key)
            entry = (1, value_of(key, 100))
            reply = c.set(key, entry[1], flags=1)
            if reply != b"STORED":
                raise AssertionError(f"set {key}: {reply!r}")
            self.stored[key] = entry
            self.deleting = key
            reply = c.cmd(f"delete {key}\r\n")
            if reply != b"DELETED":
                raise AssertionError(f"delete {key}: {reply!r}")
            del self.stored[key]
            self.deleted.add(key)
            self.deleting = None
            self.acks += 1


def stored_bound(args):
    """Upper bound of the item bytes the test can store (every round's
    writers, the deleter's one live item, the counter)."""
    per_writer = sum(len(f"w{args.rounds}.9-{i}") + length_of(i) +
                     ITEM_OVERHEAD for i in range(args.keys))
    return args.rounds * 2 * per_writer + 2 * (ITEM_OVERHEAD + 200)


def wait_for_kill_point(threads, writers, over, deleter, kill_after):
    """Returns None when the kill point is reached (counts), or the reason
    to stop early (a thread failed, or no progress for STALL seconds)."""
    last_total, last_change = -1, time.monotonic()
    while True:
        for t in threads:
            if t.error:
                return t.error
        if (sum(w.acks for w in writers) >= kill_after and
                over.acks >= MIN_OTHER and deleter.acks >= MIN_OTHER):
            return None
        total = sum(t.acks for t in threads)
        now = time.monotonic()
        if total != last_total:
            last_total, last_change = total, now
        elif now - last_change > STALL:
            return (f"no acknowledged operation for {STALL} s (hang): "
                    f"writers {[w.acks for w in writers]}, overwriter "
                    f"{over.acks}, deleter {deleter.acks}")
        time.sleep(0.002)


def run_round(exe, pool, tool, rnd, args, state):
    server_args = ("-t", "2", "-m", str(args.memory))
    s = Server(exe, *server_args, pool=pool)
    killed = threading.Event()
    writers = [Writer(s.port, killed, f"w{rnd}.{k}", args.keys)
               for k in range(2)]
    over = Overwriter(s.port, killed, "counter", state.get("counter", 0))
    deleter = Deleter(s.port, killed, f"d{rnd}")
    threads = writers + [over, deleter]
    for t in threads:
        t.start()
    early = wait_for_kill_point(threads, writers, over, deleter,
                                args.kill_after)
    killed.set()
    s.kill(9)
    for t in threads:
        t.join(timeout=STALL)
    _, log = s.stop()
    acked = sum(len(w.acked) for w in writers)
    print(f"round {rnd}: {sum(w.acks for w in writers)} acknowledged sets "
          f"({acked} keys), counter at {over.last_acked}, "
          f"{len(deleter.deleted)} deletes, SIGKILL", flush=True)
    errors = []
    if early:
        errors.append(f"killed before the kill point: {early}")
    alive = [type(t).__name__ for t in threads if t.is_alive()]
    if alive:
        errors.append(f"{alive} still running {STALL} s after the kill")
    if tool:
        p = subprocess.run([tool, "check", pool], capture_output=True,
                           text=True, timeout=120)
        if p.returncode != 0:
            errors.append(f"ptm-pool check failed: {p.stdout}{p.stderr}")

    # every key ever sent in this and earlier rounds
    for w in writers:
        state["acked"].update(w.acked)
        state["maybe"].update({k: v for k, v in w.sent.items()
                               if k not in w.acked})
    state["deleted"].update(deleter.deleted)
    state["maybe"].update({k: (1, value_of(k, 100))
                           for k in deleter.sent - deleter.deleted})
    # stored and acknowledged; the one whose delete was in flight may be gone
    state["acked"].update({k: v for k, v in deleter.stored.items()
                           if k != deleter.deleting})
    if deleter.deleting in deleter.stored:
        state["maybe"][deleter.deleting] = deleter.stored[deleter.deleting]

    s = Server(exe, *server_args, pool=pool)
    try:
        c = s.connect()
        keys = list(state["acked"]) + list(state["maybe"]) + \
            list(state["deleted"])
        present = {}
        for i in range(0, len(keys), 100):
            present.update(c.get_multi(keys[i:i + 100]))
        missing = [k for k in state["acked"] if k not in present]
        wrong = [k for k in state["acked"]
                 if k in present and present[k] != state["acked"][k]]
        bad_maybe = [k for k in state["maybe"]
                     if k in present and present[k] != state["maybe"][k]]
        resurrected = [k for k in state["deleted"] if k in present]
        if missing:
            errors.append(f"{len(missing)} acknowledged items lost, e.g. "
                          f"{missing[:3]}")
        if wrong:
            errors.append(f"{len(wrong)} acknowledged items changed, e.g. "
                          f"{wrong[:3]}")
        if bad_maybe:
            errors.append(f"{len(bad_maybe)} half-written items, e.g. "
                          f"{bad_maybe[:3]}")
        if resurrected:
            errors.append(f"{len(resurrected)} deleted items are back")
        counter = c.get("counter")
        if over.last_acked is not None:
            n = int(counter[1]) if counter else -1
            if not (over.last_acked <= n <= over.last_sent) or \
                    counter[0] != n % 1000:
                errors.append(f"counter is {counter}, acknowledged "
                              f"{over.last_acked}, sent {over.last_sent}")
            state["counter"] = n + 1
        stats = c.stats()
        # the persistent counter: evictions before the kill count too
        if int(stats["evictions"]) != 0:
            errors.append(f"{stats['evictions']} items evicted, but the "
                          f"test stores at most {stored_bound(args)} bytes "
                          f"under -m {args.memory}: an evicted item cannot "
                          f"be told from a lost one")
        if int(stats["bytes"]) > stored_bound(args):
            errors.append(f"{stats['bytes']} bytes stored, more than the "
                          f"test's bound {stored_bound(args)}")
        expected = len(present) + (1 if counter else 0)
        if int(stats["curr_items"]) != expected:
            errors.append(f"curr_items {stats['curr_items']} but "
                          f"{expected} items were stored: unknown items")
        if int(stats["ptm_recovered_items"]) != expected:
            errors.append(f"recovered {stats['ptm_recovered_items']} items")
        # the recovered cache keeps working
        if c.set("after-crash", "ok") != b"STORED" or \
                c.get("after-crash") != (0, b"ok"):
            errors.append("the recovered cache does not store")
        c.cmd("delete after-crash\r\n")
        # in-flight stores that made it are acknowledged from now on
        for k, v in list(state["maybe"].items()):
            if k in present:
                state["acked"][k] = v
        state["maybe"] = {k: v for k, v in state["maybe"].items()
                          if k not in present}
        print(f"round {rnd}: restarted, {len(present)} items present, "
              f"{len(state['acked'])} acknowledged in all", flush=True)
    finally:
        code, log = s.stop()
        if code != 0:
            errors.append(f"restarted server exit status {code}: {log}")
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("server")
    ap.add_argument("--ptm-pool")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--kill-after", type=int, default=6000,
                    help="acknowledged writer sets per round before SIGKILL")
    ap.add_argument("--keys", type=int, default=4000,
                    help="distinct keys per writer and round")
    ap.add_argument("--memory", type=int, default=64,
                    help="the server's -m (megabytes)")
    ap.add_argument("--pool-dir")
    args = ap.parse_args()
    exe = os.path.abspath(args.server)
    bound = stored_bound(args)
    if bound > args.memory * 1024 * 1024 * 3 // 4:
        ap.error(f"{args.rounds} rounds x 2 writers x {args.keys} keys store "
                 f"up to {bound} bytes: more than 3/4 of -m {args.memory}")
    state = {"acked": {}, "maybe": {}, "deleted": set()}
    errors = []
    with tempfile.TemporaryDirectory(dir=args.pool_dir) as d:
        pool = os.path.join(d, "crash.pool")
        for rnd in range(args.rounds):
            errors += run_round(exe, pool, args.ptm_pool, rnd, args, state)
    for e in errors:
        print(f"FAIL: {e}")
    if errors:
        return 1
    print("crash test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
