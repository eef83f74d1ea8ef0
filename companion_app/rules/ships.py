"""Ships (Seafarers, §13.3): building one, the setup ship, the once-per-turn move of an open
ship, settling small islands (§13.3 item 4) and their Catan chits (§13.10), on a sea board.

A ship lies on a coast or sea edge (``state.ship_owner``); roads and ships meet only at the
owner's settlement or city, so each grows only from its own kind's ends and the player's
buildings. The Longest Trade Route (§13.6) is :func:`traderoute.longest_trade_route`, measured
wherever the Longest Road is.

Elsewhere: the pirate's moves and its steal from ship owners (:mod:`robber`), knights along
and on ships (:mod:`knights`: a knight at a ship's end closes it, so an open ship that moves
never unlinks a knight, §13.7 item 6), the Diplomat removing open ships (:mod:`progress`, R14).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable

from companion_app.rules import operations as ops
from companion_app.rules import traderoute as routes
from companion_app.rules import turnflow
from companion_app.rules.actions import Action, BuildShip, MoveShip
from companion_app.rules.cards import COSTS, Build, Track
from companion_app.rules.config import MAX_PLAYERS
from companion_app.rules.declare import ActionRule, Options, PromptRule
from companion_app.rules.events import IslandSettled
from companion_app.rules.messages import Msg, msg
from companion_app.rules.pieces import NOBODY, SHIPS_PER_PLAYER
from companion_app.rules.prompts import PromptKind, Stage
from companion_app.rules.seamap import MAX_EDGES
from companion_app.rules.state import (
    BOARD_MARKS,
    GameState,
    ShipNetwork,
    affords,
    holds,
    needs_of,
)
from companion_app.rules.topology import EdgeKind
from companion_app.rules.words import Line, LineKind, Telling

_SHIP = [[BuildShip(p, e) for e in range(MAX_EDGES)] for p in range(MAX_PLAYERS)]
_MOVES: list[list[list[MoveShip | None] | None]] = [[None] * MAX_EDGES for _ in range(MAX_PLAYERS)]
"""Per seat and ship, a row of the moves made so far by edge (made when first asked): listed
again, never made again."""
_SHIP_NEEDS = needs_of(COSTS[Build.SHIP])
_SHORTEST_LOOP = 6
"""Both loops of :func:`open_ships` go round a cycle of edges, and the shortest cycle of the
hex lattice's edges is one hex's six."""
_FREE = (PromptKind.FREE_ROAD, PromptKind.FREE_SHIP)
"""The prompts whose ships are free: Road Building's, the Diplomat's own ship (R14)."""


# ---- the network ---------------------------------------------------------------------------------


def pirate_edges(state: GameState) -> tuple[int, ...]:
    """The edges of the pirate's hex or frame cell: no ship is built on them, moved off them or
    onto them (§13.4 item 4)."""
    if state.pirate_cell == NOBODY:
        return ()
    return state.topology.cell_edges[state.pirate_cell]


def ship_spots(state: GameState, p: int, lifted: int | None = None) -> list[int]:
    """Empty coast and sea edges a ship of ``p`` may be built on now (§13.3 item 1), in id
    order: one end at the player's settlement or city or at the end of one of their ships, that
    end free of other players' settlements, cities and knights, the pirate's edges left out.
    ``lifted``: judged as if that ship of the player were already lifted (a move, item 6)."""
    topology = state.topology
    if not topology.has_sea:
        return []
    edge_nodes, at = topology.edge_nodes, topology.node_ship_edges
    frontier = set(state.buildings_of[p])
    for e in state.ships_of[p]:
        if e != lifted:
            frontier.update(edge_nodes[e])
    roads, ships = state.edge_owner, state.ship_owner
    owner, knight = state.node_owner, state.knight_owner
    spots: set[int] = set()
    for node in frontier:
        if owner[node] not in (NOBODY, p) or knight[node] not in (NOBODY, p):
            continue  # nobody builds past an opponent's piece
        for e in at[node]:
            if roads[e] == NOBODY and (ships[e] == NOBODY or e == lifted):
                spots.add(e)
    spots.difference_update(pirate_edges(state))
    if lifted is not None:
        spots.discard(lifted)
    return sorted(spots)


def open_ships(state: GameState, p: int) -> list[int]:
    """The player's open ships, in id order (§13.3 item 5, R13).

    A ship is open when at one of its ends there is none of its owner's settlement, city,
    knight or other ship (other players' pieces and the owner's roads do not count). Two loops
    are open too: cut the ships at the owner's buildings and knights; a piece that is a chain
    leaving one building or knight and coming back to it opens its two ships touching it, and a
    piece that is a ring touching none opens every ship of it."""
    if not state.ships_of[p]:
        return []
    return list(_network(state, p)[3])


def _network(state: GameState, p: int) -> ShipNetwork:
    """The player's :data:`~state.ShipNetwork`, kept in the state while their ships, buildings
    and knights stay the same (a turn's listings ask it after every action); made anew after a
    ship built or moved, from the counts kept."""
    ships, buildings, knights = state.ships_of[p], state.buildings_of[p], state.knights_of[p]
    kept = state.ship_networks[p]
    if kept is not None and kept[0] == ships and kept[1] == buildings:
        if kept[2] == knights:
            return kept
        # Only knights came or went: the rest follows from the ships and buildings alone, and
        # the open ships change only where a knight came to or left a ship's end.
        held = kept[4]
        moved = set(kept[2]).symmetric_difference(knights)
        opened = kept[3] if moved.isdisjoint(held) else tuple(_open_ships(state, p, held))
        made = state.ship_networks[p] = (ships[:], buildings[:], knights[:], opened, *kept[4:])
        return made
    own = set(ships)
    if (
        kept is not None
        and kept[1] == buildings
        and len(changed := own.symmetric_difference(kept[0])) <= 2
    ):  # a ship built or moved: the held counts follow from the kept ones
        held = kept[4].copy()
        edge_nodes = state.topology.edge_nodes
        for e in changed:
            step = 1 if e in own else -1
            for node in edge_nodes[e]:
                count = held.get(node, 0) + step
                if count:
                    held[node] = count
                else:
                    del held[node]
    else:
        held = _ship_ends(ships, state.topology.edge_nodes)
        for node in buildings:
            held[node] = held.get(node, 0) + 1
    at = state.topology.node_ship_edges
    around = [(e, node) for node in held for e in at[node] if e not in own]
    around.sort()
    made = state.ship_networks[p] = (
        ships[:],
        buildings[:],
        knights[:],
        tuple(_open_ships(state, p, held)),
        held,
        tuple(around),
        [],
        [],
    )
    return made


def _ship_ends(ships: list[int], edge_nodes: tuple[tuple[int, int], ...]) -> dict[int, int]:
    """Per intersection at an end of ``ships``, how many of them end there."""
    degree: dict[int, int] = {}
    for e in ships:
        a, b = edge_nodes[e]
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    return degree


def _open_ships(state: GameState, p: int, held: dict[int, int]) -> list[int]:
    """:func:`open_ships` made anew (``held``: per intersection, how many of the player's
    ships end there, plus one at each of their buildings: a building anchors its intersection,
    so the count there never matters)."""
    own = state.ships_of[p]
    edge_nodes = state.topology.edge_nodes
    # The player's buildings (all held) and their knights there.
    anchored = held.keys() & state.knights_of[p]
    anchored.update(state.buildings_of[p])
    opened: list[int] = []
    # The loops: ships whose every end is an anchor or joins exactly two ships, in pieces
    # joined at intersections that are no anchor.
    candidates: list[int] = []
    for e in own:
        a, b = edge_nodes[e]
        at_a, at_b = held[a], held[b]
        if (at_a == 1 and a not in anchored) or (at_b == 1 and b not in anchored):
            opened.append(e)
        elif (at_a == 2 or a in anchored) and (at_b == 2 or b in anchored):
            candidates.append(e)
    if len(candidates) < _SHORTEST_LOOP:
        return opened
    return sorted(_open_loops(candidates, edge_nodes, anchored).union(opened))


def _open_loops(
    candidates: list[int], edge_nodes: tuple[tuple[int, int], ...], anchored: set[int]
) -> set[int]:
    """The ships of :func:`open_ships`' two loops among ``candidates``: each piece of them
    joined at intersections that hold no anchor, walked once."""
    at: dict[int, list[int]] = {}
    for e in candidates:
        for node in edge_nodes[e]:
            if node not in anchored:
                at.setdefault(node, []).append(e)
    opened: set[int] = set()
    seen: set[int] = set()
    for start in candidates:
        if start in seen:
            continue
        seen.add(start)
        piece, touching, whole = _piece(start, at, seen, edge_nodes, anchored)
        if not whole:
            continue  # a piece of a longer chain: the end test said it all
        if not touching:
            opened.update(piece)  # a ring touching none of the owner's anchors
        elif len(touching) == 2 and touching[0][1] == touching[1][1]:
            opened.update(e for e, _ in touching)  # a chain back to where it left
    return opened


def _piece(
    start: int,
    at: dict[int, list[int]],
    seen: set[int],
    edge_nodes: tuple[tuple[int, int], ...],
    anchored: set[int],
) -> tuple[list[int], list[tuple[int, int]], bool]:
    """The ships joined to ``start`` at intersections that hold no anchor (``at``: the ships
    at each such intersection; each added to ``seen``), each ship's ends at an anchor, and
    whether every other intersection of the piece joins exactly two of them."""
    piece = [start]
    touching: list[tuple[int, int]] = []
    whole = True
    for e in piece:  # grows while walked
        for node in edge_nodes[e]:
            if node in anchored:
                touching.append((e, node))
                continue
            there = at[node]
            if len(there) != 2:
                whole = False
            for f in there:
                if f not in seen:
                    seen.add(f)
                    piece.append(f)
    return piece, touching, whole


def movable_ships(state: GameState, p: int) -> list[int]:
    """The player's ships that may move now (§13.3 item 6): open, not placed this turn, not on
    an edge of the pirate's hex; none once a ship moved this turn."""
    if state.ship_moved:
        return []
    pirate = pirate_edges(state)
    placed = state.ships_placed
    return [e for e in _network(state, p)[3] if e not in placed and e not in pirate]


# ---- checks --------------------------------------------------------------------------------------


def _edge_reason(game: GameState, e: int) -> Msg | None:
    topology = game.topology
    if not topology.has_sea:
        return msg("ships sail only on a sea board (§13)")
    if not 0 <= e < topology.edge_count:
        return msg(
            "edge {edge} does not exist (edges are 0-{last})", edge=e, last=topology.edge_count - 1
        )
    if topology.edge_kinds[e] is EdgeKind.LAND:
        return msg("edge {edge} lies inland: only a road goes there (§13.2)", edge=e)
    if game.edge_owner[e] != NOBODY:
        return msg("edge {edge} already has a road", edge=e)
    return None


def check_build_ship(game: GameState, a: BuildShip) -> Msg | None:
    p, e = a.player, a.edge
    reason = _edge_reason(game, e)
    if reason:
        return reason
    if game.ship_owner[e] != NOBODY:
        return msg("edge {edge} already has a ship", edge=e)
    if e in pirate_edges(game):
        return msg("no ship is built next to the pirate (§13.4)")
    if game.ships_left(p) == 0:
        return msg("no ships left in the supply (each player has {count})", count=SHIPS_PER_PLAYER)
    if game.prompt.kind is PromptKind.SETUP_ROAD:
        if game.setup_node not in game.topology.edge_nodes[e]:
            return msg(
                "the starting ship must touch the piece just placed on {node}",
                node=game.setup_node,
            )
        return None
    if diplomats_road(game):
        return msg("the Diplomat's road comes back as a road (R14)")
    if game.prompt.kind not in _FREE and not affords(game.hands[p], COSTS[Build.SHIP]):
        return msg("a ship costs 1 lumber + 1 wool (§13.3)")
    if e not in ship_spots(game, p):
        return msg(
            "edge {edge} is not joined to your ships, settlements or cities (or a piece blocks "
            "it); roads and ships meet only at your buildings (§13.3)",
            edge=e,
        )
    return None


def check_move_ship(game: GameState, a: MoveShip) -> Msg | None:
    p = a.player
    reason = _edge_reason(game, a.edge)
    if reason:
        return reason
    if game.ship_owner[a.edge] != p:
        return msg("edge {edge} has no ship of yours", edge=a.edge)
    if game.ship_moved:
        return msg("a ship moves once per turn (§13.3)")
    if a.edge in game.ships_placed:
        return msg("a ship placed this turn does not move this turn (§13.3)")
    if a.edge in pirate_edges(game):
        return msg("a ship next to the pirate does not move (§13.4)")
    if a.edge not in open_ships(game, p):
        return msg(
            "the ship on edge {edge} is closed: your pieces hold both its ends (§13.3)",
            edge=a.edge,
        )
    reason = _edge_reason(game, a.to)
    if reason:
        return reason
    if a.to == a.edge:
        return msg("a moved ship goes to another edge")
    if a.to in pirate_edges(game):
        return msg("no ship is moved next to the pirate (§13.4)")
    if a.to not in ship_spots(game, p, lifted=a.edge):
        return msg(
            "edge {edge} is not a place a ship of yours could be built, the moved one lifted "
            "(§13.3)",
            edge=a.to,
        )
    return None


# ---- effects -------------------------------------------------------------------------------------


def remove_ship(state: GameState, edge: int) -> None:
    """The ship on ``edge`` leaves the board (the Diplomat, R14); the trade routes are measured
    again."""
    p = state.ship_owner[edge]
    state.ship_owner[edge] = NOBODY
    state.board_mark = next(BOARD_MARKS)
    state.ships_of[p].remove(edge)
    if edge in state.ships_placed:
        state.ships_placed.remove(edge)
    routes.trade_route_lost(state, p, edge)


def free_ship_spots(game: GameState, p: int) -> list[Action]:
    """The Diplomat's own ship placed again, free (R14)."""
    return [_SHIP[p][e] for e in ship_spots(game, p)]


def place_ship(state: GameState, p: int, edge: int) -> None:
    """A ship of ``p`` on ``edge``, the trade route measured with it (the route measured last
    was that of the network without it, see :func:`traderoute.trade_route_grown`)."""
    _put_ship(state, p, edge)
    routes.trade_route_grown(state, p, edge)


def _put_ship(state: GameState, p: int, edge: int) -> None:
    state.ship_owner[edge] = p
    state.board_mark = next(BOARD_MARKS)
    insort(state.ships_of[p], edge)


def do_build_ship(game: GameState, a: BuildShip) -> None:
    p = a.player
    place_ship(game, p, a.edge)
    kind = game.prompt.kind
    if kind is PromptKind.SETUP_ROAD:
        turnflow.advance_setup(game)
        return
    game.ships_placed.append(a.edge)
    if kind in _FREE:
        turnflow.pending_step_done(game)
    else:
        ops.pay(game, p, COSTS[Build.SHIP])


def do_move_ship(game: GameState, a: MoveShip) -> None:
    p = a.player
    game.ship_owner[a.edge] = NOBODY
    game.ships_of[p].remove(a.edge)
    game.ship_moved = True
    _put_ship(game, p, a.to)
    routes.trade_route_ship_moved(game, p, a.edge, a.to)


def settled(game: GameState, p: int, node: int) -> None:
    """A settlement of ``p`` was built on ``node`` (after the setup): on a small island the
    player's first takes 2 Catan chits (§13.10); roads and ships joined there may lengthen the
    trade route, and opponents' routes through it are split (§13.6)."""
    topology = game.topology
    if not topology.has_sea:
        return
    island = topology.node_island[node]
    if island is not None and island > 0 and island not in game.islands_settled[p]:
        insort(game.islands_settled[p], island)
        game.events.append(IslandSettled(p, island))
    routes.trade_routes_settled(game, p, node)


# ---- options -------------------------------------------------------------------------------------


def setup_ship_options(game: GameState, p: int) -> list[Action]:
    """A setup settlement or city on the coast may take a ship instead of its road (§13.3
    item 3), not next to the pirate."""
    if not game.topology.has_sea:
        return []
    kinds, roads, ships = game.topology.edge_kinds, game.edge_owner, game.ship_owner
    pirate = pirate_edges(game)
    return [
        _SHIP[p][e]
        for e in game.topology.node_edges[game.setup_node]
        if kinds[e] is not EdgeKind.LAND
        and roads[e] == NOBODY
        and ships[e] == NOBODY
        and e not in pirate
    ]


def diplomats_road(game: GameState) -> bool:
    """The free piece asked for is the Diplomat's own road coming back: a road (R14)."""
    return game.prompt.kind is PromptKind.FREE_ROAD and game.prompt.track == Track.POLITICS.value


def free_ship_options(game: GameState, p: int) -> list[Action]:
    """Road Building's free pieces may be ships (§13.9)."""
    if not game.topology.has_sea or game.ships_left(p) == 0 or diplomats_road(game):
        return []
    return [_SHIP[p][e] for e in ship_spots(game, p)]


def turn_options(game: GameState, p: int) -> list[Action]:
    """Ships to build and pay, and the turn's ship move."""
    if not game.topology.has_sea:
        return []
    own = game.ships_of[p]
    build = len(own) < SHIPS_PER_PLAYER and holds(game.hands[p], _SHIP_NEEDS)
    if not build and (not own or game.ship_moved):
        return []
    network = _network(game, p)
    movable: list[int] = []
    if own and not game.ship_moved and network[3]:
        placed = game.ships_placed
        pirate = pirate_edges(game)
        movable = [e for e in network[3] if e not in placed and e not in pirate]
    if not movable and not build:
        return []
    # The spots follow from the network and the board: kept while the board mark stays (a
    # turn's listings ask them after every action), with the ships built there once asked.
    spotted = network[7]
    if spotted and spotted[0][0] == game.board_mark:
        _, spots, reached, builds = spotted[0]
    else:
        spots, reached = _spots_reached(game, p, network[5])
        builds = None
        spotted[:] = [(game.board_mark, spots, reached, None)]
    if build and builds is None:
        ships = _SHIP[p]
        builds = [ships[e] for e in spots]
        spotted[0] = (game.board_mark, spots, reached, builds)
    if not movable:
        return builds if builds is not None and build else []
    kept = network[6]  # the moves follow from the network, the movable ships and the spots
    if kept and kept[0][0] == movable and kept[0][1] == reached:
        moves, both = kept[0][2], kept[0][3]
    else:
        moves = []
        _moves(moves, p, movable, spots, reached, network[4], game.topology.edge_nodes)
        both = None
        kept[:] = [(movable, reached, moves, None)]
    if not build or not builds:
        return moves
    if both is None:
        both = builds + moves
        kept[0] = (movable, reached, moves, both)
    return both


def _spots_reached(
    game: GameState, p: int, around: tuple[tuple[int, int], ...]
) -> tuple[list[int], dict[int, int]]:
    """:func:`ship_spots` (``around``: the edges at the player's buildings and ship ends, each
    with that intersection, in edge order), and per spot the one of its ends it is reached
    from, or NOBODY when reached from both."""
    roads, ships = game.edge_owner, game.ship_owner
    owner, knight = game.node_owner, game.knight_owner
    free = (NOBODY, p)  # nobody builds past an opponent's piece
    reached: dict[int, int] = {}
    for e, node in around:
        if (
            roads[e] == NOBODY
            and ships[e] == NOBODY
            and owner[node] in free
            and knight[node] in free
        ):
            reached[e] = NOBODY if e in reached else node
    if game.pirate_cell != NOBODY:
        for e in reached.keys() & game.topology.cell_edges[game.pirate_cell]:
            del reached[e]
    return list(reached), reached


def _moves(
    actions: list[Action],
    p: int,
    movable: list[int],
    spots: list[int],
    reached: dict[int, int],
    held: dict[int, int],
    edge_nodes: tuple[tuple[int, int], ...],
) -> None:
    """Each movable ship to each edge :func:`ship_spots` gives with it lifted, onto
    ``actions``: the edges of ``spots`` but those reached only from an intersection that ship
    alone held."""
    rows = _MOVES[p]
    for e in movable:
        row = rows[e]
        if row is None:
            row = rows[e] = [None] * MAX_EDGES
        a, b = edge_nodes[e]
        if held[a] == 1 or held[b] == 1:  # an end only this ship holds: what hangs on it goes
            dropped = (a if held[a] == 1 else b, b if held[b] == 1 else a)
            actions.extend(
                [row[s] or _move(row, p, e, s) for s in spots if reached[s] not in dropped]
            )
        else:
            actions.extend([row[s] or _move(row, p, e, s) for s in spots])


def _move(row: list[MoveShip | None], p: int, e: int, s: int) -> MoveShip:
    """The move of ``p``'s ship on ``e`` to ``s``, made once and kept in its row of
    :data:`_MOVES`."""
    move = row[s] = MoveShip(p, e, s)
    return move


# ---- words ---------------------------------------------------------------------------------------


def ship_told(t: Telling, a: BuildShip) -> list[Line]:
    who = t.who(a.player)
    if t.prior.prompt in _FREE:
        return [Line(LineKind.BUILD, msg("{who} builds a free ship", who=who))]
    if t.in_setup:
        return [Line(LineKind.SETUP, msg("{who} places a ship", who=who))]
    return [Line(LineKind.BUILD, msg("{who} builds a ship", who=who))]


def island_lines(t: Telling) -> list[Line]:
    """The Catan chits a settlement took, for the settlement's own log line to add."""
    return [
        Line(
            LineKind.BUILD,
            msg("{who} settles a new island: 2 victory points (§13.10)", who=t.who(e.player)),
        )
        for e in t.events
        if isinstance(e, IslandSettled)
    ]


RULES = (
    ActionRule(
        BuildShip,
        check_build_ship,
        do_build_ship,
        (PromptKind.SETUP_ROAD, PromptKind.TURN, PromptKind.FREE_ROAD, PromptKind.FREE_SHIP),
        msg("build a ship"),
        button=lambda g, a, names: msg("Build a ship at edge {edge}", edge=a.edge),
        told=ship_told,
        sea=True,
    ),
    ActionRule(
        MoveShip,
        check_move_ship,
        do_move_ship,
        (PromptKind.TURN,),
        msg("move a ship"),
        button=lambda g, a, names: msg(
            "Move the ship at edge {edge} to edge {to}", edge=a.edge, to=a.to
        ),
        told=lambda t, a: [Line(LineKind.BUILD, msg("{who} moves a ship", who=t.who(a.player)))],
        sea=True,
    ),
)
OPTIONS: dict[PromptKind, Options] = {}
STAGES: dict[Stage, Callable[[GameState], None]] = {}
PROMPTS: tuple[PromptRule, ...] = ()
