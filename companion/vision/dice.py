"""Reading six-sided dice: ``read_dice(frame, calibration=None) -> DiceReading``.

The reader works from the pips outwards, so it needs no die size, colour or tray colour.
A frame with a colour cast (a webcam's white balance gone wrong, a lamp's light: its white
tray tinted) is first made neutral (``segment.neutral_balance``), and an underexposed one (a
dim room: a grey tray) brought up to a bright tray's level (``segment.even_exposure``), so
its colours and contrasts meet the same thresholds.
A frame from a camera at a slant, whose pips come out flattened, is first stretched until
they are round again (``slant``), so the top faces are square for every step below (seen
steeply, the frame is first redrawn as a camera far away at that slant would see it, its
far dice as large and as flat as its near ones, by the camera's field of view calibrated
or a cautious one assumed: ``perspective``); one whose pips are too few to tell, and
which reads no die as it is, is read at a few likely slants instead, and the one that
reads the most dice kept, its dice shown as less sure.
It reads twice: with a pip filter sized for big pips, then with one fitted to the pips that
first pass found; the two are merged die by die, and disagreement makes a die uncertain.
(A face of two pips or more that the second pass finds again, the same pips where the
first read it, is taken as read there, its checks of step 3 not run again.) In each pass:

1. pips are found by local contrast in each colour channel (``pips.find_pips``), on and
   around the things that stand out from the tray only (a die's body, or its pips where
   the die is the tray's colour);
2. pips are linked into faces when alike and joined by the die's body colour only; a
   group that fits no face may be two touching dice of one colour, and is cut in two
   where exactly one straight cut leaves two standard faces of one pip spacing;
3. each face is checked against the six standard layouts, and against its die body (the
   region of the body colour around it): the body must be die-sized for its pips (and big
   enough for any face's pips to be found), hold no other pips, and be centred on the face;
4. where a face stays uncertain because its pips would not link (marbled or two-tone
   plastic breaks the body colour between them), the pips inside the die's outline in the
   foreground mask get a second look, under the same layout and body checks;
5. anything that fails is reported as ``Uncertain`` with the reason; it never becomes a value.
   Where the failure is pips that fit no face, or a spot of the pips' colour where the
   face has no pip, the spot also carries the one standard face those pips can be part of
   (the finder missed its other pips: a faint one, one run into the die's dark edge);
   a lone round spot centred on its die but with marks around it (a logo, or a 1 on
   marbled plastic) carries the 1 it would be; a lone spot of the very colour around it
   is no pip but the inside of a mark's loop (an "O" or a "6" on a keycap) and rules a 1
   out.

Then die-shaped blobs that stand out from the tray but gave no reading (a blurred die,
a blank or logo face, a lettered keycap, what shows of a die half out of the frame) are
reported as uncertain too, as no 1 (the one big pip of a 1 is seldom missed). Where no
die's size was measured at all (no face read, no die body found around any pips), the
width of the outlines the pips lie on stands in for it, so that the network below still
gets its say.

Finally a second reader, a small network that reads a face from its look (``face_net``),
gets its say: a die read from the pips stands only if the network does not contradict it;
where the pips showed a value but a check doubted the die (a blur, faint pips), the
network must read that same value (and where no die body was found around them, be all
but sure of it, as when it reads alone), or be all but sure of a face that holds those
pips and more (the others missed; not where, in a slanted frame, no die body was found
around them and they lie just below another die: they may be on its side); where they are
part of a whole face, it must read that face's value; an uncertain spot, a die-sized blob
where nothing was reported, or a lone round spot (all a white 1 on a pale tray shows)
becomes a die only when the network is all but sure of its value, and not of a value the
pips there rule out (a lone pip off its die's centre, with something showing opposite it,
is no 1: every other face is symmetric about its centre); on a die's body whose face the
pips did not read, and where the pips' own evidence does not conflict (glare where the face
has no pip, spots of other sizes or colours among them), the network being nearly sure of
one value in several views will do too; where nothing but the network speaks for a die
(the blob, the part of a blob off a die read, the lone spot), it must be all but sure in
two views at least. An uncertain spot left on a die read, where the network is all but sure
of that die's face, is that die again: it is not reported. A 1 read beside two or more
die-sized bodies with marks on them that are no pips, or nothing, is a key among the
lettered keys of a keyboard more likely than a die: it is uncertain; so is a 1, or a die
only the network read, with two or more squares of its own colour and size beside it on
which no die was read (keys with no mark found on them). A calibrated logo face is read as
its value, unless the network sees a pip face there.

Spots on a round body (a coin's marks, a button's holes) are a die only where the network
reads one there; otherwise they are not reported, so a coin lying among the dice is not
asked about.
Pips that are strongly foreshortened belong to side faces seen at a slant and are ignored.
In a stretched frame the near sides' pips are round too: a face read just below another
(closer than two touching dice) is that die's side, dropped if it is the same plastic in
shade, read if it is no shade of that die's colour, and made uncertain otherwise.
A die read whose face may run out of the image, where something off the tray runs into the
image's edge beside it (a die half out of the frame), is uncertain: the pips that show may
be some of a fuller face's (a 4 cut off is a 2). Nothing is reported outside the frame
(``_in_the_frame``): what a flattened frame shows beyond its edges is their pixels run on.
The frame is scaled down internally for large photos; positions are in the caller's pixels.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import NamedTuple

import cv2
import numpy as np

from .calibration import Calibration
from .face_net import second_opinion
from .perspective import flattened, flattening, unflattening
from .pips import MIN_PIP_AREA, Pip, PipSearch, empty_positions, layout_value, mean_rows, norm, norms
from .segment import (WORK_SIDE, background, blob_outlines, colour_space, crop_to_tray, edge_softness,
                      even_exposure, foreground_mask, neutral_balance, outline_pixels, round_outline, sharpened,
                      working_image)
from .slant import (GUESSED_STRETCHES, UNDER_TOP_REASON, known_or_measured, measurable, possible_sides, side_drop,
                    side_faces, sides_under_their_tops, steeper_stretch, stretch_for, top_face_pips, toward_camera)
from .types import DiceReading, Die, Uncertain

# Colour distance (``colour_space`` units, ~0-255) within which two samples are one body.
BODY_TOLERANCE = 38.0
# ... and the least it allows, however close the tray's colour (``_body_tolerance``).
MIN_BODY_TOLERANCE = 12.0
# Least colour difference between pips and their die (colour_space units).
MIN_PIP_CONTRAST = 35.0
# A lone spot within this colour distance of the ring just around it is the inside of a
# mark's loop (an "O", a "6" or a "D" on a keycap), lighter or darker than its strokes only:
# no pip, and no 1. (Samples this close are one body by any tolerance.)
HOLE_CONTRAST = MIN_BODY_TOLERANCE
# Blur (Gaussian sigma, px) beyond this share of the pip radius makes a face unreadable.
BLUR_LIMIT = 0.55
# A frame whose things' edges are softer than this (``segment.edge_softness``, px) is
# sharpened before it is read (``segment.sharpened``). All 250 dev photos as 640x480 JPEG 80
# frames, one look, five webcam views: 7,987 -> 8,028 read right, 34 wrong either way, 31 -> 33
# spots asked about where no die lies; through a soft webcam (blur 0.8 px) 1,537 -> 1,574.
# Every frame sharpened: 8,060 right, 33 wrong, but 55 spots where no die lies, most on
# the tray's rim (sharp frames' specks raised to pips). (An earlier form of the measure, at
# 1.3 px: 8,029, 31 and 43; at 1.55 px: 8,009, 34 and 35.)
SOFT_EDGE = 1.4
# Why a lone mark centred on a die body was not read as a 1 (a logo face, if calibrated).
LOGO_REASON = "a mark that is not a pip (logo face?)"
# A calibrated logo face is not read where the face network gives a pip face this much
# (it was taught logos as no face: on rendered logo faces it gives 0.15-0.32).
LOGO_PIPS = 0.5
OFF_CENTRE_REASON = "lone pip off the face centre"
NO_PIPS_REASON = "die-shaped but no readable pips"
# Uncertain spots placed at the centre of a die's outline rather than of its pips.
OUTLINE_REASONS = frozenset({LOGO_REASON, OFF_CENTRE_REASON, NO_PIPS_REASON})
# Where the pip reader's own evidence conflicts: a spot of the pips' colour where their face
# has none (glare, or a pip of a fuller face), spots of other colours or sizes among the
# pips (marbling, a glint, a speck), two passes or two readings that differ. Such marks
# fool the network too: it does not settle these by reading one value steadily
# (``face_net.STEADY``).
EXTRA_SPOT_REASON = "a spot where a {} has no pip"
MIXED_COLOURS_REASON = "pips of different colours"
MIXED_SIZES_REASON = "pips of different sizes"
TWO_PASSES_REASON = "read as {} and as {}"
TWO_READINGS_REASON = "two readings on one die"
CONFLICT_REASONS = frozenset({EXTRA_SPOT_REASON.format(v) for v in range(1, 7)}
                             | {TWO_PASSES_REASON.format(a, b) for a in range(1, 7) for b in range(1, 7)}
                             | {MIXED_COLOURS_REASON, MIXED_SIZES_REASON, TWO_READINGS_REASON})
NO_BODY_REASON = "no die body around the pips"
NOT_DIE_SHAPED_REASON = "pips not on a die-shaped body"
# Spots on a round body: a coin's marks (the stars around a euro's rim, dots around a
# numeral) or a button's holes more likely than a die's pips, though a die seen at a slant,
# stretched back, can look as round. The network may read a die there, as from pips with
# no body; if it does not, nothing is reported: the players are not asked about a coin.
ROUND_BODY_REASON = "pips on a round body (a coin?)"
# A die read at a guessed slant (``_most_dice``: a frame too few pips measure, or one read
# again steeper by ``_read_under_the_tops`` or ``_read_squashed_faces``) is shown, but not
# accepted unasked (the controller's default bar is 0.8): of the dice such guesses added
# on dev frames 62 degrees from overhead, read once each, 2 in 49 were read wrong, against
# 1 in 220 of the rest.
GUESSED_CONFIDENCE = 0.75
# A frame measured squashed, whose reading is unsure of something (a place asked about, or a
# die under ``SURE``, the controller's default bar), may be steeper than measured: beyond
# about 45 degrees the near sides' pips, rounder than the tops', make it look less squashed
# than it is, and a turned die's side reads where its top does not. It is read at the
# guessed stretches steeper than it was too, and the one whose dice are the surest kept
# (``_surer``): their confidences summed, less ``UNSURE_COST`` for each place asked about,
# must beat the frame's own by ``SURER_BY`` (a die and a half read sure). Rendered trays of
# 2-7 dice at 40 and 55 degrees through a 60-degree webcam (two sets of 240, as for
# ``slant.TOP_ASIDE``): read right 1,929 -> 1,986 and 1,588 -> 1,635, wrong values 22 -> 17
# and 33 -> 31, dice read where none lies 7 -> 5 and 19 -> 17. The dev photos' flat views,
# whose dice show no sides, gain little: all 250 through a 53-degree webcam at 55, 1,614 ->
# 1,621 read right and 9 -> 14 wrong (three of the five under 0.3, which the players are
# asked to confirm; a marbled 5 with red pips read as a 6 at 0.87; a die cut off by the
# frame's corner read as a 6); 60 degrees at 40, 1,672 -> 1,673, 7 wrong; squeezed into
# 4:3, 1,722 -> 1,720, 5 -> 7 wrong. Frames not measured squashed are left alone: tried on
# them too, a few overhead phone photos were read steeper and lost 15 dice.
SURE = 0.8
UNSURE_COST = 0.5
SURER_BY = 1.5
# A frame with no slant known, with at least this many spots of pips on a body not shaped
# like a die per die read, may be steeper than measured (``_read_squashed_faces``). (Fewer
# cost the reads for nothing: rendered 7 dice seen from 40 degrees, worst 105 -> 234 ms a
# frame with any such spot; rendered steep dice read the same with this share.)
SQUASHED_SHARE = 0.5
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
EDGE_REASON = "at the frame's edge (pips may be cut off)"
# Pips with no die body found around them, or on a round one (a coin's marks): what they
# show is no evidence of a die, so the network must read it as it would alone, and where it
# sees no face around them they are not asked about (``face_net.SCREEN``). Pips on a
# body that is not die-shaped are on a die's body (a black die seen steeply, its sides as
# black as its top; two dice of a colour run together; marbling left out of one): there the
# network confirms the value they show, as where a check doubted them. (Rendered dice 24-48
# px seen 45-60 degrees, no calibration: 442 -> 453 of 480 read right, 3 -> 2 wrong values;
# all 250 dev photos as 640x480 frames, three looks: 5 more right over seven views, 1 fewer
# wrong.) A body too big for a die (a sleeve, a page) is not told apart: by its size in pip
# radii, the squashed pips of dice seen steeply measure small and true dice fell among the
# too big (rendered, 453 -> 442); no more dice were read on frames with no dice (a deep-sky
# photo, a printed page, rendered keyboards and clutter).
BODILESS_REASONS = frozenset({NO_BODY_REASON, ROUND_BODY_REASON})
# Spots the network does not settle by reading one value steadily (``face_net.STEADY``):
# the pip reader's own evidence conflicts, or the body may be two dice's (where pips on a
# body not die-shaped show no value, a face seen steadily may be the neighbour's).
UNSTEADY_REASONS = CONFLICT_REASONS | {NOT_DIE_SHAPED_REASON}
# Pips no die-shaped body holds: just below another die, they may be on its near side,
# whose value the network may confirm but not complete (``slant.possible_sides``).
SHAPELESS_REASONS = BODILESS_REASONS | {NOT_DIE_SHAPED_REASON}
# Pips flatter than this (minor/major axis) lie on a side face seen at a slant.
SIDE_FACE_RATIO = 0.65
# A face the first pass read is found again by the second (``_read_adapting``) where each of
# its pips lies within this share of the pip's radius of where it did (a finer pip filter
# moves a pip's centre by a fraction of a pixel).
AGAIN_SHIFT = 0.3
# The least side (px) of a die whose faces can be read: a die's pips are about 1/11 of its
# side, so on a smaller die those of a 2-6 are below the smallest spot the pip finder takes.
# A lone spot on a body that small is more likely a pin, a rivet or a hole than a 1.
MIN_DIE_SIDE = 11 * math.sqrt(MIN_PIP_AREA / math.pi)


def read_dice(frame: np.ndarray, calibration: Calibration | None = None, work_side: int = WORK_SIDE,
              sharpen: bool | None = None) -> DiceReading:
    """Read every die in ``frame`` (BGR or grey ndarray of any size), shrunk first to
    ``work_side`` px long where it is longer (``working_image``); sharpened first where it
    is soft and not shrunk (``SOFT_EDGE``), or where ``sharpen`` says (a look at a frame
    enlarged, whose edges the enlargement softened, as the frame itself was read; a photo
    its caller shrank)."""
    cal = calibration or Calibration()
    img, scale = working_image(frame, work_side)
    whole = img.shape[:2]   # (the camera's axis is at its centre)
    offset = (0, 0)
    if cal.tray is not None:
        img, offset = crop_to_tray(img, cal.tray)
    img = even_exposure(neutral_balance(img))
    die = None
    if cal.die_size:
        # A calibrated die size gives the pip size directly (a pip is ~1/11 of a die; the
        # die's width, which a stretch back from a slant leaves as it is).
        ref = max(cal.frame_size) if cal.frame_size else max(frame.shape[:2])
        die = cal.die_size * max(frame.shape[:2]) / ref * scale
    kernel = _kernel_for_pip(die / 11) if die else pip_kernel(img)
    # A camera at a slant squashes the top faces: stretch them square again (``slant``).
    # The first pass's pips measure the slant; they serve that pass too unless it is undone.
    # Pips are looked for only on and around the things off the tray (most of a frame is
    # tray: for one die, a thirtieth of it is searched). (The tray and the foreground serve
    # the reading too where the frame is not stretched; the colour image is made only then.)
    tray = colour_space(background(img))
    fg = foreground_mask(img, bg_colours=tray)
    # A soft frame (a webcam's lens, unsharpened) blurs small pips into their faces and
    # together: sharpened first, it is read as a sharp one (``segment.edge_softness``). Not
    # a photo shrunk to be read: the shrinking sharpens what its lens softened, and what
    # still measures soft is out of focus, which sharpening raised specks from (all 250
    # dev photos as a phone's 4000 px photos from 1.5 times as far, three looks: 17 -> 50
    # places asked about where no die lies).
    if sharpen is None:
        sharpen = scale == 1.0 and (edge_softness(img, tray, fg) or 0.0) > SOFT_EDGE
    if sharpen:
        img = sharpened(img)
        tray = colour_space(background(img))
        fg = foreground_mask(img, bg_colours=tray)
    search = PipSearch(img, within=fg)
    measured = None
    if cal.stretch == [1.0, 1.0]:
        stretch = None   # (a camera calibrated overhead: nothing to measure)
    else:
        stretch = measured = stretch_for(search.find(kernel))
        if cal.stretch is not None:
            stretch = known_or_measured(tuple(cal.stretch), measured)
    # A camera near the tray sees its far dice smaller and flatter than the near: seen
    # steeply, the frame is read as from afar at its slant (``perspective``: by the field of
    # view calibrated, or a cautious one assumed), and its slant measured again there.
    flat = flattening(img.shape, (whole[1] / 2 - offset[0], whole[0] / 2 - offset[1]), max(whole), stretch,
                      cal.field_of_view)
    if flat is not None:
        img = flattened(img, *flat)
        tray = colour_space(background(img))
        fg = foreground_mask(img, bg_colours=tray)
        search = PipSearch(img, within=fg)
        if stretch == measured:
            again = stretch_for(search.find(kernel))
            if again is not None and again[0] == 1.0:
                stretch = measured = again
    reading = _read_stretched(search, kernel, stretch, die, tray, fg)
    if stretch is not None and stretch == measured and reading.dice and reading.die_sizes:
        # Steeper than about 45 degrees the near sides' pips make the frame look less
        # squashed than it is: if the faces read say so, read it again stretched as they say.
        # (Where all the pips say the frame is not squashed, a few faces' do not overrule
        # them. With a known slant too, where the frame's own stood in for it: at 60
        # degrees, calibrated 1.2-1.49 for 2.0, 30-31 of 60 dice read and 11 wrong without
        # this; 38-39 and 8 with it.)
        tops = [(d.x, d.y) for d in reading.dice]
        steeper = steeper_stretch(top_face_pips(search.find(kernel), tops, reading.die_side, stretch), stretch)
        if steeper is not None:
            stretch = steeper
            reading = _read_stretched(search, kernel, stretch, die, tray, fg)
    guessed = False
    # The frame read at the guessed stretches steeper than it was, where a step below asks.
    steeper: list[tuple[float, DiceReading]] | None = None

    def read_steeper() -> list[tuple[float, DiceReading]]:
        nonlocal steeper
        if steeper is None:
            now = stretch[1] if stretch else 1.0
            steeper = [(g, _read_stretched(search, kernel, (1.0, g), die, tray, fg, look_at_blobs=False))
                       for g in GUESSED_STRETCHES if g > 1.15 * now]
        return steeper

    # A near side read where its top was not says the frame is steeper than it was read;
    # but a top face may look so too (a dark die touching a lighter one beyond it).
    if any(u.reason == UNDER_TOP_REASON for u in reading.uncertain):
        stretch, reading, guessed = _read_under_the_tops(stretch, reading, read_steeper(),
                                                         steepen=cal.stretch is None)
    # Faces too squashed to be read say so too, where they are many.
    if cal.stretch is None and not guessed and (stretch is None or stretch[1] > stretch[0]):
        squashed = [u for u in reading.uncertain if u.reason == NOT_DIE_SHAPED_REASON]
        if squashed and len(squashed) >= SQUASHED_SHARE * len(reading.dice):
            found = _read_squashed_faces(stretch, reading, squashed, read_steeper())
            if found is not None:
                (stretch, reading), guessed = found, True
    # A frame measured squashed and read unsure of something may be steeper still (``SURE``).
    if cal.stretch is None and not guessed and stretch is not None and stretch[1] > stretch[0] and (
            reading.uncertain or any(d.confidence < SURE for d in reading.dice)):
        surer = _surer(reading, read_steeper())
        if surer is not None:
            stretch = (1.0, surer)
            reading = _read_stretched(search, kernel, stretch, die, tray, fg)
    # Too few pips to tell the slant, and none read as from overhead: a few small dice seen
    # steeply show no square face unstretched. (No pip at all: nothing to read at any slant,
    # and an empty tray is not read four times.) All 250 dev photos as 640x480 frames 55
    # degrees from overhead, one look: 1,499 -> 1,513 read right, wrong the same; 62
    # degrees: 1,308 -> 1,355, 5 -> 7 wrong values. Three looks, as the CLI reads: 1,542 ->
    # 1,556 and 1,361 -> 1,402, wrong the same.
    # (Unmeasurable, the frame was read unstretched: its steeper reads are at every guess.)
    if not reading.dice and cal.stretch is None:
        pips = search.find(kernel)   # (searched already, to measure the slant)
        if pips and not measurable(pips):
            found = _most_dice(read_steeper())
            if found is not None:
                (stretch, reading), guessed = found, True
    if cal.logo_value:
        reading = _logo_faces(reading, cal.logo_value)
    if stretch is not None:
        reading = reading.moved((1.0 / stretch[0], 1.0 / stretch[1]))
    if flat is not None:
        reading = reading.remapped(unflattening(flat[0]))
    reading = _in_the_frame(reading.moved(1.0 / scale, offset, pre=True), frame.shape)
    reading.stretch, reading.stretch_guessed, reading.sharpened = stretch, guessed, sharpen
    return reading


def _in_the_frame(reading: DiceReading, shape: tuple[int, ...]) -> DiceReading:
    """``reading`` (in the pixels of a frame of ``shape``) with nothing reported outside the
    frame. A frame seen steeply is read flattened (``perspective``), and beyond its edges
    the flattened picture runs on with their pixels: a die cut off by the edge runs on in a
    streak, read where no camera saw it. A report within half a die's side outside the
    frame is moved onto its edge, a die read there asked about (only part of its face
    shows: ``EDGE_REASON``), unless another report lies there (that die asked about
    already); one further out is the streak, and dropped."""
    h, w = shape[:2]
    half = 0.5 * (reading.die_side or 0.0)
    dice, uncertain, moved = [], [], []
    for thing in [*reading.dice, *reading.uncertain]:
        x, y = min(max(thing.x, 0.0), float(w)), min(max(thing.y, 0.0), float(h))
        if (x, y) == (thing.x, thing.y):
            (uncertain if isinstance(thing, Uncertain) else dice).append(thing)
        elif math.hypot(x - thing.x, y - thing.y) <= half:
            moved.append(replace(thing, x=x, y=y) if isinstance(thing, Uncertain) else Uncertain(x, y, EDGE_REASON))
    for u in moved:
        if all(math.hypot(u.x - t.x, u.y - t.y) > half for t in [*dice, *uncertain]):
            uncertain.append(u)
    reading.dice, reading.uncertain = dice, uncertain
    return reading


def _read_stretched(search: PipSearch, kernel: int, stretch: tuple[float, float] | None,
                    die: float | None, tray: np.ndarray, fg: np.ndarray, look_at_blobs: bool = True
                    ) -> DiceReading:
    """``read_dice`` past the slant: ``search``'s image stretched by ``stretch`` (None: as it
    is) and read, in the stretched image's pixels (``die``: the calibrated die side, if any;
    ``tray`` and ``fg``: ``search``'s image's, as ``_colours`` finds them; ``look_at_blobs``:
    whether the network looks for dice on the blobs nothing was reported on)."""
    img = search.img
    # The tray without dice, the colour images and the foreground, shared by every step below.
    if stretch is not None:
        img = cv2.resize(img, (round(img.shape[1] * stretch[0]), round(img.shape[0] * stretch[1])),
                         interpolation=cv2.INTER_LINEAR)
        colours = _colours(img, side_drop(stretch) if stretch[1] > stretch[0] else 0.0)
        search = PipSearch(img, within=colours.fg)
    else:
        colours = _colours(img, tray=tray, fg=fg)
    if die is not None:
        reading, _ = _read(search, kernel, colours)
    else:
        reading = _read_adapting(search, colours)
    # (the things off the tray, outlined once for every step below that looks at them)
    outlines = blob_outlines(colours.fg)
    reading = _flag_unread_shapes(img, reading or DiceReading(), outlines)
    if die is not None and not reading.die_sizes:
        reading.die_sizes.append(die)
    if not reading.die_sizes:
        # No die body measured (no face read, and none found around its pips: pips the
        # JPEG smeared or noise broke up): the outlines of the things off the tray give the
        # size the network looks at, so that it still gets its say on them. Those the pips
        # found lie on are dice more likely than the rest (a rivet, a button).
        found = [(u.x, u.y) for u in reading.uncertain if u.reason != NO_PIPS_REASON]
        reading.die_sizes += _outline_sides(outlines, img.shape, found)
    blobs = _unreported_blobs(colours.fg, outlines, reading, stretch, search.strongest()) if look_at_blobs else []
    # (before the network reads any of them)
    pipless = [(u.x, u.y) for u in reading.uncertain if u.reason in (LOGO_REASON, NO_PIPS_REASON)]
    by_pips = {(d.x, d.y) for d in reading.dice}
    reading = second_opinion(img, reading, blobs,
                             look_above=OUTLINE_REASONS if colours.drop > 0 else (), bodiless=BODILESS_REASONS,
                             conflicting=UNSTEADY_REASONS, round_bodies=(ROUND_BODY_REASON,),
                             confirm_only=possible_sides(reading, stretch, SHAPELESS_REASONS, OUTLINE_REASONS)
                             if stretch is not None else ())
    # (what the network did not read on a round body was a coin's marks: not reported)
    reading.uncertain = [u for u in reading.uncertain if u.reason != ROUND_BODY_REASON]
    reading = _ones_among_pipless(reading, pipless)
    reading = _keys_among_squares(reading, colours, by_pips)
    if stretch is not None:
        reading = side_faces(colours.frame, reading, stretch, OUTLINE_REASONS)
    reading = sides_under_their_tops(colours.frame, colours.fg, colours.tray, reading, stretch, BODILESS_REASONS)
    return _cut_by_the_edge(reading, colours.fg)


def _most_dice(tried: list[tuple[float, DiceReading]]) -> tuple[tuple[float, float], DiceReading] | None:
    """Of ``tried``, readings of a frame at guessed stretches along y (a camera tilted down
    at the tray), the stretch that reads the most dice (the least, of those alike) and its
    reading, each die's confidence at most ``GUESSED_CONFIDENCE``; None where none reads a
    die. (A wrong stretch leaves the faces oblong: most fail the layout and body checks, so
    the stretch nearest the camera's reads the most.) Those reads leave out the network's
    look at blobs nothing was reported on: over clutter that is most of the time a read
    takes (rendered clutter with one speck: 660 -> 197 ms worst a frame), and it read no
    more dice right on the dev frames."""
    if not tried:
        return None
    g, reading = max(tried, key=lambda t: len(t[1].dice))   # (the first of the most)
    if not reading.dice:
        return None
    reading.dice = [replace(d, confidence=min(d.confidence, GUESSED_CONFIDENCE)) for d in reading.dice]
    return (1.0, g), reading


def _surer(reading: DiceReading, tried: list[tuple[float, DiceReading]]) -> float | None:
    """Of ``tried``, readings of a frame at guessed stretches along y, the stretch whose
    dice are the surest (their confidences summed, less ``UNSURE_COST`` for each place
    asked about), where they are surer than ``reading``'s (of the frame as measured) by
    ``SURER_BY``; else None."""
    def sureness(r: DiceReading) -> float:
        return sum(d.confidence for d in r.dice) - UNSURE_COST * len(r.uncertain)

    if not tried:
        return None
    g, best = max(tried, key=lambda t: sureness(t[1]))   # (the first of the surest)
    return g if sureness(best) > sureness(reading) + SURER_BY else None


def _unstretched(r: DiceReading, g: float) -> list[tuple[Die, float, float]]:
    """Each die of ``r``, a reading of a frame stretched by ``g`` along y, with its place in
    the frame unstretched."""
    return [(d, d.x, d.y / g) for d in r.dice]


def _read_under_the_tops(stretch: tuple[float, float] | None, reading: DiceReading,
                         steeper: list[tuple[float, DiceReading]], steepen: bool = True
                         ) -> tuple[tuple[float, float] | None, DiceReading, bool]:
    """``reading`` (of a frame at ``stretch``), some of whose faces were taken for sides
    below their dice's tops (``UNDER_TOP_REASON``), settled by ``steeper``, the frame read
    at the ``GUESSED_STRETCHES`` steeper than ``stretch`` by 15 % or more (each with its
    stretch along y): the stretch, the reading, and whether the stretch is a guess.

    Such a side says the frame is seen more steeply than measured. Unless the slant is known
    (``steepen`` false), where one of those stretches reads the tops over every such side
    (and no die on it), and as many dice as ``reading`` or more, the frame is read at it
    (the most dice of those: ``_most_dice``; a guess, so its dice are asked about).
    Otherwise a face a steeper stretch reads again as the same value, where it was read, was
    a top face after all (a side, stretched more, is taller than wide and reads as no face):
    it is read as before. The rest stay uncertain."""
    now = stretch[1] if stretch else 1.0
    side = reading.die_side   # (there are sides: there is a die size)
    sides = [u for u in reading.uncertain if u.reason == UNDER_TOP_REASON]
    read = _unstretched(reading, now)

    def tops_over_sides(r: DiceReading, g: float) -> bool:
        # (the tops: dice the frame as it was read did not read)
        found = _unstretched(r, g)
        tops = [(x, y) for _, x, y in found if all(math.hypot(x - rx, y - ry) >= 0.35 * side for _, rx, ry in read)]
        for u in sides:
            x, y = u.x, u.y / now
            if any(math.hypot(dx - x, dy - y) < 0.35 * side for _, dx, dy in found):
                return False
            if not any(abs(tx - x) < 0.5 * side and 0.15 * side < y - ty < 0.9 * side for tx, ty in tops):
                return False
        return True

    settled = _most_dice([(g, r) for g, r in steeper if steepen and len(r.dice) >= len(reading.dice)
                          and tops_over_sides(r, g)])
    if settled is not None:
        return *settled, True
    keep = []
    for u in reading.uncertain:
        again = None
        if u.reason == UNDER_TOP_REASON:
            again = next(((g, d) for g, r in steeper for d, dx, dy in _unstretched(r, g)
                          if d.value == u.hint and math.hypot(dx - u.x, dy - u.y / now) < 0.35 * side), None)
        if again is None:
            keep.append(u)
        else:
            g, d = again   # (as read at g: its pips into ``stretch``'s frame)
            reading.dice.append(replace(d, x=u.x, y=u.y, pips=tuple((px, py * now / g) for px, py in d.pips)))
    reading.uncertain = keep
    return stretch, reading, False


def _read_squashed_faces(stretch: tuple[float, float] | None, reading: DiceReading, squashed: list[Uncertain],
                         steeper: list[tuple[float, DiceReading]]
                         ) -> tuple[tuple[float, float], DiceReading] | None:
    """The stretch of ``steeper`` (as for ``_read_under_the_tops``) that reads the most dice,
    and its reading (as ``_most_dice`` gives them), where it reads more than ``reading``
    (of the frame at ``stretch``) and every die it reads that ``reading`` did not lies on one
    of the ``squashed`` spots (pips on a body that was not die-shaped): top faces squashed
    by a slant measured short. None where no stretch does: a die read anywhere else, or a
    near side read as a face, says the stretch is no better (keys on a keyboard seen
    steeply read as dice too, stretched more: they lie on no such spot)."""
    now = stretch[1] if stretch else 1.0
    side = reading.die_side
    if side is None:
        return None   # (no die's size measured: nothing to tell where a face lies)
    read = [(x, y) for _, x, y in _unstretched(reading, now)]
    spots = [(u.x, u.y / now) for u in squashed]

    def faces_unsquashed(r: DiceReading, g: float) -> bool:
        if len(r.dice) <= len(reading.dice) or any(u.reason == UNDER_TOP_REASON for u in r.uncertain):
            return False
        return all(any(math.hypot(x - a, y - b) < 0.5 * side for a, b in read + spots)
                   for _, x, y in _unstretched(r, g))

    return _most_dice([(g, r) for g, r in steeper if faces_unsquashed(r, g)])


def _cut_by_the_edge(reading: DiceReading, fg: np.ndarray) -> DiceReading:
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


def _unreported_blobs(mask: np.ndarray, outlines: list[np.ndarray], reading: DiceReading,
                      stretch: tuple[float, float] | None, spots: np.ndarray) -> list[tuple[float, float]]:
    """Places on things off the tray (``mask``; ``outlines``, its ``blob_outlines``) with nothing
    reported on them, where the face network may find a die the pips did not show (a lone
    pip too small to trust, a white die the mask hardly sees): the centre of a blob shaped
    like one die, and a grid half a die apart over a blob of a few dice touching, or over
    one of little more than a die's area but long and thin: two dice touching, smaller than
    the size measured (which, where no face was read, comes from that very blob's outline),
    only where ``spots`` (``PipSearch.strongest``) show something that may be a pip
    (``_grid``). (Bigger blobs are left alone: a grid over a card with lines of text on it
    found a 6 there.) And the places touching a die already reported: where a blob the size
    of one or two dice has its centre on a die reported, the centre of the part of it off
    that die, if that part is over 0.4 of a die's area (a die leaning on it, whose pips were
    not found).

    In a frame stretched back from a slant (``stretch``), a die's outline is its top face
    and the sides below it, taller by ``slant.side_drop`` die sides: the blob sizes allow
    for that, and the sides of a die already reported are not looked at again."""
    if not reading.die_sizes:
        return []
    side = reading.die_side
    reach = side_drop(stretch) if stretch else 0.0
    along_y = bool(stretch) and stretch[1] > stretch[0]
    reported = [(d.x, d.y) for d in reading.dice] + [(u.x, u.y) for u in reading.uncertain]
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

    one_die = side * side * (1 + reach)
    out = []
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
        if not 0.3 * side * side < area < 5 * one_die:
            continue
        points = []
        if area < 1.8 * one_die:
            # (the top face is the far end of a slanted die's outline)
            shift = 0.5 * reach * side if along_y else 0.0
            ys, xs = np.nonzero(own)
            xs, ys = xs + (x + 0.5), ys + (y + 0.5)
            if not free(xs.mean(keepdims=True), ys.mean(keepdims=True))[0]:
                off = free(xs, ys)
                if np.count_nonzero(off) > 0.4 * side * side:
                    out.append((float(xs[off].mean()), float(ys[off].mean()) - shift))
                continue
            (cx, cy), (rw, rh), _ = cv2.minAreaRect(outline)
            thin = max(rw, rh) > 1.6 * (1 + reach) * min(rw, rh)
            if round_outline(outline, mask.shape) or (thin and area < 1.2 * one_die):
                continue   # round (a coin, a bead), or not die-shaped
            if not thin:
                points = [(float(cx), float(cy) - shift)]
        if not points:   # (a few dice touching, or two smaller than the size measured: a grid)
            points = _grid(own, x, y, outline, side, spots)
        if points:
            keep = free(*np.array(points).T)
            out += [p for p, ok in zip(points, keep) if ok]
    return out


# A blob narrower than this, in die sides, holds no die: a pencil, a cable.
GRID_MIN_WIDTH = 0.5
# Contrast a spot must reach near a grid point for the network to look there (the pip
# finder's seeds need 45): a plain eraser or card shows nothing near that.
GRID_CONTRAST = 25


def _grid(own: np.ndarray, x0: int, y0: int, outline: np.ndarray, side: float,
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


def _ones_among_pipless(reading: DiceReading, pipless: list[tuple[float, float]]) -> DiceReading:
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


def _keys_among_squares(reading: DiceReading, colours: FrameColours,
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
    ``_ones_among_pipless`` needs). Dice lie side by side too, but the dice beside a die
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
        xs = np.clip(np.rint(d.x + 0.3 * side * _RING12_COS).astype(int), 0, w - 1)
        ys = np.clip(np.rint(d.y + 0.3 * side * _RING12_SIN).astype(int), 0, h - 1)
        body = _median_rows(img[ys, xs])
        tol = _body_tolerance(body, tray[min(h - 1, int(d.y)), min(w - 1, int(d.x))].astype(np.float32))
        # Colour distances at half size (squares a die wide need no more; a quarter of the
        # work). Area-averaged: a thin seam between two keys shades the pixels it falls in,
        # where sampling every other pixel could miss it.
        win = cv2.resize(img[y0:y1, x0:x1], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        dist2 = _distance2_to(win, body)
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


def _logo_faces(reading: DiceReading, value: int) -> DiceReading:
    """With a calibrated logo face, a die body centred on one mark that is not a pip is
    that face; without calibration it stays uncertain (``FaceFinder._judge``). Unless the
    face network saw a pip face there (``Uncertain.pip_face``): then the mark is a pip
    whose face's other pips were not found, and it stays uncertain."""
    logo = [u for u in reading.uncertain if u.reason == LOGO_REASON
            and (u.pip_face is None or u.pip_face < LOGO_PIPS)]
    if not logo:
        return reading
    rest = [u for u in reading.uncertain if u not in logo]
    return DiceReading(reading.dice + [Die(value, u.x, u.y, 0.7) for u in logo], rest, reading.die_sizes)


def _unsized_bounds(shape: tuple[int, ...]) -> tuple[float, float]:
    """The least and greatest side (px) of a die in a frame of ``shape`` where no die's
    size is known: a thirtieth and a fifth of the frame's shorter side."""
    return min(shape[:2]) / 30, min(shape[:2]) / 5


def _outline_sides(outlines: list[np.ndarray], shape: tuple[int, ...], found: list[tuple[float, float]]
                   ) -> list[float]:
    """The widths of the ``outlines`` (things off the tray, in an image of ``shape``) that may be
    one die or a row of touching dice: not round, filling most of their box, and as wide as
    a die may be (``_unsized_bounds``); only those holding a place in ``found``, if any
    does. A die's outline at a slant takes in its near sides, and dice in a row make it
    long, but its width is the die's (its diagonal, turned 45 degrees: within the network's
    allowance of a fifth either way, near enough)."""
    lo, hi = _unsized_bounds(shape)
    sides, holding = [], []
    for outline in outlines:
        area = cv2.contourArea(outline)
        if not lo * lo < area < 3 * hi * hi:
            continue
        _, (bw, bh), _ = cv2.minAreaRect(outline)
        per = cv2.arcLength(outline, True)
        if area >= 0.6 * bw * bh and not _round(area, per, bw * bh) and lo < min(bw, bh) < hi:
            sides.append(float(min(bw, bh)))
            if any(cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0 for x, y in found):
                holding.append(sides[-1])
    return holding or sides


def _flag_unread_shapes(img: np.ndarray, reading: DiceReading, outlines: list[np.ndarray]) -> DiceReading:
    """Add an uncertain spot for every die-shaped thing among ``outlines`` (the things off the
    tray) that was not read: a blurred die, a blank or logo face, a die whose pips are
    hidden by glare; and, where the dice's size is known, a die's worth of something running
    into the image's edge (a die half out of the frame, ``_cut_die``)."""
    if reading.die_sizes:
        side = reading.die_side
        lo, hi = 0.6 * side, 1.6 * side
    else:
        side = None
        lo, hi = _unsized_bounds(img.shape)
    spots = [(d.x, d.y) for d in reading.dice] + [(u.x, u.y) for u in reading.uncertain]
    for c in outlines:
        area = cv2.contourArea(c)
        if not lo * lo < area < hi * hi:
            continue
        (x, y), (bw, bh), _ = cv2.minAreaRect(c)
        square = max(bw, bh) < 1.5 * min(bw, bh) and area > 0.7 * bw * bh
        if (not square or round_outline(c, img.shape)) and not (side and _cut_die(c, area, side, img.shape)):
            continue   # not die-shaped, or round (a coin, a bead)
        if cv2.pointPolygonTest(c, (x, y), False) < 0 or any(
                cv2.pointPolygonTest(c, (float(sx), float(sy)), False) >= 0 for sx, sy in spots):
            continue
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


def pip_kernel(img: np.ndarray) -> int:
    # The first, coarse pip filter: wide enough for the pips of dice up to ~1/8 of the frame
    # (bigger ones are caught by the half-scale pass).
    return max(9, round(max(img.shape[:2]) / 30)) | 1


def _kernel_for_pip(radius: float) -> int:
    # The pip filter works best when its window is a little under twice a pip's diameter:
    # big enough to hold the pip, small enough not to bridge the gaps between pips and edges.
    return max(7, round(3.6 * radius)) | 1


def _read_adapting(search: PipSearch, colours: FrameColours | None = None) -> DiceReading | None:
    """Read with a coarse pip filter first, then again with one fitted to the pips found.

    The die size is not known in advance, so the first pass uses a filter wide enough for
    big pips; the pips of the faces it reads tell the real pip size. The two passes are
    merged die by die (``_merge``): where they disagree the die is uncertain.
    """
    img = search.img
    colours = colours or _colours(img)
    k0 = pip_kernel(img)
    best, first = _read(search, k0, colours)
    if first is not None and first.read_pip_radii:
        k1 = _kernel_for_pip(float(statistics.median(first.read_pip_radii)))
        if abs(k1 - k0) > 0.15 * k0:
            second, _ = _read(search, k1, colours, again=first.faces_read)
            best = _merge(best, second)
    if (best is None or not best.dice) and min(img.shape[:2]) >= 400:
        # Nothing readable: the dice may be close-ups with pips bigger than the pip filter.
        half = cv2.resize(img, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        third = _read_adapting(PipSearch(half)) if min(half.shape[:2]) >= 200 else None
        if third is not None and (third.dice or best is None):
            best = third.moved(2.0)
    return best


def _merge(a: DiceReading | None, b: DiceReading | None) -> DiceReading | None:
    """Two readings of one frame, die by die: a die read the same by both (or by one, with
    no die there in the other) stands; dice read differently become uncertain."""
    if a is None or b is None:
        return a or b
    sizes = a.die_sizes + b.die_sizes
    side = float(statistics.median(sizes)) if sizes else 20.0
    out = DiceReading(die_sizes=sizes, leads=a.leads + b.leads)
    used = set()
    for d in a.dice:
        match = next((k for k, e in enumerate(b.dice) if k not in used
                      and math.hypot(d.x - e.x, d.y - e.y) < 0.5 * side), None)
        if match is None:
            out.dice.append(d)
            continue
        used.add(match)
        e = b.dice[match]
        if e.value == d.value:
            out.dice.append(d if d.confidence >= e.confidence else e)
        else:
            out.uncertain.append(Uncertain(d.x, d.y, TWO_PASSES_REASON.format(d.value, e.value)))
    out.dice += [e for k, e in enumerate(b.dice) if k not in used]
    out.uncertain += a.uncertain + b.uncertain
    return _no_overlaps(out)


class FrameColours(NamedTuple):
    """What every pass over one frame shares: the frame and its tray background in the
    colour space the face checks use, the foreground mask (things off the tray), and how
    far below its top face a die's near sides reach, in die sides (a frame stretched back
    from a camera tilted down at the tray; 0 from overhead)."""
    frame: np.ndarray
    tray: np.ndarray
    fg: np.ndarray
    drop: float = 0.0


def _colours(img: np.ndarray, drop: float = 0.0, tray: np.ndarray | None = None,
             fg: np.ndarray | None = None) -> FrameColours:
    """``img``'s FrameColours (``tray``, ``fg``: its tray in ``colour_space`` and its
    ``foreground_mask``, where already found)."""
    tray = colour_space(background(img)) if tray is None else tray
    fg = foreground_mask(img, bg_colours=tray) if fg is None else fg
    return FrameColours(colour_space(cv2.GaussianBlur(img, (3, 3), 0)), tray, fg, drop)


def _read(search: PipSearch, kernel: int, colours: FrameColours | None = None, again: Sequence[Die] = ()
          ) -> tuple[DiceReading | None, FaceFinder | None]:
    """One pass over ``search``'s image with pip filter size ``kernel``: the reading and the
    FaceFinder that made it (its ``read_pip_radii``, ``faces_read``); None for both without
    any pip. ``again``: the faces an earlier pass over the image read (``FaceFinder``)."""
    pips = search.find(kernel)
    if not pips:
        return None, None
    colours = colours or _colours(search.img)
    faces = FaceFinder(colours.frame, pips, colours.tray, colours.fg, colours.drop, again)
    return faces.read(), faces


def _no_overlaps(reading: DiceReading) -> DiceReading:
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


def _round(area: float, perimeter: float, box_area: float) -> bool:
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


def _median_rows(a: np.ndarray) -> np.ndarray:
    """Per-column median of a small array (np.median's overhead dominates at this size)."""
    return np.sort(a, axis=0)[len(a) // 2]


def _body_tolerance(body: np.ndarray, tray: np.ndarray) -> float:
    """How far a colour may stray from a die's ``body`` colour and still be that die: at
    most half the way to the ``tray``'s colour there (white dice on a light tray need a
    tight tolerance)."""
    return min(max(float(0.5 * norm(body - tray)), MIN_BODY_TOLERANCE), BODY_TOLERANCE)


def _distance2_to(window: np.ndarray, colour: np.ndarray) -> np.ndarray:
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
        """``_body_tolerance`` of ``body`` against the tray at (x, y)."""
        if self.bg is None:
            return BODY_TOLERANCE
        tray = self.bg[min(self.h - 1, max(0, int(y))), min(self.w - 1, max(0, int(x)))].astype(np.float32)
        return _body_tolerance(body, tray)

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
            # (``_body_tolerance`` of every pair at once)
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
        n = len(self.pips)
        parent = list(range(n))

        def find(a):
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        cand, tol, dist = self._pair_candidates()
        for i, j in zip(*(k.tolist() for k in np.nonzero(cand))):
            if find(i) != find(j) and self._joined(i, j, float(tol[i, j]), float(dist[i, j])):
                parent[find(i)] = find(j)
        out: dict[int, list[int]] = {}
        for i in range(n):
            out.setdefault(find(i), []).append(i)
        return list(out.values())

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
        body = _median_rows(self.rings[idx])
        tol = self._tolerance(body, float(c[0]), float(c[1]))
        dist2 = _distance2_to(self.colours[y0:y1, x0:x1], body)
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
        step = np.abs(_median_rows(self.pip_colours[idx]) - _median_rows(self.rings[idx]))
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
        body = _median_rows(self.rings[idx])
        pip_col = _median_rows(self.pip_colours[idx])
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
        return _no_overlaps(reading)

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
        body = _median_rows(self.rings[idx])
        if float(norm(_median_rows(self.pip_colours[idx]) - body)) < MIN_PIP_CONTRAST:
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
            if float(norms(cols - _median_rows(cols)).max()) > 0.6 * BODY_TOLERANCE:
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
                reading.uncertain.append(Uncertain(cx, cy, NO_BODY_REASON, hint))
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
                reading.uncertain.append(Uncertain(cx, cy, NO_BODY_REASON, hint))
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
                if not die_like or _round(area, per, bw * bh):
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
                # ``second_opinion``).
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
                coin = _round(cv2.contourArea(outline), per, bw * bh)
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
        faint = float(norm(_median_rows(self.pip_colours[idx]) - _median_rows(self.rings[idx])))
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
            # merging of reports still need a die size. The corner pips of a 4, 5 or 6 span
            # 0.6 to 0.8 of the die's side (rounded dice to sharp-edged ones), and the
            # network allows for a fifth either way.
            self._sizes_from_pips.append(_span(pts) / 0.7)
        die = Die(value, cx, cy, round(float(min(1.0, conf)), 3), side, _centres(pts))
        reading.dice.append(die)
        self.faces_read.append(die)
        self.read_pip_radii.append(_mean32(self.r[idx]))

    def _read_before(self, idx: list[int], value: int | None) -> Die | None:
        """The face of ``again`` (an earlier pass's) read from these very pips ``idx``, showing
        ``value``, or None: as many pips, each within ``AGAIN_SHIFT`` of its radius of one
        of that face's. Its body and surroundings were checked then, at the same places; a
        doubt now would leave that reading standing anyway (``_merge``: a die one pass read
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
