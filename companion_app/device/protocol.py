"""Protocol v1, host side: framing, CRC and the fields of every message (docs/protocol.md).

An implementation of its own (the firmware's codec is MicroPython code outside this package),
held to the same golden vectors in ``tests/protocol_vectors/``. Pure: no I/O, no clock.
"""

from __future__ import annotations

import binascii
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

PROTOCOL_VERSION: Final = 1
MAX_LINE: Final = 128
"""Bytes of one line without its terminator; anything longer is rejected as ``long``."""

EVENTS: Final = ("ship", "trade", "politics", "science")
TRACK_MIN_LEN: Final = 2
TRACK_MAX_LEN: Final = 16
DRAWS_NAMES: Final = 6
"""``SHOW draws=``: at most this many names, each of at most ``DRAWS_NAME_LEN`` characters,
joined by ``.`` (sent only to a box whose HELLO said ``draws=``)."""
DRAWS_NAME_LEN: Final = 10
DRAWS_LEN: Final = DRAWS_NAMES * (DRAWS_NAME_LEN + 1) - 1
DICE_MODES: Final = ("fair", "balanced", "deck")
"""The production dice's modes (``MODE dice=``, ``HELLO ... dice=``); a box without the modes
rolls fair dice."""

ErrorCode = Literal["long", "frame", "crc", "unknown", "field", "range"]

# Field kinds: u unsigned, d die face, e event face, b flag, x upper-case hex id, t token,
# m dice mode (a token that is one of DICE_MODES; what the box says of its mode is read as a
# token, so that a later firmware's mode is not a bad line), l a list of names (a token of up
# to DRAWS_LEN characters: SHOW's draws=).
Kind = Literal["u", "d", "e", "b", "x", "t", "m", "l"]
Spec = tuple[tuple[str, Kind, bool], ...]

DEVICE_MESSAGES: Final[Mapping[str, Spec]] = {
    "HELLO": (
        ("fw", "t", True),
        ("proto", "u", True),
        ("dev", "x", True),
        ("boot", "x", True),
        ("up", "u", True),
        ("unacked", "u", True),
        ("lost", "u", True),
        ("dice", "t", False),
        ("draws", "u", False),
    ),
    "ROLL": (
        ("seq", "u", True),
        ("y", "d", True),
        ("r", "d", True),
        ("e", "e", True),
        ("t", "u", True),
        ("off", "b", False),
        ("alc", "b", False),
        ("boot", "x", False),
    ),
    "OFFLINE": (("n", "u", True), ("first", "u", True), ("last", "u", True)),
    "HB": (("up", "u", True), ("last", "u", True), ("unacked", "u", True), ("armed", "b", True)),
    "PRESS": (("armed", "b", True), ("t", "u", True), ("full", "b", False)),
    "OK": (("cmd", "t", True), ("dice", "t", False)),
    "ERR": (("code", "t", True), ("cmd", "t", False), ("want", "x", False)),
    "PONG": (("n", "t", False),),
}
"""What the dice box sends."""

HOST_MESSAGES: Final[Mapping[str, Spec]] = {
    "HELLO": (("proto", "u", False), ("boots", "b", False)),
    "HB": (),
    "ACK": (("seq", "u", True), ("boot", "x", False)),
    "TRACK": (("pos", "u", True), ("len", "u", True), ("sea", "b", False)),
    "ATTACK": (),
    "ARM": (),
    "DISARM": (),
    "ALCH": (("y", "d", False), ("r", "d", False)),
    "LEDTEST": (),
    "PING": (("n", "t", False),),
    "SHOW": (("turn", "t", False), ("draw", "t", False), ("draws", "l", False)),
    "MODE": (("dice", "m", True),),
}
"""What a host sends."""

Value = int | str

_TOKEN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
_HEX_UPPER = frozenset("0123456789ABCDEF")
_HEX_ANY = frozenset(b"0123456789ABCDEFabcdef")
_DIGITS = frozenset("0123456789")
_CAPITALS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
_DIE_FACES = frozenset("123456")
_FLAGS = frozenset("01")


class ProtocolError(ValueError):
    """A line that cannot be accepted; ``code`` is the protocol's error code for it."""

    def __init__(self, code: ErrorCode, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code: ErrorCode = code
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Message:
    """One decoded line: its type and its known fields (unknown keys are left out)."""

    type: str
    fields: Mapping[str, Value] = field(default_factory=dict)

    def number(self, key: str) -> int:
        value = self.fields[key]
        assert isinstance(value, int), key
        return value

    def text(self, key: str) -> str:
        value = self.fields[key]
        assert isinstance(value, str), key
        return value

    def flag(self, key: str) -> bool:
        return self.fields.get(key, 0) == 1


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF (``123456789`` -> 0x29B1)."""
    return binascii.crc_hqx(data, 0xFFFF)


def frame(body: str) -> bytes:
    """The line for ``body``: body, ``*``, its CRC in upper-case hex, CR LF."""
    raw = body.encode("ascii")
    return b"%s*%04X\r\n" % (raw, crc16(raw))


def encode(kind: str, fields: Mapping[str, Value] | None = None) -> bytes:
    """A host command as a line, fields in the order the protocol lists them.

    :raises ProtocolError: ``unknown`` for a type a host does not send, ``field`` for a key the
        type does not have or a value that would not decode.
    """
    return _encode(kind, fields or {}, HOST_MESSAGES)


def encode_device(kind: str, fields: Mapping[str, Value] | None = None) -> bytes:
    """A device message as a line (for tests and the emulator's drawings of the wire).

    :raises ProtocolError: as :func:`encode`.
    """
    return _encode(kind, fields or {}, DEVICE_MESSAGES)


def _encode(kind: str, fields: Mapping[str, Value], schema: Mapping[str, Spec]) -> bytes:
    spec = schema.get(kind)
    if spec is None:
        raise ProtocolError("unknown", kind)
    known = {key for key, _kind, _required in spec}
    extra = set(fields) - known
    if extra:
        raise ProtocolError("field", f"{kind} has no {sorted(extra)}")
    parts = [kind]
    for key, value_kind, required in spec:
        if key not in fields:
            if required:
                raise ProtocolError("field", f"{kind} needs {key}")
            continue
        text = str(fields[key])
        _value(value_kind, text)
        parts.append(f"{key}={text}")
    return frame(" ".join(parts))


def unframe(line: bytes) -> str:
    """Check one line's length, characters and CRC (terminator removed); return its body.

    :raises ProtocolError: ``long``, ``frame`` or ``crc``.
    """
    if len(line) > MAX_LINE:
        raise ProtocolError("long", f"{len(line)} bytes")
    if any(byte < 0x20 or byte > 0x7E for byte in line):
        raise ProtocolError("frame", "byte outside printable ASCII")
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 5:
        raise ProtocolError("frame", "no *CCCC checksum")
    crc_text = line[star + 1 :]
    if any(byte not in _HEX_ANY for byte in crc_text):
        raise ProtocolError("frame", "checksum is not hex")
    body = line[:star]
    want = crc16(body)
    if int(crc_text, 16) != want:
        raise ProtocolError("crc", f"{want:04X}")
    return body.decode("ascii")


def _value(kind: Kind, text: str) -> Value:
    if kind in ("t", "m", "l"):
        if not (0 < len(text) <= (DRAWS_LEN if kind == "l" else 32) and set(text) <= _TOKEN):
            raise ProtocolError("field", text)
        if kind == "m" and text not in DICE_MODES:
            raise ProtocolError("range", text)
        return text
    if kind == "x":
        if 0 < len(text) <= 16 and set(text) <= _HEX_UPPER:
            return text
        raise ProtocolError("field", text)
    if kind == "e":
        if text in EVENTS:
            return text
        raise ProtocolError("field", text)
    if not (0 < len(text) <= 9 and set(text) <= _DIGITS):
        raise ProtocolError("field", text)
    # A die is one of the digits 1-6 and a flag 0 or 1, written as such: "01" is out of range.
    if (kind == "d" and text not in _DIE_FACES) or (kind == "b" and text not in _FLAGS):
        raise ProtocolError("range", text)
    return int(text)


def decode(  # noqa: PLR0912 - the document's checks in reading order, each its own refusal
    line: bytes, schema: Mapping[str, Spec] = DEVICE_MESSAGES
) -> Message:
    """One received line (no terminator) as a :class:`Message` checked against ``schema``.

    A host decodes with DEVICE_MESSAGES (the default); HOST_MESSAGES is for the other way.

    :raises ProtocolError: with the code the protocol gives for what is wrong.
    """
    tokens = unframe(line).split(" ")
    kind = tokens[0]
    if not (kind and set(kind) <= _CAPITALS):
        raise ProtocolError("frame", "bad message type")
    pairs: list[tuple[str, str]] = []
    for token in tokens[1:]:
        key, eq, text = token.partition("=")
        if not (key and eq and text):
            raise ProtocolError("frame", "field is not key=value")
        if not set(key) <= _LOWER:
            raise ProtocolError("frame", f"key {key!r} is not lower-case letters")
        pairs.append((key, text))
    spec = schema.get(kind)
    if spec is None:
        raise ProtocolError("unknown", kind)
    given: dict[str, str] = {}
    for key, text in pairs:
        if key in given:
            raise ProtocolError("field", f"{kind}: {key} twice")
        given[key] = text
    fields: dict[str, Value] = {}
    for key, value_kind, required in spec:
        given_text = given.pop(key, None)
        if given_text is None:
            if required:
                raise ProtocolError("field", f"{kind}: no {key}")
            continue
        fields[key] = _value(value_kind, given_text)
    for key, text in given.items():  # ignored, but still written in the token alphabet
        if not set(text) <= _TOKEN:
            raise ProtocolError("field", f"{kind}: {key}={text}")
    if schema is HOST_MESSAGES:
        _check_host(kind, fields)
    return Message(kind, fields)


def _check_host(kind: str, fields: Mapping[str, Value]) -> None:
    if kind == "TRACK":
        length, pos = fields["len"], fields["pos"]
        assert isinstance(length, int) and isinstance(pos, int)
        if not TRACK_MIN_LEN <= length <= TRACK_MAX_LEN or pos >= length:
            raise ProtocolError("range", kind)
    elif kind == "ALCH" and (("y" in fields) != ("r" in fields)):
        raise ProtocolError("field", kind)


class LineSplitter:
    """Cuts received bytes into lines at CR or LF, dropping empty lines.

    An over-long line comes out cut to ``MAX_LINE + 1`` bytes (so :func:`decode` rejects it as
    ``long``) and the rest of it is skipped: memory stays bounded whatever arrives.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data: bytes) -> list[bytes]:
        lines: list[bytes] = []
        buf = self._buf
        for byte in data:
            if byte in (10, 13):
                if self._overflow or buf:
                    lines.append(bytes(buf))
                self._overflow = False
                buf.clear()
            elif self._overflow:
                continue
            else:
                buf.append(byte)
                if len(buf) > MAX_LINE:
                    self._overflow = True
        return lines

    @property
    def pending(self) -> int:
        """Bytes of an unfinished line held back (never more than ``MAX_LINE + 1``)."""
        return len(self._buf)
