"""Timings of the journal's two hot paths, ready for the project's benchmarks.

* :func:`replay_seconds`: resuming a game of ``actions`` actions (read rows, parse, replay);
  the target is under 100 ms for 1,000 actions.
* :func:`commit_seconds`: one ``session.apply`` (rules check + one synced SQLite commit); the
  target is under 2 ms.

``python -m companion_app.journal.benchmark`` prints both as JSON. Nothing here asserts a
time; the numbers depend on the machine and its storage.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

from companion_app.journal.store import Journal
from companion_app.rules.actions import Action
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64


def scripted_actions(count: int, seed: int = 1) -> tuple[GameConfig, list[Action]]:
    """``count`` legal actions of one random game (the first seed from ``seed`` whose game
    lasts that long)."""
    for s in range(seed, seed + 1000):
        config = GameConfig.for_players(4, seed=s)
        game = Game.new(config)
        rng = SplitMix64(s ^ 0x5EED)
        while len(game.history) < count and not game.is_over:
            game.apply(choose_random_action(game, rng))
        if len(game.history) >= count:
            return config, list(game.history)
    raise RuntimeError(f"no random game from seed {seed} reached {count} actions")


def replay_seconds(
    actions: int = 1000, *, repeats: int = 5, directory: Path | None = None
) -> float:
    """Best time of ``repeats`` resumes (``Journal.open_game``) of a ``actions``-action game."""
    config, script = scripted_actions(actions)
    with tempfile.TemporaryDirectory(dir=directory) as tmp, Journal(Path(tmp) / "b.db") as j:
        session = j.new_game(config)
        for action in script:
            session.apply(action)
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            j.open_game(session.game_id)
            best = min(best, time.perf_counter() - start)
    return best


def commit_seconds(commits: int = 300, *, directory: Path | None = None) -> float:
    """Median time of one ``session.apply`` over ``commits`` actions of a random game."""
    config, script = scripted_actions(commits)
    times: list[float] = []
    with tempfile.TemporaryDirectory(dir=directory) as tmp, Journal(Path(tmp) / "b.db") as j:
        session = j.new_game(config)
        for action in script:
            start = time.perf_counter()
            session.apply(action)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    result = {
        "replay_1000_actions_ms": round(replay_seconds(1000) * 1000, 2),
        "commit_median_ms": round(commit_seconds() * 1000, 3),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
