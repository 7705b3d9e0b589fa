"""The USB panel's serial protocol: framing, checksum, sequence numbers, acks, retransmission.

The SAME file runs on the host (CPython) and on the panel (MicroPython; firmware/ holds a
symbolic link to it), so it uses only what both have: no annotations, no dataclasses, no
imports. firmware/PROTOCOL.md describes the bytes; this is the reference implementation.

Frame:  0xA5 | LEN | SEQ | TYPE | PAYLOAD (LEN bytes, at most 120) | CRC16 high | CRC16 low
        CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over LEN, SEQ, TYPE and PAYLOAD.
SEQ 0 marks a control frame (never acked); 1..255 a reliable frame, acked with ACK(seq) and
sent again until acked. The receiver delivers reliable frames once each and in order.

Time is passed in (``now`` in milliseconds, never wrapping) so that the module needs no clock.
"""

SYNC = 0xA5
MAX_PAYLOAD = 120
HEADER = 4                  # SYNC, LEN, SEQ, TYPE
OVERHEAD = HEADER + 2       # + CRC
PROTOCOL_VERSION = 1

WINDOW = 8                  # reliable frames in flight, each way
RTO_MS = 120                # send an unacked frame again after this long
FRAME_TIMEOUT_MS = 200      # a frame not complete this long after its first byte is dropped
MAX_BUFFER = 512

# Control frames (SEQ = 0)
HELLO = 0x01        # host -> panel: [version, nonce]          start a session
WELCOME = 0x02      # panel -> host: [version, nonce, cols, rows] + b"buttons|leds|name"
ANNOUNCE = 0x03     # panel -> host: [version, 0, cols, rows] + info, at boot and while alone
ACK = 0x04          # both: [seq]
PING = 0x05         # host -> panel: []                        heartbeat
PONG = 0x06         # panel -> host: []
ERROR = 0x07        # both: ASCII text                          a message was refused
# Reliable frames (SEQ 1..255)
BUTTON = 0x10       # panel -> host: [button index, kind]      kind: 0 press, 1 hold, 2 release
LCD_TEXT = 0x20     # host -> panel: [row, col] + HD44780 bytes
LCD_CHAR = 0x21     # host -> panel: [slot 0-7] + 8 bitmap rows
LCD_CLEAR = 0x22    # host -> panel: []
LCD_BACKLIGHT = 0x23  # host -> panel: [0 or 1]
LED = 0x30          # host -> panel: [led index, state, half-period in 10 ms]  state: 0 off 1 on 2 blink

BUTTON_KINDS = ("press", "hold", "release")
LED_STATES = ("off", "on", "blink")


def crc16(data, crc=0xFFFF):
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def encode(seq, mtype, payload=b""):
    """The bytes of one frame."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload longer than %d bytes" % MAX_PAYLOAD)
    body = bytes([len(payload), seq, mtype]) + bytes(payload)
    crc = crc16(body)
    return bytes([SYNC]) + body + bytes([crc >> 8, crc & 0xFF])


def next_seq(seq):
    return seq % 255 + 1


def seq_distance(a, b):
    """Steps forward from sequence number a to b (both 1..255)."""
    return (b - a) % 255


class Decoder:
    """Bytes in, frames out. Survives garbage, truncated frames and corrupted bytes: a bad or
    stale partial frame costs only its first byte, and the search for SYNC starts again."""

    def __init__(self):
        self.buf = bytearray()
        self.last_rx = 0
        self.dropped_bytes = 0      # bytes thrown away (garbage, bad frames)
        self.bad_frames = 0         # frames whose checksum or length was wrong

    def feed(self, data, now):
        """Frames ``(seq, type, payload)`` completed by ``data``."""
        if data:
            self.buf.extend(data)
            self.last_rx = now
            if len(self.buf) > MAX_BUFFER:
                extra = len(self.buf) - MAX_BUFFER
                self.dropped_bytes += extra
                self.buf = self.buf[extra:]
        return self._scan()

    def expire(self, now):
        """Nothing came for FRAME_TIMEOUT_MS but a frame is incomplete (the cable was pulled
        mid-frame, or noise looked like a header): no byte of it can complete now, so every
        whole frame still in the buffer is taken and the rest dropped."""
        if self.buf and now - self.last_rx >= FRAME_TIMEOUT_MS:
            return self._scan(True)
        return []

    def _skip(self, n):
        self.dropped_bytes += n
        self.buf = self.buf[n:]

    def _scan(self, stale=False):
        frames = []
        buf = self.buf
        while buf:
            if buf[0] != SYNC:
                i = 1
                while i < len(buf) and buf[i] != SYNC:
                    i += 1
                self._skip(i)
                buf = self.buf
                continue
            n = buf[1] if len(buf) > 1 else 0
            if n > MAX_PAYLOAD:
                self.bad_frames += 1
                self._skip(1)
                buf = self.buf
                continue
            total = OVERHEAD + n
            if len(buf) < total:
                if not stale:
                    break           # wait for the rest
                self._skip(1)       # the rest will never come
                buf = self.buf
                continue
            crc = crc16(buf[1:HEADER + n])
            if crc == (buf[HEADER + n] << 8 | buf[HEADER + n + 1]):
                frames.append((buf[2], buf[3], bytes(buf[HEADER:HEADER + n])))
                self.buf = buf[total:]
            else:
                self.bad_frames += 1
                self._skip(1)
            buf = self.buf
        return frames


class Link:
    """One side of a session: reliable, in-order delivery over an unreliable byte stream.

    ``write(bytes)`` sends; ``receive(data, now)`` returns the messages ``(type, payload)``
    to act on (control frames other than ACK, and reliable frames in order, once each);
    ``poll(now)`` retransmits and expires partial frames; ``reset()`` starts a new session.
    """

    def __init__(self, write):
        self.write = write
        self.decoder = Decoder()
        self.retransmits = 0
        self.duplicates = 0
        self.reset()

    def reset(self):
        self.tx_seq = 1
        self.unacked = {}       # seq -> [frame bytes, time last sent]
        self.order = []         # seqs of unacked, oldest first
        self.queue = []         # (type, payload) waiting for room in the window
        self.rx_expected = 1
        self.rx_early = {}      # seq -> (type, payload) that arrived ahead of its turn

    def pending(self):
        """Reliable messages not yet acknowledged (sent or waiting)."""
        return len(self.order) + len(self.queue)

    def send_control(self, mtype, payload=b""):
        self.write(encode(0, mtype, payload))

    def send(self, mtype, payload, now):
        """Queue a reliable message; it goes out as soon as the window allows."""
        self.queue.append((mtype, bytes(payload)))
        self._pump(now)

    def _pump(self, now):
        while self.queue and len(self.order) < WINDOW:
            mtype, payload = self.queue.pop(0)
            seq = self.tx_seq
            self.tx_seq = next_seq(seq)
            frame = encode(seq, mtype, payload)
            self.unacked[seq] = [frame, now]
            self.order.append(seq)
            self.write(frame)

    def poll(self, now):
        """Retransmit what is overdue; returns messages freed by an expired partial frame."""
        for seq in self.order:
            entry = self.unacked[seq]
            if now - entry[1] >= RTO_MS:
                entry[1] = now
                self.retransmits += 1
                self.write(entry[0])
        return self._handle(self.decoder.expire(now), now)

    def receive(self, data, now):
        return self._handle(self.decoder.feed(data, now), now)

    def _handle(self, frames, now):
        out = []
        for seq, mtype, payload in frames:
            if seq == 0:
                if mtype == ACK:
                    if len(payload) == 1:
                        self._acked(payload[0], now)
                else:
                    out.append((mtype, payload))
                continue
            d = seq_distance(self.rx_expected, seq)
            if d < WINDOW:
                self.write(encode(0, ACK, bytes([seq])))
                if seq in self.rx_early:
                    self.duplicates += 1
                self.rx_early[seq] = (mtype, payload)
                while self.rx_expected in self.rx_early:
                    out.append(self.rx_early.pop(self.rx_expected))
                    self.rx_expected = next_seq(self.rx_expected)
            elif d >= 255 - 2 * WINDOW:
                # Already delivered: our ACK was lost. Ack again, deliver nothing.
                self.duplicates += 1
                self.write(encode(0, ACK, bytes([seq])))
            # else: far outside the window (another session's frame): ignore it.
        return out

    def _acked(self, seq, now):
        if seq in self.unacked:
            del self.unacked[seq]
            self.order.remove(seq)
            self._pump(now)


def info_payload(version, nonce, cols, rows, buttons, leds, name):
    """WELCOME / ANNOUNCE payload."""
    text = ",".join(buttons) + "|" + ",".join(leds) + "|" + name
    return bytes([version, nonce, cols, rows]) + text.encode()


def parse_info(payload):
    """The dict a WELCOME / ANNOUNCE payload describes; ValueError if it is malformed."""
    if len(payload) < 4:
        raise ValueError("panel info too short")
    parts = bytes(payload[4:]).decode().split("|")
    if len(parts) != 3:
        raise ValueError("panel info has %d fields, not 3" % len(parts))
    return {"version": payload[0], "nonce": payload[1], "cols": payload[2], "rows": payload[3],
            "buttons": [b for b in parts[0].split(",") if b],
            "leds": [x for x in parts[1].split(",") if x], "name": parts[2]}
