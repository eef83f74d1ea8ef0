"""The app's Phones button end to end under Xvfb: QR codes shown, "Waiting for …'s phone" on
the banner, a phone's discard applied by the app, the server stopped when the game closes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from phones_helpers import seven_discard, write_journal_game

SCRIPT = Path(__file__).with_name("app_phones_scenario.py")


@pytest.mark.ui
def test_a_phone_answers_through_the_app(
    xvfb_display: str, artifacts_dir: Path, tmp_path: Path
) -> None:
    journal = tmp_path / "journal.sqlite3"
    game = write_journal_game(journal, seven_discard)
    result_path = tmp_path / "result.json"
    env = {**os.environ, "DISPLAY": xvfb_display, "KIVY_NO_CONSOLELOG": "1"}
    command = [sys.executable, str(SCRIPT), "--journal", str(journal)]
    command += ["--artifacts", str(artifacts_dir), "--result", str(result_path)]
    proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(result_path.read_text())
    assert "error" not in result, result
    name = game.config.names[game.prompt.player]
    assert result["waiting"] == f"Waiting for {name}'s phone"
    assert len(result["urls"]) == 4 and all(u.startswith("http://") for u in result["urls"])
    assert [a["type"] for a in result["after"]] == ["discard"] * game.prompt.count
    assert all(a["player"] == game.prompt.player for a in result["after"])
    assert result["can_undo"] is True
    assert result["stopped"] is True
    assert (artifacts_dir / "app_phones_popup.png").exists()
