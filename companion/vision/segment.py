"""Finding die-like and coin-like regions: things that stand out from the tray.

The tray (or table) is estimated as a heavily smoothed version of the frame itself, so no
background frame and no colour of the tray is needed; anything whose colour differs clearly
from that local background is foreground. A calibration may supply the tray region. An
underexposed frame is brightened first (``even_exposure``); one the dice are read in is
first made neutral too, where it has a colour cast (``neutral_balance``).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# Longest side of the image the readers work on: big enough that a die in a 12 MP photo of a
# tray keeps ~10 px pips, small enough to stay fast. Smaller frames are used as they are.
WORK_SIDE = 1000

# The level the brightest things in a frame are brought up to, at least (``even_exposure``):
# the reader's contrast thresholds were set on frames whose bright tray or dice reach it.
BRIGHT_LEVEL = 180.0
# The share of a frame under which its brightest few things lie (``even_exposure``): a die's
# white face or the pips of a few dice, which on a dark tray are a percent of the frame or
# less. (Rendered felt trays of 2-7 dice, seen 55 degrees from overhead, medians: the 99th
# percentile 143, the felt's; this one 236, the dice's. A glint is far less than a
# thousandth of a frame.)
FEW_BRIGHTEST = 0.999
# The most an underexposed frame is brightened (beyond it, it is mostly noise).
MAX_GAIN = 2.5
# A colour cast (``neutral_balance``). A frame's pale things are those at least
# PALE_BRIGHTNESS as bright as its brightest things (the 99th percentile of each pixel's
# brightest channel: a glint does not count) whose channels differ by a factor of MAX_CAST
# at most (more is a colour, not a tint: a wooden table, a felt, a yellow die). They show a
# cast where they are MIN_PALE of the frame or more, no more than NEUTRAL_SHARE of them are
# white still (their channels within MIN_CAST), and their median colour's channels differ
# by MIN_CAST or more. A grey tray is seldom quite grey: the dev photos' differs by
# 1.02-1.05 as webcam frames (none of the 250 is balanced, in any of seven views), the
# renderer's by 1.10; through a webcam whose white balance is 12-15 % off, the dev photos'
# by 1.23-1.41, and 8 % off, 1.12-1.15.
MIN_CAST = 1.12
MAX_CAST = 1.5
PALE_BRIGHTNESS = 0.7
MIN_PALE = 0.01
NEUTRAL_SHARE = 0.25
# A thing off the tray whose colour steps less than this from the tray's (in ``colour_space``
# distance) has too faint an edge to tell how soft the frame is by (``edge_softness``).
MIN_EDGE_STEP = 30.0


def working_image(frame: np.ndarray, work_side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
    """The frame as 3-channel BGR uint8 at most ``work_side`` px long, and the scale used."""
    if frame is None or not hasattr(frame, "ndim") or frame.size == 0:
        raise ValueError("empty or missing image")
    img = frame
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.shape[2] == 4:
        img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    if img.dtype == np.uint16:
        img = (img >> 8).astype(np.uint8)   # a 16-bit PNG or raw frame, to its top 8 bits
    elif img.dtype != np.uint8:
        img = np.clip(img, 0, 255).astype(np.uint8)
    scale = min(1.0, work_side / max(img.shape[:2]))
    if scale < 1.0:
        h, w = img.shape[:2]
        if min(h, w) * scale < 1.5:
            # A strip a pixel or two wide would shrink to nothing: keep it one pixel wide.
            img = cv2.resize(img, (max(1, round(w * scale)), max(1, round(h * scale))),
                             interpolation=cv2.INTER_AREA)
        else:
            img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return img, scale


def crop_to_tray(img: np.ndarray, tray) -> tuple[np.ndarray, tuple[int, int]]:
    """The part of ``img`` inside a calibration's ``tray`` ([x, y, w, h] as fractions), and
    its top-left corner; the whole image where that part would be under 16 px."""
    h, w = img.shape[:2]
    x0, y0 = int(tray[0] * w), int(tray[1] * h)
    x1, y1 = int((tray[0] + tray[2]) * w), int((tray[1] + tray[3]) * h)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 16 or y1 - y0 < 16:
        return img, (0, 0)
    return img[y0:y1, x0:x1], (x0, y0)


def even_exposure(img: np.ndarray) -> np.ndarray:
    """The frame brightened, if its brightest things (the 99th percentile of each pixel's
    brightest channel: a glint does not count), and even its brightest few
    (``FEW_BRIGHTEST``), are below ``BRIGHT_LEVEL``, by the gain that brings the former
    there (at most ``MAX_GAIN``).

    A webcam exposes for the whole scene, and a dim room or a dark table leaves a white
    tray grey: every contrast on it (pip on face, die on tray) shrinks by the same factor,
    below the fixed thresholds the reader uses. A gain, as a longer exposure would give,
    brings them back. Frames already that bright are returned as they are; so are frames
    of a dark tray whose few dice are that bright (their brightest few things), which the
    99th percentile, the felt's, takes for underexposed. Brightened, such a frame's dice
    clip, their lit tops and shaded near sides alike, and the reader took a near side for a
    top, or read no top at all. Rendered felt trays (black, green, blue, wine), 2-7 dice
    through a 60-degree webcam (``vision_renders.py --tables felt``, 240 frames at 40 and 55
    degrees): read right 1,011 -> 1,020 of 1,072, wrong 5 -> 2; 80 more at 55 degrees, mixed
    dice: 327 -> 339 of 360, wrong or where none lies 17 -> 10. The moon on a black sky
    (``vision_no_dice.py``) is no longer read as a 1 at 0.96. But the grey tray and wooden
    table renders (``vision_renders.py``, set 1000) read 2 more wrong (8 -> 10, as many
    right), near sides of dark dice on wood at 55 degrees that the brightened frame had
    told apart. Underexposed dev photos (all 250 as 640x480 frames at 0.6 and 0.4 of their
    light, squeezed, at 40 and at 55 degrees) have their brightest few at 141 at most, and
    are brightened as before."""
    below = _cumulative(_sampled(img)[1])
    middle, level, few = (_share_level(below, share) for share in (0.5, 0.99, FEW_BRIGHTEST))
    # (A frame mostly far darker than its brightest things, a night sky or a black cloth,
    # is dark, not underexposed: brightening it only raises its specks to pips. The few
    # brightest are at least as bright as the 99th percentile: one test stands for both.)
    if few >= BRIGHT_LEVEL or middle < 0.5 * level:
        return img
    return cv2.convertScaleAbs(img, alpha=min(MAX_GAIN, BRIGHT_LEVEL / max(level, 1.0)))


def neutral_balance(img: np.ndarray) -> np.ndarray:
    """The frame with its colour cast undone, where its pale things show one (``MIN_CAST``):
    each channel scaled so that their median colour comes out grey, at its middle channel's
    level (the frame about as bright as it was); otherwise the frame as it is.

    A webcam's white balance is often off (set for lamps in daylight, or misled by a scene
    of one colour), and a lamp tints the scene too; the white things in view (a white or
    grey tray, white dice) then show the cast. The reader's colour thresholds (a die's body
    against the tray, pips against their die) and the face network were set on frames of a
    near-grey tray, and a cast moves marginal dice across them: all 250 dev photos as
    640x480 frames from a 60-degree webcam 40 degrees from overhead, JPEG 80, three looks,
    read 1,672 dice right and 7 wrong; 15 % cool, 1,620 and 8, and balanced 1,675 and 9;
    15 % warm, 1,673 and 3 -> 1,682 and 6; 12 % green, 1,641 and 8 -> 1,664 and 12; 12 %
    magenta, 1,670 and 9 -> 1,689 and 12; 8 % cool, 1,656 and 12 -> 1,667 and 10. From a
    53-degree webcam 55 degrees from overhead, 1,614 and 9; 15 % cool, 1,528 and 11 ->
    1,599 and 16; 15 % warm, 1,586 and 11 -> 1,608 and 17. (The channels scaled to the
    brightest's level instead, or to the dimmest's: 1,676 and 11, 1,675 and 12 at 40
    degrees cool; 1,606 and 17, 1,583 and 20 at 55.)"""
    channels, top = _sampled(img)
    low = cv2.min(cv2.min(channels[0], channels[1]), channels[2]).astype(np.float32)
    pale = (top >= PALE_BRIGHTNESS * _share_level(_cumulative(top), 0.99)) & (low * MAX_CAST >= top)
    count = np.count_nonzero(pale)
    # (A cast tints every white thing: where some are white still, the tinted ones are
    # coloured things, a pale wood's grain beside a white die.)
    if count < MIN_PALE * top.size or np.count_nonzero(pale & (low * MIN_CAST > top)) > NEUTRAL_SHARE * count:
        return img
    levels = np.array([max(1.0, float(np.median(c[pale]))) for c in channels])
    if levels.max() < MIN_CAST * levels.min():
        return img
    gains = np.sort(levels)[1] / levels
    # (one lookup table per channel: cheaper than multiplying the frame)
    table = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains.astype(np.float32) + 0.5, 0, 255)
    return cv2.LUT(img, table.astype(np.uint8).reshape(256, 1, 3))


def _sampled(img: np.ndarray) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """The channels of every 4th pixel each way of ``img``, and each such pixel's brightest
    channel: they tell its percentiles as well as all of them do, picked at a tenth of the
    cost of averaging them down."""
    channels = cv2.split(cv2.resize(img, (max(1, img.shape[1] // 4), max(1, img.shape[0] // 4)),
                                    interpolation=cv2.INTER_NEAREST))
    return channels, cv2.max(cv2.max(channels[0], channels[1]), channels[2])


def _cumulative(channel: np.ndarray) -> np.ndarray:
    """How many of ``channel``'s pixels are at each level (0-255) or below (a histogram
    tells percentiles faster than a sort)."""
    return cv2.calcHist([channel], [0], None, [256], [0, 256]).ravel().cumsum()


def _share_level(below: np.ndarray, share: float) -> float:
    """The level under which ``share`` of the pixels counted in ``below`` (``_cumulative``) lie."""
    return float(np.searchsorted(below, share * below[-1]))


def background(img: np.ndarray) -> np.ndarray:
    """The tray as it would look without the dice: a median over a window wider than a die."""
    h, w = img.shape[:2]
    small_side = 96
    f = small_side / max(h, w)
    # (Halved first where that leaves it well over the small size: area averaging by a whole
    # factor is several times faster than by a fraction, and the median below evens out
    # the slight difference; a strip a pixel wide is not halved to nothing.)
    halve = f < 0.3 and min(h, w) > 1
    src = cv2.resize(img, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA) if halve else img
    small = cv2.resize(src, (max(8, round(w * f)), max(8, round(h * f))), interpolation=cv2.INTER_AREA)
    bg = cv2.medianBlur(small, 15)
    bg = cv2.blur(bg, (5, 5))
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


# Lightness and two opponent colour axes (a cheap stand-in for Lab: one matrix product, in
# uint8 with the opponent axes offset by 128). Lightness is weighted down because shading
# and soft shadows change lightness more than hue.
_OPPONENT = np.float32([[0.25, 0.25, 0.25, 0.0],      # B, G, R -> lightness * 0.75
                        [0.0, -0.5, 0.5, 128.0],      # red - green
                        [-0.5, 0.25, 0.25, 128.0]])   # yellow - blue


def colour_space(img: np.ndarray) -> np.ndarray:
    """uint8 image in which Euclidean distance tracks how different two colours look."""
    return cv2.transform(img, _OPPONENT)


def colour_difference(img: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """Per-pixel colour distance (float32) between the image and the background."""
    return cv2.sqrt(_distance2(colour_space(img), colour_space(bg)))


def _distance2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Squared Euclidean distance (float32, exact: whole numbers below 2**24) between two
    3-channel uint8 images, one channel at a time (a 3-channel float temporary costs more
    than the arithmetic)."""
    d = cv2.split(cv2.absdiff(a, b))
    dist2 = cv2.multiply(d[0], d[0], dtype=cv2.CV_32F)
    cv2.accumulateSquare(d[1], dist2)
    cv2.accumulateSquare(d[2], dist2)
    return dist2


def foreground_mask(img: np.ndarray, min_diff: float = 22.0, bg: np.ndarray | None = None,
                    bg_colours: np.ndarray | None = None) -> np.ndarray:
    """Binary mask (uint8 0/255) of everything that differs from the local tray colour
    (``bg``: the frame's ``background``, or ``bg_colours``: that in ``colour_space``, if
    already computed)."""
    if bg_colours is None:
        bg_colours = colour_space(background(img) if bg is None else bg)
    dist2 = _distance2(colour_space(img), bg_colours)
    # The threshold adapts to how noisy the tray is, but never drops below ``min_diff``
    # (its statistics are taken on every 4th pixel: the tray is most of the frame).
    sample = np.sqrt(dist2[::4, ::4])
    med = float(_median(sample))
    mad = float(_median(np.abs(sample - med))) + 1e-3
    thr = max(min_diff, med + 6.0 * 1.4826 * mad)
    # distance > thr, as the least squared distance (a whole number) above it: no square
    # root over the whole frame. (The test runs as numpy compares float32 with thr.)
    least = max(0, math.floor(thr * thr) - 2)
    while not (np.sqrt(np.float32([least])) > thr)[0]:
        least += 1
    mask = cv2.inRange(dist2, least, 1e9)
    k = max(3, round(max(img.shape[:2]) / 300)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return fill_holes(mask, max_hole=(min(img.shape[:2]) / 10) ** 2)


def edge_softness(img: np.ndarray, tray_colours: np.ndarray | None = None, mask: np.ndarray | None = None,
                  most: int = 12) -> float | None:
    """How soft ``img`` is, in px: the median, over its ``most`` largest things off the tray
    (``mask``, a ``foreground_mask``; ``tray_colours``, its ``background`` in ``colour_space``;
    worked out here where not given) of die size or so, of the Gaussian sigma their
    outline's edge implies (their colour step from the tray over their outline's steepest
    slopes); None without such a thing.

    A phone photo shrunk to a webcam frame measures about 1.25 px (its dice's rounded edges
    and shadows are soft in any frame; some photos are a little out of focus), the same
    seen through a lens 0.8 px softer about 1.5 (the medians over every fifth dev photo as
    a 640x480 frame 40 degrees from overhead; over ``dice.SOFT_EDGE``: 10 and 43 of 50)."""
    if tray_colours is None:
        tray_colours = colour_space(background(img))
    if mask is None:
        mask = foreground_mask(img, bg_colours=tray_colours)
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    # (die-sized things, 12 to 70 px wide: specks are all edge, and a big thing's outline
    # is mostly shading)
    cnts = sorted((c for c in cnts if 150 <= cv2.contourArea(c) <= 5000), key=cv2.contourArea, reverse=True)[:most]
    h, w = mask.shape[:2]
    sigmas = []
    for c in cnts:
        # (each thing in its own box: the frame is mostly tray)
        x, y, bw, bh = cv2.boundingRect(c)
        x0, y0, x1, y1 = max(0, x - 3), max(0, y - 3), min(w, x + bw + 3), min(h, y + bh + 3)
        own = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.drawContours(own, [c], -1, 1, -1, offset=(-x0, -y0))
        diff = cv2.sqrt(_distance2(colour_space(img[y0:y1, x0:x1]), tray_colours[y0:y1, x0:x1]))
        step = _quantile(diff[own > 0], 0.75)
        if step < MIN_EDGE_STEP:
            continue   # (too faint against the tray to measure an edge by)
        # A step of height s blurred by sigma has slope s / (sigma * sqrt(2 pi)); Sobel
        # reports 8x the slope.
        slope = cv2.magnitude(cv2.Sobel(diff, cv2.CV_32F, 1, 0), cv2.Sobel(diff, cv2.CV_32F, 0, 1)) / 8.0
        edge = cv2.morphologyEx(own, cv2.MORPH_GRADIENT, np.ones((5, 5), np.uint8)) > 0
        sigmas.append(step / max(_quantile(slope[edge], 0.9) * math.sqrt(2 * math.pi), 1e-6))
    return float(np.median(sigmas)) if sigmas else None


def sharpened(img: np.ndarray, amount: float = 0.5, sigma: float = 1.0) -> np.ndarray:
    """``img`` with an unsharp mask: its difference from a Gaussian blur of ``sigma`` px
    added ``amount`` times over."""
    return cv2.addWeighted(img, 1 + amount, cv2.GaussianBlur(img, (0, 0), sigma), -amount, 0)


def _quantile(a: np.ndarray, q: float) -> float:
    """The ``q`` quantile of ``a`` (an element of it, no interpolation: a partial sort)."""
    k = int(q * (len(a) - 1))
    return float(np.partition(a, k)[k])


def _median(a: np.ndarray) -> np.floating:
    """``np.median(a)``, the same value, in a third of the time or less on a tray's colour
    distances (most of np.median's time here is its checks, and sorting many equal values
    is fast)."""
    s = np.sort(a, axis=None)
    m = s.size // 2
    return s[m] if s.size % 2 else np.mean(s[m - 1:m + 1])


def blob_outlines(mask: np.ndarray, method: int = cv2.CHAIN_APPROX_SIMPLE) -> list[np.ndarray]:
    """The outer outline of every blob in ``mask``, those lying in another blob's hole too:
    a tray's rim seen all round the frame is one blob whose hole is the whole tray, and
    ``RETR_EXTERNAL`` would lose every die and coin inside it."""
    outlines, nesting = cv2.findContours(mask, cv2.RETR_CCOMP, method)
    if not outlines:
        return []
    # (In a two-level hierarchy, outer outlines have no parent; holes' outlines have one.)
    return [c for c, link in zip(outlines, nesting[0]) if link[3] < 0]


def fill_holes(mask: np.ndarray, max_hole: float) -> np.ndarray:
    """Fill the small holes of every blob (pips the colour of the tray leave holes in a die).

    Large holes stay open: a tray wall is a ring around the whole tray and must not swallow it.
    """
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    if hierarchy is None:
        return out
    holes = [c for c, h in zip(contours, hierarchy[0]) if h[3] >= 0 and cv2.contourArea(c) < max_hole]
    cv2.drawContours(out, holes, -1, 255, thickness=cv2.FILLED)
    return out


# A blob whose outline strays less than this from the ellipse that fits it best (root mean
# square, as a share of the ellipse's radius there; ``off_ellipse``), or less than
# ``ROUND_OUTLINE_PX`` pixels (a disc's outline is a staircase of whole pixels: 0.2-0.3 px off
# its ellipse at any size, which is much of a small disc's radius), is round: a coin, a bead, a
# rivet. Measured on 640x480 frames along every pixel of the outline, from overhead to 55
# degrees, sharp or blurred by up to 1.4 px: rendered coins (under a JPEG of quality 70)
# 0.020-0.027 at their 99th percentile, 0.033 at most (at 55 degrees); the dark oval rivets in
# the dev photos' tray wall, 20 px across, 0.016-0.035 and 0.22-0.44 px (2 in 100 round by
# neither); the real dev dice's outlines 0.029-0.032 and 0.41-0.50 px at their first
# percentile. The tails meet: a die in a hundred or so, blurred, is as round as the roundest
# coins, and is read by its pips or not at all. Roundness by area and perimeter cannot tell
# them apart: a die's outline blurred (a soft webcam, a sigma of 1 px) is as round by it
# (0.92-0.95) as a coin's, and a rivet's at a slant less (0.83-0.90).
ROUND_OUTLINE = 0.03
ROUND_OUTLINE_PX = 0.40


def outline_pixels(vertices: np.ndarray, shape: tuple[int, ...] | None = None) -> np.ndarray:
    """The closed polygon ``vertices`` (an outline, as ``cv2.findContours`` gives it) as
    points a pixel apart or less along it, floats; with the image's ``shape``, those on its
    edge left out (where the frame cuts a thing is not the thing's outline). An outline
    simplified to its vertices (``CHAIN_APPROX_SIMPLE``) keeps few points on a straight side
    and many on a curve: measured by its vertices, a square die lying square to the camera,
    or at 45 degrees, kept only its rounded corners, which an ellipse fits as well as a coin."""
    ends = vertices.reshape(-1, 2).astype(np.float64)
    steps = np.roll(ends, -1, axis=0) - ends
    counts = np.maximum(np.ceil(np.hypot(steps[:, 0], steps[:, 1])), 1).astype(int)
    which = np.repeat(np.arange(len(ends)), counts)
    along = (np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)) / counts[which]
    points = ends[which] + steps[which] * along[:, None]
    if shape is None:
        return points
    h, w = shape[:2]
    x, y = points[:, 0], points[:, 1]
    return points[(x > 0) & (x < w - 1) & (y > 0) & (y < h - 1)]


def off_ellipse(outline: np.ndarray, shape: tuple[int, ...] | None = None) -> tuple[float, float]:
    """How far ``outline`` (``outline_pixels``: the part off the edge of an image of
    ``shape``, if given) strays from the ellipse that fits it best: the root mean square of
    each point's distance from the centre as a share of the ellipse's radius that way, less
    one (0 for an ellipse; ~0.11 for a square, turned any way), and that times the
    ellipse's mean radius, in pixels (inf for both with under eight points)."""
    pts = outline_pixels(outline, shape)
    if len(pts) < 8:
        return math.inf, math.inf
    (cx, cy), (width, height), degrees = cv2.fitEllipse(pts.astype(np.float32))
    if min(width, height) <= 0:
        return math.inf, math.inf
    pts -= (cx, cy)
    t = math.radians(degrees)
    # (the points in the ellipse's own axes, each axis scaled to a unit circle)
    u = (pts[:, 0] * math.cos(t) + pts[:, 1] * math.sin(t)) / (width / 2)
    v = (pts[:, 1] * math.cos(t) - pts[:, 0] * math.sin(t)) / (height / 2)
    share = float(np.sqrt(((np.hypot(u, v) - 1.0) ** 2).mean()))
    return share, share * math.sqrt(width * height) / 2


def round_outline(outline: np.ndarray, shape: tuple[int, ...] | None = None) -> bool:
    """Whether a blob's ``outline`` (off the edge of an image of ``shape``, if given) is round
    (``ROUND_OUTLINE``, ``ROUND_OUTLINE_PX``): a coin, a bead or a rivet, not a die."""
    share, pixels = off_ellipse(outline, shape)
    return share < ROUND_OUTLINE or pixels < ROUND_OUTLINE_PX
