"""The panel firmware under CPython, with stand-ins for MicroPython's machine/time/micropython:
the debouncer, the LCD driver against an emulated HD44780, the panel logic, and main.py's loop
over a pseudo-terminal."""

import os
import select
import threading
import time
import tty

import pytest

from companion.devices import panel_protocol as p
from devices_fixtures import HD44780Emulator, Reset, StopFirmware, load_firmware


@pytest.fixture(scope="module")
def fw():
    return load_firmware()


# --- debouncer ---------------------------------------------------------------------------

def test_debouncer_needs_a_stable_reading(fw):
    d = fw.debounce.Debouncer(1, bounce_ms=30, hold_ms=500)
    assert d.update(0, True, 0) is None
    assert d.update(0, False, 10) is None       # bounce
    assert d.update(0, True, 15) is None
    assert d.update(0, True, 40) is None        # only 25 ms stable
    assert d.update(0, True, 45) == "press"
    assert d.update(0, True, 100) is None
    assert d.update(0, True, 545) == "hold"
    assert d.update(0, True, 900) is None       # one hold per press
    assert d.update(0, False, 910) is None
    assert d.update(0, False, 940) == "release"


def test_debouncer_ignores_a_short_spike(fw):
    d = fw.debounce.Debouncer(2, bounce_ms=30)
    events = [d.update(1, t in (50, 55), t) for t in range(0, 200, 5)]
    assert set(events) == {None}


# --- LCD driver on an emulated controller ---------------------------------------------------

def test_lcd_driver_initialises_and_writes_where_asked(fw):
    chip = HD44780Emulator()
    lcd = fw.hd44780.Lcd(chip, 0x27, 20, 4, lambda us: None)
    lcd.init()
    assert chip.four_bit
    lcd.text(0, 0, b"Table Companion")
    lcd.text(3, 15, b"R2 of 9")               # cut at the end of the row
    lcd.create_char(2, bytes([0, 0, 0, 4, 0, 0, 0, 0]))
    lcd.text(2, 5, b"\x02")
    assert chip.lines()[0] == "Table Companion     "
    assert chip.lines()[3] == " " * 15 + "R2 of"
    assert chip.lines()[2][5] == "\x02" and chip.glyph(2) == (0, 0, 0, 4, 0, 0, 0, 0)
    lcd.clear()
    assert chip.lines() == [" " * 20] * 4
    assert chip.backlight
    lcd.backlight(False)
    assert not chip.backlight


def test_lcd_init_resynchronises_a_display_stuck_half_way_through_a_byte(fw):
    chip = HD44780Emulator()
    lcd = fw.hd44780.Lcd(chip, 0x27, 20, 4, lambda us: None)
    lcd.init()
    lcd._nibble(0x40)                          # noise: half a byte latched
    lcd.init()
    lcd.text(1, 0, b"ok")
    assert chip.lines()[1].startswith("ok")


# --- the panel logic ---------------------------------------------------------------------

class Harness:
    def __init__(self, fw):
        self.out = []
        self.chip = HD44780Emulator()
        self.pressed = {b: False for b in ("ok", "back")}
        self.lit = {"waiting": False, "death": False}
        lcd = fw.hd44780.Lcd(self.chip, 0x27, 20, 4, lambda us: None)
        self.app = fw.panel_app.PanelApp(
            self.out.append, lcd,
            [(b, lambda b=b: self.pressed[b]) for b in self.pressed],
            [(x, lambda on, x=x: self.lit.__setitem__(x, on)) for x in self.lit],
            now=0, bounce_ms=10, hold_ms=100)
        self.host_out = []
        self.host = p.Link(self.host_out.append)    # the host's end, driven by hand

    def to_panel(self, now):
        data, self.host_out[:] = b"".join(self.host_out), []
        self.app.feed(data, now)

    def from_panel(self, now):
        data, self.out[:] = b"".join(self.out), []
        return self.host.receive(data, now)

    def connect(self, now=0):
        self.host.send_control(p.HELLO, bytes([p.PROTOCOL_VERSION, 42]))
        self.to_panel(now)
        return self.from_panel(now)


def test_panel_announces_itself_on_boot_with_its_buttons_and_leds(fw):
    h = Harness(fw)
    msgs = h.from_panel(0)
    assert msgs[0][0] == p.ANNOUNCE
    info = p.parse_info(msgs[0][1])
    assert info["buttons"] == ["ok", "back"] and info["leds"] == ["waiting", "death"]
    assert info["version"] == p.PROTOCOL_VERSION and (info["cols"], info["rows"]) == (20, 4)
    assert h.chip.lines()[2].startswith("waiting for host")


def test_handshake_then_lcd_and_leds_follow_the_host(fw):
    h = Harness(fw)
    h.from_panel(0)
    msgs = h.connect()
    assert msgs[0][0] == p.WELCOME and p.parse_info(msgs[0][1])["nonce"] == 42
    assert h.app.connected
    h.host.send(p.LCD_CLEAR, b"", 0)
    h.host.send(p.LCD_TEXT, b"\x01\x03Ben's turn", 0)
    h.host.send(p.LED, bytes([1, 1, 40]), 0)
    h.host.send(p.LED, bytes([0, 2, 5]), 0)     # blink, 50 ms half-period
    h.to_panel(1)
    assert h.chip.lines()[1] == "   Ben's turn       "
    assert h.chip.lines()[2].strip() == ""
    assert h.lit["death"]
    seen = set()
    for t in range(0, 200, 10):
        h.app.tick(t)
        seen.add(h.lit["waiting"])
    assert seen == {True, False}
    h.from_panel(1)
    assert h.host.pending() == 0                # everything was acked


def test_buttons_go_up_only_while_a_host_is_connected(fw):
    h = Harness(fw)
    h.pressed["ok"] = True
    for t in range(0, 50, 5):
        h.app.tick(t)
    h.pressed["ok"] = False
    for t in range(50, 100, 5):
        h.app.tick(t)
    assert [m for m in h.from_panel(100) if m[0] == p.BUTTON] == []   # nobody to tell
    h.connect(100)
    h.pressed["back"] = True
    for t in range(100, 250, 5):
        h.app.tick(t)
    msgs = [m for m in h.from_panel(250) if m[0] == p.BUTTON]
    assert msgs == [(p.BUTTON, bytes([1, 0])), (p.BUTTON, bytes([1, 1]))]   # back press, hold


def test_host_silence_resets_the_panel_to_waiting(fw):
    h = Harness(fw)
    h.connect(0)
    h.host.send(p.LED, bytes([1, 1, 40]), 0)
    h.to_panel(0)
    assert h.lit["death"]
    h.app.tick(fw.panel_app.HOST_TIMEOUT_MS + 1)
    assert not h.app.connected and not h.lit["death"]
    assert h.chip.lines()[2].startswith("waiting for host")
    h.out.clear()
    h.app.tick(fw.panel_app.HOST_TIMEOUT_MS + fw.panel_app.ANNOUNCE_MS + 2)
    assert [m[0] for m in h.from_panel(0)] == [p.ANNOUNCE]


def test_ping_pong_and_refused_messages(fw):
    h = Harness(fw)
    h.connect()
    h.host.send_control(p.PING)
    h.host.send(0x7E, b"", 0)                    # a type the panel does not know
    h.to_panel(5)
    msgs = h.from_panel(5)
    assert (p.PONG, b"") in msgs
    assert (p.ERROR, b"bad message type 0x7e") in msgs


def test_a_host_of_another_version_is_refused(fw):
    h = Harness(fw)
    h.host.send_control(p.HELLO, bytes([p.PROTOCOL_VERSION + 1, 7]))
    h.to_panel(0)
    msgs = h.from_panel(0)
    assert not h.app.connected
    assert any(m[0] == p.ERROR and b"protocol" in m[1] for m in msgs)


def test_an_lcd_that_fails_does_not_stop_the_panel_and_is_redrawn(fw):
    h = Harness(fw)
    h.connect()
    h.chip.fail_writes = 1                       # one I2C error (OSError 121)
    h.host.send(p.LCD_TEXT, b"\x00\x00lost", 0)
    h.to_panel(0)
    assert not h.app.lcd_ok
    h.app.tick(fw.panel_app.LCD_RETRY_MS + 1)
    assert h.app.lcd_ok
    assert (p.ERROR, b"lcd reset") in h.from_panel(fw.panel_app.LCD_RETRY_MS + 1)


# --- main.py: the real loop, over a pty ------------------------------------------------------

def read_frames(fd, until, timeout=3.0):
    dec = p.Decoder()
    got = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], 0.02)
        if r:
            for f in dec.feed(os.read(fd, 512), 0):
                got.append(f)
                if until(f):
                    return got
    return got


class StdStream:
    """sys.stdin / sys.stdout stand-in on a file descriptor: .buffer is unbuffered."""

    def __init__(self, fd, mode):
        self.fd = fd
        self.buffer = open(fd, mode + "b", buffering=0, closefd=False)

    def fileno(self):
        return self.fd

    def write(self, text):
        self.buffer.write(text.encode())


def test_main_loop_announces_disables_ctrl_c_feeds_the_watchdog_and_serves(fw):
    master, slave = os.openpty()
    tty.setraw(slave)
    tty.setraw(master)
    Pin = fw.machine.Pin
    Pin.levels.clear()
    errors = []

    def run():
        try:
            fw.main.run(stdin=StdStream(slave, "r"), stdout=StdStream(slave, "w"))
        except StopFirmware:
            pass
        except BaseException as e:     # noqa: BLE001 - reported to the test below
            errors.append(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    try:
        frames = read_frames(master, lambda f: f[1] == p.ANNOUNCE)
        assert frames and frames[-1][1] == p.ANNOUNCE
        assert fw.micropython.kbd_intr_calls[-1] == -1
        # a 0x03 (Ctrl-C) in the stream is just data: the loop survives it
        os.write(master, b"\x03\x03" + p.encode(0, p.HELLO, bytes([p.PROTOCOL_VERSION, 5])))
        frames = read_frames(master, lambda f: f[1] == p.WELCOME)
        assert p.parse_info(frames[-1][2])["buttons"] == [b for b, _ in fw.panel_pins.BUTTONS]
        ok_pin = dict(fw.panel_pins.BUTTONS)["ok"]
        Pin.levels[ok_pin] = 0                     # press OK on the panel
        frames = read_frames(master, lambda f: f[1] == p.BUTTON)
        assert frames[-1][1:] == (p.BUTTON, bytes([0, 0]))
        wdt = fw.machine.WDT.instances[-1]
        assert wdt.timeout <= 8388 and wdt.feeds > 10
    finally:
        fw.machine.WDT.instances[-1].stop.set()
        t.join(timeout=2)
        os.close(master)
        os.close(slave)
    assert not errors


def test_main_resets_the_board_on_an_unhandled_error(fw, monkeypatch):
    def broken(*a, **k):
        raise RuntimeError("I2C bus stuck")
    monkeypatch.setattr(fw.main, "run", broken)
    resets = fw.machine.resets
    with pytest.raises(Reset):
        fw.main.start()
    assert fw.machine.resets == resets + 1


def test_holding_back_at_boot_stays_at_the_repl(fw):
    back_pin = dict(fw.panel_pins.BUTTONS)["back"]
    fw.machine.Pin.levels[back_pin] = 0
    r, w = os.pipe()
    try:
        calls = len(fw.micropython.kbd_intr_calls)
        fw.main.run(stdin=StdStream(r, "r"), stdout=StdStream(w, "w"))   # returns at once
        assert len(fw.micropython.kbd_intr_calls) == calls              # Ctrl-C still works
        assert b"staying at the REPL" in os.read(r, 200)
    finally:
        fw.machine.Pin.levels[back_pin] = 1
        os.close(r)
        os.close(w)
