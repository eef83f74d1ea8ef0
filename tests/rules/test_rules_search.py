"""The search primitives: ``Game.copy``, ``Game.push`` and ``Game.undo`` agree with a replay
from the start on random games of 3-6 players, and work on a copy never reaches the original."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion_app.rules.__main__ import state_digest
from companion_app.rules.actions import Action, EndTurn
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import IllegalActionError
from companion_app.rules.game import SNAPSHOT_EVERY, Game
from companion_app.rules.pieces import NOBODY
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64
from companion_app.rules.ships import _network, movable_ships, open_ships
from companion_app.rules.traderoute import longest_trade_route

seeds = st.integers(min_value=0, max_value=2**32)
players = st.integers(min_value=3, max_value=6)

SHARED_FIELDS = {
    "config",
    "board",
    "topology",
    "token_hexes",
    "gold_token_hexes",
    "_history",
    "_legal_cache",
}
"""What a copy may share with its original: immutable, replaced whole, or copied on change."""


def played(seed: int, steps: int, n: int, scenario: str | None = None) -> Game:
    game = Game.new(GameConfig.for_players(n, seed=seed, scenario=scenario))
    rng = SplitMix64(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(choose_random_action(game, rng))
    return game


def picture(game: Game) -> tuple[str, list[Action], list[Action]]:
    """What must agree: the state's digest, the legal actions, the history."""
    return state_digest(game.to_json()), list(game.legal_actions()), list(game.history)


@given(seed=seeds, n=players, steps=st.integers(min_value=0, max_value=400))
def test_a_copy_is_the_same_game_and_work_on_it_never_reaches_the_original(
    seed: int, n: int, steps: int
) -> None:
    original = played(seed, steps, n)
    before = picture(original)
    twin = original.copy()
    assert picture(twin) == before
    assert twin.to_json() == original.to_json()
    rng = SplitMix64(seed ^ 1)
    for _ in range(60):
        if twin.is_over:
            break
        twin.apply(choose_random_action(twin, rng))
    assert picture(original) == before
    replayed = Game.replay(twin.config, twin.history)
    assert twin.to_json() == replayed.to_json()
    assert twin.legal_actions() == replayed.legal_actions()
    # and the other way: the original's work does not reach the copy
    after_copy = picture(twin)
    for _ in range(30):
        if original.is_over:
            break
        original.apply(choose_random_action(original, rng))
    assert picture(twin) == after_copy


@settings(max_examples=40, deadline=None)
@given(
    seed=seeds,
    steps=st.integers(min_value=0, max_value=300),
    moves=st.lists(
        st.tuples(st.sampled_from(("apply", "push", "undo", "copy", "read")), st.integers(0, 7)),
        min_size=1,
        max_size=120,
    ),
)
def test_a_family_of_copies_keeps_each_its_own_history(
    seed: int, steps: int, moves: list[tuple[str, int]]
) -> None:
    """Copies of copies share the history they started from and each adds its own tail (a
    long one joined first): applies, pushes, undos into the shared part and reads on any member
    leave every member with exactly its own actions, and its state that of their replay."""
    family = [played(seed, steps, 4)]
    expected = [list(family[0].history)]
    rng = SplitMix64(seed ^ 6)
    for move, pick in moves:
        i = pick % len(family)
        game = family[i]
        if move == "copy":
            family.append(game.copy())
            expected.append(list(expected[i]))
        elif move == "undo":
            if expected[i]:
                assert game.undo() is expected[i].pop()
        elif move == "read":
            assert game.history == expected[i]
        elif not game.is_over:
            action = choose_random_action(game, rng)
            (game.push if move == "push" else game.apply)(action)
            expected[i].append(action)
        assert [g.history for g in family] == expected
    for game, history in zip(family, expected, strict=True):
        assert game.to_json() == Game.replay(game.config, history).to_json()


def test_a_history_read_before_a_copy_never_grows_by_the_copy() -> None:
    """The list :attr:`Game.history` gives stays the original's: the copy's actions, and the
    original's own after the copy, go to tails of their own."""
    original = played(9, 200, 4)
    before = original.history
    kept = list(before)
    twin = original.copy()
    rng = SplitMix64(9)
    for _ in range(50):  # longer than the tail a copy copies
        twin.apply(choose_random_action(twin, rng))
        original.apply(choose_random_action(original, rng))
    third = twin.copy()
    third.undo()
    assert before == kept
    assert original.history[: len(kept)] == kept
    assert twin.history[:-1] == third.history
    assert len(original.history) == len(twin.history) == len(kept) + 50


def test_a_copy_shares_no_list_of_the_state() -> None:
    original = played(5, 300, 6)
    twin = original.copy()
    assert set(twin.__dict__) == set(original.__dict__)
    mutable = [
        name
        for name, value in twin.__dict__.items()
        if name not in SHARED_FIELDS and value is original.__dict__[name]
        if not isinstance(value, int | str | tuple | type(None) | bool)
        if not hasattr(value, "__dataclass_fields__") and not hasattr(value, "value")
    ]
    assert mutable == []
    nested = [
        f"{name}[{i}]"
        for name, value in twin.__dict__.items()
        if isinstance(value, list) and name not in SHARED_FIELDS
        for i, item in enumerate(value)
        if isinstance(item, list) and item is original.__dict__[name][i]
    ]
    assert nested == []


@given(
    seed=seeds,
    n=players,
    steps=st.integers(min_value=0, max_value=300),
    moves=st.lists(st.booleans(), min_size=1, max_size=80),
)
def test_push_and_undo_walk_back_through_every_state_of_the_path(
    seed: int, n: int, steps: int, moves: list[bool]
) -> None:
    """A depth-first walk: True pushes a random legal action, False undoes the last push; at
    every step the state equals the reference game played with plain apply along the path."""
    game = played(seed, steps, n)
    start_history = list(game.history)
    path: list[tuple[str, list[Action]]] = [(state_digest(game.to_json()), game.legal_actions())]
    rng = SplitMix64(seed ^ 2)
    for push in moves:
        if push and not game.is_over:
            game.push(choose_random_action(game, rng))
            path.append((state_digest(game.to_json()), list(game.legal_actions())))
        elif len(path) > 1:
            game.undo()
            path.pop()
            assert (state_digest(game.to_json()), game.legal_actions()) == path[-1]
    assert game.history[: len(start_history)] == start_history
    replayed = Game.replay(game.config, game.history)
    assert game.to_json() == replayed.to_json()
    assert game.legal_actions() == replayed.legal_actions()
    while len(path) > 1:
        game.undo()
        path.pop()
    assert state_digest(game.to_json()) == path[0][0]
    assert game.history == start_history


@given(seed=seeds, n=players, steps=st.integers(min_value=1, max_value=300))
def test_pushes_applies_and_copies_mixed_undo_to_the_replayed_prefixes(
    seed: int, n: int, steps: int
) -> None:
    """Pushed and applied actions interleaved, a copy taken in the middle: every undo (from a
    record or by replay, on the original or the copy) gives the prefix's replayed state."""
    game = played(seed, steps, n)
    rng = SplitMix64(seed ^ 3)
    for i in range(12):
        if game.is_over:
            break
        action = choose_random_action(game, rng)
        if i % 3 == 1:
            game.apply(action)
        else:
            game.push(action)
    original_json = game.to_json()
    twin = game.copy()
    history = list(game.history)
    for kept in range(len(history) - 1, max(len(history) - 16, -1), -1):
        twin.undo()
        assert twin.history == history[:kept]
        assert twin.to_json() == Game.replay(twin.config, history[:kept]).to_json()
    assert game.to_json() == original_json
    for kept in range(len(history) - 1, max(len(history) - 16, -1), -1):
        game.undo()
        assert game.to_json() == Game.replay(game.config, history[:kept]).to_json()


def test_undo_across_a_snapshot_after_pushes_replays_from_the_one_before() -> None:
    """Pushed actions keep no snapshot: undoing past them by replay starts further back and
    still gives the prefix."""
    game = played(21, SNAPSHOT_EVERY - 3, 4)
    rng = SplitMix64(4)
    for _ in range(6):
        game.push(choose_random_action(game, rng))
    for _ in range(3):
        game.apply(choose_random_action(game, rng))
    history = list(game.history)
    for kept in range(len(history) - 1, len(history) - 12, -1):
        game.undo()
        assert game.to_json() == Game.replay(game.config, history[:kept]).to_json()


def test_an_illegal_push_is_refused_and_changes_nothing() -> None:
    game = played(8, 40, 4)
    before = picture(game)
    wrong = EndTurn((game.prompt.player + 1) % 4)
    with pytest.raises(IllegalActionError):
        game.push(wrong)
    assert picture(game) == before


@settings(max_examples=60, deadline=None)
@given(
    seed=seeds,
    n=players,
    sea=st.booleans(),
    steps=st.integers(min_value=0, max_value=400),
    moves=st.lists(st.sampled_from(("apply", "push", "undo", "copy")), min_size=1, max_size=60),
)
def test_kept_lookups_never_outlive_what_they_were_made_from(
    seed: int, n: int, sea: bool, steps: int, moves: list[str]
) -> None:
    """The state keeps lookups between actions (the road ends per player, the ship networks
    with the ship moves last listed from them, the trade route's path and the piece every path
    as long holds, the listed legal actions): after every apply, push, undo and copy, a random
    game (on the 19-hex island or New Shores) lists exactly what the same state decoded from
    its JSON lists, which starts with nothing kept."""
    if sea:
        n = min(n, 4)
    game = played(seed, steps, n, "new_shores" if sea else None)
    rng = SplitMix64(seed ^ 5)
    for move in moves:
        if move == "undo" and game.history:
            game.undo()
        elif move == "copy":
            game = game.copy()
        elif not game.is_over:
            action = choose_random_action(game, rng)
            if move == "push":
                game.push(action)
            else:
                game.apply(action)
        fresh = Game.from_json(game.to_json())
        assert game.legal_actions() == fresh.legal_actions(), move
        for p in range(n):
            assert game.road_ends(p) == fresh.road_ends(p), move
            assert open_ships(game, p) == open_ships(fresh, p), move
            if sea:  # the network's counts and edges, made from the kept ones after a ship change
                assert _network(game, p)[:6] == _network(fresh, p)[:6], move
            assert movable_ships(game, p) == movable_ships(fresh, p), move
            assert game.road_length[p] == fresh.longest_road(p), move
            path = game.route_paths[p]  # the kept trade route: the player's, as long
            if path is not None:
                edges = [e for e in range(path.bit_length()) if path >> e & 1]
                assert len(edges) == game.road_length[p], move
                assert set(edges) <= set(game.roads_of[p]) | set(game.ships_of[p]), move
            core = game.route_cores[p]  # every path as long holds it: one shorter without it
            if core != NOBODY:
                assert path is not None and path >> core & 1, move
                without = game.copy()
                if without.ship_owner[core] == p:
                    without.ship_owner[core] = NOBODY
                else:
                    without.edge_owner[core] = NOBODY
                without.rebuild_indexes()
                assert longest_trade_route(without, p) == game.road_length[p] - 1, move
