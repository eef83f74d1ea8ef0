"""The screenshot tour (``python -m companion_app tour``) at the six window sizes the app is
laid out for: the Raspberry Pi 7-inch display (800x480), a 7-inch tablet (1024x600), 1280x800,
1920x1200, a portrait 800x1280 tablet and the Raspberry Pi Touch Display 2 (720x1280).

Each size is one app start playing the planned game through every screen and dialog; the layout
check must find no text cut short, no overlapping or small touch target and nothing outside the
window, and every screen's PNG must be there at the window's size. The tour's own verdict is
read too: its exit code and its last line, ``N screens, 0 problems``.

Every piece (settlements, cities, knights), the robber and the merchant, and every legal spot's
marker (intersections, roads, hexes) is drawn at least 44 dp at each size: the tour prints the
smallest drawn of each kind over all its screens, and the test reads them.

Every touch target is at least 44 dp, roads included. At 1024x600 a road's middle would be a
target of 39 dp (two roads meeting at an intersection have middles 0.87 hex sides apart, and
the board's sides are 46 dp there), so a road is taken by taps on its two ends: the tour takes
the first road so, and looks at the board while its first end is held. At 800x480 the sides
are 31 dp: the board is an overview that a tap zooms into (48 dp sides, roads by their ends);
the tour looks at each board it meets zoomed in as well (``*_zoomed``), where the pieces and
targets are measured, and pinches out again.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

pytestmark = [pytest.mark.ui, pytest.mark.slow]

SIZES = ("800x480", "1024x600", "1280x800", "1920x1200", "800x1280", "720x1280")
ROADS_BY_ENDS = ("800x480", "1024x600", "720x1280")
"""Sizes where a road is taken by its two ends (the tour holds the first end and looks)."""
ZOOMS = ("800x480",)
"""Sizes where the board is an overview that a tap zooms into."""
SCREENS = (
    "home",
    "settings",
    "new_game",
    "board_entry_first_hex",
    "board_entry_valid",
    "build_table_starter",
    "setup_settlement",
    "roll",
    "turn",
    "why_not",
    "why_not_shown",
    "bar_offer_trade",
    "bar_bank_trade",
    "discard_shown",
    "master_merchant_shown",
    "spy_shown",
    "harbor_answer_shown",
    "progress_discard_shown",
    "wedding_give_shown",
    "hand_shown",
    "chart",
    "statistics",
    "attack",
    "game_over",
    "home_after_the_game",
)
"""Screens the tour must have looked at (among others: every prompt and action-bar button);
the ``*_shown`` ones are the card picker open for each kind of card decision."""


def _run_tour(
    size: str, out: Path, display: str, options: tuple[str, ...], *, timeout: float
) -> tuple[list[str], re.Match[str]]:
    """Run the tour at ``size`` into ``out`` (emptied first: this test's own screenshots of an
    earlier run): its output lines and its verdict, once it stopped nowhere and found no
    problem."""
    shutil.rmtree(out, ignore_errors=True)
    env = {**os.environ, "DISPLAY": display, "KIVY_NO_CONSOLELOG": "1"}
    command = [sys.executable, "-m", "companion_app", "tour", "--size", size, "--out", str(out)]
    proc = subprocess.run(
        [*command, *options], env=env, capture_output=True, text=True, timeout=timeout
    )
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr[-2000:]
    problems = [line for line in lines[:-1] if ".png: " in line]
    assert problems == [], "\n".join(problems[:40])
    assert "tour stopped" not in proc.stdout, proc.stdout[-3000:]
    verdict = re.fullmatch(r"(\d+) screens, (\d+) problems", lines[-1])
    assert verdict is not None, lines[-1]
    assert int(verdict[2]) == 0, proc.stdout[-3000:]
    assert proc.returncode == 0, proc.stdout[-3000:]
    return lines, verdict


def _tour(size: str, out: Path, display: str, *options: str) -> tuple[list[str], list[Path]]:
    """Run the tour at ``size`` into ``out``: its output lines, once it found no problem and
    drew every kind of piece and marker at 44 dp or more, and its PNGs."""
    lines, verdict = _run_tour(size, out, display, options, timeout=580)
    drawn = _smallest_drawn(lines)
    assert set(drawn) == DRAWN, drawn
    assert min(drawn.values()) >= 44, drawn
    pngs = sorted(out.glob("*.png"))
    assert int(verdict[1]) == len(pngs) >= 50
    width, height = (int(v) for v in size.split("x"))
    for png in pngs:
        assert Image.open(png).size == (width, height), png.name
    return lines, pngs


@pytest.mark.timeout(600)  # a whole game through every screen: about 20 CPU seconds
@pytest.mark.parametrize("size", SIZES)
def test_the_tour_finds_no_layout_problem(
    size: str, xvfb_display: str, artifacts_dir: Path
) -> None:
    _lines, pngs = _tour(size, artifacts_dir / f"tour_{size}", xvfb_display)
    names = {p.stem.split("_", 1)[1] for p in pngs}
    assert set(SCREENS) <= names, set(SCREENS) - names
    # The road's first end held: only where roads go by their two ends.
    assert ("road_end_held" in names) == (size in ROADS_BY_ENDS), names
    # Zoomed looks: only where the board zooms, and there at every decision on the board.
    zoomed = {name for name in names if name.endswith("_zoomed")}
    assert bool(zoomed) == (size in ZOOMS), zoomed
    if size in ZOOMS:
        assert {"setup_settlement_zoomed", "move_robber_zoomed"} <= zoomed, zoomed


SIX_RUNS = (("1024x600", "en"), ("800x480", "de"), ("800x1280", "vi"))
"""Where six players' tour runs, and in which language: a 7-inch tablet in English, the
Raspberry Pi display in German (the longest words, with six players' production lines), a
portrait tablet in Vietnamese (stacked diacritics). Each is also one of the language tours below
(:data:`LANGUAGE_RUNS`)."""
SIX_SCREENS = (
    "new_game_6_players",
    "build_table_random",
    "board_entry_valid",
    "board_entry_robber",
    "setup_settlement_zoomed",
    "road_end_held",
    "turn",
    "who_builds",
    "special_build",
    "statistics",
    "attack",
    "game_over",
    "home_after_the_game",
)
"""What six players' tour must have looked at: the seats, the 30-hex board to lay out and to
enter, the board zoomed (its hex sides are under a finger at all three sizes) with roads by
their ends, the special build phase (who builds, a special build), six players' lines,
statistics and attack, to the end."""


@pytest.mark.timeout(600)  # a short six-player game (367 actions): about 25 CPU seconds
@pytest.mark.parametrize(("size", "language"), SIX_RUNS)
def test_six_players_tour_finds_no_layout_problem(
    size: str, language: str, xvfb_display: str, artifacts_dir: Path
) -> None:
    out = artifacts_dir / f"tour6_{size}_{language}"
    _lines, pngs = _tour(size, out, xvfb_display, "--players", "6", "--lang", language)
    names = {p.stem.split("_", 1)[1] for p in pngs}
    assert set(SIX_SCREENS) <= names, set(SIX_SCREENS) - names
    # The 30-hex board zooms at every decision on it, and a zoom is looked at each time.
    assert "build_table_starter" not in names  # no starter layout on 30 hexes
    assert {"who_builds_zoomed", "move_robber_zoomed"} <= names


DRAWN = {
    "settlement",
    "city",
    "knight",
    "robber",
    "merchant",
    "node spot",
    "edge spot",
    "hex spot",
}
"""The kinds of pieces, tokens and legal spots' markers the tour must have measured."""


def _smallest_drawn(lines: list[str]) -> dict[str, int]:
    """``smallest drawn: city 44 dp, edge spot 44 dp, ...`` as {kind: dp}."""
    line = next(line for line in lines if line.startswith("smallest drawn: "))
    sizes = {}
    for item in line.removeprefix("smallest drawn: ").split(", "):
        kind, size, _dp = item.rsplit(" ", 2)
        sizes[kind] = int(size)
    return sizes


LANGUAGE_RUNS = (
    ("1024x600", ("cs", "ca", "pl", "de", "vi")),
    ("800x480", ("vi",)),
    ("800x1280", ("de",)),
)
"""The tour in every language at 1024x600, and in the longest two (German's long words,
Vietnamese's stacked diacritics) at the smallest landscape and the portrait tablet too: here
Vietnamese at 800x480 and German at 800x1280, and the other two in six players' tours
(:data:`SIX_RUNS`). With several languages the game is played in the first and every look is
taken in each, switched on the spot (the switch itself is under test: every screen and dialog
must follow it); with one, the game is played in it from the start. Both were measured: a
switch on every look costs more than a second game (800x480: 117 s for German and Vietnamese
switched, 2 x 48 s played apart)."""


@pytest.mark.timeout(900)  # one game, every screen looked at in each language
@pytest.mark.parametrize(("size", "languages"), LANGUAGE_RUNS)
def test_the_tour_finds_no_layout_problem_in_any_language(
    size: str, languages: tuple[str, ...], xvfb_display: str, artifacts_dir: Path
) -> None:
    out = artifacts_dir / f"tour_{size}_{'_'.join(languages)}"
    if len(languages) == 1:
        _lines, pngs = _tour(size, out, xvfb_display, "--lang", languages[0])
        names = {p.stem.split("_", 1)[1] for p in pngs}
        assert set(SCREENS) <= names, set(SCREENS) - names
        return
    options = ("--lang", ",".join(languages))
    _lines, verdict = _run_tour(size, out, xvfb_display, options, timeout=880)
    width, height = (int(v) for v in size.split("x"))
    looks = None
    for code in languages:
        pngs = sorted((out / code).glob("*.png"))
        names = {p.stem.split("_", 1)[1] for p in pngs}
        assert set(SCREENS) <= names, (code, set(SCREENS) - names)
        # The same looks in every language: each was taken in each, on the spot.
        assert looks is None or [p.name for p in pngs] == looks, code
        looks = [p.name for p in pngs]
        for png in pngs:
            assert Image.open(png).size == (width, height), png
    assert looks is not None and int(verdict[1]) == len(looks) * len(languages)


BOT_SIZES = ("1024x600", "800x480")
"""Where the tour with a seat the tablet plays runs: the 7-inch tablet and the Raspberry Pi
display (its board zooms onto the tablet's places)."""
BOT_SCREENS = (
    "new_game_tablet_seat",
    "bot_setup",
    "bot_turn",
    "bot_turn_place",
    "bot_trade_answer",
    "bot_discard",
    "bot_done",
    "expert_hint",
)
"""What the tour with the tablet's seat must have looked at: the seat made the tablet's on New
game, its first placements, a turn of several steps and one with a place lit on the board, its
answer to a person's offer (the cards through the bank), its discard on a 7, the game after
Done, and "What would the Expert do?" answered under a person's uncovered hand."""


@pytest.mark.timeout(300)  # a short game to the tablet's turns: about 20 s of CPU
@pytest.mark.parametrize("size", BOT_SIZES)
def test_the_tour_with_a_tablet_seat_finds_no_layout_problem(
    size: str, xvfb_display: str, artifacts_dir: Path
) -> None:
    out = artifacts_dir / f"tour_bots_{size}"
    lines, verdict = _run_tour(size, out, xvfb_display, ("--bots",), timeout=280)
    pngs = sorted(out.glob("*.png"))
    assert int(verdict[1]) == len(pngs)
    names = {p.stem.split("_", 1)[1] for p in pngs}
    assert set(BOT_SCREENS) <= names, set(BOT_SCREENS) - names
    width, height = (int(v) for v in size.split("x"))
    for png in pngs:
        assert Image.open(png).size == (width, height), png.name
    # "tablet's turns: 7, steps 2, 2, 3, ...; taps 1, 1, 1, ...": one tap (Done) for each.
    line = next(line for line in lines if line.startswith("tablet's turns: "))
    turns = re.fullmatch(r"tablet's turns: (\d+), steps ([\d, ]+); taps ([\d, ]+)", line)
    assert turns is not None, line
    steps = [int(n) for n in turns[2].split(", ")]
    taps = [int(n) for n in turns[3].split(", ")]
    assert len(steps) == len(taps) == int(turns[1]) >= 4, line
    assert taps == [1] * len(taps), line
    assert max(steps) >= 3, line


SEA_SCREENS = (
    "new_game_new_shores",
    "build_table_new_shores",
    "build_table_new_shores_zoomed",
    "board_entry_new_shores",
    "board_entry_new_shores_valid",
    "setup_settlement_zoomed",
    "setup_road_zoomed",
    "road_or_ship",
    "turn",
    "bar_build_ship",
    "bar_move_ship_zoomed",
    "free_road_ship",
    "free_road_ship_zoomed",
    "free_ship",
    "move_robber_or_pirate_zoomed",
    "gold",
    "gold_shown",
    "attack",
    "game_over",
    "home_after_the_game",
)
"""What the tour of Heading for New Shores must have looked at: the scenario chosen on New
game, its printed map to lay out (zoomed: the sea board is an overview at 1024x600, its sides
33 dp), the table's own sea board entered (the printed map filled in), the setup on the main
island with a coast edge asking road or ship, a turn, a ship built and one moved, Road
Building's ship placed free by taps (§13.9, R15), a Diplomat's own ship placed again by taps
(§13.9, R14), a 7's robber or pirate, a gold field's choice
(opened in the open, answered by + and Confirm in the card picker), an attack, to the end."""


@pytest.mark.timeout(300)  # a short four-player game on the sea map: about 30 s of CPU
def test_the_new_shores_tour_finds_no_layout_problem(
    xvfb_display: str, artifacts_dir: Path
) -> None:
    """One size here (the 7-inch tablet, where the sea board zooms); 800x480 and 800x1280 were
    looked at when the tour learned the scenario, and run the same steps."""
    out = artifacts_dir / "tour_new_shores_1024x600"
    options = ("--scenario", "new_shores", "--players", "4")
    lines, verdict = _run_tour("1024x600", out, xvfb_display, options, timeout=280)
    drawn = _smallest_drawn(lines)
    assert {"pirate", "robber", "settlement", "node spot", "edge spot"} <= set(drawn), drawn
    assert min(drawn.values()) >= 44, drawn
    pngs = sorted(out.glob("*.png"))
    assert int(verdict[1]) == len(pngs)
    names = {p.stem.split("_", 1)[1] for p in pngs}
    assert set(SEA_SCREENS) <= names, set(SEA_SCREENS) - names
    for png in pngs:
        assert Image.open(png).size == (1024, 600), png.name
