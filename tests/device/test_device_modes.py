"""The dice mode between host and box (docs/protocol.md, "Dice modes"): a new host sends the
game's mode to a box that has the modes and never to one without them; an old host leaves the
box its own mode; through the emulated box the game's mode is what the box rolls in, after a
reset too."""

from __future__ import annotations

import queue
from typing import Any

from test_device_link import next_event, wait
from test_device_session import DEV, line, sent

from companion_app.device.box_state import BoxState, box_state
from companion_app.device.events import Connected, DeviceInfo, LinkEvent
from companion_app.device.link import DiceLink, serial_opener
from companion_app.device.session import CONFIRM_S, HostSession
from companion_app.emulator import Emulator, VirtualDiceBox
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game


def hello(**extra: Any) -> bytes:
    return line(
        "HELLO", fw="1.2.0", proto=1, dev=DEV, boot="0000BEEF", up=5, unacked=0, lost=0, **extra
    )


def state(mode: str) -> BoxState:
    return BoxState((0, 8), True, None, "Red", (), 0, mode)


def session_with(greeting: bytes) -> HostSession:
    session = HostSession(0.0)
    session.open(0.0)
    session.feed(b"\n" + greeting, 0.01)
    session.take_output()
    return session


def test_a_box_with_the_modes_gets_the_games_mode_first_until_it_confirms_it() -> None:
    session = session_with(hello(dice="deck"))
    assert session.box_dice_mode == "deck"  # what the box rolled in before we spoke
    session.want(state("balanced"))
    assert sent(session) == [
        "MODE dice=balanced",
        "TRACK pos=0 len=8",
        "SHOW turn=Red",
        "ARM",
        "ALCH",
    ]
    for kind in ("TRACK", "ARM", "ALCH"):
        session.feed(line("OK", cmd=kind), 0.02)
    assert not session.state_confirmed  # the mode is not confirmed yet: a press would be wrong
    session.tick(0.02 + CONFIRM_S)
    assert sent(session) == ["HB", "MODE dice=balanced"]  # sent again
    session.feed(line("OK", cmd="MODE", dice="deck"), 0.2)  # the OK of an older MODE
    assert not session.state_confirmed and session.box_dice_mode == "deck"
    session.feed(line("OK", cmd="MODE", dice="balanced"), 0.21)
    assert session.state_confirmed and session.box_dice_mode == "balanced"
    # the box restarted (its HELLO after a reset): the mode goes again with the rest
    session.feed(hello(dice="balanced"), 0.3)
    assert sent(session)[:2] == ["MODE dice=balanced", "TRACK pos=0 len=8"]


def test_an_old_box_without_dice_in_hello_is_never_sent_mode() -> None:
    session = session_with(hello())
    assert session.box_dice_mode is None
    session.want(state("deck"))
    assert sent(session) == ["TRACK pos=0 len=8", "SHOW turn=Red", "ARM", "ALCH"]
    for kind in ("TRACK", "ARM", "ALCH"):
        session.feed(line("OK", cmd=kind), 0.02)
    assert session.state_confirmed  # no MODE to wait for: rolls are not held up
    session.tick(1.0)
    assert "MODE dice=deck" not in sent(session)
    assert session.counters.device_errors == 0


def test_a_box_that_answers_mode_with_err_unknown_is_not_asked_again() -> None:
    session = session_with(hello(dice="fair"))
    session.want(state("deck"))
    assert sent(session)[0] == "MODE dice=deck"
    session.feed(line("ERR", code="unknown", cmd="MODE"), 0.02)
    for kind in ("TRACK", "ARM", "ALCH"):
        session.feed(line("OK", cmd=kind), 0.03)
    assert session.state_confirmed and session.counters.device_errors == 1
    session.tick(1.0)
    assert "MODE dice=deck" not in sent(session)
    # it said a range error (a mode it lacks) instead: that is no reason to stop asking
    session.feed(hello(dice="fair"), 1.1)
    assert "MODE dice=deck" in sent(session)
    session.feed(line("ERR", code="range", cmd="MODE"), 1.2)
    session.tick(1.2 + CONFIRM_S)
    assert "MODE dice=deck" in sent(session)


def test_the_mode_is_not_part_of_who_the_box_is() -> None:
    assert DeviceInfo(DEV, "1", "1.2.0", 1, "deck") == DeviceInfo(DEV, "1", "1.2.0", 1, "fair")
    session = session_with(hello(dice="fair"))
    assert session.feed(hello(dice="deck"), 0.1) == []  # same box, same boot: no new Connected
    assert session.counters.connects == 1


def test_box_state_takes_the_games_mode() -> None:
    game = Game.new(GameConfig.for_players(3, dice_mode="balanced"))
    assert box_state(game).dice_mode == "balanced"
    assert box_state(Game.new(GameConfig.for_players(3))).dice_mode == "fair"


def test_old_host_new_box_the_box_keeps_its_own_mode() -> None:
    """A host from before the modes never sends MODE: the box rolls in the mode it was set to,
    and still says so when the host comes back."""
    with Emulator(seed=3, dice_mode="deck") as box:
        events: queue.Queue[LinkEvent] = queue.Queue()
        with DiceLink(serial_opener(lambda: box.port), events.put) as link:
            link.want(None)  # an old host's state: no MODE in it (DISARM only)
            connected = next_event(events, Connected)
            assert isinstance(connected, Connected) and connected.info.dice_mode == "deck"
            assert wait(lambda: link.state_confirmed)
            box.unplug()  # the cable out and in again: the box greets the host anew
            again = next_event(events, Connected)
            assert isinstance(again, Connected) and again.info.dice_mode == "deck"


def test_a_box_started_in_deck_mode_is_in_deck_mode_after_a_reset_with_nothing_rolled() -> None:
    events: queue.Queue[LinkEvent] = queue.Queue()
    with (
        Emulator(seed=6, dice_mode="deck") as box,
        DiceLink(serial_opener(lambda: box.port), events.put) as link,
    ):
        link.want(None)  # an old host: it never sets the mode
        connected = next_event(events, Connected)
        assert isinstance(connected, Connected) and connected.info.dice_mode == "deck"
        box.reset()  # nothing rolled, so nothing else was ever written to its flash
        again = next_event(events, Connected)
        assert isinstance(again, Connected) and again.info.dice_mode == "deck"


def test_new_host_new_box_the_games_mode_reaches_the_box_and_survives_a_reset() -> None:
    events: queue.Queue[LinkEvent] = queue.Queue()
    with Emulator(seed=5) as box, DiceLink(serial_opener(lambda: box.port), events.put) as link:
        connected = next_event(events, Connected)
        assert isinstance(connected, Connected) and connected.info.dice_mode == "fair"
        link.want(state("balanced"))
        assert wait(lambda: link.state_confirmed)
        assert link.dice_mode == "balanced"
        box.reset()
        again = next_event(events, Connected)
        # the box kept the mode in flash: its HELLO after the reset says the game's mode
        assert isinstance(again, Connected) and again.info.dice_mode == "balanced"


def test_a_resumed_balanced_game_restores_balanced_on_a_box_set_to_deck() -> None:
    game = Game.new(GameConfig.for_players(3, dice_mode="balanced"))
    events: queue.Queue[LinkEvent] = queue.Queue()
    with (
        Emulator(seed=9, dice_mode="deck") as box,
        DiceLink(serial_opener(lambda: box.port), events.put) as link,
    ):
        connected = next_event(events, Connected)
        assert isinstance(connected, Connected) and connected.info.dice_mode == "deck"
        link.want(box_state(game), first=True)  # the game resumed on the tablet
        assert wait(lambda: link.state_confirmed and link.dice_mode == "balanced")
        box.reset()
        again = next_event(events, Connected)
        assert isinstance(again, Connected) and again.info.dice_mode == "balanced"


def test_the_virtual_dice_get_the_games_mode_through_the_same_link() -> None:
    events: queue.Queue[LinkEvent] = queue.Queue()
    with (
        VirtualDiceBox(seed=4) as box,
        DiceLink(serial_opener(lambda: box.port), events.put) as link,
    ):
        next_event(events, Connected)
        link.want(state("deck"))
        assert wait(lambda: link.state_confirmed and link.dice_mode == "deck")
