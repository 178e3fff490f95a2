#!/usr/bin/env python3
"""Writes a kmeans input like the STAMP distribution's random-nN-dD-cC.txt:
N points of D features drawn around C random centres, one point a line as
"ID F1 ... FD" (IDs from 1). Fixed seed: the same file on every machine.

    gen_input.py -n 2048 -d 16 -c 16 [-s SEED] OUT
"""
import argparse
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, required=True, help="points")
    parser.add_argument("-d", type=int, required=True, help="features")
    parser.add_argument("-c", type=int, required=True, help="centres")
    parser.add_argument("-s", type=int, default=1, help="seed")
    parser.add_argument("out")
    args = parser.parse_args()
    if args.n < 1 or args.d < 1 or args.c < 1:
        parser.error("-n, -d and -c must be positive")
    rng = random.Random(args.s)
    centres = [[rng.uniform(0.0, 1.0) for _ in range(args.d)]
               for _ in range(args.c)]
    with open(args.out, "w") as f:
        for i in range(args.n):
            centre = centres[rng.randrange(args.c)]
            features = (min(1.0, max(0.0, x + rng.gauss(0.0, 0.05)))
                        for x in centre)
            f.write(f"{i + 1} " + " ".join(f"{x:.6f}" for x in features) +
                    "\n")


if __name__ == "__main__":
    main()
