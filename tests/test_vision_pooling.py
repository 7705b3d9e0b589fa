"""Pooling the readings of a still tray's frames, place by place (``vision.pooling``).

The readings here are written out as a frame's reading would come: the rules are pure.
How they fare on real trays through a webcam's noise: ``test_vision_dev_photos``.
"""

from dataclasses import replace

import pytest

from companion.controller import Settings
from companion.vision.pooling import AGREEING_LOOKS, MORE_LOOKS, STILL_LOOKS, enough, pooled, read_once
from companion.vision.types import Coin, CoinReading, DiceReading, Die, Uncertain

SIDE = 40.0


def frame(*things) -> DiceReading:
    """A frame's reading of dice 40 px wide: (value, x, y) read, (None, x, y) uncertain."""
    return DiceReading([Die(v, x, y, 0.95, SIDE) for v, x, y in things if v is not None],
                       [Uncertain(x, y, "pips too faint") for v, x, y in things if v is None],
                       [SIDE])


def slanted(*things) -> DiceReading:
    """``frame(*things)`` as read from a camera about 55 degrees from overhead: stretched
    back 1.75 times down the frame."""
    return replace(frame(*things), stretch=(1.0, 1.75))


def test_a_die_read_in_every_frame_is_read_as_sure_as_the_frames_read_it():
    out = pooled([frame((3, 100, 100), (5, 200, 100))] * 3)
    assert sorted((d.value, d.x) for d in out.dice) == [(3, 100), (5, 200)]
    assert out.uncertain == []
    assert all(d.confidence == 0.95 for d in out.dice)


def test_a_die_one_frame_could_not_read_is_read_from_the_others():
    # A faint pip's contrast passes the reader's thresholds in some frames and not in
    # others: "uncertain" there is the reader declining, not disagreeing.
    out = pooled([frame((3, 100, 100)), frame((None, 102, 99)), frame((3, 101, 100))])
    assert [(d.value, d.confidence) for d in out.dice] == [(3, 0.95)]
    assert out.uncertain == []


def test_a_die_read_in_one_frame_of_three_is_shown_but_not_accepted_unasked():
    out = pooled([frame((None, 100, 100)), frame((4, 103, 98)), frame((None, 99, 101))])
    assert [d.value for d in out.dice] == [4]
    assert out.dice[0].confidence < Settings().min_confidence


def test_a_die_read_two_ways_is_uncertain():
    out = pooled([frame((3, 100, 100)), frame((2, 101, 100)), frame((3, 100, 101))])
    assert out.dice == []
    assert [u.reason for u in out.uncertain] == ["read as 2 and as 3 in still frames"]


def test_a_die_read_at_two_places_of_its_face_is_one_die():
    # A frame may report one die at two places (its body's centre, and the middle of the
    # pips it found of it), 0.3 of a side apart: the frames' places pair up two ways, and
    # the die is still one (read two ways there, uncertain).
    for last, read in ((5, [5]), (2, [])):
        out = pooled([frame((5, 100, 100)), frame((5, 100, 100), (None, 112, 100)), frame((last, 110, 100))])
        assert [d.value for d in out.dice] == read
        assert len(out.dice) + len(out.uncertain) == 1


def test_dice_side_by_side_stay_two():
    out = pooled([frame((6, 100, 100), (6, 140, 100))] * 2 + [frame((6, 100, 100), (None, 140, 100))])
    assert [(d.value, d.x) for d in out.dice] == [(6, 100), (6, 140)]


def test_dice_one_behind_the_other_at_a_slant_stay_two():
    # A camera 55 degrees from overhead shows a die and the one behind it half a side apart
    # in the frame: a side apart on the tray, as the reader measured them in the frame
    # stretched back (the reading's ``stretch``). Read in every frame, they stay two dice.
    # Read as from overhead, two places that close are one die read at two places of its
    # face, two ways: asked about.
    dice = ((6, 100, 100), (4, 100, 120))
    out = pooled([slanted(*dice)] * 3)
    assert [(d.value, d.y) for d in out.dice] == [(6, 100), (4, 120)]
    assert out.uncertain == []
    out = pooled([frame(*dice)] * 3)
    assert out.dice == [] and [u.reason for u in out.uncertain] == ["read as 4 and as 6 in still frames"]


def test_a_die_just_behind_one_read_at_a_slant_is_asked_about():
    # At a slant, a die no frame can read, just behind one they all read, lies under half a
    # side from it in the frame but a side from it on the tray: it is asked about, not
    # dropped as the die read seen again. From overhead, a spot that close is that die.
    things = ((6, 100, 100), (None, 100, 82))   # (the far side is up the frame)
    out = pooled([slanted(*things)] * 3)
    assert [d.value for d in out.dice] == [6]
    assert [(u.x, u.y) for u in out.uncertain] == [(100, 82)]
    assert pooled([frame(*things)] * 3).uncertain == []


def test_what_shows_in_half_the_frames_or_fewer_is_not_read():
    # A speck of noise that passed as "uncertain" once is dropped; a value read once where
    # the other frames saw nothing is asked about, not read.
    out = pooled([frame((1, 100, 100), (None, 300, 200)), frame((1, 100, 100)), frame((1, 100, 100), (6, 250, 50))])
    assert [d.value for d in out.dice] == [1]
    assert [(u.x, u.y, u.reason) for u in out.uncertain] == [(250, 50, "read in 1 of 3 still frames")]


def test_a_die_one_look_alone_read_is_looked_at_again():
    # Three looks, one reading a 4 where the others are unsure: the caller looks again
    # (``read_once``). A look more reading it another way makes it uncertain; one reading
    # it too shows it, surer than one look of five would.
    three = [frame((None, 100, 100)), frame((4, 103, 98)), frame((None, 99, 101))]
    assert read_once(three, pooled(three))
    unsure = [frame((None, 101, 100))]
    out = pooled(three + unsure + [frame((2, 100, 102))])
    assert out.dice == [] and [u.reason for u in out.uncertain] == ["read as 2 and as 4 in still frames"]
    once, twice = (pooled(three + unsure + [frame((v, 100, 102))]) for v in (None, 4))
    assert [d.value for d in once.dice] == [d.value for d in twice.dice] == [4]
    assert once.dice[0].confidence < twice.dice[0].confidence < Settings().min_confidence
    # Read in two looks of three, or in every one, it needs no more looks.
    assert not read_once(three[:2] + [frame((4, 100, 100))], pooled(three[:2] + [frame((4, 100, 100))]))
    assert not read_once([frame((4, 100, 100))] * 3, pooled([frame((4, 100, 100))] * 3))


def test_a_die_one_look_read_where_the_others_saw_nothing_is_looked_at_again():
    # Three looks, one reading a 5 where the others saw nothing (the noise of two looks hid
    # its pip): it is asked about, and the caller looks again. Read by both looks more, it
    # is read; seen by neither, it is still asked about.
    three = [frame((2, 50, 50)), frame((2, 50, 50), (5, 100, 100)), frame((2, 50, 50))]
    out = pooled(three)
    assert out.dice == [Die(2, 50, 50, 0.95)] and [u.reason for u in out.uncertain] == ["read in 1 of 3 still frames"]
    assert read_once(three, out)
    read = pooled(three + [frame((2, 50, 50), (5, 101, 99))] * 2)
    assert sorted(d.value for d in read.dice) == [2, 5] and read.uncertain == []
    unseen = pooled(three + [frame((2, 50, 50))] * 2)
    assert [u.reason for u in unseen.uncertain] == ["read in 1 of 5 still frames"]


def test_two_looks_that_agree_are_enough_and_any_doubt_asks_for_the_third():
    # Two frames reading every place alike, asking about nothing, are the reading: a third
    # look is not waited for. A question in either, a die one of them alone read, or one
    # read two ways, and the third is read (and two more where one alone read a die).
    two = [frame((3, 100, 100), (5, 200, 100)), frame((3, 101, 99), (5, 200, 101))]
    assert AGREEING_LOOKS == 2 < STILL_LOOKS
    assert enough(two[:1]) is None
    out = enough(two)
    assert out == pooled(two) and sorted(d.value for d in out.dice) == [3, 5]
    assert enough([DiceReading()] * 2) == DiceReading()   # (an empty tray, read alike)
    for second in (frame((3, 101, 99), (None, 200, 101)), frame((3, 101, 99), (5, 200, 101), (None, 300, 50)),
                   frame((3, 101, 99)), frame((3, 101, 99), (6, 200, 101))):
        doubted = [two[0], second]
        assert enough(doubted) is None
        assert enough(doubted + [two[1]]) == pooled(doubted + [two[1]])
    once = [two[0], frame((3, 101, 99), (5, 200, 101), (1, 300, 50)), two[1]]
    assert enough(once) is None and read_once(once, pooled(once))
    assert enough(once + [two[0]]) is None and enough(once + two) == pooled(once + two)
    assert len(once + two) == STILL_LOOKS + MORE_LOOKS
    # A caller asking for two looks, or one, takes them as they come.
    assert enough(two[:1] + [frame((3, 101, 99), (5, 200, 101), (None, 300, 50))], looks=2) is not None
    assert enough(two[:1], looks=1) is two[0]


def test_coin_frames_that_agree_are_enough_too():
    def coins(*things):
        return CoinReading([Coin(f, x, y, 30.0, 0.9) for f, x, y in things if f],
                           [Uncertain(x, y, "on edge") for f, x, y in things if not f])
    assert [c.face for c in enough([coins(("heads", 100, 100))] * 2).coins] == ["heads"]
    assert enough([coins(("heads", 100, 100)), coins(("tails", 101, 100))]) is None


def test_a_die_a_frame_both_read_and_asked_about_beside_is_read_there():
    # A frame may read a die and ask about its outline's centre a few pixels off: the
    # place takes the reading, closer though the question lies (two reads of five).
    five = [frame((1, 100, 100))] + [frame((None, 101, 100))] * 3 + [frame((1, 102, 95), (None, 101, 101))]
    assert [(d.value, d.confidence) for d in pooled(five).dice] == [(1, round(0.95 * 2 / 5, 3))]


def test_an_empty_tray_pools_to_nothing_and_one_frame_to_itself():
    assert pooled([DiceReading()] * 3) == DiceReading()
    one = frame((2, 10, 10))
    assert pooled([one]) is one
    with pytest.raises(ValueError):
        pooled([])


def test_coins_pool_the_same_way_within_their_radius():
    def coins(*things):
        return CoinReading([Coin(f, x, y, 30.0, 0.9) for f, x, y in things if f],
                           [Uncertain(x, y, "on edge") for f, x, y in things if not f])
    out = pooled([coins(("heads", 100, 100), ("tails", 200, 100)),
                  coins(("heads", 110, 104), (None, 205, 100)),
                  coins(("tails", 104, 100), ("tails", 200, 101))])
    assert [(c.face, c.x) for c in out.coins] == [("tails", 200)]
    assert [u.reason for u in out.uncertain] == ["read as heads and as tails in still frames"]


def test_a_photo_is_looked_at_at_the_readers_size_and_read_in_its_own_pixels():
    # A phone photo is read at the reader's working size (where the noise of the later
    # looks belongs): the dice come back where they lie in the photo itself.
    import cv2

    from companion.vision.pooling import read_still
    from companion.vision.render import render_scene

    frame, truth = render_scene([2, 4, 6], seed=4, die_size=48)
    photo = cv2.resize(frame, (2560, 1920), interpolation=cv2.INTER_CUBIC)
    out = read_still(photo)
    assert sorted(d.value for d in out.dice) == [2, 4, 6]
    for v, x, y in truth["dice"]:
        die, = [d for d in out.dice if d.value == v]
        assert abs(die.x - 4 * x) < 12 and abs(die.y - 4 * y) < 12
        assert 3.5 * 40 < die.side < 4.5 * 56
