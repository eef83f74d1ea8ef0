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
from companion_app.rules.messages import N_, Msg, msg
from companion_app.rules.pieces import CITY, NOBODY, WALLS_PER_PLAYER
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.state import GameState, holds, needs_of
from companion_app.rules.words import Line, LineKind, Telling, place_words

SCIENCE = Track.SCIENCE.index

# ---- city walls -----------------------------------------------------------------------------


_WALL_NEEDS = needs_of(COSTS[Build.CITY_WALL])


def wall_actions(game: GameState, p: int) -> list[Action]:
    if not holds(game.hands[p], _WALL_NEEDS) or game.walls_of(p) >= WALLS_PER_PLAYER:
        return []
    return [BuildCityWall(p, n) for n in sorted(game.cities_of(p)) if not game.walls[n]]


def wall_reason(game: GameState, p: int, node: int, *, wall: Msg | None = None) -> Msg | None:
    """Why ``p`` cannot put a wall under ``node``, price aside (§5; the Engineer, §10)."""
    if not ops.on_board(game, node) or game.node_owner[node] != p or game.node_level[node] != CITY:
        return msg("{wall} goes under one of your cities", wall=wall or msg("a city wall"))
    if game.walls[node]:
        return msg("this city already has a wall")
    if game.walls_of(p) >= WALLS_PER_PLAYER:
        return msg("at most {count} city walls per player", count=WALLS_PER_PLAYER)
    return None


def check_wall(game: GameState, a: BuildCityWall) -> Msg | None:
    reason = wall_reason(game, a.player, a.node)
    if reason:
        return reason
    if not game.affords(a.player, COSTS[Build.CITY_WALL]):
        return msg("a city wall costs 2 brick (§5)")
    return None


def do_wall(game: GameState, a: BuildCityWall) -> None:
    ops.pay(game, a.player, COSTS[Build.CITY_WALL])
    game.walls[a.node] = True


# ---- city improvements and metropolises (§9) ------------------------------------------------


def cities_without_metropolis(game: GameState, p: int) -> list[int]:
    """The player's standing cities without a metropolis: those that could carry one (§9), and
    those the barbarians can take (§7.4)."""
    return sorted(n for n in game.cities_of(p) if n not in game.metropolis)


_NEEDS_A_CITY = msg("city improvements need a city on the board (§9)")
"""Made once: the listing of a turn asks it of a player whose cities the barbarians took."""


def improvement_reason(game: GameState, p: int, track: Track, *, discount: int = 0) -> Msg | None:
    """Why ``p`` cannot buy the next level now; ``discount`` commodities less (Crane, §10)."""
    t = track.index
    level = game.improvements[p][t] + 1
    if level > MAX_IMPROVEMENT_LEVEL:
        return msg("the {track} track is complete", track=track.words)
    if not game.cities_of(p):
        return _NEEDS_A_CITY
    if (
        level >= METROPOLIS_LEVEL
        and game.metropolis_owner(t) != p
        and not cities_without_metropolis(game, p)
    ):
        return msg("level {level} needs a city that could carry the metropolis (§9)", level=level)
    if not game.affords(p, improvement_cost(track, max(level - discount, 0))):
        price = max(level - discount, 0)
        return msg(
            "level {level} of {track} costs {price} (§5)",
            level=level,
            track=track.words,
            price=track.commodity.counted(price),
        )
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


def check_improvement(game: GameState, a: BuyImprovement) -> Msg | None:
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


def check_place_metropolis(game: GameState, a: PlaceMetropolis) -> Msg | None:
    if a.node not in cities_without_metropolis(game, a.player):
        return msg(
            "a metropolis goes on one of your cities without one; {node} is not", node=a.node
        )
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
    if all(levels[SCIENCE] < ABILITY_LEVEL for levels in game.improvements):
        return
    if not any(game.bank[c] for c in RESOURCES):
        return
    for p in game.seat_order():
        if game.improvements[p][SCIENCE] >= ABILITY_LEVEL and not any(gained[p]):
            game.pending.append(Prompt(PromptKind.AQUEDUCT, p))


def aqueduct_options(game: GameState, p: int) -> list[Action]:
    return [TakeResource(p, c) for c in RESOURCES if game.bank[c]]


def check_take_resource(game: GameState, a: TakeResource) -> Msg | None:
    if not a.card.is_resource:
        return msg("the Aqueduct gives a resource, not a commodity (§4)")
    if not game.bank[a.card]:
        return msg("the bank has no {card} left", card=a.card.words)
    return None


def do_take_resource(game: GameState, a: TakeResource) -> None:
    ops.take_from_bank(game, a.player, a.card, 1)
    if not any(game.bank[c] for c in RESOURCES):
        # The last resource is taken: the Aqueducts still waiting have nothing to give (§4).
        waiting = game.pending[1:]
        game.pending[1:] = [q for q in waiting if q.kind is not PromptKind.AQUEDUCT]
    turnflow.pending_done(game)


# ---- words: the buttons and the log ------------------------------------------------------------


def _built_told(
    t: Telling, a: BuildCityWall | PlaceMetropolis, kind: LineKind, words: str
) -> list[Line]:
    """``words``: a message id reading ``{player}`` and ``{place}``."""
    place = place_words(t.game, a.node)
    return [Line(kind, Msg(words, (("player", t.who(a.player)), ("place", place))))]


def improvement_told(t: Telling, a: BuyImprovement) -> list[Line]:
    reached = t.game.improvements[a.player][a.track.index]
    text = msg(
        "{player} improves {track} to level {reached}",
        player=t.who(a.player),
        track=a.track.words,
        reached=reached,
    )
    return [Line(LineKind.IMPROVEMENT, text)]


RULES = (
    ActionRule(
        BuildCityWall,
        check_wall,
        do_wall,
        (PromptKind.TURN, PromptKind.SPECIAL_BUILD),
        msg("build a city wall"),
        button=lambda g, a, names: msg("Build a city wall at node {node}", node=a.node),
        told=lambda t, a: _built_told(
            t, a, LineKind.BUILD, N_("{player} builds a city wall {place}")
        ),
    ),
    ActionRule(
        BuyImprovement,
        check_improvement,
        do_improvement,
        (PromptKind.TURN, PromptKind.SPECIAL_BUILD),
        msg("buy a city improvement"),
        button=lambda g, a, names: msg("Improve {track}", track=a.track.words),
        told=improvement_told,
    ),
    ActionRule(
        PlaceMetropolis,
        check_place_metropolis,
        do_place_metropolis,
        (PromptKind.PLACE_METROPOLIS,),
        msg("place the metropolis"),
        button=lambda g, a, names: msg("Place the metropolis at node {node}", node=a.node),
        told=lambda t, a: _built_told(
            t, a, LineKind.IMPROVEMENT, N_("{player} places a metropolis {place}")
        ),
    ),
    ActionRule(
        TakeResource,
        check_take_resource,
        do_take_resource,
        (PromptKind.AQUEDUCT,),
        msg("take a resource (Aqueduct)"),
        button=lambda g, a, names: msg("Take {card}", card=a.card.counted(1)),
        told=lambda t, a: [
            Line(
                LineKind.PRODUCTION,
                msg(
                    "{player} takes {card} (Aqueduct)",
                    player=t.who(a.player),
                    card=a.card.counted(1),
                ),
            )
        ],
    ),
)
OPTIONS: dict[PromptKind, Options] = {
    PromptKind.PLACE_METROPOLIS: metropolis_options,
    PromptKind.AQUEDUCT: aqueduct_options,
}
PROMPTS = (
    PromptRule(PromptKind.PLACE_METROPOLIS, N_("place the metropolis on one of your cities")),
    PromptRule(PromptKind.AQUEDUCT, N_("Aqueduct: take a resource of your choice")),
)
