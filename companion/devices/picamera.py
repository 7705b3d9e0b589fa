"""The Raspberry Pi camera through picamera2 (imported only here, only when opened).

picamera2 comes from apt on the Pi (``sudo apt install python3-picamera2``), never from pip
on a PC. Its ``"RGB888"`` format is laid out [B, G, R] per pixel, which is OpenCV's BGR, so
frames need no conversion. ``queue=False`` in the configuration stops picamera2 from keeping
a finished frame in reserve: a capture returns a frame that began after it was asked for,
never one that was queued before (a reading must show the dice as they are now).

A camera that focuses itself (the Camera Module 3) starts in manual focus, its lens at a
default position, not on the tray: dice 30 cm below it, as ``hardware/README.md`` mounts
it, may come out soft, their pips blurred into their faces. So where the camera has an
``AfMode`` control it is set to focus continuously (picamera2's manual, "Autofocus"); a
camera of fixed focus (v2, HQ) has none and is left as it is.
"""

from __future__ import annotations

import logging

from companion.devices.camera import CameraError, FrameSource

log = logging.getLogger(__name__)

CAPTURE_TIMEOUT_S = 2.0


class Picamera2Source(FrameSource):
    def __init__(self, index: int = 0, size=(640, 480)):
        super().__init__(size)
        self.index = index
        self.name = f"Pi camera {index}"
        self._cam = None

    def _open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as e:
            raise CameraError("picamera2 is not installed: on a Pi, `sudo apt install "
                              "python3-picamera2` (and create the venv with "
                              "--system-site-packages)") from e
        try:
            cameras = Picamera2.global_camera_info()
        except Exception as e:   # libcamera itself failed to start
            raise CameraError(f"libcamera cannot list cameras: {e}") from e
        if self.index >= len(cameras):
            raise CameraError(f"no Pi camera number {self.index} ({len(cameras)} found): "
                              "check the ribbon cable; `rpicam-hello --list-cameras` lists them")
        try:
            cam = Picamera2(camera_num=self.index)
            config = cam.create_video_configuration(
                main={"size": tuple(self.size), "format": "RGB888"}, queue=False)
            cam.configure(config)
            cam.start()
        except Exception as e:
            raise CameraError(f"{self.name} cannot start: {e}") from e
        self._cam = cam
        self._focus(cam)

    def _focus(self, cam) -> None:
        """Continuous autofocus where the camera has it (the module docstring). A camera
        that refuses it still gives frames: that is logged, not raised."""
        if "AfMode" not in cam.camera_controls:
            return
        try:
            from libcamera import controls
            cam.set_controls({"AfMode": controls.AfModeEnum.Continuous})
        except Exception as e:
            log.warning("%s does not focus itself (%s): focus its lens by hand on the tray", self.name, e)

    def _read(self):
        try:
            job = self._cam.capture_array("main", wait=False)
            return job.get_result(timeout=CAPTURE_TIMEOUT_S)
        except Exception as e:
            raise CameraError(f"{self.name} gave no frame within {CAPTURE_TIMEOUT_S} s "
                              f"(disconnected?): {e}") from e

    def _close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is not None:
            try:
                cam.stop()
            finally:
                cam.close()
