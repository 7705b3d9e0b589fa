"""Reading coins: ``read_coins(frame, calibration) -> CoinReading``.

Coins are round blobs that stand out from the tray (an underexposed frame brightened
first, as for the dice: ``segment.even_exposure``). Which face is up is told apart by a
rotation-invariant description of the coin's face (brightness and edge density in rings
from the centre, and how much each ring varies around the circle), compared with what
``calibrate_coins`` learnt from a few photos of each face of the user's coin. Real coins
differ by country, so there is no built-in coin: without a calibration every coin found is
reported as uncertain. A coin on edge or tilted (an ellipse under ``FLAT_RATIO`` as wide as
long; an ellipse fills pi/4 of its box, where a die fills nearly all of it) and coins lying
on one another (a blob that two or three discs of one size cover, where any disc that fits
in a die leaves its corners) are reported as uncertain too, unless the dice reader reads a
die there (dice may lie in the tray while coins are flipped, and a rounded die with its
shadow is nearly as round as a coin).

A camera at a slant squashes every coin lying flat into the same ellipse. Coins are read in
the frame stretched back until they are round, as the dice are: by the slant ``companion
calibrate`` measured (the calibration's ``stretch``), or else by the one ``calibrate_coins``
measured from the coins in its photos (``model["stretch"]``), which are taken with the
camera in place. A coin still an ellipse (no slant measured, or a perspective, whose far
coins are flatter than its near ones) is made round before its face is described. Within
the calibration's tray region only, if it has one.
"""

from __future__ import annotations

import math
from typing import Sequence

import cv2
import numpy as np

from .calibration import Calibration, CalibrationError
from .segment import blob_outlines, crop_to_tray, even_exposure, foreground_mask, working_image
from .types import Coin, CoinReading, Uncertain

PATCH = 64      # coins are compared at this size (px across)
RINGS = 6
# A coin seen as an ellipse at least this wide for its length lies flat and shows its face
# (a camera 53 degrees from overhead squashes it so); a narrower one is on edge or tilted.
FLAT_RATIO = 0.6


def find_coin_blobs(img: np.ndarray) -> tuple[list[tuple[float, float, float, float, float]], list[Uncertain]]:
    """The coins lying flat, as ellipses ``(x, y, r, squash, angle)`` in working-image
    pixels (``r`` the long semi-axis, the short one ``squash`` times it, along ``angle``
    radians: a round coin (r, 1.0, 0.0); an ellipse at least ``FLAT_RATIO`` as wide as
    long, a coin seen at a slant the frame's stretch did not undo, as a perspective leaves
    the far coins flatter than the near ones), and coin-like blobs that cannot be read: a
    coin on edge or tilted (a narrower ellipse), and coins lying on one another (a blob that
    discs of one size cover, two or more of them). Dice, square, are neither."""
    mask = foreground_mask(img)
    contours = blob_outlines(mask, cv2.CHAIN_APPROX_NONE)
    side = min(img.shape[:2])
    circles, odd = [], []
    for c in contours:
        area = cv2.contourArea(c)
        if not _coin_sized(area, side):
            continue
        (x, y), r = cv2.minEnclosingCircle(c)
        hull = cv2.convexHull(c)
        solidity = area / max(cv2.contourArea(hull), 1e-6)
        # Roundness from the hull's perimeter: a JPEG's blocks and a soft lens make the
        # outline ragged, which lengthens its own perimeter but not its hull's.
        per = cv2.arcLength(hull, True)
        circularity = 4 * math.pi * area / max(per * per, 1e-6)
        fill = area / (math.pi * r * r)
        if circularity > 0.85 and fill > 0.8 and solidity > 0.9:
            circles.append((x, y, math.sqrt(area / math.pi), 1.0, 0.0))
            continue
        (bx, by), (bw, bh), _ = cv2.minAreaRect(c)
        ratio = min(bw, bh) / max(bw, bh, 1e-6)
        # An ellipse fills pi/4 of its box; a die (a rounded square), or two side by side,
        # nearly all of it.
        elliptical = area < 0.84 * bw * bh and solidity > 0.9
        if _discs_covering(c) >= 2:
            odd.append(Uncertain(x, y, "overlapping coins"))
        elif elliptical and ratio >= FLAT_RATIO:
            (ex, ey), (ew, eh), deg = cv2.fitEllipse(c)
            # (the long axis: OpenCV's angle is the first axis's)
            along = math.radians(deg if ew >= eh else deg + 90)
            circles.append((ex, ey, max(ew, eh) / 2, min(ew, eh) / max(ew, eh, 1e-6), along))
        elif elliptical and ratio > 0.15:
            odd.append(Uncertain(bx, by, "coin on edge or tilted"))
    return circles, odd


def _coin_sized(area: float, side: int) -> bool:
    """True for a blob of ``area`` px the size a coin may be in a frame ``side`` px high
    (3 px in radius at least: a face smaller than that shows nothing to read)."""
    return max(side / 60, 3.0) ** 2 * math.pi <= area <= (side / 4) ** 2 * math.pi


def _discs_covering(contour: np.ndarray) -> int:
    """How many discs of one size (within a fifth) cover the blob of ``contour`` all but its
    last 8 %, each centred where the blob is widest among what the others leave: 2-3 for
    coins lying on one another, 0 for anything else (a die's corners stay uncovered by
    any disc that fits in it)."""
    x, y, w, h = cv2.boundingRect(contour)
    blob = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(blob, [contour], -1, 1, cv2.FILLED, offset=(1 - x, 1 - y))
    depth = cv2.distanceTransform(blob, cv2.DIST_L2, 5)
    left = blob.astype(bool)
    total = int(left.sum())
    radius = None
    for n in range(1, 4):
        d = np.where(left, depth, 0)
        cy, cx = np.unravel_index(int(np.argmax(d)), d.shape)
        r = float(depth[cy, cx])
        if radius is None:
            radius = r
        elif r < 0.8 * radius:
            return 0
        disc = np.zeros_like(blob)
        cv2.circle(disc, (int(cx), int(cy)), int(round(r)) + 1, 1, -1)
        left &= ~disc.astype(bool)
        if left.sum() <= 0.08 * total:
            return n
    return 0


def coin_features(img: np.ndarray, x: float, y: float, r: float, squash: float = 1.0,
                  angle: float = 0.0) -> np.ndarray:
    """Rotation-invariant description of the coin face at (x, y, r), an ellipse ``squash``
    as wide as long along ``angle`` (``find_coin_blobs``) made round."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    s = PATCH / (2 * r)
    # Turned so the long axis lies along x, then scaled round: s along it, s / squash across.
    ca, sa = math.cos(angle), math.sin(angle)
    a = np.array([[s * ca, s * sa], [-s / squash * sa, s / squash * ca]])
    t = PATCH / 2 - a @ np.array([x, y])
    M = np.float32([[a[0, 0], a[0, 1], t[0]], [a[1, 0], a[1, 1], t[1]]])
    patch = cv2.warpAffine(grey, M, (PATCH, PATCH), flags=cv2.INTER_AREA,
                           borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    yy, xx = np.mgrid[0:PATCH, 0:PATCH] - (PATCH - 1) / 2
    rad = np.hypot(xx, yy) / (PATCH / 2)
    ang = np.arctan2(yy, xx)
    inside = rad < 0.92
    # Normalise brightness and contrast: lighting must not decide the face.
    vals = patch[inside]
    patch = (patch - vals.mean()) / (vals.std() + 1e-3)
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1)
    grad = np.hypot(gx, gy)
    feats = []
    edges = np.linspace(0, 0.92, RINGS + 1)
    for a, b in zip(edges[:-1], edges[1:]):
        ring = (rad >= a) & (rad < b)
        feats += [float(patch[ring].mean()), float(patch[ring].std()), float(grad[ring].mean())]
        # How the ring varies around the circle: magnitudes of its first angular harmonics.
        bins = np.bincount(((ang[ring] + math.pi) / (2 * math.pi) * 16).astype(int) % 16,
                           weights=patch[ring], minlength=16) / \
            np.maximum(np.bincount(((ang[ring] + math.pi) / (2 * math.pi) * 16).astype(int) % 16,
                                   minlength=16), 1)
        spec = np.abs(np.fft.rfft(bins))[1:4] / 16
        feats += [float(v) for v in spec]
    return np.array(feats, np.float32)


def _coin_view(frame: np.ndarray, stretch=None, tray=None):
    """``frame`` as coins are read in it: at the working size, cut to the ``tray`` region,
    brightened (``even_exposure``) and stretched back from the camera's slant by
    ``stretch`` [fx, fy]; and the function taking (x, y, r) there to the frame's pixels."""
    img, scale = working_image(frame)
    offset = (0, 0)
    if tray is not None:
        img, offset = crop_to_tray(img, tray)
    # (a dim room's coins stand out from the tray as little as its dice: brightened alike)
    img = even_exposure(img)
    sx, sy = (float(v) for v in stretch) if stretch else (1.0, 1.0)
    if (sx, sy) != (1.0, 1.0):
        img = cv2.resize(img, (round(img.shape[1] * sx), round(img.shape[0] * sy)),
                         interpolation=cv2.INTER_LINEAR)

    def to_frame(x: float, y: float, r: float = 0.0) -> tuple[float, float, float]:
        # (a radius as the coin's longest, unsquashed, extent in the frame)
        return (x / sx + offset[0]) / scale, (y / sy + offset[1]) / scale, r / min(sx, sy) / scale

    return img, to_frame


def measure_slant(frames: Sequence[np.ndarray]) -> list[float] | None:
    """The stretch [fx, fy] that makes the coins lying flat in ``frames`` round again (a
    camera at a slant squashes each into the same upright ellipse, whichever way the coin
    is turned), or None when they are round already (within 5 %) or no coin shows. The
    median over every coin-like blob: a coin on edge among them does not sway it."""
    tall = []
    for frame in frames:
        img, _ = _coin_view(frame)
        mask = foreground_mask(img)
        side = min(img.shape[:2])
        for c in blob_outlines(mask, cv2.CHAIN_APPROX_NONE):
            area = cv2.contourArea(c)
            if not _coin_sized(area, side):
                continue
            hull = cv2.convexHull(c)
            if area < 0.9 * cv2.contourArea(hull):
                continue   # not one convex blob (coins on one another, a hand)
            _, _, w, h = cv2.boundingRect(c)
            tall.append(h / w)
    if not tall:
        return None
    ratio = float(np.median(tall))
    if 0.95 <= ratio <= 1.05:
        return None
    stretch = [1.0, round(1.0 / ratio, 3)] if ratio < 1 else [round(ratio, 3), 1.0]
    return stretch if max(stretch) <= 3.0 else None


def calibrate_coins(heads: Sequence[np.ndarray], tails: Sequence[np.ndarray],
                    stretch: Sequence[float] | None = None) -> dict:
    """Learn a coin's two faces from photos (each showing one or more coins of that face),
    taken with the camera in place. Returns the ``coin`` section of a Calibration, with the
    slant it read the coins at (``stretch``: the setup's, as ``companion calibrate``
    measured it; else measured from the coins themselves). Raises CalibrationError if a
    photo holds no coin."""
    if stretch is None:
        stretch = measure_slant([*heads, *tails])
    samples = {}
    for face, frames in (("heads", heads), ("tails", tails)):
        feats = []
        for k, frame in enumerate(frames):
            img, _ = _coin_view(frame, stretch)
            circles, _ = find_coin_blobs(img)
            if not circles:
                raise CalibrationError(f"no coin found in {face} photo #{k + 1}")
            feats += [coin_features(img, *c) for c in circles]
        if not feats:
            raise CalibrationError(f"no {face} photos given")
        samples[face] = np.array(feats)
    allf = np.vstack([samples["heads"], samples["tails"]])
    scale = allf.std(axis=0) + 0.05
    return {"heads": samples["heads"].mean(axis=0).astype(np.float64).round(4).tolist(),
            "tails": samples["tails"].mean(axis=0).astype(np.float64).round(4).tolist(),
            "scale": scale.astype(np.float64).round(4).tolist(),
            "spread": float(max(_dist(f, samples[face].mean(axis=0), scale)
                                for face in samples for f in samples[face])),
            "stretch": [float(v) for v in stretch] if stretch else [1.0, 1.0]}


def _dist(a, b, scale) -> float:
    return float(np.sqrt(np.mean(((np.asarray(a) - np.asarray(b)) / scale) ** 2)))


def read_coins(frame: np.ndarray, calibration: Calibration | None) -> CoinReading:
    """Find every coin in ``frame`` and say which face is up (needs a coin calibration)."""
    model = calibration.coin if calibration is not None else None
    # The slant the setup calibration measured, else the one the coin was learnt at.
    stretch = calibration.stretch if calibration is not None else None
    if stretch is None and model:
        stretch = model.get("stretch")
    img, to_frame = _coin_view(frame, stretch, calibration.tray if calibration is not None else None)
    circles, odd = find_coin_blobs(img)
    reading = CoinReading()
    for u in odd:
        X, Y, _ = to_frame(u.x, u.y)
        reading.uncertain.append(Uncertain(X, Y, u.reason))
    for x, y, r, squash, angle in circles:
        X, Y, R = to_frame(x, y, r)
        if not model:
            reading.uncertain.append(Uncertain(X, Y, "no coin calibration (run: companion coins calibrate)"))
            continue
        try:
            f = coin_features(img, x, y, r, squash, angle)
            sc = np.asarray(model["scale"], np.float32)
            dh = _dist(f, model["heads"], sc)
            dt = _dist(f, model["tails"], sc)
        except (KeyError, ValueError, TypeError) as exc:
            raise CalibrationError(f"the coin calibration is damaged: {exc}") from exc
        near, far = min(dh, dt), max(dh, dt)
        limit = 2.5 * max(float(model.get("spread", 1.0)), 0.5)
        if near > limit:
            reading.uncertain.append(Uncertain(X, Y, "does not look like the calibrated coin"))
            continue
        margin = (far - near) / max(far, 1e-6)
        if margin < 0.2:
            reading.uncertain.append(Uncertain(X, Y, "heads and tails look alike here"))
            continue
        reading.coins.append(Coin("heads" if dh < dt else "tails", X, Y, R, round(min(1.0, 0.5 + margin), 3)))
    return _without_dice(frame, calibration, reading)


# Why a blob is reported that may be a die rather than a coin (a rounded die with its shadow
# is nearly as round as a coin, and two side by side as long as a coin on edge).
_NOT_THE_COIN = frozenset({"does not look like the calibrated coin", "coin on edge or tilted",
                           "overlapping coins"})


def _without_dice(frame: np.ndarray, calibration: Calibration | None, reading: CoinReading) -> CoinReading:
    """``reading`` without the blobs it doubts that are dice: where the dice reader reads a
    die (Down-in-one Street's dice may lie in the tray while its coins are flipped). The
    dice reader runs only when such a blob was reported."""
    doubted = [u for u in reading.uncertain if u.reason in _NOT_THE_COIN]
    if not doubted:
        return reading
    from .dice import read_dice
    dice = read_dice(frame, calibration)
    if not dice.dice:
        return reading
    near = 0.75 * (dice.die_side or 0.0)
    reading.uncertain = [u for u in reading.uncertain if u.reason not in _NOT_THE_COIN
                         or not any(math.hypot(u.x - d.x, u.y - d.y) < near for d in dice.dice)]
    return reading
