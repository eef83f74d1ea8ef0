"""Crash safety: a worker applies a scripted game through the journal and is SIGKILLed at
random moments; the journal then holds exactly the operations committed before the kill.

The worker prints the number of committed operations after each commit, so the last number
printed is a lower bound; the kill may land between a commit and its print, so the journal
may hold one more. Its ``revision`` (one per committed change) says which, and the rows, the
undone tail and the resumed state must then equal the script's model at that point.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from journal_helpers import APPLY, UNDO, model_after, op_script

from companion_app.journal import Journal, JournalNotFoundError
from companion_app.rules.game import Game

WORKER = Path(__file__).with_name("journal_crash_worker.py")
RUNS = 24
EARLY_RUNS = 4  # killed while the journal and the game are being created
SCRIPT_LENGTH = 400


def _run_and_kill(db: Path, seed: int, delay: float, kill_after: int | None) -> list[str]:
    """Run the worker and SIGKILL it: ``delay`` seconds after it is ready (``kill_after`` None,
    while the journal and the game are being created), or ``delay`` seconds after it printed
    ``kill_after`` committed operations, so the kills land all over the script however fast
    the machine is."""
    proc = subprocess.Popen(
        [sys.executable, str(WORKER), str(db), str(seed), str(SCRIPT_LENGTH)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    lines = [proc.stdout.readline().strip()]
    assert lines == ["ready"], proc.communicate()[1]
    if kill_after is not None:
        lines.append(proc.stdout.readline().strip())
        assert lines[-1].startswith("game "), proc.communicate()[1]
        while (line := proc.stdout.readline().strip()) and line != "done":
            lines.append(line)
            if int(line) >= kill_after:
                break
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    # Read on through the same reader: the lines readline() already buffered would be lost to
    # communicate(), which reads the pipes underneath (a fast worker fills the buffer).
    out = proc.stdout.read()
    assert proc.stderr is not None
    err = proc.stderr.read()
    assert proc.returncode in (-signal.SIGKILL, 0), err
    return lines + out.splitlines()


def _integrity(db: Path) -> str:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


def _check_run(db: Path, seed: int, lines: list[str]) -> int:
    """Check the journal after the kill; returns the number of committed operations."""
    config, ops = op_script(seed, SCRIPT_LENGTH)
    # Whole lines only: the worker's "game N" line names the game, it counts no operation.
    lines = [line.strip() for line in lines]
    printed = [int(line) for line in lines if line.isdigit()]
    lower = printed[-1] if printed else 0
    game_started = any(line.startswith("game ") for line in lines)
    try:
        journal = Journal(db, create=False)
    except JournalNotFoundError:
        assert not game_started, "the journal vanished after its game was reported"
        return 0
    with journal:
        assert _integrity(db) == "ok"
        games = journal.games()
        if not game_started and not games:
            return 0
        assert len(games) == 1
        session = journal.open_game(games[0].id)
        committed = session.revision
        assert lower <= committed <= min(lower + 1, len(ops)), (lower, committed)
        live, tail = model_after(ops, committed)
        assert list(session.actions) == live
        assert list(session.redo_actions) == tail
        assert session.game.to_json() == Game.replay(config, live).to_json()
        summary = journal.summary(session.game_id)
        assert (summary.action_count, summary.redo_count) == (len(live), len(tail))

        # The journal stays writable after the crash: carry on with the script.
        for op in ops[committed : committed + 15]:
            if op.kind == APPLY:
                assert op.action is not None
                session.apply(op.action)
            elif op.kind == UNDO:
                session.undo()
            else:
                session.redo()
        resumed = journal.open_game(session.game_id)
        live, tail = model_after(ops, min(committed + 15, len(ops)))
        assert list(resumed.actions) == live and list(resumed.redo_actions) == tail
        return committed


@pytest.mark.slow
def test_journal_survives_sigkill_at_random_moments(tmp_path: Path) -> None:
    rng = random.Random(20240611)
    committed_counts = []
    for run in range(RUNS):
        early = run < EARLY_RUNS
        kill_after = None if early else rng.randrange(1, SCRIPT_LENGTH)
        delay = rng.uniform(0.0, 0.015) if early else rng.uniform(0.0, 0.002)
        db = tmp_path / f"run{run}" / "journal.sqlite3"
        db.parent.mkdir()
        lines = _run_and_kill(db, seed=run + 1, delay=delay, kill_after=kill_after)
        committed_counts.append(_check_run(db, run + 1, lines))
    # The kills landed at different points of the script, not all at its start or end.
    assert len(set(committed_counts)) >= RUNS // 2, committed_counts
    assert any(0 < c < SCRIPT_LENGTH for c in committed_counts)
