"""Synthetic tray frames for tests, benchmarks and the PC demo (not a measure of accuracy).

``render_tray(dice, coins=(), *, seed=0, size=(640, 480), **style)`` draws one frame;
``render_scene`` does the same and also returns where everything is (the ground truth);
``render_roll`` draws a whole roll: dice tumbling in, bouncing, coming to rest, and
optionally a hand reaching into the tray afterwards; ``flickering`` lights a frame as a
lamp on the mains does through a webcam's rolling shutter.

Style knobs (all optional):

- ``die_size``: die side in px (default: 1/11 of the frame's shorter side)
- ``die_colour`` / ``pip_colour``: BGR tuples, or ``die_colour="mixed"`` for random colours
- ``tray_colour``: BGR; ``table="wood"``: the dice on a wooden table (planks, grain, knots)
  instead of a tray; ``light``: 0-1 strength of uneven lighting; ``noise``: pixel noise std
- ``blur``: Gaussian blur sigma in px; ``tilt``: 0-0.4 perspective (camera not overhead)
- ``side``: 0-0.5 how much of the side faces shows (a slanted view, side pips drawn)
- ``slant``: 0-60, the camera's angle from overhead in degrees, drawn as it really looks: the
  dice are cubes seen from that angle (top faces squashed by its cosine, the near side faces
  with their own pips showing below them), and the whole tray squashed with them, as a
  camera far from the tray sees it
- ``field_of_view``: with ``slant``, the camera near the tray instead, seeing this many
  degrees across the frame: the far end of the tray comes out smaller and flatter than the
  near (each row scaled about the frame's centre, which stays as it was)
- ``touching``: place the dice in contact with each other
- ``clutter``: how many non-die objects (pencil, eraser, paper, bead) lie around
- ``logo``: value whose face shows a logo instead of pips
- ``keyboard``: ``"light"`` or ``"dark"``: a computer keyboard across the top of the frame
  (die-sized keycaps, lettered in the middle or the corner), the dice below it
- ``page``: a printed page across the top of the frame instead (a rulebook or a score pad
  beside the tray: lines of words, numbers and stops, the letters a fifth to two fifths of
  a die's side tall), the dice below it
"""

from __future__ import annotations

import math
from typing import Sequence

import cv2
import numpy as np

from .perspective import depth_rate, mapped

# Pip positions on a face in units of the face's half-side (x right, y down).
PIP_LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
DIE_COLOURS = [((235, 235, 235), (25, 25, 25)), ((40, 40, 200), (240, 240, 240)),
               ((60, 150, 40), (40, 230, 240)), ((150, 60, 40), (240, 240, 240)),
               ((30, 30, 30), (240, 240, 240)), ((40, 200, 230), (20, 20, 20)),
               ((120, 40, 120), (240, 240, 240))]
SS = 2   # supersampling factor: draw big, shrink, for smooth edges


def _rounded_square(cx, cy, half, angle, corner=0.18, n=6) -> np.ndarray:
    """Polygon of a square with rounded corners, rotated by ``angle`` radians."""
    pts = []
    rad = half * corner
    inner = half - rad
    for k, (sx, sy) in enumerate([(1, 1), (-1, 1), (-1, -1), (1, -1)]):
        a0 = k * math.pi / 2
        for j in range(n + 1):
            a = a0 + j * (math.pi / 2) / n
            pts.append((sx * inner + rad * math.cos(a), sy * inner + rad * math.sin(a)))
    ca, sa = math.cos(angle), math.sin(angle)
    return np.array([(cx + x * ca - y * sa, cy + x * sa + y * ca) for x, y in pts], np.float64)


class _Canvas:
    def __init__(self, size, rng, style, out_size=None):
        self.w, self.h = size
        self.out = out_size or size      # the frame's size: a slanted view squashes the canvas
        self.rng = rng
        self.style = style
        self.img = np.zeros((self.h * SS, self.w * SS, 3), np.uint8)
        if style.get("table") == "wood":
            self.img[:] = _wood(self.w * SS, self.h * SS, rng)
        else:
            self.img[:] = style.get("tray_colour", (150, 160, 165))

    def poly(self, pts, colour):
        cv2.fillPoly(self.img, [np.round(np.asarray(pts) * SS * 16).astype(np.int32)], colour,
                     lineType=cv2.LINE_AA, shift=4)

    def ellipse(self, cx, cy, ax, ay, angle_deg, colour, thickness=-1):
        cv2.ellipse(self.img, (round(cx * SS * 16), round(cy * SS * 16)),
                    (max(1, round(ax * SS * 16)), max(1, round(ay * SS * 16))), angle_deg, 0, 360,
                    colour, thickness, cv2.LINE_AA, 4)

    def cube_sides(self, value, cx, cy, half, angle, colour, pip_colour, drop):
        """The side faces of a cube whose top face is drawn at (cx, cy), seen from a camera
        at a slant: each side facing the camera is the top face's edge swept ``drop`` px down
        (in this unsquashed canvas), with the pips of its own value."""
        ring = [v for v in range(1, 7) if v not in (value, 7 - value)]
        ring = [ring[0], ring[1], 7 - ring[0], 7 - ring[1]]   # the four sides, going round
        t = np.linspace(0, 2 * math.pi, 20, endpoint=False)
        unit = np.stack([np.cos(t), np.sin(t)], 1)
        for k in range(4):
            # Outward normal of side k; the sides facing the camera point down the image.
            a = angle + k * math.pi / 2
            nx, ny = math.cos(a), math.sin(a)
            if ny <= 0.02:
                continue
            ex, ey = -ny, nx                       # along the top edge, half a side long
            mx, my = cx + nx * half, cy + ny * half
            shade = 0.55 + 0.3 * nx * nx           # faces turned sideways catch more light
            self.poly([(mx - ex * half, my - ey * half), (mx + ex * half, my + ey * half),
                       (mx + ex * half, my + ey * half + drop), (mx - ex * half, my - ey * half + drop)],
                      tuple(int(c * shade) for c in colour))
            circle = unit * (0.2 if ring[k] == 1 else 0.15)   # a pip, in half-sides
            for px, py in PIP_LAYOUT[ring[k]]:
                # Face coordinates (u along the edge, v down the side) onto the canvas.
                u, v = px * 0.52, py * 0.52
                ox, oy = mx + ex * half * u, my + ey * half * u + drop * (0.5 + 0.5 * v)
                pts = np.stack([ox + ex * half * circle[:, 0],
                                oy + ey * half * circle[:, 0] + drop * 0.5 * circle[:, 1]], 1)
                self.poly(pts, tuple(int(c * shade) for c in pip_colour))

    def die(self, value, cx, cy, half, angle, colour, pip_colour, side, logo, drop=0.0):
        shade = tuple(int(c * 0.72) for c in colour)
        shadow = _rounded_square(cx + half * 0.12, cy + drop + half * 0.15, half, angle)
        if drop > 0:
            # The cube's shadow lies on the tray under it, behind its sides.
            self.poly(shadow, tuple(int(c * 0.75) for c in self.img[0, 0]))
            self.cube_sides(value, cx, cy, half, angle, colour, pip_colour, drop)
        elif side > 0:
            # A slanted camera sees the face nearest it: a darker band below the top face,
            # with foreshortened pips on it.
            sh = side * 2 * half
            self.poly(_rounded_square(cx, cy + sh / 2, half, angle) * [1, 1] + [0, 0], shade)
            body = _rounded_square(cx, cy + sh, half, angle)
            self.poly(np.vstack([body[body[:, 1] > cy + sh - half * 0.2]]), shade)
            for dx in (-0.5, 0.5):
                self.ellipse(cx + dx * half, cy + half + sh * 0.45, half * 0.16, half * 0.16 * side * 1.6,
                             0, tuple(int(c * 0.8) for c in pip_colour))
        if drop <= 0:
            self.poly(shadow, tuple(int(c * 0.75) for c in self.img[0, 0]))
        self.poly(_rounded_square(cx, cy, half, angle), colour)
        ca, sa = math.cos(angle), math.sin(angle)
        if logo is not None and value == logo:
            self.ellipse(cx, cy, half * 0.55, half * 0.3, math.degrees(angle), pip_colour, 2)
            self.ellipse(cx, cy, half * 0.2, half * 0.45, math.degrees(angle), pip_colour, -1)
            return
        pr = half * (0.2 if value == 1 else 0.15)
        for px, py in PIP_LAYOUT[value]:
            x, y = px * half * 0.52, py * half * 0.52
            self.ellipse(cx + x * ca - y * sa, cy + x * sa + y * ca, pr, pr, 0, pip_colour)

    def coin(self, face, cx, cy, r, angle):
        metal = (90, 160, 190)
        dark = (45, 95, 120)
        self.ellipse(cx + r * 0.08, cy + r * 0.1, r, r, 0, tuple(int(c * 0.75) for c in self.img[0, 0]))
        self.ellipse(cx, cy, r, r, 0, metal)
        self.ellipse(cx, cy, r * 0.9, r * 0.9, 0, dark, max(1, round(r * 0.05)))
        ca, sa = math.cos(angle), math.sin(angle)

        def rot(x, y):
            return cx + (x * ca - y * sa) * r, cy + (x * sa + y * ca) * r

        if face == "heads":
            # A head in profile: a large filled oval off-centre plus a small one (the nose).
            self.ellipse(*rot(-0.08, 0.0), r * 0.38, r * 0.5, math.degrees(angle), dark)
            self.ellipse(*rot(0.3, -0.05), r * 0.1, r * 0.08, math.degrees(angle), dark)
        else:
            # A big numeral and a ring of dots: thin strokes, little filled area.
            for k in range(12):
                a = k * math.pi / 6
                self.ellipse(*rot(0.72 * math.cos(a), 0.72 * math.sin(a)), r * 0.05, r * 0.05, 0, dark)
            x0, y0 = rot(0.0, -0.4)
            x1, y1 = rot(0.0, 0.4)
            cv2.line(self.img, (round(x0 * SS), round(y0 * SS)), (round(x1 * SS), round(y1 * SS)), dark,
                     max(1, round(r * 0.12 * SS)), cv2.LINE_AA)
            x2, y2 = rot(-0.2, -0.2)
            cv2.line(self.img, (round(x0 * SS), round(y0 * SS)), (round(x2 * SS), round(y2 * SS)), dark,
                     max(1, round(r * 0.12 * SS)), cv2.LINE_AA)

    def keyboard(self, kind, half, rng) -> float:
        """Four rows of lettered keycaps the size of a die across the top; returns where
        the keyboard ends (y, canvas px)."""
        rows = ["1234567890-=", "QWERTYUIOP[]", "ASDFGHJKL;'#", "\\ZXCVBNM,./"]
        key = 2 * half
        pitch = 1.06 * key
        dark = kind == "dark"
        frame, cap, ink = ((40, 40, 40), (30, 30, 30), (235, 235, 235)) if dark else \
            ((200, 200, 205), (235, 235, 238), (30, 30, 30))
        legend, centred = rng.uniform(0.25, 0.4), rng.random() < 0.5
        x0, y0 = rng.uniform(10, 40), rng.uniform(8, 20)
        bottom = y0 + 4 * pitch + 8
        self.poly([(x0 - 8, y0 - 8), (x0 + 12.6 * pitch, y0 - 8), (x0 + 12.6 * pitch, bottom),
                   (x0 - 8, bottom)], frame)
        for r, row in enumerate(rows):
            for k, ch in enumerate(row):
                self.keycap(x0 + (k + 0.5 + 0.3 * r) * pitch, y0 + (r + 0.5) * pitch, key, ch, legend,
                            cap, ink, centred)
        return bottom

    def page(self, half, rng) -> float:
        """A printed page across the top (a rulebook, a score pad): lines of lowercase words
        with numbers and stops among them, in print a fifth to two fifths of a die's side
        tall, in one of four Hershey fonts; returns where the page ends (y, canvas px)."""
        paper, ink = (238, 242, 245), (35, 35, 40)
        x0, y0 = rng.uniform(6, 30), rng.uniform(4, 12)
        x1, bottom = self.w - rng.uniform(6, 30), y0 + rng.uniform(0.28, 0.38) * self.h
        self.poly([(x0, y0), (x1, y0), (x1, bottom), (x0, bottom)], paper)
        tall = rng.uniform(0.2, 0.4) * 2 * half   # (a lowercase letter's height)
        font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                               cv2.FONT_HERSHEY_TRIPLEX]))
        scale = tall / 15.0 * SS   # (Hershey fonts at scale 1: lowercase letters about 15 px tall)
        thick = max(1, round(scale * rng.uniform(1.2, 2.0)))
        letters = list("etaoinshrdlucmfwypvbgk" * 2 + "0123456789.,:;")
        y = y0 + 2.2 * tall
        while y < bottom - 0.8 * tall:
            words = ["".join(rng.choice(letters, int(rng.integers(1, 9)))) for _ in range(60)]
            line = ""
            for word in words:   # (as many words as the page is wide)
                longer = f"{line} {word}" if line else word
                if cv2.getTextSize(longer, font, scale, thick)[0][0] > (x1 - x0 - 2 * tall) * SS:
                    break
                line = longer
            cv2.putText(self.img, line, (round((x0 + tall) * SS), round(y * SS)), font, scale, ink, thick,
                        cv2.LINE_AA)
            y += 2.0 * tall
        return bottom

    def keycap(self, cx, cy, key, ch, legend, cap, ink, centred=True):
        """A keycap ``key`` wide centred at (cx, cy), lettered ``ch`` ``legend`` of its width
        tall, in its middle or (not ``centred``) near its top-left corner."""
        self.poly(_rounded_square(cx, cy, 0.45 * key, 0.0, 0.12), cap)
        scale = legend * key / 22.0 * SS    # (Hershey Simplex at scale 1: capitals 22 px tall)
        thick = max(1, round(scale * 1.6))
        (tw, th), _ = cv2.getTextSize(ch, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        if centred:
            org = (cx * SS - tw / 2, cy * SS + th / 2)
        else:
            org = ((cx - 0.3 * key) * SS, (cy - 0.3 * key) * SS + th)
        cv2.putText(self.img, ch, (round(org[0]), round(org[1])), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, thick,
                    cv2.LINE_AA)

    def clutter(self, k):
        rng = self.rng
        x, y = rng.uniform(0.05, 0.95) * self.w, rng.uniform(0.05, 0.95) * self.h
        kind = k % 4
        a = rng.uniform(0, math.pi)
        if kind == 0:      # a pencil
            L = self.h * 0.5
            p = np.array([(-L / 2, -4), (L / 2, -4), (L / 2 + 12, 0), (L / 2, 4), (-L / 2, 4)])
            rotm = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
            self.poly(p @ rotm.T + [x, y], (40, 170, 230))
        elif kind == 1:    # an eraser: die-sized but plain
            self.poly(_rounded_square(x, y, self.h / 18, a, 0.1), (200, 190, 230))
        elif kind == 2:    # a paper card with lines of text
            self.poly(_rounded_square(x, y, self.h / 8, a * 0.1, 0.02), (245, 245, 245))
            for j in range(-3, 4):
                cv2.line(self.img, (round((x - self.h / 10) * SS), round((y + j * self.h / 40) * SS)),
                         (round((x + self.h / 12) * SS), round((y + j * self.h / 40) * SS)), (60, 60, 60), SS)
        else:              # a glass bead (a round spot on its own)
            self.ellipse(x, y, self.h / 60, self.h / 60, 0, (90, 40, 30))

    def finish(self, rng, style, homography=None, noise_seed=None) -> np.ndarray:
        img = cv2.resize(self.img, self.out, interpolation=cv2.INTER_AREA).astype(np.float32)
        ow, oh = self.out
        light = float(style.get("light", 0.3))
        if light:
            gx = np.linspace(-1, 1, ow)[None, :]
            gy = np.linspace(-1, 1, oh)[:, None]
            ang = rng.uniform(0, 2 * math.pi)
            img *= (1 + 0.35 * light * (math.cos(ang) * gx + math.sin(ang) * gy))[..., None]
        if homography is not None:
            img = cv2.warpPerspective(img, homography, (ow, oh), borderMode=cv2.BORDER_REPLICATE)
        blur = float(style.get("blur", 0.0))
        if blur > 0:
            img = cv2.GaussianBlur(img, (0, 0), blur)
        noise = float(style.get("noise", 3.0))
        if noise > 0:
            # Camera noise differs from frame to frame even when nothing moves.
            cv2.setRNGSeed(int(rng.integers(1 << 30)) if noise_seed is None else int(noise_seed))
            grain = np.empty(img.shape, np.float32)
            cv2.randn(grain, 0.0, noise)
            img += grain
        return np.clip(img, 0, 255).astype(np.uint8)


# Woods a table is made of (BGR): oak, walnut, pine.
WOODS = [(70, 125, 175), (45, 75, 115), (120, 175, 215)]


def _wood(w: int, h: int, rng) -> np.ndarray:
    """A wooden table top, ``w`` x ``h``: planks along x or y with dark seams between them,
    grain lines that wander along each plank, fine streaks, and a knot or two."""
    along_y = bool(rng.integers(2))
    if along_y:
        w, h = h, w
    base = np.array(WOODS[int(rng.integers(len(WOODS)))], np.float32)
    x = np.arange(w, dtype=np.float32)[None, :]
    y = np.arange(h, dtype=np.float32)[:, None]
    shade = np.ones((h, w), np.float32)
    plank = h / rng.uniform(2.5, 4.5)
    for k in range(int(math.ceil(h / plank))):
        y0, y1 = int(k * plank), min(h, int((k + 1) * plank))
        # Grain lines: a plank's growth rings cut lengthwise, bending slowly along it.
        period = rng.uniform(0.02, 0.04) * h
        bend = 0.15 * plank * np.sin(x / (rng.uniform(0.3, 0.8) * w) * 2 * math.pi + rng.uniform(0, 6.3))
        rings = np.sin(2 * math.pi * (y[y0:y1] + bend) / period)
        shade[y0:y1] = rng.uniform(0.85, 1.1) * (1 + 0.08 * rings + 0.06 * (rings > 0.8))
        shade[y0:min(h, y0 + max(2, round(h / 300)))] *= 0.55   # the seam
    streaks = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), sigmaX=w / 40, sigmaY=0.8)
    shade *= 1 + 0.35 * streaks / max(1e-6, float(np.abs(streaks).max()))
    img = np.clip(shade[..., None] * base, 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(1, 3))):
        kx, ky, kr = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h, rng.uniform(0.01, 0.02) * h
        for r, dark in ((3.0, 0.85), (2.0, 0.7), (1.0, 0.5)):
            colour = tuple(float(c) * dark for c in base)
            cv2.ellipse(img, (round(kx), round(ky)), (round(2.5 * r * kr), round(r * kr)), 0, 0, 360, colour, -1,
                        cv2.LINE_AA)
    return img.transpose(1, 0, 2).copy() if along_y else img


def _tilt_homography(w, h, tilt) -> np.ndarray | None:
    if not tilt:
        return None
    src = np.float32([(0, 0), (w, 0), (w, h), (0, h)])
    dx = w * tilt * 0.5
    dst = np.float32([(dx, h * tilt * 0.2), (w - dx, h * tilt * 0.2), (w, h), (0, h)])
    return cv2.getPerspectiveTransform(src, dst)


def _lens_homography(w, h, slant, field_of_view) -> np.ndarray | None:
    """A ``w`` x ``h`` frame drawn as from far away at ``slant`` (radians), as a camera near
    the tray seeing ``field_of_view`` degrees across sees it: each row scaled about the
    frame's centre by 1 / (1 + k y), nothing at the centre row, the horizon at y = -1 / k."""
    if not slant or not field_of_view:
        return None
    k = depth_rate(slant, field_of_view, max(w, h))
    centre = np.array([[1.0, 0.0, -w / 2], [0.0, 1.0, -h / 2], [0.0, 0.0, 1.0]])
    return np.linalg.inv(centre) @ np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, -k, 1.0]]) @ centre


def _fits(lens: np.ndarray | None, size: tuple[int, int], squash: float, half: float):
    """Whether a thing of radius ~``half`` at a point of the unsquashed canvas stays whole
    in the frame seen through ``lens`` (None: no lens, every point does)."""
    if lens is None:
        return None
    w, h = size

    def fits(x: float, y: float) -> bool:
        fx, fy = mapped(lens, x, y * squash)
        # (near the camera, things come out larger)
        return 1.4 * half < fx < w - 1.4 * half and 1.4 * half < fy < h - 1.4 * half

    return fits


def _place(n, rng, w, h, half, touching, taken=(), axis=0.0, top=0.0, fits=None) -> list[tuple[float, float]]:
    """Centres for ``n`` objects of radius ~``half`` that do not overlap, below ``top``
    (and where ``fits(x, y)``, if given: whole in the frame, seen near the tray)."""
    spots = list(taken)
    out = []
    margin = half * 2.2
    for k in range(n):
        for _ in range(400):
            if touching and out:
                bx, by = out[-1]
                # Side by side along the dice's common axis, faces nearly flush.
                a = axis + rng.choice([0, math.pi / 2, math.pi, -math.pi / 2])
                x, y = bx + 2.12 * half * math.cos(a), by + 2.12 * half * math.sin(a)
                need = 2.0 * half
            else:
                x, y = rng.uniform(margin, w - margin), rng.uniform(top + margin, h - margin)
                need = 3.2 * half
            if not (margin < x < w - margin and top + margin < y < h - margin) or (fits and not fits(x, y)):
                continue
            if all(math.hypot(x - sx, y - sy) > (need if (sx, sy) in out else 3.2 * half) for sx, sy in spots):
                break
        out.append((x, y))
        spots.append((x, y))
    return out


def render_scene(dice: Sequence[int], coins: Sequence[str] = (), *, seed: int = 0,
                 size: tuple[int, int] = (640, 480), positions=None, angles=None,
                 extra=None, noise_seed: int | None = None, **style) -> tuple[np.ndarray, dict]:
    """Render a frame and return it with its truth: ``{"dice": [(value, x, y)], "coins":
    [(face, x, y, r)]}`` in frame pixels (after tilt). ``positions``/``angles`` override the
    random layout (used by ``render_roll``); ``extra(canvas)`` draws on top (e.g. a hand)."""
    for v in dice:
        if v not in PIP_LAYOUT:
            raise ValueError(f"a die shows 1-6, not {v!r}")
    for f in coins:
        if f not in ("heads", "tails"):
            raise ValueError(f"a coin shows 'heads' or 'tails', not {f!r}")
    rng = np.random.default_rng(seed)
    w, h = size
    half = style.get("die_size", min(w, h) / 11) / 2
    # A slanted camera: everything is drawn on an unsquashed canvas (the tray as if seen
    # from overhead, a die's sides dropping ``drop`` px below its top face), squashed to the
    # frame at the end.
    slant = math.radians(float(style.get("slant", 0.0)))
    squash = math.cos(slant)
    h = round(h / squash)
    drop = 2 * half * math.tan(slant)
    lens = _lens_homography(*size, slant, style.get("field_of_view"))
    fits = _fits(lens, size, squash, half)
    canvas = _Canvas((w, h), rng, style, out_size=size)
    touching = style.get("touching", False)
    axis = rng.uniform(0, math.pi / 2)
    top = canvas.keyboard(style["keyboard"], half, rng) if style.get("keyboard") else 0.0
    if style.get("page"):
        top = canvas.page(half, rng)
    if positions is None:
        positions = _place(len(dice), rng, w, h, half, touching, axis=axis, top=top, fits=fits)
        if touching:
            angles = [axis + rng.uniform(-0.03, 0.03) for _ in dice]
    coin_r = half * 1.3
    coin_pos = _place(len(coins), rng, w, h, coin_r, False, taken=positions, top=top, fits=fits)
    for k in range(int(style.get("clutter", 0))):
        canvas.clutter(k)
    mixed = style.get("die_colour") == "mixed"
    truth = {"dice": [], "coins": []}
    drawn = []
    for k, v in enumerate(dice):
        if mixed:
            colour, pip = DIE_COLOURS[int(rng.integers(len(DIE_COLOURS)))]
        else:
            colour = style.get("die_colour", DIE_COLOURS[0][0])
            pip = style.get("pip_colour", DIE_COLOURS[0][1])
        angle = angles[k] if angles is not None else rng.uniform(0, math.pi / 2)
        x, y = positions[k]
        drawn.append((y, k, (v, x, y, half, angle, colour, pip)))
        truth["dice"].append((v, x, y))
    # Far dice first: a near die's top face hides the side face of the die behind it, never
    # the other way round (touching dice seen at a slant).
    for _, _, args in sorted(drawn):
        canvas.die(*args, float(style.get("side", 0.0)), style.get("logo"), drop)
    for f, (x, y) in zip(coins, coin_pos):
        canvas.coin(f, x, y, coin_r, rng.uniform(0, 2 * math.pi))
        truth["coins"].append((f, x, y, coin_r))
    if extra is not None:
        extra(canvas)
    if slant:
        truth["dice"] = [(v, x, y * squash) for v, x, y in truth["dice"]]
        truth["coins"] = [(f, x, y * squash, r) for f, x, y, r in truth["coins"]]
    w, h = size
    H = _tilt_homography(w, h, float(style.get("tilt", 0.0)))
    if lens is not None:
        H = lens if H is None else H @ lens
    frame = canvas.finish(rng, style, H, noise_seed)
    if H is not None:
        truth["dice"] = [(v, *mapped(H, x, y)) for v, x, y in truth["dice"]]
        truth["coins"] = [(f, *mapped(H, x, y), r) for f, x, y, r in truth["coins"]]
    return frame, truth


def hand_over(frame: np.ndarray, reach: float = 7 / 12) -> np.ndarray:
    """``frame`` with a hand reaching into the tray from its near edge, ``reach`` of its
    height in: the motion of a roll (or of a hand passing) laid over a still frame."""
    hand = frame.copy()
    h, w = frame.shape[:2]
    hand[h - round(reach * h):, w * 5 // 13:w * 8 // 13] = (60, 90, 140)
    return hand


def hand_roll(before: list, after: list, steps: int = 6) -> list:
    """The frames a camera gives of a roll: the tray still (``before``), a hand reaching
    further in over it for ``steps`` frames, then the dice at rest (``after``)."""
    return before + [hand_over(before[0], (k + 1) / (2 * steps)) for k in range(steps)] + after


def flickering(frame: np.ndarray, t: float, *, mains_hz: float = 50.0, swing: float = 0.3,
               exposure: float = 1 / 500, readout: float = 1 / 32) -> np.ndarray:
    """``frame``, taken at ``t`` s, as a webcam's rolling shutter takes it under a lamp on
    the mains (LED or fluorescent) whose light swings ``swing`` of its mean either side of
    it, twice each cycle of the mains: each row exposed for ``exposure`` s, the rows read
    one after another over ``readout`` s. Bands of light and shade cross the frame, and
    move from frame to frame unless the frame rate divides the flicker's. (The light is
    scaled before the camera's gamma, 2.2, as a sensor sees it; bright things clip.)"""
    h = frame.shape[0]
    w = 2 * math.pi * 2 * mains_hz
    rows = t + np.arange(h) * readout / h
    if exposure > 0:   # (the light over each row's exposure)
        light = 1 + swing * (np.sin(w * (rows + exposure)) - np.sin(w * rows)) / (w * exposure)
    else:
        light = 1 + swing * np.cos(w * rows)
    gain = np.maximum(light, 0.0) ** (1 / 2.2)
    lit = frame.astype(np.float32) * (gain[:, None, None] if frame.ndim == 3 else gain[:, None])
    return np.clip(lit + 0.5, 0, 255).astype(np.uint8)


def render_tray(dice: Sequence[int], coins: Sequence[str] = (), *, seed: int = 0,
                size: tuple[int, int] = (640, 480), **style) -> np.ndarray:
    """A BGR uint8 frame of a tray showing ``dice`` values and ``coins`` faces."""
    return render_scene(dice, coins, seed=seed, size=size, **style)[0]


def render_roll(dice: Sequence[int], *, seed: int = 0, fps: float = 30.0,
                size: tuple[int, int] = (640, 480), before: float = 0.5, roll: float = 1.2,
                after: float = 1.5, pause: float = 0.0, hand: bool = False, **style):
    """Frames of one roll: an empty tray for ``before`` s, the dice tumbling in for ``roll``
    s (bouncing off each other and the walls, faces changing), then at rest for ``after`` s.
    ``pause`` > 0 stops the dice mid-roll for that long (a die balanced for an instant) before
    they tumble on; ``hand`` sends a hand into the tray and out again while the dice rest.

    Returns ``(frames, info)``: frames is a list of ``(t, frame)``; info holds ``"truth"``
    (the final values/positions), ``"rest_at"`` (time of the last dice motion) and
    ``"hand"`` ((start, end) time of the hand or None).
    """
    rng = np.random.default_rng(seed)
    w, h = size
    half = style.get("die_size", min(w, h) / 11) / 2
    slant = math.radians(float(style.get("slant", 0.0)))
    final = _place(len(dice), rng, w, h, half, style.get("touching", False),
                   fits=_fits(_lens_homography(w, h, slant, style.get("field_of_view")), size, math.cos(slant), half))
    final_ang = [rng.uniform(0, math.pi / 2) for _ in dice]
    starts = [(rng.uniform(-0.2, 0.0) * w, rng.uniform(0.2, 0.8) * h) for _ in dice]
    spins = [rng.uniform(6, 14) for _ in dice]
    rest_at = before + roll + pause
    hand_span = (rest_at + 0.8, rest_at + 1.6) if hand else None
    frames = []
    n = int(round((before + roll + pause + after + (1.6 if hand else 0)) * fps))
    for i in range(n):
        t = i / fps
        if t < before:
            positions, values, angles = [], [], []
        else:
            # Time into the roll, with the pause frozen in the middle.
            tr = t - before
            if pause and tr > roll / 2:
                tr = max(roll / 2, tr - pause)
            u = min(1.0, tr / roll)
            decay = (1 - u) ** 2
            positions, angles, values = [], [], []
            for k, v in enumerate(dice):
                fx, fy = final[k]
                sx, sy = starts[k]
                # A damped bounce towards the final spot.
                b = decay * math.cos(3 * math.pi * u)
                positions.append((fx + (sx - fx) * b, fy + (sy - fy) * b))
                angles.append(final_ang[k] + spins[k] * decay)
                values.append(v if u >= 1.0 else int(rng.integers(1, 7)) if (i % 3 == 0) else
                              (v if u > 0.8 else 1 + (i // 3 + k) % 6))
        extra = None
        if hand_span and hand_span[0] <= t <= hand_span[1]:
            reach = math.sin(math.pi * (t - hand_span[0]) / (hand_span[1] - hand_span[0]))
            extra = _hand_drawer(w, h, reach)
        frame, _ = render_scene(values, seed=seed, size=size, positions=positions, angles=angles,
                                extra=extra, noise_seed=seed * 100003 + i, **style)
        frames.append((t, frame))
    _, truth = render_scene(dice, seed=seed, size=size, positions=final,
                            angles=final_ang, **style)
    return frames, {"truth": truth, "rest_at": rest_at, "hand": hand_span}


def _hand_drawer(w, h, reach):
    def draw(canvas: _Canvas):
        # An arm from the right edge: a skin-coloured band ending in a palm.
        tip = w * (1 - 0.45 * reach)
        y = h * 0.3
        canvas.poly([(w + 10, y - h * 0.08), (tip + h * 0.1, y - h * 0.08), (tip + h * 0.1, y + h * 0.08),
                     (w + 10, y + h * 0.1)], (120, 160, 215))
        canvas.ellipse(tip + h * 0.05, y, h * 0.12, h * 0.1, 0, (120, 160, 215))
    return draw
