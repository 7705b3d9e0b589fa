"""A second reader for a die's top face: a small convolutional network run by OpenCV's dnn.

The pip reader (``dice.py``) reads a face from its geometry; this network reads the same
place from its look. ``dice.py`` uses the two together (``second_opinion``): a face the pip
reader read stands only if the network does not contradict it, and a face the pip reader
could not read is taken from the network only when it is all but sure. Either reader alone
can be fooled; a wrong reading needs both fooled the same way, or the network fooled while
all but sure.

The network sees a square crop around the face, ``CROP_FACTOR`` times the die's side, scaled
to ``CROP_PX`` pixels and normalised by its own mean and spread (so lighting and exposure do
not matter). It answers seven probabilities: faces 1-6, and "no readable top face here"
(a side of a die, the gap between two dice, the tray, text, a coin, a logo, a blur).

The weights (``models/dice_faces.onnx``, 1.2 MB) were trained here by ``train_faces.py`` on
200 of the 250 real dev photos (every fifth held out, to measure on) and on rendered trays,
in eight steps, each going on from the last (about 45, 10, 30, 40, 15, 15, 12 and 24 minutes
on one core)::

    python -m companion.vision.train_faces --photos ../shared/datasets/dice-real-dev \\
        --out base.onnx --holdout 5 --epochs 40 --seed 4
    python -m companion.vision.train_faces --photos ../shared/datasets/dice-real-dev \\
        --out desk.onnx --holdout 5 --epochs 8 --seed 4 --start base.onnx --lr 2e-4 --desk
    python -m companion.vision.train_faces --photos ../shared/datasets/dice-real-dev \\
        --out webcam.onnx --holdout 5 --epochs 12 --seed 7 \\
        --start desk.onnx --lr 6e-4 --desk --webcam 4
    python -m companion.vision.train_faces --photos ../shared/datasets/dice-real-dev \\
        --out webcam8.onnx --holdout 5 --epochs 12 --seed 11 \\
        --start webcam.onnx --lr 6e-4 --desk --webcam 8
    python -m companion.vision.train_faces --photos ../shared/datasets/dice-real-dev \\
        --out slanted.onnx --holdout 5 --epochs 5 --seed 12 \\
        --start webcam8.onnx --lr 3e-4 --desk --webcam 8 --slanted 200
    python -m companion.vision.train_faces --photos ../shared/datasets/dice-real-dev \\
        --out dots.onnx --holdout 5 --epochs 5 --seed 13 \\
        --start slanted.onnx --lr 3e-4 --desk --webcam 8 --slanted 200 --dots
    python -m companion.vision.train_faces --photos ../shared/datasets/dice-real-dev \\
        --out ground.onnx --holdout 5 --epochs 4 --seed 14 \\
        --start dots.onnx --lr 3e-4 --desk --webcam 8 --slanted 200 --dots --same-ground
    python -m companion.vision.train_faces --photos ../shared/datasets/dice-real-dev \\
        --out companion/vision/models/dice_faces.onnx --holdout 5 --epochs 6 --seed 15 \\
        --start ground.onnx --lr 2e-4 --desk --webcam 12 --slanted 200 --dots --same-ground

The second step teaches print as no face (a rulebook or a score pad beside the tray: its
letters fall like pips, and stretched by a slanted frame its words are die-sized blobs).
The third adds the training photos as webcam frames (small, slanted, JPEG-compressed); on
the held-out photos as 640x480 JPEG 80 frames, it raised the dice ``read_dice`` reads right
from 84.0 to 86.1 % squeezed into 4:3 and from 81.7 to 83.9 % seen 40 degrees from overhead,
with one wrong value fewer in each. The fourth shows twice as many webcam frames. Those are
warps of overhead photos, which show no die's sides: the network it gave read the near
sides of rendered dice seen at a slant as faces (10 wrong of 1080, against 4), so the fifth
adds rendered trays seen at a slant with each die's near side as no face. The network that
gave read more star fields and pairs of specks as dice, so the sixth teaches dots with no
die body as no face (a face's pips alone, crumbs, lint, stars); and since that network
asked about more white dice on a white table (dots with little body around them), the
seventh shows such dice, never inverted (inverted, they are white dots on a black cloth).
Together the last four steps raised the held-out dice read right from 87.5 to 91.0 %
squeezed and from 86.4 to 90.5 % at 40 degrees (77.4 to 82.6 % at 55, 90.5 to 93.5 % at
20, 95.7 to 97.6 % at 640 px, 96.2 to 97.8 % at full size), with as many read wrong or
fewer (one wrong value fewer at 40 and at 55 degrees); of 1080 rendered dice seen at a
slant 2 read wrong, against 4. On 62 frames with no dice (scikit-image's sample photos,
whole and at 640 px) it reports 38 dice, against 36: as many on a deep-sky photo's stars
(more of them 1s, fewer 2s), one more on a printed page and one on gravel. The eighth shows
half as many webcam frames again, at a lower rate: held-out dice read right 91.0 to 91.6 %
squeezed, 90.5 to 91.0 % at 40 degrees (82.6 to 82.8 % at 55, 93.5 to 93.7 % at 20, 97.6 to
97.3 % at 640 px, 97.8 % at full size as before), as many read wrong but one value at 55
degrees (a small 4 whose pips the pip reader missed, read as a 6); 1 of the 1080 slanted
rendered dice read wrong; 31 dice on the 62 frames with no dice (26 on the deep-sky photo,
against 33; one 6 fewer on the page; a 1 on a rocket). A ninth step, tinting half the crops
as a white balance gone wrong does (``--casts``: 6 epochs on from these weights, seed 17),
read more held-out dice right at 40 degrees under a cool or a warm cast (323 -> 329 and
329 -> 342 of 367; 345 -> 344 with none) but read more that are not there (one more at JPEG 90,
one under the cool cast; 15 on 56 sample photos with no dice, against 13) and two more
wrong values on all 250 photos as squeezed frames; with seed 16 it read a dark 1, its
side's pips in view, as a 2. It was not kept: the reader undoes such a cast before the
network sees the frame (``segment.neutral_balance``). A tenth step added frames through a
wide webcam near the tray, 50-70 degrees across and 30-60 from overhead (``--wide 4``: 6
epochs on from these weights at a rate of 2e-4, seed 18, with the eighth step's other
options): where a webcam on a desk sees the tray, the far dice small and squashed, which
the eighth step's cameras (26-42 degrees across) never showed. All 250 dev photos as
640x480 JPEG 80 frames, three looks, read right and read wrong: through a 53-degree webcam
at 55 degrees, 1,638 -> 1,652 and 15 -> 21 (those at 0.8 or more, 4 -> 9); through a
60-degree one at 40, 1,706 -> 1,708 and 10 -> 12; through a 53-degree one at 40, 1,714 ->
1,727 and 10 -> 16; squeezed into 4:3, 1,734 -> 1,744 and 3 -> 8. The 50 held-out photos,
in those four views: 336 -> 338 and 4 -> 3, 351 -> 353, 353 -> 352 and 356 -> 358 right, as
many wrong in the last three. Counted die by die from each look's readings, the same 6
epochs without the wide frames read 8, 1, 12 and 3 more right and 6, 3, 3 and -1 more wrong;
3 epochs at 1e-4 with them, 16, 0, 4 and 4 more right and 5, 2, 3 and 0 more wrong (the
tenth step itself so: 14, 2, 13 and 10, and 6, 2, 5 and 4): going on makes the network
surer of the photos it learns from, and the bars below were set for these weights. Not
kept: at 55 degrees it read 6 more dice wrong, 5 more of them at 0.8 or more (the
controller's bar for taking a roll unasked), for 14 more right. An eleventh step was tried
on frames sharpened in colour (an unsharp mask on Cr and Cb alone, 7x7 Gaussian, amount 1: a
4:2:0 JPEG halves the colour's resolution, and small red pips on a dark marbled die smear
into it), every training scene so sharpened and the reader sharpening each frame so (6
epochs on from these weights at 3e-4, seed 19, the eighth step's other options). All 250 dev
photos as 640x480 JPEG 80 frames, three looks, read right and read wrong (the 50 held out in
brackets): 55 degrees through a 53-degree webcam, 1,642 (336) and 15 (4) -> 1,666 (343) and
16 (4), where the reader sharpening so with these weights, not retrained, gave 1,660 and 14;
40 degrees, 1,716 (354) and 11 (0) -> 1,735 (357) and 11 (1); 55 degrees blurred by 0.6 px,
1,585 (325) and 11 (1) -> 1,598 (330) and 16 (6), and 1,588 and 17 with soft frames (those
``dice.SOFT_EDGE`` sharpens whole) left unsharpened in colour. Not kept: more read wrong
where the frame is soft, for 93.0 % read right at 55 degrees, still short of the issue's
95 %. A twelfth step showed half the training photos' webcam frames with their colour
channels shuffled before the JPEG (``--recolour 0.5``; ``augment`` shuffles a crop's after
it, so a blue pip it shows is a red pip's JPEG smear turned blue, sharp in brightness, where
a 4:2:0 JPEG of a real blue pip keeps little brightness: red and blue swapped, the dev
photos read 3.4 points fewer at 55 degrees, ``vision_accuracy.py --colours rgb``), 6 epochs
on from these weights at 2e-4, seed 20, the eighth step's other options. All 250 dev photos
as 640x480 JPEG 80 frames, three looks, read right and read wrong (the 50 held out in
brackets), these weights -> the same 6 epochs without ``--recolour`` -> with it: 55 degrees
through a 53-degree webcam, 1,642 (336) and 15 (4) -> 1,646 (337) and 18 (3) -> 1,647 (336)
and 20 (3); red and blue swapped, 1,581 (324) and 13 (1) -> 1,599 (333) and 13 (1) -> 1,594
(333) and 16 (2); 40 degrees through a 60-degree webcam, 1,707 (351) and 10 (1) -> 1,709
(353) and 13 (1) -> 1,708 (354) and 16 (1); swapped, 1,639 (338) and 11 (2) -> 1,652 (342)
and 13 (2) -> 1,660 (341) and 16 (2). Not kept: with the shuffle, as many held-out dice read
right as without it (1,364 against 1,365 in the four views) and more read wrong of all 250;
going on without it read more wrong in three views of the four, and of 2,144 rendered dice
at a slant (``vision_renders.py``) 6 wrong at 0.8 or more against 4, in 3 frames the
controller would take unasked against 1. Going on from earlier weights keeps what they read:
the two networks trained from scratch with the second step's examples (dots in a face's
layout, with and without print) read fewer dice. Only OpenCV is needed to run the weights.
"""

from __future__ import annotations

import logging
import math
import os
import threading
from collections.abc import Collection
from dataclasses import replace
from typing import NamedTuple

import cv2
import numpy as np

from .types import DiceReading, Die, Uncertain

log = logging.getLogger(__name__)

MODEL_PATH = os.path.join(os.path.dirname(__file__), "models", "dice_faces.onnx")
CROP_PX = 48
# Crop side as a multiple of the die's side (the side ``faces.py`` measures from the body):
# the face with a margin, so a die cut off by the crop's edge is not the one being read.
CROP_FACTOR = 2.2
NOT_A_FACE = 6   # index of the "no readable top face" output
# The network reads at most this many views at a time. A real webcam frame read at a few
# slants asks it about hundreds of views at once (324 at most of the 250 dev photos through
# a 60-degree webcam at 40 degrees), and each of its layers holds its output for every
# view of a batch (the first, 147 KB a view): that outgrew the cache, and took memory a Pi
# can ill spare. One core here, ms a view: 0.38-0.40 in batches of 8, 0.37-0.39 of 16,
# 0.40-0.42 of 48, 0.54 of 256; and each batch costs a call more (15 views, one spot's: 7.5
# ms in one batch, 8.3-8.5 in two). Each view's answer is the same bit for bit in any batch.
BATCH = 16


def face_crop(img: np.ndarray, x: float, y: float, crop_side: float, angle_deg: float = 0.0,
              out: int = CROP_PX) -> np.ndarray:
    """The ``out`` x ``out`` BGR crop of ``img`` centred on (x, y), ``crop_side`` px wide,
    turned by ``angle_deg``; parts outside the frame repeat its edge."""
    scale = out / max(crop_side, 1.0)
    # Cut a region wide enough for any rotation, shrink it with area averaging (no aliasing
    # of small pips), then rotate and cut the centre at the network's size.
    half = int(crop_side * 0.72) + 2
    x0, y0 = int(round(x)) - half, int(round(y)) - half
    h, w = img.shape[:2]
    region = img[max(0, y0):max(0, min(h, y0 + 2 * half)), max(0, x0):max(0, min(w, x0 + 2 * half))]
    if region.size == 0:
        return np.zeros((out, out, 3), np.uint8)
    top, left = max(0, -y0), max(0, -x0)
    bottom, right = 2 * half - top - region.shape[0], 2 * half - left - region.shape[1]
    if top or left or bottom > 0 or right > 0:
        region = cv2.copyMakeBorder(region, top, max(0, bottom), left, max(0, right), cv2.BORDER_REPLICATE)
    size = int(round(2 * half * scale))   # (over 1.4 * out: the region is 1.44 crops wide)
    shrink = size / (2 * half)
    region = cv2.resize(region, (size, size), interpolation=cv2.INTER_AREA if shrink < 1 else cv2.INTER_LINEAR)
    c = (x - x0) * shrink, (y - y0) * shrink
    # (the resize rounded the size: the rotation takes up what is left of the scale)
    m = cv2.getRotationMatrix2D(c, angle_deg, scale / shrink)
    m[:, 2] += (out / 2 - c[0], out / 2 - c[1])
    return cv2.warpAffine(region, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def normalise(crops: np.ndarray) -> np.ndarray:
    """N x H x W x 3 uint8 crops -> N x 3 x H x W float32, each crop to zero mean, unit spread."""
    f = crops.astype(np.float32)
    mean = f.mean(axis=(1, 2, 3), keepdims=True)
    std = f.std(axis=(1, 2, 3), keepdims=True)
    return np.ascontiguousarray(((f - mean) / (std + 8.0)).transpose(0, 3, 1, 2))


class FaceNet:
    """The network, loaded once; ``probabilities`` is safe to call from several threads."""

    _shared: "FaceNet | None" = None
    _failed = False

    def __init__(self, path: str = MODEL_PATH):
        self.net = cv2.dnn.readNetFromONNX(path)
        self.lock = threading.Lock()

    @classmethod
    def shared(cls) -> "FaceNet | None":
        """The one network of this process, or None (said once in the log) when its weights
        cannot be loaded: the pip reader then reads alone, as sure of fewer dice."""
        if cls._shared is None and not cls._failed:
            try:
                cls._shared = cls()
            except (cv2.error, OSError) as exc:
                cls._failed = True
                log.warning("dice-face network not loaded (%s); reading dice by their pips alone", exc)
        return cls._shared

    @classmethod
    def use(cls, path: str | None) -> None:
        """Make the network from ``path`` this process's one (None: none, the pips alone);
        for benchmarks scoring weights trained without some photos."""
        cls._shared, cls._failed = (cls(path), False) if path else (None, True)

    def _forward(self, batch: np.ndarray) -> np.ndarray:
        """The network's logits (float64) for ``batch``, at most ``BATCH`` views."""
        self.net.setInput(batch)
        return self.net.forward().astype(np.float64)

    def probabilities(self, img: np.ndarray, spots, side: float) -> np.ndarray:
        """N x 7 probabilities (faces 1-6, not a face) for the dice at ``spots`` [(x, y)] in
        ``img``, whose dice are ``side`` px wide."""
        return self.crop_probabilities(img, [(x, y, side) for x, y in spots])

    def crop_probabilities(self, img: np.ndarray, views, turned: bool = False,
                           upright: np.ndarray | None = None) -> np.ndarray:
        """N x 7 probabilities for the views [(x, y, die side)] of ``img``, read ``BATCH``
        at a time. ``turned``: each view is also read in its three other quarter turns, and
        its probabilities are the four readings' geometric mean, normalised. A face's pips
        lie alike turned a quarter; a glint's, the marbling's or a logo's look changes, and
        the network, sure of a face in one turn and not in another, is the less sure for it.
        ``upright``: with ``turned``, the views' probabilities as they are, read already:
        only the three other turns are read."""
        if not len(views):
            return np.zeros((0, 7), np.float32)
        crops = np.stack([face_crop(img, x, y, CROP_FACTOR * side) for x, y, side in views])
        turns = range(4) if upright is None else range(1, 4)
        if turned:
            crops = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in turns])
        batch = normalise(crops)
        with self.lock:
            logits = np.concatenate([self._forward(batch[i:i + BATCH]) for i in range(0, len(batch), BATCH)])
        logp = logits - logits.max(axis=1, keepdims=True)
        logp -= np.log(np.exp(logp).sum(axis=1, keepdims=True))
        if turned:
            logp = logp.reshape(len(turns), len(views), -1)
            if upright is not None:
                logp = np.concatenate([np.log(np.maximum(upright, 1e-30))[None], logp])
            # (the turns' mean log-probability, renormalised below: their geometric mean)
            logp = logp.mean(axis=0)
        e = np.exp(logp - logp.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


# The network must be this sure to read a face the pip reader could not; a face the pip
# reader did read needs at least SUPPORT for its value from the network, and no other
# value over OVERRULE. Where the pips showed a value but a check doubted the die (its body
# not found, a blur), the network confirms that value at AGREE: two readers that fail in
# different ways, agreeing. (On the 50 dev photos it never saw, at full size and at 640 px,
# the weights of the webcam step gave each of the 596 faces the pip reader reads right over
# 25 %; the weights before it, over 7 %. With those weights, there and on the same photos
# as webcam frames, ACCEPT at 0.98 read 2.4-4.6 % fewer dice right and, of all three sets,
# one fewer wrong; at 0.9 it read 1.4-2.7 % more right and none more wrong, but five more
# wrong on all 250 photos at full size, and on 126 real frames with no dice it read 35
# dice, against 12 at 0.95 and 5 at 0.98.)
# SUPPORT was 0.05. At 0.25, the 50 dev photos the network never saw have no die read
# wrong at 640 px (one before), one seen 55 degrees from overhead (two); all 250 photos as
# squeezed webcam frames, 7 (8), with as many read right; the 62 frames with no dice, 21
# dice (28). Two of the 250 photos' dice at full size are now asked about: a dark 3 whose
# centre pip is faint (the network: 0.72 a 2) and a 1 with a glint beside its pip (0.52 a
# 3). At 0.15, the wrong die at 55 degrees stayed, and 25 dice on the frames with no dice.
# Tried and not kept: the network looking at a view in its four quarter turns, its answer
# their geometric mean. All 250 dev photos as five kinds of 640x480 webcam frame, one
# look: 8,028 dice read right and 34 wrong -> 7,966 and 17, every view turned, at these
# bars; with ACCEPT at 0.85 and STEADY at 0.75 and the dice the pips read seen once, 8,224
# and 32 (one view of each at those bars: 8,261 and 87); the 50 held-out photos, every
# view turned, 1,649 and 4 -> 1,686 and 2. But those frames are warped overhead photos,
# which show no die's sides: at 0.85 and 0.75 the rendered trays seen at a slant read 6
# near sides as dice where the tests allow 1, and a dark keyboard 7 keys; with STEADY
# alone at 0.8, 2 near sides. The turns cost half again a real frame's reading time (40
# degrees: 99 -> 152 ms median). The near sides come in at the uncertain spots' lower bars
# (the gain is there too); at the blobs', a near side and 3 wrong where 2 are allowed; the
# leads' and whole faces' lower bars alone pass those tests but read 7,993 right and 22
# wrong.
ACCEPT = 0.95
AGREE = 0.8
SUPPORT = 0.25
OVERRULE = 0.9
# The most a die read as the face with one pip more than its pips show is shown as sure of,
# where the network is sure enough of that face to overrule the pips but not sure (under
# ``ACCEPT``): the players press once to accept it (the controller's default bar is 0.8).
FULLER_SHOWN = 0.75
# Where the pip reader found a die's body but could not read its face (a mark it took for
# no pip, pips in no face's layout), the network may also read the face by being nearly
# sure (STEADY) of one value in STEADY_VIEWS of its views around the spot: a face read alike
# from several centres and sizes is the die's, where one sure view may be a glint's or the
# marbling's. (Held-out dev photos as 640x480 webcam frames, JPEG 80: 346 -> 350 of 368
# dice read right squeezed, 340 -> 345 at 40 degrees, 331 -> 336 blurred by 0.6 px; at
# JPEG 95, 351 -> 354; none more read wrong on any set. Taking a mark for no pip, 0.85 in
# one view read 3 more wrong at 55 degrees and 2 more at JPEG 75; on spots of other sizes
# among the pips, three views read a blurred brown 3 with dark marbling as a 6.)
STEADY = 0.85
STEADY_VIEWS = 3
# A die so read, but at STEADY_SURE in fewer than STEADY_VIEWS views, is shown at most
# STEADY_SHOWN, for the players to accept with a press (the controller's default bar is
# 0.8). All 250 dev photos as 640x480 JPEG 80 frames, three looks, through a 53-degree
# webcam at 55 and 40 degrees, a 60-degree one at 40 and squeezed into 4:3: of the 197
# dice a look read so, 18 were wrong (of 39 read wrong in all, counted die by die from
# each look's readings), most as a face with one pip more (a glint or the marbling taken
# for a pip, on dark marbled dice), several shown at 0.85 or more. On the 200 photos the
# network learnt from, every such wrong read was under 0.9 in its third surest view.
# Shown so (``vision_accuracy.py``), the rolls the controller would take unasked with a
# die read wrong went 3 -> 2, 2 -> 1, 4 -> 2 and 1 -> 1 in those four views; every die
# read right before still is, and squeezed one read wrong fewer (4 -> 3); as many photos
# read whole. Dice read right at 0.8 or more, 1,496 -> 1,486 at 55 degrees and 1,601 ->
# 1,596 at 40 through the 60-degree webcam (die by die): a press each. The 50 photos held
# out read as before.
# Tried and not kept: STEADY at 0.9 (such dice not read): read right 1,638 -> 1,637,
# 1,706 -> 1,700, 1,714 -> 1,713 and 1,734 -> 1,732, wrong 15 -> 12, 10 -> 9, 11 -> 9 and
# 4 -> 2 (``vision_accuracy.py``); the 50 photos held out, 1,396 right either way, 6 -> 4
# wrong. But it lost far dice a guessed slant had read (dev photo 095854 through a
# 60-degree webcam at 40 degrees: 5 of 7 missed, where that read needs its nearly sure 3
# to be surer than the frame read as from overhead, ``dice._surer``), and a held-out
# steep frame's 5 read by two looks of three was no longer taken unasked. STEADY_VIEWS at
# 4: 1,636 right at 55 degrees and 15 wrong (die by die), but two dev-photo tests' dice lost.
STEADY_SURE = 0.9
STEADY_SHOWN = 0.75
# A lone mark centred on a die's body among marks the pips took for none (the spots of
# ``second_opinion``'s ``turned`` reasons: ``reasons.LOGO_REASON``) is on the dev photos
# most often the middle pip of a 3 or a 5 whose other pips are faint (red pips on dark
# marbled plastic), seldom a logo. Where the network is not sure of a face there at ACCEPT
# or STEADY, it reads the spot's views again in their four quarter turns
# (``FaceNet.crop_probabilities``): a face it reads alike in them is taken at these bars,
# its die shown at most TURNED_SHOWN, for the players to accept with a press (the
# controller's default bar is 0.8). (All 250 dev photos as 640x480 webcam frames, JPEG 80,
# three looks, seen 40 and 55 degrees from overhead through a 53-degree webcam, 40 through
# a 60-degree one, and squeezed into 4:3: 6,709 -> 6,750 dice read right, 41 wrong either
# way, those shown at 0.8 or more 22 -> 21 (the one more read where no die lies, a pen's
# tip read as a 3, is asked about); the 50 photos the network never saw, 1,380 -> 1,387
# and 6 -> 5. At these bars without the turns, those 50: 1,384 and 7.)
# Tried and not kept: the turned reading in place of the one as it looks (the network not
# sure turned does not read the die): 6,744 and 39 on all 250; every place's views turned
# so, at ACCEPT and STEADY, 1,374 and 1 on the 50; at these bars for the logo spots and for
# pips that showed a value, 6,745 and 23 on all 250, and for every place, 6,811 and 36.
# But turned, a rendered tray's slant was chosen otherwise and a near side read as a die;
# at these bars, a lone rendered die seen at a slant had its near side asked about, and the
# spots of other reasons read near sides as dice (5 of 120 rendered steep dice read wrong,
# where 1 is allowed) and a dark keyboard's keys (7 in 10 frames): seen from overhead, as
# the dev photos are, no die's sides show.
TURNED_ACCEPT = 0.85
TURNED_STEADY = 0.75
TURNED_SHOWN = 0.75
# A place nothing but a blob speaks for is looked at all round only where one of its
# die-sized views shows the network a face at least this likely (``_screened``). (Dev
# frames at 40, 55 degrees and squeezed, 375 of them, and 40 rendered trays: of 702 such
# places, the 78 where two views reached ACCEPT all showed one at 0.75 or more; 125 of the
# other 624 reached 0.5.) Pips with no die body around them are asked about only where the
# network sees a pip face around them at least this likely, too (``second_opinion``).
# (Every other dev photo, one look, as 640x480 frames squeezed and through a 60-degree
# webcam at 40 degrees, at 1000 px, and as 1600x1200 phone photos 35 degrees from
# overhead: the 6 such spots on dice read nowhere else were seen at 0.83 or more, the 158
# where no die lies at 0.59 at most, most of them on a game box's printed rim. All 250
# photos in those four views and two more, a 53-degree webcam at 55 degrees and a soft one
# at 40 (blur 0.8 px), the phone and 1000 px views pooling three looks as ``companion dice
# read`` does: uncertain spots where no die lies 438 -> 50, photos read whole (every die
# right, nothing asked) 867 -> 941 of 1,500; 3 more dice read right, none fewer, none
# more wrong.)
SCREEN = 0.5
# What is reported at a candidate place (a blob, ``second_opinion``) where the network saw
# a face in screening but reads none.
UNREAD_REASON = "die-like, but its face cannot be read"
# The faces that hold every pip of a face and more: where the network reads one of these at
# AGREE, the pip reader more likely missed a pip (to glare, to the JPEG) than saw one more;
# and where a check doubted the pips' face, the network may read one of these instead.
# And a 2 for a 1: a lone pip is a 1's by lying near its body's middle (within 0.2 of a
# side, ``faces``), which a body measured with a side face or a shadow misplaces, and one
# pip of a 2 whose other the pips missed lies near it too (a 2's red pips on dark grey
# plastic, one lost in its glint: the network read a 2 at 0.99 in 10 of 15 views). The
# network must be sure of it (``ACCEPT``), not just sure enough to overrule the pips: that
# is no pip more on the 1's face, and a 1 whose glint beside its pip looked like another
# read as a 2 at 0.9-0.95. (All 250 dev photos as 640x480 webcam frames, JPEG 80, three
# looks: read right 1,703 -> 1,704 of 1,794 through a 60-degree webcam at 40 degrees,
# 1,628 -> 1,630 through a 53-degree one at 55 degrees; no more read wrong there, nor
# squeezed into 4:3; with OVERRULE too, 1,631 at 55 degrees, and squeezed, that 1 was
# read as a 2.)
_FULLER = {1: (2, 3, 5), 2: (3, 4, 5, 6), 3: (5,), 4: (5, 6)}
# Of those, the face with one pip more on the pips' own face, its middle one (glare takes a
# 2's or a 4's middle pip): read where the network is sure enough to overrule the pips.
_MIDDLE_PIP_MORE = {2: 3, 4: 5}
# A die's body measured this many times bigger or smaller than the others' is another die.
DIE_SIZE_SPREAD = 1.5


def second_opinion(img: np.ndarray, reading, candidates=(), beside=(), net: FaceNet | None = None,
                   look_above: Collection[str] = (), bodiless: Collection[str] = (),
                   confirm_only: Collection[Uncertain] = (), conflicting: Collection[str] = (),
                   round_bodies: Collection[str] = (), turned: Collection[str] = ()):
    """``reading`` (a DiceReading of ``img``, in its pixels) checked by the network:

    - a die the pip reader read stays only if the network is not sure of another value
      (``OVERRULE``), does not read, at ``AGREE``, a face that holds its pips and more
      (``_FULLER``: a pip the reader missed), and gives its value some support
      (``SUPPORT``); else it becomes uncertain -- unless the network is sure (``ACCEPT``)
      of that fuller face, or, where it holds one pip more, sure enough to overrule the
      pips (``OVERRULE``): then the die is that face, as an uncertain spot's pips are
      completed below (a 2 whose middle pip glare took is the 3 the network sees), shown
      to the players to accept in the second case (``FULLER_SHOWN``). A die that stands
      is shown no surer than either reader is of it; but where the network reads its
      value at ``AGREE``, as sure as the network alone is shown, whatever the pips
      doubted (``_agreed_confidence``);
    - an uncertain spot where the pips showed a value (its ``hint``: the pips' layout read,
      but a check doubted the die, e.g. a blur or faint pips) becomes a die only if the
      network, looking at the pips' middle, reads that very value at ``AGREE``; or if,
      looking on and beside them (``_BESIDE``), it is sure (``ACCEPT``) of a face that
      holds those pips and more (``_FULLER``: the pips found were some of a face's, the
      others missed, as the hint of 2 pips where a 6 lies). A face that does not hold
      them means the two readers disagree: the spot stays uncertain. Where the check found
      no die around the pips (their reason is in ``bodiless``), the pips are no evidence of
      a die: the network must read their value at ``ACCEPT``, as sure as it is alone;
    - any other uncertain spot becomes a die only when the network is sure (``ACCEPT``) of
      a value somewhere on it, or, where a die's body was found there (its reason not in
      ``bodiless``) and the pip reader's own evidence does not conflict (its reason not in
      ``conflicting``: glare where the face has no pip fools the network too, and a body
      that may be two dice's shows it the neighbour's face), nearly sure (``STEADY``) of
      that value in ``STEADY_VIEWS`` views (shown for the players to accept unless
      ``STEADY_SURE`` in as many: ``STEADY_SHOWN``). The spot's position is only roughly the
      face's centre (it may be the middle of the pips that did link), so the network
      looks at a few centres and sizes around it and keeps its surest view (it was taught
      that a view off a face's centre is no face), but never as a value the pips there
      rule out (``Uncertain.rules_out``). Where the pips found are part of one
      standard face whose other pips were missed, or a lone pip centred on its die is a 1
      but for the marks around it (``Uncertain.whole``), the network reading that face's
      value at its centre at ``AGREE`` makes it a die too, unless the two ways read
      different values. A lone pip off its body's centre, or not round, with something
      opposite it may be one pip of a 2 (its 1 ruled out), or a 1 whose body was misjudged
      (a neighbour's edge joined to it, marbling that left part of it out or ran into the
      pip): it is a 1 only where the network reads a 1 at ``ACCEPT`` in every view centred
      on the pip;
    - ``candidates`` [(x, y)], places where nothing was reported but a die may lie (a
      blob), and ``beside``, such places beside a die reported (a blob's part off that
      die, where another die may lean on it; only roughly that die's centre, they are
      looked at further round: ``_AROUND_WIDE``), and the reading's ``leads`` (lone round
      spots on no die-shaped body: a white 1 on a pale tray shows no more) add a die only
      where the network reads its value at ``ACCEPT`` in two views at least
      (``_Spot.views``). A candidate is looked at all round only where
      a die-sized view shows a face (``_screened``); one so looked at and not read, a die
      or more from every die and spot reported, is uncertain (``UNREAD_REASON``): a die
      blurred or touching others, whose pips were never found, is asked about, not left
      out. (All 250 dev photos as 640x480 frames, one look: of the dice reported nowhere,
      11 of 26 are now asked about from overhead, 7 of 26 at 40 degrees from overhead, 19
      of 92 at 55, 26 of 83 at 40 blurred by 1 px; none fewer read right, and 4 more
      spots where no die lies in the 1,000 frames.) Otherwise a candidate or a lead adds
      nothing (it is not evidence of a die).
    Nothing becomes a die where a die was read, or disputed, already; and an uncertain
    spot on a die read (within half a side of it), around which the network is sure
    (``ACCEPT``) of that die's very face, is that die seen again (more of its pips, its
    outline): it is dropped, not asked about. So is a spot of pips with no die body around
    them (its reason in ``bodiless``) around which the network sees no pip face even at
    ``SCREEN``: nothing die-like is there (the print on a game box's rim).
    Each uncertain spot that stays carries the most the network saw of any pip face around
    it (``pip_face``).
    ``look_above``: the reasons of spots placed at a die's outline's centre, which in a
    frame stretched back from a camera tilted down at the tray lies below the top face, the
    near sides (pips and all) taking up the outline's lower part: around those the network
    looks no lower. ``confirm_only``: the uncertain spots whose pips' value the network
    may confirm but not complete with a fuller face: where the dice's near sides show (a
    frame stretched back from a slant), pips with no die body found around them, just
    below another die, may be on its side, which the network would read as the whole
    face it is (``slant.possible_sides``). ``round_bodies``: the reasons of spots whose
    pips lie on a round body, likelier a coin's marks than a die's pips: where they showed
    no value, the network must be sure of one in two views, as at a blob (one view off a
    tails coin's centre, its ring of dots cut by the crop, read a 6 at 0.96: four coins of
    540 in 180 rendered trays were read as dice so, none since; the dev photos read as
    before). ``turned``: the reasons of spots whose views the network reads in four
    quarter turns, a face read alike in them taken at lower bars (``TURNED_ACCEPT``).
    Without a die size to crop by (no die read, no calibration), the reading is returned as is.
    """
    if not reading.die_sizes or not (reading.dice or reading.uncertain or candidates or beside or reading.leads):
        return reading
    net = net or FaceNet.shared()
    if net is None:
        return reading
    side = reading.die_side
    # Each die read stands, or becomes disputed, where it is: nothing more to read there.
    taken = [(d.x, d.y) for d in reading.dice]
    # Where the pips showed a value, their middle is the face's centre if that value is right;
    # a fuller face's centre may lie beside it (two pips of a 6 down one side).
    spots = []
    for u in reading.uncertain:
        fuller = () if u in confirm_only else _FULLER.get(u.hint, ())
        pattern = (_BESIDE if fuller else _CENTRED) if u.hint is not None \
            else _AROUND_ABOVE if u.reason in look_above else _AROUND
        body = u.reason not in bodiless
        spots.append(_Spot(u.x, u.y, u.hint, AGREE if body else ACCEPT, pattern, fuller,
                           views=2 if u.reason in round_bodies and u.hint is None else 1,
                           steady=u.hint is None and body and u.reason not in conflicting,
                           turned=u.reason in turned))
    # Where nothing but the network speaks for a die, one view may be fooled: a crop
    # centred on one pip of a 2 whose pips did not link can look like a 1, and one shifted
    # onto a die beside the place can see that die's face. Two views must agree.
    screened: dict[tuple[float, float, float], np.ndarray] = {}   # (its views, not asked again)
    around = {**{p: _AROUND for p in candidates}, **{p: _AROUND_WIDE for p in beside}}   # (each place's views)
    places = _screened(net, img, list(around), side, screened)
    spots += [_Spot(x, y, None, ACCEPT, around[x, y], views=2) for x, y in places]
    looked_at = range(len(reading.uncertain), len(spots))   # (the candidates screened in)
    # A lone spot is a 1's centre if anything: the network looks there at a few sizes only.
    # (Also beside a place a blob gave: that place is only roughly a die's centre, and its
    # views may miss the 1 whose pip the spot is, as a lead they read it; a die both read
    # is read once, below. A dark 1 in a blob of three dice, a gold 1 touching a black 3
    # seen steeply, the place's middle above it: all 250 dev photos, three looks, read
    # right 1,705 -> 1,706 through a 60-degree webcam at 40 degrees, 1,713 -> 1,714
    # through a 53-degree one, 1,633 -> 1,634 at 55; squeezed and as the phone took them,
    # as before; none more wrong. Rendered set 1000: dice as before, one place more asked
    # about where no die lies.)
    looked = [*taken]
    for x, y in reading.leads:
        if all(math.hypot(x - tx, y - ty) > 0.75 * side for tx, ty in looked):
            spots.append(_Spot(x, y, None, ACCEPT, _CENTRED, views=2))
            looked.append((x, y))
    # The whole faces some uncertain spots' pips are part of, each looked at as a die's centre.
    owners = [k for k, u in enumerate(reading.uncertain) if u.whole is not None]
    # A whole face whose value the spot's own pips rule out (a 1 on a lone pip off its body's
    # centre or not round, something opposite it) must be read at ACCEPT in every view
    # centred on it: a view of a 2 centred on one of its pips takes in the other at the
    # larger sizes. (The held-out dev photos: one die more read right in 6 of the 13 views
    # measured, none wrong.)
    wholes = []
    for k in owners:
        value, x, y = reading.uncertain[k].whole
        strict = value in reading.uncertain[k].rules_out
        wholes.append(_Spot(x, y, value, ACCEPT if strict else AGREE, _CENTRED,
                            views=len(_CENTRED) if strict else 1))
    # Every view the network is asked about in this frame, in one call.
    views = [(d.x, d.y, s) for d, s in zip(reading.dice, _view_sides(reading.dice, side))] \
        + _views(spots + wholes, side)
    asked = [v for v in views if v not in screened]
    screened.update(zip(asked, net.crop_probabilities(img, asked)))
    probs = np.array([screened[v] for v in views], np.float32).reshape(-1, NOT_A_FACE + 1)
    n = len(reading.dice)
    out = DiceReading(die_sizes=reading.die_sizes)
    for d, p in zip(reading.dice, probs[:n]):
        best = int(np.argmax(p))
        # (Held-out dev photos: one die more read right in 6 of the 13 views measured, none
        # more wrong. One pip more down to OVERRULE: all 250 dev photos as 640x480 frames,
        # three looks, 1-3 more read right in four of seven views, none more wrong; any
        # fuller face so read a 6 as a 5 in one look.)
        value = best + 1
        if value in _FULLER.get(d.value, ()) and (p[best] >= ACCEPT or p[best] > OVERRULE
                                                  and _MIDDLE_PIP_MORE.get(d.value) == value):
            confidence = round(_read_confidence(float(p[best])), 3)
            out.dice.append(Die(value, d.x, d.y, confidence if p[best] >= ACCEPT
                                else min(confidence, FULLER_SHOWN)))
        elif best != d.value - 1 and p[best] > OVERRULE:
            seen = "no top face" if best == NOT_A_FACE else f"a {best + 1}"
            out.uncertain.append(Uncertain(d.x, d.y, f"pips say {d.value}, the face looks like {seen}"))
        elif any(p[w - 1] >= AGREE for w in _FULLER.get(d.value, ())):
            fuller = max(_FULLER[d.value], key=lambda w: p[w - 1])
            out.uncertain.append(Uncertain(d.x, d.y, f"pips say {d.value}, the face looks like a {fuller} "
                                                     "(a pip missed?)"))
        elif p[d.value - 1] < SUPPORT:
            out.uncertain.append(Uncertain(d.x, d.y, f"pips say {d.value}, the face does not look it"))
        elif best not in (d.value - 1, NOT_A_FACE) and p[best] > p[d.value - 1]:
            # The network short of overruling, but giving another face more than the pips':
            # the two readers disagree. (All 250 dev photos as 640x480 frames, one look, 40
            # and 55 degrees from overhead: of the dice the pips read, 10 and 22 read wrong
            # were such, and none read right; the steps above settled all but one of each, a
            # 1 whose glint the pips took for a 2's second pip, a 3 whose middle pip they
            # missed.)
            out.uncertain.append(Uncertain(d.x, d.y, f"pips say {d.value}, the face looks more like a {best + 1}"))
        else:
            # (the pips' own reading, their centres kept: they tell the slant, ``slant.layout_stretch``)
            out.dice.append(replace(d, confidence=_agreed_confidence(d.confidence, float(p[d.value - 1]))))
    faces = probs[n:, :NOT_A_FACE]
    # The most any pip face was seen around each uncertain spot (for a calibrated logo face).
    ends = np.cumsum([len(spot.pattern) for spot in spots[:len(reading.uncertain)]], dtype=int)
    seen = [float(faces[e - len(spot.pattern):e].max()) for e, spot in zip(ends, spots)]
    # Values the pips rule out at a spot are not read there (``Uncertain.rules_out``).
    ruled = None
    if any(u.rules_out for u in reading.uncertain):
        ruled = np.zeros(faces.shape, bool)
        for e, spot, u in zip(ends, spots, reading.uncertain):
            ruled[e - len(spot.pattern):e, [v - 1 for v in u.rules_out]] = True
        faces = np.where(ruled, np.float32(0.0), faces)
    turned = _TurnedViews(net, img, views[n:], probs[n:], ruled)
    found = _surest_views(spots + wholes, views[n:], faces, turned)
    # An uncertain spot whose pips are part of a whole face (``Uncertain.whole``) has a
    # second chance: the network reading that face's value at its centre (at ``AGREE``).
    # Two readings of one spot that differ leave it uncertain.
    completed = dict(zip(owners, found[len(spots):]))
    stays, unread = [], []
    for k, die in enumerate(found[:len(spots)]):
        other = completed.get(k)
        if other is not None:
            die = other if die is None or die.value == other.value else None
        if die is not None and not any(math.hypot(die.x - tx, die.y - ty) < 0.75 * side
                                       for tx, ty in taken):
            out.dice.append(die)
            taken.append((die.x, die.y))
        elif k < len(reading.uncertain):
            stays.append(k)
        elif k in looked_at:
            unread.append(k)
    # What the network is sure of around each spot left, whatever its pips showed: where
    # that is the face of a die read there, the spot is that die again.
    again = _surest_views([spot._replace(hint=None) for spot in spots[:len(reading.uncertain)]],
                          views[n:], faces, turned) if stays else []
    for k in stays:
        if reading.uncertain[k].reason in bodiless and seen[k] < SCREEN:
            continue   # (no die body and no face seen: nothing die-like to ask about)
        face = again[k]
        if face is None or not any(d.value == face.value and math.hypot(d.x - face.x, d.y - face.y) < 0.5 * side
                                   for d in out.dice):
            out.uncertain.append(replace(reading.uncertain[k], pip_face=seen[k]))
    # (Closer to a die read, the place is likelier that die's edge or side, or the gap
    # between two dice read, than a die of its own.)
    stops = np.cumsum([len(spot.pattern) for spot in spots], dtype=int)
    for k in unread:
        spot = spots[k]
        if all(math.hypot(spot.x - t.x, spot.y - t.y) >= side for t in [*out.dice, *out.uncertain]):
            out.uncertain.append(Uncertain(spot.x, spot.y, UNREAD_REASON,
                                           pip_face=float(faces[stops[k] - len(spot.pattern):stops[k]].max())))
    return out


# Where the network looks around a spot, as (x offset, y offset, crop size) in die sides:
# around an uncertain spot or a blob, which are only roughly a face's centre, five centres
# at three sizes; at a lone spot, which is a centre if anything, three sizes; at pips that
# may be some of a fuller face's, three sizes on them and the die's size beside them (on
# the dev frames it read what all fifteen views read but one die of 1795, in under half
# the time).
_SIZES = (0.8, 1.0, 1.2)
_AROUND = [(dx, dy, k) for k in _SIZES for dx, dy in [(0.0, 0.0), (-0.3, 0.0), (0.3, 0.0), (0.0, -0.3), (0.0, 0.3)]]
_CENTRED = [(0.0, 0.0, k) for k in _SIZES]
# ... and around a place beside a die reported (``second_opinion``'s ``beside``: the middle
# of a blob's part off that die, measured without that die's disc and near sides, which
# take some of the die beside it too), also half a side out along each axis and 0.35 of a
# side along each diagonal, at the die's size. (A blue 1 with a dark red pip touching a
# green 4, through a 60-degree webcam 40 degrees from overhead: the place lay half a side
# off its centre, where the network had read nothing at ACCEPT in two views. All 250 dev
# photos as 640x480 webcam frames, JPEG 80, three looks, through that webcam: read right
# 1,700 -> 1,703 of 1,794, three 1s touching another die that were asked about; through
# a 53-degree one at 55 degrees a 1 missed is asked about; at 40 degrees, squeezed into
# 4:3 and as phone photos, as before; no more read wrong. Rendered trays, set 1000: as
# before, one place fewer asked about where no die lies. Looked at so round every blob
# place, a die cut off by the frame's edge was read as the 2 its half showed.)
_AROUND_WIDE = _AROUND + [(dx, dy, 1.0) for dx, dy in [(-0.5, 0.0), (0.5, 0.0), (0.0, -0.5), (0.0, 0.5),
                                                       (-0.35, -0.35), (0.35, -0.35), (-0.35, 0.35), (0.35, 0.35)]]
_AROUND_ABOVE = [(dx, dy, k) for dx, dy, k in _AROUND if dy <= 0]
_BESIDE = _CENTRED + [(dx, dy, 1.0) for dx, dy in [(-0.3, 0.0), (0.3, 0.0), (0.0, -0.3), (0.0, 0.3)]]
# The die-sized views of ``_AROUND``: where ``_screened`` looks first.
_RING = [v for v in _AROUND if v[2] == 1.0]


def _screened(net: FaceNet, img: np.ndarray, places, side: float, seen: dict) -> list[tuple[float, float]]:
    """Of ``places`` (``second_opinion``'s ``candidates``), those where the network sees some
    face (``SCREEN``) in one of the die-sized views of ``_AROUND``: only those are looked at
    at every size. Most such places are clutter a blob grid fell on (the print on a pencil,
    an eraser's edge), and on a desk they cost most of a frame's reading. ``seen`` gets
    each view looked at and its probabilities (as ``_views`` writes the view)."""
    if not len(places):
        return []
    ring = _views([_Spot(x, y, None, ACCEPT, _RING) for x, y in places], side)
    probs = net.crop_probabilities(img, ring)
    seen.update(zip(ring, probs))
    best = probs[:, :NOT_A_FACE].max(axis=1).reshape(len(places), -1).max(axis=1)
    return [p for p, b in zip(places, best) if b >= SCREEN]


def _view_sides(dice, side: float) -> list[float]:
    """How wide the network looks at each die read: the size the dice read share (the
    median of their bodies, else ``side``), or a die's own size where it is clearly another
    die (half again bigger or smaller: a big die rolled with small ones). A body's size is
    rough (shadows and side faces join it), so within that a die is taken to be the usual
    size; and print or clutter beside the dice, whose bodies are not read, does not pull
    the dice's size towards its own."""
    own = [d.side for d in dice if d.side]
    common = float(np.median(own)) if own else side
    return [d.side if d.side and not common / DIE_SIZE_SPREAD < d.side < common * DIE_SIZE_SPREAD else common
            for d in dice]


class _Spot(NamedTuple):
    """A place the network is asked about: ``hint``, the value the pips there showed (or
    None), read at ``bar`` in the views centred on it; ``pattern``, the views around
    (x, y) (``_AROUND``...); ``fuller``, the faces it may read instead, at ``ACCEPT``;
    ``views``, in how many views it must be sure of a value where there is no hint, or
    read the hint at ``bar`` in the views centred on it;
    ``steady``, whether being nearly sure of it in several views will do (``STEADY``);
    ``turned``, whether its views, not read at the bars above, are read in four quarter
    turns at ``TURNED_ACCEPT`` and ``TURNED_STEADY`` (``_surest_views``)."""
    x: float
    y: float
    hint: int | None
    bar: float
    pattern: list[tuple[float, float, float]]
    fuller: tuple[int, ...] = ()
    views: int = 1
    steady: bool = False
    turned: bool = False


def _views(spots: list[_Spot], side: float) -> list[tuple[float, float, float]]:
    """The views (x, y, die side) the network looks at for ``spots``."""
    return [(s.x + dx * side, s.y + dy * side, k * side) for s in spots for dx, dy, k in s.pattern]


class _TurnedViews:
    """The face probabilities of ``views`` (``probs``: as they look), each view read in its
    four quarter turns (``FaceNet.crop_probabilities``) when ``_surest_views`` first reads a
    spot by them: most ``turned`` spots are read, or not, by their views as they look, and
    a view read turned costs the network three views more. ``ruled``: where the values ruled
    out at the views are zeroed (None: nowhere). (All 250 dev photos through a 60-degree
    webcam at 40 degrees, one look: 67 -> 21 turned views a frame, 179 -> 132 views in all,
    where every view of a turned spot was read turned; the same readings.)"""

    def __init__(self, net: FaceNet, img: np.ndarray, views, probs: np.ndarray, ruled: np.ndarray | None):
        self.net, self.img, self.views, self.probs, self.ruled = net, img, views, probs, ruled
        self.read: dict[tuple[float, float, float], np.ndarray] = {}

    def faces(self, start: int, stop: int) -> np.ndarray:
        """The face probabilities of ``views[start:stop]``, each read turned."""
        new = {self.views[i]: i for i in range(start, stop) if self.views[i] not in self.read}
        if new:
            self.read.update(zip(new, self.net.crop_probabilities(self.img, list(new), turned=True,
                                                                  upright=self.probs[list(new.values())])))
        rows = np.array([self.read[v] for v in self.views[start:stop]], np.float32)[:, :NOT_A_FACE]
        return rows if self.ruled is None else np.where(self.ruled[start:stop], np.float32(0.0), rows)


def _read_confidence(p: float) -> float:
    """How sure a face the network reads, at probability ``p``, is shown (before any cap):
    0.82 at ``AGREE``, 0.88 at ``ACCEPT``, 0.9 at most."""
    return 0.5 + 0.4 * p


def _agreed_confidence(pips: float, network: float) -> float:
    """How sure a face is shown that the pip reader read at ``pips`` and the network gives
    that value ``network``: no surer than either, but where the network reads it at
    ``AGREE`` (two readers that fail differently, agreeing), as sure as the network alone is
    shown for a face it reads (``_read_confidence``), whatever its pips' own doubts.

    Those doubts are a face whose die body was not outlined (a white die on a white tray:
    its pips are read at 0.8 of their sureness) and pips measuring oblong (a slant not
    quite undone), which left faces both readers read alike under the controller's bar of
    0.8, for the players to press to accept. All 250 dev photos as 640x480 JPEG 80 frames,
    three looks (``vision_accuracy.py``), rolls taken unasked with every die right (the
    players press nothing) and with a die read wrong, before -> after: through a 53-degree
    webcam at 40 degrees 133 -> 165 and 2 either way; at 55, 113 -> 143 and 2; through a
    60-degree webcam at 40, 133 -> 166 and 1 -> 2 (a black 4 whose glint the network alone
    reads as a 5's middle pip, at 0.88, its roll held before only by another die's doubt);
    squeezed into 4:3, 130 -> 163 and 1. A frame sure of every die is not read again at
    steeper slants (``dice._unsure``), so some looks read otherwise: dice read right and
    wrong as before, but one more right at 40 degrees and, squeezed, a 2 asked about now
    read as a 3 at 0.15 (by one look of five: the players are asked to accept it); and the
    held-out frames at 40 degrees read in 45.9 -> 39.7 ms median on one core
    (``bench_vision.py``). Rendered trays at 40 and 55 degrees through a 60-degree webcam,
    three sets of 480 frames (``vision_renders.py``): 210 -> 237, 237 -> 250 and 235 -> 252
    frames taken unasked, one with a die read wrong in each, as before; 2 and 4 more dice
    read right in the first two, none more wrong nor where none lies."""
    shown = min(pips, 0.5 + 0.5 * network)
    if network >= AGREE:
        shown = max(shown, _read_confidence(network))
    return round(shown, 3)


def _surest_views(spots: list[_Spot], views, faces: np.ndarray, turned: _TurnedViews) -> list[Die | None]:
    """For each spot, given its ``views`` and the network's face probabilities ``faces``
    for them (in order): the die it reads there, if it is sure (``ACCEPT``) of its surest
    value in ``spot.views`` of the views (or, for a ``steady`` spot, nearly sure of it in
    ``STEADY_VIEWS``: its die shown at most ``STEADY_SHOWN`` unless ``STEADY_SURE`` in as
    many), else None. Where the pips showed a value (``hint``), that value is
    read in the views centred on them, at ``bar``; failing that, one of the ``fuller``
    faces anywhere, at ``ACCEPT``. A ``turned`` spot not so read is read likewise from
    ``turned`` (its views in four quarter turns) at ``TURNED_ACCEPT`` and
    ``TURNED_STEADY``, its die shown at most ``TURNED_SHOWN``."""
    out: list[Die | None] = []
    start = 0
    for spot in spots:
        p = faces[start:start + len(spot.pattern)]
        shown, at = 1.0, _read_at(spot, p, ACCEPT, STEADY_SURE)
        if at is None and spot.steady:
            shown, at = STEADY_SHOWN, _read_at(spot, p, ACCEPT, STEADY)
        if at is None and spot.turned:
            p = turned.faces(start, start + len(spot.pattern))
            shown, at = TURNED_SHOWN, _read_at(spot, p, TURNED_ACCEPT, TURNED_STEADY)
        if at is None:
            out.append(None)
        else:
            i, v = at
            vx, vy, _ = views[start + i]
            out.append(Die(v + 1, vx, vy, min(round(_read_confidence(float(p[i, v])), 3), shown)))
        start += len(spot.pattern)
    return out


def _read_at(spot: _Spot, p: np.ndarray, accept: float, steady: float) -> tuple[int, int] | None:
    """(view, face index) of the value ``_surest_views`` reads for ``spot`` from its views'
    face probabilities ``p``, at ``accept`` and ``steady``; None where it reads none."""
    i, v = (int(a) for a in np.unravel_index(int(np.argmax(p)), p.shape))
    if spot.hint is None:
        sure = np.count_nonzero(p[:, v] >= accept) >= spot.views or (
            spot.steady and np.count_nonzero(p[:, v] >= steady) >= STEADY_VIEWS)
        return (i, v) if sure else None
    # The network must read the pips' value where they put the face's centre, or a face
    # that holds them: two readers that disagree leave the die uncertain, however sure
    # either is.
    centred = [k for k, (dx, dy, _) in enumerate(spot.pattern) if dx == 0 and dy == 0]
    c, cv = (int(a) for a in np.unravel_index(int(np.argmax(p[centred])), (len(centred), p.shape[1])))
    if cv + 1 == spot.hint and np.count_nonzero(p[centred, cv] >= spot.bar) >= spot.views:
        return centred[c], cv
    return (i, v) if v + 1 in spot.fuller and p[i, v] >= accept else None
