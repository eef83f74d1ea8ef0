"""Undo and redo as journal operations, under random sequences (hypothesis): after every step
the game is the replay of the actions in effect, and a reopened journal agrees."""

from __future__ import annotations

import tempfile
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from journal_helpers import random_actions

from companion_app.journal import GameSession, Journal, NothingToRedoError, NothingToUndoError
from companion_app.rules.actions import Action, Roll
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

SEEDS = range(4)


@cache
def _script(seed: int) -> tuple[GameConfig, tuple[Action, ...]]:
    config, actions = random_actions(seed=seed, count=120)
    return config, tuple(actions)


@cache
def _state(config: GameConfig, actions: tuple[Action, ...]) -> dict[str, object]:
    return Game.replay(config, actions).to_json()


def _check(
    session: GameSession, config: GameConfig, live: list[Action], tail: list[Action]
) -> None:
    assert session.actions == tuple(live)
    assert session.redo_actions == tuple(tail)
    assert session.game.to_json() == _state(config, tuple(live))


OPS = st.one_of(
    st.tuples(st.just("apply"), st.integers(0, 2**32)),
    st.tuples(st.just("undo"), st.just(0)),
    st.tuples(st.just("redo"), st.just(0)),
    st.tuples(st.just("reopen"), st.just(0)),
)


@given(
    seed=st.sampled_from(SEEDS),
    prefix=st.integers(0, 120),
    ops=st.lists(OPS, max_size=40),
)
def test_journal_undo_redo_sequences_give_the_prefix_state(
    seed: int, prefix: int, ops: list[tuple[str, int]]
) -> None:
    config, script = _script(seed)
    live = list(script[:prefix])
    tail: list[Action] = []
    with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "j.sqlite3") as journal:
        session = journal.new_game(config)
        for action in live:
            session.apply(action)
        for kind, choice in ops:
            if kind == "apply":
                if session.game.is_over:
                    continue
                action = choose_random_action(session.game, SplitMix64(choice))
                assert session.apply(action) == len(live)
                live.append(action)
                tail.clear()
            elif kind == "undo":
                if not live:
                    with pytest.raises(NothingToUndoError):
                        session.undo()
                else:
                    step = session.undo()
                    undone = live.pop()
                    assert (step.index, step.action) == (len(live), undone)
                    assert step.is_roll == isinstance(undone, Roll)
                    tail.insert(0, undone)
            elif kind == "redo":
                if not tail:
                    with pytest.raises(NothingToRedoError):
                        session.redo()
                else:
                    step = session.redo()
                    assert (step.index, step.action) == (len(live), tail[0])
                    live.append(tail.pop(0))
            else:
                session = journal.open_game(session.game_id)
            _check(session, config, live, tail)
        summary = journal.summary(session.game_id)
        assert (summary.action_count, summary.redo_count) == (len(live), len(tail))
        _check(journal.open_game(session.game_id), config, live, tail)
