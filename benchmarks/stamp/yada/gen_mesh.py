#!/usr/bin/env python3
"""Writes a yada input mesh in Triangle's format (PREFIX.node, PREFIX.ele,
PREFIX.poly), like the STAMP distribution's 633.2, ttimeu10000.2 and
ttimeu1000000.2: N points
(the four corners of a square plus N-4 distinct random points strictly
inside it, integer coordinates, fixed seed) and their Delaunay triangulation;
the .poly file lists the square's four sides as boundary segments.

The triangulation is built by Bowyer-Watson insertion with exact integer
predicates, so it is Delaunay (ties on cocircular points broken either way).
Points are inserted in Morton (Z-curve) order, so that locating each one
walks a few triangles from the previous one: a million points take minutes,
not hours.

usage: gen_mesh.py N PREFIX [-s SEED] [--side SIDE]
"""
import argparse
import random
import sys


def morton(p):
    """The Z-curve index of an integer point (coordinates below 2**32)."""
    key = 0
    x, y = p
    for bit in range(32):
        key |= ((x >> bit) & 1) << (2 * bit) | ((y >> bit) & 1) << (2 * bit + 1)
    return key


def orient(a, b, c):
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def incircle(a, b, c, d):
    """> 0 when d is strictly inside the circle through a, b, c (ccw)."""
    adx, ady = a[0] - d[0], a[1] - d[1]
    bdx, bdy = b[0] - d[0], b[1] - d[1]
    cdx, cdy = c[0] - d[0], c[1] - d[1]
    ad = adx * adx + ady * ady
    bd = bdx * bdx + bdy * bdy
    cd = cdx * cdx + cdy * cdy
    return (adx * (bdy * cd - bd * cdy) - ady * (bdx * cd - bd * cdx) +
            ad * (bdx * cdy - bdy * cdx))


class Triangulation:
    """Triangles as vertex triples (ccw) with neighbour triples: nbr[t][i]
    is across the edge (v[i], v[i+1]); None on the boundary."""

    def __init__(self, pts):
        self.p = pts
        self.v = []
        self.nbr = []
        self.alive = []

    def add(self, a, b, c):
        self.v.append([a, b, c])
        self.nbr.append([None, None, None])
        self.alive.append(True)
        return len(self.v) - 1

    def locate(self, t, q):
        p = self.p
        while True:
            v = self.v[t]
            for i in range(3):
                if orient(p[v[i]], p[v[(i + 1) % 3]], q) < 0:
                    t = self.nbr[t][i]
                    break
            else:
                return t

    def insert(self, k, start):
        p, q = self.p, self.p[k]
        t0 = self.locate(start, q)
        cavity = {t0}
        stack = [t0]
        border = []  # (a, b, outside triangle) with the cavity on the left
        while stack:
            t = stack.pop()
            v = self.v[t]
            for i in range(3):
                n = self.nbr[t][i]
                if n is not None and n not in cavity:
                    w = self.v[n]
                    if incircle(p[w[0]], p[w[1]], p[w[2]], q) > 0:
                        cavity.add(n)
                        stack.append(n)
                        continue
                if n is None or n not in cavity:
                    border.append((v[i], v[(i + 1) % 3], n))
        for t in cavity:
            self.alive[t] = False
        starts = {}
        new = []
        for a, b, n in border:
            t = self.add(a, b, k)
            self.nbr[t][0] = n
            if n is not None:
                w = self.v[n]
                for j in range(3):
                    if w[j] == b and w[(j + 1) % 3] == a:
                        self.nbr[n][j] = t
            starts[a] = t
            new.append(t)
        for t in new:
            a, b, _ = self.v[t]
            self.nbr[t][1] = starts[b]  # edge (b, k)
            nxt = starts[b]
            self.nbr[nxt][2] = t  # its edge (k, b)
        return new[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, help="points (>= 4)")
    ap.add_argument("prefix")
    ap.add_argument("-s", "--seed", type=int, default=1)
    ap.add_argument("--side", type=int, default=1 << 20)
    a = ap.parse_args()
    if a.n < 4 or a.side < 4 or a.n - 4 > (a.side - 1) ** 2:
        sys.exit("gen_mesh.py: need N >= 4 and room for N-4 interior points")
    rng = random.Random(a.seed)
    s = a.side
    pts = [(0, 0), (s, 0), (s, s), (0, s)]
    seen = set(pts)
    while len(pts) < a.n:
        q = (rng.randint(1, s - 1), rng.randint(1, s - 1))
        if q not in seen:
            seen.add(q)
            pts.append(q)
    tr = Triangulation(pts)
    t0 = tr.add(0, 1, 2)
    t1 = tr.add(0, 2, 3)
    tr.nbr[t0][2] = t1  # edge (2, 0)
    tr.nbr[t1][0] = t0  # edge (0, 2)
    last = t0
    for k in sorted(range(4, a.n), key=lambda i: morton(pts[i])):
        last = tr.insert(k, last)
    tris = [tr.v[t] for t in range(len(tr.v)) if tr.alive[t]]
    for t in tris:
        assert orient(pts[t[0]], pts[t[1]], pts[t[2]]) > 0
    with open(a.prefix + ".node", "w") as f:
        f.write("%d 2 0 0\n" % len(pts))
        for i, (x, y) in enumerate(pts):
            f.write("%d %d %d\n" % (i + 1, x, y))
    with open(a.prefix + ".ele", "w") as f:
        f.write("%d 3 0\n" % len(tris))
        for i, t in enumerate(tris):
            f.write("%d %d %d %d\n" % (i + 1, t[0] + 1, t[1] + 1, t[2] + 1))
    with open(a.prefix + ".poly", "w") as f:
        f.write("0 2 0 0\n4 0\n")
        for i in range(4):
            f.write("%d %d %d\n" % (i + 1, i + 1, (i + 1) % 4 + 1))
        f.write("0\n")


if __name__ == "__main__":
    main()
