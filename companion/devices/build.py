"""Build the devices a configuration describes: the one place that reads the backend names.

    from companion.devices.build import open_devices
    devices = open_devices(cfg)          # or open_devices(mock_config(cfg)) for no hardware
    ev = devices.events.get(timeout=0.05)
    devices.display.show([...]); devices.leds.set("waiting", "blink")
    frame, t = devices.camera.open().read()
    devices.close()

``devices.leds`` and ``devices.display`` are always there (a "none" backend gives an
in-memory one that shows nothing), so the daemon never checks for None. The camera is
built but not opened: opening it is the daemon's business (and where CameraError surfaces).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.config import LED_ROLES, Config
from companion.devices.camera import FrameSource, open_camera
from companion.devices.display import Display, MemoryDisplay
from companion.devices.events import EventQueue
from companion.devices.leds import Leds, MemoryLeds


def mock_config(cfg: Config) -> Config:
    """``cfg`` with every device on its mock backend: gpiozero's MockFactory for buttons and
    LEDs, an in-memory LCD, the synthetic camera. Nothing touches hardware."""
    return cfg.replace({
        "gpio": {"pin_factory": "mock"},
        "buttons": {"backend": "gpio"},
        "leds": {"backend": "gpio"},
        "lcd": {"backend": "memory"},
        "camera": {"backend": "synthetic"},
    })


def uses_panel(cfg: Config) -> bool:
    return "panel" in (cfg["buttons"]["backend"], cfg["leds"]["backend"], cfg["lcd"]["backend"])


def undo_on_hold_back(cfg: Config) -> bool:
    return cfg["buttons"]["undo"] == "hold-back"


def make_panel(cfg: Config, events: EventQueue):
    from companion.devices.panel import PanelLink
    pc = cfg["panel"]
    return PanelLink(pc["port"], events=events, baudrate=pc["baudrate"],
                     heartbeat_ms=pc["heartbeat_ms"], timeout_ms=pc["timeout_ms"],
                     undo_on_hold_back=undo_on_hold_back(cfg)).start()


def button_pins(cfg: Config) -> dict[str, int]:
    pins = dict(cfg["buttons"]["pins"])
    if cfg["buttons"]["undo"] != "button":
        pins.pop("undo", None)
    return pins


def make_buttons(cfg: Config, events: EventQueue, pin_factory=None, panel=None):
    """The button source; None for "panel" (the PanelLink reports them) and "none"."""
    bc = cfg["buttons"]
    if bc["backend"] == "gpio":
        from companion.devices.gpio import GpioButtons
        return GpioButtons(button_pins(cfg), events, bounce_ms=bc["bounce_ms"],
                           hold_ms=bc["hold_ms"], undo_on_hold_back=undo_on_hold_back(cfg),
                           pin_factory=pin_factory)
    if bc["backend"] == "keyboard":
        from companion.devices.keyboard import KeyboardButtons
        return KeyboardButtons(events)
    return None


def make_leds(cfg: Config, pin_factory=None, panel=None) -> Leds:
    lc = cfg["leds"]
    if lc["backend"] == "gpio":
        from companion.devices.gpio import GpioLeds
        return GpioLeds(lc["pins"], blink_ms=lc["blink_ms"], pin_factory=pin_factory)
    if lc["backend"] == "panel":
        from companion.devices.panel import PanelLeds
        return PanelLeds(panel, blink_ms=lc["blink_ms"])
    return MemoryLeds(LED_ROLES)


def make_display(cfg: Config, panel=None, leds: Leds | None = None) -> Display:
    lc = cfg["lcd"]
    size = dict(cols=lc["cols"], rows=lc["rows"], full_redraw_seconds=lc["full_redraw_seconds"])
    if lc["backend"] == "i2c":
        from companion.devices.lcd_i2c import I2CDisplay
        return I2CDisplay(port=lc["port"], address=lc["address"], expander=lc["expander"],
                          charmap=lc["charmap"], **size)
    if lc["backend"] == "terminal":
        from companion.devices.display import TerminalDisplay
        return TerminalDisplay(leds=leds, **size)
    if lc["backend"] == "panel":
        from companion.devices.panel import PanelDisplay
        return PanelDisplay(panel, **size)
    return MemoryDisplay(**size)


@dataclass
class Devices:
    events: EventQueue
    leds: Leds
    display: Display
    camera: FrameSource
    buttons: object = None
    panel: object = None
    pin_factory: object = None

    def close(self) -> None:
        for part in (self.camera, self.display, self.leds, self.buttons, self.panel,
                     self.pin_factory):
            if part is not None:
                part.close()


def open_devices(cfg: Config) -> Devices:
    """Every device of ``cfg``. Raises the device's own error (GpioError, DisplayError...) if
    one cannot be opened, after closing what was already open."""
    from companion.devices.gpio import make_pin_factory
    events = EventQueue()
    opened = []
    try:
        needs_gpio = "gpio" in (cfg["buttons"]["backend"], cfg["leds"]["backend"])
        factory = make_pin_factory(cfg["gpio"]["pin_factory"]) if needs_gpio else None
        opened.append(factory)
        panel = make_panel(cfg, events) if uses_panel(cfg) else None
        opened.append(panel)
        buttons = make_buttons(cfg, events, factory, panel)
        opened.append(buttons)
        leds = make_leds(cfg, factory, panel)
        opened.append(leds)
        display = make_display(cfg, panel, leds)
        return Devices(events, leds, display, open_camera(cfg), buttons, panel, factory)
    except BaseException:
        for part in reversed(opened):
            if part is not None:
                part.close()
        raise
