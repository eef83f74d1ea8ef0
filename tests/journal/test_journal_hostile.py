"""Hostile journal files and export files, through the journal API and every `journal` command.

For each bad kind: every command answers with one line on stderr and exit code 1 (never a
traceback), and the file is byte for byte what it was, with nothing created beside it.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from journal_helpers import random_actions

from companion_app.journal import APPLICATION_ID, Journal, JournalError

NESTED = "[" * 100_000 + "]" * 100_000


def _journal(path: Path) -> None:
    config, actions = random_actions(seed=11, count=60)
    with Journal(path) as journal:
        session = journal.new_game(config)
        for action in actions:
            session.apply(action)


def _sql(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    try:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


def random_bytes(path: Path) -> None:
    path.write_bytes(random.Random(1).randbytes(8192))


def a_directory(path: Path) -> None:
    path.mkdir()
    (path / "inside.txt").write_text("not a journal\n")


def empty_file(path: Path) -> None:
    path.write_bytes(b"")


def text_file(path: Path) -> None:
    path.write_text("Shopping list\n- bread\n- wool\n")


def another_programs_sqlite(path: Path) -> None:
    _sql(
        path,
        "CREATE TABLE contacts (name TEXT, phone TEXT)",
        "INSERT INTO contacts VALUES ('a', '1')",
    )


def half_truncated(path: Path) -> None:
    _journal(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def our_id_other_columns(path: Path) -> None:
    _sql(
        path,
        f"PRAGMA application_id = {APPLICATION_ID}",
        "PRAGMA user_version = 2",
        "CREATE TABLE game (name TEXT)",
        "CREATE TABLE action (what TEXT)",
        "INSERT INTO game VALUES ('x')",
    )


def our_id_one_more_column(path: Path) -> None:
    _journal(path)
    _sql(path, "ALTER TABLE game ADD COLUMN colour TEXT")


def deeply_nested_action_row(path: Path) -> None:
    _journal(path)
    _sql(path, f"UPDATE action SET data = '{NESTED}' WHERE idx = 3")


def seed_of_5000_digits(path: Path) -> None:
    _journal(path)
    conn = sqlite3.connect(path)
    try:
        (text,) = conn.execute("SELECT config FROM game").fetchone()
        config = json.loads(text)
        huge = json.dumps(config).replace(f'"seed": {config["seed"]}', '"seed": ' + "9" * 5000)
        conn.execute("UPDATE game SET config = ?", (huge,))
        conn.commit()
    finally:
        conn.close()


def deeply_nested_config(path: Path) -> None:
    _journal(path)
    _sql(path, f"UPDATE game SET config = '{NESTED}'")


def a_number_where_text_belongs(path: Path) -> None:
    _journal(path)
    _sql(path, "UPDATE action SET data = 42 WHERE idx = 0")


BAD_FILES: list[Callable[[Path], None]] = [
    random_bytes,
    a_directory,
    empty_file,
    text_file,
    another_programs_sqlite,
    half_truncated,
    our_id_other_columns,
    our_id_one_more_column,
    deeply_nested_action_row,
    seed_of_5000_digits,
    deeply_nested_config,
    a_number_where_text_belongs,
]
# Journals that are ours and whole, with a bad row: the journal opens, the game does not.
BAD_ROWS = {deeply_nested_action_row, seed_of_5000_digits, deeply_nested_config}
BAD_ROWS |= {a_number_where_text_belongs}


def _snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with the SHA-256 of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "companion_app.journal", *args],
        capture_output=True,
        timeout=120,
        input=stdin,
    )


def _one_line_error(out: subprocess.CompletedProcess[bytes]) -> str:
    err = out.stderr.decode()
    assert out.returncode == 1, (out.returncode, err, out.stdout[:300])
    assert "Traceback" not in err and err.count("\n") == 1 and err.startswith("error: "), err
    assert len(err) < 600, err
    return err


@pytest.fixture(scope="module")
def export_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("export")
    _journal(folder / "good.sqlite3")
    out = cli("--db", str(folder / "good.sqlite3"), "export", "1", "-o", str(folder / "g.json"))
    assert out.returncode == 0, out.stderr
    return folder / "g.json"


@pytest.mark.parametrize("make", BAD_FILES, ids=lambda f: f.__name__)
def test_a_bad_journal_is_refused_in_one_line_and_left_untouched(
    make: Callable[[Path], None], tmp_path: Path, export_file: Path
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "journal.sqlite3"
    make(path)
    before = _snapshot(folder)
    is_dir = path.is_dir()

    try:  # as the app opens it: creating it if missing
        with Journal(path) as journal:
            assert make in BAD_ROWS, "a bad journal opened"
            with pytest.raises(JournalError) as caught:
                for summary in journal.games():
                    journal.open_game(summary.id)
            assert "\n" not in str(caught.value)
    except JournalError as exc:
        assert make not in BAD_ROWS, exc
        assert "\n" not in str(exc)
        assert str(path) in str(exc)
    assert _snapshot(folder) == before

    commands = [["list"], ["show", "1"], ["export", "1"], ["replay", "1"], ["standings"]]
    if make not in BAD_ROWS:
        commands += [["import", str(export_file)], ["people"], ["standings", "--csv"]]
    for command in commands:
        out = cli("--db", str(path), *command)
        if command == ["list"] and make in BAD_ROWS - {seed_of_5000_digits, deeply_nested_config}:
            assert out.returncode == 0, out.stderr  # the list needs only the game's config
            continue
        if command == ["standings"] and make in BAD_ROWS:
            assert out.returncode == 0, out.stderr  # no finished game: nothing to replay
            assert out.stdout.decode() == "No finished games yet.\n"
            assert _snapshot(folder) == before
            continue
        _one_line_error(out)
        assert _snapshot(folder) == before, command
    assert path.is_dir() == is_dir


BAD_EXPORTS: dict[str, bytes] = {
    "random bytes": random.Random(2).randbytes(4096),
    "not JSON": b"{'format': 'catan-companion-game'}",
    "deeply nested": NESTED.encode(),
    "deeply nested inside an action": (
        b'{"format":"catan-companion-game","version":1,"config":{},"actions":['
        + NESTED.encode()
        + b"]}"
    ),
    "a seed of 5000 digits": (
        b'{"format":"catan-companion-game","version":1,"config":{"seed":'
        + b"9" * 5000
        + b'},"actions":[]}'
    ),
    "NaN": b'{"format":"catan-companion-game","version":NaN,"config":{},"actions":[]}',
    "1e999": b'{"format":"catan-companion-game","version":1e999,"config":{},"actions":[]}',
    "a key twice": b'{"format":"catan-companion-game","format":"x","version":1}',
    "an empty file": b"",
    "a list": b"[1, 2, 3]",
    "another format": b'{"format":"spreadsheet","version":1}',
    "config of the wrong shape": (
        b'{"format":"catan-companion-game","version":1,"config":{"players":7},"actions":[]}'
    ),
    "an action of the wrong shape": (
        b'{"format":"catan-companion-game","version":1,"config":{},"actions":[{"type":[]}]}'
    ),
    "a string where actions belong": (
        b'{"format":"catan-companion-game","version":1,"config":{},"actions":"roll"}'
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_EXPORTS))
def test_a_bad_export_file_is_refused_in_one_line_and_imports_nothing(
    name: str, tmp_path: Path, export_file: Path
) -> None:
    db = tmp_path / "journal.sqlite3"
    _journal(db)
    bad = tmp_path / "bad.json"
    bad.write_bytes(BAD_EXPORTS[name])
    before = _snapshot(tmp_path)
    for command in (["import", str(bad)], ["replay", "--file", str(bad)], ["import", "-"]):
        out = cli("--db", str(db), *command, stdin=BAD_EXPORTS[name])
        err = _one_line_error(out)
        assert "import" not in command or "imported" not in out.stdout.decode(), err
    assert _snapshot(tmp_path) == before
    with Journal(db) as journal:
        assert len(journal.games()) == 1


def test_an_export_file_that_cannot_be_read_is_one_line(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.json", tmp_path):
        _one_line_error(cli("--db", str(tmp_path / "j.sqlite3"), "import", str(path)))
    assert not (tmp_path / "j.sqlite3").exists()
    if os.geteuid() != 0:  # root reads anything
        locked = tmp_path / "locked.json"
        locked.write_text("{}")
        locked.chmod(0)
        _one_line_error(cli("--db", str(tmp_path / "j.sqlite3"), "replay", "--file", str(locked)))
