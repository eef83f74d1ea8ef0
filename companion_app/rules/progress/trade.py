"""The trade deck (yellow, §10): each card declared whole, and the follow-ups of the
Commercial Harbor and the Master Merchant."""

from __future__ import annotations

from companion_app.rules import turnflow
from companion_app.rules.actions import (
    Action,
    GiveCard,
    HarborExchange,
    PlayMasterMerchant,
    PlayMerchant,
    PlayMerchantFleet,
    PlayProgress,
    PlayResourceMonopoly,
    PlayTradeMonopoly,
    TakeCard,
    reused,
)
from companion_app.rules.cards import (
    COMMODITIES,
    RESOURCES,
    TERRAIN_RESOURCE,
    Card,
    ProgressCard,
    Terrain,
    Track,
)
from companion_app.rules.declare import ActionRule, CardPick, Options, PickedHand, PromptRule
from companion_app.rules.events import CardsMoved
from companion_app.rules.messages import N_, Msg, Nn_, msg
from companion_app.rules.pieces import NOBODY
from companion_app.rules.progress.shared import (
    CardRule,
    Stop,
    at_spot,
    on_victim,
    opponents_from_active,
    other_player_reason,
    others,
    plain_play,
)
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.state import GameState
from companion_app.rules.words import Line, LineKind, Telling, hex_words

DECK = Track.TRADE
RESOURCE_MONOPOLY_TAKE = 2
TRADE_MONOPOLY_TAKE = 1
MASTER_MERCHANT_TAKE = 2


# ---- Commercial Harbor ------------------------------------------------------------------------
# §10: to each opponent once this turn, at any point of the turn the card is played, between
# other actions: the player gives 1 resource, the opponent 1 commodity of their choice (none
# held: the exchange is void, and counts). The exchanges are turn actions while the card's
# harbor is open; the answer is the opponent's prompt.


def do_commercial_harbor(game: GameState, a: PlayProgress) -> None:
    """The harbor opens for the rest of the turn; whoever was asked this turn stays asked,
    however many Commercial Harbors are played (§10 ruling)."""
    game.harbor_open = True


COMMERCIAL_HARBOR = CardRule(
    ProgressCard.COMMERCIAL_HARBOR,
    DECK,
    2,
    PlayProgress,
    candidates=plain_play(ProgressCard.COMMERCIAL_HARBOR),
    effect=do_commercial_harbor,
)


def harbor_opponents(game: GameState) -> list[int]:
    """The opponents the player on turn may still ask (in seat order), none unless a
    Commercial Harbor was played this turn."""
    if not game.harbor_open:
        return []
    return sorted(q for q in opponents_from_active(game) if q not in game.harbor_done)


def harbor_exchanges(game: GameState, p: int) -> list[Action]:
    """The turn's exchanges: each opponent still to ask × each resource held."""
    if p != game.active:
        return []
    return [
        HarborExchange(p, q, c)
        for q in harbor_opponents(game)
        for c in RESOURCES
        if game.hands[p][c]
    ]


def harbor_answer_options(game: GameState, p: int) -> list[Action]:
    return [GiveCard(p, c) for c in COMMODITIES if game.hands[p][c]]


def check_harbor(game: GameState, a: HarborExchange) -> Msg | None:
    if not game.harbor_open:
        return msg("exchanges are made in the turn a Commercial Harbor is played (§10)")
    if a.to not in opponents_from_active(game):
        return msg("Commercial Harbor exchanges with an opponent, not {to}", to=a.to)
    if a.to in game.harbor_done:
        return msg("Commercial Harbor: each opponent once this turn (§10)")
    if not a.card.is_resource:
        return msg("Commercial Harbor: you give a resource (§10)")
    if not game.hands[a.player][a.card]:
        return msg("you hold no {card}", card=a.card.words)
    return None


def do_harbor(game: GameState, a: HarborExchange) -> None:
    """The opponent answers with a commodity of their choice; with none the exchange is void
    (and the opponent counts as asked)."""
    game.harbor_done.append(a.to)
    if any(game.hands[a.to][c] for c in COMMODITIES):
        game.harbor_offer = a.card
        game.card_target = a.to
        game.pending.insert(0, Prompt(PromptKind.HARBOR_ANSWER, a.to))
        game.prompt = game.pending[0]


def check_harbor_answer(game: GameState, a: GiveCard) -> Msg | None:
    if a.card.is_resource:
        return msg("Commercial Harbor is answered with a commodity (§10)")
    return None


def harbor_answered(game: GameState, a: GiveCard) -> None:
    """The commodity is given (by the give rule); the resource offered goes the other way,
    and the turn goes on."""
    offered = game.harbor_offer
    assert offered is not None
    game.hands[game.active][offered] -= 1
    game.hands[a.player][offered] += 1
    game.harbor_offer = None
    game.card_target = NOBODY
    turnflow.pending_done(game)


def stop_reason(game: GameState) -> Msg | None:
    """``stop_effect`` on the turn: the previous release's end of the exchanges, kept so its
    journals replay (``commercial_harbor`` → exchanges → ``stop_effect``)."""
    if not game.harbor_open:
        return msg("there is no card effect to stop now")
    return None


def stop_harbor(game: GameState) -> None:
    """As the previous release stopped: the harbor closes and who was asked is forgotten."""
    game.harbor_open = False
    game.harbor_done = []


def harbor_told(t: Telling, a: HarborExchange) -> list[Line]:
    """The resource offered is private to both until the answer; without a commodity to
    answer with, nothing moves (§10)."""
    who, to = t.who(a.player), t.who(a.to)
    if t.game.harbor_offer is None:
        return [Line(LineKind.CARDS, msg("{to} holds no commodity: nothing moves", to=to))]
    return [
        Line(
            LineKind.CARDS,
            msg("{who} offers {to} a resource", who=who, to=to),
            frozenset({a.player, a.to}),
            msg("{who} offers {to} {card}", who=who, to=to, card=a.card.counted(1)),
        )
    ]


# ---- Master Merchant ----------------------------------------------------------------------------


_MASTER_MERCHANT = reused(PlayMasterMerchant)


def master_merchant_reason(game: GameState, a: PlayMasterMerchant) -> Msg | None:
    reason = other_player_reason(game, a.player, a.victim)
    if reason:
        return reason
    if game.victory_points(a.victim) <= game.victory_points(a.player):
        return msg("Master Merchant targets a player with more VP than you (§10)")
    if not game.card_count(a.victim):
        return msg("player {victim} holds no resource or commodity cards", victim=a.victim)
    return None


def do_master_merchant(game: GameState, a: PlayMasterMerchant) -> None:
    game.card_target = a.victim
    take = min(MASTER_MERCHANT_TAKE, game.card_count(a.victim))
    game.pending.append(Prompt(PromptKind.MASTER_MERCHANT, a.player, take))


MASTER_MERCHANT = CardRule(
    ProgressCard.MASTER_MERCHANT,
    DECK,
    2,
    PlayMasterMerchant,
    candidates=lambda g, p: [
        _MASTER_MERCHANT(p, v)
        for v in sorted(others(g, p))
        if g.victory_points(v) > g.victory_points(p)
    ],
    check=master_merchant_reason,
    effect=do_master_merchant,
    summary=msg("Master Merchant: take 2 cards"),
    button=on_victim(ProgressCard.MASTER_MERCHANT),
    what=lambda t, a: msg(" on {victim}", victim=t.who(a.victim)),
)


def master_merchant_options(game: GameState, p: int) -> list[Action]:
    return [TakeCard(p, c) for c in Card if game.hands[game.card_target][c]]


def check_take_card(game: GameState, a: TakeCard) -> Msg | None:
    if not game.hands[game.card_target][a.card]:
        return msg(
            "player {card_target} holds no {card}", card_target=game.card_target, card=a.card.words
        )
    return None


def do_take_card(game: GameState, a: TakeCard) -> None:
    game.hands[game.card_target][a.card] -= 1
    game.hands[a.player][a.card] += 1
    if game.pending[0].count <= 1:
        game.card_target = NOBODY
    turnflow.pending_step_done(game)


def take_card_told(t: Telling, a: TakeCard) -> list[Line]:
    """The Master Merchant's take."""
    who, victim = t.who(a.player), t.prior.card_target
    return [
        Line(
            LineKind.CARDS,
            msg("{who} takes a card from {victim}", who=who, victim=t.who(victim)),
            frozenset({a.player, victim}),
            msg(
                "{who} takes {card} from {victim}",
                who=who,
                card=a.card.counted(1),
                victim=t.who(victim),
            ),
        )
    ]


# ---- Merchant, Merchant Fleet -------------------------------------------------------------------


def merchant_hexes(game: GameState, p: int) -> list[int]:
    """Land hexes with a resource next to one of the player's settlements or cities."""
    terrains = game.board.terrains
    hexes = {h for node in game.buildings_of[p] for h in game.topology.node_hexes[node]}
    return sorted(h for h in hexes if TERRAIN_RESOURCE[terrains[h]] is not None)


def merchant_reason(game: GameState, a: PlayMerchant) -> Msg | None:
    last = game.topology.hex_count - 1
    if not 0 <= a.hex <= last:
        return msg("hex {hex} does not exist (hexes are 0-{last})", hex=a.hex, last=last)
    terrain = game.board.terrains[a.hex]
    if terrain is Terrain.DESERT:
        return msg("the merchant goes on a hex with a resource, not the desert")
    if TERRAIN_RESOURCE[terrain] is None:  # a gold field, the sea (R19)
        return msg("the merchant goes on a land hex with a resource, never on gold or sea (R19)")
    owner = game.node_owner
    if all(owner[node] != a.player for node in game.topology.hex_nodes[a.hex]):  # merchant_hexes
        return msg("the merchant goes next to one of your settlements or cities (§10)")
    return None


def do_merchant(game: GameState, a: PlayMerchant) -> None:
    """The merchant moves here and to this player, whoever had it before (§10)."""
    previous = game.merchant_owner
    game.merchant_hex = a.hex
    game.merchant_owner = a.player
    if previous != NOBODY:
        game.update_trade_rates(previous)
    game.update_trade_rates(a.player)


_MERCHANT_SUMMARY = msg("Merchant: 2:1 trade of a hex's resource")
_MERCHANT = reused(PlayMerchant)
_MERCHANT_FLEET = reused(PlayMerchantFleet)
_RESOURCE_MONOPOLY = reused(PlayResourceMonopoly)
_TRADE_MONOPOLY = reused(PlayTradeMonopoly)


def merchant_plays(game: GameState, p: int) -> list[Action]:
    return [_MERCHANT(p, h) for h in merchant_hexes(game, p)]


MERCHANT = CardRule(
    ProgressCard.MERCHANT,
    DECK,
    6,
    PlayMerchant,
    candidates=merchant_plays,
    check=merchant_reason,
    plays=merchant_plays,  # a hex with a resource next to an own building passes the check
    effect=do_merchant,
    summary=_MERCHANT_SUMMARY,
    button=at_spot(_MERCHANT_SUMMARY, "hex", "hex"),
    what=lambda t, a: msg(" on {hex}", hex=hex_words(t.game, a.hex)),
)


def do_merchant_fleet(game: GameState, a: PlayMerchantFleet) -> None:
    if a.card not in game.fleet:
        game.fleet.append(a.card)
    game.update_trade_rates(a.player)


MERCHANT_FLEET = CardRule(
    ProgressCard.MERCHANT_FLEET,
    DECK,
    2,
    PlayMerchantFleet,
    candidates=lambda g, p: [_MERCHANT_FLEET(p, c) for c in Card],
    effect=do_merchant_fleet,
    summary=msg("Merchant Fleet: 2:1 trade of one card this turn"),
    button=lambda g, a, names: msg("Merchant Fleet: {card} 2:1", card=a.card.words),
    what=lambda t, a: msg(": {card} 2:1 this turn", card=a.card.words),
)


# ---- the monopolies -----------------------------------------------------------------------------


def monopoly(game: GameState, p: int, card: Card, most: int) -> None:
    for q in opponents_from_active(game):
        n = min(most, game.hands[q][card])
        game.hands[q][card] -= n
        game.hands[p][card] += n
        if n:
            game.events.append(CardsMoved(q, p, card.amount(n)))


def resource_monopoly_reason(game: GameState, a: PlayResourceMonopoly) -> Msg | None:
    if not a.card.is_resource:
        return msg("Resource Monopoly names a resource; Trade Monopoly is for commodities")
    return None


def trade_monopoly_reason(game: GameState, a: PlayTradeMonopoly) -> Msg | None:
    if a.card.is_resource:
        return msg("Trade Monopoly names a commodity (cloth, coin or paper)")
    return None


def resource_monopoly_plays(game: GameState, p: int) -> list[Action]:
    return [_RESOURCE_MONOPOLY(p, c) for c in RESOURCES]


def trade_monopoly_plays(game: GameState, p: int) -> list[Action]:
    return [_TRADE_MONOPOLY(p, c) for c in COMMODITIES]


RESOURCE_MONOPOLY = CardRule(
    ProgressCard.RESOURCE_MONOPOLY,
    DECK,
    4,
    PlayResourceMonopoly,
    candidates=resource_monopoly_plays,
    check=resource_monopoly_reason,
    plays=resource_monopoly_plays,  # every resource passes the check
    effect=lambda g, a: monopoly(g, a.player, a.card, RESOURCE_MONOPOLY_TAKE),
    summary=msg("Resource Monopoly"),
    button=lambda g, a, names: msg("Monopoly on {card}", card=a.card.words),
    what=lambda t, a: msg(" on {card}", card=a.card.words),
)
TRADE_MONOPOLY = CardRule(
    ProgressCard.TRADE_MONOPOLY,
    DECK,
    2,
    PlayTradeMonopoly,
    candidates=trade_monopoly_plays,
    check=trade_monopoly_reason,
    plays=trade_monopoly_plays,  # every commodity passes the check
    effect=lambda g, a: monopoly(g, a.player, a.card, TRADE_MONOPOLY_TAKE),
    summary=msg("Trade Monopoly"),
    button=lambda g, a, names: msg("Monopoly on {card}", card=a.card.words),
    what=lambda t, a: msg(" on {card}", card=a.card.words),
)


CARDS = (
    COMMERCIAL_HARBOR,
    MASTER_MERCHANT,
    MERCHANT,
    MERCHANT_FLEET,
    RESOURCE_MONOPOLY,
    TRADE_MONOPOLY,
)
RULES = (
    ActionRule(
        TakeCard,
        check_take_card,
        do_take_card,
        (PromptKind.MASTER_MERCHANT,),
        msg("take a card"),
        button=lambda g, a, names: msg("Take {card}", card=a.card.counted(1)),
        told=take_card_told,
    ),
    ActionRule(
        HarborExchange,
        check_harbor,
        do_harbor,
        (PromptKind.TURN,),
        msg("offer a resource for a commodity"),
        button=lambda g, a, names: msg(
            "Offer {card} to {to}", card=a.card.counted(1), to=names[a.to]
        ),
        told=harbor_told,
        private=True,
    ),
)
OPTIONS: dict[PromptKind, Options] = {
    PromptKind.HARBOR_ANSWER: harbor_answer_options,
    PromptKind.MASTER_MERCHANT: master_merchant_options,
}
STOPS: dict[PromptKind, Stop] = {PromptKind.TURN: (stop_reason, stop_harbor)}
GIVES = {PromptKind.HARBOR_ANSWER: (check_harbor_answer, harbor_answered)}
PROMPTS = (
    PromptRule(
        PromptKind.HARBOR_ANSWER,
        N_("Commercial Harbor: give a commodity of your choice"),
        private=True,
        phone=True,
        picker=CardPick(
            PickedHand.OWN,
            Nn_(
                "{player}: give {count} commodity to {active}",
                "{player}: give {count} commodities to {active}",
            ),
            N_("Give {cards}"),
            count=1,
            suggested=True,
        ),
        shown=N_("Your cards: {cards}"),
        details=N_("{active} gives you 1 {offered}"),
    ),
    PromptRule(
        PromptKind.MASTER_MERCHANT,
        Nn_("Master Merchant: take {count} card", "Master Merchant: take {count} cards"),
        private=True,  # the victim's hand, shown to the merchant only
        phone=True,
        picker=CardPick(
            PickedHand.TARGET,
            Nn_(
                "{player}: take {count} card from {target}'s hand",
                "{player}: take {count} cards from {target}'s hand",
            ),
            N_("Take {cards}"),
        ),
        shown=N_("{target}'s cards: {cards}"),
    ),
)
