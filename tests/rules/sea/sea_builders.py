"""Game states on the 4-player New Shores map for worked examples of the sea rules (§13)."""

from __future__ import annotations

from typing import Any

from companion_app.rules.cards import CARD_KINDS, Card, Hand, bank_start
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.operations import update_longest_road
from companion_app.rules.seamap import NEW_SHORES_4

MAP = NEW_SHORES_4
T = MAP.topology


def hex_at(x: int, y: int) -> int:
    """The hex id of printed map cell (x, y) (§13.11)."""
    return MAP.cells[(x, y)]


def corner(h: int, i: int) -> int:
    """Corner ``i`` (0 the top one, clockwise) of hex ``h``."""
    return T.hex_nodes[h][i]


def side(h: int, i: int) -> int:
    """Side ``i`` of hex ``h``: from corner ``i`` to corner ``i + 1``."""
    nodes = T.hex_nodes[h]
    return T.edge_between[(nodes[i], nodes[(i + 1) % 6])]


def edge(a: int, b: int) -> int:
    return T.edge_between[(a, b)]


# The worked examples' place: the sea hex (6, 4) between the main island's pasture 9 (5, 4) to
# the west and the north-east island's gold 10 (7, 4) to the east.
SEA = hex_at(6, 4)
SHORE = corner(SEA, 5)
"""A coastal intersection of the main island (pasture 9, two sea hexes)."""
ISLE_TOP = corner(SEA, 0)
"""On the north-east island's forest 9 (6, 3), one edge out to sea from SHORE."""
ISLE = corner(SEA, 1)
"""On the north-east island's forest 9 and gold 10: two ship edges from SHORE."""
NE_ISLAND = T.hex_island[hex_at(7, 4)]


def sea_game(
    *,
    buildings: dict[int, tuple[int, str]] | None = None,
    roads: dict[int, int] | None = None,
    ships: dict[int, int] | None = None,
    knights: dict[int, int] | None = None,
    hands: dict[int, Hand] | None = None,
    prompt: str = "turn",
    count: int = 0,
    active: int = 0,
    pirate: int | None = None,
    placed: tuple[int, ...] = (),
    moved: bool = False,
    islands: dict[int, tuple[int, ...]] | None = None,
    defender_cards: dict[int, int] | None = None,
    vp_target: int | None = None,
) -> Game:
    """A 4-player New Shores game after setup with exactly these pieces, waiting for
    ``prompt`` of ``active``. ``knights`` are active basic knights; ``pirate`` a cell (the
    robber then counts as unlocked: the pirate moves only after the first attack, R7)."""
    extra: dict[str, Any] = {} if vp_target is None else {"vp_target": vp_target}
    config = GameConfig.for_players(4, scenario="new_shores", seed=1, **extra)
    state: dict[str, Any] = Game.new(config).to_json()
    n = 4
    names = [c.label for c in Card]
    held = [[0] * CARD_KINDS for _ in range(n)]
    for p, hand in (hands or {}).items():
        held[p] = list(hand)
    start = bank_start(n)
    state["hands"] = [dict(zip(names, h, strict=True)) for h in held]
    bank = [start[c] - sum(h[c] for h in held) for c in range(CARD_KINDS)]
    state["bank"] = dict(zip(names, bank, strict=True))
    state["buildings"] = [
        {"node": node, "player": p, "kind": kind} for node, (p, kind) in (buildings or {}).items()
    ]
    state["roads"] = [{"edge": e, "player": p} for e, p in (roads or {}).items()]
    state["ships"] = [{"edge": e, "player": p} for e, p in (ships or {}).items()]
    state["knights"] = [
        {"node": node, "player": p, "level": 1, "active": True, "flags": 0}
        for node, p in (knights or {}).items()
    ]
    state["setup_step"] = 4 * n
    state["active"] = active
    state["turn"] = 8
    shown: dict[str, Any] = {"kind": prompt, "player": active}
    if count:
        shown["count"] = count
        state["pending"] = [shown]
    state["prompt"] = shown
    state["rolled"] = prompt != "roll"
    if pirate is not None:
        state["pirate"] = pirate
        state["robber_unlocked"] = True
    state["ships_placed"] = list(placed)
    state["ship_moved"] = moved
    state["islands_settled"] = [list((islands or {}).get(p, ())) for p in range(n)]
    state["defender_cards"] = [(defender_cards or {}).get(p, 0) for p in range(n)]
    game = Game.from_json(state)
    update_longest_road(game, range(n))
    return game
