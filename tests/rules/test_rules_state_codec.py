"""State JSON from outside: any malformed shape is refused with StateError naming the problem.

Valid states from random games are mutated (a value replaced by one of the wrong type, a huge
number, a bool, a deep list; a key removed; a list cut or grown) and loaded; the only exception
that may come out is the documented one. Actions' and configs' JSON are fuzzed the same way.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion_app.rules.actions import action_from_json
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import ConfigError, MalformedActionError, StateError
from companion_app.rules.game import Game
from companion_app.rules.randomplay import play_random_game


def _state(seed: int, turns: int) -> dict[str, Any]:
    game = play_random_game(seed, players=3 + seed % 2, max_turns=turns).game
    assert game is not None
    data: dict[str, Any] = json.loads(json.dumps(game.to_json()))
    return data


STATES = [_state(1, 3), _state(2, 60), _state(3, 150), _state(4, 400)]
ACTIONS = [
    a.to_json() for a in (play_random_game(5, max_turns=120).game or Game.new(GameConfig())).history
]


def _deep(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


class _Deep(list[Any]):
    """A list nested 100,000 deep, with a short repr (hypothesis prints the examples)."""

    def __repr__(self) -> str:
        return "DEEP"


DEEP = _Deep([_deep(100_000)])

hostile = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=80),
    st.sampled_from([-(2**70), 2**64, 2**63 - 1, 10**5000, -1]),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.sampled_from(["ore", "city", "trade", "roll", "commit", "turn", "red"]),
    st.lists(st.integers(-2, 60), max_size=5),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
    st.just(DEEP),
    st.just({"kind": "turn", "player": 9}),
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if len(path) > 8:
        return found
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*path, i))
    return found


PATHS = [_paths(state) for state in STATES]


def _mutate(data: Any, path: tuple[Any, ...], how: str, new: Any) -> Any:
    if not path:
        return new
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if how == "delete":
        del parent[last]
    elif how == "grow" and isinstance(parent[last], list):
        parent[last].append(new)
    elif how == "cut" and isinstance(parent[last], list | dict) and parent[last]:
        if isinstance(parent[last], list):
            parent[last].pop()
        else:
            parent[last].pop(next(iter(parent[last])))
    else:
        parent[last] = new
    return data


@settings(max_examples=400, deadline=None)
@given(
    which=st.integers(0, len(STATES) - 1),
    pick=st.integers(min_value=0),
    how=st.sampled_from(["replace", "replace", "delete", "grow", "cut"]),
    new=hostile,
    twice=st.booleans(),
    second=st.integers(min_value=0),
)
def test_a_mutated_state_loads_or_is_refused_with_state_error(
    which: int, pick: int, how: str, new: Any, twice: bool, second: int
) -> None:
    data = copy.deepcopy(STATES[which])
    paths = PATHS[which]
    data = _mutate(data, paths[pick % len(paths)], how, new)
    if twice and isinstance(data, dict):
        more = _paths(data)
        data = _mutate(data, more[second % len(more)], "replace", new)
    try:
        game = Game.from_json(data)
    except StateError as exc:
        message = str(exc)
        assert message and "\n" not in message and len(message) < 1000
        return
    game.to_json()  # what loads writes again


@pytest.mark.parametrize(
    "path, value, message",
    [
        (("hands", 1, "ore"), True, r"hands\[1\]\.ore must be an integer 0-131, got True"),
        (("hands", 1, "ore"), 2**80, r"hands\[1\]\.ore must be an integer 0-131, got a huge"),
        (("active",), 7, r"game state: active must be an integer 0-\d, got 7"),
        (("roads", 0, "edge"), 72, r"roads\[0\]\.edge must be an integer 0-71, got 72"),
        (("stage",), "attack!", r"stage must be one of , commit, attack"),
        (("tokens",), [], r"tokens must have 19 entries, got 0"),
        (("prompt", "kind"), 3, r"prompt\.kind must be one of setup_settlement"),
        (("rng",), -1, r"rng must be an integer 0-18446744073709551615, got -1"),
        (("config", "seed"), "7", r"config: seed must be an integer"),
        (("knights",), _deep(50_000), r"knights\[0\] must be a JSON object, got a list of 1"),
    ],
)
def test_the_first_problem_is_named(path: tuple[Any, ...], value: Any, message: str) -> None:
    data = _mutate(copy.deepcopy(STATES[3]), path, "replace", value)
    assert STATES[3]["knights"], "the example state needs a knight"
    with pytest.raises(StateError, match=message):
        Game.from_json(data)


def test_missing_keys_and_wrong_containers_are_named() -> None:
    data = copy.deepcopy(STATES[2])
    del data["bank"]
    with pytest.raises(StateError, match="game state: bank is missing"):
        Game.from_json(data)
    with pytest.raises(StateError, match="the state must be a JSON object, got a list of 0"):
        Game.from_json([])  # type: ignore[arg-type]
    with pytest.raises(StateError, match=r"state version 2\.5 is not 2"):
        Game.from_json({**STATES[0], "version": 2.5})
    with pytest.raises(StateError, match="state version True is not 2"):
        Game.from_json({**STATES[0], "version": True})


@settings(max_examples=300, deadline=None)
@given(pick=st.integers(min_value=0), key=st.text(max_size=8), new=hostile, drop=st.booleans())
def test_a_mutated_action_parses_or_is_refused_with_malformed_action_error(
    pick: int, key: str, new: Any, drop: bool
) -> None:
    data = dict(ACTIONS[pick % len(ACTIONS)])
    fields = [k for k in data if k != "type"] or ["type"]
    target = key or fields[pick % len(fields)]
    if drop:
        data.pop(target, None)
    else:
        data[target] = new
    try:
        action_from_json(data)
    except MalformedActionError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 1000


@settings(max_examples=300, deadline=None)
@given(pick=st.integers(min_value=0), how=st.sampled_from(["replace", "delete"]), new=hostile)
def test_a_mutated_config_loads_or_is_refused_with_config_error(
    pick: int, how: str, new: Any
) -> None:
    data = copy.deepcopy(STATES[1]["config"])
    paths = _paths(data)
    data = _mutate(data, paths[pick % len(paths)], how, new)
    try:
        GameConfig.from_json(data)
    except ConfigError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 1000


def test_config_refuses_bools_and_strings_for_numbers() -> None:
    data = copy.deepcopy(STATES[1]["config"])
    with pytest.raises(ConfigError, match="config: vp_target must be an integer 0-1000, got True"):
        GameConfig.from_json({**data, "vp_target": True})
    with pytest.raises(ConfigError, match=r"config: players\[0\]\.name must be a string"):
        GameConfig.from_json({**data, "players": [{"name": 5, "colour": "red"}]})
