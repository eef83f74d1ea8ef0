"""The base game's actions (§2-§5): setup placements, the roll, building, trade, the end of
a turn; and what a roll does (the event die first, then production or a 7).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from companion_app.rules import barbarians, gold, improvements, progress, robber, ships, turnflow
from companion_app.rules import operations as ops
from companion_app.rules.actions import (
    AcceptTrade,
    Action,
    BankTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    DeclineTrade,
    EndTurn,
    EventDie,
    OfferTrade,
    Roll,
)
from companion_app.rules.cards import CARD_KINDS, COSTS, TERRAIN_RESOURCE, Build, Card
from companion_app.rules.config import MAX_PLAYERS
from companion_app.rules.declare import (
    ActionRule,
    Decider,
    Options,
    PromptRule,
    no_check,
    nothing_told,
)
from companion_app.rules.events import CardsMoved
from companion_app.rules.messages import N_, Msg, msg, pmsg
from companion_app.rules.pieces import (
    CITY,
    NOBODY,
    ROADS_PER_PLAYER,
    SETTLEMENT,
    SETTLEMENTS_PER_PLAYER,
)
from companion_app.rules.prompts import TURN_PROMPTS, Prompt, PromptKind, Stage
from companion_app.rules.seamap import MAX_EDGES, MAX_NODES
from companion_app.rules.state import ALL_CARDS, GameState, affords, holds, needs_of
from companion_app.rules.topology import EdgeKind, NodeKind
from companion_app.rules.words import (
    EVENT_WORDS,
    Line,
    LineKind,
    Telling,
    dice_words,
    hand_words,
    place_words,
)

# Prebuilt action values, so listing legal actions does not construct objects on the hot path.
_MAX_SEATS = MAX_PLAYERS
_CARDS = tuple(Card)
_V = TypeVar("_V")


class _BySeat(dict[int, _V]):
    """A seat's prebuilt values, made on the seat's first use: loading the rules core makes
    none, and a game of four never makes the fifth and sixth seats'."""

    def __init__(self, make: Callable[[int], _V]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, p: int) -> _V:
        values = self[p] = self._make(p)
        return values


_ROAD = _BySeat(lambda p: [BuildRoad(p, e) for e in range(MAX_EDGES)])
_SETTLE = _BySeat(lambda p: [BuildSettlement(p, n) for n in range(MAX_NODES)])
_CITY = _BySeat(lambda p: [BuildCity(p, n) for n in range(MAX_NODES)])
_TRADE = _BySeat(lambda p: [[BankTrade(p, g, t) for t in _CARDS] for g in _CARDS])
_END = [EndTurn(p) for p in range(_MAX_SEATS)]
_ACCEPT = [AcceptTrade(p) for p in range(_MAX_SEATS)]
_DECLINE = [DeclineTrade(p) for p in range(_MAX_SEATS)]
_ROLLS = _BySeat(
    lambda p: tuple(
        Roll(p, y, r, e)
        for y in range(1, 7)
        for r in range(1, 7)
        for e in (EventDie.SHIP, EventDie.TRADE, EventDie.POLITICS, EventDie.SCIENCE)
    )
)


# ---- checks: the reason an action is illegal, or None -----------------------------------------


def check_build_road(game: GameState, a: BuildRoad) -> Msg | None:
    p, e = a.player, a.edge
    if not 0 <= e < game.topology.edge_count:
        return msg(
            "edge {edge} does not exist (edges are 0-{last})",
            edge=e,
            last=game.topology.edge_count - 1,
        )
    if game.edge_owner[e] != NOBODY:
        return msg("edge {edge} already has a road", edge=e)
    if game.topology.edge_kinds[e] is EdgeKind.SEA:
        return msg("edge {edge} lies at sea: only a ship goes there (§13.2)", edge=e)
    if game.ship_owner[e] != NOBODY:
        return msg("edge {edge} already has a ship", edge=e)
    if game.roads_left(p) == 0:
        return msg("no roads left in the supply (each player has {count})", count=ROADS_PER_PLAYER)
    if game.prompt.kind is PromptKind.SETUP_ROAD:
        if game.setup_node not in game.topology.edge_nodes[e]:
            return msg(
                "the starting road must touch the piece just placed on {node}", node=game.setup_node
            )
        return None
    free = game.prompt.kind is PromptKind.FREE_ROAD
    if not free and not affords(game.hands[p], COSTS[Build.ROAD]):
        return msg("a road costs 1 brick + 1 lumber (§5)")
    if e not in ops.road_spots(game, p):
        return msg(
            "edge {edge} is not connected to your roads or buildings (or a piece blocks it)", edge=e
        )
    return None


def check_settlement_like(game: GameState, node: int, what: Msg) -> Msg | None:
    if not 0 <= node < game.topology.node_count:
        return msg(
            "intersection {node} does not exist (intersections are 0-{last})",
            node=node,
            last=game.topology.node_count - 1,
        )
    if game.node_owner[node] != NOBODY:
        return msg("intersection {node} is already built on", node=node)
    if game.knight_owner[node] != NOBODY:
        return msg(
            "a knight stands on intersection {node}; no {what} there (§6)", node=node, what=what
        )
    if not ops.free_building_spot(game, node):
        return msg("distance rule: intersection {node} is next to another building", node=node)
    topology = game.topology
    if topology.node_kinds[node] is NodeKind.SEA:
        return msg("intersection {node} lies at sea: nothing is built there (§13.2)", node=node)
    if game.in_setup and topology.node_island[node] != 0:
        return msg(
            "the setup is played on the main island; intersection {node} is not on it (§13.11)",
            node=node,
        )
    return None


def check_build_settlement(game: GameState, a: BuildSettlement) -> Msg | None:
    p, node = a.player, a.node
    reason = check_settlement_like(game, node, pmsg("piece", "settlement"))
    if reason:
        return reason
    if game.settlements_left(p) == 0:
        return msg(
            "no settlements left in the supply (each player has {count})",
            count=SETTLEMENTS_PER_PLAYER,
        )
    if game.prompt.kind is PromptKind.SETUP_SETTLEMENT:
        return None
    if not affords(game.hands[p], COSTS[Build.SETTLEMENT]):
        return msg("a settlement costs 1 brick + 1 lumber + 1 wool + 1 grain (§5)")
    if not game.has_road_at(p, node):
        if game.topology.has_sea:
            if not ops.has_ship_at(game, p, node):
                return msg(
                    "intersection {node} is not at the end of one of your roads or ships",
                    node=node,
                )
            return None
        return msg("intersection {node} is not at the end of one of your roads", node=node)
    return None


def check_build_city(game: GameState, a: BuildCity) -> Msg | None:
    p, node = a.player, a.node
    if game.prompt.kind is PromptKind.SETUP_CITY:
        return check_settlement_like(game, node, pmsg("piece", "city"))
    reason = game.city_upgrade_reason(p, node)
    if reason:
        return reason
    if not affords(game.hands[p], COSTS[Build.CITY]):
        return msg("a city costs 3 ore + 2 grain (§5)")
    return None


def check_roll(game: GameState, a: Roll) -> Msg | None:
    reason = progress.dice_reason(a.yellow, a.red)
    if reason:
        return reason
    fixed = game.alchemist
    if fixed is not None and (a.yellow, a.red) != fixed:
        return msg(
            "the Alchemist fixed the dice at yellow {yellow}, red {red} (§10)",
            yellow=fixed[0],
            red=fixed[1],
        )
    return None


def check_bank_trade(game: GameState, a: BankTrade) -> Msg | None:
    if a.give == a.take:
        return msg("a trade gives one kind of card for another")
    rate = game.trade_rate(a.player, a.give)
    if game.hands[a.player][a.give] < rate:
        return msg("trading {give} needs {rate} of them", give=a.give.words, rate=rate)
    if game.bank[a.take] == 0:
        return msg("the bank has no {take} left", take=a.take.words)
    return None


def check_offer(game: GameState, a: OfferTrade) -> Msg | None:
    if not 0 <= a.to < game.player_count or a.to == a.player:
        return msg("a trade offer goes to another player, not {to}", to=a.to)
    if len(a.give) != CARD_KINDS or len(a.take) != CARD_KINDS:
        return msg("an offer lists counts for all eight cards")
    if min(a.give) < 0 or min(a.take) < 0:
        return msg("card counts in an offer are >= 0")
    if not any(a.give) or not any(a.take):
        return msg("a trade gives at least one card and takes at least one")
    if any(g and t for g, t in zip(a.give, a.take, strict=True)):
        return msg("an offer cannot give and take the same kind of card")
    if not affords(game.hands[a.player], a.give):
        return msg("you do not hold the cards you offer")
    return None


def check_accept(game: GameState, a: AcceptTrade) -> Msg | None:
    assert game.offer is not None
    if not affords(game.hands[a.player], game.offer.take):
        return msg("you do not hold the cards asked for")
    return None


def do_build_road(game: GameState, a: BuildRoad) -> None:
    p = a.player
    ops.place_road(game, p, a.edge)
    if game.prompt.kind is PromptKind.SETUP_ROAD:
        turnflow.advance_setup(game)
    elif game.prompt.kind is PromptKind.FREE_ROAD:
        turnflow.pending_step_done(game)
    else:
        ops.pay(game, p, COSTS[Build.ROAD])


def do_build_settlement(game: GameState, a: BuildSettlement) -> None:
    p, node = a.player, a.node
    ops.place_building(game, p, node, SETTLEMENT)
    if game.prompt.kind is PromptKind.SETUP_SETTLEMENT:
        game.setup_node = node
        turnflow.advance_setup(game)
        return
    ops.pay(game, p, COSTS[Build.SETTLEMENT])
    if game.topology.has_sea:
        ships.settled(game, p, node)
        return
    broken = ops.road_owners_at(game, node) - {p}
    if broken:
        ops.update_longest_road(game, broken)


def do_build_city(game: GameState, a: BuildCity) -> None:
    p, node = a.player, a.node
    if game.prompt.kind is PromptKind.SETUP_CITY:
        ops.place_building(game, p, node, CITY)
        got = [0] * CARD_KINDS
        for h in game.topology.node_hexes[node]:
            resource = TERRAIN_RESOURCE[game.board.terrains[h]]
            if resource is not None:
                got[resource] += ops.take_from_bank(game, p, resource, 1)
        game.events.append(CardsMoved(NOBODY, p, tuple(got)))
        game.setup_node = node
        turnflow.advance_setup(game)
        choices = gold.setup_gold(game, node)
        if choices and gold.bank_has_resources(game):  # R21: before the road
            game.pending.append(Prompt(PromptKind.GOLD, p, choices))
            game.prompt = game.pending[0]
        return
    game.node_level[node] = CITY
    ops.pay(game, p, COSTS[Build.CITY])


def do_roll(game: GameState, a: Roll) -> None:
    """Event die first (§3.3), then the production dice. A roll while the table says who
    special-builds ends that phase first: a roller who reached the target in it wins before
    the dice count (§12)."""
    if game.special_build is not None:
        turnflow.end_special_build_phase(game)
        if game.victory_points(a.player) >= game.config.vp_target:
            return
    game.last_roll = a
    game.rolled = True
    game.alchemist = None
    if game.in_easy_start():
        if a.total == 7:
            game.rolled = False  # easy start: a 7 is rolled again
            return
    elif a.event is EventDie.SHIP:
        if barbarians.advance_barbarians(game):
            turnflow.next_prompt(game)
            return
    else:
        progress.castle_draws(game, progress.EVENT_TRACK[a.event.value], a.red)
    resolve_dice(game, a)


def do_bank_trade(game: GameState, a: BankTrade) -> None:
    p = a.player
    rate = game.trade_rates[p][a.give]
    game.hands[p][a.give] -= rate
    game.bank[a.give] += rate
    game.bank[a.take] -= 1
    game.hands[p][a.take] += 1


def do_offer(game: GameState, a: OfferTrade) -> None:
    game.offer = a
    game.prompt = Prompt(PromptKind.TRADE_RESPONSE, a.to)


def do_accept(game: GameState, a: AcceptTrade) -> None:
    offer = game.offer
    assert offer is not None
    giver, taker = game.hands[offer.player], game.hands[offer.to]
    for c in ALL_CARDS:
        giver[c] += offer.take[c] - offer.give[c]
        taker[c] += offer.give[c] - offer.take[c]
    game.offer = None
    game.prompt = TURN_PROMPTS[game.active]


def do_decline(game: GameState, a: DeclineTrade) -> None:
    game.offer = None
    game.prompt = TURN_PROMPTS[game.active]


def do_end_turn(game: GameState, a: EndTurn) -> None:
    """A 5th progress card held on one's own turn is discarded now (§3.6, §9)."""
    over = ops.progress_over_limit(game, a.player)
    if over > 0:
        game.pending.append(Prompt(PromptKind.PROGRESS_DISCARD, a.player, over))
        game.stage = Stage.END_TURN
        turnflow.next_prompt(game)
        return
    turnflow.finish_turn(game)


def resolve_dice(game: GameState, roll: Roll) -> None:
    """Production, or a 7's discards and robber, after the event die (§3.4)."""
    if roll.total == 7:
        robber.start_seven(game)
    else:
        gained = ops.produce(game, roll.total)
        if not gold.queue_gold(game, roll.total):  # else the Aqueduct waits for the choices
            improvements.queue_aqueduct(game, gained)
        turnflow.next_prompt(game)


def continue_after_attack(game: GameState) -> None:
    """The attack's prompts are answered: the roll's production dice now (§3.3)."""
    assert game.last_roll is not None
    resolve_dice(game, game.last_roll)


# ---- options: the legal answers ------------------------------------------------------------


def setup_settlement_options(game: GameState, p: int) -> list[Action]:
    """On a sea board only the main island's intersections (§13.11)."""
    return [_SETTLE[p][n] for n in game.topology.setup_nodes if ops.free_building_spot(game, n)]


def setup_city_options(game: GameState, p: int) -> list[Action]:
    return [_CITY[p][n] for n in game.topology.setup_nodes if ops.free_building_spot(game, n)]


def setup_road_options(game: GameState, p: int) -> list[Action]:
    """A road, or on a sea board at the coast a ship instead (§13.3 item 3)."""
    edge_owner, ship_owner = game.edge_owner, game.ship_owner
    kinds = game.topology.edge_kinds
    roads: list[Action] = [
        _ROAD[p][e]
        for e in game.topology.node_edges[game.setup_node]
        if edge_owner[e] == NOBODY and ship_owner[e] == NOBODY and kinds[e] is not EdgeKind.SEA
    ]
    return roads + ships.setup_ship_options(game, p)


def dice_rolls(p: int) -> tuple[Roll, ...]:
    """Every roll of the dice for seat ``p`` (prebuilt)."""
    return _ROLLS[p]


def roll_options(game: GameState, p: int) -> list[Action]:
    """Every roll (or those the Alchemist fixed), and the Alchemist's plays before it."""
    if game.alchemist is None:
        return [*_ROLLS[p], *progress.alchemist_plays(game, p)]
    y, r = game.alchemist
    return [roll for roll in _ROLLS[p] if roll.yellow == y and roll.red == r]


_ROAD_NEEDS = needs_of(COSTS[Build.ROAD])
_SETTLEMENT_NEEDS = needs_of(COSTS[Build.SETTLEMENT])
_CITY_NEEDS = needs_of(COSTS[Build.CITY])


def building_options(game: GameState, p: int) -> list[Action]:
    """Roads, settlements and cities the player on turn can build and pay."""
    hand = game.hands[p]
    actions: list[Action] = []
    if len(game.roads_of[p]) < ROADS_PER_PLAYER and holds(hand, _ROAD_NEEDS):
        roads = _ROAD[p]
        actions.extend(roads[e] for e in ops.road_spots(game, p))
    if holds(hand, _SETTLEMENT_NEEDS) and game.settlements_left(p) > 0:
        settle = _SETTLE[p]
        actions.extend(settle[n] for n in ops.settlement_spots(game, p))
    if holds(hand, _CITY_NEEDS):
        city = _CITY[p]
        destroyed = game.destroyed_cities_of(p)
        if destroyed:
            actions.extend(city[n] for n in destroyed)
        elif game.cities_left(p) > 0:
            level = game.node_level
            actions.extend(city[n] for n in game.buildings_of[p] if level[n] == SETTLEMENT)
    return actions


def bank_trade_options(game: GameState, p: int) -> list[Action]:
    hand = game.hands[p]
    bank = game.bank
    rates = game.trade_rates[p]
    trades = _TRADE[p]
    actions: list[Action] = []
    for g in ALL_CARDS:
        if hand[g] >= rates[g]:
            row = trades[g]
            actions.extend(row[t] for t in ALL_CARDS if t != g and bank[t])
    return actions


def end_turn_options(game: GameState, p: int) -> list[Action]:
    return [_END[p]]


def trade_response_options(game: GameState, p: int) -> list[Action]:
    assert game.offer is not None
    if affords(game.hands[p], game.offer.take):
        return [_ACCEPT[p], _DECLINE[p]]
    return [_DECLINE[p]]


# ---- words: the buttons and the log ------------------------------------------------------------


def road_told(t: Telling, a: BuildRoad) -> list[Line]:
    who = t.who(a.player)
    if t.prior.prompt is PromptKind.FREE_ROAD:
        return [Line(LineKind.BUILD, msg("{who} builds a free road", who=who))]
    return [
        Line(LineKind.SETUP if t.in_setup else LineKind.BUILD, msg("{who} builds a road", who=who))
    ]


def settlement_told(t: Telling, a: BuildSettlement) -> list[Line]:
    place = place_words(t.game, a.node)
    if t.in_setup:
        return [
            Line(
                LineKind.SETUP,
                msg("{player} places a settlement {place}", player=t.who(a.player), place=place),
            )
        ]
    return [
        Line(
            LineKind.BUILD,
            msg("{player} builds a settlement {place}", player=t.who(a.player), place=place),
        ),
        *ships.island_lines(t),
    ]


def city_told(t: Telling, a: BuildCity) -> list[Line]:
    """The starting city says what it brought (§2)."""
    who, place = t.who(a.player), place_words(t.game, a.node)
    if t.in_setup:
        got = hand_words(t.received(a.player))
        return [
            Line(
                LineKind.SETUP,
                msg("{who} places a city {place}: gets {got}", who=who, place=place, got=got),
            )
        ]
    return [Line(LineKind.BUILD, msg("{who} builds a city {place}", who=who, place=place))]


def roll_button(game: GameState, a: Roll, names: Sequence[str]) -> Msg:
    return msg(
        "Roll {yellow}+{red} {event}", yellow=a.yellow, red=a.red, event=EVENT_WORDS[a.event]
    )


def roll_told(t: Telling, a: Roll) -> list[Line]:
    return [
        Line(
            LineKind.ROLL, msg("{player} rolls {dice}", player=t.who(a.player), dice=dice_words(a))
        )
    ]


def bank_trade_button(game: GameState, a: BankTrade, names: Sequence[str]) -> Msg:
    rate = game.trade_rate(a.player, a.give)
    return msg("Trade {give} for {take}", give=a.give.counted(rate), take=a.take.counted(1))


def bank_trade_told(t: Telling, a: BankTrade) -> list[Line]:
    """A trade changes no rate: the rate after is the one paid."""
    rate = t.game.trade_rate(a.player, a.give)
    text = msg(
        "{player} trades {give} for {take} with the bank",
        player=t.who(a.player),
        give=a.give.counted(rate),
        take=a.take.counted(1),
    )
    return [Line(LineKind.TRADE, text)]


def offer_told(t: Telling, a: OfferTrade) -> list[Line]:
    text = msg(
        "{player} offers {to} {gives} for {takes}",
        player=t.who(a.player),
        to=t.who(a.to),
        gives=hand_words(a.give),
        takes=hand_words(a.take),
    )
    return [Line(LineKind.TRADE, text)]


RULES = (
    ActionRule(
        BuildRoad,
        check_build_road,
        do_build_road,
        (PromptKind.SETUP_ROAD, PromptKind.TURN, PromptKind.FREE_ROAD, PromptKind.SPECIAL_BUILD),
        msg("build a road"),
        button=lambda g, a, names: msg("Build a road at edge {edge}", edge=a.edge),
        told=road_told,
    ),
    ActionRule(
        BuildSettlement,
        check_build_settlement,
        do_build_settlement,
        (PromptKind.SETUP_SETTLEMENT, PromptKind.TURN, PromptKind.SPECIAL_BUILD),
        msg("build a settlement"),
        button=lambda g, a, names: msg("Build a settlement at node {node}", node=a.node),
        told=settlement_told,
    ),
    ActionRule(
        BuildCity,
        check_build_city,
        do_build_city,
        (PromptKind.SETUP_CITY, PromptKind.TURN, PromptKind.SPECIAL_BUILD),
        msg("build a city"),
        button=lambda g, a, names: msg("Build a city at node {node}", node=a.node),
        told=city_told,
    ),
    ActionRule(
        Roll,
        check_roll,
        do_roll,
        (PromptKind.ROLL, PromptKind.WHO_BUILDS),
        msg("roll the dice"),
        button=roll_button,
        told=roll_told,
    ),
    ActionRule(
        BankTrade,
        check_bank_trade,
        do_bank_trade,
        (PromptKind.TURN,),
        msg("trade with the bank"),
        button=bank_trade_button,
        told=bank_trade_told,
    ),
    ActionRule(
        OfferTrade,
        check_offer,
        do_offer,
        (PromptKind.TURN,),
        msg("offer a trade"),
        button=lambda g, a, names: msg("Offer a trade"),
        told=offer_told,
    ),
    ActionRule(
        AcceptTrade,
        check_accept,
        do_accept,
        (PromptKind.TRADE_RESPONSE,),
        msg("accept the offer"),
        button=lambda g, a, names: msg("Accept the trade"),
        told=lambda t, a: [Line(LineKind.TRADE, msg("{player} accepts", player=t.who(a.player)))],
    ),
    ActionRule(
        DeclineTrade,
        no_check,
        do_decline,
        (PromptKind.TRADE_RESPONSE,),
        msg("decline the offer"),
        button=lambda g, a, names: msg("Decline"),
        told=lambda t, a: [Line(LineKind.TRADE, msg("{player} declines", player=t.who(a.player)))],
    ),
    ActionRule(
        EndTurn,
        no_check,
        do_end_turn,
        (PromptKind.TURN,),
        msg("end the turn"),
        button=lambda g, a, names: msg("End turn"),
        told=nothing_told,
    ),
)
OPTIONS: dict[PromptKind, Options] = {
    PromptKind.SETUP_SETTLEMENT: setup_settlement_options,
    PromptKind.SETUP_CITY: setup_city_options,
    PromptKind.SETUP_ROAD: setup_road_options,
    PromptKind.TRADE_RESPONSE: trade_response_options,
}
STAGES: dict[Stage, Callable[[GameState], None]] = {Stage.ATTACK: continue_after_attack}
PROMPTS = (
    PromptRule(PromptKind.SETUP_SETTLEMENT, N_("place a starting settlement"), always_asked=True),
    PromptRule(PromptKind.SETUP_CITY, N_("place a starting city"), always_asked=True),
    PromptRule(
        PromptKind.SETUP_ROAD,
        N_("place a road next to it"),
        always_asked=True,
        sea_words=N_("place a road or a ship next to it"),
    ),
    PromptRule(PromptKind.ROLL, N_("roll the dice"), Decider.ON_TURN, always_asked=True),
    PromptRule(
        PromptKind.TURN, N_("trade, build, or end the turn"), Decider.ON_TURN, always_asked=True
    ),
    # An offer to answer: declining at once would tell the table the player cannot pay.
    PromptRule(
        PromptKind.TRADE_RESPONSE,
        N_("accept or decline the trade offer"),
        phone=True,
        always_asked=True,
        details=N_("{offerer} offers {gives} for {takes}"),
        phone_details=N_("{offerer} gives {gives} for {takes}"),
    ),
    PromptRule(PromptKind.GAME_OVER, N_("has won the game"), Decider.NOBODY, always_asked=True),
)
