"""LCD writes per typical screen update, against a full redraw.

Plays a short game's worth of 20x4 screens through the display layer twice: on the
in-memory display (counting HD44780 writes: characters + cursor moves) and through RPLCD's
real PCF8574 driver on a counting stand-in for smbus2's SMBus (counting I2C transactions;
each is about 20 bit times, 0.2 ms at 100 kHz). Prints both per update, next to a full
redraw of the same screens.

    .venv/bin/python benchmarks/bench_lcd.py
"""

from __future__ import annotations

import time

from companion.devices.display import MemoryDisplay, die_char

D = die_char
SCREENS = [
    ["Ghost Dice   round 1", "Ana's turn", "Roll 5 dice", "Ana 0 Ben 0 Cy 0"],
    ["Ghost Dice   round 1", "Ana's turn", "Read: " + D(3) + D(5) + D(6) + D(1) + D(1), "Ana 0 Ben 0 Cy 0"],
    ["Ghost Dice   round 1", "Ana's turn", "Accepted  +24", "Ana 24 Ben 0 Cy 0"],
    ["Ghost Dice   round 1", "Ben's turn", "Roll 5 dice", "Ana 24 Ben 0 Cy 0"],
    ["Ghost Dice   round 1", "Ben's turn", "Read: " + D(2) + D(2) + D(4) + D(6) + D(5), "Ana 24 Ben 0 Cy 0"],
    ["Ghost Dice   round 1", "Ben's turn", "Accepted  +19", "Ana 24 Ben 19 Cy 0"],
    ["Ghost Dice   round 1", "Cy's turn", "Roll 5 dice", "Ana 24 Ben 19 Cy 0"],
    ["Ghost Dice   round 2", "Ana's turn", "Roll 5 dice", "Ana 24 Ben 19 Cy 31"],
]
FULL_REDRAW_WRITES = 4 * (1 + 20)     # every row: one cursor move + 20 characters


def display_level() -> None:
    d = MemoryDisplay(20, 4, full_redraw_seconds=0)
    d.show(SCREENS[0])
    per_update = [d.show(s) for s in SCREENS[1:]]
    redraw = d.refresh()
    avg = sum(per_update) / len(per_update)
    print("HD44780 writes (characters + cursor moves), display layer:")
    print(f"  per update: {per_update}")
    print(f"  average update: {avg:.1f} writes; full redraw of a screen: {FULL_REDRAW_WRITES} "
          f"(re-init redraw skipping blanks: {redraw}); {FULL_REDRAW_WRITES / avg:.1f}x fewer")


class CountingSMBus:
    """Stands in for smbus2.SMBus: counts the transactions RPLCD makes."""
    transactions = 0

    def __init__(self, port):
        pass

    def write_byte(self, address, value):
        CountingSMBus.transactions += 1

    def write_byte_data(self, address, register, value):
        CountingSMBus.transactions += 1

    def close(self):
        pass


def i2c_level() -> None:
    import RPLCD.i2c
    from companion.devices.lcd_i2c import I2CDisplay
    real = RPLCD.i2c.SMBus
    RPLCD.i2c.SMBus = CountingSMBus
    try:
        d = I2CDisplay(20, 4, check=False, full_redraw_seconds=0)
        d.show(SCREENS[0])
        counts, seconds = [], []
        for s in SCREENS[1:]:
            before = CountingSMBus.transactions
            t = time.perf_counter()
            d.show(s)
            seconds.append(time.perf_counter() - t)
            counts.append(CountingSMBus.transactions - before)
        # A naive full redraw: every character of the screen written again.
        before = CountingSMBus.transactions
        lcd = d._lcd
        lcd.clear()
        for row, line in enumerate(SCREENS[-1]):
            lcd.cursor_pos = (row, 0)
            lcd.write_string(line.ljust(20))
        full = CountingSMBus.transactions - before
    finally:
        RPLCD.i2c.SMBus = real
    avg = sum(counts) / len(counts)
    print("I2C transactions through RPLCD's PCF8574 driver:")
    print(f"  per update: {counts}")
    print(f"  average update: {avg:.0f} transactions (~{avg * 0.2:.0f} ms of bus at 100 kHz); "
          f"full redraw: {full} (~{full * 0.2:.0f} ms); {full / avg:.1f}x fewer")
    print(f"  host time per update incl. RPLCD's delays: {1000 * sum(seconds) / len(seconds):.1f} ms")


if __name__ == "__main__":
    display_level()
    i2c_level()
