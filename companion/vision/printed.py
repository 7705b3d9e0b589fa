"""Print beside the tray (a rulebook's page, a score pad). Its letters are dark marks of a
pip's size by the hundred, and the pip search finds pips in many of them: hundreds of
letters, taller than wide, outvote the dice when the slant is measured, and read at any
slant some are taken for dice. Print is told from dice by what dice never make: rows of
marks side by side, closely spaced, on one colour of paper, many rows and no mark in them
a filled round spot. Dice make short rows (three pips of a 6; a few dice against a tray's
wall) of round spots, on bodies of many colours. The reader leaves the pips on print out
(``PipSearch.leave_out``); a die lying on the page keeps its pips, round spots on it."""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np

from .pips import Groups

# The marks are the dark spots of a filter a third of the pip filter's size (odd, at least
# 5 px; a letter's strokes are thin), reaching the pip search's least contrast, of
# ``MIN_MARK_AREA`` px or more.
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
    (degrees, 0-180), and how much of their rectangles they fill."""
    ids: np.ndarray
    centres: np.ndarray
    lengths: np.ndarray
    heights: np.ndarray
    angles: np.ndarray
    fills: np.ndarray


def print_mask(img: np.ndarray, fg: np.ndarray | None, kernel: int) -> np.ndarray | None:
    """The pixels of ``img`` (BGR; ``fg``: its foreground, or None) that are print, as a
    0/1 mask, or None where there is none; ``kernel``: the pip filter's size."""
    k = max(5, kernel // MARK_FILTER_SHARE) | 1
    # The image closed by the mark filter: each mark filled in with what is around it. Less
    # the image, the marks' contrast (``pips.contrast_maps``' dark-spot map); by itself, the
    # paper around them (``_surroundings``).
    square = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    closed = cv2.erode(cv2.dilate(img, square), square)
    dark = cv2.split(cv2.subtract(closed, img))
    marked = cv2.threshold(cv2.max(cv2.max(dark[0], dark[1]), dark[2]), MARK_PEAK - 1, 255, cv2.THRESH_BINARY)[1]
    if fg is not None:
        marked &= fg
    # (Counted by their outlines first, a tenth of a labelling's time; Grana's labelling is
    # a third of the default's on these sparse masks.)
    if len(cv2.findContours(marked, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]) < PRINT_MARKS:
        return None
    n, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(marked, 8, cv2.CV_32S, cv2.CCL_GRANA)
    marks = _marks(labels, stats)
    if len(marks.ids) < PRINT_MARKS:
        return None
    discs = ((marks.lengths <= DISC_LENGTH * marks.heights) & (marks.fills >= DISC_FILL)
             & (marks.heights >= DISC_HEIGHT * np.median(marks.heights)))
    if np.count_nonzero(~discs) < PRINT_MARKS:
        return None
    along = _row_direction(marks)
    if along is None:
        return None
    # The rows run along the marks (words), or across them (letters taller than wide, apart):
    # whichever holds more marks in rows.
    rows, at_u, ext_v = max((_rows_along(marks, discs, a) for a in (along, along + 90.0)),
                            key=lambda found: sum(len(g) for g in found[0]))
    if sum(len(g) for g in rows) < PRINT_MARKS:
        return None
    # On paper: each row's marks, and each mark of a row by itself (a die lying on the page
    # is no paper).
    around = _surroundings(closed, labels)[marks.ids]
    paper = []
    for g in rows:
        off = _off_the_paper(around[g], at_u[g])
        if np.percentile(off, 80) <= PAPER_SPREAD:
            paper.append((g, off))
    if sum(len(g) for g, _ in paper) < PRINT_MARKS:
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


def _rows_along(marks: _Marks, discs: np.ndarray, along: float
                ) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """The rows of ``marks`` (``discs``: which are round spots filled in) running ``along``
    (degrees); the marks' centres along that way and their extents across it."""
    turn = np.radians(marks.angles - along)
    ext_u = np.abs(np.cos(turn)) * marks.lengths + np.abs(np.sin(turn)) * marks.heights
    ext_v = np.abs(np.sin(turn)) * marks.lengths + np.abs(np.cos(turn)) * marks.heights
    t = math.radians(along)
    at_u = marks.centres @ np.array([math.cos(t), math.sin(t)])
    at_v = marks.centres @ np.array([-math.sin(t), math.cos(t)])
    rows = [g for g in _rows(at_u, at_v, ext_u, ext_v)
            if len(g) >= ROW_MARKS and ext_u[g].sum() >= ROW_LENGTH * np.median(ext_v[g])
            and np.count_nonzero(discs[g]) <= ROW_DISCS * len(g)]
    return rows, at_u, ext_v


def _marks(labels: np.ndarray, stats: np.ndarray) -> _Marks:
    """The marks of ``labels`` (``stats``: its components') of ``MIN_MARK_AREA`` or more."""
    ids, centres, lengths, heights, angles, fills = [], [], [], [], [], []
    for lab in range(1, len(stats)):
        x, y, w, h, area = stats[lab]
        if area < MIN_MARK_AREA:
            continue
        ys, xs = np.nonzero(labels[y:y + h, x:x + w] == lab)
        (cx, cy), (a, b), angle = cv2.minAreaRect(np.column_stack([xs + x, ys + y]).astype(np.float32))
        # (a rectangle's sides through pixel centres: a pixel more)
        a, b = a + 1.0, b + 1.0
        if a < b:
            a, b, angle = b, a, angle + 90.0
        ids.append(lab)
        centres.append((cx, cy))
        lengths.append(a)
        heights.append(b)
        angles.append(angle % 180.0)
        fills.append(area / (a * b))
    return _Marks(np.array(ids, int), np.array(centres).reshape(-1, 2), np.array(lengths), np.array(heights),
                  np.array(angles), np.array(fills))


def _row_direction(marks: _Marks) -> float | None:
    """The direction (degrees) most of the marks twice as long as high lie along, by their
    length (words, and letters run together); None where fewer than two are."""
    long = marks.lengths >= 2 * marks.heights
    if np.count_nonzero(long) < 2:
        return None
    votes = np.bincount((marks.angles[long] // 5).astype(int) % 36, weights=marks.lengths[long], minlength=36)
    votes = votes + np.roll(votes, 1) + np.roll(votes, -1)
    return (int(np.argmax(votes)) + 0.5) * 5.0


def _rows(u: np.ndarray, v: np.ndarray, eu: np.ndarray, ev: np.ndarray) -> list[np.ndarray]:
    """The marks (centres ``u``, ``v`` along and across the rows, extents ``eu``, ``ev``)
    joined into rows: groups of marks each joined to the next (``ROW_*``), as indices."""
    low = np.minimum(ev[:, None], ev[None, :])
    high = np.maximum(ev[:, None], ev[None, :])
    overlap = (np.minimum(v[:, None] + ev[:, None] / 2, v[None, :] + ev[None, :] / 2)
               - np.maximum(v[:, None] - ev[:, None] / 2, v[None, :] - ev[None, :] / 2))
    gap = np.abs(u[None, :] - u[:, None]) - (eu[:, None] + eu[None, :]) / 2
    joined = (overlap >= ROW_OVERLAP * low) & (gap <= ROW_GAP * high) & (high <= ROW_HEIGHTS * low)
    rows = Groups(len(u))
    for a, b in zip(*(k.tolist() for k in np.nonzero(np.triu(joined, 1)))):
        rows.join(a, b)
    return [np.array(g) for g in rows.groups()]


def _surroundings(closed: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """The colour around each mark of ``labels`` (row: its label), from the image closed by
    the marks' filter (``closed``: each mark filled in with what is around it)."""
    marked = labels > 0
    which, colours = labels[marked], closed[marked].astype(np.float64)
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
