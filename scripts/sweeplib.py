"""What the sweep scripts share (scripts/bench.py, ablation.py,
memcached_bench.py, crash_sweep.py, benchmarks/stamp/sweep.py): comma lists
on the command line, a parser whose help is the script's docstring, the
arguments after `--`, the `TAG key=value ...` lines the programs print, the
CSV of the runs and the library names of Makefile.libnames.
"""
import argparse
import csv
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent


def csv_list(text):
    """'a,b,,c' -> ['a', 'b', 'c'] (an option's comma-separated values)."""
    return [x for x in text.split(",") if x]


def doc_parser(doc):
    """An ArgumentParser described by a script's docstring DOC: its first
    line, then the rest (after the blank line) as the epilog."""
    return argparse.ArgumentParser(
        description=doc.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(doc.splitlines()[2:]))


def split_extra(argv):
    """ARGV cut at the first `--`: (the script's own, those passed on)."""
    if "--" in argv:
        cut = argv.index("--")
        return argv[:cut], argv[cut + 1:]
    return argv, []


def parse_tagged(text, tag):
    """The fields of the first line `TAG k=v k=v ...` of TEXT as a dict, or
    None (e.g. the benchmark contract's RESULT line)."""
    for line in text.splitlines():
        if line.startswith(tag + " "):
            return dict(kv.split("=", 1) for kv in line.split()[1:])
    return None


def write_runs_csv(path, rows, first):
    """One CSV row per run: the columns FIRST, then every other key of the
    rows in the order they first appear."""
    fields = list(first)
    for r in rows:
        fields += [k for k in r if k not in fields]
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def libnames():
    """The library names of Makefile.libnames, in file order."""
    names = []
    for line in (ROOT / "Makefile.libnames").read_text().splitlines():
        m = re.match(r"^LIBNAMES\s*\+=\s*(.*)$", line)
        if m:
            names += m.group(1).split()
    return names
