"""Reading six-sided dice: ``read_dice(frame, calibration=None) -> DiceReading``.

The reader works from the pips outwards, so it needs no die size, colour or tray colour.
A frame with a colour cast (a webcam's white balance gone wrong, a lamp's light: its white
tray tinted) is first made neutral (``segment.neutral_balance``), and an underexposed one (a
dim room: a grey tray) brought up to a bright tray's level (``segment.even_exposure``), so
its colours and contrasts meet the same thresholds. Print beside the tray (a rulebook's
page, a score pad, a keyboard's legends), rows of letters by the hundred, is found and its
pips left out of every step below, and no die is read centred on it (``printed``).
A frame from a camera at a slant, whose pips come out flattened, is first stretched until
they are round again (``slant``), so the top faces are square for every step below (seen
steeply, the frame is first redrawn as a camera far away at that slant would see it, its
far dice as large and as flat as its near ones, by the camera's field of view calibrated
or a cautious one assumed: ``perspective``); one whose pips are too few to tell, and
which reads no die as it is, is read at a few likely slants instead, and the one that
reads the most dice kept, its dice shown as less sure. One whose pips show no slant and
which reads something unsure is read again as if told each of those slants, and kept as it
was unless one reads surer (pips a few pixels across show little of their squash); a place
the first read reported and that one does not is still asked about. (Where two 4s or 5s
read whole stand square, a frame is read neither so nor, for being unsure, steeper than its
pips measured: where pips stand shows a slant however small they are.)
It reads twice: with a pip filter sized for big pips, then with one fitted to the pips that
first pass found; the two are merged die by die, and disagreement makes a die uncertain.
(A face of two pips or more that the second pass finds again, the same pips where the
first read it, is taken as read there, its checks of step 3 not run again.) In each pass
(steps 2-5: ``faces.FaceFinder``; the reasons: ``reasons``):

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

Then die-shaped blobs that stand out from the tray but gave no reading (``outlines``: a
blurred die, a blank or logo face, a lettered keycap, what shows of a die half out of the
frame) are reported as uncertain too, as no 1 (the one big pip of a 1 is seldom
missed). Where no die's size was measured at all (no face read, no die body found around
any pips), the width of the outlines the pips lie on stands in for it, so that the network
below still gets its say.

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
one value in several views will do too (and a little less sure, where the spot is a lone
mark centred on the body among marks taken for no pips, a 3's or a 5's middle pip with its
others faint, and the network reads its face alike in four quarter turns: the die is then
shown for the players to accept); where nothing but the network speaks for a die
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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import NamedTuple

import cv2
import numpy as np

from .calibration import Calibration
from .face_net import DIE_SIZE_SPREAD, second_opinion
from .faces import PIP_PER_SIDE, FaceFinder, FrameColours, frame_colours, no_overlaps
from .outlines import (cut_by_the_edge, flag_unread_shapes, keys_among_squares, ones_among_pipless, outline_sides,
                       standing_out, unreported_blobs)
from .perspective import flattened, flattening, unflattening
from .pips import PipSearch
from .pooling import apart_on_the_tray
from .printed import PRINT_MARKS, print_mask
from .reasons import (BODILESS_REASONS, EDGE_REASON, LOGO_REASON, NO_PIPS_REASON, NOT_DIE_SHAPED_REASON,
                      OUTLINE_REASONS, OVERHEAD_ONLY_REASON, ROUND_BODY_REASON, SHADED_SIDE_REASONS, SHAPELESS_REASONS,
                      TWO_PASSES_REASON, UNSTEADY_REASONS)
from .segment import (WORK_SIDE, background, blob_outlines, colour_space, crop_to_tray, edge_softness,
                      even_exposure, foreground_mask, neutral_balance, sharpened, working_image)
from .slant import (GUESSED_STRETCHES, UNDER_TOP_REASON, known_or_measured, layout_stretch, measurable, possible_sides,
                    side_drop, side_faces, sides_under_their_tops, steeper_stretch, stretch_for, top_face_pips)
from .types import DiceReading, Die, Uncertain

# A frame whose things' edges are softer than this (``segment.edge_softness``, px) is
# sharpened before it is read (``segment.sharpened``). All 250 dev photos as 640x480 JPEG 80
# frames, one look, five webcam views: 7,987 -> 8,028 read right, 34 wrong either way, 31 -> 33
# spots asked about where no die lies; through a soft webcam (blur 0.8 px) 1,537 -> 1,574.
# Every frame sharpened: 8,060 right, 33 wrong, but 55 spots where no die lies, most on
# the tray's rim (sharp frames' specks raised to pips). (An earlier form of the measure, at
# 1.3 px: 8,029, 31 and 43; at 1.55 px: 8,009, 34 and 35.)
SOFT_EDGE = 1.4
# A calibrated logo face is not read where the face network gives a pip face this much
# (it was taught logos as no face: on rendered logo faces it gives 0.15-0.32).
LOGO_PIPS = 0.5
# A die read at a guessed slant (``_most_dice``: a frame too few pips measure, or one read
# again steeper by ``_read_under_the_tops`` or ``_read_squashed_faces``) is shown, but not
# accepted unasked (the controller's default bar is 0.8): of the dice such guesses added
# on dev frames 62 degrees from overhead, read once each, 2 in 49 were read wrong, against
# 1 in 220 of the rest.
GUESSED_CONFIDENCE = 0.75
# A frame measured squashed, whose reading is unsure of something (a place asked about, or a
# die under ``SURE``, the controller's default bar), may be steeper than measured: beyond
# about 45 degrees the near sides' pips, rounder than the tops', make it look less squashed
# than it is, and a turned die's side reads where its top does not. Unless its 4s and 5s
# stand square as read (``_maybe_steeper``), it is read at the guessed stretches steeper
# than it was too, and the one whose dice are the surest kept (``_surer``): their
# confidences summed, less ``UNSURE_COST`` for each place asked about, must beat the
# frame's own by ``SURER_BY`` (a die and a half read sure). Rendered trays of
# 2-7 dice at 40 and 55 degrees through a 60-degree webcam (two sets of 240, as for
# ``slant.TOP_ASIDE``): read right 1,929 -> 1,986 and 1,588 -> 1,635, wrong values 22 -> 17
# and 33 -> 31, dice read where none lies 7 -> 5 and 19 -> 17. The dev photos' flat views,
# whose dice show no sides, gain little: all 250 through a 53-degree webcam at 55, 1,614 ->
# 1,621 read right and 9 -> 14 wrong (three of the five under 0.3, which the players are
# asked to confirm; a marbled 5 with red pips read as a 6 at 0.87; a die cut off by the
# frame's corner read as a 6); 60 degrees at 40, 1,672 -> 1,673, 7 wrong; squeezed into
# 4:3, 1,722 -> 1,720, 5 -> 7 wrong. (Frames not measured squashed, stretched steeper so,
# lost 15 dice on a few overhead phone photos: see ``_read_as_if_told`` for what they get.)
SURE = 0.8
UNSURE_COST = 0.5
SURER_BY = 1.5
# A frame measured squashed and read unsure of something is read at the steeper guessed
# slants (``_surer``) only until one reads it no better, where it was read on this many
# dice or more (``_until_no_better``). All 250 dev photos as 640x480 frames, one look,
# through a 53-degree webcam at 40, 55 and 62 degrees, a 60-degree one at 40, and squeezed
# into 4:3: of 956 such steeper reads, 217 were made for nothing, and every reading there
# and of the 50 held-out phone photos is as before (stopping so on one die, 100605 at 62
# degrees lost the two dice a steeper guess read: the test); three looks at 40 and 55
# degrees, as before. Rendered trays (``benchmarks/vision_renders.py``, three sets, 1,440
# frames): every die read as before; in two frames at 55 degrees (white dice on a tray,
# clutter beside them), three dice read right 0.83-0.89 sure are 0.63-0.80, under
# ``controller.Settings.min_confidence`` (set 1000's frame 14: a look read no better at
# 1.75, where 2.3 read surer). One core here (``bench_vision``): the held-out dev frames
# at 40 degrees 46.8 -> 45.8 ms a frame at the median and 338 -> 261 ms at worst, through
# a 53-degree webcam told it 64 -> 55 and 357 -> 267; a settled roll of them 163 -> 150
# and 2,220 -> 1,994 ms, as one game 88 -> 83 and 962 -> 899 ms.
PAST_THE_SLANT_DICE = 2
# A place a reading reports is kept by another where that reports something within this
# share of a die's side of it (``_with_every_place``): a die touching it is a side away.
KEEP_REACH = 0.5
# A frame with no slant known, with at least this many spots of pips on a body not shaped
# like a die per die read, may be steeper than measured (``_read_squashed_faces``). (Fewer
# cost the reads for nothing: rendered 7 dice seen from 40 degrees, worst 105 -> 234 ms a
# frame with any such spot; rendered steep dice read the same with this share.)
SQUASHED_SHARE = 0.5


def read_dice(frame: np.ndarray, calibration: Calibration | None = None, work_side: int = WORK_SIDE,
              sharpen: bool | None = None) -> DiceReading:
    """Read every die in ``frame`` (BGR or grey ndarray of any size), shrunk first to
    ``work_side`` px long where it is longer (``working_image``); sharpened first where it
    is soft and not shrunk (``SOFT_EDGE``), or where ``sharpen`` says (a look at a frame
    enlarged, whose edges the enlargement softened, as the frame itself was read; a photo
    its caller shrank)."""
    cal = calibration or Calibration()
    return _read_prepared(frame, cal, _prepared(frame, cal, work_side, sharpen))


class _Prepared(NamedTuple):
    """A frame made ready to be read (``_prepared``): what every read of it at any slant
    starts from. ``img``: the frame at the working size, cropped to the tray, its exposure
    evened (and sharpened, where ``sharpen``); ``scale``: that working size's; ``whole``: the
    frame's shape at it, before the crop (the camera's axis is at its centre); ``offset``:
    the crop's; ``die``: the calibrated die side at the working size (None: not
    calibrated); ``kernel``: the pip filter's size; ``tray`` and ``fg``: ``img``'s tray
    colours and foreground; ``search``: its pip search; ``sharpen``: whether it was
    sharpened; ``measured``: the slant its pips measure (``stretch_for``; None also where
    the calibration says overhead)."""
    img: np.ndarray
    scale: float
    whole: tuple[int, int]
    offset: tuple[int, int]
    die: float | None
    kernel: int
    tray: np.ndarray
    fg: np.ndarray
    search: PipSearch
    sharpen: bool
    measured: tuple[float, float] | None


def _prepared(frame: np.ndarray, cal: Calibration, work_side: int, sharpen: bool | None) -> _Prepared:
    """``frame`` made ready to be read with ``cal`` (``read_dice``'s arguments)."""
    img, scale = working_image(frame, work_side)
    whole = img.shape[:2]   # (the camera's axis is at its centre)
    offset = (0, 0)
    if cal.tray is not None:
        img, offset = crop_to_tray(img, cal.tray)
    img = even_exposure(neutral_balance(img))
    die = None
    if cal.die_size:
        # A calibrated die size gives a typical pip size (``PIP_PER_SIDE``; the die's
        # width, which a stretch back from a slant leaves as it is): the filter that finds
        # the pips the slant and print are measured by. (The reading measures its own pips:
        # ``_read_stretched``.)
        ref = max(cal.frame_size) if cal.frame_size else max(frame.shape[:2])
        die = cal.die_size * max(frame.shape[:2]) / ref * scale
    kernel = _kernel_for_pip(PIP_PER_SIDE * die) if die else pip_kernel(img)
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
    # Print beside the tray: its letters, and a keyboard's, are no pips (``printed``).
    # Looked for only where the pips are as many as print's least marks: most frames hold
    # fewer, and are spared its 4-5 ms, dark and light print looked for (the dev photos
    # seen 55 degrees from overhead: 1 in 7 holds as many).
    if len(search.find(kernel)) >= PRINT_MARKS:
        search.leave_out(print_mask(img, fg, kernel))
    # A camera at a slant squashes the top faces: its pips measure how much (``slant``).
    # (A camera calibrated overhead: nothing to measure.)
    measured = None if cal.stretch == [1.0, 1.0] else stretch_for(search.find(kernel))
    return _Prepared(img, scale, whole, offset, die, kernel, tray, fg, search, sharpen, measured)


def _read_prepared(frame: np.ndarray, cal: Calibration, prep: _Prepared, light: bool = False) -> DiceReading:
    """``read_dice`` of ``frame`` with ``cal``, made ready as ``prep`` (``_prepared``, with
    ``cal``'s tray, die size and field of view; its slant may differ: a read as if told one
    shares the first read's preparation). ``light``: read as the guessed steeper slants are,
    without the network's look at the blobs nothing was reported on (``_read_as_if_told``)."""
    img, scale, whole, offset, die, kernel, tray, fg, search, sharpen, measured = prep
    frame_shape = img.shape   # (the frame as the camera took it, at the working scale)
    # The first pass's pips measured the slant; they serve that pass too unless it is undone.
    stretch = measured
    if cal.stretch == [1.0, 1.0]:
        stretch = None
    elif cal.stretch is not None:
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
        search = search.of(img, fg, flat[0])
        if stretch == measured:
            again = stretch_for(search.find(kernel))
            if again is not None and again[0] == 1.0:
                stretch = measured = again

    def read_at(stretch: tuple[float, float] | None, look_at_blobs: bool = not light) -> DiceReading:
        return _read_stretched(search, kernel, stretch, die, tray, fg, frame_shape, look_at_blobs)

    reading = read_at(stretch)
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
            reading = read_at(stretch)
    guessed = False
    # The frame read at the guessed stretches steeper than it was, where a step below asks:
    # each read once, in order, when first wanted. (No step changes the stretch before it
    # has asked for them.)
    guesses = [g for g in GUESSED_STRETCHES if g > 1.15 * (stretch[1] if stretch else 1.0)]
    steeper: list[tuple[float, DiceReading]] = []

    def read_guess(g: float) -> DiceReading:
        return read_at((1.0, g), look_at_blobs=False)

    def read_steeper(than: DiceReading | None = None) -> list[tuple[float, DiceReading]]:
        """The frame read at each guessed stretch steeper than it was read; with ``than``,
        only up to the first that reads it no better than that (``_until_no_better``)."""
        return _until_no_better(guesses, steeper, read_guess, than)

    def each_steeper() -> Iterator[tuple[float, DiceReading]]:
        """``read_steeper()``'s readings one by one, each read when the caller first goes on
        to it. (With a known slant, a near side under its top wants only the first stretch
        that reads it as a top: ``read_still``'s and the settle detector's looks after the
        first, told its slant, read the steepest stretch, the costliest, for nothing. The 50
        held-out dev photos as 640x480 frames, three looks: reads of a frame at a stretch,
        200 -> 189 at 40 degrees from overhead, 188 -> 182 squeezed into 4:3, one fewer
        through a 53-degree webcam at 55 and a 60-degree one at 40; readings the same.)"""
        for k in range(len(guesses)):
            yield _until_no_better(guesses[:k + 1], steeper, read_guess)[k]

    # A near side read where its top was not says the frame is steeper than it was read;
    # but a top face may look so too (a dark die touching a lighter one beyond it).
    if any(u.reason == UNDER_TOP_REASON for u in reading.uncertain):
        stretch, reading, guessed = _read_under_the_tops(stretch, reading, each_steeper,
                                                         steepen=cal.stretch is None)
    # Faces too squashed to be read say so too, where they are many.
    if cal.stretch is None and not guessed and (stretch is None or stretch[1] > stretch[0]):
        squashed = [u for u in reading.uncertain if u.reason == NOT_DIE_SHAPED_REASON]
        if squashed and len(squashed) >= SQUASHED_SHARE * len(reading.dice):
            found = _read_squashed_faces(stretch, reading, squashed, read_steeper())
            if found is not None:
                (stretch, reading), guessed = found, True
    # A frame measured squashed and read unsure of something may be steeper still (``SURE``).
    if cal.stretch is None and not guessed and stretch is not None and stretch[1] > stretch[0] and \
            _maybe_steeper(reading):
        surer = _surer(reading, read_steeper(than=reading))
        if surer is not None:
            stretch = (1.0, surer)
            reading = read_at(stretch)
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
    reading = _off_print(reading, prep.search)
    reading = _in_the_frame(reading.moved(1.0 / scale, offset, pre=True), frame.shape)
    reading.stretch, reading.stretch_guessed, reading.sharpened = stretch, guessed, sharpen
    # Pips that show no slant, read unsure of something, may have hidden one.
    if cal.stretch is None and stretch is None and _maybe_steeper(reading):
        reading = _read_as_if_told(frame, cal, prep, reading)
    return reading


def _off_print(reading: DiceReading, search: PipSearch) -> DiceReading:
    """``reading`` (in the pixels of ``search``, the frame's first pip search) without the
    dice read centred on its print (``PipSearch.leave_out``). A die's top face is no print,
    even lying on a page (its pips are round spots, which print is not); a key whose
    legend's pips were left out may still be read as a face by the network. (A light
    keyboard seen through a webcam near it, 12 frames: two keys read as dice at 0.89
    before, none now.)"""
    if search.printed is None:
        return reading
    return replace(reading, dice=[d for d in reading.dice if not search.on_print(d.x, d.y)])


def _unsure(reading: DiceReading) -> bool:
    """Whether ``reading`` asks about a place, or shows a die under ``SURE``."""
    return bool(reading.uncertain) or any(d.confidence < SURE for d in reading.dice)


def _maybe_steeper(reading: DiceReading) -> bool:
    """Whether the frame ``reading`` is of (in its pixels as read: stretched back from the
    slant it was read at, or as it is) may be steeper than it was read, to be read again at
    steeper slants: as if told one, where its pips showed none (``_read_as_if_told``), or
    steeper than they measured (``_surer``). It may where it is unsure of something
    (``_unsure``), unless two or more of its 4s and 5s, read whole, stand square
    (``slant.layout_stretch``: within 0.93): a camera as steep as any slant tried would
    have left them squashed (each stretches more than 1.15 times the slant read, which
    leaves them under 0.87 as tall as wide; for a frame read as from overhead, the least
    tried, 40 degrees, 0.77), and where pips stand is measured well however small each pip
    is.

    Speed, against the code before this test (whose reads as if told a slant also each
    prepared the frame again: ``_Prepared``), run alternately, twice each, on one core: the
    50 held-out dev photos as phone photos, three looks, 555 -> 313-319 ms a photo on
    average, 3.8-4.0 -> 1.6-1.7 s at worst; as 640x480 webcam frames 40 degrees from
    overhead (``bench_vision``), 66 -> 47-48 ms at the median, 646-668 -> 424-435 ms at
    worst, through a 53-degree webcam 85-87 -> 55-57 ms, and a settled roll of them 194-196
    -> 142-147 ms. Readings: the same dice read right, wrong and asked about, photo by
    photo, in all 250 dev photos through a 60-degree webcam at 40 degrees, a 53-degree one
    at 40 and 55, and squeezed into 4:3; in all, as phone photos; and kind by kind in the
    three sets of 240 rendered trays (``benchmarks/vision_renders.py``), whose dice show
    their near sides."""
    return _unsure(reading) and layout_stretch([(d.value, d.pips) for d in reading.dice]) != (1.0, 1.0)


def _read_as_if_told(frame: np.ndarray, cal: Calibration, prep: _Prepared, reading: DiceReading) -> DiceReading:
    """``reading``, of ``frame`` read with ``cal`` (which says no slant) from ``prep``
    (``_prepared``), its pips showing no slant and something in it unsure; or ``frame``
    read as if ``cal`` said each of the ``GUESSED_STRETCHES``, where one reads surer by
    ``SURER_BY`` (``_surer``; the surest of them). Each of those reads starts from
    ``prep`` too: its working size, exposure, tray, foreground, first pip search and slant
    measured are the first read's (made again, they cost 3.8 ms a webcam frame and 11 ms
    a phone photo at 1000 px a read).

    Pips four or five pixels across, blurred by a webcam's lens and its JPEG, show little of
    their squash: dev photo 095854, dark marbled dice with red pips, through a 60-degree
    webcam 40 degrees from overhead, measures 0.93 across where 0.77 is true along y. Read
    as from overhead, its five far dice, 20 px wide and squashed, were no die-shaped
    bodies, and went unreported: only the two near dice were read. Told a slant, the frame
    is stretched back and, seen steeply, flattened (its far dice made as large as its near
    ones: ``perspective``), which reading the same picture steeper (``_surer``'s reads)
    does not do. Such a read is no guess: the looks after it are told its slant
    (``pooling``), as after a slant measured.

    Rendered trays of 2-7 dice 40 and 55 degrees from overhead through a 60-degree webcam
    (``benchmarks/vision_renders.py``, three sets of 240): read right 5,632 -> 5,758 of
    6,048, wrong values 47 -> 39, dice read where none lies 26 -> 18, places asked about
    where no die lies 555 -> 493. All 250 dev photos as 640x480 frames, JPEG 80, three
    looks: through a 60-degree webcam at 40 degrees 1,688 -> 1,697 right and 18 -> 13
    missed, squeezed into 4:3 1,729 -> 1,731 (some of the photos are themselves slanted),
    wrong the same; through a 53-degree webcam at 40 and 55 degrees, and the phone photos
    as they are, as before. (Without ``_with_every_place``, 5,789 rendered dice read right,
    but blurred dice asked about on an open tray were dropped, and two dice beside a keypad
    lost: the tests.) The cost: three reads more where it is tried, one to three in a
    hundred looks at the dev webcam frames, and a phone photo's only where its 4s and 5s do
    not stand square (``_maybe_steeper``): ``bench_vision``'s two dice beside a pencil
    and an eraser at 40 degrees were read in 55 -> 77 ms. (Tried on every unsure look whose
    pips showed no slant, each read preparing the frame again, a third of the phone photos
    paid it: the 50 held out, three looks, were read in 236-243 -> 436-466 ms. Tried first
    as ``_surer``'s reads, the same picture stretched steeper: 095854 read no more, its
    far dice still small.)

    Each guess is read first as the guessed steeper slants are (``read_guess``: without the
    network's look at the blobs nothing was reported on, ``_read_stretched``'s
    ``look_at_blobs``), and only the surest of those, where it reads a die, is read whole
    and weighed against ``reading``. Over clutter that look is most of what a read costs,
    and each guess that loses paid it for nothing. (One core here: 20 rendered trays with
    no dice, a pencil, an eraser and a sheet of paper in them, 401-414 -> 187-206 ms median
    and 676-678 -> 272-304 ms worst; ``bench_vision``'s two dice beside a pencil and an
    eraser at 40 degrees, 488 -> 334-367 ms worst, and the held-out dev frames through a
    53-degree webcam told its field of view, 497 -> 406-424 ms worst. Every reading the same,
    die for die and place for place: all 250 dev photos, three looks, as 640x480 JPEG 80
    frames through a 53-degree webcam at 55 and 40 degrees, blurred by 0.6 px at 55, a
    60-degree one at 40 and squeezed into 4:3, and as phone photos at JPEG 90; the 480
    rendered trays of ``vision_renders.py``'s set 1000 and the 120 of ``vision_desk.py``;
    the photos with no dice of ``vision_no_dice.py``.)"""
    def told(g: float, light: bool) -> DiceReading:
        return _with_every_place(_read_prepared(frame, cal.merged(Calibration(stretch=[1.0, g])), prep, light),
                                 reading)

    lightly = [(g, told(g, True)) for g in GUESSED_STRETCHES]
    g, surest = max(lightly, key=lambda t: _sureness(t[1]))   # (the first of the surest, as ``_surer``)
    if not surest.dice:
        return reading
    whole = told(g, False)
    return whole if _surer(reading, [(g, whole)]) is not None else reading


def _with_every_place(other: DiceReading, reading: DiceReading) -> DiceReading:
    """``other``, another reading of the frame ``reading`` is of, asking too about each place
    ``reading`` reports where ``other`` reports nothing (no die, no place asked about,
    within ``KEEP_REACH`` of a die's side, measured as ``other`` was read: stretched back
    from its slant, where dice touching are a side apart, as ``pooling`` matches them): a
    die, or a place asked about, is not dropped for a reading that sees less, and such a
    reading is no surer for asking less (``_surer`` counts each place asked about against
    it). A die so dropped is asked about (``OVERHEAD_ONLY_REASON``)."""
    side = other.die_side or reading.die_side
    apart = apart_on_the_tray([other])
    theirs = [*other.dice, *other.uncertain]

    def kept(p: Die | Uncertain) -> bool:
        return side is not None and any(apart(p, q) < KEEP_REACH * side for q in theirs)

    lost = [u for u in reading.uncertain if not kept(u)]
    lost += [Uncertain(d.x, d.y, OVERHEAD_ONLY_REASON.format(d.value)) for d in reading.dice if not kept(d)]
    return replace(other, uncertain=other.uncertain + lost) if lost else other


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
                    die: float | None, tray: np.ndarray, fg: np.ndarray, frame: tuple[int, ...],
                    look_at_blobs: bool = True) -> DiceReading:
    """``read_dice`` past the slant: ``search``'s image stretched by ``stretch`` (None: as it
    is) and read, in the stretched image's pixels (``die``: the calibrated die side, if any,
    the dice's size where the pips and bodies measure none; ``kernel``: the pip filter it
    implies, ``_prepared``'s; ``tray`` and ``fg``: ``search``'s image's, as
    ``frame_colours`` finds them; ``frame``: the frame's shape as the camera took it, at the
    working scale, of which that image may be a flattened picture; ``look_at_blobs``:
    whether the network looks for dice on the blobs nothing was reported on, and on what
    stands out of blobs too big to be dice (``standing_out``), and the pip reader, where its
    first pass read no face, again at the size of the dice's bodies: ``_read_adapting``).

    A known die size (``companion calibrate``'s, or the one the settle detector learns from
    the rolls it reports) implies a pip filter, but a die's size does not give its pips'
    (``PIP_PER_SIDE`` is a typical die's; the dev photos' pips measure smaller, and a
    webcam's JPEG smears their colour): the frame is read with that filter and in the two
    passes of ``_read_adapting``, as where no size is known, and the three merged
    (``_merge``: a die any reads stands, one they read differently is asked about). All 250
    dev photos as 640x480 JPEG 80 frames, three looks, with the calibration
    ``companion calibrate`` measured from eight of them, read right and wrong, one pass ->
    three: through a 53-degree webcam 55 degrees from overhead, 1,608 and 19 -> 1,630 and
    20 of 1,792 (told nothing, 1,642 and 15); at 40 degrees, 1,706 and 8 -> 1,717 and 11 of
    1,795 (told nothing, 1,716 and 11). The 50 held-out photos as one game, the settle
    detector learning the size from the first roll (``benchmarks/vision_stills.py
    --game``), reported right and wrong of 368-369 dice, and rolls read whole of 50: at 55
    degrees 90.5 % and 6 -> 90.5 % and 3, 28 -> 34 whole; at 40, 94.6 % and 0 -> 95.4 % and
    0, 35 -> 37. (The two passes alone, without the pass the size implies: 1,631 and 18,
    1,715 and 13; as one game 91.6 % and 3, 96.2 % and 0; but a phone photo of three dice
    20 px wide, told their size, lost its 1: the tests.) The passes are the cost:
    ``bench_vision``'s lines with the dice's size known."""
    img = search.img
    # The tray without dice, the colour images and the foreground, shared by every step below.
    if stretch is not None:
        img = cv2.resize(img, (round(img.shape[1] * stretch[0]), round(img.shape[0] * stretch[1])),
                         interpolation=cv2.INTER_LINEAR)
        colours = frame_colours(img, side_drop(stretch) if stretch[1] > stretch[0] else 0.0)
        search = search.of(img, colours.fg)
    else:
        colours = frame_colours(img, tray=tray, fg=fg)
    reading = _read_adapting(search, colours, by_bodies=look_at_blobs)
    if die is not None:
        reading = _merge(reading, _read(search, kernel, colours)[0])
    # (the things off the tray, outlined once for every step below that looks at them)
    outlines = blob_outlines(colours.fg)
    reading = flag_unread_shapes(img, reading or DiceReading(), outlines, frame)
    if die is not None and not reading.die_sizes:
        reading.die_sizes.append(die)
    if not reading.die_sizes:
        # No die body measured (no face read, and none found around its pips: pips the
        # JPEG smeared or noise broke up): the outlines of the things off the tray give the
        # size the network looks at, so that it still gets its say on them. Those the pips
        # found lie on are dice more likely than the rest (a rivet, a button).
        found = [(u.x, u.y) for u in reading.uncertain if u.reason != NO_PIPS_REASON]
        reading.die_sizes += outline_sides(outlines, frame, found)
    if not reading.die_sizes:
        reading = _read_at_their_own_sizes(img, reading)
    blobs, beside = unreported_blobs(colours.fg, outlines, reading, stretch, search.strongest()) \
        if look_at_blobs else ([], [])
    if look_at_blobs:
        blobs += standing_out(colours.frame, colours.fg, reading, stretch)
    # (before the network reads any of them)
    pipless = [(u.x, u.y) for u in reading.uncertain if u.reason in (LOGO_REASON, NO_PIPS_REASON)]
    by_pips = {(d.x, d.y) for d in reading.dice}
    reading = second_opinion(img, reading, blobs, beside=beside,
                             look_above=OUTLINE_REASONS if colours.drop > 0 else (), bodiless=BODILESS_REASONS,
                             conflicting=UNSTEADY_REASONS, round_bodies=(ROUND_BODY_REASON,), turned=(LOGO_REASON,),
                             confirm_only=possible_sides(reading, stretch, SHAPELESS_REASONS, OUTLINE_REASONS)
                             if stretch is not None else ())
    # (what the network did not read on a round body was a coin's marks: not reported)
    reading.uncertain = [u for u in reading.uncertain if u.reason != ROUND_BODY_REASON]
    reading = ones_among_pipless(reading, pipless)
    reading = keys_among_squares(reading, colours, by_pips)
    if stretch is not None:
        reading = side_faces(colours.frame, reading, stretch, OUTLINE_REASONS)
    # (Read as from overhead, a frame keeps the marks and shapeless bodies below its dice:
    # asked about, they count against that reading where reads at steeper slants are
    # weighed against it, ``_read_as_if_told``. Dropped there too, four small rendered dice
    # seen from 55 degrees stayed read as from overhead: one right and one wrong, where all
    # four had been read right.)
    reading = sides_under_their_tops(colours.frame, colours.fg, colours.tray, reading, stretch, BODILESS_REASONS,
                                     SHADED_SIDE_REASONS if stretch is not None else ())
    return cut_by_the_edge(reading, colours.fg)


def _read_at_their_own_sizes(img: np.ndarray, reading: DiceReading) -> DiceReading:
    """``reading`` of ``img``, with no die's size known (no body measured, no outline
    die-like), its spots of pips with no body around them that tell their own die's size
    (``Uncertain.side``: a white die on a pale tray) each read by the network alone at that
    size. The frame's other spots say nothing of theirs: the network does not look at them,
    nor does what follows (the frame is left with no size), but those on a die so read are
    that die again (``no_overlaps``, at its size). (Taken for the frame's size, as a face
    read with no body gives it, that size let the network read every spot at it: of 120
    rendered dice seen 55-60 degrees from overhead, 2 read wrong where 1 was, a 1 read as
    a 2 at the size of three pips of a 5 beside it.)"""
    out = DiceReading(list(reading.dice), [], [], reading.leads)
    for u in reading.uncertain:
        one = second_opinion(img, DiceReading([], [u], [u.side]), bodiless=BODILESS_REASONS) \
            if u.side else DiceReading([], [u])
        out.dice += one.dice
        out.uncertain += one.uncertain
        out.die_sizes += [u.side] if one.dice else []
    if out.die_sizes:
        out = no_overlaps(out)
    return DiceReading(out.dice, out.uncertain, reading.die_sizes, reading.leads)


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


def _sureness(reading: DiceReading) -> float:
    """How sure ``reading`` is of the frame: its dice's confidences summed, less
    ``UNSURE_COST`` for each place asked about."""
    return sum(d.confidence for d in reading.dice) - UNSURE_COST * len(reading.uncertain)


def _surer(reading: DiceReading, tried: list[tuple[float, DiceReading]]) -> float | None:
    """Of ``tried``, readings of a frame at guessed stretches along y, the stretch whose
    dice are the surest (``_sureness``), where they are surer than ``reading``'s (of the
    frame as measured) by ``SURER_BY``; else None."""
    if not tried:
        return None
    g, best = max(tried, key=lambda t: _sureness(t[1]))   # (the first of the surest)
    return g if _sureness(best) > _sureness(reading) + SURER_BY else None


def _until_no_better(guesses: Sequence[float], made: list[tuple[float, DiceReading]],
                     read: Callable[[float], DiceReading], than: DiceReading | None = None
                     ) -> list[tuple[float, DiceReading]]:
    """The frame read at each of ``guesses`` (stretches along y, in order), ``made`` holding
    those read so far (``read`` reads it at one, once, when first wanted). With ``than``,
    the frame as read at the slant its pips measured, on ``PAST_THE_SLANT_DICE`` dice or
    more and asking about no more places than it read dice: only up to the first guess
    that reads no more dice than that, and no surer (``_sureness``). A frame read so well
    was measured near the camera's slant; a guess that reads its faces no better is most
    likely past it, and a steeper one leaves every face more oblong still (not always: the
    rendered frame ``PAST_THE_SLANT_DICE`` names). Read on one die, or asking about more
    places than it read dice, the frame may be short of its slant at the first guess too,
    its faces still too squashed to read (a rendered tray 55 degrees from overhead,
    measured at 1.11: four dice read and seven places asked about, one die and eight at
    1.3, four dice and two at 1.75, surer by 2.8 and kept). The frame read as from
    overhead, its pips showing no slant, is read at every guess (``_read_as_if_told``):
    there a guess short of the slant may read fewer dice or more, and less surely, than
    one nearer it (dev photo 095647 seen 62 degrees from overhead: nothing at 1.3, five
    dice at 1.75; a rendered tray 55 degrees from overhead: four dice as it was, five at
    1.3 with six places asked about, all six at 1.75)."""
    stop = than is not None and len(than.dice) >= max(PAST_THE_SLANT_DICE, len(than.uncertain))
    bar = _sureness(than) if stop else 0.0
    for k, g in enumerate(guesses):
        if k == len(made):
            made.append((g, read(g)))
        r = made[k][1]
        if stop and len(r.dice) <= len(than.dice) and _sureness(r) <= bar:
            return made[:k + 1]
    return made[:len(guesses)]


def _unstretched(r: DiceReading, g: float) -> list[tuple[Die, float, float]]:
    """Each die of ``r``, a reading of a frame stretched by ``g`` along y, with its place in
    the frame unstretched."""
    return [(d, d.x, d.y / g) for d in r.dice]


def _read_under_the_tops(stretch: tuple[float, float] | None, reading: DiceReading,
                         steeper: Callable[[], Iterable[tuple[float, DiceReading]]], steepen: bool = True
                         ) -> tuple[tuple[float, float] | None, DiceReading, bool]:
    """``reading`` (of a frame at ``stretch``), some of whose faces were taken for sides
    below their dice's tops (``UNDER_TOP_REASON``), settled by ``steeper()``, the frame read
    at the ``GUESSED_STRETCHES`` steeper than ``stretch`` by 15 % or more (each with its
    stretch along y), in order, each read when first gone on to: the stretch, the reading,
    and whether the stretch is a guess.

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

    settled = _most_dice([(g, r) for g, r in steeper() if len(r.dice) >= len(reading.dice)
                          and tops_over_sides(r, g)]) if steepen else None
    if settled is not None:
        return *settled, True
    keep = []
    for u in reading.uncertain:
        again = None
        if u.reason == UNDER_TOP_REASON:
            # (the first stretch to read it so: with a known slant, those steeper than that
            # are not read for it)
            again = next(((g, d) for g, r in steeper() for d, dx, dy in _unstretched(r, g)
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


def _logo_faces(reading: DiceReading, value: int) -> DiceReading:
    """With a calibrated logo face, a die body centred on one mark that is not a pip is
    that face; without calibration it stays uncertain (``faces.FaceFinder._judge``). Unless the
    face network saw a pip face there (``Uncertain.pip_face``): then the mark is a pip
    whose face's other pips were not found, and it stays uncertain."""
    logo = [u for u in reading.uncertain if u.reason == LOGO_REASON
            and (u.pip_face is None or u.pip_face < LOGO_PIPS)]
    if not logo:
        return reading
    rest = [u for u in reading.uncertain if u not in logo]
    return DiceReading(reading.dice + [Die(value, u.x, u.y, 0.7) for u in logo], rest, reading.die_sizes)


# The finest first pip filter ``_read_adapting`` tries where coarser ones read nothing (a
# die's pips under it are still a few px across: ``_kernel_for_pip``).
FINEST_FIRST = 9


def pip_kernel(img: np.ndarray) -> int:
    # The first, coarse pip filter: wide enough for the pips of dice up to ~1/8 of the frame
    # (bigger ones are caught by the half-scale pass).
    return max(9, round(max(img.shape[:2]) / 30)) | 1


def _kernel_for_pip(radius: float) -> int:
    # The pip filter works best when its window is a little under twice a pip's diameter:
    # big enough to hold the pip, small enough not to bridge the gaps between pips and edges.
    return max(7, round(3.6 * radius)) | 1


def _read_adapting(search: PipSearch, colours: FrameColours | None = None, by_bodies: bool = True,
                   first_kernel: int | None = None) -> DiceReading | None:
    """Read with a coarse pip filter first, then again with one fitted to the pips found.

    The die size is not known in advance, so the first pass uses a filter wide enough for
    big pips; the pips of the faces it reads tell the real pip size. The two passes are
    merged die by die (``_merge``): where they disagree the die is uncertain. Where the
    first pass read no face but found dice's bodies, those size the second
    (``_where_nothing_was``), if ``by_bodies``: not in the lighter reads at the guessed
    steeper slants (``_read_stretched``'s ``look_at_blobs``), where most such first passes
    are. (Run at every slant, it ran 13 times on the 50 held-out dev photos as 640x480
    frames 40 degrees from overhead, one look each, 12 of them at a guessed slant. Without
    it there, the dev photos and rendered trays read die for die the same.)

    The coarse filter assumes dice at least a thirtieth of the frame. Where it, and the
    half-scale pass, read no die, the dice may be smaller: a phone's photo of the table from
    further off, dark dice about a fiftieth of it, which a filter wider than they are sees
    each as one dark spot, their small pips in it unseen. The frame is read again with a
    first filter half as wide (down to ``FINEST_FIRST``), sized from there by the pips it
    reads. Where that reads a face of two pips or more (a lone spot on a body is the weakest
    evidence of a die, and a finer filter finds more specks: a glint on a red cup's handle,
    read as a 1 at 0.99 in a photo of coffee), its reading stands if it reads more dice than
    the coarse reported places, else its dice are added where the coarse reported nothing
    (``_where_nothing_was``). Not in the lighter reads at the guessed steeper slants
    (``by_bodies`` False). (All 250 dev photos as a phone's 4000 px photos, JPEG 90, from
    twice as far, dice about 20 px wide at the working size, three looks as ``companion dice
    read`` takes them: 1,720 -> 1,771 read right of 1,800, 3 -> 2 wrong values and 1 die
    where none lies either way, 34 -> 3 dice missed without a word, 42 -> 37 places asked
    about where no die lies; from three times as far, 1,327 -> 1,607 right, 4 wrong values
    and 1 die where none lies either way, 328 -> 100 missed, 79 -> 45 places where none
    lies. As they are, and as 640x480 JPEG 80 frames squeezed into 4:3, blurred by 0.6 px at
    55 degrees and 40 degrees from overhead through a 60-degree webcam: every die as before;
    through a 53-degree webcam at 40, 1,715 -> 1,716 right; at 55, as before but for one
    place more asked about where no die lies. Its reading taken wherever it read a die:
    1,773 right from twice as far, but through the 60-degree webcam 1,707 -> 1,704, a lone
    pip read as a 1 at a guessed slant changing the slant chosen (dev photo 095854, also
    why not at the guessed slants); its dice only added where the coarse reported nothing:
    1,750.) ``first_kernel``: that finer first filter, in such a read again (which tries
    finer ones still, but not the half-scale pass: the frame's own read tried it).
    """
    img = search.img
    colours = colours or frame_colours(img)
    k0 = first_kernel or pip_kernel(img)
    best, first = _read(search, k0, colours)
    # The second pass's filter, sized by the pips read, else by the bodies found (``side``).
    k1 = side = None
    if first is not None and first.read_pip_radii:
        k1 = _kernel_for_pip(float(statistics.median(first.read_pip_radii)))
    elif by_bodies and best is not None and best.die_sizes:
        side = float(statistics.median(best.die_sizes))
        k1 = _kernel_for_pip(PIP_PER_SIDE * side)
    if k1 is not None and abs(k1 - k0) > 0.15 * k0:
        second, _ = _read(search, k1, colours, again=first.faces_read)
        best = _merge(best, second) if side is None else _where_nothing_was(best, second, side)
    if first_kernel is None and (best is None or not best.dice) and min(img.shape[:2]) >= 400:
        # Nothing readable: the dice may be close-ups with pips bigger than the pip filter.
        half = cv2.resize(img, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        third = _read_adapting(search.of(half), by_bodies=by_bodies) if min(half.shape[:2]) >= 200 else None
        if third is not None and (third.dice or best is None):
            best = third.moved(2.0)
    finer = max(FINEST_FIRST, k0 // 2 | 1)
    if by_bodies and (best is None or not best.dice) and finer < k0:
        # (dice smaller than the coarse filter allows for: see above)
        small = _read_adapting(search, colours, by_bodies, first_kernel=finer)
        if small is not None and small.die_sizes and any(len(d.pips) > 1 for d in small.dice):
            best = small if best is None or len(small.dice) > len(best.places) \
                else _where_nothing_was(best, small, small.die_side)
    return best


def _where_nothing_was(first: DiceReading, second: DiceReading | None, side: float) -> DiceReading:
    """``first`` and the dice ``second`` (a pass with a filter sized by ``first``'s dice,
    ``side`` px wide) read over half a side from everything ``first`` reported, on bodies
    about that wide (``DIE_SIZE_SPREAD``).

    A filter much wider than the dice outlines a die darker than the tray whole, as one
    dark spot, and its small dark pips in it go unseen: in dev photos seen 55 degrees from
    overhead through a 53-degree webcam, stretched back to over 900 px wide, gold dice 26
    px wide under a filter of 31 px. Only where the first pass reported nothing: merged
    die by die (``_merge``), the small filter's die stood where the first had doubted one,
    as a blurred 3 of which it found only the middle pip, a 1. Only on bodies as wide as
    the filter was sized for: on a rendered tray seen 55 degrees from overhead, read
    shallower than that, a body measured twice as wide as the dice sized the filter, which
    found a 5's middle pip on a body half as wide, a 1; with a die read there, the steeper
    slants that read both dice were not tried. (All 250 dev photos as 640x480 frames, JPEG
    80, three looks: 55 degrees, 1,634 -> 1,638 read right, four 1s, none more wrong; 40
    degrees through 60- and 53-degree webcams, squeezed into 4:3 and as phone photos, as
    before; the rendered trays of ``vision_renders.py``, as before. Merged die by die:
    1,706 -> 1,705 and 1,714 -> 1,712 at 40 degrees, and squeezed, a 6 read as a 5.)"""
    if second is None:
        return first
    seen = first.places
    new = [d for d in second.dice if d.side and side / DIE_SIZE_SPREAD < d.side < side * DIE_SIZE_SPREAD
           and all(math.hypot(d.x - x, d.y - y) >= 0.5 * side for x, y in seen)]
    return replace(first, dice=first.dice + new) if new else first


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
    return no_overlaps(out)


def _read(search: PipSearch, kernel: int, colours: FrameColours | None = None, again: Sequence[Die] = ()
          ) -> tuple[DiceReading | None, FaceFinder | None]:
    """One pass over ``search``'s image with pip filter size ``kernel``: the reading and the
    FaceFinder that made it (its ``read_pip_radii``, ``faces_read``); None for both without
    any pip. ``again``: the faces an earlier pass over the image read (``FaceFinder``)."""
    pips = search.find(kernel)
    if not pips:
        return None, None
    colours = colours or frame_colours(search.img)
    faces = FaceFinder(colours.frame, pips, colours.tray, colours.fg, colours.drop, again)
    return faces.read(), faces
