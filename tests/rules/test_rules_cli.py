"""The random-game CLI: one JSON line per game, deterministic per seed, invariant checking."""

from __future__ import annotations

import json
import subprocess
import sys

from companion_app.rules.__main__ import state_digest
from companion_app.rules.randomplay import play_random_game


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion_app.rules", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_random_games_print_one_json_line_per_seed_and_are_deterministic() -> None:
    first = run_cli("random-game", "--seed", "10", "--games", "3", "--players", "3", "--check")
    assert first.returncode == 0, first.stderr
    lines = [json.loads(line) for line in first.stdout.splitlines()]
    assert [line["seed"] for line in lines] == [10, 11, 12]
    for line in lines:
        assert set(line) == {"seed", "winner", "turns", "actions"}
        assert line["winner"] is not None or line["turns"] == 500
        assert line["actions"] > 100
    again = run_cli("random-game", "--seed", "10", "--games", "3", "--players", "3")
    assert again.stdout == first.stdout


def test_max_turns_caps_a_game() -> None:
    out = run_cli("random-game", "--seed", "1", "--max-turns", "20")
    line = json.loads(out.stdout)
    assert line["turns"] <= 20 and line["winner"] is None


def test_bad_arguments_are_reported() -> None:
    out = run_cli("random-game", "--players", "7")
    assert out.returncode == 2 and "invalid choice" in out.stderr
    out = run_cli("random-game", "--games", "0")
    assert out.returncode == 2 and "--games must be at least 1" in out.stderr


def test_digest_is_a_hash_of_the_final_state_and_is_deterministic() -> None:
    out = run_cli("random-game", "--seed", "4", "--games", "2", "--max-turns", "30", "--digest")
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    for line in lines:
        game = play_random_game(line["seed"], max_turns=30).game
        assert game is not None
        assert line["digest"] == state_digest(game.to_json())
        assert len(line["digest"]) == 64
    assert lines[0]["digest"] != lines[1]["digest"]
