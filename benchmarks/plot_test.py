#!/usr/bin/env python3
"""Test of scripts/plot.py (ctest label bench): a tiny synthetic CSV whose
medians are known; the PNGs must be written and the tables must hold the
ratios computed by hand. Usage: plot_test.py WORK_DIR"""
import csv
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import plot  # noqa: E402

# (build, bench, lib, threads) -> three repetitions
RUNS = {
    ("a", "tpcc_hash", "p_orec_lazy", 1): [90, 100, 110],
    ("a", "tpcc_hash", "gp_orec_lazy", 1): [140, 150, 160],
    ("a", "tpcc_hash", "pmdk", 1): [40, 50, 60],
    ("a", "tpcc_hash", "romulus", 1): [110, 120, 100],
    ("a", "tpcc_hash", "quadra_fc", 1): [300, 290, 310],
    ("a", "tpcc_hash", "gcctm", 1): [70, 75, 80],
    ("a", "tpcc_hash", "baseline", 1): [190, 200, 210],
    ("a", "tpcc_hash", "p_orec_lazy", 2): [150, 180, 160],
    ("a", "tpcc_hash", "gp_orec_lazy", 2): [260, 240, 250],
    ("a", "tpcc_hash", "pmdk", 2): [100, 100, 100],
    ("a", "tatp", "p_orec_lazy", 1): [1000, 1000, 1000],
    ("a", "tatp", "gp_orec_lazy", 1): [1250, 1200, 1300],
    ("b", "tatp", "p_orec_lazy", 1): [800, 800, 800],
}


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["bench", "lib", "threads", "rep",
                                          "build", "status", "ops_per_s",
                                          "clwb_per_tx"])
        w.writeheader()
        w.writerows(rows)


def expect(cond, what):
    if not cond:
        sys.exit(f"plot_test: FAILED: {what}")


def main():
    work = pathlib.Path(sys.argv[1])
    work.mkdir(parents=True, exist_ok=True)
    rows = []
    for (build, bench, lib, t), rates in RUNS.items():
        for rep, rate in enumerate(rates):
            rows.append({"bench": bench, "lib": lib, "threads": t,
                         "rep": rep + 1, "build": build, "status": "ok",
                         "ops_per_s": rate, "clwb_per_tx": "na"})
    # A failed run must be ignored.
    rows.append({"bench": "tatp", "lib": "p_orec_lazy", "threads": 1,
                 "rep": 4, "build": "a", "status": "exit1",
                 "ops_per_s": 1})

    # One build: rows of build a only.
    one = work / "one.csv"
    write_csv(one, [r for r in rows if r["build"] == "a"])
    pts, tables, pngs = plot.render(
        one, work / "one", [("p_orec_lazy", "gp_orec_lazy")], 1)
    for png in ("scaling.png", "peers.png", "speedup.png"):
        data = (work / "one" / png).read_bytes()
        expect(png in pngs and data[:8] == b"\x89PNG\r\n\x1a\n",
               f"{png} written")
    expect(pts[("tpcc_hash", "p_orec_lazy", 2)].median == 160, "median")
    expect(pts[("tatp", "p_orec_lazy", 1)].n == 3, "failed run ignored")
    ab = tables["ab"].splitlines()
    expect(ab[0] == "| speedup at 1 thread(s) | tatp | tpcc_hash |",
           f"A/B header: {ab[0]}")
    # 1250/1000 and 150/100
    expect(ab[2] == "| gp_orec_lazy / p_orec_lazy | 1.25 | 1.50 |",
           f"A/B row: {ab[2]}")
    peers = tables["peers"]
    expect(peers.splitlines()[0] == "| bench | threads | best persistent ptm "
           "| ops/s | vs pmdk | vs romulus | vs trinity_tl2 | vs trinity_fc "
           "| vs quadra_fc | vs gcctm | vs baseline |",
           f"peer header:\n{peers}")
    # 1 thread: best gp 150 vs pmdk 50, romulus 110, quadra_fc 300, gcctm
    # 75, baseline 200 (no trinity_tl2, trinity_fc)
    expect("| tpcc_hash | 1 | gp_orec_lazy | 150 | 3.00 | 1.36 | - | - | 0.50 "
           "| 2.00 | 0.75 |" in peers, f"peer row, 1 thread:\n{peers}")
    # 2 threads: best gp 250 vs pmdk 100; no other peer
    expect("| tpcc_hash | 2 | gp_orec_lazy | 250 | 2.50 | - | - | - | - | - "
           "| - |" in peers, f"peer row, 2 threads:\n{peers}")
    # A chosen list of peers (scripts/bench.py --evaluate peers).
    chosen = plot.peer_table(pts, ("quadra_fc", "romulus"))
    expect("| tpcc_hash | 1 | gp_orec_lazy | 150 | 0.50 | 1.36 |" in chosen,
           f"chosen peers:\n{chosen}")
    expect("| tpcc_hash | p_orec_lazy | 2 | 160 | 150 | 180 |"
           in tables["medians"], "median table with min and max")

    # Two builds: series are build:lib.
    two = work / "two.csv"
    write_csv(two, rows)
    _, tables, _ = plot.render(two, work / "two",
                               [("b:p_orec_lazy", "a:p_orec_lazy")], 1)
    expect("| a:p_orec_lazy / b:p_orec_lazy | 1.25 |" in tables["ab"],
           f"two-build A/B: {tables['ab']}")
    expect("| tpcc_hash | 1 | a:gp_orec_lazy | 150 | 3.00 | 1.36 | - | - | "
           "0.50 | 2.00 | 0.75 |" in tables["peers"],
           f"two-build peers:\n{tables['peers']}")

    # Another metric (STAMP's time_s) drawn against threads.
    timed = [dict(r, time_s=1000.0 / float(r["ops_per_s"])) for r in rows
             if r["build"] == "a" and r["status"] == "ok"]
    tpts = plot.points(timed, False, "time_s")
    expect(abs(tpts[("tpcc_hash", "p_orec_lazy", 2)].median - 1000 / 160)
           < 1e-9, "time_s median")
    plot.plot_scaling(tpts, work / "time.png", ylabel="time (s)")
    expect((work / "time.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n",
           "time plot written")

    # The command line: an unknown series is an error with a message.
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "plot.py"),
                           str(one), "--out", str(work / "cli"), "--ab",
                           "p_orec_lazy=nosuch"], capture_output=True,
                          text=True)
    expect(proc.returncode != 0 and "'nosuch' is not a series" in proc.stderr,
           f"bad --ab rejected: {proc.returncode} {proc.stderr}")
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "plot.py"),
                           str(one), "--out", str(work / "cli"), "--ab",
                           "p_orec_lazy=gp_orec_lazy"], capture_output=True,
                          text=True)
    expect(proc.returncode == 0 and "| gp_orec_lazy / p_orec_lazy | 1.25 | "
           "1.50 |" in proc.stdout, f"plot.py CLI: {proc.stderr}")
    print("plot_test: OK")


if __name__ == "__main__":
    main()
