"""Camera frame sources: one interface, a backend per kind of camera.

    source = open_camera(cfg)          # from the [camera] section; or build one directly
    source.open()
    frame, t = source.read()           # BGR uint8 array (height, width, 3), time.monotonic()
    source.close()

A missing camera, or one that disappears (a USB webcam pulled out, the Pi camera's ribbon
loose), raises ``CameraError`` with a message that says what to check; the source is then
closed and ``open()`` may be called again, in the same process, once the camera is back.
A replay that has shown its last frame raises ``EndOfFrames`` (a CameraError) unless it loops.

Backends: ``Picamera2Source`` (companion.devices.picamera), ``OpenCVSource`` (a USB webcam
by index, or a video file), ``FolderSource`` (replays the images of a folder in name order),
``SyntheticSource`` (a rendered tray: the simulation says which dice to show).
"""

from __future__ import annotations

import logging
import os
import time
from typing import Sequence

from companion.opencv_messages import opencv_quiet

IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
# The pixel formats (V4L2's FOURCCs) in which a webcam sends its frames compressed: their
# colour is halved both ways and coarsely quantized, which costs small coloured pips
# (hardware/README.md, "A USB webcam's raw frames").
COMPRESSED_FORMATS = ("MJPG", "JPEG", "H264", "HEVC", "VP80", "VP90")
# A compressed frame at least this many pixels wide reads nearly as well as a raw 640x480
# one: the reader shrinks it to its working size (``segment.WORK_SIDE``), which averages
# much of the lost colour back. All 250 dev photos 55 degrees from overhead through a
# 53-degree webcam, three looks, read right / wrong: 1280x960 JPEG 80 96.8 % / 0.3 %;
# 640x480 JPEG 80 91.6 % / 0.8 %, raw (YUYV) 97.9 % / 0.2 %.
WIDE_ENOUGH = 1280

log = logging.getLogger(__name__)


class CameraError(RuntimeError):
    """The camera is missing, gone, or gave no frame."""


class EndOfFrames(CameraError):
    """A replay (video file or folder) has no more frames."""


class FrameSource:
    """The interface. Subclasses implement ``_open``, ``_read`` (a BGR frame) and ``_close``."""

    name = "camera"

    def __init__(self, size: tuple[int, int] = (640, 480)):
        self.size = tuple(size)       # (width, height) of the frames read() returns
        self._is_open = False

    @property
    def is_open(self) -> bool:
        return self._is_open

    def open(self) -> "FrameSource":
        if not self._is_open:
            self._open()
            self._is_open = True
        return self

    def read(self):
        """The next frame and the time it was taken: ``(ndarray HxWx3 BGR uint8, seconds)``."""
        if not self._is_open:
            raise CameraError(f"{self.name} is not open: call open() first")
        try:
            frame = self._read()
        except CameraError:
            self.close()       # so that open() starts from scratch next time
            raise
        return self._fit(frame), time.monotonic()

    def close(self) -> None:
        if self._is_open:
            self._is_open = False
            try:
                self._close()
            except Exception:   # closing a vanished device may fail; it is gone either way
                pass

    def __enter__(self) -> "FrameSource":
        return self.open()

    def __exit__(self, *exc) -> None:
        self.close()

    def describe(self) -> str:
        return self.name

    def _fit(self, frame):
        """Frames of another size (a webcam that ignores the request) are resized."""
        import cv2
        h, w = frame.shape[:2]
        if (w, h) != self.size:
            frame = cv2.resize(frame, self.size, interpolation=cv2.INTER_AREA)
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        elif frame.shape[2] == 4:
            frame = frame[:, :, :3]
        return frame

    def _open(self) -> None:
        raise NotImplementedError

    def _read(self):
        raise NotImplementedError

    def _close(self) -> None:
        pass


class OpenCVSource(FrameSource):
    """A USB webcam (``source`` an int: the VideoCapture index) or a video file (a path)."""

    def __init__(self, source: int | str = 0, size=(640, 480), loop: bool = False):
        super().__init__(size)
        self.source = source
        self.loop = loop
        self.is_file = isinstance(source, str)
        self.name = f"video file {source}" if self.is_file else f"webcam {source}"
        self._cap = None
        # What the camera or file delivers, as OpenCV reports it once open: its pixel format
        # or codec (None: not said, or raw in a file) and its frame size (None: not said).
        self.pixel_format: str | None = None
        self.delivered: tuple[int, int] | None = None

    def _open(self) -> None:
        import cv2
        if self.is_file and not os.path.isfile(self.source):
            raise CameraError(f"video file {self.source} does not exist")
        # (A camera that is not there: OpenCV's warnings about it would come before ours.)
        with opencv_quiet():
            cap = cv2.VideoCapture(self.source)
        if not cap.isOpened():
            cap.release()
            if self.is_file:
                raise CameraError(f"OpenCV cannot decode the video file {self.source}")
            raise CameraError(f"no webcam at index {self.source}: is it plugged in? "
                              "(`ls /dev/video*` lists the cameras Linux sees)")
        if not self.is_file:
            # (No FOURCC asked for: OpenCV's V4L2 capture then takes the raw YUYV a webcam
            # sends before its MJPEG, whose colour loss costs small coloured pips:
            # hardware/README.md, "A USB webcam's raw frames".)
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
            # Keep at most one frame queued, so read() returns a recent one.
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._cap = cap
        self.pixel_format = fourcc_text(cap.get(cv2.CAP_PROP_FOURCC))
        w, h = (int(cap.get(p)) for p in (cv2.CAP_PROP_FRAME_WIDTH, cv2.CAP_PROP_FRAME_HEIGHT))
        self.delivered = (w, h) if w > 0 and h > 0 else None
        # (A webcam that sends JPEGs at the size asked for: nothing else shows it but readings
        # a little worse, so the log says so where the installer looks.)
        if not self.is_file and loses_colour(self.pixel_format, self.delivered):
            log.warning("%s: compressed frames, whose colour loss costs small pips coloured unlike "
                        "their die (red on blue); hardware/README.md, \"A USB webcam's raw frames\", "
                        "says what to do", self.describe())

    def describe(self) -> str:
        """The source's name, and what it delivers where OpenCV says: "webcam 0 (YUYV
        640x480)", "video file roll.avi (MJPG 640x480)"."""
        said = " ".join(filter(None, (self.pixel_format,
                                      "x".join(map(str, self.delivered)) if self.delivered else None)))
        return f"{self.name} ({said})" if said else self.name

    def _read(self):
        import cv2
        ok, frame = self._cap.read()
        if ok and frame is not None:
            return frame
        if self.is_file:
            if self.loop:
                self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._cap.read()
                if ok and frame is not None:
                    return frame
            raise EndOfFrames(f"{self.name} has no more frames")
        raise CameraError(f"{self.name} stopped delivering frames (unplugged?)")

    def _close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def loses_colour(pixel_format: str | None, size: tuple[int, int] | None) -> bool:
    """Whether a webcam's frames sent in ``pixel_format`` (its FOURCC's letters) at ``size``
    (None: not said) lose colour that small coloured pips need: compressed, and under
    ``WIDE_ENOUGH``."""
    return pixel_format in COMPRESSED_FORMATS and (size is None or size[0] < WIDE_ENOUGH)


def fourcc_text(code: float) -> str | None:
    """A FOURCC as OpenCV's ``CAP_PROP_FOURCC`` gives it (a webcam's V4L2 pixel format, a
    video file's codec) as its four letters, "YUYV" or "MJPG"; None where it says none (0, or
    -1 where the backend cannot tell) or is not four printable letters."""
    code = int(code)
    if code <= 0 or code >= 1 << 32:
        return None
    letters = code.to_bytes(4, "little")
    if not all(32 <= b < 127 for b in letters):
        return None
    return letters.decode("ascii").strip() or None


class FolderSource(FrameSource):
    """Replays the images of a folder, in file-name order (as ``companion`` records them)."""

    def __init__(self, folder: str, size=(640, 480), loop: bool = False):
        super().__init__(size)
        self.folder = folder
        self.loop = loop
        self.name = f"image folder {folder}"
        self.files: list[str] = []
        self._next = 0

    def _open(self) -> None:
        if not os.path.isdir(self.folder):
            raise CameraError(f"{self.name} does not exist")
        self.files = sorted(os.path.join(self.folder, f) for f in os.listdir(self.folder)
                            if f.lower().endswith(IMAGE_EXTENSIONS))
        if not self.files:
            raise CameraError(f"{self.name} holds no images ({', '.join(IMAGE_EXTENSIONS)})")
        self._next = 0

    def _read(self):
        import cv2
        if self._next >= len(self.files):
            if not self.loop:
                raise EndOfFrames(f"{self.name}: all {len(self.files)} images shown")
            self._next = 0
        path = self.files[self._next]
        self._next += 1
        if not os.path.exists(path):
            raise CameraError(f"{path} disappeared (was {self.name} removed?)")
        with opencv_quiet():
            frame = cv2.imread(path, cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"{path} is not a readable image")
        return frame


def _placeholder_tray(dice: Sequence[int], coins: Sequence = (), *, seed: int = 0,
                      size=(640, 480), **_style):
    """A plain stand-in for the vision renderer: white dice with black pips on green felt
    (seen from overhead, whatever style the renderer was asked for)."""
    import cv2
    import numpy as np
    w, h = size
    rng = np.random.default_rng(seed)
    frame = np.zeros((h, w, 3), np.uint8)
    frame[:] = (40, 110, 30)
    side = max(12, min(w, h) // 8)
    offsets = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
               4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
               5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
               6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
    for i, value in enumerate(dice):
        cx = int((i + 1) * w / (len(dice) + 1) + rng.integers(-side // 4, side // 4 + 1))
        cy = int(h / 2 + rng.integers(-h // 4, h // 4 + 1))
        cv2.rectangle(frame, (cx - side // 2, cy - side // 2), (cx + side // 2, cy + side // 2),
                      (235, 235, 235), -1)
        for dx, dy in offsets.get(int(value), []):
            cv2.circle(frame, (cx + dx * side // 4, cy + dy * side // 4), max(2, side // 10),
                       (20, 20, 20), -1)
    for j, _coin in enumerate(coins):
        cv2.circle(frame, (int((j + 1) * w / (len(coins) + 1)), h - side), side // 2,
                   (60, 170, 210), -1)
    return frame


def _find_renderer():
    """The vision renderer if it is there, else the placeholder: (render_tray, render_roll or
    None, a name for reports)."""
    try:
        from companion.vision.render import render_tray
    except ImportError:
        return _placeholder_tray, None, "placeholder (companion.vision.render not available)"
    try:
        from companion.vision.render import render_roll
    except ImportError:
        render_roll = None
    return render_tray, render_roll, "companion.vision.render"


class SyntheticSource(FrameSource):
    """A rendered dice tray. The simulation says what lands in it::

        cam.show([3, 5, 6])        # a few tumbling frames, then the dice settle on 3 5 6

    Until the first ``show`` the tray is empty. ``unplug()`` / ``plug()`` make it behave like
    a camera that disappears and comes back. ``style``: the renderer's (``slant=45``: a
    webcam 45 degrees from overhead); ``turn``: the camera turned this many degrees about
    its own axis (its picture turned anticlockwise), as a webcam not quite level.
    """

    name = "synthetic tray"
    FPS = 30

    def __init__(self, size=(640, 480), seed: int = 0, roll_frames: int = 6, style: dict | None = None,
                 turn: float = 0.0):
        super().__init__(size)
        self.seed = seed
        self.roll_frames = roll_frames
        self.style = dict(style or {})
        self.turn = turn
        self._render, self._render_roll, self.renderer = _find_renderer()
        self.dice: tuple[int, ...] = ()
        self.coins: tuple = ()
        self._pending: list = []
        self._settled = None
        self._unplugged = False
        self._rolls = 0

    def show(self, dice: Sequence[int], coins: Sequence = (), roll_frames: int | None = None,
             seed: int | None = None) -> None:
        """Roll ``dice`` (values 1-6) and ``coins`` ("heads"/"tails") into the tray: the next
        ``roll_frames`` frames show them tumbling, then every frame shows them at rest.
        ``seed`` fixes how this roll looks (the demo keys it by the game's step, so that a
        resumed game sees the very same frames); by default each roll looks different."""
        dice = tuple(int(v) for v in dice)
        for v in dice:
            if not 1 <= v <= 6:
                raise ValueError(f"a die shows 1 to 6, not {v}")
        n = self.roll_frames if roll_frames is None else roll_frames
        self._rolls += 1
        if seed is None:
            seed = self.seed * 1000 + self._rolls
        self.dice, self.coins = dice, tuple(coins)
        if self._render_roll is not None and not coins:
            frames, _info = self._render_roll(list(dice), seed=seed, size=self.size, fps=self.FPS,
                                              before=0.0, roll=n / self.FPS, after=1 / self.FPS,
                                              **self.style)
            images = [self._turned(f) for _t, f in frames]
            self._pending, self._settled = images[:-1], images[-1]
        else:
            import numpy as np
            rng = np.random.default_rng(seed)
            self._pending = [self._still([int(x) for x in rng.integers(1, 7, len(dice))], self.coins,
                                         int(rng.integers(0, 2**31))) for _ in range(n)]
            self._settled = self._still(list(dice), self.coins, seed)

    def _still(self, dice: list[int], coins: Sequence, seed: int):
        """One frame of ``dice`` and ``coins`` lying still, as this camera sees them."""
        return self._turned(self._render(dice, coins, seed=seed, size=self.size, **self.style))

    def _turned(self, frame):
        """``frame`` as this camera, turned ``turn`` degrees about its axis, sees it."""
        if not self.turn:
            return frame
        import cv2
        h, w = frame.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), self.turn, 1.0)
        return cv2.warpAffine(frame, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def unplug(self) -> None:
        self._unplugged = True

    def plug(self) -> None:
        self._unplugged = False

    def describe(self) -> str:
        return f"{self.name} ({self.renderer})"

    def _open(self) -> None:
        if self._unplugged:
            raise CameraError(f"{self.name} is unplugged")

    def _read(self):
        if self._unplugged:
            raise CameraError(f"{self.name} disappeared (unplugged)")
        if self._pending:
            return self._pending.pop(0)
        if self._settled is None:
            self._settled = self._still([], (), self.seed)
        return self._settled.copy()


def open_camera(cfg, *, backend: str | None = None) -> FrameSource:
    """The frame source the ``[camera]`` section of ``cfg`` describes (not opened yet)."""
    cam = cfg["camera"]
    kind = backend or cam["backend"]
    size = (cam["width"], cam["height"])
    if kind == "picamera2":
        from companion.devices.picamera import Picamera2Source
        return Picamera2Source(cam["index"], size)
    if kind == "opencv":
        return OpenCVSource(cam["source"] or cam["index"], size, loop=cam["loop"])
    if kind == "folder":
        if not cam["source"]:
            raise CameraError('camera.backend = "folder" needs camera.source = "<folder of images>"')
        return FolderSource(os.path.expanduser(cam["source"]), size, loop=cam["loop"])
    if kind == "synthetic":
        return SyntheticSource(size)
    raise CameraError(f"unknown camera backend {kind!r}")
