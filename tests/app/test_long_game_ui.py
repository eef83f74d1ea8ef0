"""A long game played to a winner by touch in the real app under Xvfb (``long_game_scenario``):
the emulated dice box rolls a planned game's dice from a script, every other action is tapped
on the action bar, its choices, the board and the prompts, and the screen is compared with the
rules core's state before each action.

This test checks the run's report: the whole plan was tapped through, nothing on screen
disagreed, every action type and every prompt of the rules core came up, the journal holds the
game, and the screenshots of every prompt and action-bar button were saved.
"""

from __future__ import annotations

import fcntl
import json
from pathlib import Path

import pytest
from PIL import Image
from scenario_run import failure_lines, run_scenario

from companion_app.app.tour.plan import ISLAND_PROMPTS as EVERY_PROMPT
from companion_app.app.tour.plan import ISLAND_TYPES as EVERY_TYPE
from companion_app.app.tour.plan import LARGE_GAME_PROMPTS, LARGE_GAME_TYPES, MIN_TURNS
from companion_app.journal import Journal
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind

ALL_TYPES = EVERY_TYPE - LARGE_GAME_TYPES
ALL_PROMPTS = EVERY_PROMPT - LARGE_GAME_PROMPTS
"""The long game seats three on an island: everything but the special build phase of five or six
(§12) and the sea's (§13)."""

# A guard against a hang, not a measure: the scenario taps a whole game of about 1,000 actions
# through the real widgets, about 140 CPU seconds (the frames it saves as PNGs are drawn, in
# software; the others only laid out); its waits end the run with an error, never a hang.
pytestmark = [
    pytest.mark.ui,
    pytest.mark.slow,
    pytest.mark.timeout(900),
    pytest.mark.xdist_group("long_game"),  # one worker runs the game for all its tests
]

SCENARIO = Path(__file__).with_name("long_game_scenario.py")


@pytest.fixture(scope="module")
def run(
    xvfb_display: str, artifacts_dir: Path, tmp_path_factory: pytest.TempPathFactory, worker_id: str
) -> dict:
    """One game for all of this module's tests, whichever workers they land on: pytest-xdist's
    group was seen to split them over both workers, and two games at once wrote the same
    screenshots (one stopped on the other's half-written PNG). The first worker plays it under
    a lock; another reads its result."""
    base = tmp_path_factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent  # this session's, all workers'
    tmp = shared / "long_game"
    with open(shared / "long_game.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (tmp / "result.json").exists():
            report: dict = json.loads((tmp / "result.json").read_text())
            report.update(journal=tmp / "journal.sqlite3", tmp=tmp, artifacts=artifacts_dir)
            return report
        tmp.mkdir(exist_ok=True)
        return run_scenario(SCENARIO, xvfb_display, artifacts_dir, tmp, timeout=880)


def test_the_whole_game_was_tapped_through(run: dict) -> None:
    assert run["error"] == ""
    assert run["performed"] == run["planned"] == len(run["actions"])


def test_the_screen_matched_the_rules_core_before_every_action(run: dict) -> None:
    failures = failure_lines(run)
    assert not failures, failures
    # Several comparisons per action (prompt, banner, bar, buttons, spots...).
    assert run["checked"] >= 6 * run["planned"]


def test_a_long_game_to_a_winner(run: dict) -> None:
    assert run["turns"] >= MIN_TURNS
    assert run["winner"] is not None
    assert run["announced"][-1] == "game_over"
    assert "attack" in run["announced"]


def test_every_action_type_and_every_prompt_was_reached(run: dict) -> None:
    # Replayed from what was tapped: the prompts the game stood at, the types taken.
    with Journal(run["journal"], create=False) as journal:
        session = journal.open_game(run["game_id"])
        config = session.game.config
        actions = session.actions
    game = Game.new(config)
    prompts = {game.prompt.kind.value}
    for action in actions:
        game.apply(action)
        prompts.add(game.prompt.kind.value)
    assert game.prompt.kind is PromptKind.GAME_OVER
    # If a change of the rules makes the planned game miss one, find another seed with
    # `python -m companion_app.app.tour.plan --search 300` and set plan.PLAN_SEED.
    assert ALL_TYPES - {a.type_name for a in actions} == set()
    assert ALL_PROMPTS - prompts == set()
    # The screen showed each prompt (game over on its own screen and under it).
    # (A decision with one option and nothing private is taken at once, without a screen.)
    shown = set(run["prompts_seen"]) | set(run["prompts_taken_at_once"])
    assert set(ALL_PROMPTS) - {"game_over"} <= shown
    assert [a.to_json() for a in actions] == run["actions"]


def test_rolls_came_through_the_emulated_dice_box(run: dict) -> None:
    assert run["dice_link"] == "DiceLink"
    rolls = [a for a in run["actions"] if a["type"] == "roll"]
    assert len(rolls) >= MIN_TURNS


def test_card_decisions_went_through_the_picker_and_one_option_ones_at_once(run: dict) -> None:
    assert run["picked"] > 0
    assert run["automatic"] > 0
    assert "choose_victim" in run["prompts_taken_at_once"]


def test_screenshots_of_every_prompt_and_bar_button(run: dict) -> None:
    screens = set(run["screens"])
    for kind in ALL_PROMPTS - {"game_over"} - set(run["prompts_taken_at_once"]):
        assert f"long_prompt_{kind}.png" in screens, kind
    for key in run["bar_seen"]:
        assert f"long_bar_{key}.png" in screens, key
    assert {"long_trade_offer.png", "long_game_over.png", "long_game_over_screen.png"} <= screens
    for name in screens:
        image = Image.open(run["artifacts"] / name).convert("RGB")
        assert image.size == (1280, 800)
        colours = image.getcolors(maxcolors=1 << 20)
        assert colours is not None and len(colours) > 50, f"{name} is (nearly) one colour"
