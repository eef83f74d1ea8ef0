"""The game in words for the shared screen, without Kivy: the top bar (roll, production, bank,
turn), the setup's placement order, each action as a button says it, and the decision due
(who decides, what the table may see of it).

``describe_action`` is the one place an action is put into words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion_app.app.board_picture import RGBA, action_spot, player_colour
from companion_app.game_log import GameLog, production_words
from companion_app.rules.actions import (
    AcceptTrade,
    Action,
    BankTrade,
    BuyImprovement,
    ChooseProgressDeck,
    CommitKnights,
    DeclineTrade,
    DiscardCard,
    DiscardProgressCard,
    DisplaceKnight,
    EndTurn,
    EventDie,
    GiveCard,
    HarborExchange,
    MoveKnight,
    OfferTrade,
    PlayAlchemist,
    PlayCrane,
    PlayDeserter,
    PlayInventor,
    PlayMasterMerchant,
    PlayMerchantFleet,
    PlayProgress,
    PlayResourceMonopoly,
    PlaySpy,
    PlayTradeMonopoly,
    Roll,
    StealFrom,
    StopEffect,
    TakeCard,
    TakeProgressCard,
    TakeResource,
)
from companion_app.rules.cards import (
    CARD_KINDS,
    Card,
)
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind, counted
from companion_app.rules.topology import (
    NODE_HEXES,
)

# ---- the top bar ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollView:
    yellow: int
    red: int
    event: EventDie
    total: int
    words: str


def roll_view(game: Game) -> RollView | None:
    roll = game.last_roll
    if roll is None:
        return None
    words = f"{roll.yellow} + {roll.red} = {roll.total}, {EVENT_WORDS[roll.event]}"
    return RollView(roll.yellow, roll.red, roll.event, roll.total, words)


def production_lines(game: Game, log: GameLog) -> list[str]:
    """Who got what from the roll shown, every seat in seat order, with the robber's and the
    bank's reasons; a 7, or production held back by the barbarians, says so. The same roll's
    words stay after End turn (the log keeps the report until the next roll)."""
    report = log.last_roll
    if report is None:
        return []
    return production_words(game.config.names, report)


def bank_words(game: Game) -> str:
    """The bank's stock, every card kind: what production and trades can still pay."""
    stock = [f"{game.bank[c]} {Card(c).label}" for c in range(CARD_KINDS)]
    return "\n".join(" · ".join(stock[i : i + 2]) for i in range(0, len(stock), 2))


def turn_words(game: Game) -> str:
    """Whose turn it is: the setup round, or the turn number and the player on turn."""
    names = game.config.names
    if game.in_setup:
        round_no = 1 if game.prompt.kind is PromptKind.SETUP_SETTLEMENT else 2
        if game.prompt.kind is PromptKind.SETUP_ROAD:
            round_no = 1 if game.setup_step < 2 * game.player_count else 2
        return f"Setup round {round_no} · {names[game.prompt.player]}"
    if game.is_over:
        return f"Game over · {names[game.winner]} won"
    return f"Turn {game.turn + 1} · {names[game.active]}"


@dataclass(frozen=True, slots=True)
class PlacementStep:
    seat: int
    name: str
    piece: str
    """"settlement + road" (round 1) or "city + road" (round 2)."""
    state: str
    """"done", "now" or "next"."""
    note: str = ""
    """For a starting city placed: the starting resources it brought (§2)."""


def placement_order(game: Game) -> list[PlacementStep]:
    """The setup order (§2): seats in order with a settlement, then in reverse with a city.

    The rules core decides who places; this list is only the overview, and the test checks
    its "now" step against ``game.prompt.player``.
    """
    seats = list(game.seats)
    names = game.config.names
    order = [(s, "settlement + road") for s in seats] + [(s, "city + road") for s in seats[::-1]]
    current = game.setup_step // 2 if game.in_setup else len(order)
    steps = []
    for i, (seat, piece) in enumerate(order):
        state = "done" if i < current else "now" if i == current else "next"
        note = ""
        if piece.startswith("city") and state == "done" and game.in_setup:
            # Nothing but the starting city gives cards during setup: the hand is what it gave.
            note = "got " + hand_words(game.hand(seat))
        steps.append(PlacementStep(seat, names[seat], piece, state, note))
    return steps


def barbarian_track(game: Game) -> tuple[int, int]:
    """(ship position, spaces): the same two numbers the dice box's LEDs show."""
    return game.barbarian_position, game.config.barbarian_track_length


# ---- buttons for the actions not chosen on the board ------------------------------------------


def describe_action(game: Game, action: Action) -> str:
    """Button words for an action, in the game's own terms."""
    names = game.config.names
    if isinstance(action, EndTurn):
        return "End turn"
    if isinstance(action, BankTrade):
        rate = game.trade_rate(action.player, action.give)
        return f"Trade {rate} {action.give.label} for 1 {action.take.label}"
    if isinstance(action, DiscardCard):
        return f"Discard 1 {action.card.label}"
    if isinstance(action, StealFrom):
        return f"Steal from {names[action.victim]}"
    if isinstance(action, BuyImprovement):
        return f"Improve {action.track.value}"
    if isinstance(action, ChooseProgressDeck):
        return f"Draw from the {action.track.value} deck"
    if isinstance(action, TakeResource):
        return f"Take 1 {action.card.label}"
    if isinstance(action, CommitKnights):
        return (
            f"Commit {counted(len(action.nodes), 'knight')}"
            if action.nodes
            else "Commit no knights"
        )
    if isinstance(action, MoveKnight | DisplaceKnight):
        verb = "Move" if isinstance(action, MoveKnight) else "Displace with"
        return f"{verb} knight {action.node} → {action.to}"
    if isinstance(action, Roll):
        return f"Roll {action.yellow}+{action.red} {action.event.value}"
    if isinstance(action, PlayProgress):
        return f"Play {action.card.title}"
    if isinstance(action, PlayCrane):
        return f"Crane: improve {action.track.value}"
    if isinstance(action, PlayDeserter | PlaySpy | PlayMasterMerchant):
        return f"{card_title(action)}: {names[action.victim]}"
    if isinstance(action, PlayMerchantFleet):
        return f"Merchant Fleet: {action.card.label} 2:1"
    if isinstance(action, PlayResourceMonopoly | PlayTradeMonopoly):
        return f"Monopoly on {action.card.label}"
    if isinstance(action, DiscardProgressCard):
        return f"Discard {action.card.title}"
    if isinstance(action, TakeProgressCard):
        return f"Take {action.card.title}"
    if isinstance(action, GiveCard):
        return f"Give 1 {action.card.label}"
    if isinstance(action, TakeCard):
        return f"Take 1 {action.card.label}"
    if isinstance(action, HarborExchange):
        return f"Offer 1 {action.card.label} to {names[action.to]}"
    if isinstance(action, StopEffect):
        return "Stop here"
    if isinstance(action, AcceptTrade):
        return "Accept the trade"
    if isinstance(action, DeclineTrade):
        return "Decline"
    if isinstance(action, PlayAlchemist):
        return f"Alchemist: yellow {action.yellow}, red {action.red}"
    if isinstance(action, PlayInventor):
        return f"Inventor: swap the tokens of hexes {action.hex} and {action.other}"
    from companion_app.rules.registry import summary  # the rules core's words for the action

    spot = action_spot(action)
    words = summary(action)
    what = words[:1].upper() + words[1:]
    if spot is not None:
        return f"{what} at {spot[0]} {spot[1]}"
    return what


def hand_words(hand: Sequence[int], *, sign: str = "") -> str:
    """``"2 brick, 1 ore"`` (``"+2 brick"`` with a sign); ``"nothing"`` for an empty hand."""
    parts = [f"{sign}{n} {Card(c).label}" for c, n in enumerate(hand) if n]
    return ", ".join(parts) if parts else "nothing"


EVENT_WORDS: dict[EventDie, str] = {
    EventDie.SHIP: "ship",
    EventDie.TRADE: "yellow castle",
    EventDie.POLITICS: "blue castle",
    EventDie.SCIENCE: "green castle",
}

KNIGHT_NAMES = {1: "basic", 2: "strong", 3: "mighty"}


def place_words(game: Game, node: int) -> str:
    """An intersection as the table finds it: by the numbers of its hexes ("by 8, 3, 5")."""
    tokens = [game.tokens[h] for h in NODE_HEXES[node] if game.tokens[h] is not None]
    if not tokens:
        return "on the coast"
    return "by " + ", ".join(str(t) for t in tokens)


def knight_words(game: Game, node: int) -> str:
    level = KNIGHT_NAMES.get(game.knight_level[node], "")
    state = "active" if game.knight_active[node] else "inactive"
    return f"{level} knight ({state}) {place_words(game, node)}"


def card_title(action: Action) -> str:
    from companion_app.rules.progress import card_of

    return card_of(action).title


# ---- prompts: who decides, and what they see ------------------------------------------------

HIDDEN_CARD_PROMPTS = frozenset(
    {
        PromptKind.DISCARD,
        PromptKind.WEDDING_GIVE,
        PromptKind.HARBOR_ANSWER,
        PromptKind.PROGRESS_DISCARD,
        PromptKind.SPY,
        PromptKind.MASTER_MERCHANT,
    }
)
"""Prompts where the decider picks among hidden cards: theirs, or the victim's they may see."""


@dataclass(frozen=True, slots=True)
class PromptView:
    player: int
    name: str
    colour: RGBA
    headline: str
    """In big letters: "Pass the tablet to Blue", or "Red: your turn"."""
    words: str
    """The rules core's words for the decision (``describe_prompt``)."""
    hides_cards: bool
    """The cards to choose from are shown only after the decider taps "Show my cards"."""
    details: str
    """The offer to answer, the cards in question once revealed."""


def prompt_view(game: Game, revealed: bool = False) -> PromptView:
    prompt = game.prompt
    p = prompt.player
    names = game.config.names
    own_turn = p == game.active and prompt.kind in (PromptKind.TURN, PromptKind.ROLL)
    if game.is_over:
        headline = f"{names[game.winner]} has won!"
    elif holds_tablet(game) != p:
        headline = f"Pass the tablet to {names[p]}"
    elif own_turn:
        headline = f"{names[p]}: your turn"
    else:
        headline = f"{names[p]} decides"
    hides = prompt.kind in HIDDEN_CARD_PROMPTS
    details = ""
    if prompt.kind is PromptKind.TRADE_RESPONSE and game.offer is not None:
        offer = game.offer
        details = (
            f"{names[offer.player]} offers {hand_words(offer.give)} for {hand_words(offer.take)}"
        )
    elif hides and revealed:
        details = f"Your cards: {hand_words(game.hand(p))}"
        if prompt.kind is PromptKind.PROGRESS_DISCARD:
            details = "Your progress cards: " + card_list(game.progress_hands[p])
        if prompt.kind is PromptKind.SPY:
            details = f"{names[game.card_target]}'s progress cards: " + card_list(
                game.progress_hands[game.card_target]
            )
        if prompt.kind is PromptKind.MASTER_MERCHANT:
            details = f"{names[game.card_target]}'s cards: " + hand_words(
                game.hand(game.card_target)
            )
    elif prompt.kind is PromptKind.HARBOR_ANSWER and game.harbor_offer is not None:
        details = f"{names[game.active]} gives you 1 {game.harbor_offer.label}"
    elif not own_turn and not game.is_over:
        # What the decision is, in full (the top bar may have to shorten it).
        details = game.describe_prompt().split(": ", 1)[-1]
    return PromptView(
        p,
        names[p],
        player_colour(game.config.players[p].colour),
        headline,
        game.describe_prompt(),
        hides,
        details,
    )


def holds_tablet(game: Game) -> int:
    """Who has the tablet now: the player who took the last action (the first placer at the
    start)."""
    return game.history[-1].player if game.history else game.prompt.player


def card_list(cards: Iterable[object]) -> str:
    titles = [getattr(c, "title", str(c)) for c in cards]
    return ", ".join(titles) if titles else "none"


# ---- domestic trade -----------------------------------------------------------------------------


def offer_words(game: Game, offer: OfferTrade) -> str:
    """The offer as the table reads it; the rules core's objection when it is not legal."""
    reason = game.illegal_reason(offer)
    names = game.config.names
    text = f"To {names[offer.to]}: give {hand_words(offer.give)}, get {hand_words(offer.take)}"
    return text if reason is None else reason
