#!/usr/bin/env python3
"""ptm-pool info/check/create on good, damaged and hostile files.

Also: created files are owner-only unless --mode says otherwise, create
refuses an existing file unless --force (which replaces it whole), and
info/check warn about a pool that other users can write.

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


def head_digest(path):
    """Size and the first MiB (of a file too large to read whole)."""
    with open(path, "rb") as f:
        return os.path.getsize(path), hashlib.sha256(f.read(1 << 20)).hexdigest()


def patch(path, offset, data):
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def fnv1a(data):
    x = 0xCBF29CE484222325
    for b in data:
        x = ((x ^ b) * 0x100000001B3) & M64
    return x


def set_pool_size(path, size):
    """Rewrites the header's pool_size (checksum updated): a consistent
    header for a pool of SIZE bytes; the file is not resized."""
    with open(path, "r+b") as f:
        h = bytearray(f.read(160))
        struct.pack_into("<Q", h, 16, size)
        struct.pack_into("<Q", h, 152, 0)
        struct.pack_into("<Q", h, 152, fnv1a(h))
        f.seek(0)
        f.write(h)


def mode_of(path):
    return os.stat(path).st_mode & 0o7777


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


def clean(directory):
    for f in os.listdir(directory):
        p = os.path.join(directory, f)
        if os.path.isdir(p) and not os.path.islink(p):
            os.rmdir(p)
        else:
            os.unlink(p)


pool = os.path.join(work, "good.pool")
clean(work)
os.umask(0o022)

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
              "state:       clean (closed cleanly: nothing to recover)",
              "pending:     0 record(s)", "heap stats:  0 blocks"])
run("check", pool, want_rc=0, want_out=["ok, clean (closed cleanly"])
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
run("check", pool, want_rc=0, want_out=["ok, 1 record(s) with logs to recover"])
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

# Modes: owner-only by default, --mode otherwise (the umask applies).
if mode_of(pool) != 0o600:
    fail(f"created with mode {mode_of(pool):o}, expected 600")
shared = os.path.join(work, "shared.pool")
run("create", shared, "24M", "--mode", "640", want_rc=0)
if mode_of(shared) != 0o640:
    fail(f"--mode 640 gave mode {mode_of(shared):o}")
for bad_mode in ["400", "1777", "rw", "8", ""]:
    run("create", os.path.join(work, "m.pool"), "24M", "--mode", bad_mode,
        want_rc=2, want_err=[f"bad mode '{bad_mode}'"])
run("create", shared, "24M", "--mode", want_rc=2)
# A pool of an older build (0644): no warning; writable by others: a warning.
os.chmod(shared, 0o644)
p = run("check", shared, want_rc=0)
if "warning" in p.stderr:
    fail("warning about a 0644 pool:\n" + p.stderr)
os.chmod(shared, 0o666)
run("check", shared, want_rc=0,
    want_err=["ptm: warning: " + shared + ": the pool file can be written by other users (mode 0666"])
run("info", shared, want_rc=0, want_out=["file mode:   0666"])

# create over an existing file: refused, the file unchanged; --force
# replaces it whole (size, mode and uuid new); never a directory.
before = digest(shared)
run("create", shared, "32M", want_rc=1,
    want_err=["the file exists (ptm-pool create --force replaces it)"])
if digest(shared) != before:
    fail("a refused create changed the file")
run("create", shared, "32M", "--force", want_rc=0, want_out=["created, 33554432 bytes"])
if mode_of(shared) != 0o600:
    fail(f"--force left mode {mode_of(shared):o}, expected 600")
run("info", shared, want_rc=0, want_out=["size:        33554432 bytes"])
run("create", shared, "1M", "--force", want_rc=1, want_err=["too small"])
run("info", shared, want_rc=0, want_out=["size:        33554432 bytes"])
a_dir = os.path.join(work, "a_dir")
os.mkdir(a_dir)
run("create", a_dir, "32M", "--force", want_rc=1, want_err=["not a regular file"])
if not os.path.isdir(a_dir):
    fail("create --force removed a directory")
leftovers = [f for f in os.listdir(work) if ".new-" in f]
if leftovers:
    fail(f"create --force left {leftovers}")

# Hostile files: truncated below the header and below the pool, huge and
# sparse (zeros; a pool extended; a header claiming 1 TiB over a sparse
# file): a clear message, exit 1, the file unchanged.
TIB = 1 << 40
with open(pool, "rb") as f:
    image = f.read()
hostile = os.path.join(work, "hostile.pool")
# (bytes written, header's pool_size rewritten to, file size, message)
cases = [
    (image[:1000], None, None,
     "truncated: the file has 1000 bytes, less than the 4096-byte pool header"),
    (image[:4 << 20], None, None,
     "truncated: the file has 4194304 bytes, the pool header says 33554432"),
    (b"", None, TIB, "not a ptm pool (bad magic)"),
    (image, None, TIB,
     f"wrong size: the file has {TIB} bytes, the pool header says 33554432"),
    (image, TIB, TIB, "heap header: layout does not match the region"),
]
for data, claimed, size, message in cases:
    with open(hostile, "wb") as f:
        f.write(data)
    if claimed is not None:
        set_pool_size(hostile, claimed)
    if size is not None:
        os.truncate(hostile, size)
    before = head_digest(hostile)
    for cmd in ("check", "info"):
        p = run(cmd, hostile, want_rc=1)
        if message not in p.stderr + p.stdout:
            fail(f"{cmd} {message!r}: got\n{p.stdout}{p.stderr}")
    if head_digest(hostile) != before:
        fail(f"{message!r}: the file changed")
    os.unlink(hostile)

clean(work)
print("ptm-pool: %s" % ("all checks passed" if not failures else f"{failures} failure(s)"))
sys.exit(1 if failures else 0)
