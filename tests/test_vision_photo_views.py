"""The camera faults ``photo_views.as_frame`` gives a dev photo, which the accuracy benchmark
and the tests read: they must be what a camera gives, or the figures measure something else."""

import numpy as np
import pytest

from companion.vision.photo_views import as_frame


def _stripes(across: bool) -> np.ndarray:
    """A grey frame of red and blue stripes one pixel wide, running down (``across``: they
    alternate from column to column) or across (from row to row)."""
    img = np.full((16, 16, 3), 128, np.uint8)
    red, blue = (slice(0, None, 2), slice(1, None, 2))
    if across:
        img[:, red], img[:, blue] = (40, 40, 200), (200, 40, 40)
    else:
        img[red, :], img[blue, :] = (40, 40, 200), (200, 40, 40)
    return img


def test_a_raw_yuyv_frame_halves_its_colour_across_but_not_down():
    # OpenCV reads a USB webcam on Linux as raw YUYV: two pixels side by side share one
    # colour, pixels one above the other do not, and nothing is compressed.
    across = as_frame(_stripes(True), [], yuyv=True)[0].astype(int)
    down = as_frame(_stripes(False), [], yuyv=True)[0].astype(int)
    assert across.shape == down.shape == (16, 16, 3)
    # side by side, red and blue become their mean colour, as much blue as red in each
    # pixel (a lighter and a darker purple)
    assert np.abs(across[:, :, 0] - across[:, :, 2]).max() <= 10
    # one above the other, they stay red and blue
    assert (down[0::2, :, 2] - down[0::2, :, 0]).min() >= 120
    assert (down[1::2, :, 0] - down[1::2, :, 2]).min() >= 120


def test_a_frame_is_a_jpeg_or_raw_yuyv_not_both():
    with pytest.raises(ValueError):
        as_frame(_stripes(True), [], jpeg=80, yuyv=True)
