"""A turn in which nobody special-builds costs the table one tap more than a turn of four
players (§12), counted on the real widgets under Xvfb (``special_build_taps_scenario.py``); the
next player's roll ends the phase through the dice's one door."""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario_run import failure_lines, run_scenario

pytestmark = pytest.mark.ui

SCENARIO = Path(__file__).with_name("special_build_taps_scenario.py")


@pytest.fixture(scope="module")
def run(xvfb_display: str, artifacts_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    return run_scenario(
        SCENARIO, xvfb_display, artifacts_dir, tmp_path_factory.mktemp("special"), timeout=150
    )


def test_the_special_build_phase_was_played_on_the_real_widgets(run: dict) -> None:
    assert run["error"] == ""
    assert not failure_lines(run), failure_lines(run)
    names = {c["name"] for c in run["checks"]}
    assert "build: the banner names the builder" in names
    assert "roll: the next player rolled" in names


def test_nobody_builds_is_one_tap_more_than_a_turn_of_four(run: dict) -> None:
    taps = run["taps"]
    assert taps["four"] == 1  # End turn (the dice box rolls)
    assert taps["nobody"] == taps["four"] + 1  # and "Nobody builds"
    # The next player's press ends the phase and rolls: with virtual dice the roll button.
    assert taps["roll"] == 2
