"""How long a button press waits while the daemon reads a settled roll (prints figures).

The daemon's loop, in real time at 15 frames a second, on real frames: the 50 held-out dev
photos as 640x480 JPEG 80 webcam frames 40 degrees from overhead (as ``bench_vision.py``),
each a roll (a hand over the tray, then the dice still, with a webcam's noise) in a game
waiting for a roll. For each, once the tray has been still long enough to
be read, Back is pressed from another thread (as gpiozero's does) at a random moment of
the next 0.6 s. Of the presses made while the screen said "Reading dice...", it counts
those answered as meant (Paused: Back pauses the game while a roll is awaited) and the
time from the press to the screen showing it, and those taken for something else (the
reading came on screen before the press was answered, and Back there means "roll
again"). With no press, it measures the time from the hand leaving to the screen showing
the reading. Both with the reads in the loop (``reads=None``) and on a ``ReadingThread``
(the service).

    taskset -c 1 .venv/bin/python benchmarks/bench_press_during_read.py [--limit N]

On one core (``taskset -c 1``) the loop and the reading thread share it, as on a busy Pi;
on two (``-c 0,1``) each has one, as on a Pi 4 (four cores, each 4-6 times slower).
"""

from __future__ import annotations

import argparse
import glob
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from vision_accuracy import DEFAULT_DIR as DEV_PHOTOS  # noqa: E402

from companion.devices.camera import FrameSource  # noqa: E402
from companion.devices.events import ButtonEvent, EventQueue  # noqa: E402

FPS = 15


class Presses(EventQueue):
    """The daemon's event queue, telling when the loop took a press."""

    taken = False

    def get(self, timeout=0.0):
        ev = super().get(timeout)
        self.taken = self.taken or ev is not None
        return ev


class Roll(FrameSource):
    """A hand over the tray for a few frames, then ``frame`` still, with a webcam's sensor
    noise, fresh in each of 8 frames in turn (frames alike to the bit would always agree).
    The noisy frames are made beforehand: a real camera's frames cost the loop next to nothing, and
    making them here (about 25 ms each) would take a share of the one core from the reads."""

    name = "replayed roll"

    def __init__(self, frame):
        super().__init__((frame.shape[1], frame.shape[0]))
        import numpy as np

        from companion.vision.render import hand_over
        self.k = 0
        self.still_at: float | None = None   # (when the first still frame was read)
        self.hand = [hand_over(frame, (k + 1) / 12) for k in range(6)]
        rng = np.random.default_rng(0)
        self.still = [np.clip(frame + rng.normal(0.0, 2.0, frame.shape), 0, 255).astype(np.uint8)
                      for _ in range(8)]

    def _open(self) -> None:
        pass

    def _read(self):
        self.k += 1
        if self.k <= len(self.hand):
            return self.hand[self.k - 1]
        if self.still_at is None:
            self.still_at = time.monotonic()
        return self.still[self.k % len(self.still)].copy()


def one_roll(frame, state: Path, threaded: bool, press: bool, rng):
    """With ``press`` (at a random moment once the tray is read): (what the screen said
    then, whether Paused answered it, seconds from the press to the screen answering it).
    Without: seconds from the hand leaving to the reading on screen. None if nothing came
    within 20 s."""
    from companion.config import LED_ROLES
    from companion.controller import Settings
    from companion.daemon import Daemon
    from companion.devices.build import Devices
    from companion.devices.display import MemoryDisplay
    from companion.devices.leds import MemoryLeds
    from companion.rules.core import Setup
    from companion.table import Table
    from companion.vision.reading_thread import ReadingThread

    table = Table(state / "journal.sqlite3")
    table.new_game("game-of-2020", Setup(("Ann", "Ben", "Cat")))   # (opens with a roll)
    camera = Roll(frame)
    devices = Devices(Presses(), MemoryLeds(LED_ROLES), MemoryDisplay(20, 4), camera)
    reads = ReadingThread() if threaded else None
    # (the game's opening notices skipped: the roll is wanted at once)
    settings = Settings(names=("Ann", "Ben", "Cat"), event_seconds=0.01, important_event_seconds=0.01)
    daemon = Daemon(table, devices, settings, reads=reads)
    pressed: list = []

    def back() -> None:
        pressed.extend([time.monotonic(), devices.display.lines[2].strip()])
        devices.events.put(ButtonEvent("back", "press", "bench", pressed[0]))

    try:
        start = next_frame = time.monotonic()
        timer = None
        while time.monotonic() - start < 20:
            daemon.step(0)
            now = time.monotonic()
            top = devices.display.lines[0].strip()
            if press:
                if timer is None and daemon.detector is not None and daemon.detector.state == "settling":
                    # (the tray is read from still_time on: press while it is)
                    timer = threading.Timer(daemon.detector.still_time + rng.uniform(0, 0.6), back)
                    timer.start()
                if devices.events.taken:
                    return pressed[1], top == "Paused", now - pressed[0]
            elif top.startswith("Read:"):
                return now - camera.still_at
            next_frame += 1 / FPS
            time.sleep(max(0.0, next_frame - time.monotonic()))
        return None
    finally:
        daemon.shutdown()   # (closes the reading thread)


def main() -> int:
    import cv2
    import numpy as np

    cv2.setNumThreads(1)
    from companion.vision.photo_views import as_frame, load_labels

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=50)
    args = ap.parse_args()
    photos = sorted(glob.glob(os.path.join(DEV_PHOTOS, "*.jpg")))[::5][:args.limit]
    if not photos:
        print(f"no dev photos in {DEV_PHOTOS}")
        return 1
    frames = []
    for path in photos:
        img = cv2.imread(path)
        frame, _ = as_frame(img, load_labels(path[:-4] + ".txt", img.shape[1], img.shape[0]),
                            frame="640x480", jpeg=80, tilt=40.0)
        frames.append(frame)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores ({len(os.sched_getaffinity(0))} "
          f"for this process), Python {platform.python_version()}; {len(frames)} rolls at {FPS} fps")
    rng = np.random.default_rng(1)
    for threaded in (False, True):
        how = "on a reading thread" if threaded else "in the loop"
        for press in (True, False):
            outcomes, lost = [], 0
            for frame in frames:
                with tempfile.TemporaryDirectory() as tmp:
                    got = one_roll(frame, Path(tmp), threaded, press, rng)
                if got is None:
                    lost += 1
                else:
                    outcomes.append(got)
            never = f" ({lost} never came)" if lost else ""
            if not press:
                waits = [1000 * w for w in outcomes]
                print(f"  reads {how}: hand gone to the reading on screen: median "
                      f"{statistics.median(waits):5.0f} ms, worst {max(waits):5.0f} ms{never}")
                continue
            meant = [o for o in outcomes if o[0] == "Reading dice..."]
            paused = [1000 * w for _seen, ok, w in meant if ok]
            print(f"  reads {how}: of {len(meant)} presses of Back on \"Reading dice...\", "
                  f"{len(paused)} answered as meant (Paused), press to screen median "
                  + (f"{statistics.median(paused):4.0f} ms, worst {max(paused):4.0f} ms; " if paused else "-; ")
                  + f"{len(meant) - len(paused)} taken as \"roll again\" on the reading shown meanwhile{never}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
