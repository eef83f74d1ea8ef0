"""How long a scripted step waits for the app before it gives up (the tour, the UI scenarios).

A wait counted only in frames is too short in time when frames are cheap: with no frame cap
an idle app turns hundreds of frames a second, while a roll through the emulated dice box
arrives from another thread in wall-clock time, later on a busy machine. A wait therefore
ends in failure only when it has lasted both ``frames`` frames and ``seconds`` seconds: a hang
is still reported, and a slow machine is not mistaken for one.
"""

from __future__ import annotations

import time
from collections.abc import Callable

WAIT_FRAMES = 600
"""The fewest frames a step waits for the app (a roll through the emulated box takes a few)."""

WAIT_SECONDS = 60.0
"""The fewest seconds a step waits for the app (a loaded machine starves the box's thread)."""


class WaitBudget:
    """What is left of one step's wait for the app."""

    def __init__(
        self,
        frames: int = WAIT_FRAMES,
        seconds: float = WAIT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._frames = frames
        self._clock = clock
        self._deadline = clock() + seconds

    def spend_frame(self) -> bool:
        """Count one more frame of waiting; False once both the frames and the time are spent."""
        self._frames -= 1
        return self._frames > 0 or self._clock() < self._deadline
