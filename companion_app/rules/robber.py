"""The robber (§3.4, §8): a 7's discards, moving the robber, stealing a card.

Until the first barbarian attack the robber stays in the desert and a 7 only makes players
over their limit discard (§8).
"""

from __future__ import annotations

from companion_app.rules import operations as ops
from companion_app.rules import turnflow
from companion_app.rules.actions import Action, DiscardCard, MoveRobber, StealFrom
from companion_app.rules.cards import CARD_KINDS, Card
from companion_app.rules.config import MAX_PLAYERS
from companion_app.rules.declare import ActionRule, CardPick, Options, PickedHand, PromptRule
from companion_app.rules.events import Steal
from companion_app.rules.messages import N_, Msg, msg
from companion_app.rules.prompts import Prompt, PromptKind, Stage
from companion_app.rules.seamap import MAX_HEXES
from companion_app.rules.state import ALL_CARDS, GameState
from companion_app.rules.words import Line, LineKind, Telling, hex_words, steal_lines

_MAX_SEATS = MAX_PLAYERS
_CARDS = tuple(Card)
_DISCARD = [[DiscardCard(p, c) for c in _CARDS] for p in range(_MAX_SEATS)]
_ROBBER = [[MoveRobber(p, h) for h in range(MAX_HEXES)] for p in range(_MAX_SEATS)]
_STEAL = [[StealFrom(p, v) for v in range(_MAX_SEATS)] for p in range(_MAX_SEATS)]


def start_seven(game: GameState) -> None:
    """On a 7: discards over the limit, in seat order from the roller (§3.4)."""
    game.last_production = ()
    for p in game.seat_order():
        count = game.card_count(p)
        if count > game.discard_limit(p):
            game.pending.append(Prompt(PromptKind.DISCARD, p, count // 2))
    game.stage = Stage.DISCARD
    turnflow.next_prompt(game)


def robbable(game: GameState, hex_: int) -> list[int]:
    """The other players, in seat order from the active one, with a building on ``hex_``
    and cards to lose (§8)."""
    corners = game.topology.hex_nodes[hex_]
    owner = game.node_owner
    return [
        q
        for q in game.seat_order()[1:]
        if game.card_count(q) and any(owner[node] == q for node in corners)
    ]


def steal_random(game: GameState, victim: int, thief: int) -> Card:
    """One random resource/commodity card (seeded): progress cards are never stolen (§8)."""
    hand = game.hands[victim]
    pick = game.rng.below(sum(hand))
    for c in range(CARD_KINDS):
        if pick < hand[c]:
            hand[c] -= 1
            game.hands[thief][c] += 1
            card = Card(c)
            game.events.append(Steal(thief, victim, card))
            return card
        pick -= hand[c]
    raise AssertionError("unreachable: pick is below the hand's size")  # pragma: no cover


def check_discard(game: GameState, a: DiscardCard) -> Msg | None:
    if game.hands[a.player][a.card] == 0:
        return msg("you hold no {card} to discard", card=a.card.words)
    return None


def check_move_robber(game: GameState, a: MoveRobber) -> Msg | None:
    last = game.topology.hex_count - 1
    if not 0 <= a.hex <= last:
        return msg("hex {hex} does not exist (hexes are 0-{last})", hex=a.hex, last=last)
    if a.hex == game.robber_hex:
        return msg("the robber must move to another hex")
    if game.topology.hex_island[a.hex] is None:
        return msg("the robber stays on land; the sea has the pirate (§13.4)")
    if a.hex not in ops.robber_targets(game):
        return msg("a knight chases the robber to a hex with a number token (§6)")
    return None


def check_steal(game: GameState, a: StealFrom) -> Msg | None:
    if a.victim not in game.victims:
        return msg(
            "player {victim} has no building next to the robber or no cards", victim=a.victim
        )
    return None


def do_discard(game: GameState, a: DiscardCard) -> None:
    game.hands[a.player][a.card] -= 1
    game.bank[a.card] += 1
    turnflow.pending_step_done(game)


def do_move_robber(game: GameState, a: MoveRobber) -> None:
    game.robber_hex = a.hex
    game.victims = tuple(robbable(game, a.hex))
    game.robber_by_knight = False
    if game.victims:
        game.prompt = Prompt(PromptKind.CHOOSE_VICTIM, game.active)
    else:
        turnflow.next_prompt(game)


def do_steal(game: GameState, a: StealFrom) -> None:
    steal_random(game, a.victim, a.player)
    game.victims = ()
    turnflow.next_prompt(game)


def discard_options(game: GameState, p: int) -> list[Action]:
    hand = game.hands[p]
    return [_DISCARD[p][c] for c in ALL_CARDS if hand[c]]


def robber_options(game: GameState, p: int) -> list[Action]:
    return [_ROBBER[p][h] for h in ops.robber_targets(game)]


def victim_options(game: GameState, p: int) -> list[Action]:
    return [_STEAL[p][v] for v in game.victims]


def discard_told(t: Telling, a: DiscardCard) -> list[Line]:
    """Discards go face up to the bank: public."""
    return [
        Line(
            LineKind.DISCARD,
            msg("{player} discarded {card}", player=t.who(a.player), card=a.card.counted(1)),
        )
    ]


def move_robber_told(t: Telling, a: MoveRobber) -> list[Line]:
    text = msg(
        "{player} moves the robber to {hex}", player=t.who(a.player), hex=hex_words(t.game, a.hex)
    )
    return [Line(LineKind.ROBBER, text)]


RULES = (
    ActionRule(
        DiscardCard,
        check_discard,
        do_discard,
        (PromptKind.DISCARD,),
        msg("discard a card"),
        button=lambda g, a, names: msg("Discard {card}", card=a.card.counted(1)),
        told=discard_told,
    ),
    ActionRule(
        MoveRobber,
        check_move_robber,
        do_move_robber,
        (PromptKind.MOVE_ROBBER,),
        msg("move the robber"),
        button=lambda g, a, names: msg("Move the robber at hex {hex}", hex=a.hex),
        told=move_robber_told,
    ),
    ActionRule(
        StealFrom,
        check_steal,
        do_steal,
        (PromptKind.CHOOSE_VICTIM,),
        msg("steal a card"),
        button=lambda g, a, names: msg("Steal from {victim}", victim=names[a.victim]),
        told=lambda t, a: steal_lines(t),
    ),
)
OPTIONS: dict[PromptKind, Options] = {
    PromptKind.DISCARD: discard_options,
    PromptKind.MOVE_ROBBER: robber_options,
    PromptKind.CHOOSE_VICTIM: victim_options,
}
PROMPTS = (
    PromptRule(
        PromptKind.DISCARD,  # a 7, or a Saboteur
        N_("discard {cards}"),
        private=True,
        phone=True,
        picker=CardPick(PickedHand.OWN, N_("Discard"), suggested=True),
        shown=N_("Your cards: {cards}"),
        phone_details=N_("You hold {held}."),
    ),
    PromptRule(PromptKind.MOVE_ROBBER, N_("move the robber")),
    PromptRule(PromptKind.CHOOSE_VICTIM, N_("choose whom to steal from")),
)
