#!/usr/bin/env python3
"""Crash test of ptm-memcached: clients store items and record every
acknowledged store; the server is SIGKILLed in the middle of the load and
restarted on the same pool, which must hold every acknowledged item intact
(value and flags), nothing half-written, and no item that was never sent.

    test_crash.py SERVER [--ptm-pool TOOL] [--rounds N] [--seconds S]

Per round: 2 writer connections set new keys (values of 1..3000 bytes
derived from the key), 1 connection overwrites one key with increasing
numbers, 1 connection deletes keys it stored; SIGKILL after S seconds.
After the kill `ptm-pool check` (if given) checks the pool, the server
restarts on it, and the checks run; the next round continues on the same
pool.
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


def value_of(key, length):
    seed = hashlib.sha256(key.encode()).digest()
    return (seed * (length // len(seed) + 1))[:length]


def length_of(i):
    return 1 + (i * 7919) % 3000


class Writer(threading.Thread):
    """Sets new keys PREFIX-i; acked: key -> (flags, value)."""

    def __init__(self, port, prefix):
        super().__init__(daemon=True)
        self.port, self.prefix = port, prefix
        self.acked, self.sent = {}, {}

    def run(self):
        try:
            c = Client(self.port)
            for i in range(10 ** 9):
                key = f"{self.prefix}-{i}"
                entry = (i % 65536, value_of(key, length_of(i)))
                self.sent[key] = entry
                if c.set(key, entry[1], flags=entry[0]) != b"STORED":
                    raise AssertionError(f"set {key} not stored")
                self.acked[key] = entry
        except (ConnectionError, OSError):
            pass  # the server was killed


class Overwriter(threading.Thread):
    """Overwrites KEY with 0, 1, 2, ...: the value after the crash must be
    at least the last acknowledged one and at most the last sent one."""

    def __init__(self, port, key, start):
        super().__init__(daemon=True)
        self.port, self.key = port, key
        self.last_acked, self.last_sent = None, None
        self.start_at = start

    def run(self):
        try:
            c = Client(self.port)
            for n in range(self.start_at, 10 ** 9):
                self.last_sent = n
                if c.set(self.key, str(n), flags=n % 1000) != b"STORED":
                    raise AssertionError("overwrite not stored")
                self.last_acked = n
        except (ConnectionError, OSError):
            pass


class Deleter(threading.Thread):
    """Stores PREFIX-i, then deletes it: deleted (acknowledged) keys must
    stay deleted."""

    def __init__(self, port, prefix):
        super().__init__(daemon=True)
        self.port, self.prefix = port, prefix
        self.deleted, self.stored, self.sent = set(), {}, set()
        self.deleting = None  # a delete sent, not acknowledged

    def run(self):
        try:
            c = Client(self.port)
            for i in range(10 ** 9):
                key = f"{self.prefix}-{i}"
                self.sent.add(key)
                entry = (1, value_of(key, 100))
                if c.set(key, entry[1], flags=1) != b"STORED":
                    raise AssertionError("set not stored")
                self.stored[key] = entry
                self.deleting = key
                if c.cmd(f"delete {key}\r\n") != b"DELETED":
                    raise AssertionError("delete failed")
                del self.stored[key]
                self.deleted.add(key)
                self.deleting = None
        except (ConnectionError, OSError):
            pass


def run_round(exe, pool, tool, rnd, seconds, state):
    s = Server(exe, "-t", "2", pool=pool)
    writers = [Writer(s.port, f"w{rnd}.{k}") for k in range(2)]
    over = Overwriter(s.port, "counter", state.get("counter", 0))
    deleter = Deleter(s.port, f"d{rnd}")
    threads = writers + [over, deleter]
    for t in threads:
        t.start()
    time.sleep(seconds)
    s.kill(9)
    for t in threads:
        t.join(timeout=30)
    _, log = s.stop()
    acked = sum(len(w.acked) for w in writers)
    print(f"round {rnd}: {acked} acknowledged sets, counter at "
          f"{over.last_acked}, {len(deleter.deleted)} deletes, SIGKILL",
          flush=True)
    errors = []
    if acked < 50:
        errors.append(f"only {acked} sets acknowledged before the kill")
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

    s = Server(exe, "-t", "2", pool=pool)
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
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--pool-dir")
    args = ap.parse_args()
    exe = os.path.abspath(args.server)
    state = {"acked": {}, "maybe": {}, "deleted": set()}
    errors = []
    with tempfile.TemporaryDirectory(dir=args.pool_dir) as d:
        pool = os.path.join(d, "crash.pool")
        for rnd in range(args.rounds):
            errors += run_round(exe, pool, args.ptm_pool, rnd, args.seconds,
                                state)
    for e in errors:
        print(f"FAIL: {e}")
    if errors:
        return 1
    print("crash test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
