"""The companion's configuration: defaults, a user's overrides, and their validation.

``companion/default_config.toml`` holds every key with its default value and a comment; it is
also the machine-readable pin map (``[buttons.pins]``, ``[leds.pins]``, ``[lcd]``...). A user's
TOML file only holds the keys it changes and is laid over the defaults.

    >>> from companion.config import load_config
    >>> cfg = load_config(None)                 # the defaults
    >>> cfg = load_config("~/my-table.toml")    # defaults + the user's file
    >>> cfg["lcd"]["address"], cfg["buttons"]["pins"]["ok"], cfg.path
    (39, 17, None)

A ``Config`` is read like nested dicts: ``cfg[section][key]``; nested tables are dicts too.
Treat it as read-only; ``cfg.replace({"lcd": {"backend": "memory"}})`` returns a validated copy
with some values changed (that is how ``--mock`` swaps every backend for its mock).

A bad file (unknown key, wrong type, a GPIO used twice, an I2C address out of range, broken
TOML) raises ``ConfigError`` whose message names the key and says what is allowed. Nothing
is half-loaded: either the whole file is valid or nothing is returned.
"""

from __future__ import annotations

import copy
import os
import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any, Iterator

DEFAULT_CONFIG_NAME = "default_config.toml"
# Where `companion` looks for a user file when none is given (and none is set in the env).
USER_CONFIG_PATH = "~/.config/companion/config.toml"
ENV_VAR = "COMPANION_CONFIG"

# BCM GPIO numbers usable on the 40-pin header.
GPIO_RANGE = range(0, 28)
# GPIO2/3 are the I2C-1 bus the LCD sits on; a button or LED there would break the LCD.
I2C1_PINS = {2: "SDA (I2C-1)", 3: "SCL (I2C-1)"}

BUTTON_NAMES = ("ok", "back", "up", "down", "undo")
LED_ROLES = ("waiting", "accepted", "attention", "broken", "death")


class ConfigError(ValueError):
    """A configuration file is unreadable or has a bad value; the message says which and why."""


# --- the schema: one checker per key ------------------------------------------------------

def _int(lo: int | None = None, hi: int | None = None, hexa: bool = False):
    def check(key: str, v: Any) -> None:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ConfigError(f"{key} must be an integer, not {_show(v)}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            show = (lambda n: f"0x{n:02X}") if hexa else str
            raise ConfigError(f"{key} = {show(v)} is out of range: allowed {show(lo)} to {show(hi)}")
    return check


def _float(lo: float = 0.0):
    def check(key: str, v: Any) -> None:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ConfigError(f"{key} must be a number, not {_show(v)}")
        if v < lo:
            raise ConfigError(f"{key} = {v} is out of range: allowed {lo} or more")
    return check


def _bool(key: str, v: Any) -> None:
    if not isinstance(v, bool):
        raise ConfigError(f"{key} must be true or false, not {_show(v)}")


def _str(key: str, v: Any) -> None:
    if not isinstance(v, str):
        raise ConfigError(f"{key} must be a string, not {_show(v)}")


def _choice(*allowed: str):
    def check(key: str, v: Any) -> None:
        if v not in allowed:
            raise ConfigError(f"{key} = {_show(v)} is not allowed: use one of "
                              + ", ".join(f'"{a}"' for a in allowed))
    return check


def _str_list(key: str, v: Any) -> None:
    if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
        raise ConfigError(f"{key} must be a list of strings, like [\"Ana\", \"Ben\"], not {_show(v)}")


_gpio = _int(GPIO_RANGE.start, GPIO_RANGE.stop - 1)

SCHEMA: dict[str, dict[str, Any]] = {
    "gpio": {"pin_factory": _choice("auto", "lgpio", "rpigpio", "pigpio", "native", "mock")},
    "buttons": {
        "backend": _choice("gpio", "keyboard", "panel", "none"),
        "bounce_ms": _int(0, 500), "hold_ms": _int(50, 10000),
        "undo": _choice("hold-back", "button"),
        "pins": {name: _gpio for name in BUTTON_NAMES},
    },
    "leds": {
        "backend": _choice("gpio", "panel", "memory", "none"),
        "blink_ms": _int(20, 10000),
        "pins": {role: _gpio for role in LED_ROLES},
    },
    "lcd": {
        "backend": _choice("i2c", "terminal", "memory", "panel", "none"),
        "port": _int(0, 255), "address": _int(0x03, 0x77, hexa=True),
        "expander": _choice("PCF8574", "MCP23008"), "charmap": _choice("A00", "A02"),
        "cols": _int(8, 40), "rows": _int(1, 4), "full_redraw_seconds": _float(),
    },
    "camera": {
        "backend": _choice("picamera2", "opencv", "folder", "synthetic"),
        "index": _int(0, 63), "source": _str,
        "width": _int(16, 4096), "height": _int(16, 4096), "loop": _bool,
    },
    "panel": {
        "port": _str, "baudrate": _int(1200, 4_000_000),
        "heartbeat_ms": _int(50, 60000), "timeout_ms": _int(100, 600000),
    },
    "vision": {"calibration": _str},
    "daemon": {"state_dir": _str, "auto_accept_seconds": _float()},
    "players": {"names": _str_list},
}


def _show(v: Any) -> str:
    if isinstance(v, dict):
        return "a table"
    return f"{v!r} ({type(v).__name__})"


def _check_keys(prefix: str, schema: dict, values: Mapping) -> None:
    """Type-check ``values`` (a partial or full table) against ``schema``; raise on the first bad key."""
    for key, v in values.items():
        name = f"{prefix}.{key}" if prefix else key
        if key not in schema:
            allowed = ", ".join(sorted(schema))
            where = f"[{prefix}]" if prefix else "the top level"
            raise ConfigError(f"unknown key {name!r} in {where}: allowed keys are {allowed}")
        rule = schema[key]
        if isinstance(rule, dict):
            if not isinstance(v, dict):
                raise ConfigError(f"{name} must be a table ([{name}]), not {_show(v)}")
            _check_keys(name, rule, v)
        else:
            rule(name, v)


def _check_whole(data: Mapping) -> None:
    """Checks that need more than one key: pins used twice, pins that clash with the LCD bus."""
    lcd = data["lcd"]
    if lcd["rows"] * lcd["cols"] > 80:
        raise ConfigError(f"lcd.cols x lcd.rows = {lcd['cols']}x{lcd['rows']} is more than the "
                          "80 characters an HD44780 holds: use 20x4 or 16x2")
    used: dict[int, str] = {}
    if lcd["backend"] == "i2c" and lcd["port"] == 1:
        used.update({pin: f"lcd ({what})" for pin, what in I2C1_PINS.items()})
    groups = []
    if data["buttons"]["backend"] == "gpio":
        pins = dict(data["buttons"]["pins"])
        if data["buttons"]["undo"] != "button":
            pins.pop("undo", None)   # not wired, so it may share a number with something else
        groups.append(("buttons.pins", pins))
    if data["leds"]["backend"] == "gpio":
        groups.append(("leds.pins", data["leds"]["pins"]))
    for prefix, pins in groups:
        for name, pin in pins.items():
            key = f"{prefix}.{name}"
            if pin in used:
                raise ConfigError(f"{key} = {pin}: GPIO{pin} is already used by {used[pin]}; "
                                  "each GPIO can only be wired to one device")
            used[pin] = key


def _merge(base: dict, over: Mapping) -> dict:
    out = copy.deepcopy(base)
    for key, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], v)
        else:
            out[key] = copy.deepcopy(v)
    return out


class Config(Mapping):
    """Validated configuration: ``cfg["section"]["key"]``. ``path`` is the user file, or None."""

    def __init__(self, data: dict, path: str | None = None):
        self._data = data
        self.path = path

    def __getitem__(self, section: str) -> dict:
        return self._data[section]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Config(path={self.path!r})"

    def as_dict(self) -> dict:
        """A deep copy of every value, safe to change."""
        return copy.deepcopy(self._data)

    def replace(self, changes: Mapping) -> "Config":
        """A new, validated Config with ``changes`` (a partial nested dict) laid over this one."""
        return _build(_merge(self._data, changes), changes, self.path)

    def expand_path(self, section: str, key: str) -> str:
        """A path-valued setting with ``~`` and environment variables expanded."""
        return os.path.expanduser(os.path.expandvars(self._data[section][key]))


def _build(merged: dict, overlay: Mapping, path: str | None) -> Config:
    _check_keys("", SCHEMA, overlay)
    _check_keys("", SCHEMA, merged)
    _check_whole(merged)
    return Config(merged, path)


def default_values() -> dict:
    """The defaults from ``default_config.toml``, as plain nested dicts."""
    text = resources.files("companion").joinpath(DEFAULT_CONFIG_NAME).read_text("utf-8")
    return tomllib.loads(text)


def load_config(path: str | None = None) -> Config:
    """The defaults with the TOML file at ``path`` (if given) laid over them, validated.

    Raises ``ConfigError`` (never a bare OSError or TOMLDecodeError) when the file is missing,
    unreadable, not TOML, or has a bad key or value.
    """
    overlay: dict = {}
    if path is not None:
        full = os.path.expanduser(path)
        try:
            with open(full, "rb") as f:
                overlay = tomllib.load(f)
        except FileNotFoundError:
            raise ConfigError(f"config file {path} does not exist") from None
        except OSError as e:
            raise ConfigError(f"config file {path} cannot be read: {e.strerror}") from None
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"config file {path} is not valid TOML: {e}") from None
    try:
        return _build(_merge(default_values(), overlay), overlay, path)
    except ConfigError as e:
        if path is None:
            raise
        raise ConfigError(f"{path}: {e}") from None


def find_config_path(explicit: str | None = None) -> str | None:
    """The file ``companion`` should load: ``explicit``, else $COMPANION_CONFIG, else the
    user file if it exists, else None (defaults only)."""
    if explicit:
        return explicit
    if os.environ.get(ENV_VAR):
        return os.environ[ENV_VAR]
    user = os.path.expanduser(USER_CONFIG_PATH)
    return user if os.path.exists(user) else None
