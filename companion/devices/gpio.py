"""Buttons and LEDs on the Pi's GPIO header, through gpiozero.

Both take a gpiozero pin factory, so the same code drives real pins (lgpio on a Pi) or
gpiozero's ``MockFactory`` (tests and the PC demo drive ``factory.pin(17).drive_low()``).
``make_pin_factory(name)`` turns the ``[gpio] pin_factory`` setting into one; share it
between ``GpioButtons`` and ``GpioLeds`` so a GPIO cannot be claimed twice.

Debouncing is done here rather than by gpiozero's ``bounce_time``: the mock pins ignore
``bounce_time``, and doing it here gives the same behaviour everywhere (and a test for it).
The first edge counts at once; edges in the next ``bounce_ms`` are ignored, and when that
window closes the pin is read again so a glitch can never leave a button "stuck down".
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from companion.devices.events import EventQueue, UndoTranslator
from companion.devices.leds import Leds


class GpioError(RuntimeError):
    """A GPIO could not be claimed (wrong pin, already in use, no GPIO on this machine)."""


def make_pin_factory(name: str):
    """A gpiozero pin factory from its name; "auto" is None (gpiozero chooses, lgpio on a Pi)."""
    if name == "auto":
        return None
    if name == "mock":
        from gpiozero.pins.mock import MockFactory
        return MockFactory()
    from importlib.metadata import entry_points
    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.name == name:
            try:
                return ep.load()()
            except Exception as e:  # lgpio missing, not a Pi, no /dev/gpiochip...
                raise GpioError(f"gpio pin factory {name!r} cannot start here: {e}") from e
    raise GpioError(f"gpiozero has no pin factory called {name!r}")


def _explain(e: Exception) -> str:
    if type(e).__name__ == "BadPinFactory":
        return f"{e} (no GPIO on this machine: not a Pi? On a PC use --mock or pin_factory = \"mock\")"
    return str(e)


def _quietly(make):
    """gpiozero warns once per factory it fails to load before raising; the error says it all."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make()


class _Debounced:
    """One button's debounced state; calls ``report(kind)`` for accepted changes and holds."""

    def __init__(self, device, bounce_s: float, report: Callable[[str], None]):
        self.device = device
        self.bounce_s = bounce_s
        self.report = report
        self.down = False
        self.held = False
        self.last_change = -1e9
        self.lock = threading.Lock()
        self.timer: threading.Timer | None = None

    def edge(self) -> None:
        with self.lock:
            now = time.monotonic()
            wait = self.last_change + self.bounce_s - now
            if wait > 0:
                # Inside the bounce window: look again when it closes.
                if self.timer is None:
                    self.timer = threading.Timer(wait, self.recheck)
                    self.timer.daemon = True
                    self.timer.start()
                return
            self._accept(self.device.is_pressed, now)

    def recheck(self) -> None:
        with self.lock:
            self.timer = None
            if not self.device.closed:
                self._accept(self.device.is_pressed, time.monotonic())

    def hold(self) -> None:
        with self.lock:
            if self.down and not self.held:
                self.held = True
                self.report("hold")

    def _accept(self, pressed: bool, now: float) -> None:
        if pressed == self.down:
            return
        self.down, self.held, self.last_change = pressed, False, now
        self.report("press" if pressed else "release")

    def cancel(self) -> None:
        with self.lock:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None


class GpioButtons:
    """Buttons wired from a GPIO to GND, reported as ButtonEvents into ``events``.

    ``pins`` maps a button name to its BCM GPIO number, e.g. ``{"ok": 17, "back": 27}``.
    """

    def __init__(self, pins: dict[str, int], events: EventQueue, *, bounce_ms: int = 30,
                 hold_ms: int = 800, undo_on_hold_back: bool = True, pin_factory=None):
        from gpiozero import Button
        from gpiozero.exc import GPIOZeroError

        self.pins = dict(pins)
        translate = UndoTranslator(events, "gpio", undo_on_hold_back)
        self._buttons = {}
        self._state: dict[str, _Debounced] = {}
        try:
            for name, pin in self.pins.items():
                button = _quietly(lambda: Button(pin, pull_up=True, hold_time=hold_ms / 1000,
                                                 pin_factory=pin_factory))
                self._buttons[name] = button
                state = _Debounced(button, bounce_ms / 1000,
                                   lambda kind, name=name: translate(name, kind))
                self._state[name] = state
                button.when_pressed = state.edge
                button.when_released = state.edge
                button.when_held = state.hold
        except (GPIOZeroError, OSError, RuntimeError) as e:
            self.close()
            raise GpioError(f"button {name!r} on GPIO{pin}: {_explain(e)}") from e

    def is_pressed(self, name: str) -> bool:
        """The debounced state of one button."""
        return self._state[name].down

    def close(self) -> None:
        for state in self._state.values():
            state.cancel()
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()


class GpioLeds(Leds):
    """LEDs by role on GPIO pins (``{"waiting": 5, ...}``), active high."""

    def __init__(self, pins: dict[str, int], *, blink_ms: int = 400, pin_factory=None):
        from gpiozero import LED
        from gpiozero.exc import GPIOZeroError

        super().__init__(tuple(pins))
        self.pins = dict(pins)
        self._blink_s = blink_ms / 1000
        self._leds = {}
        try:
            for role, pin in self.pins.items():
                self._leds[role] = _quietly(
                    lambda: LED(pin, initial_value=False, pin_factory=pin_factory))
        except (GPIOZeroError, OSError, RuntimeError) as e:
            self.close()
            raise GpioError(f"LED {role!r} on GPIO{pin}: {_explain(e)}") from e

    def _apply(self, role: str, state: str) -> None:
        led = self._leds[role]
        if state == "on":
            led.on()
        elif state == "off":
            led.off()
        else:
            led.blink(on_time=self._blink_s, off_time=self._blink_s, background=True)

    def close(self) -> None:
        for led in self._leds.values():
            led.close()
        self._leds.clear()
