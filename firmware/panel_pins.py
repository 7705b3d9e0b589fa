# The panel's wiring (Raspberry Pi Pico GP numbers). hardware/README.md has the same table.

NAME = "tc-panel 1.0"

# Buttons: GP pin to GND, internal pull-up. Names are the host's button names.
BUTTONS = (("ok", 10), ("back", 11), ("up", 12), ("down", 13), ("undo", 14))

# LEDs: GP pin -> 330 ohm -> LED -> GND. Names are the host's LED roles.
LEDS = (("waiting", 16), ("accepted", 17), ("attention", 18), ("broken", 19), ("death", 20))

STATUS_LED = "LED"      # the Pico's own LED: blinks while no host is connected

# LCD: HD44780 with a PCF8574 backpack on I2C0.
I2C_ID = 0
I2C_SDA = 4
I2C_SCL = 5
I2C_FREQ = 100000
LCD_ADDRESS = 0x27
LCD_COLS = 20
LCD_ROWS = 4

BOUNCE_MS = 30
HOLD_MS = 800
WDT_MS = 8000           # the RP2040's watchdog allows at most 8388 ms
