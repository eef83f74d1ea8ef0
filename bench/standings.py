"""Game nights: lifetime standings over a journal of 200 finished games, and the upgrade of a
journal of the release before people and results (its finished games replayed once).

Anchor, in the same run: reading the journal's game list (``Journal.games``), which every
screen of the app already does.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.table import Row, median, percentile, verdict
from companion_app.journal import Journal, build_export
from companion_app.journal.standings import evenings, finished_games, standings
from companion_app.rules.config import GameConfig, PlayerConfig
from companion_app.rules.game import Game
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

SECTION = "Game nights"
PEOPLE = ("Anna", "Ben", "Cleo", "Dan", "Eva", "Filip", "Gita", "Hugo")
COLOURS = ("red", "blue", "white", "orange")


@dataclass
class Sizes:
    games: int = 200
    distinct_games: int = 12
    """Random games played to the end; the journal holds each several times, other people."""
    runs: int = 200


def _finished_games(count: int) -> list[tuple[GameConfig, Game]]:
    played = []
    for seed in range(1, count + 1):
        config = GameConfig.for_players(3 + seed % 2, seed=seed, vp_target=8)
        game = Game.new(config)
        rng = SplitMix64(seed)
        while not game.is_over:
            game.apply(choose_random_action(game, rng))
        played.append((config, game))
    return played


class _Clock:
    def __init__(self) -> None:
        self.now = datetime(2025, 1, 3, 19, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def _fill(path: Path, sizes: Sizes) -> None:
    played = _finished_games(sizes.distinct_games)
    clock = _Clock()
    with Journal(path, clock=clock) as journal:
        for n in range(sizes.games):
            config, game = played[n % len(played)]
            seats = len(config.players)
            players = tuple(
                PlayerConfig(PEOPLE[(n + 3 * i) % len(PEOPLE)], COLOURS[i]) for i in range(seats)
            )
            config = GameConfig(
                players=players, board=config.board, seed=config.seed, vp_target=config.vp_target
            )
            # Three games a Friday evening.
            clock.now = datetime(2025, 1, 3, 19, 0, tzinfo=UTC) + timedelta(
                weeks=n // 3, hours=n % 3
            )
            finished = clock.now.isoformat()
            renamed = Game.replay(config, game.history)  # the names are in the state digest
            journal.import_game(
                build_export(
                    config, game.history, renamed, created_at=finished, updated_at=finished
                )
            )


def run(sizes: Sizes, workdir: Path) -> list[Row]:
    workdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        path = Path(tmp) / "nights.sqlite3"
        _fill(path, sizes)
        times: list[float] = []
        anchor: list[float] = []
        with Journal(path, create=False) as journal:
            for _ in range(sizes.runs):
                start = time.perf_counter()
                rows = standings(journal.conn)
                nights = evenings(finished_games(journal.conn))
                times.append(time.perf_counter() - start)
                start = time.perf_counter()
                journal.games()
                anchor.append(time.perf_counter() - start)
        assert sum(r.games for r in rows) == sum(len(g.seats) for e in nights for g in e.games)
        upgrade_s = _upgrade_time(path, Path(tmp))
    p99 = percentile(times, 99) * 1000
    return [
        Row(
            SECTION,
            f"standings and evenings over {sizes.games} finished games (p99)",
            p99,
            "ms",
            "< 200 ms",
            f"the game list: {median(anchor) * 1000:.1f} ms",
            verdict(p99, below=200),
            {
                "median_ms": median(times) * 1000,
                "runs": len(times),
                "people": len(rows),
                "evenings": len(nights),
            },
        ),
        Row(
            SECTION,
            f"upgrade a version-2 journal of {sizes.games} finished games (once)",
            upgrade_s * 1000,
            "ms",
            "-",
            "",
            "backup + replay of each finished game + one transaction",
        ),
    ]


def _upgrade_time(path: Path, tmp: Path) -> float:
    """The same journal as the release before people and results wrote it, upgraded."""
    old = tmp / "old.sqlite3"
    shutil.copyfile(path, old)
    conn = sqlite3.connect(old)
    try:
        for table in ("result", "seat", "person"):
            conn.execute(f"DROP TABLE {table}")
        conn.execute("PRAGMA user_version = 2")
        conn.commit()
    finally:
        conn.close()
    start = time.perf_counter()
    Journal(old, create=False).close()
    return time.perf_counter() - start
