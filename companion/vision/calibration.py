"""Calibration of a fixed setup, saved as JSON.

``companion calibrate`` measures a setup from a few frames (tray region, dice size,
lighting); ``companion coins calibrate`` adds what a coin's two faces look like. Both write
the same kind of file, which the readers load (``vision.calibration`` in the daemon config
points at it). Every field is optional: an empty calibration means "assume nothing".

- ``tray``: [x, y, w, h] as fractions of the frame: only this region is read.
- ``die_size``: typical die side in pixels of a frame of ``frame_size``.
- ``logo_value``: the value (1-6) of the face that bears a logo instead of pips.
- ``lighting``: median brightness of the tray (0-255) when calibrated.
- ``stretch``: [fx, fy], how much a camera at a slant squashed the top faces along x and y
  (1.0 each from overhead): a frame is stretched back by it before reading where its own
  pips measure no slant, one well short of it, or one along the other axis
  (``slant.known_or_measured``); from overhead, none is measured.
- ``slant``: how far from overhead the camera looks, in degrees, as the 4s and 5s read
  show it at the frame's centre wherever in the frame they lay
  (``perspective.flat_layout_stretch``): a record for the installer
  (``setup.placement_advice``); the reader reads at ``stretch``, the faces' squash as they
  stood.
- ``roll``: how far the camera was turned about its own axis (degrees its picture is
  turned anticlockwise; ``slant.layout_roll``), where a slant let it be measured: a record
  for the installer (``setup.placement_advice``), not undone by the reader.
- ``field_of_view``: how wide the camera sees across its frame's longest side, in degrees
  (a webcam's data sheet gives it; about 0.85 of a diagonal one), where the installer gave
  it (``companion calibrate --field-of-view``): a frame seen steeply is read as from afar
  (``perspective``), its far dice as large and as square as its near ones, by this field of
  view instead of the one assumed (``perspective.ASSUMED_FIELD_OF_VIEW``); 15 degrees or
  less, a camera far from the tray, its frames are read as they are.
- ``coin``: the coin model learnt by ``coins calibrate`` (see ``coins.py``), with the
  ``stretch`` its photos were read at.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path


def _is_stretch(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and \
        all(isinstance(v, (int, float)) and 1.0 <= v <= 3.0 for v in value)


class CalibrationError(ValueError):
    """A calibration file that is missing, not JSON, or holds impossible values."""


@dataclass
class Calibration:
    tray: list[float] | None = None
    die_size: float | None = None
    frame_size: list[int] | None = None
    logo_value: int | None = None
    lighting: float | None = None
    stretch: list[float] | None = None
    slant: float | None = None
    roll: float | None = None
    field_of_view: float | None = None
    coin: dict | None = None
    version: int = 1
    extra: dict = field(default_factory=dict)

    def validate(self) -> "Calibration":
        if self.tray is not None:
            if len(self.tray) != 4 or not all(isinstance(v, (int, float)) for v in self.tray):
                raise CalibrationError("tray must be [x, y, w, h] as fractions of the frame")
            x, y, w, h = self.tray
            if not (0 <= x < 1 and 0 <= y < 1 and 0 < w <= 1 and 0 < h <= 1):
                raise CalibrationError(f"tray {self.tray} is outside the frame")
        if self.logo_value is not None and self.logo_value not in range(1, 7):
            raise CalibrationError(f"logo_value must be 1-6, not {self.logo_value!r}")
        if self.die_size is not None and not (isinstance(self.die_size, (int, float)) and self.die_size > 0):
            raise CalibrationError(f"die_size must be a positive number, not {self.die_size!r}")
        if self.stretch is not None and not _is_stretch(self.stretch):
            raise CalibrationError(f"stretch must be [fx, fy], each 1.0-3.0, not {self.stretch!r}")
        if self.slant is not None and not (isinstance(self.slant, (int, float)) and 0 <= self.slant < 90):
            raise CalibrationError(f"slant must be degrees from overhead, 0 to 90, not {self.slant!r}")
        if self.roll is not None and not (isinstance(self.roll, (int, float)) and -45 <= self.roll <= 45):
            raise CalibrationError(f"roll must be degrees, -45 to 45, not {self.roll!r}")
        if self.field_of_view is not None and not (isinstance(self.field_of_view, (int, float))
                                                   and 10 <= self.field_of_view <= 150):
            raise CalibrationError(f"field_of_view must be degrees, 10 to 150, not {self.field_of_view!r}")
        if self.coin is not None and not isinstance(self.coin, dict):
            raise CalibrationError("coin must be an object")
        if self.coin is not None and not _is_stretch(self.coin.get("stretch", [1.0, 1.0])):
            raise CalibrationError(f"coin stretch must be [fx, fy], each 1.0-3.0, not {self.coin['stretch']!r}")
        return self

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None and v != {}}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def from_dict(cls, data: dict) -> "Calibration":
        if not isinstance(data, dict):
            raise CalibrationError("a calibration is a JSON object")
        known = {f for f in cls.__dataclass_fields__ if f != "extra"}
        extra = {k: v for k, v in data.items() if k not in known}
        try:
            cal = cls(**{k: v for k, v in data.items() if k in known}, extra=extra)
        except TypeError as exc:   # pragma: no cover - dataclass field mismatch
            raise CalibrationError(str(exc)) from exc
        return cal.validate()

    @classmethod
    def load(cls, path: str | Path) -> "Calibration":
        try:
            data = json.loads(Path(path).read_text())
        except OSError as exc:
            raise CalibrationError(f"cannot read calibration {path}: {exc.strerror or exc}") from exc
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"calibration {path} is not valid JSON: {exc}") from exc
        return cls.from_dict(data)

    def merged(self, other: "Calibration") -> "Calibration":
        """This calibration with every field ``other`` sets replacing ours."""
        mine = self.to_dict()
        mine.update(other.to_dict())
        return Calibration.from_dict(mine)
