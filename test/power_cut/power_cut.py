#!/usr/bin/env python3
"""Power cuts on an ordinary file system, simulated on a loop device.

    power_cut.py [--control BIN] [--kv BIN]... [--kv-buffered BIN]
                 [--memcached BIN] [--ptm-pool BIN] [--rounds N] [--seed S]
                 [--acks LO:HI] [--workdir DIR]

Each round makes an ext4 file system in an image file, attaches it to a
loop device and mounts it; a program writes there and prints "ack N" after
each unit of work it has made durable (or claims to). After a number of
acknowledgements drawn from [LO, HI] (seeded: rounds are bounded by count,
never by time) the program is stopped (SIGSTOP) and the image file is
copied: the copy holds exactly what the kernel had written to the device,
not what sat in the mounted file system's page cache, i.e. what a power cut
at that moment leaves. The copy is taken while the device is idle (its
write and in-flight counters in /sys/block/loopN/stat unchanged across the
copy; otherwise it is taken again after 10 ms: the kernel may still be
writing back, and any later moment is a power cut too). The program is then killed, the
copy attached and mounted (ext4 replays its journal) and checked.

Workloads say what a round must show:
  durable  every acknowledged unit is in the recovered copy, in every round
  prefix   the recovered copy is the state after some acknowledged unit, at
           or after the last one reported synced (buffered durability)
  loses    some acknowledged unit is missing in at least one round
The control program (control.c) runs both ways: `sync` (fdatasync before
each ack) must be durable and `nosync` must lose, or the harness does not
cut power where the program stands. Root, loop devices and mkfs.ext4 are
needed; without them the script exits 77 (ctest's skip) saying why.

The kv workloads (examples/kv, one binary per ptm library) run in the
persistence domain ptm chooses for a file on ext4 (`file`: the harness
removes PTM_PERSIST_DOMAIN from their environment), strict, or buffered
with a ptm_sync every few puts; `ptm-pool check` must pass on every
recovered pool. The first kv binary also runs with
PTM_PERSIST_DOMAIN=page-cache (no syncs), where it must lose acknowledged
puts: the kv workload is one the harness can catch.

The memcached workloads start ptm-memcached (ip_orec_lazy) with its pool in
that file system and a client (this script, --mc-client) that sets key<i>
over a unix socket and prints "ack put i" for each STORED; both processes
are stopped at the cut. Strict: every acknowledged set is in the server
restarted on the recovered pool; --durability buffered: the keys there are
key0..keyP for some P (a prefix of the sets, each with its value); strict
with PTM_PERSIST_DOMAIN=page-cache must lose acknowledged sets.
"""
import argparse
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SKIP = 77
IMAGE_MB = 64
COPY_TRIES = 1000  # (10 ms apart)


def run(*argv, check=True):
    return subprocess.run(argv, check=check, capture_output=True, text=True)


def skip_reason():
    if os.geteuid() != 0:
        return "loop devices and mounts need root"
    for tool in ("losetup", "mkfs.ext4", "mount", "umount"):
        if not shutil.which(tool):
            return f"no {tool}"
    if not os.path.exists("/dev/loop-control"):
        return "no /dev/loop-control"
    return None


class Loop:
    """IMAGE attached to a loop device and mounted at MOUNT_POINT."""

    def __init__(self, image, mount_point):
        self.image, self.mount_point = image, mount_point
        self.device = run("losetup", "-f", "--show", image).stdout.strip()
        try:
            run("mount", "-t", "ext4", self.device, mount_point)
        except subprocess.CalledProcessError:
            run("losetup", "-d", self.device, check=False)
            raise

    def counters(self):
        """(write I/Os, write sectors, in flight, flushes) of the device."""
        name = os.path.basename(self.device)
        with open(f"/sys/block/{name}/stat") as f:
            s = [int(x) for x in f.read().split()]
        return (s[4], s[6], s[8], s[15] if len(s) > 15 else 0)

    def snapshot(self, copy):
        """Copies the image while the device writes nothing."""
        for _ in range(COPY_TRIES):
            before = self.counters()
            if before[2] == 0:
                shutil.copyfile(self.image, copy)
                if self.counters() == before:
                    return
            time.sleep(0.01)
        raise RuntimeError(f"{self.device} never idle over {COPY_TRIES} "
                           "copies 10 ms apart")

    def close(self):
        run("umount", self.mount_point, check=False)
        run("losetup", "-d", self.device, check=False)


def new_image(path):
    with open(path, "wb") as f:
        f.truncate(IMAGE_MB << 20)
    run("mkfs.ext4", "-q", "-F", path)


class Acks:
    """The "ack N" lines of a program's stdout (a pipe)."""

    def __init__(self, fd):
        self.fd, self.buf, self.last, self.synced = fd, b"", 0, -1

    def take(self, data):
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        for line in lines:
            if line.startswith(b"ack "):  # ("ack N" or "ack WHAT N")
                self.last = max(self.last, int(line.split()[-1]))
            elif line.startswith(b"synced "):  # ("synced N")
                self.synced = max(self.synced, int(line.split()[-1]))

    def until(self, want):
        """Reads until WANT acknowledgements (or the pipe's end)."""
        while self.last < want:
            data = os.read(self.fd, 65536)
            if not data:
                break
            self.take(data)
        return self.last

    def drain(self):
        """Takes what the pipe holds (its writer is stopped)."""
        os.set_blocking(self.fd, False)
        try:
            while data := os.read(self.fd, 65536):
                self.take(data)
        except BlockingIOError:
            pass
        return self.last


def one_round(workload, work, acks_wanted):
    """(acknowledged, recovered) of one power cut."""
    image, copy = os.path.join(work, "disk.img"), os.path.join(work, "cut.img")
    mnt = os.path.join(work, "mnt")
    os.makedirs(mnt, exist_ok=True)
    new_image(image)
    disk = Loop(image, mnt)
    proc, helpers = None, []
    try:
        err = tempfile.TemporaryFile(dir=work)
        helpers = workload.start_helpers(mnt, work, err)
        proc = subprocess.Popen(workload.command(mnt), stdout=subprocess.PIPE,
                                stderr=err, env=workload.env)
        acks = Acks(proc.stdout.fileno())
        acked = acks.until(acks_wanted)
        if acked < acks_wanted:
            proc.wait()
            err.seek(0)
            raise RuntimeError(f"{workload.name} ended after {acked} "
                               "acknowledgements: "
                               f"{err.read().decode().strip()}")
        for p in [*helpers, proc]:  # (stopped: no more writes, no more acks)
            p.send_signal(signal.SIGSTOP)
            os.waitpid(p.pid, os.WUNTRACED)
        acked = acks.drain()
        disk.snapshot(copy)
    finally:
        for p in [*helpers, proc] if proc else helpers:
            p.kill()
            p.wait()
        disk.close()
    recovered = Loop(copy, mnt)
    try:
        return acked, workload.recovered(mnt, acked, acks.synced)
    finally:
        recovered.close()


class Workload:
    """What every workload has: no helper processes, the harness's env."""

    env = None
    expect = None
    ptm_pool = None

    def start_helpers(self, mnt, work, err):
        """Processes the program talks to (stopped with it at the cut)."""
        return []

    def nothing(self):
        """recovered()'s value when the program's pool is gone or does not
        open: nothing recovered (no prefix)."""
        return -1 if self.expect == "prefix" else 0

    def pool_checks(self, pool):
        """Whether `ptm-pool check` (if given) passes on POOL."""
        if not self.ptm_pool:
            return True
        c = subprocess.run([self.ptm_pool, "check", pool], env=self.env,
                           capture_output=True, text=True)
        if c.returncode != 0:
            print(f"  ptm-pool check after the cut: {c.stdout.strip()} "
                  f"{c.stderr.strip()}", flush=True)
        return c.returncode == 0


class Control(Workload):
    """control.c in MODE (sync or nosync)."""

    def __init__(self, binary, mode, expect):
        self.binary, self.mode, self.expect = binary, mode, expect
        self.name = f"control-{mode}"

    def command(self, mnt):
        return [self.binary, self.mode, os.path.join(mnt, "records")]

    def recovered(self, mnt, acked, synced):
        out = run(self.binary, "check", os.path.join(mnt, "records")).stdout
        return int(out.split()[1])


def kv_value(i):
    """examples/kv's value of key I."""
    return f"value{i}-" + chr(ord("a") + i % 26) * (i % 61)


class Kv(Workload):
    """examples/kv (ptm, an ip_ library) loading keys, one transaction
    each, a pool of SIZE_MB on the file system under power cuts; ENV adds
    to the environment (e.g. PTM_DURABILITY), SYNC_EVERY makes it call
    ptm_sync every that many puts. Units: the puts acknowledged ("ack put
    N"); strict (expect durable), a recovered one is a key with its value,
    unless its deletion ("ack del N", after every 4th put) was acknowledged
    too; buffered (expect prefix), the pool must hold the state after some
    put P at or after the last synced one ("synced N"), and P counts as
    every unit recovered (-1: no prefix)."""

    def __init__(self, binary, expect, env=None, size_mb=32, sync_every=0,
                 ptm_pool=None):
        self.binary, self.expect, self.size_mb = binary, expect, size_mb
        self.sync_every, self.ptm_pool = sync_every, ptm_pool
        self.env = {k: v for k, v in os.environ.items()
                    if k != "PTM_PERSIST_DOMAIN"}
        self.env.update(env or {})
        self.name = " ".join([os.path.basename(binary)] +
                             [f"{k}={v}" for k, v in (env or {}).items()])

    def command(self, mnt):
        return [self.binary, "-p", os.path.join(mnt, "kv.pool"), "-s",
                str(self.size_mb), "load", "0", str(1 << 40)] + (
                    [str(self.sync_every)] if self.sync_every else [])

    def recovered(self, mnt, acked, synced):
        pool = os.path.join(mnt, "kv.pool")
        if not os.path.exists(pool):
            return self.nothing()
        if not self.pool_checks(pool):
            return -1
        p = subprocess.run([self.binary, "-p", pool, "list"], env=self.env,
                           capture_output=True, text=True)
        if p.returncode != 0:  # (everything lost: the pool does not open)
            print(f"  kv list after the cut: {p.stderr.strip()}", flush=True)
            return self.nothing()
        have = dict(line.split(" ", 1) for line in p.stdout.splitlines())
        if self.expect == "prefix":
            return self.prefix(have, acked, synced)
        missing = 0
        for i in range(acked + 1):
            # (key i is deleted after put i + 3, if i % 4 == 0)
            deleted = i % 4 == 0 and i + 3 <= acked
            if not deleted and have.get(f"key{i}") != kv_value(i):
                missing += 1
        return acked - missing  # (acknowledged, less those lost)

    @staticmethod
    def prefix(have, acked, synced):
        """ACKED if HAVE is the state after a put P >= SYNCED (or after
        its delete), else -1."""
        keys = [int(k[3:]) for k in have]
        last = max(keys, default=-1)  # (the last put is never deleted yet)
        # (the program may have committed one put more than it printed)
        if last < synced or last > acked + 1:
            print(f"  recovered up to put {last}: synced {synced}, "
                  f"acknowledged {acked}", flush=True)
            return -1
        for i in range(last + 1):
            gone = i % 4 == 0 and i + 3 <= last
            ambiguous = i % 4 == 0 and i + 3 == last  # (its delete or not)
            value = have.get(f"key{i}")
            if not ambiguous and (value is None) != gone or (
                    value is not None and value != kv_value(i)):
                print(f"  not a prefix: key{i} = {value!r} after put {last}",
                      flush=True)
                return -1
        return acked


def mc_request(sock, data, want_end):
    """Sends DATA, returns the reply up to WANT_END (bytes)."""
    sock.sendall(data)
    reply = b""
    while not reply.endswith(want_end):
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("memcached closed the connection")
        reply += chunk
    return reply


def mc_client(path):
    """--mc-client: sets key<i> = kv_value(i), i = 0, 1, ..., over the unix
    socket PATH, printing "ack put i" after each STORED."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    i = 0
    while True:
        v = kv_value(i).encode()
        r = mc_request(s, b"set key%d 0 0 %d\r\n%s\r\n" % (i, len(v), v),
                       b"\r\n")
        if r != b"STORED\r\n":
            sys.exit(f"mc-client: set key{i}: {r!r}")
        print(f"ack put {i}", flush=True)
        i += 1


class Memcached(Workload):
    """ptm-memcached on a pool of the file system under power cuts, strict
    (expect durable) or --durability buffered (expect prefix), fed by
    --mc-client."""

    def __init__(self, binary, expect, durability, ptm_pool=None,
                 page_cache=False):
        self.binary, self.expect, self.ptm_pool = binary, expect, ptm_pool
        self.durability = durability
        self.env = {k: v for k, v in os.environ.items()
                    if k != "PTM_PERSIST_DOMAIN"}
        self.name = f"memcached --durability {durability}"
        if page_cache:  # (the control: no syncs)
            self.env["PTM_PERSIST_DOMAIN"] = "page-cache"
            self.name += " PTM_PERSIST_DOMAIN=page-cache"
        self.sock = None

    def server(self, mnt, work):
        self.sock = os.path.join(work, "mc.sock")
        if os.path.exists(self.sock):
            os.unlink(self.sock)
        return [self.binary, "-p", "0", "-U", "0", "-s", self.sock, "-m", "8",
                "-t", "2", "--pool", os.path.join(mnt, "mc.pool"),
                "--pool-size", "40m", "--durability", self.durability]

    def start_server(self, mnt, work, err):
        proc = subprocess.Popen(self.server(mnt, work), stderr=err,
                                env=self.env)
        # (it listens before it opens its pool: ready once it answers)
        for _ in range(6000):  # (bounded by count: 10 ms apart)
            if os.path.exists(self.sock):
                try:
                    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    s.settimeout(60)
                    s.connect(self.sock)
                    mc_request(s, b"version\r\n", b"\r\n")
                    s.close()
                    return proc
                except (OSError, RuntimeError):
                    pass
            if proc.poll() is not None:
                break
            time.sleep(0.01)
        proc.kill()
        proc.wait()
        raise RuntimeError(f"{self.name}: the server did not start")

    def start_helpers(self, mnt, work, err):
        return [self.start_server(mnt, work, err)]

    def command(self, mnt):
        return [sys.executable, os.path.abspath(__file__), "--mc-client",
                self.sock]

    def recovered(self, mnt, acked, synced):
        pool = os.path.join(mnt, "mc.pool")
        if not os.path.exists(pool):
            return self.nothing()
        if not self.pool_checks(pool):
            return -1
        work = os.path.dirname(mnt)
        err = tempfile.TemporaryFile(dir=work)
        try:
            proc = self.start_server(mnt, work, err)
        except RuntimeError:
            err.seek(0)
            print(f"  memcached after the cut: {err.read().decode()[-500:]}",
                  flush=True)
            return self.nothing()
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(self.sock)
            have = {}
            for lo in range(0, acked + 2, 100):
                keys = " ".join(f"key{i}" for i in range(
                    lo, min(lo + 100, acked + 2)))
                reply = mc_request(s, f"get {keys}\r\n".encode(), b"END\r\n")
                lines = reply.decode().split("\r\n")
                for j, line in enumerate(lines):
                    if line.startswith("VALUE "):
                        have[line.split()[1]] = lines[j + 1]
            s.close()
        except (OSError, RuntimeError) as e:
            proc.kill()
            proc.wait()
            err.seek(0)
            print(f"  memcached after the cut: {e}; exit {proc.returncode}; "
                  f"{err.read().decode()[-500:]}", flush=True)
            return self.nothing()
        finally:
            if proc.poll() is None:
                proc.terminate()
                proc.wait()
        if self.expect == "prefix":
            last = max((int(k[3:]) for k in have), default=-1)
            bad = [i for i in range(last + 1)
                   if have.get(f"key{i}") != kv_value(i)]
            if bad or last > acked + 1:
                print(f"  not a prefix: up to key{last}, missing or wrong "
                      f"{bad[:5]}", flush=True)
                return -1
            return acked
        missing = sum(1 for i in range(acked + 1)
                      if have.get(f"key{i}") != kv_value(i))
        return acked - missing


def verdict(workload, results):
    lost = [(a, r) for a, r in results if r < a]
    if workload.expect == "prefix":
        ok = not lost
        what = ("every round recovered a prefix with everything synced" if
                ok else f"{len(lost)} of {len(results)} rounds recovered no "
                f"prefix: {lost}")
    elif workload.expect == "durable":
        ok = not lost
        what = ("every acknowledged unit survived" if ok else
                f"{len(lost)} of {len(results)} rounds lost acknowledged "
                f"units (acknowledged, recovered): {lost}")
    else:
        ok = bool(lost)
        what = (f"{len(lost)} of {len(results)} rounds lost acknowledged "
                "units, as they must" if ok else
                "no round lost anything: the harness did not cut power")
    print(f"{'PASS' if ok else 'FAIL'} {workload.name}: {what}", flush=True)
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--control", help="power_cut_control")
    ap.add_argument("--kv", action="append", default=[],
                    help="examples' kv (an ip_ library), strict: every "
                    "acknowledged put must survive (repeatable)")
    ap.add_argument("--kv-buffered", action="append", default=[],
                    help="examples' kv (a lazy ip_ library) under buffered "
                    "durability: a prefix, with every synced put")
    ap.add_argument("--memcached", help="ptm-memcached (ip_orec_lazy): "
                    "strict, every acknowledged set survives; buffered, a "
                    "prefix")
    ap.add_argument("--mc-client", help=argparse.SUPPRESS)
    ap.add_argument("--ptm-pool", help="ptm-pool: `check` on every "
                    "recovered pool")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--acks", default="200:2000", help="LO:HI per round")
    ap.add_argument("--workdir", help="default: a new one in /dev/shm")
    args = ap.parse_args()
    if args.mc_client:
        return mc_client(args.mc_client)
    why = skip_reason()
    if why:
        print(f"SKIP: {why}")
        return SKIP
    lo, hi = (int(x) for x in args.acks.split(":"))
    rng = random.Random(args.seed)
    workloads = []
    if args.control:
        workloads += [Control(args.control, "sync", "durable"),
                      Control(args.control, "nosync", "loses")]
    workloads += [Kv(b, "durable", ptm_pool=args.ptm_pool) for b in args.kv]
    # (the same program told not to sync: what the file domain adds)
    workloads += [Kv(b, "loses", env={"PTM_PERSIST_DOMAIN": "page-cache"})
                  for b in args.kv[:1]]
    workloads += [Kv(b, "prefix", env={"PTM_DURABILITY": "buffered:10"},
                     sync_every=97, ptm_pool=args.ptm_pool)
                  for b in args.kv_buffered]
    if args.memcached:
        workloads += [Memcached(args.memcached, "durable", "strict",
                                args.ptm_pool),
                      Memcached(args.memcached, "prefix", "buffered",
                                args.ptm_pool),
                      Memcached(args.memcached, "loses", "strict",
                                page_cache=True)]
    if not workloads:
        ap.error("nothing to run: give --control, --kv, --kv-buffered or "
                 "--memcached")
    # (the image on tmpfs by default: the loop device's flushes then cost
    # nothing, and its copy is the device's content all the same)
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
    work = args.workdir or tempfile.mkdtemp(prefix="ptm-power-cut-", dir=shm)
    ok = True
    try:
        for w in workloads:
            results = []
            for i in range(args.rounds):
                acked, got = one_round(w, work, rng.randint(lo, hi))
                print(f"{w.name} round {i + 1}: {acked} acknowledged, "
                      f"{got} recovered", flush=True)
                results.append((acked, got))
            ok &= verdict(w, results)
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
