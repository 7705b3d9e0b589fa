"""systemd's notify protocol (READY, WATCHDOG, STATUS, STOPPING), without libsystemd.

A datagram to the socket named by ``$NOTIFY_SOCKET``; a no-op when not run by systemd.
"""

from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    """Send ``message`` (e.g. ``"READY=1"``); True if systemd was there to hear it."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as s:
            s.connect(address)
            s.sendall(message.encode())
        return True
    except OSError:
        return False


def watchdog_seconds() -> float | None:
    """The watchdog period systemd expects pings within (``WatchdogSec=``), or None."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 1e6
    except ValueError:
        return None
