"""Train the face network of ``face_net.py`` and export it to ONNX (development tool).

Needs PyTorch and onnx, which the companion itself never does (``pip install
'.[train]'``)::

    python -m companion.vision.train_faces --photos ../shared/datasets/dice-real-dev \\
        --out companion/vision/models/dice_faces.onnx [--holdout 5] [--epochs 40]

``--holdout K`` keeps every K-th photo (from the first) out of training and reports the
crop accuracy on them, as they are and as webcam frames (``webcam_crops``): the figures to
trust, since those photos were never seen.
``--start WEIGHTS`` goes on from weights exported here rather than from scratch (with a
smaller ``--lr``): how the shipped weights learnt ``--desk``, ``--webcam``, ``--slanted``,
``--dots``, ``--same-ground`` and ``--casts`` (see ``face_net.py``), and tried ``--wide`` and
``--recolour``.
``--webcam K`` adds K webcam frames of each training photo (``webcam_views``), a share
``--recolour P`` of them with their colour channels shuffled before the JPEG; ``--wide K``,
K more through a wide webcam near the tray, seen steeply (``WIDE_TILTS``); ``--slanted N``,
N rendered trays seen at a slant, each die's near side as no face (``slanted_scenes``);
``--dots``, dots with no die body as no face (``with_dots``); ``--same-ground``, white dice
on a white table (``rendered_scenes``); ``--casts``, crops tinted as by a white balance gone
wrong (``cast``).

Training examples are crops made by ``face_net.face_crop``, the very function the reader
uses, around each labelled die (turned to any angle, mirrored, shifted a little, rescaled,
their colour channels shuffled or inverted, blurred, noised, shrunk and enlarged again as a
small webcam frame would show them), plus "not a face" crops: the tray, the gap between
dice, half a die, edges of things that are not dice (text, pencils, the tray wall), rendered
clutter, coins, logo faces, and dots on the bare tray (a crumb, a bead, a pen mark: a
pip-like spot with no die around it is no 1). With ``--desk``, also print over the bare
tray (a rulebook or a score pad beside it: its letters fall like pips, and its words are
die-sized blobs). About a third of the dice come from rendered trays
(other colours, pip styles and slants than the photos have).
"""

from __future__ import annotations

import argparse
import glob
import math
import os
import time

import cv2
import numpy as np

from .face_net import CROP_FACTOR, CROP_PX, NOT_A_FACE, face_crop, normalise
from .photo_views import as_frame, load_labels, perspective
from .render import DIE_COLOURS, PIP_LAYOUT, render_scene

WORK_SIDE = 1000       # the reader's working size for big photos (segment.WORK_SIDE)
BOX_TO_CROP = 1.45     # crop side per labelled top-face box side (see face_net.CROP_FACTOR)
# ``webcam_views``' cameras: 0-55 degrees from overhead, 1.3-2.2 photo-widths from the
# tray's centre (a field of view of 26-42 degrees across the frame: the photo's centre row
# fills its width). ``--wide``'s: a webcam of 50-70 degrees' field of view (0.71-1.07
# photo-widths away) 30-60 degrees from overhead, as one on a desk beside the tray: its far
# dice small and squashed, its near ones big.
WEBCAM_TILTS, WEBCAM_DISTANCES = (0.0, 55.0), (1.3, 2.2)
WIDE_TILTS, WIDE_DISTANCES = (30.0, 60.0), (0.71, 1.07)


def _working_photo(path: str):
    """The labelled photo at ``path`` at the reader's working size, and its labels
    (``load_labels``' form)."""
    img = cv2.imread(path, cv2.IMREAD_REDUCED_COLOR_2)
    s = min(1.0, WORK_SIDE / max(img.shape[:2]))
    img = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    return img, load_labels(path[:-4] + ".txt", img.shape[1], img.shape[0])


def load_photos(folder: str):
    """[(image at the reader's working size, [(value, x, y, box)])] for each labelled photo."""
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "*.jpg"))):
        img, labels = _working_photo(path)
        out.append((img, [(v, x, y, max(bw, bh)) for v, x, y, bw, bh in labels]))
    return out


def webcam_views(folder: str, holdout: int, views: int, rng: np.random.Generator,
                 tilts: tuple[float, float] = WEBCAM_TILTS, distances: tuple[float, float] = WEBCAM_DISTANCES,
                 recolour: float = 0.0):
    """``views`` webcam frames of each photo in ``folder`` (but every ``holdout``-th), in
    ``load_photos``'s form: 640x480 (a quarter 960x720) frames of a camera ``tilts`` degrees
    from overhead (0-55), ``distances`` photo-widths away (1.3-2.2; both drawn evenly
    between their two ends) on any side of the tray, JPEG-compressed at quality
    55-95 (three in ten with 4:2:2 colour, the rest 4:2:0); with chance ``recolour``, its
    colour channels shuffled before the JPEG (other dice colours, as the JPEG leaves them).
    Crops of a 30 px die with its pips smeared by the JPEG look unlike any crop of a phone
    photo, shrunk or not."""
    out = []
    for k, path in enumerate(sorted(glob.glob(os.path.join(folder, "*.jpg")))):
        if holdout and k % holdout == 0:
            continue
        img, labels = _working_photo(path)
        for _ in range(views):
            view, boxes = img, labels
            for _turn in range(int(rng.integers(4))):
                h = view.shape[0]
                view = cv2.rotate(view, cv2.ROTATE_90_CLOCKWISE)
                boxes = [(v, h - y, x, bh, bw) for v, x, y, bw, bh in boxes]
            frame = "640x480" if rng.random() < 0.75 else "960x720"
            view, boxes = perspective(view, boxes, frame, float(rng.uniform(*tilts)), float(rng.uniform(*distances)))
            if recolour and rng.random() < recolour:
                view = np.ascontiguousarray(view[:, :, rng.permutation(3)])
            quality = int(rng.integers(55, 96))
            view, boxes = as_frame(view, boxes, jpeg=quality, chroma="422" if rng.random() < 0.3 else "420")
            out.append((view, [(v, x, y, max(bw, bh)) for v, x, y, bw, bh in boxes]))
    return out


def webcam_crops(folder: str, holdout: int) -> tuple[np.ndarray, np.ndarray]:
    """Crops of the dice of every ``holdout``-th photo, and their labels, as a webcam 40
    degrees from overhead sees them (640x480, JPEG 80): the held-out figure for webcams."""
    crops, labels = [], []
    for path in sorted(glob.glob(os.path.join(folder, "*.jpg")))[::holdout]:
        img = cv2.imread(path)
        frame, boxes = as_frame(img, load_labels(path[:-4] + ".txt", img.shape[1], img.shape[0]),
                                frame="640x480", jpeg=80, tilt=40.0)
        for v, x, y, bw, bh in boxes:
            crops.append(face_crop(frame, x, y, BOX_TO_CROP * max(bw, bh)))
            labels.append(v - 1)
    return np.stack(crops), np.array(labels)


def _near(colour, rng: np.random.Generator) -> tuple[int, ...]:
    """A ground of all but ``colour``'s own colour."""
    return tuple(int(c) for c in np.clip(np.array(colour) + rng.integers(-12, 13, 3), 0, 255))


def rendered_scenes(n: int, rng: np.random.Generator, same_ground: bool = False):
    """Rendered trays in the same form as ``load_photos``; with ``same_ground``, some are
    white dice on a white table, where only their shading and shadows show their bodies:
    teaching dots with no body as no face (``with_dots``) must not teach such dice away.
    Those scenes are marked ``"same ground"`` (a third item), and their dice's crops are
    never inverted (``augment``)."""
    out = []
    for k in range(n):
        size = int(rng.uniform(22, 70))
        style = dict(die_size=size, die_colour="mixed", light=rng.uniform(0, 0.6),
                     noise=rng.uniform(0, 6), blur=rng.uniform(0, 1.2), tilt=rng.uniform(0, 0.3),
                     side=rng.uniform(0, 0.4), touching=bool(rng.random() < 0.3),
                     clutter=int(rng.integers(0, 7)),
                     tray_colour=tuple(int(c) for c in rng.integers(40, 230, 3)))
        white_on_white = same_ground and rng.random() < 0.15
        if white_on_white:
            # (White dice only: a light table shows a die's shading and shadow; on a black
            # cloth a black die's white pips show alone, as crumbs or lint would.)
            colour, pip = DIE_COLOURS[0]
            style.update(die_colour=colour, pip_colour=pip, tray_colour=_near(colour, rng))
        elif rng.random() < 0.5:
            colour, pip = DIE_COLOURS[int(rng.integers(len(DIE_COLOURS)))]
            style.update(die_colour=colour, pip_colour=pip)
        logo = int(rng.integers(1, 7)) if rng.random() < 0.3 else None
        if logo:
            style["logo"] = logo
        values = [int(v) for v in rng.integers(1, 7, int(rng.integers(1, 8)))]
        coins = [("heads", "tails")[int(c)] for c in rng.integers(0, 2, int(rng.integers(0, 3)))]
        frame, truth = render_scene(values, coins, seed=int(rng.integers(1 << 30)), **style)
        # A logo face is not a pip face, nor is a coin: they must come out as "not a face".
        dice = [(NOT_A_FACE + 1 if v == logo else v, x, y, size * 1.2) for v, x, y in truth["dice"]]
        dice += [(NOT_A_FACE + 1, x, y, size * 1.2) for _, x, y, _ in truth["coins"]]
        out.append((frame, dice, "same ground") if white_on_white else (frame, dice))
    return out


def slanted_scenes(n: int, rng: np.random.Generator):
    """Rendered trays seen 25-55 degrees from overhead, stretched back as the reader stretches
    a slanted frame (``slant.stretch_for``), in ``load_photos``' form: the top faces, and
    each die's near side (that shows below it, its pips as round as a top face's once the
    frame is stretched) as no face. The dev photos' slanted frames are warps of overhead
    photos, which show no sides: without these, a network taught them reads sides as faces."""
    out = []
    for _ in range(n):
        size = int(rng.uniform(24, 60))
        slant = float(rng.uniform(25, 55))
        style = dict(die_size=size, die_colour="mixed", light=rng.uniform(0, 0.6),
                     noise=rng.uniform(0, 6), blur=rng.uniform(0, 1.2), side=rng.uniform(0, 0.4),
                     slant=slant, clutter=int(rng.integers(0, 4)),
                     tray_colour=tuple(int(c) for c in rng.integers(40, 230, 3)))
        if rng.random() < 0.5:
            colour, pip = DIE_COLOURS[int(rng.integers(len(DIE_COLOURS)))]
            style.update(die_colour=colour, pip_colour=pip)
        values = [int(v) for v in rng.integers(1, 7, int(rng.integers(1, 8)))]
        frame, truth = render_scene(values, seed=int(rng.integers(1 << 30)), **style)
        stretch = 1.0 / math.cos(math.radians(slant))
        frame = cv2.resize(frame, (frame.shape[1], round(frame.shape[0] * stretch)),
                           interpolation=cv2.INTER_LINEAR)
        tops = [(v, x, y * stretch) for v, x, y in truth["dice"]]
        drop = size * math.tan(math.radians(slant))
        dice = [(v, x, y, size * 1.2) for v, x, y in tops]
        for _, x, y in tops:
            sx, sy = x, y + size / 2 + drop * rng.uniform(0.3, 0.7)
            # (a side another die stands on is not seen)
            if all(math.hypot(sx - ox, sy - oy) > size for _, ox, oy in tops):
                dice.append((NOT_A_FACE + 1, sx, sy, size * 1.2))
        out.append((frame, dice))
    return out


def augment(crop: np.ndarray, rng: np.random.Generator, invert: bool = True,
            casts: bool = False) -> np.ndarray:
    """Slant, colour, blur, noise and resolution changes a new table and camera may bring
    (and, with ``invert``, light and dark swapped now and then: a black die's white pips;
    with ``casts``, a camera's white balance gone wrong: ``cast``)."""
    if rng.random() < 0.5:
        # A camera at a slant squashes the top face along one direction.
        a, k = rng.uniform(0, math.pi), rng.uniform(0.65, 1.0)
        c, s_ = math.cos(a), math.sin(a)
        rot = np.array([[c, -s_], [s_, c]])
        m = rot @ np.diag([1.0, k]) @ rot.T
        centre = np.array([CROP_PX / 2, CROP_PX / 2])
        affine = np.hstack([m, (centre - m @ centre)[:, None]])
        crop = cv2.warpAffine(crop, affine, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.7:
        crop = crop[:, :, rng.permutation(3)]
    if rng.random() < 0.15 and invert:   # (drawn either way: a seed gives the same examples)
        crop = 255 - crop
    f = crop.astype(np.float32)
    if casts and rng.random() < 0.5:
        f = f * cast(rng)
    if rng.random() < 0.5:   # a grey-ish or a more saturated camera
        grey = f.mean(axis=2, keepdims=True)
        f = grey + (f - grey) * rng.uniform(0.3, 1.5)
    f = f * rng.uniform(0.6, 1.4) + rng.uniform(-40, 40)
    if rng.random() < 0.3:
        f = 255 * (np.clip(f, 0, 255) / 255) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.35:   # a small, soft webcam image of the die
        s = rng.uniform(0.35, 0.8)
        small = cv2.resize(f, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        f = cv2.resize(small, (CROP_PX, CROP_PX), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.4, 1.3))
    if rng.random() < 0.5:
        f = f + rng.normal(0, rng.uniform(1, 8), f.shape)
    return np.clip(f, 0, 255).astype(np.uint8)


def cast(rng: np.random.Generator) -> np.ndarray:
    """Gains on blue, green and red as a webcam's white balance gone wrong gives them: warmer
    or cooler by up to 20 % each way (the lamp's colour), with a little green or magenta
    (the sensor's). Shuffling channels (``augment``) teaches other dice colours, not this:
    under a cast, white pips and the tray take its tint as well, and a red pip on a white die
    stands out from it less or more than it did."""
    t, g = rng.uniform(-0.2, 0.2), rng.uniform(-0.06, 0.06)
    return np.array([1 + t, 1 + g, 1 - t], np.float32)


def with_specks(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``crop`` (of the bare tray) with one to three pip-like dots near its centre: a dot
    with no die around it is not a 1 (the reader asks the network about lone spots)."""
    crop = crop.copy()
    side = CROP_PX / CROP_FACTOR     # a die's side in the crop
    for k in range(int(rng.choice([1, 1, 2, 3]))):
        off = rng.uniform(-0.05, 0.05, 2) if k == 0 else rng.uniform(-0.35, 0.35, 2)
        cx, cy = CROP_PX / 2 + off * side
        r = side * rng.uniform(0.06, 0.2)
        colour = tuple(int(c) for c in (rng.integers(0, 90, 3) if rng.random() < 0.6 else rng.integers(0, 256, 3)))
        # (drawn at 4x and shrunk: sub-pixel centres and radii)
        cv2.circle(crop, (int(cx * 4), int(cy * 4)), int(r * 4), colour, -1, cv2.LINE_AA, shift=2)
    return cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.3, 0.9))


def with_dots(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``crop`` (of the bare tray) with dots standing as a face's pips do, or strewn like
    crumbs, lint or stars, with no die body around them: pips alone are no face. The dots
    contrast with the ground as pips would (light on a dark cloth, dark on a light one)."""
    crop = crop.copy()
    side = CROP_PX / CROP_FACTOR
    ground = float(crop.mean())
    light = ground < 110 or (ground < 170 and rng.random() < 0.5)
    if rng.random() < 0.6:
        # A face's layout (or a pair at any spacing), turned any way, its dots a little astray.
        # (pips in reading order, as when the shipped weights were trained: the same draws)
        pips = np.array(sorted(PIP_LAYOUT[int(rng.integers(2, 7))], key=lambda p: (p[1], p[0])), np.float64)
        if len(pips) == 2 and rng.random() < 0.5:
            pips = pips * rng.uniform(0.3, 1.6)
        a = rng.uniform(0, 2 * math.pi)
        turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        pts = (pips @ turn.T) * side * rng.uniform(0.17, 0.36) + rng.normal(0, 0.02 * side, pips.shape)
        pts += CROP_PX / 2 + rng.uniform(-0.08, 0.08, 2) * side
        radii = side * rng.uniform(0.05, 0.15) * rng.uniform(0.85, 1.15, len(pts))
    else:
        # Crumbs or a star field: dots of many sizes anywhere.
        n = int(rng.integers(3, 16))
        pts = rng.uniform(0, CROP_PX, (n, 2))
        radii = side * rng.uniform(0.02, 0.14, n)
    base = rng.integers(150, 256) if light else rng.integers(0, 90)
    for (x, y), r in zip(pts, radii):
        shade = int(np.clip(base + rng.normal(0, 20), 0, 255))
        colour = tuple(int(c) for c in np.clip(shade + rng.normal(0, 15, 3), 0, 255))
        cv2.circle(crop, (int(x * 4), int(y * 4)), max(1, int(r * 4)), colour, -1, cv2.LINE_AA, shift=2)
    return cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.3, 1.2))


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.,:-"
_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
          cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN)


def with_print(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``crop`` (of the bare tray) with lines of print over it, at any size, angle and
    stretch: a rulebook, a score pad or a box lid beside the tray. Its letters and dots can
    fall like pips, but it is no face."""
    big = 4 * CROP_PX
    ink = np.zeros((big, big), np.uint8)
    side = big / CROP_FACTOR
    height = side * rng.uniform(0.12, 0.6)          # a letter's height, in die sides
    font = _FONTS[int(rng.integers(len(_FONTS)))]
    scale = height / cv2.getTextSize("H", font, 1.0, 1)[0][1]
    thick = max(1, int(round(scale * rng.uniform(1, 3))))
    y = rng.uniform(-0.5, 1.0) * height
    while y < big + height:
        text = "".join(_LETTERS[int(i)] if rng.random() > 0.18 else " "
                       for i in rng.integers(len(_LETTERS), size=40))
        cv2.putText(ink, text, (int(rng.uniform(-big, 0)), int(y)), font, scale, 255, thick, cv2.LINE_AA)
        y += height * rng.uniform(1.4, 2.2)
    # Turned to any angle and stretched along one axis (a slanted camera, a frame stretched back).
    a, k = rng.uniform(0, 180), rng.uniform(0.5, 2.0)
    m = np.diag([1.0, k]) @ cv2.getRotationMatrix2D((big / 2, big / 2), a, 1.0 / 4)
    m[:, 2] = CROP_PX / 2 - m[:, :2] @ (big / 2, big / 2)
    alpha = cv2.warpAffine(ink, m, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
    colour = rng.integers(0, 80, 3) if rng.random() < 0.7 else rng.integers(0, 256, 3)
    out = crop.astype(np.float32) * (1 - alpha) + colour.astype(np.float32) * alpha
    return np.clip(out, 0, 255).astype(np.uint8)


def edge_points(img: np.ndarray) -> np.ndarray:
    """Points (x, y) on the edges of ``img``: where "not a face" examples with edges come from."""
    ys, xs = np.nonzero(cv2.Canny(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), 60, 150))
    return np.stack([xs, ys], axis=1)[::7].astype(np.float64)


def examples(scenes, edges, rng: np.random.Generator, per_die: int, negatives: float,
             desk: bool = False, dots: bool = False, casts: bool = False):
    """One epoch of (crops N x 48 x 48 x 3 uint8, labels N) drawn from ``scenes`` (with
    ``edges``, each scene's ``edge_points``); with ``desk``, some of the bare tray carries
    print (``with_print``) as well as dots (``with_specks``); with ``dots``, also dots as a
    face's pips stand, or crumbs or stars (``with_dots``); with ``casts``, crops tinted as
    by a camera's white balance gone wrong (``cast``). A scene marked ``"same ground"``
    (``rendered_scenes``) has its dice's crops never inverted."""
    crops, labels = [], []
    for scene, edges in zip(scenes, edges):
        img, dice = scene[:2]
        # (A white die on a white table, inverted, is white dots on a black cloth: no die.)
        invert = len(scene) < 3 or scene[2] != "same ground"
        if not dice:
            continue
        h, w = img.shape[:2]
        boxes = np.array([d[3] for d in dice])
        centres = np.array([(d[1], d[2]) for d in dice])
        for value, x, y, box in dice:
            for _ in range(per_die):
                c = BOX_TO_CROP * box * math.exp(rng.uniform(-0.3, 0.3))
                dx, dy = rng.uniform(-0.07, 0.07, 2) * c
                crop = face_crop(img, x + dx, y + dy, c, rng.uniform(0, 360))
                if rng.random() < 0.5:
                    crop = crop[:, ::-1]
                crops.append(augment(crop, rng, invert, casts))
                labels.append(value - 1)
        for _ in range(int(round(negatives * len(dice) * per_die))):
            box = float(np.median(boxes)) * math.exp(rng.uniform(-0.3, 0.3))
            kind = rng.random()
            if kind < 0.4:
                # Half a die, or the gap between two: off the face centre by half a side or more.
                k = int(rng.integers(len(dice)))
                a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.45, 0.9) * box
                x, y = centres[k] + r * np.array([math.cos(a), math.sin(a)])
            elif kind < 0.75 and len(edges):
                # Something with edges that is not a die: lines of text, a pencil, the tray's wall.
                x, y = edges[int(rng.integers(len(edges)))]
            else:
                x, y = rng.uniform(0, w), rng.uniform(0, h)
            if (np.hypot(*(centres - (x, y)).T) < 0.4 * boxes).any():
                continue
            crop = face_crop(img, x, y, BOX_TO_CROP * box, rng.uniform(0, 360))
            if kind >= 0.75:
                extra = rng.random()
                if extra < (0.4 if desk else 0.5):
                    crop = with_specks(crop, rng)
                elif desk and extra < 0.6:
                    crop = with_print(crop, rng)
                elif dots and extra < (0.8 if desk else 0.7):
                    crop = with_dots(crop, rng)
            crops.append(augment(crop, rng, casts=casts))
            labels.append(NOT_A_FACE)
    return np.stack(crops), np.array(labels, np.int64)


def build_model(channels=(16, 32, 64), hidden=96):
    import torch.nn as nn

    def conv(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    # 48 -> 24 -> 12 -> 6: the last map still has the 3x3 pip grid's layout in it. About 17
    # million multiply-adds a view (about 2.2 ms on one core here, a few times that on a Pi).
    # Half as wide, (12, 24, 40) and 64, costs half but was sure of fewer faces it read
    # right: crop accuracy 97.8 % against 99.2-99.5 % on the held-out dev photos.
    a, b, c = channels
    return nn.Sequential(*conv(3, a), nn.MaxPool2d(2),
                         *conv(a, b), *conv(b, b), nn.MaxPool2d(2),
                         *conv(b, c), *conv(c, c), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Dropout(0.3), nn.Linear(c * 6 * 6, hidden), nn.ReLU(), nn.Linear(hidden, 7))


def load_onnx(model, path: str) -> None:
    """Set ``model`` (``build_model``'s shape) to the weights exported to ``path``. The
    export folds each batch norm into its convolution, so each batch norm is set to pass
    its input through with the folded bias added, and must stay in eval mode."""
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(path).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    layers = [(n.input[1], n.input[2]) for n in graph.node if n.op_type in ("Conv", "Gemm")]
    convs = [m for m in model if isinstance(m, torch.nn.Conv2d)]
    batch_norms = [m for m in model if isinstance(m, torch.nn.BatchNorm2d)]
    denses = [m for m in model if isinstance(m, torch.nn.Linear)]
    if len(layers) != len(convs) + len(denses):
        raise ValueError(f"{path} is not a network of this shape")
    with torch.no_grad():
        for (w, b), conv, bn in zip(layers, convs, batch_norms):
            conv.weight.copy_(torch.from_numpy(weights[w].copy()))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(weights[b].copy()))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        for (w, b), dense in zip(layers[len(convs):], denses):
            dense.weight.copy_(torch.from_numpy(weights[w].copy()))
            dense.bias.copy_(torch.from_numpy(weights[b].copy()))


def accuracy(model, crops, labels) -> tuple[float, np.ndarray]:
    import torch
    model.eval()
    with torch.no_grad():
        logits = model(torch.from_numpy(normalise(crops)))
    pred = logits.argmax(1).numpy()
    conf = np.zeros((7, 7), int)
    for t, p in zip(labels, pred):
        conf[t, p] += 1
    return float((pred == labels).mean()), conf


def main(argv=None) -> int:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--holdout", type=int, default=0, help="keep every K-th photo out (0: none)")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--rendered", type=int, default=250, help="rendered trays to add")
    ap.add_argument("--slanted", type=int, default=0, metavar="N", help="also train on N rendered "
                    "trays seen at a slant, their dice's near sides as no face (slanted_scenes)")
    ap.add_argument("--dots", action="store_true", help="also teach dots with no die body "
                    "(pips' layouts, crumbs, lint, stars) as no face (with_dots)")
    ap.add_argument("--same-ground", action="store_true", help="render some trays as white "
                    "dice on a white table (rendered_scenes)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--channels", default="16,32,64", help="widths of the three conv stages")
    ap.add_argument("--hidden", type=int, default=96, help="width of the hidden dense layer")
    ap.add_argument("--start", help="go on from these weights (ONNX, as exported here) "
                    "instead of from scratch")
    ap.add_argument("--lr", type=float, default=2e-3, help="the learning rate to start at")
    ap.add_argument("--desk", action="store_true", help="also teach print (a rulebook, a score "
                    "pad beside the tray) as no face")
    ap.add_argument("--casts", action="store_true", help="tint half the crops as a camera's "
                    "white balance gone wrong does (cast)")
    ap.add_argument("--webcam", type=int, default=0, metavar="K", help="also train on K webcam "
                    "frames of each training photo (slanted, small, JPEG-compressed)")
    ap.add_argument("--wide", type=int, default=0, metavar="K", help="also train on K frames of each "
                    "training photo through a wide webcam near the tray, seen steeply (WIDE_TILTS)")
    ap.add_argument("--recolour", type=float, default=0.0, metavar="P", help="with --webcam: shuffle "
                    "a webcam frame's colour channels before its JPEG, with this chance")
    args = ap.parse_args(argv)
    torch.manual_seed(args.seed)
    # One thread: on a shared two-core machine, two threads wait on each other more than they help.
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    photos = load_photos(args.photos)
    held = photos[::args.holdout] if args.holdout else []
    train = [p for k, p in enumerate(photos) if not args.holdout or k % args.holdout]
    train += rendered_scenes(args.rendered, rng, same_ground=args.same_ground)
    if args.webcam:
        train += webcam_views(args.photos, args.holdout, args.webcam, rng, recolour=args.recolour)
    if args.slanted:
        train += slanted_scenes(args.slanted, rng)
    if args.wide:
        train += webcam_views(args.photos, args.holdout, args.wide, rng, WIDE_TILTS, WIDE_DISTANCES)
    edges = [edge_points(scene[0]) for scene in train]
    print(f"{len(train)} training scenes, {len(held)} held-out photos")
    if held:
        vx, vy = [], []
        for img, dice in held:
            for v, x, y, box in dice:
                vx.append(face_crop(img, x, y, BOX_TO_CROP * box))
                vy.append(v - 1)
        vx, vy = np.stack(vx), np.array(vy)
        wx, wy = webcam_crops(args.photos, args.holdout)
    model = build_model(tuple(int(c) for c in args.channels.split(",")), args.hidden)
    if args.start:
        load_onnx(model, args.start)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    lossf = torch.nn.CrossEntropyLoss(label_smoothing=0.02)
    for epoch in range(args.epochs):
        t0 = time.time()
        x, y = examples(train, edges, rng, per_die=3, negatives=0.5, desk=args.desk, dots=args.dots,
                        casts=args.casts)
        x, y = torch.from_numpy(normalise(x)), torch.from_numpy(y)
        model.train()
        if args.start:
            # (the batch norms hold the folded biases, not statistics: they stay as they are)
            for m in model:
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.eval()
        order = torch.randperm(len(y))
        total = 0.0
        for i in range(0, len(y), 128):
            b = order[i:i + 128]
            opt.zero_grad()
            loss = lossf(model(x[b]), y[b])
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(b)
        sched.step()
        msg = f"epoch {epoch + 1}: {len(y)} crops, loss {total / len(y):.4f}, {time.time() - t0:.0f} s"
        if held:
            acc, _ = accuracy(model, vx, vy)
            acc_web, _ = accuracy(model, wx, wy)
            msg += f", held-out crop accuracy {100 * acc:.2f} % (as webcam frames {100 * acc_web:.2f} %)"
        print(msg, flush=True)
    if held:
        acc, conf = accuracy(model, vx, vy)
        print("held-out confusion (rows: true 1-6; columns: 1-6, not a face):")
        print(conf[:6])
    model.eval()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, CROP_PX, CROP_PX), args.out, dynamo=False,
                      input_names=["crops"], output_names=["logits"], opset_version=11,
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}})
    print(f"wrote {args.out} ({os.path.getsize(args.out) / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
