"""`python -m companion_app.journal`: list, show, export, import, replay, through a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from journal_helpers import random_actions

from companion_app.i18n import catalogue
from companion_app.journal import Journal
from companion_app.rules.game import Game


def cli(
    *args: str, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion_app.journal", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        input=stdin,
    )


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A journal with an unfinished game (1, 120 actions, one undone) and a won game (2)."""
    path = tmp_path_factory.mktemp("cli") / "journal.sqlite3"
    with Journal(path) as journal:
        config, actions = random_actions(seed=4, count=121)
        session = journal.new_game(config)
        for action in actions:
            session.apply(action)
        session.undo()
        config, actions = random_actions(seed=1, count=5000, players=3, vp_target=5)
        won = journal.new_game(config)
        for action in actions:
            won.apply(action)
    return path


def test_list_shows_every_game_and_can_filter(db: Path) -> None:
    out = cli("--db", str(db), "list")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[:2] == ["game", "status"]
    assert any(line.split()[0] == "1" and "unfinished" in line for line in lines)
    assert any(line.split()[0] == "2" and "won by" in line for line in lines)
    out = cli("list", "--unfinished", "--json", "--db", str(db))
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["id"], r["action_count"], r["redo_count"]) for r in rows] == [(1, 120, 1)]


def test_list_without_a_journal_says_so_and_creates_nothing(tmp_path: Path) -> None:
    out = cli("--db", str(tmp_path / "none.sqlite3"), "list")
    assert out.returncode == 0 and "No games yet" in out.stdout
    assert list(tmp_path.iterdir()) == []


def test_show_prints_status_prompt_and_last_actions(db: Path) -> None:
    out = cli("--db", str(db), "show", "1", "--actions", "3")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.startswith("Game 1: unfinished")
    assert "Actions: 120, 1 undone (can be redone)" in text
    assert "Now: " in text and "Victory points: Red" in text
    assert len(text.split("Last actions:")[1].strip().splitlines()) == 3
    state = json.loads(cli("--db", str(db), "show", "2", "--state").stdout)
    assert state["winner"] >= 0


def test_show_speaks_the_language_asked_for_and_english_by_default(db: Path) -> None:
    with Journal(db, create=False) as journal:
        prompt = journal.open_game(1).game.describe_prompt()
    english = cli("--db", str(db), "show", "1").stdout
    german = cli("--lang", "de", "--db", str(db), "show", "1").stdout
    assert f"Now: {prompt}\n" in english
    assert f"Jetzt: {catalogue('de').render(prompt)}\n" in german
    # Its own words too: one language at once.
    assert german.startswith("Spiel 1: offen\nSpieler: ")
    assert "Aktionen: 120, 1 rückgängig gemacht (wiederholbar)" in german
    for english in ("Now:", "Game 1", "Players:", "Actions:", "Victory points"):
        assert english not in german
    assert catalogue("de").render(prompt) != str(prompt)
    refused = cli("--lang", "xx", "--db", str(db), "show", "1")
    assert refused.returncode == 2 and "--lang" in refused.stderr


def test_export_import_and_replay_round_trip(db: Path, tmp_path: Path) -> None:
    export = tmp_path / "game1.json"
    out = cli("--db", str(db), "export", "1", "-o", str(export))
    assert out.returncode == 0, out.stderr
    assert json.loads(cli("--db", str(db), "export", "1").stdout) == json.loads(export.read_text())
    again = cli("--db", str(db), "export", "1", "-o", str(export))
    assert again.returncode == 1 and "--force" in again.stderr
    assert cli("--db", str(db), "export", "1", "-o", str(export), "--force").returncode == 0

    other = tmp_path / "other.sqlite3"
    out = cli("--db", str(other), "import", str(export))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("imported as game 1 (120 actions")
    from_file = json.loads(cli("replay", "--file", str(export)).stdout)
    from_db = json.loads(cli("--db", str(other), "replay", "1").stdout)
    with Journal(db) as journal:
        original = journal.open_game(1)
        assert from_file == from_db == original.game.to_json()
        early = Game.replay(original.game.config, original.actions[:40]).to_json()
    assert json.loads(cli("replay", "--file", str(export), "--upto", "40").stdout) == early
    summary = cli("replay", "--file", "-", "--summary", stdin=export.read_text())
    assert summary.returncode == 0 and "120 actions replayed" in summary.stdout


def test_import_of_a_bad_file_names_the_problem(db: Path, tmp_path: Path) -> None:
    export = json.loads(cli("--db", str(db), "export", "1").stdout)
    road = next(i for i, a in enumerate(export["actions"]) if a["type"] == "build_road")
    export["actions"][road]["edge"] = 80
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(export))
    target = tmp_path / "t.sqlite3"
    out = cli("--db", str(target), "import", str(bad))
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith(f"error: action {road} (build_road): edge 80 does not exist")
    assert not target.exists()
    out = cli("replay", "--file", str(tmp_path / "missing.json"))
    assert out.returncode == 1 and "cannot read" in out.stderr


def test_errors_go_to_stderr_with_exit_codes(db: Path, tmp_path: Path) -> None:
    out = cli("--db", str(db), "show", "99")
    assert out.returncode == 1 and "no game 99" in out.stderr and out.stdout == ""
    out = cli("--db", str(tmp_path / "none.sqlite3"), "show", "1")
    assert out.returncode == 1 and "no journal at" in out.stderr
    out = cli("--db", str(db), "replay")
    assert out.returncode == 2 and "either GAME_ID or --file" in out.stderr
    out = cli("--db", str(db), "replay", "1", "--upto", "500")
    assert out.returncode == 1 and "has only 120 actions" in out.stderr
    out = cli("frobnicate")
    assert out.returncode == 2 and "invalid choice" in out.stderr


def test_a_foreign_file_is_reported_and_left_alone(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n")
    for command in (["list"], ["show", "1"], ["import", str(notes)]):
        out = cli("--db", str(notes), *command)
        assert out.returncode == 1, command
        assert "is not a SQLite database" in out.stderr or "not JSON" in out.stderr
    assert notes.read_text() == "not a database\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_the_default_journal_is_in_the_xdg_data_directory(db: Path, tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    export = cli("--db", str(db), "export", "1").stdout
    out = cli("import", "-", env=env, stdin=export)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "catan-companion" / "journal.sqlite3").is_file()
    assert "unfinished" in cli("list", env=env).stdout
    help_text = "".join(cli("--help", env=env).stdout.split())  # argparse wraps long lines
    assert str(tmp_path / "catan-companion" / "journal.sqlite3") in help_text


def test_help_texts_describe_every_command() -> None:
    out = cli("--help")
    assert out.returncode == 0
    for command in ("list", "show", "export", "import", "replay"):
        assert command in out.stdout
        sub = cli(command, "--help")
        assert sub.returncode == 0 and "--db PATH" in sub.stdout


def test_an_upgraded_journal_says_where_its_old_copy_went_once(tmp_path: Path) -> None:
    """The release before people and results wrote ``fixtures/journal-v2.sqlite3``: the first
    command that opens it upgrades it and says, on stderr, where the copy is; the next says
    nothing more, and standard output is the command's own both times."""
    path = tmp_path / "journal.sqlite3"
    path.write_bytes((Path(__file__).parent / "fixtures" / "journal-v2.sqlite3").read_bytes())
    first = cli("--db", str(path), "list")
    backup = tmp_path / "journal.v2-backup.sqlite3"
    assert first.returncode == 0, first.stderr
    assert first.stderr == (
        f"The journal was upgraded to this version; its old copy is kept at {backup}\n"
    )
    assert backup.exists()
    again = cli("--db", str(path), "list")
    assert again.returncode == 0 and again.stderr == ""
    assert again.stdout == first.stdout
