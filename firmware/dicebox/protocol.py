"""Protocol v1 codec: framing, CRC and the fields of every message. Pure; no I/O, no clock.

A line is ``BODY*CCCC`` followed by CR LF (the device sends CR LF; either CR or LF ends a line it
receives). BODY is a message type in capitals followed by ``key=value`` fields separated by single
spaces; CCCC is the CRC-16/CCITT-FALSE of BODY's bytes in hex. See docs/protocol.md.

The same module is imported by the firmware (MicroPython) and may be imported by host code
(CPython); `tests/protocol_vectors/` holds the golden vectors both sides are tested against.
"""

from array import array

PROTOCOL_VERSION = 1
MAX_LINE = 128  # bytes of one line without its terminator; longer input is rejected

# The event die's six faces, in index order.
EVENT_FACES = ("ship", "ship", "ship", "trade", "politics", "science")
EVENTS = ("ship", "trade", "politics", "science")
# The production dice's modes (`dice.py`), in index order: ``MODE dice=...``, ``HELLO ... dice=``.
DICE_MODES = ("fair", "balanced", "deck")

# Error codes carried by ``ERR code=...`` (and by ProtocolError.code).
E_LONG = "long"  # line longer than MAX_LINE
E_FRAME = "frame"  # not BODY*CCCC, a byte outside printable ASCII, empty token, bad type name
E_CRC = "crc"  # the CRC does not match the body
E_UNKNOWN = "unknown"  # well-framed, but not a message type this side accepts
E_FIELD = "field"  # a required field is missing, repeated or malformed
E_RANGE = "range"  # a field is well-formed but out of range (e.g. track position past its end)

# Field kinds: "u" unsigned decimal, "d" die face 1..6, "e" event name, "b" flag 0/1,
# "x" upper-case hex id (1..16 digits), "t" token [A-Za-z0-9._-] (1..32 chars).
# Each message: its fields as "key:kind" separated by spaces, "?" after an optional one (see
# `spec_fields`). Fields are written in this order; a reader accepts any order and ignores keys
# it does not know (so later versions can add fields). Strings rather than tuples of tuples,
# which took 5 KB more of the heap in the VM.
DEVICE_MESSAGES = {
    "HELLO": "fw:t proto:u dev:x boot:x up:u unacked:u lost:u dice:t?",
    "ROLL": "seq:u y:d r:d e:e t:u off:b? alc:b? boot:x?",
    "OFFLINE": "n:u first:u last:u",
    "HB": "up:u last:u unacked:u armed:b",
    "PRESS": "armed:b t:u full:b?",
    "OK": "cmd:t dice:t?",
    "ERR": "code:t cmd:t? want:x?",
    "PONG": "n:t?",
}

HOST_MESSAGES = {
    "HELLO": "proto:u? boots:b?",
    "HB": "",
    "ACK": "seq:u boot:x?",
    "TRACK": "pos:u len:u",
    "ATTACK": "",
    "ARM": "",
    "DISARM": "",
    "ALCH": "y:d? r:d?",
    "LEDTEST": "",
    "PING": "n:t?",
    "SHOW": "turn:t? draw:t?",
    "MODE": "dice:t",
}


def spec_fields(spec: str) -> list:
    """A message's spec string -> [(key, kind, required), ...] in writing order."""
    out = []
    for item in spec.split():
        required = item[-1] != "?"
        if not required:
            item = item[:-1]
        out.append((item[:-2], item[-1], required))
    return out


TRACK_MIN_LEN = 2
TRACK_MAX_LEN = 16


class ProtocolError(Exception):
    """A line that cannot be accepted; ``code`` is one of the E_* codes."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code, detail)
        self.code = code
        self.detail = detail


def _make_table() -> array:
    # 16-bit entries: 512 bytes, where a list of ints takes 1 KB on the Pico (2 KB in the VM).
    table = array("H", bytes(512))
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table[byte] = crc & 0xFFFF
    return table


_TABLE = _make_table()
del _make_table  # run once: its code need not stay in the heap


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xor-out); ``crc``: the
    CRC of the bytes before ``data``, to go on from."""
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def frame(body: str) -> bytes:
    """The line for ``body``: body, ``*``, its CRC in hex, CR LF."""
    raw = body.encode()
    return raw + b"*%04X\r\n" % crc16(raw)


def encode(kind: str, fields: tuple = ()) -> bytes:
    """One line from a type and ``((key, value), ...)``; ints are written in decimal."""
    parts = [kind]
    for key, value in fields:
        parts.append(f"{key}={value}")
    return frame(" ".join(parts))


# Plain loops, not all(...): on MicroPython a generator is a heap allocation on every call.
def _is_printable(raw: bytes) -> bool:
    for byte in raw:  # noqa: SIM110
        if not 0x20 <= byte <= 0x7E:
            return False
    return True


def unframe(line: bytes) -> str:
    """Check length, characters and CRC of one line (terminator already removed); return BODY."""
    if len(line) > MAX_LINE:
        raise ProtocolError(E_LONG, f"{len(line)} bytes")
    if not _is_printable(line):
        raise ProtocolError(E_FRAME, "byte outside printable ASCII")
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 5:
        raise ProtocolError(E_FRAME, "no *CCCC checksum")
    crc_text = line[star + 1 :]
    for byte in crc_text:
        if byte not in b"0123456789ABCDEFabcdef":
            raise ProtocolError(E_FRAME, "checksum is not hex")
    body = line[:star]
    want = crc16(body)
    if int(crc_text, 16) != want:
        raise ProtocolError(E_CRC, f"{want:04X}")
    return body.decode()


_TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"
_HEX_CHARS = "0123456789ABCDEF"
_KEY_CHARS = "abcdefghijklmnopqrstuvwxyz"


def _only(text: str, allowed: str) -> bool:
    for char in text:  # noqa: SIM110
        if char not in allowed:
            return False
    return True


def _value(kind: str, text: str) -> int | str:
    """Convert one field's text by its kind; raises ValueError (malformed) or IndexError (range)."""
    if kind == "t":
        if 0 < len(text) <= 32 and _only(text, _TOKEN_CHARS):
            return text
        raise ValueError(text)
    if kind == "x":
        if 0 < len(text) <= 16 and _only(text, _HEX_CHARS):
            return text
        raise ValueError(text)
    if kind == "e":
        if text in EVENTS:
            return text
        raise ValueError(text)
    if not (0 < len(text) <= 9 and _only(text, "0123456789")):
        raise ValueError(text)
    # A die is one of the digits 1-6 and a flag 0 or 1, written as such: "01" is out of range.
    if kind == "d" and (len(text) != 1 or text == "0" or text > "6"):
        raise IndexError(text)
    if kind == "b" and (len(text) != 1 or text > "1"):
        raise IndexError(text)
    return int(text)


def split_body(body: str) -> tuple:
    """BODY -> (type, [(key, text), ...]) without interpreting any field."""
    tokens = body.split(" ")
    kind = tokens[0]
    if not (kind and _only(kind, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")):
        raise ProtocolError(E_FRAME, "bad message type")
    pairs = []
    for token in tokens[1:]:
        eq = token.find("=")
        if eq <= 0 or eq == len(token) - 1:
            raise ProtocolError(E_FRAME, "field is not key=value")
        key = token[:eq]
        if not _only(key, _KEY_CHARS):
            raise ProtocolError(E_FRAME, "key is not lower-case letters")
        pairs.append((key, token[eq + 1 :]))
    return kind, pairs


def decode(line: bytes, schema: dict = HOST_MESSAGES) -> tuple:
    """One received line (no terminator) -> (type, {key: value}) checked against ``schema``.

    ``schema`` is HOST_MESSAGES on the device (what a host may send) and DEVICE_MESSAGES on the
    host. Raises ProtocolError; its ``detail`` names the type for E_FIELD/E_RANGE errors.
    """
    kind, pairs = split_body(unframe(line))
    spec = schema.get(kind)
    if spec is None:
        raise ProtocolError(E_UNKNOWN, kind)
    given = {}
    for key, text in pairs:
        if key in given:
            raise ProtocolError(E_FIELD, kind)
        given[key] = text
    values = {}
    for key, field_kind, required in spec_fields(spec):
        text = given.pop(key, None)
        if text is None:
            if required:
                raise ProtocolError(E_FIELD, kind)
            continue
        try:
            values[key] = _value(field_kind, text)
        except IndexError:
            raise ProtocolError(E_RANGE, kind) from None
        except ValueError:
            raise ProtocolError(E_FIELD, kind) from None
    # A key this version does not know is ignored, but its value is still written in the
    # token alphabet, which every kind of value uses.
    for text in given.values():
        if not _only(text, _TOKEN_CHARS):
            raise ProtocolError(E_FIELD, kind)
    _check(kind, values, schema)
    return kind, values


def _check(kind: str, fields: dict, schema: dict) -> None:
    """Rules across fields of one host command."""
    if schema is not HOST_MESSAGES:
        return
    if kind == "TRACK":
        length = fields["len"]
        if not TRACK_MIN_LEN <= length <= TRACK_MAX_LEN or fields["pos"] >= length:
            raise ProtocolError(E_RANGE, kind)
    elif kind == "ALCH" and (("y" in fields) != ("r" in fields)):
        raise ProtocolError(E_FIELD, kind)
    elif kind == "MODE" and fields["dice"] not in DICE_MODES:
        raise ProtocolError(E_RANGE, kind)


class LineSplitter:
    """Cuts a byte stream into lines at CR or LF; empty lines are dropped.

    An over-long line is returned cut to ``max_line + 1`` bytes (so `decode` rejects it with
    E_LONG) and the rest of it, up to the next terminator, is discarded. Memory stays bounded.
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data: bytes) -> list[bytes]:
        lines = []
        buf = self._buf
        for byte in data:
            if byte == 10 or byte == 13:
                if self._overflow:
                    lines.append(bytes(buf))
                    self._overflow = False
                elif buf:
                    lines.append(bytes(buf))
                buf[:] = b""
            elif self._overflow:
                continue
            else:
                buf.append(byte)
                if len(buf) > self.max_line:
                    self._overflow = True
        return lines

    def pending(self) -> int:
        """Bytes of an unfinished line held back."""
        return len(self._buf)
