#!/usr/bin/env python3
"""Writes a labyrinth input like STAMP's random-xX-yY-zZ-nN.txt: an X*Y*Z
grid without walls and N pairs whose 2*N endpoints are distinct points drawn
uniformly at random. The seed is fixed (-s), so the file is reproducible.
With --shared K, K of the pairs (every N/(K+1)-th) start at an endpoint of the
pair before them, as pairs of STAMP's own random inputs, drawn
independently, can: both programs must route them.

usage: gen_input.py X Y Z N OUTPUT [-s SEED] [--shared K]
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
    ap.add_argument("--shared", type=int, default=0,
                    help="pairs that share an endpoint with the one before")
    a = ap.parse_args()
    if a.shared < 0 or a.shared >= max(a.n, 1):
        sys.exit("gen_input.py: need 0 <= --shared < N")
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
        every = a.n // (a.shared + 1) if a.shared else 0
        for k in range(a.n):
            s, d = coords(points[2 * k]), coords(points[2 * k + 1])
            if every and k > 0 and k % every == 0 and k // every <= a.shared:
                s = coords(points[2 * k - 1])  # the previous destination
            out.write("p %d %d %d %d %d %d\n" % (s + d))


if __name__ == "__main__":
    main()
