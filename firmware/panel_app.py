# The panel's logic, free of hardware: main.py gives it the USB writer, the LCD driver, the
# button readers and the LED setters, then feeds it received bytes and the time (ms).
# The tests run this same code under CPython against the host's panel driver.

import panel_protocol as p
from debounce import Debouncer

HOST_TIMEOUT_MS = 3500      # no frame from the host this long: it is gone
ANNOUNCE_MS = 1000          # while alone, announce ourselves this often
LCD_RETRY_MS = 1000


class PanelApp:
    def __init__(self, write, lcd, buttons, leds, now=0, name="tc-panel",
                 bounce_ms=30, hold_ms=800, status=None):
        # buttons: ((name, read) ...), read() -> True while pressed
        # leds: ((name, set) ...), set(True/False) switches the LED
        # status: optional set(True/False) for a "no host" blinker
        self.link = p.Link(write)
        self.lcd = lcd
        self.name = name
        self.button_names = [b[0] for b in buttons]
        self.button_reads = [b[1] for b in buttons]
        self.led_names = [x[0] for x in leds]
        self.led_sets = [x[1] for x in leds]
        self.status = status
        self.host_timeout_ms = HOST_TIMEOUT_MS
        self.debounce = Debouncer(len(buttons), bounce_ms, hold_ms)
        n = len(leds)
        self.led_mode = [0] * n
        self.led_half = [40] * n       # blink half-period, in 10 ms
        self.led_lit = [False] * n
        self.connected = False
        self.last_host = now
        self.last_announce = now
        self.lcd_ok = False
        self.lcd_tried = now
        self.good_frames = 0
        self._lcd_call(self._boot_screen)
        self._all_leds_off()
        self.announce()

    # --- talking to the host ------------------------------------------------------------

    def info(self, nonce):
        return p.info_payload(p.PROTOCOL_VERSION, nonce, self.lcd.cols, self.lcd.rows,
                              self.button_names, self.led_names, self.name)

    def announce(self):
        self.link.send_control(p.ANNOUNCE, self.info(0))

    def feed(self, data, now):
        # A damaged frame is dropped by the decoder; the host's retransmission brings it back.
        for mtype, payload in self.link.receive(data, now):
            self.handle(mtype, payload, now)

    def handle(self, mtype, payload, now):
        self.last_host = now
        self.good_frames += 1
        if mtype == p.HELLO:
            if len(payload) < 2:
                return
            version, nonce = payload[0], payload[1]
            self.link.reset()
            self.link.send_control(p.WELCOME, self.info(nonce))
            self.connected = version == p.PROTOCOL_VERSION
            if not self.connected:
                self.link.send_control(p.ERROR, ("host speaks protocol %d, panel %d"
                                                 % (version, p.PROTOCOL_VERSION)).encode())
            return
        if mtype == p.PING:
            self.link.send_control(p.PONG)
            return
        if not self.connected:
            return
        if mtype == p.LCD_TEXT and len(payload) >= 2:
            self._lcd_call(self.lcd.text, payload[0], payload[1], payload[2:])
        elif mtype == p.LCD_CHAR and len(payload) == 9:
            self._lcd_call(self.lcd.create_char, payload[0], payload[1:])
        elif mtype == p.LCD_CLEAR:
            self._lcd_call(self.lcd.clear)
        elif mtype == p.LCD_BACKLIGHT and len(payload) == 1:
            self._lcd_call(self.lcd.backlight, payload[0] != 0)
        elif mtype == p.LED and len(payload) == 3 and payload[0] < len(self.led_sets):
            i = payload[0]
            self.led_mode[i] = payload[1] if payload[1] <= 2 else 0
            self.led_half[i] = max(1, payload[2])
            self._set_led(i, self.led_mode[i] == 1)
        else:
            self.link.send_control(p.ERROR, ("bad message type 0x%02x" % mtype).encode())

    # --- the loop's tick ------------------------------------------------------------------

    def tick(self, now):
        for i in range(len(self.button_reads)):
            kind = self.debounce.update(i, self.button_reads[i](), now)
            if kind is not None and self.connected:
                self.link.send(p.BUTTON, bytes([i, p.BUTTON_KINDS.index(kind)]), now)
        for mtype, payload in self.link.poll(now):
            self.handle(mtype, payload, now)
        for i in range(len(self.led_sets)):
            if self.led_mode[i] == 2:
                self._set_led(i, (now // (self.led_half[i] * 10)) % 2 == 0)
        if self.connected and now - self.last_host >= self.host_timeout_ms:
            self.connected = False
            self.link.reset()
            self._all_leds_off()
            self._lcd_call(self._boot_screen)
        if not self.connected and now - self.last_announce >= ANNOUNCE_MS:
            self.last_announce = now
            self.announce()
        if self.status is not None:
            self.status(self.connected or (now // 250) % 2 == 0)
        if not self.lcd_ok and now - self.lcd_tried >= LCD_RETRY_MS:
            self.lcd_tried = now
            if not self.connected:
                self._lcd_call(self._boot_screen)
            elif self._lcd_call(self.lcd.init):
                # The host redraws everything when told the LCD was reset.
                self.link.send_control(p.ERROR, b"lcd reset")

    # --- helpers --------------------------------------------------------------------------

    def _boot_screen(self):
        self.lcd.init()
        self.lcd.text(0, 0, b"Table Companion")
        self.lcd.text(1, 0, b"USB panel ready")
        self.lcd.text(2, 0, b"waiting for host...")

    def _lcd_call(self, fn, *args):
        # An LCD that is unplugged or garbled must not stop the buttons: note it, retry later.
        try:
            fn(*args)
            self.lcd_ok = True
            return True
        except OSError:
            self.lcd_ok = False
            return False

    def _set_led(self, i, on):
        if self.led_lit[i] != on:
            self.led_lit[i] = on
            self.led_sets[i](on)

    def _all_leds_off(self):
        for i in range(len(self.led_sets)):
            self.led_mode[i] = 0
            self.led_lit[i] = True
            self._set_led(i, False)
