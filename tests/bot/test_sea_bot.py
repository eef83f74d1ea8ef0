"""Bots on Heading for New Shores (§13): whole games without a problem at every level, ships
built toward the small islands and the islands settled (§13.3, §13.10), the pirate on the
leader's ships (§13.4), gold choices (§13.5), the decision reading only what the seat may know,
and the reasons in every language.

Map ids: ``tests/rules/sea/sea_builders.py`` (4 players): sea hex 22 lies between the main
island's coast 51-58-66 and the north-east island's 44-52-59; sea edge 66 joins 51 and 44."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion_app.bot import LEVELS, decide
from companion_app.bot.decision import Decision, Player
from companion_app.bot.players import (
    ExpertPlayer,
    GreedyPlayer,
    RandomPlayer,
    WeightedRandomPlayer,
)
from companion_app.bot.sea import direction, reach, reach_searched
from companion_app.bot.sim import play_game
from companion_app.i18n import render
from companion_app.presenters import bot_turn as BT
from companion_app.rules.actions import (
    BuildCity,
    BuildSettlement,
    BuildShip,
    ChasePirate,
    EndTurn,
    EventDie,
    MovePirate,
    MoveShip,
    Roll,
    StealFrom,
    TakeGold,
)
from companion_app.rules.cards import Card, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.hidden import redraw_hidden
from companion_app.rules.invariants import violations
from companion_app.rules.messages import Msg
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action, random_roll
from companion_app.rules.rng import SplitMix64
from companion_app.rules.seamap import NEW_SHORES_3, NEW_SHORES_4
from tests.rules.sea.ck_builders import ck_sea_game
from tests.rules.sea.sea_builders import NE_ISLAND, T, edge, sea_game

LANGUAGES = ("en", "cs", "ca", "pl", "de", "vi")


def new_shores(players: int, seed: int) -> GameConfig:
    return GameConfig.for_players(players, scenario="new_shores", seed=seed)


def table(players: int) -> list[Player]:
    kinds: list[Player] = [ExpertPlayer(), GreedyPlayer(offers=2), WeightedRandomPlayer()]
    return [kinds[s] if s < 3 else RandomPlayer() for s in range(players)]


@pytest.mark.parametrize("players", [3, 4])
def test_bots_of_every_level_play_new_shores_without_a_problem(players: int) -> None:
    """No illegal action, exception, broken invariant or stalled turn; ships sail."""
    ships = 0
    for seed in (1, 2):
        record = play_game(
            new_shores(players, seed), table(players), dice_seed=seed, max_turns=40, check=True
        )
        assert record.problem is None
        assert record.turns >= 40 or record.winner is not None
        assert record.game is not None
        ships += sum(isinstance(a, BuildShip | MoveShip) for a in record.game.history)
    assert ships > 0


# Red's settlement on 58 and ship 58-51: one sea edge (51-44) from the north-east island's
# free intersection 44 (forest 9).
RED_SHORE = {58: (0, "settlement")}
RED_SHIP = {edge(58, 51): 0}


@pytest.mark.parametrize("level", ["player", "expert"])
def test_a_ship_chain_one_edge_from_an_island_is_extended_to_it(level: str) -> None:
    """§13.3: with lumber and wool, the ship goes on 51-44, not back along the coast: the
    island's first settlement brings 2 VP (§13.10)."""
    game = sea_game(buildings=RED_SHORE, ships=RED_SHIP, hands={0: hand_of(lumber=1, wool=1)})
    before = reach(game, 0)
    assert before is not None and before.node == 44 and before.ships == 1 and before.new_island
    decision = decide(game, 0, level)
    assert decision.action == BuildShip(0, edge(51, 44))
    assert direction(T, NE_ISLAND) == "north-east"
    assert render(decision.reason, "en") == (
        "A ship toward the north-east island: 2 VP for its first settlement"
    )


def test_a_ship_goes_toward_the_island_and_not_nowhere() -> None:
    """Without a ship yet, the first one from 58 leads toward the island (58-51 or 58-66, each
    one edge from a free island intersection), never along an edge that brings none nearer."""
    game = sea_game(buildings=RED_SHORE, hands={0: hand_of(lumber=1, wool=1)})
    decision = decide(game, 0, "expert")
    assert decision.action in (BuildShip(0, edge(58, 51)), BuildShip(0, edge(58, 66)))
    after = game.copy()
    after.apply(decision.action)
    reached = reach(after, 0)
    assert reached is not None and reached.ships == 1


@pytest.mark.parametrize("level", ["player", "expert"])
def test_a_ship_waiting_at_the_island_does_not_sail_back_and_forth(level: str) -> None:
    """§13.3 item 6: Red's ships 58-51-44-36 reach the north-east island and another stands on
    58-66; without cards Red ends the turn rather than move an open ship where it gains nothing
    (moving 58-66 to 36-28 scores the same: the next turn it could move back)."""
    ships = {edge(58, 51): 0, edge(51, 44): 0, edge(44, 36): 0, edge(58, 66): 0}
    game = sea_game(buildings=RED_SHORE, ships=ships)
    assert any(isinstance(a, MoveShip) for a in game.legal_actions())
    assert decide(game, 0, level).action == EndTurn(0)


def test_the_reach_kept_per_board_is_the_reach_searched_again() -> None:
    """The reach is kept per board mark, seat, robber hex and pieces left, with the tokens it
    was found on: at every step of two random 4-player New Shores games (ships built and
    moved, the robber and the pirate moved, Inventors played) and of a look-ahead undone
    after each, every seat's kept reach is the one a new search finds (§13.3, §13.10)."""
    checked = 0
    for seed in (3, 4):
        game = Game.new(new_shores(4, seed))
        rng = SplitMix64(seed)
        while not game.is_over and game.turn < 160:
            action = choose_random_action(game, rng)
            ahead = game.copy()
            ahead.push(action)
            for seat in range(4):
                assert reach(ahead, seat) == reach_searched(ahead, seat)
            ahead.undo()
            game.apply(action)
            for seat in range(4):
                assert reach(game, seat) == reach_searched(game, seat)
                checked += 1
    assert checked > 2000


def test_an_inventors_swap_is_seen_by_the_kept_reach() -> None:
    """§9 (the Inventor) swaps two number tokens and moves no piece: the island spot's pips,
    and so its worth, follow the new tokens."""
    game = sea_game(buildings=RED_SHORE, ships=RED_SHIP)
    before = reach(game, 0)
    assert before is not None and before.node == 44
    hexes = [h for h in T.node_hexes[44] if game.tokens[h] is not None]
    assert hexes
    low = next(h for h, t in enumerate(game.tokens) if t in (2, 12) and h not in hexes)
    game.tokens[hexes[0]], game.tokens[low] = game.tokens[low], game.tokens[hexes[0]]
    after = reach(game, 0)
    assert after == reach_searched(game, 0)
    assert after is not None and after.points < before.points


def test_the_small_islands_are_named_by_where_they_lie() -> None:
    """§13.11's maps: the islet in the top row's west end, the large island to the north-east,
    the islet to the south-east, on both maps (the 3-player islet lies 111 degrees from east:
    north-west, not north)."""
    for sea_map in (NEW_SHORES_3, NEW_SHORES_4):
        topology = sea_map.topology
        named = [direction(topology, i) for i in range(1, len(topology.islands))]
        assert named == ["north-west", "north-east", "south-east"]


@pytest.mark.parametrize("level", ["player", "expert"])
def test_the_bot_settles_the_island_rather_than_the_main_island(level: str) -> None:
    """§13.10: Red's ships reach 44 and a road reaches the free main-island intersection 73;
    with one settlement's cards Red settles the island: 1 VP and 2 chits."""
    roads = {edge(58, 65): 0, edge(65, 73): 0}
    ships = {edge(58, 51): 0, edge(51, 44): 0}
    game = sea_game(
        buildings=RED_SHORE,
        ships=ships,
        roads=roads,
        hands={0: hand_of(brick=1, lumber=1, wool=1, grain=1)},
    )
    legal = game.legal_actions()
    assert BuildSettlement(0, 44) in legal and BuildSettlement(0, 73) in legal
    decision = decide(game, 0, level)
    assert decision.action == BuildSettlement(0, 44)
    assert render(decision.reason, "en") == (
        "A settlement on a new island: a point and 2 more for the island"
    )
    points = game.victory_points(0)
    game.apply(decision.action)
    assert game.victory_points(0) == points + 3


# Blue leads (a city on 66 and a settlement on 45; its ship 66-59 borders sea hexes 22 and 29);
# White (a settlement on 33, its ship 33-26 on sea hex 6) trails. Red moves the pirate.
LEADER_SHIP = edge(66, 59)
TRAILER_SHIP = edge(26, 33)


def pirate_position(blue_cards: int) -> Game:
    return sea_game(
        buildings={
            58: (0, "settlement"),
            66: (1, "city"),
            45: (1, "settlement"),
            33: (2, "settlement"),
        },
        ships={LEADER_SHIP: 1, TRAILER_SHIP: 2},
        hands={1: hand_of(ore=blue_cards), 2: hand_of(ore=2)},
        prompt="move_pirate",
        pirate=55,
    )


@pytest.mark.parametrize("level", ["player", "expert"])
def test_the_pirate_goes_next_to_the_leaders_ships(level: str) -> None:
    """§13.4: chased by a knight, the pirate goes where it stops Blue's ship (it may not move
    or be built on there), though Blue has no card to steal and White has."""
    game = pirate_position(blue_cards=0)
    assert game.victory_points(1) > game.victory_points(2)
    decision = decide(game, 0, level)
    assert isinstance(decision.action, MovePirate)
    assert LEADER_SHIP in T.cell_edges[decision.action.cell]
    assert render(decision.reason, "en") == "The pirate next to the ships of Blue, the leader"
    game.apply(decision.action)
    assert game.prompt.kind is PromptKind.TURN and game.pirate_cell == decision.action.cell


def test_the_pirate_robs_the_leader() -> None:
    """§13.4 item 3: next to Blue's ship, Red robs Blue."""
    game = pirate_position(blue_cards=2)
    decision = decide(game, 0, "expert")
    assert isinstance(decision.action, MovePirate)
    assert LEADER_SHIP in T.cell_edges[decision.action.cell]
    game.apply(decision.action)
    assert game.prompt.kind is PromptKind.CHOOSE_VICTIM
    assert decide(game, 0, "expert").action == StealFrom(0, 1)


def test_a_knight_by_the_pirate_chases_it_to_the_leaders_ships() -> None:
    """§13.7 item 8, R9: Red's active knight on 53 stands by the pirate's frame cell 55 (Red's
    settlement on 45 and road 45-53 link it); Red chases the pirate to Blue's ship and robs Blue."""
    game = ck_sea_game(
        buildings={45: (0, "settlement"), 66: (1, "city"), 74: (1, "settlement")},
        roads={edge(45, 53): 0},
        knights={53: (0, 1, True)},
        ships={LEADER_SHIP: 1},
        hands={1: hand_of(ore=2)},
        robber_unlocked=True,
    )
    decision = decide(game, 0, "expert")
    assert decision.action == ChasePirate(0, 53)
    assert render(decision.reason, "en") == (
        "A knight chases the pirate: it goes where it hurts the leader"
    )
    game.apply(decision.action)
    move = decide(game, 0, "expert").action
    assert isinstance(move, MovePirate) and LEADER_SHIP in T.cell_edges[move.cell]


def test_a_city_goes_on_the_gold_field() -> None:
    """§13.5: Red's settlements on 67 (gold 10 alone, 3 pips of choices) and 47 (fields 12, 1
    pip); with a city's cards the city goes on the gold field: 2 choices on a 10."""
    game = sea_game(
        buildings={67: (0, "settlement"), 47: (0, "settlement")},
        islands={0: (NE_ISLAND,)},
        hands={0: hand_of(ore=3, grain=2)},
    )
    assert BuildCity(0, 47) in game.legal_actions()
    assert decide(game, 0, "expert").action == BuildCity(0, 67)


def test_a_gold_choice_is_the_card_the_next_build_lacks() -> None:
    """§13.5: Blue's settlement on gold 10 (hex 23); Blue holds brick, lumber and wool: the
    gold field's card is grain, for a settlement."""
    game = ck_sea_game(
        prompt="roll",
        buildings={53: (1, "settlement")},
        hands={1: hand_of(brick=1, lumber=1, wool=1)},
    )
    game.apply(Roll(0, 4, 6, EventDie.POLITICS))
    assert game.prompt.kind is PromptKind.GOLD and game.prompt.player == 1
    for level in LEVELS:
        decision = decide(game, 1, level)
        assert isinstance(decision.action, TakeGold) and game.is_legal(decision.action)
    decision = decide(game, 1, "expert")
    assert decision.action == TakeGold(1, Card.GRAIN)
    assert render(decision.reason, "en") == "Gold: grain, what the next build lacks most"


def positions(count: int) -> list[Game]:
    """Positions of a greedy 4-player New Shores game where a bot decides, every 7th decision."""
    config = new_shores(4, 3)
    record = play_game(config, [GreedyPlayer() for _ in range(4)], dice_seed=3, max_turns=60)
    assert record.game is not None and record.problem is None
    history = record.game.history
    picked = record.decisions[::7][:count]
    return [Game.replay(config, history[:i]) for i in picked]


POSITIONS = positions(14)


@pytest.mark.parametrize("level", LEVELS)
def test_a_sea_decision_reads_only_what_the_seat_may_know(level: str) -> None:
    """Redrawing what the seat cannot see (others' hands, the decks, the generator) never
    changes the decision on a New Shores board."""
    changed = 0
    for game in POSITIONS[:: 2 if level == "expert" else 1]:
        seat = game.prompt.player
        decision = decide(game, seat, level)
        for seed in (1, 2):
            sample = redraw_hidden(game, seat, seed)
            changed += sample.to_json() != game.to_json()
            assert decide(sample, seat, level) == decision, (level, len(game.history))
    assert changed > 0


class Recording:
    def __init__(self, player: Player) -> None:
        self.player = player
        self.reasons: list[Msg] = []

    def decide(self, game: Game, seat: int) -> Decision:
        decision = self.player.decide(game, seat)
        self.reasons.append(decision.reason)
        return decision


def test_every_reason_of_a_new_shores_game_is_a_sentence_in_every_language() -> None:
    seats = [Recording(ExpertPlayer()), Recording(GreedyPlayer()), Recording(GreedyPlayer())]
    record = play_game(new_shores(3, 4), seats, dice_seed=4, max_turns=45)
    assert record.problem is None
    said = {render(r, "en") for s in seats for r in s.reasons}
    assert any(line.startswith("A ship toward") for line in said), said
    for seat in seats:
        for reason in seat.reasons:
            for code in LANGUAGES:
                text = render(reason, code)
                assert text[:1].isupper(), (code, text)


def test_the_tablets_bot_seats_play_new_shores_with_their_steps_shown() -> None:
    """The tablet's path (issue "An empty chair"): three bot seats, one per level, on New
    Shores: the bots decide until the dice roll, each stretch's steps read in the log's words
    with their reasons, and a ship is shown on its edge."""
    config = new_shores(3, 6)
    players = tuple(replace(p, bot=level) for p, level in zip(config.players, LEVELS, strict=True))
    game = Game.new(replace(config, players=players))
    dice = SplitMix64(6)
    ships = 0
    for _ in range(18):
        before = game.copy()
        start = len(game.history)
        reasons = BT.play_bots(game, game.apply, decide)
        assert reasons, game.describe_prompt()
        steps = BT.turn_steps(before, game.history[start:], reasons).steps
        for step in steps:
            assert render(step.words, "en")
            if step.reason is not None:
                assert render(step.reason, "en")[:1].isupper()
        for index in reasons:
            action = game.history[index]
            if isinstance(action, BuildShip):
                ships += 1
                assert ("edge", action.edge) in [s.spot for s in steps]
        if game.is_over:
            break
        assert game.awaiting_roll
        game.apply(random_roll(dice, game.prompt.player, game.alchemist_dice))
    assert ships > 0 and violations(game) == []
