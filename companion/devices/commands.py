"""``companion devices check [--mock] [--config FILE]``: is every configured device there?

Each device is opened on its own, so one missing device does not hide the others; the
exit status is 0 only when every configured device answers. ``--mock`` checks the same
configuration with every device on its mock backend (no hardware needed).
"""

from __future__ import annotations

import os
import sys
from typing import Callable

# Heavy modules (gpiozero, cv2, serial) are imported inside the checks: `companion --help`
# must stay fast on a Pi.


def register(sub) -> None:
    """Add ``devices`` to the ``companion`` parser."""
    devices = sub.add_parser("devices", help="check the buttons, LEDs, LCD, camera and panel")
    dsub = devices.add_subparsers(dest="devices_command", metavar="ACTION")
    check = dsub.add_parser("check", help="list every configured device and whether it answers")
    check.add_argument("--mock", action="store_true",
                       help="put every device on its mock backend (no hardware)")
    check.add_argument("--config", metavar="FILE", help="configuration file (TOML)")
    check.add_argument("--panel-wait", type=float, default=3.0, metavar="SECONDS",
                       help="how long to wait for the USB panel to answer (default 3)")
    check.set_defaults(func=run_check)
    devices.set_defaults(func=lambda args: (devices.print_help(), 2)[1])


class Check:
    """One line of the report."""

    def __init__(self, device: str, backend: str):
        self.device, self.backend = device, backend
        self.ok: bool | None = None
        self.detail = ""

    def line(self) -> str:
        mark = {True: "OK  ", False: "FAIL", None: "--  "}[self.ok]
        return f"{mark}  {self.device:<8} {self.backend:<10} {self.detail}"


def _attempt(check: Check, fn: Callable[[], str]) -> Check:
    try:
        check.detail = fn()
        check.ok = True
    except Exception as e:   # any failure of a device is the answer we are looking for
        check.ok = False
        check.detail = f"{type(e).__name__}: {e}"
    return check


def check_devices(cfg, panel_wait: float = 3.0) -> list[Check]:
    """Open each configured device, see it answer, close it. Returns one Check per device."""
    from companion.devices import build
    from companion.devices.events import EventQueue
    from companion.devices.pi_header import describe

    events = EventQueue()
    results: list[Check] = []
    factory_holder: dict = {}

    def factory():
        from companion.devices.gpio import make_pin_factory
        if "f" not in factory_holder:
            factory_holder["f"] = make_pin_factory(cfg["gpio"]["pin_factory"])
        return factory_holder["f"]

    panel = None
    if build.uses_panel(cfg):
        def check_panel():
            nonlocal panel
            panel = build.make_panel(cfg, events)
            if not panel.wait_connected(panel_wait):
                why = panel.last_error or "no answer"
                raise RuntimeError(f"the panel did not answer within {panel_wait:.0f} s ({why})")
            i = panel.info
            return (f"{i['name']} protocol {i['version']}, {i['cols']}x{i['rows']} LCD, "
                    f"buttons {','.join(i['buttons'])}, LEDs {','.join(i['leds'])}")
        results.append(_attempt(Check("panel", cfg["panel"]["port"]), check_panel))
        if not results[-1].ok:
            if panel is not None:
                panel.close()
            panel = None

    bc = cfg["buttons"]
    if bc["backend"] == "gpio":
        def check_buttons():
            pins = build.button_pins(cfg)
            buttons = build.make_buttons(cfg, events, factory())
            buttons.close()
            return "claimed " + ", ".join(f"{n} {describe(p)}" for n, p in pins.items())
        results.append(_attempt(Check("buttons", f"gpio/{cfg['gpio']['pin_factory']}"),
                                check_buttons))
    elif bc["backend"] == "keyboard":
        def check_keyboard():
            if not os.isatty(sys.stdin.fileno()):
                raise RuntimeError("standard input is not a terminal: no keys can be read")
            return "keys from this terminal"
        results.append(_attempt(Check("buttons", "keyboard"), check_keyboard))
    elif bc["backend"] == "panel":
        results.append(_needs_panel(Check("buttons", "panel"), panel,
                                    lambda: "the panel's " + ", ".join(panel.info["buttons"])))

    lc = cfg["leds"]
    if lc["backend"] == "gpio":
        def check_leds():
            leds = build.make_leds(cfg, factory())
            leds.close()
            return "claimed " + ", ".join(f"{r} {describe(p)}" for r, p in lc["pins"].items())
        results.append(_attempt(Check("leds", f"gpio/{cfg['gpio']['pin_factory']}"), check_leds))
    elif lc["backend"] == "panel":
        results.append(_needs_panel(Check("leds", "panel"), panel,
                                    lambda: "the panel's " + ", ".join(panel.info["leds"])))
    elif lc["backend"] == "memory":
        results.append(_attempt(Check("leds", "memory"), lambda: "in memory (shows nothing)"))

    lcd = cfg["lcd"]
    if lcd["backend"] != "none" and not (lcd["backend"] == "panel" and panel is None):
        def check_lcd():
            display = build.make_display(cfg, panel)
            try:
                display.show(["companion", "devices check", "", "all is well"])
                if not display.ok:
                    raise RuntimeError(display.last_error)
            finally:
                display.close()
            where = (f"0x{lcd['address']:02X} on /dev/i2c-{lcd['port']}"
                     if lcd["backend"] == "i2c" else lcd["backend"])
            return f"{lcd['cols']}x{lcd['rows']} at {where}"
        results.append(_attempt(Check("lcd", lcd["backend"]), check_lcd))
    elif lcd["backend"] == "panel":
        results.append(_needs_panel(Check("lcd", "panel"), None, lambda: ""))

    def check_camera():
        from companion.devices.camera import open_camera
        cam = open_camera(cfg)
        with cam:
            frame, _t = cam.read()
        h, w = frame.shape[:2]
        return f"{cam.describe()}: a {w}x{h} frame"
    results.append(_attempt(Check("camera", cfg["camera"]["backend"]), check_camera))

    if panel is not None:
        panel.close()
    if "f" in factory_holder and factory_holder["f"] is not None:
        factory_holder["f"].close()
    return results


def _needs_panel(check: Check, panel, describe: Callable[[], str]) -> Check:
    if panel is None:
        check.ok = False
        check.detail = "the USB panel is not connected"
        return check
    return _attempt(check, describe)


def run_check(args) -> int:
    from companion.config import ConfigError, find_config_path, load_config
    try:
        cfg = load_config(find_config_path(args.config))
    except ConfigError as e:
        print(f"companion: bad configuration: {e}", file=sys.stderr)
        return 2
    if args.mock:
        from companion.devices.build import mock_config
        cfg = mock_config(cfg)
    source = cfg.path or "defaults"
    print(f"devices of {source}{' (all mocked)' if args.mock else ''}:")
    results = check_devices(cfg, panel_wait=args.panel_wait)
    for r in results:
        print(r.line())
    failed = [r for r in results if r.ok is False]
    print(f"{len(results) - len(failed)} of {len(results)} devices answer")
    return 1 if failed else 0
