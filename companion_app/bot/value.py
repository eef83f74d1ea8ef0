"""How good a game is for one seat: the greedy player's written value of a C&K position.

Read only what the seat may see: its own hand, the others' card counts, the board, the
improvements, the knights, the barbarians and the decks' sizes. The parts, in points where a
victory point is worth :data:`VP`:

- victory points (a win above everything);
- production: each building's share of its hexes' dice probability, commodities from cities on
  forest, pasture and mountains, the robber's hex producing nothing; per card, diminishing
  (the fifth ore a roll brings is worth less than the first);
- the hand: each card, plus how close it brings the next city, settlement, knight and
  improvement; minus the risk of losing half of it on a 7;
- improvements per level (the level-3 abilities and the metropolis race weighing more);
- knights: active strength against the barbarians, weighed by how near the ship is and how
  many cities the seat has to lose;
- progress cards held, city walls; the longest road and the spots open to the next
  settlement;
- the others: their production and points, the leader's most (so the robber and the victims
  go to the leader first).
- on a sea board only: ships toward the small islands and the pirate
  (:mod:`companion_app.bot.sea`).

The expert adds its own term (:func:`expert_value`): a starting position that produces no
wool, grain or ore (:func:`start_points`).

To add a heuristic: a function of ``(game, seat)`` returning points, added in :func:`value`
with its weight as a named constant here, and a worked example in tests/bot/test_bot_value.py.
"""

from __future__ import annotations

from companion_app.bot.sea import sea_points
from companion_app.rules.cards import (
    CARD_KINDS,
    COSTS,
    TERRAIN_COMMODITY,
    TERRAIN_RESOURCE,
    TRACKS,
    Build,
    Card,
    improvement_cost,
)
from companion_app.rules.game import Game
from companion_app.rules.pieces import CITY, NOBODY, SETTLEMENT
from companion_app.rules.state import affords

VP = 1000.0
WIN = 1_000_000.0
PIPS = (0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)
"""Ways to roll each sum with two dice (of 36)."""
PIP_POINTS = 28.0
"""One pip (1/36 of a card per roll) of production, for a card of weight 1."""
CARD_WEIGHT = (1.0, 1.0, 0.85, 1.05, 1.15, 1.0, 1.0, 1.0)
"""Brick, lumber, wool, grain, ore, cloth, coin, paper: ore and grain build cities."""
CARD_POINTS = 9.0
CLOSE_POINTS: dict[str, float] = {"city": 150.0, "settlement": 110.0, "knight": 30.0}
IMPROVEMENT_CLOSE = 40.0
IDLE_CARD_POINTS = 3.0
"""A card beyond the discard limit: idle, and half the hand goes on a 7."""
SEVEN_RISK = CARD_POINTS / 6
"""Per card lost on a 7 (1 roll in 6) with a hand above the discard limit."""
IMPROVEMENT_POINTS = (0.0, 140.0, 300.0, 560.0, 800.0, 1000.0)
"""Points per level 0-5 of a track: level 3 gives the ability, 4 may take the metropolis."""
KNIGHT_LEVEL_POINTS = 110.0
ACTIVE_POINTS = 50.0
DANGER_POINTS = 1300.0
"""A city lost to the barbarians (its points and production), for the weakest defenders with
the table's defence short of the barbarians, in proportion to how near the ship is."""
PROGRESS_POINTS = 15.0
WALL_POINTS = 45.0
"""A city wall: two more cards kept on a 7 (the hand's own term counts them too)."""
ROAD_POINTS = 12.0
SPOT_POINTS = 60.0
OTHERS_SHARE = 0.15
LEADER_SHARE = 0.3
START_SHORT_POINTS = 150.0
"""The expert's, before the game's first roll: per card of a knight and its activation (wool,
ore, grain; grain and ore build cities too) that none of the seat's buildings produce. A seat
without one cannot defend its city at the first barbarian attack, which comes in the first
rounds; the production term, which adds up pips, weighs the missing card no more than any."""
START_CARDS = (Card.WOOL, Card.GRAIN, Card.ORE)


def pips_of(game: Game, node: int) -> list[float]:
    """What a building on ``node`` of its owner's level brings per roll, by card, in pips."""
    out = [0.0] * CARD_KINDS
    city = game.node_level[node] == CITY
    board = game.board
    for h in game.topology.node_hexes[node]:
        token = game.tokens[h]
        if token is None or h == game.robber_hex:
            continue
        pips = PIPS[token]
        resource = TERRAIN_RESOURCE[board.terrains[h]]
        if resource is None:
            continue
        if city:
            commodity = TERRAIN_COMMODITY.get(board.terrains[h])
            if commodity is None:
                out[resource] += 2 * pips
            else:
                out[resource] += pips
                out[commodity] += pips
        else:
            out[resource] += pips
    return out


_PRODUCTION: dict[tuple[object, ...], tuple[object, list[float]]] = {}
"""Productions computed, by what they depend on (the tokens' table, kept alive with the entry
so its id is not reused; the robber's hex; the seat's buildings and their levels): a search
reads the same few productions thousands of times."""
_PRODUCTION_MAX = 50_000


def production(game: Game, seat: int) -> list[float]:
    """The seat's production per card, in pips (of 36 rolls). Do not change the list."""
    nodes = game.buildings_of[seat]
    levels = game.node_level
    tokens = game.token_hexes
    key = (id(tokens), id(game.board), game.robber_hex, *nodes, -1, *[levels[n] for n in nodes])
    known = _PRODUCTION.get(key)
    if known is not None and known[0] is tokens:
        return known[1]
    total = [0.0] * CARD_KINDS
    for node in nodes:
        if levels[node] in (SETTLEMENT, CITY):
            for c, x in enumerate(pips_of(game, node)):
                total[c] += x
    if len(_PRODUCTION) >= _PRODUCTION_MAX:
        _PRODUCTION.clear()
    _PRODUCTION[key] = (tokens, total)
    return total


def production_points(pips: list[float]) -> float:
    points = 0.0
    for c, x in enumerate(pips):
        worth = x if x <= 6 else 6 + 0.5 * (x - 6)
        points += CARD_WEIGHT[c] * worth
    return PIP_POINTS * points


def closeness(hand: list[int], cost: tuple[int, ...]) -> float:
    """1 when the hand pays ``cost``, falling with each card it lacks."""
    missing = sum(c - h for h, c in zip(hand, cost, strict=True) if c > h)
    return (1.0 - missing / sum(cost)) ** 2


def hand_points(game: Game, seat: int, hand: list[int] | None = None) -> float:
    """The seat's hand's worth (or ``hand``'s, held by the seat in its place)."""
    if hand is None:
        hand = game.hands[seat]
    count = sum(hand)
    limit = game.discard_limit(seat)
    points = CARD_POINTS * min(count, limit) + IDLE_CARD_POINTS * max(0, count - limit)
    if game.settlements_left(seat) > 0 or game.cities_left(seat) > 0:
        if game.cities_left(seat) > 0 and game.settlements_on_board(seat) > 0:
            points += CLOSE_POINTS["city"] * closeness(hand, COSTS[Build.CITY])
        if game.settlements_left(seat) > 0:
            points += CLOSE_POINTS["settlement"] * closeness(hand, COSTS[Build.SETTLEMENT])
    points += CLOSE_POINTS["knight"] * closeness(hand, COSTS[Build.KNIGHT])
    if game.cities_of(seat):
        for track in TRACKS:
            level = game.improvements[seat][track.index]
            if level < 5:
                points += IMPROVEMENT_CLOSE * closeness(hand, improvement_cost(track, level + 1))
    if count > limit:
        points -= SEVEN_RISK * (count // 2)
    return points


def improvement_points(game: Game, seat: int) -> float:
    return sum(IMPROVEMENT_POINTS[level] for level in game.improvements[seat])


def knight_points(game: Game, seat: int) -> float:
    points = 0.0
    for node in game.knights_of[seat]:
        points += KNIGHT_LEVEL_POINTS * game.knight_level[node]
        if game.knight_active[node]:
            points += ACTIVE_POINTS * game.knight_level[node]
    if exposed_cities(game, seat):
        defence = [defence_of(game, p) for p in range(game.player_count)]
        if affords(game.hands[seat], COSTS[Build.KNIGHT]):
            defence[seat] += AFFORDED_SHARE
        # Among the players with a city to lose only: the others are immune (§7).
        weakest = min(defence[p] for p in range(game.player_count) if exposed_cities(game, p))
        if sum(defence) < game.barbarian_strength() and defence[seat] <= weakest:
            near = (1 + game.barbarian_position) / max(1, game.config.barbarian_track_length)
            points -= DANGER_POINTS * min(1.0, near)
    return points


def exposed_cities(game: Game, seat: int) -> bool:
    """The seat has a city the barbarians may take (one that is not a metropolis)."""
    return any(n not in game.metropolis for n in game.cities_of(seat))


def defence_of(game: Game, seat: int) -> float:
    """Knight strength against the next attack: active knights, and most of the inactive ones
    (a grain activates them before the ship arrives)."""
    total = 0.0
    for node in game.knights_of[seat]:
        level = game.knight_level[node]
        total += level if game.knight_active[node] else INACTIVE_SHARE * level
    return total


INACTIVE_SHARE = 0.7
AFFORDED_SHARE = 0.5
"""A knight the hand pays for counts half against the coming attack."""


def open_spots(game: Game, seat: int) -> int:
    """Free intersections at an end of the seat's roads where a settlement may stand."""
    owner = game.node_owner
    neighbours = game.topology.node_neighbours
    count = 0
    for node in game.road_ends(seat):
        if owner[node] != NOBODY or game.knight_owner[node] != NOBODY:
            continue
        if all(owner[m] == NOBODY for m in neighbours[node]):
            count += 1
    return count


def public_points(game: Game, seat: int) -> float:
    """What anyone sees of a seat's strength: points, production, cards held, progress."""
    return (
        VP * game.victory_points(seat)
        + production_points(production(game, seat))
        + CARD_POINTS * game.card_count(seat)
        + PROGRESS_POINTS * len(game.progress_hands[seat])
        + improvement_points(game, seat)
    )


def value(game: Game, seat: int) -> float:
    """The seat's value of ``game`` (see the module's description)."""
    if game.is_over:
        return WIN if game.winner == seat else -WIN
    points = VP * game.victory_points(seat)
    points += production_points(production(game, seat))
    points += hand_points(game, seat)
    points += improvement_points(game, seat)
    points += knight_points(game, seat)
    points += PROGRESS_POINTS * len(game.progress_hands[seat])
    points += WALL_POINTS * game.walls_of(seat)
    points += ROAD_POINTS * min(game.road_length[seat], 8)
    if game.settlements_left(seat) > 0:
        points += SPOT_POINTS * min(open_spots(game, seat), 2)
    others = [p for p in range(game.player_count) if p != seat]
    if others:
        theirs = [public_points(game, p) for p in others]
        points -= OTHERS_SHARE * sum(theirs) / len(theirs) + LEADER_SHARE * max(theirs)
    if game.topology.has_sea:
        points += sea_points(game, seat)
    return points


def start_points(game: Game, seat: int) -> float:
    """Before the game's first roll (the setup): minus :data:`START_SHORT_POINTS` per card of
    :data:`START_CARDS` the seat's buildings do not produce; nothing once the dice rolled."""
    if game.last_roll is not None:
        return 0.0
    pips = production(game, seat)
    return -START_SHORT_POINTS * sum(1 for card in START_CARDS if pips[card] <= 0)


def expert_value(game: Game, seat: int) -> float:
    """The expert's value: :func:`value` and its own terms (:func:`start_points`)."""
    points = value(game, seat)
    if not game.is_over:
        points += start_points(game, seat)
    return points
