"""The tour plays the same game whenever the dice link's events come (``tour_news_scenario``).

Two loaded runs of the tour differed: a barbarian attack's lost cities were looked at in one
and not in the other, and another stopped at the first lost city with "0 action-bar buttons for
lose_city". The tour took each planned action through the journal alone and left a decision
with one option pending, which the app takes at once at its next event from the dice link
(``CompanionApp._dice_changed``), whenever the link's thread delivers one. The tour now takes
them as a tap does (``CompanionApp.take_only_choices``), so a link event finds nothing to take.

The new-game form's random board has a new seed at each start: the tour shows the planned
game's, so that its screens of that board (and their layout check) are the same every run.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario_run import run_scenario

from companion_app.app.tour.plan import PLAN_SEED, plan_config

# A guard against a hang, not a measure: a hundred planned actions and their looks.
pytestmark = [pytest.mark.ui, pytest.mark.slow, pytest.mark.timeout(600)]

SCENARIO = Path(__file__).with_name("tour_news_scenario.py")


def test_news_from_the_dice_link_takes_nothing_in_the_tours_place(
    xvfb_display: str, artifacts_dir: Path, tmp_path: Path
) -> None:
    run = run_scenario(SCENARIO, xvfb_display, artifacts_dir, tmp_path, timeout=580)
    assert run["error"] == ""
    assert run["done"] >= 100
    assert run["taken_by_news"] == []
    assert run["random_board_seed"] == plan_config(PLAN_SEED).seed == PLAN_SEED
