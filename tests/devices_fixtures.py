"""Helpers for the device and firmware tests: MicroPython stand-ins, an HD44780 emulator, and
the panel firmware running on a pseudo-terminal.

The firmware files are imported as they are deployed (top-level modules from firmware/),
with small stand-ins for the MicroPython-only modules ``machine`` and ``micropython`` and a
``time`` that adds MicroPython's ``ticks_ms``/``ticks_diff``/``sleep_ms``/``sleep_us``.
"""

from __future__ import annotations

import importlib.util
import os
import select
import sys
import threading
import time as _time
import tty
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"


# --- an HD44780 behind a PCF8574, as seen on the I2C bus ---------------------------------

class HD44780Emulator:
    """Decodes the bytes written to the PCF8574 (an I2C stand-in: ``writeto(addr, buf)``)
    into the controller's memory, latching a nibble on each falling edge of E."""

    ROW_OFFSETS = (0x00, 0x40, 0x14, 0x54)

    def __init__(self, cols: int = 20, rows: int = 4, address: int = 0x27):
        self.cols, self.rows, self.address = cols, rows, address
        self.ddram = [0x20] * 128
        self.cgram = [0] * 64
        self.addr = 0
        self.cg_mode = False
        self.four_bit = False
        self.half: tuple[int, int] | None = None
        self.prev = 0
        self.backlight = False
        self.fail_writes = 0          # > 0: the next writes raise OSError 121 (a noisy bus)
        self.writes = 0

    def writeto(self, address: int, buf) -> None:
        if address != self.address:
            raise OSError(5, "EIO: no device at this address")
        if self.fail_writes:
            self.fail_writes -= 1
            raise OSError(121, "Remote I/O error")
        for v in bytes(buf):
            self.writes += 1
            self.backlight = bool(v & 0x08)
            if self.prev & 0x04 and not v & 0x04:       # E falling: latch
                self._nibble(self.prev & 0x01, self.prev & 0xF0)
            self.prev = v

    def _nibble(self, rs: int, nib: int) -> None:
        if not self.four_bit:
            self._exec(rs, nib)
        elif self.half is None:
            self.half = (rs, nib)
        else:
            self._exec(rs, self.half[1] | (nib >> 4))
            self.half = None

    def _exec(self, rs: int, b: int) -> None:
        if rs:
            if self.cg_mode:
                self.cgram[self.addr & 63] = b
            else:
                self.ddram[self.addr & 127] = b
            self.addr += 1
        elif b & 0x80:
            self.addr, self.cg_mode = b & 0x7F, False
        elif b & 0x40:
            self.addr, self.cg_mode = b & 0x3F, True
        elif b & 0x20:
            self.four_bit = not b & 0x10
        elif b == 0x01:
            self.ddram = [0x20] * 128
            self.addr, self.cg_mode = 0, False

    def row_bytes(self, row: int) -> bytes:
        start = self.ROW_OFFSETS[row]
        return bytes(self.ddram[start:start + self.cols])

    def lines(self) -> list[str]:
        """The text shown; custom characters 0-7 appear as chr(0)..chr(7)."""
        return [self.row_bytes(r).decode("latin-1") for r in range(self.rows)]

    def glyph(self, slot: int) -> tuple[int, ...]:
        return tuple(self.cgram[slot * 8:slot * 8 + 8])


# --- MicroPython stand-ins -----------------------------------------------------------------

class Reset(BaseException):
    """machine.reset() was called."""


class StopFirmware(BaseException):
    """Raised by the stand-in watchdog to end a firmware run in a test."""


def make_machine(i2c_device) -> types.ModuleType:
    m = types.ModuleType("machine")

    class Pin:
        IN, OUT, PULL_UP = "in", "out", "pull_up"
        levels: dict = {}           # GP number -> level; tests drive inputs here

        def __init__(self, ident, mode=None, pull=None, value=None):
            self.ident = ident
            if pull == Pin.PULL_UP:
                Pin.levels.setdefault(ident, 1)
            if value is not None:
                Pin.levels[ident] = value

        def value(self, v=None):
            if v is None:
                return Pin.levels.get(self.ident, 0)
            Pin.levels[self.ident] = 1 if v else 0

    class I2C:
        def __init__(self, ident, sda=None, scl=None, freq=None):
            self.device = i2c_device

        def writeto(self, address, buf):
            self.device.writeto(address, buf)

    class WDT:
        instances: list = []

        def __init__(self, timeout):
            self.timeout, self.feeds, self.stop = timeout, 0, threading.Event()
            WDT.instances.append(self)

        def feed(self):
            self.feeds += 1
            if self.stop.is_set():
                raise StopFirmware()

    def reset():
        m.resets += 1
        raise Reset()

    m.Pin, m.I2C, m.WDT, m.reset, m.resets = Pin, I2C, WDT, reset, 0
    return m


def make_micropython() -> types.ModuleType:
    mp = types.ModuleType("micropython")
    mp.kbd_intr_calls = []
    mp.kbd_intr = mp.kbd_intr_calls.append
    return mp


def make_time() -> types.ModuleType:
    t = types.ModuleType("time")
    t.__dict__.update({k: getattr(_time, k) for k in dir(_time) if not k.startswith("__")})
    t.ticks_ms = lambda: int(_time.monotonic() * 1000) & 0x3FFFFFFF
    t.ticks_diff = lambda a, b: ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000
    t.sleep_ms = lambda ms: _time.sleep(ms / 1000)
    t.sleep_us = lambda us: None      # the emulated LCD needs no settling time
    return t


def load_firmware(i2c_device=None) -> types.SimpleNamespace:
    """Import the firmware modules (with stand-ins) and return them as a namespace."""
    if str(FIRMWARE) not in sys.path:
        sys.path.insert(0, str(FIRMWARE))
    machine = make_machine(i2c_device or HD44780Emulator())
    micropython = make_micropython()
    saved = {name: sys.modules.get(name) for name in ("machine", "micropython", "time")}
    sys.modules.update(machine=machine, micropython=micropython, time=make_time())
    try:
        spec = importlib.util.spec_from_file_location("tc_firmware_main", FIRMWARE / "main.py")
        main = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(main)
    finally:
        for name, mod in saved.items():
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod
    import debounce
    import hd44780
    import panel_app
    import panel_pins
    import panel_protocol
    return types.SimpleNamespace(main=main, machine=machine, micropython=micropython,
                                 panel_app=panel_app, hd44780=hd44780, debounce=debounce,
                                 panel_pins=panel_pins, protocol=panel_protocol)


# --- the panel on a pseudo-terminal ----------------------------------------------------------

BUTTONS = ("ok", "back", "up", "down", "undo")
LEDS = ("waiting", "accepted", "attention", "broken", "death")


class FirmwareSim:
    """The panel firmware's logic (PanelApp, the debouncer, the LCD driver on an emulated
    HD44780) serving the master side of a pty; the host opens ``path`` with pyserial."""

    def __init__(self, fw, *, bounce_ms: int = 5, hold_ms: int = 150, host_timeout_ms: int = 800):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)       # binary-clean from the start, before pyserial opens it
        tty.setraw(self.master)
        self.path = os.ttyname(self.slave)
        self.fw = fw
        self.settings = dict(bounce_ms=bounce_ms, hold_ms=hold_ms)
        self.host_timeout_ms = host_timeout_ms
        self.pressed = {b: False for b in BUTTONS}
        self.lit = {x: False for x in LEDS}
        self.drop_output = False      # True: what the panel writes is lost (a dead cable)
        self.to_panel_garbage = b""   # bytes slipped in front of what the host sends next
        self.lock = threading.Lock()
        self.t0 = _time.monotonic()
        self._boot()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _boot(self) -> None:
        self.lcd_chip = HD44780Emulator()
        lcd = self.fw.hd44780.Lcd(self.lcd_chip, 0x27, 20, 4, lambda us: None)
        self.app = self.fw.panel_app.PanelApp(
            self._write, lcd,
            [(b, lambda b=b: self.pressed[b]) for b in BUTTONS],
            [(x, lambda on, x=x: self.lit.__setitem__(x, bool(on))) for x in LEDS],
            now=self.now(), name="sim-panel", **self.settings)
        self.app.host_timeout_ms = self.host_timeout_ms

    def reboot(self) -> None:
        """The firmware restarts (a watchdog reset) while the port stays: a blank LCD, LEDs
        off, and an ANNOUNCE."""
        with self.lock:
            self._boot()

    def now(self) -> int:
        return int((_time.monotonic() - self.t0) * 1000)

    def _write(self, data: bytes) -> None:
        if self.drop_output:
            return
        try:
            os.write(self.master, data)
        except OSError:
            pass

    def write_raw(self, data: bytes) -> None:
        """Bytes from the panel that are not a frame (noise, a half frame)."""
        os.write(self.master, data)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self.master], [], [], 0.002)
                data = os.read(self.master, 512) if ready else b""
            except OSError:
                data = b""
            with self.lock:
                if data and self.to_panel_garbage:
                    data, self.to_panel_garbage = self.to_panel_garbage + data, b""
                self.app.feed(data, self.now())
                self.app.tick(self.now())

    def press(self, button: str, seconds: float = 0.03) -> None:
        self.pressed[button] = True
        _time.sleep(seconds)
        self.pressed[button] = False

    def lcd_lines(self) -> list[str]:
        with self.lock:
            return self.lcd_chip.lines()

    def unplug(self) -> None:
        """The cable is pulled: the panel stops and its port disappears."""
        self._stop.set()
        self._thread.join(timeout=1)
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


def wait_for(predicate, timeout: float = 3.0, step: float = 0.01) -> bool:
    end = _time.monotonic() + timeout
    while _time.monotonic() < end:
        if predicate():
            return True
        _time.sleep(step)
    return predicate()
