"""Button events: one type and one queue for every input source (GPIO, keyboard, USB panel).

The daemon's main loop polls one ``EventQueue``::

    ev = events.get(timeout=0.05)      # a ButtonEvent, or None after the timeout
    if ev and ev.kind == "press": ...

Buttons are named ``ok``, ``back``, ``up``, ``down`` and ``undo``. Kinds are ``press``,
``hold`` (still down after the hold time) and ``release``. Act on ``press``.

Undo as a long press of Back (``buttons.undo = "hold-back"``): Back's press is only reported
when the button comes up before the hold time (so a long press never also means "back");
held past it, the button reports ``undo`` press (and ``undo`` release when let go) instead.
``UndoTranslator`` does this once, for all sources.
"""

from __future__ import annotations

import queue
import time
from typing import NamedTuple

KINDS = ("press", "hold", "release")


class ButtonEvent(NamedTuple):
    button: str          # "ok", "back", "up", "down", "undo"
    kind: str            # "press", "hold" or "release"
    source: str = ""     # "gpio", "keyboard", "panel": for logs
    time: float = 0.0    # time.monotonic() when it happened


class EventQueue:
    """A thread-safe queue of ButtonEvents; sources ``put``, the main loop ``get``s."""

    def __init__(self) -> None:
        self._q: queue.Queue[ButtonEvent] = queue.Queue()

    def put(self, event: ButtonEvent) -> None:
        self._q.put(event)

    def get(self, timeout: float | None = 0.0) -> ButtonEvent | None:
        """The next event, waiting up to ``timeout`` seconds (None: forever); None if none came."""
        try:
            if timeout == 0:
                return self._q.get_nowait()
            return self._q.get(timeout=timeout)
        except queue.Empty:
            return None

    def drain(self) -> list[ButtonEvent]:
        """Every event waiting now (for tests and for dropping stale presses)."""
        out = []
        while (ev := self.get(0)) is not None:
            out.append(ev)
        return out


class UndoTranslator:
    """Turns raw press/hold/release of physical buttons into the events the daemon sees.

    With ``undo_on_hold_back`` Back is reported on release (if it was not held) and a hold
    of Back becomes Undo. Everything else passes through.
    """

    def __init__(self, sink: EventQueue, source: str, undo_on_hold_back: bool = True):
        self.sink = sink
        self.source = source
        self.undo_on_hold_back = undo_on_hold_back
        self._back_held = False

    def __call__(self, button: str, kind: str) -> None:
        now = time.monotonic()
        emit = lambda b, k: self.sink.put(ButtonEvent(b, k, self.source, now))  # noqa: E731
        if button != "back" or not self.undo_on_hold_back:
            emit(button, kind)
        elif kind == "press":
            self._back_held = False          # wait: press or hold is decided later
        elif kind == "hold":
            if not self._back_held:
                self._back_held = True
                emit("undo", "press")
        elif kind == "release":
            if self._back_held:
                emit("undo", "release")
            else:
                emit("back", "press")
                emit("back", "release")
            self._back_held = False
