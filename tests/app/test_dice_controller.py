"""The app's dice door without a window: what the top bar says about the device, and rolls
from the virtual dice reaching the journal session. The virtual dice are the emulated box (the
real firmware behind a pty) through the real device link, as the app does."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion_app.app.dice_controller import DiceController, DiceStatus
from companion_app.device.discovery import DiceSource
from companion_app.device.events import (
    Connected,
    DeviceInfo,
    Disconnected,
    PressedWhileDisarmed,
    Reconnecting,
)
from companion_app.journal import GameSession, Journal
from companion_app.rules.actions import Roll
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game


class Calls:
    """The main-thread queue of a test: callables run when ``run`` is called."""

    def __init__(self) -> None:
        self.queue: list[Callable[[], None]] = []
        self.changes = 0

    def schedule(self, fn: Callable[[], None]) -> None:
        self.queue.append(fn)

    def run(self) -> None:
        while self.queue:
            self.queue.pop(0)()

    def changed(self) -> None:
        self.changes += 1


def _after_setup(session: GameSession) -> None:
    while session.game.in_setup:
        session.apply(session.game.legal_actions()[-1])


@pytest.fixture
def session(tmp_path: Path) -> Iterator[GameSession]:
    with Journal(tmp_path / "journal.sqlite3") as journal:
        s = journal.new_game(GameConfig.for_players(3, seed=4))
        _after_setup(s)
        yield s


def test_status_words_for_each_link_event() -> None:
    calls = Calls()
    box = DiceController(
        DiceSource("/dev/ttyACM0"),
        schedule=calls.schedule,
        on_change=calls.changed,
    )
    assert box.status == DiceStatus("offline", "Dice box on /dev/ttyACM0: connecting…")
    info = DeviceInfo("E66138935F1A2B2C", "1A2B", "1.0.0", 1)
    box._on_event(Connected(info))
    assert box.status.kind == "offline"  # nothing changes before the main thread runs it
    calls.run()
    assert box.status == DiceStatus("box", "Dice box connected, firmware 1.0.0")
    box._on_event(Disconnected("unplugged"))
    box._on_event(Reconnecting(3, 0.4))
    calls.run()
    assert box.status == DiceStatus("reconnecting", "Reconnecting to the dice box (attempt 3)…")
    box._on_event(PressedWhileDisarmed())
    calls.run()
    assert box.last_error == "The dice box was pressed, but no roll is due now."
    assert calls.changes == 4


def test_virtual_dice_roll_through_the_emulated_box(session: GameSession) -> None:
    calls = Calls()
    dice = DiceController(
        DiceSource(None),
        schedule=calls.schedule,
        on_change=calls.changed,
        seed=11,
    )
    dice.start()
    try:
        dice.attach(session)
        deadline = time.monotonic() + 10
        while dice.status.kind != "virtual" or not dice.link.session.state_confirmed:
            assert time.monotonic() < deadline, "the emulated box did not connect"
            calls.run()
            dice.update_box()
            time.sleep(0.01)
        assert dice.status.text.startswith("Virtual dice (firmware ")
        dice.press_virtual()
        while len(session.actions) == 0 or not isinstance(session.actions[-1], Roll):
            assert time.monotonic() < deadline, "the roll did not arrive"
            calls.run()
            time.sleep(0.01)
        # The roll was committed before it was acknowledged, and replays from the journal.
        assert Game.replay(session.game.config, session.actions).to_json() == (
            session.game.to_json()
        )
        assert dice.virtual_box is not None
    finally:
        dice.close()


def test_an_early_tap_waits_for_the_box_to_be_armed(session: GameSession) -> None:
    """Roll tapped right after the game is attached, before the box confirmed it is armed:
    the press waits for the box instead of meeting a disarmed one and rolling nothing."""
    calls = Calls()
    dice = DiceController(
        DiceSource(None),
        schedule=calls.schedule,
        on_change=calls.changed,
        seed=12,
    )
    dice.start()
    try:
        dice.attach(session)
        assert not dice.link.session.state_confirmed
        dice.press_virtual()
        deadline = time.monotonic() + 10
        while not session.actions or not isinstance(session.actions[-1], Roll):
            assert time.monotonic() < deadline, "the early press was lost"
            calls.run()
            time.sleep(0.005)
        assert sum(isinstance(a, Roll) for a in session.actions) == 1
        assert dice.last_error == ""
    finally:
        dice.close()
