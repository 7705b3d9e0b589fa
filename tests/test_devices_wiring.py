"""hardware/README.md is what a person wires from: its tables must agree with the default
configuration (the pin map) and with the panel firmware's pins."""

import re
from pathlib import Path

from companion.config import I2C1_PINS, load_config
from companion.devices.pi_header import GPIO_TO_PIN
from devices_fixtures import load_firmware

README = (Path(__file__).resolve().parent.parent / "hardware" / "README.md").read_text()

PI_ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*GPIO(\d+)\s*\|\s*([^|]+?)\s*\|\s*`([a-z_.]+)`\s*\|$", re.M)
PICO_ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*GP(\d+)\s*\|\s*([^|]+?)\s*\|$", re.M)
# Pico pin number of each GP (pins 3, 8, 13... are GND; 30 is RUN).
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
            13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29,
            26: 31, 27: 32, 28: 34}


def pi_rows():
    rows = [(int(pin), int(gpio), device, key) for pin, gpio, device, key in PI_ROW.findall(README)]
    assert len(rows) >= 12, "the Pi wiring table was not found"
    return rows


def test_every_row_agrees_with_the_default_config_and_the_header():
    cfg = load_config(None)
    for pin, gpio, device, key in pi_rows():
        assert GPIO_TO_PIN[gpio] == pin, f"GPIO{gpio} is header pin {GPIO_TO_PIN[gpio]}, not {pin}"
        section, *rest = key.split(".")
        if rest[0] == "pins":
            assert cfg[section]["pins"][rest[1]] == gpio, f"{key} is not GPIO{gpio} in the config"
        else:
            assert key == "lcd.port" and cfg["lcd"]["port"] == 1 and gpio in I2C1_PINS


def test_every_configured_pin_is_in_the_table_and_no_gpio_twice():
    cfg = load_config(None)
    keys = {key: gpio for _pin, gpio, _dev, key in pi_rows()}
    for section in ("buttons", "leds"):
        for name, gpio in cfg[section]["pins"].items():
            assert keys.get(f"{section}.pins.{name}") == gpio, f"{section}.pins.{name} not in README"
    gpios = [gpio for _p, gpio, _d, _k in pi_rows()]
    assert len(gpios) == len(set(gpios))


def test_the_pico_table_agrees_with_the_firmware_pins():
    pins = load_firmware().panel_pins
    rows = [(int(pin), int(gp), device) for pin, gp, device in PICO_ROW.findall(README)]
    by_gp = {gp: (pin, device) for pin, gp, device in rows}
    for name, gp in pins.BUTTONS:
        assert name.lower() in by_gp[gp][0:2][1].lower(), (name, gp)
    for name, gp in pins.LEDS:
        assert name in by_gp[gp][1], (name, gp)
    assert "SDA" in by_gp[pins.I2C_SDA][1] and "SCL" in by_gp[pins.I2C_SCL][1]
    for pin, gp, _device in rows:
        assert PICO_PIN[gp] == pin, f"GP{gp} is Pico pin {PICO_PIN[gp]}, not {pin}"
    assert len(by_gp) == len(rows)
