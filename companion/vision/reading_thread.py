"""A thread the daemon reads settled rolls on, so its loop goes on while a roll is read.

A settled roll of real webcam frames takes a few hundred ms to read on one core here, and
a Pi's core is 4-6 times slower (``benchmarks/bench_vision.py``): read in the daemon's loop,
the buttons, the display and the watchdog all waited that long. ``SettleDetector`` hands
its reads to a ``ReadingThread`` (``executor=``) and takes each reading when it is done,
watching the frames for motion meanwhile.

``benchmarks/bench_press_during_read.py`` (the 50 held-out dev photos as rolls, 15 frames a
second, one core here): Back pressed while the screen said "Reading dice..." showed Paused
after 28 ms median, 65 ms at worst, all 30 such presses as meant; read in the loop, 83 and
315 ms, and 3 of 22 were taken for "roll again" on the reading that came up before they
were answered. The cost: each look is taken on the first frame after it is done, so the
reading reaches the screen a frame or two later, 602 against 496 ms median from the hand
leaving the tray (on two cores, 603 against 508).
"""

from __future__ import annotations

import queue
import threading
from concurrent.futures import Future
from typing import Any, Callable


class ReadingThread:
    """One thread that runs the calls handed to it one at a time, in order: ``submit(fn,
    *args)`` returns a ``concurrent.futures.Future`` of ``fn(*args)`` (``cancel()`` drops
    one not started yet). A daemon thread, unlike ``ThreadPoolExecutor``'s: a read in
    progress does not hold up the service's exit, whose game is journalled already."""

    def __init__(self, name: str = "tray-reader"):
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        future: Future = Future()
        self._jobs.put((future, fn, args))
        return future

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            future, fn, args = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as e:   # (raised again where the result is taken)
                future.set_exception(e)

    def close(self) -> None:
        """Stop once the calls handed in so far are done (returns at once)."""
        self._jobs.put(None)
