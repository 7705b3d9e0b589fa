"""The settle detector on real trays lying still before a webcam: one report per roll?

A webcam never gives the same frame twice: its sensor noise moves borderline pips across the
reader's thresholds, so a tray's readings differ from frame to frame. Each dev photo is made
a webcam's view (640x480, ``--tilt`` 40 degrees from overhead, JPEG 80, as ``vision_accuracy
--tilt``) with fresh noise per frame, and fed to a ``SettleDetector``: a hand over the tray,
then ``--frames`` still frames; the hand again, and as many again, twice (the dice untouched).

Prints, over the photos: each still frame read alone (the mean per frame), the detector's
reports (right / wrong / uncertain / missed, as ``vision_accuracy`` scores them: a die the
frame's edge may cut is scored only where it is read wrong; the places asked about where no
die lies; the reports read whole, every die right and nothing asked; those the controller
takes unasked, every die also at its bar or above, and those it would take unasked with a
die read wrong), how many frames after the hand each report came, and the reports repeated
after the hand though nothing moved. ``--fov``: a webcam near the tray, seeing
that many degrees across (the reader is not told: it takes ``perspective``'s assumed one);
``--cast``: a webcam whose white balance is off, as ``vision_accuracy --cast``; ``--flicker``: a
lamp on the mains whose light swings that share of its mean either side of it, seen by a
rolling shutter exposing each row for 1/500 s (``render.flickering``, at each frame's time;
``--mains`` its frequency), before the noise and the JPEG; ``--game``: one
detector for all the trays, as the daemon keeps it through a game (it reads later rolls with
the die size and slant the earlier ones showed), rather than a new one for each.

    .venv/bin/python benchmarks/vision_stills.py [--every 5] [--noise 2] [--frames 12] [--tilt 40] [--fov 60]
        [--cast 1.15,1,0.85] [--flicker 0.3 [--mains 50]] [--game]
"""

from __future__ import annotations

import argparse
import glob
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from companion.vision.photo_views import as_frame, load_labels  # noqa: E402
from companion.vision.render import hand_over  # noqa: E402
from vision_accuracy import DEFAULT_DIR, add_cast_option, score_image  # noqa: E402

KEYS = ("correct", "wrong", "phantom", "uncertain", "missed", "stray", "edge")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=DEFAULT_DIR)
    ap.add_argument("--every", type=int, default=5, help="every K-th photo")
    ap.add_argument("--offset", type=int, default=0, help="start at this photo")
    ap.add_argument("--noise", type=float, default=2.0, help="the webcam's sensor noise, sigma (0-255)")
    ap.add_argument("--frames", type=int, default=12, help="still frames after each time the hand goes")
    ap.add_argument("--fps", type=float, default=15.0)
    ap.add_argument("--tilt", type=float, default=40.0, help="the camera's angle from overhead, degrees")
    ap.add_argument("--fov", type=float, default=None, help="the camera's field of view across the frame, "
                    "degrees (a webcam's 50-70; by default 37, from 1.5 photo-widths away)")
    add_cast_option(ap)
    ap.add_argument("--flicker", type=float, default=0.0, help="a lamp on the mains whose light swings this "
                    "share of its mean either side of it (0.3), through a rolling shutter")
    ap.add_argument("--mains", type=float, default=50.0, help="with --flicker: the mains' frequency, Hz")
    ap.add_argument("--game", action="store_true", help="one detector for all the trays, as through a game")
    args = ap.parse_args(argv)
    if args.frames < 1 or args.fps <= 0:
        ap.error("--frames and --fps must be over 0")

    import cv2

    from companion.vision.dice import read_dice
    from companion.vision.render import flickering
    from companion.vision.settle import SettleDetector

    def lit(s):
        """The lamp's light on still frame ``s``, at the time it is fed (after the hand)."""
        if not args.flicker:
            return None
        rep, j = divmod(s, args.frames)
        t = (rep * (args.frames + 1) + j + 1) / args.fps
        return lambda img: flickering(img, t, mains_hz=args.mains, swing=args.flicker)

    files = sorted(glob.glob(os.path.join(args.dir, "*.jpg")))[args.offset::args.every]
    if not files:
        print(f"no photos in {args.dir}")
        return 1
    alone = dict.fromkeys(KEYS, 0)
    reported = dict.fromkeys(KEYS, 0)
    n_dice, reported_dice, unreported, repeats, after, whole = 0, 0, 0, 0, [], 0
    n_cut, reported_cut = 0, 0
    taken_right = taken_wrong = 0
    det = SettleDetector(auto_rearm=True)
    for k, f in enumerate(files):
        img = cv2.imread(f)
        labels = load_labels(f[:-4] + ".txt", img.shape[1], img.shape[0])
        # (the same labels for every frame, and the same dice the frame's edge may cut, scored
        # as ``vision_accuracy`` scores them: only the noise differs)
        cut: list = []
        views = [as_frame(img, labels, frame="640x480", tilt=args.tilt, jpeg=80, noise=args.noise,
                          seed=1000 * s + k, field_of_view=args.fov, cast=args.cast, cut_off=None if s else cut,
                          light=lit(s))
                 for s in range(3 * args.frames)]
        stills, truth = [frame for frame, _ in views], views[0][1]
        n_dice += len(truth)
        n_cut += len(cut)
        for frame in stills[:args.frames]:
            res = score_image(read_dice(frame), truth, cut)
            for key in KEYS:
                alone[key] += res[key]
        det.reset(forget=not args.game)   # (as new, or as the daemon's next roll: the same camera)
        det.arm()
        reports = []
        for rep in range(3):
            seq = [hand_over(stills[rep * args.frames])] + stills[rep * args.frames:(rep + 1) * args.frames]
            for i, frame in enumerate(seq):
                reading = det.feed(frame, (rep * (args.frames + 1) + i) / args.fps)
                if reading is not None:
                    reports.append((rep, i, reading))
        first = [r for r in reports if r[0] == 0]
        repeats += len(reports) - len(first)
        if not first:
            unreported += 1
            continue
        after.append(first[0][1])
        reported_dice += len(truth)
        reported_cut += len(cut)
        res = score_image(first[0][2], truth, cut)
        for key in KEYS:
            reported[key] += res[key]
        whole += res["whole"]
        taken_right += res["taken"] and not res["taken_wrong"]
        taken_wrong += res["taken_wrong"]

    print(f"photos {len(files)}, labelled dice {n_dice}, as 640x480 frames seen {args.tilt:g} degrees from overhead"
          + (f" by a camera {args.fov:g} degrees wide" if args.fov else "")
          + (f", cast {','.join(f'{g:g}' for g in args.cast)}" if args.cast else "")
          + (f", a lamp on {args.mains:g} Hz mains swinging {args.flicker:g}" if args.flicker else "")
          + (", one detector through them all" if args.game else "")
          + f", JPEG 80, sensor noise {args.noise:g}, {args.fps:g} fps")

    def line(label, tot, dice, where=""):
        pct = lambda v: 100.0 * v / max(1, dice)
        return (f"{label}: right {pct(tot['correct']):5.1f} %, wrong {pct(tot['wrong'] + tot['phantom']):4.2f} % "
                f"({tot['wrong']} wrong value, {tot['phantom']} not a die), uncertain {pct(tot['uncertain']):4.1f} %, "
                f"missed {pct(tot['missed']):4.1f} %; {tot['stray']} asked about where no die lies{where}")

    print(line("each still frame read alone", alone, n_dice * args.frames, f" (in {len(files) * args.frames} frames)"))
    print(line(f"reported ({len(after)} of {len(files)} trays)", reported, reported_dice))
    if n_cut:
        print(f"dice the frame's edge may cut, not scored unless read wrong: {reported_cut}, {reported['edge']} "
              f"reported right; read right in {alone['edge']} of their {n_cut * args.frames} single frames")
    print(f"reports read whole (every die right, nothing asked): {whole} of {len(after)}")
    print(f"reports taken unasked (every die also at the controller's bar): {taken_right} with every die right, "
          f"{taken_wrong} with a die read wrong")
    if after:
        print(f"frames from the hand to the report: median {statistics.median(after):g}, most {max(after)}")
    print(f"trays not reported within {args.frames} still frames: {unreported}")
    print(f"reports repeated after the hand, nothing moved: {repeats}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
