"""Dice beside a computer keyboard (rendered): how many keys are read as dice.

A webcam on a desk sees the keyboard too, and a light keycap with one letter on it is as
square and plain as a die showing a 1. Prints, for light and dark keyboards (``render``'s
``keyboard``), seen from overhead and 40 degrees off it: the dice read right and wrong, and
the keys read as dice (each a die that is not there). Not a measure of accuracy on real
frames; a watch on one kind of clutter the reader cannot yet tell from dice.

    .venv/bin/python benchmarks/vision_keyboards.py [--frames N]
"""

from __future__ import annotations

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def main(argv=None) -> int:
    import cv2
    cv2.setNumThreads(1)
    from companion.vision.dice import read_dice
    from companion.vision.render import render_scene

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=10, help="frames of each kind (4 dice each)")
    args = ap.parse_args(argv)
    for kind in ("light", "dark"):
        for slant in (0, 40):
            right = wrong = keys = total = 0
            for seed in range(args.frames):
                frame, truth = render_scene([(seed + k) % 6 + 1 for k in range(4)], seed=seed, keyboard=kind,
                                            slant=slant, die_colour="mixed" if seed % 2 else (235, 235, 235))
                side = frame.shape[0] / 11   # (render's default die size)
                total += len(truth["dice"])
                for d in read_dice(frame).dice:
                    near = [v for v, x, y in truth["dice"] if math.hypot(d.x - x, d.y - y) < 0.5 * side]
                    if not near:
                        keys += 1
                    elif near[0] == d.value:
                        right += 1
                    else:
                        wrong += 1
            print(f"{kind} keyboard, camera {slant:2d} degrees from overhead: dice read right {right} of {total},"
                  f" wrong {wrong}; keys read as dice {keys} in {args.frames} frames")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
