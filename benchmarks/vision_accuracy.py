"""Accuracy of the dice reader on the real dev photos, in the issue's terms.

Prints % of dice read correctly, % read wrong (a wrong value, or a die reported where there
is none), % reported uncertain, % missed, and the per-face confusion matrix.

    .venv/bin/python benchmarks/vision_accuracy.py [--limit N] [--every K] [--size PX]

``--size`` downscales each photo first (e.g. 640) to see how the reader fares on small frames.
``--frame 640x480 --jpeg 80`` makes each photo a webcam frame seen at a slant instead: the
square dev photos squeezed into 4:3 have their top faces squashed to 0.75, as a camera about
40 degrees from overhead sees them, and compressed as a webcam's MJPEG stream is.
``--chroma 422`` or ``444`` keeps more of the JPEG's colour resolution than the default 4:2:0:
small coloured pips lose most of their contrast to it. (A USB webcam read live may not
compress at all: OpenCV's V4L2 capture takes its raw YUYV, which is 4:2:2, before MJPEG.)
``--tilt 40`` (with ``--frame``) makes it a real camera's view instead of a squeeze: the tray
seen from 40 degrees off overhead, from 1.5 photo-widths away (a webcam on a desk beside the
tray), so the far dice come out smaller and flatter than the near ones.

Five dice in the photos have no label, so reading them counts as "not a die": a blue die
showing 6 (IMG_20191208_111530), a dark red 2 (111730), a green marbled 3 (112342), a black
3 with red pips (112353) and a green 6 (IMG_20191209_095533). Nor has a die held in a hand
in 112623, which the reader reads only in webcam frames.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

DEFAULT_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "datasets", "dice-real-dev")


def load_labels(path: str, w: int, h: int) -> list[tuple[int, float, float, float, float]]:
    """(value, cx, cy, bw, bh) in pixels, from a YOLO label file."""
    out = []
    with open(path) as fh:
        for line in fh:
            parts = line.split()
            if len(parts) == 5:
                c, x, y, bw, bh = int(parts[0]), *map(float, parts[1:])
                out.append((c + 1, x * w, y * h, bw * w, bh * h))
    return out


# JPEG colour subsampling: OpenCV's default 4:2:0 (colour at half the resolution both ways,
# as in most phone photos), 4:2:2 (half across only) or 4:4:4 (none). Webcams' MJPEG streams
# come as 4:2:0 or 4:2:2.
CHROMA = {"420": None, "422": "IMWRITE_JPEG_SAMPLING_FACTOR_422", "444": "IMWRITE_JPEG_SAMPLING_FACTOR_444"}


def as_frame(img, labels, size: int = 0, frame: str | None = None, jpeg: int = 0, chroma: str = "420",
             tilt: float = 0.0):
    """The photo and its labels as the reader would get them: downscaled to ``size`` (longest
    side), or resized to exactly ``frame`` ("WxH", squashing it as a slanted camera does, or
    with ``tilt``, seen in perspective by a camera that many degrees from overhead:
    ``perspective``), and JPEG-compressed at quality ``jpeg`` with colour subsampling
    ``chroma`` (``CHROMA``)."""
    import cv2
    if frame and tilt:
        img, labels = perspective(img, labels, frame, tilt)
        frame = None
    sx = sy = 1.0
    if size:
        sx = sy = size / max(img.shape[:2])
    if frame:
        fw, fh = (int(v) for v in frame.lower().split("x"))
        sx, sy = fw / img.shape[1], fh / img.shape[0]
    if sx != 1.0 or sy != 1.0:
        img = cv2.resize(img, (round(img.shape[1] * sx), round(img.shape[0] * sy)),
                         interpolation=cv2.INTER_AREA)
        labels = [(v, x * sx, y * sy, bw * sx, bh * sy) for v, x, y, bw, bh in labels]
    if jpeg:
        params = [cv2.IMWRITE_JPEG_QUALITY, jpeg]
        if CHROMA[chroma]:
            params += [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, getattr(cv2, CHROMA[chroma])]
        img = cv2.imdecode(cv2.imencode(".jpg", img, params)[1], cv2.IMREAD_COLOR)
    return img, labels


def perspective(img, labels, frame: str, tilt: float, distance: float = 1.5):
    """The photo (taken from overhead) as a ``frame`` ("WxH") seen by a camera ``tilt``
    degrees from overhead, ``distance`` photo-widths from its centre, with the photo's centre
    row across the frame's width; and the labels that stay wholly inside the frame (box
    corners mapped, the box around them kept)."""
    import math

    import cv2
    import numpy as np
    fw, fh = (int(v) for v in frame.lower().split("x"))
    # Area-average the photo down to a little over the frame's scale first: the warp below
    # interpolates linearly, which would alias pips shrunk by more than about two.
    pre = min(1.0, 1.5 * fw / img.shape[1])
    if pre < 1.0:
        img = cv2.resize(img, None, fx=pre, fy=pre, interpolation=cv2.INTER_AREA)
    side = img.shape[1]
    t = math.radians(tilt)
    # The photo is the plane z = 0, one unit wide around the origin; the camera, tilted
    # about the x axis, looks at its centre with the near edge at the bottom of its view.
    eye = np.array([0.0, distance * math.sin(t), distance * math.cos(t)])
    ahead = -eye / np.linalg.norm(eye)
    right = np.array([-1.0, 0.0, 0.0])
    rot = np.stack([right, np.cross(ahead, right), ahead])

    def seen(x, y):
        p = rot @ (np.array([x, y, 0.0]) - eye)
        return p[0] / p[2], p[1] / p[2]

    corners = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
    cx, cy = seen(0.0, 0.0)
    scale = fw / abs(seen(0.5, 0.0)[0] - seen(-0.5, 0.0)[0])
    dst = [((u - cx) * scale + fw / 2, (v - cy) * scale + fh / 2) for u, v in (seen(*c) for c in corners)]
    # (in the photo, a unit is its width, about its centre: a taller photo runs on beyond)
    src = [(x * side + img.shape[1] / 2, y * side + img.shape[0] / 2) for x, y in corners]
    h = cv2.getPerspectiveTransform(np.float32(src), np.float32(dst))
    out = cv2.warpPerspective(img, h, (fw, fh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    kept = []
    for v, x, y, bw, bh in labels:
        pts = np.float32([[x, y], [x - bw / 2, y - bh / 2], [x + bw / 2, y - bh / 2],
                          [x + bw / 2, y + bh / 2], [x - bw / 2, y + bh / 2]]) * pre
        q = cv2.perspectiveTransform(pts[None], h)[0]
        xs, ys = q[1:, 0], q[1:, 1]
        if xs.min() >= 0 and ys.min() >= 0 and xs.max() < fw and ys.max() < fh:
            kept.append((v, float(q[0, 0]), float(q[0, 1]), float(xs.max() - xs.min()), float(ys.max() - ys.min())))
    return out, kept


def score_image(reading, labels) -> dict:
    """Match readings to labelled dice: a reading belongs to the nearest label whose top-face
    box (grown by 15 %) holds its centre; each label takes at most one reading (dice first,
    then uncertain spots)."""
    res = {"correct": 0, "wrong": 0, "uncertain": 0, "missed": 0, "phantom": 0, "pairs": []}
    claimed = set()

    def nearest(x, y):
        best, best_d = None, None
        for k, (v, lx, ly, bw, bh) in enumerate(labels):
            if k in claimed or abs(x - lx) > 0.575 * bw or abs(y - ly) > 0.575 * bh:
                continue
            d = ((x - lx) / bw) ** 2 + ((y - ly) / bh) ** 2
            if best_d is None or d < best_d:
                best, best_d = k, d
        return best

    for d in sorted(reading.dice, key=lambda d: -d.confidence):
        hit = nearest(d.x, d.y)
        if hit is None:
            res["phantom"] += 1
            res["pairs"].append((0, d.value))
            continue
        claimed.add(hit)
        truth = labels[hit][0]
        res["pairs"].append((truth, d.value))
        res["correct" if truth == d.value else "wrong"] += 1
    for u in reading.uncertain:
        hit = nearest(u.x, u.y)
        if hit is not None:
            claimed.add(hit)
            res["uncertain"] += 1
            res["pairs"].append((labels[hit][0], -1))
    res["missed"] = len(labels) - len(claimed)
    for k, lab in enumerate(labels):
        if k not in claimed:
            res["pairs"].append((lab[0], None))
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=DEFAULT_DIR)
    ap.add_argument("--limit", type=int, default=0, help="only the first N photos")
    ap.add_argument("--every", type=int, default=1, help="every K-th photo")
    ap.add_argument("--offset", type=int, default=0, help="start at this photo (with --every)")
    ap.add_argument("--size", type=int, default=0, help="downscale photos to this longest side")
    ap.add_argument("--frame", help="resize each photo to exactly WxH (e.g. 640x480), "
                    "squashing it as a slanted camera does")
    ap.add_argument("--tilt", type=float, default=0.0, help="with --frame: the photo seen in perspective "
                    "by a camera this many degrees from overhead (not squeezed)")
    ap.add_argument("--jpeg", type=int, default=0, help="JPEG-compress each frame at this quality")
    ap.add_argument("--chroma", choices=sorted(CHROMA), default="420",
                    help="the JPEG's colour subsampling (4:2:0 halves colour resolution both ways)")
    ap.add_argument("--verbose", action="store_true", help="one line per photo")
    ap.add_argument("--model", help="face-network weights to use instead of the shipped ones "
                    "(e.g. trained with --holdout, to score photos it never saw)")
    ap.add_argument("--pips-only", action="store_true", help="the pip reader alone, no network")
    args = ap.parse_args(argv)
    if args.tilt and not args.frame:
        ap.error("--tilt needs --frame (the size of the camera's frames)")

    import cv2
    from companion.vision import face_net
    from companion.vision.dice import read_dice

    if args.model or args.pips_only:
        face_net.FaceNet.use(None if args.pips_only else args.model)

    files = sorted(glob.glob(os.path.join(args.dir, "*.jpg")))[args.offset::args.every]
    if args.limit:
        files = files[:args.limit]
    if not files:
        print(f"no photos in {args.dir}")
        return 1
    tot = {"correct": 0, "wrong": 0, "uncertain": 0, "missed": 0, "phantom": 0}
    confusion = {}
    n_dice = 0
    t_read = 0.0
    for f in files:
        img = cv2.imread(f)
        h, w = img.shape[:2]
        labels = load_labels(f[:-4] + ".txt", w, h)
        img, labels = as_frame(img, labels, args.size, args.frame, args.jpeg, args.chroma, args.tilt)
        t0 = time.perf_counter()
        reading = read_dice(img)
        t_read += time.perf_counter() - t0
        res = score_image(reading, labels)
        n_dice += len(labels)
        for k in tot:
            tot[k] += res[k]
        for pair in res["pairs"]:
            confusion[pair] = confusion.get(pair, 0) + 1
        if args.verbose and (res["wrong"] or res["phantom"] or res["missed"] or res["uncertain"]):
            print(f"{os.path.basename(f)}: {len(labels)} dice, wrong {res['wrong']}, phantom "
                  f"{res['phantom']}, uncertain {res['uncertain']}, missed {res['missed']}")
    pct = lambda k: 100.0 * k / max(1, n_dice)
    print(f"photos {len(files)}, labelled dice {n_dice}" + (f", downscaled to {args.size}px" if args.size else "")
          + (f", as {args.frame} frames" if args.frame else "") + (f" seen {args.tilt:g} degrees from overhead" if args.frame and args.tilt else "") + (f", JPEG {args.jpeg} ({args.chroma[0]}:{args.chroma[1]}:{args.chroma[2]})" if args.jpeg else "")
          + (", pip reader alone" if args.pips_only else f", face network {args.model}" if args.model else ""))
    print(f"read correctly   {pct(tot['correct']):6.2f} %  ({tot['correct']})")
    wrong = tot["wrong"] + tot["phantom"]
    print(f"read wrong       {pct(wrong):6.2f} %  ({tot['wrong']} wrong value, {tot['phantom']} not a die)")
    print(f"uncertain        {pct(tot['uncertain']):6.2f} %  ({tot['uncertain']})")
    print(f"missed (silent)  {pct(tot['missed']):6.2f} %  ({tot['missed']})")
    print(f"mean read time   {1000 * t_read / len(files):.0f} ms per photo")
    print("confusion (rows: true face; columns: read 1-6, ? = uncertain, - = missed):")
    print("        " + " ".join(f"{c:>5}" for c in ["1", "2", "3", "4", "5", "6", "?", "-"]))
    for t in range(0, 7):
        row = [confusion.get((t, v), 0) for v in (1, 2, 3, 4, 5, 6, -1, None)]
        name = "no die" if t == 0 else f"true {t}"
        print(f"{name:>7} " + " ".join(f"{c:>5}" for c in row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
