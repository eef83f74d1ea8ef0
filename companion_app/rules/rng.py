"""A tiny seeded random generator whose whole state is one integer.

The game's internal randomness (which card a steal takes, deck shuffles) comes from here, and
its state is part of the game state's JSON, so replaying the same actions reproduces the same
game. SplitMix64: fast, good enough for games, trivially serialisable.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

_TWO_64 = 1 << 64
_MASK = _TWO_64 - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX_1 = 0xBF58476D1CE4E5B9
_MIX_2 = 0x94D049BB133111EB
T = TypeVar("T")
_SMALL = 256
_LIMITS = tuple(_TWO_64 - _TWO_64 % n if n else 0 for n in range(_SMALL))
"""Per n below :data:`_SMALL`, the rejection limit of :meth:`SplitMix64.below`."""


class SplitMix64:
    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * _MIX_1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX_2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias (rejection sampling).

        :raises ValueError: if n < 1.
        """
        if n < _SMALL:
            if n < 1:
                raise ValueError(f"below() needs n >= 1, got {n}")
            limit = _LIMITS[n]
        else:
            limit = _TWO_64 - _TWO_64 % n
        state = self.state
        mask = _MASK
        while True:  # next64, inlined: most random choices of a game come through here
            state = (state + _GAMMA) & mask
            z = ((state ^ (state >> 30)) * _MIX_1) & mask
            z = ((z ^ (z >> 27)) * _MIX_2) & mask
            z ^= z >> 31
            if z < limit:
                self.state = state
                return z % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
