"""Finding the dice box among serial ports, and the fallback to virtual dice."""

from __future__ import annotations

from dataclasses import dataclass

from companion_app.device.discovery import choose_dice_source, find_dice_boxes, is_dice_box


@dataclass
class FakePort:
    device: str
    vid: int | None = None
    pid: int | None = None
    product: str | None = None


PICO = FakePort("/dev/ttyACM1", 0x2E8A, 0x0005, "Board in FS mode")
ARDUINO = FakePort("/dev/ttyACM0", 0x2341, 0x0043, "Arduino Uno")
BUILTIN = FakePort("/dev/ttyS0")


def test_pico_with_micropython_usb_id_is_a_dice_box() -> None:
    assert is_dice_box(PICO)
    assert not is_dice_box(ARDUINO)
    assert not is_dice_box(BUILTIN)


def test_finds_only_dice_boxes_sorted() -> None:
    other_pico = FakePort("/dev/ttyACM0", 0x2E8A, 0x0005, None)
    assert find_dice_boxes(lambda: [ARDUINO, PICO, BUILTIN, other_pico]) == [
        "/dev/ttyACM0",
        "/dev/ttyACM1",
    ]


def test_no_pico_means_virtual_dice() -> None:
    source = choose_dice_source(list_ports=lambda: [ARDUINO, BUILTIN])
    assert source.is_virtual
    assert "Virtual dice" in source.describe()


def test_found_pico_is_used() -> None:
    source = choose_dice_source(list_ports=lambda: [ARDUINO, PICO])
    assert source.port == "/dev/ttyACM1"
    assert source.describe() == "Dice box on /dev/ttyACM1"


def test_explicit_port_wins_and_virtual_flag_wins_over_all() -> None:
    assert choose_dice_source("/dev/ttyUSB9", list_ports=lambda: [PICO]).port == "/dev/ttyUSB9"
    assert choose_dice_source("/dev/ttyUSB9", force_virtual=True).is_virtual
