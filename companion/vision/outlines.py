"""What the outlines of things off the tray tell beyond the pips (``dice``'s last steps):
die-shaped blobs no die was read on (a blurred die, a blank or logo face, a die half out
of the frame), places on blobs where the face network may find dice the pips did not
show, dice cut by the image's edge, and 1s among the squares of a keyboard."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection

import cv2
import numpy as np

from .faces import FrameColours, body_tolerance, distance2_to, median_rows, round_body
from .reasons import EDGE_REASON, NO_PIPS_REASON
from .segment import outline_pixels, round_outline
from .slant import side_drop, toward_camera
from .types import DiceReading, Die, Uncertain

# A die read whose face may reach beyond the image's edge is no reading: the pips that show
# may be part of a fuller face (a 5 half out of the frame read as a 3, a 3 as a 2). Its
# centre must lie this share of a die's side inside (a face turned 45 degrees has its corner
# pips' far edges about half a side from its centre). The side is the larger of the die's
# own body and the frame's dice: a die cut off has a body cut off too, and pips read as a
# smaller face than the die's. A die the network read (no pips read) is placed where its
# surest view was centred, which may be this much further off its face's centre (the views
# around a spot: ``face_net._AROUND``).
EDGE_SHARE = 0.5
VIEW_OFFSET = 0.3
# Twelve points on a unit circle: a die's body colour is sampled on such a ring around its
# centre (``keys_among_squares``).
_AROUND = np.linspace(0, 2 * math.pi, 12, endpoint=False)
_AROUND_COS, _AROUND_SIN = np.cos(_AROUND), np.sin(_AROUND)


def cut_by_the_edge(reading: DiceReading, fg: np.ndarray) -> DiceReading:
    """``reading`` with each die whose face may run out of the image (``EDGE_SHARE``) made
    uncertain where something off the tray (``fg``, the foreground mask) runs into the
    image's edge beside it: a die half out of the frame, or out of a calibrated tray's
    region. (A die whole inside the frame, however near its edge, leaves the edge clear.)"""
    h, w = fg.shape[:2]
    keep = []
    for d in reading.dice:
        side = max(d.side or 0.0, reading.die_side or 0.0)
        margin = (EDGE_SHARE if d.pips else EDGE_SHARE + VIEW_OFFSET) * side
        rows = slice(int(max(0.0, d.y - margin)), int(min(h, d.y + margin + 1)))
        cols = slice(int(max(0.0, d.x - margin)), int(min(w, d.x + margin + 1)))
        cut = ((d.x < margin and fg[rows, 0].any()) or (w - d.x < margin and fg[rows, w - 1].any())
               or (d.y < margin and fg[0, cols].any()) or (h - d.y < margin and fg[h - 1, cols].any()))
        if cut:
            reading.uncertain.append(Uncertain(d.x, d.y, EDGE_REASON))
        else:
            keep.append(d)
    reading.dice = keep
    return reading


# A blob of this many dice's area or more is too big to be dice alone: a tray's wall, a
# book, a board (``unreported_blobs`` leaves it, but for what stands out of it).
BIG_BLOB_DICE = 5


def _slanted_die(side: float, stretch: tuple[float, float] | None) -> tuple[float, float, float]:
    """A die ``side`` px wide in a frame stretched back from a slant by ``stretch`` (None:
    overhead): how far its near sides reach beyond its top face, in sides
    (``slant.side_drop``); the area of its blob, top face and near sides; and how far its
    top face's middle lies above its blob's, along y (the top face is the far end of a
    slanted die's outline)."""
    reach = side_drop(stretch) if stretch else 0.0
    shift = 0.5 * reach * side if stretch and stretch[1] > stretch[0] else 0.0
    return reach, side * side * (1 + reach), shift


def unreported_blobs(mask: np.ndarray, outlines: list[np.ndarray], reading: DiceReading,
                     stretch: tuple[float, float] | None, spots: np.ndarray
                     ) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Places on things off the tray (``mask``; ``outlines``, its ``segment.blob_outlines``) with nothing
    reported on them, where the face network may find a die the pips did not show (a lone
    pip too small to trust, a white die the mask hardly sees): the centre of a blob shaped
    like one die, and a grid half a die apart over a blob of a few dice touching, or over
    one of little more than a die's area but long and thin: two dice touching, smaller than
    the size measured (which, where no face was read, comes from that very blob's outline),
    only where ``spots`` (``PipSearch.strongest``) show something that may be a pip
    (``blob_grid``). (Bigger blobs are left alone, but for what stands out of their colour:
    ``standing_out``; a grid over a card with lines of text on it found a 6 there.) And the
    places touching a die already reported: where a blob the size of one or two dice has
    its centre on a die reported, the centre of the part of it off that die, if that part is
    over 0.4 of a die's area (a die leaning on it, whose pips were not found). Returns the
    places of the first kinds, and those beside a die reported apart: the part measured is
    what lies off that die and its near sides, which cut into the die beside it too, so its
    middle lies off that die's centre by up to half a side (``face_net.second_opinion``'s
    ``beside``).

    In a frame stretched back from a slant (``stretch``), a die's outline is its top face
    and the sides below it, taller by ``slant.side_drop`` die sides: the blob sizes allow
    for that, and the sides of a die already reported are not looked at again."""
    if not reading.die_sizes:
        return [], []
    side = reading.die_side
    reach, one_die, shift = _slanted_die(side, stretch)
    reported = reading.places
    # How far from a die reported a point can be and still be on it or on its near sides.
    near = max(0.75, math.hypot(0.5 + reach, 0.75) if reach else 0.0) * side

    def free(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Which of the points (xs, ys) are off every die reported, and its near sides."""
        ok = np.ones(xs.shape, bool)
        # (Only the dice near the points' box can rule any of them out.)
        x0, x1, y0, y1 = float(xs.min()), float(xs.max()), float(ys.min()), float(ys.max())
        for rx, ry in reported:
            if math.hypot(max(x0 - rx, 0.0, rx - x1), max(y0 - ry, 0.0, ry - y1)) > near:
                continue
            ok &= np.hypot(xs - rx, ys - ry) >= 0.75 * side
            if reach:
                along, across = toward_camera(stretch, xs - rx, ys - ry)
                ok &= ~((0 < along) & (along < (0.5 + reach) * side) & (np.abs(across) < 0.75 * side))
        return ok

    out, beside = [], []
    # The blobs: each outer outline's box, labelled on its own (labelling the whole frame,
    # most of it tray, costs several times more), in raster order.
    for outline in sorted(outlines, key=lambda c: (c[0, 0, 1], c[0, 0, 0])):
        x, y, bw, bh = cv2.boundingRect(outline)
        if bw * bh <= 0.3 * side * side:
            continue   # (a blob's area is at most its box's)
        # (8-connected, as the outline is)
        _, labels = cv2.connectedComponentsWithAlgorithm(mask[y:y + bh, x:x + bw], 8, cv2.CV_32S,
                                                         cv2.CCL_GRANA)
        own = labels == labels[outline[0, 0, 1] - y, outline[0, 0, 0] - x]
        area = int(np.count_nonzero(own))
        if not 0.3 * side * side < area < BIG_BLOB_DICE * one_die:
            continue
        points = []
        if area < 1.8 * one_die:
            ys, xs = np.nonzero(own)
            xs, ys = xs + (x + 0.5), ys + (y + 0.5)
            if not free(xs.mean(keepdims=True), ys.mean(keepdims=True))[0]:
                off = free(xs, ys)
                if np.count_nonzero(off) > 0.4 * side * side:
                    beside.append((float(xs[off].mean()), float(ys[off].mean()) - shift))
                continue
            (cx, cy), (rw, rh), _ = cv2.minAreaRect(outline)
            thin = max(rw, rh) > 1.6 * (1 + reach) * min(rw, rh)
            if round_outline(outline, mask.shape) or (thin and area < 1.2 * one_die):
                continue   # round (a coin, a bead), or not die-shaped
            if not thin:
                points = [(float(cx), float(cy) - shift)]
        if not points:   # (a few dice touching, or two smaller than the size measured: a grid)
            points = blob_grid(own, x, y, outline, side, spots)
        if points:
            keep = free(*np.array(points).T)
            out += [p for p, ok in zip(points, keep) if ok]
    return out, beside


# A blob narrower than this, in die sides, holds no die: a pencil, a cable.
GRID_MIN_WIDTH = 0.5
# Contrast a spot must reach near a grid point for the network to look there (the pip
# finder's seeds need 45): a plain eraser or card shows nothing near that.
GRID_CONTRAST = 25


def blob_grid(own: np.ndarray, x0: int, y0: int, outline: np.ndarray, side: float,
              spots: np.ndarray) -> list[tuple[float, float]]:
    """Points half a die apart over blob ``own`` (its box's corner at x0, y0; ``outline``,
    in the frame), where the network may find dice touching that the pips did not show:
    none over a blob narrower than a die could be, and only those where the frame's
    ``spots`` (``PipSearch.strongest``) reach a faint pip's contrast within half a die,
    inside the blob and off its rim (an edge's shade or shadow is no pip). The
    network looks fifteen times around each point: over a pencil and an eraser beside two
    dice 26 px wide, 20-30 points took 0.4-0.6 s a frame. With these limits the 13 held-out
    dev views measured read exactly as before."""
    _, (rw, rh), _ = cv2.minAreaRect(outline)
    if min(rw, rh) < GRID_MIN_WIDTH * side:
        return []
    h, w = own.shape
    step = 0.5 * side
    # (Offsets within the box, each kept inside it: a float step may carry arange's last
    # point onto the box's far edge, as 13.6 px steps from 6.8 did onto 102 in 102.)
    points = [(float(x0 + dx), float(y0 + dy)) for dy in np.arange(step / 2, h, step) if dy < h
              for dx in np.arange(step / 2, w, step) if dx < w and own[int(dy), int(dx)]]
    if not points:
        return points
    core = cv2.erode(own.view(np.uint8), np.ones((5, 5), np.uint8))
    marks = np.where(core > 0, spots[y0:y0 + h, x0:x0 + w], 0)
    r = max(1, round(0.5 * side))
    return [(px, py) for px, py in points
            if marks[max(0, int(py) - y0 - r):int(py) - y0 + r + 1,
                     max(0, int(px) - x0 - r):int(px) - x0 + r + 1].max() >= GRID_CONTRAST]


def ones_among_pipless(reading: DiceReading, pipless: list[tuple[float, float]]) -> DiceReading:
    """A 1 next to two or more die-sized bodies the pip reader found marks on that are no
    pips, or nothing at all (``pipless``: their spots, before the network read any), is a key
    among the lettered keys of a keyboard more likely than a die: it becomes uncertain.
    (Dice with a logo face, or unread, seldom lie on both sides of a 1: on the 250 dev
    photos at full size and squeezed, and on the held-out ones in every other view
    measured, no die read right became uncertain by this.)"""
    if len(pipless) < 2 or not reading.die_sizes:
        return reading
    side = reading.die_side

    def doubt(d: Die) -> str | None:
        beside = sum(0.7 * side < math.hypot(d.x - x, d.y - y) < 1.6 * side for x, y in pipless)
        return "a 1 among lettered keys (a keyboard?)" if d.value == 1 and beside >= 2 else None

    return _doubted(reading, doubt)


def _doubted(reading: DiceReading, doubt: Callable[[Die], str | None]) -> DiceReading:
    """``reading`` with each die for which ``doubt`` gives a reason made uncertain for it."""
    out = DiceReading([], list(reading.uncertain), reading.die_sizes, reading.leads)
    for d in reading.dice:
        reason = doubt(d)
        if reason:
            out.uncertain.append(Uncertain(d.x, d.y, reason))
        else:
            out.dice.append(d)
    return out


def keys_among_squares(reading: DiceReading, colours: FrameColours,
                       by_pips: Collection[tuple[float, float]]) -> DiceReading:
    """A 1, or a die only the network read (not at one of ``by_pips``, where the pips read
    dice before it), with two or more squares of its own colour and size beside it (0.8-1.7
    die sides from its centre), apart from it and with no die read on them, is a key among
    the keys of a keyboard more likely than a die: it becomes uncertain. So is one with
    regions beside it the size of its own region, however oblong (0.8-1.7 of that size
    from it): seen steeply, a frame of keys shows no squash and is read unstretched, its
    keys 1.7 die sides wide and half as high (a light keyboard from 55 degrees: 7 keys read
    as 1s in 10 frames before, none now; from 62 degrees, 4 before, 2 now). A letter or a "#"
    on a light keycap passes for a 1's one pip, or to the network for a face ("/" for a 3),
    and the keys around it may show nothing the pip reader takes for a mark (which
    ``ones_among_pipless`` needs). Dice lie side by side too, but the dice beside a die
    are mostly read, or of other colours: on the 250 dev photos, squeezed and at 40
    degrees, this made none of the 3327 dice read uncertain. A face of several pips the pip
    reader found in a die's layout is far less often a mark on a key: it stands."""
    side = reading.die_side

    def asked(d: Die) -> bool:
        return d.value == 1 or (d.x, d.y) not in by_pips

    if side is None or not any(asked(d) for d in reading.dice):
        return reading
    img, tray = colours.frame, colours.tray
    h, w = img.shape[:2]
    taken = [(d.x, d.y) for d in reading.dice]
    # (wide enough for keys as oblong as a slant squashes them, read unstretched)
    half = int(3.0 * side) + 1

    def doubt(d: Die) -> str | None:
        if not asked(d):
            return None
        x0, y0 = max(0, int(d.x) - half), max(0, int(d.y) - half)
        x1, y1 = min(w, int(d.x) + half + 1), min(h, int(d.y) + half + 1)
        xs = np.clip(np.rint(d.x + 0.3 * side * _AROUND_COS).astype(int), 0, w - 1)
        ys = np.clip(np.rint(d.y + 0.3 * side * _AROUND_SIN).astype(int), 0, h - 1)
        body = median_rows(img[ys, xs])
        tol = body_tolerance(body, tray[min(h - 1, int(d.y)), min(w - 1, int(d.x))].astype(np.float32))
        # Colour distances at half size (squares a die wide need no more; a quarter of the
        # work). Area-averaged: a thin seam between two keys shades the pixels it falls in,
        # where sampling every other pixel could miss it.
        win = cv2.resize(img[y0:y1, x0:x1], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        dist2 = distance2_to(win, body)
        # The regions of its colour (outer outlines: the marks on a key are inside its own).
        outlines, _ = cv2.findContours(cv2.compare(dist2, tol * tol, cv2.CMP_LT), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        # Its own region's size (half-size pixels): in a frame squashed by a slant and read
        # so, the keys are oblong, as the die is.
        at = ((d.x - x0) / 2, (d.y - y0) / 2)
        own = next((cv2.boundingRect(o)[2:] for o in outlines if cv2.pointPolygonTest(o, at, False) >= 0), None)
        like = 0
        for outline in outlines:
            bx, by, bw, bh = cv2.boundingRect(outline)
            if bx == 0 or by == 0 or bx + bw == win.shape[1] or by + bh == win.shape[0]:
                continue   # (a region running out of the window is no square beside it)
            if cv2.contourArea(outline) < 0.6 * bw * bh:
                continue
            cx, cy = x0 + 2 * bx + bw, y0 + 2 * by + bh
            # 0.6-1.5 die sides wide and high (in half-size pixels), 0.8-1.7 from it; or its
            # own region's size within a quarter, 0.8-1.7 of that from it. (Its own body is
            # centred on it, not beside it.)
            square = 0.3 * side <= bw <= 0.75 * side and 0.3 * side <= bh <= 0.75 * side \
                and 0.8 * side < math.hypot(cx - d.x, cy - d.y) < 1.7 * side
            alike = own is not None and 0.75 < bw / own[0] < 1.33 and 0.75 < bh / own[1] < 1.33 \
                and 0.8 < math.hypot((cx - d.x) / (2 * own[0]), (cy - d.y) / (2 * own[1])) < 1.7
            if not (square or alike):
                continue
            if any(math.hypot(cx - tx, cy - ty) < 0.5 * side for tx, ty in taken):
                continue
            like += 1
        return f"a {d.value} among squares like it (keys of a keyboard?)" if like >= 2 else None

    return _doubted(reading, doubt)


def _unsized_bounds(frame: tuple[int, ...]) -> tuple[float, float]:
    """The least and greatest side (px) of a die where no die's size is known, in a frame
    of shape ``frame`` as the camera took it: a thirtieth and a fifth of its shorter side.
    (A frame seen at a slant is read larger, stretched back and flattened, but its dice are
    no larger there: a die at its centre is the size it is in the frame, ``perspective``.
    Bounds from that larger picture left small far dice out: all 250 dev photos as 640x480
    frames 55 degrees from overhead through a 53-degree webcam, JPEG 80, three looks: 46 ->
    39 dice reported nowhere, 1,624 -> 1,626 read right, 13 -> 14 wrong values, the one more
    shown at 0.15; 40 degrees, squeezed into 4:3 and as phone photos, as before; the three
    sets of rendered trays, 5,629 -> 5,632 right, as many wrong.)"""
    return min(frame[:2]) / 30, min(frame[:2]) / 5


def outline_sides(outlines: list[np.ndarray], frame: tuple[int, ...], found: list[tuple[float, float]]
                   ) -> list[float]:
    """The widths of the ``outlines`` (things off the tray, in a picture of a frame of shape
    ``frame``) that may be one die or a row of touching dice: not round, filling most of
    their box, and as wide as a die may be (``_unsized_bounds``); only those holding a place
    in ``found``, if any does. A die's outline at a slant takes in its near sides, and dice
    in a row make it long, but its width is the die's (its diagonal, turned 45 degrees:
    within the network's allowance of a fifth either way, near enough)."""
    lo, hi = _unsized_bounds(frame)
    sides, holding = [], []
    for outline in outlines:
        area = cv2.contourArea(outline)
        if not lo * lo < area < 3 * hi * hi:
            continue
        _, (bw, bh), _ = cv2.minAreaRect(outline)
        per = cv2.arcLength(outline, True)
        if area >= 0.6 * bw * bh and not round_body(area, per, bw * bh) and lo < min(bw, bh) < hi:
            sides.append(float(min(bw, bh)))
            if any(cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0 for x, y in found):
                holding.append(sides[-1])
    return holding or sides


def flag_unread_shapes(img: np.ndarray, reading: DiceReading, outlines: list[np.ndarray],
                       frame: tuple[int, ...]) -> DiceReading:
    """Add an uncertain spot for every die-shaped thing among ``outlines`` (the things off the
    tray in ``img``, a picture of a frame of shape ``frame``) that was not read: a blurred
    die, a blank or logo face, a die whose pips are hidden by glare; and, where the dice's
    size is known, a die's worth of something running into the image's edge (a die half out
    of the frame, ``_cut_die``).

    At a slant a die's outline takes in its near sides, and is square only in a photo warped
    to the slant: an unread die there is left to ``unreported_blobs``, which allows for them.
    (Tried and not kept: outlines square once their near sides are taken off flagged too.
    The dev views read byte-identically; the three sets of rendered trays read 5,632 ->
    5,644 right and 47 -> 45 wrong, but through the slant chosen, more dice read at the
    guessed steeper ones: a near 6 was read at a view 22 px off its centre. In the frame's
    own reads only, 5,633 right and 2 more places asked about where no die lies.)"""
    if reading.die_sizes:
        side = reading.die_side
        lo, hi = 0.6 * side, 1.6 * side
    else:
        side = None
        lo, hi = _unsized_bounds(frame)
    spots = reading.places
    for c in outlines:
        area = cv2.contourArea(c)
        if not lo * lo < area < hi * hi:
            continue
        (x, y), (bw, bh), _ = cv2.minAreaRect(c)
        # (Whether it holds a place reported is asked first: most die-sized outlines hold a
        # die read, and testing their shape cost about 0.8 ms a frame of 7 rendered dice,
        # profiled.)
        if cv2.pointPolygonTest(c, (x, y), False) < 0 or any(
                cv2.pointPolygonTest(c, (float(sx), float(sy)), False) >= 0 for sx, sy in spots):
            continue
        square = max(bw, bh) < 1.5 * min(bw, bh) and area > 0.7 * bw * bh
        if (not square or round_outline(c, img.shape)) and not (side and _cut_die(c, area, side, img.shape)):
            continue   # not die-shaped, or round (a coin, a bead)
        # (No 1: a 1's one big pip is seldom missed, while a keycap on which the pip finder
        # found nothing but a letter looks like a 1 to the network.)
        reading.uncertain.append(Uncertain(float(x), float(y), NO_PIPS_REASON, rules_out=(1,)))
    return reading


def _cut_die(outline: np.ndarray, area: float, side: float, shape: tuple[int, ...]) -> bool:
    """Whether a blob of ``area`` (within the die-sized bounds) is what shows of a die of
    ``side`` the image's edge cuts: it runs into one edge, no wider along it than a die
    turned 45 degrees, no deeper into the image than a die's diagonal and a little, convex,
    and not round (a coin cut by the edge, ``CUT_ROUND``)."""
    h, w = shape[:2]
    x, y, bw, bh = cv2.boundingRect(outline)
    sideways, endways = x == 0 or x + bw == w, y == 0 or y + bh == h
    if sideways == endways:
        return False   # (in no edge, or in two: a corner's wall, a hand reaching in)
    along, depth = (bh, bw) if sideways else (bw, bh)
    hull = cv2.contourArea(cv2.convexHull(outline))
    return (0.5 * side <= along <= 1.5 * side and depth <= 1.5 * side and area >= 0.9 * hull
            and _off_circle(outline, shape) > CUT_ROUND)


# What shows of a coin the image's edge cuts lies on a circle (rendered: 0.011-0.019 of its
# radius, root mean square), of a die on straight sides (0.087-0.112).
CUT_ROUND = 0.045


def _off_circle(outline: np.ndarray, shape: tuple[int, ...]) -> float:
    """How far the part of ``outline`` off the image's edge strays from the circle that fits
    it best (root mean square, as a share of its radius; inf with too little to fit)."""
    x, y = outline_pixels(outline, shape).T
    if len(x) < 8:
        return math.inf
    # (A least-squares circle: x^2 + y^2 + D x + E y + F = 0.)
    d, e, f = np.linalg.lstsq(np.column_stack([x, y, np.ones_like(x)]), -(x * x + y * y), rcond=None)[0]
    cx, cy = -d / 2, -e / 2
    r = math.sqrt(max(cx * cx + cy * cy - f, 1e-9))
    return float(np.sqrt(((np.hypot(x - cx, y - cy) - r) ** 2).mean()) / r)


# Things standing out of a blob too big to be dice (``BIG_BLOB_DICE``) by ``STANDING_OUT`` in
# ``segment.colour_space`` (the foreground's own least step) from its colour about them
# (the mean of its pixels over ``STANDING_WINDOW`` die sides) are looked at as blobs of
# their own (``standing_out``). (All 250 dev photos as 640x480 JPEG 80 frames, three looks:
# 55 degrees from overhead through a 53-degree webcam, where the wall's slope shows most,
# 1,638 -> 1,642 read right, 15 wrong either way, and two dice missed before asked about,
# at their far edge, just off their labelled boxes; 40 degrees through 53- and 60-degree
# webcams and squeezed into 4:3, die for die as before. Rendered trays, ``vision_renders.py``
# sets 1000, 5000 and 9000: 5,772 -> 5,774 read right, as many wrong, 493 -> 496 places
# asked about where no die lies, one in each set.)
STANDING_OUT = 22.0
STANDING_WINDOW = 3.0
# (The blobs are worked on shrunk to dice this many px wide: a wall's colour about a die
# changes slowly, and a whole frame's labels cost ten times as much.)
STANDING_SIDE_PX = 8.0


def standing_out(colours: np.ndarray, mask: np.ndarray, reading: DiceReading,
                 stretch: tuple[float, float] | None) -> list[tuple[float, float]]:
    """Places on blobs too big for ``unreported_blobs`` (``BIG_BLOB_DICE`` dice' area or more) where a
    die-sized thing stands out of the blob's own colour about it, nothing reported within
    three quarters of a die: a die against a tray's wall, on whose slope the mask runs it
    into the wall, or a die lying on a book. ``colours``: the image in ``colour_space``."""
    if not reading.die_sizes:
        return []
    side = reading.die_side
    reach, one_die, shift = _slanted_die(side, stretch)
    f = min(1.0, STANDING_SIDE_PX / side)
    h, w = max(1, round(mask.shape[0] * f)), max(1, round(mask.shape[1] * f))
    small = cv2.resize(mask, (w, h), interpolation=cv2.INTER_NEAREST)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(small, 8)
    big = np.zeros(n, bool)
    big[1:] = stats[1:, cv2.CC_STAT_AREA] >= BIG_BLOB_DICE * one_die * f * f
    if not big.any():
        return []
    within = big[labels]
    cs = cv2.resize(colours, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    win = max(3, round(STANDING_WINDOW * side * f)) | 1

    def apart(blob: np.ndarray) -> np.ndarray:
        """Where ``within`` differs from the mean of ``blob``'s pixels about it (their sums
        over their count)."""
        count = cv2.boxFilter(blob, -1, (win, win), normalize=False)
        mean = cv2.boxFilter(cs * blob[..., None], -1, (win, win), normalize=False) / np.maximum(count, 1.0)[..., None]
        d = cs - mean
        return ((d * d).sum(axis=2) > STANDING_OUT ** 2) & within

    # (Again without what stood out: a die in the mean tints it, and the wall beside the
    # die then stands out of it too.)
    blob = within.astype(np.float32)
    out_of = apart(blob * ~apart(blob))
    out_of = cv2.morphologyEx(out_of.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    reported = reading.places
    places = []
    m, _, parts, centres = cv2.connectedComponentsWithStats(out_of, 8)
    for i in range(1, m):
        # (about a die's size and shape, its near sides with it, a little looser than one die
        # in ``unreported_blobs``: a wall's rim or a shade is long)
        area, bw, bh = parts[i, cv2.CC_STAT_AREA], parts[i, cv2.CC_STAT_WIDTH], parts[i, cv2.CC_STAT_HEIGHT]
        if not 0.3 * side * side < area / (f * f) < 2.0 * one_die or area < 0.5 * bw * bh \
                or max(bw, bh) > 2.2 * (1 + reach) * min(bw, bh):
            continue
        # (back at the image's scale, a pixel's centre to a pixel's centre; its top face)
        x, y = (centres[i][0] + 0.5) / f - 0.5, (centres[i][1] + 0.5) / f - 0.5 - shift
        if all(math.hypot(x - rx, y - ry) >= 0.75 * side for rx, ry in reported):
            places.append((float(x), float(y)))
    return places
