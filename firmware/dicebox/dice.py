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
    from typing import Callable
except ImportError:  # MicroPython has no typing module; annotations are not evaluated there
    pass

from .protocol import DICE_MODES as MODES
from .protocol import EVENT_FACES

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


FAIR, BALANCED, DECK = 0, 1, 2
PAIRS = 36  # card i is the pair (yellow i // 6 + 1, red i % 6 + 1)
DECK_RESHUFFLE_AT = 5  # deck: reshuffled when this many cards are left
BALANCED_RESHUFFLE_BELOW = 13  # balanced: reshuffled once fewer than this many are left
RECENT = 5  # balanced: a sum's weight is cut for each time it came in this many last rolls
# 0.7 ** k as integers (x 100,000): the weight of a sum that came k times in the last 5 rolls.
_CUT = (100000, 70000, 49000, 34300, 24010, 16807)


class Dice:
    """The three dice of Cities & Knights. ``getrandbits(k)`` returns k uniform random bits.

    ``mode`` is an index into `MODES`; each deck mode keeps its own deck (``balanced``, ``deck``:
    1 = the card is still in the deck) whatever the current mode, and ``recent`` holds the last
    5 balanced sums, oldest first (0: none yet)."""

    def __init__(self, getrandbits: "Callable[[int], int]") -> None:
        self._bits = getrandbits
        self.draws = 0  # raw draws made, rejections included (for tests and benchmarks)
        self.mode = FAIR
        self.balanced = bytearray(b"\x01" * PAIRS)
        self.deck = bytearray(b"\x01" * PAIRS)
        self.recent = bytearray(RECENT)
        self.left_by_sum = bytearray(13)  # balanced: pairs of each sum left (scratch)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), 2 <= n <= 2**32, by rejection."""
        k = 1
        while (1 << k) < n:
            k += 1
        while True:
            self.draws += 1
            value = self._bits(k)
            if value < n:
                return value

    def d6(self) -> int:
        return self.below(6) + 1

    def event(self) -> str:
        return EVENT_FACES[self.below(6)]

    def roll(self) -> tuple:
        """(yellow, red, event) for one press, the production dice by the mode."""
        if self.mode == FAIR:
            return self.d6(), self.d6(), self.event()
        card = self._balanced_card() if self.mode == BALANCED else self._deck_card()
        return card // 6 + 1, card % 6 + 1, self.event()

    # ---- the decks --------------------------------------------------------------------------
    def _draw(self, cards: bytearray, k: int, total: int) -> int:
        """Take the ``k``-th card (0-based, in card order) of those still in ``cards`` whose sum
        is ``total`` (any sum when ``total`` is 0); returns its index."""
        for i in range(PAIRS):
            if cards[i] and (total == 0 or i // 6 + i % 6 + 2 == total):
                if k == 0:
                    cards[i] = 0
                    return i
                k -= 1
        raise ValueError("no such card")  # not reached: k is below the count

    def _deck_card(self) -> int:
        cards = self.deck
        if _count(cards) <= DECK_RESHUFFLE_AT:
            _refill(cards)
        return self._draw(cards, self.below(_count(cards)), 0)

    def weight(self, total: int) -> int:
        """Balanced: the weight of the sum ``total`` now (x 100,000; the pairs of it left times
        0.7 per time it came in the last 5 rolls). Relative weights: the common divisor, the
        cards left, is left out. Call `count_sums` first."""
        came = 0
        for s in self.recent:
            if s == total:
                came += 1
        return self.left_by_sum[total] * _CUT[came]

    def count_sums(self) -> None:
        """Balanced: fill ``left_by_sum`` with the pairs of each sum left in its deck."""
        left = self.left_by_sum
        for total in range(13):
            left[total] = 0
        cards = self.balanced
        for i in range(PAIRS):
            if cards[i]:
                left[i // 6 + i % 6 + 2] += 1

    def _balanced_card(self) -> int:
        cards = self.balanced
        if _count(cards) < BALANCED_RESHUFFLE_BELOW:
            _refill(cards)
        self.count_sums()
        whole = 0
        for total in range(2, 13):
            whole += self.weight(total)
        pick = self.below(whole)
        total = 2
        while True:
            pick -= self.weight(total)
            if pick < 0:
                break
            total += 1
        same = self.left_by_sum[total]
        card = self._draw(cards, self.below(same) if same > 1 else 0, total)
        recent = self.recent
        for i in range(RECENT - 1):
            recent[i] = recent[i + 1]
        recent[RECENT - 1] = total
        return card

    # ---- kept across a reset ----------------------------------------------------------------
    def state_text(self) -> str:
        """The mode and both decks as one line of the flash record:
        ``dice <mode> <balanced deck, 36 x 0/1> <last 5 sums, hex> <deck, 36 x 0/1>``."""
        recent = "".join("0123456789ABC"[s] for s in self.recent)
        return f"dice {MODES[self.mode]} {_bits(self.balanced)} {recent} {_bits(self.deck)}"

    def restore(self, text: str) -> None:
        """Take back a `state_text` line; ValueError (and nothing changed) if it is not one."""
        w = text.split(" ")
        if len(w) != 5 or w[0] != "dice" or w[1] not in MODES or len(w[3]) != RECENT:
            raise ValueError("dice")
        balanced, deck = _cards(w[2]), _cards(w[4])
        recent = bytearray(RECENT)
        for i in range(RECENT):
            s = "0123456789ABC".find(w[3][i])
            if s == 1 or s < 0:
                raise ValueError("dice")
            recent[i] = s
        self.mode = MODES.index(w[1])
        self.balanced[:] = balanced
        self.deck[:] = deck
        self.recent[:] = recent


def _count(cards: bytearray) -> int:
    n = 0
    for c in cards:
        n += c
    return n


def _refill(cards: bytearray) -> None:
    for i in range(PAIRS):
        cards[i] = 1


def _bits(cards: bytearray) -> str:
    return "".join("1" if c else "0" for c in cards)


def _cards(text: str) -> bytearray:
    if len(text) != PAIRS:
        raise ValueError("dice")
    cards = bytearray(PAIRS)
    for i in range(PAIRS):
        if text[i] == "1":
            cards[i] = 1
        elif text[i] != "0":
            raise ValueError("dice")
    if not _count(cards):
        raise ValueError("dice")
    return cards
