"""Flattening a camera's perspective (``companion.vision.perspective``), against a pinhole
camera's view of a photo (``photo_views.perspective``)."""

import math

import numpy as np
import pytest

from companion.vision.perspective import (ASSUMED_FIELD_OF_VIEW, flat_layout_stretch, flattening, focal_length, mapped,
                                         unflattening)
from companion.vision.photo_views import perspective
from companion.vision.slant import layout_stretch, slant_degrees
from vision_scenes import accuracy_benchmark


def _crosses_seen(tilt: float, field_of_view: float):
    """A grid of die-sized crosses on a 1000 px photo (each a 40 px stroke across and one
    down), as the ends of their strokes (left, right, top, bottom) in a 640x480 frame seen
    ``tilt`` degrees from overhead by a camera ``field_of_view`` degrees wide."""
    photo = np.zeros((1000, 1000, 3), np.uint8)
    ends = [(-20, 0), (20, 0), (0, -20), (0, 20)]
    # (a point as a label of no size: its centre is mapped as it is; the value numbers it)
    points = [(4 * n + e, x + dx, y + dy, 0.0, 0.0) for n, (x, y) in
              enumerate((x, y) for x in range(100, 1000, 100) for y in range(100, 1000, 100))
              for e, (dx, dy) in enumerate(ends)]
    _, kept = perspective(photo, points, "640x480", tilt, focal_length(field_of_view))
    seen = {v: (x, y) for v, x, y, _, _ in kept}
    return [[seen[4 * n + e] for e in range(4)] for n in range(81) if all(4 * n + e in seen for e in range(4))]


@pytest.mark.parametrize("tilt", [35.0, 45.0])
def test_flattened_every_die_is_as_wide_and_as_squashed_as_one_at_the_centre(tilt):
    # A webcam 53 degrees wide sees the far crosses much narrower than the near ones. The
    # flattening, knowing its field of view and its slant (as a stretch), leaves every cross
    # as wide as one at the frame's centre and squashed as much: the view of a far camera
    # at that slant, which the reader's one stretch fits.
    crosses = _crosses_seen(tilt, 53.13)
    widths = [math.dist(left, right) for left, right, _, _ in crosses]
    assert len(crosses) > 30 and max(widths) / min(widths) > 1.4
    m, (pw, ph) = flattening((480, 640, 3), (320.0, 240.0), 640, (1.0, 1 / math.cos(math.radians(tilt))), 53.13)

    def flat(p):
        return mapped(m, *p)

    centre = min(crosses, key=lambda c: math.dist(np.mean(c, axis=0), (320, 240)))
    size = math.dist(flat(centre[0]), flat(centre[1]))
    for left, right, top, bottom in crosses:
        across, down = math.dist(flat(left), flat(right)), math.dist(flat(top), flat(bottom))
        assert across == pytest.approx(size, rel=0.03)
        assert down / across == pytest.approx(math.cos(math.radians(tilt)), rel=0.03)
    # and back: each point of the picture to its place in the frame, things there larger by
    # the scale it gives
    back = unflattening(m)
    for left, right, _, _ in crosses:
        (x, y), scale = back(*flat(left))
        assert (x, y) == pytest.approx(left, abs=1e-6)
        assert math.dist(flat(left), flat(right)) * scale == pytest.approx(math.dist(left, right), rel=0.02)
    assert 640 < pw <= 2 * 640 and 0 < ph <= 2 * 480


def test_a_frame_from_near_overhead_sideways_or_from_a_far_camera_is_not_flattened():
    shape, centre = (480, 640, 3), (320.0, 240.0)
    assert flattening(shape, centre, 640, (1.0, 1.1), 53.13) is None      # 25 degrees
    assert flattening(shape, centre, 640, (1.3, 1.0), 53.13) is None      # squashed along x
    assert flattening(shape, centre, 640, None, 53.13) is None            # no slant measured
    # behind a lens 15 degrees wide or less (``FAR_LENS``), at any slant
    assert flattening(shape, centre, 640, (1.0, 1 / math.cos(math.radians(45))), 15) is None
    assert flattening(shape, centre, 640, (1.0, 1 / math.cos(math.radians(45))), 20) is not None
    assert flattening(shape, centre, 640, (1.0, 1.3), 53.13) is not None


def test_a_camera_whose_field_of_view_is_not_given_is_flattened_as_a_narrow_webcams():
    # Not told, the reader takes a slanted camera for a webcam near the tray, narrower than
    # most (``ASSUMED_FIELD_OF_VIEW``): its far dice are enlarged less than a 53-degree
    # webcam's, but enlarged.
    shape, centre, stretch = (480, 640, 3), (320.0, 240.0), (1.0, 1.3)
    m, size = flattening(shape, centre, 640, stretch, None)
    assumed, assumed_size = flattening(shape, centre, 640, stretch, ASSUMED_FIELD_OF_VIEW)
    assert np.allclose(m, assumed) and size == assumed_size
    wider, _ = flattening(shape, centre, 640, stretch, 53.13)

    def scale_at_top(h):   # how much larger a thing at the frame's top row comes out
        return 1.0 / unflattening(h)(*mapped(h, 320.0, 0.0))[1]

    assert 1.0 < scale_at_top(m) < scale_at_top(wider)


def test_a_barrel_lens_view_moves_each_label_with_what_it_labels():
    # The accuracy benchmark's view of a cheap webcam's lens (``--barrel``): white squares
    # on a dark photo, each labelled, seen 40 degrees from overhead through a lens of
    # barrel distortion 0.1. Each label stays on its square's middle as the frame shows it,
    # the box around it, and the squares far from the centre come out smaller than through
    # a lens without distortion, as such a lens shows them.
    import cv2

    photo = np.zeros((1000, 1000, 3), np.uint8)
    labels = []
    for x in range(100, 1000, 200):
        for y in range(100, 1000, 200):
            cv2.rectangle(photo, (x - 20, y - 20), (x + 20, y + 20), (255, 255, 255), -1)
            labels.append((len(labels), float(x), float(y), 41.0, 41.0))   # (numbered)
    plain, plain_kept = perspective(photo, labels, "640x480", 40.0, focal_length(60.0))
    bent, kept = perspective(photo, labels, "640x480", 40.0, focal_length(60.0), barrel=0.1)
    assert len(kept) >= 15 and not np.array_equal(plain, bent)
    _, _, stats, centroids = cv2.connectedComponentsWithStats((bent[..., 0] > 127).astype(np.uint8))
    for _, x, y, bw, bh in kept:
        k = int(np.argmin(np.hypot(centroids[1:, 0] - x, centroids[1:, 1] - y))) + 1
        assert math.dist(centroids[k], (x, y)) < 1.0
        assert stats[k, cv2.CC_STAT_WIDTH] == pytest.approx(bw, abs=2.0)
        assert stats[k, cv2.CC_STAT_HEIGHT] == pytest.approx(bh, abs=2.0)
    # (the same squares without distortion: those half the frame's half-diagonal or more
    # from its centre are narrower through the barrel lens, by over 2 %; it pulls in some
    # the other leaves out)
    plain_width = {v: bw for v, _, _, bw, _ in plain_kept}
    far = [(bw, plain_width[v]) for v, x, y, bw, _ in kept
           if math.dist((x, y), (320, 240)) > 200 and v in plain_width]
    assert len(far) >= 4 and all(bw < 0.98 * pw for bw, pw in far)


def test_a_die_the_frames_edge_may_cut_is_set_apart_and_counts_only_if_read_wrong():
    # The accuracy benchmark's slanted view (``--tilt``) keeps only the labels wholly inside
    # the frame. A die whose box runs past the frame's edge, its centre inside, was dropped,
    # and reading it, even right, counted as reading a die where there is none. Such labels
    # are now set apart (``cut_off``): read right, a die there is ``edge``, neither right nor
    # wrong; read otherwise, a wrong value; asked about, no spot where no die lies. A label
    # whose centre is outside the frame is in neither list.
    from companion.vision.types import DiceReading, Die, Uncertain

    photo = np.zeros((1000, 1000, 3), np.uint8)
    labels = [(v, float(x), float(y), 60.0, 60.0) for v, (x, y) in
              enumerate([(500, 500), (20, 500), (980, 500), (-100, 500)], start=1)]
    cut_off: list = []
    _, kept = perspective(photo, labels, "640x480", 40.0, focal_length(60.0), cut_off=cut_off)
    assert [lab[0] for lab in kept] == [1]
    assert sorted(lab[0] for lab in cut_off) == [2, 3]
    assert all(0 <= x < 640 and 0 <= y < 480 for _, x, y, _, _ in cut_off)
    assert any(x - bw / 2 < 0 or x + bw / 2 >= 640 for _, x, _, bw, _ in cut_off)

    accuracy = accuracy_benchmark()
    (_, x1, y1, _, _), = kept
    at = {v: (x, y) for v, x, y, _, _ in cut_off}
    reading = DiceReading([Die(1, x1, y1, 0.9), Die(2, *at[2], 0.9), Die(5, *at[3], 0.9)])
    res = accuracy.score_image(reading, kept, cut_off)
    assert (res["correct"], res["edge"], res["wrong"], res["phantom"]) == (1, 1, 1, 0)
    assert not res["whole"]   # (a die read wrong, though every labelled one was read right)
    assert accuracy.score_image(reading, kept)["phantom"] == 2   # (as it was scored before)
    asked = DiceReading([Die(1, x1, y1, 0.9)], [Uncertain(*at[2], "cut by the frame's edge")])
    assert accuracy.score_image(asked, kept, cut_off)["stray"] == 0


def _square_faces_seen(tilt: float, field_of_view: float, rows: tuple[int, int]):
    """4s and 5s on a 1000 px photo, between its ``rows`` (their centres), each turned its own
    way, as the value and centres of their pips stand in a 640x480 frame seen ``tilt``
    degrees from overhead by a camera ``field_of_view`` degrees wide."""
    photo = np.zeros((1000, 1000, 3), np.uint8)
    faces = []
    for n, (x, y) in enumerate((x, y) for x in range(150, 900, 150) for y in rows):
        turn = 0.4 * n
        corners = [(x + 14 * math.cos(turn + k * math.pi / 2), y + 14 * math.sin(turn + k * math.pi / 2))
                   for k in range(4)]
        faces.append((4 + n % 2, corners + [(x, y)] * (n % 2)))
    # (each pip a label of no size, numbered face by face)
    points = [(10 * n + k, px, py, 0.0, 0.0) for n, (_, pips) in enumerate(faces) for k, (px, py) in enumerate(pips)]
    _, kept = perspective(photo, points, "640x480", tilt, focal_length(field_of_view))
    seen = {v: (x, y) for v, x, y, _, _ in kept}
    return [(value, [seen[10 * n + k] for k in range(len(pips))]) for n, (value, pips) in enumerate(faces)
            if all(10 * n + k in seen for k in range(len(pips)))]


@pytest.mark.parametrize("rows, lie", [((180, 260), "far"), ((740, 820), "near")])
def test_the_slant_the_square_faces_show_is_the_cameras_wherever_the_dice_lie(rows, lie):
    # A webcam 53 degrees wide, 40 degrees from overhead, sees a 4 in its far rows squashed
    # more than one at its centre, and one in its near rows less: the faces' own squash says
    # about 50 and 24 degrees here. Carried first to where the flattening makes every face
    # squashed as at the centre, they say the camera's own 40 told its field of view, and
    # much nearer 40 than their own squash taking a narrower one (``ASSUMED_FIELD_OF_VIEW``).
    faces = _square_faces_seen(40.0, 53.13, rows)
    ys = [y for _, pips in faces for _, y in pips]
    assert len(faces) >= 8 and (max(ys) < 200 if lie == "far" else min(ys) > 300)
    as_seen = slant_degrees(layout_stretch(faces))
    assert (as_seen > 46 if lie == "far" else as_seen < 33)
    assert slant_degrees(flat_layout_stretch(faces, (640, 480), 53.13)) == pytest.approx(40.0, abs=0.5)
    assumed = slant_degrees(flat_layout_stretch(faces, (640, 480)))
    assert abs(assumed - 40.0) < abs(as_seen - 40.0) / 2
    # (a camera far from the tray, told so, is taken as the faces show it)
    assert slant_degrees(flat_layout_stretch(faces, (640, 480), 10.0)) == pytest.approx(as_seen)
