"""``companion run``: load the configuration, open the devices, resume the game, loop.

On a Raspberry Pi the configuration's devices are used. Anywhere else (or with ``--sim``)
the simulated table: the LCD drawn in the terminal, the keyboard as buttons, and a
synthetic tray into which a simulated hand throws dice a moment after the companion asks
for a roll; the real reader reads them, and the players accept or correct the reading as
they would at a real table.
"""

from __future__ import annotations

import logging
import random
import sys
from pathlib import Path

from companion.rules.core import COINS, DICE, HEADS, TAILS

log = logging.getLogger("companion")

SIM_THROW_DELAY = 1.5   # seconds between "roll the dice" and the simulated hand throwing


def on_a_raspberry_pi() -> bool:
    try:
        model = Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False
    return "Raspberry Pi" in model


def simulated_table(cfg, keyboard: bool):
    """``cfg`` with the simulated table's devices (nothing touches hardware)."""
    return cfg.replace({
        "buttons": {"backend": "keyboard" if keyboard else "none"},
        "leds": {"backend": "memory"},
        "lcd": {"backend": "terminal"},
        "camera": {"backend": "synthetic"},
    })


class SimulatedHand:
    """Throws random dice (or coins) into the synthetic tray when a roll is wanted."""

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.Random()
        self.wanted_since: float | None = None
        self.thrown_for: tuple | None = None

    def __call__(self, daemon) -> None:
        c = daemon.controller
        want = c.tray()
        if want is None or not daemon.camera_open:
            self.wanted_since = None
            return
        key = (*want, c.tray_generation)
        now = daemon.clock()
        if self.thrown_for == key:
            return
        if self.wanted_since is None:
            self.wanted_since = now
        elif now - self.wanted_since >= SIM_THROW_DELAY:
            kind, n = want
            if kind == DICE:
                daemon.devices.camera.show([self.rng.randint(1, 6) for _ in range(n)])
            elif kind == COINS:
                daemon.devices.camera.show([], [self.rng.choice((HEADS, TAILS)) for _ in range(n)])
            self.thrown_for, self.wanted_since = key, None


def start_daemon(config: str | None, *, sim: bool = False, state: Path | None = None) -> int:
    from companion.config import ConfigError, find_config_path, load_config
    from companion.controller import Settings
    from companion.daemon import Daemon
    from companion.devices.build import open_devices
    from companion.table import JournalError, Table
    from companion.vision.reading_thread import ReadingThread

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s", stream=sys.stderr)
    try:
        cfg = load_config(find_config_path(config))
    except ConfigError as e:
        print(f"companion: bad configuration: {e}", file=sys.stderr)
        return 2
    if not sim and not on_a_raspberry_pi():
        log.info("no Raspberry Pi found: running the simulated table (keyboard, terminal LCD, "
                 "rendered dice tray)")
        sim = True
    hooks = ()
    if sim:
        cfg = simulated_table(cfg, keyboard=sys.stdin.isatty())
        hooks = (SimulatedHand(),)
    state_dir = state or Path(cfg.expand_path("daemon", "state_dir"))
    try:
        table = Table(state_dir / "journal.sqlite3")
    except JournalError as e:
        print(f"companion: {e}", file=sys.stderr)
        return 1
    try:
        devices = open_devices(cfg)
    except Exception as e:  # each device raises its own error type, all with a clear message
        print(f"companion: cannot open the devices: {e}", file=sys.stderr)
        table.close()
        return 1
    settings = Settings(cols=cfg["lcd"]["cols"], rows=cfg["lcd"]["rows"],
                        auto_accept_seconds=cfg["daemon"]["auto_accept_seconds"],
                        names=tuple(cfg["players"]["names"]))
    cal = _calibration(cfg)
    # Coins are read only once `companion coins calibrate` has taught the reader the coin.
    coin_cal = cal if cal is not None and cal.coin else None
    daemon = Daemon(table, devices, settings, dice_calibration=cal, coin_calibration=coin_cal,
                    hooks=hooks, reads=ReadingThread())
    log.info("journal %s; %s", table.journal.path,
             f"resuming {table.game.game_id}" if table.game else "no game yet")
    return daemon.run()


def _calibration(cfg):
    """The dice calibration if one was saved; a bad file is reported and ignored."""
    path = Path(cfg.expand_path("vision", "calibration"))
    if not path.exists():
        return None
    from companion.vision.calibration import Calibration, CalibrationError
    try:
        return Calibration.load(path)
    except (CalibrationError, OSError, ValueError) as e:
        log.warning("ignoring the dice calibration %s: %s", path, e)
        return None
