"""Settle detection: one dice reading per roll, from a stream of camera frames.

The daemon calls it in its main loop::

    det = SettleDetector(calibration)        # or SettleDetector(reader=...)
    det.arm()                                # a dice prompt is waiting for a roll
    while True:
        frame, t = camera.read()
        reading = det.feed(frame, t)         # DiceReading once per roll, else None
        if reading is not None:
            ...                               # offer it to the Table; the detector disarms

With ``executor=`` (a ``reading_thread.ReadingThread``), ``feed`` hands each look at the
still tray to it and returns at once, taking its reading on the first frame after it is
done (and handing the next look over then); motion meanwhile drops it. The same frames are
read as without, and the daemon's loop goes on answering the buttons while a roll is read.

How it decides:

- Motion is measured on a small copy of each frame (brightened if underexposed, as the
  readers brighten it): the share of pixels that changed in any colour channel by more
  than ``pixel_threshold`` since the previous frame, each row of the previous copy first
  brought to the light of this one's (``_relit``: a lamp's flicker through a rolling
  shutter, or the camera's exposure, changes whole rows, not a die). Above
  ``motion_share`` counts as motion (dice tumbling, a hand in the tray); below it the tray
  is still.
- A roll *starts* with motion after ``arm()``. Dice that were lying still when it was armed
  are never reported: something has to move first (``require_motion=False`` turns that off).
- Once still for ``still_time`` seconds, ``still_reads`` frames in a row are read and
  pooled, place by place (``pooling.pooled``): a die read one way in one frame and not read
  in another is read; read two ways, it is uncertain. Where one frame alone read a die, the
  others unsure of it or seeing nothing there, ``pooling.MORE_LOOKS`` frames more are read
  and pooled with them: they may read it too, or otherwise (then it is uncertain). Where the
  first two agree, neither asking about anything and both reading every die alike, they
  are the reading, a frame sooner (``pooling.enough``). (Waiting for whole readings to
  repeat instead waits on a webcam's noise: of 50 dev trays of about 7 dice seen through it,
  23 were not read alike three times running within 12 still frames:
  ``benchmarks/vision_stills.py``. Reading the mean of the still frames, their sensor noise
  averaged away, read fewer: every other dev photo as webcam frames 55 degrees from overhead
  through a 53-degree webcam, JPEG 80, read once, the mean of 4 frames against one, 770
  against 781 of 908 dice right, 4 against 6 wrong, with sensor noise 2; 776 against 783, 7
  and 7, with noise 5.) A die still rolling is never read: any motion clears the readings
  collected so far.
- Where the first of those frames shows the dice small, and left something to ask about
  or read no die, the frames after it are read enlarged, at its slant unless it measured
  none, as ``companion dice read`` looks again at a photo (``pooling.enlarged_frame``): a
  pip of a pixel or two is then one the reader can measure. (Every fifth dev photo, two
  such sets of 50, as webcam frames with fresh noise each: 40 degrees from overhead
  through a 60-degree webcam, 342 -> 345 of 369 dice reported right, 2 -> 0 wrong, and
  340 -> 342 of 363, 4 -> 5 wrong; 55 degrees, a 53-degree webcam, 317 -> 324 of 368,
  2 -> 3 wrong, and 317 -> 321 of 363, 0 -> 2. Of those read wrong, shown sure enough to
  be taken unasked (0.8): 2 -> 1; the rest, either way, read in one frame of the three,
  shown unsure. Enlarging after a first frame read clean too, as a photo's looks are,
  read one die fewer right over the four sets and asked about one that this misses, and
  a settled roll of the held-out photos at 40 degrees took 161 ms median on one core
  here, for 113 read as they are and 114-119 so: ``benchmarks/bench_vision.py``. A Pi's
  core is 4-6 times slower.) Where it measured none, the first of them measures its own,
  and the rest are read at that (``pooling._later_calibration``).
- A roll thrown while no frame was read (a notice on screen, the players quicker than the
  prompt) is one: where the first frame since arming differs from the tray as the last roll
  left it, in some places but not most (``UNWATCHED_MOST``), and soon after it
  (``UNWATCHED_SECONDS``), that is motion, and ``thrown_unseen`` says so until motion is
  seen (the daemon has such a reading accepted with a press). A daemon arming a detector
  where rolls went in since that it did not see says so (``roll_entered``), and then an
  armed detector waits for motion.
- Where the frame is as it was before the roll (the tray as it lay still while armed, or
  where no frame was still before the roll's motion, as the last roll left it), nothing was
  rolled: a place the pooled reading asks about there is not asked about (the keys of a
  keyboard beside the tray, print), and a die read there is left out unless the last roll
  reported that very die there and it was not entered in the game (``roll_entered``): the
  players threw again part of a roll they turned down (``_rolled_places``). A reading with
  nothing where the tray changed but what the last roll showed there is no roll (dice
  picked up; a shadow over the last roll's dice).
- After a report the detector is *done* until re-armed. With ``auto_rearm=True`` it re-arms
  itself, but then still never reports the same dice twice: a new report needs motion
  and a frame and a reading that differ from the last one's (``unmoved``: so a hand
  reaching in and out, or a nudge that moves nothing, does not repeat the roll, whatever
  the noise does to the readings).

The camera is fixed, so where the calibration does not say, the detector learns two
things from the rolls it reports, and reads later frames with them:

- the dice's size: the median of the last few readings' (the pips a frame's slant is
  measured by are found with a filter sized by it, and where a frame's pips and bodies
  measure no size, the network still looks at its dice at that one; the frame is read
  with that filter and in the two passes it takes where no size is known:
  ``dice._read_stretched``);
- the camera's slant, once ``LEARN_FACES`` 4s and 5s are reported (where their pips
  stand, as ``companion calibrate`` measures it), and from then on as the last
  ``KEPT_FACES`` of them show it. A frame too sparse to measure its own, a roll of two
  small dice seen from 50 degrees, is then stretched back as the earlier rolls showed
  (``slant.known_or_measured``).

It learns two things more, for the players rather than the reader: how far a camera at a
slant is turned about its own axis (``learnt_roll``, from the 4s and 5s as they pool to
``slant.MIN_ROLL_FACES``), and how far from overhead it looks (``camera_slant``: the same
4s and 5s as at the frame's centre). The daemon asks for a level camera where that is
worth it, and likewise tells the players of dice too small in the picture
(``learnt_die_size``, over ``sized_rolls`` rolls) or a camera too steep (``camera_slant``):
``setup.placement_advice``.

``reset()`` forgets everything: disarmed, and what the rolls showed (``reset(forget=False)``
keeps that, and the last roll's dice and the tray as it left them: the daemon's next roll,
same camera; ``roll_entered()`` then forgets the dice). ``state`` is one of "idle", "armed",
"moving", "settling", "done". ``last_motion`` is the time of the last frame with motion.
"""

from __future__ import annotations

import statistics
from concurrent.futures import Future
from dataclasses import replace
from typing import Callable, NamedTuple

import numpy as np

from .perspective import flat_layout_stretch
from .pooling import enlarged_frame, enough
from .segment import even_exposure
from .slant import layout_roll, layout_stretch, slant_degrees, square_face
from .types import DiceReading

# The 4s and 5s the detector reports before it takes the slant they show (one more than
# ``companion calibrate`` needs: these were read before the slant was undone); the last
# ``KEPT_FACES`` of them are pooled, after every roll. (A first roll's few can overstate
# the slant, and a slant learnt once was kept for the game. All 250 dev photos as one game
# of 640x480 frames, JPEG 80, one detector as the daemon keeps it, fed a hand and then
# still frames with fresh noise (sigma 2) until it reports (``benchmarks/vision_stills.py
# --game`` plays such a game). Through a 53-degree webcam 55 degrees from overhead: learnt
# 1.91 from the first roll; as the rolls go, 1.69-1.85 (eight rolls in ten); dice reported
# right and wrong and rolls read whole, 1,599, 20 and 146 -> 1,623, 18 and 156 (a new
# detector for each roll: 1,631, 20 and 154). At 40 degrees, learnt 1.42 once, 1.29-1.36
# as they go (eight in ten): 1,701, 11, 179 -> 1,696, 7, 176; through a 60-degree webcam,
# 1.46 once, 1.28-1.38: 1,692, 12, 170 -> 1,687, 9, 171.)
LEARN_FACES = 3
KEPT_FACES = 12
# The die size is the median of the last few rolls reported.
KEPT_SIDES = 5

# A place where the frame is as it was before the roll (under this share of a die-wide
# window's pixels changed by more than the motion check's ``pixel_threshold``) holds nothing
# that was rolled: a keycap, print, the tray's rivet (``_rolled_places``)...
UNCHANGED_SHARE = 0.02
# ...the frames seen at this width (px) at most, not at the motion check's 160: there a small
# white die thrown onto a white tray (22 px wide seen 55 degrees from overhead, its pips 3 px)
# changed no pixel, and 5 dice read right on the 250 dev photos were left out so
# (``benchmarks/vision_rolls.py``).
VIEW_WIDTH = 320
# The first frame since arming is a roll thrown meanwhile where it changed more than the
# motion check's share of the tray as the last roll left it, but no more than this. (The 250
# dev photos as 640x480 JPEG 80 frames 55 degrees from overhead, each against its tray with
# the dice painted out: 0.1-6.4 %, median 1.6 %, 3 under the motion check's 0.2 %, which wait
# for motion as before. The same frames 15 % brighter: as much, 0.1-6.7 %, median 1.6 %, each
# row's light brought to the other's first (``_relit``; 76-100 % changed without that).)
UNWATCHED_MOST = 0.25
# ...and no longer than this after the last roll was read (s): a throw while its reading and
# notices are on screen (a few seconds each). After a story told or a choice argued over,
# a cup set down beside the tray would be read as a roll: then the detector waits for motion.
UNWATCHED_SECONDS = 20.0

# A pixel is taken this much brighter (0-255) where its row's light is compared
# (``_relit``): dark pixels' ratios are mostly the sensor's noise.
RELIT_FLOOR = 10.0
# A channel this bright in a copy of a frame is taken as clipped (blurred a little by the
# copy's smoothing): the light there was as bright or brighter (``_differ``).
CLIPPED = 250

IDLE, ARMED, MOVING, SETTLING, DONE = "idle", "armed", "moving", "settling", "done"


def _lies_at(places, t, tol: float, value=None) -> bool:
    """Something of ``places`` ((value, x, y) each) lies within ``tol`` px of ``t`` along
    both axes (showing ``value``, where given)."""
    return any((value is None or v == value) and abs(x - t.x) <= tol and abs(y - t.y) <= tol for v, x, y in places)


def _relit(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """``before`` (float32), each row brought to the light of ``after``'s: scaled by the
    median, along the row, of how much brighter each pixel is in ``after``.

    A lamp on the mains (LED or fluorescent) flickers 100 or 120 times a second, and a
    webcam's rolling shutter, exposing each row a little after the one above for less than a
    flicker, lights each row of a frame by the lamp as it was then: bright and dark bands
    across the frame, moving from frame to frame where the frame rate does not divide the
    flicker's (50 Hz mains at 15 or 30 fps). Rendered rolls so lit through a 1/500 s
    exposure (``render.flickering``), 4 at each rate: a lamp whose light swings 15 % either
    side of its mean changed 8 % of a still tray's pixels from frame to frame (20 %: 45 %),
    and no roll was read. With each row so brought back, every roll was read right up to a
    swing of 50 %, as soon as in steady light or up to three frames later (at 60 %, 4 of 8
    were read, all right). The 50 held-out dev photos as such webcam frames 40 degrees from
    overhead, a swing of 30 % (``benchmarks/vision_stills.py --flicker 0.3``): trays
    reported 0 -> 50 of 50, dice right 95.9 % and wrong 0.54 % (in steady light 97.0 % and
    0.27 %, as before); as one game (``--game``), 97.3 % and none (97.3 % and 0.27 %). A
    row's median is the tray's, not a die's or a hand's, unless they fill half the row: a
    hand filling more still differs from the tray beside it. (An exposure the camera changes
    lights every row alike: that is brought back too.)"""
    import cv2
    # (each pixel's brightness, a dark pixel's ratio damped: there noise is most of it)
    ga, gb = ((cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img).astype(np.float32)
              for img in (after, before))
    gain = np.median((ga + RELIT_FLOOR) / (gb + RELIT_FLOOR), axis=1)
    return before.astype(np.float32) * (gain[:, None, None] if before.ndim == 3 else gain[:, None])


class _Look(NamedTuple):
    """A look at the still tray handed to the executor: its reading to come, the frame
    (a copy) and the frame's time."""
    reading: Future
    frame: np.ndarray
    t: float


class SettleDetector:
    """Decides when a roll has settled and reports one agreed reading per roll (see the
    module docstring for the rules). ``reader(frame) -> DiceReading`` defaults to
    ``read_dice`` with ``calibration``."""

    def __init__(self, calibration=None, *, reader: Callable | None = None,
                 still_time: float = 0.25, still_reads: int = 3, motion_share: float = 0.002,
                 pixel_threshold: int = 18, require_motion: bool = True,
                 auto_rearm: bool = False, position_tolerance: float = 0.03, executor=None):
        self.calibration = calibration
        if reader is None:
            reader = self._read_as_learnt
        self.reader = reader
        self.still_time = still_time
        self.still_reads = still_reads
        self.motion_share = motion_share
        self.pixel_threshold = pixel_threshold
        self.require_motion = require_motion
        self.auto_rearm = auto_rearm
        self.position_tolerance = position_tolerance
        # Where reads go (``submit(fn, frame) -> Future``: a ``ReadingThread``); None: read
        # in ``feed`` itself.
        self.executor = executor
        self._pending: _Look | None = None
        self.reset()

    @property
    def learnt_die_size(self) -> float | None:
        """The die side (px) the rolls reported so far showed: the median of the last
        ``KEPT_SIDES`` (None before the first)."""
        return round(statistics.median(self._sides), 1) if self._sides else None

    @property
    def sized_rolls(self) -> int:
        """How many of the rolls reported ``learnt_die_size`` stands on (at most ``KEPT_SIDES``)."""
        return len(self._sides)

    @property
    def camera_slant(self) -> float | None:
        """How far from overhead the camera looks, in degrees, as the 4s and 5s
        ``learnt_stretch`` stands on would show it at the frame's centre, wherever in the
        frame they lay (``perspective.flat_layout_stretch``, by the calibration's field of
        view or the one the reader assumes); None while no slant is learnt. The players are
        told of it (``setup.placement_costs``).

        The reader reads on at ``learnt_stretch``, the faces' squash as they stood. Read at
        this slant instead, all 250 dev photos as one game (as for ``KEPT_FACES``) through
        three webcam views read 5,006 dice right, 34 wrong and 503 rolls whole -> 5,025, 36,
        516, and played in the reverse order through two, 3,321, 26, 334 -> 3,311, 32, 316:
        no gain. But as the faces stood, a 53-degree webcam 40 degrees from overhead was
        learnt at 45.3 degrees from the first roll (41.5 so) and at 39.1-42.9 in eight rolls
        of ten after (39.9-40.8); a 60-degree one at 46.8 (42.2) and 38.4-43.7 (39.3-41.4):
        past ``setup.STEEP`` after 14 and 13 of the 250 rolls, the first among them (so,
        after none)."""
        if self.learnt_stretch is None:
            return None
        fov = self.calibration.field_of_view if self.calibration is not None else None
        stretch = flat_layout_stretch(self._square_faces, self._frame_size, fov)
        return None if stretch is None else round(slant_degrees(stretch), 1)

    def _read_as_learnt(self, frame: np.ndarray) -> DiceReading:
        """read_dice, told what the rolls reported so far showed where the calibration does
        not say (``_learn``): the die size (``dice._read_stretched``) and the
        slant; a still frame after the first of its run enlarged where the first's dice are
        small and it left something to ask about (the module docstring)."""
        from .calibration import Calibration
        from .dice import read_dice
        cal = self.calibration or Calibration()
        if self.learnt_die_size and not cal.die_size:
            cal = cal.merged(Calibration(die_size=self.learnt_die_size,
                                         frame_size=[frame.shape[1], frame.shape[0]]))
        if self.learnt_stretch and cal.stretch is None:
            cal = cal.merged(Calibration(stretch=list(self.learnt_stretch)))
        # (One look at the list: on a reading thread, motion may replace it meanwhile.)
        candidates = self._candidates
        first = candidates[0] if candidates else None
        if first is not None and (first.uncertain or not first.dice):
            later = enlarged_frame(frame, candidates, cal)
            if later is not None:
                return later
        return read_dice(frame, cal)

    # -- control -----------------------------------------------------------------------
    def reset(self, *, forget: bool = True) -> None:
        """Disarmed, no previous frame, no previous report: as new. ``forget=False`` keeps
        what the rolls so far showed of the camera, and the last roll's dice and the tray as
        it left them (the daemon's next roll, same camera: ``roll_entered``)."""
        self.state = IDLE
        self._drop_read()
        self._prev: np.ndarray | None = None
        self._still_since: float | None = None
        self._candidates: list[DiceReading] = []
        self._last_report: DiceReading | None = None
        self._last_view: np.ndarray | None = None   # (``motion``'s small copy of its frame)
        self._before: np.ndarray | None = None      # (the tray before the roll: _view, arm)
        self.left_out: list = []   # (what the last reading left out: _rolled_places)
        self._frame_size = (640, 480)   # (w, h) of the frames fed
        if forget:
            # (what the last report read, kept from roll to roll: dice a game leaves lying)
            self._reported: list[tuple] = []
            # (the frame the last report was read from, as ``_view`` sees it: the tray before
            # the next roll where no frame is still between arming and its motion)
            self._settled: np.ndarray | None = None
            self._settled_at = 0.0   # (the time of that frame)
            # (every place the last report's frames showed, left out or not, as (value or
            # None, x, y): a thing lying there as it lay is no sign of a roll)
            self._last_places: list[tuple] = []
            self._sides: list[float] = []
            self._square_faces: list[tuple[int, tuple]] = []
            self.learnt_stretch: tuple[float, float] | None = None
            self.learnt_roll: float | None = None
        self.last_motion: float | None = None
        self.thrown_unseen = False

    def arm(self) -> None:
        """Expect a roll: the next time the tray moves and settles, report one reading."""
        self.state = ARMED if self.require_motion else SETTLING
        self._drop_read()
        self._candidates = []
        self._still_since = None
        # (the tray as the last roll left it, until two still frames show it as it lies: a
        # hand may already be in the tray when the roll is wanted)
        self._before = self._settled
        # (True while the roll is one only the first frame since arming showed: nothing was
        # seen moving. Dice slid aside by hand look the same: the daemon has such a reading
        # accepted with a press.)
        self.thrown_unseen = False

    def roll_entered(self, *, tray_known: bool = True) -> None:
        """The last roll reported went into the game: its dice, where they lie as they lay,
        are no part of the next roll (All Fall Down's players throwing their own dice a few
        at a time: the first player's die, left lying, is not the second's roll). Without
        this, they are (the players threw again part of a roll they turned down).
        ``tray_known=False``: rolls went in since that this detector did not see (entered
        by hand, or read by another), so the tray as the last roll left it is not known
        either. Call before ``arm``."""
        self._reported = []
        if not tray_known:
            self._settled, self._last_places = None, []

    # -- the loop ------------------------------------------------------------------------
    def motion(self, frame: np.ndarray) -> float:
        """Share of pixels that changed since the previous frame (0 for the first frame)."""
        import cv2
        # Colour, not grey: a hand can be as bright as the tray yet plainly another colour.
        small = frame
        h, w = small.shape[:2]
        f = 160.0 / max(h, w)
        # Linear resizing of a frame blurred first: as steady as area averaging, much cheaper.
        small = cv2.resize(cv2.blur(small, (3, 3)) if f < 0.5 else small,
                           (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_LINEAR)
        # (Brightened as the readers brighten an underexposed frame: in a dim room a die's
        # last tumbles change the frame too little to pass ``pixel_threshold`` otherwise.)
        small = even_exposure(cv2.GaussianBlur(small, (3, 3), 0))
        prev, self._prev = self._prev, small
        return self._changed(prev, small)

    def _differ(self, before: np.ndarray, after: np.ndarray) -> np.ndarray:
        """Where two copies of frames (``motion``'s or ``_view``'s, of one size) differ: by
        more than ``pixel_threshold`` in any colour channel, each row of ``before`` lit as
        ``after``'s is first (``_relit``)."""
        diff = after.astype(np.float32) - np.minimum(_relit(before, after), 255.0)
        # (A pixel white in ``before``, clipped, had more light than it shows: lit brighter
        # it would show more, so only ``after`` darker than that tells a change.)
        diff = np.abs(np.where(before >= CLIPPED, np.minimum(diff, 0.0), diff))
        if diff.ndim == 3:   # (the channels' most: numpy's max along the last axis is slow)
            diff = np.maximum(np.maximum(diff[..., 0], diff[..., 1]), diff[..., 2])
        return diff > self.pixel_threshold

    def _changed(self, before: np.ndarray | None, after: np.ndarray) -> float:
        """Share of pixels of two such copies that differ (0 where there is no ``before``)."""
        if before is None or before.shape != after.shape:
            return 0.0
        changed = self._differ(before, after)
        return float(np.count_nonzero(changed)) / changed.size

    def feed(self, frame: np.ndarray, t: float) -> DiceReading | None:
        """Feed one frame taken at time ``t`` (seconds); returns a reading once per roll."""
        self._frame_size = (frame.shape[1], frame.shape[0])
        seen = self._prev is not None
        moving = self.motion(frame) > self.motion_share
        if moving:
            self.thrown_unseen = False
        elif not seen and self.state == ARMED and self._before is not None and \
                t - self._settled_at <= UNWATCHED_SECONDS:
            # The first frame since arming, beside the tray as the last roll left it: dice
            # thrown while no frame was read (a notice on screen, the players quicker than
            # the prompt) are a roll. (Not a change of nearly every place: a camera bumped
            # is no roll. An exposure gone is brought back first: ``_differ``.)
            moving = self.motion_share < self._changed(self._before, self._view(frame)) <= UNWATCHED_MOST
            self.thrown_unseen = moving
        if moving:
            self.last_motion = t
            self._still_since = None
            self._candidates = []
            self._drop_read()
            if self.state in (ARMED, SETTLING):
                self.state = MOVING
            elif self.state == DONE and self.auto_rearm:
                self.state = MOVING
            return None
        if self._still_since is None:
            self._still_since = t
        if self.state == ARMED and seen:
            # The tray as it lies before the roll: still, two frames alike. (Not the first
            # frame alone, which nothing shows still.)
            self._before = self._view(frame)
        if self.state == MOVING:
            self.state = SETTLING
        if self.state != SETTLING or t - self._still_since < self.still_time:
            return None
        read = self._read(frame, t)
        if read is None:
            return None
        looked_at, one = read
        self._candidates.append(one)
        reading = enough(self._candidates, self.still_reads)
        if reading is None:
            if self.executor is not None:
                self._read(frame, t)   # (the next look, handed over at once)
            return None
        self._candidates = []
        settled = self._view(looked_at)
        reading, rolled = self._rolled_places(reading, looked_at, settled)
        if self._last_report is not None and (
                self._changed(self._last_view, self._prev) <= self.motion_share
                or self.unmoved(reading, self._last_report)):
            # The tray moved but the dice did not (a hand, a nudge): not a new roll. The
            # frames tell that whatever the readings' noise; the readings, where the frames
            # differ for a die nudged in place.
            self.state = DONE
            return None
        if not rolled:
            # An empty tray is not a roll, nor one where nothing lies where the tray changed
            # (dice picked up, the last roll's left lying, before any is thrown): wait for the
            # next motion rather than reading every still frame of it.
            self.state = ARMED
            return None
        self._last_report, self._last_view = reading, self._prev
        self._reported = list(reading.marks)
        self._settled, self._settled_at = settled, t
        self._last_places = self._reported + [(None, u.x, u.y) for u in reading.uncertain] + \
            [(getattr(p, "value", None), p.x, p.y) for p in self.left_out]   # (dice and places: never coins)
        self.state = DONE
        self._learn(reading)
        return reading

    def _read(self, frame: np.ndarray, t: float):
        """(the frame looked at, its reading): the next look at the still tray. Where reads
        go to ``executor``, the reading of the frame handed over before, once it is done,
        and None while it is not; where none is on its way, ``frame`` (taken at ``t``) is
        handed over (a copy: a camera may fill the same buffer again) and None returned."""
        if self.executor is None:
            return frame, self.reader(frame)
        if self._pending is None:
            frame = frame.copy()
            self._pending = _Look(self.executor.submit(self.reader, frame), frame, t)
            return None
        look = self._pending
        if not look.reading.done():
            return None
        self._pending = None
        return look.frame, look.reading.result()   # (a reader's error is raised here, as inline)

    def _drop_read(self) -> None:
        """Forget the read on its way, if any (the tray moved, or a new roll is wanted):
        its reading is never taken, and one not started yet is not started."""
        if self._pending is not None:
            self._pending.reading.cancel()
            self._pending = None

    @property
    def reading_now(self) -> bool:
        """A look at the tray is on its way (``executor``) and not done yet."""
        return self._pending is not None and not self._pending.reading.done()

    @property
    def reading_since(self) -> float | None:
        """When the look on its way and not done yet was handed over (the frame's time);
        None if none is."""
        return self._pending.t if self.reading_now else None

    @staticmethod
    def _view(frame: np.ndarray) -> np.ndarray:
        """``frame`` as the tray before the roll is compared with the settled one:
        ``VIEW_WIDTH`` wide at most, smoothed and brightened as ``motion`` does."""
        import cv2
        h, w = frame.shape[:2]
        if w > VIEW_WIDTH:
            frame = cv2.resize(frame, (VIEW_WIDTH, max(1, round(h * VIEW_WIDTH / w))), interpolation=cv2.INTER_AREA)
        return even_exposure(cv2.GaussianBlur(frame, (3, 3), 0))

    def _rolled_places(self, reading, frame: np.ndarray, after: np.ndarray):
        """``reading`` without what it found where ``frame`` (``after``: its ``_view``) is
        as the tray was before the roll (``UNCHANGED_SHARE``): nothing there was rolled. A
        keyboard's keys, print, a coin left lying were asked about at every roll, and now
        and then read as a die. (Rendered desks as rolls, ``vision_desk.py --settled``, 12
        views of keyboards and a page beside the tray, 10 rolls each: places asked about off
        the dice 632 -> 30, dice read where none lies 15 -> 3, as many read right; a light
        keyboard seen from overhead, 199 -> 0.) A die thrown there changed it: its body,
        pips and shadow changed a tenth of its window or more where it hardly stood out
        (rendered: a white die 22 px wide on a white tray, a dark one on a dark tray), three
        fifths where it did, against none of a key's. On the 250 dev photos as rolls, the
        tray painted out before them (``vision_rolls.py``), no die was left out. A camera
        bumped changes every place, and then all is read as before (an exposure gone is
        brought back first: ``_differ``). A die read where nothing changed stays where the
        last roll reported that very die (``_reported``), unless that roll went into the
        game (``roll_entered``): the players turned it down and threw part of it again (a
        cocked die), and the dice left lying are part of the roll; a roll entered was the
        last prompt's, and every one of the five games' dice prompts counts only the dice
        thrown for it. Works on anything with ``uncertain`` (and ``dice``); as read, where
        the detector has seen no still tray before the roll. What it left out of the last
        reading pooled is in ``left_out``. Returns (the reading, whether anything in it lies
        where the tray changed: was rolled)."""
        self.left_out = []
        dice = getattr(reading, "dice", [])
        anything = bool(reading.uncertain or reading.marks)
        before = self._before
        if not anything or before is None or before.shape != after.shape:
            return reading, anything
        f = after.shape[1] / frame.shape[1]   # (the views' scale)
        side = getattr(reading, "die_side", None) or max(self._frame_size) / 30
        r = max(2, round(0.5 * side * f))
        h, w = after.shape[:2]
        tol = self.position_tolerance * max(self._frame_size)

        def changed_at(mask, place) -> bool:
            x, y = min(w - 1, max(0, round(place.x * f))), min(h - 1, max(0, round(place.y * f)))
            window = mask[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1]
            return np.count_nonzero(window) >= UNCHANGED_SHARE * window.size

        changed = self._differ(before, after)
        # (where the tray before the roll was not yet as the last roll left it)
        since_last = None if before is self._settled or self._settled is None or not self._last_places or \
            self._settled.shape != before.shape else self._differ(self._settled, before)

        def as_left(t, value=None) -> bool:
            """The last roll showed something at ``t`` (``value``, where given), and the tray
            there was as it left it when this roll began."""
            return _lies_at(self._last_places, t, tol, value) and \
                (since_last is None or not changed_at(since_last, t))

        # (A die read as the last roll left it there, or a place asked about where it left
        # anything, is no sign of a roll even where the frame changed about it: a shadow
        # cast, an exposure drifted, since.)
        read, asked, thrown = [], [], False
        for d in dice:
            moved = changed_at(changed, d)
            thrown = thrown or (moved and not as_left(d, d.value))
            (read if moved or _lies_at(self._reported, d, tol, d.value) else self.left_out).append(d)
        for u in reading.uncertain:
            moved = changed_at(changed, u)
            thrown = thrown or (moved and not as_left(u))
            (asked if moved else self.left_out).append(u)
        for c in getattr(reading, "coins", ()):   # (read where they lie, as ever)
            thrown = thrown or (changed_at(changed, c) and not as_left(c, c.face))
        if not self.left_out:
            return reading, thrown
        return replace(reading, uncertain=asked, **({"dice": read} if dice else {})), thrown

    def _learn(self, reading) -> None:
        """What a reported reading shows of the camera (a coins reading shows nothing): the
        die size, as the median of the last ``KEPT_SIDES`` readings' (one misreading does
        not set it for the rest of the game); the slant, as the last ``KEPT_FACES`` 4s and 5s
        reported show it, once there are ``LEARN_FACES``: a squash along an image axis (none
        where they are square: an overhead camera's frames are left to measure their own, as
        without a calibration); and the camera's turn about its own axis, learnt once
        (``slant.layout_roll``)."""
        if getattr(reading, "die_sizes", None):
            self._sides = [*self._sides, reading.die_side][-KEPT_SIDES:]
        self._square_faces += [(d.value, d.pips) for d in getattr(reading, "dice", ())
                               if square_face(d.value, d.pips)]
        del self._square_faces[:-KEPT_FACES]
        if len(self._square_faces) >= LEARN_FACES:
            stretch = layout_stretch(self._square_faces)
            if stretch == (1.0, 1.0):
                self.learnt_stretch = None
            elif stretch is not None:
                self.learnt_stretch = tuple(round(v, 3) for v in stretch)
        if self.learnt_roll is None:
            roll = layout_roll(self._square_faces)
            if roll is not None:
                self.learnt_roll = round(roll, 1)

    def unmoved(self, a, b) -> bool:
        """Two readings of dice (or coins) lying as they lay: something at each place of
        one at a place of the other, and nowhere else, and no place read one way in one and
        another way in the other. (A place read in one and uncertain in the other is as it
        was: a borderline die comes and goes with the camera's noise.) Works on anything
        with ``marks`` and ``uncertain``."""
        mine = list(a.marks) + [(None, u.x, u.y) for u in a.uncertain]
        rest = list(b.marks) + [(None, u.x, u.y) for u in b.uncertain]
        if len(mine) != len(rest):
            return False
        # Positions are in frame pixels; the tolerance is a share of the frame size.
        tol = self.position_tolerance * max(self._frame_size)
        for value, x, y in mine:
            near = [t for t in rest if abs(t[1] - x) <= tol and abs(t[2] - y) <= tol]
            # (a place read alike first, then one left uncertain in either)
            match = next((t for t in near if t[0] == value), None) or \
                next((t for t in near if value is None or t[0] is None), None)
            if match is None:
                return False
            rest.remove(match)
        return True
