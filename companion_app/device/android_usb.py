"""The dice box on Android: USB host through usb4a and usbserial4a, behind the link's port.

Android has no serial device files an app may open: a USB device is found through the
UsbManager (usb4a), used only after the person allowed it in Android's dialog, and spoken to
through usbserial4a's CDC ACM driver. `android_usb_opener` is a `PortOpener` like pyserial's, so
the same `DiceLink` (handshake, heartbeats, reconnects, acknowledgements) runs above it. The
modules are imported only when used, so the rest of the app never needs them; tests pass fakes.

A dice box source on Android is named ``usb:<device name>`` (see `discovery`).
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
from collections.abc import Callable
from typing import Any, Final, Protocol

from companion_app.device.port import (
    PICO_MICROPYTHON_PID,
    PICO_MICROPYTHON_VID,
    READ_TIMEOUT_S,
    PortOpener,
    SerialPort,
)

USB_PREFIX: Final = "usb:"
BAUD: Final = 115200
"""CDC ACM ignores it, but usbserial4a's drivers want one."""


class UsbDevice(Protocol):
    """The part of Android's ``UsbDevice`` (through pyjnius) used here."""

    def getVendorId(self) -> int: ...  # noqa: N802 (Android's name)

    def getProductId(self) -> int: ...  # noqa: N802

    def getDeviceName(self) -> str: ...  # noqa: N802


class UsbHost(Protocol):
    """usb4a's ``usb`` module."""

    def get_usb_device_list(self) -> list[UsbDevice]: ...

    def has_usb_permission(self, device: UsbDevice) -> bool: ...

    def request_usb_permission(self, device: UsbDevice) -> Any: ...


class SerialDrivers(Protocol):
    """usbserial4a's ``serial4a`` module."""

    def get_serial_port(self, device_name: str, *args: Any, **kwargs: Any) -> Any: ...


def _usb4a() -> UsbHost:
    host: UsbHost = importlib.import_module("usb4a.usb")
    return host


def _serial4a() -> SerialDrivers:
    drivers: SerialDrivers = importlib.import_module("usbserial4a.serial4a")
    return drivers


def on_android() -> bool:
    """usb4a is there (python-for-android builds it in; no desktop has it)."""
    return importlib.util.find_spec("usb4a") is not None


def find_usb_boxes(host: Callable[[], UsbHost] = _usb4a) -> list[str]:
    """``usb:<device name>`` of every dice box on the USB host, sorted; [] off Android."""
    try:
        devices = host().get_usb_device_list()
    except ImportError:
        return []
    return sorted(USB_PREFIX + d.getDeviceName() for d in devices if _is_box(d))


def _is_box(device: UsbDevice) -> bool:
    return (device.getVendorId(), device.getProductId()) == (
        PICO_MICROPYTHON_VID,
        PICO_MICROPYTHON_PID,
    )


class UsbSerialPort:
    """usbserial4a's port as the link's `SerialPort`: whatever it raises when the cable goes
    (a ``USBError``, a Java exception through pyjnius) becomes the OSError the link expects."""

    def __init__(self, port: Any) -> None:
        self._port = port

    def read(self, size: int = 1) -> bytes:
        try:
            data = self._port.read(size)
        except Exception as exc:
            raise OSError(f"the dice box's USB port failed: {exc}") from exc
        return bytes(data or b"")

    def write(self, data: bytes, /) -> int | None:
        try:
            written = self._port.write(data)
        except Exception as exc:
            raise OSError(f"the dice box's USB port failed: {exc}") from exc
        return int(written) if written is not None else None

    def close(self) -> None:
        try:
            self._port.close()
        except Exception:  # closing a port whose device is gone: nothing left to do
            return


def android_usb_opener(
    host: Callable[[], UsbHost] = _usb4a,
    drivers: Callable[[], SerialDrivers] = _serial4a,
    *,
    read_timeout: float = READ_TIMEOUT_S,
) -> PortOpener:
    """Opens the first dice box on the USB host at each call (the link calls it again after an
    unplug). Android's permission dialog is asked for once per plugged-in box; until it is
    answered yes every attempt raises OSError, so the link keeps looking without asking again."""
    asked: set[str] = set()
    lock = threading.Lock()

    def open_port() -> SerialPort:
        try:
            usb, serial4a = host(), drivers()
        except ImportError as exc:
            raise OSError(f"no USB host support in this build ({exc.name})") from exc
        boxes = sorted(
            (d for d in usb.get_usb_device_list() if _is_box(d)), key=lambda d: d.getDeviceName()
        )
        if not boxes:
            with lock:
                asked.clear()  # a box plugged in again is asked for again
            raise OSError("no dice box on USB")
        box = boxes[0]
        name = box.getDeviceName()
        if not usb.has_usb_permission(box):
            with lock:
                first = name not in asked
                asked.add(name)
            if first:
                usb.request_usb_permission(box)
            raise OSError("waiting for permission to use the dice box (Android asks)")
        try:
            port = serial4a.get_serial_port(name, BAUD, 8, "N", 1, timeout=read_timeout)
        except Exception as exc:
            raise OSError(f"could not open the dice box on {name}: {exc}") from exc
        if port is None or not getattr(port, "is_open", True):
            raise OSError(f"could not open the dice box on {name}")
        return UsbSerialPort(port)

    return open_port
