"""The host's panel driver over pyserial on a pseudo-terminal, against the panel firmware's
logic running in the same test: handshake, buttons, LCD, LEDs, garbage both ways, a lossy
cable, and reconnecting after the cable is pulled (mid-frame) to the same or a new port."""

import pytest
import serial

from companion.devices import panel_protocol as p
from companion.devices.display import die_char
from companion.devices.events import EventQueue
from companion.devices.panel import PanelDisplay, PanelError, PanelLeds, PanelLink, serial_opener
from devices_fixtures import FirmwareSim, load_firmware, wait_for

TEXT = ["Ana's turn", "Roll " + die_char(3) + die_char(5) + die_char(6), "", "Ana 12 Ben 9"]


@pytest.fixture(scope="module")
def fw():
    return load_firmware()


class Rig:
    def __init__(self, fw):
        self.fw = fw
        self.sim = FirmwareSim(fw)
        self.port = {"path": self.sim.path}
        self.events = EventQueue()
        self.link = PanelLink(events=self.events, heartbeat_ms=100, timeout_ms=600,
                              opener=lambda: serial.serial_for_url(self.port["path"], timeout=0.01))
        self.leds = PanelLeds(self.link, blink_ms=100)
        self.display = PanelDisplay(self.link)
        self.link.start()

    def plug_in(self, sim):
        """A panel appears on ``sim``'s port (another USB socket: another device path)."""
        self.sim = sim
        self.port["path"] = sim.path

    def button_events(self, n, timeout=2.0):
        out = []
        for _ in range(n):
            ev = self.events.get(timeout=timeout)
            if ev is None:
                break
            out.append((ev.button, ev.kind))
        return out

    def close(self):
        self.link.close()
        self.sim.unplug()


@pytest.fixture
def rig(fw):
    r = Rig(fw)
    assert r.link.wait_connected(3), r.link.last_error
    yield r
    r.close()


def lcd_shows(rig, lines):
    want = [line.ljust(20) for line in lines] + [" " * 20] * (4 - len(lines))
    return wait_for(lambda: [decode(s) for s in rig.sim.lcd_lines()] == want)


def decode(line):
    """The panel LCD's bytes as the host's text (custom characters 0-5 are dice)."""
    return "".join(die_char(ord(c) + 1) if ord(c) < 6 else c for c in line)


def test_handshake_learns_the_panel(rig):
    info = rig.link.info
    assert info["name"] == "sim-panel" and info["version"] == p.PROTOCOL_VERSION
    assert info["buttons"] == ["ok", "back", "up", "down", "undo"]
    assert (info["cols"], info["rows"]) == (20, 4)


def test_lcd_text_and_dice_reach_the_panel(rig):
    rig.display.show(TEXT)
    assert lcd_shows(rig, TEXT)
    chip = rig.sim.lcd_chip
    from companion.devices.display import GLYPHS
    assert all(chip.glyph(slot) == GLYPHS[slot] for slot in GLYPHS)
    rig.display.show(TEXT[:3] + ["Ana 15 Ben 9"])
    assert rig.display.last_update_writes == 2
    assert lcd_shows(rig, TEXT[:3] + ["Ana 15 Ben 9"])


def test_leds_follow_the_host(rig):
    rig.leds.set("death", "on")
    assert wait_for(lambda: rig.sim.lit["death"])
    rig.leds.set("death", "off")
    rig.leds.set("waiting", "blink")
    assert wait_for(lambda: not rig.sim.lit["death"])
    seen = set()
    wait_for(lambda: seen.add(rig.sim.lit["waiting"]) or len(seen) == 2, timeout=2)
    assert seen == {True, False}


def test_panel_buttons_become_button_events(rig):
    rig.sim.press("ok")
    assert rig.button_events(2) == [("ok", "press"), ("ok", "release")]
    rig.sim.press("back", 0.3)                  # longer than the panel's hold time: undo
    assert rig.button_events(2) == [("undo", "press"), ("undo", "release")]
    rig.sim.press("back", 0.03)
    assert rig.button_events(2) == [("back", "press"), ("back", "release")]


def test_garbage_both_ways_loses_nothing(rig):
    rig.sim.write_raw(b"\x00\xff\x03 boot noise \xa5\x01")        # panel -> host
    rig.sim.to_panel_garbage = b"\xa5\x02\x09\x20\xde\xad" + b"\x03" * 5   # host -> panel
    rig.display.show(TEXT)
    rig.sim.press("up")
    assert rig.button_events(2) == [("up", "press"), ("up", "release")]
    assert lcd_shows(rig, TEXT)
    assert rig.link.connected and rig.link.connections == 1


def test_a_lossy_cable_is_made_good_by_retransmission(rig):
    rig.display.show(["before"])
    assert lcd_shows(rig, ["before"])
    rig.sim.drop_output = True                  # the panel's acks are lost for a while
    rig.display.show(TEXT)
    import time
    time.sleep(0.25)                            # > RTO: the host retransmits
    rig.sim.drop_output = False
    assert lcd_shows(rig, TEXT)
    assert wait_for(lambda: rig.link.pending() == 0)
    assert rig.link.retransmits > 0


def test_cable_pulled_mid_frame_then_a_new_panel_on_a_new_port(rig):
    rig.display.show(TEXT)
    rig.leds.set("attention", "on")
    assert lcd_shows(rig, TEXT)
    other_socket = FirmwareSim(rig.fw)       # (made now so that its device path differs)
    rig.sim.write_raw(p.encode(9, p.BUTTON, b"\x00\x00")[:4])      # half a frame, then gone
    rig.sim.unplug()
    assert wait_for(lambda: not rig.link.connected, timeout=3)
    rig.display.show(TEXT[:3] + ["while away"])                    # remembered, not lost
    rig.leds.set("waiting", "on")
    rig.plug_in(other_socket)
    assert rig.link.wait_connected(5), rig.link.last_error
    assert rig.link.connections == 2
    # the new panel shows the whole current state: text, dice glyphs and LEDs
    assert lcd_shows(rig, TEXT[:3] + ["while away"])
    assert wait_for(lambda: rig.sim.lit["attention"] and rig.sim.lit["waiting"])
    rig.sim.press("down")
    assert rig.button_events(2) == [("down", "press"), ("down", "release")]
    assert rig.events.drain() == []                                # the half frame gave nothing


def test_a_panel_that_reboots_on_the_same_port_is_resynchronised(rig, fw):
    rig.display.show(TEXT)
    assert lcd_shows(rig, TEXT)
    rig.sim.reboot()
    assert wait_for(lambda: rig.link.connections == 2, timeout=3)
    assert lcd_shows(rig, TEXT)


def test_no_panel_is_a_clear_error_and_the_link_keeps_trying(tmp_path):
    opener = serial_opener(str(tmp_path / "ttyACM9"))
    with pytest.raises(PanelError, match="ttyACM9"):
        opener()
    link = PanelLink(opener=opener, heartbeat_ms=100, timeout_ms=500).start()
    try:
        assert not link.wait_connected(0.3)
        assert "ttyACM9" in link.last_error
        display = PanelDisplay(link)
        display.show(["nobody there"])          # no exception: remembered for later
        assert not display.ok and display.text[0].startswith("nobody there")
        assert not link.send(p.LCD_CLEAR, b"")
    finally:
        link.close()
