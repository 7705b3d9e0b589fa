# HD44780 character LCD behind a PCF8574 I2C backpack, for MicroPython's machine.I2C.
#
# Backpack wiring (the common one, same as RPLCD's): P0 RS, P1 RW, P2 E, P3 backlight,
# P4-P7 = D4-D7. The display runs in 4-bit mode: each byte goes as two nibbles, each latched
# by a pulse on E. `delay_us` is passed in so the driver needs nothing but an I2C object.

RS = 0x01
EN = 0x04
BACKLIGHT = 0x08
ROW_OFFSETS = (0x00, 0x40, 0x14, 0x54)


class Lcd:
    def __init__(self, i2c, address, cols, rows, delay_us):
        self.i2c = i2c
        self.address = address
        self.cols = cols
        self.rows = rows
        self.delay_us = delay_us
        self.light = BACKLIGHT
        self._one = bytearray(1)

    def _out(self, value):
        self._one[0] = value | self.light
        self.i2c.writeto(self.address, self._one)

    def _nibble(self, value):
        # value holds the nibble in its top 4 bits, plus RS
        self._out(value)
        self._out(value | EN)
        self.delay_us(1)
        self._out(value)
        self.delay_us(50)

    def _byte(self, value, mode):
        self._nibble(mode | (value & 0xF0))
        self._nibble(mode | ((value << 4) & 0xF0))

    def command(self, value):
        self._byte(value, 0)
        if value in (0x01, 0x02):      # clear and home take 1.5 ms
            self.delay_us(2000)

    def init(self):
        """The datasheet's 4-bit initialisation; also recovers a display that lost sync."""
        self.delay_us(50000)
        self._out(0)
        for wait in (4500, 150, 150):
            self._nibble(0x30)           # 8-bit mode, three times: resynchronises the nibbles
            self.delay_us(wait)
        self._nibble(0x20)               # now 4-bit
        self.command(0x28)               # 4-bit, 2 lines (also right for 4-line displays), 5x8
        self.command(0x08)               # display off
        self.command(0x01)               # clear
        self.command(0x06)               # entry mode: left to right, no shift
        self.command(0x0C)               # display on, no cursor

    def clear(self):
        self.command(0x01)

    def move(self, row, col):
        self.command(0x80 | (ROW_OFFSETS[row] + col))

    def write(self, data):
        for b in data:
            self._byte(b, RS)

    def text(self, row, col, data):
        """Write bytes at (row, col), cut at the end of the row."""
        if 0 <= row < self.rows and 0 <= col < self.cols:
            self.move(row, col)
            self.write(data[: self.cols - col])

    def create_char(self, slot, rows):
        self.command(0x40 | ((slot & 7) << 3))
        self.write(rows[:8])

    def backlight(self, on):
        self.light = BACKLIGHT if on else 0
        self._out(0)
