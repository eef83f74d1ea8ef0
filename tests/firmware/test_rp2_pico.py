"""The dice box firmware on the MicroPython it ships for: the rp2 port on an emulated RP2040,
flashed as ``make flash`` flashes it (the one UF2, ``firmware/rp2/dicebox-<version>.uf2``; the
files ``make flash-files`` copies where a test says so).

Every wait is on the emulated chip's clock (it runs at a fraction of real time); the suite's
timeout is the only wall-clock bound.
"""

from __future__ import annotations

import queue
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fwtools import S, hw_host, p, rows
from screen_frames import golden

from companion_app.device.events import LinkEvent, RollArrived
from companion_app.device.link import DiceLink, serial_opener
from companion_app.device.table import DiceTable
from companion_app.emulator.firmware import firmware_module
from companion_app.emulator.rp2040 import (
    Board,
    Pico,
    PtyPort,
    firmware_files,
    flash_file_record,
    strip_colours,
)
from companion_app.emulator.rp2040 import uf2 as u
from companion_app.journal.store import Journal
from companion_app.rules.config import GameConfig
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

pytestmark = [pytest.mark.rp2040, pytest.mark.slow]

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
            out.append(p.decode(line, hw_host.DEVICE_MESSAGES)[1])
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


def drawn(state: tuple) -> list[str]:
    screen = S.Screen()
    screen.draw(state)
    return rows(screen.buf)


def last_frame(board: Board) -> list[str]:
    return rows(board.frames[-1][1])


def track(pos: int, length: int = 8) -> list[tuple[int, int, int]]:
    lights = L.Lights(PINS.LED_COUNT)
    lights.set_track(pos, length)
    return [tuple(c) for c in lights.track_frame()]


def connect(pico: Pico) -> dict:
    board = pico.wait(count("HELLO", 1), sim_s=5)  # the boot greeting, unasked
    send(pico, "HELLO", (("proto", 1),))
    pico.wait(count("HELLO", 2), sim_s=2)
    pico.run_for(0.2)  # the button must read released for a moment after power-up
    return lines(board, "HELLO")[-1]


@pytest.mark.parametrize("build", ["uf2", "files"])
def test_boot_hello_and_the_hardware_layer(build: str, tmp_path: Path) -> None:
    """Every pin hw_rp2 sets up, the OLED's address, commands and first frame, the strip's
    byte order and colours, as the rp2 port drives them: flashed with the one UF2, and with
    the files ``make flash-files`` copies."""
    files = firmware_files() if build == "files" else None
    with Pico(tmp_path / "flash.bin", files=files) as pico:
        check_boot(pico)


def check_boot(pico: Pico) -> None:
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
    assert rows(board.frames[0][1]) == golden("no_roll_solo")
    # the strip: 8 LEDs in WS2812 order (green, red, blue), the ship on the first space
    _, grb, fn = board.strips[0]
    assert fn == sio and len(grb) == 3 * PINS.LED_COUNT
    assert grb[:3] == bytes((L.SHIP[1], L.SHIP[0], L.SHIP[2]))
    assert strip_colours(grb) == track(0)


def test_each_press_rolls_once_and_clicks(pico: Pico) -> None:
    """Taps in a row, each roll acknowledged as it comes: every press is one ROLL (each press
    checked), and the buzzer's PWM sounds the roll's click for its 40 ms after each press,
    where the click was timed from the press and was over before the tick that plays it came
    (the press draws the display and writes the flash first: 30-45 ms)."""
    connect(pico)
    downs = []
    for seq in range(1, 6):
        pico.tap()
        board = pico.wait(count("ROLL", seq), sim_s=1)
        assert [r["seq"] for r in lines(board, "ROLL")] == list(range(1, seq + 1))
        downs.append([t for t, pin, level in board.inputs if pin == 15 and level == 0][-1])
        send(pico, "ACK", (("seq", seq),))
    pico.run_for(0.3)
    assert len(lines(pico.board, "ROLL")) == 5  # no press rolled twice
    edges = pico.board.pins.get(PINS.BUZZER_GPIO, [])
    for down, until in zip(downs, [*downs[1:], pico.board.now_us], strict=True):
        click = [t for t, _ in edges if down <= t < until]
        assert len(click) > 100, f"no click after the press at {down} µs"  # 2 kHz: 160 edges
        # the click's 40 ms, ended by the first tick after them: give or take the 10 ms tick
        # and a task running before it, such as a display frame of 25 ms (measured 42-49 ms,
        # and 67 ms once); it starts at the first tick after the press's display frame and
        # flash record (measured 47-153 ms after the press)
        assert 35_000 <= click[-1] - click[0] <= 90_000, (click[0] - down, click[-1] - down)
        assert click[0] - down < 250_000


def test_the_repl_when_the_button_is_held_at_power_up(tmp_path: Path) -> None:
    """The one UF2 held at plug-in: the box does not start, the REPL answers, and the file
    system it flashed says which sources it was built from (the tree's)."""
    with Pico(tmp_path / "flash.bin", button_held=True) as pico:
        pico.wait(lambda b: b">>> " in b.serial, sim_s=5)
        pico.write(b"print(open('/dicebox-build.txt').read())\r\n")
        board = pico.wait(lambda b: bytes(b.serial).count(b">>> ") >= 2, sim_s=2)
    text = bytes(board.serial).decode(errors="replace")
    assert "button held at power-up - staying in the REPL" in text
    assert "MicroPython v1.28.0" in text and "HELLO" not in text
    printed = text.split("print(open('/dicebox-build.txt').read())\r\n", 1)[1]
    assert u.parse_build_text(printed.split("\r\n\r\n>>> ")[0].replace("\r\n", "\n")) == {
        "dicebox": u.firmware_version(),
        "sources": u.source_digest(),
        "micropython": u.parse_build_text(u.build_text())["micropython"],
    }
    assert not board.frames and not board.strips  # the box never started


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
            board = pico.wait(lambda b: link.state_confirmed, sim_s=5)
            table.update_box()
            pico.run_for(0.3)
            before = len(session.game.history)
            pico.button(True)
            roll = pico.wait(count("ROLL", 1), sim_s=1)
            pico.button(False)
            made = lines(roll, "ROLL")[0]

            def applied(_b: Board) -> bool:
                while not events.empty():
                    event = events.get()
                    if isinstance(event, RollArrived):
                        table.take(event.roll)
                return len(session.game.history) > before

            pico.wait(applied, sim_s=3)
            # the box heard the ACK: nothing unacknowledged in its next heartbeat
            pico.wait(
                lambda b: (
                    (lines(b, "HB")[-1]["last"], lines(b, "HB")[-1]["unacked"]) == (made["seq"], 0)
                ),
                sim_s=3,
            )
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
    """The display after SHOW, a roll, TRACK and ATTACK, and the strip after TRACK and ATTACK,
    pixel for pixel against the CPython drawing of the same state: the golden attack frames
    are of a box on its own, which the rp2 port cannot reach with chosen dice (see
    `test_golden_frames_of_a_roll_robber_track_turn_and_draw`)."""
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
    # the track arrived, then the attack: the last LED and the display's swords and ship blink
    send(pico, "TRACK", (("pos", 7), ("len", 8)))
    board = pico.wait(lambda b: strip_colours(b.strips[-1][1]) == track(7), sim_s=1)
    frames_before = len(board.frames)
    send(pico, "ATTACK")
    board = pico.wait(lambda b: any(L.ALARM in strip_colours(s) for _, s, _ in b.strips), sim_s=1)
    base = (roll["y"], roll["r"], roll["e"], -1, 7, 8)
    rest = (True, True, 0, "RED", "ANNA BO")
    blink = [drawn((*base, phase, *rest)) for phase in (0, 1)]  # swords and ship on, then off

    def blinked(b: Board) -> bool:
        shown = [rows(f) for _, f in b.frames[frames_before:]]
        return blink[0] in shown and blink[1] in shown

    pico.wait(blinked, sim_s=3)


STORE = firmware_module("dicebox.store")


def record(pico: Pico) -> tuple:
    """The flash record as the chip's littlefs holds it: (track, [StoredRoll, ...], dice line)."""
    data = flash_file_record(pico.flash_path)
    assert data is not None, "no /dicebox.dat in the flash"
    return STORE.decode(data)  # type: ignore[no-any-return]


def test_power_cut_with_unacknowledged_rolls_resends_them_from_flash(pico: Pico) -> None:
    """Two rolls a host never acknowledged survive a power cut in the flash file; the next boot
    (its own entropy: a new boot id) offers them with their boot and seq, once each."""
    first = connect(pico)
    send(pico, "HELLO", (("proto", 1), ("boots", 1)))
    pico.wait(count("HELLO", 3), sim_s=1)
    press(pico)
    press(pico)

    def distinct(b: Board) -> list[tuple]:
        """Each roll once (a roll not yet acknowledged is sent again, e.g. after a HELLO)."""
        rolls = {(r["boot"], r["seq"]): (r["y"], r["r"], r["e"]) for r in lines(b, "ROLL")}
        return [(*key, *dice) for key, dice in sorted(rolls.items(), key=lambda kv: kv[0][1])]

    board = pico.wait(lambda b: len(distinct(b)) >= 2, sim_s=1)
    made = distinct(board)
    assert [m[:2] for m in made] == [(first["boot"], 1), (first["boot"], 2)]
    assert any(op == "program" for _, op, _, _ in board.flash_ops)
    pico.power_cut()
    _, kept, _ = record(pico)
    assert [(k.boot, k.seq, k.y, k.r, k.e) for k in kept] == made
    pico.power_cycle()
    hello = pico.wait(count("HELLO", 1), sim_s=5)
    after = lines(hello, "HELLO")[0]
    assert after["boot"] != first["boot"] and after["unacked"] == 2
    send(pico, "HELLO", (("proto", 1), ("boots", 1)))
    board = pico.wait(count("ROLL", 2), sim_s=3)
    offered = [(r["boot"], r["seq"], r["y"], r["r"], r["e"]) for r in lines(board, "ROLL")]
    assert offered[:2] == made
    for boot, seq, *_ in made:
        send(pico, "ACK", (("seq", seq), ("boot", boot)))
    pico.wait(lambda b: bool(lines(b, "HB")) and lines(b, "HB")[-1]["unacked"] == 0, sim_s=3)
    # acknowledged rolls leave the record (batched, 5 s later), and are never sent again
    acked_at = pico.board.now_us
    pico.wait(lambda b: any(t > acked_at for t, *_ in b.flash_ops), sim_s=7)
    pico.run_for(0.2)
    assert len(lines(pico.board, "ROLL")) == 2  # no resend after the ACKs
    pico.power_cut()
    assert record(pico)[1] == []  # the next boot has nothing to offer


STANDALONE_ENTROPY = bytes(range(64))
"""This test's ring-oscillator bits: the dice, and so the ships, are the same on every run (the
chip's time is simulated), where fresh entropy left the track at 0 in one run of eight."""


def test_standalone_track_after_ships_and_a_long_press(tmp_path: Path) -> None:
    """No host: each ship moves the box's own track (strip, display, flash record); holding
    the button 2 s sends the ship home."""
    with Pico(tmp_path / "flash.bin", entropy=STANDALONE_ENTROPY) as pico:
        pico.wait(lambda b: bool(b.strips), sim_s=5)
        pico.run_for(0.2)
        pos, kept = 0, []
        while pos == 0 and len(kept) < 16:  # until a ship has moved the track
            press(pico)
            pico.run_for(0.3)
            pos, kept, _ = record(pico)
        assert pos > 0 and all(k.off for k in kept), len(kept)
        assert pos == sum(k.e == "ship" for k in kept)
        board = pico.wait(lambda b: strip_colours(b.strips[-1][1]) == track(pos), sim_s=1)
        last = kept[-1]
        assert last_frame(board) == drawn(
            (last.y, last.r, last.e, -1, pos, 8, -1, False, True, len(kept), "", "")
        )
        pico.button(True)
        board = pico.wait(lambda b: strip_colours(b.strips[-1][1]) == track(0), sim_s=3)
        pico.button(False)
        pico.run_for(0.3)
        assert record(pico)[0] == 0
        # the long press beeped: the buzzer's pin is now driven by PWM
        pico.request_pins()
        pins = pico.wait(lambda b: b.pin_report is not None, sim_s=1).pin_report
        assert pins is not None and pins[str(PINS.BUZZER_GPIO)]["fn"] == 4  # PWM


def newest_seq(board: Board) -> int:
    return max((r["seq"] for r in lines(board, "ROLL")), default=0)


def scripted_roll(pico: Pico, yellow: int, red: int, event: str, presses: int = 60) -> None:
    """As a host scripts the dice: ``ALCH`` sets yellow and red for the next press and only the
    event die is rolled, so press (acknowledging each roll) until it shows ``event``. The event
    die is fair (a castle's face 1 in 6): 60 presses miss one with odds below 1 in 50,000."""
    for _ in range(presses):
        oks = len(lines(pico.board, "OK"))
        send(pico, "ALCH", (("y", yellow), ("r", red)))
        pico.wait(count("OK", oks + 1), sim_s=1)
        seq = newest_seq(pico.board) + 1
        pico.button(True)
        board = pico.wait(lambda b, seq=seq: newest_seq(b) >= seq, sim_s=1)
        pico.button(False)
        roll = next(r for r in lines(board, "ROLL") if r["seq"] == seq)
        assert (roll["y"], roll["r"], roll.get("alc")) == (yellow, red, 1)
        send(pico, "ACK", (("seq", seq),))
        pico.run_for(0.15)  # released a moment before the next press, as `press` waits
        if roll["e"] == event:
            return
    raise AssertionError(f"no {event} in {presses} presses of a fair event die")


def command(pico: Pico, kind: str, fields: tuple = ()) -> None:
    oks = len(lines(pico.board, "OK"))
    send(pico, kind, fields)
    pico.wait(count("OK", oks + 1), sim_s=1)


def shows(pico: Pico, name: str) -> None:
    """The display reaches the golden frame ``name`` (after the dice's 300 ms shake)."""
    pico.wait(lambda b: bool(b.frames) and last_frame(b) == golden(name), sim_s=1.5)


def offline_presses(pico: Pico, n: int) -> None:
    """``n`` rolls before any host spoke: they wait for one (the display's arrow up and n)."""
    pico.wait(lambda b: bool(b.strips), sim_s=5)
    pico.run_for(0.2)  # the button must read released for a moment after power-up
    for _ in range(n):
        press(pico)
    pico.wait(count("ROLL", n), sim_s=1)


def test_golden_frames_of_a_roll_robber_track_turn_and_draw(pico: Pico) -> None:
    """The golden frames the CPython and VM runs use, reached on the rp2 port as a host reaches
    them (``ALCH`` scripts yellow and red, then presses until the event die shows the face;
    ``SHOW``, ``TRACK``), pixel for pixel: a 16-space track with two rolls made before the host
    came (the arrow up and 2), a roll's faces, the robber's pawn on a 7, whose turn and who draws,
    and a sea board's 7 (``TRACK ... sea=1``: the pawn or the pirate's ship).

    Not reached on the rp2 port (compared with the CPython drawing of the state the box reached
    in `test_frames_and_strip_after_show_track_and_attack`, and pixel for pixel in the CPython
    and VM runs): the attack's blink (``track_arrived_attack_*``: a box on its own with 12 rolls
    waiting, whose dice are its own and cannot be scripted, and an ``ATTACK`` from a host ends
    after 3 s, before the box counts the host gone at 4.5 s); the shake's first frame (a box on
    its own, three rolls waiting); ``face_1_ship`` and ``mode_balanced_solo`` (reachable: dice
    scripted, then 4.5 s of silence until the host is gone, each; left out for the suite's
    time on the emulator)."""
    offline_presses(pico, 2)
    send(pico, "HELLO", (("proto", 1),))
    pico.wait(count("HELLO", 2), sim_s=2)
    command(pico, "SHOW", (("turn", "Red"),))
    command(pico, "TRACK", (("pos", 9), ("len", 16)))
    scripted_roll(pico, 1, 6, "politics")
    shows(pico, "track_16_spaces")
    for seq in (1, 2):  # the offline rolls taken: nothing waits any more
        send(pico, "ACK", (("seq", seq),))
    command(pico, "TRACK", (("pos", 0), ("len", 8)))
    scripted_roll(pico, 2, 2, "trade")
    shows(pico, "face_2_trade")
    scripted_roll(pico, 3, 4, "trade")
    shows(pico, "seven_robber")
    command(pico, "SHOW", (("turn", "Red"), ("draw", "Red.Blue")))
    command(pico, "TRACK", (("pos", 2), ("len", 8)))
    scripted_roll(pico, 5, 5, "science")
    shows(pico, "face_5_draw")
    command(pico, "TRACK", (("pos", 2), ("len", 8), ("sea", 1)))  # a sea board (§13)
    scripted_roll(pico, 4, 3, "ship")
    shows(pico, "seven_robber_or_pirate")


def test_golden_frames_of_each_castle_the_lock_and_the_deck_mode(pico: Pico) -> None:
    """More golden frames reached as a host reaches them: the other castles with whose turn,
    ``DISARM``'s padlock, ``MODE deck``'s mark."""
    connect(pico)
    command(pico, "SHOW", (("turn", "Blue"),))
    scripted_roll(pico, 3, 3, "politics")
    shows(pico, "face_3_politics")
    command(pico, "SHOW", (("turn", "White"),))
    scripted_roll(pico, 4, 4, "science")
    shows(pico, "face_4_science")
    command(pico, "SHOW", (("turn", "Orange"),))
    command(pico, "TRACK", (("pos", 3), ("len", 8)))
    scripted_roll(pico, 6, 6, "trade")
    command(pico, "DISARM")
    shows(pico, "face_6_lock")
    command(pico, "ARM")
    send(pico, "MODE", (("dice", "deck"),))
    command(pico, "SHOW", (("turn", "Anna"),))
    command(pico, "TRACK", (("pos", 2), ("len", 8)))
    scripted_roll(pico, 5, 6, "trade")
    command(pico, "DISARM")
    shows(pico, "mode_deck_tablet")
