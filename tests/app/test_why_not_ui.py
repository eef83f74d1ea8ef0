"""Why not? on the real widgets under Xvfb (``why_not_scenario.py``): one tap reads the public
reasons, a second ("Show my cards") the hand's; closing covers the cards again; the panel
closes by itself when the game moves on."""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario_run import failure_lines, run_scenario

pytestmark = pytest.mark.ui

SCENARIO = Path(__file__).with_name("why_not_scenario.py")


@pytest.fixture(scope="module")
def run(xvfb_display: str, artifacts_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    return run_scenario(
        SCENARIO, xvfb_display, artifacts_dir, tmp_path_factory.mktemp("why_not"), timeout=150
    )


def test_why_not_was_asked_on_the_real_widgets(run: dict) -> None:
    assert run["error"] == ""
    assert not failure_lines(run), failure_lines(run)
    names = {c["name"] for c in run["checks"]}
    assert "uncovered: the city's reason" in names
    assert "elsewhere: the panel closed by itself" in names


def test_one_tap_reads_the_public_reasons_two_the_hands(run: dict) -> None:
    assert run["taps"] == {"public": 1, "private": 2}
