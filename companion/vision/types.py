"""The results of reading a frame: dice, coins and the places that could not be read.

Positions are pixel coordinates in the frame the caller passed in (not the reader's
internal working scale).
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field, fields, replace


@dataclass(frozen=True)
class Die:
    """One die read with confidence: ``value`` 1-6, centre of its top face, confidence 0-1.

    ``side`` is the side in pixels of the die's body where the reader measured it: how
    wide a second reader looks at this die; ``pips``, the centres of the pips the pip
    reader read it from (none where the network read it): how the camera squashes a face
    (``companion calibrate``, and the settle detector learning the slant). Neither is in
    the JSON."""
    value: int
    x: float
    y: float
    confidence: float
    side: float | None = field(default=None, repr=False, compare=False)
    pips: tuple[tuple[float, float], ...] = field(default=(), repr=False, compare=False)


@dataclass(frozen=True)
class Uncertain:
    """Something die- or coin-like that could not be read, and why (never turned into a value).

    ``hint`` is the value the pips seemed to show where a check then failed (the die's body
    not found, a blur): not a reading, but what a second reader may confirm, or complete
    (the pips may be some of a fuller face's). It stays inside the reader (not in the
    JSON). ``whole`` is, where the pips found are part of a standard face whose other pips
    were missed (or are a 1 but for the marks around its pip, or for its body's centre),
    that face as (value, x, y): likewise for a second reader to confirm (more surely where
    ``rules_out`` holds its value).
    ``pip_face`` is the face network's highest probability of any pip face around the
    spot, where it looked: a calibrated logo face is read only where it is low.
    ``rules_out`` holds the values the pips found there (or not found) cannot be, which a
    second reader must not read there either (a lone pip off its die's centre is no 1, nor
    is a die body with no pip found on it). ``side`` is, for pips with no die body around
    them, the side of the die their layout spans: the size the network looks at where
    nothing else in the frame gives one. None of these is in the JSON either.
    """
    x: float
    y: float
    reason: str
    hint: int | None = field(default=None, repr=False, compare=False)
    whole: tuple[int, float, float] | None = field(default=None, repr=False, compare=False)
    pip_face: float | None = field(default=None, repr=False, compare=False)
    rules_out: tuple[int, ...] = field(default=(), repr=False, compare=False)
    side: float | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Coin:
    """One coin: ``face`` is "heads" or "tails"; ``r`` is its radius in pixels."""
    face: str
    x: float
    y: float
    r: float
    confidence: float


def _rounded(obj) -> dict:
    out = {}
    for f in fields(obj):
        if not f.repr:
            continue   # the reader's own notes, not part of the reading
        value = getattr(obj, f.name)
        out[f.name] = round(value, 1 if f.name in ("x", "y", "r") else 3) if isinstance(value, float) else value
    return out


@dataclass
class DiceReading:
    """Every die read in a frame, plus the die-like things that could not be read."""
    dice: list[Die] = field(default_factory=list)
    uncertain: list[Uncertain] = field(default_factory=list)
    # Side in pixels of each die body measured (for calibration; not part of the JSON).
    die_sizes: list[float] = field(default_factory=list, repr=False, compare=False)
    # Lone round spots with no die-shaped body found around them (a 1 on a white die the
    # tray hides, or on a die run into its neighbour): not evidence of a die, but places for
    # a second reader to look (not in the JSON).
    leads: list[tuple[float, float]] = field(default_factory=list, repr=False, compare=False)
    # The stretch the frame was read at, back from a camera's slant (None: read as it is),
    # for reading it again alike (``pooling.read_still``; not in the JSON).
    stretch: tuple[float, float] | None = field(default=None, repr=False, compare=False)
    # Whether ``stretch`` was guessed (too few pips to measure it, or faces read that say
    # it was measured short: ``dice.read_dice``): a frame looked at again is left to
    # measure or guess its own (not in the JSON).
    stretch_guessed: bool = field(default=False, repr=False, compare=False)
    # Whether the frame was sharpened before it was read (soft: ``dice.SOFT_EDGE``), for
    # reading it again alike (``pooling.read_still``; not in the JSON).
    sharpened: bool = field(default=False, repr=False, compare=False)

    @property
    def die_side(self) -> float | None:
        """The median of ``die_sizes``, or None if no die was measured."""
        return float(statistics.median(self.die_sizes)) if self.die_sizes else None

    @property
    def marks(self) -> list[tuple]:
        """What was read, as ``(value, x, y)``: the shape the settle detector compares."""
        return [(d.value, d.x, d.y) for d in self.dice]

    @property
    def places(self) -> list[tuple[float, float]]:
        """Where every die read and every place asked about lies, as ``(x, y)``: dice first."""
        return [(t.x, t.y) for t in self.dice + self.uncertain]

    def moved(self, factor: float | tuple[float, float], offset=(0, 0), pre: bool = False) -> "DiceReading":
        """The reading moved by ``offset`` and scaled by ``factor`` (one for both axes, or
        ``(fx, fy)``: die sizes then follow the axis scaled more, the one not squashed);
        ``pre``: moved first, then scaled."""
        ox, oy = offset
        fx, fy = factor if isinstance(factor, tuple) else (factor, factor)
        size = max(fx, fy)

        def where(x, y):
            return (((x + ox) * fx, (y + oy) * fy) if pre else (x * fx + ox, y * fy + oy)), size

        return self.remapped(where, size)

    def remapped(self, where, size: float = 1.0) -> "DiceReading":
        """The reading carried into another picture of the frame: ``where(x, y)`` gives a
        point's place there and how much larger a thing at the point is there; ``size``
        scales ``die_sizes``, which have no place."""
        def pos(x, y):
            return where(x, y)[0]

        def moved(u: Uncertain) -> Uncertain:
            (x, y), scale = where(u.x, u.y)
            whole = None if u.whole is None else (u.whole[0], *pos(u.whole[1], u.whole[2]))
            return replace(u, x=x, y=y, whole=whole, side=None if u.side is None else u.side * scale)

        def moved_die(d: Die) -> Die:
            (x, y), scale = where(d.x, d.y)
            return replace(d, x=x, y=y, side=None if d.side is None else d.side * scale,
                           pips=tuple(pos(px, py) for px, py in d.pips))

        return DiceReading([moved_die(d) for d in self.dice], [moved(u) for u in self.uncertain],
                           [s * size for s in self.die_sizes], [pos(x, y) for x, y in self.leads],
                           self.stretch, self.stretch_guessed, self.sharpened)

    @property
    def values(self) -> list[int]:
        """The values read, left to right (a stable order for display and comparison)."""
        return [d.value for d in sorted(self.dice, key=lambda d: (d.x, d.y))]

    def to_dict(self) -> dict:
        return {"dice": [_rounded(d) for d in self.dice],
                "uncertain": [_rounded(u) for u in self.uncertain]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())


@dataclass
class CoinReading:
    """Every coin read in a frame, plus the coin-like things that could not be read."""
    coins: list[Coin] = field(default_factory=list)
    uncertain: list[Uncertain] = field(default_factory=list)

    @property
    def marks(self) -> list[tuple]:
        """What was read, as ``(face, x, y)``: the shape the settle detector compares."""
        return [(c.face, c.x, c.y) for c in self.coins]

    def to_dict(self) -> dict:
        return {"coins": [_rounded(c) for c in self.coins],
                "uncertain": [_rounded(u) for u in self.uncertain]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())
