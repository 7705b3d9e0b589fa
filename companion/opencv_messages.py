"""OpenCV's own messages, held back where the companion reports the failure itself.

OpenCV writes straight to stderr (and so to the journal) when it cannot open a camera or
decode a file: "[ WARN:0@0.008] global cap_v4l.cpp:914 open VIDEOIO(V4L2:/dev/video3):
can't open camera by index". The companion checks every such result and says what went
wrong in its own words ("no webcam at index 3: is it plugged in?"), so around those calls
OpenCV's message would only put a second, cryptic line before the clear one. (libjpeg
writes its own warnings, "Premature end of JPEG file", past OpenCV's log: those still show.)
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

# OpenCV's log level is one for the whole process: calls quietened from several threads
# at once restore it in turn, the last one out to the level it was before the first.
_lock = threading.Lock()
_depth = 0
_level_before = 0   # (set by the first call in, before any call out reads it)


@contextlib.contextmanager
def opencv_quiet() -> Iterator[None]:
    """Within the block, OpenCV logs nothing (the caller reports failures itself). Any
    other thread's OpenCV messages in those milliseconds are held back too."""
    global _depth, _level_before
    import cv2
    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is None:   # (an OpenCV built without its logging module)
        yield
        return
    with _lock:
        if _depth == 0:
            _level_before = logging.setLogLevel(logging.LOG_LEVEL_SILENT)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                logging.setLogLevel(_level_before)
