"""The character display: diffs, dice, recovery after I2C errors, the terminal and I2C backends."""

import io

import pytest

from companion.devices.display import (DICE, GLYPHS, DisplayError, MemoryDisplay, TerminalDisplay,
                                       die_char, die_glyph, encode_lcd)
from companion.devices.lcd_i2c import I2CDisplay

SCORE = ["Ana's turn    round 2", "Roll 3 dice", "", "Ana 12  Ben 9  Cy 4"]


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_show_pads_cuts_and_keeps_what_was_asked():
    d = MemoryDisplay(20, 4)
    d.show(["a" * 25, "short"])
    assert d.lines == ["a" * 20, "short" + " " * 15, " " * 20, " " * 20]
    assert d.text == d.lines


def test_only_changed_characters_are_written():
    d = MemoryDisplay(20, 4)
    first = d.show(SCORE)
    same = d.show(SCORE)
    assert same == 0
    changed = d.show(SCORE[:3] + ["Ana 15  Ben 9  Cy 4"])
    # one cursor move + "5" (the "1" is unchanged; the run is just the "5")
    assert changed == 2
    assert d.lines[3].startswith("Ana 15")
    assert first > 40
    assert d.writes == first + changed


def test_runs_join_across_one_unchanged_character():
    d = MemoryDisplay(20, 4)
    d.show(["abcdef"])
    assert d.show(["XbXdef"]) == 1 + 3          # "XbX" in one go, not two cursor moves
    assert d.show(["XbXdeY"]) == 1 + 1


def test_dice_faces_are_custom_characters():
    assert die_char(1) == "\u2680" and die_char(6) == "\u2685"
    with pytest.raises(ValueError):
        die_char(7)
    assert encode_lcd("4" + die_char(3) + "é~") == b"4\x02??"
    # six different glyphs, with 1 to 6 pips
    assert len(set(GLYPHS.values())) == 6
    for n in range(1, 7):
        assert sum(bin(row).count("1") for row in die_glyph(n)) == n
    d = MemoryDisplay(20, 4)
    d.show(["Roll: " + "".join(die_char(n) for n in (3, 5, 6))])
    assert d.lines[0].startswith("Roll: " + DICE[2] + DICE[4] + DICE[5])


def test_an_i2c_error_reinitialises_and_redraws_everything():
    d = MemoryDisplay(20, 4)
    d.show(SCORE)
    d.garble(0, 0, "#")          # noise changed a character behind our back
    d.fail_next(1)               # and the next write fails with OSError 121
    d.show(SCORE[:3] + ["Ana 15  Ben 9  Cy 4"])
    assert d.ok and d.recoveries == 1 and d.inits == 2
    assert d.lines == [line.ljust(20)[:20] for line in SCORE[:3] + ["Ana 15  Ben 9  Cy 4"]]


def test_a_display_that_stays_dead_does_not_raise_and_comes_back():
    clock = Clock()
    d = MemoryDisplay(20, 4, clock=clock)
    d.show(SCORE)
    d.fail_next(10)
    assert d.show(["gone"]) == 0 or not d.ok
    assert not d.ok and "121" in d.last_error
    clock.t += 0.5
    d.show(["still gone"])        # within the retry pause: nothing tried
    d.fail_next(0)                # the bus works again
    clock.t += 1.0
    d.show(["back"])
    assert d.ok and d.lines[0].startswith("back")


def test_periodic_full_redraw_fixes_silent_garbling():
    clock = Clock()
    d = MemoryDisplay(20, 4, full_redraw_seconds=60, clock=clock)
    d.show(SCORE)
    d.garble(1, 0, "#")
    d.show(SCORE)
    assert d.lines[1].startswith("#")       # nothing knew
    clock.t += 61
    d.show(SCORE)
    assert d.lines[1].startswith("Roll") and d.inits == 2


def test_terminal_display_draws_the_frame_and_leds():
    from companion.devices.leds import MemoryLeds
    out = io.StringIO()
    leds = MemoryLeds(("waiting", "death"))
    leds.set("waiting", "blink")
    d = TerminalDisplay(20, 4, stream=out, ansi=False, leds=leds)
    d.show(SCORE)
    box = out.getvalue().splitlines()
    assert box[0] == "+" + "-" * 20 + "+"
    assert box[1] == "|" + SCORE[0][:20].ljust(20) + "|"
    assert box[5] == box[0]
    assert "(~)waiting" in box[6] and "( )death" in box[6]


def test_terminal_display_redraws_in_place_on_a_terminal():
    out = io.StringIO()
    d = TerminalDisplay(16, 2, stream=out, ansi=True)
    d.show(["hello"])
    text = out.getvalue()
    assert text.startswith("\x1b7") and text.endswith("\x1b8") and "\x1b[2;1H|hello" in text


class FakeCharLCD:
    """Records what I2CDisplay asks of RPLCD's CharLCD."""

    def __init__(self, fail=None):
        self.chars, self.writes, self.fail = {}, [], fail
        self.pos = (0, 0)

    def create_char(self, slot, bitmap):
        if self.fail:
            raise self.fail
        self.chars[slot] = tuple(bitmap)

    def clear(self):
        pass

    @property
    def cursor_pos(self):
        return self.pos

    @cursor_pos.setter
    def cursor_pos(self, pos):
        self.pos = pos

    def write_string(self, s):
        self.writes.append((self.pos, s))

    def close(self, clear=False):
        pass


def test_i2c_display_loads_dice_glyphs_and_writes_them_as_codes():
    lcds = []
    d = I2CDisplay(lcd_factory=lambda: lcds.append(FakeCharLCD()) or lcds[-1])
    d.show(["Roll " + die_char(1) + die_char(6)])
    lcd = lcds[-1]
    assert lcd.chars == dict(GLYPHS)
    assert lcd.writes[-1] == ((0, 0), "Roll \x00\x05")


def test_i2c_display_that_never_answers_is_a_clear_error():
    with pytest.raises(DisplayError, match="0x27.*OSError: \\[Errno 121\\]"):
        I2CDisplay(lcd_factory=lambda: FakeCharLCD(fail=OSError(121, "Remote I/O error")))


def test_i2c_probe_on_a_machine_without_the_bus_names_the_bus():
    with pytest.raises(DisplayError, match="/dev/i2c-250"):
        I2CDisplay(port=250)
