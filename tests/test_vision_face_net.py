"""The face network: the second reader that must agree before a die stands, and that reads
what the pip reader could not only when it is sure."""

import math

import numpy as np
import pytest

from companion.vision.calibration import Calibration
from companion.vision.dice import read_dice
from companion.vision.face_net import (ACCEPT, BATCH, CROP_PX, FULLER_SHOWN, STEADY_SHOWN, TURNED_SHOWN, UNREAD_REASON,
                                       FaceNet, face_crop, second_opinion)
from companion.vision.render import render_scene
from companion.vision.types import DiceReading, Die, Uncertain


@pytest.fixture(scope="module")
def net():
    return FaceNet()


def test_crop_is_centred_on_the_point_and_survives_the_frame_edge():
    img = np.zeros((200, 300, 3), np.uint8)
    img[70:91, 140:161] = 255                       # a bright square centred on (150, 80)
    crop = face_crop(img, 150, 80, 60)
    assert crop.shape == (CROP_PX, CROP_PX, 3)
    mid = CROP_PX // 2
    assert crop[mid, mid].min() == 255 and crop[2, 2].max() == 0
    # Half the square's width is 10 px of 60: 8 px of the crop's 48.
    assert crop[mid, mid + 6].min() > 200 and crop[mid, mid + 11].max() < 60
    corner = face_crop(img, 1, 1, 60, angle_deg=30)
    assert corner.shape == (CROP_PX, CROP_PX, 3)


def _scene(seed, **style):
    values = [int(v) for v in np.random.default_rng(seed).integers(1, 7, 5)]
    frame, truth = render_scene(values, seed=seed, die_size=44, **style)
    return frame, truth["dice"]


@pytest.mark.parametrize("style", [{}, {"die_colour": "mixed"}, {"tilt": 0.25, "side": 0.3},
                                   {"blur": 0.8, "noise": 4}])
def test_network_reads_rendered_faces(net, style):
    right = total = 0
    for seed in range(4):
        frame, dice = _scene(seed, **style)
        probs = net.probabilities(frame, [(x, y) for _, x, y in dice], side=44)
        right += sum(int(np.argmax(p)) == v - 1 for (v, _, _), p in zip(dice, probs))
        total += len(dice)
    assert right >= 0.9 * total


def test_a_misread_die_is_overruled_and_becomes_uncertain(net):
    frame, dice = _scene(7)
    (v0, x0, y0), rest = dice[0], dice[1:]
    wrong = v0 % 6 + 1
    reading = DiceReading([Die(wrong, x0, y0, 0.9)] + [Die(v, x, y, 0.9) for v, x, y in rest],
                          die_sizes=[44.0])
    checked = second_opinion(frame, reading, net=net)
    assert [(u.x, u.y) for u in checked.uncertain] == [(x0, y0)]
    assert f"pips say {wrong}" in checked.uncertain[0].reason
    assert sorted(d.value for d in checked.dice) == sorted(v for v, _, _ in rest)


def test_a_clear_face_left_uncertain_is_read_when_the_network_is_sure(net):
    frame, dice = _scene(11)
    (v0, x0, y0), rest = dice[0], dice[1:]
    reading = DiceReading([Die(v, x, y, 0.9) for v, x, y in rest],
                          [Uncertain(x0, y0, "pips of one face not all linked")], die_sizes=[44.0])
    checked = second_opinion(frame, reading, net=net)
    assert not checked.uncertain
    # (placed where the network saw the face best: near the face's centre)
    assert any(d.value == v0 and abs(d.x - x0) < 15 and abs(d.y - y0) < 15 for d in checked.dice)


def test_a_value_the_pips_showed_stands_only_if_the_network_agrees(net):
    frame, dice = _scene(11)
    (v0, x0, y0), rest = dice[0], dice[1:]
    read = [Die(v, x, y, 0.9) for v, x, y in rest]
    agreed = second_opinion(frame, DiceReading(read, [Uncertain(x0, y0, "too blurred", v0)], [44.0]), net=net)
    assert sorted(d.value for d in agreed.dice) == sorted(v for v, _, _ in dice) and not agreed.uncertain
    # The network is sure of v0 here (see above), but the pips showed another value: the
    # two readers disagree, so the die stays uncertain rather than take either word.
    wrong = v0 % 6 + 1
    disputed = second_opinion(frame, DiceReading(read, [Uncertain(x0, y0, "too blurred", wrong)], [44.0]),
                              net=net)
    assert sorted(d.value for d in disputed.dice) == sorted(v for v, _, _ in rest)
    assert [(u.x, u.y) for u in disputed.uncertain] == [(x0, y0)]


class _Says:
    """A stand-in for the network that gives every view ``p`` for face ``value``."""

    def __init__(self, value, p):
        self.row = np.full(7, (1.0 - p) / 6, np.float32)
        self.row[value - 1] = p

    def crop_probabilities(self, img, views):
        return np.tile(self.row, (len(views), 1))


@pytest.mark.parametrize("p, read", [(0.9, False), (0.97, True)])
def test_pips_with_no_die_seen_around_them_need_the_network_as_sure_as_alone(p, read):
    # Two specks on a dark cloth show a 2 as well as a die's pips do; where no die body was
    # found around them, agreeing with them is no evidence, so the network must be as sure
    # as when it reads alone (ACCEPT). A doubt about a die that is there (a blur) needs
    # only agreement (AGREE).
    frame = np.zeros((200, 200, 3), np.uint8)
    bodiless = frozenset({"no die body"})
    for reason, needs_accept in (("no die body", True), ("too blurred", False)):
        reading = DiceReading([], [Uncertain(100, 100, reason, 2)], [40.0])
        checked = second_opinion(frame, reading, net=_Says(2, p), bodiless=bodiless)
        becomes_a_die = read or not needs_accept
        assert [d.value for d in checked.dice] == ([2] if becomes_a_die else [])
        assert len(checked.uncertain) == (0 if becomes_a_die else 1)


@pytest.mark.parametrize("seen, asked", [(0.3, False), (0.6, True)])
def test_pips_with_no_die_body_are_asked_about_only_where_the_network_sees_a_face(seen, asked):
    # Marks in a 2's layout printed on a game box's rim: no die body around them, and the
    # network sees little of any face there. The players are not asked about them; marks
    # it sees a face in are asked about, and so are pips on a body the reader doubted (a
    # blur), however little the network sees there.
    frame = np.zeros((200, 200, 3), np.uint8)
    for reason, ask in (("no die body", asked), ("too blurred", True)):
        reading = DiceReading([], [Uncertain(100, 100, reason, 2)], [40.0])
        checked = second_opinion(frame, reading, net=_Row({2: seen}), bodiless={"no die body"})
        assert checked.dice == []
        assert [u.reason for u in checked.uncertain] == ([reason] if ask else [])


class _Row:
    """A stand-in for the network that gives every view the probabilities ``faces``
    ({face: p}), the rest to "no top face"."""

    def __init__(self, faces):
        self.row = np.zeros(7, np.float32)
        for value, p in faces.items():
            self.row[value - 1] = p
        self.row[6] = 1.0 - self.row.sum()

    def crop_probabilities(self, img, views):
        return np.tile(self.row, (len(views), 1))


@pytest.mark.parametrize("faces, stands", [({2: 0.1, 3: 0.85}, False), ({2: 0.4, 3: 0.35}, True)])
def test_a_face_whose_missed_pip_the_network_sees_is_asked_about(faces, stands):
    # The pips read a 2; a 3 holds both its pips and one more. Glare or the JPEG taking a
    # pip is the pip reader's known way to fail, so where the network reads that fuller
    # face at AGREE the die is asked about.
    frame = np.zeros((200, 200, 3), np.uint8)
    reading = DiceReading([Die(2, 100, 100, 0.9)], [], [40.0])
    checked = second_opinion(frame, reading, net=_Row(faces))
    assert [d.value for d in checked.dice] == ([2] if stands else [])
    assert [u.reason for u in checked.uncertain] == ([] if stands else ["pips say 2, the face looks like a 3 "
                                                                         "(a pip missed?)"])


@pytest.mark.parametrize("read, faces, value", [(2, {3: 0.97}, 3), (2, {3: 0.9}, None), (4, {3: 0.97}, None)])
def test_a_face_whose_missed_pip_the_network_is_sure_of_is_read_as_that_face(read, faces, value):
    # The pips read a 2 where the network is sure (ACCEPT) of a 3, which holds both its
    # pips and one more (its middle one, lost to glare): the die is the 3. Short of
    # ACCEPT it is asked about; and a 3 where the pips read a 4 is no face that holds
    # them: the network overrules the pips, and the die is asked about.
    frame = np.zeros((200, 200, 3), np.uint8)
    reading = DiceReading([Die(read, 100, 100, 0.9)], [], [40.0])
    checked = second_opinion(frame, reading, net=_Row(faces))
    assert [d.value for d in checked.dice] == ([value] if value else [])
    assert len(checked.uncertain) == (0 if value else 1)


@pytest.mark.parametrize("support, stands", [(0.1, False), (0.3, True)])
def test_a_die_the_network_gives_little_support_is_asked_about(support, stands):
    # The pips read a 1, but the network gives that face little support, the rest of its
    # belief, short of overruling, to no face at all (and a little to a 2). The die is
    # asked about, not read as a 1.
    frame = np.zeros((200, 200, 3), np.uint8)
    reading = DiceReading([Die(1, 100, 100, 0.9)], [], [40.0])
    checked = second_opinion(frame, reading, net=_Row({1: support, 2: 0.2}))
    assert [d.value for d in checked.dice] == ([1] if stands else [])
    assert [u.reason for u in checked.uncertain] == ([] if stands else ["pips say 1, the face does not look it"])


@pytest.mark.parametrize("network, taken", [(0.95, True), (0.8, True), (0.7, False), (0.3, False)])
def test_a_face_the_network_reads_as_its_pips_do_is_taken_unasked_whatever_the_pips_doubted(network, taken):
    # The pips read a 4 but doubted it: no die body outlined around them (a white die on a
    # white tray), so it was read at 0.76, under the controller's bar; or its pips measure
    # oblong. Where the network reads that 4 at AGREE, two readers that fail
    # differently agree: the die is shown as sure as the network alone is shown for a face
    # it reads (0.5 + 0.4 p), and the roll is taken without a press. Short of AGREE the
    # pips' doubt stands (and the network's, the lesser); a face the pips are surer of
    # keeps their word, up to the network's.
    from companion.controller import Settings

    bar = Settings().min_confidence
    frame = np.zeros((200, 200, 3), np.uint8)
    for doubted in (Die(4, 100, 100, 0.76), Die(4, 100, 100, 0.72, side=40.0)):
        checked = second_opinion(frame, DiceReading([doubted], [], [40.0]), net=_Row({4: network}))
        (die,) = checked.dice
        assert (die.value, die.pips, die.side) == (4, doubted.pips, doubted.side) and not checked.uncertain
        assert (die.confidence >= bar) == taken
        shown = 0.5 + 0.4 * network if taken else min(doubted.confidence, 0.5 + 0.5 * network)
        assert die.confidence == round(shown, 3)
    sure = second_opinion(frame, DiceReading([Die(4, 100, 100, 0.97, side=40.0)], [], [40.0]), net=_Row({4: network}))
    assert sure.dice[0].confidence == round(min(0.97, 0.5 + 0.5 * network), 3)


@pytest.mark.parametrize("read, faces, stands", [(2, {2: 0.3, 1: 0.65}, False), (1, {1: 0.3, 2: 0.65}, False),
                                                 (2, {2: 0.45, 1: 0.4}, True), (2, {2: 0.3}, True)])
def test_a_die_whose_face_the_network_takes_for_another_more_than_for_its_pips_is_asked_about(read, faces, stands):
    # The network short of overruling the pips, but giving another face more than theirs:
    # a 1 whose glint beside its pip the pips took for a 2's second pip looks so; and a 2
    # whose other pip was lost to noise, its one pip taken for a 1's. The two readers
    # disagree, so the die is asked about. Giving the pips' face the most, or leaving most
    # to no face at all (a blur, a face seen steeply), it stands.
    frame = np.zeros((200, 200, 3), np.uint8)
    reading = DiceReading([Die(read, 100, 100, 0.9)], [], [40.0])
    checked = second_opinion(frame, reading, net=_Row(faces))
    other = max(faces, key=faces.get)
    assert [d.value for d in checked.dice] == ([read] if stands else [])
    assert [u.reason for u in checked.uncertain] == (
        [] if stands else [f"pips say {read}, the face looks more like a {other}"])


class _FaceAt:
    """A stand-in for the network that reads face ``value`` at ``p`` in views centred on
    (x, y), and no top face anywhere else; ``more``: other faces, as (value, p, x, y)."""

    def __init__(self, value, p, x, y, more=()):
        self.faces = [(value, p, x, y), *more]

    def crop_probabilities(self, img, views):
        out = np.zeros((len(views), 7), np.float32)
        out[:, 6] = 1.0
        for row, (x, y, side) in zip(out, views):
            for value, p, fx, fy in self.faces:
                if abs(x - fx) < 0.1 * side and abs(y - fy) < 0.1 * side:
                    row[:] = (1.0 - p) / 6
                    row[value - 1] = p
        return out


@pytest.mark.parametrize("seen, p, read, shown", [
    (3, 0.97, True, 0.888),                  # one pip more, sure: read, accepted unasked
    (3, 0.92, True, FULLER_SHOWN),           # one pip more, sure enough to overrule: asked
    (5, 0.97, True, 0.888),                  # three pips more, sure: read
    (5, 0.92, False, None),                  # three pips more, not sure: a dispute
])
def test_a_die_whose_pips_the_network_overrules_with_a_fuller_face_is_read_as_that_face_only_where_it_is_sure_enough(
        seen, p, read, shown):
    # The pip reader read a 2; the network reads a face that holds its pips and more. One
    # pip missed (a 2 whose middle pip glare took is a 3) is the common case: where the
    # network overrules the pips with such a face, the die is that face, shown below the
    # controller's bar unless the network is all but sure. More pips missed at once (a 2
    # that the network reads as a 5, on a die that showed a 6) need it all but sure.
    frame = np.zeros((200, 200, 3), np.uint8)
    reading = DiceReading([Die(2, 100, 100, 0.9)], [], [40.0])
    checked = second_opinion(frame, reading, net=_FaceAt(seen, p, 100, 100))
    if read:
        assert [(d.value, d.confidence) for d in checked.dice] == [(seen, shown)]
    else:
        assert checked.dice == [] and len(checked.uncertain) == 1


@pytest.mark.parametrize("p, read", [(0.97, True), (0.92, False)])
def test_a_lone_pip_read_as_a_1_is_a_2_only_where_the_network_is_sure_of_the_2(p, read):
    # The pip reader took a lone pip near its body's middle for a 1; it may be one pip of
    # a 2 whose other it missed (a red pip lost in its glint), the body's middle misjudged.
    # A 2 is no pip more on a 1's face, so being sure enough to overrule the pips does not
    # make it one: a glint beside a 1's pip looks like a 2's other pip too. It is asked.
    frame = np.zeros((200, 200, 3), np.uint8)
    reading = DiceReading([Die(1, 100, 100, 0.9)], [], [40.0])
    checked = second_opinion(frame, reading, net=_FaceAt(2, p, 100, 100))
    if read:
        assert [(d.value, d.x, d.y) for d in checked.dice] == [(2, 100, 100)] and checked.uncertain == []
    else:
        assert checked.dice == [] and [(u.x, u.y) for u in checked.uncertain] == [(100, 100)]


@pytest.mark.parametrize("hint, value, p, read", [(2, 6, 0.97, True), (2, 6, 0.9, False),
                                                  (4, 3, 0.99, False), (3, 5, 0.97, True)])
def test_pips_that_are_part_of_a_face_are_read_as_the_face_the_network_is_sure_of(hint, value, p, read):
    # The pips found show a 2 (two of a 6's pips, its others lost to the JPEG), placed at
    # their middle, which is not the 6's centre: a 6's centre lies between its two
    # columns. Looking around the pips, the network is sure of the 6 there. A 6 holds the
    # 2's pips, so the two readers do not disagree: it is read, as sure as the network
    # reads alone (ACCEPT, not AGREE). A 3 does not hold a 4's pips: that is a dispute.
    frame = np.zeros((200, 200, 3), np.uint8)
    face = (100 + 0.3 * 40, 100)
    reading = DiceReading([], [Uncertain(100, 100, "pips too faint", hint)], [40.0])
    checked = second_opinion(frame, reading, net=_FaceAt(value, p, *face))
    assert [(d.value, d.x, d.y) for d in checked.dice] == ([(value, *face)] if read else [])
    assert len(checked.uncertain) == (0 if read else 1)


def test_pips_that_may_be_on_a_dies_side_are_not_read_as_a_fuller_face():
    # Where the dice's near sides show (a frame stretched back from a slant), two pips with
    # no die body found around them may be on a side, whose whole face the network reads:
    # their own value may be confirmed, but no fuller face is read there.
    frame = np.zeros((200, 200, 3), np.uint8)
    pips = Uncertain(100, 100, "no die body", 2)
    reading = DiceReading([], [pips], [40.0])
    only = [pips]
    side = second_opinion(frame, reading, net=_FaceAt(3, 0.99, 100, 100), confirm_only=only)
    assert side.dice == [] and len(side.uncertain) == 1
    confirmed = second_opinion(frame, reading, net=_FaceAt(2, 0.99, 100, 100), confirm_only=only)
    assert [d.value for d in confirmed.dice] == [2]


@pytest.mark.parametrize("beside, asked", [(None, False), (6, True)])
def test_pips_of_a_die_read_are_not_asked_about_as_another_die(beside, asked):
    # One die, two uncertain spots: its pips split into two groups (of different sizes, and
    # a pair not on a die-shaped body). The network reads a 4 around the first. The pair
    # lies 0.3 sides from it, too near to be another die: where the network, looking
    # around the pair, is surest of that same 4, the pair is that die again, and the
    # players are not asked about it. Where it is surer of another face there (a 6 just
    # beyond the 4), the pair stays uncertain.
    frame = np.zeros((200, 200, 3), np.uint8)
    pair = Uncertain(112, 100, "pips not on a die-shaped body", 2)
    reading = DiceReading([], [Uncertain(100, 100, "pips of different sizes"), pair], [40.0])
    more = [(beside, 0.995, 124, 100)] if beside else []
    checked = second_opinion(frame, reading, net=_FaceAt(4, 0.99, 100, 100, more))
    assert [(d.value, d.x, d.y) for d in checked.dice] == [(4, 100, 100)]
    assert [(u.x, u.y) for u in checked.uncertain] == ([(112, 100)] if asked else [])


class _SureIn:
    """A stand-in for the network that, in exactly the views of ``faces``
    {(x, y, crop side): value}, reads that value at ``p``, and no top face in any other."""

    def __init__(self, faces, p=0.99):
        self.faces, self.p = faces, p

    def crop_probabilities(self, img, views):
        out = np.zeros((len(views), 7), np.float32)
        out[:, 6] = 1.0
        for row, (x, y, side) in zip(out, views):
            for (vx, vy, vs), value in self.faces.items():
                if abs(x - vx) < 0.5 and abs(y - vy) < 0.5 and abs(side - vs) < 0.5:
                    row[:] = (1.0 - self.p) / 6
                    row[value - 1] = self.p
        return out


@pytest.mark.parametrize("place", ["blob", "lone spot"])
@pytest.mark.parametrize("sure_views, read", [
    ([(100, 100, 40)], False),
    ([(100, 100, 40), (100, 100, 48)], True),
])
def test_a_die_only_the_network_speaks_for_needs_it_sure_in_two_views(place, sure_views, read):
    # A place where the pips showed no die: a blob on the tray (or the part of a blob off a
    # die read, where another may lean on it), or a lone round spot (a white 1 on a pale
    # tray shows no more). One view can be fooled there -- a crop centred on one pip of a
    # 2 whose pips did not link can look like a 1, a view shifted onto the die read beside
    # it can see that die's face -- so one sure view is not enough: at least two (here: two
    # crop sizes) must agree.
    frame = np.zeros((200, 200, 3), np.uint8)
    leads = [(100, 100)] if place == "lone spot" else []
    reading = DiceReading([Die(4, 140, 100, 0.9)], [], [40.0], leads)
    places = {"candidates": [(100, 100)]} if place == "blob" else {}
    net = _SureIn({(140, 100, 40): 4, **{view: 5 for view in sure_views}})
    checked = second_opinion(frame, reading, net=net, **places)
    assert sorted((d.value, d.x, d.y) for d in checked.dice) == [(4, 140, 100)] + ([(5, 100, 100)] if read else [])


class _SureNear:
    """A stand-in for the network that reads face ``value`` at 0.99 in views centred within
    a fifth of the view's side of (x, y), sees it at 0.7 within two fifths, and no top face
    anywhere else (it was taught that a view shifted a little is the face, one half a side
    off none); ``more``: other faces, as (value, x, y)."""

    def __init__(self, value, x, y, more=()):
        self.faces = [(value, x, y), *more]

    def crop_probabilities(self, img, views):
        out = np.zeros((len(views), 7), np.float32)
        out[:, 6] = 1.0
        for row, (x, y, side) in zip(out, views):
            for value, fx, fy in self.faces:
                off = math.hypot(x - fx, y - fy) / side
                if off < 0.4:
                    p = 0.99 if off < 0.2 else 0.7
                    row[:] = (1.0 - p) / 6
                    row[value - 1] = p
        return out


def test_a_place_beside_a_die_read_is_looked_at_further_round_than_a_blobs():
    # A die touching a die read, its pips not found (a blue 1 with a dark red pip against a
    # green 4): the place the network looks at is the middle of the blob's part off the die
    # read, measured without that die's disc and near sides, which take some of the die
    # touching it too: it lies up to half a side off that die's centre. Looked at only as
    # far round as a blob's middle, the die is asked about; looked at further, it is read.
    frame = np.zeros((200, 200, 3), np.uint8)
    reading = DiceReading([Die(4, 140, 100, 0.9)], [], [40.0])
    net = _SureNear(1, 100, 100, more=[(4, 140, 100)])
    beside = second_opinion(frame, reading, net=net, beside=[(80, 100)])
    [four, one] = sorted(beside.dice, key=lambda d: -d.x)
    assert (four.value, four.x, one.value) == (4, 140, 1) and math.hypot(one.x - 100, one.y - 100) < 0.25 * 40
    assert beside.uncertain == []
    as_a_blob = second_opinion(frame, reading, net=net, candidates=[(80, 100)])
    assert [d.value for d in as_a_blob.dice] == [4]
    assert [u.reason for u in as_a_blob.uncertain] == [UNREAD_REASON]


def test_a_lone_pip_beside_a_place_the_network_looks_round_is_still_looked_at_as_a_1():
    # A gold 1 touching a black 3, seen steeply: its pip lies on no die-shaped body (the
    # black die's bright edge joins the gold), so it is only a lead, and the place beside
    # the 3 the network looks round lies above it, where the blob's part off the 3 has its
    # middle. That place's views do not reach the 1; the lead, centred on its pip, does.
    frame = np.zeros((200, 200, 3), np.uint8)
    reading = DiceReading([Die(3, 140, 100, 0.9)], [], [40.0], leads=[(110.0, 130.0)])
    net = _SureNear(1, 110, 130, more=[(3, 140, 100)])
    checked = second_opinion(frame, reading, net=net, beside=[(110, 101)])
    assert sorted((d.value, d.x, d.y) for d in checked.dice) == [(1, 110, 130), (3, 140, 100)]
    # (without the lead, that place alone does not read it)
    alone = second_opinion(frame, DiceReading([Die(3, 140, 100, 0.9)], [], [40.0]), net=net, beside=[(110, 101)])
    assert [d.value for d in alone.dice] == [3]


class _Recording(_SureIn):
    """``_SureIn`` that keeps every view it is asked about."""

    def __init__(self, faces):
        super().__init__(faces)
        self.views = []

    def crop_probabilities(self, img, views):
        self.views += list(views)
        return super().crop_probabilities(img, views)


def test_the_network_looks_all_round_a_blob_only_where_a_die_sized_view_shows_it_a_face():
    # Most places only a blob speaks for are clutter (a grid over a pencil's print, an
    # eraser's edge), and looking at each at every size and shift cost most of the reading
    # of a frame on a desk. A place is looked at all round only where one of its die-sized
    # views shows the network a face: a die lying there is still read, in two views.
    frame = np.zeros((200, 200, 3), np.uint8)
    net = _Recording({(60, 100, 40): 5, (60, 100, 48): 5})
    checked = second_opinion(frame, DiceReading([], [], [40.0]), net=net, candidates=[(60, 100), (140, 100)])
    assert [(d.value, d.x, d.y) for d in checked.dice] == [(5, 60, 100)]
    at_die = {size for x, y, size in net.views if x < 100}
    at_clutter = {size for x, y, size in net.views if x > 100}
    assert at_die == {32, 40, 48} and at_clutter == {40}


@pytest.mark.parametrize("reason, steady_views, p, shown", [
    ("a mark", 3, 0.92, 0.868),
    ("a mark", 3, 0.88, STEADY_SHOWN),
    ("a mark", 2, 0.92, None),
    ("no die body", 3, 0.92, None),
    ("glare", 3, 0.92, None),
])
def test_a_die_whose_face_the_pips_did_not_read_is_read_where_the_network_reads_it_steadily(
        reason, steady_views, p, shown):
    # A die's body with a face the pip reader could not read (a mark it took for no pip):
    # the network reading one value at 0.92 -- under ACCEPT -- in three of its views around
    # the spot (here: three crop sizes) reads the die. At 0.88 in three it reads it too, but
    # shows it for the players to accept (STEADY_SHOWN, under the controller's 0.8): on
    # real dark marbled dice, such reads were often a glint or the marbling taken for one
    # pip more. Two views are not enough; nor are three where no die body was found (pips
    # alone, as specks show), or where the pip reader's own evidence conflicts (glare where
    # the face has no pip fools the network too).
    frame = np.zeros((200, 200, 3), np.uint8)
    reading = DiceReading([], [Uncertain(100, 100, reason)], [40.0])
    net = _SureIn({(100, 100, side): 3 for side in (32, 40, 48)[:steady_views]}, p=p)
    checked = second_opinion(frame, reading, net=net, bodiless={"no die body"}, conflicting={"glare"})
    assert [(d.value, d.x, d.y, d.confidence) for d in checked.dice] == ([(3, 100, 100, shown)] if shown else [])
    assert len(checked.uncertain) == (0 if shown else 1)


class _Turning:
    """A stand-in for the network that gives every view ``upright`` for face 5, and
    ``turned`` where asked to read the views in their four quarter turns (``turned_views``:
    how many views it was so asked about)."""

    def __init__(self, upright, turned):
        self.p = {False: upright, True: turned}
        self.turned_views = 0

    def crop_probabilities(self, img, views, turned=False, upright=None):
        self.turned_views += len(views) if turned else 0
        row = np.full(7, (1.0 - self.p[turned]) / 6, np.float32)
        row[4] = self.p[turned]
        return np.tile(row, (len(views), 1))


@pytest.mark.parametrize("reason, upright, turned, shown", [
    ("a mark among marks", 0.84, 0.8, TURNED_SHOWN),
    ("a mark among marks", 0.84, 0.6, None),
    ("a mark", 0.84, 0.8, None),
    ("a mark among marks", 0.97, 0.6, 0.888),
])
def test_a_lone_mark_among_marks_is_read_where_the_network_reads_it_alike_in_four_turns(
        reason, upright, turned, shown):
    # A lone mark centred on a die's body among marks the pip reader took for no pips: on
    # real dark marbled dice, the middle pip of a face whose other pips are faint. Where
    # the network, as it looks, is not quite sure of a face there (under STEADY in every
    # view), it reads each view in its four quarter turns: a face read alike in them (0.8)
    # reads the die, shown for the players to accept (TURNED_SHOWN); one it reads less
    # surely turned does not, nor does a spot of any other reason. Sure as it looks, the
    # network reads the die as before, and is not asked about the turns (three reads a view).
    frame = np.zeros((200, 200, 3), np.uint8)
    reading = DiceReading([], [Uncertain(100, 100, reason)], [40.0])
    net = _Turning(upright, turned)
    checked = second_opinion(frame, reading, net=net, turned={"a mark among marks"})
    assert [(d.value, d.x, d.y, d.confidence) for d in checked.dice] == ([(5, 100, 100, shown)] if shown else [])
    assert len(checked.uncertain) == (0 if shown else 1)
    assert (net.turned_views > 0) == (reason == "a mark among marks" and upright < ACCEPT)


class _OneWayUp:
    """A stand-in for ``cv2.dnn.Net`` (``setInput``, ``forward``): sure of a 5 where its
    input crop's top left quarter is as bright as its brightest, unsure of every face
    elsewhere."""

    def setInput(self, blob):
        self.blob = blob

    def forward(self):
        n, half = len(self.blob), self.blob.shape[2] // 2
        quarters = self.blob[:, 0].reshape(n, 2, half, 2, half).mean(axis=(2, 4)).reshape(n, 4)
        logits = np.zeros((n, 7), np.float32)
        logits[:, 4] = np.where(quarters[:, 0] >= quarters.max(axis=1) - 0.3, 6.0, 0.0)
        return logits


def test_a_face_the_network_reads_only_one_way_up_is_far_less_sure_in_four_turns(monkeypatch):
    # The network's answer for a view read in four quarter turns is the geometric mean of
    # its four answers: a face's pips lie alike turned, a glint in one corner does not. A
    # mark in the middle of the view reads the same turned; one in its top left corner
    # reads a 5 the right way up only, and turned is far from sure of it.
    import cv2

    monkeypatch.setattr(cv2.dnn, "readNetFromONNX", lambda path: _OneWayUp())
    net = FaceNet("weights.onnx")
    img = np.zeros((200, 200, 3), np.uint8)
    img[90:111, 90:111] = 255       # a square in the middle of the view at (100, 100)
    img[40:55, 40:55] = 255         # a square in the top left of the view at (60, 60)
    upright = net.crop_probabilities(img, [(60, 60, 18.0), (100, 100, 18.0)])
    turned = net.crop_probabilities(img, [(60, 60, 18.0), (100, 100, 18.0)], turned=True)
    assert upright[0, 4] > 0.95 and turned[0, 4] < 0.5
    assert np.allclose(turned.sum(axis=1), 1.0)
    assert abs(turned[1, 4] - upright[1, 4]) < 1e-5
    # Given the views' reading as they are, only the three other turns are read, to the same end.
    again = net.crop_probabilities(img, [(60, 60, 18.0), (100, 100, 18.0)], turned=True, upright=upright)
    assert len(net.net.blob) == 3 * 2 and np.allclose(again, turned, atol=1e-6)


class _ByPixels:
    """A stand-in for ``cv2.dnn.Net`` whose answer for each view is made of that view's
    own pixels alone, and which keeps the size of every batch it is given."""

    def __init__(self):
        self.batches = []

    def setInput(self, blob):
        self.blob = blob
        self.batches.append(len(blob))

    def forward(self):
        return np.ascontiguousarray(self.blob[:, 0, 20, 17:24])


@pytest.mark.parametrize("turned", [False, True])
def test_many_views_are_read_a_few_at_a_time_each_as_if_read_alone(monkeypatch, turned):
    # A busy real frame read at a few slants asks the network about hundreds of views; in
    # one batch, its layers' outputs for them all took memory a Pi can ill spare. It reads
    # them BATCH at a time, and each view's answer is the one it gives that view alone.
    import cv2

    monkeypatch.setattr(cv2.dnn, "readNetFromONNX", lambda path: _ByPixels())
    net = FaceNet("weights.onnx")
    img = np.random.default_rng(5).integers(0, 256, (240, 320, 3), np.uint8)
    views = [(30.0 + 4 * k, 30.0 + 3 * k, 18.0 + k % 5) for k in range(3 * BATCH + 5)]
    together = net.crop_probabilities(img, views, turned=turned)
    batches = list(net.net.batches)
    alone = [net.crop_probabilities(img, [v], turned=turned)[0] for v in views]
    assert max(batches) == BATCH and sum(batches) == len(views) * (4 if turned else 1)
    assert np.array_equal(together, np.array(alone))
    assert len({tuple(row) for row in together}) == len(views)   # (each view's own answer)


@pytest.mark.parametrize("rules_out, sure_sizes, read", [
    ((), [40], True),
    ((1,), [40], False),
    ((1,), [32, 40], False),
    ((1,), [32, 40, 48], True),
])
def test_a_lone_pip_off_its_bodys_centre_is_a_one_only_if_every_view_on_it_reads_one(
        rules_out, sure_sizes, read):
    # A lone round pip with a plain body around it, centred on the body, is the 1 it looks
    # like where the network reads a 1 centred on the pip. Off the body's centre, with
    # something opposite it, it may be one pip of a 2 whose other pip was lost (a crop on
    # it at 0.8 of a die looks like a 1; at 1.2 it takes in the other pip), or a 1 whose
    # body took in a neighbour's edge: it is a 1 only if every view centred on it, at all
    # three sizes, reads a 1 at ACCEPT.
    frame = np.zeros((200, 200, 3), np.uint8)
    spot = Uncertain(100, 106, "a mark", whole=(1, 100, 100), rules_out=rules_out)
    reading = DiceReading([], [spot], [40.0])
    net = _SureIn({(100, 100, side): 1 for side in sure_sizes})
    checked = second_opinion(frame, reading, net=net)
    assert [(d.value, d.x, d.y) for d in checked.dice] == ([(1, 100, 100)] if read else [])
    assert len(checked.uncertain) == (0 if read else 1)


def test_the_bare_tray_and_the_gap_between_dice_are_never_read(net):
    frame, dice = _scene(3)
    (_, x0, y0), (_, x1, y1) = dice[:2]
    empty = np.full_like(frame, frame[2, 2])
    spots = [Uncertain(320, 240, "die-shaped"), Uncertain(100, 100, "die-shaped")]
    assert second_opinion(empty, DiceReading([], spots, [44.0]), net=net).dice == []
    # Half a die away from a face: not a top face, whatever pips show at the crop's edge.
    beside = DiceReading([], [Uncertain(x0 + 30, y0 + 10, "x")], [44.0])
    assert second_opinion(frame, beside, net=net).dice == []


def test_a_logo_face_is_uncertain_until_calibrated():
    frame, truth = render_scene([1, 3, 5, 2], seed=0, logo=1)
    (_, lx, ly) = truth["dice"][0]
    plain = read_dice(frame)
    assert 1 not in plain.values
    assert any(abs(u.x - lx) < 10 and abs(u.y - ly) < 10 for u in plain.uncertain)
    taught = read_dice(frame, Calibration(logo_value=1))
    assert sorted(taught.values) == [1, 2, 3, 5]
    one = next(d for d in taught.dice if d.value == 1)
    assert abs(one.x - lx) < 10 and abs(one.y - ly) < 10
