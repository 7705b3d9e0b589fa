"""Drawing readings on a copy of the frame (``companion dice read --annotate``, the demo)."""

from __future__ import annotations

import cv2
import numpy as np

from .types import CoinReading, DiceReading


def draw_dice(frame: np.ndarray, reading: DiceReading) -> np.ndarray:
    """The frame with each die's value (green) and each uncertain spot (orange '?') drawn."""
    out = frame.copy() if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    s = max(out.shape[:2]) / 640.0
    th = max(1, round(2 * s))
    for d in reading.dice:
        c = (round(d.x), round(d.y))
        cv2.circle(out, c, round(18 * s), (0, 200, 0), th)
        cv2.putText(out, str(d.value), (c[0] + round(14 * s), c[1] - round(14 * s)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.9 * s, (0, 200, 0), th)
    for u in reading.uncertain:
        c = (round(u.x), round(u.y))
        cv2.circle(out, c, round(18 * s), (0, 140, 255), th)
        cv2.putText(out, "?", (c[0] + round(14 * s), c[1] - round(14 * s)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.9 * s, (0, 140, 255), th)
    return out


def draw_coins(frame: np.ndarray, reading: CoinReading) -> np.ndarray:
    """The frame with each coin outlined and labelled H or T, uncertain ones marked '?'."""
    out = frame.copy()
    s = max(out.shape[:2]) / 640.0
    th = max(1, round(2 * s))
    for c in reading.coins:
        cv2.circle(out, (round(c.x), round(c.y)), round(c.r), (255, 200, 0), th)
        cv2.putText(out, "H" if c.face == "heads" else "T", (round(c.x), round(c.y - c.r)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.9 * s, (255, 200, 0), th)
    for u in reading.uncertain:
        cv2.putText(out, "?", (round(u.x), round(u.y)), cv2.FONT_HERSHEY_SIMPLEX, 0.9 * s, (0, 140, 255), th)
    return out
