"""DiceTable: rolls from the link into the game, exactly once, acknowledged only after commit;
the game's state (track §1/§7, armed, Alchemist §10) back to the box."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion_app.device.box_state import BoxState, box_state, device_track
from companion_app.device.events import DeviceRoll
from companion_app.device.table import BareGameSession, DiceTable
from companion_app.journal.store import Journal
from companion_app.rules.actions import Action, EventDie, Roll
from companion_app.rules.config import GameConfig, PlayerConfig
from companion_app.rules.errors import IllegalActionError
from companion_app.rules.game import Game
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

DEV = "D1CE0000000000E1"


class FakeLink:
    """Records the commands the table gives, in one log shared with the session; the states
    wanted are kept apart."""

    def __init__(self, log: list[tuple[Any, ...]]) -> None:
        self.log = log
        self.states: list[BoxState | None] = []
        self.firsts: list[bool] = []

    def acknowledge(self, roll: DeviceRoll) -> None:
        self.log.append(("ack", roll.seq))

    def want(self, state: BoxState | None, *, first: bool = False) -> None:
        self.states.append(state)
        self.firsts.append(first)

    @property
    def state(self) -> BoxState:
        assert self.states and self.states[-1] is not None
        return self.states[-1]


def link_of(table: DiceTable) -> FakeLink:
    assert isinstance(table.link, FakeLink)
    return table.link


class LoggedSession(BareGameSession):
    def __init__(self, game: Game, log: list[tuple[Any, ...]]) -> None:
        super().__init__(game)
        self.log = log

    def apply(self, action: Action, *, origin: str | None = None) -> None:
        super().apply(action, origin=origin)
        self.log.append(("applied", type(action).__name__))


def device_roll(
    seq: int, y: int = 2, r: int = 3, e: EventDie = EventDie.TRADE, **kw: Any
) -> DeviceRoll:
    return DeviceRoll(DEV, "0000BEEF", seq, y, r, e, **kw)


def applied_keys(session: BareGameSession) -> list[tuple[str, int]]:
    """(boot, seq) of each roll applied, in order, from the origins the session committed."""
    return [(o.split(":")[2], int(o.split(":")[3])) for o in session.origins]


def play_until(session: BareGameSession, rng: SplitMix64, awaiting: bool) -> None:
    while session.game.awaiting_roll != awaiting:
        session.apply(choose_random_action(session.game, rng))


def table_at_roll(seed: int = 3) -> tuple[DiceTable, LoggedSession, list[tuple[Any, ...]]]:
    log: list[tuple[Any, ...]] = []
    session = LoggedSession(Game.new(GameConfig.for_players(4, seed=seed)), log)
    play_until(session, SplitMix64(seed), awaiting=True)
    log.clear()
    return DiceTable(session, FakeLink(log)), session, log


def test_a_roll_is_applied_for_the_active_player_then_acknowledged() -> None:
    table, session, log = table_at_roll()
    active = session.game.active
    table.take(device_roll(1, 5, 1, EventDie.SCIENCE))
    assert session.game.history[-1] == Roll(active, 5, 1, EventDie.SCIENCE)
    assert log[:2] == [("applied", "Roll"), ("ack", 1)]  # ack only after apply returned
    table.update_box()
    assert not link_of(table).state.armed  # the game no longer waits for dice


def test_the_same_roll_twice_is_applied_once_and_acked_again() -> None:
    table, session, log = table_at_roll()
    table.take(device_roll(1))
    length = len(session.game.history)
    table.take(device_roll(1))
    assert len(session.game.history) == length
    assert log.count(("ack", 1)) == 2
    assert applied_keys(session) == [("0000BEEF", 1)]


def test_same_seq_from_a_new_boot_is_another_roll() -> None:
    table, session, _log = table_at_roll()
    table.take(device_roll(1))
    play_until(session, SplitMix64(9), awaiting=True)
    table.take(DeviceRoll(DEV, "0000F00D", 1, 6, 6, EventDie.SHIP))
    assert applied_keys(session) == [("0000BEEF", 1), ("0000F00D", 1)]


def test_a_roll_the_game_does_not_wait_for_waits_and_is_applied_when_it_does() -> None:
    table, session, log = table_at_roll()
    rng = SplitMix64(4)
    table.take(device_roll(1))
    assert not session.game.awaiting_roll
    log.clear()
    table.take(device_roll(2, 4, 4, EventDie.POLITICS))
    assert [r.seq for r in table.unexpected] == [2]
    assert ("ack", 2) not in log and ("applied", "Roll") not in log
    play_until(session, rng, awaiting=True)
    active = session.game.active
    assert table.apply_unexpected() == 1
    assert table.unexpected == []
    assert session.game.history[-1] == Roll(active, 4, 4, EventDie.POLITICS)
    ack = log.index(("ack", 2))
    assert log[ack - 1] == ("applied", "Roll")


def test_updating_the_box_never_applies_a_roll() -> None:
    """The screen follows the game and the box with it (`update_box`); that must not change the
    game: an unexpected roll waits for `apply_unexpected`, called after a change by hand."""
    table, session, log = table_at_roll()
    rng = SplitMix64(4)
    table.take(device_roll(1))
    table.take(device_roll(2, 4, 4, EventDie.POLITICS))
    play_until(session, rng, awaiting=True)
    length = len(session.game.history)
    log.clear()
    for _ in range(3):
        table.update_box()
    assert len(session.game.history) == length and session.game.awaiting_roll
    assert [r.seq for r in table.unexpected] == [2]
    assert link_of(table).state.armed and not any(e[0] in ("ack", "applied") for e in log)
    assert table.apply_unexpected() == 1
    assert applied_keys(session) == [("0000BEEF", 1), ("0000BEEF", 2)]
    assert table.apply_unexpected() == 0  # nothing more to apply


def test_unexpected_rolls_can_be_discarded_and_are_then_acknowledged() -> None:
    table, _session, log = table_at_roll()
    table.take(device_roll(1))
    table.take(device_roll(2))
    assert [r.seq for r in table.discard_unexpected()] == [2]
    assert log[-1] == ("ack", 2)


def test_after_an_alchemist_the_chosen_dice_count_with_the_rolled_event() -> None:
    """§10: the Alchemist fixes yellow and red; the box is told and rolls only the event die.
    A roll pressed before the box had the ALCH still gets the chosen dice."""
    table, session, _log = table_at_roll()
    session.game.alchemist = (2, 5)  # as PlayAlchemist leaves it
    table.update_box()
    assert link_of(table).state.alchemist == (2, 5)
    table.take(device_roll(1, 6, 6, EventDie.SCIENCE))
    assert session.game.history[-1] == Roll(session.game.active, 2, 5, EventDie.SCIENCE)
    assert session.game.alchemist_dice is None
    table.update_box()
    assert link_of(table).state.alchemist is None  # cleared on the box again


def test_a_roll_the_rules_refuse_is_dropped_with_its_reason() -> None:
    table, session, log = table_at_roll()

    def refuse(action: Action, **_: object) -> None:
        raise IllegalActionError("not now (§3)")

    session.apply = refuse  # type: ignore[method-assign]
    table.take(device_roll(1))
    table.take(device_roll(2))
    assert table.unexpected == [] and not session.origins
    assert [(r.seq, why) for r, why in table.rejected] == [(1, "not now (§3)"), (2, "not now (§3)")]
    assert [e for e in log if e[0] == "ack"] == [("ack", 1), ("ack", 2)]
    assert table.last_error == "roll 2 refused: not now (§3)"


def test_a_roll_that_cannot_be_applied_is_kept_and_not_acked() -> None:
    table, session, log = table_at_roll()

    def broken(action: Action, **_: object) -> None:
        raise OSError("disk full")

    session.apply = broken  # type: ignore[method-assign]
    table.take(device_roll(1))
    assert [r.seq for r in table.unexpected] == [1]
    assert not any(entry[0] == "ack" for entry in log)
    assert table.last_error == "roll 1 not applied: disk full"


def test_offline_rolls_wait_for_a_decision() -> None:
    table, session, log = table_at_roll()
    length = len(session.game.history)
    offered = (device_roll(1, offline=True), device_roll(2, 6, 5, EventDie.SHIP, offline=True))
    table.offer(offered)
    table.offer(offered[1:])  # offered again: not twice in the list
    assert len(session.game.history) == length and table.offline == list(offered)
    assert table.apply_offline() == offered[0]
    assert session.game.history[-1] == Roll(session.game.active, 2, 3, EventDie.TRADE)
    assert table.apply_offline() is None  # the game does not wait for a roll now
    assert table.dismiss_offline() == [offered[1]]
    assert [e for e in log if e[0] == "ack"] == [("ack", 1), ("ack", 2)]


def test_the_box_state_is_computed_once_per_update_and_handed_on_only_when_it_differs() -> None:
    table, session, _log = table_at_roll()
    link = link_of(table)
    table.update_box()
    table.update_box()
    assert table.states_computed == 2 and link.states == [box_state(session.game)]
    assert link.firsts == [True]  # the game's past attacks are not news
    table.take(device_roll(1))
    assert len(link.states) == 1  # applying a roll never updates the box by itself
    table.update_box()
    assert table.states_computed == 3 and len(link.states) == 2
    assert link.states[-1] == box_state(session.game) and not link.state.armed
    assert link.firsts == [True, False]


@pytest.mark.parametrize(
    ("position", "length", "expected"),
    [
        (0, 7, (0, 8)),
        (6, 7, (6, 8)),
        (7, 7, (7, 8)),
        (1, 1, (1, 2)),
        (10, 20, (8, 16)),
        (19, 20, (14, 16)),
        (20, 20, (15, 16)),
        (3, 15, (3, 16)),
    ],
)
def test_device_track_spaces(position: int, length: int, expected: tuple[int, int]) -> None:
    # §1: the ship attacks on its Nth advance: N + 1 spaces, the last one "arrived"
    assert device_track(position, length) == expected


def test_track_follows_the_ship_and_the_attacks_are_counted() -> None:
    """§7: random games until three barbarian attacks; every change reaches the box."""
    session = BareGameSession(Game.new(GameConfig.for_players(3, seed=11)))
    table = DiceTable(session, FakeLink([]))
    rng = SplitMix64(11)
    positions = set()
    while session.game.barbarian_attacks < 3:
        assert not session.game.is_over
        session.apply(choose_random_action(session.game, rng))
        table.update_box()
        positions.add(session.game.barbarian_position)
        assert link_of(table).state.track == (session.game.barbarian_position, 8)
    assert [s.attacks for s in link_of(table).states if s is not None][-1] == 3
    assert positions == set(range(7))


def test_undo_goes_back_to_waiting_and_rearms(tmp_path: Path) -> None:
    log: list[tuple[Any, ...]] = []
    with Journal(tmp_path / "j.sqlite") as journal:
        session = journal.new_game(GameConfig.for_players(4, seed=5))
        rng = SplitMix64(5)
        while not session.game.awaiting_roll:
            session.apply(choose_random_action(session.game, rng))
        table = DiceTable(session, FakeLink(log))
        table.take(device_roll(1))
        table.update_box()
        assert not link_of(table).state.armed
        session.undo()
        table.update_box()
        assert link_of(table).state.armed


def test_acknowledged_only_once_the_journal_has_committed_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    committed_at_ack: list[int] = []

    class CheckingLink(FakeLink):
        def acknowledge(self, roll: DeviceRoll) -> None:
            with Journal(path, create=False) as other:  # another connection: sees only commits
                reopened = other.open_game(session.game_id)
                committed_at_ack.append(sum(isinstance(a, Roll) for a in reopened.game.history))
            super().acknowledge(roll)

    with Journal(path) as journal:
        session = journal.new_game(GameConfig.for_players(4, seed=8))
        rng = SplitMix64(8)
        table = DiceTable(session, CheckingLink([]))
        for seq in range(1, 4):
            while not session.game.awaiting_roll:
                session.apply(choose_random_action(session.game, rng))
            table.take(device_roll(seq, seq, seq))
    assert committed_at_ack == [1, 2, 3]


def test_a_roll_committed_before_a_crash_is_not_applied_again_after_restart(
    tmp_path: Path,
) -> None:
    """The app dies after the journal committed roll 1 but before its ACK went out: the box
    resends it to the restarted app, which acknowledges it without rolling twice."""
    path = tmp_path / "journal.sqlite"

    class CrashBeforeAck(FakeLink):
        def acknowledge(self, roll: DeviceRoll) -> None:
            raise SystemExit("power cut")

    with Journal(path) as journal:
        session = journal.new_game(GameConfig.for_players(4, seed=9))
        rng = SplitMix64(9)
        while not session.game.awaiting_roll:
            session.apply(choose_random_action(session.game, rng))
        game_id = session.game_id
        with pytest.raises(SystemExit):
            DiceTable(session, CrashBeforeAck([])).take(device_roll(1, 6, 6))
        rolls_before_crash = sum(isinstance(a, Roll) for a in session.game.history)
    assert rolls_before_crash == 1

    log: list[tuple[Any, ...]] = []
    with Journal(path, create=False) as journal:
        resumed = journal.open_game(game_id)
        assert resumed.has_origin(device_roll(1).origin)
        length = len(resumed.game.history)
        table = DiceTable(resumed, FakeLink(log))
        table.take(device_roll(1, 6, 6))  # the box's resend of the same roll
        assert len(resumed.game.history) == length
        assert ("ack", 1) in log
        # The next press is a new roll and is applied as usual once the game waits for dice.
        rng = SplitMix64(10)
        while not resumed.game.awaiting_roll:
            resumed.apply(choose_random_action(resumed.game, rng))
        table.take(device_roll(2, 1, 2))
        assert resumed.game.history[-1] == Roll(
            resumed.game.history[-1].player, 1, 2, EventDie.TRADE
        )
        assert resumed.has_origin(device_roll(2).origin)


def test_the_box_display_is_told_whose_turn_and_who_draws_on_a_castle() -> None:
    """§9: a castle with the red die at most a player's level + 1 draws for that player."""
    table, session, _log = table_at_roll()
    link = link_of(table)
    game = session.game
    names = game.config.names
    table.update_box()
    assert (link.state.turn, link.state.draws) == (names[game.active], ())  # no draws yet
    science = 2  # the improvement tracks in order: trade, politics, science
    others = [p for p in game.seat_order() if p != game.active]
    for p in range(len(names)):
        game.improvements[p][science] = 0
    game.improvements[others[0]][science] = 2  # draws on a red die of 1-3
    game.improvements[others[1]][science] = 1  # draws on 1-2
    table.take(device_roll(1, 4, 3, EventDie.SCIENCE))
    table.update_box()
    assert link.state.turn == names[game.active] and link.state.draws == (names[others[0]],)
    assert game.castle_draws() == (others[0],)


def test_the_box_shows_names_with_their_marks_taken_off() -> None:
    """The box's font draws A–Z and 0–9: Czech, Vietnamese and Polish names are folded before
    SHOW is sent, and a name with nothing drawable shows its seat."""
    players = (
        PlayerConfig("Čeněk", "red"),
        PlayerConfig("Đức", "blue"),
        PlayerConfig("Łucja", "white"),
        PlayerConfig("李", "orange"),
    )
    game = Game.new(GameConfig(players=players, seed=3))
    names = [box_state(game).turn]
    rng = SplitMix64(3)
    while len(set(names)) < 4:
        game.apply(choose_random_action(game, rng))
        names.append(box_state(game).turn)
    assert set(names) == {"Cenek", "Duc", "Lucja", "P4"}
