"""Roll button debouncing: act on the first edge, then lock out until the button is truly released.

The button is sampled (about every millisecond). The first sample that reads "pressed" while the
debouncer is ready is a press, with no waiting: contact bounce only ever happens *after* that first
edge. From then on every change is ignored until the input has read "released" without a break
for RELEASE_MS and at least LOCKOUT_MS have passed since the press, so neither the bounce on
pressing nor the bounce on letting go can make a second roll.
"""


class Debouncer:
    RELEASE_MS = 30  # the input must read released this long (no break) before the next press
    LOCKOUT_MS = 80  # and at least this long after the previous press

    def __init__(self, now_ms: int) -> None:
        # Start locked: a button already held at power-up is not a press.
        self._ready = False
        self._pressed_at = now_ms - self.LOCKOUT_MS
        self._released_since = None  # type: int | None
        self.presses = 0

    def update(self, pressed: bool, now_ms: int) -> bool:
        """Feed one sample of the input; True exactly when this sample starts a new press."""
        if self._ready:
            if pressed:
                self._ready = False
                self._pressed_at = now_ms
                self._released_since = None
                self.presses += 1
                return True
            return False
        if pressed:
            self._released_since = None
            return False
        if self._released_since is None:
            self._released_since = now_ms
        if (
            now_ms - self._released_since >= self.RELEASE_MS
            and now_ms - self._pressed_at >= self.LOCKOUT_MS
        ):
            self._ready = True
        return False
