"""Print beside the tray (a rulebook's page, a score pad). Its letters are dark marks of a
pip's size by the hundred, and the pip search finds pips in many of them: hundreds of
letters, taller than wide, outvote the dice when the slant is measured, and read at any
slant some are taken for dice. Print is told from dice by what dice never make: rows of
marks side by side, closely spaced, on one colour of paper, many rows and no mark in them
a filled round spot. Dice make short rows (three pips of a 6; a few dice against a tray's
wall) of round spots, on bodies of many colours. A keyboard's legends are print too: a
letter a key, so rows of marks a key's pitch apart, evenly, on the keycaps' one colour; seen
steeply, they outvote the dice as a page's letters do. Print is dark on light or light on
dark (a dark keyboard's legends): both are looked for. The reader leaves the pips on print
out (``PipSearch.leave_out``); a die lying on the page keeps its pips, round spots on it."""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np

from .pips import Groups

# The marks are the dark spots, or the light ones, of a filter a third of the pip filter's
# size (odd, at least 5 px; a letter's strokes are thin), reaching the pip search's least
# contrast, of ``MIN_MARK_AREA`` px or more.
MARK_FILTER_SHARE = 3
MARK_PEAK = 45
MIN_MARK_AREA = 4

# A pip is a round spot filled in: a mark as long as ``DISC_LENGTH`` times its height at
# most, filling ``DISC_FILL`` of its least rectangle or more, and no speck (``DISC_HEIGHT``
# of the marks' median height or more: a stop, a dot on an i, is print). Few letters are
# (a bold o): a row of print is no more than ``ROW_DISCS`` of them, and those in it are not
# print (a die lying on the page keeps its pips). (Rendered: a pip of a white 6 among
# eight lined up touching fills 0.77-0.81; rows of letters 0.48-0.69 at the median.)
DISC_LENGTH = 1.4
DISC_FILL = 0.72
DISC_HEIGHT = 0.4
ROW_DISCS = 0.5

# Two marks are in one row where, across the row, each overlaps ``ROW_OVERLAP`` of the
# lower's height; along it, the gap between them is at most ``ROW_GAP`` times the taller's
# height; and neither is more than ``ROW_HEIGHTS`` times the other's height (a capital
# beside a small letter). A row is ``ROW_MARKS`` marks or more, as long in all as
# ``ROW_LENGTH`` times its marks' median height.
ROW_OVERLAP = 0.6
ROW_GAP = 2.0
ROW_HEIGHTS = 3.0
ROW_MARKS = 4
ROW_LENGTH = 12.0

# A keyboard's legends, a letter a key, make rows of their own: two marks are in one where
# the gap between them is at most ``KEY_GAP`` times the taller's height (the rest as a
# line's); a row is ``KEY_ROW_MARKS`` marks or more, whose steps along it are ``KEY_EVEN``
# of them within ``KEY_STEP`` of their median, the pitch, and that ``KEY_PITCH`` times their
# median height or more (a line's letters lie closer, unevenly); and whose areas spread by
# ``KEY_ALIKE`` of their mean or more (letters differ; pips are alike: twelve white 6s
# lined up touching, seen from 55 degrees, make four rows of 8 such pips, spread 0.02-0.11,
# which the disc rule misses, their pips flattened; a keyboard's rows spread 0.19-0.43).
# Where too few marks lie in lines, legends are print where ``KEY_MARKS`` marks or more lie
# in ``KEY_ROWS`` such rows or more on paper (the keycaps' colour, as below). (Rendered
# keyboards seen 55 degrees from overhead through a 60-degree webcam near them, 10 frames:
# a light one's 34-46 marks in such rows, a dark one's light marks 0-46, 24 or more in 8;
# from afar at 0-55 degrees, 0-49. The 250 dev photos as webcam frames at 0, 40 and 55
# degrees: at most 10 marks in such rows on one colour.)
KEY_GAP = 8.0
KEY_ROW_MARKS = 5
KEY_PITCH = 2.5
KEY_STEP = 0.2
KEY_EVEN = 0.7
KEY_ALIKE = 0.15
KEY_MARKS = 24
KEY_ROWS = 2

# Print is ``PRINT_MARKS`` marks or more in such rows, each row on paper: the image around
# its marks (each filled in as if it were not there) within ``PAPER_SPREAD`` in every
# channel of the paper's colour along the row (``_off_the_paper``), for 4 in 5 of them; a
# mark of a row off the paper is no print. (Rendered pages seen 55 degrees from overhead
# through a 60-degree webcam near them, and from afar at 40 and 55 degrees: 103-333 marks
# in rows, 0-10 off the paper. The 250 dev photos as webcam frames at 0, 40 and 55
# degrees: at most 37 marks in rows, at most 22 in rows on one colour: dice against a
# tray's wall. scikit-image's scanned page, darker to one side, seen 40 and 55 degrees
# from overhead: 33-66 off its rows' median colours, print only along them.)
PRINT_MARKS = 40
PAPER_SPREAD = 25.0

# Within ``BLOCK_GROW`` times the rows' median height of a row's marks, every mark of a
# letter's size (no higher than ``LETTER_HEIGHTS`` times it) on the paper is print too: a
# row broken by a capital, a stop, a word run into the line below. Inside a letter, a hole
# of up to the rows' height squared is print (an o's, a p's: a light spot the pip search
# finds pips in, hundreds on a page seen steeply and stretched back); and around the
# letters, the mark filter's width (the paper between two letters, a light spot too).
BLOCK_GROW = 2.0
LETTER_HEIGHTS = 2.0


class _Marks(NamedTuple):
    """The marks of an image: ``labels``' components ``ids``, their centres, lengths and
    heights (their least rectangles' long and short sides), the angles of their long sides
    (degrees, 0-180), and their areas (px)."""
    ids: np.ndarray
    centres: np.ndarray
    lengths: np.ndarray
    heights: np.ndarray
    angles: np.ndarray
    areas: np.ndarray

    @property
    def fills(self) -> np.ndarray:
        """How much of its least rectangle each mark fills."""
        return self.areas / (self.lengths * self.heights)


def print_mask(img: np.ndarray, fg: np.ndarray | None, kernel: int) -> np.ndarray | None:
    """The pixels of ``img`` (BGR; ``fg``: its foreground, or None) that are print, dark on
    light or light on dark (a dark keyboard's legends), as a 0/1 mask, or None where there
    is none; ``kernel``: the pip filter's size."""
    k = max(5, kernel // MARK_FILTER_SHARE) | 1
    # The image closed by the mark filter: each dark mark filled in with what is around it;
    # opened, each light one. The image's difference from either is its marks' contrast
    # (``pips.contrast_maps``' spot maps); by itself, the paper around them (``_surroundings``).
    square = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    closed = cv2.erode(cv2.dilate(img, square), square)
    opened = cv2.dilate(cv2.erode(img, square), square)
    found = [m for m in (_print(cv2.subtract(closed, img), closed, fg, k),
                         _print(cv2.subtract(img, opened), opened, fg, k)) if m is not None]
    if not found:
        return None
    return found[0] if len(found) == 1 else cv2.max(found[0], found[1])


def _print(contrast: np.ndarray, filled: np.ndarray, fg: np.ndarray | None, k: int) -> np.ndarray | None:
    """The print among the marks of one kind, as ``print_mask``: ``contrast`` (BGR), the
    image's difference from ``filled``, the image with those marks filled in by the mark
    filter (``k`` px)."""
    b, g, r = cv2.split(contrast)
    marked = cv2.threshold(cv2.max(cv2.max(b, g), r), MARK_PEAK - 1, 255, cv2.THRESH_BINARY)[1]
    if fg is not None:
        marked &= fg
    # (Counted by their outlines first, a tenth of a labelling's time; Grana's labelling is
    # a third of the default's on these sparse masks. The outlines' top level is every
    # mark's, a mark inside another's hole too.)
    outlines, tree = cv2.findContours(marked, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if tree is None:
        return None
    outlines = [c for c, node in zip(outlines, tree[0]) if node[3] < 0]
    if len(outlines) < PRINT_MARKS:
        return None
    n, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(marked, 8, cv2.CV_32S, cv2.CCL_GRANA)
    marks = _marks(labels, stats, outlines)
    if len(marks.ids) < PRINT_MARKS:
        return None
    discs = ((marks.lengths <= DISC_LENGTH * marks.heights) & (marks.fills >= DISC_FILL)
             & (marks.heights >= DISC_HEIGHT * np.median(marks.heights)))
    if np.count_nonzero(~discs) < PRINT_MARKS:
        return None
    along = _row_direction(marks)
    if along is None:
        return None
    around = None
    # Lines of print, else a keyboard's legends. The rows run along the marks (words), or
    # across them (letters taller than wide, apart): whichever holds more marks in rows.
    for rows_of, least, fewest_rows in ((_lines, PRINT_MARKS, 1), (_legends, KEY_MARKS, KEY_ROWS)):
        rows, at_u, ext_v = max((rows_of(marks, discs, a) for a in (along, along + 90.0)),
                                key=lambda found: sum(len(g) for g in found[0]))
        if sum(len(g) for g in rows) < least or len(rows) < fewest_rows:
            continue
        # On paper: each row's marks, and each mark of a row by itself (a die lying on the
        # page is no paper).
        if around is None:
            around = _surroundings(filled, labels)[marks.ids]
        paper = []
        for g in rows:
            off = _off_the_paper(around[g], at_u[g])
            if np.percentile(off, 80) <= PAPER_SPREAD:
                paper.append((g, off))
        if sum(len(g) for g, _ in paper) >= least and len(paper) >= fewest_rows:
            break
    else:
        return None
    in_rows = np.concatenate([g for g, _ in paper])
    height = float(np.median(ext_v[in_rows]))
    printed = in_rows[(np.concatenate([off for _, off in paper]) <= PAPER_SPREAD) & ~discs[in_rows]]
    keep = np.zeros(n, np.uint8)
    keep[marks.ids[printed]] = 1
    # Beside the rows, the letters on the paper where the nearest of them lies.
    grow = max(3, round(BLOCK_GROW * height) | 1)
    block = cv2.dilate(keep[labels], cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow)))
    mark_of = np.full(n, -1)
    mark_of[marks.ids] = np.arange(len(marks.ids))
    near = mark_of[np.unique(labels[(block > 0) & (labels > 0)])]
    near = near[(near >= 0) & ~discs[near] & (np.minimum(marks.lengths, marks.heights)[near] <= LETTER_HEIGHTS * height)]
    if len(near) and len(printed):
        gaps = np.hypot(*(marks.centres[near][:, None, :] - marks.centres[printed][None, :, :]).transpose(2, 0, 1))
        beside = printed[np.argmin(gaps, axis=1)]
        keep[marks.ids[near[np.abs(around[near] - around[beside]).max(axis=1) <= PAPER_SPREAD]]] = 1
    mask = keep[labels]
    outlines, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if tree is not None:
        holes = [c for c, node in zip(outlines, tree[0]) if node[3] >= 0 and cv2.contourArea(c) <= height * height]
        cv2.drawContours(mask, holes, -1, 1, cv2.FILLED)
    return cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))


def _lines(marks: _Marks, discs: np.ndarray, along: float) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """The lines of print among ``marks`` (``discs``: which are round spots filled in)
    running ``along`` (degrees); the marks' centres along that way and their extents across
    it."""
    at_u, at_v, ext_u, ext_v = _projected(marks, along)
    rows = [g for g in _rows(at_u, at_v, ext_u, ext_v, ROW_GAP)
            if len(g) >= ROW_MARKS and ext_u[g].sum() >= ROW_LENGTH * np.median(ext_v[g])
            and np.count_nonzero(discs[g]) <= ROW_DISCS * len(g)]
    return rows, at_u, ext_v


def _legends(marks: _Marks, discs: np.ndarray, along: float) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """The rows of a keyboard's legends among ``marks``, as ``_lines``."""
    at_u, at_v, ext_u, ext_v = _projected(marks, along)
    rows = [g for g in _rows(at_u, at_v, ext_u, ext_v, KEY_GAP)
            if len(g) >= KEY_ROW_MARKS and np.count_nonzero(discs[g]) <= ROW_DISCS * len(g)
            and _evenly_apart(at_u[g], float(np.median(ext_v[g])))
            and np.std(marks.areas[g]) >= KEY_ALIKE * np.mean(marks.areas[g])]
    return rows, at_u, ext_v


def _evenly_apart(at: np.ndarray, height: float) -> bool:
    """Whether marks at ``at`` along their row, ``height`` high, stand a key's pitch apart."""
    steps = np.diff(np.sort(at))
    pitch = np.median(steps)
    return pitch >= KEY_PITCH * height and np.mean(np.abs(steps - pitch) <= KEY_STEP * pitch) >= KEY_EVEN


def _projected(marks: _Marks, along: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The centres of ``marks`` along ``along`` (degrees) and across it, and their extents
    along and across it."""
    turn = np.radians(marks.angles - along)
    ext_u = np.abs(np.cos(turn)) * marks.lengths + np.abs(np.sin(turn)) * marks.heights
    ext_v = np.abs(np.sin(turn)) * marks.lengths + np.abs(np.cos(turn)) * marks.heights
    t = math.radians(along)
    at_u = marks.centres @ np.array([math.cos(t), math.sin(t)])
    at_v = marks.centres @ np.array([-math.sin(t), math.cos(t)])
    return at_u, at_v, ext_u, ext_v


def _marks(labels: np.ndarray, stats: np.ndarray, outlines: list[np.ndarray]) -> _Marks:
    """The marks of ``labels`` (``stats``: its components'; ``outlines``: their outer
    outlines) of ``MIN_MARK_AREA`` px or more, in the labels' order."""
    ids, centres, lengths, heights, angles, areas = [], [], [], [], [], []
    # (A component's least rectangle is its outline's, which holds the corners of its hull:
    # a third of the time of the rectangle of all its pixels. Where two rectangles are as
    # small, either may be taken: one frame's print differed so, of 147 measured.)
    of = sorted((int(labels[c[0, 0, 1], c[0, 0, 0]]), c) for c in outlines)
    for lab, outline in of:
        area = stats[lab, cv2.CC_STAT_AREA]
        if area < MIN_MARK_AREA:
            continue
        (cx, cy), (a, b), angle = cv2.minAreaRect(outline)
        # (a rectangle's sides through pixel centres: a pixel more)
        a, b = a + 1.0, b + 1.0
        if a < b:
            a, b, angle = b, a, angle + 90.0
        ids.append(lab)
        centres.append((cx, cy))
        lengths.append(a)
        heights.append(b)
        angles.append(angle % 180.0)
        areas.append(float(area))
    return _Marks(np.array(ids, int), np.array(centres).reshape(-1, 2), np.array(lengths), np.array(heights),
                  np.array(angles), np.array(areas))


def _row_direction(marks: _Marks) -> float | None:
    """The direction (degrees) most of the marks twice as long as high lie along, by their
    length (words, and letters run together); None where fewer than two are."""
    long = marks.lengths >= 2 * marks.heights
    if np.count_nonzero(long) < 2:
        return None
    votes = np.bincount((marks.angles[long] // 5).astype(int) % 36, weights=marks.lengths[long], minlength=36)
    votes = votes + np.roll(votes, 1) + np.roll(votes, -1)
    return (int(np.argmax(votes)) + 0.5) * 5.0


def _rows(u: np.ndarray, v: np.ndarray, eu: np.ndarray, ev: np.ndarray, gap_most: float) -> list[np.ndarray]:
    """The marks (centres ``u``, ``v`` along and across the rows, extents ``eu``, ``ev``)
    joined into rows: groups of marks each joined to the next (``ROW_*``; the gap between
    them at most ``gap_most`` times the taller's height), as indices."""
    low = np.minimum(ev[:, None], ev[None, :])
    high = np.maximum(ev[:, None], ev[None, :])
    overlap = (np.minimum(v[:, None] + ev[:, None] / 2, v[None, :] + ev[None, :] / 2)
               - np.maximum(v[:, None] - ev[:, None] / 2, v[None, :] - ev[None, :] / 2))
    gap = np.abs(u[None, :] - u[:, None]) - (eu[:, None] + eu[None, :]) / 2
    joined = (overlap >= ROW_OVERLAP * low) & (gap <= gap_most * high) & (high <= ROW_HEIGHTS * low)
    rows = Groups(len(u))
    for a, b in zip(*(k.tolist() for k in np.nonzero(np.triu(joined, 1)))):
        rows.join(a, b)
    return [np.array(g) for g in rows.groups()]


def _surroundings(filled: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """The colour around each mark of ``labels`` (row: its label), from the image with the
    marks filled in by their filter (``filled``: each mark filled in with what is around it)."""
    marked = labels > 0
    which, colours = labels[marked], filled[marked].astype(np.float64)
    area = np.bincount(which, minlength=labels.max() + 1)
    mean = np.stack([np.bincount(which, colours[:, c], minlength=len(area)) for c in range(3)], axis=1)
    return mean / np.maximum(area, 1)[:, None]


def _off_the_paper(around: np.ndarray, along: np.ndarray) -> np.ndarray:
    """How far off the paper's colour the surroundings (``_surroundings``) of a row's marks,
    at ``along`` on it, lie: each mark's greatest difference in any channel. The paper's
    colour may change along the row as the light on it does (a page lit from one side, a
    scan's shadow): it is a straight line's fit along the row, channel by channel."""
    a = np.column_stack([along - along.mean(), np.ones(len(along))])
    fit, *_ = np.linalg.lstsq(a, around, rcond=None)
    return np.abs(around - a @ fit).max(axis=1)
