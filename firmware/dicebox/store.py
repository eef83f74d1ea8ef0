"""The box's record in flash: unacknowledged rolls, the standalone track and the dice (their mode
and each deck mode's deck), across a reset.

One small text file, replaced whole: the new record is written to ``PATH.new`` and renamed over
``PATH`` (an atomic replace on the Pico's littlefs and on POSIX), so a power cut at any byte
leaves either the old record or the new one. The last line holds the CRC-16 of everything
before it; a record that does not check out is ignored (and reported as ``bad``), never
half-used. Wear: see firmware/README.md ("Rolls across a reset").

    DICEBOX 2
    track 3
    dice deck 1111...(36) 00000 0110...(36)  (mode, balanced deck, last 5 sums, deck: `dice.py`)
    roll 5EED0007 4 3 5 ship 1200 1 0      (boot, seq, yellow, red, event, t, off, alc)
    crc 1A2B

A record of version 1 (no ``dice`` line, ``DICEBOX 1``) still reads: its rolls and track are
kept, and the dice are fair with fresh decks.
"""

import os

from .protocol import EVENTS, crc16

MAGIC = "DICEBOX 2"
# a record: at most 64 rolls of at most 62 bytes and a dice line of 94; longer is not ours
MAX_BYTES = 4736


def roll_line(boot: str, seq: int, y: int, r: int, e: str, t: int, off: bool, alc: bool) -> bytes:
    """A roll's line in the record, with its line end."""
    return f"roll {boot} {seq} {y} {r} {e} {t} {1 if off else 0} {1 if alc else 0}\n".encode()


class StoredRoll:
    """A roll as kept in flash: its boot and the fields of its ROLL line."""

    def __init__(
        self, boot: str, seq: int, y: int, r: int, e: str, t: int, off: bool, alc: bool
    ) -> None:
        self.boot = boot
        self.seq = seq
        self.y = y
        self.r = r
        self.e = e
        self.t = t
        self.off = off
        self.alc = alc
        self.record = roll_line(boot, seq, y, r, e, t, off, alc)

    def text(self) -> str:
        return self.record[:-1].decode()


def parts(track: int, rolls: list, dice: "tuple | str" = "") -> list:
    """The record as the pieces it is written in, the CRC line last: no piece is a copy of the
    rolls' lines or of the decks (the heap is small and a whole record is one allocation of up
    to 4 KB). ``rolls`` have a ``record`` (their line); ``dice`` is `Dice.state_parts` (or its
    text, or nothing)."""
    out = [MAGIC.encode() + b"\ntrack %d\n" % track]
    if isinstance(dice, str):
        dice = (dice.encode() + b"\n",) if dice else ()
    out.extend(dice)
    for roll in rolls:
        out.append(roll.record)
    crc = 0xFFFF
    for piece in out:
        crc = crc16(piece, crc)
    out.append(b"crc %04X\n" % crc)
    return out


def encode(track: int, rolls: list, dice: "tuple | str" = "") -> bytes:
    """The record's bytes (see `parts`)."""
    return b"".join(parts(track, rolls, dice))


def _number(text: str, first: int, last: int) -> int:
    if not (0 < len(text) <= 9 and text.isdigit()):
        raise ValueError(text)
    value = int(text)
    if not first <= value <= last:
        raise ValueError(text)
    return value


def decode(data: bytes) -> tuple:
    """A record's bytes -> (track, [StoredRoll, ...], dice line or ""); ValueError if it is not a
    whole record. The dice line is checked by `Dice.restore`."""
    if len(data) > MAX_BYTES:
        raise ValueError("too long")
    cut = data.rfind(b"crc ")
    if cut < 0 or data[cut:] != b"crc %04X\n" % crc16(data[:cut]):
        raise ValueError("crc")
    lines = data[:cut].decode().split("\n")
    # "DICEBOX 1": a record from before the dice modes (no dice line)
    if lines[0] not in ("DICEBOX 2", "DICEBOX 1") or not lines[1].startswith("track "):
        raise ValueError("not a dice box record")
    track = _number(lines[1][6:], 0, 99)
    first = 2
    dice = ""
    if lines[0] == MAGIC and len(lines) > 2 and lines[2].startswith("dice "):
        dice = lines[2]
        first = 3
    rolls = []
    for line in lines[first:]:
        if not line:
            continue
        w = line.split(" ")
        if len(w) != 9 or w[0] != "roll" or w[5] not in EVENTS:
            raise ValueError("roll")
        if not (0 < len(w[1]) <= 16):
            raise ValueError("boot")
        rolls.append(
            StoredRoll(
                w[1],
                _number(w[2], 1, 999999999),
                _number(w[3], 1, 6),
                _number(w[4], 1, 6),
                w[5],
                _number(w[6], 0, 999999999),
                _number(w[7], 0, 1) == 1,
                _number(w[8], 0, 1) == 1,
            )
        )
    return track, rolls, dice


class Store:
    """The record at ``path`` (``path + ".new"`` while one is written)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.tmp = path + ".new"
        self.writes = 0  # records written since power-up
        self.bad = 0  # records found damaged at load (ignored)

    def load(self) -> tuple:
        """(track, rolls, dice line) from flash; (0, [], "") when there is no good record."""
        for path in (self.path, self.tmp):
            try:
                size = os.stat(path)[6]
            except OSError:
                continue  # no such file
            try:
                if size > MAX_BYTES:
                    raise ValueError("too long")  # not ours: never read
                # read at its size, not into a MAX_BYTES buffer: the heap is small
                with open(path, "rb") as f:
                    return decode(f.read(size))
            except OSError:
                continue
            except (ValueError, UnicodeError):
                self.bad += 1
        return 0, [], ""

    def _write(self, path: str, parts: list) -> None:
        """Write ``parts`` in turn as the whole of ``path`` (tests put a power cut in here)."""
        with open(path, "wb") as f:
            for piece in parts:
                f.write(piece)

    def save(self, track: int, rolls: list, dice: "tuple | str" = "") -> None:
        self._write(self.tmp, parts(track, rolls, dice))
        os.rename(self.tmp, self.path)
        self.writes += 1
