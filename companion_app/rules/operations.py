"""The shared operations of the rules, named for the game: what several mechanics do alike.

Paying and taking from the bank, placing a building, the road network (road spots, blocking,
the longest road), production, and the progress decks. Each is a function of the state; the
mechanic modules build their actions from these and never change the state's arrays behind
their back (the derived indexes in :class:`~state.GameState` stay right).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable

from companion_app.rules.cards import (
    CARD_KINDS,
    EMPTY_HAND,
    PROGRESS_HAND_LIMIT,
    TERRAIN_COMMODITY,
    TERRAIN_RESOURCE,
    Card,
    Hand,
    ProgressCard,
    Terrain,
    Track,
)
from companion_app.rules.events import Production, ProgressDrawn, Shortage
from companion_app.rules.pieces import CITY, LONGEST_ROAD_MIN, NOBODY
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.state import ALL_CARDS, GameState
from companion_app.rules.topology import EdgeKind, NodeKind

# ---- cards ----------------------------------------------------------------------------------


def pay(state: GameState, p: int, cost: Hand) -> None:
    """``p`` pays ``cost`` to the bank."""
    hand = state.hands[p]
    bank = state.bank
    for c, n in enumerate(cost):
        if n:
            hand[c] -= n
            bank[c] += n


def take_from_bank(state: GameState, p: int, card: int, n: int) -> int:
    """``p`` takes ``n`` of ``card`` from the bank, or what is left of them; how many."""
    n = min(n, state.bank[card])
    state.bank[card] -= n
    state.hands[p][card] += n
    return n


# ---- buildings and roads ----------------------------------------------------------------------


def place_building(state: GameState, p: int, node: int, level: int) -> None:
    """A settlement or city of ``p`` on ``node``; a harbour there updates the trade rates."""
    state.node_owner[node] = p
    state.node_level[node] = level
    insort(state.buildings_of[p], node)  # kept sorted: legal actions in id order
    if state.topology.node_harbour_slot[node] is not None:
        state.update_trade_rates(p)


def place_road(state: GameState, p: int, edge: int) -> None:
    state.edge_owner[edge] = p
    insort(state.roads_of[p], edge)
    state.road_ends_of[p] = None
    if state.topology.has_sea:
        trade_route_grown(state, p, edge)
    else:
        update_longest_road(state, (p,))


def remove_road(state: GameState, edge: int) -> None:
    owner = state.edge_owner[edge]
    state.edge_owner[edge] = NOBODY
    state.roads_of[owner].remove(edge)
    state.road_ends_of[owner] = None
    update_longest_road(state, (owner,))


def free_building_spot(state: GameState, node: int) -> bool:
    """Empty, no knight on it, and the distance rule holds (§2, base rules)."""
    owner = state.node_owner
    if owner[node] != NOBODY or state.knight_owner[node] != NOBODY:
        return False
    return all(owner[m] == NOBODY for m in state.topology.node_neighbours[node])


def blocks(state: GameState, player: int, node: int) -> bool:
    """An opponent's building or knight on ``node`` stops ``player``'s roads passing it."""
    owner = state.node_owner[node]
    if owner != NOBODY and owner != player:
        return True
    knight = state.knight_owner[node]
    return knight != NOBODY and knight != player


def road_spots(state: GameState, p: int) -> list[int]:
    """Empty edges connected to the player's network, in id order (§5, base rules)."""
    edge_owner = state.edge_owner
    seen: set[int] = set()
    spots: list[int] = []
    frontier: set[int] = set(state.buildings_of[p])
    node_edges, edge_nodes = state.topology.node_edges, state.topology.edge_nodes
    for e in state.roads_of[p]:
        for node in edge_nodes[e]:
            if not blocks(state, p, node):
                frontier.add(node)
    for node in frontier:
        for e in node_edges[node]:
            if edge_owner[e] == NOBODY and e not in seen:
                seen.add(e)
                spots.append(e)
    spots.sort()
    if state.topology.has_sea:  # roads never go to sea nor onto a ship (§13.2)
        kinds, ships = state.topology.edge_kinds, state.ship_owner
        spots = [e for e in spots if kinds[e] is not EdgeKind.SEA and ships[e] == NOBODY]
    return spots


def settlement_spots(state: GameState, p: int) -> list[int]:
    """Free intersections at an end of the player's roads (§5), or of their ships on land
    (§13.3 item 4)."""
    owner, knight, neighbours = state.node_owner, state.knight_owner, state.topology.node_neighbours
    ends = state.road_ends(p)
    if state.topology.has_sea and state.ships_of[p]:
        kinds = state.topology.node_kinds
        landed = {n for n in ship_ends(state, p) if kinds[n] is not NodeKind.SEA}
        ends = tuple(sorted(set(ends) | landed))
    return [
        n
        for n in ends
        if owner[n] == NOBODY  # free_building_spot, for a turn's every listing
        and knight[n] == NOBODY
        and all(owner[m] == NOBODY for m in neighbours[n])
    ]


def road_owners_at(state: GameState, node: int) -> set[int]:
    """The players with a road (or, on a sea board, a ship) ending on ``node``."""
    edges = state.topology.node_edges[node]
    owners = {state.edge_owner[e] for e in edges}
    if state.topology.has_sea:
        owners |= {state.ship_owner[e] for e in edges}
    return owners - {NOBODY}


def ship_ends(state: GameState, p: int) -> set[int]:
    """Intersections at an end of one of the player's ships (§13.3)."""
    edge_nodes = state.topology.edge_nodes
    return {node for e in state.ships_of[p] for node in edge_nodes[e]}


def has_ship_at(state: GameState, p: int, node: int) -> bool:
    """One of the player's ships ends on ``node``."""
    ships = state.ship_owner
    return any(ships[e] == p for e in state.topology.node_edges[node])


def longest_road(state: GameState, p: int) -> int:
    """Length of the player's longest road; opponents' buildings and knights break it. On a sea
    board the Longest Trade Route instead (§13.6)."""
    if state.topology.has_sea:
        return longest_trade_route(state, p)
    own = state.roads_of[p]
    if not own:
        return 0
    edge_nodes = state.topology.edge_nodes
    along: dict[int, list[tuple[int, int]]] = {}
    """Per intersection, its roads of the player: (the road's bit, the other end)."""
    for i, e in enumerate(own):
        a, b = edge_nodes[e]
        along.setdefault(a, []).append((1 << i, b))
        along.setdefault(b, []).append((1 << i, a))
    blocked = {node for node in along if blocks(state, p, node)}
    best = 0

    def walk(node: int, used: int, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        if length and node in blocked:
            return
        for bit, other in along[node]:
            if not used & bit:
                walk(other, used | bit, length + 1)

    for node in along:
        walk(node, 0, 0)
        if best == len(own):
            break
    return best


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

    for out in legs.values() if best < total else ():
        for bit, other, size, _, last in out:  # the first leg: any kind
            if size > best:
                best, best_legs = size, bit
            if best == total or (passes[other] and walk(other, bit, size, last)):
                break
        if best == total:
            break
    return best, _edges_of(best_legs, edges_of) if best_legs else path


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
        update_longest_road(state, (p,))
        return
    through = _longest_through(state, p, edge, path)
    if through is None:
        update_longest_road(state, (p,))
    elif through[0] > state.road_length[p]:
        state.road_length[p], state.route_paths[p] = through
        _award_longest_road(state)


def trade_route_ship_moved(state: GameState, p: int, lifted: int, placed: int) -> None:
    """``p``'s ship went from ``lifted`` to ``placed``: off the longest path measured last the
    route stands as long without it, and only the placed one may lengthen it. On that path,
    the route without it is no longer; a path with the placed ship as long is the longest."""
    path = state.route_paths[p]
    if path is None:
        update_longest_road(state, (p,))
    elif not path >> lifted & 1:
        trade_route_grown(state, p, placed)
    else:
        through = _longest_through(state, p, placed)
        if through is not None and through[0] >= state.road_length[p]:
            state.road_length[p], state.route_paths[p] = through
            _award_longest_road(state)
        elif through is not None:  # no path is longer than before: the search ends at one
            state.road_length[p], state.route_paths[p] = _trade_route(
                state, p, state.road_length[p]
            )
            _award_longest_road(state)
        else:
            update_longest_road(state, (p,))


def _longest_through(state: GameState, p: int, edge: int, kept: int = 0) -> tuple[int, int] | None:
    """The longest path of ``p`` with the piece on ``edge`` (its length and edges), when no
    path can go on past one end of it (one walk from the other end); else None. ``kept``: the
    path of ``route_paths``, standing without the piece: when it ends where the piece goes on
    from and may go on by it, the two are a path one longer, the longest (no walk)."""
    a, b = state.topology.edge_nodes[edge]
    ship = state.ship_owner[edge] == p
    if _goes_on(state, p, a, edge, ship):
        if _goes_on(state, p, b, edge, ship):
            return None
        a, b = b, a
    if kept and _ends_at(state, p, kept, b, ship):
        return state.road_length[p] + 1, kept | 1 << edge
    return _longest_from(state, p, b, 1 << edge, ship)


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
    node_edges, edge_nodes = state.topology.node_edges, state.topology.edge_nodes
    roads, ships = state.edge_owner, state.ship_owner
    owner, knight = state.node_owner, state.knight_owner
    best, best_used = 1, used
    most = state.road_length[p] + 1

    def walk(node: int, used: int, length: int, ship: bool) -> bool:
        """On from ``node``; True once a path ``most`` long is found (the search ends)."""
        nonlocal best, best_used
        here = owner[node]
        if (here != NOBODY and here != p) or knight[node] not in (NOBODY, p):
            return False
        switch = here == p
        length += 1
        for e in node_edges[node]:
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
            a, b = edge_nodes[e]
            if walk(b if a == node else a, used | bit, length, kind):
                return True
        return False

    if best < most:
        walk(start, used, 1, ship)
    return best, best_used


def update_longest_road(state: GameState, players: Iterable[int]) -> None:
    """Re-measure ``players``' roads and move the Longest Road card if it changes hands (§11).
    On a sea board the path measured is kept too (see :func:`trade_route_grown`)."""
    if state.topology.has_sea:
        for p in players:
            state.road_length[p], state.route_paths[p] = _trade_route(state, p)
    else:
        for p in players:
            state.road_length[p] = longest_road(state, p)
    _award_longest_road(state)


def _award_longest_road(state: GameState) -> None:
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


def roads_changed_at(state: GameState, *nodes: int, knight_of: int = NOBODY) -> None:
    """A knight came or went: roads through these intersections may be broken or mended.

    Only a player with two or more roads at one of them can be affected: a path may end at a
    blocked intersection and may start from one, so one road there measures the same either
    way. ``knight_of``: the owner of the one knight that came or went, whose own roads it never
    blocked nor blocks (their route is not measured again)."""
    owners: set[int] = set()
    edge_owner = state.edge_owner
    node_edges = state.topology.node_edges
    ships = state.ship_owner if state.topology.has_sea else None
    for node in nodes:
        seen: set[int] = set()
        for e in node_edges[node]:
            owner = edge_owner[e]
            if owner == NOBODY and ships is not None:
                owner = ships[e]
            if owner == NOBODY:
                continue
            if owner not in seen:
                seen.add(owner)
            elif owner != knight_of and (ships is None or not _route_stands(state, owner, node)):
                owners.add(owner)
    if owners:
        update_longest_road(state, owners)


def _route_stands(state: GameState, p: int, node: int) -> bool:
    """On a sea board, ``p``'s route measured last stands: ``node`` blocks the player now and
    the path kept does not pass it (a blocked intersection only takes paths away)."""
    path = state.route_paths[p]
    if path is None or not blocks(state, p, node):
        return False
    return sum(path >> e & 1 for e in state.topology.node_edges[node]) < 2


# ---- the robber and production (§4, §6) -------------------------------------------------------


def robber_targets(state: GameState) -> list[int]:
    """Every other land hex; a knight chases it to another hex with a number token (§6). The
    robber never goes to sea (§13.4: the sea has the pirate)."""
    tokens = state.tokens
    return [
        h
        for h in state.topology.land_hexes
        if h != state.robber_hex and (not state.robber_by_knight or tokens[h] is not None)
    ]


def produce(state: GameState, number: int) -> list[list[int]]:
    """Production for a non-7 roll with commodities, robber and bank shortage (§4); what it
    paid is recorded as a :class:`~events.Production` event."""
    n = state.player_count
    hexes = state.token_hexes[number]
    robber = state.robber_hex
    producing = [h for h in hexes if h != robber]
    owed = _owed(state, producing)
    gained = owed  # what each is paid: what it is owed, unless the bank runs short of a card
    bank, hands = state.bank, state.hands
    shortages: list[Shortage] = []
    takers_of = [(hands[p], row) for p, row in enumerate(owed) if any(row)]
    terrains = state.board.terrains
    yields = {c for h in producing for c in _YIELDS[terrains[h]] if c is not None}
    for c in sorted(yields):  # the cards these hexes can give, in card order
        total = 0
        for _, row in takers_of:
            total += row[c]
        if not total:
            continue
        in_bank = bank[c]
        if total <= in_bank:
            bank[c] = in_bank - total
            for hand, row in takers_of:
                hand[c] += row[c]
            continue
        if gained is owed:
            gained = [row[:] for row in owed]
        takers = [p for p in range(n) if owed[p][c]]
        for p in takers:
            gained[p][c] = 0
        if len(takers) == 1:  # a sole taker gets what is left, several get nothing (§4)
            gained[takers[0]][c] = take_from_bank(state, takers[0], c, owed[takers[0]][c])
        paid = sum(gained[p][c] for p in takers)
        shortages.append(Shortage(Card(c), total, paid, in_bank))
    paid_hands = tuple(map(tuple, gained))
    state.last_production = paid_hands
    if robber in hexes:
        robbed = tuple(tuple(r) for r in _owed(state, (robber,)))
    else:
        robbed = (EMPTY_HAND,) * n
    if shortages:
        missed = tuple(
            tuple(Card(c) for c in ALL_CARDS if gained[p][c] < owed[p][c]) for p in range(n)
        )
    else:
        missed = ((),) * n
    state.events.append(Production(number, paid_hands, robbed, missed, tuple(shortages)))
    return gained


_YIELDS: dict[Terrain, tuple[int, int | None]] = {
    terrain: (int(resource), None if commodity is None else int(commodity))
    for terrain, resource in TERRAIN_RESOURCE.items()
    if resource is not None
    for commodity in (TERRAIN_COMMODITY.get(terrain),)
}
"""Per producing terrain, its resource and its commodity (None: a city takes 2 resources), as
card indexes."""


def _owed(state: GameState, hexes: Iterable[int]) -> list[list[int]]:
    """What each player's buildings next to ``hexes`` produce, before the bank."""
    owed = [[0] * CARD_KINDS for _ in range(state.player_count)]
    terrains = state.board.terrains
    owner = state.node_owner
    level = state.node_level
    hex_nodes = state.topology.hex_nodes
    for h in hexes:
        resource, commodity = _YIELDS[terrains[h]]
        for node in hex_nodes[h]:
            p = owner[node]
            if p == NOBODY:
                continue
            row = owed[p]
            if level[node] != CITY:
                row[resource] += 1
            elif commodity is None:
                row[resource] += 2
            else:
                row[resource] += 1
                row[commodity] += 1
    return owed


# ---- the progress decks (§9) ------------------------------------------------------------------


def draw_progress(state: GameState, p: int, track: Track, queue_at: int) -> ProgressCard | None:
    """The top card of ``track``'s deck to ``p``; an empty deck gives nothing. A forced discard
    is queued at ``queue_at`` in ``state.pending``."""
    deck = state.decks[track.index]
    if not deck:
        return None
    card = deck.pop(0)
    receive_progress(state, p, card, queue_at)
    return card


def receive_progress(state: GameState, p: int, card: ProgressCard, queue_at: int) -> None:
    """A VP card is revealed at once; any other goes to the hand, and a 5th card outside the
    player's own turn is discarded at once (§9)."""
    state.events.append(ProgressDrawn(p, card))
    if card.is_vp:
        state.revealed_vp[p].append(card)
        return
    add_to_progress_hand(state.progress_hands[p], card)
    over = progress_over_limit(state, p)
    if over > 0 and p != state.active:
        state.pending.insert(queue_at, Prompt(PromptKind.PROGRESS_DISCARD, p, over))


def add_to_progress_hand(hand: list[ProgressCard], card: ProgressCard) -> None:
    hand.append(card)
    hand.sort(key=lambda c: c.order)


def under_deck(state: GameState, card: ProgressCard) -> None:
    """Played and discarded cards go face down under their deck (§9)."""
    state.decks[card.track.index].append(card)


def progress_over_limit(state: GameState, p: int) -> int:
    """Progress cards held beyond the limit of 4 (§9)."""
    return len(state.progress_hands[p]) - PROGRESS_HAND_LIMIT


def on_board(state: GameState, node: int) -> bool:
    """An intersection id that exists."""
    return 0 <= node < state.topology.node_count


def is_free(state: GameState, node: int) -> bool:
    """No building and no knight on ``node``."""
    return state.node_owner[node] == NOBODY and state.knight_owner[node] == NOBODY
