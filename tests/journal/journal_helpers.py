"""Shared by the journal tests and the crash-test worker: scripted games and operation lists."""

from __future__ import annotations

from dataclasses import dataclass

from companion_app.rules.actions import Action
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

APPLY, UNDO, REDO = "apply", "undo", "redo"


@dataclass(frozen=True)
class Op:
    kind: str
    action: Action | None = None


def random_actions(
    seed: int, count: int, *, players: int = 4, vp_target: int = 13
) -> tuple[GameConfig, list[Action]]:
    """Up to ``count`` legal actions of a seeded random game (fewer if it ends first)."""
    config = GameConfig.for_players(players, seed=seed, vp_target=vp_target)
    game = Game.new(config)
    rng = SplitMix64(seed ^ 0x5EED)
    while len(game.history) < count and not game.is_over:
        game.apply(choose_random_action(game, rng))
    return config, list(game.history)


def op_script(seed: int, length: int) -> tuple[GameConfig, list[Op]]:
    """A seeded list of journal operations: mostly new actions, some undos and redos."""
    config = GameConfig.for_players(3 + seed % 2, seed=seed)
    game = Game.new(config)
    rng = SplitMix64(seed * 7919 + 17)
    tail: list[Action] = []
    ops: list[Op] = []
    while len(ops) < length:
        r = rng.below(100)
        if (r < 8 or game.is_over) and game.history:
            tail.insert(0, game.undo())
            ops.append(Op(UNDO))
        elif r < 13 and tail:
            game.apply(tail.pop(0))
            ops.append(Op(REDO))
        else:
            action = choose_random_action(game, rng)
            game.apply(action)
            tail.clear()
            ops.append(Op(APPLY, action))
    return config, ops


def model_after(ops: list[Op], count: int) -> tuple[list[Action], list[Action]]:
    """(actions in effect, undone actions next-first) after the first ``count`` operations."""
    live: list[Action] = []
    tail: list[Action] = []
    for op in ops[:count]:
        if op.kind == APPLY:
            assert op.action is not None
            live.append(op.action)
            tail.clear()
        elif op.kind == UNDO:
            tail.insert(0, live.pop())
        else:
            live.append(tail.pop(0))
    return live, tail
