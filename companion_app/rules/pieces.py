"""Piece supplies and the codes the board arrays use (§1)."""

from __future__ import annotations

from companion_app.rules.messages import Msg, pmsg

NOBODY = -1

# node_level codes
SETTLEMENT = 1
CITY = 2
DESTROYED_CITY = 3
"""A city the barbarians took when no settlement piece was left (§7.4): it counts and produces
as a settlement and must be rebuilt before any other city."""
LEVEL_NAMES = {SETTLEMENT: "settlement", CITY: "city", DESTROYED_CITY: "destroyed_city"}

SETTLEMENTS_PER_PLAYER = 5
CITIES_PER_PLAYER = 4
ROADS_PER_PLAYER = 15
SHIPS_PER_PLAYER = 15
"""Seafarers' ships (§13.1)."""
WALLS_PER_PLAYER = 3
KNIGHTS_PER_LEVEL = 2
MAX_KNIGHT_LEVEL = 3
KNIGHT_NAMES: dict[int, Msg] = {
    1: pmsg("knight", "basic"),
    2: pmsg("knight", "strong"),
    3: pmsg("knight", "mighty"),
}
"""A knight's level by name at the table."""

# knight_flags bits: what a knight did this turn (cleared at the end of every turn)
ACTIVATED = 1
ACTED = 2
PROMOTED = 4

LONGEST_ROAD_MIN = 5
DISCARD_LIMIT = 7
DISCARD_LIMIT_PER_WALL = 2
