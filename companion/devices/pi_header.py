"""The Raspberry Pi 40-pin header: which physical pin carries which BCM GPIO (all models
since the B+: Pi 2, 3, 4, 5, Zero 2 W)."""

GPIO_TO_PIN = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19,
    9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35,
    16: 36, 26: 37, 20: 38, 21: 40,
}
GROUND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)
POWER_PINS = {"3V3": (1, 17), "5V": (2, 4)}


def describe(gpio: int) -> str:
    """``"GPIO17 (pin 11)"``."""
    return f"GPIO{gpio} (pin {GPIO_TO_PIN.get(gpio, '?')})"
