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
from companion_app.rules.pieces import CITY, NOBODY
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.state import ALL_CARDS, BOARD_MARKS, GameState
from companion_app.rules.topology import NodeKind
from companion_app.rules.traderoute import (
    award_longest_road,
    blocks,
    longest_trade_route,
    measure_routes,
    route_stands,
    trade_route_grown,
    trade_route_lost,
)

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
    state.board_mark = next(BOARD_MARKS)
    insort(state.buildings_of[p], node)  # kept sorted: legal actions in id order
    if state.topology.node_harbour_slot[node] is not None:
        state.update_trade_rates(p)


def place_road(state: GameState, p: int, edge: int) -> None:
    state.edge_owner[edge] = p
    state.board_mark = next(BOARD_MARKS)
    insort(state.roads_of[p], edge)
    state.road_ends_of[p] = None
    if state.topology.has_sea:
        trade_route_grown(state, p, edge)
    else:
        update_longest_road(state, (p,))


def remove_road(state: GameState, edge: int) -> None:
    owner = state.edge_owner[edge]
    state.edge_owner[edge] = NOBODY
    state.board_mark = next(BOARD_MARKS)
    state.roads_of[owner].remove(edge)
    state.road_ends_of[owner] = None
    if state.topology.has_sea:
        trade_route_lost(state, owner, edge)
    else:
        update_longest_road(state, (owner,))


def free_building_spot(state: GameState, node: int) -> bool:
    """Empty, no knight on it, and the distance rule holds (§2, base rules)."""
    owner = state.node_owner
    if owner[node] != NOBODY or state.knight_owner[node] != NOBODY:
        return False
    return all(owner[m] == NOBODY for m in state.topology.node_neighbours[node])


def road_spots(state: GameState, p: int) -> list[int]:
    """Empty edges connected to the player's network, in id order (§5, base rules)."""
    edge_owner = state.edge_owner
    seen: set[int] = set()
    spots: list[int] = []
    frontier: set[int] = set(state.buildings_of[p])
    node_edges, edge_nodes = state.topology.node_road_edges, state.topology.edge_nodes
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
    if state.topology.has_sea:  # roads never go to sea (node_road_edges) nor onto a ship (§13.2)
        ships = state.ship_owner
        spots = [e for e in spots if ships[e] == NOBODY]
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


def update_longest_road(state: GameState, players: Iterable[int]) -> None:
    """Re-measure ``players``' roads and move the Longest Road card if it changes hands (§11).
    On a sea board the Longest Trade Route (:func:`traderoute.measure_routes`)."""
    if state.topology.has_sea:
        measure_routes(state, players)
        return
    for p in players:
        state.road_length[p] = longest_road(state, p)
    award_longest_road(state)


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
            elif owner != knight_of and (ships is None or not route_stands(state, owner, node)):
                owners.add(owner)
    if owners:
        update_longest_road(state, owners)


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
