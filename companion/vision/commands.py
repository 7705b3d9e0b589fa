"""The ``companion dice``, ``companion coins`` and ``companion calibrate`` subcommands.

- ``companion dice read IMAGE... [--json] [--annotate DIR] [--calibration FILE]``
- ``companion coins read IMAGE... [--json] [--calibration FILE]``
- ``companion coins calibrate --heads IMG... --tails IMG... --out FILE``
- ``companion calibrate [--out FILE] [--logo-value N] IMAGE...``

With ``--json`` each image gives one JSON object on one line. An image that cannot be read
gives a message on stderr and a non-zero exit status; the other images are still processed.
OpenCV and numpy are imported only when a subcommand runs.
"""

from __future__ import annotations

import json
import os
import sys

DEFAULT_CALIBRATION = "vision-calibration.json"


def register(sub) -> None:
    """Add this area's subcommands to the ``companion`` parser."""
    dice = sub.add_parser("dice", help="read dice from images")
    dsub = dice.add_subparsers(dest="dice_command", metavar="ACTION")
    read = _read_parser(dsub, "read the dice in each image", _dice_read,
                        "a calibration saved by `companion calibrate`")
    read.add_argument("--annotate", metavar="DIR", help="write each image with the readings drawn on it")
    dice.set_defaults(func=lambda args: _usage(dice))

    coins = sub.add_parser("coins", help="read coins from images, or learn a coin's faces")
    csub = coins.add_subparsers(dest="coins_command", metavar="ACTION")
    _read_parser(csub, "read the coins in each image", _coins_read,
                 "a file written by `companion coins calibrate`")
    ccal = csub.add_parser("calibrate", help="learn heads and tails from a few photos of each")
    ccal.add_argument("--heads", nargs="+", required=True, metavar="IMG")
    ccal.add_argument("--tails", nargs="+", required=True, metavar="IMG")
    ccal.add_argument("--out", required=True, metavar="FILE",
                      help="calibration file to write (an existing one keeps its other settings)")
    ccal.set_defaults(func=_coins_calibrate)
    coins.set_defaults(func=lambda args: _usage(coins))

    cal = sub.add_parser("calibrate", help="measure a fixed camera setup (tray, dice size, slant, lighting)")
    cal.add_argument("images", nargs="+", metavar="IMAGE",
                     help="frames of the tray with dice in it (their pips show the camera's slant)")
    cal.add_argument("--out", default=DEFAULT_CALIBRATION, metavar="FILE",
                     help=f"where to save it (default {DEFAULT_CALIBRATION}); point the config key "
                          "vision.calibration at it")
    cal.add_argument("--logo-value", type=int, choices=range(1, 7), metavar="N",
                     help="the value of the die face that bears a logo instead of pips")
    # (45: perspective.ASSUMED_FIELD_OF_VIEW, not imported here: it would bring OpenCV into
    # every command's start)
    cal.add_argument("--field-of-view", type=float, metavar="DEG",
                     help="how wide the camera sees across its frame, in degrees (its data sheet's "
                          "horizontal field of view; about 0.85 of a diagonal one), where it is far from "
                          "the 45 assumed: a camera near the tray at a slant sees its far dice smaller "
                          "than its near ones, and the reader undoes that by it")
    cal.set_defaults(func=_calibrate)


def _read_parser(sub, help_text: str, func, calibration_help: str):
    """The ``read IMAGE... [--json] [--calibration FILE]`` action shared by dice and coins."""
    read = sub.add_parser("read", help=help_text)
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--json", action="store_true", help="one JSON object per image, one per line")
    read.add_argument("--calibration", metavar="FILE", help=calibration_help)
    read.set_defaults(func=func)
    return read


def _usage(parser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _err(msg: str) -> None:
    print(f"companion: {msg}", file=sys.stderr)


def _load_image(path: str):
    import cv2
    if os.path.isdir(path):
        # (a shell's glob that matched a folder, or the folder the photos are in)
        _err(f"{path}: a folder, not an image (name its images: {os.path.join(path, '*.jpg')})")
        return None
    if not os.path.isfile(path):
        _err(f"{path}: no such file")
        return None
    from ..opencv_messages import opencv_quiet
    with opencv_quiet():   # (OpenCV's own message would come before ours, less clear)
        img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        _err(f"{path}: not an image OpenCV can read")
    return img


def _load_calibration(path: str | None):
    from .calibration import Calibration, CalibrationError
    if path is None:
        return Calibration(), None
    try:
        return Calibration.load(path), None
    except CalibrationError as exc:
        return None, str(exc)


def _each_image(args, read, describe, annotate=None) -> int:
    """Read every image named in ``args.images`` and print one line per image (a JSON
    object with ``--json``). A missing or unreadable image gives a message on stderr and
    status 1; the other images are still read."""
    status = 0
    for path in args.images:
        img = _load_image(path)
        if img is None:
            status = 1
            continue
        reading = read(img)
        if args.json:
            print(json.dumps({"image": path, **reading.to_dict()}), flush=True)
        else:
            print(f"{path}: {describe(reading)}", flush=True)
        if annotate is not None and not annotate(path, img, reading):
            status = 1
    return status


def _dice_read(args) -> int:
    from .annotate import draw_dice
    from .pooling import read_still
    cal, problem = _load_calibration(args.calibration)
    if problem:
        _err(problem)
        return 2

    def describe(reading) -> str:
        values = " ".join(str(v) for v in reading.values) or "no dice"
        extra = f", {len(reading.uncertain)} uncertain" if reading.uncertain else ""
        return f"{values} (total {sum(reading.values)}){extra}"

    def annotate(path, img, reading) -> bool:
        import cv2
        out = os.path.join(args.annotate, os.path.splitext(os.path.basename(path))[0] + ".png")
        if cv2.imwrite(out, draw_dice(img, reading)):
            return True
        _err(f"{out}: could not write the annotated image")
        return False

    if args.annotate:
        os.makedirs(args.annotate, exist_ok=True)
    # (a photo looked at as the settle detector looks at a still tray: ``read_still``)
    return _each_image(args, lambda img: read_still(img, cal), describe,
                       annotate if args.annotate else None)


def _coins_read(args) -> int:
    from .calibration import CalibrationError
    from .coins import read_coins
    cal, problem = _load_calibration(args.calibration)
    if problem:
        _err(problem)
        return 2
    if not cal.coin:
        _err("no coin calibration given: every coin will be reported uncertain "
             "(learn your coin with `companion coins calibrate`)")

    def describe(reading) -> str:
        faces = " ".join(c.face for c in reading.coins) or "no coins"
        extra = f", {len(reading.uncertain)} uncertain" if reading.uncertain else ""
        return f"{faces}{extra}"

    try:
        return _each_image(args, lambda img: read_coins(img, cal), describe)
    except CalibrationError as exc:   # a damaged coin model: stop, it would fail every image
        _err(str(exc))
        return 2


def _existing(path: str):
    from .calibration import Calibration, CalibrationError
    if not os.path.exists(path):
        return Calibration(), None
    try:
        return Calibration.load(path), None
    except CalibrationError as exc:
        return None, f"{exc} (not overwriting it)"


def _coins_calibrate(args) -> int:
    from .calibration import Calibration, CalibrationError
    from .coins import calibrate_coins
    frames = {}
    for face in ("heads", "tails"):
        frames[face] = []
        for path in getattr(args, face):
            img = _load_image(path)
            if img is None:
                return 1
            frames[face].append(img)
    base, problem = _existing(args.out)
    if problem:
        _err(problem)
        return 2
    try:
        # (photos taken with the camera in place: at the slant ``companion calibrate`` measured)
        model = calibrate_coins(frames["heads"], frames["tails"], base.stretch)
    except CalibrationError as exc:
        _err(str(exc))
        return 1
    base.merged(Calibration(coin=model)).save(args.out)
    print(f"coin calibration saved to {args.out}")
    return 0


def _calibrate(args) -> int:
    from .calibration import CalibrationError
    from .setup import measure_setup, placement_advice
    frames = []
    for path in args.images:
        img = _load_image(path)
        if img is None:
            return 1
        frames.append(img)
    base, problem = _existing(args.out)
    if problem:
        _err(problem)
        return 2
    try:
        measured = measure_setup(frames, args.field_of_view)
    except CalibrationError as exc:
        _err(str(exc))
        return 1
    if args.logo_value is not None:
        measured.logo_value = args.logo_value
    if measured.die_size is None:
        # (saved all the same: the tray and the lighting are measured without dice)
        missing = "the dice size" + (" and the camera's slant were" if measured.stretch is None else " was")
        _err(f"no die was found in these frames, so {missing} not measured: "
             "calibrate again with a few dice lying in the tray")
    for advice in placement_advice(measured):
        _err(advice)
    cal = base.merged(measured)
    cal.save(args.out)
    print(f"calibration saved to {args.out}: " + json.dumps({k: v for k, v in cal.to_dict().items() if k != "coin"}))
    return 0
