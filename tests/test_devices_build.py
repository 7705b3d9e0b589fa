"""open_devices(): the devices a configuration describes, here all on mock backends."""

import time

import pytest

from companion.config import load_config
from companion.devices.build import mock_config, open_devices
from companion.devices.display import MemoryDisplay
from companion.devices.gpio import GpioError


def test_mock_devices_work_end_to_end():
    cfg = mock_config(load_config(None)).replace({"buttons": {"bounce_ms": 5, "hold_ms": 100}})
    devices = open_devices(cfg)
    try:
        pin = devices.pin_factory.pin(cfg["buttons"]["pins"]["ok"])
        pin.drive_low()
        time.sleep(0.02)
        pin.drive_high()
        assert [(e.button, e.kind) for e in (devices.events.get(1), devices.events.get(1))] == [
            ("ok", "press"), ("ok", "release")]
        devices.leds.set("waiting", "on")
        assert devices.pin_factory.pin(cfg["leds"]["pins"]["waiting"]).state
        assert isinstance(devices.display, MemoryDisplay)
        devices.display.show(["hello"])
        assert devices.display.lines[0].startswith("hello")
        frame, _t = devices.camera.open().read()
        assert frame.shape == (cfg["camera"]["height"], cfg["camera"]["width"], 3)
    finally:
        devices.close()


def test_keyboard_and_terminal_backends_are_chosen_by_config(monkeypatch):
    import os
    r, w = os.pipe()
    monkeypatch.setattr("sys.stdin", os.fdopen(r))
    cfg = load_config(None).replace({"buttons": {"backend": "keyboard"},
                                     "leds": {"backend": "memory"},
                                     "lcd": {"backend": "terminal"},
                                     "camera": {"backend": "synthetic"}})
    devices = open_devices(cfg)
    try:
        from companion.devices.display import TerminalDisplay
        from companion.devices.keyboard import KeyboardButtons
        assert isinstance(devices.buttons, KeyboardButtons)
        assert isinstance(devices.display, TerminalDisplay) and devices.display.leds is devices.leds
        os.write(w, b"u")
        assert devices.events.get(1).button == "undo"
    finally:
        os.close(w)
        devices.close()


def test_a_failing_device_closes_what_was_opened(monkeypatch):
    import os
    import threading
    from companion.devices.display import DisplayError
    r, w = os.pipe()
    monkeypatch.setattr("sys.stdin", os.fdopen(r))
    cfg = load_config(None).replace({"buttons": {"backend": "keyboard"},
                                     "leds": {"backend": "memory"},
                                     "lcd": {"backend": "i2c", "port": 250}})
    try:
        with pytest.raises(DisplayError, match="/dev/i2c-250"):
            open_devices(cfg)
        # the keyboard reader started before the LCD failed has been stopped again
        assert not [t for t in threading.enumerate() if t.name == "keyboard" and t.is_alive()]
    finally:
        os.close(w)


def test_an_unknown_pin_factory_is_a_clear_error():
    from companion.devices.gpio import make_pin_factory
    with pytest.raises(GpioError, match="no pin factory called 'nonsense'"):
        make_pin_factory("nonsense")
