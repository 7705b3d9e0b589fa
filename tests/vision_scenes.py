"""Shared by the vision reader tests: scoring a reading against a rendered tray's truth (or
a dev photo's labels, as the accuracy benchmark scores it), and the frames those tests read
(a webcam's JPEG, a slanted camera's squash, a tray rim)."""

import functools
import importlib.util
import math
import os

import cv2

from companion.vision.calibration import Calibration
from companion.vision.photo_views import as_frame
from companion.vision.render import render_scene


# The real labelled dev photos (``../shared/datasets``), where the checkout has them.
DEV = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "datasets", "dice-real-dev")


def laid_tray(values, places, noise, angles=(0.2, 0.5, 0.9, 0.4)):
    """A rendered tray with ``values`` lying at ``places``, turned by ``angles``: the same
    tray and light whatever lies there (``noise``: the seed of the frame's sensor noise), as
    a fixed webcam sees dice thrown in and left lying."""
    return render_scene(values, seed=6, positions=places, angles=list(angles)[:len(values)], die_size=44,
                        light=0, noise_seed=noise)[0]


@functools.cache
def accuracy_benchmark():
    """benchmarks/vision_accuracy.py as a module, loaded once: its scoring (``score_image``)
    is the one definition of right and wrong for the dev photos."""
    path = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "vision_accuracy.py")
    spec = importlib.util.spec_from_file_location("vision_accuracy", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def dev_photo(name: str, **frame):
    """Dev photo ``name`` and its labels, as ``vision_accuracy.as_frame(**frame)`` makes them
    (as it is, without ``frame``)."""
    acc = accuracy_benchmark()
    path = os.path.join(DEV, name)
    img = cv2.imread(path)
    labels = acc.load_labels(path[:-4] + ".txt", img.shape[1], img.shape[0])
    return acc.as_frame(img, labels, **frame)


def score(reading, truth, tol=20):
    """(correct, wrong, uncertain) against the rendered truth; a die read where none was
    drawn counts as wrong."""
    correct = wrong = 0
    for d in reading.dice:
        near = [v for v, x, y in truth["dice"] if math.hypot(d.x - x, d.y - y) < tol]
        if near and near[0] == d.value:
            correct += 1
        else:
            wrong += 1
    return correct, wrong, len(reading.uncertain)


def as_webcam_jpeg(frame, quality=80):
    """``frame`` as a webcam's MJPEG stream delivers it: JPEG-compressed at ``quality``."""
    return as_frame(frame, [], jpeg=quality)[0]


# ``render_scene``'s slant draws a camera far from the tray: every row squashed alike. The
# reader, not told otherwise, takes a slanted camera for a webcam near the tray
# (``perspective.ASSUMED_FIELD_OF_VIEW``), whose far dice are smaller than its near ones;
# where the vision tests read such frames, they tell it what the camera is, as its installer
# would (``companion calibrate --field-of-view 10``: behind a narrow lens, read as it is).
# Nothing else is told: the slant is still the frame's own to measure.
FAR_CAMERA = Calibration(field_of_view=10)


def squashed_tray(values, seed, height):
    """A rendered top-down tray squeezed to ``height`` rows, as a slanted camera sees it."""
    frame, truth = render_scene(values, seed=seed, size=(640, 640), die_colour="mixed", die_size=44)
    f = height / 640
    return (cv2.resize(frame, (640, height), interpolation=cv2.INTER_AREA),
            {"dice": [(v, x, y * f) for v, x, y in truth["dice"]]})


def in_a_tray_rim(frame):
    """``frame`` with a dark tray rim seen all round it: in the foreground mask, one blob
    whose hole holds everything in the tray."""
    out = frame.copy()
    cv2.rectangle(out, (12, 12), (out.shape[1] - 13, out.shape[0] - 13), (40, 40, 45), 10)
    return out
