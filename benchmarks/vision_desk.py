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

``--settled``: each scene as the daemon meets it instead, a roll the settle detector follows:
the tray still beside the keyboard or page, a hand, then the dice at rest, read when they
settle; what is found where the frame is as it was before the roll is left out
(``settle.SettleDetector._rolled_places``). Beside it, each scene's settled frame read
alone, as above. The scenes are lit evenly (``light=0``): the renderer draws its light's
slant after the dice, so a frame with dice in it would be lit otherwise than the tray
before them, which a real lamp does not do.

    .venv/bin/python benchmarks/vision_desk.py [--frames N] [--settled]
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
    ap.add_argument("--settled", action="store_true", help="each scene as a roll the settle detector follows")
    args = ap.parse_args(argv)
    if args.settled:
        return _settled(args.frames)
    for name, thing in THINGS.items():
        for slant, fov in CAMERAS:
            counts, total = [0] * 4, 0
            for seed in range(args.frames):
                frame, truth = render_scene([(seed + k) % 6 + 1 for k in range(4)], seed=seed, slant=slant,
                                            field_of_view=fov, die_colour="mixed" if seed % 2 else (235, 235, 235),
                                            **thing)
                side = frame.shape[0] / 11   # (render's default die size)
                total += len(truth["dice"])
                counts = [a + b for a, b in zip(counts, _score(read_dice(frame), truth["dice"], side))]
            right, wrong, ghosts, asked = counts
            camera = f"camera {slant:2d} degrees from overhead" + (f", {fov} degrees wide" if fov else "")
            print(f"{name}, {camera}: dice read right {right} of {total}, wrong {wrong};"
                  f" read where no die lies {ghosts}, places asked about there {asked}, in {args.frames} frames")
    return 0


def _score(reading, truth, side: float) -> tuple[int, int, int, int]:
    """Dice read right, read wrong, read where none lies, and places asked about off the dice."""
    right = wrong = ghosts = 0
    for d in reading.dice:
        near = [v for v, x, y in truth if math.hypot(d.x - x, d.y - y) < 0.5 * side]
        if not near:
            ghosts += 1
        elif near[0] == d.value:
            right += 1
        else:
            wrong += 1
    asked = sum(all(math.hypot(u.x - x, u.y - y) >= 0.5 * side for _, x, y in truth) for u in reading.uncertain)
    return right, wrong, ghosts, asked


def _settled(frames: int) -> int:
    from companion.vision.dice import read_dice
    from companion.vision.render import hand_roll, render_scene
    from companion.vision.settle import SettleDetector

    for name, thing in THINGS.items():
        for slant, fov in CAMERAS:
            alone, settled, total, unreported = [0] * 4, [0] * 4, 0, 0
            for seed in range(frames):
                style = dict(slant=slant, field_of_view=fov, die_colour="mixed" if seed % 2 else (235, 235, 235),
                             light=0, **thing)
                values = [(seed + k) % 6 + 1 for k in range(4)]
                tray = [render_scene([], seed=seed, noise_seed=k, **style)[0] for k in range(6)]
                rest = [render_scene(values, seed=seed, noise_seed=100 + k, **style) for k in range(12)]
                truth = rest[0][1]["dice"]
                side = rest[0][0].shape[0] / 11   # (render's default die size)
                total += len(truth)
                alone = [a + b for a, b in zip(alone, _score(read_dice(rest[0][0]), truth, side))]
                det = SettleDetector()
                det.arm()
                seq = hand_roll(tray, [f for f, _ in rest])
                reports = [r for k, f in enumerate(seq) if (r := det.feed(f, k / 15)) is not None]
                if not reports:
                    unreported += 1
                    continue
                settled = [a + b for a, b in zip(settled, _score(reports[0], truth, side))]
            camera = f"camera {slant:2d} degrees from overhead" + (f", {fov} degrees wide" if fov else "")
            print(f"{name}, {camera}, {total} dice in {frames} frames: read alone right {alone[0]}, wrong "
                  f"{alone[1]}, where none lies {alone[2]}, places asked off the dice {alone[3]}; as a roll, "
                  f"right {settled[0]}, wrong {settled[1]}, where none lies {settled[2]}, asked {settled[3]}"
                  + (f", {unreported} rolls not reported" if unreported else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
