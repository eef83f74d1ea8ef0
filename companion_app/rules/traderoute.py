"""The Longest Trade Route (§13.6, R24) on a sea board: the longest path of a player's roads and
ships, measured anew or, after one piece came or went, from the path measured last
(``state.route_paths``), and the Longest Road card that goes with it (§11).
"""

from __future__ import annotations

from collections.abc import Iterable

from companion_app.rules.pieces import LONGEST_ROAD_MIN, NOBODY
from companion_app.rules.state import GameState


def blocks(state: GameState, player: int, node: int) -> bool:
    """An opponent's building or knight on ``node`` stops ``player``'s roads passing it."""
    owner = state.node_owner[node]
    if owner != NOBODY and owner != player:
        return True
    knight = state.knight_owner[node]
    return knight != NOBODY and knight != player


def measure_routes(state: GameState, players: Iterable[int]) -> None:
    """Measure ``players``' trade routes anew, keeping the paths measured, and move the Longest
    Road card if it changes hands (§11)."""
    for p in players:
        state.road_length[p], state.route_paths[p] = _trade_route(state, p)
        state.route_cores[p] = NOBODY
    award_longest_road(state)


def award_longest_road(state: GameState) -> None:
    """The Longest Road card to the one longest of at least 5, kept on a tie (§11)."""
    lengths = state.road_length
    best = max(lengths)
    holder = state.longest_road_holder
    if holder != NOBODY and lengths[holder] >= LONGEST_ROAD_MIN and lengths[holder] == best:
        return
    if best >= LONGEST_ROAD_MIN and lengths.count(best) == 1:
        state.longest_road_holder = lengths.index(best)
    else:
        state.longest_road_holder = NOBODY


Along = dict[int, list[tuple[int, int, bool]]]
"""Per intersection, the player's pieces there: (the edge, the other end, a ship)."""
Legs = dict[int, list[tuple[int, int, int, bool, bool]]]
"""Per end of legs, its legs: (the leg's bit, the far end, its pieces, first and last a ship)."""


def longest_trade_route(state: GameState, p: int) -> int:
    """The longest single path of the player's roads and ships (§13.6): it changes from a road
    to a ship (or back) only at the player's own settlement or city, not at their knight (R24);
    an opponent's building or knight splits it. A path may pass an intersection twice, never a
    piece."""
    return _trade_route(state, p)[0]


def _trade_route(state: GameState, p: int, most: int | None = None) -> tuple[int, int]:
    """:func:`longest_trade_route`, and the edges of one such path (a bit per edge id); with
    ``most``, known to be no longer than that, and the search ends at a path that long.

    Searched on the network with its *through* intersections (two pieces, not blocked, a path
    may pass from one to the other) folded into the legs between the others: a longest path
    starts and ends at those others (or is a whole ring of through ones), so it is a chain of
    whole legs."""
    roads, ships = state.roads_of[p], state.ships_of[p]
    total = pieces = len(roads) + len(ships)
    if not total:
        return 0, 0
    if most is not None and most < total:
        total = most  # no path is longer: one that long ends the search
    along = _pieces_along(state, roads, ships)
    passes, joins, through = _route_ends(state, p, along)
    legs, edges_of, walked = _legs(along, passes, through)
    best, path = _longest_ring(along, through, walked) if len(walked) < pieces else (0, 0)
    best_legs = 0

    def walk(node: int, used: int, length: int, ship: bool) -> bool:
        """On from ``node``, come by a ship or a road, ``used`` legs taken; True once a path
        ``total`` long is found (the search ends)."""
        nonlocal best, best_legs
        switch = node in joins
        for bit, other, size, first, last in legs[node]:
            if used & bit or (first is not ship and not switch):
                continue
            if length + size > best:
                best, best_legs = length + size, used | bit
                if best == total:
                    return True
            if passes[other] and walk(other, used | bit, length + size, last):
                return True
        return False

    for node, out in legs.items() if best < total else ():
        ended = _to_dead_ends(out, passes, node in joins) if passes[node] else ()
        for bit, other, size, first, last in out:  # the first leg: any kind
            if first in ended:  # a path from here is part of one from the dead end
                continue
            if size > best:
                best, best_legs = size, bit
            if best == total or (passes[other] and walk(other, bit, size, last)):
                break
        if best == total:
            break
    return best, _edges_of(best_legs, edges_of) if best_legs else path


def _to_dead_ends(
    out: list[tuple[int, int, int, bool, bool]], passes: dict[int, bool], switch: bool
) -> tuple[bool, ...]:
    """The kinds (a ship) of the legs from an intersection a path may pass that a path beginning
    there by one of them never needs to take first: a leg of that kind (any kind where the
    player's building lets the path change) goes to an end no path passes. A path from there
    that leaves that leg aside is one longer with it first, from its far end; one that takes it
    later, turned round, begins at its far end: either is searched from there."""
    kinds = tuple({first for _, other, _, first, _ in out if not passes[other]})
    if kinds and switch:
        return (False, True)
    return kinds


def _edges_of(legs: int, edges_of: list[int]) -> int:
    """The edges of ``legs`` (a bit per leg) as a bit per edge id."""
    path = 0
    for i, edges in enumerate(edges_of):
        if legs >> i & 1:
            path |= edges
    return path


def _pieces_along(state: GameState, roads: list[int], ships: list[int]) -> Along:
    edge_nodes = state.topology.edge_nodes
    along: Along = {}
    for ship, own in ((False, roads), (True, ships)):
        for e in own:
            a, b = edge_nodes[e]
            there = along.get(a)
            if there is None:
                along[a] = [(e, b, ship)]
            else:
                there.append((e, b, ship))
            there = along.get(b)
            if there is None:
                along[b] = [(e, a, ship)]
            else:
                there.append((e, a, ship))
    return along


def _route_ends(
    state: GameState, p: int, along: Along
) -> tuple[dict[int, bool], set[int], set[int]]:
    """The intersections legs end at, each with whether a path goes on from there (another
    piece, no opponent's piece); the player's buildings among them; the through ones."""
    owner, knight = state.node_owner, state.knight_owner
    passes: dict[int, bool] = {}
    joins: set[int] = set()
    through: set[int] = set()
    for node, there in along.items():
        if len(there) == 1:
            passes[node] = False
        elif owner[node] == p:
            joins.add(node)
            if len(there) == 2:
                through.add(node)
            else:
                passes[node] = True
        elif owner[node] != NOBODY or knight[node] not in (NOBODY, p):
            passes[node] = False
        elif len(there) == 2 and there[0][2] is there[1][2]:
            through.add(node)
        else:
            passes[node] = True
    return passes, joins, through


def _legs(
    along: Along, passes: dict[int, bool], through: set[int]
) -> tuple[Legs, list[int], set[int]]:
    """The legs between the ends, each a bit of its own; per leg its edges (a bit per edge
    id); the edges they hold."""
    legs: Legs = {node: [] for node in passes}
    edges_of: list[int] = []
    walked: set[int] = set()
    bit = 1
    for node in passes:
        for e, other, first in along[node]:
            if e in walked:
                continue
            walked.add(e)
            length, last, edges = 1, first, 1 << e
            while other in through:
                there = along[other]
                e, other, last = there[1] if there[0][0] == e else there[0]
                walked.add(e)
                length += 1
                edges |= 1 << e
            legs[node].append((bit, other, length, first, last))
            legs[other].append((bit, node, length, last, first))
            edges_of.append(edges)
            bit <<= 1
    return legs, edges_of, walked


def _longest_ring(along: Along, through: set[int], walked: set[int]) -> tuple[int, int]:
    """The largest ring of through intersections only (the edges no leg holds): each is a
    path of all its pieces. Its length and edges."""
    best = path = 0
    for node in through:
        e, other, _ = along[node][0]
        if e in walked:
            continue
        walked.add(e)
        length, edges = 1, 1 << e
        while other != node:
            there = along[other]
            e, other, _ = there[1] if there[0][0] == e else there[0]
            walked.add(e)
            length += 1
            edges |= 1 << e
        if length > best:
            best, path = length, edges
    return best, path


def trade_route_grown(state: GameState, p: int, edge: int) -> None:
    """``p``'s road or ship just came on ``edge`` of a sea board, the route measured last
    standing without it (nothing else of the player's network changed, or only a ship lifted
    off that path): a longer route uses the new piece. When no path can go on past one end of
    it, that is one walk from its other end; else the whole network is measured again."""
    path = state.route_paths[p]
    if path is None:
        measure_routes(state, (p,))
        return
    # With a core piece known, the walk tells whether a path as long takes the new piece: if
    # none does, the core stays known.
    through = _longest_through(state, p, edge, path, judged=state.route_cores[p] == NOBODY)
    if through is None:
        measure_routes(state, (p,))
    elif through[0] > state.road_length[p]:  # every path that long holds the new piece
        state.road_length[p], state.route_paths[p] = through
        state.route_cores[p] = edge
        award_longest_road(state)
    elif through[0] == state.road_length[p] or not through[0]:
        state.route_cores[p] = NOBODY  # one as long (or maybe) may not hold the core piece


def trade_route_ship_moved(state: GameState, p: int, lifted: int, placed: int) -> None:
    """``p``'s ship went from ``lifted`` to ``placed``: off the longest path measured last the
    route stands as long without it, and only the placed one may lengthen it. On that path,
    the route without it is no longer; a path with the placed ship as long is the longest."""
    path = state.route_paths[p]
    if path is None:
        measure_routes(state, (p,))
    elif not path >> lifted & 1:
        trade_route_grown(state, p, placed)
    else:
        rest, end = _rest_of(state, path, lifted)
        through = _longest_through(state, p, placed, rest, end)
        # The core piece lifted: every path as long held it, so without it none is; the path
        # kept, which ends with it, one shorter is the longest.
        cored = state.route_cores[p] == lifted
        state.route_cores[p] = NOBODY
        if through is not None and through[0] >= state.road_length[p]:
            if cored or through[0] > state.road_length[p]:  # none as long without it
                state.route_cores[p] = placed
            state.road_length[p], state.route_paths[p] = through
            award_longest_road(state)
        elif through is not None and cored:
            state.road_length[p] -= 1
            state.route_paths[p] = path & ~(1 << lifted)
            award_longest_road(state)
        elif through is not None and rest and (again := _on_by_another(state, p, rest, end)):
            state.route_paths[p] = again  # as long as before: no longer one, see below
        elif through is not None:  # no path is longer than before: the search ends at one
            state.road_length[p], state.route_paths[p] = _trade_route(
                state, p, state.road_length[p]
            )
            award_longest_road(state)
        else:
            measure_routes(state, (p,))


def trade_route_lost(state: GameState, p: int, edge: int) -> None:
    """``p``'s road or ship just left ``edge`` of a sea board (the Diplomat): off the path
    measured last the route stands; on it, no path is longer than before (the search ends at
    one that long)."""
    path = state.route_paths[p]
    if path is None:
        measure_routes(state, (p,))
        return
    if path >> edge & 1:
        state.road_length[p], state.route_paths[p] = _trade_route(state, p, state.road_length[p])
        state.route_cores[p] = NOBODY
    award_longest_road(state)


def trade_routes_settled(state: GameState, p: int, node: int) -> None:
    """``p`` built a settlement on ``node`` of a sea board: their route may now change there
    from roads to ships (measured again when both meet there), and other players' routes
    through it are split (§13.6): as for a knight, only those with two pieces there whose path
    measured last passes it."""
    roads, ships = state.edge_owner, state.ship_owner
    pieces: list[tuple[int, bool]] = []  # per road or ship there: its owner, a ship
    for e in state.topology.node_edges[node]:
        if roads[e] != NOBODY:
            pieces.append((roads[e], False))
        elif ships[e] != NOBODY:
            pieces.append((ships[e], True))
    measured = set()
    if state.route_paths[p] is None or ((p, False) in pieces and (p, True) in pieces):
        measured.add(p)
    owners = [q for q, _ in pieces]
    for q in owners:
        if (
            q != p
            and q not in measured
            and owners.count(q) >= 2
            and not route_stands(state, q, node)
        ):
            measured.add(q)
    measure_routes(state, measured)


def _longest_through(
    state: GameState, p: int, edge: int, kept: int = 0, end: int = NOBODY, judged: bool = True
) -> tuple[int, int] | None:
    """The longest path of ``p`` with the piece on ``edge`` (its length and edges), when no
    path can go on past one end of it (one walk from the other end); else None. ``kept``: the
    path of ``route_paths``, standing without the piece: when it ends where the piece goes on
    from and may go on by it, the two are a path one longer, the longest (no walk). ``end``:
    ``kept`` is that path without the ship at its end that just moved to ``edge``, and only its
    end where that ship was counts (see :func:`_rest_of`). (0, 0): no path with the piece is
    longer than the longest without it (:func:`_no_longer`, no walk), only when ``judged``."""
    a, b = state.topology.edge_nodes[edge]
    ship = state.ship_owner[edge] == p
    if _goes_on(state, p, a, edge, ship):
        if _goes_on(state, p, b, edge, ship):
            return None
        a, b = b, a
    if kept and end in (NOBODY, b) and _ends_at(state, p, kept, b, ship):
        return kept.bit_count() + 1, kept | 1 << edge
    if judged and _no_longer(state, p, edge, b, ship):
        return 0, 0
    return _longest_from(state, p, b, 1 << edge, ship)


def _no_longer(state: GameState, p: int, edge: int, node: int, ship: bool) -> bool:
    """No path with the new piece on ``edge``, going on past ``node``, is longer than the
    longest of the player's network without it, found with no walk: two pieces there may take
    it on, and along one of them the intersections that may pass a path on, each by one piece,
    lead to one with one or three such pieces there (or an opponent's piece, or the end).

    A path as long as that longest, on from ``node``, that left one of the two aside would be a
    piece longer with it, so it takes both and comes back to where it began; the longest, it
    takes every piece at each intersection it passes (one left would lengthen it), so each of
    them joins an even number of them, which that one does not."""
    if blocks(state, p, node):
        return False
    on = _ways_on(state, p, node, edge, NOBODY, ship)
    if len(on) != 2:
        return False
    e, ship = on[0]
    edge_nodes = state.topology.edge_nodes
    at = node
    for _ in range(len(state.roads_of[p]) + len(state.ships_of[p])):
        a, b = edge_nodes[e]
        at = b if a == at else a
        if at == node:
            return False  # a ring of them all: walked
        if blocks(state, p, at):
            return True
        on = _ways_on(state, p, at, e, edge, ship)
        if len(on) != 1:
            return True
        e, ship = on[0]
    return False


def _ways_on(
    state: GameState, p: int, node: int, edge: int, new: int, ship: bool
) -> list[tuple[int, bool]]:
    """The pieces of ``p`` (edge, a ship) a path along ``edge`` (a ship or a road) may go on by
    at ``node``, the piece on ``new`` left out."""
    switch = state.node_owner[node] == p
    roads, ships = state.edge_owner, state.ship_owner
    on: list[tuple[int, bool]] = []
    for e in state.topology.node_edges[node]:
        if e in (edge, new):
            continue
        if roads[e] == p and (switch or not ship):
            on.append((e, False))
        elif ships[e] == p and (switch or ship):
            on.append((e, True))
    return on


def _rest_of(state: GameState, path: int, lifted: int) -> tuple[int, int]:
    """When the ship lifted off ``lifted`` was the piece at one end of ``path`` (nothing else of
    it at that end): the rest of the path and the intersection it now ends on, where the ship
    was joined; else nothing (0, NOBODY).

    A ship placed at that intersection and going on nowhere else makes, with the rest, a path
    as long as the route was, and none longer: a path through it is one ending there that the
    lifted ship could have gone on from too (both ships, the same intersection), so no longer
    than the route without it."""
    node_edges = state.topology.node_edges
    rest = path & ~(1 << lifted)
    a, b = state.topology.edge_nodes[lifted]
    at_a = any(rest >> e & 1 for e in node_edges[a])
    at_b = any(rest >> e & 1 for e in node_edges[b])
    if at_a is at_b:
        return 0, NOBODY
    return rest, a if at_a else b


def _on_by_another(state: GameState, p: int, rest: int, node: int) -> int:
    """``rest`` (edge bits), the kept path without the ship that was its piece at ``node``,
    with another piece of ``p`` there that it may go on by (of its kind, or any at the player's
    settlement or city, §13.6): a path as long as the kept one. Else 0."""
    edges = state.topology.node_edges[node]
    on = [e for e in edges if rest >> e & 1]
    if len(on) != 1 or blocks(state, p, node):
        return 0
    roads, ships = state.edge_owner, state.ship_owner
    switch = state.node_owner[node] == p
    ship = ships[on[0]] == p
    for e in edges:
        if e != on[0] and (
            (roads[e] == p and (switch or not ship)) or (ships[e] == p and (switch or ship))
        ):
            return rest | 1 << e
    return 0


def _ends_at(state: GameState, p: int, path: int, node: int, ship: bool) -> bool:
    """``path`` (edge bits) ends on ``node`` and may go on from there by a ship (``ship``) or a
    road: one of its pieces touches the intersection, no opponent's piece stands there, and
    the piece is of that kind or the player's building lets the path change (§13.6)."""
    on = [e for e in state.topology.node_edges[node] if path >> e & 1]
    if len(on) != 1 or blocks(state, p, node):
        return False
    return (state.ship_owner[on[0]] == p) is ship or state.node_owner[node] == p


def _goes_on(state: GameState, p: int, node: int, edge: int, ship: bool) -> bool:
    """A path of ``p`` along ``edge`` (a ship or a road) may go on past ``node``."""
    if blocks(state, p, node):
        return False
    switch = state.node_owner[node] == p
    roads, ships = state.edge_owner, state.ship_owner
    for e in state.topology.node_edges[node]:
        if e != edge and (
            (roads[e] == p and (switch or not ship)) or (ships[e] == p and (switch or ship))
        ):
            return True
    return False


def _longest_from(state: GameState, p: int, start: int, used: int, ship: bool) -> tuple[int, int]:
    """The longest path of ``p`` that is the piece ``used`` (its edge's bit; a ship or a road)
    ending on ``start`` and then goes on from there: its length and edges. Without that piece
    the route was ``road_length`` at most, so one path a piece longer ends the search."""
    links = state.topology.node_links
    roads, ships = state.edge_owner, state.ship_owner
    owner, knight = state.node_owner, state.knight_owner
    best, best_used = 1, used
    most = state.road_length[p] + 1

    def walk(node: int, used: int, length: int, ship: bool) -> bool:
        """On from ``node``; True once a path ``most`` long is found (the search ends)."""
        nonlocal best, best_used
        here = owner[node]
        if here != NOBODY and here != p:
            return False
        there = knight[node]
        if there != NOBODY and there != p:
            return False
        switch = here == p
        length += 1
        for e, other in links[node]:
            if roads[e] == p:
                kind = False
            elif ships[e] == p:
                kind = True
            else:
                continue
            bit = 1 << e
            if used & bit or (kind is not ship and not switch):
                continue
            if length > best:
                best, best_used = length, used | bit
                if length == most:
                    return True
            if walk(other, used | bit, length, kind):
                return True
        return False

    if best < most:
        walk(start, used, 1, ship)
    return best, best_used


def route_stands(state: GameState, p: int, node: int) -> bool:
    """On a sea board, ``p``'s route measured last stands: ``node`` blocks the player now and
    the path kept does not pass it (a blocked intersection only takes paths away)."""
    path = state.route_paths[p]
    if path is None or not blocks(state, p, node):
        return False
    return sum(path >> e & 1 for e in state.topology.node_edges[node]) < 2
