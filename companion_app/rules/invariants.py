"""Invariants every reachable game state satisfies; checked after each action in tests and by
``random-game --check``.

Developer words: a broken invariant is a bug, named for the engineer.
"""

from __future__ import annotations

from collections import Counter

from companion_app.rules import knights
from companion_app.rules import operations as ops
from companion_app.rules.cards import (
    CARD_KINDS,
    LARGE_GAME_PLAYERS,
    PROGRESS_CARD_TOTAL,
    PROGRESS_HAND_LIMIT,
    TRACKS,
    Card,
    ProgressCard,
    bank_start,
)
from companion_app.rules.game import Game
from companion_app.rules.pieces import (
    CITIES_PER_PLAYER,
    CITY,
    DESTROYED_CITY,
    KNIGHTS_PER_LEVEL,
    NOBODY,
    ROADS_PER_PLAYER,
    SETTLEMENT,
    SETTLEMENTS_PER_PLAYER,
    SHIPS_PER_PLAYER,
    WALLS_PER_PLAYER,
)
from companion_app.rules.prompts import Prompt, PromptKind, Stage
from companion_app.rules.topology import EdgeKind, NodeKind


def violations(game: Game) -> list[str]:  # noqa: C901, PLR0912, PLR0915 - a checklist of independent invariants
    """Every broken invariant, in words; empty when the state is sound."""
    problems: list[str] = []
    n = game.player_count
    start = bank_start(n)
    for c in range(CARD_KINDS):
        held = sum(game.hands[p][c] for p in range(n))
        if game.bank[c] < 0 or any(game.hands[p][c] < 0 for p in range(n)):
            problems.append(f"negative count of {Card(c).label}")
        if game.bank[c] + held != start[c]:
            problems.append(
                f"{Card(c).label} not conserved: bank {game.bank[c]} + hands {held} != {start[c]}"
            )
    for p in range(n):
        levels = [
            game.node_level[x] for x in range(game.topology.node_count) if game.node_owner[x] == p
        ]
        settlements = levels.count(SETTLEMENT)
        cities = levels.count(CITY)
        destroyed = levels.count(DESTROYED_CITY)
        roads = sum(1 for owner in game.edge_owner if owner == p)
        if settlements > SETTLEMENTS_PER_PLAYER or cities + destroyed > CITIES_PER_PLAYER:
            problems.append(f"player {p} has {settlements} settlements and {cities} cities")
        if roads > ROADS_PER_PLAYER:
            problems.append(f"player {p} has {roads} roads")
        if sorted(game.roads_of[p]) != sorted(
            e for e, owner in enumerate(game.edge_owner) if owner == p
        ):
            problems.append(f"player {p}'s road index disagrees with the board")
        knights = [x for x in range(game.topology.node_count) if game.knight_owner[x] == p]
        if sorted(game.knights_of[p]) != knights:
            problems.append(f"player {p}'s knight index disagrees with the board")
        for level in (1, 2, 3):
            count = sum(1 for x in knights if game.knight_level[x] == level)
            if count > KNIGHTS_PER_LEVEL:
                problems.append(f"player {p} has {count} knights of level {level}")
        walls = [
            x for x in range(game.topology.node_count) if game.walls[x] and game.node_owner[x] == p
        ]
        if len(walls) > WALLS_PER_PLAYER:
            problems.append(f"player {p} has {len(walls)} city walls")
        metropolises = sum(1 for x in game.metropolis if x != NOBODY and game.node_owner[x] == p)
        recomputed = (
            settlements
            + destroyed
            + 2 * cities
            + 2 * metropolises
            + game.defender_cards[p]
            + (2 if game.longest_road_holder == p else 0)
            + sum(1 for c in game.revealed_vp[p] if c.is_vp)
            + (1 if game.merchant_owner == p else 0)
            + 2 * len(game.islands_settled[p])
        )
        if game.victory_points(p) != recomputed:
            problems.append(f"player {p} VP {game.victory_points(p)} != recomputed {recomputed}")
        breakdown = game.victory_point_breakdown(p)
        if breakdown.total != game.victory_points(p):
            problems.append(f"player {p} VP breakdown {breakdown} does not sum to the VP")
        if (breakdown.settlements, breakdown.cities) != (settlements + destroyed, cities):
            problems.append(f"player {p} VP breakdown counts the buildings wrong: {breakdown}")
        if game.road_length[p] != game.longest_road(p):
            problems.append(f"player {p} road length is stale")
    holder = game.longest_road_holder
    if holder != NOBODY:
        if game.road_length[holder] < 5 or game.road_length[holder] != max(game.road_length):
            problems.append(f"longest road held by {holder} with {game.road_length[holder]}")
    elif max(game.road_length) >= 5 and game.road_length.count(max(game.road_length)) == 1:
        problems.append("a single longest road of 5+ has no holder")
    for node in range(game.topology.node_count):
        if game.walls[node] and game.node_level[node] != CITY:
            problems.append(f"a city wall on intersection {node} stands under no city")
        if game.knight_owner[node] != NOBODY and game.node_owner[node] != NOBODY:
            problems.append(f"a knight and a building share intersection {node}")
        if game.node_owner[node] == NOBODY:
            continue
        for m in game.topology.node_neighbours[node]:
            if game.node_owner[m] != NOBODY:
                problems.append(f"distance rule broken between intersections {node} and {m}")
    carriers = [x for x in game.metropolis if x != NOBODY]
    if len(set(carriers)) != len(carriers):
        problems.append("one city carries two metropolises")
    for track, node in enumerate(game.metropolis):
        if node == NOBODY:
            continue
        owner = game.node_owner[node]
        if owner == NOBODY or game.node_level[node] != CITY:
            problems.append(f"metropolis of track {track} stands on no city")
        elif game.improvements[owner][track] < 4:
            problems.append(f"metropolis of track {track} held below level 4")
    attack = game.last_attack
    if (attack is None) != (game.barbarian_attacks == 0) or (
        attack is not None and attack.number != game.barbarian_attacks
    ):
        problems.append(f"last attack {attack} disagrees with {game.barbarian_attacks} attacks")
    # Evil barbarians: the ship waits at the end while the knights are committed (§3, §7).
    end = game.config.barbarian_track_length - (0 if game.stage is Stage.COMMIT else 1)
    if not 0 <= game.barbarian_position <= end:
        problems.append(f"barbarian ship at {game.barbarian_position}, off the track")
    for e, owner in enumerate(game.edge_owner):
        if owner == NOBODY:
            continue
        if not any(_road_attached(game, owner, e, node) for node in game.topology.edge_nodes[e]):
            problems.append(f"road on edge {e} of player {owner} is not connected")
    problems.extend(_progress_problems(game))
    problems.extend(_island_problems(game))
    problems.extend(_sea_problems(game))
    problems.extend(_special_build_problems(game))
    return problems


def _island_problems(game: Game) -> list[str]:
    """Every array sized by the game's own island (§12: 19 or 30 hexes), the robber on it, and
    on its starting desert until the first attack (§8)."""
    island = game.topology
    problems: list[str] = []
    if island is not game.board.topology:
        problems.append("the game's topology is not its board's")
    node_arrays = (
        game.node_owner,
        game.node_level,
        game.knight_owner,
        game.knight_level,
        game.knight_active,
        game.knight_flags,
        game.walls,
    )
    if any(len(a) != island.node_count for a in node_arrays):
        problems.append(f"an intersection array is not {island.node_count} long")
    if len(game.edge_owner) != island.edge_count or len(game.tokens) != island.hex_count:
        problems.append(f"the roads or tokens do not fit the {island.hex_count}-hex island")
    if not 0 <= game.robber_hex < island.hex_count:
        problems.append(f"the robber is on hex {game.robber_hex}, off the island")
    elif not game.robber_unlocked and game.robber_hex != game.board.desert_hex:
        problems.append("the robber left its desert before the first attack")
    return problems


def _sea_problems(game: Game) -> list[str]:
    """On a sea board (§13): the robber on land, the pirate at sea and on its start until the
    first attack (R7), no road at sea, no building on a sea intersection; on an island no
    pirate."""
    topology = game.topology
    prompts = [game.prompt, *game.pending]
    if not topology.has_sea:
        if any(q.kind in _SEA_PROMPTS for q in prompts):
            return ["a pirate or gold prompt in an island's game"]
        return [] if game.pirate_cell == NOBODY else ["a pirate on an island's game"]
    problems = _gold_and_pirate_prompt_problems(game, prompts) + _knight_link_problems(game)
    if topology.hex_island[game.robber_hex] is None:
        problems.append(f"the robber is on sea hex {game.robber_hex}")
    sea = game.board.frame.sea_map
    assert sea is not None
    if game.pirate_cell not in topology.sea_cells:
        problems.append(f"the pirate is on cell {game.pirate_cell}, not at sea")
    elif not game.robber_unlocked and game.pirate_cell != sea.pirate_start:
        problems.append("the pirate left its start before the first attack")
    kinds = topology.edge_kinds
    for e, owner in enumerate(game.edge_owner):
        if owner != NOBODY and kinds[e] is EdgeKind.SEA:
            problems.append(f"a road on sea edge {e}")
    for node, owner in enumerate(game.node_owner):
        if owner != NOBODY and topology.node_kinds[node] is NodeKind.SEA:
            problems.append(f"a building on sea intersection {node}")
    problems.extend(_ship_problems(game))
    return problems


def _ship_problems(game: Game) -> list[str]:
    """Ships (§13.3): 15 at most, on coast and sea edges without a road, each joined at one end
    to its owner's building or another of their ships; this turn's ships are ships; the island
    chits match the settlements and cities standing on small islands (R23: kept even if they
    fall, so at least those)."""
    topology = game.topology
    problems: list[str] = []
    for p in range(game.player_count):
        own = [e for e, owner in enumerate(game.ship_owner) if owner == p]
        if game.ships_of[p] != own:
            problems.append(f"player {p}'s ship index disagrees with the board")
        if len(own) > SHIPS_PER_PLAYER:
            problems.append(f"player {p} has {len(own)} ships")
        for e in own:
            if topology.edge_kinds[e] is EdgeKind.LAND or game.edge_owner[e] != NOBODY:
                problems.append(f"a ship on edge {e}, inland or on a road")
            if not any(
                game.node_owner[node] == p
                or any(f != e and game.ship_owner[f] == p for f in topology.node_edges[node])
                for node in topology.edge_nodes[e]
            ):
                problems.append(f"ship on edge {e} of player {p} is not joined")
        islands = {topology.node_island[node] for node in game.buildings_of[p]} - {None, 0}
        if not islands <= set(game.islands_settled[p]):
            problems.append(f"player {p} stands on islands {islands} without their chits")
    if any(game.ship_owner[e] == NOBODY for e in game.ships_placed) or len(
        set(game.ships_placed)
    ) != len(game.ships_placed):
        problems.append(f"the ships placed this turn {game.ships_placed} are no ships")
    return problems


_SEA_PROMPTS = (PromptKind.GOLD, PromptKind.MOVE_PIRATE, PromptKind.MOVE_ROBBER_OR_PIRATE)


def _gold_and_pirate_prompt_problems(game: Game, prompts: list[Prompt]) -> list[str]:
    """Gold choices counted and waited for by their stage (or a starting city's, R21); the
    pirate moved only after the first attack (§13.4, §13.5, R7)."""
    problems: list[str] = []
    gold = [q for q in prompts if q.kind is PromptKind.GOLD]
    if any(q.count < 1 for q in gold):
        problems.append("a gold choice of no card")
    if gold and game.stage is not Stage.GOLD and game.setup_step >= 4 * game.player_count:
        problems.append("gold choices outside the gold stage")
    if game.stage is Stage.GOLD and not gold:
        problems.append("the gold stage with no choice to make")
    moving = game.prompt.kind in (PromptKind.MOVE_PIRATE, PromptKind.MOVE_ROBBER_OR_PIRATE)
    if moving and not game.robber_unlocked:
        problems.append("the pirate moves before the first attack")
    return problems


def _knight_link_problems(game: Game) -> list[str]:
    """Every knight linked to a building of its owner through their roads and ships; a knight
    at sea stands on its owner's ship (§13.7 items 3 and 6)."""
    problems: list[str] = []
    kinds = game.topology.node_kinds
    for p in range(game.player_count):
        for node in game.knights_of[p]:
            if not knights.is_linked(game, p, node):
                problems.append(f"player {p}'s knight on {node} has no link to a building")
            if kinds[node] is NodeKind.SEA and not ops.has_ship_at(game, p, node):
                problems.append(f"player {p}'s knight on sea intersection {node} is on no ship")
    return problems


_PHASE_PROMPTS = (PromptKind.WHO_BUILDS, PromptKind.SPECIAL_BUILD)


def _special_build_problems(game: Game) -> list[str]:
    """The special build phase only with 5-6 players, between two turns, its prompt answered by
    the right seat, nobody winning in it (§12)."""
    phase = game.special_build
    kind = game.prompt.kind
    if phase is None:
        return (
            [f"a {kind.value} prompt outside the special build phase"]
            if kind in _PHASE_PROMPTS
            else []
        )
    problems: list[str] = []
    if game.player_count < LARGE_GAME_PLAYERS:
        problems.append(f"a special build phase with {game.player_count} players")
    if game.active != game.next_seat(phase.after) or game.rolled:
        problems.append("the special build phase is not between a turn and the next one's roll")
    if game.winner != NOBODY:
        problems.append("somebody won during the special build phase")
    if phase.building and phase.builder in (NOBODY, phase.after):
        problems.append(f"seat {phase.builder} special-builds after its own turn")
    expected = (
        (PromptKind.SPECIAL_BUILD, phase.builder)
        if phase.building
        else (PromptKind.WHO_BUILDS, game.active)
    )
    if not game.pending and (kind, game.prompt.player) != expected:
        problems.append(f"the special build phase shows {kind.value} to seat {game.prompt.player}")
    return problems


def _progress_problems(game: Game) -> list[str]:
    """54 progress cards conserved, each deck's cards where they belong, VP cards counted
    once (revealed, never in a hand), hand limits outside the own turn, the merchant (§9-§11)."""
    problems: list[str] = []
    everywhere: Counter[ProgressCard] = Counter()
    for t in TRACKS:
        deck = game.decks[t.index]
        everywhere.update(deck)
        if any(c.track is not t for c in deck):
            problems.append(f"a card of another colour sits in the {t.value} deck")
    for p in range(game.player_count):
        everywhere.update(game.progress_hands[p])
        everywhere.update(game.revealed_vp[p])
        if any(c.is_vp for c in game.progress_hands[p]):
            problems.append(f"player {p} holds a VP card unrevealed")
        if any(not c.is_vp for c in game.revealed_vp[p]):
            problems.append(f"player {p} has a non-VP card among the revealed")
        waiting = any(q.kind.value == "progress_discard" and q.player == p for q in game.pending)
        if p != game.active and len(game.progress_hands[p]) > PROGRESS_HAND_LIMIT and not waiting:
            problems.append(f"player {p} holds {len(game.progress_hands[p])} progress cards")
    total = sum(everywhere.values())
    if total != PROGRESS_CARD_TOTAL:
        problems.append(f"{total} progress cards in play, not {PROGRESS_CARD_TOTAL}")
    for card in ProgressCard:
        if everywhere[card] != card.count:
            problems.append(f"{everywhere[card]} {card.title} cards, not {card.count}")
    if (game.merchant_hex == NOBODY) != (game.merchant_owner == NOBODY):
        problems.append("the merchant has a hex without an owner or the reverse")
    return problems


def _road_attached(game: Game, owner: int, edge: int, node: int) -> bool:
    if game.node_owner[node] == owner:
        return True
    return any(f != edge and game.edge_owner[f] == owner for f in game.topology.node_edges[node])
