#!/usr/bin/env python3
"""Test of scripts/instructions.py's reader of callgrind output (ctest
label bench): a synthetic file with name compression (a name given once, at
an fn= or a cfn= line, then the id alone), relative positions and call
lines, whose own costs per function are known by construction. A call's
inclusive cost must not count as its caller's own, and a function first
named at a cfn= line must get the costs of its later fn= block.
Usage: instructions_test.py (no arguments)"""
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import instructions  # noqa: E402

SAMPLE = """\
version: 1
creator: callgrind-3.19.0
positions: line
events: Ir
summary: 1000

ob=(1) /bin/prog
fl=(1) prog.c
fn=(1) main
0 10
+2 5
cfn=(2) helper
calls=3 0
0 700
* 20
fn=(3) other
0 40
cfn=(2)
calls=1 0
0 200
fn=(2)
0 600
-1 300
fn=(1)
0 7
"""


def main():
    with tempfile.TemporaryDirectory() as work:
        path = pathlib.Path(work) / "callgrind.out"
        path.write_text(SAMPLE)
        costs = instructions.self_costs(path)
    want = {"main": 10 + 5 + 20 + 7, "other": 40, "helper": 600 + 300}
    if dict(costs) != want:
        sys.exit(f"instructions_test: own costs {dict(costs)}, want {want}")
    print("instructions_test: own costs per function as constructed")


if __name__ == "__main__":
    main()
