"""Five and six players as properties (§12): random games keep every invariant after every
action (banks of 24 / 18, pieces per player, the 30-hex island's consistency, the special build
phase); JSON, replay and undo hold; every progress card, variant and the barbarians run with 6
players; the longest road on the 30-hex island agrees with a brute-force search.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion_app.rules.actions import (
    Action,
    EndSpecialBuild,
    NobodyBuilds,
    PlayProgress,
    StartSpecialBuild,
    action_from_json,
)
from companion_app.rules.board import FRAME_30, random_balanced_board
from companion_app.rules.cards import ProgressCard
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import IllegalActionError
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.operations import longest_road
from companion_app.rules.pieces import NOBODY
from companion_app.rules.randomplay import choose_random_action, play_random_game
from companion_app.rules.rng import SplitMix64
from companion_app.rules.topology import ISLAND_30

seeds = st.integers(min_value=0, max_value=2**32)
large = st.sampled_from([5, 6])


def random_prefix(seed: int, steps: int, config: GameConfig) -> Game:
    game = Game.new(config)
    rng = SplitMix64(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(choose_random_action(game, rng))
    return game


def random_actions(game: Game, rng: SplitMix64, count: int) -> Iterator[Action]:
    for _ in range(count):
        if game.is_over:
            return
        action = choose_random_action(game, rng)
        game.apply(action)
        yield action


@settings(max_examples=15, deadline=None)
@given(seed=seeds, n=large)
def test_s12_invariants_hold_after_every_action_of_five_and_six_player_games(
    seed: int, n: int
) -> None:
    result = play_random_game(seed, players=n, max_turns=60, check=True)
    assert result.violation is None, result.violation
    game = result.game
    assert game is not None and game.topology is ISLAND_30


@settings(max_examples=15, deadline=None)
@given(seed=seeds, n=large, steps=st.integers(min_value=0, max_value=500))
def test_s12_json_replay_and_undo_hold_with_five_and_six_players(
    seed: int, n: int, steps: int
) -> None:
    game = random_prefix(seed, steps, GameConfig.for_players(n, seed=seed))
    data = json.loads(json.dumps(game.to_json()))
    assert Game.from_json(data).to_json() == game.to_json()
    assert Game.from_json(data).legal_actions() == game.legal_actions()
    replayed = Game.replay(game.config, [action_from_json(a.to_json()) for a in game.history])
    assert replayed.to_json() == game.to_json()
    if game.history:
        expected = Game.replay(game.config, game.history[:-1]).to_json()
        game.undo()
        assert game.to_json() == expected


@settings(max_examples=25, deadline=None)
@given(
    seed=seeds,
    steps=st.integers(min_value=0, max_value=500),
    builder=st.integers(min_value=-1, max_value=6),
    seat=st.integers(min_value=-1, max_value=6),
)
def test_s12_phase_actions_are_legal_exactly_when_listed(
    seed: int, steps: int, builder: int, seat: int
) -> None:
    game = random_prefix(seed, steps, GameConfig.for_players(6, seed=seed))
    for action in (StartSpecialBuild(seat, builder), NobodyBuilds(seat), EndSpecialBuild(seat)):
        listed = action in game.legal_actions()
        assert game.is_legal(action) == listed
        if not listed:
            before = game.to_json()
            with pytest.raises(IllegalActionError):
                game.apply(action)
            assert game.to_json() == before


@pytest.mark.slow
def test_s12_every_variant_and_the_barbarians_with_six_players() -> None:
    """Random 6-player games with each variant (§3), checked after every action; the
    barbarians attack in them."""
    variants = ({}, {"easy_start": True}, {"quick_knights": True}, {"evil_barbarians": True})
    attacks = 0
    for seed, variant in enumerate(variants):
        config = GameConfig.for_players(6, seed=seed, **variant)  # type: ignore[arg-type]
        game = Game.new(config)
        rng = SplitMix64(seed ^ 0x5EED)
        for action in random_actions(game, rng, 1500):
            problems = violations(game)
            assert not problems, (seed, variant, action, problems)
        attacks += game.barbarian_attacks
    assert attacks > 0


@pytest.mark.slow
def test_s12_every_progress_card_is_played_in_six_player_games() -> None:
    """Random 6-player games (each ending checked) play every progress card between them."""
    played: set[ProgressCard] = set()
    for seed in range(12):
        game = Game.new(GameConfig.for_players(6, seed=seed))
        rng = SplitMix64(seed ^ 0x5EED)
        for action in random_actions(game, rng, 3000):
            if isinstance(action, PlayProgress):
                played.add(action.card)
            elif type(action).__name__.startswith("Play"):
                played.add(_card_of(action))
        assert not violations(game)
        if played >= {c for c in ProgressCard if not c.is_vp}:
            return
    missing = {c for c in ProgressCard if not c.is_vp} - played
    raise AssertionError(f"never played: {sorted(c.value for c in missing)}")


def _card_of(action: Action) -> ProgressCard:
    """The card a ``Play<Card>`` action plays, by its type's name."""
    name = type(action).__name__.removeprefix("Play")
    return next(c for c in ProgressCard if c.name.replace("_", "").lower() == name.lower())


# ---- the longest road on the 30-hex island against a brute-force search -----------------------


def brute_force_longest(roads: set[int], blocked: set[int]) -> int:
    """Every trail (no edge twice) of ``roads``, from every edge in both directions; a trail
    may end on a blocked intersection but not pass it."""
    island = ISLAND_30
    best = 0

    def extend(node: int, used: frozenset[int]) -> None:
        nonlocal best
        best = max(best, len(used))
        if node in blocked:
            return
        for e in island.node_edges[node]:
            if e in roads and e not in used:
                a, b = island.edge_nodes[e]
                extend(b if a == node else a, used | {e})

    for e in roads:
        a, b = island.edge_nodes[e]
        extend(b, frozenset({e}))
        extend(a, frozenset({e}))
    return best


@st.composite
def road_networks(draw: st.DrawFn) -> tuple[set[int], dict[int, tuple[int, str]], set[int]]:
    """Up to 15 roads of seat 0 grown from one edge (sometimes a second network), opponents'
    settlements and knights on some of their intersections, own settlements on others."""
    island = ISLAND_30
    roads = {draw(st.integers(0, island.edge_count - 1))}
    for _ in range(draw(st.integers(0, 14))):
        if draw(st.integers(0, 9)) == 0:
            candidates = list(range(island.edge_count))
        else:
            ends = {n for e in roads for n in island.edge_nodes[e]}
            candidates = sorted({f for n in ends for f in island.node_edges[n]} - roads)
        roads.add(draw(st.sampled_from(candidates)))
    touched = sorted({n for e in roads for n in island.edge_nodes[e]})
    pieces: dict[int, tuple[int, str]] = {}
    knights: set[int] = set()
    for node in touched:
        kind = draw(st.integers(0, 5))
        if kind == 0:
            pieces[node] = (1 + draw(st.integers(0, 4)), "settlement")
        elif kind == 1:
            knights.add(node)
        elif kind == 2:
            pieces[node] = (0, "settlement")
    return roads, pieces, knights


@settings(max_examples=150, deadline=None)
@given(network=road_networks())
def test_s12_longest_road_on_the_30_hex_island_matches_brute_force(
    network: tuple[set[int], dict[int, tuple[int, str]], set[int]],
) -> None:
    """§11 (knights and opponents' buildings break a road) on the 30-hex island (§12)."""
    roads, pieces, knight_nodes = network
    config = GameConfig.for_players(6, board=random_balanced_board(1, FRAME_30))
    state = Game.new(config).to_json()
    state["setup_step"] = 24
    state["prompt"] = {"kind": "turn", "player": 0}
    state["roads"] = [{"edge": e, "player": 0} for e in sorted(roads)]
    state["buildings"] = [{"node": n, "player": p, "kind": k} for n, (p, k) in pieces.items()]
    state["knights"] = [
        {"node": n, "player": 2, "level": 1, "active": False, "flags": 0}
        for n in sorted(knight_nodes)
    ]
    game = Game.from_json(state)
    blocked = {n for n, (p, _k) in pieces.items() if p != 0} | knight_nodes
    assert longest_road(game, 0) == brute_force_longest(roads, blocked)
    assert game.knight_owner.count(NOBODY) == ISLAND_30.node_count - len(knight_nodes)
