"""The bot on a sea board (Heading for New Shores, §13): what ships, islands, the pirate and
gold choices are worth to a seat, and the lines that say so.

:func:`sea_points` is added to :func:`companion_app.bot.value.value` on a sea board only, so the
island game's value (and its strength figures) are unchanged. In points where a victory point
is worth 1000, as there:

- the reach to a small island: the seat's nearest free coastal intersection of a small island
  where a settlement may stand, counted in ships from its buildings and ship ends over the
  coast and sea edges nobody else holds (opponents' buildings, their ships and roads, the
  pirate's edges block); an island the seat has not settled is worth its 2 chits (§13.10)
  ahead, one already settled only a new spot; each ship still to build costs :data:`STEP_POINTS`.
  A ship that brings no island nearer gains only the trade route's length (the value's road
  term is the Longest Trade Route on a sea board, §13.6), which is less than its cards: wasted
  ships are not built;
- a ship's cost in the hand while an island is in reach (lumber and wool);
- a ship moved this turn costs a little (:data:`MOVED_POINTS`): a move must gain something;
- the pirate (§13.4): next to the leader's ships (they do not move or grow there) is good for
  the seat, next to its own ships bad. The leader is the other seat with the most points.

- gold fields (§13.5): the production term counts no gold, so each pip of a gold field the
  seat's buildings touch is counted here (a city's twice). Which card a gold choice takes needs
  no term of its own: the hand's closeness to the next build (the value's hand term, and the
  ship's here) makes the card the seat lacks most the best choice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion_app.rules.actions import (
    Action,
    BuildSettlement,
    BuildShip,
    ChasePirate,
    MovePirate,
    MoveShip,
    TakeGold,
)
from companion_app.rules.cards import COSTS, Build
from companion_app.rules.game import Game
from companion_app.rules.messages import N_, Msg, msg
from companion_app.rules.pieces import CITY, NOBODY
from companion_app.rules.topology import NodeKind, Topology

ISLAND_POINTS = 1000.0
"""A free spot on a small island the seat has not settled, one ship away from being built on
(the settlement's point and the island's 2 chits are still to be paid for)."""
SPOT_POINTS = 250.0
"""A free spot on a small island the seat has settled already."""
SPOT_PIP_POINTS = 12.0
"""Per pip of the land around the spot (gold fields included)."""
STEP_POINTS = 120.0
"""Each ship still to build on the way."""
SETUP_SHARE = 0.2
"""The reach's weight while the setup is played: production first."""
SHIP_CLOSE_POINTS = 40.0
"""The hand paying a ship while an island is in reach."""
PIRATE_LEADER_POINTS = 150.0
"""The pirate next to the leader's ships."""
PIRATE_OWN_POINTS = 120.0
"""The pirate next to the seat's own ships."""
GOLD_PIP_POINTS = 32.0
"""One pip of a gold field (1/36 of a resource of the seat's choice a roll, 2 for a city): a bit
more than a fixed card's pip in the value's production term, which counts no gold."""
MOVED_POINTS = 5.0
"""A ship moved this turn: a move is made for a gain, never back and forth for nothing."""
PIPS = (0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)


@dataclass(frozen=True, slots=True)
class Reach:
    """The seat's best small-island spot: where, how many ships away, what it is worth."""

    node: int
    island: int
    ships: int
    new_island: bool
    points: float


def leader(game: Game, seat: int) -> int | None:
    """The other seat with the most victory points (the most ships on a tie), if any."""
    others = [p for p in range(game.player_count) if p != seat]
    if not others:
        return None
    return max(others, key=lambda p: (game.victory_points(p), len(game.ships_of[p]), -p))


def spot_free(game: Game, node: int) -> bool:
    """A settlement may stand on ``node``: empty, and no building next to it (the distance
    rule, across sea edges too)."""
    owner = game.node_owner
    if owner[node] != NOBODY or game.knight_owner[node] != NOBODY:
        return False
    return all(owner[m] == NOBODY for m in game.topology.node_neighbours[node])


def pirate_blocked(game: Game) -> frozenset[int]:
    cell = game.pirate_cell
    if cell == NOBODY:
        return frozenset()
    return frozenset(game.topology.cell_edges[cell])


@dataclass(frozen=True, slots=True)
class SeaLinks:
    """A sea board's tables for :func:`reach`, made once per topology."""

    links: tuple[tuple[tuple[int, int], ...], ...]
    """Per intersection: each ship edge there and the intersection at its other end."""
    landings: frozenset[int]
    """The small islands' intersections a ship reaches (not the main island's)."""


_LINKS: dict[int, tuple[Topology, SeaLinks]] = {}


def sea_links(topology: Topology) -> SeaLinks:
    kept = _LINKS.get(id(topology))
    if kept is not None and kept[0] is topology:
        return kept[1]
    edge_nodes = topology.edge_nodes
    links = tuple(
        tuple((e, edge_nodes[e][1] if edge_nodes[e][0] == node else edge_nodes[e][0]) for e in at)
        for node, at in enumerate(topology.node_ship_edges)
    )
    landings = frozenset(
        n
        for n, island in enumerate(topology.node_island)
        if island and topology.node_kinds[n] is not NodeKind.SEA and topology.node_ship_edges[n]
    )
    made = SeaLinks(links, landings)
    _LINKS[id(topology)] = (topology, made)
    return made


_REACHES: dict[tuple[int, ...], tuple[list[int | None], Reach | None]] = {}
""":func:`reach` per board mark (which changes whenever a piece, a knight or the pirate comes
or goes), seat, robber hex and the seat's pieces left, with the number tokens it was found on
(an Inventor swaps them): a search values the same board again and again (each option that
builds nothing, each deal of the hidden cards)."""
_REACHES_KEPT = 4096


def reach(game: Game, seat: int) -> Reach | None:
    """The seat's best small-island spot by :data:`ISLAND_POINTS` (or :data:`SPOT_POINTS`)
    less :data:`STEP_POINTS` per ship on the shortest way, or None (no spot, no settlement
    left, nothing worth the ships)."""
    left = game.settlements_left(seat)
    if left == 0:
        return None
    key = (game.board_mark, seat, game.robber_hex, left, game.ships_left(seat))
    kept = _REACHES.get(key)
    if kept is not None and kept[0] == game.tokens:
        return kept[1]
    best = reach_searched(game, seat)
    if len(_REACHES) >= _REACHES_KEPT:
        _REACHES.clear()
    _REACHES[key] = (game.tokens[:], best)
    return best


def reach_searched(game: Game, seat: int) -> Reach | None:
    """:func:`reach` searched: breadth first over the coast and sea edges from the seat's
    buildings and ship ends, a level of the same number of ships at a time."""
    if game.settlements_left(seat) == 0:
        return None
    topology = game.topology
    sea = sea_links(topology)
    links, landings, island_of = sea.links, sea.landings, topology.node_island
    owner, knight = game.node_owner, game.knight_owner
    roads, ships = game.edge_owner, game.ship_owner
    blocked = pirate_blocked(game)
    settled = game.islands_settled[seat]
    edge_nodes = topology.edge_nodes
    starts = set(game.buildings_of[seat])
    for e in game.ships_of[seat]:
        starts.update(edge_nodes[e])
    seen = set(starts)
    level = sorted(starts)
    best: Reach | None = None
    farthest = min(game.ships_left(seat), MAX_SHIPS)
    free = (NOBODY, seat)
    for d in range(farthest + 1):
        # No spot this many ships away or farther beats the best found.
        if best is not None and best.points >= ISLAND_POINTS - STEP_POINTS * d + SPOT_CAP:
            break
        further: list[int] = []
        for node in level:
            if node in landings and spot_free(game, node):
                island = island_of[node] or 0
                new = island not in settled
                worth = (ISLAND_POINTS if new else SPOT_POINTS) + spot_pips(game, node)
                points = worth - STEP_POINTS * d
                if points > 0 and (best is None or points > best.points):
                    best = Reach(node, island, d, new, points)
            if d == farthest or owner[node] not in free or knight[node] not in free:
                continue  # no ship left to go further; nobody sails past an opponent's piece
            for e, m in links[node]:
                if m in seen or roads[e] != NOBODY or ships[e] != NOBODY or e in blocked:
                    continue  # the seat's own ships: both their ends are starts
                seen.add(m)
                further.append(m)
        if not further:
            break
        level = further
    return best


SPOT_CAP = 3 * PIPS[6] * SPOT_PIP_POINTS
"""The most a spot's pips bring (three hexes of 5 pips): the search stops when no farther spot
can beat the best."""
MAX_SHIPS = int((ISLAND_POINTS + SPOT_CAP) // STEP_POINTS)
"""No spot farther than this is worth its ships (9)."""


def spot_pips(game: Game, node: int) -> float:
    total = 0
    robber = game.robber_hex
    for h in game.topology.node_hexes[node]:
        token = game.tokens[h]
        if token is not None and h != robber:
            total += PIPS[token]
    return SPOT_PIP_POINTS * total


def closeness(hand: list[int], cost: tuple[int, ...]) -> float:
    missing = sum(c - h for h, c in zip(hand, cost, strict=True) if c > h)
    return (1.0 - missing / sum(cost)) ** 2


def gold_pips(game: Game, seat: int) -> int:
    """The seat's gold choices per 36 rolls: a settlement's pips on each gold field, a city's
    twice (§13.5); none under the robber."""
    total = 0
    owner, level = game.node_owner, game.node_level
    for token, fields in game.gold_token_hexes.items():
        for h in fields:
            if h == game.robber_hex:
                continue
            for node in game.topology.hex_nodes[h]:
                if owner[node] == seat:
                    total += PIPS[token] * (2 if level[node] == CITY else 1)
    return total


def sea_points(game: Game, seat: int) -> float:
    """The sea's part of the seat's value (see the module's description)."""
    points = GOLD_PIP_POINTS * gold_pips(game, seat)
    best = reach(game, seat)
    if best is not None:
        points += best.points * (SETUP_SHARE if game.in_setup else 1.0)
        if best.ships > 0 and game.ships_left(seat) > 0:
            points += SHIP_CLOSE_POINTS * closeness(game.hands[seat], COSTS[Build.SHIP])
    if game.ship_moved and game.active == seat:
        points -= MOVED_POINTS
    blocked = pirate_blocked(game)
    if blocked:
        ships = game.ship_owner
        owners = {ships[e] for e in blocked}
        if seat in owners:
            points -= PIRATE_OWN_POINTS
        owners.discard(seat)
        owners.discard(NOBODY)
        if owners and leader(game, seat) in owners:  # the leader asked only when it may matter
            points += PIRATE_LEADER_POINTS
    return points


# ---- the table's lines ---------------------------------------------------------------------------

TOWARD_ISLAND: dict[str, str] = {
    "east": N_("A ship toward the east island: 2 VP for its first settlement"),
    "north-east": N_("A ship toward the north-east island: 2 VP for its first settlement"),
    "north": N_("A ship toward the north island: 2 VP for its first settlement"),
    "north-west": N_("A ship toward the north-west island: 2 VP for its first settlement"),
    "west": N_("A ship toward the west island: 2 VP for its first settlement"),
    "south-west": N_("A ship toward the south-west island: 2 VP for its first settlement"),
    "south": N_("A ship toward the south island: 2 VP for its first settlement"),
    "south-east": N_("A ship toward the south-east island: 2 VP for its first settlement"),
}
"""One line per direction: the direction's word agrees with "island" in each language."""


def direction(topology: Topology, island: int) -> str:
    """Where an island lies from the middle of the board, one of :data:`SECTORS`' words."""
    xs = [topology.hex_xy[h] for h in topology.islands[island]]
    every = topology.hex_xy
    mid_x = sum(x for x, _ in every) / len(every)
    mid_y = sum(y for _, y in every) / len(every)
    # Lattice units: x half a hex width (sqrt(3)/2 of a side), y half a side, y down.
    dx = (sum(x for x, _ in xs) / len(xs) - mid_x) * math.sqrt(3) / 2
    dy = -(sum(y for _, y in xs) / len(xs) - mid_y) / 2
    angle = math.degrees(math.atan2(dy, dx)) % 360
    for bound, word in SECTORS:
        if angle < bound:
            return word
    return "east"


SECTORS = (
    (22.5, "east"),
    (75.0, "north-east"),
    (105.0, "north"),
    (157.5, "north-west"),
    (202.5, "west"),
    (255.0, "south-west"),
    (285.0, "south"),
    (337.5, "south-east"),
)
"""Upper bounds of each direction's angle (degrees, counter-clockwise from east): north and
south only within 15 degrees of straight up or down, so an island off an end of the top row
reads as the table says it (the 3-player map's islet at 111 degrees is the north-west one)."""


def explain(game: Game, seat: int, action: Action) -> Msg | None:
    """The line for a sea move (a ship, a settlement on a small island, the pirate, a gold
    choice) chosen by ``seat`` in ``game`` (before it), or None for the island game's line."""
    topology = game.topology
    if isinstance(action, BuildShip | MoveShip):
        ahead = game.copy()
        ahead.apply(action)
        before, after = reach(game, seat), reach(ahead, seat)
        if after is not None and (before is None or after.points > before.points):
            if after.new_island:
                return msg(TOWARD_ISLAND[direction(topology, after.island)])
            return msg("A ship toward a free coast of an island: a new settlement spot")
        return msg("A ship for the Longest Trade Route")
    if isinstance(action, BuildSettlement):
        island = topology.node_island[action.node]
        if island is not None and island > 0 and island not in game.islands_settled[seat]:
            return msg("A settlement on a new island: a point and 2 more for the island")
        return None
    if isinstance(action, ChasePirate):
        return msg("A knight chases the pirate: it goes where it hurts the leader")
    if isinstance(action, MovePirate):
        top = leader(game, seat)
        ships = game.ship_owner
        if top is not None and any(ships[e] == top for e in topology.cell_edges[action.cell]):
            return msg(
                "The pirate next to the ships of {player}, the leader",
                player=game.config.names[top],
            )
        return msg("The pirate away from my ships")
    if isinstance(action, TakeGold):
        return msg("Gold: {card}, what the next build lacks most", card=action.card.words)
    return None
