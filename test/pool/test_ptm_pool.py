#!/usr/bin/env python3
"""ptm-pool info/check/create on good and damaged pools.

test_ptm_pool.py PTM_POOL_BINARY WORKDIR
"""
import hashlib
import os
import struct
import subprocess
import sys

tool, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
failures = 0
M64 = (1 << 64) - 1


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg, file=sys.stderr)


def run(*args, want_rc, want_out=(), want_err=()):
    p = subprocess.run([tool, *args], capture_output=True, text=True)
    if p.returncode != want_rc:
        fail(f"{args}: exit {p.returncode}, expected {want_rc}\n{p.stdout}{p.stderr}")
    for s in want_out:
        if s not in p.stdout:
            fail(f"{args}: stdout lacks {s!r}:\n{p.stdout}")
    for s in want_err:
        if s not in p.stderr:
            fail(f"{args}: stderr lacks {s!r}:\n{p.stderr}")
    return p


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def patch(path, offset, data):
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def mix64(x):
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & M64
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & M64
    x ^= x >> 31
    return x


# runtime/pool/pool_format.h: kCheckKeys[0..2], entry_check (version 4).
CHECK_KEYS = (0xEC5918EC1A970A39, 0xCC30D2955AD406A5, 0x98CC4E337FFB7369)


def entry_check(addr, meta, data):
    k = CHECK_KEYS
    return mix64((addr * k[0] + meta * k[1] + data * k[2]) & M64) | 1


pool = os.path.join(work, "good.pool")
for f in os.listdir(work):
    os.unlink(os.path.join(work, f))

# Bad arguments: usage, exit 2.
run(want_rc=2, want_err=["usage: ptm-pool"])
run("frob", pool, want_rc=2, want_err=["usage: ptm-pool"])
run("create", pool, want_rc=2)
run("create", pool, "lots", want_rc=2, want_err=["bad size 'lots'"])
run("info", want_rc=2)
run("create", pool, "32M", "--slots", "0", want_rc=2)

# A good pool.
run("create", pool, "32M", want_rc=0, want_out=["created, 33554432 bytes"])
run("create", pool, "32M", want_rc=1, want_err=["the file exists"])
run("info", pool, want_rc=0,
    want_out=["size:        33554432 bytes", "base:        0x", "creator:     ptm-pool",
              "slots:       64 x 262144 bytes", "root:        none",
              "pending:     0 record(s)", "heap stats:  0 blocks"])
run("check", pool, want_rc=0, want_out=["ok (0 record(s)"])
small = os.path.join(work, "small.pool")
run("create", small, "24M", "--slots", "8", "--slot-size", "64K", want_rc=0,
    want_out=["8 slots of 65536 bytes"])
run("create", os.path.join(work, "tiny.pool"), "1M", want_rc=1, want_err=["too small"])

# Header fields we need.
with open(pool, "rb") as f:
    hdr = f.read(4096)
pool_size, base = struct.unpack_from("<QQ", hdr, 16)
slot_count, = struct.unpack_from("<I", hdr, 32)
slot_size, slots_off, heap_off = struct.unpack_from("<QQQ", hdr, 40)

# A redo-committed slot with one valid entry (after the slot's two header
# lines): pending, recoverable, ok.
slot = 5
gen = 3
soff = slots_off + slot * slot_size
addr = base + pool_size - 8  # a heap data word
meta = 0xFF | gen << 8
data = 0x1234
patch(pool, soff + 128, struct.pack("<QQQQ", addr, meta, data, entry_check(addr, meta, data)))
patch(pool, soff, struct.pack("<QQQ", 2 | gen << 8, 1, 1))
before = digest(pool)
run("info", pool, want_rc=0,
    want_out=["pending:     1 record(s)",
              "slot 5: redo-committed, generation 3, commit order 1, 1 entries"])
run("check", pool, want_rc=0, want_out=["ok (1 record(s) with logs to recover"])
if digest(pool) != before:
    fail("info/check changed the file")

# The entry torn: a committed log is damaged.
patch(pool, soff + 128 + 16, struct.pack("<Q", data ^ 1))
before = digest(pool)
run("check", pool, want_rc=1,
    want_err=["thread slot 5: entry 0 of its committed redo log (generation 3) is damaged"])
run("info", pool, want_rc=1, want_out=["DAMAGED"])
if digest(pool) != before:
    fail("check of a damaged pool changed the file")
patch(pool, soff, struct.pack("<QQQ", 0 | gen << 8, 0, 0))  # idle again
run("check", pool, want_rc=0)

# Damaged heap metadata.
heap_bad = os.path.join(work, "heap.pool")
with open(pool, "rb") as f, open(heap_bad, "wb") as g:
    g.write(f.read())
patch(heap_bad, heap_off, b"XXXXXXXX")
run("check", heap_bad, want_rc=1, want_err=["heap damaged"])

# Damaged header.
hdr_bad = os.path.join(work, "hdr.pool")
with open(pool, "rb") as f, open(hdr_bad, "wb") as g:
    g.write(f.read())
patch(hdr_bad, 100, b"\x01")
before = digest(hdr_bad)
run("check", hdr_bad, want_rc=1, want_err=["bad header checksum: the pool header is damaged"])
run("info", hdr_bad, want_rc=1, want_err=["bad header checksum"])
if digest(hdr_bad) != before:
    fail("check of a bad header changed the file")

# Not a pool at all, and a missing file.
junk = os.path.join(work, "junk")
with open(junk, "wb") as f:
    f.write(os.urandom(10000))
run("check", junk, want_rc=1, want_err=["not a ptm pool (bad magic)"])
run("info", os.path.join(work, "missing.pool"), want_rc=1, want_err=["cannot open"])

for f in os.listdir(work):
    os.unlink(os.path.join(work, f))
print("ptm-pool: %s" % ("all checks passed" if not failures else f"{failures} failure(s)"))
sys.exit(1 if failures else 0)
