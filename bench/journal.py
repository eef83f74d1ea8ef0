"""Journal: resuming a 1,000-action game, and one committed action.

Anchors, in the same run and on the same storage: the rules core replaying the same actions with
no journal (what a resume without snapshots cannot avoid), and a bare SQLite commit of one row
with the journal's settings (WAL, synchronous=FULL: the fsync floor of this disk). The resume is
timed twice, interleaved with the replay: from the game's snapshot (the usual case), and with
its snapshots gone (a journal written before them, or every snapshot refused: a full replay).
Resumes and replays are timed in processor time (:data:`CLOCK`; the journal's file is in the
page cache, so a resume waits for no disk), and each ratio is the median of the per-round
ratios: on a shared machine, time another program took is neither side's.
"""

from __future__ import annotations

import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.table import Row, median, percentile, verdict
from companion_app.journal.store import Journal
from companion_app.rules.actions import Action
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

SECTION = "Journal"
CLOCK = time.process_time


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


@dataclass
class Sizes:
    replay_actions: int = 1000
    replays: int = 25  # interleaved rounds (each about 30 ms)
    commits: int = 300


def _bare_commits(path: Path, count: int) -> list[float]:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        times = []
        for i in range(count):
            start = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t (body) VALUES (?)", (f'{{"action": {i}}}',))
            conn.execute("COMMIT")
            times.append(time.perf_counter() - start)
        return times
    finally:
        conn.close()


def run(sizes: Sizes, workdir: Path) -> list[Row]:
    workdir.mkdir(parents=True, exist_ok=True)
    config, script = scripted_actions(sizes.replay_actions)
    commit_config, commit_script = scripted_actions(sizes.commits)
    with tempfile.TemporaryDirectory(dir=workdir) as tmp, Journal(Path(tmp) / "j.db") as journal:
        # One commit: every apply of a fresh game is timed.
        session = journal.new_game(commit_config)
        commit_times = []
        for action in commit_script:
            start = time.perf_counter()
            session.apply(action)
            commit_times.append(time.perf_counter() - start)
        bare_times = _bare_commits(Path(tmp) / "bare.db", sizes.commits)

        # Resume (from a snapshot, and by a full replay) and the bare rules core, interleaved.
        session = journal.new_game(config)
        for action in script:
            session.apply(action)
        bare = journal.new_game(config)
        for action in script:
            bare.apply(action)
        with journal.conn:
            journal.conn.execute("DELETE FROM snapshot WHERE game_id = ?", (bare.game_id,))
        replays: list[float] = []
        full: list[float] = []
        pure: list[float] = []
        for _ in range(sizes.replays):
            start = CLOCK()
            resumed = journal.open_game(session.game_id)
            replays.append(CLOCK() - start)
            start = CLOCK()
            replayed = journal.open_game(bare.game_id)
            full.append(CLOCK() - start)
            start = CLOCK()
            game = Game.new(config)
            for action in script:
                game.apply(action)
            pure.append(CLOCK() - start)
            assert len(resumed.game.history) == len(game.history) == len(script)
            assert resumed.game.to_json() == replayed.game.to_json() == game.to_json()
            assert replayed.resumed_from_snapshot == 0

    ratio = median([r / p for r, p in zip(replays, pure, strict=True)])
    full_ratio = median([f / p for f, p in zip(full, pure, strict=True)])
    replay_ms = median(replays) * 1000
    full_ms = median(full) * 1000
    pure_ms = median(pure) * 1000
    commit_ms = median(commit_times) * 1000
    bare_ms = median(bare_times) * 1000
    return [
        Row(
            SECTION,
            f"resume a {len(script):,}-action game (median)",
            replay_ms,
            "ms",
            "≤ 1.5× the replay",
            f"rules-core replay alone: {pure_ms:.1f} ms",
            f"{verdict(ratio, below=1.5)} (×{ratio:.2f} the replay)",
            {
                "replays_ms": [round(x * 1000, 2) for x in replays],
                "pure_ms": pure_ms,
                "ratio": ratio,
                "from_snapshot": resumed.resumed_from_snapshot,
            },
        ),
        Row(
            SECTION,
            f"resume a {len(script):,}-action game without snapshots (median)",
            full_ms,
            "ms",
            "< 100 ms",
            f"rules-core replay alone: {pure_ms:.1f} ms",
            f"{verdict(full_ms, below=100)} (×{full_ratio:.2f} the replay)",
            {"replays_ms": [round(x * 1000, 2) for x in full], "ratio": full_ratio},
        ),
        Row(
            SECTION,
            "one committed action (median)",
            commit_ms,
            "ms",
            "< 2 ms",
            f"bare SQLite commit: {bare_ms:.2f} ms",
            f"{verdict(commit_ms, below=2)} (×{commit_ms / bare_ms:.2f} the bare commit)",
            {
                "commits": len(commit_times),
                "p99_ms": percentile(commit_times, 99) * 1000,
                "bare_p99_ms": percentile(bare_times, 99) * 1000,
            },
        ),
    ]
