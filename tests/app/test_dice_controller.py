"""The app's dice door without a window: what the top bar says about the device, and rolls
from the virtual dice reaching the journal session. The virtual dice are the emulated box (the
real firmware behind a pty) through the real device link, as the app does."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion_app.device.box_state import BoxState, box_state
from companion_app.device.dice import Dice
from companion_app.device.discovery import DiceSource
from companion_app.device.events import (
    Connected,
    DeviceInfo,
    Disconnected,
    PressedWhileDisarmed,
    Reconnecting,
)
from companion_app.journal import GameSession, Journal
from companion_app.presenters import dice_controller
from companion_app.presenters.dice_controller import DiceController
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


def one_frame(calls: Calls) -> None:
    """What the main thread runs in one frame: the calls scheduled before it began."""
    todo, calls.queue = calls.queue, []
    for fn in todo:
        fn()


class FakeVirtualBox:
    def __init__(self) -> None:
        self.presses = 0

    def press(self) -> None:
        self.presses += 1

    def leds(self) -> str | None:
        return None

    def close(self) -> None:
        pass


def slow_virtual_dice(
    session: GameSession, monkeypatch: pytest.MonkeyPatch
) -> tuple[DiceController, Calls, FakeVirtualBox, SimpleNamespace, list[float]]:
    """A controller whose virtual box has not confirmed its state yet, on a clock the test
    moves by hand."""
    now = [100.0]
    monkeypatch.setattr(dice_controller, "time", SimpleNamespace(monotonic=lambda: now[0]))
    calls = Calls()
    dice = DiceController(DiceSource(None), schedule=calls.schedule, on_change=calls.changed)
    box = FakeVirtualBox()
    link = SimpleNamespace(state_confirmed=False)
    dice._dice = Dice(DiceSource(None), link, box)  # type: ignore[arg-type]
    dice.session = session
    return dice, calls, box, link, now


def test_an_on_screen_roll_waits_for_a_slow_box_however_long(
    session: GameSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a loaded tablet the virtual box may take seconds to confirm it is armed: the tap is
    kept (the top bar says the dice are slow) and goes through once the box is ready."""
    dice, calls, box, link, now = slow_virtual_dice(session, monkeypatch)
    assert session.game.awaiting_roll
    dice.press_virtual()
    for _ in range(50):  # ten seconds of frames
        now[0] += 0.2
        one_frame(calls)
    assert box.presses == 0 and calls.changes == 1
    assert dice.last_error == "The virtual dice are slow to answer; the roll follows when they do."
    link.state_confirmed = True
    one_frame(calls)
    assert box.presses == 1 and calls.queue == []


def test_a_waiting_on_screen_roll_is_dropped_once_no_roll_is_due(
    session: GameSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    dice, calls, box, link, _now = slow_virtual_dice(session, monkeypatch)
    dice.press_virtual()
    one_frame(calls)
    session.apply(next(a for a in session.game.legal_actions() if isinstance(a, Roll)))
    one_frame(calls)  # the game moved on (a roll by hand): nothing to press for
    link.state_confirmed = True
    one_frame(calls)
    assert box.presses == 0 and calls.queue == []


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
    assert (box.status.kind, box.status.text) == (
        "offline",
        "Dice box on /dev/ttyACM0: connecting…",
    )
    info = DeviceInfo("E66138935F1A2B2C", "1A2B", "1.0.0", 1)
    box._on_event(Connected(info))
    assert box.status.kind == "offline"  # nothing changes before the main thread runs it
    calls.run()
    assert (box.status.kind, box.status.text) == ("box", "Dice box connected, firmware 1.0.0")
    box._on_event(Disconnected("unplugged"))
    box._on_event(Reconnecting(3, 0.4))
    calls.run()
    assert (box.status.kind, box.status.text) == (
        "reconnecting",
        "Reconnecting to the dice box (attempt 3)…",
    )
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
        while dice.status.kind != "virtual" or not dice.link.state_confirmed:
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
        dice.update_box()  # the app's refresh after opening the game
        assert not dice.link.state_confirmed
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


def test_a_tap_before_any_refresh_tells_the_box_the_game_first(session: GameSession) -> None:
    """The dice started after the game was opened (the app starts them after its first frame)
    and no refresh has told the box the game yet: the box has confirmed "no game", and a tap
    then met it disarmed and rolled nothing. The press tells the box the game first."""
    calls = Calls()
    dice = DiceController(
        DiceSource(None),
        schedule=calls.schedule,
        on_change=calls.changed,  # no refresh: only the press may tell the box the game
        seed=14,
    )
    dice.start()
    try:
        dice.attach(session)
        deadline = time.monotonic() + 10
        while not dice.link.state_confirmed:
            assert time.monotonic() < deadline, "the emulated box did not connect"
            calls.run()
            time.sleep(0.005)
        dice.press_virtual()
        while not session.actions or not isinstance(session.actions[-1], Roll):
            assert time.monotonic() < deadline, "the tap was lost on a disarmed box"
            calls.run()
            time.sleep(0.005)
        assert sum(isinstance(a, Roll) for a in session.actions) == 1
    finally:
        dice.close()


def changes_between(before: BoxState, after: BoxState) -> int:
    """The wire commands a change of the box's state takes: one per part that differs (the
    display's turn and draws are one SHOW), and an ATTACK when there was one more attack."""
    return sum(
        (
            before.track != after.track,
            after.attacks > before.attacks,
            (before.turn, before.draws) != (after.turn, after.draws),
            before.armed != after.armed,
            before.alchemist != after.alchemist,
        )
    )


def test_a_roll_through_the_link_computes_the_box_state_once_and_sends_each_change_once(
    session: GameSession,
) -> None:
    """The virtual dice (the emulated box through the real link); ``on_change`` refreshes as the
    app does, updating the box once. A press: one event, one refresh, one box state computed,
    and each part of the box's state that changed goes out once; a refresh with nothing
    changed sends nothing."""
    calls = Calls()

    def refresh() -> None:
        calls.changed()
        dice.update_box()

    dice = DiceController(DiceSource(None), schedule=calls.schedule, on_change=refresh, seed=13)
    dice.start()
    try:
        dice.attach(session)
        dice.update_box()
        link, table = dice.link, dice.table
        assert link is not None and table is not None
        deadline = time.monotonic() + 10
        while not link.state_confirmed:
            assert time.monotonic() < deadline, "the emulated box did not confirm its state"
            calls.run()
            time.sleep(0.005)
        calls.run()
        before = box_state(session.game)
        computed, refreshes = table.states_computed, calls.changes
        sent = link.counters.state_changes
        dice.press_virtual()
        while not isinstance(session.actions[-1], Roll):
            assert time.monotonic() < deadline, "the roll did not arrive"
            calls.run()
            time.sleep(0.005)
        after = box_state(session.game)
        assert calls.changes - refreshes == 1
        assert table.states_computed - computed == 1
        assert link.counters.state_changes - sent == changes_between(before, after) >= 1
        assert not after.armed
        dice.update_box()  # nothing differs: nothing is sent
        assert table.states_computed - computed == 2
        assert link.counters.state_changes - sent == changes_between(before, after)
    finally:
        dice.close()
