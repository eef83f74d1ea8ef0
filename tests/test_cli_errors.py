"""Every command line against a catalogue of bad inputs: an error is one line on stderr with exit
code 1 (bad usage: argparse's usage and one error line, exit code 2), never a traceback.

The journal's commands against bad journals and bad export files, each file hashed before and
after, are in ``tests/journal/test_journal_hostile.py``; this catalogue covers the rest.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

HUGE = "9" * 5000


def _bad_files(folder: Path) -> dict[str, Path]:
    files = {
        "random bytes": folder / "random.bin",
        "a directory": folder / "folder",
        "a missing file": folder / "missing" / "file.txt",
        "a dice script with a 7": folder / "seven.txt",
        "a dice script with a 5000-digit die": folder / "huge.txt",
        "an empty file": folder / "empty.txt",
    }
    files["random bytes"].write_bytes(random.Random(5).randbytes(5000))
    files["a directory"].mkdir()
    files["a dice script with a 7"].write_text("3 5 ship\n7 1 ship\n")
    files["a dice script with a 5000-digit die"].write_text(f"{HUGE} 1 ship\n")
    files["an empty file"].write_text("")
    return files


def run(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home", "DISPLAY": ""},
    )


def _error(out: subprocess.CompletedProcess[str], code: int) -> str:
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == code, (out.returncode, out.stderr)
    lines = out.stderr.strip().splitlines()
    if code == 1:
        assert len(lines) == 1, out.stderr
    else:  # argparse: the usage, then one line naming the error
        assert ": error: " in lines[-1], out.stderr
    return lines[-1]


@pytest.mark.parametrize(
    "name",
    [
        "random bytes",
        "a directory",
        "a missing file",
        "a dice script with a 7",
        "a dice script with a 5000-digit die",
        "an empty file",
    ],
)
def test_emulator_refuses_a_bad_dice_script_in_one_line(name: str, tmp_path: Path) -> None:
    path = _bad_files(tmp_path)[name]
    line = _error(run("companion_app.emulator", "--script", str(path)), 1)
    assert line.startswith("dice box emulator: ")


def test_emulator_refuses_a_png_folder_that_is_a_file(tmp_path: Path) -> None:
    path = _bad_files(tmp_path)["random bytes"]
    before = path.read_bytes()
    _error(run("companion_app.emulator", "--display-png", str(path)), 1)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("a directory", "is a folder, not a flash record file"),
        ("random bytes", "is not a dice box flash record (too long); it is left as it is"),
        ("an empty file", "is not a dice box flash record"),
        ("a dice script with a 7", "is not a dice box flash record"),
        ("a missing file", "no folder"),
    ],
)
def test_emulator_refuses_a_flash_file_that_is_not_its_record(
    name: str, words: str, tmp_path: Path
) -> None:
    """--flash names the file the box keeps its record in: a folder, a missing folder or a
    file that is not a flash record is refused in one line and left exactly as it was."""
    path = _bad_files(tmp_path)[name]
    before = sorted((p.name, p.read_bytes() if p.is_file() else b"") for p in tmp_path.rglob("*"))
    line = _error(run("companion_app.emulator", "--seed", "3", "--flash", str(path)), 1)
    assert line.startswith("dice box emulator: ") and words in line, line
    after = sorted((p.name, p.read_bytes() if p.is_file() else b"") for p in tmp_path.rglob("*"))
    assert after == before


def test_emulator_takes_its_own_flash_record_again(tmp_path: Path) -> None:
    """The other side of the refusals above: a record the box wrote is used again."""
    from companion_app.emulator.firmware import firmware_module

    store = firmware_module("dicebox.store")
    path = tmp_path / "flash"
    store.Store(str(path)).save(3, [store.StoredRoll("5EED0001", 4, 3, 5, "ship", 1200, 1, 0)])
    out = run("companion_app.emulator", "--seed", "3", "--flash", str(path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("PORT ")


@pytest.mark.parametrize(
    "args",
    [
        ["--fault", "drop=2"],
        ["--fault", "melt=0.1"],
        ["--fault", f"drop={HUGE}"],
        ["--seed", HUGE],
        ["--unplug-every", "x"],
        ["--device-id", "not-hex"],
    ],
)
def test_emulator_bad_usage(args: list[str]) -> None:
    _error(run("companion_app.emulator", *args), 2)


@pytest.mark.parametrize(
    "args",
    [
        ["random-game", "--seed", HUGE],
        ["random-game", "--seed", "-1"],
        ["random-game", "--seed", str(2**64)],
        ["random-game", "--seed", str(2**64 - 1), "--games", "2"],
        ["random-game", "--games", "0"],
        ["random-game", "--players", "7"],
        ["random-game", "--max-turns", "many"],
        ["no-such-command"],
    ],
)
def test_rules_cli_bad_usage(args: list[str]) -> None:
    _error(run("companion_app.rules", *args), 2)


@pytest.mark.parametrize(
    "args",
    [["--size", "0x0"], ["--size", "abc"], ["--size", f"{HUGE}x{HUGE}"], ["--port"]],
)
def test_app_bad_usage(args: list[str]) -> None:
    _error(run("companion_app", *args), 2)


@pytest.mark.parametrize(
    "args",
    [
        ["--lang", "fr"],
        ["--lang", HUGE],
        ["--lang", "de,vi"],
        ["tour", "--out", "x", "--lang", "de,xx"],
        ["tour", "--out", "x", "--lang", "de,de"],
    ],
)
def test_app_refuses_a_language_it_does_not_speak(args: list[str]) -> None:
    """An unknown language (or, for the app itself, several) is one line naming the languages
    there are; a huge value is cut short in it."""
    line = _error(run("companion_app", *args), 2)
    assert "--lang" in line and len(line) < 200, line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["show", "1"], "no journal at"),
        (["show", "99"], "no game 99"),
        (["export", "1", "-o", "{tmp}/missing/dir/g.json"], "cannot write"),
        (["replay", "1", "--upto", "999999"], "has only"),
        (["replay", "--file", "{tmp}/folder"], "cannot read"),
        (["import", "{tmp}/random.bin"], "not UTF-8"),
        (["--db", "{tmp}/folder", "list"], "is a directory"),
        (["--db", "{tmp}/random.bin", "list"], "not a SQLite database"),
    ],
)
def test_journal_cli_runtime_errors(args: list[str], words: str, tmp_path: Path) -> None:
    _bad_files(tmp_path)
    db = tmp_path / "journal.sqlite3"
    if args[:2] in (["show", "99"], ["replay", "1"], ["export", "1"]):
        from journal.journal_helpers import random_actions

        from companion_app.journal import Journal

        config, actions = random_actions(seed=3, count=20)
        with Journal(db) as journal:
            session = journal.new_game(config)
            for action in actions:
                session.apply(action)
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    if args[0] != "--db":
        args = ["--db", str(db), *args]
    line = _error(run("companion_app.journal", *args), 1)
    assert words in line, line
