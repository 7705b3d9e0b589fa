"""The character display (HD44780 20x4 or 16x2): one interface, several backends.

    display.show(["Ana's turn   R2", "Roll 3 dice", "", "Ana 12 Ben 9"])

``show(lines)`` pads or cuts each line to the width and writes only the characters that
changed since the last call (``last_update_writes`` and ``writes`` count what went out,
``companion devices`` and ``benchmarks/bench_lcd.py`` use them). Dice faces are the Unicode
characters ⚀..⚅ (``die_char(n)``); the LCD backends show them as custom characters.

These displays garble after electrical noise and I2C errors (OSError 121): a failed write
re-initialises the display and redraws it fully, and every ``full_redraw_seconds`` it is
re-initialised and redrawn anyway. ``show`` never raises for a display that stopped
answering: it records ``last_error``, sets ``ok = False`` and tries again on the next call
(at most once a second), so the game goes on without the screen. Opening a display that does
not answer at all raises ``DisplayError`` with a message that says where it looked.

Backends: ``MemoryDisplay`` (its ``lines`` are what tests read), ``TerminalDisplay`` (draws
the frame in a terminal), ``I2CDisplay`` (companion.devices.lcd_i2c, RPLCD over smbus2) and
``PanelDisplay`` (companion.devices.panel).
"""

from __future__ import annotations

import sys
import time
from typing import Callable, Sequence, TextIO

DICE = "\u2680\u2681\u2682\u2683\u2684\u2685"      # ⚀ ⚁ ⚂ ⚃ ⚄ ⚅
RETRY_SECONDS = 1.0


def die_char(n: int) -> str:
    """The display character for a die showing ``n`` (1-6)."""
    if not 1 <= n <= 6:
        raise ValueError(f"a die shows 1 to 6, not {n}")
    return DICE[n - 1]


# Where each pip sits in a 5x8 cell: rows 1/3/5, columns 0/2/4.
_PIPS = {"TL": (1, 0), "TR": (1, 4), "ML": (3, 0), "C": (3, 2), "MR": (3, 4),
         "BL": (5, 0), "BR": (5, 4)}
_FACES = {1: ("C",), 2: ("TR", "BL"), 3: ("TR", "C", "BL"), 4: ("TL", "TR", "BL", "BR"),
          5: ("TL", "TR", "C", "BL", "BR"), 6: ("TL", "TR", "ML", "MR", "BL", "BR")}


def die_glyph(n: int) -> tuple[int, ...]:
    """The 8-row, 5-bit bitmap of the custom character for die face ``n``."""
    rows = [0] * 8
    for pip in _FACES[n]:
        r, c = _PIPS[pip]
        rows[r] |= 1 << (4 - c)
    return tuple(rows)


# Custom-character slots 0-5 hold the die faces 1-6.
GLYPHS = {slot: die_glyph(slot + 1) for slot in range(6)}


def encode_lcd(text: str) -> bytes:
    """Text as HD44780 bytes: printable ASCII as is, dice as custom characters 0-5, others '?'."""
    out = bytearray()
    for ch in text:
        if ch in DICE:
            out.append(DICE.index(ch))
        elif " " <= ch <= "}":       # 0x7E/0x7F are arrows in the ROM, not ~ and DEL
            out.append(ord(ch))
        else:
            out.append(ord("?"))
    return bytes(out)


class DisplayError(RuntimeError):
    """The display cannot be opened (nothing answers, no bus, bad size)."""


class Display:
    """The interface. A backend implements ``_init`` (re-initialise the hardware and load the
    custom characters), ``_write(row, col, text)``, and may implement ``_flush`` (called after an
    update that changed something) and ``_close``.
    ``_write`` and ``_init`` raise OSError when the hardware misbehaves."""

    def __init__(self, cols: int = 20, rows: int = 4, *, full_redraw_seconds: float = 300.0,
                 clock: Callable[[], float] = time.monotonic):
        self.cols, self.rows = cols, rows
        self.full_redraw_seconds = full_redraw_seconds
        self.clock = clock
        self.ok = True
        self.last_error: str | None = None
        self.writes = 0               # characters + cursor moves sent, since opening
        self.last_update_writes = 0   # ... by the last show()
        self.recoveries = 0           # re-initialisations after an error
        self._wanted = [" " * cols for _ in range(rows)]
        self._shown: list[str] | None = None   # what the hardware holds; None = unknown
        self._last_full = clock()
        self._next_retry = 0.0

    # --- the interface --------------------------------------------------------------------

    def show(self, lines: Sequence[str]) -> int:
        """Show ``lines`` (missing lines are blank); returns the writes this took."""
        if isinstance(lines, str):
            lines = lines.split("\n")
        frame = [str(line)[: self.cols].ljust(self.cols) for line in list(lines)[: self.rows]]
        frame += [" " * self.cols] * (self.rows - len(frame))
        self._wanted = frame
        now = self.clock()
        if self.full_redraw_seconds and now - self._last_full >= self.full_redraw_seconds:
            self._shown = None        # time for the periodic re-initialisation
        return self._update(now)

    def clear(self) -> int:
        return self.show([])

    def refresh(self) -> int:
        """Re-initialise and redraw everything now."""
        self._shown = None
        return self._update(self.clock())

    @property
    def text(self) -> list[str]:
        """The lines last asked for (what the display shows when it is working)."""
        return list(self._wanted)

    def close(self) -> None:
        try:
            self._close()
        except OSError:
            pass

    # --- the diff and the recovery ---------------------------------------------------------

    def _update(self, now: float) -> int:
        if not self.ok and now < self._next_retry:
            return 0
        count = 0
        for attempt in range(2):
            try:
                inited = self._shown is None
                if inited:
                    # _init clears the screen, so the diff against blanks is a full redraw.
                    self._init()
                    self._shown = [" " * self.cols for _ in range(self.rows)]
                    self._last_full = now
                for row, col, run in self._runs(self._shown, self._wanted):
                    self._write(row, col, run)
                    count += 1 + len(run)
                    line = self._shown[row]
                    self._shown[row] = line[:col] + run + line[col + len(run):]
                if count or inited:
                    self._flush()
                self.ok, self.last_error = True, None
                break
            except OSError as e:
                # Garbled or gone: forget what it shows, re-initialise, redraw everything.
                self._shown = None
                self.ok = False
                self.last_error = f"{type(e).__name__}: {e}"
                self._next_retry = now + RETRY_SECONDS
                if attempt == 0:
                    self.recoveries += 1
        self.writes += count
        self.last_update_writes = count
        return count

    @staticmethod
    def _runs(old: list[str], new: list[str]):
        """(row, col, text) pieces to write: changed characters, joined across gaps of one
        unchanged character (writing it costs the same as moving the cursor past it)."""
        for row, (a, b) in enumerate(zip(old, new)):
            changed = [i for i in range(len(b)) if a[i] != b[i]]
            start = prev = None
            for i in changed:
                if start is None:
                    start = prev = i
                elif i - prev <= 2:
                    prev = i
                else:
                    yield row, start, b[start:prev + 1]
                    start = prev = i
            if start is not None:
                yield row, start, b[start:prev + 1]

    # --- backend hooks ---------------------------------------------------------------------

    def _init(self) -> None:
        raise NotImplementedError

    def _write(self, row: int, col: int, text: str) -> None:
        raise NotImplementedError

    def _flush(self) -> None:
        pass

    def _close(self) -> None:
        pass


class MemoryDisplay(Display):
    """A display in memory: ``lines`` is what a real one would show now.

    ``fail_next(n)`` makes the next ``n`` hardware operations raise OSError 121, the way a
    noisy I2C bus does, so the recovery can be tested."""

    def __init__(self, cols: int = 20, rows: int = 4, **kw):
        self.screen = [[" "] * cols for _ in range(rows)]
        self.inits = 0
        self._failures = 0
        super().__init__(cols, rows, **kw)

    @property
    def lines(self) -> list[str]:
        return ["".join(row) for row in self.screen]

    def fail_next(self, n: int = 1) -> None:
        self._failures = n

    def garble(self, row: int, col: int, ch: str = "#") -> None:
        """Change a character behind the display's back (as electrical noise does)."""
        self.screen[row][col] = ch

    def _maybe_fail(self) -> None:
        if self._failures > 0:
            self._failures -= 1
            raise OSError(121, "Remote I/O error")

    def _init(self) -> None:
        self._maybe_fail()
        self.inits += 1
        self.screen = [[" "] * self.cols for _ in range(self.rows)]

    def _write(self, row: int, col: int, text: str) -> None:
        self._maybe_fail()
        self.screen[row][col:col + len(text)] = list(text)


class TerminalDisplay(MemoryDisplay):
    """Draws the display as a framed box in a terminal (and, if given, the LED states).

    With ``ansi`` (the default when ``stream`` is a terminal) the box is redrawn in place at
    the top-left corner; otherwise each update prints a new box."""

    def __init__(self, cols: int = 20, rows: int = 4, *, stream: TextIO | None = None,
                 ansi: bool | None = None, leds=None, **kw):
        self.stream = stream or sys.stdout
        self.ansi = self.stream.isatty() if ansi is None else ansi
        self.leds = leds
        super().__init__(cols, rows, **kw)

    def render(self) -> str:
        """The box as text."""
        top = "+" + "-" * self.cols + "+"
        body = [f"|{line}|" for line in self.lines]
        out = [top, *body, top]
        if self.leds is not None:
            marks = {"on": "(*)", "blink": "(~)", "off": "( )"}
            out.append(" ".join(f"{marks[s]}{r}" for r, s in self.leds.states.items()))
        return "\n".join(out)

    def _flush(self) -> None:
        box = self.render()
        if self.ansi:
            # Save the cursor, draw at the top-left, restore: log lines below stay readable.
            lines = box.split("\n")
            drawn = "".join(f"\x1b[{i + 1};1H{line}\x1b[K" for i, line in enumerate(lines))
            self.stream.write(f"\x1b7{drawn}\x1b8")
        else:
            self.stream.write(box + "\n")
        self.stream.flush()
