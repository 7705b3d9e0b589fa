"""`companion devices check`: lists every configured device, exit status 0 only when all answer."""

import subprocess
import sys

import cv2
import numpy as np

from companion.cli import main


def test_check_mock_lists_every_device_and_succeeds(capsys):
    assert main(["devices", "check", "--mock"]) == 0
    out = capsys.readouterr().out
    for device in ("buttons", "leds", "lcd", "camera"):
        assert f"OK    {device}" in out
    assert "GPIO17 (pin 11)" in out and "4 of 4 devices answer" in out


def test_check_without_hardware_fails_and_says_why(capsys, tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[gpio]\npin_factory = "mock"\n[lcd]\nport = 250\n'
                   '[camera]\nbackend = "folder"\nsource = "%s"\n' % (tmp_path / "none"))
    assert main(["devices", "check", "--config", str(cfg)]) == 1
    out = capsys.readouterr().out
    assert "OK    buttons" in out and "OK    leds" in out
    assert "FAIL  lcd" in out and "/dev/i2c-250" in out
    assert "FAIL  camera" in out and "does not exist" in out
    assert "2 of 4 devices answer" in out


def test_check_with_the_panel_configured_but_absent(capsys, tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[buttons]\nbackend = "panel"\n[leds]\nbackend = "panel"\n'
                   '[lcd]\nbackend = "panel"\n[camera]\nbackend = "synthetic"\n'
                   '[panel]\nport = "%s"\n' % (tmp_path / "ttyACM7"))
    assert main(["devices", "check", "--config", str(cfg), "--panel-wait", "0.3"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  panel" in out and "ttyACM7" in out
    for device in ("buttons", "leds", "lcd"):
        assert f"FAIL  {device}" in out
    assert "OK    camera" in out


def test_check_names_what_the_camera_sends(capsys, tmp_path):
    # (a video file stands in for a webcam: OpenCV reports its codec as it reports a webcam's
    # pixel format, and the companion resizes its frames to the [camera] size alike)
    clip = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(clip), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    writer.write(np.full((240, 320, 3), 90, np.uint8))
    writer.release()
    cfg = tmp_path / "c.toml"
    cfg.write_text('[gpio]\npin_factory = "mock"\n[lcd]\nbackend = "none"\n'
                   '[camera]\nbackend = "opencv"\nsource = "%s"\n' % clip)
    assert main(["devices", "check", "--config", str(cfg)]) == 0
    assert f"video file {clip} (MJPG 320x240): a 640x480 frame" in capsys.readouterr().out


def test_a_bad_config_is_refused_with_its_reason(capsys, tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[lcd]\naddress = 0x99\n")
    assert main(["devices", "check", "--config", str(cfg)]) == 2
    assert "lcd.address" in capsys.readouterr().err


def test_the_command_line_entry_point():
    result = subprocess.run([sys.executable, "-m", "companion", "devices", "check", "--mock"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "4 of 4 devices answer" in result.stdout
