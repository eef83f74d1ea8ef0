"""The one replay loop (``replay_steps``) and its one error; undo after a restore."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion_app.game_stats import GameStatistics
from companion_app.rules.actions import BuildRoad, EndTurn, EventDie, Roll
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import IllegalActionError, ReplayError
from companion_app.rules.game import (
    SNAPSHOT_EVERY,
    Game,
    NothingToUndoError,
    replay_onto,
    replay_steps,
)
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64
from tests.said import said


def random_prefix(seed: int, steps: int, players: int = 4) -> Game:
    game = Game.new(GameConfig.for_players(players, seed=seed))
    rng = SplitMix64(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(choose_random_action(game, rng))
    return game


def test_replay_error_names_the_index_the_action_and_the_reason() -> None:
    played = random_prefix(3, 30)
    actions = [*played.history[:12], EndTurn(0), *played.history[12:]]
    with pytest.raises(ReplayError) as caught:
        Game.replay(played.config, actions)
    error = caught.value
    assert error.index == 12
    assert error.action == EndTurn(0)
    assert said(error.reason) == said(
        Game.replay(played.config, played.history[:12]).illegal_reason(EndTurn(0))
    )
    assert str(error) == f"action 12 (end_turn): {said(error.reason)}"
    assert isinstance(error, IllegalActionError)


def test_replay_steps_yields_after_each_action_and_stops_at_the_first_bad_one() -> None:
    played = random_prefix(8, 20)
    game = Game.new(played.config)
    seen = []
    steps = replay_steps(game, [*played.history[:5], BuildRoad(0, 999)])
    for index, action in steps:
        seen.append((index, action, len(game.history)))
        if index == 4:
            break
    assert seen == [(i, played.history[i], i + 1) for i in range(5)]
    with pytest.raises(ReplayError, match=r"^action 5 \(build_road\): "):
        next(steps)
    assert game.history == played.history[:5]


def test_unchecked_replay_gives_the_same_state_as_checked() -> None:
    played = random_prefix(2, 250)
    unchecked = replay_onto(Game.new(played.config), played.history, checked=False)
    assert unchecked.to_json() == played.to_json()


def test_undo_right_after_a_restore_is_the_nothing_to_undo_error_and_changes_nothing() -> None:
    played = random_prefix(6, 120)
    restored = Game.from_json(played.to_json())
    before = restored.to_json()
    with pytest.raises(NothingToUndoError, match="nothing to undo"):
        restored.undo()
    assert restored.to_json() == before
    assert restored.history == []


@given(
    seed=st.integers(min_value=0, max_value=2**32),
    steps=st.integers(min_value=0, max_value=250),
    more=st.integers(min_value=1, max_value=8),
)
def test_undo_after_a_restore_goes_back_to_the_restored_state_not_the_start(
    seed: int, steps: int, more: int
) -> None:
    played = random_prefix(seed, steps)
    restored = Game.from_json(json.loads(json.dumps(played.to_json())))
    start = restored.to_json()
    rng = SplitMix64(seed + 1)
    states = [start]
    for _ in range(more):
        if restored.is_over:
            break
        restored.apply(choose_random_action(restored, rng))
        states.append(restored.to_json())
    for expected in reversed(states[:-1]):
        restored.undo()
        assert restored.to_json() == expected
    assert restored.to_json() == start
    with pytest.raises(NothingToUndoError):
        restored.undo()
    assert restored.to_json() == start


def test_statistics_of_a_restored_game_count_only_what_happened_since() -> None:
    played = random_prefix(4, 200)
    restored = Game.from_json(played.to_json())
    assert GameStatistics.from_game(restored).dice.sums == (0,) * 11
    rng = SplitMix64(9)
    while restored.prompt.kind is not PromptKind.ROLL or restored.alchemist_dice is not None:
        restored.apply(choose_random_action(restored, rng))
    restored.apply(Roll(restored.active, 2, 3, EventDie.TRADE))
    stats = GameStatistics.from_game(restored)
    assert stats.dice.sums == (0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0)


def test_undo_across_snapshots_gives_every_prefix_state() -> None:
    played = random_prefix(12, 3 * SNAPSHOT_EVERY + 5)
    assert len(played.history) == 3 * SNAPSHOT_EVERY + 5
    history = list(played.history)
    for kept in range(len(history) - 1, SNAPSHOT_EVERY - 3, -1):
        played.undo()
        if kept % 17 == 0 or kept % SNAPSHOT_EVERY in (0, 1, SNAPSHOT_EVERY - 1):
            assert played.to_json() == Game.replay(played.config, history[:kept]).to_json()
        assert played.history == history[:kept]
    redone = history[len(played.history) :]
    for action in redone:
        played.apply(action)
    assert played.to_json() == Game.replay(played.config, history).to_json()
    for _ in range(SNAPSHOT_EVERY + 3):
        played.undo()
    expected = Game.replay(played.config, history[: len(history) - SNAPSHOT_EVERY - 3])
    assert played.to_json() == expected.to_json()
