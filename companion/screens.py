"""Turning words into the lines of a small character display (20x4 or 16x2).

Pure text helpers: wrapping, fitting, a scrolling window over a list with a cursor. The
controller decides what to say; these decide how it fits.
"""

from __future__ import annotations

import textwrap
from typing import Sequence


def fit(text: str, cols: int) -> str:
    """One display line: cut to ``cols`` (an ellipsis marks a cut) and padded."""
    text = " ".join(str(text).split())
    if len(text) > cols:
        text = text[: cols - 1] + "~"  # the HD44780 ROM has no ellipsis; ~ is plain ASCII
    return text.ljust(cols)


def wrap(text: str, cols: int, max_lines: int) -> list[str]:
    """Word-wrap ``text`` over at most ``max_lines`` lines (the last one cut if needed)."""
    lines = textwrap.wrap(" ".join(str(text).split()), cols) or [""]
    if len(lines) > max_lines:
        rest = " ".join(lines[max_lines - 1:])
        lines = lines[: max_lines - 1] + [rest]
    return [fit(line, cols) for line in lines]


def frame(lines: Sequence[str], cols: int, rows: int) -> list[str]:
    """Exactly ``rows`` lines of exactly ``cols`` characters."""
    out = [fit(line, cols) for line in list(lines)[:rows]]
    return out + [" " * cols] * (rows - len(out))


def page(top: Sequence[str], bottom: str, cols: int, rows: int) -> list[str]:
    """``top`` lines above a fixed last line (the score / key figures)."""
    body = list(top)[: rows - 1]
    body += [""] * (rows - 1 - len(body))
    return frame([*body, bottom], cols, rows)


def menu_window(labels: Sequence[str], cursor: int, cols: int, height: int) -> list[str]:
    """``height`` lines of a list with ``>`` at the cursor, scrolled to keep it in view,
    and the position (``2/5``) at the right of the cursor line when the list is longer."""
    if not labels:
        return [""] * height
    start = min(max(0, cursor - height + 1), max(0, len(labels) - height))
    start = max(0, min(start, cursor))
    out = []
    for i in range(start, min(len(labels), start + height)):
        mark = ">" if i == cursor else " "
        line = f"{mark}{labels[i]}"
        if i == cursor and len(labels) > height:
            pos = f" {cursor + 1}/{len(labels)}"
            line = fit(line, cols - len(pos)).rstrip().ljust(cols - len(pos)) + pos
        out.append(fit(line, cols))
    return out + [" " * cols] * (height - len(out))


def dice_text(values: Sequence[int]) -> str:
    """``3 5 6 = 14``."""
    return " ".join(str(v) for v in values) + (f" = {sum(values)}" if len(values) > 1 else "")


def clock_text(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 60}:{s % 60:02d}"
