#!/usr/bin/env python3
"""Crash test of examples/kv.cpp: SIGKILL in the middle of a load, restart,
and every acknowledged change must be there.

  kv_crash.py KV POOL [--kills N] [--ptm-pool PTM_POOL_TOOL]

Each round starts `kv -p POOL load FIRST 100000000`, reads its
acknowledgements ("ack put I" / "ack del I", printed after each commit) and
kills it with SIGKILL after a number of them that changes from round to
round (bounded by count, not by time). The next round continues from the
last acknowledged put. After every kill, `kv list` must show exactly the
model built from the acknowledgements: every acknowledged put with its value
unless an acknowledged delete followed, no acknowledged delete's key, and
nothing else -- except the one operation in flight at the kill (the put or
delete after the last acknowledgement), which may or may not have committed.
At the end the pool is checked with ptm-pool (if given).
"""
import argparse
import os
import signal
import subprocess
import sys


def value_of(i):
    # kv.cpp's value_of
    return f"value{i}-" + chr(ord("a") + i % 26) * (i % 61)


def in_flight(last):
    """The operation that follows the last acknowledged one."""
    kind, i = last
    if kind == "put" and i % 4 == 3:
        return ("del", i - 3)
    return ("put", i + 1 if kind == "put" else i + 3 + 1)


def check(kv, pool, model, last):
    out = subprocess.run([kv, "-p", pool, "list"], capture_output=True,
                         text=True, timeout=120)
    if out.returncode != 0:
        return [f"kv list failed: {out.stderr.strip()}"]
    found = {}
    for line in out.stdout.splitlines():
        k, _, v = line.partition(" ")
        found[k] = v
    pending = in_flight(last) if last else ("put", 0)
    pkey = f"key{pending[1]}"
    errors = []
    for k, v in model.items():
        if k == pkey:
            continue
        if k not in found:
            errors.append(f"acknowledged {k} lost")
        elif found[k] != v:
            errors.append(f"{k}: '{found[k]}', acknowledged '{v}'")
    for k, v in found.items():
        if k in model or k == pkey:
            if k == pkey and k not in model and pending[0] == "put":
                i = pending[1]
                if v != value_of(i):
                    errors.append(f"in-flight {k} has value '{v}'")
            continue
        errors.append(f"{k} present, not acknowledged (or deleted)")
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kv")
    ap.add_argument("pool")
    ap.add_argument("--kills", type=int, default=12)
    ap.add_argument("--total", type=int, default=0,
                    help="kill so that the map holds about this many keys "
                    "at the end (it grows and rehashes on the way)")
    ap.add_argument("--size-mb", dest="size_mb", type=int, default=0,
                    help="size of the new pool (kv -s)")
    ap.add_argument("--ptm-pool", dest="ptm_pool")
    args = ap.parse_args()
    if os.path.exists(args.pool):
        os.remove(args.pool)

    model = {}
    last = None
    first = 0
    failures = 0
    for rnd in range(args.kills):
        size = ["-s", str(args.size_mb)] if args.size_mb and rnd == 0 else []
        proc = subprocess.Popen([args.kv, "-p", args.pool] + size +
                                ["load", str(first), "100000000"],
                                stdout=subprocess.PIPE, text=True)
        # acknowledgements before the kill
        if args.total:
            # 5 acknowledgements (4 puts, 1 delete) per 3 keys kept
            per = args.total * 5 // 3 // args.kills
            target = per - 500 + (rnd * 977) % 1000
        else:
            target = 150 + (rnd * 977) % 700
        seen = 0
        killed = False
        # Every complete line is an acknowledgement, also those still in
        # the pipe when the kill lands (kv runs ahead of this reader).
        for line in proc.stdout:
            if not line.endswith("\n"):
                break
            _, kind, num = line.split()
            i = int(num)
            if kind == "put":
                model[f"key{i}"] = value_of(i)
                first = i + 1
            else:
                model.pop(f"key{i}", None)
            last = (kind, i)
            seen += 1
            if seen >= target and not killed:
                proc.send_signal(signal.SIGKILL)
                killed = True
        proc.wait()
        if proc.returncode != -signal.SIGKILL:
            print(f"round {rnd}: kv exited with {proc.returncode} before the "
                  f"kill")
            return 1
        # The operation in flight may have committed: if it did, the model
        # takes it (the next round overwrites a put anyway).
        errors = check(args.kv, args.pool, model, last)
        if errors:
            failures += 1
            print(f"round {rnd}: {len(errors)} errors after the kill, e.g. "
                  + "; ".join(errors[:5]))
        pk, pi = in_flight(last)
        if pk == "del":
            # Resolve the in-flight delete for the next rounds: do it now.
            subprocess.run([args.kv, "-p", args.pool, "del", f"key{pi}"],
                           capture_output=True)
            model.pop(f"key{pi}", None)
        print(f"round {rnd}: killed after {seen} acknowledgements, "
              f"{len(model)} keys acknowledged, "
              f"{'OK' if not errors else 'FAILED'}")
        sys.stdout.flush()

    if args.ptm_pool:
        out = subprocess.run([args.ptm_pool, "check", args.pool],
                             capture_output=True, text=True)
        if out.returncode != 0:
            print(f"ptm-pool check: {out.stdout}{out.stderr}")
            failures += 1
    if failures:
        print(f"kv-crash: FAILED ({failures} rounds)")
        return 1
    os.remove(args.pool)
    print(f"kv-crash: OK: {args.kills} kills, {len(model)} keys")
    return 0


if __name__ == "__main__":
    sys.exit(main())
