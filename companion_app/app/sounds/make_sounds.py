"""Writes the sound cues as small 8 kHz 8-bit mono WAV files next to this file.

``python -m companion_app.app.sounds.make_sounds``: the files are deterministic (a fixed seed for
the dice's rattle), so remaking them changes nothing unless this script changes.
"""

from __future__ import annotations

import math
import random
import wave
from collections.abc import Iterable
from pathlib import Path

RATE = 8000
HERE = Path(__file__).resolve().parent


def _tone(freq: float, seconds: float, volume: float = 0.6, decay: float = 3.0) -> list[float]:
    n = int(RATE * seconds)
    return [
        volume * math.exp(-decay * i / n) * math.sin(2 * math.pi * freq * i / RATE)
        for i in range(n)
    ]


def _silence(seconds: float) -> list[float]:
    return [0.0] * int(RATE * seconds)


def _rattle(seconds: float, rng: random.Random) -> list[float]:
    """Dice on a table: short noise bursts, closer together towards the end."""
    out = _silence(seconds)
    t = 0.0
    gap = 0.09
    while t < seconds - 0.03:
        start = int(t * RATE)
        for i in range(int(0.018 * RATE)):
            if start + i < len(out):
                out[start + i] += rng.uniform(-0.7, 0.7) * math.exp(-i / (0.004 * RATE))
        t += gap * rng.uniform(0.6, 1.2)
        gap *= 0.85
    return out


def _mix(*parts: Iterable[float]) -> list[float]:
    out: list[float] = []
    for part in parts:
        out.extend(part)
    return out


def _write(name: str, samples: list[float]) -> Path:
    path = HERE / name
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(1)
        wav.setframerate(RATE)
        wav.writeframes(bytes(int(128 + 127 * max(-1.0, min(1.0, s))) for s in samples))
    return path


def make_all() -> list[Path]:
    rng = random.Random(20261123)
    return [
        _write("roll.wav", _rattle(0.45, rng)),
        # The ship: a low horn, rising a little.
        _write("ship.wav", _mix(_tone(196, 0.35, decay=1.0), _tone(220, 0.3, decay=2.5))),
        # An attack: three drum beats.
        _write(
            "attack.wav",
            _mix(*(_mix(_tone(90, 0.16, 0.9, 6.0), _silence(0.06)) for _ in range(3))),
        ),
        # A 7: two falling notes (the robber may move).
        _write("seven.wav", _mix(_tone(660, 0.18, decay=2.0), _tone(440, 0.3, decay=3.0))),
    ]


if __name__ == "__main__":
    for written in make_all():
        print(written.name, written.stat().st_size, "bytes")
