"""The keyboard as buttons, for the simulated table on a PC.

Keys: Enter = OK, Backspace or Esc = Back, arrow Up/Down = Up/Down, ``u`` = Undo.
A terminal reports no key-up, so each key gives a ``press`` then a ``release`` at once
(and no holds: Undo has its own key). The reader thread puts the terminal in cbreak mode
(keys arrive one by one, unechoed; Ctrl-C still works) and restores it on ``close()``.
It reads any file descriptor, so the tests feed it through a pipe.
"""

from __future__ import annotations

import os
import select
import sys
import threading
import time

from companion.devices.events import ButtonEvent, EventQueue

# Escape sequences of the arrow keys (normal and "application" cursor mode).
_SEQUENCES = {
    b"\x1b[A": "up", b"\x1bOA": "up",
    b"\x1b[B": "down", b"\x1bOB": "down",
}
_SINGLE = {
    b"\r": "ok", b"\n": "ok", b" ": "ok",
    b"\x7f": "back", b"\x08": "back",
    b"u": "undo", b"U": "undo",
    b"k": "up", b"j": "down",      # for terminals that mangle arrows
}
_ESC_WAIT = 0.05   # a lone Esc is Back if no "[A"-style tail follows this soon


class KeyDecoder:
    """Bytes from a terminal in, button names out (keeps half an escape sequence between calls)."""

    def __init__(self) -> None:
        self._pending = b""

    def feed(self, data: bytes) -> list[str]:
        buf = self._pending + data
        out: list[str] = []
        i = 0
        while i < len(buf):
            if buf[i:i + 1] == b"\x1b":
                tail = buf[i:i + 3]
                if tail in _SEQUENCES:
                    out.append(_SEQUENCES[tail])
                    i += 3
                    continue
                if len(tail) < 3 and all(tail[:k] in (b"\x1b", b"\x1b[", b"\x1bO")
                                         for k in range(1, len(tail) + 1)):
                    break        # maybe the start of an arrow key: wait for more
                if tail[1:2] in (b"[", b"O"):
                    i += 3       # some other key (F1, Home...): ignore it whole
                    continue
                out.append("back")
                i += 1
                continue
            name = _SINGLE.get(buf[i:i + 1])
            if name:
                out.append(name)
            i += 1
        self._pending = buf[i:]
        return out

    def flush(self) -> list[str]:
        """The keys still pending after a pause: a lone Esc is Back."""
        pending, self._pending = self._pending, b""
        return ["back"] if pending == b"\x1b" else []


class KeyboardButtons:
    """Reads keys from ``fd`` (default: standard input) in a thread and reports them to ``events``."""

    def __init__(self, events: EventQueue, fd: int | None = None):
        self.events = events
        self.fd = sys.stdin.fileno() if fd is None else fd
        self._decoder = KeyDecoder()
        self._saved_tty = None
        if os.isatty(self.fd):
            import termios
            import tty
            self._saved_tty = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="keyboard", daemon=True)
        self._thread.start()

    def _emit(self, names: list[str]) -> None:
        for name in names:
            now = time.monotonic()
            self.events.put(ButtonEvent(name, "press", "keyboard", now))
            self.events.put(ButtonEvent(name, "release", "keyboard", now))

    def _run(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.fd], [], [], _ESC_WAIT)
            if not ready:
                self._emit(self._decoder.flush())
                continue
            try:
                data = os.read(self.fd, 64)
            except OSError:
                return
            if not data:      # end of input (a closed pipe): nothing more will come
                self._emit(self._decoder.flush())
                return
            self._emit(self._decoder.feed(data))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=1)
        if self._saved_tty is not None:
            import termios
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved_tty)
            self._saved_tty = None
