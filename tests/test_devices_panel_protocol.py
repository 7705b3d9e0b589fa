"""The panel protocol (shared by host and firmware): framing under garbage and truncation,
and the reliable link under loss, duplicates and reordering. Deterministic: no threads."""

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices import panel_protocol as p

# Shared test vectors: the exact bytes of a few frames (PROTOCOL.md quotes the first two).
VECTORS = [
    ((0, p.PING, b""), "a5 00 00 05 9c 39"),
    ((1, p.LCD_TEXT, b"\x00\x00Hi"), "a5 04 01 20 00 00 48 69 04 f6"),
    ((7, p.BUTTON, b"\x01\x00"), "a5 02 07 10 01 00 74 f0"),
]


def test_crc_is_crc16_ccitt_false():
    import binascii
    assert p.crc16(b"123456789") == 0x29B1      # the standard check value
    # and it agrees with the standard library's CRC-CCITT started at 0xFFFF
    for data in (b"", b"\xa5", bytes(range(64))):
        assert p.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_frames_match_the_test_vectors():
    for (seq, mtype, payload), hexbytes in VECTORS:
        frame = p.encode(seq, mtype, payload)
        assert frame.hex(" ") == hexbytes
        assert p.Decoder().feed(frame, 0) == [(seq, mtype, payload)]


def test_garbage_around_frames_is_skipped():
    d = p.Decoder()
    a, b = p.encode(1, p.LED, b"\x00\x01\x28"), p.encode(2, p.LCD_CLEAR)
    stream = b"\x00\xff\xa5\xa5junk\x03\x03" + a + b"\xa5\x02\x01" + b"more junk" + b
    # "\xa5\x6a" looks like the header of a 106-byte frame: the decoder waits for its end...
    assert d.feed(stream, 0) == []
    # ...and when nothing more comes, takes the whole frames that were inside it
    assert d.expire(p.FRAME_TIMEOUT_MS) == [(1, p.LED, b"\x00\x01\x28"), (2, p.LCD_CLEAR, b"")]
    assert d.dropped_bytes > 0 and not d.buf


def test_garbage_without_false_headers_costs_no_wait():
    d = p.Decoder()
    a = p.encode(1, p.LED, b"\x00\x01\x28")
    assert d.feed(b"\x00\xff\x03\x03hello\r\n" + a, 0) == [(1, p.LED, b"\x00\x01\x28")]


def test_a_corrupted_byte_drops_only_that_frame():
    a, b = bytearray(p.encode(1, p.LED, b"\x00\x01\x28")), p.encode(2, p.LCD_CLEAR)
    a[5] ^= 0x40
    d = p.Decoder()
    assert d.feed(bytes(a) + b, 0) == [(2, p.LCD_CLEAR, b"")]
    assert d.bad_frames >= 1


def test_a_truncated_frame_followed_by_silence_expires():
    d = p.Decoder()
    whole = p.encode(3, p.LCD_TEXT, b"\x01\x02" + b"x" * 30)
    assert d.feed(whole[:10], 0) == []          # the cable is pulled mid-frame
    assert d.expire(p.FRAME_TIMEOUT_MS - 1) == [] and d.buf
    assert d.expire(p.FRAME_TIMEOUT_MS) == []
    assert not d.buf
    assert d.feed(p.encode(1, p.PING), 10_000) == [(1, p.PING, b"")]


def test_a_truncated_frame_followed_by_good_frames_loses_only_itself():
    d = p.Decoder()
    cut = p.encode(5, p.LCD_TEXT, b"\x01\x02" + b"x" * 40)[:12]
    good = [p.encode(s, p.LCD_CLEAR) for s in (1, 2, 3, 4, 5, 6, 7, 8)]
    out = d.feed(cut + b"".join(good), 0)
    # the claimed length swallows the first good frames until the CRC fails; rescanning
    # from the next byte finds them all again
    assert [f[0] for f in out] == [1, 2, 3, 4, 5, 6, 7, 8]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.binary(max_size=12), st.binary(max_size=20)), max_size=8),
       st.integers(min_value=1, max_value=7))
def test_any_garbage_between_frames_never_loses_a_frame(chunks, split):
    """Whatever noise comes between them (SYNC bytes and false headers included), every
    whole frame is decoded, fed in any pieces."""
    frames = [p.encode(i % 255 + 1, p.LCD_TEXT, bytes([0, 0]) + payload)
              for i, (_noise, payload) in enumerate(chunks)]
    stream = b"".join(n + f for (n, _), f in zip(chunks, frames))
    d = p.Decoder()
    out = []
    for i in range(0, len(stream), split):
        out += d.feed(stream[i:i + split], 0)
    out += d.expire(p.FRAME_TIMEOUT_MS)     # noise may have looked like a header: time out
    assert [f[2][2:] for f in out] == [payload for _n, payload in chunks]


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_pure_noise_never_crashes_and_never_grows_the_buffer_past_its_limit(noise):
    d = p.Decoder()
    d.feed(noise, 0)
    d.expire(10_000)
    assert len(d.buf) <= p.MAX_BUFFER


# --- the reliable link -----------------------------------------------------------------

class Wire:
    """Two links joined by a lossy wire whose deliveries the test controls."""

    def __init__(self):
        self.a_out, self.b_out = [], []
        self.a = p.Link(self.a_out.append)
        self.b = p.Link(self.b_out.append)

    def deliver(self, frames, to, now=0):
        got = []
        for f in frames:
            got += to.receive(f, now)
        return got


def test_reliable_messages_arrive_once_and_in_order():
    w = Wire()
    for i in range(5):
        w.a.send(p.LCD_TEXT, bytes([0, i]) + b"x", 0)
    sent, w.a_out[:] = list(w.a_out), []
    got = w.deliver(sent, w.b)
    assert [m[1][1] for m in got] == [0, 1, 2, 3, 4]
    acks, w.b_out[:] = list(w.b_out), []
    w.deliver(acks, w.a)
    assert w.a.pending() == 0


def test_duplicates_are_acked_again_but_delivered_once():
    w = Wire()
    w.a.send(p.BUTTON, b"\x00\x00", 0)
    frame = w.a_out[0]
    assert len(w.deliver([frame, frame, frame], w.b)) == 1
    assert w.b.duplicates == 2
    assert len(w.b_out) == 3                    # an ACK each time: a lost ACK is recovered


def test_reordered_frames_are_delivered_in_order():
    w = Wire()
    for i in range(4):
        w.a.send(p.LCD_TEXT, bytes([0, i]), 0)
    f = list(w.a_out)
    got = w.deliver([f[2], f[0], f[3], f[1]], w.b)
    assert [m[1][1] for m in got] == [0, 1, 2, 3]


def test_lost_frames_are_retransmitted_until_acked():
    w = Wire()
    w.a.send(p.LED, b"\x00\x01\x28", 0)
    w.a_out.clear()                              # lost on the wire
    w.a.poll(p.RTO_MS - 1)
    assert w.a_out == []
    w.a.poll(p.RTO_MS)
    assert len(w.a_out) == 1 and w.a.retransmits == 1
    assert len(w.deliver(w.a_out, w.b)) == 1
    w.deliver(w.b_out, w.a)
    w.a_out.clear()
    w.a.poll(10 * p.RTO_MS)
    assert w.a_out == [] and w.a.pending() == 0


def test_the_window_limits_frames_in_flight():
    w = Wire()
    for i in range(p.WINDOW + 3):
        w.a.send(p.LCD_CLEAR, b"", 0)
    assert len(w.a_out) == p.WINDOW and w.a.pending() == p.WINDOW + 3
    first_ack = p.encode(0, p.ACK, b"\x01")
    w.a.receive(first_ack, 0)
    assert len(w.a_out) == p.WINDOW + 1


def test_sequence_numbers_wrap_around():
    w = Wire()
    got = []
    for i in range(600):
        w.a.send(p.LCD_TEXT, bytes([0, i % 256]), i)
        got += w.deliver(w.a_out, w.b, i)
        w.a_out.clear()
        w.deliver(w.b_out, w.a, i)
        w.b_out.clear()
    assert [m[1][1] for m in got] == [i % 256 for i in range(600)]
    assert w.a.pending() == 0


def test_frames_of_an_old_session_are_ignored():
    w = Wire()
    for _ in range(40):
        w.a.send(p.LCD_CLEAR, b"", 0)
        w.deliver(w.a_out, w.b)
        w.a_out.clear()
        w.deliver(w.b_out, w.a)
        w.b_out.clear()
    stale = p.encode(100, p.LCD_CLEAR)           # far from what b expects next (41)
    assert w.b.receive(stale, 0) == [] and w.b_out == []


def test_info_payload_round_trip_and_bad_info():
    payload = p.info_payload(1, 9, 20, 4, ["ok", "back"], ["waiting"], "tc-panel 1.0")
    info = p.parse_info(payload)
    assert info == {"version": 1, "nonce": 9, "cols": 20, "rows": 4, "buttons": ["ok", "back"],
                    "leds": ["waiting"], "name": "tc-panel 1.0"}
    import pytest
    with pytest.raises(ValueError):
        p.parse_info(b"\x01\x02")
    with pytest.raises(ValueError):
        p.parse_info(b"\x01\x02\x14\x04only|two")
