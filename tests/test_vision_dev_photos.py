"""The dice reader on a fixed subset of the real dev photos (downscaled to keep it quick).

The full set is measured by benchmarks/vision_accuracy.py. These bounds guard against
regressions of the current reader; they are NOT the issue's target (95 % / 1 %). The photos
used (every 25th) are among those the face network was never trained on (every 5th).
"""

import math
import os

import numpy as np
import pytest
from companion.vision.render import hand_over
from vision_scenes import DEV, accuracy_benchmark, dev_photo

pytestmark = pytest.mark.skipif(not os.path.isdir(DEV),
                                reason=f"dev photos not present at {DEV}")


def _far_camera():
    """What the installer of a camera far from the tray says of it (``companion calibrate
    --field-of-view 10``: behind a narrow lens, its frames read as they are). A dev photo
    squeezed into a webcam frame (``dev_photo(frame=...)`` with no ``tilt``) is such a camera's
    view, every row squashed alike; the reader, not told, takes a slanted camera for a
    webcam near the tray (``perspective.ASSUMED_FIELD_OF_VIEW``). Most of these views read
    the same either way; where a test's hard die reads otherwise, the test says which camera
    it is."""
    from companion.vision.calibration import Calibration
    return Calibration(field_of_view=10)


# A 53-degree webcam 55 degrees from overhead, as ``dev_photo`` makes its frame (its far dice
# smaller and flatter than its near ones).
STEEP_WEBCAM = dict(frame="640x480", jpeg=80, tilt=55.0, field_of_view=53.0)


def _assert_read(img, labels, faces=(), calibration=None, read=None):
    """``img`` is read (with ``calibration``; by ``read``, ``read_dice`` unless given) without
    a wrong value or a die that is not there, and each of the labelled ``faces`` [(value, x,
    y), positions to 10 px] is read as its value; the reading."""
    from companion.vision.dice import read_dice

    reading = (read or read_dice)(img, calibration)
    res = accuracy_benchmark().score_image(reading, labels)
    assert res["wrong"] == res["phantom"] == 0
    for value, fx, fy in faces:
        box = _label_box(labels, value, fx, fy)
        assert _read_in(reading.dice, value, *box), f"the {value} at ({box[0]:.0f}, {box[1]:.0f}) was not read"
    return reading


def _label_box(labels, value: int, x: float, y: float):
    """The box (x, y, w, h) of the one die labelled ``value`` within 10 px of (x, y)."""
    box, = [lab[1:] for lab in labels if lab[0] == value and abs(lab[1] - x) < 10 and abs(lab[2] - y) < 10]
    return box


def _read_in(dice, value: int, x: float, y: float, w: float, h: float) -> bool:
    """Whether one of ``dice`` is ``value`` with its centre in the box (x, y, w, h)."""
    return any(d.value == value and abs(d.x - x) < w / 2 and abs(d.y - y) < h / 2 for d in dice)


def _labels_mended_and_as_is(stem: str):
    """Full-size dev photo ``stem``, its labels with ``photo_views``' mends, and as they are."""
    import cv2
    from companion.vision.photo_views import load_labels

    path = os.path.join(DEV, stem + ".jpg")
    img = cv2.imread(path)
    return (img, load_labels(path[:-4] + ".txt", img.shape[1], img.shape[0]),
            load_labels(path[:-4] + ".txt", img.shape[1], img.shape[0], fixed=False))


def _subset_rates(reduce: int, **frame) -> tuple[float, float]:
    """(share read right, share read wrong) over every 25th photo, decoded at 1/``reduce``
    size and made into frames by ``vision_accuracy.as_frame(**frame)``."""
    import glob

    import cv2

    from companion.vision.dice import read_dice

    acc = accuracy_benchmark()
    flag = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4}[reduce]  # fast to decode
    tot = {"correct": 0, "wrong": 0, "phantom": 0}
    n = 0
    for f in sorted(glob.glob(os.path.join(DEV, "*.jpg")))[::25]:
        img = cv2.imread(f, flag)
        labels = acc.load_labels(f[:-4] + ".txt", img.shape[1], img.shape[0])
        img, labels = acc.as_frame(img, labels, **frame)
        res = acc.score_image(read_dice(img), labels)
        n += len(labels)
        for k in tot:
            tot[k] += res[k]
    assert n > 50
    return tot["correct"] / n, (tot["wrong"] + tot["phantom"]) / n


def _assert_subset_rates(least_right: float, reduce: int = 4, **frame) -> None:
    """``_subset_rates``: at least ``least_right`` read right, at most 3 % wrong."""
    right, wrong = _subset_rates(reduce, **frame)
    assert wrong <= 0.03
    assert right >= least_right


def test_each_label_fixed_is_on_the_die_whose_face_it_names():
    # Seven dev labels name another face than their die shows (checked by eye; the scores
    # use photo_views.LABEL_FIXES). Each fix must land on its own label: at full size the
    # reader reads the face it names there, and only that label differs from the file's.
    from companion.vision.dice import read_dice
    from companion.vision.photo_views import LABEL_FIXES

    for (stem, k), face in LABEL_FIXES.items():
        img, fixed, as_is = _labels_mended_and_as_is(stem)
        assert [n for n, (a, b) in enumerate(zip(fixed, as_is)) if a != b] == [k]
        assert fixed[k][0] == face != as_is[k][0] and fixed[k][1:] == as_is[k][1:]
        assert _read_in(read_dice(img).dice, *fixed[k]), f"{stem}: no {face} read at its label"


def test_each_die_with_no_label_is_added_where_the_reader_reads_its_face():
    # Five dice in the dev photos have no label (checked by eye; photo_views.UNLABELLED):
    # each added label lies on its die -- at full size the reader reads the face it names
    # there -- after the file's own labels, which stay where they are.
    from companion.vision.dice import read_dice
    from companion.vision.photo_views import UNLABELLED

    for stem, added in UNLABELLED.items():
        img, labels, as_is = _labels_mended_and_as_is(stem)
        assert [lab[1:] for lab in labels[:len(as_is)]] == [lab[1:] for lab in as_is]
        assert len(labels) == len(as_is) + len(added)
        dice = read_dice(img).dice
        for label in labels[len(as_is):]:
            assert _read_in(dice, *label), f"{stem}: no {label[0]} read at its added label"


def test_dev_subset_accuracy():
    _assert_subset_rates(0.93, reduce=2)   # 1368 px


def test_slanted_webcam_frames_of_real_dice():
    # The same photos as 640x480 webcam frames: squeezed into 4:3, their top faces are
    # squashed to 0.75 as by a camera 40 degrees from overhead, and JPEG-compressed as a
    # webcam's stream is. The reader measures the squash from the pips and undoes it: it
    # reads 91 % right here (63 of 69, none wrong), against 83 % (57, none wrong) without
    # undoing it.
    _assert_subset_rates(0.81, frame="640x480", jpeg=80)


def test_real_dice_seen_in_perspective():
    # The same photos as a webcam 40 degrees from overhead sees them, in perspective: the
    # far dice smaller and flatter than the near ones, so the one stretch the reader undoes
    # fits each row only roughly. It reads 88 % right here (61 of 69, none wrong), two fewer
    # than from the uniform squeeze above.
    _assert_subset_rates(0.81, frame="640x480", jpeg=80, tilt=40.0)


def test_real_dice_through_a_cheap_webcams_barrel_lens_are_read():
    # The same photos through a webcam 60 degrees wide, 40 degrees from overhead, whose
    # lens bows straight lines out (barrel distortion 0.1, ``photo_views.perspective``: a
    # die at a corner of the frame comes out 1.3 times smaller along the radius than at
    # its centre, and 1.1 times across it). The reader takes every camera for a pinhole
    # one, yet reads 88 % right here (61 of 69, none wrong), against 94 % (65, none wrong)
    # through the same webcam's lens without distortion.
    _assert_subset_rates(0.81, frame="640x480", jpeg=80, tilt=40.0, field_of_view=60.0, barrel=0.1)


@pytest.mark.parametrize("told, faces", [(53.0, [(5, 292, 129), (3, 334, 123), (1, 238, 124)]),
                                         (None, [(5, 292, 129), (1, 238, 124)])])
def test_far_dice_seen_by_a_camera_near_the_tray_are_read_by_its_field_of_view_given_or_assumed(told, faces):
    # A webcam 53 degrees wide, 40 degrees from overhead: the far dice come out 0.7 as wide
    # as those at the centre and flatter, so the one stretch the reader undoes leaves them
    # oblong. Told the field of view (``companion calibrate --field-of-view``), it reads the
    # frame as from afar (``perspective``): these three far dice, which it asked about or
    # missed read as it is, are read, and nothing is read wrong. Not told, it takes the
    # camera to be 45 degrees wide: the 5 and the 1 are read, the 3 asked about. (All 250
    # photos so, decoded at a quarter size as here, one look: 1,640 read right told, for
    # 1,619 read as they are; 8 wrong for 9.)
    import cv2

    from companion.vision.calibration import Calibration

    acc = accuracy_benchmark()
    path = os.path.join(DEV, "IMG_20191208_111548.jpg")
    img = cv2.imread(path, cv2.IMREAD_REDUCED_COLOR_4)
    labels = acc.load_labels(path[:-4] + ".txt", img.shape[1], img.shape[0])
    frame, labels = acc.as_frame(img, labels, frame="640x480", jpeg=80, tilt=40.0, field_of_view=53.0)
    _assert_read(frame, labels, faces, Calibration(field_of_view=told))


def test_real_dice_in_a_dim_room_are_read():
    # The same frames as a camera gives them in a dim room: 0.4 of the light, so the pale
    # tray is grey (about 75 of 255) and every contrast on it is 0.4 of the photo's (raw
    # frames, as picamera2 gives them). Brought back to a bright tray's level first, they
    # are read 97 % right (67 of 69, none wrong); as they are, 83 % (57).
    _assert_subset_rates(0.9, frame="640x480", exposure=0.4)


@pytest.mark.parametrize("cast", [(1.15, 1.0, 0.85), (0.75, 0.95, 1.15)], ids=["cool", "warm"])
def test_real_dice_under_a_white_balance_gone_wrong_are_read(cast):
    # The perspective frames above as a webcam whose white balance is set for other light
    # gives them: blue up and red down by 15 % (daylight, the camera set for lamps), or red
    # up and blue down (the other way). The pips are found in whichever channel shows them
    # best and the network was taught with its crops' colours shuffled, so no one colour is
    # relied on; and the cast the white tray shows is undone first
    # (``segment.neutral_balance``): 63 and 61 of 69 are read right here, none wrong (62 and
    # 60 with the cast left; 65 with no cast).
    _assert_subset_rates(0.81, frame="640x480", jpeg=80, tilt=40.0, cast=cast)


def test_a_roll_the_controller_takes_unasked_is_counted_right_or_with_a_die_read_wrong():
    # The accuracy benchmark counts the rolls the controller would take after its countdown
    # without a press (as many dice as it asked for, every one at its bar or above, nothing
    # asked about): with every die right, what the players press nothing for; with a die read
    # wrong, the one failure that changes a score unless the players stop it. A roll read
    # whole (every die right, nothing asked) with a die under the bar is not taken: the
    # players press once to accept it.
    from companion.controller import Settings
    from companion.vision.types import DiceReading, Die, Uncertain

    score = accuracy_benchmark().score_image
    labels = [(3, 100.0, 100.0, 60.0, 60.0), (5, 300.0, 100.0, 60.0, 60.0)]
    bar = Settings().min_confidence
    right = Die(3, 100.0, 100.0, 0.95)

    def taken_wrong(dice, asked=()):
        return score(DiceReading(dice, list(asked)), labels)["taken_wrong"]

    def taken(dice, asked=()):
        return score(DiceReading(dice, list(asked)), labels)["taken"]

    assert taken_wrong([right, Die(6, 300.0, 100.0, bar)])
    assert not taken_wrong([right, Die(5, 300.0, 100.0, 0.95)])          # (every die right)
    assert not taken_wrong([right, Die(6, 300.0, 100.0, bar - 0.01)])   # (shown for the players to accept)
    assert not taken_wrong([right, Die(6, 300.0, 100.0, 0.95)], [Uncertain(500.0, 300.0, "blurred")])
    # (a die short, or one more where none lies: not the roll asked for, which is asked for again)
    assert not taken_wrong([Die(6, 300.0, 100.0, 0.95)])
    assert not taken_wrong([Die(2, 100.0, 100.0, 0.95), Die(5, 300.0, 100.0, 0.95), Die(2, 500.0, 300.0, 0.9)])
    # (one missed and one read where none lies: as many dice as asked for)
    assert taken_wrong([right, Die(2, 500.0, 300.0, 0.9)])
    assert taken([right, Die(5, 300.0, 100.0, bar)])
    assert taken([right, Die(6, 300.0, 100.0, bar)])
    below = score(DiceReading([right, Die(5, 300.0, 100.0, bar - 0.01)]), labels)
    assert below["whole"] and not below["taken"]
    assert not taken([right, Die(5, 300.0, 100.0, 0.95)], [Uncertain(500.0, 300.0, "blurred")])
    assert not taken([Die(5, 300.0, 100.0, 0.95)])


def test_white_dice_on_a_white_tray_that_both_readers_read_alike_are_taken_without_a_press():
    # Five white dice with black pips on a white tray, through a 53-degree webcam 40 degrees
    # from overhead. The pip reader reads every face right, but outlines no die body around
    # them (white on white) and measures some of their pips oblong, and so doubts them: four
    # were shown at 0.74-0.79, under the controller's bar, and the players had to press to
    # accept a roll read right. The network reads each of those faces as the pips do, at
    # AGREE: two readers that fail differently, agreeing. The roll is taken after its
    # countdown, unasked (``face_net._agreed_confidence``).
    from companion.controller import Settings
    from companion.vision.dice import read_dice

    img, labels = dev_photo("IMG_20191209_100722.jpg", frame="640x480", jpeg=80, tilt=40.0, field_of_view=53.0)
    reading = read_dice(img)
    score = accuracy_benchmark().score_image(reading, labels)
    assert score["correct"] == len(labels) == 5 and score["taken"]
    assert min(d.confidence for d in reading.dice) >= Settings().min_confidence


def test_a_webcam_frame_with_a_colour_cast_reads_as_one_without():
    # A held-out photo as a webcam 40 degrees from overhead gives it, its white balance 15 %
    # cool: every die is read, as without the cast. With the cast left, two of its five
    # dice were asked about: a blue 5 touching another blue die, its red pips less red and
    # its body bluer, and a small maroon 1.
    from companion.vision.dice import read_dice

    webcam = dict(frame="640x480", jpeg=80, tilt=40.0, field_of_view=60.0)
    img, labels = dev_photo("IMG_20191208_112455.jpg", **webcam)
    tinted, _ = dev_photo("IMG_20191208_112455.jpg", cast=(1.15, 1.0, 0.85), **webcam)
    score = accuracy_benchmark().score_image
    assert score(read_dice(tinted), labels)["outcomes"] == score(read_dice(img), labels)["outcomes"] \
        == ["correct"] * len(labels)


def test_a_calibration_in_a_dim_room_measures_what_a_bright_room_does():
    # ``companion calibrate`` from four webcam frames, taken in good light and at 0.35 of
    # it: the same tray region and slant. (Unbrightened, the dim frames gave no tray and a
    # slant of 1.28 for 1.19.)
    from companion.vision.setup import measure_setup

    names = ["IMG_20191208_111316.jpg", "IMG_20191208_112219.jpg", "IMG_20191208_112826.jpg",
             "IMG_20191209_095706.jpg"]
    bright, dim = (measure_setup([dev_photo(name, frame="640x480", jpeg=80, exposure=exposure)[0]
                                  for name in names]) for exposure in (1.0, 0.35))
    assert bright.tray is not None and dim.tray is not None
    assert max(abs(a - b) for a, b in zip(bright.tray, dim.tray)) < 0.02
    assert abs(bright.stretch[1] - dim.stretch[1]) < 0.03


@pytest.mark.parametrize("roll", [0.0, 10.0])
def test_a_calibration_tells_a_camera_turned_about_its_axis_from_a_level_one(roll):
    # ``companion calibrate`` from three webcam frames 40 degrees from overhead, the camera
    # level or turned by 10 degrees: its 4s and 5s say which (level, 1.6 degrees here;
    # turned, 10.5), and only the turned one is worth a word to the installer.
    from companion.vision.setup import measure_setup, placement_costs

    names = ["IMG_20191208_113019.jpg", "IMG_20191209_095359.jpg", "IMG_20191209_095431.jpg"]
    cal = measure_setup([dev_photo(name, frame="640x480", jpeg=80, tilt=40.0, roll=roll)[0] for name in names])
    assert cal.roll == pytest.approx(roll, abs=3.0)
    assert ("turned" in placement_costs(cal)) == bool(roll)


@pytest.mark.parametrize("frame, tilt, said", [("640x480", 40.0, ()), ("400x300", 40.0, ("px wide",)),
                                               ("640x480", 58.0, ("degrees from overhead",)),
                                               ("400x300", 58.0, ("px wide", "degrees from overhead"))])
def test_a_calibration_tells_the_installer_where_dice_are_too_small_or_the_camera_too_steep(frame, tilt, said):
    # ``companion calibrate`` from three webcam frames of real dice: 29 px wide at 640x480
    # and 40 degrees from overhead, which read well; 18 px at 400x300, where a fifth or more
    # are not read right; a camera 58 degrees from overhead, which squashes the tops so
    # that 1 in 7 or more are not. The installer, who gave the camera's field of view (37
    # degrees, as these frames are made), hears of each, and of nothing else; not given it,
    # he hears which the reader takes (the camera is at a slant: ``perspective``), and of
    # each too (at 58 degrees, read as for 45, these dice measure 23.9 px against 25.6:
    # small too).
    from companion.vision.setup import measure_setup, placement_advice

    names = ["IMG_20191208_113019.jpg", "IMG_20191209_095359.jpg", "IMG_20191209_095431.jpg"]
    frames = [dev_photo(name, frame=frame, jpeg=80, tilt=tilt)[0] for name in names]
    advice = placement_advice(measure_setup(frames, field_of_view=36.87))
    assert len(advice) == len(said) and all(any(s in a for a in advice) for s in said)
    unknown = placement_advice(measure_setup(frames))
    assert all(any(s in a for a in unknown) for s in said) and "--field-of-view" in unknown[-1]
    assert not any("turned" in a for a in unknown)


def test_a_calibrated_tray_holds_the_dice_at_its_rim_and_leaves_out_its_wall():
    # ``companion calibrate`` from three webcam frames of the white tray, whose light falls
    # off towards its rim: the floor's colour measures a region well inside the tray, which
    # left dice lying at the rim partly outside it (8 of the 95 in these seven frames). The
    # region is grown by two die sides; the tray's front wall, with its two round rivets
    # (coin-like, at 92 % of the frame's height), stays outside.
    from companion.vision.setup import measure_setup

    frames = [dev_photo(f"IMG_20191208_{t}.jpg", frame="640x480", jpeg=80)
              for t in ("111228", "111339", "111446", "111642", "111947", "112020", "112205")]
    tray = measure_setup([img for img, _ in frames[:3]]).tray
    x0, y0, x1, y1 = tray[0] * 640, tray[1] * 480, (tray[0] + tray[2]) * 640, (tray[1] + tray[3]) * 480
    for _, labels in frames:
        for _, x, y, w, h in labels:
            assert x0 <= x - w / 2 and x + w / 2 <= x1 and y0 <= y - h / 2 and y + h / 2 <= y1
    assert y1 < 0.92 * 480


def test_dice_lying_in_the_tray_are_not_reported_as_coins():
    # Down-in-one Street's dice may lie in the tray while its coins are flipped. A rounded
    # die with its shadow is nearly as round as a coin, and does not look like the coin
    # taught: it was reported as an unreadable coin, and the players asked about it. Where
    # the dice reader reads a die, that blob is a die.
    from companion.vision.calibration import Calibration
    from companion.vision.coins import calibrate_coins, read_coins
    from companion.vision.dice import read_dice
    from companion.vision.render import render_tray

    coin = calibrate_coins([render_tray([], ["heads"], seed=s) for s in range(2)],
                           [render_tray([], ["tails"], seed=s + 5) for s in range(2)])
    # (the squeeze of a 640x480 frame undone, as ``companion calibrate`` measures it)
    cal = Calibration(coin=coin, stretch=[1.0, 1.333])
    img, _ = dev_photo("IMG_20191208_112305.jpg", frame="640x480", jpeg=80)
    dice = read_dice(img, cal).dice
    reading = read_coins(img, cal)
    assert reading.coins == []
    assert not [u for u in reading.uncertain if any(abs(u.x - d.x) < 10 and abs(u.y - d.y) < 10 for d in dice)]


def test_a_white_two_whose_pips_do_not_link_is_read_once():
    # A cream 2 on the pale tray, in a webcam frame compressed at JPEG quality 75: its two
    # pips do not link into a face, so each is a lone round spot the network is asked
    # about. A view centred on one pip sees the die off its centre, and the network was
    # sure of a 2 in one such view as well as around the die's blob: the 2 was read twice.
    # Where nothing but the network speaks for a die it must be sure in two views.
    img, labels = dev_photo("IMG_20191209_100116.jpg", frame="640x480", jpeg=75)
    _assert_read(img, labels, [(2, 376, 183)])


@pytest.mark.parametrize("frame", [{}, {"frame": "640x480", "blur": 0.6, "jpeg": 80}],
                         ids=["photo", "soft webcam frame"])
def test_white_ones_on_the_pale_tray_are_read(frame):
    # Eight 1s, two of them white dice whose outline the pale tray hides: only their pip
    # shows, which the pip reader alone takes for no evidence of a die. The face network,
    # asked about such lone spots, finds the die around them. (A photo the network never
    # saw in training.) In a soft webcam frame the dice read around them have bigger pips
    # than in a sharp one, and the lone spots must still be asked about.
    from companion.vision.dice import read_dice

    img, labels = dev_photo("IMG_20191208_112305.jpg", **frame)
    res = accuracy_benchmark().score_image(read_dice(img), labels)
    assert (res["correct"], res["wrong"], res["phantom"]) == (len(labels), 0, 0)


@pytest.mark.parametrize("name, faces", [
    # black pips on gold marble: a 3 and a 5
    ("IMG_20191209_100147.jpg", [(3, 211, 283), (5, 377, 203)]),
    # red pips on black marble: a 3
    ("IMG_20191209_095910.jpg", [(3, 414, 169)]),
])
def test_dice_whose_pips_the_finder_misses_are_read_as_the_whole_face(name, faces):
    # Marbled dice in a slanted webcam frame: on these faces a pip runs into the die's
    # dark edge or its marbling and is not found, so the pips left are a 2 that fails its
    # checks. They are part of one face only (the 3's line, the 5's square), whose missing
    # pips show the pips' colour; the face network, asked about that face, reads the same
    # value. (Photos the network never saw in training.)
    _assert_read(*dev_photo(name, frame="640x480", jpeg=80), faces, _far_camera())


@pytest.mark.parametrize("name, frame, face", [
    # red pips on a black 6, in a slanted webcam frame: their contrast, blurred by the
    # JPEG, too faint
    ("IMG_20191208_112905.jpg", {"frame": "640x480", "jpeg": 80}, (6, 402, 234)),
    # a white 3 seen 40 degrees from overhead: too blurred to be sure
    ("IMG_20191208_112942.jpg", {"frame": "640x480", "jpeg": 80, "tilt": 40.0}, (3, 399, 180)),
    # red pips on a blue marbled 5 at 640 px, overhead: no die body found around them
    ("IMG_20191208_112455.jpg", {"size": 640}, (5, 424, 354)),
])
def test_dice_whose_pips_fail_a_check_are_read_as_the_fuller_face_the_network_sees(name, frame, face):
    # Only two pips of each face are found: a 2, which a check then doubts. The face
    # network, looking around those pips, is all but sure of a face that holds them and
    # more: that face is read. (Photos the network never saw in training.)
    _assert_read(*dev_photo(name, **frame), [face])


@pytest.mark.parametrize("name, face", [
    # red pips on a blue marbled 6
    ("IMG_20191208_112239.jpg", (6, 101, 237)),
    # white pips on a translucent red 3
    ("IMG_20191209_095359.jpg", (3, 253, 188)),
])
def test_pips_at_a_slant_with_no_die_beyond_them_are_read_as_the_fuller_face(name, face):
    # Webcam frames 40 degrees from overhead: two pips of each face are found, and no die
    # body around them (marbled, translucent plastic): a 2 the check doubts. The
    # face network, looking around them, is all but sure of a face that holds them and
    # more. At a slant such pips may be a die's near side, whose whole face the network
    # would read; but no die lies just beyond these, so they are nobody's side, and that
    # face is read. (Photos the network never saw in training.)
    _assert_read(*dev_photo(name, frame="640x480", jpeg=80, tilt=40.0), [face])


def test_a_dark_die_touching_a_lighter_one_just_above_it_is_read_not_taken_for_its_side():
    # A dark purple 2 touching a brownish-red 4 just above it, in a 640x480 frame squeezed
    # as from 40 degrees: to the check for near sides it looks like the 4's side (the die
    # runs on above it, unbroken, in a like colour lit brighter), and is made uncertain.
    # Read again steeper, the 2 reads as a 2 where it was: a near side stretched more is
    # taller than wide and reads as no face, so it is a top face after all, and is read.
    _assert_read(*dev_photo("IMG_20191208_111919.jpg", frame="640x480", jpeg=80), [(2, 304, 243)])


def test_a_die_against_the_trays_wall_whose_pips_are_not_found_is_read_by_the_network():
    # A blue 6 with dark red pips against the tray's sloping wall, 55 degrees from overhead
    # through a 53-degree webcam: the foreground runs it into the wall (one blob, too big to
    # be dice) and its pips are too small to find, so nothing was looked at there and it
    # was missed. Standing out of the wall's colour about it, it is looked at on its own
    # (``outlines.standing_out``), and the network reads it, as ``companion dice read`` does.
    from companion.vision.pooling import read_still

    _assert_read(*dev_photo("IMG_20191208_111316.jpg", **STEEP_WEBCAM), [(6, 512, 197)], read=read_still)


def test_small_dice_seen_steeply_whose_pips_cannot_tell_the_slant_are_read_at_a_guessed_one():
    # Five small dice seen 55 degrees from overhead: their faces are 12-17 px tall and their
    # pips a pixel or two across, too few found to measure the slant by, so the frame was
    # read as from overhead, where no face is square: nothing was read or asked about. Read
    # as from a camera tilted down 40, 55 or 64 degrees, it keeps the slant that reads most
    # (the least of those that read as many: here 40 and 55 degrees read the same three
    # dice). The dice it reads are shown but not accepted unasked: the slant was guessed.
    # (A photo the network never saw in training.)
    from companion.vision.dice import read_dice
    from companion.vision.pooling import read_still
    from companion.vision.slant import GUESSED_STRETCHES

    img, labels = dev_photo("IMG_20191208_112431.jpg", frame="640x480", jpeg=80, tilt=55.0)
    _assert_read(img, labels, [(1, 178, 147), (3, 203, 238), (4, 294, 146)])
    reading = read_dice(img)
    assert reading.stretch_guessed and reading.stretch[0] == 1.0 and reading.stretch[1] in GUESSED_STRETCHES
    assert all(d.confidence < 0.8 for d in reading.dice)
    # Looked at again as `companion dice read` does, each look guesses for itself.
    still = read_still(img)
    assert len(still.dice) >= 3 and all(d.confidence < 0.8 for d in still.dice)
    assert accuracy_benchmark().score_image(still, labels)["wrong"] == 0


def test_small_dice_seen_steeply_whose_pips_show_no_slant_are_read_as_if_told_one():
    # Five dice through a 53-degree webcam 55 degrees from overhead, their tops 27-37 px
    # wide but 11-17 tall: the frame as it is shows no slant (its pips are found merged
    # into blobs), and read as from overhead it reads none of them. It asks about one of
    # them, so it is read again as if told each guessed slant: at 1.75 (1/cos 55 degrees is
    # 1.74) all five read, sure, and that read is kept, as one at a slant measured would be.
    # (Before, only `companion dice read`'s looks at the frame enlarged, where the pips
    # show the slant, read them. A photo the network never saw in training.)
    from companion.vision.calibration import Calibration
    from companion.vision.dice import read_dice
    from companion.vision.pooling import read_still
    img, labels = dev_photo("IMG_20191209_095647.jpg", **STEEP_WEBCAM)
    assert not read_dice(img, Calibration(stretch=[1.0, 1.0])).dice
    first = read_dice(img)
    assert first.stretch is not None and first.stretch[1] > 1.5 and not first.stretch_guessed
    score = accuracy_benchmark().score_image(first, labels)
    assert score["correct"] == len(labels) == 5 and score["wrong"] == score["phantom"] == 0
    assert accuracy_benchmark().score_image(read_still(img), labels)["whole"]


def test_far_dice_whose_pips_are_too_small_to_show_the_slant_are_read_as_if_told_one():
    # Through a 60-degree webcam 40 degrees from overhead, seven dark marbled dice with red
    # pips, the five far ones about 20 px wide. Their pips, 4-5 px across, measure no
    # squash (0.93 across, where 0.77 along y is true), so the frame was read as from
    # overhead: its far dice, squashed, were not die-shaped, only the near 3 and 5 were
    # read, and three dice went unreported. It asks about two places, so it is read again
    # as if told each guessed slant: at 1.75 the far 4 and 6 are read too. The 2 it asked
    # about, on which that read reports nothing, is still asked about: a reading that sees
    # less drops no place. (A photo the network was trained on; what it lacked was the
    # slant.)
    from companion.vision.calibration import Calibration
    from companion.vision.dice import read_dice
    img, labels = dev_photo("IMG_20191209_095854.jpg", frame="640x480", jpeg=80, tilt=40.0, field_of_view=60.0)
    overhead = read_dice(img, Calibration(stretch=[1.0, 1.0]))
    assert sorted(d.value for d in overhead.dice) == [3, 5]
    reading = _assert_read(img, labels, [(3, 494, 318), (4, 349, 228), (5, 365, 416), (6, 444, 187)])
    assert reading.stretch is not None and reading.stretch[1] > 1.5 and not reading.stretch_guessed
    bx, by, bw, bh = _label_box(labels, 2, 380, 221)
    assert any(abs(u.x - bx) <= 0.575 * bw and abs(u.y - by) <= 0.575 * bh for u in reading.uncertain)


@pytest.mark.parametrize("name, frame, calibration, dice", [
    # 22 dice photographed from overhead, its pips showing no slant: it would be read three
    # times more as if told a slant (``dice._read_as_if_told``); those reads took 3 of the
    # 4 s `companion dice read` spent on it, and changed no phone photo's reading.
    ("IMG_20191208_111228.jpg", {}, None, 22),
    # Seven dice through a webcam 40 degrees from overhead, read at the slant their pips
    # measure: it would be read three times more at steeper guessed slants (``_surer``).
    ("IMG_20191209_100348.jpg", dict(frame="640x480", jpeg=80, tilt=40.0), _far_camera(), 7),
])
def test_a_reading_whose_fours_and_fives_stand_square_is_not_read_again_steeper(name, frame, calibration, dice):
    # Every die is read right, but one is shown unsure or a place asked about, which would
    # have the frame read again at steeper slants; yet four or more 4s and 5s read whole
    # stand square in the frame as it was read, as no steeper slant would leave them: the
    # slant it was read at is the camera's. Squashed to 0.77 as tall as wide (what 40
    # degrees from overhead does to a face read as overhead), the same faces leave it open.
    from dataclasses import replace

    from companion.vision.dice import _maybe_steeper, _unsure, read_dice
    from companion.vision.types import DiceReading
    img, labels = dev_photo(name, **frame)
    reading = read_dice(img, calibration)
    score = accuracy_benchmark().score_image(reading, labels)
    assert score["correct"] == len(labels) == dice and score["wrong"] == score["phantom"] == 0
    assert _unsure(reading)
    as_read = reading if reading.stretch is None else reading.moved(tuple(reading.stretch))
    assert not _maybe_steeper(as_read)
    squashed = DiceReading([replace(d, pips=tuple((x, 0.77 * y) for x, y in d.pips)) for d in as_read.dice],
                           list(as_read.uncertain), as_read.die_sizes)
    assert _maybe_steeper(squashed)


def test_a_steep_frame_read_on_one_die_at_its_own_slant_is_read_at_every_steeper_guess():
    # Three dark dice 62 degrees from overhead through a 53-degree webcam. Their pips measure
    # the frame at 1.43, short of its slant (2.13), and read one die there, a place asked
    # about. Read as if at 1.75, still one die, two places asked about: no better, yet
    # short of the slant too; at 2.3 all three are read. The steeper guesses stop at one
    # that reads the frame no better only where it was read on two dice or more
    # (``dice.PAST_THE_SLANT_DICE``): stopped at 1.75, one die was read of the three.
    img, labels = dev_photo("IMG_20191209_100605.jpg", frame="640x480", jpeg=80, tilt=62.0, field_of_view=53.0)
    reading = _assert_read(img, labels)
    assert accuracy_benchmark().score_image(reading, labels)["correct"] == len(labels) == 3


def test_the_settle_detector_looks_at_small_dice_enlarged_as_a_photo_is_looked_at():
    # The same five dice before a webcam, the hand gone and the tray still: its frames
    # differ by the sensor's noise. The detector reads its still frames as `companion dice
    # read` looks at a photo (the first as it is, the rest at its slant, or enlarged at the
    # one the first of them finds where it found none): all five are read, nothing asked.
    # (Before a frame whose pips show no slant was read as if told one, each frame read on
    # its own read three of them in one frame, shown unsure, and missed two.)
    from companion.vision.settle import SettleDetector
    stills, labels = _still_frames("IMG_20191209_095647.jpg", range(8), tilt=55.0, field_of_view=53.0)
    det = SettleDetector()
    det.arm()
    reports = [r for k, f in enumerate([hand_over(stills[0])] + stills) if (r := det.feed(f, k / 15))]
    assert len(reports) == 1
    assert accuracy_benchmark().score_image(reports[0], labels)["whole"]


def test_the_looks_after_the_first_enlarged_one_are_read_at_the_slant_it_found():
    # Three small dice 40 degrees from overhead: the first still frame shows no slant (pips a
    # pixel or two across), so the frames after it are read enlarged, the first of them
    # measuring its own: unsure of it, it reads itself again at each slant guessed and keeps
    # 1.3. The rest are read at that slant, as the frames after a first that found one are
    # at that one's. (Before, each looked for its own again, three reads more of a frame 1.5
    # times as large, four fifths of a look's time, and found none: five frames read
    # instead of three, and a place asked about where no die lies.)
    from companion.vision.settle import SettleDetector
    frame, labels = dev_photo("IMG_20191208_112905.jpg", frame="640x480", jpeg=80, tilt=40.0)
    # (the webcam's frames, each with its sensor's noise)
    stills = [np.clip(frame + np.random.default_rng(k).normal(0.0, 2.0, frame.shape), 0, 255).astype(np.uint8)
              for k in range(1, 11)]
    det = SettleDetector()
    det.arm()
    read, alone = det.reader, []
    det.reader = lambda still: alone.append(read(still)) or alone[-1]
    reports = [r for k, f in enumerate([hand_over(stills[0])] + stills) if (r := det.feed(f, k / 15))]
    assert [r.stretch for r in alone] == [None, (1.0, 1.3), (1.0, 1.3)]
    assert len(reports) == 1 and accuracy_benchmark().score_image(reports[0], labels)["whole"]


@pytest.mark.parametrize("name, frame, one", [
    # a red pip on blue marble, in the photo as it is
    ("IMG_20191208_112905.jpg", {}, (1265, 1730)),
    # a red pip on black marble, in a slanted webcam frame
    ("IMG_20191209_100127.jpg", {"frame": "640x480", "jpeg": 80}, (452, 271)),
])
def test_a_one_on_marbled_plastic_is_read(name, frame, one):
    # A 1's pip centred on its die, but the marbling around it is no plain face: alone, the
    # pip reader takes it for a logo ("a mark that is not a pip"). It is the 1 it looks
    # like if the face network, asked about a 1 there, reads one. (The first photo the
    # network never saw in training; it saw the second, though not as a webcam frame.)
    _assert_read(*dev_photo(name, **frame), [(1, *one)], _far_camera() if frame else None)


def test_red_pips_on_blue_dice_in_a_usb_webcams_raw_frame_are_read():
    # Red pips on blue plastic differ from it in colour, hardly in lightness. A JPEG's colour
    # (4:2:0: half the resolution both ways, coarsely quantized) smears them into marks that
    # are no pips, and these two small 5s seen steeply are asked about; OpenCV reads a USB
    # webcam as raw YUYV (colour halved across only, nothing compressed), where they are read.
    img, labels = dev_photo("IMG_20191208_111730.jpg", **dict(STEEP_WEBCAM, jpeg=0, yuyv=True))
    _assert_read(img, labels, [(5, 481, 197), (5, 419, 254)])


@pytest.mark.parametrize("name, ones", [("IMG_20191209_100150.jpg", [(325, 212)]),
                                        ("IMG_20191209_100155.jpg", [(231, 235), (365, 380)])])
def test_small_pips_the_first_coarse_pass_misses_are_looked_for_at_the_dice_size(name, ones):
    # Small gold dice with dark pips, 55 degrees from overhead through a 53-degree webcam:
    # the frame, stretched back, is over 900 px wide, so the first pass's pip filter is 31
    # px, wider than these dice. It outlines a die darker than the tray whole, as one dark
    # spot, and reads no face. With no pip read to size the second pass by, the dice's
    # bodies size it, and it finds these 1s' pips. (The network saw both photos in
    # training, but where no pip is found it may not read a 1: a keycap's letter looks
    # like one to it, ``outlines.flag_unread_shapes``.)
    _assert_read(*dev_photo(name, **STEEP_WEBCAM), [(1, *one) for one in ones])


@pytest.mark.parametrize("frame, one", [
    # a camera far from the tray
    ({"frame": "640x480", "jpeg": 80}, (215, 315)),
    # a webcam 53 degrees wide, 35 degrees from overhead, not calibrated
    ({"frame": "640x480", "jpeg": 80, "tilt": 35.0, "field_of_view": 53.13}, (435, 330)),
])
def test_a_die_leaning_on_one_read_is_read(frame, one):
    # A small blue 1 touching a green 4, in webcam frames: the pip reader reports nothing
    # on it, and the two dice are one blob whose centre is on the 4, read. The part off
    # the 4 is asked about, and the face network is sure of a 1 there in more than one
    # view. (A photo the network never saw in training.)
    _assert_read(*dev_photo("IMG_20191208_112353.jpg", **frame), [(1, *one)],
                 None if "tilt" in frame else _far_camera())


def test_two_small_dark_dice_touching_and_nothing_else_are_read():
    # A black 5 with red pips touching a blue 1, alone in a frame seen 40 degrees from
    # overhead: the pip reader reads neither, so the only size it has is the outline's of
    # the one blob the two make, a die's area but long and thin. It is two dice, and the
    # face network, asked about the places on it, reads both. (A photo the network never
    # saw in training.)
    _assert_read(*dev_photo("IMG_20191208_112704.jpg", frame="640x480", jpeg=80, tilt=40.0),
                 [(5, 281, 221), (1, 252, 241)])


def test_a_dark_die_through_a_soft_webcam_is_not_taken_for_a_coin():
    # A dark blue 6 with red pips, alone, in a frame seen 40 degrees from overhead through
    # a soft lens (a blur of 1 px): the pip reader reads nothing on it, and its blurred
    # outline is as round by its area and perimeter as a coin's, so the network was never
    # asked about it and it went unreported. It does not lie on an ellipse as a coin's
    # outline does: the network reads the 6. (A photo the network never saw in training.)
    _assert_read(*dev_photo("IMG_20191208_112239.jpg", frame="640x480", jpeg=80, tilt=40.0, blur=1.0),
                 [(6, 107, 236)])


@pytest.mark.parametrize("name", ["IMG_20191209_095613.jpg", "IMG_20191209_100147.jpg"])
def test_the_trays_rivets_are_not_asked_about_as_dice(name):
    # The tray's wall has two dark round rivets, ovals 20 px wide in a webcam frame seen 40
    # degrees from overhead: die-sized blobs by area. By area and perimeter they were not
    # round enough for rivets, and each was asked about as "die-shaped but no readable
    # pips" (in 12 of the 50 held-out frames). A small disc's outline is a staircase of
    # whole pixels, but it lies on an ellipse within half a pixel; a die's strays further.
    img, labels = dev_photo(name, frame="640x480", jpeg=80, tilt=40.0)
    reading = _assert_read(img, labels)
    assert not [u for u in reading.uncertain if min(math.hypot(u.x - 548, u.y - 62), math.hypot(u.x - 101, u.y - 60)) < 20]


@pytest.mark.parametrize("name", ["IMG_20191208_111228.jpg", "IMG_20191208_111352.jpg"])
def test_the_print_on_the_trays_rim_is_not_asked_about_as_dice(name):
    # The tray is a game box's lid, its rim printed with artwork whose specks fall in pips'
    # layouts. At 1000 px, as the reader takes a phone photo of the tray, 4 and 6 places on
    # the rim were asked about as "no die body around the pips" (every other dev photo,
    # three looks: 77 places in 18 of 125 photos). Where the network sees no face around
    # such marks either, nothing die-like is there; every die on the tray is still read.
    img, labels = dev_photo(name, size=1000)
    reading = _assert_read(img, labels)
    res = accuracy_benchmark().score_image(reading, labels)
    assert res["correct"] == len(labels)
    assert res["stray"] == 0


@pytest.mark.parametrize("name, blur, face", [("IMG_20191208_111730.jpg", 0.0, (6, 391, 151))])
def test_a_die_touching_others_that_nothing_reads_is_asked_about(name, blur, face):
    # A die touching others, in a webcam frame seen 40 degrees from overhead: the pip
    # reader reports nothing on it, and the face network, though it sees a face there, is
    # not sure of any. It was left out, as if no die lay there; it is asked about. (A
    # photo the network never saw in training. A second case, a 3 in a frame through a
    # soft lens, is read now: the frame is sharpened first, the next test.)
    img, labels = dev_photo(name, frame="640x480", jpeg=80, tilt=40.0, blur=blur)
    reading = _assert_read(img, labels)
    x, y, w, h = _label_box(labels, *face)
    assert [u for u in reading.uncertain if abs(u.x - x) < w / 2 and abs(u.y - y) < h / 2]


@pytest.mark.parametrize("name, frame, faces", [
    # a 3 touching others, through a lens 1 px soft: asked about, unsharpened
    ("IMG_20191209_095359.jpg", {"blur": 1.0}, [(3, 254, 191)]),
    # a 1 and a 6 among nine dice, through a 60-degree webcam 0.8 px soft: both asked about
    ("IMG_20191209_095745.jpg", {"blur": 0.8, "field_of_view": 60.0}, [(1, 357, 177), (6, 385, 200)]),
])
def test_a_soft_webcam_frame_is_sharpened_before_it_is_read(name, frame, faces):
    # Webcam frames seen 40 degrees from overhead through a soft lens: the edges of the
    # things off the tray measure over ``SOFT_EDGE`` px, so the frame is sharpened before it
    # is read, and these dice, asked about in the frame as it is, are read. (Photos the
    # network never saw in training.)
    from companion.vision.dice import SOFT_EDGE, read_dice
    from companion.vision.segment import edge_softness

    img, labels = dev_photo(name, frame="640x480", jpeg=80, tilt=40.0, **frame)
    assert edge_softness(img) > SOFT_EDGE
    reading = _assert_read(img, labels, faces)
    assert reading.sharpened
    as_it_is = read_dice(img, sharpen=False)
    for face in faces:
        assert not _read_in(as_it_is.dice, *face[:1], *_label_box(labels, *face))


def test_a_one_whose_body_takes_in_a_neighbours_edge_is_read():
    # A gold 1 touching a black die, seen 40 degrees from overhead: the gold of the body
    # found around its pip runs on along the black die's edge, so the body's centre is
    # off the pip and something shows opposite the pip -- as with one pip of a 2, a 1 is
    # ruled out there. But every view centred on the pip, at all three sizes, the face
    # network reads as a 1 at ACCEPT, where a view centred on one pip of a 2 takes in the
    # other at the largest size: it is read.
    # (A photo the network never saw in training.)
    _assert_read(*dev_photo("IMG_20191208_111904.jpg", frame="640x480", jpeg=80, tilt=40.0), [(1, 481, 297)])


@pytest.mark.parametrize("name, one", [
    # a white 1 below a blue die, on the pale tray: its outline, small and soft, is a disc's
    ("IMG_20191208_111919.jpg", (339, 176)),
    # a yellow 1 on green marble: the body found around the pip leaves out the marbling,
    # and fills too little of its box to be a die's (a photo the network never saw in
    # training)
    ("IMG_20191208_111730.jpg", (402, 278)),
])
def test_a_one_whose_body_is_not_die_shaped_is_asked_of_the_network(name, one):
    # A lone pip on a body that is not die-shaped was dropped as a coin's or a button's,
    # and nothing was read or asked about there. It is now a place the face network looks,
    # reading a 1 only where it is sure of one in two views (a coin it reads as no face).
    _assert_read(*dev_photo(name, frame="640x480", jpeg=80, tilt=40.0), [(1, *one)])


@pytest.mark.parametrize("name, one", [
    # a white 1 on purple, a glint running into its pip
    ("IMG_20191209_095421.jpg", (372, 229)),
    # a red 1 on blue marble
    ("IMG_20191208_111702.jpg", (421, 217)),
])
def test_a_one_whose_pip_is_not_round_with_something_opposite_is_read_where_the_network_is_sure(name, one):
    # A 1's pip that is not round (run into a glint or the marbling), with something
    # opposite it through the body's centre (marbling, the near side's edge), was taken for
    # one pip of a 2 on a logo face: a 1 was ruled out, though the face network read a 1
    # all round it. As with a round pip off the body's centre, the network may now read a 1
    # there if it does in every view centred on the pip, at all three sizes: a view centred
    # on one pip of a 2 takes in the other at the largest.
    _assert_read(*dev_photo(name, frame="640x480", jpeg=80, tilt=40.0), [(1, *one)])


def test_pips_showing_no_face_on_a_body_not_die_shaped_are_not_taken_for_the_die_beside_them():
    # A brown marbled 3 touching a red 6 just below it, seen 55 degrees from overhead: its
    # pips and one more spot are four in no face's layout, on a body that is not
    # die-shaped. The face network, looking around them, reads the 6 below nearly surely
    # in several views; were that enough, the place would be the 6 seen again and dropped,
    # and the 3 go unreported. It is asked about.
    from companion.vision.dice import read_dice

    img, labels = dev_photo("IMG_20191208_111730.jpg", frame="640x480", jpeg=80, tilt=55.0)
    reading = read_dice(img)
    assert accuracy_benchmark().score_image(reading, labels)["wrong"] == 0
    box = _label_box(labels, 3, 386, 197)
    x, y, w, h = box
    assert any(abs(u.x - x) < w / 2 and abs(u.y - y) < h / 2 for u in reading.uncertain) \
        or _read_in(reading.dice, 3, *box)


def test_a_die_whose_pips_read_fewer_than_the_face_the_network_is_sure_of_is_that_face():
    # A yellow 6 seen 40 degrees from overhead, in the tray's corner: the pip reader reads
    # a 4 (two of its six pips not found), and the face network is sure of a 6,
    # which holds the 4's pips and more. It is read as the 6. (A photo the network never
    # saw in training.)
    _assert_read(*dev_photo("IMG_20191208_113019.jpg", frame="640x480", jpeg=80, tilt=40.0), [(6, 131, 151)])


@pytest.mark.parametrize("name, face", [
    # a green 3 read as a 2, one of its pips not found
    ("IMG_20191209_100645.jpg", (3, 262, 238)),
])
def test_a_die_whose_pips_read_one_fewer_than_the_face_the_network_overrules_them_with_is_that_face_to_accept(
        name, face):
    # Seen 55 degrees from overhead, the pip reader reads one pip fewer than the face
    # shows, and the face network reads the fuller face (which holds the pips found) surely
    # enough to overrule them, but not all but surely. The players were asked to read the
    # die; it is now read as the fuller face, shown at a confidence they press once to
    # accept. (The camera's field of view given, 37 degrees as these views are made: read
    # as for the 45 assumed, the 3 comes out sure enough to need no overruling.)
    from companion.vision.calibration import Calibration
    from companion.vision.face_net import FULLER_SHOWN

    reading = _assert_read(*dev_photo(name, frame="640x480", jpeg=80, tilt=55.0), [face],
                           Calibration(field_of_view=36.87))
    value, fx, fy = face
    die, = [d for d in reading.dice if d.value == value and math.hypot(d.x - fx, d.y - fy) < 12]
    assert die.confidence <= FULLER_SHOWN


def test_the_near_side_of_a_die_left_uncertain_is_not_read_as_another_die():
    # A white 1 in a slanted webcam frame, its near side (a 2) showing below it. The 1's
    # pip has the side's pips around it, so the die is left uncertain, the spot placed at
    # the centre of its outline, which takes in the side. Stretched back, the side's pips
    # are round, and the face network too reads them as a 2. They are the side of the die
    # whose top face lies half the sides' drop above that spot. (A photo the network saw
    # in training, though not as a webcam frame.)
    _assert_read(*dev_photo("IMG_20191208_112214.jpg", frame="640x480", jpeg=80), calibration=_far_camera())


@pytest.mark.parametrize("name, frame, face", [
    # a yellow 2 just below a blue 5, in a webcam frame squeezed as from 40 degrees
    ("IMG_20191208_111446.jpg", {"frame": "640x480", "jpeg": 95}, (2, 539, 161)),
    # a red 6 just below a brown 3, seen 40 degrees from overhead
    ("IMG_20191208_111730.jpg", {"frame": "640x480", "jpeg": 80, "tilt": 40.0}, (6, 394, 202)),
])
def test_a_die_just_below_another_of_another_colour_is_not_taken_for_its_side(name, frame, face):
    # At a slant, a face read closer below a die than two touching dice stand may be that
    # die's near side; but a side is its die's own plastic, and these faces are another
    # colour: each is read. (Photos the network never saw in training.)
    _assert_read(*dev_photo(name, **frame), [face])


@pytest.mark.parametrize("name, frame, face", [
    # a purple 1 just below a maroon 2, 40 degrees from overhead through a 60-degree webcam
    ("IMG_20191208_111411.jpg", {"frame": "640x480", "jpeg": 80, "tilt": 40.0, "field_of_view": 60.0}, (1, 453, 138)),
    # the same through a 53-degree webcam 55 degrees from overhead
    ("IMG_20191208_111411.jpg", STEEP_WEBCAM, (1, 451, 165)),
    # a purple 2 just below a maroon 4, 40 degrees from overhead
    ("IMG_20191208_111919.jpg", {"frame": "640x480", "jpeg": 80, "tilt": 40.0}, (2, 336, 243)),
])
def test_a_dark_die_just_below_another_of_another_hue_is_not_taken_for_its_side(name, frame, face):
    # Each face lies closer below a die than two touching dice stand, and darker: both dice
    # are near grey, and by lightness and colour alone the purple is the maroon in shade.
    # But a die's side keeps its top's hue, and these two lie 44-62 degrees apart: each is
    # read, where it was dropped as the die's side, or asked about as one. (Photos the
    # network was trained on, as they are and as webcam views: neither is held out.)
    _assert_read(*dev_photo(name, **frame), [face])


@pytest.mark.parametrize("name, frame, face", [
    # a green 2 with a streak of glare across it, in the photo as it is
    ("IMG_20191209_095717.jpg", {}, (2, 822, 1097)),
    # a purple 2 seen 40 degrees from overhead
    ("IMG_20191209_100409.jpg", {"frame": "640x480", "jpeg": 80, "tilt": 40.0}, (2, 205, 223)),
])
def test_a_die_whose_pips_the_reader_doubts_is_read_where_the_network_reads_it_steadily(name, frame, face):
    # The pip reader does not take the pips of either 2 for one face (the glare runs
    # between them; the JPEG smears them), and a lone pip with marks around it is no 1 to
    # it: "a mark that is not a pip", on a die's body. The face network is not all but sure
    # of the 2 in any one view, but nearly sure in several around it: the 2 is read.
    # (Photos the network never saw in training.)
    _assert_read(*dev_photo(name, **frame), [face])


def test_a_dark_die_whose_pips_the_reader_takes_for_marks_is_read_where_the_network_reads_it_turned():
    # A dark marbled 2 with red pips, 40 degrees from overhead through a 53-degree webcam:
    # the pip reader finds a lone spot on its body among marks it takes for no pips ("a
    # mark that is not a pip"). The network, not sure enough of the 2 in any view as it
    # is, reads it alike in each view's four quarter turns: the 2 is read, shown for the
    # players to accept with a press. (A photo the network never saw in training.)
    from companion.vision.face_net import TURNED_SHOWN

    frame = {"frame": "640x480", "jpeg": 80, "tilt": 40.0, "field_of_view": 53.0}
    reading = _assert_read(*dev_photo("IMG_20191208_111642.jpg", **frame), [(2, 449, 184)])
    assert [d.confidence for d in reading.dice if abs(d.x - 449) < 10 and abs(d.y - 184) < 10] == [TURNED_SHOWN]


@pytest.mark.parametrize("tilt, seed, face", [(40.0, 0, (4, 213, 247)), (0.0, 1, (4, 426, 247))])
def test_a_lone_die_whose_pips_noise_breaks_up_is_read_by_the_network(tilt, seed, face):
    # One white 4 in a webcam frame with a sensor's noise: the pip reader reads no face and
    # finds no die body around the pips it sees, so no die's size is known. The outline
    # the pips lie on gives it: the face network reads the 4. (A photo the network never
    # saw in training.)
    frame = {"frame": "640x480", "jpeg": 80, "tilt": tilt, "noise": 3.0, "seed": seed}
    _assert_read(*dev_photo("IMG_20191208_112554.jpg", **frame), [face])


@pytest.mark.parametrize("name", ["IMG_20191208_112510.jpg", "IMG_20191209_100211.jpg"])
def test_a_lone_pip_off_its_dies_centre_is_not_read_as_a_one(name):
    # Two 2s in slanted webcam frames, one pip of each lost to the JPEG: the pip found
    # lies off its die's centre, so the pip reader reads no 1 there. The face network, in
    # a view shifted onto that pip, read a 1 all but surely. But opposite the pip through
    # the face's centre something other than the body shows (the lost pip), and every face
    # but the 1 has a pip there: the network may read any face there but a 1. (Photos the
    # network saw in training, though not as webcam frames.)
    _assert_read(*dev_photo(name, frame="640x480", jpeg=80))


@pytest.mark.parametrize("name", ["IMG_20191209_095421.jpg", "IMG_20191209_100602.jpg"])
def test_glare_where_a_face_has_no_pip_is_not_taken_for_a_missed_pip(name):
    # Glossy red dice with white pips: the glare across a 2 and on the middle of a 4 is as
    # white as the pips, just where a 3's and a 5's middle pip would be. The face network
    # too reads those faces as 3 and 5 (though it was trained on these photos), so only the
    # reader's rule that a light pip it missed must be no bigger than a pip (glare is a
    # streak or a patch) keeps them from being read so.
    _assert_read(*dev_photo(name))


@pytest.mark.parametrize("name", ["IMG_20191208_111642.jpg", "IMG_20191208_111904.jpg"])
def test_a_calibrated_logo_face_is_not_read_where_pips_were_missed(name):
    # These dice have no logo, but in slanted webcam frames several show one pip found
    # among others that were not: "a mark that is not a pip" on a die body, as a logo is.
    # With a logo face calibrated (here the 6), those must not be read as the logo's
    # value: the face network sees a pip face there, which it never sees on a logo.
    from companion.vision.calibration import Calibration
    from companion.vision.dice import read_dice

    img, labels = dev_photo(name, frame="640x480", jpeg=80)
    res = accuracy_benchmark().score_image(read_dice(img, Calibration(logo_value=6)), labels)
    assert res["wrong"] == res["phantom"] == 0


@pytest.mark.parametrize("camera", ["webcam", "wide", "recoloured"])
def test_training_webcam_views_keep_their_labels_on_the_dice(tmp_path, camera):
    # The face network learns webcam frames from views of the dev photos, turned so the
    # camera stands on any side of the tray and seen in perspective (also through a wide
    # webcam near the tray, seen steeply: ``train_faces --wide``; and with the colour
    # channels shuffled before the JPEG: ``--recolour``): a label that did not follow its
    # die through the turn and the warp would teach the network wrong faces.
    import numpy as np

    from companion.vision import train_faces
    from companion.vision.dice import read_dice

    name = "IMG_20191208_112305"
    for ext in ("jpg", "txt"):
        os.symlink(os.path.join(DEV, f"{name}.{ext}"), tmp_path / f"{name}.{ext}")
    where = {"wide": (train_faces.WIDE_TILTS, train_faces.WIDE_DISTANCES)}.get(
        camera, (train_faces.WEBCAM_TILTS, train_faces.WEBCAM_DISTANCES))
    views = train_faces.webcam_views(str(tmp_path), 0, 4, np.random.default_rng(2), *where,
                                     recolour=1.0 if camera == "recoloured" else 0.0)
    assert len(views) == 4
    matched = read = 0
    for frame, dice in views:
        assert dice
        for d in read_dice(frame).dice:
            read += 1
            # (a label's box is its longer side; the die's centre lies within half of it)
            matched += any(v == d.value and abs(d.x - x) < box / 2 and abs(d.y - y) < box / 2
                           for v, x, y, box in dice)
    # (labels that did not follow would leave next to none matched; the reader itself
    # misreads one die in these four views, a 1 as a 2 at the far edge)
    assert read >= 12 and matched >= 0.9 * read
    # The grey tray fills most of each view, a little warm in this photo (more red than
    # green, more green than blue), and its colours keep that order unless the view's
    # channels were shuffled.
    orders = [tuple(np.argsort(frame.reshape(-1, 3).mean(axis=0))) for frame, _ in views]
    assert any(o != (0, 1, 2) for o in orders) == (camera == "recoloured")


# --- a still tray through a webcam's noise (the settle detector) -----------------------------

def _still_frames(name: str, seeds: range, tilt: float = 40.0, **view) -> tuple[list, list]:
    """Dev photo ``name`` as a webcam ``tilt`` degrees from overhead (and as ``view`` says
    more of it: ``vision_accuracy.as_frame``) would give it again and again while the tray
    lies still: frames differing only by sensor noise (sigma 2, one seed each), and the
    labels."""
    frames = [dev_photo(name, frame="640x480", tilt=tilt, jpeg=80, noise=2.0, seed=s, **view) for s in seeds]
    return [f for f, _ in frames], frames[0][1]


def test_a_still_tray_through_a_webcams_noise_is_read_once_as_soon_as_it_is_still():
    # Read frame by frame, these trays' borderline dice come and go with the noise (a faint
    # or marbled pip passes the reader's thresholds in one frame and not the next), so that
    # waiting for three readings alike may read such a tray late or never.
    # Pooled place by place, the tray is read once, after ``still_time`` and three frames
    # (five where one of them alone read a die: ``pooling.MORE_LOOKS``), at least as well as
    # the best of those frames read alone (as the detector read them: these dice are small,
    # so all but the first enlarged), and nothing wrong.
    from companion.vision.pooling import MORE_LOOKS
    from companion.vision.settle import SettleDetector

    score = accuracy_benchmark().score_image
    for name in ("IMG_20191208_112404.jpg", "IMG_20191209_095910.jpg"):
        stills, labels = _still_frames(name, range(12))
        det = SettleDetector()
        det.arm()
        read, alone = det.reader, []
        det.reader = lambda frame: alone.append(read(frame)) or alone[-1]
        reports = [(k, r) for k, f in enumerate([hand_over(stills[0])] + stills)
                   if (r := det.feed(f, k / 15)) is not None]
        # (the first still frame differs from the hand's: still from the second, 1/15 s on;
        # 0.25 s later the sixth is read, and the seventh and eighth; the ninth and tenth
        # too where one of those alone read a die)
        assert len(alone) in (det.still_reads, det.still_reads + MORE_LOOKS)
        assert [k for k, _ in reports] == [5 + len(alone)]
        res = score(reports[0][1], labels)
        assert res["wrong"] == res["phantom"] == 0
        right = [score(r, labels)["correct"] for r in alone]
        assert res["correct"] >= max(right) and res["correct"] > min(right)


@pytest.mark.parametrize("name", ["IMG_20191208_111904.jpg", "IMG_20191209_095431.jpg"])
def test_a_still_tray_whose_first_two_frames_agree_is_read_a_frame_sooner(name):
    # Held-out trays of 9 and 10 dice through a webcam's noise: the first two still frames
    # read every die alike and ask nothing, so they are the reading (``AGREEING_LOOKS``),
    # a frame sooner than three; every die is right, and a third frame would change nothing.
    from companion.vision.pooling import AGREEING_LOOKS, pooled
    from companion.vision.settle import SettleDetector

    score = accuracy_benchmark().score_image
    stills, labels = _still_frames(name, range(8))
    det = SettleDetector()
    det.arm()
    read, alone = det.reader, []
    det.reader = lambda frame: alone.append(read(frame)) or alone[-1]
    reports = [(k, r) for k, f in enumerate([hand_over(stills[0])] + stills) if (r := det.feed(f, k / 15)) is not None]
    # (still from the second frame, 1/15 s on; 0.25 s later the sixth is read, and the seventh)
    assert len(alone) == AGREEING_LOOKS and [k for k, _ in reports] == [5 + AGREEING_LOOKS]
    reading = reports[0][1]
    assert score(reading, labels)["whole"]
    third = pooled(alone + [read(stills[5 + AGREEING_LOOKS])])
    assert sorted(reading.values) == sorted(third.values) and third.uncertain == []


def test_a_hand_over_a_still_tray_through_a_webcams_noise_does_not_repeat_the_roll():
    # The readings after the hand has gone differ from the reported one by the noise (a die
    # read then is uncertain now, or not seen at all): the frames show the dice have not
    # moved, so the roll is not reported again.
    from companion.vision.settle import SettleDetector

    stills, _ = _still_frames("IMG_20191208_111730.jpg", range(36))
    det = SettleDetector(auto_rearm=True)
    det.arm()
    seq = [hand_over(stills[0])] + stills[:12] + [hand_over(stills[12])] + stills[12:24] \
        + [hand_over(stills[24])] + stills[24:]
    # (read from the sixth frame on: one of the first three alone read a die, so five frames
    # are read, ``pooling.MORE_LOOKS``)
    assert [k for k, f in enumerate(seq) if det.feed(f, k / 15) is not None] == [10]


def test_small_dice_in_a_steep_webcam_frame_are_read_by_a_look_at_it_enlarged():
    # Five dice 18-24 px wide, through a 53-degree webcam 55 degrees from overhead. Every
    # look at the frame as it is found the 5 (22 px wide) "die-like, but its face cannot be
    # read". ``companion dice read``'s looks after the first, at the frame enlarged (its
    # dice are small), read it: the roll is read whole. Read by two looks of three, the 5 is
    # taken as the controller takes a sure die (its ``min_confidence``, 0.8); with only the
    # last look enlarged, it was shown at a third of that, for the players to confirm.
    # (A photo the network never saw in training.)
    from companion.vision.dice import read_dice
    from companion.vision.pooling import read_still

    img, labels = dev_photo("IMG_20191208_112455.jpg", **STEEP_WEBCAM)
    box = _label_box(labels, 5, 211, 260)
    assert not _read_in(read_dice(img).dice, 5, *box)
    still = read_still(img)
    assert accuracy_benchmark().score_image(still, labels)["whole"]
    assert _read_in([d for d in still.dice if d.confidence >= 0.8], 5, *box)


def test_dice_one_behind_the_other_in_a_steep_webcam_frame_are_read_as_two():
    # Through a 53-degree webcam 55 degrees from overhead, a 4 lies just behind a 6: 13-15
    # px apart in the frame, under 0.6 of the dice's side (27 px as the reader measures
    # it), but a side apart on the tray. Every look reads both. Taken for one die read at
    # two places of its face, they were asked about as one die "read as 4 and as 6", and
    # the other was lost. (A photo the network never saw in training.)
    from companion.vision.pooling import read_still

    img, labels = dev_photo("IMG_20191209_095745.jpg", **STEEP_WEBCAM)
    assert accuracy_benchmark().score_image(read_still(img), labels)["whole"]


@pytest.mark.parametrize("name, frame, value, x, y", [
    ("IMG_20191208_112353.jpg", dict(frame="640x480", jpeg=80), 5, 464, 254),
    ("IMG_20191208_111833.jpg", STEEP_WEBCAM, 5, 218, 148),
    ("IMG_20191209_095735.jpg", STEEP_WEBCAM, 2, 168, 286),
])
def test_a_die_the_network_reads_only_nearly_sure_is_shown_for_the_players_to_accept(name, frame, value, x, y):
    # Dark marbled dice whose pips the pip reader could not read as a face (a mark it took
    # for no pip, three pips not in a line), squeezed into 4:3 or through a 53-degree
    # webcam 55 degrees from overhead. The network reads each in three views around the
    # spot at 0.85-0.89, as a face with one pip more (a glint or the marbling taken for a
    # pip): the 5s as a 4 and a 6, the 2 as a 3. They were shown at 0.85-0.87, over the
    # controller's bar (0.8), which takes them unasked; now under it
    # (``face_net.STEADY_SHOWN``), for the players to put right. (The first photo the
    # network never saw in training.)
    from companion.controller import Settings
    from companion.vision.dice import read_dice

    img, labels = dev_photo(name, **frame)
    reading = read_dice(img)
    bx, by, bw, bh = _label_box(labels, value, x, y)
    there = [d for d in reading.dice if abs(d.x - bx) <= 0.575 * bw and abs(d.y - by) <= 0.575 * bh]
    assert there and all(d.confidence < Settings().min_confidence for d in there)
    assert not accuracy_benchmark().score_image(reading, labels)["taken_wrong"]


def test_a_die_just_behind_one_read_in_a_steep_webcam_frame_is_asked_about_not_missed():
    # Through a 53-degree webcam 55 degrees from overhead, a far 5 whose pips no look reads
    # lies just behind a die read; each look asks about it. Taken for that die seen again,
    # it was dropped: 17 of the 18 dice read right and the 5 missed, silently. (A photo the
    # network never saw in training.)
    from companion.vision.pooling import read_still

    img, labels = dev_photo("IMG_20191208_111446.jpg", **STEEP_WEBCAM)
    res = accuracy_benchmark().score_image(read_still(img), labels)
    assert "missed" not in res["outcomes"] and res["wrong"] == res["phantom"] == 0


def test_small_far_dice_in_a_steep_webcam_frame_are_looked_at_though_no_face_was_read():
    # Through a 53-degree webcam 55 degrees from overhead, four dice about 25-33 px wide
    # lie at the tray's far end: a white 4, a red 1 and a dark blue 4 apart, and a dark 6
    # touching the white 4. The pips read no face there, so no die's size is known, and a
    # die-shaped outline is one of a thirtieth of the frame's shorter side or more: 16 px
    # in this 640x480 frame. Measured on the picture it is read as instead (stretched back
    # from the slant and flattened, 929 px wide), those dice fell short of it and were not
    # looked at: the white 4 and the red 1 went unreported. Now the network reads the
    # white 4, and the red 1 and the blue 4 are asked about. (A photo the network never saw
    # in training.)
    img, labels = dev_photo("IMG_20191208_112431.jpg", **STEEP_WEBCAM)
    reading = _assert_read(img, labels, [(4, 296, 152)])
    for value, x, y in [(1, 187, 153), (4, 174, 172)]:
        bx, by, bw, bh = _label_box(labels, value, x, y)
        assert any(abs(u.x - bx) <= 0.575 * bw and abs(u.y - by) <= 0.575 * bh for u in reading.uncertain)


@pytest.mark.parametrize("name, tilt", [("IMG_20191209_095439.jpg", 55.0), ("IMG_20191208_112251.jpg", 40.0)])
def test_a_die_cut_off_by_a_steep_frames_edge_is_asked_about_once_on_the_edge(name, tilt):
    # Through a 53-degree webcam 55 or 40 degrees from overhead, a die lies cut off by the
    # frame's left edge (no label: the photo's die is mostly out of the frame). The frame is
    # read flattened, and beyond its edges the flattened picture runs on with their pixels.
    # Before, the red die at 55 degrees was asked about five times, 8 to 218 px left of the
    # frame, along the streak its edge ran on in; the white one at 40 was read as a 1, its
    # centre a pixel outside the frame.
    from companion.vision.pooling import read_still

    img, labels = dev_photo(name, **dict(STEEP_WEBCAM, tilt=tilt))
    reading = read_still(img)
    h, w = img.shape[:2]
    assert all(0 <= t.x <= w and 0 <= t.y <= h for t in [*reading.dice, *reading.uncertain])
    res = accuracy_benchmark().score_image(reading, labels)
    assert res["wrong"] == res["phantom"] == 0
    assert len([u for u in reading.uncertain if u.x < 1]) == 1


def test_small_dice_in_a_big_photo_are_read_by_a_look_at_more_of_its_own_pixels():
    # A phone's photo of the table from twice as far, 4000 px square: three dice about 20 px
    # wide as the reader works on it (shrunk to 1000 px), and the first look at that reads
    # one of them. The looks after it take 1.5 times as many of the photo's own pixels and
    # read the roll whole. (Before, they enlarged the shrunk picture, and the reader shrank
    # it straight back: no die was read.) (A photo the network never saw in training.)
    from companion.vision.dice import read_dice
    from companion.vision.pooling import read_still

    img, labels = dev_photo("IMG_20191208_112905.jpg", size=4000, jpeg=90, far=2.0)
    assert len(read_dice(img).dice) < len(labels)
    assert accuracy_benchmark().score_image(read_still(img), labels)["whole"]


@pytest.mark.parametrize("name", ["IMG_20191208_112704.jpg", "IMG_20191209_100147.jpg"])
def test_dice_a_fiftieth_of_a_phone_photo_are_found_by_a_finer_first_filter(name):
    # A phone's photo of the table from twice as far: dark and gold dice about 20 px wide in
    # the 1000 px picture the reader works on, a fiftieth of it. The first pip filter, sized
    # for dice a thirtieth of the picture or more, saw each dark die as one dark spot:
    # ``companion dice read`` read neither die of the first photo and three of the six of
    # the second, the rest missed without a word. A first filter half as wide, where the
    # coarse one read nothing, reads the rolls whole. (Photos the network never saw in
    # training.)
    from companion.vision.pooling import read_still

    img, labels = dev_photo(name, size=4000, jpeg=90, far=2.0)
    assert accuracy_benchmark().score_image(read_still(img), labels)["whole"]


def test_a_die_size_calibrated_without_a_frame_size_is_the_photos_own():
    # A calibration may give the dice's size and no frame size (written by hand): it is the
    # size in the picture given, as ``read_dice`` takes it, in every look ``companion dice
    # read`` takes at the photo, whatever size that look reads it at. Said to be 80 px in
    # the 4000 px photo above, with or without its size, every die reads right and the same.
    # (The five looks it takes, one of three having read the 1, ask about a mark beside
    # the dice that three of them took for pips: ``pooling.MORE_LOOKS``.)
    # (Taken as the size in the 1000 px picture the first look works on, four times too
    # big, the 1 was asked about.)
    from companion.vision.calibration import Calibration
    from companion.vision.pooling import read_still

    img, labels = dev_photo("IMG_20191208_112905.jpg", size=4000, jpeg=90, far=2.0)
    told, sized = (read_still(img, Calibration(die_size=80.0, frame_size=size))
                   for size in (None, [4000, 4000]))
    res = accuracy_benchmark().score_image(told, labels)
    assert res["correct"] == len(labels) and res["wrong"] == res["phantom"] == 0
    assert [(d.value, round(d.x), round(d.y)) for d in told.dice] == \
        [(d.value, round(d.x), round(d.y)) for d in sized.dice]


def test_dice_read_looks_at_a_photo_as_at_a_still_tray(tmp_path, capsys):
    # ``companion dice read`` reads a photo as the settle detector reads a still tray: as it
    # is and with a webcam's noise, pooled. A die one reading leaves uncertain (red pips
    # on black marble, taken for pips of different colours; dim red pips on black, too
    # faint) is read by the others; nothing is read wrong, and the same photo always reads
    # the same.
    import json

    import cv2

    from companion.cli import main
    from companion.vision.dice import read_dice
    from companion.vision.types import DiceReading, Die, Uncertain

    score = accuracy_benchmark().score_image
    for name, (value, fx, fy) in (("IMG_20191209_095910.jpg", (3, 507, 336)),
                                  ("IMG_20191208_111816.jpg", (3, 120, 151))):
        img, labels = dev_photo(name, frame="640x480", tilt=40, jpeg=80)
        path = str(tmp_path / "frame.png")
        cv2.imwrite(path, img)
        assert main(["dice", "read", path, path, "--json"]) == 0
        first, again = (json.loads(line) for line in capsys.readouterr().out.splitlines())
        assert first == again
        looked = DiceReading([Die(d["value"], d["x"], d["y"], d["confidence"]) for d in first["dice"]],
                             [Uncertain(u["x"], u["y"], u["reason"]) for u in first["uncertain"]])
        once = read_dice(img)
        res = score(looked, labels)
        assert res["wrong"] == res["phantom"] == 0
        assert res["correct"] > score(once, labels)["correct"]
        box = _label_box(labels, value, fx, fy)
        assert _read_in(looked.dice, value, *box) and not _read_in(once.dice, value, *box)


def test_a_known_die_size_reads_the_pips_at_their_own_size_too():
    # A die's size does not give its pips' (``dice._read_stretched``): told the size
    # ``companion calibrate`` measured for this camera (a 53-degree webcam 55 degrees from
    # overhead), and read with only the pip filter that size implies, one of these seven
    # dice was read wrong. Read also in the two passes the reader takes where no size is
    # known, every die reads right and nothing is asked about.
    from companion.vision.calibration import Calibration
    from companion.vision.pooling import read_still

    img, labels = dev_photo("IMG_20191208_112224.jpg", **STEEP_WEBCAM, seed=54)
    told = Calibration(die_size=29.4, frame_size=[640, 480], field_of_view=53.0, stretch=[1.0, 1.837],
                       tray=[0.0, 0.0992, 1.0, 0.9008])
    res = accuracy_benchmark().score_image(read_still(img, told), labels)
    assert res["correct"] == len(labels) == 7 and res["whole"]
