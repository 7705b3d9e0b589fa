"""Linking pips into faces and judging each face (``FaceFinder``, one per pass over a frame).

Steps 2-5 of ``dice``'s reading: pips are linked into faces when alike and joined by the
die's body colour; a group that fits no face may be two touching dice, cut in two; each
face is checked against the six standard layouts and against its die body; faces whose
pips would not link get a second look within their die's outline; what fails is reported
as ``Uncertain`` with its reason (``reasons``), never as a value.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import NamedTuple

import cv2
import numpy as np

from .pips import MIN_PIP_AREA, Groups, Pip, empty_positions, layout_value, mean_rows, norm, norms
from .reasons import (EXTRA_SPOT_REASON, LOGO_REASON, MIXED_COLOURS_REASON, MIXED_SIZES_REASON,
                      NO_BODY_REASON, NOT_DIE_SHAPED_REASON, OFF_CENTRE_REASON, ROUND_BODY_REASON,
                      TWO_READINGS_REASON)
from .segment import background, colour_space, foreground_mask, round_outline
from .types import DiceReading, Die, Uncertain

# Colour distance (``colour_space`` units, ~0-255) within which two samples are one body.
BODY_TOLERANCE = 38.0
# ... and the least it allows, however close the tray's colour (``body_tolerance``).
MIN_BODY_TOLERANCE = 12.0
# Least colour difference between pips and their die (colour_space units).
MIN_PIP_CONTRAST = 35.0
# A lone spot within this colour distance of the ring just around it is the inside of a
# mark's loop (an "O", a "6" or a "D" on a keycap), lighter or darker than its strokes only:
# no pip, and no 1. (Samples this close are one body by any tolerance.)
HOLE_CONTRAST = MIN_BODY_TOLERANCE
# Blur (Gaussian sigma, px) beyond this share of the pip radius makes a face unreadable.
BLUR_LIMIT = 0.55
# Pips flatter than this (minor/major axis) lie on a side face seen at a slant.
SIDE_FACE_RATIO = 0.65
# The corner pips of a face (its outermost) span this share of the die's side, 0.6 to 0.8
# from rounded dice to sharp-edged ones (the network allows for a fifth either way): the
# die's size where no body was measured around them.
CORNER_SPAN = 0.7
# A face the first pass read is found again by the second (``dice._read_adapting``) where
# each of its pips lies within this share of the pip's radius of where it did (a finer pip
# filter moves a pip's centre by a fraction of a pixel).
AGAIN_SHIFT = 0.3
# A pip's radius as a share of its die's side, where a die's size, not its pips', sizes the
# pip filter (a calibrated die size, or dice's bodies where no face was read: ``dice``).
# (The faces read in every tenth dev photo as a 640x480 frame 55 degrees from overhead
# measure 0.085 at the median, 8 in 10 between 0.077 and 0.097.)
PIP_PER_SIDE = 1 / 11
# The least side (px) of a die whose faces can be read: on a smaller die the pips of a 2-6
# are below the smallest spot the pip finder takes. A lone spot on a body that small is
# more likely a pin, a rivet or a hole than a 1.
MIN_DIE_SIDE = math.sqrt(MIN_PIP_AREA / math.pi) / PIP_PER_SIDE


class FrameColours(NamedTuple):
    """What every pass over one frame shares: the frame and its tray background in the
    colour space the face checks use, the foreground mask (things off the tray), and how
    far below its top face a die's near sides reach, in die sides (a frame stretched back
    from a camera tilted down at the tray; 0 from overhead)."""
    frame: np.ndarray
    tray: np.ndarray
    fg: np.ndarray
    drop: float = 0.0


def frame_colours(img: np.ndarray, drop: float = 0.0, tray: np.ndarray | None = None,
                  fg: np.ndarray | None = None) -> FrameColours:
    """``img``'s FrameColours (``tray``, ``fg``: its tray in ``colour_space`` and its
    ``foreground_mask``, where already found)."""
    tray = colour_space(background(img)) if tray is None else tray
    fg = foreground_mask(img, bg_colours=tray) if fg is None else fg
    return FrameColours(colour_space(cv2.GaussianBlur(img, (3, 3), 0)), tray, fg, drop)


def no_overlaps(reading: DiceReading) -> DiceReading:
    """One report per die. Two readings on one die (e.g. a glint read as a 1 on a 3) cannot
    both be right: both become one uncertain spot. Uncertain spots on a die that was read
    (a side face, a glint) and repeated uncertain spots are dropped."""
    side = reading.die_side
    if side is None:
        return reading
    clash = set()
    for i, a in enumerate(reading.dice):
        for j in range(i + 1, len(reading.dice)):
            b = reading.dice[j]
            if math.hypot(a.x - b.x, a.y - b.y) < 0.6 * side:
                clash |= {i, j}
    keep = [d for k, d in enumerate(reading.dice) if k not in clash]
    unc: list[Uncertain] = []
    for u in reading.uncertain:
        if not any(math.hypot(u.x - d.x, u.y - d.y) < 0.5 * side for d in keep) and \
                not any(math.hypot(u.x - v.x, u.y - v.y) < 0.3 * side for v in unc):
            unc.append(u)
    for k in sorted(clash):
        d = reading.dice[k]
        if not any(math.hypot(u.x - d.x, u.y - d.y) < 0.6 * side for u in unc):
            unc.append(Uncertain(d.x, d.y, TWO_READINGS_REASON))
    return DiceReading(keep, unc, reading.die_sizes, reading.leads)


def round_body(area: float, perimeter: float, box_area: float) -> bool:
    """True for a body of ``area`` and ``perimeter`` shaped like a disc: round, and filling
    about pi/4 of its least box (``box_area``), where a die's rounded square fills nearly all."""
    return 4 * math.pi * area / max(perimeter * perimeter, 1e-6) > 0.87 and area / max(1.0, box_area) < 0.82


def _span(pts: np.ndarray) -> float:
    """The greatest distance between two of the points ``pts`` (n x 2)."""
    return float(np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(axis=2)).max())


def _diagonal(pts: np.ndarray, body_angle_deg: float, tol_deg: float = 20.0) -> bool:
    """True when the line through the outermost pips runs corner to corner of the die body
    (45 degrees to its sides), as on a 2 or a 3."""
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    a, b = np.unravel_index(int(np.argmax(d)), d.shape)
    v = pts[b] - pts[a]
    rel = (math.degrees(math.atan2(float(v[1]), float(v[0]))) - body_angle_deg) % 90.0
    return abs(rel - 45.0) <= tol_deg


# Unit circles sampled at 12, 6 (plus the centre), 32 and 8 (plus the centre) points, for
# the rings sampled around pips and empty spots and for a pip's middle (made once:
# np.linspace and np.cos cost more than their use).
_RING12 = np.linspace(0, 2 * math.pi, 12, endpoint=False)
_RING12_COS, _RING12_SIN = np.cos(_RING12), np.sin(_RING12)
_RING6 = np.linspace(0, 2 * math.pi, 6, endpoint=False)
_SPOT_DX, _SPOT_DY = np.r_[0.0, np.cos(_RING6)], np.r_[0.0, np.sin(_RING6)]
_RING32 = np.linspace(0, 2 * math.pi, 32, endpoint=False)
_RING8 = np.linspace(0, 2 * math.pi, 8, endpoint=False)
_MIDDLE_DX, _MIDDLE_DY = np.r_[0.0, np.cos(_RING8)], np.r_[0.0, np.sin(_RING8)]

# A face's 3x3 grid of pip spots, (column, row), spot k at column k // 3, row k % 3; the
# layouts of 2 to 6 on it (either diagonal for 2 and 3, either pair of middle pips for 6);
# and the ways two pips may lie on it: (columns, rows apart; the first one's spot). Other
# directions are these turned by quarter turns, which the grid's own turn covers.
_GRID = np.array([(c, rw) for c in range(3) for rw in range(3)], np.float64)


# Directions (unit vectors, 5 degrees apart, as columns) across which a group of pips may
# be cut in two.
_CUT_ANGLES = np.deg2rad(np.arange(0.0, 180.0, 5.0))
_CUT_DIRECTIONS = np.array([np.cos(_CUT_ANGLES), np.sin(_CUT_ANGLES)])


def _layout(*cells) -> np.ndarray:
    m = np.zeros(9, bool)
    m[[c * 3 + rw for c, rw in cells]] = True
    return m


_CORNERS = ((0, 0), (0, 2), (2, 0), (2, 2))
_LAYOUTS = [(2, _layout((0, 0), (2, 2))), (2, _layout((2, 0), (0, 2))),
            (3, _layout((0, 0), (1, 1), (2, 2))), (3, _layout((2, 0), (1, 1), (0, 2))),
            (4, _layout(*_CORNERS)), (5, _layout(*_CORNERS, (1, 1))),
            (6, _layout(*_CORNERS, (0, 1), (2, 1))), (6, _layout(*_CORNERS, (1, 0), (1, 2)))]
_PLACINGS = np.array([(p, q, x, y) for p, q in ((1, 0), (1, 1), (2, 0), (2, 2), (2, 1), (1, 2))
                      for x in range(3 - p) for y in range(3 - q)], np.float64)


def _centres(pts: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in pts)


def _mean32(a: np.ndarray) -> float:
    """``float(a.mean())`` of a short float32 vector: the same value (numpy divides the
    float32 sum in float64 and rounds back), without np.mean's overhead."""
    return float(np.float32(float(a.sum()) / a.size))


_STEPS: dict[int, np.ndarray] = {}


def _steps(n: int) -> np.ndarray:
    """``np.linspace(0, 1, n)`` (the same values), cached: the pip-to-pip lines reuse a few
    lengths over and over."""
    t = _STEPS.get(n)
    if t is None:
        t = np.arange(n) * (1.0 / (n - 1))
        t[-1] = 1.0
        t.flags.writeable = False
        _STEPS[n] = t
    return t


def median_rows(a: np.ndarray) -> np.ndarray:
    """Per-column median of a small array (np.median's overhead dominates at this size)."""
    return np.sort(a, axis=0)[len(a) // 2]


def body_tolerance(body: np.ndarray, tray: np.ndarray) -> float:
    """How far a colour may stray from a die's ``body`` colour and still be that die: at
    most half the way to the ``tray``'s colour there (white dice on a light tray need a
    tight tolerance)."""
    return min(max(float(0.5 * norm(body - tray)), MIN_BODY_TOLERANCE), BODY_TOLERANCE)


def distance2_to(window: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """The squared colour distance (float32) of each pixel of ``window`` to ``colour``, in
    OpenCV calls (``colour`` holds whole pixel values, so the uint8 difference is exact)."""
    diff = cv2.absdiff(window, tuple(float(v) for v in colour) + (0.0,)).astype(np.float32)
    return cv2.transform(cv2.multiply(diff, diff), np.float32([[1.0, 1.0, 1.0]]))


class FaceFinder:
    """Links pips into faces and judges each face (one instance per frame)."""

    def __init__(self, colours: np.ndarray, pips: list[Pip], bg: np.ndarray | None = None,
                 fg: np.ndarray | None = None, drop: float = 0.0, again: Sequence[Die] = ()):
        # ``colours``: the frame in colour_space; ``bg``: the tray without dice, likewise;
        # ``fg``: the foreground mask (what stands out from the tray), for ``_reread_blobs``;
        # ``drop``: see FrameColours; ``again``: the faces an earlier pass over the frame
        # read (its ``faces_read``), which this one need not judge again (``_read_before``).
        self.colours = colours
        self.again = again
        self.faces_read: list[Die] = []   # the faces read from their pips' layout (by _judge)
        self.drop = drop
        self.bg = bg
        self.fg = fg
        self.h, self.w = colours.shape[:2]
        self.pips = pips
        self.xy = np.array([(p.x, p.y) for p in pips], np.float32).reshape(-1, 2)
        self.r = np.array([p.r for p in pips], np.float32)
        self.ratio = np.array([p.ratio for p in pips], np.float64)
        self.read_pip_radii: list[float] = []
        self._lone: list[int] = []   # lone spots with no die-shaped body found around them
        self._sizes_from_pips: list[float] = []   # die sizes guessed from unbounded faces
        # Each pip's colour: the mean over its middle (its centre and 8 points half its
        # radius out), not one pixel. A JPEG stores colour at half resolution, so a small
        # pip's colour at its centre pixel depends on how it falls on that coarse grid.
        half_r = 0.5 * self.r[:, None].astype(np.float64)
        self.pip_colours = self._sample(self.xy[:, :1] + half_r * _MIDDLE_DX,
                                        self.xy[:, 1:] + half_r * _MIDDLE_DY).mean(axis=1)
        # The body colour around each pip: the median of 12 samples on a ring just outside
        # it, all pips sampled in one batch.
        px = np.array([p.x for p in pips], np.float64)[:, None]
        py = np.array([p.y for p in pips], np.float64)[:, None]
        rad = 1.9 * np.array([p.r for p in pips], np.float64)[:, None] + 1.0
        ring = self._sample(px + rad * _RING12_COS, py + rad * _RING12_SIN)
        self.rings = np.sort(ring, axis=1)[:, 6].reshape(-1, 3)

    # -- sampling -------------------------------------------------------------------
    def _sample(self, xs, ys) -> np.ndarray:
        """Colours at points ``xs, ys`` (any shape; nearest pixel, clamped to the frame)."""
        xi = np.minimum(np.maximum(np.rint(xs).astype(np.intp), 0), self.w - 1)
        yi = np.minimum(np.maximum(np.rint(ys).astype(np.intp), 0), self.h - 1)
        return self.colours[yi, xi].astype(np.float32)

    def _tolerance(self, body: np.ndarray, x: float, y: float) -> float:
        """``body_tolerance`` of ``body`` against the tray at (x, y)."""
        if self.bg is None:
            return BODY_TOLERANCE
        tray = self.bg[min(self.h - 1, max(0, int(y))), min(self.w - 1, max(0, int(x)))].astype(np.float32)
        return body_tolerance(body, tray)

    def _pair_candidates(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The cheap tests of ``_joined`` for every pair at once: (candidate matrix, body
        colour tolerance per pair, distance per pair)."""
        n = len(self.pips)
        diff = self.xy[:, None, :].astype(np.float64) - self.xy[None, :, :]
        d = np.sqrt((diff ** 2).sum(axis=2))
        rmax = np.maximum(self.r[:, None], self.r[None, :]).astype(np.float64)
        rmin = np.minimum(self.r[:, None], self.r[None, :]).astype(np.float64)
        pc = self.pip_colours[:, None, :] - self.pip_colours[None, :, :]
        rg = self.rings[:, None, :] - self.rings[None, :, :]
        side_ok = self.ratio >= SIDE_FACE_RATIO
        cand = (np.triu(np.ones((n, n), bool), 1) & side_ok[:, None] & side_ok[None, :]
                # side-face pips never join a face: they would inflate the count
                & (np.sqrt((pc ** 2).sum(axis=2)) <= BODY_TOLERANCE)
                # the pips of one face share a colour (a red pip may stand out as light in
                # one channel and dark in another, so their colour is compared, not polarity)
                & (rmax <= 1.6 * rmin) & (d >= 2.0 * rmax) & (d <= 11.0 * rmax))
        tol = np.full((n, n), BODY_TOLERANCE, np.float32)
        ii, jj = np.nonzero(cand)
        if ii.size and self.bg is not None:
            body = (self.rings[ii] + self.rings[jj]) / 2
            mid = (self.xy[ii] + self.xy[jj]) / 2
            tray = self.bg[np.clip(mid[:, 1].astype(int), 0, self.h - 1),
                           np.clip(mid[:, 0].astype(int), 0, self.w - 1)].astype(np.float32)
            # (``body_tolerance`` of every pair at once)
            tol[ii, jj] = np.clip(0.5 * np.sqrt(((body - tray) ** 2).sum(axis=1)), MIN_BODY_TOLERANCE,
                                  BODY_TOLERANCE)
        cand &= np.sqrt((rg ** 2).sum(axis=2)) <= tol
        return cand, tol, d

    def _joined(self, i: int, j: int, tol: float, d: float) -> bool:
        """True when pips i and j (which passed ``_pair_candidates``) lie on one face: the
        same body colour all the way between them."""
        pi, pj = self.pips[i], self.pips[j]
        body = (self.rings[i] + self.rings[j]) / 2
        # Dense samples (1 px apart): the seam between two touching dice is thin.
        t = _steps(max(8, int(d)))
        xs, ys = pi.x + t * (pj.x - pi.x), pi.y + t * (pj.y - pi.y)
        # Leave out the pips themselves (the two ends and any pip lying on the line); only
        # pips near the line's bounding box can be near it (+1 px: a margin for rounding).
        reach = 1.5 * self.r + 1.0
        px, py = self.xy[:, 0], self.xy[:, 1]
        near = np.flatnonzero((px + reach >= min(pi.x, pj.x)) & (px - reach <= max(pi.x, pj.x))
                              & (py + reach >= min(pi.y, pj.y)) & (py - reach <= max(pi.y, pj.y)))
        near2 = (self.xy[near, 0, None] - xs) ** 2 + (self.xy[near, 1, None] - ys) ** 2
        keep = ~(near2 < (1.5 * self.r[near, None]) ** 2).any(axis=0)
        if keep.sum() < 3:
            return True
        cols = self._sample(xs[keep], ys[keep])
        dist2 = ((cols - body) ** 2).sum(axis=1)
        off = int((dist2 >= tol * tol).sum())
        return off <= max(1, int(0.05 * dist2.size))

    # -- grouping ----------------------------------------------------------------------
    def groups(self) -> list[list[int]]:
        joined = Groups(len(self.pips))
        find = joined.find   # (bound once: looked up twice for every pair of pips near enough)
        cand, tol, dist = self._pair_candidates()
        for i, j in zip(*(k.tolist() for k in np.nonzero(cand))):
            if find(i) != find(j) and self._joined(i, j, float(tol[i, j]), float(dist[i, j])):
                joined.join(i, j)
        return joined.groups()

    # -- the die body around a face --------------------------------------------------------
    def _body(self, idx: list[int]):
        """The die body around pips ``idx``: (mask, x0, y0, bounded) or None."""
        pts = self.xy[idx]
        c = mean_rows(pts)
        r = _mean32(self.r[idx])
        spread = float(norms(pts - c).max()) if len(idx) > 1 else 0.0
        half = int(max(3.0 * spread, 10 * r)) + 2
        x0, y0 = max(0, int(c[0]) - half), max(0, int(c[1]) - half)
        x1, y1 = min(self.w, int(c[0]) + half + 1), min(self.h, int(c[1]) + half + 1)
        body = median_rows(self.rings[idx])
        tol = self._tolerance(body, float(c[0]), float(c[1]))
        dist2 = distance2_to(self.colours[y0:y1, x0:x1], body)
        mask = (dist2 < tol * tol).view(np.uint8)
        for i in idx:   # the pips themselves belong to the body
            cv2.circle(mask, (int(round(self.xy[i][0] - x0)), int(round(self.xy[i][1] - y0))),
                       int(math.ceil(self.r[i] * 1.6)), 1, -1)
        n, labels = cv2.connectedComponents(mask, connectivity=4)
        lab_at = labels[np.minimum(np.maximum(pts[:, 1].astype(int) - y0, 0), y1 - y0 - 1),
                        np.minimum(np.maximum(pts[:, 0].astype(int) - x0, 0), x1 - x0 - 1)]
        lab_at = lab_at[lab_at > 0]
        if lab_at.size == 0:
            return None
        comp = (labels == np.bincount(lab_at).argmax()).astype(np.uint8)
        comp = cv2.morphologyEx(comp, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        bx, by, bw, bh = cv2.boundingRect(comp)
        # A die body may touch one side of the window (a side face seen at a slant, a
        # neighbour of the same colour); a plain surface runs out of it on several sides.
        touching = int(bx == 0 and x0 > 0) + int(by == 0 and y0 > 0) + \
            int(bx + bw == x1 - x0 and x1 < self.w) + int(by + bh == y1 - y0 and y1 < self.h)
        bounded = touching <= 1 and cv2.countNonZero(comp) < 0.6 * comp.size
        return comp, x0, y0, bounded

    def _off_centre(self, bx: float, by: float, cx: float, cy: float, side: float) -> float:
        """How far the body's centre (bx, by) is from where the face at (cx, cy) puts it:
        on it, or, at a slant, up to half the near sides' drop below it (the body may take
        those sides in)."""
        below = min(max(by - cy, 0.0), 0.5 * self.drop * side)
        return math.hypot(bx - cx, by - cy - below)

    def _plain_around(self, i: int, side: float) -> bool:
        """True when the face around pip ``i`` is plain body colour, as on a 1: out to where
        the corner pips of a 3 or 5 would be (the rest of a face whose other pips we missed)."""
        p = self.pips[i]
        radii = [1.6 * p.r + 1, 2.2 * p.r + 1] + [f * side for f in (0.3, 0.36, 0.42) if f * side > 2.4 * p.r]
        rad = np.repeat(radii, _RING32.size)
        ang = np.tile(_RING32, len(radii))
        cols = self._sample(p.x + rad * np.cos(ang), p.y + rad * np.sin(ang))
        body = self.rings[i]
        tol = self._tolerance(body, p.x, p.y)
        off_body = norms(cols - body) >= tol
        pip_like = norms(cols - self.pip_colours[i]) < norms(cols - body)
        return float(off_body.mean()) <= 0.4 and float(pip_like.mean()) <= 0.05

    def _top_side(self, comp: np.ndarray, y0: int, i: int, side: float) -> float:
        """The side of the top face whose 1 pip ``i`` would be, on die body ``comp`` (its
        window's top row at ``y0``) measured ``side``. At a slant the body may take in the
        die's near sides, running on below its top out of the window (twice as far below
        the pip as a top alone reaches), and ``side`` then overstates the top: but a line
        through a square's centre halves it at any turn, so the body above the pip is half
        the top.

        (Checked for plainness out to 0.42 of such a body's side, a turned 1 seen steeply ran
        out past its top's edges onto the tray and down onto its near side's pips: it was
        taken for a logo, and 1 ruled out for the network, which read the top with those
        pips as a 2 or a 3. Two turned 1s 40 px wide, 50-60 degrees from overhead through a
        webcam, the slant known, 48 frames: 46 of 96 read right and 27 wrong before, 61 and
        none now. Rendered trays at 40 and 55 degrees, slant not known, three sets of 240:
        wrong values 17 -> 13, 31 -> 29 and 16 alike, read right 1,986 -> 1,981, 1,635 and
        1,945 -> 1,946. The dev photos' views, whose dice show no sides, read within a die
        of before.)"""
        if self.drop <= 0 or not comp[-1].any():
            return side
        above = comp[:max(0, int(round(float(self.xy[i][1]))) - y0)]
        return min(side, math.sqrt(2.0 * float(np.count_nonzero(above))))

    def _partner_shows(self, i: int, bx: float, by: float, side: float) -> bool:
        """True when, opposite pip ``i`` through the centre of its die's top face (the
        body's centre (bx, by), or above it at a slant, as ``_off_centre`` allows), something
        other than the body shows. Every face but the 1 is symmetric about its centre, so a
        pip off the centre has a partner there: a lone pip with one is part of a 2-6 whose
        other pips were missed, not a 1 whose body was misjudged."""
        px, py = (float(v) for v in self.xy[i])
        face_y = by - min(max(by - py, 0.0), 0.5 * self.drop * side)
        return bool(self._looks([i], np.array([[2 * bx - px, 2 * face_y - py]]))[0][0])

    def _hole(self, i: int) -> bool:
        """True when spot ``i`` is the colour of the ring around it, set off only by a mark
        closer in: the inside of a letter's loop (an "O", a "6", a "D" on a keycap), not a
        pip."""
        return float(norm(self.pip_colours[i] - self.rings[i])) < HOLE_CONTRAST

    def _pip_alike_nearby(self, i: int) -> bool:
        """True when a round pip of pip ``i``'s colour and size lies within 6.5 of its radii
        (closer than any pip of a neighbouring die can be to the centre pip of a 1)."""
        near = np.hypot(self.xy[:, 0] - self.xy[i, 0], self.xy[:, 1] - self.xy[i, 1]) < 6.5 * self.r[i]
        near &= (self.ratio >= SIDE_FACE_RATIO) & (self.r >= 0.75 * self.r[i]) & (self.r <= 1.33 * self.r[i])
        near &= np.sqrt(((self.pip_colours - self.pip_colours[i]) ** 2).sum(axis=1)) <= 0.6 * BODY_TOLERANCE
        near[i] = False
        return bool(near.any())

    def blur_radius(self, idx: list[int]) -> float:
        """Roughly how blurred the pips ``idx`` are, in px (the Gaussian sigma that would give
        their steepest edge): a pip blurred over its own radius may have hidden a neighbour."""
        pts = self.xy[idx]
        r = _mean32(self.r[idx])
        pad = int(2 * r) + 2
        x0, y0 = max(0, int(pts[:, 0].min()) - pad), max(0, int(pts[:, 1].min()) - pad)
        x1, y1 = min(self.w, int(pts[:, 0].max()) + pad + 1), min(self.h, int(pts[:, 1].max()) + pad + 1)
        step = np.abs(median_rows(self.pip_colours[idx]) - median_rows(self.rings[idx]))
        c = int(np.argmax(step))
        if step[c] < 1:
            return float("inf")
        win = np.ascontiguousarray(self.colours[y0:y1, x0:x1, c]).astype(np.float32)
        grad = cv2.magnitude(cv2.Sobel(win, cv2.CV_32F, 1, 0), cv2.Sobel(win, cv2.CV_32F, 0, 1))
        # A step of height h blurred by sigma has slope h / (sigma * sqrt(2 pi)); Sobel
        # reports 8x the slope.
        slope = float(grad.max()) / 8.0
        return float(step[c]) / max(slope * math.sqrt(2 * math.pi), 1e-6)

    def _empty_where_expected(self, idx: list[int], value: int) -> bool:
        spots = empty_positions(self.xy[idx], value)
        return not len(spots) or not self._looks(idx, spots)[0].any()

    def _looks(self, idx: list[int], spots: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """How the face of the pips ``idx`` looks at ``spots`` (n x 2): where something other
        than its body shows (a pip, glare, the tray), and where that is nearer the pips'
        colour than any body colour (a pip the finder missed)."""
        body = median_rows(self.rings[idx])
        pip_col = median_rows(self.pip_colours[idx])
        tol = self._tolerance(body, _mean32(self.xy[idx][:, 0]), _mean32(self.xy[idx][:, 1]))
        contrast = float(norm(pip_col - body))
        r = _mean32(self.r[idx]) * 0.35
        # Each spot: its centre and six points around it, all spots sampled in one batch.
        cols = self._sample(spots[:, :1] + r * _SPOT_DX, spots[:, 1:] + r * _SPOT_DY)
        col = np.sort(cols, axis=1)[:, 3]
        # The body colours seen around the face's own pips: a two-tone or marbled die has
        # more than one, and an empty spot need only match one of them. (A glint or a hidden
        # pip matches none: the rings are medians, which ignore a pip's own small glints.)
        seen = self.rings[idx]
        # (Only rings well away from the pips' colour: glare or a pip's halo in a ring must
        # not make a missed pip look like body.)
        seen = np.vstack([body[None], seen[np.sqrt(((seen - pip_col) ** 2).sum(axis=1)) > 0.75 * contrast]])
        off = np.sqrt(((col[:, None, :] - seen[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
        # Whatever body colour it matches, a spot nearer the pips' colour may be a pip.
        pip_like = np.sqrt(((col - pip_col) ** 2).sum(axis=1)) < off
        off = np.where(pip_like, np.inf, off)
        # A spot nearer the pips' colour than the body's, or far from the body colour, may
        # be a pip we failed to find.
        # (A blurred pip is only part of the way from the body colour to the pips'.)
        shown = (off > max(0.5 * contrast, 0.5 * tol)) | (off > 2 * tol)
        return shown, shown & pip_like

    def _whole_face(self, idx: list[int]) -> tuple[int, float, float] | None:
        """The one standard face the pips ``idx`` are part of, when the finder missed some
        (a faint pip, one merged with the die's dark edge): its value and centre, or None.

        Every way of placing the pips on a face's 3x3 grid is tried (any two of them one or
        two spots apart, straight or diagonally, or a knight's move). A placement stands for
        a value when the value's other pips are spots of the pips' colour and the rest of
        the grid is body; the value counts only if every placement that stands agrees on it
        and on where the face is. It is a hint for the network, which must read the same."""
        pts = self.xy[idx].astype(np.float64)
        n = len(pts)
        if not 2 <= n <= 5:
            return None
        # Light pips: glare on the die is light too, and may fall just where a pip is
        # missing (a glossy 4 taken for a 5). There, what shows must also be no bigger than
        # a pip (glare is a streak or a patch).
        light = self.pip_colours[idx, 0].mean() >= self.rings[idx, 0].mean()
        r = float(statistics.median(self.r[idx]))
        i, j = (a.ravel() for a in np.nonzero(~np.eye(n, dtype=bool)))
        # Every (pair, grid step between them, grid spot of the first) at once.
        i, j, step, start = (np.repeat(i, len(_PLACINGS)), np.repeat(j, len(_PLACINGS)),
                             np.tile(_PLACINGS[:, :2], (len(i), 1)), np.tile(_PLACINGS[:, 2:], (len(i), 1)))
        v = pts[j] - pts[i]
        spacing = np.hypot(v[:, 0], v[:, 1]) / np.hypot(step[:, 0], step[:, 1])
        turn = np.arctan2(v[:, 1], v[:, 0]) - np.arctan2(step[:, 1], step[:, 0])
        # The grid's unit steps across (u) and down (w) the face.
        u = spacing[:, None] * np.stack([np.cos(turn), np.sin(turn)], axis=1)
        w = np.stack([-u[:, 1], u[:, 0]], axis=1)
        # (A pip is about a third of the grid step across; blurred small pips measure bigger.)
        ok = (spacing > 1.7 * r) & (spacing < 5.5 * r)
        centre = pts[i] + (1 - start[:, :1]) * u + (1 - start[:, 1:]) * w
        # Each pip's grid spot under each placement: all must fall on distinct spots.
        d = pts[None] - centre[:, None]
        s2 = (spacing ** 2)[:, None]
        g = np.stack([(d * u[:, None]).sum(axis=2) / s2, (d * w[:, None]).sum(axis=2) / s2], axis=2) + 1
        gi = np.rint(g)
        ok &= (np.abs(g - gi) < 0.3).all(axis=(1, 2)) & ((gi >= 0) & (gi <= 2)).all(axis=(1, 2))
        cell = (gi[..., 0] * 3 + gi[..., 1]).astype(int)
        found = np.zeros((len(cell), 9), bool)
        np.put_along_axis(found, np.where(ok[:, None], cell, 0), True, axis=1)
        ok &= found.sum(axis=1) == n
        if not ok.any():
            return None
        keep = np.flatnonzero(ok)
        centre, u, w, found, spacing = centre[keep], u[keep], w[keep], found[keep], spacing[keep]
        # How each placement's 9 grid spots look, all sampled in one batch.
        spots = centre[:, None] + (_GRID[None, :, :1] - 1) * u[:, None] + (_GRID[None, :, 1:] - 1) * w[:, None]
        shown, pip = self._looks(idx, spots.reshape(-1, 2))
        shown, pip = shown.reshape(-1, 9), pip.reshape(-1, 9)
        faces = []
        for k in range(len(centre)):
            for value, layout in _LAYOUTS:
                if (found[k] & ~layout).any():
                    continue   # a pip where this face has none
                missing = layout & ~found[k]
                if pip[k][missing].all() and not shown[k][~layout].any() and \
                        (not light or self._pip_sized(idx, spots[k][missing])):
                    faces.append((value, float(centre[k, 0]), float(centre[k, 1]), float(spacing[k])))
        if not faces or len({f[0] for f in faces}) > 1:
            return None
        xs, ys = [f[1] for f in faces], [f[2] for f in faces]
        if max(xs) - min(xs) > 0.5 * faces[0][3] or max(ys) - min(ys) > 0.5 * faces[0][3]:
            return None
        return faces[0][0], statistics.median(xs), statistics.median(ys)

    def _pip_sized(self, idx: list[int], spots: np.ndarray) -> bool:
        """True when what looks like a pip of the face ``idx`` at each of ``spots`` ends
        within a pip's reach: at most one of 12 points on a ring 1.8 pip radii out looks
        like a pip too."""
        rad = 1.8 * float(statistics.median(self.r[idx])) + 1
        ring = np.stack([_RING12_COS, _RING12_SIN], axis=1)
        pip = self._looks(idx, (spots[:, None, :] + rad * ring[None]).reshape(-1, 2))[1]
        return bool((pip.reshape(len(spots), 12).sum(axis=1) <= 1).all())

    # -- judging ------------------------------------------------------------------------
    def read(self) -> DiceReading:
        reading = DiceReading()
        for idx in self.groups():
            self._judge(idx, reading)
        if not reading.die_sizes:
            reading.die_sizes += self._sizes_from_pips
        if self.read_pip_radii:
            # Worth a second look only if pip-sized and round, as a 1's pip is (often
            # bigger than the other faces' pips; specks on the tray are smaller), and not
            # the inside of a letter's loop. (Down to 0.65 of the pips read: in a soft frame
            # the dice with small pips are the first to go unread, so those read have
            # bigger pips than the frame's lone 1s may.)
            r = float(statistics.median(self.read_pip_radii))
            reading.leads += [(float(self.xy[i, 0]), float(self.xy[i, 1])) for i in self._lone
                              if 0.65 * r <= self.r[i] <= 2.2 * r and self.ratio[i] >= 0.7
                              and not self._hole(i)]
        if self.fg is not None and reading.uncertain:
            self._reread_blobs(reading)
        return no_overlaps(reading)

    def _two_faces(self, idx: list[int]) -> list[list[int]] | None:
        """The two faces of pips ``idx``, which fit no face, when they are two touching dice
        of one colour (the body colour runs on from one to the other, so their pips link as
        one group), or None. Only where exactly one straight cut leaves two standard faces
        of two pips or more each, with the same pip spacing within 30 % (two dice of one
        set) and a gap between them as wide as between a face's pips or wider; each face
        is then judged as any other, body checks and all."""
        n = len(idx)
        if not 4 <= n <= 12:
            return None
        pts = self.xy[idx].astype(np.float64)
        # The cut runs through a gap no narrower than between next pips of one face (three
        # to four pip radii, centre to centre); between two touching faces it is wider by
        # half (pips sit about a fifth of a die's side in from its edges).
        gap = 3.0 * float(statistics.median(self.r[idx]))
        # The pips in order along each direction, and the gaps between them (all at once).
        along = pts @ _CUT_DIRECTIONS
        order = np.argsort(along, axis=0)
        gaps = np.diff(np.take_along_axis(along, order, axis=0), axis=0)
        cuts = set()
        for k, a in zip(*(v.tolist() for v in np.nonzero(gaps >= gap))):
            k += 1   # the number of pips before the gap
            if max(2, n - 6) <= k <= min(6, n - 2):
                # (each cut once, by the side holding the first pip, from whichever way)
                side = order[:k, a] if 0 in order[:k, a] else order[k:, a]
                cuts.add(frozenset(side.tolist()))
        faces = []
        for cut in cuts:
            one = sorted(cut)
            other = [k for k in range(n) if k not in cut]
            if layout_value(pts[one])[0] is None or layout_value(pts[other])[0] is None:
                continue
            # Every face from 2 to 6 has pips in its corners: the farthest pip from the
            # face's centre is sqrt(2) pip spacings from it.
            reach = [float(norms(pts[f] - mean_rows(pts[f])).max()) for f in (one, other)]
            if max(reach) <= 1.3 * min(reach):
                faces.append([[idx[k] for k in one], [idx[k] for k in other]])
        return faces[0] if len(faces) == 1 else None

    # -- a second look at unread dice, from the die's outline -------------------------------
    def _reread_blobs(self, reading: DiceReading) -> None:
        """Second chance for faces left uncertain because their pips would not link (marbled
        or glossy plastic breaks the body colour between pips): where the uncertain spot lies
        on a lone die-shaped blob of the foreground, read the pips inside that outline.

        Every check of a face still applies (the layout, pips alike, the face centred on a
        die-sized body, no pip where the layout has none); a blob that fails stays uncertain.
        """
        if not len(self.pips):
            return
        xi = np.clip(self.xy[:, 0].astype(int), 0, self.w - 1)
        yi = np.clip(self.xy[:, 1].astype(int), 0, self.h - 1)
        # The foreground blobs met so far, each as (mask of the frame padded by 1 px, its
        # bounding box and area): flood-filled from the spots, as labelling the whole mask
        # would cost more than the few blobs looked at.
        blobs: list[tuple[np.ndarray, tuple[int, int, int, int, int]]] = []

        def pixel(x: float, y: float) -> tuple[int, int]:
            return min(self.w - 1, max(0, int(x))), min(self.h - 1, max(0, int(y)))

        def blob_at(x: float, y: float) -> int:
            """Index into ``blobs`` of the 4-connected blob at (x, y); -1 off the foreground."""
            px, py = pixel(x, y)
            if not self.fg[py, px]:
                return -1
            for k, (mask, _) in enumerate(blobs):
                if mask[py + 1, px + 1]:
                    return k
            mask = np.zeros((self.h + 2, self.w + 2), np.uint8)
            area, _, _, (bx, by, bw, bh) = cv2.floodFill(
                self.fg, mask, (px, py), 0, 0, 0, 4 | cv2.FLOODFILL_MASK_ONLY | (1 << 8))
            blobs.append((mask, (bx, by, bw, bh, area)))
            return len(blobs) - 1

        on_dice = [pixel(d.x, d.y) for d in reading.dice]
        read: dict[int, Die | None] = {}
        keep: list[Uncertain] = []
        for u in reading.uncertain:
            lab = blob_at(u.x, u.y)
            if lab < 0:
                keep.append(u)
                continue
            if lab not in read:
                mask, stat = blobs[lab]
                if any(mask[py + 1, px + 1] for px, py in on_dice):
                    read[lab] = None   # a die was read on this blob already
                else:
                    read[lab] = self._read_blob(mask, stat, mask[yi + 1, xi + 1] > 0, reading)
            if read[lab] is None:
                keep.append(u)
        reading.uncertain[:] = keep
        reading.dice += [d for d in read.values() if d is not None]

    def _read_blob(self, blob: np.ndarray, stat: tuple[int, int, int, int, int],
                   pips_on: np.ndarray, reading: DiceReading) -> Die | None:
        """The die on a foreground blob (``blob``: its mask, padded by 1 px; ``stat``: its
        box and area; ``pips_on``: which pips lie on it) read from the pips inside it, or None."""
        x, y, bw, bh, area = stat
        if area < 64:
            return None
        mask = np.ascontiguousarray(blob[y + 1:y + bh + 1, x + 1:x + bw + 1])
        cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(max(cnts, key=cv2.contourArea))
        cx, cy = cx + x, cy + y
        # One die, seen from above: a square outline that fills its rectangle (two touching
        # dice make an oblong or a notched outline).
        if max(rw, rh) > 1.4 * min(rw, rh) or area < 0.75 * rw * rh:
            return None
        side = math.sqrt(rw * rh)
        cand = np.nonzero(pips_on & (self.ratio >= SIDE_FACE_RATIO))[0]
        if len(cand) < 2:
            return None
        # The face's pips: the largest set alike in colour and size (glints, specks and
        # marbling differ from the pips in one or the other).
        best: np.ndarray | None = None
        for s in cand:
            alike = cand[(np.sqrt(((self.pip_colours[cand] - self.pip_colours[s]) ** 2).sum(axis=1))
                          <= 0.6 * BODY_TOLERANCE)
                         & (self.r[cand] >= 0.75 * self.r[s]) & (self.r[cand] <= 1.33 * self.r[s])]
            if best is None or len(alike) > len(best):
                best = alike
        idx = best.tolist()
        if not 2 <= len(idx) <= 6 or float(self.r[idx].max()) > 1.45 * float(self.r[idx].min()):
            return None
        r = float(statistics.median(self.r[idx]))
        pts = self.xy[idx].astype(np.float64)
        value, quality, _ = layout_value(pts)
        if value is None or not max(4.0 * r, MIN_DIE_SIDE) < side < 20.0 * r:
            return None
        fx, fy = pts.mean(axis=0)
        span = _span(pts)
        if math.hypot(fx - cx, fy - cy) > 0.25 * side or not 0.35 * side < span < 1.0 * side:
            return None   # not the top face of this die
        # (The outline's angle is rougher than a body's: shadows and side faces join it.)
        if value in (2, 3) and not _diagonal(pts, angle, tol_deg=30.0):
            return None
        body = median_rows(self.rings[idx])
        if float(norm(median_rows(self.pip_colours[idx]) - body)) < MIN_PIP_CONTRAST:
            return None
        if self.blur_radius(idx) > BLUR_LIMIT * r or not self._empty_where_expected(idx, value):
            return None
        self.read_pip_radii.append(r)
        reading.die_sizes.append(side)
        # Read from the outline rather than the body colour: a little less sure.
        return Die(value, float(fx), float(fy), round(0.5 + 0.4 * max(0.0, float(quality)), 3), side,
                   _centres(pts))

    def _partial_face(self, idx: list[int], cx: float, cy: float, reason: str) -> Uncertain:
        """The uncertain spot for pips ``idx`` (centred at cx, cy) that are not a whole face,
        with the face they are part of if the finder missed its other pips (``_whole_face``):
        the network may make it a die by reading that face's value at its centre."""
        return Uncertain(cx, cy, reason, whole=self._whole_face(idx))

    def _judge(self, idx: list[int], reading: DiceReading) -> None:
        if len(idx) >= 3:
            # The pips of a face are one size: a spot much smaller or bigger than the rest
            # is a glint or a speck in the plastic, not a pip.
            med = float(statistics.median(self.r[idx]))
            idx = [i for i in idx if 0.75 * med <= self.r[i] <= 1.33 * med]
        pts = self.xy[idx]
        cx, cy = (float(v) for v in mean_rows(pts))
        ratios = np.array([self.pips[i].ratio for i in idx])
        if statistics.median(ratios.tolist()) < SIDE_FACE_RATIO:
            return   # a side face seen at a slant: not the top face, not a reading
        value, quality, reason = layout_value(pts)
        before = self._read_before(idx, value)
        if before is not None:
            # (its body found, or not, before: its size counts again, as a body's would)
            if before.side is not None:
                reading.die_sizes.append(before.side)
            self._read_face(idx, value, quality, ratios, before.side, reading)
            return
        if value is None:
            faces = self._two_faces(idx)
            if faces:
                for face in faces:
                    self._judge(face, reading)
                return
        # Pips alike that fit no face may be part of one whose other pips the finder missed.
        misplaced = value is None and len(idx) >= 2
        if len(idx) >= 2:
            # Every pip of a face is the same colour: a speck in marbled plastic is not.
            cols = self.pip_colours[idx]
            if float(norms(cols - median_rows(cols)).max()) > 0.6 * BODY_TOLERANCE:
                value, reason, misplaced = None, MIXED_COLOURS_REASON, False
            # ... and one size, even seen at a slant (the median above may sit between a
            # face's pips and a smaller spot beside them).
            if float(self.r[idx].max()) > 1.45 * float(self.r[idx].min()):
                value, reason, misplaced = None, MIXED_SIZES_REASON, False
        # What the pips show, for the checks below that doubt the die rather than the count
        # (a check that finds a pip missing or misplaced says the count itself is wrong).
        hint = value if len(idx) >= 2 else None
        body = self._body(idx)
        r = _mean32(self.r[idx])
        if body is None:
            if hint is not None:
                reading.uncertain.append(self._bodiless(pts, cx, cy, hint))
            elif len(idx) == 1:
                self._lone.append(idx[0])
            return
        comp, x0, y0, bounded = body
        area = float(comp.sum())
        side = math.sqrt(area)
        if not bounded:
            if len(idx) == 1:
                # A lone round spot on a big plain surface: not evidence of a die (but a
                # white 1 on a pale tray looks just so).
                self._lone.append(idx[0])
                return
            if len(idx) <= 3:
                # Two or three spots are weak evidence on their own: without a die body
                # around them they may be anything (holes, print, a side face).
                reading.uncertain.append(self._bodiless(pts, cx, cy, hint))
                return
            side = None
        else:
            cnts, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            outline = max(cnts, key=cv2.contourArea)
            (bx, by), (bw, bh), body_angle = cv2.minAreaRect(outline)
            bx, by = bx + x0, by + y0
            aspect = max(bw, bh) / max(1.0, min(bw, bh))
            fill = area / max(1.0, bw * bh)
            side = math.sqrt(max(1.0, bw * bh))
            die_like = aspect < 1.7 and fill > 0.6 and max(3.5 * r, MIN_DIE_SIDE) < side < 20 * r
            per = cv2.arcLength(outline, True)
            if len(idx) == 1:
                if not die_like or round_body(area, per, bw * bh):
                    # Not a die's body: a coin or a button, a small white die's outline
                    # rounded on a pale tray, a die run into its neighbour or left ragged by
                    # its marbling. Only a lead: a 1 where the network is sure of one in two
                    # views (a coin it was taught is no face).
                    self._lone.append(idx[0])
                    return
                i = idx[0]
                if self._hole(i):
                    # The mark around the spot is a letter or a logo: no 1 there. On a body
                    # whose outline lies on an ellipse it is a coin's numeral (a "0", a "6"),
                    # which by area and perimeter may pass for a die's body (a coin stretched
                    # back from a slant a hair too far): not asked about.
                    if not round_outline(outline, comp.shape):
                        reading.uncertain.append(Uncertain(bx, by, LOGO_REASON, rules_out=(1,)))
                    return
                round_spot = self.pips[i].ratio >= 0.7
                centred = round_spot and self._off_centre(bx, by, cx, cy, side) <= 0.2 * side
                # Off the centre, with a partner opposite, it is part of a 2-6, not a 1.
                no_one = () if centred or not self._partner_shows(i, bx, by, side) else (1,)
                # A round spot centred on its die is the 1 it would be, for the network to
                # confirm (``whole``); so is one off the body's centre, or not round (a 1's pip
                # run into marbling or a glint), with something opposite it, the body
                # misjudged, for the network to confirm more surely (its 1 is ruled out:
                # ``face_net.second_opinion``).
                one = (1, cx, cy) if centred or no_one else None
                if not round_spot or not self._plain_around(i, self._top_side(comp, y0, i, side)):
                    # A lone spot with marks around it, or not round: a logo, not a 1 --
                    # unless the marks are marbling in the plastic.
                    reading.uncertain.append(Uncertain(bx, by, LOGO_REASON, whole=one, rules_out=no_one))
                    return
                if not centred:
                    reading.uncertain.append(Uncertain(bx, by, OFF_CENTRE_REASON, whole=one, rules_out=no_one))
                    return
                if self._pip_alike_nearby(idx[0]):
                    # The centre pip of a 3 or 5 whose other pips did not link: on a 1 the
                    # nearest pip alike is on another die, over 8 pip radii away.
                    reading.uncertain.append(Uncertain(bx, by, "pips of one face not all linked"))
                    return
            elif not die_like:
                # (The outline's own area: a coin's body has holes where its marks are.)
                coin = round_body(cv2.contourArea(outline), per, bw * bh)
                reason = ROUND_BODY_REASON if coin else NOT_DIE_SHAPED_REASON
                reading.uncertain.append(Uncertain(cx, cy, reason, hint))
                return
            # A die's body, read or not: its size tells the second reader how wide to look.
            reading.die_sizes.append(side)
            # Other round pips on the same body mean a face we did not link completely.
            others = self.ratio >= SIDE_FACE_RATIO
            others[idx] = False
            others &= np.sqrt(((self.pip_colours - self.pip_colours[idx[0]]) ** 2).sum(axis=1)) \
                <= BODY_TOLERANCE
            # within the top face: side faces (inside the body too) carry pips of their own
            others &= np.hypot(self.xy[:, 0] - cx, self.xy[:, 1] - cy) < 0.45 * side
            ox, oy = self.xy[:, 0].astype(int) - x0, self.xy[:, 1].astype(int) - y0
            others &= (oy >= 0) & (oy < comp.shape[0]) & (ox >= 0) & (ox < comp.shape[1])
            ks = np.nonzero(others)[0]
            if comp[oy[ks], ox[ks]].any():
                reading.uncertain.append(Uncertain(cx, cy, "pips of one face not all linked"))
                return
            if value in (2, 3) and not _diagonal(pts, body_angle):
                # Two or three pips along a side, not corner to corner: part of a 4, 5 or 6.
                reading.uncertain.append(self._partial_face(idx, cx, cy, f"{value} pips not on the diagonal"))
                return
            if value is not None and len(idx) >= 2 and self._off_centre(bx, by, cx, cy, side) > 0.3 * side:
                reading.uncertain.append(Uncertain(cx, cy, "face not centred on its die", hint))
                return
        if value is None:
            reading.uncertain.append(self._partial_face(idx, cx, cy, reason) if misplaced
                                     else Uncertain(cx, cy, reason))
            return
        faint = float(norm(median_rows(self.pip_colours[idx]) - median_rows(self.rings[idx])))
        if faint < MIN_PIP_CONTRAST:
            # Dice are made to be read at a glance: spots this faint are more likely the
            # body showing between blurred pips, or marbling, than pips.
            reading.uncertain.append(Uncertain(cx, cy, "pips too faint", hint))
            return
        if self.blur_radius(idx) > BLUR_LIMIT * r:
            # Blurred over half a pip: a neighbouring pip may have faded away entirely.
            reading.uncertain.append(Uncertain(cx, cy, "too blurred to be sure", hint))
            return
        if not self._empty_where_expected(idx, value):
            reading.uncertain.append(self._partial_face(idx, cx, cy, EXTRA_SPOT_REASON.format(value)))
            return
        self._read_face(idx, value, quality, ratios, side, reading)

    @staticmethod
    def _bodiless(pts: np.ndarray, cx: float, cy: float, hint: int | None) -> Uncertain:
        """The spot to ask about where pips at ``pts`` (centred at cx, cy) have no die body
        around them: with, where they show a face of 3 or more (``hint``), the side of the
        die their corner pips span (as ``_read_face`` measures one), at which the network
        reads the spot where nothing else in the frame gives a die's size (a white die on a
        pale tray: ``dice._read_at_their_own_sizes``).
        (Two spots give no size: any two specks are some distance apart.) (A white 3 alone
        on a white tray, rendered, six seeds: 0 -> 5 read right, none wrong; all 250 dev
        photos through a webcam at 40 degrees, 60 and 53 wide, three looks: the one such
        die, a white 3 on a pale table, asked about in every look, read right; no other
        die's outcome changed there, at 55 degrees, squeezed into 4:3 or as the phone
        took them.)"""
        side = _span(pts) / CORNER_SPAN if hint is not None and hint >= 3 else None
        return Uncertain(cx, cy, NO_BODY_REASON, hint, side=side)

    def _read_face(self, idx: list[int], value: int, quality: float, ratios: np.ndarray,
                   side: float | None, reading: DiceReading) -> None:
        """Read pips ``idx`` as a face of ``value`` (``quality``, ``ratios``: their fit to its
        layout and their shapes) on a die of ``side`` (None: no body found), every check passed."""
        pts = self.xy[idx]
        cx, cy = (float(v) for v in mean_rows(pts))
        contrast = min(1.0, sum(self.pips[i].contrast for i in idx) / len(idx) / 90.0)
        conf = 0.5 + 0.5 * quality * min(1.0, float(ratios.min()) / 0.8) * (0.6 + 0.4 * contrast)
        if side is None:
            conf *= 0.8
            # No body to measure: if no die in the frame has one, the network and the
            # merging of reports still need a die size.
            self._sizes_from_pips.append(_span(pts) / CORNER_SPAN)
        die = Die(value, cx, cy, round(float(min(1.0, conf)), 3), side, _centres(pts))
        reading.dice.append(die)
        self.faces_read.append(die)
        self.read_pip_radii.append(_mean32(self.r[idx]))

    def _read_before(self, idx: list[int], value: int | None) -> Die | None:
        """The face of ``again`` (an earlier pass's) read from these very pips ``idx``, showing
        ``value``, or None: as many pips, each within ``AGAIN_SHIFT`` of its radius of one
        of that face's. Its body and surroundings were checked then, at the same places; a
        doubt now would leave that reading standing anyway (``dice._merge``: a die one pass read
        and the other did not stands), so only its confidence, from these pips' shapes and
        contrast, is worked out again."""
        if value is None or len(idx) < 2:
            # (a lone pip is a 1 by what lies around it, a letter's loop, marks, its body's
            # centre, which the finer filter outlines anew)
            return None
        for die in self.again:
            if die.value == value and len(die.pips) == len(idx) and all(
                    min(math.hypot(x - px, y - py) for px, py in die.pips) <= AGAIN_SHIFT * float(self.r[i])
                    for i, (x, y) in zip(idx, self.xy[idx].tolist())):
                return die
        return None
