"""A 7 with two players over the limit takes at most 8 taps, tablet passing included, counted
on the real widgets under Xvfb (``seven_taps_scenario.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario_run import failure_lines, run_scenario

pytestmark = pytest.mark.ui

SCENARIO = Path(__file__).with_name("seven_taps_scenario.py")
MAX_TAPS = 8


@pytest.fixture(scope="module")
def run(xvfb_display: str, artifacts_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    return run_scenario(
        SCENARIO, xvfb_display, artifacts_dir, tmp_path_factory.mktemp("seven"), timeout=150
    )


def test_the_seven_was_answered_on_the_real_widgets(run: dict) -> None:
    assert run["error"] == ""
    assert not failure_lines(run), failure_lines(run)


def test_undo_redo_and_a_change_elsewhere_were_checked(run: dict) -> None:
    names = {c["name"] for c in run["checks"]}
    assert any(n.startswith("undo: ") for n in names)
    assert "redo: both discards again" in names
    assert "elsewhere: the picker closed by itself" in names


def test_two_discards_take_at_most_eight_taps(run: dict) -> None:
    taps = {p["changed"]: p["taps"] for p in run["passes"]}
    # Each player: "Show my cards" once the tablet is theirs, then Confirm the suggestion.
    assert taps[False] == 4
    # Changing one card of the suggestion costs two taps more (− and +).
    assert taps[True] == 6
    assert max(taps.values()) <= MAX_TAPS
