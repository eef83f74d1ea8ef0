"""New game offers the people of the journal, driven by touches under Xvfb
(``people_scenario.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario_run import failure_lines, run_scenario

from companion_app.journal import Journal
from companion_app.rules.config import GameConfig, PlayerConfig

pytestmark = pytest.mark.ui

SCENARIO = Path(__file__).with_name("people_scenario.py")


def test_new_game_seats_a_known_person_in_their_colour(
    xvfb_display: str, artifacts_dir: Path, tmp_path: Path
) -> None:
    players = (
        PlayerConfig("Anna", "red"),
        PlayerConfig("Ben", "green"),
        PlayerConfig("Cleo", "white"),
    )
    with Journal(tmp_path / "journal.sqlite3") as journal:
        journal.new_game(GameConfig(players=players))
    report = run_scenario(SCENARIO, xvfb_display, artifacts_dir, tmp_path, timeout=120)
    assert not report["error"], report["error"]
    assert not report["failures"], failure_lines(report)
    assert len(report["checks"]) >= 5
