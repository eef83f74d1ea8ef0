"""What every way of reaching a dice box shares: the box's USB id and the port the link reads.

Below the link (:mod:`link`), the serial ports' discovery (:mod:`discovery`) and Android's USB
host (:mod:`android_usb`): each of them uses these, and the link and discovery reach Android's
module only when a ``usb:`` box is asked for, so the three import one way.
"""

from __future__ import annotations

from typing import Final, Protocol

PICO_MICROPYTHON_VID: Final = 0x2E8A
PICO_MICROPYTHON_PID: Final = 0x0005
"""MicroPython's USB id on the Raspberry Pi Pico: what a dice box enumerates as."""

READ_TIMEOUT_S: Final = 0.05
"""A read returns after this long with nothing, so heartbeats go out on time."""


class SerialPort(Protocol):
    """What the link needs of an open port. ``read`` must return within about 0.1 s (b"" if
    nothing came) and raise OSError (pyserial's SerialException is one) once the port is gone."""

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


class PortOpener(Protocol):
    """Opens the port anew on every call; raises OSError when there is nothing to open."""

    def __call__(self) -> SerialPort: ...
