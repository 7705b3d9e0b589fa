"""Buttons through gpiozero's MockFactory (real pin state changes), and the keyboard."""

import os
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.devices.events import ButtonEvent, EventQueue, UndoTranslator
from companion.devices.gpio import GpioButtons, GpioError, GpioLeds
from companion.devices.keyboard import KeyboardButtons, KeyDecoder

PINS = {"ok": 17, "back": 27, "up": 22, "down": 23}
BOUNCE_MS, HOLD_MS = 20, 150


@pytest.fixture
def rig():
    factory = MockFactory()
    events = EventQueue()
    buttons = GpioButtons(PINS, events, bounce_ms=BOUNCE_MS, hold_ms=HOLD_MS, pin_factory=factory)
    yield factory, events, buttons
    buttons.close()
    factory.close()


def kinds(events, wait=0.0):
    time.sleep(wait)
    return [(e.button, e.kind) for e in events.drain()]


def test_press_and_release_of_a_wired_button(rig):
    factory, events, _ = rig
    pin = factory.pin(17)
    pin.drive_low()              # the button connects GPIO17 to GND
    time.sleep(BOUNCE_MS / 1000 + 0.01)
    pin.drive_high()
    assert kinds(events) == [("ok", "press"), ("ok", "release")]


def test_contact_bounce_gives_one_press(rig):
    factory, events, buttons = rig
    pin = factory.pin(22)
    for _ in range(5):           # chatter within a few milliseconds
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    assert kinds(events, wait=BOUNCE_MS / 1000 + 0.03) == [("up", "press")]
    assert buttons.is_pressed("up")


def test_a_glitch_inside_the_bounce_window_does_not_leave_the_button_stuck(rig):
    factory, events, buttons = rig
    pin = factory.pin(23)
    pin.drive_low()
    pin.drive_high()             # released again before the bounce window closed
    got = kinds(events, wait=BOUNCE_MS / 1000 + 0.05)
    assert got == [("down", "press"), ("down", "release")]
    assert not buttons.is_pressed("down")


def test_hold_is_reported_once_after_the_hold_time(rig):
    factory, events, _ = rig
    pin = factory.pin(17)
    pin.drive_low()
    assert kinds(events, wait=HOLD_MS / 1000 / 2) == [("ok", "press")]
    assert kinds(events, wait=HOLD_MS / 1000 + 0.15) == [("ok", "hold")]
    pin.drive_high()
    assert kinds(events, wait=0.01) == [("ok", "release")]


def test_short_back_is_back_and_long_back_is_undo(rig):
    factory, events, _ = rig
    pin = factory.pin(27)
    pin.drive_low()
    time.sleep(BOUNCE_MS / 1000 + 0.01)
    assert kinds(events) == []              # not decided yet: back or undo?
    pin.drive_high()
    assert kinds(events) == [("back", "press"), ("back", "release")]
    time.sleep(BOUNCE_MS / 1000 + 0.01)
    pin.drive_low()
    time.sleep(HOLD_MS / 1000 + 0.15)
    pin.drive_high()
    assert kinds(events, wait=0.01) == [("undo", "press"), ("undo", "release")]


def test_undo_on_its_own_button():
    factory = MockFactory()
    events = EventQueue()
    buttons = GpioButtons({"back": 27, "undo": 24}, events, bounce_ms=BOUNCE_MS, hold_ms=HOLD_MS,
                          undo_on_hold_back=False, pin_factory=factory)
    try:
        factory.pin(27).drive_low()          # back is reported at once in this mode
        factory.pin(24).drive_low()
        assert kinds(events) == [("back", "press"), ("undo", "press")]
    finally:
        buttons.close()
        factory.close()


def test_a_pin_used_twice_is_a_clear_error():
    factory = MockFactory()
    try:
        with pytest.raises(GpioError, match="GPIO17"):
            GpioButtons({"ok": 17, "back": 17}, EventQueue(), pin_factory=factory)
        # the first button was released again: the pin can be claimed now
        GpioButtons({"ok": 17}, EventQueue(), pin_factory=factory).close()
    finally:
        factory.close()


def test_leds_switch_real_mock_pins():
    factory = MockFactory()
    leds = GpioLeds({"waiting": 5, "death": 26}, blink_ms=20, pin_factory=factory)
    try:
        leds.set("waiting", "on")
        assert factory.pin(5).state and not factory.pin(26).state
        leds.set("waiting", "off")
        assert not factory.pin(5).state
        leds.set("death", "blink")
        time.sleep(0.12)
        changes = [s.state for s in factory.pin(26).states]
        assert changes.count(True) >= 2 and changes.count(False) >= 2
        assert leds.state("death") == "blink"
        with pytest.raises(ValueError, match="no LED for role 'party'"):
            leds.set("party", "on")
        with pytest.raises(ValueError, match="not one of"):
            leds.set("waiting", "dim")
        assert leds.state("waiting") == "off"
    finally:
        leds.close()
        factory.close()


def test_undo_translator_passes_other_buttons_through():
    events = EventQueue()
    t = UndoTranslator(events, "test")
    for b, k in [("ok", "press"), ("back", "press"), ("back", "hold"), ("back", "hold"),
                 ("back", "release"), ("ok", "release")]:
        t(b, k)
    assert [(e.button, e.kind) for e in events.drain()] == [
        ("ok", "press"), ("undo", "press"), ("undo", "release"), ("ok", "release")]


def test_event_queue_waits_at_most_the_timeout():
    q = EventQueue()
    start = time.monotonic()
    assert q.get(timeout=0.05) is None
    assert 0.04 <= time.monotonic() - start < 0.5
    q.put(ButtonEvent("ok", "press"))
    assert q.get(timeout=1).button == "ok"


# --- keyboard -----------------------------------------------------------------------------

def test_key_decoder_arrows_enter_backspace_and_u():
    d = KeyDecoder()
    assert d.feed(b"\x1b[A\x1b[B\r\x7fu") == ["up", "down", "ok", "back", "undo"]
    assert d.feed(b"\x1b[") == []            # half an arrow: wait for the rest
    assert d.feed(b"B") == ["down"]
    assert d.feed(b"x\x1b[15~") == []        # unknown keys are ignored
    assert d.feed(b"\x1b") == [] and d.flush() == ["back"]   # a lone Esc is Back


def test_keyboard_reads_keys_from_a_pipe():
    r, w = os.pipe()
    events = EventQueue()
    kb = KeyboardButtons(events, fd=r)
    try:
        os.write(w, b"\x1b[A\r")
        got = [events.get(timeout=1) for _ in range(4)]
        assert [(e.button, e.kind, e.source) for e in got] == [
            ("up", "press", "keyboard"), ("up", "release", "keyboard"),
            ("ok", "press", "keyboard"), ("ok", "release", "keyboard")]
    finally:
        os.close(w)
        kb.close()
        os.close(r)
