"""Accuracy of the dice reader on the real dev photos, in the issue's terms.

Prints % of dice read correctly, % read wrong (a wrong value, or a die reported where there
is none), % reported uncertain, % missed, the per-face confusion matrix, and how many photos
are read whole: every die right and nothing asked about (a roll the controller takes as it
is; one uncertain spot, even where no die lies, stops it for the players), and how many
the controller would take unasked (as many dice read as lie there, every one at its bar
or above, nothing asked about): with every die right (the players press nothing), and
with a die in them read wrong (the wrong score goes in unless the players stop it on the
screen). Each photo is read as ``companion dice read`` reads it: several looks pooled
(``pooling.read_still``: three, but two that agree, and five where one alone read a die);
``--looks 1`` reads it once, as the settle detector reads each of its frames. The scores of
the photos the face network never learnt from (every fifth: ``HELD_OUT``) are printed apart
too: on photos it learnt from, the network's half of the reading is surer than on new ones.

    .venv/bin/python benchmarks/vision_accuracy.py [--limit N] [--every K] [--size PX]

``--size`` downscales each photo first (e.g. 640) to see how the reader fares on small frames.
``--frame 640x480 --jpeg 80`` makes each photo a webcam frame seen at a slant instead: the
square dev photos squeezed into 4:3 have their top faces squashed to 0.75, as a camera about
40 degrees from overhead sees them, and compressed as a webcam's MJPEG stream is.
``--chroma 422`` or ``444`` keeps more of the JPEG's colour resolution than the default 4:2:0:
small coloured pips lose most of their contrast to it. ``--yuyv`` (instead of ``--jpeg``)
makes each frame what the companion reads live from a USB webcam: OpenCV's V4L2 capture
takes its raw YUYV before MJPEG, colour halved across only, nothing compressed.
``--tilt 40`` (with ``--frame``) makes it a real camera's view instead of a squeeze: the tray
seen from 40 degrees off overhead, from 1.5 photo-widths away (a webcam on a desk beside the
tray), so the far dice come out smaller and flatter than the near ones. ``--barrel 0.1``
(with ``--tilt``) sees it through a cheap webcam's lens, which bows straight lines out: the
dice at the frame's corners come out smaller than those at its centre, and flatter along
the radius (the reader takes every camera for a pinhole one). ``--frame 2736x2052 --tilt 40
--fov 65 --jpeg 90`` is a phone's photo of the tray taken at a slant, at the photos' own
resolution. ``--colours rgb`` (``brg``, ``gbr``...) swaps the photo's colour channels
first: other dice colours in real photos (red dice blue, blue ones red, the grey tray
grey), for the issue's "other dice".

Seven labels name another face than the die shows (``photo_views.LABEL_FIXES``), and five
dice have none (``photo_views.UNLABELLED``), each checked by eye: the scores use the faces
shown, unless ``--as-labelled``, which scores the labels as they are (reading a die with no
label then counts as "not a die"). A die held in a hand above the tray in
IMG_20191208_112623 has no label either way: reading it counts as "not a die".
With ``--tilt``, a die whose label's box runs past the frame's edge, its centre inside, is
not among the labelled dice (the edge may cut its face; often it cuts only the box's
corners): read as its label's value it counts as neither right nor wrong, read otherwise
as a wrong value, and asked about it is no spot where no die lies. (Such dice read right
were counted as dice where there is none: at 55 degrees, three read at 0.89-0.99.)
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from companion.controller import Settings  # noqa: E402
# (as_frame and load_labels: also the tests' way to the dev photos)
from companion.vision.photo_views import CHROMA, as_frame, load_labels  # noqa: E402

DEFAULT_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "datasets", "dice-real-dev")
# A label's box is this many times as wide as the reader measures its die (the median over
# the dice read in every other photo as 480x360 frames 40 degrees from overhead, 1.52, and
# as 960x720 frames, 1.50): the box holds a margin around the top face.
LABEL_TO_DIE = 1.5
# The controller's default bar: a roll whose every die is read at least this sure, nothing
# asked about, is taken after its countdown without a press (``controller.Settings``).
TAKEN_AT = Settings.min_confidence
# The shipped face network learnt from every dev photo but every HELD_OUT-th, counted from
# the first (``train_faces.py --holdout 5``, in ``face_net``'s docstring): on those it reads
# as on photos it never saw, so their scores are printed apart too (a photo's place in the
# whole set decides, whatever ``--every``).
HELD_OUT = 5


def taken_unasked(reading, dice: int) -> bool:
    """Whether the controller takes ``reading`` after its countdown without a press: as
    many dice read as the roll has (``dice``), every one at ``TAKEN_AT`` or above, nothing
    asked about."""
    return len(reading.dice) == dice and not reading.uncertain \
        and all(d.confidence >= TAKEN_AT for d in reading.dice)


def score_image(reading, labels, cut_off=()) -> dict:
    """Match readings to labelled dice: a reading belongs to the nearest label whose top-face
    box (grown by 15 %) holds its centre; each label takes at most one reading (dice first,
    then uncertain spots). An uncertain spot in no label's box is ``stray``: the players
    would be asked about a die where none lies (the tray, a rivet, a coin). ``whole``: every
    die read right and nothing asked about, a roll the controller takes as it is (after a
    press where a die is read under ``TAKEN_AT``). ``taken``: a roll the controller takes
    unasked (as many dice read as it asked for, the frame's edge may cut some of them,
    every one at ``TAKEN_AT`` or above, nothing asked about); ``taken_wrong``: such a roll
    with a die in it read wrong, the one failure that changes a score unless the players
    catch it on the screen. ``cut_off``: the labels of dice the frame's edge may cut
    (``as_frame``'s), which are not scored as the others are (their face may not all show):
    a die read in the box of one is ``edge`` where its value is that die's, and a wrong
    value where it is not; an uncertain spot there is not stray."""
    res = {"correct": 0, "wrong": 0, "uncertain": 0, "missed": 0, "phantom": 0, "stray": 0, "edge": 0, "pairs": [],
           "outcomes": ["missed"] * len(labels)}   # (each label's: correct, wrong, uncertain or missed)
    claimed = set()
    cut_claimed = set()

    def nearest(x, y, labels=labels, claimed=claimed):
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
            cut = nearest(d.x, d.y, cut_off, cut_claimed)
            if cut is None:
                res["phantom"] += 1
                res["pairs"].append((0, d.value))
            else:
                cut_claimed.add(cut)
                truth = cut_off[cut][0]
                res["edge" if truth == d.value else "wrong"] += 1
                if truth != d.value:
                    res["pairs"].append((truth, d.value))
            continue
        claimed.add(hit)
        truth = labels[hit][0]
        res["pairs"].append((truth, d.value))
        outcome = "correct" if truth == d.value else "wrong"
        res[outcome] += 1
        res["outcomes"][hit] = outcome
    for u in reading.uncertain:
        hit = nearest(u.x, u.y)
        if hit is not None:
            claimed.add(hit)
            res["uncertain"] += 1
            res["outcomes"][hit] = "uncertain"
            res["pairs"].append((labels[hit][0], -1))
        elif not any(abs(u.x - lx) <= 0.575 * bw and abs(u.y - ly) <= 0.575 * bh
                     for _, lx, ly, bw, bh in [*labels, *cut_off]):
            res["stray"] += 1
    res["missed"] = len(labels) - len(claimed)
    for k, lab in enumerate(labels):
        if k not in claimed:
            res["pairs"].append((lab[0], None))
    res["whole"] = res["correct"] == len(labels) and not (res["wrong"] or res["phantom"] or reading.uncertain)
    res["taken"] = taken_unasked(reading, len(labels) + len(cut_off))
    res["taken_wrong"] = res["taken"] and bool(res["wrong"] or res["phantom"])
    return res


def add_cast_option(ap: argparse.ArgumentParser) -> None:
    """``--cast B,G,R``: frames tinted as a camera's white balance gone wrong tints them."""
    def gains(text: str) -> tuple[float, float, float]:
        try:
            cast = tuple(float(g) for g in text.split(","))
        except ValueError:
            cast = ()
        if len(cast) != 3 or min(cast) <= 0:
            raise argparse.ArgumentTypeError("three gains over 0, blue,green,red (e.g. 1.15,1,0.85)")
        return cast

    ap.add_argument("--cast", type=gains, help="tint each frame as a camera's white balance gone wrong "
                    "does: gains on its blue, green and red, as B,G,R (1.15,1,0.85: a cool cast), before "
                    "its JPEG")


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
    ap.add_argument("--fov", type=float, default=None, help="with --tilt: the camera's field of view across "
                    "the frame, in degrees (a webcam's 50-70: nearer the tray, its far dice smaller and "
                    "flatter than its near ones); by default 37, from 1.5 photo-widths away")
    ap.add_argument("--read-fov", type=float, default=None, help="the reader told the camera's field of "
                    "view, as `companion calibrate --field-of-view` tells it (perspective.py; not told, "
                    "it takes 45 degrees; 15 or less, a camera far away: frames read as they are)")
    ap.add_argument("--roll", type=float, default=0.0, help="with --frame: the camera also turned this "
                    "many degrees about its own axis (a webcam not quite level)")
    ap.add_argument("--exposure", type=float, default=1.0, help="darken each frame to this share of "
                    "the photo's light (0.6: an underexposed camera), before its JPEG")
    ap.add_argument("--blur", type=float, default=0.0, help="soften each frame as a webcam's lens does: "
                    "a Gaussian of this sigma in frame pixels (0.6: a soft webcam), before its JPEG")
    ap.add_argument("--noise", type=float, default=0.0, help="add a webcam sensor's noise to each frame: "
                    "Gaussian, of this sigma (0-255) per pixel and channel, "
                    "before its JPEG; each photo's noise is drawn from its place in the set")
    add_cast_option(ap)
    ap.add_argument("--far", type=float, default=1.0, help="each photo first as a camera this many times "
                    "as far away takes it, at as many pixels: the tray in the middle of a picture this "
                    "many times as wide, the rest the tray's colour (2, with --size 4000: a phone's "
                    "photo of the table, dice about 20 px wide at the reader's working size)")
    ap.add_argument("--barrel", type=float, default=0.0, help="with --tilt or --roll: the camera's lens's barrel "
                    "distortion k (a cheap webcam's, 0.05-0.15; 0.1: a thing at a corner of the frame looks "
                    "1.3 times smaller along the radius than at its centre; photo_views.perspective)")
    ap.add_argument("--colours", choices=("bgr", "brg", "gbr", "grb", "rbg", "rgb"), default="bgr",
                    help="each photo's colour channels reordered first (OpenCV's B,G,R taken as these): "
                    "other dice colours in real photos ('rgb': red dice blue, blue ones red)")
    ap.add_argument("--jpeg", type=int, default=0, help="JPEG-compress each frame at this quality")
    ap.add_argument("--chroma", choices=sorted(CHROMA), default="420",
                    help="the JPEG's colour subsampling (4:2:0 halves colour resolution both ways)")
    ap.add_argument("--yuyv", action="store_true", help="instead of a JPEG, each frame as OpenCV reads a USB "
                    "webcam on Linux: raw YUYV, colour at half the resolution across, not compressed")
    ap.add_argument("--looks", type=int, default=None, help="readings pooled per photo, as `companion dice "
                    "read` takes them (pooling.read_still; default its STILL_LOOKS); 1: one reading, "
                    "as the settle detector reads each frame")
    ap.add_argument("--verbose", action="store_true", help="one line per photo")
    ap.add_argument("--by-width", action="store_true", help="also the scores by each die's width in the frame "
                    f"(its label's box over {LABEL_TO_DIE}, as the reader measures a die), in 4 px steps")
    ap.add_argument("--model", help="face-network weights to use instead of the shipped ones "
                    "(e.g. trained with --holdout, to score photos it never saw)")
    ap.add_argument("--pips-only", action="store_true", help="the pip reader alone, no network")
    ap.add_argument("--as-labelled", action="store_true", help="score against the labels as they are, "
                    "without photo_views.LABEL_FIXES and UNLABELLED (labels found wrong, dice with none)")
    args = ap.parse_args(argv)
    if args.fov is not None and not args.tilt:
        ap.error("--fov needs --tilt (a camera's view in perspective)")
    if (args.tilt or args.roll) and not args.frame:
        ap.error("--tilt and --roll need --frame (the size of the camera's frames)")
    if args.barrel and not (args.tilt or args.roll):
        ap.error("--barrel needs --tilt or --roll (a camera's lens)")
    if args.exposure <= 0:
        ap.error("--exposure is a share of the light: over 0")
    if args.blur < 0:
        ap.error("--blur is a sigma in pixels: 0 or more")
    if args.noise < 0:
        ap.error("--noise is a sigma: 0 or more")
    if args.far < 1:
        ap.error("--far is a multiple of the distance: 1 or more")
    if args.looks is not None and args.looks < 1:
        ap.error("--looks is a count: 1 or more")
    if args.yuyv and args.jpeg:
        ap.error("--yuyv and --jpeg: a frame is either raw YUYV or a JPEG")

    import cv2
    import numpy as np
    from companion.vision import face_net
    from companion.vision.calibration import Calibration, CalibrationError
    from companion.vision.pooling import STILL_LOOKS, read_still

    try:
        told = Calibration(field_of_view=args.read_fov).validate() if args.read_fov else None
    except CalibrationError as exc:
        ap.error(str(exc))

    if args.model or args.pips_only:
        face_net.FaceNet.use(None if args.pips_only else args.model)

    looks = STILL_LOOKS if args.looks is None else args.looks
    files = sorted(glob.glob(os.path.join(args.dir, "*.jpg")))[args.offset::args.every]
    if args.limit:
        files = files[:args.limit]
    if not files:
        print(f"no photos in {args.dir}")
        return 1
    tot = {"correct": 0, "wrong": 0, "uncertain": 0, "missed": 0, "phantom": 0, "stray": 0, "edge": 0}
    # (other photos than the dev set's: the network learnt from none of them)
    dev_set = os.path.isdir(DEFAULT_DIR) and os.path.samefile(args.dir, DEFAULT_DIR)
    held = dict.fromkeys(("photos", "dice", "correct", "wrong", "phantom", "uncertain", "missed"), 0)
    n_cut = 0
    stray_photos = 0
    whole = taken_right = taken_wrong = 0
    confusion = {}
    widths: dict[int, dict[str, int]] = {}
    n_dice = 0
    t_read = 0.0
    for k, f in enumerate(files):
        held_out = dev_set and (args.offset + args.every * k) % HELD_OUT == 0   # (its place in the whole set)
        img = cv2.imread(f)
        if args.colours != "bgr":
            img = np.ascontiguousarray(img[:, :, ["bgr".index(c) for c in args.colours]])
        h, w = img.shape[:2]
        labels = load_labels(f[:-4] + ".txt", w, h, fixed=not args.as_labelled)
        cut_off: list = []
        img, labels = as_frame(img, labels, args.size, args.frame, args.jpeg, args.chroma, args.tilt,
                               args.exposure, args.blur, args.noise, seed=k, cast=args.cast, roll=args.roll,
                               field_of_view=args.fov, far=args.far, barrel=args.barrel, cut_off=cut_off,
                               yuyv=args.yuyv)
        t0 = time.perf_counter()
        reading = read_still(img, told, looks)
        t_read += time.perf_counter() - t0
        res = score_image(reading, labels, cut_off)
        n_dice += len(labels)
        n_cut += len(cut_off)
        for k in tot:
            tot[k] += res[k]
        if held_out:
            held["photos"] += 1
            held["dice"] += len(labels)
            for outcome in ("correct", "wrong", "phantom", "uncertain", "missed"):
                held[outcome] += res[outcome]
        stray_photos += res["stray"] > 0
        whole += res["whole"]
        taken_right += res["taken"] and not res["taken_wrong"]
        taken_wrong += res["taken_wrong"]
        for pair in res["pairs"]:
            confusion[pair] = confusion.get(pair, 0) + 1
        for (_, _, _, bw, _), outcome in zip(labels, res["outcomes"]):
            counts = widths.setdefault(int(bw / LABEL_TO_DIE // 4 * 4), {})
            counts[outcome] = counts.get(outcome, 0) + 1
        if args.verbose and (res["wrong"] or res["phantom"] or res["missed"] or res["uncertain"]):
            print(f"{os.path.basename(f)}: {len(labels)} dice, wrong {res['wrong']}, phantom "
                  f"{res['phantom']}, uncertain {res['uncertain']}, missed {res['missed']}")
    pct = lambda k: 100.0 * k / max(1, n_dice)
    print(f"photos {len(files)}, labelled dice {n_dice}" + (f", downscaled to {args.size}px" if args.size else "")
          + (f", as {args.frame} frames" if args.frame else "") + (f" seen {args.tilt:g} degrees from overhead" if args.frame and args.tilt else "") + (f" by a camera {args.fov:g} degrees wide" if args.fov else "") + (f", read as {args.read_fov:g} degrees wide" if args.read_fov else "") + (f", turned {args.roll:g} degrees" if args.roll else "") + (f", through a lens of barrel distortion {args.barrel:g}" if args.barrel else "") + (f", exposure {args.exposure:g}" if args.exposure != 1.0 else "") + (f", blur {args.blur:g} px" if args.blur else "") + (f", cast {','.join(f'{g:g}' for g in args.cast)}" if args.cast else "") + (f", colours as {args.colours.upper()}" if args.colours != "bgr" else "") + (f", noise {args.noise:g}" if args.noise else "") + (f", JPEG {args.jpeg} ({args.chroma[0]}:{args.chroma[1]}:{args.chroma[2]})" if args.jpeg else "") + (", raw YUYV (4:2:2)" if args.yuyv else "")
          + (", pip reader alone" if args.pips_only else f", face network {args.model}" if args.model else "")
          + (", labels as they are" if args.as_labelled else "")
          + (f", {looks} looks pooled" + (" (two where they agree)" if looks > 2 else "") if looks > 1
             else ", one look"))
    print(f"read correctly   {pct(tot['correct']):6.2f} %  ({tot['correct']})")
    wrong = tot["wrong"] + tot["phantom"]
    print(f"read wrong       {pct(wrong):6.2f} %  ({tot['wrong']} wrong value, {tot['phantom']} not a die)")
    print(f"uncertain        {pct(tot['uncertain']):6.2f} %  ({tot['uncertain']})")
    print(f"missed (silent)  {pct(tot['missed']):6.2f} %  ({tot['missed']})")
    print(f"uncertain where no die lies: {tot['stray']} (in {stray_photos} of {len(files)} photos)")
    if held["dice"]:
        share = lambda k: 100.0 * k / held["dice"]
        print(f"the {held['photos']} photos the face network never learnt from (every {HELD_OUT}th), "
              f"{held['dice']} dice: read correctly {share(held['correct']):.2f} %, read wrong "
              f"{share(held['wrong'] + held['phantom']):.2f} %, uncertain {share(held['uncertain']):.2f} %, "
              f"missed {share(held['missed']):.2f} %")
    if n_cut:
        print(f"dice the frame's edge may cut, not scored unless read wrong: {n_cut}, {tot['edge']} read right")
    print(f"photos read whole (every die right, nothing asked): {whole} of {len(files)}")
    print(f"photos taken unasked with every die right (the players press nothing): {taken_right} of {len(files)}")
    print(f"photos taken unasked with a die read wrong (as many dice read as lie there, every one at {TAKEN_AT:g} "
          f"or more, nothing asked): {taken_wrong}")
    print(f"mean read time   {1000 * t_read / len(files):.0f} ms per photo")
    print("confusion (rows: true face; columns: read 1-6, ? = uncertain, - = missed):")
    print("        " + " ".join(f"{c:>5}" for c in ["1", "2", "3", "4", "5", "6", "?", "-"]))
    for t in range(0, 7):
        row = [confusion.get((t, v), 0) for v in (1, 2, 3, 4, 5, 6, -1, None)]
        name = "no die" if t == 0 else f"true {t}"
        print(f"{name:>7} " + " ".join(f"{c:>5}" for c in row))
    if args.by_width:
        print("by die width (px in the frame): dice, read right, wrong value, uncertain, missed")
        for w, counts in sorted(widths.items()):
            n = sum(counts.values())
            print(f"  {w:3d}-{w + 4:<3d} {n:5d} {100.0 * counts.get('correct', 0) / n:6.1f} %"
                  + "".join(f" {counts.get(k, 0):5d}" for k in ("wrong", "uncertain", "missed")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
