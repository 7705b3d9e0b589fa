"""Start-up time to the first menu screen, and resident memory idle and while reading dice.

Runs the real ``companion run --sim`` as a process (the terminal LCD on a pipe, the
synthetic tray, a simulated hand throwing dice) and reads its memory from /proc.
The issue's aims: under 2 s to the menu and under 150 MB here.
Usage: python benchmarks/bench_daemon.py [--runs N]
"""

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start(state: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "companion", "run", "--sim", "--state", str(state)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, "HOME": str(state)})


def wait_for(proc: subprocess.Popen, text: str, timeout: float = 60) -> float:
    started = time.perf_counter()
    seen = ""
    os.set_blocking(proc.stdout.fileno(), False)
    while time.perf_counter() - started < timeout:
        chunk = proc.stdout.read()
        if chunk:
            seen += chunk.decode(errors="replace")
            if text in seen:
                return time.perf_counter() - started
        time.sleep(0.002)
    raise TimeoutError(f"{text!r} never appeared")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    times, idle = [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            proc = start(Path(tmp))
            wait_for(proc, "Pick a game")
            times.append(time.perf_counter() - t0)
            time.sleep(1.0)
            idle.append(rss_mb(proc.pid))
            proc.terminate()
            proc.wait(10)
    print(f"start-up to the first menu screen: median {statistics.median(times):.2f} s, "
          f"worst {max(times):.2f} s over {args.runs} runs")
    print(f"resident memory at the menu (idle): median {statistics.median(idle):.1f} MB")

    # A game waiting for dice: the simulated hand throws, the reader reads, again and again.
    from companion.rules.core import Setup
    from companion.table import Table
    with tempfile.TemporaryDirectory() as tmp:
        table = Table(Path(tmp) / "journal.sqlite3")
        table.new_game("game-of-2020", Setup(("Ann", "Ben", "Cat")))  # opens with a roll
        table.close()
        proc = start(Path(tmp))
        wait_for(proc, "Read:", timeout=120)
        samples = []
        for _ in range(20):
            time.sleep(0.25)
            samples.append(rss_mb(proc.pid))
        peak = rss_mb(proc.pid, "VmHWM")
        proc.terminate()
        proc.wait(10)
    print(f"resident memory while reading dice: median {statistics.median(samples):.1f} MB, "
          f"peak {peak:.1f} MB")


if __name__ == "__main__":
    main()
