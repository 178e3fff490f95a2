#!/usr/bin/env python3
"""Writes a labyrinth input like STAMP's random-xX-yY-zZ-nN.txt: an X*Y*Z
grid without walls and N pairs whose 2*N endpoints are distinct points drawn
uniformly at random. The seed is fixed (-s), so the file is reproducible.

usage: gen_input.py X Y Z N OUTPUT [-s SEED]
"""
import argparse
import random
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("x", type=int)
    ap.add_argument("y", type=int)
    ap.add_argument("z", type=int)
    ap.add_argument("n", type=int, help="pairs to route")
    ap.add_argument("output")
    ap.add_argument("-s", "--seed", type=int, default=1)
    a = ap.parse_args()
    if min(a.x, a.y, a.z) < 1 or a.n < 0 or 2 * a.n > a.x * a.y * a.z:
        sys.exit("gen_input.py: need positive dimensions and 2*N <= X*Y*Z")
    rng = random.Random(a.seed)
    points = rng.sample(range(a.x * a.y * a.z), 2 * a.n)

    def coords(i):
        return (i % a.x, (i // a.x) % a.y, i // (a.x * a.y))

    with open(a.output, "w") as out:
        out.write("# labyrinth input: %dx%dx%d grid, %d random pairs, "
                  "seed %d (gen_input.py)\n" % (a.x, a.y, a.z, a.n, a.seed))
        out.write("d %d %d %d\n" % (a.x, a.y, a.z))
        for k in range(a.n):
            s, d = coords(points[2 * k]), coords(points[2 * k + 1])
            out.write("p %d %d %d %d %d %d\n" % (s + d))


if __name__ == "__main__":
    main()
