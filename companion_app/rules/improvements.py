"""City walls, city improvements and metropolises (§5, §9), and the Aqueduct (§4).

The improvement tracks give the abilities at level 3 (Merchant Guild's 2:1 commodity trade,
Fortress, Aqueduct) and a metropolis from level 4.
"""

from __future__ import annotations

from companion_app.rules import operations as ops
from companion_app.rules import turnflow
from companion_app.rules.actions import (
    Action,
    BuildCityWall,
    BuyImprovement,
    PlaceMetropolis,
    TakeResource,
)
from companion_app.rules.cards import (
    ABILITY_LEVEL,
    COSTS,
    MAX_IMPROVEMENT_LEVEL,
    METROPOLIS_LEVEL,
    RESOURCES,
    TRACKS,
    Build,
    Track,
    improvement_cost,
)
from companion_app.rules.declare import ActionRule, Options, PromptRule
from companion_app.rules.pieces import CITY, NOBODY, WALLS_PER_PLAYER
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.state import GameState
from companion_app.rules.words import Line, LineKind, Telling, place_words

SCIENCE = Track.SCIENCE.index

# ---- city walls -----------------------------------------------------------------------------


def wall_actions(game: GameState, p: int) -> list[Action]:
    if not game.affords(p, COSTS[Build.CITY_WALL]) or game.walls_of(p) >= WALLS_PER_PLAYER:
        return []
    return [BuildCityWall(p, n) for n in sorted(game.cities_of(p)) if not game.walls[n]]


def wall_reason(game: GameState, p: int, node: int, *, wall: str = "a city wall") -> str | None:
    """Why ``p`` cannot put a wall under ``node``, price aside (§5; the Engineer, §10)."""
    if not ops.on_board(game, node) or game.node_owner[node] != p or game.node_level[node] != CITY:
        return f"{wall} goes under one of your cities"
    if game.walls[node]:
        return "this city already has a wall"
    if game.walls_of(p) >= WALLS_PER_PLAYER:
        return f"at most {WALLS_PER_PLAYER} city walls per player"
    return None


def check_wall(game: GameState, a: BuildCityWall) -> str | None:
    reason = wall_reason(game, a.player, a.node)
    if reason:
        return reason
    if not game.affords(a.player, COSTS[Build.CITY_WALL]):
        return "a city wall costs 2 brick (§5)"
    return None


def do_wall(game: GameState, a: BuildCityWall) -> None:
    ops.pay(game, a.player, COSTS[Build.CITY_WALL])
    game.walls[a.node] = True


# ---- city improvements and metropolises (§9) ------------------------------------------------


def cities_without_metropolis(game: GameState, p: int) -> list[int]:
    """The player's standing cities without a metropolis: those that could carry one (§9), and
    those the barbarians can take (§7.4)."""
    return sorted(n for n in game.cities_of(p) if n not in game.metropolis)


def improvement_reason(game: GameState, p: int, track: Track, *, discount: int = 0) -> str | None:
    """Why ``p`` cannot buy the next level now; ``discount`` commodities less (Crane, §10)."""
    t = track.index
    level = game.improvements[p][t] + 1
    if level > MAX_IMPROVEMENT_LEVEL:
        return f"the {track.value} track is complete"
    if not game.cities_of(p):
        return "city improvements need a city on the board (§9)"
    if (
        level >= METROPOLIS_LEVEL
        and game.metropolis_owner(t) != p
        and not cities_without_metropolis(game, p)
    ):
        return f"level {level} needs a city that could carry the metropolis (§9)"
    if not game.affords(p, improvement_cost(track, max(level - discount, 0))):
        price = max(level - discount, 0)
        return f"level {level} of {track.value} costs {price} {track.commodity.label} (§5)"
    return None


_TRACK_COMMODITIES = tuple((track, track.index, track.commodity) for track in TRACKS)


def improvement_actions(game: GameState, p: int) -> list[Action]:
    """The levels the player can buy now. A track whose next level the hand cannot pay (or that
    is complete) is passed over before the full check: most turns, every track."""
    hand = game.hands[p]
    levels = game.improvements[p]
    actions: list[Action] = []
    for track, t, commodity in _TRACK_COMMODITIES:
        level = levels[t] + 1
        if level > MAX_IMPROVEMENT_LEVEL or hand[commodity] < level:
            continue
        if improvement_reason(game, p, track) is None:
            actions.append(BuyImprovement(p, track))
    return actions


def check_improvement(game: GameState, a: BuyImprovement) -> str | None:
    return improvement_reason(game, a.player, a.track)


def do_improvement(game: GameState, a: BuyImprovement) -> None:
    buy_improvement(game, a.player, a.track)


def buy_improvement(game: GameState, p: int, track: Track, *, discount: int = 0) -> None:
    """The next level, paid ``discount`` commodities less; a metropolis may follow (§9)."""
    t = track.index
    level = game.improvements[p][t] + 1
    ops.pay(game, p, improvement_cost(track, max(level - discount, 0)))
    game.improvements[p][t] = level
    game.update_trade_rates(p)
    holder = game.metropolis_owner(t)
    if holder == p or level < METROPOLIS_LEVEL:
        return
    if holder == NOBODY or (level == MAX_IMPROVEMENT_LEVEL and game.improvements[holder][t] < 5):
        game.metropolis[t] = NOBODY
        game.pending.append(Prompt(PromptKind.PLACE_METROPOLIS, p, track=track.value))
        turnflow.next_prompt(game)


def check_place_metropolis(game: GameState, a: PlaceMetropolis) -> str | None:
    if a.node not in cities_without_metropolis(game, a.player):
        return f"a metropolis goes on one of your cities without one; {a.node} is not"
    return None


def do_place_metropolis(game: GameState, a: PlaceMetropolis) -> None:
    track = Track(game.prompt.track)
    game.metropolis[track.index] = a.node
    turnflow.pending_done(game)


def metropolis_options(game: GameState, p: int) -> list[Action]:
    return [PlaceMetropolis(p, n) for n in cities_without_metropolis(game, p)]


# ---- Aqueduct (§4) ------------------------------------------------------------------------


def queue_aqueduct(game: GameState, gained: list[list[int]]) -> None:
    """Players with the Aqueduct who got nothing from a production roll take a resource."""
    if not any(game.bank[c] for c in RESOURCES):
        return
    for p in game.seat_order():
        if game.improvements[p][SCIENCE] >= ABILITY_LEVEL and not any(gained[p]):
            game.pending.append(Prompt(PromptKind.AQUEDUCT, p))


def aqueduct_options(game: GameState, p: int) -> list[Action]:
    return [TakeResource(p, c) for c in RESOURCES if game.bank[c]]


def check_take_resource(game: GameState, a: TakeResource) -> str | None:
    if not a.card.is_resource:
        return "the Aqueduct gives a resource, not a commodity (§4)"
    if not game.bank[a.card]:
        return f"the bank has no {a.card.label} left"
    return None


def do_take_resource(game: GameState, a: TakeResource) -> None:
    ops.take_from_bank(game, a.player, a.card, 1)
    turnflow.pending_done(game)


# ---- words: the buttons and the log ------------------------------------------------------------


def _built_told(
    t: Telling, a: BuildCityWall | PlaceMetropolis, kind: LineKind, what: str
) -> list[Line]:
    return [Line(kind, f"{t.who(a.player)} {what} {place_words(t.game, a.node)}")]


def improvement_told(t: Telling, a: BuyImprovement) -> list[Line]:
    reached = t.game.improvements[a.player][a.track.index]
    text = f"{t.who(a.player)} improves {a.track.value} to level {reached}"
    return [Line(LineKind.IMPROVEMENT, text)]


RULES = (
    ActionRule(
        BuildCityWall,
        check_wall,
        do_wall,
        (PromptKind.TURN, PromptKind.SPECIAL_BUILD),
        "build a city wall",
        button=lambda g, a, names: f"Build a city wall at node {a.node}",
        told=lambda t, a: _built_told(t, a, LineKind.BUILD, "builds a city wall"),
    ),
    ActionRule(
        BuyImprovement,
        check_improvement,
        do_improvement,
        (PromptKind.TURN, PromptKind.SPECIAL_BUILD),
        "buy a city improvement",
        button=lambda g, a, names: f"Improve {a.track.value}",
        told=improvement_told,
    ),
    ActionRule(
        PlaceMetropolis,
        check_place_metropolis,
        do_place_metropolis,
        (PromptKind.PLACE_METROPOLIS,),
        "place the metropolis",
        button=lambda g, a, names: f"Place the metropolis at node {a.node}",
        told=lambda t, a: _built_told(t, a, LineKind.IMPROVEMENT, "places a metropolis"),
    ),
    ActionRule(
        TakeResource,
        check_take_resource,
        do_take_resource,
        (PromptKind.AQUEDUCT,),
        "take a resource (Aqueduct)",
        button=lambda g, a, names: f"Take 1 {a.card.label}",
        told=lambda t, a: [
            Line(LineKind.PRODUCTION, f"{t.who(a.player)} takes 1 {a.card.label} (Aqueduct)")
        ],
    ),
)
OPTIONS: dict[PromptKind, Options] = {
    PromptKind.PLACE_METROPOLIS: metropolis_options,
    PromptKind.AQUEDUCT: aqueduct_options,
}
PROMPTS = (
    PromptRule(PromptKind.PLACE_METROPOLIS, "place the metropolis on one of your cities"),
    PromptRule(PromptKind.AQUEDUCT, "Aqueduct: take a resource of your choice"),
)
