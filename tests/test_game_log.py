"""The game log: rebuilt from history, in step after undo, private details kept to their owners."""

from __future__ import annotations

import pytest

from companion_app.game_log import (
    EntryKind,
    GameLog,
    RollReport,
    production_words,
)
from companion_app.rules.actions import (
    DiscardCard,
    EventDie,
    MoveRobber,
    Roll,
    StealFrom,
)
from companion_app.rules.cards import CARD_KINDS, Card, ProgressCard, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action, play_random_game
from companion_app.rules.rng import SplitMix64
from tests.rules.builders import corner, make_game, robber_beside_one_victim
from tests.said import said

SEEDS = (0, 1, 2, 3)


def _random_game(seed: int, turns: int = 120) -> Game:
    result = play_random_game(seed, max_turns=turns)
    assert result.game is not None
    return result.game


@pytest.mark.parametrize("seed", SEEDS)
def test_log_built_action_by_action_equals_the_log_rebuilt_at_once(seed: int) -> None:
    game = _random_game(seed)
    step_by_step = GameLog(game.config)
    for n in range(0, len(game.history) + 1, 7):
        step_by_step.sync(game.history[:n])
    step_by_step.sync(game.history)
    assert step_by_step.entries == GameLog.of(game).entries


@pytest.mark.parametrize("seed", SEEDS)
def test_after_undo_the_log_is_the_log_of_the_shorter_history(seed: int) -> None:
    game = _random_game(seed, 40)
    log = GameLog.of(game)
    full = list(log.entries)
    for _ in range(15):
        game.undo()
    log.sync(game.history)
    assert log.entries == GameLog.of(game).entries
    assert len(log.entries) < len(full)
    # The last line may be a merged discard that had more cards before the undo.
    assert full[: len(log.entries) - 1] == log.entries[:-1]


def test_every_roll_and_turn_is_logged_in_order() -> None:
    game = _random_game(5)
    log = GameLog.of(game)
    rolls = [a for a in game.history if isinstance(a, Roll)]
    logged = [e for e in log.entries if e.kind is EntryKind.ROLL]
    assert len(logged) == len(rolls)
    first = rolls[0]
    assert said(logged[0].text) == (
        f"{game.config.names[first.player]} rolls {first.yellow} + {first.red} = {first.total},"
        f" {'ship' if first.event is EventDie.SHIP else said(logged[0].text).rsplit(', ', 1)[1]}"
    )
    turns = [said(e.text) for e in log.entries if e.kind is EntryKind.TURN]
    assert turns[0].startswith("Turn 1 · ")
    assert len(turns) == game.turn + 1
    assert [e.step for e in log.entries] == sorted(e.step for e in log.entries)


@pytest.mark.parametrize("seed", SEEDS)
def test_private_details_stay_with_their_audience(seed: int) -> None:
    """Nobody outside an entry's audience reads a progress card still in hand or a stolen card."""
    game = _random_game(seed, 200)
    log = GameLog.of(game)
    titles = [said(card.title) for card in ProgressCard]
    labels = [card.label for card in Card]
    private = [e for e in log.entries if not e.is_public]
    assert any(e.kind is EntryKind.DRAW for e in private)
    for entry in private:
        assert said(entry.detail) and said(entry.detail) != said(entry.text)
        for seat in range(game.player_count):
            words = said(entry.words_for(seat))
            assert words == (said(entry.detail) if seat in entry.audience else said(entry.text))
        if entry.kind is EntryKind.DRAW:
            assert not any(t in said(entry.text) for t in titles), said(entry.text)
        if entry.kind is EntryKind.STEAL:
            assert not any(f"1 {label}" in said(entry.text) for label in labels), said(entry.text)
    drawn_names = [said(e.detail) for e in private if e.kind is EntryKind.DRAW]
    assert all(" draws " in d for d in drawn_names)


def test_a_steal_names_the_card_to_thief_and_victim_only() -> None:
    game = make_game(
        buildings={corner(4, 0): (1, "settlement"), corner(4, 3): (2, "settlement")},
        hands={1: hand_of(ore=1), 2: hand_of(wool=1)},
        prompt="move_robber",
        robber_unlocked=True,
    )
    log = GameLog.from_position(game)
    log.sync([MoveRobber(0, 4), StealFrom(0, 1)])
    steal = log.entries[-1]
    assert steal.kind is EntryKind.STEAL
    assert said(steal.text) == "Red steals a card from Blue"
    assert said(steal.words_for(0)) == said(steal.words_for(1)) == "Red steals 1 ore from Blue"
    assert said(steal.words_for(2)) == said(steal.words_for(None)) == "Red steals a card from Blue"
    assert steal.audience == frozenset({0, 1})


def test_discards_of_one_player_read_as_one_line() -> None:
    game = make_game(hands={1: hand_of(brick=4, ore=4)}, prompt="roll")
    log = GameLog.from_position(game)
    actions = [Roll(0, 3, 4, EventDie.TRADE)]
    actions += [DiscardCard(1, Card.BRICK)] * 2 + [DiscardCard(1, Card.ORE)] * 2
    log.sync(actions)
    discards = [e for e in log.entries if e.kind is EntryKind.DISCARD]
    assert [said(e.text) for e in discards] == ["Blue discarded 2 brick, 2 ore"]


def _paid_report(game: Game, roll: Roll) -> RollReport:
    """The log's report of ``roll`` played from ``game``'s position."""
    log = GameLog.from_position(game)
    log.sync([roll])
    game.apply(roll)
    assert log.last_roll is not None
    return log.last_roll


def test_production_names_every_seat_and_the_bank_shortage() -> None:
    # Blue and White are each owed 2 brick from hills 6 (hex 4) with 3 brick in the bank;
    # Orange's settlement on forest 3 is not on a 6.
    bank = (3, 19, 19, 19, 19, 12, 12, 12)
    game = make_game(
        buildings={
            corner(4, 0): (1, "city"),
            corner(4, 3): (2, "city"),
            corner(10, 3): (3, "settlement"),
        },
        hands={0: hand_of(brick=16)},
        prompt="roll",
        bank=bank,
    )
    report = _paid_report(game, Roll(0, 3, 3, EventDie.SHIP))
    assert report.paid
    assert [said(s.words) for s in report.shortages] == [
        "bank has 3 brick for 4 owed: nobody gets brick"
    ]
    assert said(production_words(game.config.names, report)) == [
        "Red: nothing",
        "Blue: nothing (bank short of brick)",
        "White: nothing (bank short of brick)",
        "Orange: nothing",
        "bank has 3 brick for 4 owed: nobody gets brick",
    ]
    assert said(production_words(game.config.names, report, everyone=False)) == [
        "Blue: nothing (bank short of brick)",
        "White: nothing (bank short of brick)",
        "bank has 3 brick for 4 owed: nobody gets brick",
    ]


def test_production_names_what_the_robber_holds_back() -> None:
    game = make_game(
        buildings={corner(4, 0): (1, "city"), corner(10, 3): (2, "city")},
        prompt="roll",
        robber_hex=4,
    )
    report = _paid_report(game, Roll(0, 3, 3, EventDie.SHIP))
    assert report.robbed[1] == hand_of(brick=2)
    assert (
        said(production_words(game.config.names, report))[1]
        == "Blue: nothing (robber holds 2 brick)"
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_logged_production_is_what_the_rules_core_paid(seed: int) -> None:
    config = GameConfig.for_players(4, seed=seed)
    game = Game.new(config)
    rng = SplitMix64(seed)
    log = GameLog(config)
    checked = 0
    while game.turn < 60 and not game.is_over:
        game.apply(choose_random_action(game, rng))
        log.sync(game.history)
        report = log.last_roll
        if report is not None and report.paid and report.step == len(game.history) - 1:
            assert report.gained == game.last_production
            gained_total = [sum(h[c] for h in report.gained) for c in range(CARD_KINDS)]
            for shortage in report.shortages:
                assert gained_total[shortage.card] == shortage.paid < shortage.owed
            checked += 1
    assert checked > 10


def test_one_option_choice_is_marked_in_the_log() -> None:
    game = robber_beside_one_victim()
    log = GameLog.from_position(game)
    game.apply(MoveRobber(0, 4))
    log.sync(game.history)
    assert game.prompt.kind is PromptKind.CHOOSE_VICTIM
    assert game.legal_actions() == [StealFrom(0, 1)]
    log.sync([*game.history, StealFrom(0, 1)])
    assert log.entries[-1].automatic
    assert said(log.entries[-1].text).endswith("(the only choice)")
    assert not log.entries[-2].automatic


def test_production_held_back_by_the_barbarians_says_so_until_it_is_paid() -> None:
    """A ship roll that brings an attack with decisions pays production only after them."""
    held = paid_after = 0
    for seed in range(12):
        config = GameConfig.for_players(4, seed=seed)
        game = Game.new(config)
        rng = SplitMix64(seed)
        log = GameLog(config)
        waiting = False
        while game.turn < 150 and not game.is_over:
            action = choose_random_action(game, rng)
            game.apply(action)
            log.sync(game.history)
            report = log.last_roll
            if isinstance(action, Roll) and action.total != 7 and report is not None:
                waiting = not report.paid and not report.rolled_again
                if waiting:
                    held += 1
                    assert game.prompt.kind in (
                        PromptKind.COMMIT_KNIGHTS,
                        PromptKind.LOSE_CITY,
                        PromptKind.CHOOSE_PROGRESS_DECK,
                    )
                    words = said(production_words(config.names, report))
                    assert words == ["production after the barbarians' decisions"]
            elif waiting and report is not None and report.paid:
                assert report.gained == game.last_production
                waiting = False
                paid_after += 1
        if held >= 2 and paid_after >= 2:
            break
    assert held >= 2 and paid_after >= 2
