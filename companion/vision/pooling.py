"""One reading from several frames of the same still tray, place by place.

A webcam never gives the same image twice: its sensor noise moves a faint or marbled pip's
contrast back and forth across the reader's thresholds, so a die the reader can only just
read is read in some frames and reported uncertain in others. Waiting for whole readings to
repeat exactly then waits long on a busy tray (one borderline die is enough to break the
run). Instead, each place on the tray is judged over the frames on its own:

- **One value read there, in any of the frames, and no other:** that value. An "uncertain"
  in another frame is the reader declining to read, not disagreeing. The die's confidence
  is its mean over the frames that read it; where those are no more than half the frames
  that saw something there, it is scaled down by that share: the least sure of the dice
  read is shown, but not accepted unasked.
- **Two values read there:** uncertain.
- **Seen in half the frames or fewer:** a value read there is made uncertain; an
  uncertain spot is dropped (a speck of noise that passed once is no die).

Places are matched frame to frame by their centres, closest pairs first (what a frame read
before what it asked about), each place taking at most one thing from a frame, within half
a die's side (a coin's radius) of each other: closer than two dice lying side by side. A
frame may report one die at two places a little further apart (``_one_per_thing``): what is
read within 0.6 of a side is one die, and what is asked about within half a side of a die
read is that die. Both are measured as the reader measured the dice, in the frame
stretched back from the camera's slant (a die and the one behind it, half a side apart in
a frame 55 degrees from overhead, are a side apart on the tray).

How many frames are enough (``enough``: the settle detector and ``read_still`` both stop
by it): ``STILL_LOOKS``; ``MORE_LOOKS`` more where one of them alone read a die; only two
(``AGREEING_LOOKS``) where those agree, neither asking about anything and both reading
every place alike.

A photo is one frame, but it can be looked at as a webcam's frames would show it
(``read_still``): as it is, and with a webcam's sensor noise added (or, where its dice are
small, enlarged: as the settle detector reads its still frames after the first), as many
times as are enough, pooled the same way.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Sequence, TypeVar

import cv2
import numpy as np

from .calibration import Calibration
from .segment import working_image
from .types import Coin, CoinReading, DiceReading, Die, Uncertain

Reading = TypeVar("Reading", DiceReading, CoinReading)

MIXED_REASON = "read as {} and as {} in still frames"
SELDOM_REASON = "read in {} of {} still frames"

# How many looks ``read_still`` takes at a photo (the settle detector pools as many frames),
# and the sensor noise (sigma, 0-255, per pixel and channel) of all but the first: a
# webcam's in good light.
STILL_LOOKS = 3
STILL_NOISE = 2.0
# A photo whose dice are under ``BIG_DIE`` px wide (as the first look measures them: dice
# that wide or wider read as well as any, 96-98 % right, by ``setup.SMALL_DIE``'s measure),
# or where it measured none, has its looks after the first taken at it enlarged ``ENLARGE``
# times (``read_still``).
BIG_DIE = 32.0
ENLARGE = 1.5
# A die one look of three read, the others unsure of it, is shown unsure; but such reads
# carry many of the wrong ones (on the second set of renders below, 20 of 35). Where a
# still tray's looks read one so, or the others saw nothing there (it is asked about),
# ``MORE_LOOKS`` more are taken (two more frames, for the settle detector) and pooled with
# them: another look may read it too, or read it otherwise (then it is asked about).
# Rendered trays through a 60-degree webcam at 40 and 55 degrees, three sets of 240
# frames, no slant told (``benchmarks/vision_renders.py``), read right and read wrong or
# where no die lies: 2,005 -> 2,004 and 15 -> 10, 1,655 -> 1,654 and 35 -> 33, 1,964 ->
# 1,968 and 24 -> 25. All 250 dev photos as 640x480 JPEG 80 frames, three looks, read
# right and wrong: through a 60-degree webcam at 40 degrees 1,671 -> 1,673, 9 either way;
# a 53-degree one at 55, 1,614 -> 1,617, 14; at 40, 1,696 -> 1,699, 13 -> 12; squeezed
# into 4:3, 1,719 -> 1,720, 7 -> 6; as phone photos, 1,770 and 2. (Asking about a value no
# look more read again, as a guess, gave 75 fewer right and 28 fewer errors on the
# renders, 39 fewer right and 13 fewer wrong on the four dev views: squeezed, 95.5 -> 94.7
# % right.) Taken too where the others saw nothing there: through a 53-degree webcam at 55
# degrees 1,631 -> 1,633 right, squeezed 1,732 -> 1,734 (a 1 and a 6 read in one look of
# three, of five in three), 15 and 3 wrong either way; at 40 degrees 1,713 right and 9 ->
# 10 wrong (a purple 4 with a glint at its middle, read as a 5 through a 60-degree webcam
# at 40 and at 55 already, read so in three looks of five); through a 60-degree one, and
# as phone photos, as before. Renders, set 1000: 2,049 -> 2,050 right, 8 wrong; the settle
# detector on the held-out dev trays (``benchmarks/vision_stills.py``) reads them as
# before, as soon.
MORE_LOOKS = 2
# Where the first two looks agree, neither asking about anything and both reading every
# place alike (``_agreed``), they are the reading: a third look there seldom changed a die,
# and never to read one right. All 250 dev photos as 640x480 JPEG 80 frames through a
# 53-degree webcam at 55 and 40 degrees, a 60-degree one at 40, and squeezed into 4:3: the
# first two looks agreed so in 539 of the 1,000 views, and 3,272 -> 2,729 looks were read;
# dice read right 6,792 -> 6,795, read wrong (37) and asked about where no die lies (17)
# as before, photos read whole 706 -> 711 (in three a third look had made a die read right
# uncertain). The 50 held out, the same or better in every view. The settle detector on
# them, at 40 degrees (``benchmarks/vision_stills.py``): read as before, reported after
# median 7.5 frames from the hand, not 8; a settled roll took 407 -> 313 ms median on one
# core here (``benchmarks/bench_vision.py``). As phone photos, 1,771 right and 3 wrong
# either way, a photo read in 576 -> 483 ms; but one die, a green 1 touching a 4, that two
# agreeing looks missed and a third read (asked about then: read once in five) is missed.
# (Asked too that every die be read at 0.8 or more, below which the players are asked
# anyway: 368 of the 1,000 agreed, 2 fewer right.)
AGREEING_LOOKS = 2


class _Place:
    """The things seen at one place of the tray, one at most per frame."""

    def __init__(self, frame: int, thing) -> None:
        self.x, self.y = thing.x, thing.y
        self.seen: dict[int, Die | Coin | Uncertain] = {frame: thing}


def pooled(readings: Sequence[Reading], reach: float | None = None) -> Reading:
    """One reading of ``readings`` (of the same still tray, all dice or all coins), place by
    place as the module docstring says. ``reach``: how far apart (px) two frames' things may
    lie and still be one; by default half the dice's side (``DiceReading.die_side``, over all
    the frames) or the coins' median radius, or 12 px where neither is known."""
    if not readings:
        raise ValueError("no readings to pool")
    if len(readings) == 1:
        return readings[0]
    dice = isinstance(readings[0], DiceReading)
    marks = [list(r.dice) if dice else list(r.coins) for r in readings]
    if reach is None:
        reach = _reach(readings, marks, dice)
    places: list[_Place] = []
    for k, (reading, read) in enumerate(zip(readings, marks)):
        things = read + list(reading.uncertain)
        # (A frame may read a die and ask about its outline's centre beside it: the place
        # takes what was read, as if everything asked about lay a reach further off.)
        pairs = sorted((d + (reach if i >= len(read) else 0.0), i, j) for i, t in enumerate(things)
                       for j, p in enumerate(places) if (d := _apart_in_the_frame(t, p)) <= reach)
        taken, filled = set(), set()
        for _, i, j in pairs:
            if i not in taken and j not in filled:
                places[j].seen[k] = things[i]
                taken.add(i)
                filled.add(j)
        places += [_Place(k, t) for i, t in enumerate(things) if i not in taken]
    out, uncertain = [], []
    n, half = len(readings), len(readings) / 2
    for p in places:
        read = [t for t in p.seen.values() if not isinstance(t, Uncertain)]
        values = sorted({_value(t) for t in read}, key=str)
        if len(values) > 1:
            uncertain.append(Uncertain(p.x, p.y, MIXED_REASON.format(*values[:2])))
        elif read and len(p.seen) > half:
            best = max(read, key=lambda t: t.confidence)
            mean = sum(t.confidence for t in read) / len(read)
            if len(read) <= len(p.seen) / 2:
                mean *= len(read) / len(p.seen)
            out.append(_with_confidence(best, round(mean, 3)))
        elif read:
            uncertain.append(Uncertain(read[0].x, read[0].y, SELDOM_REASON.format(len(read), n)))
        elif len(p.seen) > half:
            # (the reason most frames gave, the first frame's among equals)
            (reason, _), = Counter(t.reason for t in p.seen.values()).most_common(1)
            uncertain.append(next(t for t in p.seen.values() if t.reason == reason))
    apart = apart_on_the_tray(readings) if dice else _apart_in_the_frame
    out, uncertain = _one_per_thing(out, uncertain, 2 * reach, apart)
    if dice:
        return DiceReading(out, uncertain, [s for r in readings for s in r.die_sizes],
                           stretch=readings[0].stretch, stretch_guessed=readings[0].stretch_guessed,
                           sharpened=readings[0].sharpened)
    return CoinReading(out, uncertain)


def read_still(frame: np.ndarray, calibration=None, looks: int = STILL_LOOKS) -> DiceReading:
    """``read_dice`` of ``frame``, a still photo or frame, as the settle detector reads a
    still tray: ``looks`` readings pooled (``pooled``; fewer or more as ``enough`` says:
    two that agree, five where one alone read a die), the first of the frame as it is, the
    others with ``STILL_NOISE`` added (drawn from fixed seeds: the same photo always reads
    the same) at the reader's working size (``working_image``), where a webcam's frame
    would have it. Each is sharpened or not as the first was (``read_dice``'s ``sharpen``:
    noise or an enlargement would change how soft it measures), and the first not where
    the photo was shrunk to the working size. The others are read at the slant the first
    was read at where the calibration does not say: a frame's slant is measured from all
    its pips together, and noise that hid it would lose every die of that look (at 55
    degrees from overhead it did, in some dev photos), not one borderline die. Where one
    look alone read a die, ``MORE_LOOKS`` more are taken (``read_once``).

    Where the first look finds the dice small (``BIG_DIE``), and did not guess the slant,
    the looks after it are at the frame enlarged instead (``ENLARGE``), at that slant too
    unless the first measured none (then the first of them measures its own, and the rest
    are at its: below). A pip of a pixel or two is then a spot the pip filters and outlines
    can measure (their least sizes are whole pixels). A photo bigger than the working size
    gives that enlargement from its own pixels; a frame that is not is enlarged smoothly.
    The enlargement resamples every pip, so the first of them is of the frame as it is, the
    others with noise. A die only the enlarged looks read is read by two looks of three,
    like any; one a single look reads is asked about (``pooled``). (All 250 dev photos as a
    phone's 4000 px photos of the table from twice as far, JPEG 90, dice about 20 px wide at
    the working size: 1,627 -> 1,712 read right, 5 -> 2 wrong, where the looks were the
    working image enlarged, which ``read_dice`` then shrank straight back; from 1.5 times as
    far, 1,766 right either way, 29 -> 17 spots asked about where no die lies. A photo read
    in 0.57 -> 0.81 s.)

    (All 250 dev photos as 640x480 webcam frames at 40 degrees, JPEG 80: 1,668 dice read
    right by one look, 1,694 by three; 6 read wrong either way. Over six such views, 213
    more right and 13 more wrong: ``vision_accuracy.py --looks``. The looks after the first
    enlarged where the dice are small, all 250 as 640x480 JPEG 80 frames, read right and
    wrong: through a 60-degree webcam 40 degrees from overhead 1,658 -> 1,665, 9 -> 7;
    squeezed 1,707 -> 1,721, 6 -> 5; through a 53-degree webcam at 55 degrees 1,542 ->
    1,578, 10 -> 8; through a soft one 1,577 -> 1,610, 14 -> 11; through a 53-degree one at
    40 degrees 1,680 -> 1,686, 11 -> 14; a photo read in about 1.25 times the time. Only
    the last look enlarged: 1,664, 1,719, 1,570, 1,591 and 1,683 right, 10, 5, 11, 14 and
    12 wrong; enlarged whatever the dice's size, 2 more right and 3 more wrong than that.
    ``read_dice`` enlarging every frame of small dice, one look, read 129 more right over
    the first four views and 1 more wrong, but failed 10 to 15 of the tests' hard cases:
    its slant, measured in the enlarged frame, read near sides as faces (even leaving out
    pips flattened across the frame's slant, side faces' seen at a corner); measured at
    the frame's own size, other dice were lost.)

    Where the first look found no slant, the enlarged looks measure their own
    (``_later_calibration``). (All 250 dev photos through a 53-degree webcam at 55 degrees,
    JPEG 80: 1,577 -> 1,589 read right, at 40 degrees 1,688 -> 1,690, through a 60-degree
    one 1,666 -> 1,667, soft and squeezed the same; 48 wrong either way over the five views,
    33 -> 31 spots asked about where no die lies. As phone photos from twice as far, 1,712
    -> 1,713 right, 2 wrong. The noisy looks at the frame's own size, measuring their own
    too: 2 more right.) The enlarged looks after the first of them are at its slant: each
    measuring its own again, one unsure of it read the enlarged frame three times more
    (``dice._read_as_if_told``), and the slowest rolls the settle detector reads are such.
    All 250 dev photos, three looks, against each measuring its own: as JPEG 80 frames
    through a 53-degree webcam at 55 degrees every die read as before, at 40 degrees one
    missed die asked about instead, through a 60-degree one at 40 every die as before;
    squeezed into 4:3, a die read wrong asked about instead; through a soft 53-degree
    webcam at 55 degrees, one more read right; as phone photos from twice as far (JPEG 90),
    one missed die asked about, one spot fewer asked about where no die lies. Rendered
    trays (``benchmarks/vision_renders.py``, set 1000, 480 frames): 2,057 -> 2,058 right,
    10 wrong either way. A settled roll of the 50 held-out dev photos at 40 degrees
    (``benchmarks/bench_vision.py``, a new detector each, one core): 3.9-4.2 -> 2.4-2.9 s
    at worst, the median as before."""
    from .dice import read_dice
    cal = _sized_for(calibration or Calibration(), frame)
    img, scale = working_image(frame)
    # (a photo shrunk to be read is not sharpened: ``read_dice``)
    first = read_dice(img, cal, sharpen=False if scale < 1.0 else None)
    enlarged = _enlarges(first)
    if enlarged and looks > 1:
        # (the photo's own pixels for them, shrunk once for every enlarged look)
        source, _ = working_image(frame, round(ENLARGE * max(img.shape[:2])))

    def look(earlier: list[DiceReading]) -> DiceReading:
        """The look after ``earlier``, its noise drawn from their count."""
        seed, later = len(earlier), _later_calibration(earlier, cal, enlarged)
        if enlarged:
            return _enlarged_look(source, img, later, seed - 1, first.sharpened)
        return read_dice(_noisy(img, seed), later, sharpen=first.sharpened)

    readings = [first]
    while (reading := enough(readings, looks)) is None:
        readings.append(look(readings))
    return reading if scale == 1.0 else reading.moved(1.0 / scale)


def enough(readings: Sequence[Reading], looks: int = STILL_LOOKS) -> Reading | None:
    """``readings`` (of one still tray, in the order read) pooled, once they are enough to
    report, else None (read one more): ``looks`` of them; ``MORE_LOOKS`` more where one alone
    read a die (``read_once``); the first ``AGREEING_LOOKS`` where they agree (``_agreed``)."""
    n = len(readings)
    if (n < looks and n != AGREEING_LOOKS) or looks < n < looks + MORE_LOOKS:
        return None   # (nothing to decide: not pooled)
    reading = pooled(readings)
    if n < looks:
        return reading if _agreed(readings, reading) else None
    if n == looks and isinstance(reading, DiceReading) and read_once(readings, reading):
        return None
    return reading


def _agreed(readings: Sequence[Reading], reading: Reading) -> bool:
    """Whether ``readings`` (of one still tray) agree: none asks about anything, and each
    read what ``reading``, them pooled, reads (every place read alike in all)."""
    return not reading.uncertain and all(not r.uncertain and len(r.marks) == len(reading.marks) for r in readings)


def read_once(readings: Sequence[DiceReading], reading: DiceReading) -> bool:
    """Whether ``reading``, ``readings`` pooled, shows a die that one of them alone read,
    the others unsure of it or seeing nothing there (``SELDOM_REASON``): where looking again
    (``MORE_LOOKS``) tells a reading from a guess."""
    if len(readings) < 2:
        return False
    once = SELDOM_REASON.format(1, len(readings))
    if any(u.reason == once for u in reading.uncertain):
        return True
    reach = _reach(readings, [r.dice for r in readings], True)
    return any(sum(any(e.value == d.value and _apart_in_the_frame(d, e) <= reach for e in r.dice)
                   for r in readings) <= 1 for d in reading.dice)


def _enlarges(first: DiceReading, scale: float = 1.0) -> bool:
    """Whether the looks at a still tray after ``first`` (a reading of its frame, which the
    reader works on scaled by ``scale``: ``working_image``) are taken at the frame enlarged:
    where its dice are small there (``BIG_DIE``) or none was measured, and the slant was not
    guessed. (A slant the first look guessed leaves its dice to be asked about, each look
    guessing for itself: enlarged looks sure of their own slant would outvote that.)"""
    return not first.stretch_guessed and (first.die_side is None or first.die_side * scale < BIG_DIE)


def _later_calibration(earlier: Sequence[DiceReading], calibration: Calibration,
                       enlarged: bool) -> Calibration:
    """``calibration`` for the next look at a still tray whose looks so far read ``earlier``
    (the first, then the first after it, ...): at the first's slant (``_at_the_slant_of``),
    but where they are ``enlarged`` and it found no slant, as it is: small dice seen steeply
    can show the first look none (pips a pixel or two across, found merged into blobs too
    coarse to measure it by, so it reads the frame as from overhead, where no squashed face
    is square), and the enlarged looks, whose pips are then measurable, measure it for
    themselves: the first of them, and the rest at the slant it was read at, as the looks
    after an unenlarged first are at that one's. (Each measuring its own, a look that found none and was unsure read
    the frame again at every slant guessed, ``dice._read_as_if_told``: three more reads of
    the enlarged frame, four fifths of the look's time, in each of up to four looks.)"""
    first = earlier[0]
    if enlarged and first.stretch is None:
        return calibration if len(earlier) < 2 else _at_the_slant_of(earlier[1], calibration)
    return _at_the_slant_of(first, calibration)


def enlarged_frame(frame: np.ndarray, earlier: Sequence[DiceReading], calibration: Calibration
                   ) -> DiceReading | None:
    """``read_dice`` of ``frame``, a still tray's frame after those read as ``earlier`` (its
    first, and those after it), as ``read_still`` reads its looks after the first where
    they are enlarged (``_enlarges``; None where they are not): at the slant of
    ``_later_calibration``, sharpened as the first was, enlarged ``ENLARGE`` times; in
    ``frame``'s pixels. (The settle detector's: its later frames bring their own noise.)"""
    first = earlier[0]
    img, scale = working_image(frame)
    if not _enlarges(first, scale):
        return None
    source, _ = working_image(frame, round(ENLARGE * max(img.shape[:2])))
    cal = _later_calibration(earlier, _sized_for(calibration, frame), True)
    reading = _enlarged_look(source, img, cal, 0, first.sharpened)
    return reading if scale == 1.0 else reading.moved(1.0 / scale)


def _sized_for(calibration: Calibration, frame: np.ndarray) -> Calibration:
    """``calibration``, its die size (if any) said to be of ``frame``'s size where it says
    no size: as ``read_dice`` takes it, the frame's own, which each look then scales to
    the size it reads at."""
    if calibration.die_size and not calibration.frame_size:
        return calibration.merged(Calibration(frame_size=[frame.shape[1], frame.shape[0]]))
    return calibration


def _noisy(img: np.ndarray, seed: int) -> np.ndarray:
    """``img`` with ``STILL_NOISE`` added, drawn from ``seed``."""
    noise = np.random.default_rng(seed).standard_normal(img.shape, dtype=np.float32) * STILL_NOISE
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def _enlarged_look(source: np.ndarray, img: np.ndarray, calibration: Calibration, seed: int,
                   sharpen: bool) -> DiceReading:
    """``read_dice`` of the photo at ``ENLARGE`` times the size of ``img``, its working image,
    in ``img``'s pixels, with ``STILL_NOISE`` drawn from ``seed`` where that is not 0.
    ``source`` is the photo at that size or, where it has fewer pixels, as it is: as much of
    the look as the photo has pixels for is its own (a phone's photo, shrunk to work on,
    has detail the working image lost); the rest is enlarged smoothly, the noise added
    first. (A calibrated die size must say its frame size: it is read at another.) It is
    sharpened where ``sharpen`` says, as the first look was: the smooth enlargement softens
    every edge, and a sharp frame's would measure soft."""
    from .dice import read_dice
    side = round(ENLARGE * max(img.shape[:2]))
    big = _noisy(source, seed) if seed else source
    if max(big.shape[:2]) < side:
        grow = side / max(big.shape[:2])
        big = cv2.resize(big, None, fx=grow, fy=grow, interpolation=cv2.INTER_CUBIC)
    reading = read_dice(big, calibration, work_side=side, sharpen=sharpen)
    return reading.moved((img.shape[1] / big.shape[1], img.shape[0] / big.shape[0]))


def _at_the_slant_of(first: DiceReading, calibration):
    """``calibration`` for reading more looks at the frame ``first`` is a reading of: with
    the stretch ``first`` was read at, where it does not say one (read as it was, the
    others are read as from overhead too: [1, 1] measures nothing); but a stretch ``first``
    guessed, each look guesses for itself, its dice as unsure as the first's."""
    if calibration.stretch is not None or first.stretch_guessed:
        return calibration
    # (within what a calibration may hold)
    return calibration.merged(Calibration(stretch=[min(3.0, max(1.0, v)) for v in first.stretch or (1.0, 1.0)]))


def _apart_in_the_frame(a, b) -> float:
    """How far apart two things are in the frame as the camera sees it."""
    return math.hypot(a.x - b.x, a.y - b.y)


def apart_on_the_tray(readings):
    """A measure of how far apart two things of ``readings`` (dice readings of one tray)
    are, as the reader measured the dice: in the frame stretched back from the camera's
    slant (``DiceReading.stretch``, the first the frames were read at), where the dice's
    sides are. A camera at 55 degrees from overhead shows a die and the one behind it
    about half a side apart in the frame (one side on the tray)."""
    stretch = next((r.stretch for r in readings if r.stretch), None)
    if stretch is None or stretch[0] == stretch[1]:
        return _apart_in_the_frame
    fx, fy = (s / min(stretch) for s in stretch)
    return lambda a, b: math.hypot(fx * (a.x - b.x), fy * (a.y - b.y))


def _one_per_thing(read: list, uncertain: list[Uncertain], size: float,
                   apart=_apart_in_the_frame) -> tuple[list, list[Uncertain]]:
    """One report per die (coin) of ``size``: a frame may read one die at two places (its
    centre, and the middle of the pips it found of it), so places closer than ``0.6 * size``
    are one thing. Read the same there, the surest stands; read differently, it is uncertain.
    An uncertain place on a thing read, or on another uncertain place, is dropped (as the
    reader does within one frame). ``apart``: how far apart two things read, or a place
    and a thing read, are; for dice, in the frame stretched back from the slant
    (``apart_on_the_tray``). (All 250 dev photos as 640x480 JPEG 80 webcam frames, three
    looks, read right: through a 53-degree webcam 55 degrees from overhead 1,589 -> 1,614,
    through a 60-degree one at 40 degrees 1,667 -> 1,672, a soft one 1,632 -> 1,638, a
    53-degree one at 40 degrees 1,690 -> 1,692, squeezed 1,722 as before; 48 read wrong
    over the five views, as before. The places near a die read measured so too, 6 dice
    missed silently are asked about (4 at 55 degrees), with as many read right and wrong
    and no more places asked about where no die lies. Two uncertain places, and the
    frames' places, measured so as well read one die fewer on the 50 held-out photos at
    55 degrees: a blob's middle off its die's centre by half a side, the die read there
    by one look and asked about by two, was then two places, the die asked about twice.)"""
    groups: list[list] = []
    for t in sorted(read, key=lambda t: -t.confidence):
        near = [g for g in groups if any(apart(t, o) < 0.6 * size for o in g)]
        for g in near[1:]:
            near[0] += g
            groups.remove(g)
        if near:
            near[0].append(t)
        else:
            groups.append([t])
    kept, doubted = [], []
    for g in groups:
        values = sorted({_value(t) for t in g}, key=str)
        if len(values) == 1:
            kept.append(g[0])
        else:
            doubted.append(Uncertain(g[0].x, g[0].y, MIXED_REASON.format(*values[:2])))
    for u in uncertain:
        if not any(apart(u, t) < 0.5 * size for t in kept) and \
                not any(_apart_in_the_frame(u, v) < 0.3 * size for v in doubted):
            doubted.append(u)
    return kept, doubted


def _value(thing: Die | Coin):
    return thing.value if isinstance(thing, Die) else thing.face


def _with_confidence(thing: Die | Coin, confidence: float) -> Die | Coin:
    if isinstance(thing, Die):
        return Die(thing.value, thing.x, thing.y, confidence, thing.side, thing.pips)
    return Coin(thing.face, thing.x, thing.y, thing.r, confidence)


def _reach(readings, marks, dice: bool) -> float:
    if dice:
        sizes = sorted(s for r in readings for s in r.die_sizes)
        if sizes:
            return 0.5 * sizes[len(sizes) // 2]
    else:
        radii = sorted(c.r for read in marks for c in read)
        if radii:
            return radii[len(radii) // 2]
    return 12.0
