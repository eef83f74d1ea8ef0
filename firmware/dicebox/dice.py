"""The dice: yellow d6, red d6 and the event die, from any source of random bits, in one of three
modes for the two production dice (the event die is always fair and independent):

- ``fair``: two independent dice.
- ``deck``: the 36 (yellow, red) pairs as a deck of cards, drawn without replacement and
  reshuffled when 5 are left (the official Event Cards).
- ``balanced``: a deck of the 36 pairs reshuffled once fewer than 13 are left; the sum is chosen
  by its weight (the pairs of it left in the deck, cut by 30 % for each time it came in the last
  5 rolls), then one pair of that sum is drawn from the deck, so both dice come from a real pair.

Faces are drawn by rejection sampling (draw the fewest bits that cover the range, redraw when the
value falls outside), so no face is favoured the way ``value % 6`` would favour some. A roll
allocates nothing: the decks are bytearrays filled in place, the weights small integers.
"""

try:
    from typing import Any
except ImportError:  # MicroPython has no typing module; annotations are not evaluated there
    pass

from .protocol import DICE_MODES, EVENTS

_MASK = 0xFFFFFFFF


class Xoshiro128:
    """xoshiro128** 1.0: a small, fast 32-bit generator giving the same stream on every Python.

    Seeded from an integer on the host (reproducible rolls) and from 16 bytes of hardware
    entropy on the Pico.
    """

    def __init__(self, seed: int = 0, seed_bytes: bytes | None = None) -> None:
        if seed_bytes is not None:
            words = [
                int.from_bytes(seed_bytes[i * 4 : i * 4 + 4], "little") & _MASK for i in range(4)
            ]
        else:
            # splitmix32-style expansion of the integer seed into four state words
            words = []
            x = seed & _MASK
            for _ in range(4):
                x = (x + 0x9E3779B9) & _MASK
                z = x
                z = ((z ^ (z >> 16)) * 0x85EBCA6B) & _MASK
                z = ((z ^ (z >> 13)) * 0xC2B2AE35) & _MASK
                words.append(z ^ (z >> 16))
        if not (words[0] | words[1] | words[2] | words[3]):
            words[0] = 1  # the all-zero state is the one state xoshiro never leaves
        self._s = words

    def next32(self) -> int:
        s = self._s
        s0, s1, s2, s3 = s[0], s[1], s[2], s[3]
        x = (s1 * 5) & _MASK
        result = ((((x << 7) | (x >> 25)) & _MASK) * 9) & _MASK
        t = (s1 << 9) & _MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 11) | (s3 >> 21)) & _MASK
        s[0], s[1], s[2], s[3] = s0, s1, s2, s3
        return result

    def getrandbits(self, k: int) -> int:
        """k uniformly random bits, 1 <= k <= 32."""
        return self.next32() >> (32 - k)


# The modes are indexes of DICE_MODES: 0 fair, 1 balanced, 2 deck (written as numbers: on
# MicroPython every module-level name is a qstr, and the firmware keeps under 300 of them).
_PAIRS = 36  # card i is the pair (yellow i // 6 + 1, red i % 6 + 1)
# 0.7 ** k as integers (x 100,000): the cut of a sum that came k times in the last 5 rolls.
_CUT = (100000, 70000, 49000, 34300, 24010, 16807)
# Balanced's last sums are kept as these characters (0: none yet). Bytes: a character taken from a
# str is interned on MicroPython (a qstr each), a byte is a small int.
_SUMS = b"0123456789ABC"


class Dice:
    """The three dice of Cities & Knights. ``getrandbits(k)`` returns k uniform random bits.

    ``mode`` is an index into `DICE_MODES`. Each deck mode keeps its own deck whatever the current
    mode: ``balanced`` and ``deck`` hold ``1`` for each card still in it and ``0`` for each
    drawn, as the characters the flash record shows; ``recent`` holds balanced's last 5 sums,
    oldest first, as characters of ``0123456789ABC`` (``0``: none yet)."""

    def __init__(self, getrandbits: "Any") -> None:  # (k) -> k random bits
        self._bits = getrandbits
        self.draws = 0  # raw draws made, rejections included (for tests and benchmarks)
        self.mode = 0  # fair
        self.balanced = bytearray(b"1" * _PAIRS)
        self.deck = bytearray(b"1" * _PAIRS)
        self.recent = bytearray(b"00000")
        self.left = bytearray(13)  # balanced: the pairs of each sum left (`count_sums`)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), 1 <= n <= 2**32, by rejection."""
        k = 1
        while (1 << k) < n:
            k += 1
        while n > 1:
            self.draws += 1
            value = self._bits(k)
            if value < n:
                return value
        return 0

    def event(self) -> str:
        return EVENTS[max(0, self.below(6) - 2)]  # faces 0-2 ship, 3-5 the three castles

    def roll(self) -> tuple:
        """(yellow, red, event) for one press, the production dice by the mode. Fair draws
        yellow, red, event, as the box always has; a deck mode draws a card (a pair), then the
        event die."""
        mode = self.mode
        if mode == 0:  # fair
            return self.below(6) + 1, self.below(6) + 1, self.event()
        cards = self.deck if mode == 2 else self.balanced
        n = 0
        for c in cards:
            n += c - 48
        # deck: reshuffled when 5 cards are left; balanced: once fewer than 13 are left
        if n <= 5 or (mode == 1 and n < 13):
            for i in range(_PAIRS):
                cards[i] = 49  # reshuffled: every card back
            n = _PAIRS
        total = 0  # deck: any card; balanced: a card of the sum chosen by weight
        if mode == 1:  # balanced
            self.count_sums()
            pick = 0
            for total in range(2, 13):
                pick += self.weight(total)
            pick = self.below(pick)
            total = 2
            while True:
                pick -= self.weight(total)
                if pick < 0:
                    break
                total += 1
            n = self.left[total]
            recent = self.recent
            for i in range(4):
                recent[i] = recent[i + 1]
            recent[4] = _SUMS[total]
        k = self.below(n)
        card = 0
        for card in range(_PAIRS):
            if cards[card] == 49 and (not total or card // 6 + card % 6 + 2 == total):
                if not k:
                    break
                k -= 1
        cards[card] = 48
        return card // 6 + 1, card % 6 + 1, self.event()

    def count_sums(self) -> None:
        """Balanced: ``left`` = the pairs of each sum left in its deck."""
        left = self.left
        for total in range(13):
            left[total] = 0
        cards = self.balanced
        for i in range(_PAIRS):
            if cards[i] == 49:
                left[i // 6 + i % 6 + 2] += 1

    def weight(self, total: int) -> int:
        """Balanced: the sum's weight (x 100,000): the pairs of it left (`count_sums`), cut by
        30 % per time it came in the last 5 rolls. The common divisor, the cards left, is left
        out: only the weights' ratios count."""
        came = 0
        mark = _SUMS[total]
        for s in self.recent:
            if s == mark:
                came += 1
        return self.left[total] * _CUT[came]

    # ---- kept across a reset ----------------------------------------------------------------
    def state_text(self) -> str:
        """The mode and both decks as one line of the flash record: ``dice <mode> <balanced's
        deck> <its last 5 sums> <deck>`` (decks as 36 x 0/1, in card order)."""
        balanced, recent = str(self.balanced, "ascii"), str(self.recent, "ascii")
        return f"dice {DICE_MODES[self.mode]} {balanced} {recent} {str(self.deck, 'ascii')}"

    def state_parts(self) -> tuple:
        """`state_text` with its line end, as the pieces the record is written in: the decks
        themselves, no copy."""
        mode = DICE_MODES[self.mode].encode()
        return (b"dice ", mode, b" ", self.balanced, b" ", self.recent, b" ", self.deck, b"\n")

    def restore(self, text: str) -> None:
        """Take back a `state_text` line; ValueError (and nothing changed) if it is not one."""
        w = text.split(" ")
        ok = len(w) == 5 and w[0] == "dice" and w[1] in DICE_MODES and len(w[3]) == 5
        ok = ok and len(w[2]) == len(w[4]) == _PAIRS and "1" in w[2] and "1" in w[4]
        for c in (w[2] + w[4]).encode() if ok else b"":
            ok = ok and c in b"01"
        for c in w[3].encode() if ok else b"":
            ok = ok and c in _SUMS and c != 49  # "1": no sum is 1
        if not ok:
            raise ValueError("dice")
        self.mode = DICE_MODES.index(w[1])
        self.balanced[:] = w[2].encode()
        self.recent[:] = w[3].encode()
        self.deck[:] = w[4].encode()
