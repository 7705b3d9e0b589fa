# Table Companion USB panel: MicroPython firmware for a Raspberry Pi Pico.
#
# Buttons, LEDs and an HD44780 LCD, driven by the companion over USB serial with the
# protocol of PROTOCOL.md. The panel stays small and dumb: the host does the thinking.
#
# Hold BACK while plugging the panel in to skip all this and stay at the REPL (no watchdog,
# Ctrl-C works), which is what re-deploying with mpremote needs.

import sys
import select
import time
import machine
import micropython

import panel_pins as pins
from hd44780 import Lcd
from panel_app import PanelApp
from panel_protocol import PROTOCOL_VERSION

READ_MAX = 64       # bytes read per turn of the loop, so that buttons are polled often
IDLE_WAIT_MS = 2    # how long one turn waits for a byte when none is there


def build(write):
    i2c = machine.I2C(pins.I2C_ID, sda=machine.Pin(pins.I2C_SDA), scl=machine.Pin(pins.I2C_SCL),
                      freq=pins.I2C_FREQ)
    lcd = Lcd(i2c, pins.LCD_ADDRESS, pins.LCD_COLS, pins.LCD_ROWS, time.sleep_us)
    buttons = []
    for name, gp in pins.BUTTONS:
        pin = machine.Pin(gp, machine.Pin.IN, machine.Pin.PULL_UP)
        buttons.append((name, lambda pin=pin: pin.value() == 0))
    leds = []
    for name, gp in pins.LEDS:
        pin = machine.Pin(gp, machine.Pin.OUT, value=0)
        leds.append((name, pin.value))
    status = machine.Pin(pins.STATUS_LED, machine.Pin.OUT)
    return PanelApp(write, lcd, buttons, leds, now=0, name=pins.NAME,
                    bounce_ms=pins.BOUNCE_MS, hold_ms=pins.HOLD_MS, status=status.value)


def maintenance_requested():
    for name, gp in pins.BUTTONS:
        if name == "back":
            return machine.Pin(gp, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0
    return False


def run(stdin=None, stdout=None):
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    if maintenance_requested():
        stdout.write("%s: BACK held at boot, staying at the REPL\r\n" % pins.NAME)
        return
    # From here on a 0x03 byte is data, not Ctrl-C.
    micropython.kbd_intr(-1)
    wdt = machine.WDT(timeout=pins.WDT_MS)
    # A line for a person at a serial terminal; the host skips it as garbage.
    stdout.write("%s protocol %d\r\n" % (pins.NAME, PROTOCOL_VERSION))
    out = stdout.buffer
    app = build(out.write)
    inp = stdin.buffer
    poller = select.poll()
    poller.register(stdin, select.POLLIN)
    data = bytearray()
    last = time.ticks_ms()
    now = 0
    while True:
        wdt.feed()
        # One byte at a time: USB serial reads through sys.stdin must not block.
        while len(data) < READ_MAX and poller.poll(0 if data else IDLE_WAIT_MS):
            b = inp.read(1)
            if not b:
                break
            data.extend(b)
        t = time.ticks_ms()
        now += time.ticks_diff(t, last)
        last = t
        if data:
            app.feed(data, now)
            data = bytearray()
        app.tick(now)


def start():
    try:
        run()
    except Exception as e:
        # Whatever went wrong, come back clean: the host reconnects when we announce again.
        print_exception = getattr(sys, "print_exception", None)
        if print_exception:
            print_exception(e)
        time.sleep_ms(200)
        machine.reset()


if __name__ == "__main__":
    start()
