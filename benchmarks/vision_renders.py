"""The dice reader on rendered trays seen through a slanted webcam: the sets the slant
code's comments measure by ("rendered trays at 40 and 55 degrees, three sets of 240").

Each set is 240 frames at each slant: every mix of table (tray, wooden table; ``--tables``:
also ``felt``, a dark felt dice tray, black, green, blue or wine by frame), dice (white,
coloured), slant (``--slants``, through a 60-degree webcam), clutter (none, three things)
and die size (the renderer's, or small: 30 px across a 640x480 frame), ``--per`` frames
each, of 2-7 dice whose values and layout come from the set's seed (``--seeds``: 1000,
5000 and 9000 for the three sets the comments give). Each frame has a webcam's sensor
noise and a JPEG of quality 80, and is read as ``companion dice read`` reads a photo
(looks pooled, ``pooling.read_still``), with no slant known unless ``--told``.

Prints, per kind of frame and in all: dice read right, read wrong, read where none lies
("phantom"), asked about, missed; the places asked about where no die lies ("stray"); the
frames read whole (every die right, nothing asked); of those, the frames the controller
takes unasked (every die also at its bar or above: the players press nothing), and the
frames it would take unasked with a die read wrong or where none lies; and the right and
wrong reads by the confidence the reader gave them. The dev photos are the
measure of accuracy (``vision_accuracy.py``); these renders are where the dice show their
near sides, which a photo warped to a slant does not.

    .venv/bin/python benchmarks/vision_renders.py [--seeds 1000 5000 9000] [--per 15] [--slants 40 55] [--told]
        [--tables tray wood felt]
"""

from __future__ import annotations

import argparse
import collections
import itertools
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from companion.vision.calibration import Calibration  # noqa: E402
from companion.vision.photo_views import as_frame  # noqa: E402
from companion.vision.pooling import read_still  # noqa: E402
from companion.vision.render import render_scene  # noqa: E402
# (the controller's bar for a roll taken without a press, as the dev photos are scored)
from vision_accuracy import taken_unasked  # noqa: E402

KINDS = ("right", "wrong", "phantom", "uncertain", "missed", "stray")
# (confidence bands for the reads: below 0.8 the controller asks the players to accept)
BANDS = (0.0, 0.5, 0.8, 0.9, 1.01)
# Dark felt dice trays (BGR), one per frame in turn: the tray dice towers and boxed games
# come with, darker than most of the dice on it.
FELTS = ((35, 35, 38), (40, 80, 35), (90, 45, 30), (40, 35, 110))


def frame_of(seed_base: int, k: int, table: str, colour: str, slant: int, clutter: int, small: bool):
    """The ``k``-th frame of a set: the frame (after its JPEG) and its truth."""
    rng = np.random.default_rng(seed_base + k)
    values = [int(v) for v in rng.integers(1, 7, int(rng.integers(2, 8)))]
    style = dict(slant=slant, field_of_view=60 if slant else None, clutter=clutter, noise=2.0)
    if table == "wood":
        style["table"] = "wood"
    elif table == "felt":
        style["tray_colour"] = FELTS[k % len(FELTS)]
    if colour == "mixed":
        style["die_colour"] = "mixed"
    if small:
        style["die_size"] = 480 / 16
    frame, truth = render_scene(values, seed=seed_base + k - 923, **style)
    return as_frame(frame, [], jpeg=80)[0], truth


def score(reading, truth) -> tuple[collections.Counter, list[tuple[bool | None, float]]]:
    """Each true die matched to the nearest read within 0.6 of a die's side (one it is not
    nearer another true die to), else to a spot asked about there; what is left over is a
    phantom (read) or stray (asked). Returns the counts and (right or not, or None for a
    phantom; confidence) per read."""
    side = reading.die_side or 30
    count, reads, used = collections.Counter(), [], set()
    for v, x, y in truth["dice"]:
        near = sorted((d for d in reading.dice if id(d) not in used and math.hypot(d.x - x, d.y - y) < 0.6 * side),
                      key=lambda d: math.hypot(d.x - x, d.y - y))
        # (a read nearer another true die is that die's)
        near = [d for d in near if min(math.hypot(d.x - tx, d.y - ty) for _, tx, ty in truth["dice"])
                >= math.hypot(d.x - x, d.y - y) - 1e-6]
        if near:
            used.add(id(near[0]))
            count["right" if near[0].value == v else "wrong"] += 1
            reads.append((near[0].value == v, near[0].confidence))
        elif any(math.hypot(u.x - x, u.y - y) < 0.6 * side for u in reading.uncertain):
            count["uncertain"] += 1
        else:
            count["missed"] += 1
    for d in reading.dice:
        if id(d) not in used:
            count["phantom"] += 1
            reads.append((None, d.confidence))
    count["stray"] += sum(all(math.hypot(u.x - x, u.y - y) >= 0.6 * side for _, x, y in truth["dice"])
                          for u in reading.uncertain)
    count["dice"] += len(truth["dice"])
    return count, reads


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1000],
                    help="each set's seed (1000 5000 9000: the three sets)")
    ap.add_argument("--per", type=int, default=15, help="frames of each kind per set")
    ap.add_argument("--slants", type=int, nargs="+", default=[40, 55], help="degrees from overhead")
    ap.add_argument("--told", action="store_true", help="tell the reader each frame's true slant")
    ap.add_argument("--tables", nargs="+", choices=("tray", "wood", "felt"), default=["tray", "wood"],
                    help="what the dice lie on: the renderer's grey tray, a wooden table, dark felt")
    args = ap.parse_args(argv)
    kinds = list(itertools.product(args.tables, ("white", "mixed"), args.slants, (0, 3), (False, True)))
    for seed_base in args.seeds:
        total, reads = collections.Counter(), []
        print(f"set {seed_base}: {args.per} frames of each kind" + (", true slant told" if args.told else ""))
        for kind in kinds:
            table, colour, slant, clutter, small = kind
            told = Calibration(stretch=[1.0, 1 / math.cos(math.radians(slant))]) if args.told and slant else None
            count = collections.Counter()
            for k in range(args.per):
                frame, truth = frame_of(seed_base, k, *kind)
                reading = read_still(frame, told)
                c, r = score(reading, truth)
                c["whole"] = int(c["right"] == c["dice"] and not c["stray"] and not c["phantom"])
                # (taken without a press, right or not)
                taken = taken_unasked(reading, c["dice"])
                c["taken"] = int(taken and c["whole"])
                c["taken_wrong"] = int(taken and not c["whole"])
                count += c
                reads += r
            total += count
            print(f"  {table:4} {colour:5} {slant:2} degrees, clutter {clutter}, {'small' if small else 'large'}: "
                  f"{count['right']}/{count['dice']} right, " + ", ".join(f"{k} {count[k]}" for k in KINDS[1:])
                  + f"; frames read whole {count['whole']}/{args.per}, taken unasked {count['taken']}"
                  + f" (wrong {count['taken_wrong']})", flush=True)
        frames = args.per * len(kinds)
        print(f"set {seed_base} in all: {total['right']}/{total['dice']} right, "
              + ", ".join(f"{k} {total[k]}" for k in KINDS[1:]) + f"; frames read whole {total['whole']}/{frames}, "
              f"taken unasked {total['taken']}, taken unasked with a die read wrong or where none lies "
              f"{total['taken_wrong']}")
        for lo, hi in zip(BANDS, BANDS[1:]):
            band = [ok for ok, c in reads if lo <= c < hi]
            print(f"  confidence {lo:.1f}-{min(hi, 1.0):.1f}: right {band.count(True)}, wrong {band.count(False)}, "
                  f"phantom {band.count(None)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
