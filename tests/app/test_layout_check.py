"""The tour's layout check on worked geometry (no window): each rule finds its problem and
nothing else."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion_app.app.tour.layout_check import Box, clip, inside, problems, smallest_drawn

WINDOW = (1024.0, 600.0)


def test_a_clean_layout_has_no_problems() -> None:
    boxes = [
        Box("Button 'Roll'", (10, 10, 200, 50), target=True, needs=(120, 30), room=(200, 50)),
        Box("Button 'End turn'", (220, 10, 200, 50), target=True, parent=(0, 0, 1024, 70)),
    ]
    assert problems(boxes, WINDOW, dp=1.0) == []


def test_text_that_needs_more_room_than_its_box() -> None:
    boxes = [Box("Label 'Pass the tablet'", (0, 0, 300, 40), needs=(340.4, 32), room=(300, 40))]
    assert problems(boxes, WINDOW, dp=1.0) == [
        "Label 'Pass the tablet': text needs 340x32 px, its box is 300x40"
    ]


def test_overlapping_targets_and_a_pixel_of_rounding() -> None:
    a = Box("A", (0, 0, 100, 50), target=True)
    b = Box("B", (99.5, 0, 100, 50), target=True)  # touches A within rounding
    c = Box("C", (90, 40, 100, 50), target=True)  # 10 x 10 px over A
    assert problems([a, b], WINDOW, dp=1.0) == []
    assert problems([a, c], WINDOW, dp=1.0) == ["A and C: touch targets overlap"]


def test_round_spots_overlap_by_distance() -> None:
    def spot(name: str, x: float) -> Box:
        return Box(name, (x, 0, 50, 50), target=True, round=True)

    # Centres 50 px apart with radius 25 touch; 30 px apart overlap.
    assert problems([spot("n1", 0), spot("n2", 50)], WINDOW, dp=1.0) == []
    assert problems([spot("n1", 0), spot("n2", 30)], WINDOW, dp=1.0) == [
        "n1 and n2: touch targets overlap"
    ]


def test_small_targets_in_dp() -> None:
    button = Box("Back", (0, 0, 90, 60), target=True)
    # 60 px is 40 dp at 1.5 px per dp.
    assert problems([button], WINDOW, dp=1.5) == ["Back: touch target 40 dp, at least 44 dp needed"]
    assert problems([button], WINDOW, dp=1.0) == []


def test_small_pieces_and_markers_drawn_on_a_board_in_dp() -> None:
    """A board's pieces, tokens and markers report the size they are drawn at (a road's marker
    its length): below 44 dp is a problem, whatever the touch target around it."""
    city = Box("board city ('node', 12)", (100, 100, 66, 66), drawn=66.0)
    knight = Box("board knight ('node', 13)", (166, 100, 60, 60), drawn=60.0)
    road = Box("board edge spot ('edge', 7)", (100, 200, 57, 57), drawn=57.0)
    assert problems([city, knight, road], WINDOW, dp=1.5) == [
        "board knight ('node', 13): drawn 40 dp, at least 44 dp needed",
        "board edge spot ('edge', 7): drawn 38 dp, at least 44 dp needed",
    ]
    assert problems([city, knight, road], WINDOW, dp=1.0) == []
    assert smallest_drawn([city, knight, road, Box("Label", (0, 0, 9, 9))], dp=1.5) == {
        "city": 44.0,
        "knight": 40.0,
        "edge spot": 38.0,
    }


def test_outside_the_window_and_outside_its_layout() -> None:
    top = Box("Label 'New game'", (10, 580, 200, 40), parent=(0, 0, 1024, 600))
    assert problems([top], WINDOW, dp=1.0) == [
        "Label 'New game': lies outside the window (10,580 200x40)",
        "Label 'New game': sticks out of its layout",
    ]


def test_scrolled_content_may_leave_the_window_but_not_when_scrolled_away() -> None:
    row = Box("Row", (0, -200, 400, 50), scrolled=True, visible=None, target=True)
    shown = Box("Row 2", (0, 100, 400, 50), scrolled=True, visible=(0, 100, 400, 50))
    assert problems([row, shown], WINDOW, dp=1.0) == []


def test_clip_and_inside() -> None:
    assert clip((0, 0, 100, 100), (50, 50, 100, 100)) == (50, 50, 50, 50)
    assert clip((0, 0, 10, 10), (20, 20, 5, 5)) is None
    assert inside((0.5, 0, 100, 100), (0, 0, 100, 100))
    assert not inside((3, 0, 100, 100), (0, 0, 100, 100))


def test_text_under_a_widget_drawn_after_it() -> None:
    """The bank's lines under the log panel drawn after it (800x480): its last line hidden."""
    bank = Box("Label 'Brick 2'", (0, 300, 150, 100), text=(0, 310, 120, 90), paints=())
    log = Box("GameLogView", (0, 250, 150, 70), paints=((0, 250, 150, 70),))
    assert problems([bank, log], WINDOW, dp=1.0) == [
        "Label 'Brick 2': its text is under GameLogView"
    ]
    # Drawn first, the panel is under the text (a label on a bar): no problem.
    assert problems([log, bank], WINDOW, dp=1.0) == []


def test_text_under_another_label_s_text_but_not_its_empty_box() -> None:
    title = Box("Label 'Title'", (0, 0, 300, 40), text=(0, 10, 80, 20), paints=((0, 10, 80, 20),))
    # A later label's box over the title's, its own text further right: nothing hidden.
    beside = Box("Label 'VP'", (0, 0, 300, 40), text=(200, 10, 60, 20), paints=((200, 10, 60, 20),))
    over = Box("Label 'Pass'", (0, 0, 300, 40), text=(70, 10, 60, 20), paints=((70, 10, 60, 20),))
    assert problems([title, beside], WINDOW, dp=1.0) == []
    assert problems([title, over], WINDOW, dp=1.0) == [
        "Label 'Title': its text is under Label 'Pass'"
    ]
    # A pixel of rounding where they meet is not a problem.
    edge = Box("Label 'Edge'", (0, 0, 10, 10), paints=((79.5, 10, 20, 20),))
    assert problems([title, edge], WINDOW, dp=1.0) == []


LAYOUT_TREE = Path(__file__).with_name("layout_tree.py")


@pytest.mark.ui
def test_a_widget_tree_s_hidden_text_is_found_and_nothing_else(xvfb_display: str) -> None:
    """Measured on real widgets (``layout_tree.py``): a panel drawn over a label's last lines
    is found; a label drawn on a panel, a scroll view's content cut off by the view under its
    neighbour, and a dialog's overlay over the screen are not."""
    env = {**os.environ, "DISPLAY": xvfb_display, "KIVY_NO_CONSOLELOG": "1"}
    proc = subprocess.run(
        [sys.executable, str(LAYOUT_TREE)], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    found = json.loads(proc.stdout.strip().splitlines()[-1])
    bank = "Label 'Brick 2\\nLumber 3\\nWool 4\\nGrain 5\\nOre 6'"
    assert found == {"screen": [f"{bank}: its text is under Panel"], "dialog": []}
