#!/usr/bin/env python3
"""The `memcached-debug` that memcached's test suite starts, for
ptm-memcached (run_memcached_suite.sh installs it in the suite's work
directory).

    memcached_debug.py MEMCACHED-OPTIONS...

Runs $PTM_MEMCACHED (the server binary) in its place with the options
memcached's t/lib/MemcachedTest.pm passes: ptm-memcached takes memcached's
options itself, so they go through unchanged, and PTM_MEMCACHED_DEBUG=1
turns on the debug build's test hooks the suite uses (debugtime, which moves
the server's clock, and T_MEMD_INITIAL_MALLOC, which 64bit.t sets in the
environment the server inherits: slab memory counted as handed out
already); its temporary pool is made in $PTM_SUITE_POOLS. With
PTM_SUITE_RAW=1 the server is a real memcached
(the reference run): only relaxed_privileges, which a release build lacks,
is dropped. The server replaces this process (exec), so the suite's signals
reach it.
"""
import os
import sys


def drop_relaxed_privileges(args):
    out = []
    i = 0
    while i < len(args):
        if args[i] == "-o" and i + 1 < len(args):
            keep = [s for s in args[i + 1].split(",")
                    if s and s != "relaxed_privileges"]
            if keep:
                out += ["-o", ",".join(keep)]
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out


def pools_in_work_dir():
    """A server started without -e makes a temporary pool (removed when it
    exits) under $TMPDIR: point that at $PTM_SUITE_POOLS, in the suite's
    work directory, so the pool of a server the suite kills is removed with
    that directory instead of staying in /tmp."""
    pools = os.environ.get("PTM_SUITE_POOLS")
    if pools:
        os.makedirs(pools, exist_ok=True)
        os.environ["TMPDIR"] = pools


def main():
    exe = os.environ.get("PTM_MEMCACHED")
    if not exe:
        print("memcached-debug: PTM_MEMCACHED (the server) is not set",
              file=sys.stderr)
        return 2
    args = sys.argv[1:]
    if os.environ.get("PTM_SUITE_RAW") == "1":
        args = drop_relaxed_privileges(args)
    else:
        os.environ["PTM_MEMCACHED_DEBUG"] = "1"
        pools_in_work_dir()
    os.execv(exe, [exe] + args)
    return 2


if __name__ == "__main__":
    sys.exit(main())
