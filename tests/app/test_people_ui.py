"""New game offers the people of the journal, driven by touches under Xvfb
(``people_scenario.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario_run import failure_lines, run_scenario

from companion_app.journal import Journal
from companion_app.journal.results import SeatResult, store_results
from companion_app.rules.config import GameConfig, PlayerConfig

pytestmark = pytest.mark.ui

SCENARIO = Path(__file__).with_name("people_scenario.py")


def test_new_game_seats_a_known_person_in_their_colour_and_shows_the_standings(
    xvfb_display: str, artifacts_dir: Path, tmp_path: Path
) -> None:
    players = (
        PlayerConfig("Anna", "red"),
        PlayerConfig("Ben", "green"),
        PlayerConfig("Cleo", "white"),
    )
    with Journal(tmp_path / "journal.sqlite3") as journal:
        session = journal.new_game(GameConfig(players=players))
        # Its end, as the winning action would have stored it: Cleo won with 13 VP.
        results = tuple(
            SeatResult(seat, vp, vp == 13, False, 0, 0, 10, 360)
            for seat, vp in enumerate((7, 9, 13))
        )
        journal.conn.execute("BEGIN IMMEDIATE")
        store_results(journal.conn, session.game_id, results, "2026-11-20T21:00:00+00:00")
        journal.conn.execute("UPDATE game SET finished = 1, winner = 2")
        journal.conn.execute("COMMIT")
    report = run_scenario(SCENARIO, xvfb_display, artifacts_dir, tmp_path, timeout=120)
    assert not report["error"], report["error"]
    assert not report["failures"], failure_lines(report)
    assert len(report["checks"]) >= 10
