"""Ships on the tablet without a window (§13.3): a coast edge where a road and a ship may both
go asks which, the ship move in two taps, the setup's pieces named, the bar's ship buttons, and
the Longest Trade Route and the islands' chits where the VP are broken down (§13.6, §13.10)."""

from __future__ import annotations

from companion_app.app.tour.plan import SCENARIO_PLAN_SEEDS, make_plan
from companion_app.i18n import catalogue, render
from companion_app.i18n.current import use
from companion_app.phones.view import vp_parts
from companion_app.presenters import board_picture as B
from companion_app.presenters import choices as C
from companion_app.presenters import wording as W
from companion_app.presenters.bot_turn import step_spot
from companion_app.presenters.game_controller import GameController
from companion_app.presenters.info_presenter import panel_lines, vp_words
from companion_app.presenters.why_not import why_not_rows
from companion_app.rules.actions import (
    Action,
    BuildRoad,
    BuildSettlement,
    BuildShip,
    ChasePirate,
    MovePirate,
    MoveRobber,
    MoveShip,
    PlayDiplomat,
    TakeGold,
)
from companion_app.rules.cards import RESOURCES
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.registry import is_turn
from companion_app.rules.state import VictoryPoints
from companion_app.rules.topology import EdgeKind


def _new_shores(players: int = 3) -> Game:
    return Game.new(GameConfig.for_players(players, scenario="new_shores", seed=3))


def _coast_settlement(game: Game) -> int:
    """Places the first settlement on a coastal intersection of the main island; returns it."""
    kinds = game.topology.edge_kinds
    for action in game.legal_actions():
        assert isinstance(action, BuildSettlement)
        edges = game.topology.node_edges[action.node]
        if any(kinds[e] is EdgeKind.COAST for e in edges) and any(
            kinds[e] is EdgeKind.LAND for e in edges
        ):
            game.apply(action)
            return action.node
    raise AssertionError("no coastal intersection on the main island")


def test_a_coast_edge_in_the_setup_asks_road_or_ship_a_land_edge_takes_the_road() -> None:
    game = _new_shores()
    node = _coast_settlement(game)
    legal = game.legal_actions()
    spots = C.placement_spots(game, legal)
    kinds = game.topology.edge_kinds
    assert set(spots) == {("edge", e) for e in game.topology.node_edges[node]}
    for (_kind, edge), target in spots.items():
        if kinds[edge] is EdgeKind.LAND:
            # A land edge holds a road only: a tap takes it.
            assert target == BuildRoad(0, edge)
            continue
        assert isinstance(target, C.Choice) and target.action is None
        assert target.label == f"Edge {edge}: a road or a ship?"
        step = target.then
        assert step is not None
        assert [c.action for c in step.buttons] == [BuildRoad(0, edge), BuildShip(0, edge)]
        assert [c.label for c in step.buttons] == [
            f"Build a road at edge {edge}",
            f"Build a ship at edge {edge}",
        ]
        # The edge stays lit while the two are asked; a tap there takes neither.
        assert step.spots == {("edge", edge): C.Choice(target.label, ("edge", edge))}
        assert step.spots[("edge", edge)].action is None
        assert step.spots[("edge", edge)].then is None


def test_the_setup_names_road_or_ship_at_sea_and_road_on_an_island() -> None:
    sea = W.placement_order(_new_shores())
    assert [s.piece for s in sea] == ["settlement + road or ship"] * 3 + ["city + road or ship"] * 3
    island = W.placement_order(Game.new(GameConfig.for_players(3)))
    assert {s.piece for s in island} == {"settlement + road", "city + road"}


def _until(game: Game, actions: list[Action], wanted: type) -> Action:
    """Plays ``actions`` into ``game`` up to the first of type ``wanted``; returns it."""
    for action in actions:
        if isinstance(action, wanted):
            return action
        game.apply(action)
    raise AssertionError(f"no {wanted.__name__} in the plan")


def test_the_ship_move_is_two_taps_the_ship_then_where_it_sails() -> None:
    plan = make_plan(SCENARIO_PLAN_SEEDS[("new_shores", 4)], 4, scenario="new_shores")
    game = Game.new(plan.config)
    move = _until(game, plan.actions, MoveShip)
    assert isinstance(move, MoveShip)
    bar = {b.key: b for b in C.action_bar(game)}
    assert bar["move_ship"].title == "Move ship"
    step = C.bar_step(game, "move_ship")
    assert step.title == "Move ship: tap your ship" and step.says_how
    moves = [a for a in game.legal_actions() if isinstance(a, MoveShip)]
    assert set(step.spots) == {("edge", a.edge) for a in moves}
    first = step.spots[("edge", move.edge)]
    assert first.label == f"Ship at edge {move.edge}" and first.action is None
    assert first.then is not None
    second = first.then
    assert second.title == f"Ship at edge {move.edge}: tap where it sails"
    assert set(second.spots) == {("edge", a.to) for a in moves if a.edge == move.edge}
    assert second.spots[("edge", move.to)].action == move
    # The tablet's own move lights where the ship arrives.
    assert step_spot(move) == ("edge", move.to)


def test_a_built_ship_is_an_edge_spot_and_drawn_in_its_owners_colour() -> None:
    plan = make_plan(SCENARIO_PLAN_SEEDS[("new_shores", 4)], 4, scenario="new_shores")
    game = Game.new(plan.config)
    build = _until(game, plan.actions, BuildShip)
    assert isinstance(build, BuildShip)
    assert B.action_spot(build) == ("edge", build.edge)
    game.apply(build)
    picture = B.board_picture(game)
    assert (build.edge, build.player) in picture.ships
    assert all(game.ship_owner[e] == owner for e, owner in picture.ships)
    assert not set(dict(picture.ships)) & set(dict(picture.roads))


def test_the_longest_trade_route_and_island_chits_in_the_vp_words() -> None:
    points = VictoryPoints(
        settlements=2,
        cities=1,
        metropolises=0,
        longest_road=True,
        defender_cards=0,
        merchant=False,
        vp_cards=0,
        island_chits=4,
    )
    assert points.total == 2 + 2 + 2 + 4
    assert vp_words(points, 16, at_sea=True) == (
        "10/16 VP: 2 settl., 1 city, longest trade route, 4 island chits"
    )
    # The same points on an island (no chits there) read as they always did.
    assert vp_words(points, 13).startswith("10/13 VP: 2 settl., 1 city, longest road")
    parts = [[render(words, "en"), n] for words, n in vp_parts(points, at_sea=True)]
    assert ["longest trade route", 2] in parts
    assert ["4 island chits", 4] in parts
    game = _new_shores()
    assert "/16 VP" in panel_lines(game)[0].vp


def test_a_seven_at_sea_is_one_choice_a_land_hex_for_the_robber_a_sea_cell_for_the_pirate() -> None:
    plan = make_plan(SCENARIO_PLAN_SEEDS[("new_shores", 4)], 4, scenario="new_shores")
    game = Game.new(plan.config)
    for action in plan.actions:
        if game.prompt.kind is PromptKind.MOVE_ROBBER_OR_PIRATE:
            break
        game.apply(action)
    else:
        raise AssertionError("the plan never moves the robber or the pirate")
    step = C.prompt_step(game)
    assert step is not None and not step.buttons
    topology = game.topology
    land, sea = set(topology.land_hexes), set(topology.sea_cells)
    for (kind, cell), choice in step.spots.items():
        assert kind == "hex"
        if cell in land:
            assert choice.action == MoveRobber(game.prompt.player, cell)
        else:
            assert cell in sea
            assert choice.action == MovePirate(game.prompt.player, cell)
    cells = {cell for _kind, cell in step.spots}
    assert cells & land and cells & sea
    assert game.pirate_cell not in cells and game.robber_hex not in cells  # they move away


def test_a_gold_field_pays_a_choice_of_the_banks_resources_in_the_card_picker() -> None:
    plan = make_plan(SCENARIO_PLAN_SEEDS[("new_shores", 4)], 4, scenario="new_shores")
    game = Game.new(plan.config)
    take = _until(game, plan.actions, TakeGold)
    assert game.prompt.kind is PromptKind.GOLD
    control = GameController()
    control.follow(game)
    assert control.picking_in_the_open(game)  # answered in the picker, never by buttons
    control.reveal(game)
    picker = control.picker
    assert picker is not None and picker.count == game.prompt.count == 1
    # One row per resource the bank still holds, never a commodity (§13.5).
    held = [c for c in RESOURCES if game.bank[c]]
    assert [(r.key, r.held) for r in picker.rows] == [(c, game.bank[c]) for c in held]
    picker.add([r.key for r in picker.rows].index(take.card))
    assert control.confirm(game) == [take]


def test_why_not_asks_about_ships_and_the_pirate_at_sea_only() -> None:
    plan = make_plan(SCENARIO_PLAN_SEEDS[("new_shores", 4)], 4, scenario="new_shores")
    game = Game.new(plan.config)
    for action in plan.actions:
        game.apply(action)
        if is_turn(game) and game.rolled and not game.ships_of[game.prompt.player]:
            break
    else:
        raise AssertionError("no turn of a player without a ship")
    rows = {r.title: r.text for r in why_not_rows(game, catalogue("en"), revealed=True)}
    shown = {b.key for b in C.action_bar(game)}
    reasons = ("A ship needs 1 lumber and 1 wool", "No free coast or sea edge joins your ships")
    assert "build_ship" in shown or rows["Ship"].startswith(reasons), rows["Ship"]
    assert rows["Move ship"] == "You have no ship on the board."
    assert rows["Chase pirate"] == "The pirate stays on its start until the first attack (§13.4)."
    island_plan = make_plan(3, 4)
    island = Game.new(island_plan.config)
    for action in island_plan.actions:
        island.apply(action)
        if is_turn(island) and island.rolled:
            break
    titles = {r.title for r in why_not_rows(island, catalogue("en"), revealed=True)}
    assert not titles & {"Ship", "Move ship", "Chase pirate"}


def test_the_road_or_ship_question_is_told_again_in_a_new_language() -> None:
    game = _new_shores()
    _coast_settlement(game)
    spots = C.placement_spots(game, game.legal_actions())
    edge, asked = next((s, t) for s, t in spots.items() if isinstance(t, C.Choice))
    control = GameController()
    control.follow(game)
    assert control.choose(game, asked) is None
    assert control.steps and control.steps[-1].title == f"Edge {edge[1]}: a road or a ship?"
    use("de")
    try:
        control.retell(game)
        step = control.steps[-1]
        assert step.title == f"Kante {edge[1]}: Straße oder Schiff?"
        assert [c.label for c in step.buttons] == [
            f"Straße auf Kante {edge[1]} bauen",
            f"Schiff auf Kante {edge[1]} bauen",
        ]
    finally:
        use("en")


def test_the_tours_new_shores_games_chase_the_pirate_with_a_knight() -> None:
    """§13.7 item 8: the planner moves the pirate next to an active knight until one has chased
    it; the 4-player game's chase is a bar button whose one spot is the knight."""
    for players in (3, 4):
        plan = make_plan(
            SCENARIO_PLAN_SEEDS[("new_shores", players)], players, scenario="new_shores"
        )
        assert "chase_pirate" in plan.types and plan.winner is not None
    assert len(plan.actions) == 460
    game = Game.new(plan.config)
    chase = _until(game, plan.actions, ChasePirate)
    assert isinstance(chase, ChasePirate)
    assert "chase_pirate" in {b.key for b in C.action_bar(game)}
    step = C.bar_step(game, "chase_pirate")
    assert list(step.spots) == [("node", chase.node)]
    assert step.spots[("node", chase.node)].action == chase


def test_a_bar_too_tall_for_its_room_scrolls_showing_half_its_next_row() -> None:
    """In dp: 48 dp rows 5 dp apart. Twelve buttons in three columns (a New Shores turn at
    800x480) need four rows, 207 dp, where 186 dp are left above the heading and one row of
    choices: three rows and half the fourth, 183 dp. Nine buttons (154 dp) are shown whole."""
    assert C.bar_view_height(207, 186, 48, 5) == 3 * 53 + 24 == 183
    assert C.bar_view_height(154, 186, 48, 5) == 154
    # Three whole rows would leave no room for the half one: two rows and a half.
    assert C.bar_view_height(207, 170, 48, 5) == 2 * 53 + 24
    # Less room than a row: half of one, which says the bar scrolls.
    assert C.bar_view_height(207, 40, 48, 5) == 24


def test_s13_9_r14_the_tours_new_shores_games_place_a_diplomats_own_ship_again() -> None:
    """§13.9 (R14): the planner's Diplomat takes the player's own open ship until one was
    placed again; its owner places it again, free."""
    for players in (3, 4):
        plan = make_plan(
            SCENARIO_PLAN_SEEDS[("new_shores", players)], players, scenario="new_shores"
        )
        assert "free_ship" in plan.prompts, players
        game = Game.new(plan.config)
        actions = iter(plan.actions)
        while game.prompt.kind is not PromptKind.FREE_SHIP:
            action = next(actions)
            diplomat = action if isinstance(action, PlayDiplomat) else None
            owner = game.ship_owner[diplomat.edge] if diplomat else -1
            game.apply(action)
        assert diplomat is not None and owner == diplomat.player, players
        assert game.prompt.player == owner and game.ship_owner[diplomat.edge] == -1
        placed = next(actions)
        assert isinstance(placed, BuildShip) and placed.player == owner, placed
        hand = tuple(game.hands[owner])
        game.apply(placed)
        assert game.ship_owner[placed.edge] == owner and tuple(game.hands[owner]) == hand
        assert game.prompt.kind is not PromptKind.FREE_SHIP
