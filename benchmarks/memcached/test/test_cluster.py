#!/usr/bin/env python3
"""Scale-out the memcached way: three ptm-memcached servers, each on its own
pool, sharded by a consistent-hashing client. One server is killed with
SIGKILL while a loader writes through the client, and restarted on its pool
and port; every item a server acknowledged is still on it (the restarted
one included), and the two others ran on untouched.

Two clients, each in its own round on fresh pools: a small ketama client
written here (libmemcached's ring: 160 points per server from MD5) and
pymemcache's HashClient (rendezvous hashing), the latter skipped with a
message if pymemcache is not installed (Debian: python3-pymemcache). Every
phase is bounded by counts: the machine's speed decides which keys a dead
server fails, never the verdict. Only localhost is used.

Usage: test_cluster.py SERVER [--pool-dir DIR]
"""
import argparse
import bisect
import hashlib
import os
import sys
import tempfile
import threading

from mc_testlib import Client, Server, check, verdict

SKIP = 77  # ctest SKIP_RETURN_CODE

# Keys written before the kill (the kill waits for them), the least written
# (and the least refused by the dead server) between the kill and the
# restart, and written after the restart.
BEFORE, DURING, DURING_FAILS, AFTER = 1500, 600, 20, 1500
# A bound on a hang (the dead server refuses at once): never reached.
DURING_MAX = 10**6


def eq(got, want, what):
    check(got == want, f"{what}: got {got!r}, want {want!r}")


class Ketama:
    """Ketama consistent hashing as libmemcached does it: each server
    "host:port" gets 40 MD5 digests of "host:port-i", each giving 4 points
    (its 4-byte groups, little-endian) on a 32-bit circle; a key goes to the
    first point at or after the first 4 bytes of its MD5 (wrapping)."""

    def __init__(self, servers):
        points = []
        for name in servers:
            for i in range(40):
                d = hashlib.md5(f"{name}-{i}".encode()).digest()
                for g in range(4):
                    points.append((int.from_bytes(d[4 * g:4 * g + 4],
                                                  "little"), name))
        points.sort()
        self.hashes = [h for h, _ in points]
        self.names = [n for _, n in points]

    def node(self, key):
        h = int.from_bytes(hashlib.md5(key.encode()).digest()[:4], "little")
        i = bisect.bisect_left(self.hashes, h)
        return self.names[i % len(self.names)]


class KetamaClient:
    """A memcached client over the ring: one text-protocol connection per
    server, opened again after a failure. A server that fails does not leave
    the ring (libmemcached without auto-eject): its keys fail until it is
    back."""

    def __init__(self, servers):
        self.ring = Ketama(servers)
        self.conns = {}

    def node(self, key):
        return self.ring.node(key)

    def _conn(self, name):
        c = self.conns.get(name)
        if c is None:
            host, port = name.rsplit(":", 1)
            c = Client(int(port), timeout=30)
            self.conns[name] = c
        return c

    def _drop(self, name):
        c = self.conns.pop(name, None)
        if c:
            c.close()

    def set(self, key, value):
        """True once the server acknowledged (STORED)."""
        name = self.node(key)
        try:
            return self._conn(name).set(key, value) == b"STORED"
        except OSError:
            self._drop(name)
            return False

    def get(self, key):
        name = self.node(key)
        try:
            got = self._conn(name).get(key)
        except OSError:
            self._drop(name)
            return None
        return got[1] if got else None

    def close(self):
        for name in list(self.conns):
            self._drop(name)


class PymemcacheClient:
    """pymemcache's HashClient. Sets wait for the reply (noreply off); a
    failed server is retried at once and never ejected (its keys fail until
    it is back), so that no key moves to another server and nothing in the
    test depends on time."""

    def __init__(self, servers, hash_module):
        self.hc = hash_module.HashClient(
            [(n.rsplit(":", 1)[0], int(n.rsplit(":", 1)[1]))
             for n in servers],
            connect_timeout=30, timeout=30, default_noreply=False,
            retry_attempts=10**9, retry_timeout=0, dead_timeout=10**9)

    def node(self, key):
        return self.hc.hasher.get_node(key)

    def set(self, key, value):
        try:
            return self.hc.set(key, value, noreply=False) is True
        except Exception:  # pymemcache's errors, the socket's: not acked
            return False

    def get(self, key):
        try:
            return self.hc.get(key)
        except Exception:
            return None

    def close(self):
        self.hc.close()


def value_of(key):
    return f"v-{key}-".encode() * (1 + len(key) % 5)


class Loader(threading.Thread):
    """Writes keys through CLIENT: BEFORE of them (then sets `reached`),
    then on while the victim is down until DURING were written and
    DURING_FAILS were refused (then sets `paused` and waits for
    `restarted`), then AFTER more. Records which server acknowledged which
    key, and which sets failed."""

    def __init__(self, client, prefix):
        super().__init__(daemon=True)
        self.client = client
        self.prefix = prefix
        self.acked = {}  # key -> (server, phase)
        self.failed = {}  # key -> (server, phase)
        self.reached = threading.Event()
        self.paused = threading.Event()
        self.restarted = threading.Event()
        self.error = None
        self.n = 0

    def write(self, phase):
        key = f"{self.prefix}{self.n}"
        self.n += 1
        node = self.client.node(key)
        if self.client.set(key, value_of(key)):
            self.acked[key] = (node, phase)
            return True
        self.failed[key] = (node, phase)
        return False

    def run(self):
        try:
            for _ in range(BEFORE):
                self.write("before")
            self.reached.set()
            written = fails = 0
            while (written < DURING or fails < DURING_FAILS) and \
                    written < DURING_MAX:
                fails += not self.write("during")
                written += 1
            self.paused.set()
            self.restarted.wait(timeout=600)
            for _ in range(AFTER):
                self.write("after")
        except Exception as e:  # reported by the main thread
            self.error = e
            self.reached.set()
            self.paused.set()


def start(exe, pool, port=None):
    """A server on POOL, on a free port or PORT (-v: the server names its
    port on stderr only when it chose it, or with -v)."""
    args = ["-t", "2"]
    if port is not None:
        args += ["-v", "-p", str(port)]
    return Server(exe, *args, pool=pool)


def scenario(exe, pool_dir, name, make_client):
    """Three servers; the loader writes through the client built by
    MAKE_CLIENT(servers); the second server is killed after BEFORE keys and
    restarted once DURING keys were written past it."""
    pools = [os.path.join(pool_dir, f"{name}-{i}.pool") for i in range(3)]
    servers = [start(exe, p) for p in pools]
    try:
        names = [f"127.0.0.1:{s.port}" for s in servers]
        pids = [s.proc.pid for s in servers]
        victim = names[1]
        client = make_client(names)
        loader = Loader(client, f"{name}:")
        loader.start()
        check(loader.reached.wait(timeout=600), f"{name}: loader started")
        eq(servers[1].kill(), -9, f"{name}: SIGKILL of {victim} mid-load")
        check(loader.paused.wait(timeout=600), f"{name}: loader went on")
        servers[1] = start(exe, pools[1], port=servers[1].port)
        loader.restarted.set()
        loader.join(timeout=600)
        check(not loader.is_alive(), f"{name}: loader done")
        check(loader.error is None, f"{name}: loader error {loader.error!r}")

        def count(node=None, phase=None, table=loader.acked):
            return sum(1 for n, p in table.values()
                       if (node is None or n == node) and
                       (phase is None or p == phase))

        # the ring spreads the keys; the dead server refused only its own
        for n in names:
            check(count(n, "before") > BEFORE // 10,
                  f"{name}: {n} acknowledged {count(n, 'before')} keys "
                  f"before the kill")
        check(count(victim, "after") > AFTER // 10,
              f"{name}: the restarted server acknowledged "
              f"{count(victim, 'after')} keys")
        wrong = [k for k, (n, _) in loader.failed.items() if n != victim]
        check(not wrong, f"{name}: failed sets only on {victim}: {wrong[:5]}")
        check(count(victim, "during", loader.failed) >= DURING_FAILS,
              f"{name}: sets to the dead server failed")
        check(count(phase="before", table=loader.failed) == 0,
              f"{name}: no set failed before the kill")
        check(count(phase="after", table=loader.failed) == 0,
              f"{name}: no set failed after the restart")

        # every acknowledged item on the server that acknowledged it, read
        # over a connection of its own, and through the client
        for i, (n, s) in enumerate(zip(names, servers)):
            c = s.connect()
            keys = [k for k, (node, _) in loader.acked.items() if node == n]
            got = {}
            for j in range(0, len(keys), 200):
                got.update(c.get_multi(keys[j:j + 200]))
            lost = [k for k in keys if got.get(k, (0, None))[1] !=
                    value_of(k)]
            check(not lost, f"{name}: {n}: {len(keys) - len(lost)} of "
                  f"{len(keys)} acknowledged items intact "
                  f"(lost: {lost[:5]})")
            st = c.stats()
            items = int(st["curr_items"])
            if i == 1:
                recovered = int(st["ptm_recovered_items"])
                # (a set in flight at the kill may have been stored
                # without its reply)
                check(count(n, "before") <= recovered <=
                      count(n, "before") + count(n, "during", loader.failed),
                      f"{name}: {n} recovered {recovered} items, "
                      f"{count(n, 'before')} acknowledged before the kill")
                check(len(keys) <= items <= len(keys) +
                      count(n, "during", loader.failed),
                      f"{name}: {n} holds {items} items, {len(keys)} "
                      f"acknowledged")
            else:
                eq(s.proc.pid, pids[i], f"{name}: {n} kept running")
                eq(s.proc.poll(), None, f"{name}: {n} alive")
                eq(items, len(keys), f"{name}: {n}: curr_items is what it "
                   f"acknowledged")
                eq(st["ptm_recovered_items"], "0",
                   f"{name}: {n} never restarted")
            c.close()
        wrong = [k for k in loader.acked if client.get(k) != value_of(k)]
        check(not wrong, f"{name}: the client reads every acknowledged "
              f"item back (wrong: {wrong[:5]})")
        client.close()
        print(f"{name}: {len(loader.acked)} acknowledged sets, "
              f"{len(loader.failed)} refused while {victim} was down; "
              f"{count(victim, 'before')} on it before the kill, "
              f"{count(victim, 'after')} after the restart", flush=True)
    finally:
        for s in servers:
            code, log = s.stop()
            if code != 0:
                check(False, f"{name}: server exit {code}: {log[-500:]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("server")
    ap.add_argument("--pool-dir")
    args = ap.parse_args()
    exe = os.path.abspath(args.server)
    with tempfile.TemporaryDirectory(dir=args.pool_dir) as d:
        s = Server(exe, pool=os.path.join(d, "probe.pool"))
        persistent = s.connect().stats()["ptm_persistent"] == "1"
        s.stop()
        if not persistent:
            print("SKIP: the server's library is volatile (STM): nothing "
                  "survives a restart")
            return SKIP
        scenario(exe, d, "ketama", KetamaClient)
        try:
            from pymemcache.client import hash as hash_module
        except ImportError as e:
            print(f"SKIP pymemcache round: {e} (Debian: apt-get install "
                  f"python3-pymemcache; PyPI: pip install pymemcache)",
                  flush=True)
        else:
            scenario(exe, d, "pymemcache",
                     lambda names: PymemcacheClient(names, hash_module))
    return verdict("cluster: every acknowledged item intact")


if __name__ == "__main__":
    sys.exit(main())
