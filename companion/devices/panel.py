"""The host side of the USB panel (a Pico running firmware/): buttons, LEDs and LCD over serial.

    link = PanelLink(port="auto", events=events)     # events: an EventQueue for its buttons
    link.start()                                     # a thread: connects, and reconnects
    link.wait_connected(3.0)
    leds = PanelLeds(link); display = PanelDisplay(link)

``PanelLink`` owns the serial port and a thread that reads it, answers the protocol
(companion.devices.panel_protocol, the same code the firmware runs), sends heartbeats and
retransmissions. When the port fails or the panel stops answering for ``timeout_ms`` it
closes the port and keeps trying to open it again (``port="auto"`` looks for any Pico, so a
panel that comes back on another port is found too). After every handshake it calls the
``on_sync`` callbacks, through which ``PanelLeds`` and ``PanelDisplay`` send their whole
state again: a panel that rebooted or was replugged shows what it should.

Presses made while no host is connected are not queued by the panel: an "OK" pressed
during a reconnect must not accept something later.
"""

from __future__ import annotations

import errno
import random
import threading
import time
from typing import Callable

from companion.config import LED_ROLES
from companion.devices import panel_protocol as p
from companion.devices.display import GLYPHS, Display, encode_lcd
from companion.devices.events import EventQueue, UndoTranslator
from companion.devices.leds import Leds

PICO_USB_VID = 0x2E8A            # Raspberry Pi; MicroPython's own USB serial uses PID 0x0005
READ_TIMEOUT_S = 0.02
REOPEN_EVERY_S = 0.5
HELLO_EVERY_S = 0.5


class PanelError(RuntimeError):
    """The panel is absent, silent, or speaks another protocol version."""


def find_panel_port() -> str | None:
    """The device path of the first Raspberry Pi Pico on USB, or None."""
    from serial.tools import list_ports
    for port in sorted(list_ports.comports(), key=lambda p_: p_.device):
        if port.vid == PICO_USB_VID:
            return port.device
    return None


def serial_opener(port: str = "auto", baudrate: int = 115200) -> Callable[[], object]:
    """A function that opens the panel's serial port (pyserial), raising PanelError if absent."""
    def open_port():
        import serial
        path = find_panel_port() if port == "auto" else port
        if path is None:
            raise PanelError("no Raspberry Pi Pico found on USB (is the panel plugged in?)")
        try:
            return serial.serial_for_url(path, baudrate=baudrate, timeout=READ_TIMEOUT_S,
                                         write_timeout=1.0)
        except (serial.SerialException, OSError) as e:
            raise PanelError(f"cannot open the panel's port {path}: {e}") from e
    return open_port


class PanelLink:
    """The connection to the panel, kept alive by a background thread."""

    def __init__(self, port: str = "auto", *, events: EventQueue | None = None,
                 baudrate: int = 115200, heartbeat_ms: int = 1000, timeout_ms: int = 3500,
                 undo_on_hold_back: bool = True, opener: Callable[[], object] | None = None):
        self.opener = opener or serial_opener(port, baudrate)
        self.port_name = port
        self.heartbeat_s = heartbeat_ms / 1000
        self.timeout_s = timeout_ms / 1000
        self.translate = UndoTranslator(events or EventQueue(), "panel", undo_on_hold_back)
        self.info: dict | None = None        # the panel's WELCOME: buttons, leds, cols, rows, name
        self.connections = 0                 # handshakes done (1 + reconnects)
        self.last_error: str | None = None
        self.errors: list[str] = []          # ERROR messages from the panel, newest last
        self._on_sync: list[Callable[[], None]] = []
        self._lock = threading.RLock()
        self._connected = threading.Event()
        self._stop = threading.Event()
        self._ser = None
        self._link = p.Link(self._write_raw)
        self._nonce = 0
        self._thread: threading.Thread | None = None
        self._t0 = time.monotonic()

    # --- public ---------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def start(self) -> "PanelLink":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="panel", daemon=True)
            self._thread.start()
        return self

    def healthy(self) -> bool:
        """The link's thread is running (connected or still trying to connect)."""
        return self._thread is not None and self._thread.is_alive()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    def on_sync(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (in the link's thread) after every handshake, to resend state."""
        self._on_sync.append(callback)
        if self.connected:
            callback()

    def send(self, mtype: int, payload: bytes) -> bool:
        """Send a reliable message; False (and nothing sent) while not connected."""
        with self._lock:
            if not self.connected:
                return False
            self._link.send(mtype, payload, self._now())
            return True

    def pending(self) -> int:
        with self._lock:
            return self._link.pending()

    @property
    def retransmits(self) -> int:
        """Frames sent again for want of an ack, in this session."""
        return self._link.retransmits

    def flush(self, timeout: float = 1.0) -> bool:
        """Wait until the panel has acknowledged everything sent."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.pending() == 0:
                return True
            time.sleep(0.005)
        return False

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        self._drop("closed")

    # --- the thread -------------------------------------------------------------------------

    def _now(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def _write_raw(self, data: bytes) -> None:
        ser = self._ser
        if ser is None:
            return
        try:
            ser.write(data)
        except Exception as e:     # SerialException, OSError, write timeout: the port is gone
            self._broken = f"write failed: {e}"

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._turn()
            except Exception as e:   # a bug must not end the thread: start a new session
                self._drop(f"panel link error: {type(e).__name__}: {e}")
                self._stop.wait(REOPEN_EVERY_S)

    def _turn(self) -> None:
        """One turn of the thread: (re)open, read, answer, keep alive."""
        if self._ser is None:
            if not self._open():
                self._stop.wait(REOPEN_EVERY_S)
            return
        try:
            data = self._ser.read(max(1, self._ser.in_waiting))
        except Exception as e:   # pyserial raises SerialException (an OSError on POSIX)
            self._drop(f"read failed: {e}")
            return
        with self._lock:
            now = self._now()
            if data:
                self._last_rx = time.monotonic()
            messages = self._link.receive(data, now) + self._link.poll(now)
            for mtype, payload in messages:
                self._handle(mtype, payload)
            self._keepalive()
            sync, self._sync_due = self._sync_due, False
        if sync:
            # Outside the lock: the callbacks take their own locks, then call send().
            for callback in self._on_sync:
                callback()
        if self._broken:
            self._drop(self._broken)

    def _open(self) -> bool:
        try:
            ser = self.opener()
        except Exception as e:
            self.last_error = str(e)
            return False
        with self._lock:
            self._ser = ser
            self._broken = None
            self._last_rx = time.monotonic()
            self._link = p.Link(self._write_raw)
            self._hello()
        return True

    def _hello(self) -> None:
        self._nonce = random.randrange(1, 256)
        self._hello_at = time.monotonic()
        self._connected.clear()
        self._link.reset()
        self._link.send_control(p.HELLO, bytes([p.PROTOCOL_VERSION, self._nonce]))

    def _drop(self, why: str) -> None:
        with self._lock:
            self._connected.clear()
            ser, self._ser = self._ser, None
            if ser is not None:
                self.last_error = why
                try:
                    ser.close()
                except Exception:
                    pass

    def _keepalive(self) -> None:
        now = time.monotonic()
        if now - self._last_rx > self.timeout_s:
            self._broken = f"no answer from the panel for {self.timeout_s:.1f} s"
        elif not self.connected:
            if now - self._hello_at >= HELLO_EVERY_S:
                self._hello()
        elif now - self._ping_at >= self.heartbeat_s:
            self._ping_at = now
            self._link.send_control(p.PING)

    def _handle(self, mtype: int, payload: bytes) -> None:
        if mtype == p.WELCOME:
            try:
                info = p.parse_info(payload)
            except (ValueError, UnicodeError) as e:
                self.last_error = f"bad WELCOME from the panel: {e}"
                return
            if info["nonce"] != self._nonce or self.connected:
                return              # an answer to an older HELLO
            if info["version"] != p.PROTOCOL_VERSION:
                self.last_error = (f"the panel speaks protocol {info['version']}, this companion "
                                   f"{p.PROTOCOL_VERSION}: update the firmware (firmware/README.md)")
                return
            self.info = info
            self.connections += 1
            self._ping_at = time.monotonic()
            self._connected.set()
            self._sync_due = True
        elif mtype == p.ANNOUNCE:
            # The panel (re)booted, or is waiting for us: start a new session (unless a HELLO
            # just went out, whose WELCOME is on its way).
            if self.connected or time.monotonic() - self._hello_at >= 0.1:
                self._hello()
        elif mtype == p.BUTTON and self.connected and len(payload) == 2:
            names = self.info["buttons"]
            if payload[0] < len(names) and payload[1] < len(p.BUTTON_KINDS):
                self.translate(names[payload[0]], p.BUTTON_KINDS[payload[1]])
        elif mtype == p.ERROR:
            text = bytes(payload).decode("ascii", "replace")
            self.errors = (self.errors + [text])[-20:]
            if text == "lcd reset":
                self._sync_due = True

    _broken: str | None = None
    _sync_due = False
    _last_rx = 0.0
    _hello_at = 0.0
    _ping_at = 0.0


class PanelLeds(Leds):
    """The panel's LEDs, by the role names the panel announced."""

    def __init__(self, link: PanelLink, roles: tuple[str, ...] = LED_ROLES, blink_ms: int = 400):
        super().__init__(roles)
        self.link = link
        self.blink_ms = blink_ms
        # The link's thread resends every state when the panel (re)connects; without the
        # lock it could read a state just before set() records it and send the stale one last.
        self._sync_lock = threading.RLock()
        link.on_sync(self._resend)

    def set(self, role: str, state: str) -> None:
        with self._sync_lock:
            super().set(role, state)

    def _apply(self, role: str, state: str) -> None:
        self._send(role, state)

    def _send(self, role: str, state: str) -> None:
        names = self.link.info["leds"] if self.link.info else []
        if role in names:
            half = max(1, min(255, self.blink_ms // 10))
            self.link.send(p.LED, bytes([names.index(role), p.LED_STATES.index(state), half]))

    def _resend(self) -> None:
        with self._sync_lock:
            for role, state in self.states.items():
                self._send(role, state)


class PanelDisplay(Display):
    """The panel's LCD. While the panel is away, ``show`` only remembers; it is redrawn in
    full when the panel is back."""

    def __init__(self, link: PanelLink, cols: int = 20, rows: int = 4, **kw):
        self.link = link
        self._sync_lock = threading.RLock()
        super().__init__(cols, rows, **kw)
        link.on_sync(self._resync)

    def show(self, lines) -> int:
        with self._sync_lock:
            return super().show(lines)

    def _resync(self) -> None:
        with self._sync_lock:
            self._next_retry = 0.0
            self.refresh()

    def _send(self, mtype: int, payload: bytes) -> None:
        if not self.link.send(mtype, payload):
            raise OSError(errno.ENODEV, "the USB panel is not connected")

    def _init(self) -> None:
        self._send(p.LCD_CLEAR, b"")
        for slot, bitmap in GLYPHS.items():
            self._send(p.LCD_CHAR, bytes([slot, *bitmap]))

    def _write(self, row: int, col: int, text: str) -> None:
        data = encode_lcd(text)
        for i in range(0, len(data), p.MAX_PAYLOAD - 2):
            self._send(p.LCD_TEXT, bytes([row, col + i]) + data[i:i + p.MAX_PAYLOAD - 2])
