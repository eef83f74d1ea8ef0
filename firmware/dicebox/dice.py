"""Fair dice: yellow d6, red d6 and the event die, from any source of random bits.

Faces are drawn by rejection sampling (draw the fewest bits that cover the range, redraw when the
value falls outside), so no face is favoured the way ``value % 6`` would favour some.
"""

try:
    from typing import Callable
except ImportError:  # MicroPython has no typing module; annotations are not evaluated there
    pass

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


class Dice:
    """The three dice of Cities & Knights. ``getrandbits(k)`` returns k uniform random bits."""

    def __init__(self, getrandbits: "Callable[[int], int]") -> None:
        self._bits = getrandbits
        self.draws = 0  # raw draws made, rejections included (for tests and benchmarks)

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
        """(yellow, red, event) for one press."""
        return self.d6(), self.d6(), self.event()
