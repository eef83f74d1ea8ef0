"""Heading for New Shores on the tablet without a window (§13): the New game form's choice, the
sea board's geometry (frame cells, harbours on the main island's coast, the pirate) and its taps
at a finger's size, zoomed as the 30-hex island is.

Board areas are in pixels at one pixel per dp (as in ``test_board_thirty.py``): the game screen's
board is 474 dp high at 1024x600, 652 dp at 1280x800, and 338 dp at 800x480.
"""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from companion_app.presenters import board_picture as B
from companion_app.presenters.board_geometry import island_frame
from companion_app.presenters.board_taps import (
    MIN_TARGET_DP,
    ZOOMED_SIDE_DP,
    BoardTaps,
    BoardZoom,
    needs_zoom,
)
from companion_app.presenters.forms import (
    BoardEntry,
    NewGameForm,
    known_board,
    scenario_note,
    seed_words,
    terrain_choices,
)
from companion_app.rules.board import FRAME_19, sea_board
from companion_app.rules.cards import Terrain
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.seamap import NEW_SHORES_3, NEW_SHORES_4

SEVEN_INCH = (4, 4, 610, 474)
ROOMY = (8, 8, 732, 652)
PI_DISPLAY = (4, 4, 384, 338)
PORTRAIT = (4, 4, 792, 560)
"""800x1280: the board under the players' lines, as wide as the window."""
SEA_4 = NEW_SHORES_4.topology


def _zoomed_in(area: tuple[int, ...], at: tuple[float, float]) -> B.BoardGeometry:
    whole = B.BoardGeometry(*area, topology=SEA_4)
    return BoardZoom().into(whole, *at, MIN_TARGET_DP).geometry(whole)


# ---- New game ------------------------------------------------------------------------------


def test_new_shores_is_chosen_for_four_with_its_map_and_sixteen_vp() -> None:
    form = NewGameForm(seed=77)
    assert form.may_sail and form.scenario is None and form.vp_target == 13
    assert form.set_scenario("new_shores") == "new_shores"
    # R1: 16 VP with Cities & Knights, a default the table may change.
    assert form.vp_target == 16
    assert form.board_choices == ("starter", "table")  # the printed map, or the table's own
    board = form.board()
    assert board == sea_board(NEW_SHORES_4, 77)  # 4 players: harbours dealt by the seed
    config = form.config(board)
    assert config.scenario == "new_shores" and config.vp_target == 16
    assert config.board.sea_map == "new_shores_4"
    assert seed_words(form) == "Seed 77  (the harbours)"
    assert "16 VP" in scenario_note(form) and "4 players" in scenario_note(form)
    # Back to the island: its own 13 again, the board choices back.
    form.set_scenario(None)
    assert form.vp_target == 13 and form.board_choices == ("starter", "random", "table")
    assert form.board() is not None and form.board().sea_map is None  # type: ignore[union-attr]


def test_three_players_sail_on_the_three_player_map_with_its_fixed_harbours() -> None:
    form = NewGameForm(seed=5)
    form.toggle_plays(3)  # Orange's seat empty: three play
    form.set_scenario("new_shores")
    board = form.board()
    assert board is not None and board.sea_map == "new_shores_3"
    assert board.harbours == NEW_SHORES_3.harbours
    assert seed_words(form) == ""  # the seed deals nothing: no seed line
    assert form.config(board).scenario == "new_shores"


def test_a_target_the_table_set_stays_and_a_fifth_player_ends_the_voyage() -> None:
    form = NewGameForm()
    form.step("vp_target", 2)  # 15: the table's own target
    form.set_scenario("new_shores")
    assert form.vp_target == 15
    form.set_scenario(None)
    assert form.vp_target == 15
    form.set_scenario("new_shores")
    form.toggle_plays(4)  # Green sits down: five, and New Shores has no map for five
    assert form.player_count == 5 and form.scenario is None
    assert not form.may_sail
    assert form.set_scenario("new_shores") is None
    assert form.board_choice == "random"
    assert "3 and 4 players only" in scenario_note(form)


def test_a_tables_own_sea_board_is_entered_on_the_maps_hexes_and_checked() -> None:
    form = NewGameForm(seed=9)
    form.set_scenario("new_shores")
    assert form.board_choices == ("starter", "table")
    form.board_choice = "table"
    assert form.board() is None and seed_words(form) == ""
    assert form.frame.topology is SEA_4
    entry = BoardEntry(frame=form.frame)
    assert entry.positions == 42 + 9
    assert terrain_choices(entry.frame)[-2:] == (Terrain.GOLD, Terrain.SEA)
    assert Terrain.SEA not in terrain_choices(FRAME_19)
    assert entry.check() == (None, "hex 0 is missing; a board has 42 hexes")
    # The printed map filled in, then the table's own difference: refused where sea is land.
    entry = BoardEntry.from_board(known_board(entry.frame))
    board, problem = entry.check()
    assert problem == "" and board is not None and board.sea_map == "new_shores_4"
    assert form.config(board).scenario == "new_shores"
    sea = next(h for h, t in enumerate(entry.terrains) if t is Terrain.SEA)
    entry.set_terrain(sea, Terrain.PASTURE)
    entry.set_token(sea, 5)
    assert entry.check() == (None, f"hex {sea} is sea on this map, not pasture")
    # Sea (as the desert) takes no number token.
    entry.set_terrain(sea, Terrain.SEA)
    assert entry.tokens[sea] is None and entry.check()[1] == ""


# ---- the board drawn -----------------------------------------------------------------------


def test_the_sea_board_shows_its_inside_whole_and_most_of_its_frame() -> None:
    frame = island_frame(SEA_4)
    # 4 players: cell centres 8 widths apart east to west, a whole frame cell and a sliver
    # beyond (a size each side); 8 rows of 1.5 sizes north to south, 0.75 beyond.
    assert frame.span_x == pytest.approx(8 * math.sqrt(3) + 2.0)
    assert frame.span_y == pytest.approx(8 * 1.5 + 1.5)
    for area in (SEVEN_INCH, PI_DISPLAY, PORTRAIT, ROOMY):
        geo = B.BoardGeometry(*area, topology=SEA_4)
        x0, y0, w, h = area
        for cell in range(SEA_4.cell_count):
            x, y = geo.hex_centre(cell)
            assert x0 + 0.99 * geo.size <= x <= x0 + w - 0.99 * geo.size, cell
            assert y0 + 0.74 * geo.size <= y <= y0 + h - 0.74 * geo.size, cell
            if cell < SEA_4.hex_count:  # every inside hex whole
                for cx, cy in geo.hex_corners(cell):
                    assert x0 <= cx <= x0 + w and y0 <= cy <= y0 + h, cell


def test_harbours_lie_off_the_main_islands_coast_at_sea() -> None:
    geo = B.BoardGeometry(0, 0, 1000, 1000, topology=SEA_4)
    land = set(SEA_4.land_hexes)
    for slot, edge in enumerate(SEA_4.harbour_edges):
        (hx, hy), (mx, my) = geo.harbour(slot), geo.edge_mid(edge)
        inland = next(h for h in SEA_4.edge_hexes[edge] if h in land)
        cx, cy = geo.hex_centre(inland)
        # Outward from its land hex, three quarters of a size beyond the coast.
        assert math.dist((hx, hy), (cx, cy)) > math.dist((mx, my), (cx, cy)), slot
        assert math.dist((hx, hy), (mx, my)) == pytest.approx(0.75 * geo.size), slot


def test_a_new_shores_game_is_pictured_with_sea_gold_and_the_pirate_on_its_start() -> None:
    game = Game.new(GameConfig.for_players(4, scenario="new_shores", seed=3))
    picture = B.board_picture(game)
    assert picture.topology is SEA_4
    assert picture.pirate_cell == NEW_SHORES_4.pirate_start == 55  # the frame east of gold 10
    terrains = [hv.terrain for hv in picture.hexes]
    assert terrains.count(Terrain.SEA) == 14 and terrains.count(Terrain.GOLD) == 2
    assert B.TERRAIN_COLOURS[Terrain.SEA] == B.SEA
    assert B.TERRAIN_COLOURS[Terrain.GOLD] not in (
        B.TERRAIN_COLOURS[Terrain.FIELDS],
        B.TERRAIN_COLOURS[Terrain.DESERT],
    )
    assert len(picture.harbours) == 9
    geo = _zoomed_in(SEVEN_INCH, B.BoardGeometry(*SEVEN_INCH, topology=SEA_4).hex_centre(55))
    drawn = B.drawn_things(picture, geo, 1.0, [("hex", 55)])
    pirate = next(d for d in drawn if d.kind == "pirate")
    assert (pirate.x, pirate.y) == pytest.approx(geo.hex_centre(55))
    assert pirate.shown_size >= 44
    # A frame cell is offered as a hex spot is (where the pirate may be sent, §13.4).
    assert any(d.kind == "hex spot" and d.spot == ("hex", 55) for d in drawn)
    # Before the game: the map's own starts (the robber on the desert, the pirate on its cell).
    shown = B.board_only_picture(game.board)
    assert (shown.robber_hex, shown.pirate_cell) == (26, 55)


def test_home_pictures_an_island_board_without_parsing_the_sea_maps() -> None:
    """Home's greeting board (the starter board, or the last game's) is pictured at every
    start: on an island it has no pirate, and the maps stay unparsed (a fresh process)."""
    code = (
        "from companion_app.presenters.board_picture import board_only_picture\n"
        "from companion_app.rules import seamap\n"
        "from companion_app.rules.board import STARTER_BOARD\n"
        "shown = board_only_picture(STARTER_BOARD)\n"
        "print(shown.pirate_cell, seamap._sea_maps.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["None", "0"]


def test_a_ships_badge_sits_on_its_edge_clear_of_the_settlement_at_its_end() -> None:
    game = Game.new(GameConfig.for_players(3, scenario="new_shores", seed=3))
    topology = game.topology
    coast = next(e for e, kind in enumerate(topology.edge_kinds) if kind.name == "COAST")
    end = topology.edge_nodes[coast][0]
    whole = B.board_picture(game)
    picture = B.BoardPicture(
        **{
            **_fields(whole),
            "ships": ((coast, 1),),
            "buildings": (B.BuildingView(end, 1, "settlement", False, ""),),
            "colours": (B.PLAYER_COLOURS["red"], B.PLAYER_COLOURS["blue"]),
            "marks": ("R", "B"),
        },
    )
    geo = _zoomed_in(SEVEN_INCH, B.BoardGeometry(*SEVEN_INCH, topology=topology).edge_mid(coast))
    assert geo.size == pytest.approx(ZOOMED_SIDE_DP)
    (mark,) = B.ship_marks(picture, geo, 1.0)
    assert mark.kind == "ship mark" and mark.spot == ("edge", coast)
    assert mark.height >= B.MIN_ROAD_MARK_DP
    # On its edge, on the side away from the settlement, as a road's badge would be.
    (ax, ay), (bx, by) = geo.edge(coast)
    t = ((mark.x - ax) * (bx - ax) + (mark.y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)
    assert 0.5 < t < 1.0
    assert mark.x == pytest.approx(ax + t * (bx - ax)) and mark.y == pytest.approx(
        ay + t * (by - ay)
    )
    # Ships are not roads: the roads' badges leave them out.
    assert B.road_marks(picture, geo, 1.0) == ()


def _fields(picture: B.BoardPicture) -> dict[str, object]:
    return {name: getattr(picture, name) for name in B.BoardPicture.__slots__}


# ---- taps ----------------------------------------------------------------------------------


@pytest.mark.parametrize("area", [SEVEN_INCH, PI_DISPLAY, PORTRAIT])
def test_the_sea_board_zooms_wherever_its_sides_are_under_a_finger(area: tuple[int, ...]) -> None:
    whole = B.BoardGeometry(*area, topology=SEA_4)
    # Larger than the 19-hex island: its sides under 44 dp at each of these sizes.
    assert whole.size < B.BoardGeometry(*area, topology=B.ISLAND_19).size
    assert needs_zoom(whole, MIN_TARGET_DP)


def test_at_1280x800_the_sea_board_is_whole_with_roads_and_ships_by_their_ends() -> None:
    roomy = B.BoardGeometry(*ROOMY, topology=SEA_4)
    # Its width sets the size there: 46.2 dp sides, no zoom.
    assert roomy.size == pytest.approx(732 / (8 * math.sqrt(3) + 2.0))
    assert not needs_zoom(roomy, MIN_TARGET_DP)
    taps = BoardTaps(roomy, [("edge", e) for e in range(SEA_4.edge_count)], MIN_TARGET_DP)
    assert taps.by_ends
    assert min(2 * t.reach for t in taps.targets()) >= MIN_TARGET_DP


@pytest.mark.parametrize("area", [SEVEN_INCH, PI_DISPLAY, PORTRAIT])
def test_every_intersection_and_sea_cell_is_taken_by_a_zoom_then_a_tap(
    area: tuple[int, ...],
) -> None:
    whole = B.BoardGeometry(*area, topology=SEA_4)
    nodes = [("node", n) for n in range(SEA_4.node_count)]
    for n in range(SEA_4.node_count):
        zoomed = _zoomed_in(area, whole.node(n))
        assert zoomed.size == pytest.approx(ZOOMED_SIDE_DP)
        x, y = zoomed.node(n)
        assert area[0] <= x <= area[0] + area[2], n
        assert area[1] <= y <= area[1] + area[3], n
        taps = BoardTaps(zoomed, nodes, MIN_TARGET_DP)
        assert min(2 * t.reach for t in taps.targets()) >= MIN_TARGET_DP
        assert taps.tap(x, y) == ("node", n)
    cells = [("hex", c) for c in SEA_4.sea_cells]
    for _kind, c in cells:
        zoomed = _zoomed_in(area, whole.hex_centre(c))
        taps = BoardTaps(zoomed, cells, MIN_TARGET_DP)
        x, y = zoomed.hex_centre(c)
        assert area[0] <= x <= area[0] + area[2], c
        assert area[1] <= y <= area[1] + area[3], c
        assert taps.tap(x, y) == ("hex", c)


def test_every_edge_is_taken_by_a_zoom_then_its_two_ends() -> None:
    whole = B.BoardGeometry(*SEVEN_INCH, topology=SEA_4)
    edges = [("edge", e) for e in range(SEA_4.edge_count)]
    for e in range(SEA_4.edge_count):
        zoomed = _zoomed_in(SEVEN_INCH, whole.edge_mid(e))
        taps = BoardTaps(zoomed, edges, MIN_TARGET_DP)
        first, last = taps.taps_for(("edge", e))
        assert taps.tap(*first) is None
        assert taps.tap(*last) == ("edge", e)
