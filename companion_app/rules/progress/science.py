"""The science deck (green, §10): each card declared whole, and the Smith's follow-up."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from companion_app.rules import improvements, knights
from companion_app.rules import operations as ops
from companion_app.rules.actions import (
    Action,
    PlayAlchemist,
    PlayCrane,
    PlayEngineer,
    PlayInventor,
    PlayMedicine,
    PlayProgress,
    PromoteKnight,
    StopEffect,
    reused,
)
from companion_app.rules.cards import (
    MAX_IMPROVEMENT_LEVEL,
    TERRAIN_RESOURCE,
    TRACKS,
    Hand,
    ProgressCard,
    Terrain,
    Track,
    hand_of,
)
from companion_app.rules.declare import Options, PromptRule
from companion_app.rules.events import CardsMoved
from companion_app.rules.messages import Msg, Nn_, msg
from companion_app.rules.pieces import CITY, NOBODY
from companion_app.rules.progress.shared import (
    STOP_FOLLOW_UP,
    CardRule,
    Stop,
    at_spot,
    plain_play,
)
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.state import GameState
from companion_app.rules.words import Telling, place_words

DECK = Track.SCIENCE
MEDICINE_COST: Hand = hand_of(ore=2, grain=1)
"""Medicine: a city for 2 ore + 1 grain (§10)."""
INVENTOR_FORBIDDEN = frozenset({2, 12, 6, 8})
"""Tokens the Inventor never moves (§10)."""
FREE_ROADS = 2
SMITH_PROMOTIONS = 2
HARVEST_PER_HEX = 2
"""Irrigation and Mining: 2 grain / ore per fields / mountains hex next to one's buildings."""


# ---- Alchemist ----------------------------------------------------------------------------------


def dice_reason(yellow: int, red: int) -> Msg | None:
    """Production dice outside 1-6 (a roll, or the Alchemist's choice)."""
    if not (1 <= yellow <= 6 and 1 <= red <= 6):
        return msg("dice show 1-6, got yellow {yellow} and red {red}", yellow=yellow, red=red)
    return None


def alchemist_reason(game: GameState, a: PlayAlchemist) -> Msg | None:
    reason = dice_reason(a.yellow, a.red)
    if reason:
        return reason
    if game.alchemist is not None:
        return msg("an Alchemist already fixed this roll's dice")
    return None


def alchemist_plays(game: GameState, p: int) -> list[Action]:
    """Before the roll: the 36 choices of the production dice, if the player holds one."""
    if ProgressCard.ALCHEMIST not in game.progress_hands[p] or game.alchemist is not None:
        return []
    return [PlayAlchemist(p, y, r) for y in range(1, 7) for r in range(1, 7)]


def do_alchemist(game: GameState, a: PlayAlchemist) -> None:
    game.alchemist = (a.yellow, a.red)


ALCHEMIST = CardRule(
    ProgressCard.ALCHEMIST,
    DECK,
    2,
    PlayAlchemist,
    candidates=alchemist_plays,
    check=alchemist_reason,
    effect=do_alchemist,
    summary=msg("Alchemist: choose the production dice"),
    button=lambda g, a, names: msg(
        "Alchemist: yellow {yellow}, red {red}", yellow=a.yellow, red=a.red
    ),
    what=lambda t, a: msg(": yellow {yellow}, red {red}", yellow=a.yellow, red=a.red),
    before_roll=True,
)


# ---- Crane, Engineer, Inventor, Medicine --------------------------------------------------------


_CRANE = reused(PlayCrane)


def crane_reason(game: GameState, a: PlayCrane) -> Msg | None:
    return improvements.improvement_reason(game, a.player, a.track, discount=1)


def do_crane(game: GameState, a: PlayCrane) -> None:
    improvements.buy_improvement(game, a.player, a.track, discount=1)


def crane_what(t: Telling, a: PlayCrane) -> Msg | None:
    return msg(
        ": {track} to level {index}",
        track=a.track.words,
        index=t.game.improvements[a.player][a.track.index],
    )


CRANE = CardRule(
    ProgressCard.CRANE,
    DECK,
    2,
    PlayCrane,
    candidates=lambda g, p: [
        _CRANE(p, t)
        for t in TRACKS
        if g.improvements[p][t.index] < MAX_IMPROVEMENT_LEVEL
        and g.hands[p][t.commodity] >= g.improvements[p][t.index]
    ],
    check=crane_reason,
    effect=do_crane,
    summary=msg("Crane: a city improvement one commodity cheaper"),
    button=lambda g, a, names: msg("Crane: improve {track}", track=a.track.words),
    what=crane_what,
)


_ENGINEER_WALL = msg("the Engineer's wall")


def engineer_reason(game: GameState, a: PlayEngineer) -> Msg | None:
    return improvements.wall_reason(game, a.player, a.node, wall=_ENGINEER_WALL)


def do_engineer(game: GameState, a: PlayEngineer) -> None:
    game.walls[a.node] = True


_ENGINEER_SUMMARY = msg("Engineer: a free city wall")
_ENGINEER = reused(PlayEngineer)
ENGINEER = CardRule(
    ProgressCard.ENGINEER,
    DECK,
    1,
    PlayEngineer,
    candidates=lambda g, p: [
        _ENGINEER(p, n) for n in g.buildings_of[p] if g.node_level[n] == CITY and not g.walls[n]
    ],
    check=engineer_reason,
    effect=do_engineer,
    summary=_ENGINEER_SUMMARY,
    button=at_spot(_ENGINEER_SUMMARY, "node", "node"),
    what=lambda t, a: msg(" {place}", place=place_words(t.game, a.node)),
)


def inventor_candidates(game: GameState, p: int) -> list[Action]:
    movable = [
        h for h, t in enumerate(game.tokens) if t is not None and t not in INVENTOR_FORBIDDEN
    ]
    return list(_inventor_plays(p, tuple(movable)))


@lru_cache(maxsize=64)
def _inventor_plays(p: int, movable: tuple[int, ...]) -> tuple[Action, ...]:
    """The swaps of ``movable`` hexes, kept for the turns that list them again."""
    return tuple(PlayInventor(p, a, b) for a, b in combinations(movable, 2))


def inventor_reason(game: GameState, a: PlayInventor) -> Msg | None:
    if not 0 <= a.hex < a.other < game.topology.hex_count:
        return msg("name two different hexes, the lower id first")
    for h in (a.hex, a.other):
        token = game.tokens[h]
        if token is None:
            return msg("hex {hex} has no number token", hex=h)
        if token in INVENTOR_FORBIDDEN:
            return msg("the Inventor never moves a {token} (nor 2, 12, 6 or 8, §10)", token=token)
    return None


def do_inventor(game: GameState, a: PlayInventor) -> None:
    tokens = game.tokens
    tokens[a.hex], tokens[a.other] = tokens[a.other], tokens[a.hex]
    game.index_tokens()


INVENTOR = CardRule(
    ProgressCard.INVENTOR,
    DECK,
    2,
    PlayInventor,
    candidates=inventor_candidates,
    check=inventor_reason,
    plays=inventor_candidates,  # every swap of two movable tokens passes the check
    effect=do_inventor,
    summary=msg("Inventor: swap two number tokens"),
    button=lambda g, a, names: msg(
        "Inventor: swap the tokens of hexes {hex} and {other}", hex=a.hex, other=a.other
    ),
    what=lambda t, a: msg(
        ": swaps the numbers of hex {hex} and hex {other}", hex=a.hex, other=a.other
    ),
)


def medicine_reason(game: GameState, a: PlayMedicine) -> Msg | None:
    reason = game.city_upgrade_reason(a.player, a.node)
    if reason:
        return reason
    if not game.affords(a.player, MEDICINE_COST):
        return msg("Medicine: the city costs 2 ore + 1 grain (§10)")
    return None


def do_medicine(game: GameState, a: PlayMedicine) -> None:
    ops.pay(game, a.player, MEDICINE_COST)
    game.node_level[a.node] = CITY


_MEDICINE_SUMMARY = msg("Medicine: a city for 2 ore + 1 grain")
_MEDICINE = reused(PlayMedicine)
MEDICINE = CardRule(
    ProgressCard.MEDICINE,
    DECK,
    2,
    PlayMedicine,
    candidates=lambda g, p: (
        [_MEDICINE(p, n) for n in g.buildings_of[p] if g.node_level[n] != CITY]
        if g.affords(p, MEDICINE_COST)
        else []
    ),
    check=medicine_reason,
    effect=do_medicine,
    summary=_MEDICINE_SUMMARY,
    button=at_spot(_MEDICINE_SUMMARY, "node", "node"),
    what=lambda t, a: msg(" {place}", place=place_words(t.game, a.node)),
)


# ---- Irrigation, Mining -------------------------------------------------------------------------


def harvest(game: GameState, p: int, terrain: Terrain) -> None:
    """Irrigation / Mining: 2 per hex of ``terrain`` next to the player's buildings, as far
    as the bank has them."""
    hexes = {h for node in game.buildings_of[p] for h in game.topology.node_hexes[node]}
    count = sum(1 for h in hexes if game.board.terrains[h] is terrain)
    card = TERRAIN_RESOURCE[terrain]
    assert card is not None
    got = ops.take_from_bank(game, p, card, HARVEST_PER_HEX * count)
    if got:
        game.events.append(CardsMoved(NOBODY, p, card.amount(got)))


IRRIGATION = CardRule(
    ProgressCard.IRRIGATION,
    DECK,
    2,
    PlayProgress,
    candidates=plain_play(ProgressCard.IRRIGATION),
    effect=lambda g, a: harvest(g, a.player, Terrain.FIELDS),
)
MINING = CardRule(
    ProgressCard.MINING,
    DECK,
    2,
    PlayProgress,
    candidates=plain_play(ProgressCard.MINING),
    effect=lambda g, a: harvest(g, a.player, Terrain.MOUNTAINS),
)


# ---- Printer, Road Building, Smith --------------------------------------------------------------

PRINTER = CardRule(ProgressCard.PRINTER, DECK, 1, None)
ROAD_BUILDING = CardRule(
    ProgressCard.ROAD_BUILDING,
    DECK,
    2,
    PlayProgress,
    candidates=plain_play(ProgressCard.ROAD_BUILDING),
    effect=lambda g, a: g.pending.append(Prompt(PromptKind.FREE_ROAD, a.player, FREE_ROADS)),
)
SMITH = CardRule(
    ProgressCard.SMITH,
    DECK,
    2,
    PlayProgress,
    candidates=plain_play(ProgressCard.SMITH),
    effect=lambda g, a: g.pending.append(Prompt(PromptKind.SMITH, a.player, SMITH_PROMOTIONS)),
)


def smith_options(game: GameState, p: int) -> list[Action]:
    knights_now = sorted(game.knights_of[p])
    promos: list[Action] = [
        PromoteKnight(p, n) for n in knights_now if knights.promotion_reason(game, p, n) is None
    ]
    return [*promos, StopEffect(p)]


CARDS = (
    ALCHEMIST,
    CRANE,
    ENGINEER,
    INVENTOR,
    IRRIGATION,
    MEDICINE,
    MINING,
    PRINTER,
    ROAD_BUILDING,
    SMITH,
)
RULES = ()
OPTIONS: dict[PromptKind, Options] = {PromptKind.SMITH: smith_options}
STOPS: dict[PromptKind, Stop] = {PromptKind.SMITH: STOP_FOLLOW_UP}
PROMPTS = (
    PromptRule(
        PromptKind.SMITH,
        Nn_(
            "Smith: promote up to {count} knight free, or stop",
            "Smith: promote up to {count} knights free, or stop",
        ),
    ),
)
