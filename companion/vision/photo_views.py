"""The labelled dev photos as other cameras would give them (a development tool: the
accuracy benchmark, the face network's training and the tests use it; the companion never does).

A photo of the dev set is a phone photo taken from overhead. ``as_frame`` makes it a smaller
photo, a webcam frame squeezed into 4:3 as by a slanted camera, or (``perspective``) a frame
of a real camera that many degrees from overhead, with the far dice smaller and flatter than
the near ones; softens it as a webcam's lens does, darkens it as an underexposed camera
would, tints it as a camera's white balance gone wrong would and adds a sensor's noise; and
compresses it as a webcam's MJPEG stream does. The labels follow (seven of them mended:
``LABEL_FIXES``; five dice with none added: ``UNLABELLED``).
"""

from __future__ import annotations

import math
import os

import cv2
import numpy as np

from .perspective import focal_length


# Dev photo labels that name another face than the die's top face shows, each checked by
# eye on the full-size photo: (photo, label's place in its file) -> the face shown. Each was
# a die the reader read right at full size, and was counted wrong.
LABEL_FIXES = {
    ("IMG_20191208_111246", 0): 3,    # a blue 3, its red pips in a row (labelled 2)
    ("IMG_20191208_112342", 16): 3,   # a black 3 (labelled 2)
    ("IMG_20191209_095439", 9): 4,    # a purple 4 (labelled 5)
    ("IMG_20191209_095555", 5): 6,    # a purple 6 (labelled 5)
    ("IMG_20191209_095954", 2): 3,    # a green marbled 3 with yellow pips (labelled 2)
    ("IMG_20191209_100002", 2): 3,    # a green marbled 3 again (labelled 2)
    ("IMG_20191209_100722", 4): 5,    # a white 5, a 6 on its far side (labelled 6)
}


# Dice in the dev photos with no label, each checked by eye: photo -> [(face, cx, cy, bw, bh)]
# as fractions of the photo's sides (YOLO's form; the box is a die's usual size there). (A
# die held in a hand above the tray in IMG_20191208_112623 is left unlabelled: not rolled.)
UNLABELLED = {
    "IMG_20191208_111530": [(6, 0.1781, 0.9072, 0.0625, 0.0625)],   # a blue 6 with red pips
    "IMG_20191208_111730": [(2, 0.4938, 0.5855, 0.0548, 0.0548)],   # a dark red 2
    "IMG_20191208_112342": [(3, 0.4203, 0.2313, 0.0530, 0.0530)],   # a green marbled 3
    "IMG_20191208_112353": [(3, 0.4898, 0.5921, 0.0439, 0.0439)],   # a black 3 with red pips
    "IMG_20191209_095533": [(6, 0.5283, 0.5696, 0.0563, 0.0563)],   # a green 6
}


def load_labels(path: str, w: int, h: int, fixed: bool = True) -> list[tuple[int, float, float, float, float]]:
    """(value, cx, cy, bw, bh) in pixels, from a YOLO label file; ``fixed``: with a dev
    photo's ``LABEL_FIXES`` made and its ``UNLABELLED`` dice added."""
    stem = os.path.splitext(os.path.basename(path))[0]
    out = []
    with open(path) as fh:
        for line in fh:
            parts = line.split()
            if len(parts) == 5:
                c, x, y, bw, bh = int(parts[0]), *map(float, parts[1:])
                value = LABEL_FIXES.get((stem, len(out)), c + 1) if fixed else c + 1
                out.append((value, x * w, y * h, bw * w, bh * h))
    if fixed:
        out += [(v, x * w, y * h, bw * w, bh * h) for v, x, y, bw, bh in UNLABELLED.get(stem, ())]
    return out


# JPEG colour subsampling: OpenCV's default 4:2:0 (colour at half the resolution both ways,
# as in most phone photos), 4:2:2 (half across only) or 4:4:4 (none). Webcams' MJPEG streams
# come as 4:2:0 or 4:2:2.
CHROMA = {"420": None, "422": "IMWRITE_JPEG_SAMPLING_FACTOR_422", "444": "IMWRITE_JPEG_SAMPLING_FACTOR_444"}


def as_frame(img, labels, size: int = 0, frame: str | None = None, jpeg: int = 0, chroma: str = "420",
             tilt: float = 0.0, exposure: float = 1.0, blur: float = 0.0, noise: float = 0.0, seed: int = 0,
             cast: tuple[float, float, float] | None = None, roll: float = 0.0, field_of_view: float | None = None,
             far: float = 1.0, barrel: float = 0.0, cut_off: list | None = None, yuyv: bool = False,
             light=None):
    """The photo and its labels as the reader would get them: downscaled to ``size`` (longest
    side), or resized to exactly ``frame`` ("WxH", squashing it as a slanted camera does, or
    with ``tilt``, seen in perspective by a camera that many degrees from overhead:
    ``perspective``), and JPEG-compressed at quality ``jpeg`` with colour subsampling
    ``chroma`` (``CHROMA``). ``exposure`` below 1: the light the camera took in, as a share of
    the photo's (a dim room, a short exposure), applied before the JPEG as in a camera.
    ``blur``: a soft lens, as a Gaussian of this sigma in the frame's pixels (a phone photo
    shrunk to a frame is sharper than any webcam's frame), also before the JPEG. ``noise``:
    a webcam sensor's, as Gaussian noise of this sigma (0-255) in each pixel and channel
    (a photo shrunk to a frame has none), drawn from ``seed``, before the JPEG too. ``cast``:
    a white balance gone wrong, as gains on the blue, green and red channels ((1.15, 1, 0.85):
    a cool cast, as under daylight with the camera set for lamps), before the JPEG too.
    ``light``: a function of the frame lighting it otherwise, before its noise (a lamp on
    the mains: ``render.flickering`` at the frame's time). ``roll``: with ``frame``, the
    camera also turned this many degrees about its own axis (a webcam not quite level; its
    picture turned anticlockwise), in the same warp.
    ``field_of_view``: with ``tilt``, how wide the camera sees across the frame in degrees
    (a webcam's 50-70: nearer the tray, its far end smaller than the near); by default 37,
    from 1.5 photo-widths away. ``far`` over 1: first, the photo as a camera that many
    times as far away takes it, at as many pixels: the tray in the middle, as wide as
    before, the rest of the picture the tray's colour (``far`` times as wide, the photo of a
    table a phone takes from further off). ``barrel``: with ``tilt`` or ``roll``, the
    camera's lens's barrel distortion (``perspective``), in the same warp. ``cut_off``: a list
    that gets the labels of the dice the frame's edge may cut (``perspective``'s). ``yuyv``:
    instead of a JPEG, the frame as OpenCV reads a USB webcam on Linux: raw YUYV (V4L2 picks
    it before MJPEG), its colour at half the resolution across, nothing compressed."""
    if barrel and not (frame and (tilt or roll)):
        raise ValueError("barrel distortion is a camera's: it needs frame and tilt or roll")
    if jpeg and yuyv:
        raise ValueError("a frame is either a JPEG or raw YUYV, not both")
    if far > 1.0:
        img, labels = _from_further(img, labels, far)
    if frame and (tilt or roll):
        distance = 1.5 if field_of_view is None else focal_length(field_of_view)
        img, labels = perspective(img, labels, frame, tilt, distance, roll=roll, barrel=barrel, cut_off=cut_off)
        frame = None
    sx = sy = 1.0
    if size:
        sx = sy = size / max(img.shape[:2])
    if frame:
        fw, fh = (int(v) for v in frame.lower().split("x"))
        sx, sy = fw / img.shape[1], fh / img.shape[0]
    if sx != 1.0 or sy != 1.0:
        img = cv2.resize(img, (round(img.shape[1] * sx), round(img.shape[0] * sy)),
                         interpolation=cv2.INTER_AREA)
        labels = [(v, x * sx, y * sy, bw * sx, bh * sy) for v, x, y, bw, bh in labels]
        if cut_off:
            cut_off[:] = [(v, x * sx, y * sy, bw * sx, bh * sy) for v, x, y, bw, bh in cut_off]
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if exposure != 1.0:
        img = cv2.convertScaleAbs(img, alpha=exposure)
    if cast is not None:
        img = np.clip(img * np.float32(cast), 0, 255).astype(np.uint8)
    if light is not None:
        img = light(img)
    if noise > 0:
        grain = np.random.default_rng(seed).normal(0.0, noise, img.shape)
        img = np.clip(img + grain, 0, 255).astype(np.uint8)
    if jpeg:
        params = [cv2.IMWRITE_JPEG_QUALITY, jpeg]
        if CHROMA[chroma]:
            params += [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, getattr(cv2, CHROMA[chroma])]
        img = cv2.imdecode(cv2.imencode(".jpg", img, params)[1], cv2.IMREAD_COLOR)
    if yuyv:
        # (each pair of pixels across shares one colour, their mean; YUYV holds whole pairs
        # only, so a frame of odd width loses its last column)
        img = cv2.cvtColor(cv2.cvtColor(img[:, :img.shape[1] // 2 * 2], cv2.COLOR_BGR2YUV_YUYV),
                           cv2.COLOR_YUV2BGR_YUYV)
    return img, labels


def _barrel_sources(fw: int, fh: int, k: float) -> tuple[np.ndarray, np.ndarray]:
    """For each pixel of a ``fw`` x ``fh`` frame seen through a lens of barrel distortion
    ``k``, where it would lie seen through a lens without (``perspective``'s ``barrel``)."""
    cx, cy, half = (fw - 1) / 2, (fh - 1) / 2, math.hypot(fw, fh) / 2
    ys, xs = np.mgrid[0:fh, 0:fw].astype(np.float32)
    dx, dy = xs - cx, ys - cy
    grow = 1 + k * (dx * dx + dy * dy) / (half * half)
    return cx + dx * grow, cy + dy * grow


def _barrel_seen(x: float, y: float, fw: int, fh: int, k: float) -> tuple[float, float]:
    """Where the point (x, y) of a frame seen through a lens without distortion shows
    through one of barrel distortion ``k`` (``_barrel_sources`` the other way)."""
    cx, cy, half = (fw - 1) / 2, (fh - 1) / 2, math.hypot(fw, fh) / 2
    ux, uy = x - cx, y - cy
    r_u = math.hypot(ux, uy) / half
    r = r_u
    for _ in range(30):   # (r (1 + k r^2) = r_u, by fixed-point steps: they converge for k << 1)
        r = r_u / (1 + k * r * r)
    f = r / r_u if r_u else 1.0
    return cx + ux * f, cy + uy * f


def _from_further(img, labels, far: float):
    """``as_frame``'s ``far``: the photo in the middle of one ``far`` times as wide and
    high, filled with the median colour of the photo's edge, and its labels moved with it."""
    h, w = img.shape[:2]
    top, left = round(h * (far - 1) / 2), round(w * (far - 1) / 2)
    edge = np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]])
    fill = [int(c) for c in np.median(edge, axis=0)]
    img = cv2.copyMakeBorder(img, top, top, left, left, cv2.BORDER_CONSTANT, value=fill)
    return img, [(v, x + left, y + top, bw, bh) for v, x, y, bw, bh in labels]


def perspective(img, labels, frame: str, tilt: float, distance: float = 1.5, roll: float = 0.0,
                barrel: float = 0.0, cut_off: list | None = None):
    """The photo (taken from overhead) as a ``frame`` ("WxH") seen by a camera ``tilt``
    degrees from overhead, ``distance`` photo-widths from its centre, with the photo's centre
    row across the frame's width, and turned ``roll`` degrees about its own axis (the view
    turned anticlockwise about the frame's centre), through a lens of barrel distortion
    ``barrel`` (k: things at the frame's centre the size they were, and at its corners, a
    half-diagonal out, 1 + 3k times smaller along the radius and 1 + k times across it;
    each pixel's view, r half-diagonals out, is that r (1 + k r^2) out without it; a cheap
    webcam's lens, k about 0.05 to 0.15); and the labels that stay wholly inside the frame (box
    corners mapped, the box around them kept). ``cut_off``: a list that gets the labels
    whose centre is inside the frame but whose box is not wholly: the frame's edge may cut
    the die, or only the box's corners (a label's box is square to the photo, and wider
    than a turned die's face)."""
    fw, fh = (int(v) for v in frame.lower().split("x"))
    # Area-average the photo down to a little over the frame's scale first: the warp below
    # interpolates linearly, which would alias pips shrunk by more than about two.
    pre = min(1.0, 1.5 * fw / img.shape[1])
    if pre < 1.0:
        img = cv2.resize(img, None, fx=pre, fy=pre, interpolation=cv2.INTER_AREA)
    side = img.shape[1]
    t = math.radians(tilt)
    # The photo is the plane z = 0, one unit wide around the origin; the camera, tilted
    # about the x axis, looks at its centre with the near edge at the bottom of its view.
    eye = np.array([0.0, distance * math.sin(t), distance * math.cos(t)])
    ahead = -eye / np.linalg.norm(eye)
    right = np.array([-1.0, 0.0, 0.0])
    rot = np.stack([right, np.cross(ahead, right), ahead])

    def seen(x, y):
        p = rot @ (np.array([x, y, 0.0]) - eye)
        return p[0] / p[2], p[1] / p[2]

    corners = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
    cx, cy = seen(0.0, 0.0)
    scale = fw / abs(seen(0.5, 0.0)[0] - seen(-0.5, 0.0)[0])
    dst = [((u - cx) * scale + fw / 2, (v - cy) * scale + fh / 2) for u, v in (seen(*c) for c in corners)]
    if roll:
        # (one warp for both: resampling the frame twice would soften it as no camera does)
        turn = cv2.getRotationMatrix2D((fw / 2, fh / 2), roll, 1.0)
        dst = [tuple(turn @ (x, y, 1.0)) for x, y in dst]
    # (in the photo, a unit is its width, about its centre: a taller photo runs on beyond)
    src = [(x * side + img.shape[1] / 2, y * side + img.shape[0] / 2) for x, y in corners]
    h = cv2.getPerspectiveTransform(np.float32(src), np.float32(dst))
    if barrel:
        # (one resampling for both, as the lens does: twice would soften the frame)
        sx, sy = _barrel_sources(fw, fh, barrel)
        src_xy = cv2.perspectiveTransform(np.dstack([sx, sy]).reshape(1, -1, 2), np.linalg.inv(h))
        maps = src_xy.reshape(fh, fw, 2)
        out = cv2.remap(img, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    else:
        out = cv2.warpPerspective(img, h, (fw, fh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    kept = []
    for v, x, y, bw, bh in labels:
        pts = np.float32([[x, y], [x - bw / 2, y - bh / 2], [x + bw / 2, y - bh / 2],
                          [x + bw / 2, y + bh / 2], [x - bw / 2, y + bh / 2]]) * pre
        q = cv2.perspectiveTransform(pts[None], h)[0]
        if barrel:
            q = np.float32([_barrel_seen(float(x), float(y), fw, fh, barrel) for x, y in q])
        xs, ys = q[1:, 0], q[1:, 1]
        label = (v, float(q[0, 0]), float(q[0, 1]), float(xs.max() - xs.min()), float(ys.max() - ys.min()))
        if xs.min() >= 0 and ys.min() >= 0 and xs.max() < fw and ys.max() < fh:
            kept.append(label)
        elif cut_off is not None and 0 <= label[1] < fw and 0 <= label[2] < fh:
            cut_off.append(label)
    return out, kept
