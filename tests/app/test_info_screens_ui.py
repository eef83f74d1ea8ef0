"""The information screens driven by touches under Xvfb (``info_screens_scenario.py``): the
barbarian attack screen coming up by itself, the private hand behind its cover, the improvement
chart, statistics, undo of a roll with its confirmation (the emulated dice box's ship LED
following) and redo, and a game played to a winner with the end screen and its export.

The scenario compares the widgets with the rules core after every step; this test checks its
report, the journal, the exported file and the screenshots it saved.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from scenario_run import failure_lines, run_scenario

from companion_app.journal import Journal, parse_export_text
from companion_app.rules.cards import TRACKS
from companion_app.rules.state import BarbarianAttack

pytestmark = pytest.mark.ui

SCENARIO = Path(__file__).with_name("info_screens_scenario.py")


@pytest.fixture(scope="module")
def run(xvfb_display: str, artifacts_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp = tmp_path_factory.mktemp("info_ui")
    return run_scenario(SCENARIO, xvfb_display, artifacts_dir, tmp, timeout=240)


def test_the_scenario_ran_to_the_end(run: dict) -> None:
    assert run["error"] == ""


def test_every_widget_matched_the_rules_core(run: dict) -> None:
    failures = failure_lines(run)
    assert not failures, failures
    names = [c["name"] for c in run["checks"]]
    # Every screen was compared, not only opened.
    for prefix in ("attack:", "hand:", "chart:", "statistics:", "undo:", "redo:", "end:"):
        assert sum(n.startswith(prefix) for n in names) >= 2, prefix
    assert sum(n.startswith("after the attack: ") for n in names) == 1 + 4 * 5


def test_s7_the_attack_shown_was_the_rules_cores(run: dict) -> None:
    attack = BarbarianAttack.from_json(run["facts"]["attack"])
    # The scenario's ship roll met active knights and standing cities: a real contest.
    assert attack.strength > 0 and attack.total_defence > 0
    assert attack.defended == (attack.total_defence >= attack.strength)
    if attack.defended and attack.defender >= 0:
        assert attack.defence[attack.defender] == max(attack.defence)


def test_undo_and_redo_of_a_roll_moved_the_box_ship(run: dict) -> None:
    leds = run["leds"]
    assert [entry["label"] for entry in leds] == [
        "after the ship roll",
        "after undoing the roll",
        "after redoing the roll",
    ]
    rolled, undone, redone = leds
    assert undone["position"] == rolled["position"] - 1
    assert redone == {**rolled, "label": "after redoing the roll"}
    assert undone["led"] != rolled["led"]  # the box's strip really moved back


def test_the_game_reached_a_winner_and_the_journal_holds_it(run: dict) -> None:
    state = run["state"]
    assert state["winner"] == run["facts"]["winner"] >= 0
    with Journal(run["journal"], create=False) as journal:
        session = journal.open_game(run["game_id"])
        assert [a.to_json() for a in session.actions] == run["actions"]
        assert session.game.to_json() == state
        assert session.game.is_over


def test_the_export_replays_to_the_final_state(run: dict) -> None:
    path = Path(run["facts"]["export"])
    assert path.parent == run["tmp"] / "exports"
    checked = parse_export_text(path.read_bytes())
    assert [a.to_json() for a in checked.actions] == run["actions"]
    assert checked.game.to_json() == run["state"]
    assert checked.game.winner == run["facts"]["winner"]


def test_a_hand_with_progress_cards_was_shown(run: dict) -> None:
    # At the end the player with most progress cards opened their hand; the scenario compared
    # the titles shown with the rules core's; here: there were some to compare.
    assert run["facts"]["final_hand_progress"]


def test_the_statistics_judged_the_whole_game(run: dict) -> None:
    final = run["facts"]["final_statistics"]
    assert final["rolls"] > run["facts"]["statistics"]["rolls"] > 0
    assert 0.0 <= final["p_value"] <= 1.0
    assert final["verdict"] in {"looks fair", "suspicious", "too few rolls to judge"}
    assert len(run["facts"]["chart"]["levels"]) == len(TRACKS)


def test_screenshots_of_every_screen(run: dict) -> None:
    expected = {
        "info_01_barbarian_attack.png",
        "info_02_hand_cover.png",
        "info_03_hand_shown.png",
        "info_04_hand_covered_again.png",
        "info_05_improvements.png",
        "info_06_statistics.png",
        "info_07_undo_roll_question.png",
        "info_08_after_undo.png",
        "info_09_game_over.png",
        "info_10_game_over_exported.png",
        "info_06_final_statistics.png",
        "info_11_final_board.png",
        "info_03_final_hand_shown.png",
    }
    assert expected <= set(run["screens"])
    for name in run["screens"]:
        image = Image.open(run["artifacts"] / name).convert("RGB")
        assert image.size == (1280, 800)
        colours = image.getcolors(maxcolors=1 << 20)
        assert colours is not None and len(colours) > 50, f"{name} is (nearly) one colour"
