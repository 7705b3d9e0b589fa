"""Camera frame sources that run here: a folder replay, OpenCV on a video file, the synthetic
tray; and the errors of a camera that is missing or disappears."""

import importlib.util
import shutil
import sys

import cv2
import numpy as np
import pytest

from companion.config import load_config
from companion.devices.camera import (CameraError, EndOfFrames, FolderSource, OpenCVSource,
                                      SyntheticSource, fourcc_text, loses_colour, open_camera)
from companion.opencv_messages import opencv_quiet

SIZE = (160, 120)


def frames(n, size=SIZE):
    """n distinct solid-colour frames, each with its index in the blue channel."""
    out = []
    for i in range(n):
        f = np.zeros((size[1], size[0], 3), np.uint8)
        f[:, :, 0] = 40 * (i + 1)
        f[:, :, 2] = 200
        out.append(f)
    return out


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "replay"
    d.mkdir()
    for i, f in enumerate(frames(3)):
        cv2.imwrite(str(d / f"frame{i:03d}.png"), f)
    (d / "notes.txt").write_text("not an image")
    return d


def test_folder_replays_images_in_name_order_then_ends(folder):
    src = FolderSource(str(folder), SIZE)
    with src:
        got = [src.read() for _ in range(3)]
        assert [int(f[0, 0, 0]) for f, _t in got] == [40, 80, 120]
        assert got[0][0].shape == (120, 160, 3) and got[0][0].dtype == np.uint8
        assert got[0][1] <= got[1][1] <= got[2][1]           # timestamps move forward
        with pytest.raises(EndOfFrames):
            src.read()
    assert not src.is_open


def test_folder_loops_when_asked(folder):
    with FolderSource(str(folder), SIZE, loop=True) as src:
        values = [int(src.read()[0][0, 0, 0]) for _ in range(5)]
    assert values == [40, 80, 120, 40, 80]


def test_frames_of_another_size_are_resized(folder):
    with FolderSource(str(folder), (64, 48)) as src:
        frame, _t = src.read()
    assert frame.shape == (48, 64, 3)


def test_a_folder_that_disappears_is_a_clear_error_and_can_be_reopened(folder, tmp_path):
    src = FolderSource(str(folder), SIZE).open()
    src.read()
    moved = tmp_path / "elsewhere"
    shutil.move(str(folder), str(moved))
    with pytest.raises(CameraError, match="disappeared"):
        src.read()
    assert not src.is_open
    with pytest.raises(CameraError, match="does not exist"):
        src.open()
    shutil.move(str(moved), str(folder))      # the camera is back: same object, same process
    src.open()
    assert int(src.read()[0][0, 0, 0]) == 40
    src.close()


def test_an_unreadable_image_is_named(folder):
    (folder / "frame001.png").write_bytes(b"not a png")
    with FolderSource(str(folder), SIZE) as src:
        src.read()
        with pytest.raises(CameraError, match="frame001.png is not a readable image"):
            src.read()


def test_empty_or_missing_folder(tmp_path):
    with pytest.raises(CameraError, match="holds no images"):
        FolderSource(str(tmp_path), SIZE).open()
    with pytest.raises(CameraError, match="does not exist"):
        FolderSource(str(tmp_path / "nope"), SIZE).open()


def test_opencv_reads_a_video_file(tmp_path):
    path = str(tmp_path / "roll.avi")
    writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), 10, SIZE)
    assert writer.isOpened()
    for f in frames(4):
        writer.write(f)
    writer.release()
    src = OpenCVSource(path, SIZE)
    with src:
        blues = [int(src.read()[0][:, :, 0].mean()) for _ in range(4)]
        with pytest.raises(EndOfFrames):
            src.read()
    assert [abs(b - e) < 10 for b, e in zip(blues, (40, 80, 120, 160))] == [True] * 4
    with OpenCVSource(path, SIZE, loop=True) as looping:
        for _ in range(6):
            looping.read()


def video(path, fourcc: str | None, n: int = 3) -> str:
    """A video file of ``n`` of ``frames``, its frames coded as ``fourcc`` (None: raw)."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc) if fourcc else 0, 10, SIZE)
    assert writer.isOpened()
    for f in frames(n):
        writer.write(f)
    writer.release()
    return str(path)


def test_opencv_says_what_a_source_delivers(tmp_path, caplog):
    # OpenCV reports a webcam's V4L2 pixel format as it reports a file's codec (its FOURCC
    # property): a webcam sending MJPEG, whose colour loss costs small coloured pips, is
    # named so by `companion devices check`, as a file coded so is here.
    coded = video(tmp_path / "coded.avi", "MJPG")
    with OpenCVSource(coded, (640, 480)) as src:
        assert src.describe() == f"video file {coded} (MJPG 160x120)"
    raw = video(tmp_path / "raw.avi", None)
    with OpenCVSource(raw, SIZE) as src:
        assert src.describe() == f"video file {raw} (160x120)"
    # (a recording replayed is the user's choice: the log warns of a webcam's JPEGs only)
    assert not [r for r in caplog.records if r.levelname == "WARNING"]
    assert [fourcc_text(cv2.VideoWriter_fourcc(*c)) for c in ("YUYV", "MJPG", "Y16 ")] == ["YUYV", "MJPG", "Y16"]
    # (none said, a backend that cannot tell, or not letters: nothing is named)
    assert [fourcc_text(c) for c in (0, -1, 0x01020304, 2.0 ** 40)] == [None] * 4
    # The log warns of a webcam's compressed frames where they are small: larger ones, shrunk
    # to the reader's working size, get most of their colour back.
    assert [loses_colour(*sent) for sent in (("MJPG", (640, 480)), ("MJPG", None), ("H264", (960, 720)),
                                               ("YUYV", (640, 480)), ("MJPG", (1280, 960)), (None, None))] \
        == [True, True, True, False, False, False]


def test_opencv_missing_file_and_missing_webcam(tmp_path, capfd):
    with pytest.raises(CameraError, match="does not exist"):
        OpenCVSource(str(tmp_path / "none.avi")).open()
    bad = tmp_path / "bad.avi"
    bad.write_bytes(b"garbage" * 100)
    with pytest.raises(CameraError, match="cannot decode"):
        OpenCVSource(str(bad)).open()
    with pytest.raises(CameraError, match="no webcam at index 63"):
        OpenCVSource(63).open()
    # OpenCV's own warnings ("can't open camera by index") do not come before the error.
    assert capfd.readouterr().err == ""


def test_opencv_logs_as_before_once_every_quiet_call_is_over():
    # Two threads quietening OpenCV at once (the camera's and a command's): the first out
    # must not give the other's call its messages back, nor the last leave OpenCV silent.
    logging = cv2.utils.logging
    before = logging.setLogLevel(logging.LOG_LEVEL_WARNING)
    try:
        with opencv_quiet():
            with opencv_quiet():
                assert logging.getLogLevel() == logging.LOG_LEVEL_SILENT
            assert logging.getLogLevel() == logging.LOG_LEVEL_SILENT
        assert logging.getLogLevel() == logging.LOG_LEVEL_WARNING
    finally:
        logging.setLogLevel(before)


def test_read_before_open_says_so():
    with pytest.raises(CameraError, match="not open"):
        SyntheticSource(SIZE).read()


def test_synthetic_tray_tumbles_then_settles_on_the_dice_it_was_told():
    cam = SyntheticSource(SIZE, roll_frames=3).open()
    empty, _ = cam.read()
    cam.show([3, 5, 6])
    rolling = [cam.read()[0] for _ in range(3)]
    settled = [cam.read()[0] for _ in range(3)]
    assert all(f.shape == (120, 160, 3) and f.dtype == np.uint8 for f in rolling + settled)
    assert np.array_equal(settled[0], settled[1]) and np.array_equal(settled[1], settled[2])
    assert not np.array_equal(rolling[0], settled[0])
    assert not np.array_equal(empty, settled[0])
    assert cam.dice == (3, 5, 6)
    with pytest.raises(ValueError):
        cam.show([7])


def test_synthetic_camera_unplugged_and_back():
    cam = SyntheticSource(SIZE).open()
    cam.unplug()
    with pytest.raises(CameraError, match="disappeared"):
        cam.read()
    with pytest.raises(CameraError):
        cam.open()
    cam.plug()
    cam.open().read()


def test_open_camera_follows_the_config(folder, tmp_path):
    cfg = load_config(None)
    assert isinstance(open_camera(cfg, backend="synthetic"), SyntheticSource)
    replay = cfg.replace({"camera": {"backend": "folder", "source": str(folder)}})
    assert isinstance(open_camera(replay), FolderSource)
    with pytest.raises(CameraError, match="camera.source"):
        open_camera(cfg.replace({"camera": {"backend": "folder"}}))


class FakePicamera2:
    """picamera2's ``Picamera2`` as far as the companion uses it (its documented calls): one
    camera whose controls are ``CONTROLS`` (as ``camera_controls`` lists them), the controls
    set on it, and grey frames of the configured size."""

    CONTROLS: dict = {}
    REFUSE = False      # set_controls raises, as for a control the camera rejects
    made: list = []

    def __init__(self, camera_num=0):
        self.camera_controls = dict(self.CONTROLS)
        self.controls, self.size = {}, None
        FakePicamera2.made.append(self)

    @staticmethod
    def global_camera_info():
        return [{"Model": "imx708", "Num": 0}]

    def create_video_configuration(self, main, queue=True):
        return {"main": main, "queue": queue}

    def configure(self, config):
        self.size = config["main"]["size"]

    def start(self):
        pass

    def set_controls(self, controls):
        if self.REFUSE:
            raise RuntimeError("control AfMode not supported")
        self.controls.update(controls)

    def capture_array(self, name="main", wait=None):
        class Job:
            def get_result(job, timeout=None):
                return np.full((self.size[1], self.size[0], 3), 128, np.uint8)
        return Job()

    def stop(self):
        pass

    def close(self):
        pass


@pytest.fixture
def picamera2(monkeypatch):
    """The fake in place of picamera2, and libcamera's ``controls.AfModeEnum`` (its values:
    Manual 0, Auto 1, Continuous 2)."""
    import types
    FakePicamera2.made, FakePicamera2.CONTROLS, FakePicamera2.REFUSE = [], {}, False
    libcamera = types.ModuleType("libcamera")
    libcamera.controls = types.SimpleNamespace(AfModeEnum=types.SimpleNamespace(Manual=0, Auto=1, Continuous=2))
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    monkeypatch.setitem(sys.modules, "libcamera", libcamera)
    return FakePicamera2


@pytest.mark.parametrize("module, focuses", [("Camera Module 3", True), ("Camera Module 2", False)])
def test_a_pi_camera_that_can_focus_itself_is_set_to_focus_continuously(picamera2, module, focuses):
    # The Camera Module 3 starts in manual focus, its lens not on the tray: dice 30 cm
    # below may come out soft. A camera of fixed focus has no AfMode and is left alone.
    from companion.devices.picamera import Picamera2Source
    if focuses:
        picamera2.CONTROLS = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0), "ExposureTime": (1, 10**6, None)}
    else:
        picamera2.CONTROLS = {"ExposureTime": (1, 10**6, None)}
    with Picamera2Source(size=(320, 240)) as cam:
        frame, _ = cam.read()
    assert frame.shape == (240, 320, 3)
    (made,) = picamera2.made
    assert made.controls == ({"AfMode": 2} if focuses else {})


def test_a_pi_camera_refusing_autofocus_still_gives_frames_and_says_so(picamera2, caplog):
    from companion.devices.picamera import Picamera2Source
    picamera2.CONTROLS, picamera2.REFUSE = {"AfMode": (0, 2, 0)}, True
    with caplog.at_level("WARNING"), Picamera2Source() as cam:
        frame, _ = cam.read()
    assert frame.shape == (480, 640, 3)
    assert "does not focus itself" in caplog.text and "by hand" in caplog.text


def test_picamera2_missing_is_a_clear_error():
    pytest.importorskip("cv2")
    if importlib.util.find_spec("picamera2") is not None:
        pytest.skip("picamera2 is installed here")
    from companion.devices.picamera import Picamera2Source
    with pytest.raises(CameraError, match="picamera2 is not installed"):
        Picamera2Source().open()
