"""The dice box firmware on the MicroPython it ships for: the rp2 port (the UF2 in
``firmware/rp2/``) on an emulated RP2040, flashed as ``make flash`` flashes it.

Every wait is on the emulated chip's clock (it runs at a fraction of real time); the suite's
timeout is the only wall-clock bound.
"""

from __future__ import annotations

import queue
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fwtools import S, p

from companion_app.device.events import LinkEvent
from companion_app.device.link import DiceLink, serial_opener
from companion_app.device.table import DiceTable
from companion_app.emulator.firmware import firmware_module
from companion_app.emulator.rp2040 import Board, Pico, PtyPort, strip_colours
from companion_app.journal.store import Journal
from companion_app.rules.config import GameConfig
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

pytestmark = [pytest.mark.rp2040, pytest.mark.slow]

GOLDEN = Path(__file__).parent / "golden_frames"
L = firmware_module("dicebox.lights")
PINS = firmware_module("dicebox.pins")
HW_RP2_INIT = (
    b"\xae\xd5\x80\xa8\x3f\xd3\x00\x40\x8d\x14\x20\x02\xa1\xc8\xda\x12"
    b"\x81\xcf\xd9\xf1\xdb\x40\xa4\xa6\xaf"
)  # hw_rp2.Oled.INIT (hw_rp2 imports machine, so it cannot be imported here)


@pytest.fixture
def pico(tmp_path: Path) -> Iterator[Pico]:
    with Pico(tmp_path / "flash.bin") as chip:
        yield chip


def lines(board: Board, kind: str) -> list[dict]:
    """Every protocol line of ``kind`` the box sent so far, decoded (each CRC checked)."""
    out = []
    for raw in bytes(board.serial).split(b"\n")[:-1]:  # whole lines only
        line = raw.rstrip(b"\r")
        if line.startswith(kind.encode() + b" ") or line.startswith(kind.encode() + b"*"):
            out.append(p.decode(line, p.DEVICE_MESSAGES)[1])
    return out


def count(kind: str, n: int):
    return lambda b: len(lines(b, kind)) >= n


def send(pico: Pico, kind: str, fields: tuple = ()) -> None:
    pico.write(p.encode(kind, fields))


def press(pico: Pico, hold_s: float = 0.1) -> None:
    pico.button(True)
    pico.run_for(hold_s)
    pico.button(False)
    pico.run_for(0.15)


def golden(name: str) -> list[str]:
    return (GOLDEN / f"{name}.txt").read_text().splitlines()


def drawn(state: tuple) -> list[str]:
    screen = S.Screen()
    screen.draw(state)
    return S.rows(screen.buf)


def last_frame(board: Board) -> list[str]:
    return S.rows(board.frames[-1][1])


def track(pos: int, length: int = 8) -> list[tuple[int, int, int]]:
    lights = L.Lights(PINS.LED_COUNT)
    lights.set_track(pos, length)
    return [tuple(c) for c in lights.track_frame()]


def connect(pico: Pico) -> dict:
    board = pico.wait(count("HELLO", 1), sim_s=5)  # the boot greeting, unasked
    send(pico, "HELLO", (("proto", 1),))
    pico.wait(count("HELLO", 2), sim_s=2)
    return lines(board, "HELLO")[-1]


def test_boot_hello_and_the_hardware_layer(pico: Pico) -> None:
    """Every pin hw_rp2 sets up, the OLED's address, commands and first frame, the strip's
    byte order and colours, as the rp2 port drives them."""
    hello = connect(pico)
    assert hello["fw"] == "1.1.0" and hello["proto"] == 1
    assert re.fullmatch("[0-9A-F]{8}", hello["boot"])
    assert hello["dev"] == "0" * 16  # machine.unique_id() reads zeros on the emulated flash
    board = pico.wait(lambda b: b.frames and b.strips and count("HB", 1)(b), sim_s=3)
    pico.request_pins()
    pins = pico.wait(lambda b: b.pin_report is not None, sim_s=1).pin_report
    assert pins is not None
    sio, i2c, null = 5, 3, 31
    button = pins[str(PINS.BUTTON_GPIO)]
    assert (button["fn"], button["oe"], button["pu"], button["ie"]) == (sio, 0, 1, 1)
    for gp in (PINS.OLED_SDA_GPIO, PINS.OLED_SCL_GPIO):
        assert pins[str(gp)]["fn"] == i2c and pins[str(gp)]["pu"] == 1
    assert (pins[str(PINS.LED_DATA_GPIO)]["fn"], pins[str(PINS.LED_DATA_GPIO)]["oe"]) == (sio, 1)
    assert (pins["25"]["fn"], pins["25"]["oe"]) == (sio, 1)  # "LED" is GP25 on the Pico
    assert pins[str(PINS.BUZZER_GPIO)]["fn"] == null  # no tone yet: the buzzer pin untouched
    # the status LED blinked while no host listened
    assert len(board.pins[25]) >= 2
    # the OLED: hw_rp2's init sequence, then page addressing; the frame at 0x3C, and a box
    # with no roll yet draws the golden frame of an idle box
    assert board.oled_commands.startswith(HW_RP2_INIT)
    assert board.oled_commands[len(HW_RP2_INIT) : len(HW_RP2_INIT) + 3] == b"\xb0\x00\x10"
    assert S.rows(board.frames[0][1]) == golden("no_roll_solo")
    # the strip: 8 LEDs in WS2812 order (green, red, blue), the ship on the first space
    _, grb, fn = board.strips[0]
    assert fn == sio and len(grb) == 3 * PINS.LED_COUNT
    assert grb[:3] == bytes((L.SHIP[1], L.SHIP[0], L.SHIP[2]))
    assert strip_colours(grb) == track(0)


def play_to_roll(session, rng: SplitMix64) -> None:
    while not session.game.awaiting_roll:
        session.apply(choose_random_action(session.game, rng))


def test_press_to_roll_through_the_link_into_a_journal_game(pico: Pico, tmp_path: Path) -> None:
    port = PtyPort(pico)
    events: queue.Queue[LinkEvent] = queue.Queue()
    link = DiceLink(serial_opener(port.path), events.put, clock=pico.now)
    with Journal(tmp_path / "journal.sqlite3") as journal:
        session = journal.new_game(GameConfig.for_players(3, seed=5))
        table = DiceTable(session, link)
        play_to_roll(session, SplitMix64(5))
        link.start()
        try:
            board = pico.wait(lambda b: link.session.state_confirmed, sim_s=5)
            table.update_box()
            pico.run_for(0.3)
            before = len(session.game.history)
            pico.button(True)
            roll = pico.wait(count("ROLL", 1), sim_s=1)
            pico.button(False)
            made = lines(roll, "ROLL")[0]

            def applied(_b: Board) -> bool:
                while not events.empty():
                    table.handle(events.get())
                return len(session.game.history) > before

            pico.wait(applied, sim_s=3)
            # the box heard the ACK: nothing unacknowledged in its next heartbeat
            pico.wait(lambda b: lines(b, "HB")[-1]["unacked"] == 0, sim_s=3)
        finally:
            link.close()
            port.close()
        # committed to the journal: the game read back from it holds the roll, once
        game = journal.open_game(session.game_id).game
        action = game.history[before]
        assert (action.yellow, action.red, action.event.value) == (made["y"], made["r"], made["e"])
        assert len(game.history) == before + 1
        assert session.has_origin(
            f"dicebox:{lines(board, 'HELLO')[-1]['dev']}:{made['boot']}:{made['seq']}"
        )
    assert board.usb


def test_frames_and_strip_after_show_track_and_attack(pico: Pico) -> None:
    """The display after SHOW, a roll (a 7 says ROBBER), TRACK and ATTACK, and the strip after
    TRACK and ATTACK, pixel for pixel against the CPython drawing of the same state."""
    connect(pico)
    send(pico, "SHOW", (("turn", "Red"), ("draw", "Anna.Bo")))
    send(pico, "TRACK", (("pos", 3), ("len", 8)))
    pico.wait(count("OK", 2), sim_s=2)
    board = pico.wait(lambda b: strip_colours(b.strips[-1][1]) == track(3), sim_s=1)
    press(pico)
    board = pico.wait(count("ROLL", 1), sim_s=1)
    roll = lines(board, "ROLL")[0]
    send(pico, "ACK", (("seq", roll["seq"]),))
    pico.run_for(0.6)  # the dice stop shaking after 300 ms
    state = (roll["y"], roll["r"], roll["e"], -1, 3, 8, -1, True, True, 0, "RED", "ANNA BO")
    assert last_frame(board) == drawn(state)
    # the track arrived, then the attack: the last LED and the display's ATTACK! blink
    send(pico, "TRACK", (("pos", 7), ("len", 8)))
    board = pico.wait(lambda b: strip_colours(b.strips[-1][1]) == track(7), sim_s=1)
    frames_before = len(board.frames)
    send(pico, "ATTACK")
    board = pico.wait(lambda b: any(L.ALARM in strip_colours(s) for _, s, _ in b.strips), sim_s=1)
    base = (roll["y"], roll["r"], roll["e"], -1, 7, 8)
    rest = (True, True, 0, "RED", "ANNA BO")
    blink = [drawn((*base, phase, *rest)) for phase in (0, 1)]  # ATTACK! on, then off

    def blinked(b: Board) -> bool:
        shown = [S.rows(f) for _, f in b.frames[frames_before:]]
        return blink[0] in shown and blink[1] in shown

    board = pico.wait(blinked, sim_s=3)
    # when it is over, the display is as before the attack, the strip shows the track again
    still = drawn((*base, -1, *rest))
    board = pico.wait(lambda b: S.rows(b.frames[-1][1]) == still, sim_s=10)
    assert strip_colours(board.strips[-1][1]) == track(7)
