"""Faults injected on the emulated wire, one decision per line, from a seeded generator."""

from __future__ import annotations

import random
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class FaultPlan:
    """Probabilities per line: ``drop`` it, send it twice (``dup``), put ``garbage`` bytes
    before it, ``corrupt`` one of its bytes. All zero: a clean wire."""

    drop: float = 0.0
    dup: float = 0.0
    garbage: float = 0.0
    corrupt: float = 0.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"fault {f.name}={value}: a probability is 0-1")

    @classmethod
    def parse(cls, text: str) -> FaultPlan:
        """``drop=0.02,dup=0.01,garbage=0.01,corrupt=0.01`` (any subset).

        :raises ValueError: an unknown fault or a value that is not a probability.
        """
        values: dict[str, float] = {}
        known = {f.name for f in fields(cls)}
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, eq, value = part.partition("=")
            if not eq or name not in known:
                raise ValueError(f"fault {part!r}: want one of {sorted(known)} as name=probability")
            values[name] = float(value)
        return cls(**values)

    @property
    def clean(self) -> bool:
        return not (self.drop or self.dup or self.garbage or self.corrupt)


@dataclass
class FaultCounts:
    dropped: int = 0
    duplicated: int = 0
    garbage: int = 0
    corrupted: int = 0


class FaultInjector:
    """Applies a plan to whole lines (terminator included) passing one way along the wire."""

    def __init__(self, plan: FaultPlan, seed: int | None) -> None:
        self.plan = plan
        self.counts = FaultCounts()
        self._rng = random.Random(seed)

    def apply(self, line: bytes) -> bytes:
        plan, rng = self.plan, self._rng
        if plan.clean:
            return line
        if rng.random() < plan.drop:
            self.counts.dropped += 1
            return b""
        out = line
        if rng.random() < plan.corrupt and len(line) > 2:
            self.counts.corrupted += 1
            body = bytearray(line.rstrip(b"\r\n"))
            i = rng.randrange(len(body))
            body[i] ^= 1 << rng.randrange(7) or 1
            out = bytes(body) + line[len(body) :]
        if rng.random() < plan.garbage:
            self.counts.garbage += 1
            junk = bytes(rng.choice(_JUNK) for _ in range(rng.randint(1, 40)))
            out = junk + out
        if rng.random() < plan.dup:
            self.counts.duplicated += 1
            out = out + out
        return out


# Line noise: mostly printable, some control bytes, CR and LF now and then, the odd high byte.
_JUNK = bytes(range(0x20, 0x7F)) * 2 + b"\r\n\x00\x03\x04\x1b\xff\xfe*="
