"""Dice beside things on a desk (rendered): a keyboard, a printed page.

A webcam on a desk sees more than the tray. A light keycap with one letter on it is as
square and plain as a die showing a 1; a rulebook's or a score pad's print is marks of a
pip's size by the hundred. Prints, for light and dark keyboards and a printed page
(``render``'s ``keyboard`` and ``page``), seen from overhead and 40 and 55 degrees off it
from afar, and 55 degrees off it through a 60-degree webcam near the desk (its far end
smaller and flatter than the near): the dice read right and wrong, the keys or letters
read as dice (each a die that is not there), and the places asked about off the dice
(each a press for the players). Not a measure of accuracy on real frames; a watch on
kinds of clutter the reader cannot yet wholly tell from dice (the page's print and the
keyboards' legends it finds and leaves out: ``printed``).

    .venv/bin/python benchmarks/vision_desk.py [--frames N]
"""

from __future__ import annotations

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

# What lies beside the dice (``render_scene``'s style), by name.
THINGS = {"light keyboard": {"keyboard": "light"}, "dark keyboard": {"keyboard": "dark"}, "printed page": {"page": True}}
# The cameras: degrees from overhead, and the webcam's field of view (None: from afar).
CAMERAS = [(0, None), (40, None), (55, None), (55, 60)]


def main(argv=None) -> int:
    import cv2
    cv2.setNumThreads(1)
    from companion.vision.dice import read_dice
    from companion.vision.render import render_scene

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=10, help="frames of each kind (4 dice each)")
    args = ap.parse_args(argv)
    for name, thing in THINGS.items():
        for slant, fov in CAMERAS:
            right = wrong = ghosts = asked = total = 0
            for seed in range(args.frames):
                frame, truth = render_scene([(seed + k) % 6 + 1 for k in range(4)], seed=seed, slant=slant,
                                            field_of_view=fov, die_colour="mixed" if seed % 2 else (235, 235, 235),
                                            **thing)
                side = frame.shape[0] / 11   # (render's default die size)
                total += len(truth["dice"])
                reading = read_dice(frame)
                for d in reading.dice:
                    near = [v for v, x, y in truth["dice"] if math.hypot(d.x - x, d.y - y) < 0.5 * side]
                    if not near:
                        ghosts += 1
                    elif near[0] == d.value:
                        right += 1
                    else:
                        wrong += 1
                asked += sum(all(math.hypot(u.x - x, u.y - y) >= 0.5 * side for _, x, y in truth["dice"])
                             for u in reading.uncertain)
            camera = f"camera {slant:2d} degrees from overhead" + (f", {fov} degrees wide" if fov else "")
            print(f"{name}, {camera}: dice read right {right} of {total}, wrong {wrong};"
                  f" read where no die lies {ghosts}, places asked about there {asked}, in {args.frames} frames")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
