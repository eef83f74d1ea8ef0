"""Progress cards (§9, §10) and the merchant: the three decks, draws on a castle, the hand
limit, and the 25 card kinds with their follow-up choices.

Each action has a check (the reason it is illegal, or None) and an effect, declared once in
``RULES``; the card prompts' answers are listed by ``OPTIONS``.
The legal plays of a card are its candidates filtered by the same check, so the list the UI
shows and the check can never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Any

from companion_app.rules import improvements, knights, robber, turnflow
from companion_app.rules import operations as ops
from companion_app.rules.actions import (
    Action,
    BuildRoad,
    DiscardProgressCard,
    GiveCard,
    HarborExchange,
    PlaceDeserter,
    PlayAlchemist,
    PlayBishop,
    PlayCrane,
    PlayDeserter,
    PlayDiplomat,
    PlayEngineer,
    PlayIntrigue,
    PlayInventor,
    PlayMasterMerchant,
    PlayMedicine,
    PlayMerchant,
    PlayMerchantFleet,
    PlayProgress,
    PlayResourceMonopoly,
    PlaySpy,
    PlayTradeMonopoly,
    PromoteKnight,
    RemoveKnight,
    StopEffect,
    TakeCard,
    TakeProgressCard,
)
from companion_app.rules.cards import (
    COMMODITIES,
    RESOURCES,
    TERRAIN_RESOURCE,
    TRACKS,
    Card,
    Hand,
    ProgressCard,
    Terrain,
    Track,
    hand_of,
)
from companion_app.rules.declare import ActionRule, Button, Options
from companion_app.rules.events import CardsMoved
from companion_app.rules.pieces import (
    CITY,
    KNIGHT_NAMES,
    KNIGHTS_PER_LEVEL,
    NOBODY,
)
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.state import GameState
from companion_app.rules.topology import (
    EDGE_COUNT,
    EDGE_NODES,
    HEX_COUNT,
    NODE_COUNT,
    NODE_EDGES,
    NODE_HEXES,
)
from companion_app.rules.words import (
    Line,
    LineKind,
    Telling,
    capitalised,
    hand_words,
    hex_words,
    place_words,
    steal_lines,
)

MEDICINE_COST: Hand = hand_of(ore=2, grain=1)
"""Medicine: a city for 2 ore + 1 grain (§10)."""
INVENTOR_FORBIDDEN = frozenset({2, 12, 6, 8})
"""Tokens the Inventor never moves (§10)."""
RESOURCE_MONOPOLY_TAKE = 2
TRADE_MONOPOLY_TAKE = 1
WEDDING_GIFT = 2
MASTER_MERCHANT_TAKE = 2
FREE_ROADS = 2
SMITH_PROMOTIONS = 2
HARVEST_PER_HEX = 2
"""Irrigation and Mining: 2 grain / ore per fields / mountains hex next to one's buildings."""

NO_CHOICE_CARDS: frozenset[ProgressCard] = frozenset(
    {
        ProgressCard.IRRIGATION,
        ProgressCard.MINING,
        ProgressCard.ROAD_BUILDING,
        ProgressCard.SMITH,
        ProgressCard.SABOTEUR,
        ProgressCard.WARLORD,
        ProgressCard.WEDDING,
        ProgressCard.COMMERCIAL_HARBOR,
    }
)
"""Cards played with :class:`PlayProgress`; the others have an action carrying their choice."""

EVENT_TRACK: dict[str, Track] = {t.value: t for t in TRACKS}
"""Event die castle face (its value) to the deck it draws from."""


# ---- drawing and the hand limit (§9) ----------------------------------------------------------


def draws_card(level: int, red: int) -> bool:
    """The castle draw table (§9): level L >= 1 draws when the red die shows 1 ... L + 1."""
    return level >= 1 and red <= level + 1


def castle_draws(game: GameState, track: Track, red: int) -> None:
    """Everyone qualifying draws the top card of ``track``'s deck, the active player first."""
    for p in game.seat_order():
        if draws_card(game.improvements[p][track.index], red):
            ops.draw_progress(game, p, track, len(game.pending))


def check_discard_progress(game: GameState, a: DiscardProgressCard) -> str | None:
    if a.card not in game.progress_hands[a.player]:
        return f"you hold no {a.card.title} to discard"
    return None


def do_discard_progress(game: GameState, a: DiscardProgressCard) -> None:
    game.progress_hands[a.player].remove(a.card)
    ops.under_deck(game, a.card)
    turnflow.pending_step_done(game)


def _distinct(cards: list[ProgressCard]) -> list[ProgressCard]:
    return sorted(set(cards), key=lambda c: c.order)


# ---- playing: the common rules (§9) -----------------------------------------------------------

_CARD_OF: dict[type[Action], ProgressCard] = {
    PlayAlchemist: ProgressCard.ALCHEMIST,
    PlayCrane: ProgressCard.CRANE,
    PlayEngineer: ProgressCard.ENGINEER,
    PlayInventor: ProgressCard.INVENTOR,
    PlayMedicine: ProgressCard.MEDICINE,
    PlayBishop: ProgressCard.BISHOP,
    PlayDeserter: ProgressCard.DESERTER,
    PlayDiplomat: ProgressCard.DIPLOMAT,
    PlayIntrigue: ProgressCard.INTRIGUE,
    PlaySpy: ProgressCard.SPY,
    PlayMasterMerchant: ProgressCard.MASTER_MERCHANT,
    PlayMerchant: ProgressCard.MERCHANT,
    PlayMerchantFleet: ProgressCard.MERCHANT_FLEET,
    PlayResourceMonopoly: ProgressCard.RESOURCE_MONOPOLY,
    PlayTradeMonopoly: ProgressCard.TRADE_MONOPOLY,
}
PLAY_TYPES: tuple[type[Action], ...] = (PlayProgress, *_CARD_OF)


def card_of(a: Action) -> ProgressCard:
    if isinstance(a, PlayProgress):
        return a.card
    return _CARD_OF[type(a)]


def check_play(game: GameState, a: Action) -> str | None:
    """Holding the card, the right moment (Alchemist before the roll, the rest after), then
    the card's own conditions."""
    card = card_of(a)
    if card.is_vp:
        return f"{card.title} is a VP card: revealed when drawn, never played (§9)"
    if isinstance(a, PlayProgress) and card not in NO_CHOICE_CARDS:
        return f"{card.title} is played with its own action, not play_progress"
    if card not in game.progress_hands[a.player]:
        return f"you hold no {card.title} progress card"
    before_roll = game.prompt.kind is PromptKind.ROLL
    if card is ProgressCard.ALCHEMIST and not before_roll:
        return "the Alchemist is played before the roll (§3, §10)"
    if card is not ProgressCard.ALCHEMIST and before_roll:
        return "progress cards are played after the roll; only the Alchemist before (§9)"
    return _REASONS[type(a)](game, a)


def do_play(game: GameState, a: Action) -> None:
    card = card_of(a)
    game.progress_hands[a.player].remove(card)
    ops.under_deck(game, card)
    _EFFECTS[type(a)](game, a)
    turnflow.next_prompt(game)


def turn_plays(game: GameState, p: int) -> list[Action]:
    """Every legal progress-card play of the player on turn (after the roll)."""
    hand = game.progress_hands[p]
    if not hand:
        return []
    actions: list[Action] = []
    for card in _distinct(hand):
        if card is ProgressCard.ALCHEMIST:
            continue
        make, reason = _OPTIONS[card]
        for action in make(game, p):
            if reason(game, action) is None:
                actions.append(action)
    return actions


def alchemist_plays(game: GameState, p: int) -> list[Action]:
    """Before the roll: the 36 choices of the production dice, if the player holds one."""
    if ProgressCard.ALCHEMIST not in game.progress_hands[p] or game.alchemist is not None:
        return []
    return [PlayAlchemist(p, y, r) for y in range(1, 7) for r in range(1, 7)]


# ---- the cards' own conditions ------------------------------------------------------------------


def _ok(game: GameState, a: Any) -> str | None:
    return None


def _other_player(game: GameState, p: int, victim: int) -> str | None:
    if not 0 <= victim < game.player_count or victim == p:
        return f"choose another player, not {victim}"
    return None


def dice_reason(yellow: int, red: int) -> str | None:
    """Production dice outside 1-6 (a roll, or the Alchemist's choice)."""
    if not (1 <= yellow <= 6 and 1 <= red <= 6):
        return f"dice show 1-6, got yellow {yellow} and red {red}"
    return None


def _reason_alchemist(game: GameState, a: PlayAlchemist) -> str | None:
    reason = dice_reason(a.yellow, a.red)
    if reason:
        return reason
    if game.alchemist is not None:
        return "an Alchemist already fixed this roll's dice"
    return None


def _reason_crane(game: GameState, a: PlayCrane) -> str | None:
    return improvements.improvement_reason(game, a.player, a.track, discount=1)


def _reason_engineer(game: GameState, a: PlayEngineer) -> str | None:
    return improvements.wall_reason(game, a.player, a.node, wall="the Engineer's wall")


def _reason_inventor(game: GameState, a: PlayInventor) -> str | None:
    if not 0 <= a.hex < a.other < HEX_COUNT:
        return "name two different hexes, the lower id first"
    for h in (a.hex, a.other):
        token = game.tokens[h]
        if token is None:
            return f"hex {h} has no number token"
        if token in INVENTOR_FORBIDDEN:
            return f"the Inventor never moves a {token} (nor 2, 12, 6 or 8, §10)"
    return None


def _reason_medicine(game: GameState, a: PlayMedicine) -> str | None:
    reason = game.city_upgrade_reason(a.player, a.node)
    if reason:
        return reason
    if not game.affords(a.player, MEDICINE_COST):
        return "Medicine: the city costs 2 ore + 1 grain (§10)"
    return None


def _reason_bishop(game: GameState, a: PlayBishop) -> str | None:
    if not game.robber_unlocked:
        return "the robber stays in the desert until the first barbarian attack (§8)"
    if not 0 <= a.hex < HEX_COUNT:
        return f"hex {a.hex} does not exist (hexes are 0-{HEX_COUNT - 1})"
    if a.hex == game.robber_hex:
        return "the robber must move to another hex"
    return None


def _reason_deserter(game: GameState, a: PlayDeserter) -> str | None:
    reason = _other_player(game, a.player, a.victim)
    if reason:
        return reason
    if not game.knights_of[a.victim]:
        return f"player {a.victim} has no knight on the board"
    return None


def is_open_road(game: GameState, edge: int) -> bool:
    """A road with an end where its owner has no other road, no building and no knight.

    §10 Diplomat, as the catan.com FAQ rules it: an own knight closes an end like a building,
    so a road from an own settlement to an own knight is closed.
    """
    owner = game.edge_owner[edge]
    for node in EDGE_NODES[edge]:
        if game.node_owner[node] == owner or game.knight_owner[node] == owner:
            continue
        if not any(f != edge and game.edge_owner[f] == owner for f in NODE_EDGES[node]):
            return True
    return False


def _reason_diplomat(game: GameState, a: PlayDiplomat) -> str | None:
    if not 0 <= a.edge < EDGE_COUNT:
        return f"edge {a.edge} does not exist (edges are 0-{EDGE_COUNT - 1})"
    if game.edge_owner[a.edge] == NOBODY:
        return f"edge {a.edge} has no road"
    if not is_open_road(game, a.edge):
        return (
            "the Diplomat removes an open road: "
            "one end without its owner's road, building or knight"
        )
    return None


def _reason_intrigue(game: GameState, a: PlayIntrigue) -> str | None:
    p, node = a.player, a.node
    if not 0 <= node < NODE_COUNT:
        return f"intersection {node} does not exist"
    owner = game.knight_owner[node]
    if owner in (NOBODY, p):
        return "Intrigue displaces an opponent's knight"
    if not game.has_road_at(p, node):
        return "Intrigue needs the knight on an intersection touched by one of your roads (§10)"
    return None


def _reason_spy(game: GameState, a: PlaySpy) -> str | None:
    reason = _other_player(game, a.player, a.victim)
    if reason:
        return reason
    if not game.progress_hands[a.victim]:
        return f"player {a.victim} holds no progress card the Spy can take (VP cards never)"
    return None


def _reason_master_merchant(game: GameState, a: PlayMasterMerchant) -> str | None:
    reason = _other_player(game, a.player, a.victim)
    if reason:
        return reason
    if game.victory_points(a.victim) <= game.victory_points(a.player):
        return "Master Merchant targets a player with more VP than you (§10)"
    if not game.card_count(a.victim):
        return f"player {a.victim} holds no resource or commodity cards"
    return None


def merchant_hexes(game: GameState, p: int) -> list[int]:
    """Land hexes with a resource next to one of the player's settlements or cities."""
    terrains = game.board.terrains
    hexes = {h for node in game.buildings_of[p] for h in NODE_HEXES[node]}
    return sorted(h for h in hexes if terrains[h] is not Terrain.DESERT)


def _reason_merchant(game: GameState, a: PlayMerchant) -> str | None:
    if not 0 <= a.hex < HEX_COUNT:
        return f"hex {a.hex} does not exist (hexes are 0-{HEX_COUNT - 1})"
    if game.board.terrains[a.hex] is Terrain.DESERT:
        return "the merchant goes on a hex with a resource, not the desert"
    if a.hex not in merchant_hexes(game, a.player):
        return "the merchant goes next to one of your settlements or cities (§10)"
    return None


def _reason_resource_monopoly(game: GameState, a: PlayResourceMonopoly) -> str | None:
    if not a.card.is_resource:
        return "Resource Monopoly names a resource; Trade Monopoly is for commodities"
    return None


def _reason_trade_monopoly(game: GameState, a: PlayTradeMonopoly) -> str | None:
    if a.card.is_resource:
        return "Trade Monopoly names a commodity (cloth, coin or paper)"
    return None


_REASONS: dict[type[Action], Callable[[GameState, Any], str | None]] = {
    PlayProgress: _ok,
    PlayAlchemist: _reason_alchemist,
    PlayCrane: _reason_crane,
    PlayEngineer: _reason_engineer,
    PlayInventor: _reason_inventor,
    PlayMedicine: _reason_medicine,
    PlayBishop: _reason_bishop,
    PlayDeserter: _reason_deserter,
    PlayDiplomat: _reason_diplomat,
    PlayIntrigue: _reason_intrigue,
    PlaySpy: _reason_spy,
    PlayMasterMerchant: _reason_master_merchant,
    PlayMerchant: _reason_merchant,
    PlayMerchantFleet: _ok,
    PlayResourceMonopoly: _reason_resource_monopoly,
    PlayTradeMonopoly: _reason_trade_monopoly,
}


# ---- candidates per card, filtered by the reasons above -----------------------------------------


def _others(game: GameState, p: int) -> Iterator[int]:
    n = game.player_count
    return ((p + i) % n for i in range(1, n))


def _inventor_candidates(game: GameState, p: int) -> list[Action]:
    movable = [
        h for h, t in enumerate(game.tokens) if t is not None and t not in INVENTOR_FORBIDDEN
    ]
    return [PlayInventor(p, a, b) for a, b in combinations(movable, 2)]


def _diplomat_candidates(game: GameState, p: int) -> list[Action]:
    return [PlayDiplomat(p, e) for e, owner in enumerate(game.edge_owner) if owner != NOBODY]


def _intrigue_candidates(game: GameState, p: int) -> list[Action]:
    return [PlayIntrigue(p, n) for n in game.road_ends(p)]


def _play_plain(card: ProgressCard) -> Callable[[GameState, int], list[Action]]:
    def make(game: GameState, p: int) -> list[Action]:
        return [PlayProgress(p, card)]

    return make


_Options = tuple[Options, Callable[[GameState, Any], str | None]]
_OPTIONS: dict[ProgressCard, _Options] = {
    **{card: (_play_plain(card), _ok) for card in NO_CHOICE_CARDS},
    ProgressCard.CRANE: (lambda g, p: [PlayCrane(p, t) for t in TRACKS], _reason_crane),
    ProgressCard.ENGINEER: (
        lambda g, p: [PlayEngineer(p, n) for n in g.buildings_of[p]],
        _reason_engineer,
    ),
    ProgressCard.INVENTOR: (_inventor_candidates, _reason_inventor),
    ProgressCard.MEDICINE: (
        lambda g, p: [PlayMedicine(p, n) for n in g.buildings_of[p]],
        _reason_medicine,
    ),
    ProgressCard.BISHOP: (
        lambda g, p: [PlayBishop(p, h) for h in range(HEX_COUNT)],
        _reason_bishop,
    ),
    ProgressCard.DESERTER: (
        lambda g, p: [PlayDeserter(p, v) for v in sorted(_others(g, p))],
        _reason_deserter,
    ),
    ProgressCard.DIPLOMAT: (_diplomat_candidates, _reason_diplomat),
    ProgressCard.INTRIGUE: (_intrigue_candidates, _reason_intrigue),
    ProgressCard.SPY: (lambda g, p: [PlaySpy(p, v) for v in sorted(_others(g, p))], _reason_spy),
    ProgressCard.MASTER_MERCHANT: (
        lambda g, p: [PlayMasterMerchant(p, v) for v in sorted(_others(g, p))],
        _reason_master_merchant,
    ),
    ProgressCard.MERCHANT: (
        lambda g, p: [PlayMerchant(p, h) for h in merchant_hexes(g, p)],
        _reason_merchant,
    ),
    ProgressCard.MERCHANT_FLEET: (lambda g, p: [PlayMerchantFleet(p, c) for c in Card], _ok),
    ProgressCard.RESOURCE_MONOPOLY: (
        lambda g, p: [PlayResourceMonopoly(p, c) for c in RESOURCES],
        _reason_resource_monopoly,
    ),
    ProgressCard.TRADE_MONOPOLY: (
        lambda g, p: [PlayTradeMonopoly(p, c) for c in COMMODITIES],
        _reason_trade_monopoly,
    ),
}


# ---- effects ------------------------------------------------------------------------------------


def _harvest(game: GameState, p: int, terrain: Terrain) -> None:
    """Irrigation / Mining: 2 per hex of ``terrain`` next to the player's buildings, as far
    as the bank has them."""
    hexes = {h for node in game.buildings_of[p] for h in NODE_HEXES[node]}
    count = sum(1 for h in hexes if game.board.terrains[h] is terrain)
    card = TERRAIN_RESOURCE[terrain]
    assert card is not None
    got = ops.take_from_bank(game, p, card, HARVEST_PER_HEX * count)
    if got:
        game.events.append(CardsMoved(NOBODY, p, card.amount(got)))


def _seat_order_from_active(game: GameState) -> list[int]:
    return game.seat_order()[1:]


def _do_no_choice(game: GameState, a: PlayProgress) -> None:  # noqa: PLR0912 - one branch per card
    p, card = a.player, a.card
    if card is ProgressCard.IRRIGATION:
        _harvest(game, p, Terrain.FIELDS)
    elif card is ProgressCard.MINING:
        _harvest(game, p, Terrain.MOUNTAINS)
    elif card is ProgressCard.ROAD_BUILDING:
        game.pending.append(Prompt(PromptKind.FREE_ROAD, p, FREE_ROADS))
    elif card is ProgressCard.SMITH:
        game.pending.append(Prompt(PromptKind.SMITH, p, SMITH_PROMOTIONS))
    elif card is ProgressCard.WARLORD:
        for node in game.knights_of[p]:
            if not game.knight_active[node]:
                knights.activate_knight(game, node)
    elif card is ProgressCard.SABOTEUR:
        mine = game.victory_points(p)
        for q in _seat_order_from_active(game):
            half = game.card_count(q) // 2
            if game.victory_points(q) >= mine and half:
                game.pending.append(Prompt(PromptKind.DISCARD, q, half))
    elif card is ProgressCard.WEDDING:
        mine = game.victory_points(p)
        for q in _seat_order_from_active(game):
            gift = min(WEDDING_GIFT, game.card_count(q))
            if game.victory_points(q) > mine and gift:
                game.pending.append(Prompt(PromptKind.WEDDING_GIVE, q, gift))
    elif card is ProgressCard.COMMERCIAL_HARBOR:
        game.harbor_done = []
        game.pending.append(Prompt(PromptKind.COMMERCIAL_HARBOR, p))


def _do_alchemist(game: GameState, a: PlayAlchemist) -> None:
    game.alchemist = (a.yellow, a.red)


def _do_crane(game: GameState, a: PlayCrane) -> None:
    improvements.buy_improvement(game, a.player, a.track, discount=1)


def _do_engineer(game: GameState, a: PlayEngineer) -> None:
    game.walls[a.node] = True


def _do_inventor(game: GameState, a: PlayInventor) -> None:
    tokens = game.tokens
    tokens[a.hex], tokens[a.other] = tokens[a.other], tokens[a.hex]
    game.index_tokens()


def _do_medicine(game: GameState, a: PlayMedicine) -> None:
    ops.pay(game, a.player, MEDICINE_COST)
    game.node_level[a.node] = CITY


def _do_bishop(game: GameState, a: PlayBishop) -> None:
    """The robber moves; one random card from each other player with a building there."""
    game.robber_hex = a.hex
    for q in robber.robbable(game, a.hex):
        robber.steal_random(game, q, a.player)


def _do_deserter(game: GameState, a: PlayDeserter) -> None:
    game.card_target = a.victim
    game.pending.append(Prompt(PromptKind.DESERTER_REMOVE, a.victim))


def _do_diplomat(game: GameState, a: PlayDiplomat) -> None:
    owner = game.edge_owner[a.edge]
    ops.remove_road(game, a.edge)
    if owner == a.player:
        game.pending.append(Prompt(PromptKind.FREE_ROAD, a.player, 1))


def _do_intrigue(game: GameState, a: PlayIntrigue) -> None:
    knights.displace_knight(game, a.node)
    ops.roads_changed_at(game, a.node)


def _do_spy(game: GameState, a: PlaySpy) -> None:
    game.card_target = a.victim
    game.pending.append(Prompt(PromptKind.SPY, a.player))


def _do_master_merchant(game: GameState, a: PlayMasterMerchant) -> None:
    game.card_target = a.victim
    take = min(MASTER_MERCHANT_TAKE, game.card_count(a.victim))
    game.pending.append(Prompt(PromptKind.MASTER_MERCHANT, a.player, take))


def _do_merchant(game: GameState, a: PlayMerchant) -> None:
    """The merchant moves here and to this player, whoever had it before (§10)."""
    previous = game.merchant_owner
    game.merchant_hex = a.hex
    game.merchant_owner = a.player
    if previous != NOBODY:
        game.update_trade_rates(previous)
    game.update_trade_rates(a.player)


def _do_merchant_fleet(game: GameState, a: PlayMerchantFleet) -> None:
    if a.card not in game.fleet:
        game.fleet.append(a.card)
    game.update_trade_rates(a.player)


def _monopoly(game: GameState, p: int, card: Card, most: int) -> None:
    for q in _seat_order_from_active(game):
        n = min(most, game.hands[q][card])
        game.hands[q][card] -= n
        game.hands[p][card] += n
        if n:
            game.events.append(CardsMoved(q, p, card.amount(n)))


def _do_resource_monopoly(game: GameState, a: PlayResourceMonopoly) -> None:
    _monopoly(game, a.player, a.card, RESOURCE_MONOPOLY_TAKE)


def _do_trade_monopoly(game: GameState, a: PlayTradeMonopoly) -> None:
    _monopoly(game, a.player, a.card, TRADE_MONOPOLY_TAKE)


_EFFECTS: dict[type[Action], Callable[[GameState, Any], None]] = {
    PlayProgress: _do_no_choice,
    PlayAlchemist: _do_alchemist,
    PlayCrane: _do_crane,
    PlayEngineer: _do_engineer,
    PlayInventor: _do_inventor,
    PlayMedicine: _do_medicine,
    PlayBishop: _do_bishop,
    PlayDeserter: _do_deserter,
    PlayDiplomat: _do_diplomat,
    PlayIntrigue: _do_intrigue,
    PlaySpy: _do_spy,
    PlayMasterMerchant: _do_master_merchant,
    PlayMerchant: _do_merchant,
    PlayMerchantFleet: _do_merchant_fleet,
    PlayResourceMonopoly: _do_resource_monopoly,
    PlayTradeMonopoly: _do_trade_monopoly,
}


# ---- follow-up prompts -----------------------------------------------------------------------


def _progress_discard_options(game: GameState, p: int) -> list[Action]:
    return [DiscardProgressCard(p, c) for c in _distinct(game.progress_hands[p])]


def _free_road_options(game: GameState, p: int) -> list[Action]:
    roads: list[Action] = []
    if game.roads_left(p):
        roads.extend(BuildRoad(p, e) for e in ops.road_spots(game, p))
    return [*roads, StopEffect(p)]


def _smith_options(game: GameState, p: int) -> list[Action]:
    knights_now = sorted(game.knights_of[p])
    promos: list[Action] = [
        PromoteKnight(p, n) for n in knights_now if knights.promotion_reason(game, p, n) is None
    ]
    return [*promos, StopEffect(p)]


def _deserter_remove_options(game: GameState, p: int) -> list[Action]:
    return [RemoveKnight(p, n) for n in sorted(game.knights_of[p])]


def _deserter_place_options(game: GameState, p: int) -> list[Action]:
    return [*(PlaceDeserter(p, n) for n in knights.knight_spots(game, p)), StopEffect(p)]


def _wedding_options(game: GameState, p: int) -> list[Action]:
    return [GiveCard(p, c) for c in Card if game.hands[p][c]]


def _harbor_options(game: GameState, p: int) -> list[Action]:
    offers: list[Action] = [
        HarborExchange(p, q, c)
        for q in sorted(_seat_order_from_active(game))
        if q not in game.harbor_done
        for c in RESOURCES
        if game.hands[p][c]
    ]
    return [*offers, StopEffect(p)]


def _harbor_answer_options(game: GameState, p: int) -> list[Action]:
    return [GiveCard(p, c) for c in COMMODITIES if game.hands[p][c]]


def _spy_options(game: GameState, p: int) -> list[Action]:
    return [TakeProgressCard(p, c) for c in _distinct(game.progress_hands[game.card_target])]


def _master_merchant_options(game: GameState, p: int) -> list[Action]:
    return [TakeCard(p, c) for c in Card if game.hands[game.card_target][c]]


def check_stop(game: GameState, a: StopEffect) -> str | None:
    if game.prompt.kind not in (
        PromptKind.FREE_ROAD,
        PromptKind.SMITH,
        PromptKind.DESERTER_PLACE,
        PromptKind.COMMERCIAL_HARBOR,
    ):
        return "there is no card effect to stop now"
    return None


def do_stop(game: GameState, a: StopEffect) -> None:
    if game.prompt.kind is PromptKind.DESERTER_PLACE:
        game.deserter = None
    if game.prompt.kind is PromptKind.COMMERCIAL_HARBOR:
        game.harbor_done = []
    turnflow.pending_done(game)


def check_remove_knight(game: GameState, a: RemoveKnight) -> str | None:
    if not 0 <= a.node < NODE_COUNT or game.knight_owner[a.node] != a.player:
        return f"you have no knight on intersection {a.node}"
    return None


def deserter_level(game: GameState, p: int, level: int) -> int:
    """The level of knight the Deserter lets ``p`` place: the removed one's, else basic, else
    0 when no token is free (§10)."""
    if game.knights_at_level(p, level) < KNIGHTS_PER_LEVEL:
        return level
    if game.knights_at_level(p, 1) < KNIGHTS_PER_LEVEL:
        return 1
    return 0


def _remove_knight_button(game: GameState, a: RemoveKnight, _names: Sequence[str]) -> str:
    """Which knight, as the victim finds it on the board (a phone has no board to tap)."""
    level = KNIGHT_NAMES[game.knight_level[a.node]]
    side = "active" if game.knight_active[a.node] else "inactive"
    return f"Remove the {level} knight ({side}) {place_words(game, a.node)}"


def do_remove_knight(game: GameState, a: RemoveKnight) -> None:
    _owner, level, active, _flags = knights.lift_knight(game, a.node)
    ops.roads_changed_at(game, a.node)
    game.card_target = NOBODY
    place = deserter_level(game, game.active, level)
    if place and knights.knight_spots(game, game.active):
        game.deserter = (place, active)
        game.pending.insert(1, Prompt(PromptKind.DESERTER_PLACE, game.active))
    turnflow.pending_done(game)


def check_place_deserter(game: GameState, a: PlaceDeserter) -> str | None:
    if a.node not in knights.knight_spots(game, a.player):
        return f"the knight goes on a free intersection at one of your roads; {a.node} is not"
    return None


def do_place_deserter(game: GameState, a: PlaceDeserter) -> None:
    assert game.deserter is not None
    level, active = game.deserter
    game.deserter = None
    knights.place_knight(game, a.player, a.node, level, active, 0)
    ops.roads_changed_at(game, a.node)
    turnflow.pending_done(game)


def check_give(game: GameState, a: GiveCard) -> str | None:
    if game.hands[a.player][a.card] == 0:
        return f"you hold no {a.card.label}"
    if game.prompt.kind is PromptKind.HARBOR_ANSWER and a.card.is_resource:
        return "Commercial Harbor is answered with a commodity (§10)"
    return None


def do_give(game: GameState, a: GiveCard) -> None:
    game.hands[a.player][a.card] -= 1
    game.hands[game.active][a.card] += 1
    if game.prompt.kind is PromptKind.WEDDING_GIVE:
        turnflow.pending_step_done(game)
        return
    offered = game.harbor_offer
    assert offered is not None
    game.hands[game.active][offered] -= 1
    game.hands[a.player][offered] += 1
    _harbor_next(game)


def check_harbor(game: GameState, a: HarborExchange) -> str | None:
    if a.to not in _seat_order_from_active(game):
        return f"Commercial Harbor exchanges with an opponent, not {a.to}"
    if a.to in game.harbor_done:
        return "Commercial Harbor: each opponent once (§10)"
    if not a.card.is_resource:
        return "Commercial Harbor: you give a resource (§10)"
    if not game.hands[a.player][a.card]:
        return f"you hold no {a.card.label}"
    return None


def do_harbor(game: GameState, a: HarborExchange) -> None:
    """The opponent answers with a commodity of their choice; with none the exchange is void."""
    game.harbor_done.append(a.to)
    if any(game.hands[a.to][c] for c in COMMODITIES):
        game.harbor_offer = a.card
        game.card_target = a.to
        game.pending.insert(0, Prompt(PromptKind.HARBOR_ANSWER, a.to))
        game.prompt = game.pending[0]
        return
    _harbor_next(game, answered=False)


def _harbor_next(game: GameState, *, answered: bool = True) -> None:
    """After one exchange: back to the player, or done when every opponent had their turn."""
    if answered:
        game.pending.pop(0)  # the answer
    game.harbor_offer = None
    game.card_target = NOBODY
    if len(game.harbor_done) == game.player_count - 1:
        game.harbor_done = []
        turnflow.pending_done(game)
    else:
        turnflow.next_prompt(game)


def check_take_progress(game: GameState, a: TakeProgressCard) -> str | None:
    if a.card not in game.progress_hands[game.card_target]:
        return f"player {game.card_target} holds no {a.card.title} (VP cards are never taken)"
    return None


def do_take_progress(game: GameState, a: TakeProgressCard) -> None:
    game.progress_hands[game.card_target].remove(a.card)
    ops.add_to_progress_hand(game.progress_hands[a.player], a.card)
    game.card_target = NOBODY
    turnflow.pending_done(game)


def check_take_card(game: GameState, a: TakeCard) -> str | None:
    if not game.hands[game.card_target][a.card]:
        return f"player {game.card_target} holds no {a.card.label}"
    return None


def do_take_card(game: GameState, a: TakeCard) -> None:
    game.hands[game.card_target][a.card] -= 1
    game.hands[a.player][a.card] += 1
    if game.pending[0].count <= 1:
        game.card_target = NOBODY
    turnflow.pending_step_done(game)


# ---- what one player may see (hidden information) ------------------------------------------------


_PLAY_SUMMARY: dict[type[Action], str] = {
    PlayProgress: "play a progress card",
    PlayAlchemist: "Alchemist: choose the production dice",
    PlayCrane: "Crane: a city improvement one commodity cheaper",
    PlayEngineer: "Engineer: a free city wall",
    PlayInventor: "Inventor: swap two number tokens",
    PlayMedicine: "Medicine: a city for 2 ore + 1 grain",
    PlayBishop: "Bishop: move the robber, steal from each player there",
    PlayDeserter: "Deserter: an opponent removes a knight",
    PlayDiplomat: "Diplomat: remove an open road",
    PlayIntrigue: "Intrigue: displace a knight on your road",
    PlaySpy: "Spy: take a progress card",
    PlayMasterMerchant: "Master Merchant: take 2 cards",
    PlayMerchant: "Merchant: 2:1 trade of a hex's resource",
    PlayMerchantFleet: "Merchant Fleet: 2:1 trade of one card this turn",
    PlayResourceMonopoly: "Resource Monopoly",
    PlayTradeMonopoly: "Trade Monopoly",
}


# ---- words: the buttons and the log ------------------------------------------------------------


def _at(spot: str, field: str) -> Button:
    """The button of a card played on a spot of the board: its summary and the spot."""

    def button(game: GameState, a: Any, names: Sequence[str]) -> str:
        return f"{capitalised(_PLAY_SUMMARY[type(a)])} at {spot} {getattr(a, field)}"

    return button


def _on_victim(
    game: GameState, a: PlayDeserter | PlaySpy | PlayMasterMerchant, names: Sequence[str]
) -> str:
    return f"{card_of(a).title}: {names[a.victim]}"


_PLAY_BUTTON: dict[type[Action], Button] = {
    PlayProgress: lambda g, a, names: f"Play {a.card.title}",
    PlayAlchemist: lambda g, a, names: f"Alchemist: yellow {a.yellow}, red {a.red}",
    PlayCrane: lambda g, a, names: f"Crane: improve {a.track.value}",
    PlayEngineer: _at("node", "node"),
    PlayInventor: lambda g, a, names: f"Inventor: swap the tokens of hexes {a.hex} and {a.other}",
    PlayMedicine: _at("node", "node"),
    PlayBishop: _at("hex", "hex"),
    PlayDeserter: _on_victim,
    PlayDiplomat: _at("edge", "edge"),
    PlayIntrigue: _at("node", "node"),
    PlaySpy: _on_victim,
    PlayMasterMerchant: _on_victim,
    PlayMerchant: _at("hex", "hex"),
    PlayMerchantFleet: lambda g, a, names: f"Merchant Fleet: {a.card.label} 2:1",
    PlayResourceMonopoly: lambda g, a, names: f"Monopoly on {a.card.label}",
    PlayTradeMonopoly: lambda g, a, names: f"Monopoly on {a.card.label}",
}

_PLAY_WHAT: dict[type[Action], Callable[[Telling, Any], str]] = {
    PlayProgress: lambda t, a: "",
    PlayAlchemist: lambda t, a: f": yellow {a.yellow}, red {a.red}",
    PlayCrane: lambda t, a: (
        f": {a.track.value} to level {t.game.improvements[a.player][a.track.index]}"
    ),
    PlayEngineer: lambda t, a: " " + place_words(t.game, a.node),
    PlayInventor: lambda t, a: f": swaps the numbers of hex {a.hex} and hex {a.other}",
    PlayMedicine: lambda t, a: " " + place_words(t.game, a.node),
    PlayBishop: lambda t, a: f" on {hex_words(t.game, a.hex)}",
    PlayDeserter: lambda t, a: f" on {t.who(a.victim)}",
    PlayDiplomat: lambda t, a: ": a road goes",
    PlayIntrigue: lambda t, a: " " + place_words(t.game, a.node),
    PlaySpy: lambda t, a: f" on {t.who(a.victim)}",
    PlayMasterMerchant: lambda t, a: f" on {t.who(a.victim)}",
    PlayMerchant: lambda t, a: f" on {hex_words(t.game, a.hex)}",
    PlayMerchantFleet: lambda t, a: f": {a.card.label} 2:1 this turn",
    PlayResourceMonopoly: lambda t, a: f" on {a.card.label}",
    PlayTradeMonopoly: lambda t, a: f" on {a.card.label}",
}
"""What follows "Red plays <card>" in the log."""


def play_told(t: Telling, a: Action) -> list[Line]:
    """A progress card played: its name is public once played (§9); the cards it moved in the
    open (monopolies, harvests) seat by seat, the cards the Bishop stole privately."""
    p = a.player
    lines = [
        Line(LineKind.PROGRESS, f"{t.who(p)} plays {card_of(a).title}{_PLAY_WHAT[type(a)](t, a)}")
    ]
    lines.extend(steal_lines(t))
    for q in range(len(t.names)):
        moved = t.received(q) if q == p else t.given(q)
        if any(moved):
            verb = "gets" if q == p else "gives"
            lines.append(Line(LineKind.CARDS, f"{t.who(q)} {verb} {hand_words(moved)}"))
    return lines


def discard_progress_told(t: Telling, a: DiscardProgressCard) -> list[Line]:
    who = t.who(a.player)
    return [
        Line(
            LineKind.CARDS,
            f"{who} puts a progress card back",
            frozenset({a.player}),
            f"{who} puts {a.card.title} back",
        )
    ]


def take_progress_told(t: Telling, a: TakeProgressCard) -> list[Line]:
    """The Spy's take: which card only for the spy and the one robbed."""
    who, victim = t.who(a.player), t.prior.card_target
    return [
        Line(
            LineKind.CARDS,
            f"{who} takes a progress card from {t.who(victim)}",
            frozenset({a.player, victim}),
            f"{who} takes {a.card.title} from {t.who(victim)}",
        )
    ]


def give_told(t: Telling, a: GiveCard) -> list[Line]:
    """A Wedding gift or a Commercial Harbor answer, to the player on turn."""
    who, to = t.who(a.player), t.prior.active
    return [
        Line(
            LineKind.CARDS,
            f"{who} gives {t.who(to)} a card",
            frozenset({a.player, to}),
            f"{who} gives {t.who(to)} 1 {a.card.label}",
        )
    ]


def take_card_told(t: Telling, a: TakeCard) -> list[Line]:
    """The Master Merchant's take."""
    who, victim = t.who(a.player), t.prior.card_target
    return [
        Line(
            LineKind.CARDS,
            f"{who} takes a card from {t.who(victim)}",
            frozenset({a.player, victim}),
            f"{who} takes 1 {a.card.label} from {t.who(victim)}",
        )
    ]


def harbor_told(t: Telling, a: HarborExchange) -> list[Line]:
    """The resource offered is private to both until the answer; without a commodity to
    answer with, nothing moves (§10)."""
    who, to = t.who(a.player), t.who(a.to)
    if t.game.harbor_offer is None:
        return [Line(LineKind.CARDS, f"{to} holds no commodity: nothing moves")]
    return [
        Line(
            LineKind.CARDS,
            f"{who} offers {to} a resource",
            frozenset({a.player, a.to}),
            f"{who} offers {to} 1 {a.card.label}",
        )
    ]


_PLAY_PROMPTS = (PromptKind.ROLL, PromptKind.TURN)
_STOP_PROMPTS = (
    PromptKind.FREE_ROAD,
    PromptKind.SMITH,
    PromptKind.DESERTER_PLACE,
    PromptKind.COMMERCIAL_HARBOR,
)

RULES = (
    *(
        ActionRule(
            t,
            check_play,
            do_play,
            _PLAY_PROMPTS,
            _PLAY_SUMMARY[t],
            button=_PLAY_BUTTON[t],
            told=play_told,
        )
        for t in PLAY_TYPES
    ),
    ActionRule(
        DiscardProgressCard,
        check_discard_progress,
        do_discard_progress,
        (PromptKind.PROGRESS_DISCARD,),
        "discard a progress card",
        button=lambda g, a, names: f"Discard {a.card.title}",
        told=discard_progress_told,
    ),
    ActionRule(
        TakeProgressCard,
        check_take_progress,
        do_take_progress,
        (PromptKind.SPY,),
        "take a card",
        button=lambda g, a, names: f"Take {a.card.title}",
        told=take_progress_told,
    ),
    ActionRule(
        GiveCard,
        check_give,
        do_give,
        (PromptKind.WEDDING_GIVE, PromptKind.HARBOR_ANSWER),
        "give a card",
        button=lambda g, a, names: f"Give 1 {a.card.label}",
        told=give_told,
    ),
    ActionRule(
        TakeCard,
        check_take_card,
        do_take_card,
        (PromptKind.MASTER_MERCHANT,),
        "take a card",
        button=lambda g, a, names: f"Take 1 {a.card.label}",
        told=take_card_told,
    ),
    ActionRule(
        HarborExchange,
        check_harbor,
        do_harbor,
        (PromptKind.COMMERCIAL_HARBOR,),
        "offer a resource for a commodity",
        button=lambda g, a, names: f"Offer 1 {a.card.label} to {names[a.to]}",
        told=harbor_told,
    ),
    ActionRule(
        RemoveKnight,
        check_remove_knight,
        do_remove_knight,
        (PromptKind.DESERTER_REMOVE,),
        "remove a knight",
        button=_remove_knight_button,
        told=lambda t, a: [
            Line(
                LineKind.KNIGHT,
                f"{t.who(a.player)} removes a knight {place_words(t.game, a.node)}",
            )
        ],
    ),
    ActionRule(
        PlaceDeserter,
        check_place_deserter,
        do_place_deserter,
        (PromptKind.DESERTER_PLACE,),
        "place the deserter's knight",
        button=lambda g, a, names: f"Place the deserter's knight at node {a.node}",
        told=lambda t, a: [
            Line(
                LineKind.KNIGHT,
                f"{t.who(a.player)} places the deserter {place_words(t.game, a.node)}",
            )
        ],
    ),
    ActionRule(
        StopEffect,
        check_stop,
        do_stop,
        _STOP_PROMPTS,
        "stop the card's effect",
        button=lambda g, a, names: "Stop here",
        told=lambda t, a: [Line(LineKind.PROGRESS, f"{t.who(a.player)} stops there")],
    ),
)
OPTIONS: dict[PromptKind, Options] = {
    PromptKind.PROGRESS_DISCARD: _progress_discard_options,
    PromptKind.FREE_ROAD: _free_road_options,
    PromptKind.SMITH: _smith_options,
    PromptKind.DESERTER_REMOVE: _deserter_remove_options,
    PromptKind.DESERTER_PLACE: _deserter_place_options,
    PromptKind.WEDDING_GIVE: _wedding_options,
    PromptKind.COMMERCIAL_HARBOR: _harbor_options,
    PromptKind.HARBOR_ANSWER: _harbor_answer_options,
    PromptKind.SPY: _spy_options,
    PromptKind.MASTER_MERCHANT: _master_merchant_options,
}
