"""Finding a plugged-in dice box among the serial ports.

A Pico running MicroPython enumerates as USB CDC with the Raspberry Pi vendor id and
MicroPython's product id (2E8A:0005). An explicit port always wins.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from companion_app.device.port import PICO_MICROPYTHON_PID, PICO_MICROPYTHON_VID


class PortInfo(Protocol):
    """The part of pyserial's ``ListPortInfo`` discovery looks at."""

    device: str
    vid: int | None
    pid: int | None
    product: str | None


@dataclass(frozen=True)
class DiceSource:
    """Where rolls come from: a dice box on a serial port, or the virtual dice."""

    port: str | None

    @property
    def is_virtual(self) -> bool:
        return self.port is None

    def describe(self) -> str:
        if self.port is None:
            return "Virtual dice (no dice box plugged in)"
        return f"Dice box on {self.port}"


def is_dice_box(port: PortInfo) -> bool:
    """A port looks like a dice box: MicroPython's rp2 USB id, or its product string."""
    if port.vid == PICO_MICROPYTHON_VID and port.pid == PICO_MICROPYTHON_PID:
        return True
    return bool(port.product and "MicroPython" in port.product and port.vid == PICO_MICROPYTHON_VID)


def _serial_ports() -> Iterable[PortInfo]:
    from serial.tools import list_ports  # type: ignore[import-untyped]

    ports: list[PortInfo] = list_ports.comports()
    return ports


def find_dice_boxes(list_ports: Callable[[], Iterable[PortInfo]] = _serial_ports) -> list[str]:
    """Device paths of every plugged-in dice box, sorted."""
    return sorted(p.device for p in list_ports() if is_dice_box(p))


def choose_dice_source(
    explicit_port: str | None = None,
    *,
    force_virtual: bool = False,
    list_ports: Callable[[], Iterable[PortInfo]] = _serial_ports,
) -> DiceSource:
    """The dice source the app starts with: an explicit port, else the first dice box found,
    else the virtual dice, so the app always runs."""
    if force_virtual:
        return DiceSource(None)
    if explicit_port:
        return DiceSource(explicit_port)
    boxes = find_dice_boxes(list_ports)
    if not boxes:  # Android: no serial ports to list, a box on the USB host (``usb:...``)
        from companion_app.device.android_usb import find_usb_boxes

        boxes = find_usb_boxes()
    return DiceSource(boxes[0] if boxes else None)
