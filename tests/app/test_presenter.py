"""The app's display logic without a window: board geometry and hit targets, what the top bar
says, the placement order, the spots a tap may choose, the new-game form and the board entry.
Rules references (§) are to the project's rules reference."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from companion_app.game_log import GameLog
from companion_app.presenters import board_picture as B
from companion_app.presenters import choices as C
from companion_app.presenters import wording as W
from companion_app.presenters.board_taps import BoardTaps
from companion_app.presenters.forms import BoardEntry, NewGameForm
from companion_app.rules.actions import (
    BankTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    EndTurn,
    EventDie,
    Roll,
)
from companion_app.rules.board import STARTER_BOARD, random_balanced_board
from companion_app.rules.cards import NUMBER_TOKENS, Card, Harbour, Terrain
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import ConfigError
from companion_app.rules.forecast import BarbarianForecast
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.topology import (
    EDGE_NODES,
    HARBOUR_COUNT,
    HEX_COUNT,
    NODE_COUNT,
    NODE_EDGES,
)
from tests.said import said

# Board areas of the game screen at the smallest and largest supported window.
AREAS = [(8, 8, 732, 652), (12, 12, 1100, 1040)]


def _setup(game: Game, settlements: list[int], cities: list[int]) -> None:
    """Setup round 1 then 2 (§2) on the given intersections, each with its first legal road."""
    for node in settlements:
        game.apply(BuildSettlement(game.prompt.player, node))
        game.apply(next(a for a in game.legal_actions() if isinstance(a, BuildRoad)))
    for node in cities:
        game.apply(BuildCity(game.prompt.player, node))
        game.apply(next(a for a in game.legal_actions() if isinstance(a, BuildRoad)))


def _three_player_game() -> Game:
    game = Game.new(GameConfig.for_players(3, seed=5))
    # Red on the mountains 10 (hex 0) twice, Blue on the hills 10 (hex 6); White far away.
    _setup(game, settlements=[4, 20, 51], cities=[44, 30, 12])
    return game


# ---- numbers and words ------------------------------------------------------------------------


def test_pips_count_the_dice_outcomes_of_each_token() -> None:
    assert [B.pips(t) for t in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)] == [1, 2, 3, 4, 5, 5, 4, 3, 2, 1]
    assert sum(B.pips(t) for t in NUMBER_TOKENS) == 58  # 36 outcomes minus the six 7s, 2-12 split


def test_hand_words_and_harbour_labels() -> None:
    assert said(W.hand_words((2, 0, 0, 0, 1, 0, 1, 0))) == "2 brick, 1 ore, 1 coin"
    assert said(W.hand_words((0,) * 8)) == "nothing"
    assert B.harbour_label(Harbour.GENERIC) == "3:1"
    assert B.harbour_label(Harbour.WOOL) == "2:1 wool"


def test_text_colour_reads_on_light_and_dark_pieces() -> None:
    assert B.text_colour_on(B.player_colour("white"))[0] < 0.5
    assert B.text_colour_on(B.player_colour("blue"))[0] == 1


# ---- geometry and touch targets ---------------------------------------------------------------


@pytest.mark.parametrize("area", AREAS)
def test_the_island_and_its_harbours_fit_the_board_area(area: tuple[int, ...]) -> None:
    geo = B.BoardGeometry(*area)
    x, y, w, h = area
    points = [geo.node(n) for n in range(NODE_COUNT)] + [
        geo.harbour(s) for s in range(HARBOUR_COUNT)
    ]
    for px, py in points:
        assert x + geo.size * 0.3 <= px <= x + w - geo.size * 0.3
        assert y + geo.size * 0.3 <= py <= y + h - geo.size * 0.3


@pytest.mark.parametrize("area", AREAS)
def test_edges_are_one_hex_side_long_and_targets_never_overlap(area: tuple[int, ...]) -> None:
    geo = B.BoardGeometry(*area)
    for a, b in EDGE_NODES:
        (ax, ay), (bx, by) = geo.node(a), geo.node(b)
        assert math.hypot(ax - bx, ay - by) == pytest.approx(geo.size)
    # Edge middles around a node are 0.87 side apart, intersections a whole side: targets of
    # one kind never overlap (the nearest wins where a node's and an edge's would).
    assert 2 * geo.target_radius < geo.size * math.sqrt(3) / 2
    # At 1280x800 a target is 52 px: about 9 mm on a 10-inch tablet (5.9 px per mm).
    assert 2 * geo.target_radius >= 52
    # Each kind's reach is as large as it can be without two of a kind overlapping.
    assert 2 * geo.reach(("node", 0)) == pytest.approx(geo.size)
    assert 2 * geo.reach(("edge", 0)) < geo.size * math.sqrt(3) / 2
    assert 2 * geo.reach(("hex", 0)) < geo.size * math.sqrt(3)


# ---- the state shown --------------------------------------------------------------------------


def test_setup_spots_are_exactly_the_legal_actions() -> None:
    game = Game.new(GameConfig.for_players(4))
    spots = B.spots_for(game.legal_actions())
    assert set(spots) == {("node", n) for n in range(NODE_COUNT)}
    assert C.wants_board_tap(game)
    game.apply(spots[("node", 4)])
    road_spots = B.spots_for(game.legal_actions())
    assert set(road_spots) == {("edge", e) for e in NODE_EDGES[4]}
    assert all(isinstance(a, BuildRoad) and a.player == 0 for a in road_spots.values())


@pytest.mark.parametrize("first", [0, 2])
def test_placement_order_follows_the_rules_cores_prompt(first: int) -> None:
    """§2: seats in order with a settlement, then in reverse order with a city."""
    game = Game.new(GameConfig.for_players(4, first_player=first))
    order = W.placement_order(game)
    seats = [(first + i) % 4 for i in range(4)]
    assert [s.seat for s in order] == seats + seats[::-1]
    assert [s.piece for s in order] == ["settlement + road"] * 4 + ["city + road"] * 4
    rng = random.Random(1)
    while game.in_setup:
        now = [s for s in W.placement_order(game) if s.state == "now"]
        assert len(now) == 1 and now[0].seat == game.prompt.player
        game.apply(rng.choice(game.legal_actions()))
    assert all(s.state == "done" for s in W.placement_order(game))


def test_production_lines_name_who_got_what() -> None:
    """§4: a roll of 10 on the starter board: hex 0 (mountains) and hex 6 (hills) produce."""
    game = _three_player_game()
    assert W.production_lines(game, GameLog.of(game)) == []
    game.apply(Roll(0, 4, 6, EventDie.TRADE))
    # Red: settlement 4 and city 12 on the mountains: 1 ore + (1 ore + 1 coin). Blue: 1 brick.
    assert W.production_lines(game, GameLog.of(game)) == [
        "Red +2 ore, +1 coin",
        "Blue +1 brick",
        "White: nothing",
    ]
    view = W.roll_view(game)
    assert view is not None and view.words == "4 + 6 = 10, yellow castle"
    assert (view.yellow, view.red, view.total) == (4, 6, 10)


def test_the_production_line_keeps_describing_the_roll_shown_after_end_turn() -> None:
    game = _three_player_game()
    game.apply(Roll(0, 4, 6, EventDie.TRADE))
    log = GameLog.of(game)
    shown = W.production_lines(game, log)
    game.apply(EndTurn(0))
    log.sync(game.history)
    assert W.roll_view(game) is not None
    assert W.production_lines(game, log) == shown


def test_a_seven_and_a_roll_nobody_uses_say_so() -> None:
    game = _three_player_game()
    game.apply(Roll(0, 5, 6, EventDie.SHIP))  # 11: forest hex 8 and pasture hex 18, no one there
    assert W.production_lines(game, GameLog.of(game)) == [
        "Red: nothing",
        "Blue: nothing",
        "White: nothing",
    ]
    game.apply(EndTurn(0))
    game.apply(Roll(1, 3, 4, EventDie.SHIP))
    assert W.production_lines(game, GameLog.of(game)) == ["7: no production"]
    assert W.barbarian_track(game) == (2, 7)


def test_the_bank_stock_lists_every_card_kind() -> None:
    game = _three_player_game()
    lines = W.bank_words(game).split("\n")
    assert len(lines) == 4
    assert lines[0] == f"{game.bank[0]} brick · {game.bank[1]} lumber"
    assert lines[-1] == f"{game.bank[6]} coin · {game.bank[7]} paper"


def test_turn_words_and_starting_hand_words() -> None:
    game = _three_player_game()
    assert W.turn_words(game) == "Turn 1 · Red"
    assert [game.victory_points(p) for p in range(3)] == [3, 3, 3]  # settlement + city (§11)
    # Red's starting city on node 12 touches mountains, fields and hills (§2).
    assert said(W.hand_words(game.hand(0))) == "1 brick, 1 grain, 1 ore"


def test_board_picture_shows_every_piece() -> None:
    game = _three_player_game()
    picture = B.board_picture(game)
    assert {(b.node, b.owner, b.kind) for b in picture.buildings} == {
        (4, 0, "settlement"),
        (20, 1, "settlement"),
        (51, 2, "settlement"),
        (44, 2, "city"),
        (30, 1, "city"),
        (12, 0, "city"),
    }
    assert len(picture.roads) == 6
    assert picture.robber_hex == STARTER_BOARD.desert_hex == 9
    assert picture.merchant_hex is None
    red_hexes = [h.hex for h in picture.hexes if h.red]
    assert red_hexes == [4, 11, 12, 17]  # the starter board's 6, 8, 8, 6
    assert picture.colours[0] == B.PLAYER_COLOURS["red"]


def test_action_groups_leave_rolls_to_the_dice_and_words_show_rates() -> None:
    game = _three_player_game()
    assert C.action_groups(game.legal_actions()) == []  # the roll prompt: only the dice
    game.apply(Roll(0, 4, 6, EventDie.TRADE))
    groups = {g.type_name: g for g in C.action_groups(game.legal_actions())}
    assert "end_turn" in groups and not groups["end_turn"].on_board
    trade = BankTrade(0, Card.ORE, Card.WOOL)
    assert W.describe_action(game, trade) == "Trade 4 ore for 1 wool"
    assert W.describe_action(game, EndTurn(0)) == "End turn"


# ---- the new-game form and the board entry -----------------------------------------------------


def test_new_game_form_builds_the_rules_cores_config() -> None:
    form = NewGameForm()
    form.toggle_plays(3)
    assert form.player_count == 3
    form.toggle_plays(0)  # a fourth... no: at 3 players a seat cannot be emptied
    assert form.player_count == 3
    form.move_up(2)
    form.set_first(1)
    form.step("vp_target", -2)
    # The rules core's config has the limits (track 1-20): a step past them is refused.
    assert form.step("track_length", 50) == 7
    assert form.step("track_length", 13) == 20
    assert form.step("track_length", 1) == 20
    config = form.config(STARTER_BOARD)
    assert config.names == ("Red", "White", "Blue")
    assert config.first_player == 1
    assert (config.vp_target, config.barbarian_track_length) == (11, 20)
    form.players[1].name = "Red"
    with pytest.raises(ConfigError, match="player names must differ"):
        form.config(STARTER_BOARD)


def test_colours_skip_the_ones_taken_and_the_seed_rerolls() -> None:
    form = NewGameForm()
    assert form.next_colour(0) == "green"  # blue, white, orange are taken
    assert form.next_colour(0) == "brown"
    seeds = {form.reroll(random.Random(i)) for i in range(5)}
    assert len(seeds) >= 4
    form.board_choice = "random"
    assert form.board() == random_balanced_board(form.seed)
    form.board_choice = "table"
    assert form.board() is None


def test_board_entry_reports_the_rules_cores_first_problem() -> None:
    entry = BoardEntry()
    board, error = entry.check()
    assert board is None
    assert error == "hex 0 is missing; a board has 19 hexes"
    entry = BoardEntry.from_board(STARTER_BOARD)
    assert entry.check() == (STARTER_BOARD, "")
    assert entry.entered == 28
    entry.set_terrain(9, Terrain.HILLS)
    entry.set_token(9, 5)
    assert entry.check()[1] == "hills: 4 hexes, a board has 3"
    entry.set_terrain(9, Terrain.DESERT)  # the desert loses its token
    assert entry.tokens[9] is None and entry.check() == (STARTER_BOARD, "")


def test_board_entry_picture_greys_what_is_not_entered() -> None:
    entry = BoardEntry()
    entry.set_terrain(3, Terrain.FIELDS)
    entry.set_token(3, 8)
    picture = entry.picture()
    assert [h.terrain for h in picture.hexes].count(None) == HEX_COUNT - 1
    assert (picture.hexes[3].token, picture.hexes[3].pips, picture.hexes[3].red) == (8, 5, True)
    assert [label for _s, label, _h in picture.harbours] == ["?"] * HARBOUR_COUNT


def test_every_legal_setup_action_has_a_distinct_spot() -> None:
    game = Game.new(GameConfig.for_players(3))
    for _ in range(6):
        actions = game.legal_actions()
        spots = B.spots_for(actions)
        assert len(spots) == len(actions)
        game.apply(next(itertools.islice(spots.values(), 0, None)))
    assert game.prompt.kind is PromptKind.SETUP_CITY


def test_board_rows_read_the_starter_layout_as_docs_board_md_does() -> None:
    rows = B.board_rows(STARTER_BOARD)
    assert rows[0] == "Row 1: mountains 10, pasture 2, forest 9"
    assert rows[2] == "Row 3: fields 9, forest 11, desert, forest 3, mountains 8"
    assert rows[5] == (
        "Harbours clockwise from the top left: 3:1, wool, 3:1, 3:1, brick, lumber, 3:1, grain, ore"
    )
    assert len(rows) == 6


def test_moving_the_robber_is_a_tap_on_a_highlighted_hex() -> None:
    """§3.4/§8: after the first barbarian attack a 7 moves the robber to another hex."""
    data = _three_player_game().to_json()
    data["robber_unlocked"] = True
    game = Game.from_json(data)
    game.apply(Roll(0, 3, 4, EventDie.TRADE))
    assert game.prompt.kind is PromptKind.MOVE_ROBBER
    assert C.wants_board_tap(game)
    spots = B.spots_for(game.legal_actions())
    assert set(spots) == {("hex", h) for h in range(HEX_COUNT) if h != game.robber_hex}
    geo = B.BoardGeometry(*AREAS[0])
    taps = BoardTaps(geo, spots, 44.0)
    # A tap in the middle of hex 0, or on its token, picks hex 0.
    assert taps.tap(*geo.hex_centre(0)) == ("hex", 0)
    x, y = geo.hex_centre(0)
    assert taps.tap(x + geo.size * 0.5, y) == ("hex", 0)


def test_the_board_shows_the_tokens_an_inventor_swapped() -> None:
    """§10 Inventor: the picture follows the game's tokens, not the layout the game began with."""
    from companion_app.rules.actions import PlayInventor
    from companion_app.rules.randomplay import choose_random_action
    from companion_app.rules.rng import SplitMix64

    game = Game.new(GameConfig.for_players(4, seed=21))
    rng = SplitMix64(21)
    inventor = None
    while inventor is None and not game.is_over:
        inventor = next((a for a in game.legal_actions() if isinstance(a, PlayInventor)), None)
        if inventor is None:
            game.apply(choose_random_action(game, rng))
    assert isinstance(inventor, PlayInventor), "no Inventor played in this seeded game"
    before = game.tokens[inventor.hex], game.tokens[inventor.other]
    game.apply(inventor)
    hexes = B.board_picture(game).hexes
    assert (hexes[inventor.hex].token, hexes[inventor.other].token) == before[::-1]
    assert [h.token for h in hexes] == game.tokens
    assert game.board.tokens[inventor.hex] == before[0]  # the layout itself is unchanged


def test_s7_forecast_words_say_when_and_who_loses_or_defends() -> None:
    names = ("Anna", "Bo", "Cleo", "Dan")
    # 7 cities against knights 1 + 1 + 3: the lowest with a city (Anna, Bo) lose one.
    lose = BarbarianForecast(3, 6, 7, (1, 1, 3, 0), losers=(0, 1))
    assert (
        W.forecast_words(lose, names).line == "3 spaces · ~6 rolls · 7 vs 5: Anna, Bo lose a city"
    )
    one = BarbarianForecast(1, 2, 4, (0, 1, 0, 0), losers=(2,))
    assert W.forecast_words(one, names).line == "1 space · ~2 rolls · 4 vs 1: Cleo loses a city"
    held = BarbarianForecast(7, 14, 5, (1, 1, 3, 0), defender=2)
    assert W.forecast_words(held, names).outcome == "5 vs 5: Defender Cleo"
    tie = BarbarianForecast(2, 4, 3, (2, 2, 0, 0), tied=(1, 0))
    assert W.forecast_words(tie, names).outcome == "3 vs 4: tie, Bo, Anna draw"
    assert W.forecast_words(BarbarianForecast(7, 14, 0, (0,) * 4), names).outcome == (
        "0 vs 0: Catan holds"
    )
    assert W.forecast_words(BarbarianForecast(2, 4, 2, (0,) * 4), names).outcome == (
        "2 vs 0: no city to lose"
    )


def test_s7_track_line_the_position_and_the_rolls_left() -> None:
    game = Game.new(GameConfig.for_players(3))
    assert W.track_line(game, game.barbarian_forecast()) == "Barbarians 0/7 · ~14 rolls"
