"""The daemon's main loop: devices in, the controller in the middle, devices out.

One iteration (``Daemon.step``): take every button event waiting (or wait a moment for
one), feed a camera frame to the settle detector while the controller wants a roll (and
tell the controller what the detector sees: dice moving, or still and being read), let
time pass in the controller, then draw the display and set the LEDs. ``run`` repeats it
until SIGTERM, tells systemd it is ready, and pings the watchdog from this loop only, and
only while it is healthy (frames arrive when a roll is wanted; a look at the tray ends; the
USB panel answers).

The demo and the tests drive the same ``step`` with memory devices, a synthetic tray and
a clock of their own. The service reads settled rolls on a thread of their own (``reads``:
a ``ReadingThread``), so a press is answered, the screen drawn and the watchdog pinged
while a roll is read (seconds on a Pi); with a clock of their own (the tests, the fast
demo) they are read within ``step``, unless the test hands them a thread.
"""

from __future__ import annotations

import logging
import signal
import time
from typing import Any, Callable

from companion.controller import Controller, Settings
from companion.rules.core import COINS, DICE
from companion.sdnotify import notify, watchdog_seconds
from companion.table import Table

CAMERA_RETRY_SECONDS = 5.0
STALE_FRAME_SECONDS = 5.0
# A look at a still tray on the reading thread not done after this long is stuck (a Pi takes
# seconds at worst): the loop is unhealthy, and the watchdog restarts the service, as it did
# when the read held up the loop itself.
STUCK_READ_SECONDS = 60.0
# The rolls whose dice's size must agree before the players hear it is too small.
SIZED_ROLLS = 3

log = logging.getLogger(__name__)


class Daemon:
    def __init__(self, table: Table, devices: Any, settings: Settings, *,
                 clock: Callable[[], float] = time.monotonic, dice_calibration: Any = None,
                 coin_calibration: Any = None, shuffler: Any = None,
                 hooks: tuple[Callable[["Daemon"], None], ...] = (), reads: Any = None):
        """``devices``: a :class:`companion.devices.build.Devices` (events, display, leds,
        camera or None, panel or None). ``hooks`` run at the start of every step (the
        simulated table uses one to throw dice into its synthetic tray). ``reads``: where
        the settle detectors read settled rolls (a ``ReadingThread``, closed at
        ``shutdown``); None: within ``step``."""
        self.table = table
        self.hooks = hooks
        self.devices = devices
        self.clock = clock
        self.dice_calibration = dice_calibration
        self.coin_calibration = coin_calibration
        self.reads = reads
        settings.camera = settings.camera and devices.camera is not None
        settings.read_coins = settings.read_coins and coin_calibration is not None
        self.controller = Controller(table, settings, clock=clock, shuffler=shuffler)
        self.detector = None
        self._detectors: dict[str, Any] = {}   # one per kind of roll, while the camera stays
        self._armed_for: tuple | None = None
        # (per kind of roll, where the game stood when its detector's last reading was shown)
        self._game_at_reading: dict[str, tuple] = {}
        self.camera_open = False
        self.camera_retry_at = 0.0
        self.last_frame_at: float | None = None
        self.last_step_at = clock()
        self.stopping = False
        self.camera_problem = ""
        # (what the players were told, once each, of where the camera stands: _tell_about_camera)
        self.told_turned = self.told_small = self.told_steep = False

    # ------------------------------------------------------------------ one iteration

    def step(self, timeout: float = 0.02) -> None:
        for hook in self.hooks:
            hook(self)
        events = self.devices.events
        ev = events.get(timeout)
        while ev is not None:
            self.controller.button(ev.button, ev.kind)
            ev = events.get(0)
        self._feed_tray()
        self.controller.tick()
        self.devices.display.show(self.controller.lines())
        leds = self.devices.leds
        for role, state in self.controller.leds().items():
            if role in leds.states:
                leds.set(role, state)
        self.last_step_at = self.clock()

    def _feed_tray(self) -> None:
        cam = self.devices.camera
        if cam is None:
            return
        from companion.devices.camera import CameraError

        now = self.clock()
        if not self.camera_open:
            if now < self.camera_retry_at:
                return
            try:
                cam.open()
                self.camera_open = True
                self.camera_problem = ""
                # (what the camera delivers, where the installer looks: journalctl)
                log.info("camera open: %s", cam.describe())
                self.controller.set_camera(True)
            except CameraError as e:
                self._camera_lost(str(e), now)
                return
        want = self.controller.tray()
        if want is None:
            # (Paused, a notice on screen, a reading shown: until ``tray_generation`` moves
            # on, the roll wanted after is this one, and the detector goes on from what it
            # saw. Dice thrown meanwhile are a roll; dice still being read are read on.
            # Armed anew, it would wait for motion, and the players would have to roll again.)
            return
        key = (*want, self.controller.tray_generation)
        if key != self._armed_for:
            self.detector = self._detectors.get(want[0])
            if self.detector is None:
                self.detector = self._detectors[want[0]] = self._detector(want[0])
            else:
                # The same camera's next roll: a new roll to wait for, but what the rolls so
                # far showed of the camera (the dice's size, its slant) still holds.
                self.detector.reset(forget=False)
                rolls = self._rolls_entered_since(want[0])
                if rolls is not None:
                    # The game took an input since: the last reading was entered (or the roll
                    # was entered by hand). Its dice, left lying, are not this roll's; where
                    # it took none, the players turned the reading down and may throw only
                    # part of it again (a cocked die), the rest still this roll's. A roll
                    # more entered since, the tray was used unseen by this detector.
                    self.detector.roll_entered(tray_known=rolls <= 1)
            self.detector.arm()
            self._armed_for = key
        try:
            frame, _ = cam.read()
        except CameraError as e:
            self._camera_lost(str(e), now)
            return
        self.last_frame_at = now
        reading = self.detector.feed(frame, now)
        self.controller.tray_state(self.detector.state)
        if reading is not None:
            self._game_at_reading[want[0]] = self._game_now()
            self.controller.reading(reading, seen=not self.detector.thrown_unseen)
            self._tell_about_camera(frame.shape)

    def _game_now(self) -> tuple:
        """Where the game stands: which game, and its inputs so far (the last of them)."""
        active = self.table.active
        return self.table.game_row_id, len(active), active[-1] if active else None

    def _rolls_entered_since(self, kind: str) -> int | None:
        """None where the game took no input since the last reading of ``kind``; else how
        many rolls (dice or coins) it took since (many, where that game or its inputs up to
        then are gone: another game, an undo)."""
        then = self._game_at_reading.get(kind)
        now = self._game_now()
        if then == now:
            return None
        game, n, last = then if then is not None else (None, 0, None)
        active = self.table.active
        if game != now[0] or n > len(active) or (n and active[n - 1] != last):
            return len(active) + 1
        return sum(1 for _, inp in active[n:] if inp.kind in (DICE, COINS))

    def _tell_about_camera(self, frame_shape: tuple[int, ...]) -> None:
        """Once the rolls show where the camera stands, tell the players, once each thing,
        what costs readings there, as ``companion calibrate`` tells the installer
        (``setup.placement_costs``): its turn about its own axis, the dice's size (once
        ``SIZED_ROLLS`` rolls show it: one misread roll does not), its slant (as at the
        frame's centre: ``SettleDetector.camera_slant``). (Said or not, the rolls have
        spoken: each is judged once per camera.)"""
        from companion.vision.calibration import Calibration
        from companion.vision.setup import placement_costs
        d = self.detector
        # (what the rolls show now that was not judged yet)
        learnt = Calibration(frame_size=[frame_shape[1], frame_shape[0]])
        if not self.told_turned and d.learnt_roll is not None:
            self.told_turned, learnt.roll = True, d.learnt_roll
        if not self.told_small and d.sized_rolls >= SIZED_ROLLS:
            self.told_small, learnt.die_size = True, d.learnt_die_size
        if not self.told_steep and (slant := d.camera_slant) is not None:
            self.told_steep, learnt.slant = True, slant
        tell = {"turned": self.controller.camera_turned, "small": self.controller.dice_small,
                "steep": self.controller.camera_steep}
        for what, measure in placement_costs(learnt).items():
            tell[what](measure)

    def _detector(self, kind: str):
        from companion.vision.settle import SettleDetector

        if kind == DICE:
            return SettleDetector(self.dice_calibration, executor=self.reads)
        assert kind == COINS
        from companion.vision.coins import read_coins

        cal = self.coin_calibration
        return SettleDetector(reader=lambda frame: read_coins(frame, cal), executor=self.reads)

    def _camera_lost(self, why: str, now: float) -> None:
        if self.camera_open or not self.camera_problem:   # (said once, not at every retry)
            log.warning("camera: %s; rolls are entered with the buttons until it is back "
                        "(tried again every %g s)", why, CAMERA_RETRY_SECONDS)
        self.camera_problem = why
        if self.camera_open:
            try:
                self.devices.camera.close()
            except Exception:
                pass
        self.camera_open = False
        self._armed_for = None
        # (The camera that comes back may stand elsewhere: nothing learnt of this one holds.
        # A look at its frames not started yet is not started: the next roll's would wait.)
        for detector in self._detectors.values():
            detector.reset()
        self.detector, self._detectors = None, {}
        self._game_at_reading = {}
        self.told_turned = self.told_small = self.told_steep = False
        self.camera_retry_at = now + CAMERA_RETRY_SECONDS
        self.controller.set_camera(False)

    # ------------------------------------------------------------------ health

    def health(self) -> tuple[bool, str]:
        """Is the loop doing its job? Checked before every watchdog ping."""
        now = self.clock()
        if self.controller.tray() is not None and self.camera_open and self.last_frame_at is not None:
            if now - self.last_frame_at > STALE_FRAME_SECONDS:
                return False, f"no camera frame for {now - self.last_frame_at:.0f} s"
        since = self.detector.reading_since if self.detector is not None else None
        if since is not None and now - since > STUCK_READ_SECONDS:
            return False, f"a look at the tray not done after {now - since:.0f} s"
        panel = self.devices.panel
        if panel is not None and hasattr(panel, "healthy") and not panel.healthy():
            return False, "the USB panel's link is not running"
        return True, "ok"

    # ------------------------------------------------------------------ the service

    def run(self) -> int:
        """Loop until SIGTERM/SIGINT; leave the LEDs and display clean."""
        def stop(signum, frame):
            self.stopping = True
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        period = watchdog_seconds()
        last_ping = 0.0
        self.step(0)
        notify("READY=1\nSTATUS=" + self._status_text())
        try:
            while not self.stopping:
                self.step(0.02)
                now = time.monotonic()
                if period and now - last_ping >= period / 3:
                    ok, why = self.health()
                    if ok:
                        notify("WATCHDOG=1\nSTATUS=" + self._status_text())
                        last_ping = now
                    else:
                        notify("STATUS=unhealthy: " + why)
        finally:
            notify("STOPPING=1")
            self.shutdown()
        return 0

    def _status_text(self) -> str:
        g = self.table.game
        if g is None:
            return "menu"
        return f"{g.game_id}, {len(self.table.active)} inputs"

    def shutdown(self) -> None:
        try:
            self.devices.leds.all_off()
            self.devices.display.show(["Table Companion", "Stopped.", "The game is saved.", ""])
        finally:
            if self.reads is not None:
                self.reads.close()
            self.devices.close()
            self.table.close()
