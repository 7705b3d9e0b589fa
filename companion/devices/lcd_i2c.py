"""HD44780 character LCD on an I2C port-expander backpack (PCF8574), through RPLCD + smbus2.

RPLCD's ``CharLCD('PCF8574', address, port=1, cols=20, rows=4)`` opens ``/dev/i2c-<port>``
with smbus2 and initialises the display on construction; re-initialising after noise is
simply constructing it again. Custom characters 0-5 hold the die faces.

Checking that something answers first (``probe``) turns "Remote I/O error" into a message
that says what to check.
"""

from __future__ import annotations

import errno
from typing import Callable

from companion.devices.display import DICE, GLYPHS, Display, DisplayError


def probe(port: int, address: int) -> None:
    """Raise DisplayError unless a device acknowledges ``address`` on ``/dev/i2c-<port>``."""
    from smbus2 import SMBus
    bus_path = f"/dev/i2c-{port}"
    try:
        bus = SMBus(port)
    except (FileNotFoundError, PermissionError) as e:
        hint = ("enable I2C with `sudo raspi-config nonint do_i2c 0` and add the user to the "
                "i2c group" if isinstance(e, PermissionError) or e.errno == errno.ENOENT else "")
        raise DisplayError(f"no I2C bus {bus_path} ({e.strerror}); {hint}".rstrip("; ")) from e
    try:
        bus.read_byte(address)
    except OSError as e:
        raise DisplayError(
            f"nothing answers at I2C address 0x{address:02X} on {bus_path} ({e.strerror or e}): "
            f"check the wiring (SDA to pin 3, SCL to pin 5) and the address jumpers; "
            f"`i2cdetect -y {port}` lists the addresses that answer") from e
    finally:
        bus.close()


class I2CDisplay(Display):
    """An HD44780 on an I2C backpack. Raises DisplayError at once if nothing answers."""

    def __init__(self, cols: int = 20, rows: int = 4, *, port: int = 1, address: int = 0x27,
                 expander: str = "PCF8574", charmap: str = "A02",
                 lcd_factory: Callable[[], object] | None = None, check: bool = True, **kw):
        self.port, self.address = port, address
        self._factory = lcd_factory or self._rplcd_factory(expander, charmap, cols, rows)
        self._lcd = None
        if check and lcd_factory is None:
            probe(port, address)
        super().__init__(cols, rows, **kw)
        self.refresh()
        if not self.ok:
            raise DisplayError(f"the LCD at 0x{address:02X} on /dev/i2c-{port} did not "
                               f"initialise: {self.last_error}")

    def _rplcd_factory(self, expander: str, charmap: str, cols: int, rows: int):
        def make():
            from RPLCD.i2c import CharLCD
            # auto_linebreaks off: every write is placed explicitly, never wrapped.
            return CharLCD(expander, self.address, port=self.port, cols=cols, rows=rows,
                           charmap=charmap, auto_linebreaks=False)
        return make

    def _init(self) -> None:
        self._close()
        self._lcd = self._factory()
        for slot, bitmap in GLYPHS.items():
            self._lcd.create_char(slot, bitmap)
        self._lcd.clear()

    def _write(self, row: int, col: int, text: str) -> None:
        # Dice become the custom characters 0-5; RPLCD's charmap encodes the rest.
        mapped = "".join(chr(DICE.index(ch)) if ch in DICE else ch for ch in text)
        self._lcd.cursor_pos = (row, col)
        self._lcd.write_string(mapped)

    def _close(self) -> None:
        lcd, self._lcd = self._lcd, None
        if lcd is not None:
            try:
                lcd.close(clear=False)
            except Exception:   # a dead bus may fail any way; we are discarding it anyway
                pass
            bus = getattr(lcd, "bus", None)   # RPLCD leaves its SMBus open: close the file
            if bus is not None:
                bus.close()
