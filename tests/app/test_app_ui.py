"""The app driven by touches under Xvfb with real GL: a new game on the starter board, the whole
initial placement by tapping, five rolls through the emulated dice box (``ui_scenario.py``).

The scenario compares the widgets with the rules core after every step; this test checks its
report, the screenshots it saved, and that the journal holds exactly the game that was played.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from scenario_run import failure_lines, run_scenario

from companion_app.journal import Journal
from companion_app.rules.actions import Roll

pytestmark = pytest.mark.ui

SCENARIO = Path(__file__).with_name("ui_scenario.py")
PLAYERS = 3


@pytest.fixture(scope="module")
def run(xvfb_display: str, artifacts_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp = tmp_path_factory.mktemp("ui")
    return run_scenario(SCENARIO, xvfb_display, artifacts_dir, tmp, timeout=150)


def test_the_scenario_ran_to_the_end(run: dict) -> None:
    assert run["error"] == ""


def test_every_widget_matched_the_rules_core(run: dict) -> None:
    failures = failure_lines(run)
    assert not failures, failures
    # 4 placements x 3 players, each checked with its tap, the order and the screen; 5 rolls.
    names = [c["name"] for c in run["checks"]]
    assert sum(n.endswith("the tap took the spot's action") for n in names) == 4 * PLAYERS
    assert sum(n.endswith("starting resources shown") for n in names) == PLAYERS
    assert sum(n.endswith(": dice shown") for n in names) == 5
    assert sum(n.endswith(": ship LED") for n in names) == 5


def test_rolls_came_through_the_emulated_dice_box(run: dict) -> None:
    assert run["dice_link"] == "DiceLink"
    kinds = [a["type"] for a in run["actions"]]
    assert (
        kinds[: 4 * PLAYERS]
        == ["build_settlement", "build_road"] * PLAYERS + ["build_city", "build_road"] * PLAYERS
    )
    # Red's starting cards (brick, wool, ore) recruit a knight in turn 1, tapped on the board.
    assert run["built"] == "build_knight"
    assert kinds[4 * PLAYERS :] == ["roll", "build_knight"] + ["end_turn", "roll"] * 4 + [
        "end_turn"
    ]
    rollers = [a["player"] for a in run["actions"] if a["type"] == "roll"]
    assert rollers == [0, 1, 2, 0, 1]
    # The strip's ship never moves back, and ends where the game's track is.
    ships = [leds.index("S") for leds in run["leds"]]
    assert ships == sorted(ships)
    ships_rolled = sum(a["event"] == "ship" for a in run["actions"] if a["type"] == "roll")
    assert run["state"]["barbarian_position"] == ships_rolled


def test_the_journal_holds_the_game_played(run: dict) -> None:
    with Journal(run["journal"], create=False) as journal:
        session = journal.open_game(run["game_id"])
        assert [a.to_json() for a in session.actions] == run["actions"]
        assert session.game.to_json() == run["state"]
        assert sum(isinstance(a, Roll) for a in session.actions) == 5


def test_screenshots_of_every_screen(run: dict) -> None:
    expected = {
        "ui_01_home.png",
        "ui_02_new_game_random.png",
        "ui_03_new_game.png",
        "ui_04_build_table.png",
        "ui_05_setup_start.png",
        "ui_07_setup_done.png",
        "ui_08_roll_5.png",
        "ui_08b_build_on_the_board.png",
        "ui_09_home_resume.png",
    }
    assert expected <= set(run["screens"])
    for name in run["screens"]:
        image = Image.open(run["artifacts"] / name).convert("RGB")
        assert image.size == (1280, 800)
        colours = image.getcolors(maxcolors=1 << 20)
        assert colours is not None and len(colours) > 50, f"{name} is (nearly) one colour"


def test_the_setup_screenshot_shows_each_building_in_its_owners_colour(run: dict) -> None:
    image = Image.open(run["artifacts"] / "ui_07_setup_done.png").convert("RGB")
    assert len(run["pieces"]) == 2 * PLAYERS
    for piece in run["pieces"]:
        x, y = piece["xy"]
        s = piece["size"]
        # Low and right in the body: clear of the owner's letter in the middle.
        pixel = image.getpixel((round(x + 0.25 * s), image.height - 1 - round(y - 0.25 * s)))
        expected = tuple(round(c * 255) for c in piece["colour"][:3])
        assert all(abs(a - b) <= 12 for a, b in zip(pixel, expected, strict=True)), (
            piece["node"],
            piece["kind"],
            pixel,
            expected,
        )
