#!/usr/bin/env python3
"""Protocol tests of ptm-memcached over raw sockets: every text command,
noreply, multi-get, cas, expiry, flush_all, LRU eviction under a small -m,
-m counted in slab pages per size class (cache_memlimit, -M), malformed
input, the binary protocol, bad arguments, a clean restart on the
same pool, watch (log streams).

    test_protocol.py SERVER [--pool-dir DIR]
"""
import argparse
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time

from mc_testlib import Client, Server, check, failures, verdict


def eq(got, want, what):
    check(got == want, f"{what}: got {got!r}, want {want!r}")


# ---- text protocol ---------------------------------------------------------

def test_storage(c, item_max):
    eq(c.set("k1", "hello", flags=42), b"STORED", "set")
    eq(c.get("k1"), (42, b"hello"), "get after set")
    eq(c.set("k1", "world", flags=7), b"STORED", "set overwrites")
    eq(c.get("k1"), (7, b"world"), "get after overwrite")
    eq(c.set("k1", "x", op="add"), b"NOT_STORED", "add of a present key")
    eq(c.set("k2", "new", op="add"), b"STORED", "add of a new key")
    eq(c.set("k3", "x", op="replace"), b"NOT_STORED", "replace missing")
    eq(c.set("k2", "rep", flags=3, op="replace"), b"STORED", "replace")
    eq(c.get("k2"), (3, b"rep"), "get after replace")
    eq(c.set("k2", "++", flags=99, op="append"), b"STORED", "append")
    eq(c.set("k2", "--", op="prepend"), b"STORED", "prepend")
    eq(c.get("k2"), (3, b"--rep++"), "append/prepend keep flags")
    eq(c.set("k4", "x", op="append"), b"NOT_STORED", "append missing")
    eq(c.set("k4", "x", op="prepend"), b"NOT_STORED", "prepend missing")
    eq(c.set("empty", ""), b"STORED", "empty value")
    eq(c.get("empty"), (0, b""), "get empty value")
    binary = bytes(range(256)) + b"\r\nEND\r\n"
    eq(c.set("bin", binary, flags=0xFFFFFFFF), b"STORED", "binary value")
    eq(c.get("bin"), (0xFFFFFFFF, binary), "binary value round trip")
    key = "k" * 250
    eq(c.set(key, "long key"), b"STORED", "250-byte key")
    eq(c.get(key), (0, b"long key"), "get 250-byte key")
    big = os.urandom(min(60000, item_max - 1000))
    eq(c.set("big", big), b"STORED", "large value")
    eq(c.get("big"), (0, big), "large value round trip")


def test_multiget_and_cas(c):
    for i in range(10):
        c.set(f"m{i}", f"value{i}", flags=i)
    got = c.get_multi([f"m{i}" for i in range(12)] + ["m3"])
    eq(sorted(got), sorted(f"m{i}" for i in range(10)), "multi-get keys")
    check(all(got[f"m{i}"] == (i, f"value{i}".encode()) for i in range(10)),
          "multi-get values")
    g = c.gets("m1")
    check(g is not None and g[2] > 0, "gets returns a cas")
    cas = g[2]
    eq(c.set("m1", "zz", cas=cas + 1000, op="cas"), b"EXISTS", "cas mismatch")
    eq(c.set("m1", "zz", flags=5, cas=cas, op="cas"), b"STORED", "cas match")
    g2 = c.gets("m1")
    eq(g2[:2], (5, b"zz"), "value after cas")
    check(g2[2] != cas, "cas changes on store")
    eq(c.set("m1", "again", cas=cas, op="cas"), b"EXISTS", "stale cas")
    eq(c.set("nocas", "v", cas=1, op="cas"), b"NOT_FOUND", "cas missing key")
    c.set("m2", "v2")
    cas2 = c.gets("m2")[2]
    c.cmd("touch m2 100\r\n")
    eq(c.gets("m2")[2], cas2, "touch keeps the cas")
    multi = c.get_multi(["m1", "m2"], "gets")
    check(all(len(v) == 3 for v in multi.values()), "multi-gets has cas")


def test_delete_incr_touch(c):
    c.set("d", "x")
    eq(c.cmd("delete d\r\n"), b"DELETED", "delete")
    eq(c.cmd("delete d\r\n"), b"NOT_FOUND", "delete missing")
    c.set("d", "x")
    eq(c.cmd("delete d 0\r\n"), b"DELETED", "delete with legacy 0")
    c.set("d", "x")
    # memcached 1.6.45 ignores whatever follows the key
    eq(c.cmd("delete d 5\r\n"), b"DELETED", "delete with a hold time")
    eq(c.cmd("incr n 1\r\n"), b"NOT_FOUND", "incr missing")
    c.set("n", "10")
    eq(c.cmd("incr n 5\r\n"), b"15", "incr")
    eq(c.cmd("decr n 3\r\n"), b"12", "decr")
    eq(c.cmd("decr n 100\r\n"), b"0", "decr floors at 0")
    c.set("n", "18446744073709551615")
    eq(c.cmd("incr n 1\r\n"), b"0", "incr wraps at 2^64")
    c.set("n", "99", flags=12)
    eq(c.cmd("incr n 1\r\n"), b"100", "incr grows the length")
    eq(c.get("n"), (12, b"100"), "incr keeps flags, value as text")
    eq(c.cmd("incr n abc\r\n"),
       b"CLIENT_ERROR invalid numeric delta argument", "non-numeric delta")
    eq(c.cmd("incr n -1\r\n"),
       b"CLIENT_ERROR invalid numeric delta argument", "negative delta")
    c.set("s", "abc")
    eq(c.cmd("incr s 1\r\n"),
       b"CLIENT_ERROR cannot increment or decrement non-numeric value",
       "incr of a non-numeric value")
    eq(c.get("s"), (0, b"abc"), "failed incr leaves the value")
    eq(c.cmd("touch s 100\r\n"), b"TOUCHED", "touch")
    eq(c.cmd("touch nosuch 100\r\n"), b"NOT_FOUND", "touch missing")
    eq(c.cmd("touch s abc\r\n"), b"CLIENT_ERROR invalid exptime argument",
       "touch with a bad exptime")


def test_noreply(c):
    c.set("q", "1", noreply=True)
    c.set("q", "2", op="add", noreply=True)
    c.set("q", "3", op="replace", noreply=True)
    c.set("q", "4", op="append", noreply=True)
    c.set("q", "0", op="prepend", noreply=True)
    c.send(b"incr q 1 noreply\r\ndecr q 2 noreply\r\ntouch q 0 noreply\r\n")
    c.send(b"verbosity 1 noreply\r\n")
    eq(c.get("q"), (0, b"33"), "noreply commands applied, nothing replied")
    cas = c.gets("q")[2]
    c.set("q", "5", op="cas", cas=cas, noreply=True)
    c.send(b"delete q noreply\r\n")
    eq(c.get("q"), None, "delete noreply")
    c.send(b"flush_all noreply\r\n")
    eq(c.cmd("version\r\n")[:8], b"VERSION ", "no reply left over")


def test_misc_commands(c):
    eq(c.cmd("version\r\n"), b"VERSION 1.6.45-ptm", "version")
    eq(c.cmd("verbosity 1\r\n"), b"OK", "verbosity")
    eq(c.cmd("verbosity\r\n"), b"CLIENT_ERROR bad command line format",
       "verbosity without a level")
    stats = c.stats()
    for name in ("pid", "uptime", "curr_items", "bytes", "limit_maxbytes",
                 "cmd_get", "get_hits", "evictions", "threads",
                 "ptm_library", "ptm_commits"):
        check(name in stats, f"stats has {name}")
    settings = c.stats("settings")
    check("maxbytes" in settings and "item_size_max" in settings,
          "stats settings")
    eq(c.cmd("stats nosuchgroup\r\n"), b"ERROR", "unknown stats group")
    eq(c.cmd("stats reset\r\n"), b"RESET", "stats reset")
    eq(c.stats()["cmd_get"], "0", "stats reset clears counters")
    eq(c.cmd("shutdown\r\n"), b"SERVER_ERROR: shutdown not enabled",
       "shutdown")


def test_gat(c):
    c.set("g", "val", flags=4)
    c.send(b"gat 100 g nosuch\r\n")
    eq(c.line(), b"VALUE g 4 3", "gat hit")
    eq(c.exact(5), b"val\r\n", "gat data")
    eq(c.line(), b"END", "gat end")
    got = c.get_multi(["100", "g"], "gats")
    check("g" in got and len(got["g"]) == 3, "gats returns the cas")


# The server's clock is time(), the coarse wall clock: it may be up to a
# tick (a few ms) behind time.time(). MARGIN covers that.
MARGIN = 0.1


def wait_for_second(second):
    """Sleeps until the server's clock has surely reached SECOND."""
    while time.time() < second + MARGIN:
        time.sleep(max(0.0, second + MARGIN - time.time()) + 0.01)


def within(slack, what, block):
    """Runs BLOCK (it returns [(got, want, what)]) until a run ends at most
    SLACK seconds (of the server's clock) after the second it started in:
    only then do its checks hold (the items it stores with a short expiry
    are surely still live). Checks that run's results and returns the
    second it ended in. A slower run (a stall) is redone, not failed: the
    verdict does not depend on the machine's speed."""
    for _ in range(10):
        s0 = int(time.time() - MARGIN)  # the server's second is >= s0
        results = block()
        s1 = int(time.time())
        if s1 - s0 <= slack:
            for got, want, name in results:
                eq(got, want, name)
            return s1
    check(False, f"{what}: 10 runs each took more than {slack + 1} s")
    return s1


def test_expiry(c):
    c.set("e_neg", "x", exptime=-1)
    eq(c.get("e_neg"), None, "negative exptime: expired at once")
    c.set("e_abs_past", "x", exptime=int(time.time()) - 10)
    eq(c.get("e_abs_past"), None, "absolute exptime in the past")

    # Items with exptime 2 (relative) or now + 2 (absolute) set at second
    # S are live while the server's time is below S + 2: the checks of a
    # run that ends by S + 1 are exact; every such item is dead from the
    # run's last second + 2 on.
    def short_lived():
        c.set("e1", "x", exptime=2)
        c.set("e_abs", "x", exptime=int(time.time()) + 2)
        c.set("e_touched", "x", exptime=2)
        touched = c.cmd("touch e_touched 100\r\n")
        c.set("e_keep", "x", exptime=100)
        c.set("e_gat", "x", exptime=2)
        c.get_multi(["100", "e_gat"], "gat")
        return [(touched, b"TOUCHED", "touch before expiry"),
                (c.get("e1"), (0, b"x"), "live before its exptime")]
    end = within(1, "expiry", short_lived)
    wait_for_second(end + 2)
    eq(c.get("e1"), None, "relative exptime expired")
    eq(c.get("e_abs"), None, "absolute exptime expired")
    eq(c.get("e_touched"), (0, b"x"), "touch extended the expiry")
    eq(c.get("e_gat"), (0, b"x"), "gat extended the expiry")
    eq(c.get("e_keep"), (0, b"x"), "longer exptime still live")

    # delayed flush_all N: items stored up to now + N - 1 go at that time.
    # flush_all 3 at second F: items stored by F + 2 are dead from F + 2 on.
    def delayed_flush():
        c.cmd("flush_all\r\n")  # cancels an earlier run's pending flush
        c.set("e_keep", "x", exptime=100)
        c.set("f_late", "x")
        return [(c.cmd("flush_all 3\r\n"), b"OK", "delayed flush_all"),
                (c.get("f_late"), (0, b"x"),
                 "delayed flush: item still there")]
    end = within(1, "delayed flush_all", delayed_flush)
    wait_for_second(end + 2)
    eq(c.get("f_late"), None, "delayed flush took effect")
    eq(c.get("e_keep"), None, "delayed flush covers every older item")
    wait_for_second(end + 3)  # past the flush's last covered second
    c.set("after", "y")
    eq(c.get("after"), (0, b"y"), "items stored after the flush live")
    eq(c.cmd("flush_all\r\n"), b"OK", "flush_all")
    eq(c.get("after"), None, "flush_all invalidates")
    eq(c.set("after", "z"), b"STORED", "set after flush_all")
    eq(c.get("after"), (0, b"z"), "item stored right after flush_all lives")
    eq(c.cmd("flush_all abc\r\n"), b"CLIENT_ERROR invalid exptime argument",
       "flush_all with a bad delay")


def test_malformed(c, item_max):
    eq(c.cmd("bogus\r\n"), b"ERROR", "unknown command")
    eq(c.cmd("\r\n"), b"CLIENT_ERROR bad command line format", "empty line")
    eq(c.cmd("get\r\n"), b"CLIENT_ERROR bad command line format",
       "get without a key")
    eq(c.cmd("set k 0 0\r\n"), b"CLIENT_ERROR bad command line format",
       "set with too few tokens")
    eq(c.cmd("set k 0 0 abc\r\n"), b"CLIENT_ERROR bad command line format",
       "set with a non-numeric length")
    eq(c.cmd("set k 0 0 -1\r\n"), b"CLIENT_ERROR bad command line format",
       "set with a negative length")
    # refused once the length is known: the value is read and discarded
    eq(c.cmd("set k abc 0 1\r\nx\r\n"),
       b"CLIENT_ERROR bad command line format", "set with non-numeric flags")
    eq(c.cmd("set k 4294967296 0 1\r\nx\r\n"),
       b"CLIENT_ERROR bad command line format", "flags above 32 bits")
    long_key = "x" * 251
    eq(c.cmd(f"set {long_key} 0 0 1\r\nx\r\n"),
       b"CLIENT_ERROR bad command line format", "set with a 251-byte key")
    eq(c.cmd(f"get {long_key}\r\n"), b"CLIENT_ERROR bad command line format",
       "get with a 251-byte key")
    eq(c.cmd("cas k 0 0 1 abc\r\nx\r\n"),
       b"CLIENT_ERROR bad command line format",
       "cas with a non-numeric unique")
    eq(c.cmd("version\r\n")[:8], b"VERSION ", "in step after refused lines")
    # data chunk of the wrong length: error, the connection goes on
    eq(c.cmd("set k 0 0 3\r\nabcde\r\n"), b"CLIENT_ERROR bad data chunk",
       "value longer than announced")
    c.line()  # "de" parsed as a command line: ERROR
    eq(c.get("k"), None, "bad data chunk stores nothing")
    # larger than -I: rejected, value swallowed, connection usable
    big = b"v" * (item_max + 10)
    c.send(b"set huge 0 0 %d\r\n" % len(big) + big + b"\r\n")
    eq(c.line(), b"SERVER_ERROR object too large for cache", "value over -I")
    eq(c.cmd("version\r\n")[:8], b"VERSION ", "connection usable after -I")
    eq(c.get("huge"), None, "oversized value not stored")
    c.set("huge", "small")
    c.send(b"set huge 0 0 %d\r\n" % len(big) + big + b"\r\n")
    c.line()
    eq(c.get("huge"), None, "failed oversized set removes the old value")
    # a value arriving in pieces
    c.send(b"set slow 0 0 10\r\n01234")
    time.sleep(0.2)
    c.send(b"56789\r\n")
    eq(c.line(), b"STORED", "value in two packets")
    eq(c.get("slow"), (0, b"0123456789"), "value in two packets stored")
    # pipelined requests in one packet
    c.send(b"set p1 0 0 1\r\na\r\nset p2 0 0 1\r\nb\r\nget p1 p2\r\n")
    eq([c.line() for _ in range(2)], [b"STORED", b"STORED"], "pipelined")
    eq([c.line() for _ in range(5)],
       [b"VALUE p1 0 1", b"a", b"VALUE p2 0 1", b"b", b"END"],
       "pipelined get")
    # bare \n line ends are accepted
    eq(c.cmd("version\n")[:8], b"VERSION ", "\\n line end")


def test_garbage(server):
    c = server.connect()
    c.send(bytes(range(1, 256)).replace(b"\n", b"") * 20)  # no newline
    check(c.closed(), "connection closed after a too-long line")
    eq(c.buf, b"", "a too-long line gets no reply (memcached hangs up)")
    c = server.connect()
    junk = bytes((i * 37 + 11) % 256 for i in range(4000))
    junk = junk.replace(b"\x80", b"\x81")
    c.send(b"\x01" + junk + b"\r\nversion\r\n")
    replies = []
    while True:
        line = c.line()
        replies.append(line)
        if line.startswith(b"VERSION"):
            break
    check(all(r.startswith((b"ERROR", b"CLIENT_ERROR", b"VERSION"))
              for r in replies), f"garbage lines get errors: {replies[:5]}")
    c.close()


def test_binary(server, item_max):
    c = server.connect()
    c.bin_request(0x0a, opaque=7)  # noop
    r = c.bin_response()
    eq((r["status"], r["opaque"]), (0, 7), "binary noop echoes the opaque")
    c.bin_request(0x0b)
    eq(c.bin_response()["value"], b"1.6.45-ptm", "binary version")
    ext = struct.pack(">II", 0xdeadbeef, 0)
    c.bin_request(0x01, b"bk", b"bval", ext)
    r = c.bin_response()
    eq(r["status"], 0, "binary set")
    cas = r["cas"]
    check(cas > 0, "binary set returns a cas")
    c.bin_request(0x00, b"bk")
    r = c.bin_response()
    eq((r["status"], r["extras"], r["key"], r["value"], r["cas"]),
       (0, struct.pack(">I", 0xdeadbeef), b"", b"bval", cas), "binary get")
    c.bin_request(0x0c, b"bk")
    eq(c.bin_response()["key"], b"bk", "binary getk returns the key")
    c.bin_request(0x00, b"missing")
    eq(c.bin_response()["status"], 1, "binary get miss: KEY_ENOENT")
    # quiet gets: only hits answer; noop ends the batch
    c.bin_request(0x09, b"missing", opaque=1)
    c.bin_request(0x0d, b"bk", opaque=2)
    c.bin_request(0x09, b"bk", opaque=3)
    c.bin_request(0x0a, opaque=4)
    got = [c.bin_response() for _ in range(3)]
    eq([(r["opaque"], r["key"]) for r in got],
       [(2, b"bk"), (3, b""), (4, b"")], "getq/getkq batch")
    c.bin_request(0x02, b"bk", b"x", ext)
    eq(c.bin_response()["status"], 2, "binary add of a present key")
    c.bin_request(0x03, b"nokey", b"x", ext)
    eq(c.bin_response()["status"], 1, "binary replace of a missing key")
    c.bin_request(0x01, b"bk", b"x", ext, cas=cas + 999)
    eq(c.bin_response()["status"], 2, "binary set with a stale cas")
    c.bin_request(0x0e, b"bk", b"++")
    eq(c.bin_response()["status"], 0, "binary append")
    c.bin_request(0x0f, b"bk", b"--")
    c.bin_response()
    c.bin_request(0x00, b"bk")
    eq(c.bin_response()["value"], b"--bval++", "binary append/prepend")
    c.bin_request(0x0e, b"nokey", b"++")
    eq(c.bin_response()["status"], 5, "binary append missing: NOT_STORED")
    arith = struct.pack(">QQI", 5, 100, 0)
    c.bin_request(0x05, b"ctr", extras=arith)
    eq(struct.unpack(">Q", c.bin_response()["value"])[0], 100,
       "binary incr creates with the initial value")
    c.bin_request(0x05, b"ctr", extras=arith)
    eq(struct.unpack(">Q", c.bin_response()["value"])[0], 105, "binary incr")
    c.bin_request(0x06, b"ctr", extras=struct.pack(">QQI", 200, 0, 0))
    eq(struct.unpack(">Q", c.bin_response()["value"])[0], 0,
       "binary decr floors at 0")
    c.bin_request(0x05, b"nokey2", extras=struct.pack(">QQI", 1, 0,
                                                      0xffffffff))
    eq(c.bin_response()["status"], 1, "binary incr without create")
    c.bin_request(0x05, b"bk", extras=arith)
    eq(c.bin_response()["status"], 6, "binary incr of a non-number")
    c.bin_request(0x04, b"bk")
    eq(c.bin_response()["status"], 0, "binary delete")
    c.bin_request(0x04, b"bk")
    eq(c.bin_response()["status"], 1, "binary delete missing")
    # quiet mutations answer only errors
    c.bin_request(0x11, b"sq", b"v", ext, opaque=10)
    c.bin_request(0x12, b"sq", b"v", ext, opaque=11)  # addq fails
    c.bin_request(0x14, b"sq", opaque=12)
    c.bin_request(0x15, b"cq", extras=arith, opaque=13)
    c.bin_request(0x0a, opaque=14)
    got = [c.bin_response() for _ in range(2)]
    eq([(r["opaque"], r["status"]) for r in got], [(11, 2), (14, 0)],
       "quiet commands answer only failures")
    c.bin_request(0x1c, b"cq", extras=struct.pack(">I", 100))
    eq(c.bin_response()["status"], 0, "binary touch")
    c.bin_request(0x1d, b"cq", extras=struct.pack(">I", 100))
    eq(c.bin_response()["value"], b"100", "binary gat")
    c.bin_request(0x10)
    names = set()
    while True:
        r = c.bin_response()
        if not r["key"]:
            break
        names.add(r["key"])
    check(b"curr_items" in names and b"pid" in names, "binary stat")
    c.bin_request(0x1b, extras=struct.pack(">I", 1))
    eq(c.bin_response()["status"], 0, "binary verbosity")
    c.bin_request(0x08)
    eq(c.bin_response()["status"], 0, "binary flush")
    c.bin_request(0x00, b"cq")
    eq(c.bin_response()["status"], 1, "binary flush removed items")
    # errors
    c.bin_request(0x42, b"k")
    eq(c.bin_response()["status"], 0x81, "unknown binary opcode")
    c.bin_request(0x01, b"k", b"v", b"\x00" * 3)
    eq(c.bin_response()["status"], 4, "binary set with bad extras")
    c.bin_request(0x00, b"")
    eq(c.bin_response()["status"], 4, "binary get without a key")
    c.bin_request(0x00, b"k", extras=b"\x00" * 4)
    eq(c.bin_response()["status"], 4, "binary get with extras")
    c.bin_request(0x01, b"k" * 251, b"v", ext)
    eq(c.bin_response()["status"], 4, "binary key over 250 bytes")
    check(c.closed(), "connection closed after an inconsistent header")
    c = server.connect()
    c.bin_request(0x01, b"big", b"v" * (item_max + 10), ext)
    eq(c.bin_response()["status"], 3, "binary value over -I: E2BIG")
    c.bin_request(0x0a, opaque=99)
    eq(c.bin_response()["opaque"], 99, "binary connection usable after E2BIG")
    c.bin_request(0x07)
    eq(c.bin_response()["status"], 0, "binary quit answers")
    check(c.closed(), "binary quit closes")
    c = server.connect()
    c.bin_request(0x0a, magic=0x80)
    c.bin_response()
    c.send(b"\x42" + b"\x00" * 23)
    check(c.closed(), "bad magic closes the connection")
    c = server.connect()
    c.bin_request(0x17)
    check(c.closed(), "binary quitq closes")


# ---- replies memcached gives and ptm-memcached once did not (issue 19);
# each on its own connection, so that one failing leaves the others' replies
# in step

def test_noreply_errors(c):
    """noreply silences error replies too: a pipelining client stays in
    step."""
    c.set("nn", "abc")
    c.send(b"incr nn 1 noreply\r\n"        # non-numeric value
           b"decr nn x noreply\r\n"        # bad delta
           b"touch nn abc noreply\r\n"     # bad exptime
           b"set nn x 0 1 noreply\r\nv\r\n"  # bad flags (value discarded)
           b"bogus noreply\r\n"            # unknown command
           b"verbosity x noreply\r\n"
           b"flush_all x noreply\r\n")
    eq(c.cmd("version\r\n")[:8], b"VERSION ",
       "no error reply to a noreply command")


def test_multiget_long_key(c):
    """A multi-get with one key over 250 bytes: the error alone."""
    c.set("mg1", "one")
    c.set("mg2", "two")
    eq(c.cmd(f"get mg1 mg2 {'k' * 251}\r\n"),
       b"CLIENT_ERROR bad command line format", "multi-get with a long key")
    eq(c.cmd("version\r\n")[:8], b"VERSION ", "nothing after the error")


def test_flush_all_args(c):
    """flush_all's argument is an exptime; a negative one means now."""
    c.set("fa", "one")
    eq(c.cmd("flush_all invalid\r\n"),
       b"CLIENT_ERROR invalid exptime argument", "flush_all invalid")
    eq(c.get("fa"), (0, b"one"), "a refused flush_all flushes nothing")
    eq(c.cmd("flush_all -1\r\n"), b"OK", "flush_all -1")
    eq(c.get("fa"), None, "flush_all -1 flushes now")


def test_verbosity_arg(c):
    eq(c.cmd("verbosity invalid\r\n"),
       b"CLIENT_ERROR bad command line format", "verbosity invalid")
    eq(c.cmd("verbosity 0\r\n"), b"OK", "verbosity 0")


def test_binary_set_too_large(b, item_max):
    """A binary SET refused as too large removes the old value (as the text
    protocol and memcached do); other stores keep it."""
    ext = struct.pack(">II", 0, 0)
    for opcode, name in ((0x01, "set"), (0x11, "setq")):
        b.bin_request(0x01, b"big", b"old", ext)
        eq(b.bin_response()["status"], 0, "binary set of the old value")
        b.bin_request(opcode, b"big", b"x" * (item_max + 1), ext, opaque=9)
        r = b.bin_response()
        eq((r["status"], r["opaque"]), (0x03, 9), f"binary {name} too large")
        b.bin_request(0x00, b"big")
        eq(b.bin_response()["status"], 1,
           f"binary {name} too large removed the old value")
    b.bin_request(0x02, b"big", b"old", ext)
    eq(b.bin_response()["status"], 0, "binary add")
    b.bin_request(0x03, b"big", b"x" * (item_max + 1), ext)
    eq(b.bin_response()["status"], 0x03, "binary replace too large")
    b.bin_request(0x00, b"big")
    eq(b.bin_response()["value"], b"old", "a refused replace keeps the value")


def test_refused_lines_keep_step(c):
    """memcached 1.6.45's answers to malformed lines (issue 54), each
    followed by a command that must get its own answer."""
    def in_step(what):
        eq(c.cmd("version\r\n")[:8], b"VERSION ", f"in step after {what}")

    bad = b"CLIENT_ERROR bad command line format"
    c.set("foo", "barval")
    # cas.t: an empty cas unique; the value is discarded
    eq(c.cmd("cas foo 0 0 6 \r\nbarva2\r\n"), bad, "cas without a unique")
    in_step("cas without a unique")
    eq(c.get("foo"), (0, b"barval"), "refused cas stores nothing")
    for line in ("cas bad blah 0 0 0", "cas bad 0 blah 0 0",
                 "cas bad 0 0 0 blah"):
        eq(c.cmd(line + "\r\n\r\n"), bad, line)
        in_step(line)
    # a bad length: nothing is read as a value, so the empty line after it
    # is a (too short) command of its own
    eq(c.cmd("cas bad 0 0 blah 0\r\n\r\n"), bad, "cas with a bad length")
    eq(c.line(), bad, "the line after a bad length")
    in_step("a bad length")
    eq(c.cmd(" \n"), bad, "a blank line")
    eq(c.cmd("gat 10\r\n"), bad, "gat without a key")
    eq(c.cmd("incr foo\r\n"), bad, "incr without a delta")
    eq(c.cmd("touch foo\r\n"), bad, "touch without an exptime")
    eq(c.cmd("delete\r\n"), bad, "delete without a key")
    # tokens after the ones a command uses are ignored, the 24th on too
    eq(c.cmd("set extra 0 0 1 junk\r\nx\r\n"), b"STORED",
       "set with a token too many")
    eq(c.cmd("set many 0 0 1" + " t" * 30 + "\r\ny\r\n"), b"STORED",
       "set with 35 tokens")
    eq(c.get("many"), (0, b"y"), "set with 35 tokens stored")
    # strict numbers: no sign where none is allowed
    eq(c.cmd("incr foo +1\r\n"),
       b"CLIENT_ERROR invalid numeric delta argument", "incr +1")
    eq(c.cmd("touch foo +5\r\n"), b"CLIENT_ERROR invalid exptime argument",
       "touch +5")
    # an unknown command whose last token is noreply is silent
    c.send(b"bogus noreply\r\n")
    in_step("an unknown noreply command")
    # a multi-get may be longer than 2048 bytes before its newline, and
    # arrive in pieces
    c.send(b"get " + b" " * 2100 + b"foo")
    time.sleep(0.2)
    eq(c.cmd("\r\n"), b"VALUE foo 0 6", "a long multi-get line")
    eq([c.line(), c.line()], [b"barval", b"END"], "long multi-get value")


def test_long_line_hangs_up(server):
    """A line over 2048 bytes that is not a multi-get: memcached closes the
    connection without a reply (getset.t)."""
    c = server.connect()
    c.send(b"incr " + b" " * 2100 + b"manyspaces 1")
    check(c.closed(), "a long incr line closes the connection")
    eq(c.buf, b"", "a long incr line gets no reply")


def test_admin_replies(c):
    """lru_crawler metadump and slabs reassign as memcached 1.6.45."""
    c.set("md1", "abc", flags=7)
    c.send(b"lru_crawler metadump all\r\n")
    eq(c.line(), b"OK", "metadump starts with OK")
    lines = []  # item lines end with a bare newline, END with \r\n
    while not lines or lines[-1] != b"END":
        lines.extend(c.line().split(b"\n"))
    dumped = [x for x in lines if x.startswith(b"key=md1 ")]
    eq(len(dumped), 1, "metadump lists the item")
    check(dumped and dumped[0].endswith(b" flags=7 "),
          f"metadump line ends with flags and a space: {dumped[:1]}")
    eq(c.cmd("slabs reassign 31 5\r\n"), b"OK", "slabs reassign")
    eq(c.cmd("slabs reassign 5 5\r\n"),
       b"SAME src and dst class are identical", "slabs reassign to itself")
    eq(c.cmd("slabs reassign 5 99\r\n"),
       b"BADCLASS invalid src or dst class id", "slabs reassign bad class")
    eq(c.cmd("slabs reassign x 5\r\n"), b"CLIENT_ERROR bad command line format",
       "slabs reassign bad number")


def test_memcached_replies(server, item_max):
    test_long_line_hangs_up(server)
    for t in (test_noreply_errors, test_multiget_long_key,
              test_flush_all_args, test_verbosity_arg,
              test_refused_lines_keep_step, test_admin_replies):
        c = server.connect()
        t(c)
        c.close()
    test_binary_set_too_large(server.connect(), item_max)

# ---- the meta protocol, memcached's sockets and authentication ------------

def test_meta(c):
    """mg/ms/md/ma/mn/me with their main flags, and the recache pattern."""
    eq(c.cmd("ms mk 3 T0 F7\r\nabc\r\n"), b"HD", "ms")
    eq(c.cmd("mg mk s f v t\r\n"), b"VA 3 s3 f7 t-1", "mg flags")
    eq(c.line(), b"abc", "mg value")
    eq(c.cmd("mg mk k Oxy h\r\n"), b"HD kmk Oxy h1", "mg k O h (fetched)")
    eq(c.cmd("mg nosuch v\r\n"), b"EN", "mg miss")
    c.send(b"mg nosuch v q\r\nmn\r\n")
    eq(c.line(), b"MN", "mg q: the miss is silent, mn answers")
    cas = int(c.cmd("mg mk c\r\n").split()[1][1:])
    eq(c.cmd(f"ms mk 1 C{cas + 1}\r\nx\r\n"), b"EX", "ms with a stale cas")
    eq(c.cmd(f"ms mk 1 C{cas} c\r\ny\r\n")[:4], b"HD c", "ms with the cas")
    eq(c.cmd("ms mk 1 ME\r\nz\r\n"), b"NS", "ms mode E (add) of a present key")
    eq(c.cmd("ms mk 2 MA\r\n++\r\n"), b"HD", "ms mode A (append)")
    eq(c.get("mk"), (0, b"y++"), "ms C (no F: flags 0), then append")
    eq(c.cmd("ms mk 1 MX\r\nz\r\n"), b"CLIENT_ERROR invalid mode for ms STORE",
       "ms with a bad mode")
    eq(c.cmd("version\r\n")[:8], b"VERSION ", "its data was swallowed")
    # base64 keys: "bWs=" is "mk"
    eq(c.cmd("mg bWs= b v k\r\n"), b"VA 3 kbWs= b", "base64 key")
    c.line()
    eq(c.cmd("md mk q\r\nmn\r\n"), b"MN", "md q")
    eq(c.get("mk"), None, "md deleted")
    eq(c.cmd("md mk\r\n"), b"NF", "md miss")
    # ma: seed, increment, decrement, cas
    eq(c.cmd("ma cnt\r\n"), b"NF", "ma miss")
    eq(c.cmd("ma cnt N0 J10 v\r\n"), b"VA 2", "ma seeds")
    eq(c.line(), b"10", "seed value")
    eq(c.cmd("ma cnt D5 v\r\n"), b"VA 2", "ma increments")
    eq(c.line(), b"15", "incremented")
    eq(c.cmd("ma cnt MD D100 v\r\n"), b"VA 1", "ma decrements")
    eq(c.line(), b"0", "floors at 0")
    eq(c.cmd("ma cnt C1 v\r\n"), b"EX", "ma with a stale cas")
    # the recache pattern: N wins once, then Z; md I makes it stale (X, W)
    eq(c.cmd("mg rc s N30 v\r\n"), b"VA 0 s0 W", "N: the first client wins")
    c.line()
    eq(c.cmd("mg rc s v\r\n"), b"VA 0 s0 Z", "the others see Z")
    c.line()
    eq(c.cmd("ms rc 3 T60\r\nnew\r\n"), b"HD", "the winner stores")
    eq(c.cmd("mg rc v\r\n"), b"VA 3", "a fresh item: no W/X/Z")
    c.line()
    eq(c.cmd("md rc I T30\r\n"), b"HD", "md I: invalidate")
    eq(c.cmd("mg rc v c\r\n").split()[3:], [b"X", b"W"], "stale: X and W")
    c.line()
    eq(c.cmd("mg rc v\r\n"), b"VA 3 Z X", "stale, token already sent")
    c.line()
    eq(c.cmd("me rc\r\n")[:6], b"ME rc ", "me")
    eq(c.cmd("mg " + "k" * 251 + " v\r\n"),
       b"CLIENT_ERROR bad command line format", "mg with a long key")


def test_unix_socket_udp_auth(exe, d):
    """-s (UNIX socket, -a mask), -U (UDP) and -Y (ASCII authentication)."""
    path = os.path.join(d, "mc.sock")
    # -v: the server says "listening on PATH" once it listens (the file
    # exists from bind() on, a moment before listen(): a connect then would
    # be refused)
    p = subprocess.Popen([exe, "-v", "-s", path, "-a", "600"],
                         stderr=subprocess.PIPE, text=True)
    try:
        log = []
        while not log or f"listening on {path} " not in log[-1]:
            line = p.stderr.readline()
            if not line:
                raise RuntimeError(f"-s {path}: no start-up line: {log}")
            log.append(line)
        eq(oct(os.stat(path).st_mode & 0o777), "0o600", "-a 600: mode")
        u = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        u.settimeout(60)
        u.connect(path)
        u.sendall(b"set us 0 0 2\r\nok\r\nget us\r\n")
        got = b""
        while not got.endswith(b"END\r\n"):
            got += u.recv(4096)
        eq(got, b"STORED\r\nVALUE us 0 2\r\nok\r\nEND\r\n",
           "set and get over the UNIX socket")
        u.close()
    finally:
        p.terminate()
        p.wait(timeout=30)
    check(not os.path.exists(path), "the socket is removed at exit")

    # -U -1: a UDP port the system chooses, announced after the TCP one (a
    # port probed free here could be taken by another program before the
    # server binds it)
    s = Server(exe, "-U", "-1")
    try:
        line = s.proc.stderr.readline()
        s.log.append(line)
        m = re.search(r"UDP on \S+ port (\d+)", line)
        check(m is not None, f"-U -1: the UDP port announced ({line!r})")
        udp_port = int(m.group(1)) if m else 0
        c = s.connect()
        c.set("uk", "udpvalue")
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.settimeout(60)
        u.sendto(struct.pack(">HHHH", 4242, 0, 1, 0) + b"get uk\r\n",
                 ("127.0.0.1", udp_port))
        data = u.recv(2048)
        eq(struct.unpack(">HHHH", data[:8]), (4242, 0, 1, 0), "UDP frame")
        eq(data[8:], b"VALUE uk 0 8\r\nudpvalue\r\nEND\r\n", "UDP get")
        u.close()
    finally:
        s.stop()

    auth = os.path.join(d, "auth")
    with open(auth, "w") as f:
        f.write("alice:secret\n")
    s = Server(exe, "-Y", auth)
    try:
        c = s.connect()
        eq(c.cmd("get x\r\n"), b"CLIENT_ERROR unauthenticated",
           "-Y: a command before authenticating")
        eq(c.set("x", "alice wrong"), b"CLIENT_ERROR authentication failure",
           "-Y: a wrong password")
        eq(c.set("x", "alice secret"), b"STORED", "-Y: authenticated")
        eq(c.set("k", "v"), b"STORED", "-Y: then an ordinary set")
        eq(c.get("k"), (0, b"v"), "-Y: and get")
        eq(c.stats()["auth_errors"], "1", "-Y: auth_errors counted")
    finally:
        s.stop()


def test_reclaim_and_yields(exe):
    """A store frees the dead items at the LRU tail (memcached's reclaim),
    and -R 1 serves one request per turn (conn_yields)."""
    s = Server(exe, "-R", "1")
    try:
        c = s.connect()
        eq(c.set("dead", "x", exptime=-1), b"STORED", "an expired store")
        eq(c.set("live", "y"), b"STORED", "the next store")
        st = c.stats()
        eq((st["reclaimed"], st["curr_items"]), ("1", "1"),
           "the dead item at the tail was reclaimed")
        c.send(b"".join(b"set y%d 0 0 1\r\nz\r\n" % i for i in range(6)))
        for i in range(6):
            eq(c.line(), b"STORED", f"pipelined set {i}")
        check(int(c.stats()["conn_yields"]) >= 5, "-R 1: a yield per request")
    finally:
        s.stop()


def test_quit(server):
    c = server.connect()
    c.send(b"quit\r\n")
    check(c.closed(), "quit closes the connection")



class Watcher:
    """A connection turned into a log stream by `watch STREAMS`: its lines
    end with a newline alone (memcached's), after the OK."""

    def __init__(self, port, streams, rcvbuf=None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:  # before connecting: a small window, a stream that jams
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.connect(("127.0.0.1", port))
        self.sock.settimeout(10)
        self.buf = b""
        self.sock.sendall(f"watch {streams}".strip().encode() + b"\r\n")
        self.reply = self.line().rstrip("\r").encode()

    def line(self, timeout=10):
        self.sock.settimeout(timeout)
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("watcher closed by the server")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    def until(self, pattern, what, timeout=10):
        """The first line matching PATTERN (a regular expression)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            line = self.line(max(0.1, deadline - time.time()))
            if re.search(pattern, line):
                return line
        raise AssertionError(f"no {what} line")


def conn_fd(c):
    """The server's socket number of client C (stats conns lists it last:
    the requesting connection is the newest one on its worker)."""
    c.send(b"stats conns\r\n")
    fds = []
    while True:
        line = c.line()
        if line == b"END":
            break
        m = re.match(rb"STAT (\d+):state conn_parse_cmd", line)
        if m:
            fds.append(int(m.group(1)))
    return fds[0]


def wait_stat(c, name, want, what):
    deadline = time.time() + 10
    while c.stats()[name] != want and time.time() < deadline:
        time.sleep(0.05)
    eq(c.stats()[name], want, what)


def test_watch(exe):
    """watch: a watcher sees a set and a get as item_store and item_get
    lines, evictions and connections; a watcher whose buffer is full skips
    lines (counted, then announced by skipped=N) without holding up the
    server; -W refuses the command."""
    ts = r"^ts=\d+\.\d{6} gid=\d+ "
    s = Server(exe, "-m", "1", "-I", "64k")
    try:
        c = s.connect()
        cfd = conn_fd(c)
        w = Watcher(s.port, "fetchers mutations")
        eq(w.reply, b"OK", "watch fetchers mutations")
        eq(c.set("wk", "abc"), b"STORED", "set while watched")
        eq(c.get("wk"), (0, b"abc"), "get while watched")
        check(re.match(ts + r"type=item_get key=wk status=not_found clsid=0 "
                       rf"cfd={cfd} size=0$", w.line()),
              "the set's lookup: an item_get, not found")
        check(re.match(ts + r"type=item_store key=wk status=stored cmd=set "
                       rf"ttl=0 clsid=\d+ cfd={cfd} size=3$", w.line()),
              "the set: an item_store")
        check(re.match(ts + r"type=item_get key=wk status=found clsid=\d+ "
                       rf"cfd={cfd} size=3$", w.line()),
              "the get: an item_get, found")
        c.set("n,k", "v", op="add")
        check(re.search(r" key=n%2Ck status=not_found", w.line()),
              "keys are URI-encoded")
        eq(int(c.stats()["log_watchers"]), 1, "log_watchers")
        w.sock.close()
        wait_stat(c, "log_watchers", "0", "a closed watcher is gone")

        d = Watcher(s.port, "deletions")
        eq(d.reply, b"OK", "watch deletions (memcached 1.6.45)")
        c.set("dk", "abcd")
        eq(c.cmd("md nosuch\r\n"), b"NF", "md of a missing key")
        eq(c.cmd("delete dk\r\n"), b"DELETED", "delete while watched")
        check(re.match(ts + r"type=deleted key=dk cmd=delete clsid=\d+ "
                       r"size=4$", d.line()), "a delete: a deleted line")
        c.set("dk", "abcd")
        eq(c.cmd("md dk I\r\n"), b"HD", "md I (marked stale, not removed)")
        eq(c.cmd("md dk\r\n"), b"HD", "md while watched")
        check(re.match(ts + r"type=deleted key=dk cmd=md clsid=\d+ size=4$",
                       d.line()), "an md: a deleted line, md I none")
        d.sock.close()
        wait_stat(c, "log_watchers", "0", "the deletions watcher is gone")

        e = Watcher(s.port, "evictions connevents")
        eq(e.reply, b"OK", "watch evictions connevents")
        c2 = s.connect()
        line = e.until(r"type=conn_new", "conn_new")
        check(re.match(ts + r"type=conn_new rip=127\.0\.0\.1 rport=\d+ "
                       r"transport=tcp cfd=\d+$", line), "conn_new line")
        c2.send(b"quit\r\n")
        check(re.search(r"type=conn_close .* reason=normal",
                        e.until(r"type=conn_close", "conn_close")),
              "quit: conn_close reason=normal")
        value = b"e" * 1000
        c.send(b"".join(b"set ev%d 0 0 %d noreply\r\n%s\r\n" %
                        (i, len(value), value) for i in range(2000)))
        eq(c.cmd("version\r\n")[:8], b"VERSION ", "eviction load done")
        check(re.match(ts + r"type=eviction key=ev\d+ fetch=no ttl=-1 la=\d+ "
                       r"clsid=\d+ size=1000$",
                       e.until(r"type=eviction key=ev", "eviction")),
              "an eviction line")
        e.sock.close()

        eq(Watcher(s.port, "bogus").reply, b"ERROR", "unknown stream")
        eq(Watcher(s.port, "proxyreqs").reply, b"ERROR", "no proxy streams")
    finally:
        s.stop()

    # a tiny buffer (1 KB) and a watcher that does not read: lines skipped
    s = Server(exe, "-o", "watcher_logbuf_size=1")
    try:
        c = s.connect()
        w = Watcher(s.port, "fetchers", rcvbuf=4096)
        eq(w.reply, b"OK", "watch with a 1 KB buffer")
        pad = "x" * 200
        for batch in range(50):
            c.send("".join(f"get skip{i}{pad}\r\n"
                           for i in range(2000)).encode())
            replies = [c.line() for _ in range(2000)]
            check(all(r == b"END" for r in replies),
                  "gets served while the watcher jams")
            if int(c.stats()["log_watcher_skipped"]) > 0:
                break
        st = c.stats()
        check(int(st["log_watcher_skipped"]) > 0, "log_watcher_skipped")
        check(int(st["log_watcher_sent"]) > 0, "log_watcher_sent")
        # read what is queued, making a new line now and then: once there
        # is room, the next line is announced by the skipped count
        deadline = time.time() + 30
        notice = None
        while notice is None and time.time() < deadline:
            try:
                line = w.line(timeout=0.3)
            except socket.timeout:
                c.get("after")
                continue
            if line.startswith("skipped="):
                notice = line
        check(notice is not None and re.match(r"^skipped=\d+$", notice),
              f"a skipped=N line ({notice})")
        check(re.match(ts + r"type=item_get ", w.line()),
              "a log line follows the notice")
    finally:
        s.stop()

    s = Server(exe, "-W")
    try:
        eq(Watcher(s.port, "mutations").reply,
           b"CLIENT_ERROR watch commands not allowed", "-W refuses watch")
    finally:
        s.stop()


def class_table(chunk_min=48, factor=1.25):
    """memcached's slab class chunk sizes (index 1..): 48 + -n bytes, then
    times -f, 8-byte aligned, up to 512 KiB."""
    sizes, size = [0], 48 + chunk_min
    while len(sizes) < 63 and size < (512 << 10) / factor:
        size = (size + 7) & ~7
        sizes.append(size)
        size = int(size * factor)
    return sizes + [512 << 10]


def class_of(sizes, key, nbytes):
    """The class of an item: the first whose chunk holds its pool block
    (an 80-byte header, the key, the value)."""
    block = 80 + len(key) + nbytes
    return next((i for i in range(1, len(sizes)) if sizes[i] >= block),
                len(sizes) - 1)


def dump_class(c, cls):
    c.send(f"stats cachedump {cls} 0\r\n".encode())
    keys = set()
    while (line := c.line()) != b"END":
        keys.add(line.split()[1].decode())
    return keys


def test_size_classes(exe, pool_dir, persistent):
    """stats items / stats slabs per memcached slab class: an item (one pool
    block) counts under the class whose chunks would hold it; number,
    mem_requested, chunk sizes, cachedump per class, reclaimed and evicted
    (evicted_nonzero) per class, stats reset, a restart, -n and -f."""
    sizes = class_table()
    pool = os.path.join(pool_dir, "classes.pool")
    s = Server(exe, "-I", "64k", pool=pool)
    try:
        c = s.connect()
        eq(c.stats("items"), {}, "no items: no class listed")
        want = {}
        for i in range(60):
            n = (10, 900, 20000)[i % 3] + i
            key = f"cls{i}"
            eq(c.set(key, b"v" * n), b"STORED", f"set {key}")
            cls = class_of(sizes, key, n)
            num, mem, keys = want.get(cls, (0, 0, set()))
            want[cls] = (num + 1, mem + 80 + len(key) + n, keys | {key})
        check(len(want) >= 3, f"items in several classes: {sorted(want)}")
        items, slabs = c.stats("items"), c.stats("slabs")
        listed = {int(k.split(":")[1]) for k in items if k.endswith(":number")}
        eq(listed, set(want), "stats items lists the classes with items")
        eq(slabs["active_slabs"], str(len(want)), "active_slabs")
        for cls, (num, mem, keys) in sorted(want.items()):
            eq(items.get(f"items:{cls}:number"), str(num),
               f"class {cls} number")
            eq(items.get(f"items:{cls}:mem_requested"), str(mem),
               f"class {cls} mem_requested")
            eq(slabs.get(f"{cls}:used_chunks"), str(num),
               f"class {cls} chunks")
            eq(slabs.get(f"{cls}:chunk_size"), str(sizes[cls]),
               f"class {cls} chunk size")
            eq(dump_class(c, cls), keys, f"cachedump {cls}: its items only")
        # a store in the place of a dead item: reclaimed in the dead one's
        # class; a delete and the same store again: the same bytes
        big = class_of(sizes, "dead", 30000)
        eq(c.set("dead", b"d" * 30000, exptime=-1), b"STORED", "dead item")
        eq(c.set("dead", b"e" * 30000), b"STORED", "store over it")
        items = c.stats("items")
        eq(items[f"items:{big}:reclaimed"], "1", "reclaimed in its class")
        mem = c.stats("slabs")[f"{big}:mem_requested"]
        eq(c.cmd("delete dead\r\n"), b"DELETED", "delete")
        eq(c.set("dead", b"f" * 30000), b"STORED", "stored again")
        eq(c.stats("slabs")[f"{big}:mem_requested"], mem,
           "same size, same mem_requested")
    finally:
        eq(s.stop()[0], 0, "classes: clean exit")
    if persistent:
        s = Server(exe, "-I", "64k", pool=pool)
        try:
            items = s.connect().stats("items")
            for cls, (num, mem, _) in want.items():
                if cls == big:
                    num, mem = num + 1, mem + 80 + 4 + 30000
                eq((items[f"items:{cls}:number"],
                    items[f"items:{cls}:mem_requested"]),
                   (str(num), str(mem)), f"restart: class {cls} counted")
        finally:
            s.stop()

    # evictions under -m 1 (one page: 38 chunks of 27120 bytes): 24 KB
    # items, 40 without an expiry time, then 60 with one; the oldest go
    # first
    s = Server(exe, "-m", "1", "-I", "64k",
               pool=os.path.join(pool_dir, "classes-evict.pool"))
    try:
        c = s.connect()
        n = 24000
        cls = class_of(sizes, "ev00", n)
        for i in range(100):
            eq(c.set(f"ev{i:02d}", b"x" * n, exptime=0 if i < 40 else 3600),
               b"STORED", f"set ev{i:02d}")
        st, items = c.stats(), c.stats("items")
        evicted = int(items[f"items:{cls}:evicted"])
        eq(evicted, int(st["evictions"]), "evictions all in the class")
        eq(evicted + int(st["curr_items"]), 100, "evicted + items = stored")
        check(evicted > 40, f"{evicted} evicted under -m 1")
        eq(int(items[f"items:{cls}:evicted_nonzero"]), evicted - 40,
           "evicted_nonzero: the evicted items with an expiry time")
        eq(c.cmd("stats reset\r\n"), b"RESET", "stats reset")
        items = c.stats("items")
        eq((items[f"items:{cls}:evicted"], items[f"items:{cls}:number"]),
           ("0", st["curr_items"]), "stats reset: counters, not items")
    finally:
        s.stop()

    # -n 100 -f 2: another table
    sizes = class_table(100, 2.0)
    s = Server(exe, "-n", "100", "-f", "2", "-I", "64k")
    try:
        c = s.connect()
        for key, n in (("a", 10), ("b", 200), ("c", 5000)):
            c.set(key, b"y" * n)
            cls = class_of(sizes, key, n)
            eq(c.stats("slabs")[f"{cls}:chunk_size"], str(sizes[cls]),
               f"-n 100 -f 2: class {cls}")
    finally:
        s.stop()


def slab_figures(c, *classes):
    """stats slabs: (total_malloced, active_slabs), then each class's
    (total_pages, used_chunks), 0 for a class not listed."""
    sl = c.stats("slabs")
    return ((int(sl["total_malloced"]), int(sl["active_slabs"])),
            *((int(sl.get(f"{k}:total_pages", 0)),
               int(sl.get(f"{k}:used_chunks", 0))) for k in classes))


def test_slab_pages(exe, pool_dir, persistent):
    """-m counted as memcached counts it: 1 MiB pages handed to the size
    classes, an item taking a chunk of its class; a full class that may not
    get another page evicts its own items (with -M: out of memory), a class
    always gets its first page, pages stay with their class (also across a
    restart), lowering the limit (cache_memlimit) lets wholly free pages go
    back, and memcached-debug's T_MEMD_INITIAL_MALLOC counts as pages
    handed out already."""
    mib = 1 << 20
    sizes = class_table()
    n = 20000
    cls = class_of(sizes, "sp000", n)
    small = class_of(sizes, "small", 1)
    per = mib // sizes[cls]
    value = b"p" * n
    pool = os.path.join(pool_dir, "pages.pool")
    s = Server(exe, "-m", "2", pool=pool)
    try:
        c = s.connect()
        eq(slab_figures(c), ((0, 0),), "-m 2: no page before the first item")
        for i in range(2 * per + 10):
            eq(c.set(f"sp{i:03d}", value), b"STORED", f"set sp{i:03d}")
        eq(slab_figures(c, cls), ((2 * mib, 1), (2, 2 * per)),
           f"-m 2: two pages of class {cls}, {per} chunks each, all used")
        items = c.stats("items")
        eq((items[f"items:{cls}:evicted"], c.stats()["evictions"]),
           ("10", "10"), "the 10 items beyond two pages' chunks evicted")
        eq(c.get_multi([f"sp{i:03d}" for i in range(10)]), {},
           "the oldest 10 went")
        eq(len(c.get_multi([f"sp{i:03d}" for i in range(10, 2 * per + 10)])),
           2 * per, "the others are there")
        eq(c.set("small", "x"), b"STORED", "a store in a new class at -m")
        eq(slab_figures(c, cls, small), ((3 * mib, 2), (2, 2 * per), (1, 1)),
           "a class's first page is granted beyond -m")
        eq(c.set("sp999", value), b"STORED", "one more in the full class")
        items = c.stats("items")
        eq((items[f"items:{cls}:evicted"], items[f"items:{small}:evicted"],
            items[f"items:{small}:number"]), ("11", "0", "1"),
           "the full class evicts its own items, not the other class's")
    finally:
        eq(s.stop()[0], 0, "pages: clean exit")
    if persistent:
        s = Server(exe, "-m", "2", pool=pool)
        try:
            c = s.connect()
            eq(slab_figures(c, cls, small), ((3 * mib, 2), (2, 2 * per),
                                            (1, 1)),
               "restart: the classes keep their pages")
            eq(c.cmd("delete small\r\n"), b"DELETED",
               "restart: delete the small item")
            eq(slab_figures(c, small)[1], (1, 0),
               "a class keeps its first page when its items go")
        finally:
            eq(s.stop()[0], 0, "pages restart: clean exit")
        # another class table (-f 2): the items are refiled and recounted
        s = Server(exe, "-m", "2", "-f", "2", pool=pool)
        try:
            c = s.connect()
            f2 = class_table(48, 2.0)
            k2 = class_of(f2, "sp000", n)
            pages = -(-2 * per // (mib // f2[k2]))
            eq(slab_figures(c, k2), ((pages * mib, 1), (pages, 2 * per)),
               "-f 2: the items in their new class, its pages recounted")
            eq(c.get("sp999"), (0, value), "-f 2: an item intact")
            free = pages * (mib // f2[k2]) - 2 * per
            for i in range(free + 1):
                eq(c.set(f"sq{i:03d}", value), b"STORED", f"-f 2: sq{i:03d}")
            eq(c.stats("items")[f"items:{k2}:evicted"], "1",
               "-f 2: the free chunks used, then one eviction")
            eq(c.get("sp011"), None, "-f 2: of the class's oldest item")
            eq(c.get("sp012"), (0, value), "-f 2: the next one stays")
        finally:
            eq(s.stop()[0], 0, "pages -f 2: clean exit")

    s = Server(exe, "-m", "2", "-M")
    try:
        c = s.connect()
        replies = [c.set(f"nm{i:03d}", b"m" * n) for i in range(2 * per + 1)]
        eq(replies.count(b"STORED"), 2 * per, "-M: two pages' chunks stored")
        eq(replies[-1], b"SERVER_ERROR out of memory storing object",
           "-M: then out of memory")
        eq(c.stats()["evictions"], "0", "-M: nothing evicted")
        eq(c.get("nm000"), (0, b"m" * n), "-M: the first item kept")
        eq(c.set("small", "x"), b"STORED", "-M: a new class gets its page")
    finally:
        s.stop()

    s = Server(exe, "-m", "16")
    try:
        c = s.connect()
        for i in range(9 * per - 5):
            c.set(f"dy{i:03d}", value, noreply=True)
        eq(slab_figures(c, cls), ((9 * mib, 1), (9, 9 * per - 5)),
           "-m 16: nine pages")
        for i in range(8 * per - 5):
            c.send(f"delete dy{i:03d} noreply\r\n".encode())
        eq(slab_figures(c, cls), ((9 * mib, 1), (9, per)),
           "deletes within -m: the pages stay with the class")
        eq(c.cmd("cache_memlimit 8\r\n"), b"OK", "cache_memlimit 8")
        eq(slab_figures(c, cls), ((8 * mib, 1), (8, per)),
           "a lower limit: a wholly free page goes back at once")
        eq(c.cmd("cache_memlimit 16\r\n"), b"OK", "cache_memlimit 16")
        for i in range(9 * per - 5, 20 * per - 5):
            c.set(f"dy{i:03d}", value, noreply=True)
        eq(slab_figures(c, cls), ((12 * mib, 1), (12, 12 * per)),
           "raised again: twelve pages, full")
        eq(c.stats()["evictions"], "0", "no eviction below the limit")
        eq(c.cmd("cache_memlimit 8\r\n"), b"OK", "cache_memlimit 8 again")
        eq(slab_figures(c, cls)[0], (12 * mib, 1),
           "full pages stay while their items are there")
        for i in range(9 * per - 5, 20 * per - 5):
            c.send(f"delete dy{i:03d} noreply\r\n".encode())
        eq(slab_figures(c, cls), ((8 * mib, 1), (8, per)),
           "deletes give pages back down to the limit")
    finally:
        s.stop()

    # memcached-debug's faked slab memory (memcached's 64bit.t)
    base = (1 << 32) + 32
    s = Server(exe, "-m", "4098", "-M",
               env={"PTM_MEMCACHED_DEBUG": "1",
                    "T_MEMD_INITIAL_MALLOC": str(base)})
    try:
        c = s.connect()
        eq(c.stats()["limit_maxbytes"], str(4098 * mib), "-m 4098")
        eq(slab_figures(c), ((base, 0),), "T_MEMD_INITIAL_MALLOC: counted")
        big = 400 << 10
        bcls = class_of(sizes, "big0", big)
        replies = [c.set(f"big{i}", b"b" * big) for i in range(5)]
        bper = mib // sizes[bcls]
        eq(replies, [b"STORED"] * bper +
           [b"SERVER_ERROR out of memory storing object"] * (5 - bper),
           "one page's chunks fit under the rest of the limit")
        eq(slab_figures(c, bcls), ((base + mib, 1), (1, bper)),
           "the first page granted, no second")
    finally:
        s.stop()


def test_eviction(exe, pool_dir):
    pool = os.path.join(pool_dir, "evict.pool")
    s = Server(exe, "-m", "1", "-t", "2", "-I", "64k", pool=pool)
    try:
        c = s.connect()
        value = b"e" * 1000
        n = 3000  # ~3.3 MB of items into 1 MB
        for i in range(n):
            c.send(b"set ev%d 0 0 %d noreply\r\n%s\r\n" % (i, len(value),
                                                            value))
        eq(c.cmd("version\r\n")[:8], b"VERSION ", "eviction load done")
        stats = c.stats()
        evictions = int(stats["evictions"])
        items = int(stats["curr_items"])
        check(evictions > 0, "items were evicted under -m 1")
        check(int(stats["bytes"]) <= 1 << 20, "bytes stay under -m")
        eq(items + evictions, n, "items + evictions = stored")
        recent = c.get_multi([f"ev{i}" for i in range(n - 50, n)])
        eq(len(recent), 50, "the most recent items survive")
        check(all(v == (0, value) for v in recent.values()),
              "surviving items intact")
        old = c.get_multi([f"ev{i}" for i in range(50)])
        eq(len(old), 0, "the oldest items were evicted first")
        present = c.get_multi([f"ev{i}" for i in range(n)])
        eq(len(present), items, "curr_items counts the present items")
    finally:
        s.stop()
    # -M: no eviction, an error instead
    s = Server(exe, "-m", "1", "-M", "-I", "64k",
               pool=os.path.join(pool_dir, "noevict.pool"))
    try:
        c = s.connect()
        value = b"e" * 1000
        replies = [c.set(f"nv{i}", value) for i in range(1500)]
        check(b"SERVER_ERROR out of memory storing object" in replies,
              "-M: out of memory error")
        eq(c.stats()["evictions"], "0", "-M: nothing evicted")
        eq(c.get("nv0"), (0, value), "-M: old items kept")
    finally:
        s.stop()


def test_full_pool(exe, pool_dir, persistent):
    """A pool that fills before -m: stores evict (or, with -M, answer
    SERVER_ERROR out of memory), the server never dies, and after deletes
    stores work again."""
    if not persistent:
        return  # an STM library's items are on the ordinary heap
    # 20 MiB: 16 MiB of thread slots, about 4 MiB of heap, under -m 8
    args = ("-m", "8", "-t", "2", "-I", "64k", "--pool-size", "20m")
    value = b"f" * 1000
    n = 6000  # ~6.5 MB of items
    s = Server(exe, *args, pool=os.path.join(pool_dir, "full.pool"))
    try:
        c = s.connect()
        replies = [c.set(f"fp{i}", value) for i in range(n)]
        eq(replies.count(b"STORED"), n, "full pool: every store stored")
        stats = c.stats()
        evictions = int(stats["evictions"])
        check(evictions > 0, "full pool: items were evicted")
        check(int(stats["bytes"]) < 8 << 20, "full pool: before -m")
        eq(int(stats["curr_items"]) + evictions, n,
           "full pool: items + evictions = stored")
        recent = c.get_multi([f"fp{i}" for i in range(n - 50, n)])
        eq(recent, {f"fp{i}": (0, value) for i in range(n - 50, n)},
           "full pool: the most recent items intact")
        eq(s.proc.poll(), None, "full pool: server alive")
    finally:
        code, _ = s.stop()
    eq(code, 0, "full pool: clean exit")
    s = Server(exe, "-M", *args, pool=os.path.join(pool_dir, "fullM.pool"))
    try:
        c = s.connect()
        replies = [c.set(f"fm{i}", value) for i in range(n)]
        stored = replies.count(b"STORED")
        errors = replies.count(b"SERVER_ERROR out of memory storing object")
        check(stored > 1000, f"-M full pool: {stored} stored")
        eq(stored + errors, n, "-M full pool: stored or out of memory")
        check(errors > 0, "-M full pool: out of memory errors")
        eq(c.stats()["evictions"], "0", "-M full pool: nothing evicted")
        eq(c.get("fm0"), (0, value), "-M full pool: old items kept")
        for i in range(100):
            c.cmd(f"delete fm{i}\r\n")
        eq(c.set("again", value), b"STORED", "-M full pool: stores after deletes")
        eq(c.get("again"), (0, value), "-M full pool: the new item")
        eq(s.proc.poll(), None, "-M full pool: server alive")
    finally:
        code, _ = s.stop()
    eq(code, 0, "-M full pool: clean exit")


def mg_flag(line, flag):
    """The token of return flag FLAG in an mg/ms/ma reply line."""
    for tok in line.split()[1:]:
        if tok[:1] == flag.encode():
            return tok[1:].decode()
    raise AssertionError(f"no {flag} in {line!r}")


def test_meta_client_cas(c):
    """The meta E flag: a cas the client chooses, kept beside the store
    order (flush_all and the recovery check); md I's new cas; md x."""
    eq(c.cmd("ms ce 2 E973\r\nji\r\n"), b"HD", "ms E")
    eq(mg_flag(c.cmd("mg ce c\r\n"), "c"), "973", "mg c: the client's cas")
    eq(c.gets("ce"), (0, b"ji", 973), "gets: the client's cas")
    eq(c.cmd("me ce\r\n").split()[4], b"cas=973", "me: the client's cas")
    eq(c.cmd("ms ce 2 c C974 E5\r\nxx\r\n"), b"EX c0",
       "ms C compares the client's cas")
    eq(c.cmd("ms ce 2 c C973 E4000\r\nlo\r\n"), b"HD c4000",
       "ms C then E: the new item's cas")
    eq(c.set("ce", "cs", cas=4000, op="cas"), b"STORED",
       "the text cas command compares the client's cas")
    cas = c.gets("ce")[2]
    check(cas != 4000, "a store without E: a cas from the store order")
    for line in ("ms ce 1 E0\r\nx\r\n", "ms ce 1 Ex\r\nx\r\n"):
        eq(c.cmd(line), b"CLIENT_ERROR bad token in command line format",
           f"refused: {line.split(chr(13))[0]}")
    eq(c.cmd("md ce E0\r\n"), b"CLIENT_ERROR bad token in command line format",
       "md E0 refused")
    # mg: E only for the item N creates
    line = c.cmd("mg mge s c v N30 t E9876\r\n")
    eq((mg_flag(line, "c"), line.split()[-1]), ("9876", b"W"),
       "mg N E: the created item's cas")
    c.line()
    eq(mg_flag(c.cmd("mg mge c E5\r\n"), "c"), "9876",
       "mg E on a present item: ignored")
    # md I: stale with a new cas, E's or the next one
    eq(c.cmd("ms mde 2\r\nmE\r\n"), b"HD", "ms without E")
    old = int(mg_flag(c.cmd("mg mde c\r\n"), "c"))
    eq(c.cmd(f"md mde C{old} E5678 I\r\n"), b"HD", "md C E I")
    line = c.cmd("mg mde c v\r\n")
    eq((mg_flag(line, "c"), line.split()[-2:]), ("5678", [b"X", b"W"]),
       "md I E: stale, the client's cas")
    eq(c.line(), b"mE", "md I E keeps the value")
    eq(c.cmd("md mde E6000 I\r\n"), b"HD", "md I E again (in place)")
    eq(mg_flag(c.cmd("mg mde c\r\n"), "c"), "6000", "the second E")
    eq(c.cmd("md mde I\r\n"), b"HD", "md I without E")
    bumped = int(mg_flag(c.cmd("mg mde c\r\n"), "c"))
    check(bumped not in (6000, old), "md I without E: a new cas")
    eq(c.cmd("ms mdi 1\r\na\r\n"), b"HD", "ms")
    old = int(mg_flag(c.cmd("mg mdi c\r\n"), "c"))
    eq(c.cmd("md mdi I\r\n"), b"HD", "md I")
    check(int(mg_flag(c.cmd("mg mdi c\r\n"), "c")) > old,
          "md I: the next cas, as memcached bumps it")
    eq(c.cmd(f"ms mdi 1 C{old}\r\nb\r\n"), b"EX",
       "ms C with the cas before md I")
    # ma: E on the created and on the incremented value
    line = c.cmd("ma mae v N0 c E4321 J5\r\n")
    eq((mg_flag(line, "c"), c.line()), ("4321", b"5"), "ma N E")
    line = c.cmd("ma mae C4321 c v\r\n")
    eq(c.line(), b"6", "ma C compares the client's cas")
    check(mg_flag(line, "c") != "4321", "ma without E: a new cas")
    line = c.cmd("ma mae c v E8765\r\n")
    eq((mg_flag(line, "c"), c.line()), ("8765", b"7"), "ma E")
    # md x: the value emptied, the cas kept (or E's)
    eq(c.cmd("ms mdx 2 T50 E77\r\nmx\r\n"), b"HD", "ms")
    eq(c.cmd("md mdx x\r\n"), b"HD", "md x")
    line = c.cmd("mg mdx v c t\r\n")
    eq((line.split()[1], mg_flag(line, "c"), mg_flag(line, "t"), c.line()),
       (b"0", "77", "-1", b""), "md x: empty, the same cas, no TTL")
    eq(c.cmd("ms mdx 2 T50\r\nmz\r\n"), b"HD", "ms")
    eq(c.cmd("md mdx x I E78\r\n"), b"HD", "md x I E")
    line = c.cmd("mg mdx v c\r\n")
    eq((mg_flag(line, "c"), line.split()[-2:], c.line()),
       ("78", [b"X", b"W"], b""), "md x I: empty, stale, E's cas")
    # flush_all goes by the store order, whatever the client's cas
    eq(c.cmd("ms fhi 1 E18446744073709551615\r\na\r\n"), b"HD", "E 2^64-1")
    eq(c.cmd("flush_all\r\n"), b"OK", "flush_all")
    eq(c.cmd("mg fhi v\r\n"), b"EN", "flushed despite a high client cas")
    eq(c.cmd("ms flo 1 E1\r\nb\r\n"), b"HD", "E1 after flush_all")
    eq(c.cmd("mg flo c\r\n"), b"HD c1", "not flushed despite a low cas")


def test_client_cas_restart(exe, pool_dir):
    """Client cas values are in the pool: bytes counted, kept on restart."""
    pool = os.path.join(pool_dir, "ecas.pool")
    s = Server(exe, "-t", "2", pool=pool)
    c = s.connect()
    eq(c.cmd("ms a 3\r\nabc\r\n"), b"HD", "ms")
    plain = int(c.stats()["bytes"])
    eq(c.cmd("ms a 3 E77\r\nabc\r\n"), b"HD", "ms E")
    eq(int(c.stats()["bytes"]), plain + 8, "a client cas: 8 bytes more")
    eq(c.cmd("ms b 1\r\nb\r\n"), b"HD", "ms")
    eq(c.cmd("md b I E88\r\n"), b"HD", "md I E (the item made again)")
    eq(c.cmd("ma n N0 J1 E99\r\n"), b"HD", "ma N E")
    persistent = c.stats()["ptm_persistent"] == "1"
    before = c.stats()
    code, _ = s.stop()
    eq(code, 0, "SIGTERM: clean exit")
    if not persistent:
        return
    s = Server(exe, "-t", "2", pool=pool)
    try:
        c = s.connect()
        after = c.stats()
        eq((after["ptm_recovered_items"], after["bytes"]),
           ("3", before["bytes"]), "restart: the items and their bytes")
        eq(c.gets("a"), (0, b"abc", 77), "restart: a's client cas")
        eq(c.cmd("mg b c\r\n"), b"HD c88 X W", "restart: b stale, cas 88")
        eq(c.gets("n"), (0, b"1", 99), "restart: n's client cas")
    finally:
        s.stop()


def test_restart(exe, pool_dir):
    pool = os.path.join(pool_dir, "restart.pool")
    s = Server(exe, "-t", "2", pool=pool)
    c = s.connect()
    for i in range(100):
        c.set(f"r{i}", f"value-{i}", flags=i)
    c.cmd("delete r5\r\n")
    c.cmd("incr r7 1\r\n")
    persistent = c.stats()["ptm_persistent"] == "1"
    code, _ = s.stop()
    eq(code, 0, "SIGTERM: clean exit")
    s = Server(exe, "-t", "2", pool=pool)
    try:
        c = s.connect()
        got = c.get_multi([f"r{i}" for i in range(100)])
        if not persistent:  # STM library: a volatile cache
            eq(got, {}, "volatile library: empty after a restart")
            return
        want = {f"r{i}": (i, f"value-{i}".encode()) for i in range(100)
                if i != 5}
        want["r7"] = (7, None)
        check(set(got) == set(want), "restart: the same keys")
        check(all(got[k] == v for k, v in want.items() if k != "r7"),
              "restart: values and flags")
        stats = c.stats()
        eq(stats["ptm_recovered_items"], "99", "restart: recovered count")
        eq(stats["curr_items"], "99", "restart: curr_items")
    finally:
        s.stop()


def load_items(c, keys, value_of):
    """Pipelined noreply sets of KEYS, then one round trip to sync."""
    for i in range(0, len(keys), 500):
        c.send(b"".join(
            f"set {k} 3 0 {len(value_of(k))} noreply\r\n".encode() +
            value_of(k) + b"\r\n" for k in keys[i:i + 500]))
    eq(c.cmd("version\r\n").split()[0], b"VERSION", "sets synced")


def wait_table(c, power, what):
    """Polls stats until the table has 2^POWER buckets and does not grow (a
    bound on a hang, not a verdict on speed: 1200 polls 0.1 s apart)."""
    st = c.stats()
    for _ in range(1200):
        if st["hash_is_expanding"] == "0" and \
                int(st["hash_power_level"]) >= power:
            break
        time.sleep(0.1)
        st = c.stats()
    eq(st["hash_power_level"], str(power), f"{what}: hash_power_level")
    eq(st["hash_is_expanding"], "0", f"{what}: expansion over")


def check_items(c, want, what):
    keys = sorted(want)
    got = {}
    for i in range(0, len(keys), 200):
        got.update(c.get_multi(keys[i:i + 200]))
    lost = [k for k in keys if got.get(k) != (3, want[k])]
    check(not lost, f"{what}: {len(keys) - len(lost)} of {len(keys)} items "
          f"intact (first lost: {lost[:3]})")


def test_hash_growth(exe, pool_dir, persistent):
    """The hash table doubles online (-o hashpower=12: 4096 buckets; it
    grows when the items outnumber the buckets 3 to 2); an expansion held
    half done (the test hook PTM_MC_TEST_EXPAND_STEPS) serves every
    operation from both arrays, survives SIGKILL and finishes after the
    restart; -o no_hashexpand keeps the size."""
    def value_of(k):
        return f"value-of-{k}".encode() * (1 + len(k) % 4)

    # 14000 items: 4096 -> 8192 (at 6145) -> 16384 (at 12289) buckets
    s = Server(exe, "-o", "hashpower=12", pool=os.path.join(pool_dir,
                                                             "grow.pool"))
    try:
        c = s.connect()
        eq(c.stats()["hash_power_level"], "12", "hashpower=12 at start")
        eq(c.stats("settings")["hashpower_init"], "12", "settings: hashpower")
        keys = [f"g{i}" for i in range(14000)]
        load_items(c, keys, value_of)
        wait_table(c, 14, "14000 items")
        check_items(c, {k: value_of(k) for k in keys}, "after growing")
        eq(c.stats()["curr_items"], "14000", "curr_items after growing")
    finally:
        s.stop()

    s = Server(exe, "-o", "hashpower=12,no_hashexpand")
    try:
        c = s.connect()
        load_items(c, [f"n{i}" for i in range(7000)], value_of)
        st = c.stats()
        eq((st["hash_power_level"], st["hash_is_expanding"]), ("12", "0"),
           "no_hashexpand: the table keeps its size")
    finally:
        s.stop()
    if not persistent:
        return  # nothing survives a restart
    # One expansion (4096 -> 8192 buckets: 64 steps of 64 old buckets)
    # killed at each of its phases, the test hook holding it there.
    for steps, resume_hold in ((0, None), (1, None), (20, 40), (64, None),
                               (None, None)):
        grow_and_kill(exe, pool_dir, value_of, steps, resume_hold)


def grow_and_kill(exe, pool_dir, value_of, steps, resume_hold):
    """7000 items grow the table once; SIGKILL with the expansion held after
    STEPS of its steps (PTM_MC_TEST_EXPAND_STEPS; 0: right after the
    transaction that began it, 64: every bucket moved, the old array not yet
    freed; None: after the expansion finished), while every kind of
    operation runs on a table in two arrays. The restart (which checks the
    structure at open) resumes the expansion, or finds nothing to do; with
    RESUME_HOLD it is held again after that many steps and killed again. The
    table ends grown with every acknowledged item; a clean restart then
    finds it whole."""
    phase = "finished" if steps is None else f"{steps} steps"
    what = f"expansion killed after {phase}"
    pool = os.path.join(pool_dir, f"grow-kill-{phase.replace(' ', '')}.pool")
    hook = {} if steps is None else {"PTM_MC_TEST_EXPAND_STEPS": str(steps)}
    s = Server(exe, "-o", "hashpower=12", pool=pool, env=hook)
    c = s.connect()
    keys = [f"k{i}" for i in range(7000)]
    want = {k: value_of(k) for k in keys}
    load_items(c, keys, value_of)
    if steps is None:
        wait_table(c, 13, f"{what}: before the kill")
    else:
        wait_held(c, f"{what}: held")
        eq(c.stats()["hash_is_expanding"], "1", f"{what}: growing")
    # every kind of operation on the table as the kill finds it
    for i in range(0, 7000, 7):
        k = keys[i]
        if i % 2:
            eq(c.cmd(f"delete {k}\r\n"), b"DELETED", f"{what}: delete {k}")
            del want[k]
        else:
            want[k] = f"new-{i}".encode()
            eq(c.set(k, want[k], flags=3), b"STORED",
               f"{what}: overwrite {k}")
    check_items(c, want, f"{what}: before the kill")
    eq(s.kill(), -9, f"{what}: SIGKILL")
    if resume_hold is not None:
        # the restart resumes, is held again and killed again
        s = Server(exe, "-v", pool=pool,
                   env={"PTM_MC_TEST_EXPAND_STEPS": str(resume_hold)})
        c = s.connect()
        wait_held(c, f"{what}: resumed, held again")
        check_items(c, want, f"{what}: resumed, held again")
        eq(s.kill(), -9, f"{what}: SIGKILL in the resumed expansion")
    s = Server(exe, "-v", pool=pool)
    try:
        resumed = any("growing: resumed" in line for line in s.log)
        eq(resumed, steps is not None, f"{what}: the restart resumes it "
           f"(or has nothing to do): {s.log}")
        c = s.connect()
        wait_table(c, 13, f"{what}: after the restart")
        check_items(c, want, f"{what}: after the restart")
        eq(c.stats()["curr_items"], str(len(want)), f"{what}: curr_items")
    finally:
        code, log = s.stop()
    eq(code, 0, f"{what}: clean stop after the restart")
    s = Server(exe, "-v", pool=pool)
    try:
        check(not any("growing" in line for line in s.log),
              f"{what}: grown table at the next open: {s.log}")
        c = s.connect()
        st = c.stats()
        eq((st["hash_power_level"], st["hash_is_expanding"]), ("13", "0"),
           f"{what}: the grown table at the next open")
        check_items(c, want, f"{what}: at the next open")
    finally:
        s.stop()


def wait_held(c, what):
    """Polls stats until the test hook holds the expansion (a bound on a
    hang: 1200 polls 0.1 s apart)."""
    for _ in range(1200):
        if c.stats().get("ptm_test_expand_held") == "1":
            break
        time.sleep(0.1)
    eq(c.stats().get("ptm_test_expand_held"), "1", what)


def serve_many(s, nconns, what):
    """NCONNS connections (the server hands them to its workers in turn, so
    every worker gets some when NCONNS >= -t), each storing and reading back
    its own keys: every worker runs transactions."""
    conns = [s.connect() for _ in range(nconns)]
    for i, c in enumerate(conns):
        c.send(f"set many{i} {i} 0 6 noreply\r\nval{i:03d}\r\n".encode() +
               f"set more{i} 0 0 {len(str(i))}\r\n{i}\r\n".encode())
    replies = [c.line() for c in conns]
    eq(replies.count(b"STORED"), nconns, f"{what}: stores acknowledged")
    got = [c.get_multi([f"many{i}", f"more{i}"]) for i, c in enumerate(conns)]
    bad = [i for i, g in enumerate(got)
           if g != {f"many{i}": (i, f"val{i:03d}".encode()),
                    f"more{i}": (0, str(i).encode())}]
    check(not bad, f"{what}: every connection reads its items back "
          f"(wrong: {bad[:5]})")
    for c in conns:
        c.close()


def test_threads_and_slots(exe, pool_dir, persistent):
    """A new pool gets a slot for every worker and the server's own threads
    (main, hash table maintainer, persister: 3); an existing pool with fewer
    serves anyway, its threads leasing the slots, and loses nothing;
    PTM_POOL_SLOTS values a pool cannot have are refused before a file is
    made."""
    for pool in (os.path.join(pool_dir, "t100.pool"), None):
        what = f"-t 100, {'new pool' if pool else 'temporary pool'}"
        s = Server(exe, "-t", "100", pool=pool)
        try:
            c = s.connect()
            slots = int(c.stats()["ptm_pool_slots"])
            if persistent:
                eq(slots, 103, f"{what}: thread slots")
            else:
                eq(slots, 0, f"{what}: no pool, no slots")
            serve_many(s, 300, what)
            eq(int(c.stats()["curr_items"]), 600, f"{what}: curr_items")
            eq(s.proc.poll(), None, f"{what}: server alive")
        finally:
            code, log = s.stop()
        eq(code, 0, f"{what}: clean exit ({log[-300:]})")
    if not persistent:
        return  # no pool, no thread slots
    pool = os.path.join(pool_dir, "t100.pool")
    s = Server(exe, "-t", "100", pool=pool)  # reopened: its 103 slots do
    try:
        c = s.connect()
        eq(c.stats()["ptm_recovered_items"], "600", "-t 100 reopened")
        serve_many(s, 150, "-t 100 reopened")
    finally:
        eq(s.stop()[0], 0, "-t 100 reopened: clean exit")

    # A pool made with the default 64 slots serves more threads than it has
    # slots (they lease them: docs/pool.md "Deploying"), and loses nothing.
    pool = os.path.join(pool_dir, "t2.pool")
    s = Server(exe, "-t", "2", pool=pool)
    c = s.connect()
    eq(c.stats()["ptm_pool_slots"], "64", "-t 2: a new pool's default slots")
    load_items(c, [f"s{i}" for i in range(500)], lambda k: k.encode())
    eq(s.stop()[0], 0, "-t 2: clean exit")
    items = 500
    for t in ("62", "100"):
        what = f"-t {t} on a pool of 64 slots"
        s = Server(exe, "-t", t, "-v", pool=pool)
        try:
            c = s.connect()
            eq(c.stats()["ptm_pool_slots"], "64", f"{what}: slots")
            eq(c.stats()["ptm_recovered_items"], str(items),
               f"{what}: every item")
            serve_many(s, 2 * int(t), what)
            items = 500 + 2 * 2 * int(t)  # serve_many's keys replace the last
            check_items(c, {f"s{i}": f"s{i}".encode() for i in range(500)},
                        what)
        finally:
            code, log = s.stop()
        eq(code, 0, f"{what}: clean exit")
        check(f"{t} worker threads share the pool's 64 thread slots" in log,
              f"{what}: the start-up report says so ({log[-400:]!r})")

    # PTM_POOL_SLOTS: what a new pool gets, even fewer than -t wants.
    pool = os.path.join(pool_dir, "slots8.pool")
    s = Server(exe, "-t", "6", pool=pool, env={"PTM_POOL_SLOTS": "8"})
    try:
        eq(s.connect().stats()["ptm_pool_slots"], "8", "PTM_POOL_SLOTS=8")
        serve_many(s, 12, "-t 6 on a pool of 8 slots")
    finally:
        eq(s.stop()[0], 0, "-t 6 on a pool of 8 slots: clean exit")
    for value in ("0", "257", "-1", "12x", "lots", " 7"):
        pool = os.path.join(pool_dir, "bad-slots.pool")
        p = subprocess.run([exe, "-p", "-1", "-U", "0", "--pool", pool],
                           capture_output=True, text=True, timeout=60,
                           env={**os.environ, "PTM_POOL_SLOTS": value})
        check(p.returncode != 0 and
              f"PTM_POOL_SLOTS='{value}' is not a slot count (1 to 256)"
              in p.stderr, f"PTM_POOL_SLOTS={value!r} refused: {p.stderr!r}")
        check(not os.path.exists(pool), f"PTM_POOL_SLOTS={value!r}: no file")


def test_pool_mode(exe, pool_dir, persistent):
    """A new pool file is owner-only; --pool-mode chooses another mode."""
    old_umask = os.umask(0o022)
    try:
        for args, want in (([], 0o600), (["--pool-mode", "640"], 0o640)):
            pool = os.path.join(pool_dir, f"mode-{want:o}.pool")
            s = Server(exe, "-t", "2", *args, pool=pool)
            s.connect().set("k", "v")
            code, _ = s.stop()
            eq(code, 0, f"{args}: clean exit")
            if persistent:
                eq(oct(os.stat(pool).st_mode & 0o7777), oct(want),
                   f"{args}: the pool file's mode")
            else:
                check(not os.path.exists(pool), "volatile: no pool file")
    finally:
        os.umask(old_umask)


def test_pool_in_use(exe, pool_dir, persistent):
    """A second server on a pool in use is refused (exit 75, EX_TEMPFAIL,
    the holder's pid named) and the first serves on; after a SIGKILL of the
    holder a new server opens the pool at once. --pool-sparse makes a
    sparse pool file, the default reserves the space."""
    if not persistent:
        return
    pool = os.path.join(pool_dir, "in-use.pool")
    s = Server(exe, "-t", "2", pool=pool)
    try:
        c = s.connect()
        c.set("k", "v1")
        p = subprocess.run([exe, "-p", "-1", "-U", "0", "-t", "2", "--pool",
                            pool], capture_output=True, text=True,
                           timeout=60)
        eq(p.returncode, 75, f"second server on a pool in use: {p.stderr!r}")
        for part in ("the pool is in use: process %d" % s.proc.pid,
                     "another process has it open"):
            check(part in p.stderr, f"in use: {part!r} in {p.stderr!r}")
        eq(c.get("k"), (0, b"v1"), "the first server serves on")
        c.set("k", "v2")
    finally:
        s.kill()
    s = Server(exe, "-t", "2", pool=pool)  # at once after the SIGKILL
    try:
        eq(s.connect().get("k"), (0, b"v2"), "reopened after SIGKILL")
    finally:
        eq(s.stop()[0], 0, "reopened: clean exit")
    st = os.stat(pool)
    check(st.st_blocks * 512 >= st.st_size, "the pool's space is reserved")
    sparse = os.path.join(pool_dir, "sparse.pool")
    s = Server(exe, "-t", "2", "--pool-sparse", "--pool-size", "256m",
               pool=sparse)
    try:
        s.connect().set("k", "v")
    finally:
        eq(s.stop()[0], 0, "--pool-sparse: clean exit")
    st = os.stat(sparse)
    check(st.st_blocks * 512 < st.st_size, "--pool-sparse: a sparse file")


def test_bad_arguments(exe, persistent):
    for args, what in ((["-p", "abc"], "non-numeric port"),
                       (["-p", "70000"], "port out of range"),
                       (["-U", "70000"], "UDP port out of range"),
                       (["-B", "http"], "unknown protocol"),
                       (["-o", "nosuch"], "unknown -o setting"),
                       (["-o", "ext_path=/tmp/x:64m"], "extstore"),
                       (["-o", "idle_timeout"], "-o setting without value"),
                       (["-o", "hashpower=5"], "hashpower below 12"),
                       (["-c", "0"], "no connections"),
                       (["-t", "0"], "zero threads"),
                       (["-t", "254"], "more workers than a pool has slots"),
                       (["-m", "-5"], "negative memory"),
                       (["-I", "10"], "item size below 1k"),
                       (["-I", "5q"], "bad size suffix"),
                       (["--pool"], "missing argument"),
                       (["--pool-mode", "400"], "mode: owner cannot write"),
                       (["--pool-mode", "rw"], "pool mode not octal"),
                       (["-Z"], "unknown option"),
                       (["extra"], "stray argument")):
        p = subprocess.run([exe, *args], capture_output=True, text=True,
                           timeout=30)
        eq(p.returncode, 64, f"bad argument ({what}): exit 64")
        check(p.stderr.startswith("ptm-memcached: "),
              f"bad argument ({what}): message {p.stderr!r}")
    p = subprocess.run([exe, "-h"], capture_output=True, text=True,
                       timeout=30)
    check(p.returncode == 0 and "--pool" in p.stdout, "-h prints usage")
    with tempfile.TemporaryDirectory() as d:
        # memcached's restart metadata beside -e FILE (restart.t): refused
        mem = os.path.join(d, "mem")
        open(mem + ".meta", "w").close()
        p = subprocess.run([exe, "-p", "-1", "-e", mem], capture_output=True,
                           text=True, timeout=30)
        check(p.returncode == 64 and ".meta" in p.stderr,
              f"-e beside memcached's .meta file is refused: {p.stderr!r}")
        check(not os.path.exists(mem), "-e refused: no pool created")
    if not persistent:
        return  # an STM library ignores --pool
    with tempfile.NamedTemporaryFile() as f:
        f.write(b"not a pool" * 1000)
        f.flush()
        p = subprocess.run([exe, "-p", "-1", "--pool", f.name],
                           capture_output=True, text=True, timeout=30)
        check(p.returncode != 0 and "not a ptm pool" in p.stderr,
              f"a file that is not a pool is refused: {p.stderr!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("server")
    ap.add_argument("--pool-dir")
    args = ap.parse_args()
    exe = os.path.abspath(args.server)
    with tempfile.TemporaryDirectory(dir=args.pool_dir) as d:
        s = Server(exe, "-t", "2", "-I", "64k", pool=os.path.join(d, "p.pool"))
        try:
            c = s.connect()
            # -I as given, for every library (the p_ libraries log a whole
            # item's value: their logs extend, docs/pool.md)
            item_max = int(c.stats("settings")["item_size_max"])
            eq(item_max, 65536, "item_size_max")
            persistent = c.stats()["ptm_persistent"] == "1"
            print(f"library {c.stats()['ptm_library']}, item size limit "
                  f"{item_max}", flush=True)
            test_storage(c, item_max)
            for t in (test_multiget_and_cas,
                      test_delete_incr_touch, test_noreply,
                      test_misc_commands, test_gat, test_expiry):
                print(t.__name__, flush=True)
                t(c)
            print("test_malformed", flush=True)
            test_malformed(s.connect(), item_max)
            print("test_garbage", flush=True)
            test_garbage(s)
            print("test_binary", flush=True)
            test_binary(s, item_max)
            print("test_memcached_replies", flush=True)
            test_memcached_replies(s, item_max)
            print("test_meta", flush=True)
            test_meta(s.connect())
            print("test_meta_client_cas", flush=True)
            test_meta_client_cas(s.connect())
            test_quit(s)
            eq(s.proc.poll(), None, "server alive after every test")
        finally:
            code, log = s.stop()
        eq(code, 0, "server exit status")
        if failures:
            print(log)
        print("test_eviction", flush=True)
        test_eviction(exe, d)
        print("test_slab_pages", flush=True)
        test_slab_pages(exe, d, persistent)
        print("test_full_pool", flush=True)
        test_full_pool(exe, d, persistent)
        print("test_restart", flush=True)
        test_restart(exe, d)
        test_client_cas_restart(exe, d)
        print("test_hash_growth", flush=True)
        test_hash_growth(exe, d, persistent)
        print("test_size_classes", flush=True)
        test_size_classes(exe, d, persistent)
        print("test_threads_and_slots", flush=True)
        test_threads_and_slots(exe, d, persistent)
        print("test_pool_mode", flush=True)
        test_pool_mode(exe, d, persistent)
        test_pool_in_use(exe, d, persistent)
        print("test_bad_arguments", flush=True)
        test_bad_arguments(exe, persistent)
        print("test_unix_socket_udp_auth", flush=True)
        test_unix_socket_udp_auth(exe, d)
        print("test_reclaim_and_yields", flush=True)
        test_reclaim_and_yields(exe)
        print("test_watch", flush=True)
        test_watch(exe)
    return verdict("all protocol checks passed")


if __name__ == "__main__":
    sys.exit(main())
