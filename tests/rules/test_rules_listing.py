"""The shortcuts of listing and applying hold to the rules they stand for: a card's plays listed
directly are its candidates that pass its check, the road ends kept between listings are the
roads' ends, and apply takes the listed values without a second check but nothing else."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion_app.rules import progress
from companion_app.rules.actions import Action
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import IllegalActionError
from companion_app.rules.game import Game
from companion_app.rules.pieces import NOBODY
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64
from companion_app.rules.state import affords

LISTED_DIRECTLY = [rule for rule in progress.PLAYS.cards.values() if rule.plays is not None]


def road_ends_recomputed(game: Game, p: int) -> tuple[int, ...]:
    edge_nodes = game.topology.edge_nodes
    return tuple(sorted({node for e in game.roads_of[p] for node in edge_nodes[e]}))


def test_some_card_lists_its_plays_directly() -> None:
    listed = sorted(rule.card.value for rule in LISTED_DIRECTLY)
    assert listed == [
        "bishop",
        "deserter",
        "diplomat",
        "inventor",
        "merchant",
        "resource_monopoly",
        "spy",
        "trade_monopoly",
    ]


@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=3, max_value=6),
)
def test_plays_listed_directly_and_road_ends_agree_with_the_rules_through_a_game(
    seed: int, players: int
) -> None:
    game = Game.new(GameConfig.for_players(players, seed=seed))
    rng = SplitMix64(seed)
    while not game.is_over and game.turn < 120:
        if game.prompt.kind is PromptKind.TURN:
            p = game.active
            for rule in LISTED_DIRECTLY:
                assert rule.plays is not None
                filtered = [a for a in rule.candidates(game, p) if rule.check(game, a) is None]
                assert rule.plays(game, p) == filtered
            for q in range(players):
                assert game.road_ends(q) == road_ends_recomputed(game, q)
        game.apply(choose_random_action(game, rng))
    for q in range(players):
        assert game.road_ends(q) == road_ends_recomputed(game, q)


def test_an_action_of_a_list_from_before_is_checked_again() -> None:
    """The very value listed earlier, no longer legal, is refused: only today's list counts."""
    game = Game.new(GameConfig.for_players(4, seed=3))
    rng = SplitMix64(3)
    stale: list[Action] = []
    while not stale:
        legal = list(game.legal_actions())
        chosen = choose_random_action(game, rng)
        game.apply(chosen)
        if game.prompt.kind is not PromptKind.TURN and chosen in legal:
            stale = [a for a in legal if not game.is_legal(a)]
    before = game.to_json()
    with pytest.raises(IllegalActionError):
        game.apply(stale[0])
    assert game.to_json() == before


def test_affords_against_a_price_of_another_size_is_an_error() -> None:
    with pytest.raises(ValueError, match="a hand of 8 cards against a price of 5"):
        affords([1] * 8, (1, 0, 0, 0, 0))
    assert affords([1, 1, 0, 0, 0, 0, 0, 0], (1, 1, 0, 0, 0, 0, 0, 0))
    assert not affords([1, 0, 0, 0, 0, 0, 0, 0], (1, 1, 0, 0, 0, 0, 0, 0))


def longest_road_by_every_trail(game: Game, p: int) -> int:
    """The longest road as the rules say it: the longest trail of the player's roads, from any
    intersection, that passes no opponent's building or knight (it may end on one)."""
    own = set(game.roads_of[p])
    best = 0

    def walk(node: int, used: frozenset[int]) -> None:
        nonlocal best
        best = max(best, len(used))
        if used and (
            game.node_owner[node] not in (NOBODY, p) or game.knight_owner[node] not in (NOBODY, p)
        ):
            return
        for e in game.topology.node_edges[node]:
            if e in own and e not in used:
                a, b = game.topology.edge_nodes[e]
                walk(b if a == node else a, used | {e})

    for node in {n for e in own for n in game.topology.edge_nodes[e]}:
        walk(node, frozenset())
    return best


@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=3, max_value=6),
)
def test_longest_road_is_the_longest_trail_through_a_game(seed: int, players: int) -> None:
    game = Game.new(GameConfig.for_players(players, seed=seed))
    rng = SplitMix64(seed)
    while not game.is_over and game.turn < 150:
        game.apply(choose_random_action(game, rng))
        if len(game.history) % 9 == 0:
            for p in range(players):
                assert game.longest_road(p) == longest_road_by_every_trail(game, p)
