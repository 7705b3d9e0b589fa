"""Reading six-sided dice: ``read_dice(frame, calibration=None) -> DiceReading``.

The reader works from the pips outwards, so it needs no die size, colour or tray colour:

1. pips are found by local contrast in each colour channel (``pips.find_pips``);
2. pips are linked into faces when alike and joined by the die's body colour only;
3. each face is checked against the six standard layouts, and against its die body (the
   region of the body colour around it): the body must be die-sized for its pips, hold no
   other pips, and be centred on the face;
4. anything that fails is reported as ``Uncertain`` with the reason; it never becomes a value.

Pips that are strongly foreshortened belong to side faces seen at a slant and are ignored.
The frame is scaled down internally for large photos; positions are in the caller's pixels.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .calibration import Calibration
from .pips import Pip, empty_positions, find_pips, layout_value
from .segment import working_image
from .types import DiceReading, Die, Uncertain

# Colour distance (Lab, 0-255 per channel) within which two samples count as the same body.
BODY_TOLERANCE = 38.0
# Pips flatter than this (minor/major axis) lie on a side face seen at a slant.
SIDE_FACE_RATIO = 0.65


def read_dice(frame: np.ndarray, calibration: Calibration | None = None) -> DiceReading:
    """Read every die in ``frame`` (BGR or grey ndarray of any size)."""
    cal = calibration or Calibration()
    img, scale = working_image(frame)
    offset = (0, 0)
    if cal.tray is not None:
        img, offset = _crop(img, cal.tray)
    reading = _read(img, cal)
    if reading is None or (not reading.dice and min(img.shape[:2]) >= 400):
        # Nothing readable: the dice may be close-ups with pips bigger than the pip kernel.
        half = cv2.resize(img, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        second = _read(half, cal)
        if second is not None and (second.dice or reading is None):
            reading = _rescale(second, 2.0, (0, 0))
    reading = reading or DiceReading()
    return _rescale(reading, 1.0 / scale, offset, pre=True)


def _crop(img: np.ndarray, tray) -> tuple[np.ndarray, tuple[int, int]]:
    h, w = img.shape[:2]
    x0, y0 = int(tray[0] * w), int(tray[1] * h)
    x1, y1 = int((tray[0] + tray[2]) * w), int((tray[1] + tray[3]) * h)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 16 or y1 - y0 < 16:
        return img, (0, 0)
    return img[y0:y1, x0:x1], (x0, y0)


def _rescale(reading: DiceReading, factor: float, offset, pre: bool = False) -> DiceReading:
    ox, oy = offset

    def pos(x, y):
        return ((x + ox) * factor, (y + oy) * factor) if pre else (x * factor + ox, y * factor + oy)

    dice = [Die(d.value, *pos(d.x, d.y), d.confidence) for d in reading.dice]
    unc = [Uncertain(*pos(u.x, u.y), u.reason) for u in reading.uncertain]
    return DiceReading(dice, unc)


def _pip_kernel(img: np.ndarray) -> int:
    # Wider than the biggest pip we expect: a die rarely spans more than 1/8 of the frame.
    return max(9, round(max(img.shape[:2]) / 30)) | 1


def _read(img: np.ndarray, cal: Calibration) -> DiceReading | None:
    pips = find_pips(img, _pip_kernel(img))
    if not pips:
        return None
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] *= 0.75   # shading changes lightness more than hue
    faces = FaceFinder(lab, pips, cal)
    return faces.read()


class FaceFinder:
    """Links pips into faces and judges each face (one instance per frame)."""

    def __init__(self, lab: np.ndarray, pips: list[Pip], cal: Calibration):
        self.lab = lab
        self.h, self.w = lab.shape[:2]
        self.pips = pips
        self.cal = cal
        self.xy = np.array([(p.x, p.y) for p in pips], np.float32)
        self.r = np.array([p.r for p in pips], np.float32)
        self.rings = np.array([self._ring_colour(p) for p in pips], np.float32)

    # -- sampling -------------------------------------------------------------------
    def _sample(self, xs, ys) -> np.ndarray:
        xi = np.clip(np.round(xs).astype(int), 0, self.w - 1)
        yi = np.clip(np.round(ys).astype(int), 0, self.h - 1)
        return self.lab[yi, xi]

    def _ring_colour(self, p: Pip) -> np.ndarray:
        a = np.linspace(0, 2 * math.pi, 12, endpoint=False)
        rad = 1.9 * p.r + 1.0
        return np.median(self._sample(p.x + rad * np.cos(a), p.y + rad * np.sin(a)), axis=0)

    def _joined(self, i: int, j: int) -> bool:
        """True when pips i and j lie on one face: same body colour all the way between."""
        pi, pj = self.pips[i], self.pips[j]
        if pi.dark != pj.dark or min(pi.ratio, pj.ratio) < SIDE_FACE_RATIO:
            return False   # side-face pips never join a face: they would inflate the count
        if max(pi.r, pj.r) > 1.6 * min(pi.r, pj.r):
            return False
        d = float(np.hypot(pi.x - pj.x, pi.y - pj.y))
        rr = max(pi.r, pj.r)
        if d < 2.0 * rr or d > 11.0 * rr:
            return False
        body = (self.rings[i] + self.rings[j]) / 2
        if np.linalg.norm(self.rings[i] - self.rings[j]) > BODY_TOLERANCE:
            return False
        t = np.linspace(0, 1, max(8, int(d / 2)))
        xs, ys = pi.x + t * (pj.x - pi.x), pi.y + t * (pj.y - pi.y)
        # Leave out the pips themselves (the two ends and any pip lying on the line).
        near = np.linalg.norm(self.xy[:, None, :] - np.stack([xs, ys], 1)[None], axis=2)
        keep = ~(near < 1.5 * self.r[:, None]).any(axis=0)
        if keep.sum() < 3:
            return True
        cols = self._sample(xs[keep], ys[keep])
        dist = np.linalg.norm(cols - body, axis=1)
        return float((dist < BODY_TOLERANCE).mean()) >= 0.9

    # -- grouping ----------------------------------------------------------------------
    def groups(self) -> list[list[int]]:
        n = len(self.pips)
        parent = list(range(n))

        def find(a):
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        for i in range(n):
            d = np.hypot(*(self.xy - self.xy[i]).T)
            for j in np.nonzero((d < 11.0 * np.maximum(self.r, self.r[i])) & (np.arange(n) > i))[0]:
                if find(i) != find(j) and self._joined(i, int(j)):
                    parent[find(i)] = find(int(j))
        out: dict[int, list[int]] = {}
        for i in range(n):
            out.setdefault(find(i), []).append(i)
        return list(out.values())

    # -- the die body around a face --------------------------------------------------------
    def _body(self, idx: list[int]):
        """The die body around pips ``idx``: (mask, x0, y0, bounded) or None."""
        pts = self.xy[idx]
        c = pts.mean(axis=0)
        r = float(self.r[idx].mean())
        spread = float(np.linalg.norm(pts - c, axis=1).max()) if len(idx) > 1 else 0.0
        half = int(max(3.0 * spread, 10 * r)) + 2
        x0, y0 = max(0, int(c[0]) - half), max(0, int(c[1]) - half)
        x1, y1 = min(self.w, int(c[0]) + half + 1), min(self.h, int(c[1]) + half + 1)
        body = np.median(self.rings[idx], axis=0)
        win = self.lab[y0:y1, x0:x1]
        mask = (np.linalg.norm(win - body, axis=2) < BODY_TOLERANCE).astype(np.uint8)
        for i in idx:   # the pips themselves belong to the body
            cv2.circle(mask, (int(round(self.xy[i][0] - x0)), int(round(self.xy[i][1] - y0))),
                       int(math.ceil(self.r[i] * 1.6)), 1, -1)
        n, labels = cv2.connectedComponents(mask, connectivity=4)
        lab_at = labels[np.clip(pts[:, 1].astype(int) - y0, 0, y1 - y0 - 1),
                        np.clip(pts[:, 0].astype(int) - x0, 0, x1 - x0 - 1)]
        lab_at = lab_at[lab_at > 0]
        if lab_at.size == 0:
            return None
        comp = (labels == np.bincount(lab_at).argmax()).astype(np.uint8)
        comp = cv2.morphologyEx(comp, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        ys, xs = np.nonzero(comp)
        # A die body may touch one side of the window (a side face seen at a slant, a
        # neighbour of the same colour); a plain surface runs out of it on several sides.
        touching = int(xs.min() == 0 and x0 > 0) + int(ys.min() == 0 and y0 > 0) + \
            int(xs.max() == x1 - x0 - 1 and x1 < self.w) + int(ys.max() == y1 - y0 - 1 and y1 < self.h)
        bounded = touching <= 1 and xs.size < 0.6 * comp.size
        return comp, x0, y0, bounded

    def _empty_where_expected(self, idx: list[int], value: int) -> bool:
        spots = empty_positions(self.xy[idx], value)
        if len(spots) == 0:
            return True
        body = np.median(self.rings[idx], axis=0)
        pip_col = np.median(self._sample(self.xy[idx][:, 0], self.xy[idx][:, 1]), axis=0)
        r = float(self.r[idx].mean()) * 0.6
        a = np.linspace(0, 2 * math.pi, 6, endpoint=False)
        for sx, sy in spots:
            cols = self._sample(np.r_[sx, sx + r * np.cos(a)], np.r_[sy, sy + r * np.sin(a)])
            col = np.median(cols, axis=0)
            # A spot nearer the pips' colour than the body's is a pip we failed to find.
            if np.linalg.norm(col - pip_col) < np.linalg.norm(col - body):
                return False
        return True

    # -- judging ------------------------------------------------------------------------
    def read(self) -> DiceReading:
        reading = DiceReading()
        for idx in self.groups():
            self._judge(idx, reading)
        return reading

    def _judge(self, idx: list[int], reading: DiceReading) -> None:
        pts = self.xy[idx]
        cx, cy = (float(v) for v in pts.mean(axis=0))
        ratios = np.array([self.pips[i].ratio for i in idx])
        if float(np.median(ratios)) < SIDE_FACE_RATIO:
            return   # a side face seen at a slant: not the top face, not a reading
        value, quality, reason = layout_value(pts)
        body = self._body(idx)
        r = float(self.r[idx].mean())
        if body is None:
            if value is not None and len(idx) >= 2:
                reading.uncertain.append(Uncertain(cx, cy, "no die body around the pips"))
            return
        comp, x0, y0, bounded = body
        area = float(comp.sum())
        side = math.sqrt(area)
        if not bounded:
            if len(idx) == 1:
                return   # a lone round spot on a big plain surface: not evidence of a die
            if len(idx) <= 3:
                # Two or three spots are weak evidence on their own: without a die body
                # around them they may be anything (holes, print, a side face).
                reading.uncertain.append(Uncertain(cx, cy, "no die body around the pips"))
                return
            side = None
        else:
            cnts, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            (bx, by), (bw, bh), _ = cv2.minAreaRect(max(cnts, key=cv2.contourArea))
            bx, by = bx + x0, by + y0
            aspect = max(bw, bh) / max(1.0, min(bw, bh))
            fill = area / max(1.0, bw * bh)
            side = math.sqrt(max(1.0, bw * bh))
            die_like = aspect < 1.7 and fill > 0.6 and 3.5 * r < side < 20 * r
            if len(idx) == 1:
                if not die_like:
                    return
                if math.hypot(bx - cx, by - cy) > 0.2 * side:
                    reading.uncertain.append(Uncertain(bx, by, "lone pip off the face centre"))
                    return
            elif not die_like:
                reading.uncertain.append(Uncertain(cx, cy, "pips not on a die-shaped body"))
                return
            # Other round pips on the same body mean a face we did not link completely.
            others = [k for k in range(len(self.pips)) if k not in idx
                      and self.pips[k].ratio >= SIDE_FACE_RATIO
                      and self.pips[k].dark == self.pips[idx[0]].dark
                      and 0 <= int(self.xy[k][1]) - y0 < comp.shape[0]
                      and 0 <= int(self.xy[k][0]) - x0 < comp.shape[1]
                      and comp[int(self.xy[k][1]) - y0, int(self.xy[k][0]) - x0]]
            if others:
                reading.uncertain.append(Uncertain(cx, cy, "pips of one face not all linked"))
                return
            if value is not None and len(idx) >= 2 and math.hypot(bx - cx, by - cy) > 0.3 * side:
                reading.uncertain.append(Uncertain(cx, cy, "face not centred on its die"))
                return
        if value is None:
            reading.uncertain.append(Uncertain(cx, cy, reason))
            return
        if not self._empty_where_expected(idx, value):
            reading.uncertain.append(Uncertain(cx, cy, f"a spot where a {value} has no pip"))
            return
        contrast = min(1.0, float(np.mean([self.pips[i].contrast for i in idx])) / 90.0)
        conf = 0.5 + 0.5 * quality * min(1.0, float(ratios.min()) / 0.8) * (0.6 + 0.4 * contrast)
        if side is None:
            conf *= 0.8
        reading.dice.append(Die(value, cx, cy, round(min(1.0, conf), 3)))
