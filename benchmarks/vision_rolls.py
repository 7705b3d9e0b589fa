"""Real trays as rolls the settle detector follows: does it leave out a die that was rolled?

The settle detector leaves out what it finds where the frame is as it was before the roll
(``settle.SettleDetector._rolled_places``): nothing there was rolled. Each dev photo is made a
roll: first the tray before it (the photo with its labelled dice painted out, ``cv2.inpaint``),
still for a few frames, then a hand, then the dice at rest, as webcam frames (640x480, JPEG
80, fresh sensor noise in each, ``--tilt`` and ``--fov`` as ``vision_stills``). Prints the
dice read and the places asked about that the detector left out so, on a labelled die (a
die rolled, which it must not leave out: there should be none) and off them, and the
reports' scores as ``vision_accuracy`` counts them.

    .venv/bin/python benchmarks/vision_rolls.py [--every 1] [--tilt 55] [--fov 53]
"""

from __future__ import annotations

import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from companion.vision.photo_views import as_frame, load_labels  # noqa: E402
from companion.vision.render import hand_roll  # noqa: E402
from vision_accuracy import DEFAULT_DIR, score_image  # noqa: E402

KEYS = ("correct", "wrong", "phantom", "uncertain", "missed", "stray")


def _painted_out(img, labels):
    """``img`` with its labelled dice painted out: the tray before they were thrown."""
    import cv2
    import numpy as np
    mask = np.zeros(img.shape[:2], np.uint8)
    for _, x, y, bw, bh in labels:
        cv2.rectangle(mask, (int(x - 0.6 * bw), int(y - 0.6 * bh)), (int(x + 0.6 * bw), int(y + 0.6 * bh)), 255, -1)
    return cv2.inpaint(img, mask, 5, cv2.INPAINT_TELEA)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=DEFAULT_DIR)
    ap.add_argument("--every", type=int, default=1, help="every K-th photo")
    ap.add_argument("--tilt", type=float, default=55.0, help="the camera's angle from overhead, degrees")
    ap.add_argument("--fov", type=float, default=53.0, help="the camera's field of view across the frame, degrees")
    args = ap.parse_args(argv)

    import cv2
    cv2.setNumThreads(1)
    from companion.vision.settle import SettleDetector
    from companion.vision.types import Uncertain

    files = sorted(glob.glob(os.path.join(args.dir, "*.jpg")))[::args.every]
    if not files:
        print(f"no photos in {args.dir}")
        return 1
    tot = dict.fromkeys(KEYS, 0)
    n_dice = unreported = 0
    left = {(kind, on): 0 for kind in ("read", "asked") for on in (True, False)}
    view = dict(frame="640x480", jpeg=80, tilt=args.tilt, noise=2.0, field_of_view=args.fov)
    for k, f in enumerate(files):
        # (at the reader's working size: inpainting a phone's whole photo takes seconds)
        img = cv2.imread(f, cv2.IMREAD_REDUCED_COLOR_2)
        s = min(1.0, 1200 / max(img.shape[:2]))
        img = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        labels = load_labels(f[:-4] + ".txt", img.shape[1], img.shape[0])
        empty = _painted_out(img, labels)
        cut: list = []
        stills = [as_frame(img, labels, seed=1000 * j + k, cut_off=None if j else cut, **view) for j in range(10)]
        truth = stills[0][1]
        tray = [as_frame(empty, [], seed=5000 + 1000 * j + k, **view)[0] for j in range(4)]
        det = SettleDetector()
        det.arm()
        seq = hand_roll(tray, [frame for frame, _ in stills])
        report = next((r for j, frame in enumerate(seq) if (r := det.feed(frame, j / 15)) is not None), None)
        n_dice += len(truth)
        if report is None:
            unreported += 1
            continue
        for t in det.left_out:
            on = any(abs(t.x - x) <= 0.575 * bw and abs(t.y - y) <= 0.575 * bh for _, x, y, bw, bh in truth + cut)
            left["asked" if isinstance(t, Uncertain) else "read", on] += 1
        res = score_image(report, truth, cut)
        for key in KEYS:
            tot[key] += res[key]
    print(f"photos {len(files)}, labelled dice {n_dice}, as rolls seen {args.tilt:g} degrees from overhead by a "
          f"camera {args.fov:g} degrees wide, JPEG 80, the tray painted out before the roll")
    print(f"left out as unchanged since before the roll: on a labelled die {left['read', True]} read and "
          f"{left['asked', True]} asked about; off them {left['read', False]} read and {left['asked', False]} asked about")
    print(f"reported: right {tot['correct']}, wrong {tot['wrong']} (and {tot['phantom']} where no die lies), "
          f"asked about {tot['uncertain']}, missed {tot['missed']}, asked where no die lies {tot['stray']}; "
          f"rolls not reported {unreported}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
