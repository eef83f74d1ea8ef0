"""What every progress card shares (§9): the declaration of a card, drawing on a castle, the
hand limit, playing a card, the follow-up prompts of more than one deck, and the log's words
for a card played.

A card is declared once, in its deck's module, as a :class:`CardRule`: its deck and count, the
action that plays it, its candidates and check, its effect and its words. The package's
``__init__`` builds the decks, the play actions' rules and the legal plays from those
declarations.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion_app.rules import operations as ops
from companion_app.rules import ships, turnflow
from companion_app.rules.actions import (
    Action,
    BuildRoad,
    DiscardProgressCard,
    GiveCard,
    PlayProgress,
    StopEffect,
)
from companion_app.rules.cards import TRACKS, ProgressCard, Track
from companion_app.rules.config import MAX_PLAYERS
from companion_app.rules.declare import (
    ActionRule,
    Button,
    CardPick,
    Check,
    Effect,
    Options,
    PickedHand,
    PromptRule,
)
from companion_app.rules.messages import N_, Msg, Nn_, msg
from companion_app.rules.prompts import PromptKind
from companion_app.rules.state import GameState
from companion_app.rules.words import (
    Line,
    LineKind,
    Telling,
    hand_words,
    steal_lines,
)

Candidates = Callable[[GameState, int], list[Action]]
"""The plays of a card to filter by its check, in a stable order."""
PlayedWhat = Callable[[Telling, Any], Msg | None]
"""What follows "Red plays <card>" in the log (the game after the play); None if nothing."""
PLAY_A_CARD = msg("play a progress card")


def plain_play(card: ProgressCard) -> Candidates:
    """A card without a choice: its one play is :class:`PlayProgress` naming it."""
    plays = [[PlayProgress(p, card)] for p in range(MAX_PLAYERS)]

    def candidates(game: GameState, p: int) -> list[Action]:
        return list(plays[p])

    return candidates


def no_candidates(game: GameState, p: int) -> list[Action]:
    """A VP card is never played (§9)."""
    return []


def ok(game: GameState, a: Any) -> Msg | None:
    return None


def nothing_done(game: GameState, a: Any) -> None:
    """A VP card's effect is its point, counted from ``revealed_vp``."""


def nothing_added(t: Telling, a: Any) -> Msg | None:
    return None


def play_button(game: GameState, a: Any, names: Sequence[str]) -> Msg:
    return msg("Play {card}", card=a.card.title)


@dataclass(frozen=True, eq=False, slots=True)
class CardRule:
    """One kind of progress card, whole: its deck, how many, how it is played and its words.
    One value per card, compared by identity."""

    card: ProgressCard
    track: Track
    """The deck it is shuffled into and goes back under (§10)."""
    count: int
    """How many of it the deck holds (§10)."""
    action: type[Action] | None
    """The action that plays it: :class:`PlayProgress` for a card without a choice, its own
    action carrying the choice otherwise, None for a VP card (revealed, never played)."""
    candidates: Candidates = no_candidates
    check: Check = ok
    """The card's own conditions (holding it and the moment are checked for every card)."""
    plays: Candidates | None = None
    """The legal plays listed directly, where filtering the candidates by the check is slow;
    a test holds it equal to that filter. None: the filter lists them."""
    effect: Effect = nothing_done
    summary: Msg = PLAY_A_CARD
    button: Button = play_button
    what: PlayedWhat = nothing_added
    before_roll: bool = False
    """The Alchemist: played before the roll, the others after (§9)."""

    @property
    def is_vp(self) -> bool:
        return self.action is None


# ---- drawing and the hand limit (§9) ------------------------------------------------------------

EVENT_TRACK: dict[str, Track] = {t.value: t for t in TRACKS}
"""Event die castle face (its value) to the deck it draws from."""


def draws_card(level: int, red: int) -> bool:
    """The castle draw table (§9): level L >= 1 draws when the red die shows 1 ... L + 1."""
    return level >= 1 and red <= level + 1


def castle_draws(game: GameState, track: Track, red: int) -> None:
    """Everyone qualifying draws the top card of ``track``'s deck, the active player first."""
    t = track.index
    if not any(levels[t] for levels in game.improvements):
        return  # nobody has a level on the track: nobody draws (most rolls of a game)
    for p in game.seat_order():
        if draws_card(game.improvements[p][t], red):
            ops.draw_progress(game, p, track, len(game.pending))


def check_discard_progress(game: GameState, a: DiscardProgressCard) -> Msg | None:
    if a.card not in game.progress_hands[a.player]:
        return msg("you hold no {card} to discard", card=a.card.title)
    return None


def do_discard_progress(game: GameState, a: DiscardProgressCard) -> None:
    game.progress_hands[a.player].remove(a.card)
    ops.under_deck(game, a.card)
    turnflow.pending_step_done(game)


_ORDER = {card: card.order for card in ProgressCard}.__getitem__


def distinct(cards: list[ProgressCard]) -> list[ProgressCard]:
    return sorted(set(cards), key=_ORDER)


def progress_discard_options(game: GameState, p: int) -> list[Action]:
    return [DiscardProgressCard(p, c) for c in distinct(game.progress_hands[p])]


def discard_progress_told(t: Telling, a: DiscardProgressCard) -> list[Line]:
    who = t.who(a.player)
    return [
        Line(
            LineKind.CARDS,
            msg("{who} puts a progress card back", who=who),
            frozenset({a.player}),
            msg("{who} puts {card} back", who=who, card=a.card.title),
        )
    ]


# ---- helpers of the cards' conditions and effects -----------------------------------------------


def other_player_reason(game: GameState, p: int, victim: int) -> Msg | None:
    if not 0 <= victim < game.player_count or victim == p:
        return msg("choose another player, not {victim}", victim=victim)
    return None


def others(game: GameState, p: int) -> Iterator[int]:
    """The other seats, in seat order after ``p``."""
    n = game.player_count
    return ((p + i) % n for i in range(1, n))


def opponents_from_active(game: GameState) -> list[int]:
    return game.seat_order()[1:]


_AT_SPOT = {
    "hex": N_("{card} at hex {spot}"),
    "edge": N_("{card} at edge {spot}"),
    "node": N_("{card} at node {spot}"),
}


def at_spot(summary: Msg, spot: str, field: str) -> Button:
    """The button of a card played on a spot of the board: its summary and the spot."""
    words = _AT_SPOT[spot]

    def button(game: GameState, a: Any, names: Sequence[str]) -> Msg:
        return Msg(words, (("card", summary), ("spot", getattr(a, field))))

    return button


def on_victim(card: ProgressCard) -> Button:
    """The button of a card played on another player: the card and the player."""

    def button(game: GameState, a: Any, names: Sequence[str]) -> Msg:
        return msg("{card}: {victim}", card=card.title, victim=names[a.victim])

    return button


# ---- the free roads (Road Building, the Diplomat's own road) ------------------------------------


def free_road_options(game: GameState, p: int) -> list[Action]:
    roads: list[Action] = []
    if game.roads_left(p):
        roads.extend(BuildRoad(p, e) for e in ops.road_spots(game, p))
    return [*roads, *ships.free_ship_options(game, p), StopEffect(p)]


# ---- the actions every card's plays share -------------------------------------------------------


class Plays:
    """The plays of the declared cards: the rules of their actions and the legal plays."""

    def __init__(self, cards: Sequence[CardRule]) -> None:
        self.cards: dict[ProgressCard, CardRule] = {c.card: c for c in cards}
        self.card_of_type: dict[type[Action], ProgressCard] = {
            c.action: c.card for c in cards if c.action not in (None, PlayProgress)
        }
        self.types: tuple[type[Action], ...] = (
            PlayProgress,
            *(t for t in dict.fromkeys(c.action for c in cards) if t not in (None, PlayProgress)),
        )

    def card_of(self, a: Action) -> ProgressCard:
        if isinstance(a, PlayProgress):
            return a.card
        return self.card_of_type[type(a)]

    def check(self, game: GameState, a: Action) -> Msg | None:
        """Holding the card, the right moment (Alchemist before the roll, the rest after),
        then the card's own conditions."""
        rule = self.cards[self.card_of(a)]
        card = rule.card
        if rule.is_vp:
            return msg(
                "{card} is a VP card: revealed when drawn, never played (§9)", card=card.title
            )
        if isinstance(a, PlayProgress) and rule.action is not PlayProgress:
            return msg("{card} is played with its own action, not play_progress", card=card.title)
        if card not in game.progress_hands[a.player]:
            return msg("you hold no {card} progress card", card=card.title)
        before_roll = game.prompt.kind is PromptKind.ROLL
        if rule.before_roll and not before_roll:
            return msg("the {card} is played before the roll (§3, §10)", card=card.title)
        if not rule.before_roll and before_roll:
            return msg("progress cards are played after the roll; only the Alchemist before (§9)")
        return rule.check(game, a)

    def do(self, game: GameState, a: Action) -> None:
        card = self.card_of(a)
        game.progress_hands[a.player].remove(card)
        ops.under_deck(game, card)
        self.cards[card].effect(game, a)
        turnflow.next_prompt(game)

    def turn_plays(self, game: GameState, p: int) -> list[Action]:
        """Every legal progress-card play of the player on turn (after the roll)."""
        hand = game.progress_hands[p]
        if not hand:
            return []
        actions: list[Action] = []
        for card in distinct(hand):
            rule = self.cards[card]
            if rule.before_roll:
                continue
            check = rule.check
            if rule.plays is not None:
                actions.extend(rule.plays(game, p))
            elif check is ok:
                actions.extend(rule.candidates(game, p))
            else:
                actions.extend(a for a in rule.candidates(game, p) if check(game, a) is None)
        return actions

    def told(self, t: Telling, a: Action) -> list[Line]:
        """A progress card played: its name is public once played (§9); the cards it moved in
        the open (monopolies, harvests) seat by seat, the cards the Bishop stole privately."""
        p = a.player
        rule = self.cards[self.card_of(a)]
        what = rule.what(t, a)
        played = (
            msg("{player} plays {card}", player=t.who(p), card=rule.card.title)
            if what is None
            else msg(
                "{player} plays {card}{what}", player=t.who(p), card=rule.card.title, what=what
            )
        )
        lines = [Line(LineKind.PROGRESS, played)]
        lines.extend(steal_lines(t))
        for q in range(len(t.names)):
            moved = t.received(q) if q == p else t.given(q)
            if any(moved):
                words = N_("{player} gets {cards}") if q == p else N_("{player} gives {cards}")
                text = Msg(words, (("player", t.who(q)), ("cards", hand_words(moved))))
                lines.append(Line(LineKind.CARDS, text))
        return lines

    def rules(self) -> tuple[ActionRule, ...]:
        """One rule per play action, answering the roll (the Alchemist) and the turn."""
        declared = {c.action: c for c in self.cards.values() if c.action is not PlayProgress}
        return tuple(
            ActionRule(
                t,
                self.check,
                self.do,
                (PromptKind.ROLL, PromptKind.TURN),
                declared[t].summary if t in declared else PLAY_A_CARD,
                button=declared[t].button if t in declared else play_button,
                told=self.told,
            )
            for t in self.types
        )


Stop = tuple[Callable[[GameState], Msg | None], Callable[[GameState], None]]
"""A prompt a card's follow-up may stop at: why not now (or None), and what stopping does."""


def stop_rule(stops: Mapping[PromptKind, Stop]) -> ActionRule:
    """:class:`StopEffect` for every card prompt that may end early, each with what stopping
    leaves undone."""

    def check(game: GameState, a: StopEffect) -> Msg | None:
        stop = stops.get(game.prompt.kind)
        if stop is None:
            return msg("there is no card effect to stop now")
        return stop[0](game)

    def do(game: GameState, a: StopEffect) -> None:
        stops[game.prompt.kind][1](game)

    return ActionRule(
        StopEffect,
        check,
        do,
        tuple(stops),
        msg("stop the card's effect"),
        button=lambda g, a, names: msg("Stop here"),
        told=lambda t, a: [
            Line(LineKind.PROGRESS, msg("{player} stops there", player=t.who(a.player)))
        ],
    )


def give_rule(gives: Mapping[PromptKind, tuple[Check, Effect]]) -> ActionRule:
    """:class:`GiveCard`: a card of the giver's choice to the player on turn, for each card
    prompt asking for one (its own condition, and what follows the gift)."""

    def check(game: GameState, a: GiveCard) -> Msg | None:
        if game.hands[a.player][a.card] == 0:
            return msg("you hold no {card}", card=a.card.words)
        return gives[game.prompt.kind][0](game, a)

    def do(game: GameState, a: GiveCard) -> None:
        game.hands[a.player][a.card] -= 1
        game.hands[game.active][a.card] += 1
        gives[game.prompt.kind][1](game, a)

    return ActionRule(
        GiveCard,
        check,
        do,
        tuple(gives),
        msg("give a card"),
        button=lambda g, a, names: msg("Give {card}", card=a.card.counted(1)),
        told=give_told,
    )


def give_told(t: Telling, a: GiveCard) -> list[Line]:
    """A Wedding gift or a Commercial Harbor answer, to the player on turn."""
    who, to = t.who(a.player), t.prior.active
    return [
        Line(
            LineKind.CARDS,
            msg("{who} gives {to} a card", who=who, to=t.who(to)),
            frozenset({a.player, to}),
            msg("{who} gives {to} {card}", who=who, to=t.who(to), card=a.card.counted(1)),
        )
    ]


def stop_now(game: GameState) -> Msg | None:
    return None


def stop_follow_up(game: GameState) -> None:
    """The card's prompt ends (fewer free roads or promotions)."""
    turnflow.pending_done(game)


STOP_FOLLOW_UP: Stop = (stop_now, stop_follow_up)


DISCARD_RULE = ActionRule(
    DiscardProgressCard,
    check_discard_progress,
    do_discard_progress,
    (PromptKind.PROGRESS_DISCARD,),
    msg("discard a progress card"),
    button=lambda g, a, names: msg("Discard {card}", card=a.card.title),
    told=discard_progress_told,
)
SHARED_OPTIONS: dict[PromptKind, Options] = {
    PromptKind.PROGRESS_DISCARD: progress_discard_options,
    PromptKind.FREE_ROAD: free_road_options,
}
SHARED_STOPS: dict[PromptKind, Stop] = {PromptKind.FREE_ROAD: STOP_FOLLOW_UP}
SHARED_PROMPTS = (
    PromptRule(
        PromptKind.PROGRESS_DISCARD,
        Nn_(
            "more than 4 progress cards: discard {count} card",
            "more than 4 progress cards: discard {count} cards",
        ),
        private=True,
        phone=True,
        picker=CardPick(
            PickedHand.OWN_PROGRESS,
            Nn_(
                "{player}: put back {count} progress card",
                "{player}: put back {count} progress cards",
            ),
            N_("Put back {cards}"),
        ),
        shown=N_("Your progress cards: {cards}"),
    ),
    PromptRule(
        PromptKind.FREE_ROAD,
        Nn_("build {count} road free, or stop", "build {count} roads free, or stop"),
        # Road Building at sea (§13.9)
        sea_words=Nn_(
            "build {count} road or ship free, or stop", "build {count} roads or ships free, or stop"
        ),
    ),
)
