# A scenario for the panel firmware's logic that runs unchanged under MicroPython (its unix
# port) and CPython; tests/test_firmware_micropython.py runs it under both and compares the
# output line by line. Usage: <python or micropython> firmware_scenario.py <firmware folder>
import sys

sys.path.insert(0, sys.argv[1])

import panel_protocol as p  # noqa: E402
from debounce import Debouncer  # noqa: E402
from hd44780 import Lcd  # noqa: E402
from panel_app import PanelApp  # noqa: E402


def show(name, value):
    print(name + " " + str(value))


def hexes(frames):
    return " ".join("%d/%d/%s" % (s, t, bytes(b).hex()) for s, t, b in frames)


# Frames and the checksum
show("crc", p.crc16(b"123456789"))
show("frame", p.encode(1, p.LCD_TEXT, b"\x00\x00Hi").hex())

# The decoder under garbage, a false header and truncation
d = p.Decoder()
stream = (b"\x00junk\xa5\x6a" + p.encode(2, p.LED, b"\x01\x02\x03") + b"\x03\x03"
          + p.encode(3, p.LCD_CLEAR) + p.encode(4, p.PING)[:5])
got = []
for i in range(0, len(stream), 3):
    got += d.feed(stream[i:i + 3], 0)
got += d.expire(p.FRAME_TIMEOUT_MS)
show("decoded", hexes(got))
show("dropped", d.dropped_bytes)

# The reliable link: reordering, duplicates, loss and retransmission
wire_a, wire_b = [], []
a = p.Link(wire_a.append)
b = p.Link(wire_b.append)
for i in range(5):
    a.send(p.LCD_TEXT, bytes([0, i]), 0)
sent = list(wire_a)
order = [sent[3], sent[0], sent[0], sent[4], sent[2]]      # 1 lost, 0 twice, out of order
delivered = []
for f in order:
    delivered += b.receive(f, 0)
for f in wire_b:
    a.receive(f, 0)
del wire_a[:]
a.poll(p.RTO_MS)                                           # sends the lost one again
for f in wire_a:
    delivered += b.receive(f, p.RTO_MS)
show("delivered", " ".join(str(m[1][1]) for m in delivered))
show("retransmits", a.retransmits)
show("duplicates", b.duplicates)


# The panel: boot, handshake, LCD text on an I2C stand-in, a button press and hold
class I2C:
    def __init__(self):
        self.count = 0

    def writeto(self, address, data):
        self.count += len(data)


out = []
pressed = [False]
lit = []
i2c = I2C()
app = PanelApp(out.append, Lcd(i2c, 0x27, 20, 4, lambda us: None),
               [("ok", lambda: pressed[0])], [("waiting", lit.append)],
               now=0, bounce_ms=10, hold_ms=100)
host_out = []
host = p.Link(host_out.append)
host.send_control(p.HELLO, bytes([p.PROTOCOL_VERSION, 33]))
host.send(p.LCD_TEXT, b"\x01\x00hello", 0)
host.send(p.LED, bytes([0, 1, 40]), 0)
app.feed(b"".join(host_out), 1)
pressed[0] = True
for t in range(0, 200, 5):
    app.tick(t)
replies = host.receive(b"".join(out), 200)
show("replies", " ".join("%d:%s" % (t, bytes(b).hex()) for t, b in replies))
show("connected", app.connected)
show("led", lit)
show("i2c_bytes", i2c.count)

# The debouncer alone
db = Debouncer(1, 20, 60)
show("debounce", [db.update(0, t >= 10, t) for t in range(0, 120, 10)])
