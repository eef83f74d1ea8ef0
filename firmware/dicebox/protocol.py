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

# The event die's faces: three ships, then the castles (`EVENTS[max(0, face - 2)]` for a face
# numbered 0 to 5).
EVENTS = ("ship", "trade", "politics", "science")
# The production dice's modes (`dice.py`), in index order: ``MODE dice=...``, ``HELLO ... dice=``.
DICE_MODES = ("fair", "balanced", "deck")

# Error codes carried by ``ERR code=...`` (and by ProtocolError.code), written as these words
# where they are raised (a name for each would be one more qstr in the box's heap):
# "long": line longer than MAX_LINE; "frame": not BODY*CCCC, a byte outside printable ASCII,
# empty token, bad type name; "crc": the CRC does not match the body; "unknown": well-framed,
# but not a message type this side accepts; "field": a required field is missing, repeated or
# malformed; "range": a field is well-formed but out of range (e.g. track position past its end).

# Field kinds: "u" unsigned decimal, "d" die face 1..6, "e" event name, "b" flag 0/1,
# "x" upper-case hex id (1..16 digits), "t" token [A-Za-z0-9._-] (1..32 chars), "l" a list of
# names: a token of up to 65 chars (six names of 10 joined by "."; SHOW's draws=), "m" a dice
# mode (a token, one of DICE_MODES: another is out of range, as the host's codec has it).
# Each message: its fields as "key:kind" separated by spaces, "?" after an optional one (see
# `decode`). Fields are written in this order; a reader accepts any order and ignores keys
# it does not know (so later versions can add fields). Strings rather than tuples of tuples,
# which took 5 KB more of the heap in the VM. What the box sends (DEVICE_MESSAGES) is read only
# by hosts and tests: it lives in `hw_host`, not in the box's heap.
HOST_MESSAGES = {
    "HELLO": "proto:u? boots:b?",
    "HB": "",
    "ACK": "seq:u boot:x?",
    "TRACK": "pos:u len:u sea:b?",
    "ATTACK": "",
    "ARM": "",
    "DISARM": "",
    "ALCH": "y:d? r:d?",
    "LEDTEST": "",
    "PING": "n:t?",
    "SHOW": "turn:t? draw:t? draws:l?",
    "MODE": "dice:m",
}


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


def frame(text: str) -> bytes:
    """The line for the body ``text``: the body, ``*``, its CRC in hex, CR LF."""
    raw = text.encode()
    return raw + b"*%04X\r\n" % crc16(raw)


def encode(kind: str, fields: tuple = ()) -> bytes:
    """One line from a type and ``((key, value), ...)``; ints are written in decimal."""
    parts = [kind]
    for key, value in fields:
        parts.append(key + "=" + str(value))
    return frame(" ".join(parts))


def unframe(line: bytes) -> str:
    """Check length, characters and CRC of one line (terminator already removed); return BODY."""
    if len(line) > MAX_LINE:
        raise ProtocolError("long", "too long")
    # Plain loops, not all(...): on MicroPython a generator is a heap allocation on every call.
    for byte in line:
        if not 0x20 <= byte <= 0x7E:
            raise ProtocolError("frame", "byte outside printable ASCII")
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 5:
        raise ProtocolError("frame", "no *CCCC checksum")
    crc_text = line[star + 1 :]
    for byte in crc_text:
        if byte not in b"0123456789ABCDEFabcdef":
            raise ProtocolError("frame", "checksum is not hex")
    body = line[:star]
    want = crc16(body)
    if int(crc_text, 16) != want:
        raise ProtocolError("crc", (b"%04X" % want).decode())
    return body.decode()


_TOKEN_CHARS = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"


def _only(text: str, allowed: bytes) -> bool:
    # Over the bytes, not the characters: on MicroPython each character taken from a str is
    # interned as a name of its own (a qstr), and 300 names cost the heap a 3.5 KB pool more.
    for byte in text.encode():  # noqa: SIM110
        if byte not in allowed:
            return False
    return True


def _value(kind: str, text: str) -> int | str:
    """Convert one field's text by its kind; raises ValueError (malformed) or IndexError (range)."""
    if kind == "t" or kind == "l" or kind == "m":
        if not (0 < len(text) <= (65 if kind == "l" else 32) and _only(text, _TOKEN_CHARS)):
            raise ValueError(text)
        if kind == "m" and text not in DICE_MODES:
            raise IndexError(text)
        return text
    if kind == "x":
        if 0 < len(text) <= 16 and _only(text, b"0123456789ABCDEF"):
            return text
        raise ValueError(text)
    if kind == "e":
        if text in EVENTS:
            return text
        raise ValueError(text)
    if not (0 < len(text) <= 9 and _only(text, b"0123456789")):
        raise ValueError(text)
    # A die is one of the digits 1-6 and a flag 0 or 1, written as such: "01" is out of range.
    if kind == "d" and (len(text) != 1 or text == "0" or text > "6"):
        raise IndexError(text)
    if kind == "b" and (len(text) != 1 or text > "1"):
        raise IndexError(text)
    return int(text)


def decode(line: bytes, schema: dict = HOST_MESSAGES) -> tuple:
    """One received line (no terminator) -> (type, {key: value}) checked against ``schema``.

    ``schema`` is HOST_MESSAGES on the device (what a host may send) and
    `hw_host.DEVICE_MESSAGES` on the host. Raises ProtocolError; its ``detail`` names the type
    for "field" and "range" errors.
    """
    tokens = unframe(line).split(" ")
    kind = tokens[0]
    if not (kind and _only(kind, b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")):
        raise ProtocolError("frame", "bad message type")
    pairs = []
    for token in tokens[1:]:
        eq = token.find("=")
        if eq <= 0 or eq == len(token) - 1:
            raise ProtocolError("frame", "field is not key=value")
        key = token[:eq]
        if not _only(key, b"abcdefghijklmnopqrstuvwxyz"):
            raise ProtocolError("frame", "key is not lower-case letters")
        pairs.append((key, token[eq + 1 :]))
    spec = schema.get(kind)
    if spec is None:
        raise ProtocolError("unknown", kind)
    given = {}
    for key, text in pairs:
        if key in given:
            raise ProtocolError("field", kind)
        given[key] = text
    values = {}
    for item in spec.split():  # "key:kind", "?" after an optional one
        required = item[-1] != "?"
        if not required:
            item = item[:-1]
        key, field_kind = item[:-2], item[-1]
        text = given.pop(key, None)
        if text is None:
            if required:
                raise ProtocolError("field", kind)
            continue
        try:
            values[key] = _value(field_kind, text)
        except IndexError:
            raise ProtocolError("range", kind) from None
        except ValueError:
            raise ProtocolError("field", kind) from None
    # A key this version does not know is ignored, but its value is still written in the
    # token alphabet, which every kind of value uses.
    for text in given.values():
        if not _only(text, _TOKEN_CHARS):
            raise ProtocolError("field", kind)
    # Rules across fields of one host command.
    if schema is HOST_MESSAGES:
        if kind == "TRACK":
            length = values["len"]
            if not TRACK_MIN_LEN <= length <= TRACK_MAX_LEN or values["pos"] >= length:
                raise ProtocolError("range", kind)
        elif kind == "ALCH" and (("y" in values) != ("r" in values)):
            raise ProtocolError("field", kind)
    return kind, values


class LineSplitter:
    """Cuts a byte stream into lines at CR or LF; empty lines are dropped.

    An over-long line is returned cut to ``MAX_LINE + 1`` bytes (so `decode` rejects it with
    "long") and the rest of it, up to the next terminator, is discarded. Memory stays bounded.
    """

    def __init__(self) -> None:
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
                if len(buf) > MAX_LINE:
                    self._overflow = True
        return lines

    def pending(self) -> int:
        """Bytes of an unfinished line held back."""
        return len(self._buf)
