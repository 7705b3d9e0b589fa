"""Pips: finding the small round spots on dice and checking that they form a die face.

Pips are found by local contrast in each colour channel (a morphological top-hat for light
pips, a black-hat for dark ones), so black pips on white dice, white pips on red dice and
yellow pips on green dice are all found without knowing the colours (a pip found both
as light and as dark is kept once). ``layout_value``
checks that a group of pips forms one of the six standard faces, and ``empty_positions``
says where such a face must have no pip (the grouping itself lives in ``faces.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from .segment import blob_outlines

# A blob is outlined where its contrast is at least this share of its own peak; the higher
# shares are tried when the lower one merges the blob with something else.
CUTS = (0.6, 0.7, 0.8)


@dataclass
class Pip:
    x: float
    y: float
    r: float            # equivalent radius (sqrt(area / pi))
    ratio: float        # minor / major axis of the blob: 1 round, small = foreshortened
    angle: float        # orientation of the major axis, radians
    contrast: float     # peak local contrast, 0-255
    dark: bool          # found as darker than its surroundings (in the strongest channel)


def contrast_maps(img: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-pixel strongest light-spot and dark-spot contrast over the three colour channels."""
    # A square kernel: OpenCV runs it as two fast 1-D passes, and a pip fits in it as well.
    # Top-hat and black-hat spelt out as erode/dilate of all three channels at once: the
    # same result as morphologyEx per channel, in about half the time.
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    # (The differences overwrite opened/closed: a fresh full-frame buffer costs more than
    # the subtraction.)
    opened = cv2.dilate(cv2.erode(img, kernel), kernel)
    closed = cv2.erode(cv2.dilate(img, kernel), kernel)
    light = cv2.split(cv2.subtract(img, opened, dst=opened))
    dark = cv2.split(cv2.subtract(closed, img, dst=closed))
    return (cv2.max(cv2.max(light[0], light[1]), light[2]),
            cv2.max(cv2.max(dark[0], dark[1]), dark[2]))


# The least area (px) of a blob taken for a pip.
MIN_PIP_AREA = 7.0


class ContrastMaps(NamedTuple):
    """``smooth_contrast``'s light- and dark-spot maps, and boxes (x, y, w, h) that hold
    every pixel where either map reaches the ``peak`` it was made for (None: not known)."""
    light: np.ndarray
    dark: np.ndarray
    boxes: list[tuple[int, int, int, int]] | None = None


def smooth_contrast(img: np.ndarray, k: int, bound: ContrastMaps | None = None,
                    peak: int = 45, within: np.ndarray | None = None) -> ContrastMaps:
    """The light- and dark-spot contrast maps of filter size ``k``, smoothed (3x3 Gaussian):
    what ``find_pips`` picks its seeds and outlines its blobs from.

    ``bound``: these maps for a larger filter over the same image. A top-hat grows with its
    window (an opening by a larger square is never brighter), so no pixel reaches ``peak``
    here where it did not there: only the places that did, and the windows the blobs are
    outlined in around them, are computed; the rest stays 0, which gives the same pips as
    the whole map would, in a fraction of the time.

    ``within`` (without ``bound``): a mask of where pips may be, the things off the tray: a
    pip is on one, or is one itself (a dark pip on a die the tray's colour). Seeds are
    looked for only within a blob window of it, and the maps are computed only where those
    seeds' blobs and maxima tests look; the rest stays 0. A pip on the mask comes out as a
    search of the whole image finds it; for one die, a thirtieth of the frame is searched.
    """
    h, w = img.shape[:2]
    # Every pixel a seed's window (``find_pips``: ``half`` around it) or its 5x5 maxima
    # test may look at must be exact.
    reach = max(k // 2 + 1, 2)
    if bound is None and within is not None:
        seed_boxes = _boxes_near(within, reach)
        # (The boxes grown by a window, overlapping ones computed once as their union's box.)
        grown = np.zeros((h, w), np.uint8)
        for x, y, bw, bh in seed_boxes:
            grown[max(0, y - reach):y + bh + reach, max(0, x - reach):x + bw + reach] = 255
        light, dark = _contrast_in(img, k, _boxes_near(grown, 0))
        return ContrastMaps(light, dark, seed_boxes)
    if bound is None:
        light, dark = (cv2.GaussianBlur(m, (3, 3), 0) for m in contrast_maps(img, k))
        # (The places that reach ``peak`` are few: ``find_pips`` looks for its seeds there.)
        above = cv2.threshold(cv2.max(light, dark), peak - 1, 255, cv2.THRESH_BINARY)[1]
        outlines, _ = cv2.findContours(above, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        return ContrastMaps(light, dark, [cv2.boundingRect(c) for c in outlines])
    seeds = cv2.threshold(cv2.max(bound.light, bound.dark), peak - 1, 255, cv2.THRESH_BINARY)[1]
    boxes = _boxes_near(seeds, reach)
    light, dark = _contrast_in(img, k, boxes)
    return ContrastMaps(light, dark, boxes)


def _boxes_near(mask: np.ndarray, reach: int) -> list[tuple[int, int, int, int]]:
    """The boxes (x, y, w, h) of the regions within ``reach`` px (a square's) of ``mask``."""
    if reach:
        mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * reach + 1, 2 * reach + 1)))
    # (The outer contours' boxes are the regions' boxes: far cheaper than a labelling.)
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [cv2.boundingRect(c) for c in outlines]


def _contrast_in(img: np.ndarray, k: int, boxes: list[tuple[int, int, int, int]]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``smooth_contrast``'s maps, exact within ``boxes`` and 0 elsewhere."""
    h, w = img.shape[:2]
    light, dark = np.zeros((h, w), np.uint8), np.zeros((h, w), np.uint8)
    # A pixel's top-hat depends on the image within k - 1 of it, its blur on 1 more.
    margin = k
    for x, y, bw, bh in boxes:
        x0, y0 = max(0, x - margin), max(0, y - margin)
        x1, y1 = min(w, x + bw + margin), min(h, y + bh + margin)
        part_light, part_dark = contrast_maps(img[y0:y1, x0:x1], k)
        inner = (slice(y - y0, y - y0 + bh), slice(x - x0, x - x0 + bw))
        light[y:y + bh, x:x + bw] = cv2.GaussianBlur(part_light, (3, 3), 0)[inner]
        dark[y:y + bh, x:x + bw] = cv2.GaussianBlur(part_dark, (3, 3), 0)[inner]
    return light, dark


def find_pips(img: np.ndarray, k: int, peak: int = 45, min_area: float = MIN_PIP_AREA,
              maps: ContrastMaps | None = None) -> list[Pip]:
    """Round, contrasting blobs smaller than the kernel size ``k``: the pip candidates
    (``maps``: the image's ``smooth_contrast`` for ``k`` and ``peak``, if already computed).

    Each blob is cut at a share of its own peak contrast (``CUTS``), so a faint pip and a
    strong one are both outlined well and a pip does not melt into a dark gap next to it.
    """
    if maps is None:
        maps = smooth_contrast(img, k, peak=peak)
    max_area = math.pi * (k * 0.45) ** 2
    half = k // 2 + 1
    h, w = img.shape[:2]
    pips: list[Pip] = []
    for smooth, is_dark in ((maps.light, False), (maps.dark, True)):
        xs, ys = _seeds(smooth, peak, maps.boxes)
        if not len(xs):
            continue
        # (strongest first)
        order = np.argsort(-smooth[ys, xs], kind="stable")
        taken = np.zeros((h, w), bool)
        for y, x in zip(ys[order].tolist(), xs[order].tolist()):
            if taken[y, x]:
                continue
            y0, x0 = max(0, y - half), max(0, x - half)
            win = smooth[y0:y + half + 1, x0:x + half + 1]
            top = int(smooth[y, x])
            last = _blob_at(win, x - x0, y - y0, top, len(CUTS) - 1)
            bx, by, bw, bh, area, inside, sub = last
            # The highest cut gives the smallest blob: if even that runs out of the window or
            # is too big, so does the blob of every lower cut, and the seed is no pip. Most
            # seeds are like that (die edges, texture): one cut instead of three for them.
            level = 0 if inside and area <= max_area else len(CUTS)
            # Cut the blob at a rising share of its peak until it comes out as a round spot:
            # a pip next to a dark die edge separates from it at a higher cut.
            while level < len(CUTS):
                if level < len(CUTS) - 1:
                    bx, by, bw, bh, area, inside, sub = _blob_at(win, x - x0, y - y0, top, level)
                    if area < min_area:
                        # Higher cuts only shrink the blob: none of them can be a pip either.
                        level = len(CUTS) - 1
                        continue
                else:
                    bx, by, bw, bh, area, inside, sub = last
                # A blob that runs out of the window is a line or a region, not a spot.
                if min_area <= area <= max_area and inside:
                    pip = _spot(sub, x0 + bx, y0 + by, area, float(top), is_dark)
                    if pip is not None:
                        pips.append(pip)
                        break
                level += 1
            taken[y0 + by:y0 + by + bh, x0 + bx:x0 + bx + bw] |= sub
    return _one_per_spot(pips)


def _seeds(smooth: np.ndarray, peak: int, boxes: list[tuple[int, int, int, int]] | None
           ) -> tuple[np.ndarray, np.ndarray]:
    """Where ``find_pips`` starts its blobs: local maxima of ``smooth`` at least ``peak``,
    one per patch of touching maxima (its first pixel), in raster order. Only ``boxes`` are
    looked at (None: all of ``smooth``): no other pixel reaches ``peak``."""
    h, w = smooth.shape
    five = np.ones((5, 5), np.uint8)
    if boxes is None:
        maxima = cv2.bitwise_and(cv2.compare(smooth, cv2.dilate(smooth, five), cv2.CMP_GE),
                                 cv2.threshold(smooth, peak - 1, 1, cv2.THRESH_BINARY)[1])
    else:
        maxima = np.zeros((h, w), np.uint8)
        for x, y, bw, bh in boxes:
            # (Worked out with 2 px more around, which the 5x5 maxima test looks at, and
            # kept inside the box only, where it is exact.)
            x0, y0 = max(0, x - 2), max(0, y - 2)
            part = smooth[y0:min(h, y + bh + 2), x0:min(w, x + bw + 2)]
            inner = (slice(y - y0, y - y0 + bh), slice(x - x0, x - x0 + bw))
            maxima[y:y + bh, x:x + bw] = cv2.bitwise_and(
                cv2.compare(part, cv2.dilate(part, five), cv2.CMP_GE),
                cv2.threshold(part, peak - 1, 1, cv2.THRESH_BINARY)[1])[inner]
    # One seed per patch of touching maxima, its first pixel in raster order: a flat top or
    # a ridge (a die edge) is one candidate, not hundreds. An outline starts at that pixel,
    # and tracing the outlines of the few sparse patches costs far less than labelling the
    # frame.
    outlines = blob_outlines(maxima)
    if not outlines:
        return np.empty(0, np.intp), np.empty(0, np.intp)
    starts = np.array([c[0, 0] for c in outlines])
    starts = starts[np.argsort(starts[:, 1] * w + starts[:, 0])]
    return starts[:, 0], starts[:, 1]


class PipSearch:
    """The pips of one image at the filter sizes asked for, each size searched once. A
    smaller filter is only run where the nearest larger one already searched could have
    found a seed (``smooth_contrast``'s ``bound``); the widest only near ``within``, if given
    (``smooth_contrast``'s). Pips centred on ``printed`` (a 0/1 mask of the image's print,
    ``printed.print_mask``; ``leave_out``) are left out of every size's."""

    def __init__(self, img: np.ndarray, within: np.ndarray | None = None, printed: np.ndarray | None = None):
        self.img = img
        self.within = within
        self.printed = printed
        self._maps: dict[int, ContrastMaps] = {}
        self._pips: dict[int, list[Pip]] = {}

    def leave_out(self, printed: np.ndarray | None) -> None:
        """Leave the pips centred on ``printed`` (a 0/1 mask of the image's print, or None)
        out of every size's, searched already or yet to be."""
        self.printed = printed
        self._pips = {k: self._off_print(pips) for k, pips in self._pips.items()}

    def on_print(self, x: float, y: float) -> bool:
        """Whether (x, y) of the image lies on its print (``leave_out``)."""
        if self.printed is None:
            return False
        h, w = self.printed.shape
        return bool(self.printed[min(max(int(y), 0), h - 1), min(max(int(x), 0), w - 1)])

    def _off_print(self, pips: list[Pip]) -> list[Pip]:
        return pips if self.printed is None else [p for p in pips if not self.on_print(p.x, p.y)]

    def strongest(self) -> np.ndarray:
        """Each pixel's strongest spot contrast, light or dark, through the widest filter
        searched (the one whose maps cover everything searched)."""
        maps = self._maps[max(self._maps)]
        return cv2.max(maps.light, maps.dark)

    def find(self, k: int) -> list[Pip]:
        if k not in self._pips:
            larger = [size for size in self._maps if size > k]
            bound = self._maps[min(larger)] if larger else None
            self._maps[k] = smooth_contrast(self.img, k, bound, within=self.within)
            self._pips[k] = self._off_print(find_pips(self.img, k, maps=self._maps[k]))
        return self._pips[k]

    def of(self, img: np.ndarray, within: np.ndarray | None = None, m: np.ndarray | None = None) -> PipSearch:
        """A search of ``img``, this search's image resized (or, by ``m``, flattened:
        ``perspective.flattened``; ``within`` its ``within``), leaving out this search's
        print there."""
        printed = self.printed
        if printed is not None:
            size = (img.shape[1], img.shape[0])
            printed = (cv2.warpPerspective(printed, m, size, flags=cv2.INTER_NEAREST) if m is not None
                       else cv2.resize(printed, size, interpolation=cv2.INTER_NEAREST))
        return PipSearch(img, within, printed)


def _blob_at(win: np.ndarray, x: int, y: int, top: int, level: int):
    """The blob through (x, y) of window ``win`` cut at ``CUTS[level]`` of ``top``: its
    bounding box, area, whether it stays clear of the window's edges, and its mask."""
    wh, ww = win.shape
    mask = np.zeros((wh + 2, ww + 2), np.uint8)
    # The 8-connected pixels >= CUTS * top around the seed (whose value is ``top``): one
    # flood fill gives the blob, its area and its box (a labelling of the whole window
    # costs more).
    area, _, _, (bx, by, bw, bh) = cv2.floodFill(
        win, mask, (x, y), 0, top - math.ceil(CUTS[level] * top), 255,
        8 | cv2.FLOODFILL_FIXED_RANGE | cv2.FLOODFILL_MASK_ONLY | (1 << 8))
    inside = bx > 0 and by > 0 and bx + bw < ww and by + bh < wh
    return bx, by, bw, bh, area, inside, mask[by + 1:by + bh + 1, bx + 1:bx + bw + 1].view(bool)


def _one_per_spot(pips: list[Pip]) -> list[Pip]:
    """Drop a pip found twice: a coloured pip can stand out as light in one channel and as
    dark in another, and two finds of one pip would count it twice (a 2 read as a 3). Of two
    pips overlapping each other's centre, the one of stronger contrast stays."""
    if len(pips) < 2:
        return pips
    xy = np.array([(p.x, p.y) for p in pips])
    r = np.array([p.r for p in pips])
    d = np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(axis=2))
    overlap = d < np.maximum(r[:, None], r[None, :])
    np.fill_diagonal(overlap, False)
    # Most pips overlap no other and stay; only the rest need the strongest-first pass.
    clash = overlap.any(axis=1)
    order = sorted(np.flatnonzero(clash).tolist(), key=lambda i: -pips[i].contrast)
    kept = np.flatnonzero(~clash).tolist()
    for i in order:
        if not overlap[i, kept].any():
            kept.append(i)
    return [pips[i] for i in sorted(kept)]


def _spot(sub: np.ndarray, x0: int, y0: int, area: int, contrast: float, is_dark: bool):
    """The Pip for blob mask ``sub`` (its bounding box, at x0, y0, ``area`` pixels set), or
    None if it is not a round spot."""
    m = cv2.moments(sub.view(np.uint8), binaryImage=True)
    mu20, mu02, mu11 = m["mu20"] / area, m["mu02"] / area, m["mu11"] / area
    common = math.sqrt(max(0.0, ((mu20 - mu02) / 2) ** 2 + mu11 ** 2))
    l1 = (mu20 + mu02) / 2 + common
    l2 = (mu20 + mu02) / 2 - common
    if l2 <= 0:
        return None
    a, b = 2 * math.sqrt(l1), 2 * math.sqrt(l2)   # semi-axes of the equivalent ellipse
    fill = area / (math.pi * a * b)
    ratio = b / a
    if not 0.72 < fill < 1.25 or ratio < 0.4:     # not an ellipse: a corner, a line, a letter
        return None
    return Pip(x=x0 + m["m10"] / m["m00"], y=y0 + m["m01"] / m["m00"], r=math.sqrt(area / math.pi),
               ratio=ratio, angle=0.5 * math.atan2(2 * mu11, mu20 - mu02), contrast=contrast,
               dark=is_dark)


# --- small-array arithmetic ---------------------------------------------------------------
# The face checks work on a handful of points at a time, where numpy's per-call overhead
# (np.mean, np.linalg.norm) costs more than the arithmetic. These give numpy's own results.

def mean_rows(a: np.ndarray) -> np.ndarray:
    """``a.mean(axis=0)`` (numpy divides the float sum by the count the same way)."""
    s = a.sum(axis=0)
    return np.true_divide(s, np.intp(len(a)), out=s, casting="unsafe")


def norms(a: np.ndarray, axis: int = -1) -> np.ndarray:
    """``np.linalg.norm(a, axis=axis)`` of a real float array."""
    return np.sqrt((a * a).sum(axis=axis))


def norm(v: np.ndarray):
    """``np.linalg.norm(v)`` of a real float vector."""
    return np.sqrt(v.dot(v))


class Groups:
    """Things joined into groups, by union-find (pips into faces: ``faces.FaceFinder``;
    marks into rows of print: ``printed``)."""

    def __init__(self, n: int):
        self._parent = list(range(n))

    def find(self, a: int) -> int:
        parent = self._parent
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def join(self, a: int, b: int) -> None:
        self._parent[self.find(a)] = self.find(b)

    def groups(self) -> list[list[int]]:
        """Each group's members, in order, the groups in the order of their first."""
        out: dict[int, list[int]] = {}
        for a in range(len(self._parent)):
            out.setdefault(self.find(a), []).append(a)
        return list(out.values())


# --- layouts ---------------------------------------------------------------------------

def layout_value(pts: np.ndarray, tol: float = 0.3) -> tuple[int | None, float, str]:
    """Check that the pip centres ``pts`` (n x 2) form a standard face; returns
    (value or None, quality 0-1, reason when None).

    Only ratios are used (distances relative to the face's own spread), so the check holds
    at any scale and any rotation, and tolerates the mild perspective of a slanted camera.
    """
    n = len(pts)
    if n == 1:
        return 1, 1.0, ""
    if n > 6:
        return None, 0.0, f"{n} pips: more than a die face holds"
    c = mean_rows(pts)
    d = norms(pts - c)
    order = np.argsort(d)
    dmax = d.max()
    if dmax <= 0:
        return None, 0.0, "pips on top of each other"
    rel = d / dmax

    def spread(values) -> float:
        values = np.asarray(values)
        return float(values.max() - values.min()) / max(float(values.mean()), 1e-6)

    if n == 2:
        return 2, 1.0, ""
    if n == 3:
        a, b = pts[order[1]] - pts[order[0]], pts[order[2]] - pts[order[0]]
        cosang = float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))
        err = max(rel[order[0]] / 0.5, (1 + cosang) / 0.3, spread(d[order[1:]]) / 0.6)
        return (3, 1 - err / 2, "") if err < 1 else (None, 0.0, "3 pips not in a line")
    if n in (4, 5):
        outer = order[-4:]
        err = spread(d[outer]) / (tol * 1.5)
        # The four outer pips, sorted by angle, must be ~90 degrees apart (a square).
        ang = np.sort(np.arctan2(*(pts[outer] - c).T[::-1]))
        gaps = np.diff(np.concatenate([ang, ang[:1] + 2 * math.pi]))
        err = max(err, float(np.abs(gaps - math.pi / 2).max()) / 0.55)
        if n == 5:
            err = max(err, rel[order[0]] / 0.35)
        return (n, 1 - err / 2, "") if err < 1 else (None, 0.0, f"{n} pips not in a square")
    # n == 6: two rows of three -- the two nearest the centre are the middle ones (~0.71 of
    # the corners' distance), and the four corners are equally far.
    inner, outer = order[:2], order[2:]
    ratio = float(d[inner].mean() / d[outer].mean())
    err = max(abs(ratio - 0.707) / 0.2, spread(d[outer]) / (tol * 1.5), spread(d[inner]) / 0.5)
    # The middle pips lie opposite each other through the centre.
    v1, v2 = pts[inner[0]] - c, pts[inner[1]] - c
    cosang = float(np.dot(v1, v2) / (np.linalg.norm(v1) * np.linalg.norm(v2) + 1e-9))
    err = max(err, (1 + cosang) / 0.3)
    return (6, 1 - err / 2, "") if err < 1 else (None, 0.0, "6 pips not in two rows")


def empty_positions(pts: np.ndarray, value: int) -> np.ndarray:
    """Where a face of ``value`` with pips ``pts`` must have NO pip (the other spots of the
    3x3 grid): used to catch a pip that was missed (a 5 read as a 4, a 3 as a 2)."""
    n = len(pts)
    if value < 2 or n != value:
        return np.zeros((0, 2))
    c = mean_rows(pts)
    d = norms(pts - c)
    a = int(np.argmax(d))
    # The corner diagonally opposite pip ``a`` is the pip farthest from it.
    b = int(np.argmax(norms(pts - pts[a])))
    centre = (pts[a] + pts[b]) / 2
    v = (pts[b] - pts[a]) / 2
    w = np.array([-v[1], v[0]])
    corners = [centre + v, centre - v, centre + w, centre - w]
    mids = [centre + (v + w) / 2, centre - (v + w) / 2, centre + (v - w) / 2, centre - (v - w) / 2]
    spots = corners + mids + [centre]
    # Keep the grid spots that no pip occupies (a pip within ~1/3 of the spacing).
    spacing = float(norm(v)) / math.sqrt(2)
    spots = np.array(spots)
    near = np.sqrt(((pts[None, :, :] - spots[:, None, :]) ** 2).sum(axis=2)).min(axis=1)
    return spots[near > 0.45 * spacing]
