"""The firmware in the real MicroPython unix VM, driven over stdin/stdout like a host would.

Nothing here sleeps: the tests wait for what the box says (a PING's answer comes after whatever
the lines before it caused, a heartbeat tells the box's clock) or for the LED frames it shows."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from conftest import venv_tool
from fwtools import VMBox, p

pytestmark = pytest.mark.micropython


@pytest.fixture
def vm() -> Iterator[VMBox]:
    box = VMBox(venv_tool("micropython"), "--seed", "7")
    yield box
    assert box.close() == 0
    assert not [line for line in box.stderr if "fault" in line or "Traceback" in line]


def connect(vm: VMBox) -> dict:
    assert vm.expect("HELLO")["up"] < 1000  # boot greeting, sent unasked
    vm.send("HELLO", (("proto", 1),))
    return vm.expect("HELLO")


def roll(vm: VMBox, ack: bool = True) -> dict:
    """A press (a clean tap, past the debouncer: see `test_bouncy_presses_roll_once_each` for
    the button itself) and the ROLL it made."""
    vm.control("tap")
    fields = vm.expect("ROLL")
    if ack:
        vm.send("ACK", (("seq", fields["seq"]),))
    return fields


def test_handshake_and_heartbeat(vm: VMBox) -> None:
    hello = connect(vm)
    assert hello["fw"] == "1.1.0" and hello["proto"] == 1
    assert hello["dev"] == "D1CE0000000000E1"
    assert re.fullmatch("[0-9A-F]{8}", hello["boot"])
    assert (hello["unacked"], hello["lost"]) == (0, 0)
    beats = [vm.expect("HB", timeout=2.5), vm.expect("HB", timeout=2.5)]
    assert beats[1]["up"] - beats[0]["up"] >= 1000  # 1 Hz on its own clock
    assert beats[1] == {**beats[1], "last": 0, "unacked": 0, "armed": 1}


def test_rolls_acks_and_resend_after_reconnect(vm: VMBox) -> None:
    connect(vm)
    rolls = [roll(vm, ack=False) for _ in range(3)]
    assert [r["seq"] for r in rolls] == [1, 2, 3]
    for r in rolls:
        assert 1 <= r["y"] <= 6 and 1 <= r["r"] <= 6 and r["e"] in p.EVENTS
        assert "off" not in r and "alc" not in r
    vm.send("ACK", (("seq", 1),))
    vm.send("ACK", (("seq", 3),))
    vm.send("ACK", (("seq", 3),))  # a duplicate ACK is harmless
    assert vm.expect("HB", skip=())["unacked"] == 1
    # The host goes away and comes back: it says HELLO again and gets roll 2 once more.
    vm.send("HELLO")
    hello = vm.expect("HELLO")
    assert (hello["unacked"], hello["lost"]) == (1, 0)
    again = vm.expect("ROLL")
    assert again == rolls[1]
    assert vm.until_pong() == []  # once


def test_peer_gone_after_missed_heartbeats_then_offline_rolls_offered() -> None:
    vm = VMBox(venv_tool("micropython"), "--seed", "3", "--heartbeat-ms", "100")
    try:
        connect(vm)
        vm.send("DISARM")
        assert vm.expect("OK") == {"cmd": "DISARM"}
        assert vm.expect("HB")["armed"] == 0
        # Silence from the host: after 4 heartbeats of 100 ms (+ grace) it is gone, and the
        # box's heartbeat says it rolls (standalone, disarm no longer applies).
        while vm.expect("HB", timeout=1.0)["armed"] == 0:
            pass
        first = roll(vm, ack=False)  # standalone: disarm no longer applies, the roll is kept
        assert first["off"] == 1
        second = roll(vm, ack=False)
        vm.send("HB")  # the host is back
        assert vm.expect("HELLO")["unacked"] == 2
        assert vm.expect("OFFLINE") == {"n": 2, "first": first["seq"], "last": second["seq"]}
        assert vm.expect("ROLL") == first
        assert vm.expect("ROLL") == second
    finally:
        assert vm.close() == 0


def test_every_host_command(vm: VMBox) -> None:
    connect(vm)
    vm.send("TRACK", (("pos", 3), ("len", 7)))
    assert vm.expect("OK") == {"cmd": "TRACK"}
    vm.send("PING", (("n", "t42"),))
    assert vm.expect("PONG") == {"n": "t42"}
    assert vm.wait_leds("wwwS....")  # ship on the 4th space, passed spaces dim
    vm.send("DISARM")
    assert vm.expect("OK") == {"cmd": "DISARM"}
    vm.control("tap")
    assert vm.expect("PRESS")["armed"] == 0
    assert vm.until_pong() == []  # no roll
    assert vm.wait_stderr(lambda: "AAAAAAAA" in vm.leds)  # the disarmed blink
    vm.send("ARM")
    assert vm.expect("OK") == {"cmd": "ARM"}
    vm.send("ALCH", (("y", 3), ("r", 4)))
    assert vm.expect("OK") == {"cmd": "ALCH"}
    alch = roll(vm)
    assert (alch["y"], alch["r"], alch["alc"]) == (3, 4, 1)
    assert "alc" not in roll(vm)  # the Alchemist is used up by one press
    vm.send("ALCH", (("y", 1), ("r", 1)))
    vm.send("ALCH")  # cancelled
    assert vm.expect("OK") == vm.expect("OK") == {"cmd": "ALCH"}
    assert "alc" not in roll(vm)
    vm.send("ATTACK")
    assert vm.expect("OK") == {"cmd": "ATTACK"}
    assert vm.wait_stderr(lambda: "RRRRRRRR" in vm.leds)
    vm.send("LEDTEST")
    assert vm.expect("OK") == {"cmd": "LEDTEST"}
    test_frames = ("RRRRRRRR", "GGGGGGGG", "BBBBBBBB", "WWWWWWWW", "W.......")
    assert vm.wait_stderr(lambda: all(colour in vm.leds for colour in test_frames))
    vm.send("TRACK", (("pos", 6), ("len", 7)))
    assert vm.expect("OK") == {"cmd": "TRACK"}
    vm.send("PING")
    assert vm.expect("PONG") == {}
    assert vm.wait_leds("wwwwwwSR")  # ship arrived: the attack LED is lit


def test_garbage_and_over_long_lines_get_errors_and_change_nothing(vm: VMBox) -> None:
    connect(vm)
    vm.write(b"hello there\r\n")
    assert vm.expect("ERR") == {"code": "frame"}
    vm.write(b"PING*0000\r\n")
    assert vm.expect("ERR") == {"code": "crc", "want": "6427"}
    vm.write(b"\x03\x03\x04\x00\xff\xfe" + b"Z" * 5000 + b"\n")  # Ctrl-C, Ctrl-D, NUL, 8-bit
    assert vm.expect("ERR") == {"code": "long"}
    vm.send("FOO")
    assert vm.expect("ERR") == {"code": "unknown", "cmd": "FOO"}
    vm.send("TRACK", (("pos", 9), ("len", 7)))
    assert vm.expect("ERR") == {"code": "range", "cmd": "TRACK"}
    vm.send("ACK", (("seq", "x"),))
    assert vm.expect("ERR") == {"code": "field", "cmd": "ACK"}
    vm.write(bytes(range(256)) * 8 + b"\n")
    errors = vm.until_pong("alive")  # still working: it answers a command
    assert errors and all(kind == "ERR" for kind, _ in errors)
    # and rolls, the track untouched by the bad TRACK
    assert roll(vm)["seq"] == 1
    assert vm.wait_leds("S.......", timeout=2.0)  # after the castle flash, if any


def test_bouncy_presses_roll_once_each(vm: VMBox) -> None:
    """Presses that bounce on the way down and up, each played on the box's own clock after
    300 ms released: a roll each, and nothing more once the last bounce is over."""
    connect(vm)
    bounce = "1:1,0:2,1:1,0:1,1:3,0:1,1:70,0:2,1:1,0:3,1:2,0:1"
    rolls = []
    for _ in range(3):
        vm.control(f"pattern 0:300,{bounce},0:1")
        rolls.append(vm.expect("ROLL"))
        vm.send("ACK", (("seq", rolls[-1]["seq"]),))
    assert [r["seq"] for r in rolls] == [1, 2, 3]
    assert vm.until_box_time(rolls[-1]["t"] + 200) == []


@pytest.mark.parametrize("mode", ["fair", "balanced", "deck"])
def test_same_seed_same_rolls_on_cpython_and_micropython(mode: str) -> None:
    results = []
    for interpreter in (venv_tool("micropython"), venv_tool("python")):
        vm = VMBox(interpreter, "--seed", "11", "--dice-mode", mode)
        try:
            assert connect(vm)["dice"] == mode
            results.append([roll(vm) for _ in range(6)])
        finally:
            assert vm.close() == 0
    strip = [[(r["y"], r["r"], r["e"]) for r in rolls] for rolls in results]
    assert strip[0] == strip[1]
    assert len(set(strip[0])) > 1
    if mode == "deck":
        assert len({(y, r) for y, r, _ in strip[0]}) == 6  # no card twice


def test_mode_command_in_the_micropython_vm(vm: VMBox) -> None:
    assert connect(vm)["dice"] == "fair"
    vm.send("MODE", (("dice", "balanced"),))
    assert vm.expect("OK") == {"cmd": "MODE", "dice": "balanced"}
    vm.send("MODE", (("dice", "dice"),))
    assert vm.expect("ERR") == {"code": "range", "cmd": "MODE"}
    assert roll(vm)["seq"] == 1
    vm.send("HELLO")
    assert vm.expect("HELLO")["dice"] == "balanced"
