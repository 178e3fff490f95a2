#!/usr/bin/env python3
"""Tests of the guides' code (docs/getting-started.md, docs/porting.md).

  guide_test.py PART --repo ROOT --cc CLANG --ptm-config PTM_CONFIG
                --ptm-pool PTM_POOL_TOOL --work DIR [--kills N]

PART is one of:
  plain       list_plain.c built with plain clang prints what the guide shows
  persistent  list_persistent.c built with ptm-config (ip_orec_lazy) keeps
              its items across runs, and ptm-pool check/info accept the pool
  crash       list_persistent fill, killed with SIGKILL after a number of
              acknowledged commits that changes from round to round (bounded
              by count, not time); after each kill the list holds every
              acknowledged item (and at most the one in flight) and is
              intact; then two rounds under PTM_DURABILITY=buffered:1000,
              after which the list must be intact and a prefix
  porting     stock.c gets the compiler warning the guide shows; at run time
              cgl reports its two constructs and finishes, PTM_UNSUPPORTED=
              error and ip_orec_lazy stop it with the documented messages;
              stock_fixed.c compiles without a warning and runs under
              ip_orec_lazy with PTM_UNSUPPORTED=error and PTM_STATS=1

The programs are compiled with the commands the guides give (ptm-config
--cflags / --ldflags), and the outputs and messages the guides show are
looked up in the guides' text too, so that guide and test cannot drift
apart. Prints "guide-PART: OK" on success.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys

failures = []
ARGS = None


def fail(msg):
    failures.append(msg)
    print(f"FAIL: {msg}")


def run(cmd, env=None, check=True, **kw):
    e = dict(os.environ)
    if env:
        e.update(env)
    kw.setdefault("cwd", ARGS.repo)  # the guides' commands run there
    p = subprocess.run(cmd, capture_output=True, text=True, env=e,
                       timeout=300, **kw)
    if check and p.returncode != 0:
        fail(f"{' '.join(cmd)} exited with {p.returncode}:\n"
             f"{p.stdout}{p.stderr}")
    return p


def doc(args, name):
    with open(os.path.join(args.repo, "docs", name)) as f:
        return f.read()


def doc_shows(text, name, what):
    """The guide NAME (its text TEXT) must show WHAT verbatim."""
    if what not in text:
        fail(f"docs/{name} does not show {what!r}")


def snippets_in_sources(args, text, name):
    """Every line of the guide's C snippets is a line of examples/guide/."""
    src = set()
    gdir = os.path.join(args.repo, "examples", "guide")
    for f in os.listdir(gdir):
        if f.endswith(".c"):
            src.update(x.strip() for x in open(os.path.join(gdir, f)))
    for block in re.findall(r"```c\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.strip()
            if line and line != "/* ... */" and line not in src:
                fail(f"docs/{name}: snippet line {line!r} is in no source "
                     f"of examples/guide/")


def flags(args, *opt):
    out = run([args.ptm_config] + list(opt)).stdout.split()
    return out


def build_ptm(args, src, out, lib, extra=()):
    """clang-19 -std=c11 [EXTRA] -O2 -flto $(ptm-config --cflags) SRC
    $(ptm-config --ldflags LIB) -o OUT: the guides' command."""
    cmd = ([args.cc, "-std=c11"] + list(extra) + ["-O2", "-flto"] +
           flags(args, "--cflags") +
           [os.path.join("examples", "guide", src)] +
           flags(args, "--ldflags", lib) + ["-o", out])
    return run(cmd)


def part_plain(args):
    text = doc(args, "getting-started.md")
    snippets_in_sources(args, text, "getting-started.md")
    exe = os.path.join(args.work, "list_plain")
    doc_shows(text, "getting-started.md",
              "clang-19 -std=c11 -O2 -Wall examples/guide/list_plain.c "
              "-o build/guide/list_plain")
    run([args.cc, "-std=c11", "-O2", "-Wall", "-Werror",
         os.path.join("examples", "guide", "list_plain.c"),
         "-o", exe])
    out = run([exe]).stdout
    if out != "popped 50\nlist: 40 30 20 10 (4 items)\n":
        fail(f"list_plain printed {out!r}")
    doc_shows(text, "getting-started.md", out.strip())


def persistent_exe(args):
    exe = os.path.join(args.work, "list_persistent")
    build_ptm(args, "list_persistent.c", exe, "ip_orec_lazy")
    return exe


def part_persistent(args):
    text = doc(args, "getting-started.md")
    name = "getting-started.md"
    doc_shows(text, name,
              "clang-19 -std=c11 -O2 -flto $(build/bin/ptm-config --cflags) "
              "examples/guide/list_persistent.c")
    doc_shows(text, name, "$(build/bin/ptm-config --ldflags ip_orec_lazy)")
    exe = persistent_exe(args)
    pool = os.path.join(args.work, "list.pool")
    if os.path.exists(pool):
        os.remove(pool)
    # Each step is a process of its own: the list lives only in the pool.
    steps = [
        (["push", "10", "20", "30"], ""),
        (["print"], "list: 30 20 10 (3 items)\n"),
        (["pop"], "popped 30\n"),
        (["print"], "list: 20 10 (2 items)\n"),
        (["check"], "check: OK: 2 items, front 20, not a count\n"),
    ]
    for argv, expected in steps:
        out = run([exe, pool] + argv).stdout
        if out != expected:
            fail(f"list_persistent {' '.join(argv)} printed {out!r}, "
                 f"expected {expected!r}")
        if expected:
            doc_shows(text, name, expected.strip())
    chk = run([args.ptm_pool, "check", pool])
    if "ptm-pool check" not in text:
        fail("docs/getting-started.md does not mention ptm-pool check")
    info = run([args.ptm_pool, "info", pool]).stdout
    if "ip_orec_lazy" not in info:
        fail(f"ptm-pool info does not name the creator: {info}")
    if chk.returncode == 0:
        os.remove(pool)


def part_crash(args):
    exe = persistent_exe(args)
    pool = os.path.join(args.work, "crash.pool")
    if os.path.exists(pool):
        os.remove(pool)
    last = 0  # the last acknowledged value
    # args.kills rounds under strict durability, then 2 under buffered.
    for rnd in range(args.kills + 2):
        buffered = rnd >= args.kills
        start = last  # durable: the last check closed the pool cleanly
        target = 50 + (rnd * 977) % 700  # acknowledgements before the kill
        env = dict(os.environ)
        if buffered:
            env["PTM_DURABILITY"] = "buffered:1000"
        proc = subprocess.Popen([exe, pool, "fill", "100000000"],
                                stdout=subprocess.PIPE, text=True, env=env)
        seen = 0
        killed = False
        for line in proc.stdout:
            if not line.endswith("\n"):
                break  # cut by the kill: not an acknowledgement
            m = re.fullmatch(r"committed (\d+)\n", line)
            if not m:
                fail(f"round {rnd}: unexpected output {line!r}")
                break
            v = int(m.group(1))
            if v != last + 1:
                fail(f"round {rnd}: acknowledged {v} after {last}")
            last = v
            seen += 1
            if seen >= target and not killed:
                proc.send_signal(signal.SIGKILL)
                killed = True
        proc.wait()
        if proc.returncode != -signal.SIGKILL:
            fail(f"round {rnd}: list_persistent exited with "
                 f"{proc.returncode} before the kill")
            break
        out = run([exe, pool, "check"], check=False)
        m = re.fullmatch(r"check: OK: (\d+) items, front (\d+), "
                         r"counting down by one\n", out.stdout)
        if out.returncode != 0 or not m:
            fail(f"round {rnd}: after the kill: {out.stdout}{out.stderr}")
            break
        items, front = int(m.group(1)), int(m.group(2))
        # Strict: every acknowledged push is there; the one in flight at
        # the kill may have committed too; nothing else. Buffered: the list
        # as it was after some push of the round (a prefix), intact.
        ok = front in (last, last + 1) if not buffered else \
            start <= front <= last + 1
        if not ok or items != front:
            fail(f"round {rnd} ({'buffered' if buffered else 'strict'}): "
                 f"{items} items, front {front}, last acknowledged {last}")
            break
        print(f"round {rnd} ({'buffered' if buffered else 'strict'}): "
              f"killed after {seen} acknowledgements, {items} items, "
              f"front {front}: OK")
        sys.stdout.flush()
        last = front
    chk = run([args.ptm_pool, "check", pool])
    if chk.returncode == 0 and not failures:
        os.remove(pool)


def part_porting(args):
    text = doc(args, "porting.md")
    name = "porting.md"
    snippets_in_sources(args, text, name)
    src = os.path.join("examples", "guide", "stock.c")
    # The compile-time warning, with file:line:column (-g).
    obj = os.path.join(args.work, "stock.o")
    doc_shows(text, name, "clang-19 -std=c11 -g -O2 -flto "
              "$(build/bin/ptm-config --cflags) -c examples/guide/stock.c "
              "-o build/guide/stock.o")
    for lib in ["cgl", "ip_orec_lazy"]:
        doc_shows(text, name, "clang-19 -O2 -flto build/guide/stock.o "
                  f"$(build/bin/ptm-config --ldflags {lib})")
    doc_shows(text, name, "clang-19 -std=c11 -g -O2 -flto "
              "$(build/bin/ptm-config --cflags) examples/guide/stock_fixed.c")
    cc = run([args.cc, "-std=c11", "-g", "-O2", "-flto"] +
             flags(args, "--cflags") + ["-c", src, "-o", obj])
    warn = ("warning: ptm: call of 'printf' inside a transaction cannot be "
            "rolled back; the transaction becomes irrevocable or fails at "
            "run time, depending on the library")
    lines = open(os.path.join(args.repo, src)).read().splitlines()
    line = 1 + next(i for i, s in enumerate(lines) if 'printf("%s: sold' in s)
    cmp_line = 1 + next(i for i, s in enumerate(lines) if "strcasecmp(" in s)
    m = re.search(rf"{re.escape(src)}:{line}:\d+: {re.escape(warn)}",
                  cc.stderr)
    if not m:
        fail(f"no warning for printf at stock.c:{line}: {cc.stderr!r}")
    else:
        doc_shows(text, name, m.group(0))  # file:line:col and the text
    if "strcasecmp" in cc.stderr:
        fail("a compile-time warning for strcasecmp (expected only at run "
             "time, or with -ptm-warn-external-calls)")
    # -mllvm -ptm-warn-external-calls: calls resolved in other units.
    doc_shows(text, name, "-mllvm -ptm-warn-external-calls -c "
              "examples/guide/stock.c")
    cc = run([args.cc, "-std=c11", "-g", "-O2", "-flto"] +
             flags(args, "--cflags") +
             ["-mllvm", "-ptm-warn-external-calls", "-c", src, "-o", obj])
    m = re.search(rf"{re.escape(src)}:{cmp_line}:\d+: warning: ptm: call of "
                  r"'strcasecmp' inside a transaction: its transactional "
                  r"clone must come from another unit compiled with the "
                  r"plugin", cc.stderr)
    if not m:
        fail(f"-ptm-warn-external-calls: no warning for strcasecmp at "
             f"line {cmp_line}: {cc.stderr!r}")
    else:
        doc_shows(text, name, m.group(0))
    cc = run([args.cc, "-std=c11", "-g", "-O2", "-flto"] +
             flags(args, "--cflags") + ["-c", src, "-o", obj])

    def link(lib, out):
        run([args.cc, "-O2", "-flto", obj] + flags(args, "--ldflags", lib) +
            ["-o", out])

    cgl = os.path.join(args.work, "stock.cgl")
    ip = os.path.join(args.work, "stock.ip")
    link("cgl", cgl)
    link("ip_orec_lazy", ip)
    # cgl: both constructs reported once, the transactions run
    # irrevocably, the program finishes with the right totals.
    p = run([cgl])
    for what in ["calling 'strcasecmp'",
                 "(external function without a transactional clone) has no "
                 "transactional version: it runs uninstrumented and the "
                 "transaction becomes irrevocable",
                 f"{src}:{cmp_line}:",
                 f"{src}:{line}:",
                 "printf (irrevocable operation) has no transactional "
                 "version"]:
        if what not in p.stderr:
            fail(f"stock (cgl): {what!r} not in stderr: {p.stderr!r}")
    if p.stderr.count("ptm: warning:") != 2:
        fail(f"stock (cgl): expected 2 warnings: {p.stderr!r}")
    if "stock: 3000 sold, 0 left, OK" not in p.stdout:
        fail(f"stock (cgl) printed {p.stdout!r}")
    doc_shows(text, name, "has no transactional version: it runs "
              "uninstrumented and the transaction becomes irrevocable")
    # PTM_UNSUPPORTED=error: the first construct reached stops the program.
    p = run([cgl], env={"PTM_UNSUPPORTED": "error"}, check=False)
    msg = ("(external function without a transactional clone) cannot run "
           "inside a transaction (PTM_UNSUPPORTED=error)")
    if p.returncode != 70 or "ptm: error:" not in p.stderr or \
            msg not in p.stderr or "strcasecmp" not in p.stderr:
        fail(f"stock (cgl, PTM_UNSUPPORTED=error): exit {p.returncode}, "
             f"{p.stderr!r}")
    doc_shows(text, name, "cannot run inside a transaction "
              "(PTM_UNSUPPORTED=error)")
    # A persistent library cannot make a transaction irrevocable.
    p = run([ip], env={"PTM_POOL_SIZE": "64M"}, check=False)
    msg = "cannot run inside a transaction of library 'ip_orec_lazy'"
    if p.returncode != 70 or msg not in p.stderr:
        fail(f"stock (ip_orec_lazy): exit {p.returncode}, {p.stderr!r}")
    doc_shows(text, name, msg)
    # The fixed program: no warning, runs under the persistent library with
    # unsupported constructs fatal, and prints the statistics.
    fixed = os.path.join(args.work, "stock_fixed")
    b = build_ptm(args, "stock_fixed.c", fixed, "ip_orec_lazy", extra=["-g"])
    if "warning" in b.stderr:
        fail(f"stock_fixed.c: warnings: {b.stderr!r}")
    p = run([fixed], env={"PTM_UNSUPPORTED": "error", "PTM_STATS": "1",
                          "PTM_POOL_SIZE": "64M"})
    lines = p.stdout.splitlines()
    if sorted(lines) != sorted(["apple: sold out", "pear: sold out",
                                "plum: sold out",
                                "stock: 3000 sold, 0 left, OK"]):
        fail(f"stock_fixed printed {p.stdout!r}")
    for col in ["abort_read", "abort_write", "abort_valid", "commits",
                "aborts"]:
        if not re.search(rf"ptm: +thread .*\b{col}\b", p.stderr):
            fail(f"PTM_STATS=1: no column {col}: {p.stderr!r}")
        doc_shows(text, name, col)
    m = re.search(r"ptm: total +(\d+)", p.stderr)
    if not m or int(m.group(1)) < 4000:
        fail(f"PTM_STATS=1: total commits below the 4000 sales: "
             f"{p.stderr!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("part", choices=["plain", "persistent", "crash",
                                     "porting"])
    ap.add_argument("--repo", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--ptm-config", dest="ptm_config", required=True)
    ap.add_argument("--ptm-pool", dest="ptm_pool", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--kills", type=int, default=10)
    args = ap.parse_args()
    global ARGS
    ARGS = args
    work = os.path.join(args.work, args.part)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    args.work = work
    {"plain": part_plain, "persistent": part_persistent,
     "crash": part_crash, "porting": part_porting}[args.part](args)
    if failures:
        print(f"guide-{args.part}: FAILED ({len(failures)} checks)")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print(f"guide-{args.part}: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
