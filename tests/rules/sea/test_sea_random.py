"""Random New Shores games (§13): the invariants after every action, for 3 and 4 players and
each variant; on random positions, the listing agreeing with the checks, state JSON, replay
and undo."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion_app.rules.actions import (
    Action,
    BuildKnight,
    BuildRoad,
    BuildSettlement,
    BuildShip,
    ChasePirate,
    MoveKnight,
    MovePirate,
    MoveShip,
    PlayDiplomat,
    TakeGold,
)
from companion_app.rules.cards import Card
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import IllegalActionError
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

VARIANTS: dict[str, dict[str, Any]] = {
    "plain": {},
    "easy start": {"easy_start": True},
    "quick knights": {"quick_knights": True},
    "evil barbarians": {"evil_barbarians": True},
}


def new_shores(seed: int, players: int, **variant: Any) -> Game:
    return Game.new(GameConfig.for_players(players, scenario="new_shores", seed=seed, **variant))


def play(game: Game, seed: int, actions: int, *, check: bool) -> Game:
    rng = SplitMix64(seed ^ 0x5EA)
    for n in range(actions):
        if game.is_over:
            break
        game.apply(choose_random_action(game, rng))
        if check:
            problems = violations(game)
            assert not problems, f"after action {n + 1}: {problems}"
    return game


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("players", [3, 4])
def test_invariants_hold_after_every_action(players: int, variant: str) -> None:
    for seed in (1, 2):
        game = play(new_shores(seed, players, **VARIANTS[variant]), seed, 700, check=True)
        assert game.turn > 30 or game.is_over


def test_long_games_end_at_16_with_ships_sailing_and_islands_settled() -> None:
    """Random play to the end: somebody wins at the target of 16 on their own turn (R1), and
    over the games ships were built and small islands settled (§13.3, §13.10)."""
    ships = settled = 0
    for seed in range(4):
        game = play(new_shores(seed, 3 + seed % 2), seed, 6000, check=False)
        assert not violations(game)
        assert game.is_over and game.prompt.kind is PromptKind.GAME_OVER
        assert game.victory_points(game.winner) >= 16 == game.config.vp_target
        ships += sum(len(s) for s in game.ships_of)
        settled += sum(len(i) for i in game.islands_settled)
    assert ships > 10 and settled > 0


seeds = st.integers(min_value=0, max_value=2**32)
sizes = st.sampled_from([3, 4])
steps = st.integers(min_value=0, max_value=500)


def prefix(seed: int, players: int, n: int) -> Game:
    return play(new_shores(seed, players), seed, n, check=False)


@settings(max_examples=30)
@given(seed=seeds, players=sizes, n=steps)
def test_every_listed_action_is_legal_and_keeps_the_invariants(
    seed: int, players: int, n: int
) -> None:
    game = prefix(seed, players, n)
    legal = game.legal_actions()
    for action in legal:
        assert game.illegal_reason(action) is None, action
    ships = [a for a in legal if isinstance(a, BuildShip | MoveShip)]
    for action in [*legal[:10], *ships[:15]]:
        copy = Game.from_json(game.to_json())
        copy.apply(action)
        assert violations(copy) == [], action


edge = st.integers(min_value=-1, max_value=150)
node = st.integers(min_value=-1, max_value=110)
seat = st.integers(min_value=-1, max_value=4)
sea_actions = st.one_of(
    st.builds(BuildShip, seat, edge),
    st.builds(MoveShip, seat, edge, edge),
    st.builds(BuildRoad, seat, edge),
    st.builds(BuildSettlement, seat, node),
    st.builds(MovePirate, seat, st.integers(min_value=-1, max_value=70)),
    st.builds(ChasePirate, seat, node),
    st.builds(TakeGold, seat, st.sampled_from(list(Card))),
    st.builds(BuildKnight, seat, node),
    st.builds(MoveKnight, seat, node, node),
    st.builds(PlayDiplomat, seat, edge),
)


@settings(max_examples=40)
@given(seed=seeds, players=sizes, n=steps, action=sea_actions)
def test_an_action_is_legal_exactly_when_listed_and_a_refusal_changes_nothing(
    seed: int, players: int, n: int, action: Action
) -> None:
    game = prefix(seed, players, n)
    listed = action in game.legal_actions()
    assert game.is_legal(action) == listed
    if listed:
        return
    before = json.dumps(game.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert json.dumps(game.to_json(), sort_keys=True) == before


@settings(max_examples=20)
@given(seed=seeds, players=sizes, n=st.integers(min_value=1, max_value=400), back=st.integers(1, 5))
def test_json_replay_and_undo_give_the_same_state(
    seed: int, players: int, n: int, back: int
) -> None:
    game = prefix(seed, players, n)
    data = json.loads(json.dumps(game.to_json()))
    assert Game.from_json(data).to_json() == game.to_json()
    assert Game.replay(game.config, game.history).to_json() == game.to_json()
    taken = len(game.history)
    back = min(back, taken)
    expected = Game.replay(game.config, game.history[: taken - back]).to_json()
    for _ in range(back):
        game.undo()
    assert game.to_json() == expected
