"""Home with bad journal files, driven by touches under Xvfb (``bad_journal_scenario.py``):
the app never crashes, says what is wrong with each file, offers a new journal beside it or
another file, and leaves every bad file exactly as it was."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from pathlib import Path

import pytest
from PIL import Image
from scenario_run import failure_lines, run_scenario

from companion_app.journal import APPLICATION_ID, Journal
from companion_app.rules.config import GameConfig

pytestmark = pytest.mark.ui

SCENARIO = Path(__file__).with_name("bad_journal_scenario.py")


def _lay_out_bad_files(folder: Path) -> None:
    (folder / "journal.sqlite3").write_bytes(random.Random(7).randbytes(16384))
    conn = sqlite3.connect(folder / "other_program.sqlite3")
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()
    with Journal(folder / "half.sqlite3") as journal:
        journal.new_game(GameConfig.for_players(3, seed=1))
    data = (folder / "half.sqlite3").read_bytes()
    (folder / "half.sqlite3").write_bytes(data[: len(data) // 2])
    conn = sqlite3.connect(folder / "other_columns.sqlite3")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 2")
    conn.execute("CREATE TABLE game (name TEXT)")
    conn.execute("CREATE TABLE action (what TEXT)")
    conn.commit()
    conn.close()
    (folder / "a_folder").mkdir()
    (folder / "a_folder" / "inside.txt").write_text("kept\n")


def _hashes(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "result.json" and not p.name.startswith("a_folder-new")
    }


@pytest.fixture(scope="module")
def run(xvfb_display: str, artifacts_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp = tmp_path_factory.mktemp("bad_journal_ui")
    _lay_out_bad_files(tmp)
    before = _hashes(tmp)
    report = run_scenario(SCENARIO, xvfb_display, artifacts_dir, tmp, timeout=180)
    report["before"], report["after"] = before, _hashes(tmp)
    return report


def test_the_scenario_ran_to_the_end_and_every_check_held(run: dict) -> None:
    assert run["error"] == "", run["error"]
    assert not failure_lines(run), failure_lines(run)
    assert len(run["checks"]) >= 5 * 5 + 6


def test_no_bad_file_was_changed_or_added_to(run: dict) -> None:
    assert run["after"] == run["before"]


def test_the_new_journal_beside_it_is_a_journal(run: dict) -> None:
    with Journal(run["tmp"] / "a_folder-new.sqlite3", create=False) as journal:
        assert journal.games() == []


def test_each_screen_was_photographed(run: dict) -> None:
    for name in ("01_random_bytes", "02_half", "02_a_folder", "03_new_journal"):
        with Image.open(run["artifacts"] / f"bad_journal_{name}.png") as image:
            assert image.size == (1280, 800)
            assert len(image.convert("L").getcolors(4096) or range(4097)) > 8  # not a blank window
