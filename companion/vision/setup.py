"""Measuring a fixed camera setup for ``companion calibrate``: tray region, dice size, slant, lighting."""

from __future__ import annotations

import math
from typing import Sequence

import cv2
import numpy as np

from .calibration import Calibration, CalibrationError
from .perspective import ASSUMED_FIELD_OF_VIEW, flat_layout_stretch, seen_steeply
from .pips import find_pips
from .segment import WORK_SIDE, even_exposure, working_image
from .slant import (MIN_PIPS, layout_roll, layout_stretch, slant_degrees, steeper_stretch, stretch_for,
                    top_face_pips)


# The least side of a frame a setup is measured from: a tray with dice in it, not a strip.
MIN_FRAME_SIDE = 64
# Dice roll to the tray's rim, where the light falls off and the floor's colour drifts from
# its centre's: the region that colour measures is grown by this many die sides each way,
# so that a die at the rim, or leaning on the wall, is still read. (Six calibrations, each
# from 3 of the 50 held-out dev photos as 640x480 frames, each checked on all 50 frames:
# 103 of 2208 dice lay partly outside the region measured, some by 1.7 die sides; 4 lie
# outside it grown by 2 die sides.)
TRAY_MARGIN = 2.0
# A camera turned about its own axis this much or more is worth levelling: the reader
# undoes a slant only along the frame's axes. (All 250 dev photos as 640x480 frames 40
# degrees from overhead, one look: 1,675 dice read right level, 1,644 turned 5 degrees,
# 1,631 turned 10, 1,624 turned 20. Turning every other frame turned 10 degrees back before
# reading gained none, 828 right either way and 7 wrong against 3: the resampling softens
# it as much.) Where the 4s and 5s of three held-out frames measured it, a level camera
# measured 3.3 degrees at most, and one turned by 10, 8.0-12.3.
TURNED = 8.0
# Dice narrower than this (px, in the picture the reader works on: a frame up to
# ``WORK_SIDE`` long as it is) show pips of a pixel or two, and fewer are read right. Every
# other dev photo as 480x360, 640x480 and 960x720 frames 40 degrees from overhead, JPEG
# 80, one look, the three summed by each die's width (``vision_accuracy.py --by-width``):
# 32 px or more, 96-98 % read right; 28-32, 94 %; 24-28, 92 %; 20-24, 88 %; 16-20, 74 %;
# 12-16, 55 %. At 640x480 the dice there are 29 px wide (the median).
SMALL_DIE = 24.0
# A camera further than this many degrees from overhead squashes the top faces so much
# that fewer are read right. All 250 dev photos as 640x480 frames, JPEG 80, one look:
# 93.4 % read right at 40 degrees, 90.0 % at 45, 88.4 % at 50, 84.9 % at 55 (three looks,
# 94.4 % at 40 and 87.2 % at 55). The camera's slant ``measure_setup`` measures
# (``Calibration.slant``): 30.2, 39.9, 45.2, 55.0 and 61.5 degrees for cameras 30, 40, 45,
# 55 and 62 degrees from overhead (the median of ten calibrations, each from 3 held-out
# frames); through a 53-degree webcam near the tray, 30.2, 40.2, 45.3, 54.6 and 61.9, and
# at 40 none of the ten past 45, where the faces' squash as they stood put one there.
STEEP = 45.0


def tray_region(img: np.ndarray) -> list[float] | None:
    """[x, y, w, h] (fractions) of the tray floor: the large even area around the frame's
    centre. None when no clear tray stands out (then the whole frame is read)."""
    h, w = img.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (7, 7), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    centre = lab[h // 4:3 * h // 4, w // 4:3 * w // 4].reshape(-1, 3)
    floor = np.median(centre, axis=0)
    mask = (np.linalg.norm(lab - floor, axis=2) < 20).astype(np.uint8)
    k = max(3, round(max(h, w) / 50)) | 1
    # Closing bridges the dice lying on the floor.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, 4)
    if n < 2:
        return None
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, bw, bh, area = stats[best]
    if area < 0.1 * w * h or (bw > 0.97 * w and bh > 0.97 * h):
        return None
    pad = 0.02
    x0, y0 = max(0.0, x / w - pad), max(0.0, y / h - pad)
    x1, y1 = min(1.0, (x + bw) / w + pad), min(1.0, (y + bh) / h + pad)
    return [round(x0, 4), round(y0, 4), round(x1 - x0, 4), round(y1 - y0, 4)]


def measure_setup(frames: Sequence[np.ndarray], field_of_view: float | None = None) -> Calibration:
    """A Calibration measured from frames of one fixed setup (the same camera and tray),
    seen ``field_of_view`` degrees wide where the installer says (kept in it, and the dice
    read as the reader will read them: ``perspective``)."""
    from .dice import pip_kernel, read_dice
    if not frames:
        raise CalibrationError("calibration needs at least one image")
    told = Calibration(field_of_view=field_of_view).validate()
    shapes = {f.shape[:2] for f in frames}
    if len(shapes) > 1:
        raise CalibrationError("the calibration images differ in size: use frames from one camera")
    h, w = frames[0].shape[:2]
    if min(h, w) < MIN_FRAME_SIDE:
        raise CalibrationError(f"the calibration images are {w}x{h} px: use whole frames from the camera")
    trays, sizes, lights, pips, faces, read = [], [], [], [], [], []
    for frame in frames:
        img, scale = working_image(frame)
        # (The tray and the pips as the reader sees them: a dim room's frame brightened.)
        bright = even_exposure(img)
        region = tray_region(bright)
        if region is not None:
            trays.append(region)
        # The pips of every frame together: a steadier measure of the slant than one frame's.
        found = find_pips(bright, pip_kernel(bright))
        pips += found
        reading = read_dice(frame, told)
        sizes += reading.die_sizes
        # (in the frame's pixels, as they stand: ``read_dice`` undoes its own stretch)
        read += [(d.value, d.pips) for d in reading.dice]
        if reading.dice and reading.die_sizes:
            # (the faces read, in working pixels, and their frame's pips)
            faces.append((found, [(d.x * scale, d.y * scale) for d in reading.dice], reading.die_side * scale))
        x, y, rw, rh = region or [0, 0, 1, 1]
        ih, iw = img.shape[:2]
        floor = img[int(y * ih):int((y + rh) * ih), int(x * iw):int((x + rw) * iw)]
        lights.append(float(np.median(cv2.cvtColor(floor, cv2.COLOR_BGR2GRAY))))
    cal = Calibration(frame_size=[int(w), int(h)], lighting=round(float(np.median(lights)), 1),
                      field_of_view=field_of_view)
    if sizes:
        cal.die_size = round(float(np.median(sizes)), 1)
    if trays:
        x, y, rw, rh = (float(v) for v in np.median(np.array(trays), axis=0))
        if cal.die_size:
            mx, my = TRAY_MARGIN * cal.die_size / w, TRAY_MARGIN * cal.die_size / h
            x, y, x1, y1 = max(0.0, x - mx), max(0.0, y - my), min(1.0, x + rw + mx), min(1.0, y + rh + my)
            rw, rh = x1 - x, y1 - y
        cal.tray = [round(x, 4), round(y, 4), round(rw, 4), round(rh, 4)]
    # Where the pips stand on the 4s and 5s read tells the slant best (and the camera's,
    # as at the frame's centre wherever they lie: ``Calibration.slant``); without enough of
    # them, the pips' own shapes.
    by_layout = layout_stretch(read)
    if by_layout is not None:
        cal.stretch = [round(v, 3) for v in by_layout]
        cal.slant = round(slant_degrees(flat_layout_stretch(read, (w, h), field_of_view)), 1)
    elif len(pips) >= MIN_PIPS:
        stretch = stretch_for(pips) or (1.0, 1.0)
        if stretch != (1.0, 1.0):
            # Steeper than about 45 degrees the faces read tell the slant better, as
            # ``read_dice`` finds it: their pips, of every frame together.
            fx, fy = stretch
            own = [p for found, tops, side in faces
                   for p in top_face_pips(found, [(x * fx, y * fy) for x, y in tops], side, stretch)]
            stretch = steeper_stretch(own, stretch) or stretch
        cal.stretch = [round(v, 3) for v in stretch]
    roll = layout_roll(read)
    if roll is not None:
        cal.roll = round(roll, 1)
    return cal.validate()


def placement_costs(cal: Calibration) -> dict[str, float]:
    """What costs readings in where the camera stands, as ``cal`` measured it (nothing it did
    not measure): "small", the dice's width as the reader sees them (``die_width``), under
    ``SMALL_DIE``; "steep", the camera's degrees from overhead (``camera_slant``), over
    ``STEEP``; "turned", its picture's turn about its own axis (degrees anticlockwise),
    ``TURNED`` or more. ``companion calibrate`` tells the installer of them
    (``placement_advice``), the daemon the players, as the rolls show them."""
    costs = {}
    width = die_width(cal.die_size, cal.frame_size) if cal.die_size and cal.frame_size else math.inf
    if width < SMALL_DIE:
        costs["small"] = width
    slant = camera_slant(cal)
    if slant > STEEP:
        costs["steep"] = slant
    if cal.roll is not None and abs(cal.roll) >= TURNED:
        costs["turned"] = cal.roll
    return costs


def camera_slant(cal: Calibration) -> float:
    """How far from overhead the camera looks, in degrees, as ``cal`` measured it: its
    ``slant``, or as its ``stretch`` says where the 4s and 5s did not tell that; 0 for neither."""
    return cal.slant if cal.slant is not None else slant_degrees(cal.stretch)


def _turned_text(roll: float) -> str:
    way = "anticlockwise" if roll > 0 else "clockwise"
    return (f"the camera's picture is turned about {abs(roll):.0f} degrees {way} from level (as the "
            "dice's 4s and 5s show): turned so, 2-3 % fewer dice are read right; "
            "turn the camera level and calibrate again")


def die_width(die_size: float, frame_size: Sequence[int]) -> float:
    """A die ``die_size`` px wide in a frame of ``frame_size`` [w, h], in the picture the
    reader works on (``working_image``: shrunk to ``WORK_SIDE`` if longer)."""
    return die_size * min(1.0, WORK_SIDE / max(frame_size))


def placement_advice(cal: Calibration) -> list[str]:
    """What to tell the installer of ``placement_costs``, and what to do about each; and of
    a camera at a slant whose field of view was not given (``perspective``); none where all
    is well, or was not measured."""
    costs = placement_costs(cal)
    advice = []
    if "small" in costs:
        # (a frame longer than the reader's working size gives it no more pixels)
        longest = max(cal.frame_size)
        seen = f"as the reader sees them (the frame shrunk to {WORK_SIDE} px long)" if longest > WORK_SIDE \
            else "in the camera's picture"
        larger = "" if longest >= WORK_SIDE else ", or set a larger [camera] width and height"
        advice.append(f"the dice are about {costs['small']:.0f} px wide {seen}: under {SMALL_DIE:.0f} px "
                      "their pips are a pixel or two, and 1 in 9 dice (at 20-24 px) to 1 in 4 (at 16-20 px) "
                      f"is not read right; move the camera nearer the tray{larger} (dice 32 px wide or more "
                      "read best)")
    if "steep" in costs:
        advice.append(f"the camera looks at the tray about {costs['steep']:.0f} degrees from overhead: steeper than "
                      f"{STEEP:.0f}, the dice's tops are squashed and fewer are read right (1 in 15 dice is not read "
                      "right at 40 degrees, 1 in 10 at 45, 1 in 7 at 55); raise the camera or tilt it nearer "
                      "to overhead")
    if "turned" in costs:
        advice.append(_turned_text(costs["turned"]))
    if seen_steeply(cal.stretch) and cal.field_of_view is None:
        advice.append(f"the camera looks at the tray about {camera_slant(cal):.0f} degrees from overhead: "
                      "near the tray, it sees the far dice smaller and flatter than the near ones, and the reader "
                      f"takes it to see {ASSUMED_FIELD_OF_VIEW:.0f} degrees across; if its data sheet says far wider "
                      "or narrower, calibrate again with --field-of-view DEG (a webcam 90 degrees wide at 40 "
                      "degrees: 81.9 % of dice read right and 2.0 % wrong as assumed, 83.5 % and 1.6 % told)")
    return advice
