#!/usr/bin/env python3
"""Plots and tables from a benchmark CSV of scripts/bench.py.

    scripts/plot.py RUNS.csv --out DIR [--ab BASE=NEW ...] [--ab-threads 1]

Writes into DIR:
  scaling.png   throughput vs threads, one panel per benchmark, one line per
                library (median, bars from min to max): Figures 2/3 of the
                paper
  peers.png     per benchmark and thread count: the best persistent ptm
                library against the peers (PMDK, Romulus, Trinity and
                Quadra, GCC TM) and the baseline
  speedup.png   with --ab: the speedups of the A/B table (Tables II-V)
and prints the Markdown tables (medians with spread, peers, A/B speedups).

A series is a library name (`p_orec_lazy`) or, when the CSV has a `build`
column with several builds (scripts/bench.py --build A=dirA --build B=dirB),
`build:lib` (`nodefer:p_orec_lazy`). --ab BASE=NEW adds one row to the A/B
table: for every benchmark, median(NEW) / median(BASE) at --ab-threads
threads (default 1), e.g. --ab p_orec_lazy=gp_orec_lazy.
"""
import argparse
import csv
import os
import pathlib
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sweeplib import doc_parser  # noqa: E402

# The peers a ptm library is compared with: systems a user could pick
# instead (benchmarks/peers, romulus, durabletx, gcctm) and the baseline.
DURABLETX_PEERS = ("trinity_tl2", "trinity_fc", "quadra_fc")
PEERS = ("pmdk", "romulus", *DURABLETX_PEERS, "gcctm", "baseline")
SYSTEM_PYTHON = "/usr/bin/python3"


def ensure_matplotlib():
    """Imports matplotlib (Agg); re-executes under the system Python (where
    Debian's python3-matplotlib lives) if this interpreter lacks it."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        if (os.path.exists(SYSTEM_PYTHON) and
                os.path.realpath(sys.executable) !=
                os.path.realpath(SYSTEM_PYTHON) and
                not os.environ.get("PTM_PLOT_REEXEC")):
            os.environ["PTM_PLOT_REEXEC"] = "1"
            os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, *sys.argv])
        sys.exit("matplotlib is missing: install python3-matplotlib "
                 "(scripts/install-deps.sh)")
    import matplotlib
    matplotlib.use("Agg")


def is_persistent(lib):
    name = lib.split(":")[-1]
    return name.startswith(("p_", "gp_", "ip_")) or name in ("crafty", "sp3")


def series_of(row, multi_build):
    return f"{row['build']}:{row['lib']}" if multi_build else row["lib"]


def load(path):
    """The rows of a CSV that ran successfully, and whether it holds several
    builds."""
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("status", "ok") == "ok"]
    builds = {r.get("build", "") for r in rows}
    return rows, len(builds) > 1


class Point:
    """The runs of one (bench, series, threads)."""

    def __init__(self, rates):
        rates = sorted(rates)
        self.n = len(rates)
        self.median = statistics.median(rates)
        self.min, self.max = rates[0], rates[-1]
        if self.n >= 4:
            q = statistics.quantiles(rates, n=4)
            self.q1, self.q3 = q[0], q[2]
        else:
            self.q1, self.q3 = self.min, self.max


def points(rows, multi_build, metric="ops_per_s"):
    """{(bench, series, threads): Point} of a CSV column (throughput, or
    time_s for the STAMP applications)."""
    groups = {}
    for r in rows:
        key = (r["bench"], series_of(r, multi_build), int(r["threads"]))
        groups.setdefault(key, []).append(float(r[metric]))
    return {k: Point(v) for k, v in groups.items()}


def benches_of(pts):
    return sorted({b for b, _, _ in pts})


def series_in(pts, bench):
    return sorted({s for b, s, _ in pts if b == bench})


def threads_in(pts, bench=None):
    return sorted({t for b, _, t in pts if bench is None or b == bench})


def median_table(pts):
    lines = ["| bench | lib | threads | ops/s (median) | min | max | IQR | runs |",
             "|---|---|---|---:|---:|---:|---:|---:|"]
    for (b, s, t), p in sorted(pts.items()):
        lines.append(f"| {b} | {s} | {t} | {p.median:,.0f} | {p.min:,.0f} | "
                     f"{p.max:,.0f} | {p.q3 - p.q1:,.0f} | {p.n} |")
    return "\n".join(lines)


def best_persistent(pts, bench, threads):
    """(series, Point) of the fastest persistent ptm library, or None."""
    cands = [(p.median, s, p) for (b, s, t), p in pts.items()
             if b == bench and t == threads and is_persistent(s)]
    if not cands:
        return None
    _, s, p = max(cands)
    return s, p


def ratio(a, b):
    return a / b if b else float("nan")


def fmt_ratio(x):
    return "-" if x != x else f"{x:.2f}"


def peer_rows(pts, peers=PEERS):
    """[(bench, threads, best, best_median, {peer: ratio})]"""
    out = []
    for b in benches_of(pts):
        for t in threads_in(pts, b):
            best = best_persistent(pts, b, t)
            if not best:
                continue
            s, p = best
            prefix = s.rsplit(":", 1)[0] + ":" if ":" in s else ""
            ratios = {peer: ratio(p.median, pts[(b, prefix + peer, t)].median)
                      if (b, prefix + peer, t) in pts else float("nan")
                      for peer in peers}
            out.append((b, t, s, p.median, ratios))
    return out


def peer_table(pts, peers=PEERS):
    lines = ["| bench | threads | best persistent ptm | ops/s | " +
             " | ".join(f"vs {peer}" for peer in peers) + " |",
             "|---|---|---|---:|" + "---:|" * len(peers)]
    for b, t, s, m, r in peer_rows(pts, peers):
        lines.append(f"| {b} | {t} | {s} | {m:,.0f} | " +
                     " | ".join(fmt_ratio(r[peer]) for peer in peers) + " |")
    return "\n".join(lines)


def ab_ratios(pts, pairs, threads):
    """{(base, new): {bench: median(new) / median(base)}} where both ran."""
    out = {}
    for base, new in pairs:
        row = {}
        for b in benches_of(pts):
            if (b, base, threads) in pts and (b, new, threads) in pts:
                row[b] = ratio(pts[(b, new, threads)].median,
                               pts[(b, base, threads)].median)
        out[(base, new)] = row
    return out


def ab_table(ratios, threads):
    benches = sorted({b for row in ratios.values() for b in row})
    lines = [f"| speedup at {threads} thread(s) | " + " | ".join(benches) + " |",
             "|---|" + "---:|" * len(benches)]
    for (base, new), row in ratios.items():
        cells = [fmt_ratio(row.get(b, float("nan"))) for b in benches]
        lines.append(f"| {new} / {base} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def grid(n):
    cols = min(3, n)
    return (n + cols - 1) // cols, cols


def plot_scaling(pts, path, ylabel="ops/s"):
    """One panel per benchmark, one line per series: the metric of pts
    (ylabel) against threads."""
    import matplotlib.pyplot as plt
    benches = benches_of(pts)
    rows, cols = grid(len(benches))
    fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.6 * rows),
                             squeeze=False)
    # One colour and marker per series, the same in every panel (tab10's
    # ten colours repeat with the libraries of an evaluation).
    every = sorted({s for b in benches for s in series_in(pts, b)})
    colours = plt.get_cmap("tab20")
    look = {s: (colours(i % 20), "osD^v<>ph*"[i % 10])
            for i, s in enumerate(every)}
    for ax, b in zip(axes.flat, benches):
        for s in series_in(pts, b):
            ts = [t for t in threads_in(pts, b) if (b, s, t) in pts]
            ps = [pts[(b, s, t)] for t in ts]
            med = [p.median for p in ps]
            err = [[p.median - p.min for p in ps], [p.max - p.median for p in ps]]
            style = "--" if s.split(":")[-1] in PEERS else "-"
            colour, marker = look[s]
            ax.errorbar(ts, med, yerr=err, label=s, color=colour,
                        marker=marker, linestyle=style, capsize=3)
        ax.set_title(b)
        ax.set_xlabel("threads")
        ax.set_ylabel(ylabel)
        ax.set_xticks(threads_in(pts, b))
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(benches):]:
        ax.set_visible(False)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_peers(pts, path, peers=PEERS,
               title="best persistent ptm library vs the peers and the "
               "baseline"):
    import matplotlib.pyplot as plt
    rows = peer_rows(pts, peers)
    if not rows:
        return False
    labels = [f"{b}\n{t} thr" for b, t, _, _, _ in rows]
    names = ["best ptm", *peers]
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(rows)), 4.5))
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        vals = []
        for b, t, s, m, _ in rows:
            prefix = s.rsplit(":", 1)[0] + ":" if ":" in s else ""
            key = (b, s, t) if name == "best ptm" else (b, prefix + name, t)
            vals.append(pts[key].median if key in pts else 0)
        ax.bar([x + i * width for x in range(len(rows))], vals, width,
               label=name)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(rows))])
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_yscale("log")
    ax.set_ylabel("ops/s (median, log scale)")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def plot_ab(ratios, threads, path):
    import matplotlib.pyplot as plt
    benches = sorted({b for row in ratios.values() for b in row})
    if not benches:
        return False
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(benches)), 4))
    width = 0.8 / max(1, len(ratios))
    for i, ((base, new), row) in enumerate(ratios.items()):
        ax.bar([x + i * width for x in range(len(benches))],
               [row.get(b, 0) for b in benches], width, label=f"{new} / {base}")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(benches))])
    ax.set_xticklabels(benches, fontsize=8)
    ax.set_ylabel(f"speedup at {threads} thread(s)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def parse_pair(text):
    if text.count("=") != 1 or text.startswith("=") or text.endswith("="):
        raise argparse.ArgumentTypeError(
            f"'{text}': expected BASE=NEW (library or build:library)")
    return tuple(text.split("="))


def render(csv_path, out_dir, pairs=(), ab_threads=1):
    """Writes the PNGs into OUT_DIR; returns (points, tables, pngs) where
    tables maps a name to its Markdown."""
    ensure_matplotlib()
    rows, multi = load(csv_path)
    if not rows:
        raise SystemExit(f"{csv_path}: no successful runs")
    pts = points(rows, multi)
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for base, new in pairs:
        for s in (base, new):
            if not any(k[1] == s for k in pts):
                raise SystemExit(f"--ab: '{s}' is not a series of {csv_path} "
                                 f"(series: {', '.join(sorted({k[1] for k in pts}))})")
    tables = {"medians": median_table(pts), "peers": peer_table(pts)}
    pngs = []
    plot_scaling(pts, out_dir / "scaling.png")
    pngs.append("scaling.png")
    if plot_peers(pts, out_dir / "peers.png"):
        pngs.append("peers.png")
    if pairs:
        ratios = ab_ratios(pts, pairs, ab_threads)
        tables["ab"] = ab_table(ratios, ab_threads)
        if plot_ab(ratios, ab_threads, out_dir / "speedup.png"):
            pngs.append("speedup.png")
    return pts, tables, pngs


def main():
    parser = doc_parser(__doc__)
    parser.add_argument("csv", type=pathlib.Path)
    parser.add_argument("--out", type=pathlib.Path, required=True,
                        help="directory for the PNGs")
    parser.add_argument("--ab", type=parse_pair, action="append", default=[],
                        metavar="BASE=NEW", help="a row of the A/B table")
    parser.add_argument("--ab-threads", type=int, default=1)
    args = parser.parse_args()
    if not args.csv.is_file():
        parser.error(f"{args.csv}: no such file")
    _, tables, pngs = render(args.csv, args.out, args.ab, args.ab_threads)
    for name, text in tables.items():
        print(f"## {name}\n\n{text}\n")
    print("wrote " + ", ".join(str(args.out / p) for p in pngs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
