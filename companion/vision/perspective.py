"""A camera near the tray sees its far dice smaller and flatter than its near ones: undoing that.

``slant`` undoes one squash for the whole frame, which is exact only for a camera far from
the tray behind a narrow lens. A webcam on a desk beside the tray, its lens 50-70 degrees
wide, sees the tray's far edge smaller and flatter than its near edge: 40 degrees from
overhead, a 53-degree lens makes a die at the top of its frame about 0.7 as wide as one at
the centre and one at the bottom 1.3 as wide, so one stretch leaves the far faces oblong
and the near ones tall.

``flattening`` gives the homography that sends the tray's vanishing line (its horizon) to
infinity: in the picture it makes, the tray is seen as from a camera far away at the same
slant (an affine view: Hartley and Zisserman's affine rectification), every die the size
and squash of one at the frame's centre, so that ``slant``'s one stretch fits them all.
Its pixels at the frame's centre are the frame's own (the map is the identity there to
first order): the dice sizes the reader measures in it are those of a die at the centre.

The horizon follows from the slant (the stretch measured) and the camera's field of view,
which a calibration gives (``Calibration.field_of_view``: a webcam's data sheet says it),
or else ``ASSUMED_FIELD_OF_VIEW``. One frame cannot tell it well: fitted to the widths of
the dice read against their rows, it read fewer dice right than a fixed 53 degrees did (a
few dice of a few sizes make a noisy line), and the pips' sizes against their rows say
nothing at all. A field of view taken too narrow corrects less than it could, one too wide
too much, which costs more; so the one assumed is narrower than most webcams' (50-70
degrees across) and phones' (about 65). Below, the dev photos as 640x480 frames, JPEG 80,
one look, every other photo (910 dice: ``vision_accuracy.py --tilt --fov``, and
``--read-fov`` for a field of view told), read right (and wrong) as they are / flattened as
for 40 / 45 / 50 degrees:

    camera                 35 degrees from overhead            40 degrees from overhead
    10 deg (far away)  864 (.33) 857 (.66) 861 (.44) 853 (.66)   848 (.33) 849 (.44) 846 (.33) 842 (.44)
    37 deg             832 (.44) 844 (.33) 846 (.44) 833 (.33)   834 (.44) 842 (.55) 841 (.55) 842 (.44)
    53 deg             821 (.44) 844 (.22) 829 (.44) 839 (.11)   807 (.77) 824 (.77) 826 (.66) 828 (.44)
    60 deg             815 (.55) 828 (.66) 831 (.66) 829 (.55)   790 (1.2) 806 (.66) 812 (.55) 806 (.33)
    67 deg             805 (.88) 829 (.77) 827 (.66) 825 (.55)   781 (1.3) 806 (.77) 810 (.77) 807 (.99)

(Sums over both slants: 8,197 read right as they are; 8,329, 8,329 and 8,304 flattened,
wrong 6.7, 5.8, 5.5 and 4.8 in all. This benchmark moves by about ten dice on a change
as small as 37 degrees for 36.9: it is the rows' sums and signs that choose. At 45 and 50
degrees from overhead, the five cameras together: 3,956 and 3,829 as they are; 4,068 /
4,077 / 4,061 and 3,920 / 3,935 / 3,942 for 40 / 45 / 50.) Told the
camera's own figure instead, at 40 degrees: 53 degrees wide 832 (.44), 60 wide 810 (.33),
67 wide 818 (.88); a wide-angle webcam, 90 degrees, reads 697 (1.2) as it is, 745 (2.0)
as for 45, 760 (1.6) told. All 250 photos through the 53-degree webcam at 40 degrees,
three looks as ``companion dice read`` takes them: 1,658 read right (0.89 % wrong) as they
are, 1,680 (0.61 %) as for 45 degrees, 1,673 (0.50 %) told (since the looks after the
first are enlarged where the dice are small, ``pooling.read_still``: 1,686 (0.78 %) as for
45). Exactly un-warped, the 53-degree camera reads 839 at 40 degrees: the flattening gets
most of it.
Beyond ``MAX_TILT`` the slant is taken as ``MAX_TILT``'s: the horizon then comes near the
frame's top, and a field of view a little too wide would blow the far dice up past reading
(a first version, which read each frame twice, at 55 degrees with a 53-degree camera told
its field of view: 742 and 754 read right without that limit, 750 and 764 with it).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .slant import layout_stretch, slant_degrees, square_face

# Only frames at least this much stretched back (30 degrees from overhead) are flattened:
# nearer overhead the far dice differ little from the near ones (30 degrees, a 53-degree
# camera, the first version: 843 read right as they were, 841 flattened).
MIN_STRETCH = 1.15
# The slant's horizon is placed as for at most this many degrees from overhead.
MAX_TILT = 45.0
# A camera seeing this many degrees across or fewer is far from the tray, its frames read as
# they are: at ``MAX_TILT`` it sees the top and bottom rows of a 4:3 frame at most 10 % apart
# in scale, where resampling the frame would cost more than it gains (22 % for a 53-degree
# lens 30 degrees from overhead gained nothing).
FAR_LENS = 15.0
# The field of view taken where none is given (degrees across the frame's longest side).
ASSUMED_FIELD_OF_VIEW = 45.0
# Rows whose dice the flattening would enlarge more than this are left out of its picture:
# rows that near the horizon hold dice a few pixels wide, at the far end of a desk.
MAX_ZOOM = 2.0
# ``flat_layout_stretch`` carries the faces as for the slant it last found, at most this
# many times, until the stretch moves less than ``FLAT_SETTLED`` (about 0.1 degree at 40):
# faces all in a 53-degree webcam's near rows or all in its far ones, 24 or 50 degrees as
# they stand, settle at 40.0 in 7 or 8.
FLAT_ROUNDS = 12
FLAT_SETTLED = 0.002


def focal_length(field_of_view: float) -> float:
    """A camera's focal length in its frame's longest sides, from its field of view across
    them in degrees (53.1: 1.0)."""
    return 0.5 / math.tan(math.radians(field_of_view) / 2)


def depth_rate(tilt: float, field_of_view: float, long_side: float) -> float:
    """How fast a thing's scale grows down the frame of a camera ``tilt`` radians from
    overhead, seeing ``field_of_view`` degrees across its ``long_side`` pixels: k, for a
    scale of 1 + k y at y pixels below the frame's centre (0 at the tray's horizon)."""
    return math.tan(tilt) / (focal_length(field_of_view) * long_side)


def seen_steeply(stretch) -> bool:
    """Whether a frame read at ``stretch`` ([fx, fy], or None) is flattened: squashed along
    y (a camera tilted down at the tray; squashed along x, turned sideways, its far side is
    not known), ``MIN_STRETCH`` or more."""
    return stretch is not None and stretch[0] == 1.0 and stretch[1] >= MIN_STRETCH


def flattening(shape: tuple[int, ...], centre: tuple[float, float], long_side: float,
               stretch: tuple[float, float] | None, field_of_view: float | None = None
               ) -> tuple[np.ndarray, tuple[int, int]] | None:
    """The homography that flattens an image of ``shape`` (a part of a camera's frame
    whose centre, the camera's axis, lies at ``centre`` in the image's pixels, and whose
    longest side is ``long_side`` of them, seen ``field_of_view`` degrees wide: None,
    ``ASSUMED_FIELD_OF_VIEW``), read at ``stretch`` (``slant``: a camera tilted down at the
    tray squashes along y), and the size of the picture it makes; None where it need not be
    flattened (from near overhead; squashed along x, a camera turned sideways, whose far
    side is not known; or far from the tray, behind a narrow lens)."""
    if field_of_view is None:
        field_of_view = ASSUMED_FIELD_OF_VIEW
    if not seen_steeply(stretch) or field_of_view <= FAR_LENS:
        return None
    tilt = math.radians(min(slant_degrees(stretch), MAX_TILT))
    k = depth_rate(tilt, field_of_view, long_side)
    cx, cy = centre
    h, w = shape[:2]
    top = max(0.0, cy + (1.0 / MAX_ZOOM - 1.0) / k)
    if top >= h:
        return None   # (all of the image beyond the horizon's reach: nothing left to read)
    m = _as_from_afar(k, centre)
    corners = cv2.perspectiveTransform(np.float32([[[0, top], [w, top], [w, h], [0, h]]]), m)[0]
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    m = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]]) @ m
    return m, (int(math.ceil(x1 - x0)), int(math.ceil(y1 - y0)))


def _as_from_afar(k: float, centre: tuple[float, float]) -> np.ndarray:
    """The homography that carries a point of a frame whose scale grows as 1 + k y at y
    pixels below ``centre`` (``depth_rate``) to where a camera far away at the same slant
    would see it, ``centre`` at the origin; its third coordinate is that scale."""
    cx, cy = centre
    return np.array([[1.0, 0.0, -cx], [0.0, 1.0, -cy], [0.0, k, 1.0 - k * cy]])


def flat_layout_stretch(faces, frame_size: tuple[int, int], field_of_view: float | None = None
                        ) -> tuple[float, float] | None:
    """The squash ``slant.layout_stretch`` finds in ``faces`` (value and pip centres, in the
    pixels of a frame of ``frame_size`` [w, h], seen ``field_of_view`` degrees wide: None,
    ``ASSUMED_FIELD_OF_VIEW``) as a face at the frame's centre shows it: the camera's own
    slant. A webcam near the tray squashes a face in its far rows more than one at its
    centre, and one in its near rows less, so the faces' own squash says a camera steeper
    than it is while the dice lie far off, and shallower while they lie near (40 degrees
    from overhead, 53 degrees wide, a quarter of the frame from its top and its bottom:
    about 50 and 29.5). Each face's pips are carried where ``flattening`` for the slant
    found would carry them, where every face is squashed as at the centre (here without
    ``MAX_TILT``'s limit: a measure, not a picture to read), and measured again, until the
    slant holds. A camera far from the tray (``FAR_LENS``) is taken as its faces show it."""
    square = [(value, pips) for value, pips in faces if square_face(value, pips)]
    stretch = layout_stretch(square)
    if field_of_view is None:
        field_of_view = ASSUMED_FIELD_OF_VIEW
    if field_of_view <= FAR_LENS:
        return stretch
    w, h = frame_size
    # (each face's pips, as points for a homography to carry)
    points = [(value, np.c_[np.asarray(pips, np.float64), np.ones(len(pips))]) for value, pips in square]
    for _ in range(FLAT_ROUNDS):
        # (any squash along y: a face near the camera is squashed less than one at the
        # centre, so a slant taken too shallow to flatten a frame for may still be one)
        if stretch is None or stretch[0] != 1.0 or stretch[1] <= 1.0:
            break
        m = _as_from_afar(depth_rate(math.radians(slant_degrees(stretch)), field_of_view, max(w, h)), (w / 2, h / 2))
        flat = []
        for value, p in points:
            seen = p @ m.T   # (its third coordinate: the scale there)
            # (a face so near the horizon that flattening would leave it out)
            if seen[:, 2].min() >= 1.0 / MAX_ZOOM:
                flat.append((value, seen[:, :2] / seen[:, 2:]))
        again = layout_stretch(flat)
        if again is None:
            break
        stretch, moved = again, max(abs(a - b) for a, b in zip(again, stretch))
        if moved < FLAT_SETTLED:
            break
    return stretch


def mapped(m: np.ndarray, x: float, y: float) -> tuple[float, float]:
    """Where homography ``m`` carries the point (x, y)."""
    px, py, pw = m @ (x, y, 1.0)
    return float(px / pw), float(py / pw)


def flattened(img: np.ndarray, m: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``img`` flattened by ``m`` into a picture of ``size`` (w, h). Beyond the frame's
    edges its edge pixels run on: something cut by the edge still runs into the picture's
    (a die half out of the frame stays uncertain)."""
    return cv2.warpPerspective(img, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def unflattening(m: np.ndarray):
    """Where a point of the flattened picture lies in the image, and how much larger a
    thing there is in the image than in the picture: ``f(x, y) -> ((x, y), scale)``."""
    back = np.linalg.inv(m)

    def f(x: float, y: float) -> tuple[tuple[float, float], float]:
        px, py, pw = back @ (x, y, 1.0)
        # (pw is the picture's scale at the image's row y, 1 / (1 + k y))
        return (float(px / pw), float(py / pw)), float(1.0 / pw)

    return f
