"""A turn of the tablet's seat at the table, on the real widgets under Xvfb
(``bot_turn_scenario.py``), at 1024x600 and 800x480: its steps shown beside the board and
confirmed with one tap on Done."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from scenario_run import failure_lines, run_scenario

pytestmark = pytest.mark.ui

SCENARIO = Path(__file__).with_name("bot_turn_scenario.py")


@pytest.fixture(scope="module", params=["1024x600", "800x480"])
def run(
    request: pytest.FixtureRequest,
    xvfb_display: str,
    artifacts_dir: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> dict:
    before = os.environ.get("UI_SCENARIO_SIZE")
    os.environ["UI_SCENARIO_SIZE"] = request.param
    try:
        return run_scenario(
            SCENARIO, xvfb_display, artifacts_dir, tmp_path_factory.mktemp("bot"), timeout=240
        )
    finally:
        if before is None:
            del os.environ["UI_SCENARIO_SIZE"]
        else:
            os.environ["UI_SCENARIO_SIZE"] = before


def test_the_tablets_turns_were_shown_and_confirmed(run: dict) -> None:
    assert run["error"] == ""
    assert not failure_lines(run), failure_lines(run)


def test_one_tap_per_bot_turn(run: dict) -> None:
    turns = run["turns"]
    assert sum(not t["setup"] for t in turns) >= 2
    assert [t["taps"] for t in turns] == [1] * len(turns)
    assert all(t["steps"] >= 1 for t in turns)


def test_undo_took_back_the_tablets_turn_with_the_tap_before_it(run: dict) -> None:
    names = {c["name"] for c in run["checks"]}
    assert {"undo: the whole span taken back", "undo: a person decides"} <= names


def test_the_expert_hint_was_shown_under_the_uncovered_hand(run: dict) -> None:
    names = {c["name"] for c in run["checks"]}
    assert {"hint: offered under the hand", "hint: covered with the cards"} <= names
    assert {"hint: the answer in German", "hint: back in English"} <= names
    failed = {f["name"] for f in run["failures"]}
    assert not failed & {"hint: the answer in German", "hint: back in English"}


def test_the_phones_offer_no_qr_code_for_the_tablets_seat(run: dict) -> None:
    assert "phones: a QR code per person only" in {c["name"] for c in run["checks"]}
