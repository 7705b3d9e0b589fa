"""Settle detection on rendered rolls: one reading per roll, never while dice move."""

import pytest

from companion.vision.render import render_roll
from companion.vision.settle import SettleDetector


def run(frames, det):
    out = []
    for t, frame in frames:
        reading = det.feed(frame, t)
        if reading is not None:
            out.append((t, reading))
    return out


@pytest.fixture(scope="module")
def roll():
    return render_roll([3, 5, 2], seed=1, fps=30, after=1.0)


def test_one_reading_per_roll_after_the_dice_rest(roll):
    frames, info = roll
    det = SettleDetector()
    det.arm()
    out = run(frames, det)
    assert len(out) == 1
    t, reading = out[0]
    assert t > info["rest_at"]
    assert t - info["rest_at"] < 0.6
    assert sorted(reading.values) == [2, 3, 5]
    assert det.state == "done"


def test_a_die_stopping_for_an_instant_mid_roll_is_not_read():
    frames, info = render_roll([6, 1], seed=2, fps=30, pause=0.12, after=1.0)
    det = SettleDetector()
    det.arm()
    out = run(frames, det)
    assert len(out) == 1
    assert out[0][0] > info["rest_at"]
    assert sorted(out[0][1].values) == [1, 6]


def test_a_roll_in_a_dim_room_is_followed_to_its_end():
    # 0.35 of the light: a die's last tumbles change the grey frame little, yet they are
    # seen as motion up to the last frames of the roll, and the dice are read once, after.
    import cv2

    frames, info = render_roll([6, 1, 3], seed=2, fps=30, after=1.0)
    det = SettleDetector()
    det.arm()
    out = run([(t, cv2.convertScaleAbs(frame, alpha=0.35)) for t, frame in frames], det)
    assert det.last_motion > info["rest_at"] - 0.1
    assert len(out) == 1
    assert out[0][0] > info["rest_at"]
    assert sorted(out[0][1].values) == [1, 3, 6]


def test_a_hand_reaching_in_does_not_repeat_the_roll():
    frames, info = render_roll([4, 4, 1], seed=3, fps=15, hand=True, after=0.6)
    det = SettleDetector(auto_rearm=True)
    det.arm()
    out = run(frames, det)
    assert len(out) == 1
    assert out[0][0] < info["hand"][0]
    assert det.last_motion >= info["hand"][0]   # the hand was seen as motion


def test_dice_lying_still_when_armed_are_not_a_roll(roll):
    frames, info = roll
    settled = [(t, f) for t, f in frames if t > info["rest_at"] + 0.1]
    det = SettleDetector()
    det.arm()
    assert run(settled, det) == []
    # Without requiring motion the same still dice are read once.
    det = SettleDetector(require_motion=False)
    det.arm()
    assert len(run(settled, det)) == 1


def test_not_armed_means_no_reading_and_rearm_reads_the_next_roll(roll):
    frames, _ = roll
    det = SettleDetector()
    assert run(frames, det) == []          # never armed
    second, info2 = render_roll([6, 6], seed=4, fps=30, after=0.8)
    det.arm()
    out = run(frames, det)
    det.arm()
    out2 = run(second, det)
    assert len(out) == 1 and len(out2) == 1
    assert sorted(out2[0][1].values) == [6, 6]


def test_an_empty_tray_settling_is_not_a_roll_and_is_not_read_on_every_frame():
    frames, info = render_roll([], seed=5, fps=15, hand=True, after=0.4)
    calls = []

    def reader(frame):
        from companion.vision.dice import read_dice
        calls.append(frame)
        return read_dice(frame)

    det = SettleDetector(reader=reader)
    det.arm()
    assert run(frames, det) == []
    # The hand moved, the tray settled empty: read a few times to agree, then wait.
    assert len(calls) <= 2 * det.agree
