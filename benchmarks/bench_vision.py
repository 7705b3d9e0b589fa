"""Speed of the dice reader and of settle detection (prints figures; not a test).

- ms per 640x480 frame for read_dice with 1, 3 and 7 dice (median and worst of 20 frames,
  white and coloured dice, some tilted), and for the same frames with the dice's size known
  (how the live companion reads once its first roll has taught it the size, or with a
  calibration: the slant measured by pips found with a filter of that size, then read
  with it and in the same two passes), with 7 dice seen from 40 degrees (a frame the
  reader stretches back first), and with 2 small dice beside a pencil and an eraser (from
  overhead and from 40 degrees), and with no dice, a pencil, an eraser and a sheet of
  paper in the tray, on one core: wall clock, and the thread's CPU time (steadier when
  others share the machine); and for real frames, the 50 held-out dev
  photos as 640x480 webcam frames from 40 degrees (where ``../shared/datasets/dice-real-dev``
  is at hand), and as a webcam 53 degrees wide gives them, read as they are and told its
  field of view (flattened first: ``perspective``);
- ms the settle detector spends on a settled roll of those real frames, each still frame
  with a webcam's fresh noise: the still frames it reads and pools (two where they agree,
  else three, the second and third enlarged where the dice are small and the first left
  something to ask about; five where one of them alone read a die), a new detector for
  each roll and one detector through them all, as the daemon keeps it through a game (it
  reads later rolls at the die size and slant the earlier ones showed); and
  the most memory the process holds while reading the real frames, against what it held
  with them made (where Linux's /proc tells it);
- ms for the face network to judge 1, 7 and 15 views (its share of the above);
- ms per frame for the settle detector's motion check (what every frame costs while dice move);
- the settle-to-reading delay: time from the dice's last motion to the reading, at 15 and
  30 frames per second (mean and worst over a few rendered rolls), in steady light and
  under a lamp flickering with the mains (``render.flickering``).

    .venv/bin/python benchmarks/bench_vision.py
"""

from __future__ import annotations

import glob
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

# (the real labelled dev photos, where vision_accuracy.py finds them)
from vision_accuracy import DEFAULT_DIR as DEV_PHOTOS  # noqa: E402
# (a hand reaching into the tray: the motion before a settled roll)
from companion.vision.render import hand_over  # noqa: E402
# (a process's memory, as /proc tells it)
from bench_daemon import rss_mb  # noqa: E402


def main() -> int:
    import cv2
    cv2.setNumThreads(1)   # one core, as on a busy Pi
    from companion.vision.calibration import Calibration
    from companion.vision.render import flickering, render_roll, render_tray
    from companion.vision.settle import SettleDetector

    print("read_dice on 640x480 frames (one core):")
    # (a webcam on a desk: dice 26 px wide beside a pencil and an eraser, which the reader must
    # not search die by die; at a slant, a webcam 60 degrees wide, as most are, beside the tray)
    desk = {"die_size": 26, "clutter": 2}
    slant = {"slant": 40, "field_of_view": 60}
    cases = [(n, {}) for n in (1, 3, 7)] + [(7, slant), (2, desk), (2, {**desk, **slant})]
    for n, extra in cases:
        frames = [render_tray([(s + k) % 6 + 1 for k in range(n)], seed=s,
                              die_colour="mixed" if s % 2 else (235, 235, 235),
                              tilt=0.2 if s % 3 == 0 and not extra else 0.0, **extra) for s in range(20)]
        label = f"{n} dice" + (" 26 px wide, a pencil and an eraser beside them" if "clutter" in extra else "") \
            + (f", a webcam {extra['slant']} degrees from overhead" if "slant" in extra else "")
        readings = _time(label, frames, None)
        if not extra:
            # The size the settle detector learns: the median of the die sides it reported.
            sides = [r.die_side for r in readings if r.die_side]
            known = Calibration(die_size=statistics.median(sides), frame_size=[640, 480])
            _time(f"{n} dice, their size known", frames, known)
    # (No die in the tray, things left in it: a hand in and out of an empty tray is read too,
    # and what the pips cannot read there is looked at as a die might be: ``_read_as_if_told``.)
    _time("no dice, a pencil, an eraser and a sheet of paper in the tray",
          [render_tray([], seed=s, clutter=3) for s in range(20)], None)

    # Real frames cost more than rendered ones (more spots the pips leave unsure, each looked
    # at by the network): the held-out dev photos (every fifth, which the face network never
    # saw) as a webcam 40 degrees from overhead gives them, where the photos are at hand.
    photos = sorted(glob.glob(os.path.join(DEV_PHOTOS, "*.jpg")))[::5]
    if photos:
        from companion.vision.photo_views import as_frame, load_labels
        frames, wide, dice = [], [], 0
        for k, path in enumerate(photos):
            img = cv2.imread(path)
            labels = load_labels(path[:-4] + ".txt", img.shape[1], img.shape[0])
            frame, labels = as_frame(img, labels, frame="640x480", jpeg=80, tilt=40.0, seed=k)
            frames.append(frame)
            dice += len(labels)
            wide.append(as_frame(img, [], frame="640x480", jpeg=80, tilt=40.0, seed=k, field_of_view=53.0)[0])
        held = _resident_mb(from_now=True)
        _time(f"{len(frames)} real photos (held out, {dice / len(frames):.1f} dice each) as 640x480 "
              "frames 40 degrees from overhead", frames, None)
        # (Seen steeply, each frame is flattened first, by the field of view assumed or told:
        # ``perspective``; said to be far away, it is read as it is.)
        _time("the same through a webcam 53 degrees wide, taken to be 45", wide, None)
        _time("  told its field of view", wide, Calibration(field_of_view=53.0))
        _time("  said to be far away (not flattened)", wide, Calibration(field_of_view=10.0))
        # What a roll costs the daemon once the tray is still: the settle detector reads
        # two frames, or three, and pools them, the second and third enlarged where the dice
        # are small and the first left something to ask about (``settle``).
        _time_settled(f"{len(frames)} real photos as those frames 40 degrees from overhead", frames)
        _time_settled(f"the same {len(frames)} as one game, one detector through them all", frames, game=True)
        # (Real frames ask the face network about hundreds of views, whose layers' outputs it
        # holds a batch at a time.)
        if held is not None:
            print(f"  resident memory: {held:.0f} MB with those frames made, at most "
                  f"{_resident_mb():.0f} MB while reading them as above")

    # The face network's share of those figures: one view per die read, fifteen around each
    # spot it is asked to read on its own.
    from companion.vision.face_net import FaceNet
    net = FaceNet.shared()
    if net is not None:
        frame = render_tray([1, 2, 3, 4, 5, 6, 1], seed=1)
        for n in (1, 7, 15):
            spots = [(320.0, 240.0)] * n
            net.probabilities(frame, spots, 44.0)
            t0 = time.perf_counter()
            for _ in range(10):
                net.probabilities(frame, spots, 44.0)
            print(f"face network, {n:2d} views in one batch: "
                  f"{1000 * (time.perf_counter() - t0) / 10:.1f} ms")

    frames = [render_tray([3, 4, 5], seed=s) for s in range(20)]
    det = SettleDetector()
    t0 = time.perf_counter()
    for i, f in enumerate(frames * 5):
        det.motion(f)
    print(f"settle motion check: {1000 * (time.perf_counter() - t0) / 100:.2f} ms per frame")

    print("settle-to-reading delay (last dice motion -> reading):")
    # (and under a lamp on 50 Hz mains whose light swings 30 % either side of its mean, seen
    # through a rolling shutter exposing each row for 1/500 s: bands roll across each frame)
    for fps, lamp in ((15, False), (30, False), (15, True), (30, True)):
        delays, reads = [], 0
        for seed in range(4):
            roll, info = render_roll([(seed + k) % 6 + 1 for k in range(3)], seed=seed, fps=fps, after=1.2)
            det = SettleDetector()
            det.arm()
            for t, f in roll:
                r = det.feed(flickering(f, t, mains_hz=50, swing=0.3) if lamp else f, t)
                if r is not None:
                    delays.append(1000 * (t - info["rest_at"]))
                    reads += 1
                    break
        label = f"{fps} fps" + (", a flickering lamp" if lamp else "")
        if delays:
            print(f"  {label}: mean {statistics.mean(delays):5.0f} ms, worst {max(delays):5.0f} ms "
                  f"({reads}/4 rolls read)")
        else:
            print(f"  {label}: no roll was read")
    return 0


def _time_settled(label: str, frames: list, game: bool = False) -> None:
    """Print the median and worst ms the settle detector spends on each of ``frames`` from
    the hand leaving the tray to its report (the still frames it reads and pools, and the
    motion checks of every frame): a new detector for each, or with ``game``, one for all,
    each the next roll (as the daemon keeps it)."""
    import numpy as np

    from companion.vision.settle import SettleDetector
    times = []
    det = SettleDetector()
    for frame in frames:
        det.reset(forget=not game)   # (as new, or as the daemon's next roll: the same camera)
        det.arm()
        det.feed(hand_over(frame), 0.0)
        spent, reading, k = 0.0, None, 0
        while reading is None and k < 30:
            k += 1
            # (each still frame with a webcam's fresh sensor noise: frames alike to the bit
            # would always agree)
            grain = np.random.default_rng(k).normal(0.0, 2.0, frame.shape)
            still = np.clip(frame + grain, 0, 255).astype(np.uint8)
            t0 = time.thread_time()
            reading = det.feed(still, k / 15)
            spent += time.thread_time() - t0
        times.append(1000 * spent)
    print(f"  a settled roll (still frames with a webcam's noise, read and pooled: two where they agree, else "
          f"three, five where one alone read a die), {label}: "
          f"median {statistics.median(times):6.1f} ms, worst {max(times):6.1f} ms (CPU)")


def _resident_mb(from_now: bool = False) -> float | None:
    """The most memory this process has held resident (Linux's VmHWM), in MB; None where
    /proc does not tell it. ``from_now``: that peak set back to what it holds now, first
    (so the next call tells the peak since)."""
    try:
        if from_now:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
        peak = rss_mb(os.getpid(), "VmHWM")
    except OSError:
        return None
    return None if math.isnan(peak) else peak


def _time(label: str, frames: list, calibration) -> list:
    """Print read_dice's median and worst ms per frame over ``frames``; the readings."""
    from companion.vision.dice import read_dice
    read_dice(frames[0], calibration)   # warm up
    times, cpu, readings = [], [], []
    for f in frames:
        t0, c0 = time.perf_counter(), time.thread_time()
        readings.append(read_dice(f, calibration))
        times.append(1000 * (time.perf_counter() - t0))
        cpu.append(1000 * (time.thread_time() - c0))
    # CPU time too: on a shared machine the wall clock also counts other people's work.
    print(f"  {label}: median {statistics.median(times):6.1f} ms, worst {max(times):6.1f} ms"
          f"  (CPU: median {statistics.median(cpu):6.1f} ms, worst {max(cpu):6.1f} ms)")
    return readings


if __name__ == "__main__":
    raise SystemExit(main())
