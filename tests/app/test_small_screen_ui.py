"""A six-player game at the small tablet sizes in German and Vietnamese (the game screen in
Polish too), under Xvfb (``small_screen_scenario.py``): the bank and the log never overlap, the
log shows no line cut under the bank, and the barbarian track's words fit their box; a sea
game's twelve-button action bar at 800x480 scrolls and leaves its decision's "Show my cards" in
the window."""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario_run import failure_lines, run_scenario

pytestmark = pytest.mark.ui

SCENARIO = Path(__file__).with_name("small_screen_scenario.py")


@pytest.fixture(scope="module")
def run(xvfb_display: str, artifacts_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp = tmp_path_factory.mktemp("small_screen")
    return run_scenario(SCENARIO, xvfb_display, artifacts_dir, tmp, timeout=240)


def test_the_scenario_ran_to_the_end(run: dict) -> None:
    assert run["error"] == ""


def test_the_bank_and_the_log_never_overlap(run: dict) -> None:
    failures = failure_lines(run)
    assert not failures, failures
    names = [c["name"] for c in run["checks"]]
    for where in ("de 800x480", "vi 800x480", "de 1024x600", "vi 800x1280"):
        assert f"{where}: no log line is cut" in names, where


def test_the_barbarian_track_words_fit_in_polish_at_800x480(run: dict) -> None:
    """ "Barbarzyńcy 6/7 · ~2 rzuty" wrapped to two lines in a box of one at 800x480."""
    checks = {c["name"]: c["ok"] for c in run["checks"]}
    for code in ("pl", "de", "vi"):
        assert checks[f"{code} 800x480: the barbarian track's words fit"], code


def test_the_decisions_heading_fits_in_polish_at_800x480(run: dict) -> None:
    """ "Specjalna faza budowy: kto buduje?" (5-6 players) was shortened to "Specjalna bu...: kto
    buduje?" in its box at 800x480."""
    checks = {c["name"]: c["ok"] for c in run["checks"]}
    for code in ("pl", "de", "vi"):
        assert checks[f"{code} 800x480: the decision's heading fits"], code


def test_a_long_progress_card_rule_fits_its_popup_at_800x480(run: dict) -> None:
    checks = {c["name"]: c["ok"] for c in run["checks"]}
    assert checks["de 800x480: the Bishop's rule fits its popup"]


def test_home_greets_with_the_last_games_board_in_the_tables_words(run: dict) -> None:
    names = [c["name"] for c in run["checks"] if c["ok"]]
    for code in ("de", "vi"):
        assert f"home {code}: the last game's board" in names
        assert f"home {code}: its harbours in the table's words" in names


def test_settings_greys_a_language_whose_catalogue_is_not_compiled(run: dict) -> None:
    names = [c["name"] for c in run["checks"] if c["ok"]]
    assert "settings: German greyed, the others not" in names
    assert "settings: the reason names German and what compiles it" in names
    assert "settings: a tap on German changes nothing" in names


def test_a_twelve_button_sea_bar_leaves_show_my_cards_in_the_window(run: dict) -> None:
    checks = {c["name"]: c for c in run["checks"] if c["name"].startswith("sea bar 800x480")}
    assert len(checks) == 7, sorted(checks)
    failed = {name: (c["shown"], c["expected"]) for name, c in checks.items() if not c["ok"]}
    assert not failed, failed
