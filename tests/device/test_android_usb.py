"""Android: the USB host transport (usb4a and usbserial4a faked) under the same dice link, and the
start-up (python-for-android's storage and Android's display metrics faked).

The fakes follow the modules' published interfaces: usb4a's ``usb.get_usb_device_list``,
``has_usb_permission``, ``request_usb_permission``; usbserial4a's
``serial4a.get_serial_port(name, baudrate, bytesize, parity, stopbits, timeout=...)``
returning a pyserial-like port. The fake port is a real pyserial port on the emulated box, so
the link's handshake and a roll go through the Android path end to end.
"""

from __future__ import annotations

import queue
import sys
import time
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import serial

from companion_app.app import android_start
from companion_app.device import android_usb, discovery, link
from companion_app.device.android_usb import android_usb_opener, find_usb_boxes
from companion_app.device.box_state import BoxState
from companion_app.device.discovery import DiceSource, choose_dice_source
from companion_app.device.events import Connected, LinkEvent, RollArrived
from companion_app.device.link import DiceLink
from companion_app.emulator.box import Emulator


@dataclass
class Device:
    vid: int
    pid: int
    name: str

    def getVendorId(self) -> int:
        return self.vid

    def getProductId(self) -> int:
        return self.pid

    def getDeviceName(self) -> str:
        return self.name


BOX = Device(0x2E8A, 0x0005, "/dev/bus/usb/001/004")
OTHER_PICO = Device(0x2E8A, 0x000A, "/dev/bus/usb/001/002")  # a Pico in another firmware
KEYBOARD = Device(0x046D, 0xC31C, "/dev/bus/usb/001/003")


@dataclass
class Usb:
    """usb4a's ``usb``: the plugged-in devices and what Android has allowed."""

    devices: list[Device] = field(default_factory=list)
    allowed: set[str] = field(default_factory=set)
    asked: list[str] = field(default_factory=list)

    def get_usb_device_list(self) -> list[Device]:
        return list(self.devices)

    def has_usb_permission(self, device: Device) -> bool:
        return device.name in self.allowed

    def request_usb_permission(self, device: Device) -> None:
        self.asked.append(device.name)


class FlakyPort:
    """A port whose device was unplugged: usbserial4a raises whatever Java raised."""

    is_open = True

    def read(self, size: int = 1) -> bytes:
        raise RuntimeError("JavaException: device gone")

    def write(self, data: bytes) -> int:
        raise RuntimeError("JavaException: device gone")

    def close(self) -> None:
        raise RuntimeError("JavaException: already closed")


@dataclass
class Drivers:
    """usbserial4a's ``serial4a``: opens ``ports[name]()``, recording the call."""

    ports: dict[str, Callable[[], Any]] = field(default_factory=dict)
    opened: list[tuple[Any, ...]] = field(default_factory=list)

    def get_serial_port(self, device_name: str, *args: Any, **kwargs: Any) -> Any:
        self.opened.append((device_name, *args, tuple(sorted(kwargs.items()))))
        if device_name not in self.ports:
            raise RuntimeError("USBError: Device does not exist!")
        return self.ports[device_name]()


def opener(usb: Usb, drivers: Drivers) -> link.PortOpener:
    return android_usb_opener(lambda: usb, lambda: drivers)


def test_only_the_dice_box_is_found_by_its_usb_id() -> None:
    usb = Usb([KEYBOARD, BOX, OTHER_PICO])
    assert find_usb_boxes(lambda: usb) == ["usb:/dev/bus/usb/001/004"]
    assert find_usb_boxes(lambda: Usb([KEYBOARD])) == []


def test_off_android_there_is_no_usb_host() -> None:
    assert not android_usb.on_android()
    assert find_usb_boxes() == []
    with pytest.raises(OSError, match=r"no USB host support in this build \(usb4a\)"):
        android_usb_opener()()


def test_permission_is_asked_once_per_plug_in_and_the_port_opened_after() -> None:
    usb, drivers = Usb([BOX]), Drivers({BOX.name: FlakyPort})
    open_port = opener(usb, drivers)
    for _attempt in range(3):  # the link tries again and again: one dialog only
        with pytest.raises(OSError, match="waiting for permission"):
            open_port()
    assert usb.asked == [BOX.name] and drivers.opened == []
    usb.devices = []  # unplugged before anyone answered
    with pytest.raises(OSError, match="no dice box on USB"):
        open_port()
    usb.devices = [BOX]  # plugged in again: asked again
    with pytest.raises(OSError, match="waiting for permission"):
        open_port()
    assert usb.asked == [BOX.name, BOX.name]
    usb.allowed.add(BOX.name)
    port = open_port()
    assert drivers.opened == [(BOX.name, 115200, 8, "N", 1, (("timeout", 0.05),))]
    assert isinstance(port, android_usb.UsbSerialPort)


def test_what_the_usb_port_raises_becomes_the_oserror_the_link_expects() -> None:
    usb, drivers = Usb([BOX], {BOX.name}), Drivers({BOX.name: FlakyPort})
    port = opener(usb, drivers)()
    with pytest.raises(OSError, match="device gone"):
        port.read(64)
    with pytest.raises(OSError, match="device gone"):
        port.write(b"x")
    port.close()  # a port already gone closes quietly
    drivers.ports.clear()
    with pytest.raises(OSError, match="could not open the dice box on /dev/bus/usb/001/004"):
        opener(usb, drivers)()
    drivers.ports[BOX.name] = lambda: None
    with pytest.raises(OSError, match="could not open the dice box"):
        opener(usb, drivers)()


@pytest.fixture
def emulated_box() -> Iterator[Emulator]:
    with Emulator(seed=5) as box:
        yield box


def next_event(events: queue.Queue[LinkEvent], kind: type, timeout: float = 10.0) -> LinkEvent:
    deadline = time.monotonic() + timeout
    while True:
        event = events.get(timeout=max(0.01, deadline - time.monotonic()))
        if isinstance(event, kind):
            return event


def test_the_link_rolls_through_the_android_transport(emulated_box: Emulator) -> None:
    """The same DiceLink above the USB transport: handshake, a roll, its acknowledgement."""

    def pyserial_port() -> serial.Serial:
        return serial.Serial(emulated_box.port, 115200, timeout=0.05, write_timeout=1.0)

    usb, drivers = Usb([BOX], {BOX.name}), Drivers({BOX.name: pyserial_port})
    events: queue.Queue[LinkEvent] = queue.Queue()
    dice = DiceLink(opener(usb, drivers), events.put)
    dice.start()
    try:
        connected = next_event(events, Connected)
        assert isinstance(connected, Connected) and connected.info.boot_id == "00050000"
        dice.want(BoxState((0, 8), True, None, "Red", (), 0))  # a roll is due
        deadline = time.monotonic() + 10
        while not dice.state_confirmed and time.monotonic() < deadline:
            time.sleep(0.01)
        emulated_box.press()
        arrived = next_event(events, RollArrived)
        assert isinstance(arrived, RollArrived) and arrived.roll.seq == 1
        dice.acknowledge(arrived.roll)
    finally:
        dice.close()


@pytest.fixture
def android_modules(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Usb:
    """Fake ``usb4a``, ``usbserial4a``, ``android.storage`` and ``jnius`` as Android has them."""
    usb = Usb([BOX], {BOX.name})
    modules = {
        "usb4a": types.ModuleType("usb4a"),
        "usb4a.usb": usb,
        "usbserial4a": types.ModuleType("usbserial4a"),
        "usbserial4a.serial4a": Drivers({BOX.name: FlakyPort}),
        "android": types.ModuleType("android"),
        "android.storage": types.SimpleNamespace(
            app_storage_path=lambda: str(tmp_path / "private")
        ),
        "jnius": types.SimpleNamespace(autoclass=lambda _name: Activity),
    }
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setattr(android_usb.importlib.util, "find_spec", lambda name: object())
    return usb


class Metrics:
    """A 10.4" 2000x1200 tablet: 224 dots per inch on both axes (226.8 x 136.1 mm)."""

    widthPixels = 2000
    heightPixels = 1200
    xdpi = 224.0
    ydpi = 224.0


class Activity:
    class mActivity:
        @staticmethod
        def getResources() -> Any:
            return types.SimpleNamespace(getDisplayMetrics=lambda: Metrics)


def test_on_android_discovery_finds_the_box_on_usb_and_the_link_opens_it(
    android_modules: Usb,
) -> None:
    assert android_usb.on_android()
    source = choose_dice_source(list_ports=list)  # no serial ports on Android
    assert source == DiceSource("usb:/dev/bus/usb/001/004")
    port = link.discovery_opener(source.port)()
    assert isinstance(port, android_usb.UsbSerialPort)
    android_modules.devices = []
    assert choose_dice_source(list_ports=list) == DiceSource(None)  # the virtual dice
    assert discovery.choose_dice_source(list_ports=list).is_virtual


def test_android_start_up_puts_the_journal_in_private_storage_and_sizes_by_the_glass(
    android_modules: Usb, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    started: dict[str, Any] = {}

    def run_app(dice: DiceSource, **kwargs: Any) -> int:
        started.update(kwargs, dice=dice)
        return 0

    monkeypatch.setattr("companion_app.app.main.run_app", run_app)
    monkeypatch.setattr(discovery, "_serial_ports", list)
    assert android_start.main() == 0
    assert started["journal_path"] == tmp_path / "private" / "journal.sqlite3"
    assert (tmp_path / "private").is_dir()
    assert started["dice"] == DiceSource("usb:/dev/bus/usb/001/004")
    assert (started["width"], started["height"], started["fullscreen"]) == (2000, 1200, True)
    density = started["density"]
    # 224 dpi = 8.82 px/mm: 44 dp = 7 mm needs 61.7 px, a density of 1.403.
    assert density.rule == "physical"
    assert density.value == pytest.approx(7.0 * 224 / 25.4 / 44, rel=1e-3)
    assert "226.8x136.1 mm (Android's display metrics)" in density.why


def test_android_without_dpi_falls_back_to_the_window_rule(tmp_path: Path) -> None:
    class NoDpi(Metrics):
        xdpi = 0.0

    start = android_start.prepare(lambda: str(tmp_path), lambda: NoDpi, lambda: DiceSource(None))
    assert (start.density.rule, start.density.value) == ("window", 1.5)
    assert start.journal == tmp_path / "journal.sqlite3"
